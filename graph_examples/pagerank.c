// pagerank.c — PageRank (damping 0.85 by default, until the ranks change by
// less than a tolerance or a number of iterations) through plain GraphBLAS.h
// (graph_examples/common/gg_algo.c: GrB_mxv for the degrees, then each
// iteration eWiseMult, an assign under a complemented structural mask,
// reduce, GrB_vxm, assign and apply with accum, eWiseAdd). Built against
// SuiteSparse alone (pagerank) and with grbcuda linked in front
// (pagerank_grbcuda); also runs under LD_PRELOAD.
//
//   pagerank [--damping D] [--tol T] [--itermax N] [--repeat N] [--threads T]
//            [--seed S] [--check] WORKLOAD
//
// --check runs the same number of iterations on the host (a plain loop over
// the rows) and compares every rank (relative 1e-9: the sums are
// reassociated). Exit status 1 when the check fails.
#define _POSIX_C_SOURCE 200809L
#include "gg_algo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage (void)
{
    fprintf (stderr,
        "usage: pagerank [--damping D] [--tol T] [--itermax N] [--repeat N]\n"
        "                [--threads T] [--seed S] [--check] WORKLOAD\n"
        "WORKLOAD: grid3d-S, urand-S-E, rmat-S-E, or a .mtx file\n") ;
}

int main (int argc, char **argv)
{
    const char *workload = NULL ;
    double damping = 0.85, tol = 1e-4 ;
    int itermax = 100, repeat = 1, threads = 0, check = 0 ;
    uint64_t seed = GG_DEFAULT_SEED ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (strcmp (argv [a], "--damping") == 0 && a + 1 < argc) damping = atof (argv [++a]) ;
        else if (strcmp (argv [a], "--tol") == 0 && a + 1 < argc) tol = atof (argv [++a]) ;
        else if (strcmp (argv [a], "--itermax") == 0 && a + 1 < argc) itermax = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--repeat") == 0 && a + 1 < argc) repeat = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--threads") == 0 && a + 1 < argc) threads = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--seed") == 0 && a + 1 < argc) seed = strtoull (argv [++a], NULL, 0) ;
        else if (strcmp (argv [a], "--check") == 0) check = 1 ;
        else if (argv [a][0] == '-' && argv [a][1] != '\0') { usage () ; return 2 ; }
        else workload = argv [a] ;
    }
    if (workload == NULL || repeat < 1 || itermax < 1 || !(damping >= 0 && damping <= 1))
    {
        usage () ;
        return 2 ;
    }
    GrB_Info info = gg_init (threads) ;
    if (info != GrB_SUCCESS) { fprintf (stderr, "pagerank: GrB_init failed (%d)\n", info) ; return 1 ; }

    int rc = 0, iters = 0, iters0 = 0 ;
    GrB_Matrix A = NULL ;
    GrB_Vector rank = NULL ;
    double *times = NULL, *ref = NULL, *mine = NULL ;
    GrB_Index *idx = NULL ;
    char err [512] = "" ;
    double t0 = gg_now () ;
    info = gg_load (&A, workload, seed, GG_UNDIRECTED, err, sizeof (err)) ;
    if (info != GrB_SUCCESS)
    {
        fprintf (stderr, "pagerank: %s (%d)\n", err, info) ;
        GrB_finalize () ;
        return 1 ;
    }
    const double tload = gg_now () - t0 ;
    GrB_Index n = 0, nvals = 0 ;
    GrB_Matrix_nrows (&n, A) ;
    GrB_Matrix_nvals (&nvals, A) ;
    printf ("pagerank: %s: n=%llu entries=%llu (loaded in %.3f s), damping %g, tol %g, "
        "at most %d iterations\n", workload, (unsigned long long) n, (unsigned long long) nvals,
        tload, damping, tol, itermax) ;
    times = malloc ((size_t) repeat * sizeof (double)) ;
    if (times == NULL) { rc = 1 ; goto done ; }
    // first call apart: it carries the one-time costs
    t0 = gg_now () ;
    info = gg_pagerank (&rank, &iters0, A, damping, tol, itermax) ;
    const double tfirst = gg_now () - t0 ;
    for (int r = 0 ; r < repeat && info == GrB_SUCCESS ; r++)
    {
        GrB_Vector_free (&rank) ;
        t0 = gg_now () ;
        info = gg_pagerank (&rank, &iters, A, damping, tol, itermax) ;
        times [r] = gg_now () - t0 ;
    }
    if (info != GrB_SUCCESS) { fprintf (stderr, "pagerank: failed (%d)\n", info) ; rc = 1 ; goto done ; }
    if (iters != iters0) { printf ("pagerank: MISMATCH between the first call and the repeats\n") ; rc = 1 ; }
    double sum = 0 ;
    GrB_Vector_reduce_FP64 (&sum, NULL, GrB_PLUS_MONOID_FP64, rank, NULL) ;
    const double med = gg_median (times, repeat) ;     // times [0] is then the minimum
    printf ("pagerank: %d iterations, ranks sum to %.12f; %.4f s (median of %d; min %.4f; "
        "first call %.4f)\n", iters, sum, med, repeat, times [0], tfirst) ;
    printf ("RESULT workload=%s iterations=%d sum=%.12f seconds=%.6f first_seconds=%.6f\n",
        workload, iters, sum, med, tfirst) ;

    if (check)
    {
        gg_csr csr ;
        GrB_Index got = n ;
        ref = malloc ((n + 1) * sizeof (double)) ;
        mine = malloc ((n + 1) * sizeof (double)) ;
        idx = malloc ((n + 1) * sizeof (GrB_Index)) ;
        info = (ref && mine && idx) ? gg_csr_get (&csr, A) : GrB_OUT_OF_MEMORY ;
        if (info == GrB_SUCCESS)
        {
            info = gg_pagerank_ref (ref, &csr, damping, iters) ;
            gg_csr_free (&csr) ;
        }
        if (info == GrB_SUCCESS) info = GrB_Vector_extractTuples_FP64 (idx, mine, &got, rank) ;
        if (info != GrB_SUCCESS)
        {
            fprintf (stderr, "pagerank: check failed to run (%d)\n", info) ;
            rc = 1 ;
        }
        else
        {
            double worst = got == n ? 0 : INFINITY, top = 0 ;
            GrB_Index at = 0 ;
            for (GrB_Index k = 0 ; k < got ; k++) top = fmax (top, fabs (ref [idx [k]])) ;
            for (GrB_Index k = 0 ; k < got ; k++)
            {
                const double e = fabs (mine [k] - ref [idx [k]]) / (top > 0 ? top : 1) ;
                if (!(e <= worst)) { worst = e ; at = idx [k] ; }
            }
            const bool ok = got == n && worst <= 1e-9 ;
            printf ("pagerank: check (%d iterations on the host, every rank): %s (%llu ranks, "
                "largest difference %.3g of the top rank, at vertex %llu)\n", iters,
                ok ? "ok" : "FAILED", (unsigned long long) got, worst, (unsigned long long) at) ;
            if (!ok) rc = 1 ;
        }
    }

done:
    free (times) ; free (ref) ; free (mine) ; free (idx) ;
    GrB_Vector_free (&rank) ;
    GrB_Matrix_free (&A) ;
    GrB_finalize () ;
    return rc ;
}
