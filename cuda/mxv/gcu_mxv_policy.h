// gcu_mxv_policy.h — the tuning of the GrB_mxv / GrB_vxm family
// (cuda/mxv/gcu_mxv.cuh) as data, read by the launches (src/mxv/mxv.c), the
// SpMV plan (src/mxv/spmv_plan.cu) and the emulated tests
// (tests/cpu/test_mxv_emu.cpp); the measurements behind the method choice
// are in bench/RESULTS.md (mxv/vxm sections).
// Plain C.
#ifndef GCU_MXV_POLICY_H
#define GCU_MXV_POLICY_H

#define GCU_MXV_THREADS 256         // block size: the kernels' __launch_bounds__
#define GCU_MXV_GROUP_MAX 32        // threads a row (pull) or an entry of u (push): at most a warp
#define GCU_MXV_BLOCKS_PER_SM 32    // grid cap of the grid-stride loops (pull, push)
// push when its products cost less than pull's reads over this factor
#define GCU_MXV_PUSH_FACTOR 4.0
// pull's fixed cost per row of w, in the units of its reads (1 / this)
#define GCU_MXV_PULL_ROW_COST 32.0
// push's recheck (src/mxv/mxv.c, push_recheck): pull instead when the
// frontier's edges exceed the unexplored ones over GCU_MXV_PULL_ALPHA (Beamer
// et al. 2012, alpha = 14), counted for frontiers of at least
// GCU_MXV_RECHECK_MIN entries (smaller ones stay push unasked)
#define GCU_MXV_PULL_ALPHA 14.0
#define GCU_MXV_RECHECK_MIN 1024
// pull's group for an ANY monoid, whose row stops at its first entry (a
// BFS's first frontier neighbour): at most this many threads a row
// (rmat-22-16's level-2 pull 0.58 ms with 32, 0.12 ms with 4: bench/RESULTS.md)
#define GCU_MXV_PULL_ANY_G 4

// The SpMV variants (u full, no mask): how the rows of R are computed.
typedef enum
{
    GCU_SPMV_AUTO = 0,      // chosen from the matrix's features (src/mxv/mxv.c)
    GCU_SPMV_PULL = 1,      // the general pull kernel (presence bytes, mask, early exit)
    GCU_SPMV_VECTOR = 2,    // CSR-vector: G threads a row, shuffle reduction
    GCU_SPMV_STREAM = 3,    // CSR-stream: a block's rows' products staged in shared memory
    GCU_SPMV_SELL = 4,      // sliced ELL: a thread a row, slices of a warp's rows stored by
                            // column (a derived copy of R, built once a matrix)
    GCU_SPMV_ADAPTIVE = 5,  // CSR-adaptive: stream over blocks of rows of about the same
                            // number of entries (the plan's block starts)
    GCU_SPMV_SELLSORT = 6,  // sell over the rows sorted by length (SELL-C-sigma, sigma
                            // all rows): little padding for power-law matrices
    GCU_SPMV_NVARIANTS = 7
}
gcu_spmv_variant ;

// stream: products a block stages (at most; fewer for wide values, so that
// the tile stays within GCU_MXV_STREAM_SMEM bytes), and rows a block at most
#define GCU_MXV_STREAM_TILE 2048
#define GCU_MXV_STREAM_SMEM 16384
#define GCU_MXV_STREAM_ROWS_MAX 1024
// stream: rows longer than this are reduced by a warp, shorter by a thread
#define GCU_MXV_STREAM_WARP_ROW 32
// split: rows longer than this leave the base kernel and are cut into
// segments of GCU_MXV_LONG_SEG entries, a warp each, folded atomically
// (1024 rather than 4096: stream measured faster on the rmat workloads, and
// adaptive's blocks fit the tile)
#define GCU_MXV_LONG_ROW 1024
#define GCU_MXV_LONG_SEG 1024
// the automatic bound (src/mxv/spmv.c): GCU_MXV_LONG_ROW where R has at
// least GCU_SPMV_SHARE_LONG entries for each thread the device holds at
// once, else GCU_MXV_LONG_ROW_SMALL: with fewer, sell's thread-a-row tail
// (a row of 1024 entries is 128 serial batches of gathers) outlasts the
// rest. Measured on the H100 (2026-11-27, call 46, FP64, hub order on):
// rmat-20-16 (116 entries a thread) 0.253 ms at 64, 0.259 at 128 and 256,
// 0.309 at 1024; rmat-22-16 (475 a thread) 1.14 ms at 1024, 1.19 at 64
// and 256 (cuSPARSE 0.277 and 1.258)
#define GCU_MXV_LONG_ROW_SMALL 64
#define GCU_SPMV_SHARE_LONG 256
// push's split: an entry of u whose row of P is longer than this leaves the
// push kernel; its row is cut into segments of GCU_MXV_PUSH_SEG entries, a
// warp each (gcu_mxv_push_long)
#define GCU_MXV_PUSH_LONG_ROW 1024
#define GCU_MXV_PUSH_SEG 256
// push's split for a u of at most this many entries: each warp of the split
// kernel scans their segment counts itself (a lane an entry: at most 32),
// without CUB's scan and its launches
#define GCU_MXV_PUSH_WARP_SCAN 32

// sell: rows a slice (a warp: the slice's column j is read by one coalesced
// load), and the padding the automatic choice accepts (the slices' entries,
// each slice as wide as its longest row, over R's entries)
#define GCU_MXV_SELL_SLICE 32
#define GCU_SPMV_SELL_PAD_MAX 1.25
// adaptive: a block starts where a row starts in a new run of this many
// entries of R, every GCU_MXV_ADAPTIVE_ROWS rows (a thread a row in the
// fold) and around each long row (alone in its block, left to the split);
// with rows of at most GCU_MXV_LONG_ROW entries a block's products then
// fit the stream tile (GCU_MXV_STREAM_TILE) for values of 8 bytes or less
#define GCU_MXV_ADAPTIVE_NNZ 1024
#define GCU_MXV_ADAPTIVE_ROWS GCU_MXV_THREADS

// sell and the split's long kernel may sum natively (gcu_mxv_sell's NAT)
// where the semiring is PLUS_TIMES on one floating type, bounded to
// GCU_SPMV_MINB_NAT blocks an SM then, else GCU_SPMV_MINB (GRBCUDA_SPMV's
// +nat=0/1 and +minb=N override them). GCU_SPMV_NAT: 0 never, 1 always, 2
// where no row is split. Measured on the H100 (2026-11-26, call 35,
// bench/spmv_variants, FP64): grid3d-100's sell 0.0476 ms with the exact
// sums, 0.039-0.040 native (cuSPARSE 0.051); rmat-20-16 and rmat-22-16
// (sellsort with the split) 2-5% slower native (0.345 / 1.392 against
// 0.338 / 1.326), hence only unsplit. MINB_NAT 2-4 alike; 6 slower.
#define GCU_SPMV_NAT 2
#define GCU_SPMV_MINB_NAT 4
#define GCU_SPMV_MINB 1

// the automatic choice for rows not regular enough for sell, while their
// mean is at most GCU_SPMV_STREAM_MEAN_MAX: bench/spmv_variants found
// sellsort (with the split) the fastest on rmat-20-16 and rmat-22-16, ahead
// of stream and adaptive (bench/RESULTS.md)
#define GCU_SPMV_SHORT_ROWS GCU_SPMV_SELLSORT

// the automatic choice: GCU_SPMV_SHORT_ROWS while the mean row (of the rows
// the base kernel computes) is at most this long, else vector; where vector
// overtakes the others is not measured yet
#define GCU_SPMV_STREAM_MEAN_MAX 48.0

// the hub order (src/mxv/spmv_hub.cu): R's columns renumbered, most entries
// first, and u read from a copy permuted by it, where its
// GCU_SPMV_HUB_COLS fullest columns (their values of u: 128 KB of FP64,
// about an SM's L1) hold at least GCU_SPMV_HUB_COVER of R's entries and u
// has at least GCU_SPMV_HUB_MIN_COLS values (a shorter u stays in L2 and
// gains little from L1). rmat-20-16: 57%, rmat-22-16: 40%, grid3d-100: 2%.
#define GCU_SPMV_HUB_COLS 16384
#define GCU_SPMV_HUB_COVER 0.30
#define GCU_SPMV_HUB_MIN_COLS (1 << 17)

#endif
