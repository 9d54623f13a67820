// plan.cu — what SpMM knows before its kernels run (gcu_spmm.h): the plan
// of A's rows (each row's rank among the non-empty rows, which places its
// full row of C; its segments of at most seg entries; the partial rows of
// the rows of several segments), by a count kernel and CUB scans, and C's
// pattern, known from the ranks alone (row i of C is full iff row i of A
// has an entry).
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "gcu_spmm.h"
#include "gcu_util.h"
#include "../device/gcu_device.h"
}

namespace {

// counts [0..m] rows non-empty, [m+1..] segments, [2(m+1)..] partial rows;
// only rows longer than minlen have segments (the others: ASpT's panels)
template <class I>
__global__ void __launch_bounds__ (GCU_SPMM_THREADS) k_counts (int64_t m,
    const I *__restrict__ Ap, int seg, int64_t minlen, int64_t *__restrict__ counts)
{
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i <= m ;
         i += (int64_t) gridDim.x * blockDim.x)
    {
        const int64_t len = i < m ? (int64_t) Ap [i + 1] - (int64_t) Ap [i] : 0 ;
        const int64_t ns = len > minlen ? (len + seg - 1) / seg : 0 ;
        counts [i] = len > 0 ;
        counts [m + 1 + i] = ns ;
        counts [2 * (m + 1) + i] = ns > 1 ? ns : 0 ;
    }
}

__global__ void __launch_bounds__ (GCU_SPMM_THREADS) k_segrow (int64_t m,
    const int64_t *__restrict__ segoff, int64_t *__restrict__ segrow)
{
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < m ;
         i += (int64_t) gridDim.x * blockDim.x)
    {
        for (int64_t s = segoff [i] ; s < segoff [i + 1] ; s++) segrow [s] = i ;
    }
}

// Rx [q] = Ax [Rq [q]], values of W bytes
template <class W>
__global__ void __launch_bounds__ (GCU_SPMM_THREADS) k_gather (int64_t nnz,
    const uint32_t *__restrict__ Rq, const W *__restrict__ Ax, W *__restrict__ Rx)
{
    for (int64_t q = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; q < nnz ;
         q += (int64_t) gridDim.x * blockDim.x)
        Rx [q] = Ax [Rq [q]] ;
}

// the sort's input: key the length of a row of 1 to rmax entries (0 for
// the others, sorted last and not counted), value the row; stats [0] the
// rows keyed, [1] the sum of their lengths, [2] the longest
template <class I>
__global__ void __launch_bounds__ (GCU_SPMM_THREADS) k_order_keys (int64_t m,
    const I *__restrict__ Ap, int64_t rmax, uint32_t *__restrict__ keys,
    int64_t *__restrict__ rows, unsigned long long *__restrict__ stats)
{
    __shared__ unsigned long long bs [3] ;
    for (int64_t i0 = (int64_t) blockIdx.x * blockDim.x ; i0 < m ;
         i0 += (int64_t) gridDim.x * blockDim.x)
    {
        if (threadIdx.x < 3) bs [threadIdx.x] = 0 ;
        __syncthreads () ;
        const int64_t i = i0 + threadIdx.x ;
        if (i < m)
        {
            const int64_t len = (int64_t) Ap [i + 1] - (int64_t) Ap [i] ;
            const bool keyed = len > 0 && len <= rmax ;
            keys [i] = keyed ? (uint32_t) len : 0 ;
            rows [i] = i ;
            if (keyed)
            {
                atomicAdd (&bs [0], 1ull) ;
                atomicAdd (&bs [1], (unsigned long long) len) ;
                atomicMax (&bs [2], (unsigned long long) len) ;
            }
        }
        __syncthreads () ;
        if (threadIdx.x == 0 && bs [0] > 0)
        {
            atomicAdd (&stats [0], bs [0]) ;
            atomicAdd (&stats [1], bs [1]) ;
            atomicMax (&stats [2], bs [2]) ;
        }
        __syncthreads () ;
    }
}

// the sorted rows as the row kernel reads them: ord [2r] = i + (len << 32),
// ord [2r+1] = Ap [i] (its first entry: no look-up of Ap in the kernel)
template <class I>
__global__ void __launch_bounds__ (GCU_SPMM_THREADS) k_order_pack (int64_t nord,
    const int64_t *__restrict__ rows, const I *__restrict__ Ap, int64_t *__restrict__ ord)
{
    for (int64_t r = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; r < nord ;
         r += (int64_t) gridDim.x * blockDim.x)
    {
        const int64_t i = rows [r] ;
        const int64_t p0 = (int64_t) Ap [i], len = (int64_t) Ap [i + 1] - p0 ;
        ord [2 * r] = i + (len << 32) ;
        ord [2 * r + 1] = p0 ;
    }
}

template <class I>
__global__ void __launch_bounds__ (GCU_SPMM_THREADS) k_pattern (int64_t m, int64_t n,
    const int64_t *__restrict__ rank, int64_t nvals, I *__restrict__ Cp, I *__restrict__ Cj)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    const int64_t t0 = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    for (int64_t i = t0 ; i <= m ; i += stride) Cp [i] = (I) (rank [i] * n) ;
    for (int64_t e = t0 ; e < nvals ; e += stride) Cj [e] = (I) (e % n) ;
}

} // namespace

extern "C" unsigned gcu_spmm_grid (int64_t items, int G)
{
    const gcu_device_props *dev = gcu_device () ;
    int64_t grid = (items * G + GCU_SPMM_THREADS - 1) / GCU_SPMM_THREADS ;
    const int64_t cap = (int64_t) (dev != NULL ? dev->sm_count : 1) * GCU_SPMM_BLOCKS_PER_SM ;
    if (grid > cap) grid = cap ;
    return (unsigned) (grid < 1 ? 1 : grid) ;
}

extern "C" unsigned gcu_spmm_grid_cap (int64_t items, int G, int cap)
{
    const gcu_device_props *dev = gcu_device () ;
    int64_t grid = (items * G + GCU_SPMM_THREADS - 1) / GCU_SPMM_THREADS ;
    const int64_t most = cap > 0 ? (int64_t) (dev != NULL ? dev->sm_count : 1) * cap
        : ((int64_t) 1 << 31) - 1 ;
    if (grid > most) grid = most ;
    return (unsigned) (grid < 1 ? 1 : grid) ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (keys, s) ; gcu_dfree (rows, s) ; gcu_dfree (tmp, s) ;

extern "C" GrB_Info gcu_spmm_plan_order (const void *Ap, bool idx64, int64_t m, int64_t rmax,
    int sort, int64_t *ord, int64_t *nord, gcu_stream s)
{
    uint32_t *keys = NULL ;
    int64_t *rows = NULL ;
    void *tmp = NULL ;
    const cudaStream_t st = (cudaStream_t) s ;
    *nord = 0 ;
    if (sort == 0 || m <= 0) return GrB_SUCCESS ;
    if (m >= ((int64_t) 1 << 31) - 1 || rmax >= ((int64_t) 1 << 31)) return GCU_NOT_HANDLED ;
    const int n = (int) m ;
    // keys in, keys out (2m), the statistics; the rows in and sorted (2m)
    const size_t kb = (2 * (size_t) m * sizeof (uint32_t) + 15) & ~(size_t) 15 ;
    GCU_TRY (gcu_dmalloc ((void **) &keys, kb + 3 * sizeof (unsigned long long), s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &rows, 2 * (size_t) m * sizeof (int64_t) + 16, s)) ;
    unsigned long long *stats = (unsigned long long *) ((char *) keys + kb) ;
    if (cudaMemsetAsync (stats, 0, 3 * sizeof (*stats), st) != cudaSuccess) GCU_TRY (GrB_PANIC) ;
    const unsigned grid = gcu_spmm_grid (m, 1) ;
    if (idx64) k_order_keys<uint64_t> <<<grid, GCU_SPMM_THREADS, 0, st>>> (m, (const uint64_t *) Ap, rmax, keys, rows, stats) ;
    else k_order_keys<uint32_t> <<<grid, GCU_SPMM_THREADS, 0, st>>> (m, (const uint32_t *) Ap, rmax, keys, rows, stats) ;
    GCU_TRY (gcu_launch_check ("spmm plan: order keys")) ;
    unsigned long long h [3] = { 0, 0, 0 } ;
    GCU_TRY (gcu_memcpy_d2h (h, stats, sizeof (h), s)) ;
    GCU_TRY (gcu_sync (s)) ;
    // rows of even lengths keep A's order (its locality): no sort
    const bool uneven = h [0] > 0 && (double) h [2] > GCU_SPMM_SORT_UNEVEN * (double) h [1] / (double) h [0] ;
    if (h [0] > 0 && (sort > 0 || uneven))
    {
        int bits = 1 ;
        while (bits < 32 && ((int64_t) 1 << bits) <= rmax) bits++ ;
        size_t need = 0 ;
        if (cub::DeviceRadixSort::SortPairsDescending (NULL, need, keys, keys + m, rows, rows + m,
            n, 0, bits, st) != cudaSuccess) GCU_TRY (GrB_PANIC) ;
        GCU_TRY (gcu_dmalloc (&tmp, need + 16, s)) ;
        if (cub::DeviceRadixSort::SortPairsDescending (tmp, need, keys, keys + m, rows, rows + m,
            n, 0, bits, st) != cudaSuccess) GCU_TRY (GrB_PANIC) ;
        GCU_TRY (gcu_launch_check ("spmm plan: order sort")) ;
        const int64_t nk = (int64_t) h [0] ;
        const unsigned g = gcu_spmm_grid (nk, 1) ;
        if (idx64) k_order_pack<uint64_t> <<<g, GCU_SPMM_THREADS, 0, st>>> (nk, rows + m, (const uint64_t *) Ap, ord) ;
        else k_order_pack<uint32_t> <<<g, GCU_SPMM_THREADS, 0, st>>> (nk, rows + m, (const uint32_t *) Ap, ord) ;
        GCU_TRY (gcu_launch_check ("spmm plan: order pack")) ;
        GCU_TRY (gcu_sync (s)) ;
        *nord = nk ;
    }
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (counts, s) ; gcu_dfree (tmp, s) ;

extern "C" GrB_Info gcu_spmm_plan_counts (const void *Ap, bool idx64, int64_t m, int seg,
    int64_t minlen, int64_t *rank, int64_t *segoff, int64_t *heavyoff, int64_t totals [3],
    gcu_stream s)
{
    int64_t *counts = NULL ;
    void *tmp = NULL ;
    const cudaStream_t st = (cudaStream_t) s ;
    // int counts for CUB
    if (m >= ((int64_t) 1 << 31) - 1) return GCU_NOT_HANDLED ;
    const int n1 = (int) (m + 1) ;
    const unsigned grid = gcu_spmm_grid (m + 1, 1) ;
    GCU_TRY (gcu_dmalloc ((void **) &counts, 3 * (size_t) n1 * sizeof (int64_t), s)) ;
    if (idx64) k_counts<uint64_t> <<<grid, GCU_SPMM_THREADS, 0, st>>> (m, (const uint64_t *) Ap, seg, minlen, counts) ;
    else k_counts<uint32_t> <<<grid, GCU_SPMM_THREADS, 0, st>>> (m, (const uint32_t *) Ap, seg, minlen, counts) ;
    GCU_TRY (gcu_launch_check ("spmm plan: counts")) ;
    size_t need = 0 ;
    if (cub::DeviceScan::ExclusiveSum (NULL, need, counts, rank, n1, st) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_dmalloc (&tmp, need + 16, s)) ;
    int64_t *const outs [3] = { rank, segoff, heavyoff } ;
    for (int q = 0 ; q < 3 ; q++)
    {
        if (cub::DeviceScan::ExclusiveSum (tmp, need, counts + (size_t) q * n1, outs [q], n1, st)
            != cudaSuccess) GCU_TRY (GrB_PANIC) ;
        GCU_TRY (gcu_memcpy_d2h (&totals [q], outs [q] + m, sizeof (int64_t), s)) ;
    }
    GCU_TRY (gcu_launch_check ("spmm plan: scans")) ;
    gcu_dfree (counts, s) ; gcu_dfree (tmp, s) ;
    return GrB_SUCCESS ;
}

extern "C" GrB_Info gcu_spmm_plan_segrow (int64_t m, const int64_t *segoff, int64_t *segrow,
    gcu_stream s)
{
    k_segrow <<<gcu_spmm_grid (m + 1, 1), GCU_SPMM_THREADS, 0, (cudaStream_t) s>>> (m, segoff, segrow) ;
    return gcu_launch_check ("spmm plan: segment rows") ;
}

extern "C" GrB_Info gcu_spmm_gather (const uint32_t *Rq, const void *Ax, void *Rx, int64_t nnz,
    size_t tsize, gcu_stream s)
{
    const cudaStream_t st = (cudaStream_t) s ;
    const unsigned grid = gcu_spmm_grid (nnz, 1) ;
    switch (tsize)
    {
        case 1:  k_gather<uint8_t>  <<<grid, GCU_SPMM_THREADS, 0, st>>> (nnz, Rq, (const uint8_t *) Ax, (uint8_t *) Rx) ; break ;
        case 2:  k_gather<uint16_t> <<<grid, GCU_SPMM_THREADS, 0, st>>> (nnz, Rq, (const uint16_t *) Ax, (uint16_t *) Rx) ; break ;
        case 4:  k_gather<uint32_t> <<<grid, GCU_SPMM_THREADS, 0, st>>> (nnz, Rq, (const uint32_t *) Ax, (uint32_t *) Rx) ; break ;
        case 8:  k_gather<uint64_t> <<<grid, GCU_SPMM_THREADS, 0, st>>> (nnz, Rq, (const uint64_t *) Ax, (uint64_t *) Rx) ; break ;
        case 16: k_gather<ulonglong2> <<<grid, GCU_SPMM_THREADS, 0, st>>> (nnz, Rq, (const ulonglong2 *) Ax, (ulonglong2 *) Rx) ; break ;
        default: return GCU_NOT_HANDLED ;
    }
    return gcu_launch_check ("spmm plan: reordered values") ;
}

extern "C" GrB_Info gcu_spmm_pattern (const int64_t *rank, int64_t m, int64_t n, bool idx64,
    void *Cp, void *Cj, GrB_Index nvals, gcu_stream s)
{
    const cudaStream_t st = (cudaStream_t) s ;
    const int64_t most = (int64_t) nvals > m + 1 ? (int64_t) nvals : m + 1 ;
    const unsigned grid = gcu_spmm_grid (most, 1) ;
    if (idx64) k_pattern<uint64_t> <<<grid, GCU_SPMM_THREADS, 0, st>>> (m, n, rank,
        (int64_t) nvals, (uint64_t *) Cp, (uint64_t *) Cj) ;
    else k_pattern<uint32_t> <<<grid, GCU_SPMM_THREADS, 0, st>>> (m, n, rank,
        (int64_t) nvals, (uint32_t *) Cp, (uint32_t *) Cj) ;
    return gcu_launch_check ("spmm pattern") ;
}
