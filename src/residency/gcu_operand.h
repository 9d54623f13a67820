// gcu_operand.h — operands of the GPU families on the device, and the
// host write-back's helpers (DESIGN §3: src/residency owns operands and
// write-back). A matrix operand comes through the residency cache (an
// unchanged object is neither exported nor uploaded again; on a miss it
// leaves SuiteSparse as CSR or CSC without changing the object, with 32-bit
// indices where they fit, through the pinned staging buffers). Vectors:
// src/vector/gcu_vector.h.
#ifndef GCU_OPERAND_H
#define GCU_OPERAND_H

#include "gcu_residency.h"
#include "gcu_call.h"
#include "gcu_semiring.h"
#include "gcu_iso.h"
#include "../device/gcu_cuda.h"
#include "../export/gcu_export.h"

// gcu_res_data.layout of the cache entries made here (gcu_residency.h)
#define GCU_MXM_LAYOUT GCU_RES_LAYOUT_CSR

// One operand of a GPU call on the device: the CSR of the object (by_col
// false) or its CSC, i.e. the CSR of its transpose (by_col true).
typedef struct
{
    const void *p, *j, *x ;     // device: pointers, indices, values
    bool idx64 ;                // p and j are uint64_t (else uint32_t)
    bool iso ;                  // x holds one value
    GrB_Index nvec, nvals ;     // outer dimension; entries
    gcu_operand_how how ;
    size_t up_bytes ;           // bytes this call uploaded for it
    size_t dev_bytes ;          // bytes its device copy occupies
    double export_s, upload_s ; // this call's time exporting and uploading it
    bool built ;                // a miss built on the device from the other
                                // orientation there (nothing exported nor
                                // uploaded; gcu_transpose.h) in build_s
    bool by_col ;               // (built) the CSC, from the CSR
    double build_s ;
    gcu_csr host ;              // on a miss with keep_host: the host export
                                // (idx_bits 32 or 64, as exported); else empty
    // owned
    gcu_res_entry *e_ ;         // the pinned cache entry, or NULL
    void *own_ [3] ;            // private device buffers (gcu_dmalloc)
}
gcu_operand ;

// Puts the CSR (by_col false) or CSC of A on the device for this call:
// the cache's copy when A is unchanged since it was made (a hit: no export,
// no upload), else exported and uploaded (a miss) and published for later
// calls, or, if the cache cannot hold it, uploaded for this call only. A
// miss whose other orientation the cache holds (A's newest value there
// too; no keep_host) is built on the device from it instead, and a miss of
// the orientation A is not held in, with neither there, uploads A as held
// and builds the wanted one from that copy (gcu_operand_via_held_min),
// unless GRBCUDA_DEVICE_TRANSPOSE=0 (gcu_device_transpose_set); where that
// fails (the device's memory, an error) A is exported after all.
// tsize is the size of A's type. keep_host keeps the host export of a miss
// (or a private copy) in o->host. On failure nothing is held.
GrB_Info gcu_operand_get (GrB_Matrix A, bool by_col, size_t tsize,
    bool keep_host, gcu_operand *o, gcu_stream s) ;

// Tests: every copy made from now on gets 64-bit indices on the device, as
// a matrix past 2^32 entries or columns would (on) or not (off); and the
// number of copies built on the device from the other orientation so far.
void gcu_operand_force_idx64 (bool on) ;
uint64_t gcu_operand_built (void) ;

// A miss of the orientation A is not held in, with neither on the device and
// A of at least nvals entries (default 65536; at most what the device
// transposes), uploads A as it is held and builds the wanted orientation from
// that copy on the device (the held copy stays in the cache). Tests set the
// bound (0: every such miss; the previous one returned); the cost model asks
// gcu_operand_via_held_size whether a matrix of nvals entries goes that way.
GrB_Index gcu_operand_via_held_min (GrB_Index nvals) ;
bool gcu_operand_via_held_size (GrB_Index nvals) ;

// to = from, for a second use in the same call (C = A*A): pins the cache
// entry again, or borrows the private buffers (from must be released last).
void gcu_operand_share (const gcu_operand *from, gcu_operand *to) ;

// Unpins or frees what o holds (o may be all zeros). The kernels that read
// it must be finished (a download that synchronised, or gcu_sync).
void gcu_operand_release (gcu_operand *o, gcu_stream s) ;
// bytes of device memory its copy occupies (a shared use: the same copy)
static inline size_t gcu_operand_device_bytes (const gcu_operand *o) { return o->dev_bytes ; }

// The products a push over the rows of A's by_col orientation would make
// for the entries of u (the sum of those rows' lengths), read from the
// pointers a resident copy of that orientation keeps on the host; u must
// not be device newest. false (and *work untouched) when no such copy is
// resident, it kept no pointers, u has more than `most` entries (at most
// GCU_PUSH_WORK_MOST) or its indices cannot be read (a user-defined type).
// Auto mode's cost model: a BFS frontier of one hub vertex makes 164,039
// products on rmat-22-16, not the average row's 31.
#define GCU_PUSH_WORK_MOST 1024
bool gcu_operand_push_work (const void *A, bool by_col, GrB_Vector u, GrB_Index unvals,
    GrB_Index most, double *work) ;

// "A hit", "B miss (12.3 MB)", "B = A": for the verbose line.
void gcu_operand_describe (const gcu_operand *o, const char *name,
    const char *shared_with, char *buf, size_t size) ;
// the same from how the operand came and what it uploaded (vectors too)
void gcu_operand_how_describe (gcu_operand_how how, size_t up_bytes, const char *name,
    const char *shared_with, char *buf, size_t size) ;

//------------------------------------------------------------------------------
// dense operands (DESIGN §3: full objects stay dense on the device)
//------------------------------------------------------------------------------

// gcu_res_data.layout of a full matrix's GCU_RES_FULL entry: buf [0] its
// values as SuiteSparse holds them, by row or by column (one value if iso)
#define GCU_RES_LAYOUT_DENSE_ROW 0x64656e72
#define GCU_RES_LAYOUT_DENSE_COL 0x64656e63

// A full matrix on the device: element (r,c) of X is x [r*rs + c*cs]
// (by row: rs = ncols, cs = 1; by column: rs = 1, cs = nrows; iso: 0, 0).
typedef struct
{
    const void *x ;
    GrB_Index nrows, ncols ;
    bool by_col, iso ;
    int64_t rs, cs ;
    gcu_operand_how how ;
    size_t up_bytes, dev_bytes ;
    double export_s, upload_s ;
    // owned
    gcu_res_entry *e_ ;
    void *own_ ;
}
gcu_dense ;

// X (a full matrix, values of tsize bytes) on the device for this call:
// the cache's GCU_RES_FULL copy when X is unchanged since it was made, else
// SuiteSparse's own dense array read without a copy or a change
// (gcu_export_dense), uploaded, and published. GCU_NOT_HANDLED when X is
// not held full (sparse, hypersparse, bitmap; or the portable export).
GrB_Info gcu_dense_get (GrB_Matrix X, size_t tsize, gcu_dense *d, gcu_stream s) ;
void gcu_dense_release (gcu_dense *d, gcu_stream s) ;

// The strides of op(X) (transposed when tran): op(X)(r,c) at r*rs + c*cs.
static inline void gcu_dense_strides (const gcu_dense *d, bool tran, int64_t *rs, int64_t *cs)
{
    *rs = tran ? d->cs : d->rs ;
    *cs = tran ? d->rs : d->cs ;
}

//------------------------------------------------------------------------------
// the write-back on the host (SuiteSparse's C<M,replace> = accum (C, T))
//------------------------------------------------------------------------------

// A descriptor with only the mask and output settings of desc (NULL when it
// has none), for a write-back: T is never transposed. The caller frees it.
GrB_Info gcu_writeback_desc (GrB_Descriptor desc, GrB_Descriptor *out) ;

// The mask a write-back with accum hands SuiteSparse: *Mtmp (the caller
// frees it) a bitmap copy of a mask stored full, else NULL (use call->M).
// SuiteSparse 7.4 crashes in GB_subassign_08n on C<M> += T with M full
// (differential tester, seed 13960193856663228033 case 16343: GrB_mxv's
// write-back, a full structural mask, accum ISLE_UINT8).
GrB_Info gcu_writeback_mask (const gcu_call *call, void **Mtmp) ;

// The identity operator of a built-in type t (a write-back's GrB_apply of
// T); NULL for a user-defined type (GrB_assign then)
GrB_UnaryOp gcu_writeback_identity (GrB_Type t) ;

// The mask's kind from the descriptor (GrB_MASK): structural, complemented;
// false if the descriptor cannot be read.
bool gcu_mask_kind (GrB_Descriptor desc, bool *structural, bool *complement) ;

// The iso status SuiteSparse 7.4 would give the product T of a call (mxm,
// mxv, vxm over sr; before its mask and accum): 1 iso (its value in
// call->t_iso_value), 0 not, -1 not known. The operands as SuiteSparse holds
// them; a device-newest one as its write-back will hold it, where every way
// it could be held must give the same status (iso_status.c). Once a call.
int gcu_iso_call_product (gcu_call *call, const gcu_semiring_desc *sr) ;

// The status of C after C<M> = accum (C, T) (a result written whole or left
// on the device; with an accum only T and C not iso are decided), result_nvals its entries (1 where not yet known), T's
// status from gcu_iso_call_product, zsize T's type's size: 1 (value in z),
// 0, or -1 (not known: the host computes the call). An empty result under a
// mask is taken as not iso (SuiteSparse's own methods differ there).
int gcu_iso_call_result (gcu_call *call, size_t zsize, int64_t result_nvals, void *z) ;

// A family leaves the call to the host for that: its note, and the count
// gcu_iso_declined (gcu_residency.h), once a call
void gcu_iso_decline (gcu_call *call) ;

// Before a GrB_mxm family computes: whether SuiteSparse's status of the
// result (with entries) is known here; false, and the call declined (the
// host computes it), otherwise. (GrB_mxv, GrB_vxm: gcu_iso_call_vector.)
bool gcu_iso_call_check (gcu_call *call, const gcu_semiring_desc *sr) ;

// The same before a matrix element-wise call computes (T's status from
// gcu_iso_call_ewise)
bool gcu_iso_call_check_ewise (gcu_call *call, const gcu_binop_desc *op, const void *alpha,
    const void *beta) ;

// GrB_mxv, GrB_vxm: the status SuiteSparse gives w with entries and with
// none (call->c_iso, c_iso_value); where T's status is known, the call has
// an accum and w's status is not known before T (PageRank's r += A'*w into
// an r made iso by r = teleport), call->c_iso_open set instead; false, and
// the call declined, otherwise.
bool gcu_iso_call_vector (gcu_call *call, const gcu_semiring_desc *sr) ;

// A call left open by gcu_iso_call_vector, its T computed with t_nvals
// entries (under the mask, as the device computes it: never more than
// SuiteSparse's T): w's status from gcu_iso_accum (T not iso with two
// entries or more into an iso w: not iso, but under FIRST, ANY or PAIR).
// True where that decides it (call->c_iso set, c_iso_open cleared: the
// device write-back may run); false otherwise (the family then declines the
// call, C untouched: the host computes it).
bool gcu_iso_call_vector_counted (gcu_call *call, GrB_Index t_nvals) ;

// Calls left open so far (gcu_iso_call_vector) and those of them that the
// count decided (gcu_iso_call_vector_counted), for the tests and statistics
uint64_t gcu_iso_opened (void) ;
uint64_t gcu_iso_counted (void) ;

// The status SuiteSparse gives T = A op B of an element-wise call (op its
// operator; eWiseMult, eWiseAdd or eWiseUnion by call->op, alpha and beta
// the latter's scalars of op's x and y types): as gcu_iso_call_product,
// from gcu_iso_ewise over the call's objects (every way a device-newest or
// transposed operand could be held must agree).
int gcu_iso_call_ewise (gcu_call *call, const gcu_binop_desc *op, const void *alpha, const void *beta) ;

// The status SuiteSparse gives T = op (A) of a GrB_apply call (T of type
// ztype): as gcu_iso_call_product, from gcu_iso_apply over A (every way a
// device-newest or transposed A could be held must agree).
int gcu_iso_call_apply (gcu_call *call, const gcu_iso_apply_op *op, GrB_Type ztype) ;

// The status SuiteSparse gives T = select (A, call->idxop, y) of a
// GrB_select call with entries (gcu_iso_select; T of A's type): as
// gcu_iso_call_apply.
int gcu_iso_call_select (gcu_call *call, GrB_Scalar y) ;

// The vector element-wise, apply and select calls: as gcu_iso_call_vector, T's
// status from gcu_iso_call_ewise, gcu_iso_call_apply or gcu_iso_call_select
// (an empty selection written not iso). (One entry of an
// element-wise result under a mask, which SuiteSparse's methods mark iso or
// not, is written as a result of more entries would be.)
bool gcu_iso_call_vector_ewise (gcu_call *call, const gcu_binop_desc *op, const void *alpha,
    const void *beta) ;
bool gcu_iso_call_vector_apply (gcu_call *call, const gcu_iso_apply_op *op, GrB_Type ztype) ;
bool gcu_iso_call_vector_select (gcu_call *call, GrB_Scalar y) ;

// GrB_Vector_assign over the whole of w (w<M> = accum (w, u), or the scalar
// x of type xtype where call->A is NULL): w's status from gcu_iso_assign
// into call->c_iso (the same with entries or none); false, and the call
// declined, where it is not known here
bool gcu_iso_call_vector_assign (gcu_call *call, GrB_Type xtype, const void *x) ;

// The binary operator of an element-wise call (eWiseAdd, eWiseMult): the
// BinaryOp, the monoid's, or the semiring's add (eWiseAdd) or multiply
// (mult: eWiseMult); NULL if it cannot be read.
GrB_BinaryOp gcu_ewise_op (const gcu_call *call, bool mult) ;

// eWiseUnion's alpha and beta (call->alpha, call->beta) cast to the types of
// the operator's x and y, as SuiteSparse casts them, into alpha and beta
// (gcu_merge_args' fields); GCU_NOT_HANDLED where either is NULL, holds no
// entry or is not of a built-in type (SuiteSparse judges those).
GrB_Info gcu_ewise_union_scalars (const gcu_call *call, GrB_BinaryOp op,
    uint64_t alpha [2], uint64_t beta [2]) ;

#endif
