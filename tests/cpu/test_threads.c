// GRBCUDA_TEST_PRELOAD
// test_threads.c — 8 user threads call GrB_mxm (and GrB_mxv,
// eWiseAdd) concurrently on shared inputs while another thread flips the
// mode and reads the statistics: every result equals the serial SuiteSparse
// answer, and the statistics count every call exactly once. The first calls
// of all threads race to start CUDA (lazily, once).
#include "gcu_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define NTHREADS 8
#define ITERS 40

static GrB_Matrix A, B, Cref, Eref ;
static GrB_Vector u, wref ;
static _Atomic int failures, done ;

static void *worker (void *arg)
{
    (void) arg ;
    for (int it = 0 ; it < ITERS ; it++)
    {
        GrB_Index n ;
        GrB_Matrix_nrows (&n, A) ;
        GrB_Matrix C = NULL, E = NULL ;
        GrB_Vector w = NULL ;
        GrB_Matrix_new (&C, GrB_FP64, n, n) ;
        GrB_Matrix_new (&E, GrB_FP64, n, n) ;
        GrB_Vector_new (&w, GrB_FP64, n) ;
        if (GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL) != GrB_SUCCESS
            || !gcu_test_matrix_equal (C, Cref, 1e-12, false, "thread mxm"))
            atomic_fetch_add (&failures, 1) ;
        if (GrB_mxv (w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL) != GrB_SUCCESS
            || !gcu_test_vector_equal (w, wref, 1e-12, false, "thread mxv"))
            atomic_fetch_add (&failures, 1) ;
        if (GrB_Matrix_eWiseAdd_BinaryOp (E, NULL, NULL, GrB_PLUS_FP64, A, B, NULL) != GrB_SUCCESS
            || !gcu_test_matrix_equal (E, Eref, 0, false, "thread eWiseAdd"))
            atomic_fetch_add (&failures, 1) ;
        GrB_Matrix_free (&C) ; GrB_Matrix_free (&E) ; GrB_Vector_free (&w) ;
    }
    return NULL ;
}

static void *mode_flipper (void *arg)
{
    (void) arg ;
    int k = 0 ;
    while (!atomic_load (&done))
    {
        gcu_test_set_mode (k++ % 3) ;
        gcu_test_stats_t s ;
        gcu_test_stats ("GrB_mxm", &s) ;
    }
    return NULL ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    CHECK (gcu_test_grbcuda_present (), "grbcuda is not in this process") ;
    gcu_test_types_init () ;
    uint64_t st = 99 ;
    A = gcu_test_random_matrix (GrB_FP64, 300, 300, 0.03, &st) ;
    B = gcu_test_random_matrix (GrB_FP64, 300, 300, 0.03, &st) ;
    u = gcu_test_random_vector (GrB_FP64, 300, 0.3, &st) ;
    // shared inputs must have no pending work before threads share them
    // (the GraphBLAS C API's rule for objects used by several threads)
    GrB_Matrix_wait (A, GrB_MATERIALIZE) ;
    GrB_Matrix_wait (B, GrB_MATERIALIZE) ;
    GrB_Vector_wait (u, GrB_MATERIALIZE) ;
    // serial references straight from SuiteSparse
    typedef GrB_Info (*mxm_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
        const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
    typedef GrB_Info (*mxv_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
        const GrB_Semiring, const GrB_Matrix, const GrB_Vector, const GrB_Descriptor) ;
    typedef GrB_Info (*add_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
        const GrB_BinaryOp, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
    GrB_Matrix_new (&Cref, GrB_FP64, 300, 300) ;
    GrB_Matrix_new (&Eref, GrB_FP64, 300, 300) ;
    GrB_Vector_new (&wref, GrB_FP64, 300) ;
    OK (((mxm_t) gcu_test_real ("GrB_mxm")) (Cref, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL)) ;
    OK (((mxv_t) gcu_test_real ("GrB_mxv")) (wref, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL)) ;
    OK (((add_t) gcu_test_real ("GrB_Matrix_eWiseAdd_BinaryOp")) (Eref, NULL, NULL, GrB_PLUS_FP64, A, B, NULL)) ;

    gcu_test_stats_t before, after ;
    gcu_test_stats ("GrB_mxm", &before) ;
    gcu_test_set_threshold (0) ;
    gcu_test_set_mode (1) ;     // gpu: the first calls race to start CUDA
    pthread_t th [NTHREADS], flip ;
    for (int t = 0 ; t < NTHREADS ; t++) pthread_create (&th [t], NULL, worker, NULL) ;
    pthread_create (&flip, NULL, mode_flipper, NULL) ;
    for (int t = 0 ; t < NTHREADS ; t++) pthread_join (th [t], NULL) ;
    atomic_store (&done, 1) ;
    pthread_join (flip, NULL) ;
    gcu_test_stats ("GrB_mxm", &after) ;
    CHECK (atomic_load (&failures) == 0, "%d concurrent results differed from SuiteSparse", atomic_load (&failures)) ;
    CHECK (after.calls - before.calls == NTHREADS * ITERS, "mxm calls counted %llu, expected %d",
        (unsigned long long) (after.calls - before.calls), NTHREADS * ITERS) ;
    CHECK (after.gpu + after.host == after.calls, "gpu + host != calls") ;
    gcu_test_set_mode (0) ;
    gcu_test_set_threshold (1e5) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&Cref) ;
    GrB_Matrix_free (&Eref) ; GrB_Vector_free (&u) ; GrB_Vector_free (&wref) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_threads") ;
}
