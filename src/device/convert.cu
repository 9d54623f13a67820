// convert.cu — index width conversions on the device: GraphBLAS hands out
// 64-bit indices; kernels read 32-bit ones when dimensions and counts allow
// (half the bytes moved), and results go back 64-bit for GxB pack.
#include <cuda_runtime.h>
#include <stdint.h>
extern "C" {
#include "gcu_cuda.h"
}

__global__ void k_narrow (const uint64_t *__restrict__ in, uint32_t *__restrict__ out, int64_t n)
{
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < n ;
         i += (int64_t) gridDim.x * blockDim.x)
        out [i] = (uint32_t) in [i] ;
}

__global__ void k_widen (const int32_t *__restrict__ in, uint64_t *__restrict__ out, int64_t n)
{
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < n ;
         i += (int64_t) gridDim.x * blockDim.x)
        out [i] = (uint64_t) in [i] ;
}

static unsigned grid_for (int64_t n)
{
    int64_t g = (n + 255) / 256 ;
    if (g > 65535) g = 65535 ;
    return (unsigned) (g < 1 ? 1 : g) ;
}

extern "C" GrB_Info gcu_narrow_u64 (const uint64_t *in, uint32_t *out, int64_t n, gcu_stream s)
{
    if (n <= 0) return GrB_SUCCESS ;
    k_narrow <<<grid_for (n), 256, 0, (cudaStream_t) s>>> (in, out, n) ;
    return gcu_launch_check ("narrow indices") ;
}

extern "C" GrB_Info gcu_widen_i32 (const int32_t *in, uint64_t *out, int64_t n, gcu_stream s)
{
    if (n <= 0) return GrB_SUCCESS ;
    k_widen <<<grid_for (n), 256, 0, (cudaStream_t) s>>> (in, out, n) ;
    return gcu_launch_check ("widen indices") ;
}
