// ewise.c — the GPU family of GrB_Vector_eWiseAdd and GrB_Vector_eWiseMult
// (BinaryOp, Monoid and Semiring forms) and GxB_Vector_eWiseUnion:
// w<M,replace> = accum (w, u op v)
// over vectors held densely on the device (DESIGN §3), the result left as
// w's newest value. Two passes of the dense-vector write-back kernel
// (cuda/writeback/gcu_vmerge.cuh):
//   T = u op v   u as the "w" side, v as T, op as the accum, no mask, into
//                a fresh T of op's z type (eWiseAdd: the union, an entry of
//                one side only cast to z; eWiseMult: the intersection;
//                eWiseUnion: the union, an entry of u only op (u, beta),
//                of v only op (alpha, v), alpha and beta cast on the host)
//   w<M,replace> = accum (w, T)   gcu_vec_write_back, as GrB_mxv's result
// Built-in types and operators the device computes exactly (not
// positional, not pow/atan2/hypot); anything else stays SuiteSparse's. In
// auto mode the dispatch sends a call here only when one of its vectors is
// device newest (src/dispatch/dispatch.c): with every operand on the host,
// the upload alone costs what SuiteSparse takes for the whole call.
#include "gcu_vector.h"
#include "../residency/gcu_operand.h"
#include "../jit/gcu_jit.h"
#include "gcu_call.h"
#include "gcu_util.h"
#include "grbcuda.h"
#include <string.h>

#if GRBCUDA_HAVE_CUDA

static GrB_Info ewise_branch (const gcu_call *call)
{
    gcu_binop_desc bd ;
    GrB_BinaryOp op = gcu_ewise_op (call, gcu_op_mult (call->op)) ;
    if (op == NULL || gcu_binop_identify (op, &bd) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (bd.z.code >= GCU_NTYPES || bd.z.code == GCU_T_UDT) return GCU_NOT_HANDLED ;
    // every object of a built-in type: SuiteSparse judges the rest
    // (GrB_DOMAIN_MISMATCH among them)
    GrB_Type ut = gcu_vec_builtin_type (call->A), vt = gcu_vec_builtin_type (call->B) ;
    if (ut == NULL || vt == NULL || gcu_vec_builtin_type (call->C) == NULL) return GCU_NOT_HANDLED ;
    if (!gcu_jit_writeback_expressible (ut, vt, op)) return GCU_NOT_HANDLED ;
    uint64_t alpha [2], beta [2] ;
    if (gcu_op_union (call->op) && gcu_ewise_union_scalars (call, op, alpha, beta) != GrB_SUCCESS)
        return GCU_NOT_HANDLED ;
    gcu_vec_wb wb ;
    if (!gcu_vec_call_wb (call, &wb)) return GCU_NOT_HANDLED ;
    if (call->M != NULL && !wb.structural && gcu_vec_builtin_type (call->M) == NULL) return GCU_NOT_HANDLED ;
    if (call->c_rows >= ((GrB_Index) 1 << 31)) return GCU_NOT_HANDLED ;
    return gcu_vec_merge_applies (&wb, bd.z.handle) ? GrB_SUCCESS : GCU_NOT_HANDLED ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_vec_release (&ou, s) ; gcu_vec_release (&ov, s) ;     \
    gcu_dfree (Tb, s) ; gcu_dfree (Tx, s) ; gcu_dfree (cnt, s) ;

static GrB_Info ewise_run (gcu_call *call)
{
    const gcu_stream s = gcu_stream_default () ;
    gcu_vec ou, ov ;
    int8_t *Tb = NULL ;
    void *Tx = NULL ;
    unsigned long long *cnt = NULL, tn = 0 ;
    memset (&ou, 0, sizeof (ou)) ;
    memset (&ov, 0, sizeof (ov)) ;
    const double t0 = gcu_now () ;
    const bool mult = gcu_op_mult (call->op) ;
    const GrB_Index n = call->c_rows ;
    GrB_BinaryOp op = gcu_ewise_op (call, gcu_op_mult (call->op)) ;
    gcu_binop_desc bd ;
    gcu_type_desc ud, vd ;
    GrB_Type ut, vt ;
    if (op == NULL) GCU_TRY (GCU_NOT_HANDLED) ;
    GCU_TRY (gcu_binop_identify (op, &bd)) ;
    GCU_TRY (GxB_Vector_type (&ut, (GrB_Vector) call->A)) ;
    GCU_TRY (GxB_Vector_type (&vt, (GrB_Vector) call->B)) ;
    GCU_TRY (gcu_type_identify (ut, &ud)) ;
    GCU_TRY (gcu_type_identify (vt, &vd)) ;
    // w's iso status as SuiteSparse's, decided before any work (the
    // write-back leaves it in w's image)
    uint64_t alpha [2] = { 0, 0 }, beta [2] = { 0, 0 } ;
    if (gcu_op_union (call->op)) GCU_TRY (gcu_ewise_union_scalars (call, op, alpha, beta)) ;
    if (!gcu_iso_call_vector_ewise (call, &bd, alpha, beta)) GCU_TRY (GCU_NOT_HANDLED) ;
    gcu_vec_wb wb ;
    if (!gcu_vec_call_wb (call, &wb)) GCU_TRY (GCU_NOT_HANDLED) ;
    void *typed = NULL ;
    GCU_TRY (gcu_vec_merge_kernel (ut, vt, bd.z.handle, op, &typed)) ;

    // u and v as dense images (read in place when device newest)
    GCU_TRY (gcu_vec_get ((GrB_Vector) call->A, n, true, ud.size, &ou, s)) ;
    GCU_TRY (gcu_vec_get ((GrB_Vector) call->B, n, true, vd.size, &ov, s)) ;
    const double t1 = gcu_now () ;

    // T = u op v, of op's z type
    const size_t zsize = bd.z.size ;
    GCU_TRY (gcu_dmalloc ((void **) &Tb, (size_t) n + 16, s)) ;
    GCU_TRY (gcu_dmalloc (&Tx, (size_t) n * zsize + 16, s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &cnt, sizeof (*cnt), s)) ;
    GCU_TRY (gcu_memset (cnt, 0, sizeof (*cnt), s)) ;
    gcu_vmerge_args a ;
    memset (&a, 0, sizeof (a)) ;
    a.v.m = (int64_t) n ;
    a.v.csize = zsize ;
    a.v.tsize = vd.size ;
    a.v.accum = true ;
    a.v.Cx = ou.nvals > 0 ? ou.x : NULL ;
    a.Cb = (const int8_t *) ou.b ;
    a.v.Tx = ov.x ;
    a.Tb = (const int8_t *) ov.b ;      // (NULL only when v is full)
    a.v.intersect = mult ;
    a.v.union_ab = gcu_op_union (call->op) ;
    memcpy (a.v.alpha, alpha, sizeof (alpha)) ;
    memcpy (a.v.beta, beta, sizeof (beta)) ;
    a.Ob = Tb ;
    a.Ox = Tx ;
    a.count = cnt ;
    GCU_TRY (gcu_vec_merge_launch (&a, typed, s)) ;
    GCU_TRY (gcu_memcpy_d2h (&tn, cnt, sizeof (tn), s)) ;    // synchronises
    const double t2 = gcu_now () ;
    char du [64], dv [64] ;
    gcu_vec_describe (&ou, "u", du, sizeof (du)) ;
    gcu_vec_describe (&ov, "v", dv, sizeof (dv)) ;
    const GrB_Index unv = ou.nvals, vnv = ov.nvals ;
    const size_t up = ou.up_bytes + ov.up_bytes ;
    // u and v are read: w may be one of them, its new image published next
    gcu_vec_release (&ou, s) ;
    gcu_vec_release (&ov, s) ;

    // w<M,replace> = accum (w, T), left on the device
    GrB_Index wnvals = 0 ;
    size_t wb_up = 0 ;
    GCU_TRY (gcu_vec_write_back (&wb, bd.z.handle, zsize, n, Tb, Tx, &wnvals, &wb_up, s)) ;
    call->up_bytes = up + wb_up ;
    call->down_bytes = 0 ;
    call->kernel_seconds = t2 - t1 ;
    gcu_log ("%s gpu: length %llu, nnz(u) %llu, nnz(v) %llu, nnz(T) %llu; %s, %s; operands "
        "%.2f ms, T %.3f ms, write-back on the device %.2f ms: w left there (%llu entries)",
        gcu_op_union (call->op) ? "GxB_Vector_eWiseUnion" : mult ? "GrB_Vector_eWiseMult"
        : "GrB_Vector_eWiseAdd", (unsigned long long) n, (unsigned long long) unv,
        (unsigned long long) vnv, tn, du, dv, 1e3 * (t1 - t0), 1e3 * (t2 - t1),
        1e3 * (gcu_now () - t2), (unsigned long long) wnvals) ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

const gcu_family gcu_family_vector_ewise = { "vector ewise", GCU_OP_VECTOR_EWISEADD_BINARYOP,
    ewise_branch, ewise_run } ;

#endif
