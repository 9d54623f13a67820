// spmv.c — the SpMV variants of the GrB_mxv / GrB_vxm family (u full, no
// mask; cuda/mxv/gcu_mxv.cuh): the matrix's plan (row-length features and
// long rows, spmv_plan.cu) cached with its device copy as derived data
// (GCU_RES_DERIVED_SPMV), and the variant chosen from it, after Sedaghati
// et al. 2015: short rows (a low mean) stage a block's products in shared
// memory (stream), longer ones give a group of threads to a row (vector),
// and a matrix with rows far longer than the rest (power-law graphs) cuts
// those into segments (split). The tests, and GRBCUDA_SPMV, may force each.
#include "gcu_mxv.h"
#include "gcu_spmv_plan.h"
#include "gcu_util.h"
#include "../residency/gcu_residency.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if GRBCUDA_HAVE_CUDA

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL ;

static int force_variant = GCU_SPMV_AUTO, force_split = -1 ;
static _Atomic int last_spmv = -1 ;     // (atomic: GPU calls from several threads)

int gcu_mxv_last_spmv (void) { return atomic_load_explicit (&last_spmv, memory_order_relaxed) ; }
void gcu_mxv_last_spmv_reset (void) { gcu_mxv_last_spmv_set (-1) ; }
void gcu_mxv_last_spmv_set (int v) { atomic_store_explicit (&last_spmv, v, memory_order_relaxed) ; }
static int64_t force_lrow = 0 ;

void gcu_mxv_force_variant (int variant, int split, int64_t lrow)
{
    force_variant = variant ;
    force_split = split ;
    force_lrow = lrow ;
}

static const char *const variant_names [GCU_SPMV_NVARIANTS] = { "auto", "pull", "vector", "stream" } ;

// GRBCUDA_SPMV: "auto", "pull", "vector" or "stream", optionally with
// "+split" or "+nosplit" ("stream+nosplit"); the tests' force wins
static void forced (int *variant, int *split)
{
    *variant = force_variant ;
    *split = force_split ;
    const char *e = getenv ("GRBCUDA_SPMV") ;
    if (force_variant != GCU_SPMV_AUTO || force_split >= 0 || e == NULL) return ;
    for (int v = 0 ; v < GCU_SPMV_NVARIANTS ; v++)
    {
        const size_t len = strlen (variant_names [v]) ;
        if (strncmp (e, variant_names [v], len) == 0 && (e [len] == '\0' || e [len] == '+'))
            *variant = v ;
    }
    if (strstr (e, "+split") != NULL) *split = 1 ;
    if (strstr (e, "+nosplit") != NULL) *split = 0 ;
}

bool gcu_mxv_spmv_forced (void)
{
    int variant, split ;
    forced (&variant, &split) ;
    return variant != GCU_SPMV_AUTO && variant != GCU_SPMV_PULL ;
}

//------------------------------------------------------------------------------
// the plan: computed once a matrix, cached with its device copy
//------------------------------------------------------------------------------

// the plan's long rows into buffers of the derived entry c (or, c NULL, of
// this call: sp->own_)
static GrB_Info plan_long (gcu_res_entry *c, const void *Rp, bool idx64, gcu_spmv *sp,
    gcu_spmv_plan *p, gcu_stream s)
{
    if (p->nlong == 0) return GrB_SUCCESS ;
    void *Lr = NULL, *Ls = NULL ;
    const size_t b0 = (size_t) p->nlong * sizeof (int64_t), b1 = b0 + sizeof (int64_t) ;
    if (c != NULL)
    {
        GrB_Info info = gcu_residency_alloc (c, b0, &Lr) ;
        if (info == GrB_SUCCESS) info = gcu_residency_alloc (c, b1, &Ls) ;
        if (info != GrB_SUCCESS) return info ;
    }
    else
    {
        GCU_TRY (gcu_dmalloc (&sp->own_ [0], b0, s)) ;
        GCU_TRY (gcu_dmalloc (&sp->own_ [1], b1, s)) ;
        Lr = sp->own_ [0] ; Ls = sp->own_ [1] ;
    }
    GCU_TRY (gcu_spmv_plan_long (Rp, idx64, p, (int64_t *) Lr, (int64_t *) Ls, s)) ;
    p->Lr = (const int64_t *) Lr ;
    p->Ls = (const int64_t *) Ls ;
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

// the plan with long rows above lrow: the cache's, or computed (and cached
// when parent is a cache entry)
static GrB_Info plan_get (gcu_res_entry *parent, const void *Rp, bool idx64, int64_t nrows,
    int64_t lrow, gcu_spmv *sp, gcu_stream s)
{
    gcu_res_entry *c = NULL ;
    if (parent != NULL && gcu_residency_derived_lookup (parent, GCU_RES_DERIVED_SPMV, &c) == GrB_SUCCESS)
    {
        const gcu_spmv_plan *h = (const gcu_spmv_plan *) gcu_residency_data (c)->host ;
        if (h != NULL && h->lrow == lrow && h->nrows == nrows)
        {
            sp->plan = *h ;
            sp->e_ = c ;
            sp->hit = true ;
            return GrB_SUCCESS ;
        }
        gcu_residency_unpin (c) ;       // made for another bound: replaced
    }
    GCU_TRY (gcu_spmv_plan_stats (Rp, idx64, nrows, lrow, GCU_MXV_LONG_SEG, &sp->plan, s)) ;
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

// the variant and its shape from the plan (variant and split: forced, or
// AUTO and -1)
static void choose (gcu_spmv *sp, size_t zsize, bool positional, int variant, int split)
{
    const gcu_spmv_plan *p = &sp->plan ;
    sp->split = split >= 0 ? (split == 1 && p->nlong > 0) : p->nlong > 0 ;
    // the rows the base kernel computes
    const int64_t rows = p->nrows - (sp->split ? p->nlong : 0) ;
    const double mean = rows > 0 ? (double) (p->nnz - (sp->split ? p->long_nnz : 0)) / rows : 0 ;
    const char *why = "forced" ;
    if (variant == GCU_SPMV_AUTO)
    {
        variant = mean <= GCU_SPMV_STREAM_MEAN_MAX ? GCU_SPMV_STREAM : GCU_SPMV_VECTOR ;
        why = mean <= GCU_SPMV_STREAM_MEAN_MAX ? "short rows" : "long rows" ;
    }
    if (variant == GCU_SPMV_STREAM && positional)
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
    snprintf (sp->why, sizeof (sp->why), "%s%s", why,
        sp->split ? ", rows longer than the bound split" : "") ;
}

GrB_Info gcu_spmv_prepare (struct gcu_res_entry *parent, const void *Rp, bool idx64,
    int64_t nrows, size_t zsize, bool positional, gcu_spmv *sp, gcu_stream s)
{
    memset (sp, 0, sizeof (*sp)) ;
    int variant, split ;
    forced (&variant, &split) ;
    if (variant == GCU_SPMV_PULL || nrows <= 0) return GCU_NOT_HANDLED ;
    const int64_t lrow = force_lrow > 0 ? force_lrow : GCU_MXV_LONG_ROW ;
    GrB_Info info = plan_get (parent, Rp, idx64, nrows, lrow, sp, s) ;
    if (info != GrB_SUCCESS)
    {
        gcu_spmv_release (sp, s) ;
        return info ;
    }
    choose (sp, zsize, positional, variant, split) ;
    return GrB_SUCCESS ;
}

void gcu_spmv_release (gcu_spmv *sp, gcu_stream s)
{
    if (sp->e_ != NULL) gcu_residency_unpin (sp->e_) ;
    gcu_dfree (sp->own_ [0], s) ;
    gcu_dfree (sp->own_ [1], s) ;
    sp->e_ = NULL ;
    sp->own_ [0] = sp->own_ [1] = NULL ;
}

void gcu_spmv_describe (const gcu_spmv *sp, char *buf, size_t size)
{
    const gcu_spmv_plan *p = &sp->plan ;
    char shape [32] ;
    if (sp->variant == GCU_SPMV_STREAM) snprintf (shape, sizeof (shape), "R %d, C %d", sp->R, sp->C) ;
    else snprintf (shape, sizeof (shape), "G %d", sp->G) ;
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

void gcu_mxv_force_variant (int variant, int split, int64_t lrow)
{
    (void) variant ; (void) split ; (void) lrow ;
}

#endif
