// gcu_spgemm_masked.cuh — masked saxpy C<M> = A*B (Gustavson, row by row),
// generic in the semiring SR and instantiated by the JIT. Only positions of
// the mask are accumulated: the mask's row seeds a hash table (its column
// indices as keys, each key's position in the mask row beside it), a product
// A(i,k)*B(k,j) whose j is not in the table is dropped without being
// computed, and the others fold into the slot's value. There is no symbolic
// phase: the result is positional, like the masked dot kernel's
// (cuda/masked/gcu_dot_masked.cuh): Cx [e] / Cb [e] belong to the e-th entry
// of M (Cb [e] = 1 when some product landed there). C's pattern is M's less
// the entries flagged 0, already sorted.
//
// A valued mask (SR::m_valued) seeds only its true entries, so a product
// landing on a false one is dropped like any other outside the mask.
//
// Two kernels: mask rows that fit a shared-memory table (block merging as in
// gcu_spgemm_numeric_shared: R = blockDim.x / G rows a block), and the longer
// ones, one block per row, looking each product's column up by binary search
// in the sorted mask row and accumulating straight into Cx in global memory
// (Glocks: a lock word per mask entry for values wider than 8 bytes).
#ifndef GCU_SPGEMM_MASKED_CUH
#define GCU_SPGEMM_MASKED_CUH

#include "spgemm/gcu_spgemm_numeric.cuh"

// Dynamic shared memory: R*H int32 keys, R*H int32 positions, R*H values,
// R*H lock words if needed, R*H hit bytes; each part 16-aligned
// (spgemm_masked_smem in src/spgemm/phases.cu).
template <class SR, class MI, class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_masked_shared (const int64_t *__restrict__ rows,
    int64_t nrows, const MI *__restrict__ Mp, const MI *__restrict__ Mj,
    const typename SR::TM *__restrict__ Mx,
    const AI *__restrict__ Ap, const AI *__restrict__ Aj,
    const typename SR::TA *__restrict__ Ax, const BI *__restrict__ Bp,
    const BI *__restrict__ Bj, const typename SR::TB *__restrict__ Bx,
    typename SR::Z *__restrict__ Cx, int8_t *__restrict__ Cb,
    uint32_t H, int G, int TPB)
{
    typedef typename SR::Z Z;
    extern __shared__ __align__(16) unsigned char gcu_smem [];
    const int R = blockDim.x / G, r = threadIdx.x / G, t = threadIdx.x % G;
    size_t at = 0;
    int32_t *keys = (int32_t *) (gcu_smem + at) + (int64_t) r * H;
    at = (at + (size_t) R * H * 4 + 15) & ~(size_t) 15;
    int32_t *pos = (int32_t *) (gcu_smem + at) + (int64_t) r * H;
    at = (at + (size_t) R * H * 4 + 15) & ~(size_t) 15;
    Z *vals = (Z *) (gcu_smem + at) + (int64_t) r * H;
    at = (at + (size_t) R * H * sizeof (Z) + 15) & ~(size_t) 15;
    int32_t *locks = (int32_t *) (gcu_smem + at) + (int64_t) r * H;
    if constexpr (gcu_spgemm_needs_lock<SR>::v) at = (at + (size_t) R * H * 4 + 15) & ~(size_t) 15;
    uint8_t *hit = (uint8_t *) (gcu_smem + at) + (int64_t) r * H;
    const Z id = SR::identity ();
    for (uint32_t s = t ; s < H ; s += G)
    {
        keys [s] = GCU_SPGEMM_EMPTY;
        vals [s] = id;
        hit [s] = 0;
        if constexpr (gcu_spgemm_needs_lock<SR>::v) locks [s] = 0;
    }
    __syncthreads ();
    const int64_t idx = (int64_t) blockIdx.x * R + r;
    const int64_t i = idx < nrows ? rows [idx] : -1;
    int64_t m0 = 0, m1 = 0;
    if (i >= 0)
    {
        m0 = (int64_t) Mp [i];
        m1 = (int64_t) Mp [i + 1];
        // seed: the mask row's columns (distinct: M is a matrix)
        for (int64_t e = m0 + t ; e < m1 ; e += G)
        {
            if constexpr (SR::m_valued)
            {
                if (!gcu_mask_true (Mx [SR::m_iso ? 0 : e])) continue;
            }
            const int32_t j = (int32_t) Mj [e];
            uint32_t s = gcu_spgemm_hash (j, H);
            while (atomicCAS (&keys [s], GCU_SPGEMM_EMPTY, j) != GCU_SPGEMM_EMPTY) s = (s + 1) & (H - 1);
            pos [s] = (int32_t) (e - m0);
        }
    }
    __syncthreads ();
    if (i >= 0)
    {
        gcu_spgemm_products (i, Ap, Aj, Bp, Bj, G, TPB, t,
            [&] (int64_t k, int64_t pa, int32_t j, int64_t pb)
            {
                const uint32_t s = gcu_spgemm_find (keys, H, j);
                if (s == H) return;
                gcu_spgemm_accum<SR> (&vals [s], &locks [s],
                    gcu_spgemm_product<SR> (Ax, Bx, pa, pb, i, k, j));
                hit [s] = 1;
            });
    }
    __syncthreads ();
    if (i < 0) return;
    for (uint32_t s = t ; s < H ; s += G)
    {
        if (keys [s] == GCU_SPGEMM_EMPTY || !hit [s]) continue;
        const int64_t e = m0 + pos [s];
        Cx [e] = vals [s];
        Cb [e] = 1;
    }
}

// first position p in [lo, hi) of the sorted J with J [p] == j, or -1
template <class I>
__device__ __forceinline__ int64_t gcu_spgemm_search (const I *__restrict__ J,
    int64_t lo, int64_t hi, int64_t j)
{
    const int64_t end = hi;
    while (lo < hi)
    {
        const int64_t mid = lo + (hi - lo) / 2;
        if ((int64_t) J [mid] < j) lo = mid + 1; else hi = mid;
    }
    return (lo < end && (int64_t) J [lo] == j) ? lo : -1;
}

// Long mask rows: one block per row (rows [blockIdx.x]); Cx starts at the
// identity over the row, products accumulate atomically in global memory.
template <class SR, class MI, class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_masked_global (const int64_t *__restrict__ rows,
    const MI *__restrict__ Mp, const MI *__restrict__ Mj,
    const typename SR::TM *__restrict__ Mx,
    const AI *__restrict__ Ap, const AI *__restrict__ Aj,
    const typename SR::TA *__restrict__ Ax, const BI *__restrict__ Bp,
    const BI *__restrict__ Bj, const typename SR::TB *__restrict__ Bx,
    typename SR::Z *__restrict__ Cx, int8_t *__restrict__ Cb,
    int32_t *__restrict__ Glocks, int TPB)
{
    typedef typename SR::Z Z;
    const int64_t i = rows [blockIdx.x];
    const int64_t m0 = (int64_t) Mp [i], m1 = (int64_t) Mp [i + 1];
    const Z id = SR::identity ();
    for (int64_t e = m0 + threadIdx.x ; e < m1 ; e += blockDim.x)
    {
        Cx [e] = id;
        if constexpr (gcu_spgemm_needs_lock<SR>::v) Glocks [e] = 0;
    }
    __syncthreads ();
    gcu_spgemm_products (i, Ap, Aj, Bp, Bj, (int) blockDim.x, TPB, (int) threadIdx.x,
        [&] (int64_t k, int64_t pa, int32_t j, int64_t pb)
        {
            const int64_t e = gcu_spgemm_search (Mj, m0, m1, (int64_t) j);
            if (e < 0) return;
            if constexpr (SR::m_valued)
            {
                if (!gcu_mask_true (Mx [SR::m_iso ? 0 : e])) return;
            }
            gcu_spgemm_accum<SR> (&Cx [e], &Glocks [e],
                gcu_spgemm_product<SR> (Ax, Bx, pa, pb, i, k, j));
            Cb [e] = 1;
        });
}

#endif
