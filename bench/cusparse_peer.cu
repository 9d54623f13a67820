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
//   (the dense operands' columns: GRBCUDA_BENCH_COLS, default 32)
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
// a CSR matrix on the device (32-bit indices), from the buffer cache
//------------------------------------------------------------------------------

typedef struct { dbuf rp, ci, v ; } dcsr ;

// Room for n rows, nnz entries, values of vsize bytes.
static int dcsr_reserve (dcsr *D, int64_t n, int64_t nnz, size_t vsize)
{
    if (dbuf_reserve (&D->rp, (size_t) (n + 1) * 4)) return 1 ;
    if (dbuf_reserve (&D->ci, (size_t) nnz * 4)) return 1 ;
    return dbuf_reserve (&D->v, (size_t) nnz * vsize) ;
}

// A's pattern and the values vals (vsize bytes each; NULL: zeros), queued on
// the stream.
static int dcsr_upload (gpu_t *g, dcsr *D, const hcsr *A, const void *vals, size_t vsize)
{
    const size_t nv = (size_t) A->nnz * vsize ;
    if (dcsr_reserve (D, A->n, A->nnz, vsize)) return 1 ;
    if (CU (cudaMemcpyAsync (D->rp.p, A->rp, (size_t) (A->n + 1) * 4, cudaMemcpyHostToDevice, g->stream))) return 1 ;
    if (CU (cudaMemcpyAsync (D->ci.p, A->ci, (size_t) A->nnz * 4, cudaMemcpyHostToDevice, g->stream))) return 1 ;
    if (vals == NULL) return CU (cudaMemsetAsync (D->v.p, 0, nv, g->stream)) ;
    return CU (cudaMemcpyAsync (D->v.p, vals, nv, cudaMemcpyHostToDevice, g->stream)) ;
}

// The n-by-n CSR descriptor over D, values of type t.
static int dcsr_descr (cusparseSpMatDescr_t *M, const dcsr *D, int64_t n, int64_t nnz,
    cudaDataType t)
{
    return SP (cusparseCreateCsr (M, n, n, nnz, D->rp.p, D->ci.p, D->v.p,
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, t)) ;
}

static void dcsr_free (dcsr *D)
{
    dbuf_free (&D->rp) ; dbuf_free (&D->ci) ; dbuf_free (&D->v) ;
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
// the timing loops every operation shares
//------------------------------------------------------------------------------

// One timed repeat of an operation (job: its operands and device state):
// nonzero on failure, pc_err saying why; else *ms.
typedef int (*once_fn) (void *job, double *ms) ;

// The kernel's times over a budget, operands resident (the operation sets
// them up and takes them down): nonzero on failure; else t [0..*n-1].
typedef int (*kernel_fn) (void *job, budget_t b, double *t, int *n) ;

// Room for n times; NULL, pc_err set, when out of host memory.
static double *times_new (int n)
{
    double *t = (double *) malloc ((size_t) n * sizeof (double)) ;
    if (t == NULL) snprintf (pc_err, sizeof (pc_err), "out of host memory") ;
    return t ;
}

// Repeats of once within b, their times in t [0..*n-1].
static int time_reps (budget_t b, once_fn once, void *job, double *t, int *n)
{
    double spent = 0 ;
    *n = 0 ;
    while (*n < b.reps && (*n == 0 || spent < b.max_s))
    {
        if (once (job, &t [*n]) != 0) return 1 ;
        spent += 1e-3 * t [(*n)++] ;
    }
    return 0 ;
}

// The two timings of a report, each over b: the kernel's (median and
// minimum), then end to end (median). t: room for b.reps times.
static int time_report (void *job, kernel_fn kernel, once_fn e2e, budget_t b,
    double *t, report_t *r)
{
    int n = 0 ;
    if (kernel (job, b, t, &n) != 0) return 1 ;
    r->kernel_reps = n ;
    r->kernel_ms = median (t, n) ;
    r->kernel_min_ms = t [0] ;
    if (time_reps (b, e2e, job, t, &n) != 0) return 1 ;
    r->e2e_reps = n ;
    r->e2e_ms = median (t, n) ;
    return 0 ;
}

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
    dcsr a ;
    dbuf x, y, work ;
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

static void spmv_release (spmv_dev *d)
{
    spmv_destroy (d) ;
    dcsr_free (&d->a) ;
    dbuf_free (&d->x) ; dbuf_free (&d->y) ; dbuf_free (&d->work) ;
}

// What the timing loops call SpMV with.
typedef struct
{
    gpu_t *g ;
    spmv_dev d ;
    const hcsr *A ;
    const double *x ;
    double *y ;         // the end-to-end call's result
}
spmv_job ;

// Upload, descriptors, buffer: the setup both timings share.
static int spmv_setup (spmv_job *j, int preprocess)
{
    const double one = 1, zero = 0 ;
    gpu_t *g = j->g ;
    spmv_dev *d = &j->d ;
    const int64_t n = j->A->n ;
    size_t ws = 0 ;
    #define PC_FREE_ALL spmv_destroy (d)
    PC_TRY (dbuf_reserve (&d->x, (size_t) n * 8)) ;
    PC_TRY (dbuf_reserve (&d->y, (size_t) n * 8)) ;
    PC_TRY (dcsr_upload (g, &d->a, j->A, j->A->v64, 8)) ;
    PC_TRY (CU (cudaMemcpyAsync (d->x.p, j->x, (size_t) n * 8, cudaMemcpyHostToDevice, g->stream))) ;
    PC_TRY (dcsr_descr (&d->A, &d->a, n, j->A->nnz, CUDA_R_64F)) ;
    PC_TRY (SP (cusparseCreateDnVec (&d->vx, n, d->x.p, CUDA_R_64F))) ;
    PC_TRY (SP (cusparseCreateDnVec (&d->vy, n, d->y.p, CUDA_R_64F))) ;
    PC_TRY (SP (cusparseSpMV_bufferSize (g->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, d->A,
        d->vx, &zero, d->vy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &ws))) ;
    PC_TRY (dbuf_reserve (&d->work, ws)) ;
    if (preprocess)
        PC_TRY (SP (cusparseSpMV_preprocess (g->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, d->A,
            d->vx, &zero, d->vy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, d->work.p))) ;
    return 0 ;
    #undef PC_FREE_ALL
}

static int spmv_call (spmv_job *j)
{
    const double one = 1, zero = 0 ;
    spmv_dev *d = &j->d ;
    return SP (cusparseSpMV (j->g->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, d->A, d->vx,
        &zero, d->vy, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, d->work.p)) ;
}

// One end-to-end call: upload, SpMV, download y.
static int spmv_e2e (void *job, double *ms)
{
    spmv_job *j = (spmv_job *) job ;
    #define PC_FREE_ALL spmv_destroy (&j->d)
    double t0 = gg_now () ;
    PC_TRY (spmv_setup (j, 0)) ;
    PC_TRY (spmv_call (j)) ;
    PC_TRY (CU (cudaMemcpyAsync (j->y, j->d.y.p, (size_t) j->A->n * 8, cudaMemcpyDeviceToHost, j->g->stream))) ;
    PC_TRY (CU (cudaStreamSynchronize (j->g->stream))) ;
    *ms = 1e3 * (gg_now () - t0) ;
    spmv_destroy (&j->d) ;
    return 0 ;
    #undef PC_FREE_ALL
}

static int spmv_kernel_once (void *job, double *ms)
{
    spmv_job *j = (spmv_job *) job ;
    if (CU (cudaEventRecord (j->g->e0, j->g->stream)) || spmv_call (j)
        || CU (cudaEventRecord (j->g->e1, j->g->stream)))
        return 1 ;
    return ev_ms (j->g, ms) ;
}

// kernel: operands resident, preprocessed, warmed up
static int spmv_kernel (void *job, budget_t b, double *t, int *n)
{
    spmv_job *j = (spmv_job *) job ;
    #define PC_FREE_ALL spmv_destroy (&j->d)
    PC_TRY (spmv_setup (j, 1)) ;
    for (int w = 0 ; w < 3 ; w++) PC_TRY (spmv_call (j)) ;
    PC_TRY (time_reps (b, spmv_kernel_once, j, t, n)) ;
    spmv_destroy (&j->d) ;
    return 0 ;
    #undef PC_FREE_ALL
}

static int bench_spmv (gpu_t *g, const hcsr *A, const double *x, double *y,
    budget_t b, report_t *r)
{
    spmv_job j ;
    memset (&j, 0, sizeof (j)) ;
    j.g = g ; j.A = A ; j.x = x ; j.y = y ;
    double *t = times_new (b.reps) ;
    #define PC_FREE_ALL do { spmv_release (&j.d) ; free (t) ; } while (0)
    if (t == NULL) { PC_FREE_ALL ; return 1 ; }
    snprintf (r->config, sizeof (r->config), "CSR, ALG_DEFAULT, 32-bit indices") ;
    PC_TRY (spmv_e2e (&j, &r->first_ms)) ;
    PC_TRY (time_report (&j, spmv_kernel, spmv_e2e, b, t, r)) ;
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
    dcsr a, c ;                     // A, C
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
    dcsr_free (&d->a) ; dcsr_free (&d->c) ;
    dbuf_free (&d->buf1) ; dbuf_free (&d->buf2) ;
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
    PC_TRY (dcsr_descr (&d->A, &d->a, n, nnzA, CUDA_R_64F)) ;
    PC_TRY (dcsr_descr (&d->B, &d->a, n, nnzA, CUDA_R_64F)) ;
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
    PC_TRY (dcsr_reserve (&d->c, n, *nnzC, 8)) ;
    PC_TRY (SP (cusparseCsrSetPointers (d->C, d->c.rp.p, d->c.ci.p, d->c.v.p))) ;
    PC_TRY (SP (cusparseSpGEMM_copy (g->h, N, N, &one, d->A, d->B, &zero, d->C,
        CUDA_R_64F, alg, d->sd))) ;
    PC_TRY (CU (cudaEventRecord (g->e1, g->stream))) ;
    PC_TRY (ev_ms (g, ms)) ;
    spgemm_destroy (d) ;
    return 0 ;
    #undef PC_FREE_ALL
}

typedef struct { int32_t *rp, *ci ; double *v ; size_t cap ; } hC_t ;

// What the timing loops call SpGEMM with.
typedef struct
{
    gpu_t *g ;
    spgemm_dev d ;
    const hcsr *A ;
    hC_t *hC ;          // the end-to-end call's result
    int64_t nnzC ;
}
spgemm_job ;

static int spgemm_e2e (void *job, double *ms)
{
    spgemm_job *j = (spgemm_job *) job ;
    gpu_t *g = j->g ;
    hC_t *hC = j->hC ;
    const dcsr *C = &j->d.c ;
    double t0 = gg_now (), kms ;
    if (dcsr_upload (g, &j->d.a, j->A, j->A->v64, 8)) return 1 ;
    if (spgemm_compute (g, &j->d, j->A->n, j->A->nnz, &j->nnzC, &kms)) return 1 ;
    const size_t nc = (size_t) j->nnzC ;
    if (nc + 1 > hC->cap)
    {
        free (hC->ci) ; free (hC->v) ;
        hC->cap = nc + 1 ;
        hC->ci = (int32_t *) malloc (hC->cap * 4) ;
        hC->v = (double *) malloc (hC->cap * 8) ;
        if (hC->ci == NULL || hC->v == NULL)
        {
            hC->cap = 0 ;
            snprintf (pc_err, sizeof (pc_err), "out of host memory for C") ;
            return 1 ;
        }
    }
    if (CU (cudaMemcpyAsync (hC->rp, C->rp.p, (size_t) (j->A->n + 1) * 4, cudaMemcpyDeviceToHost, g->stream))
        || CU (cudaMemcpyAsync (hC->ci, C->ci.p, nc * 4, cudaMemcpyDeviceToHost, g->stream))
        || CU (cudaMemcpyAsync (hC->v, C->v.p, nc * 8, cudaMemcpyDeviceToHost, g->stream))
        || CU (cudaStreamSynchronize (g->stream)))
        return 1 ;
    *ms = 1e3 * (gg_now () - t0) ;
    return 0 ;
}

static int spgemm_kernel_once (void *job, double *ms)
{
    spgemm_job *j = (spgemm_job *) job ;
    return spgemm_compute (j->g, &j->d, j->A->n, j->A->nnz, &j->nnzC, ms) ;
}

// kernel: A resident; buffers from the cache
static int spgemm_kernel (void *job, budget_t b, double *t, int *n)
{
    spgemm_job *j = (spgemm_job *) job ;
    if (dcsr_upload (j->g, &j->d.a, j->A, j->A->v64, 8)) return 1 ;
    return time_reps (b, spgemm_kernel_once, j, t, n) ;
}

static int bench_spgemm (gpu_t *g, const hcsr *A, hC_t *hC, budget_t b, report_t *r)
{
    spgemm_job j ;
    memset (&j, 0, sizeof (j)) ;
    j.g = g ; j.A = A ; j.hC = hC ;
    double *t = times_new (b.reps) ;
    #define PC_FREE_ALL do { spgemm_release (&j.d) ; free (t) ; } while (0)
    if (t == NULL) { PC_FREE_ALL ; return 1 ; }
    snprintf (r->config, sizeof (r->config), "CSR, SPGEMM_DEFAULT, 32-bit indices") ;
    PC_TRY (spgemm_e2e (&j, &r->first_ms)) ;
    r->nnz_out = j.nnzC ;
    PC_TRY (time_report (&j, spgemm_kernel, spgemm_e2e, b, t, r)) ;
    r->nnz_out = j.nnzC ;
    // A and B read once each, C written once, 32-bit indices, FP64 values
    double bytesA = 4.0 * (A->n + 1) + 12.0 * A->nnz ;
    r->bytes_min = 2 * bytesA + 4.0 * (A->n + 1) + 12.0 * j.nnzC ;
    PC_FREE_ALL ;
    return 0 ;
    #undef PC_FREE_ALL
}

//------------------------------------------------------------------------------
// the dense operations (SpMM, SDDMM): the configuration probe
//------------------------------------------------------------------------------

typedef struct
{
    dcsr a ;
    dbuf X, Y, work ;
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
    dcsr_free (&d->a) ;
    dbuf_free (&d->X) ; dbuf_free (&d->Y) ; dbuf_free (&d->work) ;
}

typedef struct dn_job dn_job ;

// What a dense operation gives the probe-and-time driver (dn_bench): its
// configurations (layouts, algorithms) and the steps of one call.
typedef struct
{
    const char *what ;                  // "SpMM": the error names it
    int ncfg ;                          // configurations 0..ncfg-1
    const char *(*name) (int c) ;
    // upload, descriptors, buffer for configuration j->c, preprocessed when
    // asked; nonzero where cuSPARSE refuses the configuration
    int (*setup) (dn_job *j, int preprocess) ;
    int (*call) (dn_job *j) ;           // the operation, operands resident
    int (*download) (dn_job *j) ;       // its result to j->out, queued
}
dn_op ;

// What the timing loops call a dense operation with.
struct dn_job
{
    gpu_t *g ;
    const dn_op *op ;
    dn_dev d ;
    int c ;             // the configuration
    int pre ;           // whether its end-to-end calls preprocess
    const hcsr *A ;
    int k ;
    const float *Xrow, *Xcol, *Yrow, *Ycol ;    // n-by-k, row- and column-major
    float *out ;        // the end-to-end call's result, as the configuration lays it
} ;

// A (its FP32 values, or zeros where vals is NULL), X and, where given, Y
// (n-by-k) to the device; room for an n-by-k Y in any case.
static int dn_upload (dn_job *j, const float *vals, const float *X, const float *Y)
{
    const size_t bytes = (size_t) j->A->n * j->k * 4 ;
    dn_dev *d = &j->d ;
    cudaStream_t s = j->g->stream ;
    if (dbuf_reserve (&d->X, bytes) || dbuf_reserve (&d->Y, bytes)) return 1 ;
    if (dcsr_upload (j->g, &d->a, j->A, vals, 4)) return 1 ;
    if (CU (cudaMemcpyAsync (d->X.p, X, bytes, cudaMemcpyHostToDevice, s))) return 1 ;
    return Y == NULL ? 0 : CU (cudaMemcpyAsync (d->Y.p, Y, bytes, cudaMemcpyHostToDevice, s)) ;
}

// One end-to-end call: upload, the operation, download.
static int dn_e2e (void *job, double *ms)
{
    dn_job *j = (dn_job *) job ;
    #define PC_FREE_ALL dn_destroy (&j->d)
    double t0 = gg_now () ;
    PC_TRY (j->op->setup (j, j->pre)) ;
    PC_TRY (j->op->call (j)) ;
    PC_TRY (j->op->download (j)) ;
    PC_TRY (CU (cudaStreamSynchronize (j->g->stream))) ;
    *ms = 1e3 * (gg_now () - t0) ;
    dn_destroy (&j->d) ;
    return 0 ;
    #undef PC_FREE_ALL
}

static int dn_kernel_once (void *job, double *ms)
{
    dn_job *j = (dn_job *) job ;
    if (CU (cudaEventRecord (j->g->e0, j->g->stream)) || j->op->call (j)
        || CU (cudaEventRecord (j->g->e1, j->g->stream)))
        return 1 ;
    return ev_ms (j->g, ms) ;
}

// kernel: operands resident, preprocessed, warmed up
static int dn_kernel (void *job, budget_t b, double *t, int *n)
{
    dn_job *j = (dn_job *) job ;
    #define PC_FREE_ALL dn_destroy (&j->d)
    PC_TRY (j->op->setup (j, 1)) ;
    for (int w = 0 ; w < 2 ; w++) PC_TRY (j->op->call (j)) ;
    PC_TRY (time_reps (b, dn_kernel_once, j, t, n)) ;
    dn_destroy (&j->d) ;
    return 0 ;
    #undef PC_FREE_ALL
}

// Configuration j->c once end to end (without preprocessing, then with it
// where cuSPARSE needs it: j->pre says which), then its kernel on a small
// probe budget. *first: the end-to-end time; *ms: the kernel's median.
// Nonzero where cuSPARSE refuses the configuration (pc_err says why).
static int dn_probe (dn_job *j, double *t, double *first, double *ms)
{
    const budget_t probe = { 5, 0.5 } ;
    int n = 0 ;
    *first = -1 ;
    j->pre = 0 ;
    if (dn_e2e (j, first) != 0)
    {
        (void) cudaGetLastError () ;
        j->pre = 1 ;
        if (dn_e2e (j, first) != 0) *first = -1 ;
    }
    if (*first < 0 || dn_kernel (j, probe, t, &n) != 0) return 1 ;
    *ms = median (t, n) ;
    return 0 ;
}

// The probe-and-time driver: each configuration of j->op probed (the first
// that cuSPARSE accepts gives the one-time figure), then the fastest
// kernel's timed over b, kernel and end to end. On success j->c is that
// configuration and j->out holds its result.
static int dn_bench (dn_job *j, budget_t b, report_t *r)
{
    const dn_op *op = j->op ;
    double *t = times_new (b.reps > 5 ? b.reps : 5) ;
    #define PC_FREE_ALL do { dn_release (&j->d) ; free (t) ; } while (0)
    if (t == NULL) { PC_FREE_ALL ; return 1 ; }
    int best = -1, best_pre = 0 ;
    double best_ms = 0 ;
    char refused [512] = "" ;
    for (int c = 0 ; c < op->ncfg ; c++)
    {
        double first, ms ;
        j->c = c ;
        if (dn_probe (j, t, &first, &ms) != 0)
        {
            // cuSPARSE refused this layout/algorithm: try the next one
            size_t l = strlen (refused) ;
            snprintf (refused + l, sizeof (refused) - l, "%s%s: %.100s", l ? "; " : "", op->name (c), pc_err) ;
            (void) cudaGetLastError () ;
            continue ;
        }
        if (r->first_ms < 0) r->first_ms = first ;
        if (best < 0 || ms < best_ms) { best = c ; best_ms = ms ; best_pre = j->pre ; }
    }
    if (best < 0)
    {
        snprintf (pc_err, sizeof (pc_err), "no %s configuration accepted: %s", op->what, refused) ;
        PC_FREE_ALL ;
        return 1 ;
    }
    j->c = best ;
    j->pre = best_pre ;
    snprintf (r->config, sizeof (r->config), "%s (fastest of %d)", op->name (best), op->ncfg) ;
    PC_TRY (time_report (j, dn_kernel, dn_e2e, b, t, r)) ;
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

static const char *spmm_name (int c) { return spmm_cfgs [c].name ; }

// Upload A (FP32) and X in the layout of the configuration, make
// descriptors, size the buffer, preprocess.
static int spmm_setup (dn_job *j, int preprocess)
{
    const spmm_cfg *cfg = &spmm_cfgs [j->c] ;
    const float one = 1, zero = 0 ;
    const int64_t n = j->A->n, k = j->k ;
    const int64_t ld = (cfg->order == CUSPARSE_ORDER_ROW) ? k : n ;
    gpu_t *g = j->g ;
    dn_dev *d = &j->d ;
    size_t ws = 0 ;
    #define PC_FREE_ALL dn_destroy (d)
    PC_TRY (dn_upload (j, j->A->v32, cfg->order == CUSPARSE_ORDER_ROW ? j->Xrow : j->Xcol, NULL)) ;
    PC_TRY (dcsr_descr (&d->A, &d->a, n, j->A->nnz, CUDA_R_32F)) ;
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

static int spmm_call (dn_job *j)
{
    const float one = 1, zero = 0 ;
    dn_dev *d = &j->d ;
    return SP (cusparseSpMM (j->g->h, CUSPARSE_OPERATION_NON_TRANSPOSE,
        CUSPARSE_OPERATION_NON_TRANSPOSE, &one, d->A, d->mX, &zero, d->mY, CUDA_R_32F,
        spmm_cfgs [j->c].alg, d->work.p)) ;
}

static int spmm_download (dn_job *j)
{
    return CU (cudaMemcpyAsync (j->out, j->d.Y.p, (size_t) j->A->n * j->k * 4,
        cudaMemcpyDeviceToHost, j->g->stream)) ;
}

static const dn_op spmm_op =
    { "SpMM", N_SPMM_CFGS, spmm_name, spmm_setup, spmm_call, spmm_download } ;

// Xrow: row-major n-by-k; Xcol: the same, column-major. Y gets the result
// row-major.
static int bench_spmm (gpu_t *g, const hcsr *A, const float *Xrow, const float *Xcol,
    int k, float *Y, float *Ytmp, budget_t b, report_t *r)
{
    dn_job j ;
    memset (&j, 0, sizeof (j)) ;
    j.g = g ; j.op = &spmm_op ; j.A = A ; j.k = k ;
    j.Xrow = Xrow ; j.Xcol = Xcol ; j.out = Ytmp ;
    if (dn_bench (&j, b, r) != 0) return 1 ;
    // the result, row-major whatever the layout
    const bool row = spmm_cfgs [j.c].order == CUSPARSE_ORDER_ROW ;
    for (int64_t i = 0 ; i < A->n ; i++)
        for (int c = 0 ; c < k ; c++)
            Y [i * k + c] = row ? Ytmp [i * k + c] : Ytmp [c * A->n + i] ;
    r->nnz_out = A->n * k ;
    r->flops = 2.0 * (double) A->nnz * k ;
    return 0 ;
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

static const char *sddmm_name (int c) { return sddmm_cfgs [c].name ; }

static int sddmm_setup (dn_job *j, int preprocess)
{
    const sddmm_cfg *cfg = &sddmm_cfgs [j->c] ;
    const float one = 1, zero = 0 ;
    const int64_t n = j->A->n, k = j->k ;
    gpu_t *g = j->g ;
    dn_dev *d = &j->d ;
    size_t ws = 0 ;
    #define PC_FREE_ALL dn_destroy (d)
    // beta = 0, but 0*NaN is NaN: start C's values from zeros
    PC_TRY (dn_upload (j, NULL, cfg->x_colmajor ? j->Xcol : j->Xrow,
        cfg->y_colmajor ? j->Ycol : j->Yrow)) ;
    PC_TRY (dcsr_descr (&d->A, &d->a, n, j->A->nnz, CUDA_R_32F)) ;
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

static int sddmm_call (dn_job *j)
{
    const float one = 1, zero = 0 ;
    dn_dev *d = &j->d ;
    return SP (cusparseSDDMM (j->g->h, CUSPARSE_OPERATION_NON_TRANSPOSE, sddmm_cfgs [j->c].opB,
        &one, d->mX, d->mY, &zero, d->A, CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, d->work.p)) ;
}

static int sddmm_download (dn_job *j)
{
    return CU (cudaMemcpyAsync (j->out, j->d.a.v.p, (size_t) j->A->nnz * 4,
        cudaMemcpyDeviceToHost, j->g->stream)) ;
}

static const dn_op sddmm_op =
    { "SDDMM", N_SDDMM_CFGS, sddmm_name, sddmm_setup, sddmm_call, sddmm_download } ;

// Cv gets C's values in A's pattern.
static int bench_sddmm (gpu_t *g, const hcsr *A, const float *Xrow, const float *Xcol,
    const float *Yrow, const float *Ycol, int k, float *Cv, budget_t b, report_t *r)
{
    dn_job j ;
    memset (&j, 0, sizeof (j)) ;
    j.g = g ; j.op = &sddmm_op ; j.A = A ; j.k = k ;
    j.Xrow = Xrow ; j.Xcol = Xcol ; j.Yrow = Yrow ; j.Ycol = Ycol ; j.out = Cv ;
    if (dn_bench (&j, b, r) != 0) return 1 ;
    r->nnz_out = A->nnz ;
    r->flops = 2.0 * (double) A->nnz * k ;
    return 0 ;
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

// One workload as the operations see it.
typedef struct
{
    const char *name ;
    gpu_t *g ;
    GrB_Matrix A ;      // SuiteSparse's operand (the references)
    gg_csr csr ;        // its CSR
    hcsr H ;            // the same with 32-bit indices (cuSPARSE's)
    uint64_t seed ;
    budget_t budget ;
}
workload_t ;

// Prints r; 1 where the operation failed or its result is not right.
static int report_done (const workload_t *w, const report_t *r)
{
    report_print (w->name, r, w->g) ;
    return (r->failed || strcmp (r->check, "ok") != 0) ? 1 : 0 ;
}

static int op_spmv (workload_t *w)
{
    const hcsr *H = &w->H ;
    report_t r ;
    report_init (&r, "spmv") ;
    fprintf (stderr, "[cusparse_peer] %s spmv\n", w->name) ;
    double *x = (double *) malloc ((size_t) H->n * sizeof (double)) ;
    double *y = (double *) malloc ((size_t) H->n * sizeof (double)) ;
    if (x == NULL || y == NULL) { snprintf (pc_err, sizeof (pc_err), "out of host memory") ; fail_report (&r) ; }
    else
    {
        for (int64_t i = 0 ; i < H->n ; i++) x [i] = gg_dense_value (bu_seed_x (w->seed), (uint64_t) i) ;
        if (bench_spmv (w->g, H, x, y, w->budget, &r) != 0) fail_report (&r) ;
        else
        {
            GrB_Vector gx = NULL, gy = NULL ;
            bu_vec ref ;
            memset (&ref, 0, sizeof (ref)) ;
            GrB_Info i2 = bu_make_x (&gx, w->csr.nrows, w->seed) ;
            if (i2 == GrB_SUCCESS) i2 = bu_spmv (&gy, w->A, gx, NULL) ;
            if (i2 == GrB_SUCCESS) i2 = bu_vec_get (&ref, gy) ;
            if (i2 != GrB_SUCCESS) r.check = "no reference" ;
            else
            {
                double *rb = bu_row_bound (&w->csr, 0x1p-53) ;
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
    return report_done (w, &r) ;
}

// cuSPARSE's C (hC, r->nnz_out entries) against SuiteSparse's.
static void spgemm_check (workload_t *w, const hC_t *hC, report_t *r)
{
    const int64_t n = w->H.n, nc = r->nnz_out ;
    GrB_Matrix C = NULL ;
    gg_csr ref, got ;
    memset (&ref, 0, sizeof (ref)) ;
    memset (&got, 0, sizeof (got)) ;
    fprintf (stderr, "[cusparse_peer] %s spgemm: SuiteSparse reference\n", w->name) ;
    GrB_Info i2 = bu_spgemm (&C, w->A, NULL) ;
    if (i2 == GrB_SUCCESS) i2 = gg_csr_get (&ref, C) ;
    GrB_Matrix_free (&C) ;
    got.nrows = got.ncols = (GrB_Index) n ;
    got.nvals = (GrB_Index) nc ;
    got.p = (GrB_Index *) malloc ((size_t) (n + 1) * sizeof (GrB_Index)) ;
    got.j = (GrB_Index *) malloc ((size_t) (nc + 1) * sizeof (GrB_Index)) ;
    got.x = (double *) malloc ((size_t) (nc + 1) * sizeof (double)) ;
    if (i2 != GrB_SUCCESS || !got.p || !got.j || !got.x) r->check = "no reference" ;
    else
    {
        for (int64_t i = 0 ; i <= n ; i++) got.p [i] = (GrB_Index) hC->rp [i] ;
        for (int64_t q = 0 ; q < nc ; q++) { got.j [q] = (GrB_Index) hC->ci [q] ; got.x [q] = hC->v [q] ; }
        bool sane = got.p [0] == 0 && (int64_t) got.p [n] == nc ;
        if (sane && gg_csr_sort_rows (&got) != GrB_SUCCESS) r->check = "no reference" ;
        else if (!sane)
        {
            r->check = "wrong" ;
            snprintf (r->check_msg, sizeof (r->check_msg), "row pointers inconsistent with nnz(C)=%lld", (long long) nc) ;
        }
        else
        {
            double mx = 0 ;
            for (GrB_Index q = 0 ; q < ref.nvals ; q++) mx = fmax (mx, fabs (ref.x [q])) ;
            bu_tol tol = { 1e-10, 1e-12 * mx, NULL } ;
            bool ok = bu_compare_csr (r->check_msg, sizeof (r->check_msg), &ref, &got, tol) ;
            r->check = ok ? "ok" : "wrong" ;
            if (!ok && nc == 0 && ref.nvals > 0)
                snprintf (r->check_msg, sizeof (r->check_msg),
                    "cuSPARSE returned an empty matrix without an error (%llu entries expected)",
                    (unsigned long long) ref.nvals) ;
        }
    }
    gg_csr_free (&ref) ; gg_csr_free (&got) ;
}

static int op_spgemm (workload_t *w)
{
    report_t r ;
    report_init (&r, "spgemm") ;
    fprintf (stderr, "[cusparse_peer] %s spgemm\n", w->name) ;
    r.products = bu_products (&w->csr) ;
    r.flops = 2.0 * (double) r.products ;
    hC_t hC ;
    memset (&hC, 0, sizeof (hC)) ;
    hC.rp = (int32_t *) malloc ((size_t) (w->H.n + 1) * 4) ;
    if (hC.rp == NULL) { snprintf (pc_err, sizeof (pc_err), "out of host memory") ; fail_report (&r) ; }
    else if (bench_spgemm (w->g, &w->H, &hC, w->budget, &r) != 0) fail_report (&r) ;
    else spgemm_check (w, &hC, &r) ;    // SuiteSparse's C, and cuSPARSE's C in the same form
    free (hC.rp) ; free (hC.ci) ; free (hC.v) ;
    return report_done (w, &r) ;
}

// The dense operands of SpMM and SDDMM, in both layouts, and room for the
// results.
typedef struct
{
    bool mem ;                          // all allocated
    float *Xr, *Xc, *Yr, *Yc ;          // n-by-k, row- and column-major
    float *out, *tmp ;
    GrB_Matrix gX ;                     // SuiteSparse's X, made by the first to need it
}
dense_t ;

static int op_spmm (workload_t *w, dense_t *D, int k)
{
    report_t r ;
    report_init (&r, "spmm") ;
    fprintf (stderr, "[cusparse_peer] %s spmm\n", w->name) ;
    if (!D->mem) { snprintf (pc_err, sizeof (pc_err), "out of host memory") ; fail_report (&r) ; }
    else if (bench_spmm (w->g, &w->H, D->Xr, D->Xc, k, D->out, D->tmp, w->budget, &r) != 0) fail_report (&r) ;
    else
    {
        GrB_Matrix A32 = NULL, R = NULL ;
        gg_csr ref ;
        memset (&ref, 0, sizeof (ref)) ;
        GrB_Info i2 = bu_make_fp32 (&A32, w->A) ;
        if (i2 == GrB_SUCCESS) i2 = bu_make_dense (&D->gX, w->csr.nrows, k, bu_seed_X (w->seed)) ;
        if (i2 == GrB_SUCCESS) i2 = bu_spmm (&R, A32, D->gX, NULL) ;
        if (i2 == GrB_SUCCESS) i2 = gg_csr_get (&ref, R) ;
        double *rb = (i2 == GrB_SUCCESS) ? bu_row_bound (&w->csr, 0x1p-24) : NULL ;
        if (rb == NULL) r.check = "no reference" ;
        else
        {
            bu_tol tol = { 1e-5, 0, rb } ;
            r.check = bu_compare_csr_dense (r.check_msg, sizeof (r.check_msg), &ref, D->out, k, tol)
                ? "ok" : "wrong" ;
        }
        free (rb) ;
        gg_csr_free (&ref) ;
        GrB_Matrix_free (&R) ;
        GrB_Matrix_free (&A32) ;
    }
    return report_done (w, &r) ;
}

static int op_sddmm (workload_t *w, dense_t *D, int k)
{
    const hcsr *H = &w->H ;
    report_t r ;
    report_init (&r, "sddmm") ;
    fprintf (stderr, "[cusparse_peer] %s sddmm\n", w->name) ;
    if (!D->mem) { snprintf (pc_err, sizeof (pc_err), "out of host memory") ; fail_report (&r) ; }
    else if (bench_sddmm (w->g, H, D->Xr, D->Xc, D->Yr, D->Yc, k, D->out, w->budget, &r) != 0) fail_report (&r) ;
    else
    {
        GrB_Matrix gY = NULL, R = NULL ;
        gg_csr ref, got ;
        memset (&ref, 0, sizeof (ref)) ;
        got = w->csr ;      // A's pattern, cuSPARSE's values
        got.x = (double *) malloc ((size_t) (H->nnz + 1) * sizeof (double)) ;
        GrB_Info i2 = (got.x == NULL) ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
        if (i2 == GrB_SUCCESS && D->gX == NULL) i2 = bu_make_dense (&D->gX, w->csr.nrows, k, bu_seed_X (w->seed)) ;
        if (i2 == GrB_SUCCESS) i2 = bu_make_dense (&gY, w->csr.nrows, k, bu_seed_Y (w->seed)) ;
        if (i2 == GrB_SUCCESS) i2 = bu_sddmm (&R, w->A, D->gX, gY, NULL) ;
        if (i2 == GrB_SUCCESS) i2 = gg_csr_get (&ref, R) ;
        if (i2 != GrB_SUCCESS) r.check = "no reference" ;
        else
        {
            for (int64_t q = 0 ; q < H->nnz ; q++) got.x [q] = D->out [q] ;
            bu_tol tol = { 1e-5, 2.0 * k * 0x1p-24 * k, NULL } ;
            r.check = bu_compare_csr (r.check_msg, sizeof (r.check_msg), &ref, &got, tol)
                ? "ok" : "wrong" ;
        }
        free (got.x) ;
        gg_csr_free (&ref) ;
        GrB_Matrix_free (&R) ;
        GrB_Matrix_free (&gY) ;
    }
    return report_done (w, &r) ;
}

// SpMM and/or SDDMM on one set of dense operands.
static int op_dense (workload_t *w, bool spmm, bool sddmm)
{
    const int k = BU_DENSE_COLS ;
    const int64_t n = w->H.n ;
    size_t len = (size_t) n * k ;
    dense_t D ;
    memset (&D, 0, sizeof (D)) ;
    D.Xr = (float *) malloc (len * 4) ; D.Xc = (float *) malloc (len * 4) ;
    D.Yr = (float *) malloc (len * 4) ; D.Yc = (float *) malloc (len * 4) ;
    D.out = (float *) malloc ((len > (size_t) w->H.nnz ? len : (size_t) w->H.nnz) * 4 + 4) ;
    D.tmp = (float *) malloc (len * 4 + 4) ;
    D.mem = D.Xr && D.Xc && D.Yr && D.Yc && D.out && D.tmp ;
    if (D.mem)
    {
        for (int64_t i = 0 ; i < n ; i++)
            for (int c = 0 ; c < k ; c++)
            {
                size_t rowm = (size_t) i * k + c, colm = (size_t) c * n + i ;
                D.Xr [rowm] = D.Xc [colm] = (float) gg_dense_value (bu_seed_X (w->seed), rowm) ;
                D.Yr [rowm] = D.Yc [colm] = (float) gg_dense_value (bu_seed_Y (w->seed), rowm) ;
            }
    }
    int rc = 0 ;
    if (spmm) rc |= op_spmm (w, &D, k) ;
    if (sddmm) rc |= op_sddmm (w, &D, k) ;
    free (D.Xr) ; free (D.Xc) ; free (D.Yr) ; free (D.Yc) ; free (D.out) ; free (D.tmp) ;
    GrB_Matrix_free (&D.gX) ;
    return rc ;
}

//------------------------------------------------------------------------------
// the command line, the device, the workloads
//------------------------------------------------------------------------------

typedef struct
{
    const char *workloads [64] ;
    int nworkloads, device ;
    bool spgemm, spmv, spmm, sddmm ;
    budget_t budget ;
    uint64_t seed ;
}
opts_t ;

// 0, or 2 after the usage message.
static int parse_args (opts_t *o, int argc, char **argv)
{
    bool any = false ;
    memset (o, 0, sizeof (*o)) ;
    o->budget.reps = 10 ; o->budget.max_s = 10.0 ;
    o->seed = GG_DEFAULT_SEED ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (strcmp (argv [a], "--workload") == 0 && a + 1 < argc)
        {
            if (o->nworkloads >= 64) { usage () ; return 2 ; }
            o->workloads [o->nworkloads++] = argv [++a] ;
        }
        else if (strcmp (argv [a], "--ops") == 0 && a + 1 < argc)
        {
            const char *s = argv [++a] ;
            char tok [64] ;
            while (*s)
            {
                size_t l = strcspn (s, ",") ;
                snprintf (tok, sizeof (tok), "%.*s", (int) (l < 63 ? l : 63), s) ;
                if (strcmp (tok, "spgemm") == 0) o->spgemm = true ;
                else if (strcmp (tok, "spmv") == 0) o->spmv = true ;
                else if (strcmp (tok, "spmm") == 0) o->spmm = true ;
                else if (strcmp (tok, "sddmm") == 0) o->sddmm = true ;
                else if (tok [0]) { fprintf (stderr, "cusparse_peer: unknown op %s\n", tok) ; usage () ; return 2 ; }
                any = true ;
                s += l ;
                if (*s == ',') s++ ;
            }
        }
        else if (strcmp (argv [a], "--repeats") == 0 && a + 1 < argc) o->budget.reps = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--max-seconds") == 0 && a + 1 < argc) o->budget.max_s = atof (argv [++a]) ;
        else if (strcmp (argv [a], "--seed") == 0 && a + 1 < argc) o->seed = strtoull (argv [++a], NULL, 0) ;
        else if (strcmp (argv [a], "--device") == 0 && a + 1 < argc) o->device = atoi (argv [++a]) ;
        else { usage () ; return 2 ; }
    }
    if (o->nworkloads == 0 || o->budget.reps < 1) { usage () ; return 2 ; }
    if (!any) o->spgemm = o->spmv = o->spmm = o->sddmm = true ;
    return 0 ;
}

// The env line of a run without a usable device or handle.
static void env_error (const char *status, const char *error)
{
    printf ("{\"type\":\"env\",\"tool\":\"cusparse_peer\",\"status\":\"%s\",\"error\":", status) ;
    bu_json_str (stdout, error) ;
    printf ("}\n") ;
}

// The device, the handle, the stream and events, the copy bandwidth, and
// the env line; 0, or the exit status.
static int gpu_start (gpu_t *g, int device)
{
    // one-time costs: the context, then the cuSPARSE handle
    memset (g, 0, sizeof (*g)) ;
    int ndev = 0 ;
    double t0 = gg_now () ;
    if (CU (cudaGetDeviceCount (&ndev)) || ndev == 0)
    {
        env_error ("no gpu", ndev == 0 && !pc_err [0] ? "no CUDA device" : pc_err) ;
        return 3 ;
    }
    if (CU (cudaSetDevice (device)) || CU (cudaFree (0))) { env_error ("no gpu", pc_err) ; return 3 ; }
    double ctx_ms = 1e3 * (gg_now () - t0) ;
    t0 = gg_now () ;
    if (SP (cusparseCreate (&g->h))) { env_error ("error", pc_err) ; return 1 ; }
    double handle_ms = 1e3 * (gg_now () - t0) ;
    if (CU (cudaStreamCreateWithFlags (&g->stream, cudaStreamNonBlocking))
        || SP (cusparseSetStream (g->h, g->stream))
        || CU (cudaEventCreate (&g->e0)) || CU (cudaEventCreate (&g->e1)))
    {
        fprintf (stderr, "cusparse_peer: %s\n", pc_err) ;
        return 1 ;
    }
    cudaDeviceProp prop ;
    int drv = 0, rt = 0, spv = 0 ;
    if (CU (cudaGetDeviceProperties (&prop, device)) || CU (cudaDriverGetVersion (&drv))
        || CU (cudaRuntimeGetVersion (&rt)) || SP (cusparseGetVersion (g->h, &spv)))
    {
        fprintf (stderr, "cusparse_peer: %s\n", pc_err) ;
        return 1 ;
    }
    if (measure_copy_bw (g) != 0)
    {
        fprintf (stderr, "cusparse_peer: copy bandwidth: %s\n", pc_err) ;
        g->copy_bw = 0 ;
    }
    printf ("{\"type\":\"env\",\"tool\":\"cusparse_peer\",\"status\":\"ok\",\"gpu\":") ;
    bu_json_str (stdout, prop.name) ;
    printf (",\"sm_count\":%d,\"cc\":\"%d.%d\",\"global_mem\":%zu,\"driver\":%d,\"runtime\":%d,"
        "\"cusparse\":%d,\"ctx_init_ms\":%.3f,\"handle_ms\":%.3f,\"copy_bw_gbs\":%.1f}\n",
        prop.multiProcessorCount, prop.major, prop.minor, prop.totalGlobalMem, drv, rt, spv,
        ctx_ms, handle_ms, g->copy_bw / 1e9) ;
    fflush (stdout) ;
    fprintf (stderr, "[cusparse_peer] %s, context %.0f ms, handle %.0f ms, copy %.0f GB/s\n",
        prop.name, ctx_ms, handle_ms, g->copy_bw / 1e9) ;
    return 0 ;
}

// Generates workload w->name and prints its line; 0, or 1 (line says why).
static int workload_load (workload_t *w)
{
    char err [512] = "" ;
    fprintf (stderr, "[cusparse_peer] %s: generating\n", w->name) ;
    double t0 = gg_now () ;
    GrB_Info info = gg_load (&w->A, w->name, w->seed, GG_UNDIRECTED, err, sizeof (err)) ;
    double gen = gg_now () - t0 ;
    if (info == GrB_SUCCESS) info = gg_csr_get (&w->csr, w->A) ;
    if (info == GrB_SUCCESS && hcsr_from (&w->H, &w->csr) != 0)
    {
        snprintf (err, sizeof (err), "%s", pc_err) ;
        info = GrB_INVALID_VALUE ;
    }
    printf ("{\"type\":\"workload\",\"tool\":\"cusparse_peer\",\"workload\":") ;
    bu_json_str (stdout, w->name) ;
    if (info != GrB_SUCCESS)
    {
        printf (",\"status\":\"error\",\"error\":") ;
        bu_json_str (stdout, err [0] ? err : "GraphBLAS failed") ;
        printf ("}\n") ;
        fflush (stdout) ;
        return 1 ;
    }
    printf (",\"status\":\"ok\",\"n\":%llu,\"nvals\":%llu,\"gen_ms\":%.3f}\n",
        (unsigned long long) w->csr.nrows, (unsigned long long) w->csr.nvals, 1e3 * gen) ;
    fflush (stdout) ;
    return 0 ;
}

int main (int argc, char **argv)
{
    opts_t o ;
    int rc = parse_args (&o, argc, argv) ;
    if (rc != 0) return rc ;
    gpu_t g ;
    rc = gpu_start (&g, o.device) ;
    if (rc != 0) return rc ;

    GrB_Info info = GrB_init (GrB_NONBLOCKING) ;
    if (info != GrB_SUCCESS) { fprintf (stderr, "cusparse_peer: GrB_init failed (%d)\n", info) ; return 1 ; }

    for (int i = 0 ; i < o.nworkloads ; i++)
    {
        workload_t w ;
        memset (&w, 0, sizeof (w)) ;
        w.name = o.workloads [i] ; w.g = &g ; w.seed = o.seed ; w.budget = o.budget ;
        if (workload_load (&w) != 0) rc = 1 ;
        else
        {
            if (o.spmv) rc |= op_spmv (&w) ;
            if (o.spgemm) rc |= op_spgemm (&w) ;
            if (o.spmm || o.sddmm) rc |= op_dense (&w, o.spmm, o.sddmm) ;
        }
        hcsr_free (&w.H) ;
        gg_csr_free (&w.csr) ;
        GrB_Matrix_free (&w.A) ;
    }
    GrB_finalize () ;
    SPQ (cusparseDestroy (g.h)) ;
    CUQ (cudaEventDestroy (g.e0)) ;
    CUQ (cudaEventDestroy (g.e1)) ;
    CUQ (cudaStreamDestroy (g.stream)) ;
    return rc ;
}
