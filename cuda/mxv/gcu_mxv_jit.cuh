// gcu_mxv_jit.cuh — the `__global__` kernels of the GrB_mxv / GrB_vxm family
// that the JIT specialises, written once: each takes the one argument struct
// gcu_mxv_args (gcu_mxv_args.h) by value and hands its fields, typed, to the
// device functions of gcu_mxv.cuh (gcu_spmv.cuh: the SpMV variants). A JIT
// block (src/mxv/jit_mxv.c) holds only the semiring's namespace and one
// GCU_MXV_KERNELS (or GCU_SPMV_KERNELS) line naming the entries, the
// semiring, the matrix's index type and the form (vxm or not).
#ifndef GCU_MXV_JIT_CUH
#define GCU_MXV_JIT_CUH

#include "mxv/gcu_mxv.cuh"
#include "mxv/gcu_spmv.cuh"
#include "mxv/gcu_mxv_args.h"

template <class SR, class RI, bool VXM>
__device__ __forceinline__ void gcu_mxv_pull_k (const gcu_mxv_args &a)
{
    gcu_mxv_pull<SR, RI, VXM> (a.n, (const RI *) a.Rp, (const RI *) a.Rj, a.Rx, a.Ub, a.Ux,
        a.allow, (typename SR::Z *) a.Tx, a.Tb, a.G, a.group_exit != 0) ;
}

template <class SR, class RI, bool VXM>
__device__ __forceinline__ void gcu_mxv_push_k (const gcu_mxv_args &a)
{
    gcu_mxv_push<SR, RI, VXM> (a.n, a.Ui, a.Ux, (const RI *) a.Rp, (const RI *) a.Rj, a.Rx,
        a.allow, (typename SR::Z *) a.Tx, a.Tb, a.locks, a.G, a.lrow) ;
}

template <class SR, class RI, bool VXM>
__device__ __forceinline__ void gcu_mxv_push_long_k (const gcu_mxv_args &a)
{
    gcu_mxv_push_long<SR, RI, VXM> (a.n, a.Ls, a.lrow, a.seg, a.Ui, a.Ux, (const RI *) a.Rp,
        (const RI *) a.Rj, a.Rx, a.allow, (typename SR::Z *) a.Tx, a.Tb, a.locks) ;
}

template <class SR, class RI, bool VXM>
__device__ __forceinline__ void gcu_mxv_vector_k (const gcu_mxv_args &a)
{
    gcu_mxv_vector<SR, RI, VXM> (a.n, (const RI *) a.Rp, (const RI *) a.Rj, a.Rx, a.Ux,
        (typename SR::Z *) a.Tx, a.Tb, a.G, a.lrow) ;
}

template <class SR, class RI, bool VXM>
__device__ __forceinline__ void gcu_mxv_stream_k (const gcu_mxv_args &a)
{
    gcu_mxv_stream<SR, RI, VXM> (a.n, (const RI *) a.Rp, (const RI *) a.Rj, a.Rx, a.Ux,
        (typename SR::Z *) a.Tx, a.Tb, a.R, a.C, a.lrow) ;
}

template <class SR, class RI, bool VXM, bool NAT>
__device__ __forceinline__ void gcu_mxv_long_k (const gcu_mxv_args &a)
{
    gcu_mxv_long<SR, RI, VXM, NAT> (a.n, a.Sg, (const RI *) a.Rj, a.Rx, a.Ux,
        (typename SR::Z *) a.Tx, a.Tb, a.locks) ;
}

template <class SR, class RI, bool VXM>
__device__ __forceinline__ void gcu_mxv_adaptive_k (const gcu_mxv_args &a)
{
    gcu_mxv_adaptive<SR, RI, VXM> (a.Bs, (const RI *) a.Rp, (const RI *) a.Rj, a.Rx, a.Ux,
        (typename SR::Z *) a.Tx, a.Tb, a.C, a.lrow, a.G) ;
}

template <class SR, class RI, bool VXM, bool NAT>
__device__ __forceinline__ void gcu_mxv_sell_k (const gcu_mxv_args &a)
{
    gcu_mxv_sell<SR, RI, VXM, NAT> (a.n, a.So, a.Sp, (const RI *) a.Sj, a.Sx, a.Ux,
        (typename SR::Z *) a.Tx, a.Tb) ;
}

// The one prototype of the family's JIT kernels.
#define GCU_MXV_KERNEL(name) \
    extern "C" __global__ void __launch_bounds__ (GCU_MXV_THREADS) name (const gcu_mxv_args a)

// an SpMV kernel bounded to MINB blocks of GCU_MXV_THREADS an SM (its
// registers capped to fit them)
#define GCU_SPMV_KERNEL_B(name, MINB) \
    extern "C" __global__ void __launch_bounds__ (GCU_MXV_THREADS, MINB) name (const gcu_mxv_args a)

// the family's kernels for one semiring SR, index type RI and form VXM, in
// two sets (gcu_mxv_set, src/mxv/gcu_mxv.h): pull, push, init and
// push_long, and the SpMV variants, compiled only where an SpMV runs. The
// names: the set's first kernel's (E), the others E with a suffix
// (gcu_mxv_entries). The SpMV set's sell and long kernels: NAT (native
// sums, gcu_mxv_sell) and MINB (their launch bounds) from the JIT.
#define GCU_MXV_KERNELS(E, SR, RI, VXM)                                        \
    GCU_MXV_KERNEL (E) { gcu_mxv_pull_k<SR, RI, VXM> (a) ; }                   \
    GCU_MXV_KERNEL (E##_push) { gcu_mxv_push_k<SR, RI, VXM> (a) ; }            \
    GCU_MXV_KERNEL (E##_init) { gcu_mxv_init<SR> (a.n, (SR::Z *) a.Tx, a.Tb, a.locks) ; } \
    GCU_MXV_KERNEL (E##_plong) { gcu_mxv_push_long_k<SR, RI, VXM> (a) ; }
#define GCU_SPMV_KERNELS(E, SR, RI, VXM, NAT, MINB)                            \
    GCU_MXV_KERNEL (E) { gcu_mxv_vector_k<SR, RI, VXM> (a) ; }                 \
    GCU_MXV_KERNEL (E##_stream) { gcu_mxv_stream_k<SR, RI, VXM> (a) ; }        \
    GCU_SPMV_KERNEL_B (E##_long, MINB) { gcu_mxv_long_k<SR, RI, VXM, NAT> (a) ; } \
    GCU_MXV_KERNEL (E##_adapt) { gcu_mxv_adaptive_k<SR, RI, VXM> (a) ; }       \
    GCU_SPMV_KERNEL_B (E##_sell, MINB) { gcu_mxv_sell_k<SR, RI, VXM, NAT> (a) ; }

#endif
