// transfer.c — host<->device transfer rates of grbcuda's staged copies
// (src/device/staging.c) and of GrB_mxm's operand path (src/mxm: residency
// cache, export, staged upload), against the reference measured in the same
// run on the same machine: cudaMemcpy from and to a pinned buffer. The issue
// asks that a 1 GB matrix move at >= 70% of the pinned rate.
//
//   transfer [MiB] [repeats]     (default 1024 MiB, 5 repeats; median shown)
//
// Prints a Markdown table: GB/s (10^9 bytes per second) and % of the pinned
// rate of the same direction. Rows with a width conversion count bytes on
// the host side (the pageable array's bytes): 8->4 moves half as many bytes
// over the link, 4->8 writes twice as many to the host. Built only with CUDA;
// links grbcuda_static for the internal gcu_* functions.
#include "grbcuda.h"
#include "gcu_util.h"
#include "device/gcu_cuda.h"
#include "device/gcu_device.h"
#include "device/gcu_staging.h"
#include "mxm/gcu_mxm.h"
#include "residency/gcu_residency.h"
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int repeats = 5 ;

static int cmp (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b ;
    return (x > y) - (x < y) ;
}

static double median (double *t, int n)
{
    qsort (t, (size_t) n, sizeof (double), cmp) ;
    return (n % 2) ? t [n / 2] : 0.5 * (t [n / 2 - 1] + t [n / 2]) ;
}

static void die (const char *what, int code)
{
    fprintf (stderr, "transfer: %s failed (%d)\n", what, code) ;
    exit (1) ;
}

#define CU(x) do { cudaError_t e_ = (x) ; if (e_ != cudaSuccess) die (#x, (int) e_) ; } while (0)
#define OKB(x) do { GrB_Info i_ = (x) ; if (i_ != GrB_SUCCESS) die (#x, (int) i_) ; } while (0)

static void row (const char *name, double bytes, double seconds, double ref)
{
    double gbs = bytes / seconds / 1e9 ;
    if (ref > 0) printf ("| %s | %.1f | %.2f | %.1f | %.0f%% |\n", name, bytes / 1e6, 1e3 * seconds, gbs, 100 * gbs / ref) ;
    else printf ("| %s | %.1f | %.2f | %.1f | — |\n", name, bytes / 1e6, 1e3 * seconds, gbs) ;
}

// One timed transfer: cudaMemcpy (n bytes; from = to = 1) or grbcuda's
// staged copy (n elements of from bytes on the source side, to bytes on the
// destination side), host to device or back. host: the host side; NULL for
// a fresh, never touched destination at each repeat (as the arrays a result
// is packed into), n * to bytes.
typedef struct
{
    bool staged, h2d ;
    void *host ;
    size_t n, from, to ;
}
xfer_t ;

// The median seconds of the transfer x between its host side and dev.
static double time_xfer (xfer_t x, void *dev, gcu_stream s)
{
    double t [64] ;
    for (int r = 0 ; r < repeats ; r++)
    {
        void *h = x.host ? x.host : malloc (x.n * x.to) ;
        if (h == NULL) die ("malloc", 0) ;
        double t0 = gcu_now () ;
        if (!x.staged && x.h2d) CU (cudaMemcpy (dev, h, x.n, cudaMemcpyHostToDevice)) ;
        else if (!x.staged) CU (cudaMemcpy (h, dev, x.n, cudaMemcpyDeviceToHost)) ;
        else if (x.h2d) OKB (gcu_h2d_staged (dev, h, x.n, x.from, x.to, s)) ;
        else OKB (gcu_d2h_staged (h, dev, x.n, x.from, x.to, s)) ;
        t [r] = gcu_now () - t0 ;
        if (h != x.host) free (h) ;
    }
    return median (t, repeats) ;
}

// A GrB_Matrix of about the same size (int32 indices and FP64 values on
// the device) through GrB_mxm's operand path: a miss (export + staged
// upload, into the residency cache), then a hit
static void operand_path (size_t bytes, double ref_h2d, gcu_stream s)
{
    const GrB_Index n = (GrB_Index) 1 << 22 ;
    const GrB_Index per_row = (bytes / 12 + n - 1) / n ;
    const GrB_Index nvals = n * per_row ;
    GrB_Index *Ap = malloc ((n + 1) * sizeof (GrB_Index)) ;
    GrB_Index *Aj = malloc (nvals * sizeof (GrB_Index)) ;
    double *Ax = malloc (nvals * sizeof (double)) ;
    if (Ap == NULL || Aj == NULL || Ax == NULL) die ("malloc", 0) ;
    const GrB_Index stride = n / per_row ;
    for (GrB_Index i = 0 ; i <= n ; i++) Ap [i] = i * per_row ;
    for (GrB_Index i = 0 ; i < n ; i++)
        for (GrB_Index k = 0 ; k < per_row ; k++)
        {
            Aj [i * per_row + k] = k * stride + (i % stride) ;     // sorted within the row
            Ax [i * per_row + k] = 1.0 + (double) ((i + k) % 7) ;
        }
    GrB_Matrix A = NULL ;
    OKB (GrB_Matrix_new (&A, GrB_FP64, n, n)) ;
    OKB (GxB_Matrix_pack_CSR (A, &Ap, &Aj, (void **) &Ax, (n + 1) * sizeof (GrB_Index),
        nvals * sizeof (GrB_Index), nvals * sizeof (double), false, false, NULL)) ;
    double te [64], tu [64], tt [64] ;
    size_t up = 0 ;
    for (int r = 0 ; r < repeats ; r++)
    {
        gcu_residency_clear_all () ;
        gcu_operand o ;
        double t0 = gcu_now () ;
        OKB (gcu_operand_get (A, false, sizeof (double), false, &o, s)) ;
        tt [r] = gcu_now () - t0 ;
        te [r] = o.export_s ;
        tu [r] = o.upload_s ;
        up = o.up_bytes ;
        if (o.how != GCU_OPERAND_MISS) die ("a miss that was not one", (int) o.how) ;
        gcu_operand_release (&o, s) ;
    }
    printf ("\n## a GrB_Matrix through GrB_mxm's operand path: %llu x %llu, %llu entries, "
        "FP64, %.1f MB on the device\n\n", (unsigned long long) n, (unsigned long long) n,
        (unsigned long long) nvals, up / 1e6) ;
    printf ("| step | MB | ms | GB/s | %% of pinned H2D |\n| --- | --- | --- | --- | --- |\n") ;
    row ("miss: export (SuiteSparse -> CSR, int32 indices)", (double) up, median (te, repeats), 0) ;
    row ("miss: staged upload", (double) up, median (tu, repeats), ref_h2d) ;
    row ("miss: export + upload (whole operand path)", (double) up, median (tt, repeats), ref_h2d) ;
    // the copy of the last miss stays cached: the next use is a hit
    gcu_operand o ;
    double t0 = gcu_now () ;
    OKB (gcu_operand_get (A, false, sizeof (double), false, &o, s)) ;
    double th = gcu_now () - t0 ;
    printf ("| hit: %s, %zu bytes uploaded | 0 | %.3f | — | — |\n",
        o.how == GCU_OPERAND_HIT ? "cached copy reused" : "NOT A HIT", o.up_bytes, 1e3 * th) ;
    gcu_operand_release (&o, s) ;
    GrB_Matrix_free (&A) ;
}

int main (int argc, char **argv)
{
    size_t mib = argc > 1 ? (size_t) atol (argv [1]) : 1024 ;
    if (argc > 2) repeats = atoi (argv [2]) ;
    if (mib < 1 || repeats < 1 || repeats > 64) { fprintf (stderr, "usage: transfer [MiB] [repeats]\n") ; return 2 ; }
    const size_t bytes = mib << 20 ;
    OKB (GrB_init (GrB_NONBLOCKING)) ;
    if (!gcu_gpu_ready ())
    {
        printf ("transfer: no usable GPU here; nothing measured\n") ;
        GrB_finalize () ;
        return 0 ;
    }
    char name [256] ;
    grbcuda_gpu_info (name, NULL, NULL, NULL, NULL) ;
    gcu_stream s = gcu_stream_default () ;

    // the buffers: pinned and pageable host, device
    void *pinned = NULL, *dev = NULL ;
    CU (cudaHostAlloc (&pinned, bytes, cudaHostAllocDefault)) ;
    CU (cudaMalloc (&dev, bytes)) ;
    unsigned char *page = malloc (bytes), *back = malloc (bytes) ;
    if (page == NULL || back == NULL) die ("malloc", 0) ;
    for (size_t k = 0 ; k < bytes / 8 ; k++)
    {
        uint64_t v = (k * 0x9E3779B97F4A7C15ull) >> 33 ;      // < 2^31: narrowable
        memcpy (page + 8 * k, &v, 8) ;
    }
    memcpy (pinned, page, bytes) ;
    memset (back, 0, bytes) ;

    printf ("## host<->device transfers, %zu MiB, %s, median of %d\n\n", mib, name, repeats) ;
    printf ("| transfer | MB (host side) | ms | GB/s | %% of pinned |\n| --- | --- | --- | --- | --- |\n") ;

    // the reference: cudaMemcpy from and to pinned memory
    const double ref_h2d = (double) bytes / time_xfer ((xfer_t) { false, true, pinned, bytes, 1, 1 }, dev, s) / 1e9 ;
    const double ref_d2h = (double) bytes / time_xfer ((xfer_t) { false, false, pinned, bytes, 1, 1 }, dev, s) / 1e9 ;
    row ("cudaMemcpy H2D, pinned (reference)", (double) bytes, (double) bytes / ref_h2d / 1e9, ref_h2d) ;
    row ("cudaMemcpy D2H, pinned (reference)", (double) bytes, (double) bytes / ref_d2h / 1e9, ref_d2h) ;

    // what the GPU families did before: cudaMemcpy from and to pageable memory
    row ("cudaMemcpy H2D, pageable", (double) bytes,
        time_xfer ((xfer_t) { false, true, page, bytes, 1, 1 }, dev, s), ref_h2d) ;
    row ("cudaMemcpy D2H, pageable, fresh destination", (double) bytes,
        time_xfer ((xfer_t) { false, false, NULL, bytes, 1, 1 }, dev, s), ref_d2h) ;

    // the staged copies
    gcu_staging_stats_reset () ;
    row ("gcu_h2d_staged, bytes", (double) bytes,
        time_xfer ((xfer_t) { true, true, page, bytes, 1, 1 }, dev, s), ref_h2d) ;
    row ("gcu_h2d_staged, uint64 -> uint32", (double) bytes,
        time_xfer ((xfer_t) { true, true, page, bytes / 8, 8, 4 }, dev, s), ref_h2d) ;
    row ("gcu_d2h_staged, bytes, touched destination", (double) bytes,
        time_xfer ((xfer_t) { true, false, back, bytes, 1, 1 }, dev, s), ref_d2h) ;
    row ("gcu_d2h_staged, bytes, fresh destination", (double) bytes,
        time_xfer ((xfer_t) { true, false, NULL, bytes, 1, 1 }, dev, s), ref_d2h) ;
    row ("gcu_d2h_staged, uint32 -> uint64, touched destination", (double) bytes,
        time_xfer ((xfer_t) { true, false, back, bytes / 8, 4, 8 }, dev, s), ref_d2h) ;
    row ("gcu_d2h_staged, uint32 -> uint64, fresh destination", (double) bytes,
        time_xfer ((xfer_t) { true, false, NULL, bytes / 8, 4, 8 }, dev, s), ref_d2h) ;
    // the round trip is right (the last widening read back what the
    // narrowing wrote: the low halves of page's words)
    {
        OKB (gcu_h2d_staged (dev, page, bytes / 8, 8, 4, s)) ;
        OKB (gcu_d2h_staged (back, dev, bytes / 8, 4, 8, s)) ;
        if (memcmp (back, page, bytes) != 0) die ("round trip check", 0) ;
    }
    gcu_staging_stats_t ss ;
    gcu_staging_stats (&ss) ;
    CU (cudaFree (dev)) ;
    CU (cudaFreeHost (pinned)) ;
    free (page) ;
    free (back) ;

    operand_path (bytes, ref_h2d, s) ;
    printf ("\nstaging pool: %d buffers of %zu MiB; %llu pinned chunks, %llu direct, %llu bounce copies\n",
        ss.nbuf, ss.buf_bytes >> 20, (unsigned long long) ss.chunks,
        (unsigned long long) ss.direct, (unsigned long long) ss.bounce) ;
    gcu_residency_clear_all () ;
    gcu_staging_release () ;
    GrB_finalize () ;
    return 0 ;
}
