// gcu_spmm_policy.h — the tuning of the SpMM and SDDMM kernels with dense
// operands (cuda/spmm/gcu_spmm.cuh, cuda/spmm/gcu_sddmm.cuh) as data, read by the launches
// (src/spmm/, src/mxm/mxm_spmm.c, src/mxm/mxm_masked.c) and the emulated
// tests (tests/cpu/test_spmm_emu.cpp). Plain C.
#ifndef GCU_SPMM_POLICY_H
#define GCU_SPMM_POLICY_H

#define GCU_SPMM_THREADS 256        // block size: the kernels' __launch_bounds__
#define GCU_SPMM_BLOCKS_PER_SM 16   // grid cap of the grid-stride loops
#define GCU_SPMM_GROUP_MAX 32       // lanes a row segment (SpMM) or a mask run (SDDMM)
#define GCU_SPMM_VEC_BYTES 16       // widest vector load or store of a lane
// SpMM: a row of A is cut into segments of at most this many entries, one
// group of lanes each (power-law rows spread over many groups; their
// partial rows are folded by a second kernel). GRBCUDA_SPMM_SEG overrides.
// With the row kernel, 192 (and rows of up to 192 entries whole) ran
// rmat-20-16 faster than 96 or 48 at 32 and 128 columns: fewer partial
// rows to write and fold, and sorted rows keep the groups of a warp even
// (bench/RESULTS.md, 2026-11-26 "SpMM row kernel").
#define GCU_SPMM_SEG 192
// SpMM: entries of A a lane's loads of X have in flight at once (the
// row-wise loop is unrolled by this many entries)
#define GCU_SPMM_UNROLL 4
// SpMM: column chunks of G*VEC a lane holds at most (register blocking:
// fewer lanes a row, each loading A's entries once for CH chunks).
// GRBCUDA_SPMM_CH forces 1, 2 or 4. 1: on an H100 (2026-11-26) CH 2 with 16
// lanes took rmat-20-16 k=128 from 5.11 (one chunk, the loop before the
// unrolling) to 5.84 ms.
#define GCU_SPMM_CH_MAX 1
// SpMM's fold of a long row's partial rows: loads of partial rows a lane
// has in flight at once (they are added in segment order after)
#define GCU_SPMM_FOLD_BATCH 8
// ... and a row of more segments than this is folded by a whole block (its
// groups fold consecutive ranges of its partial rows, then one adds their
// sums in order), where the launch has the shared memory for it
// (GRBCUDA_SPMM_FOLDBIG; 0: a group a row). On an H100 (rmat-20-16, FP32,
// k=128, 2026-11-27) the fold took 150-164 us when a group scanned all of
// A's rows for theirs, 71 us scanning the segments; the whole call 2.517 ms
// at 32, 2.527 at 8 and 2.555 with no block folds.
#define GCU_SPMM_FOLD_BIG 32

// SpMM row-wise (gcu_spmm_rows), where tiles do not pay; GRBCUDA_SPMM_ROWS=0
// takes the segment kernel instead (every row in segments). A group takes a
// row of at most GCU_SPMM_ROW_MAX entries whole, or a segment of GCU_SPMM_SEG
// entries of a longer row (GRBCUDA_SPMM_RMAX overrides), with
// GCU_SPMM_ROWS_UNROLL loads of X in flight a lane (GRBCUDA_SPMM_UNROLL: 2,
// 4 or 8), __launch_bounds__ of GCU_SPMM_MINB blocks an SM (GRBCUDA_SPMM_MINB,
// 1-8: more blocks, fewer registers, perhaps spills) and, where
// GCU_SPMM_HINT, A read and C written with evict-first hints
// (GRBCUDA_SPMM_HINT). GCU_SPMM_SORT: the rows in the order of their lengths,
// longest first (the plan sorts them once): 1 always, 0 never, -1 where
// uneven (the longest row of at most GCU_SPMM_ROW_MAX entries over
// GCU_SPMM_SORT_UNEVEN times their mean; GRBCUDA_SPMM_SORT). The grid:
// GCU_SPMM_GRID blocks an SM, -1 as many as fit at once (the driver's
// occupancy: one wave whose groups stride over the rows together, so that
// rows near in A run near in time); GRBCUDA_SPMM_GRID=b: b, 0: a group an
// item. GRBCUDA_SPMM_SLICE=c: columns in slices of about c, one launch each.
// Why these (bench/RESULTS.md, "SpMM row kernel"; bench/spmm_variants): the
// kernel is bound by the latency of its chains (A's row, its entries, X),
// so occupancy counts; bounds of 5 blocks are the most that compile without
// spills for FP32 (6 and 8 spilled and ran slower), 8 loads in flight took
// more registers than they hid; the one-wave grid kept grid3d's neighbouring
// rows together in time; sorting pays on rmat (groups of a warp alike) and
// not on a grid (A's order is its locality); slices and two chunks a lane
// did not pay.
#define GCU_SPMM_ROWS 1
#define GCU_SPMM_ROW_MAX 192
#define GCU_SPMM_ROWS_UNROLL 4
#define GCU_SPMM_MINB 5
#define GCU_SPMM_HINT 1
#define GCU_SPMM_SORT (-1)
#define GCU_SPMM_SORT_UNEVEN 2.0
#define GCU_SPMM_GRID (-1)
// GCU_SPMM_PIPE: a group prefetches into L1 its next item's first entries
// of A and the item after that one's row while it loads X for this one
// (GRBCUDA_SPMM_PIPE=0/1)
#define GCU_SPMM_PIPE 0
// GCU_SPMM_NAT: where the semiring is PLUS_TIMES on one floating type, the
// row kernel sums with the GPU's own + and * instead of the operators that
// give a NaN the host's sign and payload after every operation (their
// checks and branches made the kernel bound by instruction issue: ncu,
// grid3d-100 k=128, 65% SM throughput, 36% DRAM); a row whose sums hold a
// NaN is summed again with the operators (GRBCUDA_SPMM_NAT=0/1)
#define GCU_SPMM_NAT 1
// With NAT the row kernel holds fewer values but its loads stay in flight
// together; bounds of 4 blocks an SM (60 registers, no spills for FP32;
// 5 blocks spilled 50 bytes) ran faster than 5 in all four cases measured
// (bench/RESULTS.md, 2026-11-26 "SpMM native sums"). GRBCUDA_SPMM_MINB
// overrides both.
#define GCU_SPMM_MINB_NAT 4

// SpMM's cache classes of A's columns (src/spmm/hub.cu; the row kernel's
// HUB): a column's class in the two top bits of the row kernel's copy of
// A's indices. HOT: among the fullest columns, as many rows of X as
// GCU_SPMM_HUB_L1_BYTES hold (per SM: every block of the SM reads the same
// ones), and at least GCU_SPMM_HUB_HOT_MIN entries; COLD: past the fullest
// columns whose rows GCU_SPMM_HUB_L2_BYTES hold (0: none cold); the rest
// WARM. GCU_SPMM_HUB: -1 where X's rows are more than GCU_SPMM_HUB_X_L2
// times L2 and the hot columns hold at least GCU_SPMM_HUB_MIN_FRAC of A's
// entries, 0 never, 1 always (GRBCUDA_SPMM_HUB, _HUB_L1, _HUB_L2).
// Measured on an H100 (bench/spmm_variants, rmat-20-16, FP32, k=128,
// 2026-11-27, bench/RESULTS.md): the row kernel is bound by L2 (87% of its
// throughput, 54% of X's sectors hit L2); with the classes 2.52 ms against
// 2.71 without (L2 hit 60%, L2 throughput 78%); without the cold class no
// gain, without the hot class 2.77 against 2.60; L2 budgets of 16, 40, 48
// and 64 MB and an L1 budget of 220 KB were slower than 32 MB and 160 KB;
// loading the warm rows with L1::no_allocate took 4.0 ms (L2 hits fell to
// 32%). At k=32 (X within 4x L2) the classes were no faster (0.739 against
// 0.729 ms).
#define GCU_SPMM_CLS_WARM 0
#define GCU_SPMM_CLS_COLD 1
#define GCU_SPMM_CLS_HOT 2
#define GCU_SPMM_HUB (-1)
#define GCU_SPMM_HUB_L1_BYTES (160 * 1024)
#define GCU_SPMM_HUB_L2_BYTES (32 * 1024 * 1024)
#define GCU_SPMM_HUB_HOT_MIN 16
#define GCU_SPMM_HUB_X_L2 4.0
#define GCU_SPMM_HUB_MIN_FRAC 0.05

// ASpT (Hong et al. 2019, DESIGN §4): A's rows in panels of GCU_ASPT_PANEL
// rows; within a panel a column with at least GCU_ASPT_HEAVY entries (the
// paper's threshold: three) is heavy; heavy columns are numbered into tiles
// of at most GCU_ASPT_TILE columns whose rows of X a block stages in shared
// memory (at most GCU_ASPT_TILE * 512 bytes: a block's slice of columns is
// one group's, G*VEC values of at most 16 bytes a lane); the rest of each
// row is processed row-wise. Rows longer than GCU_ASPT_LONG entries stay
// out of the panels (the segment kernel splits them).
#define GCU_ASPT_PANEL 256
#define GCU_ASPT_TILE 64
#define GCU_ASPT_HEAVY 3
#define GCU_ASPT_LONG 1024
// Tiling pays (the analysis' choice, GRBCUDA_SPMM_TILE=auto) when at least
// this fraction of A's entries falls in tiles and a staged row of X serves
// on average at least GCU_ASPT_MIN_REUSE entries. On an H100 (2026-11-26)
// grid3d-100 (60% of entries in tiles, 4.2 a staged row) ran tiled in
// 0.62 ms (k=32) and 2.46 ms (k=128) against 0.28 and 1.08 row-wise: a
// banded matrix's rows of X already hit L1 row-wise, so the bar is above
// that; no matrix with more reuse has been measured yet.
#define GCU_ASPT_MIN_FRAC 0.20
#define GCU_ASPT_MIN_REUSE 8.0

// SDDMM: lanes a dot product at most (fewer: more terms a lane; with the
// batched kernel 16 and 8 ran slower than 32 on an H100 at k 32 and 128).
// GRBCUDA_SDDMM_GROUP overrides, for sweeps.
#define GCU_SDDMM_GROUP_MAX 32
// SDDMM's batches (cuda/spmm/gcu_sddmm.cuh): a lane's partial values a
// batch of B entries take at most this many bytes (B = this / sizeof (Z),
// a power of two up to 32; GRBCUDA_SDDMM_BATCH forces 1 .. 32); the blocks
// an SM the kernel's registers leave room for, which is also the grid
// (GRBCUDA_SDDMM_MINB 1 .. 8); the entries whose loads a lane has in flight
// at once (GRBCUDA_SDDMM_UNROLL 2, 4, 8), where the mask's rows are short
// (at most GCU_SDDMM_SHORT_ROW entries on average) and where they are not.
// The kernel waits on loads, and more warps hide more of it than more loads
// a lane do: on an H100 (bench/sddmm_variants, FP32, k 32 and 128) batches
// of 8 beat 16 and 32, 4 blocks an SM beat 2 and 3, and 2 loads in flight
// beat 4 and 8 on a mesh's short rows.
#define GCU_SDDMM_BATCH_BYTES 32
#define GCU_SDDMM_MIN_BLOCKS 4
#define GCU_SDDMM_UNROLL 4
#define GCU_SDDMM_UNROLL_SHORT 2
#define GCU_SDDMM_SHORT_ROW 16
// SDDMM, short rows: batches a run (a grid-stride loop of small runs, so
// that the entries in flight are a narrow band of the mask and its gathered
// rows of B are still in L2 for the next rows, which a mesh's neighbours
// need); long rows take one run a sub-group of the grid, one search for its
// first row (GRBCUDA_SDDMM_SEG sets the run's entries)
#define GCU_SDDMM_RUN_BATCHES 4
// SDDMM, short rows: by rows instead of runs (gcu_sddmm_rows: a row's
// columns, the extent of the row after the next and A's next row loaded
// ahead, a batch's loads of B all in flight at once, no search for a run's
// first row) where the dot products have at most GCU_SDDMM_ROWS_MAX_K
// terms, batches of at most GCU_SDDMM_ROWS_BATCH entries, A's rows loaded
// to be evicted first where GCU_SDDMM_ROWS_HINT is on (GRBCUDA_SDDMM_KERNEL,
// _BATCH, _MINB, _XHINT override). On an H100 (bench/sddmm_variants,
// grid3d-100, FP32, the first version by rows, 2026-11-26 ~16:15 UTC) k=32
// ran in 0.331 ms by rows with batches of 4 and 4 blocks an SM (0.354
// batches of 8 and 3 blocks, 0.441 with 2) against the runs' 0.398; at
// k=128 the runs were faster (1.377 ms against 1.444 at best by rows: the
// kernel waits on its loads, and a batch of 8 entries' loads in flight
// take about 100 registers, 80 with a few spilled at 3 blocks); the hint
// (then ld.global.cs) made no difference.
#define GCU_SDDMM_ROWS 1
#define GCU_SDDMM_ROWS_MAX_K 32
#define GCU_SDDMM_ROWS_BATCH 4
#define GCU_SDDMM_ROWS_HINT 0
#define GCU_SDDMM_ROWS_MIN_BLOCKS 4
// SDDMM: where the semiring is PLUS_TIMES on one floating type, a batch's
// dot products summed with the GPU's own + and * and checked for a NaN once,
// a batch holding one summed again with the operators (as GCU_SPMM_NAT;
// GRBCUDA_SDDMM_NAT=0/1). The operators' NaN checks had the kernel waiting
// on instruction issue: on an H100 (bench/sddmm_variants, FP32) grid3d-100
// took 1.12 ms natively against 1.42 at k=128, 0.276 against 0.341 at k=32.
#define GCU_SDDMM_NAT 1
// ... and with NAT on a mask of long rows (the runs' 4 loads in flight),
// blocks an SM: on an H100 (rmat-20-16, FP32, k=128 / 32) 5.03 / 1.42 ms at
// 2, 3.94 / 1.08 at 3 and 6.80 / 1.44 at 4 (5.61 / 1.45 without NAT at 4).
// A mesh's short rows keep GCU_SDDMM_MIN_BLOCKS (grid3d-100 k=128 by runs:
// 1.10 ms at 4, 1.42 at 2).
#define GCU_SDDMM_MIN_BLOCKS_NAT_LONG 3

// SDDMM's batch for values of zsize bytes: the most entries, a power of two
// up to 32, whose partial values fit GCU_SDDMM_BATCH_BYTES
static inline int gcu_sddmm_batch (unsigned long zsize)
{
    int b = 1 ;
    while (b < 32 && (unsigned long) (2 * b) * zsize <= GCU_SDDMM_BATCH_BYTES) b *= 2 ;
    return b ;
}

// Values a lane loads at once: the most of 4, 2, 1 that divides n (the
// columns, or the dot products' length) and fits GCU_SPMM_VEC_BYTES in the
// widest of the types read and written (a power-of-two size), when the
// values are contiguous in memory; else 1.
static inline int gcu_spmm_vec (long long n, unsigned long wide, int contiguous)
{
    if (!contiguous || wide == 0 || (wide & (wide - 1)) != 0) return 1 ;
    for (int v = 4 ; v > 1 ; v /= 2)
        if (n % v == 0 && wide * (unsigned long) v <= GCU_SPMM_VEC_BYTES) return v ;
    return 1 ;
}

// Lanes a group: the largest power of two up to gmax (at most a warp) that
// leaves every lane at least vec of the n columns (or terms).
static inline int gcu_spmm_group (long long n, int vec, int gmax)
{
    int g = 1 ;
    while (g < gmax && g < 32 && (long long) (2 * g) * vec <= n) g *= 2 ;
    return g ;
}

#endif
