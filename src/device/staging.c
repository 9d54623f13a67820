// staging.c — pipelined host<->device copies through a pool of pinned
// staging buffers (gcu_staging.h says what and why). One copy:
//
//   host -> device   for each chunk c: wait until the DMA that last read
//                    chunk c's buffer is done, convert chunk c from the
//                    pageable source into the buffer (OpenMP threads), queue
//                    its DMA and record the buffer's event; the conversion of
//                    chunk c+1 overlaps the DMA of chunk c.
//   device -> host   queue the first DMAs (one per buffer); for each chunk c:
//                    wait for its event, convert it out of its buffer into
//                    the pageable destination (the threads that write a page
//                    first own it: parallel first touch), queue the DMA of
//                    chunk c+depth into the buffer just emptied; the DMAs of
//                    the following chunks overlap the conversion of chunk c.
//
// Without CUDA in the build every copy reports GrB_PANIC (never reached: no
// GPU path runs in such a build).
#include "gcu_staging.h"
#include "gcu_util.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#else
// Without OpenMP the conversions run on the calling thread; the pragmas
// below are ignored.
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#endif
#if GRBCUDA_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

//------------------------------------------------------------------------------
// statistics (atomics: copies of several threads count at once)
//------------------------------------------------------------------------------

static struct
{
    _Atomic uint64_t h2d_calls, d2h_calls, h2d_bytes, d2h_bytes ;
    _Atomic uint64_t h2d_ns, d2h_ns, chunks, direct, bounce ;
}
S ;

void gcu_staging_stats_reset (void)
{
    atomic_store (&S.h2d_calls, 0) ; atomic_store (&S.d2h_calls, 0) ;
    atomic_store (&S.h2d_bytes, 0) ; atomic_store (&S.d2h_bytes, 0) ;
    atomic_store (&S.h2d_ns, 0) ; atomic_store (&S.d2h_ns, 0) ;
    atomic_store (&S.chunks, 0) ; atomic_store (&S.direct, 0) ;
    atomic_store (&S.bounce, 0) ;
}

static void stats_common (gcu_staging_stats_t *st)
{
    memset (st, 0, sizeof (*st)) ;
    st->h2d_calls = atomic_load (&S.h2d_calls) ;
    st->d2h_calls = atomic_load (&S.d2h_calls) ;
    st->h2d_bytes = atomic_load (&S.h2d_bytes) ;
    st->d2h_bytes = atomic_load (&S.d2h_bytes) ;
    st->h2d_seconds = 1e-9 * (double) atomic_load (&S.h2d_ns) ;
    st->d2h_seconds = 1e-9 * (double) atomic_load (&S.d2h_ns) ;
    st->chunks = atomic_load (&S.chunks) ;
    st->direct = atomic_load (&S.direct) ;
    st->bounce = atomic_load (&S.bounce) ;
}

#if GRBCUDA_HAVE_CUDA

//------------------------------------------------------------------------------
// conversions on the host
//------------------------------------------------------------------------------

// Below this many bytes per thread, more threads cost more than they copy
// (and a huge page of a fresh destination is one thread's to fault).
#define GCU_STAGING_GRAIN ((size_t) 2 << 20)
// Destinations at least this large are advised to use huge pages.
#define GCU_STAGING_HUGE_MIN ((size_t) 8 << 20)

static bool widths_ok (int sb, int db)
{
    if (sb == db) return sb >= 1 ;
    return (sb == 8 && db == 4) || (sb == 4 && db == 8) ;
}

static void convert_range (void *dst, const void *src, size_t n, int sb, int db)
{
    if (sb == db)
    {
        memcpy (dst, src, n * (size_t) sb) ;
    }
    else if (sb == 8)
    {
        // narrowing: the values fit (the caller checked the dimensions)
        const uint64_t *restrict x = src ;
        uint32_t *restrict y = dst ;
        for (size_t i = 0 ; i < n ; i++) y [i] = (uint32_t) x [i] ;
    }
    else
    {
        const uint32_t *restrict x = src ;
        uint64_t *restrict y = dst ;
        for (size_t i = 0 ; i < n ; i++) y [i] = x [i] ;
    }
}

static int threads_for (size_t bytes)
{
#ifdef _OPENMP
    int nth = gcu_thread_host_count (omp_get_max_threads ()) ;
    size_t most = bytes / GCU_STAGING_GRAIN ;
    if (most < (size_t) nth) nth = (most < 1) ? 1 : (int) most ;
    return nth ;
#else
    (void) bytes ;
    return 1 ;
#endif
}

// One chunk (at most one staging buffer, so n * width stays far from
// overflow), split over the threads: one memory stream alone does not
// saturate the host's bandwidth, and each thread first-touches its own part
// of a fresh destination. The parts start on 2 MiB boundaries of the
// destination: two threads never fault the same huge page (the second would
// wait for the first to clear it).
#define GCU_STAGING_HUGE ((uintptr_t) 2 << 20)
static void convert (void *dst, const void *src, size_t n, int sb, int db)
{
    const size_t w = (size_t) (sb > db ? sb : db) ;
    const int nth = threads_for (n * w) ;
    if (nth <= 1)
    {
        convert_range (dst, src, n, sb, db) ;
        return ;
    }
    #pragma omp parallel for num_threads(nth) schedule(static)
    for (int t = 0 ; t < nth ; t++)
    {
        size_t lo = n * (size_t) t / (size_t) nth ;
        size_t hi = n * (size_t) (t + 1) / (size_t) nth ;
        // each boundary moved up to the next huge page of dst
        const uintptr_t d0 = (uintptr_t) dst ;
        if (t > 0)
        {
            uintptr_t a = (d0 + lo * (size_t) db + GCU_STAGING_HUGE - 1) & ~(GCU_STAGING_HUGE - 1) ;
            lo = (size_t) ((a - d0 + (size_t) db - 1) / (size_t) db) ;
        }
        if (t < nth - 1)
        {
            uintptr_t b = (d0 + hi * (size_t) db + GCU_STAGING_HUGE - 1) & ~(GCU_STAGING_HUGE - 1) ;
            hi = (size_t) ((b - d0 + (size_t) db - 1) / (size_t) db) ;
        }
        if (lo > n) lo = n ;
        if (hi > n) hi = n ;
        if (hi > lo)
            convert_range ((char *) dst + lo * (size_t) db,
                (const char *) src + lo * (size_t) sb, hi - lo, sb, db) ;
    }
}

// A fresh destination of many MiB costs one page fault per 4 KiB page on its
// first touch; with huge pages one per 2 MiB. Advisory: failure is ignored.
static void advise_huge (void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (bytes < GCU_STAGING_HUGE_MIN) return ;
    long pg = sysconf (_SC_PAGESIZE) ;
    if (pg <= 0) return ;
    uintptr_t a = ((uintptr_t) p + (uintptr_t) pg - 1) & ~((uintptr_t) pg - 1) ;
    uintptr_t b = ((uintptr_t) p + bytes) & ~((uintptr_t) pg - 1) ;
    if (b > a) (void) madvise ((void *) a, b - a, MADV_HUGEPAGE) ;
#else
    (void) p ; (void) bytes ;
#endif
}

//------------------------------------------------------------------------------
// the pool
//------------------------------------------------------------------------------

typedef struct
{
    void *buf ;             // pinned, P.bytes (or its size when made)
    cudaEvent_t ev ;        // recorded after each DMA into or out of buf
    bool busy ;             // checked out by a copy
    bool drop ;             // released while out: freed when it comes back
}
slot_t ;

static struct
{
    pthread_mutex_t lock ;
    bool made ;             // the pool was made (or failed) since the last release
    bool making ;           // gcu_staging_prepare is pinning it (copies use what is in)
    unsigned gen ;          // releases and reconfigurations so far
    int want ;              // buffers the pool should have
    size_t bytes ;          // of each
    size_t direct ;         // plain copies below this many bytes go directly
    slot_t slot [GCU_STAGING_NBUF] ;
    bool warned ;
}
P = { .lock = PTHREAD_MUTEX_INITIALIZER, .want = GCU_STAGING_NBUF,
      .bytes = GCU_STAGING_BYTES, .direct = GCU_STAGING_DIRECT } ;

static GrB_Info cuda_status (cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return GrB_SUCCESS ;
    (void) cudaGetLastError () ;    // clear a non-sticky error
    gcu_log ("%s failed: %s", what, cudaGetErrorString (e)) ;
    return (e == cudaErrorMemoryAllocation) ? GrB_OUT_OF_MEMORY : GrB_PANIC ;
}

static void slot_free (slot_t *sl)
{
    if (sl->buf != NULL) (void) cudaFreeHost (sl->buf) ;
    if (sl->ev != NULL) (void) cudaEventDestroy (sl->ev) ;
    (void) cudaGetLastError () ;
    memset (sl, 0, sizeof (*sl)) ;
}

// a pinned buffer of bytes and its event, or neither (the error returned)
static cudaError_t slot_pin (size_t bytes, void **buf, cudaEvent_t *ev)
{
    *buf = NULL ;
    *ev = NULL ;
    cudaError_t e = cudaHostAlloc (buf, bytes, cudaHostAllocPortable) ;
    if (e == cudaSuccess && (e = cudaEventCreateWithFlags (ev, cudaEventDisableTiming)) != cudaSuccess)
        (void) cudaFreeHost (*buf) ;
    if (e != cudaSuccess) { *buf = NULL ; *ev = NULL ; (void) cudaGetLastError () ; }
    return e ;
}

// Under the lock: makes the pool's buffers once. Pinning is slow (the pages
// are locked one by one) and done once per process, not per call; it is not
// a counted operation for fault injection, since only the first call would
// count it. A failure leaves fewer buffers (or none: every copy takes the
// fallback) and is logged once.
static void pool_make (void)
{
    if (P.made) return ;
    P.made = true ;
    int have = 0 ;
    for (int k = 0 ; k < GCU_STAGING_NBUF ; k++)
        have += (P.slot [k].buf != NULL && !P.slot [k].drop) ;
    for (int k = 0 ; k < GCU_STAGING_NBUF && have < P.want ; k++)
    {
        slot_t *sl = &P.slot [k] ;
        if (sl->buf != NULL) continue ;     // one still out from before a release
        void *buf ;
        cudaEvent_t ev ;
        const cudaError_t e = slot_pin (P.bytes, &buf, &ev) ;
        if (e != cudaSuccess)
        {
            if (!P.warned)
            {
                gcu_log ("staging: pinned buffer %d of %zu bytes: %s; copies "
                    "take the slower path", k, P.bytes, cudaGetErrorString (e)) ;
                P.warned = true ;
            }
            break ;
        }
        sl->buf = buf ;
        sl->ev = ev ;
        have++ ;
    }
}

// Takes up to want free buffers (making the pool first); returns how many.
static int checkout (int want, slot_t *out [], size_t *bytes)
{
    int n = 0 ;
    pthread_mutex_lock (&P.lock) ;
    if (!P.making) pool_make () ;
    *bytes = P.bytes ;
    for (int k = 0 ; k < GCU_STAGING_NBUF && n < want ; k++)
    {
        slot_t *sl = &P.slot [k] ;
        if (sl->buf == NULL || sl->busy || sl->drop) continue ;
        sl->busy = true ;
        out [n++] = sl ;
    }
    pthread_mutex_unlock (&P.lock) ;
    return n ;
}

static void checkin (slot_t *sl [], int n)
{
    pthread_mutex_lock (&P.lock) ;
    for (int k = 0 ; k < n ; k++)
    {
        sl [k]->busy = false ;
        if (sl [k]->drop) slot_free (sl [k]) ;
    }
    pthread_mutex_unlock (&P.lock) ;
}

static _Atomic bool prepare_cancelled ;

// The pool pinned off the calls' threads, each buffer outside the lock and
// put in as it comes (copies meanwhile take those in, or the fallback; 18 ms
// a 32 MB buffer on the H100 machine: 73 ms fell on the first call that
// staged). A release or reconfiguration meanwhile drops what was pinned.
void gcu_staging_prepare (void)
{
    pthread_mutex_lock (&P.lock) ;
    const bool go = !P.made && !P.making ;
    const int want = P.want ;
    const size_t bytes = P.bytes ;
    const unsigned gen = P.gen ;
    if (go) P.making = true ;
    pthread_mutex_unlock (&P.lock) ;
    if (!go) return ;
    for (int k = 0 ; k < want && !atomic_load (&prepare_cancelled) ; k++)
    {
        void *buf ;
        cudaEvent_t ev ;
        if (slot_pin (bytes, &buf, &ev) != cudaSuccess) break ;
        bool in = false ;
        pthread_mutex_lock (&P.lock) ;
        for (int j = 0 ; P.gen == gen && !in && j < GCU_STAGING_NBUF ; j++)
        {
            if (P.slot [j].buf != NULL) continue ;
            P.slot [j].buf = buf ;
            P.slot [j].ev = ev ;
            in = true ;
        }
        pthread_mutex_unlock (&P.lock) ;
        if (in) continue ;
        (void) cudaFreeHost (buf) ;
        (void) cudaEventDestroy (ev) ;
        (void) cudaGetLastError () ;
        break ;
    }
    pthread_mutex_lock (&P.lock) ;
    P.making = false ;
    if (P.gen == gen) P.made = true ;       // (fewer buffers than wanted: as pool_make's failure)
    pthread_mutex_unlock (&P.lock) ;
}

void gcu_staging_prepare_cancel (void) { atomic_store (&prepare_cancelled, true) ; }

void gcu_staging_release (void)
{
    pthread_mutex_lock (&P.lock) ;
    P.gen++ ;
    for (int k = 0 ; k < GCU_STAGING_NBUF ; k++)
    {
        slot_t *sl = &P.slot [k] ;
        if (sl->buf == NULL) continue ;
        if (sl->busy) sl->drop = true ;
        else slot_free (sl) ;
    }
    P.made = false ;
    pthread_mutex_unlock (&P.lock) ;
}

GrB_Info gcu_staging_configure (int nbuf, size_t buf_bytes, size_t direct_bytes)
{
    if (nbuf < 0 || nbuf > GCU_STAGING_NBUF || buf_bytes < 4096) return GrB_INVALID_VALUE ;
    gcu_staging_release () ;
    pthread_mutex_lock (&P.lock) ;
    P.want = nbuf ;
    P.bytes = buf_bytes ;
    P.direct = direct_bytes ;
    pthread_mutex_unlock (&P.lock) ;
    return GrB_SUCCESS ;
}

void gcu_staging_stats (gcu_staging_stats_t *st)
{
    if (st == NULL) return ;
    stats_common (st) ;
    pthread_mutex_lock (&P.lock) ;
    for (int k = 0 ; k < GCU_STAGING_NBUF ; k++)
    {
        if (P.slot [k].buf == NULL) continue ;
        st->nbuf += !P.slot [k].drop ;
        st->busy += P.slot [k].busy ;
    }
    st->buf_bytes = P.bytes ;
    pthread_mutex_unlock (&P.lock) ;
}

//------------------------------------------------------------------------------
// the copies
//------------------------------------------------------------------------------

// One chunk's DMA (a counted copy) and the event that says it is done.
static GrB_Info dma (void *dst, const void *src, size_t bytes,
    enum cudaMemcpyKind kind, slot_t *sl, cudaStream_t s)
{
    const char *what = (kind == cudaMemcpyHostToDevice)
        ? "staged copy to device" : "staged copy to host" ;
    if (gcu_fault_now (what)) return GrB_PANIC ;
    atomic_fetch_add_explicit (&S.chunks, 1, memory_order_relaxed) ;
    GrB_Info info = cuda_status (cudaMemcpyAsync (dst, src, bytes, kind, s), what) ;
    if (info == GrB_SUCCESS) info = cuda_status (cudaEventRecord (sl->ev, s), "cudaEventRecord") ;
    return info ;
}

static GrB_Info wait_for (slot_t *sl)
{
    return cuda_status (cudaEventSynchronize (sl->ev), "cudaEventSynchronize") ;
}

// One chunk of a download: len elements from src (device, sb bytes each)
// into dst (host, db bytes each), at most one staging buffer's worth.
typedef struct { char *dst ; const char *src ; size_t len ; int sb, db ; } chunk_t ;

// The chunks of the downloads seg [0..nseg) (chunks of ce_bytes device bytes);
// NULL when out of memory.
static chunk_t *chunks_of (const gcu_d2h_seg *seg, int nseg, size_t ce_bytes, size_t *nchunks)
{
    size_t total = 0 ;
    for (int k = 0 ; k < nseg ; k++)
    {
        const size_t ce = ce_bytes / (size_t) seg [k].src_bytes ;
        total += (seg [k].nelem + ce - 1) / ce ;
    }
    chunk_t *ch = malloc ((total > 0 ? total : 1) * sizeof (chunk_t)) ;
    if (ch == NULL) return NULL ;
    size_t c = 0 ;
    for (int k = 0 ; k < nseg ; k++)
    {
        const size_t ce = ce_bytes / (size_t) seg [k].src_bytes ;
        const int sb = seg [k].src_bytes, db = seg [k].dst_bytes ;
        for (size_t lo = 0 ; lo < seg [k].nelem ; lo += ce)
        {
            const size_t len = (seg [k].nelem - lo < ce) ? seg [k].nelem - lo : ce ;
            ch [c++] = (chunk_t) { (char *) seg [k].host_dst + lo * (size_t) db,
                (const char *) seg [k].dev_src + lo * (size_t) sb, len, sb, db } ;
        }
    }
    *nchunks = total ;
    return ch ;
}

// Downloads the chunks in order through nb buffers: the DMAs of the next
// chunks (of the same array or the next one) overlap the conversion of
// this one.
static GrB_Info pipeline_d2h (const chunk_t *ch, size_t nchunks, slot_t *sl [], int nb, cudaStream_t s)
{
    GrB_Info info = GrB_SUCCESS ;
    size_t issued = 0 ;
    for ( ; issued < nchunks && issued < (size_t) nb && info == GrB_SUCCESS ; issued++)
        info = dma (sl [issued]->buf, ch [issued].src, ch [issued].len * (size_t) ch [issued].sb,
            cudaMemcpyDeviceToHost, sl [issued], s) ;
    for (size_t c = 0 ; c < nchunks && info == GrB_SUCCESS ; c++)
    {
        slot_t *b = sl [c % (size_t) nb] ;
        info = wait_for (b) ;
        if (info != GrB_SUCCESS) break ;
        convert (ch [c].dst, b->buf, ch [c].len, ch [c].sb, ch [c].db) ;
        if (issued < nchunks)
        {
            // chunk c + nb reuses the buffer just emptied
            info = dma (b->buf, ch [issued].src, ch [issued].len * (size_t) ch [issued].sb,
                cudaMemcpyDeviceToHost, b, s) ;
            issued++ ;
        }
    }
    return info ;
}

static GrB_Info pipeline (bool h2d, char *dst, const char *src, size_t n,
    int sb, int db, size_t ce, slot_t *sl [], int nb, cudaStream_t s)
{
    const size_t nchunks = (n + ce - 1) / ce ;
    GrB_Info info = GrB_SUCCESS ;
    if (h2d)
    {
        for (size_t c = 0 ; c < nchunks && info == GrB_SUCCESS ; c++)
        {
            slot_t *b = sl [c % (size_t) nb] ;
            const size_t lo = c * ce, len = (n - lo < ce) ? n - lo : ce ;
            // the DMA that last read this buffer (chunk c - nb) is done
            if (c >= (size_t) nb) info = wait_for (b) ;
            if (info != GrB_SUCCESS) break ;
            convert (b->buf, src + lo * (size_t) sb, len, sb, db) ;
            info = dma (dst + lo * (size_t) db, b->buf, len * (size_t) db,
                cudaMemcpyHostToDevice, b, s) ;
        }
        // one stream: the last chunk done means every chunk is
        if (info == GrB_SUCCESS) info = wait_for (sl [(nchunks - 1) % (size_t) nb]) ;
    }
    else
    {
        gcu_d2h_seg one = { dst, src, n, sb, db } ;
        size_t nc = 0 ;
        chunk_t *ch = chunks_of (&one, 1, ce * (size_t) sb, &nc) ;
        info = (ch == NULL) ? GrB_OUT_OF_MEMORY : pipeline_d2h (ch, nc, sl, nb, s) ;
        free (ch) ;
    }
    if (info != GrB_SUCCESS)
    {
        // No DMA may still use a buffer once it is back in the pool. (A
        // stream in a sticky error state returns at once: nothing runs.)
        (void) cudaStreamSynchronize (s) ;
        (void) cudaGetLastError () ;
    }
    return info ;
}

// No pinned buffer to be had, and the widths differ: chunks through a
// malloc'd buffer and the driver's own (slower) pageable copies.
static GrB_Info bounce (bool h2d, char *dst, const char *src, size_t n,
    int sb, int db, size_t ce, gcu_stream s)
{
    const size_t dw = (size_t) (h2d ? db : sb) ;
    const size_t first = (n < ce) ? n : ce ;
    void *tmp = malloc (first * dw) ;
    if (tmp == NULL) return GrB_OUT_OF_MEMORY ;
    GrB_Info info = GrB_SUCCESS ;
    for (size_t lo = 0 ; lo < n && info == GrB_SUCCESS ; lo += ce)
    {
        const size_t len = (n - lo < ce) ? n - lo : ce ;
        if (h2d)
        {
            convert (tmp, src + lo * (size_t) sb, len, sb, db) ;
            // from pageable memory: returns once the driver holds its own
            // copy of tmp, which may then be overwritten
            info = gcu_memcpy_h2d (dst + lo * (size_t) db, tmp, len * dw, s) ;
        }
        else
        {
            info = gcu_memcpy_d2h (tmp, src + lo * (size_t) sb, len * dw, s) ;  // synchronises
            if (info == GrB_SUCCESS) convert (dst + lo * (size_t) db, tmp, len, sb, db) ;
        }
    }
    if (h2d && info == GrB_SUCCESS) info = gcu_sync (s) ;
    free (tmp) ;
    return info ;
}

// One copy done (statistics): dev_bytes crossed the link, since t0.
static void count_copy (bool h2d, size_t dev_bytes, double t0)
{
    uint64_t ns = (uint64_t) (1e9 * (gcu_now () - t0)) ;
    atomic_fetch_add_explicit (h2d ? &S.h2d_calls : &S.d2h_calls, 1, memory_order_relaxed) ;
    atomic_fetch_add_explicit (h2d ? &S.h2d_bytes : &S.d2h_bytes, dev_bytes, memory_order_relaxed) ;
    atomic_fetch_add_explicit (h2d ? &S.h2d_ns : &S.d2h_ns, ns, memory_order_relaxed) ;
}

static GrB_Info staged (bool h2d, void *dst, const void *src, size_t n,
    int sb, int db, gcu_stream s)
{
    if (!widths_ok (sb, db)) return GrB_INVALID_VALUE ;
    if (n == 0) return GrB_SUCCESS ;
    if (dst == NULL || src == NULL) return GrB_NULL_POINTER ;
    const size_t wmax = (size_t) (sb > db ? sb : db) ;
    if (n > SIZE_MAX / wmax) return GrB_INVALID_VALUE ;
    const double t0 = gcu_now () ;
    const size_t dw = (size_t) (h2d ? db : sb) ;      // device-side width
    const size_t dev_bytes = n * dw ;
    if (!h2d) advise_huge (dst, n * (size_t) db) ;

    pthread_mutex_lock (&P.lock) ;
    const size_t direct = P.direct ;
    pthread_mutex_unlock (&P.lock) ;
    GrB_Info info ;
    bool plain = (sb == db) ;
    if (plain && dev_bytes < direct)
    {
        info = h2d ? gcu_memcpy_h2d (dst, src, dev_bytes, s) : gcu_memcpy_d2h (dst, src, dev_bytes, s) ;
        if (h2d && info == GrB_SUCCESS) info = gcu_sync (s) ;
        atomic_fetch_add_explicit (&S.direct, 1, memory_order_relaxed) ;
    }
    else
    {
        slot_t *sl [GCU_STAGING_DEPTH] ;
        size_t bytes = 0 ;
        int nb = checkout (GCU_STAGING_DEPTH, sl, &bytes) ;
        const size_t ce = bytes / dw ;          // elements per chunk (bytes >= 4096)
        const size_t nchunks = (n + ce - 1) / ce ;
        if (nb > 0 && (size_t) nb > nchunks)
        {
            // fewer chunks than buffers: give the extra ones back at once
            checkin (sl + nchunks, nb - (int) nchunks) ;
            nb = (int) nchunks ;
        }
        if (nb > 0)
        {
            info = pipeline (h2d, dst, src, n, sb, db, ce, sl, nb, (cudaStream_t) s) ;
            checkin (sl, nb) ;
        }
        else if (plain)
        {
            // pool busy (or none): the driver's pageable copy, in one go
            info = h2d ? gcu_memcpy_h2d (dst, src, dev_bytes, s) : gcu_memcpy_d2h (dst, src, dev_bytes, s) ;
            if (h2d && info == GrB_SUCCESS) info = gcu_sync (s) ;
            atomic_fetch_add_explicit (&S.direct, 1, memory_order_relaxed) ;
        }
        else
        {
            info = bounce (h2d, dst, src, n, sb, db, ce, s) ;
            atomic_fetch_add_explicit (&S.bounce, 1, memory_order_relaxed) ;
        }
    }
    if (info == GrB_SUCCESS) count_copy (h2d, dev_bytes, t0) ;
    return info ;
}

GrB_Info gcu_h2d_staged (void *dev_dst, const void *host_src, size_t nelem,
    int src_bytes, int dst_bytes, gcu_stream s)
{
    return staged (true, dev_dst, host_src, nelem, src_bytes, dst_bytes, s) ;
}

GrB_Info gcu_d2h_staged (void *host_dst, const void *dev_src, size_t nelem,
    int src_bytes, int dst_bytes, gcu_stream s)
{
    return staged (false, host_dst, dev_src, nelem, src_bytes, dst_bytes, s) ;
}

GrB_Info gcu_d2h_staged_segs (const gcu_d2h_seg *seg, int nseg, gcu_stream s)
{
    size_t dev_bytes = 0, big = 0 ;
    for (int k = 0 ; k < nseg ; k++)
    {
        if (!widths_ok (seg [k].src_bytes, seg [k].dst_bytes)) return GrB_INVALID_VALUE ;
        if (seg [k].nelem == 0) continue ;
        if (seg [k].host_dst == NULL || seg [k].dev_src == NULL) return GrB_NULL_POINTER ;
        const size_t w = (size_t) (seg [k].src_bytes > seg [k].dst_bytes ? seg [k].src_bytes : seg [k].dst_bytes) ;
        if (seg [k].nelem > SIZE_MAX / w) return GrB_INVALID_VALUE ;
        dev_bytes += seg [k].nelem * (size_t) seg [k].src_bytes ;
        big += (seg [k].nelem * (size_t) seg [k].src_bytes >= GCU_STAGING_DIRECT) ;
    }
    if (dev_bytes == 0) return GrB_SUCCESS ;
    // one segment, or all of them small: one copy at a time
    slot_t *sl [GCU_STAGING_DEPTH] ;
    size_t bytes = 0 ;
    int nb = (big > 0 && nseg > 1) ? checkout (GCU_STAGING_DEPTH, sl, &bytes) : 0 ;
    if (nb < 2)
    {
        if (nb > 0) checkin (sl, nb) ;
        GrB_Info info = GrB_SUCCESS ;
        for (int k = 0 ; k < nseg && info == GrB_SUCCESS ; k++)
            info = staged (false, seg [k].host_dst, seg [k].dev_src, seg [k].nelem,
                seg [k].src_bytes, seg [k].dst_bytes, s) ;
        return info ;
    }
    const double t0 = gcu_now () ;
    for (int k = 0 ; k < nseg ; k++)
        advise_huge (seg [k].host_dst, seg [k].nelem * (size_t) seg [k].dst_bytes) ;
    size_t nc = 0 ;
    chunk_t *ch = chunks_of (seg, nseg, bytes & ~(size_t) 7, &nc) ;
    GrB_Info info = (ch == NULL) ? GrB_OUT_OF_MEMORY
        : pipeline_d2h (ch, nc, sl, nb, (cudaStream_t) s) ;
    free (ch) ;
    if (info != GrB_SUCCESS)
    {
        (void) cudaStreamSynchronize ((cudaStream_t) s) ;
        (void) cudaGetLastError () ;
    }
    checkin (sl, nb) ;
    if (info == GrB_SUCCESS) count_copy (false, dev_bytes, t0) ;
    return info ;
}

#else

GrB_Info gcu_d2h_staged_segs (const gcu_d2h_seg *seg, int nseg, gcu_stream s)
{
    (void) seg ; (void) nseg ; (void) s ;
    return GrB_PANIC ;
}

GrB_Info gcu_h2d_staged (void *d, const void *h, size_t n, int sb, int db, gcu_stream s)
{
    (void) d ; (void) h ; (void) n ; (void) sb ; (void) db ; (void) s ;
    return GrB_PANIC ;
}

GrB_Info gcu_d2h_staged (void *h, const void *d, size_t n, int sb, int db, gcu_stream s)
{
    (void) d ; (void) h ; (void) n ; (void) sb ; (void) db ; (void) s ;
    return GrB_PANIC ;
}

void gcu_staging_release (void) { }
void gcu_staging_prepare (void) { }
void gcu_staging_prepare_cancel (void) { }

GrB_Info gcu_staging_configure (int nbuf, size_t buf_bytes, size_t direct_bytes)
{
    (void) direct_bytes ;
    if (nbuf < 0 || nbuf > GCU_STAGING_NBUF || buf_bytes < 4096) return GrB_INVALID_VALUE ;
    return GrB_SUCCESS ;
}

void gcu_staging_stats (gcu_staging_stats_t *st)
{
    if (st != NULL) stats_common (st) ;
}

#endif
