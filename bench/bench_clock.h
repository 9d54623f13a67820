// bench_clock.h — the clock and the sort order of the LAGraph benchmarks
// (lagraph_bench.c, passthrough.c: programs built by bench/lagraph_prog.sh
// outside the CMake build, so header-only).
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H
#include <time.h>

static inline double now (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec ;
}

// for qsort of doubles (medians)
static inline int cmp_double (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b ;
    return (x > y) - (x < y) ;
}

#endif
