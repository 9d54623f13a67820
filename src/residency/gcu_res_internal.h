// gcu_res_internal.h — what the files of src/residency share among
// themselves: the residency cache's table (slots, entries, the LRU list, the
// budget, the statistics) and the helpers that change it under its lock.
// residency.c holds the cache, budget.c the allocator and the budget,
// newest.c the device-newest values, the statistics and the test hooks.
// Private: included by those files only, never installed.
//
// One mutex guards the table; the allocator's alloc/free run outside it
// (a cudaFree synchronises the device, and must not stall every thread).
// Invariants (under the mutex):
//  - a slot exists for a handle while it has published entries, builds in
//    flight, or tracking is on; gcu_residency_watch_ counts slots (+1 while
//    tracking), so invalidate's fast path sees 0 exactly when nothing of any
//    handle could be stale;
//  - every published top-level entry is in its slot's list and in the LRU
//    list, and carries its slot's generation; invalidate gives the slot a new
//    generation (globally unique, so a slot dropped and made again for a
//    reused address never matches an old build) and detaches the entries;
//  - a pin on a derived entry is also a pin on its parent, so an entry with
//    no pins has no pinned descendants and can be freed as a whole;
//  - bytes_used counts every buffer allocated (or being allocated) and not
//    yet handed back to the allocator.
#ifndef GCU_RES_INTERNAL_H
#define GCU_RES_INTERNAL_H

#include "gcu_residency.h"
#include <pthread.h>
#include <stdatomic.h>

// The handle whose device value this thread is writing into its SuiteSparse
// object (a materializer runs): the GraphBLAS calls the materializer makes on
// it neither materialize it again nor invalidate the copy they come from.
extern _Thread_local const void *gcu_res_materializing ;   // newest.c
extern _Thread_local uint64_t gcu_res_site ;                // newest.c

// A device-newest value of handle, left by a call of kind site (0: not
// known), ended: written back into its object, or not (dropped unwritten,
// replaced in place). Under the lock (newest.c).
void gcu_res_fate_note (const void *handle, uint64_t site, bool written) ;

// A copy of handle's value gen (not a newest value) ended, found by hits
// later lookups. Under the lock (newest.c).
void gcu_res_life_note (const void *handle, uint64_t gen, uint32_t hits) ;

enum { E_BUILDING, E_LIVE, E_DEAD } ;

struct gcu_res_entry
{
    gcu_res_data d ;            // first: what callers read
    const void *handle ;
    int kind ;
    uint64_t gen ;              // the slot's generation at begin
    int state ;
    int pins ;
    size_t total ;              // bytes of this entry's own buffers
    gcu_res_allocator alloc ;   // frees the buffers (the one current at begin)
    bool has_alloc ;
    gcu_res_entry *parent ;     // derived entries
    gcu_res_entry *children ;   // attached derived entries
    gcu_res_entry *sibling ;    // next in the slot's or the parent's list
    gcu_res_entry *lru_prev, *lru_next ;
    gcu_res_entry *grave ;      // next in a list of entries to free
    bool newest ;               // the handle's newest value (its slot's newest)
    uint32_t hits ;             // counted lookups that found it (later calls' uses)
    uint64_t site ;             // the kind of call that left it newest (0: not known)
} ;

typedef struct slot
{
    const void *handle ;
    uint64_t gen ;
    uint64_t ninval ;           // invalidations seen (test hook)
    int nbuild ;
    gcu_res_entry *entries ;
    gcu_res_entry *newest ;     // device newest: SuiteSparse's copy is stale
    gcu_res_materializer mat ;  // writes newest's value into the object
    bool busy ;                 // a materializer runs for this handle
    struct slot *next ;
}
slot ;

// The table (residency.c).
typedef struct
{
    pthread_mutex_t lock ;
    pthread_cond_t cond ;       // a materializer finished (busy slots)
    slot **bucket ;
    size_t nbucket, nslot ;
    gcu_res_entry *lru_head, *lru_tail ;    // head: most recently used
    gcu_res_allocator alloc ;
    bool has_alloc ;
    size_t budget ;
    bool budget_known, budget_explicit ;
    size_t used, peak ;
    uint64_t next_gen ;
    bool tracking ;
    gcu_res_stats st ;
}
gcu_res_registry ;

extern gcu_res_registry gcu_res_reg ;

//------------------------------------------------------------------------------
// helpers (residency.c), under the lock except gcu_res_bury_flush
//------------------------------------------------------------------------------

slot *gcu_res_slot_find (const void *h) ;
void gcu_res_slot_maybe_drop (slot *s) ;
void gcu_res_lru_push_front (gcu_res_entry *e) ;
void gcu_res_bury (gcu_res_entry *e, gcu_res_entry **grave) ;
void gcu_res_retire (slot *s, gcu_res_entry *e, gcu_res_entry **grave) ;
bool gcu_res_evict_one (gcu_res_entry **grave) ;
void gcu_res_bury_flush (gcu_res_entry *grave) ;

//------------------------------------------------------------------------------
// budget (budget.c), under the lock
//------------------------------------------------------------------------------

void gcu_res_compute_budget (void) ;

#endif
