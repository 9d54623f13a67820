// gcu_iso_apply.c — the iso status SuiteSparse 7.4 gives GrB_apply's and
// GrB_select's results (gcu_iso.h).
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

//------------------------------------------------------------------------------
// GrB_select (GB_select, GB_selector)
//------------------------------------------------------------------------------

// the positional index unary operators: T keeps A's status
static GrB_IndexUnaryOp *const by_position [14] = { &GrB_ROWINDEX_INT32, &GrB_ROWINDEX_INT64,
    &GrB_COLINDEX_INT32, &GrB_COLINDEX_INT64, &GrB_DIAGINDEX_INT32, &GrB_DIAGINDEX_INT64,
    &GrB_TRIL, &GrB_TRIU, &GrB_DIAG, &GrB_OFFDIAG, &GrB_COLLE, &GrB_COLGT, &GrB_ROWLE, &GrB_ROWGT } ;

// SuiteSparse's select opcodes as GB_select renames them (the order of
// valued [] first: EQ, NE, LT, LE, GT, GE against the thunk)
typedef enum { S_EQ, S_NE, S_LT, S_LE, S_GT, S_GE, S_EQ_ZERO, S_NONZERO, S_LT_ZERO, S_LE_ZERO,
    S_GT_ZERO, S_GE_ZERO, S_COPY, S_EMPTY } sel_code ;

// whether op (a, y) holds, through SuiteSparse on a one-entry vector of type
// at: 1, 0, or -1 if it cannot be said
static int selects (GrB_IndexUnaryOp op, GrB_Type at, const void *a, GrB_Scalar y)
{
    const gcu_type_info *ta = gcu_type_builtin (at) ;
    GrB_Vector u = NULL, w = NULL ;
    GrB_Scalar sa = NULL ;
    GrB_Index n = 0 ;
    const bool ok = ta != NULL && GrB_Scalar_new (&sa, at) == GrB_SUCCESS
        && gcu_scalar_set_builtin (sa, ta->code, a) == GrB_SUCCESS
        && GrB_Vector_new (&u, at, 1) == GrB_SUCCESS && GrB_Vector_new (&w, at, 1) == GrB_SUCCESS
        && GrB_Vector_setElement_Scalar (u, sa, 0) == GrB_SUCCESS
        && GCU_SUITE (GrB_Vector_select_Scalar) (w, NULL, NULL, op, u, y, NULL) == GrB_SUCCESS
        && GrB_Vector_nvals (&n, w) == GrB_SUCCESS ;
    GrB_Vector_free (&u) ; GrB_Vector_free (&w) ; GrB_Scalar_free (&sa) ;
    return ok ? n > 0 : -1 ;
}

// The value comparison kind k against the thunk, A of the operator's own
// type: renamed as GB_select does (a zero thunk, and A bool or unsigned)
static sel_code renamed_select (int k, gcu_type_code acode, GrB_Scalar y)
{
    uint8_t yb [GCU_VALUE_MAX] ;
    int64_t ithunk = 0 ;
    GrB_Type yt = NULL ;
    GrB_Index ny = 0 ;
    memset (yb, 0, sizeof (yb)) ;
    const gcu_type_info *ty = (GxB_Scalar_type (&yt, y) == GrB_SUCCESS) ? gcu_type_builtin (yt) : NULL ;
    const bool has = ty != NULL && GrB_Scalar_nvals (&ny, y) == GrB_SUCCESS && ny > 0
        && gcu_scalar_get_builtin (yb, ty->code, y) == GrB_SUCCESS ;
    bool zero = has ;
    for (size_t b = 0 ; has && b < ty->size ; b++) zero = zero && yb [b] == 0 ;
    if (has && gcu_scalar_get_builtin (&ithunk, GCU_T_INT64, y) != GrB_SUCCESS) ithunk = 0 ;
    const bool bthunk = ithunk != 0 ;
    sel_code c = (sel_code) k ;
    if (zero)
    {
        static const sel_code to_zero [6] = { S_EQ_ZERO, S_NONZERO, S_LT_ZERO, S_LE_ZERO, S_GT_ZERO, S_GE_ZERO } ;
        c = to_zero [k] ;
    }
    const bool is_bool = acode == GCU_T_BOOL ;
    const bool boolish = is_bool || (acode >= GCU_T_UINT8 && acode <= GCU_T_UINT64) ;
    switch (c)
    {
        case S_GT_ZERO: return boolish ? S_NONZERO : c ;
        case S_GE_ZERO: return boolish ? S_COPY : c ;
        case S_LT_ZERO: return boolish ? S_EMPTY : c ;
        case S_LE_ZERO: return boolish ? S_EQ_ZERO : c ;
        case S_NE: return is_bool ? (bthunk ? S_EQ_ZERO : S_NONZERO) : c ;
        case S_EQ: return is_bool ? (bthunk ? S_NONZERO : S_EQ_ZERO) : c ;
        case S_GT: return is_bool ? (bthunk ? S_EMPTY : S_NONZERO) : c ;
        case S_GE: return is_bool ? (bthunk ? S_NONZERO : S_COPY) : c ;
        case S_LT: return is_bool ? (bthunk ? S_EQ_ZERO : S_EMPTY) : c ;
        case S_LE: return is_bool ? (bthunk ? S_COPY : S_EQ_ZERO) : c ;
        default: return c ;
    }
}

int gcu_iso_select (GrB_IndexUnaryOp op, GrB_Scalar y, const gcu_iso_operand *A, void *z)
{
    const gcu_type_info *ta = gcu_type_builtin (A->type) ;
    if (ta == NULL || op == NULL || y == NULL) return -1 ;
    // A's own value, where T is A's entries or none of them
    const int a_iso = !A->iso ? 0 : A->x == NULL ? -1 : 1 ;
    if (a_iso == 1) memcpy (z, A->x, ta->size) ;
    for (int k = 0 ; k < 14 ; k++) if (*by_position [k] == op) return a_iso ;
    int kind = -1, xc = -1 ;
    for (int k = 0 ; k < 6 && kind < 0 ; k++)
        for (int c = 0 ; c < GCU_NTYPES ; c++)
            if (valued [k][c] != NULL && *valued [k][c] == op) { kind = k ; xc = c ; break ; }
    if (kind < 0) return -1 ;
    // A not of the operator's type: compared through the cast, never renamed
    const bool renamed = ta->code == (gcu_type_code) xc ;
    const sel_code c = renamed ? renamed_select (kind, ta->code, y) : (sel_code) kind ;
    if (c == S_COPY) return a_iso ;
    if (c == S_EMPTY) return 0 ;
    // an iso A: all of A (iso) or nothing (not iso), as its value selects
    if (A->iso)
    {
        if (a_iso < 0) return -1 ;
        const int s = selects (op, A->type, A->x, y) ;
        return s < 0 ? -1 : s ;
    }
    if (!renamed) return 0 ;
    // T iso whatever it selects: zeros, the thunk (as A's type), bool's true
    if (c == S_EQ_ZERO) { memset (z, 0, ta->size) ; return 1 ; }
    if (c == S_EQ) return gcu_scalar_get_builtin (z, ta->code, y) == GrB_SUCCESS ? 1 : -1 ;
    if (c == S_NONZERO && ta->code == GCU_T_BOOL) { *(uint8_t *) z = 1 ; return 1 ; }
    return 0 ;
}
