// GRBCUDA_TEST_INTERNAL
// test_residency_cache.c — the residency cache (src/residency) on the CPU,
// with a host allocator standing in for device memory: GRBCUDA_DEVICE_MEMORY
// parsing, hits and misses, invalidation (also while pinned, and while a copy
// is being built), LRU eviction order, the budget, pinned entries never
// evicted, derived data freed with its entry, allocator failures, every
// family of mutating GraphBLAS call dropping the copy of the object it
// changes (and only that one), free-then-new at the same address, and 8
// threads building, looking up and invalidating at once. Every byte the
// allocator handed out comes back.
#include "gcu_test.h"
#include "residency/gcu_residency.h"
#include "gcu_util.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

//------------------------------------------------------------------------------
// a counting host allocator, with an optional hard limit (a "device" fuller
// than the cache's count)
//------------------------------------------------------------------------------

static _Atomic long long out_bytes, out_allocs, n_fail ;
static _Atomic long long hard_limit = -1 ;

static GrB_Info t_alloc (void *ctx, size_t bytes, void **p)
{
    (void) ctx ;
    long long lim = atomic_load (&hard_limit) ;
    if (lim >= 0 && atomic_load (&out_bytes) + (long long) bytes > lim)
    {
        atomic_fetch_add (&n_fail, 1) ;
        return GrB_OUT_OF_MEMORY ;
    }
    *p = malloc (bytes ? bytes : 1) ;
    if (*p == NULL) return GrB_OUT_OF_MEMORY ;
    memset (*p, 0xA5, bytes) ;
    atomic_fetch_add (&out_bytes, (long long) bytes) ;
    atomic_fetch_add (&out_allocs, 1) ;
    return GrB_SUCCESS ;
}

static void t_free (void *ctx, void *p, size_t bytes)
{
    (void) ctx ;
    free (p) ;
    atomic_fetch_sub (&out_bytes, (long long) bytes) ;
    atomic_fetch_sub (&out_allocs, 1) ;
}

static gcu_res_allocator talloc = { t_alloc, t_free, NULL, 4000, "test" } ;

// Builds and publishes a one-buffer copy of `bytes` for (h, kind) whose
// first byte is `tag`; returns the publish status (entry unpinned).
static GrB_Info put (const void *h, int kind, size_t bytes, unsigned char tag)
{
    gcu_res_entry *e = NULL ;
    GrB_Info info = gcu_residency_begin (h, kind, &e) ;
    if (info != GrB_SUCCESS) return info ;
    void *p = NULL ;
    info = gcu_residency_alloc (e, bytes, &p) ;
    if (info == GrB_SUCCESS)
    {
        if (bytes) *(unsigned char *) p = tag ;
        gcu_residency_data (e)->nvals = tag ;
        info = gcu_residency_publish (e) ;
    }
    gcu_residency_unpin (e) ;
    return info ;
}

// 1 + tag if (h, kind) is cached, 0 if not.
static int has (const void *h, int kind)
{
    gcu_res_entry *e = NULL ;
    if (gcu_residency_lookup (h, kind, &e) != GrB_SUCCESS) return 0 ;
    int tag = (int) gcu_residency_data (e)->nvals ;
    gcu_residency_unpin (e) ;
    return 1 + tag ;
}

static void check_empty (const char *what)
{
    gcu_res_stats st ;
    gcu_residency_stats (&st) ;
    CHECK (st.bytes_used == 0 && st.entries == 0 && st.handles == 0,
        "%s: used %zu entries %zu handles %zu", what, st.bytes_used, st.entries,
        st.handles) ;
    CHECK (atomic_load (&out_bytes) == 0 && atomic_load (&out_allocs) == 0,
        "%s: allocator still has %lld bytes in %lld buffers", what,
        atomic_load (&out_bytes), atomic_load (&out_allocs)) ;
}

//------------------------------------------------------------------------------
// GRBCUDA_DEVICE_MEMORY
//------------------------------------------------------------------------------

static void test_parse (void)
{
    struct { const char *s ; size_t cap ; GrB_Info info ; size_t bytes ; } t [] =
    {
        { "8G", 0, GrB_SUCCESS, (size_t) 8 << 30 },
        { "512M", 0, GrB_SUCCESS, (size_t) 512 << 20 },
        { "512m", 0, GrB_SUCCESS, (size_t) 512 << 20 },
        { "4096K", 0, GrB_SUCCESS, (size_t) 4096 << 10 },
        { "1.5T", 0, GrB_SUCCESS, (size_t) 3 << 39 },
        { "2GiB", 0, GrB_SUCCESS, (size_t) 2 << 30 },
        { "2GB", 0, GrB_SUCCESS, (size_t) 2 << 30 },
        { " 8G ", 0, GrB_SUCCESS, (size_t) 8 << 30 },
        { "123456", 0, GrB_SUCCESS, 123456 },
        { "100B", 0, GrB_SUCCESS, 100 },
        { "0.5", 1000, GrB_SUCCESS, 500 },
        { "1", 1000, GrB_SUCCESS, 1000 },
        { "25%", 1000, GrB_SUCCESS, 250 },
        { "0.5", 0, GrB_INVALID_VALUE, 0 },       // a fraction of an unknown size
        { "150%", 1000, GrB_INVALID_VALUE, 0 },
        { "", 1000, GrB_INVALID_VALUE, 0 },
        { "abc", 1000, GrB_INVALID_VALUE, 0 },
        { "-1G", 1000, GrB_INVALID_VALUE, 0 },
        { "0", 1000, GrB_INVALID_VALUE, 0 },
        { "8X", 1000, GrB_INVALID_VALUE, 0 },
        { "8G5", 1000, GrB_INVALID_VALUE, 0 },
        { "1e30", 1000, GrB_INVALID_VALUE, 0 },
    } ;
    for (size_t k = 0 ; k < sizeof (t) / sizeof (t [0]) ; k++)
    {
        size_t b = 0 ;
        GrB_Info info = gcu_residency_parse_size (t [k].s, t [k].cap, &b) ;
        CHECK (info == t [k].info && (info != GrB_SUCCESS || b == t [k].bytes),
            "parse '%s' cap %zu: info %d bytes %zu", t [k].s, t [k].cap, (int) info, b) ;
    }
    // the environment sets the budget relative to the allocator's capacity
    setenv ("GRBCUDA_DEVICE_MEMORY", "0.25", 1) ;
    OK (gcu_residency_set_allocator (&talloc)) ;
    CHECK (gcu_residency_budget () == 1000, "0.25 of 4000: %zu", gcu_residency_budget ()) ;
    setenv ("GRBCUDA_DEVICE_MEMORY", "3K", 1) ;
    OK (gcu_residency_set_allocator (&talloc)) ;
    CHECK (gcu_residency_budget () == 3072, "3K: %zu", gcu_residency_budget ()) ;
    unsetenv ("GRBCUDA_DEVICE_MEMORY") ;
    OK (gcu_residency_set_allocator (&talloc)) ;
    CHECK (gcu_residency_budget () == 2000, "default half of 4000: %zu",
        gcu_residency_budget ()) ;
}

//------------------------------------------------------------------------------
// basic operations
//------------------------------------------------------------------------------

static char H [64] ;      // fake handles: &H [k]

static void test_basic (void)
{
    // no allocator: nothing can be cached, every call says so
    OK (gcu_residency_set_allocator (NULL)) ;
    gcu_res_entry *e = NULL ;
    void *p = NULL ;
    OK (gcu_residency_begin (&H [0], GCU_RES_CSR, &e)) ;
    CHECK (gcu_residency_alloc (e, 10, &p) == GCU_NOT_HANDLED, "no allocator") ;
    gcu_residency_unpin (e) ;
    check_empty ("no allocator") ;

    OK (gcu_residency_set_allocator (&talloc)) ;
    OK (gcu_residency_set_budget (1000)) ;
    CHECK (gcu_residency_lookup (NULL, GCU_RES_CSR, &e) == GrB_NULL_POINTER, "NULL handle") ;

    // miss, build, hit
    CHECK (has (&H [1], GCU_RES_CSR) == 0, "empty cache hit") ;
    CHECK (gcu_residency_acquire (&H [1], GCU_RES_CSR, &e) == GrB_NO_VALUE && e != NULL,
        "acquire on a miss begins a build") ;
    OK (gcu_residency_alloc (e, 100, &p)) ;
    OK (gcu_residency_alloc (e, 50, &p)) ;
    gcu_res_data *d = gcu_residency_data (e) ;
    CHECK (d->nbuf == 2 && d->bytes [0] == 100 && d->bytes [1] == 50 && d->buf [1] == p,
        "buffers recorded") ;
    d->nrows = 7 ;
    CHECK (has (&H [1], GCU_RES_CSR) == 0, "unpublished entry invisible") ;
    OK (gcu_residency_publish (e)) ;
    CHECK (gcu_residency_publish (e) == GrB_INVALID_VALUE, "publish twice") ;
    CHECK (gcu_residency_alloc (e, 1, &p) == GrB_INVALID_VALUE, "alloc after publish") ;
    gcu_residency_unpin (e) ;
    gcu_res_entry *e2 = NULL ;
    CHECK (gcu_residency_acquire (&H [1], GCU_RES_CSR, &e2) == GrB_SUCCESS && e2 == e,
        "acquire hits") ;
    CHECK (gcu_residency_data (e2)->nrows == 7 && gcu_residency_handle (e2) == &H [1],
        "data kept") ;
    gcu_residency_unpin (e2) ;
    CHECK (has (&H [1], GCU_RES_CSC) == 0, "other kind misses") ;
    CHECK (has (&H [2], GCU_RES_CSR) == 0, "other handle misses") ;
    gcu_res_stats st ;
    gcu_residency_stats (&st) ;
    CHECK (st.bytes_used == 150 && st.entries == 1 && st.hits >= 1 && st.misses >= 3,
        "stats: used %zu entries %zu hits %llu misses %llu", st.bytes_used,
        st.entries, (unsigned long long) st.hits, (unsigned long long) st.misses) ;

    // invalidation drops every kind of the handle, not other handles
    OK (put (&H [1], GCU_RES_CSC, 10, 3)) ;
    OK (put (&H [2], GCU_RES_CSR, 10, 4)) ;
    gcu_residency_invalidate (&H [1]) ;
    CHECK (has (&H [1], GCU_RES_CSR) == 0 && has (&H [1], GCU_RES_CSC) == 0,
        "invalidated") ;
    CHECK (has (&H [2], GCU_RES_CSR) == 5, "other handle kept") ;
    gcu_residency_invalidate (NULL) ;
    gcu_residency_invalidate (&H [2]) ;
    check_empty ("after invalidation") ;

    // a newer copy of the same kind replaces the older one
    OK (put (&H [3], GCU_RES_CSR, 10, 1)) ;
    OK (put (&H [3], GCU_RES_CSR, 20, 2)) ;
    CHECK (has (&H [3], GCU_RES_CSR) == 3, "replaced") ;
    gcu_residency_stats (&st) ;
    CHECK (st.bytes_used == 20 && st.entries == 1, "old copy freed: %zu", st.bytes_used) ;
    gcu_residency_invalidate (&H [3]) ;

    // invalidated while in use: invisible at once, freed at the last unpin
    OK (put (&H [4], GCU_RES_CSR, 30, 1)) ;
    OK (gcu_residency_lookup (&H [4], GCU_RES_CSR, &e)) ;
    gcu_residency_pin (e) ;
    gcu_residency_invalidate (&H [4]) ;
    CHECK (has (&H [4], GCU_RES_CSR) == 0, "invisible after invalidation") ;
    CHECK (atomic_load (&out_bytes) == 30 && *(unsigned char *) gcu_residency_data (e)->buf [0] == 1,
        "data still there while pinned") ;
    gcu_residency_unpin (e) ;
    CHECK (atomic_load (&out_bytes) == 30, "still pinned once") ;
    gcu_residency_unpin (e) ;
    check_empty ("pinned invalidation") ;

    // invalidated while being built: never published, freed at unpin
    OK (gcu_residency_begin (&H [5], GCU_RES_CSR, &e)) ;
    OK (gcu_residency_alloc (e, 40, &p)) ;
    gcu_residency_invalidate (&H [5]) ;
    CHECK (gcu_residency_publish (e) == GrB_NO_VALUE, "stale publish refused") ;
    CHECK (has (&H [5], GCU_RES_CSR) == 0, "stale copy invisible") ;
    gcu_residency_unpin (e) ;
    check_empty ("stale build") ;

    // an abandoned build frees its buffers
    OK (gcu_residency_begin (&H [6], GCU_RES_CSR, &e)) ;
    OK (gcu_residency_alloc (e, 40, &p)) ;
    gcu_residency_unpin (e) ;
    check_empty ("abandoned build") ;

    // zero-byte buffers are fine
    OK (put (&H [7], GCU_RES_CSR, 0, 0)) ;
    CHECK (has (&H [7], GCU_RES_CSR) == 1, "zero bytes") ;
    gcu_residency_clear_all () ;
    check_empty ("clear_all") ;

    // at most GCU_RES_MAX_BUFS buffers
    OK (gcu_residency_begin (&H [8], GCU_RES_CSR, &e)) ;
    for (int k = 0 ; k < GCU_RES_MAX_BUFS ; k++) OK (gcu_residency_alloc (e, 1, &p)) ;
    CHECK (gcu_residency_alloc (e, 1, &p) == GrB_INVALID_VALUE, "too many buffers") ;
    gcu_residency_unpin (e) ;
    check_empty ("max buffers") ;
}

//------------------------------------------------------------------------------
// LRU, budget, pins
//------------------------------------------------------------------------------

static void test_lru (void)
{
    OK (gcu_residency_set_budget (1000)) ;
    for (int k = 0 ; k < 4 ; k++) OK (put (&H [10 + k], GCU_RES_CSR, 250, (unsigned char) k)) ;
    // use 10 and 12: LRU order is now 11, 13, 10, 12
    CHECK (has (&H [10], GCU_RES_CSR) && has (&H [12], GCU_RES_CSR), "all there") ;
    OK (put (&H [14], GCU_RES_CSR, 250, 4)) ;
    CHECK (!has (&H [11], GCU_RES_CSR) && has (&H [13], GCU_RES_CSR), "11 evicted first") ;
    // 13 was just used; order 10, 12, 14, 13
    OK (put (&H [15], GCU_RES_CSR, 500, 5)) ;
    CHECK (!has (&H [10], GCU_RES_CSR) && !has (&H [12], GCU_RES_CSR), "10, 12 evicted") ;
    CHECK (has (&H [14], GCU_RES_CSR) && has (&H [13], GCU_RES_CSR)
        && has (&H [15], GCU_RES_CSR), "14, 13, 15 kept") ;
    gcu_res_stats st ;
    gcu_residency_stats (&st) ;
    CHECK (st.bytes_used <= 1000 && st.bytes_used == 1000, "budget full: %zu", st.bytes_used) ;
    CHECK (st.evictions == 3, "3 evictions: %llu", (unsigned long long) st.evictions) ;

    // more than the whole budget: refused, nothing evicted for nothing
    CHECK (put (&H [16], GCU_RES_CSR, 1001, 0) == GrB_OUT_OF_MEMORY, "over budget") ;
    CHECK (has (&H [15], GCU_RES_CSR), "kept after a refused allocation") ;

    // pinned entries are never evicted
    gcu_res_entry *p13, *p14, *p15 ;
    OK (gcu_residency_lookup (&H [13], GCU_RES_CSR, &p13)) ;
    OK (gcu_residency_lookup (&H [14], GCU_RES_CSR, &p14)) ;
    OK (gcu_residency_lookup (&H [15], GCU_RES_CSR, &p15)) ;
    CHECK (put (&H [17], GCU_RES_CSR, 100, 0) == GrB_OUT_OF_MEMORY, "all pinned") ;
    gcu_residency_unpin (p14) ;
    OK (put (&H [17], GCU_RES_CSR, 100, 7)) ;
    CHECK (!has (&H [14], GCU_RES_CSR) && has (&H [13], GCU_RES_CSR)
        && has (&H [15], GCU_RES_CSR) && has (&H [17], GCU_RES_CSR), "only the unpinned one went") ;
    gcu_residency_unpin (p13) ;
    gcu_residency_unpin (p15) ;

    // a smaller budget evicts down to it
    OK (gcu_residency_set_budget (300)) ;
    gcu_residency_stats (&st) ;
    CHECK (st.bytes_used <= 300, "shrunk budget: %zu", st.bytes_used) ;

    // the "device" is fuller than the count: evict and retry
    gcu_residency_clear_all () ;
    OK (gcu_residency_set_budget (1000)) ;
    OK (put (&H [20], GCU_RES_CSR, 200, 0)) ;
    OK (put (&H [21], GCU_RES_CSR, 200, 1)) ;
    atomic_store (&hard_limit, 450) ;
    atomic_store (&n_fail, 0) ;
    OK (put (&H [22], GCU_RES_CSR, 200, 2)) ;
    CHECK (atomic_load (&n_fail) == 1 && !has (&H [20], GCU_RES_CSR)
        && has (&H [21], GCU_RES_CSR) && has (&H [22], GCU_RES_CSR), "evicted and retried") ;
    CHECK (put (&H [23], GCU_RES_CSR, 500, 3) == GrB_OUT_OF_MEMORY, "device full") ;
    gcu_res_stats st2 ;
    gcu_residency_stats (&st2) ;
    CHECK (st2.bytes_used == (size_t) atomic_load (&out_bytes), "count matches after failure") ;
    atomic_store (&hard_limit, -1) ;
    gcu_residency_clear_all () ;
    check_empty ("lru") ;
}

//------------------------------------------------------------------------------
// derived data
//------------------------------------------------------------------------------

static void test_derived (void)
{
    OK (gcu_residency_set_budget (1000)) ;
    gcu_res_entry *e, *c, *c2 ;
    void *p ;
    OK (put (&H [30], GCU_RES_CSR, 100, 1)) ;
    OK (gcu_residency_lookup (&H [30], GCU_RES_CSR, &e)) ;
    CHECK (gcu_residency_derived_lookup (e, GCU_RES_DERIVED_TRANSPOSE, &c) == GrB_NO_VALUE,
        "no derived yet") ;
    OK (gcu_residency_derived_begin (e, GCU_RES_DERIVED_TRANSPOSE, &c)) ;
    OK (gcu_residency_alloc (c, 200, &p)) ;
    gcu_residency_data (c)->nvals = 42 ;
    OK (gcu_residency_publish (c)) ;
    gcu_residency_unpin (c) ;
    OK (gcu_residency_derived_lookup (e, GCU_RES_DERIVED_TRANSPOSE, &c2)) ;
    CHECK (c2 == c && gcu_residency_data (c2)->nvals == 42, "derived found") ;
    gcu_residency_unpin (c2) ;
    // an abandoned derived build frees only itself
    OK (gcu_residency_derived_begin (e, GCU_RES_DERIVED_ROWSTATS, &c2)) ;
    OK (gcu_residency_alloc (c2, 50, &p)) ;
    gcu_residency_unpin (c2) ;
    CHECK (atomic_load (&out_bytes) == 300, "abandoned derived freed: %lld", atomic_load (&out_bytes)) ;
    gcu_residency_unpin (e) ;

    // the derived bytes count in the budget and go with the entry's eviction
    OK (put (&H [31], GCU_RES_CSR, 701, 2)) ;
    CHECK (!has (&H [30], GCU_RES_CSR) && atomic_load (&out_bytes) == 701,
        "entry and derived evicted together: %lld", atomic_load (&out_bytes)) ;

    // a pinned derived entry keeps its parent (and itself) alive through
    // invalidation; both are freed at the last unpin
    OK (gcu_residency_lookup (&H [31], GCU_RES_CSR, &e)) ;
    OK (gcu_residency_derived_begin (e, GCU_RES_DERIVED_SPMV, &c)) ;
    OK (gcu_residency_alloc (c, 100, &p)) ;
    OK (gcu_residency_publish (c)) ;
    gcu_residency_unpin (e) ;           // only the child's pin holds the parent now
    CHECK (put (&H [32], GCU_RES_CSR, 250, 3) == GrB_OUT_OF_MEMORY, "parent pinned by its child") ;
    gcu_residency_invalidate (&H [31]) ;
    CHECK (!has (&H [31], GCU_RES_CSR) && atomic_load (&out_bytes) == 801, "kept while pinned") ;
    gcu_residency_unpin (c) ;
    check_empty ("derived") ;

    // replacing a derived entry frees the old one (or at its unpin)
    OK (put (&H [33], GCU_RES_CSR, 10, 1)) ;
    OK (gcu_residency_lookup (&H [33], GCU_RES_CSR, &e)) ;
    OK (gcu_residency_derived_begin (e, GCU_RES_DERIVED_ASPT, &c)) ;
    OK (gcu_residency_alloc (c, 10, &p)) ;
    OK (gcu_residency_publish (c)) ;
    OK (gcu_residency_derived_begin (e, GCU_RES_DERIVED_ASPT, &c2)) ;
    OK (gcu_residency_alloc (c2, 20, &p)) ;
    OK (gcu_residency_publish (c2)) ;
    gcu_residency_unpin (c2) ;
    CHECK (atomic_load (&out_bytes) == 40, "old derived held by its pin") ;
    gcu_residency_unpin (c) ;
    CHECK (atomic_load (&out_bytes) == 30, "old derived freed at unpin") ;
    gcu_residency_unpin (e) ;
    gcu_residency_clear_all () ;
    check_empty ("derived replace") ;
}

//------------------------------------------------------------------------------
// every family of mutating GraphBLAS call drops the copy of what it changes
//------------------------------------------------------------------------------

static GrB_Matrix mat (GrB_Index n, uint64_t *st)
{
    GrB_Matrix A = NULL ;
    OK (GrB_Matrix_new (&A, GrB_INT32, n, n)) ;
    for (int k = 0 ; k < (int) (2 * n) ; k++)
        OK (GrB_Matrix_setElement_INT32 (A, (int32_t) k, gcu_rand (st) % n, gcu_rand (st) % n)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

static GrB_Vector vec (GrB_Index n, uint64_t *st)
{
    GrB_Vector v = NULL ;
    OK (GrB_Vector_new (&v, GrB_INT32, n)) ;
    for (int k = 0 ; k < (int) n ; k++)
        OK (GrB_Vector_setElement_INT32 (v, (int32_t) k, gcu_rand (st) % n)) ;
    OK (GrB_Vector_wait (v, GrB_MATERIALIZE)) ;
    return v ;
}

// Caches a copy of each object, runs `call`, and checks that exactly the
// ones named in `changed` lost theirs.
#define FAMILY(what, objs, nobjs, changed, call)                             \
    do {                                                                      \
        for (int k_ = 0 ; k_ < (nobjs) ; k_++)                                \
            OK (put ((objs) [k_], GCU_RES_CSR, 16, 1)) ;                      \
        GrB_Info info_ = (call) ;                                             \
        CHECK (info_ == GrB_SUCCESS, "%s: %d", what, (int) info_) ;           \
        for (int k_ = 0 ; k_ < (nobjs) ; k_++)                                \
        {                                                                     \
            bool gone_ = !has ((objs) [k_], GCU_RES_CSR) ;                    \
            bool want_ = ((changed) >> k_) & 1 ;                              \
            CHECK (gone_ == want_, "%s: object %d %s", what, k_,              \
                want_ ? "kept a stale copy" : "lost its copy") ;              \
        }                                                                     \
        gcu_residency_clear_all () ;                                          \
    } while (0)

static void test_families (void)
{
    OK (gcu_residency_set_budget (1 << 20)) ;
    uint64_t st = 7 ;
    GrB_Index n = 8 ;
    GrB_Matrix A = mat (n, &st), B = mat (n, &st), C = mat (n, &st) ;
    GrB_Vector u = vec (n, &st), w = vec (n, &st) ;
    GrB_Scalar s = NULL ;
    OK (GrB_Scalar_new (&s, GrB_INT32)) ;
    OK (GrB_Scalar_setElement_INT32 (s, 5)) ;
    const void *o [6] = { A, B, C, u, w, s } ;
    // bit k set: object k changes
    FAMILY ("setElement", o, 6, 1 << 2, GrB_Matrix_setElement_INT32 (C, 1, 0, 0)) ;
    FAMILY ("removeElement", o, 6, 1 << 2, GrB_Matrix_removeElement (C, 0, 0)) ;
    FAMILY ("vector setElement", o, 6, 1 << 4, GrB_Vector_setElement_INT32 (w, 1, 0)) ;
    FAMILY ("scalar setElement", o, 6, 1 << 5, GrB_Scalar_setElement_INT32 (s, 9)) ;
    FAMILY ("clear", o, 6, 1 << 2, GrB_Matrix_clear (C)) ;
    GrB_Index I [3] = { 0, 1, 2 } ;
    int32_t X [3] = { 1, 2, 3 } ;
    FAMILY ("build", o, 6, 1 << 2, GrB_Matrix_build_INT32 (C, I, I, X, 3, GrB_PLUS_INT32)) ;
    FAMILY ("wait", o, 6, 1 << 2, GrB_Matrix_wait (C, GrB_MATERIALIZE)) ;
    FAMILY ("assign", o, 6, 1 << 2, GrB_Matrix_assign (C, NULL, NULL, A, GrB_ALL, n, GrB_ALL, n, NULL)) ;
    FAMILY ("assign scalar", o, 6, 1 << 2, GrB_Matrix_assign_INT32 (C, B, NULL, 3, GrB_ALL, n, GrB_ALL, n, NULL)) ;
    FAMILY ("subassign", o, 6, 1 << 2, GxB_Matrix_subassign (C, NULL, GrB_PLUS_INT32, A, GrB_ALL, n, GrB_ALL, n, NULL)) ;
    FAMILY ("row assign", o, 6, 1 << 2, GrB_Row_assign (C, NULL, NULL, u, 1, GrB_ALL, n, NULL)) ;
    FAMILY ("apply", o, 6, 1 << 2, GrB_Matrix_apply (C, NULL, NULL, GrB_AINV_INT32, A, NULL)) ;
    FAMILY ("apply binop", o, 6, 1 << 2, GrB_Matrix_apply_BinaryOp2nd_INT32 (C, NULL, NULL, GrB_PLUS_INT32, A, 1, NULL)) ;
    FAMILY ("select", o, 6, 1 << 2, GrB_Matrix_select_INT32 (C, NULL, NULL, GrB_VALUEGT_INT32, A, 3, NULL)) ;
    FAMILY ("transpose", o, 6, 1 << 2, GrB_transpose (C, NULL, NULL, A, NULL)) ;
    FAMILY ("transpose in place", o, 6, 1 << 2, GrB_transpose (C, NULL, NULL, C, NULL)) ;
    FAMILY ("extract", o, 6, 1 << 2, GrB_Matrix_extract (C, NULL, NULL, A, GrB_ALL, n, GrB_ALL, n, NULL)) ;
    FAMILY ("col extract", o, 6, 1 << 4, GrB_Col_extract (w, NULL, NULL, A, GrB_ALL, n, 1, NULL)) ;
    FAMILY ("kronecker", o, 6, 1 << 2, GrB_Matrix_resize (C, n * n, n * n) == GrB_SUCCESS
        ? GrB_Matrix_kronecker_BinaryOp (C, NULL, NULL, GrB_TIMES_INT32, A, B, NULL) : GrB_PANIC) ;
    FAMILY ("resize", o, 6, 1 << 2, GrB_Matrix_resize (C, n, n)) ;
    FAMILY ("reduce to vector", o, 6, 1 << 4, GrB_Matrix_reduce_Monoid (w, NULL, NULL, GrB_PLUS_MONOID_INT32, A, NULL)) ;
    FAMILY ("reduce to scalar", o, 6, 1 << 5, GrB_Matrix_reduce_Monoid_Scalar (s, NULL, GrB_PLUS_MONOID_INT32, A, NULL)) ;
    FAMILY ("extractElement scalar", o, 6, 1 << 5, GrB_Matrix_extractElement_Scalar (s, A, 1, 1)) ;
    FAMILY ("mxm", o, 6, 1 << 2, GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_INT32, A, B, NULL)) ;
    FAMILY ("mxv", o, 6, 1 << 4, GrB_mxv (w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_INT32, A, u, NULL)) ;
    FAMILY ("eWiseAdd", o, 6, 1 << 2, GrB_Matrix_eWiseAdd_BinaryOp (C, NULL, NULL, GrB_PLUS_INT32, A, B, NULL)) ;
    FAMILY ("eWiseMult", o, 6, 1 << 2, GrB_Matrix_eWiseMult_BinaryOp (C, NULL, NULL, GrB_TIMES_INT32, A, B, NULL)) ;
    FAMILY ("eWiseUnion", o, 6, 1 << 2, GxB_Matrix_eWiseUnion (C, NULL, NULL, GrB_PLUS_INT32, A, s, B, s, NULL)) ;
    // GxB_Matrix_sort's A is non-const in GraphBLAS.h (sorted in place when
    // it is C): its copy goes too
    FAMILY ("sort", o, 6, 1 << 2 | 1 << 0, GxB_Matrix_sort (C, NULL, GrB_LT_INT32, A, NULL)) ;
    FAMILY ("reshape", o, 6, 1 << 2, GxB_Matrix_reshape (C, true, n / 2, n * 2, NULL)) ;
    FAMILY ("reshape back", o, 6, 1 << 2, GxB_Matrix_reshape (C, false, n, n, NULL)) ;
    FAMILY ("diag", o, 6, 1 << 4, GxB_Vector_diag (w, A, 0, NULL)) ;
    FAMILY ("option set (typed)", o, 6, 1 << 2, GxB_Matrix_Option_set_INT32 (C, GxB_FORMAT, GxB_BY_COL)) ;
    // storage options change no content: the copy stays (variadic, left out)
    FAMILY ("option set (variadic)", o, 6, 0, GxB_Matrix_Option_set (C, GxB_SPARSITY_CONTROL, GxB_BITMAP)) ;
    // reads leave every copy in place
    GrB_Index nv ;
    FAMILY ("nvals", o, 6, 0, GrB_Matrix_nvals (&nv, A)) ;
    int32_t fmt ;
    FAMILY ("option get", o, 6, 0, GxB_Matrix_Option_get_INT32 (A, GxB_FORMAT, &fmt)) ;
    GrB_Index ap, ai, ax ;
    FAMILY ("exportSize", o, 6, 0, GrB_Matrix_exportSize (&ap, &ai, &ax, GrB_CSR_FORMAT, A)) ;
    GrB_Index sz ;
    FAMILY ("serializeSize", o, 6, 0, GrB_Matrix_serializeSize (&sz, A)) ;
    // pack / unpack change the matrix
    GrB_Index *Ap = NULL, *Aj = NULL, Ap_size, Aj_size, Ax_size ;
    void *Ax = NULL ;
    bool iso, jumbled ;
    FAMILY ("unpack", o, 6, 1 << 2, GxB_Matrix_unpack_CSR (C, &Ap, &Aj, &Ax, &Ap_size, &Aj_size, &Ax_size, &iso, &jumbled, NULL)) ;
    FAMILY ("pack", o, 6, 1 << 2, GxB_Matrix_pack_CSR (C, &Ap, &Aj, &Ax, Ap_size, Aj_size, Ax_size, iso, jumbled, NULL)) ;

    // handles that are created, consumed or freed
    GrB_Matrix D = NULL ;
    OK (GrB_Matrix_dup (&D, A)) ;
    const void *od [2] = { A, D } ;
    FAMILY ("free", od, 2, 1 << 1, GrB_Matrix_free (&D)) ;
    CHECK (D == NULL, "freed") ;
    OK (GrB_Matrix_dup (&D, A)) ;
    od [1] = D ;
    GrB_Type type ;
    GrB_Index nrows, ncols ;
    FAMILY ("destructive export", od, 2, 1 << 1, GxB_Matrix_export_CSR (&D, &type, &nrows, &ncols, &Ap, &Aj, &Ax, &Ap_size, &Aj_size, &Ax_size, &iso, &jumbled, NULL)) ;
    free (Ap) ; free (Aj) ; free (Ax) ;
    GrB_Matrix_free (&C) ;
    GrB_Matrix_free (&A) ;
    GrB_Matrix_free (&B) ;
    GrB_Vector_free (&u) ;
    GrB_Vector_free (&w) ;
    GrB_Scalar_free (&s) ;
    check_empty ("families") ;
}

// A freed handle whose address a new object reuses never sees the old copy:
// neither a published one, nor one that was being built when it was freed.
static void test_reuse (void)
{
    int reused = 0 ;
    for (int trial = 0 ; trial < 50 ; trial++)
    {
        GrB_Matrix A = NULL, B = NULL ;
        OK (GrB_Matrix_new (&A, GrB_FP64, 10, 10)) ;
        void *addr = A ;
        OK (put (A, GCU_RES_CSR, 8, 1)) ;
        gcu_res_entry *e ;
        OK (gcu_residency_begin (A, GCU_RES_CSC, &e)) ;
        void *p ;
        OK (gcu_residency_alloc (e, 8, &p)) ;
        OK (GrB_Matrix_free (&A)) ;
        OK (GrB_Matrix_new (&B, GrB_FP64, 10, 10)) ;
        reused += ((void *) B == addr) ;
        CHECK (gcu_residency_publish (e) == GrB_NO_VALUE, "build of a freed handle published") ;
        gcu_residency_unpin (e) ;
        CHECK (!has (B, GCU_RES_CSR) && !has (B, GCU_RES_CSC), "new object saw an old copy") ;
        // a build started on the new object is fine
        OK (put (B, GCU_RES_CSR, 8, 2)) ;
        CHECK (has (B, GCU_RES_CSR) == 3, "new object's own copy") ;
        OK (GrB_Matrix_free (&B)) ;
    }
    printf ("free-then-new reused the address in %d of 50 trials\n", reused) ;
    check_empty ("reuse") ;
}

//------------------------------------------------------------------------------
// 8 threads
//------------------------------------------------------------------------------

// Each fake object has a version and a reader/writer lock: writers change the
// object (version++) and invalidate, as a mutating GraphBLAS call does;
// readers use the cache, as a GPU call does. GraphBLAS forbids changing an
// object while another thread reads it, and the locks model that; under it,
// every hit must carry the current version.
#define NOBJ 16
static pthread_rwlock_t olock [NOBJ] ;
static uint64_t oversion [NOBJ] ;
static char OB [NOBJ] ;
static _Atomic long long wrong, hits_seen ;

static void *worker (void *arg)
{
    uint64_t st = (uint64_t) (uintptr_t) arg * 7919 + 1 ;
    for (int it = 0 ; it < 20000 ; it++)
    {
        int k = (int) (gcu_rand (&st) % NOBJ) ;
        int kind = (int) (gcu_rand (&st) % 2) + GCU_RES_CSR ;
        if (gcu_rand (&st) % 8 == 0)
        {
            pthread_rwlock_wrlock (&olock [k]) ;
            oversion [k]++ ;
            gcu_residency_invalidate (&OB [k]) ;
            pthread_rwlock_unlock (&olock [k]) ;
            continue ;
        }
        pthread_rwlock_rdlock (&olock [k]) ;
        uint64_t v = oversion [k] ;
        gcu_res_entry *e = NULL ;
        GrB_Info info = gcu_residency_acquire (&OB [k], kind, &e) ;
        if (info == GrB_SUCCESS)
        {
            atomic_fetch_add (&hits_seen, 1) ;
            gcu_res_data *d = gcu_residency_data (e) ;
            if (d->nvals != v || *(uint64_t *) d->buf [0] != v) atomic_fetch_add (&wrong, 1) ;
            if (gcu_rand (&st) % 4 == 0)
            {
                gcu_res_entry *c = NULL ;
                if (gcu_residency_derived_lookup (e, GCU_RES_DERIVED_TRANSPOSE, &c) == GrB_SUCCESS)
                {
                    if (gcu_residency_data (c)->nvals != v) atomic_fetch_add (&wrong, 1) ;
                    gcu_residency_unpin (c) ;
                }
                else if (gcu_residency_derived_begin (e, GCU_RES_DERIVED_TRANSPOSE, &c) == GrB_SUCCESS)
                {
                    void *p ;
                    if (gcu_residency_alloc (c, 24, &p) == GrB_SUCCESS)
                    {
                        gcu_residency_data (c)->nvals = v ;
                        (void) gcu_residency_publish (c) ;
                    }
                    gcu_residency_unpin (c) ;
                }
            }
        }
        else if (info == GrB_NO_VALUE)
        {
            void *p ;
            size_t bytes = 8 + 8 * (gcu_rand (&st) % 40) ;
            if (gcu_residency_alloc (e, bytes, &p) == GrB_SUCCESS)
            {
                *(uint64_t *) p = v ;
                gcu_residency_data (e)->nvals = v ;
                (void) gcu_residency_publish (e) ;
            }
        }
        else atomic_fetch_add (&wrong, 1) ;
        gcu_residency_unpin (e) ;
        pthread_rwlock_unlock (&olock [k]) ;
    }
    return NULL ;
}

static void test_threads (void)
{
    OK (gcu_residency_set_budget (2000)) ;     // small: evictions all the time
    for (int k = 0 ; k < NOBJ ; k++) pthread_rwlock_init (&olock [k], NULL) ;
    pthread_t t [8] ;
    for (int k = 0 ; k < 8 ; k++) pthread_create (&t [k], NULL, worker, (void *) (uintptr_t) (k + 1)) ;
    for (int k = 0 ; k < 8 ; k++) pthread_join (t [k], NULL) ;
    gcu_res_stats st ;
    gcu_residency_stats (&st) ;
    CHECK (atomic_load (&wrong) == 0, "%lld stale or failed lookups", atomic_load (&wrong)) ;
    CHECK (st.bytes_peak <= 2000, "budget exceeded: peak %zu", st.bytes_peak) ;
    CHECK (atomic_load (&hits_seen) > 1000 && st.evictions > 100 && st.invalidations > 100,
        "exercised: hits %lld evictions %llu invalidations %llu", atomic_load (&hits_seen),
        (unsigned long long) st.evictions, (unsigned long long) st.invalidations) ;
    printf ("threads: hits %llu misses %llu publishes %llu stale %llu evictions %llu "
        "invalidations %llu peak %zu bytes\n", (unsigned long long) st.hits,
        (unsigned long long) st.misses, (unsigned long long) st.publishes,
        (unsigned long long) st.stale, (unsigned long long) st.evictions,
        (unsigned long long) st.invalidations, st.bytes_peak) ;
    gcu_residency_clear_all () ;
    check_empty ("threads") ;
}

// Tracking counts invalidations per handle; off, the fast path is back.
static void test_tracking (void)
{
    CHECK (gcu_residency_epoch (&H [40]) == 0, "no epoch untracked") ;
    gcu_residency_track (true) ;
    gcu_residency_invalidate (&H [40]) ;
    gcu_residency_invalidate (&H [40]) ;
    gcu_residency_invalidate (&H [41]) ;
    CHECK (gcu_residency_epoch (&H [40]) == 2 && gcu_residency_epoch (&H [41]) == 1
        && gcu_residency_epoch (&H [42]) == 0, "epochs") ;
    gcu_residency_track (false) ;
    CHECK (gcu_residency_epoch (&H [40]) == 0, "forgotten") ;
    check_empty ("tracking") ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    test_parse () ;
    test_basic () ;
    test_lru () ;
    test_derived () ;
    test_families () ;
    test_reuse () ;
    test_tracking () ;
    test_threads () ;
    OK (gcu_residency_set_allocator (NULL)) ;
    GrB_finalize () ;
    return gcu_test_report ("test_residency_cache") ;
}
