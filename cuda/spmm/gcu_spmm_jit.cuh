// gcu_spmm_jit.cuh — the `__global__` kernels of the SpMM / SDDMM family that
// the JIT specialises (src/spmm/jit_spmm.c), written once: each takes the one
// argument struct gcu_spmm_args (gcu_spmm_args.h) by value and hands it to
// the device functions of gcu_spmm.cuh. A JIT block holds only the
// semiring's namespace and one GCU_SPMM_KERNELS, GCU_SDDMM_SCATTER_KERNEL or
// GCU_SDDMM_ROWS_KERNEL line.
#ifndef GCU_SPMM_JIT_CUH
#define GCU_SPMM_JIT_CUH

#include "spmm/gcu_spmm.cuh"
#include "spmm/gcu_sddmm.cuh"
#include "spmm/gcu_spmm_args.h"

// The one prototype of the family's JIT kernels.
#define GCU_SPMM_KERNEL(name) \
    extern "C" __global__ void __launch_bounds__ (GCU_SPMM_THREADS) name (const gcu_spmm_args a)

// SpMM's segment, fold, ASpT tile and row kernels for semiring SR, A's
// index type AI, VEC columns a load, CH chunks a lane (segments and rows),
// and the row kernel's U loads of X in flight, cache hints HINT,
// __launch_bounds__ of MINB blocks an SM (fewer registers where above 1) and
// the row kernel's PIPE (its next items' part of A prefetched) and NAT (sums
// in the GPU's own arithmetic: PLUS_TIMES on one floating type) and HUB
// (A's indices carry their columns' cache classes: src/spmm/hub.cu)
#define GCU_SPMM_KERNELS(SEGS, FOLD, TILE, ROWS, SR, AI, VEC, CH, U, HINT, MINB, PIPE, NAT, HUB) \
    GCU_SPMM_KERNEL (SEGS) { gcu_spmm_segments<SR, AI, VEC, CH> (a) ; }       \
    GCU_SPMM_KERNEL (FOLD) { gcu_spmm_fold<SR, AI, VEC> (a) ; }               \
    GCU_SPMM_KERNEL (TILE) { gcu_spmm_tiled<SR, AI, VEC> (a) ; }              \
    extern "C" __global__ void __launch_bounds__ (GCU_SPMM_THREADS, MINB)     \
    ROWS (const gcu_spmm_args a) { gcu_spmm_rows<SR, AI, VEC, CH, U, HINT, PIPE, NAT, HUB> (a) ; }

// SDDMM's batched kernel (gcu_sddmm.cuh) for semiring SR (its mask type),
// the mask's index type MI, VEC terms a load, B entries a batch, U entries'
// loads in flight and at least MINB blocks an SM (its registers capped so:
// the kernel waits on loads, and more warps hide more of it); NAT: sums in
// the GPU's own arithmetic (PLUS_TIMES on one floating type)
#define GCU_SDDMM_SCATTER_KERNEL(NAME, SR, MI, VEC, B, U, MINB, NAT)           \
    extern "C" __global__ void __launch_bounds__ (GCU_SPMM_THREADS, MINB)     \
    NAME (const gcu_spmm_args a) { gcu_sddmm_scatter<SR, MI, VEC, B, U, NAT> (a) ; }

// SDDMM's kernel by rows (gcu_sddmm_rows, a mask of short rows): B entries
// a batch, HINT: A's rows loaded to be evicted first, NAT as above
#define GCU_SDDMM_ROWS_KERNEL(NAME, SR, MI, VEC, B, HINT, MINB, NAT)           \
    extern "C" __global__ void __launch_bounds__ (GCU_SPMM_THREADS, MINB)     \
    NAME (const gcu_spmm_args a) { gcu_sddmm_rows<SR, MI, VEC, B, HINT, NAT> (a) ; }

#endif
