// graphgen.h — the benchmark workloads of ../shared/BENCH.md as GrB_Matrix
// objects: grid3d-S (7-point Laplacian), urand-S-E (uniform random edges),
// rmat-S-E (Graph500 R-MAT, permuted ids), and Matrix Market files. Used by
// graph_examples/ (tc, bfs) and by bench/ (grb_bench, the cuSPARSE peer), so
// every program sees the same matrix for the same name and seed.
//
// Written against plain GraphBLAS.h only: no grbcuda header, so the programs
// built on it run on SuiteSparse alone, linked with grbcuda, or under
// LD_PRELOAD. Functions return GrB_Info and never exit.
#ifndef GRAPHGEN_H
#define GRAPHGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
// GraphBLAS.h 7.4 declares its functions without extern "C" (its C++ part,
// the complex types, is marked extern "C++" inside), so a C++ or CUDA file
// must include it with C linkage.
extern "C" {
#endif

#include <GraphBLAS.h>

// The fixed seed every program uses unless told otherwise, so that every run
// (and every peer) sees the same graph.
#define GG_DEFAULT_SEED 20261122ULL

typedef enum { GG_GRID3D = 0, GG_URAND, GG_RMAT, GG_MTX } gg_kind;

typedef struct
{
    gg_kind kind;
    int64_t side;        // grid3d: S (n = S^3)
    int scale;           // urand/rmat: n = 2^scale
    int edgefactor;      // urand/rmat: edgefactor * 2^scale generated edges
    char path[4096];     // mtx: the file
    char name[4200];     // canonical name, e.g. "rmat-16-8" or the path
}
gg_spec;

// Flags for gg_load.
#define GG_UNDIRECTED 1  // Matrix Market input: pattern of A+A', no diagonal,
                         // values 1.0 (generated workloads are undirected already)

// Parse "grid3d-100", "urand-18-8", "rmat-16-8", or a path to a .mtx file (any
// name containing '/' or ending in ".mtx", or an existing file).
// GrB_INVALID_VALUE if the name is not understood.
GrB_Info gg_parse (const char *name, gg_spec *spec) ;

// Generators. All produce an FP64 matrix held by row (CSR), sorted, no
// duplicates; urand and rmat are symmetric with no self-loops and values 1.0;
// grid3d has 6 on the diagonal and -1 off it. Deterministic for a given seed,
// independent of the number of threads.
GrB_Info gg_grid3d (GrB_Matrix *A, int64_t side) ;
GrB_Info gg_urand (GrB_Matrix *A, int scale, int edgefactor, uint64_t seed) ;
GrB_Info gg_rmat (GrB_Matrix *A, int scale, int edgefactor, uint64_t seed) ;

// Matrix Market: coordinate real/integer/pattern, general/symmetric/
// skew-symmetric. Duplicates are summed; pattern entries get 1.0. On failure
// a message goes to err (if not NULL).
GrB_Info gg_read_mtx (GrB_Matrix *A, const char *path, char *err, size_t errlen) ;

// Parse name and build the matrix (flags: GG_UNDIRECTED). err gets a message
// on failure.
GrB_Info gg_load (GrB_Matrix *A, const char *name, uint64_t seed, int flags,
    char *err, size_t errlen) ;

// A = pattern of (A + A') without the diagonal, values 1.0 (FP64). Square only.
GrB_Info gg_make_undirected (GrB_Matrix *A) ;

// A copy of a matrix's entries in CSR form with FP64 values (any built-in
// real type is typecast), columns sorted in each row. Used by checks and by
// the cuSPARSE peer; does not modify A.
typedef struct
{
    GrB_Index nrows, ncols, nvals ;
    GrB_Index *p ;      // nrows+1
    GrB_Index *j ;      // nvals
    double *x ;         // nvals
}
gg_csr ;

GrB_Info gg_csr_get (gg_csr *C, GrB_Matrix A) ;
void gg_csr_free (gg_csr *C) ;

// Sorts the columns (with their values) of every row that is not sorted.
// GrB_OUT_OF_MEMORY if a scratch buffer cannot be had.
GrB_Info gg_csr_sort_rows (gg_csr *C) ;

// The vertex with the most entries in its row (ties: the lowest index), i.e.
// the highest-degree vertex; a self-loop counts as an entry.
GrB_Info gg_highest_degree (GrB_Index *v, GrB_Index *degree, GrB_Matrix A) ;

// Monotonic wall clock in seconds.
double gg_now (void) ;

// GrB_init (GrB_NONBLOCKING); then, for threads > 0, that many threads for
// SuiteSparse and for OpenMP (the generators and the host oracles). What the
// programs' --threads option does.
GrB_Info gg_init (int threads) ;

// The median of t[0..n-1], n >= 1. Sorts t in place, so that t[0] is then
// the minimum.
double gg_median (double *t, int n) ;

// Deterministic pseudo-random value in [-1, 1) for dense operands (x in
// y=A*x, X and Y in SpMM/SDDMM), a multiple of 2^-10 so that it and many of
// its products are exact in FP32 and FP64. Static inline so that the CUDA
// peer can use it without linking anything.
static inline uint64_t gg_mix64 (uint64_t z)
{
    // splitmix64's finaliser: a bijection with good avalanche
    z += 0x9E3779B97F4A7C15ULL ;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL ;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL ;
    return z ^ (z >> 31) ;
}

static inline double gg_dense_value (uint64_t seed, uint64_t index)
{
    uint64_t h = gg_mix64 (seed ^ gg_mix64 (index)) ;
    return ((double) (int64_t) (h >> 53) - 1024.0) / 1024.0 ;   // 11 bits
}

#ifdef __cplusplus
}
#endif

#endif
