// jit_mxv.c — JIT specialisation of the matrix-vector kernels
// (cuda/mxv/gcu_mxv.cuh) for one semiring, operand types, matrix index width
// and form (mxv or vxm): a block with the family's extern "C" kernels named by the
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

static const char *const suffix [2] [GCU_MXV_NKERNELS] =
    { { "", "_push", "_init", "_plong", NULL }, { "", "_stream", "_long", "_adapt", "_sell" } } ;

int gcu_mxv_nkernels (gcu_mxv_set set) { return set == GCU_MXV_SET_SPMV ? 5 : 4 ; }

void gcu_mxv_entries (const char *entry, gcu_mxv_set set,
    char names [GCU_MXV_NKERNELS] [GCU_JIT_ENTRY_MAX])
{
    for (int k = 0 ; k < GCU_MXV_NKERNELS ; k++)
    {
        if (k < gcu_mxv_nkernels (set)) snprintf (names [k], GCU_JIT_ENTRY_MAX, "%s%s", entry, suffix [set] [k]) ;
        else names [k] [0] = '\0' ;
    }
}

bool gcu_mxv_nat_ok (const gcu_mxv_spec *spec)
{
    return gcu_semiring_plus_times_float (&spec->sr) ;
}

GrB_Info gcu_mxv_block (const gcu_mxv_spec *spec, gcu_mxv_set set, const gcu_spmv_kvar *kv,
    gcu_str *b, char entry [GCU_JIT_ENTRY_MAX])
{
    const bool spmv = set == GCU_MXV_SET_SPMV ;
    const char *mi = spec->idx64 ? "uint64_t" : "uint32_t" ;
    const char *form = spec->vxm ? "true" : "false" ;
    const int nat = (kv != NULL ? kv->nat : GCU_SPMV_NAT == 1) && gcu_mxv_nat_ok (spec) ? 1 : 0 ;
    const int minb = kv != NULL && kv->minb >= 1 && kv->minb <= 8 ? kv->minb
        : nat ? GCU_SPMV_MINB_NAT : GCU_SPMV_MINB ;
    char key [64] ;
    if (spmv) snprintf (key, sizeof (key), "|spmv|%s|%s|%d|%d", mi, form, nat, minb) ;
    else snprintf (key, sizeof (key), "|mxv|%s|%s", mi, form) ;
    GrB_Info info = gcu_codegen_namespace (b, &spec->sr, &spec->ops, spmv ? "gcu_msv_" : "gcu_mvl_",
        key, entry) ;
    if (info != GrB_SUCCESS) return info ;
    if (spmv) gcu_str_addf (b, "GCU_SPMV_KERNELS (%s, %s_ns::SR, %s, %s, %s, %d)\n", entry, entry,
        mi, form, nat ? "true" : "false", minb) ;
    else gcu_str_addf (b, "GCU_MXV_KERNELS (%s, %s_ns::SR, %s, %s)\n", entry, entry, mi, form) ;
    return b->failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

GrB_Info gcu_mxv_kernels (const gcu_mxv_spec *spec, gcu_mxv_set set, const gcu_spmv_kvar *kv,
    void *fns [GCU_MXV_NKERNELS])
{
    gcu_str b ;
    gcu_str_init (&b) ;
    char entry [GCU_JIT_ENTRY_MAX], names [GCU_MXV_NKERNELS] [GCU_JIT_ENTRY_MAX] = { { 0 } } ;
    char name [GxB_MAX_NAME_LEN * 3], label [GxB_MAX_NAME_LEN * 3 + 32] = "mxv" ;
    GrB_Info built = gcu_mxv_block (spec, set, kv, &b, entry) ;
    const char *ep [GCU_MXV_NKERNELS] ;
    void **fp [GCU_MXV_NKERNELS] ;
    if (built == GrB_SUCCESS)
    {
        gcu_codegen_label (name, sizeof (name), &spec->sr) ;
        snprintf (label, sizeof (label), "%s%s %s", spec->vxm ? "vxm" : "mxv",
            set == GCU_MXV_SET_SPMV ? " spmv" : "", name) ;
        gcu_mxv_entries (entry, set, names) ;
    }
    for (int k = 0 ; k < GCU_MXV_NKERNELS ; k++) { ep [k] = names [k] ; fp [k] = &fns [k] ; fns [k] = NULL ; }
    return gcu_jit_block_kernels (built, gcu_mxv_preamble (), &b, label, gcu_mxv_nkernels (set),
        ep, (void **const *) fp) ;
}
