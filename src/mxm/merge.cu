// merge.cu — the device write-back C<M,replace> = accum (C, T) for a result
// T on the device (DESIGN §3: a GPU call leaves its result on the device;
// its write-back is a device kernel): one thread a row merges the row's
// sorted C, T and M (cuda/writeback/gcu_merge.cuh); counted, scanned (CUB),
// then filled, by the kernel here when the values are copied as bytes (no
// accum, C of T's type) or by the JIT's typed one (an accum, a typecast);
// the result (64-bit indices) goes into the buffers of C's residency entry.
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "gcu_mxm.h"
#include "gcu_util.h"
#include "../device/gcu_device.h"
#include "../jit/gcu_jit.h"
}
#include "writeback/gcu_merge.cuh"

namespace {

__global__ void __launch_bounds__ (GCU_MERGE_THREADS) k_merge_count (gcu_merge_args a,
    int64_t *cnt)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i <= a.m ; i += stride)
        cnt [i] = (i < a.m) ? gcu_merge_row<false, gcu_merge_bytes> (a, i, NULL, NULL, 0) : 0 ;
}

__global__ void __launch_bounds__ (GCU_MERGE_THREADS) k_merge_fill (gcu_merge_args a,
    const int64_t *__restrict__ Op, int64_t *__restrict__ Oj, void *__restrict__ Ox)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < a.m ; i += stride)
        (void) gcu_merge_row<true, gcu_merge_bytes> (a, i, Oj, Ox, Op [i]) ;
}

} // namespace

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (cnt, s) ; gcu_dfree (tmp, s) ;

extern "C" GrB_Info gcu_mxm_merge_device (const gcu_merge_args *in, void *typed_fill,
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
    const int64_t cap = (int64_t) (dev != NULL ? dev->sm_count : 1) * GCU_WRITEBACK_BLOCKS_PER_SM ;
    const unsigned grid = (unsigned) (g > cap ? cap : (g < 1 ? 1 : g)) ;
    GCU_TRY (gcu_dmalloc ((void **) &cnt, (size_t) (m + 1) * sizeof (int64_t), s)) ;
    k_merge_count <<<grid, GCU_MERGE_THREADS, 0, st>>> (*in, cnt) ;
    GCU_TRY (gcu_launch_check ("write-back merge: count")) ;
    GCU_TRY (gcu_mxm_keep_alloc (keep, (size_t) (m + 1) * sizeof (int64_t), &Op)) ;
    size_t need = 0 ;
    if (cub::DeviceScan::ExclusiveSum (NULL, need, cnt, (int64_t *) Op, (int) (m + 1), st) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_dmalloc (&tmp, need + 16, s)) ;
    if (cub::DeviceScan::ExclusiveSum (tmp, need, cnt, (int64_t *) Op, (int) (m + 1), st) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_launch_check ("write-back merge: scan")) ;
    int64_t total = 0 ;
    GCU_TRY (gcu_memcpy_d2h (&total, (const int64_t *) Op + m, sizeof (int64_t), s)) ;
    GCU_TRY (gcu_mxm_keep_alloc (keep, (size_t) (total + 1) * sizeof (int64_t), &Oj)) ;
    GCU_TRY (gcu_mxm_keep_alloc (keep, (size_t) (total + 1) * in->csize, &Ox)) ;
    if (total > 0 && typed_fill == NULL)
    {
        k_merge_fill <<<grid, GCU_MERGE_THREADS, 0, st>>> (*in, (const int64_t *) Op,
            (int64_t *) Oj, Ox) ;
        GCU_TRY (gcu_launch_check ("write-back merge: fill")) ;
    }
    else if (total > 0)
    {
        gcu_merge_args a = *in ;
        const int64_t *op = (const int64_t *) Op ;
        int64_t *oj = (int64_t *) Oj ;
        void *ox = Ox ;
        void *args [] = { &a, &op, &oj, &ox } ;
        GCU_TRY (gcu_jit_launch (typed_fill, grid, GCU_MERGE_THREADS, 0, s, args)) ;
        GCU_TRY (gcu_launch_check ("write-back merge: fill (JIT)")) ;
    }
    GCU_TRY (gcu_sync (s)) ;
    *nvals = (GrB_Index) total ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}
