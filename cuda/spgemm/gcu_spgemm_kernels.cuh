// gcu_spgemm_kernels.cuh — the `__global__` kernels of the SpGEMM family
// that nvcc compiles into the library (they do not depend on the semiring):
// the analysis, the binning of rows, the symbolic phase (thin wrappers over
// gcu_spgemm.cuh), row blocks, the sort of the global-table rows and the
// masked saxpy's counts. Launched by src/spgemm/launch.cu, the one
// translation unit that includes this header; their shapes come from
// gcu_spgemm_policy.h. The JIT-specialised kernels are in gcu_spgemm_jit.cuh.
#ifndef GCU_SPGEMM_KERNELS_CUH
#define GCU_SPGEMM_KERNELS_CUH

#include "spgemm/gcu_spgemm.cuh"

__device__ __forceinline__ int64_t gcu_spgemm_pow2_at_least (int64_t x)
{
    int64_t h = GCU_SPGEMM_HMIN ;
    while (h < x) h <<= 1 ;
    return h ;
}

template <class AI, class BI>
__global__ void __launch_bounds__ (GCU_SPGEMM_AUX_THREADS) k_row_products (int64_t m,
    const AI *Ap, const AI *Aj, const BI *Bp, int64_t *prod)
{
    gcu_spgemm_row_products (m, Ap, Aj, Bp, prod) ;
}

// the same with a thread per row, for short rows of A (a warp per row would
// leave most lanes idle)
template <class AI, class BI>
__global__ void __launch_bounds__ (GCU_SPGEMM_AUX_THREADS) k_row_products_thread (int64_t m,
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


// bin of each row from an upper bound of its distinct columns (cap = min
// (products, n) in the symbolic phase, the exact count in the numeric one):
// a table of H >= 2 * cap slots, or (exact counts) H >= 1.5 * cap, a load
// of at most 2/3, which keeps probes short and halves the table (and the
// sort of its keys) for rows just over a power of 2. With nb > 1 row blocks
// (block k: rows bounds [k] .. bounds [k+1]-1) the key is k * GCU_SPGEMM_NBINS +
// bin, so that one sort lists every block's rows by bin.
// When sum_of is not NULL, *sum gets the sum of sum_of [0..m-1] as well (the
// analysis's total of products, with no reduction and no wait of its own).
__global__ void __launch_bounds__ (GCU_SPGEMM_AUX_THREADS) k_bin (int64_t m, const int64_t *count,
    int64_t n, int64_t hmax, bool exact, int nb, const int64_t *bounds,
    uint32_t *key, int64_t *rows, unsigned long long *hist,
    const int64_t *sum_of, unsigned long long *sum)
{
    __shared__ unsigned long long h [GCU_SPGEMM_BIN_SHARED_KEYS] ;
    __shared__ unsigned long long bsum ;
    unsigned long long mine = 0 ;
    if (threadIdx.x == 0) bsum = 0 ;
    const int nkeys = nb * GCU_SPGEMM_NBINS ;
    const bool in_shared = nkeys <= GCU_SPGEMM_BIN_SHARED_KEYS ;
    for (int t = threadIdx.x ; in_shared && t < nkeys ; t += blockDim.x) h [t] = 0 ;
    __syncthreads () ;
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < m ;
         i += (int64_t) gridDim.x * blockDim.x)
    {
        int64_t cap = count [i] < n ? count [i] : n ;
        int b = 0 ;
        if (cap > 0)
        {
            int64_t H = gcu_spgemm_pow2_at_least (exact ? cap + (cap + 1) / 2 : 2 * cap) ;
            if (H > hmax) b = GCU_SPGEMM_BIN_GLOBAL ;
            else { b = 1 ; while (((int64_t) GCU_SPGEMM_HMIN << (b - 1)) < H) b++ ; }
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
        const uint32_t kk = (uint32_t) blk * GCU_SPGEMM_NBINS + (uint32_t) b ;
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


// row pointers narrowed to 32 bits (a result kept on the device: the
// residency's CSR holds pointers and indices of one width)
__global__ void k_narrow_ptr (int64_t n, const int64_t *Cp, uint32_t *Tp)
{
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < n ;
         i += (int64_t) gridDim.x * blockDim.x)
        Tp [i] = (uint32_t) Cp [i] ;
}

// Row blocks of equal output: bounds [k] = the first row whose entries start
// at or after k * nvals / nb (bounds [0] = 0, bounds [nb] = m), and base [k]
// = Cp [bounds [k]], the block's first entry.
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
    H [b] = gcu_spgemm_pow2_at_least (2 * c) ;
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


// the work of each listed row (its products), for the ordering below
__global__ void k_row_weights (int64_t nr, const int64_t *rows,
    const int64_t *weight, unsigned long long *key)
{
    const int64_t b = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (b < nr) key [b] = (unsigned long long) weight [rows [b]] ;
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

#endif
