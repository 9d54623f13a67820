// gcu_mxm.h — what the GrB_mxm GPU families share: operands on the device
// through the residency cache (an unchanged operand is neither exported nor
// uploaded again; on a miss it leaves SuiteSparse as CSR or CSC without
// changing the object, with 32-bit indices where they fit, and goes up
// through the pinned staging buffers), and the write-back of a result T
// into C with GraphBLAS's C<M,replace> = accum (C, T).
#ifndef GCU_MXM_H
#define GCU_MXM_H

#include "../util/gcu_call.h"
#include "../util/gcu_util.h"
#include "../device/gcu_cuda.h"
#include "../export/gcu_export.h"
#include "../residency/gcu_residency.h"
#include "../residency/gcu_operand.h"
#include "../spgemm/gcu_spgemm.h"
#include "../jit/gcu_jit.h"
#include "gcu_dot_masked.h"
#include "../../cuda/writeback/gcu_merge_args.h"

//------------------------------------------------------------------------------
// operands
//------------------------------------------------------------------------------

// (operands on the device: gcu_operand, src/residency/gcu_operand.h)

//------------------------------------------------------------------------------
// host CSR copies (64-bit, as GraphBLAS exports them; nx < nj when iso).
// Not used by the families (they go through gcu_operand_get); kept for
// tests/cpu/test_mxm_export.c, which compares the copy with GrB_Matrix_export.
//------------------------------------------------------------------------------

typedef struct
{
    GrB_Index *p, *j ;
    void *x ;
    GrB_Index np, nj, nx ;
}
gcu_host_csr ;

// CSR of op(A): A itself, or (transpose) its CSC, which is the CSR of A'.
GrB_Info gcu_export_csr_copy (GrB_Matrix A, bool transpose, size_t tsize, gcu_host_csr *h) ;
void gcu_host_csr_free (gcu_host_csr *h) ;

//------------------------------------------------------------------------------
// results
//------------------------------------------------------------------------------

// T from a positional result, one value and one flag per entry of the mask
// (the masked dot and masked saxpy kernels): dCx [e] (zsize bytes) and
// dCb [e] (nonzero: T has the entry) on the device for the e-th entry of
// om, the mask as gcu_operand_get gave it (by row; its rows are T's m rows).
// The results come back through the staging buffers, with the mask's
// pattern when om came from the cache (else its host export, kept with
// keep_host, is used), and T = the mask's pattern less the empty entries is
// built on the host in parallel, into arrays from gcu_host_malloc (owned by
// the caller on success; nothing allocated on failure). The kernels must
// have been queued on s. *down_bytes and *t_download: what the download
// moved and took.
GrB_Info gcu_mxm_positional_T (const gcu_operand *om, GrB_Index m,
    const void *dCx, const int8_t *dCb, size_t zsize, GrB_Index **Tp,
    GrB_Index **Tj, void **Tx, GrB_Index *nvals, size_t *down_bytes,
    double *t_download, gcu_stream s) ;

// A buffer of a result being kept (keep->alloc); GCU_NOT_HANDLED when there
// is no room: the result then goes to the host, not a GPU failure.
static inline GrB_Info gcu_mxm_keep_alloc (const gcu_spgemm_keep *keep, size_t bytes, void **p)
{
    return keep->alloc (keep->ctx, bytes, p) == GrB_SUCCESS ? GrB_SUCCESS : GCU_NOT_HANDLED ;
}

// C<M,replace> = accum (C, T) for T = (Tp, Tj, Tx) of type ztype, m-by-n, rows sorted,
// arrays from gcu_host_malloc; on success they belong to SuiteSparse and
// *Tp etc. are NULL. M, accum and the mask/replace settings come from call.
// t_in_mask: every entry of T lies on a true entry of the (not complemented)
// mask, as the positional families guarantee; an empty C (or any C under
// GrB_REPLACE) then takes T as is.
GrB_Info gcu_mxm_write_back (gcu_call *call, GrB_Type ztype, GrB_Index m,
    GrB_Index n, GrB_Index **Tp, GrB_Index **Tj, void **Tx, GrB_Index nvals,
    size_t zsize, bool t_in_mask) ;

//------------------------------------------------------------------------------
// results left on the device (DESIGN §3)
//------------------------------------------------------------------------------

// A result that may stay on the device as C's newest value: a residency
// entry for C being built, whose buffers the SpGEMM engine (or the
// positional compaction) writes its output into (keep). Only where
// C<M,replace> = accum (C, T) is T itself: no accum, C of T's type, and no
// mask, or (t_in_mask) T inside the mask's true entries with C empty or
// GrB_REPLACE; and
// when GRBCUDA_KEEP_RESULTS allows. Otherwise false and nothing held.
typedef struct
{
    gcu_res_entry *e ;
    gcu_spgemm_keep keep ;
    bool iso ;          // the values buffer holds one value (GrB_Matrix_select's)
}
gcu_mxm_result ;

bool gcu_mxm_result_begin (const gcu_call *call, GrB_Type ztype, bool t_in_mask,
    gcu_mxm_result *r) ;
// The same entry for C with no condition (the device write-back decides):
// false if the residency cache cannot begin one.
bool gcu_mxm_result_open (const gcu_call *call, gcu_mxm_result *r) ;
// The entry (row pointers and column indices, uint64 when idx64 else uint32,
// values) becomes C's newest value: C's old copies go; reading C later
// writes it into C.
// A product call (call->t_iso_done) gives the value the iso status
// SuiteSparse would (gcu_iso_call_result; GCU_NOT_HANDLED, nothing
// published, where it is not known); other calls' values are iso where the
// entry holds one value (r->iso).
GrB_Info gcu_mxm_result_publish (gcu_call *call, gcu_mxm_result *r, GrB_Type ztype,
    size_t zsize, GrB_Index m, GrB_Index n, GrB_Index nvals, bool idx64) ;
// Gives the entry up (the result went to the host after all); r may be zeros.
void gcu_mxm_result_end (gcu_mxm_result *r) ;

// T out of a positional result on the device (as gcu_mxm_positional_T), left
// there: CSR with the mask's index width in buffers from keep->alloc, rows
// sorted; *nvals its entries. Temporaries from the pool; synchronises s.
GrB_Info gcu_mxm_positional_T_device (const gcu_operand *om, GrB_Index m,
    const void *dCx, const int8_t *dCb, size_t zsize, const gcu_spgemm_keep *keep,
    GrB_Index *nvals, gcu_stream s) ;

//------------------------------------------------------------------------------
// the device write-back: C<M,replace> = accum (C, T)
//------------------------------------------------------------------------------

// The merged result (cuda/writeback/gcu_merge.cuh: C, T, M and the flags
// in *in) into buffers from keep (64-bit row pointers and column indices,
// values of in->csize bytes), *nvals its entries; synchronises. typed_fill:
// the JIT's fill kernel (gcu_mxm_merge_kernel), or NULL to copy values as
// bytes (no accum, C of T's type). GCU_NOT_HANDLED when keep has no room
// (nothing written into C), else a device failure's status.
GrB_Info gcu_mxm_merge_device (const gcu_merge_args *in, void *typed_fill,
    const gcu_spgemm_keep *keep, GrB_Index *nvals, gcu_stream s) ;

// The JIT's fill kernel (a CUfunction) for C of type ctype, T of ttype and
// accum (NULL: none), the result of otype (NULL: C's type; an element-wise
// op's z type): GCU_NOT_HANDLED when the JIT cannot express it.
GrB_Info gcu_mxm_merge_kernel (GrB_Type ctype, GrB_Type ttype, GrB_Type otype,
    GrB_BinaryOp accum, void **fn) ;
// ... its program text (what the JIT compiles; label: for the log), and its
// compilation alone (no GPU needed): the binary and its entry name
GrB_Info gcu_mxm_merge_program (GrB_Type ctype, GrB_Type ttype, GrB_BinaryOp accum,
    char **program, char entry [GCU_JIT_ENTRY_MAX], char *label, size_t lsize) ;
GrB_Info gcu_mxm_merge_compile (GrB_Type ctype, GrB_Type ttype, GrB_BinaryOp accum,
    const gcu_jit_binary **bin, char entry [GCU_JIT_ENTRY_MAX]) ;

// Device buffers a GPU family's T is kept in until the merge (an allocator
// for gcu_spgemm_keep, freed together).
typedef struct
{
    gcu_spgemm_keep keep ;
    void *p [4] ;
    int n ;
    gcu_stream s ;
}
gcu_mxm_scratch ;
void gcu_mxm_scratch_init (gcu_mxm_scratch *t, gcu_stream s) ;
void gcu_mxm_scratch_free (gcu_mxm_scratch *t) ;

// Where the device write-back applies (a product's T of type ztype on the
// device): a mask (not a user type's values) or an accum (a built-in or
// defined operator, not positional), C of T's type or both of built-in
// types (a typecast), GRBCUDA_KEEP_RESULTS on.
bool gcu_mxm_merge_applies (const gcu_call *call, GrB_Type ztype) ;

// C<M,replace> = accum (C, T) for T on the device (Tp and Tj uint32 or
// uint64 by t_idx64, Tx of type ztype, zsize bytes): M and (where its
// entries can stay or accumulate) C come from the residency cache or are
// uploaded; the result becomes C's newest value. GrB_SUCCESS, or a failure with C unchanged
// (the caller's GPU failure: the host reruns the call).
GrB_Info gcu_mxm_merge_into_c (gcu_call *call, GrB_Type ztype, size_t zsize,
    GrB_Index m, GrB_Index n, const void *Tp, const void *Tj, const void *Tx,
    bool t_idx64, GrB_Index *nvals, gcu_stream s) ;

// Every entry of a rows-by-cols operand present (nvals): whether SuiteSparse
// holds it full is for gcu_dense_get to say.
static inline bool gcu_mxm_full_count (GrB_Index nvals, GrB_Index rows, GrB_Index cols)
{
    return rows > 0 && cols > 0 && cols <= UINT64_MAX / rows && nvals == rows * cols ;
}

// Tests: how many calls the masked dot family ran as SDDMM (dense operands).
uint64_t gcu_mxm_sddmm_runs (void) ;

// A(i,j) of a device-newest A (a GCU_MXM_LAYOUT entry) read from the
// device: GrB_SUCCESS with the value (of *type, a built-in type: at most 16
// bytes) in value, GrB_NO_VALUE if A has no entry there, GCU_NOT_HANDLED
// when A is not such an object, an index is out of range, or the device
// fails (the caller then materializes A and asks SuiteSparse).
GrB_Info gcu_mxm_newest_element (const void *A, GrB_Index i, GrB_Index j,
    void *value, const gcu_type_info **type) ;

#endif
