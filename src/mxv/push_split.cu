// push_split.cu — the device passes of push: the frontier's edges (the
// direction's choice, src/mxv/mxv.c), and the split (cuda/mxv/gcu_mxv.cuh,
// gcu_mxv_push_long): CUB's inclusive scan over the entries of u of their
// rows' segment counts, the counts computed in the scan's input iterator
// (no kernel of its own, no array of counts). Run on the call's stream with
// no wait: u may be device newest, and the lengths of its entries' rows of P
// are never seen by the host; the split kernel reads the total from the
// scan's last element.
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "gcu_mxv.h"
#include "gcu_util.h"
}
#include "mxv/gcu_mxv.cuh"

namespace {

// the segments of u's entry e (gcu_mxv_push_segs)
template <class PI> struct segs_of_entry
{
    const PI *Pp ;
    const int64_t *Ui ;
    long long lrow, seg ;
    __host__ __device__ long long operator() (long long e) const
    {
        const int64_t k = Ui [e] ;
        return gcu_mxv_push_segs ((int64_t) Pp [k + 1] - (int64_t) Pp [k], lrow, seg) ;
    }
} ;

// the entries of the row of P of u's entry e
template <class PI> struct len_of_entry
{
    const PI *Pp ;
    const int64_t *Ui ;
    __host__ __device__ long long operator() (long long e) const
    {
        const int64_t k = Ui [e] ;
        return (long long) ((int64_t) Pp [k + 1] - (int64_t) Pp [k]) ;
    }
} ;

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (tmp, s) ; gcu_dfree (dsum, s) ;

template <class PI>
GrB_Info edges (const PI *Pp, const int64_t *Ui, int64_t unvals, int64_t *sum, gcu_stream s)
{
    void *tmp = NULL ;
    long long *dsum = NULL ;
    size_t bytes = 0 ;
    const cudaStream_t st = (cudaStream_t) s ;
    auto in = thrust::make_transform_iterator (thrust::counting_iterator<long long> (0),
        len_of_entry<PI> { Pp, Ui }) ;
    GCU_TRY (gcu_dmalloc ((void **) &dsum, sizeof (long long), s)) ;
    if (cub::DeviceReduce::Sum (NULL, bytes, in, dsum, (int) unvals, st) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_dmalloc (&tmp, bytes, s)) ;
    if (cub::DeviceReduce::Sum (tmp, bytes, in, dsum, (int) unvals, st) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_launch_check ("mxv: the frontier's edges")) ;
    long long h = 0 ;
    GCU_TRY (gcu_memcpy_d2h (&h, dsum, sizeof (h), s)) ;     // synchronises
    *sum = (int64_t) h ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (tmp, s) ;

template <class PI>
GrB_Info scan (const PI *Pp, const int64_t *Ui, int64_t unvals, int64_t lrow, int64_t seg,
    int64_t *Us, gcu_stream s)
{
    void *tmp = NULL ;
    size_t bytes = 0 ;
    const cudaStream_t st = (cudaStream_t) s ;
    auto in = thrust::make_transform_iterator (thrust::counting_iterator<long long> (0),
        segs_of_entry<PI> { Pp, Ui, (long long) lrow, (long long) seg }) ;
    if (cub::DeviceScan::InclusiveSum (NULL, bytes, in, (long long *) Us, (int) unvals, st)
        != cudaSuccess) GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_dmalloc (&tmp, bytes, s)) ;
    if (cub::DeviceScan::InclusiveSum (tmp, bytes, in, (long long *) Us, (int) unvals, st)
        != cudaSuccess) GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_launch_check ("mxv push: segment scan")) ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

} // namespace

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

extern "C" GrB_Info gcu_mxv_push_scan (const void *Pp, bool idx64, const int64_t *Ui,
    int64_t unvals, int64_t lrow, int64_t seg, int64_t **Us, gcu_stream s)
{
    *Us = NULL ;
    // CUB's item counts are int
    if (unvals <= 0 || unvals > INT32_MAX || seg <= 0) return GCU_NOT_HANDLED ;
    GCU_TRY (gcu_dmalloc ((void **) Us, (size_t) unvals * sizeof (int64_t), s)) ;
    return idx64 ? scan ((const uint64_t *) Pp, Ui, unvals, lrow, seg, *Us, s)
                 : scan ((const uint32_t *) Pp, Ui, unvals, lrow, seg, *Us, s) ;
}

extern "C" GrB_Info gcu_mxv_push_edges (const void *Pp, bool idx64, const int64_t *Ui,
    int64_t unvals, int64_t *sum, gcu_stream s)
{
    *sum = 0 ;
    if (unvals <= 0) return GrB_SUCCESS ;
    if (unvals > INT32_MAX) return GCU_NOT_HANDLED ;
    return idx64 ? edges ((const uint64_t *) Pp, Ui, unvals, sum, s)
                 : edges ((const uint32_t *) Pp, Ui, unvals, sum, s) ;
}
