// entry.c — the interposed GraphBLAS entry points (DESIGN §1-2). Each one
// only records its operands and hands off: gcu_try_gpu() decides and, when a
// GPU kernel family takes the call, runs it; otherwise the real SuiteSparse
// function (reached through gcu_real_cached) computes the answer, so results
// and error codes are exactly SuiteSparse's. gcu_finish() counts and logs.
// In mode host with nothing to write back the call passes straight through
// (pass_through).
#include "gcu_real.h"
#include "../dispatch/gcu_dispatch.h"
#include "../residency/gcu_residency.h"
#include "../device/gcu_staging.h"
#include "../device/gcu_streams.h"
#include "../device/gcu_device.h"
#include "../device/gcu_cuda.h"
#include <string.h>
#include "../jit/gcu_jit.h"

//------------------------------------------------------------------------------
// init / finalize
//------------------------------------------------------------------------------

typedef GrB_Info (*init_fn) (GrB_Mode) ;
typedef GrB_Info (*xinit_fn) (GrB_Mode, void *(*) (size_t),
    void *(*) (size_t, size_t), void *(*) (void *, size_t), void (*) (void *)) ;
typedef GrB_Info (*finalize_fn) (void) ;

static void log_init (const char *who, GrB_Info info)
{
    gcu_log ("%s -> %d; grbcuda %s, mode %s, threshold %.3g", who, (int) info,
        grbcuda_version (),
        gcu_mode () == GRBCUDA_MODE_GPU ? "gpu"
        : gcu_mode () == GRBCUDA_MODE_HOST ? "host" : "auto",
        gcu_threshold ()) ;
}

GrB_Info GrB_init (GrB_Mode mode)
{
    static void *_Atomic real ;
    init_fn f = (init_fn) gcu_real_cached (&real, "GrB_init") ;
    if (f == NULL) return GrB_PANIC ;
    gcu_host_malloc_steady () ;
    GrB_Info info = f (mode) ;
    log_init ("GrB_init", info) ;
    if (info == GrB_SUCCESS) gcu_gpu_start_at_init () ;
    return info ;
}

GrB_Info GxB_init (GrB_Mode mode, void *(*m) (size_t),
    void *(*c) (size_t, size_t), void *(*r) (void *, size_t), void (*fr) (void *))
{
    static void *_Atomic real ;
    xinit_fn f = (xinit_fn) gcu_real_cached (&real, "GxB_init") ;
    if (f == NULL) return GrB_PANIC ;
    gcu_host_malloc_steady () ;
    GrB_Info info = f (mode, m, c, r, fr) ;
    if (info == GrB_SUCCESS) gcu_host_allocator_set (m, fr) ;
    log_init ("GxB_init", info) ;
    if (info == GrB_SUCCESS) gcu_gpu_start_at_init () ;
    return info ;
}

GrB_Info GrB_finalize (void)
{
    static void *_Atomic real ;
    finalize_fn f = (finalize_fn) gcu_real_cached (&real, "GrB_finalize") ;
    if (f == NULL) return GrB_PANIC ;
    gcu_stats_print_if_enabled () ;
    if (gcu_settings ()->start_rent > 0 && !gcu_gpu_started ())
        gcu_log ("%s: the host calls' time lost against the GPU's predictions added up to %.1f ms "
            "(GRBCUDA_START_RENT %g of CUDA's start)", gcu_gpu_start_pending ()
            ? "CUDA's start still under way at GrB_finalize (waited for)" : "CUDA never started",
            1e3 * gcu_start_gain_add (0), gcu_settings ()->start_rent) ;
    // nothing of grbcuda's runs on after GraphBLAS: a CUDA start under way
    // finishes, background compiles are finished or dropped
    gcu_staging_prepare_cancel () ;
    gcu_gpu_start_join () ;
    gcu_jit_background_stop () ;
    // device copies die with GraphBLAS's objects; the pinned staging
    // buffers go back too
    gcu_residency_clear_all () ;
    gcu_staging_release () ;
    gcu_streams_release () ;
    if (gcu_gpu_started () && gcu_gpu_ready ()) { gcu_lasting_release () ; gcu_pool_release () ; }
    return f () ;
}

//------------------------------------------------------------------------------
// the pass-through
//------------------------------------------------------------------------------

// Mode host, neither the statistics table nor the log on, and no object
// device newest anywhere (none to write back first): the call goes straight
// to SuiteSparse, with no argument check, no clock read, one count
// (gcu_stats_pass) and C's invalidation after it. Two relaxed loads decide.
static inline bool pass_through (void)
{
    const unsigned f = gcu_flags () ;
    return (f & (GCU_FLAG_MODE_MASK | GCU_FLAG_VERBOSE | GCU_FLAG_STATS))
            == GCU_FLAG_MODE (GRBCUDA_MODE_HOST)
        && !gcu_residency_any_newest () ;
}

//------------------------------------------------------------------------------
// mxm, mxv, vxm, eWiseMult, eWiseAdd: 15 entry points of one shape,
// C<M> = accum (C, A op B), differing only in the objects (Matrix/Vector:
// C and M are one kind, A and B each theirs) and the operator kind
// (Semiring/Monoid/BinaryOp). GCU_PRODUCT_ENTRY defines one whole entry
// point; it is the template they are stamped from, not a statement-level
// macro.
//------------------------------------------------------------------------------

// The body every entry point below shares, after its typedef fn_t of the
// real function: the real function f; the pass-through (f, then C's
// invalidation and one count); else the call recorded (its designated
// initialisers after OPCODE) and completed by PREP, the GPU tried, and the
// host otherwise (run again if it failed on a C it replaces whole, once C's
// device value is written back: gcu_host_again). ARGS: the arguments, in
// parentheses.
#define GCU_ENTRY_BODY(NAME, OPCODE, C, ARGS, PREP, ...)                       \
    static void *_Atomic real ;                                                \
    fn_t f = (fn_t) gcu_real_cached (&real, NAME) ;                            \
    if (f == NULL) return GrB_PANIC ;                                          \
    GrB_Info info ;                                                            \
    if (pass_through ())                                                       \
    {                                                                          \
        info = f ARGS ;                                                        \
        gcu_residency_invalidate (C) ;                                         \
        gcu_stats_pass (OPCODE) ;                                              \
        return info ;                                                          \
    }                                                                          \
    gcu_call call = { .op = OPCODE, __VA_ARGS__ } ;                            \
    PREP ;                                                                     \
    if (!gcu_try_gpu (&call, &info))                                           \
    {                                                                          \
        info = f ARGS ;                                                        \
        if (gcu_host_again (&call, info)) info = f ARGS ;                      \
    }                                                                          \
    return gcu_finish (&call, info) ;

#define GCU_PRODUCT_ENTRY(NAME, OBJ, AOBJ, BOBJ, OPTYPE, FIELD, OPCODE)        \
GrB_Info NAME (OBJ C, const OBJ M, const GrB_BinaryOp accum,                   \
    const OPTYPE op, const AOBJ A, const BOBJ B, const GrB_Descriptor desc)    \
{                                                                              \
    typedef GrB_Info (*fn_t) (OBJ, const OBJ, const GrB_BinaryOp,              \
        const OPTYPE, const AOBJ, const BOBJ, const GrB_Descriptor) ;          \
    GCU_ENTRY_BODY (#NAME, OPCODE, C, (C, M, accum, op, A, B, desc), (void) 0, \
        .C = C, .M = M, .accum = accum, .FIELD = op, .A = A, .B = B,           \
        .desc = desc)                                                          \
}

// vxm's first input (call.A) is the vector u, its second (call.B) the
// matrix: the order of the GraphBLAS arguments
GCU_PRODUCT_ENTRY (GrB_mxm, GrB_Matrix, GrB_Matrix, GrB_Matrix, GrB_Semiring, semiring, GCU_OP_MXM)
GCU_PRODUCT_ENTRY (GrB_vxm, GrB_Vector, GrB_Vector, GrB_Matrix, GrB_Semiring, semiring, GCU_OP_VXM)
GCU_PRODUCT_ENTRY (GrB_mxv, GrB_Vector, GrB_Matrix, GrB_Vector, GrB_Semiring, semiring, GCU_OP_MXV)

// eWiseMult and eWiseAdd: the matrix's entry point and the vector's stamped
// together, for one operator kind; CODE names both opcodes
// (GCU_OP_MATRIX_<CODE>, GCU_OP_VECTOR_<CODE>)
#define GCU_EWISE_ENTRIES(MNAME, VNAME, OPTYPE, FIELD, CODE)                   \
    GCU_PRODUCT_ENTRY (MNAME, GrB_Matrix, GrB_Matrix, GrB_Matrix, OPTYPE, FIELD, GCU_OP_MATRIX_##CODE) \
    GCU_PRODUCT_ENTRY (VNAME, GrB_Vector, GrB_Vector, GrB_Vector, OPTYPE, FIELD, GCU_OP_VECTOR_##CODE)

GCU_EWISE_ENTRIES (GrB_Matrix_eWiseMult_Semiring, GrB_Vector_eWiseMult_Semiring, GrB_Semiring, semiring, EWISEMULT_SEMIRING)
GCU_EWISE_ENTRIES (GrB_Matrix_eWiseMult_Monoid,   GrB_Vector_eWiseMult_Monoid,   GrB_Monoid,   monoid,   EWISEMULT_MONOID)
GCU_EWISE_ENTRIES (GrB_Matrix_eWiseMult_BinaryOp, GrB_Vector_eWiseMult_BinaryOp, GrB_BinaryOp, binop,    EWISEMULT_BINARYOP)
GCU_EWISE_ENTRIES (GrB_Matrix_eWiseAdd_Semiring,  GrB_Vector_eWiseAdd_Semiring,  GrB_Semiring, semiring, EWISEADD_SEMIRING)
GCU_EWISE_ENTRIES (GrB_Matrix_eWiseAdd_Monoid,    GrB_Vector_eWiseAdd_Monoid,    GrB_Monoid,   monoid,   EWISEADD_MONOID)
GCU_EWISE_ENTRIES (GrB_Matrix_eWiseAdd_BinaryOp,  GrB_Vector_eWiseAdd_BinaryOp,  GrB_BinaryOp, binop,    EWISEADD_BINARYOP)

//------------------------------------------------------------------------------
// eWiseUnion (GxB): eWiseAdd with alpha/beta standing in for missing entries
//------------------------------------------------------------------------------

#define GCU_UNION_ENTRY(NAME, OBJ, OPCODE)                                     \
GrB_Info NAME (OBJ C, const OBJ M, const GrB_BinaryOp accum,                   \
    const GrB_BinaryOp add, const OBJ A, const GrB_Scalar alpha, const OBJ B,  \
    const GrB_Scalar beta, const GrB_Descriptor desc)                          \
{                                                                              \
    typedef GrB_Info (*fn_t) (OBJ, const OBJ, const GrB_BinaryOp,              \
        const GrB_BinaryOp, const OBJ, const GrB_Scalar, const OBJ,            \
        const GrB_Scalar, const GrB_Descriptor) ;                              \
    GCU_ENTRY_BODY (#NAME, OPCODE, C, (C, M, accum, add, A, alpha, B, beta, desc), \
        (void) 0, .C = C, .M = M, .accum = accum, .binop = add, .A = A,        \
        .B = B, .alpha = alpha, .beta = beta, .desc = desc)                    \
}

GCU_UNION_ENTRY (GxB_Matrix_eWiseUnion, GrB_Matrix, GCU_OP_MATRIX_EWISEUNION)
GCU_UNION_ENTRY (GxB_Vector_eWiseUnion, GrB_Vector, GCU_OP_VECTOR_EWISEUNION)

//------------------------------------------------------------------------------
// GrB_Vector_assign and its scalar forms: w<M>(I) = accum (w(I), u or x).
// The GPU takes the whole of w (I = GrB_ALL): the device write-back with T
// = u, or T full of x (src/vector/assign.c). The other forms (UDT, Scalar)
// and the subassigns stay with the generated wrappers.
//------------------------------------------------------------------------------

GrB_Info GrB_Vector_assign (GrB_Vector w, const GrB_Vector M, const GrB_BinaryOp accum,
    const GrB_Vector u, const GrB_Index *I, GrB_Index ni, const GrB_Descriptor desc)
{
    typedef GrB_Info (*fn_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
        const GrB_Vector, const GrB_Index *, GrB_Index, const GrB_Descriptor) ;
    GCU_ENTRY_BODY ("GrB_Vector_assign", GCU_OP_VECTOR_ASSIGN, w, (w, M, accum, u, I, ni, desc),
        (void) 0, .C = w, .M = M, .accum = accum, .A = u, .I = I, .ni = ni, .desc = desc)
}

// One scalar form: x of C type CTYPE, GraphBLAS type GTYPE (its bytes in
// call.scalar).
#define GCU_ASSIGN_SCALAR_ENTRY(NAME, CTYPE, GTYPE)                            \
GrB_Info NAME (GrB_Vector w, const GrB_Vector M, const GrB_BinaryOp accum,     \
    CTYPE x, const GrB_Index *I, GrB_Index ni, const GrB_Descriptor desc)      \
{                                                                              \
    typedef GrB_Info (*fn_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,\
        CTYPE, const GrB_Index *, GrB_Index, const GrB_Descriptor) ;           \
    _Static_assert (sizeof (CTYPE) <= sizeof (((gcu_call *) 0)->scalar), "scalar size") ; \
    GCU_ENTRY_BODY (#NAME, GCU_OP_VECTOR_ASSIGN_SCALAR, w, (w, M, accum, x, I, ni, desc), \
        memcpy (call.scalar, &x, sizeof (CTYPE)), .C = w, .M = M, .accum = accum, \
        .I = I, .ni = ni, .desc = desc, .scalar_type = GTYPE)                  \
}

GCU_ASSIGN_SCALAR_ENTRY (GrB_Vector_assign_BOOL,   bool,        GrB_BOOL)
GCU_ASSIGN_SCALAR_ENTRY (GrB_Vector_assign_INT8,   int8_t,      GrB_INT8)
GCU_ASSIGN_SCALAR_ENTRY (GrB_Vector_assign_UINT8,  uint8_t,     GrB_UINT8)
GCU_ASSIGN_SCALAR_ENTRY (GrB_Vector_assign_INT16,  int16_t,     GrB_INT16)
GCU_ASSIGN_SCALAR_ENTRY (GrB_Vector_assign_UINT16, uint16_t,    GrB_UINT16)
GCU_ASSIGN_SCALAR_ENTRY (GrB_Vector_assign_INT32,  int32_t,     GrB_INT32)
GCU_ASSIGN_SCALAR_ENTRY (GrB_Vector_assign_UINT32, uint32_t,    GrB_UINT32)
GCU_ASSIGN_SCALAR_ENTRY (GrB_Vector_assign_INT64,  int64_t,     GrB_INT64)
GCU_ASSIGN_SCALAR_ENTRY (GrB_Vector_assign_UINT64, uint64_t,    GrB_UINT64)
GCU_ASSIGN_SCALAR_ENTRY (GrB_Vector_assign_FP32,   float,       GrB_FP32)
GCU_ASSIGN_SCALAR_ENTRY (GrB_Vector_assign_FP64,   double,      GrB_FP64)
GCU_ASSIGN_SCALAR_ENTRY (GxB_Vector_assign_FC32,   GxB_FC32_t,  GxB_FC32)
GCU_ASSIGN_SCALAR_ENTRY (GxB_Vector_assign_FC64,   GxB_FC64_t,  GxB_FC64)

//------------------------------------------------------------------------------
// GrB_Vector_apply and its bound forms: w<M> = accum (w, op (u)), op (x, u),
// op (u, y), or an index-unary op (u(i), i, 0, y). The GPU applies op to
// every entry of u on the device and writes w back there
// (src/vector/apply.c). The UDT forms and the historical GxB_ names stay
// with the generated wrappers.
//------------------------------------------------------------------------------

GrB_Info GrB_Vector_apply (GrB_Vector w, const GrB_Vector M, const GrB_BinaryOp accum,
    const GrB_UnaryOp op, const GrB_Vector u, const GrB_Descriptor desc)
{
    typedef GrB_Info (*fn_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
        const GrB_UnaryOp, const GrB_Vector, const GrB_Descriptor) ;
    GCU_ENTRY_BODY ("GrB_Vector_apply", GCU_OP_VECTOR_APPLY, w, (w, M, accum, op, u, desc),
        (void) 0, .C = w, .M = M, .accum = accum, .unop = op, .A = u, .desc = desc)
}

// op (x, u) with x of C type CTYPE, GraphBLAS type GTYPE (its bytes in
// call.scalar)
#define GCU_APPLY_1ST_ENTRY(NAME, CTYPE, GTYPE)                                \
GrB_Info NAME (GrB_Vector w, const GrB_Vector M, const GrB_BinaryOp accum,     \
    const GrB_BinaryOp op, CTYPE x, const GrB_Vector u, const GrB_Descriptor desc) \
{                                                                              \
    typedef GrB_Info (*fn_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,\
        const GrB_BinaryOp, CTYPE, const GrB_Vector, const GrB_Descriptor) ;   \
    _Static_assert (sizeof (CTYPE) <= sizeof (((gcu_call *) 0)->scalar), "scalar size") ; \
    GCU_ENTRY_BODY (#NAME, GCU_OP_VECTOR_APPLY_BINOP1ST, w, (w, M, accum, op, x, u, desc), \
        memcpy (call.scalar, &x, sizeof (CTYPE)), .C = w, .M = M, .accum = accum, \
        .binop = op, .A = u, .desc = desc, .scalar_type = GTYPE)               \
}

// op (u, y) (BinaryOp2nd) or op (u(i), i, 0, y) (IndexOp, GrB_Vector_select;
// GrB_Matrix_select: OBJ GrB_Matrix), y of C type CTYPE
#define GCU_BOUND_2ND_ENTRY(NAME, OBJ, OPTYPE, FIELD, OPCODE, CTYPE, GTYPE)    \
GrB_Info NAME (OBJ w, const OBJ M, const GrB_BinaryOp accum,                   \
    const OPTYPE op, const OBJ u, CTYPE y, const GrB_Descriptor desc)          \
{                                                                              \
    typedef GrB_Info (*fn_t) (OBJ, const OBJ, const GrB_BinaryOp,              \
        const OPTYPE, const OBJ, CTYPE, const GrB_Descriptor) ;                \
    _Static_assert (sizeof (CTYPE) <= sizeof (((gcu_call *) 0)->scalar), "scalar size") ; \
    GCU_ENTRY_BODY (#NAME, OPCODE, w, (w, M, accum, op, u, y, desc),           \
        memcpy (call.scalar, &y, sizeof (CTYPE)), .C = w, .M = M, .accum = accum, \
        .FIELD = op, .A = u, .desc = desc, .scalar_type = GTYPE)               \
}
#define GCU_APPLY_2ND_ENTRY(NAME, OPTYPE, FIELD, OPCODE, CTYPE, GTYPE)         \
    GCU_BOUND_2ND_ENTRY (NAME, GrB_Vector, OPTYPE, FIELD, OPCODE, CTYPE, GTYPE)

// the typed forms, written out (the wrapper generator reads the names)
GCU_APPLY_1ST_ENTRY (GrB_Vector_apply_BinaryOp1st_BOOL, bool, GrB_BOOL)
GCU_APPLY_1ST_ENTRY (GrB_Vector_apply_BinaryOp1st_INT8, int8_t, GrB_INT8)
GCU_APPLY_1ST_ENTRY (GrB_Vector_apply_BinaryOp1st_UINT8, uint8_t, GrB_UINT8)
GCU_APPLY_1ST_ENTRY (GrB_Vector_apply_BinaryOp1st_INT16, int16_t, GrB_INT16)
GCU_APPLY_1ST_ENTRY (GrB_Vector_apply_BinaryOp1st_UINT16, uint16_t, GrB_UINT16)
GCU_APPLY_1ST_ENTRY (GrB_Vector_apply_BinaryOp1st_INT32, int32_t, GrB_INT32)
GCU_APPLY_1ST_ENTRY (GrB_Vector_apply_BinaryOp1st_UINT32, uint32_t, GrB_UINT32)
GCU_APPLY_1ST_ENTRY (GrB_Vector_apply_BinaryOp1st_INT64, int64_t, GrB_INT64)
GCU_APPLY_1ST_ENTRY (GrB_Vector_apply_BinaryOp1st_UINT64, uint64_t, GrB_UINT64)
GCU_APPLY_1ST_ENTRY (GrB_Vector_apply_BinaryOp1st_FP32, float, GrB_FP32)
GCU_APPLY_1ST_ENTRY (GrB_Vector_apply_BinaryOp1st_FP64, double, GrB_FP64)
GCU_APPLY_1ST_ENTRY (GxB_Vector_apply_BinaryOp1st_FC32, GxB_FC32_t, GxB_FC32)
GCU_APPLY_1ST_ENTRY (GxB_Vector_apply_BinaryOp1st_FC64, GxB_FC64_t, GxB_FC64)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_BinaryOp2nd_BOOL, GrB_BinaryOp, binop, GCU_OP_VECTOR_APPLY_BINOP2ND, bool, GrB_BOOL)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_BinaryOp2nd_INT8, GrB_BinaryOp, binop, GCU_OP_VECTOR_APPLY_BINOP2ND, int8_t, GrB_INT8)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_BinaryOp2nd_UINT8, GrB_BinaryOp, binop, GCU_OP_VECTOR_APPLY_BINOP2ND, uint8_t, GrB_UINT8)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_BinaryOp2nd_INT16, GrB_BinaryOp, binop, GCU_OP_VECTOR_APPLY_BINOP2ND, int16_t, GrB_INT16)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_BinaryOp2nd_UINT16, GrB_BinaryOp, binop, GCU_OP_VECTOR_APPLY_BINOP2ND, uint16_t, GrB_UINT16)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_BinaryOp2nd_INT32, GrB_BinaryOp, binop, GCU_OP_VECTOR_APPLY_BINOP2ND, int32_t, GrB_INT32)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_BinaryOp2nd_UINT32, GrB_BinaryOp, binop, GCU_OP_VECTOR_APPLY_BINOP2ND, uint32_t, GrB_UINT32)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_BinaryOp2nd_INT64, GrB_BinaryOp, binop, GCU_OP_VECTOR_APPLY_BINOP2ND, int64_t, GrB_INT64)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_BinaryOp2nd_UINT64, GrB_BinaryOp, binop, GCU_OP_VECTOR_APPLY_BINOP2ND, uint64_t, GrB_UINT64)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_BinaryOp2nd_FP32, GrB_BinaryOp, binop, GCU_OP_VECTOR_APPLY_BINOP2ND, float, GrB_FP32)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_BinaryOp2nd_FP64, GrB_BinaryOp, binop, GCU_OP_VECTOR_APPLY_BINOP2ND, double, GrB_FP64)
GCU_APPLY_2ND_ENTRY (GxB_Vector_apply_BinaryOp2nd_FC32, GrB_BinaryOp, binop, GCU_OP_VECTOR_APPLY_BINOP2ND, GxB_FC32_t, GxB_FC32)
GCU_APPLY_2ND_ENTRY (GxB_Vector_apply_BinaryOp2nd_FC64, GrB_BinaryOp, binop, GCU_OP_VECTOR_APPLY_BINOP2ND, GxB_FC64_t, GxB_FC64)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_IndexOp_BOOL, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_APPLY_INDEXOP, bool, GrB_BOOL)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_IndexOp_INT8, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_APPLY_INDEXOP, int8_t, GrB_INT8)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_IndexOp_UINT8, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_APPLY_INDEXOP, uint8_t, GrB_UINT8)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_IndexOp_INT16, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_APPLY_INDEXOP, int16_t, GrB_INT16)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_IndexOp_UINT16, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_APPLY_INDEXOP, uint16_t, GrB_UINT16)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_IndexOp_INT32, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_APPLY_INDEXOP, int32_t, GrB_INT32)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_IndexOp_UINT32, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_APPLY_INDEXOP, uint32_t, GrB_UINT32)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_IndexOp_INT64, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_APPLY_INDEXOP, int64_t, GrB_INT64)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_IndexOp_UINT64, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_APPLY_INDEXOP, uint64_t, GrB_UINT64)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_IndexOp_FP32, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_APPLY_INDEXOP, float, GrB_FP32)
GCU_APPLY_2ND_ENTRY (GrB_Vector_apply_IndexOp_FP64, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_APPLY_INDEXOP, double, GrB_FP64)
GCU_APPLY_2ND_ENTRY (GxB_Vector_apply_IndexOp_FC32, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_APPLY_INDEXOP, GxB_FC32_t, GxB_FC32)
GCU_APPLY_2ND_ENTRY (GxB_Vector_apply_IndexOp_FC64, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_APPLY_INDEXOP, GxB_FC64_t, GxB_FC64)
// GrB_Vector_select_<T>: the IndexOp form's arguments, u's entries kept where
// op (u(i), i, 0, y) is true (GrB_Vector_select_UDT passes through)
GCU_APPLY_2ND_ENTRY (GrB_Vector_select_BOOL, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_SELECT, bool, GrB_BOOL)
GCU_APPLY_2ND_ENTRY (GrB_Vector_select_INT8, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_SELECT, int8_t, GrB_INT8)
GCU_APPLY_2ND_ENTRY (GrB_Vector_select_UINT8, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_SELECT, uint8_t, GrB_UINT8)
GCU_APPLY_2ND_ENTRY (GrB_Vector_select_INT16, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_SELECT, int16_t, GrB_INT16)
GCU_APPLY_2ND_ENTRY (GrB_Vector_select_UINT16, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_SELECT, uint16_t, GrB_UINT16)
GCU_APPLY_2ND_ENTRY (GrB_Vector_select_INT32, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_SELECT, int32_t, GrB_INT32)
GCU_APPLY_2ND_ENTRY (GrB_Vector_select_UINT32, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_SELECT, uint32_t, GrB_UINT32)
GCU_APPLY_2ND_ENTRY (GrB_Vector_select_INT64, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_SELECT, int64_t, GrB_INT64)
GCU_APPLY_2ND_ENTRY (GrB_Vector_select_UINT64, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_SELECT, uint64_t, GrB_UINT64)
GCU_APPLY_2ND_ENTRY (GrB_Vector_select_FP32, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_SELECT, float, GrB_FP32)
GCU_APPLY_2ND_ENTRY (GrB_Vector_select_FP64, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_SELECT, double, GrB_FP64)
GCU_APPLY_2ND_ENTRY (GxB_Vector_select_FC32, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_SELECT, GxB_FC32_t, GxB_FC32)
GCU_APPLY_2ND_ENTRY (GxB_Vector_select_FC64, GrB_IndexUnaryOp, idxop, GCU_OP_VECTOR_SELECT, GxB_FC64_t, GxB_FC64)

// GrB_Matrix_select_<T>: C<M> = accum (C, A's entries where op (A(i,j), i, j,
// y) is true), y in call.scalar (GrB_Matrix_select_UDT passes through)
#define GCU_MATRIX_SELECT_ENTRY(NAME, CTYPE, GTYPE)                            \
    GCU_BOUND_2ND_ENTRY (NAME, GrB_Matrix, GrB_IndexUnaryOp, idxop, GCU_OP_MATRIX_SELECT, CTYPE, GTYPE)
GCU_MATRIX_SELECT_ENTRY (GrB_Matrix_select_BOOL, bool, GrB_BOOL)
GCU_MATRIX_SELECT_ENTRY (GrB_Matrix_select_INT8, int8_t, GrB_INT8)
GCU_MATRIX_SELECT_ENTRY (GrB_Matrix_select_UINT8, uint8_t, GrB_UINT8)
GCU_MATRIX_SELECT_ENTRY (GrB_Matrix_select_INT16, int16_t, GrB_INT16)
GCU_MATRIX_SELECT_ENTRY (GrB_Matrix_select_UINT16, uint16_t, GrB_UINT16)
GCU_MATRIX_SELECT_ENTRY (GrB_Matrix_select_INT32, int32_t, GrB_INT32)
GCU_MATRIX_SELECT_ENTRY (GrB_Matrix_select_UINT32, uint32_t, GrB_UINT32)
GCU_MATRIX_SELECT_ENTRY (GrB_Matrix_select_INT64, int64_t, GrB_INT64)
GCU_MATRIX_SELECT_ENTRY (GrB_Matrix_select_UINT64, uint64_t, GrB_UINT64)
GCU_MATRIX_SELECT_ENTRY (GrB_Matrix_select_FP32, float, GrB_FP32)
GCU_MATRIX_SELECT_ENTRY (GrB_Matrix_select_FP64, double, GrB_FP64)
GCU_MATRIX_SELECT_ENTRY (GxB_Matrix_select_FC32, GxB_FC32_t, GxB_FC32)
GCU_MATRIX_SELECT_ENTRY (GxB_Matrix_select_FC64, GxB_FC64_t, GxB_FC64)

// the GrB_Scalar forms: the scalar in call.alpha
GrB_Info GrB_Vector_apply_BinaryOp1st_Scalar (GrB_Vector w, const GrB_Vector M,
    const GrB_BinaryOp accum, const GrB_BinaryOp op, const GrB_Scalar x, const GrB_Vector u,
    const GrB_Descriptor desc)
{
    typedef GrB_Info (*fn_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
        const GrB_BinaryOp, const GrB_Scalar, const GrB_Vector, const GrB_Descriptor) ;
    GCU_ENTRY_BODY ("GrB_Vector_apply_BinaryOp1st_Scalar", GCU_OP_VECTOR_APPLY_BINOP1ST, w,
        (w, M, accum, op, x, u, desc), (void) 0, .C = w, .M = M, .accum = accum, .binop = op,
        .A = u, .alpha = x, .desc = desc)
}

#define GCU_BOUND_2ND_SCALAR_ENTRY(NAME, OBJ, OPTYPE, FIELD, OPCODE)           \
GrB_Info NAME (OBJ w, const OBJ M, const GrB_BinaryOp accum,                   \
    const OPTYPE op, const OBJ u, const GrB_Scalar y, const GrB_Descriptor desc) \
{                                                                              \
    typedef GrB_Info (*fn_t) (OBJ, const OBJ, const GrB_BinaryOp,              \
        const OPTYPE, const OBJ, const GrB_Scalar, const GrB_Descriptor) ;     \
    GCU_ENTRY_BODY (#NAME, OPCODE, w, (w, M, accum, op, u, y, desc), (void) 0, \
        .C = w, .M = M, .accum = accum, .FIELD = op, .A = u, .alpha = y, .desc = desc) \
}
#define GCU_APPLY_2ND_SCALAR_ENTRY(NAME, OPTYPE, FIELD, OPCODE)                \
    GCU_BOUND_2ND_SCALAR_ENTRY (NAME, GrB_Vector, OPTYPE, FIELD, OPCODE)

GCU_APPLY_2ND_SCALAR_ENTRY (GrB_Vector_apply_BinaryOp2nd_Scalar, GrB_BinaryOp, binop,
    GCU_OP_VECTOR_APPLY_BINOP2ND)
GCU_APPLY_2ND_SCALAR_ENTRY (GrB_Vector_apply_IndexOp_Scalar, GrB_IndexUnaryOp, idxop,
    GCU_OP_VECTOR_APPLY_INDEXOP)
GCU_APPLY_2ND_SCALAR_ENTRY (GrB_Vector_select_Scalar, GrB_IndexUnaryOp, idxop,
    GCU_OP_VECTOR_SELECT)
GCU_BOUND_2ND_SCALAR_ENTRY (GrB_Matrix_select_Scalar, GrB_Matrix, GrB_IndexUnaryOp, idxop,
    GCU_OP_MATRIX_SELECT)
