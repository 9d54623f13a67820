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
//      (the host reruns it) and no device memory is left behind;
//  (e) uploads of a dense image (gcu_vec_get's miss; held sparse, full and
//      as a bitmap): vectors of values of
//      1, 2, 4, 8 and 16 bytes and of two user-defined types (3 and 12
//      bytes), empty, of one entry, a few, many, all but one, and full
//      (sparse or full storage), as the mask and as u of GrB_Vector_assign
//      against SuiteSparse's, then their image read back byte for byte
//      against their entries (absent values zero), with the bytes
//      uploaded: the entries alone when they are fewer than the image;
//  (f) w's iso status not known before T (src/residency/iso_status.c):
//      PageRank's r = teleport (iso in SuiteSparse, left so on the device)
//      then r += A*u (an accum into an iso r: decided by T's entries counted
//      on the device, r left there); r = teleport again, then r<FIRST> =
//      A*u (FIRST ignores T: not decided, declined after the kernels, r as
//      it was, the host computes it); each against SuiteSparse's, its iso
//      status included;
//  (g) a vector's return trips (src/residency/newest.c's trip table,
//      predict.c's host_after): a host value of w that a GPU call uploads
//      is charged to the next host call that writes w, its upload's bytes
//      as they go up (a full FP32 vector's values; one value where the call
//      makes w iso), as often as w's values went up; written over on the
//      host without going up, less; a new object at the address forgets
//      it; in auto mode a host call that writes v counts as one;
//  (h) a kind the host has run few times (predict.c's host_unmeasured): in
//      auto mode, a vector apply the GPU wins by less than 2x runs on the
//      host three times, each measured; one the GPU wins by more, or of a
//      kind the host has run three times, runs on the GPU.
#include "gcu_test.h"
#include "grbcuda.h"
#include "device/gcu_cuda.h"
#include "residency/gcu_residency.h"
#include "residency/gcu_operand.h"
#include "vector/gcu_vector.h"
#include "dispatch/gcu_dispatch.h"
#include "dispatch/gcu_cost.h"
#include "gcu_test_cost.h"
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
typedef GrB_Info (*assign_v_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Vector, const GrB_Index *, GrB_Index, const GrB_Descriptor) ;
typedef GrB_Info (*assign_fp32_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    float, const GrB_Index *, GrB_Index, const GrB_Descriptor) ;
// SuiteSparse's own functions: the oracle's objects never pass through
// grbcuda (a real call changing an object grbcuda has a copy of would not
// invalidate the copy)
static mxv_t real_mxv ;
static vxm_t real_vxm ;
static assign_bool_t real_assign_bool ;
static assign_v_t real_assign_v ;
static assign_fp32_t real_assign_fp32 ;

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

// (e)

// a vector of type t (values of size bytes) and length n with nv entries at
// random distinct positions, random values (one in four all zero bytes),
// packed from arrays kept in *I and *X (positions, values) for the check;
// full storage (nv == n) when full_storage
static GrB_Vector upload_vector (GrB_Type t, size_t size, GrB_Index n, GrB_Index nv,
    bool full_storage, GrB_Index **I, unsigned char **X, uint64_t *st)
{
    GrB_Vector v = NULL ;
    OK (GrB_Vector_new (&v, t, n)) ;
    GrB_Index *vi = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    unsigned char *vx = malloc ((nv + 1) * size) ;
    // nv distinct positions in order: each kept with the chance it still needs
    for (GrB_Index i = 0, k = 0 ; i < n && k < nv ; i++)
        if (gcu_rand (st) % (n - i) < nv - k) vi [k++] = i ;
    for (GrB_Index p = 0 ; p < nv * size ; p++) vx [p] = (unsigned char) gcu_rand (st) ;
    for (GrB_Index k = 0 ; k < nv ; k++)
        if (gcu_rand (st) % 4 == 0) memset (vx + k * size, 0, size) ;
    *I = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    *X = malloc ((nv + 1) * size) ;
    memcpy (*I, vi, nv * sizeof (GrB_Index)) ;
    memcpy (*X, vx, nv * size) ;
    if (full_storage) OK (GxB_Vector_pack_Full (v, (void **) &vx, (nv + 1) * size, false, NULL)) ;
    else OK (GxB_Vector_pack_CSC (v, &vi, (void **) &vx, (nv + 1) * sizeof (GrB_Index),
        (nv + 1) * size, false, nv, false, NULL)) ;
    free (vi) ; free (vx) ;         // NULL once packed
    return v ;
}

// w<u> = true (desc: its mask kind) by grbcuda and SuiteSparse, each into
// an empty w of its own; gpu_due: the call must run on the device
static void upload_as_mask (GrB_Vector u, GrB_Index n, GrB_Descriptor desc, bool gpu_due,
    const char *what)
{
    GrB_Vector w = NULL, r = NULL ;
    OK (GrB_Vector_new (&w, GrB_BOOL, n)) ; OK (GrB_Vector_new (&r, GrB_BOOL, n)) ;
    gcu_residency_clear_all () ;        // u's image not there yet: uploaded
    GrB_Info i1 = GrB_Vector_assign_BOOL (w, u, NULL, true, GrB_ALL, n, desc) ;
    GrB_Info i2 = real_assign_bool (r, u, NULL, true, GrB_ALL, n, desc) ;
    CHECK (i1 == i2, "%s: info %d, SuiteSparse %d", what, (int) i1, (int) i2) ;
    if (gpu_due)
        CHECK (gcu_residency_newest_nvals (w, NULL), "%s ran on the GPU", what) ;
    CHECK (gcu_test_vector_equal (w, r, 0, false, what), "%s: w as SuiteSparse's", what) ;
    GrB_Vector_free (&w) ; GrB_Vector_free (&r) ;
}

// u's dense image from gcu_vec_get (a miss: uploaded) read back against
// its entries I, X (nv of them; values of size bytes)
static void upload_image (GrB_Vector u, GrB_Index n, size_t size, const GrB_Index *I,
    const unsigned char *X, GrB_Index nv, const char *what)
{
#if !GRBCUDA_HAVE_CUDA
    // a build without CUDA has no device image (and skips this test at run time)
    (void) u ; (void) n ; (void) size ; (void) I ; (void) X ; (void) nv ; (void) what ;
#else
    const gcu_stream s = gcu_stream_default () ;
    gcu_vec v ;
    gcu_residency_clear_all () ;
    GrB_Info info = gcu_vec_get (u, n, true, size, &v, s) ;
    CHECK (info == GrB_SUCCESS, "%s: gcu_vec_get %d", what, (int) info) ;
    if (info != GrB_SUCCESS) return ;
    // what crosses the link: a full u's values; u held sparse, its entries
    // (positions of 8 bytes and values) as SuiteSparse holds them, scattered
    // on the device; held otherwise (a bitmap), the entries when they are
    // fewer bytes than the image, else the image built on the host
    int32_t sp = 0 ;
    OK (GxB_Vector_Option_get (u, GxB_SPARSITY_STATUS, &sp)) ;
    const bool full = nv == n ;
    const bool scatter = !full && (sp == GxB_SPARSE || nv * (8 + size) < n * (1 + size)) ;
    const size_t want = full ? n * size : scatter ? nv * (8 + size) : n * (1 + size) ;
    CHECK (v.how != GCU_OPERAND_HIT && v.nvals == nv && v.up_bytes == want,
        "%s: a miss (how %d), %llu entries, %zu bytes up (want %zu)", what, (int) v.how,
        (unsigned long long) v.nvals, v.up_bytes, want) ;
    CHECK ((v.b == NULL) == full, "%s: presence bytes only when not full", what) ;
    int8_t *hb = malloc (n + 1) ;
    unsigned char *hx = malloc ((n + 1) * size) ;
    memset (hb, 1, n + 1) ;
    bool ok = true ;
    if (v.b != NULL) ok = gcu_memcpy_d2h (hb, v.b, n, s) == GrB_SUCCESS ;
    ok = ok && gcu_memcpy_d2h (hx, v.x, n * size, s) == GrB_SUCCESS && gcu_sync (s) == GrB_SUCCESS ;
    CHECK (ok, "%s: image read back", what) ;
    GrB_Index bad = 0, k = 0 ;
    for (GrB_Index i = 0 ; ok && i < n ; i++)
    {
        const bool present = k < nv && I [k] == i ;
        const unsigned char *want_x = present ? X + k * size : NULL ;
        bool same = (hb [i] != 0) == present ;
        for (size_t b = 0 ; same && b < size ; b++)
            same = hx [i * size + b] == (want_x != NULL ? want_x [b] : 0) ;
        if (!same && bad++ == 0)
            fprintf (stderr, "%s: position %llu: presence %d (want %d)\n", what,
                (unsigned long long) i, (int) hb [i], (int) present) ;
        k += present ;
    }
    CHECK (bad == 0, "%s: image as the entries (%llu positions differ)", what,
        (unsigned long long) bad) ;
    free (hb) ; free (hx) ;
    gcu_vec_release (&v, s) ;
    // the image was published: the next call finds it
    info = gcu_vec_get (u, n, true, size, &v, s) ;
    CHECK (info == GrB_SUCCESS && v.how == GCU_OPERAND_HIT && v.up_bytes == 0,
        "%s: then a hit (info %d, how %d)", what, (int) info, (int) v.how) ;
    if (info == GrB_SUCCESS) gcu_vec_release (&v, s) ;
    gcu_residency_clear_all () ;
#endif
}

static void uploads (uint64_t *st)
{
    GrB_Type u3 = NULL, u12 = NULL ;
    OK (GrB_Type_new (&u3, 3)) ;
    OK (GrB_Type_new (&u12, 12)) ;
    const struct { GrB_Type t ; size_t size ; const char *name ; bool builtin ; } ty [] = {
        { GrB_INT8, 1, "INT8", true }, { GrB_UINT16, 2, "UINT16", true },
        { GrB_FP32, 4, "FP32", true }, { GrB_INT64, 8, "INT64", true },
        { GxB_FC64, 16, "FC64", true }, { u3, 3, "UDT3", false }, { u12, 12, "UDT12", false } } ;
    const GrB_Index lengths [3] = { 1, 7, 30000 } ;
    int scattered = 0 ;
    for (size_t t = 0 ; t < sizeof (ty) / sizeof (ty [0]) ; t++)
        for (int l = 0 ; l < 3 ; l++)
        {
            const GrB_Index n = lengths [l] ;
            // empty, one entry, a few, many (1%, a third), all but one, full
            // (sparse storage, then full storage)
            const GrB_Index counts [8] = { 0, 1, 3, n / 100, n / 3, n - 1, n, n } ;
            for (int c = 0 ; c < 8 ; c++)
            {
                const GrB_Index nv = counts [c] ;
                bool seen = false ;
                for (int b = 0 ; b < c && c < 7 ; b++) seen = seen || counts [b] == nv ;
                if (nv > n || seen) continue ;
                const bool full_storage = c == 7 ;
                char what [128] ;
                snprintf (what, sizeof (what), "upload: %s, length %llu, %llu entries%s",
                    ty [t].name, (unsigned long long) n, (unsigned long long) nv,
                    full_storage ? " (full storage)" : "") ;
                GrB_Index *I = NULL ;
                unsigned char *X = NULL ;
                GrB_Vector u = upload_vector (ty [t].t, ty [t].size, n, nv, full_storage, &I, &X, st) ;
                // as the mask: structural (a user type too), complemented,
                // valued (SuiteSparse's error for a user type)
                upload_as_mask (u, n, GrB_DESC_S, true, what) ;
                upload_as_mask (u, n, GrB_DESC_SC, true, what) ;
                upload_as_mask (u, n, NULL, ty [t].builtin, what) ;
                if (ty [t].builtin)
                {
                    // as u: w = u, T u's dense image
                    GrB_Vector w = NULL, r = NULL ;
                    OK (GrB_Vector_new (&w, ty [t].t, n)) ; OK (GrB_Vector_new (&r, ty [t].t, n)) ;
                    gcu_residency_clear_all () ;
                    OK (GrB_Vector_assign (w, NULL, NULL, u, GrB_ALL, n, NULL)) ;
                    OK (real_assign_v (r, NULL, NULL, u, GrB_ALL, n, NULL)) ;
                    CHECK (gcu_residency_newest_nvals (w, NULL), "%s: w = u ran on the GPU", what) ;
                    CHECK (gcu_test_vector_equal (w, r, 0, false, what), "%s: w = u as SuiteSparse's", what) ;
                    GrB_Vector_free (&w) ; GrB_Vector_free (&r) ;
                }
                upload_image (u, n, ty [t].size, I, X, nv, what) ;
                scattered += nv < n ;
                // held as a bitmap: exported, the image built where it is
                // fewer bytes than the entries
                OK (GxB_Vector_Option_set (u, GxB_SPARSITY_CONTROL, GxB_BITMAP)) ;
                strncat (what, " (bitmap)", sizeof (what) - strlen (what) - 1) ;
                upload_image (u, n, ty [t].size, I, X, nv, what) ;
                scattered += nv < n && nv * (8 + ty [t].size) < n * (1 + ty [t].size) ;
                GrB_Vector_free (&u) ;
                free (I) ; free (X) ;
            }
        }
    printf ("vector uploads: %d images scattered from their entries\n", scattered) ;
    GrB_Type_free (&u3) ; GrB_Type_free (&u12) ;
}

// (f)
static void iso_equal (GrB_Vector w, GrB_Vector r, double tol, const char *what)
{
    bool i1 = false, i2 = false ;
    CHECK (gcu_test_vector_equal (w, r, tol, false, what), "%s: w as SuiteSparse's", what) ;
    OK (GxB_Vector_iso (&i1, w)) ;
    OK (GxB_Vector_iso (&i2, r)) ;
    CHECK (i1 == i2, "%s: w iso %d, SuiteSparse's %d", what, (int) i1, (int) i2) ;
}

static void iso_open (uint64_t *st)
{
    const GrB_Index n = 3000 ;
    GrB_Matrix A = gcu_test_random_matrix (GrB_FP32, n, n, 0.004, st) ;
    GrB_Vector u = gcu_test_random_vector (GrB_FP32, n, 1.0, st) ;
    // (none of them iso: the random ones are, one time in eight)
    OK (GrB_Matrix_setElement_FP32 (A, 7.5f, 0, 0)) ;
    OK (GrB_Matrix_setElement_FP32 (A, -2.0f, 1, 1)) ;
    OK (GrB_Vector_setElement_FP32 (u, 2.5f, 0)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    OK (GrB_Vector_wait (u, GrB_MATERIALIZE)) ;
    GrB_Vector r, rr ;
    OK (GrB_Vector_new (&r, GrB_FP32, n)) ;
    OK (GrB_Vector_new (&rr, GrB_FP32, n)) ;
    // r = teleport: iso, on the device
    const uint64_t n0 = stats ().newest ;
    OK (GrB_Vector_assign_FP32 (r, NULL, NULL, 0.15f, GrB_ALL, n, NULL)) ;
    OK (real_assign_fp32 (rr, NULL, NULL, 0.15f, GrB_ALL, n, NULL)) ;
    CHECK (stats ().newest == n0 + 1, "r = teleport left on the device") ;
    // r += A*u: T's entries counted, r stays on the device
    const uint64_t c0 = gcu_iso_counted (), runs0 = gcu_family_runs ("mxv"), n1 = stats ().newest ;
    both_mxv (r, rr, NULL, NULL, GrB_PLUS_FP32, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, u, NULL, "r += A*u") ;
    CHECK (gcu_iso_counted () == c0 + 1 && gcu_family_runs ("mxv") == runs0 + 1,
        "r += A*u into an iso r: on the GPU (%llu runs), decided by T's entries (%llu)",
        (unsigned long long) (gcu_family_runs ("mxv") - runs0), (unsigned long long) (gcu_iso_counted () - c0)) ;
    uint64_t nv = 0 ;
    CHECK (stats ().newest == n1 && gcu_residency_newest_nvals (r, &nv), "r += A*u left on the device") ;
    iso_equal (r, rr, 1e-5, "r += A*u into an iso r") ;
    // r = teleport, then r<FIRST> = A*u: declined after the kernels
    OK (GrB_Vector_assign_FP32 (r, NULL, NULL, 0.25f, GrB_ALL, n, NULL)) ;
    OK (real_assign_fp32 (rr, NULL, NULL, 0.25f, GrB_ALL, n, NULL)) ;
    const uint64_t o0 = gcu_iso_opened (), d0 = gcu_iso_declined (), runs1 = gcu_family_runs ("mxv") ;
    both_mxv (r, rr, NULL, NULL, GrB_FIRST_FP32, GrB_PLUS_TIMES_SEMIRING_FP32, A, u, u, NULL, "r<FIRST> = A*u") ;
    CHECK (gcu_iso_opened () == o0 + 1 && gcu_iso_declined () == d0 + 1 && gcu_family_runs ("mxv") == runs1,
        "r<FIRST> = A*u into an iso r: left open (%llu), then declined (%llu), not run on the GPU (%llu)",
        (unsigned long long) (gcu_iso_opened () - o0), (unsigned long long) (gcu_iso_declined () - d0),
        (unsigned long long) (gcu_family_runs ("mxv") - runs1)) ;
    iso_equal (r, rr, 0, "r<FIRST> = A*u into an iso r") ;
    GrB_Matrix_free (&A) ;
    GrB_Vector_free (&u) ; GrB_Vector_free (&r) ; GrB_Vector_free (&rr) ;
}

// (g)
static double after_for (GrB_Vector w, GrB_Vector u, gcu_op op, GrB_Index n)
{
    gcu_call c ;
    memset (&c, 0, sizeof (c)) ;
    c.op = op ;
    c.C = w ; c.A = u ; c.B = op == GCU_OP_VECTOR_ASSIGN_SCALAR ? NULL : u ;
    c.c_rows = c.a_rows = c.b_rows = n ;
    c.c_cols = c.a_cols = c.b_cols = 1 ;
    c.a_nvals = n ; c.b_nvals = c.B != NULL ? n : 0 ;
    c.work = 2.0 * (double) n ;
    c.down_share = -1 ;
    (void) gcu_predict (&c, gcu_cost_current (NULL)) ;
    return c.host_after ;
}

static void trips (uint64_t *st)
{
    const GrB_Index n = 1 << 16 ;
    const double h2d = gcu_cost_current (NULL)->h2d ;
    const gcu_op mult = GCU_OP_VECTOR_EWISEMULT_BINARYOP ;
    GrB_Vector u = gcu_test_random_vector (GrB_FP32, n, 1.0, st), w, v, z ;
    OK (GrB_Vector_new (&w, GrB_FP32, n)) ;
    OK (GrB_Vector_new (&v, GrB_FP32, n)) ;
    OK (GrB_Vector_new (&z, GrB_FP32, n)) ;
    OK (real_assign_fp32 (w, NULL, NULL, 1.0f, GrB_ALL, n, NULL)) ;
    OK (GrB_Vector_setElement_FP32 (w, 2.0f, 0)) ;      // (not iso)
    OK (GrB_Vector_setElement_FP32 (u, 3.0f, 0)) ;
    OK (GrB_Vector_wait (w, GrB_MATERIALIZE)) ;
    OK (GrB_Vector_wait (u, GrB_MATERIALIZE)) ;
    CHECK (gcu_residency_trip_share (w) == 0 && after_for (w, u, mult, n) == 0,
        "a vector never seen: nothing charged (%g ms)", 1e3 * after_for (w, u, mult, n)) ;
    // a host value of w goes up: its whole upload charged
    gcu_residency_trip_host (w) ;
    const uint64_t runs = gcu_family_runs ("vector ewise") ;
    OK (GrB_eWiseMult (z, NULL, NULL, GrB_TIMES_FP32, w, u, NULL)) ;
    CHECK (gcu_family_runs ("vector ewise") == runs + 1, "z = w .* u on the GPU") ;
    CHECK (gcu_residency_trip_share (w) == 1, "w's host value went up: share %g",
        gcu_residency_trip_share (w)) ;
    double a = after_for (w, u, mult, n) ;
    CHECK (fabs (a - 4.0 * (double) n / h2d) < 1e-12, "w = u .* u on the host: its FP32 values' "
        "upload after, %g ms, want %g", 1e3 * a, 4e3 * (double) n / h2d) ;
    a = after_for (w, u, GCU_OP_VECTOR_ASSIGN_SCALAR, n) ;
    CHECK (fabs (a - 4.0 / h2d) < 1e-15, "w = scalar on the host (iso): one value's upload, %g ms", 1e3 * a) ;
    // written over on the host twice, never gone up in between
    gcu_residency_trip_host (w) ;
    gcu_residency_trip_host (w) ;
    CHECK (fabs (gcu_residency_trip_share (w) - 0.75) < 1e-6, "a host value written over: share %g, want 0.75",
        gcu_residency_trip_share (w)) ;
    // auto mode: a host call that writes v marks it, and v's upload after counts
    grbcuda_op_stats s0, s1 ;
    OK (grbcuda_stats_get ("GrB_Vector_apply", &s0)) ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_AUTO)) ;
    OK (GrB_Vector_apply (v, NULL, NULL, GrB_AINV_FP32, u, NULL)) ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    OK (grbcuda_stats_get ("GrB_Vector_apply", &s1)) ;
    if (s1.host == s0.host + 1)
    {
        OK (GrB_eWiseMult (z, NULL, NULL, GrB_TIMES_FP32, v, u, NULL)) ;
        CHECK (gcu_residency_trip_share (v) == 1, "v = -u on the host in auto, then up: share %g",
            gcu_residency_trip_share (v)) ;
    }
    else printf ("note: v = -u ran on the GPU in auto mode; its host write not checked\n") ;
    // a new object at the address forgets w's trips
    const void *old = w ;
    GrB_Vector_free (&w) ;
    gcu_residency_born (old) ;
    CHECK (gcu_residency_trip_share (old) == 0, "born: the address's trips forgotten") ;
    GrB_Vector_free (&u) ; GrB_Vector_free (&v) ; GrB_Vector_free (&z) ;
}

// (h)
static uint64_t apply_on_gpu (GrB_Vector w, GrB_Vector u, double gpu_fixed)
{
    char text [1024], rates [96] ;
    snprintf (rates, sizeof (rates), "host_fixed=2e-3 host_rate=1e9 gpu_fixed=%g gpu_rate=1e12\n", gpu_fixed) ;
    (void) gcu_test_cost_text (text, sizeof (text), "margin 1.25\nh2d 1e13\nd2h 1e13\n"
        "cuda_start 0.1\njit_compile 0.1\nwait_factor 4\n", rates) ;
    OK (grbcuda_set_cost_model (text)) ;
    grbcuda_op_stats s0, s1 ;
    OK (grbcuda_stats_get ("GrB_Vector_apply", &s0)) ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_AUTO)) ;
    OK (GrB_Vector_apply (w, NULL, NULL, GrB_AINV_FP32, u, NULL)) ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    OK (grbcuda_stats_get ("GrB_Vector_apply", &s1)) ;
    OK (grbcuda_set_cost_model (NULL)) ;
    CHECK (s1.calls == s0.calls + 1, "one apply counted") ;
    return s1.gpu - s0.gpu ;
}

static void explore (uint64_t *st)
{
    const GrB_Index n = 1 << 16 ;
    GrB_Vector u = gcu_test_random_vector (GrB_FP32, n, 1.0, st), w ;
    OK (GrB_Vector_new (&w, GrB_FP32, n)) ;
    // the kernel loaded first (a call that loads one teaches nothing)
    OK (GrB_Vector_apply (w, NULL, NULL, GrB_AINV_FP32, u, NULL)) ;
    // host 2.07 ms by the table, the GPU 1.2 (x 1.25 = 1.5): not by 2x
    const gcu_op op = GCU_OP_VECTOR_APPLY ;
    const double host_table = 2e-3 + (double) n / 1e9 ;
    for (int k = 0 ; k < 3 ; k++)
    {
        // (the host's time as the table says: its measured ones would move it)
        gcu_cost_forget () ;
        for (int j = 0 ; j < k ; j++)
            gcu_cost_learn (GCU_SIDE_HOST, op, GCU_COST_EWISE, GCU_MASK_NONE, host_table, host_table) ;
        CHECK (apply_on_gpu (w, u, 1.2e-3) == 0, "the host measured %d times, the GPU 1.7x faster: "
            "the host", k) ;
        CHECK (gcu_cost_measured (GCU_SIDE_HOST, op, GCU_COST_EWISE, GCU_MASK_NONE, host_table) == k + 1,
            "then measured %d times", k + 1) ;
    }
    // the GPU 10x faster: the GPU, measured or not
    gcu_cost_forget () ;
    CHECK (apply_on_gpu (w, u, 1.6e-4) == 1, "the host not measured, the GPU 10x faster: the GPU") ;
    // the host's time measured three times (as the table says): the GPU, 1.7x faster
    gcu_cost_forget () ;
    for (int j = 0 ; j < 3 ; j++)
        gcu_cost_learn (GCU_SIDE_HOST, op, GCU_COST_EWISE, GCU_MASK_NONE, host_table, host_table) ;
    CHECK (apply_on_gpu (w, u, 1.2e-3) == 1, "the host measured 3 times, the GPU 1.7x faster: the GPU") ;
    gcu_cost_forget () ;
    GrB_Vector_free (&u) ; GrB_Vector_free (&w) ;
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
    real_assign_v = (assign_v_t) gcu_test_real ("GrB_Vector_assign") ;
    real_assign_fp32 = (assign_fp32_t) gcu_test_real ("GrB_Vector_assign_FP32") ;
    CHECK (real_assign_fp32 != NULL, "SuiteSparse's GrB_Vector_assign_FP32") ;
    CHECK (real_assign_bool != NULL && (void *) real_assign_bool != (void *) GrB_Vector_assign_BOOL,
        "SuiteSparse's GrB_Vector_assign_BOOL") ;
    CHECK (real_assign_v != NULL && (void *) real_assign_v != (void *) GrB_Vector_assign,
        "SuiteSparse's GrB_Vector_assign") ;
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
    uploads (&st) ;
    iso_open (&st) ;
    trips (&st) ;
    explore (&st) ;
    gcu_residency_clear_all () ;
    GrB_finalize () ;
    return gcu_test_report ("test_vector_gpu") ;
}
