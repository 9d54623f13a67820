// predict.c — auto mode's decision (DESIGN §2 step 2): the cost model's
// input from the call — its work, the bytes it would move each way, what is
// already on the device, the rent of uploads — and both predictions
// (cost.c computes them from the table).
#include "gcu_dispatch.h"
#include "../device/gcu_device.h"
#include "../residency/gcu_residency.h"
#include "../residency/gcu_operand.h"
#include "gcu_cost.h"
#include "../jit/gcu_jit.h"
#include "../vector/gcu_vector.h"
#include <math.h>
#include <string.h>

// an operand's bytes as the model counts them: 12 an entry (a 4-byte index,
// an 8-byte value) and 4 a row (pointers), whatever the exact layout
static double model_bytes (double nvals, double rows)
{
    return 12.0 * nvals + 4.0 * rows ;
}

// a vector's dense image on the device, as it comes back: a presence byte
// and a value (8 bytes, as the model counts) a position (src/vector/vector.c)
static double image_bytes (double rows)
{
    return 9.0 * rows ;
}

static uint64_t nvals_of (const void *obj, bool vector)
{
    GrB_Index n = 0 ;
    if (obj == NULL) return 0 ;
    if (vector) (void) GrB_Vector_nvals (&n, (GrB_Vector) obj) ;
    else (void) GrB_Matrix_nvals (&n, (GrB_Matrix) obj) ;
    return n ;
}

// a copy of obj in the residency cache (an earlier GPU call uploaded it);
// a probe, not a use: left out of the cache's hit and miss statistics
static bool resident (const void *obj, bool vector)
{
    const int kinds [2] = { vector ? GCU_RES_VECTOR_DENSE : GCU_RES_CSR,
                            vector ? GCU_RES_VECTOR_SPARSE : GCU_RES_CSC } ;
    for (int k = 0 ; k < 2 ; k++)
    {
        gcu_res_entry *e = NULL ;
        if (gcu_residency_peek (obj, kinds [k], &e) != GrB_SUCCESS) continue ;
        gcu_residency_unpin (e) ;
        return true ;
    }
    return false ;
}

// the call's operand uploaded by the GPU with the most bytes (the one its
// rent is kept for) and its version (a matrix's entry count: another value
// starts the rent again; a vector's is 0: a BFS's vectors change at every
// level but, once on the device, stay there)
// (sig: a matrix's signature, gcu_cost_sig_paid; 0 for a vector)
typedef struct { const void *obj ; double bytes ; uint64_t version, sig ; } upload_t ;

// n words in one nonzero key (a matrix's signature, a call's repeat and kernel keys)
static uint64_t key_of (const uint64_t *w, int n)
{
    uint64_t h = 0x9e3779b97f4a7c15u ;
    for (int k = 0 ; k < n ; k++) h = (h ^ w [k]) * 0xff51afd7ed558ccdu ;
    return h | 1 ;
}

// A matrix's upload as the operand path makes it (src/residency/operand.c):
// its pointers and indices at 4 bytes below 2^31 entries, 8 above, and its
// values at the type's size, none when iso. The model's 12 bytes an entry
// counted an iso INT32 matrix 2.9x over: SSSP's AL on rmat-20-16 went up as
// 129.8 MB, predicted 377 MB (46 ms against a host vxm's 8), and its rent
// never paid within a trial (H100, 2026-11-27). *sig: its dimensions,
// entries and type in one nonzero word (gcu_cost_sig_paid).
static double matrix_upload (const void *A, uint64_t nvals, double rows, uint64_t *sig)
{
    GrB_Index nr = 0, nc = 0 ;
    GrB_Type t = NULL ;
    size_t size = 8 ;
    bool iso = false ;
    (void) GrB_Matrix_nrows (&nr, (GrB_Matrix) A) ;
    (void) GrB_Matrix_ncols (&nc, (GrB_Matrix) A) ;
    if (GxB_Matrix_type (&t, (GrB_Matrix) A) == GrB_SUCCESS && t != NULL)
        (void) GxB_Type_size (&size, t) ;
    (void) GxB_Matrix_iso (&iso, (GrB_Matrix) A) ;
    const uint64_t w [4] = { nr, nc, nvals, (uint64_t) (uintptr_t) t } ;
    *sig = key_of (w, 4) ;
    const double nv = (double) nvals, idx = nv < 2147483648.0 ? 4 : 8 ;
    return idx * (nv + rows + 1) + (iso ? 0 : (double) size * nv) ;
}

// A vector's upload as gcu_vec_get makes it (src/vector/vector.c): a full
// vector's values (one value when iso), else the fewer bytes of its entries
// (an 8-byte position and a value each) and its dense image (a presence
// byte and a value a position). The 12 bytes an entry of model_bytes
// counted PageRank's full FP32 vectors 3x over: 4.2 MB went up in 0.44 ms
// where 12.6 MB were predicted at 1.5 ms (H200, 2026-11-29).
// (iso: -1 to be read from v, where v is full; else 0 or 1, what the call
// makes of it)
static double vector_upload (const void *v, double nvals, double rows, int iso)
{
    GrB_Type t = NULL ;
    size_t size = 8 ;
    if (GxB_Vector_type (&t, (GrB_Vector) v) == GrB_SUCCESS && t != NULL)
        (void) GxB_Type_size (&size, t) ;
    const double z = (double) size ;
    if (nvals < rows) return fmin (nvals * (8 + z), rows * (1 + z)) ;
    bool held_iso = iso == 1 ;
    if (iso < 0) (void) GxB_Vector_iso (&held_iso, (GrB_Vector) v) ;
    return held_iso ? z : rows * z ;
}

// whether a matrix is held by column (GxB_FORMAT; false if not known)
static bool held_by_col (const void *A)
{
    int32_t f = GxB_BY_ROW ;
    return GxB_Matrix_Option_get_INT32 ((GrB_Matrix) A, GxB_FORMAT, &f) == GrB_SUCCESS && f == GxB_BY_COL ;
}

// one operand's part: device newest, the host downloads it first; not on
// the device and read by the call, the GPU uploads it; a matrix wanted by
// column (want 1) or by row (0) and held the other way is transposed by
// its export (want -1: either, or not known)
static void operand_cost (const void *obj, bool vector, bool read, uint64_t nvals,
    uint64_t rows, int want, gcu_cost_input *in, upload_t *big)
{
    if (obj == NULL) return ;
    uint64_t nv = nvals ;
    // a vector comes back as its dense image and goes up as its entry list
    if (gcu_residency_newest_nvals (obj, &nv))
        in->newest_bytes += vector ? image_bytes ((double) rows) : model_bytes ((double) nv, (double) rows) ;
    else if (read && !resident (obj, vector))
    {
        uint64_t sig = 0 ;
        const double b = vector ? vector_upload (obj, (double) nvals, (double) rows, -1)
            : matrix_upload (obj, nvals, (double) rows, &sig) ;
        in->up_bytes += b ;
        if (!vector) in->up_matrix_bytes += b ;
        // (a large one goes up as held and is transposed on the device)
        if (!vector && want >= 0 && held_by_col (obj) != (want == 1))
        {
            if (gcu_device_transpose_enabled () && gcu_operand_via_held_size (nvals))
                in->up_transpose_dev += (double) nvals ;
            else in->up_transpose += (double) nvals ;
        }
        if (b > big->bytes) *big = (upload_t) { obj, b, vector ? 0 : nvals, sig } ;
    }
}

// the calls within which the host's loss must pay for an upload bought by
// likeness (upload_pays)
#define LIKE_CALLS 4

// A call predicted faster on the GPU once its operands are there, but not
// with their uploads: the host's lost time (measured, less the GPU's
// predicted time there) is added up for the largest of them, and once it
// pays for the call's uploads the call makes them (ski
// rental, gcu_cost_amortized; the rent is settled once a GPU call has made
// them, gcu_cost_amortize_paid). A BFS or an iterative method moves to the
// GPU after a while and stays there (its vectors, device newest from then
// on, are not uploaded again); one whose operands keep coming from the
// host finds what was uploaded there and decides call by call.
// A kind of call's first run on the GPU (in->first_s) is rented the same
// way, with the upload where there is one, else on its own: PageRank's
// first GrB_mxv on grid3d-100 took 5.06 ms on the GPU, 3.9 of them beside
// its operands, kernels and write-back (module loads, its SpMV plan),
// where the host takes 0.3 (H200, 2026-11-29). Its rent's key is then the
// kind's (odd: no object's address).
static bool upload_pays (gcu_call *c, const gcu_cost_table *t, const gcu_cost_input *in,
    const gcu_cost_choice *ch, const upload_t *big, double chain_bytes, double shown)
{
    const bool up = big->obj != NULL && in->up_bytes > 0 ;
    if (!up && !(in->first_s > 0)) return false ;
    // the same call with its operands there (nothing up, nothing device
    // newest to download) and its kind run before, on a chain: its result's
    // download as a chain's (SSSP's rented assigns left results its host
    // eWiseMult read back)
    gcu_cost_input there = *in ;
    there.up_bytes = there.up_matrix_bytes = there.up_transpose = there.up_transpose_dev = 0 ;
    there.newest_bytes = 0 ;
    there.first_s = 0 ;
    there.down_bytes = chain_bytes ;
    gcu_cost_choice ct ;
    gcu_cost_predict (t, &there, &ct) ;
    if (!(ch->host_s > ct.gpu_s * t->margin)) return false ;
    // what the host loses on this call is added once it is measured
    // (gcu_finish, dispatch.c); the rent is paid by the earlier calls' losses
    const void *key = up ? big->obj : (const void *) (uintptr_t) gcu_cost_site_key (c) ;
    c->rent_key = key ;
    c->rent_version = up ? big->version : 0 ;
    c->rent_gpu_s = ct.gpu_s * t->margin ;
    // a matrix like one whose rent paid is bought at once (LAGraph makes
    // SSSP's AL anew in each call), but not one whose own last copy served
    // no later call (gcu_residency_copy_hits): LAGraph's connected components
    // unpacks and packs G->A in each call, and its 165 MB went up again in
    // every trial for one product the host does in 1-5 ms (cc 55 ms a trial
    // against SuiteSparse's 20; H200, 2026-11-28). Its rent stands.
    // Nor before the host has run a repeat of the call where one is kept:
    // the table predicted FastSV's GrB_mxv at 3.5-3.8 ms on the host
    // (SuiteSparse: ~1), and in connected components' first trial G->A,
    // whose handle PageRank's upload had served, went up again for it,
    // 24-51 ms (H200, 2026-11-29).
    // And only where the host's loss on this call pays for the purchase
    // within LIKE_CALLS calls: a bet on likeness risks a few calls' gain at
    // most. In connected components' first trial after PageRank (whose
    // copies of G->A served many calls), FastSV's GrB_mxv, 1.65 ms on the
    // host, bought G->A's 172 MB by likeness for 36 ms, the copy then lost
    // to the next pack: cc 1.11x SuiteSparse on urand-20-16; SSSP's
    // GrB_Matrix_select (17 ms on the host, its upload 17) is within the
    // bound (H200, 2026-11-29).
    const double buy_s = gcu_cost_upload_s (t, in) + in->first_s ;
    const bool like = up && gcu_cost_sig_paid (big->sig) && gcu_residency_copy_hits (big->obj) != 0
        && (c->repeat_key == 0 || in->host_measured > 0)
        && buy_s <= LIKE_CALLS * (ch->host_s - ct.gpu_s) ;
    if (!like && !gcu_cost_amortized (key, c->rent_version, buy_s)) return false ;
    if (up) gcu_cost_sig_record (big->sig) ;
    c->rent_paid = true ;
    c->down_share = shown ;
    c->note = like ? "a matrix like one whose upload paid before (its size, entries and type): the GPU"
        : up ? "the host time lost on these operands pays for their upload: the GPU"
        : "the host time lost on this kind of call pays for its first run on the GPU: the GPU" ;
    return true ;
}

static gcu_cost_family cost_family (const gcu_call *c)
{
    if (c->op == GCU_OP_MXV || c->op == GCU_OP_VXM)
    {
        // u not full: a sparse product (a BFS frontier), a family of its own
        const bool vxm = c->op == GCU_OP_VXM ;
        return (vxm ? c->a_nvals < c->a_rows : c->b_nvals < c->b_rows) ? GCU_COST_SPMSPV : GCU_COST_MXV ;
    }
    if (gcu_op_ewise (c->op) || gcu_op_assign (c->op) || gcu_op_apply (c->op)
        || gcu_op_select_matrix (c->op)) return GCU_COST_EWISE ;
    if (c->M == NULL || c->mask_comp) return GCU_COST_SPGEMM ;
    return c->tran_b ? GCU_COST_MASKED_DOT : GCU_COST_MASKED_SAXPY ;
}

// the result's bytes: the dense image of mxv/vxm's w; entries of a matrix result at most the work, the
// mask's entries and C's size
static double result_bytes (const gcu_call *c, uint64_t m_nvals)
{
    if (c->op == GCU_OP_MXV || c->op == GCU_OP_VXM) return image_bytes ((double) c->c_rows) ;
    double n = (gcu_op_ewise (c->op) || gcu_op_assign (c->op) || gcu_op_apply (c->op)
        || gcu_op_select_matrix (c->op))
        ? (double) c->a_nvals + (double) c->b_nvals : c->work ;
    const double cells = (double) c->c_rows * (double) c->c_cols ;
    if (n > cells) n = cells ;
    if (c->M != NULL && !c->mask_comp && n > (double) m_nvals) n = (double) m_nvals ;
    return model_bytes (n, (double) c->c_rows) ;
}

// What a vector result the host makes costs after the call: its upload by
// a GPU call that reads it, as often as C's host values went up before the
// host wrote C again (gcu_residency_trip_share). Greedy call by call, the
// host kept PageRank's w = t ./ d (0.08 ms against the GPU's 0.2 and d's
// upload) and its mxv uploaded w each time; counted, d's rent pays and the
// iteration stays on the device (H200, 2026-11-29). Not for a vector whose
// device values come back too (its write-back share): its values cross
// either way, wherever it is made. Counted so, LAGraph's connected
// components moved FastSV's parent (read by its host extractTuples in
// every iteration) and what makes it to the GPU: 66 ms a trial against
// SuiteSparse's 27 (H200, 2026-11-29). Its entries as result_bytes counts
// them; a scalar assigned to all of w makes it iso.
static double host_after (const gcu_call *c, const gcu_cost_table *t)
{
    if (gcu_op_matrix (c->op) || c->C == NULL || !gcu_gpu_started () || !gcu_keep_results ()) return 0 ;
    const double trips = gcu_residency_trip_share (c->C) ;
    if (!(trips > 0)) return 0 ;
    const double share = trips * (1 - gcu_residency_writeback_share (c->C, gcu_cost_site_key (c))) ;
    if (!(share > 0)) return 0 ;
    const double n = (double) c->c_rows ;
    double nv = c->op == GCU_OP_MXV || c->op == GCU_OP_VXM ? n
        : fmin (n, (double) c->a_nvals + (double) c->b_nvals) ;
    if (c->accum != NULL || (c->M != NULL && !c->replace)) nv = n ;
    const bool iso = c->op == GCU_OP_VECTOR_ASSIGN_SCALAR && c->M == NULL && c->accum == NULL ;
    return share * vector_upload (c->C, nv, n, iso ? 1 : 0) / t->h2d ;
}

// A small sparse u (a BFS frontier): the products of its rows where the
// matrix's push orientation is resident with its pointers, in place of u's
// entries times the average row (check); a frontier of hubs makes far more
// (rmat-22-16's first level from its highest-degree vertex: 164,039
// products, not 31, and SuiteSparse takes 20 ms over it)
static void push_work (gcu_call *c)
{
    const bool vxm = c->op == GCU_OP_VXM ;
    const GrB_Vector u = (GrB_Vector) (vxm ? c->A : c->B) ;
    const GrB_Index unvals = vxm ? c->a_nvals : c->b_nvals ;
    // push walks P = R' by row: for vxm R = op(B)', for mxv R = op(A)
    const bool by_col = vxm ? c->tran_b : !c->tran_a ;
    double w ;
    if (unvals <= GCU_PUSH_WORK_MOST && !gcu_residency_newest_nvals (u, NULL)
        && gcu_operand_push_work (vxm ? c->B : c->A, by_col, u, unvals, GCU_PUSH_WORK_MOST, &w))
        c->work = w ;
}

// GrB_Matrix_select with a value comparison: its host time is decided by
// what it keeps, not by A's entries (SSSP's AL = A .* (A <= delta) takes 15
// ms of SuiteSparse's time on rmat-20-16, its AH = A .* (A > delta), empty,
// 0.02 ms: one work, two times 700x apart, which the learned correction
// averaged into a prediction that suited neither; H100, 2026-11-27). A
// repeat of the call (A and its entry count, the operator, the thunk as
// the operator's type, the transpose) is predicted at its measured time.
static uint64_t repeat_key (const gcu_call *c)
{
    GrB_Type at = NULL ;
    bool eq ;
    uint64_t y [2] = { 0, 0 } ;
    if (!gcu_op_select_matrix (c->op) || GxB_Matrix_type (&at, (GrB_Matrix) c->A) != GrB_SUCCESS
        || gcu_select_value_plan (c, at, &eq, y) != GrB_SUCCESS) return 0 ;
    const uint64_t w [6] = { (uint64_t) (uintptr_t) c->A, c->a_nvals, (uint64_t) (uintptr_t) c->idxop,
        y [0], y [1], c->tran_a } ;
    return key_of (w, 6) ;
}

// A product's repeat on the host: keyed as its kernels are (below), so that
// the host's measured time of a product that repeats (PageRank's, FastSV's)
// replaces the table's, learned for all the products of its family together
// (FastSV's GrB_mxv predicted 3.5-3.8 ms on the host from the factor that
// PageRank's calls had taught; SuiteSparse took ~1; H200, 2026-11-29)
static uint64_t host_repeat_key (const gcu_call *c, gcu_cost_family f)
{
    const uint64_t w [2] = { gcu_cost_kernel_key (c, f), 0x686f7374 } ;
    return w [0] != 0 ? key_of (w, 2) : 0 ;
}

// A product whose kernels' time the matrix's structure decides more than
// its work does (FastSV's C on rmat-20-16, packed with one entry a column
// at the column's parent: a root's row holds most of its 1M entries, and
// the pull's kernels took 14.4 ms where its work predicts 0.05; with the
// host's transpose for the upload it cost 26-29 ms against the host's 0.9,
// again after each rent; H100, 2026-11-28): keyed by its operands' shapes
// and entry counts (not their handles: LAGraph makes that matrix anew in
// each call, and a rent paid for the new one ran the pull again, 98.6 ms
// of kernels against the host's 0.7; H200, 2026-11-28), the semiring, the
// mask and the descriptor, so that a repeat of it is predicted with its
// kernels' measured time (dispatch.c). Not a sparse u's: a BFS's frontier
// changes its work at every level.
uint64_t gcu_cost_kernel_key (const gcu_call *c, gcu_cost_family f)
{
    if (!(c->op == GCU_OP_MXV || c->op == GCU_OP_VXM || c->op == GCU_OP_MXM) || f == GCU_COST_SPMSPV)
        return 0 ;
    const uint64_t flags = (uint64_t) c->tran_a | (uint64_t) c->tran_b << 1
        | (uint64_t) c->mask_comp << 2 | (uint64_t) c->replace << 3 ;
    const uint64_t w [10] = { (uint64_t) c->op, c->a_rows, c->a_cols, c->a_nvals,
        c->b_rows, c->b_cols, c->b_nvals, (uint64_t) (uintptr_t) c->semiring,
        (uint64_t) (uintptr_t) c->M, flags } ;
    return key_of (w, 10) ;
}

uint64_t gcu_cost_site_key (const gcu_call *c)
{
    const uint64_t flags = (uint64_t) (c->M != NULL) | (uint64_t) c->mask_comp << 1
        | (uint64_t) c->replace << 2 | (uint64_t) c->tran_a << 3 | (uint64_t) c->tran_b << 4 ;
    const uint64_t w [10] = { (uint64_t) c->op, (uint64_t) (uintptr_t) c->semiring,
        (uint64_t) (uintptr_t) c->monoid, (uint64_t) (uintptr_t) c->binop,
        (uint64_t) (uintptr_t) c->unop, (uint64_t) (uintptr_t) c->idxop,
        (uint64_t) (uintptr_t) c->accum, c->c_rows, c->c_cols, flags } ;
    return key_of (w, 10) ;
}

// the choice's predictions kept in the call (the tables' too: the call's
// time then teaches them, gcu_finish), and the kernels loaded so far (a GPU
// call that loads one teaches nothing)
static void keep (gcu_call *c, const gcu_cost_choice *ch)
{
    c->host_table = ch->host_table ;
    c->gpu_table = ch->gpu_call_table ;
    c->host_s = ch->host_s ;
    c->gpu_s = ch->gpu_s ;
    c->jit_loads = gcu_jit_modules_loaded () ;
}

// A kind of call the host has run fewer than GCU_COST_EXPLORE_CALLS times in
// this program, that the GPU wins by less than GCU_COST_EXPLORE: the host
// runs it, and its measured times correct the host's table for the kind
// (gcu_cost_learn). Without it a kind the GPU took from its first call kept
// the table's host time: the ewise family's host rate, fitted on matrix
// eWiseAdd, is 2-40x slow for SuiteSparse's vector calls, and LAGraph's
// connected components, run after PageRank, sent its 1M-entry apply to the
// GPU (0.19 ms and a 0.58 ms write-back) predicted 1.07 ms on the host,
// where SuiteSparse took 0.5. Measured once, the first call's time (1.2 ms,
// its new vector's pages touched first) kept it there (H200, 2026-11-29):
// hence a few. Only once CUDA has started (the start's own rent decides
// the calls before it), and not for a repeat the host measured.
#define GCU_COST_EXPLORE 2.0
#define GCU_COST_EXPLORE_CALLS 3
static bool host_unmeasured (gcu_call *c, const gcu_cost_input *in, const gcu_cost_choice *ch)
{
    if (in->host_measured > 0 || !(ch->host_s < GCU_COST_EXPLORE * ch->gpu_s) || !gcu_gpu_started ()
        || gcu_cost_measured (GCU_SIDE_HOST, in->op, in->family, in->mask, ch->host_table)
            >= GCU_COST_EXPLORE_CALLS) return false ;
    c->note = "the host has run few calls of this kind: measured there" ;
    return true ;
}

// Both predictions (call->host_s, gpu_s): true if the GPU wins by the
// margin. The result is counted as coming back unless an operand is device
// newest and results stay there (a chain of calls on the device goes on;
// a result of host data is likely read on the host); then as often as C's
// earlier device values came back (SSSP's results, read by its host select
// each iteration: 64 write-backs, 253.8 MB, in a trial 22% slower, H100
// 2026-11-27).
bool gcu_predict (gcu_call *c, const gcu_cost_table *t)
{
    const bool vec = !gcu_op_matrix (c->op) ;
    const bool spmspv = cost_family (c) == GCU_COST_SPMSPV ;
    if (spmspv) push_work (c) ;
    // A masked assign changes w only where its mask has entries (reading u
    // there), and SuiteSparse does nothing for an empty mask; GrB_REPLACE
    // deletes w's other entries too. Counted at w's length, SSSP's
    // t<tless> = tReq with tless empty (8 us on the host) was predicted at
    // 0.4 ms, and such calls pulled the host's learned factor for every
    // masked assign down 3x (H200, 2026-11-28); and BFS's w<q,replace> =
    // Degree of a push level (q of 1-200 entries, Degree 646,106: 0.01 ms)
    // taught the factor that its pull levels' pi<q> = q (q of 500,000
    // entries: 6-8 ms) then read, predicted 0.2-0.4 ms on the host, which
    // kept them there (H200, 2026-11-29).
    // (the mask's entries, looked up once: -1 until then)
    int64_t m_known = -1 ;
    if (gcu_op_assign (c->op) && c->M != NULL && !c->mask_comp)
    {
        m_known = (int64_t) nvals_of (c->M, vec) ;
        const double m = (double) m_known ;
        const double a = c->op == GCU_OP_VECTOR_ASSIGN ? fmin ((double) c->a_nvals, m) : 0 ;
        const double old = c->replace ? (double) nvals_of (c->C, vec) : 0 ;
        c->work = fmin (c->work, m + a + old + 1) ;
    }
    gcu_cost_input in = { .family = cost_family (c), .op = c->op, .mask = gcu_cost_mask_of (c), .work = c->work,
        .rows = vec ? (double) c->c_rows : 0, .out_rows = vec ? 0 : (double) c->c_rows,
        .full_work = (double) (c->op == GCU_OP_VXM ? c->b_nvals : c->a_nvals) } ;
    gcu_cost_choice ch ;
    c->host_after = in.host_after = host_after (c, t) ;
    c->cost_family = (int) in.family ;
    c->repeat_key = gcu_op_select_matrix (c->op) ? repeat_key (c) : host_repeat_key (c, in.family) ;
    if (c->repeat_key != 0) (void) gcu_cost_repeat_get (c->repeat_key, &in.host_measured) ;
    // (only a GPU run keeps a kernel time: before CUDA's start, no lookup)
    c->kernel_key = gcu_gpu_started () ? gcu_cost_kernel_key (c, in.family) : 0 ;
    if (c->kernel_key != 0) (void) gcu_cost_repeat_get (c->kernel_key, &in.gpu_kernels) ;
    // Nothing device newest anywhere (one relaxed load): the host's time has
    // no download, and the GPU's time without any transfer bounds its time
    // from below; where even that loses, the host wins without the operand
    // lookups below (nvals, the residency cache: ~80 ns of a small call in
    // auto mode, bench/overhead.sh 2026-11-26)
    // (and without the kind's first run, which a rent may pay: looked up
    // after it, a lock and a scan of the kinds run)
    if (!gcu_residency_any_newest ())
    {
        gcu_cost_predict (t, &in, &ch) ;
        if (!ch.gpu)
        {
            keep (c, &ch) ;
            return false ;
        }
    }
    c->first_s = in.first_s = gcu_cost_first_s (t, gcu_cost_site_key (c)) ;
    const uint64_t m_nv = m_known >= 0 ? (uint64_t) m_known : nvals_of (c->M, vec) ;
    const bool c_read = c->accum != NULL || (c->M != NULL && !c->replace) ;
    upload_t big = { NULL, 0, 0, 0 } ;
    // the SpMV (u full) reads op(A) by row: mxv's A, vxm's B'
    const bool spmv = in.family == GCU_COST_MXV ;
    const int want_a = spmv && c->op == GCU_OP_MXV ? c->tran_a : -1 ;
    const int want_b = spmv && c->op == GCU_OP_VXM ? !c->tran_b : -1 ;
    operand_cost (c->A, vec && c->op != GCU_OP_MXV, true, c->a_nvals, c->a_rows, want_a, &in, &big) ;
    operand_cost (c->B, vec && c->op != GCU_OP_VXM, true, c->b_nvals, c->b_rows, want_b, &in, &big) ;
    operand_cost (c->M, vec, true, m_nv, c->c_rows, -1, &in, &big) ;
    // (a device-newest C the call replaces whole is not written back for
    // the host: gcu_c_replaced)
    if (!gcu_c_replaced (c))
        operand_cost (c->C, vec, c_read, c_read ? nvals_of (c->C, vec) : 0, c->c_rows, -1, &in, &big) ;
    // the result comes back, unless results stay on the device and the call
    // goes on a chain (an operand device newest, or all of them there once
    // rented): then as often as C's earlier device values were written back
    // (for a C never seen, the values of calls of its kind; else 0)
    const bool stays = gcu_keep_results () ;
    const double share = stays ? gcu_residency_writeback_share (c->C, gcu_cost_site_key (c)) : 1 ;
    const double rb = result_bytes (c, m_nv), chain_bytes = share * rb ;
    const double shown = stays ? share : -1 ;     // the verbose log's
    in.down_bytes = rb ;
    in.down_later = stays ;
    // a matrix select's result is made for the calls after it (SSSP's AL
    // for its products; its download counted whole sent AL's select back to
    // the host once A was there: 5.8 ms predicted on the GPU, 13.6 more to
    // come back, against 16.2 measured on the host; H100, 2026-11-27)
    if (in.newest_bytes > 0 || gcu_op_select_matrix (c->op))
    {
        in.down_bytes = chain_bytes ;
        c->down_share = shown ;
    }
    gcu_cost_predict (t, &in, &ch) ;
    keep (c, &ch) ;
    if (in.gpu_kernels > 0) c->note = "the GPU's time with a repeat's measured kernels" ;
    if (ch.gpu && host_unmeasured (c, &in, &ch)) return false ;
    return ch.gpu || upload_pays (c, t, &in, &ch, &big, chain_bytes, shown) ;
}
