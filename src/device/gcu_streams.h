// gcu_streams.h — the streams and events a GPU call uses beside the calling
// thread's own stream (the SpGEMM engine: a side stream for the kernels that
// run beside the largest bin, a copy stream for the downloads, and events to
// fork, join and time them), made once per device and reused across calls
// instead of created and destroyed in every one. A call checks out one
// context for its whole length: contexts are never shared by two calls at
// once, so several host threads each get their own (a pool of
// GCU_STREAMS_POOL, and a context made for the call and destroyed after it
// when the pool's are all out). A context comes back with no work pending on
// its streams (the caller waits for them first), so the next call's
// cudaEventRecord / cudaStreamWaitEvent start clean. Making them is not a
// counted operation for fault injection: only a process's first calls would
// count it (as the staging pool's pinned buffers). Internal header (C, C++).
#ifndef GCU_STREAMS_H
#define GCU_STREAMS_H

#include "gcu_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GCU_STREAMS_POOL 8          // contexts kept for reuse
#define GCU_STREAMS_TIMED 8         // timing events of a context

typedef struct
{
    void *side ;                    // cudaStream_t, non-blocking
    void *copy ;                    // cudaStream_t, non-blocking
    void *fork, *join ;             // cudaEvent_t, no timing
    void *timed [GCU_STREAMS_TIMED] ; // cudaEvent_t, with timing
    int device ;                    // the device they belong to
    int slot ;                      // in the pool; -1: made for one call
}
gcu_streams ;

// A context of the calling thread's current device for this call:
// GrB_SUCCESS, or GrB_PANIC (no CUDA, or one could not be made).
GrB_Info gcu_streams_acquire (gcu_streams **ctx) ;
// Gives it back (NULL ignored); its streams must have no work pending.
void gcu_streams_return (gcu_streams *ctx) ;
// Destroys the pool's contexts (GrB_finalize; those checked out are destroyed
// when they come back). A later acquire makes them again.
void gcu_streams_release (void) ;

#ifdef __cplusplus
}
#endif

#endif
