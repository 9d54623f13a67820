// overhead.c — what grbcuda adds to a call that stays on the host: a tiny
// GrB_mxm (below the GPU threshold, so grbcuda passes it through), a
// wrapped mutating call (GrB_Matrix_setElement_FP64, which grbcuda's
// generated wrapper forwards and invalidates) and wrapped readers
// (GrB_Matrix_extractElement_FP64 and GrB_Matrix_nvals, which it forwards
// once it has checked that the matrix is not device newest). Written against plain
// GraphBLAS.h; bench/overhead.sh runs it plain and under LD_PRELOAD and
// reports the difference. Prints "name ns_per_call" lines (median of 7).
#include <GraphBLAS.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return t.tv_sec + 1e-9 * t.tv_nsec ;
}

static int cmp (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b ;
    return (x > y) - (x < y) ;
}

int main (int argc, char **argv)
{
    int calls = argc > 1 ? atoi (argv [1]) : 20000 ;
    if (GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS) return 1 ;
    GrB_Matrix A = NULL, C = NULL ;
    GrB_Matrix_new (&A, GrB_FP64, 4, 4) ;
    GrB_Matrix_new (&C, GrB_FP64, 4, 4) ;
    for (int i = 0 ; i < 4 ; i++) GrB_Matrix_setElement_FP64 (A, 1.0 + i, i, (i + 1) % 4) ;
    GrB_Matrix_wait (A, GrB_MATERIALIZE) ;
    double t_mxm [7], t_set [7], t_get [7], t_nv [7], sink = 0 ;
    GrB_Index nv = 0 ;
    for (int r = 0 ; r < 7 ; r++)
    {
        double t0 = now () ;
        for (int c = 0 ; c < calls ; c++)
            GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, NULL) ;
        t_mxm [r] = (now () - t0) / calls ;
        t0 = now () ;
        for (int c = 0 ; c < calls ; c++)
            GrB_Matrix_setElement_FP64 (C, (double) c, 1, 2) ;
        t_set [r] = (now () - t0) / calls ;
        GrB_Matrix_wait (C, GrB_MATERIALIZE) ;
        t0 = now () ;
        for (int c = 0 ; c < calls ; c++)
        {
            double x = 0 ;
            GrB_Matrix_extractElement_FP64 (&x, A, c % 4, (c + 1) % 4) ;
            sink += x ;
        }
        t_get [r] = (now () - t0) / calls ;
        t0 = now () ;
        for (int c = 0 ; c < calls ; c++) GrB_Matrix_nvals (&nv, A) ;
        t_nv [r] = (now () - t0) / calls ;
    }
    qsort (t_mxm, 7, sizeof (double), cmp) ;
    qsort (t_set, 7, sizeof (double), cmp) ;
    qsort (t_get, 7, sizeof (double), cmp) ;
    qsort (t_nv, 7, sizeof (double), cmp) ;
    printf ("mxm_4x4 %.1f\nsetElement %.1f\nextractElement %.1f\nnvals %.1f\n", 1e9 * t_mxm [3],
        1e9 * t_set [3], 1e9 * t_get [3], 1e9 * t_nv [3]) ;
    if (sink < 0 || nv > 16) printf ("(unexpected)\n") ;
    GrB_Matrix_free (&A) ;
    GrB_Matrix_free (&C) ;
    GrB_finalize () ;
    return 0 ;
}
