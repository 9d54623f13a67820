// residency.c — the residency cache (DESIGN §3): device copies keyed by
// handle, LRU eviction under a byte budget, derived data attached to copies,
// and the invalidation every mutating GraphBLAS call reaches.
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
#include "gcu_residency.h"
#include "gcu_util.h"
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

_Atomic size_t gcu_residency_watch_ = 0 ;
_Atomic size_t gcu_residency_newest_ = 0 ;

// The handle whose device value this thread is writing into its SuiteSparse
// object (a materializer runs): the GraphBLAS calls the materializer makes on
// it neither materialize it again nor invalidate the copy they come from.
static _Thread_local const void *tl_materializing = NULL ;

// Budget when neither GRBCUDA_DEVICE_MEMORY nor a device capacity is known.
#define GCU_RES_FALLBACK_BUDGET ((size_t) 1 << 30)
#define GCU_RES_DEFAULT_FRACTION 0.5

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

static struct
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
R = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER } ;

//------------------------------------------------------------------------------
// sizes
//------------------------------------------------------------------------------

GrB_Info gcu_residency_parse_size (const char *s, size_t capacity,
    size_t *bytes)
{
    if (s == NULL || bytes == NULL) return GrB_NULL_POINTER ;
    while (*s == ' ') s++ ;
    if (*s == '\0' || *s == '-') return GrB_INVALID_VALUE ;
    char *end ;
    errno = 0 ;
    double v = strtod (s, &end) ;
    if (errno != 0 || end == s || !isfinite (v) || v <= 0) return GrB_INVALID_VALUE ;
    while (*end == ' ') end++ ;
    double mult = 1, fraction = -1 ;
    char u = (char) (*end >= 'a' && *end <= 'z' ? *end - 32 : *end) ;
    if (*end == '%')
    {
        fraction = v / 100 ;
        end++ ;
    }
    else if (u == 'K' || u == 'M' || u == 'G' || u == 'T')
    {
        mult = (u == 'K') ? 0x1p10 : (u == 'M') ? 0x1p20 : (u == 'G') ? 0x1p30 : 0x1p40 ;
        end++ ;
        if (strcasecmp (end, "iB") == 0) end += 2 ;
        else if (strcasecmp (end, "B") == 0) end += 1 ;
    }
    else if (u == 'B')
    {
        end++ ;
    }
    else if (*end == '\0' && v <= 1.0)
    {
        fraction = v ;      // "0.5", "1": a fraction of the device
    }
    while (*end == ' ') end++ ;
    if (*end != '\0') return GrB_INVALID_VALUE ;
    double b ;
    if (fraction >= 0)
    {
        if (capacity == 0 || fraction > 1.0) return GrB_INVALID_VALUE ;
        b = fraction * (double) capacity ;
    }
    else
    {
        b = v * mult ;
    }
    if (b < 1 || b >= 0x1p63) return GrB_INVALID_VALUE ;
    *bytes = (size_t) b ;
    return GrB_SUCCESS ;
}

// Under the lock.
static void compute_budget (void)
{
    if (R.budget_explicit) return ;
    size_t cap = R.has_alloc ? R.alloc.capacity : 0 ;
    size_t b = cap ? (size_t) (GCU_RES_DEFAULT_FRACTION * (double) cap)
                   : GCU_RES_FALLBACK_BUDGET ;
    const char *env = getenv ("GRBCUDA_DEVICE_MEMORY") ;
    if (env != NULL && *env != '\0')
    {
        size_t x ;
        if (gcu_residency_parse_size (env, cap, &x) == GrB_SUCCESS) b = x ;
        else gcu_warn ("GRBCUDA_DEVICE_MEMORY=%s not understood (e.g. 8G, 512M, "
            "0.5, 50%%); using %zu bytes", env, b) ;
    }
    R.budget = b ;
    R.budget_known = true ;
}

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

static slot *slot_find (const void *h)
{
    if (R.nbucket == 0) return NULL ;
    for (slot *s = R.bucket [hash_of (h, R.nbucket)] ; s != NULL ; s = s->next)
    {
        if (s->handle == h) return s ;
    }
    return NULL ;
}

static void rehash (size_t n)
{
    slot **b = calloc (n, sizeof (slot *)) ;
    if (b == NULL) return ;     // keep the old table: longer chains, still right
    for (size_t k = 0 ; k < R.nbucket ; k++)
    {
        slot *s = R.bucket [k] ;
        while (s != NULL)
        {
            slot *nx = s->next ;
            size_t j = hash_of (s->handle, n) ;
            s->next = b [j] ;
            b [j] = s ;
            s = nx ;
        }
    }
    free (R.bucket) ;
    R.bucket = b ;
    R.nbucket = n ;
}

static slot *slot_get (const void *h)
{
    slot *s = slot_find (h) ;
    if (s != NULL) return s ;
    if (R.nbucket == 0) rehash (256) ;
    if (R.nbucket == 0) return NULL ;
    if (R.nslot >= R.nbucket) rehash (2 * R.nbucket) ;
    s = calloc (1, sizeof (slot)) ;
    if (s == NULL) return NULL ;
    s->handle = h ;
    s->gen = ++R.next_gen ;
    size_t j = hash_of (h, R.nbucket) ;
    s->next = R.bucket [j] ;
    R.bucket [j] = s ;
    R.nslot++ ;
    atomic_fetch_add_explicit (&gcu_residency_watch_, 1, memory_order_relaxed) ;
    return s ;
}

// Drops a slot that no longer has a reason to exist.
static void slot_maybe_drop (slot *s)
{
    if (s == NULL || s->entries != NULL || s->nbuild > 0 || s->busy || R.tracking) return ;
    slot **pp = &R.bucket [hash_of (s->handle, R.nbucket)] ;
    while (*pp != s) pp = &(*pp)->next ;
    *pp = s->next ;
    free (s) ;
    R.nslot-- ;
    atomic_fetch_sub_explicit (&gcu_residency_watch_, 1, memory_order_relaxed) ;
}

//------------------------------------------------------------------------------
// entries (under the lock)
//------------------------------------------------------------------------------

static void lru_unlink (gcu_res_entry *e)
{
    if (e->lru_prev) e->lru_prev->lru_next = e->lru_next ;
    else R.lru_head = e->lru_next ;
    if (e->lru_next) e->lru_next->lru_prev = e->lru_prev ;
    else R.lru_tail = e->lru_prev ;
    e->lru_prev = e->lru_next = NULL ;
}

static void lru_push_front (gcu_res_entry *e)
{
    e->lru_prev = NULL ;
    e->lru_next = R.lru_head ;
    if (R.lru_head) R.lru_head->lru_prev = e ;
    R.lru_head = e ;
    if (R.lru_tail == NULL) R.lru_tail = e ;
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
// after the lock is released (bury_flush).
static void bury (gcu_res_entry *e, gcu_res_entry **grave)
{
    R.used -= tree_bytes (e) ;
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
    R.st.newest-- ;
    R.st.discards++ ;
    atomic_fetch_sub_explicit (&gcu_residency_newest_, 1, memory_order_relaxed) ;
}

static void retire (slot *s, gcu_res_entry *e, gcu_res_entry **grave)
{
    newest_drop (s, e) ;
    remove_from_list (&s->entries, e) ;
    lru_unlink (e) ;
    e->state = E_DEAD ;
    R.st.entries-- ;
    if (e->pins == 0) bury (e, grave) ;
}

// A published derived entry stops being visible (replaced by a newer one).
static void retire_child (gcu_res_entry *c, gcu_res_entry **grave)
{
    remove_from_list (&c->parent->children, c) ;
    c->state = E_DEAD ;
    if (c->pins == 0)
    {
        c->parent = NULL ;      // freed alone, not with the parent
        bury (c, grave) ;
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
static void bury_flush (gcu_res_entry *grave)
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
    for (gcu_res_entry *e = R.lru_tail ; e != NULL ; e = e->lru_prev)
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
    for (gcu_res_entry *e = R.lru_tail ; e != NULL ; e = e->lru_prev)
    {
        if (!e->newest || e->pins > 0) continue ;
        slot *s = slot_find (e->handle) ;
        if (s != NULL && !s->busy) return e->handle ;
    }
    return NULL ;
}

static bool evict_one (gcu_res_entry **grave)
{
    gcu_res_entry *v = victim () ;
    if (v == NULL) return false ;
    slot *s = slot_find (v->handle) ;
    retire (s, v, grave) ;
    slot_maybe_drop (s) ;
    R.st.evictions++ ;
    return true ;
}

// Evicts until `bytes` more fit in the budget; evicts nothing if even
// evicting every unpinned entry would not make room.
static bool make_room (size_t bytes, gcu_res_entry **grave)
{
    if (!R.budget_known) compute_budget () ;
    if (bytes > R.budget) return false ;
    if (R.used + bytes <= R.budget) return true ;
    size_t evictable = 0 ;
    for (gcu_res_entry *e = R.lru_tail ; e != NULL ; e = e->lru_prev)
    {
        if (e->pins == 0 && !e->newest) evictable += tree_bytes (e) ;
    }
    if (R.used - evictable + bytes > R.budget) return false ;
    while (R.used + bytes > R.budget)
    {
        if (!evict_one (grave)) return false ;
    }
    return true ;
}

static void invalidate_slot (slot *s, gcu_res_entry **grave)
{
    s->gen = ++R.next_gen ;
    s->ninval++ ;
    while (s->entries != NULL)
    {
        retire (s, s->entries, grave) ;
        R.st.invalidations++ ;
    }
}

//------------------------------------------------------------------------------
// invalidation
//------------------------------------------------------------------------------

void gcu_residency_invalidate_slow (const void *handle)
{
    if (handle == NULL || handle == tl_materializing) return ;
    if (atomic_load_explicit (&gcu_residency_watch_, memory_order_relaxed) == 0)
        return ;
    gcu_res_entry *grave = NULL ;
    pthread_mutex_lock (&R.lock) ;
    slot *s = R.tracking ? slot_get (handle) : slot_find (handle) ;
    if (s != NULL)
    {
        invalidate_slot (s, &grave) ;
        slot_maybe_drop (s) ;
    }
    pthread_mutex_unlock (&R.lock) ;
    bury_flush (grave) ;
}

//------------------------------------------------------------------------------
// allocator and budget
//------------------------------------------------------------------------------

static GrB_Info host_alloc (void *ctx, size_t bytes, void **p)
{
    (void) ctx ;
    *p = malloc (bytes ? bytes : 1) ;
    return *p ? GrB_SUCCESS : GrB_OUT_OF_MEMORY ;
}

static void host_free (void *ctx, void *p, size_t bytes)
{
    (void) ctx ; (void) bytes ;
    free (p) ;
}

const gcu_res_allocator *gcu_residency_host_allocator (void)
{
    static gcu_res_allocator a = { host_alloc, host_free, NULL, 0, "host" } ;
    if (a.capacity == 0)
    {
        long pages = sysconf (_SC_PHYS_PAGES), psize = sysconf (_SC_PAGESIZE) ;
        if (pages > 0 && psize > 0) a.capacity = (size_t) pages * (size_t) psize ;
    }
    return &a ;
}

void gcu_residency_clear_all (void)
{
    gcu_res_entry *grave = NULL ;
    pthread_mutex_lock (&R.lock) ;
    for (size_t k = 0 ; k < R.nbucket ; k++)
    {
        slot *s = R.bucket [k] ;
        while (s != NULL)
        {
            slot *nx = s->next ;
            uint64_t n = s->ninval ;
            invalidate_slot (s, &grave) ;
            s->ninval = n ;             // not an invalidation of the handle
            slot_maybe_drop (s) ;
            s = nx ;
        }
    }
    pthread_mutex_unlock (&R.lock) ;
    bury_flush (grave) ;
}

GrB_Info gcu_residency_set_allocator (const gcu_res_allocator *a)
{
    if (a != NULL && (a->alloc == NULL || a->free == NULL)) return GrB_NULL_POINTER ;
    gcu_residency_clear_all () ;
    pthread_mutex_lock (&R.lock) ;
    R.has_alloc = (a != NULL) ;
    if (a != NULL) R.alloc = *a ;
    R.budget_known = false ;
    compute_budget () ;
    size_t budget = R.budget ;
    pthread_mutex_unlock (&R.lock) ;
    gcu_log ("residency: allocator %s, capacity %zu, budget %zu bytes",
        a && a->name ? a->name : (a ? "?" : "none"), a ? a->capacity : 0, budget) ;
    return GrB_SUCCESS ;
}

GrB_Info gcu_residency_set_budget (size_t bytes)
{
    gcu_res_entry *grave = NULL ;
    pthread_mutex_lock (&R.lock) ;
    R.budget = bytes ;
    R.budget_known = R.budget_explicit = true ;
    while (R.used > R.budget && evict_one (&grave)) { }
    pthread_mutex_unlock (&R.lock) ;
    bury_flush (grave) ;
    return GrB_SUCCESS ;
}

size_t gcu_residency_budget (void)
{
    pthread_mutex_lock (&R.lock) ;
    if (!R.budget_known) compute_budget () ;
    size_t b = R.budget ;
    pthread_mutex_unlock (&R.lock) ;
    return b ;
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

// Under the lock.
static GrB_Info lookup_locked (const void *handle, int kind, gcu_res_entry **e)
{
    *e = NULL ;
    slot *s = slot_find (handle) ;
    gcu_res_entry *x = s ? find_kind (s->entries, kind) : NULL ;
    if (x == NULL || x->gen != s->gen)
    {
        R.st.misses++ ;
        return GrB_NO_VALUE ;
    }
    x->pins++ ;
    lru_unlink (x) ;
    lru_push_front (x) ;
    R.st.hits++ ;
    *e = x ;
    return GrB_SUCCESS ;
}

static GrB_Info begin_locked (const void *handle, int kind, gcu_res_entry **e)
{
    *e = NULL ;
    slot *s = slot_get (handle) ;
    gcu_res_entry *x = s ? calloc (1, sizeof (gcu_res_entry)) : NULL ;
    if (x == NULL)
    {
        slot_maybe_drop (s) ;
        return GrB_OUT_OF_MEMORY ;
    }
    x->handle = handle ;
    x->kind = kind ;
    x->gen = s->gen ;
    x->state = E_BUILDING ;
    x->pins = 1 ;
    x->alloc = R.alloc ;
    x->has_alloc = R.has_alloc ;
    s->nbuild++ ;
    *e = x ;
    return GrB_SUCCESS ;
}

GrB_Info gcu_residency_lookup (const void *handle, int kind, gcu_res_entry **e)
{
    if (e == NULL) return GrB_NULL_POINTER ;
    *e = NULL ;
    if (handle == NULL) return GrB_NULL_POINTER ;
    pthread_mutex_lock (&R.lock) ;
    GrB_Info info = lookup_locked (handle, kind, e) ;
    pthread_mutex_unlock (&R.lock) ;
    return info ;
}

GrB_Info gcu_residency_begin (const void *handle, int kind, gcu_res_entry **e)
{
    if (e == NULL) return GrB_NULL_POINTER ;
    *e = NULL ;
    if (handle == NULL) return GrB_NULL_POINTER ;
    pthread_mutex_lock (&R.lock) ;
    GrB_Info info = begin_locked (handle, kind, e) ;
    pthread_mutex_unlock (&R.lock) ;
    return info ;
}

GrB_Info gcu_residency_acquire (const void *handle, int kind, gcu_res_entry **e)
{
    if (e == NULL) return GrB_NULL_POINTER ;
    *e = NULL ;
    if (handle == NULL) return GrB_NULL_POINTER ;
    pthread_mutex_lock (&R.lock) ;
    GrB_Info info = lookup_locked (handle, kind, e) ;
    if (info == GrB_NO_VALUE)
    {
        info = begin_locked (handle, kind, e) ;
        if (info == GrB_SUCCESS) info = GrB_NO_VALUE ;
    }
    pthread_mutex_unlock (&R.lock) ;
    return info ;
}

GrB_Info gcu_residency_alloc (gcu_res_entry *e, size_t bytes, void **p)
{
    if (e == NULL || p == NULL) return GrB_NULL_POINTER ;
    *p = NULL ;
    gcu_res_entry *grave = NULL ;
    pthread_mutex_lock (&R.lock) ;
    if (!e->has_alloc)
    {
        pthread_mutex_unlock (&R.lock) ;
        return GCU_NOT_HANDLED ;
    }
    if (e->state != E_BUILDING || e->d.nbuf >= GCU_RES_MAX_BUFS)
    {
        pthread_mutex_unlock (&R.lock) ;
        return GrB_INVALID_VALUE ;
    }
    bool fits = make_room (bytes, &grave) ;
    while (!fits)
    {
        // only newest values stand in the way: write the least recently
        // used back into its object (then it can go), outside the lock
        const void *h = newest_victim () ;
        if (h == NULL) break ;
        pthread_mutex_unlock (&R.lock) ;
        bury_flush (grave) ;
        grave = NULL ;
        GrB_Info mi = gcu_residency_materialize_slow (h, "eviction") ;
        pthread_mutex_lock (&R.lock) ;
        if (mi != GrB_SUCCESS) break ;      // it keeps its device copy
        fits = make_room (bytes, &grave) ;
    }
    if (fits)
    {
        R.used += bytes ;               // reserved while the allocator runs
        if (R.used > R.peak) R.peak = R.used ;
    }
    pthread_mutex_unlock (&R.lock) ;
    bury_flush (grave) ;
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
            pthread_mutex_lock (&R.lock) ;
            bool more = evict_one (&grave) ;
            pthread_mutex_unlock (&R.lock) ;
            bury_flush (grave) ;
            if (!more) break ;
        }
    }
    pthread_mutex_lock (&R.lock) ;
    if (info != GrB_SUCCESS)
    {
        R.used -= bytes ;
        pthread_mutex_unlock (&R.lock) ;
        return GrB_OUT_OF_MEMORY ;
    }
    int k = e->d.nbuf++ ;
    e->d.buf [k] = q ;
    e->d.bytes [k] = bytes ;
    e->total += bytes ;
    pthread_mutex_unlock (&R.lock) ;
    *p = q ;
    return GrB_SUCCESS ;
}

GrB_Info gcu_residency_publish (gcu_res_entry *e)
{
    if (e == NULL) return GrB_NULL_POINTER ;
    gcu_res_entry *grave = NULL ;
    GrB_Info info = GrB_SUCCESS ;
    pthread_mutex_lock (&R.lock) ;
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
        R.st.publishes++ ;
    }
    else
    {
        slot *s = slot_find (e->handle) ;     // held by this build
        s->nbuild-- ;
        if (s->gen == e->gen)
        {
            gcu_res_entry *old = find_kind (s->entries, e->kind) ;
            if (old != NULL) retire (s, old, &grave) ;
            e->sibling = s->entries ;
            s->entries = e ;
            lru_push_front (e) ;
            e->state = E_LIVE ;
            R.st.entries++ ;
            R.st.publishes++ ;
        }
        else
        {
            // The object changed while the copy was made: never visible.
            e->state = E_DEAD ;
            R.st.stale++ ;
            info = GrB_NO_VALUE ;
            slot_maybe_drop (s) ;
        }
    }
    pthread_mutex_unlock (&R.lock) ;
    bury_flush (grave) ;
    return info ;
}

void gcu_residency_pin (gcu_res_entry *e)
{
    if (e == NULL) return ;
    pthread_mutex_lock (&R.lock) ;
    for (gcu_res_entry *x = e ; x != NULL ; x = x->parent) x->pins++ ;
    pthread_mutex_unlock (&R.lock) ;
}

void gcu_residency_unpin (gcu_res_entry *e)
{
    if (e == NULL) return ;
    gcu_res_entry *grave = NULL ;
    pthread_mutex_lock (&R.lock) ;
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
                slot *s = slot_find (x->handle) ;
                if (s != NULL)
                {
                    s->nbuild-- ;
                    slot_maybe_drop (s) ;
                }
            }
            x->parent = NULL ;      // not in its parent's list: freed alone
            bury (x, &grave) ;
        }
        x = up ;
    }
    pthread_mutex_unlock (&R.lock) ;
    bury_flush (grave) ;
}

GrB_Info gcu_residency_derived_lookup (gcu_res_entry *parent, int kind,
    gcu_res_entry **child)
{
    if (parent == NULL || child == NULL) return GrB_NULL_POINTER ;
    *child = NULL ;
    pthread_mutex_lock (&R.lock) ;
    gcu_res_entry *c = find_kind (parent->children, kind) ;
    if (c != NULL)
    {
        for (gcu_res_entry *x = c ; x != NULL ; x = x->parent) x->pins++ ;
        R.st.hits++ ;
    }
    else R.st.misses++ ;
    pthread_mutex_unlock (&R.lock) ;
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
    pthread_mutex_lock (&R.lock) ;
    c->handle = parent->handle ;
    c->kind = kind ;
    c->gen = parent->gen ;
    c->state = E_BUILDING ;
    c->parent = parent ;
    c->alloc = parent->alloc ;
    c->has_alloc = parent->has_alloc ;
    c->pins = 1 ;
    for (gcu_res_entry *x = parent ; x != NULL ; x = x->parent) x->pins++ ;
    pthread_mutex_unlock (&R.lock) ;
    *child = c ;
    return GrB_SUCCESS ;
}

void gcu_residency_stats (gcu_res_stats *s)
{
    if (s == NULL) return ;
    pthread_mutex_lock (&R.lock) ;
    if (!R.budget_known) compute_budget () ;
    *s = R.st ;
    s->bytes_used = R.used ;
    s->bytes_peak = R.peak ;
    s->budget = R.budget ;
    s->handles = R.nslot ;
    pthread_mutex_unlock (&R.lock) ;
}

//------------------------------------------------------------------------------
// device newest values
//------------------------------------------------------------------------------

GrB_Info gcu_residency_publish_newest (gcu_res_entry *e, gcu_res_materializer fn)
{
    if (e == NULL || fn == NULL) return GrB_NULL_POINTER ;
    gcu_res_entry *grave = NULL ;
    pthread_mutex_lock (&R.lock) ;
    if (e->state != E_BUILDING || e->parent != NULL)
    {
        pthread_mutex_unlock (&R.lock) ;
        return GrB_INVALID_VALUE ;
    }
    slot *s = slot_find (e->handle) ;     // held by this build
    s->nbuild-- ;
    // the object's value is replaced whatever happened to it since the build
    // began: every other copy goes (an older newest value unwritten), and
    // copies of the old value still being built can no longer be published
    s->gen = ++R.next_gen ;
    while (s->entries != NULL)
    {
        retire (s, s->entries, &grave) ;
        R.st.invalidations++ ;
    }
    e->gen = s->gen ;
    e->sibling = NULL ;
    s->entries = e ;
    lru_push_front (e) ;
    e->state = E_LIVE ;
    R.st.entries++ ;
    R.st.publishes++ ;
    s->newest = e ;
    s->mat = fn ;
    e->newest = true ;
    R.st.newest++ ;
    atomic_fetch_add_explicit (&gcu_residency_newest_, 1, memory_order_relaxed) ;
    pthread_mutex_unlock (&R.lock) ;
    bury_flush (grave) ;
    return GrB_SUCCESS ;
}

GrB_Info gcu_residency_materialize_slow (const void *handle, const char *why)
{
    if (handle == NULL || handle == tl_materializing) return GrB_SUCCESS ;
    if (atomic_load_explicit (&gcu_residency_newest_, memory_order_relaxed) == 0)
        return GrB_SUCCESS ;
    pthread_mutex_lock (&R.lock) ;
    slot *s ;
    // one writer per handle; other readers wait for it
    while ((s = slot_find (handle)) != NULL && s->newest != NULL && s->busy)
        pthread_cond_wait (&R.cond, &R.lock) ;
    if (s == NULL || s->newest == NULL)
    {
        pthread_mutex_unlock (&R.lock) ;
        return GrB_SUCCESS ;
    }
    gcu_res_entry *e = s->newest ;
    gcu_res_materializer fn = s->mat ;
    s->busy = true ;
    e->pins++ ;
    pthread_mutex_unlock (&R.lock) ;

    const void *outer = tl_materializing ;
    tl_materializing = handle ;
    const double t0 = gcu_now () ;
    GrB_Info info = fn (handle, e) ;
    const double dt = gcu_now () - t0 ;
    tl_materializing = outer ;

    const size_t bytes = e->total ;
    gcu_res_entry *grave = NULL ;
    pthread_mutex_lock (&R.lock) ;
    s = slot_find (handle) ;        // kept while busy
    s->busy = false ;
    if (info == GrB_SUCCESS)
    {
        if (s->newest == e)
        {
            // both valid now: the copy stays, clean (evictable)
            s->newest = NULL ;
            e->newest = false ;
            R.st.newest-- ;
            atomic_fetch_sub_explicit (&gcu_residency_newest_, 1, memory_order_relaxed) ;
        }
        R.st.materializations++ ;
        R.st.materialized_bytes += bytes ;
    }
    else R.st.materialize_failures++ ;
    if (--e->pins == 0 && e->state != E_LIVE) bury (e, &grave) ;
    slot_maybe_drop (s) ;
    pthread_cond_broadcast (&R.cond) ;
    pthread_mutex_unlock (&R.lock) ;
    bury_flush (grave) ;
    gcu_log ("residency: %s reads %p, device newest: its value (%.1f MB on the device) "
        "written into its SuiteSparse object: %s, %.3f ms", why ? why : "?", handle,
        (double) bytes / 1e6, info == GrB_SUCCESS ? "done" : "FAILED, the device copy stays",
        1e3 * dt) ;
    return info ;
}

bool gcu_residency_newest_nvals (const void *handle, uint64_t *nvals)
{
    if (handle == NULL || handle == tl_materializing
        || atomic_load_explicit (&gcu_residency_newest_, memory_order_relaxed) == 0)
        return false ;
    pthread_mutex_lock (&R.lock) ;
    slot *s = slot_find (handle) ;
    const bool newest = s != NULL && s->newest != NULL ;
    if (newest && nvals != NULL) *nvals = s->newest->d.nvals ;
    pthread_mutex_unlock (&R.lock) ;
    return newest ;
}

//------------------------------------------------------------------------------
// test hooks
//------------------------------------------------------------------------------

void gcu_residency_track (bool on)
{
    pthread_mutex_lock (&R.lock) ;
    if (on && !R.tracking)
    {
        R.tracking = true ;
        atomic_fetch_add_explicit (&gcu_residency_watch_, 1, memory_order_relaxed) ;
    }
    else if (!on && R.tracking)
    {
        R.tracking = false ;
        atomic_fetch_sub_explicit (&gcu_residency_watch_, 1, memory_order_relaxed) ;
        for (size_t k = 0 ; k < R.nbucket ; k++)
        {
            slot *s = R.bucket [k] ;
            while (s != NULL)
            {
                slot *nx = s->next ;
                s->ninval = 0 ;
                slot_maybe_drop (s) ;
                s = nx ;
            }
        }
    }
    pthread_mutex_unlock (&R.lock) ;
}

uint64_t gcu_residency_epoch (const void *handle)
{
    pthread_mutex_lock (&R.lock) ;
    slot *s = slot_find (handle) ;
    uint64_t n = s ? s->ninval : 0 ;
    pthread_mutex_unlock (&R.lock) ;
    return n ;
}
