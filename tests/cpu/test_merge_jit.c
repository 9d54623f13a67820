// GRBCUDA_TEST_INTERNAL
// test_merge_jit.c — the device write-back's typed fill kernel
// (cuda/writeback/gcu_merge.cuh through src/mxm/mxm_merge_jit.c), and the
// dense-vector write-back's (cuda/writeback/gcu_vmerge.cuh through
// src/vector/vector.c) for the same accums and the casts to and from FP64, compile
// through the JIT (NVRTC, no GPU needed) for typecasts between every pair of
// built-in types and for accums over each kind of operator, and declines
// what it cannot express (a positional accum, a user type).
#include "gcu_test.h"
#include "mxm/gcu_mxm.h"
#include "vector/gcu_vector.h"
#include "gcu_util.h"
#include <stdlib.h>

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!gcu_jit_available ())
    {
        printf ("SKIP: NVRTC is not available here\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    const double t0 = gcu_now () ;
    int compiled = 0 ;
    // a typecast T -> C, no accum: every pair of built-in types
    for (int c = 0 ; c < GCU_NTYPES ; c++)
        for (int t = 0 ; t < GCU_NTYPES ; t++)
        {
            if (c == t) continue ;          // the bytes kernel of merge.cu
            const gcu_jit_binary *bin = NULL ;
            char entry [GCU_JIT_ENTRY_MAX] ;
            GrB_Info info = gcu_mxm_merge_compile (*gcu_types [c].handle, *gcu_types [t].handle,
                NULL, &bin, entry) ;
            CHECK (info == GrB_SUCCESS && bin != NULL, "cast %s -> %s: %d", gcu_types [t].name,
                gcu_types [c].name, (int) info) ;
            compiled += info == GrB_SUCCESS ;
        }
    // accums: C's type, T's type, the operator
    struct { GrB_Type c, t ; GrB_BinaryOp accum ; } acc [] =
    {
        { GrB_FP64, GrB_FP64, GrB_PLUS_FP64 }, { GrB_FP64, GrB_INT32, GrB_PLUS_FP64 },
        { GrB_INT32, GrB_FP64, GrB_MINUS_INT32 }, { GrB_FP32, GrB_FP32, GrB_MAX_FP32 },
        { GrB_INT64, GrB_INT64, GrB_FIRST_INT64 }, { GrB_UINT8, GrB_FP64, GrB_SECOND_UINT8 },
        { GrB_BOOL, GrB_BOOL, GrB_LOR }, { GrB_BOOL, GrB_INT64, GrB_LT_INT64 },
        { GxB_FC64, GxB_FC64, GxB_TIMES_FC64 }, { GxB_FC32, GrB_FP32, GxB_PLUS_FC32 },
        { GrB_INT16, GrB_INT16, GxB_BSHIFT_INT16 }, { GrB_FP64, GrB_FP64, GxB_COPYSIGN_FP64 },
        { GrB_UINT64, GrB_UINT64, GrB_DIV_UINT64 }, { GrB_FP64, GrB_FP64, GxB_ISGT_FP64 },
    } ;
    for (size_t k = 0 ; k < sizeof (acc) / sizeof (acc [0]) ; k++)
    {
        const gcu_jit_binary *bin = NULL ;
        char entry [GCU_JIT_ENTRY_MAX] ;
        GrB_Info info = gcu_mxm_merge_compile (acc [k].c, acc [k].t, acc [k].accum, &bin, entry) ;
        CHECK (info == GrB_SUCCESS && bin != NULL, "accum case %zu: %d", k, (int) info) ;
        compiled += info == GrB_SUCCESS ;
    }
    // the vector write-back: the same accums, and casts to and from FP64
    for (size_t k = 0 ; k < sizeof (acc) / sizeof (acc [0]) + 2 * GCU_NTYPES ; k++)
    {
        const size_t na = sizeof (acc) / sizeof (acc [0]) ;
        GrB_Type c = k < na ? acc [k].c : (k - na) % 2 ? GrB_FP64 : *gcu_types [(k - na) / 2].handle ;
        GrB_Type t = k < na ? acc [k].t : (k - na) % 2 ? *gcu_types [(k - na) / 2].handle : GrB_FP64 ;
        if (k >= na && c == t) continue ;
        char *program = NULL, entry [GCU_JIT_ENTRY_MAX], label [256] ;
        const gcu_jit_binary *bin = NULL ;
        GrB_Info info = gcu_vec_merge_program (c, t, NULL, k < na ? acc [k].accum : NULL, &program,
            entry, label, sizeof (label)) ;
        if (info == GrB_SUCCESS) info = gcu_jit_compile (program, label, &bin) ;
        free (program) ;
        CHECK (info == GrB_SUCCESS && bin != NULL, "vector case %zu: %d", k, (int) info) ;
        compiled += info == GrB_SUCCESS ;
    }
    // the element-wise operations' T = u op v (src/vector/ewise.c): u's type,
    // v's, the op, T of the op's z type
    struct { GrB_Type u, v, z ; GrB_BinaryOp op ; } ew [] =
    {
        { GrB_FP64, GrB_INT32, GrB_BOOL, GrB_LT_INT64 }, { GrB_FP32, GrB_FP64, GrB_FP64, GrB_PLUS_FP64 },
        { GrB_INT8, GrB_UINT16, GrB_INT32, GrB_TIMES_INT32 }, { GrB_BOOL, GrB_BOOL, GrB_BOOL, GrB_LXOR },
        { GxB_FC64, GrB_FP64, GxB_FC64, GxB_PLUS_FC64 }, { GrB_UINT64, GrB_INT64, GrB_UINT64, GrB_MIN_UINT64 },
    } ;
    for (size_t k = 0 ; k < sizeof (ew) / sizeof (ew [0]) ; k++)
    {
        char *program = NULL, entry [GCU_JIT_ENTRY_MAX], label [256] ;
        const gcu_jit_binary *bin = NULL ;
        GrB_Info info = gcu_vec_merge_program (ew [k].u, ew [k].v, ew [k].z, ew [k].op, &program,
            entry, label, sizeof (label)) ;
        if (info == GrB_SUCCESS) info = gcu_jit_compile (program, label, &bin) ;
        free (program) ;
        CHECK (info == GrB_SUCCESS && bin != NULL, "element-wise case %zu: %d", k, (int) info) ;
        compiled += info == GrB_SUCCESS ;
    }
    // GrB_Vector_apply's T = op (x, u) / op (u, y) (src/vector/apply.c,
    // cuda/apply/gcu_vapply.cuh): u's type, T of the op's z type; unary
    // operators arrive as these binary ones (COPYSIGN for ABS, LXOR for
    // LNOT, BXNOR for BNOT, DIV for MINV, PAIR for ONE); GrB_Vector_select's
    // value comparisons as the table's EQ/NE/LT/... (SSSP's VALUENE_FP64 on
    // a bool u; complex EQ; an unsigned u read as int32)
    struct { GrB_Type u, z ; GrB_BinaryOp op ; } ap [] =
    {
        { GrB_BOOL, GrB_BOOL, GrB_NE_FP64 }, { GxB_FC64, GrB_BOOL, GxB_EQ_FC64 },
        { GrB_UINT64, GrB_BOOL, GrB_GE_INT32 },
        { GrB_FP64, GrB_FP64, GrB_TIMES_FP64 }, { GrB_FP64, GrB_FP64, GxB_COPYSIGN_FP64 },
        { GrB_INT32, GrB_BOOL, GxB_LXOR_BOOL }, { GrB_UINT8, GrB_INT16, GrB_BXNOR_INT16 },
        { GxB_FC32, GxB_FC32, GxB_DIV_FC32 }, { GrB_INT64, GrB_FP32, GrB_ONEB_FP32 },
        { GrB_FP32, GrB_BOOL, GrB_LT_FP64 }, { GrB_INT8, GrB_INT8, GrB_MINUS_INT8 },
    } ;
    for (size_t k = 0 ; k < sizeof (ap) / sizeof (ap [0]) ; k++)
    {
        char *program = NULL, entry [GCU_JIT_ENTRY_MAX], label [256] ;
        const gcu_jit_binary *bin = NULL ;
        GrB_Info info = gcu_vec_apply_program (ap [k].u, ap [k].z, ap [k].op, &program, entry,
            label, sizeof (label)) ;
        if (info == GrB_SUCCESS) info = gcu_jit_compile (program, label, &bin) ;
        free (program) ;
        CHECK (info == GrB_SUCCESS && bin != NULL, "apply case %zu: %d", k, (int) info) ;
        compiled += info == GrB_SUCCESS ;
    }
    // declined: a positional accum (SuiteSparse rejects it anyway), a user type
    {
        const gcu_jit_binary *bin = NULL ;
        char entry [GCU_JIT_ENTRY_MAX] ;
        CHECK (gcu_mxm_merge_compile (GrB_INT64, GrB_INT64, GxB_FIRSTI_INT64, &bin, entry) == GCU_NOT_HANDLED,
            "positional accum declined") ;
        GrB_Type udt = NULL ;
        OK (GrB_Type_new (&udt, 24)) ;
        CHECK (gcu_mxm_merge_compile (udt, GrB_FP64, NULL, &bin, entry) == GCU_NOT_HANDLED,
            "user type declined") ;
        GrB_Type_free (&udt) ;
    }
    printf ("test_merge_jit: %d kernels compiled (or found in the cache) in %.1f s\n", compiled,
        gcu_now () - t0) ;
    GrB_finalize () ;
    return gcu_test_report ("test_merge_jit") ;
}
