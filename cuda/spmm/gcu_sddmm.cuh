// gcu_sddmm.cuh — SDDMM, C<M> = A*B with A and B dense (X*Y'): one dot
// product of length k a mask entry, generic in the semiring SR and
// instantiated by the JIT (src/spmm/jit_spmm.c, gcu_spmm_jit.cuh).
//
// A sub-group of S lanes (a.G: a power of two, at most a warp) takes runs
// of a.seg consecutive mask entries (a multiple of B) in a grid-stride
// loop, finds a run's first row by a search of its lanes, walks the rows
// from there, and goes through the run B entries at a time (a batch). The
// host launches no more blocks than stay resident, so that the entries in
// flight are a narrow band of the mask and the rows of B they gather (a
// banded matrix's neighbours) are still in L2 when the next rows need them. Every lane works on
// every entry of the batch, over the terms lane*VEC, lane*VEC + S*VEC, ...
// (VEC consecutive terms in one vector load of A's row and one of B's
// column, where they are contiguous), and keeps one partial value an entry:
// B of them. The entries are loaded U = UNROLL at a time (U loads
// of B's columns in flight a lane); A's row is loaded again only where an
// entry's row differs from the one before it.
//
// The batch's partial values are then summed by a reduce-scatter over the
// sub-group (Hong et al. 2019 reduce a dot product over a warp; here a warp
// reduces many at once): at each step a lane keeps half of its values,
// hands the other half to its partner (lane ^ o: a shuffle) and adds the
// partner's copy of the half it kept. After min (log2 B, log2 S) steps of
// B/2, B/4, ... shuffles a lane holds the whole sums of B/S entries
// (B >= S), or the sum of one entry over S/B lanes, which log2 (S/B) more
// shuffles of one value finish (B < S). A batch takes about B shuffles
// where one dot product at a time takes log2 S an entry, and its stores are
// coalesced. Any monoid folds so (GraphBLAS monoids are associative and
// commutative).
//
// A mask of short rows may go by rows instead (gcu_sddmm_rows, at the end):
// a sub-group a row, no search, the next row's indices and A's row loaded
// ahead; the batches are reduced and stored the same way (gcu_sddmm_reduce,
// gcu_sddmm_store).
//
// NAT (PLUS_TIMES on one floating type, src/spmm/jit_spmm.c's
// gcu_sddmm_nat_ok): a batch is summed with the GPU's own + and *
// (gcu_sddmm_nat: the same operations in the same order, so the same
// roundings, the JIT compiling without contraction) rather than the
// semiring's operators, whose every operation checks for a NaN to give the
// host's (gcu_host_nan: compares, a select, a branch a term, which made the
// kernel wait on instruction issue). A NaN on the way stays NaN to the end
// under + and *, so the batch's sums are checked once and a batch holding
// one is summed again with the semiring's operators (the host's NaN).
//
// Results are positional like the masked dot family's (cuda/masked/):
// Cx [e], Cb [e] for the mask's e-th entry; a valued mask's false entry
// gets Cb [e] = 0. Positions for the positional operators: A(i,c) * B(c,j)
// is at (i, c, j).
#ifndef GCU_SDDMM_CUH
#define GCU_SDDMM_CUH

#include "common/gcu_semiring.cuh"
#include "spmm/gcu_spmm_policy.h"
#include "spmm/gcu_spmm_args.h"
#include "spmm/gcu_spmm.cuh"

// w * n / d for 0 <= n <= d <= 33: in 32 bits where w * d fits (a 64-bit
// division takes several times the instructions of the search's other steps)
__device__ __forceinline__ int64_t gcu_sddmm_part (int64_t w, int n, int d)
{
    if (w <= (int64_t) (0xffffffffu / 33u))
        return (int64_t) (((uint32_t) w * (uint32_t) n) / (uint32_t) d);
    return w * n / d;
}

// The row of mask entry e (e < Mp [m]): the last i with Mp [i] <= e, so
// that an empty row is never the answer. An (S+1)-ary search by the S lanes
// of a sub-group: each step probes S rows at once (a ballot says how many
// start at or before e) and narrows [lo, hi) about S+1 times, so that a run
// of a few batches can afford its own search (log_{S+1} m steps of one load
// a lane; 4 for a million rows and 32 lanes).
template <class I>
__device__ __forceinline__ int64_t gcu_sddmm_row_of (const I *__restrict__ Mp, int64_t m,
    int64_t e, int S, int lane, unsigned smask)
{
    const unsigned base = (unsigned) (threadIdx.x % 32u) & ~((unsigned) S - 1u);
    const unsigned all = (S == 32) ? 0xffffffffu : ((1u << S) - 1u);
    int64_t lo = 0, hi = m;             // Mp [lo] <= e < Mp [hi]
    while (hi - lo > 1)
    {
        // probes lo <= p_0 <= ... <= p_{S-1} < hi, the last above lo
        const int64_t w = hi - lo;
        const int64_t p = lo + gcu_sddmm_part (w, lane + 1, S + 1);
        const unsigned le = (__ballot_sync (smask, (int64_t) Mp [p] <= e) >> base) & all;
        const int c = __popc (le);      // probes 0 .. c-1 at or before e
        const int64_t l0 = lo;
        if (c > 0) lo = l0 + gcu_sddmm_part (w, c, S + 1);
        if (c < S) hi = l0 + gcu_sddmm_part (w, c + 1, S + 1);
    }
    return lo;
}

// v from the lane `lane ^ off` of the same segment of width lanes, any
// type: shuffled as 4-byte words
template <class Z>
__device__ __forceinline__ Z gcu_shfl_xor_any (unsigned mask, const Z &v, int off, int width)
{
    constexpr int W = (int) ((sizeof (Z) + 3) / 4);
    unsigned w [W] = {};
    Z r;
    memcpy (w, &v, sizeof (Z));
    for (int q = 0 ; q < W ; q++) w [q] = __shfl_xor_sync (mask, w [q], off, width);
    memcpy (&r, w, sizeof (Z));
    return r;
}

// log2 of a power of two, at compile time
GCU_HD constexpr int gcu_sddmm_log2 (int b) { return b <= 1 ? 0 : 1 + gcu_sddmm_log2 (b / 2); }

// SR with the GPU's own + and * (NAT: SR is PLUS_TIMES on one floating
// type): the values of SR's operators wherever no NaN arises, a NaN's sign
// and payload the GPU's
template <class SR>
struct gcu_sddmm_nat : SR
{
    typedef typename SR::Z Z;
    static GCU_HD Z add (const Z &x, const Z &y) { return x + y; }
    static GCU_HD Z mult (const typename SR::X &x, const typename SR::Y &y, int64_t, int64_t,
        int64_t)
    {
        return x * y;
    }
};

// the semiring a batch is first summed with: NAT's native one, or SR
template <class SR, bool NAT> struct gcu_sddmm_sum { typedef SR type; };
template <class SR> struct gcu_sddmm_sum<SR, true> { typedef gcu_sddmm_nat<SR> type; };

// true where one of the lane's nb sums of a batch (p [0 .. nb-1]) is a NaN
template <class Z, int B>
__device__ __forceinline__ bool gcu_sddmm_has_nan (const Z (&p) [B], int nb)
{
    bool nan = false;
    #pragma unroll
    for (int q = 0 ; q < B ; q++) nan |= q < nb && p [q] != p [q];
    return nan;
}

// The VEC terms of one load of A's row i and one of B's column j, from
// term c0: A(i,c0+v) * B(c0+v,j) folded
template <class SR, int VEC>
__device__ __forceinline__ typename SR::Z gcu_sddmm_terms (
    const gcu_pack<typename SR::TA, VEC> &x, const gcu_pack<typename SR::TB, VEC> &y, int64_t i,
    int64_t c0, int64_t j)
{
    typedef typename SR::TA TA;
    typedef typename SR::TB TB;
    typename SR::Z t = SR::mult (gcu_spmm_in<typename SR::X, TA, SR::reads_x> (x.v [0]),
        gcu_spmm_in<typename SR::Y, TB, SR::reads_y> (y.v [0]), i, c0, j);
    #pragma unroll
    for (int v = 1 ; v < VEC ; v++)
        t = SR::add (t, SR::mult (gcu_spmm_in<typename SR::X, TA, SR::reads_x> (x.v [v]),
            gcu_spmm_in<typename SR::Y, TB, SR::reads_y> (y.v [v]), i, c0 + v, j));
    return t;
}

// The reduce-scatter's steps T .. ts-1: step t keeps half of a lane's
// values (the upper half where the lane's bit o = S >> (t+1) is set), its
// partner lane ^ o keeps the other. A step a template instance, so that p
// is indexed by constants only and stays in registers.
template <class SR, int B, int T = 0>
__device__ __forceinline__ void gcu_sddmm_halve (typename SR::Z (&p) [B], int ts, int S,
    int lane, unsigned smask)
{
    typedef typename SR::Z Z;
    if constexpr ((1 << T) < B)
    {
        if (T < ts)
        {
            constexpr int h = B >> (T + 1);
            const int o = S >> (T + 1);
            const bool up = (lane & o) != 0;
            #pragma unroll
            for (int q = 0 ; q < h ; q++)
            {
                const Z lo = p [q], hi = p [q + h];
                const Z send = up ? lo : hi, keep = up ? hi : lo;
                p [q] = SR::add (keep, gcu_shfl_xor_any (smask, send, o, S));
            }
        }
        gcu_sddmm_halve<SR, B, T + 1> (p, ts, S, lane, smask);
    }
}

// A batch's sums: the B partial values of the entries eb, eb+1, ... of
// every lane summed over the sub-group (the reduce-scatter, then the lanes
// of an entry where B < S); a lane then holds the sums of B >> ts entries
// from (lane >> sh) * (B >> ts), sh = log2 S - ts, in p [0 ..]
template <class SR, int B>
__device__ __forceinline__ void gcu_sddmm_reduce (typename SR::Z (&p) [B], int ts, int S,
    int lane, unsigned smask)
{
    int ls = 0;
    while ((1 << ls) < S) ls++;
    const int sh = ls - ts;
    gcu_sddmm_halve<SR, B> (p, ts, S, lane, smask);
    // B < S: the 1 << sh lanes of an entry sum it
    for (int o = (1 << sh) / 2 ; o > 0 ; o /= 2)
        p [0] = SR::add (p [0], gcu_shfl_xor_any (smask, p [0], o, S));
}

// A batch's end: its sums (gcu_sddmm_reduce) stored, those before e1, by
// the first lane of each entry; a valued mask's false entry gets its flag 0
// and no value.
template <class SR, int B>
__device__ __forceinline__ void gcu_sddmm_store (const typename SR::Z (&p) [B], int ts, int S,
    int lane, int64_t eb, int64_t e1, const gcu_spmm_args &a)
{
    int ls = 0;
    while ((1 << ls) < S) ls++;
    const int sh = ls - ts, nb = B >> ts;
    // the lane's nb entries, from (lane >> sh) * nb, by its first lane of
    // the entry
    if ((lane & ((1 << sh) - 1)) != 0) return;
    const typename SR::TM *__restrict__ Mx = (const typename SR::TM *) a.Mx;
    typename SR::TC *__restrict__ Cx = (typename SR::TC *) a.Cx;
    #pragma unroll
    for (int q = 0 ; q < B ; q++)
    {
        const int64_t e = eb + (int64_t) (lane >> sh) * nb + q;
        if (q < nb && e < e1)
        {
            bool keep = true;
            if constexpr (SR::m_valued) keep = gcu_mask_true (Mx [SR::m_iso ? 0 : e]);
            if (keep) Cx [e] = gcu_cast<typename SR::TC> (p [q]);
            a.Cb [e] = keep ? 1 : 0;
        }
    }
}

// The partial values p of a batch of B entries from eb (those past e1: its
// last entry again, computed and not stored), a run's batch: the entries'
// rows by walking on from row i (iend = Mp [i+1]; both left at the batch's
// last entry's row), U entries' loads in flight
template <class SR, class MI, int VEC, int B, int U>
__device__ __forceinline__ void gcu_sddmm_run_terms (typename SR::Z (&p) [B],
    const gcu_spmm_args &a, int64_t eb, int64_t e1, int64_t &i, int64_t &iend, int lane)
{
    typedef typename SR::Z Z;
    typedef typename SR::TA TA;
    typedef typename SR::TB TB;
    const MI *__restrict__ Mp = (const MI *) a.Mp;
    const MI *__restrict__ Mj = (const MI *) a.Mj;
    const TA *__restrict__ X = (const TA *) a.X;
    const TB *__restrict__ Y = (const TB *) a.Y;
    const int S = a.G;
    const int64_t k = a.n;
    #pragma unroll
    for (int u0 = 0 ; u0 < B ; u0 += U)
    {
        int64_t ii [U];
        MI jj [U];
        #pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            const int64_t e = (eb + u0 + u < e1) ? eb + u0 + u : e1 - 1;
            while (e >= iend) iend = (int64_t) Mp [++i + 1];
            ii [u] = i;
            jj [u] = Mj [e];
        }
        for (int64_t c0 = (int64_t) lane * VEC ; c0 < k ; c0 += (int64_t) S * VEC)
        {
            gcu_pack<TA, VEC> x [U];
            gcu_pack<TB, VEC> y [U];
            #pragma unroll
            for (int u = 0 ; u < U ; u++)
            {
                if (u > 0 && ii [u] == ii [u - 1]) x [u] = x [u - 1];
                else x [u] = gcu_pack_load<TA, VEC> (X, ii [u] * a.xrs + c0 * a.xcs, a.xcs);
                y [u] = gcu_pack_load<TB, VEC> (Y, c0 * a.yrs + (int64_t) jj [u] * a.ycs,
                    a.yrs);
            }
            #pragma unroll
            for (int u = 0 ; u < U ; u++)
            {
                const Z t = gcu_sddmm_terms<SR, VEC> (x [u], y [u], ii [u], c0, (int64_t) jj [u]);
                p [u0 + u] = (c0 == (int64_t) lane * VEC) ? t : SR::add (p [u0 + u], t);
            }
        }
    }
}

// SDDMM by batches of B entries a sub-group of a.G lanes, reduce-scattered;
// NAT: summed with gcu_sddmm_nat<SR>, a batch holding a NaN again with SR
template <class SR, class MI, int VEC, int B, int UNROLL = GCU_SDDMM_UNROLL, bool NAT = false>
__device__ __forceinline__ void gcu_sddmm_scatter (const gcu_spmm_args &a)
{
    typedef typename SR::Z Z;
    typedef typename gcu_sddmm_sum<SR, NAT>::type SN;
    static_assert (B >= 1 && B <= 32 && (B & (B - 1)) == 0, "B a power of two, at most 32");
    constexpr int U = B < UNROLL ? B : UNROLL;
    constexpr int LB = gcu_sddmm_log2 (B);
    const MI *__restrict__ Mp = (const MI *) a.Mp;
    const int S = a.G;
    int ls = 0;
    while ((1 << ls) < S) ls++;
    const int lane = (int) (threadIdx.x % (unsigned) S);
    const unsigned smask = gcu_group_mask (S);
    // the reduce-scatter's steps that halve a lane's values
    const int ts = LB < ls ? LB : ls;
    const int64_t nsub = ((int64_t) gridDim.x * blockDim.x) / S;
    const int64_t nruns = (a.mnvals + a.seg - 1) / a.seg;
    for (int64_t r = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / S ; r < nruns ; r += nsub)
    {
        const int64_t e0 = r * a.seg;
        const int64_t e1 = (e0 + a.seg < a.mnvals) ? e0 + a.seg : a.mnvals;
        int64_t i = gcu_sddmm_row_of (Mp, a.m, e0, S, lane, smask);
        int64_t iend = (int64_t) Mp [i + 1];
        for (int64_t eb = e0 ; eb < e1 ; eb += B)
        {
            Z p [B];
            int64_t i0 = i, iend0 = iend;   // the walk's start, for a batch summed again
            gcu_sddmm_run_terms<SN, MI, VEC, B, U> (p, a, eb, e1, i, iend, lane);
            gcu_sddmm_reduce<SN, B> (p, ts, S, lane, smask);
            if constexpr (NAT)
            {
                if (__any_sync (smask, gcu_sddmm_has_nan<Z, B> (p, B >> ts)))
                {
                    gcu_sddmm_run_terms<SR, MI, VEC, B, U> (p, a, eb, e1, i0, iend0, lane);
                    gcu_sddmm_reduce<SR, B> (p, ts, S, lane, smask);
                }
            }
            gcu_sddmm_store<SR, B> (p, ts, S, lane, eb, e1, a);
        }
    }
}

// A pack of VEC values at x + p; HINT: loaded to be evicted first (X's
// rows are read once: the hint keeps L2 for the rows of Y that the next
// rows gather again; on an H100 ld.global.cs made no difference). A pack
// of 8 or 16 bytes loads as one PTX load with an L2 evict-first policy and
// no L1 line; others as usual.
template <class T, int VEC, bool HINT>
__device__ __forceinline__ gcu_pack<T, VEC> gcu_sddmm_load (const T *__restrict__ x, int64_t p)
{
    typedef gcu_pack<T, VEC> P;
#if defined(__CUDA_ARCH__)
    if constexpr (HINT && sizeof (P) == 16 && alignof (P) >= 16)
    {
        unsigned w [4];
        uint64_t pol;
        asm ("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l" (pol));
        asm ("ld.global.L1::no_allocate.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
            : "=r" (w [0]), "=r" (w [1]), "=r" (w [2]), "=r" (w [3]) : "l" (x + p), "l" (pol));
        P r;
        memcpy (&r, w, sizeof (P));
        return r;
    }
    else if constexpr (HINT && sizeof (P) == 8 && alignof (P) >= 8)
    {
        unsigned w [2];
        uint64_t pol;
        asm ("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l" (pol));
        asm ("ld.global.L1::no_allocate.L2::cache_hint.v2.u32 {%0, %1}, [%2], %3;"
            : "=r" (w [0]), "=r" (w [1]) : "l" (x + p), "l" (pol));
        P r;
        memcpy (&r, w, sizeof (P));
        return r;
    }
#endif
    return gcu_pack_load<T, VEC> (x, p, 1);
}

// The column of mask entry e0 + lane % B of a row ending at e1 > e0 (past
// the end: the row's last column), a lane's share of a batch's columns
template <class MI, int B>
__device__ __forceinline__ MI gcu_sddmm_col (const MI *__restrict__ Mj, int64_t e0, int64_t e1,
    int lane)
{
    const int64_t e = e0 + (lane % B);
    return Mj [e < e1 ? e : e1 - 1];
}

// The partial values p of a batch of row i's entries eb .. (their columns
// jj; those past e1: the batch's first again, computed and not stored),
// the lane's terms from cl: A's row in x where one load holds them (one),
// else loaded a chunk at a time; the B entries' loads of B at once
template <class SR, class MI, int VEC, int B, bool HINT>
__device__ __forceinline__ void gcu_sddmm_row_terms (typename SR::Z (&p) [B],
    const gcu_spmm_args &a, const gcu_pack<typename SR::TA, VEC> &x, bool one, int64_t i,
    int64_t cl, int64_t eb, int64_t e1, const MI (&jj) [B])
{
    typedef typename SR::Z Z;
    typedef typename SR::TA TA;
    typedef typename SR::TB TB;
    const TA *__restrict__ X = (const TA *) a.X;
    const TB *__restrict__ Y = (const TB *) a.Y;
    const int64_t k = a.n, step = (int64_t) a.G * VEC;
    for (int64_t c0 = cl ; c0 < k ; c0 += step)
    {
        const gcu_pack<TA, VEC> xc = one ? x
            : gcu_sddmm_load<TA, VEC, HINT> (X, i * a.xrs + c0 * a.xcs);
        gcu_pack<TB, VEC> y [B];
        #pragma unroll
        for (int u = 0 ; u < B ; u++)
            y [u] = (u == 0 || eb + u < e1)
                ? gcu_pack_load<TB, VEC> (Y, c0 * a.yrs + (int64_t) jj [u] * a.ycs, a.yrs)
                : y [0];
        #pragma unroll
        for (int u = 0 ; u < B ; u++)
        {
            const Z t = gcu_sddmm_terms<SR, VEC> (xc, y [u], i, c0, (int64_t) jj [u]);
            p [u] = (c0 == cl) ? t : SR::add (p [u], t);
        }
    }
}

// SDDMM by rows, for a mask of short rows (a mesh, a band): a sub-group of
// a.G lanes takes the rows i, i + nsub, ... (the rows in flight a narrow
// band of the mask, as the runs are, so that the rows of B a row gathers
// are in L2 for its neighbours), and a row B <= a.G entries at a time: lane
// u loads the column of the batch's entry u (one load, no search),
// shuffles hand them to the sub-group, and the B entries' loads of B's
// columns go out at once; the batch is reduce-scattered as the runs'
// batches are. Where a lane's terms of A's row are one load (k <= a.G *
// VEC) the row stays in registers and the next row's is loaded ahead, as
// are the next row's first batch's columns and the extent of the row after
// it: a row waits on one round of loads, not on a chain of index, row and
// column loads.
// HINT: A's rows loaded to be evicted first. NAT: as gcu_sddmm_scatter's.
template <class SR, class MI, int VEC, int B, bool HINT, bool NAT = false>
__device__ __forceinline__ void gcu_sddmm_rows (const gcu_spmm_args &a)
{
    typedef typename SR::Z Z;
    typedef typename SR::TA TA;
    typedef typename gcu_sddmm_sum<SR, NAT>::type SN;
    typedef gcu_pack<TA, VEC> PA;
    static_assert (B >= 1 && B <= 32 && (B & (B - 1)) == 0, "B a power of two, at most 32");
    constexpr int LB = gcu_sddmm_log2 (B);
    const MI *__restrict__ Mp = (const MI *) a.Mp;
    const MI *__restrict__ Mj = (const MI *) a.Mj;
    const TA *__restrict__ X = (const TA *) a.X;
    const int S = a.G;
    int ls = 0;
    while ((1 << ls) < S) ls++;
    const int ts = LB < ls ? LB : ls;
    const int lane = (int) (threadIdx.x % (unsigned) S);
    const unsigned smask = gcu_group_mask (S);
    const int64_t k = a.n, m = a.m, cl = (int64_t) lane * VEC;
    const bool one = k <= (int64_t) S * VEC;
    const int64_t nsub = ((int64_t) gridDim.x * blockDim.x) / S;
    int64_t i = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / S;
    if (i >= m) return;
    // the row's extent [p0, p1) and the next row's [q0, q1) (past the last
    // row: empty), the row's first columns and A's row
    MI p0 = Mp [i], p1 = Mp [i + 1], q0 = p1, q1 = p1;
    if (i + nsub < m) { q0 = Mp [i + nsub]; q1 = Mp [i + nsub + 1]; }
    MI jn = 0;
    if (p1 > p0) jn = gcu_sddmm_col<MI, B> (Mj, p0, p1, lane);
    PA xn {};
    if (one && cl < k) xn = gcu_sddmm_load<TA, VEC, HINT> (X, i * a.xrs + cl * a.xcs);
    for ( ; i < m ; i += nsub)
    {
        // loaded ahead, while this row waits on its loads: the next row's
        // first columns and A's row, and the extent of the row after it
        const int64_t in = i + nsub, in2 = in + nsub;
        MI jl = jn;
        if (q1 > q0) jn = gcu_sddmm_col<MI, B> (Mj, q0, q1, lane);
        MI r0 = q1, r1 = q1;
        if (in2 < m) { r0 = Mp [in2]; r1 = Mp [in2 + 1]; }
        const PA x = xn;
        if (one && in < m && cl < k) xn = gcu_sddmm_load<TA, VEC, HINT> (X, in * a.xrs + cl * a.xcs);
        const int64_t e1 = (int64_t) p1;
        for (int64_t eb = (int64_t) p0 ; eb < e1 ; eb += B)
        {
            if (eb > (int64_t) p0) jl = gcu_sddmm_col<MI, B> (Mj, eb, e1, lane);
            // the batch's columns from their lanes (before the loop over
            // the terms: a lane's chunks of them may be fewer than another's)
            MI jj [B];
            #pragma unroll
            for (int u = 0 ; u < B ; u++) jj [u] = __shfl_sync (smask, jl, u, S);
            Z p [B];
            gcu_sddmm_row_terms<SN, MI, VEC, B, HINT> (p, a, x, one, i, cl, eb, e1, jj);
            gcu_sddmm_reduce<SN, B> (p, ts, S, lane, smask);
            if constexpr (NAT)
            {
                if (__any_sync (smask, gcu_sddmm_has_nan<Z, B> (p, B >> ts)))
                {
                    gcu_sddmm_row_terms<SR, MI, VEC, B, HINT> (p, a, x, one, i, cl, eb, e1, jj);
                    gcu_sddmm_reduce<SR, B> (p, ts, S, lane, smask);
                }
            }
            gcu_sddmm_store<SR, B> (p, ts, S, lane, eb, e1, a);
        }
        p0 = q0; p1 = q1; q0 = r0; q1 = r1;
    }
}

#endif
