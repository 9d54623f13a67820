// gcu_jit_public.h — public functions of the JIT, to move into
// include/grbcuda.h: registering CUDA source for user-defined types and
// operators that were created without a definition (GrB_Type_new,
// GrB_BinaryOp_new, or GxB_*_new with a NULL definition).
#ifndef GCU_JIT_PUBLIC_H
#define GCU_JIT_PUBLIC_H

#include <GraphBLAS.h>

#ifdef __cplusplus
extern "C" {
#endif

// Give the device definition of a user-defined type: type_name is the C
// name the definition declares (an identifier), cuda_defn its definition,
// e.g. "typedef struct { double x, y ; } point ;". The definition is
// compiled as CUDA C++; sizeof (type_name) must equal the type's size.
// GrB_NULL_POINTER if an argument is NULL; GrB_INVALID_VALUE if the type is
// built-in or type_name is not an identifier. Registering again replaces.
GrB_Info grbcuda_register_type (GrB_Type type, const char *type_name,
    const char *cuda_defn) ;

// Give the device definition of a user-defined binary operator:
// function_name is the name of the function cuda_defn defines, with the
// GraphBLAS signature void f (ztype *z, const xtype *x, const ytype *y).
// Functions without an execution-space qualifier compile as device
// functions. Errors as for grbcuda_register_type.
GrB_Info grbcuda_register_binop (GrB_BinaryOp op, const char *function_name,
    const char *cuda_defn) ;

#ifdef __cplusplus
}
#endif

#endif
