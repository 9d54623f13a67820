// gcu_transpose.h — a matrix's other orientation built on the device from
// the one already there (transpose.cu; issue 20: the transpose a vxm needs
// cached with the matrix). gcu_operand_get uses it on a miss when the
// residency cache holds the matrix's CSR and the CSC is wanted, or the
// other way round: the CSR of the transpose is made by a stable radix sort
// of the entries by their index (CUB), instead of SuiteSparse transposing
// on the host and the result crossing PCIe. Plain C interface; internal
// header (C and C++), never installed.
#ifndef GCU_TRANSPOSE_H
#define GCU_TRANSPOSE_H

#include <GraphBLAS.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../device/gcu_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

// Launch shape of the transpose's small kernels (threads a block, blocks an
// SM at most), for every grid-stride loop of transpose.cu.
#define GCU_TRANSPOSE_THREADS 256
#define GCU_TRANSPOSE_BLOCKS_PER_SM 8

// The most entries one transpose takes: CUB's sort and scan are given int
// counts here, and the entries' positions are uint32_t.
#define GCU_TRANSPOSE_MAX_NVALS ((uint64_t) INT32_MAX)

// A CSR on the device (the CSR of a matrix, or of its transpose: its CSC):
// p [nvec+1] and j [nvals] are uint32_t (idx_bytes 4) or uint64_t (8);
// x holds nvals values of tsize bytes, or one when iso. The indices of each
// vector are sorted and below ninner.
typedef struct
{
    const void *p, *j, *x ;
    int idx_bytes ;
    uint64_t nvec, ninner, nvals ;
    size_t tsize ;
    bool iso ;
}
gcu_dev_csr ;

// T = the CSR of in's transpose (ninner vectors of indices below nvec) into
// the caller's buffers: Tp [in->ninner + 1] and Tj [in->nvals] of
// out_idx_bytes (4 or 8) each, Tx [in->nvals] values (one when iso). Within
// each vector of T the indices come out sorted, as SuiteSparse's CSR/CSC
// are. Temporary storage comes from gcu_dmalloc on s and goes back before
// the return; the work is queued on s (not waited for). GCU_NOT_HANDLED
// when in has more than GCU_TRANSPOSE_MAX_NVALS entries or a width
// is not 4 or 8; GrB_OUT_OF_MEMORY or GrB_PANIC when the device fails: the
// caller then makes T on the host.
GrB_Info gcu_transpose_csr (const gcu_dev_csr *in, int out_idx_bytes,
    void *Tp, void *Tj, void *Tx, gcu_stream s) ;

#ifdef __cplusplus
}
#endif

#endif
