// spmm.c — SpMM's run, C = A*X with X dense (gcu_spmm.h): the plan of A's
// rows, made once a matrix and cached with A's device copy as derived data
// (GCU_RES_DERIVED_ASPT: dies with the copy when A changes): the segments
// of plan.cu and, where the ASpT analysis (aspt.c) says tiling pays, the
// tiles and the reordered rows; C's arrays from the caller's keep (CSR
// whose pattern the plan gives); the tile kernel and the segment kernel
// and, for rows of several segments, the fold kernel
// (cuda/spmm/gcu_spmm.cuh); then C's pattern.
#include "gcu_spmm.h"
#include "gcu_aspt.h"
#include "gcu_util.h"
#include "../residency/gcu_residency.h"
#include "../device/gcu_device.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


int gcu_spmm_seg (void)
{
    const int v = gcu_env_int ("GRBCUDA_SPMM_SEG", 0) ;
    return v > 0 ? v : GCU_SPMM_SEG ;
}

int gcu_sddmm_group_max (void)
{
    const int v = gcu_env_int ("GRBCUDA_SDDMM_GROUP", 0) ;
    return v > 0 ? v : GCU_SDDMM_GROUP_MAX ;
}

int gcu_spmm_vec_for (long long n, unsigned long wide, int contiguous)
{
    const int best = gcu_spmm_vec (n, wide, contiguous) ;
    const int v = gcu_env_int ("GRBCUDA_SPMM_VEC", 0) ;
    // a forced VEC only where the layout allows it
    return (v == 1 || v == 2 || v == 4) && v <= best && best % v == 0 ? v : best ;
}

int gcu_spmm_ch_for (long long n, int vec, int G)
{
    (void) G ;
    const int v = gcu_env_int ("GRBCUDA_SPMM_CH", 0) ;
    int ch = 1 ;
    if (v == 1 || v == 2 || v == 4) ch = v ;
    // a lane CH chunks where a group would otherwise be a whole warp (n at
    // least 32*VEC): half the lanes a row, each loading A's entries once
    // for twice the columns
    else while (2 * ch <= GCU_SPMM_CH_MAX && n >= (long long) 16 * vec * 2 * ch) ch *= 2 ;
    return ch ;
}

int gcu_spmm_group_for (long long n, int vec, int ch)
{
    return gcu_spmm_group ((n + ch - 1) / ch, vec, GCU_SPMM_GROUP_MAX) ;
}

int gcu_spmm_tile_mode (void)
{
    const char *e = getenv ("GRBCUDA_SPMM_TILE") ;
    if (e == NULL || e [0] == '\0' || strcmp (e, "auto") == 0) return -1 ;
    return (strcmp (e, "0") == 0 || strcmp (e, "off") == 0) ? 0 : 1 ;
}

void gcu_spmm_tune_get (gcu_spmm_tune *t)
{
    t->rows = gcu_env_int ("GRBCUDA_SPMM_ROWS", GCU_SPMM_ROWS) != 0 ;
    const int rmax = gcu_env_int ("GRBCUDA_SPMM_RMAX", 0) ;
    t->rmax = rmax > 0 ? rmax : GCU_SPMM_ROW_MAX ;
    const int u = gcu_env_int ("GRBCUDA_SPMM_UNROLL", GCU_SPMM_ROWS_UNROLL) ;
    t->unroll = (u == 2 || u == 8) ? u : 4 ;
    // 0: the policy's for the kernel (gcu_spmm_run: GCU_SPMM_MINB_NAT where
    // it sums natively, else GCU_SPMM_MINB)
    const int mb = gcu_env_int ("GRBCUDA_SPMM_MINB", 0) ;
    t->minb = mb >= 1 && mb <= 8 ? mb : 0 ;
    t->hint = gcu_env_int ("GRBCUDA_SPMM_HINT", GCU_SPMM_HINT) != 0 ;
    t->pipe = gcu_env_int ("GRBCUDA_SPMM_PIPE", GCU_SPMM_PIPE) != 0 ;
    t->nat = gcu_env_int ("GRBCUDA_SPMM_NAT", GCU_SPMM_NAT) != 0 ;
    const int so = gcu_env_int ("GRBCUDA_SPMM_SORT", GCU_SPMM_SORT) ;
    t->sort = so < 0 ? -1 : so > 0 ;
    const int sl = gcu_env_int ("GRBCUDA_SPMM_SLICE", 0) ;
    t->slice = sl > 0 ? sl : 0 ;
    const int g = gcu_env_int ("GRBCUDA_SPMM_GRID", GCU_SPMM_GRID) ;
    t->grid = g < 0 ? -1 : g ;
    const int fb = gcu_env_int ("GRBCUDA_SPMM_FOLDBIG", GCU_SPMM_FOLD_BIG) ;
    t->fold_big = fb > 0 ? fb : 0 ;
    const int hb = gcu_env_int ("GRBCUDA_SPMM_HUB", GCU_SPMM_HUB) ;
    t->hub = hb < 0 ? -1 : hb > 0 ;
    const int l1 = gcu_env_int ("GRBCUDA_SPMM_HUB_L1", GCU_SPMM_HUB_L1_BYTES) ;
    const int l2 = gcu_env_int ("GRBCUDA_SPMM_HUB_L2", GCU_SPMM_HUB_L2_BYTES) ;
    t->hub_l1 = l1 > 0 ? l1 : 0 ;
    t->hub_l2 = l2 > 0 ? l2 : 0 ;
}

#if GRBCUDA_HAVE_CUDA

//------------------------------------------------------------------------------
// the plan, cached with A
//------------------------------------------------------------------------------

// What a plan holds (its host half; the arrays are device buffers of the
// derived entry, or of this call)
typedef struct
{
    int seg, mode ;             // the settings it was made for
    bool rows ;
    int sort ;
    int64_t rmax ;
    int64_t m, lmax ;
    int64_t nord, *ord ;        // whole rows: in this order (NULL: 0..m-1)
    int64_t nrows, nseg, npartial ;
    int64_t *rank, *segoff, *heavyoff, *segrow ;
    bool tiled ;
    int64_t npanel, ntile ;
    const uint32_t *Rj, *tcols, *rtb ;
    const void *Rx ;
    const int64_t *ptile, *tcol ;
    // the row kernel's cache classes of A's columns (hub.cu), made for these
    // settings and X's rows in band hub_band (hub_want): Ajc, A's indices with them
    int hub, hub_band ;
    int64_t hub_l1, hub_l2 ;
    const void *Ajc ;
    char why [320] ;
}
spmm_plan ;

// where a plan's buffers come from: the derived entry c, else this call
typedef struct
{
    gcu_res_entry *c ;
    void *own [GCU_RES_MAX_BUFS] ;
    int nown ;
    gcu_stream s ;
}
plan_mem ;

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

static GrB_Info plan_alloc (plan_mem *pm, size_t bytes, void **p)
{
    if (pm->c != NULL) return gcu_residency_alloc (pm->c, bytes, p) ;
    GCU_TRY (gcu_dmalloc (p, bytes, pm->s)) ;
    pm->own [pm->nown++] = *p ;
    return GrB_SUCCESS ;
}

static void plan_mem_free (plan_mem *pm)
{
    for (int k = 0 ; k < pm->nown ; k++) gcu_dfree (pm->own [k], pm->s) ;
    pm->nown = 0 ;
    if (pm->c != NULL) gcu_residency_unpin (pm->c) ;
    pm->c = NULL ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL free (hp) ; free (hj) ; gcu_aspt_free (&t) ; gcu_dfree (Rq, pm->s) ;

// The ASpT analysis of A (its rows downloaded once): whether tiling pays
// (p->why says), and if so the tiles and reordered rows on the device.
// GrB_SUCCESS with p->tiled false where it does not pay or cannot be made.
static GrB_Info plan_tiles (const gcu_spmm_in *in, int mode, plan_mem *pm, spmm_plan *p)
{
    void *hp = NULL, *hj = NULL ;
    uint32_t *Rq = NULL ;
    gcu_aspt t ;
    memset (&t, 0, sizeof (t)) ;
    const int64_t m = in->m, nnz = (int64_t) in->anvals ;
    p->tiled = false ;
    if (mode == 0)
    {
        snprintf (p->why, sizeof (p->why), "row-wise: GRBCUDA_SPMM_TILE=0") ;
        return GrB_SUCCESS ;
    }
    if (m <= 0 || nnz <= 0 || nnz >= ((int64_t) 1 << 32) - 1 || in->k >= ((int64_t) 1 << 32) - 1
        || m >= ((int64_t) 1 << 31) - GCU_ASPT_PANEL)
    {
        snprintf (p->why, sizeof (p->why), "row-wise: no tiles for %s", nnz <= 0 ? "an empty A"
            : "64-bit sizes") ;
        return GrB_SUCCESS ;
    }
    const size_t iw = in->a_idx64 ? 8 : 4 ;
    hp = malloc ((size_t) (m + 1) * iw) ;
    hj = malloc ((size_t) nnz * iw) ;
    if (hp == NULL || hj == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    GCU_TRY (gcu_memcpy_d2h (hp, in->Ap, (size_t) (m + 1) * iw, pm->s)) ;
    GCU_TRY (gcu_memcpy_d2h (hj, in->Aj, (size_t) nnz * iw, pm->s)) ;
    GCU_TRY (gcu_sync (pm->s)) ;
    if (gcu_aspt_build (hp, hj, in->a_idx64, m, in->k, GCU_ASPT_PANEL, GCU_ASPT_TILE,
        GCU_ASPT_HEAVY, GCU_ASPT_LONG, true, &t) != 0) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    const double frac = (double) t.nnz_heavy / (double) nnz ;
    const double reuse = t.ncols_heavy > 0 ? (double) t.nnz_heavy / (double) t.ncols_heavy : 0 ;
    const bool pays = frac >= GCU_ASPT_MIN_FRAC && reuse >= GCU_ASPT_MIN_REUSE ;
    char tail [64] = "" ;
    if (mode != 1 && !pays)
        snprintf (tail, sizeof (tail), " (tiles pay from %.0f%% and %.1f)",
            100 * GCU_ASPT_MIN_FRAC, GCU_ASPT_MIN_REUSE) ;
    snprintf (p->why, sizeof (p->why), "%s: %.1f%% of A's entries in heavy columns (at least "
        "%d a panel of %d rows), %.1f entries a staged row of X%s", mode == 1 ? "tiles, forced"
        : pays ? "tiles" : "row-wise", 100 * frac, GCU_ASPT_HEAVY, GCU_ASPT_PANEL, reuse, tail) ;
    if (mode != 1 && !pays)
    {
        GCU_FREE_ALL ;
        return GrB_SUCCESS ;
    }
    if (gcu_aspt_build (hp, hj, in->a_idx64, m, in->k, GCU_ASPT_PANEL, GCU_ASPT_TILE,
        GCU_ASPT_HEAVY, GCU_ASPT_LONG, false, &t) != 0) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    free (hp) ; hp = NULL ;
    free (hj) ; hj = NULL ;
    // int64: ptile, tcol; uint32: Rj, tcols, rtb; Rx
    void *b64 = NULL, *b32 = NULL, *bx = NULL ;
    // int64: rank, segoff, heavyoff (plan_make's), ptile, tcol: one buffer
    // (an entry holds at most GCU_RES_MAX_BUFS: this, the uint32 arrays,
    // Rx, the segments' rows)
    const size_t r3 = 3 * (size_t) (m + 1) ;
    const size_t n64 = r3 + (size_t) (t.npanel + 1) + (size_t) (t.ntile + 1) ;
    const size_t n32 = (size_t) nnz + (size_t) t.ncols_heavy + (size_t) (t.ntile * t.P) + 4 ;
    GCU_TRY (plan_alloc (pm, n64 * sizeof (int64_t), &b64)) ;
    GCU_TRY (plan_alloc (pm, n32 * sizeof (uint32_t), &b32)) ;
    p->rank = (int64_t *) b64 ;
    int64_t *d64 = (int64_t *) b64 + r3 ;
    uint32_t *d32 = (uint32_t *) b32 ;
    GCU_TRY (gcu_memcpy_h2d (d64, t.ptile, (size_t) (t.npanel + 1) * sizeof (int64_t), pm->s)) ;
    GCU_TRY (gcu_memcpy_h2d (d64 + t.npanel + 1, t.tcol, (size_t) (t.ntile + 1) * sizeof (int64_t), pm->s)) ;
    GCU_TRY (gcu_memcpy_h2d (d32, t.Rj, (size_t) nnz * sizeof (uint32_t), pm->s)) ;
    if (t.ncols_heavy > 0)
        GCU_TRY (gcu_memcpy_h2d (d32 + nnz, t.tcols, (size_t) t.ncols_heavy * sizeof (uint32_t), pm->s)) ;
    if (t.ntile > 0)
        GCU_TRY (gcu_memcpy_h2d (d32 + nnz + t.ncols_heavy, t.rtb, (size_t) (t.ntile * t.P) * sizeof (uint32_t), pm->s)) ;
    if (in->a_iso) bx = (void *) in->Ax ;
    else
    {
        GCU_TRY (plan_alloc (pm, (size_t) nnz * in->a_size + 16, &bx)) ;
        GCU_TRY (gcu_dmalloc ((void **) &Rq, (size_t) nnz * sizeof (uint32_t), pm->s)) ;
        GCU_TRY (gcu_memcpy_h2d (Rq, t.Rq, (size_t) nnz * sizeof (uint32_t), pm->s)) ;
        GCU_TRY (gcu_spmm_gather (Rq, in->Ax, bx, nnz, in->a_size, pm->s)) ;
    }
    GCU_TRY (gcu_sync (pm->s)) ;        // the host arrays are freed next
    p->tiled = true ;
    p->lmax = GCU_ASPT_LONG ;
    p->npanel = t.npanel ; p->ntile = t.ntile ;
    p->ptile = d64 ; p->tcol = d64 + t.npanel + 1 ;
    p->Rj = d32 ; p->tcols = d32 + nnz ; p->rtb = d32 + nnz + t.ncols_heavy ;
    p->Rx = bx ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

// Whether the cache classes are wanted for rows of X of rb bytes: 0 not
// (off, X not by row, or in auto X's rows within GCU_SPMM_HUB_X_L2 times
// L2), 1 yes. A cached plan serves every call in its band: the classes made
// for one row size are hints for another (the column counts do not change;
// only the budgets' rows do), so a program alternating column counts does
// not rebuild the plan each call.
static int hub_want (const gcu_spmm_in *in, const gcu_spmm_tune *tu, int64_t rb)
{
    if (tu->hub == 0 || rb <= 0 || in->xcs != 1) return 0 ;
    if (tu->hub > 0) return 1 ;
    const gcu_device_props *dev = gcu_device () ;
    const double l2 = dev != NULL ? (double) dev->l2_bytes : 0, xb = (double) in->k * (double) rb ;
    return l2 > 0 && xb > GCU_SPMM_HUB_X_L2 * l2 ;
}

// the row kernel's cache classes of A's columns for rows of X of rb bytes
// (hub.cu; where they pay, or where forced): p->Ajc, and p->why says
static GrB_Info plan_hub (const gcu_spmm_in *in, const gcu_spmm_tune *tu, int64_t rb, plan_mem *pm,
    spmm_plan *p)
{
    const size_t len = strlen (p->why), room = sizeof (p->why) - len ;
    if (tu->hub == 0 || rb <= 0 || in->xcs != 1) return GrB_SUCCESS ;
    const double xb = (double) in->k * (double) rb ;
    if (!p->hub_band)
    {
        snprintf (p->why + len, room, "; no cache classes: X's rows (%.0f MB) within %.0fx L2",
            xb / 1e6, GCU_SPMM_HUB_X_L2) ;
        return GrB_SUCCESS ;
    }
    const int64_t nhot = tu->hub_l1 / rb ;
    const int64_t nwarm = tu->hub_l2 <= 0 ? 0 : tu->hub_l2 / rb > 0 ? tu->hub_l2 / rb : 1 ;
    gcu_spmm_hub_stats hs ;
    GrB_Info info = gcu_spmm_hub_classes (in->Aj, in->a_idx64, (int64_t) in->anvals, in->k, nhot,
        nwarm, NULL, &hs, pm->s) ;
    if (info == GCU_NOT_HANDLED) return GrB_SUCCESS ;
    GCU_TRY (info) ;
    const bool pays = hs.hot_frac >= GCU_SPMM_HUB_MIN_FRAC ;
    snprintf (p->why + len, room, "; %scache classes: %.1f%% of A's entries in hot columns "
        "(L1 for %lld rows of X; at least %u entries), %.1f%% in cold ones (under %u)%s",
        pays || tu->hub > 0 ? "" : "no ", 100 * hs.hot_frac, (long long) nhot, hs.hot_min,
        100 * hs.cold_frac, hs.warm_min, pays ? "" : tu->hub > 0 ? ", forced" : ", too few hot") ;
    if (!pays && tu->hub < 0) return GrB_SUCCESS ;
    void *b = NULL ;
    GCU_TRY (plan_alloc (pm, (size_t) in->anvals * (in->a_idx64 ? 8 : 4) + 16, &b)) ;
    GCU_TRY (gcu_spmm_hub_classes (in->Aj, in->a_idx64, (int64_t) in->anvals, in->k, nhot, nwarm,
        b, &hs, pm->s)) ;
    p->Ajc = b ;
    return GrB_SUCCESS ;
}

// the plan made into pm's buffers
static GrB_Info plan_make (const gcu_spmm_in *in, int seg, int mode, const gcu_spmm_tune *tu,
    int64_t rb, plan_mem *pm, spmm_plan *p)
{
    const int64_t m = in->m ;
    memset (p, 0, sizeof (*p)) ;
    p->seg = seg ; p->mode = mode ; p->m = m ;
    p->rows = tu->rows ; p->sort = tu->sort ; p->rmax = tu->rmax ;
    // the tiles first: the segments then cover only the rows they leave
    GCU_TRY (plan_tiles (in, mode, pm, p)) ;
    void *b = NULL, *sr = NULL ;
    // whole rows where tiles do not pay: the segments only for the rows
    // longer than rmax, and (sorted) the order of the others
    const bool whole = !p->tiled && p->rows ;
    const bool sorted = whole && p->sort != 0 ;
    if (!p->tiled)
    {
        GCU_TRY (plan_alloc (pm, (3 * (size_t) (m + 1) + (sorted ? 2 * (size_t) m + 2 : 0))
            * sizeof (int64_t), &b)) ;
        p->rank = (int64_t *) b ;
    }
    p->segoff = p->rank + m + 1 ; p->heavyoff = p->segoff + m + 1 ;
    int64_t tot [3] ;
    GCU_TRY (gcu_spmm_plan_counts (in->Ap, in->a_idx64, m, seg, p->tiled ? p->lmax
        : whole ? p->rmax : 0, p->rank, p->segoff, p->heavyoff, tot, pm->s)) ;
    p->nord = whole ? m : 0 ;
    if (sorted)
    {
        // sorted where asked (or, sort -1, where the lengths are uneven);
        // else the rows in A's order
        int64_t nord = 0 ;
        GCU_TRY (gcu_spmm_plan_order (in->Ap, in->a_idx64, m, p->rmax, p->sort,
            p->heavyoff + m + 1, &nord, pm->s)) ;
        if (nord > 0) { p->ord = p->heavyoff + m + 1 ; p->nord = nord ; }
    }
    p->nrows = tot [0] ; p->nseg = tot [1] ; p->npartial = tot [2] ;
    GCU_TRY (plan_alloc (pm, (size_t) (p->nseg + 1) * sizeof (int64_t), &sr)) ;
    p->segrow = (int64_t *) sr ;
    GCU_TRY (gcu_spmm_plan_segrow (m, p->segoff, p->segrow, pm->s)) ;
    // the settings the cache compares (plan_get), whether or not the row
    // kernel runs and takes the classes
    p->hub = tu->hub ; p->hub_l1 = tu->hub_l1 ; p->hub_l2 = tu->hub_l2 ;
    p->hub_band = hub_want (in, tu, rb) ;
    if (whole) GCU_TRY (plan_hub (in, tu, rb, pm, p)) ;
    GCU_TRY (gcu_sync (pm->s)) ;
    return GrB_SUCCESS ;
}

// the plan: the cache's (made for the same settings), or made and cached
// with A (pm->c the derived entry, pinned until plan_mem_free), or made
// for this call
static GrB_Info plan_get (const gcu_spmm_in *in, const gcu_spmm_tune *tu, int64_t rb, plan_mem *pm,
    spmm_plan *p, bool *hit)
{
    const int seg = gcu_spmm_seg (), mode = gcu_spmm_tile_mode () ;
    gcu_res_entry *c = NULL ;
    *hit = false ;
    if (in->parent != NULL
        && gcu_residency_derived_lookup (in->parent, GCU_RES_DERIVED_ASPT, &c) == GrB_SUCCESS)
    {
        const spmm_plan *h = (const spmm_plan *) gcu_residency_data (c)->host ;
        if (h != NULL && h->seg == seg && h->mode == mode && h->m == in->m
            && h->rows == tu->rows && h->sort == tu->sort && h->rmax == tu->rmax
            && h->hub == tu->hub && h->hub_l1 == tu->hub_l1 && h->hub_l2 == tu->hub_l2
            && h->hub_band == hub_want (in, tu, rb))
        {
            *p = *h ;
            pm->c = c ;
            *hit = true ;
            return GrB_SUCCESS ;
        }
        gcu_residency_unpin (c) ;       // made for other settings: replaced
    }
    if (in->parent != NULL
        && gcu_residency_derived_begin (in->parent, GCU_RES_DERIVED_ASPT, &c) == GrB_SUCCESS)
    {
        spmm_plan *h = malloc (sizeof (spmm_plan)) ;
        pm->c = c ;
        GrB_Info info = h == NULL ? GrB_OUT_OF_MEMORY : plan_make (in, seg, mode, tu, rb, pm, h) ;
        if (info == GrB_SUCCESS)
        {
            gcu_res_data *d = gcu_residency_data (c) ;
            d->host = h ;
            d->host_free = free ;
            d->layout = GCU_RES_DERIVED_ASPT ;
            (void) gcu_residency_publish (c) ;
            *p = *h ;
            return GrB_SUCCESS ;
        }
        free (h) ;
        gcu_residency_unpin (c) ;       // an abandoned build: freed
        pm->c = NULL ;
        if (info != GrB_OUT_OF_MEMORY && info != GCU_NOT_HANDLED) return info ;
        // the cache had no room (or no allocator): a plan for this call
    }
    return plan_make (in, seg, mode, tu, rb, pm, p) ;
}

//------------------------------------------------------------------------------
// the run
//------------------------------------------------------------------------------

static GrB_Info keep_alloc (const gcu_spmm_keep *keep, size_t bytes, void **p)
{
    return keep->alloc (keep->ctx, bytes, p) == GrB_SUCCESS ? GrB_SUCCESS : GCU_NOT_HANDLED ;
}

// the row kernel over its items (the long rows' segments, then the rows),
// slice after slice, at most 2^30 items a launch; the grid: tu->grid blocks
// an SM, or (-1) as many as fit at once, or (0) a group an item
static GrB_Info spmm_rows_launch (void *frows, const gcu_spmm_tune *tu, gcu_spmm_args *a,
    int *grid_per_sm, gcu_stream s)
{
    int bps = tu->grid ;
    if (bps < 0 && gcu_jit_occupancy (frows, GCU_SPMM_THREADS, 0, &bps) != GrB_SUCCESS) bps = 0 ;
    if (bps < 0) bps = 0 ;
    *grid_per_sm = bps ;
    const int64_t nitem = a->nseg + a->nord, chunk = (int64_t) 1 << 30 ;
    const int64_t nsl = (a->n + a->sw - 1) / a->sw ;
    void *args [] = { a } ;
    for (int64_t sl = 0 ; sl < nsl ; sl++)
        for (int64_t r0 = 0 ; r0 < nitem ; r0 += chunk)
        {
            a->sl0 = sl ; a->r0 = r0 ;
            a->cnt = nitem - r0 < chunk ? nitem - r0 : chunk ;
            GCU_TRY (gcu_jit_launch (frows, gcu_spmm_grid_cap (a->cnt, a->G, bps),
                GCU_SPMM_THREADS, 0, s, args)) ;
            GCU_TRY (gcu_launch_check ("spmm rows")) ;
        }
    return GrB_SUCCESS ;
}

// the kernels, timed together
static GrB_Info spmm_kernels (const gcu_spmm_spec *spec, int ch, const gcu_spmm_tune *tu,
    gcu_spmm_args *a, const spmm_plan *p, gcu_spmm_out *out, gcu_stream s)
{
    void *fseg = NULL, *ffold = NULL, *ftile = NULL, *frows = NULL ;
    const gcu_spmm_kvar kv = { ch, tu->unroll, tu->minb, tu->hint, tu->pipe, tu->nat, p->Ajc != NULL } ;
    GCU_TRY (gcu_spmm_kernels_all (spec, &kv, &fseg, &ffold, &ftile, &frows)) ;
    void *args [] = { a } ;
    gcu_timer tk ;
    gcu_timer_start (&tk, s) ;
    GrB_Info info = GrB_SUCCESS ;
    if (p->tiled)
    {
        // a block a panel and a slice of G*VEC columns; shared memory for a
        // tile's rows of X (the slice of them)
        const int64_t nb = a->npanel * a->nslices ;
        const unsigned grid = (unsigned) (nb < (1 << 30) ? nb : (1 << 30)) ;
        const size_t smem = (size_t) GCU_ASPT_TILE * a->G * spec->vec * spec->ops.b.size ;
        info = gcu_jit_launch (ftile, grid, GCU_SPMM_THREADS, (unsigned) smem, s, args) ;
        if (info == GrB_SUCCESS) info = gcu_launch_check ("spmm tiles") ;
    }
    const int gs = a->G ;
    if (info == GrB_SUCCESS && p->nord > 0)
    {
        // row-wise: the row kernel takes the long rows' segments too (A's
        // indices with their columns' cache classes where the plan has them)
        const void *aj = a->Aj ;
        if (p->Ajc != NULL) a->Aj = p->Ajc ;
        info = spmm_rows_launch (frows, tu, a, &out->grid, s) ;
        a->Aj = aj ;
    }
    else if (info == GrB_SUCCESS && a->nseg > 0)
    {
        a->G = gcu_spmm_group_for (a->n, spec->vec, ch) ;
        info = gcu_jit_launch (fseg, gcu_spmm_grid (a->nseg, a->G), GCU_SPMM_THREADS, 0, s, args) ;
        if (info == GrB_SUCCESS) info = gcu_launch_check ("spmm segments") ;
        a->G = gs ;
    }
    if (info == GrB_SUCCESS && a->nseg > 0 && p->npartial > 0)
    {
        a->G = gcu_spmm_group_for (a->n, spec->vec, ch) ;
        // rows of many segments a block each, where their sums fit the
        // default shared memory
        const size_t fsm = (size_t) GCU_SPMM_THREADS * spec->vec * spec->sr.mult.z.size ;
        a->fold_big = fsm <= 48 * 1024 ? tu->fold_big : 0 ;
        info = gcu_jit_launch (ffold, gcu_spmm_grid (a->m, a->G), GCU_SPMM_THREADS,
            a->fold_big > 0 ? (unsigned) fsm : 0, s, args) ;
        if (info == GrB_SUCCESS) info = gcu_launch_check ("spmm fold") ;
        a->G = gs ;
    }
    out->kernel_s = gcu_timer_stop (&tk, s) ;
    return info ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL gcu_dfree (W, s) ; plan_mem_free (&pm) ;

GrB_Info gcu_spmm_run (const gcu_spmm_spec *spec, int ch, const gcu_spmm_in *in,
    const gcu_spmm_keep *keep, gcu_spmm_out *out, gcu_stream s)
{
    void *W = NULL ;
    plan_mem pm ;
    memset (&pm, 0, sizeof (pm)) ;
    pm.s = s ;
    memset (out, 0, sizeof (*out)) ;
    const int64_t m = in->m, n = in->n ;
    const size_t zsize = spec->sr.mult.z.size ;
    out->seg = gcu_spmm_seg () ;
    out->vec = spec->vec ;
    out->ch = ch < 1 ? 1 : ch ;
    out->G = gcu_spmm_group_for (n, spec->vec, out->ch) ;
    gcu_spmm_tune tu ;
    gcu_spmm_tune_get (&tu) ;
    if (tu.minb == 0) tu.minb = tu.nat && gcu_spmm_nat_ok (spec) ? GCU_SPMM_MINB_NAT : GCU_SPMM_MINB ;
    // a row of X as the row kernel reads it: a slice's columns (hub.cu's classes are made for it)
    const int64_t want = tu.slice > 0 && tu.slice < n ? tu.slice : n ;
    const int64_t sw0 = (int64_t) gcu_spmm_group_for (want, spec->vec, out->ch) * spec->vec * out->ch ;
    const int64_t rb = (sw0 < n ? sw0 : n) * (int64_t) spec->ops.b.size ;
    const double t0 = gcu_now () ;
    spmm_plan p ;
    GCU_TRY (plan_get (in, &tu, rb, &pm, &p, &out->plan_hit)) ;
    out->tiled = p.tiled ; out->npanel = p.npanel ; out->ntile = p.ntile ;
    memcpy (out->why, p.why, sizeof (out->why)) ;
    out->nvals = (GrB_Index) p.nrows * (GrB_Index) n ;
    out->nseg = p.nseg ;
    out->npartial = p.npartial ;
    out->idx64 = out->nvals >= ((GrB_Index) 1 << 32) - 1 || (GrB_Index) m >= ((GrB_Index) 1 << 32) - 1 ;
    const size_t iw = out->idx64 ? 8 : 4 ;
    GCU_TRY (gcu_dmalloc (&W, (size_t) p.npartial * n * zsize + 16, s)) ;
    GCU_TRY (keep_alloc (keep, (m + 1) * iw, &out->Cp)) ;
    GCU_TRY (keep_alloc (keep, out->nvals * iw, &out->Cj)) ;
    GCU_TRY (keep_alloc (keep, out->nvals * zsize, &out->Cx)) ;
    out->plan_s = gcu_now () - t0 ;
    gcu_spmm_args a ;
    memset (&a, 0, sizeof (a)) ;
    a.m = m ; a.n = n ; a.seg = out->seg ;
    a.Ap = in->Ap ; a.Aj = in->Aj ; a.Ax = in->Ax ;
    a.X = in->X ; a.xrs = in->xrs ; a.xcs = in->xcs ;
    a.rank = p.rank ; a.segoff = p.segoff ; a.heavyoff = p.heavyoff ; a.segrow = p.segrow ;
    a.nseg = p.nseg ; a.W = W ; a.Cx = out->Cx ;
    if (p.tiled)
    {
        // the tile kernel: one chunk a lane, a block's slice one group's columns
        a.G = gcu_spmm_group (n, spec->vec, GCU_SPMM_GROUP_MAX) ;
        const int64_t cw = (int64_t) a.G * spec->vec ;
        a.nslices = (int) ((n + cw - 1) / cw) ;
        a.P = GCU_ASPT_PANEL ; a.lmax = p.lmax ; a.npanel = p.npanel ;
        a.Rj = p.Rj ; a.Rx = p.Rx ; a.tcols = p.tcols ; a.rtb = p.rtb ;
        a.ptile = p.ptile ; a.tcol = p.tcol ;
    }
    else a.G = out->G ;
    if (p.nord > 0)
    {
        // row-wise: a group's columns one slice (a lane CH chunks of VEC),
        // slices of about tu.slice columns where asked, else of a warp's
        const int64_t want = tu.slice > 0 && tu.slice < n ? tu.slice : n ;
        a.G = gcu_spmm_group_for (want, spec->vec, out->ch) ;
        a.sw = (int64_t) a.G * spec->vec * out->ch ;
        a.ord = p.ord ; a.nord = p.nord ; a.rmax = p.rmax ;
        out->G = a.G ;
        out->rows = true ; out->sorted = p.ord != NULL ; out->nord = p.nord ; out->rmax = p.rmax ;
        out->unroll = tu.unroll ; out->hint = tu.hint ; out->minb = tu.minb ; out->pipe = tu.pipe ;
        out->nat = tu.nat && gcu_spmm_nat_ok (spec) ;
        out->nsl = (int) ((n + a.sw - 1) / a.sw) ;
        out->sw = (int) a.sw ;
    }
    if (p.nrows > 0 && n > 0) GCU_TRY (spmm_kernels (spec, out->ch, &tu, &a, &p, out, s)) ;
    const double t2 = gcu_now () ;
    GCU_TRY (gcu_spmm_pattern (p.rank, m, n, out->idx64, out->Cp, out->Cj, out->nvals, s)) ;
    GCU_TRY (gcu_sync (s)) ;
    out->pattern_s = gcu_now () - t2 ;
    GCU_FREE_ALL ;
    return GrB_SUCCESS ;
}

#endif
