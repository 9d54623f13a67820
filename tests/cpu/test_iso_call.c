// GRBCUDA_TEST_INTERNAL
// test_iso_call.c — the iso status a call's result gets (gcu_iso_call_product
// and gcu_iso_call_vector, src/residency/iso_status.c) against SuiteSparse's
// own result, for GrB_mxv, GrB_vxm and GrB_mxm calls over every declared
// semiring (and the element-wise, apply, select and assign calls below): random host operands (iso or not, one entry, empty, full; the
// matrix transposed or not), a w or C with entries or none, a mask or none
// (valued or structural, complemented, GrB_REPLACE), of C's own type or the
// monoid's. It checks the call-level reading of the rules (which operand is
// the product's first: vxm's u, whose GraphBLAS argument comes first) that
// test_iso_rule, on the rules alone, cannot: a vxm with its two operands
// read the other way round gave w iso with the matrix's value under
// MIN_FIRST (test_mxv_gpu on the H200, 2026-11-29). Undecided calls (the
// library sends them to the host) are counted. GRBCUDA_ISO_SEED: another
// draw.
#include "gcu_test_iso.h"
#include "residency/gcu_operand.h"
#include "gcu_handles.h"
#include <stdlib.h>
#include <string.h>

typedef GrB_Info (*product_t) (void *, const void *, const GrB_BinaryOp,
    const GrB_Semiring, const void *, const void *, const GrB_Descriptor) ;
static uint64_t rng = 6329851337ull ;
static uint64_t next (void) { return gcu_rand (&rng) ; }

// a random m-by-n operand of type t (a vector if vec: n is 1): kinds 0-4 of
// gcu_test_iso_operand
static void *operand (const gcu_type_info *t, GrB_Index m, GrB_Index n, int kind, bool vec)
{
    return gcu_test_iso_operand (*t->handle, m, n, kind, vec, &rng) ;
}

static void obj_free (void **x, bool vec)
{
    if (vec) GrB_Vector_free ((GrB_Vector *) x) ;
    else GrB_Matrix_free ((GrB_Matrix *) x) ;
}

// how SuiteSparse holds an operand (GxB_SPARSITY_STATUS)
static int status_of (void *x)
{
    int st = 0 ;
    (void) GxB_Matrix_Option_get ((GrB_Matrix) x, GxB_SPARSITY_STATUS, &st) ;
    return st ;
}

static long cases, iso, undecided, wrong, empty_masked, empty_dot, opened, counted ;
static const char *opname [3] = { "GrB_mxv", "GrB_vxm", "GrB_mxm" } ;

// one call: op 0 mxv (w = A*u), 1 vxm (w = u*A), 2 mxm (C = A*B)
static void one_case (int op, product_t f, GrB_Semiring s, const gcu_semiring_desc *sr, const char *name)
{
    const bool vec = op < 2 ;
    const gcu_type_info *tz = gcu_type_builtin (sr->add.op.z.handle) ;
    if (tz == NULL) return ;
    // operand types: the multiply's (a cast otherwise), complex where it is
    const gcu_type_info *tx = gcu_types + sr->mult.x.code, *ty = gcu_types + sr->mult.y.code ;
    if (next () % 3 == 0 && tx->tclass != GCU_CLASS_COMPLEX) tx = &gcu_types [next () % GCU_T_FC32] ;
    const GrB_Index m = 1 + next () % 5, k = 1 + next () % 5, n = vec ? 1 : 1 + next () % 5 ;
    const bool tran = next () % 3 == 0 ;
    // the GraphBLAS arguments in their order: first (x) and second (y)
    void *x, *y ;
    const int kx = (int) (next () % 5), ky = (int) (next () % 5) ;
    if (op == 0) { x = operand (tx, tran ? k : m, tran ? m : k, kx, false) ; y = operand (ty, k, 1, ky, true) ; }
    else if (op == 1) { x = operand (tx, k, 1, kx, true) ; y = operand (ty, tran ? m : k, tran ? k : m, ky, false) ; }
    else { x = operand (tx, tran ? k : m, tran ? m : k, kx, false) ; y = operand (ty, k, n, ky, false) ; }
    // C: of the monoid's type mostly; entries or none; a mask a third of
    // the time not
    const gcu_type_info *tc = next () % 4 ? tz : &gcu_types [next () % GCU_T_FC32] ;
    if (tz->tclass == GCU_CLASS_COMPLEX) tc = tz ;
    const int kc = (int) (next () % 5), km = (int) (next () % 5) ;
    void *C = operand (tc, m, n, kc, vec), *M = NULL ;
    if (next () % 3) M = operand (next () % 2 ? &gcu_types [GCU_T_BOOL] : &gcu_types [next () % GCU_T_FC32], m, n, km, vec) ;
    const bool st = next () % 3 == 0, comp = next () % 2, repl = next () % 2 ;
    GrB_Descriptor d = gcu_test_desc (st, comp, repl, tran && op != 1, tran && op == 1) ;
    CHECK (d != NULL, "no descriptor") ;
    // the call as the entry point and the check fill it (vxm: A is u)
    // an accum a third of the vector calls (real types: the rule's cases,
    // an operator that ignores T among them)
    static GrB_BinaryOp *const accums [] = { &GrB_PLUS_FP64, &GrB_MIN_FP64, &GrB_FIRST_FP64,
        &GrB_SECOND_FP64, &GxB_ANY_FP64, &GxB_PAIR_FP64, &GrB_TIMES_INT32 } ;
    const bool real = tz->tclass != GCU_CLASS_COMPLEX && tc->tclass != GCU_CLASS_COMPLEX ;
    const GrB_BinaryOp accum = vec && real && next () % 3 == 0
        ? *accums [next () % (sizeof (accums) / sizeof (accums [0]))] : NULL ;
    gcu_call call = { .op = op == 0 ? GCU_OP_MXV : op == 1 ? GCU_OP_VXM : GCU_OP_MXM, .C = C, .M = M,
        .semiring = s, .A = x, .B = y, .accum = accum, .desc = d, .replace = repl, .mask_comp = comp } ;
    call.tran_a = tran && op != 1 ;
    call.tran_b = tran && op == 1 ;
    OK (GrB_Matrix_nrows (&call.a_rows, x)) ; OK (GrB_Matrix_ncols (&call.a_cols, x)) ;
    OK (GrB_Matrix_nrows (&call.b_rows, y)) ; OK (GrB_Matrix_ncols (&call.b_cols, y)) ;
    // the library's reading, before the call (C as it was)
    bool decided = vec ? gcu_iso_call_vector (&call, sr) : gcu_iso_call_product (&call, sr) >= 0 ;
    // left open (w's status not known before T): with an accum, decided by
    // T's entries under the mask, as the GPU counts them (SuiteSparse's
    // product into an empty vector under the same mask); else SuiteSparse's
    // own write-back decides (not checked here)
    if (vec && call.c_iso_open)
    {
        opened++ ;
        decided = false ;
        if (accum != NULL)
        {
            GrB_Vector T = NULL ;
            GrB_Index tn = 0 ;
            GrB_Descriptor dt = gcu_test_desc (st, comp, false, tran && op != 1, tran && op == 1) ;
            OK (GrB_Vector_new (&T, *tz->handle, m)) ;
            OK (f (T, M, NULL, s, x, y, dt)) ;
            OK (GrB_Vector_nvals (&tn, T)) ;
            decided = gcu_iso_call_vector_counted (&call, tn) ;
            counted += decided ;
            GrB_Vector_free (&T) ;
            GrB_Descriptor_free (&dt) ;
        }
    }
    uint64_t zc [2] = { 0, 0 } ;
    uint8_t cx [GCU_VALUE_MAX] ;
    gcu_iso_operand oc ;
    const bool c_before_ok = gcu_iso_operand_of ((GrB_Matrix) C, cx, &oc) == GrB_SUCCESS ;
    const GrB_Info info = f (C, M, accum, s, x, y, d) ;
    if (info == GrB_SUCCESS && c_before_ok)
    {
        GrB_Index cn = 0 ;
        bool c_iso = false ;
        OK (GrB_Matrix_nvals (&cn, (GrB_Matrix) C)) ;
        OK (GxB_Matrix_iso (&c_iso, (GrB_Matrix) C)) ;
        int rule = -1 ;
        if (vec && decided) { rule = call.c_iso [cn > 0] ; memcpy (zc, call.c_iso_value, sizeof (zc)) ; }
        // (mxm: C's status after the call, with its entry count)
        else if (!vec && decided) rule = gcu_iso_call_result (&call, tz->size, (int64_t) cn, zc) ;
        cases++ ;
        if (rule < 0) undecided++ ;
        else
        {
            iso += c_iso ;
            uint8_t cv [GCU_VALUE_MAX] ;
            gcu_iso_operand o ;
            memset (cv, 0, sizeof (cv)) ;
            bool same = (rule == 1) == c_iso ;
            // (the value, of C's type: mxm's rule gives the monoid's)
            if (same && c_iso && cn > 0 && (vec || tc == tz))
                same = gcu_iso_operand_of ((GrB_Matrix) C, cv, &o) == GrB_SUCCESS && memcmp (cv, zc, tc->size) == 0 ;
            // an empty result under a mask: SuiteSparse's methods give it
            // either status; written not iso (README, "Iso status")
            if (!same && M != NULL && cn == 0 && rule == 0) { empty_masked++ ; same = true ; }
            // an empty C = A'*B: SuiteSparse's methods give it either status
            // too (about one call in 7,000 here, rule 1 and SuiteSparse's 0)
            if (!same && op == 2 && tran && cn == 0) { empty_dot++ ; same = true ; }
            // one entry under a mask, iso in SuiteSparse though its rule
            // says not (seed 13: MIN_FIRSTJ_INT32, C<M> = A'*B with
            // GrB_REPLACE): counted with the above
            if (!same && M != NULL && cn == 1 && rule == 0) { empty_dot++ ; same = true ; }
            if (!same && wrong++ < 30)
                CHECK (false, "%s %s: %llux%llux%llu, first %s kind %d (status %d), second %s kind %d (status %d), tran %d; C %s kind %d%s, "
                    "mask %s kind %d struct %d comp %d replace %d: rule %d, SuiteSparse's iso %d (%llu entries)",
                    opname [op], name, (unsigned long long) m, (unsigned long long) k, (unsigned long long) n,
                    tx->name, kx, status_of (x), ty->name, ky, status_of (y), (int) tran, tc->name, kc,
                    oc.iso ? " (iso)" : "", M ? "yes" : "none", km, st, comp, repl, rule, c_iso,
                    (unsigned long long) cn) ;
            else if (same) gcu_test_passed++ ;
        }
    }
    GrB_Descriptor_free (&d) ;
    obj_free (&x, op == 1) ; obj_free (&y, op == 0) ;
    obj_free (&C, vec) ; obj_free (&M, vec) ;
}

// an element-wise call over sr's multiply (GrB_Matrix_eWiseMult_BinaryOp,
// GrB_Matrix_eWiseAdd_BinaryOp, GxB_Matrix_eWiseUnion, or their vector forms
// where vec): the status gcu_iso_call_ewise and gcu_iso_call_result give C
// (vectors: gcu_iso_call_vector_ewise) against SuiteSparse's
typedef GrB_Info (*ewise_t) (void *, const void *, const void *, const GrB_BinaryOp, const void *,
    const void *, const void *) ;
typedef GrB_Info (*union_t) (void *, const void *, const void *, const GrB_BinaryOp, const void *,
    const GrB_Scalar, const void *, const GrB_Scalar, const void *) ;
static void *ewise_fn [2][3] ;          // [vec][kind]: SuiteSparse's own
static long ew_cases [2], ew_decided [2], ew_iso [2], ew_wrong, ew_one ;
static void ewise_case (int kind, bool vec, const gcu_semiring_desc *sr, const char *name)
{
    const gcu_binop_desc *op = &sr->mult ;
    if (op->flags & GCU_OPF_POSITIONAL) return ;
    const gcu_type_info *tx = gcu_types + op->x.code, *ty = gcu_types + op->y.code, *tz = gcu_types + op->z.code ;
    const bool cplx = tx->tclass == GCU_CLASS_COMPLEX || ty->tclass == GCU_CLASS_COMPLEX ;
    if (kind == GCU_ISO_ADD && cplx && tz->tclass != GCU_CLASS_COMPLEX) return ;
    const GrB_Index m = 1 + next () % 4, n = vec ? 1 : 1 + next () % 4 ;
    const bool ta = !vec && next () % 4 == 0, tb = !vec && next () % 4 == 0 ;
    const int kx = (int) (next () % 6), ky = (int) (next () % 6), kc = (int) (next () % 6), km = (int) (next () % 6) ;
    void *x = gcu_test_iso_operand (*tx->handle, ta ? n : m, ta ? m : n, kx, vec, &rng) ;
    void *y = gcu_test_iso_operand (*ty->handle, tb ? n : m, tb ? m : n, ky, vec, &rng) ;
    void *C = gcu_test_iso_operand (*tz->handle, m, n, kc, vec, &rng), *M = NULL ;
    gcu_test_ewise_safe_c ((GrB_Matrix) C) ;
    if (next () % 2) M = gcu_test_iso_operand (next () % 2 ? GrB_BOOL : *gcu_types [next () % GCU_T_FC32].handle, m, n, km, vec, &rng) ;
    const bool st = next () % 3 == 0, comp = next () % 2, repl = next () % 2 ;
    GrB_Descriptor d = gcu_test_desc (st, comp, repl, ta, tb) ;
    CHECK (d != NULL, "no descriptor") ;
    GrB_Scalar alpha = NULL, beta = NULL ;
    OK (GrB_Scalar_new (&alpha, op->x.handle)) ; OK (GrB_Scalar_new (&beta, op->y.handle)) ;
    OK (GrB_Scalar_setElement_INT64 (alpha, (int64_t) (next () % 3))) ;
    OK (GrB_Scalar_setElement_INT64 (beta, (int64_t) (next () % 3))) ;
    static const gcu_op code [2][3] = { { GCU_OP_MATRIX_EWISEMULT_BINARYOP, GCU_OP_MATRIX_EWISEADD_BINARYOP,
        GCU_OP_MATRIX_EWISEUNION }, { GCU_OP_VECTOR_EWISEMULT_BINARYOP, GCU_OP_VECTOR_EWISEADD_BINARYOP,
        GCU_OP_VECTOR_EWISEUNION } } ;
    gcu_call call = { .op = code [vec][kind], .C = C, .M = M, .binop = op->handle, .A = x, .B = y,
        .alpha = alpha, .beta = beta, .desc = d, .replace = repl, .mask_comp = comp, .tran_a = ta, .tran_b = tb } ;
    uint64_t av [2] = { 0, 0 }, bv [2] = { 0, 0 } ;
    bool decided = kind != GCU_ISO_UNION || gcu_ewise_union_scalars (&call, op->handle, av, bv) == GrB_SUCCESS ;
    decided = decided && (vec ? gcu_iso_call_vector_ewise (&call, op, av, bv) : gcu_iso_call_ewise (&call, op, av, bv) >= 0) ;
    GrB_Info info = kind == GCU_ISO_UNION
        ? ((union_t) ewise_fn [vec][kind]) (C, M, NULL, op->handle, x, alpha, y, beta, d)
        : ((ewise_t) ewise_fn [vec][kind]) (C, M, NULL, op->handle, x, y, d) ;
    if (info == GrB_SUCCESS)
    {
        GrB_Index cn = 0 ;
        bool c_iso = false ;
        uint64_t z [2] = { 0, 0 } ;
        OK (GrB_Matrix_nvals (&cn, (GrB_Matrix) C)) ;
        int rule = -1 ;
        if (decided && vec) { rule = call.c_iso [cn > 0] ; memcpy (z, call.c_iso_value, sizeof (z)) ; }
        else if (decided) rule = gcu_iso_call_result (&call, tz->size, (int64_t) cn, z) ;
        bool same = gcu_test_iso_agrees ((GrB_Matrix) C, rule, z, tz->size, &c_iso, &cn) == 1 ;
        ew_cases [vec]++ ;
        if (rule >= 0)
        {
            ew_decided [vec]++ ;
            ew_iso [vec] += c_iso ;
            // (an empty result under a mask: either status, as for products)
            if (!same && M != NULL && cn == 0 && rule == 0) same = true ;
            // (a vector's one entry under a mask: written as more entries
            // would be; SuiteSparse's methods mark it iso or not)
            if (!same && vec && M != NULL && cn == 1) { ew_one++ ; same = true ; }
            if (!same && ew_wrong++ < 30)
                CHECK (false, "%s%s over %s: %llux%llu, A kind %d tran %d (status %d), B kind %d tran %d "
                    "(status %d); C kind %d, mask %s kind %d struct %d comp %d replace %d: rule %d, "
                    "SuiteSparse's iso %d (%llu entries)", vec ? "vector " : "", kind == 0 ? "eWiseMult"
                    : kind == 1 ? "eWiseAdd" : "eWiseUnion", name, (unsigned long long) m, (unsigned long long) n,
                    kx, ta, status_of (x), ky, tb, status_of (y), kc, M ? "yes" : "none", km, st, comp, repl,
                    rule, c_iso, (unsigned long long) cn) ;
            else if (same) gcu_test_passed++ ;
        }
    }
    GrB_Descriptor_free (&d) ;
    GrB_Scalar_free (&alpha) ; GrB_Scalar_free (&beta) ;
    obj_free (&x, vec) ; obj_free (&y, vec) ; obj_free (&C, vec) ; obj_free (&M, vec) ;
}

// a vector apply: w<M> = f (u), f a unary operator of the multiply's z type
// (kind 0), the multiply bound first to a GrB_Scalar (1) or second to a
// typed scalar (2), or an index unary operator (3: VALUEEQ of u's type, or
// ROWINDEX); or a vector select (4: a value comparison of the multiply's x
// type, or TRIL); the status gcu_iso_call_vector_apply (select:
// gcu_iso_call_vector_select) gives w against SuiteSparse's
typedef GrB_Info (*apply_t) (void *, const void *, const void *, const void *, const void *, const void *) ;
typedef GrB_Info (*bound_t) (void *, const void *, const void *, const void *, const void *,
    const void *, const void *) ;
static void *apply_fn [5] ;             // SuiteSparse's own, by kind
static long ap_cases, ap_decided, ap_iso, ap_wrong, ap_one, sel_decided, sel_iso ;
static GrB_UnaryOp *const ap_unary [4][GCU_NTYPES] =
    { GCU_U13 (GrB, IDENTITY), GCU_U13 (GrB, AINV), GCU_U13 (GxB, ONE), GCU_U13 (GrB, MINV) } ;
static GrB_IndexUnaryOp *const ap_valueeq [GCU_NTYPES] = GCU_U13 (GrB, VALUEEQ) ;
static GrB_IndexUnaryOp *const ap_value [4][GCU_NTYPES] = { GCU_U13 (GrB, VALUEEQ), GCU_U13 (GrB, VALUENE),
    GCU_U11 (GrB, VALUEGT), GCU_U11 (GrB, VALUELE) } ;
static void apply_case (int kind, const gcu_semiring_desc *sr, const char *name)
{
    const gcu_binop_desc *op = &sr->mult ;
    const gcu_type_info *tz = gcu_types + op->z.code ;
    GrB_UnaryOp un = NULL ;
    GrB_IndexUnaryOp ix = NULL ;
    GrB_Type ut = kind == 1 ? op->y.handle : op->x.handle, zt = op->z.handle ;
    if (kind == 0) { un = *ap_unary [next () % 4][op->z.code] ; ut = zt ; }
    if (kind == 3)
    {
        ix = next () % 2 ? GrB_ROWINDEX_INT64 : *ap_valueeq [op->x.code] ;
        zt = ix == GrB_ROWINDEX_INT64 ? GrB_INT64 : GrB_BOOL ;
    }
    if (kind == 4)
    {
        GrB_IndexUnaryOp *const h = ap_value [next () % 4][op->x.code] ;
        ix = next () % 5 == 0 || h == NULL ? GrB_TRIL : *h ;
        zt = ut ;       // (T keeps u's type)
    }
    const gcu_type_info *tw = gcu_type_builtin (zt) ;
    const GrB_Index m = 1 + next () % 5 ;
    const int ku = (int) (next () % 6), kc = (int) (next () % 6), km = (int) (next () % 6) ;
    void *u = gcu_test_iso_operand (ut, m, 1, ku, true, &rng) ;
    void *w = gcu_test_iso_operand (next () % 4 ? zt : *gcu_types [next () % GCU_T_FC32].handle, m, 1, kc, true, &rng) ;
    void *M = NULL ;
    if (tw->tclass == GCU_CLASS_COMPLEX) { GrB_Vector_free ((GrB_Vector *) &w) ; w = gcu_test_iso_operand (zt, m, 1, kc, true, &rng) ; }
    if (next () % 2) M = gcu_test_iso_operand (next () % 2 ? GrB_BOOL : *gcu_types [next () % GCU_T_FC32].handle, m, 1, km, true, &rng) ;
    const bool st = next () % 3 == 0, comp = next () % 2, repl = next () % 2 ;
    GrB_Descriptor d = gcu_test_desc (st, comp, repl, false, false) ;
    CHECK (d != NULL, "no descriptor") ;
    // the bound scalar: a GrB_Scalar (kinds 1, 3) or typed (2: the call's
    // bytes and type, as the typed entry points fill it)
    GrB_Type stype = kind == 1 ? op->x.handle : kind == 2 ? op->y.handle
        : (ix == GrB_ROWINDEX_INT64 || ix == GrB_TRIL) ? GrB_INT64 : op->x.handle ;
    GrB_Scalar s = NULL ;
    OK (GrB_Scalar_new (&s, stype)) ;
    OK (GrB_Scalar_setElement_INT64 (s, (int64_t) (next () % 3))) ;
    static const gcu_op code [5] = { GCU_OP_VECTOR_APPLY, GCU_OP_VECTOR_APPLY_BINOP1ST,
        GCU_OP_VECTOR_APPLY_BINOP2ND, GCU_OP_VECTOR_APPLY_INDEXOP, GCU_OP_VECTOR_SELECT } ;
    gcu_call call = { .op = code [kind], .C = w, .M = M, .A = u, .desc = d, .replace = repl, .mask_comp = comp,
        .unop = un, .binop = (kind == 1 || kind == 2) ? op->handle : NULL, .idxop = ix, .alpha = kind == 2 ? NULL : s } ;
    if (kind == 2)
    {
        const gcu_type_info *ts = gcu_type_builtin (stype) ;
        OK (gcu_scalar_get_builtin (call.scalar, ts->code, s)) ;
        call.scalar_type = stype ;
    }
    gcu_iso_apply_op aop = { .unop = un, .binop = call.binop, .bind1st = kind == 1, .idxop = ix, .s = s } ;
    const bool decided = kind == 4 ? gcu_iso_call_vector_select (&call, s) : gcu_iso_call_vector_apply (&call, &aop, zt) ;
    GrB_Info info = kind == 0 ? ((apply_t) apply_fn [0]) (w, M, NULL, un, u, d)
        : kind == 1 ? ((bound_t) apply_fn [1]) (w, M, NULL, op->handle, s, u, d)
        : ((bound_t) apply_fn [kind]) (w, M, NULL, kind == 2 ? (const void *) op->handle : (const void *) ix, u, s, d) ;
    if (info == GrB_SUCCESS)
    {
        GrB_Index cn = 0 ;
        bool c_iso = false ;
        OK (GrB_Matrix_nvals (&cn, (GrB_Matrix) w)) ;
        const int rule = decided ? call.c_iso [cn > 0] : -1 ;
        const gcu_type_info *tc = NULL ;
        GrB_Type wt = NULL ;
        OK (GxB_Vector_type (&wt, (GrB_Vector) w)) ;
        tc = gcu_type_builtin (wt) ;
        bool same = gcu_test_iso_agrees ((GrB_Matrix) w, rule, call.c_iso_value, tc->size, &c_iso, &cn) == 1 ;
        ap_cases++ ;
        if (rule >= 0)
        {
            ap_decided++ ;
            ap_iso += c_iso ;
            sel_decided += kind == 4 ;
            sel_iso += kind == 4 && c_iso ;
            if (!same && M != NULL && cn == 0 && rule == 0) same = true ;
            // (one entry under a mask: as for the element-wise calls)
            if (!same && M != NULL && cn == 1) { ap_one++ ; same = true ; }
            // (an empty selection: written not iso, SuiteSparse's either)
            if (!same && kind == 4 && cn == 0 && rule == 0) { ap_one++ ; same = true ; }
            if (!same && ap_wrong++ < 30)
                CHECK (false, "vector apply kind %d over %s (%s): length %llu, u kind %d (status %d), w %s kind %d, "
                    "mask %s kind %d struct %d comp %d replace %d: rule %d, SuiteSparse's iso %d (%llu entries)",
                    kind, name, tz->name, (unsigned long long) m, ku, status_of (u), tc->name, kc,
                    M ? "yes" : "none", km, st, comp, repl, rule, c_iso, (unsigned long long) cn) ;
            else if (same) gcu_test_passed++ ;
        }
    }
    GrB_Descriptor_free (&d) ;
    GrB_Scalar_free (&s) ;
    obj_free (&u, true) ; obj_free (&w, true) ; obj_free (&M, true) ;
}

// a vector assign over the whole of w: w<M> = accum (w, u) or the scalar
// x (C itself as its mask sometimes); the status gcu_iso_call_vector_assign
// gives w against SuiteSparse's
typedef GrB_Info (*vassign_t) (void *, const void *, const void *, const void *, const GrB_Index *,
    GrB_Index, const void *) ;
static void *assign_fn [2] ;            // SuiteSparse's own: u, scalar
static long as_cases, as_decided, as_iso, as_wrong ;
static void assign_case (const gcu_semiring_desc *sr, const char *name)
{
    const gcu_type_info *tc = gcu_types + sr->add.op.z.code ;
    if (tc->code >= GCU_NTYPES || tc->code == GCU_T_UDT) return ;
    const bool scalar = next () % 2 ;
    const gcu_type_info *ta = tc->tclass == GCU_CLASS_COMPLEX || next () % 3 ? tc : &gcu_types [next () % GCU_T_FC32] ;
    const GrB_Index m = 1 + next () % 5 ;
    const int kc = (int) (next () % 6), ka = (int) (next () % 6), km = (int) (next () % 7) ;
    void *w = gcu_test_iso_operand (*tc->handle, m, 1, kc, true, &rng) ;
    void *u = scalar ? NULL : gcu_test_iso_operand (*ta->handle, m, 1, ka, true, &rng) ;
    void *M = NULL ;
    const bool w_is_m = km == 6 && next () % 2 ;
    if (w_is_m) M = w ;
    else if (next () % 3) M = gcu_test_iso_operand (next () % 2 ? GrB_BOOL : *gcu_types [next () % GCU_T_FC32].handle,
        m, 1, km % 6, true, &rng) ;
    const bool st = w_is_m || next () % 3 == 0, comp = next () % 2, repl = next () % 2 ;
    GrB_Descriptor d = gcu_test_desc (st, comp, repl, false, false) ;
    CHECK (d != NULL, "no descriptor") ;
    // the accum: the semiring's monoid, or none
    GrB_BinaryOp accum = next () % 2 ? sr->add.op.handle : NULL ;
    GrB_Scalar x = NULL ;
    OK (GrB_Scalar_new (&x, *ta->handle)) ;
    OK (GrB_Scalar_setElement_INT64 (x, (int64_t) (next () % 3))) ;
    gcu_call call = { .op = scalar ? GCU_OP_VECTOR_ASSIGN_SCALAR : GCU_OP_VECTOR_ASSIGN, .C = w, .M = M,
        .A = u, .accum = accum, .desc = d, .replace = repl, .mask_comp = comp, .c_rows = m, .c_cols = 1 } ;
    uint64_t xv [2] = { 0, 0 } ;
    OK (gcu_scalar_get_builtin (xv, ta->code, x)) ;
    const bool decided = gcu_iso_call_vector_assign (&call, *ta->handle, xv) ;
    const GrB_Info info = scalar ? ((vassign_t) assign_fn [1]) (w, M, accum, x, GrB_ALL, m, d)
        : ((vassign_t) assign_fn [0]) (w, M, accum, u, GrB_ALL, m, d) ;
    if (info == GrB_SUCCESS)
    {
        GrB_Index cn = 0 ;
        bool c_iso = false ;
        OK (GrB_Matrix_nvals (&cn, (GrB_Matrix) w)) ;
        const int rule = decided ? call.c_iso [cn > 0] : -1 ;
        const bool same = gcu_test_iso_agrees ((GrB_Matrix) w, rule, call.c_iso_value, tc->size, &c_iso, &cn) == 1 ;
        as_cases++ ;
        if (rule >= 0)
        {
            as_decided++ ;
            as_iso += c_iso ;
            if (!same && as_wrong++ < 30)
                CHECK (false, "vector assign%s over %s: length %llu, w kind %d, %s %s kind %d, mask %s kind %d "
                    "struct %d comp %d replace %d, accum %s: rule %d, SuiteSparse's iso %d (%llu entries)",
                    scalar ? " scalar" : "", name, (unsigned long long) m, kc, scalar ? "x" : "u", ta->name, ka,
                    w_is_m ? "w itself" : M ? "yes" : "none", km, st, comp, repl, accum ? "monoid" : "none",
                    rule, c_iso, (unsigned long long) cn) ;
            else if (same) gcu_test_passed++ ;
        }
    }
    GrB_Descriptor_free (&d) ;
    GrB_Scalar_free (&x) ;
    obj_free (&u, true) ;
    if (!w_is_m) obj_free (&M, true) ;
    obj_free (&w, true) ;
}

int main (void)
{
    const char *seed = getenv ("GRBCUDA_ISO_SEED") ;
    if (seed != NULL && strtoull (seed, NULL, 0) != 0) rng = strtoull (seed, NULL, 0) ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    product_t f [3] = { (product_t) gcu_test_real ("GrB_mxv"), (product_t) gcu_test_real ("GrB_vxm"),
        (product_t) gcu_test_real ("GrB_mxm") } ;
    char path [1024] ;
    char *h = gcu_test_graphblas_h (GCU_GRAPHBLAS_H, path, sizeof (path)) ;
    CHECK (h != NULL && f [0] && f [1] && f [2], "GraphBLAS.h or SuiteSparse's products not found") ;
    if (h == NULL || !f [0] || !f [1] || !f [2]) return gcu_test_report ("test_iso_call") ;
    static const char *const ew_names [2][3] = { { "GrB_Matrix_eWiseMult_BinaryOp",
        "GrB_Matrix_eWiseAdd_BinaryOp", "GxB_Matrix_eWiseUnion" }, { "GrB_Vector_eWiseMult_BinaryOp",
        "GrB_Vector_eWiseAdd_BinaryOp", "GxB_Vector_eWiseUnion" } } ;
    static const char *const ap_names [5] = { "GrB_Vector_apply", "GrB_Vector_apply_BinaryOp1st_Scalar",
        "GrB_Vector_apply_BinaryOp2nd_Scalar", "GrB_Vector_apply_IndexOp_Scalar", "GrB_Vector_select_Scalar" } ;
    for (int v = 0 ; v < 2 ; v++)
        for (int k = 0 ; k < 3 ; k++)
        {
            ewise_fn [v][k] = gcu_test_real (ew_names [v][k]) ;
            CHECK (ewise_fn [v][k] != NULL, "%s not found", ew_names [v][k]) ;
        }
    assign_fn [0] = gcu_test_real ("GrB_Vector_assign") ;
    assign_fn [1] = gcu_test_real ("GrB_Vector_assign_Scalar") ;
    CHECK (assign_fn [0] != NULL && assign_fn [1] != NULL, "SuiteSparse's vector assign not found") ;
    for (int k = 0 ; k < 5 ; k++)
    {
        apply_fn [k] = gcu_test_real (ap_names [k]) ;
        CHECK (apply_fn [k] != NULL, "%s not found", ap_names [k]) ;
    }
    gcu_test_strip_comments (h) ;
    void **objs ;
    char **names ;
    const int n = gcu_test_declared_objects (h, "GrB_Semiring", &objs, &names) ;
    long per [3] = { 0, 0, 0 } ;
    for (int s = 0 ; s < n ; s++)
    {
        gcu_semiring_desc sr ;
        if (gcu_semiring_identify ((GrB_Semiring) objs [s], &sr) != GrB_SUCCESS) continue ;
        // 1-based positional multipliers: SuiteSparse 7.4 is no oracle for
        // them (tests/cpu/test_differential.c; seed 13 here: MIN_FIRSTI1_INT32
        // into one masked entry, iso)
        if (strstr (names [s], "I1_") != NULL || strstr (names [s], "J1_") != NULL) continue ;
        for (int c = 0 ; c < 18 ; c++)
        {
            const long before = cases - undecided ;
            one_case (c % 3, f [c % 3], (GrB_Semiring) objs [s], &sr, names [s]) ;
            per [c % 3] += (cases - undecided) - before ;
        }
        for (int c = 0 ; c < 12 ; c++) ewise_case (c % 3, c >= 6, &sr, names [s]) ;
        for (int c = 0 ; c < 5 ; c++) apply_case (c, &sr, names [s]) ;
        for (int c = 0 ; c < 3 ; c++) assign_case (&sr, names [s]) ;
    }
    printf ("test_iso_call: %d semirings, %ld calls, %ld decided (mxv %ld, vxm %ld, mxm %ld), "
        "%ld iso, %ld wrong; results of another status in SuiteSparse (not a failure): "
        "%ld empty under a mask, %ld empty of A'*B or of one masked entry\n", n, cases, cases - undecided, per [0], per [1], per [2],
        iso, wrong, empty_masked, empty_dot) ;
    printf ("test_iso_call: vector products left open before T: %ld, of them decided by T's entries "
        "(an accum): %ld\n", opened, counted) ;
    printf ("test_iso_call: element-wise over the semirings' multiplies: matrices %ld calls, %ld decided, "
        "%ld iso; vectors %ld calls, %ld decided, %ld iso; %ld wrong; a vector's one entry under a mask "
        "of another status in SuiteSparse (not a failure): %ld\n", ew_cases [0], ew_decided [0], ew_iso [0],
        ew_cases [1], ew_decided [1], ew_iso [1], ew_wrong, ew_one) ;
    printf ("test_iso_call: vector apply and select: %ld calls, %ld decided, %ld iso, %ld wrong; one "
        "entry under a mask, or an empty selection, of another status in SuiteSparse (not a failure): "
        "%ld; select: %ld decided, %ld iso\n", ap_cases, ap_decided, ap_iso, ap_wrong, ap_one, sel_decided, sel_iso) ;
    printf ("test_iso_call: vector assign: %ld calls, %ld decided, %ld iso, %ld wrong\n", as_cases,
        as_decided, as_iso, as_wrong) ;
    CHECK (as_decided > 1000 && as_iso > 200, "too few assign calls decided (%ld, %ld iso)", as_decided, as_iso) ;
    CHECK (sel_decided > 500 && sel_iso > 50, "too few select calls decided (%ld, %ld iso)", sel_decided, sel_iso) ;
    CHECK (ew_decided [0] > 1000 && ew_iso [0] > 100 && ew_decided [1] > 1000 && ew_iso [1] > 100,
        "too few element-wise calls decided (%ld, %ld iso; vectors %ld, %ld iso)", ew_decided [0], ew_iso [0],
        ew_decided [1], ew_iso [1]) ;
    CHECK (ap_decided > 1000 && ap_iso > 100, "too few apply calls decided (%ld, %ld iso)", ap_decided, ap_iso) ;
    CHECK (opened > 100 && counted > 20, "too few open vector products (%ld, %ld decided by T's entries)",
        opened, counted) ;
    CHECK (per [0] > 500 && per [1] > 500 && per [2] > 500 && iso > 300,
        "too few decided calls (%ld, %ld, %ld; %ld iso)", per [0], per [1], per [2], iso) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_iso_call") ;
}
