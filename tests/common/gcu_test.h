// gcu_test.h — the small test kit shared by the CPU and GPU tests: checks that
// count and report ("N passed, N failed" closes every test), access to the
// real SuiteSparse functions (the oracle) and to grbcuda's statistics whether
// grbcuda was linked or preloaded, random matrices in every storage format,
// and exact comparison of matrices and vectors.
#ifndef GCU_TEST_H
#define GCU_TEST_H

#include <GraphBLAS.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

// Exit code ctest reads as "skipped" (SKIP_RETURN_CODE).
#define GCU_TEST_SKIP 77

extern int gcu_test_passed, gcu_test_failed ;

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (cond) gcu_test_passed++ ;                                       \
        else {                                                              \
            gcu_test_failed++ ;                                             \
            fprintf (stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond) ; \
            fprintf (stderr, __VA_ARGS__) ;                                 \
            fprintf (stderr, "\n") ;                                        \
        }                                                                   \
    } while (0)

#define OK(call)                                                            \
    do {                                                                    \
        GrB_Info ok_info_ = (call) ;                                        \
        CHECK (ok_info_ == GrB_SUCCESS, "%s returned %d", #call, (int) ok_info_) ; \
    } while (0)

// Prints the closing line and returns the exit code for main.
int gcu_test_report (const char *name) ;

// The real SuiteSparse definition of a GraphBLAS function, from the GraphBLAS
// library itself (never grbcuda's); NULL if missing.
void *gcu_test_real (const char *name) ;

// What the library writes to stderr (its verbose lines) between begin and
// end, kept in log (NUL-terminated, at most lsize - 1 bytes).
typedef struct { FILE *f ; int saved ; } gcu_test_capture ;
void gcu_test_capture_begin (gcu_test_capture *c) ;
void gcu_test_capture_end (gcu_test_capture *c, char *log, size_t lsize) ;

// grbcuda's public API reached dynamically (works linked or preloaded).
// Returns false if grbcuda is not in the process.
bool gcu_test_grbcuda_present (void) ;
typedef struct
{
    uint64_t calls, gpu, host ;
    uint64_t reason [16] ;
    double seconds ;
} gcu_test_stats_t ;
bool gcu_test_stats (const char *op, gcu_test_stats_t *s) ;   // false if absent
bool gcu_test_set_mode (int mode) ;                         // 0 auto 1 gpu 2 host
bool gcu_test_set_threshold (double t) ;
bool gcu_test_gpu_available (void) ;    // grbcuda is loaded and has a usable GPU

// Deterministic random numbers.
uint64_t gcu_rand (uint64_t *state) ;
double gcu_rand01 (uint64_t *state) ;

// The 13 built-in types, and a typed "+" accumulator for each.
extern GrB_Type gcu_test_types [13] ;
extern const char *gcu_test_type_names [13] ;
void gcu_test_types_init (void) ;
GrB_BinaryOp gcu_test_plus (GrB_Type t) ;

// Random nrows-by-ncols matrix of type t with ~density entries, in a random
// storage (sparse, hypersparse, bitmap, full when dense, by row or by column,
// sometimes iso), with values that fit the type. Built with real functions.
GrB_Matrix gcu_test_random_matrix (GrB_Type t, GrB_Index nrows,
    GrB_Index ncols, double density, uint64_t *state) ;
GrB_Vector gcu_test_random_vector (GrB_Type t, GrB_Index n, double density,
    uint64_t *state) ;

// A small operand for the iso-status tests: an m-by-n matrix of type t (a
// vector of length m if vec), by kind: 0 iso (values 0, 1 or 2), 1 values
// (-1 to 3), 2 one entry, 3 empty, 4 every entry present and iso, 5 every
// entry present with values; held sparse, hypersparse, bitmap or full at
// random (a vector sparse or bitmap). Built with the functions this program
// links (SuiteSparse's, or grbcuda's passing them through).
void *gcu_test_iso_operand (GrB_Type t, GrB_Index m, GrB_Index n, int kind, bool vec,
    uint64_t *state) ;

// A new descriptor with the mask structural and/or complemented, GrB_REPLACE,
// and the first and/or second input transposed, as asked (NULL if it cannot
// be made)
GrB_Descriptor gcu_test_desc (bool structural, bool comp, bool replace, bool tran0, bool tran1) ;

// A C for an element-wise call that SuiteSparse 7.4 can take: an as-if-full
// iso C is cleared (its dense element-wise kernel writes every value into
// such a C's one iso value: a heap overflow, bench/RESULTS.md 2026-11-29)
void gcu_test_ewise_safe_c (GrB_Matrix C) ;

// Equality of two matrices (or vectors): same type, dimensions, pattern, and
// values (exact for integers and bool; relative tol for floating point;
// pattern_only for ANY-monoid results, whose values SuiteSparse may pick
// nondeterministically). On difference, prints why under `what`.
bool gcu_test_matrix_equal (GrB_Matrix A, GrB_Matrix B, double tol,
    bool pattern_only, const char *what) ;
bool gcu_test_vector_equal (GrB_Vector a, GrB_Vector b, double tol,
    bool pattern_only, const char *what) ;

// Text files. A whole file as a NUL-terminated string (caller frees), or
// NULL when it cannot be read.
char *gcu_test_read_file (const char *path) ;
// The text of the GraphBLAS.h the tests were compiled against (its
// GxB_IMPLEMENTATION_MAJOR and _MINOR match), from the first of: compiled
// (the path the build recorded; NULL for none), $GRBCUDA_GRAPHBLAS_H, the
// usual install places. Its path goes to path. NULL if none matches.
char *gcu_test_graphblas_h (const char *compiled, char *path, size_t size) ;
// C comments out, in place; a block comment becomes one space.
void gcu_test_strip_comments (char *s) ;
// The names of the variables of `type` (e.g. "GrB_Semiring") that the
// header text h (comments stripped) declares as "GB_PUBLIC type a, b, c ;",
// in the header's order, into a malloc'd array of malloc'd strings (*names;
// the caller frees both). Returns how many; -1 when out of memory.
int gcu_test_declared (const char *h, const char *type, char ***names) ;
// The distinct objects among those variables (dlsym), each once under its
// first name: one object can have two (GrB_PLUS_TIMES_SEMIRING_FP64 is
// GxB_PLUS_TIMES_FP64). *objs and *names are malloc'd arrays of as many
// entries, each name malloc'd (the caller frees all). Returns how many; -1
// when out of memory.
int gcu_test_declared_objects (const char *h, const char *type, void ***objs,
    char ***names) ;

#endif
