// mxm_merge_jit.c — the JIT's fill kernel of the device write-back
// (cuda/writeback/gcu_merge.cuh) for a typecast into C or an accum: the
// accum is the SR struct's multiply (x: C's value, y: T's), TA and TC are
// C's type, TB is T's; with no accum the multiply is FIRST over C's type and
// never called. The monoid the SR struct needs is ANY over the multiply's
// type (never called either). Compiled through the JIT's caches.
#include "gcu_mxm.h"
#include "../jit/gcu_jit.h"
#include "gcu_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// (in both builds: without CUDA the JIT compiles nothing and every call
// passes through, but the code generation stays testable)

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_str_free (&b) ; free (block) ; free (*program) ; *program = NULL ;

GrB_Info gcu_mxm_merge_program (GrB_Type ctype, GrB_Type ttype, GrB_BinaryOp accum,
    char **program, char entry [GCU_JIT_ENTRY_MAX], char *label, size_t lsize)
{
    gcu_semiring_desc sr ;
    gcu_jit_operands ops ;
    gcu_str b ;
    char *block = NULL ;
    memset (&sr, 0, sizeof (sr)) ;
    memset (&ops, 0, sizeof (ops)) ;
    gcu_str_init (&b) ;
    *program = NULL ;
    GCU_TRY (gcu_type_identify (ctype, &ops.a)) ;
    GCU_TRY (gcu_type_identify (ttype, &ops.b)) ;
    // built-in value types only (a user type casts only to itself)
    if (ops.a.code >= GCU_NTYPES || ops.b.code >= GCU_NTYPES) GCU_TRY (GCU_NOT_HANDLED) ;
    ops.c = ops.a ;
    ops.mask_type = -1 ;
    GrB_BinaryOp op = (accum != NULL) ? accum : gcu_binop_of (GCU_OP_FIRST, ops.a.code) ;
    if (op == NULL) GCU_TRY (GCU_NOT_HANDLED) ;
    GCU_TRY (gcu_binop_identify (op, &sr.mult)) ;
    if (sr.mult.flags & GCU_OPF_POSITIONAL) GCU_TRY (GCU_NOT_HANDLED) ;
    if (sr.mult.z.code >= GCU_NTYPES) GCU_TRY (GCU_NOT_HANDLED) ;
    GrB_Monoid any = gcu_monoid_of (GCU_OP_ANY, sr.mult.z.code) ;
    if (any == NULL) GCU_TRY (GCU_NOT_HANDLED) ;
    GCU_TRY (gcu_monoid_identify (any, &sr.add)) ;
    GCU_TRY (gcu_codegen_namespace (&b, &sr, &ops, "gcu_wb_", accum != NULL ? "merge|accum" : "merge|cast", entry)) ;
    gcu_str_addf (&b,
        "extern \"C\" __global__ void __launch_bounds__ (GCU_MERGE_THREADS)\n"
        "%s (gcu_merge_args a, const int64_t *Op, int64_t *Oj, void *Ox)\n"
        "{\n"
        "    typedef %s_ns::SR SR ;\n"
        "    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;\n"
        "    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < a.m ; i += stride)\n"
        "        (void) gcu_merge_row<true, gcu_merge_typed<SR> > (a, i, Oj, Ox, Op [i]) ;\n"
        "}\n", entry, entry) ;
    block = gcu_str_take (&b) ;
    if (block == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    const char *blocks [1] = { block } ;
    *program = gcu_jit_program ("#include \"common/gcu_semiring.cuh\"\n"
        "#include \"writeback/gcu_merge.cuh\"\n", blocks, 1) ;
    if (*program == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    char name [GxB_MAX_NAME_LEN * 3] ;
    gcu_codegen_label (name, sizeof (name), &sr) ;
    if (label != NULL)
        snprintf (label, lsize, "write-back merge %s -> %s (%s)", gcu_types [ops.b.code].name,
            gcu_types [ops.a.code].name, accum != NULL ? name : "cast") ;
    gcu_str_free (&b) ;
    free (block) ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL free (program) ;

GrB_Info gcu_mxm_merge_compile (GrB_Type ctype, GrB_Type ttype, GrB_BinaryOp accum,
    const gcu_jit_binary **bin, char entry [GCU_JIT_ENTRY_MAX])
{
    char *program = NULL ;
    char label [GxB_MAX_NAME_LEN * 3 + 48] ;
    *bin = NULL ;
    GCU_TRY (gcu_mxm_merge_program (ctype, ttype, accum, &program, entry, label, sizeof (label))) ;
    GCU_TRY (gcu_jit_compile (program, label, bin)) ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

GrB_Info gcu_mxm_merge_kernel (GrB_Type ctype, GrB_Type ttype, GrB_BinaryOp accum,
    void **fn)
{
    const gcu_jit_binary *bin = NULL ;
    char entry [GCU_JIT_ENTRY_MAX] ;
    *fn = NULL ;
    GCU_TRY (gcu_mxm_merge_compile (ctype, ttype, accum, &bin, entry)) ;
    return gcu_jit_function (bin, entry, fn) ;
}
