// jit_reduce.c — JIT specialisation of the reduction to a scalar
// (cuda/reduce/gcu_reduce.cuh) for one monoid, matrix value type and output
// type: a block with the monoid's namespace and one GCU_REDUCE_KERNELS line
// (two extern "C" kernels, partial and final, written once in the .cuh and
// taking gcu_reduce_args by value) named by the hash of their specialisation, so blocks pack into one program (the CI
// sweep, tests/cpu/test_jit_reduce.c) without colliding.
//
// The block's SR is the semiring of the monoid with FIRST over the monoid's
// type as its multiply: SR::Z is the monoid's type, SR::add and
// SR::identity (the accumulators' neutral start, jit_codegen.c) are the
// monoid's, SR::TA the matrix's value type and SR::TC the output's. Its ID
// holds the monoid's identity exactly as the object does (the result of an
// empty reduction).
#include "gcu_reduce.h"
#include "gcu_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool builtin_type (GrB_Type t, gcu_type_desc *d)
{
    return t != NULL && gcu_type_identify (t, d) == GrB_SUCCESS && d->code < GCU_NTYPES ;
}

GrB_Info gcu_reduce_spec_make (GrB_Monoid monoid, GrB_Type atype,
    GrB_Type ctype, gcu_reduce_spec *spec)
{
    if (spec == NULL) return GrB_NULL_POINTER ;
    memset (spec, 0, sizeof (*spec)) ;
    if (monoid == NULL || gcu_monoid_identify (monoid, &spec->sr.add) != GrB_SUCCESS)
        return GCU_NOT_HANDLED ;
    const gcu_type_code z = spec->sr.add.op.z.code ;
    if (z >= GCU_NTYPES) return GCU_NOT_HANDLED ;
    // the multiply: FIRST over the monoid's type (never applied: the
    // kernels cast each value to Z themselves; it gives SR its types)
    GrB_BinaryOp first = gcu_binop_of (GCU_OP_FIRST, z) ;
    if (first == NULL || gcu_binop_identify (first, &spec->sr.mult) != GrB_SUCCESS)
        return GCU_NOT_HANDLED ;
    if (!builtin_type (atype, &spec->ops.a) || !builtin_type (ctype, &spec->ops.c))
        return GCU_NOT_HANDLED ;
    spec->ops.b = spec->sr.mult.y ;
    spec->ops.mask_type = -1 ;
    return GrB_SUCCESS ;
}

const char *gcu_reduce_preamble (void)
{
    return "#include \"reduce/gcu_reduce.cuh\"\n" ;
}

void gcu_reduce_entries (const char *entry, char fin [GCU_JIT_ENTRY_MAX])
{
    // entry is "gcu_rdp_" + hash; the final kernel shares the hash
    snprintf (fin, GCU_JIT_ENTRY_MAX, "gcu_rdf_%s", entry + strlen ("gcu_rdp_")) ;
}

GrB_Info gcu_reduce_block (const gcu_reduce_spec *spec, gcu_str *b,
    char entry [GCU_JIT_ENTRY_MAX])
{
    if (spec == NULL || b == NULL || entry == NULL) return GrB_NULL_POINTER ;
    // the name depends on the identity too (ID is not part of SR's text)
    const gcu_type_desc *Z = &spec->sr.add.op.z ;
    if (Z->size == 0 || Z->size > GCU_VALUE_MAX) return GCU_NOT_HANDLED ;
    char key [16 + 2 * GCU_VALUE_MAX] = "|reduce|" ;
    for (size_t k = 0 ; k < Z->size ; k++)
        snprintf (key + strlen (key), 3, "%02x", spec->sr.add.identity [k]) ;
    GrB_Info info = gcu_codegen_namespace (b, &spec->sr, &spec->ops, "gcu_rdp_", key, entry) ;
    if (info != GrB_SUCCESS) return info ;
    char fin [GCU_JIT_ENTRY_MAX] ;
    gcu_reduce_entries (entry, fin) ;
    gcu_str_addf (b, "namespace %s_ns\n{\nstruct ID\n{\n    typedef SR::Z Z ;\n"
        "    static GCU_HD Z value (void) ", entry) ;
    gcu_codegen_value (b, Z, spec->sr.add.identity) ;
    gcu_str_add (b, "\n} ;\n}\n") ;
    gcu_str_addf (b, "GCU_REDUCE_KERNELS (%s, %s, %s_ns::SR, %s_ns::ID)\n",
        entry, fin, entry, entry) ;
    return b->failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

// "reduce PLUS_FP64 (INT32 -> FP64)": the monoid, the matrix's type, the output's
static void reduce_label (const gcu_reduce_spec *spec, char *label, size_t size)
{
    char name [GxB_MAX_NAME_LEN * 3] ;
    const gcu_type_desc *a = &spec->ops.a, *c = &spec->ops.c ;
    const char *op = (spec->sr.add.op.op == GCU_OP_USER) ? spec->sr.add.op.user_name
        : gcu_ops [spec->sr.add.op.op].name ;
    snprintf (name, sizeof (name), "%s_%s", op ? op : "?",
        gcu_types [spec->sr.add.op.z.code].name) ;
    snprintf (label, size, "reduce %s (%s -> %s)", name,
        gcu_types [a->code].name, gcu_types [c->code].name) ;
}

GrB_Info gcu_reduce_kernels (const gcu_reduce_spec *spec, void **partial,
    void **fin)
{
    gcu_str b ;
    gcu_str_init (&b) ;
    char entry [GCU_JIT_ENTRY_MAX], ef [GCU_JIT_ENTRY_MAX] ;
    char label [GxB_MAX_NAME_LEN * 3 + 48] = "" ;
    const GrB_Info built = gcu_reduce_block (spec, &b, entry) ;
    if (built == GrB_SUCCESS)
    {
        reduce_label (spec, label, sizeof (label)) ;
        gcu_reduce_entries (entry, ef) ;
    }
    const char *const entries [2] = { entry, ef } ;
    void **const fns [2] = { partial, fin } ;
    return gcu_jit_block_kernels (built, gcu_reduce_preamble (), &b, label, 2, entries, fns) ;
}
