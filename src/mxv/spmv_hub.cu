// spmv_hub.cu — the hub order of an SpMV's matrix (gcu_spmv_plan.h): R's
// columns renumbered by how many entries each holds, most first, so that
// the values of u that a power-law matrix reads most (its hubs: 16,384 of
// rmat-20-16's 1,048,576 columns hold 57% of its entries, but a random
// labelling scatters them over all of u) lie together at the front of a
// permuted copy of u, where the SMs' L1 caches keep them; the gathers of
// the rest still go to L2. R's indices relabelled once a matrix (cached as
// derived data, src/mxv/spmv.c); u permuted every call (one gather of |u|
// values). The order of each row's entries, and so every sum, is R's own.
// CUB: the column counts' radix sort (descending), the hubs' share by a
// reduction.
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "gcu_spmv_plan.h"
#include "gcu_util.h"
#include "../../cuda/mxv/gcu_mxv_policy.h"
}

namespace {

GrB_Info cu (cudaError_t e) { return e == cudaSuccess ? GrB_SUCCESS : GrB_PANIC ; }

unsigned grid_of (long long n)
{
    const long long g = (n + GCU_MXV_THREADS - 1) / GCU_MXV_THREADS ;
    return (unsigned) (g < 1 ? 1 : g < 65535LL * 32 ? g : 65535LL * 32) ;
}

// each column's entries (cnt zeroed), and the columns in order (rows)
template <class RI>
__global__ void __launch_bounds__ (GCU_MXV_THREADS) hub_count_k (const RI *__restrict__ Rj,
    long long nnz, int32_t *__restrict__ cnt)
{
    for (long long p = (long long) blockIdx.x * blockDim.x + threadIdx.x ; p < nnz ;
        p += (long long) gridDim.x * blockDim.x)
        atomicAdd (&cnt [Rj [p]], 1) ;
}

__global__ void __launch_bounds__ (GCU_MXV_THREADS) hub_iota_k (long long n, int32_t *__restrict__ v)
{
    const long long k = (long long) blockIdx.x * blockDim.x + threadIdx.x ;
    if (k < n) v [k] = (int32_t) k ;
}

// the inverse of the order: inv [Hp [k]] = k
__global__ void __launch_bounds__ (GCU_MXV_THREADS) hub_inverse_k (const int32_t *__restrict__ Hp,
    long long n, int32_t *__restrict__ inv)
{
    const long long k = (long long) blockIdx.x * blockDim.x + threadIdx.x ;
    if (k < n) inv [Hp [k]] = (int32_t) k ;
}

template <class RI>
__global__ void __launch_bounds__ (GCU_MXV_THREADS) hub_relabel_k (const RI *__restrict__ Rj,
    long long nnz, const int32_t *__restrict__ inv, RI *__restrict__ Hj)
{
    for (long long p = (long long) blockIdx.x * blockDim.x + threadIdx.x ; p < nnz ;
        p += (long long) gridDim.x * blockDim.x)
        Hj [p] = (RI) inv [Rj [p]] ;
}

// xp [k] = x [Hp [k]] in words of W bytes, values of V words
template <class W, int V>
__global__ void __launch_bounds__ (GCU_MXV_THREADS) hub_gather_k (const int32_t *__restrict__ Hp,
    long long n, const W *__restrict__ x, W *__restrict__ xp)
{
    const long long k = (long long) blockIdx.x * blockDim.x + threadIdx.x ;
    if (k >= n) return ;
    const long long c = Hp [k] ;
    #pragma unroll
    for (int b = 0 ; b < V ; b++) xp [k * V + b] = x [c * V + b] ;
}

__global__ void __launch_bounds__ (GCU_MXV_THREADS) hub_gather_bytes_k (const int32_t *__restrict__ Hp,
    long long n, const unsigned char *__restrict__ x, size_t size, unsigned char *__restrict__ xp)
{
    const long long k = (long long) blockIdx.x * blockDim.x + threadIdx.x ;
    if (k >= n) return ;
    const long long c = Hp [k] ;
    for (size_t b = 0 ; b < size ; b++) xp [k * size + b] = x [c * size + b] ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (tmp, s) ; gcu_dfree (buf, s) ;

template <class RI>
GrB_Info hub_order (const RI *Rj, int64_t nnz, int64_t ncols, int32_t *Hp, double *cover,
    gcu_stream s)
{
    void *tmp = NULL ;
    int32_t *buf = NULL ;
    size_t b1 = 0, b2 = 0 ;
    cudaStream_t st = (cudaStream_t) s ;
    const int n = (int) ncols ;
    const int top = (int) (ncols < GCU_SPMV_HUB_COLS ? ncols : GCU_SPMV_HUB_COLS) ;
    // cnt, the sorted counts, the columns in order, and the hubs' sum
    GCU_TRY (gcu_dmalloc ((void **) &buf, (3 * (size_t) n + 2) * sizeof (int32_t), s)) ;
    int32_t *cnt = buf, *sorted = buf + n, *cols = buf + 2 * (size_t) n ;
    int32_t *sum = buf + 3 * (size_t) n ;
    GCU_TRY (cu (cub::DeviceRadixSort::SortPairsDescending (NULL, b1, cnt, sorted, cols, Hp, n, 0, 32, st))) ;
    GCU_TRY (cu (cub::DeviceReduce::Sum (NULL, b2, sorted, sum, top, st))) ;
    GCU_TRY (gcu_dmalloc (&tmp, b1 > b2 ? b1 : b2, s)) ;
    GCU_TRY (gcu_memset (cnt, 0, (size_t) n * sizeof (int32_t), s)) ;
    hub_count_k<RI> <<<grid_of (nnz), GCU_MXV_THREADS, 0, st>>> (Rj, (long long) nnz, cnt) ;
    hub_iota_k <<<grid_of (n), GCU_MXV_THREADS, 0, st>>> ((long long) n, cols) ;
    GCU_TRY (gcu_launch_check ("spmv hub order: counts")) ;
    GCU_TRY (cu (cub::DeviceRadixSort::SortPairsDescending (tmp, b1, cnt, sorted, cols, Hp, n, 0, 32, st))) ;
    GCU_TRY (cu (cub::DeviceReduce::Sum (tmp, b2, sorted, sum, top, st))) ;
    GCU_TRY (gcu_launch_check ("spmv hub order: sort")) ;
    int32_t h = 0 ;
    GCU_TRY (gcu_memcpy_d2h (&h, sum, sizeof (h), s)) ;        // synchronises
    *cover = nnz > 0 ? (double) h / (double) nnz : 0 ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (inv, s) ;

template <class RI>
GrB_Info hub_relabel (const RI *Rj, int64_t nnz, const int32_t *Hp, int64_t ncols, RI *Hj,
    gcu_stream s)
{
    int32_t *inv = NULL ;
    cudaStream_t st = (cudaStream_t) s ;
    GCU_TRY (gcu_dmalloc ((void **) &inv, (size_t) ncols * sizeof (int32_t), s)) ;
    hub_inverse_k <<<grid_of (ncols), GCU_MXV_THREADS, 0, st>>> (Hp, (long long) ncols, inv) ;
    hub_relabel_k<RI> <<<grid_of (nnz), GCU_MXV_THREADS, 0, st>>> (Rj, (long long) nnz, inv, Hj) ;
    GCU_TRY (gcu_launch_check ("spmv hub order: relabel")) ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

}   // namespace

extern "C" GrB_Info gcu_spmv_hub_order (const void *Rj, bool idx64, int64_t nnz, int64_t ncols,
    int32_t *Hp, double *cover, gcu_stream s)
{
    *cover = 0 ;
    if (ncols <= 0 || ncols > INT32_MAX || nnz <= 0 || nnz > INT32_MAX) return GCU_NOT_HANDLED ;
    return idx64 ? hub_order ((const uint64_t *) Rj, nnz, ncols, Hp, cover, s)
                 : hub_order ((const uint32_t *) Rj, nnz, ncols, Hp, cover, s) ;
}

extern "C" GrB_Info gcu_spmv_hub_relabel (const void *Rj, bool idx64, int64_t nnz,
    const int32_t *Hp, int64_t ncols, void *Hj, gcu_stream s)
{
    return idx64 ? hub_relabel ((const uint64_t *) Rj, nnz, Hp, ncols, (uint64_t *) Hj, s)
                 : hub_relabel ((const uint32_t *) Rj, nnz, Hp, ncols, (uint32_t *) Hj, s) ;
}

extern "C" GrB_Info gcu_spmv_hub_gather (const int32_t *Hp, int64_t ncols, const void *x,
    size_t size, void *xp, gcu_stream s)
{
    cudaStream_t st = (cudaStream_t) s ;
    const unsigned g = (unsigned) ((ncols + GCU_MXV_THREADS - 1) / GCU_MXV_THREADS) ;
    const long long n = (long long) ncols ;
    if (ncols <= 0) return GrB_SUCCESS ;
    // (the device's buffers are aligned to their widest words)
    if (size == 8) hub_gather_k<uint64_t, 1> <<<g, GCU_MXV_THREADS, 0, st>>> (Hp, n, (const uint64_t *) x, (uint64_t *) xp) ;
    else if (size == 16) hub_gather_k<uint64_t, 2> <<<g, GCU_MXV_THREADS, 0, st>>> (Hp, n, (const uint64_t *) x, (uint64_t *) xp) ;
    else if (size == 4) hub_gather_k<uint32_t, 1> <<<g, GCU_MXV_THREADS, 0, st>>> (Hp, n, (const uint32_t *) x, (uint32_t *) xp) ;
    else if (size == 2) hub_gather_k<uint16_t, 1> <<<g, GCU_MXV_THREADS, 0, st>>> (Hp, n, (const uint16_t *) x, (uint16_t *) xp) ;
    else if (size == 1) hub_gather_k<uint8_t, 1> <<<g, GCU_MXV_THREADS, 0, st>>> (Hp, n, (const uint8_t *) x, (uint8_t *) xp) ;
    else hub_gather_bytes_k <<<g, GCU_MXV_THREADS, 0, st>>> (Hp, n, (const unsigned char *) x, size, (unsigned char *) xp) ;
    return gcu_launch_check ("spmv hub order: u permuted") ;
}
