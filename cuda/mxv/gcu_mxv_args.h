// gcu_mxv_args.h — the one argument struct of the GrB_mxv / GrB_vxm family's
// JIT kernels (cuda/mxv/gcu_mxv_jit.cuh), filled by the launches
// (src/mxv/mxv.c) and passed by value. Plain C.
#ifndef GCU_MXV_ARGS_H
#define GCU_MXV_ARGS_H

#if !defined(__CUDACC_RTC__)
#include <stdint.h>
#endif

typedef struct
{
    int64_t n ;             // pull, vector, stream: rows of R; push, push_long: entries of u;
                            // init: length of T; long: segments
    const void *Rp, *Rj, *Rx ;  // pull, SpMV variants: R by row; push: P = R' by row
    const int8_t *Ub ;      // pull: u's presence bytes (NULL: u full)
    const int64_t *Ui ;     // push: u's entries' positions
    const void *Ux ;        // u's values (dense for pull, one an entry for push)
    const int8_t *allow ;   // the mask's allowed entries of w (NULL: all)
    void *Tx ;              // T: a value (SR::Z) and a presence byte per entry of w
    int8_t *Tb ;
    int32_t *locks ;        // push, long: a lock per entry of T for values wider than 8 bytes
    int G ;                 // threads a row (pull, vector) or an entry of u (push);
                            // adaptive: rows longer than this folded by a warp
    int R, C ;              // stream: rows a block, products staged a block
    int64_t lrow ;          // SpMV variants, push: rows longer than this are the
                            // long kernel's (0: none)
    const int64_t *Ls ;     // push_long: the inclusive scan of the segments of u's
                            // entries (n; NULL: the kernel's own, n <= 32)
    const int64_t *Sg ;     // long: each segment's row, first entry and end (3 a segment)
    int64_t seg ;           // push_long: entries a segment
    const int64_t *Bs ;     // adaptive: the blocks' first rows (blocks + 1)
    const int64_t *So ;     // sell: the slices' first entries (slices + 1)
    const void *Sj, *Sx ;   // sell: R's indices and values by slice (Sx: Rx when iso)
    const int32_t *Sp ;     // sell: the slices' rows (NULL: R's in order)
    int group_exit ;        // pull: ANY and terminal monoids stop a row's whole group
}
gcu_mxv_args ;

#endif
