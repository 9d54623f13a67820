// jit_dot_masked.c — the host side of the masked dot-product kernel family
// (cuda/masked/gcu_dot_masked.cuh): one specialisation block per semiring,
// operand types and index widths; compile through the caches; launch.
#include "gcu_dot_masked.h"
#include "gcu_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;


const char *gcu_dot_masked_preamble (void)
{
    return "#include \"masked/gcu_dot_masked.cuh\"\n" ;
}

GrB_Info gcu_dot_masked_block (const gcu_dot_masked_spec *spec, gcu_str *block,
    char entry [GCU_JIT_ENTRY_MAX])
{
    if (spec == NULL || block == NULL || entry == NULL) return GrB_NULL_POINTER ;
    const char *mi = spec->ops.m_idx64 ? "uint64_t" : "uint32_t" ;
    const char *ai = spec->ops.a_idx64 ? "uint64_t" : "uint32_t" ;
    const char *bi = spec->ops.b_idx64 ? "uint64_t" : "uint32_t" ;
    char widths [64] ;
    snprintf (widths, sizeof (widths), "dot_masked|%s|%s|%s", mi, ai, bi) ;
    GCU_TRY (gcu_codegen_namespace (block, &spec->sr, &spec->ops, "gcu_dm_", widths, entry)) ;
    gcu_str_addf (block,
        "extern \"C\" __global__ void __launch_bounds__ (GCU_DOT_MASKED_THREADS)\n"
        "%s (int64_t mnrows, int64_t mnvals,\n"
        "    const void *Mp, const void *Mj, const void *Mx,\n"
        "    const void *Ap, const void *Aj, const void *Ax,\n"
        "    const void *Bp, const void *Bj, const void *Bx,\n"
        "    void *Cx, int8_t *Cb, unsigned long long *Cnvals)\n"
        "{\n"
        "    typedef %s_ns::SR SR ;\n"
        "    gcu_dot_masked<SR, %s, %s, %s> (mnrows, mnvals,\n"
        "        (const %s *) Mp, (const %s *) Mj, (const SR::TM *) Mx,\n"
        "        (const %s *) Ap, (const %s *) Aj, (const SR::TA *) Ax,\n"
        "        (const %s *) Bp, (const %s *) Bj, (const SR::TB *) Bx,\n"
        "        (SR::TC *) Cx, Cb, Cnvals) ;\n"
        "}\n",
        entry, entry, mi, ai, bi, mi, mi, ai, ai, bi, bi) ;
    return block->failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

GrB_Info gcu_dot_masked_compile (const gcu_dot_masked_spec *spec,
    const gcu_jit_binary **bin, char entry [GCU_JIT_ENTRY_MAX])
{
    if (spec == NULL || bin == NULL || entry == NULL) return GrB_NULL_POINTER ;
    *bin = NULL ;
    gcu_str b ;
    gcu_str_init (&b) ;
    GrB_Info info = gcu_dot_masked_block (spec, &b, entry) ;
    if (info != GrB_SUCCESS) { gcu_str_free (&b) ; return info ; }
    char label [GxB_MAX_NAME_LEN * 3 + 32], sr [GxB_MAX_NAME_LEN * 3] ;
    gcu_codegen_label (sr, sizeof (sr), &spec->sr) ;
    snprintf (label, sizeof (label), "dot_masked %s", sr) ;
    return gcu_jit_compile_block (gcu_dot_masked_preamble (), &b, label, bin) ;
}

GrB_Info gcu_dot_masked_function (const gcu_dot_masked_spec *spec, void **fn)
{
    if (spec == NULL || fn == NULL) return GrB_NULL_POINTER ;
    *fn = NULL ;
    const gcu_jit_binary *bin = NULL ;
    char entry [GCU_JIT_ENTRY_MAX] ;
    GCU_TRY (gcu_dot_masked_compile (spec, &bin, entry)) ;
    return gcu_jit_function (bin, entry, fn) ;
}

GrB_Info gcu_dot_masked_launch (void *fn, const gcu_dot_masked_args *a,
    unsigned grid, unsigned block, void *stream)
{
    if (fn == NULL || a == NULL) return GrB_NULL_POINTER ;
    if (block == 0 || block > GCU_DOT_MASKED_THREADS) return GrB_INVALID_VALUE ;
    // the kernel's parameters, in order; cuLaunchKernel copies the values
    int64_t mnrows = a->mnrows, mnvals = a->mnvals ;
    const void *Mp = a->Mp, *Mj = a->Mj, *Mx = a->Mx ;
    const void *Ap = a->Ap, *Aj = a->Aj, *Ax = a->Ax ;
    const void *Bp = a->Bp, *Bj = a->Bj, *Bx = a->Bx ;
    void *Cx = a->Cx ;
    int8_t *Cb = a->Cb ;
    unsigned long long *Cnvals = a->Cnvals ;
    void *args [] = { &mnrows, &mnvals, &Mp, &Mj, &Mx, &Ap, &Aj, &Ax,
                      &Bp, &Bj, &Bx, &Cx, &Cb, &Cnvals } ;
    return gcu_jit_launch (fn, grid, block, 0, stream, args) ;
}

GrB_Info gcu_dot_masked_run (const gcu_dot_masked_spec *spec,
    const gcu_dot_masked_args *a, unsigned grid, unsigned block, void *stream)
{
    if (spec == NULL || a == NULL) return GrB_NULL_POINTER ;
    if (block == 0 || block > GCU_DOT_MASKED_THREADS) return GrB_INVALID_VALUE ;
    void *fn = NULL ;
    GCU_TRY (gcu_dot_masked_function (spec, &fn)) ;
    return gcu_dot_masked_launch (fn, a, grid, block, stream) ;
}
