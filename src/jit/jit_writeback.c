// jit_writeback.c — the program of a write-back kernel that the JIT
// compiles for a typecast into C or an accum (the matrix merge,
// src/mxm/mxm_merge_jit.c; the dense-vector merge, src/vector/): the value
// policy gcu_merge_typed<SR> (cuda/writeback/gcu_merge.cuh) reads C's type
// as SR::TA and SR::TC, T's as SR::TB, and the accum as SR::mult (x: C's
// value, y: T's); with no accum the multiply is FIRST over C's type and
// never called. The monoid the SR struct needs is ANY over the multiply's
// type (never called either). Built-in value types only (a user type casts
// only to itself); positional accums are not expressible.
#include "gcu_jit.h"
#include "gcu_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_str_free (&b) ; free (block) ; free (*program) ; *program = NULL ;

GrB_Info gcu_jit_writeback_program (const gcu_jit_writeback *w, GrB_Type ctype,
    GrB_Type ttype, GrB_Type otype, GrB_BinaryOp accum, char **program,
    char entry [GCU_JIT_ENTRY_MAX], char *label, size_t lsize)
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
    if (ops.a.code >= GCU_NTYPES || ops.b.code >= GCU_NTYPES) GCU_TRY (GCU_NOT_HANDLED) ;
    ops.c = ops.a ;
    if (otype != NULL) GCU_TRY (gcu_type_identify (otype, &ops.c)) ;
    if (ops.c.code >= GCU_NTYPES) GCU_TRY (GCU_NOT_HANDLED) ;
    ops.mask_type = -1 ;
    GrB_BinaryOp op = (accum != NULL) ? accum : gcu_binop_of (GCU_OP_FIRST, ops.a.code) ;
    if (op == NULL) GCU_TRY (GCU_NOT_HANDLED) ;
    GCU_TRY (gcu_binop_identify (op, &sr.mult)) ;
    if (sr.mult.flags & GCU_OPF_POSITIONAL) GCU_TRY (GCU_NOT_HANDLED) ;
    if (sr.mult.z.code >= GCU_NTYPES) GCU_TRY (GCU_NOT_HANDLED) ;
    GrB_Monoid any = gcu_monoid_of (GCU_OP_ANY, sr.mult.z.code) ;
    if (any == NULL) GCU_TRY (GCU_NOT_HANDLED) ;
    GCU_TRY (gcu_monoid_identify (any, &sr.add)) ;
    char tag [64] ;
    snprintf (tag, sizeof (tag), "%s|%s", w->tag, accum != NULL ? "accum" : "cast") ;
    GCU_TRY (gcu_codegen_namespace (&b, &sr, &ops, w->prefix, tag, entry)) ;
    gcu_str_addf (&b, w->body, entry, entry) ;
    block = gcu_str_take (&b) ;
    if (block == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    const char *blocks [1] = { block } ;
    *program = gcu_jit_program (w->includes, blocks, 1) ;
    if (*program == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    char name [GxB_MAX_NAME_LEN * 3] ;
    gcu_codegen_label (name, sizeof (name), &sr) ;
    if (label != NULL)
        snprintf (label, lsize, "%s %s -> %s%s%s (%s)", w->what, gcu_types [ops.b.code].name,
            gcu_types [ops.a.code].name, ops.c.code != ops.a.code ? " into " : "",
            ops.c.code != ops.a.code ? gcu_types [ops.c.code].name : "",
            accum != NULL ? name : "cast") ;
    gcu_str_free (&b) ;
    free (block) ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL free (program) ;

GrB_Info gcu_jit_writeback_compile (const gcu_jit_writeback *w, GrB_Type ctype,
    GrB_Type ttype, GrB_Type otype, GrB_BinaryOp accum, const gcu_jit_binary **bin,
    char entry [GCU_JIT_ENTRY_MAX])
{
    char *program = NULL ;
    char label [GxB_MAX_NAME_LEN * 3 + 64] ;
    *bin = NULL ;
    GCU_TRY (gcu_jit_writeback_program (w, ctype, ttype, otype, accum, &program, entry,
        label, sizeof (label))) ;
    GCU_TRY (gcu_jit_compile (program, label, bin)) ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

GrB_Info gcu_jit_writeback_kernel (const gcu_jit_writeback *w, GrB_Type ctype,
    GrB_Type ttype, GrB_Type otype, GrB_BinaryOp accum, void **fn)
{
    const gcu_jit_binary *bin = NULL ;
    char entry [GCU_JIT_ENTRY_MAX] ;
    *fn = NULL ;
    GrB_Info info = gcu_jit_writeback_compile (w, ctype, ttype, otype, accum, &bin, entry) ;
    if (info != GrB_SUCCESS) return info ;
    return gcu_jit_function (bin, entry, fn) ;
}

bool gcu_jit_writeback_expressible (GrB_Type ctype, GrB_Type ttype, GrB_BinaryOp accum)
{
    if (accum == NULL && ctype == ttype) return true ;     // values as bytes
    gcu_type_desc tc, tt ;
    gcu_binop_desc acc ;
    if (gcu_type_identify (ctype, &tc) != GrB_SUCCESS || gcu_type_identify (ttype, &tt) != GrB_SUCCESS
        || tc.code >= GCU_NTYPES || tt.code >= GCU_NTYPES) return false ;
    if (accum == NULL) return true ;
    if (gcu_binop_identify (accum, &acc) != GrB_SUCCESS || (acc.flags & GCU_OPF_POSITIONAL))
        return false ;
    // the device's pow, atan2 and hypot are not the host C library's (the
    // differential tester on the H200): those accums are SuiteSparse's
    return gcu_op_device_exact (acc.op) ;
}
