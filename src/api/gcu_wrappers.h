// gcu_wrappers.h — the table gen_wrappers.py writes next to the generated
// invalidation wrappers: every GraphBLAS function of the build's GraphBLAS.h
// that can change a matrix, vector or scalar, and what grbcuda does about it
// (wrapped here, hand-written in src/api, or left out for the stated reason).
// Read by the wrapper test through the internal test hook (gcu_internal.h).
#ifndef GCU_WRAPPERS_H
#define GCU_WRAPPERS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
    GCU_WRAP_GENERATED = 0,         // defined in the generated gcu_wrappers.c
    GCU_WRAP_HANDWRITTEN = 1,       // defined by hand in src/api
    GCU_WRAP_EXCLUDED_VARIADIC = 2, // variadic; only storage options
    GCU_WRAP_EXCLUDED_READONLY = 3, // non-const in the header, never changes content
    GCU_WRAP_EXCLUDED_INTERNAL = 4, // GB_ name, not exported by libgrbcuda
    GCU_WRAP_EXCLUDED_MISSING = 5   // declared but not defined by the library
}
gcu_wrap_class ;

typedef struct
{
    const char *name ;
    gcu_wrap_class cls ;
    const char *reason ;            // "" for wrapped functions
}
gcu_wrapper_info ;

extern const gcu_wrapper_info gcu_wrapper_table [] ;
extern const size_t gcu_wrapper_count ;     // entries in the table
extern const size_t gcu_wrapper_parsed ;    // GB_PUBLIC functions parsed
extern const size_t gcu_wrapper_readers ;   // functions that only read handles,
                                            // wrapped to materialize them
extern const char gcu_wrapper_header [] ;   // the GraphBLAS.h it came from

#ifdef __cplusplus
}
#endif

#endif
