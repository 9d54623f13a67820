// gcu_spgemm.cuh — row-wise (Gustavson) SpGEMM C = A*B on the GPU, after
// spECK (papers/parger2020-speck-spgemm.txt): a light row analysis (products
// per row), rows binned by the size of their accumulator, a hash accumulator
// in shared memory per row for all but the longest rows (several rows share
// a block when they are short: spECK's block merging), and a global-memory
// hash for the rest (the spill path). Symbolic phase (exact nnz per row),
// then numeric phase. Shared-memory rows come out sorted (each entry's rank
// among the row's keys); global-memory rows are sorted afterwards by the host
// side with CUB's segmented sort.
//
// Local load balancing: a row is handled by G threads; they split into
// G/TPB groups, each walking its own entries A(i,k) of the row, TPB threads
// sharing one row of B (TPB chosen from the average length of the referenced
// rows of B, as spECK does; see also papers/kurt2017 on virtual warps).
//
// The analysis and symbolic kernels do not depend on the semiring and are
// compiled into the library by nvcc (the wrappers of gcu_spgemm_kernels.cuh,
// launched from src/spgemm/). The numeric kernels are generic in the
// semiring SR (common/gcu_semiring.cuh) and are instantiated at run time by
// the JIT (gcu_spgemm_jit.cuh). AI / BI are the integer types of the
// row pointers and column indices of A and B (uint32_t or uint64_t); C has
// int64_t row pointers and int32_t column indices (n < 2^31 on this path).
#ifndef GCU_SPGEMM_CUH
#define GCU_SPGEMM_CUH

#include "common/gcu_types.cuh"
#include "spgemm/gcu_spgemm_policy.h"

#define GCU_SPGEMM_EMPTY (-1)

// Multiplicative hash of a column index into a table of H (power of 2) slots.
__device__ __forceinline__ uint32_t gcu_spgemm_hash (int32_t j, uint32_t H)
{
    return ((uint32_t) j * 2654435761u) & (H - 1);
}

// Inserts key j (linear probing); returns its slot and whether this call
// created it. The table always has room: H > the row's distinct count.
__device__ __forceinline__ uint32_t gcu_spgemm_insert (int32_t *keys,
    uint32_t H, int32_t j, bool *created)
{
    uint32_t s = gcu_spgemm_hash (j, H);
    while (true)
    {
        int32_t k = ((volatile int32_t *) keys) [s];
        if (k == j) { *created = false; return s; }
        if (k == GCU_SPGEMM_EMPTY)
        {
            int32_t old = atomicCAS (&keys [s], GCU_SPGEMM_EMPTY, j);
            if (old == GCU_SPGEMM_EMPTY) { *created = true; return s; }
            if (old == j) { *created = false; return s; }
        }
        s = (s + 1) & (H - 1);
    }
}

// The slot of key j, or H if j is not in the table (the table always has an
// empty slot: its rows fill at most 2/3 of it).
__device__ __forceinline__ uint32_t gcu_spgemm_find (const int32_t *keys,
    uint32_t H, int32_t j)
{
    uint32_t s = gcu_spgemm_hash (j, H);
    while (true)
    {
        const int32_t k = keys [s];
        if (k == j) return s;
        if (k == GCU_SPGEMM_EMPTY) return H;
        s = (s + 1) & (H - 1);
    }
}

// Walks the products of row i of C = A*B with G threads (t = 0..G-1), TPB
// threads per row of B, calling f (k, pa, j, pb) for each product
// A(i,k) (at pa) * B(k,j) (at pb).
template <class AI, class BI, class F>
__device__ __forceinline__ void gcu_spgemm_products (int64_t i,
    const AI *__restrict__ Ap, const AI *__restrict__ Aj,
    const BI *__restrict__ Bp, const BI *__restrict__ Bj,
    int G, int TPB, int t, F f)
{
    const int groups = G / TPB, g = t / TPB, w = t % TPB;
    const int64_t pa_end = (int64_t) Ap [i + 1];
    for (int64_t pa = (int64_t) Ap [i] + g ; pa < pa_end ; pa += groups)
    {
        const int64_t k = (int64_t) Aj [pa];
        const int64_t pb_end = (int64_t) Bp [k + 1];
        for (int64_t pb = (int64_t) Bp [k] + w ; pb < pb_end ; pb += TPB)
        {
            f (k, pa, (int32_t) Bj [pb], pb);
        }
    }
}

// The products of row i whose column lies in the window [lo, hi), walked by
// G threads (t = 0..G-1, G a multiple of 32), TPB threads a row of B: f (k,
// pa, j, pb) for each, and each column j - lo marked in the bitmap bits (one
// atomicOr a lane: combining the bits of a group's lanes that share a word
// by shuffles first was measured slower). Windows are walked in order, lo =
// 0 first: each row of B is walked from where the previous window left it,
// which the previous window stored in cursor [pa] (an offset from Bp [k];
// rows of B are sorted, the export guarantees it), so a row's products are
// read once over all its windows, with no search. The first window starts
// every row of B at its beginning and the last stores nothing. A row of one
// window (last and lo = 0) takes the plain walk of gcu_spgemm_products, with
// no ballot and no cursor (which may then be NULL): measured faster in the
// symbolic phase. Both measurements: bench/RESULTS.md, "The dense windows
// (52cf893) on the H200".
template <class AI, class BI, class F>
__device__ __forceinline__ void gcu_spgemm_products_dense (int64_t i,
    const AI *__restrict__ Ap, const AI *__restrict__ Aj,
    const BI *__restrict__ Bp, const BI *__restrict__ Bj,
    int G, int TPB, int t, int64_t lo, int64_t hi, bool last,
    int32_t *__restrict__ cursor, uint32_t *bits, F f)
{
    if (lo == 0 && last)
    {
        gcu_spgemm_products (i, Ap, Aj, Bp, Bj, G, TPB, t,
            [&] (int64_t k, int64_t pa, int32_t j, int64_t pb)
            {
                f (k, pa, j, pb);
                atomicOr (&bits [j >> 5], 1u << (j & 31));
            });
        return;
    }
    const int groups = G / TPB, g = t / TPB, w = t % TPB;
    const unsigned base = (threadIdx.x & 31) & ~(unsigned) (TPB - 1);
    const unsigned gmask = TPB >= 32 ? 0xffffffffu : ((1u << TPB) - 1) << base;
    const int64_t pa_end = (int64_t) Ap [i + 1];
    for (int64_t pa = (int64_t) Ap [i] + g ; pa < pa_end ; pa += groups)
    {
        const int64_t k = (int64_t) Aj [pa];
        const int64_t pbeg = (int64_t) Bp [k], pend = (int64_t) Bp [k + 1];
        int64_t p = pbeg + (lo > 0 ? (int64_t) cursor [pa] : 0);
        while (p < pend)
        {
            const int64_t pb = p + w;
            const int64_t j = pb < pend ? (int64_t) Bj [pb] : hi;
            const bool in = j < hi;
            if (in)
            {
                f (k, pa, (int32_t) j, pb);
                atomicOr (&bits [(j - lo) >> 5], 1u << ((j - lo) & 31));
            }
            // the first lane past the window (or the row) is where the next
            // window starts
            const unsigned out = __ballot_sync (gmask, !in) & gmask;
            if (out != 0) { p += (int64_t) (__ffs (out) - 1 - (int) base); break; }
            p += TPB;
        }
        if (!last && w == 0) cursor [pa] = (int32_t) (p - pbeg);
    }
}

//------------------------------------------------------------------------------
// analysis: products per row (64-bit: a power-law row can reach 10^11)
//------------------------------------------------------------------------------

template <class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_row_products (int64_t m,
    const AI *__restrict__ Ap, const AI *__restrict__ Aj,
    const BI *__restrict__ Bp, int64_t *__restrict__ prod)
{
    // a warp per row: rows of A can be long (power-law graphs)
    const int lane = threadIdx.x & 31;
    const int64_t warp = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int64_t nwarps = ((int64_t) gridDim.x * blockDim.x) >> 5;
    for (int64_t i = warp ; i < m ; i += nwarps)
    {
        int64_t s = 0;
        for (int64_t p = (int64_t) Ap [i] + lane ; p < (int64_t) Ap [i + 1] ; p += 32)
        {
            const int64_t k = (int64_t) Aj [p];
            s += (int64_t) Bp [k + 1] - (int64_t) Bp [k];
        }
        for (int o = 16 ; o > 0 ; o >>= 1) s += __shfl_down_sync (0xffffffffu, s, o);
        if (lane == 0) prod [i] = s;
    }
}

//------------------------------------------------------------------------------
// symbolic phase: the number of distinct columns of each row of C
//------------------------------------------------------------------------------

// Shared-memory tables of H slots, G threads per row, blockDim.x / G rows a
// block; rows [] lists the bin's rows. Dynamic shared memory: R*H int32 keys
// plus R counters.
template <class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_symbolic_shared (const int64_t *__restrict__ rows,
    int64_t nrows, const AI *__restrict__ Ap, const AI *__restrict__ Aj,
    const BI *__restrict__ Bp, const BI *__restrict__ Bj, int64_t *__restrict__ Cnnz,
    uint32_t H, int G, int TPB)
{
    extern __shared__ __align__(16) unsigned char gcu_smem [];
    const int R = blockDim.x / G, r = threadIdx.x / G, t = threadIdx.x % G;
    int32_t *keys = (int32_t *) gcu_smem + (int64_t) r * H;
    int32_t *count = (int32_t *) gcu_smem + (int64_t) R * H;
    for (uint32_t s = t ; s < H ; s += G) keys [s] = GCU_SPGEMM_EMPTY;
    if (t == 0) count [r] = 0;
    __syncthreads ();
    const int64_t idx = (int64_t) blockIdx.x * R + r;
    if (idx < nrows)
    {
        const int64_t i = rows [idx];
        gcu_spgemm_products (i, Ap, Aj, Bp, Bj, G, TPB, t,
            [&] (int64_t, int64_t, int32_t j, int64_t)
            {
                bool created;
                gcu_spgemm_insert (keys, H, j, &created);
                if (created) atomicAdd (&count [r], 1);
            });
    }
    __syncthreads ();
    if (idx < nrows && t == 0) Cnnz [rows [idx]] = count [r];
}

// Global-memory tables: one block per row; row b of this launch uses the
// table at keys + offs [b] with size offs [b+1] - offs [b] (a power of 2).
template <class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_symbolic_global (const int64_t *__restrict__ rows,
    const int64_t *__restrict__ offs, int32_t *__restrict__ gkeys,
    const AI *__restrict__ Ap, const AI *__restrict__ Aj,
    const BI *__restrict__ Bp, const BI *__restrict__ Bj, int64_t *__restrict__ Cnnz,
    int TPB)
{
    __shared__ unsigned long long count;
    const int64_t b = blockIdx.x, i = rows [b];
    int32_t *keys = gkeys + offs [b];
    const uint32_t H = (uint32_t) (offs [b + 1] - offs [b]);
    for (uint32_t s = threadIdx.x ; s < H ; s += blockDim.x) keys [s] = GCU_SPGEMM_EMPTY;
    if (threadIdx.x == 0) count = 0;
    __syncthreads ();
    gcu_spgemm_products (i, Ap, Aj, Bp, Bj, (int) blockDim.x, TPB, (int) threadIdx.x,
        [&] (int64_t, int64_t, int32_t j, int64_t)
        {
            bool created;
            gcu_spgemm_insert (keys, H, j, &created);
            if (created) atomicAdd (&count, 1ull);
        });
    __syncthreads ();
    if (threadIdx.x == 0) Cnnz [i] = (int64_t) count;
}

//------------------------------------------------------------------------------
// dense accumulation for the longest rows (spECK's dense accumulator)
//------------------------------------------------------------------------------

// Rows too long for a shared-memory hash table are accumulated densely: one
// block per row walks the row's products window by window of W columns
// [lo, lo + W), marking each column it meets in a bitmap (and, in the
// numeric phase, folding the product into a dense array of values). Columns
// come out in order, so nothing is sorted afterwards, and there are no
// collisions to resolve. Each row of B is walked on from where the previous
// window left it (gcu_spgemm_products_dense), so a row costs its products
// once, whatever the number of windows. The host takes this path only when
// n / W is small.

// Exclusive prefix sum over the block of one int64 per thread; *total gets
// the sum. Uses 33 words of the given shared scratch; synchronises the block.
__device__ __forceinline__ int64_t gcu_block_exclusive_sum (int64_t v,
    int64_t *scratch, int64_t *total)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int nwarps = (blockDim.x + 31) >> 5;
    int64_t x = v;
    for (int o = 1 ; o < 32 ; o <<= 1)
    {
        const int64_t y = __shfl_up_sync (0xffffffffu, x, o);
        if (lane >= o) x += y;
    }
    if (lane == 31) scratch [warp] = x;
    __syncthreads ();
    if (warp == 0)
    {
        int64_t w = lane < nwarps ? scratch [lane] : 0;
        for (int o = 1 ; o < 32 ; o <<= 1)
        {
            const int64_t y = __shfl_up_sync (0xffffffffu, w, o);
            if (lane >= o) w += y;
        }
        if (lane < nwarps) scratch [lane] = w;      // inclusive over warps
        if (lane == nwarps - 1) scratch [32] = w;
    }
    __syncthreads ();
    const int64_t before = (warp > 0 ? scratch [warp - 1] : 0) + x - v;
    *total = scratch [32];
    __syncthreads ();
    return before;
}

// Symbolic: Cnnz [i] for the rows listed (one block each), windows of W
// columns (W a multiple of 32); cursor: one int32 per entry of A when there
// is more than one window (gcu_spgemm_products_dense). Dynamic shared memory:
// W / 8 bytes.
template <class AI, class BI>
__device__ __forceinline__ void gcu_spgemm_symbolic_dense (const int64_t *__restrict__ rows,
    const AI *__restrict__ Ap, const AI *__restrict__ Aj,
    const BI *__restrict__ Bp, const BI *__restrict__ Bj, int64_t *__restrict__ Cnnz,
    int32_t *__restrict__ cursor, int64_t n, int64_t W, int TPB)
{
    extern __shared__ __align__(16) unsigned char gcu_smem [];
    __shared__ unsigned long long count;
    uint32_t *bits = (uint32_t *) gcu_smem;
    const int64_t i = rows [blockIdx.x];
    const int64_t nw = W / 32;
    if (threadIdx.x == 0) count = 0;
    for (int64_t lo = 0 ; lo < n ; lo += W)
    {
        for (int64_t w = threadIdx.x ; w < nw ; w += blockDim.x) bits [w] = 0;
        __syncthreads ();
        gcu_spgemm_products_dense (i, Ap, Aj, Bp, Bj, (int) blockDim.x, TPB, (int) threadIdx.x,
            lo, lo + W, lo + W >= n, cursor, bits,
            [&] (int64_t, int64_t, int32_t, int64_t) { });
        __syncthreads ();
        unsigned long long mine = 0;
        for (int64_t w = threadIdx.x ; w < nw ; w += blockDim.x) mine += __popc (bits [w]);
        if (mine > 0) atomicAdd (&count, mine);
        __syncthreads ();
    }
    if (threadIdx.x == 0) Cnnz [i] = (int64_t) count;
}

#endif
