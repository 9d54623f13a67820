// newest.c — the residency cache's device-newest values (a result left on
// the device, written into its SuiteSparse object when read), the cache's
// statistics, and the test hooks (tracking, epochs).
#include "gcu_res_internal.h"
#include "gcu_util.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

// The handle a materializer writes in this thread (gcu_res_internal.h).
_Thread_local const void *gcu_res_materializing = NULL ;

// The kind of call whose results this thread leaves newest (gcu_residency_site_swap).
_Thread_local uint64_t gcu_res_site = 0 ;

uint64_t gcu_residency_site_swap (uint64_t site)
{
    const uint64_t was = gcu_res_site ;
    gcu_res_site = site ;
    return was ;
}

//------------------------------------------------------------------------------
// the fate of device-newest values (issue 23)
//------------------------------------------------------------------------------

// How a handle's device values have ended: written back into the object (a
// host reader, an eviction) or given up unwritten (replaced on the device,
// the object overwritten, cleared or freed). A running mean a handle, each
// value's end weighing a quarter (the first sets it): SSSP's vxm results
// are written back every time (its select reads them on the host), a BFS's
// frontier almost never. A small direct-mapped table: a handle that lands
// on another's place starts again, as a handle never seen (share 0: a
// result whose operands are device newest goes on on the device); a new
// object at a freed one's address starts so too (gcu_residency_born).
//
// The same by the kind of call that left the values (its operation,
// operators, result's size and mask: gcu_cost_site_key): what a handle never
// seen is likely to meet. LAGraph's connected components makes y anew in
// each call, applies a ramp to it and reads it in its host mxv at once: as
// a new handle its result was counted as staying on the device, and the
// apply went to the GPU in each trial, its write-back after it (0.65 ms
// against the host's 0.35; H200, 2026-11-28).
#define FATE_SLOTS 512
typedef struct { uint64_t key ; float share ; } fate_t ;     // key 0: empty
static fate_t fate [FATE_SLOTS] ;       // by handle
static fate_t kind_fate [FATE_SLOTS] ;  // by kind of call

static size_t slot_of (uint64_t key)
{
    key ^= key >> 17 ;
    key *= 0x9E3779B97F4A7C15ull ;
    return (key >> 40) % FATE_SLOTS ;
}

static fate_t *fate_at (fate_t *table, uint64_t key)
{
    return &table [slot_of (key)] ;
}

static uint64_t handle_key (const void *handle)
{
    return (uint64_t) (uintptr_t) handle ;
}

// a running mean's step: each value's end weighs a quarter
static float mean_step (float mean, float x)
{
    return mean + 0.25f * (x - mean) ;
}

// one value's end x (1: written back) in key's slot of table: true if the
// slot was empty
static bool fate_add (fate_t *table, uint64_t key, float x)
{
    fate_t *f = fate_at (table, key) ;
    const bool empty = f->key == 0 ;
    if (f->key != key) *f = (fate_t) { key, x } ;
    else f->share = mean_step (f->share, x) ;
    return empty ;
}

// the handle table's entries in use: a new object's creation looks for its
// address's history only while there is one (gcu_residency_born)
_Atomic size_t gcu_residency_fates_ = 0 ;

void gcu_res_fate_note (const void *handle, uint64_t site, bool written)
{
    const float x = written ? 1.0f : 0.0f ;
    if (fate_add (fate, handle_key (handle), x))
        atomic_fetch_add_explicit (&gcu_residency_fates_, 1, memory_order_relaxed) ;
    if (site != 0) (void) fate_add (kind_fate, site, x) ;
}

//------------------------------------------------------------------------------
// the return trips of host values (issue 23)
//------------------------------------------------------------------------------

// How often a vector's values that a host call wrote in auto mode went up
// to the device after (a GPU call's upload of it) before the host wrote it
// again: the mirror of the fate table. PageRank in auto on rmat-20-16 ran
// w = t ./ d on the host (0.08 ms against the GPU's upload of d) in every
// iteration, and the mxv after it uploaded w each time (0.44 ms); its
// result went back for the host's t -= r (0.43 ms): 19-26 ms a trial
// against the GPU's 7 (H200, 2026-11-29). A running mean a handle, each
// value's end weighing a quarter (the first sets it); the same table's
// shape as the fate table, its own slots. A new object at the address
// forgets it (gcu_residency_born).
typedef struct { const void *handle ; float share ; bool pending ; } trip_t ;
static trip_t trip [FATE_SLOTS] ;

static trip_t *trip_at (const void *handle)
{
    return &trip [slot_of (handle_key (handle))] ;
}

// (lock held) handle's slot, taken over from another handle (its first
// value's end not known yet: share < 0)
static trip_t *trip_own (const void *handle)
{
    trip_t *r = trip_at (handle) ;
    if (r->handle != handle)
    {
        if (r->handle == NULL) atomic_fetch_add_explicit (&gcu_residency_fates_, 1, memory_order_relaxed) ;
        *r = (trip_t) { handle, -1.0f, false } ;
    }
    return r ;
}

// (lock held) the pending value's end x: 1 went up, 0 written over
static void trip_end (trip_t *r, float x)
{
    r->share = r->share < 0 ? x : mean_step (r->share, x) ;
    r->pending = false ;
}

void gcu_residency_trip_host (const void *handle)
{
    if (handle == NULL) return ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    trip_t *r = trip_own (handle) ;
    if (r->pending) trip_end (r, 0.0f) ;
    r->pending = true ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
}

void gcu_residency_trip_up (const void *handle)
{
    if (handle == NULL) return ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    trip_t *r = trip_at (handle) ;
    if (r->handle == handle && r->pending) trip_end (r, 1.0f) ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
}

double gcu_residency_trip_share (const void *handle)
{
    if (handle == NULL) return 0 ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    const trip_t *r = trip_at (handle) ;
    const double share = r->handle == handle && r->share > 0 ? r->share : 0 ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    return share ;
}

void gcu_residency_born_slow (const void *handle)
{
    if (handle == NULL) return ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    fate_t *f = fate_at (fate, handle_key (handle)) ;
    if (f->key == handle_key (handle))
    {
        f->key = 0 ;
        atomic_fetch_sub_explicit (&gcu_residency_fates_, 1, memory_order_relaxed) ;
    }
    trip_t *r = trip_at (handle) ;
    if (r->handle == handle)
    {
        r->handle = NULL ;
        atomic_fetch_sub_explicit (&gcu_residency_fates_, 1, memory_order_relaxed) ;
    }
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
}

double gcu_residency_writeback_share (const void *handle, uint64_t site)
{
    if (handle == NULL) return 0 ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    const fate_t *f = fate_at (fate, handle_key (handle)) ;
    const fate_t *g = fate_at (kind_fate, site) ;
    const double share = f->key == handle_key (handle) ? f->share
        : site != 0 && g->key == site ? g->share : 0 ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    return share ;
}

//------------------------------------------------------------------------------
// the lives of uploaded copies (issue 23)
//------------------------------------------------------------------------------

// How many later lookups found the copies of a handle's last value that
// ended (predict.c's signature rule: LAGraph's connected components unpacks
// and packs G->A in each call, so each copy of it serves only the product it
// was bought for). The copies of one value (a CSR and a CSC, say) count as
// one life: the most found. Direct-mapped as the fate table, and kept across
// a new object at the same address (LAGraph re-makes its objects there;
// their copies' lives are alike).
typedef struct { const void *handle ; uint64_t gen ; uint32_t hits ; } life_t ;
static life_t life [FATE_SLOTS] ;

static life_t *life_at (const void *handle)
{
    return &life [slot_of (handle_key (handle))] ;
}

void gcu_res_life_note (const void *handle, uint64_t gen, uint32_t hits)
{
    life_t *l = life_at (handle) ;
    if (l->handle == handle && l->gen == gen) { if (hits > l->hits) l->hits = hits ; }
    else *l = (life_t) { handle, gen, hits } ;
}

double gcu_residency_copy_hits (const void *handle)
{
    if (handle == NULL) return -1 ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    const life_t *l = life_at (handle) ;
    const double hits = l->handle == handle ? (double) l->hits : -1 ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    return hits ;
}

//------------------------------------------------------------------------------
// device newest values
//------------------------------------------------------------------------------

GrB_Info gcu_residency_publish_newest (gcu_res_entry *e, gcu_res_materializer fn)
{
    if (e == NULL || fn == NULL) return GrB_NULL_POINTER ;
    gcu_res_entry *grave = NULL ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    if (e->state != E_BUILDING || e->parent != NULL)
    {
        pthread_mutex_unlock (&gcu_res_reg.lock) ;
        return GrB_INVALID_VALUE ;
    }
    slot *s = gcu_res_slot_find (e->handle) ;     // held by this build
    s->nbuild-- ;
    // the object's value is replaced whatever happened to it since the build
    // began: every other copy goes (an older newest value unwritten), and
    // copies of the old value still being built can no longer be published
    s->gen = ++gcu_res_reg.next_gen ;
    while (s->entries != NULL)
    {
        gcu_res_retire (s, s->entries, &grave) ;
        gcu_res_reg.st.invalidations++ ;
    }
    e->gen = s->gen ;
    e->sibling = NULL ;
    s->entries = e ;
    gcu_res_lru_push_front (e) ;
    e->state = E_LIVE ;
    gcu_res_reg.st.entries++ ;
    gcu_res_reg.st.publishes++ ;
    s->newest = e ;
    s->mat = fn ;
    e->newest = true ;
    e->site = gcu_res_site ;
    gcu_res_reg.st.newest++ ;
    atomic_fetch_add_explicit (&gcu_residency_newest_, 1, memory_order_relaxed) ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    gcu_res_bury_flush (grave) ;
    return GrB_SUCCESS ;
}

GrB_Info gcu_residency_newest_claim (gcu_res_entry *e)
{
    if (e == NULL) return GrB_NULL_POINTER ;
    GrB_Info info = GCU_NOT_HANDLED ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    slot *s = gcu_res_slot_find (e->handle) ;
    // the handle's only copy, newest, read by no one else and being
    // written into its object by no one: the value has no other holder
    if (s != NULL && s->newest == e && e->newest && e->state == E_LIVE && e->parent == NULL
        && s->entries == e && e->sibling == NULL && e->children == NULL && e->pins == 1
        && !s->busy && s->nbuild == 0)
    {
        // the value changes: a build of the old one begun from now on (none
        // is in flight) could never be published
        s->gen = ++gcu_res_reg.next_gen ;
        e->gen = s->gen ;
        gcu_res_fate_note (e->handle, e->site, false) ;     // the old value, never read
        e->site = gcu_res_site ;
        info = GrB_SUCCESS ;
    }
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    return info ;
}

void gcu_residency_newest_set_nvals (gcu_res_entry *e, uint64_t nvals)
{
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    e->d.nvals = nvals ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
}

// a write-back counted by its reader (under the lock; the names compared as
// strings: the same function's name may be stored in several places)
static void reader_count (const char *why, size_t bytes)
{
    gcu_res_stats *st = &gcu_res_reg.st ;
    for (int k = 0 ; k < GCU_RES_READERS ; k++)
    {
        if (st->readers [k].why == NULL) st->readers [k].why = why ;
        else if (strcmp (st->readers [k].why, why) != 0) continue ;
        st->readers [k].n++ ;
        st->readers [k].bytes += bytes ;
        return ;
    }
    st->other_n++ ;
    st->other_bytes += bytes ;
}

GrB_Info gcu_residency_materialize_slow (const void *handle, const char *why)
{
    // the count first: the thread-local handle costs a call in a shared library
    if (atomic_load_explicit (&gcu_residency_newest_, memory_order_relaxed) == 0
        || handle == NULL || handle == gcu_res_materializing) return GrB_SUCCESS ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    slot *s ;
    // one writer per handle; other readers wait for it
    while ((s = gcu_res_slot_find (handle)) != NULL && s->newest != NULL && s->busy)
        pthread_cond_wait (&gcu_res_reg.cond, &gcu_res_reg.lock) ;
    if (s == NULL || s->newest == NULL)
    {
        pthread_mutex_unlock (&gcu_res_reg.lock) ;
        return GrB_SUCCESS ;
    }
    gcu_res_entry *e = s->newest ;
    gcu_res_materializer fn = s->mat ;
    s->busy = true ;
    e->pins++ ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;

    const void *outer = gcu_res_materializing ;
    gcu_res_materializing = handle ;
    const double t0 = gcu_now () ;
    GrB_Info info = fn (handle, e) ;
    const double dt = gcu_now () - t0 ;
    gcu_res_materializing = outer ;

    const size_t bytes = e->total ;
    gcu_res_entry *grave = NULL ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    s = gcu_res_slot_find (handle) ;        // kept while busy
    s->busy = false ;
    if (info == GrB_SUCCESS)
    {
        if (s->newest == e)
        {
            // both valid now: the copy stays, clean (evictable)
            s->newest = NULL ;
            e->newest = false ;
            gcu_res_reg.st.newest-- ;
            atomic_fetch_sub_explicit (&gcu_residency_newest_, 1, memory_order_relaxed) ;
        }
        gcu_res_fate_note (handle, e->site, true) ;
        reader_count (why ? why : "?", bytes) ;
        gcu_res_reg.st.materializations++ ;
        gcu_res_reg.st.materialized_bytes += bytes ;
    }
    else gcu_res_reg.st.materialize_failures++ ;
    if (--e->pins == 0 && e->state != E_LIVE) gcu_res_bury (e, &grave) ;
    gcu_res_slot_maybe_drop (s) ;
    pthread_cond_broadcast (&gcu_res_reg.cond) ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    gcu_res_bury_flush (grave) ;
    gcu_log ("residency: %s reads %p, device newest: its value (%.1f MB on the device) "
        "written into its SuiteSparse object: %s, %.3f ms", why ? why : "?", handle,
        (double) bytes / 1e6, info == GrB_SUCCESS ? "done" : "FAILED, the device copy stays",
        1e3 * dt) ;
    return info ;
}

bool gcu_residency_newest_nvals_slow (const void *handle, uint64_t *nvals)
{
    gcu_res_data d ;
    if (!gcu_residency_newest_data (handle, &d)) return false ;
    if (nvals != NULL) *nvals = d.nvals ;
    return true ;
}

bool gcu_residency_newest_data (const void *handle, gcu_res_data *d)
{
    if (atomic_load_explicit (&gcu_residency_newest_, memory_order_relaxed) == 0
        || handle == NULL || handle == gcu_res_materializing)
        return false ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    slot *s = gcu_res_slot_find (handle) ;
    const bool newest = s != NULL && s->newest != NULL ;
    if (newest) *d = s->newest->d ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    return newest ;
}

//------------------------------------------------------------------------------
// statistics
//------------------------------------------------------------------------------

void gcu_residency_stats (gcu_res_stats *s)
{
    if (s == NULL) return ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    if (!gcu_res_reg.budget_known) gcu_res_compute_budget () ;
    *s = gcu_res_reg.st ;
    s->bytes_used = gcu_res_reg.used ;
    s->bytes_peak = gcu_res_reg.peak ;
    s->budget = gcu_res_reg.budget ;
    s->handles = gcu_res_reg.nslot ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
}

//------------------------------------------------------------------------------
// test hooks
//------------------------------------------------------------------------------

void gcu_residency_track (bool on)
{
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    if (on && !gcu_res_reg.tracking)
    {
        gcu_res_reg.tracking = true ;
        atomic_fetch_add_explicit (&gcu_residency_watch_, 1, memory_order_relaxed) ;
    }
    else if (!on && gcu_res_reg.tracking)
    {
        gcu_res_reg.tracking = false ;
        atomic_fetch_sub_explicit (&gcu_residency_watch_, 1, memory_order_relaxed) ;
        for (size_t k = 0 ; k < gcu_res_reg.nbucket ; k++)
        {
            slot *s = gcu_res_reg.bucket [k] ;
            while (s != NULL)
            {
                slot *nx = s->next ;
                s->ninval = 0 ;
                gcu_res_slot_maybe_drop (s) ;
                s = nx ;
            }
        }
    }
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
}

uint64_t gcu_residency_epoch (const void *handle)
{
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    slot *s = gcu_res_slot_find (handle) ;
    uint64_t n = s ? s->ninval : 0 ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    return n ;
}
