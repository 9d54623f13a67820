// gcu_staging.h — host<->device copies of large arrays through a small pool
// of pinned (page-locked) staging buffers. A copy from or to pageable memory
// (SuiteSparse's arrays, the export's output, the arrays a result is packed
// into) goes through the driver's own small bounce buffers at a few GB/s; a
// pinned buffer moves at the link's full rate. Here each array is cut into
// chunks of one staging buffer: while the DMA of one chunk is in flight, the
// host's threads (OpenMP) copy the previous or next chunk between its pinned
// buffer and the pageable array, converting index widths on the way, so
// only the bytes the other side needs cross the link:
//
//   host -> device   uint64_t -> uint32_t (src 8, dst 4): indices narrowed
//                    on the host, 4 bytes per index cross PCIe
//   device -> host   uint32_t -> uint64_t (src 4, dst 8): widened on the host
//   either way       src_bytes == dst_bytes: plain copy of elements that size
//
// Widening is unsigned (zero extension): device indices are uint32_t or
// non-negative int32_t. The pool (GCU_STAGING_NBUF buffers of
// GCU_STAGING_BYTES, allocated at the first copy that wants one) is shared
// by all threads; one copy takes up to GCU_STAGING_DEPTH buffers, so two
// threads can pipeline at once. A copy that finds no free buffer (or no pool:
// the pinned allocation failed) still works, slower: directly when no
// conversion is needed, else through a malloc'd bounce buffer. Small copies
// without conversion (below GCU_STAGING_DIRECT bytes) go directly: a DMA
// from pageable memory of that size costs less than the pipeline's steps.
//
// Every chunk's DMA is a counted device operation for fault injection
// (gcu_cuda.h), as a direct copy is; a failure returns GrB_PANIC (or
// GrB_OUT_OF_MEMORY), never exits, and leaves no buffer checked out and no
// DMA in flight. Both calls return when the copy is complete: the host array
// may be freed or read at once. Ordered on stream s after the work queued
// there before (the kernels that produced a result, the allocation of a
// destination). Internal header (C and C++): never installed.
#ifndef GCU_STAGING_H
#define GCU_STAGING_H

#include "gcu_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GCU_STAGING_NBUF 4                      // pinned buffers in the pool
#define GCU_STAGING_BYTES ((size_t) 32 << 20)   // bytes of each
#define GCU_STAGING_DEPTH 2                     // buffers one copy uses at most
#define GCU_STAGING_DIRECT ((size_t) 1 << 20)   // plain copies below go direct

// dev_dst [0..nelem) = host_src [0..nelem), element widths src_bytes (host)
// and dst_bytes (device). GrB_INVALID_VALUE for a width pair other than
// (w, w), (8, 4) or (4, 8); GrB_SUCCESS at once for nelem 0.
GrB_Info gcu_h2d_staged (void *dev_dst, const void *host_src, size_t nelem,
    int src_bytes, int dst_bytes, gcu_stream s) ;

// host_dst [0..nelem) = dev_src [0..nelem), widths src_bytes (device) and
// dst_bytes (host). A large destination is advised to use huge pages
// (madvise, advisory) and is first touched by the threads that fill it.
GrB_Info gcu_d2h_staged (void *host_dst, const void *dev_src, size_t nelem,
    int src_bytes, int dst_bytes, gcu_stream s) ;

// Several downloads in one pipeline: the DMAs of the next array's first
// chunks overlap the conversion of this array's last one (a row block of a
// result: its column indices and its values). Same widths and rules as
// gcu_d2h_staged, segment by segment; empty segments are skipped.
typedef struct
{
    void *host_dst ;
    const void *dev_src ;
    size_t nelem ;
    int src_bytes, dst_bytes ;
}
gcu_d2h_seg ;
GrB_Info gcu_d2h_staged_segs (const gcu_d2h_seg *seg, int nseg, gcu_stream s) ;

// Frees the pool (GrB_finalize; a later copy allocates it again). Buffers
// checked out at the time are freed when they come back. Starts nothing:
// without a pool it does nothing.
void gcu_staging_release (void) ;

// Pins the pool's buffers now, on the caller's thread (CUDA's start in the
// background, once the GPU is usable), one at a time, each put in as it
// comes; copies meanwhile use the buffers already in and never wait for it.
// Nothing when the pool is made or being made. _cancel: stop after the
// buffer being pinned (GrB_finalize, before it waits for the start).
void gcu_staging_prepare (void) ;
void gcu_staging_prepare_cancel (void) ;

// Tests and benchmarks: a pool of nbuf buffers (0: none, every copy takes
// the fallback; at most GCU_STAGING_NBUF) of buf_bytes each (at least 4096),
// and the size below which plain copies go directly. Releases the current
// pool. GrB_INVALID_VALUE for values out of range.
GrB_Info gcu_staging_configure (int nbuf, size_t buf_bytes, size_t direct_bytes) ;

// What the staged copies have done since the start (or the last reset).
// Bytes are device-side bytes (what crossed the link); seconds are wall time
// inside the calls.
typedef struct
{
    uint64_t h2d_calls, d2h_calls ;     // calls that moved data
    uint64_t h2d_bytes, d2h_bytes ;
    double h2d_seconds, d2h_seconds ;
    uint64_t chunks ;                   // pinned-buffer DMAs
    uint64_t direct ;                   // calls copied directly (small, or no buffer)
    uint64_t bounce ;                   // calls through a malloc'd bounce buffer
    int nbuf ;                          // pinned buffers that exist now
    int busy ;                          // ... checked out now
    size_t buf_bytes ;
}
gcu_staging_stats_t ;

void gcu_staging_stats (gcu_staging_stats_t *st) ;
void gcu_staging_stats_reset (void) ;

#ifdef __cplusplus
}
#endif

#endif
