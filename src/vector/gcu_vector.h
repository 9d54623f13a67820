// gcu_vector.h — GrB_Vectors on the device (DESIGN §3), for the families
// that read or write them (GrB_mxv and GrB_vxm, the reductions, the entry
// points that answer from the device): a vector's images on the device
// through the residency cache, its write-back w<M,replace> = accum (w, T)
// as a device kernel, and its newest value left there.
//
// Images (gcu_res_data.layout GCU_VEC_LAYOUT, nrows = the length, ncols 1):
//   GCU_RES_VECTOR_DENSE   buf [0] a presence byte per position (not read
//                          when the vector is full: nvals = nrows), buf [1]
//                          a value per position
//                          (of type_size bytes; meaningless where absent)
//   GCU_RES_VECTOR_SPARSE  buf [0] the entries' positions (int64_t, sorted),
//                          buf [1] their values
// A GPU call's result is left as a dense image, published as the handle's
// newest value; reading it whole (a GraphBLAS function without a GPU path)
// writes it into the SuiteSparse object (compacted on the device, then only
// the entries come back).
#ifndef GCU_VECTOR_H
#define GCU_VECTOR_H

#include "../device/gcu_cuda.h"
#include "../residency/gcu_residency.h"
#include "gcu_semiring.h"
#include "gcu_call.h"
#include "../../cuda/writeback/gcu_vmerge_args.h"
#include "../../cuda/apply/gcu_vapply_args.h"

#define GCU_VEC_LAYOUT 0x6d787631

// A vector operand of a GPU call on the device.
typedef struct
{
    const void *b ;         // dense: presence bytes (NULL when the vector is
                            // full); sparse: int64_t positions
    const void *x ;         // values (iso expanded)
    GrB_Index nvals ;
    gcu_operand_how how ;   // HIT also for a device-newest vector
    size_t up_bytes ;
    double export_s, upload_s ;
    // owned
    gcu_res_entry *e_ ;
    void *own_ [2] ;
}
gcu_vec ;

// u (length n, values of usize bytes) on the device for this call: dense
// or sparse. A device-newest u is read where it is (its sparse image is
// compacted from the dense one for this call); otherwise the cache's image,
// or u exported (never changed) and uploaded, and published for later
// calls. A dense image of a u that is not full uploads u's entries and
// scatters them on the device (gcu_vec_scatter) when they are fewer bytes
// than the image, else is built on the host; v->up_bytes says which moved.
// On failure nothing is held.
GrB_Info gcu_vec_get (GrB_Vector u, GrB_Index n, bool dense, size_t usize,
    gcu_vec *v, gcu_stream s) ;
// Unpins or frees what v holds (v may be all zeros); the kernels that read
// it must be finished.
void gcu_vec_release (gcu_vec *v, gcu_stream s) ;
// "u hit", "u miss (1.2 MB)": for the verbose line
void gcu_vec_describe (const gcu_vec *v, const char *name, char *buf, size_t size) ;

// The write-back of a GPU call's T into a vector: w<M,replace> = accum (w, T).
typedef struct
{
    GrB_Vector w ;
    GrB_Vector M ;              // NULL: none
    bool structural, complement, replace ;
    GrB_BinaryOp accum ;        // NULL: none
    // the iso status SuiteSparse gives the result (1 iso, with iso_value of
    // w's type; 0 not), where it has entries (iso [1]) or none (iso [0]);
    // zeros (not iso) unless the call's status sets them (gcu_vec_call_wb:
    // call->c_iso)
    int8_t iso [2] ;
    uint64_t iso_value [2] ;
}
gcu_vec_wb ;

// The write-back of a vector call: w = call's C with its mask, replace and
// accum, and the descriptor's mask setting; false where the descriptor says
// what the write-back does not know (SuiteSparse judges the call)
bool gcu_vec_call_wb (const gcu_call *call, gcu_vec_wb *wb) ;

// The mask's allowed positions of a length-n vector as bytes on the device
// (*allow, from gcu_dmalloc: the caller frees it) and their count; M's dense
// image comes from the cache or is uploaded (*up_bytes). GCU_NOT_HANDLED for
// a valued mask of a user-defined type.
GrB_Info gcu_vec_allow (const gcu_vec_wb *wb, GrB_Index n, int8_t **allow,
    GrB_Index *nallow, size_t *up_bytes, gcu_stream s) ;

// v's type when it is built in (not user-defined), else NULL (v NULL too)
GrB_Type gcu_vec_builtin_type (const void *v) ;

// Where the device write-back applies for a T of type ztype: results kept
// on the device (GRBCUDA_KEEP_RESULTS), w of T's type or both built-in, an
// accum the JIT expresses exactly (not positional, not pow/atan2/hypot), a
// mask of a built-in type (or structural).
bool gcu_vec_merge_applies (const gcu_vec_wb *wb, GrB_Type ztype) ;

// w<M,replace> = accum (w, T) for T on the device (a presence byte and a
// value of ztype, zsize bytes, per position; length n; zsize 0 where T is
// full and iso, its one value at Tx, with no accum and w of T's type: the
// values copied as bytes), the result left as
// w's newest value; *nvals its entries, *up_bytes what w's and M's images
// uploaded. GrB_SUCCESS, else w is unchanged (GCU_NOT_HANDLED: no room or
// not expressible; another status: a device failure, which in place may
// leave w's device value changed, lost as any device-newest value is on a
// device failure). Synchronises s. Where w's kept values are read and w is
// device newest with an image no one else holds, that image is changed in
// place (only the positions the call changes are written).
GrB_Info gcu_vec_write_back (const gcu_vec_wb *wb, GrB_Type ztype, size_t zsize,
    GrB_Index n, const int8_t *Tb, const void *Tx, GrB_Index *nvals,
    size_t *up_bytes, gcu_stream s) ;

// The kernel gcu_vec_write_back will launch for wb and ztype, loaded (a
// family asks for it before it moves any operand: in auto mode a kernel
// not compiled yet defers the call, GCU_NOT_HANDLED, and the call's uploads
// would be wasted; FastSV's GrB_mxv uploaded its 165 MB matrix, then
// deferred for its write-back's compile, 28-57 ms against the host's 1-2;
// H200, 2026-11-29).
GrB_Info gcu_vec_write_back_kernel (const gcu_vec_wb *wb, GrB_Type ztype) ;

// The write-backs gcu_vec_write_back has done in place so far (tests).
uint64_t gcu_vec_inplace_count (void) ;

// w = T (positions Ti, values Tx, arrays from gcu_host_malloc, NULL once
// they are w's): w's old content goes, and w takes the storage SuiteSparse
// would give a result of its own (its sparsity control set again).
GrB_Info gcu_vec_pack (GrB_Vector w, GrB_Index **Ti, void **Tx, GrB_Index nvals,
    size_t zsize, bool iso) ;

// v(i) of a device-newest v read from the device: GrB_SUCCESS with the value
// (of *type, built-in, at most 16 bytes), GrB_NO_VALUE if v has no entry
// there, GCU_NOT_HANDLED when v is not such a vector, i is out of range, or
// the device fails (the caller then materializes v and asks SuiteSparse).
GrB_Info gcu_vec_newest_element (const void *v, GrB_Index i, void *value,
    const gcu_type_info **type) ;

// The values of a device-newest v, contiguous on the device, for a
// reduction: *x (v's own values when it is full, else compacted into *tmp,
// which the caller frees with gcu_dfree after the kernels that read it),
// *nvals their count, *type v's type; *e pinned (the caller unpins).
// GCU_NOT_HANDLED when v is not device newest as a dense image.
GrB_Info gcu_vec_newest_values (const void *v, gcu_res_entry **e, const void **x,
    uint64_t *nvals, GrB_Type *type, size_t *tsize, void **tmp, gcu_stream s) ;

//------------------------------------------------------------------------------
// the kernels compiled with the library (vector.cu)
//------------------------------------------------------------------------------

// the write-back with values copied as bytes (no accum, w of T's type), or
// through typed (the JIT's kernel, gcu_vec_merge_kernel); a->count zeroed by
// the caller
GrB_Info gcu_vec_merge_launch (const gcu_vmerge_args *a, void *typed, gcu_stream s) ;
// x [0 .. n-1] = the value at val (vsize bytes, at most 16) on the device
GrB_Info gcu_vec_fill_launch (void *x, int64_t n, const void *val, size_t vsize, gcu_stream s) ;
// The dense image (presence bytes b, values x of vsize bytes; length n) of
// a vector whose nv entries are at positions idx (int64_t, distinct) with
// values vals, all on the device: b and x zeroed, then 1 and the value at
// each entry's position. Stream ordered; nothing waits.
GrB_Info gcu_vec_scatter (const int64_t *idx, const void *vals, int64_t nv, int64_t n,
    size_t vsize, int8_t *b, void *x, gcu_stream s) ;
// allow [i] = the mask's verdict, counted into a->count
GrB_Info gcu_vec_allow_launch (const gcu_vmerge_args *a, int8_t *allow, gcu_stream s) ;
// The positions (int64_t) and values (vsize bytes each) of the entries of a
// dense image (presence bytes b, values x, length n), in order, into idx
// and vals (either may be NULL: not wanted), *count entries; temporaries
// from the pool; synchronises s. count NULL: the caller knows the count
// (the image's nvals); nothing waits.
GrB_Info gcu_vec_compact (const int8_t *b, const void *x, int64_t n, size_t vsize,
    int64_t *idx, void *vals, int64_t *count, gcu_stream s) ;
// The entries of a dense image (presence bytes b, length n) into *count;
// temporaries from the pool; synchronises s
GrB_Info gcu_vec_count (const int8_t *b, int64_t n, int64_t *count, gcu_stream s) ;
// The JIT's typed write-back for w of wtype, T of ttype, accum (NULL: a
// cast), the result of otype (NULL: w's type; an element-wise op's z type)
GrB_Info gcu_vec_merge_kernel (GrB_Type wtype, GrB_Type ttype, GrB_Type otype,
    GrB_BinaryOp accum, void **fn) ;
// GrB_Vector_apply's kernels (apply.cu): the grid of a launch over n
// positions, and the positional operators' index T(i) = slope * i + offset
unsigned gcu_vec_apply_grid (int64_t n) ;
// the JIT's typed apply program (apply.c): u of utype, T of ztype, op
GrB_Info gcu_vec_apply_program (GrB_Type utype, GrB_Type ztype, GrB_BinaryOp op,
    char **program, char *entry, char *label, size_t lsize) ;
GrB_Info gcu_vec_apply_index_launch (const gcu_vapply_args *a, gcu_stream s) ;
GrB_Info gcu_vec_merge_program (GrB_Type wtype, GrB_Type ttype, GrB_Type otype,
    GrB_BinaryOp accum, char **program, char *entry, char *label, size_t lsize) ;

// GrB_Matrix_select's value comparisons (src/mxm/mxm_select.c), the vector
// select's plan (apply.c): GrB_SUCCESS when call->idxop is GrB_VALUEEQ/NE/
// LT/LE/GT/GE of at itself (no cast of A's values: SuiteSparse's iso rules
// below hold for that case only) with a thunk of a built-in type; *eq: the
// operator is VALUEEQ; y: the thunk as at, cast as SuiteSparse casts it.
// Else GCU_NOT_HANDLED.
GrB_Info gcu_select_value_plan (const gcu_call *call, GrB_Type at, bool *eq, uint64_t y [2]) ;
// flags [k] = (x [k] cmp y) for k < n, x of type at on the device, one byte
// each (the JIT's apply kernel with z bool), queued on s
GrB_Info gcu_select_flags (const gcu_call *call, GrB_Type at, const void *x, int64_t n,
    int8_t *flags, gcu_stream s) ;

#endif
