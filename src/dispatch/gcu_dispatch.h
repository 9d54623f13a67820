// gcu_dispatch.h — one interposed call, step by step (DESIGN §2): check the
// arguments, decide GPU or host (counting the reason), run a GPU kernel family
// if one takes the call, otherwise (or on any GPU failure) the caller runs
// SuiteSparse. Entry points in src/api/ stay thin: they fill a gcu_call and
// call gcu_try_gpu / gcu_finish.
#ifndef GCU_DISPATCH_H
#define GCU_DISPATCH_H

#include "gcu_util.h"
#include "grbcuda.h"

// Interposed operations; the names (gcu_op_name) are the GraphBLAS function
// names, which are also the keys of grbcuda_stats_get.
typedef enum
{
    GCU_OP_MXM,
    GCU_OP_MXV,
    GCU_OP_VXM,
    GCU_OP_MATRIX_EWISEMULT_SEMIRING,
    GCU_OP_MATRIX_EWISEMULT_MONOID,
    GCU_OP_MATRIX_EWISEMULT_BINARYOP,
    GCU_OP_MATRIX_EWISEADD_SEMIRING,
    GCU_OP_MATRIX_EWISEADD_MONOID,
    GCU_OP_MATRIX_EWISEADD_BINARYOP,
    GCU_OP_MATRIX_EWISEUNION,
    GCU_OP_VECTOR_EWISEMULT_SEMIRING,
    GCU_OP_VECTOR_EWISEMULT_MONOID,
    GCU_OP_VECTOR_EWISEMULT_BINARYOP,
    GCU_OP_VECTOR_EWISEADD_SEMIRING,
    GCU_OP_VECTOR_EWISEADD_MONOID,
    GCU_OP_VECTOR_EWISEADD_BINARYOP,
    GCU_OP_VECTOR_EWISEUNION,
    GCU_OP_COUNT
}
gcu_op ;

const char *gcu_op_name (gcu_op op) ;

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
    GrB_Descriptor desc ;
    // filled by the check (valid only if checked is true)
    bool checked ;
    bool tran_a, tran_b ;       // from desc (GrB_INP0 / GrB_INP1)
    bool replace ;              // from desc (GrB_OUTP is GrB_REPLACE)
    GrB_Index c_rows, c_cols, a_rows, a_cols, b_rows, b_cols ;
    GrB_Index a_nvals, b_nvals ;
    double work ;               // estimated multiply-adds
    // the outcome
    grbcuda_reason reason ;
    double t_start ;
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

// The registration point (registry.c): the families of an operation, in the
// order they are tried. *n receives the count.
const gcu_family *const *gcu_families (gcu_op op, int *n) ;

// How many calls each GPU family has completed (by its name), for the
// verbose log and for tests that must know which family ran. 0 for a name
// never seen.
uint64_t gcu_family_runs (const char *name) ;

// Step 1-4: true if the call is done, *info its result: a GPU family
// produced C (GrB_SUCCESS), or an object the host would read is device
// newest and could not be written back (its error; nothing changed). false:
// the caller runs SuiteSparse, every object of the call now valid on the
// host. call->reason says why. Thread-safe.
bool gcu_try_gpu (gcu_call *call, GrB_Info *info) ;

// Step 5 bookkeeping: counts the call, prints the verbose line, returns info.
GrB_Info gcu_finish (gcu_call *call, GrB_Info info) ;

// Statistics (stats.c).
// kernel_seconds < 0: not measured (or not a GPU call).
void gcu_stats_count (gcu_op op, grbcuda_reason reason, double seconds,
    double kernel_seconds, uint64_t up_bytes, uint64_t down_bytes) ;
void gcu_stats_print_if_enabled (void) ;

#endif
