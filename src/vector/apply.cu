// apply.cu — GrB_Vector_apply's kernel compiled with the library: the
// positional operators' index (cuda/apply/gcu_vapply.cuh); the typed kernel
// is the JIT's (src/vector/apply.c). Grid sizes from the device's SM count.
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "gcu_vector.h"
#include "gcu_util.h"
#include "../device/gcu_device.h"
}
#include "apply/gcu_vapply.cuh"

namespace {

__global__ void __launch_bounds__ (GCU_VAPPLY_THREADS) k_vapply_index (gcu_vapply_args a)
{
    gcu_vapply_index_kernel (a) ;
}

} // namespace

extern "C" unsigned gcu_vec_apply_grid (int64_t n)
{
    const gcu_device_props *dev = gcu_device () ;
    const int64_t g = (n + GCU_VAPPLY_THREADS - 1) / GCU_VAPPLY_THREADS ;
    const int64_t cap = (int64_t) (dev != NULL ? dev->sm_count : 1) * GCU_VAPPLY_BLOCKS_PER_SM ;
    return (unsigned) (g > cap ? cap : (g < 1 ? 1 : g)) ;
}

extern "C" GrB_Info gcu_vec_apply_index_launch (const gcu_vapply_args *a, gcu_stream s)
{
    if (a->n <= 0) return GrB_SUCCESS ;
    k_vapply_index <<<gcu_vec_apply_grid (a->n), GCU_VAPPLY_THREADS, 0, (cudaStream_t) s>>> (*a) ;
    return gcu_launch_check ("vector apply (index)") ;
}
