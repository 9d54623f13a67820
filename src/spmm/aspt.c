// aspt.c — the ASpT analysis and tiling on the host (gcu_aspt.h): one pass
// over each panel counts its columns (a dense counter reset through the
// list of columns touched), numbers the heavy ones into tiles, and
// reorders each row's entries by a counting sort on the tile (light
// entries last, every group in the row's own order). O(nnz + m + ncols).
#include "gcu_aspt.h"
#include <stdlib.h>
#include <string.h>

static inline int64_t ix (const void *a, bool idx64, int64_t k)
{
    return idx64 ? (int64_t) ((const uint64_t *) a) [k] : (int64_t) ((const uint32_t *) a) [k] ;
}

void gcu_aspt_free (gcu_aspt *t)
{
    free (t->ptile) ; free (t->tcol) ; free (t->tcols) ; free (t->rtb) ;
    free (t->Rj) ; free (t->Rq) ;
    t->ptile = NULL ; t->tcol = NULL ; t->tcols = NULL ; t->rtb = NULL ;
    t->Rj = NULL ; t->Rq = NULL ;
}

// a growing array of n elements of size sz
static bool grow (void **p, int64_t *cap, int64_t need, size_t sz)
{
    if (need <= *cap) return true ;
    int64_t c = *cap > 0 ? *cap : 1024 ;
    while (c < need) c *= 2 ;
    void *q = realloc (*p, (size_t) c * sz) ;
    if (q == NULL) return false ;
    *p = q ;
    *cap = c ;
    return true ;
}

int gcu_aspt_build (const void *Ap, const void *Aj, bool idx64, int64_t m, int64_t ncols,
    int64_t P, int64_t TW, int64_t H, int64_t lmax, bool stats_only, gcu_aspt *t)
{
    memset (t, 0, sizeof (*t)) ;
    t->m = m ; t->P = P ; t->TW = TW ; t->H = H ; t->lmax = lmax ;
    t->nnz = m > 0 ? ix (Ap, idx64, m) : 0 ;
    t->npanel = (m + P - 1) / P ;
    uint32_t *cnt = (uint32_t *) calloc ((size_t) (ncols > 0 ? ncols : 1), sizeof (uint32_t)) ;
    int32_t *slot = (int32_t *) malloc ((size_t) (ncols > 0 ? ncols : 1) * sizeof (int32_t)) ;
    uint32_t *touched = NULL ;
    int64_t *tc = NULL ;             // per tile: entries of a row (counting sort)
    int64_t cap_touch = 0, cap_tcols = 0, cap_tcol = 0, cap_rtb = 0, cap_tc = 0 ;
    bool ok = cnt != NULL && slot != NULL ;
    if (ok && !stats_only)
    {
        t->ptile = (int64_t *) malloc ((size_t) (t->npanel + 1) * sizeof (int64_t)) ;
        t->Rj = (uint32_t *) malloc ((size_t) (t->nnz + 1) * sizeof (uint32_t)) ;
        t->Rq = (uint32_t *) malloc ((size_t) (t->nnz + 1) * sizeof (uint32_t)) ;
        ok = t->ptile != NULL && t->Rj != NULL && t->Rq != NULL
            && grow ((void **) &t->tcol, &cap_tcol, 1, sizeof (int64_t)) ;
        if (ok) { t->ptile [0] = 0 ; t->tcol [0] = 0 ; }
    }
    if (ok) memset (slot, 0xff, (size_t) (ncols > 0 ? ncols : 1) * sizeof (int32_t)) ;
    for (int64_t p = 0 ; ok && p < t->npanel ; p++)
    {
        const int64_t r0 = p * P, r1 = r0 + P < m ? r0 + P : m ;
        int64_t ntouch = 0 ;
        for (int64_t r = r0 ; ok && r < r1 ; r++)
        {
            const int64_t a0 = ix (Ap, idx64, r), a1 = ix (Ap, idx64, r + 1) ;
            if (a1 - a0 > lmax) continue ;
            t->nnz_panels += a1 - a0 ;
            for (int64_t q = a0 ; q < a1 ; q++)
            {
                const int64_t c = ix (Aj, idx64, q) ;
                if (cnt [c]++ == 0)
                {
                    if (!(ok = grow ((void **) &touched, &cap_touch, ntouch + 1, sizeof (uint32_t)))) break ;
                    touched [ntouch++] = (uint32_t) c ;
                }
            }
        }
        // heavy columns in the order first met, numbered into tiles
        int64_t nh = 0 ;
        for (int64_t u = 0 ; ok && u < ntouch ; u++)
        {
            const uint32_t c = touched [u] ;
            if (cnt [c] < (uint32_t) H) continue ;
            t->nnz_heavy += cnt [c] ;
            if (!stats_only)
            {
                if (!(ok = grow ((void **) &t->tcols, &cap_tcols, t->ncols_heavy + 1, sizeof (uint32_t)))) break ;
                t->tcols [t->ncols_heavy] = c ;
                slot [c] = (int32_t) nh ;
            }
            t->ncols_heavy++ ;
            nh++ ;
        }
        const int64_t nt = (nh + TW - 1) / TW ;
        const int64_t tbase = t->ntile ;
        t->ntile += nt ;
        if (!stats_only && ok)
        {
            ok = grow ((void **) &t->tcol, &cap_tcol, t->ntile + 1, sizeof (int64_t))
                && grow ((void **) &t->rtb, &cap_rtb, t->ntile * P + 1, sizeof (uint32_t))
                && grow ((void **) &tc, &cap_tc, nt + 2, sizeof (int64_t)) ;
            for (int64_t k = 0 ; ok && k < nt ; k++)
            {
                const int64_t rest = nh - k * TW ;
                t->tcol [tbase + k + 1] = t->tcol [tbase + k] + (rest < TW ? rest : TW) ;
            }
            if (ok) t->ptile [p + 1] = t->ntile ;
            // each row: a counting sort of its entries on the tile (nt: light)
            for (int64_t r = r0 ; ok && r < r1 ; r++)
            {
                const int64_t a0 = ix (Ap, idx64, r), a1 = ix (Ap, idx64, r + 1) ;
                const bool in = a1 - a0 <= lmax ;
                for (int64_t k = 0 ; k <= nt ; k++) tc [k] = 0 ;
                for (int64_t q = a0 ; q < a1 ; q++)
                {
                    const int64_t c = ix (Aj, idx64, q) ;
                    tc [in && slot [c] >= 0 ? slot [c] / TW : nt]++ ;
                }
                // tc [k]: the start of tile k's entries (row-local)
                int64_t sum = 0 ;
                for (int64_t k = 0 ; k <= nt ; k++)
                {
                    const int64_t c = tc [k] ;
                    tc [k] = sum ;
                    sum += c ;
                    if (k < nt) t->rtb [tbase * P + (r - r0) * nt + k] = (uint32_t) sum ;
                }
                for (int64_t q = a0 ; q < a1 ; q++)
                {
                    const int64_t c = ix (Aj, idx64, q) ;
                    const int32_t sl = in ? slot [c] : -1 ;
                    const int64_t k = sl >= 0 ? sl / TW : nt ;
                    const int64_t at = a0 + tc [k]++ ;
                    t->Rj [at] = sl >= 0 ? (uint32_t) (sl % TW) : (uint32_t) c ;
                    t->Rq [at] = (uint32_t) q ;
                }
            }
            // rows past m in the last panel: empty rows
            for (int64_t r = r1 ; ok && r < r0 + P ; r++)
                for (int64_t k = 0 ; k < nt ; k++) t->rtb [tbase * P + (r - r0) * nt + k] = 0 ;
        }
        for (int64_t u = 0 ; u < ntouch ; u++) { cnt [touched [u]] = 0 ; slot [touched [u]] = -1 ; }
    }
    free (cnt) ; free (slot) ; free (touched) ; free (tc) ;
    if (!ok)
    {
        gcu_aspt_free (t) ;
        return -1 ;
    }
    return 0 ;
}
