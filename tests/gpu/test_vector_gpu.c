// GRBCUDA_TEST_INTERNAL
// test_vector_gpu.c — GrB_mxv / GrB_vxm results left on the device as their
// vector's newest value (DESIGN §3), against SuiteSparse's own functions:
//  (a) chains: w = A*u stays on the device (no download), its nvals,
//      extractElement and reductions answer from there; products that read
//      it as their vector (pull and push), as their mask and as their
//      output with an accum use the device copy (no materialization); then
//      every result reads back equal to SuiteSparse's;
//  (b) BFS levels: q<!v,struct,replace> = q*A (ANY_PAIR) on the device, the
//      visited set updated by an assign under the mask q (on the device
//      too: src/vector/assign.c), the visited set and the frontier level by
//      level equal to SuiteSparse's;
//  (c) nothing lost under eviction: many device-newest vectors of several
//      types in a small budget all read back right;
//  (d) fault injection over the vector write-back: each counted device
//      operation fails in turn; the call still gives SuiteSparse's answer
//      (the host reruns it) and no device memory is left behind.
#include "gcu_test.h"
#include "grbcuda.h"
#include "device/gcu_cuda.h"
#include "residency/gcu_residency.h"
#include "gcu_util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef GrB_Info (*mxv_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Vector, const GrB_Descriptor) ;
typedef GrB_Info (*vxm_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Vector, const GrB_Matrix, const GrB_Descriptor) ;
typedef GrB_Info (*assign_bool_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    bool, const GrB_Index *, GrB_Index, const GrB_Descriptor) ;
// SuiteSparse's own functions: the oracle's objects never pass through
// grbcuda (a real call changing an object grbcuda has a copy of would not
// invalidate the copy)
static mxv_t real_mxv ;
static vxm_t real_vxm ;
static assign_bool_t real_assign_bool ;

static gcu_res_stats stats (void)
{
    gcu_res_stats s ;
    gcu_residency_stats (&s) ;
    return s ;
}

// one call on both sides: grbcuda (w) and SuiteSparse (r)
static void both_mxv (GrB_Vector w, GrB_Vector r, GrB_Vector Mw, GrB_Vector Mr,
    GrB_BinaryOp accum, GrB_Semiring s, GrB_Matrix A, GrB_Vector uw, GrB_Vector ur,
    GrB_Descriptor d, const char *what)
{
    GrB_Info i1 = GrB_mxv (w, Mw, accum, s, A, uw, d) ;
    GrB_Info i2 = real_mxv (r, Mr, accum, s, A, ur, d) ;
    CHECK (i1 == GrB_SUCCESS && i2 == GrB_SUCCESS, "%s: info %d, SuiteSparse %d", what, (int) i1, (int) i2) ;
}

// (a)
static void chains (GrB_Type t, GrB_Semiring s, GrB_BinaryOp plus, GrB_Monoid max,
    double tol, uint64_t *st)
{
    const GrB_Index n = 3000 ;
    GrB_Matrix A = gcu_test_random_matrix (t, n, n, 0.004, st) ;
    GrB_Vector u = gcu_test_random_vector (t, n, 0.5, st) ;
    GrB_Vector w, r, y, ry, z, rz ;
    OK (GrB_Vector_new (&w, t, n)) ; OK (GrB_Vector_new (&r, t, n)) ;
    OK (GrB_Vector_new (&y, t, n)) ; OK (GrB_Vector_new (&ry, t, n)) ;
    OK (GrB_Vector_new (&z, t, n)) ; OK (GrB_Vector_new (&rz, t, n)) ;
    const gcu_res_stats s0 = stats () ;
    both_mxv (w, r, NULL, NULL, NULL, s, A, u, u, NULL, "w = A*u") ;
    const gcu_res_stats s1 = stats () ;
    CHECK (s1.newest == s0.newest + 1, "w = A*u left on the device (newest %llu -> %llu)",
        (unsigned long long) s0.newest, (unsigned long long) s1.newest) ;
    GrB_Index nw = 0, nr = 0 ;
    OK (GrB_Vector_nvals (&nw, w)) ; OK (GrB_Vector_nvals (&nr, r)) ;
    CHECK (nw == nr, "nvals from the device %llu, SuiteSparse %llu", (unsigned long long) nw,
        (unsigned long long) nr) ;
    for (GrB_Index i = 0 ; i < n ; i += 97)
    {
        double x = 0, y0 = 0 ;
        GrB_Info i1 = GrB_Vector_extractElement_FP64 (&x, w, i) ;
        GrB_Info i2 = GrB_Vector_extractElement_FP64 (&y0, r, i) ;
        CHECK (i1 == i2 && (i1 != GrB_SUCCESS || fabs (x - y0) <= tol * fabs (y0)),
            "w(%llu) from the device: info %d %g, SuiteSparse %d %g", (unsigned long long) i,
            (int) i1, x, (int) i2, y0) ;
    }
    double m1 = 0, m2 = 0 ;
    OK (GrB_Vector_reduce_FP64 (&m1, NULL, max, w, NULL)) ;
    OK (GrB_Vector_reduce_FP64 (&m2, NULL, max, r, NULL)) ;
    CHECK (fabs (m1 - m2) <= tol * fabs (m2), "max (w) on the device %g, SuiteSparse %g", m1, m2) ;
    CHECK (stats ().materializations == s1.materializations, "the reads wrote w back") ;
    // w as the vector (pull: dense), as the mask, as the output with accum
    both_mxv (y, ry, NULL, NULL, NULL, s, A, w, r, NULL, "y = A*w") ;
    both_mxv (z, rz, w, r, NULL, s, A, y, ry, GrB_DESC_S, "z<w,struct> = A*y") ;
    both_mxv (z, rz, y, ry, plus, s, A, w, r, GrB_DESC_RC, "z<!y,replace> += A*w") ;
    both_mxv (w, r, NULL, NULL, plus, s, A, z, rz, NULL, "w += A*z") ;
    // a sparse frontier from the device: push
    GrB_Vector f, rf ;
    OK (GrB_Vector_new (&f, t, n)) ; OK (GrB_Vector_new (&rf, t, n)) ;
    GrB_Vector one = gcu_test_random_vector (t, n, 0.002, st) ;
    both_mxv (f, rf, NULL, NULL, NULL, s, A, one, one, NULL, "f = A*one") ;
    both_mxv (y, ry, NULL, NULL, NULL, s, A, f, rf, NULL, "y = A*f (f sparse on the device)") ;
    const gcu_res_stats s2 = stats () ;
    CHECK (s2.materializations == s1.materializations,
        "the chain read its device-newest vectors where they are (%llu write-backs)",
        (unsigned long long) (s2.materializations - s1.materializations)) ;
    CHECK (gcu_test_vector_equal (w, r, tol, false, "w"), "w read back") ;
    CHECK (gcu_test_vector_equal (y, ry, tol, false, "y"), "y read back") ;
    CHECK (gcu_test_vector_equal (z, rz, tol, false, "z"), "z read back") ;
    CHECK (gcu_test_vector_equal (f, rf, tol, false, "f"), "f read back") ;
    CHECK (stats ().materializations > s2.materializations, "reading them whole wrote them back") ;
    GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ; GrB_Vector_free (&one) ;
    GrB_Vector_free (&w) ; GrB_Vector_free (&r) ; GrB_Vector_free (&y) ; GrB_Vector_free (&ry) ;
    GrB_Vector_free (&z) ; GrB_Vector_free (&rz) ; GrB_Vector_free (&f) ; GrB_Vector_free (&rf) ;
}

// (b)
static void bfs (uint64_t *st)
{
    const GrB_Index n = 5000 ;
    GrB_Matrix A = gcu_test_random_matrix (GrB_BOOL, n, n, 0.0008, st) ;
    GrB_Vector q, rq, v, rv ;
    OK (GrB_Vector_new (&q, GrB_BOOL, n)) ; OK (GrB_Vector_new (&rq, GrB_BOOL, n)) ;
    OK (GrB_Vector_new (&v, GrB_BOOL, n)) ; OK (GrB_Vector_new (&rv, GrB_BOOL, n)) ;
    OK (GrB_Vector_setElement_BOOL (q, true, 0)) ; OK (GrB_Vector_setElement_BOOL (rq, true, 0)) ;
    int level = 0 ;
    for (GrB_Index nq = 1 ; nq > 0 && level < 100 ; level++)
    {
        OK (GrB_Vector_assign_BOOL (v, q, NULL, true, GrB_ALL, n, GrB_DESC_S)) ;
        OK (real_assign_bool (rv, rq, NULL, true, GrB_ALL, n, GrB_DESC_S)) ;
        // (counts from the device: reading v or q whole would write them
        // back and change the path the next level takes; whole only once
        // they differ)
        char what [64] ;
        GrB_Index nv1 = 0, nv2 = 0 ;
        OK (GrB_Vector_nvals (&nv1, v)) ; OK (GrB_Vector_nvals (&nv2, rv)) ;
        snprintf (what, sizeof (what), "level %d: visited", level) ;
        CHECK (nv1 == nv2, "%s: %llu, SuiteSparse %llu", what, (unsigned long long) nv1,
            (unsigned long long) nv2) ;
        if (nv1 != nv2) { (void) gcu_test_vector_equal (v, rv, 0, false, what) ; break ; }
        GrB_Info i1 = GrB_vxm (q, v, NULL, GxB_ANY_PAIR_BOOL, q, A, GrB_DESC_RSC) ;
        GrB_Info i2 = real_vxm (rq, rv, NULL, GxB_ANY_PAIR_BOOL, rq, A, GrB_DESC_RSC) ;
        CHECK (i1 == GrB_SUCCESS && i2 == GrB_SUCCESS, "level %d: info %d, SuiteSparse %d", level,
            (int) i1, (int) i2) ;
        GrB_Index n1 = 0, n2 = 0 ;
        OK (GrB_Vector_nvals (&n1, q)) ; OK (GrB_Vector_nvals (&n2, rq)) ;
        CHECK (n1 == n2, "level %d: frontier %llu, SuiteSparse %llu", level,
            (unsigned long long) n1, (unsigned long long) n2) ;
        snprintf (what, sizeof (what), "level %d: frontier", level) ;
        if (n1 != n2) { (void) gcu_test_vector_equal (q, rq, 0, false, what) ; break ; }
        nq = n1 ;
    }
    CHECK (gcu_test_vector_equal (v, rv, 0, false, "visited"), "BFS: %d levels, visited sets equal", level) ;
    GrB_Matrix_free (&A) ;
    GrB_Vector_free (&q) ; GrB_Vector_free (&rq) ; GrB_Vector_free (&v) ; GrB_Vector_free (&rv) ;
}

// (c)
static void eviction (uint64_t *st)
{
    enum { N = 40 } ;
    const GrB_Semiring s [3] = { GrB_PLUS_TIMES_SEMIRING_FP64, GrB_PLUS_TIMES_SEMIRING_INT32,
        GrB_MIN_PLUS_SEMIRING_FP32 } ;
    const GrB_Type t [3] = { GrB_FP64, GrB_INT32, GrB_FP32 } ;
    GrB_Vector w [N], r [N] ;
    OK (gcu_residency_set_budget (1 << 20)) ;       // 1 MB: a few vectors at a time
    const gcu_res_stats s0 = stats () ;
    for (int k = 0 ; k < N ; k++)
    {
        const GrB_Index n = 20000 + 3000 * (GrB_Index) (k % 5) ;
        GrB_Matrix A = gcu_test_random_matrix (t [k % 3], n, n, 0.0005, st) ;
        GrB_Vector u = gcu_test_random_vector (t [k % 3], n, 0.3, st) ;
        OK (GrB_Vector_new (&w [k], t [k % 3], n)) ;
        OK (GrB_Vector_new (&r [k], t [k % 3], n)) ;
        both_mxv (w [k], r [k], NULL, NULL, NULL, s [k % 3], A, u, u, NULL, "evicted") ;
        GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ;
    }
    const gcu_res_stats s1 = stats () ;
    printf ("vector eviction: %d results, %llu written back by eviction, %llu still newest\n", N,
        (unsigned long long) (s1.materializations - s0.materializations), (unsigned long long) s1.newest) ;
    CHECK (s1.materializations > s0.materializations && s1.evictions > s0.evictions,
        "eviction wrote newest vectors back before dropping them") ;
    for (int k = 0 ; k < N ; k++)
    {
        char what [64] ;
        snprintf (what, sizeof (what), "evicted vector %d", k) ;
        CHECK (gcu_test_vector_equal (w [k], r [k], 1e-9, false, what), "%s", what) ;
        GrB_Vector_free (&w [k]) ; GrB_Vector_free (&r [k]) ;
    }
    OK (gcu_residency_set_budget ((size_t) 1 << 34)) ;
}

// (d)
static void faults (uint64_t *st)
{
    const GrB_Index n = 4000 ;
    GrB_Matrix A = gcu_test_random_matrix (GrB_FP64, n, n, 0.003, st) ;
    GrB_Vector u = gcu_test_random_vector (GrB_FP64, n, 0.4, st) ;
    GrB_Vector M = gcu_test_random_vector (GrB_FP64, n, 0.5, st) ;
    GrB_Vector w0 = gcu_test_random_vector (GrB_INT32, n, 0.3, st) ;
    GrB_Vector R = NULL ;
    OK (GrB_Vector_dup (&R, w0)) ;
    OK (real_mxv (R, M, GrB_PLUS_INT32, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL)) ;
    // how many counted operations one call makes
    gcu_res_stats before = stats () ;
    GrB_Vector w = NULL ;
    OK (GrB_Vector_dup (&w, w0)) ;
    gcu_fault_inject (1 << 30) ;
    OK (GrB_mxv (w, M, GrB_PLUS_INT32, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL)) ;
    const int64_t nops = gcu_fault_count () ;
    gcu_fault_inject (0) ;
    CHECK (stats ().newest == before.newest + 1, "the masked, accumulated product stayed on the device") ;
    CHECK (gcu_test_vector_equal (w, R, 1e-12, false, "faults: no fault"), "no fault (%lld operations)",
        (long long) nops) ;
    GrB_Vector_free (&w) ;
    gcu_residency_clear_all () ;
    const int64_t base = gcu_device_bytes_in_use () ;
    for (int64_t k = 1 ; k <= nops ; k++)
    {
        char what [64] ;
        snprintf (what, sizeof (what), "fault at operation %lld", (long long) k) ;
        OK (GrB_Vector_dup (&w, w0)) ;
        gcu_fault_inject (k) ;
        GrB_Info info = GrB_mxv (w, M, GrB_PLUS_INT32, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL) ;
        gcu_fault_inject (0) ;
        CHECK (info == GrB_SUCCESS && gcu_test_vector_equal (w, R, 1e-12, false, what), "%s", what) ;
        GrB_Vector_free (&w) ;
        gcu_residency_clear_all () ;
        CHECK (gcu_device_bytes_in_use () == base, "%s: device memory %lld, was %lld", what,
            (long long) gcu_device_bytes_in_use (), (long long) base) ;
    }
    GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ; GrB_Vector_free (&M) ;
    GrB_Vector_free (&w0) ; GrB_Vector_free (&R) ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!grbcuda_gpu_available ())
    {
        printf ("SKIP: no usable GPU; test_vector_gpu needs one\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    real_mxv = (mxv_t) gcu_test_real ("GrB_mxv") ;
    real_vxm = (vxm_t) gcu_test_real ("GrB_vxm") ;
    real_assign_bool = (assign_bool_t) gcu_test_real ("GrB_Vector_assign_BOOL") ;
    CHECK (real_assign_bool != NULL && (void *) real_assign_bool != (void *) GrB_Vector_assign_BOOL,
        "SuiteSparse's GrB_Vector_assign_BOOL") ;
    gcu_test_types_init () ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    OK (grbcuda_set_keep_results (true)) ;
    uint64_t st = 4242 ;
    chains (GrB_FP64, GrB_PLUS_TIMES_SEMIRING_FP64, GrB_PLUS_FP64, GrB_MAX_MONOID_FP64, 1e-12, &st) ;
    chains (GrB_INT64, GrB_PLUS_TIMES_SEMIRING_INT64, GrB_PLUS_INT64, GrB_MAX_MONOID_INT64, 0, &st) ;
    chains (GrB_FP32, GrB_MIN_PLUS_SEMIRING_FP32, GrB_MIN_FP32, GrB_MAX_MONOID_FP32, 0, &st) ;
    bfs (&st) ;
    eviction (&st) ;
    faults (&st) ;
    gcu_residency_clear_all () ;
    GrB_finalize () ;
    return gcu_test_report ("test_vector_gpu") ;
}
