// gcu_spgemm_args.h — the one argument struct of the SpGEMM family's JIT
// kernels (cuda/spgemm/gcu_spgemm_jit.cuh), shared by the host code that
// fills it and launches them (src/spgemm/) and the kernels the JIT compiles:
// plain C, passed by value, so that the launch and the compiled unit cannot
// disagree on a parameter. Each kernel reads the fields it needs.
#ifndef GCU_SPGEMM_ARGS_H
#define GCU_SPGEMM_ARGS_H

#if !defined(__CUDACC_RTC__)
#include <stdint.h>
#endif

typedef struct
{
    // the rows to compute (listed by bin): nrows of them (shared tables), or
    // one a block (global tables, dense accumulators)
    const int64_t *rows ;
    int64_t nrows ;
    // global tables: row b's table at offs [b] .. offs [b+1]-1 of the keys,
    // values (the semiring's z type) and locks (values wider than 8 bytes)
    const int64_t *offs ;
    int32_t *gkeys ;
    void *gvals ;
    int32_t *glocks ;
    // the mask (masked saxpy; its index width is the kernel's MI), A and B
    // (CSR, index widths AI and BI; values of their types)
    const void *Mp, *Mj, *Mx ;
    const void *Ap, *Aj, *Ax ;
    const void *Bp, *Bj, *Bx ;
    // C: row pointers, column indices and values (z type); masked: values and
    // presence bytes at the mask's positions
    const int64_t *Cp ;
    int32_t *Cj ;
    void *Cx ;
    int8_t *Cb ;
    // dense accumulators: where each row of B stopped, C's columns, window
    int32_t *cursor ;
    int64_t n, W ;
    // shared tables: H slots, G threads a row; every kernel: TPB threads a
    // row of B
    uint32_t H ;
    int G, TPB ;
}
gcu_spgemm_args ;

#endif
