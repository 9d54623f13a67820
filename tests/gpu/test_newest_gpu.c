// GRBCUDA_TEST_INTERNAL
// test_newest_gpu.c — GPU results left on the device as their object's newest
// value (DESIGN §3), against SuiteSparse:
//  (a) C = A*B on the GPU stays on the device (no download in the call), its
//      nvals and extractElement answer from the device, a second product
//      reading it uses the device copy (no materialization), and reading it (extractTuples)
//      writes SuiteSparse's answer into C, for many semirings, types, shapes
//      and C formats; GRBCUDA_KEEP_RESULTS off writes back in the call;
//      the masked families' C<M> = A*B and C<M> = A*B' into an empty C (T
//      inside the mask: triangle counting's C<L>) stay on the device too;
//      and the write-back on the device, C<M,replace> = T under every kind
//      of mask into every kind of C (no accum, C of T's type), with a fault
//      injected at each of its device operations in turn;
//  (b) nothing lost under eviction: results of many sizes and types fill a
//      small device budget, later products evict them (each written back
//      first), and every one reads back right;
//  (c) fault injection over the materialization: each counted device
//      operation of a write-back fails in turn; the read returns
//      GrB_OUT_OF_MEMORY with the value kept on the device, and the next read
//      gives the right answer; no device memory is left behind;
//  (d) a device-newest C replaced by a host call: dropped unwritten, written
//      back where the call reads it or fails.
#include "gcu_test.h"
#include "grbcuda.h"
#include "device/gcu_cuda.h"
#include "dispatch/gcu_dispatch.h"
#include "residency/gcu_residency.h"
#include "gcu_util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef GrB_Info (*mxm_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
static mxm_t real_mxm ;

static uint64_t newest (void)
{
    gcu_res_stats s ;
    gcu_residency_stats (&s) ;
    return s.newest ;
}

static uint64_t materializations (void)
{
    gcu_res_stats s ;
    gcu_residency_stats (&s) ;
    return s.materializations ;
}

typedef struct { const char *name ; GrB_Semiring s ; GrB_Type t ; double tol ; } sr_t ;

// (a) one product kept, checked through every way of reading it
static void kept (const sr_t *sr, GrB_Index m, GrB_Index k, GrB_Index n,
    double d, bool by_col, uint64_t *st)
{
    GrB_Matrix A = gcu_test_random_matrix (sr->t, m, k, d, st) ;
    GrB_Matrix B = gcu_test_random_matrix (sr->t, k, n, d, st) ;
    GrB_Matrix C = NULL, R = NULL, D = NULL, RD = NULL ;
    OK (GrB_Matrix_new (&C, sr->t, m, n)) ;
    OK (GrB_Matrix_new (&R, sr->t, m, n)) ;
    if (by_col) OK (GxB_Matrix_Option_set (C, GxB_FORMAT, GxB_BY_COL)) ;
    if (by_col) OK (GxB_Matrix_Option_set (R, GxB_FORMAT, GxB_BY_COL)) ;
    const uint64_t gpu0 = gcu_family_runs ("spgemm saxpy"), n0 = newest () ;
    const uint64_t iso0 = gcu_iso_declined () ;
    OK (GrB_mxm (C, NULL, NULL, sr->s, A, B, NULL)) ;
    // (a result whose iso status in SuiteSparse grbcuda cannot tell, e.g.
    // two iso operands held full over PLUS, stays on the host)
    const bool iso_host = gcu_iso_declined () != iso0 ;
    OK (real_mxm (R, NULL, NULL, sr->s, A, B, NULL)) ;
    char what [160] ;
    snprintf (what, sizeof (what), "%s %llux%llux%llu%s", sr->name, (unsigned long long) m,
        (unsigned long long) k, (unsigned long long) n, by_col ? " C by column" : "") ;
    const bool ran = gcu_family_runs ("spgemm saxpy") == gpu0 + 1 ;
    if (m == 0 || k == 0 || n == 0 || iso_host)
    {
        // an empty dimension is SuiteSparse's (src/dispatch): nothing kept
        CHECK (!ran && newest () == n0, "%s: stayed on the host", what) ;
        CHECK (gcu_test_matrix_equal (C, R, sr->tol, false, what), "%s: C", what) ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ; GrB_Matrix_free (&R) ;
        return ;
    }
    CHECK (ran && newest () == n0 + 1, "%s: ran on the GPU (%d) and left on the device "
        "(newest %llu -> %llu)", what, ran, (unsigned long long) n0, (unsigned long long) newest ()) ;
    // nvals from the device, then a product reading C there
    const uint64_t mat0 = materializations () ;
    GrB_Index nv = 0, rnv = 0 ;
    OK (GrB_Matrix_nvals (&nv, C)) ;
    OK (GrB_Matrix_nvals (&rnv, R)) ;
    CHECK (nv == rnv, "%s: nvals from the device %llu, SuiteSparse %llu", what,
        (unsigned long long) nv, (unsigned long long) rnv) ;
    // single entries from the device (present and absent ones, through
    // SuiteSparse's casts to FP64 and INT32), C still newest
    for (GrB_Index q = 0 ; q < 40 && m > 0 && n > 0 ; q++)
    {
        const GrB_Index i = (q * 7919) % m, j = (q * 104729 + q / 3) % n ;
        double x = -1, y = -1 ;
        int32_t xi = -1, yi = -1 ;
        GrB_Info i1 = GrB_Matrix_extractElement_FP64 (&x, C, i, j) ;
        GrB_Info i2 = GrB_Matrix_extractElement_FP64 (&y, R, i, j) ;
        GrB_Info i3 = GrB_Matrix_extractElement_INT32 (&xi, C, i, j) ;
        GrB_Info i4 = GrB_Matrix_extractElement_INT32 (&yi, R, i, j) ;
        CHECK (i1 == i2 && i3 == i4 && (i1 != GrB_SUCCESS || (fabs (x - y) <= sr->tol * fabs (y)
            && (sr->tol > 0 || xi == yi))), "%s: C(%llu,%llu) from the device: info %d/%d, %g, "
            "SuiteSparse info %d/%d, %g", what, (unsigned long long) i, (unsigned long long) j,
            (int) i1, (int) i3, x, (int) i2, (int) i4, y) ;
    }
    CHECK (materializations () == mat0,
        "%s: extractElement read C on the device (%llu write-backs)", what,
        (unsigned long long) (materializations () - mat0)) ;
    if (m == n)
    {
        // D = C*C reads C's device copy (by row, both operands)
        OK (GrB_Matrix_new (&D, sr->t, m, m)) ;
        OK (GrB_Matrix_new (&RD, sr->t, m, m)) ;
        OK (GrB_mxm (D, NULL, NULL, sr->s, C, C, NULL)) ;
        CHECK (materializations () == mat0, "%s: C*C read C's device copy (%llu write-backs)",
            what, (unsigned long long) (materializations () - mat0)) ;
        OK (real_mxm (RD, NULL, NULL, sr->s, R, R, NULL)) ;
        CHECK (gcu_test_matrix_equal (D, RD, sr->tol, false, what), "%s: C*C with C on the device", what) ;
    }
    // an index out of range: SuiteSparse's error (C written back for it)
    if (m > 0 && n > 0 && (m + n) % 2 == 0)
    {
        double x = 0 ;
        GrB_Info i1 = GrB_Matrix_extractElement_FP64 (&x, C, m, 0) ;
        GrB_Info i2 = GrB_Matrix_extractElement_FP64 (&x, R, m, 0) ;
        CHECK (i1 == i2 && i1 == GrB_INVALID_INDEX, "%s: row out of range: %d, SuiteSparse %d",
            what, (int) i1, (int) i2) ;
    }
    // reading C writes it back, once
    CHECK (gcu_test_matrix_equal (C, R, sr->tol, false, what), "%s: C read back", what) ;
    // the format is C's own; the sparsity status is SuiteSparse's storage
    // choice (its method's output, conformed with hysteresis): grbcuda's
    // result is conformed from sparse under C's control, and only asking
    // for it must work (it needs the content: a write-back)
    int fc = 0, fr = 0, sc = 0 ;
    OK (GxB_Matrix_Option_get (C, GxB_FORMAT, &fc)) ;
    OK (GxB_Matrix_Option_get (R, GxB_FORMAT, &fr)) ;
    OK (GxB_Matrix_Option_get (C, GxB_SPARSITY_STATUS, &sc)) ;
    CHECK (fc == fr && sc != 0, "%s: format %d/%d, sparsity %d", what, fc, fr, sc) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    GrB_Matrix_free (&R) ; GrB_Matrix_free (&D) ; GrB_Matrix_free (&RD) ;
}

static void test_kept (uint64_t *st)
{
    const sr_t srs [] =
    {
        { "PLUS_TIMES_FP64", GrB_PLUS_TIMES_SEMIRING_FP64, GrB_FP64, 1e-12 },
        { "MIN_PLUS_INT32", GrB_MIN_PLUS_SEMIRING_INT32, GrB_INT32, 0 },
        { "PLUS_TIMES_FP32", GrB_PLUS_TIMES_SEMIRING_FP32, GrB_FP32, 1e-5 },
        { "LOR_LAND_BOOL", GrB_LOR_LAND_SEMIRING_BOOL, GrB_BOOL, 0 },
        { "PLUS_TIMES_FC64", GxB_PLUS_TIMES_FC64, GxB_FC64, 1e-12 },
        { "MAX_TIMES_UINT8", GxB_MAX_TIMES_UINT8, GrB_UINT8, 0 },
    } ;
    const GrB_Index shapes [][3] = { { 1, 1, 1 }, { 50, 40, 50 }, { 300, 200, 300 },
        { 0, 5, 0 }, { 70, 30, 90 } } ;
    for (size_t q = 0 ; q < sizeof (srs) / sizeof (srs [0]) ; q++)
        for (size_t h = 0 ; h < sizeof (shapes) / sizeof (shapes [0]) ; h++)
            kept (&srs [q], shapes [h][0], shapes [h][1], shapes [h][2], 0.1, (q + h) % 3 == 0, st) ;
    // a dense result: SuiteSparse makes it bitmap or full
    kept (&srs [0], 60, 60, 60, 0.5, false, st) ;
    // off: written back in the call
    OK (grbcuda_set_keep_results (false)) ;
    const uint64_t n0 = newest () ;
    GrB_Matrix A = gcu_test_random_matrix (GrB_FP64, 100, 100, 0.1, st), C = NULL ;
    OK (GrB_Matrix_new (&C, GrB_FP64, 100, 100)) ;
    OK (GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, NULL)) ;
    CHECK (newest () == n0, "GRBCUDA_KEEP_RESULTS=0: written back in the call") ;
    OK (grbcuda_set_keep_results (true)) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&C) ;
}

// (a') C<M> = A*B (masked saxpy) and C<M> = A*B' (masked dot) into an empty
// C: T compacted on the device, C's newest value; valued and structural
// masks, 32- and 64-bit indices
static void kept_masked (uint64_t *st)
{
    const GrB_Semiring s [3] = { GxB_PLUS_PAIR_INT64, GrB_PLUS_TIMES_SEMIRING_FP64, GxB_MIN_PLUS_INT32 } ;
    const GrB_Type t [3] = { GrB_INT64, GrB_FP64, GrB_INT32 } ;
    for (int q = 0 ; q < 12 ; q++)
    {
        const GrB_Index n = 40 + 37 * (GrB_Index) q ;
        const bool tran = q % 2, structural = (q / 2) % 2 ;
        GrB_Matrix A = gcu_test_random_matrix (t [q % 3], n, n, 0.08, st) ;
        GrB_Matrix M = gcu_test_random_matrix (structural ? GrB_BOOL : GrB_FP64, n, n, 0.2, st) ;
        GrB_Matrix C = NULL, R = NULL ;
        OK (GrB_Matrix_new (&C, t [q % 3], n, n)) ;
        OK (GrB_Matrix_new (&R, t [q % 3], n, n)) ;
        GrB_Descriptor d = NULL ;
        OK (GrB_Descriptor_new (&d)) ;
        if (tran) OK (GrB_Descriptor_set (d, GrB_INP1, GrB_TRAN)) ;
        if (structural) OK (GrB_Descriptor_set (d, GrB_MASK, GrB_STRUCTURE)) ;
        const uint64_t n0 = newest () ;
        OK (GrB_mxm (C, M, NULL, s [q % 3], A, A, d)) ;
        OK (real_mxm (R, M, NULL, s [q % 3], A, A, d)) ;
        char what [96] ;
        snprintf (what, sizeof (what), "masked %s n=%llu%s", tran ? "dot" : "saxpy",
            (unsigned long long) n, structural ? " structural" : " valued") ;
        CHECK (newest () == n0 + 1, "%s: left on the device", what) ;
        GrB_Index nv = 0, rnv = 0 ;
        OK (GrB_Matrix_nvals (&nv, C)) ;
        OK (GrB_Matrix_nvals (&rnv, R)) ;
        CHECK (nv == rnv && gcu_test_matrix_equal (C, R, 1e-12, false, what), "%s: read back", what) ;
        GrB_Descriptor_free (&d) ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&M) ; GrB_Matrix_free (&C) ; GrB_Matrix_free (&R) ;
    }
}

// (a'') the device write-back C<M,replace> = T (no accum, C of T's type):
// complemented, structural and valued masks (explicit zeros false),
// GrB_REPLACE, C empty, with entries, iso, and aliased with the mask; the
// product on the unmasked saxpy family (a complemented mask) or the masked
// families (a mask not complemented, C with entries). Each stays on the
// device and reads back as SuiteSparse's.
static void one_merge (int q, GrB_Semiring sr, GrB_Type t, GrB_Index n, uint64_t *st)
{
    const bool comp = q % 2, structural = (q / 2) % 2, replace = (q / 4) % 2 ;
    const int cstate = (q / 8) % 4 ;        // 0 empty, 1 entries, 2 iso, 3 C is M
    GrB_Matrix A = gcu_test_random_matrix (t, n, n, 0.06, st) ;
    GrB_Matrix M = (cstate == 3) ? gcu_test_random_matrix (t, n, n, 0.2, st)
        : gcu_test_random_matrix (structural ? GrB_BOOL : GrB_FP64, n, n, 0.2, st) ;
    if (!structural && cstate != 3)
    {
        // explicit zeros: false (-0.0 is left out: SuiteSparse 7.4 reads its
        // bits in some methods and casts it to bool in others)
        OK (GrB_Matrix_setElement_FP64 (M, 0.0, 0, 0)) ;
        OK (GrB_Matrix_setElement_FP64 (M, 0.0, 1, 1)) ;
    }
    GrB_Matrix C = NULL, R = NULL ;
    if (cstate == 1) C = gcu_test_random_matrix (t, n, n, 0.1, st) ;
    else if (cstate == 2)
    {
        OK (GrB_Matrix_new (&C, t, n, n)) ;
        GrB_Scalar x = NULL ;
        OK (GrB_Scalar_new (&x, t)) ;
        OK (GrB_Scalar_setElement_INT32 (x, 3)) ;
        OK (GrB_Matrix_assign_Scalar (C, NULL, NULL, x, GrB_ALL, n, GrB_ALL, n, NULL)) ;
        GrB_Scalar_free (&x) ;
    }
    else if (cstate == 3) OK (GrB_Matrix_dup (&C, M)) ;
    else OK (GrB_Matrix_new (&C, t, n, n)) ;
    OK (GrB_Matrix_dup (&R, C)) ;
    GrB_Descriptor d = NULL ;
    OK (GrB_Descriptor_new (&d)) ;
    if (comp) OK (GrB_Descriptor_set (d, GrB_MASK, GrB_COMP)) ;
    if (structural) OK (GrB_Descriptor_set (d, GrB_MASK, GrB_STRUCTURE)) ;
    if (replace) OK (GrB_Descriptor_set (d, GrB_OUTP, GrB_REPLACE)) ;
    const uint64_t n0 = newest (), iso0 = gcu_iso_declined () ;
    if (cstate == 3)
    {
        // C<C> = A*B: the mask is C itself
        OK (GrB_mxm (C, C, NULL, sr, A, A, d)) ;
        OK (real_mxm (R, R, NULL, sr, A, A, d)) ;
    }
    else
    {
        OK (GrB_mxm (C, M, NULL, sr, A, A, d)) ;
        OK (real_mxm (R, M, NULL, sr, A, A, d)) ;
    }
    char what [160] ;
    snprintf (what, sizeof (what), "write-back C<%s%sM%s> = A*A, C %s, n=%llu", comp ? "!" : "",
        structural ? "struct " : "", replace ? ",replace" : "",
        cstate == 0 ? "empty" : cstate == 1 ? "with entries" : cstate == 2 ? "iso" : "is M",
        (unsigned long long) n) ;
    // an iso C kept under the mask: SuiteSparse's iso status of the result
    // is not known to grbcuda, the host computes it (iso_status.c)
    const bool iso_host = gcu_iso_declined () != iso0 ;
    CHECK ((iso_host || cstate != 2 || replace) && newest () == n0 + !iso_host,
        "%s: left on the device (newest %llu -> %llu; iso status not known %d)", what,
        (unsigned long long) n0, (unsigned long long) newest (), (int) iso_host) ;
    GrB_Index nv = 0, rnv = 0 ;
    OK (GrB_Matrix_nvals (&nv, C)) ;
    OK (GrB_Matrix_nvals (&rnv, R)) ;
    CHECK (nv == rnv && gcu_test_matrix_equal (C, R, 1e-12, false, what), "%s: read back "
        "(%llu entries, SuiteSparse %llu)", what, (unsigned long long) nv, (unsigned long long) rnv) ;
    GrB_Descriptor_free (&d) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&M) ; GrB_Matrix_free (&C) ; GrB_Matrix_free (&R) ;
}

static void kept_merge (uint64_t *st)
{
    const GrB_Semiring s [3] = { GrB_PLUS_TIMES_SEMIRING_FP64, GxB_PLUS_PAIR_INT64, GxB_MIN_PLUS_INT32 } ;
    const GrB_Type t [3] = { GrB_FP64, GrB_INT64, GrB_INT32 } ;
    for (int q = 0 ; q < 32 ; q++)
        one_merge (q, s [q % 3], t [q % 3], 30 + 17 * (GrB_Index) q, st) ;
}

// every device operation of one write-back on the device fails in turn:
// the call is right (the host reruns it) and leaves no device memory
static void merge_faults (uint64_t *st)
{
    GrB_Matrix A = gcu_test_random_matrix (GrB_FP64, 200, 200, 0.05, st) ;
    GrB_Matrix M = gcu_test_random_matrix (GrB_BOOL, 200, 200, 0.2, st) ;
    GrB_Matrix C0 = gcu_test_random_matrix (GrB_FP64, 200, 200, 0.1, st), C = NULL, R = NULL ;
    GrB_Descriptor d = NULL ;
    OK (GrB_Descriptor_new (&d)) ;
    OK (GrB_Descriptor_set (d, GrB_MASK, GrB_COMP)) ;
    OK (GrB_Matrix_dup (&R, C0)) ;
    OK (real_mxm (R, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, d)) ;
    // the operands resident first: the counted operations are the call's own
    OK (GrB_Matrix_dup (&C, C0)) ;
    OK (GrB_mxm (C, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, d)) ;
    GrB_Matrix_free (&C) ;
    OK (GrB_Matrix_dup (&C, C0)) ;
    gcu_sync (gcu_stream_default ()) ;
    gcu_fault_inject ((int64_t) 1 << 40) ;
    OK (GrB_mxm (C, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, d)) ;
    const int64_t nops = gcu_fault_count () ;
    gcu_fault_inject (0) ;
    CHECK (gcu_test_matrix_equal (C, R, 1e-12, false, "merge faults: no fault"), "no fault") ;
    GrB_Matrix_free (&C) ;
    gcu_sync (gcu_stream_default ()) ;
    gcu_residency_clear_all () ;
    const int64_t base = gcu_device_bytes_in_use () ;
    printf ("merge faults: %lld counted device operations in one product with its write-back\n",
        (long long) nops) ;
    for (int64_t f = 1 ; f <= nops ; f++)
    {
        OK (GrB_Matrix_dup (&C, C0)) ;
        gcu_fault_inject (f) ;
        GrB_Info info = GrB_mxm (C, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, d) ;
        gcu_fault_inject (0) ;
        char what [64] ;
        snprintf (what, sizeof (what), "merge fault %lld", (long long) f) ;
        CHECK (info == GrB_SUCCESS && gcu_test_matrix_equal (C, R, 1e-12, false, what),
            "%s: info %d, or C differs", what, (int) info) ;
        GrB_Matrix_free (&C) ;
        gcu_sync (gcu_stream_default ()) ;
        gcu_residency_clear_all () ;
        CHECK (gcu_device_bytes_in_use () == base, "%s: device memory %lld, was %lld", what,
            (long long) gcu_device_bytes_in_use (), (long long) base) ;
    }
    GrB_Descriptor_free (&d) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&M) ; GrB_Matrix_free (&C0) ; GrB_Matrix_free (&R) ;
}

// (b) results of many sizes and types under a small budget
static void test_eviction (uint64_t *st)
{
    enum { N = 24 } ;
    const GrB_Semiring s [4] = { GrB_PLUS_TIMES_SEMIRING_FP64, GrB_PLUS_TIMES_SEMIRING_INT32,
        GrB_PLUS_TIMES_SEMIRING_FP32, GxB_PLUS_TIMES_FC64 } ;
    const GrB_Type t [4] = { GrB_FP64, GrB_INT32, GrB_FP32, GxB_FC64 } ;
    GrB_Matrix C [N], R [N] ;
    OK (gcu_residency_set_budget (4 << 20)) ;       // 4 MB: a few results at a time
    const uint64_t mat0 = materializations () ;
    gcu_res_stats s0, s1 ;
    gcu_residency_stats (&s0) ;
    for (int k = 0 ; k < N ; k++)
    {
        const GrB_Index n = 100 + 60 * (GrB_Index) (k % 7) ;
        GrB_Matrix A = gcu_test_random_matrix (t [k % 4], n, n, 0.05, st) ;
        OK (GrB_Matrix_new (&C [k], t [k % 4], n, n)) ;
        OK (GrB_Matrix_new (&R [k], t [k % 4], n, n)) ;
        OK (GrB_mxm (C [k], NULL, NULL, s [k % 4], A, A, NULL)) ;
        OK (real_mxm (R [k], NULL, NULL, s [k % 4], A, A, NULL)) ;
        GrB_Matrix_free (&A) ;
    }
    gcu_residency_stats (&s1) ;
    printf ("eviction: %d results, %llu written back by eviction, %llu still newest, %zu bytes used "
        "of %zu\n", N, (unsigned long long) (materializations () - mat0),
        (unsigned long long) s1.newest, s1.bytes_used, s1.budget) ;
    CHECK (materializations () > mat0 && s1.evictions > s0.evictions && s1.bytes_used <= s1.budget,
        "eviction wrote newest values back before dropping them") ;
    for (int k = 0 ; k < N ; k++)
    {
        char what [64] ;
        snprintf (what, sizeof (what), "evicted result %d", k) ;
        CHECK (gcu_test_matrix_equal (C [k], R [k], 1e-9, false, what), "%s", what) ;
        GrB_Matrix_free (&C [k]) ; GrB_Matrix_free (&R [k]) ;
    }
    OK (gcu_residency_set_budget ((size_t) 1 << 34)) ;
}

// (c) every device operation of a write-back fails in turn
static void test_faults (uint64_t *st)
{
    GrB_Matrix A = gcu_test_random_matrix (GrB_FP64, 300, 300, 0.03, st), R = NULL, C = NULL ;
    OK (GrB_Matrix_new (&R, GrB_FP64, 300, 300)) ;
    OK (real_mxm (R, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, NULL)) ;
    // how many counted operations one write-back makes
    OK (GrB_Matrix_new (&C, GrB_FP64, 300, 300)) ;
    OK (GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, NULL)) ;
    gcu_fault_inject ((int64_t) 1 << 40) ;
    GrB_Index nv = 0 ;
    OK (GrB_Matrix_nvals (&nv, C)) ;
    CHECK (gcu_test_matrix_equal (C, R, 1e-12, false, "faults: no fault"), "no fault") ;
    const int64_t nops = gcu_fault_count () ;
    gcu_fault_inject (0) ;
    GrB_Matrix_free (&C) ;
    gcu_sync (gcu_stream_default ()) ;
    const int64_t base = gcu_device_bytes_in_use () ;
    printf ("faults: %lld counted device operations in one write-back\n", (long long) nops) ;
    CHECK (nops >= 3, "a write-back counts its copies (%lld)", (long long) nops) ;
    for (int64_t f = 1 ; f <= nops ; f++)
    {
        OK (GrB_Matrix_new (&C, GrB_FP64, 300, 300)) ;
        OK (GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, NULL)) ;
        const uint64_t n0 = newest () ;
        // a single entry first: its device reads fail in turn too, and the
        // call falls back to the write-back (which a later fault may fail)
        {
            int64_t x = -1, y = -1 ;
            const GrB_Index i = (GrB_Index) f % 300, j = (GrB_Index) (f * 7) % 300 ;
            gcu_fault_inject (f) ;
            GrB_Info i1 = GrB_Matrix_extractElement_INT64 (&x, C, i, j) ;
            gcu_fault_inject (0) ;
            GrB_Info i2 = GrB_Matrix_extractElement_INT64 (&y, R, i, j) ;
            CHECK ((i1 == i2 && (i1 != GrB_SUCCESS || x == y)) || i1 == GrB_OUT_OF_MEMORY,
                "fault %lld: extractElement (%d, %lld), SuiteSparse (%d, %lld)", (long long) f,
                (int) i1, (long long) x, (int) i2, (long long) y) ;
            if (newest () != n0)
            {
                // written back by the fallback: make C device newest again
                OK (GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, NULL)) ;
            }
        }
        gcu_fault_inject (f) ;
        int sparsity = 0 ;
        GrB_Info info = GxB_Matrix_Option_get (C, GxB_SPARSITY_STATUS, &sparsity) ;
        gcu_fault_inject (0) ;
        CHECK (info == GrB_OUT_OF_MEMORY && newest () == n0, "fault %lld: the read returns "
            "GrB_OUT_OF_MEMORY (%d) and the value stays on the device", (long long) f, (int) info) ;
        char what [64] ;
        snprintf (what, sizeof (what), "fault %lld, read again", (long long) f) ;
        CHECK (gcu_test_matrix_equal (C, R, 1e-12, false, what), "%s", what) ;
        GrB_Matrix_free (&C) ;
        gcu_sync (gcu_stream_default ()) ;
        CHECK (gcu_device_bytes_in_use () == base, "fault %lld: device memory %lld, was %lld",
            (long long) f, (long long) gcu_device_bytes_in_use (), (long long) base) ;
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&R) ;
}

// (d) a GPU result replaced by a host call (mode host): C = A*A over GrB_ALL
// drops it unwritten, C += A*A writes it back first, and a host call that
// fails on it (eWiseUnion with an empty alpha) leaves C holding it, with
// SuiteSparse's error and message
typedef GrB_Info (*union_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_BinaryOp, const GrB_Matrix, const GrB_Scalar, const GrB_Matrix,
    const GrB_Scalar, const GrB_Descriptor) ;

static void replaced_on_host (uint64_t *st)
{
    const GrB_Index n = 200 ;
    const GrB_Semiring sr = GrB_PLUS_TIMES_SEMIRING_FP64 ;
    union_t real_union = (union_t) gcu_test_real ("GxB_Matrix_eWiseUnion") ;
    GrB_Matrix A = gcu_test_random_matrix (GrB_FP64, n, n, 0.05, st) ;
    GrB_Matrix B = gcu_test_random_matrix (GrB_FP64, n, n, 0.05, st) ;
    GrB_Scalar empty = NULL, one = NULL ;
    OK (GrB_Scalar_new (&empty, GrB_FP64)) ;
    OK (GrB_Scalar_new (&one, GrB_FP64)) ;
    OK (GrB_Scalar_setElement_FP64 (one, 1)) ;
    for (int form = 0 ; form < 3 ; form++)
    {
        GrB_Matrix C = NULL, R = NULL ;
        OK (GrB_Matrix_new (&C, GrB_FP64, n, n)) ;
        OK (GrB_Matrix_new (&R, GrB_FP64, n, n)) ;
        const uint64_t n0 = newest () ;
        OK (GrB_mxm (C, NULL, NULL, sr, A, B, NULL)) ;
        OK (real_mxm (R, NULL, NULL, sr, A, B, NULL)) ;
        CHECK (newest () == n0 + 1, "form %d: the GPU's C is device newest", form) ;
        OK (grbcuda_set_mode (GRBCUDA_MODE_HOST)) ;
        const uint64_t m0 = materializations () ;
        GrB_Info info = GrB_SUCCESS, want = GrB_SUCCESS ;
        if (form == 2)
        {
            info = GxB_Matrix_eWiseUnion (C, NULL, NULL, GrB_PLUS_FP64, A, empty, B, one, NULL) ;
            want = real_union (R, NULL, NULL, GrB_PLUS_FP64, A, empty, B, one, NULL) ;
            const char *msg = NULL, *wmsg = NULL ;
            OK (GrB_Matrix_error (&msg, C)) ;
            OK (GrB_Matrix_error (&wmsg, R)) ;
            CHECK (msg != NULL && wmsg != NULL && strcmp (msg, wmsg) == 0,
                "the failed host call's message: \"%s\" against \"%s\"", msg ? msg : "(null)",
                wmsg ? wmsg : "(null)") ;
        }
        else
        {
            const GrB_BinaryOp accum = form == 1 ? GrB_PLUS_FP64 : NULL ;
            info = GrB_mxm (C, NULL, accum, sr, A, A, NULL) ;
            want = real_mxm (R, NULL, accum, sr, A, A, NULL) ;
        }
        OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
        const uint64_t written = materializations () - m0 ;
        CHECK (info == want && newest () == n0 && written == (form == 0 ? 0u : 1u),
            "form %d (%s): info %d (SuiteSparse %d), %llu write-backs", form,
            form == 0 ? "C = A*A, dropped" : form == 1 ? "C += A*A, written back"
            : "a failed eWiseUnion, written back", (int) info, (int) want,
            (unsigned long long) written) ;
        CHECK (gcu_test_matrix_equal (C, R, 1e-12, false, "replaced"), "form %d: C as SuiteSparse's", form) ;
        GrB_Matrix_free (&C) ; GrB_Matrix_free (&R) ;
    }
    GrB_Scalar_free (&empty) ; GrB_Scalar_free (&one) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!grbcuda_gpu_available ())
    {
        printf ("SKIP: no usable GPU; test_newest_gpu needs one\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    real_mxm = (mxm_t) gcu_test_real ("GrB_mxm") ;
    gcu_test_types_init () ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    OK (grbcuda_set_keep_results (true)) ;
    uint64_t st = 777 ;
    test_kept (&st) ;
    kept_masked (&st) ;
    kept_merge (&st) ;
    test_eviction (&st) ;
    test_faults (&st) ;
    merge_faults (&st) ;
    replaced_on_host (&st) ;
    gcu_residency_clear_all () ;
    CHECK (newest () == 0, "nothing newest after clear_all") ;
    GrB_finalize () ;
    return gcu_test_report ("test_newest_gpu") ;
}
