// stats.c — per-operation statistics (calls, GPU, host, host reasons, time,
// the GPU calls' kernel time), kept in atomics so concurrent user threads
// count without a lock, and the table GRBCUDA_STATS=1 prints at GrB_finalize
// (or at exit).
#include "gcu_dispatch.h"
#include "gcu_cost.h"
#include "../spgemm/gcu_spgemm.h"
#include "../residency/gcu_residency.h"
#include <stdatomic.h>
#include <string.h>

// row blocks the SpGEMM engine ran (its streaming, for the tests); here so
// that a build without CUDA has the counter too
static _Atomic int64_t spgemm_blocks ;
void gcu_spgemm_blocks_add (int64_t n) { atomic_fetch_add (&spgemm_blocks, n) ; }
int64_t gcu_spgemm_blocks_total (void) { return atomic_load (&spgemm_blocks) ; }

static const char *const op_names [GCU_OP_COUNT] =
{
#define GCU_CALL_OP_NAME(CODE, NAME) [GCU_OP_##CODE] = #NAME,
    GCU_CALL_OPS (GCU_CALL_OP_NAME)
#undef GCU_CALL_OP_NAME
} ;

static const char *const reason_names [GRBCUDA_NREASONS] =
{
    [GRBCUDA_REASON_GPU]        = "gpu",
    [GRBCUDA_REASON_MODE_HOST]  = "mode host",
    [GRBCUDA_REASON_ARGS]       = "arguments left to SuiteSparse",
    [GRBCUDA_REASON_SMALL]      = "host predicted faster",
    [GRBCUDA_REASON_NO_GPU]     = "no usable GPU",
    [GRBCUDA_REASON_NO_KERNEL]  = "no GPU kernel",
    [GRBCUDA_REASON_GPU_FAILED] = "GPU failed, host fallback",
} ;

// the calls are the sum of the reasons (one add a call)
typedef struct
{
    _Atomic uint64_t reason [GRBCUDA_NREASONS] ;
    _Atomic uint64_t nanoseconds ;
    _Atomic uint64_t kernel_nanoseconds ;   // GPU calls that timed their kernels
    _Atomic uint64_t kernel_calls ;
    _Atomic uint64_t up_bytes, down_bytes ;  // GPU calls' transfers
    _Atomic uint64_t pending_start, pending_jit ;   // gcu_stats_pending
}
op_counters ;

static op_counters counters [GCU_OP_COUNT] ;
static _Atomic int printed ;

const char *gcu_op_name (gcu_op op)
{
    return (op >= 0 && op < GCU_OP_COUNT) ? op_names [op] : "?" ;
}

const char *grbcuda_reason_name (grbcuda_reason reason)
{
    return ((int) reason >= 0 && reason < GRBCUDA_NREASONS)
        ? reason_names [reason] : "?" ;
}

void gcu_stats_count (gcu_op op, grbcuda_reason reason, double seconds,
    double kernel_seconds, uint64_t up_bytes, uint64_t down_bytes)
{
    op_counters *c = &counters [op] ;
    atomic_fetch_add_explicit (&c->reason [reason], 1, memory_order_relaxed) ;
    uint64_t ns = seconds > 0 ? (uint64_t) (seconds * 1e9) : 0 ;
    if (ns > 0) atomic_fetch_add_explicit (&c->nanoseconds, ns, memory_order_relaxed) ;
    if (reason == GRBCUDA_REASON_GPU && kernel_seconds >= 0)
    {
        uint64_t kns = (uint64_t) (kernel_seconds * 1e9) ;
        atomic_fetch_add_explicit (&c->kernel_nanoseconds, kns, memory_order_relaxed) ;
        atomic_fetch_add_explicit (&c->kernel_calls, 1, memory_order_relaxed) ;
    }
    if (reason == GRBCUDA_REASON_GPU)
    {
        atomic_fetch_add_explicit (&c->up_bytes, up_bytes, memory_order_relaxed) ;
        atomic_fetch_add_explicit (&c->down_bytes, down_bytes, memory_order_relaxed) ;
    }
}

void gcu_stats_pending (gcu_op op, bool jit)
{
    op_counters *c = &counters [op] ;
    atomic_fetch_add_explicit (jit ? &c->pending_jit : &c->pending_start, 1, memory_order_relaxed) ;
}

void gcu_stats_pass (gcu_op op)
{
    atomic_fetch_add_explicit (&counters [op].reason [GRBCUDA_REASON_MODE_HOST], 1,
        memory_order_relaxed) ;
}

int grbcuda_stats_version (void)
{
    return GRBCUDA_STATS_VERSION ;
}

static void snapshot (gcu_op op, grbcuda_op_stats *s)
{
    op_counters *c = &counters [op] ;
    memset (s, 0, sizeof (*s)) ;
    for (int r = 0 ; r < GRBCUDA_NREASONS ; r++)
    {
        s->reason [r] = atomic_load (&c->reason [r]) ;
        s->calls += s->reason [r] ;
        if (r == GRBCUDA_REASON_GPU) s->gpu = s->reason [r] ;
        else s->host += s->reason [r] ;
    }
    s->seconds = 1e-9 * (double) atomic_load (&c->nanoseconds) ;
    s->gpu_kernel_seconds = 1e-9 * (double) atomic_load (&c->kernel_nanoseconds) ;
    s->gpu_kernel_calls = atomic_load (&c->kernel_calls) ;
    s->gpu_bytes_uploaded = atomic_load (&c->up_bytes) ;
    s->gpu_bytes_downloaded = atomic_load (&c->down_bytes) ;
    s->host_gpu_starting = atomic_load (&c->pending_start) ;
    s->host_kernel_compiling = atomic_load (&c->pending_jit) ;
}

GrB_Info grbcuda_stats_get (const char *name, grbcuda_op_stats *stats)
{
    if (name == NULL || stats == NULL) return GrB_NULL_POINTER ;
    for (int op = 0 ; op < GCU_OP_COUNT ; op++)
    {
        if (strcmp (name, op_names [op]) == 0)
        {
            snapshot ((gcu_op) op, stats) ;
            return GrB_SUCCESS ;
        }
    }
    return GrB_INVALID_VALUE ;
}

void grbcuda_stats_reset (void)
{
    for (int op = 0 ; op < GCU_OP_COUNT ; op++)
    {
        op_counters *c = &counters [op] ;
        atomic_store (&c->nanoseconds, 0) ;
        atomic_store (&c->kernel_nanoseconds, 0) ;
        atomic_store (&c->kernel_calls, 0) ;
        atomic_store (&c->up_bytes, 0) ;
        atomic_store (&c->down_bytes, 0) ;
        atomic_store (&c->pending_start, 0) ;
        atomic_store (&c->pending_jit, 0) ;
        for (int r = 0 ; r < GRBCUDA_NREASONS ; r++) atomic_store (&c->reason [r], 0) ;
    }
}

void grbcuda_stats_print (FILE *f)
{
    if (f == NULL) return ;
    char buf [8192] ;
    size_t len = 0 ;
    len += (size_t) snprintf (buf + len, sizeof (buf) - len,
        "[grbcuda] statistics: %-30s %8s %8s %8s %10s %10s  host reasons\n",
        "operation", "calls", "gpu", "host", "time(s)", "kernel(s)") ;
    int lines = 0 ;
    for (int op = 0 ; op < GCU_OP_COUNT && len < sizeof (buf) - 512 ; op++)
    {
        grbcuda_op_stats s ;
        snapshot ((gcu_op) op, &s) ;
        if (s.calls == 0) continue ;
        lines++ ;
        len += (size_t) snprintf (buf + len, sizeof (buf) - len,
            "[grbcuda] statistics: %-30s %8llu %8llu %8llu %10.4f ",
            op_names [op], (unsigned long long) s.calls,
            (unsigned long long) s.gpu, (unsigned long long) s.host, s.seconds) ;
        // the GPU calls' kernel time; "-" where no GPU call timed its kernels
        if (s.gpu_kernel_calls > 0)
            len += (size_t) snprintf (buf + len, sizeof (buf) - len, "%10.4f ",
                s.gpu_kernel_seconds) ;
        else
            len += (size_t) snprintf (buf + len, sizeof (buf) - len, "%10s ", "-") ;
        if (s.gpu_kernel_calls < s.gpu)
            len += (size_t) snprintf (buf + len, sizeof (buf) - len,
                " kernels timed in %llu of %llu GPU calls;",
                (unsigned long long) s.gpu_kernel_calls, (unsigned long long) s.gpu) ;
        for (int r = 1 ; r < GRBCUDA_NREASONS ; r++)
        {
            if (s.reason [r] == 0) continue ;
            len += (size_t) snprintf (buf + len, sizeof (buf) - len,
                " %s: %llu;", reason_names [r], (unsigned long long) s.reason [r]) ;
        }
        if (s.host_gpu_starting + s.host_kernel_compiling > 0)
            len += (size_t) snprintf (buf + len, sizeof (buf) - len,
                " of these, while CUDA started: %llu, while a kernel compiled: %llu;",
                (unsigned long long) s.host_gpu_starting, (unsigned long long) s.host_kernel_compiling) ;
        len += (size_t) snprintf (buf + len, sizeof (buf) - len, "\n") ;
    }
    if (lines == 0)
        len += (size_t) snprintf (buf + len, sizeof (buf) - len,
            "[grbcuda] statistics: no interposed call was made\n") ;
    // results left on the device (DESIGN §3): written back when read, or
    // dropped unwritten (the object changed, was cleared or freed)
    gcu_res_stats r ;
    gcu_residency_stats (&r) ;
    if (r.materializations + r.discards + r.newest + r.materialize_failures > 0 && len < sizeof (buf))
        len += (size_t) snprintf (buf + len, sizeof (buf) - len, "[grbcuda] statistics: results left on the "
            "device: %llu written back when read (%.1f MB), %llu dropped unwritten, %llu "
            "failed write-backs, %llu still there\n", (unsigned long long) r.materializations,
            (double) r.materialized_bytes / 1e6, (unsigned long long) r.discards,
            (unsigned long long) r.materialize_failures, (unsigned long long) r.newest) ;
    // ... and who read them (issue 23: the host call that breaks a chain)
    if (r.materializations > 0 && len < sizeof (buf))
    {
        len += (size_t) snprintf (buf + len, sizeof (buf) - len, "[grbcuda] statistics: written back for:") ;
        for (int k = 0 ; k < GCU_RES_READERS && r.readers [k].why != NULL && len < sizeof (buf) ; k++)
            len += (size_t) snprintf (buf + len, sizeof (buf) - len, " %s %llu (%.1f MB);", r.readers [k].why,
                (unsigned long long) r.readers [k].n, (double) r.readers [k].bytes / 1e6) ;
        if (r.other_n > 0 && len < sizeof (buf))
            len += (size_t) snprintf (buf + len, sizeof (buf) - len, " others %llu (%.1f MB);",
                (unsigned long long) r.other_n, (double) r.other_bytes / 1e6) ;
        if (len < sizeof (buf)) len += (size_t) snprintf (buf + len, sizeof (buf) - len, "\n") ;
    }
    // what auto's calls taught the model (beyond 2x either way)
    if (len < sizeof (buf) - 1) len += gcu_cost_learned_print (buf + len, sizeof (buf) - len,
        "[grbcuda] statistics: learned: ") ;
    fputs (buf, f) ;
    fflush (f) ;
}

// Printed once: at GrB_finalize, or at process exit for programs that never
// call it (the Python bindings, for one).
void gcu_stats_print_if_enabled (void)
{
    if (!gcu_stats_enabled ()) return ;
    if (atomic_exchange (&printed, 1)) return ;
    grbcuda_stats_print (stderr) ;
}

__attribute__((destructor)) static void stats_at_exit (void)
{
    gcu_stats_print_if_enabled () ;
}

// the verbose log's line of a finished call (gcu_finish): its operation and
// sizes, auto mode's predictions, the path it took, its time
void gcu_call_log (const gcu_call *call, GrB_Info info, double dt)
{
    const char *path = call->reason == GRBCUDA_REASON_GPU ? "gpu" : "host" ;
    char kbuf [48] = "" ;
    if (call->reason == GRBCUDA_REASON_GPU && call->kernel_seconds >= 0)
        snprintf (kbuf, sizeof (kbuf), " (kernels %.3f ms)", 1e3 * call->kernel_seconds) ;
    char sbuf [64] = "", abuf [64] = "", fbuf [48] = "", pbuf [272] = "" ;
    if (call->first_s > 0) snprintf (fbuf, sizeof (fbuf), " (its kind's first run: %.3g ms)", 1e3 * call->first_s) ;
    if (call->down_share >= 0)
        snprintf (sbuf, sizeof (sbuf), ", its result's download at %.0f%% (C's written back)",
            100 * call->down_share) ;
    if (call->host_after > 0)
        snprintf (abuf, sizeof (abuf), " (its result's upload after: %.3g ms)", 1e3 * call->host_after) ;
    if (call->host_s >= 0)
        snprintf (pbuf, sizeof (pbuf), " predicted host %.3g ms%s gpu %.3g ms%s%s", 1e3 * call->host_s,
            abuf, 1e3 * call->gpu_s, fbuf, sbuf) ;
    if (call->note != NULL) gcu_log ("%s: %s", gcu_op_name (call->op), call->note) ;
    if (call->checked)
    {
        gcu_log ("%s C %llux%llu A %llux%llu (%llu) B %llux%llu (%llu)"
            "%s%s work %.3g%s -> %s (%s) %.3f ms%s info %d",
            gcu_op_name (call->op),
            (unsigned long long) call->c_rows, (unsigned long long) call->c_cols,
            (unsigned long long) call->a_rows, (unsigned long long) call->a_cols,
            (unsigned long long) call->a_nvals,
            (unsigned long long) call->b_rows, (unsigned long long) call->b_cols,
            (unsigned long long) call->b_nvals,
            call->M != NULL ? " masked" : "", call->accum != NULL ? " accum" : "",
            call->work, pbuf, path, call->family != NULL ? call->family : grbcuda_reason_name (call->reason),
            1e3 * dt, kbuf, (int) info) ;
    }
    else
    {
        gcu_log ("%s -> %s (%s) %.3f ms%s info %d", gcu_op_name (call->op),
            path, grbcuda_reason_name (call->reason), 1e3 * dt, kbuf, (int) info) ;
    }
}
