// memory.c — checked, counted device allocations, copies and launch checks
// (gcu_cuda.h). Without CUDA every operation reports GrB_PANIC (never reached:
// no GPU path runs in such a build).
#include "gcu_cuda.h"
#include "gcu_util.h"
#include <stdatomic.h>
#include <stdlib.h>
#if GRBCUDA_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

static _Atomic int64_t fault_at = -1 ;      // -1: not read from the environment yet
static _Atomic int64_t fault_counter ;

void gcu_fault_inject (int64_t n)
{
    atomic_store (&fault_counter, 0) ;
    atomic_store (&fault_at, n > 0 ? n : 0) ;
}

int64_t gcu_fault_count (void) { return atomic_load (&fault_counter) ; }

// true if this operation is the one to fail (gcu_cuda.h: also called by the
// staged copies, whose every chunk is one counted copy)
bool gcu_fault_now (const char *what)
{
    int64_t at = atomic_load_explicit (&fault_at, memory_order_relaxed) ;
    if (at < 0)
    {
        const char *e = getenv ("GRBCUDA_FAULT_INJECT") ;
        int64_t v = (e != NULL) ? atoll (e) : 0 ;
        int64_t expected = -1 ;
        atomic_compare_exchange_strong (&fault_at, &expected, v > 0 ? v : 0) ;
        at = atomic_load (&fault_at) ;
    }
    if (at == 0) return false ;
    int64_t n = atomic_fetch_add (&fault_counter, 1) + 1 ;
    if (n != at) return false ;
    gcu_log ("fault injection: operation %lld (%s) fails", (long long) n, what) ;
    return true ;
}

#if GRBCUDA_HAVE_CUDA

static GrB_Info cuda_status (cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return GrB_SUCCESS ;
    (void) cudaGetLastError () ;    // clear a non-sticky error
    gcu_log ("%s failed: %s", what, cudaGetErrorString (e)) ;
    return (e == cudaErrorMemoryAllocation) ? GrB_OUT_OF_MEMORY : GrB_PANIC ;
}

gcu_stream gcu_stream_default (void) { return (gcu_stream) cudaStreamPerThread ; }

GrB_Info gcu_dmalloc (void **p, size_t bytes, gcu_stream s)
{
    *p = NULL ;
    if (gcu_fault_now ("cudaMallocAsync")) return GrB_OUT_OF_MEMORY ;
    if (cudaMallocAsync (p, bytes > 0 ? bytes : 1, (cudaStream_t) s) == cudaSuccess)
        return GrB_SUCCESS ;
    // the blocks kept for the residency cache go back to CUDA first
    (void) cudaGetLastError () ;
    gcu_lasting_release () ;
    return cuda_status (cudaMallocAsync (p, bytes > 0 ? bytes : 1, (cudaStream_t) s),
        "cudaMallocAsync") ;
}

void gcu_dfree (void *p, gcu_stream s)
{
    if (p != NULL) (void) cuda_status (cudaFreeAsync (p, (cudaStream_t) s), "cudaFreeAsync") ;
}

static GrB_Info copy (void *dst, const void *src, size_t bytes,
    enum cudaMemcpyKind kind, gcu_stream s, const char *what)
{
    if (gcu_fault_now (what)) return GrB_PANIC ;
    if (bytes == 0) return GrB_SUCCESS ;
    return cuda_status (cudaMemcpyAsync (dst, src, bytes, kind, (cudaStream_t) s), what) ;
}

GrB_Info gcu_memcpy_h2d (void *dst, const void *src, size_t bytes, gcu_stream s)
{
    return copy (dst, src, bytes, cudaMemcpyHostToDevice, s, "copy to device") ;
}

GrB_Info gcu_memcpy_d2h (void *dst, const void *src, size_t bytes, gcu_stream s)
{
    // the host buffer is read right after: a device-to-host copy synchronises
    GrB_Info info = copy (dst, src, bytes, cudaMemcpyDeviceToHost, s, "copy to host") ;
    return info == GrB_SUCCESS ? gcu_sync (s) : info ;
}

GrB_Info gcu_memcpy_d2d (void *dst, const void *src, size_t bytes, gcu_stream s)
{
    return copy (dst, src, bytes, cudaMemcpyDeviceToDevice, s, "device copy") ;
}

GrB_Info gcu_memset (void *dst, int value, size_t bytes, gcu_stream s)
{
    if (gcu_fault_now ("cudaMemsetAsync")) return GrB_PANIC ;
    if (bytes == 0) return GrB_SUCCESS ;
    return cuda_status (cudaMemsetAsync (dst, value, bytes, (cudaStream_t) s), "cudaMemsetAsync") ;
}

GrB_Info gcu_launch_check (const char *what)
{
    if (gcu_fault_now (what)) return GrB_PANIC ;
    return cuda_status (cudaGetLastError (), what) ;
}

GrB_Info gcu_sync (gcu_stream s)
{
    return cuda_status (cudaStreamSynchronize ((cudaStream_t) s), "cudaStreamSynchronize") ;
}

// the current device's stream-ordered pool (false if CUDA cannot say)
static bool default_pool (cudaMemPool_t *pool)
{
    int dev = 0 ;
    if (cudaGetDevice (&dev) == cudaSuccess && cudaDeviceGetDefaultMemPool (pool, dev) == cudaSuccess)
        return true ;
    (void) cudaGetLastError () ;
    return false ;
}

// an attribute of the current device's stream-ordered pool (-1 if CUDA
// cannot say), and the pool
static int64_t pool_attribute (enum cudaMemPoolAttr attr, cudaMemPool_t *pool)
{
    uint64_t v = 0 ;
    if (!default_pool (pool)) return -1 ;
    if (cudaMemPoolGetAttribute (*pool, attr, &v) != cudaSuccess)
    {
        (void) cudaGetLastError () ;
        return -1 ;
    }
    return (int64_t) v ;
}

int64_t gcu_device_bytes_in_use (void)
{
    // what the stream-ordered pool has handed out and not taken back
    cudaMemPool_t pool ;
    return pool_attribute (cudaMemPoolAttrUsedMemCurrent, &pool) ;
}

void gcu_pool_keep (uint64_t keep)
{
    cudaMemPool_t pool ;
    if (!default_pool (&pool)) return ;
    if (cudaMemPoolSetAttribute (pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess)
        (void) cudaGetLastError () ;
}

void gcu_pool_release (void)
{
    cudaMemPool_t pool ;
    if (!default_pool (&pool)) return ;
    if (cudaDeviceSynchronize () != cudaSuccess || cudaMemPoolTrimTo (pool, 0) != cudaSuccess)
        (void) cudaGetLastError () ;
}

int64_t gcu_device_bytes_peak (bool reset)
{
    cudaMemPool_t pool ;
    const int64_t high = pool_attribute (cudaMemPoolAttrUsedMemHigh, &pool) ;
    if (reset && high >= 0)
    {
        uint64_t zero = 0 ;
        if (cudaMemPoolSetAttribute (pool, cudaMemPoolAttrUsedMemHigh, &zero) != cudaSuccess)
            (void) cudaGetLastError () ;
    }
    return high ;
}

// a thread's spare event pairs (timers may nest: a few; more are made and
// destroyed)
#define GCU_TIMER_SPARE 4
static _Thread_local cudaEvent_t spare [GCU_TIMER_SPARE][2] ;
static _Thread_local int nspare ;

void gcu_timer_start (gcu_timer *t, gcu_stream s)
{
    t->e0 = t->e1 = NULL ;
    cudaEvent_t a = NULL, b = NULL ;
    if (nspare > 0)
    {
        nspare-- ;
        a = spare [nspare][0] ;
        b = spare [nspare][1] ;
    }
    else if (cudaEventCreate (&a) != cudaSuccess || cudaEventCreate (&b) != cudaSuccess)
    {
        if (a != NULL) cudaEventDestroy (a) ;
        (void) cudaGetLastError () ;
        return ;
    }
    t->e0 = a ;
    t->e1 = b ;
    if (cudaEventRecord (a, (cudaStream_t) s) != cudaSuccess)
    {
        (void) cudaGetLastError () ;
        (void) gcu_timer_read (t) ;
    }
}

void gcu_timer_mark (gcu_timer *t, gcu_stream s)
{
    if (t->e0 != NULL && cudaEventRecord ((cudaEvent_t) t->e1, (cudaStream_t) s) != cudaSuccess)
    {
        (void) cudaGetLastError () ;
        (void) gcu_timer_read (t) ;
    }
}

double gcu_timer_read (gcu_timer *t)
{
    if (t->e0 == NULL) return -1 ;
    cudaEvent_t a = (cudaEvent_t) t->e0, b = (cudaEvent_t) t->e1 ;
    float ms = -1 ;
    if (cudaEventSynchronize (b) != cudaSuccess || cudaEventElapsedTime (&ms, a, b) != cudaSuccess)
    {
        (void) cudaGetLastError () ;
        ms = -1 ;
    }
    if (nspare < GCU_TIMER_SPARE)
    {
        spare [nspare][0] = a ;
        spare [nspare][1] = b ;
        nspare++ ;
    }
    else
    {
        cudaEventDestroy (a) ;
        cudaEventDestroy (b) ;
    }
    t->e0 = t->e1 = NULL ;
    return ms < 0 ? -1 : 1e-3 * ms ;
}

double gcu_timer_stop (gcu_timer *t, gcu_stream s)
{
    gcu_timer_mark (t, s) ;
    return gcu_timer_read (t) ;
}

#else

int64_t gcu_device_bytes_peak (bool reset) { (void) reset ; return -1 ; }
void gcu_pool_keep (uint64_t keep) { (void) keep ; }
void gcu_pool_release (void) { }
void gcu_timer_start (gcu_timer *t, gcu_stream s) { (void) s ; t->e0 = t->e1 = NULL ; }
double gcu_timer_stop (gcu_timer *t, gcu_stream s) { (void) t ; (void) s ; return -1 ; }
void gcu_timer_mark (gcu_timer *t, gcu_stream s) { (void) t ; (void) s ; }
double gcu_timer_read (gcu_timer *t) { (void) t ; return -1 ; }
gcu_stream gcu_stream_default (void) { return NULL ; }
GrB_Info gcu_dmalloc (void **p, size_t bytes, gcu_stream s) { (void) bytes ; (void) s ; *p = NULL ; return GrB_PANIC ; }
void gcu_dfree (void *p, gcu_stream s) { (void) p ; (void) s ; }
GrB_Info gcu_memcpy_h2d (void *d, const void *h, size_t n, gcu_stream s) { (void) d ; (void) h ; (void) n ; (void) s ; return GrB_PANIC ; }
GrB_Info gcu_memcpy_d2h (void *h, const void *d, size_t n, gcu_stream s) { (void) d ; (void) h ; (void) n ; (void) s ; return GrB_PANIC ; }
GrB_Info gcu_memcpy_d2d (void *a, const void *b, size_t n, gcu_stream s) { (void) a ; (void) b ; (void) n ; (void) s ; return GrB_PANIC ; }
GrB_Info gcu_memset (void *d, int v, size_t n, gcu_stream s) { (void) d ; (void) v ; (void) n ; (void) s ; return GrB_PANIC ; }
GrB_Info gcu_launch_check (const char *what) { (void) what ; return GrB_PANIC ; }
GrB_Info gcu_sync (gcu_stream s) { (void) s ; return GrB_PANIC ; }
int64_t gcu_device_bytes_in_use (void) { return 0 ; }

#endif
