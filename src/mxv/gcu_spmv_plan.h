// gcu_spmv_plan.h — the features of a matrix that choose its SpMV variant
// (cuda/mxv/gcu_spmv.cuh; after Sedaghati et al. 2015: mean and spread of
// the row lengths), computed once on the device from R's row pointers
// (spmv_plan.cu, CUB) and cached with R's device copy as derived data
// (GCU_RES_DERIVED_SPMV, mxv.c), with the segments the split variant cuts
// its long rows into and the blocks of the adaptive variant; and
// the sliced-ELL copy of R the sell variant reads (GCU_RES_DERIVED_SELL,
// built only where sell runs).
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
    bool lrow_auto ;            // lrow the automatic bound's (not forced)
    int64_t nlong, long_nnz ;   // long rows and their entries
    int64_t nseg ;              // their segments
    int64_t sell_nnz ;          // sell: the slices' entries, padding included
                                // (rows longer than lrow left out)
    int64_t nblk ;              // adaptive: blocks
    const int64_t *Sg ;         // device: each long row's segments: its row, first
                                // entry and end (3 a segment, nseg); NULL when none
    const int64_t *Bs ;         // device: adaptive's blocks' first rows (nblk + 1)
}
gcu_spmv_plan ;

// The SpMV set's compiled variants (src/mxv/spmv.c chooses): nat, native
// sums in the sell and long kernels where the semiring allows them
// (gcu_mxv_nat_ok; ignored elsewhere), and minb, their launch bounds in
// blocks an SM (0: the policy's, GCU_SPMV_MINB_NAT or GCU_SPMV_MINB).
typedef struct { bool nat ; int minb ; } gcu_spmv_kvar ;

// R on the device, as an SpMV reads it (src/mxv/mxv.c's operand)
typedef struct
{
    struct gcu_res_entry *parent ;  // R's cache entry (derived data hangs off it), or NULL
    const void *Rp, *Rj, *Rx ;
    bool idx64 ;                // Rp, Rj uint64_t (else uint32_t)
    bool iso ;                  // Rx holds one value
    size_t vsize ;              // bytes a value of R
    int64_t nrows ;
    int64_t nnz ;               // R's entries
    int64_t ncols ;             // R's columns: u's length
    size_t usize ;              // bytes a value of u (the hub order's permuted copy)
}
gcu_spmv_matrix ;

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
    int W ;                     // stream, adaptive: rows longer are folded by a warp
    gcu_spmv_kvar kv ;          // sell, long: native sums, launch bounds
    char why [96] ;
    const int64_t *So ;         // sell: the slices' first entries (slices + 1)
    const int32_t *Sp ;         // sellsort: the slices' rows (NULL: sell, R's in order)
    const void *Sj, *Sx ;       // sell: R by slice (Sx: R's values when iso)
    int64_t sell_nnz ;          // sell: the slices' entries
    bool sell_hit ;             // sell: the slices came from the cache
    // the hub order (spmv_hub.cu): R's indices Hj relabelled by Hp (the
    // columns, most entries first), u read from a copy xp permuted by it
    bool hub ;
    double hub_cover ;          // the share of R's entries in its GCU_SPMV_HUB_COLS
                                // fullest columns (-1: not counted)
    const int32_t *Hp ;
    const void *Hj ;
    void *xp ;                  // (ncols values of usize bytes)
    int64_t ncols ;
    size_t usize ;
    // owned
    struct gcu_res_entry *e_ ;  // the pinned derived entry, or NULL
    struct gcu_res_entry *se_ ; // the pinned sliced copy, or NULL
    struct gcu_res_entry *he_ ; // the pinned hub order, or NULL
    void *own_ [9] ;            // Sg and Bs of a plan not cached, xp, So, Sj, Sx
                                // and Sp of slices not cached, Hp and Hj of a hub
                                // order not cached (gcu_dmalloc)
}
gcu_spmv ;

// The plan of R (the cache's derived entry of R->parent when there is one,
// else computed for this call) and the variant for values of zsize bytes
// (positional: the multiplier is positional, which the stream and adaptive
// variants do not serve), with sell's sliced copy of R when it runs.
// GCU_NOT_HANDLED: the general pull kernel. On failure nothing is held.
GrB_Info gcu_spmv_prepare (const gcu_spmv_matrix *R, size_t zsize, bool positional,
    gcu_spmv *sp, gcu_stream s) ;

// Unpins or frees what sp holds (the kernels must be finished).
void gcu_spmv_release (gcu_spmv *sp, gcu_stream s) ;

// "stream+split (R 256, mean 6.9, sd 0.4, max 7; cached): why"
void gcu_spmv_describe (const gcu_spmv *sp, char *buf, size_t size) ;

// The row statistics of R (row pointers Rp, uint64_t if idx64 else uint32_t,
// nrows rows) into plan (everything but Sg, Bs); synchronises s.
GrB_Info gcu_spmv_plan_stats (const void *Rp, bool idx64, int64_t nrows, int64_t lrow,
    int64_t seg, gcu_spmv_plan *plan, gcu_stream s) ;

// The segments of R's long rows (their rows by CUB's DeviceSelect, their
// segments' starts by an exclusive scan): each segment's row, first entry
// and end into Sg (3 plan->nseg, the caller's device buffer).
GrB_Info gcu_spmv_plan_long (const void *Rp, bool idx64, const gcu_spmv_plan *plan,
    int64_t *Sg, gcu_stream s) ;

// adaptive's blocks of R into Bs (plan->nblk + 1 entries, a device buffer
// of the caller's): a block starts at row 0, every GCU_MXV_ADAPTIVE_ROWS
// rows, where a row starts in a new run of GCU_MXV_ADAPTIVE_NNZ entries,
// and at each long row (longer than plan->lrow) and the row after it;
// Bs [nblk] = nrows.
GrB_Info gcu_spmv_plan_blocks (const void *Rp, bool idx64, const gcu_spmv_plan *plan,
    int64_t *Bs, gcu_stream s) ;

// sellsort's rows: Sp (nrows entries, the caller's device buffer) the rows
// of R by their length in the slices (0 for rows longer than lrow > 0),
// longest first, rows of one length in order.
GrB_Info gcu_spmv_sell_sort (const void *Rp, bool idx64, int64_t nrows, int64_t lrow,
    int32_t *Sp, gcu_stream s) ;

// sell's slices of R (rows longer than lrow > 0 left out; the slices' rows
// R's in order, Sp NULL, or Sp's from gcu_spmv_sell_sort): So (slices + 1
// entries, slices = ceil (nrows / GCU_MXV_SELL_SLICE), the caller's device
// buffer) their first entries, *total their entries; synchronises s.
GrB_Info gcu_spmv_sell_offsets (const void *Rp, bool idx64, int64_t nrows, int64_t lrow,
    const int32_t *Sp, int64_t *So, int64_t *total, gcu_stream s) ;

// sell's copy of R by slice (Sp, So and lrow as for gcu_spmv_sell_offsets):
// Sj its indices (padding ~0), Sx its values (padding zero bytes; NULL: R
// is iso, and the kernel reads R's own).
GrB_Info gcu_spmv_sell_fill (const gcu_spmv_matrix *R, int64_t lrow, const int32_t *Sp,
    const int64_t *So, void *Sj, void *Sx, gcu_stream s) ;

// The hub order of R's columns (ncols of them, Rj's nnz indices): Hp
// (ncols, the caller's device buffer) the columns by their entries, most
// first, and *cover the share of the entries in the GCU_SPMV_HUB_COLS first;
// synchronises s. GCU_NOT_HANDLED past int32 sizes.
GrB_Info gcu_spmv_hub_order (const void *Rj, bool idx64, int64_t nnz, int64_t ncols,
    int32_t *Hp, double *cover, gcu_stream s) ;

// R's indices relabelled by the order Hp into Hj (nnz, the caller's device
// buffer, of Rj's index type)
GrB_Info gcu_spmv_hub_relabel (const void *Rj, bool idx64, int64_t nnz, const int32_t *Hp,
    int64_t ncols, void *Hj, gcu_stream s) ;

// u permuted by the order: xp [k] = x [Hp [k]], ncols values of size bytes
GrB_Info gcu_spmv_hub_gather (const int32_t *Hp, int64_t ncols, const void *x, size_t size,
    void *xp, gcu_stream s) ;

#ifdef __cplusplus
}
#endif

#endif
