// gcu_jit_user.h — the definitions of user-defined types and operators that
// the JIT can compile: captured from GxB_Type_new / GxB_BinaryOp_new (which
// grbcuda interposes) or registered through grbcuda_register_type /
// grbcuda_register_binop. Read by host identification (semirings/).
// Internal header, never installed.
#ifndef GCU_JIT_USER_H
#define GCU_JIT_USER_H

#include <GraphBLAS.h>
#include <stdbool.h>

// true, with the type's C name and definition, if the type has a definition.
// The strings stay valid for the life of the process.
bool gcu_user_type_lookup (GrB_Type type, const char **name, const char **defn) ;

// true, with the function's name and definition, if the operator has one
bool gcu_user_binop_lookup (GrB_BinaryOp op, const char **name, const char **defn) ;

#endif
