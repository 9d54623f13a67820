// GRBCUDA_TEST_INTERNAL (calls internal gcu_* functions: links grbcuda_static)
// test_semiring_sweep_gpu.c — issue 4 on the GPU: every built-in semiring
// declared in the installed GraphBLAS.h (parsed here, so the list follows the
// header) gives SuiteSparse's answer through GrB_mxm on the GPU, on random
// inputs of its own x and y types, without a mask (the SpGEMM saxpy family),
// with a structural mask (masked saxpy), and in a third form, alternately
// with a valued mask (masked saxpy) and with B given transposed and a
// structural mask (masked dot).
// Likewise semirings assembled at run time from built-in monoids and
// operators, user-defined struct types whose operators the program gave as C
// definitions (GxB_Type_new, GxB_BinaryOp_new, GrB_Monoid_new_UDT), and
// mixed operand types that need typecasts, into outputs of other types.
//
// Flow: enumerate -> one case per (semiring, form) -> the JIT program that
// case's family will ask for, generated exactly as the family generates it
// (byte-identical text, so the same cache key) -> all compiled in parallel on
// every core into a fresh disk cache (cold) -> the memory cache dropped and
// everything loaded back from disk on one thread (warm) -> the sweep: each
// GrB_mxm through grbcuda must run on the GPU, in the expected family,
// compiling nothing, and match SuiteSparse's own GrB_mxm on the same inputs
// (exactly; floating point within a relative tolerance, since sums are
// reassociated; ANY monoids by pattern).
//
// Usage: test_semiring_sweep_gpu [stride [first]]: every stride-th built-in
// semiring from the first-th (default 1 0: all of them); the run-time, user
// and mixed-type cases always run.
// Environment:
//   GRBCUDA_SWEEP_MD=file         also write the timing table there (it is
//                                 printed anyway, as lines starting "| ")
//   GRBCUDA_SWEEP_CACHE=dir       use (and keep) this disk cache instead of a
//                                 fresh temporary one; "cold" then compiles
//                                 only what the directory lacks
//   GRBCUDA_SWEEP_THREADS=n       compile threads (default: every core)
//   GRBCUDA_SWEEP_VALUED_EVERY=n  the valued-mask form for every n-th built-in
//   GRBCUDA_SWEEP_DOT_EVERY=n     ... and the masked dot form (default 2 and
//                                 2: alternately; 1: all of them, 0: none)
//   GRBCUDA_SWEEP_ONLY=text       only the cases whose name contains text
//                                 (e.g. GxB_PLUS_DIV_FC32: one semiring again)
//   GRBCUDA_SWEEP_COMPILE_ONLY=1  enumerate, generate and compile only (cold
//                                 and warm): needs NVRTC, not a GPU
// Timings are printed for bench/RESULTS.md, never asserted.
#define _GNU_SOURCE         // sched_getaffinity, CPU_COUNT
#include "gcu_test.h"
#include "mxm/gcu_mxm.h"
#include "grbcuda.h"
#include "gcu_semiring.h"
#include "gcu_util.h"
#include "dispatch/gcu_dispatch.h"
#include "jit/gcu_jit.h"
#include "mxm/gcu_dot_masked.h"
#include "spgemm/gcu_spgemm.h"

#include <dlfcn.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int iso_hosted ;     // calls left to the host for the result's iso status

#ifndef GCU_GRAPHBLAS_H
#define GCU_GRAPHBLAS_H NULL      // the path the build recorded, if any
#endif

typedef GrB_Info (*mxm_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
static mxm_t real_mxm ;

// the product C<M> = A*B: A is M_ x K_, B is K_ x N_ (small: SuiteSparse
// 7.4's saxpy3 can hang on long rows, and small inputs keep the sweep about
// compilation and correctness, not bandwidth). About 3 terms per entry of C
// (50 * 0.25 * 0.25), so the monoid has sums to do. With these densities the
// masked dot family declines A*B (its cost test: nnz(M) * (nnz per row of A
// + per column of B) ~ 31500 against the ~13000 products), so a mask without
// a transpose goes to masked saxpy, and B' to masked dot.
#define M_ 60
#define K_ 50
#define N_ 70
#define DENSITY_A 0.25
#define DENSITY_B 0.25
#define DENSITY_M 0.3

// every valued_every-th built-in semiring swept also runs with a valued
// mask, and every dot_every-th (from the middle) with B transposed (masked
// dot): each form costs one more JIT program per semiring. By default every
// semiring runs in three forms, the third alternating between the two.
// (GRBCUDA_SWEEP_VALUED_EVERY, GRBCUDA_SWEEP_DOT_EVERY; 1: every one, 0: none)
static int valued_every = 2, dot_every = 2 ;

//------------------------------------------------------------------------------
// user-defined types and operators: each C text is compiled here for the host
// (SuiteSparse's operator) and handed to GraphBLAS as the definition string
// (the GPU's), so both sides run the same source
//------------------------------------------------------------------------------

#define USER_CODE(name, ...) __VA_ARGS__ static const char *const name = #__VA_ARGS__ ;

// a complex number as a struct: PLUS.TIMES over it
USER_CODE (mycx_defn, typedef struct { double re ; double im ; } mycx ;)
USER_CODE (mycx_plus_defn,
void mycx_plus (mycx *z, const mycx *x, const mycx *y)
{
    double re = x->re + y->re, im = x->im + y->im ;
    z->re = re ; z->im = im ;
})
USER_CODE (mycx_times_defn,
void mycx_times (mycx *z, const mycx *x, const mycx *y)
{
    double re = x->re * y->re - x->im * y->im ;
    double im = x->re * y->im + x->im * y->re ;
    z->re = re ; z->im = im ;
})
// z = (x, y) from two doubles: a user operator over built-in x and y
USER_CODE (mkcx_defn,
void mkcx (mycx *z, const double *x, const double *y)
{
    double re = *x, im = *y ;
    z->re = re ; z->im = im ;
})
// a weighted path with a hop count (padding after the int32): MIN.PLUS,
// lexicographic on (weight, hops)
USER_CODE (wpath_defn, typedef struct { double w ; int32_t hops ; } wpath ;)
USER_CODE (wpath_min_defn,
void wpath_min (wpath *z, const wpath *x, const wpath *y)
{
    if (x->w < y->w || (x->w == y->w && x->hops <= y->hops)) *z = *x ; else *z = *y ;
})
USER_CODE (wpath_plus_defn,
void wpath_plus (wpath *z, const wpath *x, const wpath *y)
{
    double w = x->w + y->w ;
    int32_t hops = x->hops + y->hops ;
    z->w = w ; z->hops = hops ;
})

// the host's GxB_binary_function signatures
static void mycx_plus_f (void *z, const void *x, const void *y) { mycx_plus (z, x, y) ; }
static void mycx_times_f (void *z, const void *x, const void *y) { mycx_times (z, x, y) ; }
static void mkcx_f (void *z, const void *x, const void *y) { mkcx (z, x, y) ; }
static void wpath_min_f (void *z, const void *x, const void *y) { wpath_min (z, x, y) ; }
static void wpath_plus_f (void *z, const void *x, const void *y) { wpath_plus (z, x, y) ; }

// the user types the generator and the comparison know
typedef bool (*udt_eq_f) (const void *a, const void *b) ;
typedef void (*udt_fill_f) (void *x, uint64_t *st) ;
typedef struct { GrB_Type t ; size_t size ; udt_fill_f fill ; udt_eq_f eq ; } udt_t ;
static udt_t udts [4] ;
static int nudts ;

static double small_value (uint64_t *st)
{
    double v = (double) ((int) (gcu_rand (st) % 13) - 4) ;
    return (gcu_rand (st) % 4 == 0) ? v + 0.5 : v ;
}

static void mycx_fill (void *x, uint64_t *st)
{
    mycx v = { small_value (st), small_value (st) } ;
    memcpy (x, &v, sizeof (v)) ;
}

static bool mycx_eq (const void *a, const void *b)
{
    mycx x, y ;
    memcpy (&x, a, sizeof (x)) ;
    memcpy (&y, b, sizeof (y)) ;
    // small integers and halves: every sum and product is exact
    return x.re == y.re && x.im == y.im ;
}

static void wpath_fill (void *x, uint64_t *st)
{
    wpath v ;
    memset (&v, 0, sizeof (v)) ;
    v.w = 0.5 * (double) (1 + gcu_rand (st) % 12) ;
    v.hops = 1 + (int32_t) (gcu_rand (st) % 4) ;
    memcpy (x, &v, sizeof (v)) ;
}

static bool wpath_eq (const void *a, const void *b)
{
    wpath x, y ;
    memcpy (&x, a, sizeof (x)) ;
    memcpy (&y, b, sizeof (y)) ;
    return x.w == y.w && x.hops == y.hops ;     // field by field: not the padding
}

// a type without a definition (GrB_Type_new): opaque bytes, only for the
// operand of a positional multiply, which never reads it
static void opaque_fill (void *x, uint64_t *st)
{
    uint64_t v [2] = { gcu_rand (st), gcu_rand (st) } ;
    memcpy (x, v, 12) ;
}

static const udt_t *udt_of (GrB_Type t)
{
    for (int k = 0 ; k < nudts ; k++) if (udts [k].t == t) return &udts [k] ;
    return NULL ;
}

//------------------------------------------------------------------------------
// random inputs
//------------------------------------------------------------------------------

// the values a generated matrix holds: small integers and halves (exact in
// every type, sums exact in floating point), or extremes for the typecasts
// (NaN, infinities, values beyond every integer type's range, fractions)
// GEN_NONZERO: no zero values, for the division semirings: x/0 makes
// infinities and NaNs, and a monoid folding NaNs (MIN, MAX, TIMES of
// complex infinities) gives an answer that depends on the order of the
// terms, which no two implementations need share
enum { GEN_PLAIN, GEN_EXTREME, GEN_NONZERO } ;

static GrB_UnaryOp *const identity_op [GCU_NTYPES] =
{
    &GrB_IDENTITY_BOOL, &GrB_IDENTITY_INT8, &GrB_IDENTITY_INT16,
    &GrB_IDENTITY_INT32, &GrB_IDENTITY_INT64, &GrB_IDENTITY_UINT8,
    &GrB_IDENTITY_UINT16, &GrB_IDENTITY_UINT32, &GrB_IDENTITY_UINT64,
    &GrB_IDENTITY_FP32, &GrB_IDENTITY_FP64, &GxB_IDENTITY_FC32,
    &GxB_IDENTITY_FC64
} ;

static double extreme_value (uint64_t *st)
{
    static const double v [] = { NAN, INFINITY, -INFINITY, 1e20, -1e20, 300.7,
        -129.5, 127.9, -128.9, 255.5, 65535.9, 4294967296.5, -2147483649.0,
        -0.7, 0.3, 2.5, 7, -3, 1 } ;
    return v [gcu_rand (st) % (sizeof (v) / sizeof (v [0]))] ;
}

// an m-by-n matrix of type t, each entry present with probability density,
// in a random storage (sparse, hypersparse or bitmap, by row or by column),
// never iso (the families' kernels are specialised on iso operands: the
// pre-compiled programs are for non-iso ones)
static GrB_Matrix gen_matrix (GrB_Type t, GrB_Index m, GrB_Index n,
    double density, int flavour, uint64_t *st)
{
    const gcu_type_info *ti = gcu_type_builtin (t) ;
    const udt_t *u = (ti == NULL) ? udt_of (t) : NULL ;
    if (ti == NULL && u == NULL) return NULL ;
    GrB_Index *I = malloc ((m * n + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((m * n + 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((m * n + 1) * 2 * sizeof (double)) ;
    uint8_t *U = malloc ((m * n + 1) * (u ? u->size : 1)) ;
    GrB_Matrix A = NULL ;
    for (int attempt = 0 ; attempt < 8 && A == NULL ; attempt++)
    {
        GrB_Index nz = 0 ;
        for (GrB_Index i = 0 ; i < m ; i++)
        {
            for (GrB_Index j = 0 ; j < n ; j++)
            {
                if (gcu_rand01 (st) >= density) continue ;
                I [nz] = i ;
                J [nz] = j ;
                if (u != NULL) u->fill (U + nz * u->size, st) ;
                else if (ti->code == GCU_T_BOOL) X [2*nz] = (double) (gcu_rand (st) % 2) ;
                else if (flavour == GEN_EXTREME) X [2*nz] = extreme_value (st) ;
                else
                {
                    X [2*nz] = (double) ((int) (gcu_rand (st) % 23) - 4) ;
                    if (ti->tclass == GCU_CLASS_FLOAT || ti->tclass == GCU_CLASS_COMPLEX)
                    {
                        if (gcu_rand (st) % 4 == 0) X [2*nz] += 0.5 ;
                    }
                    if (flavour == GEN_NONZERO && X [2*nz] == 0) X [2*nz] = 1 ;
                }
                X [2*nz+1] = small_value (st) ;      // imaginary part
                nz++ ;
            }
        }
        OK (GrB_Matrix_new (&A, t, m, n)) ;
        if (u != NULL)
        {
            for (GrB_Index p = 0 ; p < nz ; p++)
            {
                OK (GrB_Matrix_setElement_UDT (A, U + p * u->size, I [p], J [p])) ;
            }
        }
        else
        {
            // built in FP64 (FC64), then cast to t by SuiteSparse's apply
            bool cplx = ti->tclass == GCU_CLASS_COMPLEX ;
            GrB_Matrix D = NULL ;
            OK (GrB_Matrix_new (&D, cplx ? GxB_FC64 : GrB_FP64, m, n)) ;
            if (cplx) OK (GxB_Matrix_build_FC64 (D, I, J, (GxB_FC64_t *) X, nz, GxB_SECOND_FC64)) ;
            else
            {
                for (GrB_Index p = 0 ; p < nz ; p++) X [p] = X [2*p] ;
                OK (GrB_Matrix_build_FP64 (D, I, J, X, nz, GrB_SECOND_FP64)) ;
            }
            OK (GrB_Matrix_apply (A, NULL, NULL, *identity_op [ti->code], D, NULL)) ;
            GrB_Matrix_free (&D) ;
        }
        if (gcu_rand (st) % 3 == 0) OK (GxB_Matrix_Option_set (A, GxB_FORMAT, GxB_BY_COL)) ;
        const int sp [3] = { GxB_SPARSE, GxB_HYPERSPARSE, GxB_BITMAP } ;
        OK (GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, sp [gcu_rand (st) % 3])) ;
        OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
        bool iso = false ;
        OK (GxB_Matrix_iso (&iso, A)) ;
        // all values equal (a tiny or unlucky draw): draw again
        if (iso && nz > 0) GrB_Matrix_free (&A) ;
    }
    free (I) ; free (J) ; free (X) ; free (U) ;
    CHECK (A != NULL, "could not draw a matrix that is not iso") ;
    return A ;
}

//------------------------------------------------------------------------------
// comparison of matrices of a user type: pattern, and values by the type's
// own equality (field by field: padding bytes are not values)
//------------------------------------------------------------------------------

typedef struct { GrB_Index i, j, p ; } ijp ;

static int cmp_ijp (const void *a, const void *b)
{
    const ijp *x = a, *y = b ;
    if (x->i != y->i) return x->i < y->i ? -1 : 1 ;
    if (x->j != y->j) return x->j < y->j ? -1 : 1 ;
    return 0 ;
}

static ijp *udt_tuples (GrB_Matrix A, size_t size, GrB_Index *n, uint8_t **X)
{
    GrB_Index nv = 0 ;
    GrB_Matrix_nvals (&nv, A) ;
    GrB_Index *I = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    *X = malloc ((nv + 1) * size) ;
    GrB_Index got = nv ;
    OK (GrB_Matrix_extractTuples_UDT (I, J, *X, &got, A)) ;
    ijp *T = malloc ((got + 1) * sizeof (ijp)) ;
    for (GrB_Index p = 0 ; p < got ; p++) T [p] = (ijp) { I [p], J [p], p } ;
    qsort (T, got, sizeof (ijp), cmp_ijp) ;
    free (I) ; free (J) ;
    *n = got ;
    return T ;
}

static bool udt_matrix_equal (GrB_Matrix A, GrB_Matrix B, const udt_t *u, const char *what)
{
    GrB_Index na = 0, nb = 0 ;
    uint8_t *XA = NULL, *XB = NULL ;
    ijp *TA = udt_tuples (A, u->size, &na, &XA) ;
    ijp *TB = udt_tuples (B, u->size, &nb, &XB) ;
    bool ok = (na == nb) ;
    if (!ok) fprintf (stderr, "%s: nvals %llu vs %llu\n", what,
        (unsigned long long) na, (unsigned long long) nb) ;
    for (GrB_Index p = 0 ; ok && p < na ; p++)
    {
        ok = TA [p].i == TB [p].i && TA [p].j == TB [p].j &&
            u->eq (XA + TA [p].p * u->size, XB + TB [p].p * u->size) ;
        if (!ok) fprintf (stderr, "%s: entry %llu at (%llu,%llu) vs (%llu,%llu) differs\n",
            what, (unsigned long long) p, (unsigned long long) TA [p].i,
            (unsigned long long) TA [p].j, (unsigned long long) TB [p].i,
            (unsigned long long) TB [p].j) ;
    }
    free (TA) ; free (TB) ; free (XA) ; free (XB) ;
    return ok ;
}

//------------------------------------------------------------------------------
// cases
//------------------------------------------------------------------------------

// the forms of a product, and the family each must run in
enum { FORM_PLAIN, FORM_STRUCT, FORM_VALUED, FORM_DOT, NFORMS } ;
static const char *const form_name [NFORMS] =
    { "unmasked", "structural mask", "valued mask", "B' structural mask" } ;
static const char *const form_family [NFORMS] =
    { "spgemm saxpy", "masked saxpy", "masked saxpy", "masked dot" } ;

enum { GROUP_BUILTIN, GROUP_RUNTIME, GROUP_USER, GROUP_MIXED, NGROUPS } ;
static const char *const group_name [NGROUPS] =
    { "built-in", "run-time assembled", "user-defined types", "mixed types" } ;

typedef struct
{
    char name [96] ;            // "GxB_PLUS_TIMES_FP64", "user mycx PLUS.TIMES"
    int group, form ;
    GrB_Semiring s ;
    gcu_semiring_desc d ;
    GrB_Type ta, tb, tc ;       // the types of A, B and C
    int gen_a ;                 // GEN_* of A's values
    bool any ;                  // ANY monoid: compare the pattern only
    double tol ;                // relative tolerance for floating point
    int prog ;                  // its program in the batch
    bool host ;                 // no GPU kernel by design (the JIT declines
                                // it: complex TIMES monoids): runs on the host
    bool passed ;
}
case_t ;

static case_t *cases ;
static int ncases, capcases ;
static const char *only ;      // GRBCUDA_SWEEP_ONLY

static double tol_of (GrB_Type t)
{
    if (t == GrB_FP32 || t == GxB_FC32) return 1e-4 ;
    if (t == GrB_FP64 || t == GxB_FC64) return 1e-11 ;
    return 0 ;
}

static void add_case (const char *name, int group, int form, GrB_Semiring s,
    GrB_Type ta, GrB_Type tb, GrB_Type tc, int gen_a)
{
    if (only != NULL && strstr (name, only) == NULL) return ;
    gcu_semiring_desc d ;
    GrB_Info info = gcu_semiring_identify (s, &d) ;
    CHECK (info == GrB_SUCCESS, "%s: gcu_semiring_identify returned %d", name, (int) info) ;
    if (info != GrB_SUCCESS) return ;
    if (ncases == capcases)
    {
        capcases = capcases ? 2 * capcases : 1024 ;
        cases = realloc (cases, capcases * sizeof (case_t)) ;
        if (cases == NULL) { fprintf (stderr, "out of memory\n") ; exit (1) ; }
    }
    case_t *c = &cases [ncases++] ;
    memset (c, 0, sizeof (*c)) ;
    snprintf (c->name, sizeof (c->name), "%s", name) ;
    c->group = group ;
    c->form = form ;
    c->s = s ;
    c->d = d ;
    // the semiring's own x and y types unless the case says otherwise
    c->ta = ta ? ta : d.mult.x.handle ;
    c->tb = tb ? tb : d.mult.y.handle ;
    c->tc = tc ? tc : d.mult.z.handle ;
    c->gen_a = gen_a ;
    c->any = d.add.is_any ;
    c->tol = tol_of (c->tc) ;
    c->prog = -1 ;
}

// a case in each of the given forms
static void add_forms (const char *name, int group, GrB_Semiring s, GrB_Type ta,
    GrB_Type tb, GrB_Type tc, int gen_a, bool valued, bool dot)
{
    add_case (name, group, FORM_PLAIN, s, ta, tb, tc, gen_a) ;
    add_case (name, group, FORM_STRUCT, s, ta, tb, tc, gen_a) ;
    if (valued) add_case (name, group, FORM_VALUED, s, ta, tb, tc, gen_a) ;
    if (dot) add_case (name, group, FORM_DOT, s, ta, tb, tc, gen_a) ;
}

//------------------------------------------------------------------------------
// the built-in semirings, from GraphBLAS.h
//------------------------------------------------------------------------------

static int n_declared, n_distinct, n_swept ;

static void builtin_cases (int stride, int first)
{
    char path [1024] ;
    char *h = gcu_test_graphblas_h (GCU_GRAPHBLAS_H, path, sizeof (path)) ;
    CHECK (h != NULL, "GraphBLAS.h %d.%d not found (set GRBCUDA_GRAPHBLAS_H)",
        GxB_IMPLEMENTATION_MAJOR, GxB_IMPLEMENTATION_MINOR) ;
    if (h == NULL) return ;
    gcu_test_strip_comments (h) ;
    char **names = NULL ;
    n_declared = gcu_test_declared (h, "GrB_Semiring", &names) ;
    CHECK (n_declared > 1000, "the parse of %s found only %d semirings", path, n_declared) ;
    // one object can have two names (GrB_PLUS_TIMES_SEMIRING_FP64 is
    // GxB_PLUS_TIMES_FP64): each object once, under its first name
    GrB_Semiring *objs = calloc (n_declared > 0 ? n_declared : 1, sizeof (GrB_Semiring)) ;
    for (int k = 0 ; k < n_declared ; k++)
    {
        GrB_Semiring *addr = dlsym (RTLD_DEFAULT, names [k]) ;
        CHECK (addr != NULL && *addr != NULL, "%s: no such object", names [k]) ;
        if (addr == NULL || *addr == NULL) continue ;
        bool seen = false ;
        for (int q = 0 ; q < n_distinct && !seen ; q++) seen = (objs [q] == *addr) ;
        if (seen) continue ;
        int index = n_distinct ;
        objs [n_distinct++] = *addr ;
        if (index < first || (index - first) % stride != 0) continue ;
        if (only != NULL && strstr (names [k], only) == NULL) continue ;
        // the valued-mask and dot forms for a share of those swept (so a
        // subsample has some of each too)
        const int nth = n_swept++ ;
        add_forms (names [k], GROUP_BUILTIN, *addr, NULL, NULL, NULL, GEN_PLAIN,
            valued_every > 0 && nth % valued_every == 0,
            dot_every > 0 && nth % dot_every == dot_every / 2) ;
    }
    printf ("%s: %d GrB_Semiring names, %d distinct built-in semirings; "
        "%d swept (stride %d from %d)\n", path, n_declared, n_distinct, n_swept, stride, first) ;
    for (int k = 0 ; k < n_declared ; k++) free (names [k]) ;
    free (names) ;
    free (objs) ;
    free (h) ;
}

//------------------------------------------------------------------------------
// the other cases: run-time assembled semirings, user types, mixed types
//------------------------------------------------------------------------------

#define MAX_OWNED 64
static GrB_Semiring own_s [MAX_OWNED] ;
static GrB_Monoid own_m [MAX_OWNED] ;
static GrB_BinaryOp own_op [MAX_OWNED] ;
static GrB_Type own_t [MAX_OWNED] ;
static int n_own_s, n_own_m, n_own_op, n_own_t ;

static GrB_Semiring semiring (GrB_Monoid add, GrB_BinaryOp mult)
{
    GrB_Semiring s = NULL ;
    OK (GrB_Semiring_new (&s, add, mult)) ;
    if (s != NULL && n_own_s < MAX_OWNED) own_s [n_own_s++] = s ;
    return s ;
}

static GrB_Monoid keep_monoid (GrB_Monoid m)
{
    if (m != NULL && n_own_m < MAX_OWNED) own_m [n_own_m++] = m ;
    return m ;
}

static void runtime_cases (void)
{
    GrB_Monoid m ;
    // BFS's semirings, assembled from a built-in monoid and ONEB / PAIR
    GrB_Semiring s = semiring (GxB_ANY_BOOL_MONOID, GrB_ONEB_BOOL) ;
    if (s) add_forms ("GrB_Semiring_new (GxB_ANY_BOOL_MONOID, GrB_ONEB_BOOL)", GROUP_RUNTIME, s, NULL, NULL, NULL, GEN_PLAIN, true, true) ;
    s = semiring (GrB_LOR_MONOID_BOOL, GxB_PAIR_BOOL) ;
    if (s) add_forms ("GrB_Semiring_new (GrB_LOR_MONOID_BOOL, GxB_PAIR_BOOL)", GROUP_RUNTIME, s, NULL, NULL, NULL, GEN_PLAIN, false, false) ;
    s = semiring (GxB_ANY_FP32_MONOID, GrB_ONEB_FP32) ;
    if (s) add_forms ("GrB_Semiring_new (GxB_ANY_FP32_MONOID, GrB_ONEB_FP32)", GROUP_RUNTIME, s, NULL, NULL, NULL, GEN_PLAIN, false, false) ;
    s = semiring (GrB_PLUS_MONOID_INT32, GrB_ONEB_INT32) ;
    if (s) add_forms ("GrB_Semiring_new (GrB_PLUS_MONOID_INT32, GrB_ONEB_INT32)", GROUP_RUNTIME, s, NULL, NULL, NULL, GEN_PLAIN, true, false) ;
    // monoids made with GrB_Monoid_new / GxB_Monoid_terminal_new from
    // built-in operators
    m = NULL ;
    OK (GrB_Monoid_new_BOOL (&m, GrB_LOR, false)) ;
    s = semiring (keep_monoid (m), GrB_LAND) ;
    if (s) add_forms ("GrB_Monoid_new (GrB_LOR) . GrB_LAND", GROUP_RUNTIME, s, NULL, NULL, NULL, GEN_PLAIN, true, false) ;
    m = NULL ;
    OK (GrB_Monoid_new_FP64 (&m, GrB_PLUS_FP64, 0.0)) ;
    s = semiring (keep_monoid (m), GrB_TIMES_FP64) ;
    if (s) add_forms ("GrB_Monoid_new (GrB_PLUS_FP64) . GrB_TIMES_FP64", GROUP_RUNTIME, s, NULL, NULL, NULL, GEN_PLAIN, false, true) ;
    m = NULL ;
    OK (GrB_Monoid_new_INT64 (&m, GrB_MIN_INT64, INT64_MAX)) ;
    s = semiring (keep_monoid (m), GxB_SECONDJ_INT64) ;
    if (s) add_forms ("GrB_Monoid_new (GrB_MIN_INT64) . GxB_SECONDJ_INT64", GROUP_RUNTIME, s, NULL, NULL, NULL, GEN_PLAIN, false, false) ;
    m = NULL ;
    OK (GxB_Monoid_terminal_new_INT32 (&m, GrB_MAX_INT32, INT32_MIN, INT32_MAX)) ;
    s = semiring (keep_monoid (m), GrB_TIMES_INT32) ;
    if (s) add_forms ("GxB_Monoid_terminal_new (GrB_MAX_INT32) . GrB_TIMES_INT32", GROUP_RUNTIME, s, NULL, NULL, NULL, GEN_PLAIN, false, false) ;
    m = NULL ;
    OK (GrB_Monoid_new_UINT8 (&m, GxB_ANY_UINT8, (uint8_t) 0)) ;
    s = semiring (keep_monoid (m), GrB_MIN_UINT8) ;
    if (s) add_forms ("GrB_Monoid_new (GxB_ANY_UINT8) . GrB_MIN_UINT8", GROUP_RUNTIME, s, NULL, NULL, NULL, GEN_PLAIN, false, false) ;
}

static GrB_BinaryOp user_op (GxB_binary_function f, GrB_Type z, GrB_Type x,
    GrB_Type y, const char *name, const char *defn)
{
    GrB_BinaryOp op = NULL ;
    OK (GxB_BinaryOp_new (&op, f, z, x, y, name, defn)) ;
    if (op != NULL && n_own_op < MAX_OWNED) own_op [n_own_op++] = op ;
    return op ;
}

static GrB_Type user_type (size_t size, const char *name, const char *defn,
    udt_fill_f fill, udt_eq_f eq)
{
    GrB_Type t = NULL ;
    if (defn != NULL) OK (GxB_Type_new (&t, size, name, defn)) ;
    else OK (GrB_Type_new (&t, size)) ;
    if (t == NULL) return NULL ;
    if (n_own_t < MAX_OWNED) own_t [n_own_t++] = t ;
    if (nudts < (int) (sizeof (udts) / sizeof (udts [0]))) udts [nudts++] = (udt_t) { t, size, fill, eq } ;
    return t ;
}

static void user_cases (void)
{
    // mycx: PLUS.TIMES over a struct of two doubles
    GrB_Type cx = user_type (sizeof (mycx), "mycx", mycx_defn, mycx_fill, mycx_eq) ;
    if (cx == NULL) return ;
    GrB_BinaryOp plus = user_op (mycx_plus_f, cx, cx, cx, "mycx_plus", mycx_plus_defn) ;
    GrB_BinaryOp times = user_op (mycx_times_f, cx, cx, cx, "mycx_times", mycx_times_defn) ;
    mycx zero = { 0, 0 } ;
    GrB_Monoid m = NULL ;
    OK (GrB_Monoid_new_UDT (&m, plus, &zero)) ;
    GrB_Semiring s = semiring (keep_monoid (m), times) ;
    if (s) add_forms ("user mycx: mycx_plus . mycx_times", GROUP_USER, s, NULL, NULL, NULL, GEN_PLAIN, false, true) ;

    // mkcx: built-in operands (FP64 x, FP64 y; B is FP32, cast) into mycx
    GrB_BinaryOp mk = user_op (mkcx_f, cx, GrB_FP64, GrB_FP64, "mkcx", mkcx_defn) ;
    s = semiring (m, mk) ;
    if (s) add_forms ("user mycx: mycx_plus . mkcx (FP64, FP32 -> FP64)", GROUP_USER, s, GrB_FP64, GrB_FP32, NULL, GEN_PLAIN, false, false) ;

    // wpath: MIN.PLUS, lexicographic on (weight, hops), with padding
    GrB_Type wp = user_type (sizeof (wpath), "wpath", wpath_defn, wpath_fill, wpath_eq) ;
    if (wp == NULL) return ;
    GrB_BinaryOp wmin = user_op (wpath_min_f, wp, wp, wp, "wpath_min", wpath_min_defn) ;
    GrB_BinaryOp wplus = user_op (wpath_plus_f, wp, wp, wp, "wpath_plus", wpath_plus_defn) ;
    wpath inf ;
    memset (&inf, 0, sizeof (inf)) ;
    inf.w = INFINITY ;
    inf.hops = INT32_MAX ;
    m = NULL ;
    OK (GrB_Monoid_new_UDT (&m, wmin, &inf)) ;
    s = semiring (keep_monoid (m), wplus) ;
    if (s) add_forms ("user wpath: wpath_min . wpath_plus", GROUP_USER, s, NULL, NULL, NULL, GEN_PLAIN, true, false) ;

    // a user type without any definition, as the operand of a positional
    // multiply (never read: opaque bytes on the device)
    GrB_Type opaque = user_type (12, NULL, NULL, opaque_fill, NULL) ;
    if (opaque != NULL)
    {
        add_forms ("GxB_PLUS_SECONDI_INT64 with A of an opaque user type", GROUP_USER,
            GxB_PLUS_SECONDI_INT64, opaque, GrB_FP64, NULL, GEN_PLAIN, false, false) ;
        add_forms ("GxB_MIN_FIRSTJ1_INT32 with B of an opaque user type", GROUP_USER,
            GxB_MIN_FIRSTJ1_INT32, GrB_UINT8, opaque, NULL, GEN_PLAIN, false, false) ;
    }
}

// operands of other types than the semiring's: the kernels cast A and B to
// x and y; C of yet another type takes the result through the write-back
static void mixed_cases (void)
{
    add_forms ("GrB_PLUS_TIMES_SEMIRING_FP64: A INT8, B FP32, C INT32", GROUP_MIXED,
        GrB_PLUS_TIMES_SEMIRING_FP64, GrB_INT8, GrB_FP32, GrB_INT32, GEN_PLAIN, true, true) ;
    // float -> integer: NaN, infinities and out-of-range values, as
    // GraphBLAS casts them (exact integer sums: order does not matter)
    add_forms ("GrB_PLUS_TIMES_SEMIRING_INT8: A FP64 extremes, B UINT16, C FP64", GROUP_MIXED,
        GrB_PLUS_TIMES_SEMIRING_INT8, GrB_FP64, GrB_UINT16, GrB_FP64, GEN_EXTREME, true, true) ;
    add_forms ("GrB_MIN_PLUS_SEMIRING_UINT32: A FP32 extremes, B INT64, C INT64", GROUP_MIXED,
        GrB_MIN_PLUS_SEMIRING_UINT32, GrB_FP32, GrB_INT64, GrB_INT64, GEN_EXTREME, false, true) ;
    add_forms ("GxB_MAX_MIN_UINT16: A BOOL, B INT64, C BOOL", GROUP_MIXED,
        GxB_MAX_MIN_UINT16, GrB_BOOL, GrB_INT64, GrB_BOOL, GEN_PLAIN, false, false) ;
    add_forms ("GxB_BAND_BXOR_UINT64: A INT16 extremes, B FP64, C UINT8", GROUP_MIXED,
        GxB_BAND_BXOR_UINT64, GrB_INT16, GrB_FP64, GrB_UINT8, GEN_EXTREME, false, false) ;
    // complex -> real (the real part) and real -> complex
    add_forms ("GrB_PLUS_TIMES_SEMIRING_FP64: A FC32, B FP64, C FC64", GROUP_MIXED,
        GrB_PLUS_TIMES_SEMIRING_FP64, GxB_FC32, GrB_FP64, GxB_FC64, GEN_PLAIN, false, false) ;
    add_forms ("GxB_PLUS_TIMES_FC64: A FP32, B INT32, C FC32", GROUP_MIXED,
        GxB_PLUS_TIMES_FC64, GrB_FP32, GrB_INT32, GxB_FC32, GEN_PLAIN, false, true) ;
    // a comparison over FP64 with integer operands, into a UINT8 C
    add_forms ("GxB_LOR_GT_FP64: A INT32, B UINT8, C UINT8", GROUP_MIXED,
        GxB_LOR_GT_FP64, GrB_INT32, GrB_UINT8, GrB_UINT8, GEN_PLAIN, true, false) ;
    add_forms ("GxB_ANY_FIRST_FP32: A INT64, B BOOL, C FP64", GROUP_MIXED,
        GxB_ANY_FIRST_FP32, GrB_INT64, GrB_BOOL, GrB_FP64, GEN_PLAIN, false, false) ;
}

//------------------------------------------------------------------------------
// the JIT programs: exactly what the case's family will ask the JIT for
//------------------------------------------------------------------------------

// mirrors src/mxm/mxm_saxpy.c (saxpy_run) and mxm_masked.c (masked_run): the
// operand types as the matrices' types identify, C of the semiring's z type,
// the mask structural (-1) or of its type, nothing iso (gen_matrix), 32-bit
// indices (small matrices). The SpGEMM programs come from the builders the
// families use (src/spgemm/jit_spgemm.c); the dot program is put together as
// gcu_dot_masked_compile does it (src/mxm/jit_dot_masked.c): one block after
// the preamble.
static char *case_program (case_t *c, char *label, size_t lsize,
    char entry [GCU_JIT_ENTRY_MAX])
{
    gcu_jit_operands ops ;
    memset (&ops, 0, sizeof (ops)) ;
    if (gcu_type_identify (c->ta, &ops.a) != GrB_SUCCESS ||
        gcu_type_identify (c->tb, &ops.b) != GrB_SUCCESS) return NULL ;
    ops.c = c->d.mult.z ;
    ops.mask_type = (c->form == FORM_VALUED) ? (int) GCU_T_BOOL : -1 ;
    char eg [GCU_JIT_ENTRY_MAX] ;
    char *program = NULL ;
    GrB_Info info ;
    entry [0] = '\0' ;
    if (c->form == FORM_PLAIN)
    {
        info = gcu_spgemm_numeric_program (&c->d, &ops, &program, entry, eg) ;
    }
    else if (c->form == FORM_DOT)
    {
        gcu_dot_masked_spec spec ;
        memset (&spec, 0, sizeof (spec)) ;
        spec.sr = c->d ;
        spec.ops = ops ;
        gcu_str b ;
        gcu_str_init (&b) ;
        info = gcu_dot_masked_block (&spec, &b, entry) ;
        char *block = gcu_str_take (&b) ;
        if (info == GrB_SUCCESS && block != NULL)
        {
            const char *blocks [1] = { block } ;
            program = gcu_jit_program (gcu_dot_masked_preamble (), blocks, 1) ;
        }
        free (block) ;
    }
    else
    {
        info = gcu_spgemm_masked_program (&c->d, &ops, &program, entry, eg) ;
    }
    if (info == GCU_NOT_HANDLED && c->d.add.op.op == GCU_OP_TIMES
        && (c->d.mult.z.code == GCU_T_FC32 || c->d.mult.z.code == GCU_T_FC64))
    {
        // no accumulator start value is neutral for complex TIMES (the
        // kernels would differ from SuiteSparse with infinities): host
        c->host = true ;
        return NULL ;
    }
    CHECK (info == GrB_SUCCESS && program != NULL, "%s (%s): code generation failed (%d)",
        c->name, form_name [c->form], (int) info) ;
    if (info != GrB_SUCCESS) { free (program) ; return NULL ; }
    char sr [GxB_MAX_NAME_LEN * 3] ;
    gcu_codegen_label (sr, sizeof (sr), &c->d) ;
    snprintf (label, lsize, "%s %s", c->form == FORM_PLAIN ? "spgemm" :
        c->form == FORM_DOT ? "dot_masked" : "spgemm masked", sr) ;
    return program ;
}

static uint64_t fnv1a (const char *s)
{
    uint64_t h = 1469598103934665603ull ;
    for ( ; *s ; s++) { h ^= (unsigned char) *s ; h *= 1099511628211ull ; }
    return h ;
}

static char **programs, **labels ;
static char (*entries) [GCU_JIT_ENTRY_MAX] ;    // a kernel of each program
static uint64_t *phash ;
static int nprog ;

// a program text into the batch, once (the same text is one program)
static int add_program (char *text, const char *label, const char *entry)
{
    uint64_t h = fnv1a (text) ;
    int p = 0 ;
    while (p < nprog && !(phash [p] == h && strcmp (programs [p], text) == 0)) p++ ;
    if (p == nprog)
    {
        programs [nprog] = text ;
        labels [nprog] = strdup (label) ;
        memcpy (entries [nprog], entry, GCU_JIT_ENTRY_MAX) ;
        phash [nprog] = h ;
        nprog++ ;
    }
    else free (text) ;
    return p ;
}

// one program per distinct text (run-time semirings can repeat a built-in's);
// a case whose C is of another type than the product's also asks for the
// device write-back's typecast (src/mxm/mxm_merge_jit.c), made here too
static void make_programs (void)
{
    programs = calloc (2 * ncases + 1, sizeof (char *)) ;
    labels = calloc (2 * ncases + 1, sizeof (char *)) ;
    phash = calloc (2 * ncases + 1, sizeof (uint64_t)) ;
    entries = calloc (2 * ncases + 1, GCU_JIT_ENTRY_MAX) ;
    for (int k = 0 ; k < ncases ; k++)
    {
        char label [256], entry [GCU_JIT_ENTRY_MAX] ;
        char *text = case_program (&cases [k], label, sizeof (label), entry) ;
        if (text == NULL) continue ;
        cases [k].prog = add_program (text, label, entry) ;
        if (cases [k].tc != cases [k].d.mult.z.handle)
        {
            char *wb = NULL ;
            GrB_Info info = gcu_mxm_merge_program (cases [k].tc, cases [k].d.mult.z.handle, NULL,
                &wb, entry, label, sizeof (label)) ;
            CHECK (info == GrB_SUCCESS && wb != NULL, "%s: the write-back's typecast program (%d)",
                cases [k].name, (int) info) ;
            if (info == GrB_SUCCESS) (void) add_program (wb, label, entry) ;
        }
    }
}

//------------------------------------------------------------------------------
// one case
//------------------------------------------------------------------------------

static double t_gpu_calls [NGROUPS], t_host_calls [NGROUPS] ;
static int n_run [NGROUPS], n_pass [NGROUPS] ;

static void run_case (case_t *c)
{
    char what [160] ;
    snprintf (what, sizeof (what), "%s (%s)", c->name, form_name [c->form]) ;
    // the same inputs for a case whatever the stride and the order
    uint64_t st = fnv1a (c->name) ^ (0x9E3779B97F4A7C15ull * (uint64_t) (c->form + 1)) ;
    const bool dot = c->form == FORM_DOT ;
    const bool div = strstr (c->name, "_DIV_") != NULL || strstr (c->name, "_RDIV_") != NULL ;
    const int gen_a = (div && c->gen_a == GEN_PLAIN) ? GEN_NONZERO : c->gen_a ;
    const int gen_b = div ? GEN_NONZERO : GEN_PLAIN ;
    GrB_Matrix A = gen_matrix (c->ta, M_, K_, DENSITY_A, gen_a, &st) ;
    // B' for the dot form: B is stored N_ x K_ and the descriptor transposes it
    GrB_Matrix B = dot ? gen_matrix (c->tb, N_, K_, DENSITY_B, gen_b, &st)
                       : gen_matrix (c->tb, K_, N_, DENSITY_B, gen_b, &st) ;
    GrB_Matrix M = (c->form == FORM_PLAIN) ? NULL : gen_matrix (GrB_BOOL, M_, N_, DENSITY_M, GEN_PLAIN, &st) ;
    GrB_Descriptor desc = NULL ;
    if (c->form == FORM_STRUCT || dot)
    {
        OK (GrB_Descriptor_new (&desc)) ;
        OK (GrB_Descriptor_set (desc, GrB_MASK, GrB_STRUCTURE)) ;
        if (dot) OK (GrB_Descriptor_set (desc, GrB_INP1, GrB_TRAN)) ;
    }
    GrB_Matrix C1 = NULL, C2 = NULL ;
    OK (GrB_Matrix_new (&C1, c->tc, M_, N_)) ;
    OK (GrB_Matrix_new (&C2, c->tc, M_, N_)) ;
    bool ok = A != NULL && B != NULL && (M != NULL || c->form == FORM_PLAIN) &&
        C1 != NULL && C2 != NULL ;
    if (ok)
    {
        grbcuda_op_stats s0, s1 ;
        grbcuda_stats_get ("GrB_mxm", &s0) ;
        const uint64_t runs0 = gcu_family_runs (form_family [c->form]) ;
        const uint64_t iso0 = gcu_iso_declined () ;
        double t0 = gcu_now () ;
        GrB_Info i1 = GrB_mxm (C1, M, NULL, c->s, A, B, desc) ;
        double t1 = gcu_now () ;
        GrB_Info i2 = real_mxm (C2, M, NULL, c->s, A, B, desc) ;
        double t2 = gcu_now () ;
        grbcuda_stats_get ("GrB_mxm", &s1) ;
        const uint64_t runs1 = gcu_family_runs (form_family [c->form]) ;
        t_gpu_calls [c->group] += t1 - t0 ;
        t_host_calls [c->group] += t2 - t1 ;
        CHECK (i1 == GrB_SUCCESS && i2 == GrB_SUCCESS, "%s: GrB_mxm %d, SuiteSparse %d",
            what, (int) i1, (int) i2) ;
        // a result whose iso status in SuiteSparse grbcuda cannot tell stays
        // on the host (src/residency/iso_status.c; compared below)
        const bool iso_host = gcu_iso_declined () != iso0 && s1.gpu == s0.gpu ;
        iso_hosted += iso_host ;
        bool gpu = (c->host || iso_host) ? (s1.gpu == s0.gpu && runs1 == runs0
                               && s1.reason [GRBCUDA_REASON_NO_KERNEL] == s0.reason [GRBCUDA_REASON_NO_KERNEL] + 1)
                           : (s1.gpu == s0.gpu + 1 && runs1 == runs0 + 1) ;
        CHECK (gpu, "%s: did not run %s %s (GPU calls +%llu, family +%llu; "
            "host reasons: no kernel +%llu, GPU failed +%llu)", what,
            (c->host || iso_host) ? "on the host, not" : "on the GPU as", form_family [c->form],
            (unsigned long long) (s1.gpu - s0.gpu), (unsigned long long) (runs1 - runs0),
            (unsigned long long) (s1.reason [GRBCUDA_REASON_NO_KERNEL] - s0.reason [GRBCUDA_REASON_NO_KERNEL]),
            (unsigned long long) (s1.reason [GRBCUDA_REASON_GPU_FAILED] - s0.reason [GRBCUDA_REASON_GPU_FAILED])) ;
        const udt_t *u = udt_of (c->tc) ;
        bool same = (i1 == GrB_SUCCESS && i2 == GrB_SUCCESS) &&
            ((u != NULL) ? udt_matrix_equal (C1, C2, u, what)
                         : gcu_test_matrix_equal (C1, C2, c->tol, c->any, what)) ;
        CHECK (same, "%s differs from SuiteSparse", what) ;
        c->passed = gpu && same ;
    }
    else CHECK (ok, "%s: inputs", what) ;
    n_run [c->group]++ ;
    n_pass [c->group] += c->passed ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&M) ;
    GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ;
    GrB_Descriptor_free (&desc) ;
}

//------------------------------------------------------------------------------
// the report: Markdown lines for bench/RESULTS.md
//------------------------------------------------------------------------------

static FILE *md ;

static void mdline (const char *fmt, ...) __attribute__((format(printf, 1, 2))) ;
static void mdline (const char *fmt, ...)
{
    char buf [1024] ;
    va_list ap ;
    va_start (ap, fmt) ;
    vsnprintf (buf, sizeof (buf), fmt, ap) ;
    va_end (ap) ;
    printf ("%s\n", buf) ;
    if (md != NULL) fprintf (md, "%s\n", buf) ;
}

static int env_int (const char *name, int dflt)
{
    const char *s = getenv (name) ;
    return (s != NULL && s [0] >= '0' && s [0] <= '9') ? atoi (s) : dflt ;
}

// the cores this process may run on (as the JIT's batch compile counts them)
static int ncores (void)
{
    cpu_set_t set ;
    if (sched_getaffinity (0, sizeof (set), &set) == 0 && CPU_COUNT (&set) > 0)
        return CPU_COUNT (&set) ;
    long n = sysconf (_SC_NPROCESSORS_ONLN) ;
    return n > 0 ? (int) n : 1 ;
}

static double cpu_seconds (void)
{
    struct timespec ts ;
    clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) ;
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec ;
}

static void free_all (void)
{
    for (int p = 0 ; p < nprog ; p++) { free (programs [p]) ; free (labels [p]) ; }
    free (programs) ; free (labels) ; free (phash) ; free (entries) ;
    free (cases) ;
    for (int k = 0 ; k < n_own_s ; k++) GrB_Semiring_free (&own_s [k]) ;
    for (int k = 0 ; k < n_own_m ; k++) GrB_Monoid_free (&own_m [k]) ;
    for (int k = 0 ; k < n_own_op ; k++) GrB_BinaryOp_free (&own_op [k]) ;
    for (int k = 0 ; k < n_own_t ; k++) GrB_Type_free (&own_t [k]) ;
}

int main (int argc, char **argv)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    const bool compile_only = env_int ("GRBCUDA_SWEEP_COMPILE_ONLY", 0) > 0 ;
    const bool gpu = !compile_only && grbcuda_gpu_available () ;
    if (!compile_only && !gpu)
    {
        printf ("SKIP: no usable GPU; test_semiring_sweep_gpu needs one "
            "(GRBCUDA_SWEEP_COMPILE_ONLY=1 runs its compile stage alone)\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    if (!gcu_jit_available ())
    {
        fprintf (stderr, "test_semiring_sweep_gpu: NVRTC is not available\n") ;
        GrB_finalize () ;
        return 1 ;
    }
    real_mxm = (mxm_t) gcu_test_real ("GrB_mxm") ;
    CHECK (real_mxm != NULL, "SuiteSparse's GrB_mxm not found") ;
    gcu_test_types_init () ;
    int stride = argc > 1 ? atoi (argv [1]) : 1 ;
    int first = argc > 2 ? atoi (argv [2]) : 0 ;
    if (stride < 1) stride = 1 ;
    if (first < 0) first = 0 ;
    valued_every = env_int ("GRBCUDA_SWEEP_VALUED_EVERY", valued_every) ;
    dot_every = env_int ("GRBCUDA_SWEEP_DOT_EVERY", dot_every) ;
    only = getenv ("GRBCUDA_SWEEP_ONLY") ;
    if (only != NULL && only [0] == '\0') only = NULL ;
    const char *md_path = getenv ("GRBCUDA_SWEEP_MD") ;
    const double t_start = gcu_now () ;

    // the disk cache: a fresh one, so that "cold" is cold, unless given
    const char *keep_dir = getenv ("GRBCUDA_SWEEP_CACHE") ;
    char dir [1024] ;
    if (keep_dir != NULL && keep_dir [0] != '\0') snprintf (dir, sizeof (dir), "%s", keep_dir) ;
    else
    {
        const char *tmp = getenv ("TMPDIR") ;
        snprintf (dir, sizeof (dir), "%s/grbcuda-sweep-XXXXXX", (tmp && tmp [0]) ? tmp : "/tmp") ;
        CHECK (mkdtemp (dir) != NULL, "mkdtemp %s", dir) ;
    }
    gcu_jit_set_cache_dir (dir) ;

    //--------------------------------------------------------------------------
    // the cases
    //--------------------------------------------------------------------------

    builtin_cases (stride, first) ;
    const int n_builtin_cases = ncases ;
    runtime_cases () ;
    user_cases () ;
    mixed_cases () ;
    int by_form [NFORMS] = { 0 } ;
    for (int k = 0 ; k < n_builtin_cases ; k++) by_form [cases [k].form]++ ;
    printf ("%d cases: %d of built-in semirings (%d unmasked, %d structural mask, "
        "%d valued mask, %d masked dot), %d others\n", ncases, n_builtin_cases,
        by_form [FORM_PLAIN], by_form [FORM_STRUCT], by_form [FORM_VALUED],
        by_form [FORM_DOT], ncases - n_builtin_cases) ;

    //--------------------------------------------------------------------------
    // pre-compile: cold into the fresh cache, on every core; then warm
    //--------------------------------------------------------------------------

    double t0 = gcu_now () ;
    make_programs () ;
    const double t_codegen = gcu_now () - t0 ;
    int nthreads = env_int ("GRBCUDA_SWEEP_THREADS", 0) ;
    if (nthreads <= 0) nthreads = ncores () ;
    const gcu_jit_binary **bins = calloc (nprog + 1, sizeof (gcu_jit_binary *)) ;
    GrB_Info *status = calloc (nprog + 1, sizeof (GrB_Info)) ;
    printf ("%d distinct JIT programs (code generation %.2f s); compiling for sm_%d "
        "on %d threads into %s\n", nprog, t_codegen, gcu_jit_arch (), nthreads, dir) ;
    fflush (stdout) ;
    gcu_jit_stats_reset () ;
    t0 = gcu_now () ;
    double c0 = cpu_seconds () ;
    GrB_Info info = gcu_jit_compile_batch (nprog, (const char *const *) programs,
        (const char *const *) labels, bins, status, nthreads) ;
    const double t_cold = gcu_now () - t0 ;
    // CPU time of the process, all threads: NVRTC's cost per program whatever
    // else shares the cores
    const double cpu_cold = cpu_seconds () - c0 ;
    gcu_jit_stats cold ;
    gcu_jit_stats_get (&cold) ;
    CHECK (info == GrB_SUCCESS, "batch compile: %d", (int) info) ;
    size_t bin_bytes = 0 ;
    for (int p = 0 ; p < nprog ; p++)
    {
        size_t size = 0 ;
        if (status [p] == GrB_SUCCESS && bins [p] != NULL)
        {
            gcu_jit_binary_data (bins [p], &size, NULL) ;
            bin_bytes += size ;
            continue ;
        }
        for (int k = 0 ; k < ncases ; k++)
        {
            CHECK (cases [k].prog != p, "%s (%s): its program does not compile "
                "(GRBCUDA_VERBOSE=1 shows the log)", cases [k].name, form_name [cases [k].form]) ;
        }
    }
    const double per = 1.0 / (nprog ? nprog : 1) ;
    // per program compiled (a kept cache directory may already hold some)
    const double per_c = 1.0 / (cold.compiles ? (double) cold.compiles : 1.0) ;
    printf ("cold: %d programs in %.1f s wall on %d threads: %.3f s/program wall, "
        "%.3f s/program of CPU, %.3f s/program in NVRTC (wall, per thread) "
        "(%llu compiled, %llu from the disk cache, %.1f MB of CUBIN)\n", nprog, t_cold,
        nthreads, t_cold * per_c, cpu_cold * per_c,
        cold.compile_seconds / (cold.compiles ? (double) cold.compiles : 1.0),
        (unsigned long long) cold.compiles, (unsigned long long) cold.disk_hits,
        bin_bytes / 1e6) ;
    fflush (stdout) ;

    // warm: a new process's first use of each program, from the disk cache
    gcu_jit_cache_clear_memory () ;
    gcu_jit_stats_reset () ;
    t0 = gcu_now () ;
    info = gcu_jit_compile_batch (nprog, (const char *const *) programs,
        (const char *const *) labels, bins, status, 1) ;
    const double t_warm = gcu_now () - t0 ;
    gcu_jit_stats warm ;
    gcu_jit_stats_get (&warm) ;
    CHECK (info == GrB_SUCCESS && warm.compiles == 0 && warm.disk_hits == (uint64_t) nprog,
        "warm: %llu disk hits, %llu compiles of %d programs",
        (unsigned long long) warm.disk_hits, (unsigned long long) warm.compiles, nprog) ;
    printf ("warm: %d programs from the disk cache in %.2f s on one thread: "
        "%.2f ms/program\n", nprog, t_warm, 1e3 * t_warm * per) ;
    // and into the GPU: each program's module loaded into the context the
    // families use (this thread's, made current when CUDA started), where
    // the sweep then finds it
    double t_load = -1 ;
    if (gpu && info == GrB_SUCCESS)
    {
        int loaded = 0 ;
        t0 = gcu_now () ;
        for (int p = 0 ; p < nprog ; p++)
        {
            void *f = NULL ;
            loaded += (gcu_jit_function (bins [p], entries [p], &f) == GrB_SUCCESS && f != NULL) ;
        }
        t_load = gcu_now () - t0 ;
        CHECK (loaded == nprog, "only %d of %d programs load into the GPU", loaded, nprog) ;
        printf ("module load: %d programs into the GPU in %.2f s: %.2f ms/program\n",
            loaded, t_load, 1e3 * t_load * per) ;
    }
    fflush (stdout) ;
    free (bins) ;
    free (status) ;

    //--------------------------------------------------------------------------
    // the sweep
    //--------------------------------------------------------------------------

    double t_sweep [NGROUPS] = { 0 } ;
    gcu_jit_stats during ;
    memset (&during, 0, sizeof (during)) ;
    if (gpu)
    {
        OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
        gcu_jit_stats_reset () ;
        for (int k = 0 ; k < ncases ; k++)
        {
            double tc = gcu_now () ;
            run_case (&cases [k]) ;
            t_sweep [cases [k].group] += gcu_now () - tc ;
            if ((k + 1) % 250 == 0 || k + 1 == ncases)
            {
                printf ("  %d/%d cases (%.1f s)\n", k + 1, ncases, gcu_now () - t_start) ;
                fflush (stdout) ;
            }
        }
        gcu_jit_stats_get (&during) ;
        // every program the families asked for was one made above: the
        // replicas in case_program match the families' code generation
        CHECK (during.compiles == 0 && during.disk_hits == 0, "the sweep compiled %llu "
            "programs and loaded %llu from disk: a family generated a program the "
            "pre-compile did not (src/mxm or src/spgemm changed how it specialises)",
            (unsigned long long) during.compiles, (unsigned long long) during.disk_hits) ;
        grbcuda_set_mode (GRBCUDA_MODE_AUTO) ;
        int nfail = 0 ;
        for (int k = 0 ; k < ncases ; k++)
        {
            if (cases [k].passed) continue ;
            if (nfail++ < 100) printf ("  FAILED: %s (%s)\n", cases [k].name, form_name [cases [k].form]) ;
        }
        if (nfail > 100) printf ("  ... %d failed cases in all\n", nfail) ;
    }

    //--------------------------------------------------------------------------
    // the table
    //--------------------------------------------------------------------------

    if (md_path != NULL && md_path [0] != '\0')
    {
        md = fopen (md_path, "w") ;
        CHECK (md != NULL, "cannot write %s", md_path) ;
    }
    char dev [256] = "no GPU (compile stage only)" ;
    int sms = 0, ccmaj = 0, ccmin = 0 ;
    size_t mem = 0 ;
    if (gpu && grbcuda_gpu_info (dev, &sms, &ccmaj, &ccmin, &mem) == GrB_SUCCESS)
    {
        char d2 [300] ;
        snprintf (d2, sizeof (d2), "%s (%d SMs, sm_%d%d)", dev, sms, ccmaj, ccmin) ;
        snprintf (dev, sizeof (dev), "%s", d2) ;
    }
    time_t now = time (NULL) ;
    char date [32] ;
    strftime (date, sizeof (date), "%Y-%m-%d", localtime (&now)) ;
    printf ("\n") ;
    mdline ("| semiring sweep, %s (`tests/gpu/test_semiring_sweep_gpu%s%s`) | |",
        date, argc > 1 ? " " : "", argc > 1 ? argv [1] : "") ;
    mdline ("| --- | --- |") ;
    mdline ("| machine | %s, %d CPU cores |", dev, ncores ()) ;
    mdline ("| built-in semirings | %d `GrB_Semiring` names in GraphBLAS.h = %d distinct objects; "
        "%d swept |", n_declared, n_distinct, n_swept) ;
    mdline ("| GrB_mxm cases | %d: built-in %d (%d unmasked, %d structural mask, %d valued mask, "
        "%d masked dot) + %d run-time assembled, user-defined types, mixed types |",
        ncases, n_builtin_cases, by_form [FORM_PLAIN], by_form [FORM_STRUCT],
        by_form [FORM_VALUED], by_form [FORM_DOT], ncases - n_builtin_cases) ;
    mdline ("| JIT programs | %d distinct (one per specialisation; 2-3 kernels each), "
        "%.1f MB of CUBIN for sm_%d |", nprog, bin_bytes / 1e6, gcu_jit_arch ()) ;
    mdline ("| cold compile (NVRTC) | %.1f s wall for %llu programs on %d threads = "
        "%.3f s/program; %.2f s of CPU per program |", t_cold,
        (unsigned long long) cold.compiles, nthreads, t_cold * per_c, cpu_cold * per_c) ;
    mdline ("| warm load from the disk cache | %.2f s for %d programs on one thread = "
        "%.2f ms/program |", t_warm, nprog, 1e3 * t_warm * per) ;
    if (t_load >= 0)
    {
        mdline ("| module load into the GPU | %.2f s for %d programs = %.2f ms/program |",
            t_load, nprog, 1e3 * t_load * per) ;
    }
    if (gpu)
    {
        for (int g = 0 ; g < NGROUPS ; g++)
        {
            if (n_run [g] == 0) continue ;
            mdline ("| sweep: %s | %d/%d cases match SuiteSparse on the GPU; %.2f s wall "
                "(inputs, both products, comparison); GrB_mxm on the GPU %.2f ms/call, "
                "SuiteSparse %.2f ms/call |", group_name [g], n_pass [g], n_run [g],
                t_sweep [g], 1e3 * t_gpu_calls [g] / n_run [g],
                1e3 * t_host_calls [g] / n_run [g]) ;
        }
    }
    mdline ("| whole run | %.1f s |", gcu_now () - t_start) ;
    if (md != NULL) fclose (md) ;

    free_all () ;
    gcu_jit_cache_clear_memory () ;
    if (keep_dir == NULL || keep_dir [0] == '\0')
    {
        char cmd [1100] ;
        snprintf (cmd, sizeof (cmd), "rm -rf '%s'", dir) ;
        if (system (cmd) != 0) fprintf (stderr, "could not remove %s\n", dir) ;
    }
    printf ("%d products left to the host for their iso status\n", iso_hosted) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_semiring_sweep_gpu") ;
}
