// gcu_iso.h — the iso status SuiteSparse 7.4 gives a result, so that a
// result a GPU family leaves on the device is written back as SuiteSparse
// would have held it. The status is observable: GxB_*_iso, an unpack's
// single value, and SuiteSparse's own mask handling, which turns a valued
// mask that is iso with a zero value into no mask with the complement
// flipped before it checks the mask's size or the indices (GB_get_mask;
// differential tester seed 13502880242177317083, cases 3672 and 6288).
// Used by the product, element-wise, vector apply, select and assign
// families through src/residency/iso_status.c, which
// applies them to a call's objects (a result whose status cannot be told
// here is computed on the host). Internal header, never installed.
#ifndef GCU_ISO_H
#define GCU_ISO_H

#include "gcu_semiring.h"

// An operand as SuiteSparse holds it.
typedef struct
{
    GrB_Type type ;
    GrB_Index nvals ;
    bool iso ;
    bool bitmap ;           // held as a bitmap
    bool held_full ;        // held full
    bool full ;             // every entry present (as if full)
    const void *x ;         // a value of it (its iso value; NULL if no entry)
}
gcu_iso_operand ;

// The operand A (a host object, not device newest) as SuiteSparse holds it;
// x points into buf (GCU_VALUE_MAX bytes) where A is iso or has one entry
// (the only operands whose value the rules read), else NULL.
GrB_Info gcu_iso_operand_of (GrB_Matrix A, void *buf, gcu_iso_operand *o) ;

// Whether SuiteSparse 7.4 computes A*B (no mask) by scaling with a diagonal
// operand (its monoid then unused): A diagonal (square, its whole diagonal
// and nothing else) and held sparse or hypersparse, B not held as a bitmap;
// or the same with B and A exchanged. Found against SuiteSparse itself
// (tests/cpu/test_iso_rule.c).
bool gcu_iso_scaled (const gcu_iso_operand *A, bool a_diagonal,
    const gcu_iso_operand *B, bool b_diagonal) ;

// T = A*B over sr, as SuiteSparse computes it without a mask or accum
// (GB_AxB_iso): 1 if T is iso, its value written to z (the monoid's type);
// 0 if not; -1 if it cannot be said here (a user type, a product of two iso
// full operands whose value reduces n copies). scaled: SuiteSparse scales by
// a diagonal operand (GB_rowscale, GB_colscale), where the monoid is unused.
int gcu_iso_product (const gcu_semiring_desc *sr, const gcu_iso_operand *A,
    const gcu_iso_operand *B, bool scaled, void *z) ;

// gcu_iso_product knowing the inner dimension n: two iso operands (one
// entry held other than as a bitmap counts), both full, over a monoid that
// changes copies of a value (PLUS) make C iso with n copies of their term
// reduced; for n = 1 that is the term itself (else -1 as before).
int gcu_iso_product_n (const gcu_semiring_desc *sr, const gcu_iso_operand *A,
    const gcu_iso_operand *B, bool scaled, uint64_t n, void *z) ;

// T = A*B under a mask: SuiteSparse scales by a diagonal operand in some of
// its masked methods and not in others (seen both ways), so T's status is
// known only where both agree (else -1). scaled: gcu_iso_scaled's answer.
int gcu_iso_product_masked (const gcu_semiring_desc *sr, const gcu_iso_operand *A,
    const gcu_iso_operand *B, bool scaled, void *z) ;

// Whether SuiteSparse takes mask M (as held) for no mask (GB_get_mask: a
// valued mask iso with a zero value, its complement then flipped): 1 if it
// does, 0 if not, -1 if M's value cannot be read here.
int gcu_iso_mask_none (const gcu_iso_operand *M, bool structural) ;

// C<M> = T without an accumulator, as SuiteSparse 7.4 leaves C: t_iso is
// T's status (gcu_iso_product: 1, 0 or -1) and t_value its value; C and M as
// SuiteSparse holds them before the call (M NULL: no mask). 1 with the value
// in z, 0 or -1 as gcu_iso_product; result_nvals: the entries C ends with
// (-1: not known). Decided: no mask (C = T); a valued iso mask whose value is
// zero, or a NULL one, complemented without GrB_REPLACE (C as it was); under
// a mask (t_iso then from gcu_iso_product_masked) a result with entries: T
// not iso, C replaced, empty or not iso before: not iso (a GPU result written
// back as it is now); T iso into an empty C: T's. Not yet: under a mask, an
// empty result (seen both ways), T iso into a C with entries (MIN_MIN of two
// iso operands with GrB_REPLACE was not iso), an iso C kept.
int gcu_iso_masked (int t_iso, const void *t_value, size_t zsize, const gcu_iso_operand *C,
    const gcu_iso_operand *M, bool structural, bool complement, bool replace,
    int64_t result_nvals, void *z) ;

// C<M> = accum (C, x or A) of GrB_assign over the whole of C (I and J
// GrB_ALL), as SuiteSparse 7.4 leaves C (GB_assign_prep and
// GB_subassigner_method: the method chosen decides): 1 iso with its value
// (C's type) in z, 0 not, -1 not said here. A NULL: the scalar x of type
// xtype; cells: C's rows times columns; c_is_m: C is the mask itself. An iso
// A (or one entry not held as a bitmap) or a scalar is assigned as one
// value: C is iso where it was empty or iso with that value (with an accum:
// iso, and accum (c, x) giving that value), always with no mask and no
// accum, and under a structural mask into an empty C or into C itself; C = A
// takes A's own flag (a bitmap C: the method's); GrB_REPLACE without an
// accum clears C first. Not said here: a scalar into a 1-by-1 C with no mask
// (GB_setElement), GrB_REPLACE into a C held full, nothing assigned with
// GrB_REPLACE. Found against SuiteSparse itself, results of one entry and
// empty ones included (tests/cpu/test_iso_assign_rule.c).
int gcu_iso_assign (const gcu_iso_operand *C, GrB_Index cells, const gcu_iso_operand *M, bool structural,
    bool complement, bool replace, bool c_is_m, GrB_BinaryOp accum, const gcu_iso_operand *A,
    GrB_Type xtype, const void *x, void *z) ;

// C<M> = accum (C, T) (accum not NULL; C and M as SuiteSparse holds them
// before the call), T of t_nvals entries whose status is t_iso: 1 iso with
// its value in z, 0 not, -1 not said here. Decided: nothing computed (a
// complemented absent mask: C as it was); T not iso with two entries or
// more: C not iso, except for an iso C under FIRST, ANY or PAIR (SuiteSparse
// adds two as-if-full matrices with GB_iso_emult's rules, or subassigns: the
// path decides). Found against SuiteSparse itself
// (tests/cpu/test_iso_accum_rule.c).
int gcu_iso_accum (int t_iso, GrB_Index t_nvals, const gcu_iso_operand *C, const gcu_iso_operand *M,
    bool structural, bool complement, bool replace, GrB_BinaryOp accum, void *z) ;

// The element-wise kinds (GrB_eWiseMult, GrB_eWiseAdd, GxB_eWiseUnion).
typedef enum { GCU_ISO_EMULT = 0, GCU_ISO_ADD, GCU_ISO_UNION } gcu_iso_ewise_kind ;

// T = A (op) B element-wise, as SuiteSparse 7.4 computes it (GB_ewise,
// GB_add, GB_emult; T of op's z type), no accum, into C (as held before the
// call: its type and whether it is a bitmap decide SuiteSparse's dense
// kernel); masked: under a mask (SuiteSparse's methods then differ where the
// rule depends on them: -1). 1 if T is iso, its value written to z (op's z
// type); 0 if not; -1 if it cannot be said here (a user type or operator;
// GB_emult_02's flipped operands under an operator it cannot flip, whose iso
// value it computes as op (b, a)). Unlike a product's, one entry does not
// make an operand iso here (GB_iso_add, GB_iso_emult read A->iso). alpha,
// beta: eWiseUnion's scalars, of op's x and y types (else unused). Both
// operands transposed by the descriptor is not modelled. Found against
// SuiteSparse itself (tests/cpu/test_iso_ewise_rule.c).
int gcu_iso_ewise (gcu_iso_ewise_kind kind, const gcu_binop_desc *op, const gcu_iso_operand *A,
    const gcu_iso_operand *B, const gcu_iso_operand *C, const void *alpha, const void *beta,
    bool masked, void *z) ;

// The operator of a GrB_apply call: a unary operator; a binary one with a
// bound scalar s (first if bind1st, else second); or an index unary one with
// its scalar s. One of unop, binop, idxop is set. tran: A transposed by the
// descriptor.
typedef struct
{
    GrB_UnaryOp unop ;
    GrB_BinaryOp binop ;
    bool bind1st ;
    GrB_IndexUnaryOp idxop ;
    GrB_Scalar s ;
    bool tran ;
}
gcu_iso_apply_op ;

// T = op (A) of GrB_apply as SuiteSparse 7.4 computes it (GB_apply,
// GB_iso_unop_code), T of op's z type ztype: 1 if T is iso, its value (of
// ztype, computed by SuiteSparse on one entry of A's value) in z; 0 if not;
// -1 if it cannot be said here (a user type). Iso always under ONE, PAIR,
// ANY, FIRST bound first, SECOND bound second; never under a positional
// operator or an index unary operator other than the VALUE* comparisons;
// otherwise iso where A is. Found against SuiteSparse itself
// (tests/cpu/test_iso_apply_rule.c).
int gcu_iso_apply (const gcu_iso_apply_op *op, GrB_Type ztype, const gcu_iso_operand *A, void *z) ;

// T = select (A, op, y) of GrB_select as SuiteSparse 7.4 computes it
// (GB_select's renames, GB_selector), T of A's type, where T has entries: 1
// if T is iso, its value (of A's type) in z; 0 if not; -1 if it cannot be
// said here (a user operator or type, an iso A whose value is not known). A
// positional operator keeps A's status; a value comparison of an iso A gives
// all of A (iso) or nothing; else, with A of the operator's own type, T is
// iso under VALUEEQ (the thunk's value), a comparison with zero that keeps
// zeros only, and bool's comparisons that keep only true. An empty T is iso
// or not by the path SuiteSparse takes (VALUEEQ's into a new C: iso; a
// positional operator's: not). Found against SuiteSparse itself
// (tests/cpu/test_iso_select_rule.c).
int gcu_iso_select (GrB_IndexUnaryOp op, GrB_Scalar y, const gcu_iso_operand *A, void *z) ;

#endif