// apply.c — the GPU family of GrB_Vector_apply and its bound forms
// (GrB_Vector_apply_BinaryOp1st_<T>, _BinaryOp2nd_<T>, _IndexOp_<T> and
// their GrB_Scalar forms) over the whole of w: w<M,replace> = accum (w, T)
// with T = f (u), u's pattern and f applied to each entry on the device
// (cuda/apply/gcu_vapply.cuh), then the vector write-back (gcu_vec_write_back)
// that leaves w device newest. PageRank's |rn - r| and rn += damping * t, and
// BFS's parents (an index operator), stay on the GPU between products.
//
// f, exactly as SuiteSparse computes it, from the one operator table
// (semirings/, cuda/common/gcu_ops.cuh): a bound binary operator is the
// table's (or a user operator with its definition), JIT-compiled as the SR
// struct's mult; a built-in unary operator is one of the table's binary
// operators with a bound scalar where the two agree bit for bit (below,
// unary_plan); a positional operator (GrB_ROWINDEX/COLINDEX/DIAGINDEX,
// GxB_POSITIONI/J) an index kernel compiled with the library. Anything else
// (the GxB math functions, ABS of signed integers and of complex values,
// AINV of complex values, value index ops, user-defined unary and index ops,
// positional binary ops, pow/atan2/hypot) stays SuiteSparse's. In auto mode
// the cost model sends a call here as it does the element-wise family's.
//
// GrB_Vector_select_<T> (and _Scalar) with a value comparison
// (GrB_VALUEEQ/NE/LT/LE/GT/GE_<T>, GxB_VALUEEQ/NE_FC32/FC64) is the same
// pass: f is the table's comparison of T (EQ, NE, LT, LE, GT, GE: z =
// (T) u(i) cmp (T) y, y cast to T as SuiteSparse casts a thunk), written as
// bytes over zeros, and that is T's presence; T's values are u's own. SSSP's
// select (tless != 0, tReq < bound) thus keeps its loop on the device. The
// positional select operators (TRIL, ROWLE, ...) and user ones stay
// SuiteSparse's.
#include "gcu_vector.h"
#include "gcu_handles.h"
#include "../../cuda/apply/gcu_vapply_policy.h"
#include "../residency/gcu_operand.h"
#include "../jit/gcu_jit.h"
#include "gcu_call.h"
#include "gcu_util.h"
#include "grbcuda.h"
#include <stdio.h>
#include <string.h>

//------------------------------------------------------------------------------
// the JIT's program (in both builds: the code generation stays testable
// without CUDA, tests/cpu/test_merge_jit.c compiles it with NVRTC)
//------------------------------------------------------------------------------

static const gcu_jit_writeback vapply_jit =
{
    "#include \"common/gcu_semiring.cuh\"\n#include \"apply/gcu_vapply.cuh\"\n",
    "extern \"C\" __global__ void __launch_bounds__ (GCU_VAPPLY_THREADS)\n"
    "%s (gcu_vapply_args a)\n"
    "{\n"
    "    typedef %s_ns::SR SR ;\n"
    "    gcu_vapply_typed_kernel<SR> (a) ;\n"
    "}\n",
    "gcu_vap_", "vapply", "vector apply"
} ;

// u of utype (read as the operator's x or y), T of ztype, z = op (x, y)
GrB_Info gcu_vec_apply_program (GrB_Type utype, GrB_Type ztype, GrB_BinaryOp op,
    char **program, char *entry, char *label, size_t lsize)
{
    return gcu_jit_writeback_program (&vapply_jit, utype, utype, ztype, op, program, entry,
        label, lsize) ;
}

//------------------------------------------------------------------------------
// the plan: what f is
//------------------------------------------------------------------------------

// scalar at v of built-in type from, cast to built-in type to as SuiteSparse
// casts it, into out
static GrB_Info cast_scalar (const void *v, gcu_type_code from, gcu_type_code to,
    uint64_t out [2])
{
    GrB_Scalar s = NULL ;
    out [0] = out [1] = 0 ;
    if (from >= GCU_NTYPES || to >= GCU_NTYPES) return GCU_NOT_HANDLED ;
    GrB_Info info = GrB_Scalar_new (&s, *gcu_types [from].handle) ;
    if (info == GrB_SUCCESS) info = gcu_scalar_set_builtin (s, from, v) ;
    if (info == GrB_SUCCESS) info = gcu_scalar_get_builtin (out, to, s) ;
    GrB_Scalar_free (&s) ;
    return info == GrB_SUCCESS ? GrB_SUCCESS : GCU_NOT_HANDLED ;
}

// the call's bound scalar (typed, or its GrB_Scalar with one entry of a
// built-in type) cast to built-in type to
static GrB_Info call_scalar (const gcu_call *call, gcu_type_code to, uint64_t out [2])
{
    gcu_type_desc d ;
    if (call->scalar_type != NULL)
    {
        if (gcu_type_identify (call->scalar_type, &d) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
        return cast_scalar (call->scalar, d.code, to, out) ;
    }
    GrB_Type st = NULL ;
    GrB_Index nv = 0 ;
    out [0] = out [1] = 0 ;
    if (call->alpha == NULL || GxB_Scalar_type (&st, call->alpha) != GrB_SUCCESS
        || gcu_type_identify (st, &d) != GrB_SUCCESS || d.code >= GCU_NTYPES
        || GrB_Scalar_nvals (&nv, call->alpha) != GrB_SUCCESS || nv != 1 || to >= GCU_NTYPES)
        return GCU_NOT_HANDLED ;
    return gcu_scalar_get_builtin (out, to, call->alpha) == GrB_SUCCESS ? GrB_SUCCESS
        : GCU_NOT_HANDLED ;
}

typedef struct
{
    GrB_BinaryOp op ;           // the value operator; NULL: positional
    bool bind1st ;              // op (scalar, u) rather than op (u, scalar)
    bool select ;               // GrB_Vector_select: op's bool is T's presence
    uint64_t scalar [2] ;       // as op's x (bind1st) or y type
    int64_t slope, offset ;     // positional: slope * i + offset
    GrB_Type ztype ;            // f's type: T's, except select's (bool; T keeps u's type)
    char what [80] ;            // for the log
}
apply_plan ;

// A built-in unary operator as a binary operator of the table with a bound
// scalar, where the two give the same bits for every value of the type
// (checked against SuiteSparse by tests/gpu/test_apply_gpu.c on awkward
// values: 0, -0, NaN, Inf, the integer extremes):
//   IDENTITY  FIRST (u, 0)                   z = x
//   AINV      bool: FIRST (u, 0) (SuiteSparse's AINV_BOOL is x); integers:
//             MINUS (0, u) (wraps as -x does); floating point: TIMES (u, -1)
//             (exact; -0 for +0, unlike 0 - x); complex: not here
//   MINV      DIV (1, u): the table's DIV has SuiteSparse's integer 1/0 and
//             1/-1, bool's DIV is FIRST (MINV_BOOL is true), complex 1/x is
//             its division
//   LNOT      LXOR (u, 1)                    z = !(x != 0), NaN true
//   ONE       PAIR                           z = 1
//   ABS       bool and unsigned: FIRST (u, 0); floating point: COPYSIGN
//             (u, 1) (fabs's bits, a NaN's sign bit cleared too); signed
//             integers and complex: not here (no table operator computes them)
//   BNOT      BXNOR (u, 0)                   z = ~x
// and GxB_POSITIONI/I1/J/J1 as an index (a vector's column j is 0).
typedef enum { U_IDENTITY, U_AINV, U_MINV, U_LNOT, U_ONE, U_ABS, U_BNOT, U_NKINDS } unary_kind ;

// the handles of each kind, by the type code of their x (gcu_type_code order)
static GrB_UnaryOp *const unary_handles [U_NKINDS][GCU_NTYPES] =
{
    GCU_U13 (GrB, IDENTITY), GCU_U13 (GrB, AINV), GCU_U13 (GrB, MINV), GCU_U11 (GxB, LNOT),
    GCU_U13 (GxB, ONE), GCU_U11 (GrB, ABS), GCU_U8 (GrB, BNOT)
} ;

static bool unary_kind_of (GrB_UnaryOp op, unary_kind *kind, gcu_type_code *t)
{
    if (op == GrB_LNOT) { *kind = U_LNOT ; *t = GCU_T_BOOL ; return true ; }
    for (int k = 0 ; k < U_NKINDS ; k++)
        for (int c = 0 ; c < GCU_NTYPES ; c++)
            if (unary_handles [k][c] != NULL && *unary_handles [k][c] == op)
            {
                *kind = (unary_kind) k ;
                *t = (gcu_type_code) c ;
                return true ;
            }
    return false ;
}

static const char *const unary_names [U_NKINDS] =
    { "IDENTITY", "AINV", "MINV", "LNOT", "ONE", "ABS", "BNOT" } ;

// the positional unary operators: z = slope * i + offset, int32 or int64
static bool unary_positional (GrB_UnaryOp op, apply_plan *p)
{
    const struct { GrB_UnaryOp *h ; int64_t slope, offset ; bool z32 ; const char *name ; } pos [] = {
        { &GxB_POSITIONI_INT32, 1, 0, true, "POSITIONI_INT32" },
        { &GxB_POSITIONI_INT64, 1, 0, false, "POSITIONI_INT64" },
        { &GxB_POSITIONI1_INT32, 1, 1, true, "POSITIONI1_INT32" },
        { &GxB_POSITIONI1_INT64, 1, 1, false, "POSITIONI1_INT64" },
        { &GxB_POSITIONJ_INT32, 0, 0, true, "POSITIONJ_INT32" },
        { &GxB_POSITIONJ_INT64, 0, 0, false, "POSITIONJ_INT64" },
        { &GxB_POSITIONJ1_INT32, 0, 1, true, "POSITIONJ1_INT32" },
        { &GxB_POSITIONJ1_INT64, 0, 1, false, "POSITIONJ1_INT64" } } ;
    for (size_t k = 0 ; k < sizeof (pos) / sizeof (pos [0]) ; k++)
    {
        if (*pos [k].h != op) continue ;
        p->op = NULL ;
        p->slope = pos [k].slope ;
        p->offset = pos [k].offset ;
        p->ztype = pos [k].z32 ? GrB_INT32 : GrB_INT64 ;
        snprintf (p->what, sizeof (p->what), "GxB_%s (index)", pos [k].name) ;
        return true ;
    }
    return false ;
}

static GrB_Info unary_plan (GrB_UnaryOp uop, apply_plan *p)
{
    unary_kind kind ;
    gcu_type_code t ;
    if (unary_positional (uop, p)) return GrB_SUCCESS ;
    if (!unary_kind_of (uop, &kind, &t)) return GCU_NOT_HANDLED ;
    const gcu_type_class cls = gcu_types [t].tclass ;
    gcu_opcode bop = GCU_OP_FIRST ;
    bool first = false ;
    int value = 0 ;
    switch (kind)
    {
        case U_IDENTITY: break ;
        case U_AINV:
            if (cls == GCU_CLASS_COMPLEX) return GCU_NOT_HANDLED ;
            if (cls == GCU_CLASS_INT || cls == GCU_CLASS_UINT) { bop = GCU_OP_MINUS ; first = true ; }
            else if (cls == GCU_CLASS_FLOAT) { bop = GCU_OP_TIMES ; value = -1 ; }
            break ;
        case U_MINV: bop = GCU_OP_DIV ; first = true ; value = 1 ; break ;
        case U_LNOT: bop = GCU_OP_LXOR ; value = 1 ; break ;
        case U_ONE: bop = GCU_OP_PAIR ; break ;
        case U_ABS:
            if (cls == GCU_CLASS_INT || cls == GCU_CLASS_COMPLEX) return GCU_NOT_HANDLED ;
            if (cls == GCU_CLASS_FLOAT) { bop = GCU_OP_COPYSIGN ; value = 1 ; }
            break ;
        case U_BNOT: bop = GCU_OP_BXNOR ; break ;
        default: return GCU_NOT_HANDLED ;
    }
    p->op = gcu_binop_of (bop, t) ;
    if (p->op == NULL) return GCU_NOT_HANDLED ;
    p->bind1st = first ;
    const int32_t v32 = value ;
    if (cast_scalar (&v32, GCU_T_INT32, t, p->scalar) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    p->ztype = *gcu_types [gcu_op_ztype (bop, t)].handle ;
    snprintf (p->what, sizeof (p->what), "%s_%s as %s (%s%d%s)", unary_names [kind],
        gcu_types [t].name, gcu_ops [bop].name, first ? "" : "u, ", value, first ? ", u" : "") ;
    return GrB_SUCCESS ;
}

// GrB_ROWINDEX/COLINDEX/DIAGINDEX: z = i + y, j + y, j - (i + y) (j = 0),
// as SuiteSparse 7.4 computes them: y cast to int64 whatever the operator's
// y type, the sum in int64 (wrapping), the _INT32 operators' z its low 32
// bits (an FP64 y of 1e300 is INT64_MAX, not INT32_MAX: the GPU run of
// test_apply_gpu, seed 0xa9915, cases 123, 267; test_apply_gpu checks the
// formula against SuiteSparse alone)
static GrB_Info index_plan (const gcu_call *call, apply_plan *p)
{
    const struct { GrB_IndexUnaryOp *h ; int64_t slope ; bool z32 ; const char *name ; } pos [] = {
        { &GrB_ROWINDEX_INT32, 1, true, "ROWINDEX_INT32" },
        { &GrB_ROWINDEX_INT64, 1, false, "ROWINDEX_INT64" },
        { &GrB_COLINDEX_INT32, 0, true, "COLINDEX_INT32" },
        { &GrB_COLINDEX_INT64, 0, false, "COLINDEX_INT64" },
        { &GrB_DIAGINDEX_INT32, -1, true, "DIAGINDEX_INT32" },
        { &GrB_DIAGINDEX_INT64, -1, false, "DIAGINDEX_INT64" } } ;
    for (size_t k = 0 ; k < sizeof (pos) / sizeof (pos [0]) ; k++)
    {
        if (*pos [k].h != call->idxop) continue ;
        uint64_t y [2] ;
        if (call_scalar (call, GCU_T_INT64, y) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
        p->op = NULL ;
        p->slope = pos [k].slope ;
        // -(i + y) = -i + (-y), modulo 2^64
        p->offset = (int64_t) (pos [k].slope < 0 ? (uint64_t) 0 - y [0] : y [0]) ;
        p->ztype = pos [k].z32 ? GrB_INT32 : GrB_INT64 ;
        snprintf (p->what, sizeof (p->what), "GrB_%s (index, y %lld)", pos [k].name,
            (long long) (int64_t) y [0]) ;
        return GrB_SUCCESS ;
    }
    return GCU_NOT_HANDLED ;
}

// op (x, u) or op (u, y): an operator of built-in types the device computes
// exactly, not positional
static GrB_Info bound_plan (const gcu_call *call, GrB_Type ut, apply_plan *p)
{
    gcu_binop_desc bd ;
    if (gcu_binop_identify (call->binop, &bd) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (bd.x.code >= GCU_NTYPES || bd.y.code >= GCU_NTYPES || bd.z.code >= GCU_NTYPES
        || (bd.flags & GCU_OPF_POSITIONAL)) return GCU_NOT_HANDLED ;
    if (!gcu_jit_writeback_expressible (ut, ut, call->binop)) return GCU_NOT_HANDLED ;
    p->op = call->binop ;
    p->bind1st = call->op == GCU_OP_VECTOR_APPLY_BINOP1ST ;
    if (call_scalar (call, p->bind1st ? bd.x.code : bd.y.code, p->scalar) != GrB_SUCCESS)
        return GCU_NOT_HANDLED ;
    p->ztype = bd.z.handle ;
    char name [GxB_MAX_NAME_LEN] = "user" ;
    if (bd.builtin != NULL) snprintf (name, sizeof (name), "%s", bd.builtin->name) ;
    snprintf (p->what, sizeof (p->what), "%s (%s)", name, p->bind1st ? "x, u" : "u, y") ;
    return GrB_SUCCESS ;
}

// GrB_Vector_select's value comparisons, by kind and the type code of their
// x and y (gcu_type_code order; complex: EQ and NE only)
static GrB_IndexUnaryOp *const value_handles [6][GCU_NTYPES] =
{
    GCU_U13 (GrB, VALUEEQ), GCU_U13 (GrB, VALUENE), GCU_U11 (GrB, VALUELT),
    GCU_U11 (GrB, VALUELE), GCU_U11 (GrB, VALUEGT), GCU_U11 (GrB, VALUEGE)
} ;
static const gcu_opcode value_ops [6] =
    { GCU_OP_EQ, GCU_OP_NE, GCU_OP_LT, GCU_OP_LE, GCU_OP_GT, GCU_OP_GE } ;

// select's T: u (i) kept where cmp (u (i), y) holds, both as the operator's
// type t (u cast by the kernel's load, y here), cmp the table's GrB_<CMP>_t:
// the same comparison of the same values (NaN: only NE holds)
static GrB_Info select_plan (const gcu_call *call, GrB_Type ut, apply_plan *p)
{
    gcu_type_desc ud ;
    if (gcu_type_identify (ut, &ud) != GrB_SUCCESS || ud.code >= GCU_NTYPES) return GCU_NOT_HANDLED ;
    for (int k = 0 ; k < 6 ; k++)
        for (int c = 0 ; c < GCU_NTYPES ; c++)
        {
            if (value_handles [k][c] == NULL || *value_handles [k][c] != call->idxop) continue ;
            // a complex u and a real operator: SuiteSparse 7.4's select says
            // GrB_DOMAIN_MISMATCH (its apply casts; the GPU run of
            // test_apply_gpu, cases 141, 199, 311, 456)
            if (gcu_types [ud.code].tclass == GCU_CLASS_COMPLEX
                && gcu_types [c].tclass != GCU_CLASS_COMPLEX) return GCU_NOT_HANDLED ;
            p->op = gcu_binop_of (value_ops [k], (gcu_type_code) c) ;
            if (p->op == NULL || call_scalar (call, (gcu_type_code) c, p->scalar) != GrB_SUCCESS)
                return GCU_NOT_HANDLED ;
            p->select = true ;
            p->ztype = GrB_BOOL ;
            snprintf (p->what, sizeof (p->what), "VALUE%s_%s as %s (u, y)", gcu_ops [value_ops [k]].name,
                gcu_types [c].name, gcu_ops [value_ops [k]].name) ;
            return GrB_SUCCESS ;
        }
    return GCU_NOT_HANDLED ;
}

GrB_Info gcu_select_value_plan (const gcu_call *call, GrB_Type at, bool *eq, uint64_t y [2])
{
    apply_plan p ;
    gcu_type_desc ad ;
    gcu_binop_desc bd ;
    memset (&p, 0, sizeof (p)) ;
    if (gcu_type_identify (at, &ad) != GrB_SUCCESS || ad.code >= GCU_NTYPES || ad.code == GCU_T_UDT
        || select_plan (call, at, &p) != GrB_SUCCESS || gcu_binop_identify (p.op, &bd) != GrB_SUCCESS
        || bd.x.code != ad.code || !gcu_jit_writeback_expressible (at, at, p.op))
        return GCU_NOT_HANDLED ;
    *eq = bd.op == GCU_OP_EQ ;
    memcpy (y, p.scalar, sizeof (p.scalar)) ;
    return GrB_SUCCESS ;
}

static GrB_Info plan_of (const gcu_call *call, GrB_Type ut, apply_plan *p)
{
    memset (p, 0, sizeof (*p)) ;
    if (call->op == GCU_OP_VECTOR_SELECT) return select_plan (call, ut, p) ;
    if (call->op == GCU_OP_VECTOR_APPLY) return unary_plan (call->unop, p) ;
    if (call->op == GCU_OP_VECTOR_APPLY_INDEXOP) return index_plan (call, p) ;
    return bound_plan (call, ut, p) ;
}

#if GRBCUDA_HAVE_CUDA

// w's iso status as SuiteSparse's (gcu_iso_call_vector_apply, select's
// gcu_iso_call_vector_select; false: the call declined): the call's
// operator, its bound scalar as a GrB_Scalar (one made here for the typed
// forms)
static bool iso_status (gcu_call *call, const apply_plan *p)
{
    const bool bound = call->op == GCU_OP_VECTOR_APPLY_BINOP1ST || call->op == GCU_OP_VECTOR_APPLY_BINOP2ND ;
    gcu_iso_apply_op op = { .unop = call->op == GCU_OP_VECTOR_APPLY ? call->unop : NULL,
        .binop = bound ? call->binop : NULL, .bind1st = call->op == GCU_OP_VECTOR_APPLY_BINOP1ST,
        .idxop = call->op == GCU_OP_VECTOR_APPLY_INDEXOP ? call->idxop : NULL, .s = call->alpha } ;
    GrB_Scalar own = NULL ;
    gcu_type_desc d ;
    if (op.unop == NULL && op.s == NULL
        && (call->scalar_type == NULL || gcu_type_identify (call->scalar_type, &d) != GrB_SUCCESS
            || d.code >= GCU_NTYPES || GrB_Scalar_new (&own, call->scalar_type) != GrB_SUCCESS
            || gcu_scalar_set_builtin (own, d.code, call->scalar) != GrB_SUCCESS))
    {
        GrB_Scalar_free (&own) ;
        gcu_iso_decline (call) ;
        return false ;
    }
    if (own != NULL) op.s = own ;
    const bool ok = p->select ? gcu_iso_call_vector_select (call, op.s)
        : gcu_iso_call_vector_apply (call, &op, p->ztype) ;
    GrB_Scalar_free (&own) ;
    return ok ;
}

//------------------------------------------------------------------------------
// the family
//------------------------------------------------------------------------------

static const char *call_name (gcu_op op)
{
    return op == GCU_OP_VECTOR_APPLY ? "GrB_Vector_apply"
        : op == GCU_OP_VECTOR_APPLY_BINOP1ST ? "GrB_Vector_apply_BinaryOp1st"
        : op == GCU_OP_VECTOR_APPLY_BINOP2ND ? "GrB_Vector_apply_BinaryOp2nd"
        : op == GCU_OP_VECTOR_SELECT ? "GrB_Vector_select" : "GrB_Vector_apply_IndexOp" ;
}

// T's type: f's, except select's (T keeps u's values; f's bools are its
// presence)
static GrB_Type t_type (const apply_plan *p, GrB_Type ut)
{
    return p->select ? ut : p->ztype ;
}

static GrB_Info apply_branch (const gcu_call *call)
{
    apply_plan p ;
    GrB_Type ut = gcu_vec_builtin_type (call->A) ;
    if (ut == NULL || gcu_vec_builtin_type (call->C) == NULL) return GCU_NOT_HANDLED ;
    if (plan_of (call, ut, &p) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    if (p.op != NULL && !gcu_jit_writeback_expressible (ut, ut, p.op)) return GCU_NOT_HANDLED ;
    gcu_vec_wb wb ;
    if (!gcu_vec_call_wb (call, &wb)) return GCU_NOT_HANDLED ;
    if (call->M != NULL && !wb.structural && gcu_vec_builtin_type (call->M) == NULL) return GCU_NOT_HANDLED ;
    if (call->c_rows >= ((GrB_Index) 1 << 31)) return GCU_NOT_HANDLED ;
    return gcu_vec_merge_applies (&wb, t_type (&p, ut)) ? GrB_SUCCESS : GCU_NOT_HANDLED ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_vec_release (&ou, s) ; gcu_dfree (Tx, s) ;

static GrB_Info apply_run (gcu_call *call)
{
    const gcu_stream s = gcu_stream_default () ;
    gcu_vec ou ;
    void *Tx = NULL ;
    memset (&ou, 0, sizeof (ou)) ;
    const double t0 = gcu_now () ;
    const GrB_Index n = call->c_rows ;
    apply_plan p ;
    gcu_type_desc ud, zd ;
    GrB_Type ut ;
    GCU_TRY (GxB_Vector_type (&ut, (GrB_Vector) call->A)) ;
    GCU_TRY (gcu_type_identify (ut, &ud)) ;
    GCU_TRY (plan_of (call, ut, &p)) ;
    // w's iso status as SuiteSparse's, decided before any work
    if (!iso_status (call, &p)) GCU_TRY (GCU_NOT_HANDLED) ;
    gcu_vec_wb wb ;
    if (!gcu_vec_call_wb (call, &wb)) GCU_TRY (GCU_NOT_HANDLED) ;
    GCU_TRY (gcu_type_identify (p.ztype, &zd)) ;
    void *typed = NULL ;
    if (p.op != NULL)
        GCU_TRY (gcu_jit_writeback_kernel (&vapply_jit, ut, ut, p.ztype, p.op, &typed)) ;

    // u as a dense image (read in place when device newest)
    GCU_TRY (gcu_vec_get ((GrB_Vector) call->A, n, true, ud.size, &ou, s)) ;
    const double t1 = gcu_now () ;

    // T = f (u): u's pattern, f's values (select: f's bools over zeros are
    // T's presence, u's values its values)
    GCU_TRY (gcu_dmalloc (&Tx, (size_t) n * zd.size + 16, s)) ;
    if (p.select && ou.b != NULL) GCU_TRY (gcu_memset (Tx, 0, (size_t) n, s)) ;
    gcu_vapply_args a ;
    memset (&a, 0, sizeof (a)) ;
    a.n = (int64_t) n ;
    a.Ub = (const int8_t *) ou.b ;
    a.Ux = ou.x ;
    a.Ox = Tx ;
    if (p.op != NULL)
    {
        a.bind1st = p.bind1st ;
        memcpy (a.scalar, p.scalar, sizeof (a.scalar)) ;
        void *args [] = { &a } ;
        GCU_TRY (gcu_jit_launch (typed, gcu_vec_apply_grid (a.n), GCU_VAPPLY_THREADS, 0, s, args)) ;
        GCU_TRY (gcu_launch_check ("vector apply (JIT)")) ;
    }
    else
    {
        a.slope = p.slope ;
        a.offset = p.offset ;
        a.z32 = zd.size == 4 ;
        GCU_TRY (gcu_vec_apply_index_launch (&a, s)) ;
    }
    const double t2 = gcu_now () ;

    // w<M,replace> = accum (w, T), left on the device (u stays pinned
    // through it: T's presence is u's, and w may be u)
    GrB_Index wnvals = 0 ;
    size_t wb_up = 0 ;
    const int8_t *Tb = p.select ? (const int8_t *) Tx : (const int8_t *) ou.b ;
    GCU_TRY (gcu_vec_write_back (&wb, t_type (&p, ut), p.select ? ud.size : zd.size, n, Tb,
        p.select ? ou.x : Tx, &wnvals, &wb_up, s)) ;
    call->up_bytes = ou.up_bytes + wb_up ;
    call->down_bytes = 0 ;
    call->kernel_seconds = gcu_now () - t1 ;
    char du [64] ;
    gcu_vec_describe (&ou, "u", du, sizeof (du)) ;
    gcu_log ("%s gpu: length %llu, nnz(u) %llu, %s; %s; operands %.2f ms, T %.3f ms, "
        "write-back on the device %.2f ms: w left there (%llu entries)",
        call_name (call->op), (unsigned long long) n, (unsigned long long) ou.nvals, p.what, du,
        1e3 * (t1 - t0), 1e3 * (t2 - t1), 1e3 * (gcu_now () - t2), (unsigned long long) wnvals) ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

GrB_Info gcu_select_flags (const gcu_call *call, GrB_Type at, const void *x, int64_t n,
    int8_t *flags, gcu_stream s)
{
    apply_plan p ;
    void *typed = NULL ;
    memset (&p, 0, sizeof (p)) ;
    if (select_plan (call, at, &p) != GrB_SUCCESS) return GCU_NOT_HANDLED ;
    GrB_Info info = gcu_jit_writeback_kernel (&vapply_jit, at, at, GrB_BOOL, p.op, &typed) ;
    if (info != GrB_SUCCESS || n <= 0) return info ;
    gcu_vapply_args a ;
    memset (&a, 0, sizeof (a)) ;
    a.n = n ;
    a.Ux = x ;
    a.Ox = flags ;
    memcpy (a.scalar, p.scalar, sizeof (a.scalar)) ;
    void *args [] = { &a } ;
    info = gcu_jit_launch (typed, gcu_vec_apply_grid (n), GCU_VAPPLY_THREADS, 0, s, args) ;
    return info == GrB_SUCCESS ? gcu_launch_check ("matrix select (JIT)") : info ;
}

const gcu_family gcu_family_vector_apply = { "vector apply", GCU_OP_VECTOR_APPLY,
    apply_branch, apply_run } ;

#endif
