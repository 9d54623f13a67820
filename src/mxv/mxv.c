// mxv.c — the GrB_mxv and GrB_vxm GPU families (DESIGN §4): w<M> = accum
// (w, A*u) and w'<M> = accum (w', u'*A) over any semiring the JIT can
// express. vxm is mxv on the transpose (w = B'*u): both compute w = R*u
// where R's rows are w's entries (R = op(A) for mxv, op(B)' for vxm; the
// CSR of R is the CSC of B for vxm), the kernels keeping each form's
// positions for the positional multipliers (cuda/mxv/gcu_mxv.cuh).
//
// Method (per call, from the sizes): pull (one group of threads per row of
// R, u scattered to a dense array with presence bytes) or push (one group
// per entry of u walking row k of P = R', atomics into a dense T): push when
// its products (nnz(u) times the average row of P) cost a quarter of what
// pull reads (nnz(R) restricted to the rows the mask lets through) — a
// sparse BFS frontier pushes, a dense x (SpMV) pulls.
//
// The mask: a byte per entry of w, built on the host from M and the
// descriptor (valued or structural, complemented or not), tells the kernels
// which entries of T are wanted; the others are never computed (BFS's
// complemented mask skips every visited vertex in the pull direction). The
// mask, accum and replace semantics themselves, and every typecast, stay
// SuiteSparse's: T goes back as a GrB_Vector and is written into w by
// GrB_Vector_apply (identity) with the call's mask, accum and descriptor
// (a T restricted to the mask's allowed entries gives the same w).
//
// Operands on the device through the residency cache: the matrix by row or
// by column (gcu_operand_get), u as a dense image (pull) or its entry list
// (push), so an unchanged matrix or vector is not uploaded again.
#include "gcu_mxv.h"
#include "../mxm/gcu_mxm.h"
#include "../device/gcu_device.h"
#include "../device/gcu_staging.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if GRBCUDA_HAVE_CUDA
#include <cuda_runtime_api.h>

static int force_method = 0 ;       // tests: 1 pull, 2 push

void gcu_mxv_force_method (int method) { force_method = method ; }

// gcu_res_data.layout of the vector entries made here
#define GCU_MXV_LAYOUT 0x6d787631

//------------------------------------------------------------------------------
// the descriptor
//------------------------------------------------------------------------------

static GrB_Info mask_mode (GrB_Descriptor desc, bool *comp, bool *structural)
{
    GrB_Desc_Value v = GxB_DEFAULT ;
    *comp = *structural = false ;
    if (desc == NULL) return GrB_SUCCESS ;
    GrB_Info info = GxB_Descriptor_get (&v, desc, GrB_MASK) ;
    if (info != GrB_SUCCESS) return info ;
    *structural = (v == GrB_STRUCTURE || v == GrB_COMP + GrB_STRUCTURE) ;
    *comp = (v == GrB_COMP || v == GrB_COMP + GrB_STRUCTURE) ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// the branch
//------------------------------------------------------------------------------

// the matrix and the vector of the call
static GrB_Matrix the_matrix (const gcu_call *call)
{
    return (GrB_Matrix) (call->op == GCU_OP_VXM ? call->B : call->A) ;
}
static GrB_Vector the_vector (const gcu_call *call)
{
    return (GrB_Vector) (call->op == GCU_OP_VXM ? call->A : call->B) ;
}

static GrB_Info mxv_branch (const gcu_call *call)
{
    gcu_semiring_desc sr ;
    gcu_type_desc t ;
    GrB_Type ty ;
    bool comp, structural ;
    if (gcu_semiring_identify (call->semiring, &sr) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (!gcu_semiring_device_exact (&sr)) return GCU_NOT_HANDLED ;     // pow, atan2, hypot
    // the pull kernel reduces a value per thread in shared memory
    if (sr.mult.z.size > 128) return GCU_NOT_HANDLED ;
    // a multiplier whose result is the output's own index (mxv: FIRSTI,
    // FIRSTI1; vxm: SECONDJ, SECONDJ1): SuiteSparse 7.4 did not give the
    // index on the H200 test inputs (tests/gpu/test_mxv_gpu.c), so these stay
    // on the host, whose answer is by definition the one to give
    const int mop = sr.mult.op ;
    if (call->op == GCU_OP_MXV ? (mop == GCU_OP_FIRSTI || mop == GCU_OP_FIRSTI1)
                               : (mop == GCU_OP_SECONDJ || mop == GCU_OP_SECONDJ1))
        return GCU_NOT_HANDLED ;
    // a user-defined operand type must be exactly the semiring's: anything
    // else is SuiteSparse's to accept or refuse (GrB_DOMAIN_MISMATCH)
    if (GxB_Matrix_type (&ty, the_matrix (call)) != GrB_SUCCESS
        || gcu_type_identify (ty, &t) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (t.code == GCU_T_UDT && ty != sr.mult.x.handle && ty != sr.mult.y.handle) return GCU_NOT_HANDLED ;
    if (GxB_Vector_type (&ty, the_vector (call)) != GrB_SUCCESS
        || gcu_type_identify (ty, &t) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (t.code == GCU_T_UDT && ty != sr.mult.x.handle && ty != sr.mult.y.handle) return GCU_NOT_HANDLED ;
    if (GxB_Vector_type (&ty, (GrB_Vector) call->C) != GrB_SUCCESS
        || gcu_type_identify (ty, &t) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (t.code == GCU_T_UDT && ty != sr.mult.z.handle) return GCU_NOT_HANDLED ;
    if (mask_mode (call->desc, &comp, &structural) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (call->M != NULL && !structural)
    {
        // a valued mask is read on the host: built-in types only
        if (GxB_Vector_type (&ty, (GrB_Vector) call->M) != GrB_SUCCESS
            || gcu_type_identify (ty, &t) != GrB_SUCCESS || t.code == GCU_T_UDT)
            return GCU_NOT_HANDLED ;
    }
    // T and u are dense on the device and on the host: hypersparse vectors
    // of huge dimension stay on the host
    const GrB_Index n = call->op == GCU_OP_VXM ? call->a_rows : call->b_rows ;
    if (call->c_rows >= ((GrB_Index) 1 << 31) || n >= ((GrB_Index) 1 << 31))
        return GCU_NOT_HANDLED ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// the vector on the device, through the residency cache
//------------------------------------------------------------------------------

typedef struct
{
    const void *b ;         // dense: presence bytes (NULL when u is full);
                            // sparse: int64_t indices
    const void *x ;         // values (iso expanded)
    GrB_Index nvals ;
    gcu_operand_how how ;
    size_t up_bytes ;
    double export_s, upload_s ;
    gcu_res_entry *e_ ;
    void *own_ [2] ;
}
mxv_vec ;

static void vec_release (mxv_vec *v, gcu_stream s)
{
    if (v->e_ != NULL) gcu_residency_unpin (v->e_) ;
    for (int k = 0 ; k < 2 ; k++) gcu_dfree (v->own_ [k], s) ;
    memset (v, 0, sizeof (*v)) ;
}

static void vec_describe (const mxv_vec *v, const char *name, char *buf, size_t size)
{
    switch (v->how)
    {
        case GCU_OPERAND_HIT: snprintf (buf, size, "%s hit", name) ; break ;
        case GCU_OPERAND_MISS:
            snprintf (buf, size, "%s miss (%.1f MB)", name, (double) v->up_bytes / 1e6) ; break ;
        case GCU_OPERAND_PRIVATE:
            snprintf (buf, size, "%s uncached (%.1f MB)", name, (double) v->up_bytes / 1e6) ; break ;
        default: snprintf (buf, size, "%s -", name) ; break ;
    }
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL                                                    \
    gcu_csr_free (&c) ; free (hb) ; free (hx) ;                         \
    gcu_residency_unpin (e) ;                                           \
    for (int k_ = 0 ; k_ < 2 ; k_++) gcu_dfree (v->own_ [k_], s) ;      \
    memset (v, 0, sizeof (*v)) ;

// u of length n on the device: dense (presence bytes and n values) or
// sparse (its entries' indices and values)
static GrB_Info vec_get (GrB_Vector u, GrB_Index n, bool dense, size_t usize,
    mxv_vec *v, gcu_stream s)
{
    gcu_csr c ;
    int8_t *hb = NULL ;
    char *hx = NULL ;
    gcu_res_entry *e = NULL ;
    memset (&c, 0, sizeof (c)) ;
    memset (v, 0, sizeof (*v)) ;
    const int kind = dense ? GCU_RES_VECTOR_DENSE : GCU_RES_VECTOR_SPARSE ;
    GrB_Info info = gcu_residency_acquire (u, kind, &e) ;
    if (info == GrB_SUCCESS)
    {
        gcu_res_data *d = gcu_residency_data (e) ;
        if (d->layout == GCU_MXV_LAYOUT && d->nbuf == 2 && d->type_size == usize
            && d->nrows == n)
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

    // miss: u out of SuiteSparse (never changed), 64-bit indices, iso
    // values expanded
    const double t0 = gcu_now () ;
    gcu_export_opts eo = { GCU_EXPORT_CSC, 64, true, 0 } ;
    GCU_TRY (gcu_residency_materialize (u, "GrB_mxv/GrB_vxm (GPU): the vector's export")) ;
    GCU_TRY (gcu_export_csr (u, true, &eo, &c)) ;
    if (c.type_size != usize || c.nrows != n) GCU_TRY (GrB_PANIC) ;
    const GrB_Index nv = c.nvals ;
    const int64_t *ci = (const int64_t *) c.idx ;
    const bool full = nv == n ;
    const void *src [2] = { c.idx, c.val } ;
    size_t bytes [2] = { nv * 8, nv * usize } ;
    if (dense)
    {
        bytes [0] = full ? 0 : n ;
        bytes [1] = n * usize ;
        if (!full)
        {
            // scattered: a presence byte and a value per position
            hb = calloc (n + 1, 1) ;
            hx = calloc (n + 1, usize) ;
            if (hb == NULL || hx == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
            for (GrB_Index p = 0 ; p < nv ; p++)
            {
                hb [ci [p]] = 1 ;
                memcpy (hx + ci [p] * usize, (const char *) c.val + p * usize, usize) ;
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
    else info = GrB_SUCCESS ;
    if (e == NULL)
    {
        for (int k = 0 ; k < 2 ; k++)
        {
            GCU_TRY (gcu_dmalloc (&v->own_ [k], bytes [k] + 16, s)) ;
            buf [k] = v->own_ [k] ;
        }
    }
    GCU_TRY (gcu_h2d_staged (buf [0], src [0], bytes [0], 1, 1, s)) ;
    GCU_TRY (gcu_h2d_staged (buf [1], src [1], bytes [1], 1, 1, s)) ;
    if (e != NULL)
    {
        gcu_res_data *d = gcu_residency_data (e) ;
        d->nrows = n ;
        d->ncols = 1 ;
        d->nvals = nv ;
        d->idx_bits = 64 ;
        d->type_size = usize ;
        d->type = c.type ;
        d->iso = false ;
        d->layout = GCU_MXV_LAYOUT ;
        (void) gcu_residency_publish (e) ;
    }
    v->b = (dense && full) ? NULL : buf [0] ;
    v->x = buf [1] ;
    v->nvals = nv ;
    v->how = (e != NULL) ? GCU_OPERAND_MISS : GCU_OPERAND_PRIVATE ;
    v->e_ = e ;
    v->up_bytes = bytes [0] + bytes [1] ;
    v->export_s = t1 - t0 ;
    v->upload_s = gcu_now () - t1 ;
    gcu_csr_free (&c) ; free (hb) ; free (hx) ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// the mask: which entries of T are wanted
//------------------------------------------------------------------------------

// the mask's value at p (size bytes each) is true when any of its bits is
// set, as SuiteSparse reads mask values (-0.0 and NaN are true)
static bool truth (const void *x, GrB_Index p, size_t size)
{
    const unsigned char *b = (const unsigned char *) x + p * size ;
    unsigned char any = 0 ;
    for (size_t k = 0 ; k < size ; k++) any |= b [k] ;
    return any != 0 ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_csr_free (&c) ; free (*allow) ; *allow = NULL ;

// allow [i] = 1 when w(i) may be written (the effective mask), and the
// count of such i
static GrB_Info build_allow (const gcu_call *call, GrB_Index m, int8_t **allow,
    GrB_Index *nallow)
{
    gcu_csr c ;
    memset (&c, 0, sizeof (c)) ;
    *allow = NULL ;
    bool comp, structural ;
    GCU_TRY (mask_mode (call->desc, &comp, &structural)) ;
    gcu_type_desc mt = { 0 } ;
    if (!structural)
    {
        GrB_Type ty ;
        GCU_TRY (GxB_Vector_type (&ty, (GrB_Vector) call->M)) ;
        GCU_TRY (gcu_type_identify (ty, &mt)) ;
    }
    gcu_export_opts eo = { GCU_EXPORT_CSC, 64, false, 0 } ;
    GCU_TRY (gcu_residency_materialize (call->M, "GrB_mxv/GrB_vxm (GPU): the mask's export")) ;
    GCU_TRY (gcu_export_csr (call->M, true, &eo, &c)) ;
    *allow = malloc (m + 1) ;
    if (*allow == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    memset (*allow, comp ? 1 : 0, m + 1) ;
    const int64_t *ci = (const int64_t *) c.idx ;
    for (GrB_Index p = 0 ; p < c.nvals ; p++)
    {
        const bool t = structural || truth (c.val, c.iso ? 0 : p, mt.size) ;
        (*allow) [ci [p]] = (int8_t) (comp ? !t : t) ;
    }
    GrB_Index cnt = 0 ;
    for (GrB_Index i = 0 ; i < m ; i++) cnt += (GrB_Index) (*allow) [i] ;
    *nallow = cnt ;
    gcu_csr_free (&c) ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// write-back: w<M,replace> = accum (w, T)
//------------------------------------------------------------------------------

typedef struct { GrB_Type *type ; GrB_UnaryOp *identity ; } type_row ;
static const type_row type_rows [] =
{
    { &GrB_BOOL, &GrB_IDENTITY_BOOL }, { &GrB_INT8, &GrB_IDENTITY_INT8 },
    { &GrB_INT16, &GrB_IDENTITY_INT16 }, { &GrB_INT32, &GrB_IDENTITY_INT32 },
    { &GrB_INT64, &GrB_IDENTITY_INT64 }, { &GrB_UINT8, &GrB_IDENTITY_UINT8 },
    { &GrB_UINT16, &GrB_IDENTITY_UINT16 }, { &GrB_UINT32, &GrB_IDENTITY_UINT32 },
    { &GrB_UINT64, &GrB_IDENTITY_UINT64 }, { &GrB_FP32, &GrB_IDENTITY_FP32 },
    { &GrB_FP64, &GrB_IDENTITY_FP64 }, { &GxB_FC32, &GxB_IDENTITY_FC32 },
    { &GxB_FC64, &GxB_IDENTITY_FC64 },
} ;

static GrB_UnaryOp identity_of (GrB_Type t)
{
    for (size_t k = 0 ; k < sizeof (type_rows) / sizeof (type_rows [0]) ; k++)
        if (*type_rows [k].type == t) return *type_rows [k].identity ;
    return NULL ;       // a user-defined type
}

// T (Ti, Tx: nvals entries, arrays SuiteSparse takes over on success)
static GrB_Info write_back (gcu_call *call, GrB_Type ztype, GrB_Index m,
    GrB_Index **Ti, void **Tx, GrB_Index nvals, size_t zsize)
{
    GrB_Vector w = (GrB_Vector) call->C ;
    GrB_Type wtype = NULL ;
    GrB_Info info = GxB_Vector_type (&wtype, w) ;
    if (info != GrB_SUCCESS) return info ;
    const GrB_Index isize = (nvals + 1) * sizeof (GrB_Index) ;
    const GrB_Index xsize = (nvals + 1) * zsize ;
    if (call->M == NULL && call->accum == NULL && wtype == ztype)
    {
        // w = T: T's arrays become w's, in the storage SuiteSparse would
        // give its own result (a pack leaves w sparse: mxm_common.c)
        int control = GxB_AUTO_SPARSITY ;
        info = GxB_Vector_Option_get (w, GxB_SPARSITY_CONTROL, &control) ;
        if (info == GrB_SUCCESS) info = GrB_Vector_clear (w) ;
        if (info == GrB_SUCCESS)
            info = GxB_Vector_pack_CSC (w, Ti, Tx, isize, xsize, false, nvals, false, NULL) ;
        if (info == GrB_SUCCESS) info = GxB_Vector_Option_set (w, GxB_SPARSITY_CONTROL, control) ;
        return info ;
    }
    GrB_Vector T = NULL ;
    GrB_Descriptor d = NULL ;
    info = GrB_Vector_new (&T, ztype, m) ;
    if (info == GrB_SUCCESS)
        info = GxB_Vector_pack_CSC (T, Ti, Tx, isize, xsize, false, nvals, false, NULL) ;
    if (info == GrB_SUCCESS) info = gcu_writeback_desc (call->desc, &d) ;
    GrB_Vector Mtmp = NULL ;
    if (info == GrB_SUCCESS) info = gcu_writeback_mask (call, (void **) &Mtmp) ;
    if (info == GrB_SUCCESS)
    {
        const GrB_Vector M = Mtmp != NULL ? Mtmp : (GrB_Vector) call->M ;
        GrB_UnaryOp id = identity_of (ztype) ;
        if (id != NULL)
            info = GrB_Vector_apply (w, M, call->accum, id, T, d) ;
        else
            info = GrB_Vector_assign (w, M, call->accum, T, GrB_ALL, m, d) ;
    }
    GrB_Vector_free (&Mtmp) ;
    GrB_Vector_free (&T) ;
    GrB_Descriptor_free (&d) ;
    return info ;
}

//------------------------------------------------------------------------------
// the run
//------------------------------------------------------------------------------

// threads per row (pull) or per entry of u (push): the average length of
// what one group walks, rounded up to a power of two, at most a warp
static int group_size (double avg)
{
    int g = 1 ;
    while (g < 32 && g < avg) g *= 2 ;
    return g ;
}

static unsigned grid_for (int64_t items, int G, const gcu_device_props *dev)
{
    int64_t grid = (items * G + GCU_MXV_THREADS - 1) / GCU_MXV_THREADS ;
    int64_t cap = (int64_t) (dev != NULL ? dev->sm_count : 1) * 32 ;
    if (grid > cap) grid = cap ;
    if (grid < 1) grid = 1 ;
    return (unsigned) grid ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL                                                    \
    (void) gcu_sync (s) ;   /* no kernel reads an operand any more */   \
    if (ev [0] != NULL) cudaEventDestroy (ev [0]) ;                     \
    if (ev [1] != NULL) cudaEventDestroy (ev [1]) ;                     \
    gcu_dfree (dTx, s) ; gcu_dfree (dTb, s) ; gcu_dfree (dlocks, s) ;   \
    gcu_dfree (dallow, s) ;                                             \
    vec_release (&ou, s) ; gcu_operand_release (&om, s) ;               \
    free (allow) ; free (hTx) ; free (hTb) ;                            \
    gcu_host_free (Ti) ; gcu_host_free (Tx) ;

static GrB_Info mxv_run (gcu_call *call)
{
    gcu_stream s = gcu_stream_default () ;
    const bool vxm = call->op == GCU_OP_VXM ;
    gcu_operand om ;
    mxv_vec ou ;
    cudaEvent_t ev [2] = { NULL, NULL } ;
    void *dTx = NULL, *dallow = NULL, *hTx = NULL, *Tx = NULL ;
    int8_t *dTb = NULL, *allow = NULL, *hTb = NULL ;
    int32_t *dlocks = NULL ;
    GrB_Index *Ti = NULL ;
    gcu_mxv_spec spec ;
    memset (&om, 0, sizeof (om)) ;
    memset (&ou, 0, sizeof (ou)) ;
    memset (&spec, 0, sizeof (spec)) ;
    const double t0 = gcu_now () ;

    GrB_Matrix A = the_matrix (call) ;
    GrB_Vector u = the_vector (call) ;
    const bool tran = vxm ? call->tran_b : call->tran_a ;
    const GrB_Index m = call->c_rows ;                          // |w|
    const GrB_Index n = vxm ? call->a_rows : call->b_rows ;     // |u|
    const GrB_Index unvals = vxm ? call->a_nvals : call->b_nvals ;
    const GrB_Index anvals = vxm ? call->b_nvals : call->a_nvals ;
    GrB_Type mtype, utype ;
    gcu_type_desc mdesc, udesc ;
    GCU_TRY (gcu_semiring_identify (call->semiring, &spec.sr)) ;
    GCU_TRY (GxB_Matrix_type (&mtype, A)) ;
    GCU_TRY (GxB_Vector_type (&utype, u)) ;
    GCU_TRY (gcu_type_identify (mtype, &mdesc)) ;
    GCU_TRY (gcu_type_identify (utype, &udesc)) ;
    const size_t zsize = spec.sr.mult.z.size ;
    spec.ops.a = vxm ? udesc : mdesc ;
    spec.ops.b = vxm ? mdesc : udesc ;
    spec.ops.c = spec.sr.mult.z ;
    spec.ops.mask_type = -1 ;
    spec.vxm = vxm ;

    // the mask's allowed entries
    GrB_Index nallow = m ;
    if (call->M != NULL) GCU_TRY (build_allow (call, m, &allow, &nallow)) ;

    // the method: push's products against the part of R pull reads
    const double push_cost = (double) unvals * (double) anvals / (double) (n > 0 ? n : 1) ;
    const double pull_cost = (double) anvals * (double) nallow / (double) (m > 0 ? m : 1)
        + (double) m / 32 ;
    bool push = 4 * push_cost < pull_cost ;
    if (force_method == 1) push = false ;
    if (force_method == 2) push = true ;
    const bool work = unvals > 0 && nallow > 0 && anvals > 0 ;

    // R's rows (pull) or P = R' (push): for mxv R = op(A), whose CSR is A's
    // CSC when A is transposed; for vxm R = op(B)', whose CSR is B's CSC
    // when B is not transposed
    const bool r_by_col = vxm ? !tran : tran ;
    const double t_op0 = gcu_now () ;
    if (work)
    {
        GCU_TRY (gcu_operand_get (A, push ? !r_by_col : r_by_col, mdesc.size, false, &om, s)) ;
        GCU_TRY (vec_get (u, n, !push, udesc.size, &ou, s)) ;
    }
    if (vxm) spec.ops.b_iso = om.iso ; else spec.ops.a_iso = om.iso ;
    spec.idx64 = om.idx64 ;
    // (+8: the CAS of a 1- or 2-byte value reads its whole aligned word)
    GCU_TRY (gcu_dmalloc (&dTx, (m + 1) * zsize + 8, s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &dTb, m + 1, s)) ;
    if (allow != NULL && work)
    {
        GCU_TRY (gcu_dmalloc (&dallow, m + 1, s)) ;
        GCU_TRY (gcu_h2d_staged (dallow, allow, m, 1, 1, s)) ;
    }
    const double t1 = gcu_now () ;

    // T = R*u on the device
    double kernel_s = 0 ;
    int G = 1 ;
    if (!work)
    {
        // no entry of T: nothing to compute
        GCU_TRY (gcu_memset (dTb, 0, m + 1, s)) ;
    }
    else
    {
        void *fpull = NULL, *fpush = NULL, *finit = NULL ;
        GCU_TRY (gcu_mxv_kernels (&spec, &fpull, &fpush, &finit)) ;
        const gcu_device_props *dev = gcu_device () ;
        if (cudaEventCreate (&ev [0]) != cudaSuccess || cudaEventCreate (&ev [1]) != cudaSuccess)
            GCU_TRY (GrB_PANIC) ;
        if (cudaEventRecord (ev [0], (cudaStream_t) s) != cudaSuccess) GCU_TRY (GrB_PANIC) ;
        int64_t mm = (int64_t) m ;
        const void *p = om.p, *j = om.j, *x = om.x, *ub = ou.b, *ux = ou.x ;
        const int8_t *al = (const int8_t *) dallow ;
        void *tx = dTx ;
        int8_t *tb = dTb ;
        if (push)
        {
            if (zsize > 8) GCU_TRY (gcu_dmalloc ((void **) &dlocks, (m + 1) * sizeof (int32_t), s)) ;
            int32_t *lk = dlocks ;
            void *iargs [] = { &mm, &tx, &tb, &lk } ;
            GCU_TRY (gcu_jit_launch (finit, grid_for (mm, 1, dev), GCU_MXV_THREADS, 0, s, iargs)) ;
            GCU_TRY (gcu_launch_check ("mxv init")) ;
            int64_t un = (int64_t) ou.nvals ;
            G = group_size ((double) anvals / (double) (n > 0 ? n : 1)) ;
            void *args [] = { &un, &ub, &ux, &p, &j, &x, &al, &tx, &tb, &lk, &G } ;
            GCU_TRY (gcu_jit_launch (fpush, grid_for (un, G, dev), GCU_MXV_THREADS, 0, s, args)) ;
            GCU_TRY (gcu_launch_check ("mxv push")) ;
        }
        else
        {
            G = group_size ((double) anvals / (double) (m > 0 ? m : 1)) ;
            const unsigned smem = (unsigned) (GCU_MXV_THREADS * (zsize + 1) + 16) ;
            void *args [] = { &mm, &p, &j, &x, &ub, &ux, &al, &tx, &tb, &G } ;
            GCU_TRY (gcu_jit_launch (fpull, grid_for (mm, G, dev), GCU_MXV_THREADS, smem, s, args)) ;
            GCU_TRY (gcu_launch_check ("mxv pull")) ;
        }
        if (cudaEventRecord (ev [1], (cudaStream_t) s) != cudaSuccess) GCU_TRY (GrB_PANIC) ;
        GCU_TRY (gcu_sync (s)) ;
        float ms = 0 ;
        if (cudaEventElapsedTime (&ms, ev [0], ev [1]) != cudaSuccess) GCU_TRY (GrB_PANIC) ;
        kernel_s = 1e-3 * ms ;
        cudaEventDestroy (ev [0]) ; cudaEventDestroy (ev [1]) ;
        ev [0] = ev [1] = NULL ;
    }
    const double t2 = gcu_now () ;

    // T back: flags and values, compacted on the host into w's arrays
    hTb = malloc (m + 1) ;
    if (hTb == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    GCU_TRY (gcu_d2h_staged (hTb, dTb, m, 1, 1, s)) ;
    GrB_Index tnvals = 0 ;
    for (GrB_Index i = 0 ; i < m ; i++) tnvals += (hTb [i] != 0) ;
    size_t down_bytes = m ;
    if (tnvals > 0)
    {
        hTx = malloc ((m + 1) * zsize) ;
        if (hTx == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
        GCU_TRY (gcu_d2h_staged (hTx, dTx, m * zsize, 1, 1, s)) ;
        down_bytes += m * zsize ;
    }
    Ti = gcu_host_malloc ((tnvals + 1) * sizeof (GrB_Index)) ;
    Tx = gcu_host_malloc ((tnvals + 1) * zsize) ;
    if (Ti == NULL || Tx == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    for (GrB_Index i = 0, q = 0 ; i < m && q < tnvals ; i++)
    {
        if (!hTb [i]) continue ;
        Ti [q] = i ;
        memcpy ((char *) Tx + q * zsize, (const char *) hTx + i * zsize, zsize) ;
        q++ ;
    }
    free (hTx) ; free (hTb) ; free (allow) ;
    hTx = NULL ; hTb = NULL ; allow = NULL ;
    gcu_dfree (dTx, s) ; gcu_dfree (dTb, s) ; gcu_dfree (dlocks, s) ; gcu_dfree (dallow, s) ;
    dTx = NULL ; dTb = NULL ; dlocks = NULL ; dallow = NULL ;
    char da [64], du [64] ;
    gcu_operand_describe (&om, "A", NULL, da, sizeof (da)) ;
    vec_describe (&ou, "u", du, sizeof (du)) ;
    const size_t up_bytes = om.up_bytes + ou.up_bytes + (call->M != NULL && work ? m : 0) ;
    const double t_export = om.export_s + ou.export_s, t_upload = om.upload_s + ou.upload_s ;
    // the downloads synchronised: no kernel reads the operands any more
    vec_release (&ou, s) ;
    gcu_operand_release (&om, s) ;
    const double t3 = gcu_now () ;

    // w<M,replace> = accum (w, T); on success T's arrays belong to SuiteSparse
    call->c_written = true ;
    GrB_Info info = write_back (call, spec.sr.mult.z.handle, m, &Ti, &Tx, tnvals, zsize) ;
    // w may be an input too (w = A*w): its device copies are stale now
    gcu_residency_invalidate (call->C) ;
    if (info != GrB_SUCCESS) GCU_TRY (info) ;
    gcu_host_free (Ti) ; gcu_host_free (Tx) ;
    call->kernel_seconds = kernel_s ;
    call->up_bytes = up_bytes ;
    call->down_bytes = down_bytes ;
    gcu_log ("%s gpu %s (G %d): nnz(A) %llu, nnz(u) %llu, mask allows %llu of %llu, "
        "nnz(T) %llu; %s, %s, %.1f MB up; operands %.2f ms (export %.2f ms, upload "
        "%.2f ms), kernels %.3f ms, download %.2f ms (%.1f MB), write-back %.2f ms",
        vxm ? "GrB_vxm" : "GrB_mxv", !work ? "empty" : push ? "push" : "pull", G,
        (unsigned long long) anvals, (unsigned long long) unvals,
        (unsigned long long) nallow, (unsigned long long) m, (unsigned long long) tnvals,
        da, du, up_bytes / 1e6, 1e3 * (t1 - t_op0), 1e3 * t_export, 1e3 * t_upload,
        1e3 * kernel_s, 1e3 * (t3 - t2), down_bytes / 1e6, 1e3 * (gcu_now () - t3)) ;
    (void) t0 ;
    return GrB_SUCCESS ;
}

const gcu_family gcu_family_mxv = { "mxv", GCU_OP_MXV, mxv_branch, mxv_run } ;
const gcu_family gcu_family_vxm = { "vxm", GCU_OP_VXM, mxv_branch, mxv_run } ;

#else

void gcu_mxv_force_method (int method) { (void) method ; }

#endif
