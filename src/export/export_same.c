// export_same.c — the conversions in storage orientation (the output's
// outer vectors are the stored vectors): sparse or hypersparse by a copy
// that narrows indices (a hypersparse pointer array by lower bound), bitmap
// or full by a flat scan in cell order. gcu_export_internal.h.
#include "gcu_export_internal.h"
#ifdef _OPENMP
#include <omp.h>
#else
// Without OpenMP the loops below run serially; their pragmas are ignored.
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#endif

void gcu_export_same_sparse (const gcu_export_raw *r, gcu_csr *c, bool w32, bool vals, int nth)
{
    bool hyper = (r->sparsity == GxB_HYPERSPARSE) ;
    int64_t nouter = (int64_t) c->nvec, nz = r->nvals ;
    if (!hyper)
    {
        if (!w32) gcu_export_par_copy (c->ptr, r->Ap, (size_t) (nouter + 1) * 8, nth) ;
        else gcu_export_put_ptr_all (c->ptr, true, r->Ap, nouter + 1, nth) ;
    }
    else
    {
        // ptr[x] = Ap[first t with Ah[t] >= x]: the start of vector x
        #pragma omp parallel num_threads(nth)
        {
            int t = team_rank (), T = team_size () ;
            int64_t x0 = (nouter + 1) * t / T, x1 = (nouter + 1) * (t + 1) / T ;
            int64_t lo = 0, hi = r->nvec ;
            while (lo < hi)
            {
                int64_t mid = lo + (hi - lo) / 2 ;
                if (r->Ah [mid] < x0) lo = mid + 1 ; else hi = mid ;
            }
            for (int64_t x = x0 ; x < x1 ; x++)
            {
                while (lo < r->nvec && r->Ah [lo] < x) lo++ ;
                put_idx (c->ptr, w32, x, r->Ap [lo]) ;
            }
        }
    }
    if (!w32) gcu_export_par_copy (c->idx, r->Ai, (size_t) nz * 8, nth) ;
    else
    {
        int32_t *idx = c->idx ;
        const int64_t *Ai = r->Ai ;
        #pragma omp parallel for num_threads(nth) schedule(static)
        for (int64_t p = 0 ; p < nz ; p++) idx [p] = (int32_t) Ai [p] ;
    }
    if (vals) gcu_export_par_copy (c->val, r->Ax, (size_t) nz * r->ts, nth) ;
}

// Bitmap or full in storage order: a flat scan over the cells, split into
// chunks; each chunk counts, then writes from its starting position.
void gcu_export_same_dense (const gcu_export_raw *r, gcu_csr *c, bool w32, bool vals, int nth)
{
    int64_t vlen = r->vlen, vdim = r->vdim, ncell = vlen * vdim ;
    size_t ts = r->ts ;
    uint8_t *val = c->val ;
    if (r->sparsity == GxB_FULL)
    {
        #pragma omp parallel for num_threads(nth) schedule(static)
        for (int64_t k = 0 ; k <= vdim ; k++) put_idx (c->ptr, w32, k, k * vlen) ;
        #pragma omp parallel for num_threads(nth) schedule(static)
        for (int64_t k = 0 ; k < vdim ; k++)
        {
            for (int64_t i = 0 ; i < vlen ; i++) put_idx (c->idx, w32, k * vlen + i, i) ;
        }
        if (vals) gcu_export_par_copy (val, r->Ax, (size_t) ncell * ts, nth) ;
        return ;
    }
    int64_t base [nth + 1] ;
    #pragma omp parallel num_threads(nth)
    {
        int t = team_rank (), T = team_size () ;
        int64_t c0 = ncell * t / T, c1 = ncell * (t + 1) / T, n = 0 ;
        for (int64_t p = c0 ; p < c1 ; p++) n += (r->Ab [p] != 0) ;
        base [t + 1] = n ;
        #pragma omp barrier
        int64_t q = 0 ;
        for (int u = 1 ; u <= t ; u++) q += base [u] ;
        int64_t k = c0 / vlen, i = c0 % vlen ;
        for (int64_t p = c0 ; p < c1 ; p++)
        {
            if (i == 0) put_idx (c->ptr, w32, k, q) ;
            if (r->Ab [p])
            {
                put_idx (c->idx, w32, q, i) ;
                if (vals) gcu_put_val (val + q * ts, r->Ax + p * ts, ts) ;
                q++ ;
            }
            if (++i == vlen) { i = 0 ; k++ ; }
        }
    }
    put_idx (c->ptr, w32, vdim, r->nvals) ;
}
