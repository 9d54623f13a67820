// settings.c — the GRBCUDA_* environment variables, read once (thread-safe)
// on first use, and the public grbcuda_set_*/get_* functions that change them
// later. Numeric settings live in atomics so a setter racing a call is safe.
#include "gcu_util.h"
#include "grbcuda.h"
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

// No threshold: auto mode's cost model decides (src/dispatch/cost.c). A
// threshold set by GRBCUDA_THRESHOLD or grbcuda_set_threshold replaces it
// with the rule "the GPU from this much estimated work on".
#define GCU_NO_THRESHOLD (-1.0)

static gcu_settings_t settings ;
static pthread_once_t settings_once = PTHREAD_ONCE_INIT ;
// mode, verbose and stats: gcu_flags_ (gcu_util.h), 0 until the environment is read
_Atomic unsigned gcu_flags_ ;
static _Atomic int a_keep ;
static _Atomic double a_threshold ;
static _Atomic int64_t a_spgemm_block ;
static _Atomic int a_jit_background ;
static _Atomic int a_device_transpose ;

int gcu_env_int (const char *name, int dflt)
{
    const char *e = getenv (name) ;
    return e != NULL && e [0] != '\0' ? atoi (e) : dflt ;
}

static int parse_bool (const char *s)
{
    if (s == NULL || *s == '\0') return 0 ;
    return !(strcmp (s, "0") == 0 || strcasecmp (s, "false") == 0
        || strcasecmp (s, "no") == 0 || strcasecmp (s, "off") == 0) ;
}

// A size in bytes from the environment, with an optional K, M or G (binary)
// suffix; dflt when unset or not understood (said on stderr).
static int64_t bytes_setting (const char *name, int64_t dflt)
{
    const char *e = getenv (name) ;
    if (e == NULL || *e == '\0') return dflt ;
    char *end ;
    errno = 0 ;
    double v = strtod (e, &end) ;
    double scale = 1 ;
    if (*end == 'k' || *end == 'K') { scale = 1024 ; end++ ; }
    else if (*end == 'm' || *end == 'M') { scale = 1024.0 * 1024 ; end++ ; }
    else if (*end == 'g' || *end == 'G') { scale = 1024.0 * 1024 * 1024 ; end++ ; }
    if (errno == 0 && end != e && *end == '\0' && v >= 0 && v * scale < 9e18) return (int64_t) (v * scale) ;
    fprintf (stderr, "[grbcuda] %s=%s not a size (e.g. 4096, 64M, 2G); "
        "using the default\n", name, e) ;
    return dflt ;
}

static void settings_read (void)
{
    gcu_settings_t *s = &settings ;
    s->mode = GRBCUDA_MODE_AUTO ;
    s->threshold = GCU_NO_THRESHOLD ;
    s->verbose = parse_bool (getenv ("GRBCUDA_VERBOSE")) ;
    s->stats = parse_bool (getenv ("GRBCUDA_STATS")) ;
    const char *k = getenv ("GRBCUDA_KEEP_RESULTS") ;
    s->keep_results = (k == NULL || *k == '\0') ? 1 : parse_bool (k) ;
    const char *m = getenv ("GRBCUDA_MODE") ;
    if (m != NULL && *m != '\0')
    {
        if (strcasecmp (m, "auto") == 0) s->mode = GRBCUDA_MODE_AUTO ;
        else if (strcasecmp (m, "gpu") == 0) s->mode = GRBCUDA_MODE_GPU ;
        else if (strcasecmp (m, "host") == 0) s->mode = GRBCUDA_MODE_HOST ;
        else fprintf (stderr, "[grbcuda] GRBCUDA_MODE=%s not understood "
            "(auto|gpu|host); using auto\n", m) ;
    }
    const char *t = getenv ("GRBCUDA_THRESHOLD") ;
    if (t != NULL && *t != '\0')
    {
        char *end ;
        errno = 0 ;
        double v = strtod (t, &end) ;
        if (errno == 0 && *end == '\0' && v >= 0 && !isnan (v)) s->threshold = v ;
        else fprintf (stderr, "[grbcuda] GRBCUDA_THRESHOLD=%s not a "
            "non-negative number; the cost model decides\n", t) ;
    }
    s->device = 0 ;
    const char *d = getenv ("GRBCUDA_DEVICE") ;
    if (d != NULL && *d != '\0')
    {
        char *end ;
        long v = strtol (d, &end, 10) ;
        if (*end == '\0' && v >= 0 && v < 1024) s->device = (int) v ;
        else fprintf (stderr, "[grbcuda] GRBCUDA_DEVICE=%s not a device "
            "ordinal; using 0\n", d) ;
    }
    s->spgemm_block = bytes_setting ("GRBCUDA_SPGEMM_BLOCK", 0) ;
    s->pool_keep = bytes_setting ("GRBCUDA_POOL_KEEP", -1) ;
    const char *c = getenv ("GRBCUDA_CACHE_DIR") ;
    if (c != NULL) snprintf (s->cache_dir, sizeof (s->cache_dir), "%s", c) ;
    const char *jb = getenv ("GRBCUDA_JIT_BACKGROUND") ;
    s->jit_background = (jb == NULL || *jb == '\0') ? 1 : parse_bool (jb) ;
    s->jit_idle = parse_bool (getenv ("GRBCUDA_JIT_IDLE")) ;
    const char *ma = getenv ("GRBCUDA_MALLOC") ;
    s->malloc_steady = (ma == NULL || *ma == '\0') ? 1 : parse_bool (ma) ;
    const char *st = getenv ("GRBCUDA_START") ;
    s->start_when = GCU_START_DEFAULT ;
    if (st != NULL && strcmp (st, "init") == 0) s->start_when = GCU_START_INIT ;
    else if (st != NULL && strcmp (st, "data") == 0) s->start_when = GCU_START_DATA ;
    else if (st != NULL && strcmp (st, "call") == 0) s->start_when = GCU_START_CALL ;
    else if (st != NULL && *st != '\0')
        fprintf (stderr, "[grbcuda] GRBCUDA_START=%s is not init, data or call; using the default\n", st) ;
    s->start_entries = bytes_setting ("GRBCUDA_START_ENTRIES", GCU_START_ENTRIES_DEFAULT) ;
    const char *sr = getenv ("GRBCUDA_START_RENT") ;
    // a fraction of the table's cuda_start, or a boolean (on: 1); by
    // default a fifth (bench/RESULTS.md, 2026-11-27 08:30 UTC section: a 15 ms
    // program no longer waits 0.35-0.6 s for a start it never uses, and the
    // showcase BFS pays for the start in its first search)
    s->start_rent = GCU_START_RENT_DEFAULT ;
    if (sr != NULL && *sr != '\0')
    {
        char *end ;
        const double v = strtod (sr, &end) ;
        if (end != sr && *end == '\0') s->start_rent = v > 0 ? v : 0 ;
        else s->start_rent = parse_bool (sr) ? 1 : 0 ;
    }
    const char *dt = getenv ("GRBCUDA_DEVICE_TRANSPOSE") ;
    s->device_transpose = (dt == NULL || *dt == '\0') ? 1 : parse_bool (dt) ;
    atomic_store (&a_device_transpose, s->device_transpose) ;
    atomic_store (&a_jit_background, s->jit_background) ;
    atomic_store (&a_keep, s->keep_results) ;
    atomic_store (&a_threshold, s->threshold) ;
    atomic_store (&a_spgemm_block, s->spgemm_block) ;
    // last: a reader that sees GCU_FLAG_READ skips this function
    atomic_store (&gcu_flags_, GCU_FLAG_READ | GCU_FLAG_MODE (s->mode)
        | (s->verbose ? GCU_FLAG_VERBOSE : 0u) | (s->stats ? GCU_FLAG_STATS : 0u)) ;
}

const gcu_settings_t *gcu_settings (void)
{
    pthread_once (&settings_once, settings_read) ;
    return &settings ;
}

unsigned gcu_flags_slow (void)
{
    gcu_settings () ;
    return atomic_load_explicit (&gcu_flags_, memory_order_relaxed) ;
}

// replaces the bits of mask with bits (the environment read first, so that
// its own store cannot overwrite a setter's)
static void flags_set (unsigned mask, unsigned bits)
{
    gcu_settings () ;
    unsigned f = atomic_load (&gcu_flags_) ;
    while (!atomic_compare_exchange_weak (&gcu_flags_, &f, (f & ~mask) | bits)) { }
}

int gcu_mode (void) { return (int) ((gcu_flags () & GCU_FLAG_MODE_MASK) >> GCU_FLAG_MODE_SHIFT) ; }
int gcu_verbose (void) { return (gcu_flags () & GCU_FLAG_VERBOSE) != 0 ; }
int gcu_stats_enabled (void) { return (gcu_flags () & GCU_FLAG_STATS) != 0 ; }
int gcu_keep_results (void) { gcu_settings () ; return atomic_load_explicit (&a_keep, memory_order_relaxed) ; }

GrB_Info grbcuda_set_keep_results (bool keep)
{
    gcu_settings () ;
    atomic_store (&a_keep, keep ? 1 : 0) ;
    return GrB_SUCCESS ;
}
double gcu_threshold (void) { gcu_settings () ; return atomic_load_explicit (&a_threshold, memory_order_relaxed) ; }
int64_t gcu_spgemm_block_bytes (void) { gcu_settings () ; return atomic_load_explicit (&a_spgemm_block, memory_order_relaxed) ; }

void gcu_spgemm_block_bytes_set (int64_t bytes)
{
    gcu_settings () ;
    atomic_store (&a_spgemm_block, bytes > 0 ? bytes : 0) ;
}

int gcu_device_transpose_enabled (void) { gcu_settings () ; return atomic_load_explicit (&a_device_transpose, memory_order_relaxed) ; }

void gcu_device_transpose_set (int on)
{
    gcu_settings () ;
    atomic_store (&a_device_transpose, on != 0) ;
}

GrB_Info grbcuda_set_mode (grbcuda_mode mode)
{
    if (mode != GRBCUDA_MODE_AUTO && mode != GRBCUDA_MODE_GPU
        && mode != GRBCUDA_MODE_HOST) return GrB_INVALID_VALUE ;
    flags_set (GCU_FLAG_MODE_MASK, GCU_FLAG_MODE (mode)) ;
    return GrB_SUCCESS ;
}

grbcuda_mode grbcuda_get_mode (void) { return (grbcuda_mode) gcu_mode () ; }

GrB_Info grbcuda_set_threshold (double work)
{
    if (!(work >= 0)) return GrB_INVALID_VALUE ;   // also rejects NaN
    gcu_settings () ;
    atomic_store (&a_threshold, work) ;
    return GrB_SUCCESS ;
}

double grbcuda_get_threshold (void) { return gcu_threshold () ; }

void gcu_threshold_clear (void)
{
    gcu_settings () ;
    atomic_store (&a_threshold, GCU_NO_THRESHOLD) ;
}

int gcu_jit_background_enabled (void)
{
    gcu_settings () ;
    return atomic_load_explicit (&a_jit_background, memory_order_relaxed) ;
}

GrB_Info grbcuda_set_jit_background (bool on)
{
    gcu_settings () ;
    atomic_store (&a_jit_background, on ? 1 : 0) ;
    return GrB_SUCCESS ;
}

GrB_Info grbcuda_set_verbose (int verbose)
{
    flags_set (GCU_FLAG_VERBOSE, verbose != 0 ? GCU_FLAG_VERBOSE : 0u) ;
    return GrB_SUCCESS ;
}

double gcu_now (void)
{
    struct timespec ts ;
    clock_gettime (CLOCK_MONOTONIC, &ts) ;
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec ;
}
