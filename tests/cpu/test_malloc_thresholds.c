// GRBCUDA_TEST_PRELOAD
// test_malloc_thresholds.c — GrB_init under grbcuda fixes glibc malloc's mmap
// and trim thresholds (src/util/hostmem.c, gcu_host_malloc_steady), so that a
// block of a few MB freed and asked for again comes back from the heap with
// no page faults, whatever the process freed before. Six rounds of a 6 MB
// block (malloc, every page written, free): with the thresholds fixed only
// the first round faults; under glibc's dynamic rule (GRBCUDA_MALLOC=0, or an
// environment that sets a threshold itself, which grbcuda then leaves alone)
// the first block is mapped and the second faults its pages again.
// GRBCUDA_TEST_EXPECT_MALLOC: "steady" (default) or "dynamic".
#include "gcu_test.h"
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static long minflt (void)
{
    struct rusage u ;
    getrusage (RUSAGE_SELF, &u) ;
    return u.ru_minflt ;
}

// through volatile pointers, so that the compiler keeps every block
static void *(*volatile malloc_v) (size_t) = malloc ;
static void (*volatile free_v) (void *) = free ;

int main (void)
{
#if !defined (__GLIBC__)
    printf ("test_malloc_thresholds: SKIPPED (not glibc)\n") ;
    return GCU_TEST_SKIP ;
#endif
    if (!gcu_test_grbcuda_present ())
    {
        printf ("test_malloc_thresholds: SKIPPED (grbcuda not loaded)\n") ;
        return GCU_TEST_SKIP ;
    }
    const char *e = getenv ("GRBCUDA_TEST_EXPECT_MALLOC") ;
    const int steady = (e == NULL || strcmp (e, "dynamic") != 0) ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    const size_t bytes = (size_t) 6 << 20 ;
    const long page = sysconf (_SC_PAGESIZE), pages = (long) (bytes / page) ;
    long later = 0 ;
    for (int round = 0 ; round < 6 ; round++)
    {
        const long f0 = minflt () ;
        volatile char *p = malloc_v (bytes) ;
        CHECK (p != NULL, "malloc of %zu bytes", bytes) ;
        if (p == NULL) break ;
        for (size_t k = 0 ; k < bytes ; k += (size_t) page) p [k] = (char) (round + 1) ;
        free_v ((void *) p) ;
        if (round > 0) later += minflt () - f0 ;
    }
    printf ("test_malloc_thresholds: %ld page faults in rounds 2-6 (a block is %ld pages), "
        "expecting the %s thresholds\n", later, pages, steady ? "fixed" : "dynamic") ;
    if (steady)
        CHECK (later < pages / 8, "%ld faults after the first round: the block did not "
            "stay in the heap", later) ;
    else
        CHECK (later >= pages * 2 / 3, "%ld faults after the first round: glibc's dynamic "
            "rule should fault the second block anew", later) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_malloc_thresholds") ;
}
