// mxm_spmm.c — the GrB_mxm GPU family for a sparse A times a full X (DESIGN
// §4, SpMM): C = op(A)*op(X) over any semiring the JIT expresses. op(A)
// comes from the residency cache by row (A' is the cache's CSC), X stays
// dense on the device as SuiteSparse holds it (src/residency/dense.c; X'
// only swaps its strides), and the engine (src/spmm/) computes C as CSR
// whose pattern is known beforehand: row i of C is full iff row i of op(A)
// has an entry. C is left on the device: as C's newest value where
// C<M,replace> = accum (C, T) is T, else through the device write-back
// (masks, accum, replace, typecasts). Where neither applies (a user type's
// accum, GRBCUDA_KEEP_RESULTS off) the call goes on to the SpGEMM families.
#include "gcu_mxm.h"
#include "../spmm/gcu_spmm.h"
#include "../device/gcu_device.h"
#include <string.h>

#if GRBCUDA_HAVE_CUDA

static GrB_Info spmm_branch (const gcu_call *call)
{
    gcu_semiring_desc sr ;
    gcu_type_desc t ;
    GrB_Type ty ;
    if (!gcu_mxm_full_count (call->b_nvals, call->b_rows, call->b_cols)) return GCU_NOT_HANDLED ;
    if (gcu_semiring_identify (call->semiring, &sr) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (!gcu_semiring_device_exact (&sr)) return GCU_NOT_HANDLED ;     // pow, atan2, hypot
    // FIRSTI and FIRSTI1 give C's row index, as the SpGEMM families do
    // (SuiteSparse 7.4's dot method gives a hypersparse A's position in its
    // list of rows instead: test_spmm_gpu's oracle reads A held sparse)
    const void *ops [2] = { call->A, call->B } ;
    for (int k = 0 ; k < 2 ; k++)
    {
        if (GxB_Matrix_type (&ty, (GrB_Matrix) ops [k]) != GrB_SUCCESS
            || gcu_type_identify (ty, &t) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    }
    // C's column indices are 32-bit on the device; n at most 2^31
    if (call->c_cols >= ((GrB_Index) 1 << 31) || call->c_rows >= ((GrB_Index) 1 << 31) - 1)
        return GCU_NOT_HANDLED ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// the run
//------------------------------------------------------------------------------

typedef struct
{
    gcu_stream s ;
    gcu_spmm_spec spec ;
    int ch ;                    // column chunks a lane
    gcu_operand oa ;
    gcu_dense ox ;
    gcu_mxm_result res ;        // C kept as its newest value
    gcu_mxm_scratch scr ;       // T for the device write-back
    bool kept ;
    gcu_spmm_out out ;
}
spmm_job ;

static void spmm_free (spmm_job *j)
{
    (void) gcu_sync (j->s) ;    // no kernel reads an operand any more
    gcu_operand_release (&j->oa, j->s) ;
    gcu_dense_release (&j->ox, j->s) ;
    gcu_mxm_result_end (&j->res) ;
    gcu_mxm_scratch_free (&j->scr) ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

// the semiring, the types, op(A) by row and X dense on the device, VEC
static GrB_Info spmm_operands (const gcu_call *call, spmm_job *j, int64_t *xrs, int64_t *xcs)
{
    gcu_spmm_spec *spec = &j->spec ;
    GrB_Type at, bt ;
    GCU_TRY (gcu_semiring_identify (call->semiring, &spec->sr)) ;
    GCU_TRY (GxB_Matrix_type (&at, (GrB_Matrix) call->A)) ;
    GCU_TRY (GxB_Matrix_type (&bt, (GrB_Matrix) call->B)) ;
    GCU_TRY (gcu_type_identify (at, &spec->ops.a)) ;
    GCU_TRY (gcu_type_identify (bt, &spec->ops.b)) ;
    spec->ops.c = spec->sr.mult.z ;
    spec->ops.mask_type = -1 ;
    // X first: a B SuiteSparse does not hold full declines before A moves
    GCU_TRY (gcu_dense_get ((GrB_Matrix) call->B, spec->ops.b.size, &j->ox, j->s)) ;
    GCU_TRY (gcu_operand_get ((GrB_Matrix) call->A, call->tran_a, spec->ops.a.size, false, &j->oa, j->s)) ;
    spec->ops.a_iso = j->oa.iso ;
    spec->ops.a_idx64 = j->oa.idx64 ;
    gcu_dense_strides (&j->ox, call->tran_b, xrs, xcs) ;
    const size_t zs = spec->sr.mult.z.size, bs = spec->ops.b.size ;
    spec->vec = gcu_spmm_vec_for ((long long) call->c_cols, zs > bs ? zs : bs, *xcs == 1) ;
    j->ch = gcu_spmm_ch_for ((long long) call->c_cols, spec->vec,
        gcu_spmm_group ((long long) call->c_cols, spec->vec, GCU_SPMM_GROUP_MAX)) ;
    return GrB_SUCCESS ;
}

// where C goes: kept as C's newest value, or the device write-back's
// scratch; false (the SpGEMM families take the call) for neither
static bool spmm_target (gcu_call *call, spmm_job *j, gcu_spmm_keep *keep)
{
    const GrB_Type ztype = j->spec.sr.mult.z.handle ;
    j->kept = gcu_mxm_result_begin (call, ztype, false, &j->res) ;
    if (j->kept)
    {
        keep->alloc = j->res.keep.alloc ; keep->ctx = j->res.keep.ctx ;
        return true ;
    }
    if (!gcu_mxm_merge_applies (call, ztype)) return false ;
    keep->alloc = j->scr.keep.alloc ; keep->ctx = j->scr.keep.ctx ;
    return true ;
}

static void spmm_log (const gcu_call *call, const spmm_job *j, GrB_Index nvals, double t_op,
    double t_wb)
{
    char da [64], dx [64] ;
    gcu_operand_describe (&j->oa, "A", NULL, da, sizeof (da)) ;
    gcu_operand_how_describe (j->ox.how, j->ox.up_bytes, "X", NULL, dx, sizeof (dx)) ;
    const gcu_spmm_out *o = &j->out ;
    char shape [320] ;
    if (o->tiled)
        snprintf (shape, sizeof (shape), "ASpT tiles: %lld panels, %lld tiles; %lld long rows' "
            "segments of %d", (long long) o->npanel, (long long) o->ntile, (long long) o->nseg, o->seg) ;
    else if (o->rows)
    {
        char grid [48] ;
        if (o->grid > 0) snprintf (grid, sizeof (grid), "%d blocks an SM", o->grid) ;
        else snprintf (grid, sizeof (grid), "a group an item") ;
        snprintf (shape, sizeof (shape), "row kernel: %lld segments of %d of the rows over %lld "
            "entries (%lld partial rows), then %lld rows%s; %s%s, %d loads in flight, bounds %d blocks, "
            "hints %s, %s, %d slice%s of %d columns", (long long) o->nseg, o->seg,
            (long long) o->rmax, (long long) o->npartial, (long long) o->nord, o->sorted
            ? " sorted by length" : " in order", o->pipe ? "A prefetched an item ahead" : "A not prefetched",
            o->nat ? ", the GPU's + and * (a row with a NaN again as the host)" : "",
            o->unroll, o->minb, o->hint ? "on" : "off", grid,
            o->nsl, o->nsl == 1 ? "" : "s", o->sw) ;
    }
    else
        snprintf (shape, sizeof (shape), "row-wise: segments of %d, %lld segments, %lld partial "
            "rows", o->seg, (long long) o->nseg, (long long) o->npartial) ;
    gcu_log ("GrB_mxm gpu spmm (%s; %d lanes x %d columns x %d chunks%s; plan %s, %s): "
        "nnz(A) %llu, X %s %s, C %llu x %llu, nnz(T) %llu, nnz(C) %llu; "
        "%s, %s; operands %.2f ms, plan %.2f ms, kernels %.3f ms, pattern %.2f ms, %s %.2f ms",
        shape, o->G, o->vec, o->ch,
        o->vec > 1 ? ", vector loads: X by row" : j->ox.iso ? ", X iso"
        : ", one column a lane: X not contiguous by row or VEC does not divide n",
        o->plan_hit ? "cached with A" : "made", o->why,
        (unsigned long long) j->oa.nvals, j->ox.by_col ? "by column" : "by row",
        call->tran_b ? "transposed" : "", (unsigned long long) call->c_rows,
        (unsigned long long) call->c_cols, (unsigned long long) o->nvals,
        (unsigned long long) nvals, da, dx, 1e3 * t_op, 1e3 * o->plan_s, 1e3 * o->kernel_s,
        1e3 * o->pattern_s, j->kept ? "result kept on the device as C's newest value"
        : "write-back on the device", 1e3 * t_wb) ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL spmm_free (&j) ;

static GrB_Info spmm_run (gcu_call *call)
{
    spmm_job j ;
    memset (&j, 0, sizeof (j)) ;
    j.s = gcu_stream_default () ;
    gcu_stream s = j.s ;
    gcu_mxm_scratch_init (&j.scr, s) ;
    const double t0 = gcu_now () ;
    int64_t xrs = 0, xcs = 0 ;
    GrB_Info info = spmm_operands (call, &j, &xrs, &xcs) ;
    if (info == GCU_NOT_HANDLED) gcu_log ("GrB_mxm spmm: B is not held full; the SpGEMM families take it") ;
    GCU_TRY (info) ;
    if (!gcu_iso_call_check (call, &j.spec.sr)) GCU_TRY (GCU_NOT_HANDLED) ;
    gcu_spmm_keep keep ;
    if (!spmm_target (call, &j, &keep))
    {
        gcu_log ("GrB_mxm spmm: C can neither stay on the device nor be written back there; "
            "the SpGEMM families take it") ;
        GCU_TRY (GCU_NOT_HANDLED) ;
    }
    const double t1 = gcu_now () ;
    const GrB_Index m = call->c_rows, n = call->c_cols ;
    // A's columns: op(X)'s rows
    const int64_t kd = (int64_t) (call->tran_b ? j.ox.ncols : j.ox.nrows) ;
    const gcu_spmm_in in = { (int64_t) m, (int64_t) n, j.oa.idx64, j.oa.p, j.oa.j, j.oa.x,
        j.oa.nvals, j.ox.x, xrs, xcs, kd, j.oa.iso, j.spec.ops.a.size, j.oa.e_ } ;
    GCU_TRY (gcu_spmm_run (&j.spec, j.ch, &in, &keep, &j.out, s)) ;
    call->kernel_seconds = j.out.kernel_s ;
    call->up_bytes += j.oa.up_bytes + j.ox.up_bytes ;
    call->down_bytes = 0 ;
    const double t2 = gcu_now () ;
    const GrB_Type ztype = j.spec.sr.mult.z.handle ;
    const size_t zsize = j.spec.sr.mult.z.size ;
    GrB_Index nvals = j.out.nvals ;
    if (j.kept) GCU_TRY (gcu_mxm_result_publish (call, &j.res, ztype, zsize, m, n, nvals, j.out.idx64)) ;
    else GCU_TRY (gcu_mxm_merge_into_c (call, ztype, zsize, m, n, j.out.Cp, j.out.Cj,
        j.out.Cx, j.out.idx64, &nvals, s)) ;
    spmm_log (call, &j, nvals, t1 - t0, gcu_now () - t2) ;
    spmm_free (&j) ;
    return GrB_SUCCESS ;
}

const gcu_family gcu_family_mxm_spmm = { "spmm", GCU_OP_MXM, spmm_branch, spmm_run } ;

#endif
