// mxv_method.c — the method of a GrB_mxv / GrB_vxm GPU call (src/mxv/mxv.c):
// push or pull, from the sizes, and for BFS's products the
// direction-optimizing recheck of a push from the frontier's real edges;
// the operands the method reads, on the device. Also GRBCUDA_BFS_EXP, the
// switches that measure the BFS changes against each other.
#include "gcu_mxv_method.h"
#include "gcu_util.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if GRBCUDA_HAVE_CUDA

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

static int force_method = 0 ;       // tests: 1 pull, 2 push

void gcu_mxv_force_method (int method) { force_method = method ; }

// GRBCUDA_BFS_EXP, read once: its bits (GCU_BFS_EXP_*) switch a BFS change
// off, to measure it against the rest in one run; unset: all on
static int bfs_exp_bits = 0 ;
static pthread_once_t bfs_exp_once = PTHREAD_ONCE_INIT ;
static void bfs_exp_read (void)
{
    const char *e = getenv ("GRBCUDA_BFS_EXP") ;
    if (e != NULL) bfs_exp_bits = atoi (e) ;
}

// GRBCUDA_BFS_PULL_G, read once (0: unset or not a power of two to 32)
static int pull_exit_g = 0 ;
static pthread_once_t pull_exit_once = PTHREAD_ONCE_INIT ;
static void pull_exit_read (void)
{
    const int g = gcu_env_int ("GRBCUDA_BFS_PULL_G", 0) ;
    if (g >= 1 && g <= GCU_MXV_GROUP_MAX && (g & (g - 1)) == 0) pull_exit_g = g ;
}

bool gcu_mxv_bfs_exp (int bit)
{
    pthread_once (&bfs_exp_once, bfs_exp_read) ;
    return (bfs_exp_bits & bit) != 0 ;
}

int gcu_mxv_pull_exit_group (int g)
{
    pthread_once (&pull_exit_once, pull_exit_read) ;
    if (pull_exit_g > 0) return pull_exit_g ;
    return g < GCU_MXV_PULL_ANY_G ? g : GCU_MXV_PULL_ANY_G ;
}

// The method: push's products against the part of R pull reads (the tests
// may force one, force_method)
bool gcu_mxv_use_push (GrB_Index unvals, GrB_Index anvals, GrB_Index nallow, GrB_Index m,
    GrB_Index n)
{
    const double push_cost = (double) unvals * (double) anvals / (double) (n > 0 ? n : 1) ;
    const double pull_cost = (double) anvals * (double) nallow / (double) (m > 0 ? m : 1)
        + (double) m / GCU_MXV_PULL_ROW_COST ;
    bool push = GCU_MXV_PUSH_FACTOR * push_cost < pull_cost ;
    if (force_method == 1) push = false ;
    if (force_method == 2) push = true ;
    return push ;
}

// Push chosen from the sizes, for a monoid whose rows stop early (ANY,
// terminal) under a complemented mask (BFS): the direction-optimizing
// choice from the frontier's real edges, mf (the rows of P of u's entries,
// summed on the device), against the unexplored ones (the rows the mask
// allows, at the average row), of which pull reads about one in
// GCU_MXV_PULL_ALPHA (Beamer's rule). The average row stands in for the
// frontier's rows in the sizes, and a power-law graph's frontiers next to
// a hub have far longer rows: push walked all of them. On pull, om and ou
// become the operands pull reads (R by row, u dense).
static GrB_Info push_recheck (GrB_Matrix A, GrB_Vector u, bool complement,
    const gcu_semiring_desc *sr, GrB_Index nallow, GrB_Index m, GrB_Index n, GrB_Index anvals,
    bool r_by_col, size_t msize, size_t usize, gcu_operand *om, gcu_vec *ou, bool *push,
    int64_t *mf, size_t *up_bytes, gcu_stream s)
{
    if (force_method != 0 || gcu_mxv_bfs_exp (GCU_BFS_EXP_NO_RECHECK)) return GrB_SUCCESS ;
    if (!(sr->add.is_any || sr->add.has_terminal) || !complement
        || ou->nvals < GCU_MXV_RECHECK_MIN) return GrB_SUCCESS ;
    GCU_TRY (gcu_mxv_push_edges (om->p, om->idx64, (const int64_t *) ou->b, (int64_t) ou->nvals,
        mf, s)) ;
    const double unexplored = (double) nallow * (double) anvals / (double) (m > 0 ? m : 1) ;
    if ((double) *mf * GCU_MXV_PULL_ALPHA <= unexplored) return GrB_SUCCESS ;
    *up_bytes += om->up_bytes + ou->up_bytes ;
    gcu_vec_release (ou, s) ;
    gcu_operand_release (om, s) ;
    memset (ou, 0, sizeof (*ou)) ;
    memset (om, 0, sizeof (*om)) ;
    *push = false ;
    GCU_TRY (gcu_operand_get (A, r_by_col, msize, false, om, s)) ;
    return gcu_vec_get (u, n, true, usize, ou, s) ;
}

GrB_Info gcu_mxv_operands (GrB_Matrix A, GrB_Vector u, bool complement,
    const gcu_semiring_desc *sr, GrB_Index nallow, GrB_Index m, GrB_Index n, GrB_Index anvals,
    bool r_by_col, size_t msize, size_t usize, gcu_operand *om, gcu_vec *ou, bool *push,
    int64_t *mf, size_t *up_bytes, gcu_stream s)
{
    *mf = -1 ;
    GCU_TRY (gcu_operand_get (A, *push ? !r_by_col : r_by_col, msize, false, om, s)) ;
    GCU_TRY (gcu_vec_get (u, n, !*push, usize, ou, s)) ;
    if (!*push) return GrB_SUCCESS ;
    return push_recheck (A, u, complement, sr, nallow, m, n, anvals, r_by_col, msize, usize,
        om, ou, push, mf, up_bytes, s) ;
}

#else

void gcu_mxv_force_method (int method) { (void) method ; }

#endif
