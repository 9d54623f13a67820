// GRBCUDA_TEST_INTERNAL
// test_select_matrix_gpu.c — GrB_Matrix_select_<T> (every thunk form, and
// _Scalar) with the GPU forced, against SuiteSparse's own (gcu_test_real) on
// equal, independently built inputs. Random cases from a fixed seed: shapes
// 1x1, 7x5, 1000x1000 sparse, 20000x300 (empty rows), 40x30 and 300x200
// dense; A of any built-in type with awkward values (0, -0, NaN, ±Inf, integer
// extremes, ±1), in any storage (sparse, hyper, bitmap, full, by row or
// column), iso (assigned, or built with GxB_IGNORE_DUP) or device newest (D*X
// by a GPU GrB_mxm; the oracle's A is X); C empty, host, device newest or A;
// GrB_DESC_T0, GrB_REPLACE; GrB_VALUEEQ .. GE of A's type, thunks near A's
// values (NaN, -0, ±Inf, out of integer ranges, 2.7 to an integer, an entry
// of A; mostly of A's own type). The GPU must take what its family takes
// (src/mxm/mxm_select.c: VALUENE/LT/LE/GT/GE of a non-bool A's type, a thunk
// of that type that is not zero, a result with entries: gpu_policy), and
// decline the rest (VALUEEQ, bool, a cast or zero thunk, an empty result, a
// mask, accum, an op or C of another type, TRIL .. COLGT, a user op, an
// empty GrB_Scalar, an argument wrong: an error), or may (a mask descriptor,
// no mask). Then directed cases on the sign of zero (all declined: VALUEEQ
// or a zero thunk, SuiteSparse's iso rules). Checked: the return code, error string,
// the GPU's part (C left device newest), C's nvals on the device, every third
// case C, still there, read by a second select or GrB_mxv; C's type, pattern,
// values (bitwise; NaN equals NaN, -0 is not 0), iso flag (of a result the
// GPU made; one SuiteSparse computed from a written-back input may differ: a
// note, iso_check); A, mask unchanged.
// Options: --cases N (default 400), --case K (a replay), --seed S, --no-gpu
// (mode host: all passes through, nothing may differ), --self-test (no GPU
// needed: each result perturbed, an entry removed, added or changed or the
// iso flag flipped, must be caught).
#define _GNU_SOURCE
#include "gcu_test.h"
#include "grbcuda.h"
#include "residency/gcu_residency.h"
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TEST_NAME "test_select_matrix_gpu"

//------------------------------------------------------------------------------
// the 13 built-in types (gcu_test_types' order) and their typed functions
//------------------------------------------------------------------------------

#define TYPE_LIST(X) X (BOOL, bool, GrB) X (INT8, int8_t, GrB) X (INT16, int16_t, GrB)      \
    X (INT32, int32_t, GrB) X (INT64, int64_t, GrB) X (UINT8, uint8_t, GrB)                   \
    X (UINT16, uint16_t, GrB) X (UINT32, uint32_t, GrB) X (UINT64, uint64_t, GrB)             \
    X (FP32, float, GrB) X (FP64, double, GrB) X (FC32, GxB_FC32_t, GxB) X (FC64, GxB_FC64_t, GxB)
#define T_ENUM(N, CT, P) N##_,
enum { TYPE_LIST (T_ENUM) NT } ;
#define T_SIZE(N, CT, P) sizeof (CT),
static const size_t tsize [NT] = { TYPE_LIST (T_SIZE) } ;
#define T_FN(N, CT, P) (void *) P##_Matrix_select_##N,
#define T_FNAME(N, CT, P) #P "_Matrix_select_" #N,
// [NT]: GrB_Matrix_select_Scalar; grbcuda's, and SuiteSparse's (main)
static void *our_fn [NT + 1] = { TYPE_LIST (T_FN) (void *) GrB_Matrix_select_Scalar } ;
static const char *fn_name [NT + 1] = { TYPE_LIST (T_FNAME) "GrB_Matrix_select_Scalar" } ;
static void *real_fn [NT + 1], *real_mxv ;
#define TN gcu_test_type_names
#define TY gcu_test_types

static bool is_fp (int t) { return t >= FP32_ ; }
static bool is_cx (int t) { return t >= FC32_ ; }
static bool is_newest (const void *obj) { uint64_t nv ; return gcu_residency_newest_nvals (obj, &nv) ; }

static int type_index (GrB_Type t)
{
    for (int k = 0 ; k < NT ; k++) if (TY [k] == t) return k ;
    return -1 ;
}

static void *global (const char *name) { void **p = (void **) dlsym (RTLD_DEFAULT, name) ; return p ? *p : NULL ; }

// grbcuda's count of GrB_Matrix_select calls run on the GPU
static uint64_t sel_gpu (void)
{
    grbcuda_op_stats s ;
    memset (&s, 0, sizeof (s)) ;
    return grbcuda_stats_get ("GrB_Matrix_select", &s) == GrB_SUCCESS ? s.gpu : 0 ;
}

//------------------------------------------------------------------------------
// a value of one type (as its bytes); exact comparison
//------------------------------------------------------------------------------

typedef struct { _Alignas (16) unsigned char b [16] ; } tval ;

// re (+ i im) as type t, cast by SuiteSparse (integers saturate, NaN is 0)
static tval tval_make (int t, double re, double im)
{
    tval v = { { 0 } } ;
    GrB_Scalar s = NULL ;
    OK (GrB_Scalar_new (&s, GxB_FC64)) ;
    OK (GxB_Scalar_setElement_FC64 (s, GxB_CMPLX (re, im))) ;
#define T_GET(N, CT, P) case N##_: OK (P##_Scalar_extractElement_##N ((CT *) v.b, s)) ; break ;
    switch (t) { TYPE_LIST (T_GET) default: break ; }
    GrB_Scalar_free (&s) ;
    return v ;
}

// equal values of type t: bit for bit, but any NaN equals any NaN
static bool same_val (int t, const unsigned char *a, const unsigned char *b)
{
    if (!is_fp (t)) return memcmp (a, b, tsize [t]) == 0 ;
    for (int c = 0 ; c < (is_cx (t) ? 2 : 1) ; c++)
    {
        double x, y ;
        if (t == FP64_ || t == FC64_) { memcpy (&x, a + 8 * c, 8) ; memcpy (&y, b + 8 * c, 8) ; }
        else { float f, g ; memcpy (&f, a + 4 * c, 4) ; memcpy (&g, b + 4 * c, 4) ; x = f ; y = g ; }
        if (!(isnan (x) && isnan (y)) && memcmp (&x, &y, sizeof (double)) != 0) return false ;
    }
    return true ;
}

// a GrB_Scalar of type t holding v (or empty)
static GrB_Scalar scalar_of (int t, const tval *v, bool empty)
{
    GrB_Scalar s = NULL ;
    OK (GrB_Scalar_new (&s, TY [t])) ;
    GrB_Info info = empty ? GrB_SUCCESS : GrB_PANIC ;
#define T_SET(N, CT, P) case N##_: info = P##_Scalar_setElement_##N (s, *(const CT *) v->b) ; break ;
    if (!empty) switch (t) { TYPE_LIST (T_SET) default: break ; }
    OK (info) ;
    return s ;
}

typedef struct { GrB_Index i, j ; tval x ; } entry ;

static int cmp_entry (const void *a, const void *b)
{
    const entry *x = a, *y = b ;
    return x->i != y->i ? (x->i < y->i ? -1 : 1) : x->j < y->j ? -1 : x->j > y->j ;
}

// A's entries (of type t) sorted by (i, j), their count in *n; one more
// entry, zeroed, after them
static entry *entries_of (GrB_Matrix A, int t, GrB_Index *n)
{
    GrB_Index nv = 0 ;
    OK (GrB_Matrix_nvals (&nv, A)) ;
    GrB_Index *I = malloc ((nv + 1) * sizeof (GrB_Index)), *J = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    unsigned char *X = malloc ((nv + 1) * 16) ;
    GrB_Index got = nv ;
    GrB_Info info = GrB_PANIC ;
#define T_EXTRACT(N, CT, P) case N##_: info = P##_Matrix_extractTuples_##N (I, J, (CT *) X, &got, A) ; break ;
    switch (t) { TYPE_LIST (T_EXTRACT) default: break ; }
    OK (info) ;
    got = info == GrB_SUCCESS ? got : 0 ;
    entry *E = calloc (got + 1, sizeof (entry)) ;
    for (GrB_Index p = 0 ; p < got ; p++)
        { E [p].i = I [p] ; E [p].j = J [p] ; memcpy (E [p].x.b, X + p * tsize [t], tsize [t]) ; }
    qsort (E, got, sizeof (entry), cmp_entry) ;
    free (I) ; free (J) ; free (X) ;
    *n = got ;
    return E ;
}

// A and B: the same type, dimensions, pattern and values (same_val), and
// with iso, the same iso flag
static bool mat_same (GrB_Matrix A, GrB_Matrix B, bool iso, bool quiet, const char *what)
{
    GrB_Type ta = NULL, tb = NULL ;
    GrB_Index ar = 0, ac = 0, br = 0, bc = 0, na = 0, nb = 0, p = 0 ;
    bool ia = false, ib = false ;
    GxB_Matrix_type (&ta, A) ; GxB_Matrix_type (&tb, B) ; GrB_Matrix_nrows (&ar, A) ; GrB_Matrix_ncols (&ac, A) ;
    GrB_Matrix_nrows (&br, B) ; GrB_Matrix_ncols (&bc, B) ;
    const int t = type_index (ta) ;
    if (ta != tb || t < 0 || ar != br || ac != bc)
    {
        if (!quiet) fprintf (stderr, "%s: type or dimensions differ\n", what) ;
        return false ;
    }
    entry *EA = entries_of (A, t, &na), *EB = entries_of (B, t, &nb) ;
    bool ok = na == nb ;
    for ( ; ok && p < na ; p++)
        ok = EA [p].i == EB [p].i && EA [p].j == EB [p].j && same_val (t, EA [p].x.b, EB [p].x.b) ;
    p -= !ok && na == nb ;
    if (!ok && !quiet) fprintf (stderr, "%s: nvals %llu vs %llu; entry %llu at (%llu,%llu) differs\n", what,
        (unsigned long long) na, (unsigned long long) nb, (unsigned long long) p, (unsigned long long) EA [p].i,
        (unsigned long long) EA [p].j) ;
    free (EA) ; free (EB) ;
    if (!ok || !iso) return ok ;
    OK (GxB_Matrix_iso (&ia, A)) ; OK (GxB_Matrix_iso (&ib, B)) ;
    if (ia != ib && !quiet) fprintf (stderr, "%s: iso %d, SuiteSparse's %d\n", what, (int) ia, (int) ib) ;
    return ia == ib ;
}

// A's and B's iso flags equal, given equal entries. Strict (a result the
// GPU select made): a failure; else a note, counted: SuiteSparse's flag then
// follows its inputs', and a device-newest input's write-back does not keep
// an iso flag (bench/RESULTS.md, the differential tester's case 2166), so
// an empty VALUEEQ result, say, may come out iso on one side only
static int iso_notes = 0 ;
static void iso_check (GrB_Matrix A, GrB_Matrix B, bool strict, const char *what)
{
    bool ia = false, ib = false ;
    OK (GxB_Matrix_iso (&ia, A)) ; OK (GxB_Matrix_iso (&ib, B)) ;
    if (strict) CHECK (ia == ib, "%s: iso %d, SuiteSparse's %d", what, (int) ia, (int) ib) ;
    else if (ia != ib)
    {
        iso_notes++ ;
        fprintf (stderr, "note: %s: iso %d, SuiteSparse's %d (computed by SuiteSparse)\n", what, (int) ia, (int) ib) ;
    }
}

//------------------------------------------------------------------------------
// operands: grbcuda's matrix and the oracle's, of equal values
//------------------------------------------------------------------------------

// A's awkward values are the first 11; thunks are drawn from all
static const double specials [] = { NAN, -0.0, 0.0, INFINITY, -INFINITY, 1, -1, 1e300, -1e300,
    0.5, 3, 2.7, -2.5, 300.7, -129.5, 4294967296.5, 9.3e18, 65535.5 } ;
#define NSPECIAL ((int) (sizeof (specials) / sizeof (specials [0])))

static tval special_val (int t, int among, uint64_t *st)
{
    const double re = specials [gcu_rand (st) % (uint64_t) among] ;
    return tval_make (t, re, gcu_rand (st) % 3 ? 0 : specials [gcu_rand (st) % 11]) ;
}

// the storage set by hand (or left to SuiteSparse), then no pending work
static void set_storage (GrB_Matrix A, GrB_Index m, GrB_Index n, uint64_t *st, char *how, size_t size)
{
    static const int ctl [4] = { GxB_SPARSE, GxB_HYPERSPARSE, GxB_BITMAP, GxB_FULL } ;
    static const char *cname [4] = { "sparse", "hyper", "bitmap", "full" } ;
    const int r = (int) (gcu_rand (st) % 6) - 2 ;
    const bool by_col = gcu_rand (st) % 3 == 0 ;
    if (by_col) OK (GxB_Matrix_Option_set (A, GxB_FORMAT, GxB_BY_COL)) ;
    if (r >= 0 && (r < 2 || (double) m * (double) n <= 1e6)) OK (GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, ctl [r])) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    snprintf (how + strlen (how), size - strlen (how), " %s by %s", r >= 0 ? cname [r] : "any", by_col ? "col" : "row") ;
}

enum { SRC_EMPTY = 0, SRC_HOST, SRC_ISO_ASSIGN, SRC_ISO_BUILD, SRC_NEWEST } ;
static const char *src_name [5] = { "empty", "host", "iso (assign)", "iso (build)", "device-newest" } ;
static int newest_made = 0, perturbed = 0, caught = 0 ;
static bool self_test = false, gpu_checks = false, no_gpu = false ;

// X's copy by a GPU GrB_mxm, D*X with D the identity and ANY_SECOND (X's
// own values), left device newest; NULL where it is not. Not of an iso X:
// the product is not iso, and SuiteSparse's select of it differs in C's iso
static GrB_Matrix newest_copy (GrB_Matrix X, int t, GrB_Index m, GrB_Index n)
{
    bool iso = true ;
    char name [64] ;
    OK (GxB_Matrix_iso (&iso, X)) ;
    snprintf (name, sizeof (name), "GxB_ANY_SECOND_%s", TN [t]) ;
    GrB_Semiring sr = (GrB_Semiring) global (name) ;
    if (iso || sr == NULL || no_gpu || !grbcuda_gpu_available ()) return NULL ;
    GrB_Matrix D = NULL, G = NULL ;
    OK (GrB_Matrix_new (&D, GrB_BOOL, m, m)) ;
    for (GrB_Index i = 0 ; i < m ; i++) GrB_Matrix_setElement_BOOL (D, true, i, i) ;
    OK (GrB_Matrix_wait (D, GrB_MATERIALIZE)) ;
    OK (GrB_Matrix_new (&G, TY [t], m, n)) ;
    const GrB_Info info = GrB_mxm (G, NULL, NULL, sr, D, X, NULL) ;
    GrB_Matrix_free (&D) ;
    if (info != GrB_SUCCESS || !is_newest (G)) { GrB_Matrix_free (&G) ; return NULL ; }
    newest_made++ ;
    return G ;
}

// an iso matrix: the value v assigned through a random pattern, or built
// from equal values at random positions (duplicates among them)
static void make_iso (GrB_Matrix g, int t, bool assign, const tval *v, GrB_Index m, GrB_Index n,
    double density, uint64_t *st)
{
    if (assign)
    {
        GrB_Scalar s = scalar_of (t, v, false) ;
        GrB_Matrix P = gcu_test_random_matrix (GrB_BOOL, m, n, density, st) ;
        OK (GrB_Matrix_assign_Scalar (g, P, NULL, s, GrB_ALL, m, GrB_ALL, n, GrB_DESC_S)) ;
        GrB_Matrix_free (&P) ; GrB_Scalar_free (&s) ;
        return ;
    }
    const GrB_Index nz = 1 + (GrB_Index) (density * (double) m * (double) n) ;
    GrB_Index *I = malloc (nz * sizeof (GrB_Index)), *J = malloc (nz * sizeof (GrB_Index)) ;
    unsigned char *X = malloc (nz * 16) ;
    for (GrB_Index p = 0 ; p < nz ; p++)
        { I [p] = gcu_rand (st) % m ; J [p] = gcu_rand (st) % n ; memcpy (X + p * tsize [t], v->b, tsize [t]) ; }
    GrB_Info info = GrB_PANIC ;
#define T_BUILD(N, CT, P) case N##_: info = P##_Matrix_build_##N (g, I, J, (CT *) X, nz, GxB_IGNORE_DUP) ; break ;
    switch (t) { TYPE_LIST (T_BUILD) default: break ; }
    OK (info) ;
    free (I) ; free (J) ; free (X) ;
}

// *g (grbcuda's side) and *o (the oracle's), m-by-n of type t, ~density
static void make_pair (int src, int t, GrB_Index m, GrB_Index n, double density, uint64_t *st,
    GrB_Matrix *g, GrB_Matrix *o, char *how, size_t size)
{
    snprintf (how, size, "%s %s %.3g", src_name [src], TN [t], density) ;
    *g = *o = NULL ;
    if (src == SRC_EMPTY) { OK (GrB_Matrix_new (g, TY [t], m, n)) ; OK (GrB_Matrix_new (o, TY [t], m, n)) ; return ; }
    if (src == SRC_ISO_ASSIGN || src == SRC_ISO_BUILD)
    {
        const tval v = gcu_rand (st) % 2 ? special_val (t, 11, st) : tval_make (t, (double) (gcu_rand (st) % 5), 0) ;
        OK (GrB_Matrix_new (g, TY [t], m, n)) ;
        make_iso (*g, t, src == SRC_ISO_ASSIGN, &v, m, n, density, st) ;
        set_storage (*g, m, n, st, how, size) ;
        OK (GrB_Matrix_dup (o, *g)) ;
        return ;
    }
    GrB_Matrix X = gcu_test_random_matrix (TY [t], m, n, density, st) ;
    const int nspecial = gcu_rand (st) % 4 ? 1 + (int) (gcu_rand (st) % (m * n <= 35 ? 3 : 8)) : 0 ;
    for (int k = 0 ; k < nspecial ; k++)
    {
        const tval v = special_val (t, 11, st) ;
        GrB_Scalar s = scalar_of (t, &v, false) ;
        OK (GrB_Matrix_setElement_Scalar (X, s, gcu_rand (st) % m, gcu_rand (st) % n)) ;
        GrB_Scalar_free (&s) ;
    }
    set_storage (X, m, n, st, how, size) ;
    GrB_Matrix G = src == SRC_NEWEST ? newest_copy (X, t, m, n) : NULL ;
    if (src == SRC_NEWEST && G == NULL) snprintf (how, size, "host (not newest) %s %.3g", TN [t], density) ;
    if (G != NULL) { *g = G ; *o = X ; }
    else { *g = X ; OK (GrB_Matrix_dup (o, X)) ; }
}

//------------------------------------------------------------------------------
// operators, the call, the self-test's perturbation
//------------------------------------------------------------------------------

// GrB_VALUE<kind>_<T> (complex: GxB_VALUEEQ/NE)
static GrB_IndexUnaryOp value_op (int kind, int t, char *name, size_t size)
{
    static const char *cmp [6] = { "EQ", "NE", "LT", "LE", "GT", "GE" } ;
    snprintf (name, size, "%s_VALUE%s_%s", is_cx (t) ? "GxB" : "GrB", cmp [is_cx (t) ? kind % 2 : kind], TN [t]) ;
    return (GrB_IndexUnaryOp) global (name) ;
}

// what the GPU family takes of a value comparison (kind as value_op's) on
// an A of type ta with a thunk y of type ty, before it knows the result is
// not empty: not VALUEEQ, A not bool, the thunk of A's type and not zero
static bool gpu_policy (int kind, int ta, int ty, const tval *y)
{
    if ((is_cx (ta) ? kind % 2 : kind) == 0 || ta == BOOL_ || ty != ta) return false ;
    float f [2] ;
    double d [2] ;
    memcpy (f, y->b, sizeof (f)) ;
    memcpy (d, y->b, sizeof (d)) ;
    if (ta == FP32_) return f [0] != 0 ;
    if (ta == FP64_) return d [0] != 0 ;
    if (ta == FC32_) return f [0] != 0 || f [1] != 0 ;
    if (ta == FC64_) return d [0] != 0 || d [1] != 0 ;
    for (int b = 0 ; b < 16 ; b++) if (y->b [b] != 0) return true ;
    return false ;
}

// 1 if the GPU must have taken a call that gpu_policy admits, by its result
// (a C with entries), else 0
static int gpu_expect (bool admitted, GrB_Info info, GrB_Matrix C2)
{
    GrB_Index nv = 0 ;
    return admitted && info == GrB_SUCCESS && GrB_Matrix_nvals (&nv, C2) == GrB_SUCCESS && nv > 0 ;
}

static GrB_IndexUnaryOp user_op = NULL ;

static void user_gt (void *z, const void *x, GrB_Index i, GrB_Index j, const void *y)
{
    (void) i ; (void) j ;
    *(bool *) z = *(const double *) x > *(const double *) y ;
}

// C<M> = accum (C, select (op, A, y)): grbcuda's (real false) or SuiteSparse's;
// tt the thunk's typed form (NT: the GrB_Scalar s)
static GrB_Info select_call (bool real, int tt, GrB_Matrix C, GrB_Matrix M, GrB_BinaryOp accum,
    GrB_IndexUnaryOp op, GrB_Matrix A, const tval *y, GrB_Scalar s, GrB_Descriptor d)
{
    void *f = real ? real_fn [tt] : our_fn [tt] ;
#define SEL_T(CT) GrB_Info (*) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp, \
    const GrB_IndexUnaryOp, const GrB_Matrix, CT, const GrB_Descriptor)
    switch (tt)
    {
#define T_SEL(N, CT, P) case N##_: return ((SEL_T (CT)) f) (C, M, accum, op, A, *(const CT *) y->b, d) ;
        TYPE_LIST (T_SEL)
        default: return ((SEL_T (GrB_Scalar)) f) (C, M, accum, op, A, s, d) ;
    }
}

// v changed: a float's sign (0 becomes -0; NaN becomes 1), an integer's low bit
static tval changed (int t, tval v)
{
    if (!is_fp (t)) { v.b [0] ^= 1 ; return v ; }
    const bool single = t == FP32_ || t == FC32_ ;
    float f = 0 ;
    double x = 0 ;
    if (single) { memcpy (&f, v.b, 4) ; x = f ; } else memcpy (&x, v.b, 8) ;
    const tval r = tval_make (t, isnan (x) ? 1 : -x, 0) ;
    memcpy (v.b, r.b, single ? 4 : 8) ;        // the real part only
    return v ;
}

// C's iso flag flipped, its values kept; false where that cannot be (values
// that differ). SuiteSparse leaves C non-iso after a value set and set back,
// or cleared (sparse: a bitmap keeps it); GxB_Matrix_build_Scalar is iso
static bool iso_flip (GrB_Matrix C, int t, const entry *E, GrB_Index nv)
{
    bool iso = false ;
    OK (GxB_Matrix_iso (&iso, C)) ;
    if (iso && nv == 0) { OK (GxB_Matrix_Option_set (C, GxB_SPARSITY_CONTROL, GxB_SPARSE)) ; OK (GrB_Matrix_clear (C)) ; }
    else if (iso)
    {
        const tval w = changed (t, E [0].x) ;
        GrB_Scalar s1 = scalar_of (t, &w, false), s2 = scalar_of (t, &E [0].x, false) ;
        OK (GrB_Matrix_setElement_Scalar (C, s1, E [0].i, E [0].j)) ;
        OK (GrB_Matrix_wait (C, GrB_MATERIALIZE)) ;
        OK (GrB_Matrix_setElement_Scalar (C, s2, E [0].i, E [0].j)) ;
        GrB_Scalar_free (&s1) ; GrB_Scalar_free (&s2) ;
    }
    if (iso) return true ;
    for (GrB_Index p = 1 ; p < nv ; p++) if (memcmp (E [p].x.b, E [0].x.b, tsize [t])) return false ;
    GrB_Index *I = malloc ((nv + 1) * sizeof (GrB_Index)), *J = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    for (GrB_Index p = 0 ; p < nv ; p++) { I [p] = E [p].i ; J [p] = E [p].j ; }
    GrB_Scalar s = scalar_of (t, &E [0].x, false) ;
    OK (GrB_Matrix_clear (C)) ;
    OK (GxB_Matrix_build_Scalar (C, I, J, s, nv)) ;
    GrB_Scalar_free (&s) ; free (I) ; free (J) ;
    return true ;
}

// C: an entry removed, added or changed, or the iso flag flipped
static void perturb (GrB_Matrix C, int t, uint64_t *st)
{
    GrB_Index m = 0, n = 0, nv = 0 ;
    GrB_Matrix_nrows (&m, C) ; GrB_Matrix_ncols (&n, C) ;
    entry *E = entries_of (C, t, &nv) ;
    const int how = (int) (gcu_rand (st) % 4) ;
    entry e = E [nv > 0 ? gcu_rand (st) % nv : 0] ;
    perturbed++ ;
    if (how == 3 && iso_flip (C, t, E, nv)) { }
    else if (how == 0 && nv > 0) OK (GrB_Matrix_removeElement (C, e.i, e.j)) ;
    else
    {
        // e's value changed, or (how 1, 3) an entry added where there is none
        while ((how != 2 || nv == 0) && nv < m * n && bsearch (&e, E, nv, sizeof (entry), cmp_entry) != NULL)
            { e.i = gcu_rand (st) % m ; e.j = gcu_rand (st) % n ; }
        e.x = changed (t, e.x) ;
        GrB_Scalar s = scalar_of (t, &e.x, false) ;
        OK (GrB_Matrix_setElement_Scalar (C, s, e.i, e.j)) ;
        GrB_Scalar_free (&s) ;
    }
    OK (GrB_Matrix_wait (C, GrB_MATERIALIZE)) ;
    free (E) ;
}

//------------------------------------------------------------------------------
// one case
//------------------------------------------------------------------------------

// why a case is declined (E_NONE: the GPU must take it; D_MASKDESC: it may),
// and D_ERROR's ways (the last: A transposed by the descriptor, or not)
enum { E_NONE = 0, D_MASK, D_ACCUM, D_OPTYPE, D_CTYPE, D_POSITIONAL, D_USER, D_EMPTY, D_ERROR, D_MASKDESC, NDECL } ;
static const char *decl_name [NDECL] = { "eligible", "a mask", "accum", "an op of another type",
    "C of another type", "a positional op", "a user op", "an empty GrB_Scalar", "an argument wrong",
    "a mask descriptor, no mask" } ;
static const char *err_name [7] = { "C NULL", "A NULL", "op NULL", "GrB_Scalar NULL", "mask dimensions",
    "thunk of a user type", "transpose" } ;
static GrB_Type udt = NULL ;
static int cases_run = 0, cases_eligible = 0, cases_gpu = 0, cases_newest_a = 0, cases_iso_a = 0 ;
static int cases_alias = 0, cases_err = 0, cases_chained = 0, chained_newest = 0, cases_decl [NDECL] ;

// a case: grbcuda's operands, the oracle's; alias: C is A; null_c: the calls had no C; tc: C's
// type; expect: the GPU must take it (1), must not (0) or may (-1); grbcuda's, SuiteSparse's info
typedef struct
{
    GrB_Matrix C, A, M, C2, A2, M2 ;
    bool alias, null_c, on_gpu ;
    int tc, expect ;
    GrB_Info i1, i2 ;
}
sel_case ;

typedef GrB_Info (*mxv_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp, const GrB_Semiring,
    const GrB_Matrix, const GrB_Vector, const GrB_Descriptor) ;

// C (device newest where the call left it so) as the input of a second
// select (a value op of C's type) or of C*x (GxB_PLUS_PAIR_INT64: C's row
// counts), before anything reads it; the same on the oracle's side
static void chained (sel_case *c, uint64_t *st, const char *what)
{
    GrB_Index cm = 0, cn = 0 ;
    GrB_Matrix_nrows (&cm, c->C2) ; GrB_Matrix_ncols (&cn, c->C2) ;
    cases_chained++ ; chained_newest += is_newest (c->C) ;
    if (gcu_rand (st) % 3 == 0)
    {
        GrB_Vector x = NULL, w1 = NULL, w2 = NULL ;
        OK (GrB_Vector_new (&x, GrB_INT64, cn)) ;
        for (GrB_Index j = 0 ; j < cn ; j++) GrB_Vector_setElement_INT64 (x, 1, j) ;
        OK (GrB_Vector_wait (x, GrB_MATERIALIZE)) ;
        OK (GrB_Vector_new (&w1, GrB_INT64, cm)) ; OK (GrB_Vector_new (&w2, GrB_INT64, cm)) ;
        const GrB_Info e1 = GrB_mxv (w1, NULL, NULL, GxB_PLUS_PAIR_INT64, c->C, x, NULL) ;
        const GrB_Info e2 = ((mxv_t) real_mxv) (w2, NULL, NULL, GxB_PLUS_PAIR_INT64, c->C2, x, NULL) ;
        CHECK (e1 == e2 && gcu_test_vector_equal (w1, w2, 0, false, what),
            "%s: then C*x (PLUS_PAIR) as SuiteSparse's (info %d, %d)", what, (int) e1, (int) e2) ;
        GrB_Vector_free (&x) ; GrB_Vector_free (&w1) ; GrB_Vector_free (&w2) ;
        return ;
    }
    char name [64] ;
    const int kind = (int) (gcu_rand (st) % 6) ;
    GrB_IndexUnaryOp op = value_op (kind, c->tc, name, sizeof (name)) ;
    const double y = (double) (gcu_rand (st) % 5) - 1 ;
    const tval ty = tval_make (FP64_, y, 0) ;
    GrB_Matrix D1 = NULL, D2 = NULL ;
    OK (GrB_Matrix_new (&D1, TY [c->tc], cm, cn)) ; OK (GrB_Matrix_new (&D2, TY [c->tc], cm, cn)) ;
    const uint64_t g0 = sel_gpu () ;
    const GrB_Info e1 = select_call (false, FP64_, D1, NULL, NULL, op, c->C, &ty, NULL, NULL) ;
    const bool gpu = sel_gpu () > g0 ;
    const GrB_Info e2 = select_call (true, FP64_, D2, NULL, NULL, op, c->C2, &ty, NULL, NULL) ;
    const int expect = gpu_expect (gpu_policy (kind, c->tc, FP64_, &ty), e2, D2) ;
    if (gpu_checks) CHECK (gpu == (expect == 1), "%s: then select (%s, %g) %s the GPU", what, name, y,
        expect ? "ran on" : "passed") ;
    CHECK (e1 == e2 && mat_same (D1, D2, false, false, what), "%s: then select (%s, %g) as SuiteSparse's (info %d, %d)",
        what, name, y, (int) e1, (int) e2) ;
    if (e1 == GrB_SUCCESS && e1 == e2) iso_check (D1, D2, gpu, what) ;
    GrB_Matrix_free (&D1) ; GrB_Matrix_free (&D2) ;
}

// after both calls: the return codes, the GPU's part, C as SuiteSparse's
// (the self-test perturbs it first and counts it caught), A and the mask
// unchanged; then the case's matrices are freed
static void check_case (sel_case *c, int k, uint64_t *st, const char *what)
{
    const int failed0 = gcu_test_failed ;
    const bool ok = c->i1 == GrB_SUCCESS && c->i2 == GrB_SUCCESS ;
    CHECK (c->i1 == c->i2, "%s: info %d, SuiteSparse %d", what, (int) c->i1, (int) c->i2) ;
    if (gpu_checks && c->expect == 1 && c->i2 == GrB_SUCCESS) CHECK (c->on_gpu, "%s ran on the GPU", what) ;
    if ((gpu_checks && c->expect == 0) || no_gpu) CHECK (!c->on_gpu, "%s passed through to SuiteSparse", what) ;
    if (c->on_gpu) CHECK (is_newest (c->C), "%s left C device newest", what) ;
    const char *s1 = NULL, *s2 = NULL ;
    if (!ok && c->i1 == c->i2 && !c->null_c && GrB_Matrix_error (&s1, c->C) == GrB_SUCCESS)
        CHECK (GrB_Matrix_error (&s2, c->C2) == GrB_SUCCESS && s1 && s2 && !strcmp (s1, s2),
            "%s: error string \"%s\", SuiteSparse \"%s\"", what, s1 ? s1 : "(null)", s2 ? s2 : "(null)") ;
    GrB_Index n1 = 0, n2 = 0 ;
    if (ok)
    {
        // nvals while C may be on the device (answered there), then C read by another call
        OK (GrB_Matrix_nvals (&n1, c->C)) ; OK (GrB_Matrix_nvals (&n2, c->C2)) ;
        CHECK (n1 == n2, "%s: nvals %llu, SuiteSparse %llu", what, (unsigned long long) n1, (unsigned long long) n2) ;
        if (k % 3 == 0) chained (c, st, what) ;
    }
    // the self-test perturbs a result equal to SuiteSparse's, iso flag
    // included (not one whose flag a write-back already changed: iso_check)
    const bool quiet = self_test && ok && mat_same (c->C, c->C2, true, true, what) ;
    if (quiet) perturb (c->C, c->tc, st) ;
    // C read back: the whole of it, its iso flag, nvals again
    const bool same = mat_same (c->C, c->C2, quiet, quiet, what) ;
    OK (GrB_Matrix_nvals (&n1, c->C)) ; OK (GrB_Matrix_nvals (&n2, c->C2)) ;
    if (quiet) caught += !same || n1 != n2 ;
    else CHECK (same && n1 == n2, "%s: C as SuiteSparse's (nvals read back %llu, SuiteSparse %llu)", what,
        (unsigned long long) n1, (unsigned long long) n2) ;
    if (!quiet && same && ok) iso_check (c->C, c->C2, c->on_gpu, what) ;
    if (!c->alias) CHECK (mat_same (c->A, c->A2, false, false, "A"), "%s: A unchanged", what) ;
    if (c->M != NULL) CHECK (mat_same (c->M, c->M2, false, false, "M"), "%s: the mask unchanged", what) ;
    if (gcu_test_failed > failed0 && k >= 0) fprintf (stderr, "  ... replay: %s --case %d\n", TEST_NAME, k) ;
    if (!c->alias) { GrB_Matrix_free (&c->C) ; GrB_Matrix_free (&c->C2) ; }
    GrB_Matrix_free (&c->A) ; GrB_Matrix_free (&c->A2) ; GrB_Matrix_free (&c->M) ; GrB_Matrix_free (&c->M2) ;
}

// a thunk of type ty near A's values: a small integer, an awkward value,
// or (ty A's type ta) an entry of A itself
static tval thunk (int ty, int ta, GrB_Matrix A2, uint64_t *st)
{
    const int r = (int) (gcu_rand (st) % 10) ;
    if (r < 3) return tval_make (ty, (double) (gcu_rand (st) % 9) - 2, 0) ;
    if (r < 7 || ty != ta) return special_val (ty, NSPECIAL, st) ;
    GrB_Index nv = 0 ;
    entry *E = entries_of (A2, ta, &nv) ;
    const tval v = nv > 0 ? E [gcu_rand (st) % nv].x : special_val (ty, NSPECIAL, st) ;
    free (E) ;
    return v ;
}

static void run_case (int k, uint64_t seed)
{
    static const GrB_Index shapes [6][2] = { { 1, 1 }, { 7, 5 }, { 1000, 1000 }, { 20000, 300 }, { 40, 30 }, { 300, 200 } } ;
    static const double dens [6][2] = { { 1, 0 }, { 0.3, 1 }, { 0.002, 0.01 }, { 0.001, 0.003 }, { 1, 0.9 }, { 1, 0.95 } } ;
    static const int shape_of [10] = { 0, 1, 1, 1, 2, 2, 3, 4, 4, 5 } ;
    static const int asrc [8] = { SRC_HOST, SRC_HOST, SRC_HOST, SRC_ISO_ASSIGN, SRC_ISO_BUILD,
        SRC_NEWEST, SRC_NEWEST, SRC_NEWEST } ;
    static const int csrc [4] = { SRC_EMPTY, SRC_EMPTY, SRC_HOST, SRC_NEWEST } ;
    static const char *pos [9] = { "GrB_TRIL", "GrB_TRIU", "GrB_DIAG", "GrB_OFFDIAG", "GrB_ROWLE",
        "GrB_ROWGT", "GrB_COLLE", "GrB_COLGT", "GrB_ROWINDEX_INT64" } ;
    static const char *dname [8] = { "", "C", "S", "SC", "R", "RC", "RS", "RSC" } ;
    static const int mdesc [6] = { 1, 2, 3, 5, 6, 7 } ;     // the mask settings
    uint64_t s0 = seed ^ (0x9E3779B97F4A7C15ull * (uint64_t) (k + 1)), *st = &s0 ;
    const int sh = shape_of [gcu_rand (st) % 10] ;
    const GrB_Index m = shapes [sh][0], n = shapes [sh][1] ;
    const double density = dens [sh][gcu_rand (st) % 2] ;
    const int ta = (int) (gcu_rand (st) % NT) ;
    const int decl = gcu_rand (st) % 3 ? E_NONE : 1 + (int) (gcu_rand (st) % (NDECL - 1)) ;
    const int err = decl == D_ERROR ? (int) (gcu_rand (st) % 7) : -1 ;
    const bool tr = gcu_rand (st) % 3 == 0 ;               // A transposed (GrB_DESC_T0)
    const GrB_Index cm = tr ? n : m, cn = tr ? m : n ;
    sel_case c = { .expect = decl == E_NONE ? 1 : decl == D_MASKDESC ? -1 : 0, .null_c = err == 0 } ;
    c.tc = decl == D_CTYPE ? (ta + 1 + (int) (gcu_rand (st) % (NT - 1))) % NT : ta ;
    char ha [128], hc [128] = "A itself", hm [128] = "none", opname [64] = "", accname [32] = "none", ys [64] ;
    make_pair (asrc [gcu_rand (st) % 8], ta, m, n, density, st, &c.A, &c.A2, ha, sizeof (ha)) ;
    c.alias = c.tc == ta && cm == m && cn == n && gcu_rand (st) % 8 == 0 ;
    if (c.alias) { c.C = c.A ; c.C2 = c.A2 ; }
    else make_pair (csrc [gcu_rand (st) % 4], c.tc, cm, cn, sh == 2 || sh == 3 ? density : 0.3, st,
        &c.C, &c.C2, hc, sizeof (hc)) ;
    // the operator
    GrB_IndexUnaryOp op = NULL ;
    int kind = -1 ;
    if (decl == D_POSITIONAL) { snprintf (opname, sizeof (opname), "%s", pos [gcu_rand (st) % 9]) ; op = global (opname) ; }
    else if (decl == D_USER) { op = user_op ; snprintf (opname, sizeof (opname), "user (x > y, FP64)") ; }
    else if (err != 2)
    {
        const int top = decl == D_OPTYPE ? (ta + 1 + (int) (gcu_rand (st) % (NT - 1))) % NT : ta ;
        kind = (int) (gcu_rand (st) % 6) ;
        op = value_op (kind, top, opname, sizeof (opname)) ;
    }
    // the thunk: a typed form, or a GrB_Scalar of any type (empty, NULL or
    // of a user type: an error)
    // (mostly of A's type where the case is eligible: the GPU takes only that)
    const bool own = decl == E_NONE && gcu_rand (st) % 4 != 0 ;
    const int tt = decl == D_EMPTY || err == 3 || err == 5 ? NT
        : own ? (gcu_rand (st) % 2 ? ta : NT) : (int) (gcu_rand (st) % (NT + 1)) ;
    const int ty = own ? ta : tt == NT ? (int) (gcu_rand (st) % NT) : tt ;
    const tval y = thunk (ty, ta, c.A2, st) ;
    GrB_Scalar gs = scalar_of (ty, &y, false) ;
    GxB_FC64_t yz = 0 ;                                     // y, printed as SuiteSparse casts it to FC64
    OK (GxB_Scalar_extractElement_FC64 (&yz, gs)) ;
    if (is_cx (ty)) snprintf (ys, sizeof (ys), "%g%+gi", creal (yz), cimag (yz)) ;
    else snprintf (ys, sizeof (ys), "%.17g", creal (yz)) ;
    GrB_Scalar_free (&gs) ;
    if (tt == NT && err != 3) gs = err == 5 ? NULL : scalar_of (ty, &y, decl == D_EMPTY) ;
    if (err == 5) { OK (GrB_Scalar_new (&gs, udt)) ; OK (GrB_Scalar_setElement_UDT (gs, (void *) y.b)) ; }
    // the mask, accum, descriptor
    GrB_BinaryOp accum = NULL ;
    // (bool: SuiteSparse reads a valued mask's -0 by its orientation; bench/RESULTS.md)
    if (decl == D_MASK || err == 4) make_pair (gcu_rand (st) % 4 ? SRC_HOST : SRC_NEWEST, BOOL_,
        cm + (err == 4), cn, 0.5, st, &c.M, &c.M2, hm, sizeof (hm)) ;
    if (decl == D_ACCUM)
    {
        accum = gcu_rand (st) % 4 ? gcu_test_plus (TY [c.tc]) : GrB_SECOND_FP64 ;
        snprintf (accname, sizeof (accname), "%s", accum == GrB_SECOND_FP64 ? "SECOND_FP64" : "PLUS of C's type") ;
    }
    const int di = decl == D_MASK ? (int) (gcu_rand (st) % 8) : decl == D_MASKDESC ? mdesc [gcu_rand (st) % 6]
        : gcu_rand (st) % 2 ? 4 : 0 ;
    const bool dtr = err == 6 && m != n ? !tr : tr ;       // C of the other shape
    char dsc [32], what [768] ;
    snprintf (dsc, sizeof (dsc), "GrB_DESC_%s%s", dname [di], dtr ? "T0" : "") ;
    const GrB_Descriptor d = (di == 0 && !dtr) ? NULL : (GrB_Descriptor) global (dsc) ;
    CHECK ((op != NULL || err == 2) && (d != NULL || (di == 0 && !dtr)), "case %d: operator %s, descriptor %s", k, opname, dsc) ;
    bool a_iso = false ;
    OK (GxB_Matrix_iso (&a_iso, c.A2)) ;
    snprintf (what, sizeof (what), "case %d (%llux%llu, A %s%s, C %s, op %s, thunk %s %s %s, mask %s, accum %s, "
        "desc %s; %s%s%s)", k, (unsigned long long) m, (unsigned long long) n, ha, a_iso ? " (iso)" : "", hc, opname,
        tt == NT ? "GrB_Scalar" : "typed", TN [ty], ys, hm, accname, d ? dsc : "NULL", decl_name [decl],
        err >= 0 ? ": " : "", err >= 0 ? err_name [err] : "") ;
    cases_newest_a += is_newest (c.A) ;
    const uint64_t g0 = sel_gpu () ;
    c.i1 = select_call (false, tt, c.null_c ? NULL : c.C, c.M, accum, op, err == 1 ? NULL : c.A, &y, gs, d) ;
    c.on_gpu = sel_gpu () > g0 ;
    c.i2 = select_call (true, tt, c.null_c ? NULL : c.C2, c.M2, accum, op, err == 1 ? NULL : c.A2, &y, gs, d) ;
    // what the family takes of the eligible ones (a transpose "mismatch" of a
    // square A is none: eligible too)
    if (decl == E_NONE || (err == 6 && m == n))
        c.expect = gpu_expect (kind >= 0 && gpu_policy (kind, ta, ty, &y), c.i2, c.C2) ;
    cases_run++ ; cases_decl [decl]++ ; cases_eligible += c.expect == 1 ; cases_gpu += c.on_gpu ;
    cases_iso_a += a_iso ; cases_alias += c.alias ; cases_err += c.i2 != GrB_SUCCESS ;
    CHECK (err < 0 || c.i2 != GrB_SUCCESS || (err == 6 && m == n), "%s: SuiteSparse's error", what) ;
    check_case (&c, k, st, what) ;
    GrB_Scalar_free (&gs) ;
}

// directed cases, the sign of zero and the iso flag: A 7x5 of +0 (or -0),
// -0 (+0), 1 and NaN entries, iso +0 (-0) everywhere, iso with no entry, or
// empty; VALUEEQ, NE or LE; y +0 or -0 (typed FP64). SuiteSparse's VALUEEQ
// keeps an iso A's value, else takes y's; it is iso with no entry too. The
// GPU declines them all (VALUEEQ, a zero thunk of another type)
static int zero_cases (uint64_t *st)
{
    static const int types [4] = { FP32_, FP64_, FC32_, FC64_ }, kinds [3] = { 0, 1, 3 } ;
    static const char *form_name [4] = { "entries", "iso", "iso, empty", "empty" } ;
    for (int q = 0 ; q < 192 ; q++)
    {
        const int t = types [q / 48], form = q / 12 % 4, za = q / 6 % 2, zy = q / 3 % 2 ;
        const tval z = tval_make (t, za ? -0.0 : 0.0, 0), w = tval_make (t, za ? 0.0 : -0.0, 0) ;
        const tval one = tval_make (t, 1, 0), nan = tval_make (t, NAN, 0), y = tval_make (FP64_, zy ? -0.0 : 0.0, 0) ;
        const tval *vals [5] = { &z, &z, &w, &one, &nan } ;
        sel_case c = { .tc = t, .expect = 0 } ;
        OK (GrB_Matrix_new (&c.A, TY [t], 7, 5)) ; OK (GrB_Matrix_new (&c.C, TY [t], 7, 5)) ;
        for (GrB_Index e = 0 ; e < (form == 0 ? 5u : form < 3 ? 1u : 0u) ; e++)
        {
            GrB_Scalar s = scalar_of (t, vals [e], false) ;
            if (form == 1) OK (GrB_Matrix_assign_Scalar (c.A, NULL, NULL, s, GrB_ALL, 7, GrB_ALL, 5, NULL)) ;
            else if (form == 2) OK (GxB_Matrix_build_Scalar (c.A, &e, &e, s, 0)) ;
            else OK (GrB_Matrix_setElement_Scalar (c.A, s, e, e)) ;
            GrB_Scalar_free (&s) ;
        }
        OK (GrB_Matrix_wait (c.A, GrB_MATERIALIZE)) ;
        OK (GrB_Matrix_dup (&c.A2, c.A)) ; OK (GrB_Matrix_dup (&c.C2, c.C)) ;
        char opname [64], what [160] ;
        GrB_IndexUnaryOp op = value_op (kinds [q % 3], t, opname, sizeof (opname)) ;
        snprintf (what, sizeof (what), "zero case %d (A %s %s, %s, %s, y %s)", q, TN [t], form_name [form],
            za ? "-0" : "+0", opname, zy ? "-0" : "+0") ;
        const uint64_t g0 = sel_gpu () ;
        c.i1 = select_call (false, FP64_, c.C, NULL, NULL, op, c.A, &y, NULL, NULL) ;
        c.on_gpu = sel_gpu () > g0 ;
        c.i2 = select_call (true, FP64_, c.C2, NULL, NULL, op, c.A2, &y, NULL, NULL) ;
        cases_gpu += c.on_gpu ; check_case (&c, -1, st, what) ;
    }
    return 192 ;
}

int main (int argc, char **argv)
{
    int ncases = 400, only = -1 ;
    uint64_t seed = 0x5E1EC7ull ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (!strcmp (argv [a], "--cases") && a + 1 < argc) ncases = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--case") && a + 1 < argc) only = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--seed") && a + 1 < argc) seed = strtoull (argv [++a], NULL, 0) ;
        else if (!strcmp (argv [a], "--no-gpu")) no_gpu = true ;
        else if (!strcmp (argv [a], "--self-test")) self_test = true ;
        else { fprintf (stderr, "unknown option %s\n", argv [a]) ; return 2 ; }
    }
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!no_gpu && !self_test && !grbcuda_gpu_available ())
    {
        printf ("SKIP: no usable GPU; %s needs one\n", TEST_NAME) ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    gcu_test_types_init () ;
    for (int t = 0 ; t <= NT ; t++)
        CHECK ((real_fn [t] = gcu_test_real (fn_name [t])) != NULL && real_fn [t] != our_fn [t],
            "%s: SuiteSparse's and grbcuda's", fn_name [t]) ;
    CHECK ((real_mxv = gcu_test_real ("GrB_mxv")) != NULL && real_mxv != (void *) GrB_mxv, "SuiteSparse's GrB_mxv") ;
    if (gcu_test_failed > 0) { GrB_finalize () ; return gcu_test_report (TEST_NAME) ; }
    OK (grbcuda_set_mode (no_gpu ? GRBCUDA_MODE_HOST : GRBCUDA_MODE_GPU)) ; OK (grbcuda_set_keep_results (true)) ;
    gpu_checks = !no_gpu && !self_test && grbcuda_gpu_available () ;
    if (!gpu_checks)
        printf ("%s: %s: the GPU assertions (eligible cases on the GPU, declined ones not) are skipped\n",
            TEST_NAME, no_gpu ? "--no-gpu (mode host)" : self_test ? "--self-test" : "no usable GPU") ;
    OK (GrB_IndexUnaryOp_new (&user_op, user_gt, GrB_BOOL, GrB_FP64, GrB_FP64)) ;
    OK (GrB_Type_new (&udt, 16)) ;
    printf ("%s: seed 0x%llx, %d cases%s\n", TEST_NAME, (unsigned long long) seed,
        only >= 0 ? 1 : ncases, self_test ? " (self-test)" : "") ;
    for (int k = 0 ; k < ncases ; k++)
        if (only < 0 || k == only) run_case (k, seed) ;
    const int nzero = only < 0 ? zero_cases (&seed) : 0 ;
    printf ("%s: %d cases (and %d directed), %d eligible, %d on the GPU; declined:", TEST_NAME, cases_run,
        nzero, cases_eligible, cases_gpu) ;
    for (int d = 1 ; d < NDECL ; d++) printf (" %d %s%s", cases_decl [d], decl_name [d], d + 1 < NDECL ? "," : "\n") ;
    printf ("%s: %d with A device newest (%d newest operands made), %d with A iso, %d with C = A, %d chained (%d on "
        "a device-newest C), %d errors; %d iso flags unlike SuiteSparse's in results it computed (notes)\n",
        TEST_NAME, cases_newest_a, newest_made, cases_iso_a, cases_alias, cases_chained, chained_newest, cases_err,
        iso_notes) ;
    if (self_test)
    {
        printf ("%s self-test: %d of %d perturbed results caught\n", TEST_NAME, caught, perturbed) ;
        CHECK (perturbed > 0 && caught == perturbed, "every perturbation caught (%d of %d)", caught, perturbed) ;
    }
    else if (gpu_checks && only < 0)
        CHECK (cases_gpu > 0 && newest_made > 0, "cases on the GPU (%d), device-newest operands (%d)",
            cases_gpu, newest_made) ;
    GrB_IndexUnaryOp_free (&user_op) ; GrB_Type_free (&udt) ;
    gcu_residency_clear_all () ;
    GrB_finalize () ;
    return gcu_test_report (TEST_NAME) ;
}
