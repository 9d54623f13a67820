// mxm_dot.c — the GrB_mxm GPU family for the masked dot-product form
// C<M> = A*B' (DESIGN §4, masked products; triangle counting's kernel): every
// entry of the mask is one sparse dot product of a row of op(A) and a column
// of op(B), computed by the JIT-specialised kernel of cuda/masked/. Taken for
// a mask that is not complemented when B is given transposed (the dot form a
// program writes when it wants it: L*U' in triangle counting), or when the
// mask's dot products cost less than the whole product (SDDMM); other
// products go to the saxpy family. T has M's pattern less the entries with
// no term (or a false valued mask); it is written back like any T.
#include "gcu_mxm.h"
#include "../device/gcu_device.h"
#include "../jit/gcu_jit.h"
#include <stdlib.h>
#include <string.h>

#if GRBCUDA_HAVE_CUDA

static bool mask_complemented (GrB_Descriptor desc, bool *structural)
{
    GrB_Desc_Value v = GxB_DEFAULT ;
    *structural = false ;
    if (desc == NULL) return false ;
    if (GxB_Descriptor_get (&v, desc, GrB_MASK) != GrB_SUCCESS) return true ;
    *structural = (v == GrB_STRUCTURE || v == GrB_COMP + GrB_STRUCTURE) ;
    return v == GrB_COMP || v == GrB_COMP + GrB_STRUCTURE ;
}

static GrB_Info dot_branch (const gcu_call *call)
{
    bool structural ;
    if (call->M == NULL) return GCU_NOT_HANDLED ;
    if (mask_complemented (call->desc, &structural)) return GCU_NOT_HANDLED ;
    if (!call->tran_b)
    {
        // A*B with B as it is: dot only when the mask's dot products cost
        // less than the whole product saxpy would compute (SDDMM: a sparse
        // mask over dense X*Y is the extreme case)
        GrB_Index mnvals = 0 ;
        if (GrB_Matrix_nvals (&mnvals, (GrB_Matrix) call->M) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
        double arow = (double) call->a_nvals / (double) (call->c_rows > 0 ? call->c_rows : 1) ;
        double bcol = (double) call->b_nvals / (double) (call->c_cols > 0 ? call->c_cols : 1) ;
        if ((double) mnvals * (arow + bcol) >= call->work) return GCU_NOT_HANDLED ;
    }
    gcu_semiring_desc sr ;
    gcu_type_desc t ;
    GrB_Type ty ;
    if (gcu_semiring_identify (call->semiring, &sr) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    const void *ops [3] = { call->A, call->B, call->M } ;
    for (int k = 0 ; k < 3 ; k++)
    {
        if (GxB_Matrix_type (&ty, (GrB_Matrix) ops [k]) != GrB_SUCCESS
            || gcu_type_identify (ty, &t) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
        // a valued mask of a user-defined type is not castable to bool
        if (k == 2 && !structural && t.code == GCU_T_UDT) return GCU_NOT_HANDLED ;
    }
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL                                                    \
    gcu_host_csr_free (&ha) ; gcu_host_csr_free (&hb) ;                 \
    gcu_host_csr_free (&hm) ;                                           \
    gcu_dev_csr_free (&da, s) ; gcu_dev_csr_free (&db, s) ;             \
    gcu_dev_csr_free (&dm, s) ;                                         \
    gcu_dfree (dCx, s) ; gcu_dfree (dCb, s) ;                           \
    free (Cx) ; free (Cb) ;                                             \
    gcu_host_free (Tp) ; gcu_host_free (Tj) ; gcu_host_free (Tx) ;

static GrB_Info dot_run (gcu_call *call)
{
    gcu_stream s = gcu_stream_default () ;
    gcu_host_csr ha = { 0 }, hb = { 0 }, hm = { 0 } ;
    gcu_dev_csr da = { 0 }, db = { 0 }, dm = { 0 } ;
    void *dCx = NULL, *Cx = NULL, *Tx = NULL ;
    int8_t *dCb = NULL, *Cb = NULL ;
    GrB_Index *Tp = NULL, *Tj = NULL ;
    gcu_dot_masked_spec spec ;
    GrB_Type at, bt, mt ;
    bool structural ;
    memset (&spec, 0, sizeof (spec)) ;
    (void) mask_complemented (call->desc, &structural) ;
    double t0 = gcu_now () ;
    GCU_TRY (gcu_semiring_identify (call->semiring, &spec.sr)) ;
    GCU_TRY (GxB_Matrix_type (&at, (GrB_Matrix) call->A)) ;
    GCU_TRY (GxB_Matrix_type (&bt, (GrB_Matrix) call->B)) ;
    GCU_TRY (GxB_Matrix_type (&mt, (GrB_Matrix) call->M)) ;
    GCU_TRY (gcu_type_identify (at, &spec.ops.a)) ;
    GCU_TRY (gcu_type_identify (bt, &spec.ops.b)) ;
    gcu_type_desc mdesc ;
    GCU_TRY (gcu_type_identify (mt, &mdesc)) ;
    spec.ops.c = spec.sr.mult.z ;
    spec.ops.mask_type = structural ? -1 : (int) mdesc.code ;
    const GrB_Index m = call->c_rows, n = call->c_cols ;
    const GrB_Index k = call->tran_a ? call->a_rows : call->a_cols ;
    // rows of op(A); rows of op(B)' (the columns of op(B)); the mask's rows
    GCU_TRY (gcu_export_csr_copy ((GrB_Matrix) call->A, call->tran_a, spec.ops.a.size, &ha)) ;
    GCU_TRY (gcu_export_csr_copy ((GrB_Matrix) call->B, !call->tran_b, spec.ops.b.size, &hb)) ;
    GCU_TRY (gcu_export_csr_copy ((GrB_Matrix) call->M, false, mdesc.size, &hm)) ;
    spec.ops.a_iso = ha.nx < ha.nj ;
    spec.ops.b_iso = hb.nx < hb.nj ;
    spec.ops.m_iso = hm.nx < hm.nj ;
    double t1 = gcu_now () ;
    GCU_TRY (gcu_upload_csr (&ha, (int64_t) k, spec.ops.a.size, &da, s)) ;
    GCU_TRY (gcu_upload_csr (&hb, (int64_t) k, spec.ops.b.size, &db, s)) ;
    GCU_TRY (gcu_upload_csr (&hm, (int64_t) n, mdesc.size, &dm, s)) ;
    spec.ops.a_idx64 = da.idx64 ;
    spec.ops.b_idx64 = db.idx64 ;
    spec.ops.m_idx64 = dm.idx64 ;
    gcu_host_csr_free (&ha) ;
    gcu_host_csr_free (&hb) ;
    const int64_t mnvals = (int64_t) hm.nj ;
    const size_t zsize = spec.sr.mult.z.size ;
    GCU_TRY (gcu_dmalloc (&dCx, (mnvals + 1) * zsize, s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &dCb, mnvals + 1, s)) ;
    double t2 = gcu_now () ;
    const gcu_device_props *dev = gcu_device () ;
    int64_t grid = (mnvals + GCU_DOT_MASKED_THREADS - 1) / GCU_DOT_MASKED_THREADS ;
    int64_t cap = (int64_t) dev->sm_count * 32 ;
    if (grid > cap) grid = cap ;
    if (grid < 1) grid = 1 ;
    gcu_dot_masked_args args = { (int64_t) m, mnvals, dm.p, dm.j,
        structural ? NULL : dm.x, da.p, da.j, da.x, db.p, db.j, db.x, dCx, dCb, NULL } ;
    if (mnvals > 0)
    {
        GCU_TRY (gcu_dot_masked_run (&spec, &args, (unsigned) grid, GCU_DOT_MASKED_THREADS, s)) ;
        GCU_TRY (gcu_launch_check ("masked dot")) ;
    }
    Cx = malloc ((mnvals + 1) * zsize) ;
    Cb = malloc (mnvals + 1) ;
    if (Cx == NULL || Cb == NULL) { GCU_FREE_ALL ; return GrB_OUT_OF_MEMORY ; }
    GCU_TRY (gcu_memcpy_d2h (Cx, dCx, mnvals * zsize, s)) ;
    GCU_TRY (gcu_memcpy_d2h (Cb, dCb, mnvals, s)) ;
    double t3 = gcu_now () ;
    gcu_dev_csr_free (&da, s) ; gcu_dev_csr_free (&db, s) ; gcu_dev_csr_free (&dm, s) ;
    gcu_dfree (dCx, s) ; gcu_dfree (dCb, s) ;
    dCx = NULL ; dCb = NULL ;
    // T: the mask's pattern, less the entries flagged empty
    GrB_Index nvals = 0 ;
    for (int64_t e = 0 ; e < mnvals ; e++) nvals += (Cb [e] != 0) ;
    Tp = gcu_host_malloc ((m + 1) * sizeof (GrB_Index)) ;
    Tj = gcu_host_malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    Tx = gcu_host_malloc ((nvals + 1) * zsize) ;
    if (Tp == NULL || Tj == NULL || Tx == NULL) { GCU_FREE_ALL ; return GrB_OUT_OF_MEMORY ; }
    GrB_Index p = 0 ;
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        Tp [i] = p ;
        for (GrB_Index e = hm.p [i] ; e < hm.p [i + 1] ; e++)
        {
            if (!Cb [e]) continue ;
            Tj [p] = hm.j [e] ;
            memcpy ((char *) Tx + p * zsize, (char *) Cx + e * zsize, zsize) ;
            p++ ;
        }
    }
    Tp [m] = p ;
    gcu_host_csr_free (&hm) ;
    free (Cx) ; free (Cb) ;
    Cx = NULL ; Cb = NULL ;
    GCU_TRY (gcu_mxm_write_back (call, spec.sr.mult.z.handle, m, n, &Tp, &Tj, &Tx, nvals, zsize)) ;
    gcu_host_free (Tp) ; gcu_host_free (Tj) ; gcu_host_free (Tx) ;
    gcu_log ("GrB_mxm gpu masked dot: nnz(M) %lld, nnz(T) %llu; export %.2f ms, "
        "upload %.2f ms, kernel + download %.2f ms, write-back %.2f ms", (long long) mnvals,
        (unsigned long long) nvals, 1e3 * (t1 - t0), 1e3 * (t2 - t1), 1e3 * (t3 - t2),
        1e3 * (gcu_now () - t3)) ;
    return GrB_SUCCESS ;
}

const gcu_family gcu_family_mxm_dot = { "masked dot", GCU_OP_MXM, dot_branch, dot_run } ;

#endif
