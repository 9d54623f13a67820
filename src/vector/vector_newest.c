// vector_newest.c — the reads of a device-newest GrB_Vector answered from
// its dense image on the device (gcu_vector.h): one entry, and the values
// for a reduction. (Apart from vector.c, whose images and write-back make
// those values.)
#include "gcu_vector.h"
#include "../device/gcu_device.h"
#include "gcu_util.h"
#include "grbcuda.h"
#include <string.h>

#if GRBCUDA_HAVE_CUDA

// a device-newest v's dense image, pinned (NULL: v is not one, or the GPU
// is not usable here)
static gcu_res_entry *newest_image (const void *v)
{
    // the common case first: no device-newest v costs one relaxed load
    if (!gcu_residency_newest_nvals (v, NULL)) return NULL ;
    if (gcu_mode () == GRBCUDA_MODE_HOST || !gcu_gpu_started () || !gcu_gpu_ready ())
        return NULL ;
    gcu_res_entry *e = NULL ;
    if (gcu_residency_lookup (v, GCU_RES_VECTOR_DENSE, &e) != GrB_SUCCESS) return NULL ;
    const gcu_res_data *d = gcu_residency_data (e) ;
    if (d->layout != GCU_VEC_LAYOUT || d->iso || d->nbuf != 2)
    {
        gcu_residency_unpin (e) ;
        return NULL ;
    }
    return e ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_residency_unpin (e) ;

GrB_Info gcu_vec_newest_element (const void *v, GrB_Index i, void *value,
    const gcu_type_info **type)
{
    gcu_res_entry *e = newest_image (v) ;
    if (e == NULL) return GCU_NOT_HANDLED ;
    const gcu_res_data *d = gcu_residency_data (e) ;
    const gcu_type_info *t = gcu_type_builtin (d->type) ;
    // an index out of range is SuiteSparse's error to report
    if (t == NULL || t->size != d->type_size || i >= d->nrows) GCU_TRY (GCU_NOT_HANDLED) ;
    const gcu_stream s = gcu_stream_default () ;
    int8_t present = 1 ;
    if (d->nvals < d->nrows)
        GCU_TRY (gcu_memcpy_d2h (&present, (const int8_t *) d->buf [0] + i, 1, s)) ;
    if (present)
        GCU_TRY (gcu_memcpy_d2h (value, (const char *) d->buf [1] + i * t->size, t->size, s)) ;
    *type = t ;
    GCU_FREE_ALL ;
    return present ? GrB_SUCCESS : GrB_NO_VALUE ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (*tmp, s) ; *tmp = NULL ; gcu_residency_unpin (*e) ; *e = NULL ;

GrB_Info gcu_vec_newest_values (const void *v, gcu_res_entry **e, const void **x,
    uint64_t *nvals, GrB_Type *type, size_t *tsize, void **tmp, gcu_stream s)
{
    *tmp = NULL ;
    *e = newest_image (v) ;
    if (*e == NULL) return GCU_NOT_HANDLED ;
    const gcu_res_data *d = gcu_residency_data (*e) ;
    *nvals = d->nvals ;
    *type = d->type ;
    *tsize = d->type_size ;
    if (d->nvals == d->nrows || d->nvals == 0)
    {
        *x = d->buf [1] ;
        return GrB_SUCCESS ;
    }
    int64_t cnt = 0 ;
    GCU_TRY (gcu_dmalloc (tmp, (size_t) d->nvals * d->type_size + 16, s)) ;
    GCU_TRY (gcu_vec_compact ((const int8_t *) d->buf [0], d->buf [1], (int64_t) d->nrows,
        d->type_size, NULL, *tmp, &cnt, s)) ;
    if ((uint64_t) cnt != d->nvals) GCU_TRY (GCU_NOT_HANDLED) ;
    *x = *tmp ;
    return GrB_SUCCESS ;
}

#else

GrB_Info gcu_vec_newest_element (const void *v, GrB_Index i, void *value,
    const gcu_type_info **type)
{
    (void) v ; (void) i ; (void) value ; (void) type ;
    return GCU_NOT_HANDLED ;
}
GrB_Info gcu_vec_newest_values (const void *v, gcu_res_entry **e, const void **x,
    uint64_t *nvals, GrB_Type *type, size_t *tsize, void **tmp, gcu_stream s)
{
    (void) v ; (void) x ; (void) nvals ; (void) type ; (void) tsize ; (void) s ;
    *e = NULL ; *tmp = NULL ;
    return GCU_NOT_HANDLED ;
}

#endif
