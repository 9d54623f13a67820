// gcu_reduce.cuh — the reduction of a matrix's values to one scalar,
// c = (TC) reduce (monoid, (Z) A), generic in the semiring struct SR (see
// common/gcu_semiring.cuh) and instantiated by the JIT (src/reduce/jit_reduce.c)
// with the monoid as SR's monoid over Z (the monoid's type), FIRST over Z as
// its multiply, TA the matrix's value type and TC the output's type:
//
//   partial  a grid-stride loop over the n values: each value cast to Z as
//            GraphBLAS does (x = (Z) a_ij) and folded into the thread's
//            accumulator; the block's accumulators combined in shared memory
//            (a tree); one (value, has-value) pair a block. A thread stops at
//            the monoid's terminal value (ANY: at its first value).
//   final    one block: the blocks' pairs combined the same way; thread 0
//            writes the result cast to TC (gcu_cast), or the monoid's
//            identity cast to TC when there was no value at all.
//
// Accumulators carry a has-value flag: a thread or block with no values
// contributes nothing, so the identity is never folded in (SR::identity is
// neutral for every value except for ANY, whose add returns its second
// operand, and the monoid's own identity is not neutral over floating point:
// -0 + +0 is +0; min (+inf, NaN) is +inf). ID::value () is the monoid's
// identity exactly as the object holds it, only for the empty reduction.
//
// Launch: blockDim.x a power of two, at most GCU_REDUCE_THREADS (the shared
// arrays' size); any grid for partial (part / part_has: one slot a block),
// one block for final. The `__global__` kernels the JIT specialises are
// written once here (GCU_REDUCE_KERNELS): each takes the one argument struct
// gcu_reduce_args (gcu_reduce_args.h) by value; a JIT block
// (src/reduce/jit_reduce.c) holds only the monoid's namespace (SR, ID) and
// one GCU_REDUCE_KERNELS line naming the two entries.
#ifndef GCU_REDUCE_CUH
#define GCU_REDUCE_CUH

#include "common/gcu_semiring.cuh"

#include "reduce/gcu_reduce_policy.h"
#include "reduce/gcu_reduce_args.h"

// (acc, has) of every thread of the block combined; thread 0 gets the
// block's pair (the others' are left as they were). Every thread must call it.
template <class SR>
__device__ __forceinline__ void gcu_reduce_block (typename SR::Z &acc, bool &has)
{
    typedef typename SR::Z Z;
    __shared__ Z sv [GCU_REDUCE_THREADS];      // (every value type is trivial)
    __shared__ int8_t gcu_red_h [GCU_REDUCE_THREADS];
    const unsigned t = threadIdx.x;
    sv [t] = acc;
    gcu_red_h [t] = has ? 1 : 0;
    __syncthreads ();
    for (unsigned off = blockDim.x / 2 ; off > 0 ; off /= 2)
    {
        if (t < off && gcu_red_h [t + off])
        {
            const Z o = sv [t + off];
            sv [t] = gcu_red_h [t] ? SR::add (sv [t], o) : o;
            gcu_red_h [t] = 1;
        }
        __syncthreads ();
    }
    if (t == 0)
    {
        acc = sv [0];
        has = gcu_red_h [0] != 0;
    }
}

// one (value, has) pair a block over the n values of Ax
template <class SR>
__device__ __forceinline__ void gcu_reduce_partial (int64_t n,
    const typename SR::TA *__restrict__ Ax, typename SR::Z *__restrict__ part,
    int8_t *__restrict__ part_has)
{
    typedef typename SR::Z Z;
    Z acc = SR::identity ();
    bool has = false;
    const int64_t stride = (int64_t) gridDim.x * blockDim.x;
    for (int64_t p = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; p < n ; p += stride)
    {
        const Z z = gcu_cast<Z> (Ax [p]);
        acc = has ? SR::add (acc, z) : z;
        has = true;
        if (gcu_sr_done<SR> (acc)) break;
    }
    gcu_reduce_block<SR> (acc, has);
    if (threadIdx.x == 0)
    {
        if (has) part [blockIdx.x] = acc;
        part_has [blockIdx.x] = has ? 1 : 0;
    }
}

// the nparts pairs into *out (TC); ID::value (): the monoid's identity (Z)
template <class SR, class ID>
__device__ __forceinline__ void gcu_reduce_final (int64_t nparts,
    const typename SR::Z *__restrict__ part, const int8_t *__restrict__ part_has,
    typename SR::TC *__restrict__ out)
{
    typedef typename SR::Z Z;
    Z acc = SR::identity ();
    bool has = false;
    for (int64_t b = threadIdx.x ; b < nparts ; b += blockDim.x)
    {
        if (!part_has [b]) continue;
        acc = has ? SR::add (acc, part [b]) : part [b];
        has = true;
    }
    gcu_reduce_block<SR> (acc, has);
    if (threadIdx.x == 0) *out = gcu_cast<typename SR::TC> (has ? acc : ID::value ());
}

// The one prototype of the family's JIT kernels.
#define GCU_REDUCE_KERNEL(name) \
    extern "C" __global__ void __launch_bounds__ (GCU_REDUCE_THREADS) name (const gcu_reduce_args a)

// partial and final for one monoid's SR and identity ID
#define GCU_REDUCE_KERNELS(PARTIAL, FINAL, SR, ID)                             \
    GCU_REDUCE_KERNEL (PARTIAL)                                                \
    {                                                                          \
        gcu_reduce_partial<SR> (a.n, (const SR::TA *) a.Ax, (SR::Z *) a.part,  \
            a.part_has) ;                                                      \
    }                                                                          \
    GCU_REDUCE_KERNEL (FINAL)                                                  \
    {                                                                          \
        gcu_reduce_final<SR, ID> (a.nparts, (const SR::Z *) a.part,            \
            a.part_has, (SR::TC *) a.out) ;                                    \
    }

#endif
