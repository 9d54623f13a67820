// extract.c — GrB_Matrix_extractElement into a C scalar (the 13 typed entry
// points), written by hand rather than generated (src/residency/
// gen_wrappers.py finds the GCU_EXTRACT_ENTRY names here): for a matrix
// whose newest value is on the device (a GrB_mxm result left there), the
// entry is read from the device (src/mxm/mxm_element.c: a few bytes) and
// cast to the output type by SuiteSparse itself (through a GrB_Scalar of
// the matrix's type), so A is not written back. Any other call — A not
// device newest, x NULL, an index out of range, any device failure —
// materializes A (a failure there is the call's error) and calls
// SuiteSparse, whose answers and error codes stay the program's.
#include "gcu_real.h"
#include "../mxm/gcu_mxm.h"
#include "../residency/gcu_residency.h"
#include "gcu_util.h"

// A's entry v (of built-in type t) as the output type, through SuiteSparse's
// cast: a GrB_Scalar of type t holding v, then get (the typed extract)
#define GCU_EXTRACT_ENTRY(NAME, T, GET)                                        \
GrB_Info NAME (T *x, const GrB_Matrix A, GrB_Index i, GrB_Index j)             \
{                                                                              \
    typedef GrB_Info (*fn_t) (T *, const GrB_Matrix, GrB_Index, GrB_Index) ;   \
    static void *_Atomic real ;                                                \
    fn_t f = (fn_t) gcu_real_cached (&real, #NAME) ;                           \
    if (f == NULL) return GrB_PANIC ;                                          \
    if (x != NULL)                                                             \
    {                                                                          \
        unsigned char v [16] ;                                                 \
        const gcu_type_info *t = NULL ;                                        \
        GrB_Info info = gcu_mxm_newest_element (A, i, j, v, &t) ;              \
        if (info == GrB_NO_VALUE) return info ;                                \
        if (info == GrB_SUCCESS)                                               \
        {                                                                      \
            GrB_Scalar s = NULL ;                                              \
            info = GrB_Scalar_new (&s, *t->handle) ;                           \
            if (info == GrB_SUCCESS) info = gcu_scalar_set_builtin (s, t->code, v) ; \
            if (info == GrB_SUCCESS) info = GET (x, s) ;                       \
            GrB_Scalar_free (&s) ;                                             \
            if (info == GrB_SUCCESS) return info ;                             \
        }                                                                      \
    }                                                                          \
    GrB_Info info = gcu_residency_materialize (A, #NAME) ;                     \
    if (info != GrB_SUCCESS) return info ;                                     \
    return f (x, A, i, j) ;                                                    \
}

GCU_EXTRACT_ENTRY (GrB_Matrix_extractElement_BOOL,   bool,       GrB_Scalar_extractElement_BOOL)
GCU_EXTRACT_ENTRY (GrB_Matrix_extractElement_INT8,   int8_t,     GrB_Scalar_extractElement_INT8)
GCU_EXTRACT_ENTRY (GrB_Matrix_extractElement_INT16,  int16_t,    GrB_Scalar_extractElement_INT16)
GCU_EXTRACT_ENTRY (GrB_Matrix_extractElement_INT32,  int32_t,    GrB_Scalar_extractElement_INT32)
GCU_EXTRACT_ENTRY (GrB_Matrix_extractElement_INT64,  int64_t,    GrB_Scalar_extractElement_INT64)
GCU_EXTRACT_ENTRY (GrB_Matrix_extractElement_UINT8,  uint8_t,    GrB_Scalar_extractElement_UINT8)
GCU_EXTRACT_ENTRY (GrB_Matrix_extractElement_UINT16, uint16_t,   GrB_Scalar_extractElement_UINT16)
GCU_EXTRACT_ENTRY (GrB_Matrix_extractElement_UINT32, uint32_t,   GrB_Scalar_extractElement_UINT32)
GCU_EXTRACT_ENTRY (GrB_Matrix_extractElement_UINT64, uint64_t,   GrB_Scalar_extractElement_UINT64)
GCU_EXTRACT_ENTRY (GrB_Matrix_extractElement_FP32,   float,      GrB_Scalar_extractElement_FP32)
GCU_EXTRACT_ENTRY (GrB_Matrix_extractElement_FP64,   double,     GrB_Scalar_extractElement_FP64)
GCU_EXTRACT_ENTRY (GxB_Matrix_extractElement_FC32,   GxB_FC32_t, GxB_Scalar_extractElement_FC32)
GCU_EXTRACT_ENTRY (GxB_Matrix_extractElement_FC64,   GxB_FC64_t, GxB_Scalar_extractElement_FC64)
