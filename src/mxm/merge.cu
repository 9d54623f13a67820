// merge.cu — the device write-back C<M,replace> = T for a result T on the
// device, with no accum and C of T's type (DESIGN §3: a GPU call leaves its
// result on the device; the write-back is a device kernel): where the mask
// is true (valued: any bit of the value set, as SuiteSparse tests it;
// structural: an entry; complemented: the opposite) C takes T's entry or
// loses its own; where it is false C keeps its entry, or loses it with
// GrB_REPLACE. One thread a row merges the row's sorted C, T and M; counted,
// scanned (CUB), then filled; the result (64-bit indices, C's values copied
// as bytes) goes into the buffers of C's residency entry.
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "gcu_mxm.h"
#include "gcu_util.h"
#include "../device/gcu_device.h"
}

namespace {

const int GCU_MERGE_THREADS = 256 ;

__device__ __forceinline__ int64_t ld (const void *a, int64_t k, bool w64)
{
    return w64 ? (int64_t) ((const uint64_t *) a) [k] : (int64_t) ((const uint32_t *) a) [k] ;
}

// the mask's value at entry e is true: any byte of it nonzero
__device__ __forceinline__ bool value_true (const gcu_mxm_merge_in &a, int64_t e)
{
    const unsigned char *v = (const unsigned char *) a.Mx + (a.m_iso ? 0 : e * (int64_t) a.msize) ;
    bool t = false ;
    for (size_t b = 0 ; b < a.msize ; b++) t |= v [b] != 0 ;
    return t ;
}

// Row i of the result: its entry count, written from out on (FILL)
template <bool FILL>
__device__ int64_t merge_row (const gcu_mxm_merge_in &a, int64_t i, int64_t *Oj,
    unsigned char *Ox, int64_t out)
{
    int64_t pc = 0, ec = 0 ;
    if (a.Cp != NULL) { pc = ld (a.Cp, i, a.c_idx64) ; ec = ld (a.Cp, i + 1, a.c_idx64) ; }
    int64_t pt = ld (a.Tp, i, a.t_idx64) ;
    const int64_t et = ld (a.Tp, i + 1, a.t_idx64) ;
    int64_t pm = ld (a.Mp, i, a.m_idx64) ;
    const int64_t em = ld (a.Mp, i + 1, a.m_idx64) ;
    const int64_t none = INT64_MAX ;
    int64_t n = 0 ;
    while (pc < ec || pt < et)
    {
        const int64_t jc = pc < ec ? ld (a.Cj, pc, a.c_idx64) : none ;
        const int64_t jt = pt < et ? ld (a.Tj, pt, a.t_idx64) : none ;
        const int64_t j = jc < jt ? jc : jt ;
        while (pm < em && ld (a.Mj, pm, a.m_idx64) < j) pm++ ;
        bool t = pm < em && ld (a.Mj, pm, a.m_idx64) == j && (a.structural || value_true (a, pm)) ;
        if (a.complement) t = !t ;
        const unsigned char *src = NULL ;
        if (t) { if (jt == j) src = (const unsigned char *) a.Tx + pt * (int64_t) a.zsize ; }
        else if (jc == j) src = (const unsigned char *) a.Cx + (a.c_iso ? 0 : pc * (int64_t) a.zsize) ;
        if (src != NULL)
        {
            if (FILL)
            {
                Oj [out + n] = j ;
                unsigned char *dst = Ox + (out + n) * (int64_t) a.zsize ;
                for (size_t b = 0 ; b < a.zsize ; b++) dst [b] = src [b] ;
            }
            n++ ;
        }
        if (jc == j) pc++ ;
        if (jt == j) pt++ ;
    }
    return n ;
}

__global__ void __launch_bounds__ (GCU_MERGE_THREADS) k_merge_count (gcu_mxm_merge_in a,
    int64_t *cnt)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i <= a.m ; i += stride)
        cnt [i] = (i < a.m) ? merge_row<false> (a, i, NULL, NULL, 0) : 0 ;
}

__global__ void __launch_bounds__ (GCU_MERGE_THREADS) k_merge_fill (gcu_mxm_merge_in a,
    const int64_t *__restrict__ Op, int64_t *__restrict__ Oj, unsigned char *__restrict__ Ox)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < a.m ; i += stride)
        (void) merge_row<true> (a, i, Oj, Ox, Op [i]) ;
}

// a buffer of the result's entry; GCU_NOT_HANDLED when there is no room
GrB_Info out_alloc (const gcu_spgemm_keep *keep, size_t bytes, void **p)
{
    return keep->alloc (keep->ctx, bytes, p) == GrB_SUCCESS ? GrB_SUCCESS : GCU_NOT_HANDLED ;
}

} // namespace

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (cnt, s) ; gcu_dfree (tmp, s) ;

extern "C" GrB_Info gcu_mxm_merge_device (const gcu_mxm_merge_in *in,
    const gcu_spgemm_keep *keep, GrB_Index *nvals, gcu_stream s)
{
    int64_t *cnt = NULL ;
    void *tmp = NULL, *Op = NULL, *Oj = NULL, *Ox = NULL ;
    *nvals = 0 ;
    const int64_t m = in->m ;
    // int row counts for CUB
    if (m < 0 || m >= ((int64_t) 1 << 31) - 1) return GCU_NOT_HANDLED ;
    const cudaStream_t st = (cudaStream_t) s ;
    const gcu_device_props *dev = gcu_device () ;
    int64_t g = (m + GCU_MERGE_THREADS) / GCU_MERGE_THREADS ;
    const int64_t cap = (int64_t) (dev != NULL ? dev->sm_count : 1) * 16 ;
    const unsigned grid = (unsigned) (g > cap ? cap : (g < 1 ? 1 : g)) ;
    GCU_TRY (gcu_dmalloc ((void **) &cnt, (size_t) (m + 1) * sizeof (int64_t), s)) ;
    k_merge_count <<<grid, GCU_MERGE_THREADS, 0, st>>> (*in, cnt) ;
    GCU_TRY (gcu_launch_check ("write-back merge: count")) ;
    GCU_TRY (out_alloc (keep, (size_t) (m + 1) * sizeof (int64_t), &Op)) ;
    size_t need = 0 ;
    if (cub::DeviceScan::ExclusiveSum (NULL, need, cnt, (int64_t *) Op, (int) (m + 1), st) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_dmalloc (&tmp, need + 16, s)) ;
    if (cub::DeviceScan::ExclusiveSum (tmp, need, cnt, (int64_t *) Op, (int) (m + 1), st) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_launch_check ("write-back merge: scan")) ;
    int64_t total = 0 ;
    GCU_TRY (gcu_memcpy_d2h (&total, (const int64_t *) Op + m, sizeof (int64_t), s)) ;
    GCU_TRY (out_alloc (keep, (size_t) (total + 1) * sizeof (int64_t), &Oj)) ;
    GCU_TRY (out_alloc (keep, (size_t) (total + 1) * in->zsize, &Ox)) ;
    if (total > 0)
    {
        k_merge_fill <<<grid, GCU_MERGE_THREADS, 0, st>>> (*in, (const int64_t *) Op,
            (int64_t *) Oj, (unsigned char *) Ox) ;
        GCU_TRY (gcu_launch_check ("write-back merge: fill")) ;
    }
    GCU_TRY (gcu_sync (s)) ;
    *nvals = (GrB_Index) total ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}
