// threshold.c — measures the work threshold of grbcuda's auto mode (issue 5):
// for a ladder of GrB_mxm problem sizes it times the call on the host
// (mode host: SuiteSparse) and on the GPU (mode gpu), prints the dispatch's
// work estimate for each, and reports per operation family the crossover: the
// smallest work estimate from which the GPU (cold operands) beats the host at
// every larger size measured. The recommended GRBCUDA_THRESHOLD is the
// largest crossover over the families.
//
//   threshold [--max-scale S] [--min-scale S] [--repeats N] [--max-host-ms M]
//             [--threads T]
//
// Families (each on urand-S-8 and rmat-S-8, S = min-scale .. max-scale):
//   spgemm  C = A*A         PLUS_TIMES_FP64   (SpGEMM saxpy)
//   tc_ll   C<L,struct> = L*L  PLUS_PAIR_INT64 (masked saxpy)
//   tc_dot  C<L,struct> = L*U' PLUS_PAIR_INT64 (masked dot)
// A ladder (family, graph kind) stops after the first size whose host call
// takes longer than --max-host-ms (default 500): the crossover lies far below,
// and the largest R-MAT products would take minutes and tens of GB.
//
// Linked with grbcuda (first) and GraphBLAS, so GrB_mxm is grbcuda's and the
// grbcuda_* control functions are called directly. Without a usable GPU,
// mode gpu passes every call through: the program says so and prints host
// times only. Markdown on stdout (appended to bench/RESULTS.md by
// scripts/gpu_suite.sh); progress on stderr.
#include "graphgen.h"
#include "grbcuda.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

//------------------------------------------------------------------------------
// the work estimate, as the dispatch computes it
//------------------------------------------------------------------------------

// Keep in sync with src/dispatch/dispatch.c, check(), the GCU_OP_MXM branch
// (line 102: c->work = a_nvals * b_nvals / k, k = the columns of op(A), 1 if
// none): the expected multiply-adds under uniform spreading. The mask is not
// part of it.
static double work_estimate (GrB_Matrix A, GrB_Matrix B, bool tran_a)
{
    GrB_Index anz = 0, bnz = 0, ac = 0 ;
    GrB_Matrix_nvals (&anz, A) ;
    GrB_Matrix_nvals (&bnz, B) ;
    if (tran_a) GrB_Matrix_nrows (&ac, A) ; else GrB_Matrix_ncols (&ac, A) ;
    double k = ac > 0 ? (double) ac : 1.0 ;
    return (double) anz * (double) bnz / k ;
}

//------------------------------------------------------------------------------
// families and measured points
//------------------------------------------------------------------------------

typedef enum { F_SPGEMM = 0, F_TC_LL, F_TC_DOT, NFAM } fam_id ;

static const char *fam_name [NFAM] = { "spgemm", "tc_ll", "tc_dot" } ;
static const char *fam_what [NFAM] =
{
    "C = A*A, PLUS_TIMES_FP64 (SpGEMM saxpy)",
    "C<L,struct> = L*L, PLUS_PAIR_INT64 (masked saxpy)",
    "C<L,struct> = L*U', PLUS_PAIR_INT64 (masked dot)",
} ;

// One GrB_mxm: C<M> = op(A)*op(B)
typedef struct
{
    GrB_Matrix M, A, B ;
    GrB_Semiring semiring ;
    GrB_Descriptor desc ;
    GrB_Type ctype ;
    GrB_Index nrows, ncols ;
    bool tran_a ;
}
mxm_args ;

typedef struct
{
    fam_id fam ;
    char graph [32] ;
    GrB_Index n, anz ;
    double work ;
    double host, warm, cold ;   // medians, seconds (warm/cold < 0: not measured)
    double kernel ;             // mean kernel time of the warm repeats (< 0: none)
    int reps ;
    bool gpu_ok ;               // every GPU-mode call ran on the GPU, result checked
    char note [96] ;
}
point ;

#define MAXPTS 256
static point pts [MAXPTS] ;
static int npts = 0 ;

//------------------------------------------------------------------------------
// timing
//------------------------------------------------------------------------------

#define TRY(x) do { GrB_Info i_ = (x) ; if (i_ != GrB_SUCCESS) { \
    fprintf (stderr, "threshold: %s failed (%d) at %s:%d\n", #x, (int) i_, \
    __FILE__, __LINE__) ; return i_ ; } } while (0)

// One call into a fresh C, timed end to end (GrB_mxm and the wait that
// finishes C: a lazily finished result is not a fast one). C is kept when
// Cout is given, else freed (untimed).
static GrB_Info one_call (double *t, const mxm_args *a, GrB_Matrix M,
    GrB_Matrix A, GrB_Matrix B, GrB_Matrix *Cout)
{
    GrB_Matrix C = NULL ;
    TRY (GrB_Matrix_new (&C, a->ctype, a->nrows, a->ncols)) ;
    double t0 = gg_now () ;
    GrB_Info info = GrB_mxm (C, M, NULL, a->semiring, A, B, a->desc) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_wait (C, GrB_MATERIALIZE) ;
    *t = gg_now () - t0 ;
    if (info != GrB_SUCCESS || Cout == NULL) GrB_Matrix_free (&C) ;
    else *Cout = C ;
    if (info != GrB_SUCCESS) fprintf (stderr, "threshold: GrB_mxm failed (%d)\n", (int) info) ;
    return info ;
}

// Median of reps calls with the same operands.
static GrB_Info time_warm (double *med, const mxm_args *a, int reps)
{
    double t [64] ;
    for (int r = 0 ; r < reps ; r++) TRY (one_call (&t [r], a, a->M, a->A, a->B, NULL)) ;
    *med = gg_median (t, reps) ;
    return GrB_SUCCESS ;
}

static GrB_Info dup_waited (GrB_Matrix *D, GrB_Matrix X)
{
    TRY (GrB_Matrix_dup (D, X)) ;
    return GrB_Matrix_wait (*D, GrB_MATERIALIZE) ;
}

// Median of reps calls, each on fresh copies of the operands (dup'ed,
// untimed): new handles, so nothing of them is on the device yet and every
// call uploads them. Operands that are the same object stay the same object.
static GrB_Info time_cold (double *med, const mxm_args *a, int reps)
{
    double t [64] ;
    for (int r = 0 ; r < reps ; r++)
    {
        GrB_Matrix A = NULL, B = NULL, M = NULL ;
        GrB_Info info = dup_waited (&A, a->A) ;
        if (info == GrB_SUCCESS)
            info = (a->B == a->A) ? (B = A, GrB_SUCCESS) : dup_waited (&B, a->B) ;
        if (info == GrB_SUCCESS && a->M != NULL)
            info = (a->M == a->A) ? (M = A, GrB_SUCCESS)
                 : (a->M == a->B) ? (M = B, GrB_SUCCESS) : dup_waited (&M, a->M) ;
        if (info == GrB_SUCCESS) info = one_call (&t [r], a, M, A, B, NULL) ;
        if (M != A && M != B) GrB_Matrix_free (&M) ;
        if (B != A) GrB_Matrix_free (&B) ;
        GrB_Matrix_free (&A) ;
        if (info != GrB_SUCCESS) return info ;
    }
    *med = gg_median (t, reps) ;
    return GrB_SUCCESS ;
}

static grbcuda_op_stats stats_now (void)
{
    grbcuda_op_stats s ;
    memset (&s, 0, sizeof (s)) ;
    grbcuda_stats_get ("GrB_mxm", &s) ;
    return s ;
}

// The GPU's result against the host's: same pattern size, same sum (the
// families' values are small integers, or sums of ones in FP64, so the sums
// agree to rounding).
static GrB_Info same_result (bool *ok, GrB_Matrix H, GrB_Matrix G)
{
    GrB_Index hn = 0, gn = 0 ;
    double hs = 0, gs = 0 ;
    TRY (GrB_Matrix_nvals (&hn, H)) ;
    TRY (GrB_Matrix_nvals (&gn, G)) ;
    TRY (GrB_Matrix_reduce_FP64 (&hs, NULL, GrB_PLUS_MONOID_FP64, H, NULL)) ;
    TRY (GrB_Matrix_reduce_FP64 (&gs, NULL, GrB_PLUS_MONOID_FP64, G, NULL)) ;
    *ok = (hn == gn) && fabs (hs - gs) <= 1e-9 * fmax (fabs (hs), 1.0) ;
    return GrB_SUCCESS ;
}

static int max_reps = 5 ;
static bool have_gpu = false ;

// Host, then GPU warm, then GPU cold, for one family on one graph.
static GrB_Info measure (point *p, const mxm_args *a)
{
    GrB_Matrix Ch = NULL, Cg = NULL ;
    double t ;
    p->warm = p->cold = p->kernel = -1 ;
    p->gpu_ok = false ;
    p->note [0] = '\0' ;

    // host: one warm-up call (kept for the check), then the repeats
    TRY (grbcuda_set_mode (GRBCUDA_MODE_HOST)) ;
    grbcuda_op_stats s0 = stats_now () ;
    TRY (one_call (&t, a, a->M, a->A, a->B, &Ch)) ;
    grbcuda_op_stats s1 = stats_now () ;
    if (s1.calls == s0.calls)
    {
        fprintf (stderr, "threshold: GrB_mxm did not reach grbcuda (is "
            "libgrbcuda linked before libgraphblas?)\n") ;
        GrB_Matrix_free (&Ch) ;
        return GrB_PANIC ;
    }
    // big calls: fewer repeats (the crossover lies far below them)
    p->reps = (t > 0.2 && max_reps > 3) ? 3 : max_reps ;
    GrB_Info info = time_warm (&p->host, a, p->reps) ;
    if (info != GrB_SUCCESS || !have_gpu) { GrB_Matrix_free (&Ch) ; return info ; }

    // GPU: warm-up call (JIT compilation, first upload; checked against the
    // host's result), warm repeats (operands resident), cold repeats
    TRY (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    s0 = stats_now () ;
    info = one_call (&t, a, a->M, a->A, a->B, &Cg) ;
    bool same = false ;
    if (info == GrB_SUCCESS) info = same_result (&same, Ch, Cg) ;
    GrB_Matrix_free (&Ch) ;
    GrB_Matrix_free (&Cg) ;
    s1 = stats_now () ;
    if (info == GrB_SUCCESS) info = time_warm (&p->warm, a, p->reps) ;
    grbcuda_op_stats s2 = stats_now () ;
    if (info == GrB_SUCCESS) info = time_cold (&p->cold, a, p->reps) ;
    grbcuda_op_stats s3 = stats_now () ;
    grbcuda_set_mode (GRBCUDA_MODE_HOST) ;
    if (info != GrB_SUCCESS) return info ;

    uint64_t calls = s3.calls - s0.calls, gpu = s3.gpu - s0.gpu ;
    if (s2.gpu_kernel_calls > s1.gpu_kernel_calls)
        p->kernel = (s2.gpu_kernel_seconds - s1.gpu_kernel_seconds)
            / (double) (s2.gpu_kernel_calls - s1.gpu_kernel_calls) ;
    if (!same)
    {
        snprintf (p->note, sizeof (p->note), "GPU RESULT DIFFERS from the host's") ;
    }
    else if (gpu != calls)
    {
        // the most frequent host reason among the GPU-mode calls
        int why = 1 ;
        for (int r = 1 ; r < GRBCUDA_NREASONS ; r++)
            if (s3.reason [r] - s0.reason [r] > s3.reason [why] - s0.reason [why]) why = r ;
        snprintf (p->note, sizeof (p->note), "%llu of %llu GPU-mode calls on the host (%s)",
            (unsigned long long) (calls - gpu), (unsigned long long) calls,
            grbcuda_reason_name ((grbcuda_reason) why)) ;
    }
    else p->gpu_ok = true ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// crossover
//------------------------------------------------------------------------------

static int cmp_work (const void *x, const void *y)
{
    double a = (*(point *const *) x)->work, b = (*(point *const *) y)->work ;
    return (a > b) - (a < b) ;
}

// The family's points with a valid GPU time, by increasing work. Returns the
// index of the first point from which the GPU (cold: t = cold, else warm) is
// faster at every larger size; n when it is slower at the largest.
static int crossover (point **v, int n, bool cold)
{
    int first = n ;
    for (int i = n - 1 ; i >= 0 ; i--)
    {
        double g = cold ? v [i]->cold : v [i]->warm ;
        if (g < v [i]->host) first = i ; else break ;
    }
    return first ;
}

// A round value in (lo, hi]: hi rounded down to two significant digits, or hi.
static double round_threshold (double lo, double hi)
{
    if (hi <= 0) return hi ;
    double e = pow (10.0, floor (log10 (hi)) - 1) ;
    double r = floor (hi / e) * e ;
    return (r > lo) ? r : hi ;
}

static void ms (char *buf, size_t len, double s)
{
    if (s < 0) snprintf (buf, len, "—") ;
    else if (s < 1e-3) snprintf (buf, len, "%.3f", 1e3 * s) ;
    else if (s < 1) snprintf (buf, len, "%.2f", 1e3 * s) ;
    else snprintf (buf, len, "%.0f", 1e3 * s) ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

static void usage (void)
{
    fprintf (stderr, "usage: threshold [--max-scale S] [--min-scale S] "
        "[--repeats N] [--max-host-ms M] [--threads T]\n") ;
}

int main (int argc, char **argv)
{
    int max_scale = 18, min_scale = 8, threads = 0 ;
    double max_host = 0.5 ;
    for (int a = 1 ; a < argc ; a++)
    {
        const char *v = (a + 1 < argc) ? argv [a + 1] : NULL ;
        if (v == NULL) { usage () ; return 2 ; }
        if (strcmp (argv [a], "--max-scale") == 0) max_scale = atoi (v) ;
        else if (strcmp (argv [a], "--min-scale") == 0) min_scale = atoi (v) ;
        else if (strcmp (argv [a], "--repeats") == 0) max_reps = atoi (v) ;
        else if (strcmp (argv [a], "--max-host-ms") == 0) max_host = 1e-3 * atof (v) ;
        else if (strcmp (argv [a], "--threads") == 0) threads = atoi (v) ;
        else { usage () ; return 2 ; }
        a++ ;
    }
    if (min_scale < 4 || max_scale > 26 || min_scale > max_scale
        || max_reps < 1 || max_reps > 64 || !(max_host > 0))
    {
        usage () ;
        return 2 ;
    }
    if (gg_init (threads) != GrB_SUCCESS) { fprintf (stderr, "threshold: GrB_init failed\n") ; return 1 ; }
    int32_t gb_threads = 0 ;
    GxB_Global_Option_get_INT32 (GxB_NTHREADS, &gb_threads) ;

    have_gpu = grbcuda_gpu_available () != 0 ;
    char gpu_name [256] = "" ;
    int sms = 0, ccmaj = 0, ccmin = 0 ;
    size_t gmem = 0 ;
    if (have_gpu) grbcuda_gpu_info (gpu_name, &sms, &ccmaj, &ccmin, &gmem) ;
    double t_start = gg_now () ;

    // the ladder: kind x scale x family, a (kind, family) ladder stopping
    // after its first call over max_host
    const char *kinds [2] = { "urand", "rmat" } ;
    for (int kind = 0 ; kind < 2 ; kind++)
    {
        bool stopped [NFAM] = { false } ;
        for (int s = min_scale ; s <= max_scale ; s++)
        {
            if (stopped [F_SPGEMM] && stopped [F_TC_LL] && stopped [F_TC_DOT]) break ;
            GrB_Matrix A = NULL ;
            GrB_Info info = kind == 0 ? gg_urand (&A, s, 8, GG_DEFAULT_SEED)
                                      : gg_rmat (&A, s, 8, GG_DEFAULT_SEED) ;
            GrB_Matrix L = NULL, U = NULL ;
            GrB_Index n = 0, anz = 0 ;
            if (info == GrB_SUCCESS) info = GrB_Matrix_nrows (&n, A) ;
            if (info == GrB_SUCCESS) info = GrB_Matrix_new (&L, GrB_FP64, n, n) ;
            if (info == GrB_SUCCESS) info = GrB_Matrix_new (&U, GrB_FP64, n, n) ;
            if (info == GrB_SUCCESS) info = GrB_Matrix_select_INT64 (L, NULL, NULL, GrB_TRIL, A, -1, NULL) ;
            if (info == GrB_SUCCESS) info = GrB_Matrix_select_INT64 (U, NULL, NULL, GrB_TRIU, A, 1, NULL) ;
            if (info == GrB_SUCCESS) info = GrB_Matrix_wait (L, GrB_MATERIALIZE) ;
            if (info == GrB_SUCCESS) info = GrB_Matrix_wait (U, GrB_MATERIALIZE) ;
            if (info != GrB_SUCCESS)
            {
                fprintf (stderr, "threshold: making %s-%d-8 failed (%d)\n", kinds [kind], s, (int) info) ;
                return 1 ;
            }
            for (int f = 0 ; f < NFAM ; f++)
            {
                if (stopped [f]) continue ;
                if (npts >= MAXPTS) break ;
                mxm_args a = { 0 } ;
                a.nrows = a.ncols = n ;
                if (f == F_SPGEMM)
                {
                    a.A = a.B = A ; a.semiring = GrB_PLUS_TIMES_SEMIRING_FP64 ;
                    a.ctype = GrB_FP64 ;
                }
                else
                {
                    a.M = a.A = L ; a.B = (f == F_TC_LL) ? L : U ;
                    a.semiring = GxB_PLUS_PAIR_INT64 ; a.ctype = GrB_INT64 ;
                    a.desc = (f == F_TC_LL) ? GrB_DESC_S : GrB_DESC_ST1 ;
                }
                point *p = &pts [npts] ;
                memset (p, 0, sizeof (*p)) ;
                p->fam = (fam_id) f ;
                snprintf (p->graph, sizeof (p->graph), "%s-%d-8", kinds [kind], s) ;
                p->n = n ;
                GrB_Matrix_nvals (&anz, a.A) ;
                p->anz = anz ;
                p->work = work_estimate (a.A, a.B, a.tran_a) ;
                info = measure (p, &a) ;
                if (info == GrB_PANIC) return 1 ;
                if (info != GrB_SUCCESS)
                {
                    // a failed call (out of memory, ...) ends this ladder
                    fprintf (stderr, "threshold: %s on %s failed (%d); its ladder stops\n",
                        fam_name [f], p->graph, (int) info) ;
                    grbcuda_set_mode (GRBCUDA_MODE_HOST) ;
                    stopped [f] = true ;
                    continue ;
                }
                npts++ ;
                fprintf (stderr, "threshold: %-6s %-11s work %9.3g  host %9.3f ms",
                    fam_name [f], p->graph, p->work, 1e3 * p->host) ;
                if (have_gpu) fprintf (stderr, "  gpu warm %9.3f ms  cold %9.3f ms",
                    1e3 * p->warm, 1e3 * p->cold) ;
                fprintf (stderr, "  (%.0f s)%s%s\n", gg_now () - t_start,
                    p->note [0] ? "  " : "", p->note) ;
                if (p->host > max_host) stopped [f] = true ;
            }
            GrB_Matrix_free (&A) ;
            GrB_Matrix_free (&L) ;
            GrB_Matrix_free (&U) ;
        }
    }
    grbcuda_set_mode (GRBCUDA_MODE_AUTO) ;

    //--------------------------------------------------------------------------
    // the report
    //--------------------------------------------------------------------------

    printf ("- grbcuda %s; GPU: %s; SuiteSparse threads: %d; auto-mode threshold now: %.3g\n",
        grbcuda_version (), have_gpu ? gpu_name : "none usable", (int) gb_threads,
        grbcuda_get_threshold ()) ;
    printf ("- GrB_mxm timed end to end (the call and GrB_Matrix_wait of a fresh C), "
        "median of %d repeats%s after one warm-up call, so JIT compilation "
        "and the first upload are excluded\n", max_reps,
        max_reps > 3 ? " (3 where one call takes over 0.2 s)" : "") ;
    if (have_gpu)
    {
        printf ("- GPU warm: the same operands each repeat; the residency cache "
            "keeps them on the device between repeats, so no upload\n") ;
        printf ("- GPU cold: operands GrB_Matrix_dup'ed (untimed) before each "
            "call, so every call uploads them: the realistic first-use cost, "
            "and the one the crossover uses\n") ;
        printf ("- GPU kernels: mean device time of the warm calls' kernels "
            "(grbcuda statistics; — where the family does not time them)\n") ;
    }
    else
    {
        printf ("- **no usable GPU**: mode gpu passes every call through to "
            "SuiteSparse, so only host times are shown and no crossover is "
            "measured\n") ;
    }
    printf ("- work: the dispatch's estimate nnz(A)·nnz(B)/k "
        "(src/dispatch/dispatch.c, check(), GrB_mxm); a ladder stops after "
        "its first size whose host call exceeds %.0f ms\n", 1e3 * max_host) ;
    for (int f = 0 ; f < NFAM ; f++) printf ("- %s: %s\n", fam_name [f], fam_what [f]) ;
    printf ("- nnz(A): entries of the left operand (A, or L for tc_*); graphs "
        "from graph_examples/common/graphgen.c, seed %llu\n",
        (unsigned long long) GG_DEFAULT_SEED) ;
    printf ("\n") ;

    if (have_gpu)
    {
        printf ("| family | graph | n | nnz(A) | work | host ms | GPU warm ms | GPU cold ms | cold / host | GPU kernels ms | note |\n") ;
        printf ("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n") ;
    }
    else
    {
        printf ("| family | graph | n | nnz(A) | work | host ms |\n") ;
        printf ("| --- | --- | ---: | ---: | ---: | ---: |\n") ;
    }
    for (int f = 0 ; f < NFAM ; f++)
    {
        for (int i = 0 ; i < npts ; i++)
        {
            point *p = &pts [i] ;
            if (p->fam != (fam_id) f) continue ;
            char h [32], w [32], c [32], k [32] ;
            ms (h, sizeof (h), p->host) ;
            printf ("| %s | %s | %llu | %llu | %.3g | %s |", fam_name [f], p->graph,
                (unsigned long long) p->n, (unsigned long long) p->anz, p->work, h) ;
            if (have_gpu)
            {
                ms (w, sizeof (w), p->warm) ;
                ms (c, sizeof (c), p->cold) ;
                ms (k, sizeof (k), p->kernel) ;
                printf (" %s | %s | %.2f | %s | %s |", w, c,
                    p->cold > 0 && p->host > 0 ? p->cold / p->host : 0.0, k, p->note) ;
            }
            printf ("\n") ;
        }
    }
    printf ("\n") ;

    if (!have_gpu)
    {
        printf ("recommended threshold: none (no usable GPU; host times only)\n") ;
        GrB_finalize () ;
        return 0 ;
    }

    // per family: points with a valid GPU time, by work
    printf ("| family | points | GPU cold slower up to work | GPU cold faster from work on | threshold (cold) | crossover (warm) |\n") ;
    printf ("| --- | ---: | ---: | ---: | ---: | ---: |\n") ;
    double recommended = 0 ;
    int nfam_cross = 0 ;
    char never [256] = "" ;
    for (int f = 0 ; f < NFAM ; f++)
    {
        point *v [MAXPTS] ;
        int n = 0 ;
        for (int i = 0 ; i < npts ; i++)
            if (pts [i].fam == (fam_id) f && pts [i].gpu_ok) v [n++] = &pts [i] ;
        if (n == 0)
        {
            printf ("| %s | 0 | — | — | — | — |\n", fam_name [f]) ;
            continue ;
        }
        qsort (v, (size_t) n, sizeof (v [0]), cmp_work) ;
        int ic = crossover (v, n, true), iw = crossover (v, n, false) ;
        char lo [32], hi [32], th [32], wc [32] ;
        snprintf (lo, sizeof (lo), ic > 0 ? "%.3g" : "— (faster at all)", ic > 0 ? v [ic - 1]->work : 0.0) ;
        if (ic < n)
        {
            double t = round_threshold (ic > 0 ? v [ic - 1]->work : 0.0, v [ic]->work) ;
            snprintf (hi, sizeof (hi), "%.3g", v [ic]->work) ;
            snprintf (th, sizeof (th), "%s%.3g", ic == 0 ? "≤ " : "", t) ;
            if (t > recommended) recommended = t ;
            nfam_cross++ ;
        }
        else
        {
            snprintf (hi, sizeof (hi), "none (≤ %.3g)", v [n - 1]->work) ;
            snprintf (th, sizeof (th), "> %.3g", v [n - 1]->work) ;
            size_t l = strlen (never) ;
            snprintf (never + l, sizeof (never) - l, "%s%s (up to work %.3g)",
                l ? ", " : "", fam_name [f], v [n - 1]->work) ;
        }
        if (iw < n) snprintf (wc, sizeof (wc), "%.3g", v [iw]->work) ;
        else snprintf (wc, sizeof (wc), "none") ;
        printf ("| %s | %d | %s | %s | %s | %s |\n", fam_name [f], n, lo, hi, th, wc) ;
    }
    printf ("\n") ;
    if (nfam_cross == 0 && never [0] == '\0')
    {
        printf ("recommended threshold: none (no point where every GPU-mode "
            "call ran on the GPU with the host's result: see the notes)\n") ;
    }
    else if (nfam_cross == 0)
    {
        printf ("recommended threshold: none (the GPU, cold operands, is not "
            "faster at the largest size of any family: %s)\n", never) ;
    }
    else
    {
        printf ("recommended threshold: %.3g", recommended) ;
        if (never [0]) printf (" (families where the GPU never won for good, "
            "left out: %s)", never) ;
        printf ("\n") ;
    }
    GrB_finalize () ;
    return 0 ;
}
