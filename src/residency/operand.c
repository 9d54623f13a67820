// operand.c — a matrix operand of a GPU call on the device (gcu_operand.h,
// DESIGN §3: the residency module owns operands): the cache's copy when the
// object is unchanged since it was made, else exported from SuiteSparse
// (never changing the object) and uploaded through the staging buffers,
// and published for later calls.
#include "gcu_operand.h"
#include "gcu_transpose.h"
#include "../device/gcu_staging.h"
#include "gcu_util.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//------------------------------------------------------------------------------
// the pointers kept on the host with a resident copy
//------------------------------------------------------------------------------

// A resident CSR or CSC keeps its pointers on the host too (gcu_res_data's
// host slot): auto mode's cost model reads the lengths of a small
// frontier's rows there (gcu_operand_push_work). nvec + 1 of idx_bits each.
typedef struct { GrB_Index nvec ; int idx_bits ; void *ptr ; } host_pointers ;

static void host_pointers_free (void *h)
{
    if (h == NULL) return ;
    free (((host_pointers *) h)->ptr) ;
    free (h) ;
}

#if GRBCUDA_HAVE_CUDA
// c's pointers into d's host slot: taken from c (steal: c frees them no
// more) or copied; without memory for them, the entry keeps none
static void keep_pointers (gcu_res_data *d, gcu_csr *c, bool steal)
{
    host_pointers *h = malloc (sizeof (host_pointers)) ;
    void *ptr = steal ? c->ptr : malloc (c->ptr_bytes > 0 ? c->ptr_bytes : 1) ;
    if (h == NULL || ptr == NULL || c->ptr == NULL)
    {
        free (h) ;
        if (!steal) free (ptr) ;
        return ;
    }
    if (steal) c->ptr = NULL ;
    else memcpy (ptr, c->ptr, c->ptr_bytes) ;
    *h = (host_pointers) { c->nvec, c->idx_bits, ptr } ;
    if (d->host != NULL && d->host_free != NULL) d->host_free (d->host) ;
    d->host = h ;
    d->host_free = host_pointers_free ;
}
#endif

bool gcu_operand_push_work (const void *A, bool by_col, GrB_Vector u, GrB_Index unvals,
    GrB_Index most, double *work)
{
    if (unvals == 0 || unvals > most || most > GCU_PUSH_WORK_MOST) return false ;
    gcu_res_entry *e = NULL ;
    // (a probe of the cost model, not a use: not a hit or a miss)
    if (gcu_residency_peek (A, by_col ? GCU_RES_CSC : GCU_RES_CSR, &e) != GrB_SUCCESS)
        return false ;
    const gcu_res_data *d = gcu_residency_data (e) ;
    const host_pointers *h = (d->layout == GCU_MXM_LAYOUT && d->host_free == host_pointers_free)
        ? (const host_pointers *) d->host : NULL ;
    GrB_Index I [GCU_PUSH_WORK_MOST], n = unvals ;
    // (u is not device newest: the wrapper passes the call through)
    bool ok = h != NULL && GrB_Vector_extractTuples_INT64 (I, NULL, &n, u) == GrB_SUCCESS
        && n <= unvals ;
    double sum = 0 ;
    for (GrB_Index k = 0 ; ok && k < n ; k++)
    {
        const GrB_Index i = I [k] ;
        if (i >= h->nvec) { ok = false ; break ; }
        sum += (h->idx_bits == 32)
            ? (double) (((const int32_t *) h->ptr) [i + 1] - ((const int32_t *) h->ptr) [i])
            : (double) (((const int64_t *) h->ptr) [i + 1] - ((const int64_t *) h->ptr) [i]) ;
    }
    gcu_residency_unpin (e) ;
    if (ok) *work = sum ;
    return ok ;
}

// A's entries from which a miss of the orientation A is not held in goes up
// as held and is transposed on the device (via_held); below, the host's
// transposing export costs under a millisecond. Tests set it
// (gcu_operand_via_held_min).
static _Atomic GrB_Index via_held_min = (GrB_Index) 1 << 16 ;
GrB_Index gcu_operand_via_held_min (GrB_Index nvals) { return atomic_exchange (&via_held_min, nvals) ; }
bool gcu_operand_via_held_size (GrB_Index nvals)
{
    return nvals > 0 && nvals <= GCU_TRANSPOSE_MAX_NVALS
        && nvals >= atomic_load_explicit (&via_held_min, memory_order_relaxed) ;
}

#if GRBCUDA_HAVE_CUDA

//------------------------------------------------------------------------------
// operands on the device, through the residency cache
//------------------------------------------------------------------------------

// Index width on the device: 4 bytes when every pointer and index fits
// uint32_t (nvals entries, indices below inner). The export already gives
// int32_t when the dimensions and the count fit int32_t; between 2^31 and
// 2^32 its int64_t indices are narrowed by the staged upload, on the host,
// so only 4 bytes per index cross PCIe. A copy built on the device from the
// other orientation follows the same rule, so both ways give the same copy.
static _Atomic bool force_idx64 ;         // gcu_operand_force_idx64 (tests)
static _Atomic uint64_t nbuilt ;            // gcu_operand_built (tests)

void gcu_operand_force_idx64 (bool on) { atomic_store (&force_idx64, on) ; }
uint64_t gcu_operand_built (void) { return atomic_load (&nbuilt) ; }

static int dev_idx_width (GrB_Index nvals, GrB_Index inner)
{
    if (atomic_load_explicit (&force_idx64, memory_order_relaxed)) return 8 ;
    const GrB_Index lim = (GrB_Index) 1 << 32 ;
    return (nvals < lim && inner < lim) ? 4 : 8 ;
}

static int dev_idx_bytes (const gcu_csr *c)
{
    if (c->idx_bits == 32 && !atomic_load_explicit (&force_idx64, memory_order_relaxed)) return 4 ;
    return dev_idx_width (c->nvals, (c->layout == GCU_EXPORT_CSR) ? c->ncols : c->nrows) ;
}

static GrB_Info upload (const gcu_csr *c, int dw, void *const buf [3], gcu_stream s)
{
    const int hw = c->idx_bits / 8 ;
    GrB_Info info = gcu_h2d_staged (buf [0], c->ptr, c->nvec + 1, hw, dw, s) ;
    if (info == GrB_SUCCESS) info = gcu_h2d_staged (buf [1], c->idx, c->nvals, hw, dw, s) ;
    if (info == GrB_SUCCESS) info = gcu_h2d_staged (buf [2], c->val, c->val_bytes, 1, 1, s) ;
    return info ;
}

static void fill (gcu_operand *o, void *const buf [3], bool idx64, bool iso,
    GrB_Index nvec, GrB_Index nvals)
{
    o->p = buf [0] ;
    o->j = buf [1] ;
    o->x = buf [2] ;
    o->idx64 = idx64 ;
    o->iso = iso ;
    o->nvec = nvec ;
    o->nvals = nvals ;
}

// The bytes of a copy's buffers: a few more than needed (an empty array is
// still a valid pointer).
static void copy_bytes (GrB_Index nvec, GrB_Index nvals, size_t val_bytes, int dw,
    size_t bytes [3])
{
    bytes [0] = (size_t) (nvec + 1) * dw + 8 ;
    bytes [1] = (size_t) nvals * dw + 8 ;
    bytes [2] = val_bytes + 16 ;
}

// A miss whose other orientation is on the device (issue 20: a vxm and an
// mxv over one matrix want both): the wanted CSR (by_col false) or CSC
// built there from it (gcu_transpose.h) into e, the entry being built, and
// published as the host export's copy would be (same layout and index
// width, the same object's copy: invalidated and evicted alike), instead of
// SuiteSparse transposing on the host. GCU_NOT_HANDLED, with e untouched,
// when there is nothing to build from: no such copy, one of another layout
// or type size. A device-newest A is built from its newest value, which then
// has a copy in the other orientation beside it (until then its export
// wrote it back and SuiteSparse transposed it: SSSP's AL, made on the
// device by GrB_Matrix_select and read by column by the vxm's pull, 11 ms
// to come back and 87 to export, a trial 1.2x SuiteSparse's; H100,
// 2026-11-27). Any other failure (no room, the device) leaves buffers in
// e: the caller abandons e and exports.
static GrB_Info from_other (GrB_Matrix A, bool by_col, size_t tsize, gcu_res_entry *e,
    gcu_operand *o, gcu_stream s)
{
    gcu_res_entry *f = NULL ;
    if (gcu_residency_peek (A, by_col ? GCU_RES_CSR : GCU_RES_CSC, &f) != GrB_SUCCESS)
        return GCU_NOT_HANDLED ;
    const gcu_res_data *src = gcu_residency_data (f) ;
    if (src->layout != GCU_MXM_LAYOUT || src->nbuf != 3 || src->type_size != tsize
        || (src->idx_bits != 32 && src->idx_bits != 64) || src->nvals > GCU_TRANSPOSE_MAX_NVALS)
    {
        gcu_residency_unpin (f) ;
        return GCU_NOT_HANDLED ;
    }
    const double t0 = gcu_now () ;
    // the source's vectors are the wanted form's indices, and its indices
    // the wanted form's vectors
    const gcu_dev_csr in = { src->buf [0], src->buf [1], src->buf [2], src->idx_bits / 8,
        by_col ? src->nrows : src->ncols, by_col ? src->ncols : src->nrows, src->nvals,
        tsize, src->iso } ;
    const GrB_Index nvec = in.ninner ;
    const int dw = dev_idx_width (in.nvals, in.nvec) ;
    const size_t val_bytes = in.iso ? tsize : (size_t) in.nvals * tsize ;
    size_t bytes [3] ;
    copy_bytes (nvec, in.nvals, val_bytes, dw, bytes) ;
    void *buf [3] = { NULL, NULL, NULL } ;
    // (a hypersparse A of 2^60 columns has no CSC here, as on the host)
    GrB_Info info = (nvec < ((GrB_Index) 1 << 56)) ? GrB_SUCCESS : GrB_OUT_OF_MEMORY ;
    for (int k = 0 ; k < 3 && info == GrB_SUCCESS ; k++)
        info = gcu_residency_alloc (e, bytes [k], &buf [k]) ;
    if (info == GrB_SUCCESS) info = gcu_transpose_csr (&in, dw, buf [0], buf [1], buf [2], s) ;
    // waited for: the source may go once no kernel reads it, a failure
    // shows here (and the host path takes over), and the time is the build's
    const GrB_Info sync = gcu_sync (s) ;
    if (info == GrB_SUCCESS) info = sync ;
    if (info != GrB_SUCCESS)
    {
        gcu_residency_unpin (f) ;
        gcu_log ("residency: the %s not built on the device from the %s (info %d); "
            "exported instead", by_col ? "CSC" : "CSR", by_col ? "CSR" : "CSC", (int) info) ;
        return (info == GCU_NOT_HANDLED) ? GrB_PANIC : info ;
    }
    gcu_res_data *d = gcu_residency_data (e) ;
    d->nrows = src->nrows ;
    d->ncols = src->ncols ;
    d->nvals = src->nvals ;
    d->idx_bits = 8 * dw ;
    d->type_size = tsize ;
    d->type = src->type ;
    d->iso = src->iso ;
    d->layout = GCU_MXM_LAYOUT ;
    gcu_residency_unpin (f) ;
    // GrB_NO_VALUE: A changed meanwhile (a broken program): this call's copy
    (void) gcu_residency_publish (e) ;
    fill (o, buf, dw == 8, d->iso, nvec, d->nvals) ;
    o->how = GCU_OPERAND_MISS ;
    o->dev_bytes = bytes [0] + bytes [1] + bytes [2] ;
    o->e_ = e ;
    o->built = true ;
    o->by_col = by_col ;
    o->build_s = gcu_now () - t0 ;
    atomic_fetch_add (&nbuilt, 1) ;
    return GrB_SUCCESS ;
}

static GrB_Info operand_get (GrB_Matrix A, bool by_col, size_t tsize,
    bool keep_host, bool try_device, gcu_operand *o, gcu_stream s) ;

// A out of SuiteSparse for its upload. Held sparse in the wanted orientation,
// with no host copy wanted by the caller: SuiteSparse's own arrays
// (gcu_export_sparse_view; *src stays open until export_done, *view true),
// which the staged upload narrows as it copies them into its pinned buffers.
// The export's pass and its fresh arrays cost FastSV's bought G->A (33.5M
// entries) 13.5 ms of a 36 ms call and SSSP's first upload of G->A (31.4M)
// 18.7 of 35, with a page fault for each 4 KiB of the new index array (H200,
// 2026-11-29). Else an export (32-bit indices where they fit); both give
// the same copy on the device.
static GrB_Info export_for_upload (GrB_Matrix A, bool by_col, bool keep_host,
    gcu_export_src *src, bool *view, gcu_csr *c)
{
    *view = false ;
    memset (c, 0, sizeof (*c)) ;
    GrB_Info info = gcu_export_open (src, A, false) ;
    if (info == GrB_SUCCESS && !keep_host && src->by_col == by_col
        && gcu_export_sparse_view (src, c) == GrB_SUCCESS)
    {
        *view = true ;          // src stays open until export_done
        return GrB_SUCCESS ;
    }
    const gcu_export_opts eo = { by_col ? GCU_EXPORT_CSC : GCU_EXPORT_CSR, 0, false, 0 } ;
    if (info == GrB_SUCCESS) info = gcu_export_csr_of (src, &eo, c) ;
    gcu_export_close (src) ;
    return info ;
}

// A miss of the orientation A is not held in (by_col against its format),
// with neither orientation on the device: A's held orientation exported
// (or viewed) and uploaded into the cache, and the wanted one built from it
// there (from_other), in place of SuiteSparse's transpose on the host inside
// the export. SSSP's first pull over urand-20-16's matrix (33.5M entries,
// held by row, wanted by column) exported for 85.6 ms of a 107 ms call,
// where the device built the other orientation from a copy in 3.6 ms (H200,
// 2026-11-29). GCU_NOT_HANDLED, e untouched, where it does not apply or the
// held copy could not be cached (the export then transposes as before);
// another failure leaves what from_other allocated in e.
static GrB_Info via_held (GrB_Matrix A, bool by_col, size_t tsize, gcu_res_entry *e,
    gcu_operand *o, gcu_stream s)
{
    int32_t fmt = GxB_BY_ROW ;
    GrB_Index nvals = 0 ;
    if (GxB_Matrix_Option_get_INT32 (A, GxB_FORMAT, &fmt) != GrB_SUCCESS
        || (fmt == GxB_BY_COL) == by_col || gcu_residency_newest_nvals (A, NULL)
        || GrB_Matrix_nvals (&nvals, A) != GrB_SUCCESS || !gcu_operand_via_held_size (nvals))
        return GCU_NOT_HANDLED ;
    gcu_operand held ;
    if (operand_get (A, !by_col, tsize, false, false, &held, s) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    const bool cached = held.e_ != NULL ;
    const double export_s = held.export_s, upload_s = held.upload_s ;
    const size_t up_bytes = held.up_bytes ;
    gcu_operand_release (&held, s) ;
    if (!cached) return GCU_NOT_HANDLED ;
    const GrB_Info info = from_other (A, by_col, tsize, e, o, s) ;
    if (info == GrB_SUCCESS)
    {
        // this call's export and upload: the held copy's
        o->export_s = export_s ;
        o->upload_s = upload_s ;
        o->up_bytes = up_bytes ;
    }
    return info ;
}

// export_for_upload's end: a view's object closed (its arrays are
// SuiteSparse's), an export's arrays freed
static void export_done (gcu_export_src *src, bool view, gcu_csr *c)
{
    if (view)
    {
        gcu_export_close (src) ;
        memset (c, 0, sizeof (*c)) ;
    }
    else gcu_csr_free (c) ;
}

GrB_Info gcu_operand_get (GrB_Matrix A, bool by_col, size_t tsize,
    bool keep_host, gcu_operand *o, gcu_stream s)
{
    return operand_get (A, by_col, tsize, keep_host, gcu_device_transpose_enabled (), o, s) ;
}

// try_device: a miss may be built from the other orientation (from_other)
static GrB_Info operand_get (GrB_Matrix A, bool by_col, size_t tsize,
    bool keep_host, bool try_device, gcu_operand *o, gcu_stream s)
{
    memset (o, 0, sizeof (*o)) ;
    gcu_res_entry *e = NULL ;
    GrB_Info info = gcu_residency_acquire (A, by_col ? GCU_RES_CSC : GCU_RES_CSR, &e) ;
    if (info == GrB_SUCCESS)
    {
        gcu_res_data *d = gcu_residency_data (e) ;
        if (d->layout == GCU_MXM_LAYOUT && d->nbuf == 3 && d->type_size == tsize)
        {
            fill (o, d->buf, d->idx_bits == 64, d->iso, by_col ? d->ncols : d->nrows, d->nvals) ;
            o->dev_bytes = d->bytes [0] + d->bytes [1] + d->bytes [2] ;
            o->how = GCU_OPERAND_HIT ;
            o->e_ = e ;
            return GrB_SUCCESS ;
        }
        // data of another layout under this kind: leave it, copy privately
        gcu_residency_unpin (e) ;
        e = NULL ;
    }
    else if (info != GrB_NO_VALUE)
    {
        e = NULL ;      // no entry could be started (host memory): a private copy
    }

    // miss: built from the other orientation where the device has it, else
    // (the orientation A is not held in) from a copy of A uploaded as it is
    // held; not when the caller wants the host's arrays too
    if (e != NULL && try_device && !keep_host)
    {
        info = from_other (A, by_col, tsize, e, o, s) ;
        if (info == GCU_NOT_HANDLED) info = via_held (A, by_col, tsize, e, o, s) ;
        if (info == GrB_SUCCESS) return GrB_SUCCESS ;
        if (info != GCU_NOT_HANDLED)
        {
            // e holds what the failed build allocated: abandoned (freed),
            // and the miss taken again the host's way
            gcu_residency_unpin (e) ;
            return operand_get (A, by_col, tsize, keep_host, false, o, s) ;
        }
    }

    // miss: A out of SuiteSparse (never changed): its own arrays or an
    // export; a device-newest A is written into its object first
    const double t0 = gcu_now () ;
    gcu_csr c ;
    gcu_export_src src ;
    bool view = false ;
    memset (&c, 0, sizeof (c)) ;
    memset (&src, 0, sizeof (src)) ;
    info = gcu_residency_materialize (A, "a GPU family's export of an operand") ;
    if (info == GrB_SUCCESS) info = export_for_upload (A, by_col, keep_host, &src, &view, &c) ;
    if (info == GrB_SUCCESS && c.type_size != tsize) info = GrB_PANIC ;
    if (info != GrB_SUCCESS)
    {
        export_done (&src, view, &c) ;
        gcu_residency_unpin (e) ;       // an abandoned build: freed
        return info ;
    }
    const double t1 = gcu_now () ;
    const int dw = dev_idx_bytes (&c) ;
    size_t bytes [3] ;
    copy_bytes (c.nvec, c.nvals, c.val_bytes, dw, bytes) ;
    void *buf [3] = { NULL, NULL, NULL } ;
    if (e != NULL)
    {
        for (int k = 0 ; k < 3 && info == GrB_SUCCESS ; k++)
            info = gcu_residency_alloc (e, bytes [k], &buf [k]) ;
        if (info != GrB_SUCCESS)
        {
            // the cache cannot hold A (its budget, no allocator, the device
            // full): the abandoned build frees what it got; this call
            // uploads A for itself
            gcu_log ("residency: no room for %zu bytes (info %d); operand "
                "uploaded for this call only", bytes [0] + bytes [1] + bytes [2], (int) info) ;
            gcu_residency_unpin (e) ;
            e = NULL ;
            info = GrB_SUCCESS ;
        }
    }
    if (e == NULL)
    {
        for (int k = 0 ; k < 3 && info == GrB_SUCCESS ; k++)
            info = gcu_dmalloc (&o->own_ [k], bytes [k], s) ;
        for (int k = 0 ; k < 3 ; k++) buf [k] = o->own_ [k] ;
    }
    if (info == GrB_SUCCESS) info = upload (&c, dw, buf, s) ;
    if (info != GrB_SUCCESS)
    {
        gcu_residency_unpin (e) ;
        for (int k = 0 ; k < 3 ; k++) gcu_dfree (o->own_ [k], s) ;
        export_done (&src, view, &c) ;
        memset (o, 0, sizeof (*o)) ;
        return info ;
    }
    if (e != NULL)
    {
        gcu_res_data *d = gcu_residency_data (e) ;
        d->nrows = c.nrows ;
        d->ncols = c.ncols ;
        d->nvals = c.nvals ;
        d->idx_bits = 8 * dw ;
        d->type_size = c.type_size ;
        d->type = c.type ;
        d->iso = c.iso ;
        d->layout = GCU_MXM_LAYOUT ;
        keep_pointers (d, &c, !keep_host && !view) ;
        // GrB_NO_VALUE: A was changed while it was copied (only a program
        // breaking GraphBLAS's rules does that); the copy then serves this
        // call alone and goes at its unpin
        (void) gcu_residency_publish (e) ;
    }
    fill (o, buf, dw == 8, c.iso, c.nvec, c.nvals) ;
    o->how = (e != NULL) ? GCU_OPERAND_MISS : GCU_OPERAND_PRIVATE ;
    o->dev_bytes = bytes [0] + bytes [1] + bytes [2] ;
    o->e_ = e ;
    o->up_bytes = (size_t) (c.nvec + 1 + c.nvals) * dw + c.val_bytes ;
    o->export_s = t1 - t0 ;
    o->upload_s = gcu_now () - t1 ;
    if (keep_host) o->host = c ;
    else export_done (&src, view, &c) ;
    return GrB_SUCCESS ;
}

void gcu_operand_share (const gcu_operand *from, gcu_operand *to)
{
    *to = *from ;
    memset (&to->host, 0, sizeof (to->host)) ;
    for (int k = 0 ; k < 3 ; k++) to->own_ [k] = NULL ;     // borrowed
    to->how = GCU_OPERAND_SHARED ;
    to->up_bytes = 0 ;
    to->export_s = to->upload_s = 0 ;
    to->built = false ;
    to->build_s = 0 ;
    // a pin of its own: the two uses are released independently
    if (to->e_ != NULL) gcu_residency_pin (to->e_) ;
}

void gcu_operand_release (gcu_operand *o, gcu_stream s)
{
    if (o->e_ != NULL) gcu_residency_unpin (o->e_) ;
    for (int k = 0 ; k < 3 ; k++) gcu_dfree (o->own_ [k], s) ;
    gcu_csr_free (&o->host) ;
    memset (o, 0, sizeof (*o)) ;
}

void gcu_operand_how_describe (gcu_operand_how how, size_t up_bytes, const char *name,
    const char *shared_with, char *buf, size_t size)
{
    switch (how)
    {
        case GCU_OPERAND_HIT:
            snprintf (buf, size, "%s hit", name) ;
            break ;
        case GCU_OPERAND_MISS:
            snprintf (buf, size, "%s miss (%.1f MB)", name, (double) up_bytes / 1e6) ;
            break ;
        case GCU_OPERAND_PRIVATE:
            snprintf (buf, size, "%s uncached (%.1f MB)", name, (double) up_bytes / 1e6) ;
            break ;
        case GCU_OPERAND_SHARED:
            snprintf (buf, size, "%s = %s", name, shared_with ? shared_with : "?") ;
            break ;
        default:
            snprintf (buf, size, "%s -", name) ;
            break ;
    }
}

void gcu_operand_describe (const gcu_operand *o, const char *name,
    const char *shared_with, char *buf, size_t size)
{
    if (o->built)
    {
        snprintf (buf, size, "%s miss, by %s built on the device from %s by %s (%.1f ms)",
            name, o->by_col ? "column" : "row", name, o->by_col ? "row" : "column",
            1e3 * o->build_s) ;
        return ;
    }
    gcu_operand_how_describe (o->how, o->up_bytes, name, shared_with, buf, size) ;
}

#endif
