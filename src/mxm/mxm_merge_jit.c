// mxm_merge_jit.c — the JIT's fill kernel of the matrix write-back
// (cuda/writeback/gcu_merge.cuh) for a typecast into C or an accum: one
// thread a row, gcu_merge_row over the typed value policy; the program is
// built by the JIT's write-back builder (src/jit/jit_writeback.c), which
// the dense-vector write-back (src/vector/) shares.
#include "gcu_mxm.h"
#include "../jit/gcu_jit.h"

// (in both builds: without CUDA the JIT compiles nothing and every call
// passes through, but the code generation stays testable)

static const gcu_jit_writeback merge_jit =
{
    "#include \"common/gcu_semiring.cuh\"\n#include \"writeback/gcu_merge.cuh\"\n",
    "extern \"C\" __global__ void __launch_bounds__ (GCU_MERGE_THREADS)\n"
    "%s (gcu_merge_args a, const int64_t *Op, int64_t *Oj, void *Ox)\n"
    "{\n"
    "    typedef %s_ns::SR SR ;\n"
    "    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;\n"
    "    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < a.m ; i += stride)\n"
    "        (void) gcu_merge_row<true, gcu_merge_typed<SR> > (a, i, Oj, Ox, Op [i]) ;\n"
    "}\n",
    "gcu_wb_", "merge", "write-back merge"
} ;

GrB_Info gcu_mxm_merge_program (GrB_Type ctype, GrB_Type ttype, GrB_BinaryOp accum,
    char **program, char entry [GCU_JIT_ENTRY_MAX], char *label, size_t lsize)
{
    return gcu_jit_writeback_program (&merge_jit, ctype, ttype, NULL, accum, program, entry,
        label, lsize) ;
}

GrB_Info gcu_mxm_merge_compile (GrB_Type ctype, GrB_Type ttype, GrB_BinaryOp accum,
    const gcu_jit_binary **bin, char entry [GCU_JIT_ENTRY_MAX])
{
    return gcu_jit_writeback_compile (&merge_jit, ctype, ttype, NULL, accum, bin, entry) ;
}

GrB_Info gcu_mxm_merge_kernel (GrB_Type ctype, GrB_Type ttype, GrB_Type otype,
    GrB_BinaryOp accum, void **fn)
{
    return gcu_jit_writeback_kernel (&merge_jit, ctype, ttype, otype, accum, fn) ;
}
