// spmv.c — the SpMV variants of the GrB_mxv / GrB_vxm family (u full, no
// mask; cuda/mxv/gcu_spmv.cuh): the matrix's plan (row-length features and
// long rows, spmv_plan.cu) cached with its device copy as derived data
// (GCU_RES_DERIVED_SPMV), and the variant chosen from it, after Sedaghati
// et al. 2015: regular rows (sliced ELL's padding small) read a sliced
// copy of the matrix a thread a row, fully coalesced (sell; the copy built
// once a matrix and cached with it, GCU_RES_DERIVED_SELL); other short rows
// (a low mean) stage the products of blocks of about the same number of
// entries in shared memory (adaptive), longer ones give a group of threads
// to a row (vector), and a matrix with rows far longer than the rest
// (power-law graphs) cuts those into segments (split). The tests, and
// GRBCUDA_SPMV, may force each (and stream, blocks of a fixed number of
// rows).
#include "gcu_mxv.h"
#include "gcu_spmv_plan.h"
#include "gcu_util.h"
#include "../residency/gcu_residency.h"
#include "../device/gcu_device.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if GRBCUDA_HAVE_CUDA

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

static int force_variant = GCU_SPMV_AUTO, force_split = -1 ;
static int force_hub = -1 ;
static _Atomic int last_hub = -1 ;
static _Atomic int last_spmv = -1 ;     // (atomic: GPU calls from several threads)

int gcu_mxv_last_spmv (void) { return atomic_load_explicit (&last_spmv, memory_order_relaxed) ; }
void gcu_mxv_last_spmv_reset (void)
{
    gcu_mxv_last_spmv_set (-1) ;
    atomic_store_explicit (&last_hub, -1, memory_order_relaxed) ;
}
int gcu_mxv_last_spmv_hub (void) { return atomic_load_explicit (&last_hub, memory_order_relaxed) ; }
void gcu_mxv_force_spmv_hub (int hub) { force_hub = hub ; }
void gcu_mxv_last_spmv_set (int v) { atomic_store_explicit (&last_spmv, v, memory_order_relaxed) ; }
static int64_t force_lrow = 0 ;
static int force_nat = -1 ;
static int env_hub = -1 ;       // GRBCUDA_SPMV's +hub=0/1, -1: none (the automatic choice)
static int env_wrow = 0 ;       // GRBCUDA_SPMV's +wrow=N (measurements), 0: none
static int env_nat = -1 ;       // its +nat=0/1, -1: none (the policy's GCU_SPMV_NAT)
static int env_minb = 0 ;       // its +minb=N, 0: none (the policy's)

void gcu_mxv_force_spmv_nat (int nat) { force_nat = nat ; }

void gcu_mxv_force_variant (int variant, int split, int64_t lrow)
{
    force_variant = variant ;
    force_split = split ;
    force_lrow = lrow ;
}

static const char *const variant_names [GCU_SPMV_NVARIANTS] =
    { "auto", "pull", "vector", "stream", "sell", "adaptive", "sellsort" } ;

// GRBCUDA_SPMV: "auto", "pull", "vector", "stream", "sell", "adaptive" or
// "sellsort",
// optionally with "+split" or "+nosplit", "+lrow=N" (the split's bound)
// and "+wrow=N" (adaptive's rows longer than N folded by a warp), "+nat=0"
// or "+nat=1" (sell's and long's native sums), "+minb=N" (their launch
// bounds) and "+hub=0" or "+hub=1" (the hub order, spmv_hub.cu):
// measurements, e.g. "stream+split+lrow=4096"; the tests' force wins
static void forced (int *variant, int *split, int64_t *lrow)
{
    *variant = force_variant ;
    *split = force_split ;
    *lrow = force_lrow > 0 ? force_lrow : 0 ;     // (0: the automatic bound, auto_lrow)
    env_wrow = 0 ;
    env_nat = -1 ;
    env_minb = 0 ;
    env_hub = -1 ;
    const char *e = getenv ("GRBCUDA_SPMV") ;
    if (force_variant != GCU_SPMV_AUTO || force_split >= 0 || force_lrow > 0 || e == NULL) return ;
    for (int v = 0 ; v < GCU_SPMV_NVARIANTS ; v++)
    {
        const size_t len = strlen (variant_names [v]) ;
        if (strncmp (e, variant_names [v], len) == 0 && (e [len] == '\0' || e [len] == '+'))
            *variant = v ;
    }
    if (strstr (e, "+split") != NULL) *split = 1 ;
    if (strstr (e, "+nosplit") != NULL) *split = 0 ;
    const char *l = strstr (e, "+lrow=") ;
    if (l != NULL && atoll (l + 6) > 0) *lrow = atoll (l + 6) ;
    const char *w = strstr (e, "+wrow=") ;
    env_wrow = w != NULL && atoi (w + 6) > 0 ? atoi (w + 6) : 0 ;
    const char *na = strstr (e, "+nat=") ;
    if (na != NULL) env_nat = atoi (na + 5) != 0 ;
    const char *mb = strstr (e, "+minb=") ;
    if (mb != NULL) env_minb = atoi (mb + 6) ;
    const char *hb = strstr (e, "+hub=") ;
    if (hb != NULL) env_hub = atoi (hb + 5) != 0 ;
}

bool gcu_mxv_spmv_forced (void)
{
    int variant, split ;
    int64_t lrow ;
    forced (&variant, &split, &lrow) ;
    return variant != GCU_SPMV_AUTO && variant != GCU_SPMV_PULL ;
}

//------------------------------------------------------------------------------
// the plan: computed once a matrix, cached with its device copy
//------------------------------------------------------------------------------

// a device buffer of bytes for the derived entry c (or, c NULL, of this
// call: sp->own_ [k])
static GrB_Info buf_alloc (gcu_res_entry *c, gcu_spmv *sp, int k, size_t bytes, void **p,
    gcu_stream s)
{
    if (c != NULL) return gcu_residency_alloc (c, bytes, p) ;
    GCU_TRY (gcu_dmalloc (&sp->own_ [k], bytes, s)) ;
    *p = sp->own_ [k] ;
    return GrB_SUCCESS ;
}

// the plan's long rows and adaptive's blocks into buffers of the derived
// entry c (or, c NULL, of this call: sp->own_)
static GrB_Info plan_long (gcu_res_entry *c, const void *Rp, bool idx64, gcu_spmv *sp,
    gcu_spmv_plan *p, gcu_stream s)
{
    void *Bs = NULL, *Sg = NULL ;
    GCU_TRY (buf_alloc (c, sp, 1, (size_t) (p->nblk + 1) * sizeof (int64_t), &Bs, s)) ;
    GCU_TRY (gcu_spmv_plan_blocks (Rp, idx64, p, (int64_t *) Bs, s)) ;
    p->Bs = (const int64_t *) Bs ;
    if (p->nlong == 0) return GrB_SUCCESS ;
    GCU_TRY (buf_alloc (c, sp, 0, (size_t) p->nseg * 3 * sizeof (int64_t), &Sg, s)) ;
    GCU_TRY (gcu_spmv_plan_long (Rp, idx64, p, (int64_t *) Sg, s)) ;
    p->Sg = (const int64_t *) Sg ;
    return GrB_SUCCESS ;
}

// the plan sp->plan (stats computed) attached to parent as derived data
static GrB_Info plan_publish (gcu_res_entry *parent, const void *Rp, bool idx64, gcu_spmv *sp,
    gcu_stream s)
{
    gcu_res_entry *c = NULL ;
    GCU_TRY (gcu_residency_derived_begin (parent, GCU_RES_DERIVED_SPMV, &c)) ;
    gcu_spmv_plan *h = malloc (sizeof (gcu_spmv_plan)) ;
    GrB_Info info = h == NULL ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
    if (info == GrB_SUCCESS)
    {
        *h = sp->plan ;
        info = plan_long (c, Rp, idx64, sp, h, s) ;
    }
    if (info != GrB_SUCCESS)
    {
        free (h) ;
        gcu_residency_unpin (c) ;       // an abandoned build: freed
        return info ;
    }
    gcu_res_data *d = gcu_residency_data (c) ;
    d->host = h ;
    d->host_free = free ;
    d->layout = GCU_RES_DERIVED_SPMV ;
    (void) gcu_residency_publish (c) ;
    sp->plan = *h ;
    sp->e_ = c ;
    return GrB_SUCCESS ;
}

// the automatic bound of the long rows (GCU_SPMV_SHARE_LONG): R's nnz
// entries over the threads the device holds at once
static int64_t auto_lrow (int64_t nnz)
{
    const gcu_device_props *dev = gcu_device () ;
    const double threads = dev != NULL ? (double) dev->sm_count * dev->max_threads_per_sm : 1 ;
    return (double) nnz >= GCU_SPMV_SHARE_LONG * threads ? GCU_MXV_LONG_ROW : GCU_MXV_LONG_ROW_SMALL ;
}

// the plan of R (nrows rows, nnz entries) with long rows above lrow (0: the
// automatic bound): the cache's, or computed (and cached when parent is a
// cache entry)
static GrB_Info plan_get (gcu_res_entry *parent, const void *Rp, bool idx64, int64_t nrows,
    int64_t nnz, int64_t lrow, gcu_spmv *sp, gcu_stream s)
{
    gcu_res_entry *c = NULL ;
    if (parent != NULL && gcu_residency_derived_lookup (parent, GCU_RES_DERIVED_SPMV, &c) == GrB_SUCCESS)
    {
        const gcu_spmv_plan *h = (const gcu_spmv_plan *) gcu_residency_data (c)->host ;
        if (h != NULL && (lrow == 0 ? h->lrow_auto : h->lrow == lrow && !h->lrow_auto)
            && h->nrows == nrows)
        {
            sp->plan = *h ;
            sp->e_ = c ;
            sp->hit = true ;
            return GrB_SUCCESS ;
        }
        gcu_residency_unpin (c) ;       // made for another bound: replaced
    }
    const bool automatic = lrow == 0 ;
    if (automatic) lrow = auto_lrow (nnz) ;
    GCU_TRY (gcu_spmv_plan_stats (Rp, idx64, nrows, lrow, GCU_MXV_LONG_SEG, &sp->plan, s)) ;
    sp->plan.lrow_auto = automatic ;
    if (parent != NULL && plan_publish (parent, Rp, idx64, sp, s) == GrB_SUCCESS) return GrB_SUCCESS ;
    return plan_long (NULL, Rp, idx64, sp, &sp->plan, s) ;
}

//------------------------------------------------------------------------------
// the choice
//------------------------------------------------------------------------------

// threads a row: the mean rounded up to a power of two, at most a warp
static int group_of (double mean)
{
    int g = 1 ;
    while (g < GCU_MXV_GROUP_MAX && g < mean) g *= 2 ;
    return g ;
}

// the rows the base kernel computes and their entries
static void base_rows (const gcu_spmv *sp, int64_t *rows, int64_t *nnz)
{
    const gcu_spmv_plan *p = &sp->plan ;
    *rows = p->nrows - (sp->split ? p->nlong : 0) ;
    *nnz = p->nnz - (sp->split ? p->long_nnz : 0) ;
}

// the variant and its shape from the plan (variant and split: forced, or
// AUTO and -1)
static void choose (gcu_spmv *sp, size_t zsize, bool positional, int variant, int split)
{
    const gcu_spmv_plan *p = &sp->plan ;
    sp->split = split >= 0 ? (split == 1 && p->nlong > 0) : p->nlong > 0 ;
    int64_t rows, nnz ;
    base_rows (sp, &rows, &nnz) ;
    const double mean = rows > 0 ? (double) nnz / rows : 0 ;
    const char *why = "forced" ;
    if (variant == GCU_SPMV_AUTO)
    {
        // the plan's slices leave out the long rows: they are sell's when split
        const bool regular = (sp->split || p->nlong == 0) && nnz > 0
            && (double) p->sell_nnz <= GCU_SPMV_SELL_PAD_MAX * (double) nnz ;
        variant = regular ? GCU_SPMV_SELL
            : mean <= GCU_SPMV_STREAM_MEAN_MAX ? GCU_SPMV_SHORT_ROWS : GCU_SPMV_VECTOR ;
        why = regular ? "regular rows (little padding)"
            : mean <= GCU_SPMV_STREAM_MEAN_MAX ? "short rows" : "long rows" ;
    }
    if ((variant == GCU_SPMV_STREAM || variant == GCU_SPMV_ADAPTIVE) && positional)
    {
        variant = GCU_SPMV_VECTOR ;
        why = "positional multiplier" ;
    }
    sp->variant = variant ;
    sp->G = group_of (mean) ;
    int C = GCU_MXV_STREAM_TILE ;
    if ((size_t) C * zsize > GCU_MXV_STREAM_SMEM) C = (int) (GCU_MXV_STREAM_SMEM / zsize) ;
    sp->C = C < 1 ? 1 : C ;
    int R = 1 ;
    while (2 * R <= GCU_MXV_STREAM_ROWS_MAX && 2 * R * (mean > 1 ? mean : 1) <= sp->C) R *= 2 ;
    sp->R = R ;
    sp->W = env_wrow > 0 ? env_wrow : GCU_MXV_STREAM_WARP_ROW ;
    sp->kv.minb = env_minb ;
    sp->kv.nat = env_nat >= 0 ? env_nat != 0 : GCU_SPMV_NAT == 1 || (GCU_SPMV_NAT == 2 && !sp->split) ;
    if (force_nat >= 0) sp->kv.nat = force_nat != 0 ;
    snprintf (sp->why, sizeof (sp->why), "%s%s", why,
        sp->split ? ", rows longer than the bound split" : "") ;
}

// the derived entry c published, its host record a copy of the size bytes
// at info (freed with c)
static GrB_Info derived_publish (gcu_res_entry *c, const void *info, size_t size, int layout)
{
    void *h = malloc (size) ;
    if (h == NULL) return GrB_OUT_OF_MEMORY ;
    memcpy (h, info, size) ;
    gcu_res_data *d = gcu_residency_data (c) ;
    d->host = h ;
    d->host_free = free ;
    d->layout = layout ;
    (void) gcu_residency_publish (c) ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// sell's sliced copy of R: built once a matrix, cached with its device copy
//------------------------------------------------------------------------------

// what a cached sliced copy was built for, and its buffers (the entry's)
typedef struct
{
    int64_t nrows, lrow, total ;
    bool sorted, hub ;          // (hub: built from the hub order's indices)
    const int64_t *So ;
    const int32_t *Sp ;
    const void *Sj, *Sx ;
}
sell_info ;

// the slices of R with rows longer than lrow (> 0) left out, its rows in
// order or sorted by length, into buffers of the derived entry c
// (published here) or, c NULL, of this call; GCU_NOT_HANDLED when they
// would hold more than cap entries
static GrB_Info sell_build (gcu_res_entry *c, const gcu_spmv_matrix *R, int64_t lrow,
    bool sorted, double cap, gcu_spmv *sp, gcu_stream s)
{
    const int64_t nslices = (R->nrows + GCU_MXV_SELL_SLICE - 1) / GCU_MXV_SELL_SLICE ;
    void *So = NULL, *Sj = NULL, *Sx = NULL, *Sp = NULL ;
    int64_t total = 0 ;
    GCU_TRY (buf_alloc (c, sp, 3, (size_t) (nslices + 1) * sizeof (int64_t), &So, s)) ;
    if (sorted)
    {
        GCU_TRY (buf_alloc (c, sp, 6, (size_t) R->nrows * sizeof (int32_t), &Sp, s)) ;
        GCU_TRY (gcu_spmv_sell_sort (R->Rp, R->idx64, R->nrows, lrow, (int32_t *) Sp, s)) ;
    }
    GCU_TRY (gcu_spmv_sell_offsets (R->Rp, R->idx64, R->nrows, lrow, (const int32_t *) Sp,
        (int64_t *) So, &total, s)) ;
    if ((double) total > cap) return GCU_NOT_HANDLED ;
    const size_t n = (size_t) (total > 0 ? total : 1) ;
    GCU_TRY (buf_alloc (c, sp, 4, n * (R->idx64 ? sizeof (uint64_t) : sizeof (uint32_t)), &Sj, s)) ;
    if (!R->iso) GCU_TRY (buf_alloc (c, sp, 5, n * R->vsize, &Sx, s)) ;
    GCU_TRY (gcu_spmv_sell_fill (R, lrow, (const int32_t *) Sp, (const int64_t *) So, Sj, Sx, s)) ;
    if (c != NULL)
    {
        const sell_info h = { R->nrows, lrow, total, sorted, sp->hub, (const int64_t *) So,
            (const int32_t *) Sp, Sj, Sx } ;
        GCU_TRY (derived_publish (c, &h, sizeof (h), GCU_RES_DERIVED_SELL)) ;
        sp->se_ = c ;
    }
    sp->So = (const int64_t *) So ;
    sp->Sp = (const int32_t *) Sp ;
    sp->sell_nnz = total ;
    sp->Sj = Sj ;
    sp->Sx = R->iso ? R->Rx : Sx ;
    return GrB_SUCCESS ;
}

// sell's slices of R (rows longer than lrow > 0 left out): the cache's, or
// built (and cached when R has a cache entry; for this call only when the
// cache has no room)
static GrB_Info sell_get (const gcu_spmv_matrix *R, int64_t lrow, bool sorted, double cap,
    gcu_spmv *sp, gcu_stream s)
{
    gcu_res_entry *c = NULL ;
    if (R->parent != NULL && gcu_residency_derived_lookup (R->parent, GCU_RES_DERIVED_SELL, &c) == GrB_SUCCESS)
    {
        const sell_info *h = (const sell_info *) gcu_residency_data (c)->host ;
        if (h != NULL && h->lrow == lrow && h->nrows == R->nrows && h->sorted == sorted
            && h->hub == sp->hub && (double) h->total <= cap)
        {
            sp->So = h->So ;
            sp->Sp = h->Sp ;
            sp->Sj = h->Sj ;
            sp->Sx = R->iso ? R->Rx : h->Sx ;
            sp->se_ = c ;
            sp->sell_nnz = h->total ;
            sp->sell_hit = true ;
            return GrB_SUCCESS ;
        }
        gcu_residency_unpin (c) ;       // made for another bound or order: replaced
        c = NULL ;
    }
    GrB_Info info = GrB_OUT_OF_MEMORY ;
    if (R->parent != NULL && gcu_residency_derived_begin (R->parent, GCU_RES_DERIVED_SELL, &c) == GrB_SUCCESS)
    {
        info = sell_build (c, R, lrow, sorted, cap, sp, s) ;
        if (info != GrB_SUCCESS) gcu_residency_unpin (c) ;     // an abandoned build: freed
        if (info == GCU_NOT_HANDLED) return info ;
    }
    if (info != GrB_SUCCESS) info = sell_build (NULL, R, lrow, sorted, cap, sp, s) ;
    return info ;
}

//------------------------------------------------------------------------------
// the hub order: counted once a matrix, its relabelled indices cached with it
//------------------------------------------------------------------------------

// what a cached hub order was counted for, and its buffers (the entry's; Hj
// NULL where the order was not worth relabelling R)
typedef struct
{
    int64_t ncols, nnz ;
    double cover ;
    const int32_t *Hp ;
    const void *Hj ;
}
hub_info ;

// the hub order into buffers of the derived entry c (published here) or, c
// NULL, of this call: Hp and the share it gives the hubs, and R relabelled
// where relabel (forced on) or the share is worth it
static GrB_Info hub_build (gcu_res_entry *c, const gcu_spmv_matrix *R, int64_t nnz,
    bool relabel, gcu_spmv *sp, gcu_stream s)
{
    void *Hp = NULL, *Hj = NULL ;
    double cover = 0 ;
    const size_t isize = R->idx64 ? sizeof (uint64_t) : sizeof (uint32_t) ;
    GCU_TRY (buf_alloc (c, sp, 7, (size_t) R->ncols * sizeof (int32_t), &Hp, s)) ;
    GCU_TRY (gcu_spmv_hub_order (R->Rj, R->idx64, nnz, R->ncols, (int32_t *) Hp, &cover, s)) ;
    if (relabel || cover >= GCU_SPMV_HUB_COVER)
    {
        GCU_TRY (buf_alloc (c, sp, 8, (size_t) nnz * isize, &Hj, s)) ;
        GCU_TRY (gcu_spmv_hub_relabel (R->Rj, R->idx64, nnz, (const int32_t *) Hp, R->ncols, Hj, s)) ;
    }
    if (c != NULL)
    {
        const hub_info h = { R->ncols, nnz, cover, (const int32_t *) Hp, Hj } ;
        GCU_TRY (derived_publish (c, &h, sizeof (h), GCU_RES_DERIVED_HUB)) ;
        sp->he_ = c ;
    }
    sp->hub_cover = cover ;
    sp->Hp = (const int32_t *) Hp ;
    sp->Hj = Hj ;
    return GrB_SUCCESS ;
}

// the hub order where it runs (want: 1 forced, -1 automatic: by the hubs'
// share, counted once a matrix with a cache entry): sp->hub, Hp, Hj and
// the buffer of u's permuted copy. Positional multipliers read the
// columns' own positions: never. No device memory: not this call.
static GrB_Info hub_get (const gcu_spmv_matrix *R, bool positional, int want, gcu_spmv *sp,
    gcu_stream s)
{
    sp->hub = false ;
    sp->hub_cover = -1 ;
    const int64_t nnz = sp->plan.nnz ;
    if (want == 0 || positional || nnz <= 0 || R->ncols <= 0 || R->usize == 0) return GrB_SUCCESS ;
    if (want < 0 && (R->ncols < GCU_SPMV_HUB_MIN_COLS || R->parent == NULL)) return GrB_SUCCESS ;
    gcu_res_entry *c = NULL ;
    GrB_Info info = GrB_OUT_OF_MEMORY ;
    if (R->parent != NULL && gcu_residency_derived_lookup (R->parent, GCU_RES_DERIVED_HUB, &c) == GrB_SUCCESS)
    {
        const hub_info *h = (const hub_info *) gcu_residency_data (c)->host ;
        if (h != NULL && h->ncols == R->ncols && h->nnz == nnz && (h->Hj != NULL || want < 0))
        {
            sp->he_ = c ;
            sp->hub_cover = h->cover ;
            sp->Hp = h->Hp ;
            sp->Hj = h->Hj ;
            info = GrB_SUCCESS ;
        }
        else
        {
            gcu_residency_unpin (c) ;       // counted for another matrix, or not relabelled: replaced
            c = NULL ;
        }
    }
    if (info != GrB_SUCCESS && R->parent != NULL
        && gcu_residency_derived_begin (R->parent, GCU_RES_DERIVED_HUB, &c) == GrB_SUCCESS)
    {
        info = hub_build (c, R, nnz, want > 0, sp, s) ;
        if (info != GrB_SUCCESS) gcu_residency_unpin (c) ;     // an abandoned build: freed
    }
    if (info != GrB_SUCCESS && want > 0) info = hub_build (NULL, R, nnz, true, sp, s) ;
    if (info == GrB_OUT_OF_MEMORY || info == GCU_NOT_HANDLED) return GrB_SUCCESS ;
    GCU_TRY (info) ;
    if (sp->Hj == NULL) return GrB_SUCCESS ;
    if (gcu_dmalloc (&sp->own_ [2], (size_t) R->ncols * R->usize + 16, s) != GrB_SUCCESS) return GrB_SUCCESS ;
    sp->xp = sp->own_ [2] ;
    sp->ncols = R->ncols ;
    sp->usize = R->usize ;
    sp->hub = true ;
    return GrB_SUCCESS ;
}

// the plan, the variant, and sell's slices where it runs; a sell that
// cannot (padding past its cap, no device memory) gives way to adaptive
// (vector for positional multipliers)
GrB_Info gcu_spmv_prepare (const gcu_spmv_matrix *R, size_t zsize, bool positional,
    gcu_spmv *sp, gcu_stream s)
{
    memset (sp, 0, sizeof (*sp)) ;
    int variant, split ;
    int64_t lrow ;
    forced (&variant, &split, &lrow) ;
    if (variant == GCU_SPMV_PULL || R->nrows <= 0) return GCU_NOT_HANDLED ;
    GrB_Info info = plan_get (R->parent, R->Rp, R->idx64, R->nrows, R->nnz, lrow, sp, s) ;
    if (info == GrB_SUCCESS)
        info = hub_get (R, positional, force_hub >= 0 ? force_hub : env_hub, sp, s) ;
    // (sell's copy of R from the hub order's indices where it runs)
    gcu_spmv_matrix Rh = *R ;
    if (sp->hub) Rh.Rj = sp->Hj ;
    if (info == GrB_SUCCESS)
    {
        choose (sp, zsize, positional, variant, split) ;
        if (sp->variant == GCU_SPMV_SELL || sp->variant == GCU_SPMV_SELLSORT)
        {
            int64_t rows, nnz ;
            base_rows (sp, &rows, &nnz) ;
            const double cap = variant == GCU_SPMV_AUTO ? GCU_SPMV_SELL_PAD_MAX * (double) nnz
                : 4.0 * (double) nnz + (double) (1 << 20) ;
            info = sell_get (&Rh, sp->split ? sp->plan.lrow : 0, sp->variant == GCU_SPMV_SELLSORT,
                cap, sp, s) ;
            if (info == GCU_NOT_HANDLED || info == GrB_OUT_OF_MEMORY)
            {
                sp->variant = positional ? GCU_SPMV_VECTOR : GCU_SPMV_ADAPTIVE ;
                snprintf (sp->why, sizeof (sp->why), "sell declined (%s)%s",
                    info == GCU_NOT_HANDLED ? "padding" : "no device memory",
                    sp->split ? ", rows longer than the bound split" : "") ;
                info = GrB_SUCCESS ;
            }
        }
    }
    if (info != GrB_SUCCESS) gcu_spmv_release (sp, s) ;
    else atomic_store_explicit (&last_hub, sp->hub, memory_order_relaxed) ;
    return info ;
}

void gcu_spmv_release (gcu_spmv *sp, gcu_stream s)
{
    if (sp->e_ != NULL) gcu_residency_unpin (sp->e_) ;
    if (sp->se_ != NULL) gcu_residency_unpin (sp->se_) ;
    if (sp->he_ != NULL) gcu_residency_unpin (sp->he_) ;
    for (int k = 0 ; k < 9 ; k++)
    {
        gcu_dfree (sp->own_ [k], s) ;
        sp->own_ [k] = NULL ;
    }
    sp->e_ = sp->se_ = sp->he_ = NULL ;
}

void gcu_spmv_describe (const gcu_spmv *sp, char *buf, size_t size)
{
    const gcu_spmv_plan *p = &sp->plan ;
    char shape [96] ;
    if (sp->variant == GCU_SPMV_STREAM) snprintf (shape, sizeof (shape), "R %d, C %d", sp->R, sp->C) ;
    else if (sp->variant == GCU_SPMV_ADAPTIVE)
        snprintf (shape, sizeof (shape), "%lld blocks, C %d", (long long) p->nblk, sp->C) ;
    else if (sp->variant == GCU_SPMV_SELL || sp->variant == GCU_SPMV_SELLSORT)
        snprintf (shape, sizeof (shape), "slices of %d, padding x%.2f, %s%s", GCU_MXV_SELL_SLICE,
            p->nnz > 0 ? (double) sp->sell_nnz / (double) (p->nnz - (sp->split ? p->long_nnz : 0)) : 0,
            sp->sell_hit ? "cached" : "built", sp->kv.nat ? ", native sums" : "") ;
    else snprintf (shape, sizeof (shape), "G %d", sp->G) ;
    if (sp->hub_cover >= 0)
        snprintf (shape + strlen (shape), sizeof (shape) - strlen (shape), "; hub order %s (%d columns "
            "hold %.0f%%)", sp->hub ? "on" : "off", GCU_SPMV_HUB_COLS, 100 * sp->hub_cover) ;
    snprintf (buf, size, "spmv %s%s (%s; rows: mean %.1f, sd %.1f, max %lld, %lld longer than "
        "%lld in %lld segments; plan %s): %s", variant_names [sp->variant],
        sp->split ? "+split" : "", shape, p->mean, p->stddev, (long long) p->max_row,
        (long long) p->nlong, (long long) p->lrow, (long long) p->nseg,
        sp->hit ? "cached" : "computed", sp->why) ;
}

#else

bool gcu_mxv_spmv_forced (void) { return false ; }
int gcu_mxv_last_spmv (void) { return -1 ; }
void gcu_mxv_last_spmv_reset (void) { }
void gcu_mxv_last_spmv_set (int v) { (void) v ; }

void gcu_mxv_force_spmv_nat (int nat) { (void) nat ; }
void gcu_mxv_force_spmv_hub (int hub) { (void) hub ; }
int gcu_mxv_last_spmv_hub (void) { return -1 ; }

void gcu_mxv_force_variant (int variant, int split, int64_t lrow)
{
    (void) variant ; (void) split ; (void) lrow ;
}

#endif
