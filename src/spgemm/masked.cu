// masked.cu — the masked saxpy C<M> = A*B (gcu_spgemm.h): the rows of A
// analysed as for the SpGEMM, each row's table sized by its mask row (the
// mask's entries are the only ones kept) and binned, then the JIT kernels
// (one argument struct, gcu_spgemm_args) over the shared bins and the long
// mask rows. The result is positional (Cx, Cb at the mask's entries).
#include "spgemm_internal.h"

struct masked_call
{
    const gcu_spgemm_in *in ;
    const gcu_spgemm_mask *mk ;
    const gcu_device_props *dev ;
    gcu_stream s ;
    cudaStream_t st ;
    spgemm_scratch S ;
    gcu_streams *ctx ;
    size_t zsize ;
    bool lock ;
    void *fshared, *fglobal ;
    int64_t *prod, *count, *rows ;
    int64_t hist [GCU_SPGEMM_NBINS], total ;
} ;

// products per row (rows of A with none seed nothing), the mask's row
// lengths as the tables' bounds, and the rows binned by them; the products'
// total (the local load balancing's average) comes with the bins
static GrB_Info masked_bins (masked_call *K)
{
    const int64_t m = K->in->m ;
    GCU_TRY (K->S.alloc ((void **) &K->prod, (m + 1) * sizeof (int64_t))) ;
    GCU_TRY (K->S.alloc ((void **) &K->count, (m + 1) * sizeof (int64_t))) ;
    GCU_TRY (spgemm_row_products (K->dev, K->in, K->prod, K->s)) ;
    GCU_TRY (spgemm_mask_counts (K->dev, m, K->mk->Mp, K->mk->idx64, K->prod, K->count, K->s)) ;
    // longer mask rows take the global kernel
    const int64_t hmax = spgemm_shared_hmax (K->dev, K->zsize, K->lock, spgemm_masked_smem, GCU_PHASE_MASKED) ;
    return spgemm_bin_rows (K->S, m, K->count, INT64_MAX, hmax, true, 1, NULL, &K->rows, K->hist,
        NULL, K->prod, &K->total) ;
}

static GrB_Info masked_kernels (masked_call *K, void *Cx, int8_t *Cb)
{
    const gcu_spgemm_in *in = K->in ;
    int64_t first [GCU_SPGEMM_NBINS + 1] ;
    spgemm_bin_firsts (K->hist, first) ;
    gcu_spgemm_args a ;
    memset (&a, 0, sizeof (a)) ;
    a.Mp = K->mk->Mp ; a.Mj = K->mk->Mj ; a.Mx = K->mk->Mx ;
    a.Ap = in->Ap ; a.Aj = in->Aj ; a.Ax = in->Ax ;
    a.Bp = in->Bp ; a.Bj = in->Bj ; a.Bx = in->Bx ;
    a.Cx = Cx ; a.Cb = Cb ;
    for (int b = 1 ; b <= GCU_SPGEMM_NBINS_SHARED ; b++)
    {
        if (K->hist [b] == 0) continue ;
        spgemm_bin_launch L (b, K->hist [b], GCU_PHASE_MASKED) ;
        a.rows = K->rows + first [b] ;
        a.nrows = K->hist [b] ;
        a.H = L.H ; a.G = L.G ;
        a.TPB = spgemm_tpb (K->total, in->anvals, L.G) ;
        GCU_TRY (spgemm_jit_launch (K->fshared, a, L.grid, GCU_SPGEMM_THREADS,
            spgemm_masked_smem (L.H, L.R, K->zsize, K->lock), K->st, "masked spgemm (shared)")) ;
    }
    const int64_t nglobal = K->hist [GCU_SPGEMM_BIN_GLOBAL] ;
    if (nglobal == 0) return GrB_SUCCESS ;
    if (K->lock) GCU_TRY (K->S.alloc ((void **) &a.glocks, (K->mk->nvals + 1) * sizeof (int32_t))) ;
    a.rows = K->rows + first [GCU_SPGEMM_BIN_GLOBAL] ;
    a.TPB = spgemm_tpb (K->total, in->anvals, GCU_SPGEMM_GLOBAL_THREADS) ;
    return spgemm_jit_launch (K->fglobal, a, nglobal, GCU_SPGEMM_GLOBAL_THREADS, 0, K->st, "masked spgemm (global)") ;
}

static GrB_Info masked_phases (masked_call *K, void *Cx, int8_t *Cb, double *kernel_seconds)
{
    cudaEvent_t *ev = (cudaEvent_t *) K->ctx->timed ;
    (void) cudaEventRecord (ev [0], K->st) ;
    GCU_TRY (gcu_memset (Cb, 0, K->mk->nvals + 1, K->s)) ;
    GCU_TRY (masked_bins (K)) ;
    GCU_TRY (masked_kernels (K, Cx, Cb)) ;
    (void) cudaEventRecord (ev [1], K->st) ;
    GCU_TRY (gcu_sync (K->s)) ;
    float ms = 0 ;
    (void) cudaEventElapsedTime (&ms, ev [0], ev [1]) ;
    *kernel_seconds = 1e-3 * ms ;
    gcu_log ("masked spgemm %lld x %lld x %lld, nnz(M) %lld: %.3g products, %.3f ms "
        "(%lld rows in global memory)", (long long) K->in->m, (long long) K->in->k, (long long) K->in->n,
        (long long) K->mk->nvals, (double) K->total, ms, (long long) K->hist [GCU_SPGEMM_BIN_GLOBAL]) ;
    return GrB_SUCCESS ;
}

extern "C" GrB_Info gcu_spgemm_masked_run (const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, const gcu_spgemm_in *in, const gcu_spgemm_mask *mask,
    void *Cx, int8_t *Cb, double *kernel_seconds, gcu_stream s)
{
    *kernel_seconds = 0 ;
    if (in->n >= ((int64_t) 1 << 31) || in->m >= ((int64_t) 1 << 31) - 1) return GCU_NOT_HANDLED ;
    if (in->a_idx64 != ops->a_idx64 || in->b_idx64 != ops->b_idx64
        || mask->idx64 != ops->m_idx64) return GrB_INVALID_VALUE ;
    masked_call K ;
    memset (&K, 0, sizeof (K)) ;
    K.in = in ; K.mk = mask ; K.s = s ; K.st = (cudaStream_t) s ; K.S.s = s ;
    K.zsize = sr->mult.z.size ;
    K.lock = K.zsize > GCU_SPGEMM_WORD_MAX ;
    K.dev = gcu_device () ;
    if (K.dev == NULL) return GCU_NOT_HANDLED ;
    GCU_TRY (gcu_spgemm_masked_kernels (sr, ops, &K.fshared, &K.fglobal)) ;
    GCU_TRY (gcu_streams_acquire (&K.ctx)) ;
    GrB_Info info = masked_phases (&K, Cx, Cb, kernel_seconds) ;
    if (info != GrB_SUCCESS) (void) gcu_sync (s) ;
    gcu_streams_return (K.ctx) ;
    K.S.release () ;
    return info ;
}
