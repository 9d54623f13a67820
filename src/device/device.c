// device.c — lazy CUDA start-up (DESIGN §1): nothing touches CUDA until a call
// wants the GPU; a missing GPU, driver or a failing start makes every call
// pass through to SuiteSparse, silently unless GRBCUDA_VERBOSE is set.
// Built without the CUDA toolkit, the GPU is simply never usable.
#include "gcu_device.h"
#include "gcu_cuda.h"
#include "gcu_util.h"
#include "grbcuda.h"
#include "../jit/gcu_jit.h"
#include "../residency/gcu_residency.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#if GRBCUDA_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static pthread_once_t start_once = PTHREAD_ONCE_INIT ;
static _Atomic int started ;            // a start was attempted
static _Atomic int requested_device = -1 ;
static bool usable ;
static gcu_device_props props ;

#if GRBCUDA_HAVE_CUDA
// Every CUDA call is checked; a failure here means "no usable GPU".
static bool cuda_ok (cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return true ;
    gcu_log ("CUDA start: %s failed: %s (%d); all calls run on the host",
        what, cudaGetErrorString (e), (int) e) ;
    return false ;
}

// The residency cache's device memory (gcu_residency.h). Plain cudaMalloc,
// not the stream-ordered pool of gcu_dmalloc: a cached copy outlives the
// call (and the thread, and its per-thread stream) that made it, and is
// freed by whichever thread evicts or invalidates it. The GPU families unpin
// a copy only once their kernels are done (and cudaFree waits for the
// device besides), so a copy is never freed under a kernel reading it.
static GrB_Info res_alloc (void *ctx, size_t bytes, void **p)
{
    (void) ctx ;
    cudaError_t e = cudaMalloc (p, bytes > 0 ? bytes : 1) ;
    if (e == cudaSuccess) return GrB_SUCCESS ;
    (void) cudaGetLastError () ;    // out of memory is not sticky: clear it
    *p = NULL ;
    return GrB_OUT_OF_MEMORY ;
}

static void res_free (void *ctx, void *p, size_t bytes)
{
    (void) ctx ; (void) bytes ;
    if (cudaFree (p) != cudaSuccess) (void) cudaGetLastError () ;
}

static void start (void)
{
    double t0 = gcu_now () ;
    int dev = atomic_load (&requested_device) ;
    if (dev < 0) dev = gcu_settings ()->device ;
    int count = 0 ;
    if (!cuda_ok (cudaGetDeviceCount (&count), "cudaGetDeviceCount")) goto done ;
    if (count <= dev)
    {
        gcu_log ("CUDA start: device %d requested but %d present; all calls "
            "run on the host", dev, count) ;
        goto done ;
    }
    struct cudaDeviceProp p ;
    if (!cuda_ok (cudaGetDeviceProperties (&p, dev), "cudaGetDeviceProperties")) goto done ;
    if (!cuda_ok (cudaSetDevice (dev), "cudaSetDevice")) goto done ;
    // Create the primary context now, so its cost is paid (and reported) once.
    if (!cuda_ok (cudaFree (NULL), "context creation")) goto done ;
    props.ordinal = dev ;
    snprintf (props.name, sizeof (props.name), "%s", p.name) ;
    props.cc_major = p.major ;
    props.cc_minor = p.minor ;
    props.sm_count = p.multiProcessorCount ;
    props.global_mem = p.totalGlobalMem ;
    props.smem_per_block = p.sharedMemPerBlock ;
    props.smem_per_block_optin = p.sharedMemPerBlockOptin ;
    props.smem_per_sm = p.sharedMemPerMultiprocessor ;
    props.l2_bytes = p.l2CacheSize ;
    props.max_threads_per_sm = p.maxThreadsPerMultiProcessor ;
    props.warp_size = p.warpSize ;
    usable = true ;
    // the residency cache keeps operands on this device from now on, within
    // its budget (a fraction of this device's memory, GRBCUDA_DEVICE_MEMORY)
    {
        gcu_res_allocator a = { res_alloc, res_free, NULL, props.global_mem, "cudaMalloc" } ;
        (void) gcu_residency_set_allocator (&a) ;
    }
    // the allocation pool keeps what a call used for the next one, up to
    // GRBCUDA_POOL_KEEP (default: an eighth of the device, at most 4 GiB)
    int64_t keep = gcu_settings ()->pool_keep ;
    if (keep < 0)
    {
        keep = (int64_t) (props.global_mem / 8) ;
        if (keep > ((int64_t) 4 << 30)) keep = (int64_t) 4 << 30 ;
    }
    gcu_pool_keep ((uint64_t) keep) ;
    // the JIT compiles for this device from now on
    gcu_jit_set_arch (10 * props.cc_major + props.cc_minor) ;
    gcu_log ("CUDA started on device %d: %s, sm_%d%d, %d SMs, %.1f GiB, "
        "L2 %d KiB, shared memory %zu KiB/block (opt-in), pool keeps %.0f MiB, in %.1f ms", dev,
        props.name, props.cc_major, props.cc_minor, props.sm_count,
        (double) props.global_mem / (1 << 30), props.l2_bytes / 1024,
        props.smem_per_block_optin / 1024, keep / 1048576.0, 1e3 * (gcu_now () - t0)) ;
done:
    atomic_store (&started, 1) ;
}
#else
static void start (void)
{
    gcu_log ("built without CUDA: all calls run on the host") ;
    atomic_store (&started, 1) ;
}
#endif

bool gcu_gpu_ready (void)
{
    pthread_once (&start_once, start) ;
    return usable ;
}

const gcu_device_props *gcu_device (void)
{
    return gcu_gpu_ready () ? &props : NULL ;
}

bool gcu_gpu_started (void) { return atomic_load (&started) != 0 ; }

int grbcuda_gpu_available (void) { return gcu_gpu_ready () ? 1 : 0 ; }
int grbcuda_gpu_started (void) { return gcu_gpu_started () ? 1 : 0 ; }

GrB_Info grbcuda_set_device (int device)
{
    if (device < 0 || gcu_gpu_started ()) return GrB_INVALID_VALUE ;
    atomic_store (&requested_device, device) ;
    return GrB_SUCCESS ;
}

GrB_Info grbcuda_gpu_info (char name [256], int *sm_count, int *cc_major,
    int *cc_minor, size_t *global_mem)
{
    const gcu_device_props *p = gcu_device () ;
    if (p == NULL) return GrB_NO_VALUE ;
    if (name != NULL) snprintf (name, 256, "%s", p->name) ;
    if (sm_count != NULL) *sm_count = p->sm_count ;
    if (cc_major != NULL) *cc_major = p->cc_major ;
    if (cc_minor != NULL) *cc_minor = p->cc_minor ;
    if (global_mem != NULL) *global_mem = p->global_mem ;
    return GrB_SUCCESS ;
}

const char *grbcuda_version (void)
{
#if GRBCUDA_HAVE_CUDA
    return GRBCUDA_VERSION_STRING " (cuda)" ;
#else
    return GRBCUDA_VERSION_STRING " (no cuda)" ;
#endif
}
