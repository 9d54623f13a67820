// dense.c — a full matrix operand of a GPU call on the device (gcu_operand.h,
// DESIGN §3: full objects stay dense on the device): SuiteSparse's own
// dense array, read without a copy or a change through the export's
// iterator view, uploaded as it is (by row or by column, one value if iso)
// and kept in the residency cache as a GCU_RES_FULL entry, so an unchanged
// X (SpMM's, SDDMM's) crosses PCIe once.
#include "gcu_operand.h"
#include "../device/gcu_staging.h"
#include "gcu_util.h"
#include <string.h>

#if GRBCUDA_HAVE_CUDA

static void dense_fill (gcu_dense *d, const void *x, GrB_Index nrows, GrB_Index ncols,
    bool by_col, bool iso)
{
    d->x = x ;
    d->nrows = nrows ;
    d->ncols = ncols ;
    d->by_col = by_col ;
    d->iso = iso ;
    d->rs = iso ? 0 : by_col ? 1 : (int64_t) ncols ;
    d->cs = iso ? 0 : by_col ? (int64_t) nrows : 1 ;
}

// a published entry of this layout and type: a hit
static bool dense_hit (gcu_res_entry *e, size_t tsize, gcu_dense *d)
{
    gcu_res_data *c = gcu_residency_data (e) ;
    const bool row = c->layout == GCU_RES_LAYOUT_DENSE_ROW ;
    if ((!row && c->layout != GCU_RES_LAYOUT_DENSE_COL) || c->nbuf != 1 || c->type_size != tsize)
        return false ;
    dense_fill (d, c->buf [0], c->nrows, c->ncols, !row, c->iso) ;
    d->dev_bytes = c->bytes [0] ;
    d->how = GCU_OPERAND_HIT ;
    d->e_ = e ;
    return true ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_export_close (&src) ; gcu_residency_unpin (e) ; \
    gcu_dfree (d->own_, s) ; memset (d, 0, sizeof (*d)) ;

GrB_Info gcu_dense_get (GrB_Matrix X, size_t tsize, gcu_dense *d, gcu_stream s)
{
    memset (d, 0, sizeof (*d)) ;
    gcu_export_src src ;
    memset (&src, 0, sizeof (src)) ;
    gcu_res_entry *e = NULL ;
    GrB_Info info = gcu_residency_acquire (X, GCU_RES_FULL, &e) ;
    if (info == GrB_SUCCESS && dense_hit (e, tsize, d)) return GrB_SUCCESS ;
    if (info == GrB_SUCCESS) gcu_residency_unpin (e) ;   // another layout: copy privately
    if (info != GrB_NO_VALUE) e = NULL ;
    // a device-newest X is a CSR on the device: the sparse families read it
    // where it is (writing it back for a dense copy would download it;
    // test_newest_gpu, C*C with C newest and every entry present)
    if (gcu_residency_newest_nvals (X, NULL)) GCU_TRY (GCU_NOT_HANDLED) ;
    // miss: SuiteSparse's array as it is
    const double t0 = gcu_now () ;
    const void *hx = NULL ;
    GCU_TRY (gcu_export_open (&src, X, false)) ;
    GCU_TRY (gcu_export_dense (&src, &hx)) ;
    if (src.type_size != tsize) GCU_TRY (GrB_PANIC) ;
    const size_t bytes = src.iso ? tsize : (size_t) src.nrows * src.ncols * tsize ;
    void *buf = NULL ;
    if (e != NULL && gcu_residency_alloc (e, bytes + 16, &buf) != GrB_SUCCESS)
    {
        gcu_log ("residency: no room for a dense operand (%zu bytes); uploaded for this "
            "call only", bytes) ;
        gcu_residency_unpin (e) ;
        e = NULL ;
    }
    if (e == NULL)
    {
        GCU_TRY (gcu_dmalloc (&d->own_, bytes + 16, s)) ;
        buf = d->own_ ;
    }
    const double t1 = gcu_now () ;
    GCU_TRY (gcu_h2d_staged (buf, hx, bytes, 1, 1, s)) ;
    dense_fill (d, buf, src.nrows, src.ncols, src.by_col, src.iso) ;
    if (e != NULL)
    {
        gcu_res_data *c = gcu_residency_data (e) ;
        c->nrows = src.nrows ; c->ncols = src.ncols ; c->nvals = src.nvals ;
        c->type_size = tsize ; c->type = src.type ; c->iso = src.iso ;
        c->layout = src.by_col ? GCU_RES_LAYOUT_DENSE_COL : GCU_RES_LAYOUT_DENSE_ROW ;
        (void) gcu_residency_publish (e) ;
    }
    gcu_export_close (&src) ;
    d->how = e != NULL ? GCU_OPERAND_MISS : GCU_OPERAND_PRIVATE ;
    d->e_ = e ;
    d->up_bytes = d->dev_bytes = bytes ;
    d->export_s = t1 - t0 ;
    d->upload_s = gcu_now () - t1 ;
    return GrB_SUCCESS ;
}

void gcu_dense_release (gcu_dense *d, gcu_stream s)
{
    if (d->e_ != NULL) gcu_residency_unpin (d->e_) ;
    gcu_dfree (d->own_, s) ;
    memset (d, 0, sizeof (*d)) ;
}

#endif
