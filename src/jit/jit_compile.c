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
// On disk: <dir>/<key>.cubin, a header (magic, format, payload size, key,
// SHA-256 of the payload) then the CUBIN (or PTX). Written to a temporary
// file in the same directory and renamed into place, so concurrent processes
// never see a partial file; read back only if every header field and the
// checksum agree, otherwise recompiled and rewritten. A directory that cannot
// be created or written leaves the cache in memory only.
//
// Batches: independent programs compile in parallel on a few threads.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gcu_jit_internal.h"
#include "gcu_sha256.h"
#include "../util/gcu_util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define GCU_JIT_FORMAT "grbcuda-jit-1"
#define GCU_DISK_MAGIC "GCUJIT01"
#define GCU_DISK_HEADER 88      // magic 8, flags 4, reserved 4, size 8, key 32, sum 32
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
static bool gcu_jit_dir_warned = false ;    // unwritable: say so once

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
    gcu_jit_dir_warned = false ;
    pthread_mutex_unlock (&gcu_jit_lock) ;
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
// disk cache
//------------------------------------------------------------------------------

// mkdir -p, new directories private to the user
static bool gcu_mkdirs (const char *dir)
{
    char p [1024] ;
    if (snprintf (p, sizeof (p), "%s", dir) >= (int) sizeof (p)) return false ;
    for (char *s = p + 1 ; *s ; s++)
    {
        if (*s != '/') continue ;
        *s = '\0' ;
        if (mkdir (p, 0700) != 0 && errno != EEXIST) return false ;
        *s = '/' ;
    }
    if (mkdir (p, 0700) != 0 && errno != EEXIST) return false ;
    struct stat st ;
    return stat (p, &st) == 0 && S_ISDIR (st.st_mode) ;
}

static void gcu_disk_path (char *path, size_t size, const char *dir,
    const uint8_t key [32])
{
    char hex [65] ;
    gcu_sha256_hex (key, hex) ;
    snprintf (path, size, "%s/%s.cubin", dir, hex) ;
}

static void gcu_put64 (uint8_t *p, uint64_t v)
{
    for (int k = 0 ; k < 8 ; k++) p [k] = (uint8_t) (v >> (8 * k)) ;
}

static uint64_t gcu_get64 (const uint8_t *p)
{
    uint64_t v = 0 ;
    for (int k = 0 ; k < 8 ; k++) v |= ((uint64_t) p [k]) << (8 * k) ;
    return v ;
}

// read and verify; true with a malloc'd payload on success
static bool gcu_disk_read (const char *dir, const uint8_t key [32], void **data,
    size_t *size, bool *is_ptx)
{
    char path [1200] ;
    gcu_disk_path (path, sizeof (path), dir, key) ;
    int fd = open (path, O_RDONLY | O_CLOEXEC) ;
    if (fd < 0) return false ;
    bool ok = false ;
    uint8_t *buf = NULL ;
    struct stat st ;
    if (fstat (fd, &st) == 0)
    {
        // anything shorter than a header, or absurdly long, fails the checks
        size_t n = (st.st_size >= GCU_DISK_HEADER && st.st_size < (1 << 30)) ?
            (size_t) st.st_size : 0 ;
        buf = (n > 0) ? malloc (n) : NULL ;
        size_t got = 0 ;
        while (buf != NULL && got < n)
        {
            ssize_t r = read (fd, buf + got, n - got) ;
            if (r <= 0) break ;
            got += (size_t) r ;
        }
        if (buf != NULL && got == n &&
            memcmp (buf, GCU_DISK_MAGIC, 8) == 0 &&
            gcu_get64 (buf + 16) == n - GCU_DISK_HEADER &&
            memcmp (buf + 24, key, 32) == 0)
        {
            uint8_t sum [32] ;
            gcu_sha256 c ;
            gcu_sha256_init (&c) ;
            gcu_sha256_update (&c, buf + GCU_DISK_HEADER, n - GCU_DISK_HEADER) ;
            gcu_sha256_final (&c, sum) ;
            if (memcmp (sum, buf + 56, 32) == 0 && n > GCU_DISK_HEADER)
            {
                *size = n - GCU_DISK_HEADER ;
                *data = malloc (*size) ;
                if (*data != NULL)
                {
                    memcpy (*data, buf + GCU_DISK_HEADER, *size) ;
                    *is_ptx = (buf [8] & 1) != 0 ;
                    ok = true ;
                }
            }
        }
        if (!ok)
        {
            gcu_log ("JIT: cache file %s is corrupt or stale; recompiling", path) ;
            GCU_COUNT (disk_rejects, 1) ;
        }
    }
    free (buf) ;
    close (fd) ;
    return ok ;
}

static bool gcu_write_all (int fd, const void *p, size_t n)
{
    const uint8_t *q = p ;
    while (n > 0)
    {
        ssize_t w = write (fd, q, n) ;
        if (w < 0 && errno == EINTR) continue ;
        if (w <= 0) return false ;
        q += w ;
        n -= (size_t) w ;
    }
    return true ;
}

static void gcu_disk_write (const char *dir, const uint8_t key [32],
    const void *data, size_t size, bool is_ptx)
{
    if (!gcu_mkdirs (dir))
    {
        pthread_mutex_lock (&gcu_jit_lock) ;
        bool warned = gcu_jit_dir_warned ;
        gcu_jit_dir_warned = true ;
        pthread_mutex_unlock (&gcu_jit_lock) ;
        if (!warned) gcu_log ("JIT: cannot create cache directory %s (%s); "
            "kernels are cached in memory only", dir, strerror (errno)) ;
        return ;
    }
    uint8_t head [GCU_DISK_HEADER] ;
    memset (head, 0, sizeof (head)) ;
    memcpy (head, GCU_DISK_MAGIC, 8) ;
    head [8] = is_ptx ? 1 : 0 ;
    gcu_put64 (head + 16, size) ;
    memcpy (head + 24, key, 32) ;
    gcu_sha256 c ;
    gcu_sha256_init (&c) ;
    gcu_sha256_update (&c, data, size) ;
    gcu_sha256_final (&c, head + 56) ;

    // a temporary name no other thread or process uses
    static unsigned gcu_tmp_counter = 0 ;
    unsigned serial = __atomic_fetch_add (&gcu_tmp_counter, 1, __ATOMIC_RELAXED) ;
    char tmp [1200], path [1200] ;
    snprintf (tmp, sizeof (tmp), "%s/.tmp-%ld-%lx-%u", dir, (long) getpid (),
        (unsigned long) pthread_self (), serial) ;
    gcu_disk_path (path, sizeof (path), dir, key) ;
    int fd = open (tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600) ;
    bool ok = (fd >= 0) ;
    if (ok)
    {
        ok = gcu_write_all (fd, head, sizeof (head)) && gcu_write_all (fd, data, size) ;
        if (close (fd) != 0) ok = false ;
        // rename is atomic: readers see the old file, the new one, or none
        if (ok) ok = (rename (tmp, path) == 0) ;
        if (!ok) unlink (tmp) ;
    }
    if (!ok)
    {
        pthread_mutex_lock (&gcu_jit_lock) ;
        bool warned = gcu_jit_dir_warned ;
        gcu_jit_dir_warned = true ;
        pthread_mutex_unlock (&gcu_jit_lock) ;
        if (!warned) gcu_log ("JIT: cannot write the cache in %s (%s); "
            "kernels are cached in memory only", dir, strerror (errno)) ;
        return ;
    }
    GCU_COUNT (disk_writes, 1) ;
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

GrB_Info gcu_jit_compile (const char *source, const char *label,
    const gcu_jit_binary **bin)
{
    if (source == NULL || bin == NULL) return GrB_NULL_POINTER ;
    *bin = NULL ;
    if (label == NULL) label = "kernel" ;
    const gcu_nvrtc_api *nv = gcu_nvrtc () ;
    if (nv == NULL) return GCU_NOT_HANDLED ;
    const gcu_jit_file *files ;
    int nfiles ;
    const uint8_t *digest ;
    GrB_Info info = gcu_jit_sources (&files, &nfiles, &digest) ;
    if (info != GrB_SUCCESS) return info ;
    char target [32] ;
    bool is_ptx = false ;
    if (!gcu_jit_target (nv, target, sizeof (target), &is_ptx)) return GCU_NOT_HANDLED ;

    // the key: everything that changes the code
    uint8_t key [32] ;
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
    size_t bucket = (((size_t) key [0]) | ((size_t) key [1] << 8)) % GCU_JIT_BUCKETS ;

    // memory: hit, wait for another thread's compile, or claim the key
    pthread_mutex_lock (&gcu_jit_lock) ;
    gcu_jit_binary *b = gcu_jit_table [bucket] ;
    while (b != NULL && memcmp (b->key, key, 32) != 0) b = b->next ;
    if (b != NULL)
    {
        while (b->state == GCU_JIT_COMPILING) pthread_cond_wait (&gcu_jit_cond, &gcu_jit_lock) ;
        int state = b->state ;
        if (state == GCU_JIT_RETRY)
        {
            // the last attempt ran out of memory: this thread tries again
            b->state = GCU_JIT_COMPILING ;
        }
        else
        {
            gcu_jit_counts.memory_hits++ ;
            pthread_mutex_unlock (&gcu_jit_lock) ;
            if (state != GCU_JIT_READY) return GCU_NOT_HANDLED ;
            *bin = b ;
            return GrB_SUCCESS ;
        }
    }
    else
    {
        b = calloc (1, sizeof (gcu_jit_binary)) ;
        if (b == NULL)
        {
            pthread_mutex_unlock (&gcu_jit_lock) ;
            return GrB_OUT_OF_MEMORY ;
        }
        memcpy (b->key, key, 32) ;
        b->state = GCU_JIT_COMPILING ;
        b->next = gcu_jit_table [bucket] ;
        gcu_jit_table [bucket] = b ;
    }
    pthread_mutex_unlock (&gcu_jit_lock) ;

    // disk, then NVRTC (outside the lock: other keys proceed meanwhile)
    char dir [1024] ;
    gcu_jit_cache_dir (dir, sizeof (dir)) ;
    void *data = NULL ;
    size_t size = 0 ;
    bool from_disk = false ;
    if (dir [0] != '\0')
    {
        bool disk_ptx = false ;
        from_disk = gcu_disk_read (dir, key, &data, &size, &disk_ptx) ;
        if (from_disk && disk_ptx != is_ptx)
        {
            free (data) ;
            data = NULL ;
            from_disk = false ;
        }
    }
    if (from_disk)
    {
        info = GrB_SUCCESS ;
        GCU_COUNT (disk_hits, 1) ;
        gcu_log ("JIT %s: loaded from the disk cache", label) ;
    }
    else
    {
        info = gcu_nvrtc_compile (nv, source, label, target, files, nfiles,
            &data, &size, is_ptx) ;
        if (info == GrB_SUCCESS && dir [0] != '\0')
        {
            gcu_disk_write (dir, key, data, size, is_ptx) ;
        }
    }

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
        // a program that does not compile never will; memory may come back
        b->state = (info == GrB_OUT_OF_MEMORY) ? GCU_JIT_RETRY : GCU_JIT_FAILED ;
    }
    pthread_cond_broadcast (&gcu_jit_cond) ;
    pthread_mutex_unlock (&gcu_jit_lock) ;
    if (info != GrB_SUCCESS)
    {
        // out of memory is worth reporting as such; anything else means
        // "this kernel cannot be had": the host computes instead
        return (info == GrB_OUT_OF_MEMORY) ? info : GCU_NOT_HANDLED ;
    }
    *bin = b ;
    return GrB_SUCCESS ;
}

void gcu_jit_cache_clear_memory (void)
{
    pthread_mutex_lock (&gcu_jit_lock) ;
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
