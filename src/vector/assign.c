// assign.c — the GPU family of GrB_Vector_assign and its scalar forms
// (GrB_Vector_assign_<T>) over the whole of w (I = GrB_ALL, checked by the
// dispatch): w<M,replace> = accum (w, T), the device write-back of GrB_mxv's
// results (gcu_vec_write_back), with T = u (its dense image, read in place
// when u is device newest) or T full of x (one value filled on the device).
// w is left device newest. This is the glue of a BFS level (level<q> = k,
// parent<q> = q) that keeps the search on the GPU between its products.
// Built-in types only (w, u, x; a valued mask built in or structural), an
// accum the device computes exactly; anything else stays SuiteSparse's. In
// auto mode the dispatch sends a call here only when one of its vectors is
// device newest (src/dispatch/dispatch.c), as for the element-wise family.
#include "gcu_vector.h"
#include "../residency/gcu_operand.h"
#include "gcu_call.h"
#include "gcu_util.h"
#include "grbcuda.h"
#include <string.h>

#if GRBCUDA_HAVE_CUDA

// T's type: u's, or the scalar's
static GrB_Type t_type (const gcu_call *call)
{
    return call->op == GCU_OP_VECTOR_ASSIGN ? gcu_vec_builtin_type (call->A) : call->scalar_type ;
}

static GrB_Info assign_branch (const gcu_call *call)
{
    gcu_vec_wb wb ;
    const GrB_Type tt = t_type (call) ;
    if (tt == NULL || gcu_vec_builtin_type (call->C) == NULL) return GCU_NOT_HANDLED ;
    if (!gcu_vec_call_wb (call, &wb)) return GCU_NOT_HANDLED ;
    if (call->c_rows >= ((GrB_Index) 1 << 31)) return GCU_NOT_HANDLED ;
    return gcu_vec_merge_applies (&wb, tt) ? GrB_SUCCESS : GCU_NOT_HANDLED ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_vec_release (&ou, s) ; gcu_dfree (Tx, s) ;

static GrB_Info assign_run (gcu_call *call)
{
    const gcu_stream s = gcu_stream_default () ;
    gcu_vec ou ;
    void *Tx = NULL ;
    memset (&ou, 0, sizeof (ou)) ;
    const double t0 = gcu_now () ;
    const GrB_Index n = call->c_rows ;
    const bool scalar = call->op == GCU_OP_VECTOR_ASSIGN_SCALAR ;
    gcu_vec_wb wb ;
    gcu_type_desc td ;
    const GrB_Type tt = t_type (call) ;
    // w's iso status as SuiteSparse's, decided before any work (into the
    // write-back's: gcu_vec_call_wb reads it)
    if (tt == NULL || !gcu_iso_call_vector_assign (call, scalar ? tt : NULL, scalar ? call->scalar : NULL))
        GCU_TRY (GCU_NOT_HANDLED) ;
    if (!gcu_vec_call_wb (call, &wb)) GCU_TRY (GCU_NOT_HANDLED) ;
    GCU_TRY (gcu_type_identify (tt, &td)) ;
    // T: u as a dense image, or x in every position (full: no presence bytes)
    const int8_t *Tb = NULL ;
    const void *Tv = NULL ;
    // (x copied as bytes into w, no accum and w of x's type: T is x alone,
    // read by every position, tsize 0 in the write-back, instead of a full
    // array of copies of x, a pass over w's length written for nothing)
    const bool iso = scalar && call->accum == NULL && gcu_vec_builtin_type (call->C) == tt ;
    if (scalar)
    {
        const int64_t nx = iso ? 1 : (int64_t) n ;
        GCU_TRY (gcu_dmalloc (&Tx, (size_t) nx * td.size + 16, s)) ;
        GCU_TRY (gcu_vec_fill_launch (Tx, nx, call->scalar, td.size, s)) ;
        Tv = Tx ;
    }
    else
    {
        GCU_TRY (gcu_vec_get ((GrB_Vector) call->A, n, true, td.size, &ou, s)) ;
        Tb = (const int8_t *) ou.b ;
        Tv = ou.x ;
    }
    const double t1 = gcu_now () ;
    GrB_Index wnvals = 0 ;
    size_t wb_up = 0 ;
    // (u stays pinned through the write-back: w may be u, its new image
    // published there)
    GCU_TRY (gcu_vec_write_back (&wb, tt, iso ? 0 : td.size, n, Tb, Tv, &wnvals, &wb_up, s)) ;
    call->up_bytes = ou.up_bytes + wb_up ;
    call->down_bytes = 0 ;
    call->kernel_seconds = gcu_now () - t1 ;
    char du [64] = "x" ;
    if (!scalar) gcu_vec_describe (&ou, "u", du, sizeof (du)) ;
    gcu_log ("%s gpu: length %llu, %s; T %.2f ms, write-back on the device %.2f ms: w "
        "left there (%llu entries)", scalar ? "GrB_Vector_assign (scalar)" : "GrB_Vector_assign", (unsigned long long) n, du,
        1e3 * (t1 - t0), 1e3 * call->kernel_seconds, (unsigned long long) wnvals) ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

const gcu_family gcu_family_vector_assign = { "vector assign", GCU_OP_VECTOR_ASSIGN,
    assign_branch, assign_run } ;

#endif
