// thread.c — the library's background threads (CUDA's start, the JIT's
// compiles) give way to the program's threads.
//
// SuiteSparse runs each call on an OpenMP team of one thread a core, and a
// team's barrier waits for its slowest thread: a background thread that
// shares a core with one of them holds the whole call for the scheduler's
// time slice. Measured on the H100 machine (16 cores, 2026-11-26,
// bench/background.c): with one background thread busy, SuiteSparse's
// 1M-entry eWiseAdd took 8.3 ms against 0.47 quiet and an rmat-20-16 mxv
// 11.7-15.7 ms against 4.1 — the same whether the thread spun, compiled with
// NVRTC or touched memory, and whether it ran at normal priority or under
// SCHED_IDLE (which cannot stop it: an OpenMP thread that spins in a barrier
// still lets the scheduler run an idle task on its core now and then). With
// SuiteSparse's threads one fewer than the cores, the same calls took 0.45
// and 3.6 ms. So while background threads work, SuiteSparse gets one thread
// fewer for each of them where it would otherwise have a thread on every
// core (GxB_NTHREADS, given back when they finish); a value the program sets
// meanwhile is the program's and stays. The library's own OpenMP regions
// (exports, staging) take the same count (gcu_thread_host_count).
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gcu_util.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

static pthread_mutex_t reserve_lock = PTHREAD_MUTEX_INITIALIZER ;
static int active ;             // background threads at work
static int base ;               // SuiteSparse's threads before they were lowered
static int set_to = -1 ;        // the count the library set (-1: none)
static atomic_int reserved ;    // base - set_to while lowered, else 0

static int cpus (void)
{
    cpu_set_t s ;
    CPU_ZERO (&s) ;
    if (sched_getaffinity (0, sizeof (s), &s) == 0 && CPU_COUNT (&s) > 0) return CPU_COUNT (&s) ;
    long n = sysconf (_SC_NPROCESSORS_ONLN) ;
    return n > 0 ? (int) n : 1 ;
}

// SuiteSparse's thread count for the number of background threads now at
// work (reserve_lock held)
static void adjust (void)
{
    int32_t now = 0 ;
    // before GrB_init or after GrB_finalize: nothing to lower
    if (GxB_Global_Option_get_INT32 (GxB_NTHREADS, &now) != GrB_SUCCESS || now < 1) return ;
    if (set_to < 0 || now != set_to) base = now ;      // the program's own count
    int want = base ;
    const int over = base + active - cpus () ;
    if (active > 0 && over > 0) want = base - over < 1 ? 1 : base - over ;
    if (want != now)
    {
        if (GxB_Global_Option_set_INT32 (GxB_NTHREADS, want) != GrB_SUCCESS) want = now ;
        else gcu_log ("host: SuiteSparse's threads %d -> %d (%d background thread%s at work)",
            (int) now, want, active, active == 1 ? "" : "s") ;
    }
    set_to = want != base ? want : -1 ;
    atomic_store (&reserved, want < base ? base - want : 0) ;
}

void gcu_thread_background_begin (void)
{
#ifdef SCHED_IDLE
    // kept: a core the program leaves idle is where it belongs
    struct sched_param p = { .sched_priority = 0 } ;
    (void) pthread_setschedparam (pthread_self (), SCHED_IDLE, &p) ;
#endif
    pthread_mutex_lock (&reserve_lock) ;
    active++ ;
    adjust () ;
    pthread_mutex_unlock (&reserve_lock) ;
}

void gcu_thread_background_end (void)
{
    pthread_mutex_lock (&reserve_lock) ;
    if (active > 0) active-- ;
    adjust () ;
    pthread_mutex_unlock (&reserve_lock) ;
}

int gcu_thread_host_count (int threads)
{
    const int r = atomic_load_explicit (&reserved, memory_order_relaxed) ;
    return threads - r < 1 ? 1 : threads - r ;
}
