// GRBCUDA_TEST_PRELOAD
// test_passthrough.c — pass-through is exact: every interposed entry point,
// on random inputs (semirings, monoids, operators, types with typecasting,
// masks valued/structural/complemented, replace, accum, transposes, C aliased
// with an input, every storage format, pending work), called through grbcuda
// and directly on SuiteSparse's own definition, gives the same GrB_Info and
// the same result. Runs in modes auto (threshold 0 and default), gpu and host.
// Built twice: linked with grbcuda, and plain (run under LD_PRELOAD); in both
// it fails if grbcuda is not in the process or did not count the calls.
#include "gcu_test.h"
#include "gcu_test_ops.h"
#include <stdlib.h>
#include <string.h>

static GrB_Index dim (uint64_t *st)
{
    switch (gcu_rand (st) % 10)
    {
        case 0: return 0 ;
        case 1: return 1 ;
        case 2: return 60 + gcu_rand (st) % 80 ;
        default: return 2 + gcu_rand (st) % 20 ;
    }
}

static void *rnd (bool vec, GrB_Type t, GrB_Index r, GrB_Index c, uint64_t *st)
{
    double d = (gcu_rand (st) % 6 == 0) ? 1.0 : 0.05 + 0.5 * gcu_rand01 (st) ;
    if (vec) return gcu_test_random_vector (t, r, d, st) ;
    return gcu_test_random_matrix (t, r, c, d, st) ;
}

static void obj_free (bool vec, void **x)
{
    if (vec) GrB_Vector_free ((GrB_Vector *) x) ;
    else GrB_Matrix_free ((GrB_Matrix *) x) ;
}

static void *obj_dup (bool vec, void *x)
{
    void *y = NULL ;
    if (vec) GrB_Vector_dup ((GrB_Vector *) &y, x) ;
    else GrB_Matrix_dup ((GrB_Matrix *) &y, x) ;
    return y ;
}

static int trials_run, trials_ok_info ;

static void trial (int op, uint64_t *st)
{
    bool vec_op = (op == MXV || op == VXM || op >= V_MULT_S) ;
    opdesc *o = &ops [gcu_rand (st) % nops_table] ;
    GrB_Type tt = gcu_test_types [gcu_rand (st) % 13] ;
    GrB_Type ta = (gcu_rand (st) % 3 == 0) ? tt : o->t ;
    GrB_Type tb = (gcu_rand (st) % 3 == 0) ? gcu_test_types [gcu_rand (st) % 13] : o->t ;
    GrB_Type tc = (gcu_rand (st) % 4 == 0) ? gcu_test_types [gcu_rand (st) % 13] : o->t ;
    bool tran_a = !vec_op && gcu_rand (st) % 3 == 0 ;
    bool tran_b = !vec_op && gcu_rand (st) % 3 == 0 ;
    if (op == MXV) tran_a = gcu_rand (st) % 3 == 0 ;
    if (op == VXM) tran_b = gcu_rand (st) % 3 == 0 ;
    GrB_Index m = dim (st), n = dim (st), k = dim (st) ;
    void *A = NULL, *B = NULL, *C0 = NULL, *M = NULL ;
    bool c_vec = vec_op ;
    switch (op)
    {
        case MXM:
            A = rnd (false, ta, tran_a ? k : m, tran_a ? m : k, st) ;
            B = rnd (false, tb, tran_b ? n : k, tran_b ? k : n, st) ;
            C0 = rnd (false, tc, m, n, st) ;
            break ;
        case MXV:
            A = rnd (false, ta, tran_a ? k : m, tran_a ? m : k, st) ;
            B = rnd (true, tb, k, 1, st) ;
            C0 = rnd (true, tc, m, 1, st) ;
            break ;
        case VXM:
            A = rnd (true, ta, k, 1, st) ;
            B = rnd (false, tb, tran_b ? n : k, tran_b ? k : n, st) ;
            C0 = rnd (true, tc, n, 1, st) ;
            break ;
        default:
            A = rnd (vec_op, ta, tran_a ? n : m, tran_a ? m : n, st) ;
            B = rnd (vec_op, tb, tran_b ? n : m, tran_b ? m : n, st) ;
            C0 = rnd (vec_op, tc, m, n, st) ;
            break ;
    }
    GrB_Index cr = 0, cc = 1 ;
    if (c_vec) GrB_Vector_size (&cr, C0) ;
    else { GrB_Matrix_nrows (&cr, C0) ; GrB_Matrix_ncols (&cc, C0) ; }
    int mask_kind = gcu_rand (st) % 3 ;     // none, valued, structural
    if (mask_kind > 0)
    {
        GrB_Type tm = (gcu_rand (st) % 2) ? GrB_BOOL : gcu_test_types [gcu_rand (st) % 13] ;
        M = rnd (c_vec, tm, cr, cc, st) ;
    }
    GrB_Descriptor desc = NULL ;
    if (gcu_rand (st) % 4 != 0)
    {
        GrB_Descriptor_new (&desc) ;
        if (tran_a) GrB_Descriptor_set (desc, GrB_INP0, GrB_TRAN) ;
        if (tran_b) GrB_Descriptor_set (desc, GrB_INP1, GrB_TRAN) ;
        if (mask_kind == 2) GrB_Descriptor_set (desc, GrB_MASK, GrB_STRUCTURE) ;
        if (M != NULL && gcu_rand (st) % 3 == 0) GrB_Descriptor_set (desc, GrB_MASK, GrB_COMP) ;
        if (gcu_rand (st) % 3 == 0) GrB_Descriptor_set (desc, GrB_OUTP, GrB_REPLACE) ;
    }
    else if (tran_a || tran_b)
    {
        desc = (tran_a && tran_b) ? GrB_DESC_T0T1 : tran_a ? GrB_DESC_T0 : GrB_DESC_T1 ;
    }
    GrB_BinaryOp accum = (gcu_rand (st) % 3 == 0) ? gcu_test_plus (tc) : NULL ;
    GrB_Scalar alpha = NULL, beta = NULL ;
    GrB_Scalar_new (&alpha, o->t) ;
    GrB_Scalar_new (&beta, o->t) ;
    GrB_Scalar_setElement_FP64 (alpha, 2.0) ;
    GrB_Scalar_setElement_FP64 (beta, 5.0) ;

    // Aliasing: sometimes C is also A (when shapes allow), or the mask.
    int alias = (int) (gcu_rand (st) % 6) ;     // 1: C is A, 2: C is M
    void *C1 = obj_dup (c_vec, C0), *C2 = obj_dup (c_vec, C0) ;
    args_t a1 = { C1, M, accum, o, A, B, alpha, beta, desc } ;
    args_t a2 = { C2, M, accum, o, A, B, alpha, beta, desc } ;
    bool same_shape_a = (op != MXV && op != VXM && !tran_a && (op != MXM || k == n)) ;
    if (alias == 1 && same_shape_a)
    { a1.A = C1 ; a2.A = C2 ; }
    else if (alias == 2 && M != NULL)
    { a1.M = C1 ; a2.M = C2 ; }

    GrB_Info i1 = call (op, false, &a1) ;
    GrB_Info i2 = call (op, true, &a2) ;
    trials_run++ ;
    if (i1 == GrB_SUCCESS) trials_ok_info++ ;
    CHECK (i1 == i2, "%s: info through grbcuda %d, SuiteSparse %d", names [op], (int) i1, (int) i2) ;
    if (i1 == GrB_SUCCESS && i2 == GrB_SUCCESS)
    {
        // pass-through is exact; where a GPU is present (threshold 0 sends
        // calls there) floating-point sums may be added in another order,
        // and single precision then differs in its last bits
        const double tol = gcu_test_gpu_available () ? 1e-5 : 1e-9 ;
        bool eq = c_vec ? gcu_test_vector_equal (C1, C2, tol, o->any, names [op])
                        : gcu_test_matrix_equal (C1, C2, tol, o->any, names [op]) ;
        CHECK (eq, "%s: result differs from SuiteSparse (semiring %d, types %s/%s/%s)",
            names [op], (int) (o - ops), "a", "b", "c") ;
    }
    obj_free (c_vec, &C1) ; obj_free (c_vec, &C2) ; obj_free (c_vec, &C0) ;
    if (M != NULL) obj_free (c_vec, &M) ;
    obj_free (op == VXM || (vec_op && op != MXV), &A) ;
    obj_free (op == MXV || (vec_op && op != VXM), &B) ;
    GrB_Scalar_free (&alpha) ; GrB_Scalar_free (&beta) ;
    if (desc != NULL && desc != GrB_DESC_T0 && desc != GrB_DESC_T1 && desc != GrB_DESC_T0T1)
        GrB_Descriptor_free (&desc) ;
}

int main (int argc, char **argv)
{
    int per_op = argc > 1 ? atoi (argv [1]) : 40 ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    CHECK (gcu_test_grbcuda_present (), "grbcuda is not in this process (link or LD_PRELOAD)") ;
    gcu_test_types_init () ;
    ops_init () ;
    uint64_t st = 20261122 ;
    // modes: auto with the default threshold, auto with threshold 0 (every
    // call wants the GPU), gpu, host
    int modes [4] = { 0, 0, 1, 2 } ;
    gcu_test_stats_t before [NOPS], after [NOPS] ;
    for (int op = 0 ; op < NOPS ; op++) gcu_test_stats (names [op], &before [op]) ;
    for (int mi = 0 ; mi < 4 ; mi++)
    {
        CHECK (gcu_test_set_mode (modes [mi]), "set mode") ;
        CHECK (gcu_test_set_threshold (mi == 1 ? 0.0 : 1e5), "set threshold") ;
        for (int op = 0 ; op < NOPS ; op++)
            for (int t = 0 ; t < per_op ; t++) trial (op, &st) ;
    }
    for (int op = 0 ; op < NOPS ; op++)
    {
        gcu_test_stats (names [op], &after [op]) ;
        CHECK (after [op].calls - before [op].calls == (uint64_t) (4 * per_op),
            "%s: grbcuda counted %llu calls, expected %d", names [op],
            (unsigned long long) (after [op].calls - before [op].calls), 4 * per_op) ;
        // nothing runs on the GPU yet in this build: every call is a host call
        CHECK (after [op].host - before [op].host == (uint64_t) (4 * per_op) - (after [op].gpu - before [op].gpu),
            "%s: host + gpu != calls", names [op]) ;
        CHECK (after [op].reason [1] - before [op].reason [1] >= (uint64_t) per_op,
            "%s: mode host not counted as the reason", names [op]) ;
    }
    printf ("%d trials, %d succeeded (others returned the same error as SuiteSparse)\n",
        trials_run, trials_ok_info) ;
    CHECK (trials_ok_info > trials_run / 2, "too few trials produced a result (%d of %d)", trials_ok_info, trials_run) ;
    gcu_test_set_mode (0) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_passthrough") ;
}
