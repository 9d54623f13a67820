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

#define GCU_STR2(x) #x
#define GCU_STR(x) GCU_STR2 (x)

const char *gcu_mxv_preamble (void)
{
    return "#include \"mxv/gcu_mxv.cuh\"\n" ;
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
    const char *ns = entry ;
    gcu_str_addf (b,
        "extern \"C\" __global__ void __launch_bounds__ (" GCU_STR (GCU_MXV_THREADS) ")\n"
        "%s (int64_t nrows, const void *Rp, const void *Rj, const void *Rx,\n"
        "    const int8_t *Ub, const void *Ux, const int8_t *allow, void *Tx, int8_t *Tb, int G)\n"
        "{\n"
        "    typedef %s_ns::SR SR ;\n"
        "    gcu_mxv_pull<SR, %s, %s> (nrows, (const %s *) Rp, (const %s *) Rj, Rx,\n"
        "        Ub, Ux, allow, (SR::Z *) Tx, Tb, G) ;\n"
        "}\n"
        "extern \"C\" __global__ void __launch_bounds__ (" GCU_STR (GCU_MXV_THREADS) ")\n"
        "%s (int64_t unvals, const int64_t *Ui, const void *Ux, const void *Pp,\n"
        "    const void *Pj, const void *Px, const int8_t *allow, void *Tx, int8_t *Tb,\n"
        "    int32_t *locks, int G)\n"
        "{\n"
        "    typedef %s_ns::SR SR ;\n"
        "    gcu_mxv_push<SR, %s, %s> (unvals, Ui, Ux, (const %s *) Pp, (const %s *) Pj, Px,\n"
        "        allow, (SR::Z *) Tx, Tb, locks, G) ;\n"
        "}\n"
        "extern \"C\" __global__ void __launch_bounds__ (" GCU_STR (GCU_MXV_THREADS) ")\n"
        "%s (int64_t m, void *Tx, int8_t *Tb, int32_t *locks)\n"
        "{\n"
        "    typedef %s_ns::SR SR ;\n"
        "    gcu_mxv_init<SR> (m, (SR::Z *) Tx, Tb, locks) ;\n"
        "}\n",
        entry, ns, mi, form, mi, mi,
        push, ns, mi, form, mi, mi,
        init, ns) ;
    return b->failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

GrB_Info gcu_mxv_kernels (const gcu_mxv_spec *spec, void **pull, void **push,
    void **init)
{
    gcu_str b ;
    gcu_str_init (&b) ;
    char entry [GCU_JIT_ENTRY_MAX] ;
    GrB_Info info = gcu_mxv_block (spec, &b, entry) ;
    if (info != GrB_SUCCESS) { gcu_str_free (&b) ; return info ; }
    char name [GxB_MAX_NAME_LEN * 3], label [GxB_MAX_NAME_LEN * 3 + 32] ;
    gcu_codegen_label (name, sizeof (name), &spec->sr) ;
    snprintf (label, sizeof (label), "%s %s", spec->vxm ? "vxm" : "mxv", name) ;
    const gcu_jit_binary *bin = NULL ;
    GCU_TRY (gcu_jit_compile_block (gcu_mxv_preamble (), &b, label, &bin)) ;
    char ep [GCU_JIT_ENTRY_MAX], ei [GCU_JIT_ENTRY_MAX] ;
    gcu_mxv_entries (entry, ep, ei) ;
    info = gcu_jit_function (bin, entry, pull) ;
    if (info == GrB_SUCCESS) info = gcu_jit_function (bin, ep, push) ;
    if (info == GrB_SUCCESS) info = gcu_jit_function (bin, ei, init) ;
    return info ;
}
