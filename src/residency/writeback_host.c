// writeback_host.c — what a GPU family hands SuiteSparse when it writes a
// result back on the host (gcu_operand.h): the mask's kind, a descriptor
// with only the write-back's settings, and a mask SuiteSparse can take.
#include "gcu_operand.h"
#include "gcu_semiring.h"
#include "gcu_handles.h"
#include "gcu_util.h"

bool gcu_mask_kind (GrB_Descriptor desc, bool *structural, bool *complement)
{
    GrB_Desc_Value v = GxB_DEFAULT ;
    *structural = *complement = false ;
    if (desc != NULL && GxB_Descriptor_get (&v, desc, GrB_MASK) != GrB_SUCCESS) return false ;
    *structural = (v == GrB_STRUCTURE || v == GrB_COMP + GrB_STRUCTURE) ;
    *complement = (v == GrB_COMP || v == GrB_COMP + GrB_STRUCTURE) ;
    return true ;
}

GrB_BinaryOp gcu_ewise_op (const gcu_call *call, bool mult)
{
    GrB_BinaryOp op = NULL ;
    GrB_Monoid monoid = call->monoid ;
    if (call->binop != NULL) return call->binop ;
    if (call->semiring != NULL)
    {
        if (mult) return GxB_Semiring_multiply (&op, call->semiring) == GrB_SUCCESS ? op : NULL ;
        if (GxB_Semiring_add (&monoid, call->semiring) != GrB_SUCCESS) return NULL ;
    }
    if (monoid == NULL || GxB_Monoid_operator (&op, monoid) != GrB_SUCCESS) return NULL ;
    return op ;
}

GrB_Info gcu_writeback_desc (GrB_Descriptor desc, GrB_Descriptor *out)
{
    *out = NULL ;
    if (desc == NULL) return GrB_SUCCESS ;
    GrB_Desc_Value mask = GxB_DEFAULT, outp = GxB_DEFAULT ;
    GrB_Info info = GxB_Descriptor_get (&mask, desc, GrB_MASK) ;
    if (info == GrB_SUCCESS) info = GxB_Descriptor_get (&outp, desc, GrB_OUTP) ;
    if (info != GrB_SUCCESS) return info ;
    if (mask == GxB_DEFAULT && outp == GxB_DEFAULT) return GrB_SUCCESS ;
    info = GrB_Descriptor_new (out) ;
    // GrB_COMP and GrB_STRUCTURE are set one at a time (GrB_COMP_STRUCTURE
    // is their sum)
    if (info == GrB_SUCCESS && (mask == GrB_COMP || mask == GrB_COMP + GrB_STRUCTURE))
        info = GrB_Descriptor_set (*out, GrB_MASK, GrB_COMP) ;
    if (info == GrB_SUCCESS && (mask == GrB_STRUCTURE || mask == GrB_COMP + GrB_STRUCTURE))
        info = GrB_Descriptor_set (*out, GrB_MASK, GrB_STRUCTURE) ;
    if (info == GrB_SUCCESS && outp == GrB_REPLACE)
        info = GrB_Descriptor_set (*out, GrB_OUTP, GrB_REPLACE) ;
    if (info != GrB_SUCCESS) GrB_Descriptor_free (out) ;
    return info ;
}

GrB_Info gcu_writeback_mask (const gcu_call *call, void **Mtmp)
{
    *Mtmp = NULL ;
    if (call->M == NULL || call->accum == NULL) return GrB_SUCCESS ;
    const bool vec = call->op == GCU_OP_MXV || call->op == GCU_OP_VXM ;
    int status = 0 ;
    GrB_Info info = vec ? GxB_Vector_Option_get ((GrB_Vector) call->M, GxB_SPARSITY_STATUS, &status)
                        : GxB_Matrix_Option_get ((GrB_Matrix) call->M, GxB_SPARSITY_STATUS, &status) ;
    if (info != GrB_SUCCESS || status != GxB_FULL) return info ;
    // a copy held as a bitmap (the mask itself is never changed)
    if (vec)
    {
        info = GrB_Vector_dup ((GrB_Vector *) Mtmp, (GrB_Vector) call->M) ;
        if (info == GrB_SUCCESS) info = GxB_Vector_Option_set ((GrB_Vector) *Mtmp, GxB_SPARSITY_CONTROL, GxB_BITMAP) ;
        if (info != GrB_SUCCESS) GrB_Vector_free ((GrB_Vector *) Mtmp) ;
    }
    else
    {
        info = GrB_Matrix_dup ((GrB_Matrix *) Mtmp, (GrB_Matrix) call->M) ;
        if (info == GrB_SUCCESS) info = GxB_Matrix_Option_set ((GrB_Matrix) *Mtmp, GxB_SPARSITY_CONTROL, GxB_BITMAP) ;
        if (info != GrB_SUCCESS) GrB_Matrix_free ((GrB_Matrix *) Mtmp) ;
    }
    return info ;
}


// s's value cast to the built-in type code t, into out (16 bytes): s of a
// built-in type, with its one entry
static GrB_Info scalar_as (GrB_Scalar s, gcu_type_code t, uint64_t out [2])
{
    GrB_Type st = NULL ;
    gcu_type_desc sd ;
    GrB_Index n = 0 ;
    out [0] = out [1] = 0 ;
    if (s == NULL || GxB_Scalar_type (&st, s) != GrB_SUCCESS || gcu_type_identify (st, &sd) != GrB_SUCCESS
        || sd.code >= GCU_NTYPES || GrB_Scalar_nvals (&n, s) != GrB_SUCCESS || n != 1)
        return GCU_NOT_HANDLED ;
    return gcu_scalar_get_builtin (out, t, s) ;
}

GrB_Info gcu_ewise_union_scalars (const gcu_call *call, GrB_BinaryOp op,
    uint64_t alpha [2], uint64_t beta [2])
{
    gcu_binop_desc bd ;
    if (op == NULL || gcu_binop_identify (op, &bd) != GrB_SUCCESS
        || bd.x.code >= GCU_NTYPES || bd.y.code >= GCU_NTYPES) return GCU_NOT_HANDLED ;
    GrB_Info info = scalar_as (call->alpha, bd.x.code, alpha) ;
    if (info == GrB_SUCCESS) info = scalar_as (call->beta, bd.y.code, beta) ;
    return info == GrB_SUCCESS ? GrB_SUCCESS : GCU_NOT_HANDLED ;
}

GrB_UnaryOp gcu_writeback_identity (GrB_Type t)
{
    static GrB_UnaryOp *const identity [GCU_NTYPES] = GCU_U13 (GrB, IDENTITY) ;
    const gcu_type_info *ti = gcu_type_builtin (t) ;
    return ti != NULL ? *identity [ti->code] : NULL ;     // NULL: a user-defined type
}
