// GRBCUDA_TEST_INTERNAL (calls internal gcu_* functions: links grbcuda_static)
// test_jit_background.c — compilation off the critical path (issue 23),
// through the real NVRTC (no GPU needed):
//
//   a request under gcu_jit_defer_begin (true) for a program in neither
//   cache returns GCU_NOT_HANDLED and says it was deferred; the program then
//   lands in the memory and disk caches, compiled once however many threads
//   asked for it meanwhile (deferring or waiting); a waiting request for a
//   program compiling in the background gets that compile's binary; a disk
//   hit is never deferred; a program that does not compile fails once in the
//   background and is remembered (not deferred again, not compiled again);
//   GrB_finalize while compiles are queued and running returns, leaves
//   nothing running, and the abandoned programs compile when asked again;
//   a process that exits while compiling, without GrB_finalize, exits cleanly;
//   with GRBCUDA_JIT_IDLE=1, a compile waits while every core is busy; the
//   dispatch's held kinds (held.c) are held while a compile is pending and
//   released after.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gcu_test.h"
#include "../../src/jit/gcu_jit.h"
#include "../../src/util/gcu_util.h"
#include "../../src/dispatch/gcu_dispatch.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir [64] ;

// a small program with its own key (salt: this process)
static char *program (int n)
{
    char *s = malloc (512) ;
    snprintf (s, 512,
        "#include \"common/gcu_semiring.cuh\"\n"
        "extern \"C\" __global__ void bg_%d_%d (double *x)\n"
        "{ x [threadIdx.x] = gcu_plus (x [threadIdx.x], (double) %d) ; }\n",
        n, (int) getpid (), n) ;
    return s ;
}

static gcu_jit_stats stats (void)
{
    gcu_jit_stats s ;
    gcu_jit_stats_get (&s) ;
    return s ;
}

// one request under the deferring policy: its status, and whether deferred
static GrB_Info deferred_request (const char *src, const gcu_jit_binary **bin, bool *deferred)
{
    gcu_jit_defer_begin (true) ;
    GrB_Info info = gcu_jit_compile (src, "bg", bin) ;
    *deferred = gcu_jit_defer_end () ;
    return info ;
}

typedef struct { const char *src ; bool defer ; GrB_Info info ; bool deferred ; const gcu_jit_binary *bin ; } req ;
static pthread_barrier_t barrier ;

static void *requester (void *arg)
{
    req *r = arg ;
    pthread_barrier_wait (&barrier) ;
    if (r->defer) r->info = deferred_request (r->src, &r->bin, &r->deferred) ;
    else r->info = gcu_jit_compile (r->src, "waiting", &r->bin) ;
    return NULL ;
}

// 8 threads at once on one new program: 6 defer, 2 wait. One compile; the
// waiting ones get its binary; the deferring ones none.
static void same_program_many_threads (void)
{
    char *p = program (1) ;
    gcu_jit_stats s0 = stats () ;
    req r [8] ;
    pthread_t t [8] ;
    pthread_barrier_init (&barrier, NULL, 8) ;
    for (int k = 0 ; k < 8 ; k++)
    {
        r [k] = (req) { .src = p, .defer = k >= 2 } ;
        pthread_create (&t [k], NULL, requester, &r [k]) ;
    }
    for (int k = 0 ; k < 8 ; k++) pthread_join (t [k], NULL) ;
    pthread_barrier_destroy (&barrier) ;
    gcu_jit_background_wait () ;
    const gcu_jit_binary *bin = NULL ;
    OK (gcu_jit_compile (p, "after", &bin)) ;
    for (int k = 0 ; k < 2 ; k++)
        CHECK (r [k].info == GrB_SUCCESS && r [k].bin == bin, "waiting request %d: info %d", k, (int) r [k].info) ;
    int deferred = 0 ;
    for (int k = 2 ; k < 8 ; k++)
    {
        // a deferring request either found it compiled (a waiting thread
        // won the race and finished first) or was deferred
        CHECK ((r [k].info == GrB_SUCCESS && r [k].bin == bin && !r [k].deferred)
            || (r [k].info == GCU_NOT_HANDLED && r [k].bin == NULL && r [k].deferred),
            "deferring request %d: info %d, deferred %d", k, (int) r [k].info, (int) r [k].deferred) ;
        deferred += r [k].deferred ;
    }
    gcu_jit_stats s1 = stats () ;
    CHECK (s1.compiles - s0.compiles == 1, "one program, %llu compiles",
        (unsigned long long) (s1.compiles - s0.compiles)) ;
    printf ("8 threads on one program: %d deferred, 1 compile\n", deferred) ;
    free (p) ;
}

// deferred, then in memory and on disk; asked again while compiling: deferred
// again, not compiled again; a disk hit is not deferred
static void deferred_then_cached (void)
{
    char *p = program (2) ;
    gcu_jit_stats s0 = stats () ;
    const gcu_jit_binary *bin = NULL ;
    bool deferred = false ;
    CHECK (deferred_request (p, &bin, &deferred) == GCU_NOT_HANDLED && bin == NULL && deferred,
        "a new program under the deferring policy") ;
    GrB_Info again = deferred_request (p, &bin, &deferred) ;
    CHECK ((again == GCU_NOT_HANDLED && deferred) || (again == GrB_SUCCESS && !deferred),
        "asked again while compiling: info %d deferred %d", (int) again, (int) deferred) ;
    gcu_jit_background_wait () ;
    CHECK (gcu_jit_background_pending () == 0 && !gcu_jit_busy (), "pending after the wait") ;
    OK (deferred_request (p, &bin, &deferred)) ;
    CHECK (bin != NULL && !deferred, "compiled in the background: a memory hit") ;
    gcu_jit_stats s1 = stats () ;
    CHECK (s1.compiles - s0.compiles == 1 && s1.disk_writes - s0.disk_writes == 1,
        "one compile, one file: %llu, %llu", (unsigned long long) (s1.compiles - s0.compiles),
        (unsigned long long) (s1.disk_writes - s0.disk_writes)) ;
    gcu_jit_cache_clear_memory () ;
    OK (deferred_request (p, &bin, &deferred)) ;
    CHECK (bin != NULL && !deferred && stats ().disk_hits == s1.disk_hits + 1, "a disk hit is not deferred") ;
    // without the policy (or after end), requests wait as always
    char *q = program (3) ;
    gcu_jit_defer_begin (false) ;
    OK (gcu_jit_compile (q, "not deferred", &bin)) ;
    CHECK (bin != NULL && !gcu_jit_defer_end (), "allow false: compiled in the call") ;
    free (p) ;
    free (q) ;
}

// GRBCUDA_JIT_IDLE=1 (test_jit_background_idle): a compile queued while
// threads of the process spin on every core (four a core: other processes
// beside it, ctest's parallel tests, still leave it more than the cores less
// one) looks for an idle core, finds none and waits, and SuiteSparse keeps
// its threads meanwhile; once they stop it runs. (The worker runs under
// SCHED_IDLE, so the spinners alone hold it too: the looks are what the
// gate adds.)
static atomic_bool spin_on ;

static void *spinner (void *arg)
{
    (void) arg ;
    volatile uint64_t x = 0 ;
    while (atomic_load_explicit (&spin_on, memory_order_relaxed)) x++ ;
    return NULL ;
}

static void idle_gate (void)
{
    if (!gcu_settings ()->jit_idle) return ;
    cpu_set_t cs ;
    int n = sched_getaffinity (0, sizeof (cs), &cs) == 0 ? CPU_COUNT (&cs) : 1 ;
    n = 4 * n > 256 ? 256 : 4 * n ;
    pthread_t t [256] ;
    atomic_store (&spin_on, true) ;
    for (int k = 0 ; k < n ; k++) pthread_create (&t [k], NULL, spinner, NULL) ;
    usleep (50000) ;
    int32_t nt0 = 0, nt1 = 0 ;
    OK (GxB_Global_Option_get_INT32 (GxB_NTHREADS, &nt0)) ;
    char *p = program (9) ;
    const uint64_t c0 = stats ().compiles, w0 = gcu_jit_background_idle_waits () ;
    const gcu_jit_binary *bin = NULL ;
    bool deferred = false ;
    CHECK (deferred_request (p, &bin, &deferred) == GCU_NOT_HANDLED && deferred, "queued") ;
    usleep (500000) ;
    OK (GxB_Global_Option_get_INT32 (GxB_NTHREADS, &nt1)) ;
    CHECK (nt1 == nt0, "SuiteSparse's threads while the compile waits: %d, before %d", (int) nt1, (int) nt0) ;
    CHECK (gcu_jit_background_idle_waits () > w0, "no idle core found: %llu looks",
        (unsigned long long) (gcu_jit_background_idle_waits () - w0)) ;
    CHECK (stats ().compiles == c0 && gcu_jit_background_pending () == 1 && gcu_jit_busy (),
        "every core busy (%d spinning): not compiled after 0.5 s (%llu compiles, %d pending)", n,
        (unsigned long long) (stats ().compiles - c0), gcu_jit_background_pending ()) ;
    atomic_store (&spin_on, false) ;
    for (int k = 0 ; k < n ; k++) pthread_join (t [k], NULL) ;
    gcu_jit_background_wait () ;
    CHECK (stats ().compiles == c0 + 1, "the cores free: compiled") ;
    printf ("idle gate: held while %d threads spun, compiled after\n", n) ;
    free (p) ;
}

// a program that does not compile: fails in the background once, remembered
static void failure_remembered (void)
{
    char broken [128] ;
    snprintf (broken, sizeof (broken), "this is not CUDA %d ;\n", (int) getpid ()) ;
    gcu_jit_stats s0 = stats () ;
    const gcu_jit_binary *bin = NULL ;
    bool deferred = false ;
    CHECK (deferred_request (broken, &bin, &deferred) == GCU_NOT_HANDLED && deferred, "broken: deferred") ;
    gcu_jit_background_wait () ;
    CHECK (deferred_request (broken, &bin, &deferred) == GCU_NOT_HANDLED && !deferred && bin == NULL,
        "broken: remembered, not deferred again") ;
    CHECK (gcu_jit_compile (broken, "broken", &bin) == GCU_NOT_HANDLED, "broken: waiting request") ;
    gcu_jit_stats s1 = stats () ;
    CHECK (s1.failures - s0.failures == 1 && s1.compiles == s0.compiles,
        "one failed compile: %llu", (unsigned long long) (s1.failures - s0.failures)) ;
}

// GrB_finalize with 6 programs queued or compiling (2 workers): returns,
// nothing left running; each program compiles when asked again (waiting)
static void finalize_while_compiling (void)
{
    char *p [6] ;
    const gcu_jit_binary *bin = NULL ;
    bool deferred = false ;
    for (int k = 0 ; k < 6 ; k++)
    {
        p [k] = program (10 + k) ;
        CHECK (deferred_request (p [k], &bin, &deferred) == GCU_NOT_HANDLED && deferred, "queued %d", k) ;
    }
    CHECK (gcu_jit_background_pending () > 0, "nothing pending before finalize") ;
    OK (GrB_finalize ()) ;
    CHECK (gcu_jit_background_pending () == 0, "compiles still running after GrB_finalize") ;
    for (int k = 0 ; k < 6 ; k++)
    {
        CHECK (gcu_jit_compile (p [k], "after finalize", &bin) == GrB_SUCCESS && bin != NULL,
            "program %d after finalize", k) ;
        free (p [k]) ;
    }
}

// the dispatch's held kinds (held.c): a kind that deferred goes to the host
// without an attempt while a compile is pending, and is released by its
// first call after; another kind is not held
static void held_kinds (void)
{
    gcu_call c ;
    memset (&c, 0, sizeof (c)) ;
    gcu_held_add (5) ;
    CHECK (!gcu_jit_busy () && !gcu_held_back (&c, 5) && c.note == NULL, "nothing pending: not held") ;
    char *p = program (60) ;
    const gcu_jit_binary *bin = NULL ;
    bool deferred = false ;
    (void) deferred_request (p, &bin, &deferred) ;
    gcu_held_add (5) ;
    gcu_held_add (5) ;
    if (gcu_jit_busy ())
    {
        CHECK (!gcu_held_back (&c, 7) && c.note == NULL, "another kind: not held") ;
        CHECK (gcu_held_back (&c, 5) && c.reason == GRBCUDA_REASON_NO_KERNEL
            && c.pending == GCU_PENDING_JIT && c.note != NULL, "a held kind while compiling: the host") ;
    }
    else printf ("note: the compile finished at once; the hold not checked\n") ;
    gcu_jit_background_wait () ;
    CHECK (!gcu_held_back (&c, 5), "the compile done: released") ;
    free (p) ;
    p = program (61) ;
    (void) deferred_request (p, &bin, &deferred) ;
    CHECK (!gcu_held_back (&c, 5), "released once (added twice): not held by another compile") ;
    gcu_jit_background_wait () ;
    free (p) ;
}

// a process that exits while compiling, without GrB_finalize
static int exit_child (void)
{
    GrB_init (GrB_NONBLOCKING) ;
    gcu_jit_set_cache_dir (dir) ;
    const gcu_jit_binary *bin = NULL ;
    bool deferred = false ;
    for (int k = 0 ; k < 4 ; k++)
    {
        char *p = program (100 + k) ;
        (void) deferred_request (p, &bin, &deferred) ;
        free (p) ;
    }
    return deferred ? 0 : 3 ;
}

int main (int argc, char **argv)
{
    if (argc == 3 && strcmp (argv [1], "exit") == 0)
    {
        snprintf (dir, sizeof (dir), "%s", argv [2]) ;
        return exit_child () ;
    }
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!gcu_jit_available ())
    {
        #if defined (GRBCUDA_HAVE_CUDA) && !GRBCUDA_HAVE_CUDA
        printf ("test_jit_background: NVRTC is not available: skipped\n") ;
        return GCU_TEST_SKIP ;
        #else
        fprintf (stderr, "test_jit_background: NVRTC is not available\n") ;
        return 1 ;
        #endif
    }
    snprintf (dir, sizeof (dir), "/tmp/grbcuda-test-bg-XXXXXX") ;
    CHECK (mkdtemp (dir) != NULL, "mkdtemp") ;
    gcu_jit_set_cache_dir (dir) ;

    deferred_then_cached () ;
    held_kinds () ;
    idle_gate () ;
    same_program_many_threads () ;
    failure_remembered () ;
    finalize_while_compiling () ;

    char cmd [256] ;
    snprintf (cmd, sizeof (cmd), "'%s' exit '%s'", argv [0], dir) ;
    int rc = system (cmd) ;
    CHECK (rc != -1 && WIFEXITED (rc) && WEXITSTATUS (rc) == 0, "exit while compiling: status %d", rc) ;

    snprintf (cmd, sizeof (cmd), "rm -rf '%s'", dir) ;
    if (system (cmd) != 0) fprintf (stderr, "could not remove %s\n", dir) ;
    return gcu_test_report ("test_jit_background") ;
}
