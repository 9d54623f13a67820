// bench_variants.h — the timing loop of the *_variants benchmarks
// (spmv_variants, spmm_variants, sddmm_variants): one operation called
// again and again in one process under settings the caller has set, its
// kernel time read from grbcuda's statistics. Linked with grbcuda.
#ifndef BENCH_VARIANTS_H
#define BENCH_VARIANTS_H

#include <GraphBLAS.h>

// One call of the measured operation; it frees its previous result first.
typedef GrB_Info (*bv_call) (void *ctx) ;

// warm calls of call (ctx), then reps timed ones: the medians of the kernel
// time grbcuda's statistics count for the operation op ("GrB_mxm") and of
// the call's time, in ms. Stops at the first failure and returns it.
GrB_Info bv_time (const char *op, int warm, int reps, bv_call call, void *ctx,
    double *kmed, double *emed) ;

#endif
