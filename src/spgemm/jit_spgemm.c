// jit_spgemm.c — JIT specialisation of the SpGEMM family's kernels for one
// semiring, operand types and index widths: the numeric kernels (shared and
// global tables, and the dense accumulator for values of at most 8 bytes)
// and the masked saxpy kernels (tuning:
// cuda/spgemm/gcu_spgemm_policy.h). A block is the semiring's namespace and one
// line instantiating the kernels of cuda/spgemm/gcu_spgemm_jit.cuh, whose
// one prototype takes the argument struct gcu_spgemm_args; the kernels are
// extern "C" and named by the hash of their specialisation, so blocks pack
// into one program (the CI sweep does) without colliding.
#include "gcu_spgemm.h"
#include "gcu_util.h"
#include "spgemm/gcu_spgemm_policy.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

const char *gcu_spgemm_preamble (void)
{
    return "#include \"spgemm/gcu_spgemm_jit.cuh\"\n" ;
}

// the name of the kernel `prefix` of the specialisation whose first kernel
// is entry (the same hash; every prefix is "gcu_" and four characters)
static void sibling (const char *entry, const char *prefix, char name [GCU_JIT_ENTRY_MAX])
{
    snprintf (name, GCU_JIT_ENTRY_MAX, "%s%s", prefix, entry + strlen (prefix)) ;
}

void gcu_spgemm_entry_dense (const char *entry_shared, char entry_dense [GCU_JIT_ENTRY_MAX])
{
    sibling (entry_shared, "gcu_sgd_", entry_dense) ;
}

static const char *index_type (bool idx64)
{
    return idx64 ? "uint64_t" : "uint32_t" ;
}

GrB_Info gcu_spgemm_block (const gcu_semiring_desc *sr, const gcu_jit_operands *ops,
    gcu_str *b, char entry_shared [GCU_JIT_ENTRY_MAX], char entry_global [GCU_JIT_ENTRY_MAX])
{
    const char *ai = index_type (ops->a_idx64), *bi = index_type (ops->b_idx64) ;
    char key [64] ;
    snprintf (key, sizeof (key), "|spgemm|%s|%s", ai, bi) ;
    GCU_TRY (gcu_codegen_namespace (b, sr, ops, "gcu_sgs_", key, entry_shared)) ;
    // the other kernels share the namespace (and the hash) of the shared one
    sibling (entry_shared, "gcu_sgg_", entry_global) ;
    gcu_str_addf (b, "GCU_SPGEMM_NUMERIC_KERNELS (%s, %s, %s_ns::SR, %s, %s)\n",
        entry_shared, entry_global, entry_shared, ai, bi) ;
    if (sr->mult.z.size <= GCU_SPGEMM_WORD_MAX)
    {
        char entry_dense [GCU_JIT_ENTRY_MAX] ;
        gcu_spgemm_entry_dense (entry_shared, entry_dense) ;
        gcu_str_addf (b, "GCU_SPGEMM_DENSE_KERNEL (%s, %s_ns::SR, %s, %s)\n",
            entry_dense, entry_shared, ai, bi) ;
    }
    return b->failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

GrB_Info gcu_spgemm_masked_block (const gcu_semiring_desc *sr, const gcu_jit_operands *ops,
    gcu_str *b, char entry_shared [GCU_JIT_ENTRY_MAX], char entry_global [GCU_JIT_ENTRY_MAX])
{
    const char *ai = index_type (ops->a_idx64), *bi = index_type (ops->b_idx64) ;
    const char *mi = index_type (ops->m_idx64) ;
    char key [80] ;
    snprintf (key, sizeof (key), "|spgemm-masked|%s|%s|%s", mi, ai, bi) ;
    GCU_TRY (gcu_codegen_namespace (b, sr, ops, "gcu_sms_", key, entry_shared)) ;
    sibling (entry_shared, "gcu_smg_", entry_global) ;
    gcu_str_addf (b, "GCU_SPGEMM_MASKED_KERNELS (%s, %s, %s_ns::SR, %s, %s, %s)\n",
        entry_shared, entry_global, entry_shared, mi, ai, bi) ;
    return b->failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

typedef GrB_Info (*spgemm_block_fn) (const gcu_semiring_desc *, const gcu_jit_operands *,
    gcu_str *, char [GCU_JIT_ENTRY_MAX], char [GCU_JIT_ENTRY_MAX]) ;

// the whole program of one block: the preamble and the block
static GrB_Info block_program (spgemm_block_fn block, const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, char **program, char entry_shared [GCU_JIT_ENTRY_MAX],
    char entry_global [GCU_JIT_ENTRY_MAX])
{
    *program = NULL ;
    gcu_str b ;
    gcu_str_init (&b) ;
    GrB_Info info = block (sr, ops, &b, entry_shared, entry_global) ;
    char *text = gcu_str_take (&b) ;
    if (info != GrB_SUCCESS || text == NULL)
    {
        free (text) ;
        return info != GrB_SUCCESS ? info : GrB_OUT_OF_MEMORY ;
    }
    const char *blocks [1] = { text } ;
    *program = gcu_jit_program (gcu_spgemm_preamble (), blocks, 1) ;
    free (text) ;
    return *program == NULL ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

GrB_Info gcu_spgemm_numeric_program (const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, char **program, char entry_shared [GCU_JIT_ENTRY_MAX],
    char entry_global [GCU_JIT_ENTRY_MAX])
{
    return block_program (gcu_spgemm_block, sr, ops, program, entry_shared, entry_global) ;
}

GrB_Info gcu_spgemm_masked_program (const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, char **program, char entry_shared [GCU_JIT_ENTRY_MAX],
    char entry_global [GCU_JIT_ENTRY_MAX])
{
    return block_program (gcu_spgemm_masked_block, sr, ops, program, entry_shared, entry_global) ;
}

// compile (gcu_jit_compile_block) and load the kernels of one block (dense:
// the dense accumulator, NULL if the block has none or it is not wanted)
static GrB_Info spgemm_kernels (spgemm_block_fn block, const char *what,
    const gcu_semiring_desc *sr, const gcu_jit_operands *ops, void **shared, void **global,
    void **dense)
{
    char es [GCU_JIT_ENTRY_MAX], eg [GCU_JIT_ENTRY_MAX] ;
    gcu_str b ;
    gcu_str_init (&b) ;
    GrB_Info info = block (sr, ops, &b, es, eg) ;
    if (info != GrB_SUCCESS) { gcu_str_free (&b) ; return info ; }
    char name [GxB_MAX_NAME_LEN * 3], label [GxB_MAX_NAME_LEN * 3 + 32] ;
    gcu_codegen_label (name, sizeof (name), sr) ;
    snprintf (label, sizeof (label), "%s %s", what, name) ;
    const gcu_jit_binary *bin = NULL ;
    GCU_TRY (gcu_jit_compile_block (gcu_spgemm_preamble (), &b, label, &bin)) ;
    GCU_TRY (gcu_jit_function (bin, es, shared)) ;
    GCU_TRY (gcu_jit_function (bin, eg, global)) ;
    if (dense == NULL) return GrB_SUCCESS ;
    *dense = NULL ;
    if (sr->mult.z.size > GCU_SPGEMM_WORD_MAX) return GrB_SUCCESS ;
    char ed [GCU_JIT_ENTRY_MAX] ;
    gcu_spgemm_entry_dense (es, ed) ;
    return gcu_jit_function (bin, ed, dense) ;
}

GrB_Info gcu_spgemm_numeric_kernels (const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, void **shared, void **global, void **dense)
{
    return spgemm_kernels (gcu_spgemm_block, "spgemm", sr, ops, shared, global, dense) ;
}

GrB_Info gcu_spgemm_masked_kernels (const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, void **shared, void **global)
{
    return spgemm_kernels (gcu_spgemm_masked_block, "spgemm masked", sr, ops, shared, global, NULL) ;
}
