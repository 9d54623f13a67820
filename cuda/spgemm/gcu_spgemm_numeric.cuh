// gcu_spgemm_numeric.cuh — the numeric phase of C = A*B (see gcu_spgemm.cuh),
// generic in the semiring SR and instantiated by the JIT. Values accumulate
// in hash tables whose keys the symbolic phase sized exactly; every slot
// starts at the monoid's identity and each product is folded in with an
// atomic read-modify-write of SR::add (compare-and-swap on the value's bits
// for 1-8 byte types; a per-slot lock for wider ones, e.g. FC64 and user
// types). The ANY monoid keeps whichever product lands last.
#ifndef GCU_SPGEMM_NUMERIC_CUH
#define GCU_SPGEMM_NUMERIC_CUH

#include "common/gcu_semiring.cuh"
#include "spgemm/gcu_spgemm.cuh"

template <bool C, class T, class F> struct gcu_spgemm_pick { typedef T type; };
template <class T, class F> struct gcu_spgemm_pick<false, T, F> { typedef F type; };

template <class SR> struct gcu_spgemm_needs_lock
{
    static const bool v = sizeof (typename SR::Z) > 8;
};

template <class U, class Z> __device__ __forceinline__ U gcu_bits_of (const Z &z)
{
    U u; memcpy (&u, &z, sizeof (U)); return u;
}
template <class Z, class U> __device__ __forceinline__ Z gcu_of_bits (U u)
{
    Z z; memcpy (&z, &u, sizeof (Z)); return z;
}

// *slot = add (*slot, t), atomically with respect to other threads updating
// the same slot; lock is the slot's lock word (used only for wide types).
template <class SR>
__device__ __forceinline__ void gcu_spgemm_accum (typename SR::Z *slot,
    int32_t *lock, const typename SR::Z &t)
{
    typedef typename SR::Z Z;
    if constexpr (gcu_spgemm_needs_lock<SR>::v)
    {
        while (atomicCAS (lock, 0, 1) != 0) { }
        __threadfence_block ();
        volatile Z *vs = slot;
        Z cur;
        memcpy (&cur, (const void *) vs, sizeof (Z));
        cur = SR::is_any ? t : SR::add (cur, t);
        memcpy ((void *) vs, &cur, sizeof (Z));
        __threadfence_block ();
        atomicExch (lock, 0);
    }
    else if constexpr (sizeof (Z) == 4 || sizeof (Z) == 8)
    {
        typedef typename gcu_spgemm_pick<sizeof (Z) == 4, unsigned int, unsigned long long>::type U;
        if constexpr (SR::is_any)
        {
            atomicExch ((U *) slot, gcu_bits_of<U> (t));
        }
        else
        {
            U old = *(volatile U *) slot;
            while (true)
            {
                const U nu = gcu_bits_of<U> (SR::add (gcu_of_bits<Z> (old), t));
                const U prev = atomicCAS ((U *) slot, old, nu);
                if (prev == old) break;
                old = prev;
            }
        }
    }
    else
    {
        // 1- or 2-byte values: compare-and-swap the aligned word around them
        const size_t addr = (size_t) slot;
        unsigned int *word = (unsigned int *) (addr & ~(size_t) 3);
        const unsigned shift = (unsigned) (addr & 3) * 8;
        const unsigned mask = (sizeof (Z) == 1 ? 0xffu : 0xffffu) << shift;
        unsigned int old = *(volatile unsigned int *) word;
        while (true)
        {
            const unsigned short cur_bits = (unsigned short) ((old & mask) >> shift);
            Z cur; memcpy (&cur, &cur_bits, sizeof (Z));
            const Z nz = SR::is_any ? t : SR::add (cur, t);
            unsigned short nz_bits = 0; memcpy (&nz_bits, &nz, sizeof (Z));
            const unsigned int nu = (old & ~mask) | (((unsigned int) nz_bits << shift) & mask);
            const unsigned int prev = atomicCAS (word, old, nu);
            if (prev == old) break;
            old = prev;
        }
    }
}

// the product A(i,k) * B(k,j), operands at pa and pb
template <class SR>
__device__ __forceinline__ typename SR::Z gcu_spgemm_product (
    const typename SR::TA *__restrict__ Ax, const typename SR::TB *__restrict__ Bx,
    int64_t pa, int64_t pb, int64_t i, int64_t k, int64_t j)
{
    const typename SR::X a = gcu_sr_load<typename SR::X, typename SR::TA, SR::reads_x, SR::a_iso> (Ax, pa);
    const typename SR::Y b = gcu_sr_load<typename SR::Y, typename SR::TB, SR::reads_y, SR::b_iso> (Bx, pb);
    return SR::mult (a, b, i, k, j);
}

// Writes the entries of one table (H slots, walked by G threads) to row i of
// C in column order: an entry's position is its rank among the row's keys.
template <class SR>
__device__ __forceinline__ void gcu_spgemm_emit_sorted (const int32_t *keys,
    const typename SR::Z *vals, uint32_t H, int G, int t, int64_t cp,
    int32_t *__restrict__ Cj, typename SR::Z *__restrict__ Cx)
{
    for (uint32_t s = t ; s < H ; s += G)
    {
        const int32_t j = keys [s];
        if (j == GCU_SPGEMM_EMPTY) continue;
        int64_t rank = 0;
        for (uint32_t u = 0 ; u < H ; u++)
        {
            const int32_t k = keys [u];
            rank += (k != GCU_SPGEMM_EMPTY && k < j);
        }
        Cj [cp + rank] = j;
        Cx [cp + rank] = vals [s];
    }
}

// Shared-memory tables: as gcu_spgemm_symbolic_shared. Dynamic shared
// memory: R*H int32 keys, then (16-aligned) R*H values, then (16-aligned) R*H lock words
// when the value type needs them.
template <class SR, class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_numeric_shared (const int64_t *__restrict__ rows,
    int64_t nrows, const AI *__restrict__ Ap, const AI *__restrict__ Aj,
    const typename SR::TA *__restrict__ Ax, const BI *__restrict__ Bp,
    const BI *__restrict__ Bj, const typename SR::TB *__restrict__ Bx,
    const int64_t *__restrict__ Cp, int32_t *__restrict__ Cj,
    typename SR::Z *__restrict__ Cx, uint32_t H, int G, int TPB)
{
    typedef typename SR::Z Z;
    extern __shared__ __align__(16) unsigned char gcu_smem [];
    const int R = blockDim.x / G, r = threadIdx.x / G, t = threadIdx.x % G;
    int32_t *keys = (int32_t *) gcu_smem + (int64_t) r * H;
    const size_t vals_at = (((size_t) R * H * sizeof (int32_t)) + 15) & ~(size_t) 15;
    Z *vals = (Z *) (gcu_smem + vals_at) + (int64_t) r * H;
    const size_t locks_at = (vals_at + (size_t) R * H * sizeof (Z) + 15) & ~(size_t) 15;
    int32_t *locks = (int32_t *) (gcu_smem + locks_at) + (int64_t) r * H;
    const Z id = SR::identity ();
    for (uint32_t s = t ; s < H ; s += G)
    {
        keys [s] = GCU_SPGEMM_EMPTY;
        vals [s] = id;
        if constexpr (gcu_spgemm_needs_lock<SR>::v) locks [s] = 0;
    }
    __syncthreads ();
    const int64_t idx = (int64_t) blockIdx.x * R + r;
    const int64_t i = idx < nrows ? rows [idx] : -1;
    if (i >= 0)
    {
        gcu_spgemm_products (i, Ap, Aj, Bp, Bj, G, TPB, t,
            [&] (int64_t k, int64_t pa, int32_t j, int64_t pb)
            {
                bool created;
                const uint32_t s = gcu_spgemm_insert (keys, H, j, &created);
                gcu_spgemm_accum<SR> (&vals [s], &locks [s],
                    gcu_spgemm_product<SR> (Ax, Bx, pa, pb, i, k, j));
            });
    }
    __syncthreads ();
    if (i >= 0) gcu_spgemm_emit_sorted<SR> (keys, vals, H, G, t, Cp [i], Cj, Cx);
}

// Global-memory tables for the longest rows: one block per row, the table of
// row b at offs [b] (keys in gkeys, values in gvals, locks in glocks when
// needed). Entries are written unsorted; the host sorts these rows after.
template <class SR, class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_numeric_global (const int64_t *__restrict__ rows,
    const int64_t *__restrict__ offs, int32_t *__restrict__ gkeys,
    typename SR::Z *__restrict__ gvals, int32_t *__restrict__ glocks,
    const AI *__restrict__ Ap, const AI *__restrict__ Aj,
    const typename SR::TA *__restrict__ Ax, const BI *__restrict__ Bp,
    const BI *__restrict__ Bj, const typename SR::TB *__restrict__ Bx,
    const int64_t *__restrict__ Cp, int32_t *__restrict__ Cj,
    typename SR::Z *__restrict__ Cx, int TPB)
{
    typedef typename SR::Z Z;
    __shared__ unsigned long long pos;
    const int64_t b = blockIdx.x, i = rows [b];
    int32_t *keys = gkeys + offs [b];
    Z *vals = gvals + offs [b];
    int32_t *locks = gcu_spgemm_needs_lock<SR>::v ? glocks + offs [b] : glocks;
    const uint32_t H = (uint32_t) (offs [b + 1] - offs [b]);
    const Z id = SR::identity ();
    for (uint32_t s = threadIdx.x ; s < H ; s += blockDim.x)
    {
        keys [s] = GCU_SPGEMM_EMPTY;
        vals [s] = id;
        if constexpr (gcu_spgemm_needs_lock<SR>::v) locks [s] = 0;
    }
    if (threadIdx.x == 0) pos = 0;
    __syncthreads ();
    gcu_spgemm_products (i, Ap, Aj, Bp, Bj, (int) blockDim.x, TPB, (int) threadIdx.x,
        [&] (int64_t k, int64_t pa, int32_t j, int64_t pb)
        {
            bool created;
            const uint32_t s = gcu_spgemm_insert (keys, H, j, &created);
            gcu_spgemm_accum<SR> (&vals [s], &locks [s],
                gcu_spgemm_product<SR> (Ax, Bx, pa, pb, i, k, j));
        });
    __syncthreads ();
    const int64_t cp = Cp [i];
    for (uint32_t s = threadIdx.x ; s < H ; s += blockDim.x)
    {
        const int32_t j = keys [s];
        if (j == GCU_SPGEMM_EMPTY) continue;
        const int64_t p = cp + (int64_t) atomicAdd (&pos, 1ull);
        Cj [p] = j;
        Cx [p] = vals [s];
    }
}

#endif
