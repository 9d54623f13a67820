// GRBCUDA_TEST_INTERNAL (calls internal gcu_* functions: links grbcuda_static)
// test_jit_dot_gpu.c — the masked dot-product kernel through the real JIT on
// the GPU (NVRTC, the caches, module load, launch), on the cases of
// tests/cpu/test_jit_dot_reference.c, each compared entry by entry with
// SuiteSparse's C<M> = A*B' (and with the kernel built for the host, where a
// C++ compiler is present). Skipped (77) without a GPU.
#if GRBCUDA_HAVE_CUDA
#define GCU_DOT_ON_GPU 1
#define GCU_DOT_TEST_NAME "test_jit_dot_gpu"
#include "../cpu/test_jit_dot_reference.c"
#else
#include <stdio.h>
int main (void)
{
    printf ("test_jit_dot_gpu: built without CUDA: skipped\n") ;
    return 77 ;
}
#endif
