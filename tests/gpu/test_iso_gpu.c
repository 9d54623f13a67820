// GRBCUDA_TEST_INTERNAL
// test_iso_gpu.c — the iso status of products the GPU computes, against
// SuiteSparse's own (gcu_test_real) on equal, independently built inputs,
// with the GPU forced and results kept on the device: GrB_mxm (no mask; a
// mask with GrB_REPLACE or into an empty C; an accum) and GrB_mxv over
// semirings whose result SuiteSparse makes iso (PAIR, FIRST of an iso A,
// SECOND of an iso B, D*X that SuiteSparse scales by the diagonal D, where
// the monoid is unused) or not (PLUS_TIMES, positional), each of the built-in
// types below (an ANY monoid of a non-PAIR multiply picks any term: not
// compared). Checked: the return code, nvals, the values, GxB_Matrix_iso of
// C (grbcuda's read after its write-back), and which side ran: a result
// SuiteSparse makes iso must still be computed on the GPU where grbcuda knows
// its status (mxm), and may go to the host where grbcuda cannot write it iso
// (mxv) or does not know it (an iso T into a C with entries under a mask, an
// accum). Then the case the differential tester found (seed
// 13502880242177317083, cases 3672 and 6288): a mask made on the GPU as D*X
// with X iso zero, used complemented by GrB_Matrix_apply with C of another
// size: SuiteSparse's mask is iso zero, so no mask, and the call succeeds;
// a mask written back not iso would be GrB_DIMENSION_MISMATCH.
#include "gcu_test.h"
#include "grbcuda.h"
#include <string.h>

typedef GrB_Info (*mxm_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
typedef GrB_Info (*mxv_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Vector, const GrB_Descriptor) ;
typedef GrB_Info (*apply_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_UnaryOp, const GrB_Matrix, const GrB_Descriptor) ;
static mxm_t real_mxm ;
static mxv_t real_mxv ;
static apply_t real_apply ;

static uint64_t gpu_calls (const char *name)
{
    grbcuda_op_stats s ;
    memset (&s, 0, sizeof (s)) ;
    (void) grbcuda_stats_get (name, &s) ;
    return s.gpu ;
}

// an n x k FP64 matrix: iso value v (iso), else values 1 + (i+j) % 5; about
// one entry in `every`; the diagonal only when diag
static GrB_Matrix make (GrB_Index n, GrB_Index k, bool iso, double v, int every, bool diag)
{
    GrB_Matrix A = NULL ;
    OK (GrB_Matrix_new (&A, GrB_FP64, n, k)) ;
    for (GrB_Index i = 0 ; i < n ; i++)
    for (GrB_Index j = 0 ; j < k ; j++)
    {
        if (diag ? i != j : ((i * 7 + j * 13) % (GrB_Index) every) != 0) continue ;
        OK (GrB_Matrix_setElement_FP64 (A, iso ? v : 1.0 + (double) ((i + j) % 5), i, j)) ;
    }
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    bool a_iso = false ;
    OK (GxB_Matrix_iso (&a_iso, A)) ;
    if (iso && !a_iso)
    {
        // setElement of equal values is not iso in SuiteSparse: assign the
        // value to the pattern, which is
        GrB_Matrix P = A ; A = NULL ;
        OK (GrB_Matrix_new (&A, GrB_FP64, n, k)) ;
        OK (GrB_Matrix_assign_FP64 (A, P, NULL, v, GrB_ALL, n, GrB_ALL, k, GrB_DESC_S)) ;
        OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
        GrB_Matrix_free (&P) ;
    }
    return A ;
}

// C and R (SuiteSparse's) the same: nvals, pattern and values (bitwise), and
// the iso status
static void same (const char *what, GrB_Matrix C, GrB_Matrix R)
{
    GrB_Index cn = 0, rn = 0 ;
    bool ci = false, ri = false ;
    OK (GrB_Matrix_nvals (&cn, C)) ;
    OK (GrB_Matrix_nvals (&rn, R)) ;
    OK (GxB_Matrix_iso (&ci, C)) ;
    OK (GxB_Matrix_iso (&ri, R)) ;
    CHECK (cn == rn && ci == ri, "%s: %llu entries (iso %d) vs SuiteSparse's %llu (iso %d)", what,
        (unsigned long long) cn, (int) ci, (unsigned long long) rn, (int) ri) ;
    if (cn != rn) return ;
    GrB_Index *I = malloc ((cn + 1) * 8), *J = malloc ((cn + 1) * 8), *I2 = malloc ((cn + 1) * 8),
        *J2 = malloc ((cn + 1) * 8) ;
    double *X = malloc ((cn + 1) * 8), *X2 = malloc ((cn + 1) * 8) ;
    GrB_Index n1 = cn, n2 = rn ;
    OK (GrB_Matrix_extractTuples_FP64 (I, J, X, &n1, C)) ;
    OK (GrB_Matrix_extractTuples_FP64 (I2, J2, X2, &n2, R)) ;
    CHECK (n1 == n2 && memcmp (I, I2, n1 * 8) == 0 && memcmp (J, J2, n1 * 8) == 0
        && memcmp (X, X2, n1 * 8) == 0, "%s: entries differ", what) ;
    free (I) ; free (J) ; free (X) ; free (I2) ; free (J2) ; free (X2) ;
}

typedef struct
{
    const char *name ;
    GrB_Semiring sr ;
    bool a_iso, b_iso, a_diag ;
    int mask ;              // 0 none, 1 M with GrB_REPLACE, 2 M into an empty C
    bool accum ;
    bool gpu ;              // the GPU must compute it
}
mxm_case ;

static void mxm_cases (void)
{
    const GrB_Index n = 300 ;
    const mxm_case cases [] = {
        { "ANY_PAIR", GxB_ANY_PAIR_FP64, false, false, false, 0, false, true },
        { "PLUS_TIMES", GrB_PLUS_TIMES_SEMIRING_FP64, false, false, false, 0, false, true },
        { "MIN_FIRST, A iso", GrB_MIN_FIRST_SEMIRING_FP64, true, false, false, 0, false, true },
        { "MAX_SECOND, B iso", GrB_MAX_SECOND_SEMIRING_FP64, false, true, false, 0, false, true },
        { "PLUS_SECOND, D*X, X iso", GxB_PLUS_SECOND_FP64, false, true, true, 0, false, true },
        { "PLUS_TIMES, both iso", GrB_PLUS_TIMES_SEMIRING_FP64, true, true, false, 0, false, true },
        { "MIN_TIMES, both iso", GrB_MIN_TIMES_SEMIRING_FP64, true, true, false, 0, false, true },
        { "MIN_SECONDI", GxB_MIN_SECONDI_INT64, false, true, false, 0, false, true },
        { "ANY_PAIR <M, replace>", GxB_ANY_PAIR_FP64, false, false, false, 1, false, false },
        { "ANY_PAIR <M> into empty C", GxB_ANY_PAIR_FP64, false, false, false, 2, false, true },
        { "PLUS_TIMES <M, replace>", GrB_PLUS_TIMES_SEMIRING_FP64, false, false, false, 1, false, true },
        { "PLUS_TIMES +=", GrB_PLUS_TIMES_SEMIRING_FP64, false, false, false, 0, true, true },
        { "ANY_PAIR +=", GxB_ANY_PAIR_FP64, false, false, false, 0, true, false },
    } ;
    for (size_t c = 0 ; c < sizeof (cases) / sizeof (cases [0]) ; c++)
    {
        const mxm_case *k = &cases [c] ;
        GrB_Matrix A = make (n, n, k->a_iso, 2.0, 9, k->a_diag), B = make (n, n, k->b_iso, 3.0, 11, false) ;
        GrB_Matrix A2 = make (n, n, k->a_iso, 2.0, 9, k->a_diag), B2 = make (n, n, k->b_iso, 3.0, 11, false) ;
        GrB_Matrix M = k->mask ? make (n, n, false, 0, 3, false) : NULL ;
        GrB_Matrix C = k->accum ? make (n, n, false, 0, 5, false) : make (n, n, false, 0, 4, false) ;
        GrB_Matrix R = k->accum ? make (n, n, false, 0, 5, false) : make (n, n, false, 0, 4, false) ;
        if (k->mask == 2) { OK (GrB_Matrix_clear (C)) ; OK (GrB_Matrix_clear (R)) ; }
        const GrB_Descriptor d = k->mask == 1 ? GrB_DESC_R : NULL ;
        const GrB_BinaryOp acc = k->accum ? GrB_PLUS_FP64 : NULL ;
        const uint64_t g0 = gpu_calls ("GrB_mxm") ;
        const GrB_Info i1 = GrB_mxm (C, M, acc, k->sr, A, B, d) ;
        const bool on_gpu = gpu_calls ("GrB_mxm") > g0 ;
        const GrB_Info i2 = real_mxm (R, M, acc, k->sr, A2, B2, d) ;
        CHECK (i1 == i2 && i1 == GrB_SUCCESS, "%s: info %d vs %d", k->name, (int) i1, (int) i2) ;
        CHECK (on_gpu || !k->gpu, "%s: computed on the host", k->name) ;
        same (k->name, C, R) ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&A2) ; GrB_Matrix_free (&B2) ;
        GrB_Matrix_free (&M) ; GrB_Matrix_free (&C) ; GrB_Matrix_free (&R) ;
    }
}

// w = A*u, both on the GPU: SuiteSparse's w iso (ANY_PAIR), and not
static void mxv_cases (void)
{
    const GrB_Index n = 2000 ;
    const GrB_Semiring srs [2] = { GxB_ANY_PAIR_FP64, GrB_PLUS_TIMES_SEMIRING_FP64 } ;
    for (int s = 0 ; s < 2 ; s++)
    {
        GrB_Matrix A = make (n, n, false, 0, 7, false) ;
        GrB_Vector u = NULL, w = NULL, r = NULL ;
        OK (GrB_Vector_new (&u, GrB_FP64, n)) ;
        OK (GrB_Vector_new (&w, GrB_FP64, n)) ;
        OK (GrB_Vector_new (&r, GrB_FP64, n)) ;
        for (GrB_Index i = 0 ; i < n ; i += 3) OK (GrB_Vector_setElement_FP64 (u, 1.0 + (double) (i % 4), i)) ;
        const uint64_t g0 = gpu_calls ("GrB_mxv") ;
        const GrB_Info i1 = GrB_mxv (w, NULL, NULL, srs [s], A, u, NULL) ;
        const bool on_gpu = gpu_calls ("GrB_mxv") > g0 ;
        const GrB_Info i2 = real_mxv (r, NULL, NULL, srs [s], A, u, NULL) ;
        CHECK (i1 == i2 && i1 == GrB_SUCCESS, "mxv %d: info %d vs %d", s, (int) i1, (int) i2) ;
        CHECK (on_gpu, "mxv %d: on the host", s) ;
        same (s ? "mxv PLUS_TIMES" : "mxv ANY_PAIR", (GrB_Matrix) w, (GrB_Matrix) r) ;
        GrB_Matrix_free (&A) ; GrB_Vector_free (&u) ; GrB_Vector_free (&w) ; GrB_Vector_free (&r) ;
    }
}

// the differential tester's find: M = D*X (X iso zero) on the GPU, then
// C<!M> = abs (B) with C of another size: SuiteSparse's M is iso zero, no
// mask; the same with the oracle's M made by SuiteSparse
static void mask_quirk (void)
{
    const GrB_Index n = 400 ;
    GrB_Matrix D = make (n, n, false, 0, 1, true), X = make (n, n, true, 0.0, 5, false) ;
    GrB_Matrix M = NULL, M2 = NULL, C = NULL, C2 = NULL, B = make (n + 1, n, false, 0, 3, false) ;
    OK (GrB_Matrix_new (&M, GrB_FP64, n, n)) ;
    OK (GrB_Matrix_new (&M2, GrB_FP64, n, n)) ;
    const uint64_t g0 = gpu_calls ("GrB_mxm") ;
    OK (GrB_mxm (M, NULL, NULL, GxB_PLUS_SECOND_FP64, D, X, NULL)) ;
    CHECK (gpu_calls ("GrB_mxm") > g0, "D*X on the GPU") ;
    OK (real_mxm (M2, NULL, NULL, GxB_PLUS_SECOND_FP64, D, X, NULL)) ;
    OK (GrB_Matrix_new (&C, GrB_FP64, n + 1, n)) ;
    OK (GrB_Matrix_new (&C2, GrB_FP64, n + 1, n)) ;
    // M stays device newest until the apply reads it
    const GrB_Info i1 = GrB_Matrix_apply (C, M, NULL, GrB_ABS_FP64, B, GrB_DESC_C) ;
    const GrB_Info i2 = real_apply (C2, M2, NULL, GrB_ABS_FP64, B, GrB_DESC_C) ;
    CHECK (i1 == i2 && i2 == GrB_SUCCESS, "C<!M> = abs (B), M iso zero of another size: info %d vs "
        "SuiteSparse's %d", (int) i1, (int) i2) ;
    same ("mask quirk: M", M, M2) ;
    same ("mask quirk: C", C, C2) ;
    GrB_Matrix_free (&D) ; GrB_Matrix_free (&X) ; GrB_Matrix_free (&M) ; GrB_Matrix_free (&M2) ;
    GrB_Matrix_free (&C) ; GrB_Matrix_free (&C2) ; GrB_Matrix_free (&B) ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!grbcuda_gpu_available ())
    {
        printf ("SKIP: no usable GPU; test_iso_gpu needs one\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    real_mxm = (mxm_t) gcu_test_real ("GrB_mxm") ;
    real_mxv = (mxv_t) gcu_test_real ("GrB_mxv") ;
    real_apply = (apply_t) gcu_test_real ("GrB_Matrix_apply") ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    OK (grbcuda_set_keep_results (true)) ;
    mxm_cases () ;
    mxv_cases () ;
    mask_quirk () ;
    GrB_finalize () ;
    return gcu_test_report ("test_iso_gpu") ;
}
