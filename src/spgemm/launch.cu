// launch.cu — the launches of the SpGEMM kernels compiled with the library
// (cuda/spgemm/gcu_spgemm_kernels.cuh) and the engine's CUB calls: grids and
// blocks from the policy (cuda/spgemm/gcu_spgemm_policy.h), the index widths
// of A and B picked here, every launch checked. The phases (phases.cu,
// blocks.cu, numeric.cu, masked.cu) call these; the JIT kernels launch there.
#include <cub/cub.cuh>
#include "spgemm_internal.h"
#include "spgemm/gcu_spgemm_kernels.cuh"

// the instantiation of a kernel launcher for A's and B's index widths
#define SPGEMM_BY_WIDTH(a64, b64, f) ((a64) ? ((b64) ? f<uint64_t, uint64_t> : f<uint64_t, uint32_t>) \
                                            : ((b64) ? f<uint32_t, uint64_t> : f<uint32_t, uint32_t>))

// a grid of `threads`-thread blocks covering n items, within [1, cap]
static unsigned spgemm_grid (int64_t n, int64_t threads, int64_t cap)
{
    int64_t grid = (n + threads - 1) / threads ;
    if (grid > cap) grid = cap ;
    if (grid < 1) grid = 1 ;
    return (unsigned) grid ;
}

//------------------------------------------------------------------------------
// analysis
//------------------------------------------------------------------------------

// products per row: a thread per row when A's rows are short on average,
// else a warp per row
template <class AI, class BI>
static GrB_Info row_products_t (const gcu_device_props *dev, const gcu_spgemm_in *in,
    int64_t *prod, cudaStream_t st)
{
    const int64_t m = in->m, cap = (int64_t) dev->sm_count * GCU_SPGEMM_GRID_PER_SM ;
    const AI *Ap = (const AI *) in->Ap, *Aj = (const AI *) in->Aj ;
    const BI *Bp = (const BI *) in->Bp ;
    const int T = GCU_SPGEMM_AUX_THREADS ;
    if (in->anvals < GCU_SPGEMM_SHORT_ROWS * m)
        k_row_products_thread<AI, BI> <<<spgemm_grid (m, T, cap), T, 0, st>>> (m, Ap, Aj, Bp, prod) ;
    else
        k_row_products<AI, BI> <<<spgemm_grid (m * 32, T, cap), T, 0, st>>> (m, Ap, Aj, Bp, prod) ;
    return gcu_launch_check ("spgemm row products") ;
}

GrB_Info spgemm_row_products (const gcu_device_props *dev, const gcu_spgemm_in *in,
    int64_t *prod, gcu_stream s)
{
    return SPGEMM_BY_WIDTH (in->a_idx64, in->b_idx64, row_products_t) (dev, in, prod, (cudaStream_t) s) ;
}

GrB_Info spgemm_mask_counts (const gcu_device_props *dev, int64_t m, const void *Mp,
    bool m64, const int64_t *prod, int64_t *count, gcu_stream s)
{
    const int64_t cap = (int64_t) dev->sm_count * GCU_SPGEMM_GRID_PER_SM ;
    k_mask_counts <<<spgemm_grid (m * 32, GCU_SPGEMM_AUX_THREADS, cap), GCU_SPGEMM_AUX_THREADS, 0,
        (cudaStream_t) s>>> (m, Mp, m64, prod, count) ;
    return gcu_launch_check ("masked spgemm mask counts") ;
}

//------------------------------------------------------------------------------
// binning
//------------------------------------------------------------------------------

// Sorted row list and bin histogram for the given per-row counts: rows
// listed by (block, bin), hist [k * GCU_SPGEMM_NBINS + b] rows of bin b in
// block k (nb blocks, bounds on the device; nb = 1 and bounds NULL: one
// block). With dhist_out non-NULL the histogram is left on the device in
// *dhist_out (nb * GCU_SPGEMM_NBINS counts, then a spare word) for the caller
// to fetch, and nothing waits for the device. With sum_of non-NULL (and
// dhist_out NULL), *sum gets the sum of sum_of [0..m-1], fetched with the
// histogram.
GrB_Info spgemm_bin_rows (spgemm_scratch &S, int64_t m, const int64_t *count, int64_t n,
    int64_t hmax, bool exact, int nb, const int64_t *bounds, int64_t **rows_sorted,
    int64_t *hist, unsigned long long **dhist_out, const int64_t *sum_of, int64_t *sum)
{
    cudaStream_t st = (cudaStream_t) S.s ;
    uint32_t *key = NULL, *key_sorted = NULL ;
    int64_t *rows = NULL ;
    unsigned long long *dhist = NULL ;
    void *tmp = NULL ;
    size_t tmp_bytes = 0 ;
    const int nkeys = nb * GCU_SPGEMM_NBINS ;
    int end_bit = 4 ;
    while ((1ll << end_bit) < (int64_t) nkeys) end_bit++ ;
    GCU_TRY (S.alloc ((void **) &key, (m + 1) * sizeof (uint32_t))) ;
    GCU_TRY (S.alloc ((void **) &key_sorted, (m + 1) * sizeof (uint32_t))) ;
    GCU_TRY (S.alloc ((void **) &rows, (m + 1) * sizeof (int64_t))) ;
    GCU_TRY (S.alloc ((void **) rows_sorted, (m + 1) * sizeof (int64_t))) ;
    // the histogram, then the sum
    GCU_TRY (S.alloc ((void **) &dhist, (nkeys + 1) * sizeof (unsigned long long))) ;
    GCU_TRY (gcu_memset (dhist, 0, (nkeys + 1) * sizeof (unsigned long long), S.s)) ;
    k_bin <<<spgemm_grid (m, GCU_SPGEMM_AUX_THREADS, GCU_SPGEMM_GRID_MAX), GCU_SPGEMM_AUX_THREADS, 0, st>>> (
        m, count, n, hmax, exact, nb, bounds, key, rows, dhist, sum_of, dhist + nkeys) ;
    GCU_TRY (gcu_launch_check ("spgemm bin")) ;
    GCU_TRY (spgemm_cuda (cub::DeviceRadixSort::SortPairs (NULL, tmp_bytes, key, key_sorted, rows,
        *rows_sorted, (int) m, 0, end_bit, st))) ;
    GCU_TRY (S.alloc (&tmp, tmp_bytes)) ;
    GCU_TRY (spgemm_cuda (cub::DeviceRadixSort::SortPairs (tmp, tmp_bytes, key, key_sorted, rows,
        *rows_sorted, (int) m, 0, end_bit, st))) ;
    GCU_TRY (gcu_launch_check ("spgemm sort rows by bin")) ;
    if (dhist_out != NULL) { *dhist_out = dhist ; return GrB_SUCCESS ; }
    unsigned long long *h = (unsigned long long *) malloc ((nkeys + 1) * sizeof (unsigned long long)) ;
    if (h == NULL) return GrB_OUT_OF_MEMORY ;
    #undef  GCU_FREE_ALL
    #define GCU_FREE_ALL free (h)
    GCU_TRY (gcu_memcpy_d2h (h, dhist, (nkeys + 1) * sizeof (unsigned long long), S.s)) ;
    for (int b = 0 ; b < nkeys ; b++) hist [b] = (int64_t) h [b] ;
    if (sum != NULL) *sum = (int64_t) h [nkeys] ;
    GCU_FREE_ALL ;
    #undef  GCU_FREE_ALL
    #define GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

// Lists the nr rows of one bin (in place) by decreasing weight: the longest
// rows (one block each) start first and the short ones fill in behind them,
// so no long row starts last and runs alone at the end of the launch (the
// longest-processing-time-first rule). CUB's radix sort on the weights.
struct order_tmp { unsigned long long *key ; int64_t *rows_out ; void *tmp ; } ;
static void order_free (order_tmp *T, gcu_stream s)
{
    gcu_dfree (T->key, s) ;
    gcu_dfree (T->rows_out, s) ;
    gcu_dfree (T->tmp, s) ;
}

GrB_Info spgemm_order_by_work (int64_t nr, int64_t *rows, const int64_t *weight, gcu_stream s)
{
    if (nr < 2) return GrB_SUCCESS ;
    cudaStream_t st = (cudaStream_t) s ;
    order_tmp T = { NULL, NULL, NULL } ;
    size_t tmp_bytes = 0 ;
    #undef  GCU_FREE_ALL
    #define GCU_FREE_ALL order_free (&T, s)
    GCU_TRY (gcu_dmalloc ((void **) &T.key, 2 * nr * sizeof (unsigned long long), s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &T.rows_out, nr * sizeof (int64_t), s)) ;
    unsigned long long *key_out = T.key + nr ;
    k_row_weights <<<(unsigned) ((nr + GCU_SPGEMM_AUX_THREADS - 1) / GCU_SPGEMM_AUX_THREADS),
        GCU_SPGEMM_AUX_THREADS, 0, st>>> (nr, rows, weight, T.key) ;
    GCU_TRY (gcu_launch_check ("spgemm row weights")) ;
    GCU_TRY (spgemm_cuda (cub::DeviceRadixSort::SortPairsDescending (NULL, tmp_bytes,
        T.key, key_out, rows, T.rows_out, (int) nr, 0, 64, st))) ;
    GCU_TRY (gcu_dmalloc (&T.tmp, tmp_bytes, s)) ;
    GCU_TRY (spgemm_cuda (cub::DeviceRadixSort::SortPairsDescending (T.tmp, tmp_bytes,
        T.key, key_out, rows, T.rows_out, (int) nr, 0, 64, st))) ;
    GCU_TRY (gcu_launch_check ("spgemm order rows by work")) ;
    GCU_TRY (gcu_memcpy_d2d (rows, T.rows_out, nr * sizeof (int64_t), s)) ;
    GCU_FREE_ALL ;
    #undef  GCU_FREE_ALL
    #define GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// the sort of the global-table rows
//------------------------------------------------------------------------------

struct sort_tmp { int64_t *beg, *end ; int32_t *keys, *perm_in, *perm ; void *vals, *tmp ; } ;
static void sort_free (sort_tmp *T, gcu_stream s)
{
    gcu_dfree (T->beg, s) ; gcu_dfree (T->end, s) ; gcu_dfree (T->keys, s) ;
    gcu_dfree (T->perm_in, s) ; gcu_dfree (T->perm, s) ; gcu_dfree (T->vals, s) ; gcu_dfree (T->tmp, s) ;
}

// Sorts the nr global-table rows of C (listed in rows) by column: CUB's
// segmented sort over those rows' segments, keys = column indices, values =
// positions within the row, then the values gathered in that order. Cj and
// Cx hold the nvals entries of one row block, from entry base of C on.
GrB_Info spgemm_sort_global_rows (int64_t nr, const int64_t *rows, const int64_t *Cp,
    int64_t base, int64_t nvals, int32_t *Cj, void *Cx, size_t zsize, gcu_stream s)
{
    cudaStream_t st = (cudaStream_t) s ;
    sort_tmp T ;
    memset (&T, 0, sizeof (T)) ;
    size_t tmp_bytes = 0 ;
    const int A = GCU_SPGEMM_AUX_THREADS ;
    if (nvals >= ((int64_t) 1 << 31)) return GCU_NOT_HANDLED ;
    #undef  GCU_FREE_ALL
    #define GCU_FREE_ALL sort_free (&T, s)
    GCU_TRY (gcu_dmalloc ((void **) &T.beg, nr * sizeof (int64_t), s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &T.end, nr * sizeof (int64_t), s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &T.keys, (nvals + 1) * sizeof (int32_t), s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &T.perm_in, (nvals + 1) * sizeof (int32_t), s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &T.perm, (nvals + 1) * sizeof (int32_t), s)) ;
    GCU_TRY (gcu_dmalloc (&T.vals, (nvals + 1) * zsize, s)) ;
    k_segments <<<(unsigned) ((nr + A - 1) / A), A, 0, st>>> (nr, rows, Cp, base, T.beg, T.end) ;
    GCU_TRY (gcu_launch_check ("spgemm sort segments")) ;
    // the permutation: every entry's own position
    k_iota32 <<<spgemm_grid (nvals, A, GCU_SPGEMM_GRID_MAX), A, 0, st>>> (nvals, T.perm_in) ;
    GCU_TRY (gcu_launch_check ("spgemm sort iota")) ;
    GCU_TRY (spgemm_cuda (cub::DeviceSegmentedSort::SortPairs (NULL, tmp_bytes, Cj, T.keys,
        T.perm_in, T.perm, (int) nvals, (int) nr, T.beg, T.end, st))) ;
    GCU_TRY (gcu_dmalloc (&T.tmp, tmp_bytes, s)) ;
    GCU_TRY (spgemm_cuda (cub::DeviceSegmentedSort::SortPairs (T.tmp, tmp_bytes, Cj, T.keys,
        T.perm_in, T.perm, (int) nvals, (int) nr, T.beg, T.end, st))) ;
    GCU_TRY (gcu_launch_check ("spgemm segmented sort")) ;
    GCU_TRY (gcu_memcpy_d2d (T.vals, Cx, nvals * zsize, s)) ;
    // perm holds absolute positions (the iota ran over the whole array)
    k_apply_sort <<<(unsigned) (nr < GCU_SPGEMM_GRID_MAX ? nr : GCU_SPGEMM_GRID_MAX), A, 0, st>>> (nr,
        T.beg, T.end, T.keys, T.perm, Cj, (const unsigned char *) T.vals, (unsigned char *) Cx, zsize) ;
    GCU_TRY (gcu_launch_check ("spgemm apply sort")) ;
    GCU_FREE_ALL ;
    #undef  GCU_FREE_ALL
    #define GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// symbolic phase
//------------------------------------------------------------------------------

template <class AI, class BI>
static GrB_Info symbolic_dense_t (const spgemm_plan *P, const int64_t *rows, int64_t nrows,
    int64_t W, size_t smem, int TPB)
{
    const gcu_spgemm_in *in = P->in ;
    if (smem > P->dev->smem_per_block) GCU_TRY (spgemm_cuda (cudaFuncSetAttribute (k_symbolic_dense<AI, BI>,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem))) ;
    k_symbolic_dense<AI, BI> <<<(unsigned) nrows, GCU_SPGEMM_DENSE_THREADS, smem, P->sd>>> (rows,
        (const AI *) in->Ap, (const AI *) in->Aj, (const BI *) in->Bp, (const BI *) in->Bj,
        P->Cnnz, P->cursor, P->n, W, TPB) ;
    return gcu_launch_check ("spgemm symbolic (dense)") ;
}

GrB_Info spgemm_symbolic_dense (const spgemm_plan *P, const int64_t *rows, int64_t nrows,
    int64_t W, size_t smem, int TPB)
{
    return SPGEMM_BY_WIDTH (P->in->a_idx64, P->in->b_idx64, symbolic_dense_t) (P, rows, nrows, W, smem, TPB) ;
}

template <class AI, class BI>
static GrB_Info symbolic_shared_t (const spgemm_plan *P, const int64_t *rows, int64_t nrows,
    const spgemm_bin_launch &L, size_t smem, cudaStream_t st, int TPB)
{
    const gcu_spgemm_in *in = P->in ;
    k_symbolic_shared<AI, BI> <<<(unsigned) L.grid, GCU_SPGEMM_THREADS, smem, st>>> (rows, nrows,
        (const AI *) in->Ap, (const AI *) in->Aj, (const BI *) in->Bp, (const BI *) in->Bj,
        P->Cnnz, L.H, L.G, TPB) ;
    return gcu_launch_check ("spgemm symbolic (shared)") ;
}

GrB_Info spgemm_symbolic_shared (const spgemm_plan *P, const int64_t *rows, int64_t nrows,
    const spgemm_bin_launch &L, size_t smem, cudaStream_t st, int TPB)
{
    return SPGEMM_BY_WIDTH (P->in->a_idx64, P->in->b_idx64, symbolic_shared_t) (P, rows, nrows, L, smem, st, TPB) ;
}

template <class AI, class BI>
static GrB_Info symbolic_global_t (const spgemm_plan *P, const int64_t *rows, int64_t nrows,
    const int64_t *offs, int32_t *keys, int TPB)
{
    const gcu_spgemm_in *in = P->in ;
    k_symbolic_global<AI, BI> <<<(unsigned) nrows, GCU_SPGEMM_GLOBAL_THREADS, 0, P->st>>> (rows, offs,
        keys, (const AI *) in->Ap, (const AI *) in->Aj, (const BI *) in->Bp, (const BI *) in->Bj,
        P->Cnnz, TPB) ;
    return gcu_launch_check ("spgemm symbolic (global)") ;
}

GrB_Info spgemm_symbolic_global (const spgemm_plan *P, const int64_t *rows, int64_t nrows,
    const int64_t *offs, int32_t *keys, int TPB)
{
    return SPGEMM_BY_WIDTH (P->in->a_idx64, P->in->b_idx64, symbolic_global_t) (P, rows, nrows, offs, keys, TPB) ;
}

GrB_Info spgemm_global_sizes (int64_t nr, const int64_t *rows, const int64_t *count,
    int64_t n, int64_t *H, gcu_stream s)
{
    k_global_sizes <<<(unsigned) ((nr + GCU_SPGEMM_AUX_THREADS - 1) / GCU_SPGEMM_AUX_THREADS),
        GCU_SPGEMM_AUX_THREADS, 0, (cudaStream_t) s>>> (nr, rows, count, n, H) ;
    return gcu_launch_check ("spgemm global sizes") ;
}

//------------------------------------------------------------------------------
// row pointers and row blocks
//------------------------------------------------------------------------------

// out [0..n) = the exclusive sum of in [0..n) (CUB), its scratch from S
GrB_Info spgemm_exclusive_scan (spgemm_scratch &S, const int64_t *in, int64_t *out, int64_t n)
{
    cudaStream_t st = (cudaStream_t) S.s ;
    size_t need = 0 ;
    void *tmp = NULL ;
    GCU_TRY (spgemm_cuda (cub::DeviceScan::ExclusiveSum (NULL, need, in, out, (int) n, st))) ;
    if (need > 0) GCU_TRY (S.alloc (&tmp, need)) ;
    GCU_TRY (spgemm_cuda (cub::DeviceScan::ExclusiveSum (tmp, need, in, out, (int) n, st))) ;
    return gcu_launch_check ("spgemm row pointers") ;
}

GrB_Info spgemm_block_bounds (const spgemm_plan *P, int64_t *dbounds, int64_t *dbase)
{
    const int A = GCU_SPGEMM_AUX_THREADS ;
    k_block_bounds <<<(unsigned) ((P->nb + A) / A), A, 0, P->st>>> (P->m, P->Cp, P->nvals, P->nb, dbounds, dbase) ;
    return gcu_launch_check ("spgemm row blocks") ;
}

// row pointers narrowed to 32 bits (a result kept on the device)
GrB_Info spgemm_narrow_ptr (const spgemm_plan *P, uint32_t *Tp)
{
    const int64_t m = P->m ;
    const int A = GCU_SPGEMM_AUX_THREADS ;
    k_narrow_ptr <<<(unsigned) ((m + A) / A < GCU_SPGEMM_NARROW_GRID_MAX ? (m + A) / A : GCU_SPGEMM_NARROW_GRID_MAX),
        A, 0, P->st>>> (m + 1, P->Cp, Tp) ;
    return gcu_launch_check ("spgemm row pointers (kept)") ;
}

//------------------------------------------------------------------------------
// the JIT kernels (gcu_spgemm_jit.cuh): one argument struct, by value
//------------------------------------------------------------------------------

GrB_Info spgemm_jit_launch (void *f, const gcu_spgemm_args &a, int64_t grid, int threads,
    size_t smem, cudaStream_t st, const char *what)
{
    gcu_spgemm_args v = a ;
    void *args [] = { &v } ;
    GCU_TRY (gcu_jit_launch (f, (unsigned) grid, (unsigned) threads, (unsigned) smem, st, args)) ;
    return gcu_launch_check (what) ;
}
