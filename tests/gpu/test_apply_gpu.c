// GRBCUDA_TEST_INTERNAL
// test_apply_gpu.c — GrB_Vector_apply and its bound forms
// (GrB_Vector_apply_BinaryOp1st_<T>, _BinaryOp2nd_<T>, _IndexOp_<T> and the
// GrB_Scalar forms) and GrB_Vector_select_<T> (and _Scalar) with the GPU forced, against SuiteSparse's own functions
// (gcu_test_real) on equal inputs: random cases from a fixed seed, each with
// a length (1, 7, 1000, 50000), w of a built-in type (empty, sparse, dense,
// full or device newest), u (a host vector, sparse to full, or device
// newest: the result of a GPU GrB_mxv; w itself one case in eight, as
// PageRank's diff = |diff|) holding awkward values (0, -0, NaN, ±Inf, the
// integer extremes, ±1), an operator: a unary one of any type (every kind
// the GPU takes, the positional GxB_POSITIONI/J, and some it declines:
// SQRT, ABS of a signed integer, AINV of a complex), a bound binary one
// (the exact ones, and POW and a positional one it declines) with a scalar
// of one of the typed forms (casts as SuiteSparse's: NaN, ±Inf, values out
// of every integer range) or a GrB_Scalar (sometimes empty: the error is
// SuiteSparse's), or an index op (ROWINDEX/COLINDEX/DIAGINDEX, INT32 and
// INT64; VALUEEQ and TRIL declined), or a select operator (the value
// comparisons VALUEEQ/NE/LT/LE/GT/GE of any type, the thunk of any typed
// form or a GrB_Scalar, u of a type drawn apart from the operator's; TRIL, ROWGT and
// DIAG declined); a mask (none, host, device newest, u or
// w itself) with each of the 8 mask descriptors, an accum (none, or a
// built-in operator of w's type or another). Checked: the return code, then
// w's type, pattern and values against SuiteSparse's (exact; NaN equals
// NaN), u and the mask unchanged, and that the eligible cases ran on the
// GPU and left w device newest.
// Options: --cases N (default 500), --case K (a replay), --seed S,
// --no-gpu (every call passes through: nothing may differ), --self-test (no
// GPU needed: each case's grbcuda result is perturbed, an entry removed,
// added or changed, and every perturbation must be caught).
#define _GNU_SOURCE
#define TEST_NAME "test_apply_gpu"
#include "gcu_vec_cases.h"

static uint64_t gpu_calls (void)
{
    static const char *keys [5] = { "GrB_Vector_apply", "GrB_Vector_apply_BinaryOp1st",
        "GrB_Vector_apply_BinaryOp2nd", "GrB_Vector_apply_IndexOp", "GrB_Vector_select" } ;
    uint64_t n = 0 ;
    for (int k = 0 ; k < 5 ; k++)
    {
        grbcuda_op_stats s ;
        memset (&s, 0, sizeof (s)) ;
        if (grbcuda_stats_get (keys [k], &s) == GrB_SUCCESS) n += s.gpu ;
    }
    return n ;
}

//------------------------------------------------------------------------------
// operands
//------------------------------------------------------------------------------

// u's awkward values, set at a few positions of a vector of type t
static void add_specials (GrB_Vector v, int t, GrB_Index n, uint64_t *st)
{
    static const double fsp [] = { NAN, -0.0, 0.0, INFINITY, -INFINITY, 1, -1, 0.5, -3.25 } ;
    static const int64_t isp [] = { INT64_MIN, INT64_MAX, 0, -1, 1, 2, -128, 127 } ;
    const int m = (int) (gcu_rand (st) % 6) ;
    for (int k = 0 ; k < m ; k++)
    {
        const GrB_Index i = gcu_rand (st) % n ;
        if (t == FP32_ || t == FP64_)
            GrB_Vector_setElement_FP64 (v, fsp [gcu_rand (st) % 9], i) ;
        else if (t == FC64_)
            GxB_Vector_setElement_FC64 (v, GxB_CMPLX (fsp [gcu_rand (st) % 9], fsp [gcu_rand (st) % 9]), i) ;
        else if (t == UINT64_ || t == UINT16_)
            GrB_Vector_setElement_UINT64 (v, gcu_rand (st) % 2 ? UINT64_MAX : (uint64_t) isp [gcu_rand (st) % 8], i) ;
        else GrB_Vector_setElement_INT64 (v, isp [gcu_rand (st) % 8], i) ;
    }
    GrB_Vector_wait (v, GrB_MATERIALIZE) ;
}

// u: states 1..4 of make_vector (sparse, dense, full, device newest), with
// awkward values
static GrB_Vector make_input (int t, GrB_Index n, int state, uint64_t *st)
{
    static const double density [5] = { 0, 0.1, 0.6, 1.0, 0.6 } ;
    GrB_Vector v = gcu_test_random_vector (TY [t], n, density [state], st) ;
    if (state != 1 || gcu_rand (st) % 2) add_specials (v, t, n, st) ;
    if (state == 3) GxB_Vector_Option_set (v, GxB_SPARSITY_CONTROL, GxB_FULL) ;
    if (state == 4) v = make_newest (v, t, n) ;
    return v ;
}

//------------------------------------------------------------------------------
// operators
//------------------------------------------------------------------------------

static bool is_int (int t) { return t == INT8_ || t == INT32_ || t == INT64_ ; }
static bool is_uint (int t) { return t == UINT16_ || t == UINT64_ ; }
static bool is_float (int t) { return t == FP32_ || t == FP64_ ; }

// the GrB_ name, else the GxB_ one
static void *global2 (const char *op, const char *type, char *name, size_t size)
{
    snprintf (name, size, "GrB_%s_%s", op, type) ;
    void *p = global (name) ;
    if (p == NULL)
    {
        snprintf (name, size, "GxB_%s_%s", op, type) ;
        p = global (name) ;
    }
    return p ;
}

// a unary operator of type t (or positional); *gpu: the GPU takes it
static GrB_UnaryOp make_unary (int t, uint64_t *st, char *name, size_t size, bool *gpu)
{
    static const char *kinds [] = { "IDENTITY", "AINV", "MINV", "LNOT", "ONE", "ABS", "BNOT",
        "SQRT", "POSITION" } ;
    const char *k = kinds [gcu_rand (st) % 9] ;
    if (!strcmp (k, "POSITION"))
    {
        static const char *pos [] = { "POSITIONI", "POSITIONI1", "POSITIONJ", "POSITIONJ1" } ;
        *gpu = true ;
        return (GrB_UnaryOp) global2 (pos [gcu_rand (st) % 4], gcu_rand (st) % 2 ? "INT64" : "INT32",
            name, size) ;
    }
    if (!strcmp (k, "LNOT") && t == FC64_) k = "IDENTITY" ;
    if (!strcmp (k, "BNOT") && !is_int (t) && !is_uint (t)) k = "MINV" ;
    if (!strcmp (k, "SQRT") && !is_float (t) && t != FC64_) k = "ONE" ;
    GrB_UnaryOp op = (GrB_UnaryOp) global2 (k, TN [t], name, size) ;
    *gpu = !strcmp (k, "IDENTITY") || !strcmp (k, "MINV") || !strcmp (k, "LNOT")
        || !strcmp (k, "ONE") || !strcmp (k, "BNOT")
        || (!strcmp (k, "AINV") && t != FC64_)
        || (!strcmp (k, "ABS") && (t == BOOL_ || is_uint (t) || is_float (t))) ;
    return op ;
}

// a binary operator to bind, of type t; *gpu: the GPU takes it
static GrB_BinaryOp make_binop (int t, uint64_t *st, char *name, size_t size, bool *gpu)
{
    static const char *ops [] = { "PLUS", "MINUS", "TIMES", "DIV", "MIN", "MAX", "FIRST",
        "SECOND", "ISEQ", "LT", "LOR", "BXOR", "RMINUS", "RDIV", "ONEB", "NE", "POW", "FIRSTI" } ;
    const char *k = ops [gcu_rand (st) % 18] ;
    if (t == FC64_ && (!strcmp (k, "MIN") || !strcmp (k, "MAX") || !strcmp (k, "LT")
        || !strcmp (k, "LOR"))) k = "PLUS" ;
    if (!strcmp (k, "BXOR") && !is_int (t) && !is_uint (t)) k = "TIMES" ;
    if (!strcmp (k, "FIRSTI"))
    {
        *gpu = false ;
        return (GrB_BinaryOp) global2 ("FIRSTI", "INT64", name, size) ;
    }
    *gpu = strcmp (k, "POW") != 0 ;
    return (GrB_BinaryOp) global2 (k, TN [t], name, size) ;
}

// an index-unary operator; *gpu: the GPU takes it
static GrB_IndexUnaryOp make_idxop (uint64_t *st, char *name, size_t size, bool *gpu)
{
    static const char *ops [] = { "ROWINDEX_INT64", "ROWINDEX_INT32", "COLINDEX_INT64",
        "COLINDEX_INT32", "DIAGINDEX_INT64", "DIAGINDEX_INT32", "VALUEEQ_INT32", "TRIL" } ;
    const int k = (int) (gcu_rand (st) % 8) ;
    snprintf (name, size, "GrB_%s", ops [k]) ;
    *gpu = k < 6 ;
    return (GrB_IndexUnaryOp) global (name) ;
}

// a select operator: a value comparison of type t (complex: EQ or NE), or
// a positional one the GPU declines; *gpu: the GPU takes it
static GrB_IndexUnaryOp make_selop (int t, uint64_t *st, char *name, size_t size, bool *gpu)
{
    static const char *ops [] = { "VALUEEQ", "VALUENE", "VALUELT", "VALUELE", "VALUEGT",
        "VALUEGE", "TRIL", "ROWGT", "DIAG" } ;
    int k = (int) (gcu_rand (st) % 9) ;
    if (k >= 6 && gcu_rand (st) % 2) k -= 6 ;
    *gpu = k < 6 ;
    if (k >= 6)
    {
        snprintf (name, size, "GrB_%s", ops [k]) ;
        return (GrB_IndexUnaryOp) global (name) ;
    }
    if (t == FC64_) k %= 2 ;
    return (GrB_IndexUnaryOp) global2 (ops [k], TN [t], name, size) ;
}

//------------------------------------------------------------------------------
// the typed forms through a function pointer (grbcuda's or SuiteSparse's)
//------------------------------------------------------------------------------

enum { F_UNARY = 0, F_1ST, F_2ND, F_INDEX, F_SELECT, NF } ;
static const char *FN [NF] = { "", "BinaryOp1st", "BinaryOp2nd", "IndexOp", "select" } ;

static void *real_fn [NF][NT + 1], *our_fn [NF][NT + 1] ;   // [form][type], NT: _Scalar

// GrB_Vector_select_<T> has the IndexOp form's arguments
static void fn_name (int form, int t, char *buf, size_t size)
{
    if (form == F_SELECT && t == NT) snprintf (buf, size, "GrB_Vector_select_Scalar") ;
    else if (form == F_SELECT) snprintf (buf, size, "%s_Vector_select_%s", t == FC64_ ? "GxB" : "GrB", TN [t]) ;
    else if (t == NT) snprintf (buf, size, "GrB_Vector_apply_%s_Scalar", FN [form]) ;
    else snprintf (buf, size, "%s_Vector_apply_%s_%s", t == FC64_ ? "GxB" : "GrB", FN [form], TN [t]) ;
}

#define CALL_1ST(CT, X) ((GrB_Info (*) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp, \
    const GrB_BinaryOp, CT, const GrB_Vector, const GrB_Descriptor)) f) (w, M, accum, (GrB_BinaryOp) op, (X), u, desc)
#define CALL_2ND(CT, Y) ((GrB_Info (*) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp, \
    void *, const GrB_Vector, CT, const GrB_Descriptor)) f) (w, M, accum, op, u, (Y), desc)
#define CALL_BOTH(CT, V) (form == F_1ST ? CALL_1ST (CT, V) : CALL_2ND (CT, V))

// the form's call with the scalar x (of type t, or the GrB_Scalar s: t NT)
static GrB_Info apply_bound (void *f, int form, int t, GrB_Vector w, GrB_Vector M,
    GrB_BinaryOp accum, void *op, GrB_Vector u, scal x, GrB_Scalar s, GrB_Descriptor desc)
{
    switch (t)
    {
        case BOOL_:   return CALL_BOTH (bool, x.re != 0) ;
        case INT8_:   return CALL_BOTH (int8_t, (int8_t) x.re) ;
        case INT32_:  return CALL_BOTH (int32_t, (int32_t) x.re) ;
        case INT64_:  return CALL_BOTH (int64_t, (int64_t) x.re) ;
        case UINT16_: return CALL_BOTH (uint16_t, (uint16_t) x.re) ;
        case UINT64_: return CALL_BOTH (uint64_t, (uint64_t) x.re) ;
        case FP32_:   return CALL_BOTH (float, (float) x.re) ;
        case FP64_:   return CALL_BOTH (double, x.re) ;
        case FC64_:   return CALL_BOTH (GxB_FC64_t, GxB_CMPLX (x.re, x.im)) ;
        default:      return form == F_1ST ? CALL_1ST (GrB_Scalar, s) : CALL_2ND (GrB_Scalar, s) ;
    }
}

// a GrB_Scalar of type t holding x, or empty
static GrB_Scalar make_gscalar (int t, scal x, bool empty)
{
    GrB_Scalar s = NULL ;
    GrB_Scalar_new (&s, TY [t]) ;
    if (empty) return s ;
    if (t == FC64_) GxB_Scalar_setElement_FC64 (s, GxB_CMPLX (x.re, x.im)) ;
    else if (t == BOOL_) GrB_Scalar_setElement_BOOL (s, x.re != 0) ;
    else if (t == INT8_) GrB_Scalar_setElement_INT8 (s, (int8_t) x.re) ;
    else if (t == INT32_) GrB_Scalar_setElement_INT32 (s, (int32_t) x.re) ;
    else if (t == INT64_) GrB_Scalar_setElement_INT64 (s, (int64_t) x.re) ;
    else if (t == UINT16_) GrB_Scalar_setElement_UINT16 (s, (uint16_t) x.re) ;
    else if (t == UINT64_) GrB_Scalar_setElement_UINT64 (s, (uint64_t) x.re) ;
    else if (t == FP32_) GrB_Scalar_setElement_FP32 (s, (float) x.re) ;
    else GrB_Scalar_setElement_FP64 (s, x.re) ;
    return s ;
}

//------------------------------------------------------------------------------
// one case
//------------------------------------------------------------------------------

static int cases_form [NF], cases_gscalar = 0, cases_iso_host = 0 ;

typedef GrB_Info (*apply_u_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_UnaryOp, const GrB_Vector, const GrB_Descriptor) ;
static apply_u_t real_apply_u ;

//------------------------------------------------------------------------------
// the unary operators as bound binary ones (src/vector/apply.c), SuiteSparse
// alone: the GPU computes a unary operator as one of the table's binary
// operators with a bound scalar; SuiteSparse's two answers must agree bit
// for bit (signs of zeros too; a NaN matches any NaN) on awkward values.
// With test_semiring_semantics (the device's binary operators are
// SuiteSparse's) this makes the device's unary operators SuiteSparse's.
//------------------------------------------------------------------------------

// the bits of v's entries as FC64 (real types: (x, 0)), positions in I
static GrB_Index entries_of (GrB_Vector v, GrB_Index *I, GxB_FC64_t *X, GrB_Index n)
{
    GrB_Index nv = n ;
    GrB_Vector c = NULL ;
    GrB_Vector_new (&c, GxB_FC64, n) ;
    GrB_Vector_assign (c, NULL, NULL, v, GrB_ALL, n, NULL) ;
    GxB_Vector_extractTuples_FC64 (I, X, &nv, c) ;
    GrB_Vector_free (&c) ;
    return nv ;
}

static bool same_bits (double a, double b)
{
    return (isnan (a) && isnan (b)) || memcmp (&a, &b, sizeof (double)) == 0 ;
}

// the index operators as the GPU computes them (src/vector/apply.c): z =
// slope * i + offset in int64 (wrapping), y cast to int64 by SuiteSparse,
// offset y (DIAGINDEX: -y), the _INT32 ones' low 32 bits; SuiteSparse alone
static void check_index_formula (void)
{
    static const struct { const char *name ; int slope ; bool z32 ; } ops [] = {
        { "GrB_ROWINDEX_INT32", 1, true }, { "GrB_ROWINDEX_INT64", 1, false },
        { "GrB_COLINDEX_INT32", 0, true }, { "GrB_COLINDEX_INT64", 0, false },
        { "GrB_DIAGINDEX_INT32", -1, true }, { "GrB_DIAGINDEX_INT64", -1, false } } ;
    static const double ys [] = { 0, 3, -1, -2.5, 1e300, -1e300, NAN, 4294967296.5, 9.3e18,
        2147483647, -2147483648.0, 4294967295.0 } ;
    const GrB_Index n = 40 ;
    int checked = 0 ;
    GrB_Vector u = NULL, w = NULL ;
    GrB_Vector_new (&u, GrB_BOOL, n) ;
    // built, not assigned: a GPU assign would leave u device newest, and
    // SuiteSparse's own apply below would read its stale host copy
    GrB_Index I [40] ;
    bool X [40] ;
    for (GrB_Index i = 0 ; i < n ; i++) { I [i] = i ; X [i] = true ; }
    OK (GrB_Vector_build_BOOL (u, I, X, n, GrB_LOR)) ;
    for (size_t k = 0 ; k < sizeof (ops) / sizeof (ops [0]) ; k++)
        for (size_t q = 0 ; q < sizeof (ys) / sizeof (ys [0]) ; q++)
            for (int yt = 0 ; yt < NT ; yt++)
            {
                GrB_IndexUnaryOp op = (GrB_IndexUnaryOp) global (ops [k].name) ;
                scal x = { ys [q], 0 } ;
                if (is_uint (yt)) x.re = fabs (x.re) ;
                GrB_Scalar y = make_gscalar (yt, x, false) ;
                int64_t y64 = 0 ;
                OK (GrB_Scalar_extractElement_INT64 (&y64, y)) ;
                GrB_Vector_new (&w, GrB_INT64, n) ;
                OK (((GrB_Info (*) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
                    const GrB_IndexUnaryOp, const GrB_Vector, const GrB_Scalar, const GrB_Descriptor))
                    real_fn [F_INDEX][NT]) (w, NULL, NULL, op, u, y, NULL)) ;
                bool ok = true ;
                for (GrB_Index i = 0 ; i < n && ok ; i++)
                {
                    const uint64_t off = ops [k].slope < 0 ? (uint64_t) 0 - (uint64_t) y64 : (uint64_t) y64 ;
                    const uint64_t z = (uint64_t) (int64_t) ops [k].slope * i + off ;
                    const int64_t want = ops [k].z32 ? (int64_t) (int32_t) (uint32_t) z : (int64_t) z ;
                    int64_t got = 0 ;
                    ok = GrB_Vector_extractElement_INT64 (&got, w, i) == GrB_SUCCESS && got == want ;
                    CHECK (ok, "%s, y %g of %s (int64 %lld), i %llu: SuiteSparse %lld, formula %lld",
                        ops [k].name, x.re, TN [yt], (long long) y64, (unsigned long long) i,
                        (long long) got, (long long) want) ;
                }
                checked++ ;
                GrB_Vector_free (&w) ;
                GrB_Scalar_free (&y) ;
            }
    GrB_Vector_free (&u) ;
    printf ("%s: %d index operator / thunk pairs checked against the GPU's formula (SuiteSparse)\n",
        TEST_NAME, checked) ;
}

static void check_unary_mapping (void)
{
    // kind, the binary operator, bind1st, the bound value
    static const struct { const char *unary, *binop ; bool first ; int value ; int types ; } map [] = {
        { "IDENTITY", "FIRST", false, 0, 0 }, { "AINV", "FIRST", false, 0, 1 },
        { "AINV", "MINUS", true, 0, 2 }, { "AINV", "TIMES", false, -1, 3 },
        { "MINV", "DIV", true, 1, 0 }, { "LNOT", "LXOR", false, 1, 4 }, { "ONE", "ONEB", false, 0, 0 },
        { "ABS", "FIRST", false, 0, 5 }, { "ABS", "COPYSIGN", false, 1, 3 },
        { "BNOT", "BXNOR", false, 0, 6 } } ;
    const GrB_Index n = 64 ;
    int checked = 0 ;
    GrB_Index *I1 = malloc (n * sizeof (GrB_Index)), *I2 = malloc (n * sizeof (GrB_Index)) ;
    GxB_FC64_t *X1 = malloc (n * sizeof (GxB_FC64_t)), *X2 = malloc (n * sizeof (GxB_FC64_t)) ;
    for (size_t m = 0 ; m < sizeof (map) / sizeof (map [0]) ; m++)
    {
        for (int t = 0 ; t < NT ; t++)
        {
            // 0 all types, 1 bool, 2 integers, 3 floating point, 4 real, 5 bool and
            // unsigned, 6 integers (signed or not)
            const int ty = map [m].types ;
            const bool in = ty == 0 || (ty == 1 && t == BOOL_) || (ty == 2 && (is_int (t) || is_uint (t)))
                || (ty == 3 && is_float (t)) || (ty == 4 && t != FC64_)
                || (ty == 5 && (t == BOOL_ || is_uint (t))) || (ty == 6 && (is_int (t) || is_uint (t))) ;
            if (!in) continue ;
            char un [64], bn [64] ;
            GrB_UnaryOp uop = (GrB_UnaryOp) global2 (map [m].unary, TN [t], un, sizeof (un)) ;
            GrB_BinaryOp bop = (GrB_BinaryOp) global2 (map [m].binop, TN [t], bn, sizeof (bn)) ;
            if (!strcmp (map [m].unary, "LNOT") && t == BOOL_) { uop = GrB_LNOT ; bop = GrB_LXOR ; }
            CHECK (uop != NULL && bop != NULL, "mapping %s, %s", un, bn) ;
            if (uop == NULL || bop == NULL) continue ;
            uint64_t st = 12345 + m * 31 + (uint64_t) t ;
            for (int tu = 0 ; tu < NT ; tu++)
            {
                GrB_Vector u = gcu_test_random_vector (TY [tu], n, 0.5, &st), w1 = NULL, w2 = NULL ;
                for (int r = 0 ; r < 4 ; r++) add_specials (u, tu, n, &st) ;
                GrB_Vector_new (&w1, TY [t], n) ;
                GrB_Vector_new (&w2, TY [t], n) ;
                GrB_Scalar sc = NULL ;
                GrB_Scalar_new (&sc, GrB_INT32) ;
                GrB_Scalar_setElement_INT32 (sc, map [m].value) ;
                OK (real_apply_u (w1, NULL, NULL, uop, u, NULL)) ;
                OK (((GrB_Info (*) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp, const GrB_BinaryOp,
                    const GrB_Scalar, const GrB_Vector, const GrB_Descriptor)) real_fn [map [m].first ? F_1ST : F_2ND][NT])
                    == NULL ? GrB_PANIC : GrB_SUCCESS) ;
                if (map [m].first)
                    OK (((GrB_Info (*) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp, const GrB_BinaryOp,
                        const GrB_Scalar, const GrB_Vector, const GrB_Descriptor)) real_fn [F_1ST][NT])
                        (w2, NULL, NULL, bop, sc, u, NULL)) ;
                else
                    OK (((GrB_Info (*) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp, const GrB_BinaryOp,
                        const GrB_Vector, const GrB_Scalar, const GrB_Descriptor)) real_fn [F_2ND][NT])
                        (w2, NULL, NULL, bop, u, sc, NULL)) ;
                const GrB_Index n1 = entries_of (w1, I1, X1, n), n2 = entries_of (w2, I2, X2, n) ;
                bool ok = n1 == n2 ;
                for (GrB_Index p = 0 ; ok && p < n1 ; p++)
                    ok = I1 [p] == I2 [p] && same_bits (creal (X1 [p]), creal (X2 [p]))
                        && same_bits (cimag (X1 [p]), cimag (X2 [p])) ;
                CHECK (ok, "%s on %s u as %s (%s, %d): SuiteSparse's answers agree", un, TN [tu], bn,
                    map [m].first ? "bind1st" : "bind2nd", map [m].value) ;
                checked++ ;
                GrB_Scalar_free (&sc) ;
                GrB_Vector_free (&u) ; GrB_Vector_free (&w1) ; GrB_Vector_free (&w2) ;
            }
        }
    }
    free (I1) ; free (I2) ; free (X1) ; free (X2) ;
    printf ("%s: %d unary operator / type pairs checked as bound binary operators (SuiteSparse)\n",
        TEST_NAME, checked) ;
}

static void run_case (int k, uint64_t seed)
{
    static const GrB_Index lengths [4] = { 1, 7, 1000, 50000 } ;
    uint64_t s = seed ^ (0x9E3779B97F4A7C15ull * (uint64_t) (k + 1)), *st = &s ;
    const GrB_Index n = lengths [gcu_rand (st) % 4] ;
    const int tw = (int) (gcu_rand (st) % NT), tu = (int) (gcu_rand (st) % NT) ;
    const int top = (int) (gcu_rand (st) % NT), tx = (int) (gcu_rand (st) % NT) ;
    const int form = (int) (gcu_rand (st) % NF) ;
    const bool gscalar = form != F_UNARY && gcu_rand (st) % 4 == 0 ;
    const bool gempty = gscalar && gcu_rand (st) % 6 == 0 ;
    const int wstate = (int) (gcu_rand (st) % 5), ustate = 1 + (int) (gcu_rand (st) % 4) ;
    const int mkind = (int) (gcu_rand (st) % 6) ;     // none, host, host bool, newest, u, w
    const int di = (int) (gcu_rand (st) % 8) ;
    const GrB_Descriptor desc = descs [di] ? *descs [di] : NULL ;
    char accname [64], opname [64] ;
    GrB_BinaryOp accum = make_accum (tw, st, accname, sizeof (accname)) ;
    const scal x = make_scalar (tx, st) ;
    bool op_gpu = false ;
    void *op = NULL ;
    if (form == F_UNARY) op = make_unary (top, st, opname, sizeof (opname), &op_gpu) ;
    else if (form == F_INDEX) op = make_idxop (st, opname, sizeof (opname), &op_gpu) ;
    else if (form == F_SELECT) op = make_selop (top, st, opname, sizeof (opname), &op_gpu) ;

    else op = make_binop (top, st, opname, sizeof (opname), &op_gpu) ;
    CHECK (op != NULL, "case %d: operator %s", k, opname) ;
    if (op == NULL) return ;
    GrB_Scalar gs = gscalar ? make_gscalar (tx, x, gempty) : NULL ;

    vec_case c ;
    c.w = make_vector (tw, n, wstate, st) ;
    c.u_is_w = gcu_rand (st) % 8 == 0 ;
    c.u = c.u_is_w ? c.w : make_input (tu, n, ustate, st) ;
    // (select: a complex u and a real operator are SuiteSparse's error)
    if (form == F_SELECT && top != FC64_ && (c.u_is_w ? tw : tu) == FC64_) op_gpu = false ;
    if (c.u_is_w && wstate != 4 && gcu_rand (st) % 2) add_specials (c.w, tw, n, st) ;
    vec_case_prepare (&c, mkind, true, n, st) ;

    const uint64_t g0 = gpu_calls (), iso0 = gcu_iso_declined () ;
    GrB_Info i1, i2 ;
    const int ft = gscalar ? NT : tx ;
    if (form == F_UNARY)
    {
        i1 = GrB_Vector_apply (c.w, c.M, accum, (GrB_UnaryOp) op, c.u, desc) ;
        i2 = real_apply_u (c.w2, c.M2, accum, (GrB_UnaryOp) op, c.u2, desc) ;
    }
    else
    {
        i1 = apply_bound (our_fn [form][ft], form, ft, c.w, c.M, accum, op, c.u, x, gs, desc) ;
        i2 = apply_bound (real_fn [form][ft], form, ft, c.w2, c.M2, accum, op, c.u2, x, gs, desc) ;
    }
    const bool on_gpu = gpu_calls () > g0 ;
    // (a call left to the host because SuiteSparse's iso status of w is not
    // known here: src/residency/iso_status.c)
    const bool iso_host = gcu_iso_declined () != iso0 ;
    cases_iso_host += iso_host ;
    const bool eligible = op_gpu && !gempty && !iso_host
        && !(c.M == NULL && (di == 1 || di == 3 || di == 5 || di == 7)) ;
    cases_run++ ;
    cases_form [form]++ ;
    cases_gscalar += gscalar ;
    cases_eligible += eligible ;
    cases_gpu += on_gpu ;
    char what [320] ;
    snprintf (what, sizeof (what), "case %d (n %llu, w %s state %d, u %s%s state %d, %s %s%s%s%s, "
        "mask %d desc %d, accum %s)", k, (unsigned long long) n, TN [tw], wstate, TN [tu],
        c.u_is_w ? " = w" : "", ustate, form == F_UNARY ? "apply" : FN [form], opname,
        form == F_UNARY ? "" : " scalar ", form == F_UNARY ? "" : TN [tx],
        gscalar ? (gempty ? " (GrB_Scalar, empty)" : " (GrB_Scalar)") : "", mkind, di, accname) ;
    vec_case_check (&c, i1, i2, eligible && i2 == GrB_SUCCESS, on_gpu, n, what, st) ;
    GrB_Scalar_free (&gs) ;
}

int main (int argc, char **argv)
{
    int ncases = 500, only = -1 ;
    uint64_t seed = 0xA9915ull ;
    const int rc = vec_cases_begin (argc, argv, &ncases, &only, &seed) ;
    if (rc >= 0) return rc ;
    real_apply_u = (apply_u_t) gcu_test_real ("GrB_Vector_apply") ;
    CHECK (real_apply_u != NULL && (void *) real_apply_u != (void *) GrB_Vector_apply,
        "SuiteSparse's GrB_Vector_apply, not the interposed one") ;
    for (int f = F_1ST ; f < NF ; f++)
        for (int k = 0 ; k <= NT ; k++)
        {
            char name [80] ;
            fn_name (f, k, name, sizeof (name)) ;
            real_fn [f][k] = gcu_test_real (name) ;
            our_fn [f][k] = dlsym (RTLD_DEFAULT, name) ;
            CHECK (real_fn [f][k] != NULL && our_fn [f][k] != NULL
                && real_fn [f][k] != our_fn [f][k], "%s: SuiteSparse's and grbcuda's", name) ;
        }
    if (gcu_test_failed > 0) { GrB_finalize () ; return gcu_test_report (TEST_NAME) ; }
    gcu_test_types_init () ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    OK (grbcuda_set_keep_results (true)) ;
    if (only < 0) { check_unary_mapping () ; check_index_formula () ; }
    printf ("%s: seed 0x%llx, %d cases%s\n", TEST_NAME, (unsigned long long) seed,
        only >= 0 ? 1 : ncases, self_test ? " (self-test)" : "") ;
    for (int k = 0 ; k < ncases ; k++)
        if (only < 0 || k == only) run_case (k, seed) ;
    printf ("%s: %d cases (%d unary, %d bind1st, %d bind2nd, %d index op, %d select; %d with "
        "a GrB_Scalar), %d eligible, %d on the GPU, %d with a device-newest operand (%d made), %d left "
        "to the host for the iso status\n",
        TEST_NAME, cases_run, cases_form [0], cases_form [1], cases_form [2], cases_form [3],
        cases_form [4], cases_gscalar, cases_eligible, cases_gpu, cases_newest_in, newest_made, cases_iso_host) ;
    return vec_cases_end (only) ;
}
