// spgemm.cu — host side of the SpGEMM engine (gcu_spgemm.h): row analysis,
// binning (CUB radix sort of rows by bin), symbolic phase (nvcc-compiled
// kernels, independent of the semiring), row pointers (CUB scan), numeric
// phase (JIT-specialised kernels). Launch shapes come from the bin's table
// size and the device's shared memory, not constants for one GPU.
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

extern "C" {
#include "gcu_spgemm.h"
#include "gcu_spgemm_shape.h"
#include "gcu_util.h"
#include "../device/gcu_device.h"
#include "../device/gcu_staging.h"
}
#include "spgemm/gcu_spgemm.cuh"

namespace {

// bins: 0 = empty row; 1..GCU_NBINS_SHARED: shared table of 32 << (b-1)
// slots; GCU_BIN_GLOBAL: global table
const int GCU_NBINS_SHARED = 9 ;        // up to 8192 slots
const int GCU_BIN_GLOBAL = 15 ;
const int GCU_NBINS = 16 ;

__device__ __forceinline__ int64_t pow2_at_least (int64_t x)
{
    int64_t h = 32 ;
    while (h < x) h <<= 1 ;
    return h ;
}

template <class AI, class BI>
__global__ void __launch_bounds__ (256) k_row_products (int64_t m,
    const AI *Ap, const AI *Aj, const BI *Bp, int64_t *prod)
{
    gcu_spgemm_row_products (m, Ap, Aj, Bp, prod) ;
}

// the same with a thread per row, for short rows of A (a warp per row would
// leave most lanes idle)
template <class AI, class BI>
__global__ void __launch_bounds__ (256) k_row_products_thread (int64_t m,
    const AI *Ap, const AI *Aj, const BI *Bp, int64_t *prod)
{
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < m ;
         i += (int64_t) gridDim.x * blockDim.x)
    {
        int64_t s = 0 ;
        for (int64_t p = (int64_t) Ap [i] ; p < (int64_t) Ap [i + 1] ; p++)
        {
            const int64_t k = (int64_t) Aj [p] ;
            s += (int64_t) Bp [k + 1] - (int64_t) Bp [k] ;
        }
        prod [i] = s ;
    }
}

// products per row: a thread per row when A's rows are short on average,
// else a warp per row
template <class AI, class BI>
GrB_Info row_products (const gcu_device_props *dev, int64_t m, int64_t anvals,
    const AI *Ap, const AI *Aj, const BI *Bp, int64_t *prod, cudaStream_t st)
{
    int64_t cap = (int64_t) dev->sm_count * 64 ;
    if (anvals < 8 * m)
    {
        int64_t grid = (m + 255) / 256 ;
        if (grid > cap) grid = cap ;
        if (grid < 1) grid = 1 ;
        k_row_products_thread<AI, BI> <<<(unsigned) grid, 256, 0, st>>> (m, Ap, Aj, Bp, prod) ;
    }
    else
    {
        int64_t grid = (m * 32 + 255) / 256 ;
        if (grid > cap) grid = cap ;
        if (grid < 1) grid = 1 ;
        k_row_products<AI, BI> <<<(unsigned) grid, 256, 0, st>>> (m, Ap, Aj, Bp, prod) ;
    }
    return gcu_launch_check ("spgemm row products") ;
}

// bin of each row from an upper bound of its distinct columns (cap = min
// (products, n) in the symbolic phase, the exact count in the numeric one):
// a table of H >= 2 * cap slots, or (exact counts) H >= 1.5 * cap, a load
// of at most 2/3, which keeps probes short and halves the table (and the
// sort of its keys) for rows just over a power of 2. With nb > 1 row blocks
// (block k: rows bounds [k] .. bounds [k+1]-1) the key is k * GCU_NBINS +
// bin, so that one sort lists every block's rows by bin.
const int GCU_BIN_SHARED_KEYS = 1024 ;  // keys counted in shared memory first
// When sum_of is not NULL, *sum gets the sum of sum_of [0..m-1] as well (the
// analysis's total of products, with no reduction and no wait of its own).
__global__ void __launch_bounds__ (256) k_bin (int64_t m, const int64_t *count,
    int64_t n, int64_t hmax, bool exact, int nb, const int64_t *bounds,
    uint32_t *key, int64_t *rows, unsigned long long *hist,
    const int64_t *sum_of, unsigned long long *sum)
{
    __shared__ unsigned long long h [GCU_BIN_SHARED_KEYS] ;
    __shared__ unsigned long long bsum ;
    unsigned long long mine = 0 ;
    if (threadIdx.x == 0) bsum = 0 ;
    const int nkeys = nb * GCU_NBINS ;
    const bool in_shared = nkeys <= GCU_BIN_SHARED_KEYS ;
    for (int t = threadIdx.x ; in_shared && t < nkeys ; t += blockDim.x) h [t] = 0 ;
    __syncthreads () ;
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < m ;
         i += (int64_t) gridDim.x * blockDim.x)
    {
        int64_t cap = count [i] < n ? count [i] : n ;
        int b = 0 ;
        if (cap > 0)
        {
            int64_t H = pow2_at_least (exact ? cap + (cap + 1) / 2 : 2 * cap) ;
            if (H > hmax) b = GCU_BIN_GLOBAL ;
            else { b = 1 ; while ((32ll << (b - 1)) < H) b++ ; }
        }
        int blk = 0 ;
        if (nb > 1)
        {
            // the last block that starts at or before row i
            int lo = 0, hi = nb - 1 ;
            while (lo < hi)
            {
                const int mid = (lo + hi + 1) / 2 ;
                if (bounds [mid] <= i) lo = mid ; else hi = mid - 1 ;
            }
            blk = lo ;
        }
        const uint32_t kk = (uint32_t) blk * GCU_NBINS + (uint32_t) b ;
        key [i] = kk ;
        rows [i] = i ;
        if (sum_of != NULL) mine += (unsigned long long) sum_of [i] ;
        // one atomic per distinct key of the warp (rows of one bin are the
        // common case: 32 lanes on one counter would serialise)
        const unsigned lanes = __match_any_sync (__activemask (), kk) ;
        if ((threadIdx.x & 31) == __ffs (lanes) - 1)
            atomicAdd (in_shared ? &h [kk] : &hist [kk], (unsigned long long) __popc (lanes)) ;
    }
    if (sum_of != NULL)
    {
        for (int o = 16 ; o > 0 ; o >>= 1) mine += __shfl_xor_sync (0xffffffffu, mine, o) ;
        if ((threadIdx.x & 31) == 0 && mine > 0) atomicAdd (&bsum, mine) ;
    }
    __syncthreads () ;
    for (int t = threadIdx.x ; in_shared && t < nkeys ; t += blockDim.x)
        if (h [t] > 0) atomicAdd (&hist [t], h [t]) ;
    if (sum_of != NULL && threadIdx.x == 0 && bsum > 0) atomicAdd (sum, bsum) ;
}

// Row blocks of equal output: bounds [k] = the first row whose entries start
// at or after k * nvals / nb (bounds [0] = 0, bounds [nb] = m), and base [k]
// = Cp [bounds [k]], the block's first entry.
// row pointers narrowed to 32 bits (a result kept on the device: the
// residency's CSR holds pointers and indices of one width)
__global__ void k_narrow_ptr (int64_t n, const int64_t *Cp, uint32_t *Tp)
{
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < n ;
         i += (int64_t) gridDim.x * blockDim.x)
        Tp [i] = (uint32_t) Cp [i] ;
}

__global__ void k_block_bounds (int64_t m, const int64_t *Cp, int64_t nvals,
    int nb, int64_t *bounds, int64_t *base)
{
    const int k = (int) (blockIdx.x * blockDim.x + threadIdx.x) ;
    if (k > nb) return ;
    int64_t r = m ;
    if (k == 0) r = 0 ;
    else if (k < nb)
    {
        const int64_t t = (nvals / nb) * k + ((nvals % nb) * k) / nb ;
        int64_t lo = 0, hi = m ;
        while (lo < hi)
        {
            const int64_t mid = lo + (hi - lo) / 2 ;
            if (Cp [mid] >= t) hi = mid ; else lo = mid + 1 ;
        }
        r = lo ;
    }
    bounds [k] = r ;
    base [k] = Cp [r] ;
}

// table sizes of the global-bin rows: H = pow2 >= 2 * min (count, n)
__global__ void k_global_sizes (int64_t nr, const int64_t *rows,
    const int64_t *count, int64_t n, int64_t *H)
{
    int64_t b = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (b >= nr) return ;
    int64_t c = count [rows [b]] ;
    if (c > n) c = n ;
    H [b] = pow2_at_least (2 * c) ;
}

template <class AI, class BI>
__global__ void __launch_bounds__ (GCU_SPGEMM_THREADS) k_symbolic_shared (
    const int64_t *rows, int64_t nrows, const AI *Ap, const AI *Aj,
    const BI *Bp, const BI *Bj, int64_t *Cnnz, uint32_t H, int G, int TPB)
{
    gcu_spgemm_symbolic_shared (rows, nrows, Ap, Aj, Bp, Bj, Cnnz, H, G, TPB) ;
}

template <class AI, class BI>
__global__ void __launch_bounds__ (GCU_SPGEMM_GLOBAL_THREADS) k_symbolic_global (
    const int64_t *rows, const int64_t *offs, int32_t *keys, const AI *Ap,
    const AI *Aj, const BI *Bp, const BI *Bj, int64_t *Cnnz, int TPB)
{
    gcu_spgemm_symbolic_global (rows, offs, keys, Ap, Aj, Bp, Bj, Cnnz, TPB) ;
}

template <class AI, class BI>
__global__ void __launch_bounds__ (GCU_SPGEMM_DENSE_THREADS) k_symbolic_dense (
    const int64_t *rows, const AI *Ap, const AI *Aj, const BI *Bp, const BI *Bj,
    int64_t *Cnnz, int32_t *cursor, int64_t n, int64_t W, int TPB)
{
    gcu_spgemm_symbolic_dense (rows, Ap, Aj, Bp, Bj, Cnnz, cursor, n, W, TPB) ;
}

// The window of the dense accumulator: as many columns as fit the shared
// memory of one of `blocks` blocks an SM (bytes_per_col eighths of a byte
// each: a bit of bitmap plus the value), a multiple of 32, no more than n
// needs; 0 when the row would take more than GCU_DENSE_MAX_PASSES windows
// (the hash tables are then cheaper than walking the products that often).
const int64_t GCU_DENSE_MAX_PASSES = 8 ;
int64_t dense_window (const gcu_device_props *dev, int64_t n, int64_t eighths_per_col, int blocks)
{
    size_t cap = dev->smem_per_block_optin > dev->smem_per_block
        ? dev->smem_per_block_optin : dev->smem_per_block ;
    if (blocks > 1 && dev->smem_per_sm / blocks < cap + 1024)
        cap = dev->smem_per_sm / blocks - 1024 ;   // the driver's reserve per block
    if (cap < 4096) return 0 ;
    cap -= 1024 ;                                   // the kernels' static shared memory
    int64_t W = ((int64_t) cap * 8 / eighths_per_col) & ~(int64_t) 31 ;
    const int64_t need = (n + 31) & ~(int64_t) 31 ;
    if (W > need) W = need ;
    if (W < 32 || (n + W - 1) / W > GCU_DENSE_MAX_PASSES) return 0 ;
    return W ;
}

// The numeric dense window: two blocks an SM where the passes allow (a block
// of GCU_SPGEMM_DENSE_THREADS alone leaves half the SM's warps idle; each
// window reads only its own products), else one.
int64_t dense_window_numeric (const gcu_device_props *dev, int64_t n, size_t zsize)
{
    const int64_t W2 = dense_window (dev, n, 8 * (int64_t) zsize + 1, 2) ;
    return W2 > 0 ? W2 : dense_window (dev, n, 8 * (int64_t) zsize + 1, 1) ;
}

// The largest numeric shared table: shared_hmax, but no more than
// GCU_SHARED_HMAX_DENSE slots where the dense accumulator can take the longer
// rows (a table of 8192 FP64 slots holds one block of 256 threads an SM)
const int64_t GCU_SHARED_HMAX_DENSE = 4096 ;

// segments of the global-table rows (unsorted on output): [Cp[r], Cp[r+1]),
// relative to the block's first entry base
__global__ void k_segments (int64_t nr, const int64_t *rows, const int64_t *Cp,
    int64_t base, int64_t *beg, int64_t *end)
{
    int64_t b = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (b >= nr) return ;
    beg [b] = Cp [rows [b]] - base ;
    end [b] = Cp [rows [b] + 1] - base ;
}

// positions 0..n-1 (the permutation the segmented sort carries)
__global__ void k_iota32 (int64_t n, int32_t *x)
{
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < n ;
         i += (int64_t) gridDim.x * blockDim.x)
        x [i] = (int32_t) i ;
}

// one global row b: sorted keys back into Cj, values gathered through the
// permutation from a copy of the unsorted values (zsize bytes each)
__global__ void k_apply_sort (int64_t nr, const int64_t *beg, const int64_t *end,
    const int32_t *keys_sorted, const int32_t *perm, int32_t *Cj,
    const unsigned char *vals_unsorted, unsigned char *Cx, size_t zsize)
{
    for (int64_t b = blockIdx.x ; b < nr ; b += gridDim.x)
    {
        for (int64_t p = beg [b] + threadIdx.x ; p < end [b] ; p += blockDim.x)
        {
            Cj [p] = keys_sorted [p] ;
            const int64_t q = perm [p] ;
            for (size_t c = 0 ; c < zsize ; c++) Cx [p * zsize + c] = vals_unsorted [q * zsize + c] ;
        }
    }
}

// Sorts the nr global-table rows of C (listed in rows) by column: CUB's
// segmented sort over those rows' segments, keys = column indices, values =
// positions within the row, then the values gathered in that order. Cj and
// Cx hold the nvals entries of one row block, from entry base of C on.
GrB_Info sort_global_rows (int64_t nr, const int64_t *rows, const int64_t *Cp,
    int64_t base, int64_t nvals, int32_t *Cj, void *Cx, size_t zsize, gcu_stream s)
{
    cudaStream_t st = (cudaStream_t) s ;
    GrB_Info info = GrB_SUCCESS ;
    int64_t *beg = NULL, *end = NULL ;
    int32_t *keys = NULL, *perm_in = NULL, *perm = NULL ;
    void *vals = NULL, *tmp = NULL ;
    size_t tmp_bytes = 0 ;
    const unsigned g = (unsigned) ((nr + 255) / 256) ;
    if (nvals >= ((int64_t) 1 << 31)) return GCU_NOT_HANDLED ;
    if ((info = gcu_dmalloc ((void **) &beg, nr * sizeof (int64_t), s)) != GrB_SUCCESS) goto done ;
    if ((info = gcu_dmalloc ((void **) &end, nr * sizeof (int64_t), s)) != GrB_SUCCESS) goto done ;
    if ((info = gcu_dmalloc ((void **) &keys, (nvals + 1) * sizeof (int32_t), s)) != GrB_SUCCESS) goto done ;
    if ((info = gcu_dmalloc ((void **) &perm_in, (nvals + 1) * sizeof (int32_t), s)) != GrB_SUCCESS) goto done ;
    if ((info = gcu_dmalloc ((void **) &perm, (nvals + 1) * sizeof (int32_t), s)) != GrB_SUCCESS) goto done ;
    if ((info = gcu_dmalloc (&vals, (nvals + 1) * zsize, s)) != GrB_SUCCESS) goto done ;
    k_segments <<<g, 256, 0, st>>> (nr, rows, Cp, base, beg, end) ;
    if ((info = gcu_launch_check ("spgemm sort segments")) != GrB_SUCCESS) goto done ;
    {
        // the permutation: every entry's own position
        int64_t gi = (nvals + 255) / 256 ;
        k_iota32 <<<(unsigned) (gi > 65535 ? 65535 : (gi < 1 ? 1 : gi)), 256, 0, st>>> (nvals, perm_in) ;
        if ((info = gcu_launch_check ("spgemm sort iota")) != GrB_SUCCESS) goto done ;
    }
    if (cub::DeviceSegmentedSort::SortPairs (NULL, tmp_bytes, Cj, keys, perm_in, perm,
        (int) nvals, (int) nr, beg, end, st) != cudaSuccess) { info = GrB_PANIC ; goto done ; }
    if ((info = gcu_dmalloc (&tmp, tmp_bytes, s)) != GrB_SUCCESS) goto done ;
    if (cub::DeviceSegmentedSort::SortPairs (tmp, tmp_bytes, Cj, keys, perm_in, perm,
        (int) nvals, (int) nr, beg, end, st) != cudaSuccess) { info = GrB_PANIC ; goto done ; }
    if ((info = gcu_launch_check ("spgemm segmented sort")) != GrB_SUCCESS) goto done ;
    if ((info = gcu_memcpy_d2d (vals, Cx, nvals * zsize, s)) != GrB_SUCCESS) goto done ;
    // perm holds absolute positions (the iota ran over the whole array)
    k_apply_sort <<<(unsigned) (nr < 65535 ? nr : 65535), 256, 0, st>>> (nr, beg, end, keys,
        perm, Cj, (const unsigned char *) vals, (unsigned char *) Cx, zsize) ;
    info = gcu_launch_check ("spgemm apply sort") ;
done:
    gcu_dfree (beg, s) ; gcu_dfree (end, s) ; gcu_dfree (keys, s) ;
    gcu_dfree (perm_in, s) ; gcu_dfree (perm, s) ; gcu_dfree (vals, s) ; gcu_dfree (tmp, s) ;
    return info ;
}

// The launch of shared bin b (1..GCU_NBINS_SHARED) holding n rows: its table
// of H slots, G threads per row, R rows per block, grid blocks.
struct bin_launch
{
    uint32_t H ;
    int G, R ;
    int64_t grid ;
    bin_launch (int b, int64_t n, gcu_bin_phase phase)
    {
        H = (uint32_t) (32ll << (b - 1)) ;
        gcu_bin_shape (H, phase, GCU_SPGEMM_THREADS, &G, &R) ;
        grid = (n + R - 1) / R ;
    }
} ;

// first [b] = where bin b's rows start in a list sorted by bin
void bin_firsts (const int64_t *hist, int64_t first [GCU_NBINS + 1])
{
    first [0] = 0 ;
    for (int b = 0 ; b < GCU_NBINS ; b++) first [b + 1] = first [b] + hist [b] ;
}

// dynamic shared memory of the numeric kernel: the layout of
// gcu_spgemm_numeric_shared (keys, values, locks, sort scratches, each
// 16-aligned)
size_t numeric_smem (int64_t H, int R, size_t zsize, bool lock)
{
    size_t a = ((size_t) R * H * 4 + 15) & ~(size_t) 15 ;
    a = (a + (size_t) R * H * zsize + 15) & ~(size_t) 15 ;
    a = (a + (lock ? (size_t) R * H * 4 : 0) + 15) & ~(size_t) 15 ;
    return a + (size_t) R * GCU_SPGEMM_SORT_SCRATCH ((size_t) H) ;
}

// The largest table (a power of 2 from 32, up to the last shared bin) whose
// kernel's shared memory (smem_of, with the rows a block of the phase)
// fits what a block can opt in to.
int64_t shared_hmax (const gcu_device_props *dev, size_t zsize, bool lock,
    size_t (*smem_of) (int64_t, int, size_t, bool), gcu_bin_phase phase)
{
    const size_t cap = dev->smem_per_block_optin > dev->smem_per_block
        ? dev->smem_per_block_optin : dev->smem_per_block ;
    int64_t hmax = 32 ;
    while (hmax < (32ll << (GCU_NBINS_SHARED - 1)))
    {
        int G, R ;
        gcu_bin_shape (hmax * 2, phase, GCU_SPGEMM_THREADS, &G, &R) ;
        if (smem_of (hmax * 2, R, zsize, lock) > cap) break ;
        hmax *= 2 ;
    }
    return hmax ;
}

int tpb_for (int64_t products, int64_t anvals, int G)
{
    // threads per row of B: the average referenced row length, as a power
    // of 2 in [1, 32] (spECK's local load balancing)
    double avg = anvals > 0 ? (double) products / (double) anvals : 1.0 ;
    int t = 1 ;
    while (t < 32 && 2 * t <= avg) t *= 2 ;
    return t < G ? t : G ;
}

struct scratch
{
    gcu_stream s ;
    void *p [40] ;
    int n ;
    GrB_Info alloc (void **q, size_t bytes)
    {
        *q = NULL ;
        if (n == (int) (sizeof (p) / sizeof (p [0]))) return GrB_PANIC ;   // a bug, never a crash
        GrB_Info info = gcu_dmalloc (q, bytes, s) ;
        if (info == GrB_SUCCESS) p [n++] = *q ;
        return info ;
    }
    void release (void)
    {
        for (int k = 0 ; k < n ; k++) gcu_dfree (p [k], s) ;
        n = 0 ;
    }
} ;

// A non-blocking stream of the call's own (*st NULL on failure: nothing to
// destroy); a counted device operation for fault injection.
GrB_Info new_stream (cudaStream_t *st)
{
    *st = NULL ;
    if (gcu_fault_now ("cudaStreamCreate")) return GrB_PANIC ;
    if (cudaStreamCreateWithFlags (st, cudaStreamNonBlocking) == cudaSuccess) return GrB_SUCCESS ;
    (void) cudaGetLastError () ;
    *st = NULL ;
    return GrB_PANIC ;
}

#define TRY(expr) do { GrB_Info t_ = (expr) ; if (t_ != GrB_SUCCESS) { info = t_ ; goto fail ; } } while (0)

// Sorted row list and bin histogram for the given per-row counts: rows
// listed by (block, bin), hist [k * GCU_NBINS + b] rows of bin b in block k
// (nb blocks, bounds on the device; nb = 1 and bounds NULL: one block).
// With dhist non-NULL the histogram is left on the device in *dhist (nb *
// GCU_NBINS counts) for the caller to fetch, and nothing waits for the
// device. With sum_of non-NULL (and dhist NULL), *sum gets the sum of
// sum_of [0..m-1], fetched with the histogram.
GrB_Info bin_rows (scratch &S, int64_t m, const int64_t *count, int64_t n,
    int64_t hmax, bool exact, int nb, const int64_t *bounds, int64_t **rows_sorted,
    int64_t *hist, unsigned long long **dhist_out = NULL,
    const int64_t *sum_of = NULL, int64_t *sum = NULL)
{
    GrB_Info info = GrB_SUCCESS ;
    cudaStream_t st = (cudaStream_t) S.s ;
    uint32_t *key = NULL, *key_sorted = NULL ;
    int64_t *rows = NULL ;
    unsigned long long *dhist = NULL, *h = NULL ;
    void *tmp = NULL ;
    size_t tmp_bytes = 0 ;
    const int nkeys = nb * GCU_NBINS ;
    int end_bit = 4 ;
    while ((1ll << end_bit) < (int64_t) nkeys) end_bit++ ;
    TRY (S.alloc ((void **) &key, (m + 1) * sizeof (uint32_t))) ;
    TRY (S.alloc ((void **) &key_sorted, (m + 1) * sizeof (uint32_t))) ;
    TRY (S.alloc ((void **) &rows, (m + 1) * sizeof (int64_t))) ;
    TRY (S.alloc ((void **) rows_sorted, (m + 1) * sizeof (int64_t))) ;
    // the histogram, then the sum
    TRY (S.alloc ((void **) &dhist, (nkeys + 1) * sizeof (unsigned long long))) ;
    TRY (gcu_memset (dhist, 0, (nkeys + 1) * sizeof (unsigned long long), S.s)) ;
    {
        int grid = (int) ((m + 255) / 256) ;
        if (grid > 65535) grid = 65535 ;
        if (grid < 1) grid = 1 ;
        k_bin <<<grid, 256, 0, st>>> (m, count, n, hmax, exact, nb, bounds, key, rows, dhist,
            sum_of, dhist + nkeys) ;
        TRY (gcu_launch_check ("spgemm bin")) ;
    }
    if (cub::DeviceRadixSort::SortPairs (NULL, tmp_bytes, key, key_sorted, rows,
        *rows_sorted, (int) m, 0, end_bit, st) != cudaSuccess) { info = GrB_PANIC ; goto fail ; }
    TRY (S.alloc (&tmp, tmp_bytes)) ;
    if (cub::DeviceRadixSort::SortPairs (tmp, tmp_bytes, key, key_sorted, rows,
        *rows_sorted, (int) m, 0, end_bit, st) != cudaSuccess) { info = GrB_PANIC ; goto fail ; }
    TRY (gcu_launch_check ("spgemm sort rows by bin")) ;
    if (dhist_out != NULL) { *dhist_out = dhist ; return GrB_SUCCESS ; }
    h = (unsigned long long *) malloc ((nkeys + 1) * sizeof (unsigned long long)) ;
    if (h == NULL) { info = GrB_OUT_OF_MEMORY ; goto fail ; }
    TRY (gcu_memcpy_d2h (h, dhist, (nkeys + 1) * sizeof (unsigned long long), S.s)) ;
    for (int b = 0 ; b < nkeys ; b++) hist [b] = (int64_t) h [b] ;
    if (sum != NULL) *sum = (int64_t) h [nkeys] ;
    free (h) ;
    return GrB_SUCCESS ;
fail:
    free (h) ;
    return info ;
}

// the work of each listed row (its products), for the ordering below
__global__ void k_row_weights (int64_t nr, const int64_t *rows,
    const int64_t *weight, unsigned long long *key)
{
    const int64_t b = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (b < nr) key [b] = (unsigned long long) weight [rows [b]] ;
}

// Lists the nr rows of one bin (in place) by decreasing weight: the longest
// rows (one block each) start first and the short ones fill in behind them,
// so no long row starts last and runs alone at the end of the launch (the
// longest-processing-time-first rule). CUB's radix sort on the weights.
GrB_Info order_by_work (int64_t nr, int64_t *rows, const int64_t *weight, gcu_stream s)
{
    if (nr < 2) return GrB_SUCCESS ;
    cudaStream_t st = (cudaStream_t) s ;
    unsigned long long *key = NULL, *key_out = NULL ;
    int64_t *rows_out = NULL ;
    void *tmp = NULL ;
    size_t tmp_bytes = 0 ;
    GrB_Info info = gcu_dmalloc ((void **) &key, 2 * nr * sizeof (unsigned long long), s) ;
    if (info == GrB_SUCCESS) info = gcu_dmalloc ((void **) &rows_out, nr * sizeof (int64_t), s) ;
    if (info == GrB_SUCCESS)
    {
        key_out = key + nr ;
        k_row_weights <<<(unsigned) ((nr + 255) / 256), 256, 0, st>>> (nr, rows, weight, key) ;
        info = gcu_launch_check ("spgemm row weights") ;
    }
    if (info == GrB_SUCCESS && cub::DeviceRadixSort::SortPairsDescending (NULL, tmp_bytes,
        key, key_out, rows, rows_out, (int) nr, 0, 64, st) != cudaSuccess) info = GrB_PANIC ;
    if (info == GrB_SUCCESS) info = gcu_dmalloc (&tmp, tmp_bytes, s) ;
    if (info == GrB_SUCCESS && cub::DeviceRadixSort::SortPairsDescending (tmp, tmp_bytes,
        key, key_out, rows, rows_out, (int) nr, 0, 64, st) != cudaSuccess) info = GrB_PANIC ;
    if (info == GrB_SUCCESS) info = gcu_launch_check ("spgemm order rows by work") ;
    if (info == GrB_SUCCESS) info = gcu_memcpy_d2d (rows, rows_out, nr * sizeof (int64_t), s) ;
    gcu_dfree (key, s) ;
    gcu_dfree (rows_out, s) ;
    gcu_dfree (tmp, s) ;
    return info ;
}

// The rows of the global bin (nr rows listed in grows, count [] their
// distinct-column bound), in chunks whose tables (slot_bytes a slot) fit a
// quarter of the free device memory: for each chunk, f (c0, c1, slots, offs)
// runs with the chunk's table offsets already on the device in offs. A single
// row too large for the budget is GrB_OUT_OF_MEMORY (the host takes the call).
template <class F>
GrB_Info for_global_chunks (scratch &S, int64_t nr, const int64_t *grows,
    const int64_t *count, int64_t n, size_t slot_bytes, F f)
{
    cudaStream_t st = (cudaStream_t) S.s ;
    int64_t *dH = NULL, *doffs = NULL ;
    int64_t *hH = NULL, *hoffs = NULL ;
    // its own temporaries, freed on return (it runs once per row block)
    GrB_Info info = gcu_dmalloc ((void **) &dH, nr * sizeof (int64_t), S.s) ;
    if (info == GrB_SUCCESS) info = gcu_dmalloc ((void **) &doffs, (nr + 1) * sizeof (int64_t), S.s) ;
    if (info == GrB_SUCCESS)
    {
        k_global_sizes <<<(unsigned) ((nr + 255) / 256), 256, 0, st>>> (nr, grows, count, n, dH) ;
        info = gcu_launch_check ("spgemm global sizes") ;
    }
    if (info == GrB_SUCCESS)
    {
        hH = (int64_t *) malloc (nr * sizeof (int64_t)) ;
        hoffs = (int64_t *) malloc ((nr + 1) * sizeof (int64_t)) ;
        if (hH == NULL || hoffs == NULL) info = GrB_OUT_OF_MEMORY ;
    }
    if (info == GrB_SUCCESS) info = gcu_memcpy_d2h (hH, dH, nr * sizeof (int64_t), S.s) ;
    size_t fr = 0, tot = 0 ;
    if (info == GrB_SUCCESS && cudaMemGetInfo (&fr, &tot) != cudaSuccess) info = GrB_PANIC ;
    const int64_t budget = (int64_t) (fr / 4) / (int64_t) slot_bytes ;
    for (int64_t c0 = 0 ; info == GrB_SUCCESS && c0 < nr ; )
    {
        int64_t c1 = c0, sum = 0 ;
        hoffs [0] = 0 ;
        while (c1 < nr && (c1 == c0 || sum + hH [c1] <= budget))
        {
            sum += hH [c1] ;
            hoffs [c1 - c0 + 1] = sum ;
            c1++ ;
        }
        if (sum > budget) { info = GrB_OUT_OF_MEMORY ; break ; }
        info = gcu_memcpy_h2d (doffs, hoffs, (c1 - c0 + 1) * sizeof (int64_t), S.s) ;
        if (info == GrB_SUCCESS) info = f (c0, c1, sum, (const int64_t *) doffs) ;
        // the offsets buffer is reused by the next chunk
        if (info == GrB_SUCCESS) info = gcu_sync (S.s) ;
        c0 = c1 ;
    }
    free (hH) ;
    free (hoffs) ;
    (void) gcu_sync (S.s) ;     // no kernel reads the offsets any more
    gcu_dfree (dH, S.s) ;
    gcu_dfree (doffs, S.s) ;
    return info ;
}

// Row blocks of the numeric phase. The result (nvals entries of 4 + zsize
// bytes on the device) goes to the host block by block through at most two
// device buffers: a result larger than the device still runs (the row-row
// paper's streaming), and the download of one block overlaps the numeric
// phase of the next. As many blocks as the largest of
//   - GRBCUDA_SPGEMM_BLOCK (bytes of output a block may hold), when set;
//   - what keeps each buffer within 30% of the free device memory;
//   - for overlap, up to GCU_OVERLAP_BLOCKS blocks of at least
//     GCU_OVERLAP_MIN_BYTES each;
// at most one per row and GCU_MAX_BLOCKS in all. Each block costs its own
// launches and tails on the device and its own fill of the download's
// pipeline on the host, so overlap pays only for large results (measured
// on the H200 for 1 to 8 blocks of the three SpGEMM workloads:
// bench/RESULTS.md, "2026-11-23 19:40-19:55 UTC").
const int GCU_OVERLAP_BLOCKS = 8 ;
const int64_t GCU_OVERLAP_MIN_BYTES = (int64_t) 512 << 20 ;
const int GCU_MAX_BLOCKS = 4096 ;

int plan_blocks (int64_t m, int64_t nvals, size_t zsize, size_t free_bytes)
{
    const int64_t out = nvals * (int64_t) (4 + zsize) ;
    int64_t nb = 1 ;
    const int64_t asked = gcu_spgemm_block_bytes () ;
    if (asked > 0) nb = (out + asked - 1) / asked ;
    const int64_t room = (int64_t) (0.3 * (double) free_bytes) ;
    if (room > 0 && (out + room - 1) / room > nb) nb = (out + room - 1) / room ;
    int64_t ov = out / GCU_OVERLAP_MIN_BYTES ;
    if (ov > GCU_OVERLAP_BLOCKS) ov = GCU_OVERLAP_BLOCKS ;
    if (ov > nb) nb = ov ;
    if (nb > m) nb = m ;
    if (nb > GCU_MAX_BLOCKS) nb = GCU_MAX_BLOCKS ;
    return nb < 1 ? 1 : (int) nb ;
}

// The dense accumulator's cursor (gcu_spgemm_products_dense): one int32 per
// entry of A, allocated once per call (the symbolic and numeric phases share
// it; each window writes before the next reads).
GrB_Info dense_cursor (scratch &S, int64_t anvals, int32_t **cursor)
{
    if (*cursor != NULL) return GrB_SUCCESS ;
    return S.alloc ((void **) cursor, ((size_t) anvals + 1) * sizeof (int32_t)) ;
}

#define TRYR(expr) do { GrB_Info t_ = (expr) ; if (t_ != GrB_SUCCESS) return t_ ; } while (0)

// Calls f (b, side) for each shared-table bin b with rows. With side_ok,
// every bin but the largest goes on the side stream (side true), and those
// come first: a bin of a few hundred blocks then runs beside the largest
// instead of alone on a device it fills a part of (grid3d-100: 21-24 us a
// numeric row block for its 306-614 blocks of boundary rows, beside
// 163-171 us for the rest). Stops at the first error f returns.
template <class F>
GrB_Info for_shared_bins (const int64_t *hist, bool side_ok, F f)
{
    int bmax = 0 ;
    for (int b = 1 ; b <= GCU_NBINS_SHARED ; b++) if (hist [b] > (bmax > 0 ? hist [bmax] : 0)) bmax = b ;
    for (int pass = 0 ; pass < 2 ; pass++)
    {
        for (int b = 1 ; b <= GCU_NBINS_SHARED ; b++)
        {
            if (hist [b] == 0) continue ;
            const bool side = side_ok && b != bmax ;
            if (side != (pass == 0)) continue ;
            TRYR (f (b, side)) ;
        }
    }
    return GrB_SUCCESS ;
}

// What the numeric phase of every row block shares.
struct numeric_ctx
{
    const gcu_spgemm_in *in ;
    void *fshared, *fglobal, *fdense ;
    size_t zsize ;
    bool lock ;
    int64_t total ;             // products (the local load balancing's average)
    const int64_t *prod ;       // products per row (the long rows' order)
    const int64_t *Cp, *Cnnz ;
    int64_t Wnum ;              // dense window of the longest rows (0: global tables)
    int32_t *cursor ;           // where each row of B stopped (more than one window)
    cudaStream_t sd ;           // the side stream, beside the call's own
    cudaEvent_t fork, join ;    // fork sd from the call's stream, join it back
} ;

// The numeric phase of one row block: hist [b] rows of bin b, listed from
// rows_k on, write their entries into Cj / Cx, which hold the block's nvals
// entries from entry base of C on.
template <class AI, class BI>
GrB_Info numeric_block (scratch &S, const numeric_ctx &X, const int64_t *hist,
    int64_t *rows_k, int64_t base, int64_t bnvals, int32_t *Cj, void *Cx)
{
    const gcu_spgemm_in *in = X.in ;
    cudaStream_t st = (cudaStream_t) S.s ;
    const size_t zsize = X.zsize ;
    const int64_t n = in->n ;
    const void *ap = in->Ap, *aj = in->Aj, *ax = in->Ax, *bp = in->Bp, *bj = in->Bj, *bx = in->Bx ;
    const int64_t *cp = X.Cp ;
    // the kernels write entry p of C at Cj [p], Cx [p]: shifted so that
    // entry base lands at the start of the block's buffers
    int32_t *cj = (int32_t *) ((uintptr_t) Cj - (uintptr_t) base * sizeof (int32_t)) ;
    void *cx = (void *) ((uintptr_t) Cx - (uintptr_t) base * zsize) ;
    int64_t first [GCU_NBINS + 1] ;
    bin_firsts (hist, first) ;
    const int64_t nglobal = hist [GCU_BIN_GLOBAL] ;
    int64_t *grows = rows_k + first [GCU_BIN_GLOBAL] ;
    if (nglobal > 0) TRYR (order_by_work (nglobal, grows, X.prod, S.s)) ;
    const bool dense = nglobal > 0 && X.Wnum > 0 ;
    // the side stream X.sd, forked from the call's stream when first used
    // and joined back at the end
    bool forked = false ;
    auto fork = [&] () -> GrB_Info
    {
        if (forked) return GrB_SUCCESS ;
        if (cudaEventRecord (X.fork, st) != cudaSuccess || cudaStreamWaitEvent (X.sd, X.fork, 0) != cudaSuccess)
            return GrB_PANIC ;
        forked = true ;
        return GrB_SUCCESS ;
    } ;
    if (dense)
    {
        // the longest rows: dense values and a bitmap over windows of Wnum
        // columns, emitted in order. On the side stream, launched first: the
        // shared-table bins run beside them, and the last long rows do not
        // finish alone on a half-empty device
        TRYR (fork ()) ;
        const size_t smem = (((size_t) X.Wnum * zsize + 15) & ~(size_t) 15) + (size_t) X.Wnum / 8 ;
        int TPB = tpb_for (X.total, in->anvals, GCU_SPGEMM_DENSE_THREADS) ;
        int64_t nn = n, W = X.Wnum ;
        int32_t *cursor = X.cursor ;
        void *args [] = { &grows, &ap, &aj, &ax, &bp, &bj, &bx, &cp, &cj, &cx, &cursor, &nn, &W, &TPB } ;
        TRYR (gcu_jit_launch (X.fdense, (unsigned) nglobal, GCU_SPGEMM_DENSE_THREADS, (unsigned) smem, X.sd, args)) ;
        TRYR (gcu_launch_check ("spgemm numeric (dense)")) ;
    }
    // without long rows, the small bins on the side stream (for_shared_bins)
    TRYR (for_shared_bins (hist, !dense, [&] (int b, bool side) -> GrB_Info
    {
        if (side) TRYR (fork ()) ;
        bin_launch L (b, hist [b], GCU_PHASE_NUMERIC) ;
        const size_t smem = numeric_smem (L.H, L.R, zsize, X.lock) ;
        const int64_t *brows = rows_k + first [b] ;
        int64_t bn = hist [b] ;
        int TPB = tpb_for (X.total, in->anvals, L.G) ;
        void *args [] = { &brows, &bn, &ap, &aj, &ax, &bp, &bj, &bx, &cp, &cj, &cx, &L.H, &L.G, &TPB } ;
        TRYR (gcu_jit_launch (X.fshared, (unsigned) L.grid, GCU_SPGEMM_THREADS, (unsigned) smem,
            side ? X.sd : st, args)) ;
        return gcu_launch_check ("spgemm numeric (shared)") ;
    })) ;
    if (forked && (cudaEventRecord (X.join, X.sd) != cudaSuccess
        || cudaStreamWaitEvent (st, X.join, 0) != cudaSuccess)) return GrB_PANIC ;
    if (nglobal == 0 || dense) return GrB_SUCCESS ;
    const size_t slot = 4 + zsize + (X.lock ? 4 : 0) ;    // bytes per global slot
    const int TPB = tpb_for (X.total, in->anvals, GCU_SPGEMM_GLOBAL_THREADS) ;
    TRYR (for_global_chunks (S, nglobal, grows, X.Cnnz, n, slot,
        [&] (int64_t c0, int64_t c1, int64_t slots, const int64_t *offs)
        {
            int32_t *keys = NULL, *locks = NULL ;
            void *vals = NULL ;
            GrB_Info r = gcu_dmalloc ((void **) &keys, slots * sizeof (int32_t), S.s) ;
            if (r == GrB_SUCCESS) r = gcu_dmalloc (&vals, slots * zsize, S.s) ;
            if (r == GrB_SUCCESS && X.lock) r = gcu_dmalloc ((void **) &locks, slots * sizeof (int32_t), S.s) ;
            if (r == GrB_SUCCESS)
            {
                const int64_t *crows = grows + c0 ;
                int tpb = TPB ;
                void *args [] = { &crows, &offs, &keys, &vals, &locks, &ap, &aj, &ax,
                                  &bp, &bj, &bx, &cp, &cj, &cx, &tpb } ;
                r = gcu_jit_launch (X.fglobal, (unsigned) (c1 - c0), GCU_SPGEMM_GLOBAL_THREADS, 0, st, args) ;
                if (r == GrB_SUCCESS) r = gcu_launch_check ("spgemm numeric (global)") ;
            }
            gcu_dfree (keys, S.s) ;
            gcu_dfree (vals, S.s) ;
            gcu_dfree (locks, S.s) ;
            return r ;
        })) ;
    // the global-table rows came out in hash order: sort them here, so T is
    // never handed to SuiteSparse jumbled
    return sort_global_rows (nglobal, grows, X.Cp, base, bnvals, Cj, Cx, zsize, S.s) ;
}

template <class AI, class BI>
GrB_Info run_typed (const gcu_semiring_desc *sr, const gcu_jit_operands *ops,
    const gcu_spgemm_in *in, gcu_spgemm_out *out, gcu_stream s)
{
    GrB_Info info = GrB_SUCCESS ;
    cudaStream_t st = (cudaStream_t) s, sc = NULL ;
    scratch S = { s, { 0 }, 0 } ;
    const int64_t m = in->m, n = in->n ;
    const AI *Ap = (const AI *) in->Ap, *Aj = (const AI *) in->Aj ;
    const BI *Bp = (const BI *) in->Bp, *Bj = (const BI *) in->Bj ;
    const gcu_device_props *dev = gcu_device () ;
    const size_t zsize = sr->mult.z.size ;
    const bool lock = zsize > 8 ;
    int64_t *prod = NULL, *Cnnz = NULL, *rows = NULL, *Cp = NULL ;
    int32_t *cursor = NULL ;    // the dense windows' place in each row of B
    int64_t hist [GCU_NBINS], first [GCU_NBINS + 1] ;
    int64_t *bhist = NULL, *bfirst = NULL, *hbounds = NULL, *hbase = NULL, *dbounds = NULL, *dbase = NULL ;
    unsigned long long *hh = NULL, *dhist = NULL ;  // the numeric bins' sizes
    int64_t Wdense = 0 ;
    size_t dev_free = 0 ;
    int32_t *bufJ [2] = { NULL, NULL } ;
    void *bufX [2] = { NULL, NULL } ;
    GrB_Index *Tp = NULL, *Tj = NULL ;
    void *Tx = NULL ;
    void *tmp = NULL ;
    size_t tmp_bytes = 0 ;
    int64_t total = 0, nvals = 0, max_bnvals = 0, nglobal = 0 ;
    int nb = 1, nblocks_run = 0 ;
    void *fshared = NULL, *fglobal = NULL, *fdense = NULL ;
    int64_t ndense_sym = 0 ;
    double numeric_ms = 0, download_s = 0 ;
    // phase boundaries: start, analysis, symbolic, row pointers; then the
    // start and end of the numeric phase of the (two) blocks in flight
    cudaEvent_t ev [4] = { NULL }, evb [2] = { NULL }, eve [2] = { NULL } ;
    numeric_ctx X ;
    memset (&X, 0, sizeof (X)) ;
    const gcu_spgemm_keep *keep_req = out->keep ;
    bool keep = false ;         // the output stays on the device
    memset (out, 0, sizeof (*out)) ;
    if (dev == NULL) return GCU_NOT_HANDLED ;
    // the numeric kernels first: a semiring that does not compile costs no
    // device work
    info = gcu_spgemm_numeric_kernels (sr, ops, &fshared, &fglobal, &fdense) ;
    if (info != GrB_SUCCESS) return info ;
    for (int e = 0 ; e < 4 ; e++)
        if (cudaEventCreate (&ev [e]) != cudaSuccess) { info = GrB_PANIC ; goto fail ; }
    for (int e = 0 ; e < 2 ; e++)
        if (cudaEventCreate (&evb [e]) != cudaSuccess || cudaEventCreate (&eve [e]) != cudaSuccess)
        { info = GrB_PANIC ; goto fail ; }
    cudaEventRecord (ev [0], st) ;
    // 1. analysis: products per row (their total comes with the symbolic
    // phase's binning)
    TRY (S.alloc ((void **) &prod, (m + 1) * sizeof (int64_t))) ;
    TRY ((row_products<AI, BI> (dev, m, in->anvals, Ap, Aj, Bp, prod, st))) ;
    cudaEventRecord (ev [1], st) ;
    // the side stream X.sd (forked and joined by the events X.fork and
    // X.join) for the kernels that run beside the largest bin of each phase,
    // created while the analysis runs
    TRY (new_stream (&X.sd)) ;
    if (cudaEventCreateWithFlags (&X.fork, cudaEventDisableTiming) != cudaSuccess
        || cudaEventCreateWithFlags (&X.join, cudaEventDisableTiming) != cudaSuccess)
    { info = GrB_PANIC ; goto fail ; }
    // and the stream of the downloads (step 5)
    TRY (new_stream (&sc)) ;

    // 2. symbolic phase: distinct columns per row
    TRY (S.alloc ((void **) &Cnnz, (m + 1) * sizeof (int64_t))) ;
    TRY (gcu_memset (Cnnz, 0, (m + 1) * sizeof (int64_t), s)) ;
    {
        const int64_t hmax_sym = 8192 ;
        TRY (bin_rows (S, m, prod, n, hmax_sym, false, 1, NULL, &rows, hist, NULL, prod, &total)) ;
        out->products = (double) total ;
        bin_firsts (hist, first) ;
        const int64_t Wsym = hist [GCU_BIN_GLOBAL] > 0 ? dense_window (dev, n, 1, 1) : 0 ;
        // the side stream forked here, joined after the bins
        if (cudaEventRecord (X.fork, st) != cudaSuccess || cudaStreamWaitEvent (X.sd, X.fork, 0) != cudaSuccess)
        { info = GrB_PANIC ; goto fail ; }
        if (Wsym > 0)
        {
            // the longest rows: a bitmap over windows of Wsym columns
            const size_t smem = (size_t) Wsym / 8 ;
            if (smem > dev->smem_per_block && cudaFuncSetAttribute (k_symbolic_dense<AI, BI>,
                cudaFuncAttributeMaxDynamicSharedMemorySize, (int) smem) != cudaSuccess)
            { info = GrB_PANIC ; goto fail ; }
            ndense_sym = hist [GCU_BIN_GLOBAL] ;
            if (Wsym < n) TRY (dense_cursor (S, in->anvals, &cursor)) ;
            // on the side stream, launched first: the shared-table bins run
            // beside the long rows
            k_symbolic_dense<AI, BI> <<<(unsigned) hist [GCU_BIN_GLOBAL], GCU_SPGEMM_DENSE_THREADS, smem, X.sd>>> (
                rows + first [GCU_BIN_GLOBAL], Ap, Aj, Bp, Bj, Cnnz, cursor, n, Wsym,
                tpb_for (total, in->anvals, GCU_SPGEMM_DENSE_THREADS)) ;
            TRY (gcu_launch_check ("spgemm symbolic (dense)")) ;
        }
        // without long rows, the small bins on the side stream (for_shared_bins)
        TRY (for_shared_bins (hist, Wsym == 0, [&] (int b, bool side) -> GrB_Info
        {
            bin_launch L (b, hist [b], GCU_PHASE_SYMBOLIC) ;
            const size_t smem = (size_t) L.R * L.H * 4 + (size_t) L.R * 4 ;
            k_symbolic_shared<AI, BI> <<<(unsigned) L.grid, GCU_SPGEMM_THREADS, smem, side ? X.sd : st>>> (
                rows + first [b], hist [b], Ap, Aj, Bp, Bj, Cnnz, L.H, L.G,
                tpb_for (total, in->anvals, L.G)) ;
            return gcu_launch_check ("spgemm symbolic (shared)") ;
        })) ;
        if (cudaEventRecord (X.join, X.sd) != cudaSuccess || cudaStreamWaitEvent (st, X.join, 0) != cudaSuccess)
        { info = GrB_PANIC ; goto fail ; }
        if (Wsym == 0 && hist [GCU_BIN_GLOBAL] > 0)
        {
            const int64_t *grows = rows + first [GCU_BIN_GLOBAL] ;
            const int TPB = tpb_for (total, in->anvals, GCU_SPGEMM_GLOBAL_THREADS) ;
            TRY (for_global_chunks (S, hist [GCU_BIN_GLOBAL], grows, prod, n, sizeof (int32_t),
                [&] (int64_t c0, int64_t c1, int64_t slots, const int64_t *offs)
                {
                    int32_t *keys = NULL ;
                    GrB_Info r = gcu_dmalloc ((void **) &keys, slots * sizeof (int32_t), s) ;
                    if (r == GrB_SUCCESS)
                    {
                        k_symbolic_global<AI, BI> <<<(unsigned) (c1 - c0), GCU_SPGEMM_GLOBAL_THREADS, 0, st>>> (
                            grows + c0, offs, keys, Ap, Aj, Bp, Bj, Cnnz, TPB) ;
                        r = gcu_launch_check ("spgemm symbolic (global)") ;
                    }
                    gcu_dfree (keys, s) ;
                    return r ;
                })) ;
        }
    }

    cudaEventRecord (ev [2], st) ;
    {
        // the free memory for the row blocks' plan, asked while the
        // symbolic phase runs (the query takes some 60 us of the host)
        size_t tot = 0 ;
        if (cudaMemGetInfo (&dev_free, &tot) != cudaSuccess) { info = GrB_PANIC ; goto fail ; }
    }

    // 3. row pointers of C
    TRY (S.alloc ((void **) &Cp, (m + 1) * sizeof (int64_t))) ;
    {
        size_t need = 0 ;
        if (cub::DeviceScan::ExclusiveSum (NULL, need, Cnnz, Cp, (int) (m + 1), st) != cudaSuccess)
        { info = GrB_PANIC ; goto fail ; }
        if (need > tmp_bytes)
        {
            tmp = NULL ;
            TRY (S.alloc (&tmp, need)) ;
            tmp_bytes = need ;
        }
        if (cub::DeviceScan::ExclusiveSum (tmp, tmp_bytes, Cnnz, Cp, (int) (m + 1), st) != cudaSuccess)
        { info = GrB_PANIC ; goto fail ; }
        TRY (gcu_launch_check ("spgemm row pointers")) ;
    }

    // 4. the row blocks (planned from nvals) and the numeric binning (by the
    // exact count), then the blocks' bounds and the bins' sizes to the host.
    // When the products' total, an upper bound of nvals, already plans one
    // block, the binning is queued behind the scan and nvals comes down with
    // its histogram: one wait between the symbolic and numeric phases
    // instead of two, the device idle for one round trip of the host.
    {
        // a long row in one block's shared memory beats a global-memory
        // table and its separate sort
        Wdense = fdense != NULL ? dense_window_numeric (dev, n, zsize) : 0 ;
        int64_t hmax = shared_hmax (dev, zsize, lock, numeric_smem, GCU_PHASE_NUMERIC) ;
        if (Wdense > 0 && hmax > GCU_SHARED_HMAX_DENSE) hmax = GCU_SHARED_HMAX_DENSE ;
        const bool one = plan_blocks (m, total, zsize, dev_free) == 1 ;
        nb = 1 ;
        if (!one)
        {
            TRY (gcu_memcpy_d2h (&nvals, Cp + m, sizeof (int64_t), s)) ;
            nb = plan_blocks (m, nvals, zsize, dev_free) ;
        }
        if (nb > 1)
        {
            // bounds, then bases, in one buffer: one copy takes both
            TRY (S.alloc ((void **) &dbounds, 2 * (nb + 1) * sizeof (int64_t))) ;
            dbase = dbounds + nb + 1 ;
            k_block_bounds <<<(unsigned) ((nb + 256) / 256), 256, 0, st>>> (m, Cp, nvals, nb, dbounds, dbase) ;
            TRY (gcu_launch_check ("spgemm row blocks")) ;
        }
        TRY (bin_rows (S, m, Cnnz, n, hmax, true, nb, dbounds, &rows, NULL, &dhist)) ;
        // nvals not known yet: into the histogram's spare word (bin_rows's
        // sum, unused here), so that one copy takes both
        if (one) TRY (gcu_memcpy_d2d (dhist + GCU_NBINS, Cp + m, sizeof (int64_t), s)) ;
        bhist = (int64_t *) malloc ((size_t) nb * GCU_NBINS * sizeof (int64_t)) ;
        bfirst = (int64_t *) malloc (((size_t) nb * GCU_NBINS + 1) * sizeof (int64_t)) ;
        hbounds = (int64_t *) malloc (2 * (nb + 1) * sizeof (int64_t)) ;
        hbase = (int64_t *) malloc ((nb + 1) * sizeof (int64_t)) ;
        hh = (unsigned long long *) malloc (((size_t) nb * GCU_NBINS + 1) * sizeof (unsigned long long)) ;
        if (bhist == NULL || bfirst == NULL || hbounds == NULL || hbase == NULL || hh == NULL)
        { info = GrB_OUT_OF_MEMORY ; goto fail ; }
        if (nb > 1)
        {
            TRY (gcu_memcpy_d2h (hbounds, dbounds, 2 * (nb + 1) * sizeof (int64_t), s)) ;
            memcpy (hbase, hbounds + nb + 1, (nb + 1) * sizeof (int64_t)) ;
        }
        TRY (gcu_memcpy_d2h (hh, dhist, ((size_t) nb * GCU_NBINS + 1) * sizeof (unsigned long long), s)) ;
        if (one) nvals = (int64_t) hh [GCU_NBINS] ;
        if (nb == 1)
        {
            hbounds [0] = 0 ; hbounds [1] = m ;
            hbase [0] = 0 ; hbase [1] = nvals ;
        }
    }
    for (int64_t k = 0 ; k < (int64_t) nb * GCU_NBINS ; k++) bhist [k] = (int64_t) hh [k] ;
    for (int k = 0 ; k < nb ; k++)
        if (hbase [k + 1] - hbase [k] > max_bnvals) max_bnvals = hbase [k + 1] - hbase [k] ;
    // one block, and asked: the output is written straight into the
    // caller's buffers and stays there
    if (keep_req != NULL && nb == 1 && nvals < ((int64_t) 1 << 32) - 1)
    {
        keep = keep_req->alloc (keep_req->ctx, (m + 1) * sizeof (uint32_t), &out->dTp) == GrB_SUCCESS
            && keep_req->alloc (keep_req->ctx, (nvals + 1) * sizeof (int32_t), &out->dTj) == GrB_SUCCESS
            && keep_req->alloc (keep_req->ctx, (nvals + 1) * zsize, &out->dTx) == GrB_SUCCESS ;
        if (keep)
        {
            bufJ [0] = (int32_t *) out->dTj ;
            bufX [0] = out->dTx ;
        }
        else out->dTp = out->dTj = out->dTx = NULL ;   // the caller frees what it gave
    }
    for (int k = keep ? 1 : 0 ; k < (nb > 1 ? 2 : 1) ; k++)
    {
        TRY (S.alloc ((void **) &bufJ [k], (max_bnvals + 1) * sizeof (int32_t))) ;
        TRY (S.alloc (&bufX [k], (max_bnvals + 1) * zsize)) ;
    }

    // 5. numeric phase, block by block: the numeric phase of block k runs
    // on the device while the host takes block k-1 (a second stream carries
    // the copies)
    {
        bfirst [0] = 0 ;
        for (int64_t k = 0 ; k < (int64_t) nb * GCU_NBINS ; k++) bfirst [k + 1] = bfirst [k] + bhist [k] ;
        for (int k = 0 ; k < nb ; k++) nglobal += bhist [k * GCU_NBINS + GCU_BIN_GLOBAL] ;
        X.in = in ;
        X.fshared = fshared ; X.fglobal = fglobal ; X.fdense = fdense ;
        X.zsize = zsize ; X.lock = lock ; X.total = total ; X.prod = prod ;
        X.Cp = Cp ; X.Cnnz = Cnnz ;
        X.Wnum = nglobal > 0 ? Wdense : 0 ;
        if (X.Wnum > 0 && X.Wnum < n) TRY (dense_cursor (S, in->anvals, &cursor)) ;
        X.cursor = cursor ;
        // the row pointers (and the binning) done: they go down first,
        // while block 0 computes
        if (cudaEventRecord (ev [3], st) != cudaSuccess || cudaStreamWaitEvent (sc, ev [3], 0) != cudaSuccess)
        { info = GrB_PANIC ; goto fail ; }
        int prev = -1, prev_buf = 0 ;
        // the block after the last one: takes the previous block down
        for (int k = 0 ; k <= nb ; k++)
        {
            const int bi = nblocks_run % 2 ;
            const bool work = k < nb && hbase [k + 1] > hbase [k] ;
            if (work)
            {
                // buffer bi last held block k-2, whose copies are done
                if (cudaEventRecord (evb [bi], st) != cudaSuccess) { info = GrB_PANIC ; goto fail ; }
                TRY ((numeric_block<AI, BI> (S, X, bhist + (int64_t) k * GCU_NBINS, rows + bfirst [(int64_t) k * GCU_NBINS],
                    hbase [k], hbase [k + 1] - hbase [k], bufJ [bi], bufX [bi]))) ;
                if (cudaEventRecord (eve [bi], st) != cudaSuccess) { info = GrB_PANIC ; goto fail ; }
                nblocks_run++ ;
            }
            if (keep || (!work && k < nb)) continue ;
            const double t0 = gcu_now () ;
            if (prev < 0)
            {
                // T's arrays (SuiteSparse's allocator: they are packed into
                // C), allocated by the host while block 0 computes
                Tp = (GrB_Index *) gcu_host_malloc ((m + 1) * sizeof (GrB_Index)) ;
                Tj = (GrB_Index *) gcu_host_malloc ((nvals + 1) * sizeof (GrB_Index)) ;
                Tx = gcu_host_malloc ((nvals + 1) * zsize) ;
                if (Tp == NULL || Tj == NULL || Tx == NULL) { info = GrB_OUT_OF_MEMORY ; goto fail ; }
                TRY (gcu_d2h_staged (Tp, Cp, (size_t) m + 1, 8, 8, (gcu_stream) sc)) ;
            }
            else
            {
                const int64_t b0 = hbase [prev], bn = hbase [prev + 1] - hbase [prev] ;
                if (cudaStreamWaitEvent (sc, eve [prev_buf], 0) != cudaSuccess) { info = GrB_PANIC ; goto fail ; }
                // column indices widened to the host's 64 bits, values as bytes
                const gcu_d2h_seg seg [2] = {
                    { Tj + b0, bufJ [prev_buf], (size_t) bn, 4, 8 },
                    { (char *) Tx + (size_t) b0 * zsize, bufX [prev_buf], (size_t) bn * zsize, 1, 1 } } ;
                TRY (gcu_d2h_staged_segs (seg, 2, (gcu_stream) sc)) ;
                float ms = 0 ;
                if (cudaEventElapsedTime (&ms, evb [prev_buf], eve [prev_buf]) == cudaSuccess) numeric_ms += ms ;
                else (void) cudaGetLastError () ;
            }
            download_s += gcu_now () - t0 ;
            if (work) { prev = k ; prev_buf = bi ; }
        }
    }
    if (keep)
    {
        k_narrow_ptr <<<(unsigned) ((m + 256) / 256 < 4096 ? (m + 256) / 256 : 4096), 256, 0, st>>> (
            m + 1, Cp, (uint32_t *) out->dTp) ;
        TRY (gcu_launch_check ("spgemm row pointers (kept)")) ;
        float ms = 0 ;
        if (cudaEventRecord (eve [0], st) != cudaSuccess) { info = GrB_PANIC ; goto fail ; }
        TRY (gcu_sync (s)) ;
        // the numeric phase's time, when a block ran (an empty result runs
        // none: its start event was never recorded)
        if (nblocks_run > 0 && cudaEventElapsedTime (&ms, evb [0], eve [0]) == cudaSuccess) numeric_ms += ms ;
    }
    TRY (gcu_sync (s)) ;
    {
        float ms [4] = { 0 } ;
        for (int e = 1 ; e < 4 ; e++) cudaEventElapsedTime (&ms [e], ev [e - 1], ev [e]) ;
        out->kernel_seconds = 1e-3 * (ms [1] + ms [2] + ms [3] + numeric_ms) ;
        out->download_seconds = download_s ;
        out->nblocks = nblocks_run ;
        out->block_bytes = (max_bnvals + 1) * (int64_t) (4 + zsize) ;
        gcu_log ("spgemm %lld x %lld x %lld: analysis %.3f ms, symbolic %.3f ms, row pointers and blocks %.3f ms, "
            "numeric %.3f ms in %d row block%s of at most %.1f MB (%lld long rows: %s); download %.2f ms",
            (long long) m, (long long) in->k, (long long) n, ms [1], ms [2], ms [3], numeric_ms,
            nblocks_run, nblocks_run == 1 ? "" : "s", out->block_bytes / 1e6, (long long) nglobal,
            X.Wnum > 0 ? "dense" : "global tables, sorted", 1e3 * download_s) ;
        if (ndense_sym > 0) gcu_log ("spgemm: symbolic phase of the %lld long rows dense", (long long) ndense_sym) ;
    }
    gcu_spgemm_blocks_add (nblocks_run) ;
    cudaStreamDestroy (sc) ;
    cudaStreamDestroy (X.sd) ;
    if (X.fork != NULL) cudaEventDestroy (X.fork) ;
    if (X.join != NULL) cudaEventDestroy (X.join) ;
    for (int e = 0 ; e < 4 ; e++) cudaEventDestroy (ev [e]) ;
    for (int e = 0 ; e < 2 ; e++) { cudaEventDestroy (evb [e]) ; cudaEventDestroy (eve [e]) ; }
    S.release () ;
    free (bhist) ; free (bfirst) ; free (hbounds) ; free (hbase) ; free (hh) ;
    out->Tp = Tp ;
    out->Tj = Tj ;
    out->Tx = Tx ;
    out->nvals = nvals ;
    out->on_device = keep ;
    if (!keep) out->dTp = out->dTj = out->dTx = NULL ;
    return GrB_SUCCESS ;

fail:
    if (sc != NULL) { (void) cudaStreamSynchronize (sc) ; cudaStreamDestroy (sc) ; }
    if (X.sd != NULL) { (void) cudaStreamSynchronize (X.sd) ; cudaStreamDestroy (X.sd) ; }
    if (X.fork != NULL) cudaEventDestroy (X.fork) ;
    if (X.join != NULL) cudaEventDestroy (X.join) ;
    (void) gcu_sync (s) ;
    (void) cudaGetLastError () ;
    for (int e = 0 ; e < 4 ; e++) if (ev [e] != NULL) cudaEventDestroy (ev [e]) ;
    for (int e = 0 ; e < 2 ; e++)
    {
        if (evb [e] != NULL) cudaEventDestroy (evb [e]) ;
        if (eve [e] != NULL) cudaEventDestroy (eve [e]) ;
    }
    S.release () ;
    free (bhist) ; free (bfirst) ; free (hbounds) ; free (hbase) ; free (hh) ;
    gcu_host_free (Tp) ;
    gcu_host_free (Tj) ;
    gcu_host_free (Tx) ;
    memset (out, 0, sizeof (*out)) ;
    return info ;
}

// mask row lengths, as the bound of each row's table; 0 for a row of A that
// makes no product (nothing to seed)
__global__ void k_mask_counts (int64_t m, const void *Mp, bool m64,
    const int64_t *prod, int64_t *count)
{
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < m ;
         i += (int64_t) gridDim.x * blockDim.x)
    {
        int64_t len = m64 ? (int64_t) (((const uint64_t *) Mp) [i + 1] - ((const uint64_t *) Mp) [i])
                          : (int64_t) (((const uint32_t *) Mp) [i + 1] - ((const uint32_t *) Mp) [i]) ;
        count [i] = prod [i] > 0 ? len : 0 ;
    }
}

// dynamic shared memory of gcu_spgemm_masked_shared: keys, positions,
// values, locks (wide values), hit flags; each part 16-aligned
size_t masked_smem (int64_t H, int R, size_t zsize, bool lock)
{
    size_t a = ((size_t) R * H * 4 + 15) & ~(size_t) 15 ;
    a = (a + (size_t) R * H * 4 + 15) & ~(size_t) 15 ;
    a = (a + (size_t) R * H * zsize + 15) & ~(size_t) 15 ;
    a = (a + (lock ? (size_t) R * H * 4 : 0) + 15) & ~(size_t) 15 ;
    return a + (size_t) R * H ;
}

template <class AI, class BI>
GrB_Info run_masked (const gcu_semiring_desc *sr, const gcu_jit_operands *ops,
    const gcu_spgemm_in *in, const gcu_spgemm_mask *mk, void *Cx, int8_t *Cb,
    double *kernel_seconds, gcu_stream s)
{
    GrB_Info info = GrB_SUCCESS ;
    cudaStream_t st = (cudaStream_t) s ;
    scratch S = { s, { 0 }, 0 } ;
    const int64_t m = in->m ;
    const AI *Ap = (const AI *) in->Ap, *Aj = (const AI *) in->Aj ;
    const BI *Bp = (const BI *) in->Bp ;
    const gcu_device_props *dev = gcu_device () ;
    const size_t zsize = sr->mult.z.size ;
    const bool lock = zsize > 8 ;
    int64_t *prod = NULL, *count = NULL, *rows = NULL ;
    int32_t *glocks = NULL ;
    int64_t hist [GCU_NBINS], first [GCU_NBINS + 1], total = 0 ;
    void *fshared = NULL, *fglobal = NULL ;
    cudaEvent_t ev [2] = { NULL, NULL } ;
    if (dev == NULL) return GCU_NOT_HANDLED ;
    info = gcu_spgemm_masked_kernels (sr, ops, &fshared, &fglobal) ;
    if (info != GrB_SUCCESS) return info ;
    for (int e = 0 ; e < 2 ; e++)
        if (cudaEventCreate (&ev [e]) != cudaSuccess) { info = GrB_PANIC ; goto fail ; }
    cudaEventRecord (ev [0], st) ;
    TRY (gcu_memset (Cb, 0, mk->nvals + 1, s)) ;
    // products per row (rows of A with none seed nothing), and their total
    // (the local load balancing's average)
    TRY (S.alloc ((void **) &prod, (m + 1) * sizeof (int64_t))) ;
    TRY (S.alloc ((void **) &count, (m + 1) * sizeof (int64_t))) ;
    {
        int64_t grid = (m * 32 + 255) / 256 ;
        int64_t cap = (int64_t) dev->sm_count * 64 ;
        if (grid > cap) grid = cap ;
        if (grid < 1) grid = 1 ;
        TRY ((row_products<AI, BI> (dev, m, in->anvals, Ap, Aj, Bp, prod, st))) ;
        k_mask_counts <<<(unsigned) grid, 256, 0, st>>> (m, mk->Mp, mk->idx64, prod, count) ;
        TRY (gcu_launch_check ("masked spgemm mask counts")) ;
    }
    {
        // longer mask rows take the global kernel; the products' total
        // comes with the bins
        const int64_t hmax = shared_hmax (dev, zsize, lock, masked_smem, GCU_PHASE_MASKED) ;
        TRY (bin_rows (S, m, count, INT64_MAX, hmax, true, 1, NULL, &rows, hist, NULL, prod, &total)) ;
        bin_firsts (hist, first) ;
        const void *mp = mk->Mp, *mj = mk->Mj, *mx = mk->Mx ;
        const void *ap = Ap, *aj = Aj, *ax = in->Ax, *bp = Bp, *bj = in->Bj, *bx = in->Bx ;
        void *cx = Cx ;
        int8_t *cb = Cb ;
        for (int b = 1 ; b <= GCU_NBINS_SHARED ; b++)
        {
            if (hist [b] == 0) continue ;
            bin_launch L (b, hist [b], GCU_PHASE_MASKED) ;
            const size_t smem = masked_smem (L.H, L.R, zsize, lock) ;
            const int64_t *brows = rows + first [b] ;
            int64_t bn = hist [b] ;
            int TPB = tpb_for (total, in->anvals, L.G) ;
            void *args [] = { &brows, &bn, &mp, &mj, &mx, &ap, &aj, &ax, &bp, &bj, &bx,
                              &cx, &cb, &L.H, &L.G, &TPB } ;
            TRY (gcu_jit_launch (fshared, (unsigned) L.grid, GCU_SPGEMM_THREADS, (unsigned) smem, st, args)) ;
            TRY (gcu_launch_check ("masked spgemm (shared)")) ;
        }
        if (hist [GCU_BIN_GLOBAL] > 0)
        {
            if (lock) TRY (S.alloc ((void **) &glocks, (mk->nvals + 1) * sizeof (int32_t))) ;
            const int64_t *grows = rows + first [GCU_BIN_GLOBAL] ;
            int TPB = tpb_for (total, in->anvals, GCU_SPGEMM_GLOBAL_THREADS) ;
            int32_t *gl = glocks ;
            void *args [] = { &grows, &mp, &mj, &mx, &ap, &aj, &ax, &bp, &bj, &bx,
                              &cx, &cb, &gl, &TPB } ;
            TRY (gcu_jit_launch (fglobal, (unsigned) hist [GCU_BIN_GLOBAL],
                GCU_SPGEMM_GLOBAL_THREADS, 0, st, args)) ;
            TRY (gcu_launch_check ("masked spgemm (global)")) ;
        }
        cudaEventRecord (ev [1], st) ;
        TRY (gcu_sync (s)) ;
        float ms = 0 ;
        cudaEventElapsedTime (&ms, ev [0], ev [1]) ;
        *kernel_seconds = 1e-3 * ms ;
        gcu_log ("masked spgemm %lld x %lld x %lld, nnz(M) %lld: %.3g products, %.3f ms "
            "(%lld rows in global memory)", (long long) m, (long long) in->k, (long long) in->n,
            (long long) mk->nvals, (double) total, ms, (long long) hist [GCU_BIN_GLOBAL]) ;
    }
    for (int e = 0 ; e < 2 ; e++) cudaEventDestroy (ev [e]) ;
    S.release () ;
    return GrB_SUCCESS ;

fail:
    (void) gcu_sync (s) ;
    for (int e = 0 ; e < 2 ; e++) if (ev [e] != NULL) cudaEventDestroy (ev [e]) ;
    S.release () ;
    return info ;
}

} // namespace

extern "C" GrB_Info gcu_spgemm_run (const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, const gcu_spgemm_in *in, gcu_spgemm_out *out,
    gcu_stream s)
{
    const gcu_spgemm_keep *keep = out->keep ;
    memset (out, 0, sizeof (*out)) ;
    out->keep = keep ;
    // int32 column indices of C, int row counts for CUB
    if (in->n >= ((int64_t) 1 << 31) || in->m >= ((int64_t) 1 << 31) - 1) return GCU_NOT_HANDLED ;
    if (in->a_idx64 != ops->a_idx64 || in->b_idx64 != ops->b_idx64) return GrB_INVALID_VALUE ;
    if (!in->a_idx64 && !in->b_idx64) return run_typed<uint32_t, uint32_t> (sr, ops, in, out, s) ;
    if (!in->a_idx64 &&  in->b_idx64) return run_typed<uint32_t, uint64_t> (sr, ops, in, out, s) ;
    if ( in->a_idx64 && !in->b_idx64) return run_typed<uint64_t, uint32_t> (sr, ops, in, out, s) ;
    return run_typed<uint64_t, uint64_t> (sr, ops, in, out, s) ;
}

extern "C" void gcu_spgemm_out_free (gcu_spgemm_out *out)
{
    gcu_host_free (out->Tp) ;
    gcu_host_free (out->Tj) ;
    gcu_host_free (out->Tx) ;
    memset (out, 0, sizeof (*out)) ;
}


extern "C" GrB_Info gcu_spgemm_masked_run (const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, const gcu_spgemm_in *in, const gcu_spgemm_mask *mask,
    void *Cx, int8_t *Cb, double *kernel_seconds, gcu_stream s)
{
    *kernel_seconds = 0 ;
    if (in->n >= ((int64_t) 1 << 31) || in->m >= ((int64_t) 1 << 31) - 1) return GCU_NOT_HANDLED ;
    if (in->a_idx64 != ops->a_idx64 || in->b_idx64 != ops->b_idx64
        || mask->idx64 != ops->m_idx64) return GrB_INVALID_VALUE ;
    if (!in->a_idx64 && !in->b_idx64) return run_masked<uint32_t, uint32_t> (sr, ops, in, mask, Cx, Cb, kernel_seconds, s) ;
    if (!in->a_idx64 &&  in->b_idx64) return run_masked<uint32_t, uint64_t> (sr, ops, in, mask, Cx, Cb, kernel_seconds, s) ;
    if ( in->a_idx64 && !in->b_idx64) return run_masked<uint64_t, uint32_t> (sr, ops, in, mask, Cx, Cb, kernel_seconds, s) ;
    return run_masked<uint64_t, uint64_t> (sr, ops, in, mask, Cx, Cb, kernel_seconds, s) ;
}
