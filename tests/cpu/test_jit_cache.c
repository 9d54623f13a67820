// GRBCUDA_TEST_INTERNAL (calls internal gcu_* functions: links grbcuda_static)
// test_jit_cache.c — the JIT's caches and failure handling, through the real
// NVRTC path (no GPU needed).
//
//   memory hit; disk hit in a second process and after clearing memory;
//   4 processes compiling one new program at once into one directory;
//   a corrupt, truncated or mismatched cache file is rejected and rewritten;
//   without NVRTC nothing compiles and nothing breaks;
//   an unusable cache directory still compiles (memory only); the disk cache
//   can be turned off; 4 threads asking for one new key compile it once and
//   all get the same binary; a program that does not compile gives
//   GCU_NOT_HANDLED (and is not retried); batches; the architecture is part
//   of the key, a device newer than NVRTC gets PTX, an older one nothing.
#include "gcu_test.h"
#include "../../src/jit/gcu_jit.h"
#include "../../src/util/gcu_util.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir [64] ;

// a small program with its own key
static char *program (int n)
{
    char *s = malloc (512) ;
    snprintf (s, 512,
        "#include \"common/gcu_semiring.cuh\"\n"
        "extern \"C\" __global__ void k_%d (double *x)\n"
        "{ x [threadIdx.x] = gcu_plus (x [threadIdx.x], (double) %d) ; }\n", n, n) ;
    return s ;
}

static gcu_jit_stats stats (void)
{
    gcu_jit_stats s ;
    gcu_jit_stats_get (&s) ;
    return s ;
}

// the most recently written cache file
static bool newest_file (char *path, size_t size)
{
    char cmd [256] ;
    snprintf (cmd, sizeof (cmd), "ls -t '%s'/*.cubin 2>/dev/null | head -1", dir) ;
    FILE *p = popen (cmd, "r") ;
    if (p == NULL) return false ;
    bool ok = fgets (path, (int) size, p) != NULL ;
    pclose (p) ;
    if (ok) path [strcspn (path, "\n")] = '\0' ;
    return ok && path [0] != '\0' ;
}

//------------------------------------------------------------------------------
// the second process: the program compiled by the first comes from disk
//------------------------------------------------------------------------------

// one of several processes compiling the same new program at once into an
// empty cache: each gets it, compiled or from the disk
static int racer (const char *cache)
{
    GrB_init (GrB_NONBLOCKING) ;
    gcu_jit_set_cache_dir (cache) ;
    char *p = program (9) ;
    const gcu_jit_binary *bin = NULL ;
    GrB_Info info = gcu_jit_compile (p, "racer", &bin) ;
    free (p) ;
    GrB_finalize () ;
    return (info == GrB_SUCCESS && bin != NULL) ? 0 : 1 ;
}

// a process where NVRTC cannot be loaded: nothing compiles, nothing breaks
static int no_nvrtc (void)
{
    GrB_init (GrB_NONBLOCKING) ;
    char *p = program (1) ;
    const gcu_jit_binary *bin = NULL ;
    bool ok = !gcu_jit_available () &&
        gcu_jit_compile (p, "no nvrtc", &bin) == GCU_NOT_HANDLED && bin == NULL ;
    free (p) ;
    GrB_finalize () ;
    return ok ? 0 : 1 ;
}

static int child (const char *cache)
{
    GrB_init (GrB_NONBLOCKING) ;
    gcu_jit_set_cache_dir (cache) ;
    char *p = program (1) ;
    const gcu_jit_binary *bin = NULL ;
    GrB_Info info = gcu_jit_compile (p, "child", &bin) ;
    gcu_jit_stats s = stats () ;
    free (p) ;
    GrB_finalize () ;
    bool ok = (info == GrB_SUCCESS && bin != NULL && s.disk_hits == 1 && s.compiles == 0) ;
    if (!ok) fprintf (stderr, "child: info %d, %llu disk hits, %llu compiles\n", (int) info,
        (unsigned long long) s.disk_hits, (unsigned long long) s.compiles) ;
    return ok ? 0 : 1 ;
}

//------------------------------------------------------------------------------
// concurrency
//------------------------------------------------------------------------------

typedef struct { const char *src ; const gcu_jit_binary *bin ; GrB_Info info ; } job ;
static pthread_barrier_t barrier ;

static void *worker (void *arg)
{
    job *j = arg ;
    pthread_barrier_wait (&barrier) ;
    j->info = gcu_jit_compile (j->src, "concurrent", &j->bin) ;
    return NULL ;
}

int main (int argc, char **argv)
{
    if (argc == 3 && strcmp (argv [1], "child") == 0) return child (argv [2]) ;
    if (argc == 3 && strcmp (argv [1], "racer") == 0) return racer (argv [2]) ;
    if (argc == 2 && strcmp (argv [1], "no_nvrtc") == 0) return no_nvrtc () ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!gcu_jit_available ())
    {
        #if defined (GRBCUDA_HAVE_CUDA) && !GRBCUDA_HAVE_CUDA
        // a build without CUDA need not have NVRTC either
        printf ("test_jit_cache: NVRTC is not available: skipped\n") ;
        return GCU_TEST_SKIP ;
        #else
        // CI installs the CUDA toolkit: NVRTC missing there is a failure
        fprintf (stderr, "test_jit_cache: NVRTC is not available\n") ;
        return 1 ;
        #endif
    }
    snprintf (dir, sizeof (dir), "/tmp/grbcuda-test-cache-XXXXXX") ;
    CHECK (mkdtemp (dir) != NULL, "mkdtemp") ;
    gcu_jit_set_cache_dir (dir) ;
    char got [1024] ;
    gcu_jit_cache_dir (got, sizeof (got)) ;
    CHECK (strcmp (got, dir) == 0, "cache dir %s", got) ;
    const gcu_jit_binary *b1 = NULL, *b2 = NULL ;
    gcu_jit_stats s ;

    // cold, then a memory hit
    char *p1 = program (1) ;
    gcu_jit_stats_reset () ;
    OK (gcu_jit_compile (p1, "p1", &b1)) ;
    s = stats () ;
    CHECK (s.compiles == 1 && s.disk_writes == 1 && s.disk_hits == 0, "cold compile") ;
    // the only file so far: p1's
    char file [1024] ;
    CHECK (newest_file (file, sizeof (file)), "no cache file in %s", dir) ;
    OK (gcu_jit_compile (p1, "p1", &b2)) ;
    s = stats () ;
    CHECK (b1 == b2 && s.memory_hits == 1 && s.compiles == 1, "memory hit") ;
    size_t size = 0 ;
    bool is_ptx = true ;
    const char *data = gcu_jit_binary_data (b1, &size, &is_ptx) ;
    CHECK (data != NULL && size > 4 && !is_ptx && memcmp (data, "\177ELF", 4) == 0,
        "a CUBIN (ELF) for sm_%d", gcu_jit_arch ()) ;

    // a second process finds it on disk
    char cmd [4096] ;
    snprintf (cmd, sizeof (cmd), "/proc/%d/exe", (int) getpid ()) ;
    char self [1024] ;
    ssize_t n = readlink (cmd, self, sizeof (self) - 1) ;
    CHECK (n > 0, "readlink") ;
    if (n > 0)
    {
        self [n] = '\0' ;
        snprintf (cmd, sizeof (cmd), "'%s' child '%s'", self, dir) ;
        CHECK (system (cmd) == 0, "second process: disk hit") ;
    }

    // 4 processes at once, one new program: all succeed, and the file they
    // leave behind is whole
    if (n > 0)
    {
        snprintf (cmd, sizeof (cmd), "p=''; for k in 1 2 3 4; do '%s' racer '%s' & p=\"$p $!\"; done; "
            "s=0; for q in $p; do wait $q || s=1; done; exit $s", self, dir) ;
        CHECK (system (cmd) == 0, "4 processes compiling one program") ;
        char *p9 = program (9) ;
        gcu_jit_stats_reset () ;
        OK (gcu_jit_compile (p9, "p9", &b2)) ;
        s = stats () ;
        CHECK (s.disk_hits == 1 && s.compiles == 0 && s.disk_rejects == 0,
            "the racers' file is valid") ;
        free (p9) ;
        snprintf (cmd, sizeof (cmd), "ls -a '%s' | grep -c '^.tmp-' > /dev/null", dir) ;
        CHECK (system (cmd) != 0, "no temporary files left behind") ;
    }

    // without NVRTC: GCU_NOT_HANDLED, no crash
    if (n > 0)
    {
        snprintf (cmd, sizeof (cmd), "GRBCUDA_NVRTC=/nonexistent/libnvrtc.so '%s' no_nvrtc", self) ;
        CHECK (system (cmd) == 0, "a process without NVRTC") ;
    }

    // ... and so does this one, once its memory is cleared
    gcu_jit_cache_clear_memory () ;
    gcu_jit_stats_reset () ;
    OK (gcu_jit_compile (p1, "p1", &b1)) ;
    s = stats () ;
    CHECK (s.disk_hits == 1 && s.compiles == 0, "disk hit after clearing memory") ;

    // corrupt: one payload byte flipped -> rejected, recompiled, rewritten
    int fd = open (file, O_RDWR) ;
    CHECK (fd >= 0, "open %s", file) ;
    if (fd >= 0)
    {
        unsigned char c ;
        CHECK (pread (fd, &c, 1, 200) == 1, "read") ;
        c ^= 0x55 ;
        CHECK (pwrite (fd, &c, 1, 200) == 1, "write") ;
        close (fd) ;
    }
    gcu_jit_cache_clear_memory () ;
    gcu_jit_stats_reset () ;
    OK (gcu_jit_compile (p1, "p1", &b1)) ;
    s = stats () ;
    CHECK (s.disk_rejects == 1 && s.compiles == 1 && s.disk_writes == 1, "corrupt file") ;
    gcu_jit_cache_clear_memory () ;
    gcu_jit_stats_reset () ;
    OK (gcu_jit_compile (p1, "p1", &b1)) ;
    s = stats () ;
    CHECK (s.disk_hits == 1 && s.compiles == 0, "rewritten after corruption") ;

    // truncated, and empty
    CHECK (truncate (file, 40) == 0, "truncate") ;
    gcu_jit_cache_clear_memory () ;
    gcu_jit_stats_reset () ;
    OK (gcu_jit_compile (p1, "p1", &b1)) ;
    s = stats () ;
    CHECK (s.disk_rejects == 1 && s.compiles == 1, "truncated file") ;
    CHECK (truncate (file, 0) == 0, "truncate") ;
    gcu_jit_cache_clear_memory () ;
    gcu_jit_stats_reset () ;
    OK (gcu_jit_compile (p1, "p1", &b1)) ;
    s = stats () ;
    CHECK (s.disk_rejects == 1 && s.compiles == 1, "empty file") ;

    // another program's (valid) file under this key's name: the key inside
    // the header does not match
    char *p2 = program (2) ;
    OK (gcu_jit_compile (p2, "p2", &b2)) ;
    char file2 [1024] ;
    CHECK (newest_file (file2, sizeof (file2)), "no cache file for p2") ;
    CHECK (strcmp (file, file2) != 0, "two programs, one file") ;
    snprintf (cmd, sizeof (cmd), "cp '%s' '%s'", file2, file) ;
    CHECK (system (cmd) == 0, "cp") ;
    gcu_jit_cache_clear_memory () ;
    gcu_jit_stats_reset () ;
    OK (gcu_jit_compile (p1, "p1", &b1)) ;
    s = stats () ;
    CHECK (s.disk_rejects == 1 && s.compiles == 1, "mismatched file") ;

    // an unusable directory (its parent is a file): memory only, no error
    char bad [256] ;
    snprintf (bad, sizeof (bad), "%s/plainfile", dir) ;
    FILE *f = fopen (bad, "w") ;
    if (f) fclose (f) ;
    snprintf (bad, sizeof (bad), "%s/plainfile/cache", dir) ;
    gcu_jit_set_cache_dir (bad) ;
    char *p3 = program (3) ;
    gcu_jit_stats_reset () ;
    OK (gcu_jit_compile (p3, "p3", &b1)) ;
    OK (gcu_jit_compile (p3, "p3", &b2)) ;
    s = stats () ;
    CHECK (b1 == b2 && s.compiles == 1 && s.disk_writes == 0 && s.memory_hits == 1,
        "unwritable cache directory") ;

    // the disk cache turned off
    gcu_jit_set_cache_dir ("") ;
    char *p4 = program (4) ;
    gcu_jit_stats_reset () ;
    OK (gcu_jit_compile (p4, "p4", &b1)) ;
    s = stats () ;
    CHECK (s.compiles == 1 && s.disk_writes == 0, "no disk cache") ;
    gcu_jit_set_cache_dir (dir) ;

    // 4 threads, one new key: compiled once, one result
    char *p5 = program (5) ;
    job jobs [4] ;
    pthread_t tid [4] ;
    pthread_barrier_init (&barrier, NULL, 4) ;
    gcu_jit_stats_reset () ;
    for (int t = 0 ; t < 4 ; t++)
    {
        jobs [t].src = p5 ;
        jobs [t].bin = NULL ;
        pthread_create (&tid [t], NULL, worker, &jobs [t]) ;
    }
    for (int t = 0 ; t < 4 ; t++) pthread_join (tid [t], NULL) ;
    pthread_barrier_destroy (&barrier) ;
    s = stats () ;
    for (int t = 0 ; t < 4 ; t++)
    {
        CHECK (jobs [t].info == GrB_SUCCESS && jobs [t].bin == jobs [0].bin,
            "thread %d: info %d", t, (int) jobs [t].info) ;
    }
    CHECK (s.compiles == 1 && s.disk_writes == 1 && s.memory_hits == 3,
        "4 threads: %llu compiles, %llu memory hits", (unsigned long long) s.compiles,
        (unsigned long long) s.memory_hits) ;

    // a program that does not compile: not handled, no crash, not retried
    const char *broken = "extern \"C\" __global__ void k (int *x) { x [0] = undeclared ; }\n" ;
    gcu_jit_stats_reset () ;
    CHECK (gcu_jit_compile (broken, "broken", &b1) == GCU_NOT_HANDLED && b1 == NULL,
        "a compile error is GCU_NOT_HANDLED") ;
    CHECK (gcu_jit_compile (broken, "broken", &b1) == GCU_NOT_HANDLED, "again") ;
    s = stats () ;
    CHECK (s.failures == 1 && s.compiles == 0, "the failure is remembered") ;
    CHECK (gcu_jit_compile (NULL, "x", &b1) == GrB_NULL_POINTER, "NULL source") ;

    // a batch, with one broken program among good ones
    const char *srcs [4] ;
    char *good [3] = { program (6), program (7), program (8) } ;
    srcs [0] = good [0] ; srcs [1] = broken ; srcs [2] = good [1] ; srcs [3] = good [2] ;
    const gcu_jit_binary *bins [4] ;
    GrB_Info status [4] ;
    GrB_Info info = gcu_jit_compile_batch (4, srcs, NULL, bins, status, 2) ;
    CHECK (info == GCU_NOT_HANDLED, "batch with a failure: %d", (int) info) ;
    CHECK (status [0] == GrB_SUCCESS && status [1] == GCU_NOT_HANDLED &&
        status [2] == GrB_SUCCESS && status [3] == GrB_SUCCESS && bins [0] && bins [2] &&
        bins [3] && bins [0] != bins [2], "batch results") ;
    CHECK (gcu_jit_compile_batch (0, NULL, NULL, NULL, NULL, 0) == GrB_SUCCESS, "empty batch") ;

    // the architecture is part of the key
    int arch = gcu_jit_arch () ;
    gcu_jit_set_arch (80) ;
    CHECK (gcu_jit_arch () == 80, "set arch") ;
    gcu_jit_stats_reset () ;
    OK (gcu_jit_compile (p1, "p1 sm_80", &b2)) ;
    s = stats () ;
    CHECK (s.compiles == 1 && b2 != b1, "another architecture, another binary") ;
    // newer than NVRTC knows: PTX for its newest, for the driver to finish
    gcu_jit_set_arch (999) ;
    OK (gcu_jit_compile (p1, "p1 ptx", &b2)) ;
    data = gcu_jit_binary_data (b2, &size, &is_ptx) ;
    CHECK (is_ptx && data != NULL && strstr (data, ".version") != NULL, "PTX for a newer device") ;
    // older than NVRTC supports: nothing
    gcu_jit_set_arch (20) ;
    CHECK (gcu_jit_compile (p1, "p1 sm_20", &b2) == GCU_NOT_HANDLED, "too old a device") ;
    gcu_jit_set_arch (0) ;
    CHECK (gcu_jit_arch () == arch, "automatic architecture again") ;

    // loading needs a driver, a GPU and a current context; this process has
    // made none current, so it is declined, never a crash
    void *fn = NULL ;
    OK (gcu_jit_compile (p1, "p1", &b1)) ;
    GrB_Info li = gcu_jit_function (b1, "k_1", &fn) ;
    CHECK (li == GCU_NOT_HANDLED && fn == NULL, "load without a context: %d", (int) li) ;

    free (p1) ; free (p2) ; free (p3) ; free (p4) ; free (p5) ;
    for (int k = 0 ; k < 3 ; k++) free (good [k]) ;
    gcu_jit_cache_clear_memory () ;
    snprintf (cmd, sizeof (cmd), "rm -rf '%s'", dir) ;
    if (system (cmd) != 0) fprintf (stderr, "could not remove %s\n", dir) ;
    GrB_finalize () ;
    return gcu_test_report ("test_jit_cache") ;
}
