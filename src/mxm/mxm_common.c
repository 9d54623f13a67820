// mxm_common.c — the parts of the GrB_mxm GPU families they share
// (gcu_mxm.h): operands on the device (residency cache, export, staged
// upload), T out of a positional (per mask entry) result, write-back.
#include "gcu_mxm.h"
#include "../device/gcu_staging.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#else
// Without OpenMP T is built on the calling thread; the pragmas are ignored.
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#endif

#if GRBCUDA_HAVE_CUDA

//------------------------------------------------------------------------------
// host CSR copies, 64-bit (tests/cpu/test_mxm_export.c)
//------------------------------------------------------------------------------

void gcu_host_csr_free (gcu_host_csr *h)
{
    free (h->p) ; free (h->j) ; free (h->x) ;
    memset (h, 0, sizeof (*h)) ;
}

// CSR of op(A): A itself, or (transpose) its CSC, which is the CSR of A'.
GrB_Info gcu_export_csr_copy (GrB_Matrix A, bool transpose, size_t tsize, gcu_host_csr *h)
{
    // src/export reads SuiteSparse's arrays through an iterator, in parallel,
    // without changing A; 64-bit here, an iso value kept once
    memset (h, 0, sizeof (*h)) ;
    gcu_export_opts o = { transpose ? GCU_EXPORT_CSC : GCU_EXPORT_CSR, 64, false, 0 } ;
    gcu_csr c ;
    GrB_Info info = gcu_export_csr (A, false, &o, &c) ;
    if (info != GrB_SUCCESS) return info ;
    if (c.type_size != tsize)
    {
        gcu_csr_free (&c) ;
        return GrB_PANIC ;
    }
    h->p = c.ptr ;
    h->j = c.idx ;
    h->x = c.val ;
    h->np = c.nvec + 1 ;
    h->nj = c.nvals ;
    h->nx = c.iso ? 1 : c.nvals ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// T out of a positional result (one value and flag per mask entry)
//------------------------------------------------------------------------------

static inline GrB_Index idx_at (const void *a, int w, GrB_Index e)
{
    return (w == 4) ? (GrB_Index) ((const uint32_t *) a) [e] : ((const uint64_t *) a) [e] ;
}

// T = the mask's pattern (Mp, Mj: w-byte indices, m rows) less the entries
// flagged empty in Cb, with the values of Cx. In parallel: the entries are
// split evenly over the threads at row boundaries (so a long row of a
// power-law mask does not leave the other threads idle); each part counts
// what it keeps (plan), then, once T is allocated, writes its rows at its
// offset (fill).
#define GCU_MXM_MAX_PARTS 256

typedef struct
{
    int nth ;
    GrB_Index row0 [GCU_MXM_MAX_PARTS + 1] ;    // part t: rows row0 [t] .. row0 [t+1]-1
    GrB_Index off [GCU_MXM_MAX_PARTS + 1] ;     // its first entry of T; off [nth] = nnz (T)
}
parts_t ;

static void compact_plan (GrB_Index m, const void *Mp, int w, const int8_t *Cb,
    parts_t *pt)
{
    const GrB_Index mnvals = idx_at (Mp, w, m) ;
    int nth = 1 ;
#ifdef _OPENMP
    nth = gcu_thread_host_count (omp_get_max_threads ()) ;
    if ((double) nth * 65536 > (double) mnvals) nth = (int) (mnvals / 65536) ;
    if (nth > GCU_MXM_MAX_PARTS) nth = GCU_MXM_MAX_PARTS ;
    if (nth < 1) nth = 1 ;
#endif
    pt->nth = nth ;
    for (int t = 0 ; t <= nth ; t++)
    {
        // the row holding entry mnvals*t/nth: the first row i with Mp [i+1] > it
        GrB_Index target = mnvals * (GrB_Index) t / (GrB_Index) nth ;
        GrB_Index lo = 0, hi = m ;
        while (lo < hi)
        {
            GrB_Index mid = lo + (hi - lo) / 2 ;
            if (idx_at (Mp, w, mid + 1) > target) hi = mid ; else lo = mid + 1 ;
        }
        pt->row0 [t] = lo ;
    }
    pt->row0 [0] = 0 ;          // empty leading rows belong to part 0
    pt->row0 [nth] = m ;
    GrB_Index *kept = pt->off ;
    #pragma omp parallel for num_threads(nth) schedule(static)
    for (int t = 0 ; t < nth ; t++)
    {
        GrB_Index c = 0 ;
        const GrB_Index end = idx_at (Mp, w, pt->row0 [t + 1]) ;
        for (GrB_Index e = idx_at (Mp, w, pt->row0 [t]) ; e < end ; e++) c += (Cb [e] != 0) ;
        kept [t] = c ;
    }
    GrB_Index total = 0 ;
    for (int t = 0 ; t < nth ; t++)
    {
        GrB_Index c = kept [t] ;
        pt->off [t] = total ;
        total += c ;
    }
    pt->off [nth] = total ;
}

static void compact_fill (const parts_t *pt, GrB_Index m, const void *Mp,
    const void *Mj, int w, const int8_t *Cb, const char *Cx, size_t zsize,
    GrB_Index *Tp, GrB_Index *Tj, char *Tx)
{
    const int nth = pt->nth ;
    #pragma omp parallel for num_threads(nth) schedule(static)
    for (int t = 0 ; t < nth ; t++)
    {
        GrB_Index p = pt->off [t] ;
        for (GrB_Index i = pt->row0 [t] ; i < pt->row0 [t + 1] ; i++)
        {
            Tp [i] = p ;
            const GrB_Index end = idx_at (Mp, w, i + 1) ;
            for (GrB_Index e = idx_at (Mp, w, i) ; e < end ; e++)
            {
                if (!Cb [e]) continue ;
                Tj [p] = idx_at (Mj, w, e) ;
                gcu_put_val (Tx + p * zsize, Cx + e * zsize, zsize) ;
                p++ ;
            }
        }
    }
    Tp [m] = pt->off [nth] ;
}


#undef  GCU_FREE_ALL
#define GCU_FREE_ALL                                                    \
    free (Cx) ; free (Cb) ; free (Mp) ; free (Mj) ;                     \
    gcu_host_free (*Tp) ; gcu_host_free (*Tj) ; gcu_host_free (*Tx) ;   \
    *Tp = NULL ; *Tj = NULL ; *Tx = NULL ;

GrB_Info gcu_mxm_positional_T (const gcu_operand *om, GrB_Index m,
    const void *dCx, const int8_t *dCb, size_t zsize, GrB_Index **Tp,
    GrB_Index **Tj, void **Tx, GrB_Index *nvals, size_t *down_bytes,
    double *t_download, gcu_stream s)
{
    void *Cx = NULL, *Mp = NULL, *Mj = NULL ;
    int8_t *Cb = NULL ;
    *Tp = NULL ; *Tj = NULL ; *Tx = NULL ;
    *nvals = 0 ;
    const double t0 = gcu_now () ;
    const GrB_Index mnvals = om->nvals ;
    // the results, and the mask's pattern when it came from the cache (this
    // call made no host export of it)
    Cx = malloc ((mnvals + 1) * zsize) ;
    Cb = malloc (mnvals + 1) ;
    if (Cx == NULL || Cb == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    GCU_TRY (gcu_d2h_staged (Cx, dCx, mnvals * zsize, 1, 1, s)) ;
    GCU_TRY (gcu_d2h_staged (Cb, dCb, mnvals, 1, 1, s)) ;
    size_t down = mnvals * (zsize + 1) ;
    const void *hMp = om->host.ptr, *hMj = om->host.idx ;
    int mw = om->host.idx_bits / 8 ;
    if (hMp == NULL)
    {
        mw = om->idx64 ? 8 : 4 ;
        Mp = malloc ((m + 1) * (size_t) mw) ;
        Mj = malloc ((mnvals + 1) * (size_t) mw) ;
        if (Mp == NULL || Mj == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
        GCU_TRY (gcu_d2h_staged (Mp, om->p, m + 1, mw, mw, s)) ;
        GCU_TRY (gcu_d2h_staged (Mj, om->j, mnvals, mw, mw, s)) ;
        down += (m + 1 + mnvals) * (size_t) mw ;
        hMp = Mp ;
        hMj = Mj ;
    }
    *t_download = gcu_now () - t0 ;
    *down_bytes = down ;
    // T: the mask's pattern, less the entries flagged empty
    parts_t parts ;
    compact_plan (m, hMp, mw, Cb, &parts) ;
    const GrB_Index tnvals = parts.off [parts.nth] ;
    *Tp = gcu_host_malloc ((m + 1) * sizeof (GrB_Index)) ;
    *Tj = gcu_host_malloc ((tnvals + 1) * sizeof (GrB_Index)) ;
    *Tx = gcu_host_malloc ((tnvals + 1) * zsize) ;
    if (*Tp == NULL || *Tj == NULL || *Tx == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    compact_fill (&parts, m, hMp, hMj, mw, Cb, Cx, zsize, *Tp, *Tj, *Tx) ;
    free (Cx) ; free (Cb) ; free (Mp) ; free (Mj) ;
    *nvals = tnvals ;
    return GrB_SUCCESS ;
}
#undef  GCU_FREE_ALL

//------------------------------------------------------------------------------
// write-back: C<M,replace> = accum (C, T)
//------------------------------------------------------------------------------

// C = T (CSR arrays from gcu_host_malloc, rows sorted; NULL once they are
// C's): C's old content goes, T's arrays become C's without a copy, and C
// takes the storage SuiteSparse would give a result of its own: its format
// (a pack is by row; a matrix held by column is turned back: under
// out-of-memory that transpose is the one step that can still leave C
// invalid) and its
// sparsity control (a pack leaves it sparse; SuiteSparse conforms its own
// results: bitmap or full when dense, hypersparse when few rows have entries).
static GrB_Info pack_into (GrB_Matrix C, GrB_Index m, GrB_Index **Tp,
    GrB_Index **Tj, void **Tx, GrB_Index nvals, size_t zsize, bool iso)
{
    int control = GxB_AUTO_SPARSITY, fmt = GxB_BY_ROW ;
    GrB_Info info = GxB_Matrix_Option_get (C, GxB_SPARSITY_CONTROL, &control) ;
    if (info == GrB_SUCCESS) info = GxB_Matrix_Option_get (C, GxB_FORMAT, &fmt) ;
    // (no GrB_Matrix_clear first: the pack frees C's old content itself, and
    // a clear that runs out of memory leaves C invalid in SuiteSparse 7.4,
    // which a materialization, a read of C, must never do; a CSR pack
    // allocates nothing once it has freed, and makes C by row)
    if (info == GrB_SUCCESS)
        info = GxB_Matrix_pack_CSR (C, Tp, Tj, Tx, (m + 1) * sizeof (GrB_Index),
            (nvals + 1) * sizeof (GrB_Index), iso ? zsize : (nvals + 1) * zsize, iso, false, NULL) ;
    if (info == GrB_SUCCESS && fmt != GxB_BY_ROW) info = GxB_Matrix_Option_set (C, GxB_FORMAT, fmt) ;
    if (info == GrB_SUCCESS) info = GxB_Matrix_Option_set (C, GxB_SPARSITY_CONTROL, control) ;
    return info ;
}

// C's status after a product call (call->t_iso_done): 1 (value in z), 0, -1
static int result_status (gcu_call *call, GrB_Index nvals, void *z)
{
    GrB_Type ctype = NULL ;
    size_t zsize = 0 ;
    if (GxB_Type_size (&zsize, call->t_iso_type) != GrB_SUCCESS) return -1 ;
    const int st = gcu_iso_call_result (call, zsize, (int64_t) nvals, z) ;
    // an iso value is of T's type: C of another type is not decided here
    if (st == 1 && (GxB_Matrix_type (&ctype, (GrB_Matrix) call->C) != GrB_SUCCESS
        || ctype != call->t_iso_type)) return -1 ;
    return st ;
}

// Whether C<M> = accum (C, T) is C = T itself (T's arrays handed to C): no
// accum, C of T's type and by row, and no mask, or T already inside the
// mask's true entries (t_in_mask) where C has nothing to keep: C empty
// (triangle counting's C<L>), or GrB_REPLACE (C's entries outside the mask
// go; inside, T's replace them or, where T has none, they go too)
static GrB_Info direct_of (const gcu_call *call, GrB_Type ztype, bool t_in_mask, bool *direct)
{
    GrB_Matrix C = (GrB_Matrix) call->C ;
    GrB_Type ctype = NULL ;
    GxB_Format_Value fmt = GxB_BY_ROW ;
    *direct = false ;
    GrB_Info info = GxB_Matrix_type (&ctype, C) ;
    if (info == GrB_SUCCESS) info = GxB_Matrix_Option_get (C, GxB_FORMAT, &fmt) ;
    if (info != GrB_SUCCESS || call->accum != NULL || ctype != ztype || fmt != GxB_BY_ROW) return info ;
    GrB_Index cnvals = 1 ;
    if (call->M != NULL && t_in_mask && !call->replace) info = GrB_Matrix_nvals (&cnvals, C) ;
    *direct = call->M == NULL || (t_in_mask && (call->replace || cnvals == 0)) ;
    return info ;
}

// C = T (direct) or C<M> = accum (C, T) through SuiteSparse; iso: T (or,
// direct, C) is iso as SuiteSparse would have it, its value z
static GrB_Info write_back (gcu_call *call, bool direct, GrB_Type ztype, GrB_Index m,
    GrB_Index n, GrB_Index **Tp, GrB_Index **Tj, void **Tx, GrB_Index nvals,
    size_t zsize, bool iso, const void *z)
{
    GrB_Matrix C = (GrB_Matrix) call->C ;
    if (iso) memcpy (*Tx, z, zsize) ;
    // C = T: hand T's arrays to C without a copy
    if (direct) return pack_into (C, m, Tp, Tj, Tx, nvals, zsize, iso) ;
    const GrB_Index psize = (m + 1) * sizeof (GrB_Index) ;
    const GrB_Index jsize = (nvals + 1) * sizeof (GrB_Index) ;
    const GrB_Index xsize = (nvals + 1) * zsize ;
    GrB_Matrix T = NULL ;
    GrB_Descriptor d = NULL ;
    GrB_Info info = GrB_Matrix_new (&T, ztype, m, n) ;
    if (info == GrB_SUCCESS)
        info = GxB_Matrix_pack_CSR (T, Tp, Tj, Tx, psize, jsize, xsize, iso, false, NULL) ;
    if (info == GrB_SUCCESS) info = gcu_writeback_desc (call->desc, &d) ;
    GrB_Matrix Mtmp = NULL ;
    if (info == GrB_SUCCESS) info = gcu_writeback_mask (call, (void **) &Mtmp) ;
    if (info == GrB_SUCCESS)
    {
        const GrB_Matrix M = Mtmp != NULL ? Mtmp : (GrB_Matrix) call->M ;
        const GrB_UnaryOp id = gcu_writeback_identity (ztype) ;
        if (id != NULL)
            info = GrB_Matrix_apply (C, M, call->accum, id, T, d) ;
        else
            info = GrB_Matrix_assign (C, M, call->accum, T, GrB_ALL, m, GrB_ALL, n, d) ;
    }
    GrB_Matrix_free (&Mtmp) ;
    GrB_Matrix_free (&T) ;
    GrB_Descriptor_free (&d) ;
    return info ;
}

GrB_Info gcu_mxm_write_back (gcu_call *call, GrB_Type ztype, GrB_Index m,
    GrB_Index n, GrB_Index **Tp, GrB_Index **Tj, void **Tx, GrB_Index nvals,
    size_t zsize, bool t_in_mask)
{
    // the iso status SuiteSparse would give C (direct) or T (its own accum
    // and mask stage then gives C's), decided before C is touched
    bool direct = false ;
    uint64_t z [2] = { 0, 0 } ;
    GrB_Info info = direct_of (call, ztype, t_in_mask, &direct) ;
    if (info != GrB_SUCCESS) return info ;
    int st = 0 ;
    if (call->t_iso_done && direct) st = result_status (call, nvals, z) ;
    else if (call->t_iso_done)
    {
        st = call->t_iso ;
        if (st == 1 && call->t_iso_type == ztype && zsize <= sizeof (z)) memcpy (z, call->t_iso_value, zsize) ;
        else if (st == 1) st = -1 ;
    }
    if (st < 0)
    {
        gcu_iso_decline (call) ;
        return GCU_NOT_HANDLED ;
    }
    call->c_written = true ;
    info = write_back (call, direct, ztype, m, n, Tp, Tj, Tx, nvals, zsize, st == 1, z) ;
    // C was written (or may have been, if the write-back failed half-way):
    // its device copies are stale. The write-back's GraphBLAS calls are
    // grbcuda's invalidating wrappers already; this says it where it
    // matters, for a C that is also an operand of this call (C = A*B with
    // C == A), whose copy this call may have just published.
    gcu_residency_invalidate (call->C) ;
    return info ;
}

//------------------------------------------------------------------------------
// results left on the device (DESIGN §3)
//------------------------------------------------------------------------------

// Writes a result the device holds (a GCU_MXM_LAYOUT entry) into its matrix
// (iso: one value, and SuiteSparse's object iso too: GrB_Matrix_select's
// result of an iso A)
static GrB_Info materialize_csr (const void *handle, gcu_res_entry *e)
{
    const gcu_res_data *d = gcu_residency_data (e) ;
    const GrB_Index m = d->nrows, nvals = d->nvals ;
    const size_t zsize = d->type_size ;
    const int w = d->idx_bits / 8 ;
    const gcu_stream s = gcu_stream_default () ;
    GrB_Index *Tp = gcu_host_malloc ((m + 1) * sizeof (GrB_Index)) ;
    GrB_Index *Tj = gcu_host_malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    void *Tx = gcu_host_malloc ((nvals + 1) * zsize) ;
    GrB_Info info = (Tp && Tj && Tx) ? GrB_SUCCESS : GrB_OUT_OF_MEMORY ;
    const double t0 = gcu_now () ;
    // the three arrays in one pipeline of the staging buffers (indices
    // widened to the host's 64 bits, values as bytes)
    // (iso as SuiteSparse would have it: its value, none downloaded)
    const gcu_d2h_seg seg [3] = {
        { Tp, d->buf [0], (size_t) m + 1, w, 8 },
        { Tj, d->buf [1], (size_t) nvals, w, 8 },
        { Tx, d->buf [2], d->suite_iso ? 0 : (d->iso ? 1 : (size_t) nvals) * zsize, 1, 1 } } ;
    if (info == GrB_SUCCESS && d->suite_iso) memcpy (Tx, d->suite_value, zsize) ;
    if (info == GrB_SUCCESS) info = gcu_d2h_staged_segs (seg, 3, s) ;
    const double t1 = gcu_now () ;
    if (info == GrB_SUCCESS)
        info = pack_into ((GrB_Matrix) handle, m, &Tp, &Tj, &Tx, nvals, zsize, d->iso || d->suite_iso) ;
    gcu_log ("residency: %p: %llu x %llu, %llu entries: download %.3f ms, into SuiteSparse %.3f ms",
        handle, (unsigned long long) m, (unsigned long long) d->ncols, (unsigned long long) nvals,
        1e3 * (t1 - t0), 1e3 * (gcu_now () - t1)) ;
    gcu_host_free (Tp) ; gcu_host_free (Tj) ; gcu_host_free (Tx) ;    // NULL once packed
    // a device failure is an allocation the host could not make happen
    return (info == GrB_PANIC) ? GrB_OUT_OF_MEMORY : info ;
}

static GrB_Info entry_alloc (void *ctx, size_t bytes, void **p)
{
    // a few bytes more: an empty array is still a valid pointer
    return gcu_residency_alloc ((gcu_res_entry *) ctx, bytes + 8, p) ;
}

bool gcu_mxm_result_begin (const gcu_call *call, GrB_Type ztype, bool t_in_mask,
    gcu_mxm_result *r)
{
    memset (r, 0, sizeof (*r)) ;
    GrB_Type ctype = NULL ;
    if (!gcu_keep_results () || call->accum != NULL || (call->M != NULL && !t_in_mask)
        || GxB_Matrix_type (&ctype, (GrB_Matrix) call->C) != GrB_SUCCESS || ctype != ztype)
        return false ;
    if (call->M != NULL && !call->replace)
    {
        // C<M> = T with T inside the mask's true entries is T itself only
        // when C has no entries to keep (or GrB_REPLACE drops them)
        GrB_Index cnvals = 1 ;
        if (GrB_Matrix_nvals (&cnvals, (GrB_Matrix) call->C) != GrB_SUCCESS || cnvals != 0)
            return false ;
    }
    return gcu_mxm_result_open (call, r) ;
}

bool gcu_mxm_result_open (const gcu_call *call, gcu_mxm_result *r)
{
    memset (r, 0, sizeof (*r)) ;
    if (gcu_residency_begin (call->C, GCU_RES_CSR, &r->e) != GrB_SUCCESS) return false ;
    r->keep.alloc = entry_alloc ;
    r->keep.ctx = r->e ;
    return true ;
}

GrB_Info gcu_mxm_result_publish (gcu_call *call, gcu_mxm_result *r, GrB_Type ztype,
    size_t zsize, GrB_Index m, GrB_Index n, GrB_Index nvals, bool idx64)
{
    gcu_res_data *d = gcu_residency_data (r->e) ;
    // (select's one-value entry is iso through d->iso, below)
    const int st = call->t_iso_done ? result_status (call, nvals, d->suite_value) : 0 ;
    if (st < 0)
    {
        gcu_mxm_result_end (r) ;
        gcu_iso_decline (call) ;
        return GCU_NOT_HANDLED ;
    }
    d->suite_iso = st == 1 ;
    d->nrows = m ;
    d->ncols = n ;
    d->nvals = nvals ;
    d->idx_bits = idx64 ? 64 : 32 ;
    d->type_size = zsize ;
    d->type = ztype ;
    d->iso = r->iso ;
    d->layout = GCU_MXM_LAYOUT ;
    GrB_Info info = gcu_residency_publish_newest (r->e, materialize_csr) ;
    gcu_mxm_result_end (r) ;
    return info ;
}

void gcu_mxm_result_end (gcu_mxm_result *r)
{
    gcu_residency_unpin (r->e) ;        // an unpublished build is freed
    memset (r, 0, sizeof (*r)) ;
}

#endif
