// gcu_spmm_pipe.cuh — SpMM's row kernel pipelined (gcu_spmm_prows): the
// items and entries of gcu_spmm_rows (cuda/spmm/gcu_spmm.cuh), the same
// result, but a group's loads of A run ahead of its loads of X. In
// gcu_spmm_rows a group's item is a chain of dependent loads (the item's
// row and first entry, then its entries of A, then the rows of X), so a
// warp with one row (128 columns: 32 lanes of 4) waits three or four
// memory latencies a row with nothing else in flight. Here, while the rows
// of X of an item are loaded, the group already has the next item's
// entries of A in flight and the item after that one's row and first entry
// (and, for a row of several batches of G entries, the next batch of its
// entries), so that a row costs about one latency, that of X. Loads of X
// past a batch's last entry are skipped (predicated) instead of repeated.
#ifndef GCU_SPMM_PIPE_CUH
#define GCU_SPMM_PIPE_CUH

#include "spmm/gcu_spmm.cuh"
#include "spmm/gcu_spmm_item.cuh"

// A lane's entry of the batch of at most G entries of A from pb (of p1):
// its column into j and value into x (the lanes past the batch's end take
// its last entry); nothing loaded where pb >= p1
template <class SR, class AI, bool HINT>
__device__ __forceinline__ void gcu_spmm_batch_ld (const AI *__restrict__ Aj,
    const typename SR::TA *__restrict__ Ax, AI pb, AI p1, int G, int lane, AI &j,
    typename SR::X &x)
{
    if (pb >= p1) return ;
    const int nb = (int) ((p1 - pb < (AI) G) ? p1 - pb : (AI) G) ;
    const AI ql = pb + (AI) (lane < nb ? lane : nb - 1) ;
    j = gcu_ld_stream<HINT> (Aj + ql) ;
    if constexpr (SR::reads_x && !SR::a_iso)
        x = gcu_cast<typename SR::X> (gcu_ld_stream<HINT> (Ax + ql)) ;
}

// The row kernel pipelined: the items of gcu_spmm_rows (same arguments,
// same launches, slice after slice). A group holds its next item (row and
// entries) and that item's first batch of A's entries in flight while it
// loads X for this one, and prefetches into L1 the item after next (read
// at the end of this one, an L1 hit) and a long row's next batch. Loads of
// X past a batch's last entry repeat its last one (a predicated load took
// some 25 more registers) and are not added.
template <class SR, class AI, int VEC, int CH, int U, bool HINT>
__device__ __forceinline__ void gcu_spmm_prows (const gcu_spmm_args &a)
{
    typedef typename SR::Z Z ;
    typedef typename SR::TA TA ;
    typedef typename SR::TB TB ;
    typedef typename SR::TC TC ;
    typedef typename SR::X XT ;
    const int G = a.G ;
    const int lane = (int) (threadIdx.x % (unsigned) G) ;
    const unsigned gmask = gcu_group_mask (G) ;
    const unsigned ngroups = (gridDim.x * blockDim.x) / (unsigned) G ;
    const AI *__restrict__ Ap = (const AI *) a.Ap ;
    const AI *__restrict__ Aj = (const AI *) a.Aj ;
    const TA *__restrict__ Ax = (const TA *) a.Ax ;
    const TB *__restrict__ Xd = (const TB *) a.X ;
    const int64_t cnt = a.cnt ;
    XT xiso = XT () ;
    if constexpr (SR::reads_x && SR::a_iso) xiso = gcu_cast<XT> (Ax [0]) ;
    int64_t cc [CH] ;
    bool live [CH] ;
    gcu_spmm_chunks<VEC, CH> (cc, live, a.sl0 * a.sw, G, lane, a.n) ;
    // the lane's chunks of X's row 0: row kk's at xc [h] + kk * xrs
    const TB *xc [CH] ;
    for (int h = 0 ; h < CH ; h++) xc [h] = Xd + cc [h] * a.xcs ;
    const int64_t xrs = a.xrs ;
    // the pipeline: cur (its first batch in cj, cx) and nxt
    unsigned t = (blockIdx.x * blockDim.x + threadIdx.x) / (unsigned) G ;
    gcu_spmm_item<AI> cur = gcu_spmm_item_at (a, Ap, a.r0 + (int64_t) t, t < cnt) ;
    gcu_spmm_item<AI> nxt = gcu_spmm_item_at (a, Ap, a.r0 + (int64_t) t + ngroups,
        (int64_t) t + ngroups < cnt) ;
    AI cj = 0 ;
    XT cx = xiso ;
    gcu_spmm_batch_ld<SR, AI, HINT> (Aj, Ax, cur.p0, cur.p1, G, lane, cj, cx) ;
    for ( ; (int64_t) t < cnt ; t += ngroups)
    {
        const int64_t r = a.r0 + (int64_t) t ;
        const int64_t t2 = (int64_t) t + 2 * (int64_t) ngroups ;
        gcu_spmm_item_prefetch (a, Ap, a.r0 + t2, t2 < cnt) ;
        AI nj = 0 ;
        XT nx = xiso ;
        gcu_spmm_batch_ld<SR, AI, HINT> (Aj, Ax, nxt.p0, nxt.p1, G, lane, nj, nx) ;
        if (cur.p1 > cur.p0)
        {
            bool partial ;
            const int64_t out = gcu_spmm_item_out (a, r, cur.i, partial) ;
            Z acc [CH][VEC] ;
            for (AI pb = cur.p0 ; pb < cur.p1 ; pb += (AI) G)
            {
                const int nb = (int) ((cur.p1 - pb < (AI) G) ? cur.p1 - pb : (AI) G) ;
                // a long row: this batch of entries (prefetched by the last
                // one), and the next one into L1
                if (pb != cur.p0) gcu_spmm_batch_ld<SR, AI, HINT> (Aj, Ax, pb, cur.p1, G, lane, cj, cx) ;
                if (pb + (AI) G + (AI) lane < cur.p1) gcu_prefetch_l1 (Aj + pb + G + lane) ;
                for (int e = 0 ; e < nb ; e += U)
                {
                    AI kk [U] ;
                    XT x [U] ;
                    gcu_pack<TB, VEC> y [U][CH] ;
                    #pragma unroll
                    for (int u = 0 ; u < U ; u++)
                    {
                        const int src = (e + u < nb) ? e + u : nb - 1 ;
                        kk [u] = gcu_shfl_any (gmask, cj, src, G) ;
                        if constexpr (SR::reads_x && !SR::a_iso) x [u] = gcu_shfl_any (gmask, cx, src, G) ;
                        else x [u] = xiso ;
                    }
                    #pragma unroll
                    for (int u = 0 ; u < U ; u++)
                        #pragma unroll
                        for (int h = 0 ; h < CH ; h++)
                            y [u][h] = gcu_pack_ldg<TB, VEC> (xc [h], (int64_t) kk [u] * xrs) ;
                    #pragma unroll
                    for (int u = 0 ; u < U ; u++)
                    {
                        if (e + u >= nb) break ;
                        #pragma unroll
                        for (int h = 0 ; h < CH ; h++)
                            gcu_spmm_term<SR, VEC> (acc [h], u == 0 && e == 0 && pb == cur.p0, x [u],
                                y [u][h], cur.i, (int64_t) kk [u], cc [h]) ;
                    }
                }
            }
            for (int h = 0 ; h < CH ; h++)
            {
                if (!live [h]) continue ;
                if (partial)
                {
                    gcu_pack<Z, VEC> o ;
                    for (int v = 0 ; v < VEC ; v++) o.v [v] = acc [h][v] ;
                    gcu_pack_store<Z, VEC> ((Z *) a.W, out + cc [h], o) ;
                }
                else
                {
                    gcu_pack<TC, VEC> o ;
                    for (int v = 0 ; v < VEC ; v++) o.v [v] = gcu_cast<TC> (acc [h][v]) ;
                    gcu_pack_st<HINT, TC, VEC> ((TC *) a.Cx, out + cc [h], o) ;
                }
            }
        }
        cur = nxt ;
        cj = nj ;
        cx = nx ;
        nxt = gcu_spmm_item_at (a, Ap, a.r0 + t2, t2 < cnt) ;
    }
}

#endif
