// gcu_iso.c — the iso status SuiteSparse 7.4 gives a product (gcu_iso.h).
#include "gcu_iso.h"
#include "gcu_real.h"
#include <string.h>

GrB_Info gcu_iso_operand_of (GrB_Matrix A, void *buf, gcu_iso_operand *o)
{
    memset (o, 0, sizeof (*o)) ;
    GrB_Index nr = 0, nc = 0 ;
    int status = 0 ;
    GrB_Info info = GxB_Matrix_type (&o->type, A) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_nvals (&o->nvals, A) ;
    if (info == GrB_SUCCESS) info = GxB_Matrix_iso (&o->iso, A) ;
    if (info == GrB_SUCCESS) info = GxB_Matrix_Option_get (A, GxB_SPARSITY_STATUS, &status) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_nrows (&nr, A) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_ncols (&nc, A) ;
    if (info != GrB_SUCCESS) return info ;
    o->bitmap = status == GxB_BITMAP ;
    o->held_full = status == GxB_FULL ;
    o->full = nr > 0 && nc > 0 && o->nvals == nr * nc ;
    const gcu_type_info *t = gcu_type_builtin (o->type) ;
    // (a value is read only where the operand is iso or has one entry)
    if (o->nvals == 0 || t == NULL || (!o->iso && o->nvals != 1)) return GrB_SUCCESS ;
    // a value: any entry (all alike where it matters: iso, or one entry)
    GrB_Monoid any = gcu_monoid_of (GCU_OP_ANY, t->code) ;
    GrB_Scalar s = NULL ;
    info = GrB_Scalar_new (&s, o->type) ;
    if (info == GrB_SUCCESS) info = GCU_SUITE (GrB_Matrix_reduce_Monoid_Scalar) (s, NULL, any, A, NULL) ;
    if (info == GrB_SUCCESS) info = gcu_scalar_get_builtin (buf, t->code, s) ;
    if (info == GrB_SUCCESS) o->x = buf ;
    GrB_Scalar_free (&s) ;
    return info ;
}

// SuiteSparse's opcode as it decides (GB_boolean_rename for boolean operands)
static gcu_opcode renamed (gcu_opcode op, gcu_type_code t, bool monoid)
{
    if (t != GCU_T_BOOL) return op ;
    switch (op)
    {
        case GCU_OP_DIV:  return monoid ? op : GCU_OP_FIRST ;
        case GCU_OP_RDIV: return monoid ? op : GCU_OP_SECOND ;
        case GCU_OP_MIN: case GCU_OP_TIMES: return GCU_OP_LAND ;
        case GCU_OP_MAX: case GCU_OP_PLUS:  return GCU_OP_LOR ;
        case GCU_OP_ISEQ: case GCU_OP_LXNOR: return GCU_OP_EQ ;
        default: return op ;
    }
}

// a new GrB_Scalar of built-in type t holding v (NULL if it cannot be made)
static GrB_Scalar scalar_of (GrB_Type t, const void *v)
{
    const gcu_type_info *f = gcu_type_builtin (t) ;
    GrB_Scalar s = NULL ;
    if (f == NULL || v == NULL || GrB_Scalar_new (&s, t) != GrB_SUCCESS) return NULL ;
    if (gcu_scalar_set_builtin (s, f->code, v) != GrB_SUCCESS) GrB_Scalar_free (&s) ;
    return s ;
}

// z = (to) v, v of type from: SuiteSparse's cast
static bool cast (void *z, const gcu_type_desc *to, const void *v, GrB_Type from)
{
    GrB_Scalar s = to->code == GCU_T_UDT ? NULL : scalar_of (from, v) ;
    const bool ok = s != NULL && gcu_scalar_get_builtin (z, to->code, s) == GrB_SUCCESS ;
    GrB_Scalar_free (&s) ;
    return ok ;
}

// z = (to) ((mid) v): an operand's value through the operator's input type;
// 1 if it could be cast, else -1 (a rule's answer)
static int cast_via (void *z, const gcu_type_desc *to, const gcu_type_desc *mid, const void *v, GrB_Type from)
{
    uint8_t m [GCU_VALUE_MAX] ;
    return (v != NULL && cast (m, mid, v, from) && cast (z, to, m, mid->handle)) ? 1 : -1 ;
}

// z = 1 of type to (ONE, PAIR): 1, else -1 (a rule's answer)
static int iso_one (void *z, const gcu_type_desc *to)
{
    const uint8_t one = 1 ;
    return cast (z, to, &one, GrB_BOOL) ? 1 : -1 ;
}

// z = op ((x) a, (y) b), cast to zcode, through SuiteSparse on two one-entry
// vectors (of op's x and y types: setting their entries casts a and b)
static bool apply_op (void *z, const gcu_binop_desc *op, gcu_type_code zcode, GrB_Type ta,
    const void *a, GrB_Type tb, const void *b)
{
    GrB_Scalar sa = scalar_of (ta, a), sb = scalar_of (tb, b), s = NULL ;
    GrB_Vector u = NULL, v = NULL, w = NULL ;
    const bool ok = sa != NULL && sb != NULL && zcode != GCU_T_UDT
        && GrB_Vector_new (&u, op->x.handle, 1) == GrB_SUCCESS
        && GrB_Vector_new (&v, op->y.handle, 1) == GrB_SUCCESS
        && GrB_Vector_new (&w, op->z.handle, 1) == GrB_SUCCESS
        && GrB_Scalar_new (&s, op->z.handle) == GrB_SUCCESS
        && GrB_Vector_setElement_Scalar (u, sa, 0) == GrB_SUCCESS
        && GrB_Vector_setElement_Scalar (v, sb, 0) == GrB_SUCCESS
        && GCU_SUITE (GrB_Vector_eWiseMult_BinaryOp) (w, NULL, NULL, op->handle, u, v, NULL) == GrB_SUCCESS
        && GrB_Vector_extractElement_Scalar (s, w, 0) == GrB_SUCCESS
        && gcu_scalar_get_builtin (z, zcode, s) == GrB_SUCCESS ;
    GrB_Vector_free (&u) ; GrB_Vector_free (&v) ; GrB_Vector_free (&w) ;
    GrB_Scalar_free (&s) ; GrB_Scalar_free (&sa) ; GrB_Scalar_free (&sb) ;
    return ok ;
}

// the semiring's multiply of A's and B's values, as the monoid's type
static bool apply_mult (void *z, const gcu_semiring_desc *sr, const gcu_iso_operand *A,
    const gcu_iso_operand *B)
{
    return apply_op (z, &sr->mult, sr->add.op.z.code, A->type, A->x, B->type, B->x) ;
}

bool gcu_iso_scaled (const gcu_iso_operand *A, bool a_diagonal,
    const gcu_iso_operand *B, bool b_diagonal)
{
    return (a_diagonal && !A->bitmap && !A->held_full && !B->bitmap)
        || (b_diagonal && !B->bitmap && !B->held_full && !A->bitmap) ;
}

int gcu_iso_product (const gcu_semiring_desc *sr, const gcu_iso_operand *A,
    const gcu_iso_operand *B, bool scaled, void *z)
{
    if (sr->mult.flags & GCU_OPF_POSITIONAL) return 0 ;
    if (sr->mult.op == GCU_OP_USER || sr->add.op.op == GCU_OP_USER) return -1 ;
    const gcu_opcode add = renamed (sr->add.op.op, sr->add.op.z.code, true) ;
    const gcu_opcode mult = renamed (sr->mult.op, sr->mult.x.code, false) ;
    // monoids that reduce copies of one value to that value
    const bool nice = scaled || add == GCU_OP_ANY || add == GCU_OP_LAND || add == GCU_OP_LOR
        || add == GCU_OP_BAND || add == GCU_OP_BOR || add == GCU_OP_MAX || add == GCU_OP_MIN ;
    const bool nice_with_pair = nice || add == GCU_OP_EQ || add == GCU_OP_TIMES ;
    const bool first = mult == GCU_OP_ANY || mult == GCU_OP_FIRST ;
    const bool second = mult == GCU_OP_ANY || mult == GCU_OP_SECOND ;
    // one entry held sparse counts as iso
    const bool a_iso = A->iso || (A->nvals == 1 && !A->bitmap) ;
    const bool b_iso = B->iso || (B->nvals == 1 && !B->bitmap) ;
    if (nice_with_pair && mult == GCU_OP_PAIR) return iso_one (z, &sr->add.op.z) ;
    if (b_iso && nice && second) return cast_via (z, &sr->add.op.z, &sr->mult.y, B->x, B->type) ;
    if (a_iso && nice && first) return cast_via (z, &sr->add.op.z, &sr->mult.x, A->x, A->type) ;
    if (a_iso && b_iso && nice) return apply_mult (z, sr, A, B) ? 1 : -1 ;
    // both full, each iso or unread by the multiply: C is iso with the
    // reduction of n copies of one term, not computed here
    if (A->full && B->full && (a_iso || (sr->mult.flags & GCU_OPF_NO_X))
        && (b_iso || (sr->mult.flags & GCU_OPF_NO_Y))) return -1 ;
    return 0 ;
}

static bool as_iso (const gcu_iso_operand *o) { return o->iso || (o->nvals == 1 && !o->bitmap) ; }

int gcu_iso_product_n (const gcu_semiring_desc *sr, const gcu_iso_operand *A,
    const gcu_iso_operand *B, bool scaled, uint64_t n, void *z)
{
    const int r = gcu_iso_product (sr, A, B, scaled, z) ;
    // the term itself: what the rule gives where the monoid is unused
    if (r < 0 && n == 1 && A->full && B->full && as_iso (A) && as_iso (B))
        return gcu_iso_product (sr, A, B, true, z) ;
    return r ;
}

int gcu_iso_mask_none (const gcu_iso_operand *M, bool structural)
{
    if (structural || !M->iso) return 0 ;
    const gcu_type_info *mt = gcu_type_builtin (M->type) ;
    if (mt == NULL || M->x == NULL) return -1 ;
    for (size_t b = 0 ; b < mt->size ; b++) if (((const uint8_t *) M->x) [b] != 0) return 0 ;
    return 1 ;
}

// The mask as SuiteSparse reads it (GB_get_mask: a valued iso mask is
// structural if its value is nonzero, else no mask with the complement
// flipped), into *no_mask and *complement; then, where the mask is absent
// and complemented, nothing is computed: C as it was (1 with its value in
// z, or 0), or -1 (cleared by GrB_REPLACE: seen both ways; M's or C's value
// not known). 2: a result is computed.
static int mask_stage (const gcu_iso_operand *C, const gcu_iso_operand *M, bool structural,
    bool *no_mask, bool *complement, bool replace, size_t zsize, void *z)
{
    *no_mask = M == NULL ;
    const int none = *no_mask ? 0 : gcu_iso_mask_none (M, structural) ;
    if (none < 0) return -1 ;
    if (none) { *no_mask = true ; *complement = !*complement ; }
    if (!*no_mask || !*complement) return 2 ;
    if (replace) return -1 ;
    if (C->iso) { if (C->x == NULL) return -1 ; memcpy (z, C->x, zsize) ; return 1 ; }
    return 0 ;
}

int gcu_iso_masked (int t_iso, const void *t_value, size_t zsize, const gcu_iso_operand *C,
    const gcu_iso_operand *M, bool structural, bool complement, bool replace,
    int64_t result_nvals, void *z)
{
    bool no_mask ;
    const int kept = mask_stage (C, M, structural, &no_mask, &complement, replace, zsize, z) ;
    if (kept != 2) return kept ;
    // a mask (t_iso from gcu_iso_product_masked): T not iso, a result with
    // entries is not iso unless C was iso and kept its entries (no
    // GrB_REPLACE); T iso, a result with entries into an empty C is T's. An
    // empty result was seen both ways, and an iso T into a C with entries
    // (replaced or not) too
    if (!no_mask)
    {
        if (t_iso < 0 || result_nvals <= 0) return -1 ;
        if (t_iso == 0) return (replace || C->nvals == 0 || !C->iso) ? 0 : -1 ;
        if (C->nvals != 0) return -1 ;
        memcpy (z, t_value, zsize) ;
        return 1 ;
    }
    if (t_iso < 0) return -1 ;
    if (t_iso == 1) memcpy (z, t_value, zsize) ;
    return t_iso ;
}

int gcu_iso_product_masked (const gcu_semiring_desc *sr, const gcu_iso_operand *A,
    const gcu_iso_operand *B, bool scaled, void *z)
{
    uint8_t z2 [GCU_VALUE_MAX] ;
    const int plain = gcu_iso_product (sr, A, B, false, z) ;
    if (!scaled || plain < 0) return plain ;
    const int s = gcu_iso_product (sr, A, B, true, z2) ;
    return (s == plain && (plain == 0 || memcmp (z, z2, sr->add.op.z.size) == 0)) ? plain : -1 ;
}

//------------------------------------------------------------------------------
// element-wise results
//------------------------------------------------------------------------------

// T = A .* B as GB_iso_emult decides it (also eWiseAdd and eWiseUnion of two
// as-if-full operands). any_second: ANY taken as SECOND (SuiteSparse's
// method for one sparse operand against a bitmap or full one, GB_emult_02,
// so that its result does not depend on which is which).
static int emult_rule (const gcu_binop_desc *op, const gcu_iso_operand *A,
    const gcu_iso_operand *B, bool any_second, void *z)
{
    if (op->flags & GCU_OPF_POSITIONAL) return 0 ;
    const gcu_opcode o = op->op ;
    if (o == GCU_OP_PAIR) return iso_one (z, &op->z) ;
    if (B->iso && (o == GCU_OP_SECOND || o == GCU_OP_ANY)) return cast_via (z, &op->z, &op->y, B->x, B->type) ;
    if (A->iso && (o == GCU_OP_FIRST || (o == GCU_OP_ANY && !any_second)))
        return cast_via (z, &op->z, &op->x, A->x, A->type) ;
    if (A->iso && B->iso)
        return (A->x != NULL && B->x != NULL && apply_op (z, op, op->z.code, A->type, A->x, B->type, B->x)) ? 1 : -1 ;
    return 0 ;
}

// eWiseUnion of operands not both as-if-full (GB_iso_add): each entry in
// one operand only meets alpha or beta
static int union_rule (const gcu_binop_desc *op, const gcu_iso_operand *A,
    const gcu_iso_operand *B, const void *alpha, const void *beta, void *z)
{
    const gcu_opcode o = op->op ;
    uint8_t v [GCU_VALUE_MAX], t [GCU_VALUE_MAX] ;
    if (o == GCU_OP_PAIR) return iso_one (z, &op->z) ;
    if (B->iso && (o == GCU_OP_SECOND || o == GCU_OP_ANY))
    {
        // iso where B's value (as y) is beta: that value
        if (B->x == NULL || !cast (v, &op->y, B->x, B->type)) return -1 ;
        if (memcmp (v, beta, op->y.size) != 0) return 0 ;
        memcpy (z, v, op->y.size) ;
        return 1 ;
    }
    if (A->iso && (o == GCU_OP_FIRST || o == GCU_OP_ANY))
    {
        if (A->x == NULL || !cast (v, &op->x, A->x, A->type)) return -1 ;
        if (memcmp (v, alpha, op->x.size) != 0) return 0 ;
        memcpy (z, v, op->x.size) ;
        return 1 ;
    }
    if (!A->iso || !B->iso) return 0 ;
    // op (a, b), op (a, beta) and op (alpha, b) all alike
    if (A->x == NULL || B->x == NULL || !apply_op (z, op, op->z.code, A->type, A->x, B->type, B->x)) return -1 ;
    if (!apply_op (t, op, op->z.code, A->type, A->x, op->y.handle, beta)) return -1 ;
    if (memcmp (z, t, op->z.size) != 0) return 0 ;
    if (!apply_op (t, op, op->z.code, op->x.handle, alpha, B->type, B->x)) return -1 ;
    return memcmp (z, t, op->z.size) == 0 ? 1 : 0 ;
}

int gcu_iso_ewise (gcu_iso_ewise_kind kind, const gcu_binop_desc *op, const gcu_iso_operand *A,
    const gcu_iso_operand *B, const gcu_iso_operand *C, const void *alpha, const void *beta,
    bool masked, void *z)
{
    if (op->op == GCU_OP_USER || op->x.code >= GCU_NTYPES || op->y.code >= GCU_NTYPES
        || op->z.code >= GCU_NTYPES || op->z.size > GCU_VALUE_MAX) return -1 ;
    const bool positional = op->flags & GCU_OPF_POSITIONAL ;
    // two as-if-full operands, neither iso, no cast, no mask, none held as a
    // bitmap: SuiteSparse's dense kernel computes every value (GB_ewise).
    // Into an as-if-full iso C, SuiteSparse 7.4 writes them all into C's one
    // iso value and leaves C iso (GB_dense_ewise3_noaccum keeps such a C: a
    // heap overflow, reproduced with SuiteSparse alone, bench/RESULTS.md
    // 2026-11-29): not decided here
    if (!masked && A->full && B->full && !A->iso && !B->iso && !positional
        && A->type == op->x.handle && B->type == op->y.handle && C->type == op->z.handle
        && !A->bitmap && !B->bitmap && !C->bitmap) return (C->iso && C->full) ? -1 : 0 ;
    if (kind == GCU_ISO_EMULT)
    {
        // the method by how A and B are held: one sparse (or hypersparse)
        // against one bitmap or full is GB_emult_02, which takes ANY as
        // SECOND; with A the bitmap or full one it flips the operands
        const bool a_sparse = !A->bitmap && !A->held_full, b_sparse = !B->bitmap && !B->held_full ;
        const bool m02 = a_sparse != b_sparse ;
        if (masked && op->op == GCU_OP_ANY && A->iso && !B->iso) return -1 ;
        // (an operator GB_flip_binop cannot flip stays flipped there, and the
        // iso value is op (b, a): gcu_op_emult_flips)
        if (m02 && b_sparse && A->iso && B->iso && gcu_op_emult_flips (op->op)) return -1 ;
        return emult_rule (op, A, B, m02, z) ;
    }
    if (A->full && B->full) return emult_rule (op, A, B, false, z) ;
    if (positional) return 0 ;
    if (kind == GCU_ISO_UNION) return union_rule (op, A, B, alpha, beta, z) ;
    // eWiseAdd: both iso, their values alike as z, and op of them that value
    if (!A->iso || !B->iso) return 0 ;
    uint8_t a [GCU_VALUE_MAX], b [GCU_VALUE_MAX] ;
    if (A->x == NULL || B->x == NULL || !cast (a, &op->z, A->x, A->type) || !cast (b, &op->z, B->x, B->type)) return -1 ;
    if (memcmp (a, b, op->z.size) != 0) return 0 ;
    if (!apply_op (z, op, op->z.code, A->type, A->x, B->type, B->x)) return -1 ;
    return memcmp (z, a, op->z.size) == 0 ? 1 : 0 ;
}

int gcu_iso_accum (int t_iso, GrB_Index t_nvals, const gcu_iso_operand *C, const gcu_iso_operand *M,
    bool structural, bool complement, bool replace, GrB_BinaryOp accum, void *z)
{
    const gcu_type_info *tc = gcu_type_builtin (C->type) ;
    if (tc == NULL) return -1 ;
    bool no_mask ;
    const int kept = mask_stage (C, M, structural, &no_mask, &complement, replace, tc->size, z) ;
    if (kept != 2) return kept ;
    // T iso, or of one entry (GB_subassign reads it as one value), or empty
    // (C kept): not said here
    if (t_iso != 0 || t_nvals < 2) return -1 ;
    if (!C->iso || C->nvals == 0) return 0 ;
    // an iso C accumulated with T's values: not iso, but where SuiteSparse
    // adds two as-if-full matrices (GB_add, GB_iso_emult) under an operator
    // that ignores T
    gcu_binop_desc ad ;
    if (gcu_binop_identify (accum, &ad) != GrB_SUCCESS || ad.op == GCU_OP_USER) return -1 ;
    if (ad.op == GCU_OP_FIRST || ad.op == GCU_OP_ANY || ad.op == GCU_OP_PAIR) return -1 ;
    return 0 ;
}

//------------------------------------------------------------------------------
// GrB_assign over the whole of C (GB_assign_prep, GB_subassigner_method)
//------------------------------------------------------------------------------

int gcu_iso_assign (const gcu_iso_operand *C, GrB_Index cells, const gcu_iso_operand *M, bool structural,
    bool complement, bool replace, bool c_is_m, GrB_BinaryOp accum, const gcu_iso_operand *A,
    GrB_Type xtype, const void *x, void *z)
{
    gcu_type_desc tc ;
    if (gcu_type_identify (C->type, &tc) != GrB_SUCCESS || tc.code >= GCU_NTYPES || tc.code == GCU_T_UDT) return -1 ;
    bool c_empty = C->nvals == 0, c_iso = C->iso, no_mask ;
    if (c_iso && !c_empty && C->x == NULL) return -1 ;
    const int kept = mask_stage (C, M, structural, &no_mask, &complement, replace, tc.size, z) ;
    if (kept != 2) return kept ;
    if (no_mask) c_is_m = false ;
    const bool scalar = A == NULL ;
    // a scalar into a 1-by-1 C with no mask: GB_setElement's status (not
    // modelled)
    if (scalar && no_mask && !replace && cells == 1) return -1 ;
    if (no_mask) replace = false ;
    // GrB_REPLACE with no accum clears C first (GB_assign_prep), unless C is
    // or may become a bitmap (held full: C's sparsity control decides, not
    // known here); C<C,s> = x ignores it
    const bool alias_05f = c_is_m && structural && !complement && scalar && accum == NULL ;
    if (replace && accum == NULL && !alias_05f)
    {
        if (C->held_full) return -1 ;
        if (!C->bitmap) { c_empty = true ; c_iso = false ; replace = false ; }
    }
    if (c_empty || alias_05f) replace = false ;
    // the value assigned: x, or A's where A is iso or has one entry held
    // other than as a bitmap; any other A makes C not iso
    if (!scalar && !A->iso && !(A->nvals == 1 && !A->bitmap)) return 0 ;
    const void *a = scalar ? x : A->x ;
    const GrB_Type at = scalar ? xtype : A->type ;
    uint8_t cout [GCU_VALUE_MAX], c [GCU_VALUE_MAX] ;
    if (a == NULL || !cast (cout, &tc, a, at)) return -1 ;
    // C empty, or iso with that value; with an accum, also accum (c, a)
    // giving it (C iso, even empty)
    const bool c_ok = c_empty || (c_iso && memcmp (C->x, cout, tc.size) == 0) ;
    bool accum_ok = false ;
    if (accum != NULL && c_ok && c_iso)
    {
        gcu_binop_desc ad ;
        if (gcu_binop_identify (accum, &ad) != GrB_SUCCESS || ad.op == GCU_OP_USER) return -1 ;
        if (c_empty) accum_ok = true ;
        else if (!apply_op (c, &ad, tc.code, C->type, C->x, at, a)) return -1 ;
        else accum_ok = memcmp (c, cout, tc.size) == 0 ;
    }
    int iso ;
    // C = A (GB_subassign_24) takes A's own status; a bitmap C (bitmap
    // assign) the method's
    if (no_mask && accum == NULL) iso = scalar || C->bitmap ? 1 : A->iso ;   // 21, 24
    else if (no_mask) iso = accum_ok ;                              // 22, 23, 03, 04
    else if (replace || complement) iso = accum == NULL ? c_ok : accum_ok ;   // with S
    else if (accum != NULL) iso = accum_ok ;                        // 07, 08
    else if (scalar) iso = (structural && (c_is_m || c_empty)) ? 1 : c_ok ;  // 05f, 05e; 05d, 05
    else iso = (structural && c_empty && (A->full || A->bitmap)) ? 1 : c_ok ; // 25; 06d, 06n, 06s
    if (iso) memcpy (z, cout, tc.size) ;
    return iso ;
}
