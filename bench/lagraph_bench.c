// lagraph_bench.c — LAGraph v1.1.4's algorithms through their own public
// functions (issue 23: what a user who preloads grbcuda into a working
// program sees), on a generated workload (graph_examples/common: grid3d-S,
// urand-S-E, rmat-S-E; undirected, no self-loops). The same binary runs
// plain (SuiteSparse alone) and under LD_PRELOAD=libgrbcuda.so:
// bench/lagraph_bench.sh runs both in one session, alternating, and compares.
//
//   lagraph_bench WORKLOAD [--trials N] [--algos bfs,bc,tc,pr,cc,sssp] [--mark]
//
// Per algorithm: the first call (the first use of anything: a JIT
// compilation, an upload) and the median of N trials after it, wall time of
// the LAGraph call alone (the graph and its cached properties made before),
// and a checksum of the result, so that the two runs can be compared:
//   bfs   LAGr_BreadthFirstSearch, level and parent, from 16 sources (the
//         highest-degree vertex, then vertices k*104729 mod n with an edge):
//         reached vertices and sum of levels over the 16 searches
//         (before 2026-11-26: from vertex 0 alone, which rmat-20-16 leaves
//         isolated: a search of one vertex)
//   bc    LAGr_Betweenness from 4 sources: sum of the centrality
//   tc    LAGr_TriangleCount (auto method and presort): the count
//   pr    LAGr_PageRank (damping 0.85, tol 1e-4, at most 100 iterations):
//         iterations, sum of the ranks
//   cc    LAGr_ConnectedComponents: number of components
//   sssp  LAGr_SingleSourceShortestPath, unit weights (INT32), delta 2, from
//         the highest-degree vertex (before 2026-11-26: vertex 0):
//         reached vertices, sum of the path lengths
// --mark writes "lagraph_bench: mark ALGO first|trial K" to stderr before each
// call, so that a GRBCUDA_VERBOSE log can be split into the calls it timed,
// and "lagraph_bench: ALGO trials ms T0 T1 ..." after them, in their order,
// then the process's resource use in each trial (getrusage, all its threads:
// CUDA's and the library's too): "ALGO trials cpu_ms" (user + system),
// "sys_ms", "minflt" (page faults) and "nivcsw" (involuntary switches), to
// tell a preloaded trial's extra time apart: more work, more faults, or
// threads taken off their cores.
// Output: one line per algorithm,
//   RESULT workload=W algo=A first_ms=F median_ms=M trials=N check=C
#define _POSIX_C_SOURCE 200809L
#include "LAGraph.h"
#include "graphgen.h"
#include "bench_clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#define TRY(x) do { int s_ = (x) ; if (s_ < 0) { fprintf (stderr, "lagraph_bench: %s: %d (%s)\n", #x, s_, msg) ; exit (1) ; } } while (0)

static char msg [LAGRAPH_MSG_LEN] ;


typedef struct
{
    LAGraph_Graph G ;       // the undirected graph (bool pattern)
    LAGraph_Graph W ;       // the same with unit INT32 weights (sssp)
    GrB_Index n ;
    GrB_Index src [16] ;    // bfs's sources; src [0] the highest-degree vertex
} ctx_t ;

// what getrusage counts in a trial (see --mark)
enum { RU_CPU, RU_SYS, RU_MINFLT, RU_NIVCSW, RU_N } ;
static const char *const ru_name [RU_N] = { "cpu_ms", "sys_ms", "minflt", "nivcsw" } ;

static void ru_now (double v [RU_N])
{
    struct rusage u ;
    memset (&u, 0, sizeof (u)) ;
    (void) getrusage (RUSAGE_SELF, &u) ;
    const double sys = 1e3 * (double) u.ru_stime.tv_sec + 1e-3 * (double) u.ru_stime.tv_usec ;
    v [RU_CPU] = sys + 1e3 * (double) u.ru_utime.tv_sec + 1e-3 * (double) u.ru_utime.tv_usec ;
    v [RU_SYS] = sys ;
    v [RU_MINFLT] = (double) u.ru_minflt ;
    v [RU_NIVCSW] = (double) u.ru_nivcsw ;
}

// one call of an algorithm; *check: its checksum (text)
typedef void (*algo_fn) (ctx_t *c, char *check, size_t size) ;

static double vsum (GrB_Vector v)
{
    double s = 0 ;
    if (v != NULL) TRY (GrB_Vector_reduce_FP64 (&s, NULL, GrB_PLUS_MONOID_FP64, v, NULL)) ;
    return s ;
}

static GrB_Index vnvals (GrB_Vector v)
{
    GrB_Index n = 0 ;
    if (v != NULL) TRY (GrB_Vector_nvals (&n, v)) ;
    return n ;
}

static void algo_bfs (ctx_t *c, char *check, size_t size)
{
    GrB_Index reached = 0, parents = 0 ;
    double levels = 0 ;
    for (int k = 0 ; k < 16 ; k++)
    {
        GrB_Vector level = NULL, parent = NULL ;
        TRY (LAGr_BreadthFirstSearch (&level, &parent, c->G, c->src [k], msg)) ;
        reached += vnvals (level) ;
        levels += vsum (level) ;
        parents += vnvals (parent) ;
        GrB_Vector_free (&level) ;
        GrB_Vector_free (&parent) ;
    }
    snprintf (check, size, "src=%llu+15,reached=%llu,levels=%.0f,parents=%llu",
        (unsigned long long) c->src [0], (unsigned long long) reached, levels,
        (unsigned long long) parents) ;
}

static void algo_bc (ctx_t *c, char *check, size_t size)
{
    GrB_Vector bc = NULL ;
    GrB_Index src [4] ;
    for (int k = 0 ; k < 4 ; k++) src [k] = ((GrB_Index) k * 104729) % c->n ;
    TRY (LAGr_Betweenness (&bc, c->G, src, 4, msg)) ;
    snprintf (check, size, "sum=%.6e", vsum (bc)) ;
    GrB_Vector_free (&bc) ;
}

static void algo_tc (ctx_t *c, char *check, size_t size)
{
    uint64_t ntri = 0 ;
    LAGr_TriangleCount_Method method = LAGr_TriangleCount_AutoMethod ;
    LAGr_TriangleCount_Presort presort = LAGr_TriangleCount_AutoSort ;
    TRY (LAGr_TriangleCount (&ntri, c->G, &method, &presort, msg)) ;
    snprintf (check, size, "triangles=%llu", (unsigned long long) ntri) ;
}

static void algo_pr (ctx_t *c, char *check, size_t size)
{
    GrB_Vector r = NULL ;
    int iters = 0 ;
    TRY (LAGr_PageRank (&r, &iters, c->G, 0.85f, 1e-4f, 100, msg)) ;
    snprintf (check, size, "iters=%d,sum=%.4f", iters, vsum (r)) ;
    GrB_Vector_free (&r) ;
}

static void algo_cc (ctx_t *c, char *check, size_t size)
{
    GrB_Vector comp = NULL ;
    TRY (LAGr_ConnectedComponents (&comp, c->G, msg)) ;
    // components: the vertices that are their own component's label
    GrB_Index n = vnvals (comp), roots = 0 ;
    GrB_Index *I = malloc ((n + 1) * sizeof (GrB_Index)) ;
    int64_t *X = malloc ((n + 1) * sizeof (int64_t)) ;
    if (I == NULL || X == NULL) { fprintf (stderr, "lagraph_bench: out of memory\n") ; exit (1) ; }
    TRY (GrB_Vector_extractTuples_INT64 (I, X, &n, comp)) ;
    for (GrB_Index k = 0 ; k < n ; k++) roots += (GrB_Index) X [k] == I [k] ;
    snprintf (check, size, "components=%llu", (unsigned long long) roots) ;
    free (I) ; free (X) ;
    GrB_Vector_free (&comp) ;
}

static void algo_sssp (ctx_t *c, char *check, size_t size)
{
    GrB_Vector d = NULL ;
    GrB_Scalar delta = NULL ;
    const GrB_Index src = c->src [0] ;
    TRY (GrB_Scalar_new (&delta, GrB_INT32)) ;
    TRY (GrB_Scalar_setElement_INT32 (delta, 2)) ;
    TRY (LAGr_SingleSourceShortestPath (&d, c->W, src, delta, msg)) ;
    // unreached vertices hold the type's infinity: count the finite ones
    GrB_Vector f = NULL ;
    TRY (GrB_Vector_new (&f, GrB_INT32, c->n)) ;
    TRY (GrB_Vector_select_INT32 (f, NULL, NULL, GrB_VALUELT_INT32, d, INT32_MAX, NULL)) ;
    snprintf (check, size, "src=%llu,reached=%llu,sum=%.0f", (unsigned long long) src,
        (unsigned long long) vnvals (f), vsum (f)) ;
    GrB_Vector_free (&f) ;
    GrB_Vector_free (&d) ;
    GrB_Scalar_free (&delta) ;
}

// bfs's and sssp's sources: the highest-degree vertex (lowest index on
// ties), then vertices k*104729 mod n (k = 1, 2, ...) that have an edge
static void pick_sources (ctx_t *c)
{
    GrB_Index n = c->n, nd = c->n ;
    int64_t *deg = calloc (n + 1, sizeof (int64_t)), *X = malloc ((n + 1) * sizeof (int64_t)) ;
    GrB_Index *I = malloc ((n + 1) * sizeof (GrB_Index)) ;
    if (deg == NULL || X == NULL || I == NULL) { fprintf (stderr, "lagraph_bench: out of memory\n") ; exit (1) ; }
    TRY (GrB_Vector_extractTuples_INT64 (I, X, &nd, c->G->out_degree)) ;
    for (GrB_Index k = 0 ; k < nd ; k++) deg [I [k]] = X [k] ;
    GrB_Index best = 0 ;
    for (GrB_Index i = 1 ; i < n ; i++) if (deg [i] > deg [best]) best = i ;
    c->src [0] = best ;
    GrB_Index k = 1 ;
    for (int s = 1 ; s < 16 ; s++)
    {
        GrB_Index v = best ;
        for (GrB_Index tries = 0 ; tries < n ; tries++)
        {
            v = (k++ * 104729) % n ;
            if (deg [v] > 0) break ;
        }
        c->src [s] = v ;
    }
    free (deg) ; free (X) ; free (I) ;
}

static const struct { const char *name ; algo_fn fn ; } algos [] =
{
    { "bfs", algo_bfs }, { "bc", algo_bc }, { "tc", algo_tc },
    { "pr", algo_pr }, { "cc", algo_cc }, { "sssp", algo_sssp },
} ;

int main (int argc, char **argv)
{
    const char *workload = NULL, *which = "bfs,bc,tc,pr,cc,sssp" ;
    int trials = 5, mark = 0 ;
    for (int k = 1 ; k < argc ; k++)
    {
        if (strcmp (argv [k], "--trials") == 0 && k + 1 < argc) trials = atoi (argv [++k]) ;
        else if (strcmp (argv [k], "--algos") == 0 && k + 1 < argc) which = argv [++k] ;
        else if (strcmp (argv [k], "--mark") == 0) mark = 1 ;
        else workload = argv [k] ;
    }
    if (workload == NULL || trials < 1 || trials > 1000)
    {
        fprintf (stderr, "usage: lagraph_bench WORKLOAD [--trials N] [--algos bfs,bc,tc,pr,cc,sssp] [--mark]\n") ;
        return 2 ;
    }
    // the program's setup, timed from before LAGraph_Init (GrB_init, where
    // GRBCUDA_START=init begins CUDA's start) to the graph made: what a start
    // overlapping it costs shows here, its gain in the algorithms' rows
    const double ts = now () ;
    TRY (LAGraph_Init (msg)) ;
    GrB_Matrix A = NULL, B = NULL, Wm = NULL ;
    char err [512] = "" ;
    const double tg = now () ;
    if (gg_load (&A, workload, GG_DEFAULT_SEED, GG_UNDIRECTED, err, sizeof (err)) != GrB_SUCCESS)
    {
        fprintf (stderr, "lagraph_bench: %s: %s\n", workload, err) ;
        return 1 ;
    }
    ctx_t c ;
    memset (&c, 0, sizeof (c)) ;
    TRY (GrB_Matrix_nrows (&c.n, A)) ;
    // the pattern as a bool graph, without self-loops (grid3d has a diagonal)
    TRY (GrB_Matrix_new (&B, GrB_BOOL, c.n, c.n)) ;
    TRY (GrB_Matrix_select_INT64 (B, NULL, NULL, GrB_OFFDIAG, A, 0, NULL)) ;
    TRY (GrB_Matrix_new (&Wm, GrB_INT32, c.n, c.n)) ;
    TRY (GrB_Matrix_assign_INT32 (Wm, B, NULL, 1, GrB_ALL, c.n, GrB_ALL, c.n, GrB_DESC_S)) ;
    GrB_Matrix_free (&A) ;
    TRY (LAGraph_New (&c.G, &B, LAGraph_ADJACENCY_UNDIRECTED, msg)) ;
    TRY (LAGraph_New (&c.W, &Wm, LAGraph_ADJACENCY_UNDIRECTED, msg)) ;
    TRY (LAGraph_Cached_OutDegree (c.G, msg)) ;
    TRY (LAGraph_Cached_NSelfEdges (c.G, msg)) ;
    TRY (LAGraph_Cached_OutDegree (c.W, msg)) ;
    TRY (LAGraph_Cached_EMin (c.W, msg)) ;
    TRY (LAGraph_Cached_EMax (c.W, msg)) ;
    GrB_Index nedges = 0 ;
    TRY (GrB_Matrix_nvals (&nedges, c.G->A)) ;
    pick_sources (&c) ;
    fprintf (stderr, "lagraph_bench: %s: n=%llu, %llu entries (made in %.2f s)\n", workload,
        (unsigned long long) c.n, (unsigned long long) nedges, now () - tg) ;
    printf ("RESULT workload=%s algo=setup first_ms=%.3f median_ms=%.3f trials=1 check=n=%llu,e=%llu\n",
        workload, 1e3 * (now () - ts), 1e3 * (now () - ts), (unsigned long long) c.n,
        (unsigned long long) nedges) ;
    fflush (stdout) ;
    double *t = malloc ((size_t) trials * sizeof (double)) ;
    double (*ru) [RU_N] = malloc ((size_t) trials * sizeof (*ru)) ;
    if (t == NULL || ru == NULL) { fprintf (stderr, "lagraph_bench: out of memory\n") ; return 1 ; }
    for (size_t a = 0 ; a < sizeof (algos) / sizeof (algos [0]) ; a++)
    {
        const char *p = strstr (which, algos [a].name) ;
        const size_t l = strlen (algos [a].name) ;
        if (p == NULL || (p [l] != '\0' && p [l] != ',') || (p != which && p [-1] != ',')) continue ;
        char check [256], first_check [256] ;
        if (mark) fprintf (stderr, "lagraph_bench: mark %s first\n", algos [a].name) ;
        double t0 = now () ;
        algos [a].fn (&c, first_check, sizeof (first_check)) ;
        const double first = now () - t0 ;
        // the trials repeat the first call's work (same sources): each must
        // give the first call's result
        for (int k = 0 ; k < trials ; k++)
        {
            if (mark) fprintf (stderr, "lagraph_bench: mark %s trial %d\n", algos [a].name, k) ;
            double r0 [RU_N] ;
            ru_now (r0) ;
            t0 = now () ;
            algos [a].fn (&c, check, sizeof (check)) ;
            t [k] = now () - t0 ;
            ru_now (ru [k]) ;
            for (int q = 0 ; q < RU_N ; q++) ru [k][q] -= r0 [q] ;
            if (strcmp (check, first_check) != 0)
            {
                fprintf (stderr, "lagraph_bench: %s: trial %d gave %s, the first call %s\n",
                    algos [a].name, k, check, first_check) ;
                return 1 ;
            }
        }
        if (mark)
        {
            // the trials in their order: how long auto takes to settle
            fprintf (stderr, "lagraph_bench: %s trials ms", algos [a].name) ;
            for (int k = 0 ; k < trials ; k++) fprintf (stderr, " %.2f", 1e3 * t [k]) ;
            fprintf (stderr, "\n") ;
            for (int q = 0 ; q < RU_N ; q++)
            {
                fprintf (stderr, "lagraph_bench: %s trials %s", algos [a].name, ru_name [q]) ;
                for (int k = 0 ; k < trials ; k++) fprintf (stderr, " %.*f", q < RU_MINFLT ? 1 : 0, ru [k][q]) ;
                fprintf (stderr, "\n") ;
            }
        }
        qsort (t, (size_t) trials, sizeof (double), cmp_double) ;
        printf ("RESULT workload=%s algo=%s first_ms=%.3f median_ms=%.3f trials=%d check=%s\n",
            workload, algos [a].name, 1e3 * first, 1e3 * t [trials / 2], trials, first_check) ;
        fflush (stdout) ;
    }
    free (t) ;
    free (ru) ;
    LAGraph_Delete (&c.G, msg) ;
    LAGraph_Delete (&c.W, msg) ;
    LAGraph_Finalize (msg) ;
    return 0 ;
}
