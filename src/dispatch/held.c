// held.c — kinds of call held on the host while a compile they deferred
// for is under way (dispatch.c's run_families; issue 23).
#include "gcu_dispatch.h"
#include "../jit/gcu_jit.h"
#include <pthread.h>
#include <stdatomic.h>

// Kinds of call (gcu_cost_site_key) whose last GPU attempt deferred for a
// compile: the next ones run on the host while compiles are pending
// (gcu_jit_busy), without an attempt. An attempt moves operands before its
// family asks for every kernel (mxv's product kernels depend on the
// uploaded copy's index width); on a fresh machine FastSV's GrB_mxv deferred
// in 12 calls of one process while NVRTC compiled connected components'
// write-backs, each after uploading its 165 MB matrix again: 28-57 ms where
// the host takes 1-2 (H200, 2026-11-29). (A kind is never 0: a free slot.)
#define GCU_HELD 32
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER ;
static uint64_t held [GCU_HELD] ;
static _Atomic int held_count ;

// kind's slot, or -1 (held_lock held)
static int held_slot (uint64_t kind)
{
    for (int k = 0 ; k < GCU_HELD ; k++) if (held [k] == kind) return k ;
    return -1 ;
}

void gcu_held_add (uint64_t kind)
{
    pthread_mutex_lock (&held_lock) ;
    const int k = held_slot (kind) < 0 ? held_slot (0) : -1 ;
    if (k >= 0)
    {
        held [k] = kind ;
        atomic_fetch_add_explicit (&held_count, 1, memory_order_relaxed) ;
    }
    pthread_mutex_unlock (&held_lock) ;
}

bool gcu_held_back (gcu_call *call, uint64_t kind)
{
    if (atomic_load_explicit (&held_count, memory_order_relaxed) == 0) return false ;
    const bool busy = gcu_jit_busy () ;
    pthread_mutex_lock (&held_lock) ;
    const int k = held_slot (kind) ;
    if (k >= 0 && !busy)
    {
        held [k] = 0 ;
        atomic_fetch_sub_explicit (&held_count, 1, memory_order_relaxed) ;
    }
    pthread_mutex_unlock (&held_lock) ;
    if (k < 0 || !busy) return false ;
    call->reason = GRBCUDA_REASON_NO_KERNEL ;
    call->pending = GCU_PENDING_JIT ;
    call->note = "a call of this kind deferred for a compile still under way: host, no attempt" ;
    return true ;
}
