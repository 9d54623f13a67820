// bfs.c — breadth-first search through GrB_vxm (push) and GrB_mxv (pull)
// with a complemented structural mask on the visited set, computing levels
// and parents. Plain GraphBLAS.h: built against SuiteSparse alone (bfs) and
// with grbcuda linked in front (bfs_grbcuda); also runs under LD_PRELOAD.
//
//   bfs [--source V] [--dir auto|push|pull] [--levels-only] [--repeat N]
//       [--threads T] [--seed S] [--check] WORKLOAD
//
// The source defaults to the highest-degree vertex (most entries in its row,
// lowest index on ties). --check compares the levels with a host queue BFS
// and verifies every parent (a neighbour one level up). Exit status 1 when a
// check fails.
#define _POSIX_C_SOURCE 200809L
#include "gg_algo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage (void)
{
    fprintf (stderr,
        "usage: bfs [--source V] [--dir auto|push|pull] [--levels-only]\n"
        "           [--repeat N] [--threads T] [--seed S] [--check] WORKLOAD\n"
        "WORKLOAD: grid3d-S, urand-S-E, rmat-S-E, or a .mtx file\n") ;
}

int main (int argc, char **argv)
{
    const char *workload = NULL ;
    long long source = -1 ;
    int repeat = 1, threads = 0, check = 0, levels_only = 0 ;
    gg_bfs_dir dir = GG_BFS_AUTO ;
    uint64_t seed = GG_DEFAULT_SEED ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (strcmp (argv [a], "--source") == 0 && a + 1 < argc)
            source = atoll (argv [++a]) ;
        else if (strcmp (argv [a], "--dir") == 0 && a + 1 < argc)
        {
            const char *d = argv [++a] ;
            if (strcmp (d, "auto") == 0) dir = GG_BFS_AUTO ;
            else if (strcmp (d, "push") == 0) dir = GG_BFS_PUSH ;
            else if (strcmp (d, "pull") == 0) dir = GG_BFS_PULL ;
            else { usage () ; return 2 ; }
        }
        else if (strcmp (argv [a], "--levels-only") == 0) levels_only = 1 ;
        else if (strcmp (argv [a], "--repeat") == 0 && a + 1 < argc)
            repeat = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--threads") == 0 && a + 1 < argc)
            threads = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--seed") == 0 && a + 1 < argc)
            seed = strtoull (argv [++a], NULL, 0) ;
        else if (strcmp (argv [a], "--check") == 0) check = 1 ;
        else if (argv [a][0] == '-' && argv [a][1] != '\0') { usage () ; return 2 ; }
        else workload = argv [a] ;
    }
    if (workload == NULL || repeat < 1) { usage () ; return 2 ; }

    GrB_Info info = gg_init (threads) ;
    if (info != GrB_SUCCESS) { fprintf (stderr, "bfs: GrB_init failed (%d)\n", info) ; return 1 ; }

    int rc = 0 ;
    GrB_Matrix A = NULL ;
    GrB_Vector level = NULL, parent = NULL ;
    double *times = NULL ;
    char err [512] = "" ;
    double t0 = gg_now () ;
    info = gg_load (&A, workload, seed, GG_UNDIRECTED, err, sizeof (err)) ;
    if (info != GrB_SUCCESS)
    {
        fprintf (stderr, "bfs: %s (%d)\n", err, info) ;
        GrB_finalize () ;
        return 1 ;
    }
    double tload = gg_now () - t0 ;
    GrB_Index n, nvals, src, deg = 0 ;
    GrB_Matrix_nrows (&n, A) ;
    GrB_Matrix_nvals (&nvals, A) ;
    if (source < 0)
    {
        info = gg_highest_degree (&src, &deg, A) ;
        if (info != GrB_SUCCESS) { fprintf (stderr, "bfs: degree failed (%d)\n", info) ; rc = 1 ; goto done ; }
    }
    else src = (GrB_Index) source ;
    if (src >= n) { fprintf (stderr, "bfs: source %llu out of range\n", (unsigned long long) src) ; rc = 1 ; goto done ; }
    printf ("bfs: %s: n=%llu entries=%llu (loaded in %.3f s), source %llu%s\n",
        workload, (unsigned long long) n, (unsigned long long) nvals, tload,
        (unsigned long long) src, source < 0 ? " (highest degree)" : "") ;

    times = malloc ((size_t) repeat * sizeof (double)) ;
    if (times == NULL) { rc = 1 ; goto done ; }
    gg_bfs_stats st, st0 ;
    // first call apart: it carries the one-time costs
    t0 = gg_now () ;
    info = gg_bfs (&level, levels_only ? NULL : &parent, A, src, dir, NULL, &st0) ;
    double tfirst = gg_now () - t0 ;
    for (int r = 0 ; r < repeat && info == GrB_SUCCESS ; r++)
    {
        GrB_Vector_free (&level) ;
        GrB_Vector_free (&parent) ;
        t0 = gg_now () ;
        info = gg_bfs (&level, levels_only ? NULL : &parent, A, src, dir, NULL, &st) ;
        times [r] = gg_now () - t0 ;
    }
    if (info != GrB_SUCCESS) { fprintf (stderr, "bfs: failed (%d)\n", info) ; rc = 1 ; goto done ; }
    if (st.nlevels != st0.nlevels || st.nreached != st0.nreached)
    {
        printf ("bfs: MISMATCH between the first call and the repeats\n") ;
        rc = 1 ;
    }
    double med = gg_median (times, repeat) ;     // times [0] is then the minimum
    printf ("bfs: %s: %lld levels, %lld vertices reached, %lld push + %lld pull "
        "steps; %.4f s (median of %d; min %.4f; first call %.4f)\n",
        levels_only ? "levels" : "levels+parents", (long long) st.nlevels,
        (long long) st.nreached, (long long) st.npush, (long long) st.npull,
        med, repeat, times [0], tfirst) ;
    printf ("RESULT workload=%s source=%llu levels=%lld reached=%lld seconds=%.6f "
        "first_seconds=%.6f\n", workload, (unsigned long long) src,
        (long long) st.nlevels, (long long) st.nreached, med, tfirst) ;

    if (check)
    {
        gg_csr csr ;
        bool ok = false ;
        char msg [256] = "" ;
        info = gg_csr_get (&csr, A) ;
        if (info == GrB_SUCCESS)
        {
            info = gg_bfs_check (&ok, msg, sizeof (msg), &csr, src, level, parent) ;
            GrB_Index entries = 0 ;
            if (info == GrB_SUCCESS) info = gg_bfs_component_entries (&entries, &csr, src) ;
            if (info == GrB_SUCCESS)
                printf ("bfs: the reached component has %llu edges (%llu entries / 2): "
                    "%.2f GTEPS end to end (median)\n", (unsigned long long) (entries / 2),
                    (unsigned long long) entries, 1e-9 * (double) (entries / 2) / med) ;
            gg_csr_free (&csr) ;
        }
        if (info != GrB_SUCCESS)
        {
            fprintf (stderr, "bfs: check failed to run (%d)\n", info) ;
            rc = 1 ;
        }
        else
        {
            printf ("bfs: check (levels vs a host queue BFS%s): %s%s%s\n",
                levels_only ? "" : ", parents are neighbours one level up",
                ok ? "ok" : "FAILED: ", ok ? "" : msg, "") ;
            if (!ok) rc = 1 ;
        }
    }

done:
    free (times) ;
    GrB_Vector_free (&level) ;
    GrB_Vector_free (&parent) ;
    GrB_Matrix_free (&A) ;
    GrB_finalize () ;
    return rc ;
}
