// bench_variants.c — the *_variants benchmarks' timing loop (bench_variants.h)
#define _POSIX_C_SOURCE 200809L
#include "bench_variants.h"
#include "bench_clock.h"
#include "grbcuda.h"
#include <stdlib.h>

GrB_Info bv_time (const char *op, int warm, int reps, bv_call call, void *ctx,
    double *kmed, double *emed)
{
    double *k = calloc ((size_t) reps, sizeof (double)), *e = calloc ((size_t) reps, sizeof (double)) ;
    if (k == NULL || e == NULL) { free (k) ; free (e) ; return GrB_OUT_OF_MEMORY ; }
    GrB_Info info = GrB_SUCCESS ;
    for (int r = -warm ; r < reps && info == GrB_SUCCESS ; r++)
    {
        grbcuda_op_stats s0, s1 ;
        grbcuda_stats_get (op, &s0) ;
        const double t0 = now () ;
        info = call (ctx) ;
        const double t1 = now () ;
        grbcuda_stats_get (op, &s1) ;
        if (r < 0) continue ;
        k [r] = 1e3 * (s1.gpu_kernel_seconds - s0.gpu_kernel_seconds) ;
        e [r] = 1e3 * (t1 - t0) ;
    }
    qsort (k, (size_t) reps, sizeof (double), cmp_double) ;
    qsort (e, (size_t) reps, sizeof (double), cmp_double) ;
    *kmed = k [reps / 2] ;
    *emed = e [reps / 2] ;
    free (k) ; free (e) ;
    return info ;
}
