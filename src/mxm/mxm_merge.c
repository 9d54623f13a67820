// mxm_merge.c — the host side of the device write-back (merge.cu): for a
// GPU family's T on the device, C<M,replace> = T with no accum and C of T's
// type is computed where T is and becomes C's newest value (DESIGN §3), so
// a masked product a program writes as C<!M,replace> = A*B or C<M> = A*B
// into a C with entries (multi-source BFS, betweenness centrality) leaves
// the device no more than C = A*B does. Other write-backs (an accum, a
// typecast into C) go through SuiteSparse on the host (mxm_common.c).
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

// the mask's kind from the descriptor
static bool mask_kind (GrB_Descriptor desc, bool *structural, bool *complement)
{
    GrB_Desc_Value v = GxB_DEFAULT ;
    if (desc != NULL && GxB_Descriptor_get (&v, desc, GrB_MASK) != GrB_SUCCESS) return false ;
    *structural = (v == GrB_STRUCTURE || v == GrB_COMP + GrB_STRUCTURE) ;
    *complement = (v == GrB_COMP || v == GrB_COMP + GrB_STRUCTURE) ;
    return true ;
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
    bool structural, complement ;
    size_t msize ;
    GrB_Type ctype = NULL ;
    if (call->M == NULL || call->accum != NULL || !gcu_keep_results ()) return false ;
    if (GxB_Matrix_type (&ctype, (GrB_Matrix) call->C) != GrB_SUCCESS || ctype != ztype) return false ;
    if (!mask_kind (call->desc, &structural, &complement)) return false ;
    return mask_size (call, structural, &msize) ;
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
    if (!mask_kind (call->desc, &structural, &complement) || !mask_size (call, structural, &msize))
        return GCU_NOT_HANDLED ;
    const double t0 = gcu_now () ;
    // M by row; C by row unless none of its entries can stay
    GCU_TRY (gcu_operand_get ((GrB_Matrix) call->M, false, msize, false, &om, s)) ;
    bool keep_c = !call->replace ;
    GrB_Index cn = 0 ;
    if (keep_c) GCU_TRY (GrB_Matrix_nvals (&cn, (GrB_Matrix) call->C)) ;
    keep_c = keep_c && cn > 0 ;
    if (keep_c && call->C == call->M) gcu_operand_share (&om, &oc) ;
    else if (keep_c) GCU_TRY (gcu_operand_get ((GrB_Matrix) call->C, false, zsize, false, &oc, s)) ;
    if (!gcu_mxm_result_open (call, &res)) GCU_TRY (GCU_NOT_HANDLED) ;
    gcu_mxm_merge_in in = { (int64_t) m,
        keep_c ? oc.p : NULL, oc.j, oc.x, oc.idx64, oc.iso,
        Tp, Tj, Tx, t_idx64,
        om.p, om.j, om.x, om.idx64, om.iso,
        zsize, msize, structural, complement } ;
    GCU_TRY (gcu_mxm_merge_device (&in, &res.keep, nvals, s)) ;
    char dm [64], dc [64] ;
    gcu_operand_describe (&om, "M", NULL, dm, sizeof (dm)) ;
    if (keep_c) gcu_operand_describe (&oc, "C", call->C == call->M ? "M" : NULL, dc, sizeof (dc)) ;
    else snprintf (dc, sizeof (dc), "C %s", call->replace ? "replaced" : "empty") ;
    call->up_bytes += om.up_bytes + oc.up_bytes ;
    gcu_operand_release (&oc, s) ;
    gcu_operand_release (&om, s) ;
    GCU_TRY (gcu_mxm_result_publish (&res, ztype, zsize, m, n, *nvals, true)) ;
    gcu_log ("GrB_mxm write-back on the device: C<%s%sM%s> = T, %s, %s; %llu entries, %.3f ms",
        complement ? "!" : "", structural ? "struct " : "", call->replace ? ",replace" : "",
        dm, dc, (unsigned long long) *nvals, 1e3 * (gcu_now () - t0)) ;
    return GrB_SUCCESS ;
}

#endif
