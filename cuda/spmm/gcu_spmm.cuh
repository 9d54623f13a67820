// gcu_spmm.cuh — products with dense operands, generic in the semiring SR
// and instantiated by the JIT (src/spmm/jit_spmm.c):
//
//   SpMM    C = A*X, A sparse by row, X dense n columns (DESIGN §4). Row i of
//           C is full when row i of A has an entry, empty otherwise; its
//           values go to Cx [rank (i) * n ...] (rank: i's place among the
//           non-empty rows), so C is CSR with a pattern known beforehand
//           (src/spmm/plan.cu). Each row of A is cut into segments of at
//           most `seg` entries (a power-law row spreads over many groups);
//           a group of G lanes takes a segment, the lanes over the columns
//           of X, VEC consecutive columns a lane in one vector load (X by
//           row). A row of one segment is written to Cx directly; the
//           segments of a longer row write partial rows to W, which
//           gcu_spmm_fold then reduces (in segment order) into Cx. A lane
//           holds CH chunks of VEC columns (register blocking) and walks
//           the entries unrolled (GCU_SPMM_UNROLL loads of X in flight).
//   rows    gcu_spmm_rows: a group a whole row of at most rmax entries or
//           a segment of a longer row (partial rows folded as above), A's
//           entries loaded G at once and passed round by shuffles, rows in
//           the plan's order (by length where it sorts them), optionally in
//           column slices.
//   ASpT    (Hong et al. 2019) gcu_spmm_tiled: A's rows in panels, each
//           row's entries reordered (src/spmm/aspt.c) so that those of the
//           panel's heavy columns come first, tile by tile; a block stages
//           a tile's rows of X in shared memory and its groups add the
//           rows' entries of the tile from there, then the rest row-wise.
//           Rows too long for a panel take the segments.
//   SDDMM   (C<M> = X*Y') has its own kernel, cuda/spmm/gcu_sddmm.cuh, which
//           uses the vector loads and lane groups here.
//
// The host picks G so that every lane has at least one column: G*VEC <= n.
// Positions for the positional operators: A(i,kk) * X(kk,j) is at
// (i, kk, j).
#ifndef GCU_SPMM_CUH
#define GCU_SPMM_CUH

#include "common/gcu_semiring.cuh"
#include "spmm/gcu_spmm_policy.h"
#include "spmm/gcu_spmm_args.h"
#include "spmm/gcu_spmm_item.cuh"
#include "spmm/gcu_spmm_load.cuh"

// the lanes of a group of G within its warp (G a power of two, at most 32)
__device__ __forceinline__ unsigned gcu_group_mask (int G)
{
    const unsigned base = (unsigned) (threadIdx.x % 32u) & ~((unsigned) G - 1u);
    return (G == 32) ? 0xffffffffu : (((1u << G) - 1u) << base);
}

// v from another lane of its segment of width lanes, any type, shuffled as
// 4-byte words: from lane `at` of the segment, or (DOWN) from `at` lanes above
template <bool DOWN, class Z>
__device__ __forceinline__ Z gcu_shfl_words (unsigned mask, const Z &v, int at, int width)
{
    constexpr int W = (int) ((sizeof (Z) + 3) / 4);
    unsigned w [W] = {};
    Z r;
    memcpy (w, &v, sizeof (Z));
    for (int q = 0 ; q < W ; q++)
        w [q] = DOWN ? __shfl_down_sync (mask, w [q], (unsigned) at, width)
                     : __shfl_sync (mask, w [q], at, width);
    memcpy (&r, w, sizeof (Z));
    return r;
}

// v from lane src of its segment of width lanes, any type
template <class Z>
__device__ __forceinline__ Z gcu_shfl_any (unsigned mask, const Z &v, int src, int width)
{
    return gcu_shfl_words<false> (mask, v, src, width);
}

// the operand value cast to the operator's input type (not read when the
// operator ignores it)
template <class T, class TX, bool READS>
__device__ __forceinline__ T gcu_spmm_in (const TX &x)
{
    if constexpr (READS) return gcu_cast<T> (x);
    else return T ();
}

// acc [v] (+)= A(i,kk) * X(kk, c0+v); first: acc holds nothing yet
template <class SR, int VEC>
__device__ __forceinline__ void gcu_spmm_term (typename SR::Z (&acc) [VEC], bool first,
    const typename SR::X &a, const gcu_pack<typename SR::TB, VEC> &y, int64_t i,
    int64_t kk, int64_t c0)
{
    for (int v = 0 ; v < VEC ; v++)
    {
        const typename SR::Z t = SR::mult (a,
            gcu_spmm_in<typename SR::Y, typename SR::TB, SR::reads_y> (y.v [v]), i, kk, c0 + v);
        acc [v] = first ? t : SR::add (acc [v], t);
    }
}

// The entries q0 <= q < q1 of a row i of A (column kk = J [q], value
// V [q], J of index type JI) times X into acc, for the lane's CH chunks of
// VEC columns at cc [h] (each a valid column: the caller clamps a lane past
// the last column onto it and does not store it). first: acc holds nothing
// yet. Unrolled by GCU_SPMM_UNROLL entries, so that a lane has that many
// loads of X in flight instead of one load of A then one of X at a time.
template <class SR, class JI, int VEC, int CH>
__device__ __forceinline__ void gcu_spmm_rowpart (typename SR::Z (&acc) [CH][VEC], bool first,
    const gcu_spmm_args &a, const JI *__restrict__ J, const typename SR::TA *__restrict__ V,
    int64_t i, int64_t q0, int64_t q1, const int64_t (&cc) [CH])
{
    typedef typename SR::TB TB;
    typedef typename SR::X XT;
    constexpr int U = GCU_SPMM_UNROLL;
    const TB *__restrict__ Xd = (const TB *) a.X;
    int64_t q = q0;
    if (first && q < q1)
    {
        const int64_t kk = (int64_t) J [q];
        const XT x = gcu_sr_load<XT, typename SR::TA, SR::reads_x, SR::a_iso> (V, q);
        for (int h = 0 ; h < CH ; h++)
            gcu_spmm_term<SR, VEC> (acc [h], true, x,
                gcu_pack_load<TB, VEC> (Xd, kk * a.xrs + cc [h] * a.xcs, a.xcs), i, kk, cc [h]);
        q++;
    }
    for ( ; q + U <= q1 ; q += U)
    {
        int64_t kk [U];
        XT x [U];
        gcu_pack<TB, VEC> y [U][CH];
        #pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            kk [u] = (int64_t) J [q + u];
            x [u] = gcu_sr_load<XT, typename SR::TA, SR::reads_x, SR::a_iso> (V, q + u);
        }
        #pragma unroll
        for (int u = 0 ; u < U ; u++)
            #pragma unroll
            for (int h = 0 ; h < CH ; h++)
                y [u][h] = gcu_pack_load<TB, VEC> (Xd, kk [u] * a.xrs + cc [h] * a.xcs, a.xcs);
        #pragma unroll
        for (int u = 0 ; u < U ; u++)
            #pragma unroll
            for (int h = 0 ; h < CH ; h++)
                gcu_spmm_term<SR, VEC> (acc [h], false, x [u], y [u][h], i, kk [u], cc [h]);
    }
    for ( ; q < q1 ; q++)
    {
        const int64_t kk = (int64_t) J [q];
        const XT x = gcu_sr_load<XT, typename SR::TA, SR::reads_x, SR::a_iso> (V, q);
        for (int h = 0 ; h < CH ; h++)
            gcu_spmm_term<SR, VEC> (acc [h], false, x,
                gcu_pack_load<TB, VEC> (Xd, kk * a.xrs + cc [h] * a.xcs, a.xcs), i, kk, cc [h]);
    }
}


// the lane's chunks of a super-chunk starting at column base: cc [h] the
// columns (clamped to the last VEC), live [h] whether they exist
template <int VEC, int CH>
__device__ __forceinline__ void gcu_spmm_chunks (int64_t (&cc) [CH], bool (&live) [CH],
    int64_t base, int G, int lane, int64_t n)
{
    for (int h = 0 ; h < CH ; h++)
    {
        const int64_t c = base + ((int64_t) h * G + lane) * VEC;
        live [h] = c < n;
        cc [h] = live [h] ? c : n - VEC;
    }
}

// acc into Cx's row (rank r) at the lane's live chunks; accumulate: add
// Cx's earlier value first
template <class SR, int VEC, int CH>
__device__ __forceinline__ void gcu_spmm_put (typename SR::Z (&acc) [CH][VEC], const gcu_spmm_args &a,
    int64_t r, const int64_t (&cc) [CH], const bool (&live) [CH], bool accumulate)
{
    typedef typename SR::TC TC;
    for (int h = 0 ; h < CH ; h++)
    {
        if (!live [h]) continue;
        const int64_t at = r * a.n + cc [h];
        gcu_pack<TC, VEC> o;
        if (accumulate)
        {
            const gcu_pack<TC, VEC> old = gcu_pack_load<TC, VEC> ((const TC *) a.Cx, at, 1);
            for (int v = 0 ; v < VEC ; v++)
                o.v [v] = gcu_cast<TC> (SR::add (gcu_cast<typename SR::Z> (old.v [v]), acc [h][v]));
        }
        else for (int v = 0 ; v < VEC ; v++) o.v [v] = gcu_cast<TC> (acc [h][v]);
        gcu_pack_store<TC, VEC> ((TC *) a.Cx, at, o);
    }
}

// SpMM over the segments: a grid-stride loop of groups of G lanes, each
// lane CH chunks of VEC columns a pass over the segment's entries
template <class SR, class AI, int VEC, int CH>
__device__ __forceinline__ void gcu_spmm_segments (const gcu_spmm_args &a)
{
    typedef typename SR::Z Z;
    const int G = a.G;
    const int lane = (int) (threadIdx.x % (unsigned) G);
    const int64_t ngroups = ((int64_t) gridDim.x * blockDim.x) / G;
    const int64_t n = a.n;
    for (int64_t s = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / G ; s < a.nseg ; s += ngroups)
    {
        const int64_t i = a.segrow [s];
        const int64_t t = s - a.segoff [i];
        const bool whole = a.segoff [i + 1] - a.segoff [i] == 1;
        const int64_t p0 = (int64_t) ((const AI *) a.Ap) [i] + t * a.seg;
        const int64_t pe = (int64_t) ((const AI *) a.Ap) [i + 1];
        const int64_t p1 = (p0 + a.seg < pe) ? p0 + a.seg : pe;
        for (int64_t base = 0 ; base < n ; base += (int64_t) G * VEC * CH)
        {
            int64_t cc [CH];
            bool live [CH];
            gcu_spmm_chunks<VEC, CH> (cc, live, base, G, lane, n);
            if (!live [0]) break;
            Z acc [CH][VEC];
            gcu_spmm_rowpart<SR, AI, VEC, CH> (acc, true, a, (const AI *) a.Aj,
                (const typename SR::TA *) a.Ax, i, p0, p1, cc);
            if (whole) gcu_spmm_put<SR, VEC, CH> (acc, a, a.rank [i], cc, live, false);
            else
            {
                for (int h = 0 ; h < CH ; h++)
                {
                    if (!live [h]) continue;
                    gcu_pack<Z, VEC> o;
                    for (int v = 0 ; v < VEC ; v++) o.v [v] = acc [h][v];
                    gcu_pack_store<Z, VEC> ((Z *) a.W, (a.heavyoff [i] + t) * n + cc [h], o);
                }
            }
        }
    }
}


// acc [v] (+)= A(i,kk) * X(kk, c0+v) as gcu_spmm_term, or where NAT (the
// semiring is PLUS_TIMES on one floating type: the host's choice) with
// the GPU's own arithmetic: the same values wherever no NaN arises (the
// same roundings: the JIT compiles without contraction), without
// gcu_host_nan's check after every operation. A NaN on the way stays NaN
// to the end under PLUS and TIMES, so the caller checks the sums once and
// recomputes a row that has one with gcu_spmm_term (the host's NaN).
template <class SR, int VEC, bool NAT>
__device__ __forceinline__ void gcu_spmm_term_nat (typename SR::Z (&acc) [VEC], bool first,
    bool add, const typename SR::X &a, const gcu_pack<typename SR::TB, VEC> &y, int64_t i,
    int64_t kk, int64_t c0)
{
    if constexpr (NAT)
    {
        for (int v = 0 ; v < VEC ; v++)
        {
            const typename SR::Z t = a * gcu_spmm_in<typename SR::Y, typename SR::TB, SR::reads_y> (y.v [v]);
            acc [v] = first ? t : add ? acc [v] + t : acc [v];
        }
    }
    else if (add) gcu_spmm_term<SR, VEC> (acc, first, a, y, i, kk, c0);
}

// The row kernel's sums: entries p0 .. p1-1 of row i of A times X into
// acc (the lane's CH chunks of VEC columns at cc [h], X's row kk at xc [h]
// + kk * xrs). The group reads the entries G at a time, a lane one entry
// (A's indices and values in one coalesced load, evict-first where HINT),
// and passes them round by shuffles; each lane then has U loads of X in
// flight (unrolled; a batch's tail repeats its last entry's load and does
// not add it, so short rows issue all their loads at once). PF: the next
// batch prefetched into L1. NAT: gcu_spmm_term_nat's arithmetic. HUB: A's
// indices carry their column's class in their two top bits (src/spmm/hub.cu),
// and X's rows are loaded with that class's cache hints (gcu_pack_ldg_cls).
template <class SR, class AI, int VEC, int CH, int U, bool HINT, bool PF, bool NAT, bool HUB>
__device__ __forceinline__ void gcu_spmm_rows_acc (typename SR::Z (&acc) [CH][VEC],
    const gcu_spmm_args &a, int64_t i, AI p0, AI p1, int lane, unsigned gmask,
    const typename SR::TB *const (&xc) [CH], const int64_t (&cc) [CH], const typename SR::X &xiso)
{
    typedef typename SR::TB TB;
    typedef typename SR::X XT;
    const int G = a.G;
    const AI *__restrict__ Aj = (const AI *) a.Aj;
    const typename SR::TA *__restrict__ Ax = (const typename SR::TA *) a.Ax;
    const int64_t xrs = a.xrs;
    constexpr int TOP = 8 * (int) sizeof (AI) - 2;
    unsigned long long pol = 0;
    if constexpr (HUB) pol = gcu_l2_evict_first_policy ();
    for (AI pb = p0 ; pb < p1 ; pb += (AI) G)
    {
        const int nb = (int) ((p1 - pb < (AI) G) ? p1 - pb : (AI) G);
        const AI ql = pb + (AI) (lane < nb ? lane : nb - 1);
        const AI mj = gcu_ld_stream<HINT> (Aj + ql);
        if constexpr (PF)
            if (pb + (AI) G + (AI) lane < p1) gcu_prefetch_l1 (Aj + pb + G + lane) ;
        XT mx = XT ();
        if constexpr (SR::reads_x && !SR::a_iso) mx = gcu_cast<XT> (gcu_ld_stream<HINT> (Ax + ql));
        for (int e = 0 ; e < nb ; e += U)
        {
            AI kk [U];
            int cl [U];
            XT x [U];
            gcu_pack<TB, VEC> y [U][CH];
            #pragma unroll
            for (int u = 0 ; u < U ; u++)
            {
                const int src = (e + u < nb) ? e + u : nb - 1;
                kk [u] = gcu_shfl_any (gmask, mj, src, G);
                cl [u] = HUB ? (int) (kk [u] >> TOP) : 0;
                if constexpr (HUB) kk [u] &= ~((AI) 3 << TOP);
                if constexpr (SR::reads_x && !SR::a_iso) x [u] = gcu_shfl_any (gmask, mx, src, G);
                else x [u] = xiso;
            }
            #pragma unroll
            for (int u = 0 ; u < U ; u++)
                #pragma unroll
                for (int h = 0 ; h < CH ; h++)
                    y [u][h] = HUB ? gcu_pack_ldg_cls<TB, VEC> (xc [h], (int64_t) kk [u] * xrs, cl [u], pol)
                        : gcu_pack_ldg<TB, VEC> (xc [h], (int64_t) kk [u] * xrs);
            // NAT: the batch's tail selected away rather than skipped, so
            // that no branch lets the compiler sink a load below the sums
            // of the loads before it (all U in flight at once)
            #pragma unroll
            for (int u = 0 ; u < U ; u++)
            {
                if (!NAT && e + u >= nb) break;
                #pragma unroll
                for (int h = 0 ; h < CH ; h++)
                    gcu_spmm_term_nat<SR, VEC, NAT> (acc [h], u == 0 && e == 0 && pb == p0,
                        e + u < nb, x [u], y [u][h], i, (int64_t) kk [u], cc [h]);
            }
        }
    }
}

// SpMM row-wise (GE-SpMM's coalesced row caching, Sputnik's row order): a
// group of G lanes takes an item and one slice of sw columns of it (G
// lanes of CH chunks of VEC). The items: first the segments of the rows
// longer than rmax (segrow, seg entries each: a partial row into W where
// the row has several, folded by gcu_spmm_fold, else the row of C), then
// the rows of at most rmax entries, whole (in the plan's order ord: row,
// length and first entry; else 0..nord-1, empty and long rows skipped),
// their sums by gcu_spmm_rows_acc. A launch runs the items r0 .. r0+cnt-1
// (cnt < 2^31: 32-bit loop counters, fewer registers) of slice sl0; the
// host launches slice after slice. Rows of C are written whole (streaming
// stores where HINT). PF: a group prefetches into L1 the first batch of
// entries of its next item and the item after that one's row (read by
// then), so that its loads of A hit L1. NAT: sums in the GPU's arithmetic, a row with a NaN
// summed again as the semiring's operators sum it (gcu_spmm_term_nat). HUB:
// a.Aj is A's indices with their columns' classes (gcu_spmm_rows_acc).
template <class SR, class AI, int VEC, int CH, int U, bool HINT, bool PF = false, bool NAT = false,
    bool HUB = false>
__device__ __forceinline__ void gcu_spmm_rows (const gcu_spmm_args &a)
{
    typedef typename SR::Z Z;
    typedef typename SR::TA TA;
    typedef typename SR::TB TB;
    typedef typename SR::TC TC;
    typedef typename SR::X XT;
    const int G = a.G;
    const int lane = (int) (threadIdx.x % (unsigned) G);
    const unsigned gmask = gcu_group_mask (G);
    const unsigned ngroups = (gridDim.x * blockDim.x) / (unsigned) G;
    const AI *__restrict__ Ap = (const AI *) a.Ap;
    const AI *__restrict__ Aj = (const AI *) a.Aj;
    const TA *__restrict__ Ax = (const TA *) a.Ax;
    const TB *__restrict__ Xd = (const TB *) a.X;
    const int64_t nseg = a.nseg, n = a.n;
    const unsigned cnt = (unsigned) a.cnt;
    XT xiso = XT ();
    if constexpr (SR::reads_x && SR::a_iso) xiso = gcu_cast<XT> (Ax [0]);
    for (unsigned t = (blockIdx.x * blockDim.x + threadIdx.x) / (unsigned) G ; t < cnt ; t += ngroups)
    {
        const int64_t r = a.r0 + (int64_t) t;
        if constexpr (PF)
        {
            const int64_t t1 = (int64_t) t + ngroups, t2 = t1 + ngroups ;
            gcu_spmm_item_prefetch (a, Ap, a.r0 + t2, t2 < (int64_t) cnt) ;
            const gcu_spmm_item<AI> nx = gcu_spmm_item_at (a, Ap, a.r0 + t1, t1 < (int64_t) cnt) ;
            if (nx.p0 + (AI) lane < nx.p1)
            {
                gcu_prefetch_l1 (Aj + nx.p0 + lane) ;
                if constexpr (SR::reads_x && !SR::a_iso) gcu_prefetch_l1 (Ax + nx.p0 + lane) ;
            }
        }
        int64_t i, out;         // the row; its place in Cx, or in W (partial)
        AI p0, p1;
        bool partial = false;
        if (r < nseg)
        {
            i = a.segrow [r];
            const int64_t s0 = a.segoff [i];
            const AI pe = Ap [i + 1];
            p0 = (AI) ((int64_t) Ap [i] + (r - s0) * a.seg);
            p1 = ((int64_t) (pe - p0) > (int64_t) a.seg) ? (AI) (p0 + (AI) a.seg) : pe;
            partial = a.segoff [i + 1] - s0 > 1;
            out = (partial ? a.heavyoff [i] + (r - s0) : a.rank [i]) * n;
        }
        else if (a.ord != NULL)
        {
            // sorted: the row, its length and its first entry at once
            const int64_t q = a.ord [2 * (r - nseg)];
            i = q & 0xffffffff;
            p0 = (AI) a.ord [2 * (r - nseg) + 1];
            p1 = p0 + (AI) (q >> 32);
            out = a.rank [i] * n;
        }
        else
        {
            i = r - nseg;
            p0 = Ap [i];
            p1 = Ap [i + 1];
            if (p1 == p0 || (int64_t) (p1 - p0) > a.rmax) continue;
            out = a.rank [i] * n;
        }
        int64_t cc [CH];
        bool live [CH];
        gcu_spmm_chunks<VEC, CH> (cc, live, a.sl0 * a.sw, G, lane, n);
        // the lane's chunks of X's row 0: row kk's at xc [h] + kk * xrs
        const TB *xc [CH];
        for (int h = 0 ; h < CH ; h++) xc [h] = Xd + cc [h] * a.xcs;
        Z acc [CH][VEC];
        gcu_spmm_rows_acc<SR, AI, VEC, CH, U, HINT, PF, NAT, HUB> (acc, a, i, p0, p1, lane, gmask, xc,
            cc, xiso);
        if constexpr (NAT)
        {
            bool nan = false;
            for (int h = 0 ; h < CH ; h++)
                for (int v = 0 ; v < VEC ; v++) nan |= acc [h][v] != acc [h][v];
            if (__any_sync (gmask, nan))
                gcu_spmm_rows_acc<SR, AI, VEC, CH, U, HINT, false, false, HUB> (acc, a, i, p0, p1, lane,
                    gmask, xc, cc, xiso);
        }
        for (int h = 0 ; h < CH ; h++)
        {
            if (!live [h]) continue;
            if (partial)
            {
                gcu_pack<Z, VEC> o;
                for (int v = 0 ; v < VEC ; v++) o.v [v] = acc [h][v];
                gcu_pack_store<Z, VEC> ((Z *) a.W, out + cc [h], o);
            }
            else
            {
                gcu_pack<TC, VEC> o;
                for (int v = 0 ; v < VEC ; v++) o.v [v] = gcu_cast<TC> (acc [h][v]);
                gcu_pack_st<HINT, TC, VEC> ((TC *) a.Cx, out + cc [h], o);
            }
        }
    }
}

// SpMM with ASpT tiles: one block a panel and a slice of G*VEC columns
// (blockIdx.x = panel * nslices + slice, a grid-stride loop over those).
// For each tile of the panel the block stages the rows of X of the tile's
// columns (the slice of them) in shared memory, then each group of G lanes
// takes rows of the panel and adds their entries in the tile, reading X
// there; then the rows' light entries, row-wise from global memory. A
// group owns its rows' slice of Cx: the first part of a row with entries
// writes it, the later ones add to it.
template <class SR, class AI, int VEC>
__device__ __forceinline__ void gcu_spmm_tiled (const gcu_spmm_args &a)
{
    typedef typename SR::Z Z;
    typedef typename SR::TB TB;
    typedef typename SR::TA TA;
    typedef typename SR::X XT;
    extern __shared__ __align__(16) unsigned char gcu_smem [];
    TB *sX = (TB *) gcu_smem;
    const int G = a.G;
    const int lane = (int) (threadIdx.x % (unsigned) G);
    const int gid = (int) (threadIdx.x / (unsigned) G);
    const int ngr = (int) (blockDim.x / (unsigned) G);
    const int64_t n = a.n, P = a.P;
    const int CW = G * VEC;
    const AI *__restrict__ Ap = (const AI *) a.Ap;
    const uint32_t *__restrict__ Rj = a.Rj;
    const TA *__restrict__ Rx = (const TA *) a.Rx;
    const TB *__restrict__ Xd = (const TB *) a.X;
    const int64_t nblocks = a.npanel * a.nslices;
    for (int64_t b = blockIdx.x ; b < nblocks ; b += gridDim.x)
    {
        const int64_t panel = b / a.nslices;
        const int64_t s0 = (b % a.nslices) * CW;
        int64_t cc [1];
        bool live [1];
        gcu_spmm_chunks<VEC, 1> (cc, live, s0, G, lane, n);
        const int64_t r0 = panel * P;
        const int64_t r1 = (r0 + P < a.m) ? r0 + P : a.m;
        const int64_t t0 = a.ptile [panel];
        const int64_t nt = a.ptile [panel + 1] - t0;
        const uint32_t *__restrict__ rtb = a.rtb + t0 * P;
        for (int64_t t = 0 ; t < nt ; t++)
        {
            const int64_t f0 = a.tcol [t0 + t], nc = a.tcol [t0 + t + 1] - f0;
            __syncthreads ();       // the last tile's readers are done
            const int per = CW / VEC;
            for (int64_t q = threadIdx.x ; q < nc * per ; q += blockDim.x)
            {
                const int64_t sl = q / per, c = s0 + (q % per) * VEC;
                if (c >= n) continue;
                const int64_t kk = (int64_t) a.tcols [f0 + sl];
                gcu_pack_store<TB, VEC> (sX, sl * CW + (q % per) * VEC,
                    gcu_pack_load<TB, VEC> (Xd, kk * a.xrs + c * a.xcs, a.xcs));
            }
            __syncthreads ();
            for (int64_t r = r0 + gid ; r < r1 ; r += ngr)
            {
                const int64_t pr = (int64_t) Ap [r], len = (int64_t) Ap [r + 1] - pr;
                if (len == 0 || len > a.lmax) continue;
                const int64_t q0 = t == 0 ? 0 : (int64_t) rtb [(r - r0) * nt + t - 1];
                const int64_t q1 = (int64_t) rtb [(r - r0) * nt + t];
                if (q1 == q0) continue;
                Z acc [1][VEC];
                #pragma unroll 4
                for (int64_t q = pr + q0 ; q < pr + q1 ; q++)
                {
                    const int64_t sl = (int64_t) Rj [q];
                    const int64_t kk = (int64_t) a.tcols [f0 + sl];   // dead unless positional
                    const XT x = gcu_sr_load<XT, TA, SR::reads_x, SR::a_iso> (Rx, q);
                    const gcu_pack<TB, VEC> y = gcu_pack_load<TB, VEC> (sX, sl * CW + lane * VEC, 1);
                    gcu_spmm_term<SR, VEC> (acc [0], q == pr + q0, x, y, r, kk, cc [0]);
                }
                gcu_spmm_put<SR, VEC, 1> (acc, a, a.rank [r], cc, live, q0 > 0);
            }
        }
        // the light entries, row-wise
        for (int64_t r = r0 + gid ; r < r1 ; r += ngr)
        {
            const int64_t pr = (int64_t) Ap [r], len = (int64_t) Ap [r + 1] - pr;
            if (len == 0 || len > a.lmax) continue;
            const int64_t q0 = nt == 0 ? 0 : (int64_t) rtb [(r - r0) * nt + nt - 1];
            if (q0 == len) continue;
            Z acc [1][VEC];
            gcu_spmm_rowpart<SR, uint32_t, VEC, 1> (acc, true, a, Rj, Rx, r, pr + q0, pr + len, cc);
            gcu_spmm_put<SR, VEC, 1> (acc, a, a.rank [r], cc, live, q0 > 0);
        }
        __syncthreads ();           // before the next panel's first stage
    }
}

// The partial rows t0 .. t1-1 (t1 > t0) of the row whose first partial row
// is h, columns c0 .. c0+VEC-1, folded in segment order:
// GCU_SPMM_FOLD_BATCH partial rows' loads in flight at once, then added
template <class SR, int VEC>
__device__ __forceinline__ gcu_pack<typename SR::Z, VEC> gcu_spmm_fold_range (
    const typename SR::Z *__restrict__ W, int64_t n, int64_t h, int64_t t0, int64_t t1, int64_t c0)
{
    typedef typename SR::Z Z;
    gcu_pack<Z, VEC> acc = gcu_pack_load<Z, VEC> (W, (h + t0) * n + c0, 1);
    for (int64_t t = t0 + 1 ; t < t1 ; t += GCU_SPMM_FOLD_BATCH)
    {
        gcu_pack<Z, VEC> w [GCU_SPMM_FOLD_BATCH];
        #pragma unroll
        for (int u = 0 ; u < GCU_SPMM_FOLD_BATCH ; u++)
            if (t + u < t1) w [u] = gcu_pack_load<Z, VEC> (W, (h + t + u) * n + c0, 1);
        #pragma unroll
        for (int u = 0 ; u < GCU_SPMM_FOLD_BATCH ; u++)
            if (t + u < t1)
                for (int v = 0 ; v < VEC ; v++) acc.v [v] = SR::add (acc.v [v], w [u].v [v]);
    }
    return acc;
}

// SpMM: the rows of more than one segment, their partial rows folded in
// segment order into Cx. A row of more than a.fold_big segments (0: none;
// a power-law row has hundreds, and one group folding them was the call's
// tail) is folded by a whole block (the launch gave blockDim.x * VEC
// values of Z of dynamic shared memory, blockDim.x <= GCU_SPMM_THREADS): its groups fold
// consecutive ranges of its partial rows, and the first group adds their
// sums in order. The blocks find such rows by their first segments, a
// block's threads testing as many segments at once. The other rows: a
// group a row, found by its first segment too.
template <class SR, class AI, int VEC>
__device__ __forceinline__ void gcu_spmm_fold (const gcu_spmm_args &a)
{
    typedef typename SR::Z Z;
    typedef typename SR::TC TC;
    const int G = a.G;
    const int lane = (int) (threadIdx.x % (unsigned) G);
    const int64_t ngroups = ((int64_t) gridDim.x * blockDim.x) / G;
    const int64_t n = a.n;
    const Z *__restrict__ W = (const Z *) a.W;
    const int64_t big = a.fold_big > 0 ? (int64_t) a.fold_big : (int64_t) 1 << 62;
    if (a.fold_big > 0)
    {
        extern __shared__ __align__(16) unsigned char gcu_smem [];
        Z *part = (Z *) gcu_smem;                       // a group's sums
        __shared__ int64_t rows [GCU_SPMM_THREADS];
        __shared__ int nrows;
        const int ngr = (int) (blockDim.x / (unsigned) G), gid = (int) (threadIdx.x / (unsigned) G);
        for (int64_t r0 = (int64_t) blockIdx.x * blockDim.x ; r0 < a.nseg ;
             r0 += (int64_t) gridDim.x * blockDim.x)
        {
            if (threadIdx.x == 0) nrows = 0;
            __syncthreads ();
            const int64_t r = r0 + threadIdx.x;
            if (r < a.nseg)
            {
                const int64_t i = a.segrow [r];
                if (a.segoff [i] == r && a.segoff [i + 1] - r > big) rows [atomicAdd (&nrows, 1)] = i;
            }
            __syncthreads ();
            for (int b = 0 ; b < nrows ; b++)
            {
                const int64_t i = rows [b], ns = a.segoff [i + 1] - a.segoff [i], h = a.heavyoff [i];
                for (int64_t cb = 0 ; cb < n ; cb += (int64_t) G * VEC)
                {
                    const int64_t c0 = cb + (int64_t) lane * VEC;
                    const int64_t t0 = ns * gid / ngr, t1 = ns * (gid + 1) / ngr;
                    if (c0 < n && t1 > t0)
                        gcu_pack_store<Z, VEC> (part, ((int64_t) gid * G + lane) * VEC,
                            gcu_spmm_fold_range<SR, VEC> (W, n, h, t0, t1, c0));
                    __syncthreads ();
                    if (gid == 0 && c0 < n)
                    {
                        gcu_pack<Z, VEC> acc;
                        bool have = false;
                        for (int g = 0 ; g < ngr ; g++)
                        {
                            if (ns * (g + 1) / ngr == ns * g / ngr) continue;   // an empty range
                            const gcu_pack<Z, VEC> w = gcu_pack_load<Z, VEC> (part,
                                ((int64_t) g * G + lane) * VEC, 1);
                            for (int v = 0 ; v < VEC ; v++) acc.v [v] = have ? SR::add (acc.v [v], w.v [v]) : w.v [v];
                            have = true;
                        }
                        gcu_pack<TC, VEC> o;
                        for (int v = 0 ; v < VEC ; v++) o.v [v] = gcu_cast<TC> (acc.v [v]);
                        gcu_pack_store<TC, VEC> ((TC *) a.Cx, a.rank [i] * n + c0, o);
                    }
                    __syncthreads ();
                }
            }
        }
    }
    // the other rows of several segments, found by their first segments
    // (a scan over the segments, not over all of A's rows)
    for (int64_t r = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / G ; r < a.nseg ; r += ngroups)
    {
        const int64_t i = a.segrow [r], s0 = a.segoff [i];
        if (s0 != r) continue;
        const int64_t ns = a.segoff [i + 1] - s0;
        if (ns < 2 || ns > big) continue;
        const int64_t h = a.heavyoff [i];
        for (int64_t c0 = (int64_t) lane * VEC ; c0 < n ; c0 += (int64_t) G * VEC)
        {
            const gcu_pack<Z, VEC> acc = gcu_spmm_fold_range<SR, VEC> (W, n, h, 0, ns, c0);
            gcu_pack<TC, VEC> o;
            for (int v = 0 ; v < VEC ; v++) o.v [v] = gcu_cast<TC> (acc.v [v]);
            gcu_pack_store<TC, VEC> ((TC *) a.Cx, a.rank [i] * n + c0, o);
        }
    }
}

#endif
