// jit_codegen.c — turn a semiring description (semirings/gcu_semiring.h) and
// the operand types of one call into the CUDA C++ struct SR that the generic
// kernels of cuda/ are instantiated with (the concept is documented in
// cuda/common/gcu_semiring.cuh).
//
// Built-in operators contribute their device expression from the semiring
// table; user operators and types contribute the definitions the program gave
// (captured by src/api/user.c into semirings/gcu_semiring_user.c), each wrapped in a guard so that several
// specialisations packed into one program define them once. Terminal values
// are written bit-exactly from the bytes the monoid object holds, and so is
// the accumulators' starting value, the identity, except where floating point
// needs another (gcu_seed_value).
#include "gcu_jit.h"
#include "gcu_sha256.h"
#include "../util/gcu_util.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

//------------------------------------------------------------------------------
// values
//------------------------------------------------------------------------------

static int64_t gcu_load_int (const uint8_t *b, int bytes)
{
    // little-endian, sign-extended from `bytes` bytes
    uint64_t u = 0 ;
    for (int k = 0 ; k < bytes ; k++) u |= ((uint64_t) b [k]) << (8 * k) ;
    if (bytes < 8 && (u >> (8 * bytes - 1)) & 1) u |= ~((UINT64_C (1) << (8 * bytes)) - 1) ;
    return (int64_t) u ;
}

static uint64_t gcu_load_uint (const uint8_t *b, int bytes)
{
    uint64_t u = 0 ;
    for (int k = 0 ; k < bytes ; k++) u |= ((uint64_t) b [k]) << (8 * k) ;
    return u ;
}

// a built-in value as a C++ expression of its type
static void gcu_builtin_literal (gcu_str *s, gcu_type_code t, const uint8_t *b)
{
    const gcu_type_info *ti = &gcu_types [t] ;
    switch (ti->tclass)
    {
        case GCU_CLASS_BOOL:
            gcu_str_add (s, b [0] ? "true" : "false") ;
            break ;
        case GCU_CLASS_INT:
        {
            int64_t v = gcu_load_int (b, ti->bits / 8) ;
            if (v == INT64_MIN) gcu_str_addf (s, "((%s) (-9223372036854775807LL - 1))", ti->cuda) ;
            else gcu_str_addf (s, "((%s) %" PRId64 "LL)", ti->cuda, v) ;
            break ;
        }
        case GCU_CLASS_UINT:
            gcu_str_addf (s, "((%s) %" PRIu64 "ULL)", ti->cuda, gcu_load_uint (b, ti->bits / 8)) ;
            break ;
        case GCU_CLASS_FLOAT:
            if (t == GCU_T_FP32) gcu_str_addf (s, "gcu_f32_bits (0x%08" PRIx64 "u)", gcu_load_uint (b, 4)) ;
            else gcu_str_addf (s, "gcu_f64_bits (0x%016" PRIx64 "ull)", gcu_load_uint (b, 8)) ;
            break ;
        default:
            if (t == GCU_T_FC32)
            {
                gcu_str_addf (s, "gcu_cmake<gcu_fc32> (gcu_f32_bits (0x%08" PRIx64 "u), "
                    "gcu_f32_bits (0x%08" PRIx64 "u))", gcu_load_uint (b, 4), gcu_load_uint (b + 4, 4)) ;
            }
            else
            {
                gcu_str_addf (s, "gcu_cmake<gcu_fc64> (gcu_f64_bits (0x%016" PRIx64 "ull), "
                    "gcu_f64_bits (0x%016" PRIx64 "ull))", gcu_load_uint (b, 8), gcu_load_uint (b + 8, 8)) ;
            }
            break ;
    }
}

void gcu_codegen_value (gcu_str *s, const gcu_type_desc *t, const void *bytes)
{
    const uint8_t *b = bytes ;
    if (t->code < GCU_NTYPES)
    {
        gcu_str_add (s, "{ return ") ;
        gcu_builtin_literal (s, t->code, b) ;
        gcu_str_add (s, " ; }") ;
        return ;
    }
    // a user type: its bytes, copied into place
    gcu_str_addf (s, "{ const unsigned char b [%zu] = {", t->size) ;
    for (size_t k = 0 ; k < t->size ; k++) gcu_str_addf (s, "%s%u", k ? "," : "", b [k]) ;
    gcu_str_add (s, "} ; Z z ; memcpy (&z, b, sizeof (Z)) ; return z ; }") ;
}

//------------------------------------------------------------------------------
// user definitions
//------------------------------------------------------------------------------

// `name`'s definition once per program, even when several blocks need it;
// the guard includes a hash of the text, so two different definitions of one
// name collide in the compiler instead of one silently winning
static void gcu_user_defn (gcu_str *s, const char *name, const char *defn,
    size_t type_size)
{
    uint8_t h [32] ;
    gcu_sha256 c ;
    gcu_sha256_init (&c) ;
    gcu_sha256_update (&c, defn, strlen (defn)) ;
    gcu_sha256_final (&c, h) ;
    char guard [GxB_MAX_NAME_LEN + 64] ;
    snprintf (guard, sizeof (guard), "GCU_DEFN_%s_%02x%02x%02x%02x%02x%02x", name,
        h [0], h [1], h [2], h [3], h [4], h [5]) ;
    gcu_str_addf (s, "#ifndef %s\n#define %s\n%s\n", guard, guard, defn) ;
    if (type_size > 0)
    {
        gcu_str_addf (s, "static_assert (sizeof (%s) == %zu, \"the definition of %s "
            "does not have the size GraphBLAS was given\") ;\n", name, type_size, name) ;
    }
    gcu_str_add (s, "#endif\n") ;
}

static void gcu_user_type (gcu_str *s, const gcu_type_desc *t)
{
    if (t->code == GCU_T_UDT && t->defn != NULL) gcu_user_defn (s, t->cuda, t->defn, t->size) ;
}

static void gcu_user_op (gcu_str *s, const gcu_binop_desc *op)
{
    gcu_user_type (s, &op->x) ;
    gcu_user_type (s, &op->y) ;
    gcu_user_type (s, &op->z) ;
    if (op->op == GCU_OP_USER) gcu_user_defn (s, op->user_name, op->user_defn, 0) ;
}

//------------------------------------------------------------------------------
// checks
//------------------------------------------------------------------------------

// can a value of type `from` be cast to `to` on the device
static bool gcu_castable (const gcu_type_desc *to, const gcu_type_desc *from)
{
    if (to->code < GCU_NTYPES && from->code < GCU_NTYPES) return true ;
    // a user type only to and from itself
    return to->code == GCU_T_UDT && from->code == GCU_T_UDT &&
        (to->handle == from->handle ||
         (to->cuda != NULL && from->cuda != NULL && strcmp (to->cuda, from->cuda) == 0)) ;
}

static bool gcu_type_ok (const gcu_type_desc *t)
{
    if (t->code < GCU_NTYPES) return true ;
    return t->code == GCU_T_UDT && t->cuda != NULL && t->defn != NULL ;
}

//------------------------------------------------------------------------------
// the SR struct
//------------------------------------------------------------------------------

// the body of a static member computing `z = op (x, y)`
static void gcu_op_body (gcu_str *s, const gcu_binop_desc *op)
{
    if (op->op == GCU_OP_USER)
    {
        // casts drop const: the user's signature may or may not have it
        gcu_str_addf (s, "{ Z z ; %s (&z, (X_ *) &x, (Y_ *) &y) ; return z ; }",
            op->user_name) ;
    }
    else if (op->flags & GCU_OPF_POSITIONAL)
    {
        gcu_str_addf (s, "{ return gcu_cast<Z> ((int64_t) (%s)) ; }", gcu_ops [op->op].expr) ;
    }
    else
    {
        gcu_str_addf (s, "{ return gcu_cast<Z> (%s) ; }", gcu_ops [op->op].expr) ;
    }
}

// The value an accumulator starts from (SR::identity): the monoid's identity,
// except over floating point, where the identity the monoid declares is not
// neutral for every value and SuiteSparse, which starts each entry from its
// first product, never uses it. x + 0 turns x = -0 into +0, while -0 + x is x
// for every x; min (+inf, NaN) is +inf (min ignores NaN), while an entry whose
// products are all NaN is NaN in SuiteSparse; NaN is neutral for min and max
// as they are defined (gcu_min, gcu_max). Complex TIMES has no such value
// ((1,0) * (inf,0) is (inf,NaN)): GCU_NOT_HANDLED; a kernel that starts each
// entry from its first product (ops->first_product) gets no identity at all,
// any other leaves the call to the host.
static GrB_Info gcu_seed_value (const gcu_monoid_desc *add, const gcu_type_desc *Z,
    uint8_t seed [GCU_VALUE_MAX], const void **value)
{
    *value = add->identity ;
    const gcu_type_code t = Z->code ;
    const bool real = t == GCU_T_FP32 || t == GCU_T_FP64 ;
    const bool cplx = t == GCU_T_FC32 || t == GCU_T_FC64 ;
    if (!real && !cplx) return GrB_SUCCESS ;
    const int op = add->op.op ;
    if (op == GCU_OP_TIMES && cplx) return GCU_NOT_HANDLED ;
    const size_t part = (t == GCU_T_FP32 || t == GCU_T_FC32) ? 4 : 8 ;
    const float f = (op == GCU_OP_PLUS) ? -0.0f : NAN ;
    const double d = (op == GCU_OP_PLUS) ? -0.0 : NAN ;
    if (op != GCU_OP_PLUS && (!real || (op != GCU_OP_MIN && op != GCU_OP_MAX))) return GrB_SUCCESS ;
    for (size_t k = 0 ; k < Z->size / part ; k++)
    {
        if (part == 4) memcpy (seed + 4 * k, &f, 4) ;
        else memcpy (seed + 8 * k, &d, 8) ;
    }
    *value = seed ;
    return GrB_SUCCESS ;
}

static const char *gcu_cuda_name (const gcu_type_desc *t)
{
    return (t->code < GCU_NTYPES) ? gcu_types [t->code].cuda : t->cuda ;
}

GrB_Info gcu_codegen_semiring (gcu_str *s, const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops)
{
    if (s == NULL || sr == NULL || ops == NULL) return GrB_NULL_POINTER ;
    const gcu_binop_desc *mult = &sr->mult ;
    const gcu_monoid_desc *add = &sr->add ;
    const gcu_type_desc *X = &mult->x, *Y = &mult->y, *Z = &mult->z ;
    bool reads_x = !(mult->flags & GCU_OPF_NO_X) ;
    bool reads_y = !(mult->flags & GCU_OPF_NO_Y) ;

    // an operand the multiply never reads may be of any type, even a user
    // type without a definition: its values are never touched
    bool opaque_a = !reads_x && ops->a.code >= GCU_NTYPES ;
    bool opaque_b = !reads_y && ops->b.code >= GCU_NTYPES ;

    // everything must be describable, and every cast possible
    if (!gcu_type_ok (X) || !gcu_type_ok (Y) || !gcu_type_ok (Z) ||
        (!opaque_a && !gcu_type_ok (&ops->a)) || (!opaque_b && !gcu_type_ok (&ops->b)) ||
        !gcu_type_ok (&ops->c) || !gcu_type_ok (&add->op.z) ||
        (opaque_a && (ops->a.size == 0 || ops->a.size > GCU_VALUE_MAX)) ||
        (opaque_b && (ops->b.size == 0 || ops->b.size > GCU_VALUE_MAX)))
    {
        return GCU_NOT_HANDLED ;
    }
    if ((mult->op == GCU_OP_USER && (mult->user_name == NULL || mult->user_defn == NULL)) ||
        (add->op.op == GCU_OP_USER && (add->op.user_name == NULL || add->op.user_defn == NULL)))
    {
        return GCU_NOT_HANDLED ;
    }
    if ((reads_x && !gcu_castable (X, &ops->a)) ||
        (reads_y && !gcu_castable (Y, &ops->b)) ||
        !gcu_castable (&ops->c, Z) || !gcu_castable (&add->op.z, Z))
    {
        return GCU_NOT_HANDLED ;
    }
    if (ops->mask_type >= GCU_NTYPES) return GCU_NOT_HANDLED ;
    uint8_t seed [GCU_VALUE_MAX] ;
    const void *seed_value = NULL ;
    const bool no_seed = gcu_seed_value (add, Z, seed, &seed_value) != GrB_SUCCESS ;
    if (no_seed && !ops->first_product) return GCU_NOT_HANDLED ;

    // user definitions, at global scope
    if (!opaque_a) gcu_user_type (s, &ops->a) ;
    if (!opaque_b) gcu_user_type (s, &ops->b) ;
    gcu_user_type (s, &ops->c) ;
    gcu_user_op (s, mult) ;
    gcu_user_op (s, &add->op) ;

    gcu_str_add (s, "struct SR\n{\n") ;
    gcu_str_addf (s, "    typedef %s X ;\n    typedef %s Y ;\n    typedef %s Z ;\n",
        gcu_cuda_name (X), gcu_cuda_name (Y), gcu_cuda_name (Z)) ;
    if (opaque_a) gcu_str_addf (s, "    typedef gcu_bytes<%zu> TA ;\n", ops->a.size) ;
    else gcu_str_addf (s, "    typedef %s TA ;\n", gcu_cuda_name (&ops->a)) ;
    if (opaque_b) gcu_str_addf (s, "    typedef gcu_bytes<%zu> TB ;\n", ops->b.size) ;
    else gcu_str_addf (s, "    typedef %s TB ;\n", gcu_cuda_name (&ops->b)) ;
    gcu_str_addf (s, "    typedef %s TC ;\n", gcu_cuda_name (&ops->c)) ;
    gcu_str_addf (s, "    typedef %s TM ;\n",
        (ops->mask_type >= 0) ? gcu_types [ops->mask_type].cuda : "bool") ;
    gcu_str_addf (s, "    static const bool reads_x = %s, reads_y = %s ;\n",
        reads_x ? "true" : "false", reads_y ? "true" : "false") ;
    gcu_str_addf (s, "    static const bool is_any = %s, has_terminal = %s ;\n",
        add->is_any ? "true" : "false",
        (add->has_terminal && !add->is_any) ? "true" : "false") ;
    // the monoid as an atomic the hardware has (kernels that accumulate with
    // atomics use atomicAdd/Min/Max for it): 1 PLUS, 2 MIN, 3 MAX, 0 other
    int add_kind = 0 ;
    if (add->op.op == GCU_OP_PLUS) add_kind = 1 ;
    else if (add->op.op == GCU_OP_MIN) add_kind = 2 ;
    else if (add->op.op == GCU_OP_MAX) add_kind = 3 ;
    gcu_str_addf (s, "    static const int add_kind = %d ;\n", add_kind) ;
    gcu_str_addf (s, "    static const bool a_iso = %s, b_iso = %s ;\n",
        ops->a_iso ? "true" : "false", ops->b_iso ? "true" : "false") ;
    gcu_str_addf (s, "    static const bool m_valued = %s, m_iso = %s ;\n",
        (ops->mask_type >= 0) ? "true" : "false", ops->m_iso ? "true" : "false") ;

    if (!no_seed)
    {
        gcu_str_add (s, "    static GCU_HD Z identity (void) ") ;
        gcu_codegen_value (s, Z, seed_value) ;
        gcu_str_add (s, "\n") ;
    }
    gcu_str_add (s, "    static GCU_HD Z terminal (void) ") ;
    gcu_codegen_value (s, Z, (add->has_terminal && !add->is_any) ? add->terminal : add->identity) ;

    // the monoid: x, y and z all of type Z
    gcu_str_add (s, "\n    static GCU_HD Z add (const Z &x, const Z &y)\n    {\n"
        "        typedef Z X_ ; typedef Z Y_ ;\n        ") ;
    gcu_op_body (s, &add->op) ;
    gcu_str_add (s, "\n    }\n") ;

    // the multiply, with the position (i, k, j) for positional operators
    gcu_str_add (s, "    static GCU_HD Z mult (const X &x, const Y &y, int64_t i, int64_t k, int64_t j)\n"
        "    {\n        typedef X X_ ; typedef Y Y_ ;\n        (void) i ; (void) k ; (void) j ;\n        ") ;
    gcu_op_body (s, mult) ;
    gcu_str_add (s, "\n    }\n} ;\n") ;
    return s->failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

void gcu_codegen_label (char *buf, size_t size, const gcu_semiring_desc *sr)
{
    const gcu_binop_desc *m = &sr->mult ;
    const char *add = (sr->add.op.op == GCU_OP_USER) ? sr->add.op.user_name
                                                     : gcu_ops [sr->add.op.op].name ;
    const char *mul = (m->op == GCU_OP_USER) ? m->user_name : gcu_ops [m->op].name ;
    const char *t = (m->x.code < GCU_NTYPES) ? gcu_types [m->x.code].name : m->x.cuda ;
    snprintf (buf, size, "%s_%s_%s", add ? add : "?", mul ? mul : "?", t ? t : "?") ;
}

GrB_Info gcu_codegen_namespace (gcu_str *s, const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, const char *prefix, const char *key_extra,
    char entry [GCU_JIT_ENTRY_MAX])
{
    if (s == NULL || sr == NULL || ops == NULL || prefix == NULL || entry == NULL)
    {
        return GrB_NULL_POINTER ;
    }
    gcu_str t ;
    gcu_str_init (&t) ;
    GrB_Info info = gcu_codegen_semiring (&t, sr, ops) ;
    char *text = gcu_str_take (&t) ;
    if (info != GrB_SUCCESS || text == NULL)
    {
        free (text) ;
        return (info != GrB_SUCCESS) ? info : GrB_OUT_OF_MEMORY ;
    }
    // the name: a hash of everything the block's code depends on (80 bits
    // of two 64-bit hashes; SHA-256 here cost more than the rest of a
    // repeated request for the block: bench/RESULTS.md, 2026-11-26)
    const size_t tl = strlen (text), kl = key_extra != NULL ? strlen (key_extra) : 0 ;
    const uint64_t k1 = gcu_text_hash (key_extra != NULL ? key_extra : "", kl, 7) ;
    const uint64_t h1 = gcu_text_hash (text, tl, k1), h2 = gcu_text_hash (text, tl, ~k1) ;
    char hex [41] ;
    snprintf (hex, sizeof (hex), "%016" PRIx64 "%016" PRIx64, h1, h2) ;
    snprintf (entry, GCU_JIT_ENTRY_MAX, "%.24s%.20s", prefix, hex) ;
    // user definitions stay at global scope (shared by every block of a
    // program, each under its guard); the struct goes into the namespace
    const char *sr_start = strstr (text, "struct SR\n") ;
    if (sr_start == NULL)
    {
        free (text) ;
        return GrB_PANIC ;
    }
    gcu_str_addf (s, "%.*s", (int) (sr_start - text), text) ;
    gcu_str_addf (s, "namespace %s_ns\n{\n%s}\n", entry, sr_start) ;
    free (text) ;
    return s->failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}
