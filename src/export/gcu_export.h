// gcu_export.h — getting a matrix or vector out of SuiteSparse:GraphBLAS as
// CSR or CSC arrays without changing it (DESIGN §3: inputs are never mutated,
// not even for a moment; another thread may be reading them). The first
// step of every upload to the device; the residency cache keeps the result.
//
// How: an entry iterator is attached to the object (GxB_*_Iterator_attach).
// Attaching finishes pending work (pending tuples, zombies, unsorted
// vectors) exactly as every GraphBLAS operation does to its inputs, and
// otherwise leaves the object alone; the iterator then shows SuiteSparse's
// own arrays (its fields are in GraphBLAS.h for the iterator macros), which
// are read, never written, and converted in one parallel pass: sparse,
// hypersparse, bitmap and full storage; by row and by column; iso-valued.
// Where the iterator's layout is unknown (a GraphBLAS other than 7.x) the
// portable path copies through GrB_Matrix_export (C API 2.0) instead: exact,
// slower (an extra copy, 64-bit arrays, iso values expanded by SuiteSparse).
//
// The caller owns the output storage (plan, allocate, fill), so the GPU
// code can fill pinned staging buffers directly; gcu_export_csr is the
// malloc'ing shortcut. Internal header (C and C++): never installed.
#ifndef GCU_EXPORT_H
#define GCU_EXPORT_H

#include <GraphBLAS.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
    GCU_EXPORT_CSR = 0,         // outer dimension: rows
    GCU_EXPORT_CSC = 1          // outer dimension: columns (CSR of the transpose)
}
gcu_export_layout ;

typedef struct
{
    gcu_export_layout layout ;
    int idx_bits ;              // 0: 32 when nrows, ncols and nvals fit in
                                // int32_t, else 64; 32: int32_t or
                                // GCU_NOT_HANDLED; 64: int64_t
    bool expand_iso ;           // iso-valued: write nvals copies of the value
                                // (default: one value and c->iso)
    int nthreads ;              // 0: OpenMP's default
}
gcu_export_opts ;

// What an object holds, learned at open (no copy is made).
typedef struct
{
    bool is_vector ;            // a GrB_Vector (an n-by-1 matrix here)
    GrB_Index nrows, ncols, nvals ;
    GrB_Type type ;
    size_t type_size ;
    bool iso ;
    int sparsity ;              // as stored: GxB_HYPERSPARSE, GxB_SPARSE,
                                // GxB_BITMAP or GxB_FULL
    bool by_col ;               // stored by column
    // private
    const void *obj_ ;
    GxB_Iterator it_ ;          // NULL on the portable path
}
gcu_export_src ;

// The result: ptr [nvec+1], idx [nvals] (int32_t or int64_t, per idx_bits),
// val [nvals] values of type_size bytes, or one value if iso. Within each
// outer vector the inner indices are sorted.
typedef struct
{
    gcu_export_layout layout ;
    GrB_Index nrows, ncols, nvals ;
    GrB_Index nvec ;            // nrows (CSR) or ncols (CSC)
    int idx_bits ;              // 32 or 64
    bool iso ;
    GrB_Type type ;
    size_t type_size ;
    size_t ptr_bytes, idx_bytes, val_bytes ;
    void *ptr, *idx, *val ;
}
gcu_csr ;

// Opens a GrB_Matrix (is_vector false) or GrB_Vector. Finishes the object's
// pending work, if any, and nothing else. The object must not change until
// gcu_export_close (as for any input of a GraphBLAS call).
GrB_Info gcu_export_open (gcu_export_src *s, const void *obj, bool is_vector) ;
void gcu_export_close (gcu_export_src *s) ;

// Fills c's description and the byte sizes of ptr, idx and val (pointers
// left NULL). GCU_NOT_HANDLED if idx_bits 32 was asked and does not fit;
// GrB_OUT_OF_MEMORY if the sizes overflow (e.g. CSR of a hypersparse matrix
// with 2^60 rows).
GrB_Info gcu_export_plan (const gcu_export_src *s, const gcu_export_opts *o,
    gcu_csr *c) ;

// Writes c->ptr, c->idx, c->val (allocated by the caller with the planned
// sizes; c as gcu_export_plan left it).
GrB_Info gcu_export_fill (const gcu_export_src *s, const gcu_export_opts *o,
    gcu_csr *c) ;

// A full object's values as SuiteSparse holds them (no copy): *x the
// dense array (nrows*ncols values of type_size bytes, by row or by column
// as s->by_col says; one value when s->iso). GCU_NOT_HANDLED for any other
// storage, or on the portable path (where SuiteSparse's arrays are not seen).
GrB_Info gcu_export_dense (const gcu_export_src *s, const void **x) ;

// A vector held sparse, as SuiteSparse holds it (no copy): *i its s->nvals
// positions (ascending), *x their values. GCU_NOT_HANDLED for any other
// storage, an iso vector, or on the portable path.
GrB_Info gcu_export_sparse_vector (const gcu_export_src *s, const int64_t **i, const void **x) ;

// A matrix held sparse (not hypersparse) as SuiteSparse holds it (no copy):
// c described in the layout of its own orientation (CSR by row, CSC by
// column), 64-bit indices, ptr, idx and val pointing into SuiteSparse's
// arrays (read only, valid until gcu_export_close, never gcu_csr_free'd;
// val one value where c->iso). An upload reads them through the staging
// buffers, narrowing the indices there, instead of an export's copy.
// GCU_NOT_HANDLED for a vector, any other storage, no entries, or on the
// portable path.
GrB_Info gcu_export_sparse_view (const gcu_export_src *s, gcu_csr *c) ;

// plan, malloc and fill from an open object (nothing held on failure).
// Free with gcu_csr_free.
GrB_Info gcu_export_csr_of (const gcu_export_src *s, const gcu_export_opts *o, gcu_csr *c) ;

// open, gcu_export_csr_of, close.
GrB_Info gcu_export_csr (const void *obj, bool is_vector,
    const gcu_export_opts *o, gcu_csr *c) ;
void gcu_csr_free (gcu_csr *c) ;

// Tests: use the portable path (GrB_Matrix_export) even where the iterator
// path is available.
void gcu_export_force_portable (bool on) ;

#ifdef __cplusplus
}
#endif

#endif
