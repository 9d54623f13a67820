// jit_background.c — compilation off the critical path (issue 23). A call
// whose kernel is in neither cache, and that the dispatch judges too small
// to wait for NVRTC (gcu_jit_defer_begin), does not compile it: jit_compile.c
// claims the key as usual (so one key compiles once, whoever asks) and hands
// the job here; a few worker threads run NVRTC and publish into the same
// caches as a synchronous compile would. Workers start on demand and exit
// when the queue is empty, so a program that never defers has none.
//
// GrB_finalize (and exit, for a program that never calls it) stops the
// queue: jobs not started are abandoned (their keys go back to RETRY and
// compile again when next asked for), compiles under way are waited for
// (NVRTC cannot be interrupted, and the process must not unload it under a
// running thread).
#include "gcu_jit_internal.h"
#include "../util/gcu_util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// workers at most: NVRTC takes a core each, beside SuiteSparse's threads
#define GCU_JIT_BACKGROUND_WORKERS 2

static pthread_mutex_t bg_lock = PTHREAD_MUTEX_INITIALIZER ;
static pthread_cond_t bg_idle = PTHREAD_COND_INITIALIZER ;
static gcu_jit_job *bg_head, *bg_tail ;
static int bg_queued, bg_running, bg_workers ;
static bool bg_stopping ;
static pthread_once_t bg_exit_once = PTHREAD_ONCE_INIT ;

static __thread bool tl_defer, tl_deferred ;

void gcu_jit_defer_begin (bool allow)
{
    tl_defer = allow ;
    tl_deferred = false ;
}

bool gcu_jit_defer_end (void)
{
    bool d = tl_deferred ;
    tl_defer = tl_deferred = false ;
    return d ;
}

bool gcu_jit_defer_wanted (void) { return tl_defer ; }
void gcu_jit_note_deferred (void) { tl_deferred = true ; }

static void job_free (gcu_jit_job *j)
{
    free (j->source) ;
    free (j) ;
}

// GRBCUDA_JIT_IDLE: a compile waits for a core the program leaves idle (its
// threads' CPU time over this window), and the worker holds a background
// thread's place (SuiteSparse a thread fewer) only while it compiles. NVRTC
// beside LAGraph's connected components, whose own OpenMP loops take every
// core, cost 3-4 trials 30-45 ms each against 25 (H200, 2026-11-28); a
// rent on the compile could not tell that program from SSSP, beside whose
// SuiteSparse calls a compile costs nearly nothing (bench/RESULTS.md).
#define GCU_JIT_IDLE_WINDOW 0.02
static _Atomic uint64_t bg_idle_waits ;

uint64_t gcu_jit_background_idle_waits (void)
{
    return atomic_load_explicit (&bg_idle_waits, memory_order_relaxed) ;
}

static void *worker (void *arg)
{
    (void) arg ;
    const bool idle = gcu_settings ()->jit_idle != 0 ;
    if (!idle) gcu_thread_background_begin () ;
    double waited = 0 ;
    pthread_mutex_lock (&bg_lock) ;
    while (bg_head != NULL)
    {
        if (idle)
        {
            // (a stop meanwhile empties the queue: the loop ends)
            pthread_mutex_unlock (&bg_lock) ;
            const double w0 = gcu_now () ;
            const bool room = gcu_thread_room (GCU_JIT_IDLE_WINDOW) ;
            waited += gcu_now () - w0 ;
            if (!room) atomic_fetch_add_explicit (&bg_idle_waits, 1, memory_order_relaxed) ;
            pthread_mutex_lock (&bg_lock) ;
            if (!room) continue ;
        }
        if (bg_head == NULL) break ;
        gcu_jit_job *j = bg_head ;
        bg_head = j->next ;
        if (bg_head == NULL) bg_tail = NULL ;
        bg_queued-- ;
        bg_running++ ;
        pthread_mutex_unlock (&bg_lock) ;
        if (idle) gcu_thread_background_begin () ;
        double t0 = gcu_now () ;
        GrB_Info info = gcu_jit_build (j) ;
        char wait [64] = "" ;
        if (idle) snprintf (wait, sizeof (wait), " (after %.3f s waiting for an idle core)", waited) ;
        gcu_log ("JIT %s: background compile %s in %.3f s%s", j->label,
            info == GrB_SUCCESS ? "done" : "failed", gcu_now () - t0, wait) ;
        waited = 0 ;
        job_free (j) ;
        if (idle) gcu_thread_background_end () ;
        pthread_mutex_lock (&bg_lock) ;
        bg_running-- ;
    }
    // SuiteSparse's threads given back before GrB_finalize can see no
    // worker left (gcu_jit_background_stop waits for bg_idle)
    if (!idle) gcu_thread_background_end () ;
    bg_workers-- ;
    pthread_cond_broadcast (&bg_idle) ;
    pthread_mutex_unlock (&bg_lock) ;
    return NULL ;
}

static void at_exit (void)
{
    gcu_jit_background_stop () ;
}

static void exit_hook (void)
{
    (void) atexit (at_exit) ;
}

// a worker more when the queue holds more jobs than workers (bg_lock held);
// false if none runs at all
static bool workers_enough (void)
{
    if (bg_workers >= GCU_JIT_BACKGROUND_WORKERS || bg_workers >= bg_queued + bg_running)
        return true ;
    pthread_attr_t attr ;
    pthread_t t ;
    bool made = pthread_attr_init (&attr) == 0 ;
    made = made && pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED) == 0
        && pthread_create (&t, &attr, worker, NULL) == 0 ;
    if (made) bg_workers++ ;
    (void) pthread_attr_destroy (&attr) ;
    return bg_workers > 0 ;
}

bool gcu_jit_background_take (const gcu_jit_job *j)
{
    gcu_jit_job *q = malloc (sizeof (gcu_jit_job)) ;
    char *src = strdup (j->source) ;
    if (q == NULL || src == NULL)
    {
        free (q) ;
        free (src) ;
        return false ;
    }
    *q = *j ;
    q->source = src ;
    q->next = NULL ;
    pthread_once (&bg_exit_once, exit_hook) ;
    pthread_mutex_lock (&bg_lock) ;
    bool ok = !bg_stopping ;
    if (ok)
    {
        if (bg_tail != NULL) bg_tail->next = q ; else bg_head = q ;
        bg_tail = q ;
        bg_queued++ ;
        ok = workers_enough () ;
        if (!ok)
        {
            // no thread to run it: the caller compiles (the job was the last)
            bg_head = bg_tail = NULL ;
            bg_queued = 0 ;
        }
    }
    pthread_mutex_unlock (&bg_lock) ;
    if (!ok) job_free (q) ;
    else gcu_log ("JIT %s: compiling in the background", j->label) ;
    return ok ;
}

void gcu_jit_background_stop (void)
{
    pthread_mutex_lock (&bg_lock) ;
    bg_stopping = true ;
    gcu_jit_job *drop = bg_head ;
    bg_head = bg_tail = NULL ;
    bg_queued = 0 ;
    while (bg_workers > 0) pthread_cond_wait (&bg_idle, &bg_lock) ;
    bg_stopping = false ;
    pthread_mutex_unlock (&bg_lock) ;
    int n = 0 ;
    while (drop != NULL)
    {
        gcu_jit_job *next = drop->next ;
        gcu_jit_publish (drop->b, GCU_JIT_ABANDONED, NULL, 0, false) ;
        job_free (drop) ;
        drop = next ;
        n++ ;
    }
    if (n > 0) gcu_log ("JIT: %d background compiles abandoned", n) ;
}

int gcu_jit_background_pending (void)
{
    pthread_mutex_lock (&bg_lock) ;
    int n = bg_queued + bg_running ;
    pthread_mutex_unlock (&bg_lock) ;
    return n ;
}

// gcu_jit_prepare under way: requests that may defer do not wait for it
static _Atomic bool jit_preparing ;

bool gcu_jit_preparing (void) { return atomic_load (&jit_preparing) ; }

bool gcu_jit_busy (void)
{
    return gcu_jit_preparing () || gcu_jit_background_pending () > 0 ;
}

void gcu_jit_prepare (void)
{
    const gcu_jit_file *files ;
    int nfiles ;
    const uint8_t *digest ;
    atomic_store (&jit_preparing, true) ;
    if (gcu_nvrtc () != NULL) (void) gcu_jit_sources (&files, &nfiles, &digest) ;
    atomic_store (&jit_preparing, false) ;
}

void gcu_jit_background_wait (void)
{
    pthread_mutex_lock (&bg_lock) ;
    while (bg_workers > 0) pthread_cond_wait (&bg_idle, &bg_lock) ;
    pthread_mutex_unlock (&bg_lock) ;
}
