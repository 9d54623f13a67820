// main.c — a user's program linked through find_package(grbcuda) or
// pkg-config: checks that its GrB_mxm goes through grbcuda.
#include <grbcuda.h>
#include <stdio.h>

int main (void)
{
    if (GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS) return 1 ;
    GrB_Matrix A = NULL ;
    GrB_Matrix_new (&A, GrB_FP64, 10, 10) ;
    GrB_Matrix_setElement_FP64 (A, 3.0, 1, 2) ;
    GrB_Matrix_setElement_FP64 (A, 4.0, 2, 5) ;
    GrB_Info info = GrB_mxm (A, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, NULL) ;
    double x = 0 ;
    GrB_Matrix_extractElement_FP64 (&x, A, 1, 5) ;
    grbcuda_op_stats s ;
    grbcuda_stats_get ("GrB_mxm", &s) ;
    printf ("consumer: info %d C(1,5) = %g, grbcuda counted %llu call(s)\n",
        (int) info, x, (unsigned long long) s.calls) ;
    GrB_Matrix_free (&A) ;
    GrB_finalize () ;
    return (info == GrB_SUCCESS && x == 12.0 && s.calls == 1) ? 0 : 1 ;
}
