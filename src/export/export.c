// export.c — CSR/CSC out of SuiteSparse without changing the object
// (gcu_export.h says how and why). Every storage SuiteSparse uses goes
// through one of five conversions, each a single parallel pass over the
// data (plus a count pass where the output order differs from the storage
// order):
//   same orientation   sparse/hyper: copy (narrowing indices), hyper ptr by
//                      lower bound;  bitmap/full: flat scan in cell order
//                      (export_same.c)
//   other orientation  sparse/hyper: stable counting sort (per-thread
//                      counts keep the inner indices sorted);
//                      bitmap/full: blocked transpose of the dense layout
//                      (export_transpose.c)
// Here: open, plan and fill, the choice among them, iso values, and the
// portable path.
#include "gcu_export_internal.h"
#include <stdatomic.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#else
// Without OpenMP the loops below run serially; their pragmas are ignored.
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#endif

// The iterator's fields (struct GB_Iterator_opaque) are SuiteSparse 7.x's;
// elsewhere the portable path runs.
#if defined (GxB_IMPLEMENTATION_MAJOR) && GxB_IMPLEMENTATION_MAJOR == 7
#define GCU_EXPORT_RAW 1
#else
#define GCU_EXPORT_RAW 0
#endif

// Below this much work a loop runs on one thread (thread start-up costs
// more than the loop).
#define GCU_EXPORT_GRAIN 65536

static _Atomic bool force_portable ;

void gcu_export_force_portable (bool on)
{
    atomic_store (&force_portable, on) ;
}

//------------------------------------------------------------------------------
// threads
//------------------------------------------------------------------------------

// At most nth threads, fewer when the loop is short.
static inline int cap_threads (int nth, double work)
{
    double most = work / GCU_EXPORT_GRAIN ;
    if (most < nth) nth = (most < 1) ? 1 : (int) most ;
    return nth ;
}

// opts->nthreads > 0: exactly that many (tests and benchmarks); else as many
// as OpenMP offers, fewer for short loops.
static int threads_for (const gcu_export_opts *o, double work)
{
#ifdef _OPENMP
    if (o != NULL && o->nthreads > 0) return o->nthreads ;
    return cap_threads (gcu_thread_host_count (omp_get_max_threads ()), work) ;
#else
    (void) o ; (void) work ;
    return 1 ;
#endif
}

#if GCU_EXPORT_RAW
static void raw_of (const gcu_export_src *s, gcu_export_raw *r)
{
    const struct GB_Iterator_opaque *it = s->it_ ;
    r->vlen = it->avlen ;
    r->vdim = it->avdim ;
    r->nvec = it->anvec ;
    r->Ap = it->Ap ;
    r->Ah = it->Ah ;
    r->Ai = it->Ai ;
    r->Ab = it->Ab ;
    r->Ax = it->Ax ;
    r->ts = it->type_size ;
    r->sparsity = it->A_sparsity ;
    r->iso = it->iso ;
    r->nvals = (int64_t) s->nvals ;
}
#endif

// The iso value, once or nvals times.
static void fill_iso (gcu_csr *c, const uint8_t *x, size_t ts, int nth)
{
    uint8_t *val = c->val ;
    if (c->iso)
    {
        memcpy (val, x, ts) ;
        return ;
    }
    int64_t nz = (int64_t) c->nvals ;
    #pragma omp parallel for num_threads(nth) schedule(static)
    for (int64_t p = 0 ; p < nz ; p++) gcu_put_val (val + p * ts, x, ts) ;
}

#if GCU_EXPORT_RAW
static GrB_Info fill_raw (const gcu_export_src *s, const gcu_export_opts *o,
    gcu_csr *c)
{
    gcu_export_raw r ;
    raw_of (s, &r) ;
    bool w32 = (c->idx_bits == 32) ;
    int nth = threads_for (o, (double) r.nvals + (double) c->nvec) ;
    // stored by row and CSR wanted, or by column and CSC wanted
    bool same = (s->by_col == (c->layout == GCU_EXPORT_CSC)) ;
    bool vals = !r.iso ;
    GrB_Info info = GrB_SUCCESS ;
    if (r.sparsity == GxB_SPARSE || r.sparsity == GxB_HYPERSPARSE)
    {
        if (same) gcu_export_same_sparse (&r, c, w32, vals, nth) ;
        else
        {
            // many output vectors: the cache-friendly two passes; else (or
            // without memory for them) the direct scatter
            info = GrB_OUT_OF_MEMORY ;
            if (c->nvec > GCU_BUCKET_MIN_OUTER) info = gcu_export_trans_buckets (&r, c, w32, vals, nth) ;
            if (info == GrB_OUT_OF_MEMORY) info = gcu_export_trans_sparse (&r, c, w32, vals, nth) ;
        }
    }
    else
    {
        nth = threads_for (o, (double) r.vlen * (double) r.vdim) ;
        if (same) gcu_export_same_dense (&r, c, w32, vals, nth) ;
        else info = gcu_export_trans_dense (&r, c, w32, vals, nth) ;
    }
    if (info == GrB_SUCCESS && r.iso) fill_iso (c, r.Ax, r.ts, nth) ;
    return info ;
}
#endif

//------------------------------------------------------------------------------
// the portable path: GrB_Matrix_export (C API 2.0) copies, then narrow
//------------------------------------------------------------------------------

static GrB_Info typed_export (GrB_Index *Ap, GrB_Index *Ai, void *Ax,
    GrB_Index *np, GrB_Index *ni, GrB_Index *nx, GrB_Format f, GrB_Matrix A,
    GrB_Type t)
{
    // One direct call per built-in type: GrB_Matrix_export is typed.
    #define GCU_EXPORT_AS(P, T) \
        if (t == P##_##T) return P##_Matrix_export_##T (Ap, Ai, Ax, np, ni, nx, f, A) ;
    GCU_EXPORT_AS (GrB, BOOL)   GCU_EXPORT_AS (GrB, INT8)   GCU_EXPORT_AS (GrB, INT16)
    GCU_EXPORT_AS (GrB, INT32)  GCU_EXPORT_AS (GrB, INT64)  GCU_EXPORT_AS (GrB, UINT8)
    GCU_EXPORT_AS (GrB, UINT16) GCU_EXPORT_AS (GrB, UINT32) GCU_EXPORT_AS (GrB, UINT64)
    GCU_EXPORT_AS (GrB, FP32)   GCU_EXPORT_AS (GrB, FP64)
    GCU_EXPORT_AS (GxB, FC32)   GCU_EXPORT_AS (GxB, FC64)
    #undef GCU_EXPORT_AS
    return GrB_Matrix_export_UDT (Ap, Ai, Ax, np, ni, nx, f, A) ;
}

static GrB_Info fill_portable (const gcu_export_src *s, const gcu_export_opts *o,
    gcu_csr *c)
{
    GrB_Matrix A = (GrB_Matrix) s->obj_ ;     // a GrB_Vector is an n-by-1 GrB_Matrix
    GrB_Format f = (c->layout == GCU_EXPORT_CSR) ? GrB_CSR_FORMAT : GrB_CSC_FORMAT ;
    GrB_Index np = 0, ni = 0, nx = 0 ;
    GrB_Index *Ap = NULL, *Ai = NULL ;
    uint8_t *Ax = NULL ;
    #define GCU_FREE_ALL { free (Ap) ; free (Ai) ; free (Ax) ; }
    GCU_TRY (GrB_Matrix_exportSize (&np, &ni, &nx, f, A)) ;
    size_t ts = s->type_size ;
    Ap = malloc ((np + 1) * sizeof (GrB_Index)) ;
    Ai = malloc ((ni + 1) * sizeof (GrB_Index)) ;
    Ax = malloc ((nx + 1) * ts) ;
    if (Ap == NULL || Ai == NULL || Ax == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    GCU_TRY (typed_export (Ap, Ai, Ax, &np, &ni, &nx, f, A, s->type)) ;
    if (np != c->nvec + 1 || ni != c->nvals) GCU_TRY (GrB_PANIC) ;
    bool w32 = (c->idx_bits == 32) ;
    int nth = threads_for (o, (double) ni) ;
    gcu_export_put_ptr_all (c->ptr, w32, (const int64_t *) Ap, (int64_t) np, nth) ;
    gcu_export_put_ptr_all (c->idx, w32, (const int64_t *) Ai, (int64_t) ni, nth) ;
    if (c->iso || nx < ni) fill_iso (c, Ax, ts, nth) ;
    else gcu_export_par_copy (c->val, Ax, (size_t) ni * ts, nth) ;
    GCU_FREE_ALL ;
    #undef GCU_FREE_ALL
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// open, plan, fill
//------------------------------------------------------------------------------

void gcu_export_close (gcu_export_src *s)
{
    if (s == NULL) return ;
    if (s->it_ != NULL) GxB_Iterator_free (&s->it_) ;
    s->it_ = NULL ;
}

GrB_Info gcu_export_open (gcu_export_src *s, const void *obj, bool is_vector)
{
    if (s == NULL) return GrB_NULL_POINTER ;
    memset (s, 0, sizeof (*s)) ;
    if (obj == NULL) return GrB_NULL_POINTER ;
    s->obj_ = obj ;
    s->is_vector = is_vector ;
    GrB_Matrix A = (GrB_Matrix) obj ;
    GrB_Vector v = (GrB_Vector) obj ;
    #define GCU_FREE_ALL gcu_export_close (s)
    if (is_vector)
    {
        GCU_TRY (GxB_Vector_type (&s->type, v)) ;
        GCU_TRY (GrB_Vector_size (&s->nrows, v)) ;
        s->ncols = 1 ;
    }
    else
    {
        GCU_TRY (GxB_Matrix_type (&s->type, A)) ;
        GCU_TRY (GrB_Matrix_nrows (&s->nrows, A)) ;
        GCU_TRY (GrB_Matrix_ncols (&s->ncols, A)) ;
    }
    GCU_TRY (GxB_Type_size (&s->type_size, s->type)) ;
#if GCU_EXPORT_RAW
    if (!atomic_load (&force_portable))
    {
        GCU_TRY (GxB_Iterator_new (&s->it_)) ;
        // finishes pending work, if any; nothing else changes
        if (is_vector) GCU_TRY (GxB_Vector_Iterator_attach (s->it_, v, NULL)) ;
        else GCU_TRY (GxB_Matrix_Iterator_attach (s->it_, A, NULL)) ;
        const struct GB_Iterator_opaque *it = s->it_ ;
        s->sparsity = it->A_sparsity ;
        s->iso = it->iso ;
        s->by_col = it->by_col ;
        if (it->type_size != s->type_size) GCU_TRY (GrB_PANIC) ;
        switch (s->sparsity)
        {
            case GxB_SPARSE: s->nvals = (GrB_Index) it->Ap [it->avdim] ; break ;
            case GxB_HYPERSPARSE: s->nvals = (GrB_Index) it->Ap [it->anvec] ; break ;
            case GxB_FULL: s->nvals = (GrB_Index) (it->avlen * it->avdim) ; break ;
            default:
                if (is_vector) GCU_TRY (GrB_Vector_nvals (&s->nvals, v)) ;
                else GCU_TRY (GrB_Matrix_nvals (&s->nvals, A)) ;
                break ;
        }
        GrB_Index vlen = s->by_col ? s->nrows : s->ncols ;
        GrB_Index vdim = s->by_col ? s->ncols : s->nrows ;
        if ((GrB_Index) it->avlen != vlen || (GrB_Index) it->avdim != vdim)
            GCU_TRY (GrB_PANIC) ;
        return GrB_SUCCESS ;
    }
#endif
    // portable: the same facts through the API
    int32_t sp = 0, fmt = GxB_BY_ROW ;
    if (is_vector)
    {
        GCU_TRY (GrB_Vector_nvals (&s->nvals, v)) ;
        GCU_TRY (GxB_Vector_Option_get_INT32 (v, GxB_SPARSITY_STATUS, &sp)) ;
        GCU_TRY (GxB_Vector_iso (&s->iso, v)) ;
        fmt = GxB_BY_COL ;
    }
    else
    {
        GCU_TRY (GrB_Matrix_nvals (&s->nvals, A)) ;
        GCU_TRY (GxB_Matrix_Option_get_INT32 (A, GxB_SPARSITY_STATUS, &sp)) ;
        GCU_TRY (GxB_Matrix_Option_get_INT32 (A, GxB_FORMAT, &fmt)) ;
        GCU_TRY (GxB_Matrix_iso (&s->iso, A)) ;
    }
    s->sparsity = sp ;
    s->by_col = (fmt == GxB_BY_COL) ;
    #undef GCU_FREE_ALL
    return GrB_SUCCESS ;
}

static bool mul_ok (size_t a, size_t b, size_t *r)
{
    if (a != 0 && b > SIZE_MAX / a) return false ;
    *r = a * b ;
    return true ;
}

GrB_Info gcu_export_plan (const gcu_export_src *s, const gcu_export_opts *o,
    gcu_csr *c)
{
    if (s == NULL || c == NULL) return GrB_NULL_POINTER ;
    gcu_export_opts def = { GCU_EXPORT_CSR, 0, false, 0 } ;
    if (o == NULL) o = &def ;
    if (o->idx_bits != 0 && o->idx_bits != 32 && o->idx_bits != 64)
        return GrB_INVALID_VALUE ;
    memset (c, 0, sizeof (*c)) ;
    c->layout = o->layout ;
    c->nrows = s->nrows ;
    c->ncols = s->ncols ;
    c->nvals = s->nvals ;
    c->nvec = (o->layout == GCU_EXPORT_CSR) ? s->nrows : s->ncols ;
    c->type = s->type ;
    c->type_size = s->type_size ;
    c->iso = s->iso && s->nvals > 0 && !o->expand_iso ;
    bool fits = s->nrows <= INT32_MAX && s->ncols <= INT32_MAX
        && s->nvals <= INT32_MAX ;
    if (o->idx_bits == 32 && !fits) return GCU_NOT_HANDLED ;
    c->idx_bits = (o->idx_bits == 64 || !fits) ? 64 : 32 ;
    size_t w = (size_t) c->idx_bits / 8 ;
    if (c->nvec >= SIZE_MAX / 16 || c->nvals >= SIZE_MAX / 16
        || !mul_ok ((size_t) c->nvec + 1, w, &c->ptr_bytes)
        || !mul_ok ((size_t) c->nvals, w, &c->idx_bytes)
        || !mul_ok (c->iso ? 1 : (size_t) c->nvals, c->type_size, &c->val_bytes))
    {
        return GrB_OUT_OF_MEMORY ;
    }
    return GrB_SUCCESS ;
}

GrB_Info gcu_export_fill (const gcu_export_src *s, const gcu_export_opts *o,
    gcu_csr *c)
{
    if (s == NULL || c == NULL || c->ptr == NULL) return GrB_NULL_POINTER ;
    if (c->nvals > 0 && (c->idx == NULL || c->val == NULL)) return GrB_NULL_POINTER ;
    if (c->nvals == 0)
    {
        memset (c->ptr, 0, c->ptr_bytes) ;
        return GrB_SUCCESS ;
    }
#if GCU_EXPORT_RAW
    if (s->it_ != NULL) return fill_raw (s, o, c) ;
#endif
    return fill_portable (s, o, c) ;
}

GrB_Info gcu_export_dense (const gcu_export_src *s, const void **x)
{
    if (s == NULL || x == NULL) return GrB_NULL_POINTER ;
    *x = NULL ;
#if GCU_EXPORT_RAW
    if (s->it_ != NULL && s->sparsity == GxB_FULL)
    {
        *x = ((const struct GB_Iterator_opaque *) s->it_)->Ax ;
        return GrB_SUCCESS ;
    }
#endif
    return GCU_NOT_HANDLED ;
}

GrB_Info gcu_export_sparse_vector (const gcu_export_src *s, const int64_t **i, const void **x)
{
    if (s == NULL || i == NULL || x == NULL) return GrB_NULL_POINTER ;
    *i = NULL ;
    *x = NULL ;
#if GCU_EXPORT_RAW
    if (s->it_ != NULL && s->is_vector && s->sparsity == GxB_SPARSE && !s->iso)
    {
        const struct GB_Iterator_opaque *it = s->it_ ;
        *i = it->Ai + it->Ap [0] ;
        *x = (const char *) it->Ax + (size_t) it->Ap [0] * s->type_size ;
        return GrB_SUCCESS ;
    }
#endif
    return GCU_NOT_HANDLED ;
}

GrB_Info gcu_export_sparse_view (const gcu_export_src *s, gcu_csr *c)
{
    if (s == NULL || c == NULL) return GrB_NULL_POINTER ;
    memset (c, 0, sizeof (*c)) ;
#if GCU_EXPORT_RAW
    if (s->it_ != NULL && !s->is_vector && s->sparsity == GxB_SPARSE && s->nvals > 0)
    {
        const struct GB_Iterator_opaque *it = s->it_ ;
        const GrB_Index nvec = s->by_col ? s->ncols : s->nrows ;
        if ((GrB_Index) it->anvec != nvec || it->Ap [0] != 0 || (GrB_Index) it->Ap [nvec] != s->nvals)
            return GCU_NOT_HANDLED ;
        *c = (gcu_csr) { .layout = s->by_col ? GCU_EXPORT_CSC : GCU_EXPORT_CSR,
            .nrows = s->nrows, .ncols = s->ncols, .nvals = s->nvals, .nvec = nvec,
            .idx_bits = 64, .iso = s->iso, .type = s->type, .type_size = s->type_size,
            .ptr_bytes = (size_t) (nvec + 1) * sizeof (int64_t),
            .idx_bytes = (size_t) s->nvals * sizeof (int64_t),
            .val_bytes = (s->iso ? 1 : (size_t) s->nvals) * s->type_size,
            .ptr = (void *) it->Ap, .idx = (void *) it->Ai, .val = (void *) it->Ax } ;
        return GrB_SUCCESS ;
    }
#endif
    return GCU_NOT_HANDLED ;
}

void gcu_csr_free (gcu_csr *c)
{
    if (c == NULL) return ;
    free (c->ptr) ;
    free (c->idx) ;
    free (c->val) ;
    c->ptr = c->idx = c->val = NULL ;
}

GrB_Info gcu_export_csr_of (const gcu_export_src *s, const gcu_export_opts *o, gcu_csr *c)
{
    if (c == NULL) return GrB_NULL_POINTER ;
    memset (c, 0, sizeof (*c)) ;
    #define GCU_FREE_ALL gcu_csr_free (c)
    GCU_TRY (gcu_export_plan (s, o, c)) ;
    c->ptr = malloc (c->ptr_bytes ? c->ptr_bytes : 1) ;
    c->idx = malloc (c->idx_bytes ? c->idx_bytes : 1) ;
    c->val = malloc (c->val_bytes ? c->val_bytes : 1) ;
    if (c->ptr == NULL || c->idx == NULL || c->val == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    GCU_TRY (gcu_export_fill (s, o, c)) ;
    #undef GCU_FREE_ALL
    return GrB_SUCCESS ;
}

GrB_Info gcu_export_csr (const void *obj, bool is_vector,
    const gcu_export_opts *o, gcu_csr *c)
{
    if (c == NULL) return GrB_NULL_POINTER ;
    memset (c, 0, sizeof (*c)) ;
    gcu_export_src s ;
    GrB_Info info = gcu_export_open (&s, obj, is_vector) ;
    if (info == GrB_SUCCESS) info = gcu_export_csr_of (&s, o, c) ;
    gcu_export_close (&s) ;
    return info ;
}
