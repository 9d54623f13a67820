// spmm.c — SpMM's run, C = A*X with X dense (gcu_spmm.h): the plan of A's
// rows (plan.cu), C's arrays from the caller's keep (CSR whose pattern the
// plan gives), the segment kernel and, for rows of several segments, the
// fold kernel (cuda/spmm/gcu_spmm.cuh), then C's pattern.
#include "gcu_spmm.h"
#include "gcu_util.h"
#include <stdlib.h>
#include <string.h>

int gcu_spmm_seg (void)
{
    const char *e = getenv ("GRBCUDA_SPMM_SEG") ;
    const int v = e != NULL ? atoi (e) : 0 ;
    return v > 0 ? v : GCU_SPMM_SEG ;
}

int gcu_sddmm_group_max (void)
{
    const char *e = getenv ("GRBCUDA_SDDMM_GROUP") ;
    const int v = e != NULL ? atoi (e) : 0 ;
    return v > 0 ? v : GCU_SDDMM_GROUP_MAX ;
}

int gcu_spmm_vec_for (long long n, unsigned long wide, int contiguous)
{
    const int best = gcu_spmm_vec (n, wide, contiguous) ;
    const char *e = getenv ("GRBCUDA_SPMM_VEC") ;
    const int v = e != NULL ? atoi (e) : 0 ;
    // a forced VEC only where the layout allows it
    return (v == 1 || v == 2 || v == 4) && v <= best && best % v == 0 ? v : best ;
}

#if GRBCUDA_HAVE_CUDA

typedef struct
{
    int64_t *rank, *segoff, *heavyoff, *segrow ;
    void *W ;
}
spmm_tmp ;

static void tmp_free (spmm_tmp *t, gcu_stream s)
{
    gcu_dfree (t->rank, s) ; gcu_dfree (t->segoff, s) ; gcu_dfree (t->heavyoff, s) ;
    gcu_dfree (t->segrow, s) ; gcu_dfree (t->W, s) ;
}

static GrB_Info keep_alloc (const gcu_spmm_keep *keep, size_t bytes, void **p)
{
    return keep->alloc (keep->ctx, bytes, p) == GrB_SUCCESS ? GrB_SUCCESS : GCU_NOT_HANDLED ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL tmp_free (&t, s) ;

// the two kernels, timed
static GrB_Info spmm_kernels (const gcu_spmm_spec *spec, gcu_spmm_args *a, int64_t npartial,
    double *kernel_s, gcu_stream s)
{
    spmm_tmp t ;
    memset (&t, 0, sizeof (t)) ;
    void *fseg = NULL, *ffold = NULL ;
    GCU_TRY (gcu_spmm_kernels (spec, &fseg, &ffold)) ;
    void *args [] = { a } ;
    gcu_timer tk ;
    gcu_timer_start (&tk, s) ;
    GrB_Info info = gcu_jit_launch (fseg, gcu_spmm_grid (a->nseg, a->G), GCU_SPMM_THREADS, 0, s, args) ;
    if (info == GrB_SUCCESS) info = gcu_launch_check ("spmm segments") ;
    if (info == GrB_SUCCESS && npartial > 0)
    {
        info = gcu_jit_launch (ffold, gcu_spmm_grid (a->m, a->G), GCU_SPMM_THREADS, 0, s, args) ;
        if (info == GrB_SUCCESS) info = gcu_launch_check ("spmm fold") ;
    }
    *kernel_s = gcu_timer_stop (&tk, s) ;
    return info ;
}

GrB_Info gcu_spmm_run (const gcu_spmm_spec *spec, const gcu_spmm_in *in,
    const gcu_spmm_keep *keep, gcu_spmm_out *out, gcu_stream s)
{
    spmm_tmp t ;
    memset (&t, 0, sizeof (t)) ;
    memset (out, 0, sizeof (*out)) ;
    const int64_t m = in->m, n = in->n ;
    const size_t zsize = spec->sr.mult.z.size ;
    out->seg = gcu_spmm_seg () ;
    out->vec = spec->vec ;
    out->G = gcu_spmm_group (n, spec->vec, GCU_SPMM_GROUP_MAX) ;
    const double t0 = gcu_now () ;
    GCU_TRY (gcu_dmalloc ((void **) &t.rank, (m + 1) * sizeof (int64_t), s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &t.segoff, (m + 1) * sizeof (int64_t), s)) ;
    GCU_TRY (gcu_dmalloc ((void **) &t.heavyoff, (m + 1) * sizeof (int64_t), s)) ;
    int64_t tot [3] ;
    GCU_TRY (gcu_spmm_plan (in->Ap, in->a_idx64, m, out->seg, t.rank, t.segoff, t.heavyoff,
        &t.segrow, tot, s)) ;
    out->nvals = (GrB_Index) tot [0] * (GrB_Index) n ;
    out->nseg = tot [1] ;
    out->npartial = tot [2] ;
    out->idx64 = out->nvals >= ((GrB_Index) 1 << 32) - 1 || (GrB_Index) m >= ((GrB_Index) 1 << 32) - 1 ;
    const size_t iw = out->idx64 ? 8 : 4 ;
    GCU_TRY (gcu_dmalloc (&t.W, (size_t) out->npartial * n * zsize + 16, s)) ;
    GCU_TRY (keep_alloc (keep, (m + 1) * iw, &out->Cp)) ;
    GCU_TRY (keep_alloc (keep, out->nvals * iw, &out->Cj)) ;
    GCU_TRY (keep_alloc (keep, out->nvals * zsize, &out->Cx)) ;
    out->plan_s = gcu_now () - t0 ;
    gcu_spmm_args a ;
    memset (&a, 0, sizeof (a)) ;
    a.m = m ; a.n = n ; a.G = out->G ; a.seg = out->seg ;
    a.Ap = in->Ap ; a.Aj = in->Aj ; a.Ax = in->Ax ;
    a.X = in->X ; a.xrs = in->xrs ; a.xcs = in->xcs ;
    a.rank = t.rank ; a.segoff = t.segoff ; a.heavyoff = t.heavyoff ; a.segrow = t.segrow ;
    a.nseg = out->nseg ; a.W = t.W ; a.Cx = out->Cx ;
    if (out->nseg > 0) GCU_TRY (spmm_kernels (spec, &a, out->npartial, &out->kernel_s, s)) ;
    const double t2 = gcu_now () ;
    GCU_TRY (gcu_spmm_pattern (t.rank, m, n, out->idx64, out->Cp, out->Cj, out->nvals, s)) ;
    GCU_TRY (gcu_sync (s)) ;
    out->pattern_s = gcu_now () - t2 ;
    tmp_free (&t, s) ;
    return GrB_SUCCESS ;
}

#endif
