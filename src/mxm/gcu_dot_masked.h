// gcu_dot_masked.h — the masked dot family's JIT specialisation and launch
// (src/mxm/jit_dot_masked.c; kernels in cuda/masked/gcu_dot_masked.cuh),
// beside the family's host code (mxm_masked.c).
#ifndef GCU_DOT_MASKED_H
#define GCU_DOT_MASKED_H

#include "../jit/gcu_jit.h"

#include "../../cuda/masked/gcu_dot_masked_policy.h"

typedef struct
{
    gcu_semiring_desc sr ;
    gcu_jit_operands ops ;
}
gcu_dot_masked_spec ;

// the #include / #define text all dot-masked blocks share
const char *gcu_dot_masked_preamble (void) ;

// Append the specialisation block (a namespace with SR and one extern "C"
// __global__ kernel) to block; entry receives the kernel's name, which is
// derived from a hash of the block, so equal specs give equal blocks and
// different ones never collide when packed into one program.
GrB_Info gcu_dot_masked_block (const gcu_dot_masked_spec *spec, gcu_str *block,
    char entry [GCU_JIT_ENTRY_MAX]) ;

// Compile (through the caches) the program for one spec.
GrB_Info gcu_dot_masked_compile (const gcu_dot_masked_spec *spec,
    const gcu_jit_binary **bin, char entry [GCU_JIT_ENTRY_MAX]) ;

// The arguments of one launch. Row pointers / indices are uint32_t or
// uint64_t as the spec says; Mx is NULL for a structural mask; Ax / Bx hold
// one value when iso; Cx has nnz(M) entries of the output type, Cb nnz(M)
// flags; *Cnvals (zeroed by the caller, may be NULL) receives the count kept.
typedef struct
{
    int64_t mnrows, mnvals ;
    const void *Mp, *Mj, *Mx ;
    const void *Ap, *Aj, *Ax ;
    const void *Bp, *Bj, *Bx ;
    void *Cx ;
    int8_t *Cb ;
    unsigned long long *Cnvals ;
}
gcu_dot_masked_args ;

// compile + load + launch on stream with grid blocks of `block` threads
// (block <= GCU_DOT_MASKED_THREADS). GCU_NOT_HANDLED without a GPU.
GrB_Info gcu_dot_masked_run (const gcu_dot_masked_spec *spec,
    const gcu_dot_masked_args *args, unsigned grid, unsigned block,
    void *stream) ;
// the same in two steps: the kernel (compiled, loaded: a CUfunction), then
// a launch of it
GrB_Info gcu_dot_masked_function (const gcu_dot_masked_spec *spec, void **fn) ;
GrB_Info gcu_dot_masked_launch (void *fn, const gcu_dot_masked_args *args,
    unsigned grid, unsigned block, void *stream) ;

#endif
