// GRBCUDA_TEST_INTERNAL
// test_assign_gpu.c — GrB_Vector_assign and its scalar forms
// (GrB_Vector_assign_<T>) with the GPU forced, against SuiteSparse's own
// functions (gcu_test_real) on equal inputs: random cases from a fixed seed,
// each with a length (1, 7, 1000, 50000), w of a built-in type (empty,
// sparse, dense, full or device newest), either u (a host vector, sparse to
// full, or device newest: the result of a GPU GrB_mxv) or a scalar x of
// one of the typed forms (small integers, and for the float forms NaN, ±Inf,
// -0 and values out of every integer type's range: the casts must be
// SuiteSparse's), a mask (none, host, device newest, u itself or w itself)
// with each of the 8 mask descriptors (a NULL mask complemented too), an
// accum (none, or a built-in operator of w's type or another), the index
// list GrB_ALL (the GPU's case) or, one case in ten, an explicit list (the
// host's). Checked: the return code, then w's type, pattern and values
// against SuiteSparse's (exact; NaN equals NaN), u and the mask unchanged,
// and that the eligible cases ran on the GPU and left w device newest.
// Options: --cases N (default 400), --case K (a replay), --seed S,
// --no-gpu (every call passes through: nothing may differ), --self-test (no
// GPU needed: each case's grbcuda result is perturbed, an entry removed,
// added or changed, and every perturbation must be caught).
#define _GNU_SOURCE
#include "gcu_test.h"
#include "grbcuda.h"
#include "residency/gcu_residency.h"
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TEST_NAME "test_assign_gpu"

enum { NT = 9 } ;
enum { BOOL_ = 0, INT8_, INT32_, INT64_, UINT16_, UINT64_, FP32_, FP64_, FC64_ } ;
static GrB_Type TY [NT] ;
static const char *TN [NT] = { "BOOL", "INT8", "INT32", "INT64", "UINT16", "UINT64",
    "FP32", "FP64", "FC64" } ;

typedef GrB_Info (*assign_v_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Vector, const GrB_Index *, GrB_Index, const GrB_Descriptor) ;
static assign_v_t real_assign_v ;
static void *real_assign_s [NT] ;       // SuiteSparse's GrB_Vector_assign_<T>
static void *our_assign_s [NT] ;        // the process's (grbcuda's)

static void *global (const char *name)
{
    void **p = (void **) dlsym (RTLD_DEFAULT, name) ;
    return p == NULL ? NULL : *p ;
}

static const char *scalar_fn_name (int t, char *buf, size_t size)
{
    snprintf (buf, size, "%s_Vector_assign_%s", t == FC64_ ? "GxB" : "GrB", TN [t]) ;
    return buf ;
}

// x holds the scalar as a double (real types) or a double complex (FC64)
typedef struct { double re, im ; } scal ;

#define CALL_S(T, CT, EXPR) ((GrB_Info (*) (GrB_Vector, const GrB_Vector, \
    const GrB_BinaryOp, CT, const GrB_Index *, GrB_Index, const GrB_Descriptor)) f) \
    (w, M, accum, (EXPR), I, ni, desc)

// the typed scalar form of type t through f (grbcuda's or SuiteSparse's);
// the double is cast to the form's C type as a C program would
static GrB_Info assign_scalar (void *f, int t, GrB_Vector w, GrB_Vector M,
    GrB_BinaryOp accum, scal x, const GrB_Index *I, GrB_Index ni, GrB_Descriptor desc)
{
    switch (t)
    {
        case BOOL_:   return CALL_S (t, bool, x.re != 0) ;
        case INT8_:   return CALL_S (t, int8_t, (int8_t) x.re) ;
        case INT32_:  return CALL_S (t, int32_t, (int32_t) x.re) ;
        case INT64_:  return CALL_S (t, int64_t, (int64_t) x.re) ;
        case UINT16_: return CALL_S (t, uint16_t, (uint16_t) x.re) ;
        case UINT64_: return CALL_S (t, uint64_t, (uint64_t) x.re) ;
        case FP32_:   return CALL_S (t, float, (float) x.re) ;
        case FP64_:   return CALL_S (t, double, x.re) ;
        default:      return CALL_S (t, GxB_FC64_t, GxB_CMPLX (x.re, x.im)) ;
    }
}

static bool is_newest (const void *v)
{
    uint64_t nv ;
    return gcu_residency_newest_nvals (v, &nv) ;
}

static uint64_t gpu_calls (void)
{
    grbcuda_op_stats s ;
    uint64_t n = 0 ;
    memset (&s, 0, sizeof (s)) ;
    if (grbcuda_stats_get ("GrB_Vector_assign", &s) == GrB_SUCCESS) n += s.gpu ;
    memset (&s, 0, sizeof (s)) ;
    if (grbcuda_stats_get ("GrB_Vector_assign_scalar", &s) == GrB_SUCCESS) n += s.gpu ;
    return n ;
}

//------------------------------------------------------------------------------
// operands
//------------------------------------------------------------------------------

static int newest_made = 0 ;

// a copy of v left device newest by a GPU GrB_mxv (D*v, D the identity,
// ANY_SECOND: v's own values); v itself if that fails
static GrB_Vector make_newest (GrB_Vector v, int t, GrB_Index n)
{
    char name [64] ;
    snprintf (name, sizeof (name), "GxB_ANY_SECOND_%s", TN [t]) ;
    GrB_Semiring sr = (GrB_Semiring) global (name) ;
    GrB_Matrix D = NULL ;
    GrB_Vector d = NULL, r = NULL ;
    if (sr == NULL) return v ;
    GrB_Vector_new (&d, GrB_BOOL, n) ;
    GrB_Vector_assign_BOOL (d, NULL, NULL, true, GrB_ALL, n, NULL) ;
    GrB_Vector_wait (d, GrB_MATERIALIZE) ;
    GrB_Matrix_diag (&D, d, 0) ;
    GrB_Vector_free (&d) ;
    GrB_Vector_new (&r, TY [t], n) ;
    GrB_Info info = GrB_mxv (r, NULL, NULL, sr, D, v, NULL) ;
    GrB_Matrix_free (&D) ;
    if (info != GrB_SUCCESS || !is_newest (r))
    {
        GrB_Vector_free (&r) ;
        return v ;
    }
    GrB_Vector_free (&v) ;
    newest_made++ ;
    return r ;
}

// a vector of type t in one of 5 states: empty, sparse, dense, full (a host
// vector) or device newest (from a dense one)
static GrB_Vector make_vector (int t, GrB_Index n, int state, uint64_t *st)
{
    static const double density [5] = { 0, 0.1, 0.6, 1.0, 0.6 } ;
    GrB_Vector v = gcu_test_random_vector (TY [t], n, density [state], st) ;
    if (state == 3) GxB_Vector_Option_set (v, GxB_SPARSITY_CONTROL, GxB_FULL) ;
    if (state == 4) v = make_newest (v, t, n) ;
    return v ;
}

// a scalar: mostly a small integer; for the float forms sometimes a value
// whose cast to w's type is special
static scal make_scalar (int t, uint64_t *st)
{
    static const double special [] = { NAN, INFINITY, -INFINITY, -0.0, 1e300, -1e300,
        300.7, -129.5, 4294967296.5, 9.3e18, -2.5, 0.5 } ;
    scal x = { (double) (int) (gcu_rand (st) % 9) - 2, 0 } ;
    if ((t == FP32_ || t == FP64_ || t == FC64_) && gcu_rand (st) % 3 == 0)
        x.re = special [gcu_rand (st) % (sizeof (special) / sizeof (special [0]))] ;
    if (t == FC64_ && gcu_rand (st) % 2) x.im = (double) (int) (gcu_rand (st) % 5) - 2 ;
    if (t == UINT16_ || t == UINT64_) x.re = fabs (x.re) ;
    return x ;
}

// an accum of w's type (or, one in four, of FP64 or INT32), or none
static GrB_BinaryOp make_accum (int tw, uint64_t *st, char *name, size_t size)
{
    static const char *ops [] = { "PLUS", "MIN", "MAX", "FIRST", "SECOND", "TIMES", "MINUS" } ;
    if (gcu_rand (st) % 2 == 0) { snprintf (name, size, "none") ; return NULL ; }
    int t = tw ;
    if (gcu_rand (st) % 4 == 0) t = (gcu_rand (st) % 2) ? FP64_ : INT32_ ;
    const char *op = ops [gcu_rand (st) % (sizeof (ops) / sizeof (ops [0]))] ;
    if (t == BOOL_) op = (gcu_rand (st) % 2) ? "LOR" : "LAND" ;
    if (t == FC64_ && (!strcmp (op, "MIN") || !strcmp (op, "MAX"))) op = "PLUS" ;
    snprintf (name, size, "GrB_%s_%s", op, TN [t]) ;
    GrB_BinaryOp a = (GrB_BinaryOp) global (name) ;
    if (a == NULL)
    {
        snprintf (name, size, "GxB_%s_%s", op, TN [t]) ;
        a = (GrB_BinaryOp) global (name) ;
    }
    return a ;
}

//------------------------------------------------------------------------------
// one case
//------------------------------------------------------------------------------

static bool self_test = false ;
static int cases_run = 0, cases_gpu = 0, cases_eligible = 0, perturbed = 0, caught = 0 ;
static int cases_scalar = 0, cases_newest_in = 0, cases_list = 0 ;

// w: an entry removed, added or changed (the self-test)
static void perturb (GrB_Vector w, GrB_Index n, uint64_t *st)
{
    GrB_Index i = gcu_rand (st) % n, nv = 0 ;
    int32_t x = 0 ;
    GrB_Vector_nvals (&nv, w) ;
    GrB_Info has = GrB_Vector_extractElement_INT32 (&x, w, i) ;
    if (has == GrB_SUCCESS && gcu_rand (st) % 2) GrB_Vector_removeElement (w, i) ;
    else GrB_Vector_setElement_INT32 (w, has == GrB_SUCCESS ? (x == 1 ? 0 : 1) : 1, i) ;
    GrB_Vector_wait (w, GrB_MATERIALIZE) ;
    perturbed++ ;
}

static const GrB_Descriptor *descs [8] = { NULL, &GrB_DESC_C, &GrB_DESC_S, &GrB_DESC_SC,
    &GrB_DESC_R, &GrB_DESC_RC, &GrB_DESC_RS, &GrB_DESC_RSC } ;

static void run_case (int k, uint64_t seed)
{
    static const GrB_Index lengths [4] = { 1, 7, 1000, 50000 } ;
    uint64_t s = seed ^ (0x9E3779B97F4A7C15ull * (uint64_t) (k + 1)), *st = &s ;
    const GrB_Index n = lengths [gcu_rand (st) % 4] ;
    const int tw = (int) (gcu_rand (st) % NT), tu = (int) (gcu_rand (st) % NT) ;
    const bool scalar = gcu_rand (st) % 2 ;
    const int wstate = (int) (gcu_rand (st) % 5), ustate = 1 + (int) (gcu_rand (st) % 4) ;
    const int mkind = (int) (gcu_rand (st) % 6) ;     // none, host, host bool, newest, u, w
    const int di = (int) (gcu_rand (st) % 8) ;
    const GrB_Descriptor desc = descs [di] ? *descs [di] : NULL ;
    char accname [64] ;
    GrB_BinaryOp accum = make_accum (tw, st, accname, sizeof (accname)) ;
    const scal x = make_scalar (tu, st) ;
    const bool list = gcu_rand (st) % 10 == 0 ;
    GrB_Index *I = NULL, ni = n ;
    if (list)
    {
        ni = 1 + gcu_rand (st) % n ;
        I = malloc (ni * sizeof (GrB_Index)) ;
        for (GrB_Index p = 0 ; p < ni ; p++) I [p] = gcu_rand (st) % n ;
    }
    const GrB_Index *Iuse = list ? I : GrB_ALL ;

    GrB_Vector w = make_vector (tw, n, wstate, st) ;
    // u is w itself one case in eight of the vector form
    const bool u_is_w = !scalar && !list && gcu_rand (st) % 8 == 0 ;
    GrB_Vector u = scalar ? NULL : u_is_w ? w : make_vector (tu, list ? ni : n, list ? 2 : ustate, st) ;
    GrB_Vector M = NULL ;
    if (mkind == 1 || mkind == 2 || mkind == 3)
        M = make_vector (mkind == 2 ? BOOL_ : (int) (gcu_rand (st) % FC64_), n, mkind == 3 ? 4 : 2, st) ;
    const bool m_is_u = mkind == 4 && u != NULL && !list, m_is_w = mkind == 5 ;
    if (m_is_u) M = u ;
    if (m_is_w) M = w ;
    cases_newest_in += is_newest (w) || (u != NULL && is_newest (u)) || (M != NULL && is_newest (M)) ;

    // the oracle's copies (a dup reads the device value: materialized)
    GrB_Vector w2 = NULL, u2 = NULL, M2 = NULL, u0 = NULL, M0 = NULL ;
    OK (GrB_Vector_dup (&w2, w)) ;
    if (u != NULL && !u_is_w) { OK (GrB_Vector_dup (&u2, u)) ; OK (GrB_Vector_dup (&u0, u)) ; }
    if (u_is_w) u2 = w2 ;
    if (M != NULL && !m_is_u && !m_is_w) { OK (GrB_Vector_dup (&M2, M)) ; OK (GrB_Vector_dup (&M0, M)) ; }
    if (m_is_u) M2 = u2 ;
    if (m_is_w) M2 = w2 ;

    const uint64_t g0 = gpu_calls () ;
    GrB_Info i1, i2 ;
    if (scalar)
    {
        i1 = assign_scalar (our_assign_s [tu], tu, w, M, accum, x, Iuse, ni, desc) ;
        i2 = assign_scalar (real_assign_s [tu], tu, w2, M2, accum, x, Iuse, ni, desc) ;
    }
    else
    {
        i1 = GrB_Vector_assign (w, M, accum, u, Iuse, ni, desc) ;
        i2 = real_assign_v (w2, M2, accum, u2, Iuse, ni, desc) ;
    }
    const bool on_gpu = gpu_calls () > g0 ;
    const bool eligible = !list && !(M == NULL && (di == 1 || di == 3 || di == 5 || di == 7)) ;
    cases_run++ ;
    cases_scalar += scalar ;
    cases_list += list ;
    cases_eligible += eligible ;
    cases_gpu += on_gpu ;
    char what [256] ;
    snprintf (what, sizeof (what), "case %d (n %llu, w %s state %d, %s %s%s, mask %d desc %d, "
        "accum %s%s)", k, (unsigned long long) n, TN [tw], wstate, scalar ? "x" : "u", TN [tu],
        scalar ? "" : u_is_w ? " = w" : (ustate == 4 ? " newest" : ""), mkind, di, accname,
        list ? ", index list" : "") ;
    CHECK (i1 == i2, "%s: info %d, SuiteSparse %d", what, (int) i1, (int) i2) ;
    CHECK (!eligible || on_gpu || !grbcuda_gpu_available () || self_test,
        "%s ran on the GPU", what) ;
    if (on_gpu) CHECK (is_newest (w), "%s left w device newest", what) ;
    if (self_test) perturb (w, n, st) ;
    const bool same = gcu_test_vector_equal (w, w2, 0, false, what) ;
    if (self_test) caught += !same ;
    else CHECK (same, "%s: w as SuiteSparse's", what) ;
    if (u0 != NULL) CHECK (gcu_test_vector_equal (u, u0, 0, false, "u unchanged"), "%s: u unchanged", what) ;
    if (M0 != NULL) CHECK (gcu_test_vector_equal (M, M0, 0, false, "mask unchanged"), "%s: mask unchanged", what) ;

    if (!m_is_u && !m_is_w) { GrB_Vector_free (&M) ; GrB_Vector_free (&M2) ; }
    if (!u_is_w) { GrB_Vector_free (&u) ; GrB_Vector_free (&u2) ; }
    GrB_Vector_free (&w) ; GrB_Vector_free (&w2) ;
    GrB_Vector_free (&u0) ;
    GrB_Vector_free (&M0) ;
    free (I) ;
}

int main (int argc, char **argv)
{
    int ncases = 400, only = -1 ;
    uint64_t seed = 0xA5516E0ull ;
    bool no_gpu_ok = false ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (!strcmp (argv [a], "--cases") && a + 1 < argc) ncases = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--case") && a + 1 < argc) only = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--seed") && a + 1 < argc) seed = strtoull (argv [++a], NULL, 0) ;
        else if (!strcmp (argv [a], "--no-gpu")) no_gpu_ok = true ;
        else if (!strcmp (argv [a], "--self-test")) self_test = no_gpu_ok = true ;
        else { fprintf (stderr, "unknown option %s\n", argv [a]) ; return 2 ; }
    }
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!grbcuda_gpu_available () && !no_gpu_ok)
    {
        printf ("SKIP: no usable GPU; %s needs one\n", TEST_NAME) ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    const GrB_Type t [NT] = { GrB_BOOL, GrB_INT8, GrB_INT32, GrB_INT64, GrB_UINT16,
        GrB_UINT64, GrB_FP32, GrB_FP64, GxB_FC64 } ;
    memcpy (TY, t, sizeof (t)) ;
    real_assign_v = (assign_v_t) gcu_test_real ("GrB_Vector_assign") ;
    CHECK (real_assign_v != NULL && (void *) real_assign_v != (void *) GrB_Vector_assign,
        "SuiteSparse's GrB_Vector_assign, not the interposed one") ;
    for (int k = 0 ; k < NT ; k++)
    {
        char name [64] ;
        scalar_fn_name (k, name, sizeof (name)) ;
        real_assign_s [k] = gcu_test_real (name) ;
        our_assign_s [k] = dlsym (RTLD_DEFAULT, name) ;
        CHECK (real_assign_s [k] != NULL && our_assign_s [k] != NULL
            && real_assign_s [k] != our_assign_s [k], "%s: SuiteSparse's and grbcuda's", name) ;
    }
    if (gcu_test_failed > 0) { GrB_finalize () ; return gcu_test_report (TEST_NAME) ; }
    gcu_test_types_init () ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    OK (grbcuda_set_keep_results (true)) ;
    printf ("%s: seed 0x%llx, %d cases%s\n", TEST_NAME, (unsigned long long) seed,
        only >= 0 ? 1 : ncases, self_test ? " (self-test)" : "") ;
    for (int k = 0 ; k < ncases ; k++)
        if (only < 0 || k == only) run_case (k, seed) ;
    printf ("%s: %d cases (%d scalar, %d with an index list), %d eligible, %d on the GPU, "
        "%d with a device-newest operand (%d made)\n", TEST_NAME, cases_run, cases_scalar,
        cases_list, cases_eligible, cases_gpu, cases_newest_in, newest_made) ;
    if (self_test)
    {
        printf ("%s self-test: %d of %d perturbed results caught\n", TEST_NAME, caught, perturbed) ;
        CHECK (perturbed > 0 && caught == perturbed, "every perturbation caught (%d of %d)", caught, perturbed) ;
    }
    else if (grbcuda_gpu_available () && only < 0)
    {
        CHECK (cases_gpu > 0 && newest_made > 0, "cases on the GPU (%d), device-newest operands (%d)",
            cases_gpu, newest_made) ;
    }
    gcu_residency_clear_all () ;
    GrB_finalize () ;
    return gcu_test_report (TEST_NAME) ;
}
