// cusparse_peer.cu — the cuSPARSE peer of the benchmark (issue 6, BENCH.md):
// the same matrices as grb_bench (same generator, same seed), the same
// operations called directly in cuSPARSE, every result checked against
// SuiteSparse's (computed on the host in this process, plain GraphBLAS).
//
//   cusparse_peer --workload W [--workload W2 ...] [--ops spgemm,spmv,spmm,sddmm]
//                 [--repeats N] [--max-seconds S] [--seed S] [--device D]
//
//   spgemm  C = A*A, FP64, cusparseSpGEMM (work estimation, compute, copy)
//   spmv    y = A*x, FP64, cusparseSpMV
//   spmm    Y = A*X, X dense n-by-32, FP32, cusparseSpMM (best of the layouts
//           and algorithms that cuSPARSE accepts)
//   sddmm   C<A> = X*Y', X,Y dense n-by-32, FP32, cusparseSDDMM (best layout)
//
// Times: kernel time with CUDA events around the device work (operands
// resident), end-to-end time around upload + compute + download from
// ordinary pageable host memory (what a user calling cuSPARSE once feels);
// medians of the repeats after a first call, which is reported apart as the
// one-time cost (with the context and handle creation in the env line).
// Device buffers come from a cache that persists across repeats, as CuPy's
// and PyTorch's allocators do, so the first call also carries the
// allocations. The device-to-device copy bandwidth is measured in the same
// run; SpMV and SpGEMM report achieved/floor, the floor being the minimum
// bytes (each input read once, the output written once, 32-bit indices) over
// that bandwidth. Output: one JSON object per line on stdout; progress on
// stderr. Every CUDA and cuSPARSE call is checked; a failure or a wrong
// result is reported for that operation and the run goes on.
#include "bench_util.h"

#include <cuda_runtime.h>
#include <cusparse.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//------------------------------------------------------------------------------
// error handling: every call checked, the first failure's text kept
//------------------------------------------------------------------------------

static char pc_err [512] ;

static int pc_cuda (cudaError_t e, const char *what, int line)
{
    if (e == cudaSuccess) return 0 ;
    snprintf (pc_err, sizeof (pc_err), "%.120s: %s (%s, line %d)", what,
        cudaGetErrorString (e), cudaGetErrorName (e), line) ;
    return 1 ;
}

static int pc_sparse (cusparseStatus_t s, const char *what, int line)
{
    if (s == CUSPARSE_STATUS_SUCCESS) return 0 ;
    snprintf (pc_err, sizeof (pc_err), "%.120s: %s (%s, line %d)", what,
        cusparseGetErrorString (s), cusparseGetErrorName (s), line) ;
    return 1 ;
}

#define CU(call) pc_cuda ((call), #call, __LINE__)
#define SP(call) pc_sparse ((call), #call, __LINE__)

// Cleanup calls: checked and reported on stderr, but they leave pc_err alone
// so that the failure being cleaned up after is the one reported.
static void pc_quiet (int failed_status, const char *what)
{
    if (failed_status) fprintf (stderr, "[cusparse_peer] cleanup: %.120s failed\n", what) ;
}
#define CUQ(call) pc_quiet ((call) != cudaSuccess, #call)
#define SPQ(call) pc_quiet ((call) != CUSPARSE_STATUS_SUCCESS, #call)

// PC_TRY: the one control-flow macro here. On a nonzero status it runs
// PC_FREE_ALL (each function using it defines it) and returns 1; pc_err says
// what failed.
#define PC_TRY(expr) do { if ((expr) != 0) { PC_FREE_ALL ; return 1 ; } } while (0)

//------------------------------------------------------------------------------
// device buffers kept across repeats
//------------------------------------------------------------------------------

typedef struct { void *p ; size_t cap ; } dbuf ;

static int dbuf_reserve (dbuf *b, size_t bytes)
{
    if (bytes == 0) bytes = 1 ;
    if (bytes <= b->cap) return 0 ;
    if (b->p != NULL && CU (cudaFree (b->p))) return 1 ;
    b->p = NULL ; b->cap = 0 ;
    if (CU (cudaMalloc (&b->p, bytes))) return 1 ;
    b->cap = bytes ;
    return 0 ;
}

static void dbuf_free (dbuf *b)
{
    // a failure to free is reported but does not stop the run
    if (b->p != NULL) CUQ (cudaFree (b->p)) ;
    b->p = NULL ; b->cap = 0 ;
}

typedef struct
{
    cudaStream_t stream ;
    cusparseHandle_t h ;
    cudaEvent_t e0, e1 ;
    double copy_bw ;        // bytes read + written per second, device to device
}
gpu_t ;

// Elapsed ms between e0 and e1 (waits for e1).
static int ev_ms (gpu_t *g, double *ms)
{
    float t = 0 ;
    if (CU (cudaEventSynchronize (g->e1))) return 1 ;
    if (CU (cudaEventElapsedTime (&t, g->e0, g->e1))) return 1 ;
    *ms = t ;
    return 0 ;
}

static int cmp_double (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b ;
    return (x > y) - (x < y) ;
}

static double median (double *t, int n)
{
    if (n <= 0) return -1 ;
    qsort (t, (size_t) n, sizeof (double), cmp_double) ;
    return (n % 2) ? t [n / 2] : 0.5 * (t [n / 2 - 1] + t [n / 2]) ;
}

//------------------------------------------------------------------------------
// host CSR with 32-bit indices (what cuSPARSE's SpGEMM takes)
//------------------------------------------------------------------------------

typedef struct
{
    int64_t n, nnz ;
    int32_t *rp, *ci ;
    double *v64 ;
    float *v32 ;
}
hcsr ;

static void hcsr_free (hcsr *A)
{
    free (A->rp) ; free (A->ci) ; free (A->v64) ; free (A->v32) ;
    memset (A, 0, sizeof (*A)) ;
}

static int hcsr_from (hcsr *A, const gg_csr *C)
{
    memset (A, 0, sizeof (*A)) ;
    if (C->nrows != C->ncols || C->nrows >= INT32_MAX || C->nvals >= INT32_MAX)
    {
        snprintf (pc_err, sizeof (pc_err), "matrix too large for 32-bit indices") ;
        return 1 ;
    }
    A->n = (int64_t) C->nrows ; A->nnz = (int64_t) C->nvals ;
    A->rp = (int32_t *) malloc ((size_t) (A->n + 1) * sizeof (int32_t)) ;
    A->ci = (int32_t *) malloc ((size_t) (A->nnz + 1) * sizeof (int32_t)) ;
    A->v64 = (double *) malloc ((size_t) (A->nnz + 1) * sizeof (double)) ;
    A->v32 = (float *) malloc ((size_t) (A->nnz + 1) * sizeof (float)) ;
    if (!A->rp || !A->ci || !A->v64 || !A->v32)
    {
        hcsr_free (A) ;
        snprintf (pc_err, sizeof (pc_err), "out of host memory") ;
        return 1 ;
    }
    for (int64_t i = 0 ; i <= A->n ; i++) A->rp [i] = (int32_t) C->p [i] ;
    for (int64_t k = 0 ; k < A->nnz ; k++)
    {
        A->ci [k] = (int32_t) C->j [k] ;
        A->v64 [k] = C->x [k] ;
        A->v32 [k] = (float) C->x [k] ;
    }
    return 0 ;
}

//------------------------------------------------------------------------------
// one operation's report
//------------------------------------------------------------------------------

typedef struct
{
    const char *op ;
    int failed ;                // cuSPARSE or CUDA failed: error holds why
    char error [512] ;
    const char *check ;         // "ok", "wrong", "no reference", "not run"
    char check_msg [512] ;
    double first_ms, kernel_ms, kernel_min_ms, e2e_ms ;
    int kernel_reps, e2e_reps ;
    char config [96] ;
    int64_t nnz_out ;
    double flops, bytes_min ;   // bytes_min > 0 only where a floor is reported
    uint64_t products ;
}
report_t ;

static void report_init (report_t *r, const char *op)
{
    memset (r, 0, sizeof (*r)) ;
    r->op = op ;
    r->check = "not run" ;
    r->first_ms = r->kernel_ms = r->kernel_min_ms = r->e2e_ms = -1 ;
    r->nnz_out = -1 ;
}

static void json_num (const char *key, double v, int valid)
{
    printf (",\"%s\":", key) ;
    if (valid && isfinite (v)) printf ("%.6g", v) ; else printf ("null") ;
}

static void report_print (const char *workload, const report_t *r, const gpu_t *g)
{
    printf ("{\"type\":\"op\",\"tool\":\"cusparse_peer\",\"workload\":") ;
    bu_json_str (stdout, workload) ;
    printf (",\"op\":\"%s\",\"status\":\"%s\",\"error\":", r->op, r->failed ? "failed" : "ok") ;
    bu_json_str (stdout, r->error) ;
    printf (",\"check\":\"%s\",\"check_msg\":", r->check) ;
    bu_json_str (stdout, r->check_msg) ;
    printf (",\"config\":") ;
    bu_json_str (stdout, r->config) ;
    json_num ("first_ms", r->first_ms, r->first_ms >= 0) ;
    json_num ("kernel_ms", r->kernel_ms, r->kernel_ms >= 0) ;
    json_num ("kernel_min_ms", r->kernel_min_ms, r->kernel_min_ms >= 0) ;
    printf (",\"kernel_reps\":%d", r->kernel_reps) ;
    json_num ("e2e_ms", r->e2e_ms, r->e2e_ms >= 0) ;
    printf (",\"e2e_reps\":%d", r->e2e_reps) ;
    printf (",\"nnz_out\":%lld,\"products\":%llu", (long long) r->nnz_out,
        (unsigned long long) r->products) ;
    json_num ("flops", r->flops, r->flops > 0) ;
    json_num ("gflops", r->flops / (r->kernel_ms * 1e6), r->flops > 0 && r->kernel_ms > 0) ;
    json_num ("bytes_min", r->bytes_min, r->bytes_min > 0) ;
    double floor_ms = r->bytes_min / g->copy_bw * 1e3 ;
    json_num ("floor_ms", floor_ms, r->bytes_min > 0 && g->copy_bw > 0) ;
    json_num ("floor_fraction", floor_ms / r->kernel_ms,
        r->bytes_min > 0 && g->copy_bw > 0 && r->kernel_ms > 0) ;
    printf ("}\n") ;
    fflush (stdout) ;
}

// Repeat counts: at least one, at most reps, within max_s seconds.
typedef struct { int reps ; double max_s ; } budget_t ;

//------------------------------------------------------------------------------
// device-to-device copy bandwidth (the floor's denominator)
//------------------------------------------------------------------------------

static int measure_copy_bw (gpu_t *g)
{
    dbuf a = { NULL, 0 }, b = { NULL, 0 } ;
    #define PC_FREE_ALL do { dbuf_free (&a) ; dbuf_free (&b) ; } while (0)
    size_t freeb = 0, total = 0 ;
    PC_TRY (CU (cudaMemGetInfo (&freeb, &total))) ;
    size_t bytes = (size_t) 1 << 30 ;
    while (bytes > ((size_t) 1 << 24) && 3 * bytes > freeb) bytes /= 2 ;
    PC_TRY (dbuf_reserve (&a, bytes)) ;
    PC_TRY (dbuf_reserve (&b, bytes)) ;
    PC_TRY (CU (cudaMemsetAsync (a.p, 1, bytes, g->stream))) ;
    double t [12] ;
    for (int r = 0 ; r < 15 ; r++)
    {
        PC_TRY (CU (cudaEventRecord (g->e0, g->stream))) ;
        PC_TRY (CU (cudaMemcpyAsync (b.p, a.p, bytes, cudaMemcpyDeviceToDevice, g->stream))) ;
        PC_TRY (CU (cudaEventRecord (g->e1, g->stream))) ;
        double ms ;
        PC_TRY (ev_ms (g, &ms)) ;
        if (r >= 3) t [r - 3] = ms ;      // three warm-up copies
    }
    g->copy_bw = 2.0 * (double) bytes / (median (t, 12) * 1e-3) ;
    PC_FREE_ALL ;
    return 0 ;
    #undef PC_FREE_ALL
}

//------------------------------------------------------------------------------
// SpMV: y = A*x, FP64
//------------------------------------------------------------------------------

typedef struct
{
    dbuf rp, ci, v, x, y, work ;
    cusparseSpMatDescr_t A ;
    cusparseDnVecDescr_t vx, vy ;
}
spmv_dev ;

static void spmv_destroy (spmv_dev *d)
{
    if (d->A) SPQ (cusparseDestroySpMat (d->A)) ;
    if (d->vx) SPQ (cusparseDestroyDnVec (d->vx)) ;
    if (d->vy) SPQ (cusparseDestroyDnVec (d->vy)) ;
    d->A = NULL ; d->vx = NULL ; d->vy = NULL ;
}

// Upload, descriptors, buffer: the setup both timings share.
static int spmv_setup (gpu_t *g, spmv_dev *d, const hcsr *A, const double *x, int preprocess)
{
    const double one = 1, zero = 0 ;
    size_t ws = 0 ;
    #define PC_FREE_ALL spmv_destroy (d)
    PC_TRY (dbuf_reserve (&d->rp, (size_t) (A->n + 1) * 4)) ;
    PC_TRY (dbuf_reserve (&d->ci, (size_t) A->nnz * 4)) ;
    PC_TRY (dbuf_reserve (&d->v, (size_t) A->nnz * 8)) ;
    PC_TRY (dbuf_reserve (&d->x, (size_t) A->n * 8)) ;
    PC_TRY (dbuf_reserve (&d->y, (size_t) A->n * 8)) ;
    PC_TRY (CU (cudaMemcpyAsync (d->rp.p, A->rp, (size_t) (A->n + 1) * 4, cudaMemcpyHostToDevice, g->stream))) ;
    PC_TRY (CU (cudaMemcpyAsync (d->ci.p, A->ci, (size_t) A->nnz * 4, cudaMemcpyHostToDevice, g->stream))) ;
    PC_TRY (CU (cudaMemcpyAsync (d->v.p, A->v64, (size_t) A->nnz * 8, cudaMemcpyHostToDevice, g->stream))) ;
    PC_TRY (CU (cudaMemcpyAsync (d->x.p, x, (size_t) A->n * 8, cudaMemcpyHostToDevice, g->stream))) ;
    PC_TRY (SP (cusparseCreateCsr (&d->A, A->n, A->n, A->nnz, d->rp.p, d->ci.p, d->v.p,
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F))) ;
    PC_TRY (SP (cusparseCreateDnVec (&d->vx, A->n, d->x.p, CUDA_R_64F))) ;
    PC_TRY (SP (cusparseCreateDnVec (&d->vy, A->n, d->y.p, CUDA_R_64F))) ;
    PC_TRY (SP (cusparseSpMV_bufferSize (g->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, d->A,
        d->vx, &zero, d->vy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &ws))) ;
    PC_TRY (dbuf_reserve (&d->work, ws)) ;
    if (preprocess)
        PC_TRY (SP (cusparseSpMV_preprocess (g->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, d->A,
            d->vx, &zero, d->vy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, d->work.p))) ;
    return 0 ;
    #undef PC_FREE_ALL
}

static int spmv_call (gpu_t *g, spmv_dev *d)
{
    const double one = 1, zero = 0 ;
    return SP (cusparseSpMV (g->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, d->A, d->vx,
        &zero, d->vy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, d->work.p)) ;
}

// One end-to-end call: upload, SpMV, download y.
static int spmv_e2e (gpu_t *g, spmv_dev *d, const hcsr *A, const double *x, double *y, double *ms)
{
    #define PC_FREE_ALL spmv_destroy (d)
    double t0 = gg_now () ;
    PC_TRY (spmv_setup (g, d, A, x, 0)) ;
    PC_TRY (spmv_call (g, d)) ;
    PC_TRY (CU (cudaMemcpyAsync (y, d->y.p, (size_t) A->n * 8, cudaMemcpyDeviceToHost, g->stream))) ;
    PC_TRY (CU (cudaStreamSynchronize (g->stream))) ;
    *ms = 1e3 * (gg_now () - t0) ;
    spmv_destroy (d) ;
    return 0 ;
    #undef PC_FREE_ALL
}

static int bench_spmv (gpu_t *g, const hcsr *A, const double *x, double *y,
    budget_t b, report_t *r)
{
    spmv_dev d ;
    memset (&d, 0, sizeof (d)) ;
    double *t = (double *) malloc ((size_t) b.reps * sizeof (double)) ;
    #define PC_FREE_ALL do { spmv_destroy (&d) ; dbuf_free (&d.rp) ; dbuf_free (&d.ci) ;   \
        dbuf_free (&d.v) ; dbuf_free (&d.x) ; dbuf_free (&d.y) ; dbuf_free (&d.work) ;      \
        free (t) ; } while (0)
    if (t == NULL) { snprintf (pc_err, sizeof (pc_err), "out of host memory") ; PC_FREE_ALL ; return 1 ; }
    snprintf (r->config, sizeof (r->config), "CSR, ALG_DEFAULT, 32-bit indices") ;
    PC_TRY (spmv_e2e (g, &d, A, x, y, &r->first_ms)) ;
    // kernel: operands resident, preprocessed, warmed up
    PC_TRY (spmv_setup (g, &d, A, x, 1)) ;
    for (int w = 0 ; w < 3 ; w++) PC_TRY (spmv_call (g, &d)) ;
    double spent = 0 ;
    int n = 0 ;
    while (n < b.reps && (n == 0 || spent < b.max_s))
    {
        PC_TRY (CU (cudaEventRecord (g->e0, g->stream))) ;
        PC_TRY (spmv_call (g, &d)) ;
        PC_TRY (CU (cudaEventRecord (g->e1, g->stream))) ;
        PC_TRY (ev_ms (g, &t [n])) ;
        spent += 1e-3 * t [n++] ;
    }
    r->kernel_reps = n ;
    r->kernel_ms = median (t, n) ;
    r->kernel_min_ms = t [0] ;
    spmv_destroy (&d) ;
    spent = 0 ; n = 0 ;
    while (n < b.reps && (n == 0 || spent < b.max_s))
    {
        PC_TRY (spmv_e2e (g, &d, A, x, y, &t [n])) ;
        spent += 1e-3 * t [n++] ;
    }
    r->e2e_reps = n ;
    r->e2e_ms = median (t, n) ;
    r->nnz_out = A->n ;
    r->flops = 2.0 * (double) A->nnz ;
    // rowptr + colidx + values of A, x read, y written
    r->bytes_min = 4.0 * (A->n + 1) + 12.0 * A->nnz + 16.0 * A->n ;
    PC_FREE_ALL ;
    return 0 ;
    #undef PC_FREE_ALL
}

//------------------------------------------------------------------------------
// SpGEMM: C = A*A, FP64
//------------------------------------------------------------------------------

typedef struct
{
    dbuf rp, ci, v ;                // A
    dbuf crp, cci, cv ;             // C
    dbuf buf1, buf2 ;
    cusparseSpMatDescr_t A, B, C ;
    cusparseSpGEMMDescr_t sd ;
}
spgemm_dev ;

static void spgemm_destroy (spgemm_dev *d)
{
    if (d->A) SPQ (cusparseDestroySpMat (d->A)) ;
    if (d->B) SPQ (cusparseDestroySpMat (d->B)) ;
    if (d->C) SPQ (cusparseDestroySpMat (d->C)) ;
    if (d->sd) SPQ (cusparseSpGEMM_destroyDescr (d->sd)) ;
    d->A = d->B = d->C = NULL ; d->sd = NULL ;
}

static void spgemm_release (spgemm_dev *d)
{
    spgemm_destroy (d) ;
    dbuf_free (&d->rp) ; dbuf_free (&d->ci) ; dbuf_free (&d->v) ;
    dbuf_free (&d->crp) ; dbuf_free (&d->cci) ; dbuf_free (&d->cv) ;
    dbuf_free (&d->buf1) ; dbuf_free (&d->buf2) ;
}

static int spgemm_upload (gpu_t *g, spgemm_dev *d, const hcsr *A)
{
    #define PC_FREE_ALL ;
    PC_TRY (dbuf_reserve (&d->rp, (size_t) (A->n + 1) * 4)) ;
    PC_TRY (dbuf_reserve (&d->ci, (size_t) A->nnz * 4)) ;
    PC_TRY (dbuf_reserve (&d->v, (size_t) A->nnz * 8)) ;
    PC_TRY (CU (cudaMemcpyAsync (d->rp.p, A->rp, (size_t) (A->n + 1) * 4, cudaMemcpyHostToDevice, g->stream))) ;
    PC_TRY (CU (cudaMemcpyAsync (d->ci.p, A->ci, (size_t) A->nnz * 4, cudaMemcpyHostToDevice, g->stream))) ;
    PC_TRY (CU (cudaMemcpyAsync (d->v.p, A->v64, (size_t) A->nnz * 8, cudaMemcpyHostToDevice, g->stream))) ;
    return 0 ;
    #undef PC_FREE_ALL
}

// The cuSPARSE flow on resident A: work estimation, compute, size, copy.
// ms: event time from the first call to the end of the copy.
static int spgemm_compute (gpu_t *g, spgemm_dev *d, int64_t n, int64_t nnzA,
    int64_t *nnzC, double *ms)
{
    const double one = 1, zero = 0 ;
    const cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE ;
    const cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_DEFAULT ;
    size_t s1 = 0, s2 = 0 ;
    int64_t r = 0, c = 0 ;
    #define PC_FREE_ALL spgemm_destroy (d)
    PC_TRY (SP (cusparseCreateCsr (&d->A, n, n, nnzA, d->rp.p, d->ci.p, d->v.p,
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F))) ;
    PC_TRY (SP (cusparseCreateCsr (&d->B, n, n, nnzA, d->rp.p, d->ci.p, d->v.p,
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F))) ;
    PC_TRY (SP (cusparseCreateCsr (&d->C, n, n, 0, NULL, NULL, NULL,
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F))) ;
    PC_TRY (SP (cusparseSpGEMM_createDescr (&d->sd))) ;
    PC_TRY (CU (cudaEventRecord (g->e0, g->stream))) ;
    PC_TRY (SP (cusparseSpGEMM_workEstimation (g->h, N, N, &one, d->A, d->B, &zero, d->C,
        CUDA_R_64F, alg, d->sd, &s1, NULL))) ;
    PC_TRY (dbuf_reserve (&d->buf1, s1)) ;
    PC_TRY (SP (cusparseSpGEMM_workEstimation (g->h, N, N, &one, d->A, d->B, &zero, d->C,
        CUDA_R_64F, alg, d->sd, &s1, d->buf1.p))) ;
    PC_TRY (SP (cusparseSpGEMM_compute (g->h, N, N, &one, d->A, d->B, &zero, d->C,
        CUDA_R_64F, alg, d->sd, &s2, NULL))) ;
    PC_TRY (dbuf_reserve (&d->buf2, s2)) ;
    PC_TRY (SP (cusparseSpGEMM_compute (g->h, N, N, &one, d->A, d->B, &zero, d->C,
        CUDA_R_64F, alg, d->sd, &s2, d->buf2.p))) ;
    PC_TRY (SP (cusparseSpMatGetSize (d->C, &r, &c, nnzC))) ;
    if (*nnzC < 0 || *nnzC >= INT32_MAX)
    {
        snprintf (pc_err, sizeof (pc_err), "nnz(C) = %lld does not fit 32-bit indices",
            (long long) *nnzC) ;
        PC_FREE_ALL ;
        return 1 ;
    }
    PC_TRY (dbuf_reserve (&d->crp, (size_t) (n + 1) * 4)) ;
    PC_TRY (dbuf_reserve (&d->cci, (size_t) *nnzC * 4)) ;
    PC_TRY (dbuf_reserve (&d->cv, (size_t) *nnzC * 8)) ;
    PC_TRY (SP (cusparseCsrSetPointers (d->C, d->crp.p, d->cci.p, d->cv.p))) ;
    PC_TRY (SP (cusparseSpGEMM_copy (g->h, N, N, &one, d->A, d->B, &zero, d->C,
        CUDA_R_64F, alg, d->sd))) ;
    PC_TRY (CU (cudaEventRecord (g->e1, g->stream))) ;
    PC_TRY (ev_ms (g, ms)) ;
    spgemm_destroy (d) ;
    return 0 ;
    #undef PC_FREE_ALL
}

typedef struct { int32_t *rp, *ci ; double *v ; size_t cap ; } hC_t ;

static int spgemm_e2e (gpu_t *g, spgemm_dev *d, const hcsr *A, hC_t *hC,
    int64_t *nnzC, double *ms)
{
    #define PC_FREE_ALL ;
    double t0 = gg_now (), kms ;
    PC_TRY (spgemm_upload (g, d, A)) ;
    PC_TRY (spgemm_compute (g, d, A->n, A->nnz, nnzC, &kms)) ;
    if ((size_t) *nnzC + 1 > hC->cap)
    {
        free (hC->ci) ; free (hC->v) ;
        hC->cap = (size_t) *nnzC + 1 ;
        hC->ci = (int32_t *) malloc (hC->cap * 4) ;
        hC->v = (double *) malloc (hC->cap * 8) ;
        if (hC->ci == NULL || hC->v == NULL)
        {
            hC->cap = 0 ;
            snprintf (pc_err, sizeof (pc_err), "out of host memory for C") ;
            return 1 ;
        }
    }
    PC_TRY (CU (cudaMemcpyAsync (hC->rp, d->crp.p, (size_t) (A->n + 1) * 4, cudaMemcpyDeviceToHost, g->stream))) ;
    PC_TRY (CU (cudaMemcpyAsync (hC->ci, d->cci.p, (size_t) *nnzC * 4, cudaMemcpyDeviceToHost, g->stream))) ;
    PC_TRY (CU (cudaMemcpyAsync (hC->v, d->cv.p, (size_t) *nnzC * 8, cudaMemcpyDeviceToHost, g->stream))) ;
    PC_TRY (CU (cudaStreamSynchronize (g->stream))) ;
    *ms = 1e3 * (gg_now () - t0) ;
    return 0 ;
    #undef PC_FREE_ALL
}

static int bench_spgemm (gpu_t *g, const hcsr *A, hC_t *hC, budget_t b, report_t *r)
{
    spgemm_dev d ;
    memset (&d, 0, sizeof (d)) ;
    int64_t nnzC = 0 ;
    double *t = (double *) malloc ((size_t) b.reps * sizeof (double)) ;
    #define PC_FREE_ALL do { spgemm_release (&d) ; free (t) ; } while (0)
    if (t == NULL) { snprintf (pc_err, sizeof (pc_err), "out of host memory") ; PC_FREE_ALL ; return 1 ; }
    snprintf (r->config, sizeof (r->config), "CSR, SPGEMM_DEFAULT, 32-bit indices") ;
    PC_TRY (spgemm_e2e (g, &d, A, hC, &nnzC, &r->first_ms)) ;
    r->nnz_out = nnzC ;
    // kernel: A resident; buffers from the cache
    PC_TRY (spgemm_upload (g, &d, A)) ;
    double spent = 0 ;
    int n = 0 ;
    while (n < b.reps && (n == 0 || spent < b.max_s))
    {
        PC_TRY (spgemm_compute (g, &d, A->n, A->nnz, &nnzC, &t [n])) ;
        spent += 1e-3 * t [n++] ;
    }
    r->kernel_reps = n ;
    r->kernel_ms = median (t, n) ;
    r->kernel_min_ms = t [0] ;
    spent = 0 ; n = 0 ;
    while (n < b.reps && (n == 0 || spent < b.max_s))
    {
        PC_TRY (spgemm_e2e (g, &d, A, hC, &nnzC, &t [n])) ;
        spent += 1e-3 * t [n++] ;
    }
    r->e2e_reps = n ;
    r->e2e_ms = median (t, n) ;
    r->nnz_out = nnzC ;
    // A and B read once each, C written once, 32-bit indices, FP64 values
    double bytesA = 4.0 * (A->n + 1) + 12.0 * A->nnz ;
    r->bytes_min = 2 * bytesA + 4.0 * (A->n + 1) + 12.0 * nnzC ;
    PC_FREE_ALL ;
    return 0 ;
    #undef PC_FREE_ALL
}

//------------------------------------------------------------------------------
// SpMM: Y = A*X, FP32, X n-by-k
//------------------------------------------------------------------------------

typedef struct { const char *name ; cusparseOrder_t order ; cusparseSpMMAlg_t alg ; } spmm_cfg ;

static const spmm_cfg spmm_cfgs [] =
{
    { "row-major X,Y, SPMM_ALG_DEFAULT", CUSPARSE_ORDER_ROW, CUSPARSE_SPMM_ALG_DEFAULT },
    { "row-major X,Y, SPMM_CSR_ALG2",    CUSPARSE_ORDER_ROW, CUSPARSE_SPMM_CSR_ALG2 },
    { "col-major X,Y, SPMM_ALG_DEFAULT", CUSPARSE_ORDER_COL, CUSPARSE_SPMM_ALG_DEFAULT },
    { "col-major X,Y, SPMM_CSR_ALG1",    CUSPARSE_ORDER_COL, CUSPARSE_SPMM_CSR_ALG1 },
    { "col-major X,Y, SPMM_CSR_ALG3",    CUSPARSE_ORDER_COL, CUSPARSE_SPMM_CSR_ALG3 },
} ;
#define N_SPMM_CFGS ((int) (sizeof (spmm_cfgs) / sizeof (spmm_cfgs [0])))

typedef struct
{
    dbuf rp, ci, v, X, Y, work ;
    cusparseSpMatDescr_t A ;
    cusparseDnMatDescr_t mX, mY ;
}
dn_dev ;

static void dn_destroy (dn_dev *d)
{
    if (d->A) SPQ (cusparseDestroySpMat (d->A)) ;
    if (d->mX) SPQ (cusparseDestroyDnMat (d->mX)) ;
    if (d->mY) SPQ (cusparseDestroyDnMat (d->mY)) ;
    d->A = NULL ; d->mX = NULL ; d->mY = NULL ;
}

static void dn_release (dn_dev *d)
{
    dn_destroy (d) ;
    dbuf_free (&d->rp) ; dbuf_free (&d->ci) ; dbuf_free (&d->v) ;
    dbuf_free (&d->X) ; dbuf_free (&d->Y) ; dbuf_free (&d->work) ;
}

// Upload A (FP32) and X in the layout of cfg, make descriptors, size the
// buffer, preprocess. Nonzero if cuSPARSE refuses the configuration.
static int spmm_setup (gpu_t *g, dn_dev *d, const hcsr *A, const float *X, int k,
    const spmm_cfg *cfg, int preprocess)
{
    const float one = 1, zero = 0 ;
    const int64_t n = A->n ;
    const int64_t ld = (cfg->order == CUSPARSE_ORDER_ROW) ? k : n ;
    size_t ws = 0 ;
    #define PC_FREE_ALL dn_destroy (d)
    PC_TRY (dbuf_reserve (&d->rp, (size_t) (n + 1) * 4)) ;
    PC_TRY (dbuf_reserve (&d->ci, (size_t) A->nnz * 4)) ;
    PC_TRY (dbuf_reserve (&d->v, (size_t) A->nnz * 4)) ;
    PC_TRY (dbuf_reserve (&d->X, (size_t) n * k * 4)) ;
    PC_TRY (dbuf_reserve (&d->Y, (size_t) n * k * 4)) ;
    PC_TRY (CU (cudaMemcpyAsync (d->rp.p, A->rp, (size_t) (n + 1) * 4, cudaMemcpyHostToDevice, g->stream))) ;
    PC_TRY (CU (cudaMemcpyAsync (d->ci.p, A->ci, (size_t) A->nnz * 4, cudaMemcpyHostToDevice, g->stream))) ;
    PC_TRY (CU (cudaMemcpyAsync (d->v.p, A->v32, (size_t) A->nnz * 4, cudaMemcpyHostToDevice, g->stream))) ;
    PC_TRY (CU (cudaMemcpyAsync (d->X.p, X, (size_t) n * k * 4, cudaMemcpyHostToDevice, g->stream))) ;
    PC_TRY (SP (cusparseCreateCsr (&d->A, n, n, A->nnz, d->rp.p, d->ci.p, d->v.p,
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F))) ;
    PC_TRY (SP (cusparseCreateDnMat (&d->mX, n, k, ld, d->X.p, CUDA_R_32F, cfg->order))) ;
    PC_TRY (SP (cusparseCreateDnMat (&d->mY, n, k, ld, d->Y.p, CUDA_R_32F, cfg->order))) ;
    PC_TRY (SP (cusparseSpMM_bufferSize (g->h, CUSPARSE_OPERATION_NON_TRANSPOSE,
        CUSPARSE_OPERATION_NON_TRANSPOSE, &one, d->A, d->mX, &zero, d->mY, CUDA_R_32F,
        cfg->alg, &ws))) ;
    PC_TRY (dbuf_reserve (&d->work, ws)) ;
    // optional for most algorithms; where it is not supported, go without
    if (preprocess && SP (cusparseSpMM_preprocess (g->h, CUSPARSE_OPERATION_NON_TRANSPOSE,
        CUSPARSE_OPERATION_NON_TRANSPOSE, &one, d->A, d->mX, &zero, d->mY, CUDA_R_32F,
        cfg->alg, d->work.p)))
        pc_err [0] = '\0' ;
    return 0 ;
    #undef PC_FREE_ALL
}

static int spmm_call (gpu_t *g, dn_dev *d, const spmm_cfg *cfg)
{
    const float one = 1, zero = 0 ;
    return SP (cusparseSpMM (g->h, CUSPARSE_OPERATION_NON_TRANSPOSE,
        CUSPARSE_OPERATION_NON_TRANSPOSE, &one, d->A, d->mX, &zero, d->mY, CUDA_R_32F,
        cfg->alg, d->work.p)) ;
}

static int spmm_kernel_times (gpu_t *g, dn_dev *d, const spmm_cfg *cfg, budget_t b,
    double *t, int *n)
{
    #define PC_FREE_ALL ;
    for (int w = 0 ; w < 2 ; w++) PC_TRY (spmm_call (g, d, cfg)) ;
    double spent = 0 ;
    *n = 0 ;
    while (*n < b.reps && (*n == 0 || spent < b.max_s))
    {
        PC_TRY (CU (cudaEventRecord (g->e0, g->stream))) ;
        PC_TRY (spmm_call (g, d, cfg)) ;
        PC_TRY (CU (cudaEventRecord (g->e1, g->stream))) ;
        PC_TRY (ev_ms (g, &t [*n])) ;
        spent += 1e-3 * t [(*n)++] ;
    }
    return 0 ;
    #undef PC_FREE_ALL
}

static int spmm_e2e (gpu_t *g, dn_dev *d, const hcsr *A, const float *X, int k,
    const spmm_cfg *cfg, int preprocess, float *Y, double *ms)
{
    #define PC_FREE_ALL dn_destroy (d)
    double t0 = gg_now () ;
    PC_TRY (spmm_setup (g, d, A, X, k, cfg, preprocess)) ;
    PC_TRY (spmm_call (g, d, cfg)) ;
    PC_TRY (CU (cudaMemcpyAsync (Y, d->Y.p, (size_t) A->n * k * 4, cudaMemcpyDeviceToHost, g->stream))) ;
    PC_TRY (CU (cudaStreamSynchronize (g->stream))) ;
    *ms = 1e3 * (gg_now () - t0) ;
    dn_destroy (d) ;
    return 0 ;
    #undef PC_FREE_ALL
}

// Xrow: row-major n-by-k; Xcol: the same, column-major. Y gets the result
// row-major.
static int bench_spmm (gpu_t *g, const hcsr *A, const float *Xrow, const float *Xcol,
    int k, float *Y, float *Ytmp, budget_t b, report_t *r)
{
    dn_dev d ;
    memset (&d, 0, sizeof (d)) ;
    int nt = b.reps > 5 ? b.reps : 5 ;
    double *t = (double *) malloc ((size_t) nt * sizeof (double)) ;
    #define PC_FREE_ALL do { dn_release (&d) ; free (t) ; } while (0)
    if (t == NULL) { snprintf (pc_err, sizeof (pc_err), "out of host memory") ; PC_FREE_ALL ; return 1 ; }
    // each configuration once end to end (the first success is the one-time
    // figure; preprocessing only where cuSPARSE needs it), then its kernel
    int best = -1, pre [N_SPMM_CFGS] ;
    double best_ms = 0 ;
    char refused [512] = "" ;
    for (int c = 0 ; c < N_SPMM_CFGS ; c++)
    {
        const spmm_cfg *cfg = &spmm_cfgs [c] ;
        const float *X = cfg->order == CUSPARSE_ORDER_ROW ? Xrow : Xcol ;
        double first = -1 ;
        int n = 0 ;
        budget_t probe = { 5, 0.5 } ;
        pre [c] = 0 ;
        if (spmm_e2e (g, &d, A, X, k, cfg, 0, Ytmp, &first) != 0)
        {
            (void) cudaGetLastError () ;
            pre [c] = 1 ;
            if (spmm_e2e (g, &d, A, X, k, cfg, 1, Ytmp, &first) != 0) first = -1 ;
        }
        if (first < 0 || spmm_setup (g, &d, A, X, k, cfg, 1) != 0
            || spmm_kernel_times (g, &d, cfg, probe, t, &n) != 0)
        {
            // cuSPARSE refused this layout/algorithm: try the next one
            size_t l = strlen (refused) ;
            snprintf (refused + l, sizeof (refused) - l, "%s%s: %.100s", l ? "; " : "", cfg->name, pc_err) ;
            dn_destroy (&d) ;
            (void) cudaGetLastError () ;
            continue ;
        }
        if (r->first_ms < 0) r->first_ms = first ;
        dn_destroy (&d) ;
        double m = median (t, n) ;
        if (best < 0 || m < best_ms) { best = c ; best_ms = m ; }
    }
    if (best < 0)
    {
        snprintf (pc_err, sizeof (pc_err), "no SpMM configuration accepted: %s", refused) ;
        PC_FREE_ALL ;
        return 1 ;
    }
    const spmm_cfg *cfg = &spmm_cfgs [best] ;
    const float *X = cfg->order == CUSPARSE_ORDER_ROW ? Xrow : Xcol ;
    snprintf (r->config, sizeof (r->config), "%s (fastest of %d)", cfg->name, N_SPMM_CFGS) ;
    int n = 0 ;
    PC_TRY (spmm_setup (g, &d, A, X, k, cfg, 1)) ;
    PC_TRY (spmm_kernel_times (g, &d, cfg, b, t, &n)) ;
    dn_destroy (&d) ;
    r->kernel_reps = n ;
    r->kernel_ms = median (t, n) ;
    r->kernel_min_ms = t [0] ;
    double spent = 0 ;
    n = 0 ;
    while (n < b.reps && (n == 0 || spent < b.max_s))
    {
        PC_TRY (spmm_e2e (g, &d, A, X, k, cfg, pre [best], Ytmp, &t [n])) ;
        spent += 1e-3 * t [n++] ;
    }
    r->e2e_reps = n ;
    r->e2e_ms = median (t, n) ;
    // the result, row-major whatever the layout
    for (int64_t i = 0 ; i < A->n ; i++)
        for (int c = 0 ; c < k ; c++)
            Y [i * k + c] = (cfg->order == CUSPARSE_ORDER_ROW) ? Ytmp [i * k + c] : Ytmp [c * A->n + i] ;
    r->nnz_out = A->n * k ;
    r->flops = 2.0 * (double) A->nnz * k ;
    PC_FREE_ALL ;
    return 0 ;
    #undef PC_FREE_ALL
}

//------------------------------------------------------------------------------
// SDDMM: C<A> = X*Y', FP32, X and Y n-by-k
//------------------------------------------------------------------------------

// op(A) = X (n-by-k) and op(B) = Y' (k-by-n); each configuration says how
// X and Y lie in memory and how cuSPARSE is told.
typedef struct
{
    const char *name ;
    int x_colmajor, y_colmajor ;        // layout of the uploaded X and Y
    cusparseOrder_t oA, oB ;
    cusparseOperation_t opB ;
}
sddmm_cfg ;

static const sddmm_cfg sddmm_cfgs [] =
{
    // Y row-major n-by-k is Y' column-major k-by-n with ld k
    { "X row-major, Y' col-major (= Y row-major)", 0, 0, CUSPARSE_ORDER_ROW, CUSPARSE_ORDER_COL, CUSPARSE_OPERATION_NON_TRANSPOSE },
    // Y column-major n-by-k is Y' row-major k-by-n with ld n
    { "X col-major, Y' row-major (= Y col-major)", 1, 1, CUSPARSE_ORDER_COL, CUSPARSE_ORDER_ROW, CUSPARSE_OPERATION_NON_TRANSPOSE },
    { "X row-major, Y row-major transposed",       0, 0, CUSPARSE_ORDER_ROW, CUSPARSE_ORDER_ROW, CUSPARSE_OPERATION_TRANSPOSE },
} ;
#define N_SDDMM_CFGS ((int) (sizeof (sddmm_cfgs) / sizeof (sddmm_cfgs [0])))

static int sddmm_setup (gpu_t *g, dn_dev *d, const hcsr *A, const float *X, const float *Yd,
    int k, const sddmm_cfg *cfg, int preprocess)
{
    const float one = 1, zero = 0 ;
    const int64_t n = A->n ;
    size_t ws = 0 ;
    #define PC_FREE_ALL dn_destroy (d)
    PC_TRY (dbuf_reserve (&d->rp, (size_t) (n + 1) * 4)) ;
    PC_TRY (dbuf_reserve (&d->ci, (size_t) A->nnz * 4)) ;
    PC_TRY (dbuf_reserve (&d->v, (size_t) A->nnz * 4)) ;
    PC_TRY (dbuf_reserve (&d->X, (size_t) n * k * 4)) ;
    PC_TRY (dbuf_reserve (&d->Y, (size_t) n * k * 4)) ;
    PC_TRY (CU (cudaMemcpyAsync (d->rp.p, A->rp, (size_t) (n + 1) * 4, cudaMemcpyHostToDevice, g->stream))) ;
    PC_TRY (CU (cudaMemcpyAsync (d->ci.p, A->ci, (size_t) A->nnz * 4, cudaMemcpyHostToDevice, g->stream))) ;
    // beta = 0, but 0*NaN is NaN: start C's values from zeros
    PC_TRY (CU (cudaMemsetAsync (d->v.p, 0, (size_t) A->nnz * 4, g->stream))) ;
    PC_TRY (CU (cudaMemcpyAsync (d->X.p, X, (size_t) n * k * 4, cudaMemcpyHostToDevice, g->stream))) ;
    PC_TRY (CU (cudaMemcpyAsync (d->Y.p, Yd, (size_t) n * k * 4, cudaMemcpyHostToDevice, g->stream))) ;
    PC_TRY (SP (cusparseCreateCsr (&d->A, n, n, A->nnz, d->rp.p, d->ci.p, d->v.p,
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F))) ;
    PC_TRY (SP (cusparseCreateDnMat (&d->mX, n, k, cfg->oA == CUSPARSE_ORDER_ROW ? k : n,
        d->X.p, CUDA_R_32F, cfg->oA))) ;
    if (cfg->opB == CUSPARSE_OPERATION_TRANSPOSE)
        PC_TRY (SP (cusparseCreateDnMat (&d->mY, n, k, k, d->Y.p, CUDA_R_32F, cfg->oB))) ;
    else
        PC_TRY (SP (cusparseCreateDnMat (&d->mY, k, n, cfg->oB == CUSPARSE_ORDER_COL ? k : n,
            d->Y.p, CUDA_R_32F, cfg->oB))) ;
    PC_TRY (SP (cusparseSDDMM_bufferSize (g->h, CUSPARSE_OPERATION_NON_TRANSPOSE, cfg->opB,
        &one, d->mX, d->mY, &zero, d->A, CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, &ws))) ;
    PC_TRY (dbuf_reserve (&d->work, ws)) ;
    if (preprocess && SP (cusparseSDDMM_preprocess (g->h, CUSPARSE_OPERATION_NON_TRANSPOSE, cfg->opB,
        &one, d->mX, d->mY, &zero, d->A, CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, d->work.p)))
        pc_err [0] = '\0' ;     // optional
    return 0 ;
    #undef PC_FREE_ALL
}

static int sddmm_call (gpu_t *g, dn_dev *d, const sddmm_cfg *cfg)
{
    const float one = 1, zero = 0 ;
    return SP (cusparseSDDMM (g->h, CUSPARSE_OPERATION_NON_TRANSPOSE, cfg->opB, &one,
        d->mX, d->mY, &zero, d->A, CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, d->work.p)) ;
}

static int sddmm_kernel_times (gpu_t *g, dn_dev *d, const sddmm_cfg *cfg, budget_t b,
    double *t, int *n)
{
    #define PC_FREE_ALL ;
    for (int w = 0 ; w < 2 ; w++) PC_TRY (sddmm_call (g, d, cfg)) ;
    double spent = 0 ;
    *n = 0 ;
    while (*n < b.reps && (*n == 0 || spent < b.max_s))
    {
        PC_TRY (CU (cudaEventRecord (g->e0, g->stream))) ;
        PC_TRY (sddmm_call (g, d, cfg)) ;
        PC_TRY (CU (cudaEventRecord (g->e1, g->stream))) ;
        PC_TRY (ev_ms (g, &t [*n])) ;
        spent += 1e-3 * t [(*n)++] ;
    }
    return 0 ;
    #undef PC_FREE_ALL
}

static int sddmm_e2e (gpu_t *g, dn_dev *d, const hcsr *A, const float *X, const float *Yd,
    int k, const sddmm_cfg *cfg, int preprocess, float *Cv, double *ms)
{
    #define PC_FREE_ALL dn_destroy (d)
    double t0 = gg_now () ;
    PC_TRY (sddmm_setup (g, d, A, X, Yd, k, cfg, preprocess)) ;
    PC_TRY (sddmm_call (g, d, cfg)) ;
    PC_TRY (CU (cudaMemcpyAsync (Cv, d->v.p, (size_t) A->nnz * 4, cudaMemcpyDeviceToHost, g->stream))) ;
    PC_TRY (CU (cudaStreamSynchronize (g->stream))) ;
    *ms = 1e3 * (gg_now () - t0) ;
    dn_destroy (d) ;
    return 0 ;
    #undef PC_FREE_ALL
}

static int bench_sddmm (gpu_t *g, const hcsr *A, const float *Xrow, const float *Xcol,
    const float *Yrow, const float *Ycol, int k, float *Cv, budget_t b, report_t *r)
{
    dn_dev d ;
    memset (&d, 0, sizeof (d)) ;
    int nt = b.reps > 5 ? b.reps : 5 ;
    double *t = (double *) malloc ((size_t) nt * sizeof (double)) ;
    #define PC_FREE_ALL do { dn_release (&d) ; free (t) ; } while (0)
    if (t == NULL) { snprintf (pc_err, sizeof (pc_err), "out of host memory") ; PC_FREE_ALL ; return 1 ; }
    int best = -1, pre [N_SDDMM_CFGS] ;
    double best_ms = 0 ;
    char refused [512] = "" ;
    for (int c = 0 ; c < N_SDDMM_CFGS ; c++)
    {
        const sddmm_cfg *cfg = &sddmm_cfgs [c] ;
        const float *X = cfg->x_colmajor ? Xcol : Xrow ;
        const float *Yd = cfg->y_colmajor ? Ycol : Yrow ;
        double first = -1 ;
        int n = 0 ;
        budget_t probe = { 5, 0.5 } ;
        pre [c] = 0 ;
        if (sddmm_e2e (g, &d, A, X, Yd, k, cfg, 0, Cv, &first) != 0)
        {
            (void) cudaGetLastError () ;
            pre [c] = 1 ;
            if (sddmm_e2e (g, &d, A, X, Yd, k, cfg, 1, Cv, &first) != 0) first = -1 ;
        }
        if (first < 0 || sddmm_setup (g, &d, A, X, Yd, k, cfg, 1) != 0
            || sddmm_kernel_times (g, &d, cfg, probe, t, &n) != 0)
        {
            size_t l = strlen (refused) ;
            snprintf (refused + l, sizeof (refused) - l, "%s%s: %.100s", l ? "; " : "", cfg->name, pc_err) ;
            dn_destroy (&d) ;
            (void) cudaGetLastError () ;
            continue ;
        }
        if (r->first_ms < 0) r->first_ms = first ;
        dn_destroy (&d) ;
        double m = median (t, n) ;
        if (best < 0 || m < best_ms) { best = c ; best_ms = m ; }
    }
    if (best < 0)
    {
        snprintf (pc_err, sizeof (pc_err), "no SDDMM configuration accepted: %s", refused) ;
        PC_FREE_ALL ;
        return 1 ;
    }
    const sddmm_cfg *cfg = &sddmm_cfgs [best] ;
    const float *X = cfg->x_colmajor ? Xcol : Xrow ;
    const float *Yd = cfg->y_colmajor ? Ycol : Yrow ;
    snprintf (r->config, sizeof (r->config), "%s (fastest of %d)", cfg->name, N_SDDMM_CFGS) ;
    int n = 0 ;
    PC_TRY (sddmm_setup (g, &d, A, X, Yd, k, cfg, 1)) ;
    PC_TRY (sddmm_kernel_times (g, &d, cfg, b, t, &n)) ;
    dn_destroy (&d) ;
    r->kernel_reps = n ;
    r->kernel_ms = median (t, n) ;
    r->kernel_min_ms = t [0] ;
    double spent = 0 ;
    n = 0 ;
    while (n < b.reps && (n == 0 || spent < b.max_s))
    {
        PC_TRY (sddmm_e2e (g, &d, A, X, Yd, k, cfg, pre [best], Cv, &t [n])) ;
        spent += 1e-3 * t [n++] ;
    }
    r->e2e_reps = n ;
    r->e2e_ms = median (t, n) ;
    r->nnz_out = A->nnz ;
    r->flops = 2.0 * (double) A->nnz * k ;
    PC_FREE_ALL ;
    return 0 ;
    #undef PC_FREE_ALL
}

//------------------------------------------------------------------------------
// main: per workload, each op on the GPU, then SuiteSparse's answer, compared
//------------------------------------------------------------------------------

static void usage (void)
{
    fprintf (stderr,
        "usage: cusparse_peer --workload W [--workload W2 ...] [--ops spgemm,spmv,spmm,sddmm]\n"
        "                     [--repeats N] [--max-seconds S] [--seed S] [--device D]\n") ;
}

static void fail_report (report_t *r)
{
    r->failed = 1 ;
    snprintf (r->error, sizeof (r->error), "%s", pc_err [0] ? pc_err : "unknown failure") ;
    (void) cudaGetLastError () ;    // clear a non-sticky error for the next op
}

int main (int argc, char **argv)
{
    const char *workloads [64] ;
    int nworkloads = 0, device = 0 ;
    bool op_spgemm = false, op_spmv = false, op_spmm = false, op_sddmm = false, any = false ;
    budget_t budget = { 10, 10.0 } ;
    uint64_t seed = GG_DEFAULT_SEED ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (strcmp (argv [a], "--workload") == 0 && a + 1 < argc)
        {
            if (nworkloads >= 64) { usage () ; return 2 ; }
            workloads [nworkloads++] = argv [++a] ;
        }
        else if (strcmp (argv [a], "--ops") == 0 && a + 1 < argc)
        {
            const char *s = argv [++a] ;
            char tok [64] ;
            while (*s)
            {
                size_t l = strcspn (s, ",") ;
                snprintf (tok, sizeof (tok), "%.*s", (int) (l < 63 ? l : 63), s) ;
                if (strcmp (tok, "spgemm") == 0) op_spgemm = true ;
                else if (strcmp (tok, "spmv") == 0) op_spmv = true ;
                else if (strcmp (tok, "spmm") == 0) op_spmm = true ;
                else if (strcmp (tok, "sddmm") == 0) op_sddmm = true ;
                else if (tok [0]) { fprintf (stderr, "cusparse_peer: unknown op %s\n", tok) ; usage () ; return 2 ; }
                any = true ;
                s += l ;
                if (*s == ',') s++ ;
            }
        }
        else if (strcmp (argv [a], "--repeats") == 0 && a + 1 < argc) budget.reps = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--max-seconds") == 0 && a + 1 < argc) budget.max_s = atof (argv [++a]) ;
        else if (strcmp (argv [a], "--seed") == 0 && a + 1 < argc) seed = strtoull (argv [++a], NULL, 0) ;
        else if (strcmp (argv [a], "--device") == 0 && a + 1 < argc) device = atoi (argv [++a]) ;
        else { usage () ; return 2 ; }
    }
    if (nworkloads == 0 || budget.reps < 1) { usage () ; return 2 ; }
    if (!any) op_spgemm = op_spmv = op_spmm = op_sddmm = true ;

    // one-time costs: the context, then the cuSPARSE handle
    gpu_t g ;
    memset (&g, 0, sizeof (g)) ;
    int ndev = 0 ;
    double t0 = gg_now () ;
    if (CU (cudaGetDeviceCount (&ndev)) || ndev == 0)
    {
        printf ("{\"type\":\"env\",\"tool\":\"cusparse_peer\",\"status\":\"no gpu\",\"error\":") ;
        bu_json_str (stdout, ndev == 0 && !pc_err [0] ? "no CUDA device" : pc_err) ;
        printf ("}\n") ;
        return 3 ;
    }
    if (CU (cudaSetDevice (device)) || CU (cudaFree (0)))
    {
        printf ("{\"type\":\"env\",\"tool\":\"cusparse_peer\",\"status\":\"no gpu\",\"error\":") ;
        bu_json_str (stdout, pc_err) ;
        printf ("}\n") ;
        return 3 ;
    }
    double ctx_ms = 1e3 * (gg_now () - t0) ;
    t0 = gg_now () ;
    if (SP (cusparseCreate (&g.h)))
    {
        printf ("{\"type\":\"env\",\"tool\":\"cusparse_peer\",\"status\":\"error\",\"error\":") ;
        bu_json_str (stdout, pc_err) ;
        printf ("}\n") ;
        return 1 ;
    }
    double handle_ms = 1e3 * (gg_now () - t0) ;
    if (CU (cudaStreamCreateWithFlags (&g.stream, cudaStreamNonBlocking))
        || SP (cusparseSetStream (g.h, g.stream))
        || CU (cudaEventCreate (&g.e0)) || CU (cudaEventCreate (&g.e1)))
    {
        fprintf (stderr, "cusparse_peer: %s\n", pc_err) ;
        return 1 ;
    }
    cudaDeviceProp prop ;
    int drv = 0, rt = 0, spv = 0 ;
    if (CU (cudaGetDeviceProperties (&prop, device)) || CU (cudaDriverGetVersion (&drv))
        || CU (cudaRuntimeGetVersion (&rt)) || SP (cusparseGetVersion (g.h, &spv)))
    {
        fprintf (stderr, "cusparse_peer: %s\n", pc_err) ;
        return 1 ;
    }
    if (measure_copy_bw (&g) != 0)
    {
        fprintf (stderr, "cusparse_peer: copy bandwidth: %s\n", pc_err) ;
        g.copy_bw = 0 ;
    }
    printf ("{\"type\":\"env\",\"tool\":\"cusparse_peer\",\"status\":\"ok\",\"gpu\":") ;
    bu_json_str (stdout, prop.name) ;
    printf (",\"sm_count\":%d,\"cc\":\"%d.%d\",\"global_mem\":%zu,\"driver\":%d,\"runtime\":%d,"
        "\"cusparse\":%d,\"ctx_init_ms\":%.3f,\"handle_ms\":%.3f,\"copy_bw_gbs\":%.1f}\n",
        prop.multiProcessorCount, prop.major, prop.minor, prop.totalGlobalMem, drv, rt, spv,
        ctx_ms, handle_ms, g.copy_bw / 1e9) ;
    fflush (stdout) ;
    fprintf (stderr, "[cusparse_peer] %s, context %.0f ms, handle %.0f ms, copy %.0f GB/s\n",
        prop.name, ctx_ms, handle_ms, g.copy_bw / 1e9) ;

    GrB_Info info = GrB_init (GrB_NONBLOCKING) ;
    if (info != GrB_SUCCESS) { fprintf (stderr, "cusparse_peer: GrB_init failed (%d)\n", info) ; return 1 ; }

    int rc = 0 ;
    const int k = BU_DENSE_COLS ;
    for (int w = 0 ; w < nworkloads ; w++)
    {
        const char *wl = workloads [w] ;
        GrB_Matrix A = NULL ;
        gg_csr csr ;
        hcsr H ;
        memset (&csr, 0, sizeof (csr)) ;
        memset (&H, 0, sizeof (H)) ;
        char err [512] = "" ;
        fprintf (stderr, "[cusparse_peer] %s: generating\n", wl) ;
        t0 = gg_now () ;
        info = gg_load (&A, wl, seed, GG_UNDIRECTED, err, sizeof (err)) ;
        double gen = gg_now () - t0 ;
        if (info == GrB_SUCCESS) info = gg_csr_get (&csr, A) ;
        if (info == GrB_SUCCESS && hcsr_from (&H, &csr) != 0)
        {
            snprintf (err, sizeof (err), "%s", pc_err) ;
            info = GrB_INVALID_VALUE ;
        }
        printf ("{\"type\":\"workload\",\"tool\":\"cusparse_peer\",\"workload\":") ;
        bu_json_str (stdout, wl) ;
        if (info != GrB_SUCCESS)
        {
            printf (",\"status\":\"error\",\"error\":") ;
            bu_json_str (stdout, err [0] ? err : "GraphBLAS failed") ;
            printf ("}\n") ;
            fflush (stdout) ;
            GrB_Matrix_free (&A) ; gg_csr_free (&csr) ;
            rc = 1 ;
            continue ;
        }
        printf (",\"status\":\"ok\",\"n\":%llu,\"nvals\":%llu,\"gen_ms\":%.3f}\n",
            (unsigned long long) csr.nrows, (unsigned long long) csr.nvals, 1e3 * gen) ;
        fflush (stdout) ;

        if (op_spmv)
        {
            report_t r ;
            report_init (&r, "spmv") ;
            fprintf (stderr, "[cusparse_peer] %s spmv\n", wl) ;
            double *x = (double *) malloc ((size_t) H.n * sizeof (double)) ;
            double *y = (double *) malloc ((size_t) H.n * sizeof (double)) ;
            if (x == NULL || y == NULL) { snprintf (pc_err, sizeof (pc_err), "out of host memory") ; fail_report (&r) ; }
            else
            {
                for (int64_t i = 0 ; i < H.n ; i++) x [i] = gg_dense_value (bu_seed_x (seed), (uint64_t) i) ;
                if (bench_spmv (&g, &H, x, y, budget, &r) != 0) fail_report (&r) ;
                else
                {
                    GrB_Vector gx = NULL, gy = NULL ;
                    bu_vec ref ;
                    memset (&ref, 0, sizeof (ref)) ;
                    GrB_Info i2 = bu_make_x (&gx, csr.nrows, seed) ;
                    if (i2 == GrB_SUCCESS) i2 = bu_spmv (&gy, A, gx, NULL) ;
                    if (i2 == GrB_SUCCESS) i2 = bu_vec_get (&ref, gy) ;
                    if (i2 != GrB_SUCCESS) r.check = "no reference" ;
                    else
                    {
                        double *rb = bu_row_bound (&csr, 0x1p-53) ;
                        bu_tol tol = { 1e-12, 0, rb } ;
                        r.check = bu_compare_vec_dense (r.check_msg, sizeof (r.check_msg), &ref, y, tol)
                            ? "ok" : "wrong" ;
                        free (rb) ;
                    }
                    bu_vec_free (&ref) ;
                    GrB_Vector_free (&gx) ; GrB_Vector_free (&gy) ;
                }
            }
            free (x) ; free (y) ;
            report_print (wl, &r, &g) ;
            if (r.failed || strcmp (r.check, "ok") != 0) rc = 1 ;
        }

        if (op_spgemm)
        {
            report_t r ;
            report_init (&r, "spgemm") ;
            fprintf (stderr, "[cusparse_peer] %s spgemm\n", wl) ;
            r.products = bu_products (&csr) ;
            r.flops = 2.0 * (double) r.products ;
            hC_t hC ;
            memset (&hC, 0, sizeof (hC)) ;
            hC.rp = (int32_t *) malloc ((size_t) (H.n + 1) * 4) ;
            if (hC.rp == NULL) { snprintf (pc_err, sizeof (pc_err), "out of host memory") ; fail_report (&r) ; }
            else if (bench_spgemm (&g, &H, &hC, budget, &r) != 0) fail_report (&r) ;
            else
            {
                // SuiteSparse's C, and cuSPARSE's C in the same form
                GrB_Matrix C = NULL ;
                gg_csr ref, got ;
                memset (&ref, 0, sizeof (ref)) ;
                memset (&got, 0, sizeof (got)) ;
                fprintf (stderr, "[cusparse_peer] %s spgemm: SuiteSparse reference\n", wl) ;
                GrB_Info i2 = bu_spgemm (&C, A, NULL) ;
                if (i2 == GrB_SUCCESS) i2 = gg_csr_get (&ref, C) ;
                GrB_Matrix_free (&C) ;
                int64_t nc = r.nnz_out ;
                got.nrows = got.ncols = (GrB_Index) H.n ;
                got.nvals = (GrB_Index) nc ;
                got.p = (GrB_Index *) malloc ((size_t) (H.n + 1) * sizeof (GrB_Index)) ;
                got.j = (GrB_Index *) malloc ((size_t) (nc + 1) * sizeof (GrB_Index)) ;
                got.x = (double *) malloc ((size_t) (nc + 1) * sizeof (double)) ;
                if (i2 != GrB_SUCCESS || !got.p || !got.j || !got.x) r.check = "no reference" ;
                else
                {
                    for (int64_t i = 0 ; i <= H.n ; i++) got.p [i] = (GrB_Index) hC.rp [i] ;
                    for (int64_t q = 0 ; q < nc ; q++) { got.j [q] = (GrB_Index) hC.ci [q] ; got.x [q] = hC.v [q] ; }
                    bool sane = got.p [0] == 0 && (int64_t) got.p [H.n] == nc ;
                    if (sane && gg_csr_sort_rows (&got) != GrB_SUCCESS) r.check = "no reference" ;
                    else if (!sane)
                    {
                        r.check = "wrong" ;
                        snprintf (r.check_msg, sizeof (r.check_msg), "row pointers inconsistent with nnz(C)=%lld", (long long) nc) ;
                    }
                    else
                    {
                        double mx = 0 ;
                        for (GrB_Index q = 0 ; q < ref.nvals ; q++) mx = fmax (mx, fabs (ref.x [q])) ;
                        bu_tol tol = { 1e-10, 1e-12 * mx, NULL } ;
                        bool ok = bu_compare_csr (r.check_msg, sizeof (r.check_msg), &ref, &got, tol) ;
                        r.check = ok ? "ok" : "wrong" ;
                        if (!ok && nc == 0 && ref.nvals > 0)
                            snprintf (r.check_msg, sizeof (r.check_msg),
                                "cuSPARSE returned an empty matrix without an error (%llu entries expected)",
                                (unsigned long long) ref.nvals) ;
                    }
                }
                gg_csr_free (&ref) ; gg_csr_free (&got) ;
            }
            free (hC.rp) ; free (hC.ci) ; free (hC.v) ;
            report_print (wl, &r, &g) ;
            if (r.failed || strcmp (r.check, "ok") != 0) rc = 1 ;
        }

        if (op_spmm || op_sddmm)
        {
            size_t len = (size_t) H.n * k ;
            float *Xr = (float *) malloc (len * 4), *Xc = (float *) malloc (len * 4) ;
            float *Yr = (float *) malloc (len * 4), *Yc = (float *) malloc (len * 4) ;
            float *out = (float *) malloc ((len > (size_t) H.nnz ? len : (size_t) H.nnz) * 4 + 4) ;
            float *tmp = (float *) malloc (len * 4 + 4) ;
            GrB_Matrix gX = NULL, gY = NULL, A32 = NULL, R = NULL ;
            bool mem = Xr && Xc && Yr && Yc && out && tmp ;
            if (mem)
            {
                for (int64_t i = 0 ; i < H.n ; i++)
                    for (int c = 0 ; c < k ; c++)
                    {
                        size_t rowm = (size_t) i * k + c, colm = (size_t) c * H.n + i ;
                        Xr [rowm] = Xc [colm] = (float) gg_dense_value (bu_seed_X (seed), rowm) ;
                        Yr [rowm] = Yc [colm] = (float) gg_dense_value (bu_seed_Y (seed), rowm) ;
                    }
            }
            if (op_spmm)
            {
                report_t r ;
                report_init (&r, "spmm") ;
                fprintf (stderr, "[cusparse_peer] %s spmm\n", wl) ;
                if (!mem) { snprintf (pc_err, sizeof (pc_err), "out of host memory") ; fail_report (&r) ; }
                else if (bench_spmm (&g, &H, Xr, Xc, k, out, tmp, budget, &r) != 0) fail_report (&r) ;
                else
                {
                    gg_csr ref ;
                    memset (&ref, 0, sizeof (ref)) ;
                    GrB_Info i2 = bu_make_fp32 (&A32, A) ;
                    if (i2 == GrB_SUCCESS) i2 = bu_make_dense (&gX, csr.nrows, k, bu_seed_X (seed)) ;
                    if (i2 == GrB_SUCCESS) i2 = bu_spmm (&R, A32, gX, NULL) ;
                    if (i2 == GrB_SUCCESS) i2 = gg_csr_get (&ref, R) ;
                    double *rb = (i2 == GrB_SUCCESS) ? bu_row_bound (&csr, 0x1p-24) : NULL ;
                    if (rb == NULL) r.check = "no reference" ;
                    else
                    {
                        bu_tol tol = { 1e-5, 0, rb } ;
                        r.check = bu_compare_csr_dense (r.check_msg, sizeof (r.check_msg), &ref, out, k, tol)
                            ? "ok" : "wrong" ;
                    }
                    free (rb) ;
                    gg_csr_free (&ref) ;
                    GrB_Matrix_free (&R) ;
                }
                report_print (wl, &r, &g) ;
                if (r.failed || strcmp (r.check, "ok") != 0) rc = 1 ;
            }
            if (op_sddmm)
            {
                report_t r ;
                report_init (&r, "sddmm") ;
                fprintf (stderr, "[cusparse_peer] %s sddmm\n", wl) ;
                if (!mem) { snprintf (pc_err, sizeof (pc_err), "out of host memory") ; fail_report (&r) ; }
                else if (bench_sddmm (&g, &H, Xr, Xc, Yr, Yc, k, out, budget, &r) != 0) fail_report (&r) ;
                else
                {
                    gg_csr ref, got ;
                    memset (&ref, 0, sizeof (ref)) ;
                    got = csr ;     // A's pattern, cuSPARSE's values
                    got.x = (double *) malloc ((size_t) (H.nnz + 1) * sizeof (double)) ;
                    GrB_Info i2 = (got.x == NULL) ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
                    if (i2 == GrB_SUCCESS && gX == NULL) i2 = bu_make_dense (&gX, csr.nrows, k, bu_seed_X (seed)) ;
                    if (i2 == GrB_SUCCESS) i2 = bu_make_dense (&gY, csr.nrows, k, bu_seed_Y (seed)) ;
                    if (i2 == GrB_SUCCESS) i2 = bu_sddmm (&R, A, gX, gY, NULL) ;
                    if (i2 == GrB_SUCCESS) i2 = gg_csr_get (&ref, R) ;
                    if (i2 != GrB_SUCCESS) r.check = "no reference" ;
                    else
                    {
                        for (int64_t q = 0 ; q < H.nnz ; q++) got.x [q] = out [q] ;
                        bu_tol tol = { 1e-5, 2.0 * k * 0x1p-24 * k, NULL } ;
                        r.check = bu_compare_csr (r.check_msg, sizeof (r.check_msg), &ref, &got, tol)
                            ? "ok" : "wrong" ;
                    }
                    free (got.x) ;
                    gg_csr_free (&ref) ;
                    GrB_Matrix_free (&R) ;
                }
                report_print (wl, &r, &g) ;
                if (r.failed || strcmp (r.check, "ok") != 0) rc = 1 ;
            }
            free (Xr) ; free (Xc) ; free (Yr) ; free (Yc) ; free (out) ; free (tmp) ;
            GrB_Matrix_free (&gX) ; GrB_Matrix_free (&gY) ; GrB_Matrix_free (&A32) ;
        }
        hcsr_free (&H) ;
        gg_csr_free (&csr) ;
        GrB_Matrix_free (&A) ;
    }
    GrB_finalize () ;
    SPQ (cusparseDestroy (g.h)) ;
    CUQ (cudaEventDestroy (g.e0)) ;
    CUQ (cudaEventDestroy (g.e1)) ;
    CUQ (cudaStreamDestroy (g.stream)) ;
    return rc ;
}
