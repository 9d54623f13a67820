// numeric.cu — the numeric phase of the SpGEMM engine (spgemm_internal.h),
// row block by row block: the JIT-specialised kernels (one argument struct,
// gcu_spgemm_args) over the block's bins — the longest rows dense or in
// global tables (sorted after), the shared-table bins beside them on the side
// stream — while the previous block goes down to the host on the copy
// stream through the pinned staging buffers.
#include "spgemm_internal.h"

// the global-table rows of a block (grows, nglobal of them), in chunks
static GrB_Info numeric_global (spgemm_plan *P, const gcu_spgemm_args &base,
    int64_t *grows, int64_t nglobal)
{
    const size_t zsize = P->zsize ;
    const size_t slot = 4 + zsize + (P->lock ? 4 : 0) ;    // bytes per global slot
    const int TPB = spgemm_tpb (P->total, P->in->anvals, GCU_SPGEMM_GLOBAL_THREADS) ;
    return spgemm_for_global_chunks (P->s, nglobal, grows, P->Cnnz, P->n, slot,
        [&] (int64_t c0, int64_t c1, int64_t slots, const int64_t *offs)
        {
            gcu_spgemm_args a = base ;
            GrB_Info r = gcu_dmalloc ((void **) &a.gkeys, slots * sizeof (int32_t), P->s) ;
            if (r == GrB_SUCCESS) r = gcu_dmalloc (&a.gvals, slots * zsize, P->s) ;
            if (r == GrB_SUCCESS && P->lock) r = gcu_dmalloc ((void **) &a.glocks, slots * sizeof (int32_t), P->s) ;
            if (r == GrB_SUCCESS)
            {
                a.rows = grows + c0 ;
                a.offs = offs ;
                a.TPB = TPB ;
                r = spgemm_jit_launch (P->fglobal, a, c1 - c0, GCU_SPGEMM_GLOBAL_THREADS, 0, P->st,
                    "spgemm numeric (global)") ;
            }
            gcu_dfree (a.gkeys, P->s) ;
            gcu_dfree (a.gvals, P->s) ;
            gcu_dfree (a.glocks, P->s) ;
            return r ;
        }) ;
}

// The numeric phase of one row block: hist [b] rows of bin b, listed from
// rows_k on, write their entries into Cj / Cx, which hold the block's bnvals
// entries from entry base of C on.
static GrB_Info numeric_block (spgemm_plan *P, const int64_t *hist, int64_t *rows_k,
    int64_t base, int64_t bnvals, int32_t *Cj, void *Cx)
{
    const size_t zsize = P->zsize ;
    // the kernels write entry p of C at Cj [p], Cx [p]: shifted so that
    // entry base lands at the start of the block's buffers
    gcu_spgemm_args a = P->args ;
    a.Cj = (int32_t *) ((uintptr_t) Cj - (uintptr_t) base * sizeof (int32_t)) ;
    a.Cx = (void *) ((uintptr_t) Cx - (uintptr_t) base * zsize) ;
    int64_t first [GCU_SPGEMM_NBINS + 1] ;
    spgemm_bin_firsts (hist, first) ;
    const int64_t nglobal = hist [GCU_SPGEMM_BIN_GLOBAL] ;
    int64_t *grows = rows_k + first [GCU_SPGEMM_BIN_GLOBAL] ;
    if (nglobal > 0) GCU_TRY (spgemm_order_by_work (nglobal, grows, P->prod, P->s)) ;
    const bool dense = nglobal > 0 && P->Wnum > 0 ;
    // the side stream, forked from the call's stream when first used and
    // joined back at the end
    bool forked = false ;
    if (dense)
    {
        // the longest rows: dense values and a bitmap over windows of Wnum
        // columns, emitted in order. On the side stream, launched first: the
        // shared-table bins run beside them, and the last long rows do not
        // finish alone on a half-empty device
        GCU_TRY (spgemm_fork (P)) ;
        forked = true ;
        const size_t smem = (((size_t) P->Wnum * zsize + 15) & ~(size_t) 15) + (size_t) P->Wnum / 8 ;
        gcu_spgemm_args d = a ;
        d.rows = grows ;
        d.W = P->Wnum ;
        d.TPB = spgemm_tpb (P->total, P->in->anvals, GCU_SPGEMM_DENSE_THREADS) ;
        GCU_TRY (spgemm_jit_launch (P->fdense, d, nglobal, GCU_SPGEMM_DENSE_THREADS, smem, P->sd,
            "spgemm numeric (dense)")) ;
    }
    // without long rows, the small bins on the side stream
    GCU_TRY (spgemm_for_shared_bins (hist, !dense, [&] (int b, bool side) -> GrB_Info
    {
        if (side && !forked) { GCU_TRY (spgemm_fork (P)) ; forked = true ; }
        spgemm_bin_launch L (b, hist [b], GCU_PHASE_NUMERIC) ;
        gcu_spgemm_args s = a ;
        s.rows = rows_k + first [b] ;
        s.nrows = hist [b] ;
        s.H = L.H ; s.G = L.G ;
        s.TPB = spgemm_tpb (P->total, P->in->anvals, L.G) ;
        return spgemm_jit_launch (P->fshared, s, L.grid, GCU_SPGEMM_THREADS,
            spgemm_numeric_smem (L.H, L.R, zsize, P->lock), side ? P->sd : P->st, "spgemm numeric (shared)") ;
    })) ;
    if (forked) GCU_TRY (spgemm_join (P)) ;
    if (nglobal == 0 || dense) return GrB_SUCCESS ;
    GCU_TRY (numeric_global (P, a, grows, nglobal)) ;
    // the global-table rows came out in hash order: sort them here, so T is
    // never handed to SuiteSparse jumbled
    return spgemm_sort_global_rows (nglobal, grows, P->Cp, base, bnvals, Cj, Cx, zsize, P->s) ;
}

// Block k's entries (in buffer b) to the host on the copy stream once its
// numeric phase is done: column indices widened to the host's 64 bits,
// values as bytes; the first call (k < 0) allocates T's arrays
// (SuiteSparse's allocator: they are packed into C) while block 0 computes
// and takes the row pointers down.
static GrB_Info download (spgemm_plan *P, int k, int b)
{
    const size_t zsize = P->zsize ;
    cudaStream_t sc = P->sc ;
    if (k < 0)
    {
        P->Tp = (GrB_Index *) gcu_host_malloc ((P->m + 1) * sizeof (GrB_Index)) ;
        P->Tj = (GrB_Index *) gcu_host_malloc ((P->nvals + 1) * sizeof (GrB_Index)) ;
        P->Tx = gcu_host_malloc ((P->nvals + 1) * zsize) ;
        if (P->Tp == NULL || P->Tj == NULL || P->Tx == NULL) return GrB_OUT_OF_MEMORY ;
        return gcu_d2h_staged (P->Tp, P->Cp, (size_t) P->m + 1, 8, 8, (gcu_stream) sc) ;
    }
    const int64_t b0 = P->hbase [k], bn = P->hbase [k + 1] - P->hbase [k] ;
    GCU_TRY (spgemm_cuda (cudaStreamWaitEvent (sc, P->ev [EV_BLOCK_END + b], 0))) ;
    const gcu_d2h_seg seg [2] = {
        { P->Tj + b0, P->bufJ [b], (size_t) bn, 4, 8 },
        { (char *) P->Tx + (size_t) b0 * zsize, P->bufX [b], (size_t) bn * zsize, 1, 1 } } ;
    GCU_TRY (gcu_d2h_staged_segs (seg, 2, (gcu_stream) sc)) ;
    float ms = 0 ;
    if (cudaEventElapsedTime (&ms, P->ev [EV_BLOCK_BEGIN + b], P->ev [EV_BLOCK_END + b]) == cudaSuccess)
        P->numeric_ms += ms ;
    else (void) cudaGetLastError () ;
    return GrB_SUCCESS ;
}

// 5. the numeric phase, block by block: block k computes on the device while
// the host takes block k-1 (the copy stream carries the copies); the pass
// after the last block takes the last one down
GrB_Info spgemm_numeric (spgemm_plan *P)
{
    P->args.Cp = P->Cp ;
    P->args.cursor = P->cursor ;
    P->args.n = P->n ;
    // the row pointers (and the binning) done: they go down first, while
    // block 0 computes
    GCU_TRY (spgemm_cuda (cudaEventRecord (P->ev [EV_ROWPTR], P->st))) ;
    GCU_TRY (spgemm_cuda (cudaStreamWaitEvent (P->sc, P->ev [EV_ROWPTR], 0))) ;
    int prev = -1, prev_buf = 0 ;
    for (int k = 0 ; k <= P->nb ; k++)
    {
        const int bi = P->nblocks_run % 2 ;
        const bool work = k < P->nb && P->hbase [k + 1] > P->hbase [k] ;
        if (work)
        {
            // buffer bi last held block k-2, whose copies are done
            const int64_t kb = (int64_t) k * GCU_SPGEMM_NBINS ;
            GCU_TRY (spgemm_cuda (cudaEventRecord (P->ev [EV_BLOCK_BEGIN + bi], P->st))) ;
            GCU_TRY (numeric_block (P, P->bhist + kb, P->rows + P->bfirst [kb], P->hbase [k],
                P->hbase [k + 1] - P->hbase [k], P->bufJ [bi], P->bufX [bi])) ;
            GCU_TRY (spgemm_cuda (cudaEventRecord (P->ev [EV_BLOCK_END + bi], P->st))) ;
            P->nblocks_run++ ;
        }
        if (P->keep || (!work && k < P->nb)) continue ;
        const double t0 = gcu_now () ;
        GCU_TRY (download (P, prev, prev_buf)) ;
        P->download_s += gcu_now () - t0 ;
        if (work) { prev = k ; prev_buf = bi ; }
    }
    return GrB_SUCCESS ;
}
