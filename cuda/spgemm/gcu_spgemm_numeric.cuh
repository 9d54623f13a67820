// gcu_spgemm_numeric.cuh — the numeric phase of C = A*B (see gcu_spgemm.cuh),
// generic in the semiring SR and instantiated by the JIT. Values accumulate
// in hash tables whose keys the symbolic phase sized exactly; every slot
// starts at the monoid's identity and each product is folded in with an
// atomic read-modify-write of SR::add (compare-and-swap on the value's bits
// for 1-8 byte types; a per-slot lock for wider ones, e.g. FC64 and user
// types). The ANY monoid keeps whichever product lands last.
#ifndef GCU_SPGEMM_NUMERIC_CUH
#define GCU_SPGEMM_NUMERIC_CUH

#include "common/gcu_accum.cuh"
#include "spgemm/gcu_spgemm.cuh"

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

// A hash table of H slots made empty: keys free, values at the monoid's
// identity, locks open (wide values); slots t, t + stride, ... by this thread.
template <class SR>
__device__ __forceinline__ void gcu_spgemm_table_init (int32_t *keys, typename SR::Z *vals,
    int32_t *locks, uint32_t H, uint32_t t, uint32_t stride)
{
    const typename SR::Z id = SR::identity ();
    for (uint32_t s = t ; s < H ; s += stride)
    {
        keys [s] = GCU_SPGEMM_EMPTY;
        vals [s] = id;
        if constexpr (gcu_spgemm_needs_lock<SR>::v) locks [s] = 0;
    }
}

// The products of row i folded into its table (H slots, sized by the
// symbolic phase), by thread t of the row's G, TPB a row of B.
template <class SR, class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_table_accum (int64_t i,
    const AI *__restrict__ Ap, const AI *__restrict__ Aj,
    const typename SR::TA *__restrict__ Ax, const BI *__restrict__ Bp,
    const BI *__restrict__ Bj, const typename SR::TB *__restrict__ Bx,
    int32_t *keys, typename SR::Z *vals, int32_t *locks, uint32_t H, int G, int TPB, int t)
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

// The bucket of column j among nb buckets of equal width over [lo, lo + range)
// (monotone in j: the same float product everywhere)
__device__ __forceinline__ int gcu_spgemm_bucket (int32_t j, int32_t lo, float scale, int nb)
{
    const int b = (int) ((float) (j - lo) * scale);
    return b < nb ? b : nb - 1;
}

// Writes the entries of a table of H >= 128 slots (G = H / 4 or 256
// threads a row, whole warps; every shared table above GCU_SPGEMM_RANK_MAX)
// to row i of C in column order, by a bucket sort: the row's column range
// [lo, hi] split into nb = min (H / 4, G) buckets of equal width; keys
// counted per bucket, the counts scanned into bucket starts, the keys
// scattered into their buckets (any order within one), and each key's
// position is its bucket's start plus the number of keys of its bucket below
// it (a bucket holds about 2-3 keys, never more than its width). The value
// comes from the key's slot, found again in the table. A handful of block
// barriers and O(H / G + bucket size) work a thread (a bitonic sort of the
// table took log^2 H synchronised steps). Scratch (GCU_SPGEMM_SORT_SCRATCH):
// nb counters, the staged keys (cnt <= 2H/3 int32, in 3H bytes), then 16
// int32 of warp partials. Every thread of the block calls this.
template <class SR>
__device__ __forceinline__ void gcu_spgemm_emit_bucket (int32_t *keys,
    unsigned char *scratch, const typename SR::Z *vals, uint32_t H, int G, int t,
    bool active, int64_t cp, int64_t cnt, int32_t *__restrict__ Cj,
    typename SR::Z *__restrict__ Cx)
{
    const int nb = (int) (H / 4) < G ? (int) (H / 4) : G;
    int32_t *start = (int32_t *) scratch;                       // nb counters
    int32_t *stage = start + H / 4;                             // 3H/4 int32
    int32_t *part = stage + 3 * (H / 4);                        // 16 int32
    const int lane = t & 31, w = t >> 5, nwarps = G >> 5;
    // 1. the row's column range; counters cleared
    int32_t lo = 0x7fffffff, hi = -1;
    for (uint32_t s = t ; s < H ; s += G)
    {
        const int32_t j = keys [s];
        if (j != GCU_SPGEMM_EMPTY) { lo = min (lo, j); hi = max (hi, j); }
    }
    for (int o = 16 ; o > 0 ; o >>= 1)
    {
        lo = min (lo, __shfl_xor_sync (0xffffffffu, lo, o));
        hi = max (hi, __shfl_xor_sync (0xffffffffu, hi, o));
    }
    if (lane == 0) { part [w] = lo; part [8 + w] = hi; }
    for (int b = t ; b < nb ; b += G) start [b] = 0;
    __syncthreads ();
    for (int v = 0 ; v < nwarps ; v++) { lo = min (lo, part [v]); hi = max (hi, part [8 + v]); }
    const float scale = (float) nb / (float) ((int64_t) hi - lo + 1);
    // 2. keys per bucket
    if (active && cnt > 0)
    {
        for (uint32_t s = t ; s < H ; s += G)
        {
            const int32_t j = keys [s];
            if (j != GCU_SPGEMM_EMPTY) atomicAdd (&start [gcu_spgemm_bucket (j, lo, scale, nb)], 1);
        }
    }
    __syncthreads ();
    // 3. exclusive scan of the counts over the row's warps
    int32_t c = t < nb ? start [t] : 0, x = c;
    for (int o = 1 ; o < 32 ; o <<= 1)
    {
        const int32_t y = __shfl_up_sync (0xffffffffu, x, o);
        if (lane >= o) x += y;
    }
    if (lane == 31) part [w] = x;
    __syncthreads ();
    for (int v = 0 ; v < w ; v++) x += part [v];
    if (t < nb) start [t] = x - c;
    __syncthreads ();
    // 4. keys scattered into their buckets: start [b] moves to the bucket's end
    if (active && cnt > 0)
    {
        for (uint32_t s = t ; s < H ; s += G)
        {
            const int32_t j = keys [s];
            if (j != GCU_SPGEMM_EMPTY) stage [atomicAdd (&start [gcu_spgemm_bucket (j, lo, scale, nb)], 1)] = j;
        }
    }
    __syncthreads ();
    if (!active) return;
    // 5. each staged key's rank within its bucket
    for (int64_t p = t ; p < cnt ; p += G)
    {
        const int32_t j = stage [p];
        const int b = gcu_spgemm_bucket (j, lo, scale, nb);
        const int32_t b0 = b > 0 ? start [b - 1] : 0, b1 = start [b];
        int32_t r = b0;
        for (int32_t q = b0 ; q < b1 ; q++) r += (stage [q] < j);
        Cj [cp + r] = j;
        Cx [cp + r] = vals [gcu_spgemm_find (keys, H, j)];
    }
}

// Writes the entries of one table (H slots, walked by G threads) to row i of
// C in column order, through the row's sort scratch (GCU_SPGEMM_SORT_SCRATCH
// bytes). Small tables (H <= GCU_SPGEMM_RANK_MAX, a row in one warp): the
// row's cnt entries are first compacted by warp ballots (key and slot, in
// slot order) into the scratch (ckeys: H int32, then cslot: H bytes), then
// each entry's position is its rank among them: O(cnt^2) comparisons, the
// keys read 4 at a time by broadcast, no sort. Larger ones: the bucket sort
// of gcu_spgemm_emit_bucket. Every thread of the block must call this (all
// its rows share H and G).
template <class SR>
__device__ __forceinline__ void gcu_spgemm_emit_sorted (int32_t *keys,
    unsigned char *scratch, const typename SR::Z *vals, uint32_t H, int G, int t,
    bool active, int64_t cp, int64_t cnt, int32_t *__restrict__ Cj,
    typename SR::Z *__restrict__ Cx)
{
    if (H <= GCU_SPGEMM_RANK_MAX)
    {
        // a row here is one warp or a part of one (G <= 32): compacted by
        // ballots, synchronised by the warp alone
        int32_t *ckeys = (int32_t *) scratch;
        uint8_t *cslot = (uint8_t *) (ckeys + H);
        const unsigned lane = threadIdx.x & 31;
        const unsigned rowmask = G >= 32 ? 0xffffffffu : (((1u << G) - 1) << (lane & ~(unsigned) (G - 1)));
        const unsigned below = rowmask & ((1u << lane) - 1);
        int base = 0;
        for (uint32_t s0 = 0 ; s0 < H ; s0 += G)
        {
            const uint32_t s = s0 + t;
            const int32_t j = keys [s];
            const bool present = active && j != GCU_SPGEMM_EMPTY;
            const unsigned bal = __ballot_sync (0xffffffffu, present);
            if (present)
            {
                const int c = base + __popc (bal & below);
                ckeys [c] = j;
                cslot [c] = (uint8_t) s;
            }
            base += __popc (bal & rowmask);
        }
        // padded to a multiple of 4 keys with INT_MAX (above every column)
        // for the reads of 4 keys at a time below
        if (t < ((4 - (base & 3)) & 3)) ckeys [base + t] = 0x7fffffff;
        __syncwarp ();
        if (!active) return;
        const int n4 = ((int) cnt + 3) >> 2;
        for (int c = t ; c < (int) cnt ; c += G)
        {
            const int32_t j = ckeys [c];
            int rank = 0;
            for (int u = 0 ; u < n4 ; u++)
            {
                const int4 q = ((const int4 *) ckeys) [u];
                rank += (q.x < j) + (q.y < j) + (q.z < j) + (q.w < j);
            }
            Cj [cp + rank] = j;
            Cx [cp + rank] = vals [cslot [c]];
        }
        return;
    }
    gcu_spgemm_emit_bucket<SR> (keys, scratch, vals, H, G, t, active, cp, cnt, Cj, Cx);
}

// Shared-memory tables: as gcu_spgemm_symbolic_shared. Dynamic shared
// memory: R*H int32 keys, then (16-aligned) R*H values, then (16-aligned) R*H
// lock words when the value type needs them, then R sort scratches of
// GCU_SPGEMM_SORT_SCRATCH (H) bytes each (spgemm_numeric_smem in
// src/spgemm/phases.cu).
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
    const size_t scratch_at = (locks_at + (gcu_spgemm_needs_lock<SR>::v ? (size_t) R * H * 4 : 0) + 15) & ~(size_t) 15;
    unsigned char *scratch = gcu_smem + scratch_at + (size_t) r * GCU_SPGEMM_SORT_SCRATCH (H);
    gcu_spgemm_table_init<SR> (keys, vals, locks, H, (uint32_t) t, (uint32_t) G);
    __syncthreads ();
    const int64_t idx = (int64_t) blockIdx.x * R + r;
    const int64_t i = idx < nrows ? rows [idx] : -1;
    if (i >= 0)
    {
        gcu_spgemm_table_accum<SR> (i, Ap, Aj, Ax, Bp, Bj, Bx, keys, vals, locks, H, G, TPB, t);
    }
    __syncthreads ();
    const int64_t cp = i >= 0 ? Cp [i] : 0, cnt = i >= 0 ? Cp [i + 1] - cp : 0;
    gcu_spgemm_emit_sorted<SR> (keys, scratch, vals, H, G, t, i >= 0, cp, cnt, Cj, Cx);
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
    gcu_spgemm_table_init<SR> (keys, vals, locks, H, threadIdx.x, blockDim.x);
    if (threadIdx.x == 0) pos = 0;
    __syncthreads ();
    gcu_spgemm_table_accum<SR> (i, Ap, Aj, Ax, Bp, Bj, Bx, keys, vals, locks, H,
        (int) blockDim.x, TPB, (int) threadIdx.x);
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

// Dense accumulation of the longest rows (see gcu_spgemm_symbolic_dense):
// one block per row, windows of W columns (a multiple of 32); cursor: one
// int32 per entry of A when there is more than one window. Dynamic shared
// memory: W values, then W / 8 bytes of bitmap. Values no wider than 8 bytes
// (no lock words; the host keeps wider ones on the global hash tables).
template <class SR, class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_numeric_dense (const int64_t *__restrict__ rows,
    const AI *__restrict__ Ap, const AI *__restrict__ Aj,
    const typename SR::TA *__restrict__ Ax, const BI *__restrict__ Bp,
    const BI *__restrict__ Bj, const typename SR::TB *__restrict__ Bx,
    const int64_t *__restrict__ Cp, int32_t *__restrict__ Cj,
    typename SR::Z *__restrict__ Cx, int32_t *__restrict__ cursor, int64_t n,
    int64_t W, int TPB)
{
    typedef typename SR::Z Z;
    extern __shared__ __align__(16) unsigned char gcu_smem [];
    __shared__ int64_t scan [33];
    Z *vals = (Z *) gcu_smem;
    uint32_t *bits = (uint32_t *) (gcu_smem + ((W * sizeof (Z) + 15) & ~(size_t) 15));
    const int64_t i = rows [blockIdx.x];
    const int64_t nw = W / 32;
    const int64_t wpt = (nw + blockDim.x - 1) / blockDim.x;     // words a thread emits
    const Z id = SR::identity ();
    int64_t pos = Cp [i];
    for (int64_t lo = 0 ; lo < n ; lo += W)
    {
        for (int64_t c = threadIdx.x ; c < W ; c += blockDim.x) vals [c] = id;
        for (int64_t w = threadIdx.x ; w < nw ; w += blockDim.x) bits [w] = 0;
        __syncthreads ();
        gcu_spgemm_products_dense (i, Ap, Aj, Bp, Bj, (int) blockDim.x, TPB, (int) threadIdx.x,
            lo, lo + W, lo + W >= n, cursor, bits,
            [&] (int64_t k, int64_t pa, int32_t j, int64_t pb)
            {
                gcu_spgemm_accum<SR> (&vals [(int64_t) j - lo], (int32_t *) 0,
                    gcu_spgemm_product<SR> (Ax, Bx, pa, pb, i, k, j));
            });
        __syncthreads ();
        // each thread emits the entries of its own run of words, in order
        const int64_t w0 = threadIdx.x * wpt, w1 = (w0 + wpt < nw) ? w0 + wpt : nw;
        int64_t mine = 0;
        for (int64_t w = w0 ; w < w1 ; w++) mine += __popc (bits [w]);
        int64_t total;
        int64_t p = pos + gcu_block_exclusive_sum (mine, scan, &total);
        for (int64_t w = w0 ; w < w1 ; w++)
        {
            uint32_t b = bits [w];
            while (b != 0)
            {
                const int r = __ffs (b) - 1;
                b &= b - 1;
                const int64_t c = w * 32 + r;
                Cj [p] = (int32_t) (lo + c);
                Cx [p] = vals [c];
                p++;
            }
        }
        pos += total;
        __syncthreads ();
    }
}

#endif
