// gcu_vmerge.cuh — vectors held densely on the device (a presence byte and a
// value per position): the write-back w<M,replace> = accum (w, T) one
// position a thread, and the mask's allowed positions (DESIGN §3). The
// values go through the matrix write-back's value policies
// (cuda/writeback/gcu_merge.cuh: gcu_merge_bytes compiled with the library,
// gcu_merge_typed<SR> by the JIT for an accum or a typecast). Position i:
//   t, accum      w(i) = accum (w(i), T(i)) where both are, else w(i), or
//                 T(i) cast to w's type
//   t, no accum   w(i) = T(i) cast to w's type; none where T has none
//   not t         w(i) kept, or none with GrB_REPLACE
// The same kernel computes the element-wise operations' T = u op v (u as w,
// v as T, the op as the accum, no mask): eWiseAdd as above, eWiseMult with
// v.intersect (an entry only where both are), eWiseUnion with v.union_ab
// (an entry of one side only meets alpha or beta: gcu_merge_typed).
// Host-compilable (GCU_HD): the CPU tests run the same positions.
#ifndef GCU_VMERGE_CUH
#define GCU_VMERGE_CUH

#include "common/gcu_types.cuh"
#include "writeback/gcu_merge.cuh"
#include "writeback/gcu_vmerge_args.h"

// the mask's verdict at i (complement applied; no mask: true, or false
// when complemented)
GCU_HD bool gcu_vmask_at (const gcu_vmerge_args &a, int64_t i)
{
    bool t = true ;
    if (a.mask)
        t = (a.Mb == 0 || a.Mb [i] != 0) && (a.v.structural || gcu_merge_mask_value (a.v, i)) ;
    return a.v.complement ? !t : t ;
}

// position i of the result: writes Ob [i] (and Ox [i] when present);
// true if the result has an entry there. In place (Ob is w's own presence
// bytes Cb, Ox its values Cx: a sparse mask's change to a device-newest w,
// src/vector/vector.c), a value w keeps stays where it is and the presence
// byte is written only where it changes: the pass reads bytes and writes
// only what the call changes, where a new image copies all of w.
template <class V>
GCU_HD bool gcu_vmerge_at (const gcu_vmerge_args &a, int64_t i)
{
    const bool inplace = a.Ob == a.Cb ;
    const bool hc = a.v.Cx != 0 && (a.Cb == 0 || a.Cb [i] != 0) ;
    const bool ht = a.Tb == 0 || a.Tb [i] != 0 ;
    const bool t = gcu_vmask_at (a, i) ;
    // which value the result takes: 1 w's, 2 T's, 3 both (accum), 0 none
    int take = 0 ;
    if (t && a.v.intersect) take = (hc && ht) ? 3 : 0 ;
    else if (t) take = a.v.accum ? (hc ? 1 : 0) | (ht ? 2 : 0) : (ht ? 2 : 0) ;
    else if (hc && !a.v.replace) take = 1 ;
    if (take == 1) { if (!inplace) V::from_c (a.v, a.Ox, i, i) ; }
    else if (take == 2) V::from_t (a.v, a.Ox, i, i) ;
    else if (take == 3) V::from_both (a.v, a.Ox, i, i, i) ;
    if (!inplace || hc != (take != 0)) a.Ob [i] = (int8_t) (take != 0) ;
    return take != 0 ;
}

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

// the block's count of the positions its threads found (mine: a thread's
// own, over the whole grid-stride loop) added to *count by one atomic a
// block: every thread of the block calls it once, after its loop (a warp's
// atomic an iteration, 131072 of them on one address for 4M positions,
// took longer than the pass itself)
__device__ __forceinline__ void gcu_vec_count (unsigned long long mine, unsigned long long *count)
{
    __shared__ unsigned long long part [32] ;
    for (int off = 16 ; off > 0 ; off /= 2) mine += __shfl_down_sync (0xffffffffu, mine, off) ;
    if ((threadIdx.x & 31) == 0) part [threadIdx.x / 32] = mine ;
    __syncthreads () ;
    if (threadIdx.x == 0)
    {
        unsigned long long total = 0 ;
        for (unsigned w = 0 ; w < (blockDim.x + 31) / 32 ; w++) total += part [w] ;
        if (total != 0) atomicAdd (count, total) ;
    }
}

// the presence bytes of 8 positions that are not zero
__device__ __forceinline__ unsigned gcu_vec_word_count (uint64_t w)
{
    w |= w >> 4 ;
    w |= w >> 2 ;
    w |= w >> 1 ;
    return (unsigned) __popcll (w & 0x0101010101010101ull) ;
}

// The write-back a warp a tile of 256 positions, a lane a word of 8 of
// them: where a structural mask's presence bytes say false at all 8 (none
// there, or all there when complemented), the word's result is known
// without its positions: none with GrB_REPLACE (Ob's word zeroed, in place
// only where w had some), w's own in place without it (nothing written,
// its entries counted from Cb's word). The other positions go one a lane
// (coalesced, as the plain loop), skipping the words their owner took. A
// BFS's level<q> = k, parent<q> = q (q a sparse frontier) and q<!visited,
// replace> (visited dense) read a byte or two a position, and write only
// where the call changes w. Mb and Ob (Cb in place) 8-byte aligned.
template <class V>
__device__ __forceinline__ unsigned long long gcu_vmerge_tiles (const gcu_vmerge_args &a,
    bool inplace)
{
    const int lane = (int) (threadIdx.x & 31u) ;
    const int64_t nwarps = ((int64_t) gridDim.x * blockDim.x) / 32 ;
    const uint64_t all_false = a.v.complement ? 0x0101010101010101ull : 0 ;
    unsigned long long mine = 0 ;
    for (int64_t base = (((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32) * 256 ;
         base < a.v.m ; base += nwarps * 256)
    {
        const int64_t w0 = base + 8 * lane ;
        bool took = false ;
        if (w0 + 8 <= a.v.m && *(const uint64_t *) (a.Mb + w0) == all_false)
        {
            took = true ;
            uint64_t *ow = (uint64_t *) (a.Ob + w0) ;
            if (a.v.replace) { if (!inplace || *ow != 0) *ow = 0 ; }
            else mine += gcu_vec_word_count (*ow) ;       // in place: Ob is Cb
        }
        for (int j = 0 ; j < 8 ; j++)
        {
            // position base + 32 j + lane lies in word 4 j + lane / 8
            const bool skip = __shfl_sync (0xffffffffu, (int) took, 4 * j + lane / 8) != 0 ;
            const int64_t i = base + 32 * j + lane ;
            if (!skip && i < a.v.m) mine += gcu_vmerge_at<V> (a, i) ;
        }
    }
    return mine ;
}

// the write-back over every position, grid-stride (every thread of a block
// runs the same number of steps: gcu_vec_count's barrier); by tiles where
// words of a structural mask's false verdicts can be taken at once (with
// GrB_REPLACE, or in place without it)
template <class V>
__device__ __forceinline__ void gcu_vmerge_kernel (const gcu_vmerge_args &a)
{
    const bool inplace = a.Ob == a.Cb ;
    unsigned long long mine = 0 ;
    if (a.words && a.mask && a.Mb != 0 && a.v.structural && (a.v.replace || inplace)
        && (((unsigned long long) a.Mb | (unsigned long long) a.Ob) & 7u) == 0)
        mine = gcu_vmerge_tiles<V> (a, inplace) ;
    else
    {
        const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
        for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < a.v.m ; i += stride)
            mine += gcu_vmerge_at<V> (a, i) ;
    }
    gcu_vec_count (mine, a.count) ;
}

// allow [i] = the mask's verdict (1 or 0), counted
__device__ __forceinline__ void gcu_vallow_kernel (const gcu_vmerge_args &a, int8_t *allow)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    unsigned long long mine = 0 ;
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < a.v.m ; i += stride)
    {
        const bool t = gcu_vmask_at (a, i) ;
        allow [i] = (int8_t) t ;
        mine += t ;
    }
    gcu_vec_count (mine, a.count) ;
}

#endif
#endif
