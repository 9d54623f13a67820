// gcu_spmm.h — the SpMM / SDDMM engine with dense operands (DESIGN §4):
// JIT specialisation of the kernels of cuda/spmm/gcu_spmm.cuh and
// cuda/spmm/gcu_sddmm.cuh (jit_spmm.c), the row plan and C's pattern
// (plan.cu), and SpMM's run (spmm.c). The GrB_mxm families above it
// (src/mxm/mxm_spmm.c, the SDDMM form of src/mxm/mxm_masked.c) get the
// operands and write C.
#ifndef GCU_SPMM_H
#define GCU_SPMM_H

#include "../jit/gcu_jit.h"
#include "../device/gcu_cuda.h"
#include "../../cuda/spmm/gcu_spmm_policy.h"
#include "../../cuda/spmm/gcu_spmm_args.h"

// One specialisation: the semiring, the operand types (ops.a the sparse A
// or SDDMM's dense A, ops.b the dense X or B, ops.c the output = the
// multiplier's z), the sparse index width (SpMM: ops.a_idx64; SDDMM: the
// mask's ops.m_idx64 and ops.mask_type) and VEC.
typedef struct
{
    gcu_semiring_desc sr ;
    gcu_jit_operands ops ;
    int vec ;
    bool sddmm ;

}
gcu_spmm_spec ;

const char *gcu_spmm_preamble (void) ;
// The block (the semiring's namespace and the kernels' line) into b; entry
// the first kernel's name (SpMM: the segments; the fold's is
// gcu_spmm_fold_entry of it. SDDMM: the batched kernel with the policy's
// settings for its type).
GrB_Info gcu_spmm_block (const gcu_spmm_spec *spec, gcu_str *b, char entry [GCU_JIT_ENTRY_MAX]) ;
// ... for SpMM with ch column chunks a lane (gcu_spmm_ch_for; gcu_spmm_block: 1)
GrB_Info gcu_spmm_block_ch (const gcu_spmm_spec *spec, int ch, gcu_str *b,
    char entry [GCU_JIT_ENTRY_MAX]) ;
// The compile-time settings of SpMM's kernels (part of the JIT key): CH
// column chunks a lane, and the row kernel's loads in flight (2, 4, 8), its
// __launch_bounds__ blocks an SM (1-8; more: fewer registers), cache hints
// prefetches of its next items' part of A (pipe) and the GPU's own
// arithmetic where the semiring allows it (nat: gcu_spmm_nat_ok), and
// hub: A's indices carry their columns' cache classes (src/spmm/hub.cu)
typedef struct
{
    int ch, unroll, minb ;
    bool hint, pipe, nat, hub ;
}
gcu_spmm_kvar ;
// PLUS_TIMES on one floating type: the row kernel may sum with the GPU's
// own + and * and check for a NaN once a row (gcu_spmm_term_nat)
bool gcu_spmm_nat_ok (const gcu_spmm_spec *spec) ;
// ... and SDDMM's kernels may sum its dot products so, checking a batch's
// sums once (gcu_sddmm.cuh)
bool gcu_sddmm_nat_ok (const gcu_spmm_spec *spec) ;
GrB_Info gcu_spmm_block_var (const gcu_spmm_spec *spec, const gcu_spmm_kvar *kv, gcu_str *b,
    char entry [GCU_JIT_ENTRY_MAX]) ;
void gcu_spmm_fold_entry (const char *entry, char fold [GCU_JIT_ENTRY_MAX]) ;
void gcu_spmm_tile_entry (const char *entry, char tile [GCU_JIT_ENTRY_MAX]) ;
void gcu_spmm_rows_entry (const char *entry, char rows [GCU_JIT_ENTRY_MAX]) ;
// Compiled (through the caches) and loaded: SpMM's four kernels (fold, tile
// and rows NULL for SDDMM's one); gcu_spmm_kernels with the defaults, the
// tile and row kernels not returned.
GrB_Info gcu_spmm_kernels_all (const gcu_spmm_spec *spec, const gcu_spmm_kvar *kv,
    void **first, void **fold, void **tile, void **rows) ;
GrB_Info gcu_spmm_kernels (const gcu_spmm_spec *spec, void **first, void **fold) ;
// SDDMM's batched kernel (cuda/spmm/gcu_sddmm.cuh) for batches of `batch`
// entries (a power of two, at most 32), `unroll` entries' loads in flight
// and at least `minb` blocks an SM, sums in the GPU's own arithmetic where
// nat and gcu_sddmm_nat_ok, compiled and loaded
GrB_Info gcu_sddmm_kernel (const gcu_spmm_spec *spec, int batch, int unroll, int minb, bool nat,
    void **fn) ;
// SDDMM's kernel by rows (gcu_sddmm_rows: a mask of short rows), batches of
// `batch` entries, hint: A's rows loaded to be evicted first from L2, nat
// as above
GrB_Info gcu_sddmm_rows_kernel (const gcu_spmm_spec *spec, int batch, bool hint, int minb,
    bool nat, void **fn) ;

// where C's arrays go (a residency entry's buffers, the write-back's scratch)
typedef struct
{
    GrB_Info (*alloc) (void *ctx, size_t bytes, void **p) ;
    void *ctx ;
}
gcu_spmm_keep ;

// C = A*X: A m-by-k by row on the device (Ap, Aj of a_idx64 width, Ax),
// X k-by-n dense (op(X)(r,c) at X [r*xrs + c*xcs])
typedef struct
{
    int64_t m, n ;
    bool a_idx64 ;
    const void *Ap, *Aj, *Ax ;
    GrB_Index anvals ;
    const void *X ;
    int64_t xrs, xcs ;
    int64_t k ;                 // A's columns (X's rows)
    bool a_iso ;
    size_t a_size ;             // bytes a value of A
    struct gcu_res_entry *parent ;  // A's cache entry (the plan is cached
                                    // with it), or NULL: a plan for this call
}
gcu_spmm_in ;

// C as CSR on the device in buffers from keep (Cp, Cj: uint64_t when idx64,
// else uint32_t; Cx of the spec's ops.c), and what the run measured
typedef struct
{
    void *Cp, *Cj, *Cx ;
    bool idx64 ;
    GrB_Index nvals ;
    int G, vec, ch, seg ;       // ch: the caller's (gcu_spmm_ch_for) for the run
    int64_t nseg, npartial ;
    double plan_s, kernel_s, pattern_s ;
    // the plan: found cached with A, or made (and how long the analysis took)
    bool plan_hit, tiled ;
    int64_t npanel, ntile ;
    // whole rows: how many (in the plan's order or not), slices of sw columns
    bool rows, sorted ;
    int64_t nord, rmax ;
    int unroll, hint, minb, nsl, sw, grid ;
    bool pipe ;
    bool nat ;                  // the row kernel summed in the GPU's arithmetic
    char why [320] ;            // the analysis' choice: tiles or row-wise, why
}
gcu_spmm_out ;

// Runs C = A*X (spec->vec chosen by the caller: gcu_spmm_vec); GCU_NOT_HANDLED
// when keep has no room (nothing kept), else a device failure's status.
// Synchronises s.
GrB_Info gcu_spmm_run (const gcu_spmm_spec *spec, int ch, const gcu_spmm_in *in,
    const gcu_spmm_keep *keep, gcu_spmm_out *out, gcu_stream s) ;

// The segment length (GRBCUDA_SPMM_SEG, else GCU_SPMM_SEG) and VEC
// (GRBCUDA_SPMM_VEC forces 1, 2 or 4 where the layout allows it) for the launches.
int gcu_spmm_seg (void) ;
int gcu_spmm_vec_for (long long n, unsigned long wide, int contiguous) ;
// CH for n columns, VEC and G (GRBCUDA_SPMM_CH forces 1, 2 or 4)
int gcu_spmm_ch_for (long long n, int vec, int G) ;
// The group of G lanes a SpMM row: gcu_spmm_group for n / CH columns
int gcu_spmm_group_for (long long n, int vec, int ch) ;
// GRBCUDA_SPMM_TILE: -1 auto (the analysis), 0 row-wise, 1 tiles
int gcu_spmm_tile_mode (void) ;
// The whole-row kernel's settings (gcu_spmm_policy.h; the GRBCUDA_SPMM_ROWS,
// _RMAX, _UNROLL, _HINT, _PIPE, _NAT, _SORT, _SLICE, _GRID, _FOLDBIG, _HUB, _HUB_L1, _HUB_L2
// overrides)
typedef struct
{
    bool rows ;                 // whole rows (else every row through the segments)
    int64_t rmax ;              // longest row taken whole
    int unroll, minb ;          // minb 0: the policy's for the kernel
    bool hint ;
    bool pipe ;                 // the next items' part of A prefetched
    bool nat ;                  // the GPU's arithmetic where the semiring allows
    int sort ;                  // 1 sort the rows by length, 0 not, -1 where uneven
    int slice ;                 // columns a slice (0: a warp's worth)
    int grid ;                  // blocks an SM (-1: as many as fit, 0: a group an item)
    int fold_big ;              // the fold: rows of more segments a block each (0: none)
    int hub ;                   // the cache classes: -1 where they pay, 0 never, 1 always
    int64_t hub_l1, hub_l2 ;    // bytes of X's rows kept in L1 and in L2
}
gcu_spmm_tune ;
void gcu_spmm_tune_get (gcu_spmm_tune *t) ;

// SpMM's cache classes of A's columns (src/spmm/hub.cu): Ajc = A's nnz
// indices (idx64 wide) with their column's class in the two top bits: hot
// for the nhot fullest columns (ties included; none with fewer than
// GCU_SPMM_HUB_HOT_MIN entries), cold below the nwarm-th fullest (nwarm 0
// or >= ncols: none), warm
// the rest (Ajc NULL: only the statistics). GCU_NOT_HANDLED where the
// indices have no room for the bits.
typedef struct
{
    uint32_t hot_min, warm_min ;    // the entries of the emptiest hot and warm column
    double hot_frac, cold_frac ;    // of A's entries, in hot and in cold columns
}
gcu_spmm_hub_stats ;
GrB_Info gcu_spmm_hub_classes (const void *Aj, bool idx64, int64_t nnz, int64_t ncols,
    int64_t nhot, int64_t nwarm, void *Ajc, gcu_spmm_hub_stats *st, gcu_stream s) ;
// SDDMM's lanes a dot product at most (GRBCUDA_SDDMM_GROUP, else GCU_SDDMM_GROUP_MAX)
int gcu_sddmm_group_max (void) ;

// plan.cu: the plan of A's rows for segments of seg entries (only the rows
// longer than minlen): rank (i) among non-empty rows, the first segment and
// first partial row of each row (all m+1, exclusive sums: [m] the totals);
// then each segment's row (segrow, totals [1] of them); ASpT's reordered
// values Rx [q] = Ax [Rq [q]] (tsize 1, 2, 4, 8 or 16 bytes).
GrB_Info gcu_spmm_plan_counts (const void *Ap, bool idx64, int64_t m, int seg, int64_t minlen,
    int64_t *rank, int64_t *segoff, int64_t *heavyoff, int64_t totals [3], gcu_stream s) ;
GrB_Info gcu_spmm_plan_segrow (int64_t m, const int64_t *segoff, int64_t *segrow, gcu_stream s) ;
// the rows of 1 to rmax entries into ord, longest first (a stable sort: rows
// of one length in their order), *nord of them, two int64 a row (i + (its
// length << 32), its first entry Ap [i]: 2m at most); sort -1: only where uneven
// (the longest such row over GCU_SPMM_SORT_UNEVEN times their mean length),
// else *nord 0 and ord untouched
GrB_Info gcu_spmm_plan_order (const void *Ap, bool idx64, int64_t m, int64_t rmax, int sort,
    int64_t *ord, int64_t *nord, gcu_stream s) ;
GrB_Info gcu_spmm_gather (const uint32_t *Rq, const void *Ax, void *Rx, int64_t nnz,
    size_t tsize, gcu_stream s) ;
// C's pattern: Cp [i] = rank [i] * n (i <= m), Cj [e] = e % n
GrB_Info gcu_spmm_pattern (const int64_t *rank, int64_t m, int64_t n, bool idx64,
    void *Cp, void *Cj, GrB_Index nvals, gcu_stream s) ;

// Launch configuration of a grid-stride loop over `items` groups of G lanes
// (at most GCU_SPMM_BLOCKS_PER_SM blocks an SM; _cap: at most cap, 0 none).
unsigned gcu_spmm_grid (int64_t items, int G) ;
unsigned gcu_spmm_grid_cap (int64_t items, int G, int cap) ;

#endif
