// gcu_reduce.h — GrB_Matrix_reduce to a C scalar answered on the device for a
// device-newest matrix (DESIGN §3: the reductions to a scalar read the
// device value; only the scalar comes back). The entry points are in
// src/api/reduce.c; the kernels in cuda/reduce/gcu_reduce.cuh, specialised
// by the JIT here (jit_reduce.c) and run by reduce.c.
#ifndef GCU_REDUCE_H
#define GCU_REDUCE_H

#include "../jit/gcu_jit.h"

#include "../../cuda/reduce/gcu_reduce_policy.h"
#include "../../cuda/reduce/gcu_reduce_args.h"

// One specialisation: the monoid as sr.add, FIRST over the monoid's type as
// sr.mult (so SR::Z is the monoid's type), ops.a the matrix's value type,
// ops.c the output's type.
typedef struct
{
    gcu_semiring_desc sr ;
    gcu_jit_operands ops ;
}
gcu_reduce_spec ;

// The spec of reducing values of type atype with monoid into a ctype:
// GCU_NOT_HANDLED unless the monoid is one the JIT expresses (built-in
// operator, or a user operator with a captured definition) over a built-in
// type, and atype and ctype are built-in types.
GrB_Info gcu_reduce_spec_make (GrB_Monoid monoid, GrB_Type atype,
    GrB_Type ctype, gcu_reduce_spec *spec) ;

// the #include all reduce blocks share
const char *gcu_reduce_preamble (void) ;

// Append the block (a namespace with SR and ID, two extern "C" kernels:
// partial and final) to b; entry receives the partial kernel's name, from
// which the final kernel's is derived (gcu_reduce_entries). GCU_NOT_HANDLED
// when the JIT cannot express it (complex TIMES, see jit_codegen.c).
GrB_Info gcu_reduce_block (const gcu_reduce_spec *spec, gcu_str *b,
    char entry [GCU_JIT_ENTRY_MAX]) ;
void gcu_reduce_entries (const char *entry, char fin [GCU_JIT_ENTRY_MAX]) ;

// Compile (through the caches) and load the two kernels (CUfunctions).
GrB_Info gcu_reduce_kernels (const gcu_reduce_spec *spec, void **partial,
    void **fin) ;

// The entry points' device path. If A is device newest, accum is NULL, c,
// monoid and the types fit, the mode is not host and the GPU is already
// started: reduces A's device value into *c (of type ccode) and returns
// GrB_SUCCESS. Otherwise (or on any device failure) returns GCU_NOT_HANDLED
// and the caller materializes A and calls SuiteSparse. name: the entry
// point's, for the log.
GrB_Info gcu_reduce_matrix_scalar (const char *name, void *c, int ccode,
    GrB_BinaryOp accum, GrB_Monoid monoid, const void *A, bool vec) ;

// GrB_Matrix_reduce_Monoid_Scalar's device path: as above, into the
// GrB_Scalar s (of a built-in type) for a device-newest A; an empty A
// clears s, as SuiteSparse does. GCU_NOT_HANDLED otherwise.
GrB_Info gcu_reduce_matrix_gscalar (const char *name, GrB_Scalar s,
    GrB_BinaryOp accum, GrB_Monoid monoid, const void *A, bool vec) ;

#endif
