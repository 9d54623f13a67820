// gcu_mxv_method.h — the method of a GrB_mxv / GrB_vxm GPU call and its
// operands on the device (src/mxv/mxv_method.c, for src/mxv/mxv.c).
#ifndef GCU_MXV_METHOD_H
#define GCU_MXV_METHOD_H

#include "gcu_mxv.h"
#include "../residency/gcu_operand.h"
#include "../vector/gcu_vector.h"

// GRBCUDA_BFS_EXP's bits: each switches one BFS change off (measurements)
enum { GCU_BFS_EXP_NO_GROUP_EXIT = 1, GCU_BFS_EXP_NO_RECHECK = 2 } ;
// whether GRBCUDA_BFS_EXP has the bit
bool gcu_mxv_bfs_exp (int bit) ;
// The group size of a pull of an ANY monoid, whose rows stop at their first
// entry (a BFS's first frontier neighbour; the group stops as one), from g,
// the mean row's: at most GCU_MXV_PULL_ANY_G, where a wider group reads
// entries past the first that the row never needed; GRBCUDA_BFS_PULL_G (a
// power of two, 1 to 32) instead when set (measurements).
int gcu_mxv_pull_exit_group (int g) ;

// Push from the sizes: u's entries at the average row of P against the
// rows of R the mask allows (unvals, anvals = the matrix's entries, nallow,
// m = |w|, n = |u|), or as the tests force (gcu_mxv_force_method).
bool gcu_mxv_use_push (GrB_Index unvals, GrB_Index anvals, GrB_Index nallow, GrB_Index m,
    GrB_Index n) ;

// The operands of the method *push on the device: A by row for pull (R;
// r_by_col: R's rows are A's columns) or by the other orientation for push
// (P = R'), values of msize bytes (om); u (length n, values of usize bytes)
// dense for pull, sparse for push (ou). A push of a monoid whose rows stop
// early (sr) under a complemented mask turns to pull when the frontier's
// real edges (*mf, -1 when not counted) exceed the unexplored ones over
// GCU_MXV_PULL_ALPHA; *up_bytes gets what the operands given back had
// uploaded. On failure the caller releases om and ou.
GrB_Info gcu_mxv_operands (GrB_Matrix A, GrB_Vector u, bool complement,
    const gcu_semiring_desc *sr, GrB_Index nallow, GrB_Index m, GrB_Index n, GrB_Index anvals,
    bool r_by_col, size_t msize, size_t usize, gcu_operand *om, gcu_vec *ou, bool *push,
    int64_t *mf, size_t *up_bytes, gcu_stream s) ;

#endif
