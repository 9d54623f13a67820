// mxm_merge.c — the host side of the device write-back (merge.cu): for a
// GPU family's T on the device, C<M,replace> = accum (C, T) is computed
// where T is and becomes C's newest value (DESIGN §3), so a product a
// program writes as C<!M,replace> = A*B, C<M> = A*B into a C with entries (multi-source BFS, betweenness centrality) or
// C += A*B leaves the device no more than C = A*B does: any mask, replace,
// an accum (the JIT's typed fill, mxm_merge_jit.c), a typecast into C.
// What it cannot express (user types, positional accum) is written back by
// SuiteSparse on the host (mxm_common.c).
#include "gcu_mxm.h"
#include "../device/gcu_device.h"
#include "gcu_util.h"
#include "grbcuda.h"
#include <string.h>

#if GRBCUDA_HAVE_CUDA

static GrB_Info scratch_alloc (void *ctx, size_t bytes, void **p)
{
    gcu_mxm_scratch *t = (gcu_mxm_scratch *) ctx ;
    if (t->n >= (int) (sizeof (t->p) / sizeof (t->p [0]))) return GrB_OUT_OF_MEMORY ;
    // a few bytes more: an empty array is still a valid pointer
    GrB_Info info = gcu_dmalloc (p, bytes + 8, t->s) ;
    if (info == GrB_SUCCESS) t->p [t->n++] = *p ;
    return info ;
}

void gcu_mxm_scratch_init (gcu_mxm_scratch *t, gcu_stream s)
{
    memset (t, 0, sizeof (*t)) ;
    t->keep.alloc = scratch_alloc ;
    t->keep.ctx = t ;
    t->s = s ;
}

void gcu_mxm_scratch_free (gcu_mxm_scratch *t)
{
    for (int k = 0 ; k < t->n ; k++) gcu_dfree (t->p [k], t->s) ;
    t->n = 0 ;
}

// the size of M's values; false for a valued mask of a user-defined type
// (not castable to bool: SuiteSparse's to judge)
static bool mask_size (const gcu_call *call, bool structural, size_t *msize)
{
    GrB_Type mt = NULL ;
    gcu_type_desc t ;
    if (GxB_Matrix_type (&mt, (GrB_Matrix) call->M) != GrB_SUCCESS
        || gcu_type_identify (mt, &t) != GrB_SUCCESS) return false ;
    if (!structural && t.code == GCU_T_UDT) return false ;
    *msize = t.size ;
    return true ;
}

bool gcu_mxm_merge_applies (const gcu_call *call, GrB_Type ztype)
{
    bool structural = false, complement = false ;
    size_t msize ;
    GrB_Type ctype = NULL ;
    if (!gcu_keep_results ()) return false ;
    if (GxB_Matrix_type (&ctype, (GrB_Matrix) call->C) != GrB_SUCCESS) return false ;
    // C = T itself is the direct path (gcu_mxm_result_begin)
    if (call->M == NULL && call->accum == NULL && ctype == ztype) return false ;
    if (call->M != NULL && (!gcu_mask_kind (call->desc, &structural, &complement)
        || !mask_size (call, structural, &msize))) return false ;
    return gcu_jit_writeback_expressible (ctype, ztype, call->accum) ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL                                                    \
    (void) gcu_sync (s) ;                                               \
    gcu_operand_release (&oc, s) ; gcu_operand_release (&om, s) ;       \
    gcu_mxm_result_end (&res) ;

GrB_Info gcu_mxm_merge_into_c (gcu_call *call, GrB_Type ztype, size_t zsize,
    GrB_Index m, GrB_Index n, const void *Tp, const void *Tj, const void *Tx,
    bool t_idx64, GrB_Index *nvals, gcu_stream s)
{
    gcu_operand om, oc ;
    gcu_mxm_result res ;
    memset (&om, 0, sizeof (om)) ;
    memset (&oc, 0, sizeof (oc)) ;
    memset (&res, 0, sizeof (res)) ;
    *nvals = 0 ;
    bool structural = false, complement = false ;
    size_t msize = 0 ;
    const bool masked = call->M != NULL, accum = call->accum != NULL ;
    if (masked && (!gcu_mask_kind (call->desc, &structural, &complement)
        || !mask_size (call, structural, &msize))) return GCU_NOT_HANDLED ;
    GrB_Type ctype = NULL ;
    gcu_type_desc cd ;
    GCU_TRY (GxB_Matrix_type (&ctype, (GrB_Matrix) call->C)) ;
    GCU_TRY (gcu_type_identify (ctype, &cd)) ;
    const double t0 = gcu_now () ;
    // the typed fill (a typecast, an accum), compiled before anything moves
    void *fill = NULL ;
    if (accum || ctype != ztype) GCU_TRY (gcu_mxm_merge_kernel (ctype, ztype, NULL, call->accum, &fill)) ;
    // M by row; C by row where its entries can stay or accumulate
    if (masked) GCU_TRY (gcu_operand_get ((GrB_Matrix) call->M, false, msize, false, &om, s)) ;
    GrB_Index cn = 0 ;
    if (accum || (masked && !call->replace)) GCU_TRY (GrB_Matrix_nvals (&cn, (GrB_Matrix) call->C)) ;
    const bool keep_c = cn > 0 ;
    if (keep_c && call->C == call->M) gcu_operand_share (&om, &oc) ;
    else if (keep_c) GCU_TRY (gcu_operand_get ((GrB_Matrix) call->C, false, cd.size, false, &oc, s)) ;
    if (!gcu_mxm_result_open (call, &res)) GCU_TRY (GCU_NOT_HANDLED) ;
    const gcu_merge_args in = { .m = (int64_t) m,
        .Cp = keep_c ? oc.p : NULL, .Cj = oc.j, .Cx = oc.x,
        .Tp = Tp, .Tj = Tj, .Tx = Tx,
        .Mp = masked ? om.p : NULL, .Mj = om.j, .Mx = om.x,
        .csize = cd.size, .tsize = zsize, .msize = msize,
        .c_idx64 = oc.idx64, .c_iso = oc.iso, .t_idx64 = t_idx64,
        .m_idx64 = om.idx64, .m_iso = om.iso,
        .structural = structural, .complement = complement,
        .replace = call->replace, .accum = accum } ;
    GCU_TRY (gcu_mxm_merge_device (&in, fill, &res.keep, nvals, s)) ;
    char dm [64], dc [64] ;
    if (masked) gcu_operand_describe (&om, "M", NULL, dm, sizeof (dm)) ;
    else snprintf (dm, sizeof (dm), "no mask") ;
    if (keep_c) gcu_operand_describe (&oc, "C", call->C == call->M ? "M" : NULL, dc, sizeof (dc)) ;
    else snprintf (dc, sizeof (dc), "C not read") ;
    call->up_bytes += om.up_bytes + oc.up_bytes ;
    gcu_operand_release (&oc, s) ;
    gcu_operand_release (&om, s) ;
    GCU_TRY (gcu_mxm_result_publish (call, &res, ctype, cd.size, m, n, *nvals, true)) ;
    gcu_log ("GrB_mxm write-back on the device: C<%s%s%s%s>%s= T%s, %s, %s; %llu entries, %.3f ms",
        complement ? "!" : "", structural ? "struct " : "", masked ? "M" : "no mask",
        call->replace ? ",replace" : "", accum ? " accum " : " ",
        ctype != ztype ? " (typecast)" : "", dm, dc, (unsigned long long) *nvals,
        1e3 * (gcu_now () - t0)) ;
    return GrB_SUCCESS ;
}

#endif
