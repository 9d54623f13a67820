// gcu_spmv_plan.h — the features of a matrix that choose its SpMV variant
// (cuda/mxv/gcu_mxv.cuh; after Sedaghati et al. 2015: mean and spread of
// the row lengths), computed once on the device from R's row pointers
// (spmv_plan.cu, CUB) and cached with R's device copy as derived data
// (GCU_RES_DERIVED_SPMV, mxv.c), with the list of long rows the split
// variant cuts into segments.
#ifndef GCU_SPMV_PLAN_H
#define GCU_SPMV_PLAN_H

#include <GraphBLAS.h>
#include <stdbool.h>
#include <stdint.h>
#include "../device/gcu_cuda.h"

typedef struct
{
    int64_t nrows, nnz ;
    double mean, stddev ;       // of the row lengths
    int64_t max_row ;           // the longest row
    int64_t lrow, seg ;         // long: rows longer than lrow, segments of seg entries
    int64_t nlong, long_nnz ;   // long rows and their entries
    int64_t nseg ;              // their segments
    const int64_t *Lr, *Ls ;    // device: the long rows (nlong), their first
                                // segments (nlong + 1); NULL when none
}
gcu_spmv_plan ;

#ifdef __cplusplus
extern "C" {
#endif

// One SpMV call's variant (src/mxv/spmv.c): the plan it was chosen from (the
// cache's, pinned through e_, or this call's own), the kernel, its launch
// shape, and why, for the verbose line.
typedef struct
{
    gcu_spmv_plan plan ;
    int variant ;               // gcu_spmv_variant (never AUTO here)
    bool split ;                // long rows through gcu_mxv_long
    bool hit ;                  // the plan came from the cache
    int G, R, C ;               // vector: threads a row; stream: rows, products a block
    char why [96] ;
    // owned
    struct gcu_res_entry *e_ ;  // the pinned derived entry, or NULL
    void *own_ [2] ;            // Lr, Ls of a plan not cached (gcu_dmalloc)
}
gcu_spmv ;

// The plan of R (row pointers Rp, nrows rows; the cache's derived entry of
// parent when there is one, else computed for this call) and the variant for
// values of zsize bytes (positional: the multiplier is positional, which the
// stream variant does not serve). GCU_NOT_HANDLED: the general pull kernel.
// On failure nothing is held.
GrB_Info gcu_spmv_prepare (struct gcu_res_entry *parent, const void *Rp, bool idx64,
    int64_t nrows, size_t zsize, bool positional, gcu_spmv *sp, gcu_stream s) ;

// Unpins or frees what sp holds (the kernels must be finished).
void gcu_spmv_release (gcu_spmv *sp, gcu_stream s) ;

// "stream+split (R 256, mean 6.9, sd 0.4, max 7; cached): why"
void gcu_spmv_describe (const gcu_spmv *sp, char *buf, size_t size) ;

// The row statistics of R (row pointers Rp, uint64_t if idx64 else uint32_t,
// nrows rows) into plan (everything but Lr, Ls); synchronises s.
GrB_Info gcu_spmv_plan_stats (const void *Rp, bool idx64, int64_t nrows, int64_t lrow,
    int64_t seg, gcu_spmv_plan *plan, gcu_stream s) ;

// The long rows of R into Lr (plan->nlong entries) and their first segments
// into Ls (plan->nlong + 1), both device buffers of the caller's.
GrB_Info gcu_spmv_plan_long (const void *Rp, bool idx64, const gcu_spmv_plan *plan,
    int64_t *Lr, int64_t *Ls, gcu_stream s) ;

#ifdef __cplusplus
}
#endif

#endif
