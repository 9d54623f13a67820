// tc.c — triangle counting through GrB_mxm + GrB_reduce only, on a generated
// workload (BENCH.md names) or a Matrix Market file. Plain GraphBLAS.h: built
// once against SuiteSparse alone (tc) and once linked with grbcuda in front
// (tc_grbcuda); the same binary also runs under LD_PRELOAD=libgrbcuda.so.
//
//   tc [--method sandia-ll|burkhardt|dot|all] [--repeat N] [--threads T]
//      [--seed S] [--check] WORKLOAD
//   tc --self-test
//
// Prints the count and the time of the mxm+reduce (end to end, median of the
// repeats after a first, separately reported call), and the preparation
// (tril/triu/offdiag selects) separately. Exit status 1 when the methods
// disagree or --check (a host oracle) disagrees. --self-test runs the three
// methods, the oracle and a brute-force count on small graphs (generated and
// a Matrix Market file written here) and exits 1 on any disagreement.
#define _POSIX_C_SOURCE 200809L
#include "gg_algo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage (void)
{
    fprintf (stderr,
        "usage: tc [--method sandia-ll|burkhardt|dot|all] [--repeat N]\n"
        "          [--threads T] [--seed S] [--check] WORKLOAD\n"
        "       tc --self-test\n"
        "WORKLOAD: grid3d-S, urand-S-E, rmat-S-E, or a .mtx file\n") ;
}

// Brute force: for every edge (i,j), i<j, every k>j adjacent to both.
// O(edges * n) on a dense adjacency bitmap: small graphs only.
static int64_t brute_force (const gg_csr *A)
{
    GrB_Index n = A->nrows ;
    unsigned char *adj = calloc ((size_t) (n * n > 0 ? n * n : 1), 1) ;
    if (adj == NULL) return -1 ;
    for (GrB_Index i = 0 ; i < n ; i++)
        for (GrB_Index k = A->p [i] ; k < A->p [i + 1] ; k++)
            if (A->j [k] != i) adj [i * n + A->j [k]] = 1 ;
    int64_t t = 0 ;
    for (GrB_Index i = 0 ; i < n ; i++)
        for (GrB_Index j = i + 1 ; j < n ; j++)
            if (adj [i * n + j])
                for (GrB_Index k = j + 1 ; k < n ; k++)
                    t += adj [i * n + k] & adj [j * n + k] ;
    free (adj) ;
    return t ;
}

// Counts one graph every way; 0 when all agree (and match expect, if >= 0).
static int self_test_one (const char *name, int64_t expect)
{
    GrB_Matrix A = NULL ;
    gg_tc_graph g = { 0 } ;
    gg_csr csr = { 0 } ;
    char err [512] = "" ;
    int64_t c [GG_TC_NMETHODS], oracle = -1, brute = -1 ;
    GrB_Info info = gg_load (&A, name, GG_DEFAULT_SEED, GG_UNDIRECTED, err, sizeof (err)) ;
    if (info == GrB_SUCCESS) info = gg_tc_prepare (&g, A) ;
    for (int m = 0 ; m < GG_TC_NMETHODS && info == GrB_SUCCESS ; m++)
        info = gg_tc_count (&c [m], &g, (gg_tc_method) m, NULL) ;
    if (info == GrB_SUCCESS) info = gg_csr_get (&csr, A) ;
    if (info == GrB_SUCCESS) info = gg_tc_oracle (&oracle, &csr) ;
    if (info == GrB_SUCCESS) brute = brute_force (&csr) ;
    int bad = (info != GrB_SUCCESS) || brute < 0 || oracle != brute
        || (expect >= 0 && brute != expect) ;
    for (int m = 0 ; m < GG_TC_NMETHODS && !bad ; m++) bad = (c [m] != brute) ;
    printf ("tc self-test %-12s %s: sandia-ll %lld, burkhardt %lld, dot %lld, oracle %lld, "
        "brute force %lld%s %s\n", name, bad ? "FAILED" : "ok", (long long) c [0],
        (long long) c [1], (long long) c [2], (long long) oracle, (long long) brute,
        expect >= 0 ? ", expected" : "", info == GrB_SUCCESS ? "" : err [0] ? err : "GraphBLAS error") ;
    gg_csr_free (&csr) ;
    gg_tc_free (&g) ;
    GrB_Matrix_free (&A) ;
    return bad ;
}

static int self_test (void)
{
    int bad = 0 ;
    const char *graphs [] = { "rmat-8-4", "rmat-10-8", "urand-8-8", "urand-10-16",
        "grid3d-6", "rmat-1-1", NULL } ;
    for (int k = 0 ; graphs [k] != NULL ; k++) bad |= self_test_one (graphs [k], -1) ;

    // Matrix Market: K4 on vertices 1..4 minus the edge 1-4 (2 triangles), as
    // a symmetric file with a duplicate, a comment and a self-loop, plus an
    // isolated vertex 5; and the same graph as a general file listing one
    // direction only (made undirected when read).
    const char *tmp = getenv ("TMPDIR") ;
    char path [4096] ;
    snprintf (path, sizeof (path), "%s/tc_self_test_XXXXXX", tmp ? tmp : "/tmp") ;
    int fd = mkstemp (path) ;
    if (fd < 0) { printf ("tc self-test: cannot create a temporary file\n") ; return 1 ; }
    const char *files [2] =
    {
        "%%MatrixMarket matrix coordinate pattern symmetric\n% comment\n5 5 7\n"
        "2 1\n3 1\n3 2\n4 2\n4 3\n3 2\n4 4\n",
        "%%MatrixMarket matrix coordinate real general\n5 5 5\n"
        "1 2 1.5\n1 3 -2\n2 3 1e3\n2 4 7\n3 4 0.25\n",
    } ;
    for (int f = 0 ; f < 2 ; f++)
    {
        FILE *fp = fopen (path, "w") ;
        if (fp == NULL || fputs (files [f], fp) < 0 || fclose (fp) != 0)
        {
            printf ("tc self-test: cannot write %s\n", path) ;
            bad = 1 ;
            break ;
        }
        bad |= self_test_one (path, 2) ;
        // the reader itself: entries and values as written (duplicates summed)
        GrB_Matrix M = NULL ;
        GrB_Index nv = 0 ;
        double sum = 0 ;
        char err [512] = "" ;
        GrB_Info info = gg_read_mtx (&M, path, err, sizeof (err)) ;
        if (info == GrB_SUCCESS) info = GrB_Matrix_nvals (&nv, M) ;
        if (info == GrB_SUCCESS)
            info = GrB_Matrix_reduce_FP64 (&sum, NULL, GrB_PLUS_MONOID_FP64, M, NULL) ;
        GrB_Matrix_free (&M) ;
        GrB_Index want_nv = f == 0 ? 11 : 5 ;
        double want_sum = f == 0 ? 13.0 : 1006.75 ;   // 6 off-diagonal lines twice + 1
        int ok = info == GrB_SUCCESS && nv == want_nv && sum == want_sum ;
        printf ("tc self-test reader (%s): %llu entries, sum %g: %s\n",
            f == 0 ? "symmetric pattern" : "general real", (unsigned long long) nv, sum,
            ok ? "ok" : "FAILED") ;
        bad |= !ok ;
    }
    close (fd) ;
    unlink (path) ;
    printf ("tc self-test: %s\n", bad ? "FAILED" : "all ok") ;
    return bad ;
}

int main (int argc, char **argv)
{
    const char *workload = NULL ;
    int methods [GG_TC_NMETHODS], nmethods = 0 ;
    int repeat = 1, threads = 0, check = 0 ;
    uint64_t seed = GG_DEFAULT_SEED ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (strcmp (argv [a], "--method") == 0 && a + 1 < argc)
        {
            const char *m = argv [++a] ;
            if (strcmp (m, "all") == 0)
            {
                nmethods = 0 ;
                for (int k = 0 ; k < GG_TC_NMETHODS ; k++) methods [nmethods++] = k ;
            }
            else
            {
                int k = gg_tc_method_parse (m) ;
                if (k < 0 || nmethods >= GG_TC_NMETHODS) { usage () ; return 2 ; }
                methods [nmethods++] = k ;
            }
        }
        else if (strcmp (argv [a], "--repeat") == 0 && a + 1 < argc)
            repeat = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--threads") == 0 && a + 1 < argc)
            threads = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--seed") == 0 && a + 1 < argc)
            seed = strtoull (argv [++a], NULL, 0) ;
        else if (strcmp (argv [a], "--check") == 0) check = 1 ;
        else if (strcmp (argv [a], "--self-test") == 0)
        {
            if (GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS) return 1 ;
            int bad = self_test () ;
            GrB_finalize () ;
            return bad ;
        }
        else if (argv [a][0] == '-' && argv [a][1] != '\0') { usage () ; return 2 ; }
        else workload = argv [a] ;
    }
    if (workload == NULL || repeat < 1) { usage () ; return 2 ; }
    if (nmethods == 0) methods [nmethods++] = GG_TC_SANDIA_LL ;

    GrB_Info info = gg_init (threads) ;
    if (info != GrB_SUCCESS) { fprintf (stderr, "tc: GrB_init failed (%d)\n", info) ; return 1 ; }

    int rc = 0 ;
    GrB_Matrix A = NULL ;
    gg_tc_graph g = { 0 } ;
    char err [512] = "" ;
    double t0 = gg_now () ;
    info = gg_load (&A, workload, seed, GG_UNDIRECTED, err, sizeof (err)) ;
    if (info != GrB_SUCCESS)
    {
        fprintf (stderr, "tc: %s (%d)\n", err, info) ;
        GrB_finalize () ;
        return 1 ;
    }
    double tload = gg_now () - t0 ;
    GrB_Index n, nvals ;
    GrB_Matrix_nrows (&n, A) ;
    GrB_Matrix_nvals (&nvals, A) ;
    printf ("tc: %s: n=%llu entries=%llu (loaded in %.3f s)\n", workload,
        (unsigned long long) n, (unsigned long long) nvals, tload) ;

    t0 = gg_now () ;
    info = gg_tc_prepare (&g, A) ;
    double tprep = gg_now () - t0 ;
    if (info != GrB_SUCCESS)
    {
        fprintf (stderr, "tc: preparation failed (%d)\n", info) ;
        rc = 1 ; goto done ;
    }
    GrB_Index nl ;
    GrB_Matrix_nvals (&nl, g.L) ;
    printf ("tc: preparation (A without diagonal, L=tril(A,-1), U=triu(A,1)): "
        "%.3f s, nvals(L)=%llu\n", tprep, (unsigned long long) nl) ;

    int64_t first_count = -1 ;
    double *times = malloc ((size_t) repeat * sizeof (double)) ;
    if (times == NULL) { rc = 1 ; goto done ; }
    for (int k = 0 ; k < nmethods ; k++)
    {
        gg_tc_method m = (gg_tc_method) methods [k] ;
        int64_t count = 0, c2 = 0 ;
        // the first call carries one-time costs (JIT, first upload, ...)
        t0 = gg_now () ;
        info = gg_tc_count (&count, &g, m, NULL) ;
        double tfirst = gg_now () - t0 ;
        for (int r = 0 ; r < repeat && info == GrB_SUCCESS ; r++)
        {
            t0 = gg_now () ;
            info = gg_tc_count (&c2, &g, m, NULL) ;
            times [r] = gg_now () - t0 ;
            if (info == GrB_SUCCESS && c2 != count)
            {
                printf ("tc: method %s: repeat %d gave %lld, first call %lld\n",
                    gg_tc_method_name (m), r, (long long) c2, (long long) count) ;
                rc = 1 ;
            }
        }
        if (info != GrB_SUCCESS)
        {
            fprintf (stderr, "tc: method %s failed (%d)\n", gg_tc_method_name (m), info) ;
            rc = 1 ;
            continue ;
        }
        double med = gg_median (times, repeat) ;     // times [0] is then the minimum
        printf ("tc: method %-9s triangles %lld  mxm+reduce %.4f s (median of %d; "
            "min %.4f; first call %.4f)\n", gg_tc_method_name (m),
            (long long) count, med, repeat, times [0], tfirst) ;
        printf ("RESULT workload=%s method=%s triangles=%lld seconds=%.6f "
            "first_seconds=%.6f prep_seconds=%.6f\n", workload,
            gg_tc_method_name (m), (long long) count, med, tfirst, tprep) ;
        if (first_count >= 0 && count != first_count)
        {
            printf ("tc: MISMATCH: method %s disagrees with %s\n",
                gg_tc_method_name (m), gg_tc_method_name ((gg_tc_method) methods [0])) ;
            rc = 1 ;
        }
        if (first_count < 0) first_count = count ;
    }
    free (times) ;

    if (check && first_count >= 0)
    {
        gg_csr csr ;
        int64_t ref = -1 ;
        t0 = gg_now () ;
        info = gg_csr_get (&csr, g.A0) ;
        if (info == GrB_SUCCESS)
        {
            info = gg_tc_oracle (&ref, &csr) ;
            gg_csr_free (&csr) ;
        }
        if (info != GrB_SUCCESS)
        {
            fprintf (stderr, "tc: check failed to run (%d)\n", info) ;
            rc = 1 ;
        }
        else
        {
            printf ("tc: check: host oracle (degree-ordered merge) %lld triangles "
                "in %.3f s: %s\n", (long long) ref, gg_now () - t0,
                ref == first_count ? "ok" : "MISMATCH") ;
            if (ref != first_count) rc = 1 ;
        }
    }

done:
    gg_tc_free (&g) ;
    GrB_Matrix_free (&A) ;
    GrB_finalize () ;
    return rc ;
}
