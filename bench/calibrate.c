// calibrate.c — measures the parameters of auto mode's cost model (issue 23,
// src/dispatch/cost_model.txt) on this machine and prints them as a table in
// that file's format, after the measurements they come from (markdown).
//
//   calibrate [--max-scale S] [--min-scale S] [--repeats N] [--max-host-ms M]
//             [--threads T] [--spmspv-only]
//
// For each GPU family a ladder of sizes (urand-S-8 and rmat-S-8, S from 5: a
// call of a few hundred products, which SuiteSparse runs on one thread) is timed on
// the host (mode host: SuiteSparse), on the GPU with the operands resident
// (warm) and with fresh copies uploaded by every call (cold):
//   spgemm        C = A*A            PLUS_TIMES_FP64
//   masked_saxpy  C<L,struct> = L*L  PLUS_PAIR_INT64
//   masked_dot    C<L,struct> = L*U' PLUS_PAIR_INT64
//   mxv           w = A*u            PLUS_TIMES_FP64, u dense
//   ewise         C = A+A'           GrB_Matrix_eWiseAdd, PLUS_FP64
// and fitted by least squares (relative errors) on the dispatch's work estimate:
//   host_fixed, host_rate   host time = host_fixed + work / host_rate
//   gpu_fixed, gpu_rate     warm GPU time = gpu_fixed + work / gpu_rate
//   h2d                     bytes the cold calls uploaded / (cold - warm)
// and, on urand-S-8 from S = 12 to max(max-scale, 20), a BFS level's calls
// with frontiers of 1, n/64 and n/8 vertices (SuiteSparse's time there grows
// with the vectors' length n as well as with the work):
//   spmspv        q<!v,struct> = q*A   ANY_PAIR_BOOL, v n/2 entries: host =
//                 host_fixed + work / host_rate + n * host_row; GPU (q, v
//                 device newest) = gpu_fixed + work / gpu_rate
//   ewise         v<q,struct> = 7      GrB_Vector_assign_INT64: its host_row
// and once: cuda_start (the first grbcuda_gpu_available, which starts CUDA),
// jit_compile (the first GPU call of each family, whose kernels compile into
// an empty cache, less its warm time; median). d2h, margin and wait_factor
// are printed as the defaults (not measured here).
//
// Linked with grbcuda (first) and GraphBLAS, so the GraphBLAS calls are
// grbcuda's and the grbcuda_* controls are called directly. Without a usable
// GPU only the host side is measured and printed.
#include "graphgen.h"
#include "grbcuda.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum { F_SPGEMM = 0, F_MASKED_SAXPY, F_MASKED_DOT, F_MXV, F_EWISE, NFAM } fam_id ;
static const char *fam_name [NFAM] = { "spgemm", "masked_saxpy", "masked_dot", "mxv", "ewise" } ;

// one call of a family: C<M> = op(A) (x) op(B), C of ctype, nrows x ncols
// (a vector of nrows for mxv)
typedef struct
{
    fam_id fam ;
    GrB_Matrix M, A, B ;
    GrB_Vector u ;
    GrB_Semiring semiring ;
    GrB_Descriptor desc ;
    GrB_Type ctype ;
    GrB_Index nrows, ncols ;
    double work ;
}
call_args ;

typedef struct
{
    fam_id fam ;
    char graph [32] ;
    double work ;
    double host, warm, cold, first ;    // medians, seconds (< 0: not measured)
    double up_bytes ;                   // bytes one cold call uploaded
    bool gpu_ok ;                       // every GPU-mode call ran on the GPU
}
point ;

#define MAXPTS 256
static point pts [MAXPTS] ;
static int npts = 0 ;
static int max_reps = 5 ;
static bool have_gpu = false ;

#define TRY(x) do { GrB_Info i_ = (x) ; if (i_ != GrB_SUCCESS) { \
    fprintf (stderr, "calibrate: %s failed (%d) at %s:%d\n", #x, (int) i_, \
    __FILE__, __LINE__) ; return i_ ; } } while (0)

static const char *op_of (fam_id f)
{
    return f == F_MXV ? "GrB_mxv" : f == F_EWISE ? "GrB_Matrix_eWiseAdd_BinaryOp" : "GrB_mxm" ;
}

static grbcuda_op_stats stats_now (fam_id f)
{
    grbcuda_op_stats s ;
    memset (&s, 0, sizeof (s)) ;
    grbcuda_stats_get (op_of (f), &s) ;
    return s ;
}

// one call into a fresh result, timed end to end (the call and the wait
// that finishes it)
static GrB_Info one_call (double *t, const call_args *a, GrB_Matrix M, GrB_Matrix A, GrB_Matrix B)
{
    GrB_Matrix C = NULL ;
    GrB_Vector w = NULL ;
    if (a->fam == F_MXV) TRY (GrB_Vector_new (&w, a->ctype, a->nrows)) ;
    else TRY (GrB_Matrix_new (&C, a->ctype, a->nrows, a->ncols)) ;
    double t0 = gg_now () ;
    GrB_Info info ;
    if (a->fam == F_MXV) info = GrB_mxv (w, NULL, NULL, a->semiring, A, a->u, NULL) ;
    else if (a->fam == F_EWISE) info = GrB_Matrix_eWiseAdd_BinaryOp (C, NULL, NULL, GrB_PLUS_FP64, A, B, a->desc) ;
    else info = GrB_mxm (C, M, NULL, a->semiring, A, B, a->desc) ;
    if (info == GrB_SUCCESS) info = (w != NULL) ? GrB_Vector_wait (w, GrB_MATERIALIZE) : GrB_Matrix_wait (C, GrB_MATERIALIZE) ;
    *t = gg_now () - t0 ;
    GrB_Matrix_free (&C) ;
    GrB_Vector_free (&w) ;
    return info ;
}

static GrB_Info time_warm (double *med, const call_args *a, int reps)
{
    double t [64] ;
    for (int r = 0 ; r < reps ; r++) TRY (one_call (&t [r], a, a->M, a->A, a->B)) ;
    *med = gg_median (t, reps) ;
    return GrB_SUCCESS ;
}

static GrB_Info dup_waited (GrB_Matrix *D, GrB_Matrix X)
{
    if (X == NULL) return GrB_SUCCESS ;
    TRY (GrB_Matrix_dup (D, X)) ;
    return GrB_Matrix_wait (*D, GrB_MATERIALIZE) ;
}

// each call on fresh copies of the matrices (dup'ed, untimed): every call
// uploads them; the same object stays the same object
static GrB_Info time_cold (double *med, const call_args *a, int reps)
{
    double t [64] ;
    for (int r = 0 ; r < reps ; r++)
    {
        GrB_Matrix A = NULL, B = NULL, M = NULL ;
        GrB_Info info = dup_waited (&A, a->A) ;
        if (info == GrB_SUCCESS) info = (a->B == a->A) ? (B = A, GrB_SUCCESS) : dup_waited (&B, a->B) ;
        if (info == GrB_SUCCESS) info = (a->M == a->A) ? (M = A, GrB_SUCCESS) : dup_waited (&M, a->M) ;
        if (info == GrB_SUCCESS) info = one_call (&t [r], a, M, A, B) ;
        if (M != A) GrB_Matrix_free (&M) ;
        if (B != A) GrB_Matrix_free (&B) ;
        GrB_Matrix_free (&A) ;
        TRY (info) ;
    }
    *med = gg_median (t, reps) ;
    return GrB_SUCCESS ;
}

// host, then GPU: first call (compiles), warm, cold
static GrB_Info measure (point *p, const call_args *a)
{
    double t ;
    p->warm = p->cold = p->first = -1 ;
    TRY (grbcuda_set_mode (GRBCUDA_MODE_HOST)) ;
    TRY (one_call (&t, a, a->M, a->A, a->B)) ;
    int reps = (t > 0.2 && max_reps > 3) ? 3 : max_reps ;
    TRY (time_warm (&p->host, a, reps)) ;
    if (!have_gpu) return GrB_SUCCESS ;
    TRY (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    grbcuda_op_stats s0 = stats_now (a->fam) ;
    GrB_Info info = one_call (&p->first, a, a->M, a->A, a->B) ;
    if (info == GrB_SUCCESS) info = time_warm (&p->warm, a, reps) ;
    grbcuda_op_stats s1 = stats_now (a->fam) ;
    if (info == GrB_SUCCESS) info = time_cold (&p->cold, a, reps) ;
    grbcuda_op_stats s2 = stats_now (a->fam) ;
    grbcuda_set_mode (GRBCUDA_MODE_HOST) ;
    p->gpu_ok = info == GrB_SUCCESS && s2.calls - s0.calls == s2.gpu - s0.gpu ;
    p->up_bytes = (double) (s2.gpu_bytes_uploaded - s1.gpu_bytes_uploaded) / reps ;
    return info ;
}

//------------------------------------------------------------------------------
// the fits
//------------------------------------------------------------------------------

// least squares t = fixed + work / rate over the family's points (warm or
// host times), each weighted by 1/t^2 (relative errors: the small calls,
// where the choice is close, count as much as the large); false with fewer
// than two usable points
static bool fit (fam_id f, bool gpu, double *fixed, double *rate)
{
    double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0 ;
    for (int i = 0 ; i < npts ; i++)
    {
        const point *p = &pts [i] ;
        double y = gpu ? p->warm : p->host ;
        if (p->fam != f || y <= 0 || (gpu && !p->gpu_ok)) continue ;
        double o = 1 / (y * y) ;
        n += o ; sx += o * p->work ; sy += o * y ; sxx += o * p->work * p->work ; sxy += o * p->work * y ;
    }
    double d = n * sxx - sx * sx ;
    if (n == 0 || d <= 0) return false ;
    double slope = (n * sxy - sx * sy) / d ;
    double icept = (sy - slope * sx) / n ;
    *rate = slope > 0 ? 1 / slope : 1e15 ;
    *fixed = icept > 1e-6 ? icept : 1e-6 ;
    return true ;
}

// median over the points of bytes uploaded / (cold - warm)
static double fit_h2d (void)
{
    double r [MAXPTS] ;
    int n = 0 ;
    for (int i = 0 ; i < npts ; i++)
    {
        const point *p = &pts [i] ;
        if (p->gpu_ok && p->up_bytes > 1e6 && p->cold > p->warm) r [n++] = p->up_bytes / (p->cold - p->warm) ;
    }
    return n > 0 ? gg_median (r, n) : -1 ;
}

// median over the families of (first call - warm) at their first point
static double fit_jit (void)
{
    double r [NFAM] ;
    int n = 0 ;
    for (int f = 0 ; f < NFAM ; f++)
    {
        for (int i = 0 ; i < npts ; i++)
        {
            if (pts [i].fam != (fam_id) f || !pts [i].gpu_ok) continue ;
            if (pts [i].first > pts [i].warm) r [n++] = pts [i].first - pts [i].warm ;
            break ;
        }
    }
    return n > 0 ? gg_median (r, n) : -1 ;
}

//------------------------------------------------------------------------------
// the ladder
//------------------------------------------------------------------------------

static double nv (GrB_Matrix X)
{
    GrB_Index n = 0 ;
    GrB_Matrix_nvals (&n, X) ;
    return (double) n ;
}

// the family's call on graph A (L, U: its strict triangles; u dense)
static call_args args_of (fam_id f, GrB_Matrix A, GrB_Matrix L, GrB_Matrix U, GrB_Vector u, GrB_Index n)
{
    call_args a = { .fam = f, .nrows = n, .ncols = n } ;
    const double nn = n > 0 ? (double) n : 1 ;
    switch (f)
    {
        case F_SPGEMM: a.A = a.B = A ; a.semiring = GrB_PLUS_TIMES_SEMIRING_FP64 ;
            a.ctype = GrB_FP64 ; a.work = nv (A) * nv (A) / nn ; break ;
        case F_MASKED_SAXPY: case F_MASKED_DOT:
            a.M = a.A = L ; a.B = (f == F_MASKED_SAXPY) ? L : U ;
            a.semiring = GxB_PLUS_PAIR_INT64 ; a.ctype = GrB_INT64 ;
            a.desc = (f == F_MASKED_SAXPY) ? GrB_DESC_S : GrB_DESC_ST1 ;
            a.work = nv (L) * nv (a.B) / nn ; break ;
        case F_MXV: a.A = A ; a.u = u ; a.semiring = GrB_PLUS_TIMES_SEMIRING_FP64 ;
            a.ctype = GrB_FP64 ; a.work = nv (A) ; break ;
        default: a.A = A ; a.B = L ; a.ctype = GrB_FP64 ; a.work = nv (A) + nv (L) ; break ;
    }
    return a ;
}

static GrB_Info graph_of (int kind, int s, GrB_Matrix *A, GrB_Matrix *L, GrB_Matrix *U,
    GrB_Vector *u, GrB_Index *n)
{
    TRY (kind == 0 ? gg_urand (A, s, 8, GG_DEFAULT_SEED) : gg_rmat (A, s, 8, GG_DEFAULT_SEED)) ;
    TRY (GrB_Matrix_nrows (n, *A)) ;
    TRY (GrB_Matrix_new (L, GrB_FP64, *n, *n)) ;
    TRY (GrB_Matrix_new (U, GrB_FP64, *n, *n)) ;
    TRY (GrB_Matrix_select_INT64 (*L, NULL, NULL, GrB_TRIL, *A, -1, NULL)) ;
    TRY (GrB_Matrix_select_INT64 (*U, NULL, NULL, GrB_TRIU, *A, 1, NULL)) ;
    TRY (GrB_Vector_new (u, GrB_FP64, *n)) ;
    TRY (GrB_Vector_assign_FP64 (*u, NULL, NULL, 1.0, GrB_ALL, *n, NULL)) ;
    TRY (GrB_Matrix_wait (*L, GrB_MATERIALIZE)) ;
    return GrB_Matrix_wait (*U, GrB_MATERIALIZE) ;
}

static void ladders (int min_scale, int max_scale, double max_host)
{
    const char *kinds [2] = { "urand", "rmat" } ;
    for (int kind = 0 ; kind < 2 ; kind++)
    {
        bool stopped [NFAM] = { false } ;
        for (int s = min_scale ; s <= max_scale ; s++)
        {
            GrB_Matrix A = NULL, L = NULL, U = NULL ;
            GrB_Vector u = NULL ;
            GrB_Index n = 0 ;
            if (graph_of (kind, s, &A, &L, &U, &u, &n) != GrB_SUCCESS) break ;
            for (int f = 0 ; f < NFAM && npts < MAXPTS ; f++)
            {
                if (stopped [f]) continue ;
                call_args a = args_of ((fam_id) f, A, L, U, u, n) ;
                point *p = &pts [npts] ;
                memset (p, 0, sizeof (*p)) ;
                p->fam = (fam_id) f ;
                p->work = a.work ;
                snprintf (p->graph, sizeof (p->graph), "%s-%d-8", kinds [kind], s) ;
                if (measure (p, &a) != GrB_SUCCESS) { stopped [f] = true ; continue ; }
                npts++ ;
                fprintf (stderr, "calibrate: %-12s %-11s work %9.3g host %9.3f ms gpu first %9.3f warm %9.3f cold %9.3f ms%s\n",
                    fam_name [f], p->graph, p->work, 1e3 * p->host, 1e3 * p->first, 1e3 * p->warm,
                    1e3 * p->cold, p->gpu_ok || !have_gpu ? "" : " (not all on the GPU)") ;
                if (p->host > max_host) stopped [f] = true ;
            }
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&L) ; GrB_Matrix_free (&U) ; GrB_Vector_free (&u) ;
        }
    }
}

// milliseconds, or "—" for a time not measured
static const char *ms (char *buf, double s)
{
    if (s < 0) snprintf (buf, 32, "—") ; else snprintf (buf, 32, "%.3f", 1e3 * s) ;
    return buf ;
}

//------------------------------------------------------------------------------
// the spmspv ladder: a BFS level's calls, frontier of several sizes
//------------------------------------------------------------------------------

// SuiteSparse's time for a masked product with a sparse u grows with the
// vectors' length n as well as with the work (the mask, a bitmap result):
// host = host_fixed + work / host_rate + n * host_row. The GPU's runs with
// the vectors device newest (a BFS's, made so by a GPU assign) and A
// resident, result left there: gpu = gpu_fixed + work / gpu_rate.
#define MAXSP 64
typedef struct { double n, work, host, gpu, assign_host ; } sp_point ;
static sp_point sp [MAXSP] ;
static int nsp = 0 ;

// frontier q (every stride-th vertex from 1), visited v (every other one)
static GrB_Info sp_vectors (GrB_Index n, GrB_Index stride, GrB_Vector *q, GrB_Vector *v)
{
    TRY (GrB_Vector_new (q, GrB_BOOL, n)) ;
    TRY (GrB_Vector_new (v, GrB_INT64, n)) ;
    for (GrB_Index i = 0 ; i < n ; i += 2) TRY (GrB_Vector_setElement_INT64 (*v, 1, i)) ;
    for (GrB_Index i = 1 ; i < n ; i += stride) TRY (GrB_Vector_setElement_BOOL (*q, true, i)) ;
    TRY (GrB_Vector_wait (*q, GrB_MATERIALIZE)) ;
    return GrB_Vector_wait (*v, GrB_MATERIALIZE) ;
}

// the level's vxm (and, on the host, its assign) timed: medians
static GrB_Info sp_time (GrB_Matrix A, GrB_Vector q, GrB_Vector v, GrB_Index n, bool gpu,
    double *tv, double *ta)
{
    double t1 [16], t2 [16] ;
    const int reps = max_reps < 16 ? max_reps : 16 ;
    GrB_Vector w = NULL ;
    GrB_Info info = GrB_SUCCESS ;
    for (int r = 0 ; info == GrB_SUCCESS && r <= reps ; r++)
    {
        GrB_Vector_free (&w) ;
        info = GrB_Vector_new (&w, GrB_BOOL, n) ;
        double t0 = gg_now () ;
        if (info == GrB_SUCCESS) info = GrB_vxm (w, v, NULL, GxB_ANY_PAIR_BOOL, q, A, GrB_DESC_RSC) ;
        GrB_Index nw = 0 ;
        // (the BFS reads the count; on the GPU it stays there)
        if (info == GrB_SUCCESS) info = GrB_Vector_nvals (&nw, w) ;
        if (r > 0) t1 [r - 1] = gg_now () - t0 ;
        if (gpu) continue ;
        GrB_Vector v2 = NULL ;
        if (info == GrB_SUCCESS) info = GrB_Vector_dup (&v2, v) ;
        t0 = gg_now () ;
        if (info == GrB_SUCCESS) info = GrB_Vector_assign_INT64 (v2, q, NULL, 7, GrB_ALL, n, GrB_DESC_S) ;
        if (info == GrB_SUCCESS) info = GrB_Vector_wait (v2, GrB_MATERIALIZE) ;
        if (r > 0) t2 [r - 1] = gg_now () - t0 ;
        GrB_Vector_free (&v2) ;
    }
    GrB_Vector_free (&w) ;
    if (info != GrB_SUCCESS) return info ;
    *tv = gg_median (t1, reps) ;
    if (!gpu) *ta = gg_median (t2, reps) ;
    return GrB_SUCCESS ;
}

// q and v device newest: copied onto the device by a GPU assign
static GrB_Info sp_to_device (GrB_Vector *x, GrB_Type t, GrB_Index n)
{
    GrB_Vector y = NULL ;
    TRY (GrB_Vector_new (&y, t, n)) ;
    GrB_Info info = GrB_Vector_assign (y, NULL, NULL, *x, GrB_ALL, n, NULL) ;
    GrB_Vector_free (x) ;
    *x = y ;
    return info ;
}

static void sp_ladder (int max_scale)
{
    const int top = max_scale > 20 ? max_scale : 20 ;
    for (int s = 12 ; s <= top && nsp + 3 <= MAXSP ; s += 2)
    {
        GrB_Matrix A = NULL ;
        GrB_Index n = 0 ;
        if (gg_urand (&A, s, 8, GG_DEFAULT_SEED) != GrB_SUCCESS) break ;
        GrB_Info info = GrB_Matrix_nrows (&n, A) ;
        const double deg = nv (A) / (double) n ;
        const GrB_Index strides [3] = { n, 64, 8 } ;
        for (int f = 0 ; info == GrB_SUCCESS && f < 3 ; f++)
        {
            GrB_Vector q = NULL, v = NULL ;
            sp_point *p = &sp [nsp] ;
            p->n = (double) n ;
            p->gpu = -1 ;
            info = sp_vectors (n, strides [f], &q, &v) ;
            GrB_Index nq = 0 ;
            if (info == GrB_SUCCESS) info = GrB_Vector_nvals (&nq, q) ;
            p->work = (double) nq * deg ;
            if (info == GrB_SUCCESS) info = grbcuda_set_mode (GRBCUDA_MODE_HOST) ;
            if (info == GrB_SUCCESS) info = sp_time (A, q, v, n, false, &p->host, &p->assign_host) ;
            if (info == GrB_SUCCESS && have_gpu)
            {
                info = grbcuda_set_mode (GRBCUDA_MODE_GPU) ;
                if (info == GrB_SUCCESS) info = sp_to_device (&q, GrB_BOOL, n) ;
                if (info == GrB_SUCCESS) info = sp_to_device (&v, GrB_INT64, n) ;
                if (info == GrB_SUCCESS) info = sp_time (A, q, v, n, true, &p->gpu, NULL) ;
                grbcuda_set_mode (GRBCUDA_MODE_HOST) ;
            }
            GrB_Vector_free (&q) ; GrB_Vector_free (&v) ;
            if (info != GrB_SUCCESS) break ;
            char g [32] ;
            fprintf (stderr, "calibrate: spmspv n %9.0f work %9.3g: host vxm %8.3f ms, assign %8.3f ms; gpu vxm %s ms\n",
                p->n, p->work, 1e3 * p->host, 1e3 * p->assign_host, ms (g, p->gpu)) ;
            nsp++ ;
        }
        GrB_Matrix_free (&A) ;
        if (info != GrB_SUCCESS) break ;
    }
}

// weighted least squares (relative errors) of t = c0 + c1 x1 + c2 x2 over
// the ladder (x2 NULL: two terms); false if singular or too few points
static bool sp_fit (const double *t, const double *x1, const double *x2, size_t stride,
    double c [3])
{
    double S [3][4] = { { 0 } } ;
    const int k = x2 != NULL ? 3 : 2 ;
    int used = 0 ;
    for (int i = 0 ; i < nsp ; i++)
    {
        const double ti = *(const double *) ((const char *) t + i * stride) ;
        if (!(ti > 0)) continue ;
        const double x [3] = { 1, *(const double *) ((const char *) x1 + i * stride),
            x2 != NULL ? *(const double *) ((const char *) x2 + i * stride) : 0 } ;
        const double w = 1 / (ti * ti) ;
        for (int r = 0 ; r < k ; r++)
        {
            for (int q = 0 ; q < k ; q++) S [r][q] += w * x [r] * x [q] ;
            S [r][3] += w * x [r] * ti ;
        }
        used++ ;
    }
    if (used < k) return false ;
    // Gaussian elimination
    for (int r = 0 ; r < k ; r++)
    {
        if (fabs (S [r][r]) < 1e-300) return false ;
        for (int q = r + 1 ; q < k ; q++)
        {
            const double f = S [q][r] / S [r][r] ;
            for (int j = r ; j < 4 ; j++) S [q][j] -= f * S [r][j] ;
        }
    }
    for (int r = k - 1 ; r >= 0 ; r--)
    {
        double v = S [r][3] ;
        for (int j = r + 1 ; j < k ; j++) v -= S [r][j] * c [j] ;
        c [r] = v / S [r][r] ;
    }
    if (k == 2) c [2] = 0 ;
    return true ;
}

//------------------------------------------------------------------------------
// the report
//------------------------------------------------------------------------------


static void print_points (void)
{
    printf ("| family | graph | work | host ms | GPU first ms | GPU warm ms | GPU cold ms | MB up (cold) | all on GPU |\n") ;
    printf ("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n") ;
    for (int i = 0 ; i < npts ; i++)
    {
        const point *p = &pts [i] ;
        char h [32], f [32], w [32], c [32] ;
        printf ("| %s | %s | %.3g | %s | %s | %s | %s | %.1f | %s |\n", fam_name [p->fam],
            p->graph, p->work, ms (h, p->host), ms (f, p->first), ms (w, p->warm), ms (c, p->cold),
            p->up_bytes / 1e6, have_gpu ? (p->gpu_ok ? "yes" : "no") : "—") ;
    }
    printf ("\n") ;
}

static void print_table (const char *gpu_name, double cuda_start)
{
    double h2d = fit_h2d (), jit = fit_jit () ;
    printf ("```\n# bench/calibrate on %s: a table for src/dispatch/cost_model.txt\n", gpu_name) ;
    if (have_gpu) printf ("device %s\n", gpu_name) ;
    else printf ("# no usable GPU: the host's rates only (for a device table)\n") ;
    if (h2d > 0) printf ("h2d %.3g\n", h2d) ; else printf ("# h2d: not measured\n") ;
    if (cuda_start > 0) printf ("cuda_start %.3g\n", cuda_start) ;
    if (jit > 0) printf ("jit_compile %.3g\n", jit) ; else printf ("# jit_compile: not measured\n") ;
    for (int f = 0 ; f < NFAM ; f++)
    {
        double hf, hr, gf, gr ;
        bool h = fit ((fam_id) f, false, &hf, &hr), g = have_gpu && fit ((fam_id) f, true, &gf, &gr) ;
        // the assign's O(n) part, measured on the spmspv ladder
        double ca [3] ;
        const double row = (f == F_EWISE && sp_fit (&sp [0].assign_host, &sp [0].n, NULL,
            sizeof (sp_point), ca)) ? ca [1] : -1 ;
        char rb [48] = "" ;
        if (row > 0) snprintf (rb, sizeof (rb), " host_row=%.3g", row) ;
        if (h && g) printf ("family %-12s host_fixed=%.3g host_rate=%.3g gpu_fixed=%.3g gpu_rate=%.3g%s\n",
            fam_name [f], hf, hr, gf, gr, rb) ;
        else if (h) printf ("family %-12s host_fixed=%.3g host_rate=%.3g%s\n", fam_name [f], hf, hr, rb) ;
        else printf ("# family %s: too few points\n", fam_name [f]) ;
    }
    double ch [3], cg [3] ;
    const bool h = sp_fit (&sp [0].host, &sp [0].work, &sp [0].n, sizeof (sp_point), ch)
        && ch [0] > 0 && ch [1] > 0 && ch [2] > 0 ;
    const bool g = have_gpu && sp_fit (&sp [0].gpu, &sp [0].work, NULL, sizeof (sp_point), cg)
        && cg [0] > 0 && cg [1] > 0 ;
    if (h && g) printf ("family spmspv       host_fixed=%.3g host_rate=%.3g host_row=%.3g gpu_fixed=%.3g gpu_rate=%.3g\n",
        ch [0], 1 / ch [1], ch [2], cg [0], 1 / cg [1]) ;
    else if (h) printf ("family spmspv       host_fixed=%.3g host_rate=%.3g host_row=%.3g\n", ch [0], 1 / ch [1], ch [2]) ;
    else printf ("# family spmspv: no fit with positive terms\n") ;
    printf ("```\n") ;
}

static void usage (void)
{
    fprintf (stderr, "usage: calibrate [--max-scale S] [--min-scale S] "
        "[--repeats N] [--max-host-ms M] [--threads T] [--spmspv-only]\n") ;
}

int main (int argc, char **argv)
{
    int max_scale = 18, min_scale = 5, threads = 0 ;
    bool spmspv_only = false ;
    double max_host = 0.5 ;
    for (int a = 1 ; a < argc ; a += 2)
    {
        if (strcmp (argv [a], "--spmspv-only") == 0) { spmspv_only = true ; a-- ; continue ; }
        const char *v = (a + 1 < argc) ? argv [a + 1] : NULL ;
        if (v == NULL) { usage () ; return 2 ; }
        if (strcmp (argv [a], "--max-scale") == 0) max_scale = atoi (v) ;
        else if (strcmp (argv [a], "--min-scale") == 0) min_scale = atoi (v) ;
        else if (strcmp (argv [a], "--repeats") == 0) max_reps = atoi (v) ;
        else if (strcmp (argv [a], "--max-host-ms") == 0) max_host = 1e-3 * atof (v) ;
        else if (strcmp (argv [a], "--threads") == 0) threads = atoi (v) ;
        else { usage () ; return 2 ; }
    }
    if (min_scale < 4 || max_scale > 26 || min_scale > max_scale || max_reps < 1 || max_reps > 64
        || !(max_host > 0)) { usage () ; return 2 ; }
    // an empty kernel cache, so that each family's first GPU call compiles
    char cache [64] = "/tmp/grbcuda-calibrate-XXXXXX" ;
    if (mkdtemp (cache) != NULL) setenv ("GRBCUDA_CACHE_DIR", cache, 1) ;
    if (gg_init (threads) != GrB_SUCCESS) { fprintf (stderr, "calibrate: GrB_init failed\n") ; return 1 ; }
    int32_t gb_threads = 0 ;
    GxB_Global_Option_get_INT32 (GxB_NTHREADS, &gb_threads) ;
    double t0 = gg_now () ;
    have_gpu = grbcuda_gpu_available () != 0 ;
    double cuda_start = have_gpu ? gg_now () - t0 : -1 ;
    char gpu_name [256] = "none" ;
    int sms = 0, ccmaj = 0, ccmin = 0 ;
    size_t gmem = 0 ;
    if (have_gpu) grbcuda_gpu_info (gpu_name, &sms, &ccmaj, &ccmin, &gmem) ;
    if (!spmspv_only) ladders (min_scale, max_scale, max_host) ;
    sp_ladder (max_scale) ;
    grbcuda_set_mode (GRBCUDA_MODE_AUTO) ;
    printf ("- grbcuda %s; GPU: %s; SuiteSparse threads: %d; CUDA start %.1f ms; kernel cache %s (empty at the start)\n",
        grbcuda_version (), gpu_name, (int) gb_threads, 1e3 * cuda_start, cache) ;
    printf ("- medians of up to %d repeats after the first call; warm: operands resident; "
        "cold: fresh copies uploaded by every call; first: the first GPU call (JIT compilation)\n\n", max_reps) ;
    print_points () ;
    if (nsp > 0)
    {
        printf ("| n (urand-S-8) | work | host vxm q<!v,struct> = q*A ms | GPU ms (q, v device newest) | host assign v<q,struct> = 7 ms |\n| ---: | ---: | ---: | ---: | ---: |\n") ;
        char g [32] ;
        for (int i = 0 ; i < nsp ; i++)
            printf ("| %.0f | %.3g | %.3f | %s | %.3f |\n", sp [i].n, sp [i].work, 1e3 * sp [i].host,
                ms (g, sp [i].gpu), 1e3 * sp [i].assign_host) ;
        printf ("\n") ;
    }
    print_table (gpu_name, cuda_start) ;
    GrB_finalize () ;
    char cmd [128] ;
    snprintf (cmd, sizeof (cmd), "rm -rf '%s'", cache) ;
    if (system (cmd) != 0) fprintf (stderr, "calibrate: could not remove %s\n", cache) ;
    return 0 ;
}
