// gcu_export_internal.h — what the files of the export share (src/export
// only; the interface is gcu_export.h): the raw view of SuiteSparse's
// arrays, the parallel building blocks (export_parallel.c) and the five
// conversions (export_same.c, export_transpose.c) that export.c picks from.
// Each conversion writes c->ptr, c->idx and (vals) c->val of the planned
// layout; w32: 32-bit indices; nth: the threads to use (a region may get
// fewer, and splits its work by the team it got).
#ifndef GCU_EXPORT_INTERNAL_H
#define GCU_EXPORT_INTERNAL_H

#include "gcu_export.h"
#include "gcu_util.h"
#ifdef _OPENMP
#include <omp.h>
#endif

// More output vectors than this (across orientation, sparse): the bucketed
// counting sort (export_transpose.c); fewer: the direct scatter.
#define GCU_BUCKET_MIN_OUTER 65536

// The raw view: SuiteSparse's arrays as the attached iterator shows them.

typedef struct
{
    int64_t vlen, vdim, nvec ;          // vector length, # vectors, # present (hyper)
    const int64_t *Ap, *Ah, *Ai ;
    const int8_t *Ab ;
    const uint8_t *Ax ;
    size_t ts ;
    int sparsity ;
    bool iso ;
    int64_t nvals ;
}
gcu_export_raw ;

// Inside a parallel region: this thread's number and the team's size. The
// team may be smaller than asked for (nested regions, thread limits), so
// every region splits its work by the size it really got.
static inline int team_rank (void)
{
#ifdef _OPENMP
    return omp_get_thread_num () ;
#else
    return 0 ;
#endif
}

static inline int team_size (void)
{
#ifdef _OPENMP
    return omp_get_num_threads () ;
#else
    return 1 ;
#endif
}

static inline void put_idx (void *a, bool w32, int64_t p, int64_t v)
{
    if (w32) ((int32_t *) a) [p] = (int32_t) v ;
    else ((int64_t *) a) [p] = v ;
}

// memcpy in parallel chunks; ptr[0..n) = w[0..n) in the output width; in
// place exclusive prefix sum of w[0..n), returning the total.
void gcu_export_par_copy (void *dst, const void *src, size_t bytes, int nth) ;
void gcu_export_put_ptr_all (void *ptr, bool w32, const int64_t *w, int64_t n, int nth) ;
int64_t gcu_export_prefix_sum (int64_t *w, int64_t n, int nth) ;

// Storage orientation (export_same.c).
void gcu_export_same_sparse (const gcu_export_raw *r, gcu_csr *c, bool w32, bool vals, int nth) ;
void gcu_export_same_dense (const gcu_export_raw *r, gcu_csr *c, bool w32, bool vals, int nth) ;

// Across orientation (export_transpose.c). GrB_OUT_OF_MEMORY if workspace
// cannot be had; gcu_export_trans_buckets then wrote nothing that matters
// (the caller scatters with gcu_export_trans_sparse instead).
GrB_Info gcu_export_trans_sparse (const gcu_export_raw *r, gcu_csr *c, bool w32, bool vals, int nth) ;
GrB_Info gcu_export_trans_buckets (const gcu_export_raw *r, gcu_csr *c, bool w32,
    bool vals, int nth) ;
GrB_Info gcu_export_trans_dense (const gcu_export_raw *r, gcu_csr *c, bool w32, bool vals, int nth) ;

#endif
