// gcu_residency.h — device copies of GraphBLAS objects, keyed by handle
// (DESIGN §3). SuiteSparse owns every object; a cached copy is valid until
// the object changes, and every GraphBLAS function that can change one calls
// gcu_residency_invalidate on it (the generated wrappers, src/api/gen_wrappers.py,
// and the hand-written entry points in src/api for their outputs).
//
// How a GPU call uses it (one operand):
//
//     gcu_res_entry *e ;
//     if (gcu_residency_acquire (A, GCU_RES_CSR, &e) == GrB_NO_VALUE)
//     {
//         // miss: e is a new private entry, pinned, recording A's generation
//         gcu_residency_alloc (e, bytes, &dptr) ... upload ... fill *gcu_residency_data (e)
//         gcu_residency_publish (e) ;   // visible to later calls unless A
//     }                                 // changed meanwhile
//     ... run the kernel on gcu_residency_data (e) ...
//     gcu_residency_unpin (e) ;
//
// Entries in use (pinned) are never evicted nor freed; an entry invalidated
// while pinned is detached at once (no lookup sees it again) and freed at its
// last unpin. Derived data (a transpose, row statistics, ASpT tiles, an SpMV
// format choice) is an entry attached to another and dies with it.
//
// Device memory comes from an allocator (gcu_res_allocator): the GPU code
// installs cudaMalloc/cudaFree, the CPU tests a host allocator. Usage stays
// within a budget: GRBCUDA_DEVICE_MEMORY ("8G", "512M", "1.5T", "4096K",
// plain bytes, a fraction of the device's memory such as "0.5", or "50%");
// default 0.5 of the device's memory, which leaves the other half for the
// kernels' temporary storage and for other users of the GPU (1 GiB when the
// allocator does not know the device's size). Least recently used entries
// are evicted to make room.
//
// All functions are thread-safe. Internal header (C and C++): never installed.
#ifndef GCU_RESIDENCY_H
#define GCU_RESIDENCY_H

#include <GraphBLAS.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//------------------------------------------------------------------------------
// invalidation: called by every GraphBLAS function that can change an object
//------------------------------------------------------------------------------

// Drops every device copy and derived data held for this handle (a
// GrB_Matrix, GrB_Vector or GrB_Scalar), and makes any copy being built from
// it unpublishable. A NULL handle is ignored. When the cache knows no handle
// at all (nothing cached, nothing being built) this is one relaxed atomic
// load and a branch: no lock, no hashing. Relaxed is enough: a copy made
// before the mutating call (in the same thread, or in one that synchronised
// with it, as GraphBLAS requires) is seen by the load through coherence.
void gcu_residency_invalidate_slow (const void *handle) ;

#ifndef __cplusplus
#include <stdatomic.h>
// Number of handles the table holds (with copies or builds in flight), plus
// one while tracking is on. Private to src/residency; read here for speed.
extern _Atomic size_t gcu_residency_watch_ ;

static inline __attribute__ ((always_inline)) void gcu_residency_invalidate (const void *handle)
{
    if (atomic_load_explicit (&gcu_residency_watch_, memory_order_relaxed) != 0)
    {
        gcu_residency_invalidate_slow (handle) ;
    }
}

// A new object at handle (a creating function's output, the generated
// wrappers): invalidated, and the write-back history of an earlier object
// at the same address forgotten (gcu_residency_writeback_share). One more
// relaxed load when no history is kept.
void gcu_residency_born_slow (const void *handle) ;
extern _Atomic size_t gcu_residency_fates_ ;     // histories kept (newest.c)
static inline __attribute__ ((always_inline)) void gcu_residency_born (const void *handle)
{
    gcu_residency_invalidate (handle) ;
    if (atomic_load_explicit (&gcu_residency_fates_, memory_order_relaxed) != 0)
    {
        gcu_residency_born_slow (handle) ;
    }
}
#else
// C++ (CUDA host code) has no _Atomic: the out-of-line form does the same
// check first.
static inline __attribute__ ((always_inline)) void gcu_residency_invalidate (const void *handle)
{
    gcu_residency_invalidate_slow (handle) ;
}
#endif

//------------------------------------------------------------------------------
// device newest values (DESIGN §3)
//------------------------------------------------------------------------------

// A GPU call that leaves its result on the device publishes the result's
// entry as the output handle's newest value: the SuiteSparse object is stale from then on, until the materializer writes the
// device value into it. Every GraphBLAS function that reads the object
// materializes it first (the generated wrappers, the entry points' host
// path, the export of an operand), through gcu_residency_materialize.
//
// States of a handle: host only (no entry); both valid (published entries,
// none newest); device newest (one published entry is newest). Eviction
// materializes a newest value before it drops it; an invalidate (the object
// changed, was cleared or freed) drops it unwritten.
typedef struct gcu_res_entry gcu_res_entry ;

// Writes e's value into the object `handle` (with GraphBLAS calls: on this
// thread they neither materialize nor invalidate `handle`, so the entry
// stays, now a copy of a valid host object). GrB_SUCCESS, or any error:
// then the object must be as it was, and the entry stays newest.
typedef GrB_Info (*gcu_res_materializer) (const void *handle, gcu_res_entry *e) ;

// Publishes e, a top-level entry being built (gcu_residency_begin), as its
// handle's newest value: the object's value is replaced, so every other copy
// of the handle is dropped (an older newest value unwritten) and builds of
// the old value in flight can no longer be published. Only once the result
// is complete: until then the old value (maybe newest, maybe an operand of
// the same call) must stay. GrB_INVALID_VALUE if e is not being built.
GrB_Info gcu_residency_publish_newest (gcu_res_entry *e, gcu_res_materializer fn) ;

// Claims e (the caller's pinned lookup of its handle's newest value) for a
// change in place, the exception to a published entry being read-only:
// GrB_SUCCESS when e is still the newest value and the handle's only entry,
// with no derived entries, no other pin, no build in flight and no
// materializer running, else GCU_NOT_HANDLED (the caller builds a new
// entry). The caller then writes e's buffers (stream ordered: kernels queued
// before that read them run first) and gives its new entry count with
// gcu_residency_newest_set_nvals before it unpins e. A GraphBLAS object is
// not read by one thread while another writes it, so no other thread reads
// e meanwhile.
GrB_Info gcu_residency_newest_claim (gcu_res_entry *e) ;
void gcu_residency_newest_set_nvals (gcu_res_entry *e, uint64_t nvals) ;

// If `handle` is device newest: runs its materializer (one thread at a time;
// others wait for it) and returns its status. GrB_SUCCESS when there is
// nothing to do. why: who reads it (a GraphBLAS function's name, "eviction"),
// for the verbose log. Thread-safe.
GrB_Info gcu_residency_materialize_slow (const void *handle, const char *why) ;

// true (and *nvals, the device value's entry count) if `handle` is device
// newest: nvals and similar queries answer without a download.
bool gcu_residency_newest_nvals_slow (const void *handle, uint64_t *nvals) ;

// The share of handle's device-newest values that were written back into
// its object (read on the host, evicted) rather than replaced or dropped
// unwritten: a running mean over their ends, the latest weighing most. For
// a handle none of whose values has ended yet, the same over the values
// that calls of kind site left (a program that makes its result anew in
// each call: LAGraph's connected components applies a ramp to a new y that
// its host mxv reads at once); 0 where neither is known (auto mode charges
// a result left on the device this share of its download, predict.c).
double gcu_residency_writeback_share (const void *handle, uint64_t site) ;

// The mirror for values the host writes: gcu_residency_trip_host (v) when
// a call that auto mode could have sent to the GPU wrote vector v on the
// host, gcu_residency_trip_up (v) when a GPU call uploads v's host value.
// gcu_residency_trip_share (v): how often v's host values went up before
// the host wrote v again (a running mean, 0 where not known); auto mode
// charges a host call that writes v this share of v's upload (predict.c).
void gcu_residency_trip_host (const void *handle) ;
void gcu_residency_trip_up (const void *handle) ;
double gcu_residency_trip_share (const void *handle) ;

// The kind of call (gcu_cost_site_key) whose results the calling thread
// leaves device newest from now on, until the next swap: the dispatch sets
// it around a GPU family's run (0: none). Returns the one it replaces.
uint64_t gcu_residency_site_swap (uint64_t site) ;

// How many later calls found the copies of handle's last value that ended
// (its uploads, before the object changed, was freed or evicted): -1 when
// none is known. Auto mode does not buy by its likeness to a paid matrix
// (gcu_cost_sig_paid) an upload of one whose last copy served none
// (predict.c).
double gcu_residency_copy_hits (const void *handle) ;

#ifndef __cplusplus
// Handles that are device newest now. Private to src/residency.
extern _Atomic size_t gcu_residency_newest_ ;

// false when no object is device newest: one relaxed load (as for
// invalidate, a value published before the reading call is seen through
// coherence). Every pass-through call pays only such loads.
static inline __attribute__ ((always_inline)) bool gcu_residency_any_newest (void)
{
    return atomic_load_explicit (&gcu_residency_newest_, memory_order_relaxed) != 0 ;
}

static inline __attribute__ ((always_inline)) GrB_Info gcu_residency_materialize (const void *handle, const char *why)
{
    if (!gcu_residency_any_newest ()) return GrB_SUCCESS ;
    return gcu_residency_materialize_slow (handle, why) ;
}

static inline __attribute__ ((always_inline)) bool gcu_residency_newest_nvals (const void *handle, uint64_t *nvals)
{
    if (!gcu_residency_any_newest ()) return false ;
    return gcu_residency_newest_nvals_slow (handle, nvals) ;
}
#else
// C++: the out-of-line forms do the same check first.
static inline __attribute__ ((always_inline)) GrB_Info gcu_residency_materialize (const void *handle, const char *why)
{
    return gcu_residency_materialize_slow (handle, why) ;
}
static inline __attribute__ ((always_inline)) bool gcu_residency_newest_nvals (const void *handle, uint64_t *nvals)
{
    return gcu_residency_newest_nvals_slow (handle, nvals) ;
}
#endif

//------------------------------------------------------------------------------
// device memory
//------------------------------------------------------------------------------

typedef struct
{
    // GrB_SUCCESS and *p, or any other status (treated as out of memory:
    // the cache evicts more and retries, then gives up).
    GrB_Info (*alloc) (void *ctx, size_t bytes, void **p) ;
    void (*free) (void *ctx, void *p, size_t bytes) ;
    void *ctx ;
    size_t capacity ;       // total memory of the device, for fractional
                            // budgets; 0 if unknown
    const char *name ;      // for the log
}
gcu_res_allocator ;

// Installs the allocator (copied; NULL: none, every gcu_residency_alloc then
// returns GCU_NOT_HANDLED). Drops every entry first; entries still pinned
// are freed by the allocator that made them, at their last unpin. The budget
// is recomputed from GRBCUDA_DEVICE_MEMORY and the new capacity unless one
// was set with gcu_residency_set_budget.
GrB_Info gcu_residency_set_allocator (const gcu_res_allocator *a) ;

// malloc/free, capacity = the machine's physical memory (CPU tests).
const gcu_res_allocator *gcu_residency_host_allocator (void) ;

// The budget in bytes; setting it evicts unpinned entries down to it.
GrB_Info gcu_residency_set_budget (size_t bytes) ;
size_t gcu_residency_budget (void) ;

// Parses a GRBCUDA_DEVICE_MEMORY value: "<number>[K|M|G|T][B|iB]" (binary
// units), plain bytes, a fraction in (0, 1] ("0.5", "1") or a percentage
// ("50%") of capacity. GrB_INVALID_VALUE if malformed, or a fraction with
// capacity 0.
GrB_Info gcu_residency_parse_size (const char *s, size_t capacity,
    size_t *bytes) ;

//------------------------------------------------------------------------------
// entries
//------------------------------------------------------------------------------

// Kinds of device data. A handle has at most one entry of each kind; derived
// kinds hang off an entry. Numbers are free for callers from GCU_RES_USER.
typedef enum
{
    GCU_RES_CSR = 1,            // matrix by row: ptr, idx, val (see gcu_export.h)
    GCU_RES_CSC = 2,            // matrix by column (the CSR of the transpose)
    GCU_RES_VECTOR_SPARSE = 3,  // vector: idx, val
    GCU_RES_VECTOR_DENSE = 4,   // vector: bitmap (or none when full), val
    GCU_RES_BITMAP = 5,         // matrix as bitmap + dense values
    GCU_RES_FULL = 6,           // matrix as dense values
    // derived data, attached to one of the above
    GCU_RES_DERIVED_TRANSPOSE = 64,
    GCU_RES_DERIVED_ROWSTATS = 65,
    GCU_RES_DERIVED_ASPT = 66,
    GCU_RES_DERIVED_SPMV = 67,
    GCU_RES_DERIVED_SELL = 68,      // the SpMV sell variant's sliced copy of a matrix
    GCU_RES_DERIVED_HUB = 69,       // the SpMV hub order of a matrix's columns
    GCU_RES_USER = 128
}
gcu_res_kind ;

#define GCU_RES_MAX_BUFS 4

// What an entry holds. The builder fills it between begin and publish;
// after publish it is read-only (any thread may read it while pinned).
typedef struct
{
    void *buf [GCU_RES_MAX_BUFS] ;      // device buffers, in allocation order
    size_t bytes [GCU_RES_MAX_BUFS] ;
    int nbuf ;
    // description of the data (filled by the builder)
    uint64_t nrows, ncols, nvals ;
    int idx_bits ;                      // 32 or 64
    size_t type_size ;
    GrB_Type type ;
    bool iso ;
    // a result left on the device: the iso status SuiteSparse would have
    // given it (gcu_iso_call_result); its materializer writes it back iso,
    // with suite_value (of type, at most 16 bytes), where suite_iso is true
    bool suite_iso ;
    uint64_t suite_value [2] ;
    int layout ;                        // free for the builder
    // optional host-side data, freed with the entry (e.g. an SpMV choice)
    void *host ;
    void (*host_free) (void *host) ;
}
gcu_res_data ;

// gcu_res_data.layout of a matrix's CSR (or CSC) copy made by the GPU
// families (operands and results left on the device): buf [0] row (or
// column) pointers, buf [1] indices, both uint32_t when idx_bits is 32,
// uint64_t when 64; buf [2] the values (one when iso).
#define GCU_RES_LAYOUT_CSR 0x6d786d31

// How an operand got to the device in this call (the
// families' operands: matrices, src/mxm; vectors, src/vector).
typedef enum
{
    GCU_OPERAND_NONE = 0,
    GCU_OPERAND_HIT,        // the cache's copy, made by an earlier call
    GCU_OPERAND_MISS,       // exported, uploaded, and published in the cache
    GCU_OPERAND_PRIVATE,    // exported and uploaded for this call only (the
                            // cache cannot hold it: budget, no allocator)
    GCU_OPERAND_SHARED      // the same object and layout as another operand
}
gcu_operand_how ;

gcu_res_data *gcu_residency_data (gcu_res_entry *e) ;
// If `handle` is device newest: true and *d a copy of its newest value's
// description (its buffers not to be read: the entry is not pinned).
bool gcu_residency_newest_data (const void *handle, gcu_res_data *d) ;
// The calls that GPU families left to the host because SuiteSparse's iso
// status of the result was not known there (iso_status.c; tests)
uint64_t gcu_iso_declined (void) ;
const void *gcu_residency_handle (const gcu_res_entry *e) ;

// Hit: GrB_SUCCESS and *e pinned (and now the most recently used).
// Miss: GrB_NO_VALUE and *e = NULL.
GrB_Info gcu_residency_lookup (const void *handle, int kind, gcu_res_entry **e) ;
// The same, left out of the hit and miss statistics: a probe for data to
// derive another copy from (gcu_operand_get's device transpose), not a use
// of an operand.
GrB_Info gcu_residency_peek (const void *handle, int kind, gcu_res_entry **e) ;

// Starts building a copy: *e is a new private entry, pinned, that remembers
// the handle's generation; a later invalidate of the handle makes it
// unpublishable. GrB_OUT_OF_MEMORY (host memory) or GrB_NULL_POINTER.
GrB_Info gcu_residency_begin (const void *handle, int kind, gcu_res_entry **e) ;

// lookup, and on a miss begin, under one lock: GrB_SUCCESS (hit, *e pinned
// and ready) or GrB_NO_VALUE (miss, *e is a new entry to fill and publish).
GrB_Info gcu_residency_acquire (const void *handle, int kind, gcu_res_entry **e) ;

// Allocates a device buffer owned by the entry being built (at most
// GCU_RES_MAX_BUFS), evicting least recently used unpinned entries so that
// the total stays within the budget. GrB_OUT_OF_MEMORY if it cannot (the
// caller then computes on the host), GCU_NOT_HANDLED if no allocator is
// installed, GrB_INVALID_VALUE if e is already published or full.
GrB_Info gcu_residency_alloc (gcu_res_entry *e, size_t bytes, void **p) ;

// Makes a built entry visible to lookups (replacing an older entry of the
// same kind). GrB_SUCCESS; or GrB_NO_VALUE if the handle was invalidated
// since begin: the entry stays private (still usable by its builder, which
// read the object before the change) and is freed at its last unpin.
// Derived entries attach to their parent (GrB_SUCCESS) whatever its state.
// The entry stays pinned by the caller either way.
GrB_Info gcu_residency_publish (gcu_res_entry *e) ;

// Pins count uses; a pinned entry (or one with a pinned derived entry) is
// never evicted. Pinning a derived entry also pins its parent.
void gcu_residency_pin (gcu_res_entry *e) ;
void gcu_residency_unpin (gcu_res_entry *e) ;

// Derived data of a pinned parent entry: lookup (pins the child, and so the
// parent, on a hit) and begin (a new private child, filled with
// gcu_residency_alloc and attached by gcu_residency_publish).
GrB_Info gcu_residency_derived_lookup (gcu_res_entry *parent, int kind,
    gcu_res_entry **child) ;
GrB_Info gcu_residency_derived_begin (gcu_res_entry *parent, int kind,
    gcu_res_entry **child) ;

// Drops every entry (GrB_finalize): unpinned ones are freed now, pinned ones
// at their last unpin.
void gcu_residency_clear_all (void) ;

#define GCU_RES_READERS 8
typedef struct
{
    uint64_t hits, misses, publishes, stale, evictions, invalidations ;
    uint64_t newest ;               // handles device newest now
    uint64_t materializations ;     // newest values written into their objects
    uint64_t materialized_bytes ;   // ... the device bytes they held
    uint64_t materialize_failures ; // materializers that failed (value kept)
    uint64_t discards ;             // newest values dropped unwritten (the
                                    // object changed, was cleared or freed)
    // the write-backs by who read the value (the first GCU_RES_READERS
    // names seen, as materialize's why: a GraphBLAS function's name,
    // "eviction"); the rest in other_*
    struct { const char *why ; uint64_t n, bytes ; } readers [GCU_RES_READERS] ;
    uint64_t other_n, other_bytes ;
    size_t entries ;            // published top-level entries
    size_t bytes_used ;         // every buffer allocated and not yet freed
    size_t bytes_peak ;
    size_t budget ;
    size_t handles ;            // handles the table holds (gcu_residency_watch_)
}
gcu_res_stats ;

void gcu_residency_stats (gcu_res_stats *s) ;

//------------------------------------------------------------------------------
// test hooks
//------------------------------------------------------------------------------

// While tracking is on, every invalidate takes the slow path and counts,
// per handle, how many times it was invalidated (gcu_residency_epoch); off
// forgets the counts. For tests only: it costs the fast path.
void gcu_residency_track (bool on) ;
uint64_t gcu_residency_epoch (const void *handle) ;

#ifdef __cplusplus
}
#endif

#endif
