// gcu_mxv.h — the GrB_mxv / GrB_vxm GPU family (mxv.c) and the JIT
// specialisation of its kernels (jit_mxv.c, cuda/mxv/gcu_mxv.cuh).
#ifndef GCU_MXV_H
#define GCU_MXV_H

#include "../jit/gcu_jit.h"
#include "../../cuda/mxv/gcu_mxv_policy.h"
#include "../../cuda/mxv/gcu_mxv_args.h"

// One specialisation: the semiring, the operand types in the semiring's
// order (mxv: ops.a the matrix, ops.b the vector; vxm: ops.a the vector,
// ops.b the matrix), the index width of the matrix (idx64) and the form.
typedef struct
{
    gcu_semiring_desc sr ;
    gcu_jit_operands ops ;
    bool idx64 ;                // the matrix's pointers and indices are uint64_t
    bool vxm ;                  // GrB_vxm: the vector is the multiplier's x
}
gcu_mxv_spec ;

// the #include all mxv blocks share
const char *gcu_mxv_preamble (void) ;

// Append the block (a namespace with SR and three extern "C" kernels: pull,
// push, init) to b; entry receives the pull kernel's name, from which the
// others are derived (gcu_mxv_entries).
GrB_Info gcu_mxv_block (const gcu_mxv_spec *spec, gcu_str *b,
    char entry [GCU_JIT_ENTRY_MAX]) ;
void gcu_mxv_entries (const char *entry, char push [GCU_JIT_ENTRY_MAX],
    char init [GCU_JIT_ENTRY_MAX]) ;

// Compile (through the caches) and load the three kernels (CUfunctions).
GrB_Info gcu_mxv_kernels (const gcu_mxv_spec *spec, void **pull, void **push,
    void **init) ;

// Tests: force the method of the family (0 automatic, 1 pull, 2 push).
void gcu_mxv_force_method (int method) ;


#endif
