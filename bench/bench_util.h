// bench_util.h — what the two benchmark programs share: the operands of each
// operation (built the same way from the same seed), the GraphBLAS calls that
// the benchmark times and that serve as SuiteSparse's reference, result
// digests (compared across processes by run.py), and result comparisons with
// a tolerance (within a process). grb_bench.c and cusparse_peer.cu use it.
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include "gg_algo.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

// Columns of the dense operands of SpMM and SDDMM (BENCH.md: 32).
// columns of SpMM's X and SDDMM's X, Y: GRBCUDA_BENCH_COLS (default 32)
int bu_dense_cols (void) ;
#define BU_DENSE_COLS (bu_dense_cols ())

// The dense operands: x of y=A*x, X of Y=A*X and SDDMM, Y of SDDMM. Entry
// (i,c) of an n-by-k operand (row-major index i*k+c) is
// gg_dense_value (bu_seed_* (seed), i*k+c); x(i) likewise with index i.
static inline uint64_t bu_seed_x (uint64_t seed) { return seed ^ 0x5B1E5A11ULL ; }
static inline uint64_t bu_seed_X (uint64_t seed) { return seed ^ 0x0D3E5E0AULL ; }
static inline uint64_t bu_seed_Y (uint64_t seed) { return seed ^ 0x0D3E5E0BULL ; }

GrB_Info bu_make_x (GrB_Vector *x, GrB_Index n, uint64_t seed) ;          // FP64, full
GrB_Info bu_make_dense (GrB_Matrix *X, GrB_Index n, int k, uint64_t s) ;  // FP32, full, by row
GrB_Info bu_make_fp32 (GrB_Matrix *A32, GrB_Matrix A) ;                   // typecast copy

// The operations, each into a fresh output and waited on (GrB_*_wait), so
// that a lazily finished result is not taken for a fast one. ops: NULL for
// the GrB_* symbols as linked.
GrB_Info bu_spgemm (GrB_Matrix *C, GrB_Matrix A, const gg_ops *ops) ;     // C = A*A, PLUS_TIMES_FP64
GrB_Info bu_spmv (GrB_Vector *y, GrB_Matrix A, GrB_Vector x, const gg_ops *ops) ;  // y = A*x
GrB_Info bu_spmm (GrB_Matrix *Y, GrB_Matrix A32, GrB_Matrix X, const gg_ops *ops) ; // Y = A*X, FP32
GrB_Info bu_sddmm (GrB_Matrix *C, GrB_Matrix M, GrB_Matrix X, GrB_Matrix Y,
    const gg_ops *ops) ;                                // C<M,struct> = X*Y', FP32

// A vector read back: present flags and FP64 values, length n.
typedef struct
{
    GrB_Index n, nvals ;
    uint8_t *present ;
    double *x ;
}
bu_vec ;

GrB_Info bu_vec_get (bu_vec *v, GrB_Vector w) ;
void bu_vec_free (bu_vec *v) ;

// Order-independent summary of a result: entry count, a hash of the pattern
// (exact), and the sum of the values and of their magnitudes (to a tolerance).
typedef struct
{
    uint64_t nvals, pattern ;
    double sum, sumabs ;
}
bu_digest ;

void bu_digest_csr (bu_digest *d, const gg_csr *C) ;
void bu_digest_vec (bu_digest *d, const bu_vec *v) ;
void bu_digest_json (FILE *f, const bu_digest *d) ;   // {"nvals":..,...}

// Tolerance: |got - ref| <= rtol * max(|got|,|ref|) + atol (+ row_atol[i]
// when given, for bounds that depend on the row).
typedef struct
{
    double rtol, atol ;
    const double *row_atol ;
}
bu_tol ;

// Each returns true when equal within tol; otherwise false with a message.
// The patterns must be identical.
bool bu_compare_csr (char *msg, size_t len, const gg_csr *ref,
    const gg_csr *got, bu_tol tol) ;
// ref sparse (n-by-k CSR), got dense row-major n*k: an entry absent in ref
// must be 0 in got (a dense library writes zeros where GraphBLAS has none).
bool bu_compare_csr_dense (char *msg, size_t len, const gg_csr *ref,
    const float *got, int k, bu_tol tol) ;
bool bu_compare_vec (char *msg, size_t len, const bu_vec *ref,
    const bu_vec *got, bu_tol tol) ;
bool bu_compare_vec_dense (char *msg, size_t len, const bu_vec *ref,
    const double *got, bu_tol tol) ;

// Products of C = A*A (sum over entries A(i,k) of nnz(A(k,:))), i.e. flops/2.
uint64_t bu_products (const gg_csr *A) ;
// Rounding bound of row i of A*X when |X| <= 1 and the sums run in a type
// with unit roundoff u: 2 * nnz(A(i,:)) * u * sum |A(i,:)| (two orders of
// summation, each within the classic bound). Caller frees.
double *bu_row_bound (const gg_csr *A, double u) ;

// JSON string with escapes.
void bu_json_str (FILE *f, const char *s) ;

#ifdef __cplusplus
}
#endif

#endif
