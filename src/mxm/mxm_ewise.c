// mxm_ewise.c — the GPU family of GrB_Matrix_eWiseAdd and
// GrB_Matrix_eWiseMult (BinaryOp, Monoid and Semiring forms) and
// GxB_Matrix_eWiseUnion:
// C<M,replace> = accum (C, A op B), the result left as C's newest value
// (DESIGN §3). Two passes of the device write-back's row merge
// (cuda/writeback/gcu_merge.cuh, src/mxm/merge.cu):
//   T = A op B   A as the "C" side, B as T, op as the accum, no mask, into a
//                T of op's z type (eWiseAdd: the union of the patterns, an
//                entry of one side only cast to z; eWiseMult: the
//                intersection; eWiseUnion: the union, an entry of A only
//                op (A, beta), of B only op (alpha, B)), rows of op(A) and
//                op(B) (a transposed input
//                read as its CSC)
//   C<M,replace> = accum (C, T)   gcu_mxm_merge_into_c, as GrB_mxm's T
// Built-in types and operators the device computes exactly; an iso B (one
// stored value) stays SuiteSparse's. In auto mode the dispatch sends a call
// here only when A, B or C is device newest (src/dispatch/dispatch.c).
#include "gcu_mxm.h"
#include "../residency/gcu_operand.h"
#include "../jit/gcu_jit.h"
#include "gcu_call.h"
#include "gcu_util.h"
#include "grbcuda.h"
#include <string.h>

#if GRBCUDA_HAVE_CUDA

// a matrix's type, built in (not user-defined): NULL otherwise
static GrB_Type builtin_type (const void *A, gcu_type_desc *d)
{
    GrB_Type t = NULL ;
    if (A == NULL || GxB_Matrix_type (&t, (GrB_Matrix) A) != GrB_SUCCESS
        || gcu_type_identify (t, d) != GrB_SUCCESS || d->code >= GCU_NTYPES || d->code == GCU_T_UDT)
        return NULL ;
    return t ;
}

// SuiteSparse 7.4 computes a matrix's A.*B as op (b, a) where A is iso and
// held bitmap or full, B sparse or hypersparse, and op is one of
// gcu_op_emult_flips (reproduced with SuiteSparse alone, bench/RESULTS.md
// 2026-11-26): such a call stays SuiteSparse's, answered as it answers it;
// so does one whose A or B is device newest (how SuiteSparse would hold
// it then is its write-back's), or whose status cannot be read
static bool host_flips (const gcu_call *call, gcu_opcode op)
{
    if (!gcu_op_emult_flips (op)) return false ;
    if (gcu_residency_newest_nvals (call->A, NULL) || gcu_residency_newest_nvals (call->B, NULL))
        return true ;
    bool iso = true ;
    int32_t sa = GxB_FULL, sb = GxB_SPARSE ;
    if (GxB_Matrix_iso (&iso, (GrB_Matrix) call->A) != GrB_SUCCESS
        || GxB_Matrix_Option_get_INT32 ((GrB_Matrix) call->A, GxB_SPARSITY_STATUS, &sa) != GrB_SUCCESS
        || GxB_Matrix_Option_get_INT32 ((GrB_Matrix) call->B, GxB_SPARSITY_STATUS, &sb) != GrB_SUCCESS)
        return true ;
    return iso && (sa == GxB_BITMAP || sa == GxB_FULL) && (sb == GxB_SPARSE || sb == GxB_HYPERSPARSE) ;
}

static GrB_Info ewise_branch (const gcu_call *call)
{
    gcu_binop_desc bd ;
    gcu_type_desc d ;
    GrB_BinaryOp op = gcu_ewise_op (call, gcu_op_mult (call->op)) ;
    if (op == NULL || gcu_binop_identify (op, &bd) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (bd.z.code >= GCU_NTYPES || bd.z.code == GCU_T_UDT) return GCU_NOT_HANDLED ;
    // every object of a built-in type: SuiteSparse judges the rest
    GrB_Type at = builtin_type (call->A, &d), bt = builtin_type (call->B, &d) ;
    GrB_Type ct = builtin_type (call->C, &d) ;
    if (at == NULL || bt == NULL || ct == NULL) return GCU_NOT_HANDLED ;
    if (!gcu_jit_writeback_expressible (at, bt, op)) return GCU_NOT_HANDLED ;
    if (gcu_op_mult (call->op) && host_flips (call, bd.op)) return GCU_NOT_HANDLED ;
    uint64_t alpha [2], beta [2] ;
    if (gcu_op_union (call->op) && gcu_ewise_union_scalars (call, op, alpha, beta) != GrB_SUCCESS)
        return GCU_NOT_HANDLED ;
    // C = T itself needs no merge: any other case as a product's T
    if (call->M == NULL && call->accum == NULL && ct == bd.z.handle) return gcu_keep_results ()
        ? GrB_SUCCESS : GCU_NOT_HANDLED ;
    return gcu_mxm_merge_applies (call, bd.z.handle) ? GrB_SUCCESS : GCU_NOT_HANDLED ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL (void) gcu_sync (s) ; gcu_operand_release (&oa, s) ;   \
    gcu_operand_release (&ob, s) ; gcu_mxm_scratch_free (&scr) ;

static GrB_Info ewise_run (gcu_call *call)
{
    const gcu_stream s = gcu_stream_default () ;
    gcu_operand oa, ob ;
    gcu_mxm_scratch scr ;
    memset (&oa, 0, sizeof (oa)) ;
    memset (&ob, 0, sizeof (ob)) ;
    gcu_mxm_scratch_init (&scr, s) ;
    const double t0 = gcu_now () ;
    const bool mult = gcu_op_mult (call->op) ;
    const GrB_Index m = call->c_rows, n = call->c_cols ;
    GrB_BinaryOp op = gcu_ewise_op (call, mult) ;
    gcu_binop_desc bd ;
    gcu_type_desc ad, bd_ ;
    if (op == NULL) GCU_TRY (GCU_NOT_HANDLED) ;
    GCU_TRY (gcu_binop_identify (op, &bd)) ;
    GrB_Type at = builtin_type (call->A, &ad), bt = builtin_type (call->B, &bd_) ;
    if (at == NULL || bt == NULL) GCU_TRY (GCU_NOT_HANDLED) ;
    // T's and C's iso status as SuiteSparse's, decided before any work (the
    // publish leaves C iso where it is)
    uint64_t alpha [2] = { 0, 0 }, beta [2] = { 0, 0 } ;
    if (gcu_op_union (call->op)) GCU_TRY (gcu_ewise_union_scalars (call, op, alpha, beta)) ;
    if (!gcu_iso_call_check_ewise (call, &bd, alpha, beta)) GCU_TRY (GCU_NOT_HANDLED) ;
    void *fill = NULL ;
    GCU_TRY (gcu_mxm_merge_kernel (at, bt, bd.z.handle, op, &fill)) ;

    // the rows of op(A) and op(B)
    GCU_TRY (gcu_operand_get ((GrB_Matrix) call->A, call->tran_a, ad.size, false, &oa, s)) ;
    if (call->B == call->A && call->tran_b == call->tran_a) gcu_operand_share (&oa, &ob) ;
    else GCU_TRY (gcu_operand_get ((GrB_Matrix) call->B, call->tran_b, bd_.size, false, &ob, s)) ;
    // T's values are read one an entry (the merge has no iso T)
    if (ob.iso || ob.p == NULL) GCU_TRY (GCU_NOT_HANDLED) ;
    const double t1 = gcu_now () ;

    // T = A op B, of op's z type, in the scratch buffers
    const size_t zsize = bd.z.size ;
    gcu_merge_args in = { .m = (int64_t) m,
        .Cp = oa.nvals > 0 ? oa.p : NULL, .Cj = oa.j, .Cx = oa.x,
        .Tp = ob.p, .Tj = ob.j, .Tx = ob.x,
        .csize = zsize, .tsize = bd_.size,
        .c_idx64 = oa.idx64, .c_iso = oa.iso, .t_idx64 = ob.idx64,
        .accum = true, .intersect = mult, .union_ab = gcu_op_union (call->op) } ;
    memcpy (in.alpha, alpha, sizeof (alpha)) ;
    memcpy (in.beta, beta, sizeof (beta)) ;
    GrB_Index tn = 0 ;
    GCU_TRY (gcu_mxm_merge_device (&in, fill, &scr.keep, &tn, s)) ;
    const double t2 = gcu_now () ;
    call->up_bytes = oa.up_bytes + (ob.e_ != oa.e_ || ob.e_ == NULL ? ob.up_bytes : 0) ;
    char da [64], db [64] ;
    gcu_operand_describe (&oa, "A", NULL, da, sizeof (da)) ;
    gcu_operand_describe (&ob, "B", ob.e_ == oa.e_ && oa.e_ != NULL ? "A" : NULL, db, sizeof (db)) ;
    // A and B are read: C may be one of them, its new value published next
    (void) gcu_sync (s) ;
    gcu_operand_release (&ob, s) ;
    gcu_operand_release (&oa, s) ;

    // C<M,replace> = accum (C, T), left on the device (T: the merge's
    // output, 64-bit row pointers and column indices)
    GrB_Index cn = 0 ;
    GCU_TRY (gcu_mxm_merge_into_c (call, bd.z.handle, zsize, m, n, scr.p [0], scr.p [1],
        scr.p [2], true, &cn, s)) ;
    call->down_bytes = 0 ;
    call->kernel_seconds = t2 - t1 ;
    gcu_log ("%s gpu: %llu x %llu, nnz(T) %llu; %s, %s; operands %.2f ms, T %.3f ms, "
        "write-back on the device %.2f ms: C left there (%llu entries)",
        gcu_op_union (call->op) ? "GxB_Matrix_eWiseUnion" : mult ? "GrB_Matrix_eWiseMult"
        : "GrB_Matrix_eWiseAdd", (unsigned long long) m,
        (unsigned long long) n, (unsigned long long) tn, da, db, 1e3 * (t1 - t0),
        1e3 * (t2 - t1), 1e3 * (gcu_now () - t2), (unsigned long long) cn) ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

const gcu_family gcu_family_matrix_ewise = { "matrix ewise", GCU_OP_MATRIX_EWISEADD_BINARYOP,
    ewise_branch, ewise_run } ;

#endif
