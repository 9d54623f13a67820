// GRBCUDA_TEST_INTERNAL
// test_newest.c — device-newest objects (DESIGN §3) on the CPU: a host
// allocator stands in for device memory and a test "producer" stands in for a
// GPU call that leaves its result on the device: it publishes a CSR copy of a
// new value for a GrB_Matrix (or GrB_Vector) and makes it the handle's newest
// value, with a materializer that writes it into the SuiteSparse object.
// Through grbcuda's own entry points and generated wrappers (linked), every
// way a program can touch such an object must see the new value, or drop it
// where the object is overwritten:
//  - nvals and wait answer from the device (no materialization);
//  - readers (extractTuples, extractElement, dup, reduce, the sparsity status,
//    an iterator, concat's array of tiles, a host-path GrB_mxm reading it as
//    input or mask) write it
//    back first, once, and the copy stays (both valid);
//  - mutators (setElement, assign) write it back before changing it;
//  - a host-path call that replaces it whole drops it unwritten, and one
//    that fails there keeps it (written back, or left on the device);
//  - clear and free drop it unwritten;
//  - a failed materialization returns its error, leaves the object as it was
//    and the value on the device, and a later read succeeds;
//  - eviction under the budget writes the least recently used value back
//    before dropping it; nothing is lost;
//  - 8 threads reading one object at once: one materialization;
//  - how a handle's values ended (written back or not) is its write-back
//    share (forgotten when a new object is made at its address), the
//    statistics count each write-back for its reader, and auto's prediction counts that share of a result's download
//    where the result would stay on the device;
//  - how many later calls found the copies of an object's last value, and
//    auto's purchase of an upload by likeness refused where they served none;
// and every byte the allocator handed out comes back.
#include "gcu_test.h"
#include "grbcuda.h"
#include "residency/gcu_residency.h"
#include "gcu_util.h"
#include "dispatch/gcu_cost.h"
#include "gcu_test_cost.h"
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static _Atomic long long out_bytes ;

static GrB_Info t_alloc (void *ctx, size_t bytes, void **p)
{
    (void) ctx ;
    *p = malloc (bytes ? bytes : 1) ;
    if (*p == NULL) return GrB_OUT_OF_MEMORY ;
    atomic_fetch_add (&out_bytes, (long long) bytes) ;
    return GrB_SUCCESS ;
}

static void t_free (void *ctx, void *p, size_t bytes)
{
    (void) ctx ;
    free (p) ;
    atomic_fetch_sub (&out_bytes, (long long) bytes) ;
}

static gcu_res_allocator talloc = { t_alloc, t_free, NULL, 1 << 30, "test" } ;

//------------------------------------------------------------------------------
// the producer: a new value (CSR, int64 values) as the handle's newest
//------------------------------------------------------------------------------

static _Atomic int n_mat ;          // materializer runs
static _Atomic int fail_next ;      // the next materializer run fails

// buf [0] row pointers (nrows+1), buf [1] column indices, buf [2] values,
// all uint64_t / int64_t; a vector is one column (nrows = its size)
static GrB_Info materialize_csr (const void *handle, gcu_res_entry *e)
{
    atomic_fetch_add (&n_mat, 1) ;
    if (atomic_exchange (&fail_next, 0)) return GrB_OUT_OF_MEMORY ;
    const gcu_res_data *d = gcu_residency_data (e) ;
    const GrB_Index m = d->nrows, nv = d->nvals ;
    GrB_Index *p = malloc ((m + 1) * 8), *j = malloc ((nv + 1) * 8) ;
    int64_t *x = malloc ((nv + 1) * 8) ;
    memcpy (p, d->buf [0], (m + 1) * 8) ;
    memcpy (j, d->buf [1], nv * 8) ;
    memcpy (x, d->buf [2], nv * 8) ;
    GrB_Info info ;
    if (d->layout == 2)
    {
        // a vector: the entries' indices are the column's row indices
        GrB_Vector v = (GrB_Vector) handle ;
        info = GrB_Vector_clear (v) ;
        if (info == GrB_SUCCESS) info = GxB_Vector_pack_CSC (v, &j, (void **) &x,
            (nv + 1) * 8, (nv + 1) * 8, false, nv, false, NULL) ;
    }
    else
    {
        // a matrix held by column is packed by row, then turned back
        GrB_Matrix C = (GrB_Matrix) handle ;
        int fmt = GxB_BY_ROW ;
        info = GxB_Matrix_Option_get (C, GxB_FORMAT, &fmt) ;
        if (info == GrB_SUCCESS) info = GrB_Matrix_clear (C) ;
        if (info == GrB_SUCCESS && fmt != GxB_BY_ROW) info = GxB_Matrix_Option_set (C, GxB_FORMAT, GxB_BY_ROW) ;
        if (info == GrB_SUCCESS) info = GxB_Matrix_pack_CSR (C, &p, &j, (void **) &x,
            (m + 1) * 8, (nv + 1) * 8, (nv + 1) * 8, false, false, NULL) ;
        if (info == GrB_SUCCESS && fmt != GxB_BY_ROW) info = GxB_Matrix_Option_set (C, GxB_FORMAT, fmt) ;
    }
    free (p) ; free (j) ; free (x) ;       // NULL once packed
    return info ;
}

// Makes the content of V (INT64, same shape as the handle's object) the
// newest value of h, as a GPU call would leave it. GrB_SUCCESS or the
// residency's status.
static GrB_Info produce (const void *h, GrB_Matrix V, bool vector)
{
    GrB_Index m, n, nv ;
    OK (GrB_Matrix_nrows (&m, V)) ;
    OK (GrB_Matrix_ncols (&n, V)) ;
    OK (GrB_Matrix_nvals (&nv, V)) ;
    GrB_Index *I = malloc ((nv + 1) * 8), *J = malloc ((nv + 1) * 8) ;
    int64_t *X = malloc ((nv + 1) * 8) ;
    GrB_Index got = nv ;
    // by row, sparse: the tuples come row by row, sorted
    GrB_Matrix R = NULL ;
    OK (GrB_Matrix_dup (&R, V)) ;
    OK (GxB_Matrix_Option_set (R, GxB_FORMAT, GxB_BY_ROW)) ;
    OK (GxB_Matrix_Option_set (R, GxB_SPARSITY_CONTROL, GxB_SPARSE)) ;
    OK (GrB_Matrix_extractTuples_INT64 (I, J, X, &got, R)) ;
    GrB_Matrix_free (&R) ;
    gcu_res_entry *e = NULL ;
    GrB_Info info = gcu_residency_begin (h, GCU_RES_CSR, &e) ;
    void *b [3] = { NULL, NULL, NULL } ;
    for (int k = 0 ; k < 3 && info == GrB_SUCCESS ; k++)
        info = gcu_residency_alloc (e, ((k == 0 ? m : nv) + 1) * 8, &b [k]) ;
    if (info == GrB_SUCCESS)
    {
        GrB_Index *p = b [0] ;
        memset (p, 0, (m + 1) * 8) ;
        for (GrB_Index k = 0 ; k < nv ; k++) p [I [k] + 1]++ ;
        for (GrB_Index i = 0 ; i < m ; i++) p [i + 1] += p [i] ;
        // a vector's entries: their row indices
        memcpy (b [1], vector ? I : J, nv * 8) ;
        memcpy (b [2], X, nv * 8) ;
        gcu_res_data *d = gcu_residency_data (e) ;
        d->nrows = m ; d->ncols = n ; d->nvals = nv ;
        d->idx_bits = 64 ; d->type_size = 8 ; d->type = GrB_INT64 ;
        d->layout = vector ? 2 : 1 ;
        info = gcu_residency_publish_newest (e, materialize_csr) ;
    }
    gcu_residency_unpin (e) ;
    free (I) ; free (J) ; free (X) ;
    return info ;
}

static GrB_Matrix rnd (GrB_Index m, GrB_Index n, double d, uint64_t *st)
{
    GrB_Matrix A = gcu_test_random_matrix (GrB_INT64, m, n, d, st) ;
    GrB_Matrix_wait (A, GrB_MATERIALIZE) ;
    return A ;
}

// equal content, read through the real SuiteSparse functions (no wrapper)
static bool same (GrB_Matrix A, GrB_Matrix B)
{
    return gcu_test_matrix_equal (A, B, 0, false, "newest") ;
}

static int mat_runs (void) { return atomic_load (&n_mat) ; }

static void stats (gcu_res_stats *s) { gcu_residency_stats (s) ; }

//------------------------------------------------------------------------------
// the cases
//------------------------------------------------------------------------------

static void test_reads (uint64_t *st)
{
    GrB_Matrix C = rnd (40, 30, 0.2, st), V = rnd (40, 30, 0.3, st) ;
    OK (produce (C, V, false)) ;
    gcu_res_stats s0, s1 ;
    stats (&s0) ;
    CHECK (s0.newest == 1, "one newest handle: %llu", (unsigned long long) s0.newest) ;
    // nvals and wait from the device
    const int r0 = mat_runs () ;
    GrB_Index nv = 0, vnv = 0 ;
    OK (GrB_Matrix_nvals (&nv, C)) ;
    OK (GrB_Matrix_nvals (&vnv, V)) ;
    OK (GrB_Matrix_wait (C, GrB_MATERIALIZE)) ;
    GrB_Index nr = 0 ;
    OK (GrB_Matrix_nrows (&nr, C)) ;
    CHECK (nv == vnv && nr == 40 && mat_runs () == r0, "nvals %llu (want %llu), nrows, wait "
        "without materializing (%d runs)", (unsigned long long) nv, (unsigned long long) vnv, mat_runs () - r0) ;
    // a reader: written back once, then both valid
    GrB_Index *I = malloc ((nv + 1) * 8), *J = malloc ((nv + 1) * 8) ;
    int64_t *X = malloc ((nv + 1) * 8) ;
    GrB_Index got = nv ;
    OK (GrB_Matrix_extractTuples_INT64 (I, J, X, &got, C)) ;
    CHECK (got == nv && mat_runs () == r0 + 1, "extractTuples: %llu entries, %d runs",
        (unsigned long long) got, mat_runs () - r0) ;
    CHECK (same (C, V), "C holds the device value after extractTuples") ;
    stats (&s1) ;
    CHECK (s1.newest == 0 && s1.materializations == s0.materializations + 1
        && s1.entries == s0.entries, "both valid: the copy stays (newest %llu, entries %zu -> %zu)",
        (unsigned long long) s1.newest, s0.entries, s1.entries) ;
    int64_t x = 0 ;
    OK (GrB_Matrix_extractElement_INT64 (&x, C, I [0], J [0])) ;
    CHECK (x == X [0] && mat_runs () == r0 + 1, "a second read: no second materialization") ;
    free (I) ; free (J) ; free (X) ;

    // other readers, each on a fresh newest value
    GrB_Matrix D = NULL ;
    OK (produce (C, V, false)) ;
    OK (GrB_Matrix_dup (&D, C)) ;
    CHECK (same (D, V), "dup of a newest matrix") ;
    GrB_Matrix_free (&D) ;
    OK (produce (C, V, false)) ;
    int64_t sum = 0, want = 0 ;
    OK (GrB_Matrix_reduce_INT64 (&sum, NULL, GrB_PLUS_MONOID_INT64, C, NULL)) ;
    OK (GrB_Matrix_reduce_INT64 (&want, NULL, GrB_PLUS_MONOID_INT64, V, NULL)) ;
    CHECK (sum == want, "reduce of a newest matrix: %lld vs %lld", (long long) sum, (long long) want) ;
    OK (produce (C, V, false)) ;
    int status = 0, vstatus = 0 ;
    const int r1 = mat_runs () ;
    OK (GxB_Matrix_Option_get (C, GxB_FORMAT, &status)) ;
    CHECK (mat_runs () == r1, "the format is a setting: no materialization") ;
    OK (GxB_Matrix_Option_get (C, GxB_SPARSITY_STATUS, &status)) ;
    OK (GxB_Matrix_Option_get (V, GxB_SPARSITY_STATUS, &vstatus)) ;
    CHECK (mat_runs () == r1 + 1 && status != 0, "the sparsity status materializes (%d)", status) ;
    // an iterator reads the arrays directly
    OK (produce (C, V, false)) ;
    GxB_Iterator it = NULL ;
    OK (GxB_Iterator_new (&it)) ;
    int fmt = GxB_BY_ROW ;
    OK (GxB_Matrix_Option_get (C, GxB_FORMAT, &fmt)) ;
    if (fmt == GxB_BY_ROW) OK (GxB_rowIterator_attach (it, C, NULL)) ;
    else OK (GxB_colIterator_attach (it, C, NULL)) ;
    CHECK (same (C, V), "an iterator attached to a newest matrix sees its value") ;
    GxB_Iterator_free (&it) ;
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&V) ;
}

static void test_host_path (uint64_t *st)
{
    // GrB_mxm on the host reads a newest input, mask and output
    GrB_Matrix A = rnd (30, 30, 0.2, st), VA = rnd (30, 30, 0.2, st) ;
    GrB_Matrix M = rnd (30, 30, 0.5, st), VM = rnd (30, 30, 0.5, st) ;
    GrB_Matrix C = rnd (30, 30, 0.1, st), VC = rnd (30, 30, 0.1, st) ;
    GrB_Matrix C2 = NULL, R = NULL ;
    OK (GrB_Matrix_dup (&C2, VC)) ;
    OK (produce (A, VA, false)) ;
    OK (produce (M, VM, false)) ;
    OK (produce (C, VC, false)) ;
    OK (GrB_mxm (C, M, GrB_PLUS_INT64, GrB_PLUS_TIMES_SEMIRING_INT64, A, A, NULL)) ;
    // the oracle: SuiteSparse on the values themselves
    typedef GrB_Info (*mxm_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
        const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
    mxm_t real = (mxm_t) gcu_test_real ("GrB_mxm") ;
    OK (real (C2, VM, GrB_PLUS_INT64, GrB_PLUS_TIMES_SEMIRING_INT64, VA, VA, NULL)) ;
    CHECK (same (C, C2), "host-path GrB_mxm over newest A, M and C") ;
    // a mutator: written back first, then changed
    OK (produce (C, VC, false)) ;
    OK (GrB_Matrix_setElement_INT64 (C, 77, 3, 4)) ;
    OK (GrB_Matrix_dup (&R, VC)) ;
    OK (GrB_Matrix_setElement_INT64 (R, 77, 3, 4)) ;
    CHECK (same (C, R), "setElement on a newest matrix") ;
    GrB_Matrix_free (&R) ;
    // assign into a newest matrix through a mask that is newest too
    OK (produce (C, VC, false)) ;
    OK (produce (M, VM, false)) ;
    OK (GrB_Matrix_assign_INT64 (C, M, NULL, 5, GrB_ALL, 30, GrB_ALL, 30, NULL)) ;
    OK (GrB_Matrix_dup (&R, VC)) ;
    OK (GrB_Matrix_assign_INT64 (R, VM, NULL, 5, GrB_ALL, 30, GrB_ALL, 30, NULL)) ;
    CHECK (same (C, R), "masked assign on a newest matrix with a newest mask") ;
    GrB_Matrix_free (&R) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&VA) ; GrB_Matrix_free (&M) ;
    GrB_Matrix_free (&VM) ; GrB_Matrix_free (&C) ; GrB_Matrix_free (&VC) ;
    GrB_Matrix_free (&C2) ;
}

// an array of inputs (GxB_Matrix_concat's tiles): each written back
static void test_concat (uint64_t *st)
{
    GrB_Matrix T [2], V [2], C = NULL, R = NULL ;
    for (int k = 0 ; k < 2 ; k++)
    {
        T [k] = rnd (10, 12, 0.2, st) ;
        V [k] = rnd (10, 12, 0.3, st) ;
        OK (produce (T [k], V [k], false)) ;
    }
    OK (GrB_Matrix_new (&C, GrB_INT64, 20, 12)) ;
    OK (GrB_Matrix_new (&R, GrB_INT64, 20, 12)) ;
    OK (GxB_Matrix_concat (C, T, 2, 1, NULL)) ;
    OK (GxB_Matrix_concat (R, V, 2, 1, NULL)) ;
    CHECK (same (C, R), "concat of newest tiles") ;
    for (int k = 0 ; k < 2 ; k++) { GrB_Matrix_free (&T [k]) ; GrB_Matrix_free (&V [k]) ; }
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&R) ;
}

static void test_drop (uint64_t *st)
{
    GrB_Matrix C = rnd (20, 20, 0.2, st), V = rnd (20, 20, 0.2, st) ;
    OK (produce (C, V, false)) ;
    const int r0 = mat_runs () ;
    gcu_res_stats s0, s1 ;
    stats (&s0) ;
    OK (GrB_Matrix_clear (C)) ;
    GrB_Index nv = 1 ;
    OK (GrB_Matrix_nvals (&nv, C)) ;
    stats (&s1) ;
    CHECK (nv == 0 && mat_runs () == r0 && s1.newest == 0 && s1.discards == s0.discards + 1,
        "clear drops the newest value unwritten (nvals %llu)", (unsigned long long) nv) ;
    OK (produce (C, V, false)) ;
    GrB_Matrix_free (&C) ;
    stats (&s1) ;
    CHECK (mat_runs () == r0 && s1.newest == 0, "free drops it unwritten") ;
    // a newer value replaces an older one unwritten
    C = rnd (20, 20, 0.2, st) ;
    GrB_Matrix W = rnd (20, 20, 0.3, st) ;
    OK (produce (C, V, false)) ;
    OK (produce (C, W, false)) ;
    CHECK (same (C, W) && mat_runs () == r0 + 1, "the newer value wins") ;
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&V) ; GrB_Matrix_free (&W) ;
}

static void test_failure (uint64_t *st)
{
    GrB_Matrix C = rnd (20, 20, 0.2, st), V = rnd (20, 20, 0.2, st), C0 = NULL ;
    OK (GrB_Matrix_dup (&C0, C)) ;
    OK (produce (C, V, false)) ;
    atomic_store (&fail_next, 1) ;
    int64_t x = 0 ;
    GrB_Info info = GrB_Matrix_extractElement_INT64 (&x, C, 0, 0) ;
    gcu_res_stats s ;
    stats (&s) ;
    CHECK (info == GrB_OUT_OF_MEMORY && s.newest == 1 && s.materialize_failures > 0,
        "a failed materialization returns its error (%d) and keeps the value", (int) info) ;
    // the host path of an operation fails the same way, nothing computed
    GrB_Matrix D = rnd (20, 20, 0.2, st), D0 = NULL ;
    OK (GrB_Matrix_dup (&D0, D)) ;
    atomic_store (&fail_next, 1) ;
    info = GrB_mxm (D, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_INT64, C, C, NULL) ;
    CHECK (info == GrB_OUT_OF_MEMORY && same (D, D0), "GrB_mxm with an input that cannot "
        "be written back: %d, output unchanged", (int) info) ;
    CHECK (same (C, V), "a later read succeeds") ;
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&V) ; GrB_Matrix_free (&C0) ;
    GrB_Matrix_free (&D) ; GrB_Matrix_free (&D0) ;
}

static void test_eviction (uint64_t *st)
{
    // three newest values of ~8 KB each in an 18 KB budget: the third's
    // build writes the first back before evicting it
    enum { N = 3 } ;
    GrB_Matrix C [N], V [N] ;
    OK (gcu_residency_set_budget (18000)) ;
    const int r0 = mat_runs () ;
    for (int k = 0 ; k < N ; k++)
    {
        C [k] = rnd (50, 50, 0.0, st) ;
        V [k] = rnd (50, 50, 0.2, st) ;     // ~500 entries: ~8.4 KB of CSR
        OK (produce (C [k], V [k], false)) ;
    }
    gcu_res_stats s ;
    stats (&s) ;
    CHECK (mat_runs () >= r0 + 1 && s.bytes_used <= 18000, "eviction wrote back %d "
        "newest value(s) before dropping them (%zu bytes used)", mat_runs () - r0, s.bytes_used) ;
    for (int k = 0 ; k < N ; k++)
    {
        CHECK (same (C [k], V [k]), "value %d survives eviction", k) ;
        GrB_Matrix_free (&C [k]) ; GrB_Matrix_free (&V [k]) ;
    }
    OK (gcu_residency_set_budget (1 << 30)) ;
}

static void test_vector (uint64_t *st)
{
    GrB_Vector v = gcu_test_random_vector (GrB_INT64, 50, 0.3, st), r = NULL ;
    GrB_Matrix V = rnd (50, 1, 0.4, st) ;
    OK (produce (v, V, true)) ;
    GrB_Index nv = 0, vnv = 0 ;
    OK (GrB_Vector_nvals (&nv, v)) ;
    OK (GrB_Matrix_nvals (&vnv, V)) ;
    OK (GrB_Vector_new (&r, GrB_INT64, 50)) ;
    OK (GrB_Col_extract (r, NULL, NULL, V, GrB_ALL, 50, 0, NULL)) ;
    CHECK (nv == vnv && gcu_test_vector_equal (v, r, 0, false, "vector"), "a newest vector") ;
    GrB_Vector_free (&v) ; GrB_Vector_free (&r) ; GrB_Matrix_free (&V) ;
}

// A host-path call that replaces C whole and whose result's status cannot
// depend on how C was held (a product with no mask and no accum, C none of
// its inputs; a scalar assigned to every entry) does not write a
// device-newest C back first: the value is dropped once SuiteSparse has
// succeeded. Any other writes it back (a mask, GrB_REPLACE or not; an
// accum; C an input; an element-wise call, an apply). If the host fails, C
// keeps its value (written back; or, where the write-back fails, kept on
// the device and the write-back's error returned).
typedef GrB_Info (*mxm_fn) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
typedef GrB_Info (*union_fn) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_BinaryOp, const GrB_Matrix, const GrB_Scalar, const GrB_Matrix,
    const GrB_Scalar, const GrB_Descriptor) ;

static void test_replaced (uint64_t *st)
{
    const GrB_Index n = 30 ;
    GrB_Matrix A = rnd (n, n, 0.2, st), M = rnd (n, n, 0.4, st) ;
    GrB_Matrix C = rnd (n, n, 0.1, st), VC = rnd (n, n, 0.3, st), R = NULL ;
    mxm_fn real_mxm = (mxm_fn) gcu_test_real ("GrB_mxm") ;
    const GrB_Semiring sr = GrB_PLUS_TIMES_SEMIRING_INT64 ;
    // mask, accum, descriptor, C as the first input; whether C is written back
    struct { bool mask, accum ; GrB_Descriptor d ; bool c_in, written ; const char *what ; } k [] = {
        { false, false, NULL, false, false, "C = A*A" },
        { false, false, GrB_DESC_T0, false, false, "C = A'*A" },
        { true, false, GrB_DESC_R, false, true, "C<M,replace> = A*A" },
        { true, false, GrB_DESC_RSC, false, true, "C<!struct(M),replace> = A*A" },
        { true, false, NULL, false, true, "C<M> = A*A" },
        { false, true, NULL, false, true, "C += A*A" },
        { false, false, NULL, true, true, "C = C*A" } } ;
    for (size_t i = 0 ; i < sizeof (k) / sizeof (k [0]) ; i++)
    {
        OK (produce (C, VC, false)) ;
        gcu_res_stats s0, s1 ;
        stats (&s0) ;
        const int r0 = mat_runs () ;
        const GrB_Matrix mask = k [i].mask ? M : NULL ;
        const GrB_BinaryOp accum = k [i].accum ? GrB_PLUS_INT64 : NULL ;
        OK (GrB_mxm (C, mask, accum, sr, k [i].c_in ? C : A, A, k [i].d)) ;
        stats (&s1) ;
        OK (GrB_Matrix_dup (&R, VC)) ;
        OK (real_mxm (R, mask, accum, sr, k [i].c_in ? R : A, A, k [i].d)) ;
        CHECK (same (C, R), "%s over a device-newest C", k [i].what) ;
        CHECK (mat_runs () == r0 + (k [i].written ? 1 : 0) && s1.newest == 0
            && s1.discards == s0.discards + (k [i].written ? 0 : 1),
            "%s: C %s (%d write-backs, %llu discards)", k [i].what,
            k [i].written ? "written back" : "dropped unwritten", mat_runs () - r0,
            (unsigned long long) (s1.discards - s0.discards)) ;
        GrB_Matrix_free (&R) ;
    }

    // the host fails (eWiseUnion with an empty alpha: GrB_EMPTY_OBJECT) on
    // a C it would replace (written back first): C keeps its value and
    // SuiteSparse's message
    union_fn real_union = (union_fn) gcu_test_real ("GxB_Matrix_eWiseUnion") ;
    GrB_Scalar empty = NULL, one = NULL ;
    OK (GrB_Scalar_new (&empty, GrB_INT64)) ;
    OK (GrB_Scalar_new (&one, GrB_INT64)) ;
    OK (GrB_Scalar_setElement_INT64 (one, 1)) ;
    OK (produce (C, VC, false)) ;
    int r0 = mat_runs () ;
    GrB_Info info = GxB_Matrix_eWiseUnion (C, NULL, NULL, GrB_PLUS_INT64, A, empty, A, one, NULL) ;
    OK (GrB_Matrix_dup (&R, VC)) ;
    GrB_Info want = real_union (R, NULL, NULL, GrB_PLUS_INT64, A, empty, A, one, NULL) ;
    const char *msg = NULL, *wmsg = NULL ;
    OK (GrB_Matrix_error (&msg, C)) ;
    OK (GrB_Matrix_error (&wmsg, R)) ;
    CHECK (want != GrB_SUCCESS && info == want && same (C, VC) && mat_runs () == r0 + 1,
        "a failed host call on a C written back first: %d (SuiteSparse %d), C kept (%d write-backs)",
        (int) info, (int) want, mat_runs () - r0) ;
    CHECK (msg != NULL && wmsg != NULL && strcmp (msg, wmsg) == 0, "C's error message is "
        "SuiteSparse's: \"%s\" against \"%s\"", msg ? msg : "(null)", wmsg ? wmsg : "(null)") ;
    GrB_Matrix_free (&R) ;
    // and where the write-back fails, the call returns its error and the
    // value stays on the device
    OK (produce (C, VC, false)) ;
    atomic_store (&fail_next, 1) ;
    info = GxB_Matrix_eWiseUnion (C, NULL, NULL, GrB_PLUS_INT64, A, empty, A, one, NULL) ;
    gcu_res_stats s ;
    stats (&s) ;
    CHECK (info == GrB_OUT_OF_MEMORY && s.newest == 1, "the call's write-back of C failed: %d, C "
        "still device newest (%llu)", (int) info, (unsigned long long) s.newest) ;
    CHECK (same (C, VC), "C's device value read later") ;
    GrB_Scalar_free (&empty) ; GrB_Scalar_free (&one) ;

    // vectors: w = 7 over GrB_ALL replaces w; w = -u (an apply) and w<m> = 7
    // write it back first
    GrB_Vector w = gcu_test_random_vector (GrB_INT64, n, 0.3, st) ;
    GrB_Vector u = gcu_test_random_vector (GrB_INT64, n, 0.5, st) ;
    GrB_Vector m = gcu_test_random_vector (GrB_INT64, n, 0.5, st), r = NULL ;
    GrB_Matrix V = rnd (n, 1, 0.4, st) ;
    for (int form = 0 ; form < 3 ; form++)
    {
        OK (produce (w, V, true)) ;
        r0 = mat_runs () ;
        OK (GrB_Vector_new (&r, GrB_INT64, n)) ;
        OK (GrB_Col_extract (r, NULL, NULL, V, GrB_ALL, n, 0, NULL)) ;
        const GrB_Vector mask = form == 2 ? m : NULL ;
        if (form == 1)
        {
            OK (GrB_Vector_apply (w, NULL, NULL, GrB_AINV_INT64, u, NULL)) ;
            OK (GrB_Vector_apply (r, NULL, NULL, GrB_AINV_INT64, u, NULL)) ;
        }
        else
        {
            OK (GrB_Vector_assign_INT64 (w, mask, NULL, 7, GrB_ALL, n, NULL)) ;
            OK (GrB_Vector_assign_INT64 (r, mask, NULL, 7, GrB_ALL, n, NULL)) ;
        }
        CHECK (gcu_test_vector_equal (w, r, 0, false, "replaced vector")
            && mat_runs () == r0 + (form != 0 ? 1 : 0), "vector form %d over a device-newest w "
            "(%d write-backs)", form, mat_runs () - r0) ;
        GrB_Vector_free (&r) ;
    }
    GrB_Vector_free (&w) ; GrB_Vector_free (&u) ; GrB_Vector_free (&m) ; GrB_Matrix_free (&V) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&M) ; GrB_Matrix_free (&C) ; GrB_Matrix_free (&VC) ;
}

typedef struct { GrB_Matrix C ; GrB_Index nv ; bool ok ; } reader_t ;

static void *reader (void *arg)
{
    reader_t *r = arg ;
    GrB_Index *I = malloc ((r->nv + 1) * 8), *J = malloc ((r->nv + 1) * 8) ;
    int64_t *X = malloc ((r->nv + 1) * 8) ;
    GrB_Index got = r->nv ;
    r->ok = GrB_Matrix_extractTuples_INT64 (I, J, X, &got, r->C) == GrB_SUCCESS && got == r->nv ;
    free (I) ; free (J) ; free (X) ;
    return NULL ;
}

static void test_threads (uint64_t *st)
{
    enum { T = 8 } ;
    GrB_Matrix C = rnd (200, 200, 0.01, st), V = rnd (200, 200, 0.2, st) ;
    GrB_Index nv ;
    OK (GrB_Matrix_nvals (&nv, V)) ;
    OK (produce (C, V, false)) ;
    const int r0 = mat_runs () ;
    pthread_t th [T] ;
    reader_t rd [T] ;
    for (int t = 0 ; t < T ; t++)
    {
        rd [t] = (reader_t) { C, nv, false } ;
        pthread_create (&th [t], NULL, reader, &rd [t]) ;
    }
    bool ok = true ;
    for (int t = 0 ; t < T ; t++) { pthread_join (th [t], NULL) ; ok = ok && rd [t].ok ; }
    CHECK (ok && mat_runs () == r0 + 1 && same (C, V), "%d threads reading a newest matrix: "
        "%d materialization(s)", T, mat_runs () - r0) ;
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&V) ;
}

// The fate of C's device values (written back or not) and auto's charge of
// its download where a result would stay on the device (predict.c). Run
// first: no earlier handle at C's address has a history.
static double predicted_gpu (GrB_Matrix C, GrB_Matrix A, GrB_Matrix B, double *share)
{
    gcu_call c ;
    memset (&c, 0, sizeof (c)) ;
    c.op = GCU_OP_MXM ;
    c.C = C ; c.A = A ; c.B = B ;
    c.c_rows = c.c_cols = c.a_rows = c.a_cols = c.b_rows = c.b_cols = 20 ;
    c.a_nvals = c.b_nvals = 80 ;
    c.work = 1e5 ;
    c.down_share = -1 ;
    (void) gcu_predict (&c, gcu_cost_current (NULL)) ;
    *share = c.down_share ;
    return c.gpu_s ;
}

static void test_fate (uint64_t *st)
{
    GrB_Matrix C = rnd (20, 20, 0.2, st), V = rnd (20, 20, 0.2, st), A = rnd (20, 20, 0.2, st) ;
    GrB_Index nv ;
    CHECK (gcu_residency_writeback_share (C, 0) == 0, "a handle never device newest: share 0") ;
    OK (produce (A, V, false)) ;        // a device-newest operand: the chain's case
    double sh, g0 = predicted_gpu (C, A, V, &sh) ;
    CHECK (sh == 0, "no history: the result's download is not counted (%g)", sh) ;
    // written back: the share is 1, and the download counts in full
    OK (produce (C, V, false)) ;
    OK (GrB_Matrix_extractTuples_INT64 (NULL, NULL, NULL, &nv, C)) ;
    CHECK (gcu_residency_writeback_share (C, 0) == 1, "read on the host: share %g",
        gcu_residency_writeback_share (C, 0)) ;
    // counted for its reader, and printed so
    gcu_res_stats rs ;
    stats (&rs) ;
    CHECK (rs.readers [0].why != NULL && strcmp (rs.readers [0].why, "GrB_Matrix_extractTuples_INT64") == 0
        && rs.readers [0].n == 1 && rs.readers [0].bytes > 0 && rs.readers [1].why == NULL,
        "the write-back's reader: %s", rs.readers [0].why ? rs.readers [0].why : "none") ;
    FILE *f = tmpfile () ;
    char text [4096] = "" ;
    if (f != NULL)
    {
        grbcuda_stats_print (f) ;
        rewind (f) ;
        text [fread (text, 1, sizeof (text) - 1, f)] = '\0' ;
        fclose (f) ;
    }
    CHECK (strstr (text, "written back for: GrB_Matrix_extractTuples_INT64 1 (") != NULL,
        "the statistics name the reader:\n%s", text) ;
    double g1 = predicted_gpu (C, A, V, &sh) ;
    CHECK (sh == 1 && g1 > g0, "share 1: the GPU's prediction %g ms over %g ms", 1e3 * g1, 1e3 * g0) ;
    // replaced on the device, then cleared: two values never read
    OK (produce (C, V, false)) ;
    OK (produce (C, V, false)) ;
    OK (GrB_Matrix_clear (C)) ;
    const double want = 0.75 * 0.75 ;
    CHECK (fabs (gcu_residency_writeback_share (C, 0) - want) < 1e-6, "two unread values: share %g, want %g",
        gcu_residency_writeback_share (C, 0), want) ;
    double g2 = predicted_gpu (C, A, V, &sh) ;
    CHECK (fabs (sh - want) < 1e-6 && g2 > g0 && g2 < g1, "share %g: %g ms between %g and %g",
        sh, 1e3 * g2, 1e3 * g0, 1e3 * g1) ;
    // a new object at a freed one's address starts with no history: made
    // through the wrappers where the allocator hands the address back (it
    // usually does at once), and the creators' hook itself in any case
    const void *old = C ;
    GrB_Matrix_free (&C) ;
    CHECK (gcu_residency_writeback_share (old, 0) > 0, "a freed object's history stays until one is made there") ;
    GrB_Matrix D = NULL ;
    OK (GrB_Matrix_new (&D, GrB_INT64, 20, 20)) ;
    if ((const void *) D == old)
        CHECK (gcu_residency_writeback_share (D, 0) == 0, "GrB_Matrix_new at a freed object's address: share %g",
            gcu_residency_writeback_share (D, 0)) ;
    else gcu_residency_born (old) ;
    CHECK (gcu_residency_writeback_share (old, 0) == 0, "born: the address's history forgotten (%s)",
        (const void *) D == old ? "GrB_Matrix_new reused it" : "called directly") ;
    OK (GrB_Matrix_clear (A)) ;
    GrB_Matrix_free (&D) ; GrB_Matrix_free (&V) ; GrB_Matrix_free (&A) ;
}

// A handle never seen takes the write-back share of its call's kind (the
// site the dispatch sets around a GPU run): LAGraph makes some results anew
// in each call. The handle's own history, once it has one, comes first.
static void test_site_fate (uint64_t *st)
{
    GrB_Matrix C = rnd (20, 20, 0.2, st), D = rnd (20, 20, 0.2, st), V = rnd (20, 20, 0.2, st) ;
    GrB_Index nv ;
    const uint64_t site = 0x5eed0001, other = 0x5eed0003 ;
    CHECK (gcu_residency_writeback_share (D, site) == 0, "a site never seen: share 0") ;
    // a value of kind `site`, read on the host
    CHECK (gcu_residency_site_swap (site) == 0, "no site outside a GPU run") ;
    OK (produce (C, V, false)) ;
    CHECK (gcu_residency_site_swap (0) == site, "the site swapped back") ;
    OK (GrB_Matrix_extractTuples_INT64 (NULL, NULL, NULL, &nv, C)) ;
    CHECK (gcu_residency_writeback_share (D, site) == 1, "a new handle of that kind: share %g",
        gcu_residency_writeback_share (D, site)) ;
    CHECK (gcu_residency_writeback_share (D, other) == 0 && gcu_residency_writeback_share (D, 0) == 0,
        "another kind, or none: share 0") ;
    // D's own value of that kind, dropped unwritten: D's history wins
    (void) gcu_residency_site_swap (site) ;
    OK (produce (D, V, false)) ;
    (void) gcu_residency_site_swap (0) ;
    OK (GrB_Matrix_clear (D)) ;
    CHECK (gcu_residency_writeback_share (D, site) == 0, "D's own history first: share %g",
        gcu_residency_writeback_share (D, site)) ;
    // the kind's mean moved by a quarter toward D's end
    GrB_Matrix E = rnd (20, 20, 0.2, st) ;
    CHECK (fabs (gcu_residency_writeback_share (E, site) - 0.75) < 1e-6, "the kind's mean: %g, want 0.75",
        gcu_residency_writeback_share (E, site)) ;
    // a value published without a site teaches no kind
    OK (produce (E, V, false)) ;
    OK (GrB_Matrix_extractTuples_INT64 (NULL, NULL, NULL, &nv, E)) ;
    CHECK (gcu_residency_writeback_share (V, other) == 0
        && fabs (gcu_residency_writeback_share (V, site) - 0.75) < 1e-6, "no site: the kinds unchanged") ;
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&D) ; GrB_Matrix_free (&E) ; GrB_Matrix_free (&V) ;
}

// The lives of uploaded copies (gcu_residency_copy_hits) and auto's
// purchase of an upload by likeness (predict.c): a copy of a matrix's value
// found by 3 later lookups (its CSC by 1) ended as one life of 3; a matrix
// like one whose rent paid (same dimensions, entries, type) is bought at
// once if it is new or its last copy served later calls, but not if that
// copy served none, nor where the host's measured loss would take more than
// a few calls to pay for the upload: there the rent must pay.
static void copy_of (GrB_Matrix A, int kind, int lookups)
{
    gcu_res_entry *e = NULL ;
    void *b = NULL ;
    OK (gcu_residency_begin (A, kind, &e)) ;
    OK (gcu_residency_alloc (e, 64, &b)) ;
    OK (gcu_residency_publish (e)) ;
    gcu_residency_unpin (e) ;
    for (int k = 0 ; k < lookups ; k++)
    {
        OK (gcu_residency_lookup (A, kind, &e)) ;
        gcu_residency_unpin (e) ;
    }
}

// a product C = A*B the GPU wins only with A there (A's upload ~14 ms,
// the host 10 ms, the GPU 0.6 ms with A there), A's rent paid if rent:
// bought?
static bool bought_call (GrB_Matrix C, GrB_Matrix A, GrB_Matrix B, bool rent, gcu_call *out)
{
    gcu_call c ;
    memset (&c, 0, sizeof (c)) ;
    c.op = GCU_OP_MXM ;
    c.C = C ; c.A = A ; c.B = B ;
    c.c_rows = c.c_cols = c.a_rows = c.a_cols = c.b_rows = c.b_cols = 4096 ;
    c.a_nvals = 10000000 ;
    c.b_nvals = 80 ;
    c.work = 1.4e6 ;
    c.checked = true ;
    c.down_share = -1 ;
    if (rent)
    {
        (void) gcu_cost_amortized (A, c.a_nvals, 1e9) ;
        gcu_cost_amortize_add (A, c.a_nvals, 1.0) ;
    }
    const bool gpu = gcu_predict (&c, gcu_cost_current (NULL)) ;
    *out = c ;
    return gpu && c.rent_paid ;
}

static bool bought (GrB_Matrix C, GrB_Matrix A, GrB_Matrix B, bool rent)
{
    gcu_call c ;
    return bought_call (C, A, B, rent, &c) ;
}

// the host's time of that product measured on a repeat (as the dispatch
// keeps it once the host ran one)
static void host_ran (GrB_Matrix C, GrB_Matrix A, GrB_Matrix B, double seconds)
{
    gcu_call c ;
    (void) bought_call (C, A, B, false, &c) ;
    CHECK (c.repeat_key != 0, "a product has a repeat key") ;
    gcu_cost_repeat_put (c.repeat_key, seconds) ;
}

static void test_lives (uint64_t *st)
{
    // (A's address may be an earlier object's: its copies' lives are kept)
    static int never ;
    CHECK (gcu_residency_copy_hits (&never) == -1, "no copy ended: -1") ;
    GrB_Matrix A = rnd (20, 20, 0.2, st), G = rnd (20, 20, 0.2, st) ;
    GrB_Matrix B = rnd (20, 20, 0.2, st), C = rnd (20, 20, 0.2, st) ;
    // F at an address no copy's life is known for (earlier tests' objects
    // were freed; the ones refused are held until the end)
    GrB_Matrix F = NULL, used [16] = { NULL } ;
    int nused = 0 ;
    while ((F = rnd (20, 20, 0.2, st)), gcu_residency_copy_hits (F) != -1 && nused < 16) used [nused++] = F ;
    copy_of (A, GCU_RES_CSR, 3) ;
    copy_of (A, GCU_RES_CSC, 1) ;
    gcu_residency_invalidate (A) ;
    CHECK (gcu_residency_copy_hits (A) == 3, "a value's copies found 3 times: %g",
        gcu_residency_copy_hits (A)) ;
    copy_of (G, GCU_RES_CSR, 0) ;
    gcu_residency_invalidate (G) ;
    CHECK (gcu_residency_copy_hits (G) == 0, "a copy that served no later call: %g",
        gcu_residency_copy_hits (G)) ;
    gcu_cost_forget () ;
    gcu_cost_amortize_reset () ;
    CHECK (!bought (C, F, B, false), "no rent paid, no matrix like it: not bought") ;
    CHECK (bought (C, F, B, true), "its rent paid: bought") ;
    const double f_hits = gcu_residency_copy_hits (F) ;
    CHECK (f_hits == -1 && bought (C, F, B, false), "a new matrix like it (%g): bought at once", f_hits) ;
    CHECK (!bought (C, A, B, false), "one like it whose copies served 3 calls, the host's time "
        "of the product not measured yet: not bought by likeness") ;
    host_ran (C, A, B, 0.0005) ;
    CHECK (!bought (C, A, B, false), "the host measured faster than the GPU with A there: not bought") ;
    host_ran (C, A, B, 0.002) ;
    CHECK (!bought (C, A, B, false), "the host measured 2 ms: A's upload (~14 ms) paid back by "
        "no fewer than 10 calls' loss, not within LIKE_CALLS: not bought by likeness") ;
    host_ran (C, A, B, 0.01) ;
    CHECK (bought (C, A, B, false), "one like it whose copies served 3 calls, the host measured "
        "10 ms: bought at once") ;
    CHECK (!bought (C, G, B, false), "one like it whose copy served none: not bought by likeness") ;
    CHECK (bought (C, G, B, true), "its own rent paid: bought") ;
    gcu_cost_amortize_reset () ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&F) ; GrB_Matrix_free (&G) ;
    GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    for (int k = 0 ; k < nused ; k++) GrB_Matrix_free (&used [k]) ;
}

// a kind's first run on the GPU rented like an upload (predict.c's
// upload_pays): A and B on the device, the host 10 ms, the GPU 0.1 ms and
// a first run of 50 ms: the host, the rent keyed by the kind (an odd key,
// no object's address); once the host's losses reach the first run, the
// GPU; once the kind has run there, the GPU without a rent
static void first_run_rent (uint64_t *st)
{
    GrB_Matrix A = rnd (20, 20, 0.2, st), B = rnd (20, 20, 0.2, st), C = rnd (20, 20, 0.2, st) ;
    copy_of (A, GCU_RES_CSR, 0) ;
    copy_of (B, GCU_RES_CSR, 0) ;
    char text [2048] ;
    (void) gcu_test_cost_text (text, sizeof (text), "margin 1.5\nh2d 1e10\nd2h 2e10\n"
        "cuda_start 0.1\njit_compile 1\nwait_factor 4\nfirst_run 0.05\n",
        "host_fixed=1e-2 host_rate=1e15 gpu_fixed=1e-4 gpu_rate=1e15\n") ;
    OK (grbcuda_set_cost_model (text)) ;
    gcu_cost_forget () ;
    gcu_cost_amortize_reset () ;
    gcu_call c ;
    memset (&c, 0, sizeof (c)) ;
    c.op = GCU_OP_MXM ;
    c.C = C ; c.A = A ; c.B = B ;
    c.c_rows = c.c_cols = c.a_rows = c.a_cols = c.b_rows = c.b_cols = 20 ;
    (void) GrB_Matrix_nvals (&c.a_nvals, A) ;
    (void) GrB_Matrix_nvals (&c.b_nvals, B) ;
    c.work = 100 ;
    c.checked = true ;
    c.down_share = -1 ;
    const gcu_cost_table *t = gcu_cost_current (NULL) ;
    bool gpu = gcu_predict (&c, t) ;
    const void *key = (const void *) (uintptr_t) gcu_cost_site_key (&c) ;
    CHECK (!gpu && !c.rent_paid && c.rent_key == key && ((uintptr_t) key & 1) && c.first_s == 0.05,
        "the first run not paid: host, rented by the kind (%p, first %g)", c.rent_key, c.first_s) ;
    gcu_cost_amortize_add (key, 0, 0.06) ;
    gpu = gcu_predict (&c, t) ;
    CHECK (gpu && c.rent_paid && c.note != NULL && strstr (c.note, "first run") != NULL,
        "the host's losses paid for it: the GPU (%s)", c.note != NULL ? c.note : "no note") ;
    gcu_cost_first_ran (gcu_cost_site_key (&c)) ;
    c.rent_paid = false ;
    c.rent_key = NULL ;
    gpu = gcu_predict (&c, t) ;
    CHECK (gpu && !c.rent_paid && c.rent_key == NULL && c.first_s == 0, "run before: the GPU, no rent") ;
    OK (grbcuda_set_cost_model (NULL)) ;
    gcu_cost_amortize_reset () ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    gcu_test_types_init () ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_HOST)) ;     // no GPU start: our allocator stays
    OK (gcu_residency_set_allocator (&talloc)) ;
    OK (gcu_residency_set_budget (1 << 30)) ;
    uint64_t st = 42 ;
    test_fate (&st) ;
    test_site_fate (&st) ;
    test_reads (&st) ;
    test_host_path (&st) ;
    test_concat (&st) ;
    test_drop (&st) ;
    test_failure (&st) ;
    test_eviction (&st) ;
    test_vector (&st) ;
    test_replaced (&st) ;
    test_lives (&st) ;
    first_run_rent (&st) ;
    test_threads (&st) ;
    gcu_residency_clear_all () ;
    gcu_res_stats s ;
    stats (&s) ;
    CHECK (s.newest == 0 && atomic_load (&out_bytes) == 0, "nothing left: %llu newest, %lld bytes",
        (unsigned long long) s.newest, (long long) atomic_load (&out_bytes)) ;
    OK (gcu_residency_set_allocator (NULL)) ;
    GrB_finalize () ;
    return gcu_test_report ("test_newest") ;
}
