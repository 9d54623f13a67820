// tiny_mxm.c — a program written only against GraphBLAS.h (no grbcuda): one
// GrB_mxm on a small matrix, printing the sum of C. The shell tests run it
// plain and under LD_PRELOAD=libgrbcuda.so and compare output and stderr.
#include <GraphBLAS.h>
#include <stdio.h>

int main (void)
{
    if (GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS) return 1 ;
    GrB_Index n = 100 ;
    GrB_Matrix A = NULL, C = NULL ;
    GrB_Matrix_new (&A, GrB_FP64, n, n) ;
    GrB_Matrix_new (&C, GrB_FP64, n, n) ;
    for (GrB_Index i = 0 ; i < n ; i++)
    {
        GrB_Matrix_setElement_FP64 (A, 2.0, i, i) ;
        GrB_Matrix_setElement_FP64 (A, 1.0, i, (i + 1) % n) ;
    }
    GrB_Info info = GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, NULL) ;
    double sum = 0 ;
    GrB_Matrix_reduce_FP64 (&sum, NULL, GrB_PLUS_MONOID_FP64, C, NULL) ;
    printf ("info %d sum %g\n", (int) info, sum) ;
    GrB_Matrix_free (&A) ;
    GrB_Matrix_free (&C) ;
    GrB_finalize () ;
    return info == GrB_SUCCESS ? 0 : 1 ;
}
