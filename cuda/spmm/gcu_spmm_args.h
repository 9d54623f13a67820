// gcu_spmm_args.h — the one argument struct of the SpMM / SDDMM JIT kernels
// (cuda/spmm/gcu_spmm_jit.cuh), filled by the launches (src/spmm/spmm.c,
// src/mxm/mxm_masked.c) and passed by value. A dense operand is read through
// strides: op(X)(r,c) is X [r*rs + c*cs] (row-major X: rs = ncols, cs = 1;
// by column: rs = 1, cs = nrows; transposed: swapped; iso: both 0). Plain C.
#ifndef GCU_SPMM_ARGS_H
#define GCU_SPMM_ARGS_H

#if !defined(__CUDACC_RTC__)
#include <stdint.h>
#endif

typedef struct
{
    int64_t m ;                 // rows of C (SpMM: of A; SDDMM: of the mask)
    int64_t n ;                 // SpMM: columns of C and of op(X); SDDMM: the
                                // inner dimension k of the dot products
    int G ;                     // lanes a segment (SpMM) or a run of the mask (SDDMM)
    int seg ;                   // SpMM: entries of A a segment; SDDMM: mask entries a run
    // SpMM: A sparse by row (Ap, Aj: the spec's index type), X dense
    const void *Ap, *Aj, *Ax ;
    const void *X ;
    int64_t xrs, xcs ;
    // SpMM plan (src/spmm/plan.cu): per row its rank among the non-empty
    // rows, its first segment, its first partial row; per segment its row
    const int64_t *rank, *segoff, *heavyoff, *segrow ;
    int64_t nseg ;
    // SpMM row-wise (gcu_spmm_rows): the items, the nseg segments of the
    // rows longer than rmax, then the nord rows of at most rmax entries in
    // the plan's order, two int64 a row in ord (row i + (its length << 32),
    // its first entry; NULL: rows 0 .. nord-1, empty and long ones
    // skipped); a launch the items r0 .. r0+cnt-1 in slice sl0 of the
    // columns (sw of them a slice)
    const int64_t *ord ;
    int64_t nord, sw, rmax, r0, cnt, sl0 ;
    // ASpT tiles (src/spmm/aspt.c): rows of at most lmax entries in panels
    // of P rows, their entries reordered within the row (Rj: the slot in
    // its tile for a heavy entry, the column for a light one; Rx: A's
    // values in that order); per panel its tiles [ptile [p], ptile [p+1]);
    // per tile its columns tcols [tcol [t] .. tcol [t+1]); per row r of
    // panel p and tile t, the end (from Ap [r]) of the row's entries in
    // tiles 0..t at rtb [ptile [p] * P + (r - p*P) * nt + t]. Rows longer
    // than lmax go through the segments (then only theirs).
    int P, nslices ;
    int64_t lmax, npanel ;
    const uint32_t *Rj, *tcols, *rtb ;
    const void *Rx ;
    const int64_t *ptile, *tcol ;
    void *W ;                   // partial rows (SR::Z), n a partial
    int fold_big ;              // the fold: rows of more segments than this a
                                // block each (0: none; the launch's shared
                                // memory: blockDim.x * VEC values of SR::Z)
    void *Cx ;                  // SpMM: rank (i) * n + j; SDDMM: a value a mask entry
    // SDDMM: C<M> = op(A)*op(B) with A (X, xrs, xcs) m-by-k and B (Y) k-by-ncols
    const void *Mp, *Mj, *Mx ;  // the mask by row (Mx NULL: structural)
    int64_t mnvals ;
    const void *Y ;
    int64_t yrs, ycs ;
    int8_t *Cb ;                // SDDMM: a flag a mask entry
}
gcu_spmm_args ;

#endif
