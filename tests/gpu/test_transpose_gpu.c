// GRBCUDA_TEST_INTERNAL
// test_transpose_gpu.c — a matrix's other orientation built on the device
// from the one there (src/residency/transpose.cu, gcu_operand_get's miss
// path; issue 20), against SuiteSparse's own export of that orientation:
//  (a) gcu_transpose_csr alone, for each pair of index widths (4 or 8 bytes
//      in, 4 or 8 out), both ways (CSR to CSC and CSC to CSR): pointers,
//      indices and values downloaded and compared element by element, the
//      values byte for byte;
//  (b) gcu_operand_get: one orientation (exported), then the other (built
//      on the device, counted by gcu_operand_built), compared with the host
//      export at the width the host path would use, and a hit the next time;
//      also with 64-bit indices forced; with GRBCUDA_DEVICE_TRANSPOSE off
//      (gcu_device_transpose_set) nothing is built; a device newest matrix
//      (a GrB_mxm result left on the device) is built from its newest value
//      and stays device newest (not written back to be exported); a miss
//      of the orientation A is not held in, with neither there, uploads A
//      as held (found again after) and builds the wanted one from it
//      (gcu_operand_via_held_min; off in the other cases);
//  over bool, int32, fp64, fc64 and user-defined types of 12 and 3 bytes,
//  iso and not, with empty rows and columns, rectangular, empty, a single
//  entry, hypersparse and by-column sources;
//  (c) GrB_vxm then GrB_mxv on one matrix (push: rows, then columns) and
//      the other way round, the second call's orientation built on the
//      device, both answers compared with SuiteSparse;
//  (d) fault injection: each counted device operation of a build fails in
//      turn; the operand still comes (exported), right, and no device
//      memory is left behind.
// Argument: "quick" runs fewer cases (compute-sanitizer). Skips (exit 77)
// where no GPU is usable.
#include "gcu_test.h"
#include "grbcuda.h"
#include "gcu_util.h"
#include <stdlib.h>
#include <string.h>

#if GRBCUDA_HAVE_CUDA

#include "device/gcu_cuda.h"
#include "export/gcu_export.h"
#include "mxv/gcu_mxv.h"
#include "residency/gcu_operand.h"
#include "residency/gcu_residency.h"
#include "residency/gcu_transpose.h"

typedef GrB_Info (*mxv_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Vector, const GrB_Descriptor) ;
typedef GrB_Info (*vxm_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Vector, const GrB_Matrix, const GrB_Descriptor) ;
static mxv_t real_mxv ;
static vxm_t real_vxm ;

static GrB_Type T12, T3 ;       // user-defined types of 12 and 3 bytes

//------------------------------------------------------------------------------
// matrices
//------------------------------------------------------------------------------

typedef struct
{
    const char *name ;
    GrB_Index m, n, nt ;    // dimensions; entries drawn (duplicates dropped)
    int storage ;           // 0 as SuiteSparse likes, 1 hypersparse, 2 by column,
                            // 3 hypersparse by column
}
shape_t ;

static const shape_t shapes [] =
{
    { "1x1", 1, 1, 1 },
    { "empty 7x5", 7, 5, 0 },
    { "rect 50x3000", 50, 3000, 2000 },
    { "rect 3000x40", 3000, 40, 2500 },
    { "square 1000", 1000, 1000, 6000 },
    { "dense-ish 60x70", 60, 70, 3000 },
    { "hyper 200000x90", 200000, 90, 60 },
    { "hyper 80x150000 by col", 80, 150000, 70 },
    { "by col 500x700", 500, 700, 4000 },
    { "rows 40000x300", 40000, 300, 200000 },
} ;
static const int storage_of [] = { 0, 0, 0, 2, 0, 0, 1, 3, 2, 0 } ;

// s = the value v (bytes of s's type t): GrB_Scalar_setElement_UDT takes
// user-defined types only
static GrB_Info scalar_set (GrB_Scalar s, GrB_Type t, const unsigned char *v)
{
    if (t == GrB_BOOL) return GrB_Scalar_setElement_BOOL (s, v [0] & 1) ;
    if (t == GrB_INT32) { int32_t x ; memcpy (&x, v, 4) ; return GrB_Scalar_setElement_INT32 (s, x) ; }
    if (t == GrB_FP64) { double x ; memcpy (&x, v, 8) ; return GrB_Scalar_setElement_FP64 (s, x) ; }
    if (t == GxB_FC64) { GxB_FC64_t x ; memcpy (&x, v, 16) ; return GxB_Scalar_setElement_FC64 (s, x) ; }
    return GrB_Scalar_setElement_UDT (s, (void *) v) ;
}

static int cmp_u64 (const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b ;
    return x < y ? -1 : x > y ;
}

// A random m-by-n matrix of type t (tsize bytes) with at most nt entries,
// iso or not, stored as storage says; bool values 0 or 1, others random bytes.
static GrB_Matrix make (GrB_Type t, size_t tsize, GrB_Index m, GrB_Index n, GrB_Index nt,
    bool iso, int storage, uint64_t *st)
{
    GrB_Matrix A = NULL ;
    OK (GrB_Matrix_new (&A, t, m, n)) ;
    if (storage & 1) OK (GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, GxB_HYPERSPARSE)) ;
    if (storage & 2) OK (GxB_Matrix_Option_set (A, GxB_FORMAT, GxB_BY_COL)) ;
    uint64_t *key = malloc ((nt + 1) * sizeof (uint64_t)) ;
    for (GrB_Index k = 0 ; k < nt ; k++)
    {
        // (i, j) as one key, with a denser band of rows so some are long
        GrB_Index i = gcu_rand (st) % m, j = gcu_rand (st) % n ;
        if (k % 3 == 0) i = i % (m < 7 ? m : 7) ;
        key [k] = i * n + j ;
    }
    qsort (key, nt, sizeof (uint64_t), cmp_u64) ;
    GrB_Index ne = 0 ;
    for (GrB_Index k = 0 ; k < nt ; k++) if (ne == 0 || key [k] != key [ne - 1]) key [ne++] = key [k] ;
    GrB_Index *I = malloc ((ne + 1) * sizeof (GrB_Index)), *J = malloc ((ne + 1) * sizeof (GrB_Index)) ;
    unsigned char *X = malloc ((ne + 1) * tsize) ;
    for (GrB_Index k = 0 ; k < ne ; k++)
    {
        I [k] = key [k] / n ;
        J [k] = key [k] % n ;
        for (size_t b = 0 ; b < tsize ; b++) X [k * tsize + b] = (unsigned char) gcu_rand (st) ;
        if (t == GrB_BOOL) X [k] &= 1 ;
    }
    if (iso)
    {
        GrB_Scalar s = NULL ;
        OK (GrB_Scalar_new (&s, t)) ;
        unsigned char v [16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 } ;
        OK (scalar_set (s, t, v)) ;
        OK (GxB_Matrix_build_Scalar (A, I, J, s, ne)) ;
        GrB_Scalar_free (&s) ;
    }
    else OK (GrB_Matrix_build_UDT (A, I, J, X, ne, NULL)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    free (key) ; free (I) ; free (J) ; free (X) ;
    return A ;
}

//------------------------------------------------------------------------------
// comparing a device CSR with the host export
//------------------------------------------------------------------------------

static uint64_t get_idx (const void *a, int w, size_t k)
{
    if (w == 4) return ((const uint32_t *) a) [k] ;
    return ((const uint64_t *) a) [k] ;
}

// The host export of A by row or by column, 64-bit.
static bool export64 (GrB_Matrix A, bool by_col, gcu_csr *c)
{
    gcu_export_opts eo = { by_col ? GCU_EXPORT_CSC : GCU_EXPORT_CSR, 64, false, 0 } ;
    GrB_Info info = gcu_export_csr (A, false, &eo, c) ;
    CHECK (info == GrB_SUCCESS, "export: info %d", (int) info) ;
    return info == GrB_SUCCESS ;
}

// Device arrays p, j (w bytes each) and x against the export c: counts
// element by element, values byte for byte.
static bool same_csr (const gcu_csr *c, const void *p, const void *j, const void *x, int w,
    bool iso, const char *what)
{
    gcu_stream s = gcu_stream_default () ;
    const size_t np = c->nvec + 1, nv = c->nvals ;
    const size_t vb = c->iso ? c->type_size : nv * c->type_size ;
    void *hp = malloc (np * w + 8), *hj = malloc (nv * w + 8), *hx = malloc (vb + 16) ;
    bool ok = gcu_memcpy_d2h (hp, p, np * w, s) == GrB_SUCCESS
        && gcu_memcpy_d2h (hj, j, nv * w, s) == GrB_SUCCESS
        && gcu_memcpy_d2h (hx, x, vb, s) == GrB_SUCCESS && gcu_sync (s) == GrB_SUCCESS ;
    CHECK (ok, "%s: download failed", what) ;
    CHECK (iso == c->iso, "%s: iso %d, the export's %d", what, (int) iso, (int) c->iso) ;
    size_t bad = 0 ;
    for (size_t k = 0 ; ok && k < np ; k++)
    {
        if (get_idx (hp, w, k) != (uint64_t) ((const int64_t *) c->ptr) [k] && bad++ < 3)
            fprintf (stderr, "%s: p [%zu] = %llu, the export's %lld\n", what, k,
                (unsigned long long) get_idx (hp, w, k), (long long) ((const int64_t *) c->ptr) [k]) ;
    }
    for (size_t k = 0 ; ok && k < nv ; k++)
    {
        if (get_idx (hj, w, k) != (uint64_t) ((const int64_t *) c->idx) [k] && bad++ < 6)
            fprintf (stderr, "%s: j [%zu] = %llu, the export's %lld\n", what, k,
                (unsigned long long) get_idx (hj, w, k), (long long) ((const int64_t *) c->idx) [k]) ;
    }
    if (ok && memcmp (hx, c->val, vb) != 0)
    {
        bad++ ;
        fprintf (stderr, "%s: values differ\n", what) ;
    }
    CHECK (ok && bad == 0, "%s: %zu differences from the host export", what, bad) ;
    free (hp) ; free (hj) ; free (hx) ;
    return ok && bad == 0 ;
}

// The export c on the device with indices of w bytes (private buffers).
static bool upload (const gcu_csr *c, int w, void *buf [3])
{
    gcu_stream s = gcu_stream_default () ;
    const size_t np = c->nvec + 1, nv = c->nvals ;
    const size_t vb = c->iso ? c->type_size : nv * c->type_size ;
    void *hp = malloc (np * w + 8), *hj = malloc (nv * w + 8) ;
    for (size_t k = 0 ; k < np ; k++)
    {
        const uint64_t v = (uint64_t) ((const int64_t *) c->ptr) [k] ;
        if (w == 4) ((uint32_t *) hp) [k] = (uint32_t) v ; else ((uint64_t *) hp) [k] = v ;
    }
    for (size_t k = 0 ; k < nv ; k++)
    {
        const uint64_t v = (uint64_t) ((const int64_t *) c->idx) [k] ;
        if (w == 4) ((uint32_t *) hj) [k] = (uint32_t) v ; else ((uint64_t *) hj) [k] = v ;
    }
    bool ok = gcu_dmalloc (&buf [0], np * w + 8, s) == GrB_SUCCESS
        && gcu_dmalloc (&buf [1], nv * w + 8, s) == GrB_SUCCESS
        && gcu_dmalloc (&buf [2], vb + 16, s) == GrB_SUCCESS
        && gcu_memcpy_h2d (buf [0], hp, np * w, s) == GrB_SUCCESS
        && gcu_memcpy_h2d (buf [1], hj, nv * w, s) == GrB_SUCCESS
        && gcu_memcpy_h2d (buf [2], c->val, vb, s) == GrB_SUCCESS
        && gcu_sync (s) == GrB_SUCCESS ;
    CHECK (ok, "upload failed") ;
    free (hp) ; free (hj) ;
    return ok ;
}

//------------------------------------------------------------------------------
// (a) gcu_transpose_csr, every pair of widths, both ways
//------------------------------------------------------------------------------

static void kernel_case (GrB_Matrix A, const char *what)
{
    gcu_stream s = gcu_stream_default () ;
    gcu_csr c [2] ;
    memset (c, 0, sizeof (c)) ;
    if (!export64 (A, false, &c [0]) || !export64 (A, true, &c [1]))
    {
        gcu_csr_free (&c [0]) ; gcu_csr_free (&c [1]) ;
        return ;
    }
    for (int from = 0 ; from < 2 ; from++)
        for (int iw = 4 ; iw <= 8 ; iw += 4)
            for (int ow = 4 ; ow <= 8 ; ow += 4)
            {
                const gcu_csr *in = &c [from], *out = &c [1 - from] ;
                void *ib [3] = { NULL, NULL, NULL }, *ob [3] = { NULL, NULL, NULL } ;
                char w [200] ;
                snprintf (w, sizeof (w), "%s: transpose of the %s, widths %d -> %d", what,
                    from ? "CSC" : "CSR", iw, ow) ;
                const size_t vb = in->iso ? in->type_size : in->nvals * in->type_size ;
                bool ok = upload (in, iw, ib)
                    && gcu_dmalloc (&ob [0], (out->nvec + 1) * ow + 8, s) == GrB_SUCCESS
                    && gcu_dmalloc (&ob [1], out->nvals * ow + 8, s) == GrB_SUCCESS
                    && gcu_dmalloc (&ob [2], vb + 16, s) == GrB_SUCCESS ;
                if (ok)
                {
                    const gcu_dev_csr d = { ib [0], ib [1], ib [2], iw, in->nvec, out->nvec,
                        in->nvals, in->type_size, in->iso } ;
                    GrB_Info info = gcu_transpose_csr (&d, ow, ob [0], ob [1], ob [2], s) ;
                    CHECK (info == GrB_SUCCESS, "%s: info %d", w, (int) info) ;
                    if (info == GrB_SUCCESS) same_csr (out, ob [0], ob [1], ob [2], ow, in->iso, w) ;
                }
                for (int k = 0 ; k < 3 ; k++) { gcu_dfree (ib [k], s) ; gcu_dfree (ob [k], s) ; }
            }
    gcu_csr_free (&c [0]) ; gcu_csr_free (&c [1]) ;
}

//------------------------------------------------------------------------------
// (b) gcu_operand_get: the second orientation built on the device
//------------------------------------------------------------------------------

// The width the host path gives a copy of this export (operand.c's rule).
static int host_width (const gcu_csr *c, bool idx64)
{
    const GrB_Index inner = c->layout == GCU_EXPORT_CSR ? c->ncols : c->nrows ;
    const GrB_Index lim = (GrB_Index) 1 << 32 ;
    return (idx64 || c->nvals >= lim || inner >= lim) ? 8 : 4 ;
}

// o's copy against the host's export of A in that orientation
static void same_as_host (GrB_Matrix A, bool by_col, const gcu_operand *o, const char *w)
{
    gcu_csr c ;
    memset (&c, 0, sizeof (c)) ;
    if (export64 (A, by_col, &c)) same_csr (&c, o->p, o->j, o->x, o->idx64 ? 8 : 4, o->iso, w) ;
    gcu_csr_free (&c) ;
}

// the cache emptied: the device's memory back where it was
static void all_freed (int64_t base, const char *w)
{
    gcu_residency_clear_all () ;
    gcu_sync (gcu_stream_default ()) ;
    CHECK (gcu_device_bytes_in_use () == base, "%s: device memory %lld bytes, was %lld", w,
        (long long) gcu_device_bytes_in_use (), (long long) base) ;
}

static void operand_case (GrB_Matrix A, size_t tsize, bool first_by_col, bool idx64,
    const char *what)
{
    gcu_stream s = gcu_stream_default () ;
    char w [200] ;
    snprintf (w, sizeof (w), "%s: %s then %s%s", what, first_by_col ? "CSC" : "CSR",
        first_by_col ? "CSR" : "CSC", idx64 ? ", 64-bit" : "") ;
    gcu_operand_force_idx64 (idx64) ;
    gcu_residency_clear_all () ;
    const int64_t base = gcu_device_bytes_in_use () ;
    gcu_operand o1, o2, o3 ;
    memset (&o2, 0, sizeof (o2)) ;
    memset (&o3, 0, sizeof (o3)) ;
    OK (gcu_operand_get (A, first_by_col, tsize, false, &o1, s)) ;
    CHECK (o1.how == GCU_OPERAND_MISS && !o1.built, "%s: first orientation not a plain miss", w) ;
    const uint64_t b0 = gcu_operand_built () ;
    GrB_Info info = gcu_operand_get (A, !first_by_col, tsize, false, &o2, s) ;
    CHECK (info == GrB_SUCCESS, "%s: info %d", w, (int) info) ;
    CHECK (o2.how == GCU_OPERAND_MISS && o2.built && gcu_operand_built () == b0 + 1,
        "%s: not built on the device (how %d)", w, (int) o2.how) ;
    char desc [160] ;
    gcu_operand_describe (&o2, "A", NULL, desc, sizeof (desc)) ;
    CHECK (strstr (desc, "built on the device") != NULL, "%s: described as \"%s\"", w, desc) ;
    gcu_csr c ;
    memset (&c, 0, sizeof (c)) ;
    if (info == GrB_SUCCESS && export64 (A, !first_by_col, &c))
    {
        const int dw = host_width (&c, idx64) ;
        CHECK (o2.idx64 == (dw == 8) && o2.nvec == c.nvec && o2.nvals == c.nvals,
            "%s: idx64 %d nvec %llu nvals %llu", w, (int) o2.idx64,
            (unsigned long long) o2.nvec, (unsigned long long) o2.nvals) ;
        same_csr (&c, o2.p, o2.j, o2.x, o2.idx64 ? 8 : 4, o2.iso, w) ;
    }
    gcu_csr_free (&c) ;
    gcu_operand_release (&o2, s) ;
    // published: the next use hits
    OK (gcu_operand_get (A, !first_by_col, tsize, false, &o3, s)) ;
    CHECK (o3.how == GCU_OPERAND_HIT, "%s: the built copy not found again (how %d)", w, (int) o3.how) ;
    gcu_operand_release (&o3, s) ;
    gcu_operand_release (&o1, s) ;
    all_freed (base, w) ;
    gcu_operand_force_idx64 (false) ;
}

// (c) a miss of the orientation A is not held in, with neither on the
// device: A goes up as it is held (into the cache) and the wanted form is
// built from that copy on the device; both equal the host's exports, the
// held copy is found again, and nothing stays on the device after
static void via_held_case (GrB_Matrix A, size_t tsize, const char *what)
{
    gcu_stream s = gcu_stream_default () ;
    int32_t fmt = GxB_BY_ROW ;
    OK (GxB_Matrix_Option_get_INT32 (A, GxB_FORMAT, &fmt)) ;
    const bool held_by_col = fmt == GxB_BY_COL ;
    char w [200] ;
    snprintf (w, sizeof (w), "%s: %s wanted, held %s", what, held_by_col ? "CSR" : "CSC",
        held_by_col ? "by column" : "by row") ;
    gcu_residency_clear_all () ;
    gcu_operand_via_held_min (0) ;
    const int64_t base = gcu_device_bytes_in_use () ;
    const uint64_t b0 = gcu_operand_built () ;
    gcu_operand o1, o2 ;
    memset (&o1, 0, sizeof (o1)) ;
    memset (&o2, 0, sizeof (o2)) ;
    const GrB_Info info = gcu_operand_get (A, !held_by_col, tsize, false, &o1, s) ;
    CHECK (info == GrB_SUCCESS, "%s: info %d", w, (int) info) ;
    CHECK (o1.how == GCU_OPERAND_MISS && o1.built && gcu_operand_built () == b0 + 1 && o1.up_bytes > 0,
        "%s: not built from an uploaded held copy (how %d, built %d, %zu bytes up)", w, (int) o1.how,
        (int) o1.built, o1.up_bytes) ;
    if (info == GrB_SUCCESS) same_as_host (A, !held_by_col, &o1, w) ;
    const GrB_Info i2 = gcu_operand_get (A, held_by_col, tsize, false, &o2, s) ;
    CHECK (i2 == GrB_SUCCESS && o2.how == GCU_OPERAND_HIT, "%s: the held copy not in the cache "
        "(info %d, how %d)", w, (int) i2, (int) o2.how) ;
    if (i2 == GrB_SUCCESS) same_as_host (A, held_by_col, &o2, w) ;
    gcu_operand_release (&o2, s) ;
    gcu_operand_release (&o1, s) ;
    all_freed (base, w) ;
    gcu_operand_via_held_min (UINT64_MAX) ;
}

// GRBCUDA_DEVICE_TRANSPOSE off: the second orientation is exported.
static void switch_off_case (GrB_Matrix A, size_t tsize)
{
    gcu_stream s = gcu_stream_default () ;
    gcu_residency_clear_all () ;
    gcu_device_transpose_set (0) ;
    gcu_operand o1, o2 ;
    OK (gcu_operand_get (A, false, tsize, false, &o1, s)) ;
    const uint64_t b0 = gcu_operand_built () ;
    OK (gcu_operand_get (A, true, tsize, false, &o2, s)) ;
    CHECK (!o2.built && o2.how == GCU_OPERAND_MISS && gcu_operand_built () == b0,
        "switched off: built on the device all the same") ;
    same_as_host (A, true, &o2, "switched off") ;
    gcu_operand_release (&o2, s) ;
    gcu_operand_release (&o1, s) ;
    gcu_device_transpose_set (1) ;
    gcu_residency_clear_all () ;
}

// C device newest (a GrB_mxm result left on the device): its other
// orientation is built on the device from the newest value, C stays device
// newest, and the copy equals the host's export of C (written back then).
static void newest_case (uint64_t *st)
{
    gcu_stream s = gcu_stream_default () ;
    gcu_residency_clear_all () ;
    GrB_Matrix A = make (GrB_FP64, 8, 300, 300, 2000, false, 0, st) ;
    GrB_Matrix B = make (GrB_FP64, 8, 300, 300, 2000, false, 0, st) ;
    // (random bytes: NaN and infinities; the pattern is what matters here)
    GrB_Matrix C = NULL ;
    OK (GrB_Matrix_new (&C, GrB_FP64, 300, 300)) ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    OK (GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL)) ;
    uint64_t nv = 0 ;
    CHECK (gcu_residency_newest_nvals (C, &nv), "newest: C not left on the device") ;
    const uint64_t b0 = gcu_operand_built () ;
    gcu_operand o ;
    OK (gcu_operand_get (C, true, 8, false, &o, s)) ;
    CHECK (o.built && gcu_operand_built () == b0 + 1, "newest: not built from the device-newest copy") ;
    CHECK (gcu_residency_newest_nvals (C, &nv) && nv == o.nvals, "newest: C no longer on the device (%llu, %llu)",
        (unsigned long long) nv, (unsigned long long) o.nvals) ;
    gcu_csr c ;
    memset (&c, 0, sizeof (c)) ;
    if (export64 (C, true, &c)) same_csr (&c, o.p, o.j, o.x, o.idx64 ? 8 : 4, o.iso, "newest") ;
    gcu_csr_free (&c) ;
    gcu_operand_release (&o, s) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    gcu_residency_clear_all () ;
}

//------------------------------------------------------------------------------
// (c) vxm then mxv (and the other way round): the second call's orientation
// built on the device
//------------------------------------------------------------------------------

static void pair_case (GrB_Type t, GrB_Semiring sr, GrB_Index n, GrB_Index nt, bool iso,
    bool vxm_first, uint64_t *st)
{
    char what [160] ;
    snprintf (what, sizeof (what), "pair %s first, n %llu%s", vxm_first ? "vxm" : "mxv",
        (unsigned long long) n, iso ? " iso" : "") ;
    size_t tsize ;
    GxB_Type_size (&tsize, t) ;
    // A and u made on the host: a vector apply in GPU mode would leave u
    // device newest, and gcu_residency_clear_all drops such a value unwritten
    OK (grbcuda_set_mode (GRBCUDA_MODE_HOST)) ;
    GrB_Matrix A = NULL ;
    GrB_Matrix R = make (GrB_INT32, 4, n, n, nt, iso, 0, st) ;
    // small values of t (random bytes would overflow or be NaN)
    OK (GrB_Matrix_new (&A, t, n, n)) ;
    OK (GrB_Matrix_apply_BinaryOp2nd_INT32 (R, NULL, NULL, GrB_BAND_INT32, R, 7, NULL)) ;
    OK (GrB_apply (A, NULL, NULL, GrB_IDENTITY_INT32, R, NULL)) ;
    GrB_Matrix_free (&R) ;
    // u: one entry in each 50 positions (values 1 to 7), so that both
    // calls walk A
    GrB_Vector u = NULL, ui = NULL ;
    const GrB_Index un = n / 50 ;
    GrB_Index *ux = malloc (un * sizeof (GrB_Index)) ;
    int32_t *uv = malloc (un * sizeof (int32_t)) ;
    for (GrB_Index k = 0 ; k < un ; k++)
    {
        ux [k] = 50 * k + gcu_rand (st) % 50 ;
        uv [k] = 1 + (int32_t) (gcu_rand (st) % 7) ;
    }
    OK (GrB_Vector_new (&ui, GrB_INT32, n)) ;
    OK (GrB_Vector_build_INT32 (ui, ux, uv, un, GrB_PLUS_INT32)) ;
    OK (GrB_Vector_new (&u, t, n)) ;
    OK (GrB_apply (u, NULL, NULL, GrB_IDENTITY_INT32, ui, NULL)) ;
    GrB_Vector_free (&ui) ;
    free (ux) ; free (uv) ;
    GrB_Index anv = 0, unv = 0 ;
    OK (GrB_Matrix_nvals (&anv, A)) ;
    OK (GrB_Vector_nvals (&unv, u)) ;
    CHECK (anv > 0 && unv == un, "%s: A has %llu entries, u %llu", what,
        (unsigned long long) anv, (unsigned long long) unv) ;
    gcu_residency_clear_all () ;
    gcu_mxv_force_method (2) ;      // push: vxm walks A's rows, mxv its columns
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    const uint64_t b0 = gcu_operand_built () ;
    for (int k = 0 ; k < 2 ; k++)
    {
        const bool vxm = (k == 0) == vxm_first ;
        GrB_Vector w1 = NULL, w2 = NULL ;
        OK (GrB_Vector_new (&w1, t, n)) ;
        OK (GrB_Vector_new (&w2, t, n)) ;
        GrB_Info i1, i2 ;
        if (vxm)
        {
            i1 = GrB_vxm (w1, NULL, NULL, sr, u, A, NULL) ;
            i2 = real_vxm (w2, NULL, NULL, sr, u, A, NULL) ;
        }
        else
        {
            i1 = GrB_mxv (w1, NULL, NULL, sr, A, u, NULL) ;
            i2 = real_mxv (w2, NULL, NULL, sr, A, u, NULL) ;
        }
        char w [200] ;
        snprintf (w, sizeof (w), "%s, call %d (%s)", what, k + 1, vxm ? "vxm" : "mxv") ;
        CHECK (i1 == GrB_SUCCESS && i1 == i2, "%s: info %d vs %d", w, (int) i1, (int) i2) ;
        CHECK (gcu_test_vector_equal (w1, w2, 1e-12, false, w), "%s: differs from SuiteSparse", w) ;
        CHECK (gcu_operand_built () == b0 + (uint64_t) k, "%s: %llu copies built on the device, "
            "%d expected", w, (unsigned long long) (gcu_operand_built () - b0), k) ;
        // push: vxm walks A by row, mxv by column; that copy is there now
        gcu_res_entry *e = NULL ;
        CHECK (gcu_residency_peek (A, vxm ? GCU_RES_CSR : GCU_RES_CSC, &e) == GrB_SUCCESS,
            "%s: no copy of A by %s left", w, vxm ? "row" : "column") ;
        gcu_residency_unpin (e) ;
        GrB_Vector_free (&w1) ; GrB_Vector_free (&w2) ;
    }
    gcu_mxv_force_method (0) ;
    GrB_Vector_free (&u) ;
    GrB_Matrix_free (&A) ;
    gcu_residency_clear_all () ;
}

//------------------------------------------------------------------------------
// (d) fault injection in the build
//------------------------------------------------------------------------------

static void fault_case (uint64_t *st)
{
    gcu_stream s = gcu_stream_default () ;
    GrB_Matrix A = make (GrB_FP64, 8, 400, 300, 3000, false, 0, st) ;
    gcu_csr c ;
    memset (&c, 0, sizeof (c)) ;
    if (!export64 (A, true, &c)) { GrB_Matrix_free (&A) ; return ; }
    gcu_residency_clear_all () ;
    gcu_sync (s) ;
    const int64_t base = gcu_device_bytes_in_use () ;
    // the counted operations of one build
    gcu_operand o1, o2 ;
    OK (gcu_operand_get (A, false, 8, false, &o1, s)) ;
    gcu_fault_inject (1 << 30) ;
    OK (gcu_operand_get (A, true, 8, false, &o2, s)) ;
    const int64_t nops = gcu_fault_count () ;
    gcu_fault_inject (0) ;
    CHECK (o2.built, "fault: the reference build was not on the device") ;
    gcu_operand_release (&o2, s) ;
    gcu_operand_release (&o1, s) ;
    printf ("fault injection: %lld counted device operations in one build\n", (long long) nops) ;
    CHECK (nops >= 8, "fault: too few counted operations (%lld)", (long long) nops) ;
    for (int64_t f = 1 ; f <= nops ; f++)
    {
        char w [80] ;
        snprintf (w, sizeof (w), "fault at operation %lld", (long long) f) ;
        gcu_residency_clear_all () ;
        OK (gcu_operand_get (A, false, 8, false, &o1, s)) ;
        gcu_fault_inject (f) ;
        GrB_Info info = gcu_operand_get (A, true, 8, false, &o2, s) ;
        gcu_fault_inject (0) ;
        CHECK (info == GrB_SUCCESS, "%s: info %d", w, (int) info) ;
        if (info == GrB_SUCCESS)
        {
            CHECK (!o2.built, "%s: still built on the device", w) ;
            same_csr (&c, o2.p, o2.j, o2.x, o2.idx64 ? 8 : 4, o2.iso, w) ;
            gcu_operand_release (&o2, s) ;
        }
        gcu_operand_release (&o1, s) ;
        gcu_residency_clear_all () ;
        gcu_sync (s) ;
        CHECK (gcu_device_bytes_in_use () == base, "%s: device memory %lld bytes, was %lld", w,
            (long long) gcu_device_bytes_in_use (), (long long) base) ;
    }
    gcu_csr_free (&c) ;
    GrB_Matrix_free (&A) ;
}

//------------------------------------------------------------------------------

int main (int argc, char **argv)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!grbcuda_gpu_available ())
    {
        printf ("SKIP: no usable GPU; test_transpose_gpu needs one\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    const bool quick = argc > 1 && strcmp (argv [1], "quick") == 0 ;
    real_mxv = (mxv_t) gcu_test_real ("GrB_mxv") ;
    real_vxm = (vxm_t) gcu_test_real ("GrB_vxm") ;
    OK (GrB_Type_new (&T12, 12)) ;
    OK (GrB_Type_new (&T3, 3)) ;
    gcu_device_transpose_set (1) ;
    // (b)'s first orientation is exported, whichever A is held in: (c) alone
    // goes up as held
    gcu_operand_via_held_min (UINT64_MAX) ;
    struct { const char *name ; GrB_Type t ; size_t size ; } types [] =
    {
        { "bool", GrB_BOOL, 1 }, { "int32", GrB_INT32, 4 }, { "fp64", GrB_FP64, 8 },
        { "fc64", GxB_FC64, 16 }, { "udt12", T12, 12 }, { "udt3", T3, 3 },
    } ;
    const int ntypes = (int) (sizeof (types) / sizeof (types [0])) ;
    const int nshapes = (int) (sizeof (shapes) / sizeof (shapes [0])) ;
    uint64_t st = 2026 ;
    for (int ti = 0 ; ti < ntypes ; ti++)
        for (int sh = 0 ; sh < nshapes ; sh++)
            for (int iso = 0 ; iso < 2 ; iso++)
            {
                if (quick && (sh % 3 != ti % 3 || sh == nshapes - 1)) continue ;
                char what [160] ;
                snprintf (what, sizeof (what), "%s %s%s", types [ti].name, shapes [sh].name,
                    iso ? " iso" : "") ;
                GrB_Matrix A = make (types [ti].t, types [ti].size, shapes [sh].m, shapes [sh].n,
                    shapes [sh].nt, iso, storage_of [sh], &st) ;
                kernel_case (A, what) ;
                for (int first = 0 ; first < 2 ; first++)
                    operand_case (A, types [ti].size, first, (sh + ti + iso) % 2 == 1, what) ;
                GrB_Index nv = 0 ;
                OK (GrB_Matrix_nvals (&nv, A)) ;
                if (nv > 0) via_held_case (A, types [ti].size, what) ;
                GrB_Matrix_free (&A) ;
            }
    printf ("operands compared (%d types, %d shapes)\n", ntypes, nshapes) ;
    {
        GrB_Matrix A = make (GrB_INT32, 4, 300, 200, 2000, false, 0, &st) ;
        switch_off_case (A, 4) ;
        GrB_Matrix_free (&A) ;
    }
    newest_case (&st) ;
    for (int vf = 0 ; vf < 2 ; vf++)
    {
        pair_case (GrB_FP64, GrB_PLUS_TIMES_SEMIRING_FP64, 3000, 30000, false, vf, &st) ;
        pair_case (GrB_INT32, GrB_PLUS_TIMES_SEMIRING_INT32, 2000, 20000, true, vf, &st) ;
        pair_case (GrB_BOOL, GrB_LOR_LAND_SEMIRING_BOOL, 5000, 40000, true, vf, &st) ;
    }
    fault_case (&st) ;
    GrB_Type_free (&T12) ;
    GrB_Type_free (&T3) ;
    GrB_finalize () ;
    return gcu_test_report ("test_transpose_gpu") ;
}

#else

int main (void)
{
    printf ("SKIP: built without CUDA; test_transpose_gpu needs it\n") ;
    return GCU_TEST_SKIP ;
}

#endif
