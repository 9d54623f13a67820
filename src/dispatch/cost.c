// cost.c — auto mode's cost model (gcu_cost.h): the tables of
// cost_model.txt (embedded at build time by src/jit/embed.cmake, or
// GRBCUDA_COST_MODEL's file) parsed for the device in use, and the two
// predictions of a call. The dispatch (dispatch.c) fills the call's work and
// bytes and decides; bench/calibrate measures the parameters.
#include "gcu_cost.h"
#include "gcu_dispatch.h"
#include "gcu_util.h"
#include "grbcuda.h"
#include <stdatomic.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// the embedded cost_model.txt (generated; weak, so that a build without the
// step still links: the model then has no tables and every table is zeros,
// which the parse of an empty text reports)
extern const char gcu_cost_model_text [] __attribute__ ((weak)) ;

static const char *const family_names [GCU_COST_NFAMILIES] =
{
#define GCU_COST_NAME(CODE, NAME) [GCU_COST_##CODE] = #NAME,
    GCU_COST_FAMILIES (GCU_COST_NAME)
#undef GCU_COST_NAME
} ;

const char *gcu_cost_family_name (gcu_cost_family f)
{
    return (f >= 0 && f < GCU_COST_NFAMILIES) ? family_names [f] : "?" ;
}

static bool number (const char *s, double *v)
{
    char *end ;
    errno = 0 ;
    double x = strtod (s, &end) ;
    if (errno != 0 || end == s || *end != '\0' || !(x > 0) || isinf (x)) return false ;
    *v = x ;
    return true ;
}

// "key value" of a device; false if the key is unknown or the value bad
static bool setting (gcu_cost_table *t, const char *key, const char *value)
{
    struct { const char *name ; double *field ; } keys [] = {
        { "margin", &t->margin }, { "h2d", &t->h2d }, { "d2h", &t->d2h },
        { "cuda_start", &t->cuda_start }, { "jit_compile", &t->jit_compile },
        { "wait_factor", &t->wait_factor }, { "transpose", &t->transpose },
        { "device_transpose", &t->device_transpose },
        { "first_run", &t->first_run } } ;
    for (size_t k = 0 ; k < sizeof (keys) / sizeof (keys [0]) ; k++)
        if (strcmp (key, keys [k].name) == 0) return number (value, keys [k].field) ;
    return false ;
}

// "family NAME k=v ..." (tok: the tokens after "family")
static bool family_row (gcu_cost_table *t, char *tok, char **save)
{
    int f = 0 ;
    while (f < GCU_COST_NFAMILIES && (tok == NULL || strcmp (tok, family_names [f]) != 0)) f++ ;
    if (f == GCU_COST_NFAMILIES) return false ;
    gcu_cost_rates *r = &t->fam [f] ;
    struct { const char *name ; double *field ; } keys [] = {
        { "host_fixed", &r->host_fixed }, { "host_rate", &r->host_rate },
        { "gpu_fixed", &r->gpu_fixed }, { "gpu_rate", &r->gpu_rate },
        { "host_row", &r->host_row }, { "gpu_rows", &r->gpu_rows } } ;
    const size_t nkeys = sizeof (keys) / sizeof (keys [0]) ;
    while ((tok = strtok_r (NULL, " \t", save)) != NULL)
    {
        char *eq = strchr (tok, '=') ;
        if (eq == NULL) return false ;
        *eq = '\0' ;
        size_t k = 0 ;
        while (k < nkeys && strcmp (tok, keys [k].name) != 0) k++ ;
        if (k == nkeys || !number (eq + 1, keys [k].field)) return false ;
    }
    return true ;
}

// one line (comment stripped) into t when apply, else into a scratch table
// (checked only); *section follows "device" lines
static bool line_parse (char *line, gcu_cost_table *t, char *section, size_t ssize, bool apply)
{
    gcu_cost_table scratch ;
    gcu_cost_table *into = apply ? t : &scratch ;
    char *save = NULL ;
    char *tok = strtok_r (line, " \t", &save) ;
    if (tok == NULL) return true ;
    if (strcmp (tok, "device") == 0)
    {
        char *rest = strtok_r (NULL, "", &save) ;
        while (rest != NULL && (*rest == ' ' || *rest == '\t')) rest++ ;
        if (rest == NULL || *rest == '\0') return false ;
        size_t n = strlen (rest) ;
        while (n > 0 && (rest [n-1] == ' ' || rest [n-1] == '\t')) rest [--n] = '\0' ;
        snprintf (section, ssize, "%s", rest) ;
        return true ;
    }
    if (strcmp (tok, "family") == 0) return family_row (into, strtok_r (NULL, " \t", &save), &save) ;
    char *value = strtok_r (NULL, " \t", &save) ;
    return value != NULL && strtok_r (NULL, " \t", &save) == NULL && setting (into, tok, value) ;
}

// one pass over text: the lines of the sections that match applied to t
static GrB_Info pass (const char *text, const char *device, bool base, gcu_cost_table *t)
{
    char section [64] = "" ;
    int lineno = 0 ;
    for (const char *p = text ; *p != '\0' ; )
    {
        const char *nl = strchr (p, '\n') ;
        size_t n = nl != NULL ? (size_t) (nl - p) : strlen (p) ;
        char line [512] ;
        snprintf (line, sizeof (line), "%.*s", (int) (n < sizeof (line) ? n : sizeof (line) - 1), p) ;
        line [strcspn (line, "#\r")] = '\0' ;
        lineno++ ;
        bool dflt = strcmp (section, "default") == 0 ;
        bool apply = base ? dflt : (!dflt && section [0] != '\0' && device != NULL
            && strstr (device, section) != NULL) ;
        if (!line_parse (line, t, section, sizeof (section), apply))
        {
            gcu_log ("cost model: line %d not understood: %.*s", lineno, (int) n, p) ;
            return GrB_INVALID_VALUE ;
        }
        // the first matching section names the table (from its header on)
        if (!base && strcmp (section, "default") != 0 && section [0] != '\0' && device != NULL
            && strstr (device, section) != NULL && strcmp (t->device, "default") == 0)
            snprintf (t->device, sizeof (t->device), "%s", section) ;
        p += n + (nl != NULL) ;
    }
    return GrB_SUCCESS ;
}

GrB_Info gcu_cost_parse (const char *text, const char *device, gcu_cost_table *t)
{
    memset (t, 0, sizeof (*t)) ;
    if (text == NULL) return GrB_INVALID_VALUE ;
    snprintf (t->device, sizeof (t->device), "default") ;
    GrB_Info info = pass (text, device, true, t) ;
    if (info == GrB_SUCCESS && device != NULL && device [0] != '\0') info = pass (text, device, false, t) ;
    // every parameter must be there (in the default table at least)
    bool complete = t->margin > 0 && t->h2d > 0 && t->d2h > 0 && t->cuda_start > 0
        && t->jit_compile > 0 && t->wait_factor > 0 ;
    for (int f = 0 ; f < GCU_COST_NFAMILIES ; f++)
        complete = complete && t->fam [f].host_rate > 0 && t->fam [f].gpu_rate > 0
            && t->fam [f].host_fixed > 0 && t->fam [f].gpu_fixed > 0 ;
    if (info == GrB_SUCCESS && !complete)
    {
        gcu_log ("cost model: a parameter is missing from the default table") ;
        info = GrB_INVALID_VALUE ;
    }
    return info ;
}

//------------------------------------------------------------------------------
// the table in use
//------------------------------------------------------------------------------

static pthread_mutex_t cost_lock = PTHREAD_MUTEX_INITIALIZER ;
static char *cost_text ;                // set text, or GRBCUDA_COST_MODEL's file
static bool cost_text_read ;
static gcu_cost_table tables [2] ;      // [0] before CUDA, [1] for the device
static const gcu_cost_table *_Atomic ready [2] ;
static char ready_device [256] ;

// GRBCUDA_COST_MODEL's file, read once (cost_lock held); NULL: the embedded text
static const char *text_in_use (void)
{
    if (!cost_text_read)
    {
        cost_text_read = true ;
        const char *path = getenv ("GRBCUDA_COST_MODEL") ;
        FILE *f = (path != NULL && path [0] != '\0') ? fopen (path, "r") : NULL ;
        if (path != NULL && path [0] != '\0' && f == NULL)
            gcu_log ("GRBCUDA_COST_MODEL=%s cannot be read; the built-in tables are used", path) ;
        char *buf = (f != NULL) ? calloc (1, 1 << 16) : NULL ;
        if (buf != NULL) (void) fread (buf, 1, (1 << 16) - 1, f) ;
        if (f != NULL) fclose (f) ;
        gcu_cost_table t ;
        if (buf != NULL && gcu_cost_parse (buf, NULL, &t) == GrB_SUCCESS) cost_text = buf ;
        else free (buf) ;
    }
    return cost_text != NULL ? cost_text : (&gcu_cost_model_text != NULL ? gcu_cost_model_text : "") ;
}

const gcu_cost_table *gcu_cost_current (const char *device)
{
    const int k = (device != NULL && device [0] != '\0') ? 1 : 0 ;
    const gcu_cost_table *t = atomic_load_explicit (&ready [k], memory_order_acquire) ;
    if (t != NULL) return t ;
    pthread_mutex_lock (&cost_lock) ;
    if (atomic_load (&ready [k]) == NULL)
    {
        if (gcu_cost_parse (text_in_use (), device, &tables [k]) != GrB_SUCCESS)
            gcu_log ("cost model: the tables do not parse; the GPU is never predicted faster") ;
        if (k == 1) snprintf (ready_device, sizeof (ready_device), "%s", device) ;
        gcu_log ("cost model: table \"%s\" for %s", tables [k].device, k == 1 ? device : "the GPU not yet started") ;
        atomic_store (&ready [k], &tables [k]) ;
    }
    t = atomic_load (&ready [k]) ;
    pthread_mutex_unlock (&cost_lock) ;
    return t ;
}

GrB_Info gcu_cost_set_text (const char *text)
{
    gcu_cost_table t ;
    if (text != NULL && gcu_cost_parse (text, NULL, &t) != GrB_SUCCESS) return GrB_INVALID_VALUE ;
    char *copy = text != NULL ? strdup (text) : NULL ;
    if (text != NULL && copy == NULL) return GrB_OUT_OF_MEMORY ;
    pthread_mutex_lock (&cost_lock) ;
    // a table handed out before stays valid memory; it is parsed again below
    free (cost_text) ;
    cost_text = copy ;
    cost_text_read = copy != NULL ;     // NULL: GRBCUDA_COST_MODEL again, or the embedded text
    gcu_cost_parse (text_in_use (), NULL, &tables [0]) ;
    if (ready_device [0] != '\0') gcu_cost_parse (text_in_use (), ready_device, &tables [1]) ;
    atomic_store (&ready [0], &tables [0]) ;
    if (ready_device [0] != '\0') atomic_store (&ready [1], &tables [1]) ;
    pthread_mutex_unlock (&cost_lock) ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// the predictions
//------------------------------------------------------------------------------

// The uploads' time: their bytes at h2d (the export and the staged copy, as
// measured on large operands held in the orientation wanted), and the
// entries the export transposes at transpose. FastSV's parent matrix, packed
// by column and wanted by row by the SpMV, took 12.5-13.1 ms to export
// (1M entries) and 0.85-1.05 to go up, where its bytes predicted 1.0 in all:
// the rent paid, and its mxv took 15 ms on the GPU against the host's 1.3
// (H200, 2026-11-28).
static double transposes_s (const gcu_cost_table *t, const gcu_cost_input *in)
{
    return in->up_transpose * t->transpose + in->up_transpose_dev * t->device_transpose ;
}

double gcu_cost_upload_s (const gcu_cost_table *t, const gcu_cost_input *in)
{
    return in->up_bytes / t->h2d + transposes_s (t, in) ;
}

void gcu_cost_predict (const gcu_cost_table *t, const gcu_cost_input *in, gcu_cost_choice *out)
{
    const gcu_cost_rates *r = &t->fam [in->family] ;
    if (!(r->host_rate > 0) || !(r->gpu_rate > 0) || !(t->h2d > 0) || !(t->d2h > 0))
    {
        // no usable table: the host
        out->host_s = out->gpu_s = out->host_table = out->gpu_table = out->gpu_call_table = 0 ;
        out->gpu = false ;
        return ;
    }
    double host_work = in->work / r->host_rate ;
    if (in->family == GCU_COST_SPMSPV && in->full_work > 0)
        host_work = fmin (host_work, in->full_work / t->fam [GCU_COST_MXV].host_rate) ;
    out->host_table = r->host_fixed + host_work + in->rows * r->host_row + in->newest_bytes / t->d2h ;
    out->host_s = (in->host_measured > 0 ? in->host_measured + in->newest_bytes / t->d2h
        : out->host_table * gcu_cost_factor (GCU_SIDE_HOST, in->op, in->family, in->mask, out->host_table))
        + in->host_after ;
    // a result of few rows leaves a row-wise kernel most of the GPU idle
    // (LAGraph's betweenness: 4-by-n frontiers times A, a block a row)
    const double fill = (r->gpu_rows > 0 && in->out_rows > 0 && in->out_rows < r->gpu_rows)
        ? in->out_rows / r->gpu_rows : 1 ;
    const double kernels = in->gpu_kernels > 0 ? in->gpu_kernels : in->work / (r->gpu_rate * fill) ;
    const double up_s = gcu_cost_upload_s (t, in) ;
    const double down_s = in->down_bytes / t->d2h ;
    out->gpu_table = r->gpu_fixed + kernels + up_s + down_s ;
    // A result that stays on the device comes back later, if at all, as a
    // write-back the call's measured time does not hold: neither learned
    // nor corrected. Once in the factor, the kinds whose results stayed
    // taught it what their calls took without it, and scaled the download
    // of those whose results come back: LAGraph's connected components'
    // 1M-entry apply, run after PageRank, predicted 0.16 ms on the GPU (its
    // 0.34 ms download at the factor 0.2 that the apply's own calls had
    // taught), took 0.19 and its write-back 0.58, against 0.5 on the host
    // (H200, 2026-11-29).
    const double later = in->down_later ? down_s : 0 ;
    out->gpu_call_table = out->gpu_table - later ;
    // (the learned factors correct a side's whole table time, transfers
    // included; a matrix's upload at h2d, the export's rate as measured on
    // large operands, is a floor no factor goes under: FastSV's mxv over its
    // new 8.4 MB parent matrix was predicted 0.168 ms on the GPU by a factor
    // of 0.08 that calls over resident operands had taught, and took 12.5 ms
    // against the host's 1.4; H200, 2026-11-28. Not a vector's: h2d is the
    // matrix path's rate, and a dense vector goes up faster, 4.2 MB in 0.29
    // ms there, which the factor corrects). A transpose on the way is in
    // the floor too.
    const double up_floor = in->up_matrix_bytes / t->h2d + transposes_s (t, in) ;
    out->gpu_s = later + fmax (up_floor, out->gpu_call_table * (in->gpu_kernels > 0 ? 1
        : gcu_cost_factor (GCU_SIDE_GPU, in->op, in->family, in->mask, out->gpu_call_table))) ;
    out->gpu_s += in->first_s ;
    out->gpu = out->gpu_s * t->margin < out->host_s ;
}

//------------------------------------------------------------------------------
// the host's and the GPU's times as this program's calls measured them
//------------------------------------------------------------------------------

// decades of the table's prediction: below 100 us, .. 1 ms, .. 10 ms, ..
// 100 ms, .. 1 s, above
#define GCU_COST_DECADES 6
#define GCU_COST_LEARN_RATE 0.25
static pthread_mutex_t learned_lock = PTHREAD_MUTEX_INITIALIZER ;
// ln(measured / predicted) per side, operation, family, mask and decade (written
// under the lock), and its exp, the factor every prediction reads (0:
// nothing learned, 1). Each auto call reads two factors and teaches one:
// the factor kept rather than exp'd, and the decade by comparisons rather
// than log10 and floor, took 6 of the 8 libm calls off a call that stays on
// the host (a 4x4 GrB_mxm's added time in auto, bench/overhead.sh).
static double learned [2][GCU_OP_COUNT][GCU_COST_NFAMILIES][GCU_MASK_KINDS][GCU_COST_DECADES] ;
static _Atomic double factor_of [2][GCU_OP_COUNT][GCU_COST_NFAMILIES][GCU_MASK_KINDS][GCU_COST_DECADES] ;
// calls learned from, per kind (to 255)
static _Atomic unsigned char measured [2][GCU_OP_COUNT][GCU_COST_NFAMILIES][GCU_MASK_KINDS][GCU_COST_DECADES] ;

static int decade (double table_s)
{
    static const double edge [GCU_COST_DECADES - 1] = { 1e-4, 1e-3, 1e-2, 1e-1, 1 } ;
    int d = 0 ;
    while (d < GCU_COST_DECADES - 1 && table_s >= edge [d]) d++ ;
    return d ;
}

static bool learned_kind (gcu_cost_side side, gcu_op op, gcu_cost_family f, gcu_cost_mask m)
{
    return (side == GCU_SIDE_HOST || side == GCU_SIDE_GPU)
        && (int) op >= 0 && op < GCU_OP_COUNT && (int) f >= 0 && f < GCU_COST_NFAMILIES
        && (int) m >= 0 && m < GCU_MASK_KINDS ;
}

gcu_cost_mask gcu_cost_mask_of (const gcu_call *c)
{
    return c->M == NULL ? GCU_MASK_NONE : c->mask_comp ? GCU_MASK_COMP : GCU_MASK_PLAIN ;
}

double gcu_cost_factor (gcu_cost_side side, gcu_op op, gcu_cost_family f, gcu_cost_mask m, double table_s)
{
    if (!learned_kind (side, op, f, m) || !(table_s > 0)) return 1 ;
    const double x = atomic_load_explicit (&factor_of [side][op][f][m][decade (table_s)],
        memory_order_relaxed) ;
    return x > 0 ? x : 1 ;
}

void gcu_cost_learn (gcu_cost_side side, gcu_op op, gcu_cost_family f, gcu_cost_mask m,
    double table_s, double s)
{
    if (!learned_kind (side, op, f, m) || !(table_s > 0) || !(s > 0)) return ;
    const double r = fmin (fmax (log (s / table_s), -log (64.0)), log (64.0)) ;
    const int d = decade (table_s) ;
    pthread_mutex_lock (&learned_lock) ;
    double *l = &learned [side][op][f][m][d] ;
    *l += GCU_COST_LEARN_RATE * (r - *l) ;
    atomic_store_explicit (&factor_of [side][op][f][m][d], exp (*l), memory_order_relaxed) ;
    const unsigned char k = atomic_load_explicit (&measured [side][op][f][m][d], memory_order_relaxed) ;
    if (k < 255) atomic_store_explicit (&measured [side][op][f][m][d], (unsigned char) (k + 1), memory_order_relaxed) ;
    pthread_mutex_unlock (&learned_lock) ;
}

// What was learned, for the statistics (GRBCUDA_STATS): a kind of call that
// a few slow GPU calls keep on the host shows here with its GPU factor.
// A GPU factor above 1 is measured again only by a call the GPU runs, and
// a kind it keeps on the host runs none: a few slow GPU calls (the first
// ones after CUDA's start take 70-110 ms, RESULTS 2026-11-28 00:20) could
// keep a kind on the host for the rest of the process. So each call of the
// kind that the host ran because the host was predicted faster takes the
// GPU's learned slowdown a step back toward the table; when the GPU is
// predicted faster again it runs a call, which measures it anew. (LAGraph's
// BFS on rmat-20-16 in auto: 450-610 ms a search in one process of five, 65-100
// in the others; its vxm and mxv all on the host, "host predicted faster";
// H200, 2026-11-28.)
#define GCU_COST_DOUBT_RATE (1.0 / 32)
void gcu_cost_doubt (gcu_op op, gcu_cost_family f, gcu_cost_mask m, double gpu_table_s)
{
    if (!learned_kind (GCU_SIDE_GPU, op, f, m) || !(gpu_table_s > 0)) return ;
    const int d = decade (gpu_table_s) ;
    pthread_mutex_lock (&learned_lock) ;
    double *l = &learned [GCU_SIDE_GPU][op][f][m][d] ;
    if (*l > 0)
    {
        *l -= GCU_COST_DOUBT_RATE * *l ;
        atomic_store_explicit (&factor_of [GCU_SIDE_GPU][op][f][m][d], exp (*l), memory_order_relaxed) ;
    }
    pthread_mutex_unlock (&learned_lock) ;
}

int gcu_cost_measured (gcu_cost_side side, gcu_op op, gcu_cost_family f, gcu_cost_mask m, double table_s)
{
    return learned_kind (side, op, f, m) && table_s > 0
        ? atomic_load_explicit (&measured [side][op][f][m][decade (table_s)], memory_order_relaxed) : 0 ;
}

size_t gcu_cost_learned_print (char *buf, size_t cap, const char *prefix)
{
    static const char *const side_name [2] = { "host", "gpu" } ;
    static const char *const mask_name [GCU_MASK_KINDS] = { "no mask", "mask", "complemented mask" } ;
    static const char *const decade_name [GCU_COST_DECADES] =
        { "< 0.1 ms", "0.1-1 ms", "1-10 ms", "10-100 ms", "0.1-1 s", "> 1 s" } ;
    size_t len = 0 ;
    pthread_mutex_lock (&learned_lock) ;
    for (int s = 0 ; s < 2 ; s++)
    for (int op = 0 ; op < GCU_OP_COUNT ; op++)
    for (int f = 0 ; f < GCU_COST_NFAMILIES ; f++)
    for (int m = 0 ; m < GCU_MASK_KINDS ; m++)
    for (int d = 0 ; d < GCU_COST_DECADES ; d++)
    {
        const double l = learned [s][op][f][m][d] ;
        if (fabs (l) < log (2.0) || len + 200 >= cap) continue ;
        len += (size_t) snprintf (buf + len, cap - len, "%s%s %s, %s, %s, predicted %s: "
            "%.3gx the table\n", prefix, gcu_op_name ((gcu_op) op), side_name [s],
            family_names [f], mask_name [m], decade_name [d], exp (l)) ;
    }
    pthread_mutex_unlock (&learned_lock) ;
    return len ;
}

void gcu_cost_forget (void)
{
    pthread_mutex_lock (&learned_lock) ;
    memset (learned, 0, sizeof (learned)) ;
    _Atomic double *x = &factor_of [0][0][0][0][0] ;
    _Atomic unsigned char *y = &measured [0][0][0][0][0] ;
    for (size_t k = 0 ; k < sizeof (factor_of) / sizeof (factor_of [0][0][0][0][0]) ; k++)
    {
        atomic_store_explicit (&x [k], 0, memory_order_relaxed) ;
        atomic_store_explicit (&y [k], 0, memory_order_relaxed) ;
    }
    pthread_mutex_unlock (&learned_lock) ;
}

//------------------------------------------------------------------------------
// ski rental of uploads
//------------------------------------------------------------------------------

#define GCU_AMORTIZE_SLOTS 64

static pthread_mutex_t amortize_lock = PTHREAD_MUTEX_INITIALIZER ;
// strikes: purchases of the key so far (at most GCU_AMORTIZE_STRIKES): each
// doubles what the next one must have lost first
#define GCU_AMORTIZE_STRIKES 6
static struct { const void *key ; uint64_t version ; double gain ; int strikes ; } lost [GCU_AMORTIZE_SLOTS] ;

// (amortize_lock held) key's slot at version: a slot another key had (the
// one that has lost least) or another version's starts from nothing; -1 if
// the key is not there and want is false
static int slot_of (const void *key, uint64_t version, bool want)
{
    int k = 0, low = 0 ;
    while (k < GCU_AMORTIZE_SLOTS && lost [k].key != key)
    {
        if (lost [k].gain < lost [low].gain) low = k ;
        k++ ;
    }
    if (k == GCU_AMORTIZE_SLOTS && !want) return -1 ;
    if (k == GCU_AMORTIZE_SLOTS || lost [k].version != version)
    {
        if (k == GCU_AMORTIZE_SLOTS)
        {
            k = low ;
            lost [k].strikes = 0 ;      // another key's slot
        }
        lost [k].key = key ;
        lost [k].version = version ;
        lost [k].gain = 0 ;
    }
    return k ;
}

void gcu_cost_amortize_add (const void *key, uint64_t version, double gain)
{
    if (key == NULL || !(gain > 0)) return ;
    pthread_mutex_lock (&amortize_lock) ;
    lost [slot_of (key, version, true)].gain += gain ;
    pthread_mutex_unlock (&amortize_lock) ;
}

bool gcu_cost_amortized (const void *key, uint64_t version, double cost)
{
    if (key == NULL) return false ;
    pthread_mutex_lock (&amortize_lock) ;
    const int k = slot_of (key, version, false) ;
    const bool pay = k >= 0 && lost [k].gain > 0 && lost [k].gain >= cost * (double) (1 << lost [k].strikes) ;
    pthread_mutex_unlock (&amortize_lock) ;
    return pay ;
}

void gcu_cost_amortize_paid (const void *key)
{
    pthread_mutex_lock (&amortize_lock) ;
    for (int k = 0 ; k < GCU_AMORTIZE_SLOTS ; k++)
    {
        if (lost [k].key != key) continue ;
        lost [k].gain = 0 ;
        if (lost [k].strikes < GCU_AMORTIZE_STRIKES) lost [k].strikes++ ;
    }
    pthread_mutex_unlock (&amortize_lock) ;
}

// A set of keys (never 0) kept as a ring: the last n added, the oldest
// forgotten first; amortize_lock guards it
typedef struct { uint64_t *key ; int n, next ; } key_ring ;

static bool ring_has (const key_ring *r, uint64_t key)
{
    pthread_mutex_lock (&amortize_lock) ;
    bool found = false ;
    for (int k = 0 ; key != 0 && k < r->n && !found ; k++) found = r->key [k] == key ;
    pthread_mutex_unlock (&amortize_lock) ;
    return found ;
}

static void ring_add (key_ring *r, uint64_t key)
{
    if (key == 0) return ;
    pthread_mutex_lock (&amortize_lock) ;
    int k = 0 ;
    while (k < r->n && r->key [k] != key) k++ ;
    if (k == r->n)
    {
        r->key [r->next] = key ;
        r->next = (r->next + 1) % r->n ;
    }
    pthread_mutex_unlock (&amortize_lock) ;
}

// (amortize_lock held)
static void ring_clear (key_ring *r)
{
    memset (r->key, 0, (size_t) r->n * sizeof (r->key [0])) ;
    r->next = 0 ;
}

// the signatures of matrices whose rent paid (the last 8)
static uint64_t paid_keys [8] ;
static key_ring paid = { paid_keys, 8, 0 } ;

bool gcu_cost_sig_paid (uint64_t sig) { return ring_has (&paid, sig) ; }
void gcu_cost_sig_record (uint64_t sig) { ring_add (&paid, sig) ; }

// (amortize_lock held) a small table's slot: k where the key was found (k <
// n), else the next one round the ring, the oldest
static int ring_slot (int k, int n, int *next)
{
    if (k < n) return k ;
    k = *next ;
    *next = (*next + 1) % n ;
    return k ;
}

// the made matrices and their sources (gcu_cost_lineage_record), the last
// GCU_LINEAGE of them
#define GCU_LINEAGE 8
static struct { const void *made, *source ; uint64_t version ; } lineage [GCU_LINEAGE] ;
static int lineage_next ;

void gcu_cost_lineage_record (const void *made, const void *source, uint64_t version)
{
    if (made == NULL || source == NULL || made == source) return ;
    pthread_mutex_lock (&amortize_lock) ;
    int k = 0 ;
    while (k < GCU_LINEAGE && lineage [k].made != made) k++ ;
    k = ring_slot (k, GCU_LINEAGE, &lineage_next) ;
    lineage [k].made = made ;
    lineage [k].source = source ;
    lineage [k].version = version ;
    pthread_mutex_unlock (&amortize_lock) ;
}

void gcu_cost_lineage_credit (const void *made, double seconds)
{
    if (made == NULL || !(seconds > 0)) return ;
    pthread_mutex_lock (&amortize_lock) ;
    for (int k = 0 ; k < GCU_LINEAGE ; k++)
    {
        if (lineage [k].made != made) continue ;
        lost [slot_of (lineage [k].source, lineage [k].version, true)].gain += seconds ;
        break ;
    }
    pthread_mutex_unlock (&amortize_lock) ;
}

// kinds of call that have run on the GPU (the last 256: the oldest
// forgotten, then paying its first run again in the model)
static uint64_t ran_keys [256] ;
static key_ring ran = { ran_keys, 256, 0 } ;

double gcu_cost_first_s (const gcu_cost_table *t, uint64_t site)
{
    return site == 0 || ring_has (&ran, site) ? 0 : t->first_run ;
}

void gcu_cost_first_ran (uint64_t site) { ring_add (&ran, site) ; }

// (256: the products of a program's algorithms are kept beside its selects
// and kernels, a betweenness centrality's levels among them)
#define GCU_REPEATS 256
static struct { uint64_t key ; double seconds ; } repeats [GCU_REPEATS] ;
static int repeat_next ;

void gcu_cost_repeat_put (uint64_t key, double seconds)
{
    if (key == 0 || !(seconds > 0)) return ;
    pthread_mutex_lock (&amortize_lock) ;
    int k = 0 ;
    while (k < GCU_REPEATS && repeats [k].key != key) k++ ;
    k = ring_slot (k, GCU_REPEATS, &repeat_next) ;
    repeats [k].key = key ;
    repeats [k].seconds = seconds ;
    pthread_mutex_unlock (&amortize_lock) ;
}

bool gcu_cost_repeat_get (uint64_t key, double *seconds)
{
    bool found = false ;
    if (key == 0) return false ;
    pthread_mutex_lock (&amortize_lock) ;
    for (int k = 0 ; k < GCU_REPEATS && !found ; k++)
    {
        if (repeats [k].key != key) continue ;
        *seconds = repeats [k].seconds ;
        found = true ;
    }
    pthread_mutex_unlock (&amortize_lock) ;
    return found ;
}

void gcu_cost_amortize_reset (void)
{
    pthread_mutex_lock (&amortize_lock) ;
    memset (lineage, 0, sizeof (lineage)) ;
    lineage_next = 0 ;
    memset (repeats, 0, sizeof (repeats)) ;
    repeat_next = 0 ;
    memset (lost, 0, sizeof (lost)) ;
    ring_clear (&paid) ;
    ring_clear (&ran) ;
    pthread_mutex_unlock (&amortize_lock) ;
}

GrB_Info grbcuda_set_cost_model (const char *text)
{
    GrB_Info info = gcu_cost_set_text (text) ;
    if (info == GrB_SUCCESS) gcu_threshold_clear () ;
    return info ;
}
