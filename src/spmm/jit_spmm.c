// jit_spmm.c — JIT specialisation of the SpMM / SDDMM kernels with dense
// operands (cuda/spmm/gcu_spmm.cuh, cuda/spmm/gcu_sddmm.cuh) for one
// semiring, operand types, sparse index width and VEC (and SDDMM's batch,
// loads in flight and blocks an SM): a block with extern "C" kernels named
// by the hash of their specialisation, so blocks pack into one program
// without colliding.
#include "gcu_spmm.h"
#include "gcu_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *gcu_spmm_preamble (void)
{
    return "#include \"spmm/gcu_spmm_jit.cuh\"\n" ;
}

// The semiring's block for the SpMM and SDDMM kernels, which start each
// entry (a row of C's columns, a mask entry's dot product, a lane's partial
// sum) from its first product and never from SR::identity: a monoid without
// a neutral start value (complex TIMES) runs there too
static GrB_Info dense_namespace (gcu_str *b, const gcu_spmm_spec *spec, const char *prefix,
    const char *key, char entry [GCU_JIT_ENTRY_MAX])
{
    gcu_jit_operands ops = spec->ops ;
    ops.first_product = true ;
    return gcu_codegen_namespace (b, &spec->sr, &ops, prefix, key, entry) ;
}

void gcu_spmm_fold_entry (const char *entry, char fold [GCU_JIT_ENTRY_MAX])
{
    // entry is "gcu_smm_" + hash
    snprintf (fold, GCU_JIT_ENTRY_MAX, "gcu_smf_%s", entry + strlen ("gcu_smm_")) ;
}

void gcu_spmm_tile_entry (const char *entry, char tile [GCU_JIT_ENTRY_MAX])
{
    snprintf (tile, GCU_JIT_ENTRY_MAX, "gcu_smt_%s", entry + strlen ("gcu_smm_")) ;
}

void gcu_spmm_rows_entry (const char *entry, char rows [GCU_JIT_ENTRY_MAX])
{
    snprintf (rows, GCU_JIT_ENTRY_MAX, "gcu_smr_%s", entry + strlen ("gcu_smm_")) ;
}

GrB_Info gcu_spmm_block (const gcu_spmm_spec *spec, gcu_str *b, char entry [GCU_JIT_ENTRY_MAX])
{
    return gcu_spmm_block_ch (spec, 1, b, entry) ;
}

// SDDMM's block: the batched kernel (cuda/spmm/gcu_sddmm.cuh) for batches of
// `batch` entries, `unroll` loads in flight and `minb` blocks an SM, sums in
// the GPU's own arithmetic where nat and the semiring allows it
// (gcu_sddmm_nat_ok); rows: the kernel by rows too (entry's name and "r"),
// so that a block compiled for every semiring (tests/cpu/test_jit_builtin.c)
// compiles both
static GrB_Info sddmm_block (const gcu_spmm_spec *spec, int batch, int unroll, int minb,
    bool nat, bool rows, gcu_str *b, char entry [GCU_JIT_ENTRY_MAX])
{
    const char *it = spec->ops.m_idx64 ? "uint64_t" : "uint32_t" ;
    const int n = nat && gcu_sddmm_nat_ok (spec) ? 1 : 0 ;
    char key [64] ;
    snprintf (key, sizeof (key), "|sddmm-batch|%s|%d|%d|%d|%d|%d%s", it, spec->vec, batch, unroll,
        minb, n, rows ? "|r" : "") ;
    GrB_Info info = dense_namespace (b, spec, "gcu_sdb_", key, entry) ;
    if (info != GrB_SUCCESS) return info ;
    gcu_str_addf (b, "GCU_SDDMM_SCATTER_KERNEL (%s, %s_ns::SR, %s, %d, %d, %d, %d, %d)\n", entry,
        entry, it, spec->vec, batch, unroll, minb, n) ;
    if (rows)
        gcu_str_addf (b, "GCU_SDDMM_ROWS_KERNEL (%sr, %s_ns::SR, %s, %d, %d, false, %d, %d)\n",
            entry, entry, it, spec->vec, batch, minb, n) ;
    return b->failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

// the row kernel's bounds by default: fewer blocks an SM where it sums natively
static int spmm_minb (const gcu_spmm_spec *spec)
{
    return GCU_SPMM_NAT && gcu_spmm_nat_ok (spec) ? GCU_SPMM_MINB_NAT : GCU_SPMM_MINB ;
}

GrB_Info gcu_spmm_block_ch (const gcu_spmm_spec *spec, int chunks, gcu_str *b,
    char entry [GCU_JIT_ENTRY_MAX])
{
    const gcu_spmm_kvar v = { chunks, GCU_SPMM_ROWS_UNROLL, spmm_minb (spec), GCU_SPMM_HINT != 0,
        GCU_SPMM_PIPE, GCU_SPMM_NAT != 0, false } ;
    return gcu_spmm_block_var (spec, &v, b, entry) ;
}

bool gcu_spmm_nat_ok (const gcu_spmm_spec *spec)
{
    return !spec->sddmm && gcu_semiring_plus_times_float (&spec->sr) ;
}

bool gcu_sddmm_nat_ok (const gcu_spmm_spec *spec)
{
    return spec->sddmm && gcu_semiring_plus_times_float (&spec->sr) ;
}

GrB_Info gcu_spmm_block_var (const gcu_spmm_spec *spec, const gcu_spmm_kvar *kv, gcu_str *b,
    char entry [GCU_JIT_ENTRY_MAX])
{
    // SDDMM: the batched kernel with the policy's settings for its type
    if (spec->sddmm)
        return sddmm_block (spec, gcu_sddmm_batch (spec->sr.mult.z.size), GCU_SDDMM_UNROLL,
            GCU_SDDMM_MIN_BLOCKS, GCU_SDDMM_NAT != 0, true, b, entry) ;
    const char *it = spec->ops.a_idx64 ? "uint64_t" : "uint32_t" ;
    char key [64] ;
    const int ch = kv->ch < 1 ? 1 : kv->ch ;
    const int u = kv->unroll == 8 ? 8 : kv->unroll == 2 ? 2 : 4 ;
    const int minb = kv->minb >= 1 && kv->minb <= 8 ? kv->minb : 1 ;
    const bool hint = kv->hint ;
    const int pipe = kv->pipe ? 1 : 0 ;
    const int nat = kv->nat && gcu_spmm_nat_ok (spec) ? 1 : 0 ;
    const int hub = kv->hub ? 1 : 0 ;
    snprintf (key, sizeof (key), "|spmm|%s|%d|%d|%d|%d|%d|%d|%d|%d", it, spec->vec, ch, u,
        hint ? 1 : 0, minb, pipe, nat, hub) ;
    GrB_Info info = dense_namespace (b, spec, "gcu_smm_", key, entry) ;
    if (info != GrB_SUCCESS) return info ;
    char fold [GCU_JIT_ENTRY_MAX], tile [GCU_JIT_ENTRY_MAX], rows [GCU_JIT_ENTRY_MAX] ;
    gcu_spmm_fold_entry (entry, fold) ;
    gcu_spmm_tile_entry (entry, tile) ;
    gcu_spmm_rows_entry (entry, rows) ;
    gcu_str_addf (b, "GCU_SPMM_KERNELS (%s, %s, %s, %s, %s_ns::SR, %s, %d, %d, %d, %s, %d, %d, %d, %d)\n",
        entry, fold, tile, rows, entry, it, spec->vec, ch, u, hint ? "true" : "false", minb,
        pipe, nat, hub) ;
    return b->failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

GrB_Info gcu_spmm_kernels_all (const gcu_spmm_spec *spec, const gcu_spmm_kvar *kv,
    void **first, void **fold, void **tile, void **rows)
{
    gcu_str b ;
    gcu_str_init (&b) ;
    char entry [GCU_JIT_ENTRY_MAX], ef [GCU_JIT_ENTRY_MAX] = "", et [GCU_JIT_ENTRY_MAX] = "" ;
    char er [GCU_JIT_ENTRY_MAX] = "" ;
    char name [GxB_MAX_NAME_LEN * 3], label [GxB_MAX_NAME_LEN * 3 + 32] = "spmm" ;
    GrB_Info built = gcu_spmm_block_var (spec, kv, &b, entry) ;
    if (built == GrB_SUCCESS)
    {
        gcu_codegen_label (name, sizeof (name), &spec->sr) ;
        snprintf (label, sizeof (label), "%s %s", spec->sddmm ? "sddmm" : "spmm", name) ;
        gcu_spmm_fold_entry (entry, ef) ;
        gcu_spmm_tile_entry (entry, et) ;
        gcu_spmm_rows_entry (entry, er) ;
    }
    if (spec->sddmm)
        return gcu_jit_block_kernels (built, gcu_spmm_preamble (), &b, label, 1,
            (const char *const []) { entry }, (void **const []) { first }) ;
    return gcu_jit_block_kernels (built, gcu_spmm_preamble (), &b, label, 4,
        (const char *const []) { entry, ef, et, er }, (void **const []) { first, fold, tile, rows }) ;
}

GrB_Info gcu_spmm_kernels (const gcu_spmm_spec *spec, void **first, void **fold)
{
    void *tile = NULL, *rows = NULL ;
    const gcu_spmm_kvar v = { 1, GCU_SPMM_ROWS_UNROLL, spmm_minb (spec), GCU_SPMM_HINT != 0,
        GCU_SPMM_PIPE, GCU_SPMM_NAT != 0, false } ;
    return gcu_spmm_kernels_all (spec, &v, first, spec->sddmm ? NULL : fold,
        spec->sddmm ? NULL : &tile, spec->sddmm ? NULL : &rows) ;
}

// SDDMM's JIT block built (built: its status) into one kernel *fn
static GrB_Info sddmm_kernel_of (const gcu_spmm_spec *spec, GrB_Info built, gcu_str *b,
    const char *entry, void **fn)
{
    char name [GxB_MAX_NAME_LEN * 3], label [GxB_MAX_NAME_LEN * 3 + 32] = "sddmm" ;
    if (built == GrB_SUCCESS)
    {
        gcu_codegen_label (name, sizeof (name), &spec->sr) ;
        snprintf (label, sizeof (label), "sddmm %s", name) ;
    }
    return gcu_jit_block_kernels (built, gcu_spmm_preamble (), b, label, 1,
        (const char *const []) { entry }, (void **const []) { fn }) ;
}

GrB_Info gcu_sddmm_kernel (const gcu_spmm_spec *spec, int batch, int unroll, int minb, bool nat,
    void **fn)
{
    gcu_str b ;
    gcu_str_init (&b) ;
    char entry [GCU_JIT_ENTRY_MAX] = "" ;
    GrB_Info built = sddmm_block (spec, batch, unroll, minb, nat, false, &b, entry) ;
    return sddmm_kernel_of (spec, built, &b, entry, fn) ;
}

GrB_Info gcu_sddmm_rows_kernel (const gcu_spmm_spec *spec, int batch, bool hint, int minb,
    bool nat, void **fn)
{
    gcu_str b ;
    gcu_str_init (&b) ;
    char entry [GCU_JIT_ENTRY_MAX] = "" ;
    const char *it = spec->ops.m_idx64 ? "uint64_t" : "uint32_t" ;
    const int n = nat && gcu_sddmm_nat_ok (spec) ? 1 : 0 ;
    char key [64] ;
    snprintf (key, sizeof (key), "|sddmm-rows|%s|%d|%d|%d|%d|%d", it, spec->vec, batch,
        hint ? 1 : 0, minb, n) ;
    GrB_Info built = dense_namespace (&b, spec, "gcu_sdr_", key, entry) ;
    if (built == GrB_SUCCESS)
    {
        gcu_str_addf (&b, "GCU_SDDMM_ROWS_KERNEL (%s, %s_ns::SR, %s, %d, %d, %s, %d, %d)\n", entry,
            entry, it, spec->vec, batch, hint ? "true" : "false", minb, n) ;
        if (b.failed) built = GrB_OUT_OF_MEMORY ;
    }
    return sddmm_kernel_of (spec, built, &b, entry, fn) ;
}
