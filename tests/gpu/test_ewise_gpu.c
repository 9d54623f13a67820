// GRBCUDA_TEST_INTERNAL
// test_ewise_gpu.c — GrB_Vector_eWiseAdd_{BinaryOp,Monoid,Semiring} and
// GrB_Vector_eWiseMult_{BinaryOp,Monoid,Semiring} with the GPU forced,
// against SuiteSparse's own functions (gcu_test_real) on equal inputs:
//  (a) random cases from a fixed seed: a pool of kernel signatures (family,
//      variant, operator and its type, the types of u, v, w and the mask,
//      accum), built so that every operator kind of the lists below appears
//      (PLUS .. BXOR as operators, monoids and semirings' add or multiply),
//      and per case a length (1, 7, 1000, 50000), u and v each a host vector
//      (empty, sparse, dense, full) or device newest (the result of a GPU
//      GrB_mxv; SuiteSparse's real GrB_mxv on the oracle side gives the
//      same values: exact products of small numbers), w empty, partly
//      filled, full or device newest, a mask (none, host, device newest, w
//      itself) with each of the 8 mask descriptors (NULL mask + GrB_COMP
//      too), and aliasing (w == u, w == v, u == v). Checked: the return
//      code, nvals and a few entries of w while it may still be on the
//      device, then w's type, pattern and values (exact; NaN equals NaN;
//      for an ANY operator each entry must be the FIRST or the SECOND
//      answer), and the inputs left unchanged;
//  (b) error cases (u and v, w or the mask of another length; a
//      user-defined type where a built-in one is needed; a NULL operator),
//      with u device newest: SuiteSparse's info and error string, w
//      unchanged.
// Options: --cases N (default $GRBCUDA_EWISE_CASES, else 360), --case K
// (only case K: a replay), --seed S, --pool P (signatures, default 48),
// --no-gpu (run without a GPU: every call passes through), --list (print
// the signatures),
// --self-test (no GPU needed: each case's grbcuda result is perturbed, a
// removed, added or changed entry, and every perturbation must be caught).
// The same test of GrB_Matrix_eWiseAdd/eWiseMult is test_ewise_matrix_gpu.c:
// it includes this file with EWISE_MATRIX 1 (obj_t and the O_* macros
// below): shapes 1x1, 7x5, 300x200, 2000x1500 (default 200 cases); host
// operands also with a sparsity control (sparse, hypersparse, bitmap, full)
// and GxB_FORMAT set by hand, or iso (a scalar assigned through a pattern);
// device-newest ones from GrB_mxm (x*D, D diagonal or random); u and/or v
// transposed by the descriptor (GrB_DESC_<mask>T0, T1, T0T1); the errors
// also with a transposed u or v of another shape. In the vector test the
// random stream of every case is as before.
#define _GNU_SOURCE
#include "gcu_test.h"
#include "grbcuda.h"
#include "residency/gcu_residency.h"
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

//------------------------------------------------------------------------------
// vectors or matrices: test_ewise_matrix_gpu.c includes this file with
// EWISE_MATRIX 1. An object of m-by-n (vectors: of length m; j is 0)
//------------------------------------------------------------------------------

#ifndef EWISE_MATRIX
#define EWISE_MATRIX 0
#endif
#define IS_MATRIX EWISE_MATRIX
#if IS_MATRIX
#define OBJ Matrix
#define OBJL matrix
#define IJ(i, j) i, j                   // an index, or the dimensions
#define PROD_GPU GrB_mxm                // the product making device operands
#define PROD_XD(D, x) x, D              // x*D
#define PROD_T const GrB_Matrix, const GrB_Matrix
#else
#define PROD_GPU GrB_mxv
#define PROD_T const GrB_Matrix, const GrB_Vector
#define IJ(i, j) i
#define OBJL vector
#define PROD_XD(D, x) D, x              // D*x
#define OBJ Vector
#endif
#define CAT4_(a, b, c, d) a ## b ## c ## d
#define CAT4(a, b, c, d) CAT4_ (a, b, c, d)
#define STR_(a) #a
#define STR(a) STR_ (a)
#define TEST_NAME (IS_MATRIX ? "test_ewise_matrix_gpu" : "test_ewise_gpu")
#define KIND(f) "GrB_" STR (OBJ) "_" f
#define EWF(f) CAT4 (GrB_, OBJ, _, f)
#define EWX(f) CAT4 (GxB_, OBJ, _, f)
typedef CAT4 (GrB_, OBJ, , ) obj_t ;
#define O_new(p, t, m, n) EWF (new) (p, t, IJ (m, n))
#define O_get_FP64(x, A, i, j) EWF (extractElement_FP64) (x, A, IJ (i, j))
#define O_get_FC64(x, A, i, j) EWX (extractElement_FC64) (x, A, IJ (i, j))
#define O_set_FP64(A, x, i, j) EWF (setElement_FP64) (A, x, IJ (i, j))
#define O_set_BOOL(A, x, i, j) EWF (setElement_BOOL) (A, x, IJ (i, j))
#define O_remove(A, i, j) EWF (removeElement) (A, IJ (i, j))
#define O_random(t, m, n, d, st) CAT4 (gcu_test_random_, OBJL, , ) (t, IJ (m, n), d, st)
#define ALL_(k) GrB_ALL, k
#define O_assign_FP64(A, P, x, m, n) EWF (assign_FP64) (A, P, NULL, x, IJ (ALL_ (m), ALL_ (n)), GrB_DESC_S)
#define O_type EWX (type)
#define O_nvals EWF (nvals)
#define O_dup EWF (dup)
#define O_free EWF (free)
#define O_error EWF (error)
#define O_equal CAT4 (gcu_test_, OBJL, _equal, )
#define PROD_NAME STR (PROD_GPU)
typedef GrB_Info (*prod_t) (obj_t, const obj_t, const GrB_BinaryOp, const GrB_Semiring,
    PROD_T, const GrB_Descriptor) ;
#define PROD(f, g, s, D, x) f (g, NULL, NULL, s, PROD_XD (D, x), NULL)

//------------------------------------------------------------------------------
// the functions under test, and SuiteSparse's own
//------------------------------------------------------------------------------

// an eWise function with an operator of type op_t
#define EW_T(name, op_t) typedef GrB_Info (*name) (obj_t, const obj_t, \
    const GrB_BinaryOp, const op_t, const obj_t, const obj_t, const GrB_Descriptor)
EW_T (ew_bin_t, GrB_BinaryOp) ;
EW_T (ew_mon_t, GrB_Monoid) ;
EW_T (ew_sem_t, GrB_Semiring) ;
typedef GrB_Info (*reduce_bool_t) (bool *, const GrB_BinaryOp, const GrB_Monoid,
    const obj_t, const GrB_Descriptor) ;

// GxB_eWiseUnion: a binary operator and the scalars alpha and beta
typedef GrB_Info (*ew_union_t) (obj_t, const obj_t, const GrB_BinaryOp, const GrB_BinaryOp,
    const obj_t, const GrB_Scalar, const obj_t, const GrB_Scalar, const GrB_Descriptor) ;

enum { ADD = 0, MULT = 1, UNION = 2 } ;          // family
enum { BINOP = 0, MONOID = 1, SEMIRING = 2 } ;   // variant (UNION: BINOP only)
#define UNION_NAME "GxB_" STR (OBJ) "_eWiseUnion"
static const char *ew_name [3][3] = {
    { KIND ("eWiseAdd_BinaryOp"), KIND ("eWiseAdd_Monoid"), KIND ("eWiseAdd_Semiring") },
    { KIND ("eWiseMult_BinaryOp"), KIND ("eWiseMult_Monoid"), KIND ("eWiseMult_Semiring") },
    { UNION_NAME, UNION_NAME, UNION_NAME } } ;
static ew_bin_t real_bin [2] ;
static ew_mon_t real_mon [2] ;
static ew_sem_t real_sem [2] ;
static ew_union_t real_union ;
// the union's alpha and beta of the case running (run_case, error_case)
static GrB_Scalar u_alpha = NULL, u_beta = NULL ;
static prod_t real_prod ;
static reduce_bool_t real_reduce_bool ;

// w<M> = accum (w, u op v): through grbcuda (real false) or SuiteSparse
static GrB_Info ewise (bool real, int fam, int var, obj_t w, obj_t M,
    GrB_BinaryOp accum, void *op, obj_t u, obj_t v, GrB_Descriptor d)
{
    if (fam == UNION)
        return real ? real_union (w, M, accum, (GrB_BinaryOp) op, u, u_alpha, v, u_beta, d)
            : EWX (eWiseUnion) (w, M, accum, (GrB_BinaryOp) op, u, u_alpha, v, u_beta, d) ;
    if (real)
    {
        switch (var)
        {
            case BINOP:  return real_bin [fam] (w, M, accum, (GrB_BinaryOp) op, u, v, d) ;
            case MONOID: return real_mon [fam] (w, M, accum, (GrB_Monoid) op, u, v, d) ;
            default:     return real_sem [fam] (w, M, accum, (GrB_Semiring) op, u, v, d) ;
        }
    }
    switch (fam * 3 + var)
    {
        case 0:  return EWF (eWiseAdd_BinaryOp) (w, M, accum, (GrB_BinaryOp) op, u, v, d) ;
        case 1:  return EWF (eWiseAdd_Monoid) (w, M, accum, (GrB_Monoid) op, u, v, d) ;
        case 2:  return EWF (eWiseAdd_Semiring) (w, M, accum, (GrB_Semiring) op, u, v, d) ;
        case 3:  return EWF (eWiseMult_BinaryOp) (w, M, accum, (GrB_BinaryOp) op, u, v, d) ;
        case 4:  return EWF (eWiseMult_Monoid) (w, M, accum, (GrB_Monoid) op, u, v, d) ;
        default: return EWF (eWiseMult_Semiring) (w, M, accum, (GrB_Semiring) op, u, v, d) ;
    }
}

static uint64_t gpu_calls (int fam, int var)
{
    grbcuda_op_stats s ;
    memset (&s, 0, sizeof (s)) ;
    return grbcuda_stats_get (ew_name [fam][var], &s) == GrB_SUCCESS ? s.gpu : 0 ;
}

static bool is_newest (const void *v)
{
    uint64_t nv ;
    return gcu_residency_newest_nvals (v, &nv) ;
}

//------------------------------------------------------------------------------
// types and operators, looked up by name in GraphBLAS
//------------------------------------------------------------------------------

enum { NT = 9 } ;
enum { BOOL_ = 0, INT8_, INT32_, INT64_, UINT16_, UINT64_, FP32_, FP64_, FC64_ } ;
static GrB_Type TY [NT] ;
static const char *TN [NT] = { "BOOL", "INT8", "INT32", "INT64", "UINT16", "UINT64",
    "FP32", "FP64", "FC64" } ;
#define T_ALL   0x1FF
#define T_NB    0x1FE       // all but BOOL
#define T_REAL  0x0FF       // all but FC64
#define T_RNB   0x0FE       // real, not BOOL
#define T_BOOL  0x001
#define T_UNS   ((1 << UINT16_) | (1 << UINT64_))
#define T_INT   0x03E       // the integers
#define T_FLT   0x1C0       // FP32, FP64, FC64

// the object a GraphBLAS global of this name holds (NULL if none)
static void *global (const char *name)
{
    void **p = (void **) dlsym (RTLD_DEFAULT, name) ;
    return p == NULL ? NULL : *p ;
}

// the first of the name patterns (each with %s for the kind, then %s for
// the type) that names an object
static void *lookup (const char *const *fmt, int nfmt, const char *kind, int t,
    char *name, size_t size)
{
    for (int f = 0 ; f < nfmt ; f++)
    {
        snprintf (name, size, fmt [f], kind, TN [t]) ;
        void *o = global (name) ;
        if (o != NULL) return o ;
    }
    return NULL ;
}

static const char *const binop_fmt [] = { "GrB_%s_%s", "GxB_%s_%s" } ;
static const char *const monoid_fmt [] = { "GrB_%s_MONOID_%s", "GxB_%s_%s_MONOID" } ;
static const char *const semiring_fmt [] = { "GrB_%s_SEMIRING_%s", "GxB_%s_%s" } ;

typedef struct { const char *kind ; int types ; } kind_t ;
static const kind_t binop_kinds [] = {
    { "PLUS", T_ALL }, { "MINUS", T_ALL }, { "TIMES", T_ALL }, { "DIV", T_ALL },
    { "MIN", T_REAL }, { "MAX", T_REAL }, { "FIRST", T_ALL }, { "SECOND", T_ALL },
    { "PAIR", T_ALL }, { "ONEB", T_ALL }, { "ANY", T_ALL }, { "LOR", T_BOOL },
    { "LAND", T_BOOL }, { "LXOR", T_BOOL }, { "LT", T_REAL }, { "EQ", T_ALL },
    { "GE", T_REAL }, { "BAND", T_UNS }, { "BOR", T_UNS }, { "BXOR", T_UNS },
    { "DIV", T_INT }, { "DIV", T_FLT }, { "MINUS", T_UNS }, { "RMINUS", T_ALL } } ;
static const kind_t monoid_kinds [] = {
    { "PLUS", T_NB }, { "TIMES", T_NB }, { "MIN", T_RNB }, { "MAX", T_RNB },
    { "ANY", T_ALL }, { "LOR", T_BOOL }, { "LAND", T_BOOL }, { "LXOR", T_BOOL },
    { "LXNOR", T_BOOL }, { "BOR", T_UNS }, { "BAND", T_UNS }, { "BXOR", T_UNS } } ;
static const kind_t semiring_kinds [] = {
    { "PLUS_TIMES", T_NB }, { "MIN_PLUS", T_RNB }, { "MAX_SECOND", T_RNB },
    { "ANY_PAIR", T_ALL }, { "PLUS_DIV", T_NB }, { "LOR_LT", T_REAL },
    { "LAND_EQ", T_REAL }, { "LXOR_GE", T_REAL }, { "BOR_BAND", T_UNS },
    { "LOR_LAND", T_BOOL }, { "PLUS_MINUS", T_NB }, { "ANY_FIRST", T_ALL },
    { "MAX_MIN", T_RNB }, { "MIN_FIRST", T_RNB } } ;   // the last two from --pool 56
#define NKINDS(a) ((int) (sizeof (a) / sizeof ((a) [0])))

static int type_index (GrB_Type t)
{
    for (int k = 0 ; k < NT ; k++) if (TY [k] == t) return k ;
    return -1 ;
}

//------------------------------------------------------------------------------
// kernel signatures
//------------------------------------------------------------------------------

typedef struct
{
    int fam, var ;
    void *op ;
    char opname [64] ;
    int ot ;                // the operator's type (its name's suffix)
    bool any ;              // T's values where u and v both have an entry: either
    int ta ;                // UNION: the type of alpha and beta
    double alpha, beta ;    // UNION: their values
    int tu, tv, tw, tm ;    // types of u, v, w, the mask
    GrB_BinaryOp accum ;
    char accname [32] ;
}
sig_t ;

// a random type among those of `types` for which the name resolves
static void *pick_op (const char *const *fmt, int nfmt, const char *kind, int types,
    uint64_t *st, char *name, size_t size, int *ot)
{
    int cand [NT], nc = 0 ;
    for (int t = 0 ; t < NT ; t++) if (types & (1 << t)) cand [nc++] = t ;
    for (int tries = 0 ; nc > 0 && tries < 4 * NT ; tries++)
    {
        int t = cand [gcu_rand (st) % nc] ;
        void *o = lookup (fmt, nfmt, kind, t, name, size) ;
        if (o == NULL && t == BOOL_)
        {
            // GrB_LOR, GrB_LAND, GrB_LXOR have no type suffix
            snprintf (name, size, "GrB_%s", kind) ;
            o = global (name) ;
        }
        if (o != NULL) { *ot = t ; return o ; }
    }
    return NULL ;
}

static int pick_type (uint64_t *st, int op_type)
{
    // a third of the time the operator's own type (no cast)
    return (gcu_rand (st) % 3 == 0) ? op_type : (int) (gcu_rand (st) % NT) ;
}

static void make_sig (sig_t *S, int k, uint64_t *st)
{
    memset (S, 0, sizeof (*S)) ;
    // half binary operators, a quarter monoids, a quarter semirings; each
    // list walked in order so that every kind appears; families alternate
    const int r = k % 4 ;
    S->var = (r < 2) ? BINOP : (r == 2) ? MONOID : SEMIRING ;
    S->fam = (k / 4 + r) % 2 ;
    const kind_t *K ;
    const char *const *fmt = binop_fmt ;
    int nfmt = 2 ;
    switch (S->var)
    {
        case BINOP:
            K = &binop_kinds [(k / 4 * 2 + r) % NKINDS (binop_kinds)] ; break ;
        case MONOID:
            K = &monoid_kinds [(k / 4) % NKINDS (monoid_kinds)] ; fmt = monoid_fmt ; break ;
        default:
            K = &semiring_kinds [(k / 4) % NKINDS (semiring_kinds)] ; fmt = semiring_fmt ; break ;
    }
    S->op = pick_op (fmt, nfmt, K->kind, K->types, st, S->opname, sizeof (S->opname), &S->ot) ;
    if (S->op == NULL)
    {
        // cannot happen with GraphBLAS 7; fall back to something that exists
        S->var = BINOP ; S->op = GrB_PLUS_FP64 ; S->ot = FP64_ ;
        snprintf (S->opname, sizeof (S->opname), "GrB_PLUS_FP64") ;
    }
    // ANY: where u and v both have an entry, T may hold either's value
    if (S->var == BINOP || S->var == MONOID) S->any = strcmp (K->kind, "ANY") == 0 ;
    else S->any = (S->fam == ADD) && strncmp (K->kind, "ANY_", 4) == 0 ;
    // eWiseUnion in place of two eWiseAdd binary-operator signatures in
    // three, decided by k alone (the random stream, and so every other
    // signature and case, stays as it was): alpha and beta of a type of
    // their own (cast to the operator's x and y), NaN among their values
    if (S->fam == ADD && S->var == BINOP && k % 3 != 2)
    {
        static const double av [5] = { 2.5, -3, 0, 7, NAN } ;
        S->fam = UNION ;
        S->ta = (int) ((k * 5 + 3) % NT) ;
        S->alpha = av [k % 5] ;
        S->beta = av [(k / 5 + 2) % 5] ;
    }
    S->tu = pick_type (st, S->ot) ;
    S->tv = pick_type (st, S->ot) ;
    S->tw = pick_type (st, S->ot) ;
    const int mtypes [5] = { BOOL_, INT8_, UINT64_, FP64_, FC64_ } ;
    S->tm = mtypes [gcu_rand (st) % 5] ;
    // accum: none, PLUS of w's type, or one that needs casts
    switch (gcu_rand (st) % 10)
    {
        case 0: case 1: case 2: case 3: S->accum = NULL ; break ;
        case 4: case 5: S->accum = gcu_test_plus (TY [S->tw]) ; break ;
        case 6: S->accum = GrB_PLUS_FP64 ; break ;
        case 7: S->accum = GrB_MINUS_INT32 ; break ;
        case 8: S->accum = GrB_MAX_FP32 ; break ;
        default: S->accum = (gcu_rand (st) % 2) ? GrB_TIMES_UINT16 : GrB_LOR ; break ;
    }
    if (S->accum == NULL) snprintf (S->accname, sizeof (S->accname), "none") ;
    else
    {
        const char *nm = "?" ;
        if (S->accum == GrB_PLUS_FP64) nm = "PLUS_FP64" ;
        else if (S->accum == GrB_MINUS_INT32) nm = "MINUS_INT32" ;
        else if (S->accum == GrB_MAX_FP32) nm = "MAX_FP32" ;
        else if (S->accum == GrB_TIMES_UINT16) nm = "TIMES_UINT16" ;
        else if (S->accum == GrB_LOR) nm = "LOR" ;
        else if (S->accum == gcu_test_plus (TY [S->tw])) nm = "PLUS of w's type" ;
        snprintf (S->accname, sizeof (S->accname), "%s", nm) ;
    }
}

//------------------------------------------------------------------------------
// operands: a grbcuda-side vector and an oracle-side one with equal values
//------------------------------------------------------------------------------

enum { SRC_HOST = 0, SRC_DEVICE = 1 } ;
static int newest_inputs = 0 ;      // device-newest operands made (all cases)

static GrB_Semiring plus_times (int t)
{
    char name [64] ;
    if (t == BOOL_) return GrB_LOR_LAND_SEMIRING_BOOL ;
    return (GrB_Semiring) lookup (semiring_fmt, 2, "PLUS_TIMES", t, name, sizeof (name)) ;
}

#if IS_MATRIX
// matrices only: the storage of g set by hand (sparsity control, by row or
// by column), or g made iso by an assign of a scalar through a pattern
static void storage (GrB_Matrix *g, int t, GrB_Index m, GrB_Index n, double density,
    uint64_t *st, char *how, size_t size)
{
    static const int ctl [4] = { GxB_SPARSE, GxB_HYPERSPARSE, GxB_BITMAP, GxB_FULL } ;
    static const char *cname [4] = { "sparse", "hyper", "bitmap", "full" } ;
    const unsigned r = (unsigned) (gcu_rand (st) % 8) ;
    const size_t len = strlen (how) ;
    if (r == 0)
    {
        // iso: a scalar assigned through g's own pattern (or everywhere)
        GrB_Matrix P = *g ;
        const double x = (double) (gcu_rand (st) % 5) + ((gcu_rand (st) % 2) ? 0.5 : 0) ;
        OK (O_new (g, TY [t], m, n)) ;
        if (density >= 1) OK (GrB_Matrix_assign_FP64 (*g, NULL, NULL, x, GrB_ALL, m, GrB_ALL, n, NULL)) ;
        else OK (O_assign_FP64 (*g, P, x, m, n)) ;
        GrB_Matrix_free (&P) ;
        snprintf (how + len, size - len, " iso %g", x) ;
    }
    else if (r < 5)
    {
        const int c = (int) (gcu_rand (st) % 4) ;
        const bool by_col = gcu_rand (st) % 2 ;
        OK (GxB_Matrix_Option_set (*g, GxB_FORMAT, by_col ? GxB_BY_COL : GxB_BY_ROW)) ;
        OK (GxB_Matrix_Option_set (*g, GxB_SPARSITY_CONTROL, ctl [c])) ;
        snprintf (how + len, size - len, " %s by %s", cname [c], by_col ? "col" : "row") ;
    }
}
#endif

// g through grbcuda, o through SuiteSparse, m-by-n. SRC_DEVICE: g = D*x
// (vectors, GrB_mxv) or x*D (matrices, GrB_mxm) with the GPU forced (left
// on the device), o by SuiteSparse's own; D identity-like (a diagonal with
// holes) or random, x of ~density: the products of small numbers are exact
// in every type, in any order. In a floating type D's entries are positive,
// so that no entry is -0 (0 * -2, or -3 * 0): any operand may be a valued
// mask (M == w too), and SuiteSparse 7.4 reads a -0 in a valued mask as
// true (its kernels test the bits, as grbcuda's do) or as false (where it
// transposes the mask to its own orientation, casting it to bool), by the
// storage of C, M, u and v and the descriptor: no answer is SuiteSparse's
// alone (seen on the H200, test_ewise_matrix_gpu cases 92 and 114 at
// seed 0x5eed0e3153; reproduced with SuiteSparse alone).
static bool is_float_type (int t)
{
    return TY [t] == GrB_FP32 || TY [t] == GrB_FP64 || TY [t] == GxB_FC32 || TY [t] == GxB_FC64 ;
}

static void make_pair (int src, int t, GrB_Index m, GrB_Index n, double density, uint64_t *st,
    obj_t *g, obj_t *o, char *how, size_t size)
{
    if (src == SRC_HOST)
    {
        *g = O_random (TY [t], m, n, density, st) ;
        snprintf (how, size, "host %s %.2f", TN [t], density) ;
#if IS_MATRIX
        storage (g, t, m, n, density, st, how, size) ;
#endif
        OK (O_dup (o, *g)) ;
        return ;
    }
    const GrB_Index k = IS_MATRIX ? n : m ;
    GrB_Matrix A = NULL ;
    const bool diag = gcu_rand (st) % 2 ;
    if (diag)
    {
        const double d = (gcu_rand (st) % 2) ? 1.0 : 0.7 ;
        GrB_Index *I = malloc (k * sizeof (GrB_Index)) ;
        double *X = malloc (k * sizeof (double)) ;
        GrB_Index nz = 0 ;
        for (GrB_Index i = 0 ; i < k ; i++)
        {
            if (gcu_rand01 (st) >= d) continue ;
            I [nz] = i ;
            X [nz] = (double) ((int) (gcu_rand (st) % 9) - 2) + ((gcu_rand (st) % 4 == 0) ? 0.5 : 0) ;
            if (is_float_type (t)) X [nz] = fabs (X [nz]) + 0.5 ;
            nz++ ;
        }
        OK (GrB_Matrix_new (&A, TY [t], k, k)) ;
        OK (GrB_Matrix_build_FP64 (A, I, I, X, nz, GrB_SECOND_FP64)) ;
        free (I) ; free (X) ;
    }
    else
    {
        const double per_row = 1 + (double) (gcu_rand (st) % 4) ;
        A = gcu_test_random_matrix (TY [t], k, k, per_row / (double) k, st) ;
        if (is_float_type (t))
        {
            // |D| + 1: no zero, no negative entry
            OK (GrB_Matrix_apply (A, NULL, NULL, GrB_ABS_FP64, A, NULL)) ;
            OK (GrB_Matrix_apply_BinaryOp2nd_FP64 (A, NULL, NULL, GrB_PLUS_FP64, A, 1.0, NULL)) ;
        }
    }
    obj_t x = O_random (TY [t], m, n, density, st) ;
    GrB_Semiring s = plus_times (t) ;
    OK (O_new (g, TY [t], m, n)) ;
    OK (O_new (o, TY [t], m, n)) ;
    GrB_Info i1 = PROD (PROD_GPU, *g, s, A, x) ;
    GrB_Info i2 = PROD (real_prod, *o, s, A, x) ;
    CHECK (i1 == GrB_SUCCESS && i2 == GrB_SUCCESS, "operand by %s: info %d, SuiteSparse %d",
        PROD_NAME, (int) i1, (int) i2) ;
    const bool newest = is_newest (*g) ;
    newest_inputs += newest ;
    snprintf (how, size, "%s %s = %s (%s, x %.2f)", newest ? "device-newest" : "not newest",
        TN [t], PROD_NAME, diag ? "diag" : "random", density) ;
    GrB_Matrix_free (&A) ;
    O_free (&x) ;
}

//------------------------------------------------------------------------------
// comparisons
//------------------------------------------------------------------------------

static bool same_double (double a, double b)
{
    return (isnan (a) && isnan (b)) || a == b ;
}

// ANY: same type and pattern as o1 (and o2), and each entry equal to o1's
// (T from FIRST) or o2's (T from SECOND), through SuiteSparse's functions
static bool any_equal (obj_t w, obj_t o1, obj_t o2, GrB_Index m, GrB_Index n,
    const char *what)
{
    (void) n ;                                  // vectors: unused
    if (!O_equal (w, o1, 0, true, what)) return false ;
    GrB_Type t ;
    OK (O_type (&t, w)) ;
    char name [64] ;
    const int k = type_index (t) ;
    GrB_BinaryOp eq = (k < 0) ? NULL : (GrB_BinaryOp) lookup (binop_fmt, 2, "EQ", k, name, sizeof (name)) ;
    if (eq == NULL) { fprintf (stderr, "%s: no EQ for the type\n", what) ; return false ; }
    obj_t e1 = NULL, e2 = NULL ;
    OK (O_new (&e1, GrB_BOOL, m, n)) ;
    OK (O_new (&e2, GrB_BOOL, m, n)) ;
    OK (real_bin [MULT] (e1, NULL, NULL, eq, w, o1, NULL)) ;
    OK (real_bin [MULT] (e2, NULL, NULL, eq, w, o2, NULL)) ;
    OK (real_bin [ADD] (e1, NULL, NULL, GrB_LOR, e1, e2, NULL)) ;
    bool all = false ;
    OK (real_reduce_bool (&all, NULL, GrB_LAND_MONOID_BOOL, e1, NULL)) ;
    if (!all) fprintf (stderr, "%s: an entry is neither the FIRST nor the SECOND answer\n", what) ;
    O_free (&e1) ; O_free (&e2) ;
    return all ;
}

// Deliberately wrong: one entry of w removed, added or changed (the
// self-test's stand-in for a wrong GPU answer). value_ok: a change of value
// may be caught (not under ANY, where the other answer may be right too).
static void perturb (obj_t w, GrB_Index m, GrB_Index n, bool value_ok, uint64_t *st)
{
    const GrB_Index i = gcu_rand (st) % m, j = IS_MATRIX ? gcu_rand (st) % n : 0 ;
    (void) j ;                                  // vectors: unused
    GrB_Type t ;
    OK (O_type (&t, w)) ;
    double x = 0 ;
    GrB_Info info = O_get_FP64 (&x, w, i, j) ;
    if (info == GrB_NO_VALUE) OK (O_set_FP64 (w, 1.0, i, j)) ;
    else if (!value_ok || gcu_rand (st) % 2) OK (O_remove (w, i, j)) ;
    else if (t == GrB_BOOL) OK (O_set_BOOL (w, !(x != 0), i, j)) ;
    else OK (O_set_FP64 (w, x == 2 ? 3 : 2, i, j)) ;
}

//------------------------------------------------------------------------------
// (a) one random case
//------------------------------------------------------------------------------

static bool self_test = false ;
static int cases_run = 0, cases_gpu = 0, cases_gpu_newest = 0, cases_newest_in = 0 ;
static int cases_err = 0, cases_any = 0, fam_count [3], fam_gpu [3], perturbed = 0, caught = 0 ;

static void run_case (int k, const sig_t *S, uint64_t seed)
{
    uint64_t st = seed ^ (0xD1B54A32D192ED03ull * (uint64_t) (k + 1)) ;
    gcu_rand (&st) ;
    const int failed0 = gcu_test_failed ;
    char du [96] = "", dv [96] = "", dw [96] = "", dm [96] = "none" ;

#if IS_MATRIX
    static const GrB_Index shapes [4][2] = { { 1, 1 }, { 7, 5 }, { 300, 200 }, { 2000, 1500 } } ;
#else
    static const GrB_Index shapes [4][2] = { { 1, 1 }, { 7, 1 }, { 1000, 1 }, { 50000, 1 } } ;
#endif
    const unsigned rl = (unsigned) (gcu_rand (&st) % 20) ;
    const int sh = rl < 3 ? 0 : rl < 7 ? 1 : rl < (IS_MATRIX ? 19 : 16) ? 2 : 3 ;
    const GrB_Index m = shapes [sh][0], n = shapes [sh][1] ;
    static const double dens [7] = { 0, 0.01, 0.1, 0.3, 0.5, 0.9, 1.0 } ;
    // aliasing: 0 none, 1 w == u, 2 u == v, 3 w == v
    const unsigned ra = (unsigned) (gcu_rand (&st) % 20) ;
    const int alias = ra < 14 ? 0 : ra < 17 ? 1 : ra < 19 ? 2 : 3 ;
    // matrices: u (bit 0) and v (bit 1) transposed by the descriptor; an
    // aliased one not where its shape would differ
    int tr = IS_MATRIX ? (int) (gcu_rand (&st) % 4) : 0 ;
    if (m != n) tr = alias == 1 ? tr & 2 : alias == 3 ? tr & 1 : alias == 2 ? 3 * (tr & 1) : tr ;
    const GrB_Index um = (tr & 1) ? n : m, un = (tr & 1) ? m : n ;
    const GrB_Index vm = (tr & 2) ? n : m, vn = (tr & 2) ? m : n ;

    obj_t ug, uo, vg, vo, wg = NULL, wo = NULL, Mg = NULL, Mo = NULL ;
    int src = (gcu_rand (&st) % 100 < 40) ? SRC_DEVICE : SRC_HOST ;
    make_pair (src, S->tu, um, un, dens [gcu_rand (&st) % 7], &st, &ug, &uo, du, sizeof (du)) ;
    if (alias == 2) { vg = ug ; vo = uo ; snprintf (dv, sizeof (dv), "u") ; }
    else
    {
        src = (gcu_rand (&st) % 100 < 40) ? SRC_DEVICE : SRC_HOST ;
        make_pair (src, S->tv, vm, vn, dens [gcu_rand (&st) % 7], &st, &vg, &vo, dv, sizeof (dv)) ;
    }
    if (alias == 1) { wg = ug ; wo = uo ; snprintf (dw, sizeof (dw), "u") ; }
    else if (alias == 3) { wg = vg ; wo = vo ; snprintf (dw, sizeof (dw), "v") ; }
    else
    {
        switch (gcu_rand (&st) % 5)
        {
            case 0: case 1:
                OK (O_new (&wg, TY [S->tw], m, n)) ;
                OK (O_new (&wo, TY [S->tw], m, n)) ;
                snprintf (dw, sizeof (dw), "empty %s", TN [S->tw]) ;
                break ;
            case 2: make_pair (SRC_HOST, S->tw, m, n, 0.3, &st, &wg, &wo, dw, sizeof (dw)) ; break ;
            case 3: make_pair (SRC_HOST, S->tw, m, n, 1.0, &st, &wg, &wo, dw, sizeof (dw)) ; break ;
            default: make_pair (SRC_DEVICE, S->tw, m, n, 0.5, &st, &wg, &wo, dw, sizeof (dw)) ; break ;
        }
    }
    // the mask: none, a host vector, a device-newest one, or w itself
    const unsigned rm = (unsigned) (gcu_rand (&st) % 20) ;
    if (rm >= 6 && rm < 17)
        make_pair (SRC_HOST, S->tm, m, n, dens [1 + gcu_rand (&st) % 6], &st, &Mg, &Mo, dm, sizeof (dm)) ;
    else if (rm >= 17 && rm < 19)
        make_pair (SRC_DEVICE, S->tm, m, n, 0.5, &st, &Mg, &Mo, dm, sizeof (dm)) ;
    else if (rm == 19) { Mg = wg ; Mo = wo ; snprintf (dm, sizeof (dm), "w") ; }
    static const char *dname [8] = { "NULL", "C", "S", "SC", "R", "RC", "RS", "RSC" } ;
    static const char *tname [4] = { "", "T0", "T1", "T0T1" } ;
    const int di = (int) (gcu_rand (&st) % 8) ;
    // GrB_DESC_<mask><transposes> (NULL for none of them)
    char dsc [32] ;
    snprintf (dsc, sizeof (dsc), "GrB_DESC_%s%s", di ? dname [di] : "", tname [tr]) ;
    const GrB_Descriptor d = (GrB_Descriptor) global (dsc) ;
    CHECK (d != NULL || (di == 0 && tr == 0), "descriptor %s", dsc) ;

    // eWiseUnion's alpha and beta
    char dab [96] = "" ;
    if (S->fam == UNION)
    {
        OK (GrB_Scalar_new (&u_alpha, TY [S->ta])) ;
        OK (GrB_Scalar_new (&u_beta, TY [S->ta])) ;
        OK (GrB_Scalar_setElement_FP64 (u_alpha, S->alpha)) ;
        OK (GrB_Scalar_setElement_FP64 (u_beta, S->beta)) ;
        snprintf (dab, sizeof (dab), ", alpha %g beta %g (%s)", S->alpha, S->beta, TN [S->ta]) ;
    }
    char what [700] ;
    snprintf (what, sizeof (what), "case %d: %s %s%s, %llux%llu, u %s, v %s, w %s, mask %s, desc %s%s, "
        "accum %s%s", k, ew_name [S->fam][S->var], S->opname, dab, (unsigned long long) m,
        (unsigned long long) n, du, dv, dw, dm, dname [di], tname [tr], S->accname, S->any ? " (ANY)" : "") ;

    // for ANY, the oracle's two readings: T from FIRST and from SECOND
    obj_t o1 = NULL, o2 = NULL ;
    if (S->any)
    {
        OK (O_dup (&o1, wo)) ;
        OK (O_dup (&o2, wo)) ;
    }

    // the call under test, then SuiteSparse's
    const bool newest_in = is_newest (ug) || is_newest (vg) || is_newest (wg)
        || (Mg != NULL && is_newest (Mg)) ;
    const uint64_t gpu0 = gpu_calls (S->fam, S->var) ;
    const GrB_Info ig = ewise (false, S->fam, S->var, wg, Mg, S->accum, S->op, ug, vg, d) ;
    const bool on_gpu = gpu_calls (S->fam, S->var) > gpu0 ;
    const bool w_newest = is_newest (wg) ;
    GrB_Info io ;
    if (!S->any) io = ewise (true, S->fam, S->var, wo, Mo, S->accum, S->op, uo, vo, d) ;
    else
    {
        char name [64] ;
        GrB_BinaryOp first = lookup (binop_fmt, 2, "FIRST", S->ot, name, sizeof (name)) ;
        GrB_BinaryOp second = lookup (binop_fmt, 2, "SECOND", S->ot, name, sizeof (name)) ;
        // the same aliasing on the oracle side: w == u is o1 == u there
        obj_t u1 = alias == 1 ? o1 : uo, v1 = alias == 3 ? o1 : alias == 2 ? u1 : vo ;
        obj_t M1 = Mo == wo ? o1 : Mo ;
        io = ewise (true, S->fam, BINOP, o1, M1, S->accum, first, u1, v1, d) ;
        obj_t u2 = alias == 1 ? o2 : uo, v2 = alias == 3 ? o2 : alias == 2 ? u2 : vo ;
        obj_t M2 = Mo == wo ? o2 : Mo ;
        const GrB_Info io2 = ewise (true, S->fam, BINOP, o2, M2, S->accum, second, u2, v2, d) ;
        CHECK (io == io2, "%s: SuiteSparse FIRST %d, SECOND %d", what, (int) io, (int) io2) ;
        // wo keeps w's value from before (o1 and o2 are its copies): the
        // inputs that are not w were read by neither oracle call
    }
    cases_run++ ;
    fam_count [S->fam]++ ;
    fam_gpu [S->fam] += on_gpu ;
    cases_gpu += on_gpu ;
    cases_gpu_newest += on_gpu && w_newest ;
    cases_newest_in += newest_in ;
    cases_any += S->any ;
    CHECK (ig == io, "%s: info %d, SuiteSparse %d", what, (int) ig, (int) io) ;
    if (ig != GrB_SUCCESS) cases_err++ ;

    if (self_test && ig == GrB_SUCCESS && io == GrB_SUCCESS)
    {
        perturb (wg, m, n, !S->any, &st) ;
        perturbed++ ;
    }
    const int failed1 = gcu_test_failed ;

    if (ig == GrB_SUCCESS && io == GrB_SUCCESS)
    {
        // nvals and a few entries while w may still be on the device
        GrB_Index ng = 0, no = 0 ;
        OK (O_nvals (&ng, wg)) ;
        OK (O_nvals (&no, S->any ? o1 : wo)) ;
        CHECK (ng == no, "%s: nvals %llu, SuiteSparse %llu", what, (unsigned long long) ng,
            (unsigned long long) no) ;
        for (int e = 0 ; e < 3 ; e++)
        {
            const GrB_Index i = gcu_rand (&st) % m, j = IS_MATRIX ? gcu_rand (&st) % n : 0 ;
            GrB_Info e1, e2 ;
            double complex a = 0, b = 0 ;
            GrB_Type wt ;
            OK (O_type (&wt, wg)) ;
            if (wt == GxB_FC64)
            {
                e1 = O_get_FC64 (&a, wg, i, j) ;
                e2 = O_get_FC64 (&b, S->any ? o1 : wo, i, j) ;
            }
            else
            {
                double x = 0, y = 0 ;
                e1 = O_get_FP64 (&x, wg, i, j) ;
                e2 = O_get_FP64 (&y, S->any ? o1 : wo, i, j) ;
                a = x ; b = y ;
            }
            CHECK (e1 == e2 && (e1 != GrB_SUCCESS || S->any
                || (same_double (creal (a), creal (b)) && same_double (cimag (a), cimag (b)))),
                "%s: w(%llu,%llu) info %d value %g%+gi, SuiteSparse %d %g%+gi", what,
                (unsigned long long) i, (unsigned long long) j, (int) e1, creal (a), cimag (a), (int) e2, creal (b), cimag (b)) ;
        }
        // the whole of w (now written back into SuiteSparse)
        if (S->any) CHECK (any_equal (wg, o1, o2, m, n, what), "%s: w", what) ;
        else CHECK (O_equal (wg, wo, 0, false, what), "%s: w", what) ;
    }
    else if (ig == io)
    {
        CHECK (O_equal (wg, S->any ? o1 : wo, 0, false, what), "%s: w after the error", what) ;
    }
    // the inputs are unchanged (those that are not w); a device-newest
    // operand's difference may also be its GrB_mxv's
    if (ug != wg) CHECK (O_equal (ug, uo, 0, false, "u"), "%s: u changed", what) ;
    if (vg != wg && vg != ug) CHECK (O_equal (vg, vo, 0, false, "v"), "%s: v changed", what) ;
    if (Mg != NULL && Mg != wg) CHECK (O_equal (Mg, Mo, 0, false, "M"), "%s: M changed", what) ;

    if (self_test)
    {
        // only the checks after the perturbation count; all must have failed
        // somewhere if it was perturbed
        const bool flagged = gcu_test_failed > failed1 ;
        if (ig == GrB_SUCCESS && io == GrB_SUCCESS) caught += flagged ;
        gcu_test_failed = failed1 ;
    }
    if (gcu_test_failed > failed0)
    {
        fprintf (stderr, "  ... %s [%s, w %s]; replay: %s --case %d\n", what,
            on_gpu ? "GPU" : "host", w_newest ? "device newest" : "in SuiteSparse", TEST_NAME, k) ;
    }

    // free each object once
    obj_t objs [6] = { ug, vg, wg, Mg, NULL, NULL } ;
    obj_t oobj [6] = { uo, vo, wo, Mo, o1, o2 } ;
    for (int a = 0 ; a < 6 ; a++)
    {
        for (int b = 0 ; b < a ; b++) if (objs [b] == objs [a]) objs [a] = NULL ;
        for (int b = 0 ; b < a ; b++) if (oobj [b] == oobj [a]) oobj [a] = NULL ;
    }
    for (int a = 0 ; a < 6 ; a++) { O_free (&objs [a]) ; O_free (&oobj [a]) ; }
    GrB_Scalar_free (&u_alpha) ;
    GrB_Scalar_free (&u_beta) ;
}

//------------------------------------------------------------------------------
// (b) errors
//------------------------------------------------------------------------------

static GrB_Type udt = NULL ;

static void error_case (const char *what, int fam, int var, GrB_Index nw, GrB_Type tw,
    GrB_Index nm, GrB_Type tm, GrB_Descriptor d, GrB_Index nu, GrB_Type tu, GrB_Index nv,
    bool null_op, uint64_t *st)
{
    void *ops [3] = { GrB_PLUS_FP64, GrB_PLUS_MONOID_FP64, GrB_PLUS_TIMES_SEMIRING_FP64 } ;
    void *op = null_op ? NULL : ops [var] ;
    obj_t ug, uo, vg, vo, wg, wo, Mg = NULL, Mo = NULL ;
    const GrB_Index nc = IS_MATRIX ? 7 : 1 ;     // each object is x-by-nc
    char how [96], full [256] ;
    snprintf (full, sizeof (full), "error case %s, %s", what, ew_name [fam][var]) ;
    // u device newest where it can be
    if (tu == udt) { OK (O_new (&ug, udt, nu, nc)) ; OK (O_new (&uo, udt, nu, nc)) ; }
    else make_pair (SRC_DEVICE, FP64_, nu, nc, 0.5, st, &ug, &uo, how, sizeof (how)) ;
    make_pair (SRC_HOST, INT32_, nv, nc, 0.5, st, &vg, &vo, how, sizeof (how)) ;
    if (tw == udt) { OK (O_new (&wg, udt, nw, nc)) ; OK (O_new (&wo, udt, nw, nc)) ; }
    else make_pair (SRC_HOST, type_index (tw), nw, nc, 0.3, st, &wg, &wo, how, sizeof (how)) ;
    if (nm > 0)
    {
        if (tm == udt) { OK (O_new (&Mg, udt, nm, nc)) ; OK (O_new (&Mo, udt, nm, nc)) ; }
        else make_pair (SRC_HOST, type_index (tm), nm, nc, 0.5, st, &Mg, &Mo, how, sizeof (how)) ;
    }
    const GrB_Info ig = ewise (false, fam, var, wg, Mg, NULL, op, ug, vg, d) ;
    const GrB_Info io = ewise (true, fam, var, wo, Mo, NULL, op, uo, vo, d) ;
    CHECK (ig == io, "%s: info %d, SuiteSparse %d", full, (int) ig, (int) io) ;
    CHECK (io != GrB_SUCCESS || strstr (what, "structural") != NULL,
        "%s: SuiteSparse gave success (the case is not an error)", full) ;
    cases_err += (ig != GrB_SUCCESS) ;
    if (ig != GrB_SUCCESS && io != GrB_SUCCESS)
    {
        const char *sg = NULL, *so = NULL ;
        OK (O_error (&sg, wg)) ;
        OK (O_error (&so, wo)) ;
        CHECK (sg != NULL && so != NULL && strcmp (sg, so) == 0, "%s: error string \"%s\", "
            "SuiteSparse \"%s\"", full, sg ? sg : "(null)", so ? so : "(null)") ;
    }
    if (tw != udt) CHECK (O_equal (wg, wo, 0, false, full), "%s: w", full) ;
    if (tu != udt) CHECK (O_equal (ug, uo, 0, false, full), "%s: u", full) ;
    O_free (&ug) ; O_free (&uo) ; O_free (&vg) ; O_free (&vo) ;
    O_free (&wg) ; O_free (&wo) ; O_free (&Mg) ; O_free (&Mo) ;
}

#if IS_MATRIX
// SuiteSparse 7.4 computes a matrix's A.*B as op (b, a) where A is iso and
// held bitmap or full, B sparse or hypersparse, and op has no flipped twin
// (src/mxm/mxm_ewise.c, host_flips): with B sparse the call stays
// SuiteSparse's and the answer is its own; with B bitmap SuiteSparse
// computes op (a, b), and so may the GPU. Each op's two orders differ here.
static void flip_cases (void)
{
    static const char *const ops [] = { "GxB_FMOD_FP64", "GxB_COPYSIGN_FP64", "GxB_LDEXP_FP64",
        "GxB_REMAINDER_FP64" } ;
    for (int o = 0 ; o < 4 ; o++)
        for (int bm = 0 ; bm < 2 ; bm++)
        {
            GrB_BinaryOp op = (GrB_BinaryOp) global (ops [o]) ;
            CHECK (op != NULL, "%s", ops [o]) ;
            if (op == NULL) continue ;
            GrB_Matrix A = NULL, B = NULL, C1 = NULL, C2 = NULL ;
            OK (GrB_Matrix_new (&A, GrB_FP64, 6, 5)) ;
            OK (GrB_Matrix_new (&B, GrB_FP64, 6, 5)) ;
            OK (GrB_Matrix_new (&C1, GrB_FP64, 6, 5)) ;
            OK (GrB_Matrix_new (&C2, GrB_FP64, 6, 5)) ;
            OK (GrB_Matrix_assign_FP64 (A, NULL, NULL, 7.5, GrB_ALL, 6, GrB_ALL, 5, NULL)) ;
            OK (GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, GxB_FULL)) ;
            for (int k = 0 ; k < 7 ; k++) OK (GrB_Matrix_setElement_FP64 (B, (k % 3 == 0) ? -3 : 2 + k, k % 6, (3 * k) % 5)) ;
            OK (GxB_Matrix_Option_set (B, GxB_SPARSITY_CONTROL, bm ? GxB_BITMAP : GxB_SPARSE)) ;
            OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
            OK (GrB_Matrix_wait (B, GrB_MATERIALIZE)) ;
            const uint64_t g0 = gpu_calls (MULT, BINOP) ;
            OK (ewise (false, MULT, BINOP, C1, NULL, NULL, op, A, B, NULL)) ;
            const uint64_t g1 = gpu_calls (MULT, BINOP) ;
            OK (ewise (true, MULT, BINOP, C2, NULL, NULL, op, A, B, NULL)) ;
            if (!bm) CHECK (g1 == g0, "%s, B sparse: SuiteSparse's call, not the GPU's", ops [o]) ;
            GrB_Index n1 = 0, n2 = 0, I1 [32], J1 [32], I2 [32], J2 [32] ;
            double X1 [32], X2 [32] ;
            n1 = n2 = 32 ;
            OK (GrB_Matrix_extractTuples_FP64 (I1, J1, X1, &n1, C1)) ;
            OK (GrB_Matrix_extractTuples_FP64 (I2, J2, X2, &n2, C2)) ;
            bool same = n1 == n2 && n1 > 0 ;
            for (GrB_Index q = 0 ; same && q < n1 ; q++) same = I1 [q] == I2 [q] && J1 [q] == J2 [q] && X1 [q] == X2 [q] ;
            CHECK (same, "%s, B %s: C as SuiteSparse gives it (grbcuda %g, SuiteSparse %g)", ops [o],
                bm ? "bitmap" : "sparse", n1 > 0 ? X1 [0] : 0.0, n2 > 0 ? X2 [0] : 0.0) ;
            if (bm) printf ("%s: %s, B bitmap, %s\n", TEST_NAME, ops [o], g1 > g0 ? "on the GPU" : "SuiteSparse's") ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ;
        }
}
#endif

static void errors (uint64_t *st)
{
    OK (GrB_Type_new (&udt, 2 * sizeof (double))) ;
    const GrB_Index n = 1000 ;
    // eWiseUnion's alpha and beta (a binary operator only)
    OK (GrB_Scalar_new (&u_alpha, GrB_FP64)) ;
    OK (GrB_Scalar_new (&u_beta, GrB_INT32)) ;
    OK (GrB_Scalar_setElement_FP64 (u_alpha, 1.5)) ;
    OK (GrB_Scalar_setElement_INT32 (u_beta, -2)) ;
    for (int fam = 0 ; fam < 3 ; fam++)
    {
        for (int var = 0 ; var < (fam == UNION ? 1 : 3) ; var++)
        {
            error_case ("u and v of different lengths", fam, var, n, GrB_FP64, 0, NULL, NULL,
                n, GrB_FP64, n + 1, false, st) ;
            error_case ("w of another length", fam, var, n + 3, GrB_INT32, 0, NULL, NULL,
                n, GrB_FP64, n, false, st) ;
            error_case ("mask of another length", fam, var, n, GrB_FP32, n - 1, GrB_BOOL,
                GrB_DESC_R, n, GrB_FP64, n, false, st) ;
            error_case ("u of a user-defined type", fam, var, n, GrB_FP64, 0, NULL, NULL,
                n, udt, n, false, st) ;
            error_case ("w of a user-defined type", fam, var, n, udt, 0, NULL, NULL,
                n, GrB_FP64, n, false, st) ;
            error_case ("valued mask of a user-defined type", fam, var, n, GrB_FP64, n, udt,
                NULL, n, GrB_FP64, n, false, st) ;
            error_case ("structural mask of a user-defined type", fam, var, n, GrB_FP64, n, udt,
                GrB_DESC_S, n, GrB_FP64, n, false, st) ;
            error_case ("NULL operator", fam, var, n, GrB_FP64, 0, NULL, NULL,
                n, GrB_FP64, n, true, st) ;
            if (!IS_MATRIX) continue ;
            // n-by-7 operands, one of them transposed by the descriptor
            error_case ("u transposed: of another shape", fam, var, n, GrB_FP64, 0, NULL,
                GrB_DESC_T0, n, GrB_FP64, n, false, st) ;
            error_case ("v transposed: of another shape", fam, var, n, GrB_FP64, 0, NULL,
                GrB_DESC_RT1, n, GrB_FP64, n, false, st) ;
        }
    }
    // eWiseUnion's own: beta holding no entry, beta missing
    OK (GrB_Scalar_clear (u_beta)) ;
    error_case ("beta with no entry", UNION, BINOP, n, GrB_FP64, 0, NULL, NULL,
        n, GrB_FP64, n, false, st) ;
    GrB_Scalar_free (&u_beta) ;
    error_case ("beta NULL", UNION, BINOP, n, GrB_FP64, 0, NULL, NULL,
        n, GrB_FP64, n, false, st) ;
    GrB_Scalar_free (&u_alpha) ;
    GrB_Type_free (&udt) ;
}

//------------------------------------------------------------------------------

int main (int argc, char **argv)
{
    int ncases = IS_MATRIX ? 200 : 360, only = -1, pool = 48 ;
    uint64_t seed = 0x5EED0E3153ull ;
    bool no_gpu_ok = false, list = false ;
    const char *e = getenv ("GRBCUDA_EWISE_CASES") ;
    if (e != NULL && atoi (e) > 0) ncases = atoi (e) ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (!strcmp (argv [a], "--cases") && a + 1 < argc) ncases = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--case") && a + 1 < argc) only = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--seed") && a + 1 < argc) seed = strtoull (argv [++a], NULL, 0) ;
        else if (!strcmp (argv [a], "--pool") && a + 1 < argc) pool = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--no-gpu")) no_gpu_ok = true ;
        else if (!strcmp (argv [a], "--list")) list = true ;
        else if (!strcmp (argv [a], "--self-test")) self_test = no_gpu_ok = true ;
        else { fprintf (stderr, "unknown option %s\n", argv [a]) ; return 2 ; }
    }
    if (pool < 1) pool = 1 ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!grbcuda_gpu_available () && !no_gpu_ok)
    {
        printf ("SKIP: no usable GPU; %s needs one\n", TEST_NAME) ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    for (int f = 0 ; f < 2 ; f++)
    {
        real_bin [f] = (ew_bin_t) gcu_test_real (ew_name [f][BINOP]) ;
        real_mon [f] = (ew_mon_t) gcu_test_real (ew_name [f][MONOID]) ;
        real_sem [f] = (ew_sem_t) gcu_test_real (ew_name [f][SEMIRING]) ;
        CHECK (real_bin [f] && real_mon [f] && real_sem [f], "SuiteSparse's %s family", ew_name [f][0]) ;
        // the oracle must be SuiteSparse's definition, never grbcuda's
        CHECK ((void *) real_bin [f] != (void *) (f ? EWF (eWiseMult_BinaryOp) : EWF (eWiseAdd_BinaryOp)),
            "the oracle is not the interposed function") ;
    }
    real_union = (ew_union_t) gcu_test_real (UNION_NAME) ;
    CHECK (real_union != NULL && (void *) real_union != (void *) EWX (eWiseUnion),
        "SuiteSparse's %s, not the interposed one", UNION_NAME) ;
    real_prod = (prod_t) gcu_test_real (PROD_NAME) ;
    real_reduce_bool = (reduce_bool_t) gcu_test_real (KIND ("reduce_BOOL")) ;
    CHECK (real_prod != NULL && real_reduce_bool != NULL, "SuiteSparse's %s, %s", PROD_NAME, KIND ("reduce_BOOL")) ;
    if (gcu_test_failed > 0) { GrB_finalize () ; return gcu_test_report (TEST_NAME) ; }
    gcu_test_types_init () ;
    const GrB_Type t [NT] = { GrB_BOOL, GrB_INT8, GrB_INT32, GrB_INT64, GrB_UINT16,
        GrB_UINT64, GrB_FP32, GrB_FP64, GxB_FC64 } ;
    memcpy (TY, t, sizeof (t)) ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    OK (grbcuda_set_keep_results (true)) ;
    struct timespec ts0, ts1 ;
    clock_gettime (CLOCK_MONOTONIC, &ts0) ;

    // the signatures: a pool, so that the kernels to compile stay few
    uint64_t sst = seed ;
    sig_t *sigs = calloc ((size_t) pool, sizeof (sig_t)) ;
    for (int k = 0 ; k < pool ; k++)
    {
        make_sig (&sigs [k], k, &sst) ;
        const sig_t *S = &sigs [k] ;
        if (list) printf ("signature %2d: %s %s, u %s, v %s, w %s, mask %s, accum %s\n", k,
            ew_name [S->fam][S->var], S->opname, TN [S->tu], TN [S->tv], TN [S->tw], TN [S->tm], S->accname) ;
    }
    printf ("%s: seed 0x%llx, %d cases over %d signatures%s\n",
        TEST_NAME, (unsigned long long) seed, only >= 0 ? 1 : ncases, pool, self_test ? " (self-test)" : "") ;

    for (int k = 0 ; k < ncases ; k++)
    {
        if (only >= 0 && k != only) continue ;
        // case k's signature: the pool walked in order, then at random
        uint64_t cst = seed ^ (0x9E3779B97F4A7C15ull * (uint64_t) (k + 7)) ;
        const int s = (k < pool) ? k : (int) (gcu_rand (&cst) % (uint64_t) pool) ;
        run_case (k, &sigs [s], seed) ;
    }
    if (only < 0 && !self_test) errors (&sst) ;
#if IS_MATRIX
    if (only < 0 && !self_test) flip_cases () ;
#endif

    clock_gettime (CLOCK_MONOTONIC, &ts1) ;
    const double wall = (double) (ts1.tv_sec - ts0.tv_sec) + 1e-9 * (double) (ts1.tv_nsec - ts0.tv_nsec) ;
    printf ("%s: %d cases (%d eWiseAdd, %d eWiseMult, %d eWiseUnion, %d ANY, %d errors), %d on the GPU "
        "(%d left w device newest), %d with a device-newest operand (%d made), %.1f s\n",
        TEST_NAME, cases_run, fam_count [ADD], fam_count [MULT], fam_count [UNION], cases_any, cases_err, cases_gpu,
        cases_gpu_newest, cases_newest_in, newest_inputs, wall) ;
    if (self_test)
    {
        printf ("%s self-test: %d of %d perturbed results caught\n", TEST_NAME, caught, perturbed) ;
        CHECK (perturbed > 0 && caught == perturbed, "every perturbation caught (%d of %d)", caught, perturbed) ;
    }
    else if (grbcuda_gpu_available () && only < 0)
    {
        // a GPU test that never reached the GPU tests nothing
        CHECK (cases_gpu > 0, "some eWise calls ran on the GPU (%d)", cases_gpu) ;
        printf ("%s: on the GPU: %d eWiseAdd, %d eWiseMult, %d eWiseUnion\n", TEST_NAME,
            fam_gpu [ADD], fam_gpu [MULT], fam_gpu [UNION]) ;
        for (int f = 0 ; f < 3 ; f++)
            CHECK (fam_count [f] == 0 || fam_gpu [f] > 0, "some %s calls ran on the GPU",
                ew_name [f][BINOP]) ;
        CHECK (newest_inputs > 0, "some operands were device newest (%d)", newest_inputs) ;
    }
    free (sigs) ;
    gcu_residency_clear_all () ;
    GrB_finalize () ;
    return gcu_test_report (TEST_NAME) ;
}
