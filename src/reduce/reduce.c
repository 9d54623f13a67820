// reduce.c — GrB_Matrix_reduce and GrB_Vector_reduce to a scalar on the
// device, for an object whose newest value is on the device (DESIGN §3): a
// GrB_mxm result's CSR values (GCU_RES_LAYOUT_CSR), a GrB_mxv / GrB_vxm
// result's dense image (its values compacted first when it has holes) are
// reduced where they lie and one value comes back; the object is not
// downloaded and stays device newest.
//
// Two launches on the calling thread's stream: partial (a grid-stride loop,
// a (value, has-value) pair per block; at most 8 blocks a multiprocessor)
// and final (one block: the pairs, the cast to the output type, or the
// monoid's identity when A has no entries), then the value is copied back.
// Anything that is not exactly this case, and any device failure, returns
// GCU_NOT_HANDLED: the entry point then materializes A and calls SuiteSparse.
#include "gcu_reduce.h"
#include "../device/gcu_cuda.h"
#include "../device/gcu_device.h"
#include "../residency/gcu_residency.h"
#include "../vector/gcu_vector.h"
#include "gcu_util.h"
#include "grbcuda.h"
#include <string.h>

// why the call does not go to the device (NULL: it may)
static const char *refusal (const void *c, GrB_BinaryOp accum, GrB_Monoid monoid,
    const void *A)
{
    if (!gcu_residency_newest_nvals (A, NULL)) return "A not device newest" ;
    // (the common case costs one relaxed load: no object is device newest)
    // an argument error is SuiteSparse's to report
    if (c == NULL || monoid == NULL) return "c or monoid NULL" ;
    if (accum != NULL) return "accum given" ;
    if (gcu_mode () == GRBCUDA_MODE_HOST) return "mode host" ;
    // never start CUDA here: a device-newest value implies a started GPU
    if (!gcu_gpu_started () || !gcu_gpu_ready ()) return "GPU not started" ;
    return NULL ;
}

static size_t round16 (size_t x)
{
    return (x + 15) & ~(size_t) 15 ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL (void) gcu_sync (s) ; gcu_dfree (buf, s) ;

// the n values Ax (device, SR::TA) reduced as spec says into c (csize bytes,
// written only on success)
static GrB_Info run (const gcu_reduce_spec *spec, const void *Ax, uint64_t n,
    void *c, size_t csize)
{
    gcu_stream s = gcu_stream_default () ;
    void *buf = NULL ;
    void *fpart = NULL, *ffin = NULL ;
    const gcu_device_props *dev = gcu_device () ;
    int64_t grid = ((int64_t) n + GCU_REDUCE_THREADS - 1) / GCU_REDUCE_THREADS ;
    const int64_t cap = (int64_t) (dev != NULL ? dev->sm_count : 1) * GCU_REDUCE_BLOCKS_PER_SM ;
    if (grid > cap) grid = cap ;
    if (grid < 1) grid = 1 ;
    // one allocation: the blocks' values, their flags, the result
    const size_t off_has = round16 ((size_t) grid * spec->sr.add.op.z.size) ;
    const size_t off_out = round16 (off_has + (size_t) grid) ;
    GCU_TRY (gcu_dmalloc (&buf, off_out + 16, s)) ;
    // (after a runtime call: this thread has the device's context current,
    // which loading the kernels needs)
    GCU_TRY (gcu_reduce_kernels (spec, &fpart, &ffin)) ;
    char *part = buf ;
    gcu_reduce_args a = { .n = (int64_t) n, .nparts = grid, .Ax = Ax, .part = part,
        .part_has = (int8_t *) (part + off_has), .out = part + off_out } ;
    void *args [] = { &a } ;
    GCU_TRY (gcu_jit_launch (fpart, (unsigned) grid, GCU_REDUCE_THREADS, 0, s, args)) ;
    GCU_TRY (gcu_launch_check ("reduce partial")) ;
    GCU_TRY (gcu_jit_launch (ffin, 1, GCU_REDUCE_THREADS, 0, s, args)) ;
    GCU_TRY (gcu_launch_check ("reduce final")) ;
    unsigned char value [16] ;
    GCU_TRY (gcu_memcpy_d2h (value, a.out, csize, s)) ;     // synchronises
    gcu_dfree (buf, s) ;
    memcpy (c, value, csize) ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

// A's values on the device, contiguous (a matrix's CSR values; a vector's
// values, compacted when it has holes: *tmp); NULL, or why not. Each entry
// point looks only for its own kind of object's device value.
static const char *device_values (const void *A, bool vec, gcu_res_entry **e, const void **x,
    uint64_t *nvals, GrB_Type *type, size_t *tsize, void **tmp, gcu_stream s)
{
    if (vec)
    {
        // a GrB_mxv / GrB_vxm result
        if (gcu_vec_newest_values (A, e, x, nvals, type, tsize, tmp, s) == GrB_SUCCESS) return NULL ;
        return "no device image of the vector" ;
    }
    if (gcu_residency_lookup (A, GCU_RES_CSR, e) == GrB_SUCCESS)
    {
        // the GrB_mxm result's layout: values of d->type, one an entry
        const gcu_res_data *d = gcu_residency_data (*e) ;
        if (d->layout != GCU_RES_LAYOUT_CSR || d->iso || (d->nvals > 0 && d->nbuf < 3))
            return "device copy not a plain CSR" ;
        *x = d->nvals > 0 ? d->buf [2] : NULL ;
        *nvals = d->nvals ;
        *type = d->type ;
        *tsize = d->type_size ;
        return NULL ;
    }
    return "no device copy by row" ;
}

GrB_Info gcu_reduce_matrix_scalar (const char *name, void *c, int ccode,
    GrB_BinaryOp accum, GrB_Monoid monoid, const void *A, bool vec)
{
    const char *why = refusal (c, accum, monoid, A) ;
    const double t0 = why == NULL ? gcu_now () : 0 ;
    gcu_res_entry *e = NULL ;
    const void *x = NULL ;
    void *tmp = NULL ;
    uint64_t nvals = 0 ;
    GrB_Type atype = NULL ;
    size_t asize = 0 ;
    const gcu_stream s = gcu_stream_default () ;
    if (why == NULL && (ccode < 0 || ccode >= GCU_NTYPES)) why = "output type" ;
    if (why == NULL) why = device_values (A, vec, &e, &x, &nvals, &atype, &asize, &tmp, s) ;
    gcu_reduce_spec spec ;
    if (why == NULL && (gcu_reduce_spec_make (monoid, atype, *gcu_types [ccode].handle,
        &spec) != GrB_SUCCESS || spec.ops.a.size != asize))
        why = "monoid or types not handled by the JIT" ;
    GrB_Info info = GrB_SUCCESS ;
    if (why == NULL)
    {
        // in auto mode a kernel not compiled yet compiles in the background
        // and this call reads A on the host (a download and SuiteSparse's
        // reduce: a fraction of a millisecond against ~0.1 s of NVRTC)
        gcu_jit_defer_begin (gcu_mode () == GRBCUDA_MODE_AUTO && gcu_jit_background_enabled ()) ;
        info = run (&spec, nvals > 0 ? x : NULL, nvals, c, gcu_types [ccode].size) ;
        const bool deferred = gcu_jit_defer_end () ;
        if (info != GrB_SUCCESS)
        {
            why = deferred ? "kernel compiling in the background" : "device path failed or declined" ;
            if (deferred) info = GrB_SUCCESS ;
        }
    }
    // after the copy back: the kernels are done
    gcu_dfree (tmp, s) ;
    gcu_residency_unpin (e) ;
    if (why == NULL)
    {
        gcu_log ("%s: on the device (A newest, %llu entries), %.3f ms", name,
            (unsigned long long) nvals, 1e3 * (gcu_now () - t0)) ;
        return GrB_SUCCESS ;
    }
    if (info != GrB_SUCCESS) gcu_log ("%s: on the host (%s: info %d)", name, why, (int) info) ;
    else gcu_log ("%s: on the host (%s)", name, why) ;
    return GCU_NOT_HANDLED ;
}

GrB_Info gcu_reduce_matrix_gscalar (const char *name, GrB_Scalar s,
    GrB_BinaryOp accum, GrB_Monoid monoid, const void *A, bool vec)
{
    // the common case first: A not device newest costs one relaxed load
    uint64_t nvals = 0 ;
    if (!gcu_residency_newest_nvals (A, &nvals) || s == NULL || monoid == NULL
        || accum != NULL) return GCU_NOT_HANDLED ;
    GrB_Type stype = NULL ;
    if (GxB_Scalar_type (&stype, s) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    const gcu_type_info *ti = gcu_type_builtin (stype) ;
    const int code = (ti != NULL) ? (int) ti->code : -1 ;
    if (code < 0)
    {
        gcu_log ("%s: on the host (a GrB_Scalar of a user-defined type)", name) ;
        return GCU_NOT_HANDLED ;
    }
    if (nvals == 0)
    {
        // SuiteSparse (GB_Scalar_reduce): an empty A with no accum leaves s
        // empty, the monoid unread
        gcu_log ("%s: on the device (A newest, no entries: s cleared)", name) ;
        return GrB_Scalar_clear (s) ;
    }
    unsigned char v [16] ;
    GrB_Info info = gcu_reduce_matrix_scalar (name, v, code, NULL, monoid, A, vec) ;
    if (info != GrB_SUCCESS) return info ;
    return gcu_scalar_set_builtin (s, (gcu_type_code) code, v) ;
}
