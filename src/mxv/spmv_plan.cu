// spmv_plan.cu — the SpMV plan's device passes (gcu_spmv_plan.h): one CUB
// reduction over the row lengths (sum of squares, longest, long rows, their
// entries and segments), and for the split variant CUB's DeviceSelect of the
// long rows and an exclusive scan of their segment counts. Run once a matrix:
// the result is cached with its device copy (src/mxv/mxv.c).
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

extern "C" {
#include "gcu_spmv_plan.h"
#include "gcu_util.h"
}

namespace {

struct row_stat
{
    double sq ;
    long long max, nlong, long_nnz, nseg ;
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
        return r ;
    }
} ;

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
        return r ;
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
    const row_stat zero = { 0, 0, 0, 0, 0 } ;
    GCU_TRY (cu (cub::DeviceReduce::Reduce (NULL, bytes, in, out, (int) nrows, stat_sum (), zero, st))) ;
    GCU_TRY (gcu_dmalloc (&tmp, bytes, s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &out, sizeof (row_stat), s)) ;
    GCU_TRY (cu (cub::DeviceReduce::Reduce (tmp, bytes, in, out, (int) nrows, stat_sum (), zero, st))) ;
    GCU_TRY (gcu_launch_check ("spmv plan: row statistics")) ;
    GCU_TRY (gcu_memcpy_d2h (&h, out, sizeof (h), s)) ;      // synchronises
    RI ends [2] ;
    GCU_TRY (gcu_memcpy_d2h (ends, Rp + nrows, sizeof (RI), s)) ;
    plan->nrows = nrows ;
    plan->nnz = (int64_t) ends [0] ;
    plan->mean = nrows > 0 ? (double) plan->nnz / (double) nrows : 0 ;
    const double var = nrows > 0 ? h.sq / (double) nrows - plan->mean * plan->mean : 0 ;
    plan->stddev = var > 0 ? sqrt (var) : 0 ;
    plan->max_row = h.max ;
    plan->lrow = lrow ;
    plan->seg = seg ;
    plan->nlong = h.nlong ;
    plan->long_nnz = h.long_nnz ;
    plan->nseg = h.nseg ;
    plan->Lr = plan->Ls = NULL ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (tmp, s) ; gcu_dfree (count, s) ;

template <class RI>
GrB_Info long_rows (const RI *Rp, const gcu_spmv_plan *plan, int64_t *Lr, int64_t *Ls,
    gcu_stream s)
{
    void *tmp = NULL ;
    long long *count = NULL ;
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
    GCU_TRY (gcu_launch_check ("spmv plan: long rows")) ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
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
    int64_t *Lr, int64_t *Ls, gcu_stream s)
{
    if (plan->nlong <= 0) return GrB_SUCCESS ;
    return idx64 ? long_rows ((const uint64_t *) Rp, plan, Lr, Ls, s)
                 : long_rows ((const uint32_t *) Rp, plan, Lr, Ls, s) ;
}
