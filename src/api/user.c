// user.c — the interposed constructors of user-defined types and binary
// operators, and grbcuda's registration functions: GxB_Type_new and
// GxB_BinaryOp_new record the C definition they are given (their last
// argument), GrB_Type_new and GrB_BinaryOp_new clear any record of the new
// handle (no definition), grbcuda_register_type / grbcuda_register_binop
// give CUDA source for objects created without one; each constructor calls
// the real SuiteSparse function first. The records live in
// semirings/gcu_semiring_user.c, where the identification of semirings (and
// so the JIT) reads them.
#include "gcu_real.h"
#include "gcu_util.h"
#include "grbcuda.h"
#include "../../semirings/gcu_semiring.h"
#include "../../semirings/gcu_semiring_user.h"

// GraphBLAS.h defines these two names as macros over GxB_*_new; the library
// also exports them as functions, which is what is interposed here.
#undef GrB_Type_new
#undef GrB_BinaryOp_new

typedef GrB_Info (*gcu_type_new_f) (GrB_Type *, size_t, const char *, const char *) ;
typedef GrB_Info (*gcu_grb_type_new_f) (GrB_Type *, size_t) ;
typedef GrB_Info (*gcu_binop_new_f) (GrB_BinaryOp *, GxB_binary_function,
    GrB_Type, GrB_Type, GrB_Type, const char *, const char *) ;
typedef GrB_Info (*gcu_grb_binop_new_f) (GrB_BinaryOp *, GxB_binary_function,
    GrB_Type, GrB_Type, GrB_Type) ;

GrB_Info GxB_Type_new (GrB_Type *type, size_t sizeof_ctype,
    const char *type_name, const char *type_defn)
{
    static void *_Atomic slot ;
    gcu_type_new_f real = (gcu_type_new_f) gcu_real_cached (&slot, "GxB_Type_new") ;
    if (real == NULL) return GrB_PANIC ;
    GrB_Info info = real (type, sizeof_ctype, type_name, type_defn) ;
    if (info == GrB_SUCCESS && type != NULL)
    {
        if (!gcu_user_type_record (*type, type_name, type_defn))
        {
            gcu_log ("out of memory recording the definition of type %s",
                type_name ? type_name : "(unnamed)") ;
        }
    }
    return info ;
}

GrB_Info GrB_Type_new (GrB_Type *type, size_t sizeof_ctype)
{
    static void *_Atomic slot ;
    gcu_grb_type_new_f real = (gcu_grb_type_new_f) gcu_real_cached (&slot, "GrB_Type_new") ;
    if (real == NULL) return GrB_PANIC ;
    GrB_Info info = real (type, sizeof_ctype) ;
    if (info == GrB_SUCCESS && type != NULL)
    {
        gcu_user_type_record (*type, NULL, NULL) ;
    }
    return info ;
}

GrB_Info GxB_BinaryOp_new (GrB_BinaryOp *op, GxB_binary_function function,
    GrB_Type ztype, GrB_Type xtype, GrB_Type ytype, const char *binop_name,
    const char *binop_defn)
{
    static void *_Atomic slot ;
    gcu_binop_new_f real = (gcu_binop_new_f) gcu_real_cached (&slot, "GxB_BinaryOp_new") ;
    if (real == NULL) return GrB_PANIC ;
    GrB_Info info = real (op, function, ztype, xtype, ytype, binop_name, binop_defn) ;
    if (info == GrB_SUCCESS && op != NULL)
    {
        if (!gcu_user_binop_record (*op, binop_name, binop_defn))
        {
            gcu_log ("out of memory recording the definition of operator %s",
                binop_name ? binop_name : "(unnamed)") ;
        }
    }
    return info ;
}

GrB_Info GrB_BinaryOp_new (GrB_BinaryOp *op, GxB_binary_function function,
    GrB_Type ztype, GrB_Type xtype, GrB_Type ytype)
{
    static void *_Atomic slot ;
    gcu_grb_binop_new_f real = (gcu_grb_binop_new_f) gcu_real_cached (&slot, "GrB_BinaryOp_new") ;
    if (real == NULL) return GrB_PANIC ;
    GrB_Info info = real (op, function, ztype, xtype, ytype) ;
    if (info == GrB_SUCCESS && op != NULL)
    {
        gcu_user_binop_record (*op, NULL, NULL) ;
    }
    return info ;
}

//------------------------------------------------------------------------------
// public registration
//------------------------------------------------------------------------------

// A type's (is_type) or a binary operator's CUDA definition recorded under
// name: both registrations check the same way.
static GrB_Info register_defn (void *obj, bool is_type, const char *name,
    const char *cuda_defn)
{
    if (obj == NULL || name == NULL || cuda_defn == NULL) return GrB_NULL_POINTER ;
    const bool builtin = is_type ? gcu_type_builtin ((GrB_Type) obj) != NULL
                                 : gcu_binop_builtin ((GrB_BinaryOp) obj) != NULL ;
    if (builtin || !gcu_user_identifier (name)) return GrB_INVALID_VALUE ;
    const bool ok = is_type ? gcu_user_type_record ((GrB_Type) obj, name, cuda_defn)
                            : gcu_user_binop_record ((GrB_BinaryOp) obj, name, cuda_defn) ;
    return ok ? GrB_SUCCESS : GrB_OUT_OF_MEMORY ;
}

GrB_Info grbcuda_register_type (GrB_Type type, const char *type_name,
    const char *cuda_defn)
{
    return register_defn ((void *) type, true, type_name, cuda_defn) ;
}

GrB_Info grbcuda_register_binop (GrB_BinaryOp op, const char *function_name,
    const char *cuda_defn)
{
    return register_defn ((void *) op, false, function_name, cuda_defn) ;
}
