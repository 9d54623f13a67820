// mxm_element.c — one entry of a result left on the device (DESIGN §3:
// extractElement answers from the device). A(i,j) of a device-newest A held
// as a GCU_MXM_LAYOUT entry (CSR, rows sorted): the row's two pointers, the
// row's column indices and the one value come back, a few bytes; A is not
// written back and stays device newest.
#include "gcu_mxm.h"
#include "../device/gcu_device.h"
#include "gcu_util.h"
#include "grbcuda.h"
#include <stdlib.h>
#include <string.h>

#if GRBCUDA_HAVE_CUDA

static uint64_t index_at (const unsigned char *p, int w)
{
    if (w == 4) { uint32_t x ; memcpy (&x, p, 4) ; return x ; }
    uint64_t x ; memcpy (&x, p, 8) ; return x ;
}

// the position of j among the n sorted indices at p (width w), or -1
static int64_t find (const unsigned char *p, uint64_t n, int w, uint64_t j)
{
    uint64_t lo = 0, hi = n ;
    while (lo < hi)
    {
        const uint64_t mid = lo + (hi - lo) / 2 ;
        if (index_at (p + mid * (uint64_t) w, w) < j) lo = mid + 1 ;
        else hi = mid ;
    }
    return (lo < n && index_at (p + lo * (uint64_t) w, w) == j) ? (int64_t) lo : -1 ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL free (row) ; gcu_residency_unpin (e) ;

GrB_Info gcu_mxm_newest_element (const void *A, GrB_Index i, GrB_Index j,
    void *value, const gcu_type_info **type)
{
    // the common case first: no device-newest A costs one relaxed load
    if (!gcu_residency_newest_nvals (A, NULL)) return GCU_NOT_HANDLED ;
    if (gcu_mode () == GRBCUDA_MODE_HOST || !gcu_gpu_started () || !gcu_gpu_ready ())
        return GCU_NOT_HANDLED ;
    gcu_res_entry *e = NULL ;
    unsigned char *row = NULL ;
    if (gcu_residency_lookup (A, GCU_RES_CSR, &e) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    const gcu_res_data *d = gcu_residency_data (e) ;
    const gcu_type_info *t = gcu_type_builtin (d->type) ;
    // an index out of range is SuiteSparse's error to report
    if (d->layout != GCU_MXM_LAYOUT || d->iso || t == NULL || t->size != d->type_size
        || i >= d->nrows || j >= d->ncols || (d->idx_bits != 32 && d->idx_bits != 64))
        GCU_TRY (GCU_NOT_HANDLED) ;
    const int w = d->idx_bits / 8 ;
    const gcu_stream s = gcu_stream_default () ;
    unsigned char pp [16] ;
    GCU_TRY (gcu_memcpy_d2h (pp, (const char *) d->buf [0] + i * (uint64_t) w, 2 * (size_t) w, s)) ;
    const uint64_t p0 = index_at (pp, w), p1 = index_at (pp + w, w) ;
    GrB_Info info = GrB_NO_VALUE ;
    if (p1 > p0 && p1 <= d->nvals)
    {
        const uint64_t len = p1 - p0 ;
        row = malloc ((size_t) (len * (uint64_t) w)) ;
        if (row == NULL) GCU_TRY (GCU_NOT_HANDLED) ;
        GCU_TRY (gcu_memcpy_d2h (row, (const char *) d->buf [1] + p0 * (uint64_t) w,
            (size_t) (len * (uint64_t) w), s)) ;
        const int64_t q = find (row, len, w, j) ;
        if (q >= 0)
        {
            GCU_TRY (gcu_memcpy_d2h (value, (const char *) d->buf [2] + (p0 + (uint64_t) q) * t->size,
                t->size, s)) ;
            info = GrB_SUCCESS ;
        }
    }
    else if (p1 < p0 || p1 > d->nvals) GCU_TRY (GCU_NOT_HANDLED) ;
    *type = t ;
    GCU_FREE_ALL ;
    return info ;
}

#else

GrB_Info gcu_mxm_newest_element (const void *A, GrB_Index i, GrB_Index j,
    void *value, const gcu_type_info **type)
{
    (void) A ; (void) i ; (void) j ; (void) value ; (void) type ;
    return GCU_NOT_HANDLED ;
}

#endif
