// vector.cu — the dense-vector kernels compiled with the library
// (cuda/writeback/gcu_vmerge.cuh): the write-back with values copied as bytes,
// the mask's allowed positions, the scatter of a vector's entries into its
// dense image (an operand uploads its entries only), and the compaction of
// a dense image into its entries (CUB's DeviceSelect over the positions,
// then a gather of the values), which the materialization, a reduction and
// a sparse operand use, and the count of its entries (CUB's reduction: a
// product's T, whose count decides an accum's iso status).
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

extern "C" {
#include "gcu_vector.h"
#include "gcu_util.h"
#include "../device/gcu_device.h"
#include "../jit/gcu_jit.h"
}
#include "writeback/gcu_vmerge.cuh"

namespace {

__global__ void __launch_bounds__ (GCU_VEC_THREADS) k_vmerge_bytes (gcu_vmerge_args a)
{
    gcu_vmerge_kernel<gcu_merge_bytes> (a) ;
}

__global__ void __launch_bounds__ (GCU_VEC_THREADS) k_vallow (gcu_vmerge_args a, int8_t *allow)
{
    gcu_vallow_kernel (a, allow) ;
}

// vals [k] = x [idx [k]], vsize bytes each
__global__ void __launch_bounds__ (GCU_VEC_THREADS) k_gather (const int64_t *__restrict__ idx,
    const int64_t *__restrict__ count, const unsigned char *__restrict__ x, uint64_t vsize,
    unsigned char *__restrict__ vals)
{
    const int64_t n = *count ;
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t k = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; k < n ; k += stride)
    {
        const unsigned char *src = x + idx [k] * (int64_t) vsize ;
        unsigned char *dst = vals + k * (int64_t) vsize ;
        for (uint64_t b = 0 ; b < vsize ; b++) dst [b] = src [b] ;
    }
}

// one value of at most 16 bytes, by value
struct fill_value { unsigned char b [16] ; } ;

// x [k] = v for k < n: a value is nw words of type W (W's size divides the
// value's, and x is aligned to it), v's words in v.b
template <typename W>
__global__ void __launch_bounds__ (GCU_VEC_THREADS) k_fill (W *__restrict__ x, int64_t n,
    fill_value v, int64_t nw)
{
    W w [16 / sizeof (W)] ;
    memcpy (w, v.b, sizeof (w)) ;
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t k = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; k < n ; k += stride)
        for (int64_t q = 0 ; q < nw ; q++) x [k * nw + q] = w [q] ;
}

// b [idx [k]] = 1, x [idx [k]] = vals [k] for k < nv: a value is nw words
// of type W (W's size divides the value's, and x and vals are aligned to it)
template <typename W>
__global__ void __launch_bounds__ (GCU_VEC_THREADS) k_scatter (const int64_t *__restrict__ idx,
    const W *__restrict__ vals, int64_t nv, int64_t nw, int8_t *__restrict__ b,
    W *__restrict__ x)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t k = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; k < nv ; k += stride)
    {
        const int64_t i = idx [k] ;
        b [i] = 1 ;
        for (int64_t w = 0 ; w < nw ; w++) x [i * nw + w] = vals [k * nw + w] ;
    }
}

unsigned grid_of (int64_t n)
{
    const gcu_device_props *dev = gcu_device () ;
    const int64_t g = (n + GCU_VEC_THREADS - 1) / GCU_VEC_THREADS ;
    const int64_t cap = (int64_t) (dev != NULL ? dev->sm_count : 1) * GCU_WRITEBACK_BLOCKS_PER_SM ;
    return (unsigned) (g > cap ? cap : (g < 1 ? 1 : g)) ;
}

} // namespace

extern "C" GrB_Info gcu_vec_merge_launch (const gcu_vmerge_args *a, void *typed, gcu_stream s)
{
    if (a->v.m <= 0) return GrB_SUCCESS ;
    const unsigned grid = grid_of (a->v.m) ;
    if (typed == NULL)
    {
        k_vmerge_bytes <<<grid, GCU_VEC_THREADS, 0, (cudaStream_t) s>>> (*a) ;
        return gcu_launch_check ("vector write-back") ;
    }
    gcu_vmerge_args b = *a ;
    void *args [] = { &b } ;
    GrB_Info info = gcu_jit_launch (typed, grid, GCU_VEC_THREADS, 0, s, args) ;
    return info != GrB_SUCCESS ? info : gcu_launch_check ("vector write-back (JIT)") ;
}

// the fill with words of W
template <typename W>
static GrB_Info fill_as (void *x, int64_t n, const fill_value &v, size_t vsize, gcu_stream s)
{
    k_fill<W> <<<grid_of (n), GCU_VEC_THREADS, 0, (cudaStream_t) s>>> ((W *) x, n, v,
        (int64_t) (vsize / sizeof (W))) ;
    return gcu_launch_check ("vector fill") ;
}

extern "C" GrB_Info gcu_vec_fill_launch (void *x, int64_t n, const void *val, size_t vsize,
    gcu_stream s)
{
    fill_value v ;
    if (vsize > sizeof (v.b)) return GCU_NOT_HANDLED ;
    if (n <= 0) return GrB_SUCCESS ;
    memset (&v, 0, sizeof (v)) ;
    memcpy (v.b, val, vsize) ;
    // the widest word that divides the value and to which x is aligned
    const auto fits = [&] (size_t w) { return vsize % w == 0 && (uintptr_t) x % w == 0 ; } ;
    if (fits (16)) return fill_as<uint4> (x, n, v, vsize, s) ;
    if (fits (8)) return fill_as<uint64_t> (x, n, v, vsize, s) ;
    if (fits (4)) return fill_as<uint32_t> (x, n, v, vsize, s) ;
    if (fits (2)) return fill_as<uint16_t> (x, n, v, vsize, s) ;
    return fill_as<uint8_t> (x, n, v, vsize, s) ;
}

// the scatter with words of W
template <typename W>
static GrB_Info scatter_as (const int64_t *idx, const void *vals, int64_t nv, size_t vsize,
    int8_t *b, void *x, gcu_stream s)
{
    k_scatter<W> <<<grid_of (nv), GCU_VEC_THREADS, 0, (cudaStream_t) s>>> (idx,
        (const W *) vals, nv, (int64_t) (vsize / sizeof (W)), b, (W *) x) ;
    return gcu_launch_check ("vector scatter") ;
}

extern "C" GrB_Info gcu_vec_scatter (const int64_t *idx, const void *vals, int64_t nv,
    int64_t n, size_t vsize, int8_t *b, void *x, gcu_stream s)
{
    if (n <= 0 || vsize == 0) return GrB_SUCCESS ;
    // absent positions: no presence, and a zero value as a calloc'd host
    // image had (nothing should read them; a stray read then sees zeros)
    GrB_Info info = gcu_memset (b, 0, (size_t) n, s) ;
    if (info == GrB_SUCCESS) info = gcu_memset (x, 0, (size_t) n * vsize, s) ;
    if (info != GrB_SUCCESS || nv <= 0) return info ;
    // the widest word that divides the value and to which both arrays are
    // aligned: a 16-byte FC64 moves as one uint4, a 12-byte user type as
    // three uint32_t, an odd size as bytes
    const uintptr_t align = (uintptr_t) x | (uintptr_t) vals ;
    const auto fits = [&] (size_t w) { return vsize % w == 0 && align % w == 0 ; } ;
    if (fits (16)) return scatter_as<uint4> (idx, vals, nv, vsize, b, x, s) ;
    if (fits (8)) return scatter_as<uint64_t> (idx, vals, nv, vsize, b, x, s) ;
    if (fits (4)) return scatter_as<uint32_t> (idx, vals, nv, vsize, b, x, s) ;
    if (fits (2)) return scatter_as<uint16_t> (idx, vals, nv, vsize, b, x, s) ;
    return scatter_as<uint8_t> (idx, vals, nv, vsize, b, x, s) ;
}

extern "C" GrB_Info gcu_vec_allow_launch (const gcu_vmerge_args *a, int8_t *allow, gcu_stream s)
{
    if (a->v.m <= 0) return GrB_SUCCESS ;
    k_vallow <<<grid_of (a->v.m), GCU_VEC_THREADS, 0, (cudaStream_t) s>>> (*a, allow) ;
    return gcu_launch_check ("vector mask") ;
}

// a presence byte as a count
struct present_one
{
    __host__ __device__ int64_t operator() (int8_t b) const { return b != 0 ; }
} ;

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (tmp, s) ; gcu_dfree (dcount, s) ;

extern "C" GrB_Info gcu_vec_count (const int8_t *b, int64_t n, int64_t *count, gcu_stream s)
{
    void *tmp = NULL ;
    int64_t *dcount = NULL ;
    *count = 0 ;
    // int lengths for CUB
    if (n < 0 || n >= ((int64_t) 1 << 31) - 1) return GCU_NOT_HANDLED ;
    if (n == 0) return GrB_SUCCESS ;
    const cudaStream_t st = (cudaStream_t) s ;
    auto it = thrust::make_transform_iterator (b, present_one ()) ;
    GCU_TRY (gcu_dmalloc ((void **) &dcount, sizeof (int64_t), s)) ;
    size_t need = 0 ;
    if (cub::DeviceReduce::Sum (NULL, need, it, dcount, (int) n, st) != cudaSuccess) GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_dmalloc (&tmp, need + 16, s)) ;
    if (cub::DeviceReduce::Sum (tmp, need, it, dcount, (int) n, st) != cudaSuccess) GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_launch_check ("vector count")) ;
    GCU_TRY (gcu_memcpy_d2h (count, dcount, sizeof (int64_t), s)) ;     // synchronises
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (tmp, s) ; gcu_dfree (dcount, s) ; gcu_dfree (pos, s) ;

extern "C" GrB_Info gcu_vec_compact (const int8_t *b, const void *x, int64_t n, size_t vsize,
    int64_t *idx, void *vals, int64_t *count, gcu_stream s)
{
    void *tmp = NULL ;
    int64_t *dcount = NULL, *pos = NULL ;
    if (count != NULL) *count = 0 ;
    // int lengths for CUB
    if (n < 0 || n >= ((int64_t) 1 << 31) - 1) return GCU_NOT_HANDLED ;
    if (n == 0) return GrB_SUCCESS ;
    const cudaStream_t st = (cudaStream_t) s ;
    int64_t *out = idx ;
    if (out == NULL)
    {
        GCU_TRY (gcu_dmalloc ((void **) &pos, (size_t) n * sizeof (int64_t), s)) ;
        out = pos ;
    }
    GCU_TRY (gcu_dmalloc ((void **) &dcount, sizeof (int64_t), s)) ;
    thrust::counting_iterator<int64_t> it (0) ;
    size_t need = 0 ;
    if (cub::DeviceSelect::Flagged (NULL, need, it, b, out, dcount, (int) n, st) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_dmalloc (&tmp, need + 16, s)) ;
    if (cub::DeviceSelect::Flagged (tmp, need, it, b, out, dcount, (int) n, st) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_launch_check ("vector compaction: select")) ;
    if (vals != NULL)
    {
        k_gather <<<grid_of (n), GCU_VEC_THREADS, 0, st>>> (out, dcount,
            (const unsigned char *) x, (uint64_t) vsize, (unsigned char *) vals) ;
        GCU_TRY (gcu_launch_check ("vector compaction: gather")) ;
    }
    if (count != NULL) GCU_TRY (gcu_memcpy_d2h (count, dcount, sizeof (int64_t), s)) ;   // synchronises
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}
