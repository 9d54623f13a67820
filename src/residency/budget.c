// budget.c — the residency cache's device memory: the allocator (a host one
// for the CPU tests), the byte budget and GRBCUDA_DEVICE_MEMORY's parsing.
#include "gcu_res_internal.h"
#include "gcu_util.h"
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

// Budget when neither GRBCUDA_DEVICE_MEMORY nor a device capacity is known.
#define GCU_RES_FALLBACK_BUDGET ((size_t) 1 << 30)
#define GCU_RES_DEFAULT_FRACTION 0.5

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
void gcu_res_compute_budget (void)
{
    if (gcu_res_reg.budget_explicit) return ;
    size_t cap = gcu_res_reg.has_alloc ? gcu_res_reg.alloc.capacity : 0 ;
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
    gcu_res_reg.budget = b ;
    gcu_res_reg.budget_known = true ;
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

GrB_Info gcu_residency_set_allocator (const gcu_res_allocator *a)
{
    if (a != NULL && (a->alloc == NULL || a->free == NULL)) return GrB_NULL_POINTER ;
    gcu_residency_clear_all () ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    gcu_res_reg.has_alloc = (a != NULL) ;
    if (a != NULL) gcu_res_reg.alloc = *a ;
    gcu_res_reg.budget_known = false ;
    gcu_res_compute_budget () ;
    size_t budget = gcu_res_reg.budget ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    gcu_log ("residency: allocator %s, capacity %zu, budget %zu bytes",
        a && a->name ? a->name : (a ? "?" : "none"), a ? a->capacity : 0, budget) ;
    return GrB_SUCCESS ;
}

GrB_Info gcu_residency_set_budget (size_t bytes)
{
    gcu_res_entry *grave = NULL ;
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    gcu_res_reg.budget = bytes ;
    gcu_res_reg.budget_known = gcu_res_reg.budget_explicit = true ;
    while (gcu_res_reg.used > gcu_res_reg.budget && gcu_res_evict_one (&grave)) { }
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    gcu_res_bury_flush (grave) ;
    return GrB_SUCCESS ;
}

size_t gcu_residency_budget (void)
{
    pthread_mutex_lock (&gcu_res_reg.lock) ;
    if (!gcu_res_reg.budget_known) gcu_res_compute_budget () ;
    size_t b = gcu_res_reg.budget ;
    pthread_mutex_unlock (&gcu_res_reg.lock) ;
    return b ;
}
