// gcu_device.h — the GPU as grbcuda sees it: started lazily, once, on the
// first call that wants it; its properties drive launch configuration (SM
// count, shared memory, L2) instead of constants typed in for one GPU.
#ifndef GCU_DEVICE_H
#define GCU_DEVICE_H

#include <GraphBLAS.h>
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

// The floors above the device that must follow it (the residency cache
// allocates in its memory, the JIT compiles for its architecture) register a
// hook here; the device never calls up by name (DESIGN §6). Each hook runs
// once, after a successful start and before the start returns to any caller,
// in the order registered; one registered after the start runs at once (in
// the registering thread). A failed start, or a build without CUDA, runs
// none. A hook must not call gcu_gpu_ready or gcu_device (it may run inside
// the start): it is handed the properties. Registering a hook again does
// nothing. GrB_NULL_POINTER, or GrB_INVALID_VALUE when the (small) table
// is full.
typedef void (*gcu_device_hook) (const gcu_device_props *props) ;
GrB_Info gcu_device_on_start (gcu_device_hook hook) ;

#endif
