// sddmm_variants.c — the settings of SDDMM's kernel (cuda/spmm/gcu_sddmm.cuh,
// chosen in src/mxm/mxm_masked.c) side by side on the same graph in one
// process: C<A,struct> = X*Y' PLUS_TIMES_FP32 with X and Y n-by-k, each
// variant set in turn through the GRBCUDA_SDDMM* variables (read at every
// call), for each k of --cols; grbcuda's kernel time (CUDA events, from
// grbcuda_stats: the median over the repeats) and the end-to-end time of
// the call, the last result checked against SuiteSparse's (the same call
// in mode host).
// The cuSPARSE peer (GRBCUDA_BENCH_COLS=k cusparse_peer --ops sddmm) is run
// beside it on the same workloads. Output: one JSON object per line.
//
//   sddmm_variants [--repeats N] [--seed S] [--cols 32,128] [--variants a,b] W1 [W2 ...]
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"
#include "bench_clock.h"
#include "bench_variants.h"
#include "graphgen.h"
#include "grbcuda.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// a variant: its name and its settings ("NAME=value" separated by spaces;
// the variables not named are unset)
typedef struct { const char *name, *env ; } variant ;

static const variant variants [] =
{
    { "auto", "" },
    { "runs", "GRBCUDA_SDDMM_KERNEL=runs" },
    { "runs-g16", "GRBCUDA_SDDMM_KERNEL=runs GRBCUDA_SDDMM_GROUP=16" },
    { "rows", "GRBCUDA_SDDMM_KERNEL=rows" },
    { "rows-m2", "GRBCUDA_SDDMM_KERNEL=rows GRBCUDA_SDDMM_MINB=2" },
    { "rows-m4", "GRBCUDA_SDDMM_KERNEL=rows GRBCUDA_SDDMM_MINB=4" },
    { "rows-b4", "GRBCUDA_SDDMM_KERNEL=rows GRBCUDA_SDDMM_BATCH=4" },
    { "rows-b4-m4", "GRBCUDA_SDDMM_KERNEL=rows GRBCUDA_SDDMM_BATCH=4 GRBCUDA_SDDMM_MINB=4" },
    { "rows-g16", "GRBCUDA_SDDMM_KERNEL=rows GRBCUDA_SDDMM_GROUP=16" },
    { "rows-g16-b4-m4",
      "GRBCUDA_SDDMM_KERNEL=rows GRBCUDA_SDDMM_GROUP=16 GRBCUDA_SDDMM_BATCH=4 GRBCUDA_SDDMM_MINB=4" },
    { "rows-g8", "GRBCUDA_SDDMM_KERNEL=rows GRBCUDA_SDDMM_GROUP=8" },
    { "rows-hint", "GRBCUDA_SDDMM_KERNEL=rows GRBCUDA_SDDMM_XHINT=1" },
    { "u2", "GRBCUDA_SDDMM_KERNEL=runs GRBCUDA_SDDMM_UNROLL=2" },
    { "u4", "GRBCUDA_SDDMM_KERNEL=runs GRBCUDA_SDDMM_UNROLL=4" },
    { "u8", "GRBCUDA_SDDMM_KERNEL=runs GRBCUDA_SDDMM_UNROLL=8" },
    { "runs-b16", "GRBCUDA_SDDMM_KERNEL=runs GRBCUDA_SDDMM_BATCH=16" },
    { "runs-m2", "GRBCUDA_SDDMM_KERNEL=runs GRBCUDA_SDDMM_MINB=2" },
    { "runs-m3", "GRBCUDA_SDDMM_KERNEL=runs GRBCUDA_SDDMM_MINB=3" },
    { "runs-m4", "GRBCUDA_SDDMM_KERNEL=runs GRBCUDA_SDDMM_MINB=4" },
    { "runs-m6", "GRBCUDA_SDDMM_KERNEL=runs GRBCUDA_SDDMM_MINB=6" },
    { "runs-m8", "GRBCUDA_SDDMM_KERNEL=runs GRBCUDA_SDDMM_MINB=8" },
    { "rows-b8", "GRBCUDA_SDDMM_KERNEL=rows GRBCUDA_SDDMM_BATCH=8" },
    { "rows-m6", "GRBCUDA_SDDMM_KERNEL=rows GRBCUDA_SDDMM_MINB=6" },
    // the semiring's operators throughout (GCU_SDDMM_NAT off): before the native sums
    { "nat0", "GRBCUDA_SDDMM_NAT=0" },
    { "runs-nat0", "GRBCUDA_SDDMM_KERNEL=runs GRBCUDA_SDDMM_NAT=0" },
    { "rows-nat0", "GRBCUDA_SDDMM_KERNEL=rows GRBCUDA_SDDMM_NAT=0" },
} ;
#define NVARIANTS ((int) (sizeof (variants) / sizeof (variants [0])))

static const char *const names [] =
    { "GRBCUDA_SDDMM_BATCH", "GRBCUDA_SDDMM_UNROLL", "GRBCUDA_SDDMM_GROUP",
      "GRBCUDA_SDDMM_SEG", "GRBCUDA_SDDMM_MINB", "GRBCUDA_SPMM_VEC", "GRBCUDA_SDDMM_KERNEL",
      "GRBCUDA_SDDMM_XHINT", "GRBCUDA_SDDMM_NAT" } ;

static void set_variant (const variant *v)
{
    for (size_t q = 0 ; q < sizeof (names) / sizeof (names [0]) ; q++) unsetenv (names [q]) ;
    char buf [256] ;
    snprintf (buf, sizeof (buf), "%s", v->env) ;
    for (char *save = NULL, *tok = strtok_r (buf, " ", &save) ; tok != NULL ;
        tok = strtok_r (NULL, " ", &save))
    {
        char *eq = strchr (tok, '=') ;
        if (eq == NULL) continue ;
        *eq = '\0' ;
        setenv (tok, eq + 1, 1) ;
    }
}

// C<A> = X*Y' (the previous C freed first)
typedef struct { GrB_Matrix A, X, Y, *C ; } sddmm_call ;

static GrB_Info sddmm_once (void *ctx)
{
    sddmm_call *c = ctx ;
    GrB_Matrix_free (c->C) ;
    return bu_sddmm (c->C, c->A, c->X, c->Y, NULL) ;
}

// reps calls after one warm-up call; the medians of kernel and end-to-end
// time (ms), the last result in *C
static GrB_Info run_variant (GrB_Matrix A, GrB_Matrix X, GrB_Matrix Y, int reps,
    double *kmed, double *emed, GrB_Matrix *C)
{
    sddmm_call c = { A, X, Y, C } ;
    return bv_time ("GrB_mxm", 1, reps, sddmm_once, &c, kmed, emed) ;
}

static bool wanted (const char *list, const char *name)
{
    if (list == NULL) return true ;
    const size_t n = strlen (name) ;
    for (const char *p = list ; (p = strstr (p, name)) != NULL ; p += n)
        if ((p == list || p [-1] == ',') && (p [n] == ',' || p [n] == '\0')) return true ;
    return false ;
}

static int one_k (const char *name, GrB_Matrix A, int k, uint64_t seed, int reps,
    const char *which)
{
    GrB_Matrix X = NULL, Y = NULL, R = NULL, C = NULL ;
    GrB_Index n = 0, nnz = 0 ;
    GrB_Matrix_nrows (&n, A) ;
    GrB_Matrix_nvals (&nnz, A) ;
    gg_csr ref, got ;
    memset (&ref, 0, sizeof (ref)) ;
    memset (&got, 0, sizeof (got)) ;
    int bad = bu_make_dense (&X, n, k, bu_seed_X (seed)) != GrB_SUCCESS
        || bu_make_dense (&Y, n, k, bu_seed_Y (seed)) != GrB_SUCCESS ;
    grbcuda_set_mode (GRBCUDA_MODE_HOST) ;
    bad = bad || bu_sddmm (&R, A, X, Y, NULL) != GrB_SUCCESS || gg_csr_get (&ref, R) != GrB_SUCCESS ;
    grbcuda_set_mode (GRBCUDA_MODE_GPU) ;
    for (int v = 0 ; !bad && v < NVARIANTS ; v++)
    {
        if (!wanted (which, variants [v].name)) continue ;
        set_variant (&variants [v]) ;
        double kmed = 0, emed = 0 ;
        char msg [256] = "" ;
        GrB_Info info = run_variant (A, X, Y, reps, &kmed, &emed, &C) ;
        const bu_tol tol = { 1e-5, 2.0 * k * 0x1p-24 * k, NULL } ;
        bool ok = info == GrB_SUCCESS && gg_csr_get (&got, C) == GrB_SUCCESS
            && bu_compare_csr (msg, sizeof (msg), &ref, &got, tol) ;
        if (info != GrB_SUCCESS) snprintf (msg, sizeof (msg), "GrB_Info %d", (int) info) ;
        printf ("{\"workload\":\"%s\",\"n\":%llu,\"nnz\":%llu,\"k\":%d,\"variant\":\"%s\","
            "\"kernel_median_ms\":%.4f,\"e2e_median_ms\":%.4f,\"ok\":%s,\"msg\":", name,
            (unsigned long long) n, (unsigned long long) nnz, k, variants [v].name, kmed, emed,
            ok ? "true" : "false") ;
        bu_json_str (stdout, msg) ;
        printf ("}\n") ;
        fflush (stdout) ;
        bad |= !ok ;
        gg_csr_free (&got) ;
        GrB_Matrix_free (&C) ;
    }
    set_variant (&(variant) { "", "" }) ;
    gg_csr_free (&ref) ;
    GrB_Matrix_free (&R) ; GrB_Matrix_free (&X) ; GrB_Matrix_free (&Y) ;
    return bad ;
}

static int workload (const char *name, uint64_t seed, int reps, const char *cols,
    const char *which)
{
    GrB_Matrix A = NULL ;
    char err [256] = "" ;
    if (gg_load (&A, name, seed, GG_UNDIRECTED, err, sizeof (err)) != GrB_SUCCESS)
    {
        fprintf (stderr, "sddmm_variants: %s: %s\n", name, err) ;
        return 1 ;
    }
    int bad = 0 ;
    for (const char *p = cols ; p != NULL && *p != '\0' ; )
    {
        const int k = atoi (p) ;
        if (k > 0) bad |= one_k (name, A, k, seed, reps, which) ;
        p = strchr (p, ',') ;
        if (p != NULL) p++ ;
    }
    GrB_Matrix_free (&A) ;
    return bad ;
}

int main (int argc, char **argv)
{
    int reps = 5 ;
    uint64_t seed = GG_DEFAULT_SEED ;
    const char *cols = "32,128", *which = NULL ;
    int bad = GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS ;
    for (int a = 1 ; a < argc && !bad ; a++)
    {
        if (strcmp (argv [a], "--repeats") == 0 && a + 1 < argc) reps = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--seed") == 0 && a + 1 < argc) seed = strtoull (argv [++a], NULL, 0) ;
        else if (strcmp (argv [a], "--cols") == 0 && a + 1 < argc) cols = argv [++a] ;
        else if (strcmp (argv [a], "--variants") == 0 && a + 1 < argc) which = argv [++a] ;
        else bad |= workload (argv [a], seed, reps < 1 ? 1 : reps, cols, which) ;
    }
    GrB_finalize () ;
    return bad ;
}
