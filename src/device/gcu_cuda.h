// gcu_cuda.h — every device allocation, copy and launch check of the GPU
// paths goes through here: each is checked (a failure becomes a GrB_Info the
// dispatch turns into a host fallback) and counted for fault injection
// (GRBCUDA_FAULT_INJECT=n, or gcu_fault_inject (n), makes the n-th counted
// operation fail, so tests can prove every failure path frees its memory and
// still returns the right answer). Allocations are stream-ordered
// (cudaMallocAsync: the driver's pool makes repeated calls cheap) on the
// calling thread's per-thread default stream, so concurrent user threads do
// not serialise on one stream. Large host<->device copies go through the
// pinned staging buffers of gcu_staging.h (each chunk a counted copy).
#ifndef GCU_CUDA_H
#define GCU_CUDA_H

#include <GraphBLAS.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// opaque stream handle (cudaStream_t)
typedef void *gcu_stream ;
gcu_stream gcu_stream_default (void) ;     // cudaStreamPerThread

GrB_Info gcu_dmalloc (void **p, size_t bytes, gcu_stream s) ;   // GrB_OUT_OF_MEMORY
void     gcu_dfree (void *p, gcu_stream s) ;                   // NULL ignored
// Device memory that outlives the call making it (the residency cache's
// copies, gcu_residency.h): cudaMalloc/cudaFree behind a cache of freed
// blocks handed to the next request of the same size (lasting.c), not
// counted for fault injection (the cache treats any failure as out of
// memory: it evicts and retries, then uploads for the call only).
// GrB_OUT_OF_MEMORY on failure. A block is freed with its size, once no
// kernel uses it. gcu_lasting_release gives the kept blocks back to CUDA
// (GrB_finalize).
GrB_Info gcu_dmalloc_lasting (void **p, size_t bytes) ;
void     gcu_dfree_lasting (void *p, size_t bytes) ;
void     gcu_lasting_release (void) ;
GrB_Info gcu_memcpy_h2d (void *dst, const void *src, size_t bytes, gcu_stream s) ;
GrB_Info gcu_memcpy_d2h (void *dst, const void *src, size_t bytes, gcu_stream s) ;
GrB_Info gcu_memcpy_d2d (void *dst, const void *src, size_t bytes, gcu_stream s) ;
GrB_Info gcu_memset (void *dst, int value, size_t bytes, gcu_stream s) ;
// after a kernel launch: the launch's error (and an injected fault)
GrB_Info gcu_launch_check (const char *what) ;
GrB_Info gcu_sync (gcu_stream s) ;

// fault injection: 0 disables; n > 0 fails the n-th counted operation from
// now on. gcu_fault_count says how many operations were counted since the
// last gcu_fault_inject call.
void     gcu_fault_inject (int64_t n) ;
int64_t  gcu_fault_count (void) ;
// Counts one operation (what: for the log); true if it is the one to fail.
// For device operations made outside this file (the staged copies' chunks).
bool     gcu_fault_now (const char *what) ;
// bytes currently allocated through gcu_dmalloc (leak checks)
int64_t  gcu_device_bytes_in_use (void) ;

// The stream-ordered pool behind gcu_dmalloc keeps up to keep bytes of
// device memory mapped between calls (CUDA's default, 0, unmaps it at every
// synchronisation, and the next call's allocations map it again: tens to
// hundreds of microseconds each). gcu_pool_release gives back all it holds
// beyond what is in use (GrB_finalize).
void     gcu_pool_keep (uint64_t keep) ;
void     gcu_pool_release (void) ;

// The high-water mark of gcu_dmalloc's bytes since the last reset (the
// stream-ordered pool's, process-wide); reset sets it to the bytes in use
// now. -1 if unknown.
int64_t  gcu_device_bytes_peak (bool reset) ;

// Device time of the work queued on s between start and stop (CUDA events,
// a pair kept per thread and reused). Not a counted operation: a timer that
// cannot be made measures nothing (stop gives -1) and never fails the call.
// stop waits for the work and gives the events back. mark records the end
// without waiting; read (after a synchronisation the call makes anyway)
// gives the time and the events back, and is the way to drop a started
// timer (the time then unused).
typedef struct { void *e0, *e1 ; } gcu_timer ;
void     gcu_timer_start (gcu_timer *t, gcu_stream s) ;
double   gcu_timer_stop (gcu_timer *t, gcu_stream s) ;
void     gcu_timer_mark (gcu_timer *t, gcu_stream s) ;
double   gcu_timer_read (gcu_timer *t) ;

#ifdef __cplusplus
}
#endif

#endif
