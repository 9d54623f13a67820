// gcu_vmerge_args.h — the one argument struct of the dense-vector write-back
// (cuda/writeback/gcu_vmerge.cuh), shared by the host code that fills it
// (src/vector/), the kernels compiled with the library (src/vector/
// vector.cu) and the JIT's typed ones: plain C, by value.
#ifndef GCU_VMERGE_ARGS_H
#define GCU_VMERGE_ARGS_H

#if defined(__CUDACC_RTC__)
#include "writeback/gcu_merge_args.h"     // the JIT names its headers so
#else
#include "gcu_merge_args.h"
#endif


// w<M,replace> = accum (w, T) over vectors held densely on the device: a
// presence byte and a value per position. v carries the values and the
// flags of the matrix write-back (gcu_merge_args: v.m is the length; Cx, Tx,
// Mx are indexed by position; Cp, Tp, Mp unused). Cx NULL: w has no
// entries. Cb, Mb NULL: every position present (a full vector). T always
// has its presence bytes. mask false: no mask (every position true, none
// with v.complement: GraphBLAS's C<!NULL>). The result goes to Ob/Ox, and
// its entry count is added to *count (Ob = Cb and Ox = Cx: in place, w's
// own image changed where the call changes it). Tb NULL: T is full.
// v.intersect: the element-wise multiply's intersection (u as w, v as T).
typedef struct
{
    gcu_merge_args v ;
    const int8_t *Cb, *Tb, *Mb ;
    bool mask ;
    int8_t *Ob ;
    void *Ox ;
    unsigned long long *count ;
    // a word of 8 positions whose structural mask verdicts are all false
    // may be taken at once where the result there is known without them
    // (gcu_vmerge_tiles; gcu_vec_write_back sets it)
    bool words ;
}
gcu_vmerge_args ;

#endif
