// GRBCUDA_TEST_INTERNAL (reports which GPU family ran: gcu_families, gcu_family_runs)
// test_differential.c — grbcuda's own differential tester (issue 18). Many
// random GrB_mxm / GrB_mxv / GrB_vxm calls, each made twice in this process:
// through grbcuda's interposed entry point (mode forced to "gpu": every call a
// GPU family takes runs on the GPU, at any size) and through SuiteSparse's own
// function (the oracle, gcu_test_real), on two identical copies of C and of
// the inputs. Everything a program can observe must agree: the return code,
// whether GrB_error has a message, C's type, dimensions, pattern and values,
// its format, and the inputs (their values and storage) left as they were.
// Before C is read whole, the reads a program can make without C's
// write-back (extractElement at some entries and elsewhere, GrB_reduce to a
// GrB_Scalar) must agree too: where grbcuda left C on the device they answer
// from there (compare_reads).
// C's sparsity status and iso status are counted as notes, not differences:
// they follow the method SuiteSparse picks (see compare_meta). Semirings with
// a 1-based positional multiplier are left out, and the other positional
// ones see no hypersparse operand: SuiteSparse 7.4 is no oracle for them
// (catalogue_init, draw_case). MIN/MAX over floating types accept NaN against
// the monoid's identity at an entry whose terms are all NaN (c_rule).
//
// What a case draws (from the seed and its number alone, so any case replays
// by itself): the operation; a semiring from the run's pool of "kernel
// signatures" (a built-in semiring declared in GraphBLAS.h with the types of
// its two operands: the multiply's own, or any two of the 13 built-in types;
// a pool so that a GPU run reuses its JIT compilations); C's and M's types;
// the descriptor (transposes, no mask / valued / structural / complemented,
// a NULL mask with GrB_COMP, GrB_REPLACE); an accum (any built-in,
// non-positional binary operator); the shapes (0 rows or columns, 1x1, a
// dense row or column, empty operands, ...); each operand's storage (sparse,
// hypersparse, bitmap, full, by row or column, iso, pending work); values
// with the special ones of each type (+-0, +-inf, NaN, denormals, integer
// extremes, division by zero).
//
// Values compare exactly (NaN equals NaN, +0 equals -0), except: a PLUS or
// TIMES monoid over a floating type reassociates, so a relative tolerance
// (and the drawn values avoid what makes reassociation overflow or cross a
// discontinuity: see draw_case); an ANY monoid may pick any candidate, so
// the pattern is exact and the values lie between SuiteSparse's MIN and MAX
// of the same call, or, where that cannot be said, only the entries the
// product cannot have written compare.
//
// Each copy is built twice from the same recipe rather than with
// GrB_Matrix_dup, which would finish the pending work a case asks for.
// Nothing is drawn that SuiteSparse 7.4 itself gets wrong or answers two ways
// (avoid_suitesparse_bugs; no -0 in a valued mask: draw_value).
//
// Usage: test_differential [--calls N] [--seed S] [--case K] [--shard I/N]
//        [--ops mxm,mxv,vxm] [--pool P] [--max-fail F] [--verbose]
//        [--no-regressions] [--regressions] [--self-test]
//   --calls N   cases (default $GRBCUDA_DIFF_CALLS, else 3000 without a GPU,
//               400 with one)
//   --seed S    64-bit seed (default $GRBCUDA_DIFF_SEED, else time and pid);
//               printed on the first line
//   --case K    only case K (a replay); --shard I/N: only cases K % N == I
//   --pool P    kernel signatures in the run's pool (default $GRBCUDA_DIFF_POOL,
//               else 64; 0: every semiring with its own types, as CI runs it)
//   --max-fail F   stop after F failing cases (default 20; 0: never)
//   --regressions  only the fixed regression cases (which otherwise run first,
//               in shard 0, not counted in --calls); --no-regressions: skip them
//   --self-test    show that the comparison catches perturbed results
// GrB_mxm cases draw the dense forms too (draw_dense_forms): a full Y
// (SpMM), a full X and Y (SDDMM under a mask); the summary counts the calls
// the masked dot family ran as SDDMM.
//   --verbose      a line per case (printed before the call) and its path
// Last lines: the summary ("differential: seed S, N calls (...), G on the
// GPU (by family), H on the host (by reason), D differences, T s") and
// "test_differential: P passed, F failed" (a check per case). Exit 0 iff no
// case differed.
#include "gcu_test.h"
#include "grbcuda.h"
#include "dispatch/gcu_dispatch.h"
#include "mxm/gcu_mxm.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef GCU_GRAPHBLAS_H
#define GCU_GRAPHBLAS_H NULL      // the path the build recorded, if any
#endif

//------------------------------------------------------------------------------
// the operations, grbcuda's and SuiteSparse's
//------------------------------------------------------------------------------

enum { OP_MXM, OP_MXV, OP_VXM, NOPS } ;
static const char *const op_name [NOPS] = { "GrB_mxm", "GrB_mxv", "GrB_vxm" } ;
static const gcu_op op_code [NOPS] = { GCU_OP_MXM, GCU_OP_MXV, GCU_OP_VXM } ;

typedef GrB_Info (*mxm_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
typedef GrB_Info (*mxv_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Vector, const GrB_Descriptor) ;
typedef GrB_Info (*vxm_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Vector, const GrB_Matrix, const GrB_Descriptor) ;
static mxm_t real_mxm ;
static mxv_t real_mxv ;
static vxm_t real_vxm ;

// One call, C<M> = accum (C, X*Y): X and Y are the multiply's first and
// second operands (mxv: A and u; vxm: u and A). Vectors travel as GrB_Matrix
// (SuiteSparse's documented cast) and are cast back here.
static GrB_Info call_op (int op, bool oracle, GrB_Matrix C, GrB_Matrix M,
    GrB_BinaryOp accum, GrB_Semiring s, GrB_Matrix X, GrB_Matrix Y, GrB_Descriptor d)
{
    if (op == OP_MXM) return (oracle ? real_mxm : GrB_mxm) (C, M, accum, s, X, Y, d) ;
    if (op == OP_MXV) return (oracle ? real_mxv : GrB_mxv) ((GrB_Vector) C,
        (GrB_Vector) M, accum, s, X, (GrB_Vector) Y, d) ;
    return (oracle ? real_vxm : GrB_vxm) ((GrB_Vector) C, (GrB_Vector) M, accum,
        s, (GrB_Vector) X, Y, d) ;
}

//------------------------------------------------------------------------------
// types and values
//------------------------------------------------------------------------------

// type codes: the order of gcu_test_types
enum { T_BOOL, T_INT8, T_INT16, T_INT32, T_INT64, T_UINT8, T_UINT16, T_UINT32,
    T_UINT64, T_FP32, T_FP64, T_FC32, T_FC64, NT } ;
static const size_t tsize [NT] = { 1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 8, 16 } ;
static bool is_float (int t) { return t >= T_FP32 ; }
static bool is_complex (int t) { return t >= T_FC32 ; }
static bool is_unsigned (int t) { return t >= T_UINT8 && t <= T_UINT64 ; }
static bool is_single (int t) { return t == T_FP32 || t == T_FC32 ; }

static int type_code (GrB_Type t)
{
    for (int k = 0 ; k < NT ; k++) if (gcu_test_types [k] == t) return k ;
    return -1 ;
}

// value policies: what the values of an operand may be
enum
{
    V_FULL,     // small integers and halves, and every special value
    V_EXACT,    // no huge values, no denormals: sums exact in any order
    V_TAME,     // V_EXACT and denormals (under a reassociating monoid)
    V_TIMES,    // 0, +-0, +-1, +-inf, NaN: products exact in any order
    V_CTIMES,   // +-1 (+-i): complex products exact in any order
    V_MASK      // V_FULL without -0 (see draw_value)
} ;

static uint64_t pick (uint64_t *st, uint64_t n) { return gcu_rand (st) % n ; }

static double draw_real (int policy, bool single, uint64_t *st)
{
    if (policy == V_CTIMES) return pick (st, 2) ? 1 : -1 ;
    if (policy == V_TIMES)
    {
        static const double v [] = { 0.0, -0.0, 1, -1, 1, -1, INFINITY, -INFINITY, NAN } ;
        return v [pick (st, sizeof (v) / sizeof (v [0]))] ;
    }
    if (pick (st, 100) < 60)
    {
        // small integers and halves: exact in every type
        double x = (double) ((int) pick (st, 23) - 4) ;
        return pick (st, 4) == 0 ? x + 0.5 : x ;
    }
    const double tiny = single ? FLT_TRUE_MIN : DBL_TRUE_MIN ;
    const double special [] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 0.5, -0.5,
        tiny, -tiny, 2 * tiny, 3 * tiny } ;
    const double huge [] = { single ? FLT_MAX : DBL_MAX, single ? -FLT_MAX : -DBL_MAX,
        single ? FLT_MIN : DBL_MIN, 1e30, -1e30, 3e9, -3e9, 1.9e19, -9.3e18,
        300.7, -129.5, 65535.9, 4294967296.5, 2147483648.0, -2147483649.0 } ;
    if ((policy == V_FULL || policy == V_MASK) && pick (st, 3) == 0)
    {
        return huge [pick (st, sizeof (huge) / sizeof (huge [0]))] ;
    }
    return special [pick (st, policy == V_EXACT ? 7 : sizeof (special) / sizeof (special [0]))] ;
}

// an integer of t's width (two's complement bits; stored little-endian)
static uint64_t draw_int (int t, int policy, uint64_t *st)
{
    const int bits = 8 * (int) tsize [t] ;
    const bool uns = is_unsigned (t) ;
    if (policy == V_TIMES || policy == V_CTIMES)
    {
        const int64_t v [3] = { policy == V_TIMES ? 0 : 1, 1, uns ? 1 : -1 } ;
        return (uint64_t) v [pick (st, 3)] ;
    }
    if ((policy != V_FULL && policy != V_MASK) || pick (st, 100) < 65)
    {
        return (uint64_t) ((int64_t) pick (st, 23) - (uns ? 0 : 4)) ;
    }
    const uint64_t top = (uint64_t) 1 << (bits - 1) ;      // the sign bit
    const uint64_t all = (bits == 64) ? ~(uint64_t) 0 : ((uint64_t) 1 << bits) - 1 ;
    // signed: MIN, MAX, MIN+1, MAX-1, 0, 1, -1; unsigned: 0, 1, MAX, MAX-1, 2^(bits-1)
    const uint64_t v [7] = { top, top - 1, top + 1, top - 2, 0, 1, all } ;
    const uint64_t u [5] = { 0, 1, all, all - 1, top } ;
    return uns ? u [pick (st, 5)] : v [pick (st, 7)] ;
}

static void draw_value (int t, int policy, uint64_t *st, void *out)
{
    if (t == T_BOOL) { *(uint8_t *) out = policy == V_CTIMES || pick (st, 2) ; return ; }
    if (!is_float (t))
    {
        uint64_t v = draw_int (t, policy, st) ;
        memcpy (out, &v, tsize [t]) ;        // the low bytes (little-endian)
        return ;
    }
    double re, im = 0 ;
    if (is_complex (t) && policy == V_CTIMES)
    {
        // +-1, +-i: complex products of any length stay exact
        static const double c [4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } } ;
        int k = (int) pick (st, 4) ;
        re = c [k][0] ; im = c [k][1] ;
    }
    else
    {
        re = draw_real (policy, is_single (t), st) ;
        if (is_complex (t) && pick (st, 10) >= 3) im = draw_real (policy, is_single (t), st) ;
    }
    // a valued mask holds no -0: SuiteSparse 7.4 reads one as true (its
    // kernels test the bits) or as false (where it transposes the mask, cast
    // to bool), depending on its method, so no answer is SuiteSparse's alone
    if (policy == V_MASK && re == 0) re = 0 ;
    if (policy == V_MASK && im == 0) im = 0 ;
    if (is_single (t))
    {
        float f [2] = { (float) re, (float) im } ;
        memcpy (out, f, tsize [t]) ;
    }
    else
    {
        double x [2] = { re, im } ;
        memcpy (out, x, tsize [t]) ;
    }
}

// a value read back in its own type
typedef struct { int64_t s ; uint64_t u ; double re, im ; } val_t ;

static val_t value_read (int t, const uint8_t *p)
{
    val_t v = { 0, 0, 0, 0 } ;
    if (t == T_FP32 || t == T_FC32)
    {
        float f [2] = { 0, 0 } ;
        memcpy (f, p, tsize [t]) ;
        v.re = f [0] ; v.im = f [1] ;
    }
    else if (t == T_FP64 || t == T_FC64) memcpy (&v.re, p, tsize [t]) ;
    else
    {
        memcpy (&v.u, p, tsize [t]) ;
        const int bits = 8 * (int) tsize [t] ;
        // sign-extend the signed types (bool is 0 or 1)
        v.s = (is_unsigned (t) || t == T_BOOL || bits == 64) ? (int64_t) v.u
            : (int64_t) (v.u << (64 - bits)) >> (64 - bits) ;
    }
    return v ;
}

static void value_str (int t, val_t v, char *buf, size_t size)
{
    if (is_complex (t)) snprintf (buf, size, "(%.17g,%.17g)", v.re, v.im) ;
    else if (is_float (t)) snprintf (buf, size, "%.17g", v.re) ;
    else if (is_unsigned (t)) snprintf (buf, size, "%llu", (unsigned long long) v.u) ;
    else snprintf (buf, size, "%lld", (long long) v.s) ;
}

// how floating values compare
typedef struct
{
    double tol ;        // relative tolerance (0: exact)
    double scale ;      // the tolerance is relative to at least this
    bool signed_zero ;  // +0 and -0 differ (regression 4 and the inputs)
    double nan_id ;     // nonzero: NaN matches this value (the identity of a
                        // MIN or MAX over floating point: see c_rule)
    bool int_nan ;      // ... and in an integer C: 0 (NaN cast) matches
    uint64_t int_id ;   // the identity's cast (its bits)
    const void *nan_terms ;     // the call (call_t): an entry whose product
                                // terms are all NaN may differ (see c_rule)
}
rule_t ;

static bool real_same (double a, double b, const rule_t *r)
{
    if (r->nan_id != 0 && ((isnan (a) && b == r->nan_id) || (a == r->nan_id && isnan (b)))) return true ;
    if (isnan (a) || isnan (b)) return isnan (a) && isnan (b) ;
    if (a == b) return !r->signed_zero || signbit (a) == signbit (b) ;
    if (r->tol == 0 || isinf (a) || isinf (b)) return false ;
    return fabs (a - b) <= r->tol * fmax (r->scale, fmax (fabs (a), fabs (b))) ;
}

static bool value_same (int t, val_t a, val_t b, const rule_t *r)
{
    if (is_float (t)) return real_same (a.re, b.re, r) && real_same (a.im, b.im, r) ;
    if (r->int_nan && ((a.u == 0 && b.u == r->int_id) || (a.u == r->int_id && b.u == 0))) return true ;
    return a.u == b.u ;
}

// lo <= v <= hi for a real type; NaN bounds (every candidate NaN: MIN and
// MAX ignore NaN) admit only NaN, and a NaN value is a candidate otherwise
static bool value_between (int t, val_t v, val_t lo, val_t hi)
{
    if (is_float (t))
    {
        if (isnan (lo.re) || isnan (hi.re)) return isnan (v.re) ;
        return isnan (v.re) || (lo.re <= v.re && v.re <= hi.re) ;
    }
    if (is_unsigned (t)) return lo.u <= v.u && v.u <= hi.u ;
    return lo.s <= v.s && v.s <= hi.s ;
}

//------------------------------------------------------------------------------
// the values of a matrix in its own type (a vector is an n-by-1 matrix here)
//------------------------------------------------------------------------------

static GrB_Info extract_tuples (GrB_Matrix A, int t, GrB_Index *I, GrB_Index *J,
    void *X, GrB_Index *n)
{
    switch (t)
    {
        case T_BOOL:   return GrB_Matrix_extractTuples_BOOL   (I, J, X, n, A) ;
        case T_INT8:   return GrB_Matrix_extractTuples_INT8   (I, J, X, n, A) ;
        case T_INT16:  return GrB_Matrix_extractTuples_INT16  (I, J, X, n, A) ;
        case T_INT32:  return GrB_Matrix_extractTuples_INT32  (I, J, X, n, A) ;
        case T_INT64:  return GrB_Matrix_extractTuples_INT64  (I, J, X, n, A) ;
        case T_UINT8:  return GrB_Matrix_extractTuples_UINT8  (I, J, X, n, A) ;
        case T_UINT16: return GrB_Matrix_extractTuples_UINT16 (I, J, X, n, A) ;
        case T_UINT32: return GrB_Matrix_extractTuples_UINT32 (I, J, X, n, A) ;
        case T_UINT64: return GrB_Matrix_extractTuples_UINT64 (I, J, X, n, A) ;
        case T_FP32:   return GrB_Matrix_extractTuples_FP32   (I, J, X, n, A) ;
        case T_FP64:   return GrB_Matrix_extractTuples_FP64   (I, J, X, n, A) ;
        case T_FC32:   return GxB_Matrix_extractTuples_FC32   (I, J, X, n, A) ;
        case T_FC64:   return GxB_Matrix_extractTuples_FC64   (I, J, X, n, A) ;
        default:       return GrB_DOMAIN_MISMATCH ;
    }
}

//------------------------------------------------------------------------------
// the catalogue: built-in semirings and binary operators, from GraphBLAS.h
//------------------------------------------------------------------------------

typedef struct
{
    const char *name ;          // its first name in GraphBLAS.h
    GrB_Semiring s ;
    GrB_BinaryOp mult ;
    int x, y, z ;               // the multiply's types
    bool any ;                  // ANY monoid: any candidate is right
    bool pair ;                 // PAIR / ONEB multiply: every value is 1
    bool reassoc ;              // PLUS or TIMES over a floating z
    bool times ;                // TIMES over a floating z
    bool minmax ;               // MIN or MAX over a floating z
    bool min ;                  // ... MIN
    bool div ;                  // DIV / RDIV multiply: inexact terms
    bool positional ;           // FIRSTI, FIRSTJ, SECONDI, SECONDJ multiply
    int bounds ;                // ANY: 0 not tried, 1 lo/hi made, -1 none
    GrB_Semiring lo, hi ;       // ANY: MIN and MAX with the same multiply
}
sr_t ;

typedef struct
{
    const char *name ;
    GrB_BinaryOp op ;
    bool continuous ;           // PLUS, MINUS, TIMES, FIRST, ... of a floating type
    bool reveals_sign ;         // DIV, ATAN2, COPYSIGN: f(x, +0) != f(x, -0)
}
binop_t ;

static sr_t *srs ;
static int nsrs ;
static binop_t *binops ;
static int nbinops ;

// the k-th '_'-separated word of a name ("GxB_PLUS_TIMES_FP64": 1 is PLUS)
static bool name_word (const char *name, int k, char *word, size_t size)
{
    const char *p = name ;
    for (int w = 0 ; w < k && p != NULL ; w++) { p = strchr (p, '_') ; if (p) p++ ; }
    if (p == NULL) return false ;
    size_t n = strcspn (p, "_") ;
    if (n >= size) n = size - 1 ;
    memcpy (word, p, n) ;
    word [n] = '\0' ;
    return true ;
}

static bool word_in (const char *w, const char *const *list)
{
    for ( ; *list != NULL ; list++) if (strcmp (w, *list) == 0) return true ;
    return false ;
}

static int type_of_op (GrB_Info (*get) (GrB_Type *, GrB_BinaryOp), GrB_BinaryOp op)
{
    GrB_Type t = NULL ;
    return get (&t, op) == GrB_SUCCESS ? type_code (t) : -1 ;
}

static bool classify_semiring (sr_t *r)
{
    if (GxB_Semiring_multiply (&r->mult, r->s) != GrB_SUCCESS) return false ;
    r->x = type_of_op (GxB_BinaryOp_xtype, r->mult) ;
    r->y = type_of_op (GxB_BinaryOp_ytype, r->mult) ;
    r->z = type_of_op (GxB_BinaryOp_ztype, r->mult) ;
    if (r->x < 0 || r->y < 0 || r->z < 0) return false ;
    // built-in semirings are named <prefix>_<add>_<multiply>_...
    char add [32], mult [32] ;
    if (!name_word (r->name, 1, add, sizeof (add)) || !name_word (r->name, 2, mult, sizeof (mult))) return false ;
    const bool fz = is_float (r->z) ;
    r->any = strcmp (add, "ANY") == 0 ;
    r->pair = strcmp (mult, "PAIR") == 0 || strcmp (mult, "ONEB") == 0 ;
    r->times = fz && strcmp (add, "TIMES") == 0 ;
    r->reassoc = r->times || (fz && strcmp (add, "PLUS") == 0) ;
    r->minmax = fz && (strcmp (add, "MIN") == 0 || strcmp (add, "MAX") == 0) ;
    r->min = strcmp (add, "MIN") == 0 ;
    r->div = strcmp (mult, "DIV") == 0 || strcmp (mult, "RDIV") == 0 ;
    return true ;
}

static void classify_binop (binop_t *b)
{
    static const char *const cont [] = { "PLUS", "MINUS", "RMINUS", "TIMES",
        "FIRST", "SECOND", "MIN", "MAX", "ONEB", "PAIR", "ANY", NULL } ;
    static const char *const sign [] = { "DIV", "ATAN2", "COPYSIGN", NULL } ;
    char w [32], t [32] = "" ;
    name_word (b->name, 1, w, sizeof (w)) ;
    name_word (b->name, 2, t, sizeof (t)) ;
    const bool ft = t [0] == 'F' ;         // FP32, FP64, FC32, FC64
    b->continuous = ft && word_in (w, cont) ;
    b->reveals_sign = word_in (w, sign) ;
}

// accum candidates: no positional operator (SuiteSparse rejects them as
// accum) and not GxB_IGNORE_DUP (for build only)
static bool accum_candidate (const char *name)
{
    static const char *const skip [] = { "FIRSTI", "FIRSTJ", "SECONDI", "SECONDJ", "IGNORE", NULL } ;
    char w [32] ;
    if (!name_word (name, 1, w, sizeof (w))) return false ;
    for (const char *const *s = skip ; *s != NULL ; s++)
    {
        if (strncmp (w, *s, strlen (*s)) == 0) return false ;
    }
    return true ;
}

static int n_one_based ;        // semirings left out (1-based positional)

static bool catalogue_init (void)
{
    char path [1024] ;
    char *h = gcu_test_graphblas_h (GCU_GRAPHBLAS_H, path, sizeof (path)) ;
    CHECK (h != NULL, "GraphBLAS.h %d.%d not found (set GRBCUDA_GRAPHBLAS_H)",
        GxB_IMPLEMENTATION_MAJOR, GxB_IMPLEMENTATION_MINOR) ;
    if (h == NULL) return false ;
    gcu_test_strip_comments (h) ;
    void **objs ;
    char **names ;
    int n = gcu_test_declared_objects (h, "GrB_Semiring", &objs, &names) ;
    srs = calloc (n > 0 ? n : 1, sizeof (sr_t)) ;
    int one_based = 0 ;
    for (int k = 0 ; k < n ; k++)
    {
        sr_t *r = &srs [nsrs] ;
        r->name = names [k] ;
        r->s = objs [k] ;
        // 1-based positional multipliers (FIRSTI1, FIRSTJ1, SECONDI1,
        // SECONDJ1): SuiteSparse 7.4 itself gives the 0-based index in some
        // of its methods (e.g. A'*B with A hypersparse by column: 145 of
        // 91,104 entries wrong in a brute-force check, bench/RESULTS.md), so
        // it is no oracle for them; the GPU tests check them on inputs where
        // it is right
        char mult [32] = "" ;
        if (name_word (names [k], 2, mult, sizeof (mult)) && strlen (mult) > 2
            && (strcmp (mult + strlen (mult) - 2, "I1") == 0 || strcmp (mult + strlen (mult) - 2, "J1") == 0))
        {
            one_based++ ;
            free (names [k]) ;
            continue ;
        }
        if (classify_semiring (r))
        {
            r->positional = mult [0] != '\0' && (strncmp (mult, "FIRSTI", 6) == 0
                || strncmp (mult, "FIRSTJ", 6) == 0 || strncmp (mult, "SECONDI", 7) == 0
                || strncmp (mult, "SECONDJ", 7) == 0) ;
            nsrs++ ;
        }
        else { fprintf (stderr, "%s: not a built-in semiring, skipped\n", names [k]) ; free (names [k]) ; }
    }
    free (objs) ; free (names) ;
    n_one_based = one_based ;
    n = gcu_test_declared_objects (h, "GrB_BinaryOp", &objs, &names) ;
    binops = calloc (n > 0 ? n : 1, sizeof (binop_t)) ;
    for (int k = 0 ; k < n ; k++)
    {
        if (!accum_candidate (names [k])) { free (names [k]) ; continue ; }
        binop_t *b = &binops [nbinops++] ;
        b->name = names [k] ;
        b->op = objs [k] ;
        classify_binop (b) ;
    }
    free (objs) ; free (names) ;
    free (h) ;
    CHECK (nsrs > 1000 && nbinops > 300, "%s: only %d semirings and %d binary operators",
        path, nsrs, nbinops) ;
    return nsrs > 0 && nbinops > 0 ;
}

static void catalogue_free (void)
{
    for (int k = 0 ; k < nsrs ; k++)
    {
        free ((char *) srs [k].name) ;
        if (srs [k].lo != NULL) GrB_Semiring_free (&srs [k].lo) ;
        if (srs [k].hi != NULL) GrB_Semiring_free (&srs [k].hi) ;
    }
    for (int k = 0 ; k < nbinops ; k++) free ((char *) binops [k].name) ;
    free (srs) ; free (binops) ;
}

static const sr_t *sr_find (GrB_Semiring s)
{
    for (int k = 0 ; k < nsrs ; k++) if (srs [k].s == s) return &srs [k] ;
    return NULL ;
}

static int binop_find (GrB_BinaryOp op)
{
    for (int k = 0 ; k < nbinops ; k++) if (binops [k].op == op) return k ;
    return -1 ;
}

// ANY: the same multiply under MIN and MAX (LAND and LOR for BOOL), which
// bound every candidate; made at first use
// the MAX monoid of a real type (LOR for bool)
static GrB_Monoid max_monoid (int t)
{
    GrB_Monoid hi [T_FC32] = { GrB_LOR_MONOID_BOOL, GrB_MAX_MONOID_INT8,
        GrB_MAX_MONOID_INT16, GrB_MAX_MONOID_INT32, GrB_MAX_MONOID_INT64,
        GrB_MAX_MONOID_UINT8, GrB_MAX_MONOID_UINT16, GrB_MAX_MONOID_UINT32,
        GrB_MAX_MONOID_UINT64, GrB_MAX_MONOID_FP32, GrB_MAX_MONOID_FP64 } ;
    return hi [t] ;
}

static bool sr_bounds (sr_t *r)
{
    if (r->bounds != 0) return r->bounds > 0 ;
    GrB_Monoid lo [T_FC32] = { GrB_LAND_MONOID_BOOL, GrB_MIN_MONOID_INT8,
        GrB_MIN_MONOID_INT16, GrB_MIN_MONOID_INT32, GrB_MIN_MONOID_INT64,
        GrB_MIN_MONOID_UINT8, GrB_MIN_MONOID_UINT16, GrB_MIN_MONOID_UINT32,
        GrB_MIN_MONOID_UINT64, GrB_MIN_MONOID_FP32, GrB_MIN_MONOID_FP64 } ;
    r->bounds = -1 ;
    if (is_complex (r->z)) return false ;
    if (GrB_Semiring_new (&r->lo, lo [r->z], r->mult) == GrB_SUCCESS &&
        GrB_Semiring_new (&r->hi, max_monoid (r->z), r->mult) == GrB_SUCCESS) r->bounds = 1 ;
    return r->bounds > 0 ;
}

//------------------------------------------------------------------------------
// the run's pool of kernel signatures (a semiring and its operands' types)
//------------------------------------------------------------------------------

typedef struct { int sr, x, y ; } sig_t ;
static sig_t *pool ;
static int npool ;

static void pool_init (uint64_t seed, int size)
{
    uint64_t st = seed ^ 0x5DEECE66Dull ;
    gcu_rand (&st) ;
    npool = (size <= 0 || size > nsrs) ? nsrs : size ;
    pool = calloc (npool, sizeof (sig_t)) ;
    int *order = malloc (nsrs * sizeof (int)) ;
    for (int k = 0 ; k < nsrs ; k++) order [k] = k ;
    for (int k = 0 ; k < npool ; k++)
    {
        // a partial Fisher-Yates shuffle: npool distinct semirings
        int q = (size <= 0) ? k : k + (int) pick (&st, nsrs - k) ;
        int t = order [k] ; order [k] = order [q] ; order [q] = t ;
        const sr_t *r = &srs [order [k]] ;
        const bool own = size <= 0 || pick (&st, 10) < 6 ;
        pool [k] = (sig_t) { order [k], own ? r->x : (int) pick (&st, NT),
            own ? r->y : (int) pick (&st, NT) } ;
    }
    free (order) ;
}

//------------------------------------------------------------------------------
// operands: a recipe builds the same object every time
//------------------------------------------------------------------------------

typedef struct
{
    bool present, vector ;
    int type ;
    GrB_Index nrows, ncols ;    // as stored (a vector: n by 1)
    double density ;
    int64_t dense_row, dense_col ;      // a stored row / column made full (-1: none)
    int sparsity ;              // GxB_SPARSE, ..., GxB_AUTO_SPARSITY
    bool by_col, iso, pending ;
    int policy ;                // V_*
    uint64_t seed ;
    // explicit entries, cast from FP64 (regressions, self-test) when X != NULL
    GrB_Index n ;
    const GrB_Index *I, *J ;
    const double *X ;
}
recipe_t ;

static void obj_free (GrB_Matrix *A, bool vector)
{
    if (vector) GrB_Vector_free ((GrB_Vector *) A) ;
    else GrB_Matrix_free (A) ;
}

static GrB_Matrix obj_new (const recipe_t *r)
{
    GrB_Matrix A = NULL ;
    GrB_Type t = gcu_test_types [r->type] ;
    if (r->vector) GrB_Vector_new ((GrB_Vector *) &A, t, r->nrows) ;
    else GrB_Matrix_new (&A, t, r->nrows, r->ncols) ;
    return A ;
}

// orientation, sparsity, then (sometimes) pending work: tuples not yet
// assembled and a zombie, for the operation to finish
static void finish_storage (GrB_Matrix A, const recipe_t *r, uint64_t *st)
{
    if (r->vector)
    {
        GxB_Vector_Option_set ((GrB_Vector) A, GxB_SPARSITY_CONTROL, r->sparsity) ;
        GrB_Vector_wait ((GrB_Vector) A, GrB_MATERIALIZE) ;
    }
    else
    {
        if (r->by_col) GxB_Matrix_Option_set (A, GxB_FORMAT, GxB_BY_COL) ;
        GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, r->sparsity) ;
        GrB_Matrix_wait (A, GrB_MATERIALIZE) ;
    }
    if (!r->pending || r->nrows == 0 || r->ncols == 0) return ;
    uint8_t x [16] ;
    for (int k = 1 + (int) pick (st, 3) ; k > 0 ; k--)
    {
        // through FC64, which SuiteSparse casts to any type
        draw_value (r->type, r->policy, st, x) ;
        val_t v = value_read (r->type, x) ;
        double re = is_float (r->type) ? v.re : is_unsigned (r->type) ? (double) v.u : (double) v.s ;
        GxB_Matrix_setElement_FC64 (A, GxB_CMPLX (re, v.im), pick (st, r->nrows), pick (st, r->ncols)) ;
    }
    if (pick (st, 2)) GrB_Matrix_removeElement (A, pick (st, r->nrows), pick (st, r->ncols)) ;
}

// random entries, packed (GxB_Matrix_pack_CSR, GxB_Vector_pack_CSC): iso
// when asked, whatever the values
static GrB_Matrix build_random (const recipe_t *r)
{
    uint64_t st = r->seed ;
    const GrB_Index nr = r->nrows, nc = r->ncols ;
    const size_t ts = tsize [r->type] ;
    GrB_Index *Ap = malloc ((nr + 1) * sizeof (GrB_Index)) ;
    GrB_Index *Aj = malloc ((nr * nc + 1) * sizeof (GrB_Index)) ;
    GrB_Index nz = 0 ;
    for (GrB_Index i = 0 ; i < nr ; i++)
    {
        Ap [i] = nz ;
        for (GrB_Index j = 0 ; j < nc ; j++)
        {
            bool dense = (int64_t) i == r->dense_row || (int64_t) j == r->dense_col ;
            // a vector's entries are its row indices
            if (dense || gcu_rand01 (&st) < r->density) Aj [nz++] = r->vector ? i : j ;
        }
    }
    Ap [nr] = nz ;
    const bool iso = r->iso && nz > 0 ;
    const GrB_Index nx = iso ? 1 : nz ;
    uint8_t *Ax = malloc ((nx + 1) * ts) ;
    for (GrB_Index p = 0 ; p < nx ; p++) draw_value (r->type, r->policy, &st, Ax + p * ts) ;
    GrB_Matrix A = obj_new (r) ;
    GrB_Info info ;
    if (r->vector)
    {
        info = GxB_Vector_pack_CSC ((GrB_Vector) A, &Aj, (void **) &Ax,
            (nz + 1) * sizeof (GrB_Index), (nx + 1) * ts, iso, nz, false, NULL) ;
        free (Ap) ;
    }
    else
    {
        info = GxB_Matrix_pack_CSR (A, &Ap, &Aj, (void **) &Ax, (nr + 1) * sizeof (GrB_Index),
            (nr * nc + 1) * sizeof (GrB_Index), (nx + 1) * ts, iso, false, NULL) ;
    }
    if (info != GrB_SUCCESS)
    {
        fprintf (stderr, "pack failed (%d)\n", (int) info) ;
        free (Ap) ; free (Aj) ; free (Ax) ;
        obj_free (&A, r->vector) ;
        return NULL ;
    }
    finish_storage (A, r, &st) ;
    return A ;
}

static GrB_Matrix build_explicit (const recipe_t *r)
{
    GrB_Matrix A = obj_new (r) ;
    GrB_Info info = r->vector
        ? GrB_Vector_build_FP64 ((GrB_Vector) A, r->I, r->X, r->n, GrB_SECOND_FP64)
        : GrB_Matrix_build_FP64 (A, r->I, r->J, r->X, r->n, GrB_SECOND_FP64) ;
    if (info != GrB_SUCCESS) { fprintf (stderr, "build failed (%d)\n", (int) info) ; obj_free (&A, r->vector) ; return NULL ; }
    uint64_t st = r->seed ;
    finish_storage (A, r, &st) ;
    return A ;
}

static GrB_Matrix build_operand (const recipe_t *r)
{
    if (!r->present) return NULL ;
    return r->X != NULL ? build_explicit (r) : build_random (r) ;
}

//------------------------------------------------------------------------------
// a call: what it does and how each operand is made
//------------------------------------------------------------------------------

enum { MASK_NONE, MASK_VALUED, MASK_STRUCT, MASK_COMP, MASK_COMP_STRUCT,
    MASK_NULL_COMP, MASK_NULL_COMP_STRUCT, MASK_NULL_STRUCT, NMASKS } ;
static const char *const mask_name [NMASKS] = { "none", "valued", "structural",
    "complemented", "complemented structural", "NULL with GrB_COMP",
    "NULL with GrB_COMP+GrB_STRUCTURE", "NULL with GrB_STRUCTURE" } ;
static bool mask_comp (int m) { return m == MASK_COMP || m == MASK_COMP_STRUCT || m == MASK_NULL_COMP || m == MASK_NULL_COMP_STRUCT ; }
static bool mask_struct (int m) { return m == MASK_STRUCT || m == MASK_COMP_STRUCT || m == MASK_NULL_COMP_STRUCT || m == MASK_NULL_STRUCT ; }
static bool mask_object (int m) { return m >= MASK_VALUED && m <= MASK_COMP_STRUCT ; }

typedef struct
{
    int op ;
    sr_t *sr ;
    int accum ;                 // index in binops, -1: none
    int mask ;                  // MASK_*
    bool tran0, tran1, replace ;
    bool signed_zero ;          // compare the sign of zero in C (regression 4)
    GrB_Index m, k, n ;         // C is m x n, the product's inner dimension k
    recipe_t x, y, mk, c ;      // X, Y, M, C
}
call_t ;

static GrB_Descriptor make_desc (const call_t *c, bool transposes_only)
{
    GrB_Descriptor d = NULL ;
    GrB_Descriptor_new (&d) ;
    if (c->tran0) GrB_Descriptor_set (d, GrB_INP0, GrB_TRAN) ;
    if (c->tran1) GrB_Descriptor_set (d, GrB_INP1, GrB_TRAN) ;
    if (transposes_only) return d ;
    // GrB_COMP and GrB_STRUCTURE one at a time (GrB_COMP_STRUCTURE is their sum)
    if (mask_comp (c->mask)) GrB_Descriptor_set (d, GrB_MASK, GrB_COMP) ;
    if (mask_struct (c->mask)) GrB_Descriptor_set (d, GrB_MASK, GrB_STRUCTURE) ;
    if (c->replace) GrB_Descriptor_set (d, GrB_OUTP, GrB_REPLACE) ;
    return d ;
}

// the names of X and Y in the operation's own terms
static const char *operand_name (int op, int which)
{
    static const char *const names [NOPS][2] = { { "A", "B" }, { "A", "u" }, { "u", "A" } } ;
    return names [op][which] ;
}

static const char *sparsity_name (int s)
{
    switch (s)
    {
        case GxB_HYPERSPARSE: return "hyper" ;
        case GxB_SPARSE: return "sparse" ;
        case GxB_BITMAP: return "bitmap" ;
        case GxB_FULL: return "full" ;
        default: return "auto" ;
    }
}

static int recipe_str (const recipe_t *r, char *buf, size_t size)
{
    if (!r->present) return snprintf (buf, size, "none") ;
    char extra [64] = "" ;
    if (r->dense_row >= 0) snprintf (extra, sizeof (extra), " dense row %lld", (long long) r->dense_row) ;
    if (r->dense_col >= 0) snprintf (extra, sizeof (extra), " dense col %lld", (long long) r->dense_col) ;
    return snprintf (buf, size, "%s %llux%llu %s%s%s%s%s d=%g%s", gcu_test_type_names [r->type],
        (unsigned long long) r->nrows, (unsigned long long) r->ncols, sparsity_name (r->sparsity),
        r->vector ? "" : (r->by_col ? "/col" : "/row"), r->iso ? " iso" : "",
        r->pending ? " pending" : "", r->X != NULL ? " explicit" : "", r->density, extra) ;
}

// everything about a call on one line
static void describe (const call_t *c, char *buf, size_t size)
{
    char x [160], y [160], m [160], cc [160] ;
    recipe_str (&c->x, x, sizeof (x)) ;
    recipe_str (&c->y, y, sizeof (y)) ;
    recipe_str (&c->mk, m, sizeof (m)) ;
    recipe_str (&c->c, cc, sizeof (cc)) ;
    snprintf (buf, size, "%s %s (x %s, y %s, z %s) C<M>=%s*%s %llux%llux%llu; %s: %s%s; "
        "%s: %s%s; M: %s; C: %s; mask %s%s; accum %s",
        op_name [c->op], c->sr->name, gcu_test_type_names [c->sr->x],
        gcu_test_type_names [c->sr->y], gcu_test_type_names [c->sr->z],
        operand_name (c->op, 0), operand_name (c->op, 1),
        (unsigned long long) c->m, (unsigned long long) c->k, (unsigned long long) c->n,
        operand_name (c->op, 0), x, c->tran0 ? " (transposed: GrB_INP0)" : "",
        operand_name (c->op, 1), y, c->tran1 ? " (transposed: GrB_INP1)" : "",
        m, cc, mask_name [c->mask], c->replace ? ", GrB_REPLACE" : "",
        c->accum >= 0 ? binops [c->accum].name : "none") ;
}

//------------------------------------------------------------------------------
// what differed
//------------------------------------------------------------------------------

typedef struct { char text [2048] ; int n ; } diff_t ;

static void diff_add (diff_t *d, const char *fmt, ...) __attribute__ ((format (printf, 2, 3))) ;
static void diff_add (diff_t *d, const char *fmt, ...)
{
    size_t used = strlen (d->text) ;
    if (d->n++ > 0 && used + 2 < sizeof (d->text)) { strcat (d->text, "; ") ; used += 2 ; }
    va_list ap ;
    va_start (ap, fmt) ;
    vsnprintf (d->text + used, sizeof (d->text) - used, fmt, ap) ;
    va_end (ap) ;
}

static int iso_notes ;          // C's iso status differs: counted, not a failure
static int status_notes ;       // C's sparsity status differs: counted, not a
                                // failure (see compare_meta)
static char status_example [256] ;

//------------------------------------------------------------------------------
// snapshots: what a program can observe of an object
//------------------------------------------------------------------------------

typedef struct { GrB_Index i, j, p ; } ijp_t ;

typedef struct
{
    bool ok ;
    int type, status, format ;
    bool iso ;
    GrB_Index nrows, ncols, n ;
    ijp_t *e ;                  // the entries by (i, j); p: where in X
    uint8_t *X ;
}
snap_t ;

static int cmp_ijp (const void *a, const void *b)
{
    const ijp_t *x = a, *y = b ;
    if (x->i != y->i) return x->i < y->i ? -1 : 1 ;
    if (x->j != y->j) return x->j < y->j ? -1 : 1 ;
    return 0 ;
}

// status, format and iso first: reading the entries finishes pending work
static void snap_take (snap_t *s, GrB_Matrix A)
{
    memset (s, 0, sizeof (*s)) ;
    GrB_Type type = NULL ;
    GxB_Format_Value f = GxB_BY_ROW ;
    if (A == NULL || GxB_Matrix_type (&type, A) != GrB_SUCCESS) return ;
    s->type = type_code (type) ;
    if (s->type < 0) return ;
    GxB_Matrix_Option_get (A, GxB_SPARSITY_STATUS, &s->status) ;
    GxB_Matrix_Option_get (A, GxB_FORMAT, &f) ;
    s->format = (int) f ;
    GxB_Matrix_iso (&s->iso, A) ;
    GrB_Index nv = 0 ;
    GrB_Matrix_nrows (&s->nrows, A) ;
    GrB_Matrix_ncols (&s->ncols, A) ;
    GrB_Matrix_nvals (&nv, A) ;
    GrB_Index *I = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    s->X = malloc ((nv + 1) * tsize [s->type]) ;
    s->n = nv ;
    s->ok = extract_tuples (A, s->type, I, J, s->X, &s->n) == GrB_SUCCESS ;
    s->e = malloc ((s->n + 1) * sizeof (ijp_t)) ;
    for (GrB_Index p = 0 ; p < s->n ; p++) s->e [p] = (ijp_t) { I [p], J [p], p } ;
    qsort (s->e, s->n, sizeof (ijp_t), cmp_ijp) ;
    free (I) ; free (J) ;
}

static void snap_free (snap_t *s)
{
    free (s->e) ; free (s->X) ;
    memset (s, 0, sizeof (*s)) ;
}

static val_t snap_value (const snap_t *s, GrB_Index q)
{
    return value_read (s->type, s->X + s->e [q].p * tsize [s->type]) ;
}

static bool snap_has (const snap_t *s, GrB_Index i, GrB_Index j)
{
    ijp_t key = { i, j, 0 } ;
    return s != NULL && s->n > 0 && bsearch (&key, s->e, s->n, sizeof (ijp_t), cmp_ijp) != NULL ;
}

// type, dimensions, sparsity status and format (iso: a note); false if the
// two cannot be compared further
static bool compare_meta (diff_t *d, const char *what, const snap_t *a, const snap_t *b)
{
    if (!a->ok || !b->ok)
    {
        diff_add (d, "%s could not be read (grbcuda's %s, SuiteSparse's %s)", what,
            a->ok ? "ok" : "invalid", b->ok ? "ok" : "invalid") ;
        return false ;
    }
    if (a->type != b->type || a->nrows != b->nrows || a->ncols != b->ncols)
    {
        diff_add (d, "%s type/dimensions %s %llux%llu vs %s %llux%llu", what,
            gcu_test_type_names [a->type], (unsigned long long) a->nrows,
            (unsigned long long) a->ncols, gcu_test_type_names [b->type],
            (unsigned long long) b->nrows, (unsigned long long) b->ncols) ;
        return false ;
    }
    if (a->status != b->status && strcmp (what, "C") == 0)
    {
        // C's storage after the call is SuiteSparse's choice of method (its
        // bitmap saxpy or dot for a dense-ish output, then a conform with
        // hysteresis); grbcuda's result is conformed from sparse under C's
        // control. Same content, same format: a note, not a difference
        // (issue 18 asks for the status too: open, see bench/RESULTS.md)
        if (status_notes++ == 0)
            snprintf (status_example, sizeof (status_example), "%s vs %s", sparsity_name (a->status),
                sparsity_name (b->status)) ;
    }
    else if (a->status != b->status)
    {
        diff_add (d, "%s sparsity status %s vs %s", what, sparsity_name (a->status), sparsity_name (b->status)) ;
    }
    if (a->format != b->format)
    {
        diff_add (d, "%s format by %s vs by %s", what, a->format == GxB_BY_COL ? "col" : "row",
            b->format == GxB_BY_COL ? "col" : "row") ;
    }
    if (a->iso != b->iso) iso_notes++ ;
    return true ;
}

// false, and *at the first entry only one of them has, if the patterns differ
static bool compare_pattern (diff_t *d, const char *what, const snap_t *a, const snap_t *b,
    ijp_t *at)
{
    GrB_Index p = 0 ;
    while (p < a->n && p < b->n && cmp_ijp (&a->e [p], &b->e [p]) == 0) p++ ;
    if (p == a->n && p == b->n) return true ;
    const bool in_a = p < a->n && (p == b->n || cmp_ijp (&a->e [p], &b->e [p]) < 0) ;
    const ijp_t *e = in_a ? &a->e [p] : &b->e [p] ;
    char v [96] ;
    value_str (a->type, in_a ? snap_value (a, p) : snap_value (b, p), v, sizeof (v)) ;
    diff_add (d, "%s pattern: %llu vs %llu entries, (%llu,%llu) = %s only in %s's", what,
        (unsigned long long) a->n, (unsigned long long) b->n, (unsigned long long) e->i,
        (unsigned long long) e->j, v, in_a ? "grbcuda" : "SuiteSparse") ;
    if (at != NULL) *at = *e ;
    return false ;
}

static GrB_Info read_entry (bool vec, double *x, GrB_Matrix C, GrB_Index i, GrB_Index j)
{
    return vec ? GrB_Vector_extractElement_FP64 (x, (GrB_Vector) C, i)
               : GrB_Matrix_extractElement_FP64 (x, C, i, j) ;
}

// one term's value, mult (X(xi,xj), Y(yi,yj)) as SuiteSparse computes it
// (1x1 extracts, eWiseMult), read as FP64; false if either has no entry
static bool term_value (const call_t *c, GrB_Matrix X, GrB_Matrix Y, GrB_Index xi,
    GrB_Index xj, GrB_Index yi, GrB_Index yj, double *x, double *y, double *z)
{
    if (GrB_Matrix_extractElement_FP64 (x, X, xi, xj) != GrB_SUCCESS
        || GrB_Matrix_extractElement_FP64 (y, Y, yi, yj) != GrB_SUCCESS) return false ;
    GrB_Matrix Xs = NULL, Ys = NULL, Zs = NULL ;
    GrB_Type xt, yt ;
    *z = NAN ;
    if (GxB_Matrix_type (&xt, X) == GrB_SUCCESS && GxB_Matrix_type (&yt, Y) == GrB_SUCCESS
        && GrB_Matrix_new (&Xs, xt, 1, 1) == GrB_SUCCESS && GrB_Matrix_new (&Ys, yt, 1, 1) == GrB_SUCCESS
        && GrB_Matrix_new (&Zs, gcu_test_types [c->sr->z], 1, 1) == GrB_SUCCESS
        && GrB_Matrix_extract (Xs, NULL, NULL, X, &xi, 1, &xj, 1, NULL) == GrB_SUCCESS
        && GrB_Matrix_extract (Ys, NULL, NULL, Y, &yi, 1, &yj, 1, NULL) == GrB_SUCCESS
        && GrB_Matrix_eWiseMult_BinaryOp (Zs, NULL, NULL, c->sr->mult, Xs, Ys, NULL) == GrB_SUCCESS)
        (void) GrB_Matrix_extractElement_FP64 (z, Zs, 0, 0) ;
    GrB_Matrix_free (&Xs) ; GrB_Matrix_free (&Ys) ; GrB_Matrix_free (&Zs) ;
    return true ;
}

// the product's terms at C(i,j): X(i,k) and Y(k,j) in the operation's own
// terms (transposes applied, a vector as its one column), for the k where
// both have an entry; their count, how many of the products are NaN
// (*nnan), and the first 6 as text when t != NULL
static int product_terms (const call_t *c, GrB_Index i, GrB_Index j, int *nnan, char *t,
    size_t tsize)
{
    GrB_Matrix X = build_operand (&c->x), Y = build_operand (&c->y) ;
    int n = 0, len = 0 ;
    *nnan = 0 ;
    if (t != NULL) t [0] = '\0' ;
    for (GrB_Index k = 0 ; k < c->k && X != NULL && Y != NULL ; k++)
    {
        double x, y, z ;
        const GrB_Index xi = c->x.vector ? k : (c->tran0 ? k : i) ;
        const GrB_Index xj = c->x.vector ? 0 : (c->tran0 ? i : k) ;
        const GrB_Index yi = c->y.vector ? k : (c->tran1 ? j : k) ;
        const GrB_Index yj = c->y.vector ? 0 : (c->tran1 ? k : j) ;
        if (!term_value (c, X, Y, xi, xj, yi, yj, &x, &y, &z)) continue ;
        if (isnan (z)) (*nnan)++ ;
        if (t != NULL && n < 6 && len < (int) tsize - 80)
            len += snprintf (t + len, tsize - len, "%sk %llu: %.9g, %.9g -> %.9g", n > 0 ? "; " : "",
                (unsigned long long) k, x, y, z) ;
        n++ ;
    }
    obj_free (&X, c->x.vector) ;
    obj_free (&Y, c->y.vector) ;
    return n ;
}

// NaN against the MIN or MAX monoid's identity, cast to C's type (see c_rule)
static void nan_rule (const call_t *c, rule_t *r)
{
    if (is_float (c->c.type)) r->nan_id = c->sr->min ? INFINITY : -INFINITY ;
    else if (c->c.type != T_BOOL)
    {
        const int bits = 8 * (int) tsize [c->c.type] ;
        const uint64_t ones = (bits == 64) ? ~(uint64_t) 0 : ((uint64_t) 1 << bits) - 1 ;
        r->int_nan = true ;
        if (is_unsigned (c->c.type)) r->int_id = c->sr->min ? ones : 0 ;
        else r->int_id = c->sr->min ? (ones >> 1) : ((uint64_t) 1 << (bits - 1)) ;
    }
}

// an entry that differs only as NaN against the monoid's identity (cast to
// C's type), whose product terms are all NaN, and where T's value reached C
// unchanged but for the cast (no accum, or C had no entry there): SuiteSparse
// folds the identity in or not, by method. Where the accum met an old entry,
// accum (c, NaN) against accum (c, identity): either is right, not compared.
static long nan_term_notes ;
static bool nan_terms_explain (const call_t *c, int t, GrB_Index i, GrB_Index j, val_t x, val_t y)
{
    int nnan ;
    const int n = product_terms (c, i, j, &nnan, NULL, 0) ;
    if (n == 0 || nnan != n) return false ;
    double v ;
    GrB_Matrix C0 = build_operand (&c->c) ;
    const bool had = C0 != NULL && read_entry (c->c.vector, &v, C0, i, c->c.vector ? 0 : j) == GrB_SUCCESS ;
    obj_free (&C0, c->c.vector) ;
    rule_t r = { 0, 1, false, 0, false, 0, NULL } ;
    nan_rule (c, &r) ;
    const bool same = (had && c->accum >= 0) || value_same (t, x, y, &r) ;
    if (same) nan_term_notes++ ;
    return same ;
}

static void entry_terms (diff_t *d, const call_t *c, const ijp_t *at)
{
    char t [400] ;
    int nnan ;
    const int n = product_terms (c, at->i, at->j, &nnan, t, sizeof (t)) ;
    diff_add (d, "terms (x, y -> product): %d, %d NaN%s%s", n, nnan, n > 0 ? ": " : "", t) ;
}

// what the mask and the old C hold at an entry (as FP64), to read a
// difference of pattern by
static void entry_context (diff_t *d, const call_t *c, GrB_Matrix M, const ijp_t *at)
{
    char m [64] = "no entry", c0 [64] = "no entry" ;
    double v = 0 ;
    if (M == NULL) snprintf (m, sizeof (m), "no mask") ;
    else if (GrB_Matrix_extractElement_FP64 (&v, M, at->i, at->j) == GrB_SUCCESS) snprintf (m, sizeof (m), "%.17g", v) ;
    GrB_Matrix C0 = build_operand (&c->c) ;
    if (GrB_Matrix_extractElement_FP64 (&v, C0, at->i, at->j) == GrB_SUCCESS) snprintf (c0, sizeof (c0), "%.17g", v) ;
    obj_free (&C0, c->c.vector) ;
    diff_add (d, "there M: %s, C before: %s", m, c0) ;
    entry_terms (d, c, at) ;
}

// the values of two snapshots of one pattern, except where skip has an entry;
// false, and *at the first entry that differs, if one does
static bool compare_values (diff_t *d, const char *what, const snap_t *a, const snap_t *b,
    const rule_t *rule, const snap_t *skip, ijp_t *at)
{
    for (GrB_Index q = 0 ; q < a->n ; q++)
    {
        if (skip != NULL && snap_has (skip, a->e [q].i, a->e [q].j)) continue ;
        val_t x = snap_value (a, q), y = snap_value (b, q) ;
        if (value_same (a->type, x, y, rule)) continue ;
        if (rule != NULL && rule->nan_terms != NULL && nan_terms_explain (rule->nan_terms,
            a->type, a->e [q].i, a->e [q].j, x, y)) continue ;
        char sx [96], sy [96] ;
        value_str (a->type, x, sx, sizeof (sx)) ;
        value_str (b->type, y, sy, sizeof (sy)) ;
        diff_add (d, "%s(%llu,%llu): grbcuda %s, SuiteSparse %s", what,
            (unsigned long long) a->e [q].i, (unsigned long long) a->e [q].j, sx, sy) ;
        if (at != NULL) *at = a->e [q] ;
        return false ;
    }
    return true ;
}

// an input: unchanged by either call, so both copies must still agree
static void compare_input (diff_t *d, const char *what, GrB_Matrix a, GrB_Matrix b)
{
    if (a == NULL && b == NULL) return ;
    snap_t sa, sb ;
    snap_take (&sa, a) ;
    snap_take (&sb, b) ;
    const rule_t exact = { 0, 1, true, 0 } ;
    char label [64] ;
    snprintf (label, sizeof (label), "input %s", what) ;
    if (compare_meta (d, label, &sa, &sb) && compare_pattern (d, label, &sa, &sb, NULL))
    {
        compare_values (d, label, &sa, &sb, &exact, NULL, NULL) ;
    }
    snap_free (&sa) ; snap_free (&sb) ;
}

//------------------------------------------------------------------------------
// running one call both ways
//------------------------------------------------------------------------------

typedef struct { GrB_Matrix X, Y, M, C ; } side_t ;
typedef struct { GrB_Info info ; bool err ; } outcome_t ;

static bool side_build (side_t *s, const call_t *c)
{
    s->X = build_operand (&c->x) ;
    s->Y = build_operand (&c->y) ;
    s->M = build_operand (&c->mk) ;
    s->C = build_operand (&c->c) ;
    return s->X != NULL && s->Y != NULL && s->C != NULL && (s->M != NULL || !c->mk.present) ;
}

static void side_free (side_t *s, const call_t *c)
{
    obj_free (&s->X, c->x.vector) ;
    obj_free (&s->Y, c->y.vector) ;
    obj_free (&s->M, c->mk.vector) ;
    obj_free (&s->C, c->c.vector) ;
}

static bool has_error (GrB_Matrix C, bool vector)
{
    const char *msg = NULL ;
    if (vector) GrB_Vector_error (&msg, (GrB_Vector) C) ;
    else GrB_Matrix_error (&msg, C) ;
    return msg != NULL && msg [0] != '\0' ;
}

// a perturbation of grbcuda's side (self-test) or a check of SuiteSparse's
// (regressions), run after both calls, before the comparison
typedef struct
{
    const call_t *c ;
    side_t *s1, *s2 ;
    outcome_t *o1, *o2 ;
}
hook_ctx ;
typedef void (*hook_f) (hook_ctx *h) ;

// where the grbcuda call went
typedef struct { bool gpu ; int family ; int reason ; GrB_Info info ; } path_t ;
static const char *fam_name [NOPS][16] ;
static int fam_n [NOPS] ;

typedef struct { grbcuda_op_stats s ; uint64_t runs [16] ; } mark_t ;

static void path_mark (int op, mark_t *m)
{
    memset (m, 0, sizeof (*m)) ;
    grbcuda_stats_get (op_name [op], &m->s) ;
    for (int f = 0 ; f < fam_n [op] ; f++) m->runs [f] = gcu_family_runs (fam_name [op][f]) ;
}

static path_t path_since (int op, const mark_t *before)
{
    mark_t now ;
    path_mark (op, &now) ;
    path_t p = { false, -1, -1, GrB_SUCCESS } ;
    for (int f = 0 ; f < fam_n [op] ; f++)
    {
        if (now.runs [f] != before->runs [f]) { p.gpu = true ; p.family = f ; }
    }
    for (int r = 1 ; r < GRBCUDA_NREASONS ; r++)
    {
        if (now.s.reason [r] != before->s.reason [r]) p.reason = r ;
    }
    return p ;
}

// ANY (not PAIR): the pattern is exact; the values lie between SuiteSparse's
// MIN and MAX of the same call where C holds the monoid's type and nothing
// accumulates, else compare only where the product has no entry
static void compare_any (diff_t *d, const call_t *c, const side_t *s2, const snap_t *c1,
    const snap_t *c2, GrB_Descriptor desc)
{
    sr_t *sr = c->sr ;
    if (c->accum < 0 && c->c.type == sr->z && sr_bounds (sr))
    {
        GrB_Matrix lo = build_operand (&c->c), hi = build_operand (&c->c) ;
        GrB_Info ilo = call_op (c->op, true, lo, s2->M, NULL, sr->lo, s2->X, s2->Y, desc) ;
        GrB_Info ihi = call_op (c->op, true, hi, s2->M, NULL, sr->hi, s2->X, s2->Y, desc) ;
        snap_t L, H ;
        snap_take (&L, lo) ;
        snap_take (&H, hi) ;
        if (ilo != GrB_SUCCESS || ihi != GrB_SUCCESS || L.n != c1->n || H.n != c1->n)
        {
            diff_add (d, "C: the MIN/MAX bounds of the ANY monoid failed (%d, %d)", (int) ilo, (int) ihi) ;
        }
        for (GrB_Index q = 0 ; q < c1->n && L.n == c1->n && H.n == c1->n ; q++)
        {
            if (cmp_ijp (&L.e [q], &c1->e [q]) != 0 || cmp_ijp (&H.e [q], &c1->e [q]) != 0)
            {
                diff_add (d, "C: the MIN/MAX bounds of the ANY monoid have another pattern") ;
                break ;
            }
            val_t v = snap_value (c1, q), l = snap_value (&L, q), h = snap_value (&H, q) ;
            if (value_between (c1->type, v, l, h)) continue ;
            char sv [96], sl [96], sh [96] ;
            value_str (c1->type, v, sv, sizeof (sv)) ;
            value_str (c1->type, l, sl, sizeof (sl)) ;
            value_str (c1->type, h, sh, sizeof (sh)) ;
            diff_add (d, "C(%llu,%llu): grbcuda %s, not between SuiteSparse's MIN %s and MAX %s",
                (unsigned long long) c1->e [q].i, (unsigned long long) c1->e [q].j, sv, sl, sh) ;
            break ;
        }
        snap_free (&L) ; snap_free (&H) ;
        obj_free (&lo, c->c.vector) ; obj_free (&hi, c->c.vector) ;
        return ;
    }
    // the product's pattern: the same operands through ANY_PAIR, no mask
    GrB_Matrix P = NULL ;
    GrB_Descriptor tdesc = make_desc (c, true) ;
    recipe_t pr = c->c ;
    pr.type = T_BOOL ;
    P = obj_new (&pr) ;
    GrB_Info info = call_op (c->op, true, P, NULL, NULL, GxB_ANY_PAIR_BOOL, s2->X, s2->Y, tdesc) ;
    snap_t SP ;
    snap_take (&SP, P) ;
    const rule_t exact = { 0, 1, c->signed_zero, 0 } ;
    if (info != GrB_SUCCESS) diff_add (d, "C: the product's pattern failed (%d)", (int) info) ;
    else compare_values (d, "C (outside the product)", c1, c2, &exact, &SP, NULL) ;
    snap_free (&SP) ;
    obj_free (&P, c->c.vector) ;
    GrB_Descriptor_free (&tdesc) ;
}

// the rule for C's values
static rule_t c_rule (const call_t *c)
{
    rule_t r = { 0, 1, c->signed_zero, 0, false, 0, NULL } ;
    // an entry whose terms are all NaN: NaN where SuiteSparse starts from
    // the first term (its sparse methods, and grbcuda), the monoid's identity
    // where it starts from the identity (some of its dense and dot methods:
    // fmax (-inf, NaN) is -inf); either, where nothing transforms the value
    // but a cast: into an integer C, 0 (NaN's cast) or the identity's
    // (seed 9110298821665349585 case 8925: MAX_FIRST_FP64 into INT32,
    // SuiteSparse -2147483648). With no accum every entry is read so; with
    // one (or into a complex C), only an entry whose terms are all NaN
    // (compare_values asks nan_terms_explain: seed 8343774798595205968 cases
    // 237 and 14708, MIN_FIRST_FP32 of one NaN term, SuiteSparse +inf)
    if (c->sr->minmax && c->accum < 0 && !is_complex (c->c.type)) nan_rule (c, &r) ;
    if (c->sr->minmax) r.nan_terms = c ;
    if (!c->sr->reassoc) return r ;
    const bool single = is_single (c->sr->z) || is_single (c->c.type) ;
    r.tol = single ? 1e-5 : 1e-12 ;
    // the terms' rounding adds up: relative to their count at least
    r.scale = c->k > 1 ? (double) c->k : 1 ;
    return r ;
}

// C's largest value through GrB_reduce to a GrB_Scalar (and, for a vector,
// to a C double as well: compared only when C has entries, because
// SuiteSparse 7.4 reduces an empty iso bitmap vector to its stale iso value
// instead of the monoid's identity; seed 10643501525137284519 case 2203,
// reproduced with SuiteSparse alone: w INT8 iso 16 emptied by a masked
// assign, GrB_Vector_reduce_INT8 with MAX gives 16, not -128)
static GrB_Info read_max (bool vec, int t, GrB_Matrix C, GrB_Scalar a, double *x2)
{
    if (!vec) return GrB_Matrix_reduce_Monoid_Scalar (a, NULL, max_monoid (t), C, NULL) ;
    GrB_Info info = GrB_Vector_reduce_Monoid_Scalar (a, NULL, max_monoid (t), (GrB_Vector) C, NULL) ;
    if (info == GrB_SUCCESS) info = GrB_Vector_reduce_FP64 (x2, NULL, max_monoid (t), (GrB_Vector) C, NULL) ;
    return info ;
}

// What a program can read of C without its write-back, where grbcuda left
// C's new value on the device (issue 19): its entry count (nvals), single
// entries (extractElement: a few bytes from the device) and its largest
// value (GrB_reduce to a GrB_Scalar, and of a vector to a C double: on the
// device), against the same reads of SuiteSparse's C. Run before anything
// reads C whole (which writes it back). Values compare under C's rule, and
// not at all where the rule lets NaN match something else (an all-NaN
// MIN/MAX entry) or the semiring is ANY.
static void compare_reads (diff_t *d, const call_t *c, side_t *s1, side_t *s2)
{
    const int t = c->c.type ;
    const bool vec = c->c.vector ;
    if (is_complex (t)) return ;
    GrB_Matrix C1 = s1->C, C2 = s2->C ;
    GrB_Index nr = 0, nc = 1, n1 = 0, n2 = 0 ;
    GrB_Info i1 = vec ? GrB_Vector_nvals (&n1, (GrB_Vector) C1) : GrB_Matrix_nvals (&n1, C1) ;
    GrB_Info i2 = vec ? GrB_Vector_nvals (&n2, (GrB_Vector) C2) : GrB_Matrix_nvals (&n2, C2) ;
    if (i1 != i2 || n1 != n2)
        diff_add (d, "nvals (C) before C is read: info %d, %llu vs info %d, %llu", (int) i1,
            (unsigned long long) n1, (int) i2, (unsigned long long) n2) ;
    if (i2 != GrB_SUCCESS || (vec ? GrB_Vector_size (&nr, (GrB_Vector) C2)
        : (GrB_Matrix_nrows (&nr, C2) | GrB_Matrix_ncols (&nc, C2))) != GrB_SUCCESS
        || nr == 0 || nc == 0) return ;
    const rule_t r = c_rule (c) ;
    const bool values = !c->sr->any && r.nan_id == 0 && !r.int_nan ;
    // positions: some of SuiteSparse's entries, and some anywhere
    GrB_Index I [12], J [12], np = 0 ;
    GrB_Index *EI = malloc ((n2 + 1) * sizeof (GrB_Index)), *EJ = malloc ((n2 + 1) * sizeof (GrB_Index)) ;
    double *EX = malloc ((n2 + 1) * sizeof (double)) ;
    GrB_Index got = n2 ;
    if (EI != NULL && EJ != NULL && EX != NULL && n2 > 0
        && (vec ? GrB_Vector_extractTuples_FP64 (EI, EX, &got, (GrB_Vector) C2)
                : GrB_Matrix_extractTuples_FP64 (EI, EJ, EX, &got, C2)) == GrB_SUCCESS)
    {
        for (GrB_Index k = 0 ; k < 6 && k < got ; k++)
        {
            const GrB_Index q = k * got / 6 ;
            I [np] = EI [q] ; J [np] = vec ? 0 : EJ [q] ; np++ ;
        }
    }
    free (EI) ; free (EJ) ; free (EX) ;
    for (GrB_Index k = 0 ; k < 6 ; k++)
    {
        I [np] = (k * 7919u) % nr ; J [np] = (k * 104729u + k) % nc ; np++ ;
    }
    for (GrB_Index k = 0 ; k < np ; k++)
    {
        double x1 = 0, x2 = 0 ;
        i1 = read_entry (vec, &x1, C1, I [k], J [k]) ;
        i2 = read_entry (vec, &x2, C2, I [k], J [k]) ;
        if (i1 != i2 || (values && i1 == GrB_SUCCESS && !real_same (x1, x2, &r)))
        {
            diff_add (d, "C(%llu,%llu) through extractElement: info %d, %.17g vs info %d, %.17g",
                (unsigned long long) I [k], (unsigned long long) J [k], (int) i1, x1, (int) i2, x2) ;
            break ;
        }
    }
    GrB_Type ct = NULL ;
    GrB_Scalar a1 = NULL, a2 = NULL ;
    if ((vec ? GxB_Vector_type (&ct, (GrB_Vector) C2) : GxB_Matrix_type (&ct, C2)) == GrB_SUCCESS
        && GrB_Scalar_new (&a1, ct) == GrB_SUCCESS && GrB_Scalar_new (&a2, ct) == GrB_SUCCESS)
    {
        double y1 = 0, y2 = 0 ;
        i1 = read_max (vec, t, C1, a1, &y1) ;
        i2 = read_max (vec, t, C2, a2, &y2) ;
        GrB_Index m1 = 9, m2 = 9 ;
        double x1 = 0, x2 = 0 ;
        if (i1 == GrB_SUCCESS) (void) GrB_Scalar_nvals (&m1, a1) ;
        if (i2 == GrB_SUCCESS) (void) GrB_Scalar_nvals (&m2, a2) ;
        if (m1 == 1) (void) GrB_Scalar_extractElement_FP64 (&x1, a1) ;
        if (m2 == 1) (void) GrB_Scalar_extractElement_FP64 (&x2, a2) ;
        if (i1 != i2 || m1 != m2 || (values && m1 == 1 && !real_same (x1, x2, &r))
            || (values && vec && n2 > 0 && !real_same (y1, y2, &r)))
            diff_add (d, "the largest value of C through GrB_reduce: info %d, %llu entries, "
                "%.17g (%.17g) vs info %d, %llu entries, %.17g (%.17g)", (int) i1,
                (unsigned long long) m1, x1, y1, (int) i2, (unsigned long long) m2, x2, y2) ;
    }
    GrB_Scalar_free (&a1) ;
    GrB_Scalar_free (&a2) ;
}

static void compare_sides (diff_t *d, const call_t *c, side_t *s1, side_t *s2,
    const outcome_t *o1, const outcome_t *o2, GrB_Descriptor desc)
{
    if (o1->info != o2->info) diff_add (d, "info %d vs %d", (int) o1->info, (int) o2->info) ;
    if (o1->err != o2->err) diff_add (d, "GrB_error %s vs %s", o1->err ? "set" : "empty", o2->err ? "set" : "empty") ;
    snap_t c1, c2 ;
    snap_take (&c1, s1->C) ;
    snap_take (&c2, s2->C) ;
    ijp_t at ;
    const bool meta = compare_meta (d, "C", &c1, &c2) ;
    if (meta && !compare_pattern (d, "C", &c1, &c2, &at)) entry_context (d, c, s2->M, &at) ;
    else if (meta)
    {
        const rule_t r = c_rule (c) ;
        const bool any = c->sr->any && !c->sr->pair && o2->info == GrB_SUCCESS ;
        if (any) compare_any (d, c, s2, &c1, &c2, desc) ;
        else if (!compare_values (d, "C", &c1, &c2, &r, NULL, &at)) entry_context (d, c, s2->M, &at) ;
    }
    snap_free (&c1) ; snap_free (&c2) ;
    compare_input (d, operand_name (c->op, 0), s1->X, s2->X) ;
    compare_input (d, operand_name (c->op, 1), s1->Y, s2->Y) ;
    compare_input (d, "M", s1->M, s2->M) ;
}

// true if grbcuda's call and SuiteSparse's agree on everything observable
static bool run_call (const call_t *c, hook_f hook, diff_t *d, path_t *path)
{
    memset (d, 0, sizeof (*d)) ;
    side_t s1, s2 ;
    bool built = side_build (&s1, c) & side_build (&s2, c) ;
    if (!built) diff_add (d, "the operands could not be built") ;
    GrB_Descriptor desc = make_desc (c, false) ;
    GrB_BinaryOp accum = c->accum >= 0 ? binops [c->accum].op : NULL ;
    outcome_t o1 = { GrB_PANIC, false }, o2 = { GrB_PANIC, false } ;
    if (built)
    {
        mark_t m ;
        path_mark (c->op, &m) ;
        o1.info = call_op (c->op, false, s1.C, s1.M, accum, c->sr->s, s1.X, s1.Y, desc) ;
        o1.err = has_error (s1.C, c->c.vector) ;
        if (path != NULL) *path = path_since (c->op, &m) ;
        o2.info = call_op (c->op, true, s2.C, s2.M, accum, c->sr->s, s2.X, s2.Y, desc) ;
        o2.err = has_error (s2.C, c->c.vector) ;
        if (path != NULL) path->info = o2.info ;
        if (o1.info == GrB_SUCCESS && o2.info == GrB_SUCCESS) compare_reads (d, c, &s1, &s2) ;
        hook_ctx h = { c, &s1, &s2, &o1, &o2 } ;
        if (hook != NULL) hook (&h) ;
        compare_sides (d, c, &s1, &s2, &o1, &o2, desc) ;
    }
    GrB_Descriptor_free (&desc) ;
    side_free (&s1, c) ;
    side_free (&s2, c) ;
    return d->n == 0 ;
}

//------------------------------------------------------------------------------
// random cases
//------------------------------------------------------------------------------

static struct
{
    uint64_t seed ;
    long calls, only, shard_i, shard_n, max_fail ;
    bool ops [NOPS] ;
    int pool ;
    bool seeded, verbose, self_test, regressions_only, no_regressions ;
    const char *ops_arg ;
}
opt = { 0, -1, -1, 0, 1, 20, { true, true, true }, -1, false, false, false, false, false, NULL } ;

static uint64_t case_state (uint64_t seed, long K)
{
    uint64_t st = seed ^ (0xD1B54A32D192ED03ull * (uint64_t) (K + 1)) ;
    gcu_rand (&st) ;
    return st ;
}

static double draw_density (uint64_t *st)
{
    static const double d [] = { 0, 0.03, 0.08, 0.15, 0.15, 0.3, 0.3, 0.6, 1.0 } ;
    return d [pick (st, sizeof (d) / sizeof (d [0]))] ;
}

static GrB_Index draw_dim (uint64_t *st)
{
    uint64_t r = pick (st, 100) ;
    return r < 4 ? 0 : r < 15 ? 1 + pick (st, 3) : r < 75 ? 1 + pick (st, 40) : 40 + pick (st, 21) ;
}

static void draw_recipe (recipe_t *r, uint64_t *st, int type, GrB_Index nrows,
    GrB_Index ncols, bool vector, int policy)
{
    memset (r, 0, sizeof (*r)) ;
    r->present = true ;
    r->vector = vector ;
    r->type = type ;
    r->nrows = nrows ;
    r->ncols = vector ? 1 : ncols ;
    r->density = draw_density (st) ;
    r->dense_row = r->dense_col = -1 ;
    r->policy = policy ;
    r->by_col = !vector && pick (st, 5) < 2 ;
    const uint64_t s = pick (st, 100) ;
    r->sparsity = s < 35 ? GxB_SPARSE : s < 55 ? GxB_HYPERSPARSE : s < 75 ? GxB_BITMAP
        : s < 88 ? GxB_AUTO_SPARSITY : GxB_FULL ;
    if (r->density >= 1 && pick (st, 2)) r->sparsity = GxB_FULL ;
    // a GrB_Vector is never hypersparse
    if (vector && r->sparsity == GxB_HYPERSPARSE) r->sparsity = GxB_SPARSE ;
    r->iso = pick (st, 8) == 0 ;
    r->pending = (r->sparsity == GxB_SPARSE || r->sparsity == GxB_HYPERSPARSE) && pick (st, 6) == 0 ;
    r->seed = gcu_rand (st) ;
}

// m x k times k x n; special shapes: a zero dimension, 1x1x1, a dense row of
// X or a dense column of Y (long: k up to 300), a single row or column
static void draw_shape (call_t *c, uint64_t *st, int *dense)
{
    c->m = draw_dim (st) ;
    c->k = draw_dim (st) ;
    c->n = draw_dim (st) ;
    *dense = 0 ;
    const uint64_t s = pick (st, 100) ;
    if (s < 8) { GrB_Index z = 0 ; *(s % 3 == 0 ? &c->m : s % 3 == 1 ? &c->k : &c->n) = z ; }
    else if (s < 13) c->m = c->k = c->n = 1 ;
    else if (s < 33)
    {
        *dense = s < 23 ? 1 : 2 ;
        c->k = 60 + pick (st, 241) ;
        if (c->m == 0) c->m = 1 ;
        if (c->n == 0) c->n = 1 ;
    }
    else if (s < 40) *(s % 2 ? &c->m : &c->n) = 1 ;
    // a long product under a floating TIMES monoid could overflow (2^128 in
    // FP32), and overflow against a zero is NaN in one order, 0 in another
    if (c->sr->times && c->k > 100) c->k = 100 ;
    if (c->op == OP_MXV) c->n = 1 ;
    if (c->op == OP_VXM) c->m = 1 ;
}

// the descriptor and the mask's kind
static void draw_desc (call_t *c, uint64_t *st)
{
    static const int w [NMASKS] = { 22, 15, 15, 12, 12, 9, 9, 6 } ;
    int r = (int) pick (st, 100), m = 0 ;
    while (r >= w [m]) r -= w [m++] ;
    c->mask = m ;
    c->replace = pick (st, 3) == 0 ;
    c->tran0 = c->op != OP_VXM && pick (st, 10) < 3 ;
    c->tran1 = c->op != OP_MXV && pick (st, 10) < 3 ;
}

// accum: none, or any built-in operator, with two exceptions that keep
// legitimate differences out: where the values are approximate, only
// operators continuous in T; under MIN / MAX over a
// floating type, +0 and -0 are interchangeable candidates, so nothing that
// tells them apart
static void draw_accum (call_t *c, uint64_t *st, bool approximate)
{
    c->accum = -1 ;
    if (pick (st, 2) == 0) return ;
    for (int tries = 0 ; tries < 50 ; tries++)
    {
        int a = (int) pick (st, nbinops) ;
        if (approximate && !binops [a].continuous) continue ;
        if (c->sr->minmax && binops [a].reveals_sign) continue ;
        c->accum = a ;
        return ;
    }
}

static int pick_op (uint64_t *st)
{
    static const int w [NOPS] = { 60, 20, 20 } ;
    int total = 0 ;
    for (int o = 0 ; o < NOPS ; o++) total += opt.ops [o] ? w [o] : 0 ;
    int r = (int) pick (st, total > 0 ? total : 1) ;
    for (int o = 0 ; o < NOPS ; o++)
    {
        if (!opt.ops [o]) continue ;
        if (r < w [o]) return o ;
        r -= w [o] ;
    }
    return OP_MXM ;
}

// Two bugs of SuiteSparse 7.4 itself (reproduced with plain SuiteSparse, no
// grbcuda in the process) that the cases stay clear of, or the oracle would
// crash or never return: a product of inner dimension 0 under a sparse or
// hypersparse mask can loop forever in GB_AxB_saxpy3's symbolic phase; a
// valued mask stored full, with an accum, can crash in GB_subassign_08n
// (C<M> += T). The mask is then made bitmap: the same mask to a program,
// another storage.
static void avoid_suitesparse_bugs (call_t *c)
{
    if (!c->mk.present) return ;
    const bool full_m = c->mk.density >= 1 && !mask_struct (c->mask) && c->accum >= 0 ;
    if (c->k == 0 || full_m)
    {
        c->mk.sparsity = GxB_BITMAP ;
        c->mk.pending = false ;
    }
}

// the value policies: a floating PLUS or TIMES monoid reassociates, so no
// huge values (sums in another order overflow elsewhere); TIMES only
// 0, +-1, +-inf, NaN (underflow or overflow against a zero or an infinity
// depends on the order), complex TIMES only +-1 and +-i (a complex infinity's
// NaN parts depend on the order too). Approximate values (denormals, DIV,
// long complex products) then put C in a floating type, where the tolerance
// applies, and only an accum continuous in T: an integer or BOOL C, or a
// comparison, would turn a rounding difference into a different value.
// an operand every entry of which is present, held full (iso at times, as
// drawn)
static void make_full (recipe_t *r)
{
    r->density = 1 ;
    r->sparsity = GxB_FULL ;
    r->pending = false ;
    r->dense_row = r->dense_col = -1 ;
}

// The dense forms of GrB_mxm (issue 21), from a stream of their own so that
// every other draw of a case stays as it was: Y full (SpMM, the "spmm"
// family) in one case in 6, X and Y full (SDDMM: the masked dot family's
// dense form, where the mask is not complemented) in one in 8.
static void draw_dense_forms (uint64_t seed, long K, call_t *c)
{
    if (c->op != OP_MXM) return ;
    uint64_t st = case_state (seed ^ 0x73706d6d32310000ull, K) ;
    const uint64_t f = pick (&st, 24) ;
    if (f < 4) make_full (&c->y) ;
    else if (f < 7)
    {
        make_full (&c->x) ;
        make_full (&c->y) ;
    }
}

static void draw_case (uint64_t seed, long K, call_t *c)
{
    uint64_t st = case_state (seed, K) ;
    memset (c, 0, sizeof (*c)) ;
    c->op = pick_op (&st) ;
    const sig_t *sig = &pool [pick (&st, npool)] ;
    c->sr = &srs [sig->sr] ;
    const sr_t *sr = c->sr ;
    int policy = V_FULL ;
    if (sr->times) policy = is_complex (sr->z) ? V_CTIMES : V_TIMES ;
    else if (sr->reassoc) policy = (sr->div || pick (&st, 2)) ? V_TAME : V_EXACT ;
    const bool approximate = policy == V_TAME || policy == V_CTIMES ;
    int tc = pick (&st, 2) ? sr->z : (int) pick (&st, NT) ;
    if (approximate && !is_float (tc)) tc = T_FP32 + (int) pick (&st, 4) ;
    const int tm = (int) pick (&st, NT) ;
    int dense ;
    draw_shape (c, &st, &dense) ;
    draw_desc (c, &st) ;
    draw_accum (c, &st, approximate) ;
    // X is m x k (stored k x m when transposed), Y is k x n; u and w are vectors
    const bool xv = c->op == OP_VXM, yv = c->op == OP_MXV, cv = c->op != OP_MXM ;
    draw_recipe (&c->x, &st, sig->x, c->tran0 ? c->k : (xv ? c->k : c->m), c->tran0 ? c->m : c->k, xv, policy) ;
    draw_recipe (&c->y, &st, sig->y, c->tran1 ? c->n : c->k, c->tran1 ? c->k : c->n, yv, policy) ;
    draw_recipe (&c->c, &st, tc, cv ? (c->op == OP_MXV ? c->m : c->n) : c->m, c->n, cv,
        sr->reassoc ? V_EXACT : V_FULL) ;
    draw_recipe (&c->mk, &st, tm, c->c.nrows, c->c.ncols, cv, V_MASK) ;
    c->mk.present = mask_object (c->mask) ;
    // SuiteSparse 7.4 gives a positional multiplier the position in a
    // hypersparse operand's list of vectors instead of the index in some
    // methods (C = A*B over TIMES_SECONDJ_INT32, B hypersparse by column:
    // the default and dot methods; seed 8888380197126140632 case 10727):
    // no oracle there, so such operands are drawn sparse (auto could turn
    // hypersparse)
    if (sr->positional)
    {
        recipe_t *xy [2] = { &c->x, &c->y } ;
        for (int q = 0 ; q < 2 ; q++)
            if (xy [q]->sparsity == GxB_HYPERSPARSE || xy [q]->sparsity == GxB_AUTO_SPARSITY)
                xy [q]->sparsity = GxB_SPARSE ;
    }
    // the dense row of X (as stored: a column when transposed) or column of Y
    if (dense == 1 && c->m > 0)
    {
        if (xv) c->x.density = 1 ;
        else if (c->tran0) c->x.dense_col = (int64_t) pick (&st, c->m) ;
        else c->x.dense_row = (int64_t) pick (&st, c->m) ;
    }
    if (dense == 2 && c->n > 0)
    {
        if (yv) c->y.density = 1 ;
        else if (c->tran1) c->y.dense_row = (int64_t) pick (&st, c->n) ;
        else c->y.dense_col = (int64_t) pick (&st, c->n) ;
    }
    draw_dense_forms (seed, K, c) ;
    avoid_suitesparse_bugs (c) ;
}

//------------------------------------------------------------------------------
// the run: totals for the summary
//------------------------------------------------------------------------------

static long n_calls [NOPS], n_diff, n_gpu, n_host ;
static uint64_t fam_calls [NOPS][16], reason_calls [GRBCUDA_NREASONS] ;

static void replay_command (long K, char *buf, size_t size)
{
    int n = snprintf (buf, size, "test_differential --seed %llu --case %ld",
        (unsigned long long) opt.seed, K) ;
    if (opt.pool != 64) n += snprintf (buf + n, size - n, " --pool %d", opt.pool) ;
    if (opt.ops_arg != NULL) snprintf (buf + n, size - n, " --ops %s", opt.ops_arg) ;
}

static void tally (int op, const path_t *p)
{
    n_calls [op]++ ;
    if (p->gpu) { n_gpu++ ; fam_calls [op][p->family]++ ; }
    else { n_host++ ; reason_calls [p->reason > 0 ? p->reason : 0]++ ; }
}

static const char *path_str (int op, const path_t *p)
{
    if (p->gpu) return fam_name [op][p->family] ;
    return p->reason > 0 ? grbcuda_reason_name ((grbcuda_reason) p->reason) : "uncounted" ;
}

// one random case; false if it differed
static bool run_case (long K)
{
    call_t c ;
    draw_case (opt.seed, K, &c) ;
    diff_t d ;
    path_t p = { false, -1, -1, GrB_SUCCESS } ;
    char line [2048], replay [256] ;
    describe (&c, line, sizeof (line)) ;
    replay_command (K, replay, sizeof (replay)) ;
    if (opt.verbose)
    {
        // before the call, so that a crash still says what it was
        printf ("case %ld: %s", K, line) ;
        fflush (stdout) ;
    }
    const bool same = run_call (&c, NULL, &d, &p) ;
    tally (c.op, &p) ;
    if (opt.verbose)
    {
        printf (" -> %s %s, info %d: %s\n", p.gpu ? "GPU" : "host", path_str (c.op, &p),
            (int) p.info, same ? "same" : "DIFFERENT") ;
    }
    CHECK (same, "case %ld: %s: %s | replay: %s", K, line, d.text, replay) ;
    if (!same) n_diff++ ;
    return same ;
}

//------------------------------------------------------------------------------
// regressions: fixed cases (issue 18 and what it implies), deterministic
//------------------------------------------------------------------------------

typedef struct { GrB_Index n, cap ; GrB_Index *I, *J ; double *X ; } trip_t ;

static void trip_add (trip_t *t, GrB_Index i, GrB_Index j, double x)
{
    if (t->n == t->cap)
    {
        t->cap = t->cap ? 2 * t->cap : 64 ;
        t->I = realloc (t->I, t->cap * sizeof (GrB_Index)) ;
        t->J = realloc (t->J, t->cap * sizeof (GrB_Index)) ;
        t->X = realloc (t->X, t->cap * sizeof (double)) ;
    }
    t->I [t->n] = i ; t->J [t->n] = j ; t->X [t->n++] = x ;
}

static void trip_free (trip_t *t)
{
    free (t->I) ; free (t->J) ; free (t->X) ;
    memset (t, 0, sizeof (*t)) ;
}

// an operand made of the given entries (cast from FP64 by GrB_*_build)
static recipe_t explicit_recipe (int type, GrB_Index nrows, GrB_Index ncols,
    bool vector, const trip_t *t)
{
    recipe_t r ;
    memset (&r, 0, sizeof (r)) ;
    r.present = true ;
    r.vector = vector ;
    r.type = type ;
    r.nrows = nrows ;
    r.ncols = vector ? 1 : ncols ;
    r.sparsity = GxB_AUTO_SPARSITY ;
    r.dense_row = r.dense_col = -1 ;
    r.n = t->n ; r.I = t->I ; r.J = t->J ; r.X = t->X ;
    return r ;
}

static sr_t *sr_of (GrB_Semiring s) { return (sr_t *) sr_find (s) ; }

static int n_reg, n_reg_diff ;

static void reg_run (const char *name, const call_t *c, hook_f expect)
{
    diff_t d ;
    const bool same = c->sr != NULL && run_call (c, expect, &d, NULL) ;
    char line [2048] = "" ;
    if (c->sr != NULL) describe (c, line, sizeof (line)) ;
    CHECK (same, "regression %s: %s: %s | replay: test_differential --regressions", name,
        line, c->sr != NULL ? d.text : "semiring not found") ;
    n_reg++ ;
    if (!same) n_reg_diff++ ;
    if (opt.verbose) printf ("regression %s: %s\n", name, same ? "same" : "DIFFERENT") ;
}

// SuiteSparse's product alone (no mask, no accum) into a fresh object of the
// semiring's type: what a regression's C is made from
static GrB_Matrix oracle_product (const hook_ctx *h)
{
    recipe_t r = h->c->c ;
    r.type = h->c->sr->z ;
    GrB_Matrix T = obj_new (&r) ;
    GrB_Descriptor td = make_desc (h->c, true) ;
    call_op (h->c->op, true, T, NULL, NULL, h->c->sr->s, h->s2->X, h->s2->Y, td) ;
    GrB_Descriptor_free (&td) ;
    return T ;
}

// (1) complement of no mask: C unchanged, or cleared with GrB_REPLACE
static void expect_c_kept (hook_ctx *h)
{
    GrB_Matrix C0 = build_operand (&h->c->c) ;
    GrB_Index n0 = 0, n2 = 0 ;
    GrB_Matrix_nvals (&n0, C0) ;
    GrB_Matrix_nvals (&n2, h->s2->C) ;
    CHECK (n0 > 0, "regression: C must start with entries") ;
    if (h->c->replace) CHECK (n2 == 0, "SuiteSparse: GrB_REPLACE with !NULL mask leaves %llu entries", (unsigned long long) n2) ;
    else CHECK (gcu_test_matrix_equal (h->s2->C, C0, 0, false, "C kept"), "SuiteSparse changed C under !NULL mask") ;
    obj_free (&C0, h->c->c.vector) ;
}

// (2), (3): an entry whose products are all NaN is NaN (MIN and MAX ignore
// NaN only beside a number), and NaN cast to an integer is 0
static void expect_all_nan (hook_ctx *h)
{
    GrB_Matrix T = oracle_product (h) ;
    snap_t st, sc ;
    snap_take (&st, T) ;
    snap_take (&sc, h->s2->C) ;
    int nan_seen = 0, nan_in_c = 0, wrong = 0 ;
    for (GrB_Index q = 0 ; q < st.n ; q++)
    {
        if (!isnan (snap_value (&st, q).re)) continue ;
        nan_seen++ ;
        ijp_t key = { st.e [q].i, st.e [q].j, 0 } ;
        ijp_t *e = bsearch (&key, sc.e, sc.n, sizeof (ijp_t), cmp_ijp) ;
        if (e == NULL) continue ;
        val_t v = snap_value (&sc, (GrB_Index) (e - sc.e)) ;
        nan_in_c++ ;
        wrong += is_float (sc.type) ? !isnan (v.re) : v.u != 0 ;
    }
    CHECK (nan_seen > 0 && nan_in_c > 0 && wrong == 0, "regression: SuiteSparse's all-NaN "
        "entries: %d in the product, %d in C, %d of them not NaN (or 0 in an integer C)",
        nan_seen, nan_in_c, wrong) ;
    snap_free (&st) ; snap_free (&sc) ;
    obj_free (&T, h->c->c.vector) ;
}

// (4): an entry whose only products are -0 is -0 in SuiteSparse
static void expect_neg_zero (hook_ctx *h)
{
    snap_t sc ;
    snap_take (&sc, h->s2->C) ;
    int neg = 0 ;
    for (GrB_Index q = 0 ; q < sc.n ; q++)
    {
        double v = snap_value (&sc, q).re ;
        neg += v == 0 && signbit (v) ;
    }
    CHECK (neg > 0, "regression: SuiteSparse gave no -0 entry") ;
    snap_free (&sc) ;
}

static void reg_null_mask (void)
{
    struct { int op ; GrB_Semiring s ; GrB_Index m, k, n ; } shapes [NOPS] =
    {
        // the issue's case: GxB_BAND_BAND_UINT32, 118x47 times 47x161
        { OP_MXM, GxB_BAND_BAND_UINT32, 118, 47, 161 },
        { OP_MXV, GrB_PLUS_TIMES_SEMIRING_FP64, 50, 40, 1 },
        { OP_VXM, GxB_MIN_SECOND_INT32, 1, 40, 60 },
    } ;
    for (int k = 0 ; k < NOPS * 4 ; k++)
    {
        call_t c ;
        memset (&c, 0, sizeof (c)) ;
        c.op = shapes [k / 4].op ;
        c.sr = sr_of (shapes [k / 4].s) ;
        if (c.sr == NULL) { reg_run ("(1) complemented NULL mask", &c, NULL) ; continue ; }
        c.m = shapes [k / 4].m ; c.k = shapes [k / 4].k ; c.n = shapes [k / 4].n ;
        c.accum = -1 ;
        c.mask = (k % 2) ? MASK_NULL_COMP_STRUCT : MASK_NULL_COMP ;
        c.replace = (k / 2) % 2 ;
        uint64_t st = 18 + k ;
        const bool xv = c.op == OP_VXM, yv = c.op == OP_MXV, cv = c.op != OP_MXM ;
        draw_recipe (&c.x, &st, c.sr->x, xv ? c.k : c.m, c.k, xv, V_FULL) ;
        draw_recipe (&c.y, &st, c.sr->y, c.k, c.n, yv, V_FULL) ;
        draw_recipe (&c.c, &st, c.sr->z, cv ? c.m * c.n : c.m, c.n, cv, V_FULL) ;
        c.x.density = c.y.density = 0.2 ;
        c.c.density = 0.2 ;
        c.x.pending = c.y.pending = c.c.pending = false ;
        char name [96] ;
        snprintf (name, sizeof (name), "(1) %s, mask %s%s", op_name [c.op],
            mask_name [c.mask], c.replace ? ", GrB_REPLACE" : "") ;
        reg_run (name, &c, expect_c_kept) ;
    }
}

static call_t reg_call (int op, GrB_Semiring s, GrB_Index m, GrB_Index k, GrB_Index n,
    GrB_BinaryOp accum)
{
    call_t c ;
    memset (&c, 0, sizeof (c)) ;
    c.op = op ;
    c.sr = sr_of (s) ;
    c.m = m ; c.k = k ; c.n = n ;
    c.accum = accum != NULL ? binop_find (accum) : -1 ;
    c.mask = MASK_NONE ;
    return c ;
}

// a regression of the given operands (the matrix operand transposed or not),
// no mask: the shape follows from the operands
typedef struct { int op ; GrB_Semiring s ; GrB_BinaryOp accum ; bool tran, signed_zero ; } reg_kind ;

static void reg_make (const char *name, reg_kind kind, recipe_t x, recipe_t y, recipe_t c, hook_f expect)
{
    const GrB_Index k = (kind.op == OP_VXM) ? x.nrows : (kind.tran ? x.nrows : x.ncols) ;
    call_t call = reg_call (kind.op, kind.s, kind.op == OP_VXM ? 1 : c.nrows, k,
        kind.op == OP_MXM ? c.ncols : (kind.op == OP_VXM ? c.nrows : 1), kind.accum) ;
    call.tran0 = kind.tran && kind.op != OP_VXM ;
    call.tran1 = kind.tran && kind.op == OP_VXM ;
    call.signed_zero = kind.signed_zero ;
    call.x = x ; call.y = y ; call.c = c ;
    reg_run (name, &call, expect) ;
}

// the entries of w: value i % mod at every step-th i below n
static void trip_vector (trip_t *t, GrB_Index n, GrB_Index step, int mod)
{
    for (GrB_Index i = 0 ; i < n ; i += step) trip_add (t, i, 0, (double) (i % mod)) ;
}

static recipe_t mat (int type, GrB_Index nrows, GrB_Index ncols, const trip_t *t)
{
    return explicit_recipe (type, nrows, ncols, false, t) ;
}

static recipe_t vec (int type, GrB_Index n, const trip_t *t)
{
    return explicit_recipe (type, n, 1, true, t) ;
}

// (2) GxB_MIN_DIV_FP32 with A' (A: 86x34, one dense row, 34 entries) times
// B (86x92) into a UINT32 C with 182 entries, accum GrB_PLUS_FP64: x/0 is
// +-inf, 0/0 NaN, and an entry whose products are all NaN is NaN, which
// casts to 0 (a GPU seeding the monoid with its identity +inf gives
// 4294967295). Issue 18's case, then the same for mxv and vxm (5).
static void reg_min_div (void)
{
    static const double va [7] = { 0, 1, -2, 0.5, 3, 0, -1 }, vb [5] = { 0, 2, -1, 0, 4 } ;
    trip_t a = { 0 }, b = { 0 }, bt = { 0 }, c = { 0 }, u = { 0 }, w = { 0 }, u2 = { 0 }, w2 = { 0 } ;
    for (GrB_Index i = 0 ; i < 34 ; i++) trip_add (&a, 5, i, va [i % 7]) ;
    for (GrB_Index j = 0 ; j < 92 ; j++)
    {
        trip_add (&b, 5, j, vb [j % 5]) ;
        trip_add (&bt, j, 5, vb [j % 5]) ;
        // other rows of B meet no entry of A
        if (j % 4 == 0) for (GrB_Index r = 0 ; r < 86 ; r += 17) if (r != 5) trip_add (&b, r, j, 1 + j % 3) ;
    }
    // C: the all-NaN entries (0,0) and (5,3), +inf at (1,0), -inf at (2,0),
    // then others up to 182 distinct entries
    const GrB_Index first [4][2] = { { 0, 0 }, { 5, 3 }, { 1, 0 }, { 2, 0 } } ;
    for (int k = 0 ; k < 4 ; k++) trip_add (&c, first [k][0], first [k][1], 7) ;
    for (GrB_Index p = 0 ; c.n < 182 ; p++)
    {
        GrB_Index i = (p * 7 + 3) % 34, j = 1 + (p * 13) % 91 ;
        if (!(i == 5 && j == 3)) trip_add (&c, i, j, (double) (p % 9)) ;
    }
    // mxv: w += A'*u with u(5) = 0, every product A(5,i)/0; vxm: w' += u'*B'
    // with B stored 92x86, column 5 dense, u(5) = 0: products 0/B(j,5)
    trip_add (&u, 5, 0, 0) ; trip_add (&u, 3, 0, 7) ; trip_add (&u, 60, 0, -1) ;
    trip_add (&u2, 5, 0, 0) ; trip_add (&u2, 9, 0, 3) ;
    trip_vector (&w, 34, 1, 5) ;
    trip_vector (&w2, 92, 1, 4) ;
    const reg_kind k [NOPS] = { { OP_MXM, GxB_MIN_DIV_FP32, GrB_PLUS_FP64, true, false },
        { OP_MXV, GxB_MIN_DIV_FP32, GrB_PLUS_FP64, true, false },
        { OP_VXM, GxB_MIN_DIV_FP32, GrB_PLUS_FP64, true, false } } ;
    reg_make ("(2) GrB_mxm GxB_MIN_DIV_FP32 A'*B into UINT32, accum GrB_PLUS_FP64 (issue 18)", k [0],
        mat (T_FP32, 86, 34, &a), mat (T_FP32, 86, 92, &b), mat (T_UINT32, 34, 92, &c), expect_all_nan) ;
    reg_make ("(5) GrB_mxv GxB_MIN_DIV_FP32 A'*u into UINT32, accum GrB_PLUS_FP64", k [1],
        mat (T_FP32, 86, 34, &a), vec (T_FP32, 86, &u), vec (T_UINT32, 34, &w), expect_all_nan) ;
    reg_make ("(5) GrB_vxm GxB_MIN_DIV_FP32 u'*B' into UINT32, accum GrB_PLUS_FP64", k [2],
        vec (T_FP32, 86, &u2), mat (T_FP32, 92, 86, &bt), vec (T_UINT32, 92, &w2), expect_all_nan) ;
    trip_t *all [8] = { &a, &b, &bt, &c, &u, &w, &u2, &w2 } ;
    for (int q = 0 ; q < 8 ; q++) trip_free (all [q]) ;
}

// (3) GxB_MAX_DIV_FP64, three products an entry: all NaN (0/0 three times:
// NaN), NaN beside numbers (MAX ignores the NaN), +-inf; into FP64 and,
// through accum GrB_PLUS_FP64, into INT32. Then mxv and vxm (5), where u is
// 0 at the three rows: products A(r,i)/0 and 0/B(r,j).
static void reg_max_div (void)
{
    static const double va [5] = { 0, 1, -2, 0.5, 4 }, vb [4] = { 0, 2, -1, 0 } ;
    static const GrB_Index rows [3] = { 2, 7, 11 } ;
    trip_t a = { 0 }, b = { 0 }, c = { 0 }, u = { 0 }, none = { 0 } ;
    for (int q = 0 ; q < 3 ; q++)
    {
        const GrB_Index r = rows [q] ;
        for (GrB_Index i = 0 ; i < 10 ; i++) trip_add (&a, r, i, i == 0 ? 0 : va [(r + i) % 5]) ;
        for (GrB_Index j = 0 ; j < 12 ; j++) trip_add (&b, r, j, j == 0 ? 0 : vb [(3 * r + j) % 4]) ;
        trip_add (&u, r, 0, 0) ;
    }
    for (GrB_Index p = 0 ; p < 30 ; p++) trip_add (&c, p % 10, (p * 5) % 12, (double) p) ;
    const recipe_t A = mat (T_FP64, 20, 10, &a), B = mat (T_FP64, 20, 12, &b), U = vec (T_FP64, 20, &u) ;
    const reg_kind plain = { OP_MXM, GxB_MAX_DIV_FP64, NULL, true, false },
        acc = { OP_MXM, GxB_MAX_DIV_FP64, GrB_PLUS_FP64, true, false },
        mxv = { OP_MXV, GxB_MAX_DIV_FP64, NULL, true, false },
        vxm = { OP_VXM, GxB_MAX_DIV_FP64, NULL, false, false } ;
    reg_make ("(3) GrB_mxm GxB_MAX_DIV_FP64 A'*B into FP64", plain, A, B, mat (T_FP64, 10, 12, &none), expect_all_nan) ;
    reg_make ("(3) GrB_mxm GxB_MAX_DIV_FP64 A'*B into INT32, accum GrB_PLUS_FP64", acc, A, B,
        mat (T_INT32, 10, 12, &c), expect_all_nan) ;
    reg_make ("(5) GrB_mxv GxB_MAX_DIV_FP64 A'*u into FP64", mxv, A, U, vec (T_FP64, 10, &none), expect_all_nan) ;
    reg_make ("(5) GrB_vxm GxB_MAX_DIV_FP64 u'*B into FP64", vxm, U, B, vec (T_FP64, 12, &none), expect_all_nan) ;
    trip_free (&a) ; trip_free (&b) ; trip_free (&c) ; trip_free (&u) ;
}

// (4) GrB_PLUS_TIMES_SEMIRING_FP64 where an entry's only products are -0:
// SuiteSparse's sum is -0 (the first product, not the identity +0 plus
// it), which 1/x shows a program: here the sign of zero compares. Into an
// empty C and one with entries; then mxv and vxm (5).
static void reg_neg_zero (void)
{
    trip_t a = { 0 }, b = { 0 }, c = { 0 }, u = { 0 }, u2 = { 0 }, none = { 0 } ;
    // C(0,0) = -1*0 + 0*-2 = -0 + -0 ; C(1,1) = -0*5 ; C(2,0) = 3*0 = +0
    trip_add (&a, 0, 0, -1) ; trip_add (&a, 0, 1, 0) ; trip_add (&a, 1, 2, -0.0) ; trip_add (&a, 2, 0, 3) ;
    trip_add (&b, 0, 0, 0) ; trip_add (&b, 1, 0, -2) ; trip_add (&b, 2, 1, 5) ; trip_add (&b, 0, 2, 1) ;
    trip_add (&c, 0, 0, 7) ; trip_add (&c, 3, 3, 1) ;
    // mxv: w(0) = -1*0 + 0*-2, w(1) = -0*5; vxm: w(0) = -1*0 + 0*-2 (u'*B)
    trip_add (&u, 0, 0, 0) ; trip_add (&u, 1, 0, -2) ; trip_add (&u, 2, 0, 5) ;
    trip_add (&u2, 0, 0, -1) ; trip_add (&u2, 1, 0, 0) ;
    const recipe_t A = mat (T_FP64, 4, 3, &a), B = mat (T_FP64, 3, 4, &b) ;
    reg_kind k = { OP_MXM, GrB_PLUS_TIMES_SEMIRING_FP64, NULL, false, true } ;
    reg_make ("(4) GrB_mxm GrB_PLUS_TIMES_SEMIRING_FP64, products -0 only, C empty", k, A, B,
        mat (T_FP64, 4, 4, &none), expect_neg_zero) ;
    reg_make ("(4) GrB_mxm GrB_PLUS_TIMES_SEMIRING_FP64, products -0 only, C with entries", k, A, B,
        mat (T_FP64, 4, 4, &c), expect_neg_zero) ;
    k.op = OP_MXV ;
    reg_make ("(5) GrB_mxv GrB_PLUS_TIMES_SEMIRING_FP64, products -0 only", k, A, vec (T_FP64, 3, &u),
        vec (T_FP64, 4, &none), expect_neg_zero) ;
    k.op = OP_VXM ;
    reg_make ("(5) GrB_vxm GrB_PLUS_TIMES_SEMIRING_FP64, products -0 only", k, vec (T_FP64, 3, &u2), B,
        vec (T_FP64, 4, &none), expect_neg_zero) ;
    trip_free (&a) ; trip_free (&b) ; trip_free (&c) ; trip_free (&u) ; trip_free (&u2) ;
}

// (6): the sign of a NaN, which COPYSIGN shows: C(i,j) = copysign (5, T(i,j)).
// The host (x86) gives an invalid operation's NaN (inf - inf, 0 * inf) the
// sign bit and passes a NaN operand on with its sign, through casts too; the
// GPU's arithmetic gives one positive NaN (tester, seed 1541731170975788895,
// cases 690 and 9838: TIMES_MINUS_FP32 over an FC64 operand with infinities)
static void expect_neg_copysign (hook_ctx *h)
{
    snap_t sc ;
    snap_take (&sc, h->s2->C) ;
    int neg = 0, pos = 0 ;
    for (GrB_Index q = 0 ; q < sc.n ; q++)
    {
        double v = snap_value (&sc, q).re ;
        neg += v == -5 ;
        pos += v == 5 ;
    }
    CHECK (neg > 0 && pos > 0, "regression: SuiteSparse gave %d entries -5 and %d entries 5", neg, pos) ;
    snap_free (&sc) ;
}

static void reg_nan_sign (void)
{
    const double inf = INFINITY, nan_neg = -NAN, nan_pos = NAN ;
    trip_t a = { 0 }, b = { 0 }, c = { 0 }, u = { 0 }, w = { 0 } ;
    // A(i,0) * B(0,j), one product an entry; MINUS: A(i,0) - B(0,j)
    const double av [6] = { inf, 0, nan_neg, nan_pos, 2, -inf } ;
    const double bv [6] = { inf, inf, 3, 1, -0.5, -inf } ;
    for (GrB_Index i = 0 ; i < 6 ; i++) trip_add (&a, i, 0, av [i]) ;
    for (GrB_Index j = 0 ; j < 6 ; j++) trip_add (&b, 0, j, bv [j]) ;
    for (GrB_Index i = 0 ; i < 6 ; i++) for (GrB_Index j = 0 ; j < 6 ; j++) trip_add (&c, i, j, 5) ;
    trip_add (&u, 0, 0, inf) ;
    for (GrB_Index i = 0 ; i < 6 ; i++) trip_add (&w, i, 0, 5) ;
    const recipe_t A = mat (T_FP64, 6, 1, &a), B = mat (T_FP64, 1, 6, &b), U = vec (T_FP64, 1, &u) ;
    const GrB_Semiring srs [4] = { GxB_PLUS_MINUS_FP64, GxB_TIMES_MINUS_FP32,
        GrB_PLUS_TIMES_SEMIRING_FP32, GrB_PLUS_TIMES_SEMIRING_FP64 } ;
    const char *names [4] = { "GxB_PLUS_MINUS_FP64", "GxB_TIMES_MINUS_FP32",
        "GrB_PLUS_TIMES_SEMIRING_FP32", "GrB_PLUS_TIMES_SEMIRING_FP64" } ;
    for (int q = 0 ; q < 4 ; q++)
    {
        char name [160] ;
        reg_kind k = { OP_MXM, srs [q], GxB_COPYSIGN_FP64, false, false } ;
        snprintf (name, sizeof (name), "(6) GrB_mxm %s, NaN signs through accum GxB_COPYSIGN_FP64", names [q]) ;
        reg_make (name, k, A, B, mat (T_FP64, 6, 6, &c), expect_neg_copysign) ;
        k.op = OP_MXV ;
        snprintf (name, sizeof (name), "(6) GrB_mxv %s, NaN signs through accum GxB_COPYSIGN_FP64", names [q]) ;
        reg_make (name, k, A, U, vec (T_FP64, 6, &w), expect_neg_copysign) ;
    }
    trip_free (&a) ; trip_free (&b) ; trip_free (&c) ; trip_free (&u) ; trip_free (&w) ;
}

static void regressions (void)
{
    reg_null_mask () ;
    reg_min_div () ;
    reg_max_div () ;
    reg_neg_zero () ;
    reg_nan_sign () ;
    printf ("regressions: %d cases, %d different\n", n_reg, n_reg_diff) ;
}

//------------------------------------------------------------------------------
// self-test: perturbations of grbcuda's side must be reported; legitimate
// variations (an ANY monoid's other candidate, rounding under a tolerance,
// another NaN) must not
//------------------------------------------------------------------------------

// the first entry of A (as FP64) that pred admits
static bool entry_where (GrB_Matrix A, bool (*pred) (double), GrB_Index *i,
    GrB_Index *j, double *v)
{
    GrB_Index n = 0 ;
    GrB_Matrix_nvals (&n, A) ;
    GrB_Index *I = malloc ((n + 1) * sizeof (GrB_Index)), *J = malloc ((n + 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((n + 1) * sizeof (double)) ;
    bool found = false ;
    if (GrB_Matrix_extractTuples_FP64 (I, J, X, &n, A) == GrB_SUCCESS)
    {
        for (GrB_Index p = 0 ; p < n && !found ; p++)
        {
            if (pred (X [p])) { *i = I [p] ; *j = J [p] ; *v = X [p] ; found = true ; }
        }
    }
    free (I) ; free (J) ; free (X) ;
    return found ;
}

static bool any_value (double v) { (void) v ; return true ; }
static bool finite_value (double v) { return isfinite (v) ; }
static bool inf_value (double v) { return isinf (v) ; }
static bool nan_value (double v) { return isnan (v) ; }
static bool neg_zero (double v) { return v == 0 && signbit (v) ; }
static double ulp_up (double v) { return nextafter (v, INFINITY) ; }
static double to_nan (double v) { (void) v ; return NAN ; }
static double to_inf (double v) { (void) v ; return INFINITY ; }
static double plus_one (double v) { return v + 1 ; }
static double pos_zero (double v) { (void) v ; return 0.0 ; }
static double other_nan (double v)
{
    (void) v ;
    const uint64_t bits = 0xFFF8000000000ABCull ;      // a negative NaN, another payload
    double x ;
    memcpy (&x, &bits, sizeof (x)) ;
    return x ;
}

// replace the first entry pred admits by f (its value)
static void set_where (GrB_Matrix A, bool (*pred) (double), double (*f) (double))
{
    GrB_Index i, j ;
    double v ;
    if (entry_where (A, pred, &i, &j, &v)) GrB_Matrix_setElement_FP64 (A, f (v), i, j) ;
}

static void h_ulp (hook_ctx *h) { set_where (h->s1->C, finite_value, ulp_up) ; }
static void h_nan_for_inf (hook_ctx *h) { set_where (h->s1->C, inf_value, to_nan) ; }
static void h_inf_for_finite (hook_ctx *h) { set_where (h->s1->C, finite_value, to_inf) ; }
static void h_plus_one (hook_ctx *h) { set_where (h->s1->C, any_value, plus_one) ; }
static void h_pos_zero (hook_ctx *h) { set_where (h->s1->C, neg_zero, pos_zero) ; }
static void h_other_nan (hook_ctx *h) { set_where (h->s1->C, nan_value, other_nan) ; }
static void h_input (hook_ctx *h) { set_where (h->s1->X, finite_value, plus_one) ; }
static void h_info (hook_ctx *h) { h->o1->info = h->o1->info == GrB_SUCCESS ? GrB_INVALID_VALUE : GrB_SUCCESS ; }
static void h_error (hook_ctx *h) { h->o1->err = !h->o1->err ; }

static void h_add (hook_ctx *h)
{
    GrB_Index nr = 0, nc = 0 ;
    GrB_Matrix_nrows (&nr, h->s1->C) ;
    GrB_Matrix_ncols (&nc, h->s1->C) ;
    double v ;
    for (GrB_Index p = 0 ; p < nr * nc ; p++)
    {
        if (GrB_Matrix_extractElement_FP64 (&v, h->s1->C, p / nc, p % nc) != GrB_NO_VALUE) continue ;
        GrB_Matrix_setElement_FP64 (h->s1->C, 1, p / nc, p % nc) ;
        return ;
    }
}

static void h_remove (hook_ctx *h)
{
    GrB_Index i, j ;
    double v ;
    if (entry_where (h->s1->C, any_value, &i, &j, &v)) GrB_Matrix_removeElement (h->s1->C, i, j) ;
}

static void h_status (hook_ctx *h)
{
    int s = 0 ;
    GxB_Matrix_Option_get (h->s1->C, GxB_SPARSITY_STATUS, &s) ;
    GxB_Matrix_Option_set (h->s1->C, GxB_SPARSITY_CONTROL, s == GxB_BITMAP ? GxB_SPARSE : GxB_BITMAP) ;
}

static void h_format (hook_ctx *h)
{
    GxB_Format_Value f = GxB_BY_ROW ;
    GxB_Matrix_Option_get (h->s1->C, GxB_FORMAT, &f) ;
    GxB_Matrix_Option_set (h->s1->C, GxB_FORMAT, f == GxB_BY_ROW ? GxB_BY_COL : GxB_BY_ROW) ;
}

// ANY: C(0,0) := SuiteSparse's other candidate (1 or 5), or 9 (neither)
static void any_set (hook_ctx *h, bool candidate)
{
    double v = 0 ;
    GrB_Matrix_extractElement_FP64 (&v, h->s2->C, 0, 0) ;
    GrB_Matrix_setElement_FP64 (h->s1->C, candidate ? (v == 1 ? 5 : 1) : 9, 0, 0) ;
}
static void h_other_candidate (hook_ctx *h) { any_set (h, true) ; }
static void h_no_candidate (hook_ctx *h) { any_set (h, false) ; }
static void h_outside_product (hook_ctx *h) { GrB_Matrix_setElement_FP64 (h->s1->C, 3, 1, 0) ; }

typedef struct { const char *name ; hook_f hook ; bool reported ; } st_item ;

static void st_table (const char *what, const call_t *c, const st_item *items, int n)
{
    for (int k = 0 ; k < n ; k++)
    {
        diff_t d ;
        const bool same = c->sr != NULL && run_call (c, items [k].hook, &d, NULL) ;
        CHECK (same != items [k].reported, "self-test %s, %s: %s", what, items [k].name,
            items [k].reported ? "not reported" : d.text) ;
        printf ("self-test: %-28s %-40s %s%s\n", what, items [k].name,
            same ? "accepted" : "reported: ", same ? "" : d.text) ;
    }
}

#define NITEMS(a) ((int) (sizeof (a) / sizeof ((a) [0])))

// A (4x3, row 3 empty) and B (3x3) with +-inf: MIN_PLUS and PLUS_TIMES
// give +-inf, NaN and finite values, and C(3,:) no entry
static void st_exact_and_tolerant (void)
{
    static const double A [4][3] = { { 1, 2, NAN }, { -INFINITY, 3, INFINITY },
        { 4, NAN, -INFINITY }, { NAN, NAN, NAN } } ;
    static const double B [3][3] = { { 1, NAN, 2 }, { 5, 1, NAN }, { NAN, 2, 3 } } ;
    trip_t a = { 0 }, b = { 0 }, none = { 0 } ;
    for (GrB_Index p = 0 ; p < 12 ; p++)
    {
        // NaN marks no entry here
        if (!isnan (A [p / 3][p % 3])) trip_add (&a, p / 3, p % 3, A [p / 3][p % 3]) ;
        if (p < 9 && !isnan (B [p / 3][p % 3])) trip_add (&b, p / 3, p % 3, B [p / 3][p % 3]) ;
    }
    static const st_item exact [] = {
        { "no perturbation", NULL, false }, { "one value one ulp up", h_ulp, true },
        { "an entry added", h_add, true }, { "an entry removed", h_remove, true },
        { "sparsity status changed (a note)", h_status, false }, { "format changed", h_format, true },
        { "info changed", h_info, true }, { "GrB_error message set", h_error, true },
        { "NaN for an infinity", h_nan_for_inf, true }, { "inf for a finite value", h_inf_for_finite, true },
        { "input A changed", h_input, true } } ;
    static const st_item tolerant [] = {
        { "no perturbation", NULL, false }, { "one ulp up (in the tolerance)", h_ulp, false },
        { "NaN for an infinity", h_nan_for_inf, true }, { "inf for a finite value", h_inf_for_finite, true },
        { "a value + 1", h_plus_one, true }, { "a NaN of another payload", h_other_nan, false } } ;
    static const st_item integer [] = { { "no perturbation", NULL, false }, { "a value + 1", h_plus_one, true } } ;
    call_t c = reg_call (OP_MXM, GrB_MIN_PLUS_SEMIRING_FP64, 4, 3, 3, NULL) ;
    c.x = explicit_recipe (T_FP64, 4, 3, false, &a) ;
    c.y = explicit_recipe (T_FP64, 3, 3, false, &b) ;
    c.c = explicit_recipe (T_FP64, 4, 3, false, &none) ;
    st_table ("MIN_PLUS_FP64 (exact)", &c, exact, NITEMS (exact)) ;
    c.sr = sr_of (GrB_PLUS_TIMES_SEMIRING_FP64) ;
    st_table ("PLUS_TIMES_FP64 (tolerance)", &c, tolerant, NITEMS (tolerant)) ;
    c.sr = sr_of (GrB_PLUS_TIMES_SEMIRING_INT32) ;
    c.x.type = c.y.type = c.c.type = T_INT32 ;
    st_table ("PLUS_TIMES_INT32", &c, integer, NITEMS (integer)) ;
    // a vector: w = A*u
    c = reg_call (OP_MXV, GrB_PLUS_TIMES_SEMIRING_FP64, 4, 3, 1, NULL) ;
    c.x = explicit_recipe (T_FP64, 4, 3, false, &a) ;
    trip_t u = { 0 } ;
    trip_vector (&u, 3, 2, 3) ;
    c.y = explicit_recipe (T_FP64, 3, 1, true, &u) ;
    c.c = explicit_recipe (T_FP64, 4, 1, true, &none) ;
    static const st_item vec [] = { { "no perturbation", NULL, false }, { "an entry added", h_add, true },
        { "sparsity status changed (a note)", h_status, false }, { "info changed", h_info, true } } ;
    st_table ("GrB_mxv PLUS_TIMES_FP64", &c, vec, NITEMS (vec)) ;
    trip_free (&a) ; trip_free (&b) ; trip_free (&u) ;
}

// ANY_FIRST_INT32: C(0,0) = A(0,0) or A(0,1), 1 or 5; with accum, C(1,0)
// is outside the product and must stay exact
static void st_any (void)
{
    trip_t a = { 0 }, b = { 0 }, none = { 0 }, c1 = { 0 } ;
    trip_add (&a, 0, 0, 1) ; trip_add (&a, 0, 1, 5) ;
    trip_add (&b, 0, 0, 1) ; trip_add (&b, 1, 0, 1) ;
    trip_add (&c1, 1, 0, 4) ;
    call_t c = reg_call (OP_MXM, GxB_ANY_FIRST_INT32, 2, 2, 1, NULL) ;
    c.x = explicit_recipe (T_INT32, 2, 2, false, &a) ;
    c.y = explicit_recipe (T_INT32, 2, 1, false, &b) ;
    c.c = explicit_recipe (T_INT32, 2, 1, false, &none) ;
    static const st_item range [] = { { "no perturbation", NULL, false },
        { "the other candidate", h_other_candidate, false }, { "no candidate's value", h_no_candidate, true },
        { "an entry removed", h_remove, true } } ;
    st_table ("ANY_FIRST_INT32 (MIN..MAX)", &c, range, NITEMS (range)) ;
    c.accum = binop_find (GrB_PLUS_INT32) ;
    c.c = explicit_recipe (T_INT32, 2, 1, false, &c1) ;
    static const st_item outside [] = { { "no perturbation", NULL, false },
        { "the other candidate", h_other_candidate, false }, { "outside the product", h_outside_product, true } } ;
    st_table ("ANY_FIRST_INT32 += (pattern)", &c, outside, NITEMS (outside)) ;
    trip_free (&a) ; trip_free (&b) ; trip_free (&c1) ;
}

// the sign of zero compares only where the call says so (regression 4)
static void st_signed_zero (void)
{
    trip_t a = { 0 }, b = { 0 }, none = { 0 } ;
    trip_add (&a, 0, 0, -1) ; trip_add (&b, 0, 0, 0) ;
    call_t c = reg_call (OP_MXM, GrB_PLUS_TIMES_SEMIRING_FP64, 1, 1, 1, NULL) ;
    c.x = explicit_recipe (T_FP64, 1, 1, false, &a) ;
    c.y = explicit_recipe (T_FP64, 1, 1, false, &b) ;
    c.c = explicit_recipe (T_FP64, 1, 1, false, &none) ;
    static const st_item plain [] = { { "+0 for -0", h_pos_zero, false } } ;
    st_table ("PLUS_TIMES_FP64 -0", &c, plain, 1) ;
    c.signed_zero = true ;
    static const st_item sign [] = { { "no perturbation", NULL, false }, { "+0 for -0", h_pos_zero, true } } ;
    st_table ("PLUS_TIMES_FP64 -0 (signed)", &c, sign, NITEMS (sign)) ;
    trip_free (&a) ; trip_free (&b) ;
}

static void h_inf_at_0 (hook_ctx *h) { GrB_Matrix_setElement_FP64 (h->s1->C, INFINITY, 0, 0) ; }
static void h_inf_at_1 (hook_ctx *h) { GrB_Matrix_setElement_FP64 (h->s1->C, INFINITY, 1, 0) ; }

// MIN_FIRST_FP32 with an accum: C(0,0)'s one term is NaN (NaN or the
// identity +inf, as SuiteSparse's method has it), C(1,0)'s terms are NaN
// and 3 (3, exactly)
static void st_nan_terms (void)
{
    trip_t a = { 0 }, b = { 0 }, none = { 0 } ;
    trip_add (&a, 0, 0, NAN) ; trip_add (&a, 1, 0, NAN) ; trip_add (&a, 1, 1, 3) ;
    trip_add (&b, 0, 0, 1) ; trip_add (&b, 1, 0, 1) ;
    call_t c = reg_call (OP_MXM, GxB_MIN_FIRST_FP32, 2, 2, 1, GrB_PLUS_FP32) ;
    c.x = explicit_recipe (T_FP32, 2, 2, false, &a) ;
    c.y = explicit_recipe (T_FP32, 2, 1, false, &b) ;
    c.c = explicit_recipe (T_FP32, 2, 1, false, &none) ;
    static const st_item items [] = { { "no perturbation", NULL, false },
        { "+inf for an all-NaN sum", h_inf_at_0, false }, { "+inf for a sum with a 3", h_inf_at_1, true } } ;
    st_table ("MIN_FIRST_FP32 NaN terms", &c, items, NITEMS (items)) ;
    trip_free (&a) ; trip_free (&b) ;
}

static void self_test (void)
{
    st_exact_and_tolerant () ;
    st_any () ;
    st_signed_zero () ;
    st_nan_terms () ;
    // random cases: each agrees, and a changed info or GrB_error is reported
    static const st_item rnd [] = { { "no perturbation", NULL, false },
        { "info changed", h_info, true }, { "GrB_error message set", h_error, true } } ;
    for (long K = 0 ; K < 12 ; K++)
    {
        call_t c ;
        draw_case (18, K, &c) ;
        char what [64] ;
        snprintf (what, sizeof (what), "random case %ld (seed 18)", K) ;
        st_table (what, &c, rnd, NITEMS (rnd)) ;
    }
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

static void usage (void)
{
    fprintf (stderr, "usage: test_differential [--calls N] [--seed S] [--case K] [--shard I/N]\n"
        "    [--ops mxm,mxv,vxm] [--pool P] [--max-fail F] [--verbose]\n"
        "    [--regressions] [--no-regressions] [--self-test]\n") ;
}

static bool parse_ops (const char *s)
{
    for (int o = 0 ; o < NOPS ; o++) opt.ops [o] = strstr (s, op_name [o] + 4) != NULL ;
    opt.ops_arg = s ;
    return opt.ops [OP_MXM] || opt.ops [OP_MXV] || opt.ops [OP_VXM] ;
}

static bool parse_args (int argc, char **argv)
{
    for (int a = 1 ; a < argc ; a++)
    {
        const char *s = argv [a], *v = (a + 1 < argc) ? argv [a + 1] : NULL ;
        bool ok = true, takes = true ;
        if (strcmp (s, "--calls") == 0 && v) opt.calls = strtol (v, NULL, 0) ;
        else if (strcmp (s, "--seed") == 0 && v) { opt.seed = strtoull (v, NULL, 0) ; opt.seeded = true ; }
        else if (strcmp (s, "--case") == 0 && v) opt.only = strtol (v, NULL, 0) ;
        else if (strcmp (s, "--shard") == 0 && v) ok = sscanf (v, "%ld/%ld", &opt.shard_i, &opt.shard_n) == 2
            && opt.shard_n > 0 && opt.shard_i >= 0 && opt.shard_i < opt.shard_n ;
        else if (strcmp (s, "--ops") == 0 && v) ok = parse_ops (v) ;
        else if (strcmp (s, "--pool") == 0 && v) opt.pool = atoi (v) ;
        else if (strcmp (s, "--max-fail") == 0 && v) opt.max_fail = strtol (v, NULL, 0) ;
        else
        {
            takes = false ;
            if (strcmp (s, "--verbose") == 0) opt.verbose = true ;
            else if (strcmp (s, "--self-test") == 0) opt.self_test = true ;
            else if (strcmp (s, "--regressions") == 0) opt.regressions_only = true ;
            else if (strcmp (s, "--no-regressions") == 0) opt.no_regressions = true ;
            else ok = false ;
        }
        if (!ok) { fprintf (stderr, "test_differential: bad argument %s\n", s) ; usage () ; return false ; }
        a += takes ;
    }
    return true ;
}

static void defaults (bool gpu)
{
    const char *s = getenv ("GRBCUDA_DIFF_SEED") ;
    if (!opt.seeded && s != NULL && s [0] != '\0') { opt.seed = strtoull (s, NULL, 0) ; opt.seeded = true ; }
    if (!opt.seeded)
    {
        struct timespec ts ;
        clock_gettime (CLOCK_REALTIME, &ts) ;
        uint64_t st = ((uint64_t) ts.tv_sec << 30) ^ (uint64_t) ts.tv_nsec ^ ((uint64_t) getpid () << 48) ;
        opt.seed = gcu_rand (&st) ;
    }
    s = getenv ("GRBCUDA_DIFF_CALLS") ;
    if (opt.calls < 0 && s != NULL && s [0] != '\0') opt.calls = strtol (s, NULL, 0) ;
    if (opt.calls < 0) opt.calls = gpu ? 400 : 3000 ;
    s = getenv ("GRBCUDA_DIFF_POOL") ;
    if (opt.pool < 0) opt.pool = (s != NULL && s [0] != '\0') ? atoi (s) : 64 ;
}

static void families_init (void)
{
    for (int o = 0 ; o < NOPS ; o++)
    {
        int n = 0 ;
        const gcu_family *const *f = gcu_families (op_code [o], &n) ;
        for (int k = 0 ; k < n && k < 16 ; k++) fam_name [o][fam_n [o]++] = f [k]->name ;
    }
}

static void summary (double seconds)
{
    char gpu [512] = "", host [512] = "" ;
    size_t g = 0, h = 0 ;
    for (int o = 0 ; o < NOPS ; o++)
    {
        for (int f = 0 ; f < fam_n [o] ; f++)
        {
            if (fam_calls [o][f] == 0) continue ;
            g += snprintf (gpu + g, sizeof (gpu) - g, "%s%s: %llu", g ? ", " : "", fam_name [o][f],
                (unsigned long long) fam_calls [o][f]) ;
        }
    }
    for (int r = 0 ; r < GRBCUDA_NREASONS ; r++)
    {
        if (reason_calls [r] == 0) continue ;
        h += snprintf (host + h, sizeof (host) - h, "%s%s: %llu", h ? ", " : "",
            r > 0 ? grbcuda_reason_name ((grbcuda_reason) r) : "uncounted", (unsigned long long) reason_calls [r]) ;
    }
    if (iso_notes > 0) printf ("note: %d objects differ in iso status only (not a failure)\n", iso_notes) ;
    if (nan_term_notes > 0)
        printf ("note: %ld entries of MIN/MAX products whose terms are all NaN read as NaN or the identity (not a failure)\n",
            nan_term_notes) ;
    if (n_one_based > 0) printf ("note: %d semirings with 1-based positional multipliers left out "
        "(SuiteSparse 7.4 is no oracle for them)\n", n_one_based) ;
    if (status_notes > 0) printf ("note: %d results differ in sparsity status only (not a failure; the "
        "first: grbcuda %s)\n", status_notes, status_example) ;
    printf ("dense forms: %llu GrB_mxm calls ran as SDDMM (masked dot family, dense operands)\n",
        (unsigned long long) gcu_mxm_sddmm_runs ()) ;
    printf ("differential: seed %llu, %ld calls (mxm %ld, mxv %ld, vxm %ld), %ld on the GPU (%s), "
        "%ld on the host (%s), %ld differences, %.1f s\n", (unsigned long long) opt.seed,
        n_calls [0] + n_calls [1] + n_calls [2], n_calls [OP_MXM], n_calls [OP_MXV], n_calls [OP_VXM],
        n_gpu, g ? gpu : "none", n_host, h ? host : "none", n_diff, seconds) ;
}

int main (int argc, char **argv)
{
    if (!parse_args (argc, argv)) return 2 ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    grbcuda_set_mode (GRBCUDA_MODE_GPU) ;
    const bool gpu = grbcuda_gpu_available () != 0 ;
    defaults (gpu) ;
    printf ("differential: seed %llu (replay a case: test_differential --seed %llu --case K)\n",
        (unsigned long long) opt.seed, (unsigned long long) opt.seed) ;
    fflush (stdout) ;
    gcu_test_types_init () ;
    real_mxm = (mxm_t) gcu_test_real ("GrB_mxm") ;
    real_mxv = (mxv_t) gcu_test_real ("GrB_mxv") ;
    real_vxm = (vxm_t) gcu_test_real ("GrB_vxm") ;
    CHECK (real_mxm && real_mxv && real_vxm, "SuiteSparse's GrB_mxm/mxv/vxm not found") ;
    if (!real_mxm || !real_mxv || !real_vxm || !catalogue_init ()) return gcu_test_report ("test_differential") ;
    families_init () ;
    pool_init (opt.self_test ? 18 : opt.seed, opt.pool) ;
    const double t0 = gcu_now () ;
    if (opt.self_test) self_test () ;
    else
    {
        if (opt.regressions_only || (!opt.no_regressions && opt.shard_i == 0)) regressions () ;
        long nfail = 0 ;
        const long first = opt.only >= 0 ? opt.only : 0, last = opt.only >= 0 ? opt.only + 1 : opt.calls ;
        for (long K = first ; K < last && !opt.regressions_only ; K++)
        {
            if (K % opt.shard_n != opt.shard_i && opt.only < 0) continue ;
            if (!run_case (K) && opt.max_fail > 0 && ++nfail >= opt.max_fail)
            {
                printf ("stopped after %ld failing cases (--max-fail)\n", nfail) ;
                break ;
            }
        }
        summary (gcu_now () - t0) ;
    }
    free (pool) ;
    catalogue_free () ;
    GrB_finalize () ;
    return gcu_test_report ("test_differential") ;
}
