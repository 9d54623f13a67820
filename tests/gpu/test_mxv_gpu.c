// GRBCUDA_TEST_INTERNAL
// test_mxv_gpu.c — GrB_mxv and GrB_vxm on the GPU (the "mxv" and "vxm"
// families, src/mxv/) against SuiteSparse: many semirings and types (1-, 2-,
// 4-, 8- and 16-byte values, positional multipliers, ANY), the matrix in
// every storage format and given transposed, u empty, sparse or full, both
// methods (pull, push) and the automatic choice, masks (valued, structural,
// complemented), replace, accum, w aliased with u; the SpMV variants (u
// full, no mask: vector, stream, sell, adaptive, sellsort, each with long
// rows split and not) forced one by one on every shape, and the automatic
// choice on a power-law matrix (sellsort, split; and for monoids with a
// terminal value: MIN and TIMES split, ANY and LOR pull) and on a band matrix of 7
// diagonals (sell; valued and iso, the slices cached, then rebuilt for a
// changed matrix);
// push's split of long rows of P (forced small on the random cases; at its
// own bound on a hub matrix with rows of more than 20,000 entries). Then a
// BFS (levels and parents, LAGraph's form: q<!v,struct,replace> = q*A)
// against the host's, a residency check (an unchanged matrix is not uploaded
// again), and fault injection: every counted device operation of one
// GrB_vxm fails in turn (pull, push, push with the split); each time the
// answer is still SuiteSparse's and no device memory is left.
#include "gcu_test.h"
#include "grbcuda.h"
#include "device/gcu_cuda.h"
#include "dispatch/gcu_dispatch.h"
#include "residency/gcu_residency.h"
#include "mxv/gcu_mxv.h"
#include "gcu_util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef GrB_Info (*mxv_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Vector, const GrB_Descriptor) ;
typedef GrB_Info (*vxm_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Vector, const GrB_Matrix, const GrB_Descriptor) ;
static mxv_t real_mxv ;
static vxm_t real_vxm ;

// the matrix of type ta, the vector of type tu
typedef struct { const char *name ; GrB_Semiring s ; GrB_Type ta, tu ; bool any ; double tol ; } sr_t ;
static sr_t srs [32] ;
static int nsr ;

static void srs_init (void)
{
    int k = 0 ;
#define S(name, s, ta, tu, any, tol) srs [k++] = (sr_t) { name, s, ta, tu, any, tol }
    S ("PLUS_TIMES_FP64", GrB_PLUS_TIMES_SEMIRING_FP64, GrB_FP64, GrB_FP64, false, 1e-12) ;
    S ("PLUS_TIMES_FP32", GrB_PLUS_TIMES_SEMIRING_FP32, GrB_FP32, GrB_FP32, false, 1e-5) ;
    S ("MIN_PLUS_INT32", GrB_MIN_PLUS_SEMIRING_INT32, GrB_INT32, GrB_INT32, false, 0) ;
    S ("ANY_SECONDI_INT64", GxB_ANY_SECONDI_INT64, GrB_BOOL, GrB_INT64, true, 0) ;
    S ("ANY_PAIR_BOOL", GxB_ANY_PAIR_BOOL, GrB_BOOL, GrB_BOOL, true, 0) ;
    S ("LOR_LAND_BOOL", GrB_LOR_LAND_SEMIRING_BOOL, GrB_BOOL, GrB_BOOL, false, 0) ;
    S ("MIN_FIRST_INT64", GxB_MIN_FIRST_INT64, GrB_INT64, GrB_INT64, false, 0) ;
    S ("MIN_SECOND_INT64", GxB_MIN_SECOND_INT64, GrB_INT64, GrB_INT64, false, 0) ;
    S ("PLUS_PAIR_INT64", GxB_PLUS_PAIR_INT64, GrB_FP64, GrB_INT32, false, 0) ;
    S ("MAX_FIRSTI_INT64", GxB_MAX_FIRSTI_INT64, GrB_FP64, GrB_FP64, false, 0) ;
    S ("MIN_FIRSTJ_INT32", GxB_MIN_FIRSTJ_INT32, GrB_INT32, GrB_INT32, false, 0) ;
    S ("MAX_SECONDI1_INT64", GxB_MAX_SECONDI1_INT64, GrB_INT64, GrB_INT64, false, 0) ;
    S ("MIN_SECONDJ_INT64", GxB_MIN_SECONDJ_INT64, GrB_INT64, GrB_INT64, false, 0) ;
    S ("PLUS_TIMES_FC64", GxB_PLUS_TIMES_FC64, GxB_FC64, GxB_FC64, false, 1e-12) ;
    S ("TIMES_PLUS_UINT8", GxB_TIMES_PLUS_UINT8, GrB_UINT8, GrB_UINT8, false, 0) ;
    S ("PLUS_TIMES_INT16", GrB_PLUS_TIMES_SEMIRING_INT16, GrB_INT16, GrB_INT16, false, 0) ;
    S ("BXOR_BAND_UINT16", GxB_BXOR_BAND_UINT16, GrB_UINT16, GrB_UINT16, false, 0) ;
    S ("PLUS_TIMES_FP64 (int8 A)", GrB_PLUS_TIMES_SEMIRING_FP64, GrB_INT8, GrB_FP64, false, 1e-12) ;
#undef S
    nsr = k ;
}

typedef struct { GrB_Index m, n ; double da ; } shape_t ;
static const shape_t shapes [] =
{
    { 0, 5, 0.3 }, { 5, 0, 0.3 }, { 1, 1, 1.0 }, { 1, 30, 0.5 }, { 30, 1, 0.5 },
    { 40, 50, 0.1 }, { 200, 150, 0.05 }, { 300, 300, 0.02 }, { 1000, 900, 0.01 },
    { 60, 60, 1.0 }, { 100, 5000, 0.004 }, { 5000, 100, 0.004 }, { 20000, 20000, 0.00005 },
} ;

static double u_density [] = { 0.0, 0.01, 0.3, 1.0 } ;

static int gpu_runs ;
static int iso_hosted ;     // calls left to the host for the result's iso status

static void trial (const sr_t *sr, const shape_t *sh, uint64_t *st, bool vxm, int method)
{
    gcu_mxv_force_method (method) ;
    // half the forced pushes split every row of P longer than 8 entries
    const bool split = method == 2 && gcu_rand (st) % 2 ;
    gcu_mxv_force_push_split (split ? 1 : -1, split ? 8 : 0, split ? 3 : 0) ;
    // op(M): m-by-n for mxv (w = op(M)*u, |u| = n); n-by-m for vxm (w' = u'*op(M))
    const GrB_Index m = sh->m, n = sh->n ;
    const bool tran = gcu_rand (st) % 3 == 0 ;
    GrB_Index r = vxm ? n : m, c = vxm ? m : n ;    // op(M)'s shape
    GrB_Matrix M = tran ? gcu_test_random_matrix (sr->ta, c, r, sh->da, st)
                        : gcu_test_random_matrix (sr->ta, r, c, sh->da, st) ;
    GrB_Vector u = gcu_test_random_vector (sr->tu, n, u_density [gcu_rand (st) % 4], st) ;
    GrB_Type tw = (gcu_rand (st) % 5 == 0) ? GrB_FP64 : sr->tu ;
    if (sr->tu == GxB_FC64) tw = sr->tu ;
    // w aliased with u when the shapes and types allow it
    const bool alias = (m == n) && tw == sr->tu && gcu_rand (st) % 4 == 0 ;
    GrB_Vector w0 = alias ? NULL : gcu_test_random_vector (tw, m, gcu_rand (st) % 2 ? 0.0 : 0.3, st) ;
    GrB_Vector mask = NULL ;
    GrB_Descriptor d = NULL ;
    GrB_Descriptor_new (&d) ;
    if (tran) GrB_Descriptor_set (d, vxm ? GrB_INP1 : GrB_INP0, GrB_TRAN) ;
    const bool masked = gcu_rand (st) % 2 ;
    if (masked)
    {
        mask = gcu_test_random_vector (gcu_rand (st) % 2 ? GrB_BOOL : GrB_INT32, m, 0.3, st) ;
        int mk = (int) (gcu_rand (st) % 4) ;
        if (mk & 1) GrB_Descriptor_set (d, GrB_MASK, GrB_STRUCTURE) ;
        if (mk & 2) GrB_Descriptor_set (d, GrB_MASK, GrB_COMP) ;
        if (gcu_rand (st) % 2) GrB_Descriptor_set (d, GrB_OUTP, GrB_REPLACE) ;
    }
    GrB_BinaryOp accum = (gcu_rand (st) % 4 == 0) ? gcu_test_plus (tw) : NULL ;
    GrB_Vector w1 = NULL, w2 = NULL ;
    GrB_Vector_dup (&w1, alias ? u : w0) ;
    GrB_Vector_dup (&w2, alias ? u : w0) ;
    grbcuda_op_stats s0, s1 ;
    const char *opname = vxm ? "GrB_vxm" : "GrB_mxv" ;
    grbcuda_stats_get (opname, &s0) ;
    uint64_t runs0 = gcu_family_runs (vxm ? "vxm" : "mxv") ;
    const uint64_t iso0 = gcu_iso_declined () ;
    GrB_Info i1, i2 ;
    if (vxm)
    {
        i1 = GrB_vxm (w1, mask, accum, sr->s, alias ? w1 : u, M, d) ;
        i2 = real_vxm (w2, mask, accum, sr->s, alias ? w2 : u, M, d) ;
    }
    else
    {
        i1 = GrB_mxv (w1, mask, accum, sr->s, M, alias ? w1 : u, d) ;
        i2 = real_mxv (w2, mask, accum, sr->s, M, alias ? w2 : u, d) ;
    }
    grbcuda_stats_get (opname, &s1) ;
    char what [160] ;
    snprintf (what, sizeof (what), "%s %s %llux%llu%s%s%s%s method %d%s", opname, sr->name,
        (unsigned long long) m, (unsigned long long) n, tran ? " tran" : "",
        masked ? " masked" : "", accum ? " accum" : "", alias ? " alias" : "", method,
        split ? " split" : "") ;
    CHECK (i1 == i2, "%s: info %d vs %d", what, (int) i1, (int) i2) ;
    // the multipliers whose result is the output's own index stay on the
    // host (src/mxv/mxv.c, mxv_branch)
    // (and a result SuiteSparse makes iso, or whose status grbcuda cannot
    // tell: src/residency/iso_status.c)
    const bool iso_host = gcu_iso_declined () != iso0 ;
    iso_hosted += iso_host ;
    const bool declined = (vxm ? strstr (sr->name, "_SECONDJ") != NULL
                               : strstr (sr->name, "_FIRSTI") != NULL) || iso_host ;
    if (m == 0 || n == 0)
    {
        // an empty dimension is SuiteSparse's (src/dispatch)
        CHECK (s1.gpu == s0.gpu, "%s: should have stayed on the host", what) ;
    }
    else if (declined)
    {
        CHECK (s1.gpu == s0.gpu && s1.reason [GRBCUDA_REASON_NO_KERNEL] == s0.reason [GRBCUDA_REASON_NO_KERNEL] + 1,
            "%s: should have stayed on the host", what) ;
    }
    else
    {
        CHECK (s1.gpu == s0.gpu + 1, "%s: did not run on the GPU (failed %llu, no kernel %llu)", what,
            (unsigned long long) (s1.reason [GRBCUDA_REASON_GPU_FAILED] - s0.reason [GRBCUDA_REASON_GPU_FAILED]),
            (unsigned long long) (s1.reason [GRBCUDA_REASON_NO_KERNEL] - s0.reason [GRBCUDA_REASON_NO_KERNEL])) ;
        CHECK (gcu_family_runs (vxm ? "vxm" : "mxv") == runs0 + 1, "%s: not the family", what) ;
    }
    gpu_runs += (int) (s1.gpu - s0.gpu) ;
    CHECK (gcu_test_vector_equal (w1, w2, sr->tol, sr->any, what), "%s differs from SuiteSparse", what) ;
    GrB_Vector_free (&w1) ; GrB_Vector_free (&w2) ; GrB_Vector_free (&w0) ;
    GrB_Vector_free (&u) ; GrB_Vector_free (&mask) ; GrB_Matrix_free (&M) ;
    GrB_Descriptor_free (&d) ;
    gcu_mxv_force_method (0) ;
    gcu_mxv_force_push_split (-1, 0, 0) ;
}

//------------------------------------------------------------------------------
// the SpMV variants, forced: u full, no mask
//------------------------------------------------------------------------------

static void spmv_trial (const sr_t *sr, const shape_t *sh, uint64_t *st, bool vxm, int variant,
    int split)
{
    // long rows above 8 entries when split: every shape with longer rows;
    // the hub order forced on in half the trials
    gcu_mxv_force_variant (variant, split, 8) ;
    const int hub = (int) (gcu_rand (st) % 2) ;
    gcu_mxv_force_spmv_hub (hub) ;
    const GrB_Index m = sh->m, n = sh->n ;
    const bool tran = gcu_rand (st) % 3 == 0 ;
    GrB_Index r = vxm ? n : m, c = vxm ? m : n ;
    GrB_Matrix M = tran ? gcu_test_random_matrix (sr->ta, c, r, sh->da, st)
                        : gcu_test_random_matrix (sr->ta, r, c, sh->da, st) ;
    GrB_Vector u = gcu_test_random_vector (sr->tu, n, 1.0, st) ;
    GrB_Type tw = sr->tu == GxB_FC64 ? sr->tu : (gcu_rand (st) % 5 == 0) ? GrB_FP64 : sr->tu ;
    GrB_Vector w1 = gcu_test_random_vector (tw, m, gcu_rand (st) % 2 ? 0.0 : 0.3, st), w2 = NULL ;
    GrB_Vector_dup (&w2, w1) ;
    GrB_Descriptor d = NULL ;
    GrB_Descriptor_new (&d) ;
    if (tran) GrB_Descriptor_set (d, vxm ? GrB_INP1 : GrB_INP0, GrB_TRAN) ;
    GrB_BinaryOp accum = (gcu_rand (st) % 4 == 0) ? gcu_test_plus (tw) : NULL ;
    grbcuda_op_stats s0, s1 ;
    const char *opname = vxm ? "GrB_vxm" : "GrB_mxv" ;
    grbcuda_stats_get (opname, &s0) ;
    gcu_mxv_last_spmv_reset () ;
    const uint64_t iso0 = gcu_iso_declined () ;
    GrB_Info i1 = vxm ? GrB_vxm (w1, NULL, accum, sr->s, u, M, d) : GrB_mxv (w1, NULL, accum, sr->s, M, u, d) ;
    const bool iso_host = gcu_iso_declined () != iso0 ;
    iso_hosted += iso_host ;
    const int ran = gcu_mxv_last_spmv () ;
    GrB_Info i2 = vxm ? real_vxm (w2, NULL, accum, sr->s, u, M, d) : real_mxv (w2, NULL, accum, sr->s, M, u, d) ;
    grbcuda_stats_get (opname, &s1) ;
    char what [160] ;
    snprintf (what, sizeof (what), "%s %s %llux%llu%s%s spmv variant %d split %d hub %d", opname,
        sr->name, (unsigned long long) m, (unsigned long long) n, tran ? " tran" : "",
        accum ? " accum" : "", variant, split, hub) ;
    CHECK (i1 == i2, "%s: info %d vs %d", what, (int) i1, (int) i2) ;
    GrB_Index anv = 0 ;
    GrB_Matrix_nvals (&anv, M) ;
    const bool declined = (vxm ? strstr (sr->name, "_SECONDJ") != NULL : strstr (sr->name, "_FIRSTI") != NULL)
        || iso_host ;
    if (m > 0 && n > 0 && anv > 0 && !declined)
    {
        CHECK (s1.gpu == s0.gpu + 1, "%s: did not run on the GPU", what) ;
        // the stream variant never serves a positional multiplier (vector does),
        const bool positional = strstr (sr->name, "I_") != NULL || strstr (sr->name, "J_") != NULL
            || strstr (sr->name, "I1_") != NULL || strstr (sr->name, "J1_") != NULL ;
        // nor adaptive (its products staged as stream's); sell does
        const int want = ((variant == GCU_SPMV_STREAM || variant == GCU_SPMV_ADAPTIVE) && positional)
            ? GCU_SPMV_VECTOR : variant ;
        CHECK (ran % 16 == want, "%s: ran variant %d", what, ran) ;
        // (positional multipliers read the columns' own positions: never)
        CHECK (gcu_mxv_last_spmv_hub () == (hub && !positional), "%s: hub order %d", what,
            gcu_mxv_last_spmv_hub ()) ;
    }
    gpu_runs += (int) (s1.gpu - s0.gpu) ;
    CHECK (gcu_test_vector_equal (w1, w2, sr->tol, sr->any, what), "%s differs from SuiteSparse", what) ;
    GrB_Vector_free (&w1) ; GrB_Vector_free (&w2) ; GrB_Vector_free (&u) ; GrB_Matrix_free (&M) ;
    GrB_Descriptor_free (&d) ;
    gcu_mxv_force_variant (GCU_SPMV_AUTO, -1, 0) ;
    gcu_mxv_force_spmv_hub (-1) ;
}

// the automatic hub order: a matrix of 2^18 columns, half of each row's
// entries in 3,000 hub columns (their share far above the bound), by mxv
// and vxm, FP64 and INT32: on, twice (the second call finds the order in
// the cache), equal to SuiteSparse; off when forced off
static void spmv_hub_test (uint64_t *st)
{
    const GrB_Index n = (GrB_Index) 1 << 18, per = 6 ;
    GrB_Index *I = malloc (n * per * sizeof (GrB_Index)), *J = malloc (n * per * sizeof (GrB_Index)) ;
    int32_t *X = malloc (n * per * sizeof (int32_t)) ;
    CHECK (I != NULL && J != NULL && X != NULL, "spmv hub: out of memory") ;
    if (I == NULL || J == NULL || X == NULL) { free (I) ; free (J) ; free (X) ; return ; }
    GrB_Index nv = 0 ;
    for (GrB_Index i = 0 ; i < n ; i++)
        for (GrB_Index k = 0 ; k < per ; k++)
        {
            const uint64_t r = gcu_rand (st) ;
            I [nv] = i ;
            J [nv] = k % 2 ? (r % 3000) * 87 % n : r % n ;
            X [nv] = (int32_t) (r % 9) - 4 ;
            nv++ ;
        }
    const GrB_Type ty [2] = { GrB_FP64, GrB_INT32 } ;
    const GrB_Semiring sr [2] = { GrB_PLUS_TIMES_SEMIRING_FP64, GrB_PLUS_TIMES_SEMIRING_INT32 } ;
    for (int t = 0 ; t < 2 ; t++)
    {
        GrB_Matrix A = NULL ;
        OK (GrB_Matrix_new (&A, ty [t], n, n)) ;
        OK (GrB_Matrix_build_INT32 (A, I, J, X, nv, GrB_PLUS_INT32)) ;
        OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
        GrB_Vector u = gcu_test_random_vector (ty [t], n, 1.0, st), w1 = NULL, w2 = NULL ;
        for (int vxm = 0 ; vxm <= 1 ; vxm++)
        {
            GrB_Descriptor d = vxm ? GrB_DESC_T1 : NULL ;
            OK (GrB_Vector_new (&w2, ty [t], n)) ;
            if (vxm) OK (real_vxm (w2, NULL, NULL, sr [t], u, A, d)) ;
            else OK (real_mxv (w2, NULL, NULL, sr [t], A, u, NULL)) ;
            for (int rep = 0 ; rep < 3 ; rep++)
            {
                gcu_mxv_force_spmv_hub (rep == 2 ? 0 : -1) ;
                OK (GrB_Vector_new (&w1, ty [t], n)) ;
                gcu_mxv_last_spmv_reset () ;
                if (vxm) OK (GrB_vxm (w1, NULL, NULL, sr [t], u, A, d)) ;
                else OK (GrB_mxv (w1, NULL, NULL, sr [t], A, u, NULL)) ;
                char what [64] ;
                snprintf (what, sizeof (what), "spmv hub (type %d, vxm %d, rep %d)", t, vxm, rep) ;
                CHECK (gcu_mxv_last_spmv () >= 0, "%s: not an SpMV variant", what) ;
                CHECK (gcu_mxv_last_spmv_hub () == (rep < 2), "%s: hub order %d", what, gcu_mxv_last_spmv_hub ()) ;
                CHECK (gcu_test_vector_equal (w1, w2, 1e-12, false, what), "%s differs from SuiteSparse", what) ;
                GrB_Vector_free (&w1) ;
            }
            GrB_Vector_free (&w2) ;
        }
        gcu_mxv_force_spmv_hub (-1) ;
        GrB_Vector_free (&u) ; GrB_Matrix_free (&A) ;
    }
    free (I) ; free (J) ; free (X) ;
}

// the automatic choice on a matrix with a few rows far longer than the rest
// (a power-law graph's shape): split, against SuiteSparse, and the plan
// cached with the matrix (the second call finds it)
static void spmv_auto_test (uint64_t *st)
{
    const GrB_Index n = 20000 ;
    GrB_Matrix A = gcu_test_random_matrix (GrB_FP64, n, n, 0.0004, st) ;
    for (GrB_Index k = 0 ; k < n ; k += 3) OK (GrB_Matrix_setElement_FP64 (A, 1.0 + k % 7, 5, k)) ;
    for (GrB_Index k = 0 ; k < n ; k += 2) OK (GrB_Matrix_setElement_FP64 (A, 2.0, 777, k)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    GrB_Vector u = gcu_test_random_vector (GrB_FP64, n, 1.0, st), w1 = NULL, w2 = NULL ;
    OK (GrB_Vector_new (&w2, GrB_FP64, n)) ;
    OK (real_mxv (w2, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL)) ;
    for (int rep = 0 ; rep < 2 ; rep++)
    {
        OK (GrB_Vector_new (&w1, GrB_FP64, n)) ;
        gcu_mxv_last_spmv_reset () ;
        OK (GrB_mxv (w1, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL)) ;
        const int ran = gcu_mxv_last_spmv () ;
        CHECK (ran == 16 + GCU_SPMV_SHORT_ROWS, "spmv auto: ran %d, not split short rows", ran) ;
        CHECK (gcu_test_vector_equal (w1, w2, 1e-12, false, "spmv auto"), "spmv auto differs (rep %d)", rep) ;
        GrB_Vector_free (&w1) ;
    }
    GrB_Vector_free (&w2) ; GrB_Vector_free (&u) ; GrB_Matrix_free (&A) ;
}

// the automatic choice for monoids with a terminal value, on a matrix with
// two rows far longer than the rest (FastSV's parent matrix has one): MIN
// (terminal INT64_MIN, also met: u holds it) and TIMES take an SpMV
// variant, whose long rows are split; ANY and LOR (rows stop at their first
// entry, or first true) keep pull. Each against SuiteSparse.
static void spmv_terminal_test (uint64_t *st)
{
    const GrB_Index n = 20000 ;
    GrB_Matrix A = gcu_test_random_matrix (GrB_INT64, n, n, 0.0004, st), B = NULL ;
    for (GrB_Index k = 0 ; k < n ; k += 2) OK (GrB_Matrix_setElement_INT64 (A, 1 + k % 5, 5, k)) ;
    for (GrB_Index k = 1 ; k < n ; k += 3) OK (GrB_Matrix_setElement_INT64 (A, 1, 777, k)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    OK (GrB_Matrix_new (&B, GrB_BOOL, n, n)) ;
    OK (GrB_Matrix_apply (B, NULL, NULL, GrB_IDENTITY_BOOL, A, NULL)) ;
    GrB_Vector u = gcu_test_random_vector (GrB_INT64, n, 1.0, st) ;
    GrB_Vector ub = gcu_test_random_vector (GrB_BOOL, n, 1.0, st) ;
    for (GrB_Index k = 0 ; k < n ; k += 4999) OK (GrB_Vector_setElement_INT64 (u, INT64_MIN, k)) ;
    OK (GrB_Vector_wait (u, GrB_MATERIALIZE)) ;
    const struct { const char *name ; GrB_Semiring s ; bool boolean, any, spmv ; } cases [] = {
        { "MIN_SECOND_INT64", GxB_MIN_SECOND_INT64, false, false, true },
        { "MIN_FIRST_INT64", GxB_MIN_FIRST_INT64, false, false, true },
        { "TIMES_SECOND_INT64", GxB_TIMES_SECOND_INT64, false, false, true },
        { "ANY_SECOND_INT64", GxB_ANY_SECOND_INT64, false, true, false },
        { "LOR_LAND_BOOL", GrB_LOR_LAND_SEMIRING_BOOL, true, false, false } } ;
    for (int c = 0 ; c < (int) (sizeof (cases) / sizeof (cases [0])) ; c++)
    {
        const GrB_Type t = cases [c].boolean ? GrB_BOOL : GrB_INT64 ;
        const GrB_Matrix M = cases [c].boolean ? B : A ;
        const GrB_Vector x = cases [c].boolean ? ub : u ;
        GrB_Vector w1 = NULL, w2 = NULL ;
        OK (GrB_Vector_new (&w1, t, n)) ;
        OK (GrB_Vector_new (&w2, t, n)) ;
        OK (real_mxv (w2, NULL, NULL, cases [c].s, M, x, NULL)) ;
        gcu_mxv_last_spmv_reset () ;
        OK (GrB_mxv (w1, NULL, NULL, cases [c].s, M, x, NULL)) ;
        const int ran = gcu_mxv_last_spmv () ;
        char what [64] ;
        snprintf (what, sizeof (what), "spmv terminal %s", cases [c].name) ;
        if (cases [c].spmv)
            CHECK (ran >= 16 && ran % 16 != GCU_SPMV_PULL, "%s: ran %d, not a split SpMV variant",
                what, ran) ;
        else CHECK (ran == GCU_SPMV_PULL, "%s: ran %d, not pull", what, ran) ;
        CHECK (gcu_test_vector_equal (w1, w2, 0, cases [c].any, what), "%s differs from SuiteSparse",
            what) ;
        GrB_Vector_free (&w1) ; GrB_Vector_free (&w2) ;
    }
    GrB_Vector_free (&u) ; GrB_Vector_free (&ub) ; GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ;
}

// the automatic choice on regular rows (a band of 7 diagonals, the shape of
// a grid's Laplacian; n not a multiple of a slice): sell, against
// SuiteSparse, twice (the second call finds the slices in the cache), with
// A's values and with an iso A; an SpMV on rows of many lengths after it,
// forced to sell, runs on slices built for it (not the band's)
static void spmv_sell_test (uint64_t *st)
{
    const GrB_Index n = 30011 ;
    const int64_t off [7] = { -200, -10, -1, 0, 1, 10, 200 } ;
    GrB_Index *I = malloc (7 * n * sizeof (GrB_Index)), *J = malloc (7 * n * sizeof (GrB_Index)) ;
    double *X = malloc (7 * n * sizeof (double)) ;
    CHECK (I != NULL && J != NULL && X != NULL, "spmv sell: out of memory") ;
    if (I == NULL || J == NULL || X == NULL) { free (I) ; free (J) ; free (X) ; return ; }
    GrB_Index nv = 0 ;
    for (GrB_Index i = 0 ; i < n ; i++)
        for (int d = 0 ; d < 7 ; d++)
        {
            const int64_t j = (int64_t) i + off [d] ;
            if (j < 0 || j >= (int64_t) n) continue ;
            I [nv] = i ; J [nv] = (GrB_Index) j ; X [nv] = 1.0 + (double) ((i * 7 + (GrB_Index) d) % 13) ;
            nv++ ;
        }
    for (int iso = 0 ; iso <= 1 ; iso++)
    {
        GrB_Matrix A = NULL ;
        OK (GrB_Matrix_new (&A, GrB_FP64, n, n)) ;
        if (iso)
        {
            GrB_Scalar one = NULL ;
            OK (GrB_Scalar_new (&one, GrB_FP64)) ;
            OK (GrB_Scalar_setElement_FP64 (one, 2.5)) ;
            OK (GxB_Matrix_build_Scalar (A, I, J, one, nv)) ;
            GrB_Scalar_free (&one) ;
        }
        else OK (GrB_Matrix_build_FP64 (A, I, J, X, nv, GrB_PLUS_FP64)) ;
        OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
        GrB_Vector u = gcu_test_random_vector (GrB_FP64, n, 1.0, st), w1 = NULL, w2 = NULL ;
        OK (GrB_Vector_new (&w2, GrB_FP64, n)) ;
        OK (real_mxv (w2, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL)) ;
        for (int rep = 0 ; rep < 2 ; rep++)
        {
            OK (GrB_Vector_new (&w1, GrB_FP64, n)) ;
            gcu_mxv_last_spmv_reset () ;
            OK (GrB_mxv (w1, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL)) ;
            const int ran = gcu_mxv_last_spmv () ;
            CHECK (ran == GCU_SPMV_SELL, "spmv sell (iso %d): auto ran %d, not sell", iso, ran) ;
            CHECK (gcu_test_vector_equal (w1, w2, 1e-12, false, "spmv sell"), "spmv sell differs (iso %d, rep %d)", iso, rep) ;
            GrB_Vector_free (&w1) ;
        }
        // rows of other lengths in the same matrix (a new copy: new slices)
        for (GrB_Index k = 0 ; k < n ; k += 5) OK (GrB_Matrix_setElement_FP64 (A, 3.0, 17, k)) ;
        OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
        OK (real_mxv (w2, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL)) ;
        gcu_mxv_force_variant (GCU_SPMV_SELL, -1, 0) ;
        OK (GrB_Vector_new (&w1, GrB_FP64, n)) ;
        gcu_mxv_last_spmv_reset () ;
        OK (GrB_mxv (w1, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL)) ;
        const int ran = gcu_mxv_last_spmv () ;
        CHECK (ran % 16 == GCU_SPMV_SELL, "spmv sell (iso %d, changed): ran %d", iso, ran) ;
        CHECK (gcu_test_vector_equal (w1, w2, 1e-12, false, "spmv sell changed"), "spmv sell differs after a change (iso %d)", iso) ;
        gcu_mxv_force_variant (GCU_SPMV_AUTO, -1, 0) ;
        GrB_Vector_free (&w1) ; GrB_Vector_free (&w2) ; GrB_Vector_free (&u) ; GrB_Matrix_free (&A) ;
    }
    free (I) ; free (J) ; free (X) ;
}

// the native sums of sell and the split's long rows (PLUS_TIMES on FP64 and
// FP32) where NaN and infinities reach them: u with NaNs of several signs
// and payloads, infinities and zeros (0 * inf, inf - inf: the host's default
// NaN), A with a few NaNs, and rows long enough to be split; each row with
// a NaN is summed again by the operators, so SuiteSparse's NaN comes back
static void spmv_nan_test (uint64_t *st)
{
    const GrB_Index n = 3001 ;
    const uint64_t nans [4] = { 0x7FF8000000000123ull, 0xFFF8000000000456ull,
        0x7FF0000000000789ull, 0xFFF4000000000001ull } ;       // quiet and signalling
    for (int t = 0 ; t < 2 ; t++)
    {
        GrB_Type ty = t == 0 ? GrB_FP64 : GrB_FP32 ;
        GrB_Semiring sr = t == 0 ? GrB_PLUS_TIMES_SEMIRING_FP64 : GrB_PLUS_TIMES_SEMIRING_FP32 ;
        GrB_Matrix A = gcu_test_random_matrix (ty, n, n, 0.003, st) ;
        for (GrB_Index k = 0 ; k < n ; k += 61) OK (GrB_Matrix_setElement_FP64 (A, 1.5, 7, k)) ;
        for (GrB_Index k = 0 ; k < 40 ; k++)
            OK (GrB_Matrix_setElement_FP64 (A, (gcu_rand (st) % 2) ? 0.0 : -2.0, gcu_rand (st) % n, gcu_rand (st) % n)) ;
        for (int k = 0 ; k < 6 ; k++)
        {
            double v ;
            memcpy (&v, &nans [k % 4], 8) ;
            OK (GrB_Matrix_setElement_FP64 (A, v, gcu_rand (st) % n, gcu_rand (st) % n)) ;
        }
        OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
        GrB_Vector u = gcu_test_random_vector (ty, n, 1.0, st) ;
        for (GrB_Index k = 0 ; k < n ; k++)
        {
            const uint64_t r = gcu_rand (st) % 200 ;
            double v ;
            if (r < 4) memcpy (&v, &nans [r], 8) ;
            else if (r < 7) v = (r == 4) ? INFINITY : -INFINITY ;
            else if (r < 10) v = (r == 7) ? -0.0 : 0.0 ;
            else continue ;
            if (t == 0) OK (GrB_Vector_setElement_FP64 (u, v, k)) ;
            else
            {
                // float's NaN keeps the sign and the top of the payload
                float f = (float) v ;
                if (v != v)
                {
                    uint64_t b ; memcpy (&b, &v, 8) ;
                    uint32_t fb = (uint32_t) (b >> 32 & 0x80000000u) | 0x7FC00000u | (uint32_t) (b & 0x3FFFFF) ;
                    memcpy (&f, &fb, 4) ;
                }
                OK (GrB_Vector_setElement_FP32 (u, f, k)) ;
            }
        }
        GrB_Vector w2 = NULL ;
        OK (GrB_Vector_new (&w2, ty, n)) ;
        OK (real_mxv (w2, NULL, NULL, sr, A, u, NULL)) ;
        const int vs [2] = { GCU_SPMV_SELL, GCU_SPMV_SELLSORT } ;
        for (int nat = 0 ; nat <= 1 ; nat++)
        for (int vi = 0 ; vi < 2 ; vi++)
            for (int split = 0 ; split <= 1 ; split++)
            {
                gcu_mxv_force_spmv_nat (nat) ;
                gcu_mxv_force_spmv_hub ((nat + split) % 2) ;
                gcu_mxv_force_variant (vs [vi], split, 8) ;
                GrB_Vector w1 = NULL ;
                OK (GrB_Vector_new (&w1, ty, n)) ;
                gcu_mxv_last_spmv_reset () ;
                OK (GrB_mxv (w1, NULL, NULL, sr, A, u, NULL)) ;
                const int ran = gcu_mxv_last_spmv () ;
                char what [96] ;
                snprintf (what, sizeof (what), "spmv NaN %s variant %d split %d nat %d",
                    t == 0 ? "FP64" : "FP32", vs [vi], split, nat) ;
                CHECK (ran % 16 == vs [vi] && (ran >= 16) == (split == 1), "%s: ran %d", what, ran) ;
                CHECK (gcu_test_vector_equal (w1, w2, t == 0 ? 1e-12 : 1e-4, false, what), "%s differs from SuiteSparse", what) ;
                GrB_Vector_free (&w1) ;
            }
        gcu_mxv_force_variant (GCU_SPMV_AUTO, -1, 0) ;
        gcu_mxv_force_spmv_nat (-1) ;
        gcu_mxv_force_spmv_hub (-1) ;
        GrB_Vector_free (&w2) ; GrB_Vector_free (&u) ; GrB_Matrix_free (&A) ;
    }
}

//------------------------------------------------------------------------------
// push's split at its own bound: a hub matrix
//------------------------------------------------------------------------------

// Every value of an ANY_SECONDI w is u's index k of a product that exists:
// u (k) present and the matrix's entry at (k, j) (vxm) or (j, k) (mxv)
static int anyi_invalid (GrB_Vector w, GrB_Vector u, GrB_Matrix A, bool vxm)
{
    GrB_Index nw = 0 ;
    GrB_Vector_nvals (&nw, w) ;
    GrB_Index *J = malloc ((nw + 1) * sizeof (GrB_Index)) ;
    int64_t *V = malloc ((nw + 1) * sizeof (int64_t)) ;
    int bad = 0 ;
    if (J == NULL || V == NULL || GrB_Vector_extractTuples_INT64 (J, V, &nw, w) != GrB_SUCCESS) bad = -1 ;
    for (GrB_Index t = 0 ; bad >= 0 && t < nw ; t++)
    {
        int64_t x ;
        bool e ;
        const GrB_Index k = (GrB_Index) V [t] ;
        if (V [t] < 0 || GrB_Vector_extractElement_INT64 (&x, u, k) != GrB_SUCCESS
            || GrB_Matrix_extractElement_BOOL (&e, A, vxm ? k : J [t], vxm ? J [t] : k) != GrB_SUCCESS)
            bad++ ;
    }
    free (J) ; free (V) ;
    return bad ;
}

// The hub matrix's calls for one semiring and u: mxv and vxm, BFS's mask or
// none, the split automatic or off; how many split
static int hub_calls (const sr_t *sr, GrB_Matrix A, GrB_Vector u, GrB_Vector visited, bool big)
{
    GrB_Index n = 0 ;
    OK (GrB_Matrix_nrows (&n, A)) ;
    int ran = 0 ;
    for (int vxm = 0 ; vxm <= 1 ; vxm++)
        for (int masked = 0 ; masked <= 1 ; masked++)
            for (int split = -1 ; split <= 0 ; split++)
            {
                const bool declined = vxm ? strstr (sr->name, "_SECONDJ") != NULL
                                          : strstr (sr->name, "_FIRSTI") != NULL ;
                gcu_mxv_force_method (2) ;
                gcu_mxv_force_push_split (split, 0, 0) ;
                gcu_mxv_last_push_split_reset () ;
                GrB_Vector w1 = NULL, w2 = NULL, M = masked ? visited : NULL ;
                const GrB_Descriptor d = masked ? GrB_DESC_RSC : NULL ;
                OK (GrB_Vector_new (&w1, sr->tu, n)) ;
                OK (GrB_Vector_new (&w2, sr->tu, n)) ;
                grbcuda_op_stats s0, s1 ;
                const char *opname = vxm ? "GrB_vxm" : "GrB_mxv" ;
                grbcuda_stats_get (opname, &s0) ;
                const uint64_t iso0 = gcu_iso_declined () ;
                GrB_Info i1 = vxm ? GrB_vxm (w1, M, NULL, sr->s, u, A, d) : GrB_mxv (w1, M, NULL, sr->s, A, u, d) ;
                const bool iso_host = gcu_iso_declined () != iso0 ;
                iso_hosted += iso_host ;
                const int did = gcu_mxv_last_push_split () ;
                grbcuda_stats_get (opname, &s1) ;
                GrB_Info i2 = vxm ? real_vxm (w2, M, NULL, sr->s, u, A, d) : real_mxv (w2, M, NULL, sr->s, A, u, d) ;
                char what [160] ;
                snprintf (what, sizeof (what), "hub %s %s%s%s split %s", opname, sr->name,
                    big ? " u big" : "", masked ? " masked" : "", split < 0 ? "auto" : "off") ;
                CHECK (i1 == i2, "%s: info %d vs %d", what, (int) i1, (int) i2) ;
                if (!declined && !iso_host)
                {
                    CHECK (s1.gpu == s0.gpu + 1, "%s: did not run on the GPU", what) ;
                    CHECK (did == (split < 0 ? 1 : 0), "%s: the split %s", what,
                        did < 0 ? "did not push" : did ? "ran" : "did not run") ;
                    ran += did == 1 ;
                }
                CHECK (gcu_test_vector_equal (w1, w2, sr->tol, sr->any, what), "%s differs from SuiteSparse", what) ;
                if (strcmp (sr->name, "ANY_SECONDI_INT64") == 0)
                {
                    const int bad = anyi_invalid (w1, u, A, vxm) ;
                    CHECK (bad == 0, "%s: %d values are no product's", what, bad) ;
                }
                GrB_Vector_free (&w1) ; GrB_Vector_free (&w2) ;
            }
    gcu_mxv_force_method (0) ;
    gcu_mxv_force_push_split (-1, 0, 0) ;
    return ran ;
}

// A matrix with rows of P far longer than GCU_MXV_PUSH_LONG_ROW: row 0 (P's
// row for vxm) and column 1 (for mxv) with 22,500 entries, row and column 5
// with about 3,000, the rest random and short; u holds 0, 1, 5 and 20 short
// rows (the split kernel scans its entries itself) or 100 (CUB's scan). Push
// forced, the split automatic (it must run) and off, with and without BFS's
// mask (structural, complemented, replace), against SuiteSparse.
static void hub_test (uint64_t *st)
{
    const char *names [] = { "ANY_SECONDI_INT64", "PLUS_TIMES_FP64", "MIN_PLUS_INT32",
        "MAX_SECONDI1_INT64", "MIN_FIRSTJ_INT32", "PLUS_TIMES_FC64" } ;
    const GrB_Index n = 30000 ;
    int ran = 0 ;
    for (size_t q = 0 ; q < sizeof (names) / sizeof (names [0]) ; q++)
    {
        const sr_t *sr = NULL ;
        for (int k = 0 ; k < nsr ; k++) if (strcmp (srs [k].name, names [q]) == 0) sr = &srs [k] ;
        if (sr == NULL) continue ;      // a quicker run's fewer semirings
        GrB_Matrix A = gcu_test_random_matrix (sr->ta, n, n, 0.0003, st) ;
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            if (j % 4 != 3) OK (GrB_Matrix_setElement_FP64 (A, 1.0 + (double) (j % 3), 0, j)) ;
            if (j % 4 != 2) OK (GrB_Matrix_setElement_FP64 (A, 2.0 + (double) (j % 5), j, 1)) ;
            if (j % 10 == 0) OK (GrB_Matrix_setElement_FP64 (A, 3.0, 5, j)) ;
            if (j % 10 == 7) OK (GrB_Matrix_setElement_FP64 (A, 1.0, j, 5)) ;
        }
        OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
        GrB_Vector visited = gcu_test_random_vector (GrB_BOOL, n, 0.3, st) ;
        for (int big = 0 ; big <= 1 ; big++)
        {
            GrB_Vector u = NULL ;
            OK (GrB_Vector_new (&u, sr->tu, n)) ;
            OK (GrB_Vector_setElement_FP64 (u, 2.0, 0)) ;
            OK (GrB_Vector_setElement_FP64 (u, 3.0, 1)) ;
            OK (GrB_Vector_setElement_FP64 (u, 1.0, 5)) ;
            for (int k = 0 ; k < (big ? 100 : 20) ; k++)
                OK (GrB_Vector_setElement_FP64 (u, 1.0 + k % 4, 100 + gcu_rand (st) % (n - 100))) ;
            OK (GrB_Vector_wait (u, GrB_MATERIALIZE)) ;
            ran += hub_calls (sr, A, u, visited, big) ;
            GrB_Vector_free (&u) ;
        }
        GrB_Vector_free (&visited) ; GrB_Matrix_free (&A) ;
    }
    printf ("hub matrix: push split %d times\n", ran) ;
}

//------------------------------------------------------------------------------
// push's recheck (src/mxv/mxv_method.c): the frontier's real edges
//------------------------------------------------------------------------------

// A frontier u of 1,200 entries whose rows of P hold about 320 entries each
// (rows and columns 0 .. 1199 of A), the rest of A short: the sizes choose
// push (u's entries at the average row), the frontier's edges pull. With
// BFS's mask (the visited set, structural, complemented, replace) and a
// monoid whose rows stop early, the call must turn to pull; without the
// mask it pushes. Both against SuiteSparse, mxv and vxm.
static void recheck_test (uint64_t *st)
{
    const char *names [] = { "ANY_SECONDI_INT64", "ANY_PAIR_BOOL", "LOR_LAND_BOOL" } ;
    const GrB_Index n = 20000, nu = 1200, len = 300 ;
    GrB_Matrix A = gcu_test_random_matrix (GrB_BOOL, n, n, 0.0003, st) ;
    for (GrB_Index i = 0 ; i < nu ; i++)
        for (GrB_Index t = 0 ; t < len ; t++)
        {
            const GrB_Index j = (i * 7919 + t * 67) % n ;
            OK (GrB_Matrix_setElement_BOOL (A, true, i, j)) ;       // vxm: P = A
            OK (GrB_Matrix_setElement_BOOL (A, true, j, i)) ;       // mxv: P = A'
        }
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    GrB_Vector visited = gcu_test_random_vector (GrB_BOOL, n, 0.3, st) ;
    int pulled = 0 ;
    for (size_t q = 0 ; q < sizeof (names) / sizeof (names [0]) ; q++)
    {
        const sr_t *sr = NULL ;
        for (int k = 0 ; k < nsr ; k++) if (strcmp (srs [k].name, names [q]) == 0) sr = &srs [k] ;
        if (sr == NULL) continue ;      // a quicker run's fewer semirings
        GrB_Vector u = NULL ;
        OK (GrB_Vector_new (&u, sr->tu, n)) ;
        for (GrB_Index i = 0 ; i < nu ; i++) OK (GrB_Vector_setElement_INT64 (u, 1 + (int64_t) i % 5, i)) ;
        OK (GrB_Vector_wait (u, GrB_MATERIALIZE)) ;
        for (int vxm = 0 ; vxm <= 1 ; vxm++)
            for (int masked = 0 ; masked <= 1 ; masked++)
            {
                GrB_Vector w1 = NULL, w2 = NULL, M = masked ? visited : NULL ;
                const GrB_Descriptor d = masked ? GrB_DESC_RSC : NULL ;
                OK (GrB_Vector_new (&w1, sr->tu, n)) ;
                OK (GrB_Vector_new (&w2, sr->tu, n)) ;
                gcu_mxv_last_spmv_reset () ;
                const uint64_t iso0 = gcu_iso_declined () ;
                GrB_Info i1 = vxm ? GrB_vxm (w1, M, NULL, sr->s, u, A, d) : GrB_mxv (w1, M, NULL, sr->s, A, u, d) ;
                const int ran = gcu_mxv_last_spmv () ;
                // (ANY_PAIR: SuiteSparse's w is iso, which grbcuda does not
                // write yet: the host computes it, src/residency/iso_status.c)
                const bool iso_host = gcu_iso_declined () != iso0 ;
                iso_hosted += iso_host ;
                GrB_Info i2 = vxm ? real_vxm (w2, M, NULL, sr->s, u, A, d) : real_mxv (w2, M, NULL, sr->s, A, u, d) ;
                char what [160] ;
                snprintf (what, sizeof (what), "recheck %s %s%s", vxm ? "vxm" : "mxv", sr->name,
                    masked ? " masked" : "") ;
                CHECK (i1 == i2, "%s: info %d vs %d", what, (int) i1, (int) i2) ;
                // (pull leaves its kernel in gcu_mxv_last_spmv, push -1)
                CHECK (iso_host || (masked ? ran == GCU_SPMV_PULL : ran == -1), "%s: %s ran", what,
                    ran == -1 ? "push" : "pull") ;
                pulled += ran == GCU_SPMV_PULL ;
                CHECK (gcu_test_vector_equal (w1, w2, sr->tol, sr->any, what), "%s differs from SuiteSparse", what) ;
                if (strcmp (sr->name, "ANY_SECONDI_INT64") == 0)
                {
                    const int bad = anyi_invalid (w1, u, A, vxm) ;
                    CHECK (bad == 0, "%s: %d values are no product's", what, bad) ;
                }
                GrB_Vector_free (&w1) ; GrB_Vector_free (&w2) ;
            }
        GrB_Vector_free (&u) ;
    }
    printf ("push's recheck: %d calls turned to pull\n", pulled) ;
    GrB_Vector_free (&visited) ; GrB_Matrix_free (&A) ;
}

//------------------------------------------------------------------------------
// BFS, LAGraph's form, on the GPU and on the host
//------------------------------------------------------------------------------

// levels (ANY_PAIR) or parents (ANY_SECONDI) from src; v: levels (1-based),
// p: parents (or NULL)
static void bfs (GrB_Matrix A, GrB_Index src, bool parents, GrB_Vector *v, GrB_Vector *p)
{
    GrB_Index n ;
    GrB_Matrix_nrows (&n, A) ;
    GrB_Vector q = NULL ;
    GrB_Vector_new (v, GrB_INT64, n) ;
    *p = NULL ;
    if (parents)
    {
        GrB_Vector_new (p, GrB_INT64, n) ;
        GrB_Vector_new (&q, GrB_INT64, n) ;
        GrB_Vector_setElement_INT64 (*p, (int64_t) src, src) ;
        GrB_Vector_setElement_INT64 (q, (int64_t) src, src) ;
    }
    else
    {
        GrB_Vector_new (&q, GrB_BOOL, n) ;
        GrB_Vector_setElement_BOOL (q, true, src) ;
    }
    for (int64_t level = 1 ; ; level++)
    {
        GrB_Vector_assign_INT64 (*v, q, NULL, level, GrB_ALL, n, GrB_DESC_S) ;
        // q<!visited, replace> = q*A
        if (parents)
        {
            OK (GrB_vxm (q, *p, NULL, GxB_ANY_SECONDI_INT64, q, A, GrB_DESC_RSC)) ;
            GrB_Vector_assign (*p, q, NULL, q, GrB_ALL, n, GrB_DESC_S) ;
        }
        else OK (GrB_vxm (q, *v, NULL, GxB_ANY_PAIR_BOOL, q, A, GrB_DESC_RSC)) ;
        GrB_Index nq = 0 ;
        GrB_Vector_nvals (&nq, q) ;
        if (nq == 0 || level > (int64_t) n) break ;
    }
    GrB_Vector_free (&q) ;
}

static void bfs_test (uint64_t *st)
{
    const GrB_Index n = 20000 ;
    GrB_Matrix A = gcu_test_random_matrix (GrB_BOOL, n, n, 0.0003, st) ;
    for (int method = 0 ; method <= 2 ; method++)
    {
        gcu_mxv_force_method (method) ;
        for (int parents = 0 ; parents < 2 ; parents++)
        {
            GrB_Vector v1, p1, v2, p2 ;
            uint64_t runs0 = gcu_family_runs ("vxm"), iso0 = gcu_iso_declined () ;
            OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
            bfs (A, 7, parents, &v1, &p1) ;
            uint64_t runs = gcu_family_runs ("vxm") - runs0, iso_left = gcu_iso_declined () - iso0 ;
            OK (grbcuda_set_mode (GRBCUDA_MODE_HOST)) ;
            bfs (A, 7, parents, &v2, &p2) ;
            OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
            char what [64] ;
            snprintf (what, sizeof (what), "bfs %s method %d", parents ? "parents" : "levels", method) ;
            GrB_Index nv = 0 ;
            GrB_Vector_nvals (&nv, v1) ;
            printf ("%s: %llu reached, %llu GPU calls\n", what, (unsigned long long) nv, (unsigned long long) runs) ;
            // levels: q<!v, replace> = q*A over ANY_PAIR is iso in SuiteSparse
            // (an iso T into a q with entries: not decided), so the host
            // computes every level (src/residency/iso_status.c)
            CHECK (parents ? runs > 2 : (runs == 0 && iso_left > 2), "%s: vxm %llu calls on the GPU, "
                "%llu left to the host for the iso status", what, (unsigned long long) runs,
                (unsigned long long) iso_left) ;
            CHECK (gcu_test_vector_equal (v1, v2, 0, false, what), "%s: levels differ", what) ;
            if (parents)
            {
                // any parent one level up with an edge to the vertex is right
                CHECK (gcu_test_vector_equal (p1, p2, 0, true, what), "%s: parents' pattern", what) ;
                int bad = 0 ;
                for (GrB_Index j = 0 ; j < n ; j++)
                {
                    int64_t pj, lj, lp ;
                    bool e ;
                    if (GrB_Vector_extractElement_INT64 (&pj, p1, j) != GrB_SUCCESS) continue ;
                    GrB_Vector_extractElement_INT64 (&lj, v1, j) ;
                    if (j == 7) { bad += pj != 7 ; continue ; }
                    if (GrB_Vector_extractElement_INT64 (&lp, v1, (GrB_Index) pj) != GrB_SUCCESS
                        || lp != lj - 1
                        || GrB_Matrix_extractElement_BOOL (&e, A, (GrB_Index) pj, j) != GrB_SUCCESS) bad++ ;
                }
                CHECK (bad == 0, "%s: %d invalid parents", what, bad) ;
            }
            GrB_Vector_free (&v1) ; GrB_Vector_free (&p1) ;
            GrB_Vector_free (&v2) ; GrB_Vector_free (&p2) ;
        }
    }
    gcu_mxv_force_method (0) ;
    GrB_Matrix_free (&A) ;
}

//------------------------------------------------------------------------------
// residency: a repeated GrB_vxm on an unchanged matrix uploads it once
//------------------------------------------------------------------------------

static void residency_test (uint64_t *st)
{
    GrB_Matrix A = gcu_test_random_matrix (GrB_FP64, 2000, 2000, 0.01, st) ;
    GrB_Vector u = gcu_test_random_vector (GrB_FP64, 2000, 0.5, st) ;
    GrB_Vector w = NULL ;
    GrB_Vector_new (&w, GrB_FP64, 2000) ;
    gcu_mxv_force_method (1) ;
    gcu_residency_clear_all () ;
    gcu_res_stats r0, r1, r2, r3 ;
    gcu_residency_stats (&r0) ;
    OK (GrB_vxm (w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, u, A, NULL)) ;
    gcu_residency_stats (&r1) ;
    OK (GrB_vxm (w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, u, A, NULL)) ;
    gcu_residency_stats (&r2) ;
    CHECK (r1.misses == r0.misses + 2, "first vxm: %llu misses (matrix and vector expected)",
        (unsigned long long) (r1.misses - r0.misses)) ;
    CHECK (r2.misses == r1.misses, "second vxm on unchanged operands: %llu misses",
        (unsigned long long) (r2.misses - r1.misses)) ;
    CHECK (r2.hits == r1.hits + 2, "second vxm: %llu hits", (unsigned long long) (r2.hits - r1.hits)) ;
    // a changed u: only u is uploaded again
    GrB_Vector_setElement_FP64 (u, 3.5, 17) ;
    OK (GrB_vxm (w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, u, A, NULL)) ;
    gcu_residency_stats (&r3) ;
    CHECK (r3.misses == r2.misses + 1 && r3.hits == r2.hits + 1,
        "vxm after u changed: %llu misses, %llu hits (1 and 1 expected)",
        (unsigned long long) (r3.misses - r2.misses), (unsigned long long) (r3.hits - r2.hits)) ;
    GrB_Vector wref = NULL ;
    GrB_Vector_new (&wref, GrB_FP64, 2000) ;
    real_vxm (wref, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, u, A, NULL) ;
    CHECK (gcu_test_vector_equal (w, wref, 1e-12, false, "residency vxm"), "residency: wrong answer") ;
    gcu_mxv_force_method (0) ;
    GrB_Vector_free (&w) ; GrB_Vector_free (&wref) ; GrB_Vector_free (&u) ; GrB_Matrix_free (&A) ;
}

//------------------------------------------------------------------------------
// fault injection
//------------------------------------------------------------------------------

static void fault_loop_one (uint64_t *st, int method, bool masked, bool split)
{
    GrB_Matrix A = gcu_test_random_matrix (GrB_FP64, 300, 300, 0.03, st) ;
    // (with the split: more entries than the split kernel scans itself, so
    // that CUB's scan runs too)
    GrB_Vector u = gcu_test_random_vector (GrB_FP64, 300, method == 2 ? (split ? 0.3 : 0.02) : 0.5, st) ;
    GrB_Vector M = masked ? gcu_test_random_vector (GrB_BOOL, 300, 0.3, st) : NULL ;
    GrB_Descriptor d = masked ? GrB_DESC_RSC : NULL ;
    GrB_Vector wref = NULL, w = NULL ;
    GrB_Vector_new (&wref, GrB_FP64, 300) ;
    real_vxm (wref, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, u, A, d) ;
    gcu_mxv_force_method (method) ;
    // the split's scan and kernel too: every row of P longer than 8 entries
    gcu_mxv_force_push_split (split ? 1 : 0, 8, 3) ;
    gcu_residency_clear_all () ;
    gcu_fault_inject (1 << 30) ;
    GrB_Vector_new (&w, GrB_FP64, 300) ;
    uint64_t runs0 = gcu_family_runs ("vxm") ;
    OK (GrB_vxm (w, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, u, A, d)) ;
    CHECK (gcu_family_runs ("vxm") == runs0 + 1, "fault loop: the call did not run as vxm") ;
    int64_t nops = gcu_fault_count () ;
    GrB_Vector_free (&w) ;
    gcu_sync (gcu_stream_default ()) ;
    int64_t base = gcu_device_bytes_in_use () ;
    printf ("fault injection (vxm, method %d%s%s): %lld counted device operations per call\n",
        method, masked ? ", masked" : "", split ? ", split" : "", (long long) nops) ;
    CHECK (nops > 5, "too few counted operations (%lld)", (long long) nops) ;
    for (int64_t f = 1 ; f <= nops ; f++)
    {
        gcu_residency_clear_all () ;
        gcu_fault_inject (f) ;
        grbcuda_op_stats s0, s1 ;
        grbcuda_stats_get ("GrB_vxm", &s0) ;
        GrB_Vector_new (&w, GrB_FP64, 300) ;
        GrB_Info info = GrB_vxm (w, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, u, A, d) ;
        grbcuda_stats_get ("GrB_vxm", &s1) ;
        CHECK (info == GrB_SUCCESS, "vxm fault %lld: info %d", (long long) f, (int) info) ;
        CHECK (s1.reason [GRBCUDA_REASON_GPU_FAILED] == s0.reason [GRBCUDA_REASON_GPU_FAILED] + 1,
            "vxm fault %lld: not reported as a GPU failure", (long long) f) ;
        char what [96] ;
        snprintf (what, sizeof (what), "vxm method %d: fault at operation %lld", method, (long long) f) ;
        CHECK (gcu_test_vector_equal (w, wref, 1e-12, false, what), "%s: wrong answer", what) ;
        GrB_Vector_free (&w) ;
        gcu_sync (gcu_stream_default ()) ;
        int64_t now = gcu_device_bytes_in_use () ;
        CHECK (now == base, "vxm fault %lld: device memory %lld bytes, was %lld", (long long) f,
            (long long) now, (long long) base) ;
    }
    gcu_fault_inject (0) ;
    gcu_mxv_force_method (0) ;
    gcu_mxv_force_push_split (-1, 0, 0) ;
    GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ; GrB_Vector_free (&M) ;
    GrB_Vector_free (&wref) ;
}

int main (int argc, char **argv)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!grbcuda_gpu_available ())
    {
        printf ("SKIP: no usable GPU; test_mxv_gpu needs one\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    real_mxv = (mxv_t) gcu_test_real ("GrB_mxv") ;
    real_vxm = (vxm_t) gcu_test_real ("GrB_vxm") ;
    gcu_test_types_init () ;
    srs_init () ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    uint64_t st = 777 ;
    const double t_start = gcu_now () ;
    int reps = argc > 1 ? atoi (argv [1]) : 1 ;
    if (argc > 2 && atoi (argv [2]) > 0 && atoi (argv [2]) < nsr) nsr = atoi (argv [2]) ;  // a quicker run
    const int nshapes = (int) (sizeof (shapes) / sizeof (shapes [0])) ;
    for (int r = 0 ; r < reps ; r++)
        for (int si = 0 ; si < nsr ; si++)
        {
            printf ("semiring %s (%.1f s)\n", srs [si].name, gcu_now () - t_start) ;
            fflush (stdout) ;
            for (int sh = 0 ; sh < nshapes ; sh++)
                for (int method = 0 ; method <= 2 ; method++)
                {
                    trial (&srs [si], &shapes [sh], &st, false, method) ;
                    trial (&srs [si], &shapes [sh], &st, true, method) ;
                }
        }
    for (int si = 0 ; si < nsr ; si++)
        for (int sh = 0 ; sh < nshapes ; sh++)
            for (int v = GCU_SPMV_VECTOR ; v < GCU_SPMV_NVARIANTS ; v++)
                for (int split = 0 ; split <= 1 ; split++)
                {
                    spmv_trial (&srs [si], &shapes [sh], &st, false, v, split) ;
                    spmv_trial (&srs [si], &shapes [sh], &st, true, v, split) ;
                }
    spmv_auto_test (&st) ;
    spmv_terminal_test (&st) ;
    spmv_sell_test (&st) ;
    spmv_hub_test (&st) ;
    spmv_nan_test (&st) ;
    hub_test (&st) ;
    recheck_test (&st) ;
    printf ("%d products computed on the GPU, %d left to the host for their iso status (%.1f s)\n", gpu_runs,
        iso_hosted, gcu_now () - t_start) ;
    bfs_test (&st) ;
    residency_test (&st) ;
    fault_loop_one (&st, 1, false, false) ;
    fault_loop_one (&st, 2, true, false) ;
    fault_loop_one (&st, 2, true, true) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_mxv_gpu") ;
}
