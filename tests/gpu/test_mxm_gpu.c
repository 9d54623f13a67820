// GRBCUDA_TEST_INTERNAL
// test_mxm_gpu.c — GrB_mxm on the GPU (the SpGEMM saxpy family, the masked
// saxpy family for C<M> = A*B and the masked dot family for C<M> = A*B',
// both with a non-complemented mask; every family must have run) against
// SuiteSparse: many shapes (empty, 1x1, 0xn, rectangular, empty rows and
// columns, one dense row, one dense column, hypersparse, rows long enough for
// the global-memory tables), many semirings and types (1-, 2-, 4-, 8- and
// 16-byte values, positional multipliers, ANY), every storage format,
// masks (valued, structural, complemented), replace, accum, transposed
// inputs, and C aliased with an input. Then fault injection: every counted
// device operation of one call fails in turn; each time the answer is still
// SuiteSparse's (host fallback) and no device memory is left behind.
#include "gcu_test.h"
#include "grbcuda.h"
#include "device/gcu_cuda.h"
#include "dispatch/gcu_dispatch.h"
#include "residency/gcu_residency.h"
#include "spgemm/gcu_spgemm.h"
#include "gcu_util.h"
#include <stdlib.h>
#include <string.h>

typedef GrB_Info (*mxm_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
static mxm_t real_mxm ;

typedef struct { const char *name ; GrB_Semiring s ; GrB_Type t ; bool any ; double tol ; } sr_t ;
static sr_t srs [32] ;
static int nsr ;

static void srs_init (void)
{
    int k = 0 ;
#define S(name, s, t, any, tol) srs [k++] = (sr_t) { name, s, t, any, tol }
    S ("PLUS_TIMES_FP64", GrB_PLUS_TIMES_SEMIRING_FP64, GrB_FP64, false, 1e-12) ;
    S ("PLUS_TIMES_FP32", GrB_PLUS_TIMES_SEMIRING_FP32, GrB_FP32, false, 1e-5) ;
    S ("MIN_PLUS_INT32", GrB_MIN_PLUS_SEMIRING_INT32, GrB_INT32, false, 0) ;
    S ("MAX_PLUS_FP64", GrB_MAX_PLUS_SEMIRING_FP64, GrB_FP64, false, 0) ;
    S ("LOR_LAND_BOOL", GrB_LOR_LAND_SEMIRING_BOOL, GrB_BOOL, false, 0) ;
    S ("PLUS_PAIR_INT64", GxB_PLUS_PAIR_INT64, GrB_INT64, false, 0) ;
    S ("ANY_PAIR_BOOL", GxB_ANY_PAIR_BOOL, GrB_BOOL, true, 0) ;
    S ("ANY_SECONDI_INT64", GxB_ANY_SECONDI_INT64, GrB_INT64, true, 0) ;
    S ("PLUS_TIMES_FC64", GxB_PLUS_TIMES_FC64, GxB_FC64, false, 1e-12) ;
    S ("PLUS_TIMES_FC32", GxB_PLUS_TIMES_FC32, GxB_FC32, false, 1e-5) ;
    S ("TIMES_PLUS_UINT8", GxB_TIMES_PLUS_UINT8, GrB_UINT8, false, 0) ;
    S ("PLUS_TIMES_INT16", GrB_PLUS_TIMES_SEMIRING_INT16, GrB_INT16, false, 0) ;
    S ("MAX_FIRSTJ_INT32", GxB_MAX_FIRSTJ_INT32, GrB_INT32, false, 0) ;
    S ("MIN_SECONDJ1_INT64", GxB_MIN_SECONDJ1_INT64, GrB_INT64, false, 0) ;
    S ("PLUS_FIRSTI_INT32", GxB_PLUS_FIRSTI_INT32, GrB_INT32, false, 0) ;
    S ("BXOR_BAND_UINT16", GxB_BXOR_BAND_UINT16, GrB_UINT16, false, 0) ;
    S ("EQ_LOR_BOOL", GxB_EQ_LOR_BOOL, GrB_BOOL, false, 0) ;
    S ("MIN_SECOND_FP32", GxB_MIN_SECOND_FP32, GrB_FP32, false, 0) ;
    S ("PLUS_MIN_UINT64", GxB_PLUS_MIN_UINT64, GrB_UINT64, false, 0) ;
    S ("MAX_TIMES_INT8", GxB_MAX_TIMES_INT8, GrB_INT8, false, 0) ;
    S ("LXOR_LAND_BOOL", GrB_LXOR_LAND_SEMIRING_BOOL, GrB_BOOL, false, 0) ;
    S ("TIMES_TIMES_FP64", GxB_TIMES_TIMES_FP64, GrB_FP64, false, 1e-9) ;
#undef S
    nsr = k ;
}

typedef struct { GrB_Index m, k, n ; double da, db ; int special ; } shape_t ;
// special: 1 one dense row in A, 2 one dense column in B, 3 hypersparse
static const shape_t shapes [] =
{
    { 0, 5, 7, 0.3, 0.3, 0 }, { 5, 0, 7, 0.3, 0.3, 0 }, { 5, 7, 0, 0.3, 0.3, 0 },
    { 1, 1, 1, 1.0, 1.0, 0 }, { 1, 20, 1, 0.5, 0.5, 0 }, { 30, 1, 30, 0.5, 0.5, 0 },
    { 40, 30, 50, 0.1, 0.1, 0 }, { 200, 150, 100, 0.05, 0.05, 0 },
    { 300, 300, 300, 0.02, 0.02, 0 }, { 1000, 800, 900, 0.01, 0.01, 0 },
    { 100, 3000, 5000, 0.0, 0.01, 1 },      // dense row of A: a long row of C
    { 500, 200, 400, 0.02, 0.0, 2 },        // dense column of B
    { 10000, 10000, 10000, 0.0, 0.0, 3 },   // hypersparse (60 entries)
    { 60, 60, 60, 1.0, 1.0, 0 },            // full
    { 50, 4000, 20000, 0.0, 0.0, 4 },       // rows with > 4096 distinct columns
} ;

// random matrix with at most ~20000 entries whatever its dimensions
static GrB_Matrix rnd (GrB_Type t, GrB_Index r, GrB_Index c, double d, uint64_t *st)
{
    double cells = (double) r * (double) c ;
    if (cells > 0 && d * cells > 20000) d = 20000 / cells ;
    return gcu_test_random_matrix (t, r, c, d, st) ;
}

// A matrix with a given dense row or column, or a few scattered entries.
static GrB_Matrix special (GrB_Type t, GrB_Index r, GrB_Index c, int kind, bool is_a, uint64_t *st)
{
    GrB_Matrix X = NULL ;
    GrB_Matrix_new (&X, t, r, c) ;
    if (kind == 1 && is_a) { for (GrB_Index j = 0 ; j < c ; j++) GrB_Matrix_setElement_FP64 (X, 1 + (double) (j % 3), r / 2, j) ; }
    else if (kind == 1) { GrB_Matrix_free (&X) ; return rnd (t, r, c, 0.002, st) ; }
    else if (kind == 2 && !is_a) { for (GrB_Index i = 0 ; i < r ; i++) GrB_Matrix_setElement_FP64 (X, 2, i, c / 3) ; }
    else if (kind == 2) { GrB_Matrix_free (&X) ; return rnd (t, r, c, 0.02, st) ; }
    else if (kind == 3) { for (int e = 0 ; e < 60 ; e++) GrB_Matrix_setElement_FP64 (X, 1 + e % 4, gcu_rand (st) % r, gcu_rand (st) % c) ; }
    else if (kind == 4)
    {
        // A: each row has ~40 entries; B: each row ~ 300 entries: > 4096
        // distinct columns per row of C
        for (GrB_Index i = 0 ; i < r ; i++)
            for (int e = 0 ; e < (is_a ? 40 : 300) ; e++)
                GrB_Matrix_setElement_FP64 (X, 1 + e % 5, i, gcu_rand (st) % c) ;
    }
    GrB_Matrix_wait (X, GrB_MATERIALIZE) ;
    return X ;
}

static int gpu_runs ;
static int iso_hosted ;     // calls left to the host for the result's iso status

static void trial (const sr_t *sr, const shape_t *sh, uint64_t *st, bool masked)
{
    // masked with B transposed is the dot family's form: make it common
    bool ta = gcu_rand (st) % 4 == 0, tb = gcu_rand (st) % (masked ? 2 : 4) == 0 ;
    // SuiteSparse's own masked product of huge hypersparse operands can
    // choose a bitmap the size of C (10^10 here): keep the oracle sane
    if ((double) sh->m * (double) sh->n > 1e8) masked = false ;
    GrB_Index m = sh->m, k = sh->k, n = sh->n ;
    GrB_Matrix A0 = sh->special ? special (sr->t, m, k, sh->special, true, st) : rnd (sr->t, m, k, sh->da, st) ;
    GrB_Matrix B0 = sh->special ? special (sr->t, k, n, sh->special, false, st) : rnd (sr->t, k, n, sh->db, st) ;
    GrB_Matrix A = A0, B = B0 ;
    // a transposed operand is stored transposed, and the descriptor undoes it
    if (ta) { GrB_Matrix_new (&A, sr->t, k, m) ; GrB_transpose (A, NULL, NULL, A0, NULL) ; }
    if (tb) { GrB_Matrix_new (&B, sr->t, n, k) ; GrB_transpose (B, NULL, NULL, B0, NULL) ; }
    GrB_Type tc = (gcu_rand (st) % 5 == 0) ? GrB_FP64 : sr->t ;
    if (sr->t == GxB_FC64 || sr->t == GxB_FC32) tc = sr->t ;
    GrB_Matrix C0 = rnd (tc, m, n, gcu_rand (st) % 2 ? 0.0 : 0.1, st) ;
    GrB_Matrix M = NULL ;
    GrB_Descriptor d = NULL ;
    GrB_Descriptor_new (&d) ;
    if (ta) GrB_Descriptor_set (d, GrB_INP0, GrB_TRAN) ;
    if (tb) GrB_Descriptor_set (d, GrB_INP1, GrB_TRAN) ;
    if (masked)
    {
        M = rnd (gcu_rand (st) % 2 ? GrB_BOOL : GrB_INT32, m, n, 0.3, st) ;
        int mk = (int) (gcu_rand (st) % 4) ;
        if (mk & 1) GrB_Descriptor_set (d, GrB_MASK, GrB_STRUCTURE) ;
        if (mk & 2) GrB_Descriptor_set (d, GrB_MASK, GrB_COMP) ;
        if (gcu_rand (st) % 2) GrB_Descriptor_set (d, GrB_OUTP, GrB_REPLACE) ;
    }
    GrB_BinaryOp accum = (gcu_rand (st) % 4 == 0) ? gcu_test_plus (tc) : NULL ;
    GrB_Matrix C1 = NULL, C2 = NULL ;
    GrB_Matrix_dup (&C1, C0) ;
    GrB_Matrix_dup (&C2, C0) ;
    grbcuda_op_stats s0, s1 ;
    grbcuda_stats_get ("GrB_mxm", &s0) ;
    const uint64_t iso0 = gcu_iso_declined () ;
    GrB_Info i1 = GrB_mxm (C1, M, accum, sr->s, A, B, d) ;
    grbcuda_stats_get ("GrB_mxm", &s1) ;
    // a result whose iso status in SuiteSparse grbcuda cannot tell stays on
    // the host (src/residency/iso_status.c; the result is compared below)
    // (one family may decline it and the next run it: C of another type
    // than T's iso value is written by SuiteSparse's own stage)
    const bool iso_host = gcu_iso_declined () != iso0 && s1.gpu == s0.gpu ;
    iso_hosted += iso_host ;
    // The oracle for the widest case uses SuiteSparse's dot method: its
    // saxpy (GB_AxB_saxpy3) never returns on some of these inputs in
    // SuiteSparse 7.4 (e.g. MAX_PLUS_FP64, C += A*B, reproduced with plain
    // SuiteSparse and no grbcuda in the process).
    GrB_Descriptor d2 = d ;
    if (sh->special == 4)
    {
        GrB_Descriptor_new (&d2) ;
        GrB_Desc_Field fields [4] = { GrB_OUTP, GrB_MASK, GrB_INP0, GrB_INP1 } ;
        for (int f = 0 ; f < 4 ; f++)
        {
            GrB_Desc_Value v = GxB_DEFAULT ;
            GxB_Descriptor_get (&v, d, fields [f]) ;
            // GrB_COMP_STRUCTURE is set as its two parts
            if (v == GrB_COMP + GrB_STRUCTURE)
            {
                GrB_Descriptor_set (d2, fields [f], GrB_COMP) ;
                GrB_Descriptor_set (d2, fields [f], GrB_STRUCTURE) ;
            }
            else if (v != GxB_DEFAULT) GrB_Descriptor_set (d2, fields [f], v) ;
        }
        GrB_Descriptor_set (d2, GxB_AxB_METHOD, GxB_AxB_DOT) ;
    }
    GrB_Info i2 = real_mxm (C2, M, accum, sr->s, A, B, d2) ;
    if (d2 != d) GrB_Descriptor_free (&d2) ;
    CHECK (i1 == i2, "%s %llux%llux%llu: info %d vs %d", sr->name,
        (unsigned long long) m, (unsigned long long) k, (unsigned long long) n, (int) i1, (int) i2) ;
    // a product with an empty dimension is SuiteSparse's (src/dispatch: it
    // misjudges some; nothing to compute)
    const uint64_t want = (m > 0 && k > 0 && n > 0 && !iso_host) ? 1 : 0 ;
    CHECK (s1.gpu == s0.gpu + want, "%s %llux%llux%llu: not where expected (reason counts: failed %llu no-kernel %llu)",
        sr->name, (unsigned long long) m, (unsigned long long) k, (unsigned long long) n,
        (unsigned long long) (s1.reason [GRBCUDA_REASON_GPU_FAILED] - s0.reason [GRBCUDA_REASON_GPU_FAILED]),
        (unsigned long long) (s1.reason [GRBCUDA_REASON_NO_KERNEL] - s0.reason [GRBCUDA_REASON_NO_KERNEL])) ;
    gpu_runs += (int) (s1.gpu - s0.gpu) ;
    char what [128] ;
    snprintf (what, sizeof (what), "%s %llux%llux%llu%s%s", sr->name, (unsigned long long) m,
        (unsigned long long) k, (unsigned long long) n, masked ? " masked" : "", accum ? " accum" : "") ;
    // ANY results: any of the candidates is right, so only the pattern is
    // compared (and, below, that each value is one SuiteSparse could give
    // for ANY_PAIR, i.e. 1)
    CHECK (gcu_test_matrix_equal (C1, C2, sr->tol, sr->any, what), "%s differs from SuiteSparse", what) ;
    GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ; GrB_Matrix_free (&C0) ;
    GrB_Matrix_free (&M) ; GrB_Descriptor_free (&d) ;
    if (A != A0) GrB_Matrix_free (&A) ;
    if (B != B0) GrB_Matrix_free (&B) ;
    GrB_Matrix_free (&A0) ; GrB_Matrix_free (&B0) ;
}

// One fault-injection loop: C<M> = A*B' (tran_b) or A*B, masked or not, so
// that each GPU family is the one failing.
static void fault_loop_one (uint64_t *st, bool masked, bool tran_b, const char *family)
{
    const int64_t blocks0 = gcu_spgemm_blocks_total () ;
    GrB_Matrix A = gcu_test_random_matrix (GrB_FP64, 300, 300, 0.03, st) ;
    GrB_Matrix M = masked ? gcu_test_random_matrix (GrB_BOOL, 300, 300, 0.2, st) : NULL ;
    GrB_Descriptor d = NULL ;
    if (tran_b) { GrB_Descriptor_new (&d) ; GrB_Descriptor_set (d, GrB_INP1, GrB_TRAN) ; }
    GrB_Matrix Cref = NULL ;
    GrB_Matrix_new (&Cref, GrB_FP64, 300, 300) ;
    real_mxm (Cref, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, d) ;
    // how many counted operations one call makes (and that it is this
    // family); every call starts with nothing resident, so that each makes
    // the same operations
    gcu_residency_clear_all () ;
    gcu_fault_inject (1 << 30) ;
    GrB_Matrix C = NULL ;
    GrB_Matrix_new (&C, GrB_FP64, 300, 300) ;
    uint64_t runs0 = gcu_family_runs (family) ;
    OK (GrB_mxm (C, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, d)) ;
    CHECK (gcu_family_runs (family) == runs0 + 1, "fault loop: the call did not run as %s", family) ;
    int64_t nops = gcu_fault_count () ;
    GrB_Matrix_free (&C) ;
    gcu_sync (gcu_stream_default ()) ;
    int64_t base = gcu_device_bytes_in_use () ;
    printf ("fault injection (%s%s): %lld counted device operations per call\n", family,
        gcu_spgemm_block_bytes () > 0 ? ", streamed in row blocks" : "", (long long) nops) ;
    if (gcu_spgemm_block_bytes () > 0)
        CHECK (gcu_spgemm_blocks_total () - blocks0 > 2, "fault loop: the product was not streamed") ;
    CHECK (nops > 10, "too few counted operations (%lld)", (long long) nops) ;
    for (int64_t f = 1 ; f <= nops ; f++)
    {
        gcu_residency_clear_all () ;
        gcu_fault_inject (f) ;
        grbcuda_op_stats s0, s1 ;
        grbcuda_stats_get ("GrB_mxm", &s0) ;
        GrB_Matrix_new (&C, GrB_FP64, 300, 300) ;
        GrB_Info info = GrB_mxm (C, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, d) ;
        grbcuda_stats_get ("GrB_mxm", &s1) ;
        CHECK (info == GrB_SUCCESS, "%s fault %lld: info %d", family, (long long) f, (int) info) ;
        CHECK (s1.reason [GRBCUDA_REASON_GPU_FAILED] == s0.reason [GRBCUDA_REASON_GPU_FAILED] + 1,
            "%s fault %lld: not reported as a GPU failure", family, (long long) f) ;
        char what [96] ;
        snprintf (what, sizeof (what), "%s: fault at operation %lld", family, (long long) f) ;
        CHECK (gcu_test_matrix_equal (C, Cref, 1e-12, false, what), "%s: wrong answer", what) ;
        GrB_Matrix_free (&C) ;
        gcu_sync (gcu_stream_default ()) ;
        int64_t now = gcu_device_bytes_in_use () ;
        CHECK (now == base, "%s fault %lld: device memory %lld bytes, was %lld", family, (long long) f,
            (long long) now, (long long) base) ;
    }
    gcu_fault_inject (0) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&M) ; GrB_Matrix_free (&Cref) ;
    GrB_Descriptor_free (&d) ;
}

static void fault_loop (uint64_t *st, bool reduced)
{
    fault_loop_one (st, false, false, "spgemm saxpy") ;
    // a failure anywhere in the row-block pipeline (a block computing, the
    // one before it on its way down)
    gcu_spgemm_block_bytes_set (reduced ? 65536 : 16384) ;
    fault_loop_one (st, false, false, "spgemm saxpy") ;
    gcu_spgemm_block_bytes_set (0) ;
    fault_loop_one (st, true, false, "masked saxpy") ;
    fault_loop_one (st, true, true, "masked dot") ;
}

// Row-block streaming: a small block budget (GRBCUDA_SPGEMM_BLOCK) sends the
// numeric phase of the saxpy family through many row blocks, two device
// buffers in turn, each block's download overlapping the next block's
// numeric phase: the path a result larger than the device takes.
static void streaming (uint64_t *st, bool reduced)
{
    const char *names [] = { "PLUS_TIMES_FP64", "MIN_PLUS_INT32", "PLUS_TIMES_FC64",
        "ANY_PAIR_BOOL", "MAX_FIRSTJ_INT32", "PLUS_TIMES_FP32", "TIMES_PLUS_UINT8" } ;
    const int nshapes = (int) (sizeof (shapes) / sizeof (shapes [0])) ;
    const int64_t blocks0 = gcu_spgemm_blocks_total () ;
    const uint64_t runs0 = gcu_family_runs ("spgemm saxpy") ;
    // (a reduced run, as under compute-sanitizer: the first budget only)
    for (int budget = 0 ; budget < (reduced ? 1 : 2) ; budget++)
    {
        // a few entries per block, then about a row per block
        gcu_spgemm_block_bytes_set (budget == 0 ? 4096 : 64) ;
        for (size_t q = 0 ; q < sizeof (names) / sizeof (names [0]) ; q++)
            for (int si = 0 ; si < nsr ; si++)
            {
                if (strcmp (srs [si].name, names [q]) != 0) continue ;
                for (int sh = 0 ; sh < nshapes ; sh++) trial (&srs [si], &shapes [sh], st, false) ;
            }
    }
    gcu_spgemm_block_bytes_set (0) ;
    const int64_t blocks = gcu_spgemm_blocks_total () - blocks0 ;
    const uint64_t runs = gcu_family_runs ("spgemm saxpy") - runs0 ;
    printf ("streaming: %llu products in %lld row blocks\n", (unsigned long long) runs, (long long) blocks) ;
    CHECK (runs > 0 && blocks > 8 * (int64_t) runs, "streaming: %lld row blocks for %llu products",
        (long long) blocks, (unsigned long long) runs) ;
}

int main (int argc, char **argv)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!grbcuda_gpu_available ())
    {
        printf ("SKIP: no usable GPU; test_mxm_gpu needs one\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    real_mxm = (mxm_t) gcu_test_real ("GrB_mxm") ;
    gcu_test_types_init () ;
    srs_init () ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    uint64_t st = 424242 ;
    const double t_start = gcu_now () ;
    int reps = argc > 1 ? atoi (argv [1]) : 1 ;
    if (argc > 2 && atoi (argv [2]) < nsr) nsr = atoi (argv [2]) ;     // a quicker run
    int first = argc > 3 ? atoi (argv [3]) : 0 ;                       // ... or one semiring
    const int nshapes = (int) (sizeof (shapes) / sizeof (shapes [0])) ;
    for (int r = 0 ; r < reps ; r++)
        for (int si = first ; si < nsr ; si++)
        {
            printf ("semiring %s (%.1f s)\n", srs [si].name, gcu_now () - t_start) ;
            fflush (stdout) ;
            for (int sh = 0 ; sh < nshapes ; sh++)
            {
                trial (&srs [si], &shapes [sh], &st, false) ;
                trial (&srs [si], &shapes [sh], &st, true) ;
                if (getenv ("GCU_TEST_TRACE")) printf ("  shape %d done (%.1f s)\n", sh, gcu_now () - t_start) ;
            }
        }
    printf ("%d products computed on the GPU, %d left to the host for their iso status\n", gpu_runs, iso_hosted) ;
    const char *families [3] = { "spgemm saxpy", "masked saxpy", "masked dot" } ;
    for (int f = 0 ; f < 3 ; f++)
    {
        uint64_t n = gcu_family_runs (families [f]) ;
        printf ("  %-14s %llu\n", families [f], (unsigned long long) n) ;
        CHECK (n > 0, "the %s family never ran", families [f]) ;
    }
    streaming (&st, argc > 2) ;
    fault_loop (&st, argc > 2) ;
    grbcuda_set_mode (GRBCUDA_MODE_AUTO) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_mxm_gpu") ;
}
