// gcu_merge_args.h — the one argument struct of the device write-back's
// kernels (cuda/writeback/gcu_merge.cuh), shared by the host code that fills
// it (src/mxm/mxm_merge.c), the kernels compiled with the library
// (src/mxm/merge.cu) and the ones the JIT compiles: plain C, by value.
#ifndef GCU_MERGE_ARGS_H
#define GCU_MERGE_ARGS_H

#if !defined(__cplusplus)
#include <stdbool.h>
#endif
#if !defined(__CUDACC_RTC__)
#include <stdint.h>
#endif

#if defined(__CUDACC_RTC__)
#include "writeback/gcu_writeback_policy.h"
#else
#include "gcu_writeback_policy.h"
#endif

// C<M,replace> = accum (C, T), row by row. Each of C, T, M is CSR on the
// device with its own index width (uint32 or uint64); Cp NULL: C has no
// entries; Mp NULL: no mask (every position true). A valued mask's entry is
// true when any byte of its msize-byte value is nonzero (SuiteSparse tests
// the bits). csize: C's value size (the result's); tsize: T's. intersect
// (an element-wise multiply, A .* B with A as C and B as T, the op as the
// accum, no mask): an entry only where both have one. union_ab (eWiseUnion,
// with accum, not intersect): an entry of C's side only becomes
// mult (C(j), beta), one of T's side only mult (alpha, T(j)); alpha and beta
// hold values of the operator's x and y types, cast on the host (the typed
// value policy only).
typedef struct
{
    int64_t m ;
    const void *Cp, *Cj, *Cx ;
    const void *Tp, *Tj, *Tx ;
    const void *Mp, *Mj, *Mx ;
    uint64_t csize, tsize, msize ;
    uint64_t alpha [2], beta [2] ;
    bool c_idx64, c_iso, t_idx64, m_idx64, m_iso ;
    bool structural, complement, replace, accum, intersect, union_ab ;
}
gcu_merge_args ;

#endif
