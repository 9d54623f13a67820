// thread.c — the library's background threads (CUDA's start, the JIT's
// compiles) give way to the program's threads.
//
// SuiteSparse runs each call on an OpenMP team of one thread a core, and a
// team's barrier waits for its slowest thread: a background thread that
// shares a core with one of them at the same priority holds the whole call
// for the scheduler's time slice. LAGraph's connected components and
// PageRank on rmat-20-16 in auto mode (H100 machine, 16 cores, 2026-11-26)
// had SuiteSparse calls of 0.07 ms take 8 ms each while a kernel compiled
// or CUDA started. Under SCHED_IDLE a background thread runs only on a core
// nothing else wants, and a waking team thread takes its core at once.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gcu_util.h"
#include <pthread.h>
#include <sched.h>

void gcu_thread_background (void)
{
#ifdef SCHED_IDLE
    struct sched_param p = { .sched_priority = 0 } ;
    // a refusal (a platform without it) leaves the thread as it was
    (void) pthread_setschedparam (pthread_self (), SCHED_IDLE, &p) ;
#endif
}
