// gcu_spmv.cuh — the SpMV variants of the GrB_mxv / GrB_vxm family (w = R*u
// with u full and no mask; src/mxv/spmv.c chooses one per matrix), generic in
// the semiring SR and instantiated by the JIT (GCU_SPMV_KERNELS in
// gcu_mxv_jit.cuh). R, the positions and T are as in gcu_mxv.cuh, whose
// shared pieces (the product, the group folds) these kernels use.
//
// The variants (after Sedaghati et al. 2015, SpMV format selection: the
// kernel chosen per matrix from the mean and spread of its row lengths):
//          vector  CSR-vector: G threads a row (G from the mean row), one row
//                  a group, shuffle folds, no presence bytes or mask;
//          stream  CSR-stream: a block's rows' products computed by all its
//                  threads in order into shared memory (coalesced reads,
//                  independent gathers of u), then folded a thread a short
//                  row, a warp a longer one;
//          adaptive  CSR-adaptive: stream over blocks of rows of about the
//                  same number of entries (the plan's), so that a power-law
//                  matrix's blocks fit their tiles;
//          sell    sliced ELL: a thread a row over a copy of R stored by
//                  column within slices of a warp's rows, padded (built
//                  once a matrix): fully coalesced reads for regular rows;
//          sellsort  sell with the rows sorted by length first (SELL-C-sigma
//                  with sigma all rows), so that a power-law matrix's slices
//                  need little padding;
//          split   with any: rows longer than a bound are cut into
//                  segments, a warp each, folded atomically (gcu_mxv_long):
//                  power-law matrices, whose few long rows would otherwise
//                  hold one group or block for the whole kernel.
#ifndef GCU_SPMV_CUH
#define GCU_SPMV_CUH

#include "mxv/gcu_mxv.cuh"

// an index or value of R read once (sell, the split): streamed past the
// caches, which are left to the gathers of u. Built-in types of the
// device's streaming loads only (others, and the CPU emulation: a plain
// load).
template <class T> __device__ __forceinline__ T gcu_mxv_ld_once (const T *p) { return *p ; }
#if defined(__CUDA_ARCH__) || defined(__CUDACC_RTC__)
__device__ __forceinline__ uint32_t gcu_mxv_ld_once (const uint32_t *p)
{ return (uint32_t) __ldcs ((const unsigned int *) p) ; }
__device__ __forceinline__ uint64_t gcu_mxv_ld_once (const uint64_t *p)
{ return (uint64_t) __ldcs ((const unsigned long long *) p) ; }
__device__ __forceinline__ int32_t gcu_mxv_ld_once (const int32_t *p) { return __ldcs ((const int *) p) ; }
__device__ __forceinline__ int64_t gcu_mxv_ld_once (const int64_t *p)
{ return (int64_t) __ldcs ((const long long *) p) ; }
__device__ __forceinline__ float gcu_mxv_ld_once (const float *p) { return __ldcs (p) ; }
__device__ __forceinline__ double gcu_mxv_ld_once (const double *p) { return __ldcs (p) ; }
#endif

// a value of R at p (ONCE: streamed, gcu_mxv_ld_once; never for an iso
// value, which every thread reads), as gcu_sr_load gives it
template <class T, class TX, bool READS, bool ISO, bool ONCE>
__device__ __forceinline__ T gcu_mxv_ld_value (const TX *__restrict__ Ax, int64_t p)
{
    if constexpr (READS && ONCE && !ISO) return gcu_cast<T> (gcu_mxv_ld_once (Ax + p)) ;
    else return gcu_sr_load<T, TX, READS, ISO> (Ax, p) ;
}

// the two inputs of the product of the matrix entry at p and the vector
// value at q (gcu_mxv_product's loads; ONCE: the matrix's value streamed),
// and the product of loaded inputs
template <class SR, bool VXM, bool ONCE = false>
__device__ __forceinline__ void gcu_mxv_load (const void *__restrict__ Mx,
    const void *__restrict__ Ux, int64_t p, int64_t q, typename SR::X &x, typename SR::Y &y)
{
    if constexpr (VXM)
    {
        x = gcu_sr_load<typename SR::X, typename SR::TA, SR::reads_x, SR::a_iso> ((const typename SR::TA *) Ux, q) ;
        y = gcu_mxv_ld_value<typename SR::Y, typename SR::TB, SR::reads_y, SR::b_iso, ONCE> ((const typename SR::TB *) Mx, p) ;
    }
    else
    {
        x = gcu_mxv_ld_value<typename SR::X, typename SR::TA, SR::reads_x, SR::a_iso, ONCE> ((const typename SR::TA *) Mx, p) ;
        y = gcu_sr_load<typename SR::Y, typename SR::TB, SR::reads_y, SR::b_iso> ((const typename SR::TB *) Ux, q) ;
    }
}

template <class SR, bool VXM>
__device__ __forceinline__ typename SR::Z gcu_mxv_mult (const typename SR::X &x,
    const typename SR::Y &y, int64_t r, int64_t k)
{
    if constexpr (VXM) return SR::mult (x, y, 0, k, r) ;
    else return SR::mult (x, y, r, k, 0) ;
}

// entries a thread loads before it multiplies any (sell's loop and the
// split's): fewer for wide values, which would take too many registers
template <class SR> struct gcu_mxv_batch
{
    static const int U = sizeof (typename SR::X) + sizeof (typename SR::Y) <= 16 ? 8
        : sizeof (typename SR::X) + sizeof (typename SR::Y) <= 64 ? 4 : 1 ;
} ;

// The entries p0, p0 + d, ... below p1 of R (indices Rj, values Rx; row r
// for the positional multipliers), U at a time: the step's indices, then
// its values and gathers of u, all issued before its first product, so
// that a thread has U gathers in flight rather than one (the exact NaN
// handling of the operators branches between products, which keeps the
// compiler from overlapping the iterations of a plain loop); R's indices
// and values are streamed (gcu_mxv_ld_once). f (q, t) gets each entry's
// position and product. PAD: the index ~0 is padding (sell's), skipped.
// NAT (the semiring is PLUS_TIMES on one floating type, gcu_mxv_nat_ok):
// the product is the GPU's own x * y, and f (q, live, t) gets every place
// of the batch, live false for the tail and the padding (t then
// meaningless), so that the caller folds with a select rather than a
// branch and the batch's gathers stay in flight together.
template <class SR, class RI, bool VXM, bool PAD, bool NAT = false, class F>
__device__ __forceinline__ void gcu_mxv_entries (const RI *__restrict__ Rj,
    const void *__restrict__ Rx, const void *__restrict__ Ux, int64_t r, int64_t p0,
    int64_t p1, int64_t d, F f)
{
    constexpr int U = gcu_mxv_batch<SR>::U ;
    for (int64_t p = p0 ; p < p1 ; p += U * d)
    {
        RI k [U] ;
        typename SR::X x [U] ;
        typename SR::Y y [U] ;
        #pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            const int64_t q = p + u * d ;
            k [u] = (RI) ~(RI) 0 ;
            if (q < p1) k [u] = gcu_mxv_ld_once (Rj + q) ;
        }
        #pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            const int64_t q = p + u * d ;
            if (q < p1 && (!PAD || k [u] != (RI) ~(RI) 0))
                gcu_mxv_load<SR, VXM, true> (Rx, Ux, q, (int64_t) k [u], x [u], y [u]) ;
            else if constexpr (NAT) { x [u] = typename SR::X () ; y [u] = typename SR::Y () ; }
        }
        #pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            const int64_t q = p + u * d ;
            const bool live = q < p1 && (!PAD || k [u] != (RI) ~(RI) 0) ;
            if constexpr (NAT) f (q, live, (typename SR::Z) x [u] * (typename SR::Z) y [u]) ;
            else if (live) f (q, gcu_mxv_mult<SR, VXM> (x [u], y [u], r, (int64_t) k [u])) ;
        }
    }
}

//------------------------------------------------------------------------------
// SpMV variants: u full, no mask (every row of R is computed, an entry of w
// wherever the row has one). Rows longer than lrow (> 0: the split) are left
// to gcu_mxv_long: the identity here, folded into there.
//------------------------------------------------------------------------------

// row i of R, entries [p0, p1) with a stride of G from lane, into acc;
// BATCH: a batch of entries loaded before their products (gcu_mxv_entries:
// the split's segments, where it measured faster), else a plain loop (the
// vector and stream variants, slower with it: bench/RESULTS.md)
template <class SR, class RI, bool VXM, bool BATCH = false>
__device__ __forceinline__ void gcu_mxv_row_part (const RI *__restrict__ Rj,
    const void *__restrict__ Rx, const void *__restrict__ Ux, int64_t i, int64_t p0,
    int64_t p1, int lane, int G, typename SR::Z &acc, bool &has)
{
    if constexpr (BATCH)
    {
        gcu_mxv_entries<SR, RI, VXM, false> (Rj, Rx, Ux, i, p0 + lane, p1, G,
            [&] (int64_t, const typename SR::Z &t) { gcu_mxv_fold1<SR> (acc, has, t) ; }) ;
    }
    else
    {
        #pragma unroll 4
        for (int64_t p = p0 + lane ; p < p1 ; p += G)
        {
            const int64_t k = (int64_t) Rj [p] ;
            gcu_mxv_fold1<SR> (acc, has, gcu_mxv_product<SR, VXM> (Rx, Ux, p, k, i, k)) ;
        }
    }
}

// w (i) of a row of len entries: acc, or the identity of a long row (split)
template <class SR>
__device__ __forceinline__ void gcu_mxv_put (typename SR::Z *__restrict__ Tx,
    int8_t *__restrict__ Tb, int64_t i, int64_t len, int64_t lrow, const typename SR::Z &acc)
{
    if (lrow > 0 && len > lrow) Tx [i] = SR::identity () ;
    else if (len > 0) Tx [i] = acc ;
    Tb [i] = len > 0 ;
}

// vector: a group of G threads a row, a row a group (the grid covers the rows)
template <class SR, class RI, bool VXM>
__device__ __forceinline__ void gcu_mxv_vector (int64_t nrows,
    const RI *__restrict__ Rp, const RI *__restrict__ Rj, const void *__restrict__ Rx,
    const void *__restrict__ Ux, typename SR::Z *__restrict__ Tx,
    int8_t *__restrict__ Tb, int G, int64_t lrow)
{
    typedef typename SR::Z Z ;
    const int lane = (int) (threadIdx.x % (unsigned) G) ;
    const int64_t i = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / G ;
    if (i >= nrows) return ;        // the whole group: one row a group
    const int64_t p0 = (int64_t) Rp [i], p1 = (int64_t) Rp [i + 1] ;
    Z acc = SR::identity () ;
    bool has = false ;
    if (!(lrow > 0 && p1 - p0 > lrow))
    {
        gcu_mxv_row_part<SR, RI, VXM> (Rj, Rx, Ux, i, p0, p1, lane, G, acc, has) ;
    }
    if (G > 1) gcu_mxv_fold_group<SR, false> (acc, has, G, gcu_mxv_group_mask (G)) ;
    if (lane == 0) gcu_mxv_put<SR> (Tx, Tb, i, p1 - p0, lrow, acc) ;
}

// stream, second half: the block's rows nr rows from r0 (pointers rp,
// relative to base), from the staged products (tile) or, when they did not
// fit, from R itself: a thread a row up to wrow entries, a warp a row above
template <class SR, class RI, bool VXM>
__device__ __forceinline__ void gcu_mxv_stream_rows (int64_t r0, int nr,
    const int64_t *rp, const typename SR::Z *tile, bool staged,
    const RI *__restrict__ Rj, const void *__restrict__ Rx, const void *__restrict__ Ux,
    typename SR::Z *__restrict__ Tx, int8_t *__restrict__ Tb, int64_t lrow, int wrow)
{
    typedef typename SR::Z Z ;
    const int64_t base = rp [0] ;
    for (int t = (int) threadIdx.x ; t < nr ; t += (int) blockDim.x)
    {
        const int64_t len = rp [t + 1] - rp [t] ;
        if (len > wrow && !(lrow > 0 && len > lrow)) continue ;
        Z acc = SR::identity () ;
        bool has = false ;
        if (!(lrow > 0 && len > lrow))
        {
            if (staged)
                for (int64_t q = rp [t] - base ; q < rp [t + 1] - base ; q++)
                    gcu_mxv_fold1<SR> (acc, has, tile [q]) ;
            else gcu_mxv_row_part<SR, RI, VXM> (Rj, Rx, Ux, r0 + t, rp [t], rp [t + 1], 0, 1, acc, has) ;
        }
        gcu_mxv_put<SR> (Tx, Tb, r0 + t, len, lrow, acc) ;
    }
    const int lane = (int) (threadIdx.x % 32u) ;
    for (int t = (int) (threadIdx.x / 32u) ; t < nr ; t += (int) (blockDim.x / 32u))
    {
        const int64_t len = rp [t + 1] - rp [t] ;
        if (len <= wrow || (lrow > 0 && len > lrow)) continue ;
        Z acc = SR::identity () ;
        bool has = false ;
        if (staged)
            for (int64_t q = rp [t] - base + lane ; q < rp [t + 1] - base ; q += 32)
                gcu_mxv_fold1<SR> (acc, has, tile [q]) ;
        else gcu_mxv_row_part<SR, RI, VXM> (Rj, Rx, Ux, r0 + t, rp [t], rp [t + 1], lane, 32, acc, has) ;
        gcu_mxv_fold_group<SR, false> (acc, has, 32, 0xffffffffu) ;
        if (lane == 0) gcu_mxv_put<SR> (Tx, Tb, r0 + t, len, lrow, acc) ;
    }
}

// stream's body for the block's nr rows from r0: their products, at most C
// of them, are computed by all threads in order (coalesced reads of R, C
// independent gathers of u) into shared memory, then folded row by row. A
// block whose rows hold more than C entries reads R directly. Shared
// memory: C values, then nr + 1 pointers (the host sizes it). The staged
// products see row 0 as their position: the host never runs stream or
// adaptive for positional multipliers.
template <class SR, class RI, bool VXM>
__device__ __forceinline__ void gcu_mxv_stream_block (int64_t r0, int nr,
    const RI *__restrict__ Rp, const RI *__restrict__ Rj, const void *__restrict__ Rx,
    const void *__restrict__ Ux, typename SR::Z *__restrict__ Tx,
    int8_t *__restrict__ Tb, int C, int64_t lrow, int wrow)
{
    typedef typename SR::Z Z ;
    extern __shared__ __align__(16) unsigned char gcu_smem [];
    Z *tile = (Z *) gcu_smem ;
    int64_t *rp = (int64_t *) (gcu_smem + (((size_t) C * sizeof (Z) + 15) & ~(size_t) 15)) ;
    for (int t = (int) threadIdx.x ; t <= nr ; t += (int) blockDim.x) rp [t] = (int64_t) Rp [r0 + t] ;
    __syncthreads () ;
    const int64_t base = rp [0], total = rp [nr] - base ;
    const bool staged = total <= C ;
    if (staged)
    {
        #pragma unroll 4
        for (int64_t q = threadIdx.x ; q < total ; q += blockDim.x)
        {
            const int64_t k = (int64_t) Rj [base + q] ;
            tile [q] = gcu_mxv_product<SR, VXM> (Rx, Ux, base + q, k, 0, k) ;
        }
    }
    __syncthreads () ;
    gcu_mxv_stream_rows<SR, RI, VXM> (r0, nr, rp, tile, staged, Rj, Rx, Ux, Tx, Tb, lrow, wrow) ;
}

// stream: R rows a block (the grid covers the rows)
template <class SR, class RI, bool VXM>
__device__ __forceinline__ void gcu_mxv_stream (int64_t nrows,
    const RI *__restrict__ Rp, const RI *__restrict__ Rj, const void *__restrict__ Rx,
    const void *__restrict__ Ux, typename SR::Z *__restrict__ Tx,
    int8_t *__restrict__ Tb, int R, int C, int64_t lrow)
{
    const int64_t r0 = (int64_t) blockIdx.x * R ;
    const int nr = (int) (nrows - r0 < R ? nrows - r0 : R) ;
    gcu_mxv_stream_block<SR, RI, VXM> (r0, nr, Rp, Rj, Rx, Ux, Tx, Tb, C, lrow,
        GCU_MXV_STREAM_WARP_ROW) ;
}

// adaptive (CSR-adaptive): stream over the plan's blocks, block b the rows
// Bs [b] .. Bs [b+1]-1 (at most GCU_MXV_ADAPTIVE_ROWS of them, about
// GCU_MXV_ADAPTIVE_NNZ entries, a long row alone): every block's products
// fit its tile, where stream's blocks of a fixed number of rows overflow
// on a power-law matrix and read R row by row. Rows longer than wrow are
// folded by a warp.
template <class SR, class RI, bool VXM>
__device__ __forceinline__ void gcu_mxv_adaptive (const int64_t *__restrict__ Bs,
    const RI *__restrict__ Rp, const RI *__restrict__ Rj, const void *__restrict__ Rx,
    const void *__restrict__ Ux, typename SR::Z *__restrict__ Tx,
    int8_t *__restrict__ Tb, int C, int64_t lrow, int wrow)
{
    const int64_t r0 = Bs [blockIdx.x] ;
    const int nr = (int) (Bs [blockIdx.x + 1] - r0) ;
    gcu_mxv_stream_block<SR, RI, VXM> (r0, nr, Rp, Rj, Rx, Ux, Tx, Tb, C, lrow, wrow) ;
}

// sell (sliced ELL): rows in slices of GCU_MXV_SELL_SLICE, slice s's
// entries at So [s] .. So [s+1]-1, column j of the slice (the j-th entry of
// each of its rows) at So [s] + j * GCU_MXV_SELL_SLICE + (row's lane), a row
// shorter than its slice padded with the column ~0 and a value of zero
// bytes (Sj, Sx: a copy of R's indices and values in that order, built once
// a matrix, spmv_plan.cu; Sx is R's own values when they are iso). The
// slices' rows are R's in order (Sp NULL) or, sorted by length so that the
// rows of a slice are about as long (power-law matrices), rows Sp [0 ..
// nrows). A thread a row: each step of the warp reads one column of its
// slice, coalesced, with no shared memory and no row pointers; the padding
// is skipped. Rows with no entry in the slices (none, or a long row left to
// gcu_mxv_long) get the identity and no entry; gcu_mxv_long marks the long
// ones. NAT (PLUS_TIMES on one floating type): the row summed with the
// GPU's own + and *, in the same order as by the operators and with the
// same roundings (the JIT compiles without contraction, and the identity
// -0 is neutral), without the check after every operation that gives a NaN
// the host's sign and payload (fewer instructions and registers: more
// threads an SM); a NaN stays NaN to the end of a sum of PLUS and TIMES,
// so a row whose sum is one is summed again by the operators.
template <class SR, class RI, bool VXM, bool NAT = false>
__device__ __forceinline__ void gcu_mxv_sell (int64_t nrows, const int64_t *__restrict__ So,
    const int32_t *__restrict__ Sp, const RI *__restrict__ Sj, const void *__restrict__ Sx,
    const void *__restrict__ Ux, typename SR::Z *__restrict__ Tx, int8_t *__restrict__ Tb)
{
    typedef typename SR::Z Z ;
    const int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (i >= nrows) return ;        // no warp-wide step below
    const int64_t s = i / GCU_MXV_SELL_SLICE ;
    const int64_t q0 = So [s] + i % GCU_MXV_SELL_SLICE, q1 = So [s + 1] ;
    const int64_t r = Sp != NULL ? (int64_t) Sp [i] : i ;
    Z acc = SR::identity () ;
    bool has = false, exact = true ;
    if constexpr (NAT)
    {
        gcu_mxv_entries<SR, RI, VXM, true, true> (Sj, Sx, Ux, r, q0, q1, GCU_MXV_SELL_SLICE,
            [&] (int64_t, bool live, const Z &t) { acc = live ? acc + t : acc ; has |= live ; }) ;
        exact = acc != acc ;
    }
    if (exact)
    {
        // the semiring's operators (a NaN in a native sum: the host's NaN),
        // by a plain loop after a native sum: the batched loop here as
        // well took the kernel from 48 registers to 80 (nvcc, sm_90, FP64)
        acc = SR::identity () ;
        if constexpr (NAT)
        {
            for (int64_t q = q0 ; q < q1 ; q += GCU_MXV_SELL_SLICE)
            {
                const RI k = Sj [q] ;
                if (k != (RI) ~(RI) 0)
                    gcu_mxv_fold1<SR> (acc, has, gcu_mxv_product<SR, VXM> (Sx, Ux, q, (int64_t) k, r, (int64_t) k)) ;
            }
        }
        else gcu_mxv_entries<SR, RI, VXM, true> (Sj, Sx, Ux, r, q0, q1, GCU_MXV_SELL_SLICE,
            [&] (int64_t, const Z &t) { gcu_mxv_fold1<SR> (acc, has, t) ; }) ;
    }
    Tx [r] = acc ;
    Tb [r] = has ;
}

// split: the long rows of R cut into segments, segment w (of nseg) its row
// Sg [3w] and its entries Sg [3w+1] .. Sg [3w+2]-1 (the plan's, found once a
// matrix: a warp reads them with one load rather than a binary search over
// the long rows, 16 dependent loads for rmat-20-16's rows over 128); a warp
// a segment, folded into Tx (the identity the base kernel left there) by
// gcu_spgemm_accum, and the row's presence byte set. NAT: the segment's sums and the warp's fold in the
// GPU's arithmetic as sell's, the segment again by the operators where a
// lane's sum is NaN.
template <class SR, class RI, bool VXM, bool NAT = false>
__device__ __forceinline__ void gcu_mxv_long (int64_t nseg, const int64_t *__restrict__ Sg,
    const RI *__restrict__ Rj, const void *__restrict__ Rx,
    const void *__restrict__ Ux, typename SR::Z *__restrict__ Tx, int8_t *__restrict__ Tb,
    int32_t *__restrict__ locks)
{
    typedef typename SR::Z Z ;
    const int64_t w = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ;
    const int lane = (int) (threadIdx.x % 32u) ;
    if (w >= nseg) return ;         // the whole warp
    const int64_t i = Sg [3 * w], p0 = Sg [3 * w + 1], p1 = Sg [3 * w + 2] ;
    Z acc = SR::identity () ;
    bool has = false ;
    bool exact = !NAT ;
    if constexpr (NAT)
    {
        gcu_mxv_entries<SR, RI, VXM, false, true> (Rj, Rx, Ux, i, p0 + lane, p1, 32,
            [&] (int64_t, bool live, const Z &t) { acc = live ? acc + t : acc ; has |= live ; }) ;
        // a NaN in any lane's sum: the segment again by the operators
        exact = __any_sync (0xffffffffu, acc != acc) != 0 ;
        if (!exact)
        {
            for (int off = 16 ; off > 0 ; off /= 2) acc = acc + __shfl_down_sync (0xffffffffu, acc, off) ;
            has = __any_sync (0xffffffffu, has) != 0 ;
        }
    }
    if (exact)
    {
        acc = SR::identity () ;
        gcu_mxv_row_part<SR, RI, VXM, !NAT> (Rj, Rx, Ux, i, p0, p1, lane, 32, acc, has) ;
        gcu_mxv_fold_group<SR, true> (acc, has, 32, 0xffffffffu) ;
    }
    if (lane == 0 && has)
    {
        gcu_spgemm_accum<SR> (&Tx [i], &locks [i], acc) ;
        Tb [i] = 1 ;        // (sell leaves it 0: it never sees the row's length)
    }
}

#endif
