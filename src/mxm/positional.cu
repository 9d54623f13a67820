// positional.cu — T out of a positional result on the device (the masked dot
// and masked saxpy families: one value and one flag per entry of the mask),
// for a result that stays on the device as C's newest value (DESIGN §3):
// T = the mask's pattern less the entries flagged empty, as CSR in buffers
// the caller gives (a residency entry's), with the mask's index width.
// Rows are counted (a warp a row), scanned (CUB), then filled (a warp a row,
// each lane's place in the row from a ballot), so every row stays sorted.
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "gcu_mxm.h"
#include "gcu_util.h"
#include "../device/gcu_device.h"
}

namespace {

const int GCU_COMPACT_THREADS = 256 ;

template <class I>
__global__ void __launch_bounds__ (GCU_COMPACT_THREADS) k_row_count (int64_t m,
    const I *__restrict__ Mp, const int8_t *__restrict__ Cb, I *__restrict__ cnt)
{
    const int lane = (int) (threadIdx.x % 32) ;
    const int64_t nwarps = ((int64_t) gridDim.x * blockDim.x) / 32 ;
    for (int64_t i = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ; i <= m ; i += nwarps)
    {
        I c = 0 ;
        if (i < m)
        {
            for (int64_t e = (int64_t) Mp [i] + lane ; e < (int64_t) Mp [i + 1] ; e += 32)
                c += (Cb [e] != 0) ;
        }
        for (int off = 16 ; off > 0 ; off /= 2) c += __shfl_down_sync (0xffffffffu, c, off) ;
        if (lane == 0) cnt [i] = c ;        // cnt [m] = 0: its scan is nnz (T)
    }
}

// W: the unit a value is copied in (zsize / sizeof (W) of them)
template <class I, class W>
__global__ void __launch_bounds__ (GCU_COMPACT_THREADS) k_row_fill (int64_t m,
    const I *__restrict__ Mp, const I *__restrict__ Mj, const int8_t *__restrict__ Cb,
    const W *__restrict__ Cx, int words, const I *__restrict__ Tp,
    I *__restrict__ Tj, W *__restrict__ Tx)
{
    const int lane = (int) (threadIdx.x % 32) ;
    const unsigned below = (1u << lane) - 1u ;
    const int64_t nwarps = ((int64_t) gridDim.x * blockDim.x) / 32 ;
    for (int64_t i = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ; i < m ; i += nwarps)
    {
        int64_t out = (int64_t) Tp [i] ;
        const int64_t e1 = (int64_t) Mp [i + 1] ;
        for (int64_t base = (int64_t) Mp [i] ; base < e1 ; base += 32)
        {
            const int64_t e = base + lane ;
            const bool keep = e < e1 && Cb [e] != 0 ;
            const unsigned ballot = __ballot_sync (0xffffffffu, keep) ;
            if (keep)
            {
                const int64_t q = out + __popc (ballot & below) ;
                Tj [q] = Mj [e] ;
                for (int w = 0 ; w < words ; w++) Tx [q * words + w] = Cx [e * words + w] ;
            }
            out += __popc (ballot) ;
        }
    }
}

unsigned grid_for (int64_t rows, const gcu_device_props *dev)
{
    int64_t g = (rows * 32 + GCU_COMPACT_THREADS - 1) / GCU_COMPACT_THREADS ;
    const int64_t cap = (int64_t) (dev != NULL ? dev->sm_count : 1) * GCU_WRITEBACK_BLOCKS_PER_SM ;
    if (g > cap) g = cap ;
    return (unsigned) (g < 1 ? 1 : g) ;
}

template <class I, class W>
GrB_Info fill (int64_t m, const gcu_operand *om, const int8_t *Cb, const void *Cx,
    size_t zsize, const I *Tp, void *Tj, void *Tx, unsigned grid, cudaStream_t st)
{
    k_row_fill<I, W> <<<grid, GCU_COMPACT_THREADS, 0, st>>> (m, (const I *) om->p,
        (const I *) om->j, Cb, (const W *) Cx, (int) (zsize / sizeof (W)), Tp, (I *) Tj, (W *) Tx) ;
    return gcu_launch_check ("positional T: fill") ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (cnt, s) ; gcu_dfree (tmp, s) ;

template <class I>
GrB_Info compact (const gcu_operand *om, int64_t m, const void *Cx, const int8_t *Cb,
    size_t zsize, const gcu_spgemm_keep *keep, void **dTp, void **dTj, void **dTx,
    GrB_Index *nvals, gcu_stream s)
{
    I *cnt = NULL ;
    void *tmp = NULL ;
    const cudaStream_t st = (cudaStream_t) s ;
    const gcu_device_props *dev = gcu_device () ;
    const unsigned grid = grid_for (m + 1, dev) ;
    GCU_TRY (gcu_dmalloc ((void **) &cnt, (m + 1) * sizeof (I), s)) ;
    k_row_count<I> <<<grid, GCU_COMPACT_THREADS, 0, st>>> (m, (const I *) om->p, Cb, cnt) ;
    GCU_TRY (gcu_launch_check ("positional T: count")) ;
    GCU_TRY (gcu_mxm_keep_alloc (keep, (m + 1) * sizeof (I), dTp)) ;
    size_t need = 0 ;
    if (cub::DeviceScan::ExclusiveSum (NULL, need, cnt, (I *) *dTp, (int) (m + 1), st) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_dmalloc (&tmp, need + 16, s)) ;
    if (cub::DeviceScan::ExclusiveSum (tmp, need, cnt, (I *) *dTp, (int) (m + 1), st) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_launch_check ("positional T: scan")) ;
    I total = 0 ;
    GCU_TRY (gcu_memcpy_d2h (&total, (const I *) *dTp + m, sizeof (I), s)) ;
    *nvals = (GrB_Index) total ;
    GCU_TRY (gcu_mxm_keep_alloc (keep, (*nvals + 1) * sizeof (I), dTj)) ;
    GCU_TRY (gcu_mxm_keep_alloc (keep, (*nvals + 1) * zsize, dTx)) ;
    const I *Tp = (const I *) *dTp ;
    GrB_Info info ;
    switch (zsize)
    {
        case 1:  info = fill<I, uint8_t>  (m, om, Cb, Cx, zsize, Tp, *dTj, *dTx, grid, st) ; break ;
        case 2:  info = fill<I, uint16_t> (m, om, Cb, Cx, zsize, Tp, *dTj, *dTx, grid, st) ; break ;
        case 4:  info = fill<I, uint32_t> (m, om, Cb, Cx, zsize, Tp, *dTj, *dTx, grid, st) ; break ;
        case 8:  info = fill<I, uint64_t> (m, om, Cb, Cx, zsize, Tp, *dTj, *dTx, grid, st) ; break ;
        case 16: info = fill<I, uint4>    (m, om, Cb, Cx, zsize, Tp, *dTj, *dTx, grid, st) ; break ;
        default: info = fill<I, uint8_t>  (m, om, Cb, Cx, zsize, Tp, *dTj, *dTx, grid, st) ; break ;
    }
    GCU_TRY (info) ;
    GCU_TRY (gcu_sync (s)) ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

} // namespace

extern "C" GrB_Info gcu_mxm_positional_T_device (const gcu_operand *om, GrB_Index m,
    const void *dCx, const int8_t *dCb, size_t zsize, const gcu_spgemm_keep *keep,
    GrB_Index *nvals, gcu_stream s)
{
    void *dTp = NULL, *dTj = NULL, *dTx = NULL ;
    *nvals = 0 ;
    // int row counts for CUB
    if (m >= ((GrB_Index) 1 << 31) - 1) return GCU_NOT_HANDLED ;
    return om->idx64
        ? compact<uint64_t> (om, (int64_t) m, dCx, dCb, zsize, keep, &dTp, &dTj, &dTx, nvals, s)
        : compact<uint32_t> (om, (int64_t) m, dCx, dCb, zsize, keep, &dTp, &dTj, &dTx, nvals, s) ;
}
