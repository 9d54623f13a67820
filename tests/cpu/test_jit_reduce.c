// GRBCUDA_TEST_INTERNAL (calls internal gcu_* functions: links grbcuda_static)
// test_jit_reduce.c — the kernels of GrB_Matrix_reduce to a scalar
// (cuda/reduce/gcu_reduce.cuh, specialised by src/reduce/jit_reduce.c)
// compile through the real JIT path (code generation, NVRTC, the caches) for:
//   monoids:   every built-in monoid row, over its own type, into its own
//              type and into another (complex TIMES is declined: no
//              accumulator start neutral for every value, jit_codegen.c);
//   casts:     values of every type TA reduced with PLUS (LOR for bool) of
//              every type Z into TA: every typecast TA -> Z and Z -> TA;
//   run time:  monoids built with GrB_Monoid_new from built-in operators
//              (ID holds the identity the object reports);
// and the spec declines what the device path must leave to the host (user
// types, NULL). No GPU needed: CI's proof that every monoid has its kernels.
// Specialisations are packed 16 per program, compiled in parallel.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     // memmem
#endif
#include "gcu_test.h"
#include "../../src/jit/gcu_jit.h"
#include "../../src/reduce/gcu_reduce.h"
#include "../../src/util/gcu_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
    char *block ;
    char entry [GCU_JIT_ENTRY_MAX] ;
    char what [128] ;
}
spec_block ;

static spec_block *blocks = NULL ;
static int nblocks = 0, capblocks = 0 ;

static GrB_Monoid find_monoid (gcu_opcode op, gcu_type_code t)
{
    for (size_t k = 0 ; k < gcu_nmonoids ; k++)
        if (gcu_monoids [k].op == op && gcu_monoids [k].type == t) return *gcu_monoids [k].handle ;
    return NULL ;
}

static GrB_Monoid plus_of (gcu_type_code t)
{
    return (t == GCU_T_BOOL) ? GrB_LOR_MONOID_BOOL : find_monoid (GCU_OP_PLUS, t) ;
}

// the block for (monoid, a, c); declined: the JIT must refuse it
static void add_spec (GrB_Monoid monoid, GrB_Type a, GrB_Type c, bool declined,
    const char *what)
{
    gcu_reduce_spec spec ;
    GrB_Info info = gcu_reduce_spec_make (monoid, a, c, &spec) ;
    CHECK (info == GrB_SUCCESS, "spec %s: %d", what, (int) info) ;
    if (info != GrB_SUCCESS) return ;
    gcu_str str ;
    gcu_str_init (&str) ;
    char entry [GCU_JIT_ENTRY_MAX] ;
    info = gcu_reduce_block (&spec, &str, entry) ;
    char *text = gcu_str_take (&str) ;
    if (declined)
    {
        CHECK (info == GCU_NOT_HANDLED, "codegen %s: %d, not declined", what, (int) info) ;
        free (text) ;
        return ;
    }
    CHECK (info == GrB_SUCCESS && text != NULL, "codegen %s: %d", what, (int) info) ;
    if (info != GrB_SUCCESS || text == NULL) { free (text) ; return ; }
    CHECK (strstr (text, "struct ID") != NULL && strstr (text, "gcu_rdf_") != NULL,
        "%s: the block has ID and the final kernel", what) ;
    for (int k = 0 ; k < nblocks ; k++)
    {
        if (strcmp (blocks [k].entry, entry) == 0) { free (text) ; return ; }   // an alias
    }
    if (nblocks == capblocks)
    {
        capblocks = capblocks ? 2 * capblocks : 256 ;
        blocks = realloc (blocks, capblocks * sizeof (spec_block)) ;
        if (blocks == NULL) { fprintf (stderr, "out of memory\n") ; exit (1) ; }
    }
    blocks [nblocks].block = text ;
    snprintf (blocks [nblocks].entry, GCU_JIT_ENTRY_MAX, "%s", entry) ;
    snprintf (blocks [nblocks].what, sizeof (blocks [nblocks].what), "%s", what) ;
    nblocks++ ;
}

// the block's text, for checks of what it holds
static char *block_text (GrB_Monoid monoid, GrB_Type a, GrB_Type c)
{
    gcu_reduce_spec spec ;
    if (gcu_reduce_spec_make (monoid, a, c, &spec) != GrB_SUCCESS) return NULL ;
    gcu_str str ;
    gcu_str_init (&str) ;
    char entry [GCU_JIT_ENTRY_MAX] ;
    GrB_Info info = gcu_reduce_block (&spec, &str, entry) ;
    char *text = gcu_str_take (&str) ;
    if (info != GrB_SUCCESS) { free (text) ; return NULL ; }
    return text ;
}

static void test_specs (void)
{
    // every monoid row, into its own type and into another
    for (size_t k = 0 ; k < gcu_nmonoids ; k++)
    {
        const gcu_monoid_entry *m = &gcu_monoids [k] ;
        GrB_Type t = *gcu_types [m->type].handle ;
        GrB_Type o = *gcu_types [(m->type + 1 + k) % GCU_NTYPES].handle ;
        const bool declined = m->op == GCU_OP_TIMES
            && (m->type == GCU_T_FC32 || m->type == GCU_T_FC64) ;
        char what [128] ;
        snprintf (what, sizeof (what), "%s", m->name) ;
        add_spec (*m->handle, t, t, declined, what) ;
        snprintf (what, sizeof (what), "%s -> %s", m->name, gcu_types [(m->type + 1 + k) % GCU_NTYPES].name) ;
        add_spec (*m->handle, t, o, declined, what) ;
    }
    // every typecast on the way in and on the way out
    for (int ta = 0 ; ta < GCU_NTYPES ; ta++)
    {
        for (int z = 0 ; z < GCU_NTYPES ; z++)
        {
            char what [128] ;
            snprintf (what, sizeof (what), "cast %s->%s->%s", gcu_types [ta].name,
                gcu_types [z].name, gcu_types [ta].name) ;
            GrB_Type t = *gcu_types [ta].handle ;
            add_spec (plus_of (z), t, t, false, what) ;
        }
    }
    // monoids built at run time: their own identity
    GrB_Monoid m1 = NULL, m2 = NULL ;
    OK (GrB_Monoid_new_FP64 (&m1, GrB_PLUS_FP64, 5.0)) ;
    OK (GrB_Monoid_new_INT32 (&m2, GrB_MAX_INT32, -7)) ;
    add_spec (m1, GrB_FP64, GrB_INT64, false, "GrB_Monoid_new (PLUS_FP64, 5)") ;
    add_spec (m2, GrB_INT16, GrB_FP32, false, "GrB_Monoid_new (MAX_INT32, -7)") ;
    // ID is the identity the object holds (SuiteSparse 7.4 keeps the
    // built-in identity of a built-in operator, whatever was given: +0 here),
    // SR::identity -0 (neutral for PLUS): the same kernel as PLUS_MONOID_FP64
    double id = -1 ;
    OK (GxB_Monoid_identity (&id, m1)) ;
    char *text = block_text (m1, GrB_FP64, GrB_FP64) ;
    CHECK (id == 0 && text != NULL && strstr (text, "value (void) { return gcu_f64_bits "
        "(0x0000000000000000ull)") != NULL && strstr (text, "gcu_f64_bits (0x8000000000000000ull)") != NULL,
        "run-time monoid: ID holds %g, SR::identity -0:\n%s", id, text ? text : "(none)") ;
    char *text0 = block_text (GrB_PLUS_MONOID_FP64, GrB_FP64, GrB_FP64) ;
    CHECK (text0 != NULL && text != NULL && strcmp (text, text0) == 0,
        "GrB_Monoid_new (PLUS_FP64): the kernel of GrB_PLUS_MONOID_FP64") ;
    free (text) ;
    free (text0) ;
    // MIN_FP64: ID +inf (the empty reduction), SR::identity NaN
    text = block_text (GrB_MIN_MONOID_FP64, GrB_FP64, GrB_FP64) ;
    CHECK (text != NULL && strstr (text, "value (void) { return gcu_f64_bits "
        "(0x7ff0000000000000ull)") != NULL, "MIN_FP64: ID is +inf") ;
    free (text) ;
    GrB_Monoid_free (&m1) ; GrB_Monoid_free (&m2) ;
}

static void my_plus (double *z, const double *x, const double *y)
{
    *z = *x + *y ;
}

// what the device path must leave to the host
static void test_declines (void)
{
    gcu_reduce_spec spec ;
    GrB_Type udt = NULL ;
    GrB_BinaryOp uop = NULL ;
    GrB_Monoid um = NULL ;
    OK (GrB_Type_new (&udt, 16)) ;
    CHECK (gcu_reduce_spec_make (GrB_PLUS_MONOID_FP64, udt, GrB_FP64, &spec) == GCU_NOT_HANDLED,
        "values of a user type: declined") ;
    CHECK (gcu_reduce_spec_make (GrB_PLUS_MONOID_FP64, GrB_FP64, udt, &spec) == GCU_NOT_HANDLED,
        "output of a user type: declined") ;
    CHECK (gcu_reduce_spec_make (NULL, GrB_FP64, GrB_FP64, &spec) == GCU_NOT_HANDLED,
        "NULL monoid: declined") ;
    CHECK (gcu_reduce_spec_make (GrB_PLUS_MONOID_FP64, NULL, GrB_FP64, &spec) == GCU_NOT_HANDLED,
        "NULL type: declined") ;
    CHECK (gcu_reduce_spec_make (GrB_PLUS_MONOID_FP64, GrB_FP64, GrB_FP64, NULL) == GrB_NULL_POINTER,
        "NULL spec") ;
    // a monoid of a user operator without a definition the JIT knows
    OK (GrB_BinaryOp_new (&uop, (GxB_binary_function) my_plus, GrB_FP64, GrB_FP64, GrB_FP64)) ;
    OK (GrB_Monoid_new_FP64 (&um, uop, 0.0)) ;
    CHECK (gcu_reduce_spec_make (um, GrB_FP64, GrB_FP64, &spec) == GCU_NOT_HANDLED,
        "user operator without a definition: declined") ;
    GrB_Monoid_free (&um) ;
    GrB_BinaryOp_free (&uop) ;
    GrB_Type_free (&udt) ;
}

static int env_int (const char *name, int dflt)
{
    const char *s = getenv (name) ;
    return (s != NULL && atoi (s) > 0) ? atoi (s) : dflt ;
}

// every program compiles, and holds both kernels of each of its blocks
static void compile_all (void)
{
    const int pack = env_int ("GRBCUDA_TEST_PACK", 16) ;
    const int nprog = (nblocks + pack - 1) / pack ;
    char **programs = calloc (nprog, sizeof (char *)) ;
    const char **labels = calloc (nprog, sizeof (char *)) ;
    const gcu_jit_binary **bins = calloc (nprog, sizeof (gcu_jit_binary *)) ;
    GrB_Info *status = calloc (nprog, sizeof (GrB_Info)) ;
    for (int p = 0 ; p < nprog ; p++)
    {
        const int first = p * pack, n = (nblocks - first < pack) ? nblocks - first : pack ;
        const char **bl = malloc (n * sizeof (char *)) ;
        for (int k = 0 ; k < n ; k++) bl [k] = blocks [first + k].block ;
        programs [p] = gcu_jit_program (gcu_reduce_preamble (), bl, n) ;
        free (bl) ;
        labels [p] = blocks [first].what ;
    }
    const double t0 = gcu_now () ;
    GrB_Info info = gcu_jit_compile_batch (nprog, (const char *const *) programs, labels,
        bins, status, env_int ("GRBCUDA_TEST_THREADS", 0)) ;
    printf ("%d kernels in %d programs: %.2f s\n", nblocks, nprog, gcu_now () - t0) ;
    CHECK (info == GrB_SUCCESS, "batch compile: %d", (int) info) ;
    for (int p = 0 ; p < nprog ; p++)
    {
        const int first = p * pack, n = (nblocks - first < pack) ? nblocks - first : pack ;
        size_t size = 0 ;
        const char *data = (status [p] == GrB_SUCCESS && bins [p] != NULL)
            ? gcu_jit_binary_data (bins [p], &size, NULL) : NULL ;
        for (int k = 0 ; k < n ; k++)
        {
            const spec_block *b = &blocks [first + k] ;
            if (data == NULL)
            {
                // find the culprit (GRBCUDA_VERBOSE=1 prints NVRTC's log)
                const char *one [1] = { b->block } ;
                char *prog = gcu_jit_program (gcu_reduce_preamble (), one, 1) ;
                const gcu_jit_binary *bin = NULL ;
                CHECK (gcu_jit_compile (prog, b->what, &bin) == GrB_SUCCESS,
                    "%s does not compile", b->what) ;
                free (prog) ;
                continue ;
            }
            char fin [GCU_JIT_ENTRY_MAX] ;
            gcu_reduce_entries (b->entry, fin) ;
            CHECK (memmem (data, size, b->entry, strlen (b->entry)) != NULL
                && memmem (data, size, fin, strlen (fin)) != NULL,
                "kernels of %s missing from the binary", b->what) ;
        }
    }
    for (int p = 0 ; p < nprog ; p++) free (programs [p]) ;
    free (programs) ; free (labels) ; free (bins) ; free (status) ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    test_declines () ;
    if (!gcu_jit_available ())
    {
        #if defined (GRBCUDA_HAVE_CUDA) && !GRBCUDA_HAVE_CUDA
        printf ("test_jit_reduce: NVRTC is not available: skipped\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
        #else
        fprintf (stderr, "test_jit_reduce: NVRTC is not available\n") ;
        return 1 ;
        #endif
    }
    char dir [] = "/tmp/grbcuda-test-jit-reduce-XXXXXX" ;
    CHECK (mkdtemp (dir) != NULL, "mkdtemp") ;
    gcu_jit_set_cache_dir (dir) ;
    printf ("target sm_%d, cache %s\n", gcu_jit_arch (), dir) ;
    test_specs () ;
    compile_all () ;
    for (int k = 0 ; k < nblocks ; k++) free (blocks [k].block) ;
    free (blocks) ;
    gcu_jit_cache_clear_memory () ;
    char cmd [128] ;
    snprintf (cmd, sizeof (cmd), "rm -rf '%s'", dir) ;
    if (system (cmd) != 0) fprintf (stderr, "could not remove %s\n", dir) ;
    GrB_finalize () ;
    return gcu_test_report ("test_jit_reduce") ;
}
