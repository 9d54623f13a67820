// GRBCUDA_TEST_INTERNAL
// test_staging_gpu.c — the pinned staging copies (src/device/staging.c) and
// the residency cache's failure paths in GrB_mxm:
//  (a) round trips host -> device -> host of 0, 1, odd, exactly one chunk,
//      one chunk and one element, many chunks and a remainder, for 8 -> 4
//      narrowing, 4 -> 8 widening and plain copies of 1-, 8- and 16-byte
//      elements; the device image is also read back plainly and compared
//      element by element with the expected conversion; with a small pool
//      (many chunks from small arrays), the default pool (a few 32 MiB
//      chunks), and no pool (the direct and bounce fallbacks);
//  (b) eight threads copying at once (the pool is shared; some find it
//      busy and take the fallback);
//  (c) fault injection: each counted operation of a staged copy fails in
//      turn; the copy reports it, no pinned buffer stays checked out, device
//      memory is back where it was, and the next copy is right;
//  (d) GrB_mxm (saxpy and masked dot) with operands from the cache: every
//      counted operation of a call fails in turn, on a miss (the cache
//      cleared first) and on a hit; each time the answer is SuiteSparse's
//      (host fallback), no pin is left behind (a zero budget evicts every
//      byte) and device memory is back where it was.
// Skips (exit 77) where no GPU is usable.
#include "gcu_test.h"
#include "grbcuda.h"
#include "device/gcu_cuda.h"
#include "device/gcu_device.h"
#include "device/gcu_staging.h"
#include "residency/gcu_residency.h"
#include "gcu_util.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef GrB_Info (*mxm_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
static mxm_t real_mxm ;

//------------------------------------------------------------------------------
// helpers
//------------------------------------------------------------------------------

// Element e of a host array of w-byte elements, as a number (w 4 or 8), or
// its bytes' hash (any w).
static uint64_t elem (const void *a, int w, size_t e)
{
    const unsigned char *p = (const unsigned char *) a + e * (size_t) w ;
    if (w == 4) { uint32_t v ; memcpy (&v, p, 4) ; return v ; }
    if (w == 8) { uint64_t v ; memcpy (&v, p, 8) ; return v ; }
    uint64_t h = 1469598103934665603ull ;
    for (int k = 0 ; k < w ; k++) h = (h ^ p [k]) * 1099511628211ull ;
    return h ;
}

// n random elements of w bytes; 8-byte ones below 2^32 when they are to be
// narrowed (indices that fit).
static void *random_array (size_t n, int w, bool fits32, uint64_t *st)
{
    unsigned char *a = malloc (n * (size_t) w + 1) ;
    if (a == NULL) return NULL ;
    for (size_t e = 0 ; e < n ; e++)
    {
        uint64_t v = gcu_rand (st) ;
        if (fits32) v &= 0xffffffffull ;
        if (w == 8) memcpy (a + 8 * e, &v, 8) ;
        else if (w == 4) { uint32_t u = (uint32_t) v ; memcpy (a + 4 * e, &u, 4) ; }
        else for (int k = 0 ; k < w ; k++) a [e * (size_t) w + k] = (unsigned char) (v >> (8 * (k % 8))) ;
    }
    return a ;
}

// One round trip: H (n elements of hw bytes) -> device (dw bytes each) ->
// host (hw bytes each), plus a plain read of the device image. Returns the
// number of mismatches (0: all right), or -1 if a copy failed. Prints what
// differs; counts nothing (threads call it).
static int64_t round_trip_raw (size_t n, int hw, int dw, uint64_t *st, const char *what)
{
    gcu_stream s = gcu_stream_default () ;
    void *H = random_array (n, hw, hw == 8 && dw == 4, st) ;
    void *R = malloc (n * (size_t) hw + 1) ;
    void *I = malloc (n * (size_t) dw + 1) ;
    void *D = NULL ;
    int64_t bad = -1 ;
    if (H == NULL || R == NULL || I == NULL) goto done ;
    memset (R, 0xA5, n * (size_t) hw) ;
    GrB_Info info = gcu_dmalloc (&D, n * (size_t) dw + 1, s) ;
    if (info == GrB_SUCCESS) info = gcu_h2d_staged (D, H, n, hw, dw, s) ;
    if (info == GrB_SUCCESS) info = gcu_d2h_staged (I, D, n, dw, dw, s) ;
    if (info == GrB_SUCCESS) info = gcu_d2h_staged (R, D, n, dw, hw, s) ;
    if (info != GrB_SUCCESS)
    {
        fprintf (stderr, "  %s: n %zu, %d -> %d: copy failed (%d)\n", what, n, hw, dw, (int) info) ;
        goto done ;
    }
    bad = 0 ;
    for (size_t e = 0 ; e < n ; e++)
    {
        uint64_t h = elem (H, hw, e), i = elem (I, dw, e), r = elem (R, hw, e) ;
        // the device image: narrowed or widened values, or the same bytes
        uint64_t want = (hw == dw) ? h : (dw == 4 ? (h & 0xffffffffull) : h) ;
        if (i != want || r != h)
        {
            if (bad < 3) fprintf (stderr, "  %s: n %zu, %d -> %d: element %zu: host %llx device %llx back %llx\n",
                what, n, hw, dw, e, (unsigned long long) h, (unsigned long long) i, (unsigned long long) r) ;
            bad++ ;
        }
    }
done:
    gcu_dfree (D, s) ;
    gcu_sync (s) ;
    free (H) ; free (R) ; free (I) ;
    return bad ;
}

static void round_trip (size_t n, int hw, int dw, uint64_t *st, const char *what)
{
    int64_t bad = round_trip_raw (n, hw, dw, st, what) ;
    CHECK (bad == 0, "%s: n %zu, %d -> %d: %s", what, n, hw, dw,
        bad < 0 ? "a copy failed" : "elements differ") ;
}

static const int widths [][2] = { { 8, 4 }, { 4, 8 }, { 1, 1 }, { 4, 4 }, { 8, 8 }, { 16, 16 } } ;
#define NWIDTHS ((int) (sizeof (widths) / sizeof (widths [0])))

static void pool_idle (const char *what)
{
    gcu_staging_stats_t ss ;
    gcu_staging_stats (&ss) ;
    CHECK (ss.busy == 0, "%s: %d staging buffers still checked out", what, ss.busy) ;
}

//------------------------------------------------------------------------------
// (a) round trips
//------------------------------------------------------------------------------

static void sizes_sweep (size_t buf_bytes, const char *what, uint64_t *st)
{
    for (int w = 0 ; w < NWIDTHS ; w++)
    {
        const int hw = widths [w][0], dw = widths [w][1] ;
        const size_t ce = buf_bytes / (size_t) dw ;        // elements per chunk
        const size_t n [] = { 0, 1, 7, 1001, ce - 1, ce, ce + 1, 2 * ce, 5 * ce + 123 } ;
        for (size_t k = 0 ; k < sizeof (n) / sizeof (n [0]) ; k++)
            round_trip (n [k], hw, dw, st, what) ;
    }
    pool_idle (what) ;
}

static void round_trips (uint64_t *st)
{
    // a small pool: 64 KiB chunks, plain copies of 4 KiB and more staged
    OK (gcu_staging_configure (GCU_STAGING_NBUF, 64 << 10, 4 << 10)) ;
    gcu_staging_stats_reset () ;
    sizes_sweep (64 << 10, "small pool", st) ;
    gcu_staging_stats_t ss ;
    gcu_staging_stats (&ss) ;
    printf ("small pool: %llu chunks, %llu direct, %llu bounce; %d buffers\n",
        (unsigned long long) ss.chunks, (unsigned long long) ss.direct,
        (unsigned long long) ss.bounce, ss.nbuf) ;
    CHECK (ss.nbuf == GCU_STAGING_NBUF, "pool of %d buffers, expected %d", ss.nbuf, GCU_STAGING_NBUF) ;
    CHECK (ss.chunks > 100 && ss.bounce == 0, "the pipeline was not used") ;

    // no pool: every copy takes the fallback (direct, or through a bounce buffer)
    OK (gcu_staging_configure (0, 64 << 10, 4 << 10)) ;
    gcu_staging_stats_reset () ;
    sizes_sweep (64 << 10, "no pool", st) ;
    gcu_staging_stats (&ss) ;
    CHECK (ss.chunks == 0 && ss.bounce > 0 && ss.direct > 0, "no pool: chunks %llu bounce %llu direct %llu",
        (unsigned long long) ss.chunks, (unsigned long long) ss.bounce, (unsigned long long) ss.direct) ;

    // the default pool: a few 32 MiB chunks and a remainder
    OK (gcu_staging_configure (GCU_STAGING_NBUF, GCU_STAGING_BYTES, GCU_STAGING_DIRECT)) ;
    round_trip ((size_t) 100 << 20, 1, 1, st, "default pool") ;
    round_trip (((size_t) 20 << 20) + 17, 8, 4, st, "default pool") ;
    round_trip (((size_t) 20 << 20) + 17, 4, 8, st, "default pool") ;
    round_trip (GCU_STAGING_DIRECT / 8 - 1, 8, 8, st, "default pool (direct)") ;
    pool_idle ("default pool") ;

    // bad widths are refused
    char x [8] ;
    CHECK (gcu_h2d_staged (x, x, 1, 8, 2, gcu_stream_default ()) == GrB_INVALID_VALUE, "8 -> 2 accepted") ;
    CHECK (gcu_d2h_staged (x, x, 1, 0, 0, gcu_stream_default ()) == GrB_INVALID_VALUE, "0 -> 0 accepted") ;
}

// Several downloads in one pipeline (gcu_d2h_staged_segs): segments of
// each width pair and many sizes (empty, below a chunk, across chunks),
// uploaded plainly, downloaded together, compared element by element.
static void segments (size_t buf_bytes, uint64_t *st, const char *what)
{
    enum { NS = 6 } ;
    gcu_stream s = gcu_stream_default () ;
    const size_t ce = buf_bytes / 8 ;
    const size_t sizes [][NS] = {
        { ce + 3, 5 * ce + 1, 0, 1, 2 * ce, 17 },
        { 0, 0, 1, 0, 0, 0 },
        { 3, 5, 7, 9, 11, 13 },
        { 4 * ce, 1, ce - 1, 3 * ce + 5, 2, ce } } ;
    // device width, host width of each segment (the widening of indices,
    // plain copies of 1, 4, 8 and 16 bytes)
    const int dw [NS] = { 4, 1, 8, 16, 4, 4 }, hw [NS] = { 8, 1, 8, 16, 4, 8 } ;
    for (size_t t = 0 ; t < sizeof (sizes) / sizeof (sizes [0]) ; t++)
    {
        void *H [NS] = { 0 }, *R [NS] = { 0 }, *D [NS] = { 0 } ;
        gcu_d2h_seg seg [NS] ;
        bool ok = true ;
        for (int k = 0 ; k < NS && ok ; k++)
        {
            const size_t n = sizes [t][k] ;
            H [k] = random_array (n, dw [k], false, st) ;
            R [k] = malloc (n * (size_t) hw [k] + 1) ;
            ok = H [k] != NULL && R [k] != NULL
                && gcu_dmalloc (&D [k], n * (size_t) dw [k] + 1, s) == GrB_SUCCESS
                && gcu_h2d_staged (D [k], H [k], n, dw [k], dw [k], s) == GrB_SUCCESS ;
            if (ok) memset (R [k], 0xA5, n * (size_t) hw [k]) ;
            seg [k] = (gcu_d2h_seg) { R [k], D [k], n, dw [k], hw [k] } ;
        }
        GrB_Info info = GrB_SUCCESS ;
        if (ok && t == 0)
        {
            // every counted copy of the call fails in turn: an error, and no
            // buffer left checked out
            gcu_fault_inject (1 << 30) ;
            info = gcu_d2h_staged_segs (seg, NS, s) ;
            const int64_t nops = gcu_fault_count () ;
            for (int64_t f = 1 ; f <= nops && info == GrB_SUCCESS ; f++)
            {
                gcu_fault_inject (f) ;
                GrB_Info fi = gcu_d2h_staged_segs (seg, NS, s) ;
                CHECK (fi == GrB_PANIC || fi == GrB_OUT_OF_MEMORY, "%s: fault %lld: info %d", what, (long long) f, (int) fi) ;
                pool_idle (what) ;
            }
            gcu_fault_inject (0) ;
        }
        if (ok && info == GrB_SUCCESS) info = gcu_d2h_staged_segs (seg, NS, s) ;
        else if (!ok) info = GrB_PANIC ;
        CHECK (info == GrB_SUCCESS, "%s: segments %zu: info %d", what, t, (int) info) ;
        int64_t bad = 0 ;
        for (int k = 0 ; k < NS && info == GrB_SUCCESS ; k++)
            for (size_t e = 0 ; e < sizes [t][k] ; e++)
                bad += elem (H [k], dw [k], e) != elem (R [k], hw [k], e) ;
        CHECK (bad == 0, "%s: segments %zu: %lld elements differ", what, t, (long long) bad) ;
        for (int k = 0 ; k < NS ; k++) { gcu_dfree (D [k], s) ; free (H [k]) ; free (R [k]) ; }
        gcu_sync (s) ;
    }
    // a bad width pair anywhere refuses the whole call
    char x [8] ;
    gcu_d2h_seg badseg [2] = { { x, x, 1, 4, 8 }, { x, x, 1, 8, 2 } } ;
    CHECK (gcu_d2h_staged_segs (badseg, 2, s) == GrB_INVALID_VALUE, "%s: 8 -> 2 accepted", what) ;
    pool_idle (what) ;
}

//------------------------------------------------------------------------------
// (b) threads
//------------------------------------------------------------------------------

typedef struct { int id ; int64_t bad ; } thread_arg ;

static void *thread_main (void *p)
{
    thread_arg *a = p ;
    uint64_t st = 1000 + (uint64_t) a->id ;
    for (int r = 0 ; r < 12 ; r++)
    {
        const int w = (a->id + r) % NWIDTHS ;
        size_t n = 1 + gcu_rand (&st) % (300000) ;
        int64_t b = round_trip_raw (n, widths [w][0], widths [w][1], &st, "threads") ;
        a->bad += (b != 0) ;
    }
    gcu_sync (gcu_stream_default ()) ;
    return NULL ;
}

static void threads (void)
{
    OK (gcu_staging_configure (GCU_STAGING_NBUF, 64 << 10, 4 << 10)) ;
    gcu_staging_stats_reset () ;
    enum { NTH = 8 } ;
    pthread_t th [NTH] ;
    thread_arg arg [NTH] ;
    for (int t = 0 ; t < NTH ; t++)
    {
        arg [t] = (thread_arg) { t, 0 } ;
        pthread_create (&th [t], NULL, thread_main, &arg [t]) ;
    }
    for (int t = 0 ; t < NTH ; t++) pthread_join (th [t], NULL) ;
    for (int t = 0 ; t < NTH ; t++) CHECK (arg [t].bad == 0, "thread %d: %lld bad round trips", t, (long long) arg [t].bad) ;
    gcu_staging_stats_t ss ;
    gcu_staging_stats (&ss) ;
    printf ("threads: %llu chunks, %llu direct, %llu bounce\n", (unsigned long long) ss.chunks,
        (unsigned long long) ss.direct, (unsigned long long) ss.bounce) ;
    pool_idle ("threads") ;
}

//------------------------------------------------------------------------------
// (c) fault injection in staged copies
//------------------------------------------------------------------------------

static void copy_faults (int nbuf, int hw, int dw, bool h2d, uint64_t *st)
{
    OK (gcu_staging_configure (nbuf, 64 << 10, 4 << 10)) ;
    gcu_stream s = gcu_stream_default () ;
    const size_t n = 3 * ((64 << 10) / (size_t) dw) + 77 ;      // 4 chunks (device width)
    void *H = random_array (n, hw, hw == 8 && dw == 4, st) ;
    void *R = malloc (n * (size_t) hw) ;
    void *D = NULL ;
    OK (gcu_dmalloc (&D, n * (size_t) dw, s)) ;
    OK (gcu_h2d_staged (D, H, n, hw, dw, s)) ;      // the device image (for d2h)
    gcu_sync (s) ;
    const int64_t base = gcu_device_bytes_in_use () ;
    // how many counted operations one copy makes
    gcu_fault_inject ((int64_t) 1 << 40) ;
    GrB_Info info = h2d ? gcu_h2d_staged (D, H, n, hw, dw, s) : gcu_d2h_staged (R, D, n, dw, hw, s) ;
    int64_t nops = gcu_fault_count () ;
    gcu_fault_inject (0) ;
    OK (info) ;
    CHECK (nops >= (nbuf > 0 || hw != dw ? 4 : 1), "%s %d <-> %d, %d buffers: only %lld counted operations",
        h2d ? "h2d" : "d2h", hw, dw, nbuf, (long long) nops) ;
    for (int64_t f = 1 ; f <= nops ; f++)
    {
        gcu_fault_inject (f) ;
        info = h2d ? gcu_h2d_staged (D, H, n, hw, dw, s) : gcu_d2h_staged (R, D, n, dw, hw, s) ;
        gcu_fault_inject (0) ;
        CHECK (info == GrB_PANIC || info == GrB_OUT_OF_MEMORY, "%s, %d buffers, fault %lld: info %d",
            h2d ? "h2d" : "d2h", nbuf, (long long) f, (int) info) ;
        pool_idle ("after a fault") ;
        gcu_sync (s) ;
        CHECK (gcu_device_bytes_in_use () == base, "fault %lld: device memory %lld, was %lld",
            (long long) f, (long long) gcu_device_bytes_in_use (), (long long) base) ;
        // and the next copy is right
        memset (R, 0, n * (size_t) hw) ;
        if (h2d) OK (gcu_h2d_staged (D, H, n, hw, dw, s)) ;
        OK (gcu_d2h_staged (R, D, n, dw, hw, s)) ;
        CHECK (memcmp (R, H, n * (size_t) hw) == 0, "fault %lld: the next copy is wrong", (long long) f) ;
    }
    printf ("copy faults: %s %d<->%d, %d buffers: %lld operations failed in turn\n",
        h2d ? "h2d" : "d2h", hw, dw, nbuf, (long long) nops) ;
    gcu_dfree (D, s) ;
    gcu_sync (s) ;
    free (H) ; free (R) ;
}

//------------------------------------------------------------------------------
// (d) GrB_mxm with cached operands, under fault injection
//------------------------------------------------------------------------------

// bytes the cache holds after evicting everything unpinned
static size_t pinned_bytes (void)
{
    size_t budget = gcu_residency_budget () ;
    gcu_residency_set_budget (0) ;
    gcu_res_stats rs ;
    gcu_residency_stats (&rs) ;
    gcu_residency_set_budget (budget) ;
    return rs.bytes_used ;
}

typedef struct
{
    const char *name ;
    GrB_Matrix M, A, B ;
    GrB_Descriptor d ;
}
mxm_case ;

static GrB_Info run_case (const mxm_case *c, GrB_Matrix *C, bool real)
{
    GrB_Index m, n ;
    GrB_Index ar, ac, br, bc ;
    GrB_Desc_Value ta = GxB_DEFAULT, tb = GxB_DEFAULT ;
    if (c->d != NULL) { GxB_Descriptor_get (&ta, c->d, GrB_INP0) ; GxB_Descriptor_get (&tb, c->d, GrB_INP1) ; }
    GrB_Matrix_nrows (&ar, c->A) ; GrB_Matrix_ncols (&ac, c->A) ;
    GrB_Matrix_nrows (&br, c->B) ; GrB_Matrix_ncols (&bc, c->B) ;
    m = (ta == GrB_TRAN) ? ac : ar ;
    n = (tb == GrB_TRAN) ? br : bc ;
    GrB_Matrix_new (C, GrB_FP64, m, n) ;
    return (real ? real_mxm : GrB_mxm) (*C, c->M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, c->A, c->B, c->d) ;
}

static void mxm_faults (const mxm_case *c, bool hit)
{
    GrB_Matrix Cref = NULL, C = NULL ;
    run_case (c, &Cref, true) ;
    gcu_stream s = gcu_stream_default () ;
    // how many counted operations one call makes, on a miss or a hit
    gcu_residency_clear_all () ;
    if (hit)
    {
        OK (run_case (c, &C, false)) ;
        GrB_Matrix_free (&C) ;
    }
    gcu_fault_inject ((int64_t) 1 << 40) ;
    OK (run_case (c, &C, false)) ;
    int64_t nops = gcu_fault_count () ;
    gcu_fault_inject (0) ;
    CHECK (gcu_test_matrix_equal (C, Cref, 1e-12, false, c->name), "%s: wrong answer", c->name) ;
    GrB_Matrix_free (&C) ;
    gcu_sync (s) ;
    const int64_t base = gcu_device_bytes_in_use () ;
    CHECK (nops > 3, "%s: only %lld counted operations", c->name, (long long) nops) ;
    for (int64_t f = 1 ; f <= nops ; f++)
    {
        if (!hit) gcu_residency_clear_all () ;
        grbcuda_op_stats s0, s1 ;
        grbcuda_stats_get ("GrB_mxm", &s0) ;
        gcu_fault_inject (f) ;
        GrB_Info info = run_case (c, &C, false) ;
        gcu_fault_inject (0) ;
        grbcuda_stats_get ("GrB_mxm", &s1) ;
        char what [128] ;
        snprintf (what, sizeof (what), "%s, %s, fault at operation %lld", c->name, hit ? "hit" : "miss", (long long) f) ;
        CHECK (info == GrB_SUCCESS, "%s: info %d", what, (int) info) ;
        CHECK (s1.reason [GRBCUDA_REASON_GPU_FAILED] == s0.reason [GRBCUDA_REASON_GPU_FAILED] + 1,
            "%s: not reported as a GPU failure", what) ;
        CHECK (gcu_test_matrix_equal (C, Cref, 1e-12, false, what), "%s: wrong answer", what) ;
        GrB_Matrix_free (&C) ;
        gcu_sync (s) ;
        CHECK (gcu_device_bytes_in_use () == base, "%s: device memory %lld, was %lld", what,
            (long long) gcu_device_bytes_in_use (), (long long) base) ;
        CHECK (pinned_bytes () == 0, "%s: a cache entry is still pinned", what) ;
        pool_idle (what) ;
        if (hit)
        {
            // the eviction above emptied the cache: warm it again
            OK (run_case (c, &C, false)) ;
            GrB_Matrix_free (&C) ;
        }
    }
    printf ("mxm faults: %s on a %s: %lld operations failed in turn\n", c->name,
        hit ? "hit" : "miss", (long long) nops) ;
    GrB_Matrix_free (&Cref) ;
}

static void mxm_fault_loops (uint64_t *st)
{
    OK (gcu_staging_configure (GCU_STAGING_NBUF, 64 << 10, 4 << 10)) ;
    GrB_Matrix A = gcu_test_random_matrix (GrB_FP64, 300, 300, 0.05, st) ;
    GrB_Matrix B = gcu_test_random_matrix (GrB_FP64, 300, 300, 0.05, st) ;
    GrB_Matrix M = gcu_test_random_matrix (GrB_BOOL, 300, 300, 0.2, st) ;
    GrB_Matrix_wait (A, GrB_MATERIALIZE) ;
    GrB_Matrix_wait (B, GrB_MATERIALIZE) ;
    GrB_Matrix_wait (M, GrB_MATERIALIZE) ;
    const mxm_case cases [] =
    {
        { "saxpy A*B", NULL, A, B, NULL },
        { "saxpy A*A", NULL, A, A, NULL },
        { "dot C<M>=A*B'", M, A, B, GrB_DESC_T1 },
        { "dot C<A>=A*A'", A, A, A, GrB_DESC_T1 },
    } ;
    for (size_t k = 0 ; k < sizeof (cases) / sizeof (cases [0]) ; k++)
    {
        mxm_faults (&cases [k], false) ;
        mxm_faults (&cases [k], true) ;
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&M) ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!grbcuda_gpu_available ())
    {
        printf ("SKIP: no usable GPU; test_staging_gpu needs one\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    real_mxm = (mxm_t) gcu_test_real ("GrB_mxm") ;
    gcu_test_types_init () ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    uint64_t st = 77 ;
    round_trips (&st) ;
    OK (gcu_staging_configure (GCU_STAGING_NBUF, 64 << 10, 4 << 10)) ;
    segments (64 << 10, &st, "segments, small pool") ;
    OK (gcu_staging_configure (0, 64 << 10, 4 << 10)) ;
    segments (64 << 10, &st, "segments, no pool") ;
    OK (gcu_staging_configure (GCU_STAGING_NBUF, GCU_STAGING_BYTES, GCU_STAGING_DIRECT)) ;
    threads () ;
    for (int nbuf = 0 ; nbuf <= 2 ; nbuf += 2)
    {
        copy_faults (nbuf, 8, 4, true, &st) ;
        copy_faults (nbuf, 8, 4, false, &st) ;
        copy_faults (nbuf, 1, 1, true, &st) ;
        copy_faults (nbuf, 1, 1, false, &st) ;
    }
    mxm_fault_loops (&st) ;
    OK (gcu_staging_configure (GCU_STAGING_NBUF, GCU_STAGING_BYTES, GCU_STAGING_DIRECT)) ;
    grbcuda_set_mode (GRBCUDA_MODE_AUTO) ;
    gcu_staging_release () ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_staging_gpu") ;
}
