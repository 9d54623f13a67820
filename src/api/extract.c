// extract.c — GrB_Matrix_extractElement and GrB_Vector_extractElement into a
// C scalar (13 typed entry points each), written by hand rather than
// generated (src/api/gen_wrappers.py finds the GCU_EXTRACT_ENTRIES
// names here): for a matrix or vector whose newest value is on the device
// (a GrB_mxm, GrB_mxv or GrB_vxm result left there; while no object is
// device newest, one relaxed load says so), the entry is read from
// the device (src/mxm/mxm_element.c, src/vector/vector.c: a few bytes) and
// cast to the output type by SuiteSparse itself (through a GrB_Scalar of
// the matrix's type), so A is not written back. Any other call — A not
// device newest, x NULL, an index out of range, any device failure —
// materializes A (a failure there is the call's error) and calls
// SuiteSparse, whose answers and error codes stay the program's.
#include "gcu_real.h"
#include "../mxm/gcu_mxm.h"
#include "../vector/gcu_vector.h"
#include "../residency/gcu_residency.h"
#include "gcu_util.h"

// The device's answer: GrB_NO_VALUE, or the entry v (of built-in type t)
// as the output type, through SuiteSparse's cast (a GrB_Scalar of type t
// holding v, then get, the typed extract); anything else: ask SuiteSparse.
#define GCU_EXTRACT_FROM_DEVICE(GET, FIND)                                     \
    if (x != NULL && gcu_residency_any_newest ())                              \
    {                                                                          \
        unsigned char v [16] ;                                                 \
        const gcu_type_info *t = NULL ;                                        \
        GrB_Info info = FIND ;                                                 \
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
    }

// The two whole entry points of one type: the template they are stamped from.
#define GCU_EXTRACT_ENTRIES(MNAME, VNAME, T, GET)                              \
GrB_Info MNAME (T *x, const GrB_Matrix A, GrB_Index i, GrB_Index j)            \
{                                                                              \
    typedef GrB_Info (*fn_t) (T *, const GrB_Matrix, GrB_Index, GrB_Index) ;   \
    static void *_Atomic real ;                                                 \
    fn_t f = (fn_t) gcu_real_cached (&real, #MNAME) ;                          \
    if (f == NULL) return GrB_PANIC ;                                          \
    GCU_EXTRACT_FROM_DEVICE (GET, gcu_mxm_newest_element (A, i, j, v, &t))     \
    GrB_Info info = gcu_residency_materialize (A, #MNAME) ;                    \
    if (info != GrB_SUCCESS) return info ;                                     \
    return f (x, A, i, j) ;                                                    \
}                                                                              \
GrB_Info VNAME (T *x, const GrB_Vector u, GrB_Index i)                         \
{                                                                              \
    typedef GrB_Info (*fn_t) (T *, const GrB_Vector, GrB_Index) ;              \
    static void *_Atomic real ;                                                 \
    fn_t f = (fn_t) gcu_real_cached (&real, #VNAME) ;                          \
    if (f == NULL) return GrB_PANIC ;                                          \
    GCU_EXTRACT_FROM_DEVICE (GET, gcu_vec_newest_element (u, i, v, &t))        \
    GrB_Info info = gcu_residency_materialize (u, #VNAME) ;                    \
    if (info != GrB_SUCCESS) return info ;                                     \
    return f (x, u, i) ;                                                       \
}

GCU_EXTRACT_ENTRIES (GrB_Matrix_extractElement_BOOL,   GrB_Vector_extractElement_BOOL,   bool,       GrB_Scalar_extractElement_BOOL)
GCU_EXTRACT_ENTRIES (GrB_Matrix_extractElement_INT8,   GrB_Vector_extractElement_INT8,   int8_t,     GrB_Scalar_extractElement_INT8)
GCU_EXTRACT_ENTRIES (GrB_Matrix_extractElement_INT16,  GrB_Vector_extractElement_INT16,  int16_t,    GrB_Scalar_extractElement_INT16)
GCU_EXTRACT_ENTRIES (GrB_Matrix_extractElement_INT32,  GrB_Vector_extractElement_INT32,  int32_t,    GrB_Scalar_extractElement_INT32)
GCU_EXTRACT_ENTRIES (GrB_Matrix_extractElement_INT64,  GrB_Vector_extractElement_INT64,  int64_t,    GrB_Scalar_extractElement_INT64)
GCU_EXTRACT_ENTRIES (GrB_Matrix_extractElement_UINT8,  GrB_Vector_extractElement_UINT8,  uint8_t,    GrB_Scalar_extractElement_UINT8)
GCU_EXTRACT_ENTRIES (GrB_Matrix_extractElement_UINT16, GrB_Vector_extractElement_UINT16, uint16_t,   GrB_Scalar_extractElement_UINT16)
GCU_EXTRACT_ENTRIES (GrB_Matrix_extractElement_UINT32, GrB_Vector_extractElement_UINT32, uint32_t,   GrB_Scalar_extractElement_UINT32)
GCU_EXTRACT_ENTRIES (GrB_Matrix_extractElement_UINT64, GrB_Vector_extractElement_UINT64, uint64_t,   GrB_Scalar_extractElement_UINT64)
GCU_EXTRACT_ENTRIES (GrB_Matrix_extractElement_FP32,   GrB_Vector_extractElement_FP32,   float,      GrB_Scalar_extractElement_FP32)
GCU_EXTRACT_ENTRIES (GrB_Matrix_extractElement_FP64,   GrB_Vector_extractElement_FP64,   double,     GrB_Scalar_extractElement_FP64)
GCU_EXTRACT_ENTRIES (GxB_Matrix_extractElement_FC32,   GxB_Vector_extractElement_FC32,   GxB_FC32_t, GxB_Scalar_extractElement_FC32)
GCU_EXTRACT_ENTRIES (GxB_Matrix_extractElement_FC64,   GxB_Vector_extractElement_FC64,   GxB_FC64_t, GxB_Scalar_extractElement_FC64)
