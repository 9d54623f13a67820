// spgemm_internal.h — what the host files of the SpGEMM engine share (C++,
// never installed): the plan of one call, which the phases fill in turn
//
//   analyse -> symbolic -> row pointers -> plan blocks -> numeric + download
//   (phases.cu)                            (blocks.cu)   (numeric.cu)
//
// with spgemm.cu running them and releasing what they made, launch.cu the
// only file that launches kernels (those compiled with the library,
// cuda/spgemm/gcu_spgemm_kernels.cuh, and the JIT's) and calls CUB, and the tuning in
// cuda/spgemm/gcu_spgemm_policy.h. One error idiom: GCU_TRY (gcu_util.h).
// Every device allocation of the call goes into the plan's scratch (freed
// once, by spgemm.cu) unless a helper frees its own temporaries on return.
#ifndef GCU_SPGEMM_INTERNAL_H
#define GCU_SPGEMM_INTERNAL_H

#include <cuda_runtime.h>

extern "C" {
#include "gcu_spgemm.h"
#include "gcu_util.h"
#include "../device/gcu_device.h"
#include "../device/gcu_staging.h"
#include "../device/gcu_streams.h"
}
#include "spgemm/gcu_spgemm_policy.h"
#include "spgemm/gcu_spgemm_args.h"

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

// a CUDA runtime call's status as the engine reports it
static inline GrB_Info spgemm_cuda (cudaError_t e) { return e == cudaSuccess ? GrB_SUCCESS : GrB_PANIC ; }

// the device allocations of one call, freed together
struct spgemm_scratch
{
    gcu_stream s ;
    void *p [40] ;
    int n ;
    GrB_Info alloc (void **q, size_t bytes)
    {
        *q = NULL ;
        if (n == (int) (sizeof (p) / sizeof (p [0]))) return GrB_PANIC ;   // a bug, never a crash
        GrB_Info info = gcu_dmalloc (q, bytes, s) ;
        if (info == GrB_SUCCESS) p [n++] = *q ;
        return info ;
    }
    void release (void)
    {
        for (int k = 0 ; k < n ; k++) gcu_dfree (p [k], s) ;
        n = 0 ;
    }
} ;

// the timing events of a call (gcu_streams.timed): the phase boundaries
// (start, analysis, symbolic, row pointers), then the start and the end of the
// numeric phase of the two row blocks in flight
enum { EV_START, EV_ANALYSIS, EV_SYMBOLIC, EV_ROWPTR, EV_BLOCK_BEGIN, EV_BLOCK_END = EV_BLOCK_BEGIN + 2 } ;

struct spgemm_plan
{
    // the call
    const gcu_semiring_desc *sr ;
    const gcu_jit_operands *ops ;
    const gcu_spgemm_in *in ;
    gcu_spgemm_out *out ;
    const gcu_spgemm_keep *keep_req ;  // out->keep as the caller set it
    const gcu_device_props *dev ;
    gcu_stream s ;
    cudaStream_t st ;               // the call's stream
    cudaStream_t sd, sc ;           // the side stream and the downloads' (ctx)
    cudaEvent_t fork, join ;        // sd forked from st and joined back (ctx)
    cudaEvent_t *ev ;               // timing events (ctx), EV_*
    gcu_streams *ctx ;
    spgemm_scratch S ;
    int64_t m, n ;
    size_t zsize ;
    bool lock ;                     // values wider than 8 bytes: lock words
    void *fshared, *fglobal, *fdense ;  // the numeric kernels (JIT)
    gcu_spgemm_args args ;          // their operands (A, B, C)
    // analysis
    int64_t *prod ;                 // products per row
    int64_t total ;                 // their sum (comes with the symbolic binning)
    // symbolic
    int64_t *Cnnz ;                 // distinct columns per row
    int64_t *rows ;                 // rows by (block, bin)
    int32_t *cursor ;               // the dense windows' place in each row of B
    int64_t ndense_sym ;            // long rows the symbolic phase ran dense
    size_t dev_free ;               // free device memory (the blocks' plan)
    // row pointers
    int64_t *Cp ;
    // row blocks
    int nb ;
    int64_t nvals, max_bnvals, nglobal ;
    int64_t Wnum ;                  // dense window of the longest rows (0: global tables)
    int64_t *bhist, *bfirst ;       // rows of each (block, bin), and where they start
    int64_t *hbounds, *hbase ;      // blocks' first rows, first entries (hbase in hbounds)
    unsigned long long *hh ;        // the bins' sizes as they come down
    bool keep ;                     // the output stays on the device
    int32_t *bufJ [2] ;
    void *bufX [2] ;
    // the output on the host
    GrB_Index *Tp, *Tj ;
    void *Tx ;
    int nblocks_run ;
    double numeric_ms, download_s ;
} ;

// ---- phases (phases.cu, blocks.cu, numeric.cu) --------------------------------
GrB_Info spgemm_analyse (spgemm_plan *P) ;
GrB_Info spgemm_symbolic (spgemm_plan *P) ;
GrB_Info spgemm_row_pointers (spgemm_plan *P) ;
GrB_Info spgemm_plan_blocks (spgemm_plan *P) ;
GrB_Info spgemm_numeric (spgemm_plan *P) ;
int spgemm_block_count (int64_t m, int64_t nvals, size_t zsize, size_t free_bytes) ;

// ---- shared by the phases (phases.cu) -----------------------------------------
// threads a row of B for a row of G threads (spECK's local load balancing)
int spgemm_tpb (int64_t products, int64_t anvals, int G) ;
// first [b] = where bin b's rows start in a list sorted by bin
void spgemm_bin_firsts (const int64_t *hist, int64_t first [GCU_SPGEMM_NBINS + 1]) ;
// the dense accumulator's window (0: none), and the numeric one
int64_t spgemm_dense_window (const gcu_device_props *dev, int64_t n, int64_t eighths_per_col, int blocks) ;
int64_t spgemm_dense_window_numeric (const gcu_device_props *dev, int64_t n, size_t zsize) ;
// the largest shared table whose kernel fits a block's shared memory
int64_t spgemm_shared_hmax (const gcu_device_props *dev, size_t zsize, bool lock,
    size_t (*smem_of) (int64_t, int, size_t, bool), gcu_bin_phase phase) ;
// dynamic shared memory of the numeric and masked shared-table kernels
size_t spgemm_numeric_smem (int64_t H, int R, size_t zsize, bool lock) ;
size_t spgemm_masked_smem (int64_t H, int R, size_t zsize, bool lock) ;
// the dense accumulators' cursor, allocated once a call
GrB_Info spgemm_dense_cursor (spgemm_plan *P) ;
// the side stream sd forked from st, and joined back
GrB_Info spgemm_fork (spgemm_plan *P) ;
GrB_Info spgemm_join (spgemm_plan *P) ;

// The launch of shared bin b (1..GCU_SPGEMM_NBINS_SHARED) holding n rows: its
// table of H slots, G threads per row, R rows per block, grid blocks.
struct spgemm_bin_launch
{
    uint32_t H ;
    int G, R ;
    int64_t grid ;
    spgemm_bin_launch (int b, int64_t n, gcu_bin_phase phase)
    {
        H = (uint32_t) ((int64_t) GCU_SPGEMM_HMIN << (b - 1)) ;
        gcu_bin_shape (H, phase, GCU_SPGEMM_THREADS, &G, &R) ;
        grid = (n + R - 1) / R ;
    }
} ;

// Calls f (b, side) for each shared-table bin b with rows. With side_ok,
// every bin but the largest goes on the side stream (side true), and those
// come first: a bin of a few hundred blocks then runs beside the largest
// instead of alone on a device it fills a part of (bench/RESULTS.md).
// Stops at the first error f returns.
template <class F>
GrB_Info spgemm_for_shared_bins (const int64_t *hist, bool side_ok, F f)
{
    int bmax = 0 ;
    for (int b = 1 ; b <= GCU_SPGEMM_NBINS_SHARED ; b++)
        if (hist [b] > (bmax > 0 ? hist [bmax] : 0)) bmax = b ;
    for (int pass = 0 ; pass < 2 ; pass++)
    {
        for (int b = 1 ; b <= GCU_SPGEMM_NBINS_SHARED ; b++)
        {
            if (hist [b] == 0) continue ;
            const bool side = side_ok && b != bmax ;
            if (side != (pass == 0)) continue ;
            GCU_TRY (f (b, side)) ;
        }
    }
    return GrB_SUCCESS ;
}

// The rows of the global bin (nr rows listed in grows, count [] their
// distinct-column bound), in chunks whose tables (slot_bytes a slot) fit a
// part of the free device memory: for each chunk, f (c0, c1, slots, offs)
// runs with the chunk's table offsets on the device in offs. A single row
// too large for the budget is GrB_OUT_OF_MEMORY (the host takes the call).
typedef GrB_Info (*spgemm_chunk_fn) (void *f, int64_t c0, int64_t c1, int64_t slots, const int64_t *offs) ;
GrB_Info spgemm_global_chunks (gcu_stream s, int64_t nr, const int64_t *grows,
    const int64_t *count, int64_t n, size_t slot_bytes, spgemm_chunk_fn call, void *f) ;
template <class F>
GrB_Info spgemm_for_global_chunks (gcu_stream s, int64_t nr, const int64_t *grows,
    const int64_t *count, int64_t n, size_t slot_bytes, F f)
{
    return spgemm_global_chunks (s, nr, grows, count, n, slot_bytes,
        [] (void *g, int64_t c0, int64_t c1, int64_t slots, const int64_t *offs)
        { return (*(F *) g) (c0, c1, slots, offs) ; }, &f) ;
}

// ---- launches of the library's kernels and CUB (launch.cu) --------------------
GrB_Info spgemm_row_products (const gcu_device_props *dev, const gcu_spgemm_in *in,
    int64_t *prod, gcu_stream s) ;
GrB_Info spgemm_bin_rows (spgemm_scratch &S, int64_t m, const int64_t *count, int64_t n,
    int64_t hmax, bool exact, int nb, const int64_t *bounds, int64_t **rows_sorted,
    int64_t *hist, unsigned long long **dhist_out, const int64_t *sum_of, int64_t *sum) ;
GrB_Info spgemm_order_by_work (int64_t nr, int64_t *rows, const int64_t *weight, gcu_stream s) ;
GrB_Info spgemm_sort_global_rows (int64_t nr, const int64_t *rows, const int64_t *Cp,
    int64_t base, int64_t nvals, int32_t *Cj, void *Cx, size_t zsize, gcu_stream s) ;
GrB_Info spgemm_symbolic_dense (const spgemm_plan *P, const int64_t *rows, int64_t nrows,
    int64_t W, size_t smem, int TPB) ;
GrB_Info spgemm_symbolic_shared (const spgemm_plan *P, const int64_t *rows, int64_t nrows,
    const spgemm_bin_launch &L, size_t smem, cudaStream_t st, int TPB) ;
GrB_Info spgemm_symbolic_global (const spgemm_plan *P, const int64_t *rows, int64_t nrows,
    const int64_t *offs, int32_t *keys, int TPB) ;
GrB_Info spgemm_exclusive_scan (spgemm_scratch &S, const int64_t *in, int64_t *out, int64_t n) ;
GrB_Info spgemm_block_bounds (const spgemm_plan *P, int64_t *dbounds, int64_t *dbase) ;
GrB_Info spgemm_narrow_ptr (const spgemm_plan *P, uint32_t *Tp) ;
GrB_Info spgemm_global_sizes (int64_t nr, const int64_t *rows, const int64_t *count,
    int64_t n, int64_t *H, gcu_stream s) ;
// one JIT kernel (f, a CUfunction) over args a
GrB_Info spgemm_jit_launch (void *f, const gcu_spgemm_args &a, int64_t grid, int threads,
    size_t smem, cudaStream_t st, const char *what) ;
GrB_Info spgemm_mask_counts (const gcu_device_props *dev, int64_t m, const void *Mp,
    bool m64, const int64_t *prod, int64_t *count, gcu_stream s) ;

#endif
