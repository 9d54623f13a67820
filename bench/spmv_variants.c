// spmv_variants.c — the SpMV variants of the GrB_mxv family (src/mxv/spmv.c)
// side by side on the same matrix in one process: y = A*x PLUS_TIMES_FP64
// with each variant forced in turn through GRBCUDA_SPMV (read at every call)
// and the automatic choice; grbcuda's kernel time (CUDA events, from
// grbcuda_stats: the median over the repeats) and the end-to-end time of the
// call, each result checked against SuiteSparse's (the same call in mode
// host). The cuSPARSE peer (cusparse_peer --ops spmv) is run beside it on
// the same workloads. Output: one JSON object per line on stdout.
//
//   spmv_variants [--repeats N] [--seed S] [--variants V1,V2,...] W1 [W2 ...]
//
// --variants replaces the list of GRBCUDA_SPMV settings (e.g.
// "stream+split+lrow=4096,sell+split"; src/mxv/spmv.c reads them).
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include "bench_clock.h"
#include "bench_variants.h"
#include "graphgen.h"
#include "grbcuda.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const default_variants [] =
    { "auto", "pull", "vector+nosplit", "vector+split", "stream+nosplit", "stream+split",
      "adaptive+nosplit", "adaptive+split", "sell+nosplit", "sell+split" } ;
#define NDEFAULT ((int) (sizeof (default_variants) / sizeof (default_variants [0])))
#define MAXV 64
static const char *variants [MAXV] ;
static int nvariants ;

// y = A*x (the previous y freed first)
typedef struct { GrB_Matrix A ; GrB_Vector x, *y ; } spmv_call ;

static GrB_Info spmv_once (void *ctx)
{
    spmv_call *c = ctx ;
    GrB_Vector_free (c->y) ;
    return bu_spmv (c->y, c->A, c->x, NULL) ;
}

// reps calls of y = A*x with GRBCUDA_SPMV = v after two warm-up calls; the
// medians of kernel and end-to-end time (ms), the last result in *y
static GrB_Info run_variant (const char *v, GrB_Matrix A, GrB_Vector x, int reps,
    double *kmed, double *emed, GrB_Vector *y)
{
    setenv ("GRBCUDA_SPMV", v, 1) ;
    spmv_call c = { A, x, y } ;
    return bv_time ("GrB_mxv", 2, reps, spmv_once, &c, kmed, emed) ;
}

static int workload (const char *name, uint64_t seed, int reps)
{
    GrB_Matrix A = NULL ;
    GrB_Vector x = NULL, yref = NULL, y = NULL ;
    GrB_Index n = 0, nnz = 0 ;
    char err [256] = "" ;
    if (gg_load (&A, name, seed, GG_UNDIRECTED, err, sizeof (err)) != GrB_SUCCESS)
    {
        fprintf (stderr, "spmv_variants: %s: %s\n", name, err) ;
        return 1 ;
    }
    GrB_Matrix_nrows (&n, A) ;
    GrB_Matrix_nvals (&nnz, A) ;
    bu_vec ref, got ;
    memset (&ref, 0, sizeof (ref)) ;
    memset (&got, 0, sizeof (got)) ;
    int bad = bu_make_x (&x, n, seed) != GrB_SUCCESS ;
    grbcuda_set_mode (GRBCUDA_MODE_HOST) ;
    bad = bad || bu_spmv (&yref, A, x, NULL) != GrB_SUCCESS || bu_vec_get (&ref, yref) != GrB_SUCCESS ;
    grbcuda_set_mode (GRBCUDA_MODE_GPU) ;
    for (int v = 0 ; !bad && v < nvariants ; v++)
    {
        double kmed = 0, emed = 0 ;
        char msg [256] = "" ;
        GrB_Info info = run_variant (variants [v], A, x, reps, &kmed, &emed, &y) ;
        bool ok = info == GrB_SUCCESS && bu_vec_get (&got, y) == GrB_SUCCESS
            && bu_compare_vec (msg, sizeof (msg), &ref, &got, (bu_tol) { 1e-12, 1e-12, NULL }) ;
        printf ("{\"workload\":\"%s\",\"n\":%llu,\"nnz\":%llu,\"variant\":\"%s\",\"kernel_median_ms\":%.4f,"
            "\"e2e_median_ms\":%.4f,\"ok\":%s,\"msg\":", name, (unsigned long long) n,
            (unsigned long long) nnz, variants [v], kmed, emed, ok ? "true" : "false") ;
        bu_json_str (stdout, msg) ;
        printf ("}\n") ;
        fflush (stdout) ;
        bu_vec_free (&got) ;
        GrB_Vector_free (&y) ;
    }
    unsetenv ("GRBCUDA_SPMV") ;
    bu_vec_free (&ref) ;
    GrB_Vector_free (&yref) ; GrB_Vector_free (&x) ; GrB_Matrix_free (&A) ;
    return bad ;
}

int main (int argc, char **argv)
{
    int reps = 20 ;
    uint64_t seed = GG_DEFAULT_SEED ;
    for (nvariants = 0 ; nvariants < NDEFAULT ; nvariants++) variants [nvariants] = default_variants [nvariants] ;
    int bad = GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS ;
    for (int a = 1 ; a < argc && !bad ; a++)
    {
        if (strcmp (argv [a], "--repeats") == 0 && a + 1 < argc) reps = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--seed") == 0 && a + 1 < argc) seed = strtoull (argv [++a], NULL, 0) ;
        else if (strcmp (argv [a], "--variants") == 0 && a + 1 < argc)
        {
            // (the tokens point into argv, which outlives them)
            nvariants = 0 ;
            for (char *t = strtok (argv [++a], ",") ; t != NULL && nvariants < MAXV ; t = strtok (NULL, ","))
                variants [nvariants++] = t ;
        }
        else bad |= workload (argv [a], seed, reps < 1 ? 1 : reps) ;
    }
    GrB_finalize () ;
    return bad ;
}
