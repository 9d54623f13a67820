// gcu_spmm_item.cuh — the items of SpMM's row kernel (gcu_spmm_rows in
// cuda/spmm/gcu_spmm.cuh) read one at a time: an item's row and entries of
// A, and the prefetches into L1 that let a group read its next items' part
// of A while it loads X for this one (GCU_SPMM_PIPE).
#ifndef GCU_SPMM_ITEM_CUH
#define GCU_SPMM_ITEM_CUH

#include "spmm/gcu_spmm_args.h"

// An item of the row kernel: row i, its entries p0 .. p1-1 of A (p0 == p1:
// nothing to do: past the group's last item, or a row of the unsorted
// order that is empty or left to the segments)
template <class AI>
struct gcu_spmm_item
{
    int64_t i ;
    AI p0, p1 ;
};

// Item r (of the launch's cnt where live), as gcu_spmm_rows reads it: the
// segments of the long rows first, then the rows sorted (ord) or in order
template <class AI>
__device__ __forceinline__ gcu_spmm_item<AI> gcu_spmm_item_at (const gcu_spmm_args &a,
    const AI *__restrict__ Ap, int64_t r, bool live)
{
    gcu_spmm_item<AI> it ;
    it.i = 0 ; it.p0 = 0 ; it.p1 = 0 ;
    if (!live) return it ;
    if (r < a.nseg)
    {
        const int64_t i = a.segrow [r] ;
        const AI pe = Ap [i + 1] ;
        it.i = i ;
        it.p0 = (AI) ((int64_t) Ap [i] + (r - a.segoff [i]) * a.seg) ;
        it.p1 = ((int64_t) (pe - it.p0) > (int64_t) a.seg) ? (AI) (it.p0 + (AI) a.seg) : pe ;
    }
    else if (a.ord != NULL)
    {
        // sorted: the row, its length and its first entry at once
        const int64_t q = a.ord [2 * (r - a.nseg)] ;
        it.i = q & 0xffffffff ;
        it.p0 = (AI) a.ord [2 * (r - a.nseg) + 1] ;
        it.p1 = it.p0 + (AI) (q >> 32) ;
    }
    else
    {
        it.i = r - a.nseg ;
        it.p0 = Ap [it.i] ;
        it.p1 = Ap [it.i + 1] ;
        if ((int64_t) (it.p1 - it.p0) > a.rmax) it.p1 = it.p0 ;   // the segments take it
    }
    return it ;
}

// The line of p brought into L1 ahead of its load (a no-op in the SIMT
// emulation, and where p is not a global address)
template <class T>
__device__ __forceinline__ void gcu_prefetch_l1 (const T *p)
{
#if defined (__CUDA_ARCH__)
    asm volatile ("prefetch.global.L1 [%0] ;" :: "l" (p)) ;
#else
    (void) p ;
#endif
}

// Item r's first value that gcu_spmm_item_at reads, brought into L1 (where
// live), so that the later gcu_spmm_item_at (r) waits on L1, not memory
template <class AI>
__device__ __forceinline__ void gcu_spmm_item_prefetch (const gcu_spmm_args &a,
    const AI *__restrict__ Ap, int64_t r, bool live)
{
    if (!live) return ;
    if (r < a.nseg) gcu_prefetch_l1 (a.segrow + r) ;
    else if (a.ord != NULL) gcu_prefetch_l1 (a.ord + 2 * (r - a.nseg)) ;
    else gcu_prefetch_l1 (Ap + (r - a.nseg)) ;
}

#endif
