// mxm_saxpy.c — the GrB_mxm GPU family for sparse A*B (DESIGN §4 SpGEMM):
// the operands op(A), op(B) leave SuiteSparse as CSR copies (GrB_Matrix_export
// copies: the objects are never changed), go to the device, the SpGEMM engine
// computes T = A*B over the semiring (src/spgemm), and T is written into C
// with exactly GraphBLAS's C<M,replace> = accum (C, T): directly (pack) when
// there is no mask, no accumulator and C already has T's type and layout,
// otherwise by SuiteSparse's own apply of the identity, which carries the
// mask, replace, accum and typecasting rules unchanged. Any failure before
// the write-back leaves C untouched and the dispatch runs the host.
#include "gcu_mxm.h"
#include "../device/gcu_device.h"
#include "../spgemm/gcu_spgemm.h"
#include <stdlib.h>
#include <string.h>

#if GRBCUDA_HAVE_CUDA

//------------------------------------------------------------------------------
// the family
//------------------------------------------------------------------------------

static GrB_Info saxpy_branch (const gcu_call *call)
{
    gcu_semiring_desc sr ;
    gcu_type_desc ta, tb ;
    GrB_Type t ;
    if (gcu_semiring_identify (call->semiring, &sr) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (GxB_Matrix_type (&t, (GrB_Matrix) call->A) != GrB_SUCCESS
        || gcu_type_identify (t, &ta) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (GxB_Matrix_type (&t, (GrB_Matrix) call->B) != GrB_SUCCESS
        || gcu_type_identify (t, &tb) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    // C's column indices are int32 on the device
    if (call->c_cols >= ((GrB_Index) 1 << 31) || call->c_rows >= ((GrB_Index) 1 << 31) - 1)
        return GCU_NOT_HANDLED ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL                                                    \
    gcu_host_csr_free (&ha) ; gcu_host_csr_free (&hb) ;                 \
    gcu_dev_csr_free (&da, s) ; gcu_dev_csr_free (&db, s) ;             \
    gcu_spgemm_out_free (&T, s) ; gcu_dfree (wide, s) ;                 \
    gcu_host_free (Tp) ; gcu_host_free (Tj) ; gcu_host_free (Tx) ;

static GrB_Info saxpy_run (gcu_call *call)
{
    gcu_stream s = gcu_stream_default () ;
    gcu_host_csr ha = { 0 }, hb = { 0 } ;
    gcu_dev_csr da = { 0 }, db = { 0 } ;
    gcu_spgemm_out T = { 0 } ;
    void *wide = NULL ;
    GrB_Index *Tp = NULL, *Tj = NULL ;
    void *Tx = NULL ;
    gcu_semiring_desc sr ;
    gcu_jit_operands ops ;
    GrB_Type at, bt ;
    double t0 = gcu_now () ;
    memset (&ops, 0, sizeof (ops)) ;
    GCU_TRY (gcu_semiring_identify (call->semiring, &sr)) ;
    GCU_TRY (GxB_Matrix_type (&at, (GrB_Matrix) call->A)) ;
    GCU_TRY (GxB_Matrix_type (&bt, (GrB_Matrix) call->B)) ;
    GCU_TRY (gcu_type_identify (at, &ops.a)) ;
    GCU_TRY (gcu_type_identify (bt, &ops.b)) ;
    ops.c = sr.mult.z ;
    ops.mask_type = -1 ;
    const GrB_Index m = call->c_rows, n = call->c_cols ;
    const GrB_Index k = call->tran_a ? call->a_rows : call->a_cols ;

    // operands out of SuiteSparse, onto the device
    GCU_TRY (gcu_export_csr_copy ((GrB_Matrix) call->A, call->tran_a, ops.a.size, &ha)) ;
    GCU_TRY (gcu_export_csr_copy ((GrB_Matrix) call->B, call->tran_b, ops.b.size, &hb)) ;
    ops.a_iso = ha.nx < ha.nj ;
    ops.b_iso = hb.nx < hb.nj ;
    double t1 = gcu_now () ;
    GCU_TRY (gcu_upload_csr (&ha, (int64_t) k, ops.a.size, &da, s)) ;
    GCU_TRY (gcu_upload_csr (&hb, (int64_t) n, ops.b.size, &db, s)) ;
    ops.a_idx64 = da.idx64 ;
    ops.b_idx64 = db.idx64 ;
    const size_t up_bytes = (ha.np + ha.nj) * 8 + ha.nx * ops.a.size
        + (hb.np + hb.nj) * 8 + hb.nx * ops.b.size ;
    gcu_spgemm_in in = { (int64_t) m, (int64_t) k, (int64_t) n,
        (int64_t) ha.nj, (int64_t) hb.nj, da.idx64, db.idx64,
        da.p, da.j, da.x, db.p, db.j, db.x } ;
    gcu_host_csr_free (&ha) ;
    gcu_host_csr_free (&hb) ;

    // T = A*B on the device
    double t2 = gcu_now () ;
    GCU_TRY (gcu_spgemm_run (&sr, &ops, &in, &T, s)) ;
    gcu_dev_csr_free (&da, s) ;
    gcu_dev_csr_free (&db, s) ;
    double t3 = gcu_now () ;

    // T back to host arrays SuiteSparse will own
    const GrB_Index nvals = (GrB_Index) T.nvals ;
    const size_t zsize = sr.mult.z.size ;
    Tp = gcu_host_malloc ((m + 1) * sizeof (GrB_Index)) ;
    Tj = gcu_host_malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    Tx = gcu_host_malloc ((nvals + 1) * zsize) ;
    if (Tp == NULL || Tj == NULL || Tx == NULL) { GCU_FREE_ALL ; return GrB_OUT_OF_MEMORY ; }
    GCU_TRY (gcu_memcpy_d2h (Tp, T.Cp, (m + 1) * sizeof (int64_t), s)) ;
    GCU_TRY (gcu_dmalloc (&wide, (nvals + 1) * sizeof (uint64_t), s)) ;
    GCU_TRY (gcu_widen_i32 (T.Cj, wide, (int64_t) nvals, s)) ;
    GCU_TRY (gcu_memcpy_d2h (Tj, wide, nvals * sizeof (uint64_t), s)) ;
    GCU_TRY (gcu_memcpy_d2h (Tx, T.Cx, nvals * zsize, s)) ;
    gcu_dfree (wide, s) ;
    wide = NULL ;
    const double products = T.products, kernel = T.kernel_seconds ;
    gcu_spgemm_out_free (&T, s) ;
    double t4 = gcu_now () ;

    // C<M,replace> = accum (C, T); on success T's arrays belong to SuiteSparse
    GCU_TRY (gcu_mxm_write_back (call, sr.mult.z.handle, m, n, &Tp, &Tj, &Tx, nvals, zsize)) ;
    gcu_host_free (Tp) ; gcu_host_free (Tj) ; gcu_host_free (Tx) ;
    gcu_log ("GrB_mxm gpu saxpy: %.3g products, nnz(T) %llu; export %.2f ms, "
        "upload %.2f ms (%.1f MB), kernels %.2f ms, download %.2f ms, write-back %.2f ms",
        products, (unsigned long long) nvals, 1e3 * (t1 - t0), 1e3 * (t2 - t1),
        up_bytes / 1e6, 1e3 * kernel, 1e3 * (t4 - t3), 1e3 * (gcu_now () - t4)) ;
    return GrB_SUCCESS ;
}

const gcu_family gcu_family_mxm_saxpy = { "spgemm saxpy", GCU_OP_MXM, saxpy_branch, saxpy_run } ;

#endif
