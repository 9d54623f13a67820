// background.c — how much one busy background thread slows SuiteSparse's
// OpenMP calls on the program's thread (issue 23: grbcuda's CUDA start and
// JIT compiles run on such threads; src/util/thread.c acts on the answer).
// Plain GraphBLAS (no grbcuda). For each workload, a GrB_mxv (PLUS_TIMES
// FP64, A the graph) and a GrB_Vector_eWiseAdd of two full vectors of n
// entries, each 40 times, medians and maxima, under: no background thread;
// a thread spinning (normal priority, then SCHED_IDLE); touching fresh
// 64 MiB blocks (SCHED_IDLE); with CUDA: compiling with NVRTC and starting
// CUDA (4 GiB of device memory, 256 MiB pinned) (SCHED_IDLE); then the busy
// conditions again with SuiteSparse's threads one fewer (GxB_NTHREADS).
//
//   background [WORKLOAD...]     (default rmat-20-16 grid3d-100)
//   background --start-timeline THREADS WORKLOAD
// The second form (with CUDA): SuiteSparse on THREADS threads runs an mxv,
// an eWiseAdd and a GrB_Matrix_dup of the graph (fresh memory: page faults)
// back to back for 1.5 s while, from 0.2 s, a SCHED_IDLE thread starts CUDA
// as grbcuda does (cudaGetDeviceCount and the device's properties: the
// driver's start; cudaSetDevice and cudaFree (0): the context), and prints
// each call's median and maximum before, during each phase and after.
#define _GNU_SOURCE
#include "graphgen.h"
#include <GraphBLAS.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef BG_HAVE_CUDA
#include <cuda_runtime.h>
#include <nvrtc.h>
#endif

enum { QUIET, SPIN, TOUCH, NVRTC, CUDA_START, NKINDS } ;
static const char *kind_name [NKINDS] = { "none", "spin", "touch 64 MiB", "NVRTC compile", "CUDA start" } ;
static atomic_int stop ;
static int kind, idle ;

static double now (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return t.tv_sec + 1e-9 * t.tv_nsec ;
}

#ifdef BG_HAVE_CUDA
static const char *kernel_src =
    "extern \"C\" __global__ void k (const double *a, double *b, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x ; double s = 0 ;\n"
    "  #pragma unroll 64\n"
    "  for (int j = 0 ; j < 4096 ; j++) s += a [(i + j * 977) % n] * (j + 1.5) ;\n"
    "  if (i < n) b [i] = s ; }\n" ;
#endif

static void *busy (void *arg)
{
    (void) arg ;
    if (idle)
    {
        struct sched_param p = { .sched_priority = 0 } ;
        (void) pthread_setschedparam (pthread_self (), SCHED_IDLE, &p) ;
    }
    volatile double x = 1 ;
    bool started = false ;
    while (!atomic_load (&stop))
    {
        if (kind == SPIN) for (int i = 0 ; i < 1000000 ; i++) x = x * 1.0000001 + 1e-9 ;
        else if (kind == TOUCH)
        {
            const size_t b = (size_t) 64 << 20 ;
            char *p = malloc (b) ;
            if (p != NULL) { memset (p, 1, b) ; free (p) ; }
        }
#ifdef BG_HAVE_CUDA
        else if (kind == NVRTC)
        {
            nvrtcProgram prog ;
            if (nvrtcCreateProgram (&prog, kernel_src, "k.cu", 0, NULL, NULL) != NVRTC_SUCCESS) break ;
            const char *opts [] = { "--gpu-architecture=compute_80", "-O3" } ;
            (void) nvrtcCompileProgram (prog, 2, opts) ;
            (void) nvrtcDestroyProgram (&prog) ;
        }
        else if (kind == CUDA_START && !started)
        {
            const double t0 = now () ;
            void *d = NULL, *h = NULL ;
            cudaError_t e = cudaFree (0) ;
            if (e == cudaSuccess) e = cudaMalloc (&d, (size_t) 4 << 30) ;
            if (e == cudaSuccess) e = cudaHostAlloc (&h, (size_t) 256 << 20, 0) ;
            printf ("  (CUDA start, 4 GiB, 256 MiB pinned: %s, %.1f ms)\n",
                cudaGetErrorString (e), 1e3 * (now () - t0)) ;
            started = true ;
        }
#endif
        else usleep (1000) ;
    }
    return NULL ;
}

static int cmp (const void *a, const void *b)
{
    const double x = *(const double *) a, y = *(const double *) b ;
    return x < y ? -1 : x > y ;
}

// the workload's graph A and the vectors the calls use: x all ones, y and z
// empty; nonzero (said on stderr) if the workload cannot be made
static int operands (const char *name, GrB_Matrix *A, GrB_Vector *x, GrB_Vector *y, GrB_Vector *z)
{
    char err [256] = "" ;
    if (gg_load (A, name, GG_DEFAULT_SEED, GG_UNDIRECTED, err, sizeof (err)) != GrB_SUCCESS)
    {
        fprintf (stderr, "background: %s: %s\n", name, err) ;
        return 1 ;
    }
    GrB_Index n ;
    GrB_Matrix_nrows (&n, *A) ;
    GrB_Vector_new (x, GrB_FP64, n) ;
    GrB_Vector_new (y, GrB_FP64, n) ;
    GrB_Vector_new (z, GrB_FP64, n) ;
    GrB_Vector_assign_FP64 (*x, NULL, NULL, 1.0, GrB_ALL, n, NULL) ;
    return 0 ;
}

#ifdef BG_HAVE_CUDA
// --start-timeline: the phases' bounds, seconds from the loop's start
static double ph [3] ;          // driver start begins, context begins, all done
static double tl0 ;

static void *start_phases (void *arg)
{
    (void) arg ;
    struct sched_param p = { .sched_priority = 0 } ;
    (void) pthread_setschedparam (pthread_self (), SCHED_IDLE, &p) ;
    usleep (200000) ;
    ph [0] = now () - tl0 ;
    int count = 0 ;
    struct cudaDeviceProp prop ;
    cudaError_t e = cudaGetDeviceCount (&count) ;
    if (e == cudaSuccess) e = cudaGetDeviceProperties (&prop, 0) ;
    ph [1] = now () - tl0 ;
    if (e == cudaSuccess) e = cudaSetDevice (0) ;
    if (e == cudaSuccess) e = cudaFree (NULL) ;
    ph [2] = now () - tl0 ;
    if (e != cudaSuccess) printf ("  (CUDA start failed: %s)\n", cudaGetErrorString (e)) ;
    return NULL ;
}

static int timeline (int threads, const char *name)
{
    GrB_Matrix A = NULL, D = NULL ;
    GrB_Vector x, y, z ;
    if (operands (name, &A, &x, &y, &z) != 0) return 1 ;
    GxB_Global_Option_set_INT32 (GxB_NTHREADS, threads) ;
    enum { MAXR = 20000, NOPS = 3 } ;
    static double at [MAXR], dt [MAXR] ;
    static int op [MAXR] ;
    int r = 0 ;
    tl0 = now () ;
    pthread_t t ;
    if (pthread_create (&t, NULL, start_phases, NULL) != 0) return 1 ;
    while (r < MAXR && now () - tl0 < 1.5)
    {
        const int o = r % NOPS ;
        const double t0 = now () ;
        if (o == 0)
        {
            GrB_mxv (y, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, x, NULL) ;
            GrB_Vector_wait (y, GrB_MATERIALIZE) ;
        }
        else if (o == 1)
        {
            GrB_Vector_eWiseAdd_BinaryOp (z, NULL, NULL, GrB_PLUS_FP64, x, y, NULL) ;
            GrB_Vector_wait (z, GrB_MATERIALIZE) ;
        }
        else
        {
            GrB_Matrix_dup (&D, A) ;
            GrB_Matrix_free (&D) ;
        }
        at [r] = t0 - tl0 ;
        dt [r] = now () - t0 ;
        op [r] = o ;
        r++ ;
    }
    pthread_join (t, NULL) ;
    static const char *opn [NOPS] = { "mxv", "eWiseAdd", "Matrix_dup" } ;
    static const char *win [4] = { "before", "driver start", "context", "after" } ;
    printf ("%s, SuiteSparse on %d threads; CUDA's driver start %.1f-%.1f ms, context %.1f-%.1f ms\n"
        "| call | window | calls | median ms | max ms |\n| --- | --- | ---: | ---: | ---: |\n",
        name, threads, 1e3 * ph [0], 1e3 * ph [1], 1e3 * ph [1], 1e3 * ph [2]) ;
    static double v [MAXR] ;
    for (int o = 0 ; o < NOPS ; o++)
    {
        for (int w = 0 ; w < 4 ; w++)
        {
            const double lo = w == 0 ? -1 : ph [w - 1], hi = w == 3 ? 1e9 : ph [w] ;
            int m = 0 ;
            // a call overlapping the window counts in it (a call that ends
            // inside a phase was slowed by it)
            for (int i = 0 ; i < r ; i++)
                if (op [i] == o && at [i] + dt [i] > lo && at [i] < hi) v [m++] = dt [i] ;
            if (m == 0) continue ;
            qsort (v, m, sizeof (double), cmp) ;
            printf ("| %s | %s | %d | %.3f | %.3f |\n", opn [o], win [w], m, 1e3 * v [m / 2], 1e3 * v [m - 1]) ;
        }
    }
    GrB_Matrix_free (&A) ;
    GrB_Vector_free (&x) ; GrB_Vector_free (&y) ; GrB_Vector_free (&z) ;
    return 0 ;
}
#endif

int main (int argc, char **argv)
{
    if (gg_init (0) != GrB_SUCCESS) return 1 ;
    if (argc == 4 && strcmp (argv [1], "--start-timeline") == 0)
    {
#ifdef BG_HAVE_CUDA
        const int rc = timeline (atoi (argv [2]) > 0 ? atoi (argv [2]) : 1, argv [3]) ;
        GrB_finalize () ;
        return rc ;
#else
        fprintf (stderr, "background: --start-timeline needs CUDA\n") ;
        return 2 ;
#endif
    }
    const char *def [] = { "rmat-20-16", "grid3d-100" } ;
    const int nw = argc > 1 ? argc - 1 : 2 ;
    int32_t all = 1 ;
    GxB_Global_Option_get_INT32 (GxB_NTHREADS, &all) ;
    printf ("background: %ld cores, SuiteSparse's threads %d\n", sysconf (_SC_NPROCESSORS_ONLN), (int) all) ;
    for (int w = 0 ; w < nw ; w++)
    {
        const char *name = argc > 1 ? argv [w + 1] : def [w] ;
        GrB_Matrix A = NULL ;
        GrB_Vector x, y, z ;
        if (operands (name, &A, &x, &y, &z) != 0) return 1 ;
        GrB_Index n ;
        GrB_Matrix_nrows (&n, A) ;
        printf ("%s (n %llu)\n| background thread | priority | SuiteSparse threads | mxv median (max) ms | eWiseAdd median (max) ms |\n"
            "| --- | --- | ---: | ---: | ---: |\n", name, (unsigned long long) n) ;
        for (int fewer = 0 ; fewer <= 1 ; fewer++)
        {
            for (int k = 0 ; k < NKINDS ; k++)
            {
                for (int id = 0 ; id <= 1 ; id++)
                {
                    if ((k == QUIET && (id || fewer)) || (k != QUIET && k != SPIN && !id)) continue ;
                    if (fewer && k == CUDA_START) continue ;        // CUDA starts once a process
#ifndef BG_HAVE_CUDA
                    if (k == NVRTC || k == CUDA_START) continue ;
#endif
                    kind = k ; idle = id ;
                    GxB_Global_Option_set_INT32 (GxB_NTHREADS, fewer ? (all > 1 ? all - 1 : 1) : all) ;
                    atomic_store (&stop, 0) ;
                    pthread_t t ;
                    const bool th = k != QUIET && pthread_create (&t, NULL, busy, NULL) == 0 ;
                    usleep (20000) ;
                    enum { N = 40 } ;
                    double tm [N], te [N] ;
                    for (int r = 0 ; r < N ; r++)
                    {
                        double t0 = now () ;
                        GrB_mxv (y, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, x, NULL) ;
                        GrB_Vector_wait (y, GrB_MATERIALIZE) ;
                        double t1 = now () ;
                        GrB_Vector_eWiseAdd_BinaryOp (z, NULL, NULL, GrB_PLUS_FP64, x, y, NULL) ;
                        GrB_Vector_wait (z, GrB_MATERIALIZE) ;
                        tm [r] = t1 - t0 ;
                        te [r] = now () - t1 ;
                    }
                    atomic_store (&stop, 1) ;
                    if (th) pthread_join (t, NULL) ;
                    qsort (tm, N, sizeof (double), cmp) ;
                    qsort (te, N, sizeof (double), cmp) ;
                    printf ("| %s | %s | %d | %.3f (%.3f) | %.3f (%.3f) |\n", kind_name [k],
                        k == QUIET ? "—" : (id ? "SCHED_IDLE" : "normal"), fewer ? (int) all - 1 : (int) all,
                        1e3 * tm [N / 2], 1e3 * tm [N - 1], 1e3 * te [N / 2], 1e3 * te [N - 1]) ;
                    fflush (stdout) ;
                }
            }
        }
        GxB_Global_Option_set_INT32 (GxB_NTHREADS, all) ;
        GrB_Matrix_free (&A) ;
        GrB_Vector_free (&x) ; GrB_Vector_free (&y) ; GrB_Vector_free (&z) ;
    }
    GrB_finalize () ;
    return 0 ;
}
