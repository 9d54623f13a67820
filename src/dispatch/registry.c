// registry.c — the one registration point of GPU kernel families (STYLE:
// core code never names a backend). Each operation lists its families in the
// order they are tried: specialised before generic; the host is always last.
#include "gcu_dispatch.h"

#if GRBCUDA_HAVE_CUDA
extern const gcu_family gcu_family_mxm_dot ;            // src/mxm/mxm_masked.c
extern const gcu_family gcu_family_mxm_masked_saxpy ;   // src/mxm/mxm_masked.c
extern const gcu_family gcu_family_mxm_saxpy ;          // src/mxm/mxm_saxpy.c
extern const gcu_family gcu_family_mxm_spmm ;           // src/mxm/mxm_spmm.c

// the masked dot form first (it declines unless the mask and B' make it the
// natural method; with A and B full it is SDDMM), then SpMM (a sparse A
// times a full B), then the masked saxpy (any mask not complemented), then
// saxpy, which takes every sparse product
static const gcu_family *const mxm_families [] =
    { &gcu_family_mxm_dot, &gcu_family_mxm_spmm, &gcu_family_mxm_masked_saxpy,
      &gcu_family_mxm_saxpy } ;

extern const gcu_family gcu_family_mxv ;                // src/mxv/mxv.c
extern const gcu_family gcu_family_vxm ;                // src/mxv/mxv.c
static const gcu_family *const mxv_families [] = { &gcu_family_mxv } ;
static const gcu_family *const vxm_families [] = { &gcu_family_vxm } ;

extern const gcu_family gcu_family_vector_ewise ;       // src/vector/ewise.c
extern const gcu_family gcu_family_matrix_ewise ;       // src/mxm/mxm_ewise.c
static const gcu_family *const vector_ewise_families [] = { &gcu_family_vector_ewise } ;
extern const gcu_family gcu_family_vector_assign ;      // src/vector/assign.c
static const gcu_family *const vector_assign_families [] = { &gcu_family_vector_assign } ;
extern const gcu_family gcu_family_vector_apply ;       // src/vector/apply.c
static const gcu_family *const vector_apply_families [] = { &gcu_family_vector_apply } ;
static const gcu_family *const matrix_ewise_families [] = { &gcu_family_matrix_ewise } ;
extern const gcu_family gcu_family_matrix_select ;      // src/mxm/mxm_select.c
static const gcu_family *const matrix_select_families [] = { &gcu_family_matrix_select } ;
#endif

const gcu_family *const *gcu_families (gcu_op op, int *n)
{
#if GRBCUDA_HAVE_CUDA
    if (op == GCU_OP_MXM)
    {
        *n = (int) (sizeof (mxm_families) / sizeof (mxm_families [0])) ;
        return mxm_families ;
    }
    if (op == GCU_OP_MXV)
    {
        *n = 1 ;
        return mxv_families ;
    }
    if (op == GCU_OP_VXM)
    {
        *n = 1 ;
        return vxm_families ;
    }
    if (gcu_op_ewise (op))
    {
        *n = 1 ;
        return op >= GCU_OP_VECTOR_EWISEMULT_SEMIRING ? vector_ewise_families : matrix_ewise_families ;
    }
    if (gcu_op_assign (op))
    {
        *n = 1 ;
        return vector_assign_families ;
    }
    if (gcu_op_apply (op))
    {
        *n = 1 ;
        return vector_apply_families ;
    }
    if (gcu_op_select_matrix (op))
    {
        *n = 1 ;
        return matrix_select_families ;
    }
#endif
    (void) op ;
    *n = 0 ;
    return NULL ;
}
