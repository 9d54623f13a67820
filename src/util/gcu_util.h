// gcu_util.h — internal helpers shared by all host code: the one TRY macro,
// logging, timing and the settings read from GRBCUDA_* variables.
// Internal header: never installed. Internal non-static names start with gcu_.
#ifndef GCU_UTIL_H
#define GCU_UTIL_H

#include <GraphBLAS.h>
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <string.h>

// A kernel (or any step of the GPU chain) that cannot handle a case returns
// GCU_NOT_HANDLED: not an error, the caller tries the next in the chain
// (specialised GPU kernel -> generic GPU kernel -> host).
#define GCU_NOT_HANDLED ((GrB_Info) 1001)

// GCU_TRY: the one control-flow macro of the library. Evaluates expr (a
// GrB_Info); on anything but GrB_SUCCESS it runs GCU_FREE_ALL, which each
// function using GCU_TRY defines (as `;` if it owns nothing), and returns the
// status to the caller.
#define GCU_TRY(expr)                                   \
    do {                                                \
        GrB_Info gcu_try_info_ = (expr);                \
        if (gcu_try_info_ != GrB_SUCCESS) {             \
            GCU_FREE_ALL;                               \
            return gcu_try_info_;                       \
        }                                               \
    } while (0)

// ---- settings (src/util/settings.c) -----------------------------------------
// Read once from the environment (thread-safe, on first use); each can be
// changed later through the public grbcuda_set_* functions.
typedef struct {
    int      mode;            // grbcuda_mode: 0 auto, 1 gpu, 2 host
    int      verbose;         // GRBCUDA_VERBOSE
    int      stats;           // GRBCUDA_STATS: print the table at GrB_finalize
    int      keep_results;    // GRBCUDA_KEEP_RESULTS: GPU results stay on the device (default 1)
    double   threshold;       // GRBCUDA_THRESHOLD: minimum estimated work for the GPU
                              // (< 0, the default: the cost model decides)
    int      jit_background;  // GRBCUDA_JIT_BACKGROUND: auto mode starts CUDA and compiles off the critical path (default 1)
    int      device;          // GRBCUDA_DEVICE: CUDA device ordinal
    char     cache_dir[1024]; // GRBCUDA_CACHE_DIR: JIT on-disk cache ("" = default)
    int64_t  spgemm_block;    // GRBCUDA_SPGEMM_BLOCK: bytes of SpGEMM output per row block (0 = auto)
    int64_t  pool_keep;       // GRBCUDA_POOL_KEEP: device bytes the allocation pool keeps between calls (-1 = auto)
    int      device_transpose; // GRBCUDA_DEVICE_TRANSPOSE: a matrix's other orientation made on the device from the one there (default 1)
    int      start_when;      // GRBCUDA_START: GCU_START_CALL (when the calls have paid for it), GCU_START_INIT (at GrB_init), GCU_START_DATA (at the first build of, or auto call on, an object of start_entries entries; else as CALL)
    int64_t  start_entries;   // GRBCUDA_START_ENTRIES: GCU_START_DATA's size (default GCU_START_ENTRIES_DEFAULT)
    double   start_rent;      // GRBCUDA_START_RENT: auto mode starts CUDA only once the calls' predicted gains reach this fraction of its start (default GCU_START_RENT_DEFAULT; 0: at the first call predicted faster there; on = 1)
    int      jit_idle;        // GRBCUDA_JIT_IDLE: a background compile begins only while the program leaves a core idle (gcu_thread_room; default 0)
    int      malloc_steady;   // GRBCUDA_MALLOC: GrB_init fixes glibc malloc's thresholds (gcu_host_malloc_steady; default 1)
} gcu_settings_t;

#define GCU_START_CALL 0
#define GCU_START_INIT 1
#define GCU_START_DATA 2
// GRBCUDA_START's default, and GRBCUDA_START_ENTRIES's: 8M entries. On the
// H100 machine (bench/RESULTS.md, 2026-11-28) the start at the data put
// LAGraph's SSSP on rmat-20-16 (31.4M entries) at 0.135x SuiteSparse against
// 0.739x with the start at the calls, and its connected components at 1.54x
// against 2.1x; grid3d-100 (5.9M) lost with it (SSSP 1.24x against 0.73x:
// its vector calls settled on the host while their operands came back from
// the device, 3,723 write-backs a run against 24), so 8M leaves it to the
// calls' rent
#define GCU_START_DEFAULT GCU_START_DATA
#define GCU_START_ENTRIES_DEFAULT ((int64_t) 1 << 23)

// GRBCUDA_START_RENT's default: a fifth of CUDA's start in predicted gains
#define GCU_START_RENT_DEFAULT 0.2

const gcu_settings_t *gcu_settings(void);   // never NULL
int  gcu_mode(void);
int  gcu_verbose(void);
int  gcu_stats_enabled(void);

// The settings every call reads (mode, verbose, statistics) as one word, so
// that a call that passes through pays one relaxed load for all of them:
// GCU_FLAG_READ once the environment is read, the mode (grbcuda_mode) in
// GCU_FLAG_MODE_MASK, GCU_FLAG_VERBOSE, GCU_FLAG_STATS. The setters change
// their bits atomically.
#define GCU_FLAG_READ       0x1u
#define GCU_FLAG_MODE_SHIFT 1
#define GCU_FLAG_MODE_MASK  (0x3u << GCU_FLAG_MODE_SHIFT)
#define GCU_FLAG_VERBOSE    0x8u
#define GCU_FLAG_STATS      0x10u
#define GCU_FLAG_MODE(m)    ((unsigned) (m) << GCU_FLAG_MODE_SHIFT)
unsigned gcu_flags_slow(void);              // reads the environment first if needed
#ifndef __cplusplus
#include <stdatomic.h>
// Private to settings.c; read here for speed. Relaxed is enough: every bit
// that is read comes from the same word as GCU_FLAG_READ.
extern _Atomic unsigned gcu_flags_;
static inline __attribute__((always_inline)) unsigned gcu_flags(void)
{
    unsigned f = atomic_load_explicit(&gcu_flags_, memory_order_relaxed);
    return (f & GCU_FLAG_READ) ? f : gcu_flags_slow();
}
#else
static inline __attribute__((always_inline)) unsigned gcu_flags(void) { return gcu_flags_slow(); }
#endif
int  gcu_keep_results(void);
double gcu_threshold(void);            // < 0: none (the cost model decides)
void gcu_threshold_clear(void);       // back to the cost model
int gcu_jit_background_enabled(void);
int64_t gcu_spgemm_block_bytes(void);
void gcu_spgemm_block_bytes_set(int64_t bytes);   // tests; 0 = auto
int gcu_device_transpose_enabled(void);
void gcu_device_transpose_set(int on);              // tests, measurements

// ---- logging (src/util/log.c) ------------------------------------------------
// gcu_log prints "[grbcuda] ..." plus a newline to stderr as one write, only
// when verbose is on. gcu_warn prints regardless of verbose (used sparingly).
void gcu_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void gcu_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// ---- host memory SuiteSparse owns (src/util/hostmem.c) -----------------------
void  gcu_host_allocator_set (void *(*m) (size_t), void (*f) (void *)) ;
void *gcu_host_malloc (size_t bytes) ;
// GrB_init's and GxB_init's first step: glibc malloc's mmap and trim
// thresholds fixed at the values its dynamic rule reaches at most (hostmem.c
// says why), unless GRBCUDA_MALLOC=0 or the program's environment sets them
void  gcu_host_malloc_steady (void) ;
void  gcu_host_free (void *p) ;

// ---- measurement switches (src/util/settings.c) -----------------------------
// An integer from the environment (atoi), dflt when unset or empty: the
// families' GRBCUDA_SPMM_* / GRBCUDA_SDDMM_* switches, read at each use
int gcu_env_int(const char *name, int dflt);

// ---- time ---------------------------------------------------------------------
double gcu_now(void);   // monotonic seconds

// ---- threads (src/util/thread.c) ----------------------------------------------
// The calling thread is one of the library's background threads (CUDA's
// start, a JIT worker) from _begin to _end: it runs under SCHED_IDLE, and
// while it works SuiteSparse takes a thread fewer where it would otherwise
// have one on every core (GxB_NTHREADS; the program's own setting stands).
void gcu_thread_background_begin(void);
void gcu_thread_background_end(void);
// Whether the program leaves a core idle: the CPU time of its threads but
// the caller's, over window_s seconds the caller sleeps through, comes to at
// most its cores less one (true where the clocks cannot be read)
bool gcu_thread_room(double window_s);
// threads for one of the library's own OpenMP regions on the program's
// thread: the given count, less the cores background threads hold now
int gcu_thread_host_count(int threads);

// ---- values -------------------------------------------------------------------
// One value of ts bytes (a GraphBLAS type's size) from src to dst: the
// common sizes become single moves, which a memcpy of a variable size is not.
static inline void gcu_put_val (void *dst, const void *src, size_t ts)
{
    switch (ts)
    {
        case 1: *(uint8_t *) dst = *(const uint8_t *) src ; break ;
        case 2: memcpy (dst, src, 2) ; break ;
        case 4: memcpy (dst, src, 4) ; break ;
        case 8: memcpy (dst, src, 8) ; break ;
        case 16: memcpy (dst, src, 16) ; break ;
        default: memcpy (dst, src, ts) ; break ;
    }
}

#endif
