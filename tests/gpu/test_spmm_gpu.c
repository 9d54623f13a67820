// GRBCUDA_TEST_INTERNAL
// test_spmm_gpu.c — GrB_mxm with full operands on the GPU against
// SuiteSparse: SpMM C = op(A)*op(X) (A sparse, X full: the "spmm" family)
// and SDDMM C<M> = X*Y' or X*B (X, Y, B full: the masked dot family's
// dense form; its batched kernel with batches of the type's default, 32, 4
// or 1 entries, 2, 4 or 8 entries' loads in flight, 2, 4 or 6 blocks an
// SM, runs of a few batches, one batch or one a sub-group, native sums for
// PLUS_TIMES or not; NaNs and infinities), over many semirings and types (1- to 16-byte values,
// positional multipliers, ANY), column counts k = 1, 3, 32, 33, 128, 512,
// A with empty rows and one dense row, iso A and iso X, X by row and by
// column, transposes, masks (valued, structural, complemented), replace,
// accum, typecasts into C. Then fault injection: each counted device
// operation of one SpMM call fails in turn; the answer is still
// SuiteSparse's and no device memory is left behind. SpMM runs through
// ASpT's tiles (GRBCUDA_SPMM_TILE=1), whole rows (in order or sorted by
// length, long rows through segments, column slices) and every row through
// the segments (spmm_path), each A twice (the plan cached with it), then
// once more after A changed.
#include "gcu_test.h"
#include "grbcuda.h"
#include "device/gcu_cuda.h"
#include "dispatch/gcu_dispatch.h"
#include "residency/gcu_residency.h"
#include "mxm/gcu_mxm.h"
#include "gcu_util.h"
#include <stdlib.h>
#include <string.h>

typedef GrB_Info (*mxm_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
static mxm_t real_mxm ;
typedef GrB_Info (*transpose_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Matrix, const GrB_Descriptor) ;
static transpose_t real_transpose ;

typedef struct { const char *name ; GrB_Semiring s ; GrB_Type t ; bool any ; double tol ; } sr_t ;
static sr_t srs [32] ;
static int nsr ;

static void srs_init (void)
{
    int k = 0 ;
#define S(name, s, t, any, tol) srs [k++] = (sr_t) { name, s, t, any, tol }
    S ("PLUS_TIMES_FP32", GrB_PLUS_TIMES_SEMIRING_FP32, GrB_FP32, false, 1e-5) ;
    S ("PLUS_TIMES_FP64", GrB_PLUS_TIMES_SEMIRING_FP64, GrB_FP64, false, 1e-12) ;
    S ("MIN_PLUS_INT32", GrB_MIN_PLUS_SEMIRING_INT32, GrB_INT32, false, 0) ;
    S ("MAX_PLUS_FP64", GrB_MAX_PLUS_SEMIRING_FP64, GrB_FP64, false, 0) ;
    S ("LOR_LAND_BOOL", GrB_LOR_LAND_SEMIRING_BOOL, GrB_BOOL, false, 0) ;
    S ("PLUS_PAIR_INT64", GxB_PLUS_PAIR_INT64, GrB_INT64, false, 0) ;
    S ("ANY_PAIR_BOOL", GxB_ANY_PAIR_BOOL, GrB_BOOL, true, 0) ;
    S ("PLUS_TIMES_FC64", GxB_PLUS_TIMES_FC64, GxB_FC64, false, 1e-12) ;
    S ("PLUS_TIMES_FC32", GxB_PLUS_TIMES_FC32, GxB_FC32, false, 1e-5) ;
    S ("TIMES_PLUS_UINT8", GxB_TIMES_PLUS_UINT8, GrB_UINT8, false, 0) ;
    S ("PLUS_TIMES_INT16", GrB_PLUS_TIMES_SEMIRING_INT16, GrB_INT16, false, 0) ;
    S ("MAX_FIRSTJ_INT32", GxB_MAX_FIRSTJ_INT32, GrB_INT32, false, 0) ;
    S ("MIN_SECONDJ1_INT64", GxB_MIN_SECONDJ1_INT64, GrB_INT64, false, 0) ;
    S ("PLUS_FIRSTI_INT32", GxB_PLUS_FIRSTI_INT32, GrB_INT32, false, 0) ;
    S ("BXOR_BAND_UINT16", GxB_BXOR_BAND_UINT16, GrB_UINT16, false, 0) ;
    S ("MIN_SECOND_FP32", GxB_MIN_SECOND_FP32, GrB_FP32, false, 0) ;
    S ("MAX_TIMES_INT8", GxB_MAX_TIMES_INT8, GrB_INT8, false, 0) ;
    S ("ANY_SECONDI_INT64", GxB_ANY_SECONDI_INT64, GrB_INT64, true, 0) ;
#undef S
    nsr = k ;
}

// a full r-by-c matrix of small random values (by column, or iso), held full
static GrB_Matrix full (GrB_Type t, GrB_Index r, GrB_Index c, bool by_col, bool iso, uint64_t *st)
{
    GrB_Matrix X = NULL ;
    OK (GrB_Matrix_new (&X, t, r, c)) ;
    OK (GxB_Matrix_Option_set (X, GxB_SPARSITY_CONTROL, GxB_FULL)) ;
    if (by_col) OK (GxB_Matrix_Option_set (X, GxB_FORMAT, GxB_BY_COL)) ;
    if (iso) OK (GrB_Matrix_assign_FP64 (X, NULL, NULL, 3, GrB_ALL, r, GrB_ALL, c, NULL)) ;
    else
    {
        GrB_Index n = r * c ;
        GrB_Index *I = malloc ((n + 1) * sizeof (GrB_Index)), *J = malloc ((n + 1) * sizeof (GrB_Index)) ;
        double *V = malloc ((n + 1) * sizeof (double)) ;
        for (GrB_Index q = 0 ; q < n ; q++)
        {
            I [q] = q / c ; J [q] = q % c ;
            V [q] = 1 + (double) (gcu_rand (st) % 5) - (gcu_rand (st) % 7 == 0 ? 3 : 0) ;
        }
        OK (GrB_Matrix_build_FP64 (X, I, J, V, n, GrB_PLUS_FP64)) ;
        free (I) ; free (J) ; free (V) ;
    }
    OK (GrB_Matrix_wait (X, GrB_MATERIALIZE)) ;
    return X ;
}

// SuiteSparse holds X full (a tiny one may be held as a bitmap: the dense
// paths then decline, and the sparse families take the call)
static bool held_full (GrB_Matrix X)
{
    int32_t sp = 0 ;
    OK (GxB_Matrix_Option_get (X, GxB_SPARSITY_STATUS, &sp)) ;
    return sp == GxB_FULL ;
}

// sparse A m-by-k: random rows (some empty), one dense row, or iso values
static GrB_Matrix sparse_a (GrB_Type t, GrB_Index m, GrB_Index k, int kind, uint64_t *st)
{
    GrB_Matrix A = gcu_test_random_matrix (t, m, k, kind == 1 ? 0.02 : 0.08, st) ;
    if (kind == 1 && m > 0)
        for (GrB_Index j = 0 ; j < k ; j++) OK (GrB_Matrix_setElement_FP64 (A, 1 + (double) (j % 3), m / 2, j)) ;
    if (kind == 2) OK (GrB_Matrix_assign_FP64 (A, A, NULL, 2, GrB_ALL, m, GrB_ALL, k, GrB_DESC_S)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

static int gpu_runs ;
static int iso_hosted ;     // calls left to the host for the result's iso status
static bool last_iso_host ;  // the last compare's call was one of them

static bool positional (const sr_t *sr)
{
    return strstr (sr->name, "FIRSTI") || strstr (sr->name, "FIRSTJ")
        || strstr (sr->name, "SECONDI") || strstr (sr->name, "SECONDJ") ;
}

// a copy of X that SuiteSparse may hold in any form but hypersparse
static GrB_Matrix not_hyper (GrB_Matrix X)
{
    GrB_Matrix Y = NULL ;
    OK (GrB_Matrix_dup (&Y, X)) ;
    OK (GxB_Matrix_Option_set (Y, GxB_SPARSITY_CONTROL, GxB_SPARSE + GxB_BITMAP + GxB_FULL)) ;
    OK (GrB_Matrix_wait (Y, GrB_MATERIALIZE)) ;
    return Y ;
}

// the call through grbcuda and through SuiteSparse; same info, same C
static void compare (const sr_t *sr, GrB_Matrix C0, GrB_Matrix M, GrB_BinaryOp accum,
    GrB_Matrix A, GrB_Matrix B, GrB_Descriptor d, const char *what)
{
    GrB_Matrix C1 = NULL, C2 = NULL ;
    OK (GrB_Matrix_dup (&C1, C0)) ;
    OK (GrB_Matrix_dup (&C2, C0)) ;
    grbcuda_op_stats s0, s1 ;
    grbcuda_stats_get ("GrB_mxm", &s0) ;
    const uint64_t iso0 = gcu_iso_declined () ;
    GrB_Info i1 = GrB_mxm (C1, M, accum, sr->s, A, B, d) ;
    grbcuda_stats_get ("GrB_mxm", &s1) ;
    // a result whose iso status in SuiteSparse grbcuda cannot tell stays on
    // the host (src/residency/iso_status.c; the result is compared below)
    // (one family may decline it and the next run it)
    const bool iso_host = gcu_iso_declined () != iso0 && s1.gpu == s0.gpu ;
    iso_hosted += iso_host ;
    last_iso_host = iso_host ;
    // SuiteSparse 7.4's dot method gives FIRSTI the position in a
    // hypersparse A's list of rows instead of the row index (A hypersparse
    // by row, B bitmap or full by column; SECONDJ likewise with B
    // hypersparse): its oracle for a positional multiplier reads the same
    // values from operands it holds sparse
    GrB_Matrix A2 = A, B2 = B ;
    if (positional (sr)) { A2 = not_hyper (A) ; B2 = not_hyper (B) ; }
    GrB_Info i2 = real_mxm (C2, M, accum, sr->s, A2, B2, d) ;
    if (A2 != A) GrB_Matrix_free (&A2) ;
    if (B2 != B) GrB_Matrix_free (&B2) ;
    CHECK (i1 == i2, "%s: info %d vs %d", what, (int) i1, (int) i2) ;
    CHECK (s1.gpu == s0.gpu + !iso_host, "%s: not on the GPU (failed %llu, no kernel %llu)", what,
        (unsigned long long) (s1.reason [GRBCUDA_REASON_GPU_FAILED] - s0.reason [GRBCUDA_REASON_GPU_FAILED]),
        (unsigned long long) (s1.reason [GRBCUDA_REASON_NO_KERNEL] - s0.reason [GRBCUDA_REASON_NO_KERNEL])) ;
    gpu_runs += (int) (s1.gpu - s0.gpu) ;
    CHECK (gcu_test_matrix_equal (C1, C2, sr->tol, sr->any, what), "%s differs from SuiteSparse", what) ;
    GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ;
}

// the output and the write-back's settings, at random
static void outputs (const sr_t *sr, GrB_Index m, GrB_Index n, bool masked, uint64_t *st,
    GrB_Matrix *C0, GrB_Matrix *M, GrB_BinaryOp *accum, GrB_Descriptor d)
{
    GrB_Type tc = (gcu_rand (st) % 5 == 0) ? GrB_FP64 : sr->t ;
    if (sr->t == GxB_FC64 || sr->t == GxB_FC32) tc = sr->t ;
    *C0 = gcu_test_random_matrix (tc, m, n, gcu_rand (st) % 2 ? 0.0 : 0.1, st) ;
    *M = NULL ;
    if (masked)
    {
        *M = gcu_test_random_matrix (gcu_rand (st) % 2 ? GrB_BOOL : GrB_INT32, m, n, 0.3, st) ;
        const int mk = (int) (gcu_rand (st) % 4) ;
        if (mk & 1) OK (GrB_Descriptor_set (d, GrB_MASK, GrB_STRUCTURE)) ;
        if (mk & 2) OK (GrB_Descriptor_set (d, GrB_MASK, GrB_COMP)) ;
        if (gcu_rand (st) % 2) OK (GrB_Descriptor_set (d, GrB_OUTP, GrB_REPLACE)) ;
    }
    *accum = (gcu_rand (st) % 4 == 0) ? gcu_test_plus (tc) : NULL ;
}

// C = op(A)*op(X): A m-by-kd sparse, X kd-by-n full (given transposed at random)
static void spmm_trial (const sr_t *sr, GrB_Index m, GrB_Index kd, GrB_Index n, bool masked,
    uint64_t *st)
{
    const bool ta = gcu_rand (st) % 4 == 0, tb = gcu_rand (st) % 4 == 0 ;
    const bool by_col = gcu_rand (st) % 3 == 0, iso = gcu_rand (st) % 8 == 0 ;
    const int kind = (int) (gcu_rand (st) % 4) ;
    GrB_Matrix A = ta ? sparse_a (sr->t, kd, m, kind, st) : sparse_a (sr->t, m, kd, kind, st) ;
    GrB_Matrix X = tb ? full (sr->t, n, kd, by_col, iso, st) : full (sr->t, kd, n, by_col, iso, st) ;
    GrB_Descriptor d = NULL ;
    OK (GrB_Descriptor_new (&d)) ;
    if (ta) OK (GrB_Descriptor_set (d, GrB_INP0, GrB_TRAN)) ;
    if (tb) OK (GrB_Descriptor_set (d, GrB_INP1, GrB_TRAN)) ;
    GrB_Matrix C0, M ;
    GrB_BinaryOp accum ;
    outputs (sr, m, n, masked, st, &C0, &M, &accum, d) ;
    char what [160] ;
    snprintf (what, sizeof (what), "spmm %s %llux%llux%llu%s%s%s%s%s%s%s", sr->name,
        (unsigned long long) m, (unsigned long long) kd, (unsigned long long) n, ta ? " A'" : "",
        tb ? " X'" : "", by_col ? " X by col" : "", iso ? " X iso" : "", kind == 2 ? " A iso" : "",
        masked ? " masked" : "", accum ? " accum" : "") ;
    const uint64_t r0 = gcu_family_runs ("spmm") ;
    const uint64_t h0 = iso_hosted ;
    compare (sr, C0, M, accum, A, X, d, what) ;
    // again: the plan cached with A; then A changed (one entry more or
    // another value): the cached plan must not serve it
    if (!masked && !ta)
    {
        compare (sr, C0, M, accum, A, X, d, what) ;
        OK (GrB_Matrix_setElement_FP64 (A, 2, m - 1, 0)) ;
        OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
        compare (sr, C0, M, accum, A, X, d, what) ;
    }
    const bool any_iso_host = iso_hosted != h0 ;
    // unmasked: SpMM's call (a mask may go to the masked dot family first)
    if (!masked && held_full (X) && !any_iso_host)
        CHECK (gcu_family_runs ("spmm") == r0 + (ta ? 1 : 3), "%s: not the spmm family", what) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&X) ; GrB_Matrix_free (&C0) ;
    GrB_Matrix_free (&M) ; GrB_Descriptor_free (&d) ;
}

#include "test_spmm_gpu_nan.h"

// C<M> = X*Y' (Y n-by-k) or X*B (B k-by-n), X m-by-k: all full
static void sddmm_trial (const sr_t *sr, GrB_Index m, GrB_Index k, GrB_Index n, uint64_t *st)
{
    const bool tb = gcu_rand (st) % 3 != 0 ;
    const bool xcol = gcu_rand (st) % 3 == 0, ycol = gcu_rand (st) % 3 == 0 ;
    // the batched kernel's batch (the type's default, more entries than
    // lanes, fewer, one), loads in flight, blocks an SM (registers capped
    // for them) and runs (the default, one a sub-group, one batch); the
    // kernel (the default for the mask's rows, by rows, by runs) and A's
    // rows evicted first or not (by rows)
    static const char *const batches [] = { "", "32", "4", "1" }, *const unrolls [] = { "2", "4", "8" } ;
    static const char *const minbs [] = { "", "2", "6" }, *const segs [] = { "", "-1", "1" } ;
    static const char *const kernels [] = { "", "rows", "runs" }, *const hints [] = { "", "0", "1" } ;
    static const char *const nats [] = { "", "0" } ;
    const char *batch = batches [gcu_rand (st) % 4], *unroll = unrolls [gcu_rand (st) % 3] ;
    const char *minb = minbs [gcu_rand (st) % 3], *seg = segs [gcu_rand (st) % 3] ;
    const char *kernel = kernels [gcu_rand (st) % 3], *hint = hints [gcu_rand (st) % 3] ;
    const char *nat = nats [gcu_rand (st) % 2] ;
    setenv ("GRBCUDA_SDDMM_BATCH", batch, 1) ;
    setenv ("GRBCUDA_SDDMM_UNROLL", unroll, 1) ;
    setenv ("GRBCUDA_SDDMM_MINB", minb, 1) ;
    setenv ("GRBCUDA_SDDMM_SEG", seg, 1) ;
    setenv ("GRBCUDA_SDDMM_KERNEL", kernel, 1) ;
    setenv ("GRBCUDA_SDDMM_XHINT", hint, 1) ;
    setenv ("GRBCUDA_SDDMM_NAT", nat, 1) ;
    GrB_Matrix X = full (sr->t, m, k, xcol, gcu_rand (st) % 10 == 0, st) ;
    GrB_Matrix Y = tb ? full (sr->t, n, k, ycol, false, st) : full (sr->t, k, n, ycol, false, st) ;
    GrB_Descriptor d = NULL ;
    OK (GrB_Descriptor_new (&d)) ;
    if (tb) OK (GrB_Descriptor_set (d, GrB_INP1, GrB_TRAN)) ;
    GrB_Matrix C0, M ;
    GrB_BinaryOp accum ;
    outputs (sr, m, n, true, st, &C0, &M, &accum, d) ;
    GrB_Desc_Value mv = GxB_DEFAULT ;
    OK (GxB_Descriptor_get (&mv, d, GrB_MASK)) ;
    const bool comp = mv == GrB_COMP || mv == GrB_COMP + GrB_STRUCTURE ;
    char what [300] ;
    snprintf (what, sizeof (what), "sddmm %s %llux%llux%llu%s%s%s%s%s batch '%s' unroll %s "
        "minb '%s' seg '%s' kernel '%s' hint '%s' NAT '%s'", sr->name, (unsigned long long) m,
        (unsigned long long) k, (unsigned long long) n, tb ? " Y'" : " B", xcol ? " X by col" : "",
        ycol ? " Y by col" : "", comp ? " complemented" : "", accum ? " accum" : "", batch, unroll,
        minb, seg, kernel, hint, nat) ;
    const uint64_t r0 = gcu_mxm_sddmm_runs () ;
    compare (sr, C0, M, accum, X, Y, d, what) ;
    // a complemented mask is not the dot form's
    if (!comp && held_full (X) && held_full (Y) && !last_iso_host)
        CHECK (gcu_mxm_sddmm_runs () == r0 + 1, "%s: not the sddmm kernel", what) ;
    unsetenv ("GRBCUDA_SDDMM_BATCH") ;
    unsetenv ("GRBCUDA_SDDMM_UNROLL") ;
    unsetenv ("GRBCUDA_SDDMM_MINB") ;
    unsetenv ("GRBCUDA_SDDMM_SEG") ;
    unsetenv ("GRBCUDA_SDDMM_KERNEL") ;
    unsetenv ("GRBCUDA_SDDMM_XHINT") ;
    unsetenv ("GRBCUDA_SDDMM_NAT") ;
    GrB_Matrix_free (&X) ; GrB_Matrix_free (&Y) ; GrB_Matrix_free (&C0) ;
    GrB_Matrix_free (&M) ; GrB_Descriptor_free (&d) ;
}

// The SpMM paths the trials cycle through (-1: the defaults): 0 ASpT tiles
// forced; 1 row-wise as by default; 2 rows sorted by length, 2 column
// chunks a lane, 8 loads in flight, bounds of 4 blocks, rows over 4
// entries in segments (several for a row over 96: the fold), A prefetched
// (PIPE=1), X's rows loaded with their columns' cache classes (HUB=1, a
// few rows' bytes hot, more warm, the rest cold); 3 every row
// through the segment kernel (GRBCUDA_SPMM_ROWS=0); 4 rows of at most 10
// entries in column slices of 8, 2 loads in flight, no cache hints, a
// group an item, the longer rows in segments of 5 (partial rows, the
// fold), the semiring's own operators (NAT=0); 5 bounds of 6 blocks, one
// block an SM (groups striding over many items), sorted, the cache classes
// with every column of 16 entries hot and the others cold
#define SPMM_PATHS 6
static void spmm_path (int path)
{
    static const char *const knobs [] =
        { "TILE", "CH", "ROWS", "SORT", "RMAX", "UNROLL", "HINT", "SLICE", "SEG", "MINB", "GRID",
          "PIPE", "NAT", "HUB", "HUB_L1", "HUB_L2" } ;
    static const char *const set [SPMM_PATHS] = {
        "TILE=1",
        "TILE=0",
        "TILE=0,CH=2,SORT=1,RMAX=4,UNROLL=8,MINB=4,PIPE=1,HUB=1,HUB_L1=4096,HUB_L2=65536",
        "TILE=0,ROWS=0",
        "TILE=0,RMAX=10,SLICE=8,UNROLL=2,HINT=0,SEG=5,GRID=0,SORT=0,NAT=0",
        "TILE=0,MINB=6,GRID=1,SORT=1,HUB=1,HUB_L1=100000000,HUB_L2=1" } ;
    char name [64], buf [128] ;
    for (size_t k = 0 ; k < sizeof (knobs) / sizeof (knobs [0]) ; k++)
    {
        snprintf (name, sizeof (name), "GRBCUDA_SPMM_%s", knobs [k]) ;
        unsetenv (name) ;
    }
    if (path < 0) return ;
    snprintf (buf, sizeof (buf), "%s", set [path]) ;
    for (char *tok = strtok (buf, ",") ; tok != NULL ; tok = strtok (NULL, ","))
    {
        char *eq = strchr (tok, '=') ;
        *eq = '\0' ;
        snprintf (name, sizeof (name), "GRBCUDA_SPMM_%s", tok) ;
        setenv (name, eq + 1, 1) ;
    }
}

#include "test_spmm_gpu_faults.h"

int main (int argc, char **argv)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!grbcuda_gpu_available ())
    {
        printf ("SKIP: no usable GPU; test_spmm_gpu needs one\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    real_mxm = (mxm_t) gcu_test_real ("GrB_mxm") ;
    real_transpose = (transpose_t) gcu_test_real ("GrB_transpose") ;
    gcu_test_types_init () ;
    srs_init () ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    uint64_t st = 20261126 ;
    // a reduced run (compute-sanitizer): argv [1] semirings
    if (argc > 1 && atoi (argv [1]) > 0 && atoi (argv [1]) < nsr) nsr = atoi (argv [1]) ;
    const GrB_Index ks [] = { 1, 3, 32, 33, 128, 512 } ;
    const GrB_Index ms [] = { 1, 40, 300 } ;
    for (int si = 0 ; si < nsr ; si++)
    {
        printf ("semiring %s\n", srs [si].name) ;
        fflush (stdout) ;
        for (size_t q = 0 ; q < sizeof (ks) / sizeof (ks [0]) ; q++)
            for (size_t r = 0 ; r < sizeof (ms) / sizeof (ms [0]) ; r++)
            {
                // every SpMM path (spmm_path)
                spmm_path ((int) ((q + r) % SPMM_PATHS)) ;
                spmm_trial (&srs [si], ms [r], 50 + 7 * r, ks [q], false, &st) ;
                spmm_trial (&srs [si], ms [r], 20, ks [q], true, &st) ;
                sddmm_trial (&srs [si], ms [r], ks [q], 30 + 11 * r, &st) ;
            }
    }
    // NaNs and infinities: ASpT's tiles (a row summed tile by tile), the row
    // kernel as by default, and sorted with segments, prefetches, two chunks
    // a lane, and the exact arithmetic everywhere (NAT=0)
    for (int path = 0 ; path <= 4 ; path += (path == 2) ? 2 : 1)
    {
        spmm_path (path) ;
        nan_trial (GrB_PLUS_TIMES_SEMIRING_FP32, GrB_FP32, &st) ;
        nan_trial (GrB_PLUS_TIMES_SEMIRING_FP64, GrB_FP64, &st) ;
    }
    spmm_path (-1) ;
    // SDDMM's: by rows and by runs, native sums (a batch with a NaN summed
    // again) and the semiring's operators, VEC 4 and 1 (k = 64, 57)
    static const char *const nan_kernels [] = { "rows", "runs" }, *const nan_nats [] = { "1", "0" } ;
    for (int q = 0 ; q < 4 ; q++)
    {
        sddmm_nan_trial (GrB_PLUS_TIMES_SEMIRING_FP32, GrB_FP32, q == 3 ? 57 : 64,
            nan_kernels [q % 2], nan_nats [q / 2], &st) ;
        sddmm_nan_trial (GrB_PLUS_TIMES_SEMIRING_FP64, GrB_FP64, q == 3 ? 57 : 64,
            nan_kernels [q % 2], nan_nats [q / 2], &st) ;
    }
    printf ("%d left to the host for their iso status\n", iso_hosted) ;
    printf ("%d products on the GPU: spmm %llu, sddmm %llu\n", gpu_runs,
        (unsigned long long) gcu_family_runs ("spmm"), (unsigned long long) gcu_mxm_sddmm_runs ()) ;
    fault_loop (&st) ;
    grbcuda_set_mode (GRBCUDA_MODE_AUTO) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_spmm_gpu") ;
}
