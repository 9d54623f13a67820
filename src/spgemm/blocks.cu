// blocks.cu — the plan of the numeric phase's row blocks (spgemm_internal.h):
// how many blocks the result takes, their bounds, the numeric binning of each
// block's rows by the exact counts, all brought to the host in one wait, and
// the device buffers the blocks' output goes through (or the caller's, when
// the result stays on the device).
#include "spgemm_internal.h"

// Row blocks of the numeric phase. The result (nvals entries of 4 + zsize
// bytes on the device) goes to the host block by block through at most two
// device buffers: a result larger than the device still runs (the row-row
// paper's streaming), and the download of one block overlaps the numeric
// phase of the next. As many blocks as the largest of
//   - GRBCUDA_SPGEMM_BLOCK (bytes of output a block may hold), when set;
//   - what keeps each buffer within GCU_SPGEMM_BLOCK_ROOM of the free memory;
//   - for overlap, up to GCU_SPGEMM_OVERLAP_BLOCKS blocks of at least
//     GCU_SPGEMM_OVERLAP_MIN_BYTES each;
// at most one per row and GCU_SPGEMM_MAX_BLOCKS in all. Each block costs its
// own launches and tails on the device and its own fill of the download's
// pipeline on the host, so overlap pays only for large results
// (bench/RESULTS.md, "2026-11-23 19:40-19:55 UTC").
int spgemm_block_count (int64_t m, int64_t nvals, size_t zsize, size_t free_bytes)
{
    const int64_t out = nvals * (int64_t) (4 + zsize) ;
    int64_t nb = 1 ;
    const int64_t asked = gcu_spgemm_block_bytes () ;
    if (asked > 0) nb = (out + asked - 1) / asked ;
    const int64_t room = (int64_t) (GCU_SPGEMM_BLOCK_ROOM * (double) free_bytes) ;
    if (room > 0 && (out + room - 1) / room > nb) nb = (out + room - 1) / room ;
    int64_t ov = out / GCU_SPGEMM_OVERLAP_MIN_BYTES ;
    if (ov > GCU_SPGEMM_OVERLAP_BLOCKS) ov = GCU_SPGEMM_OVERLAP_BLOCKS ;
    if (ov > nb) nb = ov ;
    if (nb > m) nb = m ;
    if (nb > GCU_SPGEMM_MAX_BLOCKS) nb = GCU_SPGEMM_MAX_BLOCKS ;
    return nb < 1 ? 1 : (int) nb ;
}

// the host's arrays of the blocks' plan
static GrB_Info host_arrays (spgemm_plan *P)
{
    const size_t nb = (size_t) P->nb ;
    P->bhist = (int64_t *) malloc (nb * GCU_SPGEMM_NBINS * sizeof (int64_t)) ;
    P->bfirst = (int64_t *) malloc ((nb * GCU_SPGEMM_NBINS + 1) * sizeof (int64_t)) ;
    P->hbounds = (int64_t *) malloc (2 * (nb + 1) * sizeof (int64_t)) ;
    P->hh = (unsigned long long *) malloc ((nb * GCU_SPGEMM_NBINS + 1) * sizeof (unsigned long long)) ;
    if (P->bhist == NULL || P->bfirst == NULL || P->hbounds == NULL || P->hh == NULL) return GrB_OUT_OF_MEMORY ;
    P->hbase = P->hbounds + nb + 1 ;
    return GrB_SUCCESS ;
}

// The row blocks (planned from nvals) and the numeric binning (by the exact
// count), then the blocks' bounds and the bins' sizes to the host. When the
// products' total, an upper bound of nvals, already plans one block, the
// binning is queued behind the scan and nvals comes down with its
// histogram: one wait between the symbolic and numeric phases instead of
// two, the device idle for one round trip of the host.
static GrB_Info bin_blocks (spgemm_plan *P, int64_t hmax)
{
    int64_t *dbounds = NULL ;
    unsigned long long *dhist = NULL ;
    const bool one = spgemm_block_count (P->m, P->total, P->zsize, P->dev_free) == 1 ;
    P->nb = 1 ;
    if (!one)
    {
        GCU_TRY (gcu_memcpy_d2h (&P->nvals, P->Cp + P->m, sizeof (int64_t), P->s)) ;
        P->nb = spgemm_block_count (P->m, P->nvals, P->zsize, P->dev_free) ;
    }
    const int nb = P->nb ;
    if (nb > 1)
    {
        // bounds, then bases, in one buffer: one copy takes both
        GCU_TRY (P->S.alloc ((void **) &dbounds, 2 * (nb + 1) * sizeof (int64_t))) ;
        GCU_TRY (spgemm_block_bounds (P, dbounds, dbounds + nb + 1)) ;
    }
    GCU_TRY (spgemm_bin_rows (P->S, P->m, P->Cnnz, P->n, hmax, true, nb, dbounds, &P->rows,
        NULL, &dhist, NULL, NULL)) ;
    // nvals not known yet: into the histogram's spare word (the binning's
    // sum, unused here), so that one copy takes both
    if (one) GCU_TRY (gcu_memcpy_d2d (dhist + GCU_SPGEMM_NBINS, P->Cp + P->m, sizeof (int64_t), P->s)) ;
    GCU_TRY (host_arrays (P)) ;
    if (nb > 1) GCU_TRY (gcu_memcpy_d2h (P->hbounds, dbounds, 2 * (nb + 1) * sizeof (int64_t), P->s)) ;
    GCU_TRY (gcu_memcpy_d2h (P->hh, dhist, ((size_t) nb * GCU_SPGEMM_NBINS + 1) * sizeof (unsigned long long), P->s)) ;
    if (one) P->nvals = (int64_t) P->hh [GCU_SPGEMM_NBINS] ;
    if (nb == 1)
    {
        P->hbounds [0] = 0 ; P->hbounds [1] = P->m ;
        P->hbase [0] = 0 ; P->hbase [1] = P->nvals ;
    }
    return GrB_SUCCESS ;
}

// the blocks' output buffers: one block, and asked, the output is written
// straight into the caller's buffers and stays there; else one buffer (two
// blocks and more: two, one computing while the other goes down)
static GrB_Info out_buffers (spgemm_plan *P)
{
    const gcu_spgemm_keep *keep = P->keep_req ;
    gcu_spgemm_out *out = P->out ;
    if (keep != NULL && P->nb == 1 && P->nvals < ((int64_t) 1 << 32) - 1)
    {
        P->keep = keep->alloc (keep->ctx, (P->m + 1) * sizeof (uint32_t), &out->dTp) == GrB_SUCCESS
            && keep->alloc (keep->ctx, (P->nvals + 1) * sizeof (int32_t), &out->dTj) == GrB_SUCCESS
            && keep->alloc (keep->ctx, (P->nvals + 1) * P->zsize, &out->dTx) == GrB_SUCCESS ;
        if (P->keep)
        {
            P->bufJ [0] = (int32_t *) out->dTj ;
            P->bufX [0] = out->dTx ;
        }
        else out->dTp = out->dTj = out->dTx = NULL ;   // the caller frees what it gave
    }
    for (int k = P->keep ? 1 : 0 ; k < (P->nb > 1 ? 2 : 1) ; k++)
    {
        GCU_TRY (P->S.alloc ((void **) &P->bufJ [k], (P->max_bnvals + 1) * sizeof (int32_t))) ;
        GCU_TRY (P->S.alloc (&P->bufX [k], (P->max_bnvals + 1) * P->zsize)) ;
    }
    return GrB_SUCCESS ;
}

GrB_Info spgemm_plan_blocks (spgemm_plan *P)
{
    // a long row in one block's shared memory beats a global-memory table
    // and its separate sort
    const int64_t Wdense = P->fdense != NULL ? spgemm_dense_window_numeric (P->dev, P->n, P->zsize) : 0 ;
    int64_t hmax = spgemm_shared_hmax (P->dev, P->zsize, P->lock, spgemm_numeric_smem, GCU_PHASE_NUMERIC) ;
    if (Wdense > 0 && hmax > GCU_SPGEMM_HMAX_DENSE) hmax = GCU_SPGEMM_HMAX_DENSE ;
    GCU_TRY (bin_blocks (P, hmax)) ;
    const int nb = P->nb ;
    for (int64_t k = 0 ; k < (int64_t) nb * GCU_SPGEMM_NBINS ; k++) P->bhist [k] = (int64_t) P->hh [k] ;
    for (int k = 0 ; k < nb ; k++)
        if (P->hbase [k + 1] - P->hbase [k] > P->max_bnvals) P->max_bnvals = P->hbase [k + 1] - P->hbase [k] ;
    GCU_TRY (out_buffers (P)) ;
    P->bfirst [0] = 0 ;
    for (int64_t k = 0 ; k < (int64_t) nb * GCU_SPGEMM_NBINS ; k++) P->bfirst [k + 1] = P->bfirst [k] + P->bhist [k] ;
    for (int k = 0 ; k < nb ; k++) P->nglobal += P->bhist [k * GCU_SPGEMM_NBINS + GCU_SPGEMM_BIN_GLOBAL] ;
    P->Wnum = P->nglobal > 0 ? Wdense : 0 ;
    if (P->Wnum > 0 && P->Wnum < P->n) GCU_TRY (spgemm_dense_cursor (P)) ;
    return GrB_SUCCESS ;
}
