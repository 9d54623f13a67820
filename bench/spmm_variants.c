// spmm_variants.c — the SpMM kernels of the GrB_mxm spmm family (src/spmm/)
// side by side on the same matrix in one process: Y = A*X PLUS_TIMES_FP32
// with X n-by-k full (k from --cols), each variant a set of the
// GRBCUDA_SPMM_* settings (read at every call; the plan cached with A is
// rebuilt when they change, in the warm-up calls); grbcuda's kernel time
// (CUDA events, from grbcuda_stats: the median over the repeats) and the
// end-to-end time of the call, each result checked against SuiteSparse's
// (the same call in mode host) as grb_bench checks it. The cuSPARSE peer
// (cusparse_peer --ops spmm) is run beside it on the same workloads.
// Output: one JSON object per line on stdout.
//
//   spmm_variants [--repeats N] [--seed S] [--cols 32,128]
//                 [--variant label:VAR=v,VAR=v ...] W1 [W2 ...]
//
// VAR names the part after GRBCUDA_SPMM_ (ROWS=0, UNROLL=8, ...); every
// variant starts from the defaults. Without --variant: the defaults alone.
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

#define MAX_VARIANTS 32

static const char *const knobs [] =
    { "ROWS", "RMAX", "UNROLL", "MINB", "HINT", "PIPE", "NAT", "SORT", "SLICE", "GRID", "SEG", "TILE", "CH", "HUB", "HUB_L1", "HUB_L2", "FOLDBIG",
      "VEC" } ;

// the defaults, then the variant's settings ("VAR=v,VAR=v")
static void set_variant (const char *spec)
{
    char name [64] ;
    for (size_t k = 0 ; k < sizeof (knobs) / sizeof (knobs [0]) ; k++)
    {
        snprintf (name, sizeof (name), "GRBCUDA_SPMM_%s", knobs [k]) ;
        unsetenv (name) ;
    }
    const char *c = strchr (spec, ':') ;
    char buf [256] ;
    snprintf (buf, sizeof (buf), "%s", c != NULL ? c + 1 : "") ;
    for (char *tok = strtok (buf, ",") ; tok != NULL ; tok = strtok (NULL, ","))
    {
        char *eq = strchr (tok, '=') ;
        if (eq == NULL) continue ;
        *eq = '\0' ;
        snprintf (name, sizeof (name), "GRBCUDA_SPMM_%s", tok) ;
        setenv (name, eq + 1, 1) ;
    }
}

// Y = A*X (the previous Y freed first)
typedef struct { GrB_Matrix A, X, *Y ; } spmm_call ;

static GrB_Info spmm_once (void *ctx)
{
    spmm_call *c = ctx ;
    GrB_Matrix_free (c->Y) ;
    return bu_spmm (c->Y, c->A, c->X, NULL) ;
}

// reps calls of Y = A*X after two warm-up calls; the medians of kernel and
// end-to-end time (ms), the last result in *Y
static GrB_Info run_variant (GrB_Matrix A32, GrB_Matrix X, int reps, double *kmed,
    double *emed, GrB_Matrix *Y)
{
    spmm_call c = { A32, X, Y } ;
    return bv_time ("GrB_mxm", 2, reps, spmm_once, &c, kmed, emed) ;
}

static int workload (const char *name, uint64_t seed, int reps, const int *cols, int ncols,
    const char *const *variants, int nvar)
{
    GrB_Matrix A = NULL, A32 = NULL ;
    GrB_Index n = 0, nnz = 0 ;
    char err [256] = "" ;
    if (gg_load (&A, name, seed, GG_UNDIRECTED, err, sizeof (err)) != GrB_SUCCESS)
    {
        fprintf (stderr, "spmm_variants: %s: %s\n", name, err) ;
        return 1 ;
    }
    GrB_Matrix_nrows (&n, A) ;
    GrB_Matrix_nvals (&nnz, A) ;
    gg_csr acsr ;
    memset (&acsr, 0, sizeof (acsr)) ;
    int bad = bu_make_fp32 (&A32, A) != GrB_SUCCESS || gg_csr_get (&acsr, A) != GrB_SUCCESS ;
    // FP32 sums over a row of A, |X| <= 1 (grb_bench's check)
    double *rb = bad ? NULL : bu_row_bound (&acsr, 0x1p-24) ;
    for (int q = 0 ; q < ncols && !bad ; q++)
    {
        GrB_Matrix X = NULL, Yref = NULL, Y = NULL ;
        gg_csr ref, got ;
        memset (&ref, 0, sizeof (ref)) ;
        grbcuda_set_mode (GRBCUDA_MODE_HOST) ;
        bad = bu_make_dense (&X, n, cols [q], bu_seed_X (seed)) != GrB_SUCCESS
            || bu_spmm (&Yref, A32, X, NULL) != GrB_SUCCESS || gg_csr_get (&ref, Yref) != GrB_SUCCESS ;
        GrB_Matrix_free (&Yref) ;
        grbcuda_set_mode (GRBCUDA_MODE_GPU) ;
        for (int v = 0 ; !bad && v < nvar ; v++)
        {
            double kmed = 0, emed = 0 ;
            char msg [256] = "" ;
            set_variant (variants [v]) ;
            GrB_Info info = run_variant (A32, X, reps, &kmed, &emed, &Y) ;
            memset (&got, 0, sizeof (got)) ;
            bool ok = info == GrB_SUCCESS && gg_csr_get (&got, Y) == GrB_SUCCESS
                && bu_compare_csr (msg, sizeof (msg), &ref, &got, (bu_tol) { 1e-5, 0, rb }) ;
            if (info != GrB_SUCCESS) snprintf (msg, sizeof (msg), "GrB_Info %d", (int) info) ;
            const char *colon = strchr (variants [v], ':') ;
            const int llen = colon != NULL ? (int) (colon - variants [v]) : (int) strlen (variants [v]) ;
            printf ("{\"workload\":\"%s\",\"n\":%llu,\"nnz\":%llu,\"cols\":%d,\"variant\":\"%.*s\","
                "\"kernel_median_ms\":%.4f,\"e2e_median_ms\":%.4f,\"ok\":%s,\"msg\":", name,
                (unsigned long long) n, (unsigned long long) nnz, cols [q], llen, variants [v],
                kmed, emed, ok ? "true" : "false") ;
            bu_json_str (stdout, msg) ;
            printf ("}\n") ;
            fflush (stdout) ;
            gg_csr_free (&got) ;
            GrB_Matrix_free (&Y) ;
        }
        set_variant ("") ;
        gg_csr_free (&ref) ;
        GrB_Matrix_free (&X) ;
    }
    free (rb) ;
    gg_csr_free (&acsr) ;
    GrB_Matrix_free (&A32) ; GrB_Matrix_free (&A) ;
    return bad ;
}

int main (int argc, char **argv)
{
    int reps = 5, cols [8] = { 32 }, ncols = 1, nvar = 0 ;
    const char *variants [MAX_VARIANTS] ;
    uint64_t seed = GG_DEFAULT_SEED ;
    int bad = GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS ;
    for (int a = 1 ; a < argc && !bad ; a++)
    {
        if (strcmp (argv [a], "--repeats") == 0 && a + 1 < argc) reps = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--seed") == 0 && a + 1 < argc) seed = strtoull (argv [++a], NULL, 0) ;
        else if (strcmp (argv [a], "--cols") == 0 && a + 1 < argc)
        {
            ncols = 0 ;
            for (char *c = argv [++a] ; c != NULL && *c != '\0' && ncols < 8 ; )
            {
                cols [ncols++] = atoi (c) ;
                c = strchr (c, ',') ;
                if (c != NULL) c++ ;
            }
        }
        else if (strcmp (argv [a], "--variant") == 0 && a + 1 < argc)
        {
            if (nvar < MAX_VARIANTS) variants [nvar++] = argv [++a] ;
            else a++ ;
        }
        else
        {
            const char *dflt [1] = { "default:" } ;
            bad |= workload (argv [a], seed, reps < 1 ? 1 : reps, cols, ncols,
                nvar > 0 ? variants : dflt, nvar > 0 ? nvar : 1) ;
        }
    }
    GrB_finalize () ;
    return bad ;
}
