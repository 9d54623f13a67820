// spmv_plan.cu — the SpMV plan's device passes (gcu_spmv_plan.h): one CUB
// reduction over the row lengths (sum of squares, longest, long rows, their
// entries and segments, adaptive's block starts) and one over sell's slices
// (their padded entries), for the split variant CUB's DeviceSelect of the
// long rows and an exclusive scan of their segment counts, and adaptive's
// block starts by DeviceSelect. Run once a matrix: the result is cached
// with its device copy (src/mxv/spmv.c). And sell's sliced copy of R (for
// sellsort the rows first sorted by length, CUB's radix sort; a scan of the
// slices' sizes, then a thread a row writing its entries into its slice's
// columns), built once a matrix where sell runs.
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

extern "C" {
#include "gcu_spmv_plan.h"
#include "gcu_util.h"
#include "../../cuda/mxv/gcu_mxv_policy.h"
}

namespace {

struct row_stat
{
    double sq ;
    long long max, nlong, long_nnz, nseg, nblk ;
} ;

struct stat_sum
{
    __host__ __device__ row_stat operator() (const row_stat &a, const row_stat &b) const
    {
        row_stat r ;
        r.sq = a.sq + b.sq ;
        r.max = a.max > b.max ? a.max : b.max ;
        r.nlong = a.nlong + b.nlong ;
        r.long_nnz = a.long_nnz + b.long_nnz ;
        r.nseg = a.nseg + b.nseg ;
        r.nblk = a.nblk + b.nblk ;
        return r ;
    }
} ;

// whether adaptive's block starts at row i (0 <= i < nrows; lrow > 0: rows
// longer are long)
template <class RI>
__host__ __device__ bool block_starts (const RI *Rp, long long i, long long lrow)
{
    if (i == 0 || i % GCU_MXV_ADAPTIVE_ROWS == 0) return true ;
    const long long p0 = (long long) Rp [i - 1], p1 = (long long) Rp [i], p2 = (long long) Rp [i + 1] ;
    if (p0 / GCU_MXV_ADAPTIVE_NNZ != p1 / GCU_MXV_ADAPTIVE_NNZ) return true ;
    return lrow > 0 && (p1 - p0 > lrow || p2 - p1 > lrow) ;
}

template <class RI> struct row_of
{
    const RI *Rp ;
    long long lrow, seg ;
    __host__ __device__ row_stat operator() (long long i) const
    {
        const long long len = (long long) Rp [i + 1] - (long long) Rp [i] ;
        const bool lng = len > lrow ;
        row_stat r ;
        r.sq = (double) len * (double) len ;
        r.max = len ;
        r.nlong = lng ;
        r.long_nnz = lng ? len : 0 ;
        r.nseg = lng ? (len + seg - 1) / seg : 0 ;
        r.nblk = block_starts (Rp, i, lrow) ;
        return r ;
    }
} ;

// sell: the entries of row i in the slices (a long row's are the split's)
template <class RI>
__host__ __device__ long long sell_len (const RI *Rp, long long i, long long lrow)
{
    const long long len = (long long) Rp [i + 1] - (long long) Rp [i] ;
    return lrow > 0 && len > lrow ? 0 : len ;
}

// sell: the entries of slice s (its longest row times the slice's rows), 0
// past the last slice; the slices' rows R's in order (Sp NULL) or Sp's,
// sorted by length, longest first (the slice's first row is its longest)
template <class RI> struct slice_size
{
    const RI *Rp ;
    const int32_t *Sp ;
    long long nrows, lrow ;
    __host__ __device__ long long operator() (long long s) const
    {
        long long w = 0 ;
        const long long i0 = s * GCU_MXV_SELL_SLICE ;
        const long long i1 = i0 + GCU_MXV_SELL_SLICE < nrows ? i0 + GCU_MXV_SELL_SLICE : nrows ;
        if (Sp != NULL) return i0 < nrows ? sell_len (Rp, (long long) Sp [i0], lrow) * GCU_MXV_SELL_SLICE : 0 ;
        for (long long i = i0 ; i < i1 ; i++)
        {
            const long long len = sell_len (Rp, i, lrow) ;
            if (len > w) w = len ;
        }
        return w * GCU_MXV_SELL_SLICE ;
    }
} ;

template <class RI> struct is_block_start
{
    const RI *Rp ;
    long long nrows, lrow ;
    __host__ __device__ bool operator() (long long i) const
    {
        return i == nrows || block_starts (Rp, i, lrow) ;
    }
} ;

template <class RI> struct is_long
{
    const RI *Rp ;
    long long lrow ;
    __host__ __device__ bool operator() (long long i) const
    {
        return (long long) Rp [i + 1] - (long long) Rp [i] > lrow ;
    }
} ;

// segments of long row j (none past the last)
template <class RI> struct segs_of
{
    const RI *Rp ;
    const long long *Lr ;
    long long nlong, seg ;
    __host__ __device__ long long operator() (long long j) const
    {
        if (j >= nlong) return 0 ;
        const long long len = (long long) Rp [Lr [j] + 1] - (long long) Rp [Lr [j]] ;
        return (len + seg - 1) / seg ;
    }
} ;

GrB_Info cu (cudaError_t e) { return e == cudaSuccess ? GrB_SUCCESS : GrB_PANIC ; }

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (tmp, s) ; gcu_dfree (out, s) ;

template <class RI>
GrB_Info stats (const RI *Rp, int64_t nrows, int64_t lrow, int64_t seg, gcu_spmv_plan *plan,
    gcu_stream s)
{
    void *tmp = NULL ;
    row_stat *out = NULL, h ;
    size_t bytes = 0 ;
    cudaStream_t st = (cudaStream_t) s ;
    auto in = thrust::make_transform_iterator (thrust::counting_iterator<long long> (0),
        row_of<RI> { Rp, (long long) lrow, (long long) seg }) ;
    const row_stat zero = { 0, 0, 0, 0, 0, 0 } ;
    const long long nslices = (nrows + GCU_MXV_SELL_SLICE - 1) / GCU_MXV_SELL_SLICE ;
    auto slices = thrust::make_transform_iterator (thrust::counting_iterator<long long> (0),
        slice_size<RI> { Rp, NULL, (long long) nrows, (long long) lrow }) ;
    size_t b2 = 0 ;
    long long sell = 0 ;
    GCU_TRY (cu (cub::DeviceReduce::Reduce (NULL, bytes, in, out, (int) nrows, stat_sum (), zero, st))) ;
    GCU_TRY (cu (cub::DeviceReduce::Sum (NULL, b2, slices, (long long *) NULL, (int) nslices, st))) ;
    GCU_TRY (gcu_dmalloc (&tmp, bytes > b2 ? bytes : b2, s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &out, sizeof (row_stat) + sizeof (long long), s)) ;
    long long *sell_out = (long long *) (out + 1) ;
    GCU_TRY (cu (cub::DeviceReduce::Reduce (tmp, bytes, in, out, (int) nrows, stat_sum (), zero, st))) ;
    GCU_TRY (cu (cub::DeviceReduce::Sum (tmp, b2, slices, sell_out, (int) nslices, st))) ;
    GCU_TRY (gcu_launch_check ("spmv plan: row statistics")) ;
    GCU_TRY (gcu_memcpy_d2h (&h, out, sizeof (h), s)) ;      // synchronises
    GCU_TRY (gcu_memcpy_d2h (&sell, sell_out, sizeof (sell), s)) ;
    RI ends [2] ;
    GCU_TRY (gcu_memcpy_d2h (ends, Rp + nrows, sizeof (RI), s)) ;
    plan->nrows = nrows ;
    plan->nnz = (int64_t) ends [0] ;
    plan->mean = nrows > 0 ? (double) plan->nnz / (double) nrows : 0 ;
    const double var = nrows > 0 ? h.sq / (double) nrows - plan->mean * plan->mean : 0 ;
    plan->stddev = var > 0 ? sqrt (var) : 0 ;
    plan->max_row = h.max ;
    plan->lrow = lrow ;
    plan->lrow_auto = false ;
    plan->seg = seg ;
    plan->nlong = h.nlong ;
    plan->long_nnz = h.long_nnz ;
    plan->nseg = h.nseg ;
    plan->sell_nnz = sell ;
    plan->nblk = h.nblk ;
    plan->Bs = plan->Sg = NULL ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

// the segments of long row j (a thread a row): Sg's triples from Ls [j]
template <class RI>
__global__ void __launch_bounds__ (GCU_MXV_THREADS) long_segs_k (const RI *__restrict__ Rp,
    const long long *__restrict__ Lr, const long long *__restrict__ Ls, long long nlong,
    long long seg, long long *__restrict__ Sg)
{
    const long long j = (long long) blockIdx.x * blockDim.x + threadIdx.x ;
    if (j >= nlong) return ;
    const long long i = Lr [j], end = (long long) Rp [i + 1] ;
    long long p = (long long) Rp [i] ;
    for (long long w = Ls [j] ; w < Ls [j + 1] ; w++, p += seg)
    {
        Sg [3 * w] = i ;
        Sg [3 * w + 1] = p ;
        Sg [3 * w + 2] = p + seg < end ? p + seg : end ;
    }
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (tmp, s) ; gcu_dfree (count, s) ; gcu_dfree (Lr, s) ;

// the long rows Lr and their first segments Ls (temporaries), then Sg
template <class RI>
GrB_Info long_rows (const RI *Rp, const gcu_spmv_plan *plan, int64_t *Sg, gcu_stream s)
{
    void *tmp = NULL ;
    long long *count = NULL ;
    int64_t *Lr = NULL ;
    GCU_TRY (gcu_dmalloc ((void **) &Lr, (2 * (size_t) plan->nlong + 1) * sizeof (int64_t), s)) ;
    int64_t *Ls = Lr + plan->nlong ;
    size_t b1 = 0, b2 = 0 ;
    cudaStream_t st = (cudaStream_t) s ;
    thrust::counting_iterator<long long> rows (0) ;
    const is_long<RI> pred { Rp, (long long) plan->lrow } ;
    auto segs = thrust::make_transform_iterator (thrust::counting_iterator<long long> (0),
        segs_of<RI> { Rp, (const long long *) Lr, (long long) plan->nlong, (long long) plan->seg }) ;
    GCU_TRY (cu (cub::DeviceSelect::If (NULL, b1, rows, (long long *) Lr, count,
        (int) plan->nrows, pred, st))) ;
    GCU_TRY (cu (cub::DeviceScan::ExclusiveSum (NULL, b2, segs, (long long *) Ls,
        (int) plan->nlong + 1, st))) ;
    GCU_TRY (gcu_dmalloc (&tmp, b1 > b2 ? b1 : b2, s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &count, sizeof (long long), s)) ;
    GCU_TRY (cu (cub::DeviceSelect::If (tmp, b1, rows, (long long *) Lr, count,
        (int) plan->nrows, pred, st))) ;
    GCU_TRY (cu (cub::DeviceScan::ExclusiveSum (tmp, b2, segs, (long long *) Ls,
        (int) plan->nlong + 1, st))) ;
    long_segs_k<RI> <<<(unsigned) ((plan->nlong + GCU_MXV_THREADS - 1) / GCU_MXV_THREADS),
        GCU_MXV_THREADS, 0, st>>> (Rp, (const long long *) Lr, (const long long *) Ls,
        (long long) plan->nlong, (long long) plan->seg, (long long *) Sg) ;
    GCU_TRY (gcu_launch_check ("spmv plan: long rows")) ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (tmp, s) ; gcu_dfree (count, s) ;

template <class RI>
GrB_Info blocks (const RI *Rp, const gcu_spmv_plan *plan, int64_t *Bs, gcu_stream s)
{
    void *tmp = NULL ;
    long long *count = NULL ;
    size_t b = 0 ;
    cudaStream_t st = (cudaStream_t) s ;
    thrust::counting_iterator<long long> rows (0) ;
    const is_block_start<RI> pred { Rp, (long long) plan->nrows, (long long) plan->lrow } ;
    GCU_TRY (cu (cub::DeviceSelect::If (NULL, b, rows, (long long *) Bs, count,
        (int) plan->nrows + 1, pred, st))) ;
    GCU_TRY (gcu_dmalloc (&tmp, b, s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &count, sizeof (long long), s)) ;
    GCU_TRY (cu (cub::DeviceSelect::If (tmp, b, rows, (long long *) Bs, count,
        (int) plan->nrows + 1, pred, st))) ;
    GCU_TRY (gcu_launch_check ("spmv plan: blocks")) ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (tmp, s) ;

template <class RI>
GrB_Info sell_offsets (const RI *Rp, int64_t nrows, int64_t lrow, const int32_t *Sp, int64_t *So,
    int64_t *total, gcu_stream s)
{
    void *tmp = NULL ;
    size_t b = 0 ;
    cudaStream_t st = (cudaStream_t) s ;
    const long long nslices = (nrows + GCU_MXV_SELL_SLICE - 1) / GCU_MXV_SELL_SLICE ;
    // (slice nslices has no rows: the scan's last element is the total)
    auto sizes = thrust::make_transform_iterator (thrust::counting_iterator<long long> (0),
        slice_size<RI> { Rp, Sp, (long long) nrows, (long long) lrow }) ;
    GCU_TRY (cu (cub::DeviceScan::ExclusiveSum (NULL, b, sizes, (long long *) So, (int) nslices + 1, st))) ;
    GCU_TRY (gcu_dmalloc (&tmp, b, s)) ;
    GCU_TRY (cu (cub::DeviceScan::ExclusiveSum (tmp, b, sizes, (long long *) So, (int) nslices + 1, st))) ;
    GCU_TRY (gcu_launch_check ("spmv sell: slices")) ;
    GCU_TRY (gcu_memcpy_d2h (total, So + nslices, sizeof (int64_t), s)) ;     // synchronises
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

// sellsort's keys: each row's length in the slices, and the row
template <class RI>
__global__ void __launch_bounds__ (GCU_MXV_THREADS) sell_keys_k (const RI *__restrict__ Rp,
    long long nrows, long long lrow, int32_t *__restrict__ keys, int32_t *__restrict__ rows)
{
    const long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x ;
    if (i >= nrows) return ;
    keys [i] = (int32_t) sell_len (Rp, i, lrow) ;
    rows [i] = (int32_t) i ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (tmp, s) ; gcu_dfree (keys, s) ;

// the rows by length, longest first (stable: rows of one length in order)
template <class RI>
GrB_Info sell_sort (const RI *Rp, int64_t nrows, int64_t lrow, int32_t *Sp, gcu_stream s)
{
    void *tmp = NULL ;
    int32_t *keys = NULL ;
    size_t b = 0 ;
    cudaStream_t st = (cudaStream_t) s ;
    const int n = (int) nrows ;
    GCU_TRY (gcu_dmalloc ((void **) &keys, 3 * (size_t) n * sizeof (int32_t), s)) ;
    int32_t *keys_out = keys + n, *rows = keys + 2 * (size_t) n ;
    GCU_TRY (cu (cub::DeviceRadixSort::SortPairsDescending (NULL, b, keys, keys_out, rows, Sp, n, 0, 32, st))) ;
    GCU_TRY (gcu_dmalloc (&tmp, b, s)) ;
    sell_keys_k<RI> <<<(unsigned) ((nrows + GCU_MXV_THREADS - 1) / GCU_MXV_THREADS), GCU_MXV_THREADS, 0, st>>>
        (Rp, (long long) nrows, (long long) lrow, keys, rows) ;
    GCU_TRY (gcu_launch_check ("spmv sellsort: keys")) ;
    GCU_TRY (cu (cub::DeviceRadixSort::SortPairsDescending (tmp, b, keys, keys_out, rows, Sp, n, 0, 32, st))) ;
    GCU_TRY (gcu_launch_check ("spmv sellsort: sort")) ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

// one value of vsize bytes from src [p] to dst [q], in the widest words the
// size allows (the buffers are the allocator's, aligned)
__device__ __forceinline__ void copy_value (unsigned char *__restrict__ dst,
    const unsigned char *__restrict__ src, long long q, long long p, size_t vsize)
{
    if (vsize % 8 == 0)
        for (size_t b = 0 ; b < vsize ; b += 8)
            *(uint64_t *) (dst + q * vsize + b) = *(const uint64_t *) (src + p * vsize + b) ;
    else if (vsize % 4 == 0)
        for (size_t b = 0 ; b < vsize ; b += 4)
            *(uint32_t *) (dst + q * vsize + b) = *(const uint32_t *) (src + p * vsize + b) ;
    else
        for (size_t b = 0 ; b < vsize ; b++) dst [q * vsize + b] = src [p * vsize + b] ;
}

// zero bytes for padding's value at q
__device__ __forceinline__ void zero_value (unsigned char *__restrict__ dst, long long q, size_t vsize)
{
    for (size_t b = 0 ; b < vsize ; b++) dst [q * vsize + b] = 0 ;
}

// a thread a row of the slices (R's row i, or Sp [i]; and the last slice's
// rows past nrows): its entries into its slice's columns, then padding (the
// column ~0, a value of zero bytes)
template <class RI>
__global__ void __launch_bounds__ (GCU_MXV_THREADS) sell_fill_k (const RI *__restrict__ Rp,
    const RI *__restrict__ Rj, const unsigned char *__restrict__ Rx, size_t vsize,
    long long nrows, long long lrow, const int32_t *__restrict__ Sp,
    const long long *__restrict__ So, RI *__restrict__ Sj, unsigned char *__restrict__ Sx)
{
    const long long i = (long long) blockIdx.x * blockDim.x + threadIdx.x ;
    const long long sl = i / GCU_MXV_SELL_SLICE, lane = i % GCU_MXV_SELL_SLICE ;
    const long long nslices = (nrows + GCU_MXV_SELL_SLICE - 1) / GCU_MXV_SELL_SLICE ;
    if (sl >= nslices) return ;
    const long long q0 = So [sl], w = (So [sl + 1] - q0) / GCU_MXV_SELL_SLICE ;
    long long p0 = 0, len = 0 ;
    if (i < nrows)
    {
        const long long r = Sp != NULL ? (long long) Sp [i] : i ;
        p0 = (long long) Rp [r] ;
        len = sell_len (Rp, r, lrow) ;
    }
    for (long long j = 0 ; j < w ; j++)
    {
        const long long q = q0 + j * GCU_MXV_SELL_SLICE + lane ;
        if (j < len)
        {
            Sj [q] = Rj [p0 + j] ;
            if (Sx != NULL) copy_value (Sx, Rx, q, p0 + j, vsize) ;
        }
        else
        {
            Sj [q] = (RI) ~(RI) 0 ;
            if (Sx != NULL) zero_value (Sx, q, vsize) ;
        }
    }
}

template <class RI>
GrB_Info sell_fill (const gcu_spmv_matrix *R, int64_t lrow, const int32_t *Sp, const int64_t *So,
    void *Sj, void *Sx, gcu_stream s)
{
    const long long nslices = (R->nrows + GCU_MXV_SELL_SLICE - 1) / GCU_MXV_SELL_SLICE ;
    const long long threads = nslices * GCU_MXV_SELL_SLICE ;
    const unsigned grid = (unsigned) ((threads + GCU_MXV_THREADS - 1) / GCU_MXV_THREADS) ;
    sell_fill_k<RI> <<<grid, GCU_MXV_THREADS, 0, (cudaStream_t) s>>> ((const RI *) R->Rp,
        (const RI *) R->Rj, (const unsigned char *) R->Rx, R->vsize, (long long) R->nrows,
        (long long) lrow, Sp, (const long long *) So, (RI *) Sj, (unsigned char *) Sx) ;
    return gcu_launch_check ("spmv sell: fill") ;
}

} // namespace

extern "C" GrB_Info gcu_spmv_plan_stats (const void *Rp, bool idx64, int64_t nrows,
    int64_t lrow, int64_t seg, gcu_spmv_plan *plan, gcu_stream s)
{
    if (nrows <= 0 || nrows > INT32_MAX || seg <= 0) return GCU_NOT_HANDLED ;
    return idx64 ? stats ((const uint64_t *) Rp, nrows, lrow, seg, plan, s)
                 : stats ((const uint32_t *) Rp, nrows, lrow, seg, plan, s) ;
}

extern "C" GrB_Info gcu_spmv_plan_long (const void *Rp, bool idx64, const gcu_spmv_plan *plan,
    int64_t *Sg, gcu_stream s)
{
    if (plan->nlong <= 0) return GrB_SUCCESS ;
    return idx64 ? long_rows ((const uint64_t *) Rp, plan, Sg, s)
                 : long_rows ((const uint32_t *) Rp, plan, Sg, s) ;
}

extern "C" GrB_Info gcu_spmv_plan_blocks (const void *Rp, bool idx64, const gcu_spmv_plan *plan,
    int64_t *Bs, gcu_stream s)
{
    return idx64 ? blocks ((const uint64_t *) Rp, plan, Bs, s)
                 : blocks ((const uint32_t *) Rp, plan, Bs, s) ;
}

extern "C" GrB_Info gcu_spmv_sell_sort (const void *Rp, bool idx64, int64_t nrows, int64_t lrow,
    int32_t *Sp, gcu_stream s)
{
    if (nrows <= 0 || nrows > INT32_MAX) return GCU_NOT_HANDLED ;
    return idx64 ? sell_sort ((const uint64_t *) Rp, nrows, lrow, Sp, s)
                 : sell_sort ((const uint32_t *) Rp, nrows, lrow, Sp, s) ;
}

extern "C" GrB_Info gcu_spmv_sell_offsets (const void *Rp, bool idx64, int64_t nrows, int64_t lrow,
    const int32_t *Sp, int64_t *So, int64_t *total, gcu_stream s)
{
    if (nrows <= 0 || nrows > INT32_MAX) return GCU_NOT_HANDLED ;
    return idx64 ? sell_offsets ((const uint64_t *) Rp, nrows, lrow, Sp, So, total, s)
                 : sell_offsets ((const uint32_t *) Rp, nrows, lrow, Sp, So, total, s) ;
}

extern "C" GrB_Info gcu_spmv_sell_fill (const gcu_spmv_matrix *R, int64_t lrow, const int32_t *Sp,
    const int64_t *So, void *Sj, void *Sx, gcu_stream s)
{
    return R->idx64 ? sell_fill<uint64_t> (R, lrow, Sp, So, Sj, Sx, s)
                    : sell_fill<uint32_t> (R, lrow, Sp, So, Sj, Sx, s) ;
}
