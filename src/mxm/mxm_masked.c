// mxm_masked.c — the two GrB_mxm GPU families for a mask that is not
// complemented (DESIGN §4, masked products; triangle counting's kernels),
// both positional: the result has one value and one flag per entry of M, so
// T is M's pattern less the entries with no term (or a false valued mask),
// and it is written back like any T.
//
//   masked dot    C<M> = A*B': every entry of the mask is one sparse dot
//                 product of a row of op(A) and a column of op(B)
//                 (cuda/masked/). Taken when B is given transposed (the dot
//                 form a program writes when it wants it: L*U' in triangle
//                 counting), or when the mask's dot products cost less than
//                 the whole product. With A and B held full it is SDDMM
//                 (C<M> = X*Y'): both stay dense on the device
//                 (src/residency/dense.c) and each mask entry is a dense dot
//                 product of length k (cuda/spmm/gcu_sddmm.cuh).
//   masked saxpy  C<M> = A*B row by row, only the mask's positions
//                 accumulated (cuda/spgemm/gcu_spgemm_masked.cuh): the rest
//                 (C<L> = L*L, C<A> = A*A in triangle counting).
//
// A complemented mask goes to the unmasked saxpy family, the write-back
// applying the mask.
#include "gcu_mxm.h"
#include "../device/gcu_device.h"
#include "../device/gcu_staging.h"
#include "../jit/gcu_jit.h"
#include "../spgemm/gcu_spgemm.h"
#include "../spmm/gcu_spmm.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if GRBCUDA_HAVE_CUDA

// true for a complemented mask, or a descriptor that cannot be read (the
// masked families decline both)
static bool mask_complemented (GrB_Descriptor desc, bool *structural)
{
    bool complement ;
    return !gcu_mask_kind (desc, structural, &complement) || complement ;
}

// the semiring and the three types describable; a valued mask castable
static GrB_Info masked_types_ok (const gcu_call *call, bool structural)
{
    gcu_semiring_desc sr ;
    gcu_type_desc t ;
    GrB_Type ty ;
    if (gcu_semiring_identify (call->semiring, &sr) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (!gcu_semiring_device_exact (&sr)) return GCU_NOT_HANDLED ;     // pow, atan2, hypot
    const void *ops [3] = { call->A, call->B, call->M } ;
    for (int k = 0 ; k < 3 ; k++)
    {
        if (GxB_Matrix_type (&ty, (GrB_Matrix) ops [k]) != GrB_SUCCESS
            || gcu_type_identify (ty, &t) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
        // a valued mask of a user-defined type is not castable to bool
        if (k == 2 && !structural && t.code == GCU_T_UDT) return GCU_NOT_HANDLED ;
    }
    return GrB_SUCCESS ;
}

static GrB_Info masked_saxpy_branch (const gcu_call *call)
{
    bool structural ;
    if (call->M == NULL) return GCU_NOT_HANDLED ;
    if (mask_complemented (call->desc, &structural)) return GCU_NOT_HANDLED ;
    // C's column indices are int32 on the device
    if (call->c_cols >= ((GrB_Index) 1 << 31) || call->c_rows >= ((GrB_Index) 1 << 31) - 1)
        return GCU_NOT_HANDLED ;
    return masked_types_ok (call, structural) ;
}

static GrB_Info dot_branch (const gcu_call *call)
{
    bool structural ;
    if (call->M == NULL) return GCU_NOT_HANDLED ;
    if (mask_complemented (call->desc, &structural)) return GCU_NOT_HANDLED ;
    if (!call->tran_b)
    {
        // A*B with B as it is: dot only when the mask's dot products cost
        // less than the whole product saxpy would compute (SDDMM: a sparse
        // mask over dense X*Y is the extreme case)
        GrB_Index mnvals = 0 ;
        if (GrB_Matrix_nvals (&mnvals, (GrB_Matrix) call->M) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
        double arow = (double) call->a_nvals / (double) (call->c_rows > 0 ? call->c_rows : 1) ;
        double bcol = (double) call->b_nvals / (double) (call->c_cols > 0 ? call->c_cols : 1) ;
        if ((double) mnvals * (arow + bcol) >= call->work) return GCU_NOT_HANDLED ;
    }
    return masked_types_ok (call, structural) ;
}

//------------------------------------------------------------------------------
// the run
//------------------------------------------------------------------------------

// One run's state: what it owns (masked_free releases all of it, on any
// failure) and what each phase hands the next.
typedef struct
{
    gcu_stream s ;
    bool saxpy, structural ;
    gcu_dot_masked_spec spec ;
    gcu_operand oa, ob, om ;
    bool sddmm ;                    // A and B dense on the device (xa, xb)
    gcu_dense xa, xb ;
    int vec, G ;                    // SDDMM's terms a lane, lanes an entry
    int batch ;                     // SDDMM's entries a batch
    int64_t seg ;                   // SDDMM's mask entries a run
    int minb, unroll ;              // SDDMM's blocks an SM (the grid's), loads in flight
    bool rows, hint ;               // SDDMM by rows (short rows), A's rows evicted first
    bool nat ;                      // SDDMM sums natively (gcu_sddmm_nat_ok)
    char why [160] ;                // SDDMM: which kernel, why these runs and loads
    const char *a_is, *b_is ;       // "M", "A": the operand it shares a copy with
    void *dCx ;                     // device: a value and a flag per mask entry
    int8_t *dCb ;
    gcu_mxm_result res ;            // T kept on the device as C's newest value
    gcu_mxm_scratch scr ;           // T compacted for the device write-back
    GrB_Index *Tp, *Tj ;            // T on the host
    void *Tx ;
    GrB_Index nvals ;               // nnz (T)
    size_t down_bytes ;
    double t_down ;
    bool kept, merged ;
}
masked_job ;

static void masked_free (masked_job *j)
{
    gcu_stream s = j->s ;
    (void) gcu_sync (s) ;   // no kernel reads an operand any more
    gcu_operand_release (&j->ob, s) ; gcu_operand_release (&j->oa, s) ;
    gcu_operand_release (&j->om, s) ;
    gcu_dense_release (&j->xa, s) ; gcu_dense_release (&j->xb, s) ;
    gcu_dfree (j->dCx, s) ; gcu_dfree (j->dCb, s) ;
    gcu_mxm_result_end (&j->res) ;
    gcu_mxm_scratch_free (&j->scr) ;
    gcu_host_free (j->Tp) ; gcu_host_free (j->Tj) ; gcu_host_free (j->Tx) ;
}

// The phases own nothing: on failure masked_run frees the job.
#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

// the device's value and flag per mask entry
static GrB_Info masked_outputs (masked_job *j)
{
    const int64_t mnvals = (int64_t) j->om.nvals ;
    const size_t zsize = j->spec.sr.mult.z.size ;
    GCU_TRY (gcu_dmalloc (&j->dCx, (mnvals + 1) * zsize, j->s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &j->dCb, mnvals + 1, j->s)) ;
    return GrB_SUCCESS ;
}

// SDDMM: A and B held full stay dense on the device (j->sddmm); either one
// not held full (a bitmap, a sparse matrix with every entry) leaves the
// sparse dot products to run
static GrB_Info sddmm_operands (const gcu_call *call, masked_job *j)
{
    if (!gcu_mxm_full_count (call->a_nvals, call->a_rows, call->a_cols)
        || !gcu_mxm_full_count (call->b_nvals, call->b_rows, call->b_cols)) return GrB_SUCCESS ;
    GrB_Info info = gcu_dense_get ((GrB_Matrix) call->A, j->spec.ops.a.size, &j->xa, j->s) ;
    if (info == GrB_SUCCESS) info = gcu_dense_get ((GrB_Matrix) call->B, j->spec.ops.b.size, &j->xb, j->s) ;
    if (info == GCU_NOT_HANDLED)
    {
        gcu_log ("GrB_mxm masked dot: A or B is not held full; sparse dot products") ;
        gcu_dense_release (&j->xa, j->s) ; gcu_dense_release (&j->xb, j->s) ;
        return GrB_SUCCESS ;
    }
    GCU_TRY (info) ;
    j->sddmm = true ;
    return GrB_SUCCESS ;
}

static _Atomic uint64_t sddmm_runs ;
uint64_t gcu_mxm_sddmm_runs (void) { return atomic_load (&sddmm_runs) ; }


// SDDMM's batch: the entries whose partial values a lane holds
// (gcu_sddmm_batch; GRBCUDA_SDDMM_BATCH forces a power of two up to 32)
static int sddmm_batch (size_t zsize)
{
    const int v = gcu_env_int ("GRBCUDA_SDDMM_BATCH", 0) ;
    if (v >= 1 && v <= 32 && (v & (v - 1)) == 0) return v ;
    return gcu_sddmm_batch (zsize) ;
}

// A mask of short rows: at most GCU_SDDMM_SHORT_ROW entries a row on average
// (a banded matrix, a mesh)
static bool sddmm_short_rows (int64_t mnvals, int64_t m)
{
    return mnvals <= (int64_t) GCU_SDDMM_SHORT_ROW * (m > 0 ? m : 1) ;
}

// SDDMM's runs and loads in flight, by the mask's rows. Short rows: runs
// of GCU_SDDMM_RUN_BATCHES batches, so that the entries in flight are a
// narrow band of the mask whose gathered rows of B stay in L2, and
// GCU_SDDMM_UNROLL_SHORT loads in flight. Longer rows (a power-law graph,
// whose gathers have no band to keep): one run each of the nsub sub-groups
// (one search for its first row), GCU_SDDMM_UNROLL loads in flight.
// GRBCUDA_SDDMM_SEG sets the run's entries (-1: one a sub-group) and
// GRBCUDA_SDDMM_UNROLL the loads (2, 4, 8), for sweeps. *why says which.
static int64_t sddmm_run_length (int64_t mnvals, int64_t m, int64_t nsub, int batch,
    int *unroll, char *why, size_t len)
{
    const bool short_rows = sddmm_short_rows (mnvals, m) ;
    int64_t seg = gcu_env_int ("GRBCUDA_SDDMM_SEG", 0) ;
    if (seg == 0) seg = short_rows ? (int64_t) GCU_SDDMM_RUN_BATCHES * batch : -1 ;
    if (seg == -1) seg = (mnvals + nsub - 1) / nsub ;
    if (seg > ((int64_t) 1 << 30)) seg = (int64_t) 1 << 30 ;       // (an int in the args)
    seg = (seg + batch - 1) / batch * batch ;
    const int u = gcu_env_int ("GRBCUDA_SDDMM_UNROLL", 0) ;
    *unroll = (u == 2 || u == 4 || u == 8) ? u
        : short_rows ? GCU_SDDMM_UNROLL_SHORT : GCU_SDDMM_UNROLL ;
    if (seg < batch) seg = batch ;
    snprintf (why, len, "%s rows (%.1f entries on average): runs of %lld entries, %d loads "
        "in flight", short_rows ? "short" : "long", (double) mnvals / (double) (m > 0 ? m : 1),
        (long long) seg, *unroll) ;
    return seg ;
}

// SDDMM by rows (gcu_sddmm_rows) or by runs of entries (gcu_sddmm_scatter):
// by rows for a mask of short rows and dot products of at most
// GCU_SDDMM_ROWS_MAX_K terms where GCU_SDDMM_ROWS is on
// (GRBCUDA_SDDMM_KERNEL=rows or runs forces one), its batch the row's
// entries rounded up to a power of two, at most GCU_SDDMM_ROWS_BATCH, the
// runs' batch and the G lanes (a lane loads one column of a batch;
// GRBCUDA_SDDMM_BATCH forces one up to G), its blocks an SM
// GCU_SDDMM_ROWS_MIN_BLOCKS (GRBCUDA_SDDMM_MINB overrides); A's rows loaded
// to be evicted first where GCU_SDDMM_ROWS_HINT is on (GRBCUDA_SDDMM_XHINT=0
// or 1 forces it). *why (j->why) says which and why.
static void sddmm_rows_choice (masked_job *j, int64_t mnvals, int64_t m, int64_t k,
    size_t zsize)
{
    const char *e = getenv ("GRBCUDA_SDDMM_KERNEL") ;
    const bool forced = e != NULL && (strcmp (e, "rows") == 0 || strcmp (e, "runs") == 0) ;
    const bool short_rows = sddmm_short_rows (mnvals, m) ;
    j->rows = forced ? strcmp (e, "rows") == 0
        : (GCU_SDDMM_ROWS != 0 && short_rows && k <= GCU_SDDMM_ROWS_MAX_K) ;
    if (!j->rows) return ;
    j->hint = gcu_env_int ("GRBCUDA_SDDMM_XHINT", GCU_SDDMM_ROWS_HINT) != 0 ;
    const int v = gcu_env_int ("GRBCUDA_SDDMM_BATCH", 0) ;
    const double len = (double) mnvals / (double) (m > 0 ? m : 1) ;
    int b = 1 ;
    while (b < GCU_SDDMM_ROWS_BATCH && b < gcu_sddmm_batch (zsize) && b < len) b *= 2 ;
    j->batch = (v >= 1 && v <= 32 && (v & (v - 1)) == 0) ? v : b ;
    if (j->batch > j->G) j->batch = j->G ;
    const int mb = gcu_env_int ("GRBCUDA_SDDMM_MINB", 0) ;
    j->minb = mb >= 1 && mb <= 8 ? mb : GCU_SDDMM_ROWS_MIN_BLOCKS ;
    snprintf (j->why, sizeof (j->why), "%s rows (%.1f entries on average), k %lld: by rows%s%s",
        short_rows ? "short" : "long", len, (long long) k,
        j->hint ? ", A's rows evicted first" : "", forced ? " (GRBCUDA_SDDMM_KERNEL)" : "") ;
}

// SDDMM's kernel: a dot product of length k per mask entry, G lanes of VEC
// terms each, batches of j->batch entries reduce-scattered over the G lanes
// (cuda/spmm/gcu_sddmm.cuh), by rows or by runs of entries. Timed alone:
// compiled and loaded first.
static GrB_Info sddmm_products (gcu_call *call, masked_job *j)
{
    gcu_spmm_spec spec = { j->spec.sr, j->spec.ops, 1, true } ;
    gcu_spmm_args a ;
    memset (&a, 0, sizeof (a)) ;
    const int64_t k = (int64_t) (call->tran_a ? call->a_rows : call->a_cols) ;
    gcu_dense_strides (&j->xa, call->tran_a, &a.xrs, &a.xcs) ;
    gcu_dense_strides (&j->xb, call->tran_b, &a.yrs, &a.ycs) ;
    const size_t as = spec.ops.a.size, bs = spec.ops.b.size ;
    spec.vec = j->vec = gcu_spmm_vec_for (k, as > bs ? as : bs, a.xcs == 1 && a.yrs == 1) ;
    a.m = (int64_t) call->c_rows ; a.n = k ;
    a.G = j->G = gcu_spmm_group (k, spec.vec, gcu_sddmm_group_max ()) ;
    a.X = j->xa.x ; a.Y = j->xb.x ;
    a.Mp = j->om.p ; a.Mj = j->om.j ; a.Mx = j->structural ? NULL : j->om.x ;
    a.mnvals = (int64_t) j->om.nvals ;
    a.Cx = j->dCx ; a.Cb = j->dCb ;
    j->batch = sddmm_batch (spec.sr.mult.z.size) ;
    // the GPU's own + and * where the semiring allows (GRBCUDA_SDDMM_NAT=0
    // or 1 forces it off or on there)
    j->nat = gcu_env_int ("GRBCUDA_SDDMM_NAT", GCU_SDDMM_NAT) != 0 && gcu_sddmm_nat_ok (&spec) ;
    // The kernel's registers leave room for minb blocks an SM
    // (GRBCUDA_SDDMM_MINB: 1 to 8, for sweeps), and the grid is that many:
    // every block resident, the runs or rows in flight a narrow band. Long
    // rows summed natively: GCU_SDDMM_MIN_BLOCKS_NAT_LONG.
    const int mb = gcu_env_int ("GRBCUDA_SDDMM_MINB", 0) ;
    j->minb = mb >= 1 && mb <= 8 ? mb
        : (j->nat && !sddmm_short_rows (a.mnvals, a.m)) ? GCU_SDDMM_MIN_BLOCKS_NAT_LONG
        : GCU_SDDMM_MIN_BLOCKS ;
    sddmm_rows_choice (j, a.mnvals, a.m, k, spec.sr.mult.z.size) ;
    const int minb = j->minb ;
    const gcu_device_props *dev = gcu_device () ;
    const int64_t blocks = (int64_t) (dev != NULL ? dev->sm_count : 1) * minb ;
    int64_t need ;
    void *fn = NULL ;
    if (j->rows)
    {
        need = (a.m * a.G + GCU_SPMM_THREADS - 1) / GCU_SPMM_THREADS ;
        GCU_TRY (gcu_sddmm_rows_kernel (&spec, j->batch, j->hint, minb, j->nat, &fn)) ;
    }
    else
    {
        j->seg = a.seg = (int) sddmm_run_length (a.mnvals, a.m, blocks * GCU_SPMM_THREADS / a.G,
            j->batch, &j->unroll, j->why, sizeof (j->why)) ;
        need = ((a.mnvals + a.seg - 1) / a.seg * a.G + GCU_SPMM_THREADS - 1) / GCU_SPMM_THREADS ;
        GCU_TRY (gcu_sddmm_kernel (&spec, j->batch, j->unroll, minb, j->nat, &fn)) ;
    }
    const unsigned grid = (unsigned) (need < blocks ? (need < 1 ? 1 : need) : blocks) ;
    void *args [] = { &a } ;
    gcu_timer tk ;
    gcu_timer_start (&tk, j->s) ;
    GrB_Info info = gcu_jit_launch (fn, grid, GCU_SPMM_THREADS, 0, j->s, args) ;
    if (info == GrB_SUCCESS) info = gcu_launch_check ("sddmm") ;
    call->kernel_seconds = gcu_timer_stop (&tk, j->s) ;
    if (info == GrB_SUCCESS) atomic_fetch_add (&sddmm_runs, 1) ;
    return info ;
}

// The semiring and types; the mask's rows, the rows of op(A), and the rows
// of op(B)' (columns of op(B): dot) or of op(B) (saxpy): the residency
// cache's copies, or exported and uploaded. The mask first: on a miss its
// host export is kept for building T. One object in two roles with one
// layout takes one copy (triangle counting's C<L> = L*U' and C<L> = L*L
// have M = A = B). Then the device's value and flag per mask entry.
static GrB_Info masked_operands (const gcu_call *call, masked_job *j)
{
    gcu_dot_masked_spec *spec = &j->spec ;
    gcu_stream s = j->s ;
    GrB_Type at, bt, mt ;
    GCU_TRY (gcu_semiring_identify (call->semiring, &spec->sr)) ;
    GCU_TRY (GxB_Matrix_type (&at, (GrB_Matrix) call->A)) ;
    GCU_TRY (GxB_Matrix_type (&bt, (GrB_Matrix) call->B)) ;
    GCU_TRY (GxB_Matrix_type (&mt, (GrB_Matrix) call->M)) ;
    GCU_TRY (gcu_type_identify (at, &spec->ops.a)) ;
    GCU_TRY (gcu_type_identify (bt, &spec->ops.b)) ;
    gcu_type_desc mdesc ;
    GCU_TRY (gcu_type_identify (mt, &mdesc)) ;
    spec->ops.c = spec->sr.mult.z ;
    spec->ops.mask_type = j->structural ? -1 : (int) mdesc.code ;

    const bool b_by_col = j->saxpy ? call->tran_b : !call->tran_b ;
    GCU_TRY (gcu_operand_get ((GrB_Matrix) call->M, false, mdesc.size, true, &j->om, s)) ;
    spec->ops.m_iso = j->om.iso ;
    spec->ops.m_idx64 = j->om.idx64 ;
    if (!j->saxpy) GCU_TRY (sddmm_operands (call, j)) ;
    if (j->sddmm) return masked_outputs (j) ;
    if (call->A == call->M && !call->tran_a)
    {
        gcu_operand_share (&j->om, &j->oa) ;
        j->a_is = "M" ;
    }
    else GCU_TRY (gcu_operand_get ((GrB_Matrix) call->A, call->tran_a, spec->ops.a.size, false, &j->oa, s)) ;
    if (call->B == call->A && b_by_col == call->tran_a)
    {
        gcu_operand_share (&j->oa, &j->ob) ;
        j->b_is = "A" ;
    }
    else if (call->B == call->M && !b_by_col)
    {
        gcu_operand_share (&j->om, &j->ob) ;
        j->b_is = "M" ;
    }
    else GCU_TRY (gcu_operand_get ((GrB_Matrix) call->B, b_by_col, spec->ops.b.size, false, &j->ob, s)) ;
    spec->ops.a_iso = j->oa.iso ;
    spec->ops.b_iso = j->ob.iso ;
    spec->ops.a_idx64 = j->oa.idx64 ;
    spec->ops.b_idx64 = j->ob.idx64 ;
    return masked_outputs (j) ;
}

// The kernels: a value and a flag per mask entry into dCx and dCb.
static GrB_Info masked_products (gcu_call *call, masked_job *j)
{
    const gcu_operand *oa = &j->oa, *ob = &j->ob, *om = &j->om ;
    const int64_t mnvals = (int64_t) om->nvals ;
    const GrB_Index m = call->c_rows, n = call->c_cols ;
    gcu_stream s = j->s ;
    if (j->sddmm && mnvals > 0) GCU_TRY (sddmm_products (call, j)) ;
    else if (j->saxpy && mnvals > 0)
    {
        // rows of A times B, only the mask's positions accumulated
        const GrB_Index k = call->tran_a ? call->a_rows : call->a_cols ;
        gcu_spgemm_in in = { (int64_t) m, (int64_t) k, (int64_t) n,
            (int64_t) oa->nvals, (int64_t) ob->nvals, oa->idx64, ob->idx64,
            oa->p, oa->j, oa->x, ob->p, ob->j, ob->x } ;
        gcu_spgemm_mask mk = { mnvals, om->idx64, om->p, om->j, j->structural ? NULL : om->x } ;
        double ks = 0 ;
        GCU_TRY (gcu_spgemm_masked_run (&j->spec.sr, &j->spec.ops, &in, &mk, j->dCx, j->dCb, &ks, s)) ;
        call->kernel_seconds = ks ;
    }
    else if (mnvals > 0)
    {
        // one dot product per mask entry
        const gcu_device_props *dev = gcu_device () ;
        int64_t grid = (mnvals + GCU_DOT_MASKED_THREADS - 1) / GCU_DOT_MASKED_THREADS ;
        int64_t cap = (int64_t) dev->sm_count * 32 ;
        if (grid > cap) grid = cap ;
        if (grid < 1) grid = 1 ;
        gcu_dot_masked_args args = { (int64_t) m, mnvals, om->p, om->j,
            j->structural ? NULL : om->x, oa->p, oa->j, oa->x, ob->p, ob->j, ob->x,
            j->dCx, j->dCb, NULL } ;
        // compiled and loaded first, so that the timer sees the kernel alone
        void *fn = NULL ;
        GCU_TRY (gcu_dot_masked_function (&j->spec, &fn)) ;
        gcu_timer tk ;
        gcu_timer_start (&tk, s) ;
        GrB_Info kinfo = gcu_dot_masked_launch (fn, &args, (unsigned) grid, GCU_DOT_MASKED_THREADS, s) ;
        if (kinfo == GrB_SUCCESS) kinfo = gcu_launch_check ("masked dot") ;
        const double ks = gcu_timer_stop (&tk, s) ;
        GCU_TRY (kinfo) ;
        call->kernel_seconds = ks ;
    }
    return GrB_SUCCESS ;
}

// T: the mask's pattern less the entries with no term. It stays on the
// device as C's newest value where C<M> = T is T (C empty, no accum, C of
// T's type: triangle counting's C<L>), compacted there (kept); or, where C
// has entries to keep, is compacted into scratch buffers (row pointers,
// indices, values: scr.p [0..2]) for the write-back on the device (merged);
// otherwise it comes back through the staging buffers and is compacted on
// the host (Tp, Tj, Tx). dCx and dCb are freed.
static GrB_Info masked_T (gcu_call *call, masked_job *j)
{
    const GrB_Index m = call->c_rows ;
    const size_t zsize = j->spec.sr.mult.z.size ;
    const GrB_Type ztype = j->spec.sr.mult.z.handle ;
    gcu_stream s = j->s ;
    if (gcu_mxm_result_begin (call, ztype, true, &j->res))
    {
        // no room for the entry: the host takes T after all; a device
        // failure is the call's GPU failure
        const GrB_Info ki = gcu_mxm_positional_T_device (&j->om, m, j->dCx, j->dCb, zsize,
            &j->res.keep, &j->nvals, s) ;
        if (ki != GCU_NOT_HANDLED) GCU_TRY (ki) ;
        j->kept = ki == GrB_SUCCESS ;
        if (!j->kept) gcu_mxm_result_end (&j->res) ;
    }
    else if (gcu_mxm_merge_applies (call, ztype))
    {
        const GrB_Info ki = gcu_mxm_positional_T_device (&j->om, m, j->dCx, j->dCb, zsize,
            &j->scr.keep, &j->nvals, s) ;
        if (ki != GCU_NOT_HANDLED) GCU_TRY (ki) ;
        j->merged = ki == GrB_SUCCESS && j->scr.n == 3 ;
        if (!j->merged) gcu_mxm_scratch_free (&j->scr) ;
    }
    if (!j->kept && !j->merged)
    {
        GCU_TRY (gcu_mxm_positional_T (&j->om, m, j->dCx, j->dCb, zsize, &j->Tp, &j->Tj,
            &j->Tx, &j->nvals, &j->down_bytes, &j->t_down, s)) ;
    }
    gcu_dfree (j->dCx, s) ; gcu_dfree (j->dCb, s) ;
    j->dCx = NULL ; j->dCb = NULL ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL masked_free (&j) ;

static GrB_Info masked_run (gcu_call *call, bool saxpy)
{
    masked_job j ;
    memset (&j, 0, sizeof (j)) ;
    j.s = gcu_stream_default () ;
    j.saxpy = saxpy ;
    gcu_stream s = j.s ;
    gcu_mxm_scratch_init (&j.scr, s) ;
    (void) mask_complemented (call->desc, &j.structural) ;
    double t0 = gcu_now () ;
    GCU_TRY (masked_operands (call, &j)) ;
    if (!gcu_iso_call_check (call, &j.spec.sr)) GCU_TRY (GCU_NOT_HANDLED) ;
    double t1 = gcu_now () ;
    GCU_TRY (masked_products (call, &j)) ;
    // (synchronised here only so that the log below can tell the kernel's
    // time from the download's; the download would wait for it anyway)
    GCU_TRY (gcu_sync (s)) ;
    double t2 = gcu_now () ;
    GCU_TRY (masked_T (call, &j)) ;

    const GrB_Index m = call->c_rows, n = call->c_cols ;
    const int64_t mnvals = (int64_t) j.om.nvals ;
    const size_t zsize = j.spec.sr.mult.z.size ;
    const GrB_Type ztype = j.spec.sr.mult.z.handle ;
    char dm [64], da [64], db [64] ;
    gcu_operand_describe (&j.om, "M", NULL, dm, sizeof (dm)) ;
    gcu_operand_describe (&j.oa, "A", j.a_is, da, sizeof (da)) ;
    gcu_operand_describe (&j.ob, "B", j.b_is, db, sizeof (db)) ;
    if (j.sddmm)
    {
        gcu_operand_how_describe (j.xa.how, j.xa.up_bytes, "A dense", NULL, da, sizeof (da)) ;
        gcu_operand_how_describe (j.xb.how, j.xb.up_bytes, "B dense", NULL, db, sizeof (db)) ;
    }
    const size_t up_bytes = j.om.up_bytes + j.oa.up_bytes + j.ob.up_bytes + j.xa.up_bytes
        + j.xb.up_bytes ;
    const double t_export = j.om.export_s + j.oa.export_s + j.ob.export_s + j.xa.export_s
        + j.xb.export_s ;
    const double t_upload = j.om.upload_s + j.oa.upload_s + j.ob.upload_s + j.xa.upload_s
        + j.xb.upload_s ;
    char how [400] ;
    if (j.sddmm) snprintf (how, sizeof (how), "sddmm (dense A and B: batches of %d entries a "
        "sub-group of %d lanes x %d terms, reduce-scattered; %s; %d blocks an SM%s%s)", j.batch,
        j.G, j.vec, j.why, j.minb, j.nat ? "; native sums, a batch with a NaN summed again" : "",
        j.vec > 1 ? "" : "; one term a load: terms not contiguous or VEC does not divide k") ;
    else snprintf (how, sizeof (how), "%s", j.saxpy ? "saxpy" : "dot") ;
    // T on the device has the mask's index width: read before the release
    // zeroes the operand (it was read after, always false: a mask with
    // 64-bit indices would have been kept or merged as 32-bit)
    const bool idx64 = j.om.idx64 ;
    // every kernel is done (the downloads synchronised)
    gcu_operand_release (&j.ob, s) ; gcu_operand_release (&j.oa, s) ; gcu_operand_release (&j.om, s) ;
    gcu_dense_release (&j.xa, s) ; gcu_dense_release (&j.xb, s) ;
    double t3 = gcu_now () ;
    // (a C aliased with M, A or B is invalidated by the write-back's own
    // calls, or replaced as a whole by the newest value)
    GrB_Index nvals = j.nvals ;
    const GrB_Index tnvals = nvals ;
    if (j.kept) GCU_TRY (gcu_mxm_result_publish (call, &j.res, ztype, zsize, m, n, nvals, idx64)) ;
    else if (j.merged)
    {
        GCU_TRY (gcu_mxm_merge_into_c (call, ztype, zsize, m, n, j.scr.p [0],
            j.scr.p [1], j.scr.p [2], idx64, &nvals, s)) ;
        gcu_mxm_scratch_free (&j.scr) ;
    }
    else GCU_TRY (gcu_mxm_write_back (call, ztype, m, n, &j.Tp, &j.Tj, &j.Tx, nvals, zsize, true)) ;
    call->up_bytes += up_bytes ;
    call->down_bytes = j.down_bytes ;
    gcu_host_free (j.Tp) ; gcu_host_free (j.Tj) ; gcu_host_free (j.Tx) ;
    gcu_log ("GrB_mxm gpu masked %s: nnz(M) %lld, nnz(T) %llu, nnz(C) %llu; %s, %s, %s; "
        "operands %.2f ms (export %.2f ms, upload %.2f ms, %.1f MB), kernel %.2f ms, "
        "download %.2f ms (%.1f MB), T %.2f ms, %s %.2f ms", how,
        (long long) mnvals,
        (unsigned long long) tnvals, (unsigned long long) nvals, da, db, dm, 1e3 * (t1 - t0), 1e3 * t_export,
        1e3 * t_upload, up_bytes / 1e6, 1e3 * (t2 - t1), 1e3 * j.t_down,
        j.down_bytes / 1e6, 1e3 * (t3 - t2 - j.t_down),
        j.kept ? "result kept on the device as C's newest value" : j.merged
        ? "write-back on the device under the mask, C's newest value" : "write-back",
        1e3 * (gcu_now () - t3)) ;
    return GrB_SUCCESS ;
}

static GrB_Info dot_run (gcu_call *call) { return masked_run (call, false) ; }
static GrB_Info masked_saxpy_run (gcu_call *call) { return masked_run (call, true) ; }

const gcu_family gcu_family_mxm_dot = { "masked dot", GCU_OP_MXM, dot_branch, dot_run } ;
const gcu_family gcu_family_mxm_masked_saxpy = { "masked saxpy", GCU_OP_MXM,
    masked_saxpy_branch, masked_saxpy_run } ;

#else

uint64_t gcu_mxm_sddmm_runs (void) { return 0 ; }

#endif
