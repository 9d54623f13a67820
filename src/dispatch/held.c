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
// the host takes 1-2 (H200, 2026-11-29).
#define GCU_HELD 32
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER ;
static uint64_t held [GCU_HELD] ;
static _Atomic int held_count ;

// hold (add) or release (drop) kind; true if it was held
static bool held_update (uint64_t kind, bool add)
{
    bool was = false ;
    pthread_mutex_lock (&held_lock) ;
    int free_k = -1 ;
    for (int k = 0 ; k < GCU_HELD && !was ; k++)
    {
        if (held [k] == kind) { was = true ; if (!add) held [k] = 0 ; }
        else if (held [k] == 0 && free_k < 0) free_k = k ;
    }
    if (add && !was && free_k >= 0) held [free_k] = kind ;
    if (add != was && (!add || free_k >= 0))
        atomic_fetch_add_explicit (&held_count, add ? 1 : -1, memory_order_relaxed) ;
    pthread_mutex_unlock (&held_lock) ;
    return was ;
}

// kind deferred before and a compile still pending: the host, no attempt
bool gcu_held_back (gcu_call *call, uint64_t kind)
{
    if (atomic_load_explicit (&held_count, memory_order_relaxed) == 0) return false ;
    if (gcu_jit_busy ())
    {
        bool held_now = false ;
        pthread_mutex_lock (&held_lock) ;
        for (int k = 0 ; k < GCU_HELD && !held_now ; k++) held_now = held [k] == kind ;
        pthread_mutex_unlock (&held_lock) ;
        if (!held_now) return false ;
        call->reason = GRBCUDA_REASON_NO_KERNEL ;
        call->pending = GCU_PENDING_JIT ;
        call->note = "a call of this kind deferred for a compile still under way: host, no attempt" ;
        return true ;
    }
    (void) held_update (kind, false) ;
    return false ;
}

void gcu_held_add (uint64_t kind)
{
    (void) held_update (kind, true) ;
}
