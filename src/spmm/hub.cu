// hub.cu — the cache classes of A's columns for SpMM's row kernel
// (gcu_spmm.h, gcu_spmm_hub_classes). In a power-law A a few columns hold
// many entries, so their rows of X are gathered again and again, while most
// rows of X are read once or twice; a plain load treats both alike, and the
// rows read once push the rows read often out of L1 and L2. Here each
// column gets a class by its entry count: hot (the fullest, as many rows of
// X as L1 keeps), cold (past the rows L2 keeps) or warm, written into the
// two top bits of a copy of A's indices, which the row kernel reads
// instead of A's own (gcu_pack_ldg_cls loads a row of X with its class's
// hints). One count kernel with atomics, one CUB sort of the counts for
// the thresholds, one pass writing the copy.
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "gcu_spmm.h"
#include "gcu_util.h"
}

namespace {

template <class I>
__global__ void __launch_bounds__ (GCU_SPMM_THREADS) k_colcount (int64_t nnz,
    const I *__restrict__ Aj, uint32_t *__restrict__ cnt)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x;
    for (int64_t q = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; q < nnz ; q += stride)
        atomicAdd (&cnt [Aj [q]], 1u);
}

// Ajc [q] = Aj [q] with its column's class on top (Ajc NULL: only the
// counts); tot [0] the entries in hot columns, tot [1] in cold ones (a
// warp's counts added at once)
template <class I>
__global__ void __launch_bounds__ (GCU_SPMM_THREADS) k_classes (int64_t nnz,
    const I *__restrict__ Aj, const uint32_t *__restrict__ cnt, uint32_t thot, uint32_t tcold,
    I *__restrict__ Ajc, unsigned long long *tot)
{
    constexpr int TOP = 8 * (int) sizeof (I) - 2;
    const int64_t stride = (int64_t) gridDim.x * blockDim.x;
    const int lane = (int) (threadIdx.x % 32u);
    for (int64_t q = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; q - lane < nnz ; q += stride)
    {
        bool hot = false, cold = false;
        if (q < nnz)
        {
            const I j = Aj [q];
            const uint32_t c = cnt [j];
            hot = thot > 0 && c >= thot;
            cold = !hot && c < tcold;
            if (Ajc != NULL) Ajc [q] = j | ((I) (hot ? GCU_SPMM_CLS_HOT : cold ? GCU_SPMM_CLS_COLD : GCU_SPMM_CLS_WARM) << TOP);
        }
        const unsigned h = __ballot_sync (0xffffffffu, hot), k = __ballot_sync (0xffffffffu, cold);
        if (lane == 0 && (h | k) != 0)
        {
            if (h) atomicAdd (&tot [0], (unsigned long long) __popc (h));
            if (k) atomicAdd (&tot [1], (unsigned long long) __popc (k));
        }
    }
}

} // namespace

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (cnt, s) ; gcu_dfree (tmp, s) ;

extern "C" GrB_Info gcu_spmm_hub_classes (const void *Aj, bool idx64, int64_t nnz, int64_t ncols,
    int64_t nhot, int64_t nwarm, void *Ajc, gcu_spmm_hub_stats *st, gcu_stream s)
{
    uint32_t *cnt = NULL ;
    void *tmp = NULL ;
    const cudaStream_t cs = (cudaStream_t) s ;
    memset (st, 0, sizeof (*st)) ;
    const int top = idx64 ? 62 : 30 ;
    if (nnz <= 0 || ncols <= 0 || ncols >= ((int64_t) 1 << top) || ncols >= ((int64_t) 1 << 31) - 1
        || nnz >= ((int64_t) 1 << 32) - 1)
        return GCU_NOT_HANDLED ;
    // counts, sorted counts, the two totals
    const size_t cb = ((size_t) ncols * sizeof (uint32_t) + 15) & ~(size_t) 15 ;
    GCU_TRY (gcu_dmalloc ((void **) &cnt, 2 * cb + 2 * sizeof (unsigned long long), s)) ;
    uint32_t *sorted = (uint32_t *) ((char *) cnt + cb) ;
    unsigned long long *tot = (unsigned long long *) ((char *) cnt + 2 * cb) ;
    if (cudaMemsetAsync (cnt, 0, cb, cs) != cudaSuccess
        || cudaMemsetAsync (tot, 0, 2 * sizeof (unsigned long long), cs) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    const unsigned grid = gcu_spmm_grid (nnz, 1) ;
    if (idx64) k_colcount<uint64_t> <<<grid, GCU_SPMM_THREADS, 0, cs>>> (nnz, (const uint64_t *) Aj, cnt) ;
    else k_colcount<uint32_t> <<<grid, GCU_SPMM_THREADS, 0, cs>>> (nnz, (const uint32_t *) Aj, cnt) ;
    GCU_TRY (gcu_launch_check ("spmm hub: column counts")) ;
    size_t need = 0 ;
    const int n = (int) ncols ;
    if (cub::DeviceRadixSort::SortKeysDescending (NULL, need, cnt, sorted, n, 0, 32, cs) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_dmalloc (&tmp, need + 16, s)) ;
    if (cub::DeviceRadixSort::SortKeysDescending (tmp, need, cnt, sorted, n, 0, 32, cs) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_launch_check ("spmm hub: sorted counts")) ;
    // the hot threshold: the nhot-th largest count, at least
    // GCU_SPMM_HUB_HOT_MIN (rows of X read less often are not worth L1);
    // cold: below the nwarm-th largest (none where every row fits)
    uint32_t th = 0, tw = 0 ;
    if (nhot > 0) GCU_TRY (gcu_memcpy_d2h (&th, sorted + (nhot < ncols ? nhot : ncols) - 1, sizeof (th), s)) ;
    if (nwarm > 0 && nwarm < ncols) GCU_TRY (gcu_memcpy_d2h (&tw, sorted + nwarm - 1, sizeof (tw), s)) ;
    GCU_TRY (gcu_sync (s)) ;
    if (nhot > 0 && th < GCU_SPMM_HUB_HOT_MIN) th = GCU_SPMM_HUB_HOT_MIN ;
    if (idx64) k_classes<uint64_t> <<<grid, GCU_SPMM_THREADS, 0, cs>>> (nnz, (const uint64_t *) Aj, cnt,
        th, tw, (uint64_t *) Ajc, tot) ;
    else k_classes<uint32_t> <<<grid, GCU_SPMM_THREADS, 0, cs>>> (nnz, (const uint32_t *) Aj, cnt,
        th, tw, (uint32_t *) Ajc, tot) ;
    GCU_TRY (gcu_launch_check ("spmm hub: classes")) ;
    unsigned long long h [2] = { 0, 0 } ;
    GCU_TRY (gcu_memcpy_d2h (h, tot, sizeof (h), s)) ;
    GCU_TRY (gcu_sync (s)) ;
    st->hot_min = th ; st->warm_min = tw ;
    st->hot_frac = (double) h [0] / (double) nnz ;
    st->cold_frac = (double) h [1] / (double) nnz ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}
