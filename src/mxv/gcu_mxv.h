// gcu_mxv.h — the GrB_mxv / GrB_vxm GPU family (mxv.c) and the JIT
// specialisation of its kernels (jit_mxv.c, cuda/mxv/gcu_mxv.cuh).
#ifndef GCU_MXV_H
#define GCU_MXV_H

#include "../jit/gcu_jit.h"
#include "../device/gcu_cuda.h"
#include "../../cuda/mxv/gcu_mxv_policy.h"
#include "../../cuda/mxv/gcu_mxv_args.h"
#include "gcu_spmv_plan.h"
#include "gcu_call.h"

// One specialisation: the semiring, the operand types in the semiring's
// order (mxv: ops.a the matrix, ops.b the vector; vxm: ops.a the vector,
// ops.b the matrix), the index width of the matrix (idx64) and the form.
typedef struct
{
    gcu_semiring_desc sr ;
    gcu_jit_operands ops ;
    bool idx64 ;                // the matrix's pointers and indices are uint64_t
    bool vxm ;                  // GrB_vxm: the vector is the multiplier's x
}
gcu_mxv_spec ;

// the #include all mxv blocks share
const char *gcu_mxv_preamble (void) ;

// The family's kernels of one specialisation come in two sets, each its own
// JIT block (GCU_MXV_KERNELS, GCU_SPMV_KERNELS in cuda/mxv/gcu_mxv_jit.cuh):
// an SpMV variant is compiled only where one runs (BFS never needs them)
typedef enum { GCU_MXV_SET_BASE, GCU_MXV_SET_SPMV } gcu_mxv_set ;
#define GCU_MXV_NKERNELS 5         // the most kernels of a set
enum { GCU_MXV_K_PULL, GCU_MXV_K_PUSH, GCU_MXV_K_INIT, GCU_MXV_K_PUSH_LONG } ;  // GCU_MXV_SET_BASE
enum { GCU_MXV_K_VECTOR, GCU_MXV_K_STREAM, GCU_MXV_K_LONG, GCU_MXV_K_ADAPTIVE,
    GCU_MXV_K_SELL } ;       // GCU_MXV_SET_SPMV
// the kernels of a set
int gcu_mxv_nkernels (gcu_mxv_set set) ;

// PLUS_TIMES on one floating type (the monoid's and the multiply's types
// all FP32 or all FP64): the SpMV kernels may sum with the GPU's own + and *
bool gcu_mxv_nat_ok (const gcu_mxv_spec *spec) ;

// Append the block of one set (a namespace with SR and the set's extern "C"
// kernels; kv: the SpMV set's variant, NULL the policy's) to b; entry
// receives the first kernel's name, from which the others are derived
// (gcu_mxv_entries: gcu_mxv_nkernels (set) names, the rest empty).
GrB_Info gcu_mxv_block (const gcu_mxv_spec *spec, gcu_mxv_set set, const gcu_spmv_kvar *kv,
    gcu_str *b, char entry [GCU_JIT_ENTRY_MAX]) ;
void gcu_mxv_entries (const char *entry, gcu_mxv_set set,
    char names [GCU_MXV_NKERNELS] [GCU_JIT_ENTRY_MAX]) ;

// Compile (through the caches) and load a set's kernels (CUfunctions, in the
// order of the set's enum).
GrB_Info gcu_mxv_kernels (const gcu_mxv_spec *spec, gcu_mxv_set set, const gcu_spmv_kvar *kv,
    void *fns [GCU_MXV_NKERNELS]) ;

// Tests: force the method of the family (0 automatic, 1 pull, 2 push).
void gcu_mxv_force_method (int method) ;

// Tests (and GRBCUDA_PUSH_SPLIT): whether push splits the rows of P longer
// than lrow into segments of seg entries (-1 automatic, 0 never, 1 whenever
// P may have such rows); lrow, seg 0: GCU_MXV_PUSH_LONG_ROW,
// GCU_MXV_PUSH_SEG.
void gcu_mxv_force_push_split (int split, int64_t lrow, int64_t seg) ;
// Tests: whether the last push split its long rows (1) or not (0); -1 after
// reset or for pull. Not thread-safe: for single-threaded tests.
int gcu_mxv_last_push_split (void) ;
void gcu_mxv_last_push_split_reset (void) ;

// push's split, on the device with no wait: Us [e] (allocated here through
// gcu_dmalloc, unvals entries: the caller frees it) the inclusive scan over
// u's entries e (positions Ui) of ceil (len / seg) where row Ui [e] of P (row
// pointers Pp, uint64_t if idx64 else uint32_t) has len > lrow entries, 0
// otherwise (src/mxv/push_split.cu, CUB)
GrB_Info gcu_mxv_push_scan (const void *Pp, bool idx64, const int64_t *Ui, int64_t unvals,
    int64_t lrow, int64_t seg, int64_t **Us, gcu_stream s) ;

// The entries of the rows of P (row pointers Pp, uint64_t if idx64 else
// uint32_t) of u's entries (positions Ui, unvals of them): *sum, summed on
// the device (CUB) and read back (synchronises s). GCU_NOT_HANDLED for more
// than INT32_MAX entries.
GrB_Info gcu_mxv_push_edges (const void *Pp, bool idx64, const int64_t *Ui, int64_t unvals,
    int64_t *sum, gcu_stream s) ;

// Tests (and GRBCUDA_SPMV): force the SpMV variant of a call with u full
// and no mask (GCU_SPMV_AUTO: the choice from the matrix's features), and
// whether long rows are split (-1 automatic, 0 never, 1 always when the
// matrix has rows longer than lrow). lrow 0: the automatic bound
// (GCU_MXV_LONG_ROW or GCU_MXV_LONG_ROW_SMALL by R's entries a device thread).
void gcu_mxv_force_variant (int variant, int split, int64_t lrow) ;
// Tests: the native sums of sell and long (gcu_mxv_nat_ok semirings) on (1)
// or off (0), or the policy's and GRBCUDA_SPMV's (-1)
void gcu_mxv_force_spmv_nat (int nat) ;
// Tests: the hub order (src/mxv/spmv_hub.cu) on (1, non-positional
// multipliers) or off (0), or the automatic choice and GRBCUDA_SPMV's (-1);
// whether the last SpMV variant read it (-1 after reset)
void gcu_mxv_force_spmv_hub (int hub) ;
int gcu_mxv_last_spmv_hub (void) ;
// whether a variant other than pull is forced
bool gcu_mxv_spmv_forced (void) ;
// Tests: the kernel of the last product computed by pull (GCU_SPMV_PULL or
// an SpMV variant, plus 16 when its long rows were split); -1 after reset
// or for push. Not thread-safe: for single-threaded tests.
int gcu_mxv_last_spmv (void) ;
void gcu_mxv_last_spmv_reset (void) ;
void gcu_mxv_last_spmv_set (int v) ;

// w<M,replace> = accum (w, T) on the host for a GrB_mxv or GrB_vxm call: T
// of ztype, length m, nvals entries at positions *Ti with values *Tx (zsize
// bytes each; arrays from gcu_host_malloc that SuiteSparse takes over on
// success, NULL then): w = T packed in place (no mask, no accum, w of T's
// type; iso as the call's status says), else T iso as SuiteSparse's T and
// SuiteSparse's own GrB_Vector_apply (identity) or GrB_Vector_assign, w and
// M written back first (mxv_writeback.c)
GrB_Info gcu_mxv_write_back (gcu_call *call, GrB_Type ztype, GrB_Index m,
    GrB_Index **Ti, void **Tx, GrB_Index nvals, size_t zsize) ;

#endif
