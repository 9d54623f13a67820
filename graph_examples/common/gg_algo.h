// gg_algo.h — the graph algorithms of graph_examples/ (triangle counting,
// BFS) written once and shared by the example programs and by bench/, plus
// their independent host oracles (plain C on a CSR copy, no GraphBLAS) used by
// the --check modes.
//
// The GraphBLAS products go through a small table of function pointers
// (gg_ops). Normally it holds GrB_mxm/GrB_mxv/GrB_vxm as linked, i.e. through
// grbcuda when it is linked first or preloaded; bench/ can hand in
// SuiteSparse's own entry points instead to compute a reference in the same
// process.
#ifndef GG_ALGO_H
#define GG_ALGO_H

#include "graphgen.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef GrB_Info (*gg_mxm_fn) (GrB_Matrix, const GrB_Matrix,
    const GrB_BinaryOp, const GrB_Semiring, const GrB_Matrix,
    const GrB_Matrix, const GrB_Descriptor) ;
typedef GrB_Info (*gg_mxv_fn) (GrB_Vector, const GrB_Vector,
    const GrB_BinaryOp, const GrB_Semiring, const GrB_Matrix,
    const GrB_Vector, const GrB_Descriptor) ;
typedef GrB_Info (*gg_vxm_fn) (GrB_Vector, const GrB_Vector,
    const GrB_BinaryOp, const GrB_Semiring, const GrB_Vector,
    const GrB_Matrix, const GrB_Descriptor) ;

typedef struct
{
    gg_mxm_fn mxm ;
    gg_mxv_fn mxv ;
    gg_vxm_fn vxm ;
}
gg_ops ;

// GrB_mxm, GrB_mxv, GrB_vxm as the program is linked.
const gg_ops *gg_ops_default (void) ;

//------------------------------------------------------------------------------
// triangle counting: GrB_mxm + GrB_reduce only
//------------------------------------------------------------------------------

typedef enum
{
    GG_TC_SANDIA_LL = 0,    // C<L> = L*L,  sum(C)
    GG_TC_BURKHARDT,        // C<A> = A*A,  sum(C)/6
    GG_TC_DOT,              // C<L> = L*U' (transpose descriptor), sum(C)
    GG_TC_NMETHODS
}
gg_tc_method ;

const char *gg_tc_method_name (gg_tc_method m) ;   // "sandia-ll", ...
int gg_tc_method_parse (const char *s) ;           // -1 if unknown

// What the methods need, made once from A (the preparation, timed apart):
// A0 = A without its diagonal, L = tril(A,-1), U = triu(A,1). A must be
// symmetric; its values are ignored (PLUS_PAIR).
typedef struct
{
    GrB_Matrix A0, L, U ;
    GrB_Index n ;
}
gg_tc_graph ;

GrB_Info gg_tc_prepare (gg_tc_graph *g, GrB_Matrix A) ;
void gg_tc_free (gg_tc_graph *g) ;

// One count by the given method: mxm into a fresh INT64 matrix, then reduce
// with PLUS. ops: NULL for gg_ops_default ().
GrB_Info gg_tc_count (int64_t *ntri, const gg_tc_graph *g, gg_tc_method m,
    const gg_ops *ops) ;

// Oracle: triangles of the off-diagonal pattern of a symmetric CSR matrix,
// counted on the host by merging degree-ordered adjacency lists.
GrB_Info gg_tc_oracle (int64_t *ntri, const gg_csr *A) ;

//------------------------------------------------------------------------------
// BFS: GrB_vxm (push) / GrB_mxv (pull) with a complemented structural mask
//------------------------------------------------------------------------------

typedef enum { GG_BFS_AUTO = 0, GG_BFS_PUSH, GG_BFS_PULL } gg_bfs_dir ;

typedef struct
{
    int64_t nlevels ;       // number of levels, the source's level 0 included
    int64_t nreached ;      // vertices reached, the source included
    int64_t npush, npull ;  // steps taken each way
}
gg_bfs_stats ;

// level (INT64, required) gets each reached vertex's level; parent (INT64,
// optional: NULL for levels only, which uses the cheaper ANY_PAIR_BOOL
// semiring) gets each reached vertex's parent, the source its own id. A must
// be symmetric (pull uses A*q for A'*q). ops: NULL for gg_ops_default ().
GrB_Info gg_bfs (GrB_Vector *level, GrB_Vector *parent, GrB_Matrix A,
    GrB_Index src, gg_bfs_dir dir, const gg_ops *ops, gg_bfs_stats *stats) ;

// Oracle check: levels equal to a host queue BFS's, and every parent is a
// neighbour one level up. ok=false and a message when not; the return value
// is for failures to check (memory, GraphBLAS errors).
GrB_Info gg_bfs_check (bool *ok, char *msg, size_t msglen, const gg_csr *A,
    GrB_Index src, GrB_Vector level, GrB_Vector parent) ;

// The entries of the rows a BFS from src reaches (each undirected edge of
// the component twice): the edges a search traverses, for TEPS.
GrB_Info gg_bfs_component_entries (GrB_Index *entries, const gg_csr *A, GrB_Index src) ;

//------------------------------------------------------------------------------
// PageRank
//------------------------------------------------------------------------------

// r(j) = (1 - damping) / n + damping * (sum over edges i->j of r(i) / d(i)
// + dangling / n), d(i) the number of entries in row i of A (its pattern:
// self-loops count), dangling the rank on vertices with no entries; from
// r = 1/n, until the sum of |r_new - r| is below tol or itermax iterations.
// Through GrB_mxv (the degrees), GrB_vxm (r ./ d times A), eWise and apply
// with accum, assign under a complemented structural mask, reduce. *rank:
// a new FP64 vector with n entries; *iters: the iterations made.
GrB_Info gg_pagerank (GrB_Vector *rank, int *iters, GrB_Matrix A, double damping,
    double tol, int itermax) ;

// The same iterations on the host (exactly iters of them), for a check:
// ref gets n values. GrB_OUT_OF_MEMORY if scratch cannot be had.
GrB_Info gg_pagerank_ref (double *ref, const gg_csr *A, double damping, int iters) ;

#ifdef __cplusplus
}
#endif

#endif
