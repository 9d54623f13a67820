// spgemm.cu — the SpGEMM engine's entry points (gcu_spgemm.h): the checks of
// a call, its plan (spgemm_internal.h) set up, the phases run in order
//
//   analyse, symbolic, row pointers (phases.cu) -> plan blocks (blocks.cu)
//   -> numeric and download (numeric.cu)
//
// then the timings and the output handed over, or on any failure everything
// the call made released in one place (plan_release).
#include "spgemm_internal.h"

// the call's plan: its kernels first (a semiring that does not compile costs
// no device work), then its streams and events (the device's context pool)
static GrB_Info plan_init (spgemm_plan *P, const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, const gcu_spgemm_in *in, gcu_spgemm_out *out, gcu_stream s)
{
    memset (P, 0, sizeof (*P)) ;
    P->sr = sr ; P->ops = ops ; P->in = in ; P->out = out ; P->s = s ;
    P->keep_req = out->keep ;
    memset (out, 0, sizeof (*out)) ;
    P->st = (cudaStream_t) s ;
    P->S.s = s ;
    P->m = in->m ; P->n = in->n ;
    P->zsize = sr->mult.z.size ;
    P->lock = P->zsize > GCU_SPGEMM_WORD_MAX ;
    P->args.Ap = in->Ap ; P->args.Aj = in->Aj ; P->args.Ax = in->Ax ;
    P->args.Bp = in->Bp ; P->args.Bj = in->Bj ; P->args.Bx = in->Bx ;
    P->dev = gcu_device () ;
    if (P->dev == NULL) return GCU_NOT_HANDLED ;
    GCU_TRY (gcu_spgemm_numeric_kernels (sr, ops, &P->fshared, &P->fglobal, &P->fdense)) ;
    GCU_TRY (gcu_streams_acquire (&P->ctx)) ;
    P->sd = (cudaStream_t) P->ctx->side ;
    P->sc = (cudaStream_t) P->ctx->copy ;
    P->fork = (cudaEvent_t) P->ctx->fork ;
    P->join = (cudaEvent_t) P->ctx->join ;
    P->ev = (cudaEvent_t *) P->ctx->timed ;
    return GrB_SUCCESS ;
}

// Everything the call made: on failure first waits for the work queued on
// its streams (the context goes back idle); the host arrays of T only on
// failure (else they are the caller's now).
static void plan_release (spgemm_plan *P, bool failed)
{
    if (failed && P->ctx != NULL)
    {
        (void) cudaStreamSynchronize (P->sc) ;
        (void) cudaStreamSynchronize (P->sd) ;
    }
    if (failed)
    {
        (void) gcu_sync (P->s) ;
        (void) cudaGetLastError () ;
    }
    gcu_streams_return (P->ctx) ;
    P->ctx = NULL ;
    P->S.release () ;
    free (P->bhist) ; free (P->bfirst) ; free (P->hbounds) ; free (P->hh) ;
    if (failed)
    {
        gcu_host_free (P->Tp) ;
        gcu_host_free (P->Tj) ;
        gcu_host_free (P->Tx) ;
    }
}

// the kept result's row pointers, the wait for the device, the timings
static GrB_Info finish (spgemm_plan *P)
{
    if (P->keep)
    {
        GCU_TRY (spgemm_narrow_ptr (P, (uint32_t *) P->out->dTp)) ;
        float ms = 0 ;
        GCU_TRY (spgemm_cuda (cudaEventRecord (P->ev [EV_BLOCK_END], P->st))) ;
        GCU_TRY (gcu_sync (P->s)) ;
        // the numeric phase's time, when a block ran (an empty result runs
        // none: its start event was not recorded by this call)
        if (P->nblocks_run > 0 && cudaEventElapsedTime (&ms, P->ev [EV_BLOCK_BEGIN],
            P->ev [EV_BLOCK_END]) == cudaSuccess) P->numeric_ms += ms ;
    }
    return gcu_sync (P->s) ;
}

// the output, its timings and the log line
static void report (spgemm_plan *P)
{
    gcu_spgemm_out *out = P->out ;
    float ms [4] = { 0 } ;
    for (int e = EV_ANALYSIS ; e <= EV_ROWPTR ; e++) (void) cudaEventElapsedTime (&ms [e], P->ev [e - 1], P->ev [e]) ;
    out->kernel_seconds = 1e-3 * (ms [1] + ms [2] + ms [3] + P->numeric_ms) ;
    out->download_seconds = P->download_s ;
    out->nblocks = P->nblocks_run ;
    out->block_bytes = (P->max_bnvals + 1) * (int64_t) (4 + P->zsize) ;
    gcu_log ("spgemm %lld x %lld x %lld: analysis %.3f ms, symbolic %.3f ms, row pointers and blocks %.3f ms, "
        "numeric %.3f ms in %d row block%s of at most %.1f MB (%lld long rows: %s); download %.2f ms",
        (long long) P->m, (long long) P->in->k, (long long) P->n, ms [1], ms [2], ms [3], P->numeric_ms,
        P->nblocks_run, P->nblocks_run == 1 ? "" : "s", out->block_bytes / 1e6, (long long) P->nglobal,
        P->Wnum > 0 ? "dense" : "global tables, sorted", 1e3 * P->download_s) ;
    if (P->ndense_sym > 0) gcu_log ("spgemm: symbolic phase of the %lld long rows dense", (long long) P->ndense_sym) ;
    gcu_spgemm_blocks_add (P->nblocks_run) ;
    out->Tp = P->Tp ;
    out->Tj = P->Tj ;
    out->Tx = P->Tx ;
    out->nvals = P->nvals ;
    out->on_device = P->keep ;
    if (!P->keep) out->dTp = out->dTj = out->dTx = NULL ;
}

static GrB_Info run_phases (spgemm_plan *P)
{
    (void) cudaEventRecord (P->ev [EV_START], P->st) ;
    GCU_TRY (spgemm_analyse (P)) ;
    GCU_TRY (spgemm_symbolic (P)) ;
    GCU_TRY (spgemm_row_pointers (P)) ;
    GCU_TRY (spgemm_plan_blocks (P)) ;
    GCU_TRY (spgemm_numeric (P)) ;
    return finish (P) ;
}

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
    spgemm_plan P ;
    GrB_Info info = plan_init (&P, sr, ops, in, out, s) ;
    // (a semiring that does not compile, or no device: nothing made yet)
    if (info != GrB_SUCCESS && P.ctx == NULL) return info ;
    if (info == GrB_SUCCESS) info = run_phases (&P) ;
    if (info == GrB_SUCCESS) report (&P) ;
    plan_release (&P, info != GrB_SUCCESS) ;
    if (info != GrB_SUCCESS) memset (out, 0, sizeof (*out)) ;
    return info ;
}

extern "C" void gcu_spgemm_out_free (gcu_spgemm_out *out)
{
    gcu_host_free (out->Tp) ;
    gcu_host_free (out->Tj) ;
    gcu_host_free (out->Tx) ;
    memset (out, 0, sizeof (*out)) ;
}
