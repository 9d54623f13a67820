// jit_spgemm.c — JIT specialisation of the numeric SpGEMM kernels
// (cuda/spgemm/gcu_spgemm_numeric.cuh) and of the masked saxpy kernels
// (cuda/spgemm/gcu_spgemm_masked.cuh) for one semiring, operand types and
// index widths: a block with two extern "C" kernels (shared-memory and
// global-memory tables) named by the hash of their specialisation, so blocks
// pack into one program (the CI sweep does) without colliding.
#include "gcu_spgemm.h"
#include "gcu_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GCU_STR2(x) #x
#define GCU_STR(x) GCU_STR2 (x)

const char *gcu_spgemm_preamble (void)
{
    // the masked kernels' header includes the numeric one
    return "#include \"spgemm/gcu_spgemm_masked.cuh\"\n" ;
}

void gcu_spgemm_entry_dense (const char *entry_shared, char entry_dense [GCU_JIT_ENTRY_MAX])
{
    snprintf (entry_dense, GCU_JIT_ENTRY_MAX, "gcu_sgd_%s", entry_shared + strlen ("gcu_sgs_")) ;
}

GrB_Info gcu_spgemm_block (const gcu_semiring_desc *sr, const gcu_jit_operands *ops,
    gcu_str *b, char entry_shared [GCU_JIT_ENTRY_MAX], char entry_global [GCU_JIT_ENTRY_MAX])
{
    const char *ai = ops->a_idx64 ? "uint64_t" : "uint32_t" ;
    const char *bi = ops->b_idx64 ? "uint64_t" : "uint32_t" ;
    char key [64] ;
    snprintf (key, sizeof (key), "|spgemm|%s|%s", ai, bi) ;
    GrB_Info info = gcu_codegen_namespace (b, sr, ops, "gcu_sgs_", key, entry_shared) ;
    if (info != GrB_SUCCESS) return info ;
    // the global kernel shares the namespace (and the hash) of the shared one
    snprintf (entry_global, GCU_JIT_ENTRY_MAX, "gcu_sgg_%s", entry_shared + strlen ("gcu_sgs_")) ;
    const char *ns = entry_shared ;
    gcu_str_addf (b,
        "extern \"C\" __global__ void __launch_bounds__ (" GCU_STR (GCU_SPGEMM_THREADS) ", %d)\n"
        "%s (const int64_t *rows, int64_t nrows,\n"
        "    const void *Ap, const void *Aj, const void *Ax,\n"
        "    const void *Bp, const void *Bj, const void *Bx,\n"
        "    const int64_t *Cp, int32_t *Cj, void *Cx, uint32_t H, int G, int TPB)\n"
        "{\n"
        "    typedef %s_ns::SR SR ;\n"
        "    gcu_spgemm_numeric_shared<SR, %s, %s> (rows, nrows,\n"
        "        (const %s *) Ap, (const %s *) Aj, (const SR::TA *) Ax,\n"
        "        (const %s *) Bp, (const %s *) Bj, (const SR::TB *) Bx,\n"
        "        Cp, Cj, (SR::Z *) Cx, H, G, TPB) ;\n"
        "}\n"
        "extern \"C\" __global__ void __launch_bounds__ (" GCU_STR (GCU_SPGEMM_GLOBAL_THREADS) ")\n"
        "%s (const int64_t *rows, const int64_t *offs, int32_t *gkeys, void *gvals,\n"
        "    int32_t *glocks, const void *Ap, const void *Aj, const void *Ax,\n"
        "    const void *Bp, const void *Bj, const void *Bx,\n"
        "    const int64_t *Cp, int32_t *Cj, void *Cx, int TPB)\n"
        "{\n"
        "    typedef %s_ns::SR SR ;\n"
        "    gcu_spgemm_numeric_global<SR, %s, %s> (rows, offs, gkeys, (SR::Z *) gvals,\n"
        "        glocks, (const %s *) Ap, (const %s *) Aj, (const SR::TA *) Ax,\n"
        "        (const %s *) Bp, (const %s *) Bj, (const SR::TB *) Bx,\n"
        "        Cp, Cj, (SR::Z *) Cx, TPB) ;\n"
        "}\n",
        // values up to 8 bytes: 8 blocks of 256 threads an SM (32 registers);
        // wider ones (locks, complex arithmetic) as the compiler likes
        sr->mult.z.size <= 8 ? 8 : 1,
        entry_shared, ns, ai, bi, ai, ai, bi, bi,
        entry_global, ns, ai, bi, ai, ai, bi, bi) ;
    // the dense accumulator (values up to 8 bytes: no lock words)
    if (sr->mult.z.size <= 8)
    {
        char entry_dense [GCU_JIT_ENTRY_MAX] ;
        gcu_spgemm_entry_dense (entry_shared, entry_dense) ;
        gcu_str_addf (b,
            "extern \"C\" __global__ void __launch_bounds__ (" GCU_STR (GCU_SPGEMM_DENSE_THREADS) ", 2)\n"
            "%s (const int64_t *rows, const void *Ap, const void *Aj, const void *Ax,\n"
            "    const void *Bp, const void *Bj, const void *Bx,\n"
            "    const int64_t *Cp, int32_t *Cj, void *Cx, int32_t *cursor, int64_t n,\n"
            "    int64_t W, int TPB)\n"
            "{\n"
            "    typedef %s_ns::SR SR ;\n"
            "    gcu_spgemm_numeric_dense<SR, %s, %s> (rows,\n"
            "        (const %s *) Ap, (const %s *) Aj, (const SR::TA *) Ax,\n"
            "        (const %s *) Bp, (const %s *) Bj, (const SR::TB *) Bx,\n"
            "        Cp, Cj, (SR::Z *) Cx, cursor, n, W, TPB) ;\n"
            "}\n", entry_dense, ns, ai, bi, ai, ai, bi, bi) ;
    }
    return b->failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

typedef GrB_Info (*spgemm_block_fn) (const gcu_semiring_desc *, const gcu_jit_operands *,
    gcu_str *, char [GCU_JIT_ENTRY_MAX], char [GCU_JIT_ENTRY_MAX]) ;
static GrB_Info spgemm_kernels (spgemm_block_fn block, const char *what,
    const gcu_semiring_desc *sr, const gcu_jit_operands *ops, void **shared, void **global,
    void **dense) ;

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

GrB_Info gcu_spgemm_numeric_kernels (const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, void **shared, void **global, void **dense)
{
    return spgemm_kernels (gcu_spgemm_block, "spgemm", sr, ops, shared, global, dense) ;
}

GrB_Info gcu_spgemm_masked_block (const gcu_semiring_desc *sr, const gcu_jit_operands *ops,
    gcu_str *b, char entry_shared [GCU_JIT_ENTRY_MAX], char entry_global [GCU_JIT_ENTRY_MAX])
{
    const char *ai = ops->a_idx64 ? "uint64_t" : "uint32_t" ;
    const char *bi = ops->b_idx64 ? "uint64_t" : "uint32_t" ;
    const char *mi = ops->m_idx64 ? "uint64_t" : "uint32_t" ;
    char key [80] ;
    snprintf (key, sizeof (key), "|spgemm-masked|%s|%s|%s", mi, ai, bi) ;
    GrB_Info info = gcu_codegen_namespace (b, sr, ops, "gcu_sms_", key, entry_shared) ;
    if (info != GrB_SUCCESS) return info ;
    snprintf (entry_global, GCU_JIT_ENTRY_MAX, "gcu_smg_%s", entry_shared + strlen ("gcu_sms_")) ;
    const char *ns = entry_shared ;
    gcu_str_addf (b,
        "extern \"C\" __global__ void __launch_bounds__ (" GCU_STR (GCU_SPGEMM_THREADS) ")\n"
        "%s (const int64_t *rows, int64_t nrows,\n"
        "    const void *Mp, const void *Mj, const void *Mx,\n"
        "    const void *Ap, const void *Aj, const void *Ax,\n"
        "    const void *Bp, const void *Bj, const void *Bx,\n"
        "    void *Cx, int8_t *Cb, uint32_t H, int G, int TPB)\n"
        "{\n"
        "    typedef %s_ns::SR SR ;\n"
        "    gcu_spgemm_masked_shared<SR, %s, %s, %s> (rows, nrows,\n"
        "        (const %s *) Mp, (const %s *) Mj, (const SR::TM *) Mx,\n"
        "        (const %s *) Ap, (const %s *) Aj, (const SR::TA *) Ax,\n"
        "        (const %s *) Bp, (const %s *) Bj, (const SR::TB *) Bx,\n"
        "        (SR::Z *) Cx, Cb, H, G, TPB) ;\n"
        "}\n"
        "extern \"C\" __global__ void __launch_bounds__ (" GCU_STR (GCU_SPGEMM_GLOBAL_THREADS) ")\n"
        "%s (const int64_t *rows,\n"
        "    const void *Mp, const void *Mj, const void *Mx,\n"
        "    const void *Ap, const void *Aj, const void *Ax,\n"
        "    const void *Bp, const void *Bj, const void *Bx,\n"
        "    void *Cx, int8_t *Cb, int32_t *Glocks, int TPB)\n"
        "{\n"
        "    typedef %s_ns::SR SR ;\n"
        "    gcu_spgemm_masked_global<SR, %s, %s, %s> (rows,\n"
        "        (const %s *) Mp, (const %s *) Mj, (const SR::TM *) Mx,\n"
        "        (const %s *) Ap, (const %s *) Aj, (const SR::TA *) Ax,\n"
        "        (const %s *) Bp, (const %s *) Bj, (const SR::TB *) Bx,\n"
        "        (SR::Z *) Cx, Cb, Glocks, TPB) ;\n"
        "}\n",
        entry_shared, ns, mi, ai, bi, mi, mi, ai, ai, bi, bi,
        entry_global, ns, mi, ai, bi, mi, mi, ai, ai, bi, bi) ;
    return b->failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

// compile and load the kernels of one block (dense: the dense accumulator,
// NULL if the block has none or it is not wanted)
static GrB_Info spgemm_kernels (spgemm_block_fn block, const char *what,
    const gcu_semiring_desc *sr, const gcu_jit_operands *ops, void **shared, void **global,
    void **dense)
{
    char es [GCU_JIT_ENTRY_MAX], eg [GCU_JIT_ENTRY_MAX] ;
    char *program = NULL ;
    GrB_Info info = block_program (block, sr, ops, &program, es, eg) ;
    if (info != GrB_SUCCESS) return info ;
    char name [GxB_MAX_NAME_LEN * 3], label [GxB_MAX_NAME_LEN * 3 + 32] ;
    gcu_codegen_label (name, sizeof (name), sr) ;
    snprintf (label, sizeof (label), "%s %s", what, name) ;
    const gcu_jit_binary *bin = NULL ;
    info = gcu_jit_compile (program, label, &bin) ;
    free (program) ;
    if (info != GrB_SUCCESS) return info ;
    info = gcu_jit_function (bin, es, shared) ;
    if (info == GrB_SUCCESS) info = gcu_jit_function (bin, eg, global) ;
    if (dense != NULL)
    {
        *dense = NULL ;
        if (info == GrB_SUCCESS && sr->mult.z.size <= 8)
        {
            char ed [GCU_JIT_ENTRY_MAX] ;
            gcu_spgemm_entry_dense (es, ed) ;
            info = gcu_jit_function (bin, ed, dense) ;
        }
    }
    return info ;
}

GrB_Info gcu_spgemm_masked_kernels (const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, void **shared, void **global)
{
    return spgemm_kernels (gcu_spgemm_masked_block, "spgemm masked", sr, ops, shared, global, NULL) ;
}
