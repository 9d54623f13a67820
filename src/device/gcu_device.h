// gcu_device.h — the GPU as grbcuda sees it: started lazily, once, on the
// first call that wants it; its properties drive launch configuration (SM
// count, shared memory, L2) instead of constants typed in for one GPU.
#ifndef GCU_DEVICE_H
#define GCU_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct
{
    int ordinal ;
    char name [256] ;
    int cc_major, cc_minor ;
    int sm_count ;
    size_t global_mem ;
    size_t smem_per_block ;         // default per-block shared memory
    size_t smem_per_block_optin ;   // maximum with the opt-in attribute
    size_t smem_per_sm ;
    int l2_bytes ;
    int max_threads_per_sm ;
    int warp_size ;
}
gcu_device_props ;

// Starts CUDA on first use (thread-safe); false if no GPU is usable: no CUDA
// in this build, no driver, no device, or CUDA failed to start.
bool gcu_gpu_ready (void) ;
// Properties of the device in use; NULL if none is usable. Starts CUDA.
const gcu_device_props *gcu_device (void) ;
// true once a start has been attempted.
bool gcu_gpu_started (void) ;

#endif
