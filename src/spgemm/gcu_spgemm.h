// gcu_spgemm.h — the SpGEMM engine C = A*B on the device (cuda/spgemm/),
// called by the GrB_mxm GPU family with operands already on the device. Its
// tuning: cuda/spgemm/gcu_spgemm_policy.h; its host files: spgemm_internal.h.
#ifndef GCU_SPGEMM_H
#define GCU_SPGEMM_H

#include "../device/gcu_cuda.h"
#include "../jit/gcu_jit.h"

#ifdef __cplusplus
extern "C" {
#endif

// Inputs (device, CSR): A is m-by-k, B k-by-n. Index width per operand:
// uint32_t row pointers and column indices, or uint64_t when *_idx64.
typedef struct
{
    int64_t m, k, n ;
    int64_t anvals, bnvals ;
    bool a_idx64, b_idx64 ;
    const void *Ap, *Aj, *Ax ;
    const void *Bp, *Bj, *Bx ;
}
gcu_spgemm_in ;

// Output T, CSR of the semiring's z type, every row sorted, on the device
// (when asked, and it fits one row block) or on the host:
// Tp [m+1], Tj [nvals] (column indices), Tx [nvals] values, from the
// allocator SuiteSparse uses (gcu_host_malloc): they can be packed into a
// matrix. The numeric phase runs in row blocks whose output goes down while
// the next block computes, so a result larger than the device still runs.
// Where the output may stay on the device (the caller's result buffers,
// e.g. a residency entry's): alloc gives device memory the caller owns
// (GrB_SUCCESS, or anything else: the output goes to the host after all).
typedef struct
{
    GrB_Info (*alloc) (void *ctx, size_t bytes, void **p) ;
    void *ctx ;
}
gcu_spgemm_keep ;

typedef struct
{
    // in: non-NULL asks for the output on the device when it fits one row
    // block (then on_device is set and Tp/Tj/Tx stay NULL)
    const gcu_spgemm_keep *keep ;
    // out, on the device: uint32_t row pointers (m+1), int32_t column
    // indices and values (nvals each), in buffers from keep->alloc
    bool on_device ;
    void *dTp, *dTj, *dTx ;
    // out, on the host
    GrB_Index *Tp, *Tj ;
    void *Tx ;
    int64_t nvals ;
    double products ;           // multiply-adds done (the analysis's count)
    double kernel_seconds ;     // device time of analysis + symbolic + numeric
    double download_seconds ;   // host time in the downloads (overlapping the numeric phase)
    int nblocks ;               // row blocks of the numeric phase
    int64_t block_bytes ;       // device bytes of one block's output buffer
}
gcu_spgemm_out ;

// GCU_NOT_HANDLED when the case is outside this engine (n >= 2^31, a kernel
// that does not compile); GrB_OUT_OF_MEMORY (the host arrays, or a row
// whose tables do not fit the device) / GrB_PANIC on device failures. On
// any failure nothing stays allocated, on the device or the host.
GrB_Info gcu_spgemm_run (const gcu_semiring_desc *sr, const gcu_jit_operands *ops,
    const gcu_spgemm_in *in, gcu_spgemm_out *out, gcu_stream s) ;
// frees T's host arrays (those still owned: NULL once packed)
void gcu_spgemm_out_free (gcu_spgemm_out *out) ;
// row blocks run since the start of the process (tests; src/dispatch/stats.c)
int64_t gcu_spgemm_blocks_total (void) ;
void gcu_spgemm_blocks_add (int64_t n) ;

// The numeric kernels of one specialisation (jit_spgemm.c): compiled through
// the JIT caches and loaded; *shared and *global are CUfunctions.
GrB_Info gcu_spgemm_numeric_kernels (const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, void **shared, void **global, void **dense) ;
// the name of the block's dense-accumulator kernel (only for values of at
// most 8 bytes), derived from entry_shared
void gcu_spgemm_entry_dense (const char *entry_shared, char entry_dense [GCU_JIT_ENTRY_MAX]) ;
// The specialisation block (two kernels, named entry_shared / entry_global)
// and the preamble its programs start with: blocks of several
// specialisations pack into one program (the CI sweep).
const char *gcu_spgemm_preamble (void) ;
GrB_Info gcu_spgemm_block (const gcu_semiring_desc *sr, const gcu_jit_operands *ops,
    gcu_str *block, char entry_shared [GCU_JIT_ENTRY_MAX], char entry_global [GCU_JIT_ENTRY_MAX]) ;
// The whole program of one specialisation.
GrB_Info gcu_spgemm_numeric_program (const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, char **program, char entry_shared [GCU_JIT_ENTRY_MAX],
    char entry_global [GCU_JIT_ENTRY_MAX]) ;

// Masked saxpy C<M> = A*B (M not complemented; valued when ops->mask_type
// >= 0, structural otherwise): the result is positional, Cx [e] / Cb [e] for
// the e-th entry of M (CSR, sorted rows), Cb [e] = 1 when C has that entry.
// Cx and Cb are device arrays of mask->nvals entries (z type; bytes).
typedef struct
{
    int64_t nvals ;
    bool idx64 ;
    const void *Mp, *Mj, *Mx ;
}
gcu_spgemm_mask ;
GrB_Info gcu_spgemm_masked_run (const gcu_semiring_desc *sr, const gcu_jit_operands *ops,
    const gcu_spgemm_in *in, const gcu_spgemm_mask *mask, void *Cx, int8_t *Cb,
    double *kernel_seconds, gcu_stream s) ;
GrB_Info gcu_spgemm_masked_program (const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, char **program, char entry_shared [GCU_JIT_ENTRY_MAX],
    char entry_global [GCU_JIT_ENTRY_MAX]) ;
GrB_Info gcu_spgemm_masked_kernels (const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, void **shared, void **global) ;
GrB_Info gcu_spgemm_masked_block (const gcu_semiring_desc *sr, const gcu_jit_operands *ops,
    gcu_str *block, char entry_shared [GCU_JIT_ENTRY_MAX], char entry_global [GCU_JIT_ENTRY_MAX]) ;

#ifdef __cplusplus
}
#endif

#endif
