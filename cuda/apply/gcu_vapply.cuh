// gcu_vapply.cuh — GrB_Vector_apply on a vector held densely on the device
// (DESIGN §3-4): T(i) = f (u(i)) for every entry of u, one position a
// thread; T keeps u's pattern, and the vector write-back then computes
// w<M,replace> = accum (w, T). Two value policies: the JIT's typed one
// (the SR struct's mult is the applied binary operator, TA = TB = u's type,
// TC = the operator's z type: a unary operator arrives here as a binary one
// with a bound scalar, src/vector/apply.c) and the positional one, an index
// (slope * i + offset) compiled with the library. Host-compilable (GCU_HD).
#ifndef GCU_VAPPLY_CUH
#define GCU_VAPPLY_CUH

#include "common/gcu_semiring.cuh"
#include "apply/gcu_vapply_args.h"
#include "apply/gcu_vapply_policy.h"

// op (x, u(i)) or op (u(i), y), cast to the operator's z type
template <class SR>
GCU_HD void gcu_vapply_typed_at (const gcu_vapply_args &a, int64_t i)
{
    typedef typename SR::X X ;
    typedef typename SR::Y Y ;
    typedef typename SR::TC TC ;
    if (a.Ub != 0 && a.Ub [i] == 0) return ;
    X x ;
    Y y ;
    if (a.bind1st)
    {
        memcpy (&x, a.scalar, sizeof (X)) ;
        y = gcu_sr_load<Y, typename SR::TB, SR::reads_y, false> ((const typename SR::TB *) a.Ux, i) ;
    }
    else
    {
        x = gcu_sr_load<X, typename SR::TA, SR::reads_x, false> ((const typename SR::TA *) a.Ux, i) ;
        memcpy (&y, a.scalar, sizeof (Y)) ;
    }
    ((TC *) a.Ox) [i] = gcu_cast<TC> (SR::mult (x, y, i, 0, 0)) ;
}

// the index op's value: slope * i + offset, int64 or truncated to int32
// (as SuiteSparse's (int32_t) of its int64 sum)
GCU_HD void gcu_vapply_index_at (const gcu_vapply_args &a, int64_t i)
{
    if (a.Ub != 0 && a.Ub [i] == 0) return ;
    const uint64_t z = (uint64_t) a.slope * (uint64_t) i + (uint64_t) a.offset ;
    if (a.z32) ((int32_t *) a.Ox) [i] = (int32_t) (uint32_t) z ;
    else ((int64_t *) a.Ox) [i] = (int64_t) z ;
}

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

// every position, grid-stride
template <class SR>
__device__ __forceinline__ void gcu_vapply_typed_kernel (const gcu_vapply_args &a)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < a.n ; i += stride)
        gcu_vapply_typed_at<SR> (a, i) ;
}

__device__ __forceinline__ void gcu_vapply_index_kernel (const gcu_vapply_args &a)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < a.n ; i += stride)
        gcu_vapply_index_at (a, i) ;
}

#endif
#endif
