// residency.c — the residency cache (DESIGN §3): device copies keyed by
// handle, LRU eviction under a byte budget, derived data attached to copies,
// and the invalidation every mutating GraphBLAS call reaches. The table, its
// invariants and the helpers the other files use: gcu_res_internal.h; the
// allocator and the budget: budget.c; device-newest values, statistics and
// test hooks: newest.c.
#include "gcu_res_internal.h"
#include "gcu_util.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

_Atomic size_t gcu_residency_watch_ = 0 ;
_Atomic size_t gcu_residency_newest_ = 0 ;

gcu_res_registry gcu_res_reg =
    { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER } ;

//------------------------------------------------------------------------------
// slots (under the lock)
//------------------------------------------------------------------------------

static size_t hash_of (const void *h, size_t nbucket)
{
    uint64_t x = (uint64_t) (uintptr_t) h ;
    x ^= x >> 33 ;
    x *= 0xff51afd7ed558ccdULL ;
    x ^= x >> 33 ;
    return (size_t) (x & (nbucket - 1)) ;
}

slot *gcu_res_slot_find (const void *h)
{
    if (gcu_res_reg.nbucket == 0) return NULL ;
    for (slot *s = gcu_res_reg.bucket [hash_of (h, gcu_res_reg.nbucket)] ; s != NULL ; s = s->next)
    {
        if (s->handle == h) return s ;
    }
    return NULL ;
}

static void rehash (size_t n)
{
    slot **b = calloc (n, sizeof (slot *)) ;
    if (b == NULL) return ;     // keep the old table: longer chains, still right
    for (size_t k = 0 ; k < gcu_res_reg.nbucket ; k++)
    {
        slot *s = gcu_res_reg.bucket [k] ;
        while (s != NULL)
        {
            slot *nx = s->next ;
            size_t j = hash_of (s->handle, n) ;
            s->next = b [j] ;
            b [j] = s ;
            s = nx ;
        }
    }
    free (gcu_res_reg.bucket) ;
    gcu_res_reg.bucket = b ;
    gcu_res_reg.nbucket = n ;
}

static slot *slot_get (const void *h)
{
    slot *s = gcu_res_slot_find (h) ;
    if (s != NULL) return s ;
    if (gcu_res_reg.nbucket == 0) rehash (256) ;
    if (gcu_res_reg.nbucket == 0) return NULL ;
    if (gcu_res_reg.nslot >= gcu_res_reg.nbucket) rehash (2 * gcu_res_reg.nbucket) ;
    s = calloc (1, sizeof (slot)) ;
    if (s == NULL) return NULL ;
    s->handle = h ;
    s->gen = ++gcu_res_reg.next_gen ;
    size_t j = hash_of (h, gcu_res_reg.nbucket) ;
    s->next = gcu_res_reg.bucket [j] ;
    gcu_res_reg.bucket [j] = s ;
    gcu_res_reg.nslot++ ;
    atomic_fetch_add_explicit (&gcu_residency_watch_, 1, memory_order_relaxed) ;
    return s ;
}

// Drops a slot that no longer has a reason to exist.
void gcu_res_slot_maybe_drop (slot *s)
{
    if (s == NULL || s->entries != NULL || s->nbuild > 0 || s->busy || gcu_res_reg.tracking) return ;
    slot **pp = &gcu_res_reg.bucket [hash_of (s->handle, gcu_res_reg.nbucket)] ;
    while (*pp != s) pp = &(*pp)->next ;
    *pp = s->next ;
    free (s) ;
    gcu_res_reg.nslot-- ;
    atomic_fetch_sub_explicit (&gcu_residency_watch_, 1, memory_order_relaxed) ;
}

//------------------------------------------------------------------------------
// entries (under the lock)
//------------------------------------------------------------------------------

static void lru_unlink (gcu_res_entry *e)
{
    if (e->lru_prev) e->lru_prev->lru_next = e->lru_next ;
    else gcu_res_reg.lru_head = e->lru_next ;
    if (e->lru_next) e->lru_next->lru_prev = e->lru_prev ;
    else gcu_res_reg.lru_tail = e->lru_prev ;
    e->lru_prev = e->lru_next = NULL ;
}

void gcu_res_lru_push_front (gcu_res_entry *e)
{
    e->lru_prev = NULL ;
    e->lru_next = gcu_res_reg.lru_head ;
    if (gcu_res_reg.lru_head) gcu_res_reg.lru_head->lru_prev = e ;
    gcu_res_reg.lru_head = e ;
    if (gcu_res_reg.lru_tail == NULL) gcu_res_reg.lru_tail = e ;
}

static size_t tree_bytes (const gcu_res_entry *e)
{
    size_t b = e->total ;
    for (const gcu_res_entry *c = e->children ; c != NULL ; c = c->sibling)
        b += tree_bytes (c) ;
    return b ;
}

// Hands an unpinned, detached entry (and everything attached to it) to the
// caller's graveyard; its bytes leave the count now, its buffers are freed
// after the lock is released (gcu_res_bury_flush).
void gcu_res_bury (gcu_res_entry *e, gcu_res_entry **grave)
{
    gcu_res_reg.used -= tree_bytes (e) ;
    e->state = E_DEAD ;
    e->grave = *grave ;
    *grave = e ;
}

static void remove_from_list (gcu_res_entry **head, gcu_res_entry *e)
{
    while (*head != NULL && *head != e) head = &(*head)->sibling ;
    if (*head == e) *head = e->sibling ;
    e->sibling = NULL ;
}

// A published top-level entry stops being visible; freed now if unpinned,
// else at its last unpin.
// A newest value given up: the entry is being dropped (the object changed,
// was freed or cleared, or a newer value replaced it), never written back.
static void newest_drop (slot *s, gcu_res_entry *e)
{
    if (s->newest != e) return ;
    s->newest = NULL ;
    e->newest = false ;
    gcu_res_reg.st.newest-- ;
    gcu_res_reg.st.discards++ ;
    gcu_res_fate_note (s->handle, e->site, false) ;
    atomic_fetch_sub_explicit (&gcu_residency_newest_, 1, memory_order_relaxed) ;
}

void gcu_res_retire (slot *s, gcu_res_entry *e, gcu_res_entry **grave)
{
    if (!e->newest) gcu_res_life_note (s->handle, e->gen, e->hits) ;
    newest_drop (s, e) ;
    remove_from_list (&s->entries, e) ;
    lru_unlink (e) ;
    e->state = E_DEAD ;
    gcu_res_reg.st.entries-- ;
    if (e->pins == 0) gcu_res_bury (e, grave) ;
}

// A published derived entry stops being visible (replaced by a newer one).
static void retire_child (gcu_res_entry *c, gcu_res_entry **grave)
{
    remove_from_list (&c->parent->children, c) ;
    c->state = E_DEAD ;
    if (c->pins == 0)
    {
        c->parent = NULL ;      // freed alone, not with the parent
        gcu_res_bury (c, grave) ;
    }
}

static void free_tree (gcu_res_entry *e)
{
    gcu_res_entry *c = e->children ;
    while (c != NULL)
    {
        gcu_res_entry *nx = c->sibling ;
        free_tree (c) ;
        c = nx ;
    }
    for (int k = 0 ; k < e->d.nbuf ; k++)
    {
        if (e->d.buf [k] != NULL && e->has_alloc)
            e->alloc.free (e->alloc.ctx, e->d.buf [k], e->d.bytes [k]) ;
    }
    if (e->d.host != NULL && e->d.host_free != NULL) e->d.host_free (e->d.host) ;
    free (e) ;
}

// Outside the lock.
void gcu_res_bury_flush (gcu_res_entry *grave)
{
    while (grave != NULL)
    {
        gcu_res_entry *nx = grave->grave ;
        free_tree (grave) ;
        grave = nx ;
    }
}

// Least recently used published entry nobody is using.
static gcu_res_entry *victim (void)
{
    for (gcu_res_entry *e = gcu_res_reg.lru_tail ; e != NULL ; e = e->lru_prev)
    {
        // a newest value is materialized first (newest_evict), never dropped
        if (e->pins == 0 && !e->newest) return e ;
    }
    return NULL ;
}

// The handle of the least recently used newest value that could be written
// back now, or NULL.
static const void *newest_victim (void)
{
    for (gcu_res_entry *e = gcu_res_reg.lru_tail ; e != NULL ; e = e->lru_prev)
    {
        if (!e->newest || e->pins > 0) continue ;
        slot *s = gcu_res_slot_find (e->handle) ;
        if (s != NULL && !s->busy) return e->handle ;
    }
    return NULL ;
}

bool gcu_res_evict_one (gcu_res_entry **grave)
{
    gcu_res_entry *v = victim () ;
    if (v == NULL) return false ;
    slot *s = gcu_res_slot_find (v->handle) ;
    gcu_res_retire (s, v, grave) ;
    gcu_res_slot_maybe_drop (s) ;
    gcu_res_reg.st.evictions++ ;
    return true ;
}

// Evicts until `bytes` more fit in the budget; evicts nothing if even
// evicting every unpinned entry would not make room.
static bool make_room (size_t bytes, gcu_res_entry **grave)
{
    if (!gcu_res_reg.budget_known) gcu_res_compute_budget () ;
    if (bytes > gcu_res_reg.budget) return false ;
    if (gcu_res_reg.used + bytes <= gcu_res_reg.budget) return true ;
    size_t evictable = 0 ;
    for (gcu_res_entry *e = gcu_res_reg.lru_tail ; e != NULL ; e = e->lru_prev)
    {
        if (e->pins == 0 && !e->newest) evictable += tree_bytes (e) ;
    }
    if (gcu_res_reg.used - evictable + bytes > gcu_res_reg.budget) return false ;
    while (gcu_res_reg.used + bytes > gcu_res_reg.budget)
    {
        if (!gcu_res_evict_one (grave)) return false ;
    }
    return true ;
}

static void invalidate_slot (slot *s, gcu_res_entry **grave)
{
    s->gen = ++gcu_res_reg.next_gen ;
    s->ninval++ ;
    while (s->entries != NULL)
    {
        gcu_res_retire (s, s->entries, grave) ;
        gcu_res_reg.st.invalidations++ ;
    }
}

//------------------------------------------------------------------------------
// invalidation
//------------------------------------------------------------------------------

void gcu_residency_invalidate_slow (const void *handle)
{
    if (handle == NULL || handle == gcu_res_materializing) return ;
    if (atomic_load_explicit (&gcu_residency_watch_, memory_order_relaxed) == 0)
        return ;
    gcu_res_entry *grave = NULL ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    slot *s = gcu_res_reg.tracking ? slot_get (handle) : gcu_res_slot_find (handle) ;
    if (s != NULL)
    {
        invalidate_slot (s, &grave) ;
        gcu_res_slot_maybe_drop (s) ;
    }
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    gcu_res_bury_flush (grave) ;
}

void gcu_residency_clear_all (void)
{
    gcu_res_entry *grave = NULL ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    for (size_t k = 0 ; k < gcu_res_reg.nbucket ; k++)
    {
        slot *s = gcu_res_reg.bucket [k] ;
        while (s != NULL)
        {
            slot *nx = s->next ;
            uint64_t n = s->ninval ;
            invalidate_slot (s, &grave) ;
            s->ninval = n ;             // not an invalidation of the handle
            gcu_res_slot_maybe_drop (s) ;
            s = nx ;
        }
    }
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    gcu_res_bury_flush (grave) ;
}

//------------------------------------------------------------------------------
// entries
//------------------------------------------------------------------------------

gcu_res_data *gcu_residency_data (gcu_res_entry *e)
{
    return e ? &e->d : NULL ;
}

const void *gcu_residency_handle (const gcu_res_entry *e)
{
    return e ? e->handle : NULL ;
}

static gcu_res_entry *find_kind (gcu_res_entry *list, int kind)
{
    for ( ; list != NULL ; list = list->sibling)
    {
        if (list->kind == kind) return list ;
    }
    return NULL ;
}

// Under the lock. count: the outcome goes into the hit and miss statistics.
static GrB_Info find_locked (const void *handle, int kind, gcu_res_entry **e, bool count)
{
    *e = NULL ;
    slot *s = gcu_res_slot_find (handle) ;
    gcu_res_entry *x = s ? find_kind (s->entries, kind) : NULL ;
    if (x == NULL || x->gen != s->gen)
    {
        if (count) gcu_res_reg.st.misses++ ;
        return GrB_NO_VALUE ;
    }
    x->pins++ ;
    lru_unlink (x) ;
    gcu_res_lru_push_front (x) ;
    if (count)
    {
        gcu_res_reg.st.hits++ ;
        x->hits++ ;
    }
    *e = x ;
    return GrB_SUCCESS ;
}

static GrB_Info lookup_locked (const void *handle, int kind, gcu_res_entry **e)
{
    return find_locked (handle, kind, e, true) ;
}

static GrB_Info peek_locked (const void *handle, int kind, gcu_res_entry **e)
{
    return find_locked (handle, kind, e, false) ;
}

static GrB_Info begin_locked (const void *handle, int kind, gcu_res_entry **e)
{
    *e = NULL ;
    slot *s = slot_get (handle) ;
    gcu_res_entry *x = s ? calloc (1, sizeof (gcu_res_entry)) : NULL ;
    if (x == NULL)
    {
        gcu_res_slot_maybe_drop (s) ;
        return GrB_OUT_OF_MEMORY ;
    }
    x->handle = handle ;
    x->kind = kind ;
    x->gen = s->gen ;
    x->state = E_BUILDING ;
    x->pins = 1 ;
    x->alloc = gcu_res_reg.alloc ;
    x->has_alloc = gcu_res_reg.has_alloc ;
    s->nbuild++ ;
    *e = x ;
    return GrB_SUCCESS ;
}

// begin a build where no current entry is found (the begun entry's caller
// sees GrB_NO_VALUE, as for a miss)
static GrB_Info acquire_locked (const void *handle, int kind, gcu_res_entry **e)
{
    GrB_Info info = lookup_locked (handle, kind, e) ;
    if (info == GrB_NO_VALUE)
    {
        info = begin_locked (handle, kind, e) ;
        if (info == GrB_SUCCESS) info = GrB_NO_VALUE ;
    }
    return info ;
}

// lookup, begin and acquire: the arguments checked, then f under the lock
static GrB_Info under_lock (GrB_Info (*f) (const void *, int, gcu_res_entry **),
    const void *handle, int kind, gcu_res_entry **e)
{
    if (e == NULL) return GrB_NULL_POINTER ;
    *e = NULL ;
    if (handle == NULL) return GrB_NULL_POINTER ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    GrB_Info info = f (handle, kind, e) ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    return info ;
}

GrB_Info gcu_residency_lookup (const void *handle, int kind, gcu_res_entry **e)
{
    return under_lock (lookup_locked, handle, kind, e) ;
}

GrB_Info gcu_residency_peek (const void *handle, int kind, gcu_res_entry **e)
{
    return under_lock (peek_locked, handle, kind, e) ;
}

GrB_Info gcu_residency_begin (const void *handle, int kind, gcu_res_entry **e)
{
    return under_lock (begin_locked, handle, kind, e) ;
}

GrB_Info gcu_residency_acquire (const void *handle, int kind, gcu_res_entry **e)
{
    return under_lock (acquire_locked, handle, kind, e) ;
}

GrB_Info gcu_residency_alloc (gcu_res_entry *e, size_t bytes, void **p)
{
    if (e == NULL || p == NULL) return GrB_NULL_POINTER ;
    *p = NULL ;
    gcu_res_entry *grave = NULL ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    if (!e->has_alloc)
    {
        pthread_mutex_unlock (&gcu_res_reg.lock) ;
        return GCU_NOT_HANDLED ;
    }
    if (e->state != E_BUILDING || e->d.nbuf >= GCU_RES_MAX_BUFS)
    {
        pthread_mutex_unlock (&gcu_res_reg.lock) ;
        return GrB_INVALID_VALUE ;
    }
    bool fits = make_room (bytes, &grave) ;
    while (!fits)
    {
        // only newest values stand in the way: write the least recently
        // used back into its object (then it can go), outside the lock
        const void *h = newest_victim () ;
        if (h == NULL) break ;
        pthread_mutex_unlock (&gcu_res_reg.lock) ;
        gcu_res_bury_flush (grave) ;
        grave = NULL ;
        GrB_Info mi = gcu_residency_materialize_slow (h, "eviction") ;
        pthread_mutex_lock (&gcu_res_reg.lock) ;
        if (mi != GrB_SUCCESS) break ;      // it keeps its device copy
        fits = make_room (bytes, &grave) ;
    }
    if (fits)
    {
        gcu_res_reg.used += bytes ;               // reserved while the allocator runs
        if (gcu_res_reg.used > gcu_res_reg.peak) gcu_res_reg.peak = gcu_res_reg.used ;
    }
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    gcu_res_bury_flush (grave) ;
    if (!fits) return GrB_OUT_OF_MEMORY ;

    void *q = NULL ;
    GrB_Info info = GrB_SUCCESS ;
    if (bytes > 0)
    {
        // The device may be fuller than our count says (other users, the
        // kernels' temporaries): evict more and retry before giving up.
        while ((info = e->alloc.alloc (e->alloc.ctx, bytes, &q)) != GrB_SUCCESS)
        {
            grave = NULL ;
            pthread_mutex_lock (&gcu_res_reg.lock) ;
            bool more = gcu_res_evict_one (&grave) ;
            pthread_mutex_unlock (&gcu_res_reg.lock) ;
            gcu_res_bury_flush (grave) ;
            if (!more) break ;
        }
    }
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    if (info != GrB_SUCCESS)
    {
        gcu_res_reg.used -= bytes ;
        pthread_mutex_unlock (&gcu_res_reg.lock) ;
        return GrB_OUT_OF_MEMORY ;
    }
    int k = e->d.nbuf++ ;
    e->d.buf [k] = q ;
    e->d.bytes [k] = bytes ;
    e->total += bytes ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    *p = q ;
    return GrB_SUCCESS ;
}

GrB_Info gcu_residency_publish (gcu_res_entry *e)
{
    if (e == NULL) return GrB_NULL_POINTER ;
    gcu_res_entry *grave = NULL ;
    GrB_Info info = GrB_SUCCESS ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    if (e->state != E_BUILDING)
    {
        info = GrB_INVALID_VALUE ;
    }
    else if (e->parent != NULL)
    {
        gcu_res_entry *old = find_kind (e->parent->children, e->kind) ;
        if (old != NULL) retire_child (old, &grave) ;
        e->sibling = e->parent->children ;
        e->parent->children = e ;
        e->state = E_LIVE ;
        gcu_res_reg.st.publishes++ ;
    }
    else
    {
        slot *s = gcu_res_slot_find (e->handle) ;     // held by this build
        s->nbuild-- ;
        if (s->gen == e->gen)
        {
            gcu_res_entry *old = find_kind (s->entries, e->kind) ;
            if (old != NULL) gcu_res_retire (s, old, &grave) ;
            e->sibling = s->entries ;
            s->entries = e ;
            gcu_res_lru_push_front (e) ;
            e->state = E_LIVE ;
            gcu_res_reg.st.entries++ ;
            gcu_res_reg.st.publishes++ ;
        }
        else
        {
            // The object changed while the copy was made: never visible.
            e->state = E_DEAD ;
            gcu_res_reg.st.stale++ ;
            info = GrB_NO_VALUE ;
            gcu_res_slot_maybe_drop (s) ;
        }
    }
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    gcu_res_bury_flush (grave) ;
    return info ;
}

void gcu_residency_pin (gcu_res_entry *e)
{
    if (e == NULL) return ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    for (gcu_res_entry *x = e ; x != NULL ; x = x->parent) x->pins++ ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
}

void gcu_residency_unpin (gcu_res_entry *e)
{
    if (e == NULL) return ;
    gcu_res_entry *grave = NULL ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    // Walk up: each ancestor loses the pin this one carried. An entry that
    // is not published (an abandoned build, a stale or invalidated copy, a
    // replaced derived entry) is freed at its last unpin; a published one
    // stays (a derived one is attached to its parent and freed with it).
    for (gcu_res_entry *x = e ; x != NULL ; )
    {
        gcu_res_entry *up = x->parent ;
        x->pins-- ;
        if (x->pins == 0 && x->state != E_LIVE)
        {
            if (x->state == E_BUILDING && up == NULL)
            {
                // abandoned build: release the slot it held
                slot *s = gcu_res_slot_find (x->handle) ;
                if (s != NULL)
                {
                    s->nbuild-- ;
                    gcu_res_slot_maybe_drop (s) ;
                }
            }
            x->parent = NULL ;      // not in its parent's list: freed alone
            gcu_res_bury (x, &grave) ;
        }
        x = up ;
    }
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    gcu_res_bury_flush (grave) ;
}

GrB_Info gcu_residency_derived_lookup (gcu_res_entry *parent, int kind,
    gcu_res_entry **child)
{
    if (parent == NULL || child == NULL) return GrB_NULL_POINTER ;
    *child = NULL ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    gcu_res_entry *c = find_kind (parent->children, kind) ;
    if (c != NULL)
    {
        for (gcu_res_entry *x = c ; x != NULL ; x = x->parent) x->pins++ ;
        gcu_res_reg.st.hits++ ;
    }
    else gcu_res_reg.st.misses++ ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    *child = c ;
    return c ? GrB_SUCCESS : GrB_NO_VALUE ;
}

GrB_Info gcu_residency_derived_begin (gcu_res_entry *parent, int kind,
    gcu_res_entry **child)
{
    if (parent == NULL || child == NULL) return GrB_NULL_POINTER ;
    *child = NULL ;
    gcu_res_entry *c = calloc (1, sizeof (gcu_res_entry)) ;
    if (c == NULL) return GrB_OUT_OF_MEMORY ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    c->handle = parent->handle ;
    c->kind = kind ;
    c->gen = parent->gen ;
    c->state = E_BUILDING ;
    c->parent = parent ;
    c->alloc = parent->alloc ;
    c->has_alloc = parent->has_alloc ;
    c->pins = 1 ;
    for (gcu_res_entry *x = parent ; x != NULL ; x = x->parent) x->pins++ ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    *child = c ;
    return GrB_SUCCESS ;
}
