// gcu_mxv.cuh — matrix-vector products w = R*u over any semiring, generic in
// the semiring SR and instantiated by the JIT (src/mxv/jit_mxv.c). Both
// GrB_mxv and GrB_vxm come here: R is the matrix whose rows give the entries
// of w (op(A) for mxv, op(B)' for vxm), P = R' is the same matrix by the
// other orientation. Two methods (as in SpMV format selection, e.g.
// Sedaghati et al. 2015, the row-wise "vector" kernel with a group of G
// threads per row, G chosen by the host from the average row length):
//
//   pull   one group of G threads per row i of R (rows the mask excludes are
//          skipped whole: BFS's complemented mask on visited vertices), u
//          scattered to a dense array with a presence byte per entry (Ub,
//          NULL when u is full); the group's partial values are reduced in
//          shared memory. ANY and terminal monoids stop a thread's row early.
//   push   one group per entry u(k): row k of P is walked and each product
//          is folded into a dense T with gcu_spgemm_accum (native atomics
//          for integer PLUS/MIN/MAX, CAS otherwise, a lock per entry for values
//          wider than 8 bytes); for sparse u (BFS frontiers).
//
// Positions (the positional multipliers FIRSTI ... SECONDJ1): mxv's product
// op(A)(i,k) * u(k) is at (i, k, 0); vxm's u(k) * op(B)(k,j) at (0, k, j),
// the vector being the first operand (x) there and the matrix the second.
// The output is dense: Tx [r] (SR::Z) and Tb [r] = 1 when w has entry r.
#ifndef GCU_MXV_CUH
#define GCU_MXV_CUH

#include "common/gcu_accum.cuh"
#include "mxv/gcu_mxv_policy.h"

// the product of the matrix entry at p (R (r,k), or P (k,r)) and the vector
// value at q
template <class SR, bool VXM>
__device__ __forceinline__ typename SR::Z gcu_mxv_product (const void *__restrict__ Mx,
    const void *__restrict__ Ux, int64_t p, int64_t q, int64_t r, int64_t k)
{
    if constexpr (VXM)
    {
        const typename SR::X x = gcu_sr_load<typename SR::X, typename SR::TA, SR::reads_x, SR::a_iso>
            ((const typename SR::TA *) Ux, q);
        const typename SR::Y y = gcu_sr_load<typename SR::Y, typename SR::TB, SR::reads_y, SR::b_iso>
            ((const typename SR::TB *) Mx, p);
        return SR::mult (x, y, 0, k, r);
    }
    else
    {
        const typename SR::X x = gcu_sr_load<typename SR::X, typename SR::TA, SR::reads_x, SR::a_iso>
            ((const typename SR::TA *) Mx, p);
        const typename SR::Y y = gcu_sr_load<typename SR::Y, typename SR::TB, SR::reads_y, SR::b_iso>
            ((const typename SR::TB *) Ux, q);
        return SR::mult (x, y, r, k, 0);
    }
}

// pull: groups of G threads (a power of two, at most 32: a group lies within
// one warp), a grid-stride loop over the rows. Shared memory: blockDim.x
// values and blockDim.x flags (the host sizes it).
template <class SR, class RI, bool VXM>
__device__ __forceinline__ void gcu_mxv_pull (int64_t nrows,
    const RI *__restrict__ Rp, const RI *__restrict__ Rj, const void *__restrict__ Rx,
    const int8_t *__restrict__ Ub, const void *__restrict__ Ux,
    const int8_t *__restrict__ allow, typename SR::Z *__restrict__ Tx,
    int8_t *__restrict__ Tb, int G)
{
    typedef typename SR::Z Z;
    extern __shared__ __align__(16) unsigned char gcu_smem [];
    Z *sv = (Z *) gcu_smem;
    int8_t *sf = (int8_t *) (gcu_smem + (size_t) blockDim.x * sizeof (Z));
    const int lane = (int) (threadIdx.x % (unsigned) G);
    const int base = (int) threadIdx.x - lane;
    // the group's lanes within its warp
    const unsigned gmask = (G == 32) ? 0xffffffffu
        : (((1u << G) - 1u) << ((unsigned) base % 32u));
    const int64_t ngroups = ((int64_t) gridDim.x * blockDim.x) / G;
    for (int64_t i = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / G ; i < nrows ; i += ngroups)
    {
        if (allow != NULL && !allow [i])
        {
            if (lane == 0) Tb [i] = 0;
            continue;
        }
        Z acc = SR::identity ();
        bool has = false;
        const int64_t p1 = (int64_t) Rp [i + 1];
        for (int64_t p = (int64_t) Rp [i] + lane ; p < p1 ; p += G)
        {
            const int64_t k = (int64_t) Rj [p];
            if (Ub != NULL && !Ub [k]) continue;
            const Z t = gcu_mxv_product<SR, VXM> (Rx, Ux, p, k, i, k);
            acc = has ? SR::add (acc, t) : t;
            has = true;
            if (gcu_sr_done<SR> (acc)) break;
        }
        if (G > 1)
        {
            sv [threadIdx.x] = acc;
            sf [threadIdx.x] = has;
            __syncwarp (gmask);
            for (int off = G / 2 ; off > 0 ; off /= 2)
            {
                if (lane < off && sf [threadIdx.x + off])
                {
                    const Z o = sv [threadIdx.x + off];
                    sv [threadIdx.x] = sf [threadIdx.x] ? SR::add (sv [threadIdx.x], o) : o;
                    sf [threadIdx.x] = 1;
                }
                __syncwarp (gmask);
            }
            if (lane == 0)
            {
                has = sf [base];
                acc = sv [base];
            }
            __syncwarp (gmask);     // sv, sf are reused by the next row
        }
        if (lane == 0)
        {
            if (has) Tx [i] = acc;
            Tb [i] = has;
        }
    }
}

// push: groups of G threads, a grid-stride loop over the entries of u (Ui:
// their indices, Ux: their values); Tx, Tb (and locks for wide values) start
// as gcu_mxv_init leaves them.
template <class SR, class PI, bool VXM>
__device__ __forceinline__ void gcu_mxv_push (int64_t unvals,
    const int64_t *__restrict__ Ui, const void *__restrict__ Ux,
    const PI *__restrict__ Pp, const PI *__restrict__ Pj, const void *__restrict__ Px,
    const int8_t *__restrict__ allow, typename SR::Z *__restrict__ Tx,
    int8_t *__restrict__ Tb, int32_t *__restrict__ locks, int G)
{
    typedef typename SR::Z Z;
    const int lane = (int) (threadIdx.x % (unsigned) G);
    const int64_t ngroups = ((int64_t) gridDim.x * blockDim.x) / G;
    for (int64_t e = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / G ; e < unvals ; e += ngroups)
    {
        const int64_t k = Ui [e];
        const int64_t p1 = (int64_t) Pp [k + 1];
        for (int64_t p = (int64_t) Pp [k] + lane ; p < p1 ; p += G)
        {
            const int64_t r = (int64_t) Pj [p];
            if (allow != NULL && !allow [r]) continue;
            // ANY: the first value to land is as good as any other
            if (SR::is_any && *(volatile int8_t *) &Tb [r]) continue;
            gcu_spgemm_accum<SR> (&Tx [r], &locks [r], gcu_mxv_product<SR, VXM> (Px, Ux, p, e, r, k));
            Tb [r] = 1;
        }
    }
}

template <class SR>
__device__ __forceinline__ void gcu_mxv_init (int64_t m, typename SR::Z *__restrict__ Tx,
    int8_t *__restrict__ Tb, int32_t *__restrict__ locks)
{
    const typename SR::Z id = SR::identity ();
    for (int64_t r = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; r < m ;
         r += (int64_t) gridDim.x * blockDim.x)
    {
        Tx [r] = id;
        Tb [r] = 0;
        if constexpr (gcu_spgemm_needs_lock<SR>::v) locks [r] = 0;
    }
}

#endif
