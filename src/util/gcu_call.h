// gcu_call.h — what the dispatch hands a GPU kernel family (DESIGN §2, §4):
// one interposed call (gcu_call) and the contract of a family (gcu_family,
// branch then run). Data only: it sits at the bottom so that the families
// (src/mxm, src/mxv, ...) see it without including the dispatch above them
// (DESIGN §6); the dispatch (gcu_dispatch.h) fills calls and runs families.
// Internal header: never installed.
#ifndef GCU_CALL_H
#define GCU_CALL_H

#include <GraphBLAS.h>
#include <stdbool.h>
#include <stdint.h>
#include "grbcuda.h"

// Interposed operations, one row each: GCU_OP_<CODE> and the GraphBLAS
// function's name (gcu_op_name, stats.c; also the keys of grbcuda_stats_get).
#define GCU_CALL_OPS(X)                                                        \
    X (MXM, GrB_mxm)                                                           \
    X (MXV, GrB_mxv)                                                           \
    X (VXM, GrB_vxm)                                                           \
    X (MATRIX_EWISEMULT_SEMIRING, GrB_Matrix_eWiseMult_Semiring)               \
    X (MATRIX_EWISEMULT_MONOID,   GrB_Matrix_eWiseMult_Monoid)                 \
    X (MATRIX_EWISEMULT_BINARYOP, GrB_Matrix_eWiseMult_BinaryOp)               \
    X (MATRIX_EWISEADD_SEMIRING,  GrB_Matrix_eWiseAdd_Semiring)                \
    X (MATRIX_EWISEADD_MONOID,    GrB_Matrix_eWiseAdd_Monoid)                  \
    X (MATRIX_EWISEADD_BINARYOP,  GrB_Matrix_eWiseAdd_BinaryOp)                \
    X (MATRIX_EWISEUNION,         GxB_Matrix_eWiseUnion)                       \
    X (VECTOR_EWISEMULT_SEMIRING, GrB_Vector_eWiseMult_Semiring)               \
    X (VECTOR_EWISEMULT_MONOID,   GrB_Vector_eWiseMult_Monoid)                 \
    X (VECTOR_EWISEMULT_BINARYOP, GrB_Vector_eWiseMult_BinaryOp)               \
    X (VECTOR_EWISEADD_SEMIRING,  GrB_Vector_eWiseAdd_Semiring)                \
    X (VECTOR_EWISEADD_MONOID,    GrB_Vector_eWiseAdd_Monoid)                  \
    X (VECTOR_EWISEADD_BINARYOP,  GrB_Vector_eWiseAdd_BinaryOp)                \
    X (VECTOR_EWISEUNION,         GxB_Vector_eWiseUnion)                       \
    X (VECTOR_ASSIGN,             GrB_Vector_assign)                           \
    X (VECTOR_ASSIGN_SCALAR,      GrB_Vector_assign_scalar)                    \
    X (VECTOR_APPLY,              GrB_Vector_apply)                            \
    X (VECTOR_APPLY_BINOP1ST,     GrB_Vector_apply_BinaryOp1st)                \
    X (VECTOR_APPLY_BINOP2ND,     GrB_Vector_apply_BinaryOp2nd)                \
    X (VECTOR_APPLY_INDEXOP,      GrB_Vector_apply_IndexOp)                    \
    X (VECTOR_SELECT,             GrB_Vector_select)                           \
    X (MATRIX_SELECT,             GrB_Matrix_select)

typedef enum
{
#define GCU_CALL_OP_ENUM(CODE, NAME) GCU_OP_##CODE,
    GCU_CALL_OPS (GCU_CALL_OP_ENUM)
#undef GCU_CALL_OP_ENUM
    GCU_OP_COUNT
}
gcu_op ;

// eWiseAdd, eWiseMult (any operator kind) and eWiseUnion of matrices and
// vectors
// an operation whose objects are matrices (mxm, the matrix element-wise
// calls), not mxv/vxm or a vector operation
static inline bool gcu_op_matrix (gcu_op op)
{
    return (op <= GCU_OP_MATRIX_EWISEUNION && op != GCU_OP_MXV && op != GCU_OP_VXM)
        || op == GCU_OP_MATRIX_SELECT ;
}

static inline bool gcu_op_ewise (gcu_op op)
{
    return (op >= GCU_OP_MATRIX_EWISEMULT_SEMIRING && op <= GCU_OP_MATRIX_EWISEUNION)
        || (op >= GCU_OP_VECTOR_EWISEMULT_SEMIRING && op <= GCU_OP_VECTOR_EWISEUNION) ;
}

// eWiseMult (any operator kind) of a matrix or a vector
static inline bool gcu_op_mult (gcu_op op)
{
    return (op >= GCU_OP_MATRIX_EWISEMULT_SEMIRING && op <= GCU_OP_MATRIX_EWISEMULT_BINARYOP)
        || (op >= GCU_OP_VECTOR_EWISEMULT_SEMIRING && op <= GCU_OP_VECTOR_EWISEMULT_BINARYOP) ;
}

// eWiseUnion of a matrix or a vector
static inline bool gcu_op_union (gcu_op op)
{
    return op == GCU_OP_MATRIX_EWISEUNION || op == GCU_OP_VECTOR_EWISEUNION ;
}

// GrB_Vector_assign (w<M>(I) = accum (w(I), u)) and its scalar forms
// (GrB_Vector_assign_<T>, one opcode for every built-in T: w<M>(I) =
// accum (w(I), x)); their statistics key is "GrB_Vector_assign_scalar"
static inline bool gcu_op_assign (gcu_op op)
{
    return op == GCU_OP_VECTOR_ASSIGN || op == GCU_OP_VECTOR_ASSIGN_SCALAR ;
}

// GrB_Vector_apply (w<M> = accum (w, op (u)), a unary operator) and its
// bound forms: GrB_Vector_apply_BinaryOp1st_<T> (op (x, u)),
// _BinaryOp2nd_<T> (op (u, y)) and _IndexOp_<T> (op (u, i, 0, y)), one
// opcode for every T and for the GrB_Scalar form; their statistics keys
// drop the type ("GrB_Vector_apply_BinaryOp2nd"); and GrB_Vector_select_<T>
// (w<M> = accum (w, u's entries where op (u, i, 0, y) is true), an index
// unary operator, one opcode for every T and the GrB_Scalar form, key
// "GrB_Vector_select"), the same family (src/vector/apply.c)
static inline bool gcu_op_apply (gcu_op op)
{
    return op >= GCU_OP_VECTOR_APPLY && op <= GCU_OP_VECTOR_SELECT ;
}

// GrB_Matrix_select_<T> (C<M> = accum (C, A's entries where op (A(i,j), i,
// j, y) is true), one opcode for every T and the GrB_Scalar form, key
// "GrB_Matrix_select"; src/mxm/mxm_select.c)
static inline bool gcu_op_select_matrix (gcu_op op)
{
    return op == GCU_OP_MATRIX_SELECT ;
}

// Everything known about one call. The entry point fills the operands; the
// check fills shapes and the estimate; the decision fills reason.
typedef struct
{
    gcu_op op ;
    // operands as passed. For vector operations C, M, A, B are GrB_Vector
    // (A is the matrix of mxv/vxm): see gcu_operand_is_vector.
    void *C ;
    const void *M ;
    GrB_BinaryOp accum ;
    GrB_Semiring semiring ;     // mxm, mxv, vxm, eWise*_Semiring
    GrB_Monoid monoid ;         // eWise*_Monoid
    GrB_BinaryOp binop ;        // eWise*_BinaryOp, eWiseUnion
    const void *A, *B ;
    GrB_Scalar alpha, beta ;    // eWiseUnion
    // assign: the index list and its length (the GPU takes GrB_ALL only);
    // the scalar forms' value (its bytes) and type (A, B are NULL for them)
    const GrB_Index *I ;
    GrB_Index ni ;
    uint64_t scalar [2] ;
    GrB_Type scalar_type ;
    // apply: its operator (the bound forms' is binop); the GrB_Scalar forms'
    // scalar is alpha (scalar_type NULL)
    GrB_UnaryOp unop ;
    GrB_IndexUnaryOp idxop ;
    GrB_Descriptor desc ;
    // filled by the check (valid only if checked is true)
    bool checked ;
    bool tran_a, tran_b ;       // from desc (GrB_INP0 / GrB_INP1)
    bool replace ;              // from desc (GrB_OUTP is GrB_REPLACE)
    bool mask_comp ;            // from desc (GrB_MASK complemented)
    GrB_Index c_rows, c_cols, a_rows, a_cols, b_rows, b_cols ;
    GrB_Index a_nvals, b_nvals ;
    double work ;               // estimated multiply-adds
    // auto mode's predictions (src/dispatch/cost.c), seconds; < 0: none.
    // host_table, gpu_table: the table's alone, before the corrections
    // learned from this program's calls (gcu_cost_learn); gpu_table
    // without a download the result's staying on the device defers
    double host_s, gpu_s, host_table, gpu_table ;
    double host_after ;         // the host's result's upload after the call
                                // (C's return trips, gcu_residency_trip_share),
                                // counted in host_s, not in host_table; s
    double down_share ;         // the share of the result's download the GPU's
                                // time counts where the result stays on the
                                // device (C's write-back share); < 0: all of it
    unsigned long jit_loads ;   // kernels loaded into the GPU before the call
    double first_s ;            // the kind's first run on the GPU, in gpu_s (0: run before)
    int cost_family ;           // the model's family of the call (gcu_cost_family)
    // the outcome
    grbcuda_reason reason ;
    const char *note ;          // why, beyond the reason (verbose log), or NULL
    // auto: the rents this call's host time adds to once it is measured
    // (gcu_finish): the operand whose upload it rents (or NULL), its version
    // and the GPU's time with it there; the GPU's time of a call predicted
    // faster there that waits for CUDA's start to be paid for (< 0: none).
    // rent_paid: the rent of rent_key is paid, this call buys its upload
    // (gcu_cost_amortized)
    const void *rent_key ;
    uint64_t rent_version ;
    double rent_gpu_s, start_gpu_s ;
    bool rent_paid ;
    // auto: a call whose host time its operands and scalar decide more than
    // its work does (GrB_Matrix_select: SSSP's AL keeps every entry, AH none;
    // a product, keyed as its kernels), keyed so that a repeat of it is
    // predicted at its measured time (0: none); newest_s: the host path's
    // write-backs of device-newest objects before SuiteSparse ran, left out
    // of what the repeat keeps (the model counts them apart)
    uint64_t repeat_key ;
    double newest_s ;
    // auto: a product whose kernels' time its structure decides more than its
    // work does, keyed so that a repeat of it is predicted with its kernels'
    // measured time (predict.c; 0: none)
    uint64_t kernel_key ;
    int pending ;               // host while the GPU starts or a kernel compiles
                                // (GCU_PENDING_*, dispatch.c), else 0
    double t_start ;            // gcu_now () at the start; < 0: not timed (dispatch.c)
    // set by a GPU family that times its kernels (CUDA events): the device
    // time of this call's kernels, in seconds. The dispatch sets it to -1
    // (not measured) before the families run; counted for GPU calls only.
    double kernel_seconds ;
    const char *family ;        // the GPU family that produced C (else NULL)
    uint64_t up_bytes, down_bytes ;     // the GPU family's transfers
    // set by a GPU family once it begins writing C's SuiteSparse object (the
    // write-back, host memory): a failure after that is the call's result
    // (final_info), never followed by the host, which would read a C no
    // longer as it was
    bool c_written ;
    GrB_Info final_info ;
    // the host path: C was device newest and not written back first, since
    // the call replaces C whole (gcu_c_replaced); on a host error its
    // device value is written back and SuiteSparse runs again
    // (gcu_host_again), on success the value is dropped unwritten
    bool c_skipped ;
    // the host path: C's write-back before SuiteSparse failed (the call
    // returns that error; C keeps its device value)
    bool c_unwritten ;
    // the iso status SuiteSparse would give the product T of this call
    // (before its mask and accum; gcu_iso_call_product, src/residency):
    // 1 iso with the value t_iso_value, 0 not, -1 not known; valid when
    // t_iso_done (a call's families ask once)
    bool t_iso_done ;
    int8_t t_iso ;
    uint64_t t_iso_value [2] ;
    GrB_Type t_iso_type ;       // the value's type (the semiring's monoid's)
    bool iso_declined ;         // a family declined it for that (gcu_iso_decline)
    // a vector call's result: SuiteSparse's status where it has entries
    // ([1]) or none ([0]), 1 iso with c_iso_value (C's type), 0 not
    // (gcu_iso_call_vector and its element-wise, apply, select and assign
    // forms; zeros for other calls)
    int8_t c_iso [2] ;
    uint64_t c_iso_value [2] ;
    // GrB_mxv, GrB_vxm with an accum: T's status is known and w's is not
    // yet (c_iso then zeros): T is computed on the device all the same, and
    // w's status decided from T's entry count (gcu_iso_call_vector_counted),
    // else the call declined before w is touched
    bool c_iso_open ;
}
gcu_call ;

// A GPU kernel family (DESIGN §4). branch() is the cheap predicate: does the
// family handle this call (op, semiring, types, shapes)? GrB_SUCCESS or
// GCU_NOT_HANDLED. run() executes: GrB_SUCCESS means C holds the result;
// GCU_NOT_HANDLED passes to the next family; any other status is a GPU
// failure, after which C must be exactly as it was and the host runs, unless
// the family had set call->c_written (it failed writing C: that status is
// returned to the caller).
typedef struct
{
    const char *name ;
    gcu_op op ;
    GrB_Info (*branch) (const gcu_call *call) ;
    GrB_Info (*run) (gcu_call *call) ;
}
gcu_family ;

#endif
