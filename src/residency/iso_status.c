// iso_status.c — the iso status SuiteSparse 7.4 would give a product call's
// result (gcu_operand.h), from the rules of semirings/gcu_iso.c over the
// call's objects: a host object as SuiteSparse holds it, a device-newest one
// as its write-back will hold it. Where how it would be held decides the
// rule (one entry, held bitmap or not; a diagonal operand that SuiteSparse
// scales by), every way it could be held must give the same status, else
// the status is not known and the call stays on the host. (Differential
// tester seed 13502880242177317083, cases 3672 and 6288: a mask made on the
// GPU as D*X with X iso was written back not iso; SuiteSparse then checked
// its size, where SuiteSparse's own iso-false mask is no mask at all.)
#include "gcu_operand.h"
#include "gcu_iso.h"
#include "gcu_util.h"
#include <stdatomic.h>
#include <string.h>

static _Atomic uint64_t declined, opened, counted ;
uint64_t gcu_iso_declined (void) { return atomic_load (&declined) ; }
uint64_t gcu_iso_opened (void) { return atomic_load (&opened) ; }
uint64_t gcu_iso_counted (void) { return atomic_load (&counted) ; }

void gcu_iso_decline (gcu_call *call)
{
    call->note = "SuiteSparse's iso status of the result not known here: host" ;
    if (!call->iso_declined) atomic_fetch_add (&declined, 1) ;
    call->iso_declined = true ;
}

// An operand as far as it is known: o, and whether how it is held (sparse,
// bitmap or full) and whether it is diagonal are open
typedef struct
{
    gcu_iso_operand o ;
    bool diag ;             // square, its whole diagonal and nothing else
    bool held_open ;        // device newest: its held storage is open
    bool diag_open ;        // device newest, square with n entries
    uint8_t x [GCU_VALUE_MAX] ;
}
described ;

// whether host object A (nvals n, square) is diagonal: its diagonal full
static bool host_diagonal (GrB_Matrix A, GrB_Type t, GrB_Index n)
{
    GrB_Vector d = NULL ;
    GrB_Index dn = 0 ;
    const bool ok = GrB_Vector_new (&d, t, n) == GrB_SUCCESS
        && GxB_Vector_diag (d, A, 0, NULL) == GrB_SUCCESS
        && GrB_Vector_nvals (&dn, d) == GrB_SUCCESS && dn == n ;
    GrB_Vector_free (&d) ;
    return ok ;
}

// product: h is an operand of the product, where one entry held other than
// as a bitmap counts as iso (a device-newest one: not known); else C or the
// mask, where only the iso status and value are read
static bool describe (const void *h, bool product, described *s)
{
    memset (s, 0, sizeof (*s)) ;
    gcu_res_data d ;
    GrB_Index nr = 0, nc = 0 ;
    if (gcu_residency_newest_data (h, &d))
    {
        if (d.type == NULL || d.type_size > sizeof (d.suite_value)) return false ;
        s->o.type = d.type ;
        s->o.nvals = d.nvals ;
        s->o.iso = d.suite_iso ;
        nr = d.nrows ; nc = d.ncols ;
        s->o.full = nr > 0 && nc > 0 && d.nvals == nr * nc ;
        if (d.suite_iso) { memcpy (s->x, d.suite_value, d.type_size) ; s->o.x = s->x ; }
        s->held_open = true ;
        s->diag = nr == nc && d.nvals == nr && nr == 1 ;
        s->diag_open = nr == nc && d.nvals == nr && nr > 1 ;
        // an operand of one entry, its value not kept: not known
        return !(product && d.nvals == 1 && !d.suite_iso) ;
    }
    if (gcu_iso_operand_of ((GrB_Matrix) h, s->x, &s->o) != GrB_SUCCESS
        || GrB_Matrix_nrows (&nr, (GrB_Matrix) h) != GrB_SUCCESS
        || GrB_Matrix_ncols (&nc, (GrB_Matrix) h) != GrB_SUCCESS) return false ;
    s->diag = product && nr == nc && s->o.nvals == nr && nr > 0
        && (nr == 1 || host_diagonal ((GrB_Matrix) h, s->o.type, nr)) ;
    return true ;
}

// the ways an operand could be held: 1 if known, else sparse, bitmap, full
static int ways (const described *s) { return s->held_open ? (s->o.full ? 3 : 2) : 1 ; }
static void held_as (described *s, int w)
{
    if (!s->held_open) return ;
    s->o.bitmap = w == 1 ;
    s->o.held_full = w == 2 ;
}

// The status of T over every way its operands could be held: each way's
// answer r (value z) folded into *t (-2 before the first; value z0); false
// where two ways disagree or one is not known
static bool agree (int *t, int r, const uint8_t *z, uint8_t *z0, size_t zsize)
{
    if (r < 0 || (*t >= 0 && (r != *t || (r == 1 && memcmp (z, z0, zsize) != 0)))) return false ;
    if (*t < 0 && r == 1) memcpy (z0, z, zsize) ;
    *t = r ;
    return true ;
}

// T's status recorded in the call (once a call): t, its value z0 of ztype
static int t_status (gcu_call *call, int t, const uint8_t *z0, size_t zsize)
{
    if (t == 1 && zsize > sizeof (call->t_iso_value)) t = -1 ;
    if (t == 1) memcpy (call->t_iso_value, z0, zsize) ;
    call->t_iso = (int8_t) t ;
    return t ;
}

// T's status is found once a call: false where it was (call->t_iso holds
// it), else the call marked as finding it, not known yet, T of type ttype
static bool t_begin (gcu_call *call, GrB_Type ttype)
{
    if (call->t_iso_done) return false ;
    call->t_iso_done = true ;
    call->t_iso = -1 ;
    call->t_iso_type = ttype ;
    return true ;
}

int gcu_iso_call_product (gcu_call *call, const gcu_semiring_desc *sr)
{
    if (!t_begin (call, sr->add.op.z.handle)) return call->t_iso ;
    // a positional multiply: never iso, whatever the operands (BFS's
    // frontier of one entry, device newest, need not be described)
    if (sr->mult.flags & GCU_OPF_POSITIONAL) return (call->t_iso = 0) ;
    // the product's first and second operands: the GraphBLAS arguments'
    // order, which call->A and call->B keep (vxm: u, then the matrix;
    // SuiteSparse computes A'*u with the multiply's operands flipped back)
    described a, b ;
    if (!describe (call->A, true, &a) || !describe (call->B, true, &b)) return -1 ;
    const bool masked = call->M != NULL ;
    // the inner dimension (mxv, vxm: u's length)
    const GrB_Index inner = call->op == GCU_OP_MXM ? (call->tran_a ? call->a_rows : call->a_cols)
        : call->op == GCU_OP_MXV ? call->b_rows : call->a_rows ;
    uint8_t z [GCU_VALUE_MAX], z0 [GCU_VALUE_MAX] ;
    int t = -2 ;
    for (int wa = 0 ; wa < ways (&a) ; wa++)
    for (int da = 0 ; da <= (int) a.diag_open ; da++)
    for (int wb = 0 ; wb < ways (&b) ; wb++)
    for (int db = 0 ; db <= (int) b.diag_open ; db++)
    {
        held_as (&a, wa) ;
        held_as (&b, wb) ;
        const bool scaled = gcu_iso_scaled (&a.o, a.diag || da, &b.o, b.diag || db) ;
        const int r = masked ? gcu_iso_product_masked (sr, &a.o, &b.o, scaled, z)
                             : gcu_iso_product_n (sr, &a.o, &b.o, scaled, inner, z) ;
        if (!agree (&t, r, z, z0, sr->add.op.z.size)) return -1 ;
    }
    return t_status (call, t, z0, sr->add.op.z.size) ;
}

int gcu_iso_call_ewise (gcu_call *call, const gcu_binop_desc *op, const void *alpha, const void *beta)
{
    if (!t_begin (call, op->z.handle)) return call->t_iso ;
    const gcu_iso_ewise_kind kind = gcu_op_mult (call->op) ? GCU_ISO_EMULT
        : gcu_op_union (call->op) ? GCU_ISO_UNION : GCU_ISO_ADD ;
    if (call->tran_a && call->tran_b) return -1 ;
    described a, b, c, m ;
    bool structural = false, complement = false ;
    if (!describe (call->A, false, &a) || !describe (call->B, false, &b) || !describe (call->C, false, &c)
        || !gcu_mask_kind (call->desc, &structural, &complement)) return -1 ;
    if (call->M != NULL && !describe (call->M, false, &m)) return -1 ;
    // (a valued mask iso zero is no mask to SuiteSparse: T then unmasked)
    const bool masked = call->M != NULL && gcu_iso_mask_none (&m.o, structural) != 1 ;
    // a transposed operand is transposed first: how the copy is held is open
    a.held_open = a.held_open || call->tran_a ;
    b.held_open = b.held_open || call->tran_b ;
    uint8_t z [GCU_VALUE_MAX], z0 [GCU_VALUE_MAX] ;
    int t = -2 ;
    for (int wa = 0 ; wa < ways (&a) ; wa++)
    for (int wb = 0 ; wb < ways (&b) ; wb++)
    for (int wc = 0 ; wc < ways (&c) ; wc++)
    {
        held_as (&a, wa) ; held_as (&b, wb) ; held_as (&c, wc) ;
        const int r = gcu_iso_ewise (kind, op, &a.o, &b.o, &c.o, alpha, beta, masked, z) ;
        if (!agree (&t, r, z, z0, op->z.size)) return -1 ;
    }
    return t_status (call, t, z0, op->z.size) ;
}

int gcu_iso_call_result (gcu_call *call, size_t zsize, int64_t result_nvals, void *z)
{
    if (!call->t_iso_done || call->t_iso < 0 || zsize > sizeof (call->t_iso_value)) return -1 ;
    described c, m ;
    bool structural = false, complement = false ;
    if (!describe (call->C, false, &c) || !gcu_mask_kind (call->desc, &structural, &complement)) return -1 ;
    // an accum: T and C not iso make a C not iso (C = accum (C, T) has T's
    // entries, or is C as it was); otherwise not decided here
    if (call->accum != NULL) return (call->t_iso == 0 && !c.o.iso) ? 0 : -1 ;
    if (call->M != NULL && !describe (call->M, false, &m)) return -1 ;
    // an empty result under a mask: SuiteSparse's methods give it either
    // status (tests/cpu/test_iso_rule.c); it is written not iso (README,
    // "Iso status")
    if (call->M != NULL && result_nvals == 0) return 0 ;
    // an element-wise result of one entry under a mask: SuiteSparse's
    // methods mark it iso or not (tests/cpu/test_iso_ewise_rule.c)
    if (call->M != NULL && result_nvals == 1 && gcu_op_ewise (call->op)) return -1 ;
    return gcu_iso_masked (call->t_iso, call->t_iso_value, zsize, &c.o,
        call->M != NULL ? &m.o : NULL, structural, complement, call->replace, result_nvals, z) ;
}

// T's status t (T of zsize bytes a value): whether C's, with entries, is
// known too (a count of two stands for any: the publish decides one entry
// under a mask); false, and the call declined, otherwise
static bool c_known (gcu_call *call, int t, size_t zsize)
{
    uint64_t z [2] ;
    if (t >= 0 && gcu_iso_call_result (call, zsize, 2, z) >= 0) return true ;
    gcu_iso_decline (call) ;
    return false ;
}

bool gcu_iso_call_check (gcu_call *call, const gcu_semiring_desc *sr)
{
    return c_known (call, gcu_iso_call_product (call, sr), sr->add.op.z.size) ;
}

bool gcu_iso_call_check_ewise (gcu_call *call, const gcu_binop_desc *op, const void *alpha,
    const void *beta)
{
    return c_known (call, gcu_iso_call_ewise (call, op, alpha, beta), op->z.size) ;
}

int gcu_iso_call_apply (gcu_call *call, const gcu_iso_apply_op *op, GrB_Type ztype)
{
    if (!t_begin (call, ztype)) return call->t_iso ;
    const gcu_type_info *tz = gcu_type_builtin (ztype) ;
    described a ;
    if (tz == NULL || !describe (call->A, false, &a)) return -1 ;
    // (a transposed A is transposed first: how the copy is held is open)
    a.held_open = a.held_open || op->tran ;
    uint8_t z [GCU_VALUE_MAX], z0 [GCU_VALUE_MAX] ;
    int t = -2 ;
    for (int wa = 0 ; wa < ways (&a) ; wa++)
    {
        held_as (&a, wa) ;
        if (!agree (&t, gcu_iso_apply (op, ztype, &a.o, z), z, z0, tz->size)) return -1 ;
    }
    return t_status (call, t, z0, tz->size) ;
}

int gcu_iso_call_select (gcu_call *call, GrB_Scalar y)
{
    if (!t_begin (call, NULL)) return call->t_iso ;
    described a ;
    if (!describe (call->A, false, &a)) return -1 ;
    const gcu_type_info *ta = gcu_type_builtin (a.o.type) ;
    call->t_iso_type = a.o.type ;       // (T keeps A's type)
    if (ta == NULL) return -1 ;
    a.held_open = a.held_open || call->tran_a ;
    uint8_t z [GCU_VALUE_MAX], z0 [GCU_VALUE_MAX] ;
    int t = -2 ;
    for (int wa = 0 ; wa < ways (&a) ; wa++)
    {
        held_as (&a, wa) ;
        if (!agree (&t, gcu_iso_select (call->idxop, y, &a.o, z), z, z0, ta->size)) return -1 ;
    }
    return t_status (call, t, z0, ta->size) ;
}

// w's status with entries ([1]) and with none ([0]) from T's, into
// call->c_iso; where one is not known here: open (T known, an accum, and
// open_ok: call->c_iso_open, zeros in c_iso) or false, the call declined
static bool vector_w (gcu_call *call, bool t_known, size_t zsize, bool open_ok)
{
    described c ;
    uint64_t z [2] = { 0, 0 } ;
    bool ok = t_known && describe (call->C, false, &c) ;
    for (int k = 0 ; ok && k < 2 ; k++)
    {
        // (entries: two stand for any number; one entry of an element-wise
        // result under a mask, which SuiteSparse's methods mark iso or not,
        // is written as two would be: README, "Iso status")
        const int st = gcu_iso_call_result (call, zsize, 2 * k, z) ;
        // an iso value is of T's type: a w of another type is not decided
        ok = st >= 0 && (st == 0 || (c.o.type == call->t_iso_type && zsize <= sizeof (z))) ;
        call->c_iso [k] = (int8_t) (ok ? st : 0) ;
        if (ok && st == 1) memcpy (call->c_iso_value, z, zsize) ;
    }
    call->c_iso_open = !ok && open_ok && t_known && call->t_iso >= 0 && call->accum != NULL ;
    if (call->c_iso_open)
    {
        call->c_iso [0] = call->c_iso [1] = 0 ;
        atomic_fetch_add (&opened, 1) ;
        return true ;
    }
    if (!ok) gcu_iso_decline (call) ;
    return ok ;
}

bool gcu_iso_call_vector (gcu_call *call, const gcu_semiring_desc *sr)
{
    return vector_w (call, gcu_iso_call_product (call, sr) >= 0, sr->add.op.z.size, true) ;
}

bool gcu_iso_call_vector_counted (gcu_call *call, GrB_Index t_nvals)
{
    described c, m ;
    bool structural = false, complement = false ;
    if (!call->c_iso_open || call->accum == NULL || !describe (call->C, false, &c)
        || !gcu_mask_kind (call->desc, &structural, &complement)
        || (call->M != NULL && !describe (call->M, false, &m))) return false ;
    const gcu_type_info *tc = gcu_type_builtin (c.o.type) ;
    uint8_t z [GCU_VALUE_MAX], z0 [GCU_VALUE_MAX] ;
    int t = -2 ;
    for (int wc = 0 ; tc != NULL && wc < ways (&c) ; wc++)
    {
        held_as (&c, wc) ;
        const int r = gcu_iso_accum (call->t_iso, t_nvals, &c.o, call->M != NULL ? &m.o : NULL,
            structural, complement, call->replace, call->accum, z) ;
        if (!agree (&t, r, z, z0, tc->size)) return false ;
    }
    if (tc == NULL || t < 0 || tc->size > sizeof (call->c_iso_value)) return false ;
    // (the rule gives w's status whatever its entry count)
    call->c_iso [0] = call->c_iso [1] = (int8_t) t ;
    if (t == 1) memcpy (call->c_iso_value, z0, tc->size) ;
    call->c_iso_open = false ;
    atomic_fetch_add (&counted, 1) ;
    return true ;
}

bool gcu_iso_call_vector_ewise (gcu_call *call, const gcu_binop_desc *op, const void *alpha,
    const void *beta)
{
    return vector_w (call, gcu_iso_call_ewise (call, op, alpha, beta) >= 0, op->z.size, false) ;
}

bool gcu_iso_call_vector_apply (gcu_call *call, const gcu_iso_apply_op *op, GrB_Type ztype)
{
    const gcu_type_info *tz = gcu_type_builtin (ztype) ;
    return vector_w (call, tz != NULL && gcu_iso_call_apply (call, op, ztype) >= 0, tz != NULL ? tz->size : 0,
        false) ;
}

bool gcu_iso_call_vector_select (gcu_call *call, GrB_Scalar y)
{
    const int t = gcu_iso_call_select (call, y) ;
    const gcu_type_info *ta = gcu_type_builtin (call->t_iso_type) ;
    if (!vector_w (call, t >= 0 && ta != NULL, ta != NULL ? ta->size : 0, false)) return false ;
    // (an empty selection is iso or not by SuiteSparse's path: written not
    // iso, as an empty result under a mask is)
    call->c_iso [0] = 0 ;
    return true ;
}

bool gcu_iso_call_vector_assign (gcu_call *call, GrB_Type xtype, const void *x)
{
    described c, m, a ;
    bool structural = false, complement = false ;
    const bool has_a = call->A != NULL ;
    bool ok = describe (call->C, false, &c) && gcu_mask_kind (call->desc, &structural, &complement)
        && (call->M == NULL || describe (call->M, false, &m)) && (!has_a || describe (call->A, false, &a)) ;
    const gcu_type_info *tc = ok ? gcu_type_builtin (c.o.type) : NULL ;
    const GrB_Index cells = call->c_rows * (call->c_cols > 0 ? call->c_cols : 1) ;
    uint8_t z [GCU_VALUE_MAX], z0 [GCU_VALUE_MAX] ;
    int t = -2 ;
    for (int wc = 0 ; ok && tc != NULL && wc < ways (&c) ; wc++)
    for (int wa = 0 ; ok && wa < (has_a ? ways (&a) : 1) ; wa++)
    {
        held_as (&c, wc) ;
        if (has_a) held_as (&a, wa) ;
        const int r = gcu_iso_assign (&c.o, cells, call->M != NULL ? &m.o : NULL, structural, complement,
            call->replace, call->M != NULL && call->M == call->C, call->accum, has_a ? &a.o : NULL, xtype, x, z) ;
        ok = agree (&t, r, z, z0, tc->size) ;
    }
    ok = ok && tc != NULL && t >= 0 ;
    // (the rule gives C's status, results of one entry and empty ones too)
    call->c_iso [0] = call->c_iso [1] = (int8_t) (ok ? t : 0) ;
    if (ok && t == 1) memcpy (call->c_iso_value, z0, tc->size) ;
    if (!ok) gcu_iso_decline (call) ;
    return ok ;
}
