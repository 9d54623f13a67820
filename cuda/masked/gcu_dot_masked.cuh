// gcu_dot_masked.cuh — the masked dot-product kernel C<M> = A*B', generic in
// the semiring (see common/gcu_semiring.cuh). Triangle counting's kernel.
//
// Every entry M(i,j) of the mask is one sparse dot product: row i of A with
// row j of B (both CSR, so B' is B's rows), over the semiring's monoid. Only
// entries of M are computed; M(i,j) false in a valued mask, or rows with no
// common column, give no entry of C (Cb [e] = 0). Results are positional:
// Cx [e] / Cb [e] belong to the e-th entry of M, so C has M's pattern minus
// the entries flagged 0; *Cnvals counts the entries kept.
//
// Intersection: a linear merge when the two rows have similar lengths, and a
// binary search of the longer row for each entry of the shorter one when
// their lengths differ by more than GCU_DOT_MASKED_SKEW; the monoid's terminal
// value (or ANY) stops the merge early.
//
// The JIT instantiates gcu_dot_masked<SR, MI, AI, BI> in an extern "C" kernel
// per specialisation; MI/AI/BI are uint32_t or uint64_t, the integer type of
// the row pointers and column indices of M, A and B. Launch: any grid, with
// blockDim.x <= GCU_DOT_MASKED_THREADS; the loop over entries is grid-strided.
#ifndef GCU_DOT_MASKED_CUH
#define GCU_DOT_MASKED_CUH

#include "common/gcu_semiring.cuh"

#include "masked/gcu_dot_masked_policy.h"

// first position p in [lo, hi) with J [p] >= key (hi if none)
template <class I>
__device__ __forceinline__ int64_t gcu_lower_bound (const I *__restrict__ J,
    int64_t lo, int64_t hi, uint64_t key)
{
    while (lo < hi)
    {
        int64_t mid = lo + (hi - lo) / 2;
        if ((uint64_t) J [mid] < key) lo = mid + 1; else hi = mid;
    }
    return lo;
}

// the row i of entry e of a CSR matrix with n rows: the last i with P [i] <= e
template <class I>
__device__ __forceinline__ int64_t gcu_row_of (const I *__restrict__ P,
    int64_t n, int64_t e)
{
    int64_t lo = 0, hi = n;     // invariant: P [lo] <= e < P [hi]
    while (hi - lo > 1)
    {
        int64_t mid = lo + (hi - lo) / 2;
        if ((int64_t) P [mid] <= e) lo = mid; else hi = mid;
    }
    return lo;
}

// accumulate the product A(i,k) * B(k,j) (A(i,k) at pa, B'(k,j) at pb);
// returns true when the monoid says no further term can change cij
template <class SR>
__device__ __forceinline__ bool gcu_dot_term (typename SR::Z &cij, bool &found,
    const typename SR::TA *__restrict__ Ax, const typename SR::TB *__restrict__ Bx,
    int64_t pa, int64_t pb, int64_t i, int64_t k, int64_t j)
{
    typedef typename SR::X X;
    typedef typename SR::Y Y;
    const X a = gcu_sr_load<X, typename SR::TA, SR::reads_x, SR::a_iso> (Ax, pa);
    const Y b = gcu_sr_load<Y, typename SR::TB, SR::reads_y, SR::b_iso> (Bx, pb);
    const typename SR::Z t = SR::mult (a, b, i, k, j);
    cij = found ? SR::add (cij, t) : t;
    found = true;
    return gcu_sr_done<SR> (cij);
}

// the skewed intersection: each column of the short row (Sj [ps..es)) looked
// up in the long one (Lj [pl..el)), a term for each match; SHORT_B: the
// short row is B's (the positions go to gcu_dot_term as A's, then B's)
template <class SR, bool SHORT_B, class SI, class LI>
__device__ __forceinline__ void gcu_dot_lookup (typename SR::Z &cij, bool &found,
    const typename SR::TA *__restrict__ Ax, const typename SR::TB *__restrict__ Bx,
    const SI *__restrict__ Sj, int64_t ps, int64_t es,
    const LI *__restrict__ Lj, int64_t pl, int64_t el, int64_t i, int64_t j)
{
    for ( ; ps < es ; ps++)
    {
        const uint64_t k = (uint64_t) Sj [ps];
        pl = gcu_lower_bound (Lj, pl, el, k);
        if (pl == el) break;
        if ((uint64_t) Lj [pl] == k)
        {
            const int64_t pa = SHORT_B ? pl : ps, pb = SHORT_B ? ps : pl;
            if (gcu_dot_term<SR> (cij, found, Ax, Bx, pa, pb, i, (int64_t) k, j)) break;
            pl++;
        }
    }
}

template <class SR, class MI, class AI, class BI>
__device__ __forceinline__ void gcu_dot_masked
(
    int64_t mnrows, int64_t mnvals,
    const MI *__restrict__ Mp, const MI *__restrict__ Mj,
    const typename SR::TM *__restrict__ Mx,
    const AI *__restrict__ Ap, const AI *__restrict__ Aj,
    const typename SR::TA *__restrict__ Ax,
    const BI *__restrict__ Bp, const BI *__restrict__ Bj,
    const typename SR::TB *__restrict__ Bx,
    typename SR::TC *__restrict__ Cx, int8_t *__restrict__ Cb,
    unsigned long long *__restrict__ Cnvals
)
{
    typedef typename SR::Z Z;
    const int64_t stride = (int64_t) gridDim.x * blockDim.x;
    // all threads of a block run the same number of iterations, so that the
    // block can count its entries with __syncthreads_count
    for (int64_t base = (int64_t) blockIdx.x * blockDim.x; base < mnvals; base += stride)
    {
        const int64_t e = base + threadIdx.x;
        bool found = false;
        if (e < mnvals)
        {
            bool keep = true;
            if constexpr (SR::m_valued) keep = gcu_mask_true (Mx [SR::m_iso ? 0 : e]);
            if (keep)
            {
                const int64_t i = gcu_row_of (Mp, mnrows, e);
                const int64_t j = (int64_t) Mj [e];
                int64_t pa = Ap [i], ea = Ap [i+1];
                int64_t pb = Bp [j], eb = Bp [j+1];
                Z cij;
                // skip rows whose column ranges do not overlap
                if (pa < ea && pb < eb &&
                    (uint64_t) Aj [ea-1] >= (uint64_t) Bj [pb] &&
                    (uint64_t) Bj [eb-1] >= (uint64_t) Aj [pa])
                {
                    const int64_t na = ea - pa, nb = eb - pb;
                    if (na > GCU_DOT_MASKED_SKEW * nb)
                    {
                        // B's row is short: look each of its columns up in A's
                        gcu_dot_lookup<SR, true> (cij, found, Ax, Bx, Bj, pb, eb, Aj, pa, ea, i, j);
                    }
                    else if (nb > GCU_DOT_MASKED_SKEW * na)
                    {
                        // A's row is short: look each of its columns up in B's
                        gcu_dot_lookup<SR, false> (cij, found, Ax, Bx, Aj, pa, ea, Bj, pb, eb, i, j);
                    }
                    else
                    {
                        // similar lengths: merge, loading only the index
                        // that moved (both rows are known non-empty here)
                        uint64_t ka = (uint64_t) Aj [pa];
                        uint64_t kb = (uint64_t) Bj [pb];
                        while (true)
                        {
                            if (ka < kb)
                            {
                                if (++pa == ea) break;
                                ka = (uint64_t) Aj [pa];
                            }
                            else if (kb < ka)
                            {
                                if (++pb == eb) break;
                                kb = (uint64_t) Bj [pb];
                            }
                            else
                            {
                                if (gcu_dot_term<SR> (cij, found, Ax, Bx, pa, pb, i, (int64_t) ka, j)) break;
                                if (++pa == ea || ++pb == eb) break;
                                ka = (uint64_t) Aj [pa];
                                kb = (uint64_t) Bj [pb];
                            }
                        }
                    }
                }
                if (found) Cx [e] = gcu_cast<typename SR::TC> (cij);
            }
            Cb [e] = found ? 1 : 0;
        }
        const int kept = __syncthreads_count (found);
        if (threadIdx.x == 0 && kept > 0 && Cnvals != nullptr)
        {
            atomicAdd (Cnvals, (unsigned long long) kept);
        }
    }
}

#endif
