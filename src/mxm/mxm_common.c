// mxm_common.c — the parts of the GrB_mxm GPU families they share
// (gcu_mxm.h): export, upload, write-back.
#include "gcu_mxm.h"
#include "../export/gcu_export.h"
#include <stdlib.h>
#include <string.h>

#if GRBCUDA_HAVE_CUDA

//------------------------------------------------------------------------------
// per-type table: the identity operator (the write-back's apply)
//------------------------------------------------------------------------------

typedef struct { GrB_Type *type ; GrB_UnaryOp *identity ; } type_row ;

#define ROW(T, I) { &T, &I }
static const type_row type_rows [] =
{
    ROW (GrB_BOOL, GrB_IDENTITY_BOOL),
    ROW (GrB_INT8, GrB_IDENTITY_INT8),
    ROW (GrB_INT16, GrB_IDENTITY_INT16),
    ROW (GrB_INT32, GrB_IDENTITY_INT32),
    ROW (GrB_INT64, GrB_IDENTITY_INT64),
    ROW (GrB_UINT8, GrB_IDENTITY_UINT8),
    ROW (GrB_UINT16, GrB_IDENTITY_UINT16),
    ROW (GrB_UINT32, GrB_IDENTITY_UINT32),
    ROW (GrB_UINT64, GrB_IDENTITY_UINT64),
    ROW (GrB_FP32, GrB_IDENTITY_FP32),
    ROW (GrB_FP64, GrB_IDENTITY_FP64),
    ROW (GxB_FC32, GxB_IDENTITY_FC32),
    ROW (GxB_FC64, GxB_IDENTITY_FC64),
} ;
#undef ROW

static const type_row *row_of (GrB_Type t)
{
    for (size_t k = 0 ; k < sizeof (type_rows) / sizeof (type_rows [0]) ; k++)
        if (*type_rows [k].type == t) return &type_rows [k] ;
    return NULL ;       // a user-defined type
}

//------------------------------------------------------------------------------
// operands: host CSR copies and their device images
//------------------------------------------------------------------------------

void gcu_host_csr_free (gcu_host_csr *h)
{
    free (h->p) ; free (h->j) ; free (h->x) ;
    memset (h, 0, sizeof (*h)) ;
}

// CSR of op(A): A itself, or (transpose) its CSC, which is the CSR of A'.
GrB_Info gcu_export_csr_copy (GrB_Matrix A, bool transpose, size_t tsize, gcu_host_csr *h)
{
    // src/export reads SuiteSparse's arrays through an iterator, in parallel,
    // without changing A; 64-bit here (the upload narrows on the device),
    // an iso value kept once
    memset (h, 0, sizeof (*h)) ;
    gcu_export_opts o = { transpose ? GCU_EXPORT_CSC : GCU_EXPORT_CSR, 64, false, 0 } ;
    gcu_csr c ;
    GrB_Info info = gcu_export_csr (A, false, &o, &c) ;
    if (info != GrB_SUCCESS) return info ;
    if (c.type_size != tsize)
    {
        gcu_csr_free (&c) ;
        return GrB_PANIC ;
    }
    h->p = c.ptr ;
    h->j = c.idx ;
    h->x = c.val ;
    h->np = c.nvec + 1 ;
    h->nj = c.nvals ;
    h->nx = c.iso ? 1 : c.nvals ;
    return GrB_SUCCESS ;
}

void gcu_dev_csr_free (gcu_dev_csr *d, gcu_stream s)
{
    gcu_dfree (d->p, s) ; gcu_dfree (d->j, s) ; gcu_dfree (d->x, s) ;
    memset (d, 0, sizeof (*d)) ;
}

// Upload, with 32-bit row pointers and indices when they fit.
GrB_Info gcu_upload_csr (const gcu_host_csr *h, int64_t ncols, size_t tsize,
    gcu_dev_csr *d, gcu_stream s)
{
    memset (d, 0, sizeof (*d)) ;
    const int64_t nnz = (int64_t) h->nj ;
    d->idx64 = !(nnz < ((int64_t) 1 << 32) && ncols < ((int64_t) 1 << 32)) ;
    GrB_Info info = GrB_SUCCESS ;
    void *wide = NULL ;
    const GrB_Index *src [2] = { h->p, h->j } ;
    const int64_t len [2] = { (int64_t) h->np, nnz } ;
    void **dst [2] = { &d->p, &d->j } ;
    for (int a = 0 ; a < 2 && info == GrB_SUCCESS ; a++)
    {
        if (d->idx64)
        {
            info = gcu_dmalloc (dst [a], len [a] * 8 + 8, s) ;
            if (info == GrB_SUCCESS) info = gcu_memcpy_h2d (*dst [a], src [a], len [a] * 8, s) ;
        }
        else
        {
            info = gcu_dmalloc (&wide, len [a] * 8 + 8, s) ;
            if (info == GrB_SUCCESS) info = gcu_dmalloc (dst [a], len [a] * 4 + 4, s) ;
            if (info == GrB_SUCCESS) info = gcu_memcpy_h2d (wide, src [a], len [a] * 8, s) ;
            if (info == GrB_SUCCESS) info = gcu_narrow_u64 (wide, *dst [a], len [a], s) ;
            gcu_dfree (wide, s) ;
            wide = NULL ;
        }
    }
    if (info == GrB_SUCCESS) info = gcu_dmalloc (&d->x, h->nx * tsize + 16, s) ;
    if (info == GrB_SUCCESS) info = gcu_memcpy_h2d (d->x, h->x, h->nx * tsize, s) ;
    if (info != GrB_SUCCESS) gcu_dev_csr_free (d, s) ;
    return info ;
}

//------------------------------------------------------------------------------
// write-back: C<M,replace> = accum (C, T)
//------------------------------------------------------------------------------

// A descriptor with only the mask and output settings of desc: T is never
// transposed.
static GrB_Info writeback_desc (GrB_Descriptor desc, GrB_Descriptor *out)
{
    *out = NULL ;
    if (desc == NULL) return GrB_SUCCESS ;
    GrB_Desc_Value mask = GxB_DEFAULT, outp = GxB_DEFAULT ;
    GrB_Info info = GxB_Descriptor_get (&mask, desc, GrB_MASK) ;
    if (info == GrB_SUCCESS) info = GxB_Descriptor_get (&outp, desc, GrB_OUTP) ;
    if (info != GrB_SUCCESS) return info ;
    if (mask == GxB_DEFAULT && outp == GxB_DEFAULT) return GrB_SUCCESS ;
    info = GrB_Descriptor_new (out) ;
    // GrB_COMP and GrB_STRUCTURE are set one at a time (GrB_COMP_STRUCTURE
    // is their sum)
    if (info == GrB_SUCCESS && (mask == GrB_COMP || mask == GrB_COMP + GrB_STRUCTURE))
        info = GrB_Descriptor_set (*out, GrB_MASK, GrB_COMP) ;
    if (info == GrB_SUCCESS && (mask == GrB_STRUCTURE || mask == GrB_COMP + GrB_STRUCTURE))
        info = GrB_Descriptor_set (*out, GrB_MASK, GrB_STRUCTURE) ;
    if (info == GrB_SUCCESS && outp == GrB_REPLACE)
        info = GrB_Descriptor_set (*out, GrB_OUTP, GrB_REPLACE) ;
    if (info != GrB_SUCCESS) GrB_Descriptor_free (out) ;
    return info ;
}

GrB_Info gcu_mxm_write_back (gcu_call *call, GrB_Type ztype, GrB_Index m,
    GrB_Index n, GrB_Index **Tp, GrB_Index **Tj, void **Tx, GrB_Index nvals,
    size_t zsize)
{
    GrB_Matrix C = (GrB_Matrix) call->C ;
    GrB_Type ctype = NULL ;
    GxB_Format_Value fmt = GxB_BY_ROW ;
    GrB_Info info = GxB_Matrix_type (&ctype, C) ;
    if (info == GrB_SUCCESS) info = GxB_Matrix_Option_get (C, GxB_FORMAT, &fmt) ;
    if (info != GrB_SUCCESS) return info ;
    const GrB_Index psize = (m + 1) * sizeof (GrB_Index) ;
    const GrB_Index jsize = (nvals + 1) * sizeof (GrB_Index) ;
    const GrB_Index xsize = (nvals + 1) * zsize ;
    if (call->M == NULL && call->accum == NULL && ctype == ztype && fmt == GxB_BY_ROW)
    {
        // C = T: hand T's arrays to C without a copy
        info = GrB_Matrix_clear (C) ;
        if (info == GrB_SUCCESS)
            info = GxB_Matrix_pack_CSR (C, Tp, Tj, Tx, psize, jsize, xsize, false, false, NULL) ;
        return info ;
    }
    GrB_Matrix T = NULL ;
    GrB_Descriptor d = NULL ;
    info = GrB_Matrix_new (&T, ztype, m, n) ;
    if (info == GrB_SUCCESS)
        info = GxB_Matrix_pack_CSR (T, Tp, Tj, Tx, psize, jsize, xsize, false, false, NULL) ;
    if (info == GrB_SUCCESS) info = writeback_desc (call->desc, &d) ;
    if (info == GrB_SUCCESS)
    {
        const type_row *row = row_of (ztype) ;
        if (row != NULL)
            info = GrB_Matrix_apply (C, (GrB_Matrix) call->M, call->accum, *row->identity, T, d) ;
        else
            info = GrB_Matrix_assign (C, (GrB_Matrix) call->M, call->accum, T,
                GrB_ALL, m, GrB_ALL, n, d) ;
    }
    GrB_Matrix_free (&T) ;
    GrB_Descriptor_free (&d) ;
    return info ;
}

#endif
