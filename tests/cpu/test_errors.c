// GRBCUDA_TEST_PRELOAD
// test_errors.c — invalid calls return exactly SuiteSparse's GrB_Info, side by
// side: for every interposed entry point, NULL handles (output, operator,
// inputs), dimension mismatch of inputs and mask, domain mismatch (a
// user-defined type where the semiring wants a built-in one), uninitialised
// objects (output, input, mask, descriptor), missing eWiseUnion scalars; and
// a call made before GrB_init. The output left behind must match too.
// Each case is run in modes auto (threshold 0), gpu and host.
#include "gcu_test.h"
#include "gcu_test_ops.h"
#include <string.h>

typedef struct { double re, im ; int tag ; } udt_t ;

// A zeroed block has no valid magic: SuiteSparse reports it as an
// uninitialised object. 
static _Alignas (64) char zeros [8192] ;

enum { C_NULL, OP_NULL, A_NULL, B_NULL, A_DIMS, B_DIMS, M_DIMS, A_DOMAIN,
    C_DOMAIN, C_UNINIT, A_UNINIT, B_UNINIT, M_UNINIT, D_UNINIT, ALPHA_NULL,
    ACCUM_DOMAIN, NCASES } ;
static const char *case_names [NCASES] = { "C NULL", "operator NULL", "A NULL",
    "B NULL", "A dimensions", "B dimensions", "mask dimensions", "A domain",
    "C domain", "C uninitialised", "A uninitialised", "B uninitialised",
    "mask uninitialised", "descriptor uninitialised", "alpha NULL",
    "accum domain" } ;

static GrB_Type udt ;

static void *make (bool vec, GrB_Type t, GrB_Index r, GrB_Index c, uint64_t *st)
{
    if (t == udt)
    {
        void *x = NULL ;
        if (vec) GrB_Vector_new ((GrB_Vector *) &x, udt, r) ;
        else GrB_Matrix_new ((GrB_Matrix *) &x, udt, r, c) ;
        return x ;
    }
    if (vec) return gcu_test_random_vector (t, r, 0.5, st) ;
    return gcu_test_random_matrix (t, r, c, 0.5, st) ;
}

static void drop (bool vec, void *x)
{
    if (x == NULL || x == (void *) zeros) return ;
    if (vec) GrB_Vector_free ((GrB_Vector *) &x) ;
    else GrB_Matrix_free ((GrB_Matrix *) &x) ;
}

static void run_case (int op, int kase, int mode, uint64_t *st)
{
    bool vec = (op == MXV || op == VXM || op >= V_MULT_S) ;
    bool a_vec = vec && op != MXV, b_vec = vec && op != VXM ;
    opdesc *o = &ops [0] ;      // PLUS_TIMES_FP64 family
    GrB_Index m = 5, n = 4, k = 3 ;
    GrB_Index ar = m, ac = k, br = k, bc = n, cr = m, cc = n ;
    if (op == MXV) { ar = m ; ac = k ; br = k ; bc = 1 ; cr = m ; cc = 1 ; }
    else if (op == VXM) { ar = k ; ac = 1 ; br = k ; bc = n ; cr = n ; cc = 1 ; }
    else if (op != MXM) { ar = m ; ac = vec ? 1 : n ; br = ar ; bc = ac ; cr = ar ; cc = ac ; }
    if (kase == A_DIMS) ar += 2 ;
    if (kase == B_DIMS) { if (b_vec) br += 2 ; else bc += 2 ; }
    GrB_Type ta = kase == A_DOMAIN ? udt : GrB_FP64 ;
    GrB_Type tc = (kase == C_DOMAIN || kase == ACCUM_DOMAIN) ? udt : GrB_FP64 ;
    void *A = make (a_vec, ta, ar, ac, st), *B = make (b_vec, GrB_FP64, br, bc, st) ;
    void *M = make (vec, GrB_BOOL, kase == M_DIMS ? cr + 1 : cr, cc, st) ;
    void *C0 = make (vec, tc, cr, cc, st) ;
    void *C1 = NULL, *C2 = NULL ;
    if (vec) { GrB_Vector_dup ((GrB_Vector *) &C1, C0) ; GrB_Vector_dup ((GrB_Vector *) &C2, C0) ; }
    else { GrB_Matrix_dup ((GrB_Matrix *) &C1, C0) ; GrB_Matrix_dup ((GrB_Matrix *) &C2, C0) ; }
    GrB_Scalar alpha = NULL, beta = NULL ;
    GrB_Scalar_new (&alpha, GrB_FP64) ; GrB_Scalar_new (&beta, GrB_FP64) ;
    GrB_Scalar_setElement_FP64 (alpha, 1.0) ; GrB_Scalar_setElement_FP64 (beta, 2.0) ;
    opdesc onull = { NULL, NULL, NULL, GrB_FP64, false } ;
    args_t a = { NULL, M, kase == ACCUM_DOMAIN ? GrB_PLUS_FP64 : NULL,
        kase == OP_NULL ? &onull : o, A, B, alpha, beta, NULL } ;
    if (kase == A_NULL) a.A = NULL ;
    if (kase == B_NULL) a.B = NULL ;
    if (kase == A_UNINIT) a.A = zeros ;
    if (kase == B_UNINIT) a.B = zeros ;
    if (kase == M_UNINIT) a.M = zeros ;
    if (kase == D_UNINIT) a.desc = (GrB_Descriptor) zeros ;
    if (kase == ALPHA_NULL) a.alpha = NULL ;
    args_t a1 = a, a2 = a ;
    a1.C = C1 ; a2.C = C2 ;
    if (kase == C_NULL) a1.C = a2.C = NULL ;
    if (kase == C_UNINIT) a1.C = a2.C = zeros ;
    gcu_test_set_mode (mode) ;
    GrB_Info i1 = call (op, false, &a1) ;
    GrB_Info i2 = call (op, true, &a2) ;
    bool expect_error = !(kase == ALPHA_NULL && op != M_UNION && op != V_UNION) ;
    CHECK (i1 == i2, "%s / %s (mode %d): grbcuda %d, SuiteSparse %d",
        names [op], case_names [kase], mode, (int) i1, (int) i2) ;
    CHECK (!expect_error || i1 < 0, "%s / %s: expected an error, got %d",
        names [op], case_names [kase], (int) i1) ;
    if (C1 != NULL && tc != udt)
    {
        bool eq = vec ? gcu_test_vector_equal (C1, C2, 0, false, names [op])
                      : gcu_test_matrix_equal (C1, C2, 0, false, names [op]) ;
        CHECK (eq, "%s / %s: output differs after the failed call", names [op], case_names [kase]) ;
    }
    drop (a_vec, A) ; drop (b_vec, B) ; drop (vec, M) ; drop (vec, C0) ;
    drop (vec, C1) ; drop (vec, C2) ;
    GrB_Scalar_free (&alpha) ; GrB_Scalar_free (&beta) ;
}

int main (void)
{
    // Before GrB_init: both must refuse the same way.
    {
        typedef GrB_Info (*mxm_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
            const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
        mxm_t real = (mxm_t) gcu_test_real ("GrB_mxm") ;
        CHECK (real != NULL, "SuiteSparse's GrB_mxm not found") ;
        GrB_Info i1 = GrB_mxm ((GrB_Matrix) zeros, NULL, NULL, NULL, NULL, NULL, NULL) ;
        GrB_Info i2 = real ((GrB_Matrix) zeros, NULL, NULL, NULL, NULL, NULL, NULL) ;
        CHECK (i1 == i2, "before GrB_init: grbcuda %d, SuiteSparse %d", (int) i1, (int) i2) ;
        i1 = GrB_mxm (NULL, NULL, NULL, NULL, NULL, NULL, NULL) ;
        i2 = real (NULL, NULL, NULL, NULL, NULL, NULL, NULL) ;
        CHECK (i1 == i2, "before GrB_init, NULLs: grbcuda %d, SuiteSparse %d", (int) i1, (int) i2) ;
    }
    OK (GrB_init (GrB_NONBLOCKING)) ;
    CHECK (gcu_test_grbcuda_present (), "grbcuda is not in this process") ;
    gcu_test_types_init () ;
    ops_init () ;
    OK (GrB_Type_new (&udt, sizeof (udt_t))) ;
    uint64_t st = 7 ;
    gcu_test_set_threshold (0) ;
    int modes [3] = { 0, 1, 2 } ;
    for (int mi = 0 ; mi < 3 ; mi++)
        for (int op = 0 ; op < NOPS ; op++)
            for (int kase = 0 ; kase < NCASES ; kase++)
                run_case (op, kase, modes [mi], &st) ;
    gcu_test_set_mode (0) ;
    gcu_test_set_threshold (1e5) ;
    GrB_Type_free (&udt) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_errors") ;
}
