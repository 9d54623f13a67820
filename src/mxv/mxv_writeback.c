// mxv_writeback.c — the host write-back of GrB_mxv's and GrB_vxm's T (the
// families' path where the device write-back does not apply: no room, an
// accum the JIT cannot express, a valued mask of a user-defined type,
// results not kept on the device): w = T packed in place, or SuiteSparse's
// own mask and accumulator stage (gcu_mxv.h).
#include "gcu_mxv.h"
#include "../residency/gcu_operand.h"
#include "../residency/gcu_residency.h"
#include "../vector/gcu_vector.h"
#include "gcu_real.h"
#include <string.h>

#if GRBCUDA_HAVE_CUDA

GrB_Info gcu_mxv_write_back (gcu_call *call, GrB_Type ztype, GrB_Index m,
    GrB_Index **Ti, void **Tx, GrB_Index nvals, size_t zsize)
{
    GrB_Vector w = (GrB_Vector) call->C ;
    GrB_Type wtype = NULL ;
    GrB_Info info = GxB_Vector_type (&wtype, w) ;
    if (info != GrB_SUCCESS) return info ;
    const GrB_Index isize = (nvals + 1) * sizeof (GrB_Index) ;
    const GrB_Index xsize = (nvals + 1) * zsize ;
    // w = T: T's arrays become w's (gcu_vec_pack), iso as SuiteSparse's w
    // (gcu_iso_call_vector); else T iso as SuiteSparse's T, and its own
    // mask and accum stage gives w's status
    const bool direct = call->M == NULL && call->accum == NULL && wtype == ztype ;
    const bool iso = direct ? call->c_iso [nvals > 0] == 1 : (call->t_iso == 1 && call->t_iso_type == ztype) ;
    if (iso) memcpy (*Tx, direct ? call->c_iso_value : call->t_iso_value, zsize) ;
    if (direct) return gcu_vec_pack (w, Ti, Tx, nvals, zsize, iso) ;
    GrB_Vector T = NULL ;
    GrB_Descriptor d = NULL ;
    info = GrB_Vector_new (&T, ztype, m) ;
    if (info == GrB_SUCCESS)
        info = GxB_Vector_pack_CSC (T, Ti, Tx, isize, xsize, iso, nvals, false, NULL) ;
    if (info == GrB_SUCCESS) info = gcu_writeback_desc (call->desc, &d) ;
    GrB_Vector Mtmp = NULL ;
    if (info == GrB_SUCCESS) info = gcu_writeback_mask (call, (void **) &Mtmp) ;
    // SuiteSparse's own mask and accum stage, w and M written back first:
    // through grbcuda's entry points the call could run on the GPU and leave
    // w device newest, a value the invalidation after the write-back would
    // drop (an apply of T took the GPU there, differential seed
    // 1795937770041228531 on the H200, while the family tried this path)
    const GrB_Vector M = Mtmp != NULL ? Mtmp : (GrB_Vector) call->M ;
    if (info == GrB_SUCCESS) info = gcu_residency_materialize (w, "GrB_mxv's write-back") ;
    if (info == GrB_SUCCESS && M != NULL) info = gcu_residency_materialize (M, "GrB_mxv's write-back") ;
    if (info == GrB_SUCCESS)
    {
        GrB_UnaryOp id = gcu_writeback_identity (ztype) ;
        if (id != NULL)
            info = GCU_SUITE (GrB_Vector_apply) (w, M, call->accum, id, T, d) ;
        else
            info = GCU_SUITE (GrB_Vector_assign) (w, M, call->accum, T, GrB_ALL, m, d) ;
    }
    GrB_Vector_free (&Mtmp) ;
    GrB_Vector_free (&T) ;
    GrB_Descriptor_free (&d) ;
    return info ;
}

#endif
