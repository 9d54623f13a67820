// passthrough.c — what grbcuda's pass-through costs, counted in instructions
// (issue 23): bench/passthrough.sh runs it under valgrind --tool=callgrind,
// plain and with LD_PRELOAD=libgrbcuda.so, and compares. Instruction counts
// repeat from run to run, where wall times on a shared machine do not.
//
//   passthrough bfs WORKLOAD NSRC     LAGraph v1.1.4's LAGr_BreadthFirstSearch
//                                     (parents only: the push-pull of
//                                     LG_BreadthFirstSearch_SSGrB) from NSRC
//                                     sources on the graph of graph_examples
//                                     (undirected bool pattern, no self-loops);
//                                     one warm-up search first
//   passthrough call OP N             N calls of one GraphBLAS function on
//                                     small objects, each called once first
//   passthrough time WORKLOAD NSRC T  no callgrind: T timed runs of the NSRC
//                                     searches; prints their median, quartiles
//                                     and extremes in ms
//
// Only the measured part is counted (callgrind's client requests zero the
// counters before it and dump them after). Prints a checksum line.
#define _POSIX_C_SOURCE 200809L
#include "LAGraph.h"
#include "graphgen.h"
#include "bench_clock.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_ZERO_STATS
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(x)
#endif

static char msg [LAGRAPH_MSG_LEN] ;
#define TRY(x) do { int s_ = (x) ; if (s_ < 0) { fprintf (stderr, "passthrough: %s: %d (%s)\n", #x, s_, msg) ; exit (1) ; } } while (0)


__attribute__((noinline)) static GrB_Index searches (LAGraph_Graph G, GrB_Index n, int nsrc)
{
    GrB_Index reached = 0 ;
    for (int k = 0 ; k < nsrc ; k++)
    {
        GrB_Vector parent = NULL ;
        GrB_Index nv = 0 ;
        TRY (LAGr_BreadthFirstSearch (NULL, &parent, G, ((GrB_Index) k * 104729) % n, msg)) ;
        TRY (GrB_Vector_nvals (&nv, parent)) ;
        reached += nv ;
        GrB_Vector_free (&parent) ;
    }
    return reached ;
}

static int bfs (const char *workload, int nsrc, int timed)
{
    GrB_Matrix A = NULL, B = NULL ;
    char err [512] = "" ;
    if (gg_load (&A, workload, GG_DEFAULT_SEED, GG_UNDIRECTED, err, sizeof (err)) != GrB_SUCCESS)
    {
        fprintf (stderr, "passthrough: %s: %s\n", workload, err) ;
        return 1 ;
    }
    GrB_Index n ;
    TRY (GrB_Matrix_nrows (&n, A)) ;
    TRY (GrB_Matrix_new (&B, GrB_BOOL, n, n)) ;
    TRY (GrB_Matrix_select_INT64 (B, NULL, NULL, GrB_OFFDIAG, A, 0, NULL)) ;
    GrB_Matrix_free (&A) ;
    LAGraph_Graph G = NULL ;
    TRY (LAGraph_New (&G, &B, LAGraph_ADJACENCY_UNDIRECTED, msg)) ;
    TRY (LAGraph_Cached_OutDegree (G, msg)) ;
    TRY (LAGraph_Cached_NSelfEdges (G, msg)) ;
    GrB_Index reached = searches (G, n, 1) ;         // first calls
    if (timed == 0)
    {
        CALLGRIND_ZERO_STATS ;
        reached = searches (G, n, nsrc) ;
        CALLGRIND_DUMP_STATS_AT ("measured") ;
        printf ("bfs %s sources=%d reached=%llu\n", workload, nsrc, (unsigned long long) reached) ;
    }
    else
    {
        double *t = malloc ((size_t) timed * sizeof (double)) ;
        for (int k = 0 ; k < timed ; k++)
        {
            const double t0 = now () ;
            reached = searches (G, n, nsrc) ;
            t [k] = 1e3 * (now () - t0) ;
        }
        qsort (t, (size_t) timed, sizeof (double), cmp_double) ;
        printf ("time %s sources=%d runs=%d median_ms=%.3f q1_ms=%.3f q3_ms=%.3f min_ms=%.3f "
            "max_ms=%.3f reached=%llu\n", workload, nsrc, timed, t [timed / 2], t [timed / 4],
            t [(3 * timed) / 4], t [0], t [timed - 1], (unsigned long long) reached) ;
        free (t) ;
    }
    LAGraph_Delete (&G, msg) ;
    return 0 ;
}

static int call (const char *op, int N)
{
    const GrB_Index n = 64 ;
    GrB_Matrix A = NULL, A4 = NULL, C = NULL ;
    GrB_Vector q = NULL, pi = NULL, w = NULL ;
    TRY (GrB_Matrix_new (&A, GrB_BOOL, n, n)) ;
    for (GrB_Index i = 0 ; i < n ; i++)
    {
        TRY (GrB_Matrix_setElement_BOOL (A, true, i, (i + 1) % n)) ;
        TRY (GrB_Matrix_setElement_BOOL (A, true, (i + 1) % n, i)) ;
    }
    TRY (GrB_Matrix_new (&A4, GrB_FP64, 4, 4)) ;
    for (int i = 0 ; i < 4 ; i++) TRY (GrB_Matrix_setElement_FP64 (A4, 1.0 + i, i, (i + 1) % 4)) ;
    TRY (GrB_Matrix_new (&C, GrB_FP64, 4, 4)) ;
    TRY (GrB_Vector_new (&q, GrB_INT64, n)) ;
    TRY (GrB_Vector_new (&pi, GrB_INT64, n)) ;
    TRY (GrB_Vector_new (&w, GrB_INT64, n)) ;
    TRY (GrB_Vector_setElement_INT64 (q, 0, 0)) ;
    TRY (GrB_Vector_setElement_INT64 (pi, 0, 0)) ;
    TRY (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    TRY (GrB_Matrix_wait (A4, GrB_MATERIALIZE)) ;
    TRY (GrB_Vector_wait (q, GrB_MATERIALIZE)) ;
    TRY (GrB_Vector_wait (pi, GrB_MATERIALIZE)) ;
    GrB_Index nv = 0 ;
    double x = 0, sink = 0 ;
    int64_t s = 0 ;
    for (int pass = 0 ; pass < 2 ; pass++)
    {
        const int reps = pass == 0 ? 1 : N ;
        if (pass == 1) { CALLGRIND_ZERO_STATS ; }
        for (int k = 0 ; k < reps ; k++)
        {
            if (!strcmp (op, "mxm_4x4"))
                GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A4, A4, NULL) ;
            else if (!strcmp (op, "vxm_masked"))    // a BFS step: w<!pi,struct,replace> = q*A
                GrB_vxm (w, pi, NULL, GxB_ANY_SECONDI_INT64, q, A, GrB_DESC_RSC) ;
            else if (!strcmp (op, "setElement"))
                GrB_Matrix_setElement_FP64 (C, (double) k, 1, 2) ;
            else if (!strcmp (op, "extractElement"))
            {
                GrB_Matrix_extractElement_FP64 (&x, A4, k % 4, (k + 1) % 4) ;
                sink += x ;
            }
            else if (!strcmp (op, "nvals"))
                GrB_Vector_nvals (&nv, q) ;
            else if (!strcmp (op, "assign"))
                GrB_Vector_assign (pi, q, NULL, q, GrB_ALL, n, GrB_DESC_S) ;
            else if (!strcmp (op, "reduce"))
                GrB_Vector_reduce_INT64 (&s, NULL, GrB_PLUS_MONOID_INT64, q, NULL) ;
            else if (!strcmp (op, "new_free"))
            {
                GrB_Vector v = NULL ;
                GrB_Vector_new (&v, GrB_INT64, n) ;
                GrB_Vector_free (&v) ;
            }
            else if (!strcmp (op, "nrows"))
                GrB_Matrix_nrows (&nv, A) ;
            else if (!strcmp (op, "none"))
                ;
            else
            {
                fprintf (stderr, "passthrough: unknown call %s\n", op) ;
                return 2 ;
            }
        }
        if (pass == 1) { CALLGRIND_DUMP_STATS_AT ("measured") ; }
    }
    printf ("call %s n=%d check=%g\n", op, N, sink + (double) s + (double) nv) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&A4) ; GrB_Matrix_free (&C) ;
    GrB_Vector_free (&q) ; GrB_Vector_free (&pi) ; GrB_Vector_free (&w) ;
    return 0 ;
}

int main (int argc, char **argv)
{
    if (argc < 4 || (strcmp (argv [1], "bfs") && strcmp (argv [1], "call") && strcmp (argv [1], "time"))
        || (!strcmp (argv [1], "time") && argc < 5))
    {
        fprintf (stderr, "usage: passthrough bfs WORKLOAD NSRC | call OP N | time WORKLOAD NSRC T\n") ;
        return 2 ;
    }
    TRY (LAGraph_Init (msg)) ;
    int rc ;
    if (!strcmp (argv [1], "call")) rc = call (argv [2], atoi (argv [3])) ;
    else rc = bfs (argv [2], atoi (argv [3]), !strcmp (argv [1], "time") ? atoi (argv [4]) : 0) ;
    LAGraph_Finalize (msg) ;
    return rc ;
}
