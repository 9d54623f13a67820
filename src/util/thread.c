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
#include <link.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static pthread_mutex_t reserve_lock = PTHREAD_MUTEX_INITIALIZER ;
static int active ;             // background threads at work
static int base ;               // SuiteSparse's threads before they were lowered
static int set_to = -1 ;        // the count the library set (-1: none)
static atomic_int reserved ;    // base - set_to while lowered, else 0

// The CPUs the program's threads may use (false: unknown). With
// OMP_PROC_BIND or OMP_PLACES set, libgomp binds the program's first thread
// to one place at its start, and every thread that thread creates inherits
// that mask: the CPUs are then the union of OpenMP's places, not the
// calling thread's mask (which holds one core).
static bool program_cpus (cpu_set_t *s)
{
    CPU_ZERO (s) ;
#ifdef _OPENMP
    const int np = omp_get_num_places () ;
    for (int p = 0 ; p < np ; p++)
    {
        int ids [CPU_SETSIZE] ;
        const int k = omp_get_place_num_procs (p) ;
        if (k <= 0 || k > CPU_SETSIZE) continue ;
        omp_get_place_proc_ids (p, ids) ;
        for (int i = 0 ; i < k ; i++)
            if (ids [i] >= 0 && ids [i] < CPU_SETSIZE) CPU_SET (ids [i], s) ;
    }
    if (CPU_COUNT (s) > 0) return true ;
#endif
    return sched_getaffinity (0, sizeof (*s), s) == 0 && CPU_COUNT (s) > 0 ;
}

// The calling thread's mask widened by the program's CPUs (true: wider
// than it is; never narrower: OMP_PLACES naming a few cores leaves a thread
// that may run anywhere as it is)
static bool widened (cpu_set_t *s)
{
    cpu_set_t all, now ;
    CPU_ZERO (s) ;
    if (!program_cpus (&all) || sched_getaffinity (0, sizeof (now), &now) != 0) return false ;
    CPU_OR (s, &all, &now) ;
    return !CPU_EQUAL (s, &now) ;
}

static int cpus (void)
{
    cpu_set_t s ;
    (void) widened (&s) ;
    if (CPU_COUNT (&s) > 0) return CPU_COUNT (&s) ;
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
    // off the core of the thread that made it (bound by OMP_PROC_BIND: a
    // background thread there takes that core from the program's first
    // OpenMP thread), onto any of the program's CPUs
    cpu_set_t all ;
    if (widened (&all)) (void) pthread_setaffinity_np (pthread_self (), sizeof (all), &all) ;
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

static double seconds (clockid_t id)
{
    struct timespec t ;
    return clock_gettime (id, &t) == 0 ? (double) t.tv_sec + 1e-9 * (double) t.tv_nsec : -1 ;
}

bool gcu_thread_room (double window_s)
{
    const double p0 = seconds (CLOCK_PROCESS_CPUTIME_ID), t0 = seconds (CLOCK_THREAD_CPUTIME_ID) ;
    const double w0 = seconds (CLOCK_MONOTONIC) ;
    const struct timespec nap = { (time_t) window_s, (long) (1e9 * (window_s - (double) (time_t) window_s)) } ;
    (void) nanosleep (&nap, NULL) ;
    const double p1 = seconds (CLOCK_PROCESS_CPUTIME_ID), t1 = seconds (CLOCK_THREAD_CPUTIME_ID) ;
    const double w1 = seconds (CLOCK_MONOTONIC) ;
    if (p0 < 0 || t0 < 0 || w0 < 0 || p1 < 0 || t1 < 0 || !(w1 > w0)) return true ;
    const double busy = ((p1 - p0) - (t1 - t0)) / (w1 - w0) ;
    return busy <= (double) cpus () - 1 ;
}

int gcu_thread_host_count (int threads)
{
    const int r = atomic_load_explicit (&reserved, memory_order_relaxed) ;
    return threads - r < 1 ? 1 : threads - r ;
}

//------------------------------------------------------------------------------
// a process that is not a GraphBLAS program keeps its CPUs
//------------------------------------------------------------------------------

// Preloaded, the library brings GraphBLAS and with it libgomp into every
// process it is preloaded into: a shell, timeout, a launcher. With
// OMP_PROC_BIND or OMP_PLACES set, libgomp binds such a process's first
// thread to one core at its start, and every program the process then runs
// inherits that one core: under `OMP_PROC_BIND=close LD_PRELOAD=...`, a
// script's programs ran on core 0 (SuiteSparse's 16 threads on one core, an
// SSSP on rmat-20-16 6x slower, H100 machine 2026-11-27). So where nothing
// loaded but this library (and what it brings) needs GraphBLAS or an OpenMP
// runtime, the library's constructor gives the first thread back the CPUs
// libgomp took them from: the union of OpenMP's places. A GraphBLAS or
// OpenMP program keeps libgomp's binding as it would without the library.
// Places that name fewer CPUs than the process had (OMP_PLACES={0}) leave
// the process bound to them: what it had before libgomp's start is not
// kept anywhere the library could read it (libgomp's constructor runs
// before this one, a dependency's before its dependent's).

// GraphBLAS and the OpenMP runtimes: what a program needs of its own for
// libgomp's binding to be its (each of them brings the others, and so
// does this library)
static bool runtime (const char *name)
{
    static const char *const names [] = { "libgraphblas", "libgomp", "libomp", "libiomp" } ;
    for (size_t k = 0 ; k < sizeof (names) / sizeof (names [0]) ; k++)
        if (strstr (name, names [k]) != NULL) return true ;
    return false ;
}

// whether the address range [p, p + n) lies in one of the object's segments
static bool mapped (const struct dl_phdr_info *info, uintptr_t p, size_t n)
{
    for (int k = 0 ; k < info->dlpi_phnum ; k++)
    {
        const ElfW(Phdr) *h = &info->dlpi_phdr [k] ;
        const uintptr_t lo = info->dlpi_addr + h->p_vaddr ;
        if (h->p_type == PT_LOAD && p >= lo && p + n <= lo + h->p_memsz) return true ;
    }
    return false ;
}

// dl_iterate_phdr's callback: *data set when the object needs GraphBLAS or
// an OpenMP runtime (a DT_NEEDED name), unless it is this library or one of
// them
static int needs_either (struct dl_phdr_info *info, size_t size, void *data)
{
    (void) size ;
    const char *name = info->dlpi_name != NULL ? info->dlpi_name : "" ;
    if (strstr (name, "libgrbcuda") != NULL || runtime (name)) return 0 ;
    for (int k = 0 ; k < info->dlpi_phnum ; k++)
    {
        if (info->dlpi_phdr [k].p_type != PT_DYNAMIC) continue ;
        const ElfW(Dyn) *d0 = (const ElfW(Dyn) *) (info->dlpi_addr + info->dlpi_phdr [k].p_vaddr) ;
        uintptr_t strtab = 0 ;
        for (const ElfW(Dyn) *d = d0 ; d->d_tag != DT_NULL ; d++)
            if (d->d_tag == DT_STRTAB) strtab = (uintptr_t) d->d_un.d_ptr ;
        // glibc relocates DT_STRTAB in place; a small value is an offset
        if (strtab != 0 && strtab < info->dlpi_addr) strtab += info->dlpi_addr ;
        if (strtab == 0 || !mapped (info, strtab, 1)) return 0 ;
        for (const ElfW(Dyn) *d = d0 ; d->d_tag != DT_NULL ; d++)
        {
            if (d->d_tag != DT_NEEDED || !mapped (info, strtab + d->d_un.d_val, 1)) continue ;
            const char *need = (const char *) (strtab + d->d_un.d_val) ;
            if (runtime (need))
            {
                *(bool *) data = true ;
                return 1 ;
            }
        }
    }
    return 0 ;
}

__attribute__ ((constructor)) static void keep_cpus (void)
{
    cpu_set_t all ;
    if (!widened (&all)) return ;               // not bound (no OMP_PROC_BIND, no places)
    bool needs = false ;
    (void) dl_iterate_phdr (needs_either, &needs) ;
    if (needs) return ;                         // a GraphBLAS or OpenMP program: libgomp's
    (void) sched_setaffinity (0, sizeof (all), &all) ;
}
