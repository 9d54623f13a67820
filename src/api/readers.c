// readers.c — readers of GraphBLAS objects that the generated wrappers
// (src/api/gen_wrappers.py) cannot define, written by hand: each writes
// a device-newest object into its SuiteSparse object first (DESIGN §3).
//  - GxB_Matrix_Option_get and GxB_Vector_Option_get are variadic (their
//    arguments cannot be forwarded generically). The sparsity status they
//    report depends on the content; the other options are settings the
//    SuiteSparse object holds whatever its content's state. Every field takes
//    one pointer argument, which is passed on as it came.
//  - GB_Iterator_attach: GraphBLAS.h's GxB_rowIterator_attach and
//    GxB_colIterator_attach are macros calling it; an iterator then reads the
//    object's arrays directly.
#include "gcu_real.h"
#include "../residency/gcu_residency.h"
#include <stdarg.h>

static GrB_Info option_get (const char *name, void *_Atomic *real, void *obj,
    GxB_Option_Field field, void *value)
{
    typedef GrB_Info (*fn_t) (void *, GxB_Option_Field, ...) ;
    fn_t f = (fn_t) gcu_real_cached (real, name) ;
    if (f == NULL) return GrB_PANIC ;
    if (field == GxB_SPARSITY_STATUS || field == GxB_IS_HYPER)
    {
        GrB_Info info = gcu_residency_materialize (obj, name) ;
        if (info != GrB_SUCCESS) return info ;
    }
    return f (obj, field, value) ;
}

// The two variadic readers, stamped from one template (a whole entry point,
// as in entry.c): the one pointer argument is taken from the list here.
#define GCU_OPTION_GET_ENTRY(NAME, OBJ)                                        \
GrB_Info NAME (OBJ obj, GxB_Option_Field field, ...)                           \
{                                                                              \
    static void *_Atomic real ;                                                \
    va_list ap ;                                                               \
    va_start (ap, field) ;                                                     \
    void *value = va_arg (ap, void *) ;                                        \
    va_end (ap) ;                                                              \
    return option_get (#NAME, &real, obj, field, value) ;                      \
}

GCU_OPTION_GET_ENTRY (GxB_Matrix_Option_get, GrB_Matrix)
GCU_OPTION_GET_ENTRY (GxB_Vector_Option_get, GrB_Vector)

GrB_Info GB_Iterator_attach (GxB_Iterator iterator, GrB_Matrix A,
    GxB_Format_Value format, GrB_Descriptor desc)
{
    static void *_Atomic real ;
    typedef GrB_Info (*fn_t) (GxB_Iterator, GrB_Matrix, GxB_Format_Value, GrB_Descriptor) ;
    fn_t f = (fn_t) gcu_real_cached (&real, "GB_Iterator_attach") ;
    if (f == NULL) return GrB_PANIC ;
    GrB_Info info = gcu_residency_materialize (A, "GB_Iterator_attach") ;
    if (info != GrB_SUCCESS) return info ;
    return f (iterator, A, format, desc) ;
}
