// reduce.c — GrB_Matrix_reduce and GrB_Vector_reduce to a C scalar (13
// typed entry points each) and to a GrB_Scalar with a monoid, written by
// hand rather than generated (src/api/gen_wrappers.py finds the
// GCU_REDUCE_ENTRIES names here): an object whose newest value is on the
// device (a GrB_mxm result: triangle counting's count; a GrB_mxv result) is
// reduced there and only the scalar comes back (src/reduce/reduce.c). Any
// other call — not device newest, an accum, a monoid or type the JIT does not take, an
// argument SuiteSparse must judge, any device failure — materializes A (a
// failure there is the call's error) and calls SuiteSparse, so results and
// error codes stay SuiteSparse's.
#include "gcu_real.h"
#include "../reduce/gcu_reduce.h"
#include "../residency/gcu_residency.h"
#include "gcu_util.h"

// Whether gcu_reduce_matrix_scalar has anything to do: an object device
// newest somewhere, or the log on (it says why a call stays on the host).
// Otherwise the call passes through at the cost of two relaxed loads.
#define GCU_REDUCE_WANTED() \
    (gcu_residency_any_newest () || (gcu_flags () & GCU_FLAG_VERBOSE) != 0)

// The two whole entry points of one type (the matrix's, the vector's): the
// template they are stamped from.
#define GCU_REDUCE_ONE(NAME, T, CODE, OBJ, VEC)                                     \
GrB_Info NAME (T *c, const GrB_BinaryOp accum, const GrB_Monoid monoid,        \
    const OBJ A, const GrB_Descriptor desc)                                    \
{                                                                              \
    typedef GrB_Info (*fn_t) (T *, const GrB_BinaryOp, const GrB_Monoid,       \
        const OBJ, const GrB_Descriptor) ;                                     \
    static void *_Atomic real ;                                                \
    fn_t f = (fn_t) gcu_real_cached (&real, #NAME) ;                           \
    if (f == NULL) return GrB_PANIC ;                                          \
    GrB_Info info = GCU_REDUCE_WANTED ()                                       \
        ? gcu_reduce_matrix_scalar (#NAME, c, CODE, accum, monoid, A, VEC)     \
        : GCU_NOT_HANDLED ;                                                    \
    if (info != GCU_NOT_HANDLED) return info ;                                 \
    info = gcu_residency_materialize (A, #NAME) ;                              \
    if (info != GrB_SUCCESS) return info ;                                     \
    return f (c, accum, monoid, A, desc) ;                                     \
}
#define GCU_REDUCE_ENTRIES(MNAME, VNAME, T, CODE)                              \
    GCU_REDUCE_ONE (MNAME, T, CODE, GrB_Matrix, false)                         \
    GCU_REDUCE_ONE (VNAME, T, CODE, GrB_Vector, true)

GCU_REDUCE_ENTRIES (GrB_Matrix_reduce_BOOL,   GrB_Vector_reduce_BOOL,   bool,       GCU_T_BOOL)
GCU_REDUCE_ENTRIES (GrB_Matrix_reduce_INT8,   GrB_Vector_reduce_INT8,   int8_t,     GCU_T_INT8)
GCU_REDUCE_ENTRIES (GrB_Matrix_reduce_INT16,  GrB_Vector_reduce_INT16,  int16_t,    GCU_T_INT16)
GCU_REDUCE_ENTRIES (GrB_Matrix_reduce_INT32,  GrB_Vector_reduce_INT32,  int32_t,    GCU_T_INT32)
GCU_REDUCE_ENTRIES (GrB_Matrix_reduce_INT64,  GrB_Vector_reduce_INT64,  int64_t,    GCU_T_INT64)
GCU_REDUCE_ENTRIES (GrB_Matrix_reduce_UINT8,  GrB_Vector_reduce_UINT8,  uint8_t,    GCU_T_UINT8)
GCU_REDUCE_ENTRIES (GrB_Matrix_reduce_UINT16, GrB_Vector_reduce_UINT16, uint16_t,   GCU_T_UINT16)
GCU_REDUCE_ENTRIES (GrB_Matrix_reduce_UINT32, GrB_Vector_reduce_UINT32, uint32_t,   GCU_T_UINT32)
GCU_REDUCE_ENTRIES (GrB_Matrix_reduce_UINT64, GrB_Vector_reduce_UINT64, uint64_t,   GCU_T_UINT64)
GCU_REDUCE_ENTRIES (GrB_Matrix_reduce_FP32,   GrB_Vector_reduce_FP32,   float,      GCU_T_FP32)
GCU_REDUCE_ENTRIES (GrB_Matrix_reduce_FP64,   GrB_Vector_reduce_FP64,   double,     GCU_T_FP64)
GCU_REDUCE_ENTRIES (GxB_Matrix_reduce_FC32,   GxB_Vector_reduce_FC32,   GxB_FC32_t, GCU_T_FC32)
GCU_REDUCE_ENTRIES (GxB_Matrix_reduce_FC64,   GxB_Vector_reduce_FC64,   GxB_FC64_t, GCU_T_FC64)

// ... and to a GrB_Scalar
#define GCU_REDUCE_SCALAR_ONE(NAME, OBJ, VEC)                                       \
GrB_Info NAME (GrB_Scalar s, const GrB_BinaryOp accum,                         \
    const GrB_Monoid monoid, const OBJ A, const GrB_Descriptor desc)           \
{                                                                              \
    typedef GrB_Info (*fn_t) (GrB_Scalar, const GrB_BinaryOp, const GrB_Monoid,\
        const OBJ, const GrB_Descriptor) ;                                     \
    static void *_Atomic real ;                                                \
    fn_t f = (fn_t) gcu_real_cached (&real, #NAME) ;                           \
    if (f == NULL) return GrB_PANIC ;                                          \
    GrB_Info info = gcu_reduce_matrix_gscalar (#NAME, s, accum, monoid, A, VEC) ; \
    if (info != GCU_NOT_HANDLED) return info ;                                 \
    info = gcu_residency_materialize (A, #NAME) ;                              \
    if (info != GrB_SUCCESS) return info ;                                     \
    info = f (s, accum, monoid, A, desc) ;                                     \
    /* s is written (the device path's GrB_Scalar calls say so themselves) */  \
    gcu_residency_invalidate (s) ;                                             \
    return info ;                                                              \
}
#define GCU_REDUCE_SCALAR_ENTRIES(MNAME, VNAME)                                \
    GCU_REDUCE_SCALAR_ONE (MNAME, GrB_Matrix, false)                           \
    GCU_REDUCE_SCALAR_ONE (VNAME, GrB_Vector, true)

GCU_REDUCE_SCALAR_ENTRIES (GrB_Matrix_reduce_Monoid_Scalar, GrB_Vector_reduce_Monoid_Scalar)
