// GRBCUDA_TEST_INTERNAL
// test_reduce_gpu.c — GrB_Matrix_reduce to a C scalar answered on the device
// for a device-newest matrix (src/api/reduce.c, src/reduce/), against
// SuiteSparse on a host copy:
//  (a) C = A*B left on the device (GrB_mxm in gpu mode), for value types
//      BOOL, INT8, INT32, UINT16, UINT64, FP32, FP64, FC64; then every
//      built-in monoid over C's type, INT64, FP64 and BOOL, each into its
//      own type, INT64 (triangle counting's call) and one more output type
//      (the 13 typed entry points all run), compared with SuiteSparse's
//      GrB_Matrix_reduce_T of R, the same product computed by SuiteSparse.
//      A and B hold small integers, so C and R are equal bit for bit and
//      the comparison is exact but for floating TIMES (rounding order:
//      relative tolerance) and ANY (any value of R, cast as GraphBLAS casts:
//      R assigned to the monoid's type, then to the output's). Each reduce
//      must leave C device newest, with no materialization: the device
//      path ran.
//  (b) the empty matrix: the monoid's identity, cast (MIN over FP64: +inf).
//      Each also into a GrB_Scalar (GrB_Matrix_reduce_Monoid_Scalar): on the
//      device, an empty C clearing it as SuiteSparse does.
//  (c) the host path keeps SuiteSparse's answers and codes: an accum, a
//      monoid the JIT declines (complex TIMES), then c == NULL, each on a
//      fresh device-newest C.
#include "gcu_test.h"
#include "grbcuda.h"
#include "residency/gcu_residency.h"
#include "../../semirings/gcu_semiring.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef GrB_Info (*red_fn) (void *, const GrB_BinaryOp, const GrB_Monoid,
    const GrB_Matrix, const GrB_Descriptor) ;
typedef GrB_Info (*tuples_fn) (GrB_Index *, GrB_Index *, void *, GrB_Index *, const GrB_Matrix) ;
typedef GrB_Info (*mxm_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;

// by gcu_type_code: grbcuda's entry point, SuiteSparse's, extractTuples
static red_fn mine [GCU_NTYPES], real [GCU_NTYPES] ;
static tuples_fn tuples [GCU_NTYPES] ;
static mxm_t real_mxm ;

#define SET(code, prefix, T)                                                    \
    mine [code] = (red_fn) prefix ## _Matrix_reduce_ ## T ;                     \
    real [code] = (red_fn) gcu_test_real (#prefix "_Matrix_reduce_" #T) ;       \
    tuples [code] = (tuples_fn) prefix ## _Matrix_extractTuples_ ## T ;

static void setup (void)
{
    SET (GCU_T_BOOL, GrB, BOOL) SET (GCU_T_INT8, GrB, INT8) SET (GCU_T_INT16, GrB, INT16)
    SET (GCU_T_INT32, GrB, INT32) SET (GCU_T_INT64, GrB, INT64) SET (GCU_T_UINT8, GrB, UINT8)
    SET (GCU_T_UINT16, GrB, UINT16) SET (GCU_T_UINT32, GrB, UINT32) SET (GCU_T_UINT64, GrB, UINT64)
    SET (GCU_T_FP32, GrB, FP32) SET (GCU_T_FP64, GrB, FP64) SET (GCU_T_FC32, GxB, FC32)
    SET (GCU_T_FC64, GxB, FC64)
    real_mxm = (mxm_t) gcu_test_real ("GrB_mxm") ;
}

static uint64_t materializations (void)
{
    gcu_res_stats s ;
    gcu_residency_stats (&s) ;
    return s.materializations ;
}

static GrB_Monoid find_monoid (gcu_opcode op, gcu_type_code t)
{
    for (size_t k = 0 ; k < gcu_nmonoids ; k++)
        if (gcu_monoids [k].op == op && gcu_monoids [k].type == t) return *gcu_monoids [k].handle ;
    return NULL ;
}

static GrB_BinaryOp find_binop (gcu_opcode op, gcu_type_code t)
{
    for (size_t k = 0 ; k < gcu_nbinops ; k++)
        if (gcu_binops [k].op == op && gcu_binops [k].type == t) return *gcu_binops [k].handle ;
    return NULL ;
}

// a value of type t (code) equal to another, within tol for floating point
static bool same (int t, const void *a, const void *b, double tol)
{
    const gcu_type_info *ti = &gcu_types [t] ;
    if (ti->tclass != GCU_CLASS_FLOAT && ti->tclass != GCU_CLASS_COMPLEX)
        return memcmp (a, b, ti->size) == 0 ;
    const int parts = (ti->tclass == GCU_CLASS_COMPLEX) ? 2 : 1 ;
    for (int k = 0 ; k < parts ; k++)
    {
        double x, y ;
        if (t == GCU_T_FP32 || t == GCU_T_FC32) { x = ((const float *) a) [k] ; y = ((const float *) b) [k] ; }
        else { x = ((const double *) a) [k] ; y = ((const double *) b) [k] ; }
        if (isnan (x) || isnan (y)) { if (!(isnan (x) && isnan (y))) return false ; continue ; }
        if (x == y) continue ;
        if (!(fabs (x - y) <= tol * fabs (y))) return false ;
    }
    return true ;
}

static double as_double (int t, const void *v)
{
    switch (t)
    {
        case GCU_T_BOOL: return *(const bool *) v ;
        case GCU_T_INT8: return *(const int8_t *) v ;
        case GCU_T_INT16: return *(const int16_t *) v ;
        case GCU_T_INT32: return *(const int32_t *) v ;
        case GCU_T_INT64: return (double) *(const int64_t *) v ;
        case GCU_T_UINT8: return *(const uint8_t *) v ;
        case GCU_T_UINT16: return *(const uint16_t *) v ;
        case GCU_T_UINT32: return *(const uint32_t *) v ;
        case GCU_T_UINT64: return (double) *(const uint64_t *) v ;
        case GCU_T_FP32: case GCU_T_FC32: return *(const float *) v ;
        default: return *(const double *) v ;
    }
}

// ANY: is v (type tc) R's value of some entry, cast to the monoid's type z,
// then to tc (GrB_Matrix_assign casts as the reduction does)
static bool any_value_of (GrB_Matrix R, int z, int tc, const void *v)
{
    GrB_Index m = 0, n = 0, nv = 0 ;
    GrB_Matrix Rz = NULL, Rt = NULL ;
    OK (GrB_Matrix_nrows (&m, R)) ;
    OK (GrB_Matrix_ncols (&n, R)) ;
    OK (GrB_Matrix_nvals (&nv, R)) ;
    OK (GrB_Matrix_new (&Rz, *gcu_types [z].handle, m, n)) ;
    OK (GrB_Matrix_new (&Rt, *gcu_types [tc].handle, m, n)) ;
    OK (GrB_Matrix_assign (Rz, NULL, NULL, R, GrB_ALL, m, GrB_ALL, n, NULL)) ;
    OK (GrB_Matrix_assign (Rt, NULL, NULL, Rz, GrB_ALL, m, GrB_ALL, n, NULL)) ;
    unsigned char *x = malloc ((nv + 1) * 16) ;
    GrB_Index got = nv ;
    OK (tuples [tc] (NULL, NULL, x, &got, Rt)) ;
    bool found = false ;
    for (GrB_Index k = 0 ; k < got && !found ; k++)
        found = same (tc, v, x + k * gcu_types [tc].size, 0) ;
    free (x) ;
    GrB_Matrix_free (&Rz) ;
    GrB_Matrix_free (&Rt) ;
    return found ;
}

// the same reduction into a GrB_Scalar of type tc: GrB_Matrix_reduce_Monoid_Scalar
// on the device where C has entries (C stays newest), SuiteSparse's empty
// scalar where it has none; compared through SuiteSparse's cast to FP64
static void one_scalar (GrB_Matrix C, GrB_Matrix R, const gcu_monoid_entry *me, int tc,
    const char *what)
{
    GrB_Scalar s1 = NULL, s2 = NULL ;
    OK (GrB_Scalar_new (&s1, *gcu_types [tc].handle)) ;
    OK (GrB_Scalar_new (&s2, *gcu_types [tc].handle)) ;
    // both start with an entry: an empty C must clear it
    OK (GrB_Scalar_setElement_INT32 (s1, 1)) ;
    OK (GrB_Scalar_setElement_INT32 (s2, 1)) ;
    GrB_Index cn = 0 ;
    OK (GrB_Matrix_nvals (&cn, R)) ;
    const uint64_t mat0 = materializations () ;
    GrB_Info i1 = GrB_Matrix_reduce_Monoid_Scalar (s1, NULL, *me->handle, C, NULL) ;
    const bool still = gcu_residency_newest_nvals (C, NULL) ;
    const uint64_t mat1 = materializations () ;
    GrB_Info i2 = GrB_Matrix_reduce_Monoid_Scalar (s2, NULL, *me->handle, R, NULL) ;
    CHECK (i1 == GrB_SUCCESS && i2 == GrB_SUCCESS, "%s, GrB_Scalar: info %d, SuiteSparse %d",
        what, (int) i1, (int) i2) ;
    if (cn > 0)
        CHECK (still && mat1 == mat0, "%s, GrB_Scalar: on the device (C still newest: %d)", what, still) ;
    GrB_Index n1 = 9, n2 = 9 ;
    OK (GrB_Scalar_nvals (&n1, s1)) ;
    OK (GrB_Scalar_nvals (&n2, s2)) ;
    CHECK (n1 == n2 && n1 == (cn > 0), "%s, GrB_Scalar: %llu entries, SuiteSparse %llu", what,
        (unsigned long long) n1, (unsigned long long) n2) ;
    if (n1 == 1 && n2 == 1 && me->op != GCU_OP_ANY)
    {
        double x = 0, y = 0 ;
        OK (GrB_Scalar_extractElement_FP64 (&x, s1)) ;
        OK (GrB_Scalar_extractElement_FP64 (&y, s2)) ;
        const gcu_type_class zc = gcu_types [me->type].tclass ;
        const bool rounds = (zc == GCU_CLASS_FLOAT || zc == GCU_CLASS_COMPLEX) && me->op == GCU_OP_TIMES ;
        CHECK ((x == y) || (isnan (x) && isnan (y)) || (rounds && fabs (x - y) <= 1e-5 * fabs (y)),
            "%s, GrB_Scalar: got %g, SuiteSparse %g", what, x, y) ;
    }
    GrB_Scalar_free (&s1) ;
    GrB_Scalar_free (&s2) ;
}

// one reduction of C (device newest) and of R (its host twin) into type tc
static void one (GrB_Matrix C, GrB_Matrix R, const gcu_monoid_entry *me, int tc,
    const char *cname)
{
    unsigned char x [16], y [16] ;
    memset (x, 0x5a, sizeof (x)) ;
    memset (y, 0x5a, sizeof (y)) ;
    char what [160] ;
    snprintf (what, sizeof (what), "C %s, %s -> %s", cname, me->name, gcu_types [tc].name) ;
    one_scalar (C, R, me, tc, what) ;
    const uint64_t mat0 = materializations () ;
    GrB_Info i1 = mine [tc] (x, NULL, *me->handle, C, NULL) ;
    const bool still = gcu_residency_newest_nvals (C, NULL) ;
    GrB_Info i2 = real [tc] (y, NULL, *me->handle, R, NULL) ;
    CHECK (i1 == GrB_SUCCESS && i2 == GrB_SUCCESS, "%s: info %d, SuiteSparse %d", what, (int) i1, (int) i2) ;
    CHECK (still && materializations () == mat0, "%s: on the device (C still newest: %d)", what, still) ;
    if (me->op == GCU_OP_ANY)
    {
        GrB_Index nv = 0 ;
        OK (GrB_Matrix_nvals (&nv, R)) ;
        CHECK (nv == 0 ? same (tc, x, y, 0) : any_value_of (R, me->type, tc, x),
            "%s: ANY gave %g, not a value of the matrix", what, as_double (tc, x)) ;
        return ;
    }
    const gcu_type_class zc = gcu_types [me->type].tclass ;
    const bool rounds = (zc == GCU_CLASS_FLOAT || zc == GCU_CLASS_COMPLEX) && me->op == GCU_OP_TIMES ;
    CHECK (same (tc, x, y, rounds ? 1e-5 : 0), "%s: got %g, SuiteSparse %g", what,
        as_double (tc, x), as_double (tc, y)) ;
}

// A (m x k) of type t with small integer values (exact products and sums):
// -3..4 (not 0) for integers, 1..4 for floating point (no zeros in C: a
// floating TIMES that meets 0 and an overflow would depend on its order)
static GrB_Matrix small_matrix (int tc, GrB_Index m, GrB_Index k, double d, uint64_t *st)
{
    GrB_Matrix A = NULL ;
    const gcu_type_class cls = gcu_types [tc].tclass ;
    const bool positive = cls == GCU_CLASS_FLOAT || cls == GCU_CLASS_COMPLEX ;
    OK (GrB_Matrix_new (&A, *gcu_types [tc].handle, m, k)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
        for (GrB_Index j = 0 ; j < k ; j++)
        {
            if (gcu_rand01 (st) >= d) continue ;
            int64_t v = positive ? 1 + (int64_t) (gcu_rand (st) % 4) : (int64_t) (gcu_rand (st) % 7) - 3 ;
            OK (GrB_Matrix_setElement_INT64 (A, v == 0 ? 4 : v, i, j)) ;
        }
    return A ;
}

// C = A*B on the device (kept there) and R = A*B by SuiteSparse
static bool product (int t, GrB_Index m, double d, uint64_t *st, GrB_Matrix *C, GrB_Matrix *R)
{
    GrB_Type type = *gcu_types [t].handle ;
    const bool b = t == GCU_T_BOOL ;
    GrB_Semiring s = NULL ;
    OK (GrB_Semiring_new (&s, find_monoid (b ? GCU_OP_LOR : GCU_OP_PLUS, t),
        find_binop (b ? GCU_OP_LAND : GCU_OP_TIMES, t))) ;
    GrB_Matrix A = small_matrix (t, m, 40, d, st), B = small_matrix (t, 40, 50, d, st) ;
    OK (GrB_Matrix_new (C, type, m, 50)) ;
    OK (GrB_Matrix_new (R, type, m, 50)) ;
    OK (GrB_mxm (*C, NULL, NULL, s, A, B, NULL)) ;
    OK (real_mxm (*R, NULL, NULL, s, A, B, NULL)) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Semiring_free (&s) ;
    const bool newest = gcu_residency_newest_nvals (*C, NULL) ;
    CHECK (newest, "C = A*B (%s, %llu rows) left on the device", gcu_types [t].name,
        (unsigned long long) m) ;
    return newest ;
}

static bool declined (const gcu_monoid_entry *me)
{
    return me->op == GCU_OP_TIMES && (me->type == GCU_T_FC32 || me->type == GCU_T_FC64) ;
}

// (a) and (b): every monoid over C's type, INT64, FP64, BOOL
static void test_monoids (int t, GrB_Index m, double d, uint64_t *st)
{
    GrB_Matrix C = NULL, R = NULL ;
    if (product (t, m, d, st, &C, &R))
    {
        int rot = t ;
        for (size_t k = 0 ; k < gcu_nmonoids ; k++)
        {
            const gcu_monoid_entry *me = &gcu_monoids [k] ;
            if (declined (me) || !(me->type == (gcu_type_code) t || me->type == GCU_T_INT64
                || me->type == GCU_T_FP64 || me->type == GCU_T_BOOL)) continue ;
            rot = (rot + 5) % GCU_NTYPES ;
            const int outs [3] = { me->type, GCU_T_INT64, rot } ;
            for (int q = 0 ; q < 3 ; q++) one (C, R, me, outs [q], gcu_types [t].name) ;
        }
    }
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&R) ;
}

// (c) the host path: SuiteSparse's answers and codes
static void test_host_path (uint64_t *st)
{
    GrB_Matrix C = NULL, R = NULL ;
    int64_t x = 3, y = 3 ;
    // an accum: c = c + reduce
    if (product (GCU_T_INT32, 60, 0.1, st, &C, &R))
    {
        GrB_Info i1 = GrB_Matrix_reduce_INT64 (&x, GrB_PLUS_INT64, GrB_PLUS_MONOID_INT32, C, NULL) ;
        GrB_Info i2 = real [GCU_T_INT64] (&y, GrB_PLUS_INT64, GrB_PLUS_MONOID_INT32, R, NULL) ;
        CHECK (i1 == GrB_SUCCESS && i2 == GrB_SUCCESS && x == y, "accum: %lld, SuiteSparse %lld",
            (long long) x, (long long) y) ;
    }
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&R) ;
    // complex TIMES: the JIT declines it
    if (product (GCU_T_FC64, 60, 0.1, st, &C, &R))
    {
        GxB_FC64_t a = 0, b = 0 ;
        GrB_Info i1 = GxB_Matrix_reduce_FC64 (&a, NULL, GxB_TIMES_FC64_MONOID, C, NULL) ;
        GrB_Info i2 = real [GCU_T_FC64] (&b, NULL, GxB_TIMES_FC64_MONOID, R, NULL) ;
        CHECK (i1 == GrB_SUCCESS && i2 == GrB_SUCCESS && same (GCU_T_FC64, &a, &b, 1e-9),
            "TIMES_FC64 on the host") ;
    }
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&R) ;
    // argument errors: SuiteSparse's codes
    if (product (GCU_T_FP64, 60, 0.1, st, &C, &R))
    {
        GrB_Info i1 = GrB_Matrix_reduce_INT64 (NULL, NULL, GrB_PLUS_MONOID_FP64, C, NULL) ;
        GrB_Info i2 = real [GCU_T_INT64] (NULL, NULL, GrB_PLUS_MONOID_FP64, R, NULL) ;
        CHECK (i1 == i2 && i1 == GrB_NULL_POINTER, "c NULL: %d, SuiteSparse %d", (int) i1, (int) i2) ;
        i1 = GrB_Matrix_reduce_INT64 (&x, NULL, NULL, C, NULL) ;
        i2 = real [GCU_T_INT64] (&y, NULL, NULL, R, NULL) ;
        CHECK (i1 == i2 && i1 != GrB_SUCCESS, "monoid NULL: %d, SuiteSparse %d", (int) i1, (int) i2) ;
    }
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&R) ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!grbcuda_gpu_available ())
    {
        printf ("SKIP: no usable GPU; test_reduce_gpu needs one\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    setup () ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    OK (grbcuda_set_keep_results (true)) ;
    uint64_t st = 4242 ;
    const int types [] = { GCU_T_BOOL, GCU_T_INT8, GCU_T_INT32, GCU_T_UINT16,
        GCU_T_UINT64, GCU_T_FP32, GCU_T_FP64, GCU_T_FC64 } ;
    for (size_t k = 0 ; k < sizeof (types) / sizeof (types [0]) ; k++)
        test_monoids (types [k], 60 + 20 * (GrB_Index) k, 0.1, &st) ;
    // (b) empty: every entry point from FP64 values, MIN_FP64 (+inf), PLUS, ANY
    test_monoids (GCU_T_FP64, 30, 0.0, &st) ;
    test_host_path (&st) ;
    gcu_residency_clear_all () ;
    GrB_finalize () ;
    return gcu_test_report ("test_reduce_gpu") ;
}
