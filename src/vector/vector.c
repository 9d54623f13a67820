// vector.c — GrB_Vectors on the device (gcu_vector.h): operand images
// through the residency cache, the device write-back w<M,replace> =
// accum (w, T) that leaves w device newest (in place where it can), and its
// materialization. The reads that answer from the device: vector_newest.c.
#include "gcu_vector.h"
#include "../residency/gcu_operand.h"
#include "../device/gcu_device.h"
#include "../device/gcu_staging.h"
#include "../export/gcu_export.h"
#include "../jit/gcu_jit.h"
#include "gcu_util.h"
#include "grbcuda.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// (the JIT's program in both builds: without CUDA it compiles nothing, but
// the code generation stays testable)

static const gcu_jit_writeback vmerge_jit =
{
    "#include \"common/gcu_semiring.cuh\"\n#include \"writeback/gcu_vmerge.cuh\"\n",
    "extern \"C\" __global__ void __launch_bounds__ (GCU_VEC_THREADS)\n"
    "%s (gcu_vmerge_args a)\n"
    "{\n"
    "    typedef %s_ns::SR SR ;\n"
    "    gcu_vmerge_kernel<gcu_merge_typed<SR> > (a) ;\n"
    "}\n",
    "gcu_wbv_", "vmerge", "vector write-back"
} ;

GrB_Info gcu_vec_merge_program (GrB_Type wtype, GrB_Type ttype, GrB_Type otype,
    GrB_BinaryOp accum, char **program, char *entry, char *label, size_t lsize)
{
    return gcu_jit_writeback_program (&vmerge_jit, wtype, ttype, otype, accum, program, entry,
        label, lsize) ;
}

GrB_Info gcu_vec_merge_kernel (GrB_Type wtype, GrB_Type ttype, GrB_Type otype,
    GrB_BinaryOp accum, void **fn)
{
    return gcu_jit_writeback_kernel (&vmerge_jit, wtype, ttype, otype, accum, fn) ;
}

GrB_Type gcu_vec_builtin_type (const void *v)
{
    GrB_Type t = NULL ;
    gcu_type_desc d ;
    if (v == NULL || GxB_Vector_type (&t, (GrB_Vector) v) != GrB_SUCCESS
        || gcu_type_identify (t, &d) != GrB_SUCCESS || d.code >= GCU_NTYPES || d.code == GCU_T_UDT)
        return NULL ;
    return t ;
}

bool gcu_vec_call_wb (const gcu_call *call, gcu_vec_wb *wb)
{
    bool structural, comp ;
    if (!gcu_mask_kind (call->desc, &structural, &comp)) return false ;
    *wb = (gcu_vec_wb) { (GrB_Vector) call->C, (GrB_Vector) call->M, structural, comp,
        call->replace, call->accum, { call->c_iso [0], call->c_iso [1] },
        { call->c_iso_value [0], call->c_iso_value [1] } } ;
    return true ;
}

bool gcu_vec_merge_applies (const gcu_vec_wb *wb, GrB_Type ztype)
{
    GrB_Type wtype = NULL, mtype = NULL ;
    gcu_type_desc mt ;
    if (!gcu_keep_results ()) return false ;
    if (GxB_Vector_type (&wtype, wb->w) != GrB_SUCCESS) return false ;
    // a valued mask of a user-defined type is not castable to bool:
    // SuiteSparse's to judge
    if (wb->M != NULL && (GxB_Vector_type (&mtype, wb->M) != GrB_SUCCESS
        || gcu_type_identify (mtype, &mt) != GrB_SUCCESS
        || (!wb->structural && mt.code == GCU_T_UDT))) return false ;
    return gcu_jit_writeback_expressible (wtype, ztype, wb->accum) ;
}

// write-backs done in place (gcu_vec_write_back), for the tests
static _Atomic uint64_t inplace_done = 0 ;

uint64_t gcu_vec_inplace_count (void)
{
    return atomic_load_explicit (&inplace_done, memory_order_relaxed) ;
}

#if GRBCUDA_HAVE_CUDA

//------------------------------------------------------------------------------
// operands
//------------------------------------------------------------------------------

void gcu_vec_release (gcu_vec *v, gcu_stream s)
{
    if (v->e_ != NULL) gcu_residency_unpin (v->e_) ;
    for (int k = 0 ; k < 2 ; k++) gcu_dfree (v->own_ [k], s) ;
    memset (v, 0, sizeof (*v)) ;
}

void gcu_vec_describe (const gcu_vec *v, const char *name, char *buf, size_t size)
{
    gcu_operand_how_describe (v->how, v->up_bytes, name, NULL, buf, size) ;
}

// what an image being built holds: a vector of length n, nvals entries,
// values of type t (size bytes)
static void describe_image (gcu_res_entry *e, GrB_Index n, uint64_t nvals, size_t size,
    GrB_Type t)
{
    gcu_res_data *d = gcu_residency_data (e) ;
    d->nrows = n ;
    d->ncols = 1 ;
    d->nvals = nvals ;
    d->idx_bits = 64 ;
    d->type_size = size ;
    d->type = t ;
    d->iso = false ;
    d->layout = GCU_VEC_LAYOUT ;
}

// d, an image of the vector: length n, values of usize bytes
static bool image_fits (const gcu_res_data *d, GrB_Index n, size_t usize)
{
    return d->layout == GCU_VEC_LAYOUT && d->nbuf == 2 && d->type_size == usize && d->nrows == n ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_residency_unpin (e) ; gcu_vec_release (v, s) ;

// a device-newest u: its dense image, or its entries compacted from it
static GrB_Info newest_get (GrB_Vector u, GrB_Index n, bool dense, size_t usize,
    gcu_vec *v, gcu_stream s)
{
    gcu_res_entry *e = NULL ;
    if (gcu_residency_lookup (u, GCU_RES_VECTOR_DENSE, &e) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    const gcu_res_data *d = gcu_residency_data (e) ;
    if (!image_fits (d, n, usize)) GCU_TRY (GCU_NOT_HANDLED) ;
    v->how = GCU_OPERAND_HIT ;
    v->nvals = d->nvals ;
    if (dense)
    {
        v->b = (d->nvals == n) ? NULL : d->buf [0] ;
        v->x = d->buf [1] ;
        v->e_ = e ;
        return GrB_SUCCESS ;
    }
    GCU_TRY (gcu_dmalloc (&v->own_ [0], (size_t) d->nvals * 8 + 16, s)) ;
    GCU_TRY (gcu_dmalloc (&v->own_ [1], (size_t) d->nvals * usize + 16, s)) ;
    int64_t cnt = 0 ;
    if (d->nvals == n)
    {
        // full: positions 0..n-1 from a presence of all ones
        GCU_TRY (gcu_memcpy_d2d (v->own_ [1], d->buf [1], (size_t) n * usize, s)) ;
        int8_t *ones = NULL ;
        GrB_Info info = gcu_dmalloc ((void **) &ones, (size_t) n + 16, s) ;
        if (info == GrB_SUCCESS) info = gcu_memset (ones, 1, (size_t) n, s) ;
        if (info == GrB_SUCCESS) info = gcu_vec_compact (ones, NULL, (int64_t) n, usize,
            (int64_t *) v->own_ [0], NULL, &cnt, s) ;
        gcu_dfree (ones, s) ;
        GCU_TRY (info) ;
    }
    else
    {
        // (the image's nvals is the count: nothing waits for the compaction)
        GCU_TRY (gcu_vec_compact ((const int8_t *) d->buf [0], d->buf [1], (int64_t) n, usize,
            (int64_t *) v->own_ [0], v->own_ [1], NULL, s)) ;
        cnt = (int64_t) d->nvals ;
    }
    if ((uint64_t) cnt != d->nvals) GCU_TRY (GrB_PANIC) ;
    v->b = v->own_ [0] ;
    v->x = v->own_ [1] ;
    gcu_residency_unpin (e) ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (di, s) ; gcu_dfree (dx, s) ;

// u's nv entries (ui: positions, ux: values of usize bytes) uploaded as they are
// and scattered on the device into u's dense image b, x of length n (the
// image a host-built one would be); *up the bytes uploaded
static GrB_Info upload_scattered (const int64_t *ui, const void *ux, GrB_Index nv,
    GrB_Index n, size_t usize, void *b, void *x, size_t *up, gcu_stream s)
{
    void *di = NULL, *dx = NULL ;
    const size_t ib = (size_t) nv * sizeof (int64_t), xb = (size_t) nv * usize ;
    GCU_TRY (gcu_dmalloc (&di, ib + 16, s)) ;
    GCU_TRY (gcu_dmalloc (&dx, xb + 16, s)) ;
    GCU_TRY (gcu_h2d_staged (di, ui, ib, 1, 1, s)) ;
    GCU_TRY (gcu_h2d_staged (dx, ux, xb, 1, 1, s)) ;
    GCU_TRY (gcu_vec_scatter ((const int64_t *) di, dx, (int64_t) nv, (int64_t) n, usize,
        (int8_t *) b, x, s)) ;
    GCU_FREE_ALL ;          // stream ordered: after the scatter
    *up = ib + xb ;
    return GrB_SUCCESS ;
}

// u's arrays as SuiteSparse holds them, read in place with no export. Held
// full, *x is u's dense image as it is (no presence bytes; *iso: one value
// for all, filled on the device; a dense image only: the entry list of a
// full u is not its storage). Held sparse (not iso), *i and *x are its
// entries. Neither (*x NULL): held otherwise (a bitmap's absent values are
// not the image's zeros), the export's raw view off, or an iso value wider
// than the device fill takes. src stays open while they are read.
static GrB_Info held_arrays (GrB_Vector u, GrB_Index n, size_t usize, bool dense,
    gcu_export_src *src, const int64_t **i, const void **x, bool *iso)
{
    *i = NULL ;
    *x = NULL ;
    *iso = false ;
    GrB_Info info = gcu_export_open (src, u, true) ;
    if (info != GrB_SUCCESS) return info ;
    if (src->type_size != usize || src->nrows != n) return GrB_PANIC ;
    if (gcu_export_sparse_vector (src, i, x) == GrB_SUCCESS) return GrB_SUCCESS ;
    const void *hx = NULL ;
    if (!dense || gcu_export_dense (src, &hx) != GrB_SUCCESS || (src->iso && usize > 16))
        return GrB_SUCCESS ;
    *x = hx ;
    *iso = src->iso ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL                                                    \
    gcu_csr_free (&c) ; free (hb) ; free (hx) ;                         \
    gcu_export_close (&hs) ;                                            \
    gcu_residency_unpin (e) ;                                           \
    gcu_vec_release (v, s) ;

GrB_Info gcu_vec_get (GrB_Vector u, GrB_Index n, bool dense, size_t usize,
    gcu_vec *v, gcu_stream s)
{
    gcu_csr c ;
    gcu_export_src hs ;
    int8_t *hb = NULL ;
    char *hx = NULL ;
    gcu_res_entry *e = NULL ;
    memset (&c, 0, sizeof (c)) ;
    memset (&hs, 0, sizeof (hs)) ;
    memset (v, 0, sizeof (*v)) ;
    // device newest: read where it is (the common case costs one load)
    if (gcu_residency_newest_nvals (u, NULL))
    {
        GrB_Info info = newest_get (u, n, dense, usize, v, s) ;
        if (info != GCU_NOT_HANDLED) return info ;
    }
    const int kind = dense ? GCU_RES_VECTOR_DENSE : GCU_RES_VECTOR_SPARSE ;
    GrB_Info info = gcu_residency_acquire (u, kind, &e) ;
    if (info == GrB_SUCCESS)
    {
        gcu_res_data *d = gcu_residency_data (e) ;
        if (image_fits (d, n, usize))
        {
            v->b = (dense && d->nvals == n) ? NULL : d->buf [0] ;
            v->x = d->buf [1] ;
            v->nvals = d->nvals ;
            v->how = GCU_OPERAND_HIT ;
            v->e_ = e ;
            return GrB_SUCCESS ;
        }
        gcu_residency_unpin (e) ;
        e = NULL ;
    }
    else if (info != GrB_NO_VALUE) e = NULL ;
    info = GrB_SUCCESS ;        // a miss (GrB_NO_VALUE) is not an error

    // miss: u held full or sparse is read where SuiteSparse holds it;
    // anything else comes out of SuiteSparse (never changed), 64-bit
    // indices, iso values expanded
    const double t0 = gcu_now () ;
    gcu_export_opts eo = { GCU_EXPORT_CSC, 64, true, 0 } ;
    GCU_TRY (gcu_residency_materialize (u, "a GPU call's vector operand")) ;
    const int64_t *ci = NULL ;
    const void *cx = NULL ;
    bool held_iso = false ;
    GCU_TRY (held_arrays (u, n, usize, dense, &hs, &ci, &cx, &held_iso)) ;
    const bool held = cx != NULL ;
    if (!held)
    {
        GCU_TRY (gcu_export_csr (u, true, &eo, &c)) ;
        if (c.type_size != usize || c.nrows != n) GCU_TRY (GrB_PANIC) ;
        ci = (const int64_t *) c.idx ;
        cx = c.val ;
    }
    const GrB_Index nv = held ? (ci != NULL ? hs.nvals : n) : c.nvals ;
    const bool full = nv == n ;
    // a dense image of u not full: u's entries scattered on the device when
    // they are fewer bytes than the image (a search's first frontier, one
    // entry of millions) or are SuiteSparse's own arrays, else the image
    // built here and uploaded whole
    const bool scatter = dense && !full && ((held && ci != NULL)
        || (double) nv * (double) (8 + usize) < (double) n * (double) (1 + usize)) ;
    const void *src [2] = { ci, cx } ;
    size_t bytes [2] = { nv * 8, nv * usize } ;
    if (dense)
    {
        bytes [0] = full ? 0 : n ;
        bytes [1] = n * usize ;
        if (!full && !scatter)
        {
            // scattered: a presence byte and a value per position
            hb = calloc (n + 1, 1) ;
            hx = calloc (n + 1, usize) ;
            if (hb == NULL || hx == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
            for (GrB_Index p = 0 ; p < nv ; p++)
            {
                hb [ci [p]] = 1 ;
                memcpy (hx + ci [p] * usize, (const char *) cx + p * usize, usize) ;
            }
            src [0] = hb ;
            src [1] = hx ;
        }
    }
    const double t1 = gcu_now () ;
    void *buf [2] = { NULL, NULL } ;
    if (e != NULL)
    {
        for (int k = 0 ; k < 2 && info == GrB_SUCCESS ; k++)
            info = gcu_residency_alloc (e, bytes [k] + 16, &buf [k]) ;
        if (info != GrB_SUCCESS)
        {
            gcu_log ("residency: no room for vector (%zu bytes, info %d); uploaded "
                "for this call only", bytes [0] + bytes [1], (int) info) ;
            gcu_residency_unpin (e) ;
            e = NULL ;
            info = GrB_SUCCESS ;
        }
    }
    if (e == NULL)
    {
        for (int k = 0 ; k < 2 ; k++)
        {
            GCU_TRY (gcu_dmalloc (&v->own_ [k], bytes [k] + 16, s)) ;
            buf [k] = v->own_ [k] ;
        }
    }
    size_t up = bytes [0] + bytes [1] ;
    if (scatter)
    {
        GCU_TRY (upload_scattered (ci, cx, nv, n, usize, buf [0], buf [1], &up, s)) ;
    }
    else
    {
        GCU_TRY (gcu_h2d_staged (buf [0], src [0], bytes [0], 1, 1, s)) ;
        if (held_iso)
        {
            GCU_TRY (gcu_vec_fill_launch (buf [1], (int64_t) n, cx, usize, s)) ;
            up = usize ;
        }
        else GCU_TRY (gcu_h2d_staged (buf [1], src [1], bytes [1], 1, 1, s)) ;
    }
    if (e != NULL)
    {
        describe_image (e, n, nv, usize, held ? hs.type : c.type) ;
        (void) gcu_residency_publish (e) ;
    }
    v->b = (dense && full) ? NULL : buf [0] ;
    v->x = buf [1] ;
    v->nvals = nv ;
    v->how = (e != NULL) ? GCU_OPERAND_MISS : GCU_OPERAND_PRIVATE ;
    v->e_ = e ;
    v->up_bytes = up ;
    v->export_s = t1 - t0 ;
    v->upload_s = gcu_now () - t1 ;
    gcu_residency_trip_up (u) ;         // a host value gone up (predict.c)
    gcu_csr_free (&c) ; free (hb) ; free (hx) ;
    gcu_export_close (&hs) ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// the mask and the write-back
//------------------------------------------------------------------------------

// the size of a vector's values
static GrB_Info type_of (GrB_Vector v, GrB_Type *t, size_t *size)
{
    gcu_type_desc d ;
    GrB_Info info = GxB_Vector_type (t, v) ;
    if (info == GrB_SUCCESS) info = gcu_type_identify (*t, &d) ;
    if (info == GrB_SUCCESS) *size = d.size ;
    return info ;
}

// the mask's part of the kernels' arguments (M's image in cm)
static GrB_Info mask_args (const gcu_vec_wb *wb, GrB_Index n, gcu_vmerge_args *a,
    gcu_vec *cm, gcu_stream s)
{
    a->v.structural = wb->structural ;
    a->v.complement = wb->complement ;
    a->mask = wb->M != NULL ;
    if (wb->M == NULL) return GrB_SUCCESS ;
    GrB_Type mt ;
    size_t msize ;
    GrB_Info info = type_of (wb->M, &mt, &msize) ;
    if (info != GrB_SUCCESS) return info ;
    info = gcu_vec_get (wb->M, n, true, msize, cm, s) ;
    if (info != GrB_SUCCESS) return info ;
    a->Mb = (const int8_t *) cm->b ;
    a->v.Mx = cm->x ;
    a->v.msize = msize ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_vec_release (&cm, s) ; gcu_dfree (cnt, s) ; gcu_dfree (*allow, s) ; *allow = NULL ;

GrB_Info gcu_vec_allow (const gcu_vec_wb *wb, GrB_Index n, int8_t **allow,
    GrB_Index *nallow, size_t *up_bytes, gcu_stream s)
{
    gcu_vec cm ;
    gcu_vmerge_args a ;
    unsigned long long *cnt = NULL, hcnt = 0 ;
    memset (&cm, 0, sizeof (cm)) ;
    memset (&a, 0, sizeof (a)) ;
    *allow = NULL ;
    GCU_TRY (mask_args (wb, n, &a, &cm, s)) ;
    *up_bytes = cm.up_bytes ;
    a.v.m = (int64_t) n ;
    GCU_TRY (gcu_dmalloc ((void **) allow, (size_t) n + 16, s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &cnt, sizeof (*cnt), s)) ;
    GCU_TRY (gcu_memset (cnt, 0, sizeof (*cnt), s)) ;
    a.count = cnt ;
    GCU_TRY (gcu_vec_allow_launch (&a, *allow, s)) ;
    GrB_Index mn = 0 ;
    if (wb->structural && GrB_Vector_nvals (&mn, wb->M) == GrB_SUCCESS && mn <= n)
    {
        // a structural mask allows its entries (or the others): nothing waits
        *nallow = wb->complement ? n - mn : mn ;
    }
    else
    {
        GCU_TRY (gcu_memcpy_d2h (&hcnt, cnt, sizeof (hcnt), s)) ;    // synchronises
        *nallow = (GrB_Index) hcnt ;
    }
    gcu_vec_release (&cm, s) ;
    gcu_dfree (cnt, s) ;
    return GrB_SUCCESS ;
}

// w = T (positions Ti, values Tx: arrays from gcu_host_malloc, NULL once
// they are w's): w's old content goes, and w takes the storage SuiteSparse
// would give a result of its own (a pack leaves w sparse; setting the
// sparsity control again conforms it)
GrB_Info gcu_vec_pack (GrB_Vector w, GrB_Index **Ti, void **Tx, GrB_Index nvals,
    size_t zsize, bool iso)
{
    int control = GxB_AUTO_SPARSITY ;
    GrB_Info info = GxB_Vector_Option_get (w, GxB_SPARSITY_CONTROL, &control) ;
    if (info == GrB_SUCCESS) info = GrB_Vector_clear (w) ;
    if (info == GrB_SUCCESS)
        info = GxB_Vector_pack_CSC (w, Ti, Tx, (nvals + 1) * sizeof (GrB_Index),
            (nvals + 1) * zsize, iso, nvals, false, NULL) ;
    if (info == GrB_SUCCESS) info = GxB_Vector_Option_set (w, GxB_SPARSITY_CONTROL, control) ;
    return info ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_host_free (Wb) ; gcu_host_free (Wx) ;

// Writes a device-newest vector (its dense image) into its SuiteSparse
// object, as a bitmap (or full) vector: the image comes back as it is. A
// bitmap or full pack allocates nothing once it has freed the object's old
// content, so a failure (out of host memory) leaves the object valid (its
// stale value; the device copy stays newest): a sparse pack allocates the
// vector's pointers after freeing, and SuiteSparse 7.4 then leaves the
// object invalid (LAGraph's brutal-memory tests on the H200). Setting the
// sparsity control again conforms it as SuiteSparse conforms its results.
static GrB_Info materialize_run (const void *handle, gcu_res_entry *e)
{
    const gcu_res_data *d = gcu_residency_data (e) ;
    const GrB_Index n = d->nrows, nv = d->nvals ;
    const size_t z = d->type_size ;
    const bool full = nv == n ;
    const gcu_stream s = gcu_stream_default () ;
    GrB_Vector w = (GrB_Vector) handle ;
    int8_t *Wb = full ? NULL : gcu_host_malloc (n + 1) ;
    void *Wx = gcu_host_malloc ((n + 1) * z) ;
    if ((!full && Wb == NULL) || Wx == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    int control = GxB_AUTO_SPARSITY ;
    GCU_TRY (GxB_Vector_Option_get (w, GxB_SPARSITY_CONTROL, &control)) ;
    const double t0 = gcu_now () ;
    // (iso as SuiteSparse would have it: its value, none downloaded)
    const bool iso = d->suite_iso && z <= sizeof (d->suite_value) ;
    const gcu_d2h_seg seg [2] = {
        { Wb, d->buf [0], full ? 0 : (size_t) n, 1, 1 },
        { Wx, d->buf [1], iso ? 0 : (size_t) n * z, 1, 1 } } ;
    if (iso) memcpy (Wx, d->suite_value, z) ;
    GCU_TRY (gcu_d2h_staged_segs (seg, 2, s)) ;
    const double t1 = gcu_now () ;
    GrB_Info info = full
        ? GxB_Vector_pack_Full (w, &Wx, (n + 1) * z, iso, NULL)
        : GxB_Vector_pack_Bitmap (w, &Wb, &Wx, n + 1, (n + 1) * z, iso, nv, NULL) ;
    if (info == GrB_SUCCESS) info = GxB_Vector_Option_set (w, GxB_SPARSITY_CONTROL, control) ;
    gcu_log ("residency: vector %p: length %llu, %llu entries: download %.3f ms, into "
        "SuiteSparse %.3f ms", handle, (unsigned long long) n, (unsigned long long) nv,
        1e3 * (t1 - t0), 1e3 * (gcu_now () - t1)) ;
    GCU_FREE_ALL ;          // NULL once packed
    return info ;
}

static GrB_Info materialize_vec (const void *handle, gcu_res_entry *e)
{
    // a device failure is an allocation the host could not make happen
    GrB_Info info = materialize_run (handle, e) ;
    return (info == GrB_PANIC) ? GrB_OUT_OF_MEMORY : info ;
}

// GRBCUDA_VEC_INPLACE=0 switches the write-back in place off (every
// write-back then builds a new image), GRBCUDA_VMERGE_WORDS=0 its words of
// false mask verdicts taken at once (gcu_vmerge_tiles): measurements; read
// once
static bool inplace_off = false, words_off = false ;
static pthread_once_t inplace_once = PTHREAD_ONCE_INIT ;
static void inplace_read (void)
{
    const char *v = getenv ("GRBCUDA_VEC_INPLACE") ;
    inplace_off = v != NULL && strcmp (v, "0") == 0 ;
    v = getenv ("GRBCUDA_VMERGE_WORDS") ;
    words_off = v != NULL && strcmp (v, "0") == 0 ;
}

// w's dense image claimed for the write-back in place (*e pinned): w device
// newest, the image its only copy and no one else's (no other pin: not the
// call's T or mask), its presence bytes all there (a newest image is a
// write-back's, which writes every position). False: a new image is built.
static bool inplace_claim (GrB_Vector w, GrB_Index n, size_t csize, gcu_res_entry **e)
{
    *e = NULL ;
    pthread_once (&inplace_once, inplace_read) ;
    if (inplace_off || !gcu_residency_newest_nvals (w, NULL)) return false ;
    if (gcu_residency_lookup (w, GCU_RES_VECTOR_DENSE, e) != GrB_SUCCESS)
    {
        *e = NULL ;
        return false ;
    }
    const gcu_res_data *d = gcu_residency_data (*e) ;
    if (image_fits (d, n, csize) && !d->iso && d->bytes [0] >= n
        && gcu_residency_newest_claim (*e) == GrB_SUCCESS) return true ;
    gcu_residency_unpin (*e) ;
    *e = NULL ;
    return false ;
}

// the typed merge kernel of w's write-back (*typed; NULL where the untyped
// one copies T's values: no accum, w of T's type)
static GrB_Info merge_typed (const gcu_vec_wb *wb, GrB_Type wtype, GrB_Type ztype, void **typed)
{
    *typed = NULL ;
    if (wb->accum == NULL && wtype == ztype) return GrB_SUCCESS ;
    return gcu_vec_merge_kernel (wtype, ztype, NULL, wb->accum, typed) ;
}

GrB_Info gcu_vec_write_back_kernel (const gcu_vec_wb *wb, GrB_Type ztype)
{
    GrB_Type wtype ;
    void *typed ;
    const GrB_Info info = GxB_Vector_type (&wtype, wb->w) ;
    return info != GrB_SUCCESS ? info : merge_typed (wb, wtype, ztype, &typed) ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_vec_release (&cw, s) ; gcu_vec_release (&cm, s) ;    \
    gcu_dfree (cnt, s) ; gcu_residency_unpin (e) ;

// The write-back builds w's result as a new dense image, published as w's
// newest value once complete; or, where w's kept values are read (the new
// image would copy them all: a BFS's level<q> = k and parent<q> = q, whose
// frontier q changes a few of millions) and w is device newest with an image
// no one else holds, changes that image in place (inplace_claim; the
// kernel writes only what changes, gcu_vmerge_at), its entry count updated.

GrB_Info gcu_vec_write_back (const gcu_vec_wb *wb, GrB_Type ztype, size_t zsize,
    GrB_Index n, const int8_t *Tb, const void *Tx, GrB_Index *nvals,
    size_t *up_bytes, gcu_stream s)
{
    gcu_vec cw, cm ;
    gcu_vmerge_args a ;
    gcu_res_entry *e = NULL ;
    unsigned long long *cnt = NULL, hcnt = 0 ;
    void *typed = NULL ;
    memset (&cw, 0, sizeof (cw)) ;
    memset (&cm, 0, sizeof (cm)) ;
    memset (&a, 0, sizeof (a)) ;
    *nvals = 0 ;
    *up_bytes = 0 ;
    GrB_Type wtype ;
    size_t csize ;
    GCU_TRY (type_of (wb->w, &wtype, &csize)) ;
    GCU_TRY (merge_typed (wb, wtype, ztype, &typed)) ;
    // w's values are read where the mask's verdict is true with an accum,
    // or false without GrB_REPLACE (no mask: true, or false if complemented)
    const bool may_false = wb->M != NULL || wb->complement ;
    const bool need_w = wb->accum != NULL || (may_false && !wb->replace) ;
    // (the mask first: its pin on w's image, when w is the mask, keeps the
    // write-back from going in place)
    GCU_TRY (mask_args (wb, n, &a, &cm, s)) ;
    void *Ob = NULL, *Ox = NULL ;
    const bool inplace = need_w && inplace_claim (wb->w, n, csize, &e) ;
    if (inplace)
    {
        const gcu_res_data *d = gcu_residency_data (e) ;
        Ob = d->buf [0] ;
        Ox = d->buf [1] ;
        a.Cb = (const int8_t *) Ob ;
        a.v.Cx = Ox ;
    }
    else
    {
        GrB_Index wn = 0 ;
        if (need_w) GCU_TRY (GrB_Vector_nvals (&wn, wb->w)) ;
        if (need_w && wn > 0)
        {
            GCU_TRY (gcu_vec_get (wb->w, n, true, csize, &cw, s)) ;
            a.v.Cx = cw.x ;
            a.Cb = (const int8_t *) cw.b ;
        }
        // the result: a new dense image of w, its newest value once complete
        if (gcu_residency_begin (wb->w, GCU_RES_VECTOR_DENSE, &e) != GrB_SUCCESS) e = NULL ;
        if (e == NULL || gcu_residency_alloc (e, (size_t) n + 16, &Ob) != GrB_SUCCESS
            || gcu_residency_alloc (e, (size_t) n * csize + 16, &Ox) != GrB_SUCCESS)
            GCU_TRY (GCU_NOT_HANDLED) ;
    }
    *up_bytes = cw.up_bytes + cm.up_bytes ;
    GCU_TRY (gcu_dmalloc ((void **) &cnt, sizeof (*cnt), s)) ;
    GCU_TRY (gcu_memset (cnt, 0, sizeof (*cnt), s)) ;
    a.v.m = (int64_t) n ;
    a.v.csize = csize ;
    a.v.tsize = zsize ;
    a.v.replace = wb->replace ;
    a.v.accum = wb->accum != NULL ;
    a.v.Tx = Tx ;
    a.Tb = Tb ;
    a.Ob = (int8_t *) Ob ;
    a.Ox = Ox ;
    a.count = cnt ;
    pthread_once (&inplace_once, inplace_read) ;
    a.words = !words_off ;
    GCU_TRY (gcu_vec_merge_launch (&a, typed, s)) ;
    GCU_TRY (gcu_memcpy_d2h (&hcnt, cnt, sizeof (hcnt), s)) ;    // synchronises
    if (inplace)
    {
        gcu_residency_newest_set_nvals (e, hcnt) ;
        atomic_fetch_add_explicit (&inplace_done, 1, memory_order_relaxed) ;
    }
    else describe_image (e, n, hcnt, csize, wtype) ;
    // the status SuiteSparse gives the result (its value of w's type)
    gcu_res_data *dr = gcu_residency_data (e) ;
    dr->suite_iso = wb->iso [hcnt > 0] == 1 && csize <= sizeof (dr->suite_value) ;
    if (dr->suite_iso) memcpy (dr->suite_value, wb->iso_value, csize) ;
    if (!inplace)
    {
        // w's old images (cw among them) go: pinned ones at their last unpin
        GCU_TRY (gcu_residency_publish_newest (e, materialize_vec)) ;
    }
    *nvals = (GrB_Index) hcnt ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

#else

void gcu_vec_release (gcu_vec *v, gcu_stream s) { (void) s ; memset (v, 0, sizeof (*v)) ; }

#endif
