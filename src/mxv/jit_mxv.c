// jit_mxv.c — JIT specialisation of the matrix-vector kernels
// (cuda/mxv/gcu_mxv.cuh) for one semiring, operand types, matrix index width
// and form (mxv or vxm): a block with three extern "C" kernels named by the
// hash of their specialisation, so blocks pack into one program (the CI
// sweep, tests/cpu/test_jit_builtin.c) without colliding.
#include "gcu_mxv.h"
#include "gcu_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *gcu_mxv_preamble (void)
{
    return "#include \"mxv/gcu_mxv_jit.cuh\"\n" ;
}

void gcu_mxv_entries (const char *entry, char push [GCU_JIT_ENTRY_MAX],
    char init [GCU_JIT_ENTRY_MAX])
{
    // entry is "gcu_mvl_" + hash; the others share the hash
    snprintf (push, GCU_JIT_ENTRY_MAX, "gcu_mvp_%s", entry + strlen ("gcu_mvl_")) ;
    snprintf (init, GCU_JIT_ENTRY_MAX, "gcu_mvi_%s", entry + strlen ("gcu_mvl_")) ;
}

GrB_Info gcu_mxv_block (const gcu_mxv_spec *spec, gcu_str *b,
    char entry [GCU_JIT_ENTRY_MAX])
{
    const char *mi = spec->idx64 ? "uint64_t" : "uint32_t" ;
    const char *form = spec->vxm ? "true" : "false" ;
    char key [64] ;
    snprintf (key, sizeof (key), "|mxv|%s|%s", mi, form) ;
    GrB_Info info = gcu_codegen_namespace (b, &spec->sr, &spec->ops, "gcu_mvl_", key, entry) ;
    if (info != GrB_SUCCESS) return info ;
    char push [GCU_JIT_ENTRY_MAX], init [GCU_JIT_ENTRY_MAX] ;
    gcu_mxv_entries (entry, push, init) ;
    gcu_str_addf (b, "GCU_MXV_KERNELS (%s, %s, %s, %s_ns::SR, %s, %s)\n", entry, push, init,
        entry, mi, form) ;
    return b->failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

GrB_Info gcu_mxv_kernels (const gcu_mxv_spec *spec, void **pull, void **push,
    void **init)
{
    gcu_str b ;
    gcu_str_init (&b) ;
    char entry [GCU_JIT_ENTRY_MAX], ep [GCU_JIT_ENTRY_MAX], ei [GCU_JIT_ENTRY_MAX] ;
    char name [GxB_MAX_NAME_LEN * 3], label [GxB_MAX_NAME_LEN * 3 + 32] = "mxv" ;
    GrB_Info built = gcu_mxv_block (spec, &b, entry) ;
    if (built == GrB_SUCCESS)
    {
        gcu_codegen_label (name, sizeof (name), &spec->sr) ;
        snprintf (label, sizeof (label), "%s %s", spec->vxm ? "vxm" : "mxv", name) ;
        gcu_mxv_entries (entry, ep, ei) ;
    }
    return gcu_jit_block_kernels (built, gcu_mxv_preamble (), &b, label, 3,
        (const char *const []) { entry, ep, ei }, (void **const []) { pull, push, init }) ;
}
