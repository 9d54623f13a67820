// mxm_select.c — the GPU family of GrB_Matrix_select_<T> (and _Scalar) with a
// value comparison: C = the entries of op(A) where A(i,j) cmp y holds, left
// on the device as C's newest value (DESIGN §3). SSSP's AL = A .* (A <=
// delta) and AH = A .* (A > delta), built anew in every call from a graph
// whose matrix stays on the device, are then neither built on the host nor
// uploaded for the products that read them.
//
// The comparison is the vector select's (src/vector/apply.c: the table's
// GrB_<CMP>_T, the JIT's apply kernel with a bool z), one flag per entry of
// A's values, and the kept entries are compacted a row a warp
// (src/mxm/positional.cu, the masked products' T), so rows stay sorted.
//
// Taken: GrB_VALUENE/LT/LE/GT/GE of A's own type (GxB_VALUENE of a complex
// one) with a thunk of that type that is not zero, A not bool, C of A's type,
// no mask, no accum, A in any storage, any descriptor (GrB_INP0 transposes
// A), and a result with entries. The rest stays SuiteSparse's, for the iso
// flag of its result: SuiteSparse 7.4 makes C iso where A is iso (then C is
// A or empty), for VALUEEQ (the thunk its value, even with no entries), and
// where it rewrites a comparison with a zero thunk into its own zero
// selectors (a UINT8 x <= 0 is EQ_ZERO: iso; a bool x != 0 NONZERO: iso); its
// bool comparisons with a cast thunk and its empty results' flag follow
// rules of their own (test_select_matrix_gpu's GPU run, 2026-11-27: 26
// cases, every one of them such a case). A cast thunk may be what it
// rewrites (0.5 as an integer), so only A's own type is taken.
#include "gcu_mxm.h"
#include "../vector/gcu_vector.h"
#include "gcu_call.h"
#include "gcu_util.h"
#include "grbcuda.h"
#include <string.h>

#if GRBCUDA_HAVE_CUDA

// a thunk of A's own type whose value (y, as A's type) is not zero
static bool thunk_plain (const gcu_call *call, GrB_Type at, gcu_type_code code, const uint64_t y [2])
{
    GrB_Type tt = call->scalar_type ;
    if (tt == NULL && (call->alpha == NULL || GxB_Scalar_type (&tt, call->alpha) != GrB_SUCCESS))
        return false ;
    if (tt != at) return false ;
    const float *f = (const float *) y ;
    const double *d = (const double *) y ;
    switch (code)
    {
        case GCU_T_FP32: return f [0] != 0 ;
        case GCU_T_FP64: return d [0] != 0 ;
        case GCU_T_FC32: return f [0] != 0 || f [1] != 0 ;
        case GCU_T_FC64: return d [0] != 0 || d [1] != 0 ;
        default: return y [0] != 0 || y [1] != 0 ;      // integers: (zero-filled) bytes
    }
}

// the call's plan: A's type (built in, not bool, C's), the comparison (not
// VALUEEQ) and its thunk y
static GrB_Info select_plan (const gcu_call *call, GrB_Type *at, gcu_type_desc *ad, uint64_t y [2])
{
    GrB_Type ct = NULL ;
    bool eq = true ;
    if (GxB_Matrix_type (at, (GrB_Matrix) call->A) != GrB_SUCCESS
        || GxB_Matrix_type (&ct, (GrB_Matrix) call->C) != GrB_SUCCESS || *at != ct
        || gcu_type_identify (*at, ad) != GrB_SUCCESS || ad->code == GCU_T_BOOL
        || gcu_select_value_plan (call, *at, &eq, y) != GrB_SUCCESS || eq
        || !thunk_plain (call, *at, ad->code, y)) return GCU_NOT_HANDLED ;
    return GrB_SUCCESS ;
}

static GrB_Info select_branch (const gcu_call *call)
{
    GrB_Type at ;
    gcu_type_desc ad ;
    uint64_t y [2] ;
    if (call->M != NULL || call->accum != NULL || !gcu_keep_results ()) return GCU_NOT_HANDLED ;
    return select_plan (call, &at, &ad, y) ;
}

// An iso A whose value is kept: C is A, iso too (I: A's index width)
static GrB_Info iso_result (const gcu_operand *oa, GrB_Index m, size_t asize,
    gcu_mxm_result *r, gcu_stream s)
{
    const size_t w = oa->idx64 ? 8 : 4 ;
    void *p = NULL, *j = NULL, *x = NULL ;
    GrB_Info info = gcu_mxm_keep_alloc (&r->keep, (size_t) (m + 1) * w, &p) ;
    if (info == GrB_SUCCESS) info = gcu_mxm_keep_alloc (&r->keep, (size_t) (oa->nvals + 1) * w, &j) ;
    if (info == GrB_SUCCESS) info = gcu_mxm_keep_alloc (&r->keep, asize, &x) ;
    if (info == GrB_SUCCESS) info = gcu_memcpy_d2d (p, oa->p, (size_t) (m + 1) * w, s) ;
    if (info == GrB_SUCCESS) info = gcu_memcpy_d2d (j, oa->j, (size_t) oa->nvals * w, s) ;
    if (info == GrB_SUCCESS) info = gcu_memcpy_d2d (x, oa->x, asize, s) ;
    r->iso = true ;
    return info ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL (void) gcu_sync (s) ; gcu_dfree (flags, s) ; gcu_mxm_result_end (&res) ; \
    gcu_operand_release (&oa, s) ;

static GrB_Info select_run (gcu_call *call)
{
    const gcu_stream s = gcu_stream_default () ;
    gcu_operand oa ;
    gcu_mxm_result res ;
    int8_t *flags = NULL ;
    memset (&oa, 0, sizeof (oa)) ;
    memset (&res, 0, sizeof (res)) ;
    const double t0 = gcu_now () ;
    const GrB_Index m = call->c_rows, n = call->c_cols ;
    GrB_Type at = NULL ;
    gcu_type_desc ad ;
    uint64_t y [2] ;
    GCU_TRY (select_plan (call, &at, &ad, y)) ;

    // the rows of op(A)
    GCU_TRY (gcu_operand_get ((GrB_Matrix) call->A, call->tran_a, ad.size, false, &oa, s)) ;
    const double t1 = gcu_now () ;

    // a flag an entry (an iso A: one, for all of them)
    const int64_t nf = oa.iso ? (oa.nvals > 0) : (int64_t) oa.nvals ;
    GCU_TRY (gcu_dmalloc ((void **) &flags, (size_t) nf + 16, s)) ;
    GCU_TRY (gcu_select_flags (call, at, oa.x, nf, flags, s)) ;
    int8_t keep = 0 ;
    if (oa.iso && nf > 0) GCU_TRY (gcu_memcpy_d2h (&keep, flags, 1, s)) ;
    // an empty result is SuiteSparse's (its iso flag)
    if (oa.nvals == 0 || (oa.iso && !keep)) GCU_TRY (GCU_NOT_HANDLED) ;
    if (!gcu_mxm_result_open (call, &res)) GCU_TRY (GCU_NOT_HANDLED) ;
    GrB_Index cn = oa.nvals ;
    if (oa.iso) GCU_TRY (iso_result (&oa, m, ad.size, &res, s)) ;
    else GCU_TRY (gcu_mxm_positional_T_device (&oa, m, oa.x, flags, ad.size, &res.keep, &cn, s)) ;
    if (cn == 0) GCU_TRY (GCU_NOT_HANDLED) ;
    // A is read (C may be A: its new value is published next)
    GCU_TRY (gcu_sync (s)) ;
    const double t2 = gcu_now () ;
    GCU_TRY (gcu_mxm_result_publish (call, &res, at, ad.size, m, n, cn, oa.idx64)) ;
    call->up_bytes = oa.up_bytes ;
    call->down_bytes = 0 ;
    call->kernel_seconds = t2 - t1 ;
    char da [64] ;
    gcu_operand_describe (&oa, "A", NULL, da, sizeof (da)) ;
    gcu_log ("GrB_Matrix_select gpu: %llu x %llu, nnz(A) %llu%s; %s; operands %.2f ms, "
        "select %.3f ms: C left there (%llu entries%s)", (unsigned long long) m,
        (unsigned long long) n, (unsigned long long) oa.nvals, oa.iso ? " (iso)" : "", da,
        1e3 * (t1 - t0), 1e3 * (t2 - t1), (unsigned long long) cn, oa.iso ? ", iso" : "") ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

const gcu_family gcu_family_matrix_select = { "matrix select", GCU_OP_MATRIX_SELECT,
    select_branch, select_run } ;

#endif
