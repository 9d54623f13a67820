// GRBCUDA_TEST_INTERNAL
// test_ewise_matrix_gpu.c — GrB_Matrix_eWiseAdd_{BinaryOp,Monoid,Semiring}
// and GrB_Matrix_eWiseMult_{BinaryOp,Monoid,Semiring} with the GPU forced,
// against SuiteSparse's own functions: test_ewise_gpu.c's generator, oracle
// and checks over matrices (see there: shapes, storage and sparsity
// controls, iso operands, transposes through the descriptor, every mask
// descriptor, accum, aliasing C == A, C == B, A == B, M == C, operands left
// device newest by GrB_mxm, error cases). Same options.
#define EWISE_MATRIX 1
#include "test_ewise_gpu.c"
