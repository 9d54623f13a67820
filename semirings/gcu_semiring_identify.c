// gcu_semiring_identify.c — recognise a GrB_Semiring, GrB_Monoid or
// GrB_BinaryOp at run time by taking it apart (GxB_Semiring_add/multiply,
// GxB_Monoid_operator/identity/terminal, GxB_BinaryOp_x/y/ztype) and mapping
// each part to the semiring table, or to a definition the program gave
// GxB_Type_new / GxB_BinaryOp_new (captured by src/api/user.c) or
// registered through grbcuda_register_*. So a semiring assembled at run time
// from built-in parts is recognised like a predefined one, and anything
// without a known definition says GCU_NOT_HANDLED: the call stays on the host.
#include "gcu_semiring.h"
#include "../src/util/gcu_util.h"
#include "gcu_semiring_user.h"

#include <string.h>

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

// map a GraphBLAS status of a query to ours: a query that fails on a valid
// object means we cannot describe it, which is "not handled", not an error
static GrB_Info gcu_query (GrB_Info info)
{
    return (info == GrB_SUCCESS) ? GrB_SUCCESS : GCU_NOT_HANDLED ;
}

GrB_Info gcu_type_identify (GrB_Type type, gcu_type_desc *d)
{
    if (type == NULL || d == NULL) return GrB_NULL_POINTER ;
    memset (d, 0, sizeof (*d)) ;
    d->handle = type ;
    const gcu_type_info *ti = gcu_type_builtin (type) ;
    if (ti != NULL)
    {
        d->code = ti->code ;
        d->size = ti->size ;
        d->cuda = ti->cuda ;
        d->defn = NULL ;
        return GrB_SUCCESS ;
    }
    // a user-defined type: its values can be computed with only given its C
    // definition; without one (cuda and defn NULL) it can still be the type
    // of an operand that is never read (positional multiply)
    d->code = GCU_T_UDT ;
    GCU_TRY (gcu_query (GxB_Type_size (&d->size, type))) ;
    if (d->size == 0 || d->size > GCU_VALUE_MAX) return GCU_NOT_HANDLED ;
    if (!gcu_user_type_lookup (type, &d->cuda, &d->defn))
    {
        d->cuda = NULL ;
        d->defn = NULL ;
    }
    return GrB_SUCCESS ;
}

GrB_Info gcu_binop_identify (GrB_BinaryOp op, gcu_binop_desc *d)
{
    if (op == NULL || d == NULL) return GrB_NULL_POINTER ;
    memset (d, 0, sizeof (*d)) ;
    d->handle = op ;
    GrB_Type xt = NULL, yt = NULL, zt = NULL ;
    GCU_TRY (gcu_query (GxB_BinaryOp_xtype (&xt, op))) ;
    GCU_TRY (gcu_query (GxB_BinaryOp_ytype (&yt, op))) ;
    GCU_TRY (gcu_query (GxB_BinaryOp_ztype (&zt, op))) ;
    const gcu_binop_entry *e = gcu_binop_builtin (op) ;
    if (e != NULL)
    {
        // built-in: the table decides the semantics; the types reported by
        // the object must agree with the table's rules
        d->builtin = e ;
        d->op = e->op ;
        d->flags = gcu_ops [e->op].flags ;
        GCU_TRY (gcu_type_identify (xt, &d->x)) ;
        GCU_TRY (gcu_type_identify (yt, &d->y)) ;
        GCU_TRY (gcu_type_identify (zt, &d->z)) ;
        if (d->x.code != e->type ||
            d->y.code != gcu_op_ytype (e->op, e->type) ||
            d->z.code != gcu_op_ztype (e->op, e->type))
        {
            gcu_log ("semiring table: %s reports unexpected types", e->name) ;
            return GCU_NOT_HANDLED ;
        }
        return GrB_SUCCESS ;
    }
    // user-defined: needs its definition, and all its types described
    d->op = GCU_OP_USER ;
    if (!gcu_user_binop_lookup (op, &d->user_name, &d->user_defn))
    {
        return GCU_NOT_HANDLED ;
    }
    GCU_TRY (gcu_type_identify (xt, &d->x)) ;
    GCU_TRY (gcu_type_identify (yt, &d->y)) ;
    GCU_TRY (gcu_type_identify (zt, &d->z)) ;
    // its values are computed: every type it works on needs a definition
    if ((d->x.code == GCU_T_UDT && d->x.defn == NULL) ||
        (d->y.code == GCU_T_UDT && d->y.defn == NULL) ||
        (d->z.code == GCU_T_UDT && d->z.defn == NULL))
    {
        return GCU_NOT_HANDLED ;
    }
    return GrB_SUCCESS ;
}

GrB_Info gcu_monoid_identify (GrB_Monoid monoid, gcu_monoid_desc *d)
{
    if (monoid == NULL || d == NULL) return GrB_NULL_POINTER ;
    memset (d, 0, sizeof (*d)) ;
    d->handle = monoid ;
    d->builtin = gcu_monoid_builtin (monoid) ;
    GrB_BinaryOp op = NULL ;
    GCU_TRY (gcu_query (GxB_Monoid_operator (&op, monoid))) ;
    GCU_TRY (gcu_binop_identify (op, &d->op)) ;
    // a monoid's operator has x, y and z of one type
    if (d->op.x.handle != d->op.z.handle || d->op.y.handle != d->op.z.handle)
    {
        return GCU_NOT_HANDLED ;
    }
    if (d->op.flags & GCU_OPF_POSITIONAL) return GCU_NOT_HANDLED ;
    // the values come from the object: a monoid built at run time from a
    // built-in operator may carry any identity the program gave it
    GCU_TRY (gcu_query (GxB_Monoid_identity (d->identity, monoid))) ;
    bool has_terminal = false ;
    GCU_TRY (gcu_query (GxB_Monoid_terminal (&has_terminal, d->terminal, monoid))) ;
    d->has_terminal = has_terminal ;
    // ANY is terminal at its first value whatever the object reports
    d->is_any = (d->op.op == GCU_OP_ANY) ;
    return GrB_SUCCESS ;
}

GrB_Info gcu_semiring_identify (GrB_Semiring semiring, gcu_semiring_desc *d)
{
    if (semiring == NULL || d == NULL) return GrB_NULL_POINTER ;
    memset (d, 0, sizeof (*d)) ;
    d->handle = semiring ;
    GrB_Monoid add = NULL ;
    GrB_BinaryOp mult = NULL ;
    GCU_TRY (gcu_query (GxB_Semiring_add (&add, semiring))) ;
    GCU_TRY (gcu_query (GxB_Semiring_multiply (&mult, semiring))) ;
    GCU_TRY (gcu_monoid_identify (add, &d->add)) ;
    GCU_TRY (gcu_binop_identify (mult, &d->mult)) ;
    // GraphBLAS guarantees this for a valid semiring; check rather than trust
    if (d->mult.z.handle != d->add.op.z.handle) return GCU_NOT_HANDLED ;
    return GrB_SUCCESS ;
}

// The built-in types of GrB_Scalar's typed access: code, C type, the
// prefix and suffix of the typed function names
#define GCU_SCALAR_TYPES(X)                                                    \
    X (GCU_T_BOOL,   bool,       GrB, BOOL)                                    \
    X (GCU_T_INT8,   int8_t,     GrB, INT8)                                    \
    X (GCU_T_INT16,  int16_t,    GrB, INT16)                                   \
    X (GCU_T_INT32,  int32_t,    GrB, INT32)                                   \
    X (GCU_T_INT64,  int64_t,    GrB, INT64)                                   \
    X (GCU_T_UINT8,  uint8_t,    GrB, UINT8)                                   \
    X (GCU_T_UINT16, uint16_t,   GrB, UINT16)                                  \
    X (GCU_T_UINT32, uint32_t,   GrB, UINT32)                                  \
    X (GCU_T_UINT64, uint64_t,   GrB, UINT64)                                  \
    X (GCU_T_FP32,   float,      GrB, FP32)                                    \
    X (GCU_T_FP64,   double,     GrB, FP64)                                    \
    X (GCU_T_FC32,   GxB_FC32_t, GxB, FC32)                                    \
    X (GCU_T_FC64,   GxB_FC64_t, GxB, FC64)

GrB_Info gcu_scalar_set_builtin (GrB_Scalar s, gcu_type_code code, const void *v)
{
    switch (code)
    {
#define GCU_SET(C, T, P, S) case C: return P##_Scalar_setElement_##S (s, *(const T *) v) ;
        GCU_SCALAR_TYPES (GCU_SET)
#undef GCU_SET
        default: return GrB_DOMAIN_MISMATCH ;
    }
}

GrB_Info gcu_scalar_get_builtin (void *v, gcu_type_code code, GrB_Scalar s)
{
    switch (code)
    {
#define GCU_GET(C, T, P, S) case C: return P##_Scalar_extractElement_##S ((T *) v, s) ;
        GCU_SCALAR_TYPES (GCU_GET)
#undef GCU_GET
        default: return GrB_DOMAIN_MISMATCH ;
    }
}

bool gcu_op_device_exact (gcu_opcode op)
{
    return op != GCU_OP_POW && op != GCU_OP_ATAN2 && op != GCU_OP_HYPOT ;
}

bool gcu_op_emult_flips (gcu_opcode op)
{
    switch (op)
    {
        case GCU_OP_POW: case GCU_OP_ATAN2: case GCU_OP_FMOD: case GCU_OP_REMAINDER:
        case GCU_OP_COPYSIGN: case GCU_OP_LDEXP: case GCU_OP_BGET: case GCU_OP_BSET:
        case GCU_OP_BCLR: case GCU_OP_BSHIFT: case GCU_OP_CMPLX: case GCU_OP_USER:
            return true ;
        default:
            return false ;
    }
}

bool gcu_semiring_plus_times_float (const gcu_semiring_desc *sr)
{
    const gcu_binop_desc *m = &sr->mult, *p = &sr->add.op ;
    const gcu_type_code t = m->z.code ;
    return (t == GCU_T_FP32 || t == GCU_T_FP64) && m->op == GCU_OP_TIMES && p->op == GCU_OP_PLUS
        && m->x.code == t && m->y.code == t && p->x.code == t && p->y.code == t && p->z.code == t ;
}

bool gcu_semiring_device_exact (const gcu_semiring_desc *sr)
{
    return gcu_op_device_exact (sr->mult.op) && gcu_op_device_exact (sr->add.op.op) ;
}

GrB_BinaryOp gcu_binop_of (gcu_opcode op, gcu_type_code t)
{
    for (size_t k = 0 ; k < gcu_nbinops ; k++)
        if (gcu_binops [k].op == op && gcu_binops [k].type == t) return *gcu_binops [k].handle ;
    return NULL ;
}

GrB_Monoid gcu_monoid_of (gcu_opcode op, gcu_type_code t)
{
    for (size_t k = 0 ; k < gcu_nmonoids ; k++)
        if (gcu_monoids [k].op == op && gcu_monoids [k].type == t) return *gcu_monoids [k].handle ;
    return NULL ;
}
