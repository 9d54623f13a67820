// gcu_spgemm_jit.cuh — the `__global__` kernels of the SpGEMM family that the
// JIT specialises (numeric and masked saxpy), written once: each takes the
// one argument struct gcu_spgemm_args (gcu_spgemm_args.h) by value and hands
// its fields, typed, to the device functions of gcu_spgemm_numeric.cuh and
// gcu_spgemm_masked.cuh. A JIT block (src/spgemm/jit_spgemm.c) holds only
// the semiring's namespace and one GCU_SPGEMM_*_KERNELS line naming the
// entries, the semiring and the index widths; kernels are extern "C" and
// named by the hash of their specialisation, so blocks pack into one program.
#ifndef GCU_SPGEMM_JIT_CUH
#define GCU_SPGEMM_JIT_CUH

#include "spgemm/gcu_spgemm_masked.cuh"
#include "spgemm/gcu_spgemm_args.h"

// the operands of A and B, typed (inside a wrapper: SR, AI, BI in scope)
#define GCU_SPGEMM_AB(a) (const AI *) a.Ap, (const AI *) a.Aj, (const typename SR::TA *) a.Ax, \
    (const BI *) a.Bp, (const BI *) a.Bj, (const typename SR::TB *) a.Bx

template <class SR, class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_numeric_shared_k (const gcu_spgemm_args &a)
{
    gcu_spgemm_numeric_shared<SR, AI, BI> (a.rows, a.nrows, GCU_SPGEMM_AB (a),
        a.Cp, a.Cj, (typename SR::Z *) a.Cx, a.H, a.G, a.TPB);
}

template <class SR, class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_numeric_global_k (const gcu_spgemm_args &a)
{
    gcu_spgemm_numeric_global<SR, AI, BI> (a.rows, a.offs, a.gkeys,
        (typename SR::Z *) a.gvals, a.glocks, GCU_SPGEMM_AB (a),
        a.Cp, a.Cj, (typename SR::Z *) a.Cx, a.TPB);
}

template <class SR, class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_numeric_dense_k (const gcu_spgemm_args &a)
{
    gcu_spgemm_numeric_dense<SR, AI, BI> (a.rows, GCU_SPGEMM_AB (a),
        a.Cp, a.Cj, (typename SR::Z *) a.Cx, a.cursor, a.n, a.W, a.TPB);
}

template <class SR, class MI, class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_masked_shared_k (const gcu_spgemm_args &a)
{
    gcu_spgemm_masked_shared<SR, MI, AI, BI> (a.rows, a.nrows,
        (const MI *) a.Mp, (const MI *) a.Mj, (const typename SR::TM *) a.Mx, GCU_SPGEMM_AB (a),
        (typename SR::Z *) a.Cx, a.Cb, a.H, a.G, a.TPB);
}

template <class SR, class MI, class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_masked_global_k (const gcu_spgemm_args &a)
{
    gcu_spgemm_masked_global<SR, MI, AI, BI> (a.rows,
        (const MI *) a.Mp, (const MI *) a.Mj, (const typename SR::TM *) a.Mx, GCU_SPGEMM_AB (a),
        (typename SR::Z *) a.Cx, a.Cb, a.glocks, a.TPB);
}

// The one prototype of the family's JIT kernels (the launch bounds: threads,
// and blocks an SM where given).
#define GCU_SPGEMM_KERNEL(name, ...) \
    extern "C" __global__ void __launch_bounds__ (__VA_ARGS__) name (const gcu_spgemm_args a)

// The numeric kernels of semiring SR (shared and global tables).
#define GCU_SPGEMM_NUMERIC_KERNELS(shared, global, SR, AI, BI)                                   \
    GCU_SPGEMM_KERNEL (shared, GCU_SPGEMM_THREADS,                                               \
        sizeof (SR::Z) <= GCU_SPGEMM_WORD_MAX ? GCU_SPGEMM_NUMERIC_MIN_BLOCKS : 1)                                 \
    { gcu_spgemm_numeric_shared_k<SR, AI, BI> (a); }                                             \
    GCU_SPGEMM_KERNEL (global, GCU_SPGEMM_GLOBAL_THREADS)                                        \
    { gcu_spgemm_numeric_global_k<SR, AI, BI> (a); }

// The dense accumulator (values of at most GCU_SPGEMM_WORD_MAX bytes: no
// lock words).
#define GCU_SPGEMM_DENSE_KERNEL(dense, SR, AI, BI)                                               \
    GCU_SPGEMM_KERNEL (dense, GCU_SPGEMM_DENSE_THREADS, GCU_SPGEMM_DENSE_MIN_BLOCKS)             \
    { gcu_spgemm_numeric_dense_k<SR, AI, BI> (a); }

// The masked saxpy kernels (shared and global tables).
#define GCU_SPGEMM_MASKED_KERNELS(shared, global, SR, MI, AI, BI)                                \
    GCU_SPGEMM_KERNEL (shared, GCU_SPGEMM_THREADS)                                               \
    { gcu_spgemm_masked_shared_k<SR, MI, AI, BI> (a); }                                          \
    GCU_SPGEMM_KERNEL (global, GCU_SPGEMM_GLOBAL_THREADS)                                        \
    { gcu_spgemm_masked_global_k<SR, MI, AI, BI> (a); }

#endif
