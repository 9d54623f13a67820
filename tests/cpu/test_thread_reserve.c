// GRBCUDA_TEST_INTERNAL
// test_thread_reserve.c — while the library's background threads work (CUDA's
// start, JIT compiles), SuiteSparse runs a thread fewer for each where it has
// one on every core (src/util/thread.c), and gets its count back after; a
// count the program sets meanwhile is the program's and stays; a program
// that leaves cores free keeps its count; the library's own OpenMP regions
// follow (gcu_thread_host_count).
#define _GNU_SOURCE
#include "gcu_test.h"
#include "util/gcu_util.h"
#include <pthread.h>
#include <sched.h>

static int cpus (void)
{
    cpu_set_t s ;
    CPU_ZERO (&s) ;
    return sched_getaffinity (0, sizeof (s), &s) == 0 && CPU_COUNT (&s) > 0 ? CPU_COUNT (&s) : 1 ;
}

static int threads (void)
{
    int32_t n = -1 ;
    OK (GxB_Global_Option_get_INT32 (GxB_NTHREADS, &n)) ;
    return n ;
}

static void set_threads (int n)
{
    OK (GxB_Global_Option_set_INT32 (GxB_NTHREADS, n)) ;
}

static void *bg_then_end (void *arg)
{
    (void) arg ;
    gcu_thread_background_begin () ;
    gcu_thread_background_end () ;
    return NULL ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    const int ncpu = cpus () ;
    printf ("test_thread_reserve: %d cores\n", ncpu) ;

    // a thread on every core (and more): one fewer a background thread
    for (int base = ncpu ; base <= ncpu + 2 ; base++)
    {
        set_threads (base) ;
        gcu_thread_background_begin () ;
        const int over1 = base + 1 - ncpu ;
        const int want1 = base - over1 < 1 ? 1 : base - over1 ;
        CHECK (threads () == want1, "base %d, one background thread: %d threads, want %d", base, threads (), want1) ;
        CHECK (gcu_thread_host_count (base) == want1, "host count %d, want %d", gcu_thread_host_count (base), want1) ;
        gcu_thread_background_begin () ;
        const int over2 = base + 2 - ncpu ;
        const int want2 = base - over2 < 1 ? 1 : base - over2 ;
        CHECK (threads () == want2, "base %d, two background threads: %d threads, want %d", base, threads (), want2) ;
        gcu_thread_background_end () ;
        CHECK (threads () == want1, "base %d, back to one: %d threads, want %d", base, threads (), want1) ;
        gcu_thread_background_end () ;
        CHECK (threads () == base, "base %d given back: %d threads", base, threads ()) ;
        CHECK (gcu_thread_host_count (base) == base, "host count after: %d", gcu_thread_host_count (base)) ;
    }

    // a program that leaves a core free keeps its count
    if (ncpu >= 2)
    {
        set_threads (ncpu - 1) ;
        gcu_thread_background_begin () ;
        CHECK (threads () == ncpu - 1, "a free core: %d threads, want %d", threads (), ncpu - 1) ;
        gcu_thread_background_end () ;
        CHECK (threads () == ncpu - 1, "a free core, after: %d", threads ()) ;
    }

    // the program sets its own count while it is lowered: that count stays
    set_threads (ncpu) ;
    gcu_thread_background_begin () ;
    set_threads (3) ;
    gcu_thread_background_end () ;
    CHECK (threads () == 3, "the program's count while lowered: %d, want 3", threads ()) ;

    // a background thread of its own (as CUDA's start and the JIT's workers run)
    set_threads (ncpu) ;
    pthread_t t ;
    CHECK (pthread_create (&t, NULL, bg_then_end, NULL) == 0, "pthread_create") ;
    pthread_join (t, NULL) ;
    CHECK (threads () == ncpu, "after a background thread: %d threads, want %d", threads (), ncpu) ;

    // after GrB_finalize there is nothing to lower, and nothing breaks
    OK (GrB_finalize ()) ;
    gcu_thread_background_begin () ;
    gcu_thread_background_end () ;
    CHECK (gcu_thread_host_count (4) == 4, "after finalize: %d", gcu_thread_host_count (4)) ;
    return gcu_test_report ("test_thread_reserve") ;
}
