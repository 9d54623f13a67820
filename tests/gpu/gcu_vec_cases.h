// gcu_vec_cases.h — what the random GPU tests of the vector families
// (test_assign_gpu.c, test_apply_gpu.c) share: the types drawn, operands in
// every state (empty, sparse, dense, full, device newest), scalars with the
// values whose casts matter, accums, the mask and the oracle's copies of a
// case, the checks after both calls (return code, w as SuiteSparse's, u and
// the mask unchanged, the GPU's run and w left device newest), the
// self-test's perturbation, and main's options. Included by one test file
// each (static definitions); TEST_NAME defined before.
#ifndef GCU_VEC_CASES_H
#define GCU_VEC_CASES_H

#include "gcu_test.h"
#include "grbcuda.h"
#include "residency/gcu_residency.h"
#include <complex.h>
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NT = 9 } ;
enum { BOOL_ = 0, INT8_, INT32_, INT64_, UINT16_, UINT64_, FP32_, FP64_, FC64_ } ;
static GrB_Type TY [NT] ;
static const char *TN [NT] = { "BOOL", "INT8", "INT32", "INT64", "UINT16", "UINT64",
    "FP32", "FP64", "FC64" } ;

// a scalar as a double (real types) or a double complex (FC64)
typedef struct { double re, im ; } scal ;

static void *global (const char *name)
{
    void **p = (void **) dlsym (RTLD_DEFAULT, name) ;
    return p == NULL ? NULL : *p ;
}

static bool is_newest (const void *v)
{
    uint64_t nv ;
    return gcu_residency_newest_nvals (v, &nv) ;
}

//------------------------------------------------------------------------------
// operands
//------------------------------------------------------------------------------

static int newest_made = 0 ;
static int iso_either = 0 ;     // w's status unlike SuiteSparse's where its methods give either

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
static int cases_newest_in = 0 ;

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

// a case's vectors: w, u (NULL for a scalar; w itself at times), the mask
// (NULL, a vector of its own, u or w), the oracle's copies (w2, u2, M2:
// u's and the mask's the copies of w's when they are w) and u's and the
// mask's as they were (u0, M0: to check them unchanged)
typedef struct
{
    GrB_Vector w, u, M, w2, u2, M2, u0, M0 ;
    bool u_is_w, m_is_u, m_is_w ;
}
vec_case ;

// the mask of kind mkind (none, host, host bool, device newest, u, w; u only
// where m_may_be_u), counted where an operand is device newest, then the
// oracle's copies (a dup reads the device value: materialized)
static void vec_case_prepare (vec_case *c, int mkind, bool m_may_be_u, GrB_Index n, uint64_t *st)
{
    c->M = NULL ;
    if (mkind == 1 || mkind == 2 || mkind == 3)
        c->M = make_vector (mkind == 2 ? BOOL_ : (int) (gcu_rand (st) % FC64_), n, mkind == 3 ? 4 : 2, st) ;
    c->m_is_u = mkind == 4 && m_may_be_u ;
    c->m_is_w = mkind == 5 ;
    if (c->m_is_u) c->M = c->u ;
    if (c->m_is_w) c->M = c->w ;
    cases_newest_in += is_newest (c->w) || (c->u != NULL && is_newest (c->u))
        || (c->M != NULL && is_newest (c->M)) ;
    c->w2 = c->u2 = c->M2 = c->u0 = c->M0 = NULL ;
    OK (GrB_Vector_dup (&c->w2, c->w)) ;
    if (c->u != NULL && !c->u_is_w) { OK (GrB_Vector_dup (&c->u2, c->u)) ; OK (GrB_Vector_dup (&c->u0, c->u)) ; }
    if (c->u_is_w) c->u2 = c->w2 ;
    if (c->M != NULL && !c->m_is_u && !c->m_is_w)
    {
        OK (GrB_Vector_dup (&c->M2, c->M)) ;
        OK (GrB_Vector_dup (&c->M0, c->M)) ;
    }
    if (c->m_is_u) c->M2 = c->u2 ;
    if (c->m_is_w) c->M2 = c->w2 ;
}

// after grbcuda's call (i1) and SuiteSparse's (i2): the same return code; a
// call that must run on the GPU did (gpu_due) and left w device newest; w
// as SuiteSparse's (the self-test perturbs w first and counts it caught);
// u and the mask unchanged. Then every vector of the case is freed.
static void vec_case_check (vec_case *c, GrB_Info i1, GrB_Info i2, bool gpu_due, bool on_gpu,
    GrB_Index n, const char *what, uint64_t *st)
{
    CHECK (i1 == i2, "%s: info %d, SuiteSparse %d", what, (int) i1, (int) i2) ;
    CHECK (!gpu_due || on_gpu || !grbcuda_gpu_available () || self_test,
        "%s ran on the GPU", what) ;
    if (on_gpu) CHECK (is_newest (c->w), "%s left w device newest", what) ;
    if (self_test) perturb (c->w, n, st) ;
    const bool same = gcu_test_vector_equal (c->w, c->w2, 0, false, what) ;
    if (self_test) caught += !same ;
    else CHECK (same, "%s: w as SuiteSparse's", what) ;
    // w's iso status as SuiteSparse's (GxB_Vector_iso, an unpack, a mask's
    // reading: observable), but where SuiteSparse's own methods give either
    // (an empty w, or one entry under a mask: tests/cpu/test_iso_call.c)
    bool iso1 = false, iso2 = false ;
    GrB_Index nv = 0 ;
    if (!self_test && same && i1 == GrB_SUCCESS && GxB_Vector_iso (&iso1, c->w) == GrB_SUCCESS
        && GxB_Vector_iso (&iso2, c->w2) == GrB_SUCCESS && GrB_Vector_nvals (&nv, c->w2) == GrB_SUCCESS
        && iso1 != iso2)
    {
        if (nv == 0 || (c->M != NULL && nv == 1)) iso_either++ ;
        else CHECK (false, "%s: w iso %d, SuiteSparse's %d (%llu entries)", what, (int) iso1, (int) iso2,
            (unsigned long long) nv) ;
    }
    if (c->u0 != NULL) CHECK (gcu_test_vector_equal (c->u, c->u0, 0, false, "u unchanged"), "%s: u unchanged", what) ;
    if (c->M0 != NULL) CHECK (gcu_test_vector_equal (c->M, c->M0, 0, false, "mask unchanged"), "%s: mask unchanged", what) ;
    if (!c->m_is_u && !c->m_is_w) { GrB_Vector_free (&c->M) ; GrB_Vector_free (&c->M2) ; }
    if (!c->u_is_w) { GrB_Vector_free (&c->u) ; GrB_Vector_free (&c->u2) ; }
    GrB_Vector_free (&c->w) ; GrB_Vector_free (&c->w2) ;
    GrB_Vector_free (&c->u0) ;
    GrB_Vector_free (&c->M0) ;
}

//------------------------------------------------------------------------------
// main's parts
//------------------------------------------------------------------------------

// the options (--cases N, --case K, --seed S, --no-gpu, --self-test), then
// GrB_init and the types: -1 to go on, else main's return code (a bad
// option; no usable GPU and none of --no-gpu or --self-test: skipped)
static int vec_cases_begin (int argc, char **argv, int *ncases, int *only, uint64_t *seed)
{
    bool no_gpu_ok = false ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (!strcmp (argv [a], "--cases") && a + 1 < argc) *ncases = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--case") && a + 1 < argc) *only = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--seed") && a + 1 < argc) *seed = strtoull (argv [++a], NULL, 0) ;
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
    return -1 ;
}

// the end: the self-test caught every perturbation; with a GPU, a whole run
// had cases on it and device-newest operands
static int vec_cases_end (int only)
{
    if (self_test)
    {
        printf ("%s self-test: %d of %d perturbed results caught\n", TEST_NAME, caught, perturbed) ;
        CHECK (perturbed > 0 && caught == perturbed, "every perturbation caught (%d of %d)", caught, perturbed) ;
    }
    else if (grbcuda_gpu_available () && only < 0)
    {
        printf ("%s: %d results empty or of one entry under a mask of another iso status than "
            "SuiteSparse's (its methods give either; not a failure)\n", TEST_NAME, iso_either) ;
        CHECK (cases_gpu > 0 && newest_made > 0, "cases on the GPU (%d), device-newest operands (%d)",
            cases_gpu, newest_made) ;
    }
    gcu_residency_clear_all () ;
    GrB_finalize () ;
    return gcu_test_report (TEST_NAME) ;
}

#endif
