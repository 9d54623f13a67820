// gpu_start.c — the GPU's start as the floors above the device see it
// (DESIGN §6: the device never calls up). The first call that wants the GPU
// registers, once, what must follow a successful start; the device runs it
// inside the start, before any caller sees the GPU usable:
//   the residency cache keeps operands in this device's memory from then
//   on, within its budget (a fraction of the device, GRBCUDA_DEVICE_MEMORY);
//   the JIT compiles for this device's architecture.
// A start that fails runs neither: the cache has no allocator (every call
// uploads privately or runs on the host) and the JIT keeps its automatic
// target. Every start the library makes goes through here (the dispatch,
// and grbcuda_gpu_available/grbcuda_gpu_info in src/api/gpu.c); a start made
// by a direct gcu_gpu_ready (bench/transfer.c) gets the hooks at once when
// they are registered later.
//
// In auto mode the start itself is off the critical path (issue 23): the
// first call that could use the GPU starts it on a background thread
// (gcu_gpu_start_async) and runs on the host, as every call does until the
// GPU is ready; GrB_finalize joins that thread. (Calls that wait for the
// thread's preparation after the start too, the staging pool's pinning and
// NVRTC's loading, 69 and 32 ms on the H100 machine, met no upload stalled
// behind the pinning, but came to the GPU later: LAGraph's connected
// components on rmat-20-16 took 55-99 ms a trial over 8 trials against 27-32
// without the wait, 2026-11-28. Not kept.)
#include "gcu_dispatch.h"
#include "../device/gcu_cuda.h"
#include "../device/gcu_device.h"
#include "../device/gcu_staging.h"
#include "../residency/gcu_residency.h"
#include "../jit/gcu_jit.h"
#include <pthread.h>

static GrB_Info lasting_alloc (void *ctx, size_t bytes, void **p)
{
    (void) ctx ;
    return gcu_dmalloc_lasting (p, bytes) ;
}

static void lasting_free (void *ctx, void *p, size_t bytes)
{
    (void) ctx ;
    gcu_dfree_lasting (p, bytes) ;
}

static void residency_follows (const gcu_device_props *props)
{
    gcu_res_allocator a = { lasting_alloc, lasting_free, NULL, props->global_mem, "cudaMalloc" } ;
    (void) gcu_residency_set_allocator (&a) ;
}

static void jit_follows (const gcu_device_props *props)
{
    gcu_jit_set_arch (10 * props->cc_major + props->cc_minor) ;
}

static pthread_once_t follow_once = PTHREAD_ONCE_INIT ;

static void follow (void)
{
    // two hooks in a table of eight: registering cannot fail
    (void) gcu_device_on_start (residency_follows) ;
    (void) gcu_device_on_start (jit_follows) ;
}

bool gcu_gpu_start (void)
{
    pthread_once (&follow_once, follow) ;
    return gcu_gpu_ready () ;
}

static pthread_mutex_t async_lock = PTHREAD_MUTEX_INITIALIZER ;
static pthread_t async_thread ;
static bool async_running ;

static void *async_start (void *arg)
{
    (void) arg ;
    gcu_thread_background_begin () ;
    // then, still off the calls' threads, NVRTC's loading and the staging
    // pool's pinning, which the first call that asks for a kernel or stages
    // would otherwise pay (gcu_jit_prepare, gcu_staging_prepare; calls
    // meanwhile wait for neither: they defer their kernel, and copy through
    // the buffers already pinned)
    if (gcu_gpu_start ())
    {
        const double t0 = gcu_now () ;
        gcu_jit_prepare () ;
        const double t1 = gcu_now () ;
        gcu_staging_prepare () ;
        gcu_log ("CUDA's start finished off the calls' threads: NVRTC and the kernel sources "
            "in %.1f ms, the staging buffers pinned in %.1f ms", 1e3 * (t1 - t0), 1e3 * (gcu_now () - t1)) ;
    }
    gcu_thread_background_end () ;
    return NULL ;
}

bool gcu_gpu_start_async (void)
{
    if (gcu_gpu_started ()) return gcu_gpu_start () ;
    pthread_mutex_lock (&async_lock) ;
    if (!async_running)
    {
        gcu_log ("CUDA starting in the background") ;
        async_running = pthread_create (&async_thread, NULL, async_start, NULL) == 0 ;
    }
    pthread_mutex_unlock (&async_lock) ;
    // no thread (out of resources): this call starts it
    return async_running ? false : gcu_gpu_start () ;
}

void gcu_gpu_start_at_init (void)
{
    // GRBCUDA_START=init: the program's own setup (reading or building its
    // data), which comes before the calls worth a GPU, overlaps CUDA's start
    // instead of the first such calls and whatever runs beside them
    if (gcu_settings ()->start_when != GCU_START_INIT || gcu_mode () == GRBCUDA_MODE_HOST) return ;
    (void) gcu_gpu_start_async () ;
}

// GRBCUDA_START=data could still start CUDA (for an object large enough)
static bool data_start_open (void)
{
    return gcu_settings ()->start_when == GCU_START_DATA && !gcu_gpu_started ()
        && gcu_mode () != GRBCUDA_MODE_HOST ;
}

void gcu_gpu_start_for_data (const char *what, uint64_t entries)
{
    // GRBCUDA_START=data: a matrix or vector built with this many tuples
    // (the generated wrappers of GrB_*_build), imported, packed or
    // deserialized with this many entries (gcu_gpu_start_for_object), or an
    // auto call on an operand this large (dispatch.c), says the program
    // holds data worth the GPU;
    // whatever it does next (the rest of its setup, its first calls)
    // overlaps the start, as GRBCUDA_START=init's setup does, but not the
    // program's own threads before (a generator's, a reader's), and a
    // program that holds no such object never starts it unless its calls
    // pay for it (GRBCUDA_START_RENT)
    if (entries < (uint64_t) gcu_settings ()->start_entries || !data_start_open ()) return ;
    if (!gcu_gpu_start_pending ())
        gcu_log ("%s: an object of %llu entries (GRBCUDA_START=data from %lld)", what,
            (unsigned long long) entries, (long long) gcu_settings ()->start_entries) ;
    (void) gcu_gpu_start_async () ;
}

// an import, pack or deserialization (the generated wrappers): its entries
// counted once it holds them (O(1): nothing pending in such an object),
// only while the start could still follow
void gcu_gpu_start_for_object (const char *what, const void *obj, bool vector)
{
    GrB_Index n = 0 ;
    if (obj == NULL || !data_start_open ()) return ;
    if ((vector ? GrB_Vector_nvals (&n, (GrB_Vector) obj) : GrB_Matrix_nvals (&n, (GrB_Matrix) obj))
        == GrB_SUCCESS) gcu_gpu_start_for_data (what, n) ;
}

bool gcu_gpu_start_pending (void)
{
    pthread_mutex_lock (&async_lock) ;
    const bool pending = async_running && !gcu_gpu_started () ;
    pthread_mutex_unlock (&async_lock) ;
    return pending ;
}

void gcu_gpu_start_join (void)
{
    pthread_mutex_lock (&async_lock) ;
    if (async_running) (void) pthread_join (async_thread, NULL) ;
    async_running = false ;
    pthread_mutex_unlock (&async_lock) ;
}
