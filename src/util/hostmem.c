// hostmem.c — the allocator SuiteSparse uses for the objects it owns: malloc
// and free unless the program gave its own to GxB_init (the Python bindings
// give numpy's). Arrays grbcuda hands to SuiteSparse (pack) must come from
// here, since SuiteSparse frees them with the same allocator.
#include "gcu_util.h"
#include <stdlib.h>

static void *(*user_malloc) (size_t) = malloc ;
static void (*user_free) (void *) = free ;

void gcu_host_allocator_set (void *(*m) (size_t), void (*f) (void *))
{
    user_malloc = (m != NULL) ? m : malloc ;
    user_free = (f != NULL) ? f : free ;
}

void *gcu_host_malloc (size_t bytes) { return user_malloc (bytes > 0 ? bytes : 1) ; }
void gcu_host_free (void *p) { if (p != NULL) user_free (p) ; }

// glibc's malloc serves a request of at least its mmap threshold by a mapping
// of its own, faulted in page by page and unmapped at its free; it starts the
// threshold at 128 KiB and raises it to the size of each mapped block freed
// (up to 32 MiB), the trim threshold (memory at the heap's top given back to
// the system) to twice that. So whether SuiteSparse's work arrays of a few MB
// come back from the heap or are mapped and faulted anew in every call
// depends on which blocks the process freed before. The GPU path changes that
// history: with PageRank's products on the device, LAGraph's connected
// components on urand-20-16 then faulted 15,400 pages a trial against 8,200
// and ran 29 ms against 20; with both thresholds fixed, 8,228 and 20.5 ms
// (H200, 2026-11-28, bench/RESULTS.md). SuiteSparse alone has the same
// dependence (its connected components on rmat-20-16: 29.5 ms, 20.3 with the
// thresholds fixed). Fixed at the dynamic rule's ceiling, the process keeps
// at most 64 MiB free at each arena's top.
#if defined (__GLIBC__)
#include <malloc.h>
#include <string.h>

static int malloc_env_sets_thresholds (void)
{
    const char *t = getenv ("GLIBC_TUNABLES") ;
    return getenv ("MALLOC_MMAP_THRESHOLD_") != NULL
        || getenv ("MALLOC_TRIM_THRESHOLD_") != NULL
        || (t != NULL && (strstr (t, "malloc.mmap_threshold") != NULL
                       || strstr (t, "malloc.trim_threshold") != NULL)) ;
}

void gcu_host_malloc_steady (void)
{
    static _Atomic int done ;
    if (done++ != 0) return ;
    if (!gcu_settings ()->malloc_steady)
    {
        gcu_log ("malloc: glibc's thresholds left to its dynamic rule (GRBCUDA_MALLOC=0)") ;
        return ;
    }
    if (malloc_env_sets_thresholds ())
    {
        gcu_log ("malloc: glibc's thresholds left as the environment sets them") ;
        return ;
    }
    const int mmap_at = 32 << 20, trim_at = 64 << 20 ;
    const int ok = mallopt (M_MMAP_THRESHOLD, mmap_at) && mallopt (M_TRIM_THRESHOLD, trim_at) ;
    gcu_log ("malloc: glibc's mmap threshold fixed at 32 MiB, its trim threshold at 64 MiB%s "
        "(GRBCUDA_MALLOC=0 leaves them)", ok ? "" : ": refused") ;
}
#else
void gcu_host_malloc_steady (void) { }
#endif
