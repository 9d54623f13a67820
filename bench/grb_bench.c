// grb_bench.c — the GraphBLAS side of the benchmark (issue 6, BENCH.md):
// times each operation through the GraphBLAS API on the workloads it is
// given. Built against plain GraphBLAS only; run.py runs it twice in one run:
// as is ("SuiteSparse alone") and with LD_PRELOAD=libgrbcuda.so
// ("SuiteSparse + grbcuda").
//
//   grb_bench --workload W [--workload W2 ...] [--ops spgemm,tc_dot,...]
//             [--repeats N] [--max-seconds S] [--threads T] [--seed S]
//             [--check auto|always|never]
//
// Operations: spgemm (C=A*A PLUS_TIMES_FP64), tc_dot (C<L>=L*U'), tc_ll
// (C<L>=L*L), tc_burkhardt (C<A>=A*A), bfs_levels, bfs_parents, spmv
// (y=A*x FP64), spmm (Y=A*X, X n-by-k FP32), sddmm (C<A>=X*Y', FP32); the dense operands'
// columns k: GRBCUDA_BENCH_COLS (default 32), printed as "k".
//
// For each operation: the preparation (operands), the first call (one-time
// costs: JIT, first upload, ...) and the median of the repeats that follow,
// end to end around the GraphBLAS call(s), results waited on. When grbcuda is
// loaded (found with dlsym), its statistics say whether the calls ran on the
// GPU or on the host and why, and GPU results are checked in the same process
// against SuiteSparse's own entry points (found in libgraphblas with dlopen)
// or a host oracle (triangles, BFS). A grbcuda whose statistics have layout
// version 2 or later (grbcuda_stats_version) also reports the device time of
// its GPU kernels: the median of that per repeat is given next to the end to
// end median. Output: one JSON object per line on stdout; progress on stderr.
#define _GNU_SOURCE
#include "bench_util.h"

#include <dlfcn.h>
#include <link.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

//------------------------------------------------------------------------------
// grbcuda, if it is there: found at run time, never included
//------------------------------------------------------------------------------

// Identical to grbcuda_op_stats in include/grbcuda.h (GRBCUDA_NREASONS = 7,
// GRBCUDA_STATS_VERSION 2). It is written into a larger buffer so that a
// grbcuda with a longer struct cannot write past it; the fields read here
// keep their offsets (grbcuda only appends). The fields after `seconds` are
// read only from a grbcuda that says it fills them (grbcuda_stats_version;
// a grbcuda without that function has layout 1).
#define BENCH_NREASONS 7
typedef struct
{
    uint64_t calls, gpu, host ;
    uint64_t reason [BENCH_NREASONS] ;
    double seconds ;
    // layout 2
    double gpu_kernel_seconds ;     // device time of the timed GPU calls' kernels
    uint64_t gpu_kernel_calls ;     // GPU calls whose kernels were timed
    // layout 3
    uint64_t gpu_bytes_uploaded, gpu_bytes_downloaded ;    // GPU calls' transfers
}
gcu_op_stats ;

typedef union
{
    gcu_op_stats s ;
    unsigned char room [4096] ;
}
gcu_stats_buf ;

static const char *reason_fallback [BENCH_NREASONS] =
    { "gpu", "mode_host", "args", "small", "no_gpu", "no_kernel", "gpu_failed" } ;

static struct
{
    bool present ;
    GrB_Info (*stats_get) (const char *, void *) ;
    const char *(*reason_name) (int) ;
    const char *(*version) (void) ;
    int (*gpu_available) (void) ;
    GrB_Info (*gpu_info) (char *, int *, int *, int *, size_t *) ;
    int (*stats_version_fn) (void) ;
    int stats_version ;         // layout of grbcuda_op_stats (1: no kernel time)
}
gcu ;

static void gcu_find (void)
{
    // RTLD_DEFAULT finds grbcuda whether it is linked or preloaded
    *(void **) &gcu.stats_get = dlsym (RTLD_DEFAULT, "grbcuda_stats_get") ;
    *(void **) &gcu.reason_name = dlsym (RTLD_DEFAULT, "grbcuda_reason_name") ;
    *(void **) &gcu.version = dlsym (RTLD_DEFAULT, "grbcuda_version") ;
    *(void **) &gcu.gpu_available = dlsym (RTLD_DEFAULT, "grbcuda_gpu_available") ;
    *(void **) &gcu.gpu_info = dlsym (RTLD_DEFAULT, "grbcuda_gpu_info") ;
    *(void **) &gcu.stats_version_fn = dlsym (RTLD_DEFAULT, "grbcuda_stats_version") ;
    gcu.present = gcu.stats_get != NULL ;
    gcu.stats_version = !gcu.present ? 0
        : gcu.stats_version_fn != NULL ? gcu.stats_version_fn () : 1 ;
}

// true if grbcuda reports the device time of its kernels
static bool gcu_has_kernel_time (void)
{
    return gcu.present && gcu.stats_version >= 2 ;
}

static const char *gcu_reason (int r)
{
    const char *s = gcu.reason_name ? gcu.reason_name (r) : NULL ;
    return s ? s : (r < BENCH_NREASONS ? reason_fallback [r] : "unknown") ;
}

// Sum of the statistics of the named functions (NULL-terminated list).
static void gcu_snapshot (gcu_op_stats *out, const char *const *names)
{
    memset (out, 0, sizeof (*out)) ;
    if (!gcu.present) return ;
    for (int k = 0 ; names [k] != NULL ; k++)
    {
        gcu_stats_buf b ;
        memset (&b, 0, sizeof (b)) ;
        if (gcu.stats_get (names [k], &b) != GrB_SUCCESS) continue ;
        out->calls += b.s.calls ; out->gpu += b.s.gpu ; out->host += b.s.host ;
        for (int r = 0 ; r < BENCH_NREASONS ; r++) out->reason [r] += b.s.reason [r] ;
        out->seconds += b.s.seconds ;
        if (gcu_has_kernel_time ())
        {
            out->gpu_kernel_seconds += b.s.gpu_kernel_seconds ;
            out->gpu_kernel_calls += b.s.gpu_kernel_calls ;
        }
        if (gcu.stats_version >= 3)
        {
            out->gpu_bytes_uploaded += b.s.gpu_bytes_uploaded ;
            out->gpu_bytes_downloaded += b.s.gpu_bytes_downloaded ;
        }
    }
}

//------------------------------------------------------------------------------
// SuiteSparse's own entry points (the reference when grbcuda is in front)
//------------------------------------------------------------------------------

static char graphblas_path [4096] ;

static int find_graphblas (struct dl_phdr_info *info, size_t size, void *data)
{
    (void) size ; (void) data ;
    if (info->dlpi_name != NULL && strstr (info->dlpi_name, "libgraphblas") != NULL)
    {
        snprintf (graphblas_path, sizeof (graphblas_path), "%s", info->dlpi_name) ;
        return 1 ;
    }
    return 0 ;
}

// ref_ops: SuiteSparse's GrB_mxm/mxv/vxm, whatever is interposed in front.
static bool real_ops (gg_ops *ref)
{
    dl_iterate_phdr (find_graphblas, NULL) ;
    if (graphblas_path [0] == '\0') return false ;
    void *h = dlopen (graphblas_path, RTLD_NOW | RTLD_NOLOAD) ;
    if (h == NULL) return false ;
    *(void **) &ref->mxm = dlsym (h, "GrB_mxm") ;
    *(void **) &ref->mxv = dlsym (h, "GrB_mxv") ;
    *(void **) &ref->vxm = dlsym (h, "GrB_vxm") ;
    // the handle stays open: the library is in use for the whole run anyway
    return ref->mxm && ref->mxv && ref->vxm ;
}

//------------------------------------------------------------------------------
// operations
//------------------------------------------------------------------------------

typedef enum
{
    OP_SPGEMM = 0, OP_TC_DOT, OP_TC_LL, OP_TC_BURKHARDT, OP_BFS_LEVELS,
    OP_BFS_PARENTS, OP_SPMV, OP_SPMM, OP_SDDMM, NOPS
}
op_id ;

static const char *const watch_mxm [] = { "GrB_mxm", NULL } ;
static const char *const watch_mxv [] = { "GrB_mxv", NULL } ;
static const char *const watch_bfs [] = { "GrB_vxm", "GrB_mxv", NULL } ;

static const struct
{
    const char *name ;
    const char *const *watch ;    // grbcuda statistics that say where it ran
    const char *what ;
}
op_info [NOPS] =
{
    { "spgemm",       watch_mxm, "C=A*A PLUS_TIMES_FP64" },
    { "tc_dot",       watch_mxm, "C<L>=L*U' PLUS_PAIR_INT64 + reduce" },
    { "tc_ll",        watch_mxm, "C<L>=L*L PLUS_PAIR_INT64 + reduce" },
    { "tc_burkhardt", watch_mxm, "C<A>=A*A PLUS_PAIR_INT64 + reduce, /6" },
    { "bfs_levels",   watch_bfs, "BFS levels, vxm/mxv ANY_PAIR_BOOL, mask !visited" },
    { "bfs_parents",  watch_bfs, "BFS levels+parents, vxm/mxv ANY_SECONDI_INT64" },
    { "spmv",         watch_mxv, "y=A*x PLUS_TIMES_FP64" },
    { "spmm",         watch_mxm, "Y=A*X PLUS_TIMES_FP32, X n-by-k full" },
    { "sddmm",        watch_mxm, "C<A,struct>=X*Y' PLUS_TIMES_FP32, X,Y n-by-k" },
} ;

static int op_parse (const char *s)
{
    for (int k = 0 ; k < NOPS ; k++) if (strcmp (s, op_info [k].name) == 0) return k ;
    return -1 ;
}

// Everything derived from the workload's matrix, made on first need.
typedef struct
{
    const char *workload ;
    uint64_t seed ;
    GrB_Matrix A ;
    GrB_Index n, nvals ;
    gg_csr csr ; bool have_csr ;
    gg_tc_graph tc ; bool have_tc ;
    GrB_Matrix A32, X, Y ;
    GrB_Vector x ;
    GrB_Index src, src_degree ; bool have_src ;
}
ctx_t ;

typedef struct
{
    GrB_Matrix M ;
    GrB_Vector v, v2 ;
    int64_t count ;
    gg_bfs_stats bst ;
}
res_t ;

static void res_free (res_t *r)
{
    GrB_Matrix_free (&r->M) ;
    GrB_Vector_free (&r->v) ;
    GrB_Vector_free (&r->v2) ;
    memset (r, 0, sizeof (*r)) ;
}

static void ctx_free (ctx_t *c)
{
    GrB_Matrix_free (&c->A) ;
    gg_csr_free (&c->csr) ;
    gg_tc_free (&c->tc) ;
    GrB_Matrix_free (&c->A32) ;
    GrB_Matrix_free (&c->X) ;
    GrB_Matrix_free (&c->Y) ;
    GrB_Vector_free (&c->x) ;
}

static GrB_Info need_csr (ctx_t *c)
{
    if (c->have_csr) return GrB_SUCCESS ;
    GrB_Info info = gg_csr_get (&c->csr, c->A) ;
    c->have_csr = (info == GrB_SUCCESS) ;
    return info ;
}

// The operands an operation needs; not timed as part of the operation.
static GrB_Info prepare (op_id op, ctx_t *c)
{
    GrB_Info info = GrB_SUCCESS ;
    switch (op)
    {
        case OP_TC_DOT: case OP_TC_LL: case OP_TC_BURKHARDT:
            if (!c->have_tc)
            {
                info = gg_tc_prepare (&c->tc, c->A) ;
                c->have_tc = (info == GrB_SUCCESS) ;
            }
            break ;
        case OP_BFS_LEVELS: case OP_BFS_PARENTS:
            if (!c->have_src)
            {
                info = gg_highest_degree (&c->src, &c->src_degree, c->A) ;
                c->have_src = (info == GrB_SUCCESS) ;
            }
            break ;
        case OP_SPMV:
            if (c->x == NULL) info = bu_make_x (&c->x, c->n, c->seed) ;
            break ;
        case OP_SPMM: case OP_SDDMM:
            if (op == OP_SPMM && c->A32 == NULL) info = bu_make_fp32 (&c->A32, c->A) ;
            if (info == GrB_SUCCESS && c->X == NULL)
                info = bu_make_dense (&c->X, c->n, BU_DENSE_COLS, bu_seed_X (c->seed)) ;
            if (info == GrB_SUCCESS && op == OP_SDDMM && c->Y == NULL)
                info = bu_make_dense (&c->Y, c->n, BU_DENSE_COLS, bu_seed_Y (c->seed)) ;
            break ;
        case OP_SPGEMM:
            // products, for the report (flops = 2 x products)
            info = need_csr (c) ;
            break ;
        default: break ;
    }
    return info ;
}

// The timed part: the GraphBLAS call(s) of one operation, result waited on.
static GrB_Info run (op_id op, ctx_t *c, const gg_ops *ops, res_t *r)
{
    memset (r, 0, sizeof (*r)) ;
    switch (op)
    {
        case OP_SPGEMM:       return bu_spgemm (&r->M, c->A, ops) ;
        case OP_TC_DOT:       return gg_tc_count (&r->count, &c->tc, GG_TC_DOT, ops) ;
        case OP_TC_LL:        return gg_tc_count (&r->count, &c->tc, GG_TC_SANDIA_LL, ops) ;
        case OP_TC_BURKHARDT: return gg_tc_count (&r->count, &c->tc, GG_TC_BURKHARDT, ops) ;
        case OP_BFS_LEVELS:
            return gg_bfs (&r->v, NULL, c->A, c->src, GG_BFS_AUTO, ops, &r->bst) ;
        case OP_BFS_PARENTS:
            return gg_bfs (&r->v, &r->v2, c->A, c->src, GG_BFS_AUTO, ops, &r->bst) ;
        case OP_SPMV:         return bu_spmv (&r->v, c->A, c->x, ops) ;
        case OP_SPMM:         return bu_spmm (&r->M, c->A32, c->X, ops) ;
        case OP_SDDMM:        return bu_sddmm (&r->M, c->A, c->X, c->Y, ops) ;
        default:              return GrB_INVALID_VALUE ;
    }
}

// Writes the "result" JSON member: what run.py compares across processes.
static GrB_Info emit_result (FILE *f, op_id op, ctx_t *c, res_t *r)
{
    GrB_Info info = GrB_SUCCESS ;
    bu_digest d ;
    switch (op)
    {
        case OP_TC_DOT: case OP_TC_LL: case OP_TC_BURKHARDT:
            fprintf (f, "{\"triangles\":%lld}", (long long) r->count) ;
            break ;
        case OP_BFS_LEVELS: case OP_BFS_PARENTS:
        {
            bu_vec lv ;
            info = bu_vec_get (&lv, r->v) ;
            if (info != GrB_SUCCESS) return info ;
            bu_digest_vec (&d, &lv) ;
            bu_vec_free (&lv) ;
            fprintf (f, "{\"source\":%llu,\"source_degree\":%llu,\"levels\":%lld,"
                "\"reached\":%lld,\"push_steps\":%lld,\"pull_steps\":%lld,\"level_digest\":",
                (unsigned long long) c->src, (unsigned long long) c->src_degree,
                (long long) r->bst.nlevels, (long long) r->bst.nreached,
                (long long) r->bst.npush, (long long) r->bst.npull) ;
            bu_digest_json (f, &d) ;
            fputc ('}', f) ;
            break ;
        }
        case OP_SPMV:
        {
            bu_vec y ;
            info = bu_vec_get (&y, r->v) ;
            if (info != GrB_SUCCESS) return info ;
            bu_digest_vec (&d, &y) ;
            bu_vec_free (&y) ;
            fprintf (f, "{\"digest\":") ;
            bu_digest_json (f, &d) ;
            fputc ('}', f) ;
            break ;
        }
        default:    // matrix results
        {
            gg_csr C ;
            info = gg_csr_get (&C, r->M) ;
            if (info != GrB_SUCCESS) return info ;
            bu_digest_csr (&d, &C) ;
            gg_csr_free (&C) ;
            fprintf (f, "{\"nvals\":%llu,", (unsigned long long) d.nvals) ;
            if (op == OP_SPGEMM && c->have_csr)
                fprintf (f, "\"products\":%llu,", (unsigned long long) bu_products (&c->csr)) ;
            fprintf (f, "\"digest\":") ;
            bu_digest_json (f, &d) ;
            fputc ('}', f) ;
            break ;
        }
    }
    return info ;
}

// The in-process check: SuiteSparse's own entry points for single calls, the
// host oracles for triangles and BFS. ok/msg say the verdict; the return
// value is for a check that could not run.
static GrB_Info check (bool *ok, char *msg, size_t len, op_id op, ctx_t *c,
    res_t *r, const gg_ops *ref_ops)
{
    GrB_Info info = need_csr (c) ;
    if (info != GrB_SUCCESS) return info ;
    *ok = false ;
    switch (op)
    {
        case OP_TC_DOT: case OP_TC_LL: case OP_TC_BURKHARDT:
        {
            int64_t ref ;
            info = gg_tc_oracle (&ref, &c->csr) ;
            if (info != GrB_SUCCESS) return info ;
            *ok = (ref == r->count) ;
            if (!*ok) snprintf (msg, len, "%lld triangles, the host oracle says %lld",
                (long long) r->count, (long long) ref) ;
            return GrB_SUCCESS ;
        }
        case OP_BFS_LEVELS: case OP_BFS_PARENTS:
            return gg_bfs_check (ok, msg, len, &c->csr, c->src, r->v, r->v2) ;
        case OP_SPMV:
        {
            res_t ref ;
            bu_vec a, b ;
            info = run (op, c, ref_ops, &ref) ;
            if (info != GrB_SUCCESS) return info ;
            info = bu_vec_get (&a, ref.v) ;
            if (info == GrB_SUCCESS)
            {
                info = bu_vec_get (&b, r->v) ;
                if (info == GrB_SUCCESS)
                {
                    bu_tol tol = { 1e-12, 0, bu_row_bound (&c->csr, 0x1p-53) } ;
                    *ok = bu_compare_vec (msg, len, &a, &b, tol) ;
                    free ((void *) tol.row_atol) ;
                    bu_vec_free (&b) ;
                }
                bu_vec_free (&a) ;
            }
            res_free (&ref) ;
            return info ;
        }
        default:
        {
            res_t ref ;
            gg_csr a, b ;
            info = run (op, c, ref_ops, &ref) ;
            if (info != GrB_SUCCESS) return info ;
            info = gg_csr_get (&a, ref.M) ;
            if (info == GrB_SUCCESS)
            {
                info = gg_csr_get (&b, r->M) ;
                if (info == GrB_SUCCESS)
                {
                    bu_tol tol = { 1e-10, 0, NULL } ;
                    double *rb = NULL ;
                    if (op == OP_SPMM)
                    {
                        // FP32 sums over a row of A, |X| <= 1
                        tol.rtol = 1e-5 ;
                        rb = bu_row_bound (&c->csr, 0x1p-24) ;
                        tol.row_atol = rb ;
                    }
                    else if (op == OP_SDDMM)
                    {
                        // FP32 dot products of 32 terms, each at most 1
                        tol.rtol = 1e-5 ;
                        tol.atol = 2.0 * BU_DENSE_COLS * 0x1p-24 * BU_DENSE_COLS ;
                    }
                    else
                    {
                        double mx = 0 ;
                        for (GrB_Index k = 0 ; k < a.nvals ; k++) mx = fmax (mx, fabs (a.x [k])) ;
                        tol.atol = 1e-12 * mx ;
                    }
                    *ok = bu_compare_csr (msg, len, &a, &b, tol) ;
                    free (rb) ;
                    gg_csr_free (&b) ;
                }
                gg_csr_free (&a) ;
            }
            res_free (&ref) ;
            return info ;
        }
    }
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

static void usage (void)
{
    fprintf (stderr,
        "usage: grb_bench --workload W [--workload W2 ...] [--ops a,b,...]\n"
        "                 [--repeats N] [--max-seconds S] [--threads T]\n"
        "                 [--seed S] [--check auto|always|never]\n"
        "ops:") ;
    for (int k = 0 ; k < NOPS ; k++) fprintf (stderr, " %s", op_info [k].name) ;
    fprintf (stderr, "\n") ;
}

typedef enum { CHECK_AUTO, CHECK_ALWAYS, CHECK_NEVER } check_mode ;

int main (int argc, char **argv)
{
    const char *workloads [64] ;
    int nworkloads = 0, repeats = 5, threads = 0 ;
    double max_seconds = 30 ;
    bool want [NOPS] = { false } ;
    bool any_op = false ;
    uint64_t seed = GG_DEFAULT_SEED ;
    check_mode cmode = CHECK_AUTO ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (strcmp (argv [a], "--workload") == 0 && a + 1 < argc)
        {
            if (nworkloads >= 64) { usage () ; return 2 ; }
            workloads [nworkloads++] = argv [++a] ;
        }
        else if (strcmp (argv [a], "--ops") == 0 && a + 1 < argc)
        {
            char *list = strdup (argv [++a]), *save = NULL ;
            if (list == NULL) return 1 ;
            for (char *t = strtok_r (list, ",", &save) ; t ; t = strtok_r (NULL, ",", &save))
            {
                int k = op_parse (t) ;
                if (k < 0) { fprintf (stderr, "grb_bench: unknown op %s\n", t) ; usage () ; free (list) ; return 2 ; }
                want [k] = true ; any_op = true ;
            }
            free (list) ;
        }
        else if (strcmp (argv [a], "--repeats") == 0 && a + 1 < argc) repeats = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--max-seconds") == 0 && a + 1 < argc) max_seconds = atof (argv [++a]) ;
        else if (strcmp (argv [a], "--threads") == 0 && a + 1 < argc) threads = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--seed") == 0 && a + 1 < argc) seed = strtoull (argv [++a], NULL, 0) ;
        else if (strcmp (argv [a], "--check") == 0 && a + 1 < argc)
        {
            const char *m = argv [++a] ;
            if (strcmp (m, "auto") == 0) cmode = CHECK_AUTO ;
            else if (strcmp (m, "always") == 0) cmode = CHECK_ALWAYS ;
            else if (strcmp (m, "never") == 0) cmode = CHECK_NEVER ;
            else { usage () ; return 2 ; }
        }
        else { usage () ; return 2 ; }
    }
    if (nworkloads == 0 || repeats < 1) { usage () ; return 2 ; }
    if (!any_op) for (int k = 0 ; k < NOPS ; k++) want [k] = (k != OP_TC_BURKHARDT) ;

    GrB_Info info = gg_init (threads) ;
    if (info != GrB_SUCCESS) { fprintf (stderr, "grb_bench: GrB_init failed (%d)\n", info) ; return 1 ; }
    int32_t gb_threads = 0 ;
    GxB_Global_Option_get_INT32 (GxB_NTHREADS, &gb_threads) ;

    gcu_find () ;
    gg_ops ref_ops = *gg_ops_default () ;
    bool have_real = real_ops (&ref_ops) ;
    const char *label = gcu.present ? "grbcuda" : "plain" ;

    // the environment line; a GPU's start-up is timed here, apart from the ops
    double gpu_init_ms = -1 ;
    int gpu_ok = 0 ;
    char gpu_name [256] = "" ;
    if (gcu.present && gcu.gpu_available != NULL)
    {
        double t0 = gg_now () ;
        gpu_ok = gcu.gpu_available () ;
        gpu_init_ms = 1e3 * (gg_now () - t0) ;
        int sm = 0, ma = 0, mi = 0 ;
        size_t mem = 0 ;
        if (gpu_ok && gcu.gpu_info != NULL)
            gcu.gpu_info (gpu_name, &sm, &ma, &mi, &mem) ;
    }
    printf ("{\"type\":\"env\",\"tool\":\"grb_bench\",\"mode\":\"%s\",\"graphblas\":\"%d.%d.%d\","
        "\"threads\":%d,\"grbcuda\":", label, GxB_IMPLEMENTATION_MAJOR,
        GxB_IMPLEMENTATION_MINOR, GxB_IMPLEMENTATION_SUB, (int) gb_threads) ;
    if (gcu.present) bu_json_str (stdout, gcu.version ? gcu.version () : "?") ;
    else fputs ("null", stdout) ;
    printf (",\"gpu_available\":%s,\"gpu\":", gpu_ok ? "true" : "false") ;
    if (gpu_name [0]) bu_json_str (stdout, gpu_name) ; else fputs ("null", stdout) ;
    printf (",\"gpu_init_ms\":") ;
    if (gpu_init_ms >= 0) printf ("%.3f", gpu_init_ms) ; else fputs ("null", stdout) ;
    printf (",\"stats_version\":%d", gcu.stats_version) ;
    printf (",\"reference\":\"%s\"}\n", have_real ? "libgraphblas entry points"
        : "GrB_* as linked") ;
    fflush (stdout) ;
    if (gcu.present && !have_real)
        fprintf (stderr, "[grb_bench %s] warning: SuiteSparse's own entry points not found; "
            "reference results go through grbcuda too\n", label) ;

    int rc = 0 ;
    for (int w = 0 ; w < nworkloads ; w++)
    {
        ctx_t c ;
        memset (&c, 0, sizeof (c)) ;
        c.workload = workloads [w] ;
        c.seed = seed ;
        char err [512] = "" ;
        fprintf (stderr, "[grb_bench %s] %s: generating\n", label, c.workload) ;
        double t0 = gg_now () ;
        info = gg_load (&c.A, c.workload, seed, GG_UNDIRECTED, err, sizeof (err)) ;
        double gen = gg_now () - t0 ;
        if (info != GrB_SUCCESS)
        {
            printf ("{\"type\":\"workload\",\"workload\":") ;
            bu_json_str (stdout, c.workload) ;
            printf (",\"status\":\"error\",\"error\":") ;
            bu_json_str (stdout, err) ;
            printf ("}\n") ;
            fflush (stdout) ;
            rc = 1 ;
            continue ;
        }
        GrB_Matrix_nrows (&c.n, c.A) ;
        GrB_Matrix_nvals (&c.nvals, c.A) ;
        printf ("{\"type\":\"workload\",\"workload\":") ;
        bu_json_str (stdout, c.workload) ;
        printf (",\"status\":\"ok\",\"n\":%llu,\"nvals\":%llu,\"gen_ms\":%.3f}\n",
            (unsigned long long) c.n, (unsigned long long) c.nvals, 1e3 * gen) ;
        fflush (stdout) ;
        fprintf (stderr, "[grb_bench %s] %s: n=%llu nvals=%llu, generated in %.2f s\n",
            label, c.workload, (unsigned long long) c.n, (unsigned long long) c.nvals, gen) ;

        for (int k = 0 ; k < NOPS ; k++)
        {
            if (!want [k]) continue ;
            op_id op = (op_id) k ;
            res_t r ;
            memset (&r, 0, sizeof (r)) ;
            double *times = malloc ((size_t) repeats * sizeof (double)) ;
            double *ktimes = malloc ((size_t) repeats * sizeof (double)) ;
            // the call followed by a read of its result (a result grbcuda
            // left on the device is written into the matrix then): users
            // feel both (bench/RESULTS.md reports both)
            double *rtimes = malloc ((size_t) repeats * sizeof (double)) ;
            if (times == NULL || ktimes == NULL || rtimes == NULL)
            { free (times) ; free (ktimes) ; free (rtimes) ; rc = 1 ; break ; }
            bool have_rb = false ;
            int reps = 0 ;
            double tfirst = 0, prep = 0 ;
            gcu_op_stats s0, s1, sa, sb, sa_first ;
            memset (&sa_first, 0, sizeof (sa_first)) ;
            // grbcuda's kernel time: of the first call, and per repeat
            double kfirst = 0 ;
            uint64_t kfirst_gpu = 0, kfirst_timed = 0, krep_gpu = 0, krep_timed = 0 ;
            const char *stage = "preparation" ;

            fprintf (stderr, "[grb_bench %s] %s %s: preparing\n", label, c.workload, op_info [k].name) ;
            t0 = gg_now () ;
            info = prepare (op, &c) ;
            prep = gg_now () - t0 ;
            if (info == GrB_SUCCESS)
            {
                stage = "first call" ;
                gcu_snapshot (&s0, op_info [k].watch) ;
                t0 = gg_now () ;
                info = run (op, &c, NULL, &r) ;
                tfirst = gg_now () - t0 ;
                gcu_snapshot (&sa, op_info [k].watch) ;
                sa_first = sa ;
                kfirst = sa.gpu_kernel_seconds - s0.gpu_kernel_seconds ;
                kfirst_gpu = sa.gpu - s0.gpu ;
                kfirst_timed = sa.gpu_kernel_calls - s0.gpu_kernel_calls ;
                fprintf (stderr, "[grb_bench %s] %s %s: first call %.1f ms\n", label,
                    c.workload, op_info [k].name, 1e3 * tfirst) ;
            }
            // repeats after the first call, within the time budget
            double spent = 0 ;
            while (info == GrB_SUCCESS && reps < repeats && (reps == 0 || spent < max_seconds))
            {
                stage = "repeat" ;
                res_free (&r) ;
                gcu_snapshot (&sa, op_info [k].watch) ;     // outside the timed part
                t0 = gg_now () ;
                info = run (op, &c, NULL, &r) ;
                times [reps] = gg_now () - t0 ;
                rtimes [reps] = times [reps] ;
                if (info == GrB_SUCCESS && r.M != NULL)
                {
                    // the sparsity status needs the content: a minimal read
                    int sp = 0 ;
                    const double t1 = gg_now () ;
                    info = GxB_Matrix_Option_get (r.M, GxB_SPARSITY_STATUS, &sp) ;
                    rtimes [reps] += gg_now () - t1 ;
                    have_rb = true ;
                }
                gcu_snapshot (&sb, op_info [k].watch) ;
                spent += times [reps] ;
                if (info == GrB_SUCCESS)
                {
                    ktimes [reps] = sb.gpu_kernel_seconds - sa.gpu_kernel_seconds ;
                    krep_gpu += sb.gpu - sa.gpu ;
                    krep_timed += sb.gpu_kernel_calls - sa.gpu_kernel_calls ;
                    reps++ ;
                }
            }
            gcu_snapshot (&s1, op_info [k].watch) ;

            printf ("{\"type\":\"op\",\"workload\":") ;
            bu_json_str (stdout, c.workload) ;
            printf (",\"op\":\"%s\",\"what\":", op_info [k].name) ;
            bu_json_str (stdout, op_info [k].what) ;
            // the dense operands' columns (k above: GRBCUDA_BENCH_COLS)
            if (strcmp (op_info [k].name, "spmm") == 0 || strcmp (op_info [k].name, "sddmm") == 0)
                printf (",\"k\":%d", BU_DENSE_COLS) ;
            if (info != GrB_SUCCESS)
            {
                char m [128] ;
                snprintf (m, sizeof (m), "%s failed: GrB_Info %d", stage, (int) info) ;
                printf (",\"status\":\"error\",\"error\":") ;
                bu_json_str (stdout, m) ;
                printf ("}\n") ;
                fprintf (stderr, "[grb_bench %s] %s %s: %s\n", label, c.workload, op_info [k].name, m) ;
                fflush (stdout) ;
                res_free (&r) ;
                free (times) ;
                free (ktimes) ; free (rtimes) ;
                rc = 1 ;
                continue ;
            }
            double med = gg_median (times, reps) ;   // sorted: times [0] is the minimum
            // the kernel time is reported when the repeats ran GPU calls that
            // timed their kernels (timed_calls < gpu_calls: a partial figure)
            bool have_k = gcu_has_kernel_time () && krep_timed > 0 ;
            double kmed = have_k ? gg_median (ktimes, reps) : 0 ;
            if (have_rb) printf (",\"readback_median_ms\":%.4f", 1e3 * gg_median (rtimes, reps)) ;
            printf (",\"status\":\"ok\",\"prep_ms\":%.3f,\"first_ms\":%.3f,\"median_ms\":%.4f,",
                1e3 * prep, 1e3 * tfirst, 1e3 * med) ;
            if (have_k) printf ("\"kernel_median_ms\":%.4f,", 1e3 * kmed) ;
            else printf ("\"kernel_median_ms\":null,") ;
            printf ("\"min_ms\":%.4f,\"reps\":%d,\"times_ms\":[", 1e3 * times [0], reps) ;
            for (int q = 0 ; q < reps ; q++) printf ("%s%.4f", q ? "," : "", 1e3 * times [q]) ;
            printf ("]") ;
            // grbcuda's GPU kernel time (device time by CUDA events; null when
            // this grbcuda does not report it)
            if (gcu_has_kernel_time ())
            {
                printf (",\"kernel\":{\"gpu_calls\":%llu,\"timed_calls\":%llu,"
                    "\"first_gpu_calls\":%llu,\"first_timed_calls\":%llu,\"first_ms\":",
                    (unsigned long long) krep_gpu, (unsigned long long) krep_timed,
                    (unsigned long long) kfirst_gpu, (unsigned long long) kfirst_timed) ;
                if (kfirst_timed > 0) printf ("%.4f", 1e3 * kfirst) ; else printf ("null") ;
                if (have_k)
                {
                    printf (",\"median_ms\":%.4f,\"min_ms\":%.4f,\"times_ms\":[",
                        1e3 * kmed, 1e3 * ktimes [0]) ;
                    for (int q = 0 ; q < reps ; q++) printf ("%s%.4f", q ? "," : "", 1e3 * ktimes [q]) ;
                    printf ("]") ;
                }
                else printf (",\"median_ms\":null") ;
                printf ("}") ;
            }
            else printf (",\"kernel\":null") ;
            // grbcuda's host<->device bytes: the first call's, and the
            // repeats' per call (operands resident on the device since the
            // first call upload nothing again)
            if (gcu.present && gcu.stats_version >= 3)
            {
                const double up_rep = reps > 0 ? (double) (s1.gpu_bytes_uploaded - sa_first.gpu_bytes_uploaded) / reps : 0 ;
                const double down_rep = reps > 0 ? (double) (s1.gpu_bytes_downloaded - sa_first.gpu_bytes_downloaded) / reps : 0 ;
                printf (",\"transfers\":{\"first_up_mb\":%.3f,\"first_down_mb\":%.3f,"
                    "\"repeat_up_mb\":%.3f,\"repeat_down_mb\":%.3f}",
                    (sa_first.gpu_bytes_uploaded - s0.gpu_bytes_uploaded) / 1e6,
                    (sa_first.gpu_bytes_downloaded - s0.gpu_bytes_downloaded) / 1e6,
                    up_rep / 1e6, down_rep / 1e6) ;
            }
            else printf (",\"transfers\":null") ;

            // where it ran (grbcuda's counters over the first call and the repeats)
            uint64_t gpu_calls = s1.gpu - s0.gpu ;
            if (gcu.present)
            {
                printf (",\"path\":{\"calls\":%llu,\"gpu\":%llu,\"host\":%llu,\"reasons\":{",
                    (unsigned long long) (s1.calls - s0.calls), (unsigned long long) gpu_calls,
                    (unsigned long long) (s1.host - s0.host)) ;
                int first = 1 ;
                for (int q = 1 ; q < BENCH_NREASONS ; q++)
                {
                    uint64_t d = s1.reason [q] - s0.reason [q] ;
                    if (d == 0) continue ;
                    printf ("%s", first ? "" : ",") ;
                    bu_json_str (stdout, gcu_reason (q)) ;
                    printf (":%llu", (unsigned long long) d) ;
                    first = 0 ;
                }
                printf ("}}") ;
            }
            else printf (",\"path\":null") ;

            // the result's summary (compared across processes by run.py)
            printf (",\"result\":") ;
            fflush (stdout) ;
            GrB_Info dinfo = emit_result (stdout, op, &c, &r) ;
            if (dinfo != GrB_SUCCESS) printf ("null") ;

            // the in-process check
            const char *verdict ;
            char msg [512] = "" ;
            bool do_check = (cmode == CHECK_ALWAYS)
                || (cmode == CHECK_AUTO && gcu.present && gpu_calls > 0) ;
            if (do_check)
            {
                fprintf (stderr, "[grb_bench %s] %s %s: checking\n", label, c.workload, op_info [k].name) ;
                bool ok = false ;
                GrB_Info cinfo = check (&ok, msg, sizeof (msg), op, &c, &r, &ref_ops) ;
                if (cinfo != GrB_SUCCESS)
                {
                    snprintf (msg, sizeof (msg), "check could not run: GrB_Info %d", (int) cinfo) ;
                    verdict = "error" ;
                }
                else verdict = ok ? "ok" : "wrong" ;
                if (!ok) rc = 1 ;
            }
            else if (cmode == CHECK_NEVER) verdict = "not run" ;
            else if (!gcu.present) verdict = "reference" ;      // this is SuiteSparse
            else verdict = "host path" ;    // SuiteSparse computed it; run.py compares digests
            printf (",\"check\":\"%s\",\"check_msg\":", verdict) ;
            bu_json_str (stdout, msg) ;
            printf ("}\n") ;
            fflush (stdout) ;
            char kmsg [64] = "" ;
            if (have_k) snprintf (kmsg, sizeof (kmsg), " (GPU kernels %.2f ms%s)", 1e3 * kmed,
                krep_timed < krep_gpu ? ", partly timed" : "") ;
            fprintf (stderr, "[grb_bench %s] %s %s: median %.2f ms%s over %d repeats%s%s%s\n",
                label, c.workload, op_info [k].name, 1e3 * med, kmsg, reps,
                gcu.present ? (gpu_calls > 0 ? ", GPU" : ", host") : "",
                do_check ? ", check " : "", do_check ? verdict : "") ;
            res_free (&r) ;
            free (times) ;
            free (ktimes) ; free (rtimes) ;
        }
        ctx_free (&c) ;
    }
    GrB_finalize () ;
    return rc ;
}
