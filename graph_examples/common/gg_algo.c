// gg_algo.c — triangle counting and BFS through GraphBLAS, and their host
// oracles (see gg_algo.h). The GraphBLAS formulations follow LAGraph's: PLUS_PAIR
// with a structural mask for triangles, ANY_PAIR / ANY_SECONDI with a
// complemented structural mask and replace for BFS.
#define _POSIX_C_SOURCE 200809L
#include "gg_algo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

// The one control-flow helper here: on failure, free what the function owns
// (each function defines GG_FREE_ALL) and return the status.
#define GG_TRY(expr)                                    \
    do {                                                \
        GrB_Info gg_info_ = (expr) ;                    \
        if (gg_info_ != GrB_SUCCESS) {                  \
            GG_FREE_ALL ;                               \
            return gg_info_ ;                           \
        }                                               \
    } while (0)

static const gg_ops gg_default_ops = { GrB_mxm, GrB_mxv, GrB_vxm } ;

const gg_ops *gg_ops_default (void) { return &gg_default_ops ; }

//------------------------------------------------------------------------------
// triangle counting
//------------------------------------------------------------------------------

static const char *gg_tc_names [GG_TC_NMETHODS] = { "sandia-ll", "burkhardt", "dot" } ;

const char *gg_tc_method_name (gg_tc_method m)
{
    return (m >= 0 && m < GG_TC_NMETHODS) ? gg_tc_names [m] : "unknown" ;
}

int gg_tc_method_parse (const char *s)
{
    for (int m = 0 ; m < GG_TC_NMETHODS ; m++)
        if (strcmp (s, gg_tc_names [m]) == 0) return m ;
    return -1 ;
}

void gg_tc_free (gg_tc_graph *g)
{
    if (g == NULL) return ;
    GrB_Matrix_free (&g->A0) ;
    GrB_Matrix_free (&g->L) ;
    GrB_Matrix_free (&g->U) ;
}

#undef  GG_FREE_ALL
#define GG_FREE_ALL gg_tc_free (g)

GrB_Info gg_tc_prepare (gg_tc_graph *g, GrB_Matrix A)
{
    memset (g, 0, sizeof (*g)) ;
    GrB_Index nc ;
    GrB_Type type ;
    GG_TRY (GrB_Matrix_nrows (&g->n, A)) ;
    GG_TRY (GrB_Matrix_ncols (&nc, A)) ;
    if (nc != g->n) return GrB_DIMENSION_MISMATCH ;
    GG_TRY (GxB_Matrix_type (&type, A)) ;
    // same type as A: PAIR ignores the values, so nothing is typecast
    GG_TRY (GrB_Matrix_new (&g->A0, type, g->n, g->n)) ;
    GG_TRY (GrB_Matrix_new (&g->L, type, g->n, g->n)) ;
    GG_TRY (GrB_Matrix_new (&g->U, type, g->n, g->n)) ;
    GG_TRY (GrB_Matrix_select_INT64 (g->A0, NULL, NULL, GrB_OFFDIAG, A, 0, NULL)) ;
    GG_TRY (GrB_Matrix_select_INT64 (g->L, NULL, NULL, GrB_TRIL, A, -1, NULL)) ;
    GG_TRY (GrB_Matrix_select_INT64 (g->U, NULL, NULL, GrB_TRIU, A, 1, NULL)) ;
    GG_TRY (GrB_Matrix_wait (g->A0, GrB_MATERIALIZE)) ;
    GG_TRY (GrB_Matrix_wait (g->L, GrB_MATERIALIZE)) ;
    GG_TRY (GrB_Matrix_wait (g->U, GrB_MATERIALIZE)) ;
    return GrB_SUCCESS ;
}

#undef  GG_FREE_ALL
#define GG_FREE_ALL GrB_Matrix_free (&C)

GrB_Info gg_tc_count (int64_t *ntri, const gg_tc_graph *g, gg_tc_method m,
    const gg_ops *ops)
{
    GrB_Matrix C = NULL ;
    if (ops == NULL) ops = gg_ops_default () ;
    *ntri = 0 ;
    GG_TRY (GrB_Matrix_new (&C, GrB_INT64, g->n, g->n)) ;
    switch (m)
    {
        case GG_TC_SANDIA_LL:
            GG_TRY (ops->mxm (C, g->L, NULL, GxB_PLUS_PAIR_INT64, g->L, g->L,
                GrB_DESC_S)) ;
            break ;
        case GG_TC_BURKHARDT:
            GG_TRY (ops->mxm (C, g->A0, NULL, GxB_PLUS_PAIR_INT64, g->A0,
                g->A0, GrB_DESC_S)) ;
            break ;
        case GG_TC_DOT:
            // U' = L for symmetric A: the dot-product form, one sparse dot
            // product per entry of the mask
            GG_TRY (ops->mxm (C, g->L, NULL, GxB_PLUS_PAIR_INT64, g->L, g->U,
                GrB_DESC_ST1)) ;
            break ;
        default:
            GG_FREE_ALL ;
            return GrB_INVALID_VALUE ;
    }
    int64_t s = 0 ;
    GG_TRY (GrB_Matrix_reduce_INT64 (&s, NULL, GrB_PLUS_MONOID_INT64, C, NULL)) ;
    *ntri = (m == GG_TC_BURKHARDT) ? s / 6 : s ;
    GG_FREE_ALL ;
    return GrB_SUCCESS ;
}

// Orient each edge from the lower to the higher (degree, id) rank; then every
// triangle is found once, from its lowest-ranked vertex, and no list is long
// (the classic bound on power-law graphs). Independent of GraphBLAS.
GrB_Info gg_tc_oracle (int64_t *ntri, const gg_csr *A)
{
    const int64_t n = (int64_t) A->nrows ;
    *ntri = 0 ;
    if (A->nrows != A->ncols) return GrB_DIMENSION_MISMATCH ;
    int64_t *deg = malloc ((size_t) (n > 0 ? n : 1) * sizeof (int64_t)) ;
    GrB_Index *op = malloc ((size_t) (n + 1) * sizeof (GrB_Index)) ;
    if (deg == NULL || op == NULL) { free (deg) ; free (op) ; return GrB_OUT_OF_MEMORY ; }
    #pragma omp parallel for schedule(static)
    for (int64_t i = 0 ; i < n ; i++)
    {
        int64_t d = 0 ;
        for (GrB_Index k = A->p [i] ; k < A->p [i + 1] ; k++) d += (A->j [k] != (GrB_Index) i) ;
        deg [i] = d ;
    }
    #define GG_RANK_LT(a, b) (deg [a] < deg [b] || (deg [a] == deg [b] && (a) < (b)))
    op [0] = 0 ;
    for (int64_t i = 0 ; i < n ; i++)
    {
        GrB_Index c = 0 ;
        for (GrB_Index k = A->p [i] ; k < A->p [i + 1] ; k++)
        {
            int64_t j = (int64_t) A->j [k] ;
            c += (j != i && GG_RANK_LT (i, j)) ;
        }
        op [i + 1] = op [i] + c ;
    }
    GrB_Index *oj = malloc ((size_t) (op [n] > 0 ? op [n] : 1) * sizeof (GrB_Index)) ;
    if (oj == NULL) { free (deg) ; free (op) ; return GrB_OUT_OF_MEMORY ; }
    #pragma omp parallel for schedule(dynamic, 1024)
    for (int64_t i = 0 ; i < n ; i++)
    {
        GrB_Index c = op [i] ;
        for (GrB_Index k = A->p [i] ; k < A->p [i + 1] ; k++)
        {
            int64_t j = (int64_t) A->j [k] ;
            if (j != i && GG_RANK_LT (i, j)) oj [c++] = (GrB_Index) j ;
        }
    }
    #undef GG_RANK_LT
    // out-lists keep the ascending column order of the CSR, so merge them
    int64_t total = 0 ;
    #pragma omp parallel for schedule(dynamic, 256) reduction(+:total)
    for (int64_t u = 0 ; u < n ; u++)
    {
        for (GrB_Index k = op [u] ; k < op [u + 1] ; k++)
        {
            GrB_Index v = oj [k] ;
            GrB_Index a = op [u], ae = op [u + 1], b = op [v], be = op [v + 1] ;
            while (a < ae && b < be)
            {
                if (oj [a] < oj [b]) a++ ;
                else if (oj [a] > oj [b]) b++ ;
                else { total++ ; a++ ; b++ ; }
            }
        }
    }
    *ntri = total ;
    free (deg) ; free (op) ; free (oj) ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// BFS
//------------------------------------------------------------------------------

#undef  GG_FREE_ALL
#define GG_FREE_ALL                                             \
    do {                                                        \
        GrB_Vector_free (&q) ; GrB_Vector_free (level) ;        \
        if (parent != NULL) GrB_Vector_free (parent) ;          \
    } while (0)

GrB_Info gg_bfs (GrB_Vector *level, GrB_Vector *parent, GrB_Matrix A,
    GrB_Index src, gg_bfs_dir dir, const gg_ops *ops, gg_bfs_stats *stats)
{
    GrB_Vector q = NULL ;
    gg_bfs_stats st = { 0, 0, 0, 0 } ;
    if (ops == NULL) ops = gg_ops_default () ;
    if (level == NULL) return GrB_NULL_POINTER ;
    *level = NULL ;
    if (parent != NULL) *parent = NULL ;
    GrB_Index n, nc ;
    GG_TRY (GrB_Matrix_nrows (&n, A)) ;
    GG_TRY (GrB_Matrix_ncols (&nc, A)) ;
    if (n != nc) return GrB_DIMENSION_MISMATCH ;
    if (src >= n) return GrB_INVALID_INDEX ;

    const bool want_parent = (parent != NULL) ;
    // levels only: the frontier's structure is all that matters (ANY_PAIR);
    // parents: the frontier carries, for each vertex, the index of a
    // neighbour it was reached from (SECONDI: the row index of A(k,j) in
    // q'*A, the index of q(k) in A*q)
    GrB_Semiring sr = want_parent ? GxB_ANY_SECONDI_INT64 : GxB_ANY_PAIR_BOOL ;
    GG_TRY (GrB_Vector_new (level, GrB_INT64, n)) ;
    GG_TRY (GrB_Vector_setElement_INT64 (*level, 0, src)) ;
    if (want_parent)
    {
        GG_TRY (GrB_Vector_new (parent, GrB_INT64, n)) ;
        GG_TRY (GrB_Vector_setElement_INT64 (*parent, (int64_t) src, src)) ;
        GG_TRY (GrB_Vector_new (&q, GrB_INT64, n)) ;
        GG_TRY (GrB_Vector_setElement_INT64 (q, (int64_t) src, src)) ;
    }
    else
    {
        GG_TRY (GrB_Vector_new (&q, GrB_BOOL, n)) ;
        GG_TRY (GrB_Vector_setElement_BOOL (q, true, src)) ;
    }
    // the visited set: the complement of its structure masks the next frontier
    GrB_Vector visited = want_parent ? *parent : *level ;

    GrB_Index nq = 1, nq_prev = 0, nreached = 1 ;
    bool pull = (dir == GG_BFS_PULL) ;
    int64_t k ;
    for (k = 1 ; ; k++)
    {
        if (dir == GG_BFS_AUTO)
        {
            // Beamer's direction switch, with vertex counts standing in for
            // edge counts: pull while the frontier grows into a sizeable part
            // of what is left, push again once it shrinks and is small. A
            // shrinking frontier never switches to pull: at the tail of a
            // long BFS (grids) the unvisited set is small but a pull step
            // still visits every row.
            bool growing = nq > nq_prev ;
            GrB_Index unvisited = n - nreached ;
            if (!pull && growing && nq * 14 > unvisited) pull = true ;
            else if (pull && !growing && nq * 24 < n) pull = false ;
        }
        nq_prev = nq ;
        if (pull)
        {
            GG_TRY (ops->mxv (q, visited, NULL, sr, A, q, GrB_DESC_RSC)) ;
            st.npull++ ;
        }
        else
        {
            GG_TRY (ops->vxm (q, visited, NULL, sr, q, A, GrB_DESC_RSC)) ;
            st.npush++ ;
        }
        GG_TRY (GrB_Vector_nvals (&nq, q)) ;
        if (nq == 0) break ;
        nreached += nq ;
        GG_TRY (GrB_Vector_assign_INT64 (*level, q, NULL, k, GrB_ALL, n,
            GrB_DESC_S)) ;
        if (want_parent)
            GG_TRY (GrB_Vector_assign (*parent, q, NULL, q, GrB_ALL, n,
                GrB_DESC_S)) ;
    }
    GrB_Vector_free (&q) ;
    GG_TRY (GrB_Vector_wait (*level, GrB_MATERIALIZE)) ;
    if (want_parent) GG_TRY (GrB_Vector_wait (*parent, GrB_MATERIALIZE)) ;
    st.nlevels = k ;
    st.nreached = (int64_t) nreached ;
    if (stats != NULL) *stats = st ;
    return GrB_SUCCESS ;
}

// Reads a vector into a dense array, absent entries = -1.
static GrB_Info gg_vector_dense (int64_t **out, GrB_Vector v, GrB_Index n)
{
    GrB_Index nv ;
    GrB_Info info = GrB_Vector_nvals (&nv, v) ;
    if (info != GrB_SUCCESS) return info ;
    int64_t *d = malloc ((size_t) (n > 0 ? n : 1) * sizeof (int64_t)) ;
    GrB_Index *I = malloc ((size_t) (nv > 0 ? nv : 1) * sizeof (GrB_Index)) ;
    int64_t *X = malloc ((size_t) (nv > 0 ? nv : 1) * sizeof (int64_t)) ;
    if (d == NULL || I == NULL || X == NULL)
    {
        free (d) ; free (I) ; free (X) ;
        return GrB_OUT_OF_MEMORY ;
    }
    info = GrB_Vector_extractTuples_INT64 (I, X, &nv, v) ;
    if (info == GrB_SUCCESS)
    {
        for (GrB_Index i = 0 ; i < n ; i++) d [i] = -1 ;
        for (GrB_Index k = 0 ; k < nv ; k++) d [I [k]] = X [k] ;
        *out = d ;
    }
    else free (d) ;
    free (I) ; free (X) ;
    return info ;
}

static bool gg_has_edge (const gg_csr *A, GrB_Index i, GrB_Index j)
{
    GrB_Index lo = A->p [i], hi = A->p [i + 1] ;
    while (lo < hi)
    {
        GrB_Index mid = lo + (hi - lo) / 2 ;
        if (A->j [mid] < j) lo = mid + 1 ;
        else hi = mid ;
    }
    return lo < A->p [i + 1] && A->j [lo] == j ;
}

// A queue BFS from src over A: ref [v] its distance (-1: not reached),
// queue scratch of n; the entries of the reached rows (each undirected edge
// of the component twice, a self-loop once)
static GrB_Index gg_bfs_oracle (const gg_csr *A, GrB_Index src, int64_t *ref,
    GrB_Index *queue)
{
    GrB_Index entries = 0, head = 0, tail = 0 ;
    for (GrB_Index i = 0 ; i < A->nrows ; i++) ref [i] = -1 ;
    ref [src] = 0 ; queue [tail++] = src ;
    while (head < tail)
    {
        GrB_Index u = queue [head++] ;
        entries += A->p [u + 1] - A->p [u] ;
        for (GrB_Index k = A->p [u] ; k < A->p [u + 1] ; k++)
        {
            GrB_Index v = A->j [k] ;
            if (ref [v] < 0) { ref [v] = ref [u] + 1 ; queue [tail++] = v ; }
        }
    }
    return entries ;
}

GrB_Info gg_bfs_component_entries (GrB_Index *entries, const gg_csr *A, GrB_Index src)
{
    const GrB_Index n = A->nrows ;
    int64_t *ref = malloc ((size_t) (n > 0 ? n : 1) * sizeof (int64_t)) ;
    GrB_Index *queue = malloc ((size_t) (n > 0 ? n : 1) * sizeof (GrB_Index)) ;
    GrB_Info info = GrB_OUT_OF_MEMORY ;
    if (ref != NULL && queue != NULL && src < n)
    {
        *entries = gg_bfs_oracle (A, src, ref, queue) ;
        info = GrB_SUCCESS ;
    }
    free (ref) ; free (queue) ;
    return info ;
}

GrB_Info gg_bfs_check (bool *ok, char *msg, size_t msglen, const gg_csr *A,
    GrB_Index src, GrB_Vector level, GrB_Vector parent)
{
    const GrB_Index n = A->nrows ;
    *ok = false ;
    if (msg && msglen) msg [0] = '\0' ;
    int64_t *ref = malloc ((size_t) (n > 0 ? n : 1) * sizeof (int64_t)) ;
    GrB_Index *queue = malloc ((size_t) (n > 0 ? n : 1) * sizeof (GrB_Index)) ;
    int64_t *lev = NULL, *par = NULL ;
    GrB_Info info = GrB_SUCCESS ;
    if (ref == NULL || queue == NULL) { info = GrB_OUT_OF_MEMORY ; goto done ; }

    // the oracle: a queue BFS; levels are distances, so they are unique
    (void) gg_bfs_oracle (A, src, ref, queue) ;
    if (level != NULL)
    {
        info = gg_vector_dense (&lev, level, n) ;
        if (info != GrB_SUCCESS) goto done ;
        for (GrB_Index i = 0 ; i < n ; i++)
        {
            if (lev [i] != ref [i])
            {
                snprintf (msg, msglen, "level of vertex %llu is %lld, expected %lld",
                    (unsigned long long) i, (long long) lev [i], (long long) ref [i]) ;
                goto done ;
            }
        }
    }
    if (parent != NULL)
    {
        info = gg_vector_dense (&par, parent, n) ;
        if (info != GrB_SUCCESS) goto done ;
        for (GrB_Index v = 0 ; v < n ; v++)
        {
            int64_t p = par [v] ;
            if (ref [v] < 0)
            {
                if (p >= 0)
                {
                    snprintf (msg, msglen, "unreachable vertex %llu has parent %lld",
                        (unsigned long long) v, (long long) p) ;
                    goto done ;
                }
                continue ;
            }
            if (v == src)
            {
                if (p != (int64_t) src)
                {
                    snprintf (msg, msglen, "source's parent is %lld", (long long) p) ;
                    goto done ;
                }
                continue ;
            }
            if (p < 0 || (GrB_Index) p >= n || ref [p] != ref [v] - 1
                || !gg_has_edge (A, (GrB_Index) p, v))
            {
                snprintf (msg, msglen, "vertex %llu (level %lld) has parent %lld, "
                    "not a neighbour one level up", (unsigned long long) v,
                    (long long) ref [v], (long long) p) ;
                goto done ;
            }
        }
    }
    *ok = true ;

done:
    free (ref) ; free (queue) ; free (lev) ; free (par) ;
    return info ;
}

//------------------------------------------------------------------------------
// PageRank
//------------------------------------------------------------------------------

#undef  GG_FREE_PR
#define GG_FREE_PR                                                          \
    GrB_Vector_free (&ones) ; GrB_Vector_free (&d) ; GrB_Vector_free (&r) ;  \
    GrB_Vector_free (&w) ; GrB_Vector_free (&t) ; GrB_Vector_free (&rd) ;   \
    GrB_Vector_free (&rn) ; GrB_Vector_free (&diff) ;

#define GG_PR_TRY(x) do { info = (x) ; if (info != GrB_SUCCESS) { GG_FREE_PR ; return info ; } } while (0)

GrB_Info gg_pagerank (GrB_Vector *rank, int *iters, GrB_Matrix A, double damping,
    double tol, int itermax)
{
    GrB_Info info ;
    GrB_Vector ones = NULL, d = NULL, r = NULL, w = NULL, t = NULL, rd = NULL, rn = NULL, diff = NULL ;
    GrB_Index n = 0 ;
    *rank = NULL ;
    *iters = 0 ;
    GG_PR_TRY (GrB_Matrix_nrows (&n, A)) ;
    if (n == 0) return GrB_INVALID_VALUE ;
    // the degrees: entries a row (A's pattern), absent on empty rows
    GG_PR_TRY (GrB_Vector_new (&ones, GrB_FP64, n)) ;
    GG_PR_TRY (GrB_Vector_assign_FP64 (ones, NULL, NULL, 1.0, GrB_ALL, n, NULL)) ;
    GG_PR_TRY (GrB_Vector_new (&d, GrB_FP64, n)) ;
    GG_PR_TRY (GrB_mxv (d, NULL, NULL, GxB_PLUS_PAIR_FP64, A, ones, NULL)) ;
    GG_PR_TRY (GrB_Vector_new (&r, GrB_FP64, n)) ;
    GG_PR_TRY (GrB_Vector_assign_FP64 (r, NULL, NULL, 1.0 / (double) n, GrB_ALL, n, NULL)) ;
    GG_PR_TRY (GrB_Vector_new (&w, GrB_FP64, n)) ;
    GG_PR_TRY (GrB_Vector_new (&t, GrB_FP64, n)) ;
    GG_PR_TRY (GrB_Vector_new (&rd, GrB_FP64, n)) ;
    GG_PR_TRY (GrB_Vector_new (&rn, GrB_FP64, n)) ;
    GG_PR_TRY (GrB_Vector_new (&diff, GrB_FP64, n)) ;
    for (int it = 0 ; it < itermax ; it++)
    {
        // w = r ./ d where d is; the rank on vertices without edges
        GG_PR_TRY (GrB_Vector_eWiseMult_BinaryOp (w, NULL, NULL, GrB_DIV_FP64, r, d, NULL)) ;
        GG_PR_TRY (GrB_Vector_assign (rd, d, NULL, r, GrB_ALL, n, GrB_DESC_RSC)) ;
        double dangling = 0 ;
        GG_PR_TRY (GrB_Vector_reduce_FP64 (&dangling, NULL, GrB_PLUS_MONOID_FP64, rd, NULL)) ;
        // t = w' * A (what each vertex receives)
        GG_PR_TRY (GrB_vxm (t, NULL, NULL, GxB_PLUS_FIRST_FP64, w, A, NULL)) ;
        // rn = (1 - damping) / n + damping * dangling / n, then += damping * t
        const double base = (1 - damping) / (double) n + damping * dangling / (double) n ;
        GG_PR_TRY (GrB_Vector_assign_FP64 (rn, NULL, NULL, base, GrB_ALL, n, NULL)) ;
        GG_PR_TRY (GrB_Vector_apply_BinaryOp2nd_FP64 (rn, NULL, GrB_PLUS_FP64, GrB_TIMES_FP64, t, damping, NULL)) ;
        // the change, then r = rn
        GG_PR_TRY (GrB_Vector_eWiseAdd_BinaryOp (diff, NULL, NULL, GrB_MINUS_FP64, rn, r, NULL)) ;
        GG_PR_TRY (GrB_Vector_apply (diff, NULL, NULL, GrB_ABS_FP64, diff, NULL)) ;
        double delta = 0 ;
        GG_PR_TRY (GrB_Vector_reduce_FP64 (&delta, NULL, GrB_PLUS_MONOID_FP64, diff, NULL)) ;
        GrB_Vector swap = r ; r = rn ; rn = swap ;
        *iters = it + 1 ;
        if (delta < tol) break ;
    }
    *rank = r ;
    r = NULL ;
    GG_FREE_PR ;
    return GrB_SUCCESS ;
}

GrB_Info gg_pagerank_ref (double *ref, const gg_csr *A, double damping, int iters)
{
    const GrB_Index n = A->nrows ;
    double *r = ref, *rn = malloc ((n + 1) * sizeof (double)) ;
    if (rn == NULL) return GrB_OUT_OF_MEMORY ;
    for (GrB_Index i = 0 ; i < n ; i++) r [i] = 1.0 / (double) n ;
    for (int it = 0 ; it < iters ; it++)
    {
        double dangling = 0 ;
        for (GrB_Index i = 0 ; i < n ; i++) if (A->p [i + 1] == A->p [i]) dangling += r [i] ;
        const double base = (1 - damping) / (double) n + damping * dangling / (double) n ;
        for (GrB_Index j = 0 ; j < n ; j++) rn [j] = 0 ;
        for (GrB_Index i = 0 ; i < n ; i++)
        {
            const GrB_Index deg = A->p [i + 1] - A->p [i] ;
            if (deg == 0) continue ;
            const double wi = r [i] / (double) deg ;
            for (GrB_Index k = A->p [i] ; k < A->p [i + 1] ; k++) rn [A->j [k]] += wi ;
        }
        for (GrB_Index j = 0 ; j < n ; j++) r [j] = base + damping * rn [j] ;
    }
    free (rn) ;
    return GrB_SUCCESS ;
}
