// GRBCUDA_TEST_INTERNAL (calls internal gcu_* functions: links grbcuda_static)
// test_cost_model.c — auto mode's cost model (issue 23, src/dispatch/cost.c):
//
//   the embedded tables parse, complete; a device's table overrides the
//   default one and an unknown device gets the default; a line the parser
//   does not understand, a bad value or a missing parameter is refused;
//   given a table, the choice flips from host to GPU where the predicted
//   times cross (margin included), and moves with the bytes an upload, a
//   download or a device-newest operand costs; through GrB_mxm in auto mode
//   (no GPU needed: the decision comes before CUDA), a table where the host
//   wins keeps the call on the host as "host predicted faster", one where
//   the GPU wins sends it on (here: no usable GPU, or CUDA starting), and
//   the verbose line prints both predictions. Results equal SuiteSparse's.
//   The host time learned from host calls moves the host prediction per
//   operation and decade. A masked assign without GrB_REPLACE is counted at
//   its mask's entries.
#include "gcu_test.h"
#include "gcu_test_cost.h"
#include "grbcuda.h"
#include "../../src/dispatch/gcu_cost.h"
#include "../../src/dispatch/gcu_dispatch.h"
#include "../../src/residency/gcu_operand.h"
#include "../../src/util/gcu_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RATES(hf, hr, gf, gr) "host_fixed=" #hf " host_rate=" #hr " gpu_fixed=" #gf " gpu_rate=" #gr "\n"

// CUDA's start in the tables below, seconds
static double table_start = 0.1 ;

// every family at the same rates; margin and the device sections appended
static char *table (const char *rates, const char *extra)
{
    char *t = malloc (4096), settings [128] ;
    snprintf (settings, sizeof (settings), "# a test table\nmargin 1.5\nh2d 1e10\nd2h 2e10\n"
        "cuda_start %g  # s\njit_compile 1\nwait_factor 4\n", table_start) ;
    const int n = gcu_test_cost_text (t, 4096, settings, rates) ;
    snprintf (t + n, 4096 - (size_t) n, "%s", extra) ;
    return t ;
}

static void parse_tables (void)
{
    gcu_cost_table t ;
    const gcu_cost_table *e = gcu_cost_current (NULL) ;
    CHECK (e != NULL && strcmp (e->device, "default") == 0 && e->margin >= 1 && e->h2d > 0
        && e->fam [GCU_COST_SPGEMM].gpu_rate > 0, "embedded table") ;
    const gcu_cost_table *h = gcu_cost_current ("NVIDIA H200") ;
    CHECK (h != NULL && strcmp (h->device, "H200") == 0, "the H200's table: %s", h ? h->device : "none") ;

    char *text = table (RATES (1e-4, 1e9, 1e-3, 1e11), "device H200\nmargin 2\nfamily mxv gpu_rate=5e11\n") ;
    OK (gcu_cost_parse (text, "NVIDIA H200", &t)) ;
    CHECK (t.margin == 2 && t.fam [GCU_COST_MXV].gpu_rate == 5e11 && t.fam [GCU_COST_MXV].host_rate == 1e9
        && t.fam [GCU_COST_SPGEMM].gpu_rate == 1e11 && strcmp (t.device, "H200") == 0, "H200 overrides") ;
    OK (gcu_cost_parse (text, "NVIDIA A100", &t)) ;
    CHECK (t.margin == 1.5 && t.fam [GCU_COST_MXV].gpu_rate == 1e11 && strcmp (t.device, "default") == 0,
        "unknown device: default") ;
    free (text) ;
    const char *bad [] = { "margin 2 3\n", "nosuch 1\n", "margin -1\n", "margin abc\n",
        "family nosuch host_rate=1\n", "family mxv host_rate\n", "family mxv speed=1\n", "device\n" } ;
    for (size_t k = 0 ; k < sizeof (bad) / sizeof (bad [0]) ; k++)
    {
        text = table (RATES (1e-4, 1e9, 1e-3, 1e11), bad [k]) ;
        CHECK (gcu_cost_parse (text, NULL, &t) == GrB_INVALID_VALUE, "accepted: %s", bad [k]) ;
        free (text) ;
    }
    CHECK (gcu_cost_parse ("device default\nmargin 1\n", NULL, &t) == GrB_INVALID_VALUE, "incomplete table") ;
}

// host 1e-4 + w/1e9, GPU 1e-3 + w/1e11, margin 1.5: the GPU from
// 1.5 (1e-3 + w/1e11) < 1e-4 + w/1e9, i.e. w > CROSS
#define CROSS (1.4e-3 / (1e-9 - 1.5e-11))
static void crossing_table (gcu_cost_table *t)
{
    char *text = table (RATES (1e-4, 1e9, 1e-3, 1e11), "") ;
    OK (gcu_cost_parse (text, NULL, t)) ;
    free (text) ;
}

static void decision_flips (void)
{
    gcu_cost_table t ;
    crossing_table (&t) ;
    const double cross = CROSS ;
    gcu_cost_choice ch ;
    gcu_cost_input in = { .family = GCU_COST_SPGEMM, .work = 0.9 * cross } ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (!ch.gpu && fabs (ch.host_s - (1e-4 + in.work / 1e9)) < 1e-12
        && fabs (ch.gpu_s - (1e-3 + in.work / 1e11)) < 1e-12, "below the crossing: host") ;
    in.work = 1.1 * cross ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (ch.gpu, "above the crossing: GPU (%g against %g)", ch.gpu_s, ch.host_s) ;
    // the upload of the operands, or the download of the result, tips it back
    in.up_bytes = 1e10 * 1e-3 ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (!ch.gpu, "with an upload: host") ;
    in.up_bytes = 0 ;
    in.down_bytes = 2e10 * 1e-3 ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (!ch.gpu, "with a download: host") ;
    // a device-newest operand costs the host its download: back to the GPU
    in.newest_bytes = 2e10 * 4e-3 ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (ch.gpu, "a device-newest operand: GPU") ;
}

// host_row: a vector result's length costs the host (SuiteSparse's mask and
// bitmap work), read from the table for the family that has it
static void host_rows (void)
{
    gcu_cost_table t ;
    char *text = table (RATES (1e-4, 1e9, 1e-3, 1e11), "family spmspv host_row=2e-9\n") ;
    OK (gcu_cost_parse (text, NULL, &t)) ;
    free (text) ;
    CHECK (t.fam [GCU_COST_SPMSPV].host_row == 2e-9 && t.fam [GCU_COST_MXV].host_row == 0,
        "host_row %g %g", t.fam [GCU_COST_SPMSPV].host_row, t.fam [GCU_COST_MXV].host_row) ;
    gcu_cost_choice ch ;
    gcu_cost_input in = { .family = GCU_COST_SPMSPV, .work = 1e3, .rows = 1e6 } ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (fabs (ch.host_s - (1e-4 + 1e3 / 1e9 + 2e-3)) < 1e-12 && ch.gpu,
        "a long sparse product: host %g, gpu %g", ch.host_s, ch.gpu_s) ;
    // a frontier so large that the whole matrix at mxv's rate is cheaper
    in.work = 1e9 ;
    in.full_work = 2e8 ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (fabs (ch.host_s - (1e-4 + 2e8 / 1e9 + 2e-3)) < 1e-9, "capped by the pull: %g", ch.host_s) ;
    in.work = 1e3 ;
    in.full_work = 0 ;
    in.family = GCU_COST_MXV ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (!ch.gpu, "no host_row: the host (%g against %g)", ch.host_s, ch.gpu_s) ;
}

// gpu_rows: a matrix result of fewer rows than the family's gpu_rows scales
// its GPU rate down in proportion; vector results and unbounded families not
static void gpu_rows (void)
{
    gcu_cost_table t ;
    char *text = table (RATES (1e-4, 1e9, 1e-3, 1e11), "family spgemm gpu_rows=1000\n") ;
    OK (gcu_cost_parse (text, NULL, &t)) ;
    free (text) ;
    CHECK (t.fam [GCU_COST_SPGEMM].gpu_rows == 1000 && t.fam [GCU_COST_MASKED_DOT].gpu_rows == 0,
        "gpu_rows %g %g", t.fam [GCU_COST_SPGEMM].gpu_rows, t.fam [GCU_COST_MASKED_DOT].gpu_rows) ;
    gcu_cost_choice ch ;
    gcu_cost_input in = { .family = GCU_COST_SPGEMM, .work = 1e8, .out_rows = 1e6 } ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (fabs (ch.gpu_s - (1e-3 + 1e8 / 1e11)) < 1e-12 && ch.gpu, "many rows: gpu %g", ch.gpu_s) ;
    in.out_rows = 4 ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (fabs (ch.gpu_s - (1e-3 + 1e8 / (1e11 * 4 / 1000))) < 1e-9 && !ch.gpu,
        "4 rows: gpu %g against host %g", ch.gpu_s, ch.host_s) ;
    in.family = GCU_COST_MASKED_DOT ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (fabs (ch.gpu_s - (1e-3 + 1e8 / 1e11)) < 1e-12, "no gpu_rows: gpu %g", ch.gpu_s) ;
    in.family = GCU_COST_SPGEMM ;
    in.out_rows = 0 ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (fabs (ch.gpu_s - (1e-3 + 1e8 / 1e11)) < 1e-12, "rows unknown: gpu %g", ch.gpu_s) ;
}

// ski rental: the gains add up per key and version until they pay the cost.
// lose: a call lost gain on the host (added once measured), then the rent is
// asked whether it pays cost
static bool lose (const void *key, uint64_t version, double gain, double cost)
{
    gcu_cost_amortize_add (key, version, gain) ;
    return gcu_cost_amortized (key, version, cost) ;
}

static void amortized (void)
{
    gcu_cost_amortize_reset () ;
    int a = 0, b = 0 ;
    int calls = 0 ;
    CHECK (!gcu_cost_amortized (&a, 5, 1.0) && !gcu_cost_amortized (&a, 5, 0), "nothing lost yet") ;
    while (!lose (&a, 5, 0.3, 1.0) && calls < 10) calls++ ;
    CHECK (calls == 3, "paid after 4 calls of 0.3 (%d before)", calls) ;
    CHECK (gcu_cost_amortized (&a, 5, 1.0), "due until the upload is made") ;
    CHECK (!gcu_cost_amortized (&a, 5, 1.3), "asking adds nothing") ;
    gcu_cost_amortize_paid (&a) ;
    CHECK (!lose (&a, 5, 0.3, 1.0), "starts again from nothing once paid") ;
    CHECK (!lose (&a, 5, 0.3, 1.0) && !lose (&a, 5, 0.3, 1.0), "three calls: 0.9") ;
    // bought once: the second purchase costs twice as much
    calls = 0 ;
    while (!lose (&a, 5, 0.3, 1.0) && calls < 20) calls++ ;
    CHECK (calls == 3, "second purchase after 2.1 (%d calls more)", calls) ;
    gcu_cost_amortize_paid (&a) ;
    // another version of a (it changed): from nothing, the strikes kept (4x)
    CHECK (!lose (&a, 6, 2.0, 1.0), "a new version starts from nothing") ;
    CHECK (lose (&a, 6, 2.0, 1.0), "two calls of 2 pay 4") ;
    CHECK (!gcu_cost_amortized (&a, 7, 0.5), "asked at another version: from nothing") ;
    CHECK (!gcu_cost_amortized (&a, 6, 0.5), "and the old version's gains are gone") ;
    gcu_cost_amortize_paid (&a) ;
    // at most 64 times the cost
    for (int k = 0 ; k < 10 ; k++)
    {
        (void) lose (&a, 6, 1e3, 1.0) ;
        gcu_cost_amortize_paid (&a) ;
    }
    CHECK (!lose (&a, 6, 63.0, 1.0) && lose (&a, 6, 1.5, 1.0), "capped at 64x") ;
    gcu_cost_amortize_paid (&a) ;
    // keys apart; no gain adds nothing
    CHECK (!lose (&b, 1, 0.9, 1.0) && !lose (&b, 1, 0, 1.0)
        && !lose (&b, 1, -5, 1.0) && lose (&b, 1, 0.1, 1.0), "b alone: 0.9 + 0.1") ;
    CHECK (!lose (NULL, 1, 10, 1.0), "no key") ;
    // more keys than slots: a new one takes the slot that has lost least;
    // a key only asked about takes none
    void *keys [100] ;
    for (int k = 0 ; k < 100 ; k++) keys [k] = (char *) &a + 1 + k ;
    for (int k = 0 ; k < 100 ; k++) (void) lose (keys [k], 0, 0.5 + 1e-3 * k, 1.0) ;
    for (int k = 0 ; k < 100 ; k++) (void) gcu_cost_amortized ((char *) &b + 1 + k, 0, 1.0) ;
    CHECK (lose (keys [99], 0, 0.5, 1.0), "the newest key kept its gain") ;
    // signatures of matrices whose rent paid: the last 8 kept, 0 never
    CHECK (!gcu_cost_sig_paid (77) && !gcu_cost_sig_paid (0), "no signature paid yet") ;
    gcu_cost_sig_record (77) ;
    gcu_cost_sig_record (0) ;
    CHECK (gcu_cost_sig_paid (77) && !gcu_cost_sig_paid (78) && !gcu_cost_sig_paid (0), "77 paid") ;
    for (uint64_t k = 1 ; k <= 7 ; k++) gcu_cost_sig_record (100 + k) ;
    gcu_cost_sig_record (77) ;     // already kept: not again
    CHECK (gcu_cost_sig_paid (77) && gcu_cost_sig_paid (107), "8 kept") ;
    gcu_cost_sig_record (108) ;
    CHECK (!gcu_cost_sig_paid (77) && gcu_cost_sig_paid (101) && gcu_cost_sig_paid (108),
        "the oldest one goes") ;
    gcu_cost_amortize_reset () ;
    CHECK (!gcu_cost_sig_paid (108), "reset forgets them") ;
}

// a repeat's measured host time replaces the prediction; a made matrix's
// purchase pays its source's rent
static void repeats_and_lineage (void)
{
    gcu_cost_amortize_reset () ;
    double sec = -1 ;
    CHECK (!gcu_cost_repeat_get (5, &sec) && !gcu_cost_repeat_get (0, &sec) && sec == -1, "none kept") ;
    gcu_cost_repeat_put (5, 0.015) ;
    gcu_cost_repeat_put (0, 0.5) ;      // no key: ignored
    gcu_cost_repeat_put (7, 0.00002) ;
    CHECK (gcu_cost_repeat_get (5, &sec) && sec == 0.015, "5: %g", sec) ;
    CHECK (gcu_cost_repeat_get (7, &sec) && sec == 0.00002 && !gcu_cost_repeat_get (0, &sec), "7: %g", sec) ;
    gcu_cost_repeat_put (5, 0.02) ;
    CHECK (gcu_cost_repeat_get (5, &sec) && sec == 0.02, "the latest time: %g", sec) ;
    for (uint64_t k = 100 ; k < 354 ; k++) gcu_cost_repeat_put (k, 1) ;
    CHECK (gcu_cost_repeat_get (5, &sec) && gcu_cost_repeat_get (353, &sec), "256 kept") ;
    gcu_cost_repeat_put (354, 1) ;
    CHECK (!gcu_cost_repeat_get (5, &sec) && gcu_cost_repeat_get (7, &sec), "the oldest goes") ;
    // the measured time in place of the table's
    gcu_cost_table t ;
    char *text = table (RATES (1e-4, 1e9, 1e-3, 1e11), "") ;
    OK (gcu_cost_parse (text, NULL, &t)) ;
    free (text) ;
    gcu_cost_choice ch ;
    gcu_cost_input in = { .family = GCU_COST_EWISE, .op = GCU_OP_MATRIX_SELECT, .work = 3e7 } ;
    gcu_cost_predict (&t, &in, &ch) ;
    const double table_host = ch.host_s ;
    in.host_measured = 2e-5 ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (ch.host_s == 2e-5 && !ch.gpu && table_host != 2e-5, "measured: host %g (table %g)", ch.host_s,
        table_host) ;
    // a device-newest operand's download is counted beside the repeat's
    // time (kept without it)
    in.newest_bytes = t.d2h * 1e-3 ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (fabs (ch.host_s - (2e-5 + 1e-3)) < 1e-12, "measured and a download: host %g", ch.host_s) ;
    in.newest_bytes = 0 ;
    // a product's measured kernels in place of the table's work term (and of
    // the learned correction): 1e8 multiply-adds predict 1 ms of kernels and
    // the GPU; a repeat that measured 0.5 s keeps it on the host
    gcu_cost_input mv = { .family = GCU_COST_MXV, .op = GCU_OP_MXV, .work = 1e8 } ;
    gcu_cost_predict (&t, &mv, &ch) ;
    CHECK (ch.gpu && fabs (ch.gpu_s - 2e-3) < 1e-9, "table: gpu %g", ch.gpu_s) ;
    mv.gpu_kernels = 0.5 ;
    gcu_cost_predict (&t, &mv, &ch) ;
    CHECK (!ch.gpu && fabs (ch.gpu_s - 0.501) < 1e-9 && fabs (ch.host_s - 0.1001) < 1e-9,
        "measured kernels: gpu %g host %g", ch.gpu_s, ch.host_s) ;
    // lineage: AL made from A on the host; AL's purchase goes to A's rent
    static int A, AL, other ;
    CHECK (!gcu_cost_amortized (&A, 31, 0.01), "A: nothing lost") ;
    gcu_cost_lineage_record (&AL, &A, 31) ;
    gcu_cost_lineage_credit (&other, 0.5) ;     // not a made matrix
    CHECK (!gcu_cost_amortized (&A, 31, 0.01), "another's purchase: nothing") ;
    gcu_cost_lineage_credit (&AL, 0.006) ;
    CHECK (!gcu_cost_amortized (&A, 31, 0.01), "0.006 of 0.01") ;
    gcu_cost_amortize_add (&A, 31, 0.005) ;
    CHECK (gcu_cost_amortized (&A, 31, 0.01), "with A's own loss: paid") ;
    CHECK (!gcu_cost_amortized (&A, 32, 0.001), "another version of A: nothing") ;
    gcu_cost_lineage_record (&AL, &AL, 1) ;     // a matrix made from itself: ignored
    gcu_cost_amortize_reset () ;
    gcu_cost_lineage_credit (&AL, 1) ;
    CHECK (!gcu_cost_amortized (&A, 31, 0.01), "reset forgets the lineage") ;
}

// A product's kernel key: the same for a re-made operand of the same shape
// and entry count (FastSV's parent matrix, made anew in each call), another
// for another entry count, mask, semiring, descriptor or operation; none for
// a sparse u's product or an element-wise call.
static void kernel_keys (void)
{
    static int A1, A2, u1, u2, M ;
    gcu_call c ;
    memset (&c, 0, sizeof (c)) ;
    c.op = GCU_OP_MXV ;
    c.A = &A1 ; c.B = &u1 ;
    c.a_rows = c.a_cols = c.b_rows = 1048576 ;
    c.b_cols = 1 ;
    c.a_nvals = c.b_nvals = 1048576 ;
    c.semiring = GrB_MIN_SECOND_SEMIRING_INT64 ;
    const uint64_t k = gcu_cost_kernel_key (&c, GCU_COST_MXV) ;
    gcu_call d = c ;
    d.A = &A2 ; d.B = &u2 ;
    CHECK (k != 0 && gcu_cost_kernel_key (&d, GCU_COST_MXV) == k, "re-made operands: the same key") ;
    d.a_nvals = 1961890 ;
    CHECK (gcu_cost_kernel_key (&d, GCU_COST_MXV) != k, "another entry count: another key") ;
    d = c ; d.M = &M ;
    CHECK (gcu_cost_kernel_key (&d, GCU_COST_MXV) != k, "a mask: another key") ;
    d = c ; d.semiring = GrB_MIN_PLUS_SEMIRING_INT64 ;
    CHECK (gcu_cost_kernel_key (&d, GCU_COST_MXV) != k, "another semiring: another key") ;
    d = c ; d.tran_a = true ;
    CHECK (gcu_cost_kernel_key (&d, GCU_COST_MXV) != k, "A transposed: another key") ;
    d = c ; d.op = GCU_OP_VXM ;
    CHECK (gcu_cost_kernel_key (&d, GCU_COST_MXV) != k, "vxm: another key") ;
    CHECK (gcu_cost_kernel_key (&c, GCU_COST_SPMSPV) == 0, "a sparse u's product: none") ;
    d = c ; d.op = GCU_OP_VECTOR_ASSIGN ;
    CHECK (gcu_cost_kernel_key (&d, GCU_COST_EWISE) == 0, "an assign: none") ;
}

// the host's time learned from host calls: per operation and decade of the
// table's prediction, a running mean of log ratios, each within 1/64..64
static void host_learned (void)
{
    gcu_cost_forget () ;
    CHECK (gcu_cost_factor (GCU_SIDE_HOST, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, 1e-3) == 1, "nothing learned: 1") ;
    for (int k = 0 ; k < 40 ; k++) gcu_cost_learn (GCU_SIDE_HOST, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, 1e-3, 1e-2) ;
    double f = gcu_cost_factor (GCU_SIDE_HOST, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, 2e-3) ;
    CHECK (fabs (f - 10) < 0.01, "10 times slower, learned: %g", f) ;
    CHECK (gcu_cost_factor (GCU_SIDE_HOST, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, 2e-2) == 1
        && gcu_cost_factor (GCU_SIDE_HOST, GCU_OP_VXM, GCU_COST_MXV, GCU_MASK_NONE, 1e-3) == 1
        && gcu_cost_factor (GCU_SIDE_HOST, GCU_OP_MXV, GCU_COST_SPMSPV, GCU_MASK_NONE, 1e-3) == 1
        && gcu_cost_factor (GCU_SIDE_HOST, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_PLAIN, 1e-3) == 1
        && gcu_cost_factor (GCU_SIDE_HOST, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_COMP, 1e-3) == 1,
        "another decade, operation, family or mask: nothing learned") ;
    gcu_cost_learn (GCU_SIDE_HOST, GCU_OP_VXM, GCU_COST_MXV, GCU_MASK_NONE, 1e-3, 1e-3 / 1e6) ;
    f = gcu_cost_factor (GCU_SIDE_HOST, GCU_OP_VXM, GCU_COST_MXV, GCU_MASK_NONE, 1e-3) ;
    CHECK (fabs (log (f) - 0.25 * log (1.0 / 64)) < 1e-9, "one call, a quarter of the way, within 1/64: %g", f) ;
    gcu_cost_learn (GCU_SIDE_HOST, GCU_OP_VXM, GCU_COST_MXV, GCU_MASK_NONE, 0, 1) ;
    gcu_cost_learn (GCU_SIDE_HOST, GCU_OP_VXM, GCU_COST_MXV, GCU_MASK_NONE, 1e-3, -1) ;
    CHECK (gcu_cost_factor (GCU_SIDE_HOST, GCU_OP_VXM, GCU_COST_MXV, GCU_MASK_NONE, 1e-3) == f, "no prediction or no time: nothing learned") ;
    gcu_cost_forget () ;
    CHECK (gcu_cost_factor (GCU_SIDE_HOST, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, 1e-3) == 1, "forgotten") ;
}

// the GPU's time learned from GPU calls, on its own side: a kind of call
// nothing learned; an mxv past the crossing table's crossing, predicted
static void mxv_past_crossing (gcu_cost_table *t, gcu_cost_input *in, gcu_cost_choice *ch)
{
    gcu_cost_forget () ;
    crossing_table (t) ;
    *in = (gcu_cost_input) { .family = GCU_COST_MXV, .op = GCU_OP_MXV, .work = 3 * CROSS } ;
    gcu_cost_predict (t, in, ch) ;
}

// the GPU takes 10 times longer than its table says goes back to the host
static void gpu_learned (void)
{
    gcu_cost_table t ;
    gcu_cost_choice ch ;
    gcu_cost_input in ;
    mxv_past_crossing (&t, &in, &ch) ;
    CHECK (ch.gpu && ch.gpu_s == ch.gpu_table && ch.host_s == ch.host_table, "nothing learned: the table's GPU wins") ;
    const double g = ch.gpu_table, h = ch.host_table ;
    for (int k = 0 ; k < 40 ; k++) gcu_cost_learn (GCU_SIDE_GPU, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, g, 10 * g) ;
    CHECK (fabs (gcu_cost_factor (GCU_SIDE_GPU, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, g) - 10) < 0.01
        && gcu_cost_factor (GCU_SIDE_HOST, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, h) == 1, "the GPU's side alone learned") ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (!ch.gpu && fabs (ch.gpu_s / ch.gpu_table - 10) < 0.01 && ch.gpu_table == g && ch.host_s == h,
        "10 times slower on the GPU: host (%g against %g)", ch.gpu_s, ch.host_s) ;
    in.op = GCU_OP_VXM ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (ch.gpu, "another operation: the table's GPU") ;
    gcu_cost_forget () ;
    in.op = GCU_OP_MXV ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (ch.gpu, "forgotten: the GPU again") ;
}

// The statistics list what auto's calls taught the model beyond 2x either
// way (GRBCUDA_STATS): per operation, side, family, mask and decade.
static void learned_listed (void)
{
    gcu_cost_forget () ;
    char text [4096] ;
    CHECK (gcu_cost_learned_print (text, sizeof (text), "| ") == 0, "nothing learned: nothing listed") ;
    const double g = 2e-3 ;
    for (int k = 0 ; k < 2 ; k++) gcu_cost_learn (GCU_SIDE_GPU, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, g, 64 * g) ;
    gcu_cost_learn (GCU_SIDE_GPU, GCU_OP_VXM, GCU_COST_MXV, GCU_MASK_COMP, g, g / 64) ;
    gcu_cost_learn (GCU_SIDE_HOST, GCU_OP_VXM, GCU_COST_MXV, GCU_MASK_NONE, g, 1.5 * g) ;
    const size_t len = gcu_cost_learned_print (text, sizeof (text), "| ") ;
    CHECK (len == strlen (text) && strstr (text, "| GrB_mxv gpu, ") != NULL
        && strstr (text, "| GrB_vxm gpu, ") != NULL && strstr (text, "complemented mask") != NULL
        && strstr (text, "1-10 ms") != NULL && strstr (text, "host,") == NULL
        && strstr (text, "6.17x") != NULL,
        "the two beyond 2x listed, the host's 1.1x not: %s", text) ;
    CHECK (gcu_cost_learned_print (text, 150, "| ") == 0, "no room for a line: nothing written") ;
    gcu_cost_forget () ;
}

// A learned factor corrects the GPU's table time, but never takes it under
// its matrices' uploads at h2d: a GPU taught that its calls take a 64th of
// the table (calls over resident operands) still prices a matrix's upload
// at h2d, and loses to the host where that upload alone does. A vector's
// upload (up_bytes alone) takes the factor with the rest.
static void transfer_floor (void)
{
    gcu_cost_forget () ;
    gcu_cost_table t ;
    crossing_table (&t) ;
    gcu_cost_choice ch ;
    // 20 MB up at the table's 1e10 B/s: 2 ms, against a host call of ~3 ms
    gcu_cost_input in = { .family = GCU_COST_MXV, .op = GCU_OP_MXV, .work = 3 * CROSS,
        .up_bytes = 2e7, .up_matrix_bytes = 2e7 } ;
    gcu_cost_predict (&t, &in, &ch) ;
    const double up = in.up_bytes / t.h2d ;
    for (int k = 0 ; k < 40 ; k++)
        gcu_cost_learn (GCU_SIDE_GPU, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, ch.gpu_table, ch.gpu_table / 64) ;
    CHECK (gcu_cost_factor (GCU_SIDE_GPU, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, ch.gpu_table) < 0.02,
        "the GPU taught a 64th of its table") ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (ch.gpu_s >= up && ch.gpu_s < up * 1.0001, "the GPU's time %g under its upload's %g", ch.gpu_s, up) ;
    CHECK (ch.gpu == (up * t.margin < ch.host_s), "the choice by the upload's floor") ;
    // a vector's upload: the factor applies whole
    in.up_matrix_bytes = 0 ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (fabs (ch.gpu_s / ch.gpu_table - 1.0 / 64) < 0.01, "a vector's upload: the factor whole (%g)",
        ch.gpu_s / ch.gpu_table) ;
    gcu_cost_forget () ;
}

// A result that stays on the device (down_later) comes back later, if at
// all: its download is in the GPU's time, at d2h, but not in what the
// learned factor corrects, nor in what a GPU call's measured time is
// compared with (gpu_call_table). A factor taught by calls whose results
// stayed leaves the download of one whose result comes back whole.
static void later_download (void)
{
    gcu_cost_forget () ;
    gcu_cost_table t ;
    crossing_table (&t) ;
    gcu_cost_choice ch ;
    gcu_cost_input in = { .family = GCU_COST_EWISE, .op = GCU_OP_VECTOR_APPLY, .work = 1e6,
        .rows = 1e6, .down_bytes = 9e6 } ;
    gcu_cost_predict (&t, &in, &ch) ;
    const double down = in.down_bytes / t.d2h ;
    CHECK (ch.gpu_call_table == ch.gpu_table && ch.gpu_s == ch.gpu_table,
        "a download in the call: in its own time (%g, %g)", ch.gpu_call_table, ch.gpu_table) ;
    in.down_later = true ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (fabs (ch.gpu_table - ch.gpu_call_table - down) < 1e-12 && ch.gpu_s == ch.gpu_table,
        "a later download: out of the call's own time, in the GPU's (%g %g %g)",
        ch.gpu_table, ch.gpu_call_table, down) ;
    // calls whose results stayed (no download) took a 64th of their table
    gcu_cost_input stay = in ;
    stay.down_bytes = 0 ;
    gcu_cost_choice cs ;
    gcu_cost_predict (&t, &stay, &cs) ;
    for (int k = 0 ; k < 40 ; k++)
        gcu_cost_learn (GCU_SIDE_GPU, GCU_OP_VECTOR_APPLY, GCU_COST_EWISE, GCU_MASK_NONE,
            cs.gpu_call_table, cs.gpu_call_table / 64) ;
    gcu_cost_predict (&t, &in, &ch) ;
    const double f = gcu_cost_factor (GCU_SIDE_GPU, GCU_OP_VECTOR_APPLY, GCU_COST_EWISE, GCU_MASK_NONE,
        ch.gpu_call_table) ;
    CHECK (f < 0.02 && fabs (ch.gpu_s - (down + f * ch.gpu_call_table)) < 1e-12,
        "the factor %g on the call's own time, the later download whole (%g against %g)",
        f, ch.gpu_s, down + f * ch.gpu_call_table) ;
    CHECK (ch.gpu_s > down, "the GPU's time at least its result's download") ;
    gcu_cost_forget () ;
}

// how many calls of a kind a side measured, per decade of its table time
static void measured_kinds (void)
{
    gcu_cost_forget () ;
    const gcu_op op = GCU_OP_VECTOR_APPLY ;
    CHECK (gcu_cost_measured (GCU_SIDE_HOST, op, GCU_COST_EWISE, GCU_MASK_NONE, 1e-3) == 0,
        "nothing learned: none measured") ;
    gcu_cost_learn (GCU_SIDE_HOST, op, GCU_COST_EWISE, GCU_MASK_NONE, 1.07e-3, 0.5e-3) ;
    gcu_cost_learn (GCU_SIDE_HOST, op, GCU_COST_EWISE, GCU_MASK_NONE, 2e-3, 0.5e-3) ;
    CHECK (gcu_cost_measured (GCU_SIDE_HOST, op, GCU_COST_EWISE, GCU_MASK_NONE, 1.5e-3) == 2,
        "two in the decade: %d", gcu_cost_measured (GCU_SIDE_HOST, op, GCU_COST_EWISE, GCU_MASK_NONE, 1.5e-3)) ;
    CHECK (gcu_cost_measured (GCU_SIDE_HOST, op, GCU_COST_EWISE, GCU_MASK_NONE, 2e-2) == 0
        && gcu_cost_measured (GCU_SIDE_GPU, op, GCU_COST_EWISE, GCU_MASK_NONE, 1.5e-3) == 0
        && gcu_cost_measured (GCU_SIDE_HOST, op, GCU_COST_EWISE, GCU_MASK_PLAIN, 1.5e-3) == 0
        && gcu_cost_measured (GCU_SIDE_HOST, op, GCU_COST_EWISE, GCU_MASK_NONE, 0) == 0,
        "none in another decade, side or mask, nor for no table time") ;
    for (int k = 0 ; k < 300 ; k++)
        gcu_cost_learn (GCU_SIDE_HOST, op, GCU_COST_EWISE, GCU_MASK_NONE, 1.07e-3, 0.5e-3) ;
    CHECK (gcu_cost_measured (GCU_SIDE_HOST, op, GCU_COST_EWISE, GCU_MASK_NONE, 1.5e-3) == 255,
        "counted to 255") ;
    // a call not learned from (no time) is not counted
    gcu_cost_learn (GCU_SIDE_GPU, op, GCU_COST_EWISE, GCU_MASK_NONE, 1.07e-3, -1) ;
    CHECK (gcu_cost_measured (GCU_SIDE_GPU, op, GCU_COST_EWISE, GCU_MASK_NONE, 1.5e-3) == 0,
        "a call without a time: not counted") ;
    gcu_cost_forget () ;
    CHECK (gcu_cost_measured (GCU_SIDE_HOST, op, GCU_COST_EWISE, GCU_MASK_NONE, 1.5e-3) == 0,
        "forgotten: none measured") ;
}

// A matrix uploaded in the orientation it is not held in is transposed by
// its export: the table's transpose an entry, in the GPU's time and its
// floor (cost.c), counted by the dispatch for the SpMV's matrix held the
// other way (predict.c: mxv reads A by row, vxm B by column, the
// descriptor's transpose the reverse)
static double spmv_gpu_s (const gcu_cost_table *t, gcu_op op, GrB_Matrix A, GrB_Vector u, bool tran)
{
    gcu_call c ;
    memset (&c, 0, sizeof (c)) ;
    c.op = op ;
    GrB_Index n = 0, nv = 0 ;
    OK (GrB_Matrix_nrows (&n, A)) ;
    OK (GrB_Matrix_nvals (&nv, A)) ;
    const bool vxm = op == GCU_OP_VXM ;
    c.A = vxm ? (void *) u : (void *) A ;
    c.B = vxm ? (void *) A : (void *) u ;
    c.tran_a = !vxm && tran ;
    c.tran_b = vxm && tran ;
    c.c_rows = c.a_rows = c.a_cols = c.b_rows = c.b_cols = n ;
    c.c_cols = 1 ;
    if (vxm) { c.a_cols = 1 ; c.a_nvals = n ; c.b_nvals = nv ; }
    else { c.b_cols = 1 ; c.a_nvals = nv ; c.b_nvals = n ; }
    c.work = (double) nv ;
    c.checked = true ;
    c.down_share = -1 ;
    (void) gcu_predict (&c, t) ;
    return c.gpu_s ;
}

static void transpose_upload (void)
{
    gcu_cost_forget () ;
    gcu_cost_table t ;
    char *text = table (RATES (1e-4, 1e9, 1e-5, 1e12), "transpose 1e-8\ndevice_transpose 1e-10\n") ;
    OK (gcu_cost_parse (text, NULL, &t)) ;
    free (text) ;
    CHECK (t.transpose == 1e-8, "the table's transpose: %g", t.transpose) ;
    gcu_cost_choice ch0, ch1 ;
    gcu_cost_input in = { .family = GCU_COST_MXV, .op = GCU_OP_MXV, .work = 1e6,
        .up_bytes = 2e7, .up_matrix_bytes = 2e7 } ;
    gcu_cost_predict (&t, &in, &ch0) ;
    in.up_transpose = 1e6 ;
    gcu_cost_predict (&t, &in, &ch1) ;
    CHECK (fabs (ch1.gpu_table - ch0.gpu_table - 1e-2) < 1e-9, "1M entries transposed: 10 ms more (%g)",
        ch1.gpu_table - ch0.gpu_table) ;
    CHECK (fabs (gcu_cost_upload_s (&t, &in) - (2e7 / t.h2d + 1e-2)) < 1e-12, "the uploads' time") ;
    // in the floor: a GPU that taught a 64th of its table still pays it
    for (int k = 0 ; k < 40 ; k++)
        gcu_cost_learn (GCU_SIDE_GPU, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, ch1.gpu_table, ch1.gpu_table / 64) ;
    gcu_cost_predict (&t, &in, &ch1) ;
    CHECK (ch1.gpu_s >= 2e7 / t.h2d + 1e-2, "the floor holds the transpose: %g", ch1.gpu_s) ;
    gcu_cost_forget () ;
    // the dispatch's count: a matrix held by row and the same by column
    GrB_Matrix R = NULL, C = NULL ;
    OK (GrB_Matrix_new (&R, GrB_FP64, 2000, 2000)) ;
    // 21 entries a row (every 97th column from i mod 7)
    GrB_Index *I = malloc (2000 * 21 * sizeof (GrB_Index)), *J = malloc (2000 * 21 * sizeof (GrB_Index)), ne = 0 ;
    CHECK (I != NULL && J != NULL, "memory") ;
    if (I == NULL || J == NULL) { free (I) ; free (J) ; GrB_Matrix_free (&R) ; return ; }
    for (GrB_Index i = 0 ; i < 2000 ; i++)
        for (GrB_Index j = i % 7 ; j < 2000 ; j += 97) { I [ne] = i ; J [ne++] = j ; }
    GrB_Scalar one = NULL ;
    OK (GrB_Scalar_new (&one, GrB_FP64)) ;
    OK (GrB_Scalar_setElement_FP64 (one, 1)) ;
    OK (GxB_Matrix_build_Scalar (R, I, J, one, ne)) ;
    GrB_Scalar_free (&one) ;
    free (I) ; free (J) ;
    OK (GrB_Matrix_dup (&C, R)) ;
    OK (GxB_Matrix_Option_set (R, GxB_FORMAT, GxB_BY_ROW)) ;
    OK (GxB_Matrix_Option_set (C, GxB_FORMAT, GxB_BY_COL)) ;
    GrB_Index nv = 0 ;
    OK (GrB_Matrix_nvals (&nv, R)) ;
    CHECK (nv > 20000, "the matrix: %llu entries", (unsigned long long) nv) ;
    GrB_Vector u = NULL ;
    OK (GrB_Vector_new (&u, GrB_FP64, 2000)) ;
    OK (GrB_Vector_assign_FP64 (u, NULL, NULL, 1, GrB_ALL, 2000, NULL)) ;
    const double want = (double) nv * 1e-8 ;
    const struct { gcu_op op ; bool tran ; bool col_pays ; const char *what ; } k [] = {
        { GCU_OP_MXV, false, true, "mxv: A by row" }, { GCU_OP_MXV, true, false, "mxv, A': A by column" },
        { GCU_OP_VXM, false, false, "vxm: B by column" }, { GCU_OP_VXM, true, true, "vxm, B': B by row" } } ;
    for (size_t i = 0 ; i < sizeof (k) / sizeof (k [0]) ; i++)
    {
        const double r = spmv_gpu_s (&t, k [i].op, R, u, k [i].tran) ;
        const double c = spmv_gpu_s (&t, k [i].op, C, u, k [i].tran) ;
        const double d = k [i].col_pays ? c - r : r - c ;
        CHECK (r > 0 && c > 0 && fabs (d - want) < 1e-3 * want, "%s: the other orientation %g ms more, want %g",
            k [i].what, 1e3 * d, 1e3 * want) ;
    }
    // a matrix of the via-held bound or more goes up as held and is
    // transposed on the device: counted at device_transpose
    const GrB_Index bound = gcu_operand_via_held_min (nv) ;
    for (size_t i = 0 ; i < sizeof (k) / sizeof (k [0]) ; i++)
    {
        const double r = spmv_gpu_s (&t, k [i].op, R, u, k [i].tran) ;
        const double c = spmv_gpu_s (&t, k [i].op, C, u, k [i].tran) ;
        const double d = k [i].col_pays ? c - r : r - c ;
        const double dev = (double) nv * 1e-10 ;
        CHECK (fabs (d - dev) < 1e-3 * dev, "%s, transposed on the device: %g ms more, want %g",
            k [i].what, 1e3 * d, 1e3 * dev) ;
    }
    gcu_operand_via_held_min (bound) ;
    GrB_Matrix_free (&R) ; GrB_Matrix_free (&C) ; GrB_Vector_free (&u) ;
    gcu_cost_forget () ;
}

// GrB_mxm through the dispatch under a table; the reason counted, the
// verbose output captured, the result compared with SuiteSparse's (what
// earlier host calls taught the model is forgotten first)
static bool mxm_under (const char *rates, grbcuda_reason expect, char *log, size_t lsize)
{
    gcu_cost_forget () ;
    char *text = table (rates, "") ;
    OK (grbcuda_set_cost_model (text)) ;
    free (text) ;
    uint64_t seed = 7 ;
    GrB_Matrix A = gcu_test_random_matrix (GrB_FP64, 60, 60, 0.1, &seed), C = NULL ;
    OK (GrB_Matrix_new (&C, GrB_FP64, 60, 60)) ;
    grbcuda_op_stats a, b ;
    OK (grbcuda_stats_get ("GrB_mxm", &a)) ;
    gcu_test_capture cap ;
    gcu_test_capture_begin (&cap) ;
    OK (GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, NULL)) ;
    gcu_test_capture_end (&cap, log, lsize) ;
    OK (grbcuda_stats_get ("GrB_mxm", &b)) ;
    GrB_Matrix R = NULL ;
    OK (GrB_Matrix_new (&R, GrB_FP64, 60, 60)) ;
    __typeof__ (&GrB_mxm) real_mxm = (__typeof__ (&GrB_mxm)) gcu_test_real ("GrB_mxm") ;
    CHECK (real_mxm != NULL, "SuiteSparse's GrB_mxm") ;
    if (real_mxm != NULL) OK (real_mxm (R, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, NULL)) ;
    bool same = gcu_test_matrix_equal (C, R, 1e-12, false, "mxm under the cost model") ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&C) ; GrB_Matrix_free (&R) ;
    return same && b.reason [expect] - a.reason [expect] == 1 ;
}

// ski rental on CUDA's start (dispatch.c, GRBCUDA_START_RENT=f): before the
// GPU has started, calls predicted faster there run on the host until what
// they lose there, measured, adds up to f times the table's cuda_start (1 s
// here). Each call below is predicted at 0.3 s on the host and nothing on
// the GPU: by its prediction the call numbered f * 1 / 0.3 + 1 would pay
// (the fourth for f = 1). A 60-by-60 product takes far less: none of them
// pays, and each adds its own measured time (at most the time the test
// measures around it), not the prediction. (At a start of 0.1 s and 0.03 s
// predictions, a first call that took 0.1 s on a loaded 2-core machine
// paid by itself; CI, 2026-11-28.) A call long enough to wait for the start
// (predicted host time 10 s, wait_factor 4 times the start) counts its
// prediction at once and pays. Runs before any other call through the
// dispatch has added to the gains.
static void start_rental (double f)
{
    char log [8192] ;
    table_start = 1 ;
    const int would = (int) (f * 1 / 0.3) + 1 ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_AUTO)) ;
    OK (grbcuda_set_verbose (1)) ;
    for (int k = 1 ; k <= would + 1 ; k++)
    {
        const double before = gcu_start_gain_add (0), t0 = gcu_now () ;
        CHECK (mxm_under (RATES (0.3, 1e15, 1e-9, 1e15), GRBCUDA_REASON_NO_GPU, log, sizeof (log)),
            "call %d: not counted as no usable GPU", k) ;
        const double took = gcu_now () - t0, added = gcu_start_gain_add (0) - before ;
        CHECK (strstr (log, "CUDA's start not paid for yet") != NULL
            && strstr (log, "CUDA's start paid for") == NULL, "call %d: paid by predictions\n%s", k, log) ;
        CHECK (added > 0 && added <= took && added < 0.3, "call %d: added %g s, the call took %g",
            k, added, took) ;
    }
    // (the product's measured repeats forgotten, or the host's measured time
    // of the 60-by-60 product would stand for the table's 10 s)
    gcu_cost_amortize_reset () ;
    CHECK (mxm_under (RATES (10, 1e15, 1e-9, 1e15), GRBCUDA_REASON_NO_GPU, log, sizeof (log))
        || grbcuda_gpu_available (), "the long call: not counted as no usable GPU") ;
    CHECK (strstr (log, "CUDA's start paid for") != NULL && strstr (log, "not paid for yet") == NULL,
        "the long call: not paid\n%s", log) ;
    OK (grbcuda_set_verbose (0)) ;
    OK (grbcuda_set_cost_model (NULL)) ;
    table_start = 0.1 ;
}

static void through_the_dispatch (void)
{
    char log [8192] ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_AUTO)) ;
    OK (grbcuda_set_verbose (1)) ;
    // the GPU 1e6 times slower: host
    CHECK (mxm_under (RATES (1e-4, 1e9, 1, 1e3), GRBCUDA_REASON_SMALL, log, sizeof (log)),
        "host table: not counted as host predicted faster") ;
    CHECK (strstr (log, "predicted host") != NULL && strstr (log, " gpu ") != NULL
        && strstr (log, "-> host (host predicted faster)") != NULL, "verbose line:\n%s", log) ;
    // the GPU free: chosen, then no usable GPU here (or CUDA starting)
    bool gpu_chosen = mxm_under (RATES (1, 1e3, 1e-9, 1e15), GRBCUDA_REASON_NO_GPU, log, sizeof (log)) ;
    if (!gpu_chosen && grbcuda_gpu_available ())
    {
        printf ("a GPU is usable: the GPU-table call was not counted as no GPU\n") ;
    }
    else
    {
        CHECK (gpu_chosen, "GPU table: not counted as no usable GPU") ;
        CHECK (strstr (log, "predicted host") != NULL, "verbose line:\n%s", log) ;
    }
    OK (grbcuda_set_verbose (0)) ;
    OK (grbcuda_set_cost_model (NULL)) ;
}

// A masked assign is counted at its mask's entries (and u's there, and
// with GrB_REPLACE w's old ones), not at w's length: SuiteSparse does
// nothing for an empty mask.
static double assign_work (gcu_op op, GrB_Vector w, GrB_Vector M, GrB_Vector u, bool comp, bool replace)
{
    gcu_call c ;
    memset (&c, 0, sizeof (c)) ;
    c.op = op ;
    c.C = w ; c.M = M ; c.A = op == GCU_OP_VECTOR_ASSIGN ? u : NULL ;
    c.mask_comp = comp ;
    c.replace = replace ;
    GrB_Index n = 0, unv = 0 ;
    OK (GrB_Vector_size (&n, w)) ;
    OK (GrB_Vector_nvals (&unv, u)) ;
    c.c_rows = c.a_rows = n ;
    c.c_cols = c.a_cols = 1 ;
    c.a_nvals = op == GCU_OP_VECTOR_ASSIGN ? unv : n ;
    c.work = (double) n ;
    c.checked = true ;
    c.down_share = -1 ;
    (void) gcu_predict (&c, gcu_cost_current (NULL)) ;
    return c.work ;
}

static void masked_assign_work (void)
{
    GrB_Vector w = NULL, M = NULL, u = NULL ;
    OK (GrB_Vector_new (&w, GrB_FP64, 100000)) ;
    OK (GrB_Vector_new (&M, GrB_BOOL, 100000)) ;
    OK (GrB_Vector_new (&u, GrB_FP64, 100000)) ;
    for (GrB_Index k = 0 ; k < 5 ; k++) OK (GrB_Vector_setElement_FP64 (u, 1, 7 * k)) ;
    double x = assign_work (GCU_OP_VECTOR_ASSIGN, w, M, u, false, false) ;
    CHECK (x == 1, "an empty mask: 1 (%g)", x) ;
    x = assign_work (GCU_OP_VECTOR_ASSIGN_SCALAR, w, M, u, false, false) ;
    CHECK (x == 1, "a scalar through an empty mask: 1 (%g)", x) ;
    for (GrB_Index k = 0 ; k < 30 ; k++) OK (GrB_Vector_setElement_BOOL (M, true, 3 * k)) ;
    x = assign_work (GCU_OP_VECTOR_ASSIGN, w, M, u, false, false) ;
    CHECK (x == 36, "a mask of 30: 36 (%g)", x) ;
    x = assign_work (GCU_OP_VECTOR_ASSIGN, w, M, u, true, false) ;
    CHECK (x == 100000, "a complemented mask: w's length (%g)", x) ;
    x = assign_work (GCU_OP_VECTOR_ASSIGN, w, M, u, false, true) ;
    CHECK (x == 36, "GrB_REPLACE, w empty: 36 (%g)", x) ;
    for (GrB_Index k = 0 ; k < 1000 ; k++) OK (GrB_Vector_setElement_FP64 (w, 2, 11 * k)) ;
    x = assign_work (GCU_OP_VECTOR_ASSIGN, w, M, u, false, true) ;
    CHECK (x == 1036, "GrB_REPLACE, w of 1000: its entries too (%g)", x) ;
    x = assign_work (GCU_OP_VECTOR_ASSIGN, w, M, u, false, false) ;
    CHECK (x == 36, "w's entries out of a masked assign without GrB_REPLACE (%g)", x) ;
    // u's entries where the mask has some: a mask of 30 reads 30 of u's 1000
    x = assign_work (GCU_OP_VECTOR_ASSIGN, u, M, w, false, false) ;
    CHECK (x == 61, "u of 1000 under a mask of 30: 61 (%g)", x) ;
    OK (GrB_Vector_clear (w)) ;
    x = assign_work (GCU_OP_VECTOR_ASSIGN, w, NULL, u, false, false) ;
    CHECK (x == 100000, "no mask: w's length (%g)", x) ;
    GrB_Vector_free (&w) ; GrB_Vector_free (&M) ; GrB_Vector_free (&u) ;
}

// A kind of call that a few slow GPU calls sent to the host is tried on the
// GPU again: each call the host ran because it was predicted faster takes the
// GPU's learned slowdown a step back (gcu_cost_doubt), until the GPU is
// predicted faster and runs one; a GPU truly slower learns it again at once.
// A learned speed-up and other kinds stay as they were; the statistics list
// what was learned beyond 2x.
static void gpu_doubted (void)
{
    gcu_cost_table t ;
    gcu_cost_choice ch ;
    gcu_cost_input in ;
    mxv_past_crossing (&t, &in, &ch) ;
    const double g = ch.gpu_table ;
    // two calls 64 times over the table (the first after CUDA's start)
    for (int k = 0 ; k < 2 ; k++) gcu_cost_learn (GCU_SIDE_GPU, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, g, 64 * g) ;
    gcu_cost_learn (GCU_SIDE_GPU, GCU_OP_VXM, GCU_COST_MXV, GCU_MASK_NONE, g, 64 * g) ;
    gcu_cost_learn (GCU_SIDE_GPU, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_COMP, g, g / 64) ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (!ch.gpu, "two slow GPU calls: the host (%g against %g)", ch.gpu_s, ch.host_s) ;
    char text [4096] ;
    size_t len = gcu_cost_learned_print (text, sizeof (text), "| ") ;
    CHECK (len == strlen (text) && strstr (text, "| GrB_mxv gpu, ") != NULL && strstr (text, "| GrB_vxm gpu, ") != NULL
        && strstr (text, "complemented mask") != NULL && strstr (text, "host,") == NULL,
        "the learned factors listed: %s", text) ;
    int calls = 0 ;
    while (!ch.gpu && calls < 1000)
    {
        gcu_cost_doubt (GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, ch.gpu_table) ;
        gcu_cost_predict (&t, &in, &ch) ;
        calls++ ;
    }
    CHECK (ch.gpu && calls > 4 && calls < 200, "the GPU tried again after %d host calls", calls) ;
    CHECK (gcu_cost_factor (GCU_SIDE_GPU, GCU_OP_VXM, GCU_COST_MXV, GCU_MASK_NONE, g) > 2
        && gcu_cost_factor (GCU_SIDE_GPU, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_COMP, g) < 0.5,
        "another kind, and a learned speed-up: as they were") ;
    // the GPU measured slow again: the host at once
    gcu_cost_learn (GCU_SIDE_GPU, GCU_OP_MXV, GCU_COST_MXV, GCU_MASK_NONE, g, 64 * g) ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (!ch.gpu, "slow again: the host") ;
    gcu_cost_forget () ;
    len = gcu_cost_learned_print (text, sizeof (text), "| ") ;
    CHECK (len == 0, "forgotten: nothing listed") ;
}

// a kind's first run on the GPU: the table's first_run (optional), 0 for
// a kind that has run; added to the GPU's time, outside the learned
// correction
static void first_runs (void)
{
    gcu_cost_amortize_reset () ;
    gcu_cost_table t ;
    char *text = table (RATES (1e-4, 1e9, 1e-4, 1e11), "") ;
    OK (gcu_cost_parse (text, NULL, &t)) ;
    free (text) ;
    CHECK (t.first_run == 0 && gcu_cost_first_s (&t, 11) == 0, "no first_run: none counted") ;
    text = table (RATES (1e-4, 1e9, 1e-4, 1e11), "first_run 4e-3\n") ;
    OK (gcu_cost_parse (text, NULL, &t)) ;
    free (text) ;
    CHECK (t.first_run == 4e-3 && gcu_cost_first_s (&t, 11) == 4e-3 && gcu_cost_first_s (&t, 0) == 0,
        "the table's first run: %g", gcu_cost_first_s (&t, 11)) ;
    gcu_cost_first_ran (11) ;
    gcu_cost_first_ran (11) ;
    CHECK (gcu_cost_first_s (&t, 11) == 0 && gcu_cost_first_s (&t, 13) == 4e-3,
        "run: none for it, the table's for another (%g)", gcu_cost_first_s (&t, 13)) ;
    // in the GPU's time: 1e8 work, 1 ms of kernels (and 0.1 fixed) against
    // the host's 100 ms; 200 ms of first run send it to the host
    gcu_cost_choice ch ;
    gcu_cost_input in = { .family = GCU_COST_MXV, .op = GCU_OP_MXV, .work = 1e8 } ;
    gcu_cost_predict (&t, &in, &ch) ;
    const double g = ch.gpu_s ;
    in.first_s = 0.2 ;
    gcu_cost_predict (&t, &in, &ch) ;
    CHECK (!ch.gpu && fabs (ch.gpu_s - (g + 0.2)) < 1e-12 && ch.gpu_call_table < 0.01,
        "a first run of 200 ms: gpu %g (without %g)", ch.gpu_s, g) ;
    for (int k = 0 ; k < 300 ; k++) gcu_cost_first_ran (1001 + 2 * (uint64_t) k) ;
    CHECK (gcu_cost_first_s (&t, 11) > 0, "256 kinds kept: the oldest runs first again") ;
    gcu_cost_first_ran (13) ;
    CHECK (gcu_cost_first_s (&t, 13) == 0, "13 run") ;
    gcu_cost_amortize_reset () ;
    CHECK (gcu_cost_first_s (&t, 13) == 4e-3, "reset: the table's again") ;
}

int main (void)
{
    // start_rental below (read at the first use); ctest's other runs set
    // 0.5, and the empty string: the default fraction
    const char *rent = getenv ("GRBCUDA_START_RENT") ;
    const double f = rent == NULL ? 1 : rent [0] == '\0' ? GCU_START_RENT_DEFAULT
        : atof (rent) > 0 ? atof (rent) : 1 ;
    if (rent == NULL) setenv ("GRBCUDA_START_RENT", "1", 1) ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    parse_tables () ;
    host_rows () ;
    gpu_rows () ;
    amortized () ;
    repeats_and_lineage () ;
    kernel_keys () ;
    host_learned () ;
    gpu_learned () ;
    gpu_doubted () ;
    learned_listed () ;
    transfer_floor () ;
    later_download () ;
    measured_kinds () ;
    transpose_upload () ;
    decision_flips () ;
    start_rental (f) ;
    through_the_dispatch () ;
    masked_assign_work () ;
    first_runs () ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_cost_model") ;
}
