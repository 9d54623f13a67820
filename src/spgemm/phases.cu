// phases.cu — the first phases of the SpGEMM engine over one plan
// (spgemm_internal.h): the analysis (products per row), the symbolic phase
// (distinct columns per row: shared tables by bin, dense windows or global
// tables for the longest rows) and the row pointers of C; and the launch
// arithmetic the later phases share (windows, table sizes, threads a row of B).
#include "spgemm_internal.h"

//------------------------------------------------------------------------------
// shared arithmetic
//------------------------------------------------------------------------------

int spgemm_tpb (int64_t products, int64_t anvals, int G)
{
    // threads per row of B: the average referenced row length, as a power
    // of 2 in [1, GCU_SPGEMM_TPB_MAX] (spECK's local load balancing)
    double avg = anvals > 0 ? (double) products / (double) anvals : 1.0 ;
    int t = 1 ;
    while (t < GCU_SPGEMM_TPB_MAX && 2 * t <= avg) t *= 2 ;
    return t < G ? t : G ;
}

void spgemm_bin_firsts (const int64_t *hist, int64_t first [GCU_SPGEMM_NBINS + 1])
{
    first [0] = 0 ;
    for (int b = 0 ; b < GCU_SPGEMM_NBINS ; b++) first [b + 1] = first [b] + hist [b] ;
}

// The window of the dense accumulator: as many columns as fit the shared
// memory of one of `blocks` blocks an SM (eighths_per_col eighths of a byte
// each: a bit of bitmap plus the value), a multiple of 32, no more than n
// needs; 0 when the row would take more than GCU_SPGEMM_DENSE_MAX_PASSES
// windows (the hash tables are then cheaper than walking the products that
// often).
int64_t spgemm_dense_window (const gcu_device_props *dev, int64_t n, int64_t eighths_per_col, int blocks)
{
    size_t cap = dev->smem_per_block_optin > dev->smem_per_block
        ? dev->smem_per_block_optin : dev->smem_per_block ;
    if (blocks > 1 && dev->smem_per_sm / blocks < cap + GCU_SPGEMM_SMEM_RESERVE)
        cap = dev->smem_per_sm / blocks - GCU_SPGEMM_SMEM_RESERVE ;
    if (cap < GCU_SPGEMM_SMEM_MIN) return 0 ;
    cap -= GCU_SPGEMM_SMEM_STATIC ;
    int64_t W = ((int64_t) cap * 8 / eighths_per_col) & ~(int64_t) 31 ;
    const int64_t need = (n + 31) & ~(int64_t) 31 ;
    if (W > need) W = need ;
    if (W < 32 || (n + W - 1) / W > GCU_SPGEMM_DENSE_MAX_PASSES) return 0 ;
    return W ;
}

// The numeric dense window: GCU_SPGEMM_DENSE_MIN_BLOCKS blocks an SM where
// the passes allow (a block of GCU_SPGEMM_DENSE_THREADS alone leaves half the
// SM's warps idle; each window reads only its own products), else one.
int64_t spgemm_dense_window_numeric (const gcu_device_props *dev, int64_t n, size_t zsize)
{
    const int64_t W2 = spgemm_dense_window (dev, n, 8 * (int64_t) zsize + 1, GCU_SPGEMM_DENSE_MIN_BLOCKS) ;
    return W2 > 0 ? W2 : spgemm_dense_window (dev, n, 8 * (int64_t) zsize + 1, 1) ;
}

// dynamic shared memory of gcu_spgemm_numeric_shared: keys, values, locks,
// sort scratches, each 16-aligned
size_t spgemm_numeric_smem (int64_t H, int R, size_t zsize, bool lock)
{
    size_t a = ((size_t) R * H * 4 + 15) & ~(size_t) 15 ;
    a = (a + (size_t) R * H * zsize + 15) & ~(size_t) 15 ;
    a = (a + (lock ? (size_t) R * H * 4 : 0) + 15) & ~(size_t) 15 ;
    return a + (size_t) R * GCU_SPGEMM_SORT_SCRATCH ((size_t) H) ;
}

// dynamic shared memory of gcu_spgemm_masked_shared: keys, positions,
// values, locks (wide values), hit flags; each part 16-aligned
size_t spgemm_masked_smem (int64_t H, int R, size_t zsize, bool lock)
{
    size_t a = ((size_t) R * H * 4 + 15) & ~(size_t) 15 ;
    a = (a + (size_t) R * H * 4 + 15) & ~(size_t) 15 ;
    a = (a + (size_t) R * H * zsize + 15) & ~(size_t) 15 ;
    a = (a + (lock ? (size_t) R * H * 4 : 0) + 15) & ~(size_t) 15 ;
    return a + (size_t) R * H ;
}

// The largest table (a power of 2 from GCU_SPGEMM_HMIN, up to the last
// shared bin) whose kernel's shared memory (smem_of, with the rows a block of
// the phase) fits what a block can opt in to.
int64_t spgemm_shared_hmax (const gcu_device_props *dev, size_t zsize, bool lock,
    size_t (*smem_of) (int64_t, int, size_t, bool), gcu_bin_phase phase)
{
    const size_t cap = dev->smem_per_block_optin > dev->smem_per_block
        ? dev->smem_per_block_optin : dev->smem_per_block ;
    int64_t hmax = GCU_SPGEMM_HMIN ;
    while (hmax < GCU_SPGEMM_HMAX)
    {
        int G, R ;
        gcu_bin_shape (hmax * 2, phase, GCU_SPGEMM_THREADS, &G, &R) ;
        if (smem_of (hmax * 2, R, zsize, lock) > cap) break ;
        hmax *= 2 ;
    }
    return hmax ;
}

// The dense accumulator's cursor (gcu_spgemm_products_dense): one int32 per
// entry of A, allocated once per call (the symbolic and numeric phases share
// it; each window writes before the next reads).
GrB_Info spgemm_dense_cursor (spgemm_plan *P)
{
    if (P->cursor != NULL) return GrB_SUCCESS ;
    return P->S.alloc ((void **) &P->cursor, ((size_t) P->in->anvals + 1) * sizeof (int32_t)) ;
}

GrB_Info spgemm_fork (spgemm_plan *P)
{
    GCU_TRY (spgemm_cuda (cudaEventRecord (P->fork, P->st))) ;
    return spgemm_cuda (cudaStreamWaitEvent (P->sd, P->fork, 0)) ;
}

GrB_Info spgemm_join (spgemm_plan *P)
{
    GCU_TRY (spgemm_cuda (cudaEventRecord (P->join, P->sd))) ;
    return spgemm_cuda (cudaStreamWaitEvent (P->st, P->join, 0)) ;
}

// (spgemm_for_global_chunks) its own temporaries, freed on return: it runs
// once per row block
struct chunk_tmp { int64_t *dH, *doffs, *hH, *hoffs ; } ;
static void chunk_free (chunk_tmp *T, gcu_stream s)
{
    free (T->hH) ;
    free (T->hoffs) ;
    (void) gcu_sync (s) ;       // no kernel reads the offsets any more
    gcu_dfree (T->dH, s) ;
    gcu_dfree (T->doffs, s) ;
}

// the chunks' loop: tables of at most budget slots a chunk
static GrB_Info chunk_loop (chunk_tmp *T, gcu_stream s, int64_t nr, int64_t budget,
    spgemm_chunk_fn call, void *f)
{
    for (int64_t c0 = 0 ; c0 < nr ; )
    {
        int64_t c1 = c0, sum = 0 ;
        T->hoffs [0] = 0 ;
        while (c1 < nr && (c1 == c0 || sum + T->hH [c1] <= budget))
        {
            sum += T->hH [c1] ;
            T->hoffs [c1 - c0 + 1] = sum ;
            c1++ ;
        }
        if (sum > budget) return GrB_OUT_OF_MEMORY ;
        GCU_TRY (gcu_memcpy_h2d (T->doffs, T->hoffs, (c1 - c0 + 1) * sizeof (int64_t), s)) ;
        GCU_TRY (call (f, c0, c1, sum, (const int64_t *) T->doffs)) ;
        // the offsets buffer is reused by the next chunk
        GCU_TRY (gcu_sync (s)) ;
        c0 = c1 ;
    }
    return GrB_SUCCESS ;
}

GrB_Info spgemm_global_chunks (gcu_stream s, int64_t nr, const int64_t *grows,
    const int64_t *count, int64_t n, size_t slot_bytes, spgemm_chunk_fn call, void *f)
{
    chunk_tmp T = { NULL, NULL, NULL, NULL } ;
    #undef  GCU_FREE_ALL
    #define GCU_FREE_ALL chunk_free (&T, s)
    GCU_TRY (gcu_dmalloc ((void **) &T.dH, nr * sizeof (int64_t), s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &T.doffs, (nr + 1) * sizeof (int64_t), s)) ;
    GCU_TRY (spgemm_global_sizes (nr, grows, count, n, T.dH, s)) ;
    T.hH = (int64_t *) malloc (nr * sizeof (int64_t)) ;
    T.hoffs = (int64_t *) malloc ((nr + 1) * sizeof (int64_t)) ;
    if (T.hH == NULL || T.hoffs == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    GCU_TRY (gcu_memcpy_d2h (T.hH, T.dH, nr * sizeof (int64_t), s)) ;
    size_t fr = 0, tot = 0 ;
    GCU_TRY (spgemm_cuda (cudaMemGetInfo (&fr, &tot))) ;
    const int64_t budget = (int64_t) (fr / GCU_SPGEMM_GLOBAL_MEM_DIV) / (int64_t) slot_bytes ;
    GCU_TRY (chunk_loop (&T, s, nr, budget, call, f)) ;
    GCU_FREE_ALL ;
    #undef  GCU_FREE_ALL
    #define GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// 1. analysis: products per row (their total comes with the symbolic binning)
//------------------------------------------------------------------------------

GrB_Info spgemm_analyse (spgemm_plan *P)
{
    GCU_TRY (P->S.alloc ((void **) &P->prod, (P->m + 1) * sizeof (int64_t))) ;
    GCU_TRY (spgemm_row_products (P->dev, P->in, P->prod, P->s)) ;
    (void) cudaEventRecord (P->ev [EV_ANALYSIS], P->st) ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// 2. symbolic phase: distinct columns per row
//------------------------------------------------------------------------------

// the longest rows: a bitmap over windows of W columns, on the side stream,
// launched first (the shared-table bins run beside them)
static GrB_Info symbolic_dense (spgemm_plan *P, const int64_t *grows, int64_t nglobal, int64_t W)
{
    P->ndense_sym = nglobal ;
    if (W < P->n) GCU_TRY (spgemm_dense_cursor (P)) ;
    return spgemm_symbolic_dense (P, grows, nglobal, W, (size_t) W / 8,
        spgemm_tpb (P->total, P->in->anvals, GCU_SPGEMM_DENSE_THREADS)) ;
}

// the longest rows without a dense window: global-memory tables, in chunks
static GrB_Info symbolic_global (spgemm_plan *P, const int64_t *grows, int64_t nglobal)
{
    const int TPB = spgemm_tpb (P->total, P->in->anvals, GCU_SPGEMM_GLOBAL_THREADS) ;
    return spgemm_for_global_chunks (P->s, nglobal, grows, P->prod, P->n, sizeof (int32_t),
        [&] (int64_t c0, int64_t c1, int64_t slots, const int64_t *offs)
        {
            int32_t *keys = NULL ;
            GrB_Info r = gcu_dmalloc ((void **) &keys, slots * sizeof (int32_t), P->s) ;
            if (r == GrB_SUCCESS) r = spgemm_symbolic_global (P, grows + c0, c1 - c0, offs, keys, TPB) ;
            gcu_dfree (keys, P->s) ;
            return r ;
        }) ;
}

GrB_Info spgemm_symbolic (spgemm_plan *P)
{
    int64_t hist [GCU_SPGEMM_NBINS], first [GCU_SPGEMM_NBINS + 1] ;
    GCU_TRY (P->S.alloc ((void **) &P->Cnnz, (P->m + 1) * sizeof (int64_t))) ;
    GCU_TRY (gcu_memset (P->Cnnz, 0, (P->m + 1) * sizeof (int64_t), P->s)) ;
    GCU_TRY (spgemm_bin_rows (P->S, P->m, P->prod, P->n, GCU_SPGEMM_HMAX, false, 1, NULL,
        &P->rows, hist, NULL, P->prod, &P->total)) ;
    P->out->products = (double) P->total ;
    spgemm_bin_firsts (hist, first) ;
    const int64_t nglobal = hist [GCU_SPGEMM_BIN_GLOBAL] ;
    const int64_t *grows = P->rows + first [GCU_SPGEMM_BIN_GLOBAL] ;
    const int64_t Wsym = nglobal > 0 ? spgemm_dense_window (P->dev, P->n, 1, 1) : 0 ;
    // the side stream forked here, joined after the bins
    GCU_TRY (spgemm_fork (P)) ;
    if (Wsym > 0) GCU_TRY (symbolic_dense (P, grows, nglobal, Wsym)) ;
    // without long rows, the small bins on the side stream
    GCU_TRY (spgemm_for_shared_bins (hist, Wsym == 0, [&] (int b, bool side) -> GrB_Info
    {
        spgemm_bin_launch L (b, hist [b], GCU_PHASE_SYMBOLIC) ;
        const size_t smem = (size_t) L.R * L.H * 4 + (size_t) L.R * 4 ;
        return spgemm_symbolic_shared (P, P->rows + first [b], hist [b], L, smem,
            side ? P->sd : P->st, spgemm_tpb (P->total, P->in->anvals, L.G)) ;
    })) ;
    GCU_TRY (spgemm_join (P)) ;
    if (Wsym == 0 && nglobal > 0) GCU_TRY (symbolic_global (P, grows, nglobal)) ;
    (void) cudaEventRecord (P->ev [EV_SYMBOLIC], P->st) ;
    // the free memory for the row blocks' plan, asked while the symbolic
    // phase runs (the query's cost to the host: bench/RESULTS.md, "How the
    // 17:17 run got there")
    size_t tot = 0 ;
    return spgemm_cuda (cudaMemGetInfo (&P->dev_free, &tot)) ;
}

//------------------------------------------------------------------------------
// 3. row pointers of C
//------------------------------------------------------------------------------

GrB_Info spgemm_row_pointers (spgemm_plan *P)
{
    GCU_TRY (P->S.alloc ((void **) &P->Cp, (P->m + 1) * sizeof (int64_t))) ;
    return spgemm_exclusive_scan (P->S, P->Cnnz, P->Cp, P->m + 1) ;
}
