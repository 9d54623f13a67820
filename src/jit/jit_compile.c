// jit_compile.c — compile a kernel program with NVRTC, through two caches.
//
// Key: SHA-256 of everything that changes the code: a format tag, NVRTC's
// version, the target architecture, the compile options, the digest of all
// kernel headers (jit_sources.c) and the program text (which holds the
// generated semiring and types).
//
// In memory: a hash table of entries, one per key, under one lock. The first
// thread to ask for a key inserts it as COMPILING and compiles outside the
// lock; any other thread asking for that key meanwhile waits for the result,
// so a key is compiled once however many threads want it. Failures are
// remembered too, so a program that does not compile is not retried (running
// out of memory is not remembered: the next request tries again).
//
// On disk (jit_disk.c): <dir>/<key>.cubin, verified when read back,
// otherwise recompiled and rewritten. A directory that cannot be created or
// written leaves the cache in memory only.
//
// Batches: independent programs compile in parallel on a few threads.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gcu_jit_internal.h"
#include "gcu_sha256.h"
#include "../util/gcu_util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GCU_JIT_FORMAT "grbcuda-jit-1"
#define GCU_JIT_BUCKETS 1024

//------------------------------------------------------------------------------
// state
//------------------------------------------------------------------------------

static pthread_mutex_t gcu_jit_lock = PTHREAD_MUTEX_INITIALIZER ;
static pthread_cond_t  gcu_jit_cond = PTHREAD_COND_INITIALIZER ;
static gcu_jit_binary *gcu_jit_table [GCU_JIT_BUCKETS] ;
static gcu_jit_stats   gcu_jit_counts ;

// cache directory override (tests): unset, or a directory ("" = none)
static bool gcu_jit_dir_set = false ;
static char gcu_jit_dir_override [1024] ;

static int gcu_jit_arch_override = 0 ;
static int gcu_jit_arch_auto = 0 ;
static pthread_once_t gcu_jit_arch_once = PTHREAD_ONCE_INIT ;

// the options every program is compiled with; the architecture goes first
static const char *const gcu_jit_options [] =
{
    "-std=c++17",
    "-default-device",      // a user's C definition compiles as device code
    "-fmad=false",          // no contraction: a*b+c rounds as on the host
    "-DGCU_JIT=1",
#if defined(__aarch64__)
    "-DGCU_HOST_DEFAULT_NAN_NEG=0",     // the host's default NaN (gcu_types.cuh)
#endif
} ;
#define GCU_JIT_NOPTIONS ((int) (sizeof (gcu_jit_options) / sizeof (gcu_jit_options [0])))

//------------------------------------------------------------------------------
// configuration
//------------------------------------------------------------------------------

static int gcu_parse_arch (const char *s)
{
    if (s == NULL) return 0 ;
    while (*s && (*s < '0' || *s > '9')) s++ ;     // "sm_90", "compute_90", "90"
    int a = atoi (s) ;
    return (a >= 30 && a < 1000) ? a : 0 ;
}

static void gcu_jit_arch_detect (void)
{
    int a = gcu_parse_arch (getenv ("GRBCUDA_JIT_ARCH")) ;
    if (a == 0) a = gcu_cuda_device_arch (gcu_settings ()->device) ;
    if (a == 0) a = 90 ;    // no GPU here (CI): the H200's
    gcu_jit_arch_auto = a ;
}

int gcu_jit_arch (void)
{
    int a = __atomic_load_n (&gcu_jit_arch_override, __ATOMIC_ACQUIRE) ;
    if (a > 0) return a ;
    pthread_once (&gcu_jit_arch_once, gcu_jit_arch_detect) ;
    return gcu_jit_arch_auto ;
}

void gcu_jit_set_arch (int arch)
{
    __atomic_store_n (&gcu_jit_arch_override, (arch > 0) ? arch : 0, __ATOMIC_RELEASE) ;
}

void gcu_jit_set_cache_dir (const char *dir)
{
    pthread_mutex_lock (&gcu_jit_lock) ;
    gcu_jit_dir_set = (dir != NULL) ;
    snprintf (gcu_jit_dir_override, sizeof (gcu_jit_dir_override), "%s", dir ? dir : "") ;
    pthread_mutex_unlock (&gcu_jit_lock) ;
    gcu_jit_disk_warn_again () ;
}

void gcu_jit_cache_dir (char *buf, size_t size)
{
    if (buf == NULL || size == 0) return ;
    buf [0] = '\0' ;
    pthread_mutex_lock (&gcu_jit_lock) ;
    bool set = gcu_jit_dir_set ;
    if (set) snprintf (buf, size, "%s", gcu_jit_dir_override) ;
    pthread_mutex_unlock (&gcu_jit_lock) ;
    if (set) return ;
    const char *dir = gcu_settings ()->cache_dir ;
    if (dir != NULL && dir [0] != '\0') { snprintf (buf, size, "%s", dir) ; return ; }
    const char *xdg = getenv ("XDG_CACHE_HOME") ;
    if (xdg != NULL && xdg [0] == '/') { snprintf (buf, size, "%s/grbcuda", xdg) ; return ; }
    const char *home = getenv ("HOME") ;
    if (home != NULL && home [0] == '/') { snprintf (buf, size, "%s/.cache/grbcuda", home) ; return ; }
}

void gcu_jit_stats_get (gcu_jit_stats *stats)
{
    if (stats == NULL) return ;
    pthread_mutex_lock (&gcu_jit_lock) ;
    *stats = gcu_jit_counts ;
    pthread_mutex_unlock (&gcu_jit_lock) ;
}

void gcu_jit_stats_reset (void)
{
    pthread_mutex_lock (&gcu_jit_lock) ;
    memset (&gcu_jit_counts, 0, sizeof (gcu_jit_counts)) ;
    pthread_mutex_unlock (&gcu_jit_lock) ;
}

#define GCU_COUNT(field, v)                                 \
    do {                                                    \
        pthread_mutex_lock (&gcu_jit_lock) ;                \
        gcu_jit_counts.field += (v) ;                       \
        pthread_mutex_unlock (&gcu_jit_lock) ;              \
    } while (0)

const void *gcu_jit_binary_data (const gcu_jit_binary *bin, size_t *size,
    bool *is_ptx)
{
    if (bin == NULL) return NULL ;
    if (size != NULL) *size = bin->size ;
    if (is_ptx != NULL) *is_ptx = bin->is_ptx ;
    return bin->data ;
}

//------------------------------------------------------------------------------
// target: a CUBIN for the device's architecture if NVRTC knows it, PTX for
// the newest one it knows if the device is newer (the driver finishes it)
//------------------------------------------------------------------------------

static bool gcu_jit_target (const gcu_nvrtc_api *nv, char *opt, size_t size,
    bool *is_ptx)
{
    int arch = gcu_jit_arch () ;
    int best = 0 ;
    for (int k = 0 ; k < nv->narchs ; k++)
    {
        if (nv->archs [k] == arch)
        {
            snprintf (opt, size, "-arch=sm_%d", arch) ;
            *is_ptx = false ;
            return true ;
        }
        if (nv->archs [k] < arch && nv->archs [k] > best) best = nv->archs [k] ;
    }
    if (best == 0)
    {
        gcu_log ("JIT: NVRTC %d.%d cannot compile for sm_%d", nv->major, nv->minor, arch) ;
        return false ;
    }
    snprintf (opt, size, "-arch=compute_%d", best) ;
    *is_ptx = true ;
    return true ;
}

//------------------------------------------------------------------------------
// NVRTC
//------------------------------------------------------------------------------

static GrB_Info gcu_nvrtc_compile (const gcu_nvrtc_api *nv, const char *source,
    const char *label, const char *target, const gcu_jit_file *files, int nfiles,
    void **data, size_t *size, bool is_ptx)
{
    *data = NULL ;
    *size = 0 ;
    const char **names = malloc ((size_t) nfiles * sizeof (char *)) ;
    const char **texts = malloc ((size_t) nfiles * sizeof (char *)) ;
    if (names == NULL || texts == NULL)
    {
        free (names) ;
        free (texts) ;
        return GrB_OUT_OF_MEMORY ;
    }
    for (int k = 0 ; k < nfiles ; k++)
    {
        names [k] = files [k].name ;
        texts [k] = files [k].text ;
    }
    const char *opts [GCU_JIT_NOPTIONS + 1] ;
    opts [0] = target ;
    for (int k = 0 ; k < GCU_JIT_NOPTIONS ; k++) opts [k+1] = gcu_jit_options [k] ;

    GrB_Info info = GCU_NOT_HANDLED ;
    gcu_nvrtcProgram prog = NULL ;
    double t0 = gcu_now () ;
    int r = nv->CreateProgram (&prog, source, "grbcuda_jit.cu", nfiles, texts, names) ;
    free (names) ;
    free (texts) ;
    if (r != 0)
    {
        gcu_log ("JIT %s: nvrtcCreateProgram: %s", label, nv->GetErrorString (r)) ;
        return (r == 1) ? GrB_OUT_OF_MEMORY : GCU_NOT_HANDLED ;
    }
    r = nv->CompileProgram (prog, GCU_JIT_NOPTIONS + 1, opts) ;
    double t1 = gcu_now () ;
    if (r != 0)
    {
        if (gcu_verbose ())
        {
            size_t n = 0 ;
            char *log = NULL ;
            if (nv->GetProgramLogSize (prog, &n) == 0 && n > 0 && (log = malloc (n + 1)) != NULL
                && nv->GetProgramLog (prog, log) == 0)
            {
                log [n] = '\0' ;
                gcu_log ("JIT %s: compilation failed (%s):\n%s", label,
                    nv->GetErrorString (r), log) ;
            }
            else
            {
                gcu_log ("JIT %s: compilation failed (%s)", label, nv->GetErrorString (r)) ;
            }
            free (log) ;
        }
    }
    else
    {
        size_t n = 0 ;
        r = is_ptx ? nv->GetPTXSize (prog, &n) : nv->GetCUBINSize (prog, &n) ;
        if (r == 0 && n > 0 && (*data = malloc (n)) != NULL)
        {
            r = is_ptx ? nv->GetPTX (prog, *data) : nv->GetCUBIN (prog, *data) ;
            if (r == 0)
            {
                *size = n ;
                info = GrB_SUCCESS ;
            }
        }
        if (info != GrB_SUCCESS)
        {
            gcu_log ("JIT %s: cannot retrieve the compiled code", label) ;
            free (*data) ;
            *data = NULL ;
        }
        else
        {
            gcu_log ("JIT %s: compiled in %.3f s (%zu bytes)", label, t1 - t0, n) ;
        }
    }
    nv->DestroyProgram (&prog) ;
    pthread_mutex_lock (&gcu_jit_lock) ;
    if (info == GrB_SUCCESS) gcu_jit_counts.compiles++ ; else gcu_jit_counts.failures++ ;
    gcu_jit_counts.compile_seconds += t1 - t0 ;
    pthread_mutex_unlock (&gcu_jit_lock) ;
    return info ;
}

//------------------------------------------------------------------------------
// compile one program through the caches
//------------------------------------------------------------------------------

// the key: everything that changes the code
static void gcu_jit_key (const gcu_nvrtc_api *nv, const char *target,
    const uint8_t *digest, const char *source, uint8_t key [32])
{
    gcu_sha256 c ;
    gcu_sha256_init (&c) ;
    gcu_sha256_update (&c, GCU_JIT_FORMAT, sizeof (GCU_JIT_FORMAT)) ;
    int ver [2] = { nv->major, nv->minor } ;
    gcu_sha256_update (&c, ver, sizeof (ver)) ;
    gcu_sha256_update (&c, target, strlen (target) + 1) ;
    for (int k = 0 ; k < GCU_JIT_NOPTIONS ; k++)
    {
        gcu_sha256_update (&c, gcu_jit_options [k], strlen (gcu_jit_options [k]) + 1) ;
    }
    gcu_sha256_update (&c, digest, 32) ;
    gcu_sha256_update (&c, source, strlen (source)) ;
    gcu_sha256_final (&c, key) ;
}

// The entry of key in memory: GrB_SUCCESS with *b READY or FAILED (a hit);
// GrB_NO_VALUE with *b COMPILING and owned by the caller (a new key, or one
// whose last attempt ran out of memory); GCU_NOT_HANDLED when another thread
// compiles it and this thread's policy is not to wait (gcu_jit_defer_begin).
static GrB_Info gcu_jit_claim (const uint8_t key [32], gcu_jit_binary **bp)
{
    size_t bucket = (((size_t) key [0]) | ((size_t) key [1] << 8)) % GCU_JIT_BUCKETS ;
    GrB_Info info = GrB_NO_VALUE ;
    pthread_mutex_lock (&gcu_jit_lock) ;
    gcu_jit_binary *b = gcu_jit_table [bucket] ;
    while (b != NULL && memcmp (b->key, key, 32) != 0) b = b->next ;
    if (b != NULL && b->state == GCU_JIT_COMPILING && gcu_jit_defer_wanted ())
    {
        info = GCU_NOT_HANDLED ;        // compiling elsewhere: not waited for
    }
    else if (b != NULL)
    {
        while (b->state == GCU_JIT_COMPILING) pthread_cond_wait (&gcu_jit_cond, &gcu_jit_lock) ;
        // the last attempt ran out of memory (or was abandoned): this thread tries again
        if (b->state == GCU_JIT_RETRY) b->state = GCU_JIT_COMPILING ;
        else { gcu_jit_counts.memory_hits++ ; info = GrB_SUCCESS ; }
    }
    else if ((b = calloc (1, sizeof (gcu_jit_binary))) == NULL)
    {
        info = GrB_OUT_OF_MEMORY ;
    }
    else
    {
        memcpy (b->key, key, 32) ;
        b->state = GCU_JIT_COMPILING ;
        b->next = gcu_jit_table [bucket] ;
        gcu_jit_table [bucket] = b ;
    }
    pthread_mutex_unlock (&gcu_jit_lock) ;
    *bp = b ;
    return info ;
}

// a claimed entry's program from the disk cache; true if found (published)
static bool gcu_jit_from_disk (gcu_jit_job *j)
{
    if (j->dir [0] == '\0') return false ;
    void *data = NULL ;
    size_t size = 0 ;
    bool disk_ptx = false, rejected = false ;
    bool found = gcu_jit_disk_read (j->dir, j->b->key, &data, &size, &disk_ptx, &rejected) ;
    if (rejected) GCU_COUNT (disk_rejects, 1) ;
    if (found && disk_ptx != j->is_ptx)
    {
        free (data) ;
        found = false ;
    }
    if (!found) return false ;
    GCU_COUNT (disk_hits, 1) ;
    gcu_log ("JIT %s: loaded from the disk cache", j->label) ;
    gcu_jit_publish (j->b, GrB_SUCCESS, data, size, j->is_ptx) ;
    return true ;
}

void gcu_jit_publish (gcu_jit_binary *b, GrB_Info info, void *data, size_t size, bool is_ptx)
{
    pthread_mutex_lock (&gcu_jit_lock) ;
    if (info == GrB_SUCCESS)
    {
        b->data = data ;
        b->size = size ;
        b->is_ptx = is_ptx ;
        b->state = GCU_JIT_READY ;
    }
    else
    {
        // a program that does not compile never will; memory may come back,
        // and an abandoned compile (GCU_JIT_ABANDONED) is tried again
        b->state = (info == GrB_OUT_OF_MEMORY || info == GCU_JIT_ABANDONED)
            ? GCU_JIT_RETRY : GCU_JIT_FAILED ;
    }
    pthread_cond_broadcast (&gcu_jit_cond) ;
    pthread_mutex_unlock (&gcu_jit_lock) ;
}

GrB_Info gcu_jit_build (const gcu_jit_job *j)
{
    const gcu_nvrtc_api *nv = gcu_nvrtc () ;
    const gcu_jit_file *files ;
    int nfiles ;
    const uint8_t *digest ;
    void *data = NULL ;
    size_t size = 0 ;
    GrB_Info info = (nv == NULL) ? GCU_NOT_HANDLED : gcu_jit_sources (&files, &nfiles, &digest) ;
    if (info == GrB_SUCCESS)
    {
        info = gcu_nvrtc_compile (nv, j->source, j->label, j->target, files, nfiles,
            &data, &size, j->is_ptx) ;
    }
    if (info == GrB_SUCCESS && j->dir [0] != '\0'
        && gcu_jit_disk_write (j->dir, j->b->key, data, size, j->is_ptx)) GCU_COUNT (disk_writes, 1) ;
    gcu_jit_publish (j->b, info, data, size, j->is_ptx) ;
    return info ;
}

// the status a caller sees for an entry that is not READY
static GrB_Info gcu_jit_missing (GrB_Info info)
{
    // out of memory is worth reporting as such; anything else means "this
    // kernel cannot be had (now)": the host computes instead
    return (info == GrB_OUT_OF_MEMORY) ? info : GCU_NOT_HANDLED ;
}

//------------------------------------------------------------------------------
// the memo: a program asked for again finds its binary without its key
//------------------------------------------------------------------------------

// Every GPU call asks for its kernels by their program text (a few KB), and
// the SHA-256 key of that text cost more than the rest of a small call's
// host work (about 60% of a repeated request's instructions: callgrind,
// bench/RESULTS.md 2026-11-26). A program compiled for a target is kept
// here under a fast hash of its text, checked by comparing the text itself;
// the key is computed only on a miss. Direct-mapped; guarded by
// gcu_jit_lock; emptied with the memory cache.
#define GCU_JIT_MEMO_SLOTS 512

typedef struct
{
    uint64_t h ;
    size_t len ;
    char *text ;                // a copy of the program (NULL: empty slot)
    char target [32] ;
    gcu_jit_binary *b ;         // READY
}
gcu_jit_memo_slot ;

static gcu_jit_memo_slot gcu_jit_memo [GCU_JIT_MEMO_SLOTS] ;

static gcu_jit_binary *gcu_jit_memo_find (uint64_t h, const char *source, size_t len,
    const char *target)
{
    gcu_jit_binary *b = NULL ;
    pthread_mutex_lock (&gcu_jit_lock) ;
    const gcu_jit_memo_slot *m = &gcu_jit_memo [h % GCU_JIT_MEMO_SLOTS] ;
    if (m->text != NULL && m->h == h && m->len == len && strcmp (m->target, target) == 0
        && memcmp (m->text, source, len) == 0)
    {
        b = m->b ;
        gcu_jit_counts.memory_hits++ ;
    }
    pthread_mutex_unlock (&gcu_jit_lock) ;
    return b ;
}

// b (READY) remembered for this text; out of memory: not remembered
static void gcu_jit_memo_keep (uint64_t h, const char *source, size_t len, const char *target,
    gcu_jit_binary *b)
{
    char *text = malloc (len + 1) ;
    if (text == NULL) return ;
    memcpy (text, source, len + 1) ;
    pthread_mutex_lock (&gcu_jit_lock) ;
    gcu_jit_memo_slot *m = &gcu_jit_memo [h % GCU_JIT_MEMO_SLOTS] ;
    char *old = m->text ;
    m->h = h ;
    m->len = len ;
    m->text = text ;
    snprintf (m->target, sizeof (m->target), "%s", target) ;
    m->b = b ;
    pthread_mutex_unlock (&gcu_jit_lock) ;
    free (old) ;
}

// (under gcu_jit_lock)
static void gcu_jit_memo_clear (void)
{
    for (int k = 0 ; k < GCU_JIT_MEMO_SLOTS ; k++)
    {
        free (gcu_jit_memo [k].text) ;
        memset (&gcu_jit_memo [k], 0, sizeof (gcu_jit_memo [k])) ;
    }
}

GrB_Info gcu_jit_compile (const char *source, const char *label,
    const gcu_jit_binary **bin)
{
    if (source == NULL || bin == NULL) return GrB_NULL_POINTER ;
    *bin = NULL ;
    // (NVRTC loading on the start's thread: a call that may defer does not
    // wait for it; a 1 ms assign waited 92 ms in call 48, H100)
    if (gcu_jit_preparing () && gcu_jit_defer_wanted ())
    {
        gcu_jit_note_deferred () ;
        return GCU_NOT_HANDLED ;
    }
    const gcu_nvrtc_api *nv = gcu_nvrtc () ;
    if (nv == NULL) return GCU_NOT_HANDLED ;
    const gcu_jit_file *files ;
    int nfiles ;
    const uint8_t *digest ;
    GrB_Info info = gcu_jit_sources (&files, &nfiles, &digest) ;
    if (info != GrB_SUCCESS) return info ;
    gcu_jit_job j = { .source = (char *) source } ;
    if (!gcu_jit_target (nv, j.target, sizeof (j.target), &j.is_ptx)) return GCU_NOT_HANDLED ;
    const size_t len = strlen (source) ;
    const uint64_t h = gcu_text_hash (source, len, 0) ;
    gcu_jit_binary *memo = gcu_jit_memo_find (h, source, len, j.target) ;
    if (memo != NULL) { *bin = memo ; return GrB_SUCCESS ; }
    snprintf (j.label, sizeof (j.label), "%s", label != NULL ? label : "kernel") ;
    uint8_t key [32] ;
    gcu_jit_key (nv, j.target, digest, source, key) ;

    // memory: a hit, another thread's compile (waited for, or not: deferred),
    // or the key claimed by this thread
    info = gcu_jit_claim (key, &j.b) ;
    if (info == GCU_NOT_HANDLED) { gcu_jit_note_deferred () ; return info ; }
    if (info == GrB_NO_VALUE)
    {
        // disk, then NVRTC (outside the lock: other keys proceed meanwhile),
        // here or on a background thread
        gcu_jit_cache_dir (j.dir, sizeof (j.dir)) ;
        if (!gcu_jit_from_disk (&j))
        {
            if (gcu_jit_defer_wanted () && gcu_jit_background_take (&j))
            {
                gcu_jit_note_deferred () ;
                return GCU_NOT_HANDLED ;
            }
            info = gcu_jit_build (&j) ;
        }
    }
    if (info == GrB_OUT_OF_MEMORY) return info ;
    if (j.b->state != GCU_JIT_READY) return gcu_jit_missing (info) ;
    gcu_jit_memo_keep (h, source, len, j.target, j.b) ;
    *bin = j.b ;
    return GrB_SUCCESS ;
}

void gcu_jit_cache_clear_memory (void)
{
    pthread_mutex_lock (&gcu_jit_lock) ;
    gcu_jit_memo_clear () ;
    gcu_jit_binary *done = NULL ;
    for (int k = 0 ; k < GCU_JIT_BUCKETS ; k++)
    {
        gcu_jit_binary **pp = &gcu_jit_table [k] ;
        while (*pp != NULL)
        {
            gcu_jit_binary *b = *pp ;
            if (b->state == GCU_JIT_COMPILING)
            {
                // its compiling thread still owns it
                pp = &b->next ;
                continue ;
            }
            *pp = b->next ;
            b->next = done ;
            done = b ;
        }
    }
    pthread_mutex_unlock (&gcu_jit_lock) ;
    while (done != NULL)
    {
        gcu_jit_binary *next = done->next ;
        gcu_cuda_unload_modules (done) ;
        free (done->data) ;
        free (done) ;
        done = next ;
    }
}

//------------------------------------------------------------------------------
// batches
//------------------------------------------------------------------------------

typedef struct
{
    int n ;
    int next ;                  // the next program to take (atomic)
    const char *const *sources ;
    const char *const *labels ;
    const gcu_jit_binary **bins ;
    GrB_Info *status ;
}
gcu_batch ;

static void *gcu_batch_worker (void *arg)
{
    gcu_batch *B = arg ;
    for (;;)
    {
        int k = __atomic_fetch_add (&B->next, 1, __ATOMIC_RELAXED) ;
        if (k >= B->n) break ;
        const gcu_jit_binary *bin = NULL ;
        B->status [k] = gcu_jit_compile (B->sources [k],
            B->labels ? B->labels [k] : NULL, &bin) ;
        B->bins [k] = bin ;
    }
    return NULL ;
}

static int gcu_ncores (void)
{
    cpu_set_t set ;
    if (sched_getaffinity (0, sizeof (set), &set) == 0)
    {
        int n = CPU_COUNT (&set) ;
        if (n > 0) return n ;
    }
    long n = sysconf (_SC_NPROCESSORS_ONLN) ;
    return (n > 0) ? (int) n : 1 ;
}

GrB_Info gcu_jit_compile_batch (int n, const char *const *sources,
    const char *const *labels, const gcu_jit_binary **bins, GrB_Info *status,
    int nthreads)
{
    if (n < 0 || (n > 0 && (sources == NULL || bins == NULL || status == NULL)))
    {
        return GrB_NULL_POINTER ;
    }
    if (nthreads <= 0) nthreads = gcu_ncores () ;
    if (nthreads > n) nthreads = n ;
    gcu_batch B = { n, 0, sources, labels, bins, status } ;
    pthread_t tid [64] ;
    int started = 0 ;
    // the calling thread is one of the workers
    for (int t = 1 ; t < nthreads && t < 64 ; t++)
    {
        if (pthread_create (&tid [started], NULL, gcu_batch_worker, &B) != 0) break ;
        started++ ;
    }
    gcu_batch_worker (&B) ;
    for (int t = 0 ; t < started ; t++) pthread_join (tid [t], NULL) ;
    for (int k = 0 ; k < n ; k++)
    {
        if (status [k] != GrB_SUCCESS) return status [k] ;
    }
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// programs
//------------------------------------------------------------------------------

char *gcu_jit_program (const char *preamble, const char *const *blocks, int n)
{
    gcu_str s ;
    gcu_str_init (&s) ;
    gcu_str_add (&s, "// generated by grbcuda's JIT\n") ;
    if (preamble != NULL) gcu_str_add (&s, preamble) ;
    for (int k = 0 ; k < n ; k++)
    {
        gcu_str_add (&s, "\n") ;
        gcu_str_add (&s, blocks [k]) ;
    }
    return gcu_str_take (&s) ;
}

GrB_Info gcu_jit_compile_block (const char *preamble, gcu_str *block, const char *label,
    const gcu_jit_binary **bin)
{
    *bin = NULL ;
    char *text = gcu_str_take (block) ;     // (NULL when out of memory)
    if (text == NULL) return GrB_OUT_OF_MEMORY ;
    const char *blocks [1] = { text } ;
    char *program = gcu_jit_program (preamble, blocks, 1) ;
    free (text) ;
    if (program == NULL) return GrB_OUT_OF_MEMORY ;
    GrB_Info info = gcu_jit_compile (program, label, bin) ;
    free (program) ;
    return info ;
}

GrB_Info gcu_jit_block_kernels (GrB_Info built, const char *preamble, gcu_str *block,
    const char *label, int n, const char *const *entries, void **const *fns)
{
    if (built != GrB_SUCCESS)
    {
        gcu_str_free (block) ;
        return built ;
    }
    const gcu_jit_binary *bin = NULL ;
    GrB_Info info = gcu_jit_compile_block (preamble, block, label, &bin) ;
    for (int k = 0 ; k < n && info == GrB_SUCCESS ; k++)
    {
        info = gcu_jit_function (bin, entries [k], fns [k]) ;
    }
    return info ;
}
