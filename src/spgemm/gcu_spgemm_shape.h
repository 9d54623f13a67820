// gcu_spgemm_shape.h — the launch shape of a bin of shared-memory hash tables
// in the SpGEMM engine: threads per row and rows per block for a table of H
// slots, by phase. One definition for spgemm.cu, which launches the bins, and
// for the tests that run the kernels under the SIMT emulation
// (tests/common/gcu_emu_test.h), so the emulated launches are the real ones.
// Host code (C or C++), no CUDA. Internal header: never installed.
#ifndef GCU_SPGEMM_SHAPE_H
#define GCU_SPGEMM_SHAPE_H

#include <stdint.h>

typedef enum { GCU_PHASE_SYMBOLIC, GCU_PHASE_NUMERIC, GCU_PHASE_MASKED } gcu_bin_phase ;

// *G threads a row and *R = threads / *G rows a block of `threads` threads,
// for a table of H slots: symbolic H / 16 (its table has two slots a
// product: each thread walks about eight products); numeric H / 4 (about 1.5
// slots an entry); masked H / 2. A row has at least 8 threads (16 masked), at
// most a block. Fewer threads a row than before (symbolic H / 4, numeric
// H / 2) measured faster on the H200: bench/RESULTS.md, "2026-11-23 17:17
// UTC" (the calls before 79ec56b landed).
static inline void gcu_bin_shape (int64_t H, gcu_bin_phase phase, int threads, int *G, int *R)
{
    const int div = phase == GCU_PHASE_SYMBOLIC ? 16 : (phase == GCU_PHASE_NUMERIC ? 4 : 2) ;
    const int least = phase == GCU_PHASE_MASKED ? 16 : 8 ;
    int g = (int) (H / div) ;
    if (g < least) g = least ;
    if (g > threads) g = threads ;
    *G = g ;
    *R = threads / g ;
}

#endif
