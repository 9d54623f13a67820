// GRBCUDA_TEST_INTERNAL (calls internal gcu_* functions: links grbcuda_static)
// test_jit_builtin.c — every built-in monoid and every built-in binary
// operator of the semiring table, over every type it is defined for, compiles
// through the real JIT path (code generation, NVRTC, the caches) into the
// masked dot-product kernel and into the numeric SpGEMM kernels (shared- and
// global-memory tables: every accumulation path, by value size) and the
// GrB_mxv / GrB_vxm kernels (pull, push; both forms; the SpMV variants for
// every output type and a sample of the rest); with --dense (its own
// ctest, test_jit_builtin_dense, so that each stays within the time limit)
// the kernels with dense operands instead (SpMM, SDDMM: one or the other,
// alternately, with the widest vector loads the types allow). No GPU
// needed: this is CI's proof that every semiring has its kernels.
//
//   monoids:   each monoid M over T, as the monoid of M.TIMES_T
//   operators: each operator op over T, as the multiply of a semiring whose
//              monoid is PLUS over op's z type (LOR for bool)
//   casts:     FIRST_X with A of every type TA and C of type TA: every
//              typecast between the 13 types, both directions
//   variants:  64-bit indices, valued and iso masks, iso A and B
//
// Specialisations are packed several per NVRTC program (each still its own
// extern "C" kernel) and the programs compiled in parallel on all cores. The
// cache directory is a fresh temporary one, so everything really compiles;
// the same set is then reloaded from the disk cache.
//
// Knobs: GRBCUDA_TEST_PACK (specialisations per program, default 16),
// GRBCUDA_TEST_THREADS (default: all cores). Timings are printed, not
// asserted (bench/ records them).
#include "gcu_test.h"
#include "../../src/jit/gcu_jit.h"
#include "../../src/mxm/gcu_dot_masked.h"
#include "../../src/util/gcu_util.h"
#include "../../src/spgemm/gcu_spgemm.h"
#include "../../src/mxv/gcu_mxv.h"
#include "../../src/spmm/gcu_spmm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct
{
    char *block ;
    char entry [GCU_JIT_ENTRY_MAX] ;
    char what [160] ;
}
spec_block ;

static spec_block *blocks = NULL ;
static int nblocks = 0, capblocks = 0 ;

static GrB_Monoid monoid_of (gcu_type_code z)
{
    if (z == GCU_T_BOOL) return GrB_LOR_MONOID_BOOL ;
    // the PLUS monoid of type z, found in the table by name
    for (size_t k = 0 ; k < gcu_nmonoids ; k++)
    {
        if (gcu_monoids [k].op == GCU_OP_PLUS && gcu_monoids [k].type == z)
        {
            return *gcu_monoids [k].handle ;
        }
    }
    return NULL ;
}

static GrB_BinaryOp times_of (gcu_type_code t)
{
    for (size_t k = 0 ; k < gcu_nbinops ; k++)
    {
        if (gcu_binops [k].op == GCU_OP_TIMES && gcu_binops [k].type == t)
        {
            return *gcu_binops [k].handle ;
        }
    }
    return NULL ;
}

static GrB_BinaryOp first_of (gcu_type_code t)
{
    for (size_t k = 0 ; k < gcu_nbinops ; k++)
    {
        if (gcu_binops [k].op == GCU_OP_FIRST && gcu_binops [k].type == t)
        {
            return *gcu_binops [k].handle ;
        }
    }
    return NULL ;
}

// add the block for semiring (add, mult) with operand types a, b, c; blocks
// that come out identical (alias names) are kept once
// Appends to str the block that `block` generates for spec's semiring and
// operands, with the output of the semiring's z type.
typedef GrB_Info (*spgemm_block_fn) (const gcu_semiring_desc *, const gcu_jit_operands *,
    gcu_str *, char [GCU_JIT_ENTRY_MAX], char [GCU_JIT_ENTRY_MAX]) ;
static void add_spgemm_block (spgemm_block_fn block, const char *kind,
    const gcu_dot_masked_spec *spec, gcu_str *str, const char *what)
{
    gcu_jit_operands sops = spec->ops ;
    sops.c = spec->sr.mult.z ;
    char es [GCU_JIT_ENTRY_MAX], eg [GCU_JIT_ENTRY_MAX] ;
    gcu_str sg ;
    gcu_str_init (&sg) ;
    GrB_Info si = block (&spec->sr, &sops, &sg, es, eg) ;
    CHECK (si == GrB_SUCCESS, "%s codegen %s: %d", kind, what, (int) si) ;
    char *stext = gcu_str_take (&sg) ;
    if (si == GrB_SUCCESS && stext != NULL) gcu_str_add (str, stext) ;
    free (stext) ;
}

static bool dense_mode ;     // --dense: only the kernels with dense operands

// The SpMM (unmasked cases) or SDDMM (any mask) block, alternately, with the
// widest vector loads the types allow, into str; entry its first kernel.
// (SDDMM's block ignores the SpMM settings kv.)
static GrB_Info add_dense_block (const gcu_dot_masked_spec *spec, bool masked, gcu_str *str,
    char entry [GCU_JIT_ENTRY_MAX], const char *what)
{
    static int dense_form = 0 ;
    gcu_spmm_spec dspec = { spec->sr, spec->ops, 1, masked || dense_form == 1 } ;
    dense_form ^= 1 ;
    dspec.ops.c = spec->sr.mult.z ;
    const size_t a = spec->ops.a.size, b = spec->ops.b.size, z = dspec.ops.c.size ;
    const size_t w = dspec.sddmm ? (a > b ? a : b) : (b > z ? b : z) ;
    dspec.vec = gcu_spmm_vec (32, w, 1) ;
    gcu_str sd ;
    gcu_str_init (&sd) ;
    // SpMM's row kernel with and without the cache classes of A's columns
    // (HUB: the hinted loads of X), on alternate SpMM blocks
    static int hub = 0 ;
    const gcu_spmm_kvar kv = { 1, GCU_SPMM_ROWS_UNROLL, GCU_SPMM_MINB, GCU_SPMM_HINT != 0,
        GCU_SPMM_PIPE != 0, GCU_SPMM_NAT != 0, !dspec.sddmm && (hub++ & 1) != 0 } ;
    GrB_Info di = gcu_spmm_block_var (&dspec, &kv, &sd, entry) ;
    CHECK (di == GrB_SUCCESS, "spmm codegen %s: %d", what, (int) di) ;
    char *dtext = gcu_str_take (&sd) ;
    if (di == GrB_SUCCESS && dtext != NULL) gcu_str_add (str, dtext) ;
    free (dtext) ;
    return di ;
}

static void add_spec (GrB_Monoid add, GrB_BinaryOp mult, GrB_Type a,
    GrB_Type b, GrB_Type c, int mask_type, bool a_iso, bool b_iso,
    bool m_iso, bool idx64, const char *what)
{
    GrB_Semiring s = NULL ;
    GrB_Info info = GrB_Semiring_new (&s, add, mult) ;
    CHECK (info == GrB_SUCCESS, "GrB_Semiring_new for %s: %d", what, (int) info) ;
    if (info != GrB_SUCCESS) return ;
    gcu_dot_masked_spec spec ;
    memset (&spec, 0, sizeof (spec)) ;
    info = gcu_semiring_identify (s, &spec.sr) ;
    CHECK (info == GrB_SUCCESS, "identify %s: %d", what, (int) info) ;
    OK (gcu_type_identify (a, &spec.ops.a)) ;
    OK (gcu_type_identify (b, &spec.ops.b)) ;
    OK (gcu_type_identify (c, &spec.ops.c)) ;
    spec.ops.mask_type = mask_type ;
    spec.ops.a_iso = a_iso ;
    spec.ops.b_iso = b_iso ;
    spec.ops.m_iso = m_iso ;
    spec.ops.a_idx64 = spec.ops.b_idx64 = spec.ops.m_idx64 = idx64 ;
    gcu_str str ;
    gcu_str_init (&str) ;
    char entry [GCU_JIT_ENTRY_MAX] ;
    // complex TIMES monoids have no accumulator start value that is neutral
    // for every value (jit_codegen.c): the JIT declines them for the kernels
    // that start from one, the host runs; SpMM's and SDDMM's start from each
    // entry's first product (their block has no SR::identity: a kernel that
    // called it would not compile here)
    const gcu_type_code zc = spec.sr.mult.z.code ;
    const bool declined = spec.sr.add.op.op == GCU_OP_TIMES
        && (zc == GCU_T_FC32 || zc == GCU_T_FC64) ;
    if (info == GrB_SUCCESS && dense_mode)
    {
        info = add_dense_block (&spec, mask_type >= 0 || m_iso, &str, entry, what) ;
        // both forms where the start value is missing (unmasked: the next
        // block is the other form)
        if (info == GrB_SUCCESS && declined && mask_type < 0 && !m_iso)
            info = add_dense_block (&spec, false, &str, entry, what) ;
    }
    else if (info == GrB_SUCCESS)
    {
        info = gcu_dot_masked_block (&spec, &str, entry) ;
        if (declined)
        {
            CHECK (info == GCU_NOT_HANDLED, "codegen %s: %d, not declined", what, (int) info) ;
            info = GCU_NOT_HANDLED ;
        }
        else CHECK (info == GrB_SUCCESS, "codegen %s: %d", what, (int) info) ;
    }
    // the numeric SpGEMM kernels of the same semiring and operand types
    // (their output is the semiring's z type; masks do not reach them), and
    // the masked saxpy kernels (valued or structural mask)
    if (info == GrB_SUCCESS && mask_type < 0 && !m_iso && !dense_mode)
        add_spgemm_block (gcu_spgemm_block, "spgemm", &spec, &str, what) ;
    if (info == GrB_SUCCESS && !dense_mode)
        add_spgemm_block (gcu_spgemm_masked_block, "masked spgemm", &spec, &str, what) ;
    // the GrB_mxv / GrB_vxm kernels (pull, push, init): the matrix is A
    // (mxv) or B (vxm), the vector the other operand; the mask never reaches
    // them. The two forms differ only in which operand is the multiplier's
    // x, so they alternate from one specialisation to the next (both forms
    // for every one would double the sweep's time). The SpMV variants'
    // block (vector, stream, long: generic code over the same SR) for the
    // first specialisation of each output type (every value size, each
    // type's shuffles and atomics) and one in four of the others: every one
    // would add half the sweep's time again, past CI's limit
    static int mxv_form = 0, spmv_turn = 0 ;
    static bool spmv_z [GCU_T_UDT + 1] ;
    if (info == GrB_SUCCESS && mask_type < 0 && !m_iso && !dense_mode)
    {
        gcu_mxv_spec mspec ;
        memset (&mspec, 0, sizeof (mspec)) ;
        mspec.sr = spec.sr ;
        mspec.ops = spec.ops ;
        mspec.ops.c = spec.sr.mult.z ;
        mspec.idx64 = idx64 ;
        mspec.vxm = mxv_form == 1 ;
        mxv_form ^= 1 ;
        const int zc = (int) spec.sr.mult.z.code ;
        const bool spmv = !spmv_z [zc] || spmv_turn++ % 4 == 0 ;
        spmv_z [zc] = true ;
        for (int set = GCU_MXV_SET_BASE ; set <= (spmv ? GCU_MXV_SET_SPMV : GCU_MXV_SET_BASE) ; set++)
        {
            char em [GCU_JIT_ENTRY_MAX] ;
            gcu_str sg ;
            gcu_str_init (&sg) ;
            // (the SpMV set with native sums, which PLUS_TIMES on FP32 and
            // FP64 compile, the policy's bounds)
            const gcu_spmv_kvar nat = { true, 0 } ;
            GrB_Info si = gcu_mxv_block (&mspec, (gcu_mxv_set) set, &nat, &sg, em) ;
            CHECK (si == GrB_SUCCESS, "mxv codegen (set %d) %s: %d", set, what, (int) si) ;
            char *stext = gcu_str_take (&sg) ;
            if (si == GrB_SUCCESS && stext != NULL) gcu_str_add (&str, stext) ;
            free (stext) ;
        }
    }
    char *text = gcu_str_take (&str) ;
    GrB_Semiring_free (&s) ;
    if (info != GrB_SUCCESS || text == NULL) { free (text) ; return ; }
    for (int k = 0 ; k < nblocks ; k++)
    {
        if (strcmp (blocks [k].entry, entry) == 0) { free (text) ; return ; }
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

static int env_int (const char *name, int dflt)
{
    const char *s = getenv (name) ;
    return (s != NULL && atoi (s) > 0) ? atoi (s) : dflt ;
}

int main (int argc, char **argv)
{
    dense_mode = argc > 1 && strcmp (argv [1], "--dense") == 0 ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!gcu_jit_available ())
    {
        #if defined (GRBCUDA_HAVE_CUDA) && !GRBCUDA_HAVE_CUDA
        // a build without CUDA need not have NVRTC either
        printf ("test_jit_builtin: NVRTC is not available: skipped\n") ;
        return GCU_TEST_SKIP ;
        #else
        // CI installs the CUDA toolkit: NVRTC missing there is a failure
        fprintf (stderr, "test_jit_builtin: NVRTC is not available\n") ;
        return 1 ;
        #endif
    }
    char dir [] = "/tmp/grbcuda-test-jit-XXXXXX" ;
    CHECK (mkdtemp (dir) != NULL, "mkdtemp") ;
    gcu_jit_set_cache_dir (dir) ;
    printf ("target sm_%d, cache %s\n", gcu_jit_arch (), dir) ;

    // both kernel families' headers: each block holds a dot kernel, the
    // masked saxpy kernels and, for the unmasked cases, the SpGEMM kernels of
    // the same semiring
    char preamble [512] ;
    if (dense_mode) snprintf (preamble, sizeof (preamble), "%s", gcu_spmm_preamble ()) ;
    else snprintf (preamble, sizeof (preamble), "%s%s%s", gcu_dot_masked_preamble (),
        gcu_spgemm_preamble (), gcu_mxv_preamble ()) ;
    int nmonoid_specs = 0, nop_specs = 0 ;
    double t0 = gcu_now () ;

    // every monoid row, as MONOID.TIMES_T
    for (size_t k = 0 ; k < gcu_nmonoids ; k++)
    {
        const gcu_monoid_entry *m = &gcu_monoids [k] ;
        GrB_Type t = *gcu_types [m->type].handle ;
        add_spec (*m->handle, times_of (m->type), t, t, t, -1, false, false,
            false, false, m->name) ;
        nmonoid_specs++ ;
    }
    // every operator row, as PLUS(z).OP
    for (size_t k = 0 ; k < gcu_nbinops ; k++)
    {
        const gcu_binop_entry *e = &gcu_binops [k] ;
        gcu_type_code z = gcu_op_ztype (e->op, e->type) ;
        gcu_type_code y = gcu_op_ytype (e->op, e->type) ;
        GrB_Monoid add = monoid_of (z) ;
        CHECK (add != NULL, "no monoid for %s", e->name) ;
        if (add == NULL) continue ;
        add_spec (add, *e->handle, *gcu_types [e->type].handle,
            *gcu_types [y].handle, *gcu_types [z].handle, -1, false, false,
            false, false, e->name) ;
        nop_specs++ ;
    }
    // every typecast: A of type ta into FIRST_x, the result out to type ta
    for (int ta = 0 ; ta < GCU_NTYPES ; ta++)
    {
        for (int x = 0 ; x < GCU_NTYPES ; x++)
        {
            char what [64] ;
            snprintf (what, sizeof (what), "cast %s->%s->%s",
                gcu_types [ta].name, gcu_types [x].name, gcu_types [ta].name) ;
            GrB_Type tta = *gcu_types [ta].handle, tx = *gcu_types [x].handle ;
            add_spec (monoid_of (x), first_of (x), tta, tx, tta, -1, false,
                false, false, false, what) ;
        }
    }
    // 64-bit indices, masks of every type (valued, and iso), iso operands
    for (int t = 0 ; t < GCU_NTYPES ; t++)
    {
        GrB_Type tt = *gcu_types [t].handle ;
        char what [64] ;
        snprintf (what, sizeof (what), "variants %s", gcu_types [t].name) ;
        add_spec (monoid_of (t), times_of (t), tt, tt, tt, t, false, false,
            false, true, what) ;
        add_spec (monoid_of (t), times_of (t), tt, tt, tt, t, true, true,
            true, false, what) ;
    }
    double t_gen = gcu_now () - t0 ;
    printf ("%d monoid rows, %d operator rows -> %d distinct kernels "
        "(codegen %.2f s)\n", nmonoid_specs, nop_specs, nblocks, t_gen) ;

    // pack and compile
    int pack = env_int ("GRBCUDA_TEST_PACK", 16) ;
    int nthreads = env_int ("GRBCUDA_TEST_THREADS", 0) ;
    int nprog = (nblocks + pack - 1) / pack ;
    char **programs = calloc (nprog, sizeof (char *)) ;
    char **labels = calloc (nprog, sizeof (char *)) ;
    const gcu_jit_binary **bins = calloc (nprog, sizeof (gcu_jit_binary *)) ;
    GrB_Info *status = calloc (nprog, sizeof (GrB_Info)) ;
    for (int p = 0 ; p < nprog ; p++)
    {
        int first = p * pack, n = (nblocks - first < pack) ? nblocks - first : pack ;
        const char **bl = malloc (n * sizeof (char *)) ;
        for (int k = 0 ; k < n ; k++) bl [k] = blocks [first + k].block ;
        programs [p] = gcu_jit_program (preamble, bl, n) ;
        free (bl) ;
        labels [p] = malloc (256) ;
        snprintf (labels [p], 256, "sweep %d (%s...)", p, blocks [first].what) ;
    }
    gcu_jit_stats_reset () ;
    double t1 = gcu_now () ;
    GrB_Info info = gcu_jit_compile_batch (nprog, (const char *const *) programs,
        (const char *const *) labels, bins, status, nthreads) ;
    double t_cold = gcu_now () - t1 ;
    CHECK (info == GrB_SUCCESS, "batch compile: %d", (int) info) ;
    for (int p = 0 ; p < nprog ; p++)
    {
        if (status [p] == GrB_SUCCESS && bins [p] != NULL) continue ;
        // name every specialisation of a failed program, and find the culprit
        int first = p * pack, n = (nblocks - first < pack) ? nblocks - first : pack ;
        for (int k = 0 ; k < n ; k++)
        {
            const char *one [1] = { blocks [first + k].block } ;
            char *prog = gcu_jit_program (preamble, one, 1) ;
            const gcu_jit_binary *b = NULL ;
            GrB_Info i1 = gcu_jit_compile (prog, blocks [first + k].what, &b) ;
            CHECK (i1 == GrB_SUCCESS, "%s does not compile (GRBCUDA_VERBOSE=1 "
                "shows the log)", blocks [first + k].what) ;
            free (prog) ;
        }
    }
    gcu_jit_stats st ;
    gcu_jit_stats_get (&st) ;
    CHECK (st.compiles == (uint64_t) nprog, "compiled %llu of %d programs",
        (unsigned long long) st.compiles, nprog) ;
    // every kernel is in its program's binary
    for (int p = 0 ; p < nprog && info == GrB_SUCCESS ; p++)
    {
        size_t size = 0 ;
        const char *data = gcu_jit_binary_data (bins [p], &size, NULL) ;
        int first = p * pack, n = (nblocks - first < pack) ? nblocks - first : pack ;
        for (int k = 0 ; k < n ; k++)
        {
            const char *e = blocks [first + k].entry ;
            bool found = false ;
            for (size_t q = 0 ; !found && q + strlen (e) <= size ; q++)
            {
                found = (memcmp (data + q, e, strlen (e)) == 0) ;
            }
            CHECK (found, "kernel %s (%s) missing from its binary", e,
                blocks [first + k].what) ;
        }
    }
    printf ("cold: %d programs of up to %d kernels, %.2f s wall on %d threads "
        "(%.3f s/kernel wall, %.3f s/program in NVRTC summed over threads)\n",
        nprog, pack, t_cold, nthreads ? nthreads : (int) sysconf (_SC_NPROCESSORS_ONLN),
        t_cold / nblocks, st.compile_seconds / (nprog ? nprog : 1)) ;

    // warm: drop the memory cache, load everything back from disk
    gcu_jit_cache_clear_memory () ;
    gcu_jit_stats_reset () ;
    double t2 = gcu_now () ;
    info = gcu_jit_compile_batch (nprog, (const char *const *) programs,
        (const char *const *) labels, bins, status, 1) ;
    double t_warm = gcu_now () - t2 ;
    gcu_jit_stats_get (&st) ;
    CHECK (info == GrB_SUCCESS, "warm batch: %d", (int) info) ;
    CHECK (st.disk_hits == (uint64_t) nprog && st.compiles == 0,
        "warm: %llu disk hits, %llu compiles", (unsigned long long) st.disk_hits,
        (unsigned long long) st.compiles) ;
    printf ("warm: %d programs from the disk cache in %.3f s (%.2f ms/program)\n",
        nprog, t_warm, 1e3 * t_warm / (nprog ? nprog : 1)) ;

    for (int p = 0 ; p < nprog ; p++) { free (programs [p]) ; free (labels [p]) ; }
    for (int k = 0 ; k < nblocks ; k++) free (blocks [k].block) ;
    free (programs) ; free (labels) ; free (bins) ; free (status) ; free (blocks) ;
    gcu_jit_cache_clear_memory () ;
    char cmd [128] ;
    snprintf (cmd, sizeof (cmd), "rm -rf '%s'", dir) ;
    if (system (cmd) != 0) fprintf (stderr, "could not remove %s\n", dir) ;
    GrB_finalize () ;
    return gcu_test_report ("test_jit_builtin") ;
}
