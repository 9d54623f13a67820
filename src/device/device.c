// device.c — lazy CUDA start-up (DESIGN §1): nothing touches CUDA until a call
// wants the GPU; a missing GPU, driver or a failing start makes every call
// pass through to SuiteSparse, silently unless GRBCUDA_VERBOSE is set.
// Built without the CUDA toolkit, the GPU is simply never usable. The floors
// above that follow the device (the residency cache's memory, the JIT's
// target) are told of a successful start through the hooks they register
// with gcu_device_on_start; the device never names them (DESIGN §6). The
// public questions that start the GPU are in src/api/gpu.c, above them.
#include "gcu_device.h"
#include "gcu_cuda.h"
#include "gcu_util.h"
#include "grbcuda.h"
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

// start hooks (gcu_device_on_start): run once, in the order registered,
// inside the successful start, or at once when registered after it
#define GCU_DEVICE_HOOKS 8
static pthread_mutex_t hooks_lock = PTHREAD_MUTEX_INITIALIZER ;
static gcu_device_hook hooks [GCU_DEVICE_HOOKS] ;
static int nhooks ;
static bool hooks_ran ;

GrB_Info gcu_device_on_start (gcu_device_hook hook)
{
    if (hook == NULL) return GrB_NULL_POINTER ;
    pthread_mutex_lock (&hooks_lock) ;
    bool known = false ;
    for (int i = 0 ; i < nhooks ; i++) known = known || (hooks [i] == hook) ;
    if (!known && nhooks == GCU_DEVICE_HOOKS)
    {
        pthread_mutex_unlock (&hooks_lock) ;
        return GrB_INVALID_VALUE ;
    }
    if (!known) hooks [nhooks++] = hook ;
    // hooks_ran is set only by a successful start, once props are final
    bool run_now = hooks_ran && !known ;
    pthread_mutex_unlock (&hooks_lock) ;
    if (run_now) hook (&props) ;
    return GrB_SUCCESS ;
}

#if GRBCUDA_HAVE_CUDA
static void run_hooks (void)
{
    gcu_device_hook h [GCU_DEVICE_HOOKS] ;
    pthread_mutex_lock (&hooks_lock) ;
    hooks_ran = true ;
    int n = nhooks ;
    memcpy (h, hooks, sizeof (hooks)) ;
    pthread_mutex_unlock (&hooks_lock) ;
    for (int i = 0 ; i < n ; i++) h [i] (&props) ;
}

// Every CUDA call is checked; a failure here means "no usable GPU".
static bool cuda_ok (cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return true ;
    gcu_log ("CUDA start: %s failed: %s (%d); all calls run on the host",
        what, cudaGetErrorString (e), (int) e) ;
    return false ;
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
    // the allocation pool keeps what a call used for the next one, up to
    // GRBCUDA_POOL_KEEP (default: an eighth of the device, at most 4 GiB)
    int64_t keep = gcu_settings ()->pool_keep ;
    if (keep < 0)
    {
        keep = (int64_t) (props.global_mem / 8) ;
        if (keep > ((int64_t) 4 << 30)) keep = (int64_t) 4 << 30 ;
    }
    gcu_pool_keep ((uint64_t) keep) ;
    // the floors above follow this device from now on
    run_hooks () ;
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

#if GRBCUDA_HAVE_CUDA
// The start made the device current on the thread that ran it, which may be
// a background thread (src/dispatch/gpu_start.c): every other thread makes
// it current before its first GPU work (the runtime's primary context,
// which the JIT's driver calls find current).
static __thread bool thread_on_device ;

static bool thread_device (void)
{
    if (thread_on_device) return true ;
    cudaError_t e = cudaSetDevice (props.ordinal) ;
    if (e != cudaSuccess)
    {
        gcu_log ("cudaSetDevice (%d) failed on this thread: %s; host this time",
            props.ordinal, cudaGetErrorString (e)) ;
        return false ;
    }
    thread_on_device = true ;
    return true ;
}
#else
static bool thread_device (void) { return true ; }
#endif

bool gcu_gpu_ready (void)
{
    pthread_once (&start_once, start) ;
    return usable && thread_device () ;
}

const gcu_device_props *gcu_device (void)
{
    return gcu_gpu_ready () ? &props : NULL ;
}

bool gcu_gpu_started (void) { return atomic_load (&started) != 0 ; }

GrB_Info grbcuda_set_device (int device)
{
    if (device < 0 || gcu_gpu_started ()) return GrB_INVALID_VALUE ;
    atomic_store (&requested_device, device) ;
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
