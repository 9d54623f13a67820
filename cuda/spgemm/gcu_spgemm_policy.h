// gcu_spgemm_policy.h — the tuning of the SpGEMM family as data (CUB's policy
// tables): every bin, table, window, block and grid constant, read by the
// kernels (cuda/spgemm/), their launches (src/spgemm/) and the tests that run
// the kernels under the SIMT emulation (tests/common/gcu_emu_test.h), so
// that no number is typed twice. Plain C (host C, C++, nvcc and NVRTC).
// Measurements behind the numbers: bench/RESULTS.md.
#ifndef GCU_SPGEMM_POLICY_H
#define GCU_SPGEMM_POLICY_H

#if !defined(__CUDACC_RTC__)
#include <stdint.h>
#endif

// ---- blocks ------------------------------------------------------------------
#define GCU_SPGEMM_THREADS 256          // the shared-table kernels' block
#define GCU_SPGEMM_GLOBAL_THREADS 256   // the global-table kernels' block
#define GCU_SPGEMM_DENSE_THREADS 1024   // the dense accumulators' block
#define GCU_SPGEMM_AUX_THREADS 256      // analysis, binning, bounds, sort helpers
// numeric shared kernel with values of at most GCU_SPGEMM_WORD_MAX bytes: 8
// blocks an SM (32 registers a thread); wider values (locks, complex
// arithmetic) as the compiler likes
#define GCU_SPGEMM_NUMERIC_MIN_BLOCKS 8
#define GCU_SPGEMM_DENSE_MIN_BLOCKS 2   // numeric dense accumulator
// values of at most this many bytes: one atomic a product and a dense
// accumulator; wider ones take a lock word a slot and the global tables
#define GCU_SPGEMM_WORD_MAX 8
// threads sharing a row of B: a power of 2 up to this (spECK's local load
// balancing, from the average referenced row length)
#define GCU_SPGEMM_TPB_MAX 32

// ---- grids -------------------------------------------------------------------
#define GCU_SPGEMM_GRID_PER_SM 64       // grid-stride analysis kernels: blocks an SM
#define GCU_SPGEMM_GRID_MAX 65535       // grid-stride helper kernels: at most
#define GCU_SPGEMM_NARROW_GRID_MAX 4096 // the kept result's row pointer narrowing
#define GCU_SPGEMM_SHORT_ROWS 8         // A's rows shorter on average: a thread a row

// ---- bins --------------------------------------------------------------------
// 0 = empty row; 1..GCU_SPGEMM_NBINS_SHARED: a shared table of
// GCU_SPGEMM_HMIN << (b-1) slots; GCU_SPGEMM_BIN_GLOBAL: a global table. With
// several row blocks the sort key is block * GCU_SPGEMM_NBINS + bin.
#define GCU_SPGEMM_NBINS 16
#define GCU_SPGEMM_NBINS_SHARED 9
#define GCU_SPGEMM_BIN_GLOBAL 15
#define GCU_SPGEMM_HMIN 32
#define GCU_SPGEMM_HMAX (GCU_SPGEMM_HMIN << (GCU_SPGEMM_NBINS_SHARED - 1))     // 8192
// the largest numeric shared table where the dense accumulator takes the
// longer rows (8192 FP64 slots hold one block of 256 threads an SM)
#define GCU_SPGEMM_HMAX_DENSE 4096
#define GCU_SPGEMM_BIN_SHARED_KEYS 1024 // the binning counts this many keys in shared memory

// ---- the numeric kernels' row sort -------------------------------------------
// numeric tables of at most this many slots emit their row sorted by ranking
// each key (O(H^2) work, no synchronisation); larger ones by a bucket sort
// (gcu_spgemm_emit_bucket)
#define GCU_SPGEMM_RANK_MAX 64
// bytes of one row's sort scratch in the numeric kernel's shared memory (a
// multiple of 16): rank: compacted keys (H int32) and their slots (H bytes);
// bucket: counters (H/4 int32), staged keys (3H/4 int32), 16 warp partials
#define GCU_SPGEMM_SORT_SCRATCH(H) ((H) <= GCU_SPGEMM_RANK_MAX ? (H) * 5 : (H) * 4 + 64)

// ---- dense accumulator windows -------------------------------------------------
#define GCU_SPGEMM_DENSE_MAX_PASSES 8   // more windows a row: the hash tables instead
#define GCU_SPGEMM_SMEM_RESERVE 1024    // the driver's shared memory reserve a block
#define GCU_SPGEMM_SMEM_STATIC 1024     // the dense kernels' static shared memory
#define GCU_SPGEMM_SMEM_MIN 4096        // less shared memory: no dense window

// ---- memory and row blocks -----------------------------------------------------
#define GCU_SPGEMM_GLOBAL_MEM_DIV 4     // global tables: a quarter of the free memory
#define GCU_SPGEMM_BLOCK_ROOM 0.3       // a row block's buffer: 30% of the free memory
#define GCU_SPGEMM_OVERLAP_BLOCKS 8     // blocks for the download's overlap, at most
#define GCU_SPGEMM_OVERLAP_MIN_BYTES ((int64_t) 512 << 20)   // ... of at least this
#define GCU_SPGEMM_MAX_BLOCKS 4096      // row blocks, at most

// ---- the launch shape of a shared bin ----------------------------------------
// *G threads a row and *R = threads / *G rows a block of `threads` threads,
// for a table of H slots: symbolic H / 16 (its table has two slots a
// product: each thread walks about eight products); numeric H / 4 (about 1.5
// slots an entry); masked H / 2. A row has at least 8 threads (16 masked), at
// most a block. (bench/RESULTS.md, "2026-11-23 17:17 UTC".)
typedef enum { GCU_PHASE_SYMBOLIC, GCU_PHASE_NUMERIC, GCU_PHASE_MASKED } gcu_bin_phase ;
#define GCU_SPGEMM_SHAPE_DIV_SYMBOLIC 16
#define GCU_SPGEMM_SHAPE_DIV_NUMERIC 4
#define GCU_SPGEMM_SHAPE_DIV_MASKED 2
#define GCU_SPGEMM_SHAPE_LEAST 8
#define GCU_SPGEMM_SHAPE_LEAST_MASKED 16

#if !defined(__CUDACC_RTC__)
static inline void gcu_bin_shape (int64_t H, gcu_bin_phase phase, int threads, int *G, int *R)
{
    const int div = phase == GCU_PHASE_SYMBOLIC ? GCU_SPGEMM_SHAPE_DIV_SYMBOLIC
        : (phase == GCU_PHASE_NUMERIC ? GCU_SPGEMM_SHAPE_DIV_NUMERIC : GCU_SPGEMM_SHAPE_DIV_MASKED) ;
    const int least = phase == GCU_PHASE_MASKED ? GCU_SPGEMM_SHAPE_LEAST_MASKED : GCU_SPGEMM_SHAPE_LEAST ;
    int g = (int) (H / div) ;
    if (g < least) g = least ;
    if (g > threads) g = threads ;
    *G = g ;
    *R = threads / g ;
}
#endif

#endif
