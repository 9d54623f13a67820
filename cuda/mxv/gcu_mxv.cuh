// gcu_mxv.cuh — matrix-vector products w = R*u over any semiring, generic in
// the semiring SR and instantiated by the JIT (src/mxv/jit_mxv.c). Both
// GrB_mxv and GrB_vxm come here: R is the matrix whose rows give the entries
// of w (op(A) for mxv, op(B)' for vxm), P = R' is the same matrix by the
// other orientation. Methods (src/mxv/mxv.c chooses):
//
//   pull   one group of G threads per row i of R (rows the mask excludes are
//          skipped whole: BFS's complemented mask on visited vertices), u
//          scattered to a dense array with a presence byte per entry (Ub,
//          NULL when u is full); the group's partial values are folded by
//          warp shuffles. ANY and terminal monoids stop a thread's row early.
//   push   one group per entry u(k): row k of P is walked and each product
//          is folded into a dense T with gcu_spgemm_accum (native atomics
//          for integer PLUS/MIN/MAX, CAS otherwise, a lock per entry for values
//          wider than 8 bytes); for sparse u (BFS frontiers). With the
//          split, the entries whose row of P is longer than a bound are
//          left to push_long: each such row is cut into segments of a fixed
//          length, a warp a segment, found on the device from an inclusive
//          scan of the entries' segment counts (src/mxv/push_split.cu; by
//          each warp itself for a u of a warp's entries or fewer), so a
//          hub's row (BFS's first level) is walked by hundreds of warps
//          instead of one.
//   SpMV variants (u full, no mask): cuda/mxv/gcu_spmv.cuh.
//
// Positions (the positional multipliers FIRSTI ... SECONDJ1): mxv's product
// op(A)(i,k) * u(k) is at (i, k, 0); vxm's u(k) * op(B)(k,j) at (0, k, j),
// the vector being the first operand (x) there and the matrix the second.
// The output is dense: Tx [r] (SR::Z) and Tb [r] = 1 when w has entry r.
#ifndef GCU_MXV_CUH
#define GCU_MXV_CUH

#include "common/gcu_accum.cuh"
#include "mxv/gcu_mxv_policy.h"

// the product of the matrix entry at p (R (r,k), or P (k,r)) and the vector
// value at q
template <class SR, bool VXM>
__device__ __forceinline__ typename SR::Z gcu_mxv_product (const void *__restrict__ Mx,
    const void *__restrict__ Ux, int64_t p, int64_t q, int64_t r, int64_t k)
{
    if constexpr (VXM)
    {
        const typename SR::X x = gcu_sr_load<typename SR::X, typename SR::TA, SR::reads_x, SR::a_iso>
            ((const typename SR::TA *) Ux, q);
        const typename SR::Y y = gcu_sr_load<typename SR::Y, typename SR::TB, SR::reads_y, SR::b_iso>
            ((const typename SR::TB *) Mx, p);
        return SR::mult (x, y, 0, k, r);
    }
    else
    {
        const typename SR::X x = gcu_sr_load<typename SR::X, typename SR::TA, SR::reads_x, SR::a_iso>
            ((const typename SR::TA *) Mx, p);
        const typename SR::Y y = gcu_sr_load<typename SR::Y, typename SR::TB, SR::reads_y, SR::b_iso>
            ((const typename SR::TB *) Ux, q);
        return SR::mult (x, y, r, k, 0);
    }
}

// a value of any type from the lane d above within segments of width lanes,
// 4 bytes at a time (values of every size: FC64, user types)
template <class T>
__device__ __forceinline__ T gcu_mxv_shfl_down (unsigned mask, const T &v, int d, int width)
{
    constexpr int W = (int) ((sizeof (T) + 3) / 4) ;
    unsigned int w [W] ;
    w [W - 1] = 0 ;
    memcpy (w, &v, sizeof (T)) ;
    #pragma unroll
    for (int q = 0 ; q < W ; q++) w [q] = __shfl_down_sync (mask, w [q], d, width) ;
    T r ;
    memcpy (&r, w, sizeof (T)) ;
    return r ;
}

// the lanes of this thread's group of G (a power of two, at most 32)
__device__ __forceinline__ unsigned gcu_mxv_group_mask (int G)
{
    const unsigned base = (threadIdx.x & 31u) & ~((unsigned) G - 1u) ;
    return (G == 32) ? 0xffffffffu : (((1u << G) - 1u) << base) ;
}

// acc (has: whether it holds a value) folded with t. Every monoid but ANY
// starts from its identity, neutral for every value, so the flag is only
// ANY's business there (ANY keeps the first value).
template <class SR>
__device__ __forceinline__ void gcu_mxv_fold1 (typename SR::Z &acc, bool &has,
    const typename SR::Z &t)
{
    if constexpr (SR::is_any) { if (!has) acc = t ; }
    else acc = SR::add (acc, t) ;
    has = true ;
}

// lane 0 of the group (G lanes, gmask) gets the fold of its lanes' acc by
// shuffles; HAS: lane 0's has becomes the group's (a lane may hold none)
template <class SR, bool HAS>
__device__ __forceinline__ void gcu_mxv_fold_group (typename SR::Z &acc, bool &has, int G,
    unsigned gmask)
{
    typedef typename SR::Z Z ;
    for (int off = G / 2 ; off > 0 ; off /= 2)
    {
        const Z o = gcu_mxv_shfl_down (gmask, acc, off, G) ;
        if constexpr (SR::is_any)
        {
            const bool oh = __shfl_down_sync (gmask, (int) has, off, G) != 0 ;
            if (oh && !has) { acc = o ; has = true ; }
        }
        else acc = SR::add (acc, o) ;
    }
    if constexpr (HAS && !SR::is_any) has = __any_sync (gmask, has) != 0 ;
}

// pull's row i of R by a group of G threads (lane: this thread's place in
// it, gmask: the group's lanes), T (i) written by lane 0. ANY and terminal
// monoids stop the row early: the whole group once any lane is done
// (group_exit: BFS's pull, whose first frontier neighbour ends the row), or
// each thread on its own.
template <class SR, class RI, bool VXM>
__device__ __forceinline__ void gcu_mxv_pull_row (int64_t i,
    const RI *__restrict__ Rp, const RI *__restrict__ Rj, const void *__restrict__ Rx,
    const int8_t *__restrict__ Ub, const void *__restrict__ Ux,
    typename SR::Z *__restrict__ Tx, int8_t *__restrict__ Tb, int G, int lane,
    unsigned gmask, bool group_exit)
{
    typedef typename SR::Z Z ;
    Z acc = SR::identity () ;
    bool has = false ;
    const int64_t p0 = (int64_t) Rp [i], p1 = (int64_t) Rp [i + 1] ;
    if ((SR::is_any || SR::has_terminal) && group_exit)
    {
        // the group steps together and stops as one once a lane is done
        for (int64_t b = p0 ; b < p1 ; b += G)
        {
            const int64_t p = b + lane ;
            const int64_t k = p < p1 ? (int64_t) Rj [p] : 0 ;
            if (p < p1 && (Ub == NULL || Ub [k]))
                gcu_mxv_fold1<SR> (acc, has, gcu_mxv_product<SR, VXM> (Rx, Ux, p, k, i, k)) ;
            if (__any_sync (gmask, has && gcu_sr_done<SR> (acc))) break ;
        }
    }
    else for (int64_t p = p0 + lane ; p < p1 ; p += G)
    {
        const int64_t k = (int64_t) Rj [p] ;
        if (Ub != NULL && !Ub [k]) continue ;
        gcu_mxv_fold1<SR> (acc, has, gcu_mxv_product<SR, VXM> (Rx, Ux, p, k, i, k)) ;
        if (gcu_sr_done<SR> (acc)) break ;
    }
    if (G > 1) gcu_mxv_fold_group<SR, true> (acc, has, G, gmask) ;
    if (lane == 0)
    {
        if (has) Tx [i] = acc ;
        Tb [i] = has ;
    }
}

// pull: groups of G threads (a power of two, at most 32: a group lies within
// one warp), u with presence bytes (Ub; NULL: full); the group folds by
// shuffles (gcu_mxv_pull_row). A grid-stride loop of warps over runs of 32
// rows: a lane a row first reads whether the mask allows it and whether it
// has entries (T (i) none when not, coalesced), then the warp's groups take
// the rows that are left in turn. BFS's pull allows every unvisited row,
// most of them empty or quickly done: a group walking every row one at a
// time spent its time waiting on those reads.
template <class SR, class RI, bool VXM>
__device__ __forceinline__ void gcu_mxv_pull (int64_t nrows,
    const RI *__restrict__ Rp, const RI *__restrict__ Rj, const void *__restrict__ Rx,
    const int8_t *__restrict__ Ub, const void *__restrict__ Ux,
    const int8_t *__restrict__ allow, typename SR::Z *__restrict__ Tx,
    int8_t *__restrict__ Tb, int G, bool group_exit)
{
    const int lane32 = (int) (threadIdx.x & 31u) ;
    const int lane = lane32 % G, group = lane32 / G, ngroups = 32 / G ;
    const unsigned gmask = gcu_mxv_group_mask (G) ;
    const int64_t nwarps = ((int64_t) gridDim.x * blockDim.x) / 32 ;
    for (int64_t base = (((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32) * 32 ;
         base < nrows ; base += nwarps * 32)
    {
        const int64_t i = base + lane32 ;
        bool work = false ;
        if (i < nrows)
        {
            work = (allow == NULL || allow [i]) && Rp [i + 1] > Rp [i] ;
            if (!work) Tb [i] = 0 ;
        }
        unsigned todo = __ballot_sync (0xffffffffu, work) ;
        while (todo != 0)
        {
            // this group's row: the group-th lowest of the rows left; the
            // ngroups lowest are taken this round
            unsigned mine = todo ;
            for (int q = 0 ; q < group && mine != 0 ; q++) mine &= mine - 1 ;
            for (int q = 0 ; q < ngroups && todo != 0 ; q++) todo &= todo - 1 ;
            if (mine != 0)
                gcu_mxv_pull_row<SR, RI, VXM> (base + __ffs (mine) - 1, Rp, Rj, Rx, Ub, Ux, Tx, Tb,
                    G, lane, gmask, group_exit) ;
        }
    }
}

// push's step: the entries [p0, p1) of row k of P (the row of u's entry e)
// with a stride of G from lane, each product folded into T (r) unless the
// mask excludes r; ANY skips an r that already has a value (the first value
// to land is as good as any other). The one loop body of push and
// push_long.
template <class SR, class PI, bool VXM>
__device__ __forceinline__ void gcu_mxv_push_part (int64_t e, int64_t k, int64_t p0,
    int64_t p1, int lane, int G, const void *__restrict__ Ux,
    const PI *__restrict__ Pj, const void *__restrict__ Px,
    const int8_t *__restrict__ allow, typename SR::Z *__restrict__ Tx,
    int8_t *__restrict__ Tb, int32_t *__restrict__ locks)
{
    for (int64_t p = p0 + lane ; p < p1 ; p += G)
    {
        const int64_t r = (int64_t) Pj [p];
        if (allow != NULL && !allow [r]) continue;
        if (SR::is_any && *(volatile int8_t *) &Tb [r]) continue;
        gcu_spgemm_accum<SR> (&Tx [r], &locks [r], gcu_mxv_product<SR, VXM> (Px, Ux, p, e, r, k));
        Tb [r] = 1;
    }
}

// push: groups of G threads, a grid-stride loop over the entries of u (Ui:
// their indices, Ux: their values); Tx, Tb (and locks for wide values) start
// as gcu_mxv_init leaves them. Rows of P longer than lrow (> 0: the split)
// are push_long's.
template <class SR, class PI, bool VXM>
__device__ __forceinline__ void gcu_mxv_push (int64_t unvals,
    const int64_t *__restrict__ Ui, const void *__restrict__ Ux,
    const PI *__restrict__ Pp, const PI *__restrict__ Pj, const void *__restrict__ Px,
    const int8_t *__restrict__ allow, typename SR::Z *__restrict__ Tx,
    int8_t *__restrict__ Tb, int32_t *__restrict__ locks, int G, int64_t lrow)
{
    const int lane = (int) (threadIdx.x % (unsigned) G);
    const int64_t ngroups = ((int64_t) gridDim.x * blockDim.x) / G;
    for (int64_t e = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / G ; e < unvals ; e += ngroups)
    {
        const int64_t k = Ui [e];
        const int64_t p0 = (int64_t) Pp [k], p1 = (int64_t) Pp [k + 1];
        if (lrow > 0 && p1 - p0 > lrow) continue;
        gcu_mxv_push_part<SR, PI, VXM> (e, k, p0, p1, lane, G, Ux, Pj, Px, allow, Tx, Tb, locks);
    }
}

// push's split: the segments of a row of P of len entries, none for the
// rows push walks itself (src/mxv/push_split.cu counts with it too)
__host__ __device__ __forceinline__ int64_t gcu_mxv_push_segs (int64_t len, int64_t lrow,
    int64_t seg)
{
    return len > lrow ? (len + seg - 1) / seg : 0;
}

// push_long: the rows of P that push left (longer than lrow), cut into
// segments of seg entries. Us [e] is the inclusive scan of the entries'
// segment counts (gcu_mxv_push_segs), so its last element is the number of
// segments, read here and never by the host. A grid-stride loop of warps
// over the segments: segment g belongs to the first entry e with Us [e] > g
// (a binary search, the same for the whole warp) and is that row's
// (g - Us [e-1])-th. Us NULL: u has at most GCU_MXV_PUSH_WARP_SCAN entries,
// and each warp scans their counts itself by shuffles (a lane an entry),
// sparing the tiny frontiers the scan's launches; e is then the number of
// lanes whose scan is at most g. Every lane of the block's warps must be
// there (blockDim a multiple of 32, no early return).
template <class SR, class PI, bool VXM>
__device__ __forceinline__ void gcu_mxv_push_long (int64_t unvals,
    const int64_t *__restrict__ Us, int64_t lrow, int64_t seg,
    const int64_t *__restrict__ Ui, const void *__restrict__ Ux,
    const PI *__restrict__ Pp, const PI *__restrict__ Pj, const void *__restrict__ Px,
    const int8_t *__restrict__ allow, typename SR::Z *__restrict__ Tx,
    int8_t *__restrict__ Tb, int32_t *__restrict__ locks)
{
    if (unvals <= 0) return;
    const int lane = (int) (threadIdx.x % 32u);
    int64_t mine = 0, total;        // warp scan: this lane's inclusive scan
    if (Us == NULL)
    {
        if (lane < unvals)
            mine = gcu_mxv_push_segs ((int64_t) Pp [Ui [lane] + 1] - (int64_t) Pp [Ui [lane]], lrow, seg);
        for (int o = 1 ; o < 32 ; o *= 2)
        {
            const int64_t y = __shfl_up_sync (0xffffffffu, mine, o);
            if (lane >= o) mine += y;
        }
        total = __shfl_sync (0xffffffffu, mine, 31);
    }
    else total = Us [unvals - 1];
    const int64_t nwarps = ((int64_t) gridDim.x * blockDim.x) / 32;
    for (int64_t g = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ; g < total ; g += nwarps)
    {
        int64_t e, first;
        if (Us == NULL)
        {
            e = __popc (__ballot_sync (0xffffffffu, mine <= g));
            first = __shfl_sync (0xffffffffu, mine, (int) (e > 0 ? e - 1 : 0));
            if (e == 0) first = 0;
        }
        else
        {
            int64_t lo = 0, hi = unvals - 1;
            while (lo < hi)
            {
                const int64_t mid = lo + (hi - lo) / 2;
                if (Us [mid] > g) hi = mid; else lo = mid + 1;
            }
            e = lo;
            first = lo > 0 ? Us [lo - 1] : 0;
        }
        const int64_t k = Ui [e];
        const int64_t p0 = (int64_t) Pp [k] + (g - first) * seg;
        const int64_t end = (int64_t) Pp [k + 1];
        const int64_t p1 = p0 + seg < end ? p0 + seg : end;
        gcu_mxv_push_part<SR, PI, VXM> (e, k, p0, p1, lane, 32, Ux, Pj, Px, allow, Tx, Tb, locks);
    }
}

template <class SR>
__device__ __forceinline__ void gcu_mxv_init (int64_t m, typename SR::Z *__restrict__ Tx,
    int8_t *__restrict__ Tb, int32_t *__restrict__ locks)
{
    const typename SR::Z id = SR::identity ();
    for (int64_t r = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; r < m ;
         r += (int64_t) gridDim.x * blockDim.x)
    {
        Tx [r] = id;
        Tb [r] = 0;
        if constexpr (gcu_spgemm_needs_lock<SR>::v) locks [r] = 0;
    }
}

#endif
