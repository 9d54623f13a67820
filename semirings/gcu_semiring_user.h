// gcu_semiring_user.h — the definitions of user-defined types and operators
// that the JIT can compile (gcu_semiring_user.c): recorded by grbcuda's
// interposed constructors and registration functions (src/api/user.c), read
// by the identification of semirings. Internal header, never installed.
#ifndef GCU_SEMIRING_USER_H
#define GCU_SEMIRING_USER_H

#include <GraphBLAS.h>
#include <stdbool.h>

// true, with the type's C name and definition, if the type has a definition.
// The strings stay valid for the life of the process.
bool gcu_user_type_lookup (GrB_Type type, const char **name, const char **defn) ;

// true, with the function's name and definition, if the operator has one
bool gcu_user_binop_lookup (GrB_BinaryOp op, const char **name, const char **defn) ;

// Record (or, with defn NULL, clear) the definition of a handle; a name that
// is not a C identifier makes the record "no usable definition". false if
// out of memory.
bool gcu_user_type_record (GrB_Type type, const char *name, const char *defn) ;
bool gcu_user_binop_record (GrB_BinaryOp op, const char *name, const char *defn) ;

// a name pasted into generated code must be a C identifier (shorter than
// GxB_MAX_NAME_LEN)
bool gcu_user_identifier (const char *s) ;

#endif
