// gcu_iso_apply.c — the iso status SuiteSparse 7.4 gives GrB_apply's result
// (gcu_iso.h).
#include "gcu_iso.h"
#include "gcu_handles.h"
#include "gcu_real.h"
#include <string.h>

// GxB_ONE_T: iso, 1
static GrB_UnaryOp *const ones [GCU_NTYPES] = GCU_U13 (GxB, ONE) ;

// the positional unary operators: never iso
static GrB_UnaryOp *const positional [8] = { &GxB_POSITIONI_INT32, &GxB_POSITIONI_INT64,
    &GxB_POSITIONI1_INT32, &GxB_POSITIONI1_INT64, &GxB_POSITIONJ_INT32, &GxB_POSITIONJ_INT64,
    &GxB_POSITIONJ1_INT32, &GxB_POSITIONJ1_INT64 } ;

// the VALUE* index unary operators: SuiteSparse applies them as a binary
// operator bound second (iso where A is); every other one never iso
static GrB_IndexUnaryOp *const valued [6][GCU_NTYPES] =
{
    GCU_U13 (GrB, VALUEEQ), GCU_U13 (GrB, VALUENE), GCU_U11 (GrB, VALUELT),
    GCU_U11 (GrB, VALUELE), GCU_U11 (GrB, VALUEGT), GCU_U11 (GrB, VALUEGE)
} ;

// 1 iso whatever A, 2 iso where A is, 0 never, -1 not known
static int iso_class (const gcu_iso_apply_op *op)
{
    if (op->unop != NULL)
    {
        for (int k = 0 ; k < GCU_NTYPES ; k++) if (*ones [k] == op->unop) return 1 ;
        for (int k = 0 ; k < 8 ; k++) if (*positional [k] == op->unop) return 0 ;
        return 2 ;
    }
    if (op->binop != NULL)
    {
        gcu_binop_desc d ;
        if (gcu_binop_identify (op->binop, &d) != GrB_SUCCESS) return -1 ;
        if (d.flags & GCU_OPF_POSITIONAL) return 0 ;
        const gcu_opcode o = d.op ;
        if (o == GCU_OP_PAIR || o == GCU_OP_ANY || (o == GCU_OP_FIRST && op->bind1st)
            || (o == GCU_OP_SECOND && !op->bind1st)) return 1 ;
        return 2 ;
    }
    if (op->idxop == NULL) return -1 ;
    for (int k = 0 ; k < 6 ; k++)
        for (int c = 0 ; c < GCU_NTYPES ; c++)
            if (valued [k][c] != NULL && *valued [k][c] == op->idxop) return 2 ;
    return 0 ;
}

// z = op (a) through SuiteSparse on a one-entry vector of type at holding a
// (zero where a is NULL), as ztype
static bool apply_one (void *z, const gcu_iso_apply_op *op, GrB_Type ztype, GrB_Type at, const void *a)
{
    const gcu_type_info *tz = gcu_type_builtin (ztype), *ta = gcu_type_builtin (at) ;
    uint8_t zero [GCU_VALUE_MAX] ;
    memset (zero, 0, sizeof (zero)) ;
    GrB_Vector u = NULL, w = NULL ;
    GrB_Scalar sa = NULL, sz = NULL ;
    bool ok = tz != NULL && ta != NULL && GrB_Scalar_new (&sa, at) == GrB_SUCCESS
        && gcu_scalar_set_builtin (sa, ta->code, a != NULL ? a : zero) == GrB_SUCCESS
        && GrB_Vector_new (&u, at, 1) == GrB_SUCCESS && GrB_Vector_new (&w, ztype, 1) == GrB_SUCCESS
        && GrB_Scalar_new (&sz, ztype) == GrB_SUCCESS
        && GrB_Vector_setElement_Scalar (u, sa, 0) == GrB_SUCCESS ;
    GrB_Info info = GrB_PANIC ;
    if (ok && op->unop != NULL) info = GCU_SUITE (GrB_Vector_apply) (w, NULL, NULL, op->unop, u, NULL) ;
    else if (ok && op->binop != NULL && op->bind1st)
        info = GCU_SUITE (GrB_Vector_apply_BinaryOp1st_Scalar) (w, NULL, NULL, op->binop, op->s, u, NULL) ;
    else if (ok && op->binop != NULL) info = GCU_SUITE (GrB_Vector_apply_BinaryOp2nd_Scalar) (w, NULL, NULL, op->binop, u, op->s, NULL) ;
    else if (ok && op->idxop != NULL) info = GCU_SUITE (GrB_Vector_apply_IndexOp_Scalar) (w, NULL, NULL, op->idxop, u, op->s, NULL) ;
    ok = info == GrB_SUCCESS && GrB_Vector_extractElement_Scalar (sz, w, 0) == GrB_SUCCESS
        && gcu_scalar_get_builtin (z, tz->code, sz) == GrB_SUCCESS ;
    GrB_Vector_free (&u) ; GrB_Vector_free (&w) ;
    GrB_Scalar_free (&sa) ; GrB_Scalar_free (&sz) ;
    return ok ;
}

int gcu_iso_apply (const gcu_iso_apply_op *op, GrB_Type ztype, const gcu_iso_operand *A, void *z)
{
    const int c = iso_class (op) ;
    // an empty A makes an empty T, not iso, unless held as a bitmap (then
    // an operator iso whatever A gives it its status; transposed: seen
    // both ways)
    if (c <= 0) return c ;
    if (A->nvals == 0 && c == 1 && A->bitmap && op->tran) return -1 ;
    if (A->nvals == 0 && !(c == 1 && A->bitmap)) return 0 ;
    if (c == 2 && !A->iso) return 0 ;
    return apply_one (z, op, ztype, A->type, c == 2 ? A->x : NULL) ? 1 : -1 ;
}
