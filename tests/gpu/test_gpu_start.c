// test_gpu_start.c — on a machine with a GPU: CUDA starts lazily (not at
// load, not at GrB_init, not for calls that stay on the host), exactly once
// under concurrent first calls, reports the device's properties, and calls
// that want the GPU but have no kernel yet still give SuiteSparse's answer.
// Skips (exit 77) where no GPU is usable, and says so.
#include "gcu_test.h"
#include "grbcuda.h"
#include <pthread.h>
#include <string.h>

static GrB_Matrix A ;
static void *first_call (void *arg)
{
    GrB_Matrix C = NULL ;
    GrB_Index n ;
    GrB_Matrix_nrows (&n, A) ;
    GrB_Matrix_new (&C, GrB_FP64, n, n) ;
    *(GrB_Info *) arg = GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, NULL) ;
    GrB_Matrix_free (&C) ;
    return NULL ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    CHECK (!grbcuda_gpu_started (), "CUDA started at load or GrB_init") ;
    uint64_t st = 3 ;
    gcu_test_types_init () ;
    A = gcu_test_random_matrix (GrB_FP64, 400, 400, 0.02, &st) ;
    GrB_Matrix_wait (A, GrB_MATERIALIZE) ;
    // a host-only call does not start CUDA
    OK (grbcuda_set_mode (GRBCUDA_MODE_HOST)) ;
    GrB_Info i0 ;
    first_call (&i0) ;
    CHECK (i0 == GrB_SUCCESS && !grbcuda_gpu_started (), "host call started CUDA") ;
    // 8 threads' first GPU-wanting calls race to start CUDA
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    pthread_t th [8] ;
    GrB_Info info [8] ;
    for (int t = 0 ; t < 8 ; t++) pthread_create (&th [t], NULL, first_call, &info [t]) ;
    for (int t = 0 ; t < 8 ; t++) pthread_join (th [t], NULL) ;
    for (int t = 0 ; t < 8 ; t++) CHECK (info [t] == GrB_SUCCESS, "thread %d: %d", t, (int) info [t]) ;
    CHECK (grbcuda_gpu_started (), "a GPU-wanting call did not start CUDA") ;
    if (!grbcuda_gpu_available ())
    {
        printf ("SKIP: no usable GPU here (CUDA started and found none); GPU tests skipped\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    char name [256] ;
    int sms, major, minor ;
    size_t mem ;
    OK (grbcuda_gpu_info (name, &sms, &major, &minor, &mem)) ;
    printf ("GPU: %s, %d SMs, sm_%d%d, %zu MiB\n", name, sms, major, minor, mem >> 20) ;
    CHECK (sms > 0 && major >= 7 && mem >= (1ull << 30), "implausible GPU properties") ;
    // the answer with the GPU present equals SuiteSparse's
    typedef GrB_Info (*mxm_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
        const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
    GrB_Matrix C1 = NULL, C2 = NULL ;
    GrB_Matrix_new (&C1, GrB_FP64, 400, 400) ;
    GrB_Matrix_new (&C2, GrB_FP64, 400, 400) ;
    OK (GrB_mxm (C1, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, NULL)) ;
    OK (((mxm_t) gcu_test_real ("GrB_mxm")) (C2, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, NULL)) ;
    CHECK (gcu_test_matrix_equal (C1, C2, 1e-12, false, "mxm with a GPU"), "result differs") ;
    grbcuda_op_stats s ;
    grbcuda_stats_get ("GrB_mxm", &s) ;
    printf ("GrB_mxm: %llu calls, %llu gpu, %llu host (no GPU kernel: %llu)\n",
        (unsigned long long) s.calls, (unsigned long long) s.gpu,
        (unsigned long long) s.host, (unsigned long long) s.reason [GRBCUDA_REASON_NO_KERNEL]) ;
    CHECK (s.reason [GRBCUDA_REASON_NO_GPU] == 0, "GPU present but calls said no GPU") ;
    GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ; GrB_Matrix_free (&A) ;
    grbcuda_set_mode (GRBCUDA_MODE_AUTO) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_gpu_start") ;
}
