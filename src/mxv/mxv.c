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
// sparse BFS frontier pushes, a dense x (SpMV) pulls; BFS's push (an ANY or
// terminal monoid, a complemented mask) is rechecked against the frontier's
// real edges (src/mxv/mxv_method.c). Push splits the rows
// of P longer than GCU_MXV_PUSH_LONG_ROW into segments, a warp each, found
// on the device (push_split.cu) whenever P may have such rows: a power-law
// graph's hub in a frontier would otherwise be walked by one warp. Pull's
// group is the mean row rounded up to a power of two, at most
// GCU_MXV_PULL_ANY_G threads for an ANY monoid, whose row ends at its first
// entry (BFS's first frontier neighbour: a warp a row read 32 entries and
// gathers where one or two were needed).
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
#include "gcu_mxv_method.h"
#include "gcu_spmv_plan.h"
#include "../residency/gcu_operand.h"
#include "gcu_util.h"
#include "gcu_real.h"
#include "grbcuda.h"
#include "../device/gcu_device.h"
#include "../device/gcu_staging.h"
#include "../vector/gcu_vector.h"
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if GRBCUDA_HAVE_CUDA
#include <cuda_runtime_api.h>

// push's split: the tests' force (-1: none), GRBCUDA_PUSH_SPLIT's setting,
// and what the last push did (atomic: GPU calls from several threads)
static int force_split = -1 ;
static int64_t force_lrow = 0, force_seg = 0 ;
static int env_split = -1 ;
static int64_t env_lrow = 0, env_seg = 0 ;
static pthread_once_t env_once = PTHREAD_ONCE_INIT ;
static _Atomic int last_split = -1 ;

void gcu_mxv_force_push_split (int split, int64_t lrow, int64_t seg)
{
    force_split = split ;
    force_lrow = lrow ;
    force_seg = seg ;
}

int gcu_mxv_last_push_split (void) { return atomic_load_explicit (&last_split, memory_order_relaxed) ; }
void gcu_mxv_last_push_split_reset (void) { atomic_store_explicit (&last_split, -1, memory_order_relaxed) ; }

// GRBCUDA_PUSH_SPLIT, read once: "0" never splits, "1" (or unset) is the
// automatic choice, "lrow,seg" the automatic choice with that bound and
// segment (measurements)
static void env_read (void)
{
    const char *e = getenv ("GRBCUDA_PUSH_SPLIT") ;
    if (e == NULL || e [0] == '\0') return ;
    long long l = 0, g = 0 ;
    if (strcmp (e, "0") == 0) env_split = 0 ;
    else if (sscanf (e, "%lld,%lld", &l, &g) == 2 && l > 0 && g > 0) { env_lrow = l ; env_seg = g ; }
    else if (strcmp (e, "1") != 0)
        fprintf (stderr, "[grbcuda] GRBCUDA_PUSH_SPLIT=%s not 0, 1 or lrow,seg; ignored\n", e) ;
}

// Whether push splits, for a P of nnz anvals whose rows have at most m
// entries (|w|): the rows longer than *lrow, in segments of *seg entries.
// Automatic: whenever P may have such a row. Its extra launches (the scan,
// one wave of the split kernel: a few microseconds) are not worth knowing
// the frontier's longest row on the host, which would cost a wait.
static bool push_split (GrB_Index m, GrB_Index anvals, int64_t *lrow, int64_t *seg)
{
    pthread_once (&env_once, env_read) ;
    const int split = force_split >= 0 ? force_split : env_split ;
    *lrow = force_lrow > 0 ? force_lrow : env_lrow > 0 ? env_lrow : GCU_MXV_PUSH_LONG_ROW ;
    *seg = force_seg > 0 ? force_seg : env_seg > 0 ? env_seg : GCU_MXV_PUSH_SEG ;
    if (split == 0) return false ;
    return m > (GrB_Index) *lrow && anvals > (GrB_Index) *lrow ;
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
    if (!gcu_mask_kind (call->desc, &structural, &comp)) return GCU_NOT_HANDLED ;
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
// the run
//------------------------------------------------------------------------------

// threads per row (pull) or per entry of u (push): the average length of
// what one group walks, rounded up to a power of two, at most a warp
static int group_size (double avg)
{
    int g = 1 ;
    while (g < GCU_MXV_GROUP_MAX && g < avg) g *= 2 ;
    return g ;
}

// blocks for items groups of G threads; capped (grid-stride loops) or not
static unsigned grid_for (int64_t items, int G, bool capped, const gcu_device_props *dev)
{
    int64_t grid = (items * G + GCU_MXV_THREADS - 1) / GCU_MXV_THREADS ;
    int64_t cap = (int64_t) (dev != NULL ? dev->sm_count : 1) * GCU_MXV_BLOCKS_PER_SM ;
    if (capped && grid > cap) grid = cap ;
    if (grid < 1) grid = 1 ;
    return (unsigned) grid ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (didx, s) ; gcu_dfree (dvals, s) ; \
    gcu_host_free (*Ti) ; gcu_host_free (*Tx) ; *Ti = NULL ; *Tx = NULL ;

// T (presence bytes dTb, values dTx of zsize bytes, length m) back to the
// host as w's arrays: positions *Ti and values *Tx (gcu_host_malloc),
// *tnvals entries; synchronises s. Compacted on the device (gcu_vec_compact:
// CUB's select and a gather) and brought back as w's entries only, into
// the arrays SuiteSparse will own (the image's two arrays compacted on the
// host took 8.4 ms of a 9.5 ms PageRank mxv on the H100 machine,
// 2026-11-26); GCU_NOT_HANDLED (the host computes the call) for an image
// past CUB's int lengths
static GrB_Info download_T (GrB_Index m, size_t zsize, const int8_t *dTb, const void *dTx,
    GrB_Index **Ti, void **Tx, GrB_Index *tnvals, size_t *down_bytes, gcu_stream s)
{
    int64_t *didx = NULL ;
    void *dvals = NULL ;
    int64_t nt = 0 ;
    *Ti = NULL ; *Tx = NULL ;
    GCU_TRY (gcu_dmalloc ((void **) &didx, (m + 1) * sizeof (int64_t), s)) ;
    GCU_TRY (gcu_dmalloc (&dvals, (m + 1) * zsize, s)) ;
    GCU_TRY (gcu_vec_compact (dTb, dTx, (int64_t) m, zsize, didx, dvals, &nt, s)) ;
    *Ti = gcu_host_malloc (((size_t) nt + 1) * sizeof (GrB_Index)) ;
    *Tx = gcu_host_malloc (((size_t) nt + 1) * zsize) ;
    if (*Ti == NULL || *Tx == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    const gcu_d2h_seg seg [2] = {
        { *Ti, didx, (size_t) nt * sizeof (int64_t), 1, 1 },
        { *Tx, dvals, (size_t) nt * zsize, 1, 1 } } ;
    GCU_TRY (gcu_d2h_staged_segs (seg, 2, s)) ;
    gcu_dfree (didx, s) ;
    gcu_dfree (dvals, s) ;
    *tnvals = (GrB_Index) nt ;
    *down_bytes = sizeof (int64_t) + (size_t) nt * (sizeof (int64_t) + zsize) ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

// One product's device side: what compute_T launches on
typedef struct
{
    const gcu_mxv_spec *spec ;
    bool push ;
    const gcu_spmv *sp ;        // an SpMV variant (u full, no mask), or NULL
    const gcu_operand *om ;
    const gcu_vec *ou ;
    const int8_t *dallow ;
    void *dTx ;
    int8_t *dTb ;
    int32_t **dlocks ;          // allocated here when the kernels need locks
    int64_t **dscan ;           // push's split: the scan of the segments (allocated here)
    GrB_Index m, n, anvals ;
    int64_t lrow, seg ;         // push's split: rows longer than lrow (0: none), segments
}
mxv_job ;

// push: T to the identity, then a group per entry of u; with the split,
// the rows of P longer than j->lrow are left to push_long: their segments
// counted and scanned on the device, then a warp a segment
static GrB_Info launch_push (const mxv_job *j, void *const fns [], gcu_mxv_args *a, int *G,
    gcu_stream s)
{
    const gcu_device_props *dev = gcu_device () ;
    void *args [] = { a } ;
    if (j->spec->sr.mult.z.size > 8)
        GCU_TRY (gcu_dmalloc ((void **) j->dlocks, (j->m + 1) * sizeof (int32_t), s)) ;
    a->locks = *j->dlocks ;
    a->n = (int64_t) j->m ;
    GCU_TRY (gcu_jit_launch (fns [GCU_MXV_K_INIT], grid_for (a->n, 1, true, dev), GCU_MXV_THREADS, 0, s, args)) ;
    GCU_TRY (gcu_launch_check ("mxv init")) ;
    a->n = (int64_t) j->ou->nvals ;
    a->Ui = (const int64_t *) j->ou->b ;
    a->G = *G = group_size ((double) j->anvals / (double) (j->n > 0 ? j->n : 1)) ;
    a->lrow = j->lrow ;
    GCU_TRY (gcu_jit_launch (fns [GCU_MXV_K_PUSH], grid_for (a->n, a->G, true, dev), GCU_MXV_THREADS, 0, s, args)) ;
    GCU_TRY (gcu_launch_check ("mxv push")) ;
    if (j->lrow <= 0) return GrB_SUCCESS ;
    // (a u of a warp's entries or fewer: the split kernel scans them itself)
    if (a->n > GCU_MXV_PUSH_WARP_SCAN)
        GCU_TRY (gcu_mxv_push_scan (j->om->p, j->om->idx64, a->Ui, a->n, j->lrow, j->seg, j->dscan, s)) ;
    a->Ls = *j->dscan ;
    a->seg = j->seg ;
    // the segments are counted on the device only: a grid-stride loop over
    // one wave of blocks, fewer where P cannot give that many segments (u's
    // entries are distinct rows of P: a long row of len entries gives at
    // most len / seg + 1 of them, and no row is longer than |w|)
    const double most = fmin ((double) a->n * ceil ((double) j->m / (double) j->seg),
        (double) j->anvals / (double) j->seg + (double) j->anvals / (double) j->lrow + 1) ;
    const int64_t wave = dev != NULL ? (int64_t) dev->sm_count * dev->max_threads_per_sm / GCU_MXV_THREADS : 1 ;
    const int64_t need = (int64_t) ceil (most * 32 / GCU_MXV_THREADS) ;
    const unsigned grid = (unsigned) (need < 1 ? 1 : need < wave ? need : wave) ;
    GCU_TRY (gcu_jit_launch (fns [GCU_MXV_K_PUSH_LONG], grid, GCU_MXV_THREADS, 0, s, args)) ;
    return gcu_launch_check ("mxv push long rows") ;
}

// the SpMV variant j->sp: the base kernel over every row, then the long
// rows' segments (split)
static GrB_Info launch_spmv (const mxv_job *j, void *const fns [], gcu_mxv_args *a, int *G,
    gcu_stream s)
{
    const gcu_spmv *sp = j->sp ;
    const size_t zsize = j->spec->sr.mult.z.size ;
    void *args [] = { a } ;
    a->n = (int64_t) j->m ;
    a->lrow = sp->split ? sp->plan.lrow : 0 ;
    if (sp->hub)
    {
        // u permuted by the hub order, read through R's relabelled indices
        GCU_TRY (gcu_spmv_hub_gather (sp->Hp, sp->ncols, a->Ux, sp->usize, sp->xp, s)) ;
        a->Ux = sp->xp ;
        a->Rj = sp->Hj ;
    }
    if (sp->variant == GCU_SPMV_VECTOR)
    {
        a->G = *G = sp->G ;
        GCU_TRY (gcu_jit_launch (fns [GCU_MXV_K_VECTOR], grid_for (a->n, a->G, false, NULL),
            GCU_MXV_THREADS, 0, s, args)) ;
    }
    else if (sp->variant == GCU_SPMV_SELL || sp->variant == GCU_SPMV_SELLSORT)
    {
        a->So = sp->So ; a->Sp = sp->Sp ; a->Sj = sp->Sj ; a->Sx = sp->Sx ;
        GCU_TRY (gcu_jit_launch (fns [GCU_MXV_K_SELL], grid_for (a->n, 1, false, NULL),
            GCU_MXV_THREADS, 0, s, args)) ;
    }
    else if (sp->variant == GCU_SPMV_ADAPTIVE)
    {
        a->Bs = sp->plan.Bs ; a->C = sp->C ; a->G = sp->W ;
        const unsigned smem = (unsigned) ((((size_t) sp->C * zsize + 15) & ~(size_t) 15)
            + (size_t) (GCU_MXV_ADAPTIVE_ROWS + 1) * sizeof (int64_t)) ;
        GCU_TRY (gcu_jit_launch (fns [GCU_MXV_K_ADAPTIVE], (unsigned) sp->plan.nblk, GCU_MXV_THREADS,
            smem, s, args)) ;
    }
    else
    {
        a->R = sp->R ; a->C = sp->C ;
        const int64_t grid = (a->n + sp->R - 1) / sp->R ;
        const unsigned smem = (unsigned) ((((size_t) sp->C * zsize + 15) & ~(size_t) 15)
            + (size_t) (sp->R + 1) * sizeof (int64_t)) ;
        GCU_TRY (gcu_jit_launch (fns [GCU_MXV_K_STREAM], (unsigned) grid, GCU_MXV_THREADS, smem, s, args)) ;
    }
    GCU_TRY (gcu_launch_check ("mxv spmv")) ;
    if (!sp->split || sp->plan.nseg == 0) return GrB_SUCCESS ;
    if (zsize > 8)
    {
        GCU_TRY (gcu_dmalloc ((void **) j->dlocks, (j->m + 1) * sizeof (int32_t), s)) ;
        GCU_TRY (gcu_memset (*j->dlocks, 0, (j->m + 1) * sizeof (int32_t), s)) ;
    }
    a->locks = *j->dlocks ;
    a->n = sp->plan.nseg ;
    a->Sg = sp->plan.Sg ;
    GCU_TRY (gcu_jit_launch (fns [GCU_MXV_K_LONG], grid_for (a->n, 32, false, NULL),
        GCU_MXV_THREADS, 0, s, args)) ;
    return gcu_launch_check ("mxv spmv long rows") ;
}

// T = R*u queued on the device (push, an SpMV variant, or pull), timed by
// tk (read once the call has synchronised); *G the group size used
static GrB_Info compute_T (const mxv_job *j, int *G, gcu_timer *tk, gcu_stream s)
{
    void *fns [GCU_MXV_NKERNELS] ;
    GCU_TRY (gcu_mxv_kernels (j->spec, j->sp != NULL && !j->push ? GCU_MXV_SET_SPMV
        : GCU_MXV_SET_BASE, j->sp != NULL ? &j->sp->kv : NULL, fns)) ;
    gcu_timer_start (tk, s) ;
    gcu_mxv_args a ;
    memset (&a, 0, sizeof (a)) ;
    a.Rp = j->om->p ; a.Rj = j->om->j ; a.Rx = j->om->x ;
    a.Ux = j->ou->x ;
    a.allow = j->dallow ;
    a.Tx = j->dTx ; a.Tb = j->dTb ;
    if (j->push) GCU_TRY (launch_push (j, fns, &a, G, s)) ;
    else if (j->sp != NULL) GCU_TRY (launch_spmv (j, fns, &a, G, s)) ;
    else
    {
        void *args [] = { &a } ;
        a.n = (int64_t) j->m ;
        a.Ub = (const int8_t *) j->ou->b ;
        a.G = *G = group_size ((double) j->anvals / (double) (j->m > 0 ? j->m : 1)) ;
        a.group_exit = !gcu_mxv_bfs_exp (GCU_BFS_EXP_NO_GROUP_EXIT) ;
        if (a.group_exit && j->spec->sr.add.is_any) a.G = *G = gcu_mxv_pull_exit_group (a.G) ;
        GCU_TRY (gcu_jit_launch (fns [GCU_MXV_K_PULL], grid_for (a.n, a.G, true, gcu_device ()),
            GCU_MXV_THREADS, 0, s, args)) ;
        GCU_TRY (gcu_launch_check ("mxv pull")) ;
    }
    gcu_timer_mark (tk, s) ;
    return GrB_SUCCESS ;
}

// The specialisation of call's product: its semiring, the matrix's (mdesc)
// and u's (udesc) value types in the order of the product's inputs
static GrB_Info spec_make (const gcu_call *call, GrB_Matrix A, GrB_Vector u, bool vxm,
    gcu_mxv_spec *spec, gcu_type_desc *mdesc, gcu_type_desc *udesc)
{
    GrB_Type mtype, utype ;
    GCU_TRY (gcu_semiring_identify (call->semiring, &spec->sr)) ;
    GCU_TRY (GxB_Matrix_type (&mtype, A)) ;
    GCU_TRY (GxB_Vector_type (&utype, u)) ;
    GCU_TRY (gcu_type_identify (mtype, mdesc)) ;
    GCU_TRY (gcu_type_identify (utype, udesc)) ;
    spec->ops.a = vxm ? *udesc : *mdesc ;
    spec->ops.b = vxm ? *mdesc : *udesc ;
    spec->ops.c = spec->sr.mult.z ;
    spec->ops.mask_type = -1 ;
    spec->vxm = vxm ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL                                                    \
    (void) gcu_sync (s) ;   /* no kernel reads an operand any more */   \
    (void) gcu_timer_read (&tk) ;                                       \
    gcu_dfree (dTx, s) ; gcu_dfree (dTb, s) ; gcu_dfree (dlocks, s) ;   \
    gcu_dfree (dallow, s) ; gcu_dfree (dscan, s) ;                      \
    gcu_spmv_release (&sp, s) ;                                         \
    gcu_vec_release (&ou, s) ; gcu_operand_release (&om, s) ;           \
    gcu_host_free (Ti) ; gcu_host_free (Tx) ;

// The SpMV variants compute every entry of every row, and split the long
// ones. ANY and the boolean monoids with a terminal value (LOR, LAND) keep
// the pull kernel, whose rows stop early: their terminal value is met at
// once. Other terminal values (MIN's least value, TIMES's 0) are rarely met,
// and pull walks a row with one group of threads: FastSV's MIN_SECOND over
// its parent matrix, one row holding most of 1M entries, took 14-98 ms of
// pull on the H200 for a product the host does in 1 ms. The tests and
// GRBCUDA_SPMV may still force a variant on any monoid.
static bool spmv_wanted (const gcu_semiring_desc *sr)
{
    const bool stops_early = sr->add.is_any
        || (sr->add.has_terminal && sr->add.op.z.code == GCU_T_BOOL) ;
    return !stops_early || gcu_mxv_spmv_forced () ;
}

// Nothing of w can change (no position allowed, or no entry of T to
// accumulate), and no replace: 1, w is left as it is, in whatever state, as
// SuiteSparse leaves it (an iso w stays iso: its reduction to MIN or MAX
// tells an iso all-NaN w from a non-iso one; tester seed
// 1459488013901427426 case 9594), but -1 (declined) below; else 0
static int w_unchanged (gcu_call *call, bool vxm, GrB_Index nallow, GrB_Index m,
    GrB_Index unvals, GrB_Index anvals)
{
    const bool t_empty = unvals == 0 || anvals == 0 ;
    if (call->replace || !(nallow == 0 || (t_empty && call->accum != NULL))) return 0 ;
    // an iso w and an accum (w's status left open): SuiteSparse makes such
    // a w not iso, or may (differential seed 1795938643243598189, H200:
    // eleven cases of an empty T or no allowed entry, each with an accum);
    // the host computes it
    if (call->c_iso_open)
    {
        gcu_iso_decline (call) ;
        return -1 ;
    }
    gcu_log ("%s gpu: w unchanged (mask allows %llu of %llu, nnz(u) %llu, nnz(A) %llu%s)",
        vxm ? "GrB_vxm" : "GrB_mxv", (unsigned long long) nallow, (unsigned long long) m,
        (unsigned long long) unvals, (unsigned long long) anvals, call->accum ? ", accum" : "") ;
    return 1 ;
}

// w's status not known before T (an accum into an iso w:
// gcu_iso_call_vector): from T's entries (presence bytes dTb, length m),
// counted on the device, into wb; else the call declined (GCU_NOT_HANDLED),
// w untouched
static GrB_Info w_status_counted (gcu_call *call, bool work, const int8_t *dTb, GrB_Index m,
    gcu_vec_wb *wb, gcu_stream s)
{
    int64_t tn = 0 ;
    const GrB_Info info = work ? gcu_vec_count (dTb, (int64_t) m, &tn, s) : GrB_SUCCESS ;
    if (info != GrB_SUCCESS) return info ;
    if (!gcu_iso_call_vector_counted (call, (GrB_Index) tn)) gcu_iso_decline (call) ;
    return (call->c_iso_open || !gcu_vec_call_wb (call, wb)) ? GCU_NOT_HANDLED : GrB_SUCCESS ;
}

// u full and no mask: an SpMV variant (*spmv; the plan computed, or the
// cache's); how: what runs and why, for the verbose line
static GrB_Info spmv_setup (const gcu_mxv_spec *spec, const gcu_operand *om, const gcu_vec *ou,
    bool masked, GrB_Index m, GrB_Index n, gcu_spmv *sp, bool *spmv, char *how, size_t hsize,
    gcu_stream s)
{
    if (ou->b == NULL && !masked && spmv_wanted (&spec->sr))
    {
        const gcu_spmv_matrix R = { .parent = om->e_, .Rp = om->p, .Rj = om->j, .Rx = om->x,
            .idx64 = om->idx64, .iso = om->iso,
            .vsize = spec->vxm ? spec->ops.b.size : spec->ops.a.size, .nrows = (int64_t) m,
            .nnz = (int64_t) om->nvals, .ncols = (int64_t) n,
            .usize = spec->vxm ? spec->ops.a.size : spec->ops.b.size } ;
        GrB_Info info = gcu_spmv_prepare (&R, spec->sr.mult.z.size,
            (spec->sr.mult.flags & GCU_OPF_POSITIONAL) != 0, sp, s) ;
        if (info != GrB_SUCCESS && info != GCU_NOT_HANDLED) return info ;
        *spmv = info == GrB_SUCCESS ;
    }
    if (*spmv) sp->kv.nat = sp->kv.nat && gcu_mxv_nat_ok (spec) ;      // (for the verbose line)
    if (*spmv) gcu_spmv_describe (sp, how, hsize) ;
    else snprintf (how, hsize, "pull (%s)", ou->b != NULL ? "u sparse: presence bytes"
        : masked ? "masked" : !spmv_wanted (&spec->sr) ? "monoid stops early"
        : "forced, or no SpMV plan") ;
    return GrB_SUCCESS ;
}

// The method's details, and what runs for the verbose line: the SpMV
// variant (pull, u full, no mask: spmv_setup) or the split (push)
static GrB_Info method_setup (const gcu_mxv_spec *spec, const gcu_operand *om, const gcu_vec *ou,
    bool work, bool push, bool masked, GrB_Index m, GrB_Index n, GrB_Index anvals, gcu_spmv *sp,
    bool *spmv, bool *split, int64_t *lrow, int64_t *seg, char *how, size_t hsize, gcu_stream s)
{
    *split = work && push && push_split (m, anvals, lrow, seg) ;
    if (work && !push) return spmv_setup (spec, om, ou, masked, m, n, sp, spmv, how, hsize, s) ;
    if (*split) snprintf (how, hsize, "push (split rows > %lld)", (long long) *lrow) ;
    else snprintf (how, hsize, "%s", work ? "push" : "empty") ;
    return GrB_SUCCESS ;
}

// the mask's allowed entries, on the device (none: all m); *secs its time,
// its export and upload with it (the verbose line's)
static GrB_Info mask_allow (const gcu_call *call, const gcu_vec_wb *wb, GrB_Index m, void **dallow,
    GrB_Index *nallow, size_t *up, double *secs, gcu_stream s)
{
    const double t0 = gcu_now () ;
    const GrB_Info info = call->M == NULL ? GrB_SUCCESS
        : gcu_vec_allow (wb, m, (int8_t **) dallow, nallow, up, s) ;
    *secs = gcu_now () - t0 ;
    return info ;
}

// w's write-back (wb), and whether it runs on the device (*merge): its
// kernel asked for now, before any operand moves (a compile deferred after
// the uploads wasted them)
static GrB_Info wb_setup (gcu_call *call, GrB_Type ztype, gcu_vec_wb *wb, bool *merge)
{
    *merge = false ;
    if (!gcu_vec_call_wb (call, wb)) return GCU_NOT_HANDLED ;
    *merge = gcu_vec_merge_applies (wb, ztype) ;
    return *merge ? gcu_vec_write_back_kernel (wb, ztype) : GrB_SUCCESS ;
}

static GrB_Info mxv_run (gcu_call *call)
{
    gcu_stream s = gcu_stream_default () ;
    const bool vxm = call->op == GCU_OP_VXM ;
    gcu_operand om ;
    gcu_vec ou ;
    gcu_timer tk = { NULL, NULL } ;
    void *dTx = NULL, *dallow = NULL, *Tx = NULL ;
    int8_t *dTb = NULL ;
    int32_t *dlocks = NULL ;
    int64_t *dscan = NULL ;
    GrB_Index *Ti = NULL ;
    gcu_mxv_spec spec ;
    gcu_spmv sp ;
    memset (&sp, 0, sizeof (sp)) ; memset (&om, 0, sizeof (om)) ;
    memset (&ou, 0, sizeof (ou)) ; memset (&spec, 0, sizeof (spec)) ;

    GrB_Matrix A = the_matrix (call) ;
    GrB_Vector u = the_vector (call) ;
    const bool tran = vxm ? call->tran_b : call->tran_a ;
    const GrB_Index m = call->c_rows ;                          // |w|
    const GrB_Index n = vxm ? call->a_rows : call->b_rows ;     // |u|
    const GrB_Index unvals = vxm ? call->a_nvals : call->b_nvals ;
    const GrB_Index anvals = vxm ? call->b_nvals : call->a_nvals ;
    gcu_type_desc mdesc, udesc ;
    GCU_TRY (spec_make (call, A, u, vxm, &spec, &mdesc, &udesc)) ;
    const size_t zsize = spec.sr.mult.z.size ;
    if (!gcu_iso_call_vector (call, &spec.sr)) GCU_TRY (GCU_NOT_HANDLED) ;

    gcu_vec_wb wb ;
    bool merge ;
    GCU_TRY (wb_setup (call, spec.sr.mult.z.handle, &wb, &merge)) ;
    GrB_Index nallow = m ; size_t mask_up = 0 ;
    double mask_s = 0 ;
    GCU_TRY (mask_allow (call, &wb, m, &dallow, &nallow, &mask_up, &mask_s, s)) ;

    const int same = w_unchanged (call, vxm, nallow, m, unvals, anvals) ;
    if (same < 0) GCU_TRY (GCU_NOT_HANDLED) ;
    if (same > 0) { GCU_FREE_ALL ; return GrB_SUCCESS ; }

    bool push = gcu_mxv_use_push (unvals, anvals, nallow, m, n) ;
    const bool work = unvals > 0 && nallow > 0 && anvals > 0 ;

    // R's rows (pull) or P = R' (push): for mxv R = op(A), whose CSR is A's
    // CSC when A is transposed; for vxm R = op(B)', whose CSR is B's CSC
    // when B is not transposed
    const bool r_by_col = vxm ? !tran : tran ;
    const double t_op0 = gcu_now () ;
    int64_t mf = -1 ; size_t re_up = 0 ;     // push_recheck's frontier edges, given-back uploads
    if (work) GCU_TRY (gcu_mxv_operands (A, u, wb.complement, &spec.sr, nallow, m, n, anvals,
        r_by_col, mdesc.size, udesc.size, &om, &ou, &push, &mf, &re_up, s)) ;
    if (vxm) spec.ops.b_iso = om.iso ; else spec.ops.a_iso = om.iso ;
    spec.idx64 = om.idx64 ;
    // (+8: the CAS of a 1- or 2-byte value reads its whole aligned word)
    GCU_TRY (gcu_dmalloc (&dTx, (m + 1) * zsize + 8, s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &dTb, m + 1, s)) ;
    const double t1 = gcu_now () ;

    char how [256] ;
    bool spmv = false, split = false ;
    int64_t lrow = 0, seg = 0 ;
    GCU_TRY (method_setup (&spec, &om, &ou, work, push, dallow != NULL, m, n, anvals, &sp, &spmv,
        &split, &lrow, &seg, how, sizeof (how), s)) ;

    // T = R*u on the device
    int G = 1 ;
    if (!work)
    {
        // no entry of T: nothing to compute
        GCU_TRY (gcu_memset (dTb, 0, m + 1, s)) ;
    }
    else
    {
        const mxv_job job = { &spec, push, spmv ? &sp : NULL, &om, &ou, (const int8_t *) dallow,
            dTx, dTb, &dlocks, &dscan, m, n, anvals, split ? lrow : 0, seg } ;
        GCU_TRY (compute_T (&job, &G, &tk, s)) ;
        if (!push) gcu_mxv_last_spmv_set (spmv ? sp.variant + (sp.split ? 16 : 0) : GCU_SPMV_PULL) ;
        atomic_store_explicit (&last_split, push ? (int) split : -1, memory_order_relaxed) ;
    }
    const double t2 = gcu_now () ;
    char da [64], du [64] ;
    gcu_operand_describe (&om, "A", NULL, da, sizeof (da)) ;
    gcu_vec_describe (&ou, "u", du, sizeof (du)) ;
    const size_t up_bytes = om.up_bytes + ou.up_bytes + mask_up + re_up ;
    if (mf >= 0) snprintf (how + strlen (how), sizeof (how) - strlen (how), " (frontier's edges %lld)", (long long) mf) ;
    const double t_export = om.export_s + ou.export_s, t_upload = om.upload_s + ou.upload_s ;

    if (call->c_iso_open) GCU_TRY (w_status_counted (call, work, dTb, m, &wb, s)) ;

    // w<M,replace> = accum (w, T) on the device: w is left device newest
    if (merge)
    {
        GrB_Index wnvals = 0 ;
        size_t wb_up = 0 ;
        GrB_Info info = gcu_vec_write_back (&wb, spec.sr.mult.z.handle, zsize, m, dTb, dTx,
            &wnvals, &wb_up, s) ;
        if (info == GrB_SUCCESS)
        {
            // (the write-back synchronised: the kernels' time is there)
            const double kernel_s = call->kernel_seconds = fmax (gcu_timer_read (&tk), 0) ;
            call->up_bytes = up_bytes + wb_up ;
            call->down_bytes = 0 ;
            gcu_log ("%s gpu %s (G %d): nnz(A) %llu, nnz(u) %llu, mask allows %llu of %llu; "
                "%s, %s, %.1f MB up; mask %.2f ms (%.1f MB up), operands %.2f ms (export %.2f ms, "
                "upload %.2f ms), kernels %.3f ms, kernels and write-back on the device %.2f ms: "
                "w left there (%llu entries)", vxm ? "GrB_vxm" : "GrB_mxv", how, G,
                (unsigned long long) anvals, (unsigned long long) unvals, (unsigned long long) nallow,
                (unsigned long long) m, da, du, (up_bytes + wb_up) / 1e6, 1e3 * mask_s, mask_up / 1e6,
                1e3 * (t1 - t_op0), 1e3 * t_export, 1e3 * t_upload, 1e3 * kernel_s,
                1e3 * (gcu_now () - t2), (unsigned long long) wnvals) ;
            GCU_FREE_ALL ;
            return GrB_SUCCESS ;
        }
        // no room or not expressible: T goes to the host after all
        if (info != GCU_NOT_HANDLED) GCU_TRY (info) ;
    }

    // T back: flags and values, compacted on the host into w's arrays
    GrB_Index tnvals = 0 ;
    size_t down_bytes = 0 ;
    GCU_TRY (download_T (m, zsize, dTb, dTx, &Ti, &Tx, &tnvals, &down_bytes, s)) ;
    const double kernel_s = call->kernel_seconds = fmax (gcu_timer_read (&tk), 0) ;
    gcu_dfree (dTx, s) ; gcu_dfree (dTb, s) ; gcu_dfree (dlocks, s) ; gcu_dfree (dallow, s) ;
    gcu_dfree (dscan, s) ;
    dTx = NULL ; dTb = NULL ; dlocks = NULL ; dallow = NULL ; dscan = NULL ;
    // the downloads synchronised: no kernel reads the operands any more
    gcu_vec_release (&ou, s) ;
    gcu_operand_release (&om, s) ;
    const double t3 = gcu_now () ;

    // w<M,replace> = accum (w, T); on success T's arrays belong to SuiteSparse
    call->c_written = true ;
    GrB_Info info = gcu_mxv_write_back (call, spec.sr.mult.z.handle, m, &Ti, &Tx, tnvals, zsize) ;
    // w may be an input too (w = A*w): its device copies are stale now
    gcu_residency_invalidate (call->C) ;
    if (info != GrB_SUCCESS) GCU_TRY (info) ;
    gcu_host_free (Ti) ; gcu_host_free (Tx) ;
    call->up_bytes = up_bytes ;
    call->down_bytes = down_bytes ;
    gcu_log ("%s gpu %s (G %d): nnz(A) %llu, nnz(u) %llu, mask allows %llu of %llu, "
        "nnz(T) %llu; %s, %s, %.1f MB up; mask %.2f ms (%.1f MB up), operands %.2f ms (export "
        "%.2f ms, upload %.2f ms), kernels %.3f ms, download %.2f ms (%.1f MB), write-back %.2f ms",
        vxm ? "GrB_vxm" : "GrB_mxv", how, G,
        (unsigned long long) anvals, (unsigned long long) unvals,
        (unsigned long long) nallow, (unsigned long long) m, (unsigned long long) tnvals,
        da, du, up_bytes / 1e6, 1e3 * mask_s, mask_up / 1e6, 1e3 * (t1 - t_op0),
        1e3 * t_export, 1e3 * t_upload,
        1e3 * kernel_s, 1e3 * (t3 - t2), down_bytes / 1e6, 1e3 * (gcu_now () - t3)) ;
    return GrB_SUCCESS ;
}

const gcu_family gcu_family_mxv = { "mxv", GCU_OP_MXV, mxv_branch, mxv_run } ;
const gcu_family gcu_family_vxm = { "vxm", GCU_OP_VXM, mxv_branch, mxv_run } ;

#else

void gcu_mxv_force_push_split (int split, int64_t lrow, int64_t seg)
{
    (void) split ; (void) lrow ; (void) seg ;
}
int gcu_mxv_last_push_split (void) { return -1 ; }
void gcu_mxv_last_push_split_reset (void) { }

#endif
