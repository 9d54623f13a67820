// GRBCUDA_TEST_INTERNAL (calls internal gcu_* functions: links grbcuda_static)
// test_semiring_semantics.c — the device code of every built-in operator and
// every typecast gives SuiteSparse's answers, checked on the CPU.
//
// The device headers (cuda/common) are also valid host C++17. This test takes
// the exact text the JIT generates for each operator of the semiring table
// (the SR struct of a semiring with that multiply), adds the 169 typecasts,
// compiles it all with the host C++ compiler into a shared object, and
// compares each result, on a grid of awkward inputs (0, -0, extremes, NaN,
// Inf, shift counts out of range, INT_MIN / -1, ...), with SuiteSparse
// computing the same operator (GrB_Vector_eWiseMult) or cast
// (GrB_Vector_apply with an IDENTITY operator). Exact for everything but the
// transcendental functions (pow, atan2, hypot, complex pow), where host and
// device libraries may differ in the last bits: those compare to a relative
// tolerance, with NaN matching NaN and infinities matching exactly.
//
// Every built-in monoid, likewise: a fold of 1-3 samples from the kernels'
// starting value (SR::identity) gives what SuiteSparse's product gives for
// the same terms (GrB_mxv over MONOID.FIRST, one row a sequence): an all-NaN
// MIN is NaN, not the identity +Inf. Zeros compare equal whatever their sign:
// SuiteSparse's sum of -0 terms is -0 where it starts from the first term
// (its sparse methods) and +0 where it starts from 0 (this full one). ANY is
// not a fold (the kernels stop at the first term). Complex
// TIMES monoids, which have no such starting value, must be declined by the
// JIT.
//
// Positional operators are not value operators (eWiseMult gives them other
// indices than a product does); the GPU suite checks them through GrB_mxm.
// Skipped (77) without a C++ compiler (c++, or $CXX).
#include "gcu_test.h"
#include "gcu_test_cxx.h"
#include "../../src/jit/gcu_jit.h"
#include "../../src/jit/gcu_jit_internal.h"
#include "../../src/util/gcu_util.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXS 40             // samples per type
typedef void (*eval_f) (const void *x, const void *y, void *z) ;

typedef struct { uint8_t v [16] ; } value16 ;
static value16 samples [GCU_NTYPES][MAXS] ;
static int nsamples [GCU_NTYPES] ;

static void put (int t, const void *p)
{
    memcpy (samples [t][nsamples [t]++].v, p, gcu_types [t].size) ;
}

static void make_samples (void)
{
    bool b [2] = { false, true } ;
    for (int k = 0 ; k < 2 ; k++) put (GCU_T_BOOL, &b [k]) ;
    // integers: small values, shift counts around every width, extremes
    const int64_t si [] = { 0, 1, -1, 2, -2, 3, 5, 7, -7, 8, 9, 15, 16, 17,
        31, 32, 33, 63, 64, 65, -8, -9, -16, -33, -64, -65, 100, -100 } ;
    for (int t = GCU_T_INT8 ; t <= GCU_T_UINT64 ; t++)
    {
        int bytes = gcu_types [t].bits / 8 ;
        bool is_signed = gcu_types [t].tclass == GCU_CLASS_INT ;
        for (size_t k = 0 ; k < sizeof (si) / sizeof (si [0]) ; k++)
        {
            int64_t v = si [k] ;
            if (!is_signed && v < 0) continue ;
            put (t, &v) ;       // little-endian: the low bytes
        }
        uint64_t lo = is_signed ? (UINT64_C (1) << (8 * bytes - 1)) : 0 ;
        uint64_t hi = is_signed ? lo - 1 : (bytes == 8 ? UINT64_MAX : (UINT64_C (1) << (8 * bytes)) - 1) ;
        uint64_t ex [4] = { lo, hi, lo + 1, hi - 1 } ;
        for (int k = 0 ; k < 4 ; k++) put (t, &ex [k]) ;
    }
    const double sd [] = { 0.0, -0.0, 1, -1, 0.5, -2.5, 3, 2, 7.25, 1e30, -1e30,
        INFINITY, -INFINITY, NAN, 2147483648.0, -2147483649.0, 1e-310, 300,
        -0.75, 1e300, 9.5e18, 2e19, 255.5, -128.5, 65535.9 } ;
    for (size_t k = 0 ; k < sizeof (sd) / sizeof (sd [0]) ; k++)
    {
        float f = (float) sd [k] ;
        put (GCU_T_FP32, &f) ;
        put (GCU_T_FP64, &sd [k]) ;
    }
    const double sc [][2] = { {0,0}, {1,0}, {0,1}, {-1,2}, {2,-3}, {0.5,0.25},
        {INFINITY,0}, {0,INFINITY}, {NAN,0}, {1e300,1}, {-0.0,0}, {3,0}, {-2,0},
        {INFINITY,INFINITY}, {-INFINITY,1}, {1e-300,-1e-300} } ;
    for (size_t k = 0 ; k < sizeof (sc) / sizeof (sc [0]) ; k++)
    {
        float f [2] = { (float) sc [k][0], (float) sc [k][1] } ;
        put (GCU_T_FC32, f) ;
        put (GCU_T_FC64, sc [k]) ;
    }
}

//------------------------------------------------------------------------------
// SuiteSparse as the oracle
//------------------------------------------------------------------------------

static GrB_Vector full_vector (int t, int n, const uint8_t *vals)
{
    GrB_Vector v = NULL ;
    size_t s = gcu_types [t].size ;
    OK (GrB_Vector_new (&v, *gcu_types [t].handle, n)) ;
    void *x = malloc (n * s) ;
    memcpy (x, vals, n * s) ;
    OK (GxB_Vector_pack_Full (v, &x, n * s, false, NULL)) ;
    return v ;
}

// the n values of a full vector (expanding an iso one)
static uint8_t *full_values (GrB_Vector v, int t, int n)
{
    void *x = NULL ;
    GrB_Index size = 0 ;
    bool iso = false ;
    size_t s = gcu_types [t].size ;
    OK (GxB_Vector_unpack_Full (v, &x, &size, &iso, NULL)) ;
    uint8_t *out = malloc (n * s) ;
    for (int k = 0 ; k < n ; k++) memcpy (out + k * s, (uint8_t *) x + (iso ? 0 : k * s), s) ;
    free (x) ;
    return out ;
}

//------------------------------------------------------------------------------
// comparison
//------------------------------------------------------------------------------

static bool close_real (double a, double b, double tol)
{
    if (isnan (a) || isnan (b)) return isnan (a) && isnan (b) ;
    if (isinf (a) || isinf (b)) return a == b ;
    if (a == b) return true ;
    return fabs (a - b) <= tol * fmax (fabs (a), fabs (b)) || fabs (a - b) < 1e-300 ;
}

// exact: bitwise, except that any NaN equals any NaN
static bool same_value (int t, const uint8_t *a, const uint8_t *b, double tol)
{
    switch (gcu_types [t].tclass)
    {
        case GCU_CLASS_FLOAT:
            if (t == GCU_T_FP32)
            {
                float x, y ; memcpy (&x, a, 4) ; memcpy (&y, b, 4) ;
                if (tol > 0) return close_real (x, y, tol) ;
                return (isnan (x) && isnan (y)) || memcmp (a, b, 4) == 0 ;
            }
            else
            {
                double x, y ; memcpy (&x, a, 8) ; memcpy (&y, b, 8) ;
                if (tol > 0) return close_real (x, y, tol) ;
                return (isnan (x) && isnan (y)) || memcmp (a, b, 8) == 0 ;
            }
        case GCU_CLASS_COMPLEX:
        {
            int h = (t == GCU_T_FC32) ? GCU_T_FP32 : GCU_T_FP64 ;
            size_t s = gcu_types [h].size ;
            return same_value (h, a, b, tol) && same_value (h, a + s, b + s, tol) ;
        }
        default:
            return memcmp (a, b, gcu_types [t].size) == 0 ;
    }
}

static void show (char *buf, size_t size, int t, const uint8_t *p)
{
    switch (gcu_types [t].tclass)
    {
        case GCU_CLASS_BOOL: snprintf (buf, size, "%d", p [0]) ; break ;
        case GCU_CLASS_INT: { int64_t v = 0 ; memcpy (&v, p, gcu_types [t].size) ;
            int sh = 64 - gcu_types [t].bits ; v = (int64_t) ((uint64_t) v << sh) >> sh ;
            snprintf (buf, size, "%lld", (long long) v) ; break ; }
        case GCU_CLASS_UINT: { uint64_t v = 0 ; memcpy (&v, p, gcu_types [t].size) ;
            snprintf (buf, size, "%llu", (unsigned long long) v) ; break ; }
        case GCU_CLASS_FLOAT: if (t == GCU_T_FP32) { float f ; memcpy (&f, p, 4) ; snprintf (buf, size, "%.9g", f) ; }
            else { double d ; memcpy (&d, p, 8) ; snprintf (buf, size, "%.17g", d) ; } break ;
        default: if (t == GCU_T_FC32) { float f [2] ; memcpy (f, p, 8) ; snprintf (buf, size, "(%.9g,%.9g)", f [0], f [1]) ; }
            else { double d [2] ; memcpy (d, p, 16) ; snprintf (buf, size, "(%.17g,%.17g)", d [0], d [1]) ; } break ;
    }
}

// operators whose host and device math libraries may differ in the last bits
static double tolerance (gcu_opcode op, int ztype)
{
    bool transcendental = (op == GCU_OP_POW || op == GCU_OP_ATAN2 || op == GCU_OP_HYPOT) ;
    if (!transcendental) return 0 ;
    if (ztype == GCU_T_FP32 || ztype == GCU_T_FC32) return 1e-5 ;
    if (ztype == GCU_T_FP64 || ztype == GCU_T_FC64) return 1e-12 ;
    return 0 ;      // integer pow: exact after the cast
}

//------------------------------------------------------------------------------

static GrB_Monoid plus_monoid (gcu_type_code z)
{
    if (z == GCU_T_BOOL) return GrB_LOR_MONOID_BOOL ;
    for (size_t k = 0 ; k < gcu_nmonoids ; k++)
    {
        if (gcu_monoids [k].op == GCU_OP_PLUS && gcu_monoids [k].type == z) return *gcu_monoids [k].handle ;
    }
    return NULL ;
}

static GrB_UnaryOp identity_op (int t)
{
    GrB_UnaryOp ops [GCU_NTYPES] = { GrB_IDENTITY_BOOL, GrB_IDENTITY_INT8,
        GrB_IDENTITY_INT16, GrB_IDENTITY_INT32, GrB_IDENTITY_INT64,
        GrB_IDENTITY_UINT8, GrB_IDENTITY_UINT16, GrB_IDENTITY_UINT32,
        GrB_IDENTITY_UINT64, GrB_IDENTITY_FP32, GrB_IDENTITY_FP64,
        GxB_IDENTITY_FC32, GxB_IDENTITY_FC64 } ;
    return ops [t] ;
}

//------------------------------------------------------------------------------
// monoids: where the kernels' accumulators start
//------------------------------------------------------------------------------

static GrB_BinaryOp first_op (gcu_type_code t)
{
    for (size_t k = 0 ; k < gcu_nbinops ; k++)
    {
        if (gcu_binops [k].op == GCU_OP_FIRST && gcu_binops [k].type == t) return *gcu_binops [k].handle ;
    }
    return NULL ;
}

static bool monoid_declined (const gcu_monoid_entry *m)
{
    return m->op == GCU_OP_TIMES && (m->type == GCU_T_FC32 || m->type == GCU_T_FC64) ;
}

// fold_mon<k> (x, n, z): z = the fold of x [0..n-1] from SR::identity, as
// the kernels accumulate, for the monoid gcu_monoids [k] (MONOID.FIRST_T)
static void monoid_fold_code (gcu_str *s, size_t k)
{
    const gcu_monoid_entry *m = &gcu_monoids [k] ;
    GrB_Semiring sr = NULL ;
    OK (GrB_Semiring_new (&sr, *m->handle, first_op (m->type))) ;
    gcu_semiring_desc d ;
    gcu_jit_operands ops ;
    memset (&ops, 0, sizeof (ops)) ;
    OK (gcu_semiring_identify (sr, &d)) ;
    GrB_Semiring_free (&sr) ;
    ops.a = d.mult.x ; ops.b = d.mult.y ; ops.c = d.mult.z ; ops.mask_type = -1 ;
    gcu_str t ;
    gcu_str_init (&t) ;
    GrB_Info info = gcu_codegen_semiring (&t, &d, &ops) ;
    char *text = gcu_str_take (&t) ;
    if (monoid_declined (m))
    {
        CHECK (info == GCU_NOT_HANDLED, "%s: the JIT must decline it (%d)", m->name, (int) info) ;
    }
    else
    {
        CHECK (info == GrB_SUCCESS && text != NULL, "%s: codegen %d", m->name, (int) info) ;
        gcu_str_addf (s, "namespace mon%zu {\n%s}\nextern \"C\" void fold_mon%zu (const void *x, int n, void *z)\n"
            "{ typedef mon%zu::SR::Z Z ; Z acc = mon%zu::SR::identity () ;\n"
            "  for (int p = 0 ; p < n ; p++) { Z v ; memcpy (&v, (const char *) x + p * sizeof (Z), sizeof v) ;\n"
            "    acc = mon%zu::SR::add (acc, v) ; }\n  memcpy (z, &acc, sizeof acc) ; }\n",
            k, text ? text : "", k, k, k, k) ;
    }
    free (text) ;
}

typedef void (*fold_f) (const void *x, int n, void *z) ;

// every sequence of len samples of type t (len 3: of the first 6 samples and
// the specials, for floating point), as the rows of a full matrix
static int sequences (int t, int len, uint8_t **rows)
{
    int pick [12], np = 0 ;
    for (int a = 0 ; a < nsamples [t] && a < 6 ; a++) pick [np++] = a ;
    // NaN, +-Inf (make_samples puts them at 11-13 for FP32/FP64, 6-8 complex)
    const int cls = gcu_types [t].tclass ;
    if (cls == GCU_CLASS_FLOAT) { pick [np++] = 11 ; pick [np++] = 12 ; pick [np++] = 13 ; }
    if (cls == GCU_CLASS_COMPLEX) { pick [np++] = 6 ; pick [np++] = 8 ; pick [np++] = 10 ; }
    const int n = (len < 3) ? nsamples [t] : np ;
    int nrows = 1 ;
    for (int q = 0 ; q < len ; q++) nrows *= n ;
    const size_t ts = gcu_types [t].size ;
    *rows = malloc ((size_t) nrows * len * ts) ;
    for (int r = 0 ; r < nrows ; r++)
    {
        for (int q = 0, rr = r ; q < len ; q++, rr /= n)
        {
            const int a = (len < 3) ? rr % n : pick [rr % n] ;
            memcpy (*rows + ((size_t) r * len + q) * ts, samples [t][a].v, ts) ;
        }
    }
    return nrows ;
}

// equal values, or two zeros (of either sign, in each part)
static bool same_or_zeros (int t, const uint8_t *a, const uint8_t *b)
{
    if (same_value (t, a, b, 0)) return true ;
    const int cls = gcu_types [t].tclass ;
    if (cls != GCU_CLASS_FLOAT && cls != GCU_CLASS_COMPLEX) return false ;
    const bool f32 = (t == GCU_T_FP32 || t == GCU_T_FC32) ;
    const size_t part = f32 ? 4 : 8 ;
    for (size_t q = 0 ; q < gcu_types [t].size ; q += part)
    {
        double x, y ;
        if (f32) { float fx, fy ; memcpy (&fx, a + q, 4) ; memcpy (&fy, b + q, 4) ; x = fx ; y = fy ; }
        else { memcpy (&x, a + q, 8) ; memcpy (&y, b + q, 8) ; }
        if (!(x == y || (isnan (x) && isnan (y)))) return false ;
    }
    return true ;
}

static void monoid_fold_check (void *h, size_t k)
{
    const gcu_monoid_entry *m = &gcu_monoids [k] ;
    if (monoid_declined (m) || m->op == GCU_OP_ANY) return ;
    char fname [64] ;
    snprintf (fname, sizeof (fname), "fold_mon%zu", k) ;
    fold_f fn = (fold_f) dlsym (h, fname) ;
    CHECK (fn != NULL, "%s missing", fname) ;
    if (fn == NULL) return ;
    const int t = m->type ;
    const size_t ts = gcu_types [t].size ;
    GrB_Semiring sr = NULL ;
    OK (GrB_Semiring_new (&sr, *m->handle, first_op (t))) ;
    int bad = 0, total = 0 ;
    for (int len = 1 ; len <= 3 ; len++)
    {
        uint8_t *X = NULL ;
        const int nrows = sequences (t, len, &X) ;
        // SuiteSparse: w = A*u over MONOID.FIRST_T, row r of A the r-th sequence
        GrB_Matrix A = NULL ;
        GrB_Vector u = NULL, w = NULL ;
        OK (GrB_Matrix_new (&A, *gcu_types [t].handle, nrows, len)) ;
        void *ax = malloc ((size_t) nrows * len * ts) ;
        memcpy (ax, X, (size_t) nrows * len * ts) ;
        OK (GxB_Matrix_pack_FullR (A, &ax, (GrB_Index) nrows * len * ts, false, NULL)) ;
        u = full_vector (t, len, X) ;
        OK (GrB_Vector_new (&w, *gcu_types [t].handle, nrows)) ;
        OK (GrB_mxv (w, NULL, NULL, sr, A, u, NULL)) ;
        uint8_t *W = full_values (w, t, nrows), Z [16] ;
        for (int r = 0 ; r < nrows ; r++, total++)
        {
            fn (X + (size_t) r * len * ts, len, Z) ;
            if (!same_or_zeros (t, Z, W + r * ts) && bad++ < 3)
            {
                char sz [80], sw [80], s0 [80] ;
                show (sz, 80, t, Z) ; show (sw, 80, t, W + r * ts) ; show (s0, 80, t, X + (size_t) r * len * ts) ;
                fprintf (stderr, "  %s over %d terms from %s: device fold %s, SuiteSparse %s\n",
                    m->name, len, s0, sz, sw) ;
            }
        }
        GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ; GrB_Vector_free (&w) ;
        free (X) ; free (W) ;
    }
    CHECK (bad == 0, "%s: %d of %d folds differ from SuiteSparse", m->name, bad, total) ;
    GrB_Semiring_free (&sr) ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    gcu_test_cxx x ;
    if (!gcu_test_cxx_find (&x))
    {
        printf ("test_semiring_semantics: no C++ compiler (%s): skipped\n", x.cxx) ;
        return GCU_TEST_SKIP ;
    }
    if (!gcu_test_cxx_setup (&x, "sem"))
    {
        fprintf (stderr, "cannot write the kernel sources to %s\n", x.dir) ;
        return 1 ;
    }
    make_samples () ;

    // the generated code: one evaluator per operator row and per cast
    gcu_str s ;
    gcu_str_init (&s) ;
    gcu_str_add (&s, "#include \"common/gcu_semiring.cuh\"\n") ;
    int nops = 0 ;
    int *op_row = malloc (gcu_nbinops * sizeof (int)) ;
    for (size_t k = 0 ; k < gcu_nbinops ; k++)
    {
        const gcu_binop_entry *e = &gcu_binops [k] ;
        if (gcu_ops [e->op].flags & GCU_OPF_POSITIONAL) continue ;
        gcu_type_code z = gcu_op_ztype (e->op, e->type) ;
        GrB_Semiring sr = NULL ;
        OK (GrB_Semiring_new (&sr, plus_monoid (z), *e->handle)) ;
        gcu_semiring_desc d ;
        gcu_jit_operands ops ;
        memset (&ops, 0, sizeof (ops)) ;
        OK (gcu_semiring_identify (sr, &d)) ;
        ops.a = d.mult.x ; ops.b = d.mult.y ; ops.c = d.mult.z ; ops.mask_type = -1 ;
        gcu_str_addf (&s, "namespace op%zu {\n", k) ;
        OK (gcu_codegen_semiring (&s, &d, &ops)) ;
        gcu_str_addf (&s, "}\nextern \"C\" void eval_op%zu (const void *x, const void *y, void *z)\n"
            "{ op%zu::SR::X a ; op%zu::SR::Y b ; memcpy (&a, x, sizeof a) ; memcpy (&b, y, sizeof b) ;\n"
            "  op%zu::SR::Z c = op%zu::SR::mult (a, b, 0, 0, 0) ; memcpy (z, &c, sizeof c) ; }\n",
            k, k, k, k, k) ;
        GrB_Semiring_free (&sr) ;
        op_row [nops++] = (int) k ;
    }
    for (size_t k = 0 ; k < gcu_nmonoids ; k++) monoid_fold_code (&s, k) ;
    for (int zt = 0 ; zt < GCU_NTYPES ; zt++)
    {
        for (int xt = 0 ; xt < GCU_NTYPES ; xt++)
        {
            gcu_str_addf (&s, "extern \"C\" void eval_cast_%d_%d (const void *x, const void *, void *z)\n"
                "{ %s a ; memcpy (&a, x, sizeof a) ; %s c = gcu_cast<%s> (a) ; memcpy (z, &c, sizeof c) ; }\n",
                zt, xt, gcu_types [xt].cuda, gcu_types [zt].cuda, gcu_types [zt].cuda) ;
        }
    }
    char *code = gcu_str_take (&s) ;
    double t0 = gcu_now () ;
    int rc = gcu_test_cxx_build (&x, "eval", code, "") ;
    free (code) ;
    CHECK (rc == 0, "host compile of the device code failed: %s", x.cmd) ;
    if (rc != 0) return gcu_test_report ("test_semiring_semantics") ;
    printf ("host C++ build of %d operators + 169 casts: %.1f s\n", nops, gcu_now () - t0) ;
    void *h = dlopen (x.lib, RTLD_NOW | RTLD_LOCAL) ;
    CHECK (h != NULL, "dlopen %s: %s", x.lib, dlerror ()) ;
    if (h == NULL) return gcu_test_report ("test_semiring_semantics") ;

    // operators: all pairs of samples of the x and y types
    for (int q = 0 ; q < nops ; q++)
    {
        const gcu_binop_entry *e = &gcu_binops [op_row [q]] ;
        int xt = e->type, yt = gcu_op_ytype (e->op, e->type), zt = gcu_op_ztype (e->op, e->type) ;
        int n = nsamples [xt] * nsamples [yt] ;
        size_t xs = gcu_types [xt].size, ys = gcu_types [yt].size, zs = gcu_types [zt].size ;
        uint8_t *X = malloc (n * xs), *Y = malloc (n * ys), *Z = malloc (zs) ;
        for (int a = 0, p = 0 ; a < nsamples [xt] ; a++)
        {
            for (int b = 0 ; b < nsamples [yt] ; b++, p++)
            {
                memcpy (X + p * xs, samples [xt][a].v, xs) ;
                memcpy (Y + p * ys, samples [yt][b].v, ys) ;
            }
        }
        GrB_Vector u = full_vector (xt, n, X), v = full_vector (yt, n, Y), w = NULL ;
        OK (GrB_Vector_new (&w, *gcu_types [zt].handle, n)) ;
        OK (GrB_Vector_eWiseMult_BinaryOp (w, NULL, NULL, *e->handle, u, v, NULL)) ;
        uint8_t *W = full_values (w, zt, n) ;
        char fname [64] ;
        snprintf (fname, sizeof (fname), "eval_op%d", op_row [q]) ;
        eval_f fn = (eval_f) dlsym (h, fname) ;
        CHECK (fn != NULL, "%s missing", fname) ;
        int bad = 0 ;
        double tol = tolerance (e->op, zt) ;
        for (int p = 0 ; fn != NULL && p < n ; p++)
        {
            memset (Z, 0, zs) ;
            fn (X + p * xs, Y + p * ys, Z) ;
            if (!same_value (zt, Z, W + p * zs, tol))
            {
                if (bad++ < 3)
                {
                    char sx [80], sy [80], sz [80], sw [80] ;
                    show (sx, 80, xt, X + p * xs) ; show (sy, 80, yt, Y + p * ys) ;
                    show (sz, 80, zt, Z) ; show (sw, 80, zt, W + p * zs) ;
                    fprintf (stderr, "  %s (%s, %s): device code %s, SuiteSparse %s\n",
                        e->name, sx, sy, sz, sw) ;
                }
            }
        }
        CHECK (bad == 0, "%s: %d of %d results differ", e->name, bad, n) ;
        GrB_Vector_free (&u) ; GrB_Vector_free (&v) ; GrB_Vector_free (&w) ;
        free (X) ; free (Y) ; free (Z) ; free (W) ;
    }

    // typecasts: every sample of every type into every type
    for (int zt = 0 ; zt < GCU_NTYPES ; zt++)
    {
        for (int xt = 0 ; xt < GCU_NTYPES ; xt++)
        {
            int n = nsamples [xt] ;
            size_t xs = gcu_types [xt].size, zs = gcu_types [zt].size ;
            uint8_t *X = malloc (n * xs), *Z = malloc (zs) ;
            for (int a = 0 ; a < n ; a++) memcpy (X + a * xs, samples [xt][a].v, xs) ;
            GrB_Vector u = full_vector (xt, n, X), w = NULL ;
            OK (GrB_Vector_new (&w, *gcu_types [zt].handle, n)) ;
            OK (GrB_Vector_apply (w, NULL, NULL, identity_op (zt), u, NULL)) ;
            uint8_t *W = full_values (w, zt, n) ;
            char fname [64] ;
            snprintf (fname, sizeof (fname), "eval_cast_%d_%d", zt, xt) ;
            eval_f fn = (eval_f) dlsym (h, fname) ;
            int bad = 0 ;
            for (int p = 0 ; fn != NULL && p < n ; p++)
            {
                memset (Z, 0, zs) ;
                fn (X + p * xs, NULL, Z) ;
                if (!same_value (zt, Z, W + p * zs, 0) && bad++ < 3)
                {
                    char sx [80], sz [80], sw [80] ;
                    show (sx, 80, xt, X + p * xs) ; show (sz, 80, zt, Z) ; show (sw, 80, zt, W + p * zs) ;
                    fprintf (stderr, "  cast %s -> %s of %s: device code %s, SuiteSparse %s\n",
                        gcu_types [xt].name, gcu_types [zt].name, sx, sz, sw) ;
                }
            }
            CHECK (fn != NULL && bad == 0, "cast %s -> %s: %d of %d differ",
                gcu_types [xt].name, gcu_types [zt].name, bad, n) ;
            GrB_Vector_free (&u) ; GrB_Vector_free (&w) ;
            free (X) ; free (Z) ; free (W) ;
        }
    }
    for (size_t k = 0 ; k < gcu_nmonoids ; k++) monoid_fold_check (h, k) ;
    dlclose (h) ;
    free (op_row) ;
    gcu_test_rmtree (x.dir) ;
    GrB_finalize () ;
    return gcu_test_report ("test_semiring_semantics") ;
}
