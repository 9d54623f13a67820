// dispatch.c — check and decide (DESIGN §2 steps 1-2, 4). The order of the
// decision is: mode host; arguments SuiteSparse must judge (NULL, invalid or
// uninitialised objects, dimension mismatch) or that leave nothing to compute
// (no mask, complemented: SuiteSparse's quick return); in auto mode, the host
// predicted faster by the cost model (predict.c, cost.c; or the work below a threshold
// set); no usable GPU (CUDA is started here, lazily, on the first call that
// wants it: in auto mode on a background thread, the host computing
// meanwhile); no kernel family takes the call (or, in auto mode, its kernel
// compiles in the background); the family fails.
// Anything not taken by the GPU goes to SuiteSparse untouched, so results and
// error codes are exactly SuiteSparse's.
#include "gcu_dispatch.h"
#include "../device/gcu_device.h"
#include "../residency/gcu_residency.h"
#include "../residency/gcu_operand.h"
#include "../jit/gcu_jit.h"
#include "gcu_cost.h"
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

// Shape of a matrix or vector (vectors are n-by-1). Any failure (invalid or
// uninitialised object) makes the whole call SuiteSparse's to judge.
static bool shape (const void *obj, bool vector, GrB_Index *rows,
    GrB_Index *cols, GrB_Index *nvals)
{
    if (obj == NULL) return false ;
    if (vector)
    {
        GrB_Vector v = (GrB_Vector) obj ;
        *cols = 1 ;
        return GrB_Vector_size (rows, v) == GrB_SUCCESS
            && (nvals == NULL || GrB_Vector_nvals (nvals, v) == GrB_SUCCESS) ;
    }
    GrB_Matrix m = (GrB_Matrix) obj ;
    return GrB_Matrix_nrows (rows, m) == GrB_SUCCESS
        && GrB_Matrix_ncols (cols, m) == GrB_SUCCESS
        && (nvals == NULL || GrB_Matrix_nvals (nvals, m) == GrB_SUCCESS) ;
}

// The fields the check reads, in this order.
enum { D_INP0, D_INP1, D_OUTP, D_MASK, D_NFIELDS } ;
static const GrB_Desc_Field desc_fields [D_NFIELDS] = { GrB_INP0, GrB_INP1, GrB_OUTP, GrB_MASK } ;

// The 31 predefined descriptors (GrB_DESC_T1 .. GrB_DESC_RSCT0T1) cannot be
// changed (SuiteSparse 7.4 answers GrB_Descriptor_set on one with
// GrB_INVALID_VALUE), and almost every call that has a descriptor passes
// one of them: their fields are read once, with GxB_Descriptor_get, into a
// table found by address, instead of four GxB_Descriptor_get calls a call.
// Any other descriptor is asked each time.
#define DESC_SLOTS 64
typedef struct { GrB_Descriptor d ; GrB_Desc_Value v [D_NFIELDS] ; } desc_known ;
static desc_known desc_table [DESC_SLOTS] ;
static _Atomic int desc_ready ;
static pthread_mutex_t desc_lock = PTHREAD_MUTEX_INITIALIZER ;

static size_t desc_slot (GrB_Descriptor d)
{
    return (size_t) (((uintptr_t) d >> 4) % DESC_SLOTS) ;
}

// Built at the first call with a descriptor (GraphBLAS is initialised: the
// call is one of its functions); a failure leaves the table unbuilt, to be
// tried again by a later call.
static void desc_build (void)
{
    pthread_mutex_lock (&desc_lock) ;
    if (!atomic_load_explicit (&desc_ready, memory_order_relaxed))
    {
        const GrB_Descriptor all [] = {
            GrB_DESC_T1, GrB_DESC_T0, GrB_DESC_T0T1,
            GrB_DESC_C, GrB_DESC_CT1, GrB_DESC_CT0, GrB_DESC_CT0T1,
            GrB_DESC_S, GrB_DESC_ST1, GrB_DESC_ST0, GrB_DESC_ST0T1,
            GrB_DESC_SC, GrB_DESC_SCT1, GrB_DESC_SCT0, GrB_DESC_SCT0T1,
            GrB_DESC_R, GrB_DESC_RT1, GrB_DESC_RT0, GrB_DESC_RT0T1,
            GrB_DESC_RC, GrB_DESC_RCT1, GrB_DESC_RCT0, GrB_DESC_RCT0T1,
            GrB_DESC_RS, GrB_DESC_RST1, GrB_DESC_RST0, GrB_DESC_RST0T1,
            GrB_DESC_RSC, GrB_DESC_RSCT1, GrB_DESC_RSCT0, GrB_DESC_RSCT0T1 } ;
        bool ok = true ;
        for (size_t k = 0 ; ok && k < sizeof (all) / sizeof (all [0]) ; k++)
        {
            if (all [k] == NULL) continue ;
            desc_known e = { .d = all [k] } ;
            for (int f = 0 ; ok && f < D_NFIELDS ; f++)
                ok = GxB_Descriptor_get (&e.v [f], all [k], desc_fields [f]) == GrB_SUCCESS ;
            size_t h = desc_slot (all [k]) ;
            while (ok && desc_table [h].d != NULL && desc_table [h].d != all [k])
                h = (h + 1) % DESC_SLOTS ;
            if (ok) desc_table [h] = e ;
        }
        if (ok) atomic_store_explicit (&desc_ready, 1, memory_order_release) ;
        else memset (desc_table, 0, sizeof (desc_table)) ;
    }
    pthread_mutex_unlock (&desc_lock) ;
}

// desc's fields: from the table, or asked; false if SuiteSparse refuses
// (an invalid descriptor: its error to report). NULL: all default.
static bool desc_values (GrB_Descriptor desc, GrB_Desc_Value v [D_NFIELDS])
{
    for (int f = 0 ; f < D_NFIELDS ; f++) v [f] = GxB_DEFAULT ;
    if (desc == NULL) return true ;
    if (!atomic_load_explicit (&desc_ready, memory_order_acquire)) desc_build () ;
    if (atomic_load_explicit (&desc_ready, memory_order_acquire))
    {
        for (size_t h = desc_slot (desc) ; desc_table [h].d != NULL ; h = (h + 1) % DESC_SLOTS)
        {
            if (desc_table [h].d == desc)
            {
                memcpy (v, desc_table [h].v, sizeof (desc_table [h].v)) ;
                return true ;
            }
        }
    }
    for (int f = 0 ; f < D_NFIELDS ; f++)
        if (GxB_Descriptor_get (&v [f], desc, desc_fields [f]) != GrB_SUCCESS) return false ;
    return true ;
}

// The descriptor's settings into c; false if SuiteSparse must judge it, or
// if the call has a NULL mask complemented: then no entry of C may be
// written (C stays, or is cleared with GrB_REPLACE) and nothing is
// computed, and SuiteSparse checks the arguments and returns at once.
static bool check_desc (gcu_call *c)
{
    GrB_Desc_Value dv [D_NFIELDS] ;
    if (!desc_values (c->desc, dv)) return false ;
    c->tran_a = dv [D_INP0] == GrB_TRAN ;
    c->tran_b = dv [D_INP1] == GrB_TRAN ;
    c->replace = dv [D_OUTP] == GrB_REPLACE ;
    const GrB_Desc_Value mask = dv [D_MASK] ;
    c->mask_comp = mask == GrB_COMP || mask == GrB_COMP + GrB_STRUCTURE ;
    return !(c->M == NULL && c->mask_comp) ;
}

// Step 1 for GrB_Vector_assign and its scalar forms: w, the mask and u of
// one length n, the whole of w assigned (GrB_ALL, ni = n; an index list
// stays SuiteSparse's), n > 0. work: n.
static bool check_assign (gcu_call *c)
{
    if (c->I != GrB_ALL || !check_desc (c)) return false ;
    if (!shape (c->C, true, &c->c_rows, &c->c_cols, NULL)) return false ;
    if (c->ni != c->c_rows || c->c_rows == 0) return false ;
    GrB_Index mr = c->c_rows, mc ;
    if (c->M != NULL && (!shape (c->M, true, &mr, &mc, NULL) || mr != c->c_rows)) return false ;
    c->a_rows = c->c_rows ;
    c->a_cols = 1 ;
    c->a_nvals = c->c_rows ;
    if (c->op == GCU_OP_VECTOR_ASSIGN)
    {
        if (!shape (c->A, true, &c->a_rows, &c->a_cols, &c->a_nvals)) return false ;
        if (c->a_rows != c->c_rows) return false ;
    }
    else if (c->scalar_type == NULL) return false ;
    c->b_rows = c->b_cols = c->b_nvals = 0 ;
    c->work = (double) c->c_rows ;
    c->checked = true ;
    return true ;
}

// Step 1 for GrB_Vector_apply and its bound forms (and GrB_Vector_select,
// an IndexOp form whose T keeps the entries op accepts): an operator, a scalar
// (typed or a GrB_Scalar) where the form has one, w, the mask and u of one
// length n > 0. work: nnz (u).
static bool check_apply (gcu_call *c)
{
    const bool bound = c->op != GCU_OP_VECTOR_APPLY ;
    if (c->op == GCU_OP_VECTOR_APPLY ? c->unop == NULL
        : (c->op == GCU_OP_VECTOR_APPLY_INDEXOP || c->op == GCU_OP_VECTOR_SELECT) ? c->idxop == NULL
        : c->binop == NULL) return false ;
    if (bound && c->scalar_type == NULL && c->alpha == NULL) return false ;
    if (!check_desc (c)) return false ;
    if (!shape (c->C, true, &c->c_rows, &c->c_cols, NULL) || c->c_rows == 0) return false ;
    GrB_Index mr = c->c_rows, mc ;
    if (c->M != NULL && (!shape (c->M, true, &mr, &mc, NULL) || mr != c->c_rows)) return false ;
    if (!shape (c->A, true, &c->a_rows, &c->a_cols, &c->a_nvals) || c->a_rows != c->c_rows)
        return false ;
    c->b_rows = c->b_cols = c->b_nvals = 0 ;
    c->work = (double) c->a_nvals ;
    c->checked = true ;
    return true ;
}

// Step 1 for GrB_Matrix_select_<T> (and _Scalar): an index unary operator
// and its thunk (typed or a GrB_Scalar); C, the mask and op(A) of one shape,
// no dimension 0. work: nnz (A).
static bool check_select (gcu_call *c)
{
    if (c->idxop == NULL || (c->scalar_type == NULL && c->alpha == NULL) || !check_desc (c))
        return false ;
    if (!shape (c->C, false, &c->c_rows, &c->c_cols, NULL)
        || !shape (c->A, false, &c->a_rows, &c->a_cols, &c->a_nvals)) return false ;
    const GrB_Index ar = c->tran_a ? c->a_cols : c->a_rows, ac = c->tran_a ? c->a_rows : c->a_cols ;
    if (ar != c->c_rows || ac != c->c_cols || ar == 0 || ac == 0) return false ;
    GrB_Index mr = c->c_rows, mc = c->c_cols ;
    if (c->M != NULL && (!shape (c->M, false, &mr, &mc, NULL) || mr != c->c_rows || mc != c->c_cols))
        return false ;
    c->b_rows = c->b_cols = c->b_nvals = 0 ;
    c->work = (double) c->a_nvals ;
    c->checked = true ;
    return true ;
}

// Step 1: fill shapes, transposes and the work estimate; false if the
// arguments are anything SuiteSparse should judge.
static bool check (gcu_call *c)
{
    gcu_op op = c->op ;
    if (gcu_op_assign (op)) return check_assign (c) ;
    if (gcu_op_apply (op)) return check_apply (c) ;
    if (gcu_op_select_matrix (op)) return check_select (c) ;
    bool vec = !gcu_op_matrix (op) ;
    if (op == GCU_OP_MXM || op == GCU_OP_MXV || op == GCU_OP_VXM
        || op == GCU_OP_MATRIX_EWISEMULT_SEMIRING
        || op == GCU_OP_MATRIX_EWISEADD_SEMIRING
        || op == GCU_OP_VECTOR_EWISEMULT_SEMIRING
        || op == GCU_OP_VECTOR_EWISEADD_SEMIRING)
    {
        if (c->semiring == NULL) return false ;
    }
    else if (op == GCU_OP_MATRIX_EWISEMULT_MONOID
        || op == GCU_OP_MATRIX_EWISEADD_MONOID
        || op == GCU_OP_VECTOR_EWISEMULT_MONOID
        || op == GCU_OP_VECTOR_EWISEADD_MONOID)
    {
        if (c->monoid == NULL) return false ;
    }
    else if (c->binop == NULL) return false ;
    if ((op == GCU_OP_MATRIX_EWISEUNION || op == GCU_OP_VECTOR_EWISEUNION)
        && (c->alpha == NULL || c->beta == NULL)) return false ;

    if (!check_desc (c)) return false ;

    // A of mxv/vxm is the matrix; u is the vector.
    bool a_vec = vec && op != GCU_OP_MXV ;
    bool b_vec = vec && op != GCU_OP_VXM ;
    if (!shape (c->C, vec, &c->c_rows, &c->c_cols, NULL)) return false ;
    if (!shape (c->A, a_vec, &c->a_rows, &c->a_cols, &c->a_nvals)) return false ;
    if (!shape (c->B, b_vec, &c->b_rows, &c->b_cols, &c->b_nvals)) return false ;
    GrB_Index m_rows = c->c_rows, m_cols = c->c_cols ;
    if (c->M != NULL && !shape (c->M, vec, &m_rows, &m_cols, NULL)) return false ;
    if (m_rows != c->c_rows || m_cols != c->c_cols) return false ;

    // Effective (possibly transposed) operand shapes.
    GrB_Index ar = c->a_rows, ac = c->a_cols, br = c->b_rows, bc = c->b_cols ;
    if (op == GCU_OP_MXM || gcu_op_matrix (op))
    {
        if (c->tran_a) { ar = c->a_cols ; ac = c->a_rows ; }
        if (c->tran_b) { br = c->b_cols ; bc = c->b_rows ; }
    }
    if (op == GCU_OP_MXM)
    {
        if (ac != br || c->c_rows != ar || c->c_cols != bc) return false ;
        // Expected products under uniform spreading: sum over k of
        // nnz(A(:,k)) * nnz(B(k,:)) ~ nnz(A) * nnz(B) / k.
        double k = ac > 0 ? (double) ac : 1.0 ;
        c->work = (double) c->a_nvals * (double) c->b_nvals / k ;
    }
    else if (op == GCU_OP_MXV || op == GCU_OP_VXM)
    {
        // mxv: w = A*u (A m-by-n, tran flips); vxm: w' = u'*A.
        GrB_Index mr = c->a_rows, mc = c->a_cols ;     // A of mxv is c->A
        if (op == GCU_OP_VXM) { mr = c->b_rows ; mc = c->b_cols ; }
        bool t = (op == GCU_OP_MXV) ? c->tran_a : c->tran_b ;
        if (t) { GrB_Index x = mr ; mr = mc ; mc = x ; }
        // work: the expected products, nnz(A) * nnz(u) / length(u) (a
        // sparse frontier touches that fraction of A's entries)
        if (op == GCU_OP_MXV)
        {
            if (mc != c->b_rows || mr != c->c_rows) return false ;
            c->work = (double) c->a_nvals * (double) c->b_nvals / (double) (mc > 0 ? mc : 1) ;
        }
        else
        {
            if (mr != c->a_rows || mc != c->c_rows) return false ;
            c->work = (double) c->b_nvals * (double) c->a_nvals / (double) (mr > 0 ? mr : 1) ;
        }
    }
    else
    {
        if (ar != br || ac != bc || ar != c->c_rows || ac != c->c_cols)
            return false ;
        c->work = (double) c->a_nvals + (double) c->b_nvals ;
    }
    // An operand with no rows or no columns: SuiteSparse 7.4 misjudges some
    // (B 1-by-0, full and iso, transposed: GrB_DIMENSION_MISMATCH, "input is
    // 0-by-0"; differential tester seed 6324736468625122518 case 7391), and
    // there is nothing to compute: its answer is the call's.
    if (c->a_rows == 0 || c->a_cols == 0 || c->b_rows == 0 || c->b_cols == 0) return false ;
    c->checked = true ;
    return true ;
}

// completed runs per family (a handful of families; a lock per GPU call
// costs nothing beside the call)
#define GCU_MAX_FAMILIES 32
static pthread_mutex_t family_lock = PTHREAD_MUTEX_INITIALIZER ;
static const char *family_name [GCU_MAX_FAMILIES] ;
static uint64_t family_count [GCU_MAX_FAMILIES] ;

static void family_ran (const char *name)
{
    pthread_mutex_lock (&family_lock) ;
    for (int k = 0 ; k < GCU_MAX_FAMILIES ; k++)
    {
        if (family_name [k] == NULL) family_name [k] = name ;
        if (strcmp (family_name [k], name) == 0) { family_count [k]++ ; break ; }
    }
    pthread_mutex_unlock (&family_lock) ;
}

uint64_t gcu_family_runs (const char *name)
{
    uint64_t n = 0 ;
    pthread_mutex_lock (&family_lock) ;
    for (int k = 0 ; k < GCU_MAX_FAMILIES && family_name [k] != NULL ; k++)
    {
        if (strcmp (family_name [k], name) == 0) { n = family_count [k] ; break ; }
    }
    pthread_mutex_unlock (&family_lock) ;
    return n ;
}

static const char *started_device (void)
{
    const gcu_device_props *p = (gcu_gpu_started () && gcu_gpu_ready ()) ? gcu_device () : NULL ;
    return p != NULL ? p->name : NULL ;
}

// Ski rental on CUDA's start itself (GRBCUDA_START_RENT=f, by default a
// fifth): before the GPU has started, the time the calls predicted faster
// there lose on the host (measured, less the GPU's predicted time) is added
// up, and CUDA starts once it reaches f times the start (cuda_start). A
// program whose calls gain little never starts it: the start costs the
// program's own threads too (LAGraph's
// connected components on rmat-20-16, H100 machine, 2026-11-26: 60 ms a
// trial while CUDA started in the background against 24 without, all its
// calls on the host; it had started for a vector assign predicted to gain
// 0.3 ms), and GrB_finalize waits for a start under way (a 15 ms program
// took 0.35-0.6 s when one call predicted 0.9 ms faster on the GPU began
// it, 2026-11-27).
// The gain of a call whose operands' upload is being rented is the rent's
// (predict.c: with the operands there), added as the rent adds it up, so
// that a BFS whose every call waits for its matrix's upload has paid for
// the start too by the time the upload is paid for. (Measured on the H100
// machine, 2026-11-27, bench/RESULTS.md: at a fifth, the showcase BFS on
// rmat-20-16 ran 3.9 ms a search over 11 searches against 65 on the host;
// in the form that did not count the rent's gains, 2026-11-26, every BFS
// had stayed on the host.)
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER ;
static double start_gain ;

double gcu_start_gain_add (double gain)
{
    if (!(gcu_settings ()->start_rent > 0)) return 0 ;
    pthread_mutex_lock (&start_lock) ;
    if (gain > 0 && !gcu_gpu_started ()) start_gain += gain ;
    const double total = start_gain ;
    pthread_mutex_unlock (&start_lock) ;
    return total ;
}

// Auto mode: the GPU predicted faster, and started. A threshold, where set,
// replaces the prediction, and its calls wait for the start and for their
// kernels as in gpu mode, as do all with GRBCUDA_JIT_BACKGROUND=0.
// Otherwise the start is waited for only by a call
// whose predicted host time is wait_factor times CUDA's start-up; any other
// runs on the host while CUDA starts in the background. *wait: the call
// may wait for its kernels' compilation too.
static bool auto_gpu (gcu_call *call, bool *wait_jit)
{
    const double th = gcu_threshold () ;
    const gcu_cost_table *t = gcu_cost_current (started_device ()) ;
    // timed from here: the host's time teaches the model (gcu_finish)
    if (th < 0 && call->t_start < 0) call->t_start = gcu_now () ;
    if (th >= 0 ? call->work < th : !gcu_predict (call, t))
    {
        call->reason = GRBCUDA_REASON_SMALL ;
        return false ;
    }
    if (call->t_start < 0) call->t_start = gcu_now () ;
    const bool background = th < 0 && gcu_jit_background_enabled () ;
    const bool wait = !background || call->host_s >= t->wait_factor * t->cuda_start ;
    const double rent = gcu_settings ()->start_rent ;
    if (background && rent > 0 && !gcu_gpu_started ())
    {
        // a call long enough to wait for the start counts its predicted gain
        // at once; any other, what it loses on the host once measured
        // (gcu_finish), as a rented upload's calls do (predict.c)
        const bool now = wait && !call->rent_paid ;
        const double gained = gcu_start_gain_add (now ? call->host_s - call->gpu_s : 0) ;
        if (gained < rent * t->cuda_start)
        {
            if (!now) call->start_gpu_s = call->gpu_s ;    // (a rent_key's loss comes first)
            call->reason = GRBCUDA_REASON_NO_GPU ;
            call->note = "CUDA's start not paid for yet by the time the GPU would save: host" ;
            return false ;
        }
        static atomic_bool paid_said ;
        if (!atomic_exchange (&paid_said, true))
            gcu_log ("CUDA's start paid for: the host calls' time lost against the GPU's "
                "predictions reached %.1f ms", 1e3 * gained) ;
    }
    if (!((gcu_gpu_started () || wait) ? gcu_gpu_start () : gcu_gpu_start_async ()))
    {
        call->reason = GRBCUDA_REASON_NO_GPU ;
        if (!gcu_gpu_started ())
        {
            call->pending = GCU_PENDING_START ;
            call->note = "CUDA starting in the background: host this time" ;
        }
        return false ;
    }
    t = gcu_cost_current (started_device ()) ;
    *wait_jit = !background || call->host_s >= t->wait_factor * t->jit_compile ;
    return true ;
}

// The families of the call in order; the first that runs produces C. With
// may_defer, a kernel not compiled yet is compiled in the background and
// the call goes to the host.
static bool run_families (gcu_call *call, bool may_defer)
{
    int n = 0 ;
    const gcu_family *const *fam = gcu_families (call->op, &n) ;
    call->reason = GRBCUDA_REASON_NO_KERNEL ;
    // a result a family leaves device newest is of this call's kind
    const uint64_t kind = gcu_cost_site_key (call) ;
    if (may_defer && gcu_held_back (call, kind)) return false ;
    for (int i = 0 ; i < n ; i++)
    {
        if (fam [i]->branch (call) != GrB_SUCCESS) continue ;
        gcu_jit_defer_begin (may_defer) ;
        const uint64_t site = gcu_residency_site_swap (kind) ;
        GrB_Info info = fam [i]->run (call) ;
        (void) gcu_residency_site_swap (site) ;
        if (gcu_jit_defer_end () && info != GrB_SUCCESS && !call->c_written)
        {
            gcu_held_add (kind) ;
            call->pending = GCU_PENDING_JIT ;
            call->note = "kernel compiling in the background: host this time" ;
            return false ;
        }
        if (info == GrB_SUCCESS)
        {
            family_ran (fam [i]->name) ;
            call->family = fam [i]->name ;
            call->reason = GRBCUDA_REASON_GPU ;
            return true ;
        }
        if (info != GCU_NOT_HANDLED)
        {
            call->reason = GRBCUDA_REASON_GPU_FAILED ;
            if (call->c_written)
            {
                // C was being written (host memory): the host cannot start
                // again from C as it was; the error is the call's
                gcu_log ("%s: GPU family %s failed while writing C (info %d)",
                    gcu_op_name (call->op), fam [i]->name, (int) info) ;
                call->final_info = info ;
                return true ;
            }
            gcu_log ("%s: GPU family %s failed (info %d); computing on the "
                "host", gcu_op_name (call->op), fam [i]->name, (int) info) ;
            return false ;
        }
    }
    return false ;
}

static bool gpu_ran (gcu_call *call)
{
    // The clock is read for a call that gets as far as asking for the GPU
    // (below), and for every call while the statistics table or the log is
    // on; a call that the mode, its arguments or the threshold keep on the
    // host is otherwise counted, not timed (t_start < 0).
    const unsigned flags = gcu_flags () ;
    call->t_start = (flags & (GCU_FLAG_STATS | GCU_FLAG_VERBOSE)) ? gcu_now () : -1 ;
    call->checked = false ;
    call->kernel_seconds = -1 ;
    call->host_s = call->gpu_s = call->host_table = call->gpu_table = call->down_share = -1 ;
    call->family = NULL ;
    call->note = NULL ;
    call->rent_key = NULL ;
    call->rent_version = 0 ;
    call->rent_paid = false ;
    call->repeat_key = 0 ;
    call->newest_s = 0 ;
    call->kernel_key = 0 ;
    call->rent_gpu_s = call->start_gpu_s = -1 ;
    call->first_s = 0 ;
    call->host_after = 0 ;
    call->pending = 0 ;
    call->up_bytes = call->down_bytes = 0 ;
    call->c_written = false ;
    call->c_skipped = call->c_unwritten = false ;
    call->final_info = GrB_SUCCESS ;
    const int mode = (int) ((flags & GCU_FLAG_MODE_MASK) >> GCU_FLAG_MODE_SHIFT) ;
    if (mode == GRBCUDA_MODE_HOST)
    {
        call->reason = GRBCUDA_REASON_MODE_HOST ;
        if (flags & GCU_FLAG_VERBOSE) (void) check (call) ;   // sizes for the log line
        return false ;
    }
    if (!check (call))
    {
        call->reason = GRBCUDA_REASON_ARGS ;
        return false ;
    }
    bool wait_jit = true ;
    if (mode == GRBCUDA_MODE_AUTO)
    {
        gcu_gpu_start_for_data (gcu_op_name (call->op),
            call->a_nvals > call->b_nvals ? call->a_nvals : call->b_nvals) ;
        if (!auto_gpu (call, &wait_jit)) return false ;
    }
    else
    {
        if (call->t_start < 0) call->t_start = gcu_now () ;
        if (!gcu_gpu_start ())
        {
            call->reason = GRBCUDA_REASON_NO_GPU ;
            return false ;
        }
    }
    const bool ran = run_families (call, !wait_jit) ;
    // an upload bought by its rent is made: the rent starts again, and the
    // matrix it was made from on the host (if any) is charged it
    if (ran && call->reason == GRBCUDA_REASON_GPU && call->rent_paid)
    {
        gcu_cost_amortize_paid (call->rent_key) ;
        const gcu_cost_table *t = gcu_cost_current (started_device ()) ;
        gcu_cost_lineage_credit (call->rent_key, (double) call->up_bytes / t->h2d) ;
    }
    return ran ;
}

// C's old value matters to SuiteSparse's result only through its iso status
// where the call is a product with no mask (C = T: T's status alone) or the
// assign of a scalar to every entry of a C of two or more entries with no
// mask (always iso); any other call's result status can depend on how C
// was held (an assign under GrB_REPLACE into a C held full or as a bitmap:
// SuiteSparse ran on the stale copy gave a result iso where the written-back
// C gave it not iso, differential seed 1795938643243598189 on the H200)
bool gcu_c_replaced (const gcu_call *c)
{
    const bool product = c->op == GCU_OP_MXM || c->op == GCU_OP_MXV || c->op == GCU_OP_VXM ;
    const bool fill = c->op == GCU_OP_VECTOR_ASSIGN_SCALAR && c->I == GrB_ALL && c->c_rows > 1 ;
    return c->checked && c->accum == NULL && c->M == NULL && (product || fill)
        && c->C != c->A && c->C != c->B ;
}

// The host reads every object of the call, C too (mask, accum), unless the
// call replaces C whole: device-newest ones are written into their
// SuiteSparse objects first. A device-newest C the call replaces is left
// unwritten (PageRank's r = teleport over GrB_ALL wrote r's 5.2 MB back at
// each iteration, 0.43 ms, to be overwritten; H100, 2026-11-28): dropped
// once the host has succeeded (gcu_finish), written back if it failed
// (gcu_host_again). A call the mode kept from the check (host) is checked
// here for it, only when C is device newest.
static GrB_Info materialize_call (gcu_call *call)
{
    if (!gcu_residency_any_newest ()) return GrB_SUCCESS ;    // one relaxed load
    if (gcu_residency_newest_nvals (call->C, NULL)
        && (call->checked || check (call)) && gcu_c_replaced (call))
        call->c_skipped = true ;
    const void *obj [6] = { call->c_skipped ? NULL : call->C, call->M, call->A, call->B,
        call->alpha, call->beta } ;
    for (int k = 0 ; k < 6 ; k++)
    {
        GrB_Info info = gcu_residency_materialize (obj [k], gcu_op_name (call->op)) ;
        call->c_unwritten = k == 0 && info != GrB_SUCCESS ;
        if (info != GrB_SUCCESS) return info ;
    }
    return GrB_SUCCESS ;
}

bool gcu_host_again (gcu_call *call, GrB_Info info)
{
    if (!call->c_skipped || info == GrB_SUCCESS) return false ;
    return gcu_residency_materialize (call->C, gcu_op_name (call->op)) == GrB_SUCCESS ;
}

bool gcu_try_gpu (gcu_call *call, GrB_Info *info)
{
    if (gpu_ran (call))
    {
        *info = call->final_info ;
        return true ;
    }
    const double t0 = gcu_residency_any_newest () && call->t_start >= 0 ? gcu_now () : -1 ;
    *info = materialize_call (call) ;
    if (t0 >= 0) call->newest_s = gcu_now () - t0 ;
    return *info != GrB_SUCCESS ;
}

// A call the host ran in auto mode that the GPU would have run faster with
// its operands there (a rented upload's) or once started: what it lost, its
// measured time less the GPU's predicted one, goes to the rents it pays
// (the operand's upload, CUDA's start)
static void rent_settle (const gcu_call *call, double dt)
{
    if (call->rent_key != NULL)
    {
        const double gain = dt + call->host_after - call->rent_gpu_s ;
        gcu_cost_amortize_add (call->rent_key, call->rent_version, gain) ;
        (void) gcu_start_gain_add (gain) ;
    }
    else if (call->start_gpu_s >= 0) (void) gcu_start_gain_add (dt + call->host_after - call->start_gpu_s) ;
    // a repeat of this call is predicted at this time; a matrix a GPU
    // family would have made on the device from A is A's (lineage)
    if (call->repeat_key != 0) gcu_cost_repeat_put (call->repeat_key, dt - call->newest_s) ;
    if (gcu_op_select_matrix (call->op) && call->checked)
    {
        int n = 0 ;
        const gcu_family *const *fam = gcu_families (call->op, &n) ;
        if (n > 0 && fam [0]->branch (call) == GrB_SUCCESS)
            gcu_cost_lineage_record (call->C, call->A, call->a_nvals) ;
    }
}

GrB_Info gcu_finish (gcu_call *call, GrB_Info info)
{
    // C changed on the host path (even a failed call may have finished C's
    // pending work): its device copy is stale. A GPU family wrote C back
    // through wrapped calls (which invalidate) and may then have published
    // the result's device copy, which stays. A failed call whose C is
    // still device newest keeps C's device value: C was skipped and could
    // not be written back after (gcu_host_again), or its write-back before
    // the host failed (materialize_call), and SuiteSparse left the stale
    // host object as it was.
    if (call->reason != GRBCUDA_REASON_GPU && !(info != GrB_SUCCESS
        && (call->c_skipped || call->c_unwritten) && gcu_residency_newest_nvals (call->C, NULL)))
        gcu_residency_invalidate (call->C) ;
    // a vector auto mode's model left to the host: whether its value goes
    // up to the device after (predict.c's host_after)
    if (call->reason != GRBCUDA_REASON_GPU && info == GrB_SUCCESS && call->host_table > 0
        && !gcu_op_matrix (call->op) && gcu_gpu_started ())
        gcu_residency_trip_host (call->C) ;
    const double dt = call->t_start >= 0 ? gcu_now () - call->t_start : 0 ;
    // auto mode: a call the host ran (whatever kept it there) teaches the
    // cost model what such a call takes here; one the GPU ran, what it takes
    // there, unless it loaded a kernel into the GPU (a first use: a module
    // load, the program's first device allocations), which later calls of
    // the kind do not pay
    if (call->reason != GRBCUDA_REASON_GPU && call->reason != GRBCUDA_REASON_GPU_FAILED
        && call->host_table > 0 && call->t_start >= 0)
    {
        gcu_cost_learn (GCU_SIDE_HOST, call->op, (gcu_cost_family) call->cost_family,
            gcu_cost_mask_of (call), call->host_table, dt) ;
        rent_settle (call, dt) ;
        if (call->reason == GRBCUDA_REASON_SMALL && call->gpu_table > 0)
            gcu_cost_doubt (call->op, (gcu_cost_family) call->cost_family,
                gcu_cost_mask_of (call), call->gpu_table) ;
    }
    // the kind has run on the GPU (its first run paid)
    if (call->reason == GRBCUDA_REASON_GPU) gcu_cost_first_ran (gcu_cost_site_key (call)) ;
    if (call->reason == GRBCUDA_REASON_GPU && call->gpu_table > 0 && call->t_start >= 0
        && call->jit_loads == gcu_jit_modules_loaded ())
    {
        gcu_cost_learn (GCU_SIDE_GPU, call->op, (gcu_cost_family) call->cost_family,
            gcu_cost_mask_of (call), call->gpu_table, dt) ;
        // a repeat of this product is predicted with these kernels' time
        if (call->kernel_key != 0 && call->kernel_seconds > 0)
            gcu_cost_repeat_put (call->kernel_key, call->kernel_seconds) ;
    }
    if (call->pending != 0) gcu_stats_pending (call->op, call->pending == GCU_PENDING_JIT) ;
    gcu_stats_count (call->op, call->reason, dt,
        call->reason == GRBCUDA_REASON_GPU ? call->kernel_seconds : -1,
        call->up_bytes, call->down_bytes) ;
    if (gcu_flags () & GCU_FLAG_VERBOSE) gcu_call_log (call, info, dt) ;
    return info ;
}
