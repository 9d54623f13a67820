// gcu_mxm.h — what the GrB_mxm GPU families share: operands out of
// SuiteSparse as CSR copies (never changing the objects), onto the device
// with 32-bit indices where they fit, and the write-back of a result T into
// C with GraphBLAS's C<M,replace> = accum (C, T).
#ifndef GCU_MXM_H
#define GCU_MXM_H

#include "../dispatch/gcu_dispatch.h"
#include "../device/gcu_cuda.h"

// a host CSR copy (64-bit, as GraphBLAS exports it); nx < nj when iso
typedef struct
{
    GrB_Index *p, *j ;
    void *x ;
    GrB_Index np, nj, nx ;
}
gcu_host_csr ;

// its device image: uint32_t row pointers and indices, or uint64_t (idx64)
typedef struct { void *p, *j, *x ; bool idx64 ; } gcu_dev_csr ;

// CSR of op(A): A itself, or (transpose) its CSC, which is the CSR of A'.
GrB_Info gcu_export_csr_copy (GrB_Matrix A, bool transpose, size_t tsize, gcu_host_csr *h) ;
void gcu_host_csr_free (gcu_host_csr *h) ;
GrB_Info gcu_upload_csr (const gcu_host_csr *h, int64_t ncols, size_t tsize,
    gcu_dev_csr *d, gcu_stream s) ;
void gcu_dev_csr_free (gcu_dev_csr *d, gcu_stream s) ;

// C<M,replace> = accum (C, T) for T = (Tp, Tj, Tx) of type ztype, m-by-n, rows sorted,
// arrays from gcu_host_malloc; on success they belong to SuiteSparse and
// *Tp etc. are NULL. M, accum and the mask/replace settings come from call.
GrB_Info gcu_mxm_write_back (gcu_call *call, GrB_Type ztype, GrB_Index m,
    GrB_Index n, GrB_Index **Tp, GrB_Index **Tj, void **Tx, GrB_Index nvals,
    size_t zsize) ;

#endif
