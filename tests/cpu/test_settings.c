// test_settings.c — the public controls and the dispatch decisions: modes,
// threshold, device choice, statistics by operation and reason, lazy CUDA
// start (nothing starts CUDA until a call wants the GPU), and the GRBCUDA_*
// variables (ctest runs this test a second time with GRBCUDA_MODE=host and
// GRBCUDA_THRESHOLD=12345 and GRBCUDA_TEST_EXPECT describing them).
#include "gcu_test.h"
#include "grbcuda.h"
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t reason_delta (const char *op, grbcuda_reason r, void (*fn) (void))
{
    grbcuda_op_stats a, b ;
    grbcuda_stats_get (op, &a) ;
    fn () ;
    grbcuda_stats_get (op, &b) ;
    return b.reason [r] - a.reason [r] ;
}

static GrB_Matrix A, B, C ;
static void one_mxm (void) { GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL) ; }
static void null_mxm (void) { GrB_mxm (C, NULL, NULL, NULL, A, B, NULL) ; }
static void bad_dims_mxm (void) { GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, C, GrB_DESC_T1) ; }

// the descriptor's fields as the dispatch reads them: a predefined one (read
// once into a table), or one the program made (asked at every call). C4
// (50x40) = A (50x50) * D' (D 40x50) fits only with D transposed.
static GrB_Matrix C4, D ;
static GrB_Descriptor desc ;
static void desc_mxm (void) { GrB_mxm (C4, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, D, desc) ; }
static bool desc_reason (GrB_Descriptor d, grbcuda_reason r)
{
    desc = d ;
    return reason_delta ("GrB_mxm", r, desc_mxm) == 1 ;
}

// polls grbcuda_gpu_started for up to `seconds` (a start that fails, as
// on a machine without a GPU, counts: it happened)
static bool started_within (double seconds)
{
    for (int k = 0 ; k < (int) (seconds * 20) ; k++)
    {
        if (grbcuda_gpu_started ()) return true ;
        struct timespec ts = { 0, 50000000 } ;
        nanosleep (&ts, NULL) ;
    }
    return grbcuda_gpu_started () != 0 ;
}

// GRBCUDA_START=init (ctest's test_settings_start_init): GrB_init itself
// begins CUDA's start on the background thread, before any call; it has
// happened (or failed: no GPU) within a few seconds, with no call made
static int start_at_init (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    CHECK (started_within (30), "GRBCUDA_START=init: CUDA not started 30 s after GrB_init") ;
    grbcuda_op_stats st ;
    grbcuda_stats_get ("GrB_mxm", &st) ;
    CHECK (st.calls == 0, "calls counted before any call") ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_settings (GRBCUDA_START=init)") ;
}

// an n-by-n matrix with k entries on its first rows, all 1
static GrB_Matrix entries_matrix (GrB_Index n, GrB_Index k)
{
    GrB_Matrix M = NULL ;
    OK (GrB_Matrix_new (&M, GrB_FP64, n, n)) ;
    for (GrB_Index p = 0 ; p < k ; p++) OK (GrB_Matrix_setElement_FP64 (M, 1, p / n, p % n)) ;
    OK (GrB_Matrix_wait (M, GrB_MATERIALIZE)) ;
    return M ;
}

// an n-by-n matrix built from k tuples (GrB_Matrix_build) on its first rows
static GrB_Matrix built_matrix (GrB_Index n, GrB_Index k)
{
    GrB_Index *I = malloc (k * sizeof (GrB_Index)), *J = malloc (k * sizeof (GrB_Index)) ;
    double *X = malloc (k * sizeof (double)) ;
    for (GrB_Index p = 0 ; p < k ; p++) { I [p] = p / n ; J [p] = p % n ; X [p] = 1 ; }
    GrB_Matrix M = NULL ;
    OK (GrB_Matrix_new (&M, GrB_FP64, n, n)) ;
    OK (GrB_Matrix_build_FP64 (M, I, J, X, k, GrB_PLUS_FP64)) ;
    free (I) ; free (J) ; free (X) ;
    return M ;
}

// k entries handed over to GraphBLAS: a 1-by-(k+1) matrix imported
// (GxB_Matrix_import_CSR), or a vector of k+1 packed (GxB_Vector_pack_CSC);
// freed at once (only CUDA's start is looked at)
static void loaded (bool pack, GrB_Index k)
{
    GrB_Index *Ap = malloc (2 * sizeof (GrB_Index)), *Aj = malloc (k * sizeof (GrB_Index)) ;
    double *Ax = malloc (k * sizeof (double)) ;
    Ap [0] = 0 ; Ap [1] = k ;
    for (GrB_Index p = 0 ; p < k ; p++) { Aj [p] = p ; Ax [p] = 1 ; }
    const GrB_Index bytes = k * sizeof (GrB_Index) ;
    if (pack)
    {
        GrB_Vector v = NULL ;
        OK (GrB_Vector_new (&v, GrB_FP64, k + 1)) ;
        OK (GxB_Vector_pack_CSC (v, &Aj, (void **) &Ax, bytes, bytes, false, k, false, NULL)) ;
        GrB_Vector_free (&v) ;
        free (Ap) ;
    }
    else
    {
        GrB_Matrix A = NULL ;
        OK (GxB_Matrix_import_CSR (&A, GrB_FP64, 1, k + 1, &Ap, &Aj, (void **) &Ax,
            2 * sizeof (GrB_Index), bytes, bytes, false, false, NULL)) ;
        GrB_Matrix_free (&A) ;
    }
}

// GRBCUDA_START=data after an import or a pack (ctest's
// test_settings_start_data_import and _pack), as start_at_data below
static int start_at_load (bool pack)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    loaded (pack, 999) ;
    CHECK (!started_within (2), "GRBCUDA_START=data (%s): 999 entries started CUDA",
        pack ? "pack" : "import") ;
    loaded (pack, 1000) ;
    CHECK (started_within (30), "GRBCUDA_START=data (%s): CUDA not started 30 s after 1,000 entries",
        pack ? "pack" : "import") ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_settings (GRBCUDA_START=data, loaded)") ;
}

// GRBCUDA_START=data with GRBCUDA_START_ENTRIES=1000 (ctest's
// test_settings_start_data_*): a call (`call`: an auto GrB_mxm; `build`:
// GrB_Matrix_build) on 999 entries leaves CUDA alone (a start begun would
// have happened, or failed, within the wait), one on 1,000 begins its start
static int start_at_data (const char *how)
{
    if (strcmp (how, "import") == 0 || strcmp (how, "pack") == 0)
        return start_at_load (strcmp (how, "pack") == 0) ;
    const bool build = strcmp (how, "build") == 0 ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    GrB_Matrix S = build ? built_matrix (100, 999) : entries_matrix (100, 999), L = NULL, P = NULL ;
    OK (GrB_Matrix_new (&P, GrB_FP64, 100, 100)) ;
    if (!build) OK (GrB_mxm (P, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, S, S, NULL)) ;
    CHECK (!started_within (2), "GRBCUDA_START=data (%s): 999 entries started CUDA", how) ;
    L = build ? built_matrix (100, 1000) : entries_matrix (100, 1000) ;
    if (!build)
    {
        CHECK (!started_within (0.5), "GRBCUDA_START=data: setting 1,000 elements started CUDA") ;
        OK (GrB_mxm (P, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, S, L, NULL)) ;
    }
    CHECK (started_within (30), "GRBCUDA_START=data (%s): CUDA not started 30 s after 1,000 entries", how) ;
    GrB_Matrix_free (&S) ;
    GrB_Matrix_free (&L) ;
    GrB_Matrix_free (&P) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_settings (GRBCUDA_START=data)") ;
}

int main (void)
{
    if (getenv ("GRBCUDA_TEST_EXPECT_START_INIT") != NULL) return start_at_init () ;
    const char *data = getenv ("GRBCUDA_TEST_EXPECT_START_DATA") ;
    if (data != NULL) return start_at_data (data) ;
    const char *expect = getenv ("GRBCUDA_TEST_EXPECT") ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    CHECK (strlen (grbcuda_version ()) > 0, "version") ;
    printf ("grbcuda %s\n", grbcuda_version ()) ;
    if (expect != NULL)
    {
        // the environment variables were read
        CHECK (strcmp (expect, "host,12345") == 0, "unexpected GRBCUDA_TEST_EXPECT %s", expect) ;
        CHECK (grbcuda_get_mode () == GRBCUDA_MODE_HOST, "GRBCUDA_MODE=host not read") ;
        CHECK (grbcuda_get_threshold () == 12345.0, "GRBCUDA_THRESHOLD not read: %g", grbcuda_get_threshold ()) ;
    }
    else
    {
        CHECK (grbcuda_get_mode () == GRBCUDA_MODE_AUTO, "default mode is not auto") ;
        // no threshold: the cost model decides
        CHECK (grbcuda_get_threshold () < 0, "default threshold %g", grbcuda_get_threshold ()) ;
    }
    CHECK (!grbcuda_gpu_started (), "CUDA started before any call wanted it") ;

    // setters validate
    CHECK (grbcuda_set_mode ((grbcuda_mode) 7) == GrB_INVALID_VALUE, "mode 7 accepted") ;
    CHECK (grbcuda_set_threshold (-1) == GrB_INVALID_VALUE, "negative threshold accepted") ;
    CHECK (grbcuda_set_threshold (NAN) == GrB_INVALID_VALUE, "NaN threshold accepted") ;
    CHECK (grbcuda_set_device (-1) == GrB_INVALID_VALUE, "device -1 accepted") ;
    grbcuda_op_stats s ;
    CHECK (grbcuda_stats_get ("GrB_nosuch", &s) == GrB_INVALID_VALUE, "unknown op name accepted") ;
    CHECK (grbcuda_stats_get (NULL, &s) == GrB_NULL_POINTER, "NULL op name accepted") ;
    CHECK (grbcuda_stats_get ("GrB_mxm", NULL) == GrB_NULL_POINTER, "NULL stats accepted") ;
    CHECK (grbcuda_set_device (0) == GrB_SUCCESS, "device 0 refused before start") ;

    uint64_t st = 1 ;
    A = gcu_test_random_matrix (GrB_FP64, 50, 50, 0.1, &st) ;
    B = gcu_test_random_matrix (GrB_FP64, 50, 50, 0.1, &st) ;
    OK (GrB_Matrix_new (&C, GrB_FP64, 50, 40)) ;

    // each decision, counted under its reason
    OK (grbcuda_set_mode (GRBCUDA_MODE_HOST)) ;
    CHECK (reason_delta ("GrB_mxm", GRBCUDA_REASON_MODE_HOST, one_mxm) == 1, "mode host") ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_AUTO)) ;
    OK (grbcuda_set_threshold (1e12)) ;
    CHECK (reason_delta ("GrB_mxm", GRBCUDA_REASON_ARGS, null_mxm) == 1, "NULL semiring -> arguments") ;
    CHECK (reason_delta ("GrB_mxm", GRBCUDA_REASON_ARGS, bad_dims_mxm) == 1, "bad dimensions -> arguments") ;
    GrB_Matrix_free (&C) ;
    OK (GrB_Matrix_new (&C, GrB_FP64, 50, 50)) ;
    CHECK (reason_delta ("GrB_mxm", GRBCUDA_REASON_SMALL, one_mxm) == 1, "below threshold") ;
    D = gcu_test_random_matrix (GrB_FP64, 40, 50, 0.1, &st) ;
    OK (GrB_Matrix_new (&C4, GrB_FP64, 50, 40)) ;
    CHECK (desc_reason (GrB_DESC_T1, GRBCUDA_REASON_SMALL), "GrB_DESC_T1: B transposed") ;
    CHECK (desc_reason (GrB_DESC_RST1, GRBCUDA_REASON_SMALL), "GrB_DESC_RST1: B transposed") ;
    CHECK (desc_reason (GrB_DESC_RSCT0T1, GRBCUDA_REASON_ARGS), "GrB_DESC_RSCT0T1: no mask, complemented") ;
    CHECK (desc_reason (GrB_DESC_T0, GRBCUDA_REASON_ARGS), "GrB_DESC_T0: dimensions") ;
    CHECK (desc_reason (NULL, GRBCUDA_REASON_ARGS), "no descriptor: dimensions") ;
    GrB_Descriptor mine = NULL ;
    OK (GrB_Descriptor_new (&mine)) ;
    OK (GrB_Descriptor_set (mine, GrB_INP1, GrB_TRAN)) ;
    CHECK (desc_reason (mine, GRBCUDA_REASON_SMALL), "a program's descriptor: B transposed") ;
    OK (GrB_Descriptor_set (mine, GrB_INP1, GxB_DEFAULT)) ;
    CHECK (desc_reason (mine, GRBCUDA_REASON_ARGS), "the same descriptor changed: dimensions") ;
    OK (GrB_Descriptor_set (mine, GrB_INP0, GrB_TRAN)) ;
    OK (GrB_Descriptor_set (mine, GrB_INP1, GrB_TRAN)) ;
    CHECK (desc_reason (mine, GRBCUDA_REASON_SMALL), "changed again: both transposed") ;
    OK (GrB_Descriptor_set (mine, GrB_MASK, GrB_COMP)) ;
    CHECK (desc_reason (mine, GRBCUDA_REASON_ARGS), "changed again: no mask, complemented") ;
    GrB_Descriptor_free (&mine) ;
    GrB_Matrix_free (&C4) ; GrB_Matrix_free (&D) ;
    CHECK (!grbcuda_gpu_started (), "CUDA started by host-only decisions") ;
    // host-only calls add no kernel time; the layout version is the header's
    CHECK (grbcuda_stats_version () == GRBCUDA_STATS_VERSION, "stats version %d",
        grbcuda_stats_version ()) ;
    OK (grbcuda_stats_get ("GrB_mxm", &s)) ;
    CHECK (s.calls >= 4 && s.gpu == 0, "host-only calls: %llu calls, %llu gpu",
        (unsigned long long) s.calls, (unsigned long long) s.gpu) ;
    CHECK (s.gpu_kernel_seconds == 0 && s.gpu_kernel_calls == 0,
        "host-only calls counted kernel time: %g s in %llu calls", s.gpu_kernel_seconds,
        (unsigned long long) s.gpu_kernel_calls) ;
    CHECK (s.gpu_bytes_uploaded == 0 && s.gpu_bytes_downloaded == 0,
        "host calls moved bytes: %llu up, %llu down", (unsigned long long) s.gpu_bytes_uploaded,
        (unsigned long long) s.gpu_bytes_downloaded) ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    grbcuda_op_stats a, b ;
    grbcuda_stats_get ("GrB_mxm", &a) ;
    one_mxm () ;
    grbcuda_stats_get ("GrB_mxm", &b) ;
    CHECK (grbcuda_gpu_started (), "a call in gpu mode did not start CUDA") ;
    int have_gpu = grbcuda_gpu_available () ;
    printf ("GPU usable: %s\n", have_gpu ? "yes" : "no") ;
    if (getenv ("GRBCUDA_TEST_EXPECT_NO_GPU") != NULL)
        CHECK (!have_gpu, "CUDA_VISIBLE_DEVICES hid every GPU, yet one is usable") ;
    if (have_gpu)
    {
        char name [256] ;
        int sms = 0, major = 0, minor = 0 ;
        size_t mem = 0 ;
        OK (grbcuda_gpu_info (name, &sms, &major, &minor, &mem)) ;
        printf ("GPU: %s, %d SMs, sm_%d%d, %zu MiB\n", name, sms, major, minor, mem >> 20) ;
        CHECK (sms > 0 && major >= 3 && mem > 0, "GPU properties") ;
        // no kernel family is registered for this case yet: host, "no GPU kernel"
        CHECK (b.reason [GRBCUDA_REASON_NO_KERNEL] + b.reason [GRBCUDA_REASON_GPU]
            - a.reason [GRBCUDA_REASON_NO_KERNEL] - a.reason [GRBCUDA_REASON_GPU] == 1, "gpu mode with a GPU") ;
    }
    else
    {
        CHECK (grbcuda_gpu_info (NULL, NULL, NULL, NULL, NULL) == GrB_NO_VALUE, "gpu_info without GPU") ;
        CHECK (b.reason [GRBCUDA_REASON_NO_GPU] - a.reason [GRBCUDA_REASON_NO_GPU] == 1, "no GPU reason") ;
    }
    // kernel time only for calls that ran on the GPU
    CHECK (b.gpu_kernel_calls - a.gpu_kernel_calls <= b.gpu - a.gpu, "kernel calls without GPU calls") ;
    if (b.gpu == a.gpu)
        CHECK (b.gpu_kernel_seconds == a.gpu_kernel_seconds, "kernel time for a host call") ;
    CHECK (grbcuda_set_device (0) == GrB_INVALID_VALUE, "device change accepted after start") ;

    // the printed table names the operation
    FILE *f = tmpfile () ;
    grbcuda_stats_print (f) ;
    rewind (f) ;
    char buf [4096] ;
    size_t n = fread (buf, 1, sizeof (buf) - 1, f) ;
    buf [n] = '\0' ;
    fclose (f) ;
    CHECK (strstr (buf, "GrB_mxm") != NULL && strstr (buf, "host predicted faster") != NULL
        && strstr (buf, "kernel(s)") != NULL, "stats table:\n%s", buf) ;
    grbcuda_stats_reset () ;
    OK (grbcuda_stats_get ("GrB_mxm", &s)) ;
    CHECK (s.calls == 0 && s.host == 0 && s.gpu_kernel_calls == 0 && s.gpu_kernel_seconds == 0,
        "reset") ;
    CHECK (strcmp (grbcuda_reason_name (GRBCUDA_REASON_SMALL), "host predicted faster") == 0, "reason name") ;
    // the cost model again: no threshold; a table that does not parse changes nothing
    CHECK (grbcuda_set_cost_model ("margin x\n") == GrB_INVALID_VALUE, "a bad cost model accepted") ;
    CHECK (grbcuda_get_threshold () == 1e12, "a bad cost model dropped the threshold") ;
    OK (grbcuda_set_cost_model (NULL)) ;
    CHECK (grbcuda_get_threshold () < 0, "the cost model back: threshold %g", grbcuda_get_threshold ()) ;

    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_settings") ;
}
