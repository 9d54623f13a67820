// GRBCUDA_TEST_INTERNAL (reports which GPU family ran: gcu_families, gcu_family_runs)
// test_differential.c — grbcuda's own differential tester (issue 18). Many
// random calls of the operations that have a GPU path (GrB_mxm, GrB_mxv,
// GrB_vxm; GrB_Vector_assign and its typed scalar forms; the eWiseAdd,
// eWiseMult and GxB eWiseUnion of vectors and matrices), each made twice in
// this process: through grbcuda's interposed entry point (mode forced to
// "gpu": every call a GPU family takes runs on the GPU, at any size) and
// through SuiteSparse's own function (the oracle, gcu_test_real), on two
// identical copies of C and of the inputs. Everything a program can observe
// must agree: the return code, whether GrB_error has a message, C's type,
// dimensions, pattern and values, its format, and the inputs (their values
// and storage) left as they were.
// Before C is read whole, the reads a program can make without C's
// write-back (extractElement at some entries and elsewhere, GrB_reduce to a
// GrB_Scalar) must agree too: where grbcuda left C on the device they answer
// from there (compare_reads).
// C's sparsity status is counted as a note, not a difference: it follows
// the method SuiteSparse picks (see compare_meta); so is the status of an
// input made device newest (below). C's iso status is a difference (an
// unpack and GB_get_mask's reading of an iso mask observe it) except where
// SuiteSparse's own methods give either (an empty result, or one entry
// under a mask: compare_sides). Semirings with
// a 1-based positional multiplier are left out, and the other positional
// ones see no hypersparse operand: SuiteSparse 7.4 is no oracle for them
// (catalogue_init, draw_case). MIN/MAX over floating types accept NaN against
// the monoid's identity at an entry whose terms are all NaN (c_rule).
//
// What a case draws (from the seed and its number alone, so any case replays
// by itself): the operation; for a product, a semiring from the run's pool of
// "kernel signatures" (a built-in semiring declared in GraphBLAS.h with the
// types of its two operands: the multiply's own, or any two of the 13
// built-in types; a pool so that a GPU run reuses its JIT compilations); for
// an element-wise call, vector or matrix, an operator from the run's pool of
// element-wise signatures (a built-in binary operator, monoid or semiring,
// not positional, as SuiteSparse reads it: eWiseAdd a semiring's monoid,
// eWiseMult its multiply; eWiseUnion the binary operator of any of them) with
// its operands' types, and for eWiseUnion alpha and beta (GrB_Scalars of any
// type, sometimes empty or NULL: errors); for an assign, the whole of w
// (GrB_ALL, the GPU's case) or an index list (also GrB_ALL with ni != n,
// an index out of range, u of another length: the errors), u or a scalar x
// of one of the 13 typed forms (special values of its own C type); C's and
// M's types; the descriptor (transposes, no mask / valued / structural /
// complemented, a NULL mask with GrB_COMP, GrB_REPLACE); an accum (any
// built-in, non-positional binary operator); the shapes (0 rows or columns,
// 1x1, a dense row or column, empty operands, ...); each operand's storage
// (sparse, hypersparse, bitmap, full, by row or column, iso, pending work,
// or, for the assign and element-wise calls, device newest: grbcuda's copy
// is the result of a GPU GrB_mxv D*x or GrB_mxm D*X, D the identity under
// GxB_ANY_SECOND_<T>, the oracle's the same product through SuiteSparse's
// own function: build_side); values with the special ones of each type (+-0,
// +-inf, NaN, denormals, integer extremes, division by zero).
//
// Values compare exactly (NaN equals NaN, +0 equals -0), except: a PLUS or
// TIMES monoid over a floating type reassociates, so a relative tolerance
// (and the drawn values avoid what makes reassociation overflow or cross a
// discontinuity: see draw_case); an ANY monoid may pick any candidate, so
// the pattern is exact and the values lie between SuiteSparse's MIN and MAX
// of the same call, or, where that cannot be said, only the entries the
// product cannot have written compare; an element-wise ANY operator gives
// at each entry SuiteSparse's answer with FIRST or with SECOND in its place
// (compare_either).
//
// Each copy is built twice from the same recipe rather than with
// GrB_Matrix_dup, which would finish the pending work a case asks for. An
// oracle object never goes through grbcuda's entry points (a real call
// changing an object grbcuda has a device copy of would leave that copy
// stale). Nothing is drawn that SuiteSparse 7.4 itself gets wrong or answers
// two ways (avoid_suitesparse_bugs; no -0 in a valued mask: draw_value).
//
// Usage: test_differential [--calls N] [--seed S] [--case K] [--shard I/N]
//        [--ops LIST] [--pool P] [--max-fail F] [--seconds S] [--verbose]
//        [--no-regressions] [--regressions] [--self-test]
//   --calls N   cases (default $GRBCUDA_DIFF_CALLS, else 3000 without a GPU,
//               400 with one)
//   --seed S    64-bit seed (default $GRBCUDA_DIFF_SEED, else time and pid);
//               printed on the first line
//   --case K    only case K (a replay); --shard I/N: only cases K % N == I
//   --ops LIST  the operations drawn, comma-separated, of mxm, mxv, vxm,
//               assign, assign_scalar, ewise_add, ewise_mult, ewise_union
//               (the element-wise ones of vectors and matrices), apply
//               (GrB_Vector_apply with a built-in unary operator, the BinaryOp1st/2nd and IndexOp forms, typed and GrB_Scalar); default all
//   --pool P    kernel signatures in the run's pools (default $GRBCUDA_DIFF_POOL,
//               else 64; 0: every semiring with its own types, as CI runs it,
//               and an element-wise operator drawn afresh each case)
//   --max-fail F   stop after F failing cases (default 20; 0: never)
//   --seconds S    begin no case after S seconds, and print the summary of
//               those run (a shard within a time budget: gpu_suite.sh)
//   --regressions  only the fixed regression cases (which otherwise run first,
//               in shard 0, not counted in --calls); --no-regressions: skip them
//   --self-test    show that the comparison catches perturbed results
//   --dense-sweep  only GrB_mxm, every built-in semiring in turn in SpMM's and
//               SDDMM's forms (default calls: both forms of every one); the
//               summary says for how many each ran on the GPU in its family
//   --one-based    take in the semirings with 1-based positional multipliers
//               (left out otherwise: SuiteSparse 7.4 is no oracle for them
//               with a hypersparse operand; drawn here with none)
// GrB_mxm cases draw the dense forms too (draw_dense_forms): a full Y
// (SpMM), a full X and Y (SDDMM under a mask); the summary counts the calls
// the masked dot family ran as SDDMM.
//   --verbose      a line per case (printed before the call) and its path
// Last lines: the summary ("differential: seed S, N calls (...), G on the
// GPU (by family), H on the host (by reason), D differences, T s") and
// "test_differential: P passed, F failed" (a check per case). Exit 0 iff no
// case differed.
#include <dlfcn.h>
#include "gcu_test.h"
#include "grbcuda.h"
#include "dispatch/gcu_dispatch.h"
#include "residency/gcu_residency.h"
#include "mxm/gcu_mxm.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef GCU_GRAPHBLAS_H
#define GCU_GRAPHBLAS_H NULL      // the path the build recorded, if any
#endif

//------------------------------------------------------------------------------
// the operations, grbcuda's and SuiteSparse's
//------------------------------------------------------------------------------

// the operations drawn (--ops names them by op_token): the three products,
// then GrB_Vector_assign, its typed scalar forms, and the element-wise
// families (each of vectors or matrices: call_t.matrix)
enum { OP_MXM, OP_MXV, OP_VXM, OP_ASSIGN, OP_ASSIGN_SCALAR, OP_EWISE_ADD, OP_EWISE_MULT,
    OP_EWISE_UNION, OP_APPLY, NOPS } ;
static const char *const op_token [NOPS] = { "mxm", "mxv", "vxm", "assign", "assign_scalar",
    "ewise_add", "ewise_mult", "ewise_union", "apply" } ;
#define NPRODUCTS 3
static const char *const op_name [NPRODUCTS] = { "GrB_mxm", "GrB_mxv", "GrB_vxm" } ;
static bool is_product (int op) { return op <= OP_VXM ; }
static bool is_assign (int op) { return op == OP_ASSIGN || op == OP_ASSIGN_SCALAR ; }
static bool is_ewise (int op) { return op >= OP_EWISE_ADD && op <= OP_EWISE_UNION ; }

typedef GrB_Info (*mxm_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
typedef GrB_Info (*mxv_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Vector, const GrB_Descriptor) ;
typedef GrB_Info (*vxm_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Vector, const GrB_Matrix, const GrB_Descriptor) ;
static mxm_t real_mxm ;
static mxv_t real_mxv ;
static vxm_t real_vxm ;

// One call, C<M> = accum (C, X*Y): X and Y are the multiply's first and
// second operands (mxv: A and u; vxm: u and A). Vectors travel as GrB_Matrix
// (SuiteSparse's documented cast) and are cast back here.
static GrB_Info call_op (int op, bool oracle, GrB_Matrix C, GrB_Matrix M,
    GrB_BinaryOp accum, GrB_Semiring s, GrB_Matrix X, GrB_Matrix Y, GrB_Descriptor d)
{
    if (op == OP_MXM) return (oracle ? real_mxm : GrB_mxm) (C, M, accum, s, X, Y, d) ;
    if (op == OP_MXV) return (oracle ? real_mxv : GrB_mxv) ((GrB_Vector) C,
        (GrB_Vector) M, accum, s, X, (GrB_Vector) Y, d) ;
    return (oracle ? real_vxm : GrB_vxm) ((GrB_Vector) C, (GrB_Vector) M, accum,
        s, (GrB_Vector) X, Y, d) ;
}

// The element-wise and assign functions, each of its own C prototype, kept
// as a generic function pointer and called through its own type below:
// grbcuda's (the symbols this program links) and SuiteSparse's (fn_real)
typedef void (*fn_t) (void) ;
enum { K_BINOP, K_MONOID, K_SEMIRING, NKINDS } ;
static const char *const kind_name [NKINDS] = { "BinaryOp", "Monoid", "Semiring" } ;

// [matrix][mult][kind]
static const fn_t our_ewise [2][2][NKINDS] = {
    { { (fn_t) GrB_Vector_eWiseAdd_BinaryOp, (fn_t) GrB_Vector_eWiseAdd_Monoid, (fn_t) GrB_Vector_eWiseAdd_Semiring },
      { (fn_t) GrB_Vector_eWiseMult_BinaryOp, (fn_t) GrB_Vector_eWiseMult_Monoid, (fn_t) GrB_Vector_eWiseMult_Semiring } },
    { { (fn_t) GrB_Matrix_eWiseAdd_BinaryOp, (fn_t) GrB_Matrix_eWiseAdd_Monoid, (fn_t) GrB_Matrix_eWiseAdd_Semiring },
      { (fn_t) GrB_Matrix_eWiseMult_BinaryOp, (fn_t) GrB_Matrix_eWiseMult_Monoid, (fn_t) GrB_Matrix_eWiseMult_Semiring } } } ;
static const fn_t our_union [2] = { (fn_t) GxB_Vector_eWiseUnion, (fn_t) GxB_Matrix_eWiseUnion } ;
// the typed scalar forms, in the order of the type codes (gcu_test_types)
static const fn_t our_assign_scalar [13] = { (fn_t) GrB_Vector_assign_BOOL,
    (fn_t) GrB_Vector_assign_INT8, (fn_t) GrB_Vector_assign_INT16, (fn_t) GrB_Vector_assign_INT32,
    (fn_t) GrB_Vector_assign_INT64, (fn_t) GrB_Vector_assign_UINT8, (fn_t) GrB_Vector_assign_UINT16,
    (fn_t) GrB_Vector_assign_UINT32, (fn_t) GrB_Vector_assign_UINT64, (fn_t) GrB_Vector_assign_FP32,
    (fn_t) GrB_Vector_assign_FP64, (fn_t) GxB_Vector_assign_FC32, (fn_t) GxB_Vector_assign_FC64 } ;
static fn_t real_ewise [2][2][NKINDS], real_union [2], real_assign_scalar [13], real_assign ;
// GrB_Vector_apply_BinaryOp2nd_<T> [0] and _BinaryOp1st_<T> [1], by type code
static fn_t our_apply [2][13], real_apply [2][13], real_apply_unary ;
// GrB_Vector_apply_IndexOp_<T> by type code; the GrB_Scalar forms
// (BinaryOp2nd_Scalar, BinaryOp1st_Scalar, IndexOp_Scalar)
static fn_t our_apply_idx [13], real_apply_idx [13], our_apply_sc [3], real_apply_sc [3] ;
// GrB_Vector_select_<T> by type code (the IndexOp form's arguments), and
// GrB_Vector_select_Scalar: an index case whose c->index is NIDXOPS or more
static fn_t our_select [13], real_select [13], our_select_sc, real_select_sc ;
static const char *const apply_sc_name [3] = { "GrB_Vector_apply_BinaryOp2nd_Scalar",
    "GrB_Vector_apply_BinaryOp1st_Scalar", "GrB_Vector_apply_IndexOp_Scalar" } ;

// OP_APPLY's kinds: the typed bound forms (2nd, 1st), a unary operator, the
// typed IndexOp form, the GrB_Scalar forms (2nd, 1st, IndexOp)
enum { A_2ND, A_1ST, A_UNARY, A_INDEX, A_2ND_SC, A_1ST_SC, A_INDEX_SC, NAKINDS } ;
static bool apply_index (int kind) { return kind == A_INDEX || kind == A_INDEX_SC ; }

// the built-in index-unary operators drawn: the positional ones the GPU
// computes in apply, and value ones that stay on the host in apply; through
// GrB_Vector_select (c->index NIDXOPS or more) the value ones run on the GPU
// and the positional ones stay on the host
static const char *const idxop_names [] = { "GrB_ROWINDEX_INT32", "GrB_ROWINDEX_INT64",
    "GrB_COLINDEX_INT32", "GrB_COLINDEX_INT64", "GrB_DIAGINDEX_INT32", "GrB_DIAGINDEX_INT64",
    "GrB_VALUEEQ_INT32", "GrB_VALUEGT_FP64", "GrB_VALUELE_UINT8", "GrB_TRIL",
    "GrB_VALUENE_FP64", "GrB_VALUELT_INT64", "GrB_VALUEGE_FP32", "GxB_VALUENE_FC64",
    "GrB_VALUENE_BOOL", "GrB_VALUEEQ_UINT64", "GrB_ROWGT" } ;
#define NIDXOPS ((int) (sizeof (idxop_names) / sizeof (idxop_names [0])))
static GrB_IndexUnaryOp idxops [NIDXOPS] ;

// the built-in unary operators GrB_Vector_apply draws (kind 2 of OP_APPLY):
// each of them of every type that has it, found by name; the GPU takes the
// ones it computes exactly, SuiteSparse the others (SQRT, EXP, ABS of a
// signed integer, ...)
#define MAX_UNOPS 160
static struct { char name [40] ; GrB_UnaryOp op ; } unops [MAX_UNOPS] ;
static int nunops ;

static void unops_init (void)
{
    static const char *const ops [] = { "IDENTITY", "AINV", "MINV", "ABS", "ONE", "BNOT",
        "LNOT", "SQRT", "EXP", "FLOOR" } ;
    for (size_t o = 0 ; o < sizeof (ops) / sizeof (ops [0]) ; o++)
        for (int t = 0 ; t < 13 ; t++)
            for (int pre = 0 ; pre < 2 && nunops < MAX_UNOPS ; pre++)
            {
                char name [40] ;
                snprintf (name, sizeof (name), "%s_%s_%s", pre ? "GxB" : "GrB", ops [o],
                    gcu_test_type_names [t]) ;
                GrB_UnaryOp *v = (GrB_UnaryOp *) dlsym (RTLD_DEFAULT, name) ;
                if (v == NULL || *v == NULL) continue ;
                snprintf (unops [nunops].name, sizeof (unops [nunops].name), "%s", name) ;
                unops [nunops++].op = *v ;
                break ;
            }
    GrB_UnaryOp *l = (GrB_UnaryOp *) dlsym (RTLD_DEFAULT, "GrB_LNOT") ;
    if (l != NULL && *l != NULL && nunops < MAX_UNOPS)
    {
        snprintf (unops [nunops].name, sizeof (unops [nunops].name), "GrB_LNOT") ;
        unops [nunops++].op = *l ;
    }
}

static void ewise_fn_name (bool matrix, bool mult, int kind, char *buf, size_t size)
{
    snprintf (buf, size, "GrB_%s_eWise%s_%s", matrix ? "Matrix" : "Vector", mult ? "Mult" : "Add",
        kind_name [kind]) ;
}

static void union_fn_name (bool matrix, char *buf, size_t size)
{
    snprintf (buf, size, "GxB_%s_eWiseUnion", matrix ? "Matrix" : "Vector") ;
}

// GrB_Vector_assign_<T> (GxB_ for the complex types, codes 11 and 12)
static void assign_scalar_fn_name (int t, char *buf, size_t size)
{
    snprintf (buf, size, "%s_Vector_assign_%s", t >= 11 ? "GxB" : "GrB", gcu_test_type_names [t]) ;
}

// GrB_Vector_apply_BinaryOp2nd_<T> (first: 1st; GxB_ for the complex types)
static void apply_fn_name (int first, int t, char *buf, size_t size)
{
    snprintf (buf, size, "%s_Vector_apply_BinaryOp%s_%s", t >= 11 ? "GxB" : "GrB",
        first ? "1st" : "2nd", gcu_test_type_names [t]) ;
}

// SuiteSparse's definition of name, which must not be grbcuda's (ours)
static fn_t fn_real (const char *name, fn_t ours)
{
    void *f = gcu_test_real (name) ;
    fn_t g = NULL ;
    if (f != NULL) memcpy (&g, &f, sizeof (g)) ;
    CHECK (g != NULL && g != ours, "SuiteSparse's %s, not the interposed one", name) ;
    return g != ours ? g : NULL ;
}

// grbcuda's function of that name (*ours, as linked) and SuiteSparse's
// (*real); false if either is missing
static bool fn_pair (const char *name, fn_t *ours, fn_t *real)
{
    void *g = dlsym (RTLD_DEFAULT, name) ;
    memcpy (ours, &g, sizeof (g)) ;
    return *ours != NULL && (*real = fn_real (name, *ours)) != NULL ;
}

// SuiteSparse's element-wise and assign functions; false if one is missing
static bool real_fns_init (void)
{
    char name [64] ;
    bool ok = true ;
    for (int m = 0 ; m < 2 ; m++)
    {
        for (int k = 0 ; k < 2 * NKINDS ; k++)
        {
            ewise_fn_name (m, k / NKINDS, k % NKINDS, name, sizeof (name)) ;
            const int mult = k / NKINDS, kind = k % NKINDS ;
            ok &= (real_ewise [m][mult][kind] = fn_real (name, our_ewise [m][mult][kind])) != NULL ;
        }
        union_fn_name (m, name, sizeof (name)) ;
        ok &= (real_union [m] = fn_real (name, our_union [m])) != NULL ;
    }
    for (int t = 0 ; t < 13 ; t++)
    {
        assign_scalar_fn_name (t, name, sizeof (name)) ;
        ok &= (real_assign_scalar [t] = fn_real (name, our_assign_scalar [t])) != NULL ;
    }
    ok &= (real_assign = fn_real ("GrB_Vector_assign", (fn_t) GrB_Vector_assign)) != NULL ;
    ok &= (real_apply_unary = fn_real ("GrB_Vector_apply", (fn_t) GrB_Vector_apply)) != NULL ;
    for (int t = 0 ; t < 13 ; t++)
    {
        snprintf (name, sizeof (name), "%s_Vector_apply_IndexOp_%s", t >= 11 ? "GxB" : "GrB",
            gcu_test_type_names [t]) ;
        ok &= fn_pair (name, &our_apply_idx [t], &real_apply_idx [t]) ;
        snprintf (name, sizeof (name), "%s_Vector_select_%s", t >= 11 ? "GxB" : "GrB",
            gcu_test_type_names [t]) ;
        ok &= fn_pair (name, &our_select [t], &real_select [t]) ;
    }
    ok &= fn_pair ("GrB_Vector_select_Scalar", &our_select_sc, &real_select_sc) ;
    for (int k = 0 ; k < 3 ; k++) ok &= fn_pair (apply_sc_name [k], &our_apply_sc [k], &real_apply_sc [k]) ;
    for (int k = 0 ; k < NIDXOPS ; k++)
    {
        GrB_IndexUnaryOp *v = (GrB_IndexUnaryOp *) dlsym (RTLD_DEFAULT, idxop_names [k]) ;
        idxops [k] = v != NULL ? *v : NULL ;
        ok &= idxops [k] != NULL ;
    }
    unops_init () ;
    ok &= nunops > 0 ;
    for (int f = 0 ; f < 2 ; f++)
        for (int t = 0 ; t < 13 ; t++)
        {
            apply_fn_name (f, t, name, sizeof (name)) ;
            void *g = dlsym (RTLD_DEFAULT, name) ;
            memcpy (&our_apply [f][t], &g, sizeof (g)) ;
            ok &= our_apply [f][t] != NULL && (real_apply [f][t] = fn_real (name, our_apply [f][t])) != NULL ;
        }
    return ok ;
}

#define EWISE_FN(OBJ, OPT) GrB_Info (*) (OBJ, const OBJ, const GrB_BinaryOp, const OPT,   \
    const OBJ, const OBJ, const GrB_Descriptor)
#define UNION_FN(OBJ) GrB_Info (*) (OBJ, const OBJ, const GrB_BinaryOp, const GrB_BinaryOp, \
    const OBJ, const GrB_Scalar, const OBJ, const GrB_Scalar, const GrB_Descriptor)
#define V_(x) ((GrB_Vector) (x))

// C<M> = accum (C, A op B) through f, of the kind's prototype (vectors cast
// back from GrB_Matrix)
static GrB_Info ewise_fn_call (fn_t f, bool matrix, int kind, GrB_Matrix C, GrB_Matrix M,
    GrB_BinaryOp accum, const void *op, GrB_Matrix A, GrB_Matrix B, GrB_Descriptor d)
{
    switch (matrix * NKINDS + kind)
    {
        case K_BINOP:   return ((EWISE_FN (GrB_Vector, GrB_BinaryOp)) f) (V_ (C), V_ (M), accum, (GrB_BinaryOp) op, V_ (A), V_ (B), d) ;
        case K_MONOID:  return ((EWISE_FN (GrB_Vector, GrB_Monoid)) f) (V_ (C), V_ (M), accum, (GrB_Monoid) op, V_ (A), V_ (B), d) ;
        case K_SEMIRING: return ((EWISE_FN (GrB_Vector, GrB_Semiring)) f) (V_ (C), V_ (M), accum, (GrB_Semiring) op, V_ (A), V_ (B), d) ;
        case NKINDS + K_BINOP:  return ((EWISE_FN (GrB_Matrix, GrB_BinaryOp)) f) (C, M, accum, (GrB_BinaryOp) op, A, B, d) ;
        case NKINDS + K_MONOID: return ((EWISE_FN (GrB_Matrix, GrB_Monoid)) f) (C, M, accum, (GrB_Monoid) op, A, B, d) ;
        default:        return ((EWISE_FN (GrB_Matrix, GrB_Semiring)) f) (C, M, accum, (GrB_Semiring) op, A, B, d) ;
    }
}

static GrB_Info union_fn_call (fn_t f, bool matrix, GrB_Matrix C, GrB_Matrix M, GrB_BinaryOp accum,
    GrB_BinaryOp op, GrB_Matrix A, GrB_Scalar alpha, GrB_Matrix B, GrB_Scalar beta, GrB_Descriptor d)
{
    if (matrix) return ((UNION_FN (GrB_Matrix)) f) (C, M, accum, op, A, alpha, B, beta, d) ;
    return ((UNION_FN (GrB_Vector)) f) (V_ (C), V_ (M), accum, op, V_ (A), alpha, V_ (B), beta, d) ;
}

#define ASSIGN_FN(CT) ((GrB_Info (*) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp, CT, \
    const GrB_Index *, GrB_Index, const GrB_Descriptor)) f) (w, M, accum, *(const CT *) x, I, ni, d)

#define APPLY_FN(CT) (first                                                    \
    ? ((GrB_Info (*) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp, const GrB_BinaryOp, CT, \
        const GrB_Vector, const GrB_Descriptor)) f) (w, M, accum, op, *(const CT *) x, u, d) \
    : ((GrB_Info (*) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp, const GrB_BinaryOp, \
        const GrB_Vector, CT, const GrB_Descriptor)) f) (w, M, accum, op, u, *(const CT *) x, d))

// w<M> = accum (w, op (x, u)) (first) or op (u, x) through f, the typed form
// of type t (x: its bytes)
static GrB_Info apply_fn_call (fn_t f, bool first, int t, GrB_Vector w, GrB_Vector M,
    GrB_BinaryOp accum, GrB_BinaryOp op, GrB_Vector u, const void *x, GrB_Descriptor d)
{
    switch (t)
    {
        case 0:  return APPLY_FN (bool) ;
        case 1:  return APPLY_FN (int8_t) ;
        case 2:  return APPLY_FN (int16_t) ;
        case 3:  return APPLY_FN (int32_t) ;
        case 4:  return APPLY_FN (int64_t) ;
        case 5:  return APPLY_FN (uint8_t) ;
        case 6:  return APPLY_FN (uint16_t) ;
        case 7:  return APPLY_FN (uint32_t) ;
        case 8:  return APPLY_FN (uint64_t) ;
        case 9:  return APPLY_FN (float) ;
        case 10: return APPLY_FN (double) ;
        case 11: return APPLY_FN (GxB_FC32_t) ;
        default: return APPLY_FN (GxB_FC64_t) ;
    }
}

// w<M>(I) = accum (w(I), x) through f, the typed form of type t (x: its bytes)
static GrB_Info assign_scalar_fn_call (fn_t f, int t, GrB_Vector w, GrB_Vector M,
    GrB_BinaryOp accum, const void *x, const GrB_Index *I, GrB_Index ni, GrB_Descriptor d)
{
    switch (t)
    {
        case 0:  return ASSIGN_FN (bool) ;
        case 1:  return ASSIGN_FN (int8_t) ;
        case 2:  return ASSIGN_FN (int16_t) ;
        case 3:  return ASSIGN_FN (int32_t) ;
        case 4:  return ASSIGN_FN (int64_t) ;
        case 5:  return ASSIGN_FN (uint8_t) ;
        case 6:  return ASSIGN_FN (uint16_t) ;
        case 7:  return ASSIGN_FN (uint32_t) ;
        case 8:  return ASSIGN_FN (uint64_t) ;
        case 9:  return ASSIGN_FN (float) ;
        case 10: return ASSIGN_FN (double) ;
        case 11: return ASSIGN_FN (GxB_FC32_t) ;
        default: return ASSIGN_FN (GxB_FC64_t) ;
    }
}

static GrB_Info assign_fn_call (bool oracle, GrB_Vector w, GrB_Vector M, GrB_BinaryOp accum,
    GrB_Vector u, const GrB_Index *I, GrB_Index ni, GrB_Descriptor d)
{
    typedef GrB_Info (*assign_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
        const GrB_Vector, const GrB_Index *, GrB_Index, const GrB_Descriptor) ;
    return (oracle ? (assign_t) real_assign : GrB_Vector_assign) (w, M, accum, u, I, ni, d) ;
}

//------------------------------------------------------------------------------
// types and values
//------------------------------------------------------------------------------

// type codes: the order of gcu_test_types
enum { T_BOOL, T_INT8, T_INT16, T_INT32, T_INT64, T_UINT8, T_UINT16, T_UINT32,
    T_UINT64, T_FP32, T_FP64, T_FC32, T_FC64, NT } ;
static const size_t tsize [NT] = { 1, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 8, 16 } ;
static bool is_float (int t) { return t >= T_FP32 ; }
static bool is_complex (int t) { return t >= T_FC32 ; }
static bool is_unsigned (int t) { return t >= T_UINT8 && t <= T_UINT64 ; }
static bool is_single (int t) { return t == T_FP32 || t == T_FC32 ; }

static int type_code (GrB_Type t)
{
    for (int k = 0 ; k < NT ; k++) if (gcu_test_types [k] == t) return k ;
    return -1 ;
}

// value policies: what the values of an operand may be
enum
{
    V_FULL,     // small integers and halves, and every special value
    V_EXACT,    // no huge values, no denormals: sums exact in any order
    V_TAME,     // V_EXACT and denormals (under a reassociating monoid)
    V_TIMES,    // 0, +-0, +-1, +-inf, NaN: products exact in any order
    V_CTIMES,   // +-1 (+-i): complex products exact in any order
    V_MASK      // V_FULL without -0 (see draw_value)
} ;

static uint64_t pick (uint64_t *st, uint64_t n) { return gcu_rand (st) % n ; }

static double draw_real (int policy, bool single, uint64_t *st)
{
    if (policy == V_CTIMES) return pick (st, 2) ? 1 : -1 ;
    if (policy == V_TIMES)
    {
        static const double v [] = { 0.0, -0.0, 1, -1, 1, -1, INFINITY, -INFINITY, NAN } ;
        return v [pick (st, sizeof (v) / sizeof (v [0]))] ;
    }
    if (pick (st, 100) < 60)
    {
        // small integers and halves: exact in every type
        double x = (double) ((int) pick (st, 23) - 4) ;
        return pick (st, 4) == 0 ? x + 0.5 : x ;
    }
    const double tiny = single ? FLT_TRUE_MIN : DBL_TRUE_MIN ;
    const double special [] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 0.5, -0.5,
        tiny, -tiny, 2 * tiny, 3 * tiny } ;
    const double huge [] = { single ? FLT_MAX : DBL_MAX, single ? -FLT_MAX : -DBL_MAX,
        single ? FLT_MIN : DBL_MIN, 1e30, -1e30, 3e9, -3e9, 1.9e19, -9.3e18,
        300.7, -129.5, 65535.9, 4294967296.5, 2147483648.0, -2147483649.0 } ;
    if ((policy == V_FULL || policy == V_MASK) && pick (st, 3) == 0)
    {
        return huge [pick (st, sizeof (huge) / sizeof (huge [0]))] ;
    }
    return special [pick (st, policy == V_EXACT ? 7 : sizeof (special) / sizeof (special [0]))] ;
}

// an integer of t's width (two's complement bits; stored little-endian)
static uint64_t draw_int (int t, int policy, uint64_t *st)
{
    const int bits = 8 * (int) tsize [t] ;
    const bool uns = is_unsigned (t) ;
    if (policy == V_TIMES || policy == V_CTIMES)
    {
        const int64_t v [3] = { policy == V_TIMES ? 0 : 1, 1, uns ? 1 : -1 } ;
        return (uint64_t) v [pick (st, 3)] ;
    }
    if ((policy != V_FULL && policy != V_MASK) || pick (st, 100) < 65)
    {
        return (uint64_t) ((int64_t) pick (st, 23) - (uns ? 0 : 4)) ;
    }
    const uint64_t top = (uint64_t) 1 << (bits - 1) ;      // the sign bit
    const uint64_t all = (bits == 64) ? ~(uint64_t) 0 : ((uint64_t) 1 << bits) - 1 ;
    // signed: MIN, MAX, MIN+1, MAX-1, 0, 1, -1; unsigned: 0, 1, MAX, MAX-1, 2^(bits-1)
    const uint64_t v [7] = { top, top - 1, top + 1, top - 2, 0, 1, all } ;
    const uint64_t u [5] = { 0, 1, all, all - 1, top } ;
    return uns ? u [pick (st, 5)] : v [pick (st, 7)] ;
}

static void draw_value (int t, int policy, uint64_t *st, void *out)
{
    if (t == T_BOOL) { *(uint8_t *) out = policy == V_CTIMES || pick (st, 2) ; return ; }
    if (!is_float (t))
    {
        uint64_t v = draw_int (t, policy, st) ;
        memcpy (out, &v, tsize [t]) ;        // the low bytes (little-endian)
        return ;
    }
    double re, im = 0 ;
    if (is_complex (t) && policy == V_CTIMES)
    {
        // +-1, +-i: complex products of any length stay exact
        static const double c [4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } } ;
        int k = (int) pick (st, 4) ;
        re = c [k][0] ; im = c [k][1] ;
    }
    else
    {
        re = draw_real (policy, is_single (t), st) ;
        if (is_complex (t) && pick (st, 10) >= 3) im = draw_real (policy, is_single (t), st) ;
    }
    // a valued mask holds no -0: SuiteSparse 7.4 reads one as true (its
    // kernels test the bits) or as false (where it transposes the mask, cast
    // to bool), depending on its method, so no answer is SuiteSparse's alone
    if (policy == V_MASK && re == 0) re = 0 ;
    if (policy == V_MASK && im == 0) im = 0 ;
    if (is_single (t))
    {
        float f [2] = { (float) re, (float) im } ;
        memcpy (out, f, tsize [t]) ;
    }
    else
    {
        double x [2] = { re, im } ;
        memcpy (out, x, tsize [t]) ;
    }
}

// a value read back in its own type
typedef struct { int64_t s ; uint64_t u ; double re, im ; } val_t ;

static val_t value_read (int t, const uint8_t *p)
{
    val_t v = { 0, 0, 0, 0 } ;
    if (t == T_FP32 || t == T_FC32)
    {
        float f [2] = { 0, 0 } ;
        memcpy (f, p, tsize [t]) ;
        v.re = f [0] ; v.im = f [1] ;
    }
    else if (t == T_FP64 || t == T_FC64) memcpy (&v.re, p, tsize [t]) ;
    else
    {
        memcpy (&v.u, p, tsize [t]) ;
        const int bits = 8 * (int) tsize [t] ;
        // sign-extend the signed types (bool is 0 or 1)
        v.s = (is_unsigned (t) || t == T_BOOL || bits == 64) ? (int64_t) v.u
            : (int64_t) (v.u << (64 - bits)) >> (64 - bits) ;
    }
    return v ;
}

static void value_str (int t, val_t v, char *buf, size_t size)
{
    if (is_complex (t)) snprintf (buf, size, "(%.17g,%.17g)", v.re, v.im) ;
    else if (is_float (t)) snprintf (buf, size, "%.17g", v.re) ;
    else if (is_unsigned (t)) snprintf (buf, size, "%llu", (unsigned long long) v.u) ;
    else snprintf (buf, size, "%lld", (long long) v.s) ;
}

// how floating values compare
typedef struct
{
    double tol ;        // relative tolerance (0: exact)
    double scale ;      // the tolerance is relative to at least this
    bool signed_zero ;  // +0 and -0 differ (regression 4 and the inputs)
    double nan_id ;     // nonzero: NaN matches this value (the identity of a
                        // MIN or MAX over floating point: see c_rule)
    bool int_nan ;      // ... and in an integer C: 0 (NaN cast) matches
    uint64_t int_id ;   // the identity's cast (its bits)
    const void *nan_terms ;     // the call (call_t): an entry whose product
                                // terms are all NaN may differ (see c_rule)
    const void *sum_terms ;     // the call (call_t): an entry of a sum may
                                // differ by the rounding of its terms'
                                // magnitudes (see sum_terms_explain)
}
rule_t ;

static bool real_same (double a, double b, const rule_t *r)
{
    if (r->nan_id != 0 && ((isnan (a) && b == r->nan_id) || (a == r->nan_id && isnan (b)))) return true ;
    if (isnan (a) || isnan (b)) return isnan (a) && isnan (b) ;
    if (a == b) return !r->signed_zero || signbit (a) == signbit (b) ;
    if (r->tol == 0 || isinf (a) || isinf (b)) return false ;
    return fabs (a - b) <= r->tol * fmax (r->scale, fmax (fabs (a), fabs (b))) ;
}

static bool value_same (int t, val_t a, val_t b, const rule_t *r)
{
    if (is_float (t)) return real_same (a.re, b.re, r) && real_same (a.im, b.im, r) ;
    if (r->int_nan && ((a.u == 0 && b.u == r->int_id) || (a.u == r->int_id && b.u == 0))) return true ;
    return a.u == b.u ;
}

// lo <= v <= hi for a real type; NaN bounds (every candidate NaN: MIN and
// MAX ignore NaN) admit only NaN, and a NaN value is a candidate otherwise
static bool value_between (int t, val_t v, val_t lo, val_t hi)
{
    if (is_float (t))
    {
        if (isnan (lo.re) || isnan (hi.re)) return isnan (v.re) ;
        return isnan (v.re) || (lo.re <= v.re && v.re <= hi.re) ;
    }
    if (is_unsigned (t)) return lo.u <= v.u && v.u <= hi.u ;
    return lo.s <= v.s && v.s <= hi.s ;
}

//------------------------------------------------------------------------------
// the values of a matrix in its own type (a vector is an n-by-1 matrix here)
//------------------------------------------------------------------------------

static GrB_Info extract_tuples (GrB_Matrix A, int t, GrB_Index *I, GrB_Index *J,
    void *X, GrB_Index *n)
{
    switch (t)
    {
        case T_BOOL:   return GrB_Matrix_extractTuples_BOOL   (I, J, X, n, A) ;
        case T_INT8:   return GrB_Matrix_extractTuples_INT8   (I, J, X, n, A) ;
        case T_INT16:  return GrB_Matrix_extractTuples_INT16  (I, J, X, n, A) ;
        case T_INT32:  return GrB_Matrix_extractTuples_INT32  (I, J, X, n, A) ;
        case T_INT64:  return GrB_Matrix_extractTuples_INT64  (I, J, X, n, A) ;
        case T_UINT8:  return GrB_Matrix_extractTuples_UINT8  (I, J, X, n, A) ;
        case T_UINT16: return GrB_Matrix_extractTuples_UINT16 (I, J, X, n, A) ;
        case T_UINT32: return GrB_Matrix_extractTuples_UINT32 (I, J, X, n, A) ;
        case T_UINT64: return GrB_Matrix_extractTuples_UINT64 (I, J, X, n, A) ;
        case T_FP32:   return GrB_Matrix_extractTuples_FP32   (I, J, X, n, A) ;
        case T_FP64:   return GrB_Matrix_extractTuples_FP64   (I, J, X, n, A) ;
        case T_FC32:   return GxB_Matrix_extractTuples_FC32   (I, J, X, n, A) ;
        case T_FC64:   return GxB_Matrix_extractTuples_FC64   (I, J, X, n, A) ;
        default:       return GrB_DOMAIN_MISMATCH ;
    }
}

//------------------------------------------------------------------------------
// the catalogue: built-in semirings and binary operators, from GraphBLAS.h
//------------------------------------------------------------------------------

typedef struct
{
    const char *name ;          // its first name in GraphBLAS.h
    GrB_Semiring s ;
    GrB_BinaryOp mult ;
    int x, y, z ;               // the multiply's types
    bool any ;                  // ANY monoid: any candidate is right
    bool pair ;                 // PAIR / ONEB multiply: every value is 1
    bool reassoc ;              // PLUS or TIMES over a floating z
    bool times ;                // TIMES over a floating z
    bool minmax ;               // MIN or MAX over a floating z
    bool min ;                  // ... MIN
    bool div ;                  // DIV / RDIV multiply: inexact terms
    bool positional ;           // FIRSTI, FIRSTJ, SECONDI, SECONDJ multiply
    int bounds ;                // ANY: 0 not tried, 1 lo/hi made, -1 none
    GrB_Semiring lo, hi ;       // ANY: MIN and MAX with the same multiply
    int add_op, mult_op ;       // its monoid's operator and its multiply in
                                // binops (-1: not there, e.g. positional)
}
sr_t ;

typedef struct
{
    const char *name ;
    GrB_BinaryOp op ;
    bool continuous ;           // PLUS, MINUS, TIMES, FIRST, ... of a floating type
    bool reveals_sign ;         // DIV, ATAN2, COPYSIGN: f(x, +0) != f(x, -0)
    int x, y, z ;               // its types
    bool any ;                  // ANY: either operand's value is right
    bool minmax ;               // MIN or MAX of a floating type: +0 and -0
                                // are interchangeable answers
}
binop_t ;

// a monoid and its operator (its index in binops)
typedef struct { const char *name ; GrB_Monoid m ; int op ; } monoid_t ;

static sr_t *srs ;
static int nsrs ;
static binop_t *binops ;
static int nbinops ;
static monoid_t *monoids ;
static int nmonoids ;

// the k-th '_'-separated word of a name ("GxB_PLUS_TIMES_FP64": 1 is PLUS)
static bool name_word (const char *name, int k, char *word, size_t size)
{
    const char *p = name ;
    for (int w = 0 ; w < k && p != NULL ; w++) { p = strchr (p, '_') ; if (p) p++ ; }
    if (p == NULL) return false ;
    size_t n = strcspn (p, "_") ;
    if (n >= size) n = size - 1 ;
    memcpy (word, p, n) ;
    word [n] = '\0' ;
    return true ;
}

static bool word_in (const char *w, const char *const *list)
{
    for ( ; *list != NULL ; list++) if (strcmp (w, *list) == 0) return true ;
    return false ;
}

static int type_of_op (GrB_Info (*get) (GrB_Type *, GrB_BinaryOp), GrB_BinaryOp op)
{
    GrB_Type t = NULL ;
    return get (&t, op) == GrB_SUCCESS ? type_code (t) : -1 ;
}

static bool classify_semiring (sr_t *r)
{
    if (GxB_Semiring_multiply (&r->mult, r->s) != GrB_SUCCESS) return false ;
    r->x = type_of_op (GxB_BinaryOp_xtype, r->mult) ;
    r->y = type_of_op (GxB_BinaryOp_ytype, r->mult) ;
    r->z = type_of_op (GxB_BinaryOp_ztype, r->mult) ;
    if (r->x < 0 || r->y < 0 || r->z < 0) return false ;
    // built-in semirings are named <prefix>_<add>_<multiply>_...
    char add [32], mult [32] ;
    if (!name_word (r->name, 1, add, sizeof (add)) || !name_word (r->name, 2, mult, sizeof (mult))) return false ;
    const bool fz = is_float (r->z) ;
    r->any = strcmp (add, "ANY") == 0 ;
    r->pair = strcmp (mult, "PAIR") == 0 || strcmp (mult, "ONEB") == 0 ;
    r->times = fz && strcmp (add, "TIMES") == 0 ;
    r->reassoc = r->times || (fz && strcmp (add, "PLUS") == 0) ;
    r->minmax = fz && (strcmp (add, "MIN") == 0 || strcmp (add, "MAX") == 0) ;
    r->min = strcmp (add, "MIN") == 0 ;
    r->div = strcmp (mult, "DIV") == 0 || strcmp (mult, "RDIV") == 0 ;
    return true ;
}

static void classify_binop (binop_t *b)
{
    static const char *const cont [] = { "PLUS", "MINUS", "RMINUS", "TIMES",
        "FIRST", "SECOND", "MIN", "MAX", "ONEB", "PAIR", "ANY", NULL } ;
    static const char *const sign [] = { "DIV", "ATAN2", "COPYSIGN", NULL } ;
    char w [32], t [32] = "" ;
    name_word (b->name, 1, w, sizeof (w)) ;
    name_word (b->name, 2, t, sizeof (t)) ;
    const bool ft = t [0] == 'F' ;         // FP32, FP64, FC32, FC64
    b->continuous = ft && word_in (w, cont) ;
    b->reveals_sign = word_in (w, sign) ;
    b->x = type_of_op (GxB_BinaryOp_xtype, b->op) ;
    b->y = type_of_op (GxB_BinaryOp_ytype, b->op) ;
    b->z = type_of_op (GxB_BinaryOp_ztype, b->op) ;
    b->any = strcmp (w, "ANY") == 0 ;
    b->minmax = ft && (strcmp (w, "MIN") == 0 || strcmp (w, "MAX") == 0) ;
}

// accum candidates: no positional operator (SuiteSparse rejects them as
// accum) and not GxB_IGNORE_DUP (for build only)
static bool accum_candidate (const char *name)
{
    static const char *const skip [] = { "FIRSTI", "FIRSTJ", "SECONDI", "SECONDJ", "IGNORE", NULL } ;
    char w [32] ;
    if (!name_word (name, 1, w, sizeof (w))) return false ;
    for (const char *const *s = skip ; *s != NULL ; s++)
    {
        if (strncmp (w, *s, strlen (*s)) == 0) return false ;
    }
    return true ;
}

static int n_one_based ;        // semirings left out (1-based positional)
static bool one_based_in ;      // --one-based: taken in instead
static int binop_find (GrB_BinaryOp op) ;

// the operator of a monoid, as its index in binops (-1: none there)
static int monoid_op (GrB_Monoid m)
{
    GrB_BinaryOp op = NULL ;
    return GxB_Monoid_operator (&op, m) == GrB_SUCCESS ? binop_find (op) : -1 ;
}

// the element-wise view of the catalogue: the monoids declared in
// GraphBLAS.h (those whose operator is in binops), and each semiring's
// monoid operator and multiply as binops
static void catalogue_links (const char *h)
{
    void **objs ;
    char **names ;
    int n = gcu_test_declared_objects (h, "GrB_Monoid", &objs, &names) ;
    monoids = calloc (n > 0 ? n : 1, sizeof (monoid_t)) ;
    for (int k = 0 ; k < n ; k++)
    {
        const int op = monoid_op (objs [k]) ;
        if (op < 0) { free (names [k]) ; continue ; }
        monoids [nmonoids++] = (monoid_t) { names [k], objs [k], op } ;
    }
    free (objs) ; free (names) ;
    for (int k = 0 ; k < nsrs ; k++)
    {
        GrB_Monoid add = NULL ;
        srs [k].add_op = GxB_Semiring_add (&add, srs [k].s) == GrB_SUCCESS ? monoid_op (add) : -1 ;
        srs [k].mult_op = binop_find (srs [k].mult) ;
    }
}

static bool catalogue_init (void)
{
    char path [1024] ;
    char *h = gcu_test_graphblas_h (GCU_GRAPHBLAS_H, path, sizeof (path)) ;
    CHECK (h != NULL, "GraphBLAS.h %d.%d not found (set GRBCUDA_GRAPHBLAS_H)",
        GxB_IMPLEMENTATION_MAJOR, GxB_IMPLEMENTATION_MINOR) ;
    if (h == NULL) return false ;
    gcu_test_strip_comments (h) ;
    void **objs ;
    char **names ;
    int n = gcu_test_declared_objects (h, "GrB_Semiring", &objs, &names) ;
    srs = calloc (n > 0 ? n : 1, sizeof (sr_t)) ;
    int one_based = 0 ;
    for (int k = 0 ; k < n ; k++)
    {
        sr_t *r = &srs [nsrs] ;
        r->name = names [k] ;
        r->s = objs [k] ;
        // 1-based positional multipliers (FIRSTI1, FIRSTJ1, SECONDI1,
        // SECONDJ1): SuiteSparse 7.4 itself gives the 0-based index in some
        // of its methods (e.g. A'*B with A hypersparse by column: 145 of
        // 91,104 entries wrong in a brute-force check, bench/RESULTS.md), so
        // it is no oracle for them; the GPU tests check them on inputs where
        // it is right. --one-based takes them in, drawn as the 0-based ones
        // are (operands held sparse, never hypersparse), to see where
        // SuiteSparse and the GPU agree
        char mult [32] = "" ;
        if (name_word (names [k], 2, mult, sizeof (mult)) && strlen (mult) > 2 && !one_based_in
            && (strcmp (mult + strlen (mult) - 2, "I1") == 0 || strcmp (mult + strlen (mult) - 2, "J1") == 0))
        {
            one_based++ ;
            free (names [k]) ;
            continue ;
        }
        if (classify_semiring (r))
        {
            r->positional = mult [0] != '\0' && (strncmp (mult, "FIRSTI", 6) == 0
                || strncmp (mult, "FIRSTJ", 6) == 0 || strncmp (mult, "SECONDI", 7) == 0
                || strncmp (mult, "SECONDJ", 7) == 0) ;
            nsrs++ ;
        }
        else { fprintf (stderr, "%s: not a built-in semiring, skipped\n", names [k]) ; free (names [k]) ; }
    }
    free (objs) ; free (names) ;
    n_one_based = one_based ;
    n = gcu_test_declared_objects (h, "GrB_BinaryOp", &objs, &names) ;
    binops = calloc (n > 0 ? n : 1, sizeof (binop_t)) ;
    for (int k = 0 ; k < n ; k++)
    {
        if (!accum_candidate (names [k])) { free (names [k]) ; continue ; }
        binop_t *b = &binops [nbinops++] ;
        b->name = names [k] ;
        b->op = objs [k] ;
        classify_binop (b) ;
    }
    free (objs) ; free (names) ;
    catalogue_links (h) ;
    free (h) ;
    CHECK (nsrs > 1000 && nbinops > 300 && nmonoids > 50, "%s: only %d semirings, %d binary "
        "operators and %d monoids", path, nsrs, nbinops, nmonoids) ;
    return nsrs > 0 && nbinops > 0 && nmonoids > 0 ;
}

static void catalogue_free (void)
{
    for (int k = 0 ; k < nsrs ; k++)
    {
        free ((char *) srs [k].name) ;
        if (srs [k].lo != NULL) GrB_Semiring_free (&srs [k].lo) ;
        if (srs [k].hi != NULL) GrB_Semiring_free (&srs [k].hi) ;
    }
    for (int k = 0 ; k < nbinops ; k++) free ((char *) binops [k].name) ;
    for (int k = 0 ; k < nmonoids ; k++) free ((char *) monoids [k].name) ;
    free (srs) ; free (binops) ; free (monoids) ;
}

static const sr_t *sr_find (GrB_Semiring s)
{
    for (int k = 0 ; k < nsrs ; k++) if (srs [k].s == s) return &srs [k] ;
    return NULL ;
}

static int binop_find (GrB_BinaryOp op)
{
    for (int k = 0 ; k < nbinops ; k++) if (binops [k].op == op) return k ;
    return -1 ;
}

// ANY: the same multiply under MIN and MAX (LAND and LOR for BOOL), which
// bound every candidate; made at first use
// the MAX monoid of a real type (LOR for bool)
static GrB_Monoid max_monoid (int t)
{
    GrB_Monoid hi [T_FC32] = { GrB_LOR_MONOID_BOOL, GrB_MAX_MONOID_INT8,
        GrB_MAX_MONOID_INT16, GrB_MAX_MONOID_INT32, GrB_MAX_MONOID_INT64,
        GrB_MAX_MONOID_UINT8, GrB_MAX_MONOID_UINT16, GrB_MAX_MONOID_UINT32,
        GrB_MAX_MONOID_UINT64, GrB_MAX_MONOID_FP32, GrB_MAX_MONOID_FP64 } ;
    return hi [t] ;
}

static bool sr_bounds (sr_t *r)
{
    if (r->bounds != 0) return r->bounds > 0 ;
    GrB_Monoid lo [T_FC32] = { GrB_LAND_MONOID_BOOL, GrB_MIN_MONOID_INT8,
        GrB_MIN_MONOID_INT16, GrB_MIN_MONOID_INT32, GrB_MIN_MONOID_INT64,
        GrB_MIN_MONOID_UINT8, GrB_MIN_MONOID_UINT16, GrB_MIN_MONOID_UINT32,
        GrB_MIN_MONOID_UINT64, GrB_MIN_MONOID_FP32, GrB_MIN_MONOID_FP64 } ;
    r->bounds = -1 ;
    if (is_complex (r->z)) return false ;
    if (GrB_Semiring_new (&r->lo, lo [r->z], r->mult) == GrB_SUCCESS &&
        GrB_Semiring_new (&r->hi, max_monoid (r->z), r->mult) == GrB_SUCCESS) r->bounds = 1 ;
    return r->bounds > 0 ;
}

//------------------------------------------------------------------------------
// the run's pool of kernel signatures (a semiring and its operands' types)
//------------------------------------------------------------------------------

typedef struct { int sr, x, y ; } sig_t ;
static sig_t *pool ;
static int npool ;

static void pool_init (uint64_t seed, int size)
{
    uint64_t st = seed ^ 0x5DEECE66Dull ;
    gcu_rand (&st) ;
    npool = (size <= 0 || size > nsrs) ? nsrs : size ;
    pool = calloc (npool, sizeof (sig_t)) ;
    int *order = malloc (nsrs * sizeof (int)) ;
    for (int k = 0 ; k < nsrs ; k++) order [k] = k ;
    for (int k = 0 ; k < npool ; k++)
    {
        // a partial Fisher-Yates shuffle: npool distinct semirings
        int q = (size <= 0) ? k : k + (int) pick (&st, nsrs - k) ;
        int t = order [k] ; order [k] = order [q] ; order [q] = t ;
        const sr_t *r = &srs [order [k]] ;
        const bool own = size <= 0 || pick (&st, 10) < 6 ;
        pool [k] = (sig_t) { order [k], own ? r->x : (int) pick (&st, NT),
            own ? r->y : (int) pick (&st, NT) } ;
    }
    free (order) ;
}

// the element-wise signatures: an operator (its kind, and its index in
// binops, monoids or srs) and the types of its two operands
typedef struct { int kind, index, x, y ; } esig_t ;
static esig_t *epool ;
static int nepool ;

// the binary operator SuiteSparse applies for an element-wise operator:
// eWiseAdd reads a semiring's monoid, eWiseMult its multiply
static int esig_op (int kind, int index, bool mult)
{
    if (kind == K_BINOP) return index ;
    if (kind == K_MONOID) return monoids [index].op ;
    return mult ? srs [index].mult_op : srs [index].add_op ;
}

// a signature: half binary operators, a fifth monoids, the rest semirings
// (not positional: both of their operators in binops); the operands of the
// multiply's own types or of any two
static void esig_draw (uint64_t *st, esig_t *g)
{
    for ( ; ; )
    {
        const uint64_t r = pick (st, 10) ;
        g->kind = r < 5 ? K_BINOP : r < 7 ? K_MONOID : K_SEMIRING ;
        g->index = (int) pick (st, g->kind == K_BINOP ? nbinops : g->kind == K_MONOID ? nmonoids : nsrs) ;
        if (g->kind != K_SEMIRING || (srs [g->index].add_op >= 0 && srs [g->index].mult_op >= 0)) break ;
    }
    const binop_t *b = &binops [esig_op (g->kind, g->index, true)] ;
    const bool own = pick (st, 10) < 6 && b->x >= 0 && b->y >= 0 ;
    g->x = own ? b->x : (int) pick (st, NT) ;
    g->y = own ? b->y : (int) pick (st, NT) ;
}

// size 0: none (each case draws its own)
static void epool_init (uint64_t seed, int size)
{
    uint64_t st = seed ^ 0xE1E3E57ull ;
    gcu_rand (&st) ;
    nepool = size > 0 ? size : 0 ;
    epool = calloc (nepool > 0 ? nepool : 1, sizeof (esig_t)) ;
    for (int k = 0 ; k < nepool ; k++) esig_draw (&st, &epool [k]) ;
}

//------------------------------------------------------------------------------
// operands: a recipe builds the same object every time
//------------------------------------------------------------------------------

typedef struct
{
    bool present, vector ;
    int type ;
    GrB_Index nrows, ncols ;    // as stored (a vector: n by 1)
    double density ;
    int64_t dense_row, dense_col ;      // a stored row / column made full (-1: none)
    int sparsity ;              // GxB_SPARSE, ..., GxB_AUTO_SPARSITY
    bool by_col, iso, pending ;
    bool newest ;               // grbcuda's copy device newest (build_side)
    int policy ;                // V_*
    uint64_t seed ;
    // explicit entries, cast from FP64 (regressions, self-test) when X != NULL
    GrB_Index n ;
    const GrB_Index *I, *J ;
    const double *X ;
}
recipe_t ;

static void obj_free (GrB_Matrix *A, bool vector)
{
    if (vector) GrB_Vector_free ((GrB_Vector *) A) ;
    else GrB_Matrix_free (A) ;
}

static GrB_Matrix obj_new (const recipe_t *r)
{
    GrB_Matrix A = NULL ;
    GrB_Type t = gcu_test_types [r->type] ;
    if (r->vector) GrB_Vector_new ((GrB_Vector *) &A, t, r->nrows) ;
    else GrB_Matrix_new (&A, t, r->nrows, r->ncols) ;
    return A ;
}

// orientation and sparsity control
static void set_storage (GrB_Matrix A, const recipe_t *r)
{
    if (r->vector) GxB_Vector_Option_set ((GrB_Vector) A, GxB_SPARSITY_CONTROL, r->sparsity) ;
    else
    {
        if (r->by_col) GxB_Matrix_Option_set (A, GxB_FORMAT, GxB_BY_COL) ;
        GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, r->sparsity) ;
    }
}

// orientation, sparsity, then (sometimes) pending work: tuples not yet
// assembled and a zombie, for the operation to finish
static void finish_storage (GrB_Matrix A, const recipe_t *r, uint64_t *st)
{
    set_storage (A, r) ;
    if (r->vector) GrB_Vector_wait ((GrB_Vector) A, GrB_MATERIALIZE) ;
    else GrB_Matrix_wait (A, GrB_MATERIALIZE) ;
    if (!r->pending || r->nrows == 0 || r->ncols == 0) return ;
    uint8_t x [16] ;
    for (int k = 1 + (int) pick (st, 3) ; k > 0 ; k--)
    {
        // through FC64, which SuiteSparse casts to any type
        draw_value (r->type, r->policy, st, x) ;
        val_t v = value_read (r->type, x) ;
        double re = is_float (r->type) ? v.re : is_unsigned (r->type) ? (double) v.u : (double) v.s ;
        GxB_Matrix_setElement_FC64 (A, GxB_CMPLX (re, v.im), pick (st, r->nrows), pick (st, r->ncols)) ;
    }
    if (pick (st, 2)) GrB_Matrix_removeElement (A, pick (st, r->nrows), pick (st, r->ncols)) ;
}

// random entries, packed (GxB_Matrix_pack_CSR, GxB_Vector_pack_CSC): iso
// when asked, whatever the values
static GrB_Matrix build_random (const recipe_t *r)
{
    uint64_t st = r->seed ;
    const GrB_Index nr = r->nrows, nc = r->ncols ;
    const size_t ts = tsize [r->type] ;
    GrB_Index *Ap = malloc ((nr + 1) * sizeof (GrB_Index)) ;
    GrB_Index *Aj = malloc ((nr * nc + 1) * sizeof (GrB_Index)) ;
    GrB_Index nz = 0 ;
    for (GrB_Index i = 0 ; i < nr ; i++)
    {
        Ap [i] = nz ;
        for (GrB_Index j = 0 ; j < nc ; j++)
        {
            bool dense = (int64_t) i == r->dense_row || (int64_t) j == r->dense_col ;
            // a vector's entries are its row indices
            if (dense || gcu_rand01 (&st) < r->density) Aj [nz++] = r->vector ? i : j ;
        }
    }
    Ap [nr] = nz ;
    const bool iso = r->iso && nz > 0 ;
    const GrB_Index nx = iso ? 1 : nz ;
    uint8_t *Ax = malloc ((nx + 1) * ts) ;
    for (GrB_Index p = 0 ; p < nx ; p++) draw_value (r->type, r->policy, &st, Ax + p * ts) ;
    GrB_Matrix A = obj_new (r) ;
    GrB_Info info ;
    if (r->vector)
    {
        info = GxB_Vector_pack_CSC ((GrB_Vector) A, &Aj, (void **) &Ax,
            (nz + 1) * sizeof (GrB_Index), (nx + 1) * ts, iso, nz, false, NULL) ;
        free (Ap) ;
    }
    else
    {
        info = GxB_Matrix_pack_CSR (A, &Ap, &Aj, (void **) &Ax, (nr + 1) * sizeof (GrB_Index),
            (nr * nc + 1) * sizeof (GrB_Index), (nx + 1) * ts, iso, false, NULL) ;
    }
    if (info != GrB_SUCCESS)
    {
        fprintf (stderr, "pack failed (%d)\n", (int) info) ;
        free (Ap) ; free (Aj) ; free (Ax) ;
        obj_free (&A, r->vector) ;
        return NULL ;
    }
    finish_storage (A, r, &st) ;
    return A ;
}

static GrB_Matrix build_explicit (const recipe_t *r)
{
    GrB_Matrix A = obj_new (r) ;
    GrB_Info info = r->vector
        ? GrB_Vector_build_FP64 ((GrB_Vector) A, r->I, r->X, r->n, GrB_SECOND_FP64)
        : GrB_Matrix_build_FP64 (A, r->I, r->J, r->X, r->n, GrB_SECOND_FP64) ;
    if (info != GrB_SUCCESS) { fprintf (stderr, "build failed (%d)\n", (int) info) ; obj_free (&A, r->vector) ; return NULL ; }
    uint64_t st = r->seed ;
    finish_storage (A, r, &st) ;
    return A ;
}

// the recipe's object with plain functions (a newest one as the oracle's
// values: its storage may differ)
static GrB_Matrix build_operand (const recipe_t *r)
{
    if (!r->present) return NULL ;
    return r->X != NULL ? build_explicit (r) : build_random (r) ;
}

// the n-by-n identity (BOOL)
static GrB_Matrix identity (GrB_Index n)
{
    GrB_Matrix D = NULL ;
    GrB_Index *I = malloc ((n + 1) * sizeof (GrB_Index)) ;
    bool *X = malloc ((n + 1) * sizeof (bool)) ;
    for (GrB_Index i = 0 ; i < n ; i++) { I [i] = i ; X [i] = true ; }
    if (GrB_Matrix_new (&D, GrB_BOOL, n, n) != GrB_SUCCESS
        || GrB_Matrix_build_BOOL (D, I, I, X, n, GrB_LOR) != GrB_SUCCESS) GrB_Matrix_free (&D) ;
    free (I) ; free (X) ;
    return D ;
}

static GrB_Semiring any_second (int t)
{
    char name [64] ;
    snprintf (name, sizeof (name), "GxB_ANY_SECOND_%s", gcu_test_type_names [t]) ;
    for (int k = 0 ; k < nsrs ; k++) if (strcmp (srs [k].name, name) == 0) return srs [k].s ;
    return NULL ;
}

static long n_newest ;          // operands grbcuda's GPU left device newest

// An operand as one side has it. A recipe marked newest is, on grbcuda's
// side, the result of a product D*X through grbcuda (D the identity,
// GxB_ANY_SECOND_<T>: X's own values; on a GPU, left on the device), on the
// oracle's the same product through SuiteSparse's own function: the same
// values, the storage each one's (compare_input counts an input's status
// as a note)
static GrB_Matrix build_side (const recipe_t *r, bool oracle)
{
    if (!r->present || !r->newest) return build_operand (r) ;
    recipe_t plain = *r ;
    plain.newest = false ;
    GrB_Matrix X = build_operand (&plain), D = identity (r->nrows), C = obj_new (r) ;
    const GrB_Semiring s = any_second (r->type) ;
    GrB_Info info = GrB_PANIC ;
    if (X != NULL && D != NULL && C != NULL && s != NULL)
    {
        set_storage (C, r) ;
        info = call_op (r->vector ? OP_MXV : OP_MXM, oracle, C, NULL, NULL, s, D, X, NULL) ;
    }
    if (info != GrB_SUCCESS) { fprintf (stderr, "D*X failed (%d)\n", (int) info) ; obj_free (&C, r->vector) ; }
    uint64_t nv ;
    if (!oracle && C != NULL && gcu_residency_newest_nvals (C, &nv)) n_newest++ ;
    obj_free (&X, r->vector) ;
    GrB_Matrix_free (&D) ;
    return C ;
}

//------------------------------------------------------------------------------
// a call: what it does and how each operand is made
//------------------------------------------------------------------------------

enum { MASK_NONE, MASK_VALUED, MASK_STRUCT, MASK_COMP, MASK_COMP_STRUCT,
    MASK_NULL_COMP, MASK_NULL_COMP_STRUCT, MASK_NULL_STRUCT, NMASKS } ;
static const char *const mask_name [NMASKS] = { "none", "valued", "structural",
    "complemented", "complemented structural", "NULL with GrB_COMP",
    "NULL with GrB_COMP+GrB_STRUCTURE", "NULL with GrB_STRUCTURE" } ;
static bool mask_comp (int m) { return m == MASK_COMP || m == MASK_COMP_STRUCT || m == MASK_NULL_COMP || m == MASK_NULL_COMP_STRUCT ; }
static bool mask_struct (int m) { return m == MASK_STRUCT || m == MASK_COMP_STRUCT || m == MASK_NULL_COMP_STRUCT || m == MASK_NULL_STRUCT ; }
static bool mask_object (int m) { return m >= MASK_VALUED && m <= MASK_COMP_STRUCT ; }

// a scalar of a call: eWiseUnion's alpha and beta (a GrB_Scalar with a
// value, empty, or NULL), the typed assign's x (its bytes in its own type)
enum { S_VALUE, S_EMPTY, S_NULL } ;
typedef struct { int type, state ; uint64_t v [2] ; } scal_t ;

// an assign's indices: GrB_ALL, or a list of ni distinct ones drawn from
// iseed (one of them out of range when bad_index)
enum { I_ALL, I_LIST } ;

typedef struct
{
    int op ;
    sr_t *sr ;                  // a product's semiring
    int accum ;                 // index in binops, -1: none
    int mask ;                  // MASK_*
    bool tran0, tran1, replace ;
    bool signed_zero ;          // compare the sign of zero in C (regression 4)
    GrB_Index m, k, n ;         // C is m x n, the product's inner dimension k
    recipe_t x, y, mk, c ;      // X, Y, M, C (assign: u, none, M, w)
    // element-wise: of matrices (else vectors); the operator's kind and
    // index (in binops, monoids or srs; eWiseUnion's is a binary operator),
    // the binary operator SuiteSparse applies (in binops); eWiseUnion's
    // alpha and beta
    bool matrix ;
    int kind, index, bop ;
    scal_t alpha, beta ;
    // assign: the indices, and the scalar form's x
    int ikind ;
    GrB_Index ni ;
    bool bad_index ;
    uint64_t iseed ;
    scal_t xs ;
}
call_t ;

// an index case through GrB_Vector_select (its operator idxops [index % NIDXOPS])
static bool apply_select (const call_t *c)
{
    return c->op == OP_APPLY && apply_index (c->kind) && c->index >= NIDXOPS ;
}

// the function a call makes: its GraphBLAS name
static void call_fn_name (const call_t *c, char *buf, size_t size)
{
    if (is_product (c->op)) snprintf (buf, size, "%s", op_name [c->op]) ;
    else if (c->op == OP_ASSIGN) snprintf (buf, size, "GrB_Vector_assign") ;
    else if (c->op == OP_ASSIGN_SCALAR) assign_scalar_fn_name (c->xs.type, buf, size) ;
    else if (c->op == OP_APPLY && c->kind == A_UNARY) snprintf (buf, size, "GrB_Vector_apply") ;
    else if (c->op == OP_APPLY && apply_select (c))
        snprintf (buf, size, c->kind == A_INDEX_SC ? "GrB_Vector_select_Scalar" : "%s_Vector_select_%s",
            c->xs.type >= 11 ? "GxB" : "GrB", gcu_test_type_names [c->xs.type]) ;
    else if (c->op == OP_APPLY && c->kind == A_INDEX)
        snprintf (buf, size, "%s_Vector_apply_IndexOp_%s", c->xs.type >= 11 ? "GxB" : "GrB",
            gcu_test_type_names [c->xs.type]) ;
    else if (c->op == OP_APPLY && c->kind >= A_2ND_SC) snprintf (buf, size, "%s", apply_sc_name [c->kind - A_2ND_SC]) ;
    else if (c->op == OP_APPLY) apply_fn_name (c->kind, c->xs.type, buf, size) ;
    else if (c->op == OP_EWISE_UNION) union_fn_name (c->matrix, buf, size) ;
    else ewise_fn_name (c->matrix, c->op == OP_EWISE_MULT, c->kind, buf, size) ;
}

// grbcuda's opcode of the call (its statistics and families)
static gcu_op call_gop (const call_t *c)
{
    char name [64] ;
    if (c->op == OP_ASSIGN_SCALAR) snprintf (name, sizeof (name), "GrB_Vector_assign_scalar") ;
    else if (c->op == OP_APPLY && apply_select (c)) snprintf (name, sizeof (name), "GrB_Vector_select") ;
    else if (c->op == OP_APPLY && apply_index (c->kind)) snprintf (name, sizeof (name), "GrB_Vector_apply_IndexOp") ;
    else if (c->op == OP_APPLY && c->kind != A_UNARY) snprintf (name, sizeof (name), "GrB_Vector_apply_BinaryOp%s",
        (c->kind == A_1ST || c->kind == A_1ST_SC) ? "1st" : "2nd") ;
    else call_fn_name (c, name, sizeof (name)) ;
    for (int g = 0 ; g < GCU_OP_COUNT ; g++) if (strcmp (gcu_op_name ((gcu_op) g), name) == 0) return (gcu_op) g ;
    return GCU_OP_COUNT ;
}

// the element-wise operator as its kind has it (a GrB_BinaryOp, GrB_Monoid
// or GrB_Semiring)
static const void *ewise_object (const call_t *c)
{
    if (c->kind == K_MONOID) return monoids [c->index].m ;
    if (c->kind == K_SEMIRING) return srs [c->index].s ;
    return binops [c->index].op ;
}

// whether the values of C may be any of several candidates: an ANY monoid
// (not with PAIR) or an element-wise ANY operator
static bool call_any (const call_t *c)
{
    if (is_product (c->op)) return c->sr->any && !c->sr->pair ;
    return is_ewise (c->op) && binops [c->bop].any ;
}

// the call has what it needs (a regression's semiring may not be found)
static bool call_ready (const call_t *c)
{
    return is_product (c->op) ? c->sr != NULL : !is_ewise (c->op) || c->bop >= 0 ;
}

static GrB_Descriptor make_desc (const call_t *c, bool transposes_only)
{
    GrB_Descriptor d = NULL ;
    GrB_Descriptor_new (&d) ;
    if (c->tran0) GrB_Descriptor_set (d, GrB_INP0, GrB_TRAN) ;
    if (c->tran1) GrB_Descriptor_set (d, GrB_INP1, GrB_TRAN) ;
    if (transposes_only) return d ;
    // GrB_COMP and GrB_STRUCTURE one at a time (GrB_COMP_STRUCTURE is their sum)
    if (mask_comp (c->mask)) GrB_Descriptor_set (d, GrB_MASK, GrB_COMP) ;
    if (mask_struct (c->mask)) GrB_Descriptor_set (d, GrB_MASK, GrB_STRUCTURE) ;
    if (c->replace) GrB_Descriptor_set (d, GrB_OUTP, GrB_REPLACE) ;
    return d ;
}

// the names of X and Y in the operation's own terms
static const char *operand_name (int op, int which)
{
    static const char *const names [NOPS][2] = { { "A", "B" }, { "A", "u" }, { "u", "A" },
        { "u", "-" }, { "-", "-" }, { "A", "B" }, { "A", "B" }, { "A", "B" } } ;
    return names [op][which] ;
}

static const char *sparsity_name (int s)
{
    switch (s)
    {
        case GxB_HYPERSPARSE: return "hyper" ;
        case GxB_SPARSE: return "sparse" ;
        case GxB_BITMAP: return "bitmap" ;
        case GxB_FULL: return "full" ;
        default: return "auto" ;
    }
}

static int recipe_str (const recipe_t *r, char *buf, size_t size)
{
    if (!r->present) return snprintf (buf, size, "none") ;
    char extra [64] = "" ;
    if (r->dense_row >= 0) snprintf (extra, sizeof (extra), " dense row %lld", (long long) r->dense_row) ;
    if (r->dense_col >= 0) snprintf (extra, sizeof (extra), " dense col %lld", (long long) r->dense_col) ;
    return snprintf (buf, size, "%s %llux%llu %s%s%s%s%s%s d=%g%s", gcu_test_type_names [r->type],
        (unsigned long long) r->nrows, (unsigned long long) r->ncols, sparsity_name (r->sparsity),
        r->vector ? "" : (r->by_col ? "/col" : "/row"), r->iso ? " iso" : "",
        r->pending ? " pending" : "", r->newest ? " device-newest" : "",
        r->X != NULL ? " explicit" : "", r->density, extra) ;
}

static void scal_str (const scal_t *x, char *buf, size_t size)
{
    char v [96] = "empty" ;
    if (x->state == S_VALUE) value_str (x->type, value_read (x->type, (const uint8_t *) x->v), v, sizeof (v)) ;
    if (x->state == S_NULL) snprintf (buf, size, "NULL") ;
    else snprintf (buf, size, "%s %s", gcu_test_type_names [x->type], v) ;
}

// a product's part of the line
static void describe_product (const call_t *c, const char *x, const char *y, char *buf, size_t size)
{
    snprintf (buf, size, "%s %s (x %s, y %s, z %s) C<M>=%s*%s %llux%llux%llu; %s: %s%s; %s: %s%s",
        op_name [c->op], c->sr->name, gcu_test_type_names [c->sr->x],
        gcu_test_type_names [c->sr->y], gcu_test_type_names [c->sr->z],
        operand_name (c->op, 0), operand_name (c->op, 1),
        (unsigned long long) c->m, (unsigned long long) c->k, (unsigned long long) c->n,
        operand_name (c->op, 0), x, c->tran0 ? " (transposed: GrB_INP0)" : "",
        operand_name (c->op, 1), y, c->tran1 ? " (transposed: GrB_INP1)" : "") ;
}

// an element-wise call's or an assign's part of the line
static void describe_other (const call_t *c, const char *x, const char *y, char *buf, size_t size)
{
    char fn [64], a [128] = "", b [128] = "" ;
    call_fn_name (c, fn, sizeof (fn)) ;
    if (is_ewise (c->op))
    {
        const binop_t *op = &binops [c->bop] ;
        if (c->op == OP_EWISE_UNION) { scal_str (&c->alpha, a, sizeof (a)) ; scal_str (&c->beta, b, sizeof (b)) ; }
        snprintf (buf, size, "%s %s (applies %s: x %s, y %s, z %s) %llux%llu; A: %s%s; B: %s%s%s%s%s%s",
            fn, c->kind == K_MONOID ? monoids [c->index].name : c->kind == K_SEMIRING
            ? srs [c->index].name : op->name, op->name, gcu_test_type_names [op->x],
            gcu_test_type_names [op->y], gcu_test_type_names [op->z], (unsigned long long) c->m,
            (unsigned long long) c->n, x, c->tran0 ? " (GrB_INP0 GrB_TRAN)" : "", y,
            c->tran1 ? " (GrB_INP1 GrB_TRAN)" : "", a [0] ? "; alpha " : "", a, b [0] ? ", beta " : "", b) ;
        return ;
    }
    if (c->op == OP_APPLY && apply_index (c->kind))
    {
        scal_str (&c->xs, a, sizeof (a)) ;
        snprintf (buf, size, "%s w<M>=%s(u, i, 0, y) (f %s), length %llu; u: %s; y %s", fn,
            apply_select (c) ? "u where f" : "f",
            idxop_names [c->index % NIDXOPS], (unsigned long long) c->m, x, a) ;
        return ;
    }
    if (c->op == OP_APPLY && c->kind == A_UNARY)
    {
        snprintf (buf, size, "%s w<M>=f(u) (f %s), length %llu; u: %s", fn, unops [c->index].name,
            (unsigned long long) c->m, x) ;
        return ;
    }
    if (c->op == OP_APPLY)
    {
        const binop_t *op = &binops [c->bop] ;
        scal_str (&c->xs, a, sizeof (a)) ;
        snprintf (buf, size, "%s w<M>=%s (applies %s: x %s, y %s, z %s), length %llu; u: %s; "
            "scalar %s", fn, (c->kind == A_1ST || c->kind == A_1ST_SC) ? "op (x, u)" : "op (u, y)", op->name,
            gcu_test_type_names [op->x], gcu_test_type_names [op->y], gcu_test_type_names [op->z],
            (unsigned long long) c->m, x, a) ;
        return ;
    }
    if (c->op == OP_ASSIGN_SCALAR) scal_str (&c->xs, a, sizeof (a)) ;
    snprintf (buf, size, "%s w<M>(I)=%s, length %llu; I: %s, ni %llu%s; %s%s%s", fn,
        c->op == OP_ASSIGN ? "u" : "x", (unsigned long long) c->m,
        c->ikind == I_ALL ? "GrB_ALL" : "a list", (unsigned long long) c->ni,
        c->bad_index ? " (one out of range)" : "", c->op == OP_ASSIGN ? "u: " : "x: ",
        c->op == OP_ASSIGN ? x : a, c->tran0 ? " (GrB_INP0 GrB_TRAN)" : "") ;
}

// everything about a call on one line
static void describe (const call_t *c, char *buf, size_t size)
{
    char x [160], y [160], m [160], cc [160] ;
    recipe_str (&c->x, x, sizeof (x)) ;
    recipe_str (&c->y, y, sizeof (y)) ;
    recipe_str (&c->mk, m, sizeof (m)) ;
    recipe_str (&c->c, cc, sizeof (cc)) ;
    if (is_product (c->op)) describe_product (c, x, y, buf, size) ;
    else describe_other (c, x, y, buf, size) ;
    const size_t n = strlen (buf) ;
    snprintf (buf + n, size - n, "; M: %s; C: %s; mask %s%s; accum %s", m, cc,
        mask_name [c->mask], c->replace ? ", GrB_REPLACE" : "",
        c->accum >= 0 ? binops [c->accum].name : "none") ;
}

//------------------------------------------------------------------------------
// what differed
//------------------------------------------------------------------------------

typedef struct { char text [2048] ; int n ; } diff_t ;

static void diff_add (diff_t *d, const char *fmt, ...) __attribute__ ((format (printf, 2, 3))) ;
static void diff_add (diff_t *d, const char *fmt, ...)
{
    size_t used = strlen (d->text) ;
    if (d->n++ > 0 && used + 2 < sizeof (d->text)) { strcat (d->text, "; ") ; used += 2 ; }
    va_list ap ;
    va_start (ap, fmt) ;
    vsnprintf (d->text + used, sizeof (d->text) - used, fmt, ap) ;
    va_end (ap) ;
}

static int iso_notes ;          // an object's iso status differs (counted)
static int iso_notes_c [NOPS] ; // ... of which the call's result, by operation
static int iso_either ;         // ... of which SuiteSparse gives either status: not a failure
static int status_notes ;       // C's sparsity status differs: counted, not a
                                // failure (see compare_meta)
static char status_example [256] ;

//------------------------------------------------------------------------------
// snapshots: what a program can observe of an object
//------------------------------------------------------------------------------

typedef struct { GrB_Index i, j, p ; } ijp_t ;

typedef struct
{
    bool ok ;
    int type, status, format ;
    bool iso ;
    GrB_Index nrows, ncols, n ;
    ijp_t *e ;                  // the entries by (i, j); p: where in X
    uint8_t *X ;
}
snap_t ;

static int cmp_ijp (const void *a, const void *b)
{
    const ijp_t *x = a, *y = b ;
    if (x->i != y->i) return x->i < y->i ? -1 : 1 ;
    if (x->j != y->j) return x->j < y->j ? -1 : 1 ;
    return 0 ;
}

// status, format and iso first: reading the entries finishes pending work
static void snap_take (snap_t *s, GrB_Matrix A)
{
    memset (s, 0, sizeof (*s)) ;
    GrB_Type type = NULL ;
    GxB_Format_Value f = GxB_BY_ROW ;
    if (A == NULL || GxB_Matrix_type (&type, A) != GrB_SUCCESS) return ;
    s->type = type_code (type) ;
    if (s->type < 0) return ;
    GxB_Matrix_Option_get (A, GxB_SPARSITY_STATUS, &s->status) ;
    GxB_Matrix_Option_get (A, GxB_FORMAT, &f) ;
    s->format = (int) f ;
    GxB_Matrix_iso (&s->iso, A) ;
    GrB_Index nv = 0 ;
    GrB_Matrix_nrows (&s->nrows, A) ;
    GrB_Matrix_ncols (&s->ncols, A) ;
    GrB_Matrix_nvals (&nv, A) ;
    GrB_Index *I = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    s->X = malloc ((nv + 1) * tsize [s->type]) ;
    s->n = nv ;
    s->ok = extract_tuples (A, s->type, I, J, s->X, &s->n) == GrB_SUCCESS ;
    s->e = malloc ((s->n + 1) * sizeof (ijp_t)) ;
    for (GrB_Index p = 0 ; p < s->n ; p++) s->e [p] = (ijp_t) { I [p], J [p], p } ;
    qsort (s->e, s->n, sizeof (ijp_t), cmp_ijp) ;
    free (I) ; free (J) ;
}

static void snap_free (snap_t *s)
{
    free (s->e) ; free (s->X) ;
    memset (s, 0, sizeof (*s)) ;
}

static val_t snap_value (const snap_t *s, GrB_Index q)
{
    return value_read (s->type, s->X + s->e [q].p * tsize [s->type]) ;
}

static bool snap_has (const snap_t *s, GrB_Index i, GrB_Index j)
{
    ijp_t key = { i, j, 0 } ;
    return s != NULL && s->n > 0 && bsearch (&key, s->e, s->n, sizeof (ijp_t), cmp_ijp) != NULL ;
}

// type, dimensions, sparsity status (a note when status_note) and format
// (iso: a note); false if the two cannot be compared further
static bool compare_meta (diff_t *d, const char *what, const snap_t *a, const snap_t *b,
    bool status_note)
{
    if (!a->ok || !b->ok)
    {
        diff_add (d, "%s could not be read (grbcuda's %s, SuiteSparse's %s)", what,
            a->ok ? "ok" : "invalid", b->ok ? "ok" : "invalid") ;
        return false ;
    }
    if (a->type != b->type || a->nrows != b->nrows || a->ncols != b->ncols)
    {
        diff_add (d, "%s type/dimensions %s %llux%llu vs %s %llux%llu", what,
            gcu_test_type_names [a->type], (unsigned long long) a->nrows,
            (unsigned long long) a->ncols, gcu_test_type_names [b->type],
            (unsigned long long) b->nrows, (unsigned long long) b->ncols) ;
        return false ;
    }
    if (a->status != b->status && status_note)
    {
        // C's storage after the call is SuiteSparse's choice of method (its
        // bitmap saxpy or dot for a dense-ish output, then a conform with
        // hysteresis); grbcuda's result is conformed from sparse under C's
        // control, and so is an input made device newest. Same content,
        // same format: a note, not a difference (issue 18 asks for the
        // status too: open, see bench/RESULTS.md)
        if (status_notes++ == 0)
            snprintf (status_example, sizeof (status_example), "%s %s vs %s", what,
                sparsity_name (a->status), sparsity_name (b->status)) ;
    }
    else if (a->status != b->status)
    {
        diff_add (d, "%s sparsity status %s vs %s", what, sparsity_name (a->status), sparsity_name (b->status)) ;
    }
    if (a->format != b->format)
    {
        diff_add (d, "%s format by %s vs by %s", what, a->format == GxB_BY_COL ? "col" : "row",
            b->format == GxB_BY_COL ? "col" : "row") ;
    }
    if (a->iso != b->iso) iso_notes++ ;
    return true ;
}

// false, and *at the first entry only one of them has, if the patterns differ
static bool compare_pattern (diff_t *d, const char *what, const snap_t *a, const snap_t *b,
    ijp_t *at)
{
    GrB_Index p = 0 ;
    while (p < a->n && p < b->n && cmp_ijp (&a->e [p], &b->e [p]) == 0) p++ ;
    if (p == a->n && p == b->n) return true ;
    const bool in_a = p < a->n && (p == b->n || cmp_ijp (&a->e [p], &b->e [p]) < 0) ;
    const ijp_t *e = in_a ? &a->e [p] : &b->e [p] ;
    char v [96] ;
    value_str (a->type, in_a ? snap_value (a, p) : snap_value (b, p), v, sizeof (v)) ;
    diff_add (d, "%s pattern: %llu vs %llu entries, (%llu,%llu) = %s only in %s's", what,
        (unsigned long long) a->n, (unsigned long long) b->n, (unsigned long long) e->i,
        (unsigned long long) e->j, v, in_a ? "grbcuda" : "SuiteSparse") ;
    if (at != NULL) *at = *e ;
    return false ;
}

static GrB_Info read_entry (bool vec, double *x, GrB_Matrix C, GrB_Index i, GrB_Index j)
{
    return vec ? GrB_Vector_extractElement_FP64 (x, (GrB_Vector) C, i)
               : GrB_Matrix_extractElement_FP64 (x, C, i, j) ;
}

// one term's value, mult (X(xi,xj), Y(yi,yj)) as SuiteSparse computes it
// (1x1 extracts, eWiseMult), read as FP64, and its magnitude (*mag: a complex
// product's modulus); false if either has no entry
static bool term_value (const call_t *c, GrB_Matrix X, GrB_Matrix Y, GrB_Index xi,
    GrB_Index xj, GrB_Index yi, GrB_Index yj, double *x, double *y, double *z, double *mag)
{
    if (GrB_Matrix_extractElement_FP64 (x, X, xi, xj) != GrB_SUCCESS
        || GrB_Matrix_extractElement_FP64 (y, Y, yi, yj) != GrB_SUCCESS) return false ;
    GrB_Matrix Xs = NULL, Ys = NULL, Zs = NULL ;
    GrB_Type xt, yt ;
    *z = NAN ;
    if (GxB_Matrix_type (&xt, X) == GrB_SUCCESS && GxB_Matrix_type (&yt, Y) == GrB_SUCCESS
        && GrB_Matrix_new (&Xs, xt, 1, 1) == GrB_SUCCESS && GrB_Matrix_new (&Ys, yt, 1, 1) == GrB_SUCCESS
        && GrB_Matrix_new (&Zs, gcu_test_types [c->sr->z], 1, 1) == GrB_SUCCESS
        && GrB_Matrix_extract (Xs, NULL, NULL, X, &xi, 1, &xj, 1, NULL) == GrB_SUCCESS
        && GrB_Matrix_extract (Ys, NULL, NULL, Y, &yi, 1, &yj, 1, NULL) == GrB_SUCCESS
        && GrB_Matrix_eWiseMult_BinaryOp (Zs, NULL, NULL, c->sr->mult, Xs, Ys, NULL) == GrB_SUCCESS)
    {
        (void) GrB_Matrix_extractElement_FP64 (z, Zs, 0, 0) ;
    }
    *mag = fabs (*z) ;
    GxB_FC64_t zc ;
    if (Zs != NULL && is_complex (c->sr->z) && GxB_Matrix_extractElement_FC64 (&zc, Zs, 0, 0) == GrB_SUCCESS)
    {
        *mag = hypot (creal (zc), cimag (zc)) ;
    }
    GrB_Matrix_free (&Xs) ; GrB_Matrix_free (&Ys) ; GrB_Matrix_free (&Zs) ;
    return true ;
}

// the product's terms at C(i,j): X(i,k) and Y(k,j) in the operation's own
// terms (transposes applied, a vector as its one column), for the k where
// both have an entry; their count, how many of the products are NaN
// (*nnan), the sum of their magnitudes (*mags, when not NULL) and the first
// 6 as text when t != NULL
static int product_terms (const call_t *c, GrB_Index i, GrB_Index j, int *nnan, double *mags,
    char *t, size_t tsize)
{
    GrB_Matrix X = build_operand (&c->x), Y = build_operand (&c->y) ;
    int n = 0, len = 0 ;
    *nnan = 0 ;
    if (mags != NULL) *mags = 0 ;
    if (t != NULL) t [0] = '\0' ;
    for (GrB_Index k = 0 ; k < c->k && X != NULL && Y != NULL ; k++)
    {
        double x, y, z, mag ;
        const GrB_Index xi = c->x.vector ? k : (c->tran0 ? k : i) ;
        const GrB_Index xj = c->x.vector ? 0 : (c->tran0 ? i : k) ;
        const GrB_Index yi = c->y.vector ? k : (c->tran1 ? j : k) ;
        const GrB_Index yj = c->y.vector ? 0 : (c->tran1 ? k : j) ;
        if (!term_value (c, X, Y, xi, xj, yi, yj, &x, &y, &z, &mag)) continue ;
        if (isnan (z)) (*nnan)++ ;
        if (mags != NULL) *mags += mag ;
        if (t != NULL && n < 6 && len < (int) tsize - 80)
            len += snprintf (t + len, tsize - len, "%sk %llu: %.9g, %.9g -> %.9g", n > 0 ? "; " : "",
                (unsigned long long) k, x, y, z) ;
        n++ ;
    }
    obj_free (&X, c->x.vector) ;
    obj_free (&Y, c->y.vector) ;
    return n ;
}

// NaN against the MIN or MAX monoid's identity, cast to C's type (see c_rule)
static void nan_rule (const call_t *c, rule_t *r)
{
    if (is_float (c->c.type)) r->nan_id = c->sr->min ? INFINITY : -INFINITY ;
    else if (c->c.type != T_BOOL)
    {
        const int bits = 8 * (int) tsize [c->c.type] ;
        const uint64_t ones = (bits == 64) ? ~(uint64_t) 0 : ((uint64_t) 1 << bits) - 1 ;
        r->int_nan = true ;
        if (is_unsigned (c->c.type)) r->int_id = c->sr->min ? ones : 0 ;
        else r->int_id = c->sr->min ? (ones >> 1) : ((uint64_t) 1 << (bits - 1)) ;
    }
}

// whether the old C had an entry at (i,j) (where an accum meets T's value)
static bool c_had_entry (const call_t *c, GrB_Index i, GrB_Index j)
{
    double v ;
    GrB_Matrix C0 = build_operand (&c->c) ;
    const bool had = C0 != NULL && read_entry (c->c.vector, &v, C0, i, c->c.vector ? 0 : j) == GrB_SUCCESS ;
    obj_free (&C0, c->c.vector) ;
    return had ;
}

// an entry that differs only as NaN against the monoid's identity (cast to
// C's type), whose product terms are all NaN, and where T's value reached C
// unchanged but for the cast (no accum, or C had no entry there): SuiteSparse
// folds the identity in or not, by method. Where the accum met an old entry,
// accum (c, NaN) against accum (c, identity): either is right, not compared.
static long nan_term_notes ;
static bool nan_terms_match (const call_t *c, int t, GrB_Index i, GrB_Index j, val_t x, val_t y)
{
    int nnan ;
    const int n = product_terms (c, i, j, &nnan, NULL, NULL, 0) ;
    if (n == 0 || nnan != n) return false ;
    const bool accumulated = c->accum >= 0 && c_had_entry (c, i, j) ;
    rule_t r = { 0, 1, false, 0, false, 0, NULL } ;
    nan_rule (c, &r) ;
    return accumulated || value_same (t, x, y, &r) ;
}

static bool nan_terms_explain (const call_t *c, int t, GrB_Index i, GrB_Index j, val_t x, val_t y)
{
    const bool same = nan_terms_match (c, t, i, j, x, y) ;
    if (same) nan_term_notes++ ;
    return same ;
}

// whether two results of a MIN/MAX product (rule->nan_terms) differ only at
// entries nan_terms_match explains (same pattern): then a read of one
// entry, or their largest value, may differ too (seed 14752266381626750455
// cases 3715 and 28072, with an accum: NaN against +inf, SuiteSparse's
// masked dot starting from the identity)
static bool nan_terms_only (const rule_t *rule, GrB_Matrix C1, GrB_Matrix C2)
{
    if (rule->nan_terms == NULL) return false ;
    snap_t a, b ;
    snap_take (&a, C1) ;
    snap_take (&b, C2) ;
    bool only = a.ok && b.ok && a.n == b.n ;
    for (GrB_Index q = 0 ; only && q < a.n ; q++)
    {
        only = a.e [q].i == b.e [q].i && a.e [q].j == b.e [q].j ;
        val_t x = snap_value (&a, q), y = snap_value (&b, q) ;
        if (only && !value_same (a.type, x, y, rule))
            only = nan_terms_match (rule->nan_terms, a.type, a.e [q].i, a.e [q].j, x, y) ;
    }
    snap_free (&a) ; snap_free (&b) ;
    return only ;
}

// an entry of a reassociating sum that differs by less than the tolerance
// relative to the sum of its terms' magnitudes, where T's value reached C
// unchanged but for a cast (no accum, or C had no entry there): the order of
// the sum decides which small terms a huge one absorbs. Seed
// 12847955682377358851 case 262: PLUS_RDIV_FC64 of 7 by +-1.4e-45 (FP32's
// smallest denormal) gives +-5.0e45 beside six terms under 15; SuiteSparse's
// order kept one of them (0.48), the GPU's warp order five (-25.96).
static long sum_term_notes ;
static bool sum_terms_explain (const call_t *c, int t, GrB_Index i, GrB_Index j, val_t x,
    val_t y, const rule_t *rule)
{
    int nnan ;
    double mags ;
    const int n = product_terms (c, i, j, &nnan, &mags, NULL, 0) ;
    if (n < 2 || nnan > 0 || !isfinite (mags) || mags <= rule->scale) return false ;
    const bool accumulated = c->accum >= 0 && c_had_entry (c, i, j) ;
    if (accumulated) return false ;
    rule_t r = *rule ;
    r.scale = mags ;
    const bool same = value_same (t, x, y, &r) ;
    if (same) sum_term_notes++ ;
    return same ;
}

static void entry_terms (diff_t *d, const call_t *c, const ijp_t *at)
{
    char t [400] ;
    int nnan ;
    const int n = product_terms (c, at->i, at->j, &nnan, NULL, t, sizeof (t)) ;
    diff_add (d, "terms (x, y -> product): %d, %d NaN%s%s", n, nnan, n > 0 ? ": " : "", t) ;
}

// an operand's value at (i,j) as text (a vector's at i)
static void operand_at (const recipe_t *r, GrB_Index i, GrB_Index j, char *buf, size_t size)
{
    double v = 0 ;
    GrB_Matrix X = build_operand (r) ;
    if (X == NULL) snprintf (buf, size, "none") ;
    else if (i >= r->nrows || j >= r->ncols) snprintf (buf, size, "outside") ;
    else if (GrB_Matrix_extractElement_FP64 (&v, X, i, j) == GrB_SUCCESS) snprintf (buf, size, "%.17g", v) ;
    else snprintf (buf, size, "no entry") ;
    obj_free (&X, r->vector) ;
}

// an element-wise call's operands at an entry (transposes applied), an
// assign's u or x (over GrB_ALL)
static void entry_operands (diff_t *d, const call_t *c, const ijp_t *at)
{
    char a [64], b [64] ;
    if (is_ewise (c->op))
    {
        const bool ta = c->tran0 && c->matrix, tb = c->tran1 && c->matrix ;
        operand_at (&c->x, ta ? at->j : at->i, ta ? at->i : at->j, a, sizeof (a)) ;
        operand_at (&c->y, tb ? at->j : at->i, tb ? at->i : at->j, b, sizeof (b)) ;
        diff_add (d, "A there: %s, B there: %s", a, b) ;
    }
    else if (c->op == OP_ASSIGN && c->ikind == I_ALL)
    {
        operand_at (&c->x, at->i, 0, a, sizeof (a)) ;
        diff_add (d, "u there: %s", a) ;
    }
}

// what the mask and the old C hold at an entry (as FP64), to read a
// difference of pattern by
static void entry_context (diff_t *d, const call_t *c, GrB_Matrix M, const ijp_t *at)
{
    char m [64] = "no entry", c0 [64] = "no entry" ;
    double v = 0 ;
    if (M == NULL) snprintf (m, sizeof (m), "no mask") ;
    else if (GrB_Matrix_extractElement_FP64 (&v, M, at->i, at->j) == GrB_SUCCESS) snprintf (m, sizeof (m), "%.17g", v) ;
    GrB_Matrix C0 = build_operand (&c->c) ;
    if (GrB_Matrix_extractElement_FP64 (&v, C0, at->i, at->j) == GrB_SUCCESS) snprintf (c0, sizeof (c0), "%.17g", v) ;
    obj_free (&C0, c->c.vector) ;
    diff_add (d, "there M: %s, C before: %s", m, c0) ;
    if (is_product (c->op)) entry_terms (d, c, at) ;
    else entry_operands (d, c, at) ;
}

// the values of two snapshots of one pattern, except where skip has an entry;
// false, and *at the first entry that differs, if one does
static bool compare_values (diff_t *d, const char *what, const snap_t *a, const snap_t *b,
    const rule_t *rule, const snap_t *skip, ijp_t *at)
{
    for (GrB_Index q = 0 ; q < a->n ; q++)
    {
        if (skip != NULL && snap_has (skip, a->e [q].i, a->e [q].j)) continue ;
        val_t x = snap_value (a, q), y = snap_value (b, q) ;
        if (value_same (a->type, x, y, rule)) continue ;
        if (rule != NULL && rule->nan_terms != NULL && nan_terms_explain (rule->nan_terms,
            a->type, a->e [q].i, a->e [q].j, x, y)) continue ;
        if (rule != NULL && rule->sum_terms != NULL && sum_terms_explain (rule->sum_terms,
            a->type, a->e [q].i, a->e [q].j, x, y, rule)) continue ;
        char sx [96], sy [96] ;
        value_str (a->type, x, sx, sizeof (sx)) ;
        value_str (b->type, y, sy, sizeof (sy)) ;
        diff_add (d, "%s(%llu,%llu): grbcuda %s, SuiteSparse %s", what,
            (unsigned long long) a->e [q].i, (unsigned long long) a->e [q].j, sx, sy) ;
        if (at != NULL) *at = a->e [q] ;
        return false ;
    }
    return true ;
}

// an input: unchanged by either call, so both copies must still agree (the
// sparsity status of one made device newest: a note)
static void compare_input (diff_t *d, const char *what, GrB_Matrix a, GrB_Matrix b, bool newest)
{
    if (a == NULL && b == NULL) return ;
    snap_t sa, sb ;
    snap_take (&sa, a) ;
    snap_take (&sb, b) ;
    const rule_t exact = { 0, 1, true, 0 } ;
    char label [64] ;
    snprintf (label, sizeof (label), "input %s", what) ;
    if (compare_meta (d, label, &sa, &sb, newest) && compare_pattern (d, label, &sa, &sb, NULL))
    {
        compare_values (d, label, &sa, &sb, &exact, NULL, NULL) ;
    }
    snap_free (&sa) ; snap_free (&sb) ;
}

//------------------------------------------------------------------------------
// running one call both ways
//------------------------------------------------------------------------------

typedef struct { GrB_Matrix X, Y, M, C ; GrB_Scalar alpha, beta ; } side_t ;
typedef struct { GrB_Info info ; bool err ; } outcome_t ;

// a GrB_Scalar of x's type holding its value (empty, or none: NULL), set
// through a one-entry vector of its bytes
static GrB_Scalar build_scalar (const scal_t *x, bool *ok)
{
    GrB_Scalar a = NULL ;
    if (x->state == S_NULL) return NULL ;
    GrB_Vector v = NULL ;
    GrB_Index *Vi = calloc (1, sizeof (GrB_Index)) ;
    void *Vx = malloc (sizeof (x->v)) ;
    if (Vx != NULL) memcpy (Vx, x->v, sizeof (x->v)) ;
    const GrB_Type t = gcu_test_types [x->type] ;
    bool good = GrB_Scalar_new (&a, t) == GrB_SUCCESS && GrB_Vector_new (&v, t, 1) == GrB_SUCCESS
        && Vi != NULL && Vx != NULL && GxB_Vector_pack_CSC (v, &Vi, &Vx, sizeof (GrB_Index),
            sizeof (x->v), false, 1, false, NULL) == GrB_SUCCESS ;
    if (good && x->state == S_VALUE) good = GrB_Vector_extractElement_Scalar (a, v, 0) == GrB_SUCCESS ;
    free (Vi) ; free (Vx) ;
    GrB_Vector_free (&v) ;
    *ok &= good ;
    return a ;
}

// every object of one side (oracle: SuiteSparse's); false if one could not be built
static bool side_build (side_t *s, const call_t *c, bool oracle)
{
    bool ok = true ;
    s->X = build_side (&c->x, oracle) ;
    s->Y = build_side (&c->y, oracle) ;
    s->M = build_side (&c->mk, oracle) ;
    s->C = build_side (&c->c, oracle) ;
    s->alpha = s->beta = NULL ;
    if (c->op == OP_EWISE_UNION)
    {
        s->alpha = build_scalar (&c->alpha, &ok) ;
        s->beta = build_scalar (&c->beta, &ok) ;
    }
    return ok && s->C != NULL && (s->X != NULL || !c->x.present) && (s->Y != NULL || !c->y.present)
        && (s->M != NULL || !c->mk.present) ;
}

static void side_free (side_t *s, const call_t *c)
{
    obj_free (&s->X, c->x.vector) ;
    obj_free (&s->Y, c->y.vector) ;
    obj_free (&s->M, c->mk.vector) ;
    obj_free (&s->C, c->c.vector) ;
    GrB_Scalar_free (&s->alpha) ;
    GrB_Scalar_free (&s->beta) ;
}

// an element-wise call on one side's objects with the operator op of the
// given kind (the case's, or another in its place: compare_either)
static GrB_Info ewise_run (const call_t *c, bool oracle, const side_t *s, GrB_BinaryOp accum,
    int kind, const void *op, GrB_Descriptor d)
{
    if (c->op == OP_EWISE_UNION)
        return union_fn_call (oracle ? real_union [c->matrix] : our_union [c->matrix], c->matrix,
            s->C, s->M, accum, (GrB_BinaryOp) op, s->X, s->alpha, s->Y, s->beta, d) ;
    const bool mult = c->op == OP_EWISE_MULT ;
    return ewise_fn_call (oracle ? real_ewise [c->matrix][mult][kind] : our_ewise [c->matrix][mult][kind],
        c->matrix, kind, s->C, s->M, accum, op, s->X, s->Y, d) ;
}

// the assign's index list (n + 1 entries at most), drawn from its seed:
// ni distinct indices of w, one of them out of range when asked
static GrB_Index *index_list (const call_t *c)
{
    const GrB_Index n = c->c.nrows ;
    GrB_Index *I = malloc ((n + c->ni + 1) * sizeof (GrB_Index)) ;
    uint64_t st = c->iseed ;
    for (GrB_Index i = 0 ; i < n ; i++) I [i] = i ;
    for (GrB_Index k = 0 ; k < c->ni && k < n ; k++)
    {
        const GrB_Index q = k + pick (&st, n - k), t = I [k] ;
        I [k] = I [q] ; I [q] = t ;
    }
    if (c->bad_index && c->ni > 0) I [pick (&st, c->ni)] = n + pick (&st, 3) ;
    return I ;
}

static GrB_Info assign_run (const call_t *c, bool oracle, const side_t *s, GrB_BinaryOp accum,
    GrB_Descriptor d)
{
    GrB_Index *I = c->ikind == I_LIST ? index_list (c) : NULL ;
    const GrB_Index *Iuse = c->ikind == I_LIST ? I : GrB_ALL ;
    const int t = c->xs.type ;
    GrB_Info info = c->op == OP_ASSIGN
        ? assign_fn_call (oracle, V_ (s->C), V_ (s->M), accum, V_ (s->X), Iuse, c->ni, d)
        : assign_scalar_fn_call (oracle ? real_assign_scalar [t] : our_assign_scalar [t], t,
            V_ (s->C), V_ (s->M), accum, c->xs.v, Iuse, c->ni, d) ;
    free (I) ;
    return info ;
}

#define INDEX_FN(CT) ((GrB_Info (*) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,      \
    const GrB_IndexUnaryOp, const GrB_Vector, CT, const GrB_Descriptor)) f) (w, M, accum, op, u, *(const CT *) y, d)

// w<M> = accum (w, op (u, i, 0, y)) through f, the IndexOp form of type t
static GrB_Info index_fn_call (fn_t f, int t, GrB_Vector w, GrB_Vector M, GrB_BinaryOp accum,
    GrB_IndexUnaryOp op, GrB_Vector u, const void *y, GrB_Descriptor d)
{
    switch (t)
    {
        case 0:  return INDEX_FN (bool) ;
        case 1:  return INDEX_FN (int8_t) ;
        case 2:  return INDEX_FN (int16_t) ;
        case 3:  return INDEX_FN (int32_t) ;
        case 4:  return INDEX_FN (int64_t) ;
        case 5:  return INDEX_FN (uint8_t) ;
        case 6:  return INDEX_FN (uint16_t) ;
        case 7:  return INDEX_FN (uint32_t) ;
        case 8:  return INDEX_FN (uint64_t) ;
        case 9:  return INDEX_FN (float) ;
        case 10: return INDEX_FN (double) ;
        case 11: return INDEX_FN (GxB_FC32_t) ;
        default: return INDEX_FN (GxB_FC64_t) ;
    }
}

// the typed IndexOp form and the GrB_Scalar forms (the scalar made for the
// call: a value, empty, or NULL, as drawn)
static GrB_Info apply_other_run (const call_t *c, bool oracle, const side_t *s, GrB_BinaryOp accum,
    GrB_Descriptor d)
{
    GrB_IndexUnaryOp iop = idxops [c->index % NIDXOPS] ;
    GrB_BinaryOp bop = binops [c->bop].op ;
    const bool sel = apply_select (c) ;
    if (c->kind == A_INDEX)
        return index_fn_call (sel ? (oracle ? real_select : our_select) [c->xs.type]
            : (oracle ? real_apply_idx : our_apply_idx) [c->xs.type],
            c->xs.type, V_ (s->C), V_ (s->M), accum, iop, V_ (s->X), c->xs.v, d) ;
    bool ok = true ;
    GrB_Scalar x = build_scalar (&c->xs, &ok) ;
    if (!ok) return GrB_PANIC ;
    const fn_t f = sel ? (oracle ? real_select_sc : our_select_sc)
        : oracle ? real_apply_sc [c->kind - A_2ND_SC] : our_apply_sc [c->kind - A_2ND_SC] ;
    GrB_Info info ;
    if (c->kind == A_1ST_SC)
        info = ((GrB_Info (*) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp, const GrB_BinaryOp,
            const GrB_Scalar, const GrB_Vector, const GrB_Descriptor)) f) (V_ (s->C), V_ (s->M),
            accum, bop, x, V_ (s->X), d) ;
    else if (c->kind == A_2ND_SC)
        info = ((GrB_Info (*) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp, const GrB_BinaryOp,
            const GrB_Vector, const GrB_Scalar, const GrB_Descriptor)) f) (V_ (s->C), V_ (s->M),
            accum, bop, V_ (s->X), x, d) ;
    else
        info = ((GrB_Info (*) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp, const GrB_IndexUnaryOp,
            const GrB_Vector, const GrB_Scalar, const GrB_Descriptor)) f) (V_ (s->C), V_ (s->M),
            accum, iop, V_ (s->X), x, d) ;
    GrB_Scalar_free (&x) ;
    return info ;
}

// the case's call on one side's objects (oracle: SuiteSparse's function)
static GrB_Info call_run (const call_t *c, bool oracle, const side_t *s, GrB_BinaryOp accum,
    GrB_Descriptor d)
{
    if (is_product (c->op)) return call_op (c->op, oracle, s->C, s->M, accum, c->sr->s, s->X, s->Y, d) ;
    if (is_ewise (c->op)) return ewise_run (c, oracle, s, accum, c->kind, ewise_object (c), d) ;
    if (c->op == OP_APPLY && c->kind >= A_INDEX) return apply_other_run (c, oracle, s, accum, d) ;
    if (c->op == OP_APPLY && c->kind == A_UNARY)
        return (oracle ? (GrB_Info (*) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
            const GrB_UnaryOp, const GrB_Vector, const GrB_Descriptor)) real_apply_unary
            : GrB_Vector_apply) (V_ (s->C), V_ (s->M), accum, unops [c->index].op, V_ (s->X), d) ;
    if (c->op == OP_APPLY)
        return apply_fn_call (oracle ? real_apply [c->kind][c->xs.type] : our_apply [c->kind][c->xs.type],
            c->kind, c->xs.type, V_ (s->C), V_ (s->M), accum, binops [c->bop].op, V_ (s->X), c->xs.v, d) ;
    return assign_run (c, oracle, s, accum, d) ;
}

static bool has_error (GrB_Matrix C, bool vector)
{
    const char *msg = NULL ;
    if (vector) GrB_Vector_error (&msg, (GrB_Vector) C) ;
    else GrB_Matrix_error (&msg, C) ;
    return msg != NULL && msg [0] != '\0' ;
}

// a perturbation of grbcuda's side (self-test) or a check of SuiteSparse's
// (regressions), run after both calls, before the comparison
typedef struct
{
    const call_t *c ;
    side_t *s1, *s2 ;
    outcome_t *o1, *o2 ;
}
hook_ctx ;
typedef void (*hook_f) (hook_ctx *h) ;

// where the grbcuda call went: a GPU family (its name), or the host (why)
typedef struct { bool gpu ; const char *family ; int reason ; GrB_Info info ; } path_t ;

typedef struct { grbcuda_op_stats s ; int nfam ; const gcu_family *const *fam ; uint64_t runs [16] ; } mark_t ;

// the statistics of the call's function and the runs of its GPU families
static void path_mark (gcu_op g, mark_t *m)
{
    memset (m, 0, sizeof (*m)) ;
    if (g >= GCU_OP_COUNT) return ;
    grbcuda_stats_get (gcu_op_name (g), &m->s) ;
    m->fam = gcu_families (g, &m->nfam) ;
    if (m->nfam > 16) m->nfam = 16 ;
    for (int f = 0 ; f < m->nfam ; f++) m->runs [f] = gcu_family_runs (m->fam [f]->name) ;
}

static path_t path_since (gcu_op g, const mark_t *before)
{
    mark_t now ;
    path_mark (g, &now) ;
    path_t p = { false, NULL, -1, GrB_SUCCESS } ;
    for (int f = 0 ; f < now.nfam ; f++)
    {
        if (now.runs [f] != before->runs [f]) { p.gpu = true ; p.family = now.fam [f]->name ; }
    }
    for (int r = 1 ; r < GRBCUDA_NREASONS ; r++)
    {
        if (now.s.reason [r] != before->s.reason [r]) p.reason = r ;
    }
    return p ;
}

// c1's entries against two answers of SuiteSparse's of as many entries (a
// and b, their pattern c1's): each value one that accept admits, else the
// first that is not, in words ("grbcuda 9, not between SuiteSparse's MIN 1
// and MAX 5")
static void compare_candidates (diff_t *d, const snap_t *c1, const snap_t *a, const snap_t *b,
    bool (*accept) (int t, val_t v, val_t a, val_t b), const char *what, const char *w1, const char *w2)
{
    for (GrB_Index q = 0 ; q < c1->n ; q++)
    {
        if (cmp_ijp (&a->e [q], &c1->e [q]) != 0 || cmp_ijp (&b->e [q], &c1->e [q]) != 0)
        {
            diff_add (d, "C: %s have another pattern", what) ;
            return ;
        }
        const val_t v = snap_value (c1, q), x = snap_value (a, q), y = snap_value (b, q) ;
        if (accept (c1->type, v, x, y)) continue ;
        char sv [96], sx [96], sy [96] ;
        value_str (c1->type, v, sv, sizeof (sv)) ;
        value_str (c1->type, x, sx, sizeof (sx)) ;
        value_str (c1->type, y, sy, sizeof (sy)) ;
        diff_add (d, "C(%llu,%llu): grbcuda %s, %s %s %s %s", (unsigned long long) c1->e [q].i,
            (unsigned long long) c1->e [q].j, sv, w1, sx, w2, sy) ;
        return ;
    }
}

// ANY (not PAIR): the pattern is exact; the values lie between SuiteSparse's
// MIN and MAX of the same call where C holds the monoid's type and nothing
// accumulates, else compare only where the product has no entry
static void compare_any (diff_t *d, const call_t *c, const side_t *s2, const snap_t *c1,
    const snap_t *c2, GrB_Descriptor desc)
{
    sr_t *sr = c->sr ;
    if (c->accum < 0 && c->c.type == sr->z && sr_bounds (sr))
    {
        GrB_Matrix lo = build_operand (&c->c), hi = build_operand (&c->c) ;
        GrB_Info ilo = call_op (c->op, true, lo, s2->M, NULL, sr->lo, s2->X, s2->Y, desc) ;
        GrB_Info ihi = call_op (c->op, true, hi, s2->M, NULL, sr->hi, s2->X, s2->Y, desc) ;
        snap_t L, H ;
        snap_take (&L, lo) ;
        snap_take (&H, hi) ;
        if (ilo != GrB_SUCCESS || ihi != GrB_SUCCESS || L.n != c1->n || H.n != c1->n)
        {
            diff_add (d, "C: the MIN/MAX bounds of the ANY monoid failed (%d, %d)", (int) ilo, (int) ihi) ;
        }
        else compare_candidates (d, c1, &L, &H, value_between, "the MIN/MAX bounds of the ANY monoid",
            "not between SuiteSparse's MIN", "and MAX") ;
        snap_free (&L) ; snap_free (&H) ;
        obj_free (&lo, c->c.vector) ; obj_free (&hi, c->c.vector) ;
        return ;
    }
    // the product's pattern: the same operands through ANY_PAIR, no mask
    GrB_Matrix P = NULL ;
    GrB_Descriptor tdesc = make_desc (c, true) ;
    recipe_t pr = c->c ;
    pr.type = T_BOOL ;
    P = obj_new (&pr) ;
    GrB_Info info = call_op (c->op, true, P, NULL, NULL, GxB_ANY_PAIR_BOOL, s2->X, s2->Y, tdesc) ;
    snap_t SP ;
    snap_take (&SP, P) ;
    const rule_t exact = { 0, 1, c->signed_zero, 0 } ;
    if (info != GrB_SUCCESS) diff_add (d, "C: the product's pattern failed (%d)", (int) info) ;
    else compare_values (d, "C (outside the product)", c1, c2, &exact, &SP, NULL) ;
    snap_free (&SP) ;
    obj_free (&P, c->c.vector) ;
    GrB_Descriptor_free (&tdesc) ;
}

// a binary operator of binops by its kind and type ("FIRST", T_FP64: GrB_FIRST_FP64)
static int binop_named (const char *kind, int t)
{
    char w [32], ty [32] ;
    for (int k = 0 ; k < nbinops ; k++)
    {
        if (name_word (binops [k].name, 1, w, sizeof (w)) && name_word (binops [k].name, 2, ty, sizeof (ty))
            && strcmp (w, kind) == 0 && strcmp (ty, gcu_test_type_names [t]) == 0) return k ;
    }
    return -1 ;
}

// v is one of f and s, exactly (but for the sign of zero)
static bool value_either (int t, val_t v, val_t f, val_t s)
{
    static const rule_t exact = { 0, 1, false, 0, false, 0, NULL } ;
    return value_same (t, v, f, &exact) || value_same (t, v, s, &exact) ;
}

// An element-wise ANY operator: where both operands (or one and alpha or
// beta) have a value, T holds either, so each entry of C must be
// SuiteSparse's answer with FIRST or with SECOND of the operator's type in
// the operator's place (the pattern is the same for all three)
static void compare_either (diff_t *d, const call_t *c, const side_t *s2, const snap_t *c1,
    GrB_Descriptor desc)
{
    const int z = binops [c->bop].z ;
    const int alt [2] = { binop_named ("FIRST", z), binop_named ("SECOND", z) } ;
    GrB_BinaryOp accum = c->accum >= 0 ? binops [c->accum].op : NULL ;
    snap_t S [2] ;
    bool ok = alt [0] >= 0 && alt [1] >= 0 ;
    for (int k = 0 ; k < 2 ; k++)
    {
        side_t t = *s2 ;
        t.C = build_side (&c->c, true) ;
        const GrB_Info info = ok && t.C != NULL
            ? ewise_run (c, true, &t, accum, K_BINOP, binops [alt [k]].op, desc) : GrB_PANIC ;
        snap_take (&S [k], t.C) ;
        ok = ok && info == GrB_SUCCESS && S [k].n == c1->n ;
        obj_free (&t.C, c->c.vector) ;
    }
    if (!ok) diff_add (d, "C: SuiteSparse's answers with FIRST and SECOND for ANY failed") ;
    else compare_candidates (d, c1, &S [0], &S [1], value_either, "SuiteSparse's answers with FIRST "
        "and SECOND", "neither SuiteSparse's with FIRST", "nor with SECOND") ;
    snap_free (&S [0]) ; snap_free (&S [1]) ;
}

// SuiteSparse 7.4 computes a matrix's C = A.*B as op (b, a) where A is iso
// and held bitmap or full, B sparse or hypersparse, and op is neither
// commutative nor one with a flipped twin (POW, ATAN2, FMOD, REMAINDER,
// COPYSIGN, LDEXP, the bit operators, CMPLX; a user's operator too; a
// vector's is right): reproduced with SuiteSparse alone (bench/RESULTS.md,
// 2026-11-26; seed 11550923918504302322 case 2573: A INT32 iso 2147483647,
// B 4, GxB_POW_FC32 gave inf, 4 to the 2147483648th). The two sides may
// hold A and B differently (a device newest one as grbcuda wrote it back),
// so an entry may be SuiteSparse's answer as built or with A held sparse
// (which SuiteSparse computes right)
static bool emult_flips (const call_t *c)
{
    static const char *const kinds [] = { "POW", "ATAN2", "FMOD", "REMAINDER", "COPYSIGN", "LDEXP",
        "BGET", "BSET", "BCLR", "BSHIFT", "CMPLX" } ;
    char w [32] ;
    if (c->op != OP_EWISE_MULT || !c->matrix || c->bop < 0
        || !name_word (binops [c->bop].name, 1, w, sizeof (w))) return false ;
    for (size_t k = 0 ; k < sizeof (kinds) / sizeof (kinds [0]) ; k++) if (strcmp (w, kinds [k]) == 0) return true ;
    return false ;
}

static void compare_flip (diff_t *d, const call_t *c, const side_t *s2, const snap_t *c1,
    const snap_t *c2, GrB_Descriptor desc)
{
    GrB_BinaryOp accum = c->accum >= 0 ? binops [c->accum].op : NULL ;
    side_t t = *s2 ;
    GrB_Matrix A = NULL ;
    t.C = build_side (&c->c, true) ;
    GrB_Info info = t.C == NULL ? GrB_PANIC : GrB_Matrix_dup (&A, s2->X) ;
    if (info == GrB_SUCCESS) info = GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, GxB_SPARSE) ;
    t.X = A ;
    if (info == GrB_SUCCESS) info = ewise_run (c, true, &t, accum, K_BINOP, binops [c->bop].op, desc) ;
    snap_t S ;
    snap_take (&S, t.C) ;
    if (info != GrB_SUCCESS || S.n != c1->n) diff_add (d, "C: SuiteSparse's answer with A held sparse failed") ;
    else compare_candidates (d, c1, c2, &S, value_either, "SuiteSparse's answers as built and with A "
        "held sparse", "neither SuiteSparse's as built", "nor with A held sparse") ;
    snap_free (&S) ;
    GrB_Matrix_free (&A) ;
    obj_free (&t.C, c->c.vector) ;
}

// the rule for C's values
static rule_t c_rule (const call_t *c)
{
    rule_t r = { 0, 1, c->signed_zero, 0, false, 0, NULL } ;
    // element-wise and assign: one operator an entry at most, no sum
    if (!is_product (c->op)) return r ;
    // an entry whose terms are all NaN: NaN where SuiteSparse starts from
    // the first term (its sparse methods, and grbcuda), the monoid's identity
    // where it starts from the identity (some of its dense and dot methods:
    // fmax (-inf, NaN) is -inf); either, where nothing transforms the value
    // but a cast: into an integer C, 0 (NaN's cast) or the identity's
    // (seed 9110298821665349585 case 8925: MAX_FIRST_FP64 into INT32,
    // SuiteSparse -2147483648). With no accum every entry is read so; with
    // one (or into a complex C), only an entry whose terms are all NaN
    // (compare_values asks nan_terms_explain: seed 8343774798595205968 cases
    // 237 and 14708, MIN_FIRST_FP32 of one NaN term, SuiteSparse +inf)
    if (c->sr->minmax && c->accum < 0 && !is_complex (c->c.type)) nan_rule (c, &r) ;
    if (c->sr->minmax) r.nan_terms = c ;
    if (!c->sr->reassoc) return r ;
    const bool single = is_single (c->sr->z) || is_single (c->c.type) ;
    r.tol = single ? 1e-5 : 1e-12 ;
    // the terms' rounding adds up: relative to their count at least
    r.scale = c->k > 1 ? (double) c->k : 1 ;
    r.sum_terms = c ;
    return r ;
}

// C's largest value through GrB_reduce to a GrB_Scalar (and, for a vector,
// to a C double as well: compared only when C has entries, because
// SuiteSparse 7.4 reduces an empty iso bitmap vector to its stale iso value
// instead of the monoid's identity; seed 10643501525137284519 case 2203,
// reproduced with SuiteSparse alone: w INT8 iso 16 emptied by a masked
// assign, GrB_Vector_reduce_INT8 with MAX gives 16, not -128)
static GrB_Info read_max (bool vec, int t, GrB_Matrix C, GrB_Scalar a, double *x2)
{
    if (!vec) return GrB_Matrix_reduce_Monoid_Scalar (a, NULL, max_monoid (t), C, NULL) ;
    GrB_Info info = GrB_Vector_reduce_Monoid_Scalar (a, NULL, max_monoid (t), (GrB_Vector) C, NULL) ;
    if (info == GrB_SUCCESS) info = GrB_Vector_reduce_FP64 (x2, NULL, max_monoid (t), (GrB_Vector) C, NULL) ;
    return info ;
}

// What a program can read of C without its write-back, where grbcuda left
// C's new value on the device (issue 19): its entry count (nvals), single
// entries (extractElement: a few bytes from the device) and its largest
// value (GrB_reduce to a GrB_Scalar, and of a vector to a C double: on the
// device), against the same reads of SuiteSparse's C. Run before anything
// reads C whole (which writes it back). Values compare under C's rule, and
// not at all where the rule lets NaN match something else (an all-NaN
// MIN/MAX entry) or the semiring is ANY.
static void compare_reads (diff_t *d, const call_t *c, side_t *s1, side_t *s2)
{
    const int t = c->c.type ;
    const bool vec = c->c.vector ;
    if (is_complex (t)) return ;
    GrB_Matrix C1 = s1->C, C2 = s2->C ;
    GrB_Index nr = 0, nc = 1, n1 = 0, n2 = 0 ;
    GrB_Info i1 = vec ? GrB_Vector_nvals (&n1, (GrB_Vector) C1) : GrB_Matrix_nvals (&n1, C1) ;
    GrB_Info i2 = vec ? GrB_Vector_nvals (&n2, (GrB_Vector) C2) : GrB_Matrix_nvals (&n2, C2) ;
    if (i1 != i2 || n1 != n2)
        diff_add (d, "nvals (C) before C is read: info %d, %llu vs info %d, %llu", (int) i1,
            (unsigned long long) n1, (int) i2, (unsigned long long) n2) ;
    if (i2 != GrB_SUCCESS || (vec ? GrB_Vector_size (&nr, (GrB_Vector) C2)
        : (GrB_Matrix_nrows (&nr, C2) | GrB_Matrix_ncols (&nc, C2))) != GrB_SUCCESS
        || nr == 0 || nc == 0) return ;
    const rule_t r = c_rule (c) ;
    const bool any = is_product (c->op) ? c->sr->any : call_any (c) ;
    const bool values = !any && r.nan_id == 0 && !r.int_nan && !emult_flips (c) ;
    // positions: some of SuiteSparse's entries, and some anywhere
    GrB_Index I [12], J [12], np = 0 ;
    GrB_Index *EI = malloc ((n2 + 1) * sizeof (GrB_Index)), *EJ = malloc ((n2 + 1) * sizeof (GrB_Index)) ;
    double *EX = malloc ((n2 + 1) * sizeof (double)) ;
    GrB_Index got = n2 ;
    bool all_nan = false ;
    if (EI != NULL && EJ != NULL && EX != NULL && n2 > 0
        && (vec ? GrB_Vector_extractTuples_FP64 (EI, EX, &got, (GrB_Vector) C2)
                : GrB_Matrix_extractTuples_FP64 (EI, EJ, EX, &got, C2)) == GrB_SUCCESS)
    {
        all_nan = got > 0 ;
        for (GrB_Index k = 0 ; k < got && all_nan ; k++) all_nan = isnan (EX [k]) ;
        for (GrB_Index k = 0 ; k < 6 && k < got ; k++)
        {
            const GrB_Index q = k * got / 6 ;
            I [np] = EI [q] ; J [np] = vec ? 0 : EJ [q] ; np++ ;
        }
    }
    free (EI) ; free (EJ) ; free (EX) ;
    for (GrB_Index k = 0 ; k < 6 ; k++)
    {
        I [np] = (k * 7919u) % nr ; J [np] = (k * 104729u + k) % nc ; np++ ;
    }
    // (values that differ are told after the reduce below: whether they
    // differ only as nan_terms_only allows needs C whole, a write-back)
    char differs [200] = "" ;
    for (GrB_Index k = 0 ; k < np ; k++)
    {
        double x1 = 0, x2 = 0 ;
        i1 = read_entry (vec, &x1, C1, I [k], J [k]) ;
        i2 = read_entry (vec, &x2, C2, I [k], J [k]) ;
        if (i1 != i2 || (values && i1 == GrB_SUCCESS && !real_same (x1, x2, &r)))
        {
            snprintf (differs, sizeof (differs), "C(%llu,%llu) through extractElement: info %d, %.17g vs info %d, %.17g",
                (unsigned long long) I [k], (unsigned long long) J [k], (int) i1, x1, (int) i2, x2) ;
            if (i1 != i2) { diff_add (d, "%s", differs) ; differs [0] = '\0' ; }
            break ;
        }
    }
    bool max_differs = false ;
    char max_text [300] = "" ;
    GrB_Type ct = NULL ;
    GrB_Scalar a1 = NULL, a2 = NULL ;
    if ((vec ? GxB_Vector_type (&ct, (GrB_Vector) C2) : GxB_Matrix_type (&ct, C2)) == GrB_SUCCESS
        && GrB_Scalar_new (&a1, ct) == GrB_SUCCESS && GrB_Scalar_new (&a2, ct) == GrB_SUCCESS)
    {
        double y1 = 0, y2 = 0 ;
        i1 = read_max (vec, t, C1, a1, &y1) ;
        i2 = read_max (vec, t, C2, a2, &y2) ;
        GrB_Index m1 = 9, m2 = 9 ;
        double x1 = 0, x2 = 0 ;
        if (i1 == GrB_SUCCESS) (void) GrB_Scalar_nvals (&m1, a1) ;
        if (i2 == GrB_SUCCESS) (void) GrB_Scalar_nvals (&m2, a2) ;
        if (m1 == 1) (void) GrB_Scalar_extractElement_FP64 (&x1, a1) ;
        if (m2 == 1) (void) GrB_Scalar_extractElement_FP64 (&x2, a2) ;
        // SuiteSparse 7.4's MAX of values that are all NaN depends on its
        // storage: NaN from a sparse or iso object (it starts from the first
        // entry), the identity -inf from a bitmap one (it starts from the
        // identity, and fmax drops NaN); seed 16838413672275604226 case 526,
        // reproduced with SuiteSparse alone. grbcuda's device reduce starts
        // from the first entry, so either answer is SuiteSparse's.
        const bool vals = values && !all_nan ;
        if (i1 != i2 || m1 != m2) diff_add (d, "the largest value of C through GrB_reduce: "
            "info %d, %llu entries vs info %d, %llu entries", (int) i1, (unsigned long long) m1,
            (int) i2, (unsigned long long) m2) ;
        else if ((vals && m1 == 1 && !real_same (x1, x2, &r)) || (vals && vec && n2 > 0 && !real_same (y1, y2, &r)))
        {
            max_differs = true ;
            snprintf (max_text, sizeof (max_text), "the largest value of C through GrB_reduce: "
                "%.17g (%.17g) vs %.17g (%.17g)", x1, y1, x2, y2) ;
        }
    }
    GrB_Scalar_free (&a1) ;
    GrB_Scalar_free (&a2) ;
    if ((differs [0] != '\0' || max_differs) && !nan_terms_only (&r, C1, C2))
    {
        if (differs [0] != '\0') diff_add (d, "%s", differs) ;
        if (max_differs) diff_add (d, "%s", max_text) ;
    }
}

static void compare_sides (diff_t *d, const call_t *c, side_t *s1, side_t *s2,
    const outcome_t *o1, const outcome_t *o2, GrB_Descriptor desc)
{
    if (o1->info != o2->info) diff_add (d, "info %d vs %d", (int) o1->info, (int) o2->info) ;
    if (o1->err != o2->err) diff_add (d, "GrB_error %s vs %s", o1->err ? "set" : "empty", o2->err ? "set" : "empty") ;
    snap_t c1, c2 ;
    snap_take (&c1, s1->C) ;
    snap_take (&c2, s2->C) ;
    ijp_t at ;
    const bool meta = compare_meta (d, "C", &c1, &c2, true) ;
    if (c1.ok && c2.ok && c1.iso != c2.iso)
    {
        iso_notes_c [c->op]++ ;
        // SuiteSparse's own methods give an empty result, or one of one
        // entry under a mask, either status (tests/cpu/test_iso_call.c): a
        // note; any other result's status is SuiteSparse's and must match
        // (GxB_*_iso, an unpack, GB_get_mask's reading of an iso mask)
        if (c2.n == 0 || (s2->M != NULL && c2.n == 1)) iso_either++ ;
        else diff_add (d, "C iso %d vs %d (%llu entries)", (int) c1.iso, (int) c2.iso, (unsigned long long) c2.n) ;
    }
    if (meta && !compare_pattern (d, "C", &c1, &c2, &at)) entry_context (d, c, s2->M, &at) ;
    else if (meta)
    {
        const rule_t r = c_rule (c) ;
        const bool any = call_any (c) && o2->info == GrB_SUCCESS ;
        if (any && is_product (c->op)) compare_any (d, c, s2, &c1, &c2, desc) ;
        else if (any) compare_either (d, c, s2, &c1, desc) ;
        else if (emult_flips (c) && o2->info == GrB_SUCCESS && c1.n == c2.n) compare_flip (d, c, s2, &c1, &c2, desc) ;
        else if (!compare_values (d, "C", &c1, &c2, &r, NULL, &at)) entry_context (d, c, s2->M, &at) ;
    }
    snap_free (&c1) ; snap_free (&c2) ;
    compare_input (d, operand_name (c->op, 0), s1->X, s2->X, c->x.newest) ;
    compare_input (d, operand_name (c->op, 1), s1->Y, s2->Y, c->y.newest) ;
    compare_input (d, "M", s1->M, s2->M, c->mk.newest) ;
}

// true if grbcuda's call and SuiteSparse's agree on everything observable
static bool run_call (const call_t *c, hook_f hook, diff_t *d, path_t *path)
{
    memset (d, 0, sizeof (*d)) ;
    side_t s1, s2 ;
    bool built = side_build (&s1, c, false) & side_build (&s2, c, true) ;
    if (!built) diff_add (d, "the operands could not be built") ;
    GrB_Descriptor desc = make_desc (c, false) ;
    GrB_BinaryOp accum = c->accum >= 0 ? binops [c->accum].op : NULL ;
    outcome_t o1 = { GrB_PANIC, false }, o2 = { GrB_PANIC, false } ;
    if (built)
    {
        mark_t m ;
        const gcu_op g = call_gop (c) ;
        path_mark (g, &m) ;
        o1.info = call_run (c, false, &s1, accum, desc) ;
        o1.err = has_error (s1.C, c->c.vector) ;
        if (path != NULL) *path = path_since (g, &m) ;
        o2.info = call_run (c, true, &s2, accum, desc) ;
        o2.err = has_error (s2.C, c->c.vector) ;
        if (path != NULL) path->info = o2.info ;
        if (o1.info == GrB_SUCCESS && o2.info == GrB_SUCCESS) compare_reads (d, c, &s1, &s2) ;
        hook_ctx h = { c, &s1, &s2, &o1, &o2 } ;
        if (hook != NULL) hook (&h) ;
        compare_sides (d, c, &s1, &s2, &o1, &o2, desc) ;
    }
    GrB_Descriptor_free (&desc) ;
    side_free (&s1, c) ;
    side_free (&s2, c) ;
    return d->n == 0 ;
}

//------------------------------------------------------------------------------
// random cases
//------------------------------------------------------------------------------

static struct
{
    uint64_t seed ;
    long calls, only, shard_i, shard_n, max_fail ;
    bool ops [NOPS] ;
    int pool ;
    bool seeded, verbose, self_test, regressions_only, no_regressions, dense_sweep ;
    bool progress ;             // "case K" before each case (a shard cut off by
                                // its time limit names the case it was in)
    const char *ops_arg ;
    double seconds ;            // no case begins after this (0: no limit)
}
opt = { 0, -1, -1, 0, 1, 20, { true, true, true, true, true, true, true, true, true }, -1, false, false,
    false, false, false, false, false, NULL, 0 } ;

// --dense-sweep: case K is a GrB_mxm over built-in semiring (K / 2) % nsrs
// with its own types, in SpMM's form (Y full) when K is even, in SDDMM's
// (C<M> = X*Y', X and Y full, M not complemented) when K is odd; the
// summary says for how many semirings each form ran on the GPU in its
// family (issue 21: every built-in semiring through SpMM and SDDMM)
static bool *sweep_ran [2] ;    // per semiring: the form ran on the GPU as SpMM / SDDMM
static bool *sweep_tried [2] ;  // ... the run had a case of it (a shard has some)

static uint64_t case_state (uint64_t seed, long K)
{
    uint64_t st = seed ^ (0xD1B54A32D192ED03ull * (uint64_t) (K + 1)) ;
    gcu_rand (&st) ;
    return st ;
}

static double draw_density (uint64_t *st)
{
    static const double d [] = { 0, 0.03, 0.08, 0.15, 0.15, 0.3, 0.3, 0.6, 1.0 } ;
    return d [pick (st, sizeof (d) / sizeof (d [0]))] ;
}

static GrB_Index draw_dim (uint64_t *st)
{
    uint64_t r = pick (st, 100) ;
    return r < 4 ? 0 : r < 15 ? 1 + pick (st, 3) : r < 75 ? 1 + pick (st, 40) : 40 + pick (st, 21) ;
}

static void draw_recipe (recipe_t *r, uint64_t *st, int type, GrB_Index nrows,
    GrB_Index ncols, bool vector, int policy)
{
    memset (r, 0, sizeof (*r)) ;
    r->present = true ;
    r->vector = vector ;
    r->type = type ;
    r->nrows = nrows ;
    r->ncols = vector ? 1 : ncols ;
    r->density = draw_density (st) ;
    r->dense_row = r->dense_col = -1 ;
    r->policy = policy ;
    r->by_col = !vector && pick (st, 5) < 2 ;
    const uint64_t s = pick (st, 100) ;
    r->sparsity = s < 35 ? GxB_SPARSE : s < 55 ? GxB_HYPERSPARSE : s < 75 ? GxB_BITMAP
        : s < 88 ? GxB_AUTO_SPARSITY : GxB_FULL ;
    if (r->density >= 1 && pick (st, 2)) r->sparsity = GxB_FULL ;
    // a GrB_Vector is never hypersparse
    if (vector && r->sparsity == GxB_HYPERSPARSE) r->sparsity = GxB_SPARSE ;
    r->iso = pick (st, 8) == 0 ;
    r->pending = (r->sparsity == GxB_SPARSE || r->sparsity == GxB_HYPERSPARSE) && pick (st, 6) == 0 ;
    r->seed = gcu_rand (st) ;
}

// m x k times k x n; special shapes: a zero dimension, 1x1x1, a dense row of
// X or a dense column of Y (long: k up to 300), a single row or column
static void draw_shape (call_t *c, uint64_t *st, int *dense)
{
    c->m = draw_dim (st) ;
    c->k = draw_dim (st) ;
    c->n = draw_dim (st) ;
    *dense = 0 ;
    const uint64_t s = pick (st, 100) ;
    if (s < 8) { GrB_Index z = 0 ; *(s % 3 == 0 ? &c->m : s % 3 == 1 ? &c->k : &c->n) = z ; }
    else if (s < 13) c->m = c->k = c->n = 1 ;
    else if (s < 33)
    {
        *dense = s < 23 ? 1 : 2 ;
        c->k = 60 + pick (st, 241) ;
        if (c->m == 0) c->m = 1 ;
        if (c->n == 0) c->n = 1 ;
    }
    else if (s < 40) *(s % 2 ? &c->m : &c->n) = 1 ;
    // a long product under a floating TIMES monoid could overflow (2^128 in
    // FP32), and overflow against a zero is NaN in one order, 0 in another
    if (c->sr->times && c->k > 100) c->k = 100 ;
    if (c->op == OP_MXV) c->n = 1 ;
    if (c->op == OP_VXM) c->m = 1 ;
}

// the descriptor and the mask's kind
static void draw_desc (call_t *c, uint64_t *st)
{
    static const int w [NMASKS] = { 22, 15, 15, 12, 12, 9, 9, 6 } ;
    int r = (int) pick (st, 100), m = 0 ;
    while (r >= w [m]) r -= w [m++] ;
    c->mask = m ;
    c->replace = pick (st, 3) == 0 ;
    c->tran0 = c->op != OP_VXM && pick (st, 10) < 3 ;
    c->tran1 = c->op != OP_MXV && pick (st, 10) < 3 ;
}

// accum: none, or any built-in operator, with two exceptions that keep
// legitimate differences out: where the values are approximate, only
// operators continuous in T; under MIN / MAX over a floating type (a
// monoid, or an element-wise operator: fmin (+0, -0) may be either), +0 and
// -0 are interchangeable candidates, so nothing that tells them apart
static void draw_accum (call_t *c, uint64_t *st, bool approximate, bool minmax)
{
    c->accum = -1 ;
    if (pick (st, 2) == 0) return ;
    for (int tries = 0 ; tries < 50 ; tries++)
    {
        int a = (int) pick (st, nbinops) ;
        if (approximate && !binops [a].continuous) continue ;
        if (minmax && binops [a].reveals_sign) continue ;
        c->accum = a ;
        return ;
    }
}

static int pick_op (uint64_t *st)
{
    static const int w [NOPS] = { 60, 20, 20, 12, 12, 16, 16, 12, 12 } ;
    int total = 0 ;
    for (int o = 0 ; o < NOPS ; o++) total += opt.ops [o] ? w [o] : 0 ;
    int r = (int) pick (st, total > 0 ? total : 1) ;
    for (int o = 0 ; o < NOPS ; o++)
    {
        if (!opt.ops [o]) continue ;
        if (r < w [o]) return o ;
        r -= w [o] ;
    }
    return OP_MXM ;
}

// Bugs of SuiteSparse 7.4 itself (reproduced with plain SuiteSparse, no
// grbcuda in the process) that the cases stay clear of, or the oracle would
// crash, never return, or answer wrong: a product of inner dimension 0 under
// a sparse or hypersparse mask can loop forever in GB_AxB_saxpy3's symbolic
// phase; a valued mask stored full, with an accum, can crash in
// GB_subassign_08n (C<M> += T), structural too under an element-wise call
// (seed 102 case 18927, seed 103 case 7357: reproduced without grbcuda).
// The mask is then made bitmap: the same mask to a program, another
// storage. The same method crashes (a NULL read) on
// w<M> += u with u stored full, M sparse and w empty (seed 77 case 8631;
// reproduced with SuiteSparse alone, M structural or valued): such a u is
// made bitmap. A typed scalar assign over GrB_ALL with no
// mask into a sparse w holding a zombie (a removed entry, pending) leaves
// nvals one short of the entries extractTuples then finds (GrB_INSUFFICIENT_
// SPACE: seed 77 case 420, GrB_Vector_assign_INT16 into an FC64 w of length
// 12): w is drawn without pending work there.
// an operand drawn for a transposed call, drawn again for none: its stored
// dimensions swap (a full row or column drawn for them goes)
static void untranspose (recipe_t *r)
{
    const GrB_Index t = r->nrows ;
    r->nrows = r->ncols ;
    r->ncols = t ;
    r->dense_row = r->dense_col = -1 ;
}

// eWiseAdd of matrices: SuiteSparse 7.4 casts an entry of one side only to
// the operator's z type directly where it reads the operand in C's
// orientation, and through the operator's input type where it transposes
// the operand first (A by column, C by row, GrB_GT_INT32: an FP64 0.5 is
// true one way and false the other; the GPU tester's seed
// 15810177807792244611 case 2432, reproduced with SuiteSparse alone). Where
// an operand's type is not the operator's input type, A and B are drawn in
// C's orientation and the call without transposes
static void avoid_add_cast_orientation (call_t *c)
{
    if (c->op != OP_EWISE_ADD || !c->matrix) return ;
    const binop_t *b = &binops [c->bop] ;
    if (c->x.type == b->x && c->y.type == b->y) return ;
    c->x.by_col = c->y.by_col = c->c.by_col ;
    if (c->tran0) untranspose (&c->x) ;
    if (c->tran1) untranspose (&c->y) ;
    c->tran0 = c->tran1 = false ;
}

static void avoid_suitesparse_bugs (call_t *c)
{
    if (c->op == OP_ASSIGN_SCALAR) c->c.pending = false ;
    avoid_add_cast_orientation (c) ;
    // an element-wise call into a C with every entry present and iso, its
    // operands dense: SuiteSparse 7.4's dense kernel writes every value into
    // C's one iso value (a heap overflow, reproduced with SuiteSparse alone,
    // bench/RESULTS.md 2026-11-29): such a C is drawn not iso
    if (is_ewise (c->op) && c->c.density >= 1) c->c.iso = false ;
    if (!c->mk.present) return ;
    recipe_t *u = &c->x ;
    if (c->op == OP_ASSIGN && c->accum >= 0 && (u->sparsity == GxB_FULL
        || (u->sparsity == GxB_AUTO_SPARSITY && u->density >= 1))) u->sparsity = GxB_BITMAP ;
    // C<M> += T of a product with C's every entry present and M not bitmap:
    // SuiteSparse 7.4 crashes in GB_subassign_08n (a NULL read) where T is
    // dense under the mask with iso operands (--dense-sweep seed 7 case 723:
    // MAX_TIMES, C sparse; seed 9 case 835: PLUS_DIV, C full; the first
    // reproduced with SuiteSparse alone, where M bitmap, C bitmap, operands
    // not iso or no accum did not crash): such an M is drawn bitmap, as a
    // full one is below
    const bool dense_c = is_product (c->op) && c->c.density >= 1 ;
    const bool full_m = c->mk.density >= 1 && (!mask_struct (c->mask) || !is_product (c->op))
        && c->accum >= 0 ;
    if ((is_product (c->op) && c->k == 0) || full_m || (dense_c && c->accum >= 0))
    {
        c->mk.sparsity = GxB_BITMAP ;
        c->mk.pending = false ;
    }
}

// an operand every entry of which is present, held full (iso at times, as
// drawn)
static void make_full (recipe_t *r)
{
    r->density = 1 ;
    r->sparsity = GxB_FULL ;
    r->pending = false ;
    r->dense_row = r->dense_col = -1 ;
}

// The dense forms of GrB_mxm (issue 21), from a stream of their own so that
// every other draw of a case stays as it was: Y full (SpMM, the "spmm"
// family) in one case in 6, X and Y full (SDDMM: the masked dot family's
// dense form, where the mask is not complemented) in one in 8.
static void draw_dense_forms (uint64_t seed, long K, call_t *c)
{
    if (c->op != OP_MXM) return ;
    uint64_t st = case_state (seed ^ 0x73706d6d32310000ull, K) ;
    uint64_t f = pick (&st, 24) ;
    if (opt.dense_sweep)
    {
        f = (K % 2 == 0) ? 0 : 4 ;
        // a mask with entries (an empty one leaves no dot product to run;
        // pending work can delete the dense row's entries)
        if (K % 2 != 0 && c->m > 0)
        {
            c->mk.dense_row = (int64_t) ((K / 2) % (long) c->m) ;
            c->mk.pending = false ;
        }
    }
    if (f < 4) make_full (&c->y) ;
    else if (f < 7)
    {
        make_full (&c->x) ;
        make_full (&c->y) ;
    }
}

// --dense-sweep: a case its form's GPU family takes: no empty dimension and
// no complemented NULL mask (nothing to compute: SuiteSparse's answer, which
// the random runs test); in SpMM's form no mask that is not complemented
// (the masked dot family takes those), in SDDMM's form a mask object that is
// not complemented (valued or structural by turns); the rest (descriptor,
// accum, types, storage, values) stays drawn. SDDMM's form is C<M> = X*Y'
// (GrB_INP1 transposed): with Y as it is, the masked dot family takes only a
// mask whose dot products cost less than the whole product (dot_branch,
// src/mxm/mxm_masked.c), which a random mask need not be.
static void sweep_shape (call_t *c, long K)
{
    GrB_Index *d [3] = { &c->m, &c->k, &c->n } ;
    for (int i = 0 ; i < 3 ; i++) if (*d [i] == 0) *d [i] = 1 + (GrB_Index) (K % 7) ;
    if (K % 2 != 0)
    {
        c->tran1 = true ;
        if (!mask_object (c->mask) || mask_comp (c->mask))
            c->mask = (K / 2) % 4 < 2 ? MASK_VALUED : MASK_STRUCT ;
    }
    else if (c->mask == MASK_VALUED) c->mask = MASK_COMP ;
    else if (c->mask == MASK_STRUCT) c->mask = MASK_COMP_STRUCT ;
    else if (!mask_object (c->mask)) c->mask = MASK_NONE ;
}

// --dense-sweep: an accum the device write-back computes as the host does
// (not POW, ATAN2 or HYPOT, whose device functions are not the C library's:
// the GPU families leave those to SuiteSparse, which the random runs test)
static void sweep_accum (call_t *c)
{
    static const char *const host_only [] = { "POW", "ATAN2", "HYPOT", NULL } ;
    char w [32] ;
    if (c->accum >= 0 && name_word (binops [c->accum].name, 1, w, sizeof (w)) && word_in (w, host_only))
        c->accum = -1 ;
}

// the value policies: a floating PLUS or TIMES monoid reassociates, so no
// huge values (sums in another order overflow elsewhere); TIMES only
// 0, +-1, +-inf, NaN (underflow or overflow against a zero or an infinity
// depends on the order), complex TIMES only +-1 and +-i (a complex infinity's
// NaN parts depend on the order too). Approximate values (denormals, DIV,
// long complex products) then put C in a floating type, where the tolerance
// applies, and only an accum continuous in T: an integer or BOOL C, or a
// comparison, would turn a rounding difference into a different value.
// (K: the case, whose semiring --dense-sweep takes in turn)
static void draw_product (call_t *c, uint64_t *stp, long K)
{
    uint64_t st = *stp ;
    const sig_t *sig = &pool [pick (&st, npool)] ;
    sig_t walk ;
    if (opt.dense_sweep)
    {
        const int k = (int) ((K / 2) % nsrs) ;
        walk = (sig_t) { k, srs [k].x, srs [k].y } ;
        sig = &walk ;
    }
    c->sr = &srs [sig->sr] ;
    const sr_t *sr = c->sr ;
    int policy = V_FULL ;
    if (sr->times) policy = is_complex (sr->z) ? V_CTIMES : V_TIMES ;
    else if (sr->reassoc) policy = (sr->div || pick (&st, 2)) ? V_TAME : V_EXACT ;
    const bool approximate = policy == V_TAME || policy == V_CTIMES ;
    int tc = pick (&st, 2) ? sr->z : (int) pick (&st, NT) ;
    if (approximate && !is_float (tc)) tc = T_FP32 + (int) pick (&st, 4) ;
    const int tm = (int) pick (&st, NT) ;
    int dense ;
    draw_shape (c, &st, &dense) ;
    draw_desc (c, &st) ;
    if (opt.dense_sweep) sweep_shape (c, K) ;
    draw_accum (c, &st, approximate, sr->minmax) ;
    if (opt.dense_sweep) sweep_accum (c) ;
    // X is m x k (stored k x m when transposed), Y is k x n; u and w are vectors
    const bool xv = c->op == OP_VXM, yv = c->op == OP_MXV, cv = c->op != OP_MXM ;
    draw_recipe (&c->x, &st, sig->x, c->tran0 ? c->k : (xv ? c->k : c->m), c->tran0 ? c->m : c->k, xv, policy) ;
    draw_recipe (&c->y, &st, sig->y, c->tran1 ? c->n : c->k, c->tran1 ? c->k : c->n, yv, policy) ;
    draw_recipe (&c->c, &st, tc, cv ? (c->op == OP_MXV ? c->m : c->n) : c->m, c->n, cv,
        sr->reassoc ? V_EXACT : V_FULL) ;
    draw_recipe (&c->mk, &st, tm, c->c.nrows, c->c.ncols, cv, V_MASK) ;
    c->mk.present = mask_object (c->mask) ;
    // SuiteSparse 7.4 gives a positional multiplier the position in a
    // hypersparse operand's list of vectors instead of the index in some
    // methods (C = A*B over TIMES_SECONDJ_INT32, B hypersparse by column:
    // the default and dot methods; seed 8888380197126140632 case 10727):
    // no oracle there, so such operands are drawn sparse (auto could turn
    // hypersparse)
    if (sr->positional)
    {
        recipe_t *xy [2] = { &c->x, &c->y } ;
        for (int q = 0 ; q < 2 ; q++)
            if (xy [q]->sparsity == GxB_HYPERSPARSE || xy [q]->sparsity == GxB_AUTO_SPARSITY)
                xy [q]->sparsity = GxB_SPARSE ;
    }
    // the dense row of X (as stored: a column when transposed) or column of Y
    if (dense == 1 && c->m > 0)
    {
        if (xv) c->x.density = 1 ;
        else if (c->tran0) c->x.dense_col = (int64_t) pick (&st, c->m) ;
        else c->x.dense_row = (int64_t) pick (&st, c->m) ;
    }
    if (dense == 2 && c->n > 0)
    {
        if (yv) c->y.density = 1 ;
        else if (c->tran1) c->y.dense_row = (int64_t) pick (&st, c->n) ;
        else c->y.dense_col = (int64_t) pick (&st, c->n) ;
    }
    // an SpMV's shape (u full, no mask: the variants of src/mxv/spmv.c and
    // the hub order) in one product on a vector in four; else about one in
    // thirty (a GPU run of 1,600 mxv and vxm calls had 56)
    if ((xv || yv) && pick (&st, 4) == 0)
    {
        c->mask = MASK_NONE ;
        c->mk.present = false ;
        if (xv) c->x.density = 1 ; else c->y.density = 1 ;
    }
    *stp = st ;
}

// a scalar of type own (or, half the time or where own < 0, any type) and a
// value with the special ones of its type; empty or NULL sometimes when
// absent is true (eWiseUnion's alpha and beta: SuiteSparse's errors)
static void draw_scalar (scal_t *x, uint64_t *st, int own, bool absent)
{
    memset (x, 0, sizeof (*x)) ;
    x->type = (own >= 0 && pick (st, 2)) ? own : (int) pick (st, NT) ;
    const uint64_t r = absent ? pick (st, 100) : 0 ;
    x->state = r < 92 ? S_VALUE : r < 96 ? S_EMPTY : S_NULL ;
    draw_value (x->type, V_FULL, st, x->v) ;
}

// the assign and element-wise operands made device newest (a quarter of
// each: build_side), and one case in 30 an operand one longer than the
// call's shape (SuiteSparse's GrB_DIMENSION_MISMATCH)
static void draw_operands_extra (call_t *c, uint64_t *st)
{
    recipe_t *r [4] = { &c->x, &c->y, &c->mk, &c->c } ;
    for (int q = 0 ; q < 4 ; q++)
    {
        if (!r [q]->present || pick (st, 4) != 0) continue ;
        r [q]->newest = true ;
        r [q]->pending = false ;
    }
    if (pick (st, 30) != 0) return ;
    recipe_t *m = r [pick (st, 3)] ;
    if (m->present) m->nrows++ ;
}

// eWiseAdd, eWiseMult, eWiseUnion: vectors or matrices; an operator from
// the pool (eWiseUnion: the binary operator SuiteSparse would apply), and
// C<M> = accum (C, A op B), A and B transposed by the descriptor (which a
// vector's call ignores); exact values: one operator an entry
static void draw_ewise (call_t *c, uint64_t *st)
{
    esig_t g ;
    if (nepool > 0) g = epool [pick (st, nepool)] ;
    else esig_draw (st, &g) ;
    c->matrix = pick (st, 2) ;
    c->kind = g.kind ;
    c->index = g.index ;
    c->bop = esig_op (g.kind, g.index, c->op == OP_EWISE_MULT) ;
    if (c->op == OP_EWISE_UNION) { c->kind = K_BINOP ; c->index = c->bop ; }
    const binop_t *b = &binops [c->bop] ;
    c->m = draw_dim (st) ;
    c->n = c->matrix ? draw_dim (st) : 1 ;
    c->k = 1 ;
    draw_desc (c, st) ;
    draw_accum (c, st, false, b->minmax) ;
    const int tc = (pick (st, 2) && b->z >= 0) ? b->z : (int) pick (st, NT) ;
    const bool v = !c->matrix, ta = c->tran0 && c->matrix, tb = c->tran1 && c->matrix ;
    draw_recipe (&c->x, st, g.x, ta ? c->n : c->m, ta ? c->m : c->n, v, V_FULL) ;
    draw_recipe (&c->y, st, g.y, tb ? c->n : c->m, tb ? c->m : c->n, v, V_FULL) ;
    draw_recipe (&c->c, st, tc, c->m, c->n, v, V_FULL) ;
    draw_recipe (&c->mk, st, (int) pick (st, NT), c->m, c->n, v, V_MASK) ;
    c->mk.present = mask_object (c->mask) ;
    if (c->op == OP_EWISE_UNION)
    {
        draw_scalar (&c->alpha, st, b->x, true) ;
        draw_scalar (&c->beta, st, b->y, true) ;
    }
    draw_operands_extra (c, st) ;
}

// the assign's indices: GrB_ALL over w (the GPU's case) three times in
// four, GrB_ALL with ni != n, or a list (one index out of range sometimes)
static void draw_index (call_t *c, uint64_t *st)
{
    const GrB_Index n = c->m ;
    const uint64_t r = pick (st, 100) ;
    c->ikind = r < 80 ? I_ALL : I_LIST ;
    c->ni = r < 75 ? n : r < 80 ? (n > 0 && pick (st, 2) ? n - 1 : n + 1) : pick (st, n + 1) ;
    c->bad_index = c->ikind == I_LIST && pick (st, 5) == 0 ;
    c->iseed = gcu_rand (st) ;
}

// GrB_Vector_assign (u) and GrB_Vector_assign_<T> (x): w<M>(I) = accum (w(I), .)
static void draw_assign (call_t *c, uint64_t *st)
{
    c->m = draw_dim (st) ;
    c->n = c->k = 1 ;
    draw_desc (c, st) ;
    draw_accum (c, st, false, false) ;
    draw_index (c, st) ;
    const int tc = (int) pick (st, NT) ;
    if (c->op == OP_ASSIGN)
        draw_recipe (&c->x, st, pick (st, 3) ? (int) pick (st, NT) : tc,
            c->ikind == I_ALL ? c->m : c->ni, 1, true, V_FULL) ;
    else draw_scalar (&c->xs, st, -1, false) ;
    draw_recipe (&c->c, st, tc, c->m, 1, true, V_FULL) ;
    draw_recipe (&c->mk, st, (int) pick (st, NT), c->m, 1, true, V_MASK) ;
    c->mk.present = mask_object (c->mask) ;
    draw_operands_extra (c, st) ;
}

// GrB_Vector_apply_BinaryOp1st_<T> / _BinaryOp2nd_<T>: w<M> = accum (w,
// op (x, u)) or op (u, y) over the whole of w; the operator from the pool
// (not ANY: SuiteSparse's bound ANY takes either side), the scalar of any
// type; GrB_Vector_apply with a built-in unary operator (unops); the typed
// IndexOp form with a built-in index-unary operator (idxops), or
// GrB_Vector_select_<T> with one (half the index cases); the GrB_Scalar
// forms of both bound forms, of IndexOp and of select, their scalar at times
// empty or NULL (SuiteSparse's errors)
static void draw_apply (call_t *c, uint64_t *st)
{
    c->m = draw_dim (st) ;
    c->n = c->k = 1 ;
    draw_desc (c, st) ;
    c->tran0 = c->tran1 = false ;
    draw_accum (c, st, false, false) ;
    c->ikind = I_ALL ;
    c->ni = c->m ;
    c->kind = (int) pick (st, NAKINDS) ;
    do c->bop = (int) pick (st, nbinops) ; while (binops [c->bop].any) ;
    c->index = (int) pick (st, apply_index (c->kind) ? 2 * NIDXOPS : nunops > 0 ? nunops : 1) ;
    const int tc = (int) pick (st, NT) ;
    // (the GrB_Scalar forms' scalar may be empty or NULL: SuiteSparse's errors)
    draw_scalar (&c->xs, st, -1, c->kind >= A_2ND_SC) ;
    draw_recipe (&c->x, st, pick (st, 3) ? (int) pick (st, NT) : tc, c->m, 1, true, V_FULL) ;
    draw_recipe (&c->c, st, tc, c->m, 1, true, V_FULL) ;
    draw_recipe (&c->mk, st, (int) pick (st, NT), c->m, 1, true, V_MASK) ;
    c->mk.present = mask_object (c->mask) ;
    draw_operands_extra (c, st) ;
}

static void draw_case (uint64_t seed, long K, call_t *c)
{
    uint64_t st = case_state (seed, K) ;
    memset (c, 0, sizeof (*c)) ;
    c->op = opt.dense_sweep ? OP_MXM : pick_op (&st) ;
    if (is_ewise (c->op)) draw_ewise (c, &st) ;
    else if (is_assign (c->op)) draw_assign (c, &st) ;
    else if (c->op == OP_APPLY) draw_apply (c, &st) ;
    else
    {
        draw_product (c, &st, K) ;
        draw_dense_forms (seed, K, c) ;
    }
    avoid_suitesparse_bugs (c) ;
}

//------------------------------------------------------------------------------
// the run: totals for the summary
//------------------------------------------------------------------------------

static long n_calls [NOPS], n_matrix [NOPS], n_diff, n_gpu, n_host ;
static uint64_t reason_calls [GRBCUDA_NREASONS] ;
// the GPU families that ran, by name, and how often
#define NFAM 32
static const char *fam_seen [NFAM] ;
static uint64_t fam_calls [NFAM] ;

static void replay_command (long K, char *buf, size_t size)
{
    int n = snprintf (buf, size, "test_differential --seed %llu --case %ld",
        (unsigned long long) opt.seed, K) ;
    if (opt.pool != 64) n += snprintf (buf + n, size - n, " --pool %d", opt.pool) ;
    if (opt.ops_arg != NULL) snprintf (buf + n, size - n, " --ops %s", opt.ops_arg) ;
}

static void tally (const call_t *c, const path_t *p)
{
    n_calls [c->op]++ ;
    n_matrix [c->op] += c->matrix ;
    if (!p->gpu) { n_host++ ; reason_calls [p->reason > 0 ? p->reason : 0]++ ; return ; }
    n_gpu++ ;
    for (int f = 0 ; f < NFAM ; f++)
    {
        if (fam_seen [f] == NULL) fam_seen [f] = p->family ;
        if (strcmp (fam_seen [f], p->family) == 0) { fam_calls [f]++ ; break ; }
    }
}

static const char *path_str (const path_t *p)
{
    if (p->gpu) return p->family ;
    return p->reason > 0 ? grbcuda_reason_name ((grbcuda_reason) p->reason) : "uncounted" ;
}

// one random case; false if it differed
static bool run_case (long K)
{
    call_t c ;
    draw_case (opt.seed, K, &c) ;
    diff_t d ;
    path_t p = { false, NULL, -1, GrB_SUCCESS } ;
    char line [2048], replay [256] ;
    describe (&c, line, sizeof (line)) ;
    replay_command (K, replay, sizeof (replay)) ;
    if (opt.verbose)
    {
        // before the call, so that a crash still says what it was
        printf ("case %ld: %s", K, line) ;
        fflush (stdout) ;
    }
    const uint64_t sddmm0 = gcu_mxm_sddmm_runs () ;
    const bool same = run_call (&c, NULL, &d, &p) ;
    tally (&c, &p) ;
    const bool sddmm = gcu_mxm_sddmm_runs () > sddmm0 ;
    if (opt.dense_sweep && c.sr != NULL)
    {
        const int k = (int) (c.sr - srs), form = (int) (K % 2) ;
        sweep_tried [form][k] = true ;
        if (form == 0 ? p.gpu && p.family != NULL && strcmp (p.family, "spmm") == 0 : sddmm)
            sweep_ran [form][k] = true ;
    }
    if (opt.verbose)
    {
        printf (" -> %s %s%s, info %d: %s\n", p.gpu ? "GPU" : "host", path_str (&p),
            sddmm ? " (SDDMM)" : "", (int) p.info, same ? "same" : "DIFFERENT") ;
    }
    CHECK (same, "case %ld: %s: %s | replay: %s", K, line, d.text, replay) ;
    if (!same) n_diff++ ;
    return same ;
}

//------------------------------------------------------------------------------
// regressions: fixed cases (issue 18 and what it implies), deterministic
//------------------------------------------------------------------------------

typedef struct { GrB_Index n, cap ; GrB_Index *I, *J ; double *X ; } trip_t ;

static void trip_add (trip_t *t, GrB_Index i, GrB_Index j, double x)
{
    if (t->n == t->cap)
    {
        t->cap = t->cap ? 2 * t->cap : 64 ;
        t->I = realloc (t->I, t->cap * sizeof (GrB_Index)) ;
        t->J = realloc (t->J, t->cap * sizeof (GrB_Index)) ;
        t->X = realloc (t->X, t->cap * sizeof (double)) ;
    }
    t->I [t->n] = i ; t->J [t->n] = j ; t->X [t->n++] = x ;
}

static void trip_free (trip_t *t)
{
    free (t->I) ; free (t->J) ; free (t->X) ;
    memset (t, 0, sizeof (*t)) ;
}

// an operand made of the given entries (cast from FP64 by GrB_*_build)
static recipe_t explicit_recipe (int type, GrB_Index nrows, GrB_Index ncols,
    bool vector, const trip_t *t)
{
    recipe_t r ;
    memset (&r, 0, sizeof (r)) ;
    r.present = true ;
    r.vector = vector ;
    r.type = type ;
    r.nrows = nrows ;
    r.ncols = vector ? 1 : ncols ;
    r.sparsity = GxB_AUTO_SPARSITY ;
    r.dense_row = r.dense_col = -1 ;
    r.n = t->n ; r.I = t->I ; r.J = t->J ; r.X = t->X ;
    return r ;
}

static sr_t *sr_of (GrB_Semiring s) { return (sr_t *) sr_find (s) ; }

static int n_reg, n_reg_diff ;

static void reg_run (const char *name, const call_t *c, hook_f expect)
{
    diff_t d ;
    const bool same = c->sr != NULL && run_call (c, expect, &d, NULL) ;
    char line [2048] = "" ;
    if (c->sr != NULL) describe (c, line, sizeof (line)) ;
    CHECK (same, "regression %s: %s: %s | replay: test_differential --regressions", name,
        line, c->sr != NULL ? d.text : "semiring not found") ;
    n_reg++ ;
    if (!same) n_reg_diff++ ;
    if (opt.verbose) printf ("regression %s: %s\n", name, same ? "same" : "DIFFERENT") ;
}

// SuiteSparse's product alone (no mask, no accum) into a fresh object of the
// semiring's type: what a regression's C is made from
static GrB_Matrix oracle_product (const hook_ctx *h)
{
    recipe_t r = h->c->c ;
    r.type = h->c->sr->z ;
    GrB_Matrix T = obj_new (&r) ;
    GrB_Descriptor td = make_desc (h->c, true) ;
    call_op (h->c->op, true, T, NULL, NULL, h->c->sr->s, h->s2->X, h->s2->Y, td) ;
    GrB_Descriptor_free (&td) ;
    return T ;
}

// (1) complement of no mask: C unchanged, or cleared with GrB_REPLACE
static void expect_c_kept (hook_ctx *h)
{
    GrB_Matrix C0 = build_operand (&h->c->c) ;
    GrB_Index n0 = 0, n2 = 0 ;
    GrB_Matrix_nvals (&n0, C0) ;
    GrB_Matrix_nvals (&n2, h->s2->C) ;
    CHECK (n0 > 0, "regression: C must start with entries") ;
    if (h->c->replace) CHECK (n2 == 0, "SuiteSparse: GrB_REPLACE with !NULL mask leaves %llu entries", (unsigned long long) n2) ;
    else CHECK (gcu_test_matrix_equal (h->s2->C, C0, 0, false, "C kept"), "SuiteSparse changed C under !NULL mask") ;
    obj_free (&C0, h->c->c.vector) ;
}

// (2), (3): an entry whose products are all NaN is NaN (MIN and MAX ignore
// NaN only beside a number), and NaN cast to an integer is 0
static void expect_all_nan (hook_ctx *h)
{
    GrB_Matrix T = oracle_product (h) ;
    snap_t st, sc ;
    snap_take (&st, T) ;
    snap_take (&sc, h->s2->C) ;
    int nan_seen = 0, nan_in_c = 0, wrong = 0 ;
    for (GrB_Index q = 0 ; q < st.n ; q++)
    {
        if (!isnan (snap_value (&st, q).re)) continue ;
        nan_seen++ ;
        ijp_t key = { st.e [q].i, st.e [q].j, 0 } ;
        ijp_t *e = bsearch (&key, sc.e, sc.n, sizeof (ijp_t), cmp_ijp) ;
        if (e == NULL) continue ;
        val_t v = snap_value (&sc, (GrB_Index) (e - sc.e)) ;
        nan_in_c++ ;
        wrong += is_float (sc.type) ? !isnan (v.re) : v.u != 0 ;
    }
    CHECK (nan_seen > 0 && nan_in_c > 0 && wrong == 0, "regression: SuiteSparse's all-NaN "
        "entries: %d in the product, %d in C, %d of them not NaN (or 0 in an integer C)",
        nan_seen, nan_in_c, wrong) ;
    snap_free (&st) ; snap_free (&sc) ;
    obj_free (&T, h->c->c.vector) ;
}

// (4): an entry whose only products are -0 is -0 in SuiteSparse
static void expect_neg_zero (hook_ctx *h)
{
    snap_t sc ;
    snap_take (&sc, h->s2->C) ;
    int neg = 0 ;
    for (GrB_Index q = 0 ; q < sc.n ; q++)
    {
        double v = snap_value (&sc, q).re ;
        neg += v == 0 && signbit (v) ;
    }
    CHECK (neg > 0, "regression: SuiteSparse gave no -0 entry") ;
    snap_free (&sc) ;
}

static void reg_null_mask (void)
{
    struct { int op ; GrB_Semiring s ; GrB_Index m, k, n ; } shapes [NPRODUCTS] =
    {
        // the issue's case: GxB_BAND_BAND_UINT32, 118x47 times 47x161
        { OP_MXM, GxB_BAND_BAND_UINT32, 118, 47, 161 },
        { OP_MXV, GrB_PLUS_TIMES_SEMIRING_FP64, 50, 40, 1 },
        { OP_VXM, GxB_MIN_SECOND_INT32, 1, 40, 60 },
    } ;
    for (int k = 0 ; k < NPRODUCTS * 4 ; k++)
    {
        call_t c ;
        memset (&c, 0, sizeof (c)) ;
        c.op = shapes [k / 4].op ;
        c.sr = sr_of (shapes [k / 4].s) ;
        if (c.sr == NULL) { reg_run ("(1) complemented NULL mask", &c, NULL) ; continue ; }
        c.m = shapes [k / 4].m ; c.k = shapes [k / 4].k ; c.n = shapes [k / 4].n ;
        c.accum = -1 ;
        c.mask = (k % 2) ? MASK_NULL_COMP_STRUCT : MASK_NULL_COMP ;
        c.replace = (k / 2) % 2 ;
        uint64_t st = 18 + k ;
        const bool xv = c.op == OP_VXM, yv = c.op == OP_MXV, cv = c.op != OP_MXM ;
        draw_recipe (&c.x, &st, c.sr->x, xv ? c.k : c.m, c.k, xv, V_FULL) ;
        draw_recipe (&c.y, &st, c.sr->y, c.k, c.n, yv, V_FULL) ;
        draw_recipe (&c.c, &st, c.sr->z, cv ? c.m * c.n : c.m, c.n, cv, V_FULL) ;
        c.x.density = c.y.density = 0.2 ;
        c.c.density = 0.2 ;
        c.x.pending = c.y.pending = c.c.pending = false ;
        char name [96] ;
        snprintf (name, sizeof (name), "(1) %s, mask %s%s", op_name [c.op],
            mask_name [c.mask], c.replace ? ", GrB_REPLACE" : "") ;
        reg_run (name, &c, expect_c_kept) ;
    }
}

static call_t reg_call (int op, GrB_Semiring s, GrB_Index m, GrB_Index k, GrB_Index n,
    GrB_BinaryOp accum)
{
    call_t c ;
    memset (&c, 0, sizeof (c)) ;
    c.op = op ;
    c.sr = sr_of (s) ;
    c.m = m ; c.k = k ; c.n = n ;
    c.accum = accum != NULL ? binop_find (accum) : -1 ;
    c.mask = MASK_NONE ;
    return c ;
}

// a regression of the given operands (the matrix operand transposed or not),
// no mask: the shape follows from the operands
typedef struct { int op ; GrB_Semiring s ; GrB_BinaryOp accum ; bool tran, signed_zero ; } reg_kind ;

static void reg_make (const char *name, reg_kind kind, recipe_t x, recipe_t y, recipe_t c, hook_f expect)
{
    const GrB_Index k = (kind.op == OP_VXM) ? x.nrows : (kind.tran ? x.nrows : x.ncols) ;
    call_t call = reg_call (kind.op, kind.s, kind.op == OP_VXM ? 1 : c.nrows, k,
        kind.op == OP_MXM ? c.ncols : (kind.op == OP_VXM ? c.nrows : 1), kind.accum) ;
    call.tran0 = kind.tran && kind.op != OP_VXM ;
    call.tran1 = kind.tran && kind.op == OP_VXM ;
    call.signed_zero = kind.signed_zero ;
    call.x = x ; call.y = y ; call.c = c ;
    reg_run (name, &call, expect) ;
}

// the entries of w: value i % mod at every step-th i below n
static void trip_vector (trip_t *t, GrB_Index n, GrB_Index step, int mod)
{
    for (GrB_Index i = 0 ; i < n ; i += step) trip_add (t, i, 0, (double) (i % mod)) ;
}

static recipe_t mat (int type, GrB_Index nrows, GrB_Index ncols, const trip_t *t)
{
    return explicit_recipe (type, nrows, ncols, false, t) ;
}

static recipe_t vec (int type, GrB_Index n, const trip_t *t)
{
    return explicit_recipe (type, n, 1, true, t) ;
}

// (2) GxB_MIN_DIV_FP32 with A' (A: 86x34, one dense row, 34 entries) times
// B (86x92) into a UINT32 C with 182 entries, accum GrB_PLUS_FP64: x/0 is
// +-inf, 0/0 NaN, and an entry whose products are all NaN is NaN, which
// casts to 0 (a GPU seeding the monoid with its identity +inf gives
// 4294967295). Issue 18's case, then the same for mxv and vxm (5).
static void reg_min_div (void)
{
    static const double va [7] = { 0, 1, -2, 0.5, 3, 0, -1 }, vb [5] = { 0, 2, -1, 0, 4 } ;
    trip_t a = { 0 }, b = { 0 }, bt = { 0 }, c = { 0 }, u = { 0 }, w = { 0 }, u2 = { 0 }, w2 = { 0 } ;
    for (GrB_Index i = 0 ; i < 34 ; i++) trip_add (&a, 5, i, va [i % 7]) ;
    for (GrB_Index j = 0 ; j < 92 ; j++)
    {
        trip_add (&b, 5, j, vb [j % 5]) ;
        trip_add (&bt, j, 5, vb [j % 5]) ;
        // other rows of B meet no entry of A
        if (j % 4 == 0) for (GrB_Index r = 0 ; r < 86 ; r += 17) if (r != 5) trip_add (&b, r, j, 1 + j % 3) ;
    }
    // C: the all-NaN entries (0,0) and (5,3), +inf at (1,0), -inf at (2,0),
    // then others up to 182 distinct entries
    const GrB_Index first [4][2] = { { 0, 0 }, { 5, 3 }, { 1, 0 }, { 2, 0 } } ;
    for (int k = 0 ; k < 4 ; k++) trip_add (&c, first [k][0], first [k][1], 7) ;
    for (GrB_Index p = 0 ; c.n < 182 ; p++)
    {
        GrB_Index i = (p * 7 + 3) % 34, j = 1 + (p * 13) % 91 ;
        if (!(i == 5 && j == 3)) trip_add (&c, i, j, (double) (p % 9)) ;
    }
    // mxv: w += A'*u with u(5) = 0, every product A(5,i)/0; vxm: w' += u'*B'
    // with B stored 92x86, column 5 dense, u(5) = 0: products 0/B(j,5)
    trip_add (&u, 5, 0, 0) ; trip_add (&u, 3, 0, 7) ; trip_add (&u, 60, 0, -1) ;
    trip_add (&u2, 5, 0, 0) ; trip_add (&u2, 9, 0, 3) ;
    trip_vector (&w, 34, 1, 5) ;
    trip_vector (&w2, 92, 1, 4) ;
    const reg_kind k [NPRODUCTS] = { { OP_MXM, GxB_MIN_DIV_FP32, GrB_PLUS_FP64, true, false },
        { OP_MXV, GxB_MIN_DIV_FP32, GrB_PLUS_FP64, true, false },
        { OP_VXM, GxB_MIN_DIV_FP32, GrB_PLUS_FP64, true, false } } ;
    reg_make ("(2) GrB_mxm GxB_MIN_DIV_FP32 A'*B into UINT32, accum GrB_PLUS_FP64 (issue 18)", k [0],
        mat (T_FP32, 86, 34, &a), mat (T_FP32, 86, 92, &b), mat (T_UINT32, 34, 92, &c), expect_all_nan) ;
    reg_make ("(5) GrB_mxv GxB_MIN_DIV_FP32 A'*u into UINT32, accum GrB_PLUS_FP64", k [1],
        mat (T_FP32, 86, 34, &a), vec (T_FP32, 86, &u), vec (T_UINT32, 34, &w), expect_all_nan) ;
    reg_make ("(5) GrB_vxm GxB_MIN_DIV_FP32 u'*B' into UINT32, accum GrB_PLUS_FP64", k [2],
        vec (T_FP32, 86, &u2), mat (T_FP32, 92, 86, &bt), vec (T_UINT32, 92, &w2), expect_all_nan) ;
    trip_t *all [8] = { &a, &b, &bt, &c, &u, &w, &u2, &w2 } ;
    for (int q = 0 ; q < 8 ; q++) trip_free (all [q]) ;
}

// (3) GxB_MAX_DIV_FP64, three products an entry: all NaN (0/0 three times:
// NaN), NaN beside numbers (MAX ignores the NaN), +-inf; into FP64 and,
// through accum GrB_PLUS_FP64, into INT32. Then mxv and vxm (5), where u is
// 0 at the three rows: products A(r,i)/0 and 0/B(r,j).
static void reg_max_div (void)
{
    static const double va [5] = { 0, 1, -2, 0.5, 4 }, vb [4] = { 0, 2, -1, 0 } ;
    static const GrB_Index rows [3] = { 2, 7, 11 } ;
    trip_t a = { 0 }, b = { 0 }, c = { 0 }, u = { 0 }, none = { 0 } ;
    for (int q = 0 ; q < 3 ; q++)
    {
        const GrB_Index r = rows [q] ;
        for (GrB_Index i = 0 ; i < 10 ; i++) trip_add (&a, r, i, i == 0 ? 0 : va [(r + i) % 5]) ;
        for (GrB_Index j = 0 ; j < 12 ; j++) trip_add (&b, r, j, j == 0 ? 0 : vb [(3 * r + j) % 4]) ;
        trip_add (&u, r, 0, 0) ;
    }
    for (GrB_Index p = 0 ; p < 30 ; p++) trip_add (&c, p % 10, (p * 5) % 12, (double) p) ;
    const recipe_t A = mat (T_FP64, 20, 10, &a), B = mat (T_FP64, 20, 12, &b), U = vec (T_FP64, 20, &u) ;
    const reg_kind plain = { OP_MXM, GxB_MAX_DIV_FP64, NULL, true, false },
        acc = { OP_MXM, GxB_MAX_DIV_FP64, GrB_PLUS_FP64, true, false },
        mxv = { OP_MXV, GxB_MAX_DIV_FP64, NULL, true, false },
        vxm = { OP_VXM, GxB_MAX_DIV_FP64, NULL, false, false } ;
    reg_make ("(3) GrB_mxm GxB_MAX_DIV_FP64 A'*B into FP64", plain, A, B, mat (T_FP64, 10, 12, &none), expect_all_nan) ;
    reg_make ("(3) GrB_mxm GxB_MAX_DIV_FP64 A'*B into INT32, accum GrB_PLUS_FP64", acc, A, B,
        mat (T_INT32, 10, 12, &c), expect_all_nan) ;
    reg_make ("(5) GrB_mxv GxB_MAX_DIV_FP64 A'*u into FP64", mxv, A, U, vec (T_FP64, 10, &none), expect_all_nan) ;
    reg_make ("(5) GrB_vxm GxB_MAX_DIV_FP64 u'*B into FP64", vxm, U, B, vec (T_FP64, 12, &none), expect_all_nan) ;
    trip_free (&a) ; trip_free (&b) ; trip_free (&c) ; trip_free (&u) ;
}

// (4) GrB_PLUS_TIMES_SEMIRING_FP64 where an entry's only products are -0:
// SuiteSparse's sum is -0 (the first product, not the identity +0 plus
// it), which 1/x shows a program: here the sign of zero compares. Into an
// empty C and one with entries; then mxv and vxm (5).
static void reg_neg_zero (void)
{
    trip_t a = { 0 }, b = { 0 }, c = { 0 }, u = { 0 }, u2 = { 0 }, none = { 0 } ;
    // C(0,0) = -1*0 + 0*-2 = -0 + -0 ; C(1,1) = -0*5 ; C(2,0) = 3*0 = +0
    trip_add (&a, 0, 0, -1) ; trip_add (&a, 0, 1, 0) ; trip_add (&a, 1, 2, -0.0) ; trip_add (&a, 2, 0, 3) ;
    trip_add (&b, 0, 0, 0) ; trip_add (&b, 1, 0, -2) ; trip_add (&b, 2, 1, 5) ; trip_add (&b, 0, 2, 1) ;
    trip_add (&c, 0, 0, 7) ; trip_add (&c, 3, 3, 1) ;
    // mxv: w(0) = -1*0 + 0*-2, w(1) = -0*5; vxm: w(0) = -1*0 + 0*-2 (u'*B)
    trip_add (&u, 0, 0, 0) ; trip_add (&u, 1, 0, -2) ; trip_add (&u, 2, 0, 5) ;
    trip_add (&u2, 0, 0, -1) ; trip_add (&u2, 1, 0, 0) ;
    const recipe_t A = mat (T_FP64, 4, 3, &a), B = mat (T_FP64, 3, 4, &b) ;
    reg_kind k = { OP_MXM, GrB_PLUS_TIMES_SEMIRING_FP64, NULL, false, true } ;
    reg_make ("(4) GrB_mxm GrB_PLUS_TIMES_SEMIRING_FP64, products -0 only, C empty", k, A, B,
        mat (T_FP64, 4, 4, &none), expect_neg_zero) ;
    reg_make ("(4) GrB_mxm GrB_PLUS_TIMES_SEMIRING_FP64, products -0 only, C with entries", k, A, B,
        mat (T_FP64, 4, 4, &c), expect_neg_zero) ;
    k.op = OP_MXV ;
    reg_make ("(5) GrB_mxv GrB_PLUS_TIMES_SEMIRING_FP64, products -0 only", k, A, vec (T_FP64, 3, &u),
        vec (T_FP64, 4, &none), expect_neg_zero) ;
    k.op = OP_VXM ;
    reg_make ("(5) GrB_vxm GrB_PLUS_TIMES_SEMIRING_FP64, products -0 only", k, vec (T_FP64, 3, &u2), B,
        vec (T_FP64, 4, &none), expect_neg_zero) ;
    trip_free (&a) ; trip_free (&b) ; trip_free (&c) ; trip_free (&u) ; trip_free (&u2) ;
}

// (6): the sign of a NaN, which COPYSIGN shows: C(i,j) = copysign (5, T(i,j)).
// The host (x86) gives an invalid operation's NaN (inf - inf, 0 * inf) the
// sign bit and passes a NaN operand on with its sign, through casts too; the
// GPU's arithmetic gives one positive NaN (tester, seed 1541731170975788895,
// cases 690 and 9838: TIMES_MINUS_FP32 over an FC64 operand with infinities)
static void expect_neg_copysign (hook_ctx *h)
{
    snap_t sc ;
    snap_take (&sc, h->s2->C) ;
    int neg = 0, pos = 0 ;
    for (GrB_Index q = 0 ; q < sc.n ; q++)
    {
        double v = snap_value (&sc, q).re ;
        neg += v == -5 ;
        pos += v == 5 ;
    }
    CHECK (neg > 0 && pos > 0, "regression: SuiteSparse gave %d entries -5 and %d entries 5", neg, pos) ;
    snap_free (&sc) ;
}

static void reg_nan_sign (void)
{
    const double inf = INFINITY, nan_neg = -NAN, nan_pos = NAN ;
    trip_t a = { 0 }, b = { 0 }, c = { 0 }, u = { 0 }, w = { 0 } ;
    // A(i,0) * B(0,j), one product an entry; MINUS: A(i,0) - B(0,j)
    const double av [6] = { inf, 0, nan_neg, nan_pos, 2, -inf } ;
    const double bv [6] = { inf, inf, 3, 1, -0.5, -inf } ;
    for (GrB_Index i = 0 ; i < 6 ; i++) trip_add (&a, i, 0, av [i]) ;
    for (GrB_Index j = 0 ; j < 6 ; j++) trip_add (&b, 0, j, bv [j]) ;
    for (GrB_Index i = 0 ; i < 6 ; i++) for (GrB_Index j = 0 ; j < 6 ; j++) trip_add (&c, i, j, 5) ;
    trip_add (&u, 0, 0, inf) ;
    for (GrB_Index i = 0 ; i < 6 ; i++) trip_add (&w, i, 0, 5) ;
    const recipe_t A = mat (T_FP64, 6, 1, &a), B = mat (T_FP64, 1, 6, &b), U = vec (T_FP64, 1, &u) ;
    const GrB_Semiring srs [4] = { GxB_PLUS_MINUS_FP64, GxB_TIMES_MINUS_FP32,
        GrB_PLUS_TIMES_SEMIRING_FP32, GrB_PLUS_TIMES_SEMIRING_FP64 } ;
    const char *names [4] = { "GxB_PLUS_MINUS_FP64", "GxB_TIMES_MINUS_FP32",
        "GrB_PLUS_TIMES_SEMIRING_FP32", "GrB_PLUS_TIMES_SEMIRING_FP64" } ;
    for (int q = 0 ; q < 4 ; q++)
    {
        char name [160] ;
        reg_kind k = { OP_MXM, srs [q], GxB_COPYSIGN_FP64, false, false } ;
        snprintf (name, sizeof (name), "(6) GrB_mxm %s, NaN signs through accum GxB_COPYSIGN_FP64", names [q]) ;
        reg_make (name, k, A, B, mat (T_FP64, 6, 6, &c), expect_neg_copysign) ;
        k.op = OP_MXV ;
        snprintf (name, sizeof (name), "(6) GrB_mxv %s, NaN signs through accum GxB_COPYSIGN_FP64", names [q]) ;
        reg_make (name, k, A, U, vec (T_FP64, 6, &w), expect_neg_copysign) ;
    }
    trip_free (&a) ; trip_free (&b) ; trip_free (&c) ; trip_free (&u) ; trip_free (&w) ;
}

static void regressions (void)
{
    reg_null_mask () ;
    reg_min_div () ;
    reg_max_div () ;
    reg_neg_zero () ;
    reg_nan_sign () ;
    printf ("regressions: %d cases, %d different\n", n_reg, n_reg_diff) ;
}

//------------------------------------------------------------------------------
// self-test: perturbations of grbcuda's side must be reported; legitimate
// variations (an ANY monoid's other candidate, rounding under a tolerance,
// another NaN) must not
//------------------------------------------------------------------------------

// the first entry of A (as FP64) that pred admits
static bool entry_where (GrB_Matrix A, bool (*pred) (double), GrB_Index *i,
    GrB_Index *j, double *v)
{
    GrB_Index n = 0 ;
    GrB_Matrix_nvals (&n, A) ;
    GrB_Index *I = malloc ((n + 1) * sizeof (GrB_Index)), *J = malloc ((n + 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((n + 1) * sizeof (double)) ;
    bool found = false ;
    if (GrB_Matrix_extractTuples_FP64 (I, J, X, &n, A) == GrB_SUCCESS)
    {
        for (GrB_Index p = 0 ; p < n && !found ; p++)
        {
            if (pred (X [p])) { *i = I [p] ; *j = J [p] ; *v = X [p] ; found = true ; }
        }
    }
    free (I) ; free (J) ; free (X) ;
    return found ;
}

static bool any_value (double v) { (void) v ; return true ; }
static bool finite_value (double v) { return isfinite (v) ; }
static bool inf_value (double v) { return isinf (v) ; }
static bool nan_value (double v) { return isnan (v) ; }
static bool neg_zero (double v) { return v == 0 && signbit (v) ; }
static double ulp_up (double v) { return nextafter (v, INFINITY) ; }
static double to_nan (double v) { (void) v ; return NAN ; }
static double to_inf (double v) { (void) v ; return INFINITY ; }
static double plus_one (double v) { return v + 1 ; }
static double pos_zero (double v) { (void) v ; return 0.0 ; }
static double other_nan (double v)
{
    (void) v ;
    const uint64_t bits = 0xFFF8000000000ABCull ;      // a negative NaN, another payload
    double x ;
    memcpy (&x, &bits, sizeof (x)) ;
    return x ;
}

// replace the first entry pred admits by f (its value)
static void set_where (GrB_Matrix A, bool (*pred) (double), double (*f) (double))
{
    GrB_Index i, j ;
    double v ;
    if (entry_where (A, pred, &i, &j, &v)) GrB_Matrix_setElement_FP64 (A, f (v), i, j) ;
}

static void h_ulp (hook_ctx *h) { set_where (h->s1->C, finite_value, ulp_up) ; }
static void h_nan_for_inf (hook_ctx *h) { set_where (h->s1->C, inf_value, to_nan) ; }
static void h_inf_for_finite (hook_ctx *h) { set_where (h->s1->C, finite_value, to_inf) ; }
static void h_plus_one (hook_ctx *h) { set_where (h->s1->C, any_value, plus_one) ; }
static void h_pos_zero (hook_ctx *h) { set_where (h->s1->C, neg_zero, pos_zero) ; }
static void h_other_nan (hook_ctx *h) { set_where (h->s1->C, nan_value, other_nan) ; }
static void h_input (hook_ctx *h) { set_where (h->s1->X, finite_value, plus_one) ; }
static void h_info (hook_ctx *h) { h->o1->info = h->o1->info == GrB_SUCCESS ? GrB_INVALID_VALUE : GrB_SUCCESS ; }
static void h_error (hook_ctx *h) { h->o1->err = !h->o1->err ; }

static void h_add (hook_ctx *h)
{
    GrB_Index nr = 0, nc = 0 ;
    GrB_Matrix_nrows (&nr, h->s1->C) ;
    GrB_Matrix_ncols (&nc, h->s1->C) ;
    double v ;
    for (GrB_Index p = 0 ; p < nr * nc ; p++)
    {
        if (GrB_Matrix_extractElement_FP64 (&v, h->s1->C, p / nc, p % nc) != GrB_NO_VALUE) continue ;
        GrB_Matrix_setElement_FP64 (h->s1->C, 1, p / nc, p % nc) ;
        return ;
    }
}

static void h_remove (hook_ctx *h)
{
    GrB_Index i, j ;
    double v ;
    if (entry_where (h->s1->C, any_value, &i, &j, &v)) GrB_Matrix_removeElement (h->s1->C, i, j) ;
}

// an entry's own value set again: the content as it was, an iso C no
// longer iso
static void h_same_value (hook_ctx *h)
{
    GrB_Index i, j ;
    double v ;
    if (!entry_where (h->s1->C, any_value, &i, &j, &v)) return ;
    // (another value first: SuiteSparse keeps an iso C iso under its own)
    GrB_Matrix_setElement_FP64 (h->s1->C, v + 1, i, j) ;
    GrB_Matrix_wait (h->s1->C, GrB_MATERIALIZE) ;
    GrB_Matrix_setElement_FP64 (h->s1->C, v, i, j) ;
    GrB_Matrix_wait (h->s1->C, GrB_MATERIALIZE) ;
}

static void h_status (hook_ctx *h)
{
    int s = 0 ;
    GxB_Matrix_Option_get (h->s1->C, GxB_SPARSITY_STATUS, &s) ;
    GxB_Matrix_Option_set (h->s1->C, GxB_SPARSITY_CONTROL, s == GxB_BITMAP ? GxB_SPARSE : GxB_BITMAP) ;
}

static void h_format (hook_ctx *h)
{
    GxB_Format_Value f = GxB_BY_ROW ;
    GxB_Matrix_Option_get (h->s1->C, GxB_FORMAT, &f) ;
    GxB_Matrix_Option_set (h->s1->C, GxB_FORMAT, f == GxB_BY_ROW ? GxB_BY_COL : GxB_BY_ROW) ;
}

// ANY: C(0,0) := SuiteSparse's other candidate (1 or 5), or 9 (neither)
static void any_set (hook_ctx *h, bool candidate)
{
    double v = 0 ;
    GrB_Matrix_extractElement_FP64 (&v, h->s2->C, 0, 0) ;
    GrB_Matrix_setElement_FP64 (h->s1->C, candidate ? (v == 1 ? 5 : 1) : 9, 0, 0) ;
}
static void h_other_candidate (hook_ctx *h) { any_set (h, true) ; }
static void h_no_candidate (hook_ctx *h) { any_set (h, false) ; }
static void h_outside_product (hook_ctx *h) { GrB_Matrix_setElement_FP64 (h->s1->C, 3, 1, 0) ; }

typedef struct { const char *name ; hook_f hook ; bool reported ; } st_item ;

static void st_table (const char *what, const call_t *c, const st_item *items, int n)
{
    for (int k = 0 ; k < n ; k++)
    {
        diff_t d = { "the call is not ready", 1 } ;
        const bool same = call_ready (c) && run_call (c, items [k].hook, &d, NULL) ;
        CHECK (same != items [k].reported, "self-test %s, %s: %s", what, items [k].name,
            items [k].reported ? "not reported" : d.text) ;
        printf ("self-test: %-28s %-40s %s%s\n", what, items [k].name,
            same ? "accepted" : "reported: ", same ? "" : d.text) ;
    }
}

#define NITEMS(a) ((int) (sizeof (a) / sizeof ((a) [0])))

// A (4x3, row 3 empty) and B (3x3) with +-inf: MIN_PLUS and PLUS_TIMES
// give +-inf, NaN and finite values, and C(3,:) no entry
static void st_exact_and_tolerant (void)
{
    static const double A [4][3] = { { 1, 2, NAN }, { -INFINITY, 3, INFINITY },
        { 4, NAN, -INFINITY }, { NAN, NAN, NAN } } ;
    static const double B [3][3] = { { 1, NAN, 2 }, { 5, 1, NAN }, { NAN, 2, 3 } } ;
    trip_t a = { 0 }, b = { 0 }, none = { 0 } ;
    for (GrB_Index p = 0 ; p < 12 ; p++)
    {
        // NaN marks no entry here
        if (!isnan (A [p / 3][p % 3])) trip_add (&a, p / 3, p % 3, A [p / 3][p % 3]) ;
        if (p < 9 && !isnan (B [p / 3][p % 3])) trip_add (&b, p / 3, p % 3, B [p / 3][p % 3]) ;
    }
    static const st_item exact [] = {
        { "no perturbation", NULL, false }, { "one value one ulp up", h_ulp, true },
        { "an entry added", h_add, true }, { "an entry removed", h_remove, true },
        { "sparsity status changed (a note)", h_status, false }, { "format changed", h_format, true },
        { "info changed", h_info, true }, { "GrB_error message set", h_error, true },
        { "NaN for an infinity", h_nan_for_inf, true }, { "inf for a finite value", h_inf_for_finite, true },
        { "input A changed", h_input, true } } ;
    static const st_item tolerant [] = {
        { "no perturbation", NULL, false }, { "one ulp up (in the tolerance)", h_ulp, false },
        { "NaN for an infinity", h_nan_for_inf, true }, { "inf for a finite value", h_inf_for_finite, true },
        { "a value + 1", h_plus_one, true }, { "a NaN of another payload", h_other_nan, false } } ;
    static const st_item integer [] = { { "no perturbation", NULL, false }, { "a value + 1", h_plus_one, true } } ;
    call_t c = reg_call (OP_MXM, GrB_MIN_PLUS_SEMIRING_FP64, 4, 3, 3, NULL) ;
    c.x = explicit_recipe (T_FP64, 4, 3, false, &a) ;
    c.y = explicit_recipe (T_FP64, 3, 3, false, &b) ;
    c.c = explicit_recipe (T_FP64, 4, 3, false, &none) ;
    st_table ("MIN_PLUS_FP64 (exact)", &c, exact, NITEMS (exact)) ;
    c.sr = sr_of (GrB_PLUS_TIMES_SEMIRING_FP64) ;
    st_table ("PLUS_TIMES_FP64 (tolerance)", &c, tolerant, NITEMS (tolerant)) ;
    c.sr = sr_of (GrB_PLUS_TIMES_SEMIRING_INT32) ;
    c.x.type = c.y.type = c.c.type = T_INT32 ;
    st_table ("PLUS_TIMES_INT32", &c, integer, NITEMS (integer)) ;
    // a vector: w = A*u
    c = reg_call (OP_MXV, GrB_PLUS_TIMES_SEMIRING_FP64, 4, 3, 1, NULL) ;
    c.x = explicit_recipe (T_FP64, 4, 3, false, &a) ;
    trip_t u = { 0 } ;
    trip_vector (&u, 3, 2, 3) ;
    c.y = explicit_recipe (T_FP64, 3, 1, true, &u) ;
    c.c = explicit_recipe (T_FP64, 4, 1, true, &none) ;
    static const st_item vec [] = { { "no perturbation", NULL, false }, { "an entry added", h_add, true },
        { "sparsity status changed (a note)", h_status, false }, { "info changed", h_info, true } } ;
    st_table ("GrB_mxv PLUS_TIMES_FP64", &c, vec, NITEMS (vec)) ;
    trip_free (&a) ; trip_free (&b) ; trip_free (&u) ;
}

// an ANY result whose C(0,0) may be 1 or 5
static const st_item any_items [] = { { "no perturbation", NULL, false },
    { "the other candidate", h_other_candidate, false }, { "no candidate's value", h_no_candidate, true },
    { "an entry removed", h_remove, true } } ;

// ANY_FIRST_INT32: C(0,0) = A(0,0) or A(0,1), 1 or 5; with accum, C(1,0)
// is outside the product and must stay exact
static void st_any (void)
{
    trip_t a = { 0 }, b = { 0 }, none = { 0 }, c1 = { 0 } ;
    trip_add (&a, 0, 0, 1) ; trip_add (&a, 0, 1, 5) ;
    trip_add (&b, 0, 0, 1) ; trip_add (&b, 1, 0, 1) ;
    trip_add (&c1, 1, 0, 4) ;
    call_t c = reg_call (OP_MXM, GxB_ANY_FIRST_INT32, 2, 2, 1, NULL) ;
    c.x = explicit_recipe (T_INT32, 2, 2, false, &a) ;
    c.y = explicit_recipe (T_INT32, 2, 1, false, &b) ;
    c.c = explicit_recipe (T_INT32, 2, 1, false, &none) ;
    st_table ("ANY_FIRST_INT32 (MIN..MAX)", &c, any_items, NITEMS (any_items)) ;
    c.accum = binop_find (GrB_PLUS_INT32) ;
    c.c = explicit_recipe (T_INT32, 2, 1, false, &c1) ;
    static const st_item outside [] = { { "no perturbation", NULL, false },
        { "the other candidate", h_other_candidate, false }, { "outside the product", h_outside_product, true } } ;
    st_table ("ANY_FIRST_INT32 += (pattern)", &c, outside, NITEMS (outside)) ;
    trip_free (&a) ; trip_free (&b) ; trip_free (&c1) ;
}

// the sign of zero compares only where the call says so (regression 4)
static void st_signed_zero (void)
{
    // (C of two entries, -0 and +0: not iso, so that the perturbation's
    // setElement leaves its iso status as it was)
    trip_t a = { 0 }, b = { 0 }, none = { 0 } ;
    trip_add (&a, 0, 0, -1) ; trip_add (&a, 1, 0, 2) ; trip_add (&b, 0, 0, 0) ;
    call_t c = reg_call (OP_MXM, GrB_PLUS_TIMES_SEMIRING_FP64, 2, 1, 1, NULL) ;
    c.x = explicit_recipe (T_FP64, 2, 1, false, &a) ;
    c.y = explicit_recipe (T_FP64, 1, 1, false, &b) ;
    c.c = explicit_recipe (T_FP64, 2, 1, false, &none) ;
    static const st_item plain [] = { { "+0 for -0", h_pos_zero, false } } ;
    st_table ("PLUS_TIMES_FP64 -0", &c, plain, 1) ;
    c.signed_zero = true ;
    static const st_item sign [] = { { "no perturbation", NULL, false }, { "+0 for -0", h_pos_zero, true } } ;
    st_table ("PLUS_TIMES_FP64 -0 (signed)", &c, sign, NITEMS (sign)) ;
    trip_free (&a) ; trip_free (&b) ;
}

// a result's iso status compares (SuiteSparse's C of one entry with no mask
// is iso; one written again is not)
static void st_iso (void)
{
    trip_t a = { 0 }, b = { 0 }, none = { 0 } ;
    trip_add (&a, 0, 0, 3) ; trip_add (&b, 0, 0, 2) ;
    call_t c = reg_call (OP_MXM, GrB_PLUS_TIMES_SEMIRING_FP64, 1, 1, 1, NULL) ;
    c.x = explicit_recipe (T_FP64, 1, 1, false, &a) ;
    c.y = explicit_recipe (T_FP64, 1, 1, false, &b) ;
    c.c = explicit_recipe (T_FP64, 1, 1, false, &none) ;
    static const st_item items [] = { { "no perturbation", NULL, false },
        { "its value set again (not iso)", h_same_value, true } } ;
    st_table ("PLUS_TIMES_FP64 iso", &c, items, NITEMS (items)) ;
    trip_free (&a) ; trip_free (&b) ;
}

static void h_inf_at_0 (hook_ctx *h) { GrB_Matrix_setElement_FP64 (h->s1->C, INFINITY, 0, 0) ; }
static void h_inf_at_1 (hook_ctx *h) { GrB_Matrix_setElement_FP64 (h->s1->C, INFINITY, 1, 0) ; }

// MIN_FIRST_FP32 with an accum: C(0,0)'s one term is NaN (NaN or the
// identity +inf, as SuiteSparse's method has it), C(1,0)'s terms are NaN
// and 3 (3, exactly)
static void st_nan_terms (void)
{
    trip_t a = { 0 }, b = { 0 }, none = { 0 } ;
    trip_add (&a, 0, 0, NAN) ; trip_add (&a, 1, 0, NAN) ; trip_add (&a, 1, 1, 3) ;
    trip_add (&b, 0, 0, 1) ; trip_add (&b, 1, 0, 1) ;
    call_t c = reg_call (OP_MXM, GxB_MIN_FIRST_FP32, 2, 2, 1, GrB_PLUS_FP32) ;
    c.x = explicit_recipe (T_FP32, 2, 2, false, &a) ;
    c.y = explicit_recipe (T_FP32, 2, 1, false, &b) ;
    c.c = explicit_recipe (T_FP32, 2, 1, false, &none) ;
    static const st_item items [] = { { "no perturbation", NULL, false },
        { "+inf for an all-NaN sum", h_inf_at_0, false }, { "+inf for a sum with a 3", h_inf_at_1, true } } ;
    st_table ("MIN_FIRST_FP32 NaN terms", &c, items, NITEMS (items)) ;
    trip_free (&a) ; trip_free (&b) ;
}

static void h_set_00 (hook_ctx *h) { GrB_Matrix_setElement_FP64 (h->s1->C, 1.5, 0, 0) ; }
static void h_set_10 (hook_ctx *h) { GrB_Matrix_setElement_FP64 (h->s1->C, 6.5, 1, 0) ; }

// PLUS_TIMES_FP64: C(0,0)'s terms 1e300, 1 and -1e300 sum to 0 or 1 by
// order (1.5 is within their rounding), C(1,0)'s 1, 2 and 3 to 6 in any
// order (6.5 is not)
static void st_sum_terms (void)
{
    trip_t a = { 0 }, b = { 0 }, none = { 0 } ;
    trip_add (&a, 0, 0, 1e300) ; trip_add (&a, 0, 1, 1) ; trip_add (&a, 0, 2, -1e300) ;
    trip_add (&a, 1, 0, 1) ; trip_add (&a, 1, 1, 2) ; trip_add (&a, 1, 2, 3) ;
    trip_add (&b, 0, 0, 1) ; trip_add (&b, 1, 0, 1) ; trip_add (&b, 2, 0, 1) ;
    call_t c = reg_call (OP_MXM, GrB_PLUS_TIMES_SEMIRING_FP64, 2, 3, 1, NULL) ;
    c.x = explicit_recipe (T_FP64, 2, 3, false, &a) ;
    c.y = explicit_recipe (T_FP64, 3, 1, false, &b) ;
    c.c = explicit_recipe (T_FP64, 2, 1, false, &none) ;
    static const st_item items [] = { { "no perturbation", NULL, false },
        { "1.5 for a sum cancelling 1e300", h_set_00, false }, { "6.5 for 1+2+3", h_set_10, true } } ;
    st_table ("PLUS_TIMES_FP64 huge terms", &c, items, NITEMS (items)) ;
    trip_free (&a) ; trip_free (&b) ;
}

static int monoid_find (GrB_Monoid m)
{
    for (int k = 0 ; k < nmonoids ; k++) if (monoids [k].m == m) return k ;
    return -1 ;
}

// an element-wise call of obj (a GrB_BinaryOp, or a GrB_Monoid for
// K_MONOID), m x n, no mask, no accum
static call_t st_ewise_call (int op, bool matrix, int kind, const void *obj, GrB_Index m, GrB_Index n)
{
    call_t c ;
    memset (&c, 0, sizeof (c)) ;
    c.op = op ; c.matrix = matrix ; c.kind = kind ;
    c.m = m ; c.n = n ; c.k = 1 ;
    c.accum = -1 ;
    c.mask = MASK_NONE ;
    c.index = kind == K_MONOID ? monoid_find ((GrB_Monoid) obj) : binop_find ((GrB_BinaryOp) obj) ;
    c.bop = c.index < 0 ? -1 : esig_op (kind, c.index, op == OP_EWISE_MULT) ;
    return c ;
}

static scal_t st_scalar (int t, const void *x, size_t size)
{
    scal_t a = { t, S_VALUE, { 0, 0 } } ;
    memcpy (a.v, x, size) ;
    return a ;
}

// u and v of length 4 as A and B, of type t, into an empty C
static void st_vectors (call_t *c, int t, const trip_t *u, const trip_t *v)
{
    static const trip_t none = { 0 } ;
    c->x = explicit_recipe (t, 4, 1, true, u) ;
    c->y = explicit_recipe (t, 4, 1, true, v) ;
    c->c = explicit_recipe (t, 4, 1, true, &none) ;
}

// eWiseAdd, eWiseMult, eWiseUnion of vectors and matrices: exact, and under
// an ANY operator SuiteSparse's FIRST or SECOND answer
static void st_ewise (void)
{
    trip_t u = { 0 }, v = { 0 }, a = { 0 }, b = { 0 }, none = { 0 } ;
    trip_add (&u, 0, 0, 1) ; trip_add (&u, 2, 0, 2.5) ;
    trip_add (&v, 0, 0, 5) ; trip_add (&v, 1, 0, -3) ;
    trip_add (&a, 0, 0, 2) ; trip_add (&a, 1, 0, 3) ; trip_add (&a, 2, 1, 4) ;     // A' is 2x3
    trip_add (&b, 0, 0, 5) ; trip_add (&b, 0, 1, 6) ; trip_add (&b, 1, 2, -1) ;
    call_t c = st_ewise_call (OP_EWISE_ADD, false, K_BINOP, GrB_MINUS_FP64, 4, 1) ;
    st_vectors (&c, T_FP64, &u, &v) ;
    static const st_item add [] = { { "no perturbation", NULL, false }, { "one value one ulp up", h_ulp, true },
        { "an entry added", h_add, true }, { "an entry removed", h_remove, true },
        { "sparsity status changed (a note)", h_status, false }, { "info changed", h_info, true },
        { "GrB_error message set", h_error, true }, { "input u changed", h_input, true } } ;
    st_table ("GrB_Vector_eWiseAdd_BinaryOp MINUS_FP64", &c, add, NITEMS (add)) ;
    c = st_ewise_call (OP_EWISE_MULT, true, K_MONOID, GrB_TIMES_MONOID_INT32, 2, 3) ;
    c.tran0 = true ;
    c.x = explicit_recipe (T_INT32, 3, 2, false, &a) ;
    c.y = explicit_recipe (T_INT32, 2, 3, false, &b) ;
    c.c = explicit_recipe (T_INT32, 2, 3, false, &none) ;
    static const st_item mult [] = { { "no perturbation", NULL, false }, { "a value + 1", h_plus_one, true },
        { "an entry removed", h_remove, true }, { "format changed", h_format, true } } ;
    st_table ("GrB_Matrix_eWiseMult_Monoid TIMES_INT32 A'", &c, mult, NITEMS (mult)) ;
    const double alpha = 10 ;
    const int32_t beta = -1 ;
    c = st_ewise_call (OP_EWISE_UNION, false, K_BINOP, GrB_MINUS_FP64, 4, 1) ;
    st_vectors (&c, T_FP64, &u, &v) ;
    c.alpha = st_scalar (T_FP64, &alpha, sizeof (alpha)) ;
    c.beta = st_scalar (T_INT32, &beta, sizeof (beta)) ;
    static const st_item uni [] = { { "no perturbation", NULL, false }, { "a value + 1", h_plus_one, true },
        { "an entry removed", h_remove, true } } ;
    st_table ("GxB_Vector_eWiseUnion MINUS_FP64", &c, uni, NITEMS (uni)) ;
    // ANY: C(0,0) is u(0) = 1 or v(0) = 5
    c = st_ewise_call (OP_EWISE_ADD, false, K_BINOP, GxB_ANY_INT32, 4, 1) ;
    st_vectors (&c, T_INT32, &u, &v) ;
    st_table ("GrB_Vector_eWiseAdd_BinaryOp ANY_INT32", &c, any_items, NITEMS (any_items)) ;
    trip_free (&u) ; trip_free (&v) ; trip_free (&a) ; trip_free (&b) ;
}

// GrB_Vector_assign and a typed scalar form, over GrB_ALL and a list with
// an index out of range
static void st_assign (void)
{
    trip_t u = { 0 }, w = { 0 }, m = { 0 } ;
    trip_add (&u, 0, 0, 7) ; trip_add (&u, 1, 0, -2) ; trip_add (&u, 3, 0, 4) ;
    trip_add (&w, 1, 0, 1.5) ; trip_add (&w, 2, 0, 3) ;
    trip_add (&m, 0, 0, 1) ; trip_add (&m, 1, 0, 2) ; trip_add (&m, 2, 0, 0) ;
    call_t c ;
    memset (&c, 0, sizeof (c)) ;
    c.op = OP_ASSIGN ;
    c.m = 4 ; c.n = c.k = 1 ;
    c.accum = binop_find (GrB_PLUS_FP64) ;
    c.mask = MASK_VALUED ;
    c.ikind = I_ALL ;
    c.ni = 4 ;
    c.x = explicit_recipe (T_INT32, 4, 1, true, &u) ;
    c.c = explicit_recipe (T_FP64, 4, 1, true, &w) ;
    c.mk = explicit_recipe (T_FP32, 4, 1, true, &m) ;
    static const st_item vec [] = { { "no perturbation", NULL, false }, { "a value + 1", h_plus_one, true },
        { "an entry added", h_add, true }, { "input u changed", h_input, true } } ;
    st_table ("GrB_Vector_assign w<M> += u", &c, vec, NITEMS (vec)) ;
    const int8_t x = -128 ;
    c.op = OP_ASSIGN_SCALAR ;
    c.x.present = false ;
    c.xs = st_scalar (T_INT8, &x, sizeof (x)) ;
    static const st_item sca [] = { { "no perturbation", NULL, false }, { "a value + 1", h_plus_one, true },
        { "an entry removed", h_remove, true } } ;
    st_table ("GrB_Vector_assign_INT8 w<M> += -128", &c, sca, NITEMS (sca)) ;
    c.ikind = I_LIST ;
    c.ni = 2 ;
    c.bad_index = true ;
    static const st_item bad [] = { { "no perturbation", NULL, false }, { "info changed", h_info, true } } ;
    st_table ("GrB_Vector_assign_INT8, index out of range", &c, bad, NITEMS (bad)) ;
    trip_free (&u) ; trip_free (&w) ; trip_free (&m) ;
}

static void self_test (void)
{
    st_exact_and_tolerant () ;
    st_any () ;
    st_signed_zero () ;
    st_iso () ;
    st_nan_terms () ;
    st_sum_terms () ;
    st_ewise () ;
    st_assign () ;
    // random cases: each agrees, and a changed info or GrB_error is reported
    static const st_item rnd [] = { { "no perturbation", NULL, false },
        { "info changed", h_info, true }, { "GrB_error message set", h_error, true } } ;
    for (long K = 0 ; K < 24 ; K++)
    {
        call_t c ;
        draw_case (18, K, &c) ;
        char what [64] ;
        snprintf (what, sizeof (what), "random case %ld (seed 18)", K) ;
        st_table (what, &c, rnd, NITEMS (rnd)) ;
    }
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

static void usage (void)
{
    fprintf (stderr, "usage: test_differential [--calls N] [--seed S] [--case K] [--shard I/N]\n"
        "    [--ops mxm,mxv,vxm,assign,assign_scalar,ewise_add,ewise_mult,ewise_union,apply]\n"
        "    [--pool P] [--max-fail F] [--seconds S] [--verbose] [--progress]\n"
        "    [--regressions] [--no-regressions] [--self-test] [--dense-sweep] [--one-based]\n") ;
}

// a comma-separated list of op_token names; false if one is unknown or none given
static bool parse_ops (const char *s)
{
    bool any = false ;
    for (int o = 0 ; o < NOPS ; o++) opt.ops [o] = false ;
    opt.ops_arg = s ;
    while (*s != '\0')
    {
        const size_t n = strcspn (s, ",") ;
        int o = 0 ;
        while (o < NOPS && (strlen (op_token [o]) != n || strncmp (s, op_token [o], n) != 0)) o++ ;
        if (o == NOPS) return false ;
        opt.ops [o] = any = true ;
        s += n + (s [n] == ',') ;
    }
    return any ;
}

static bool parse_args (int argc, char **argv)
{
    for (int a = 1 ; a < argc ; a++)
    {
        const char *s = argv [a], *v = (a + 1 < argc) ? argv [a + 1] : NULL ;
        bool ok = true, takes = true ;
        if (strcmp (s, "--calls") == 0 && v) opt.calls = strtol (v, NULL, 0) ;
        else if (strcmp (s, "--seed") == 0 && v) { opt.seed = strtoull (v, NULL, 0) ; opt.seeded = true ; }
        else if (strcmp (s, "--case") == 0 && v) opt.only = strtol (v, NULL, 0) ;
        else if (strcmp (s, "--shard") == 0 && v) ok = sscanf (v, "%ld/%ld", &opt.shard_i, &opt.shard_n) == 2
            && opt.shard_n > 0 && opt.shard_i >= 0 && opt.shard_i < opt.shard_n ;
        else if (strcmp (s, "--ops") == 0 && v) ok = parse_ops (v) ;
        else if (strcmp (s, "--pool") == 0 && v) opt.pool = atoi (v) ;
        else if (strcmp (s, "--max-fail") == 0 && v) opt.max_fail = strtol (v, NULL, 0) ;
        else if (strcmp (s, "--seconds") == 0 && v) ok = (opt.seconds = strtod (v, NULL)) > 0 ;
        else
        {
            takes = false ;
            if (strcmp (s, "--verbose") == 0) opt.verbose = true ;
            else if (strcmp (s, "--progress") == 0) opt.progress = true ;
            else if (strcmp (s, "--self-test") == 0) opt.self_test = true ;
            else if (strcmp (s, "--regressions") == 0) opt.regressions_only = true ;
            else if (strcmp (s, "--no-regressions") == 0) opt.no_regressions = true ;
            else if (strcmp (s, "--dense-sweep") == 0) opt.dense_sweep = true ;
            else if (strcmp (s, "--one-based") == 0) one_based_in = true ;
            else ok = false ;
        }
        if (!ok) { fprintf (stderr, "test_differential: bad argument %s\n", s) ; usage () ; return false ; }
        a += takes ;
    }
    return true ;
}

static void defaults (bool gpu)
{
    const char *s = getenv ("GRBCUDA_DIFF_SEED") ;
    if (!opt.seeded && s != NULL && s [0] != '\0') { opt.seed = strtoull (s, NULL, 0) ; opt.seeded = true ; }
    if (!opt.seeded)
    {
        struct timespec ts ;
        clock_gettime (CLOCK_REALTIME, &ts) ;
        uint64_t st = ((uint64_t) ts.tv_sec << 30) ^ (uint64_t) ts.tv_nsec ^ ((uint64_t) getpid () << 48) ;
        opt.seed = gcu_rand (&st) ;
    }
    s = getenv ("GRBCUDA_DIFF_CALLS") ;
    if (opt.calls < 0 && s != NULL && s [0] != '\0') opt.calls = strtol (s, NULL, 0) ;
    if (opt.calls < 0 && !opt.dense_sweep) opt.calls = gpu ? 400 : 3000 ;
    s = getenv ("GRBCUDA_DIFF_POOL") ;
    if (opt.pool < 0) opt.pool = (s != NULL && s [0] != '\0') ? atoi (s) : 64 ;
}

// "mxm 10, mxv 4, ..., ewise_add 7 (3 of matrices), ..."
static void summary_calls (char *buf, size_t size)
{
    size_t n = 0 ;
    buf [0] = '\0' ;
    for (int o = 0 ; o < NOPS && n < size ; o++)
    {
        n += snprintf (buf + n, size - n, "%s%s %ld", o ? ", " : "", op_token [o], n_calls [o]) ;
        if (is_ewise (o) && n < size) n += snprintf (buf + n, size - n, " (%ld of matrices)", n_matrix [o]) ;
    }
}

// --dense-sweep: the semirings each form ran on the GPU for, of those the
// run (or shard) had a case of, and the first of those it did not
static void sweep_summary (void)
{
    static const char *const form [2] = { "SpMM", "SDDMM" } ;
    for (int f = 0 ; f < 2 ; f++)
    {
        long ran = 0, reached = 0 ;
        char missed [512] = "" ;
        size_t m = 0 ;
        for (long k = 0 ; k < nsrs ; k++)
        {
            if (!sweep_tried [f][k]) continue ;
            reached++ ;
            if (sweep_ran [f][k]) { ran++ ; continue ; }
            if (m < sizeof (missed) - 80)
                m += (size_t) snprintf (missed + m, sizeof (missed) - m, "%s%s", m ? ", " : "", srs [k].name) ;
        }
        printf ("dense sweep: %s ran on the GPU for %ld of %ld built-in semirings%s%s\n", form [f], ran,
            reached, m ? "; not for: " : "", missed) ;
    }
}

static void summary (double seconds)
{
    char gpu [512] = "", host [512] = "", calls [512] ;
    size_t g = 0, h = 0 ;
    long total = 0 ;
    for (int o = 0 ; o < NOPS ; o++) total += n_calls [o] ;
    summary_calls (calls, sizeof (calls)) ;
    for (int f = 0 ; f < NFAM && fam_seen [f] != NULL ; f++)
    {
        g += snprintf (gpu + g, sizeof (gpu) - g, "%s%s: %llu", g ? ", " : "", fam_seen [f],
            (unsigned long long) fam_calls [f]) ;
    }
    for (int r = 0 ; r < GRBCUDA_NREASONS ; r++)
    {
        if (reason_calls [r] == 0) continue ;
        h += snprintf (host + h, sizeof (host) - h, "%s%s: %llu", h ? ", " : "",
            r > 0 ? grbcuda_reason_name ((grbcuda_reason) r) : "uncounted", (unsigned long long) reason_calls [r]) ;
    }
    if (iso_notes > 0)
    {
        // (which operations' results)
        char by [400] = "" ;
        int b = 0 ;
        for (int k = 0 ; k < NOPS ; k++)
            if (iso_notes_c [k] > 0 && b < (int) sizeof (by) - 40)
                b += snprintf (by + b, sizeof (by) - b, "%s%s %d", b ? ", " : "", op_token [k], iso_notes_c [k]) ;
        printf ("note: %d objects differ in iso status; results of %s; of them %d results empty or of one "
            "entry under a mask, where SuiteSparse's methods give either status (not a failure)\n", iso_notes,
            b ? by : "none", iso_either) ;
    }
    if (nan_term_notes > 0)
        printf ("note: %ld entries of MIN/MAX products whose terms are all NaN read as NaN or the identity (not a failure)\n",
            nan_term_notes) ;
    if (sum_term_notes > 0)
        printf ("note: %ld entries of sums differ within their terms' rounding (a huge term absorbs small ones in either order; not a failure)\n",
            sum_term_notes) ;
    if (n_one_based > 0) printf ("note: %d semirings with 1-based positional multipliers left out "
        "(SuiteSparse 7.4 is no oracle for them)\n", n_one_based) ;
    if (status_notes > 0) printf ("note: %d results differ in sparsity status only (not a failure; the "
        "first: grbcuda %s)\n", status_notes, status_example) ;
    printf ("dense forms: %llu GrB_mxm calls ran as SDDMM (masked dot family, dense operands)\n",
        (unsigned long long) gcu_mxm_sddmm_runs ()) ;
    if (opt.dense_sweep) sweep_summary () ;
    printf ("differential: seed %llu, %ld calls (%s), %ld on the GPU (%s), %ld on the host (%s), "
        "%ld operands device newest, %ld differences, %.1f s\n", (unsigned long long) opt.seed,
        total, calls, n_gpu, g ? gpu : "none", n_host, h ? host : "none", n_newest, n_diff, seconds) ;
}

int main (int argc, char **argv)
{
    if (!parse_args (argc, argv)) return 2 ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    grbcuda_set_mode (GRBCUDA_MODE_GPU) ;
    const bool gpu = grbcuda_gpu_available () != 0 ;
    defaults (gpu) ;
    printf ("differential: seed %llu (replay a case: test_differential --seed %llu --case K)\n",
        (unsigned long long) opt.seed, (unsigned long long) opt.seed) ;
    fflush (stdout) ;
    gcu_test_types_init () ;
    real_mxm = (mxm_t) gcu_test_real ("GrB_mxm") ;
    real_mxv = (mxv_t) gcu_test_real ("GrB_mxv") ;
    real_vxm = (vxm_t) gcu_test_real ("GrB_vxm") ;
    CHECK (real_mxm && real_mxv && real_vxm, "SuiteSparse's GrB_mxm/mxv/vxm not found") ;
    if (!real_mxm || !real_mxv || !real_vxm || !real_fns_init () || !catalogue_init ())
        return gcu_test_report ("test_differential") ;
    pool_init (opt.self_test ? 18 : opt.seed, opt.pool) ;
    if (opt.dense_sweep)
    {
        for (int f = 0 ; f < 2 ; f++)
        {
            sweep_ran [f] = calloc ((size_t) nsrs + 1, sizeof (bool)) ;
            sweep_tried [f] = calloc ((size_t) nsrs + 1, sizeof (bool)) ;
        }
        if (opt.calls < 0) opt.calls = 2 * (long) nsrs ;     // every semiring in both forms
    }
    epool_init (opt.self_test ? 18 : opt.seed, opt.pool) ;
    const double t0 = gcu_now () ;
    if (opt.self_test) self_test () ;
    else
    {
        if (opt.regressions_only || (!opt.no_regressions && opt.shard_i == 0)) regressions () ;
        long nfail = 0 ;
        const long first = opt.only >= 0 ? opt.only : 0, last = opt.only >= 0 ? opt.only + 1 : opt.calls ;
        for (long K = first ; K < last && !opt.regressions_only ; K++)
        {
            if (K % opt.shard_n != opt.shard_i && opt.only < 0) continue ;
            if (opt.seconds > 0 && gcu_now () - t0 >= opt.seconds)
            {
                printf ("stopped at case %ld of %ld: --seconds %g reached\n", K, last, opt.seconds) ;
                break ;
            }
            if (opt.progress)
            {
                printf ("case %ld (%.1f s)\n", K, gcu_now () - t0) ;
                fflush (stdout) ;
            }
            if (!run_case (K) && opt.max_fail > 0 && ++nfail >= opt.max_fail)
            {
                printf ("stopped after %ld failing cases (--max-fail)\n", nfail) ;
                break ;
            }
        }
        summary (gcu_now () - t0) ;
    }
    free (pool) ;
    free (epool) ;
    for (int f = 0 ; f < 2 ; f++) { free (sweep_ran [f]) ; free (sweep_tried [f]) ; }
    catalogue_free () ;
    GrB_finalize () ;
    return gcu_test_report ("test_differential") ;
}
