// gcu_aspt.h — the ASpT analysis and tiling of a sparse A by row (Hong et
// al. 2019, DESIGN §4), on the host: panels of P rows, heavy columns (at
// least H entries in the panel's rows of at most lmax entries) numbered
// into tiles of at most TW columns, each row's entries reordered within
// the row (heavy ones tile by tile, in their order, then the light ones).
// src/spmm/spmm.c runs it once a matrix and caches the result with A's
// device copy; tests/cpu/test_spmm_emu.cpp runs it as the kernels' input.
// Plain C (C++ compatible), no GraphBLAS, no CUDA.
#ifndef GCU_ASPT_H
#define GCU_ASPT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct
{
    int64_t m, nnz, P, TW, H, lmax ;
    int64_t npanel, ntile, ncols_heavy ;
    int64_t nnz_heavy ;         // entries in tiles
    int64_t nnz_panels ;        // entries in rows of at most lmax entries
    // the layout of gcu_spmm_args (cuda/spmm/gcu_spmm_args.h)
    int64_t *ptile ;            // npanel+1
    int64_t *tcol ;             // ntile+1
    uint32_t *tcols ;           // ncols_heavy
    uint32_t *rtb ;             // ntile * P
    uint32_t *Rj ;              // nnz: slot (heavy) or column (light)
    uint32_t *Rq ;              // nnz: the entry's position in A
}
gcu_aspt ;

// Ap (m+1), Aj (nnz) of 64-bit (idx64) or 32-bit indices; ncols < 2^32,
// nnz < 2^32. stats_only: only the counts (npanel .. nnz_panels), no
// arrays. 0, or -1 when out of memory (nothing held).
int gcu_aspt_build (const void *Ap, const void *Aj, bool idx64, int64_t m, int64_t ncols,
    int64_t P, int64_t TW, int64_t H, int64_t lmax, bool stats_only, gcu_aspt *t) ;
void gcu_aspt_free (gcu_aspt *t) ;

#endif
