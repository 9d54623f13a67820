// bench_util.c — operands, timed GraphBLAS calls, digests and comparisons
// shared by grb_bench and the cuSPARSE peer (see bench_util.h).
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

//------------------------------------------------------------------------------
// operands
//------------------------------------------------------------------------------

GrB_Info bu_make_x (GrB_Vector *x, GrB_Index n, uint64_t seed)
{
    *x = NULL ;
    double *v = malloc ((size_t) (n > 0 ? n : 1) * sizeof (double)) ;
    if (v == NULL) return GrB_OUT_OF_MEMORY ;
    const uint64_t s = bu_seed_x (seed) ;
    for (GrB_Index i = 0 ; i < n ; i++) v [i] = gg_dense_value (s, i) ;
    GrB_Info info = GrB_Vector_new (x, GrB_FP64, n) ;
    // pack hands the array to GraphBLAS (no copy); it sets v to NULL
    if (info == GrB_SUCCESS)
        info = GxB_Vector_pack_Full (*x, (void **) &v,
            (n > 0 ? n : 1) * sizeof (double), false, NULL) ;
    free (v) ;
    if (info != GrB_SUCCESS) GrB_Vector_free (x) ;
    return info ;
}

int bu_dense_cols (void)
{
    const char *e = getenv ("GRBCUDA_BENCH_COLS") ;
    const int k = e != NULL ? atoi (e) : 0 ;
    return k > 0 ? k : 32 ;
}

GrB_Info bu_make_dense (GrB_Matrix *X, GrB_Index n, int k, uint64_t s)
{
    *X = NULL ;
    size_t len = (size_t) n * (size_t) k ;
    float *v = malloc ((len > 0 ? len : 1) * sizeof (float)) ;
    if (v == NULL) return GrB_OUT_OF_MEMORY ;
    for (size_t i = 0 ; i < len ; i++) v [i] = (float) gg_dense_value (s, i) ;
    GrB_Info info = GrB_Matrix_new (X, GrB_FP32, n, (GrB_Index) k) ;
    if (info == GrB_SUCCESS)
        info = GxB_Matrix_pack_FullR (*X, (void **) &v,
            (len > 0 ? len : 1) * sizeof (float), false, NULL) ;
    free (v) ;
    if (info != GrB_SUCCESS) GrB_Matrix_free (X) ;
    return info ;
}

GrB_Info bu_make_fp32 (GrB_Matrix *A32, GrB_Matrix A)
{
    GrB_Index nr, nc ;
    *A32 = NULL ;
    GrB_Info info = GrB_Matrix_nrows (&nr, A) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_ncols (&nc, A) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_new (A32, GrB_FP32, nr, nc) ;
    if (info == GrB_SUCCESS)
        info = GrB_Matrix_apply (*A32, NULL, NULL, GrB_IDENTITY_FP32, A, NULL) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_wait (*A32, GrB_MATERIALIZE) ;
    if (info != GrB_SUCCESS) GrB_Matrix_free (A32) ;
    return info ;
}

//------------------------------------------------------------------------------
// the operations
//------------------------------------------------------------------------------

GrB_Info bu_spgemm (GrB_Matrix *C, GrB_Matrix A, const gg_ops *ops)
{
    GrB_Index n, m ;
    if (ops == NULL) ops = gg_ops_default () ;
    *C = NULL ;
    GrB_Info info = GrB_Matrix_nrows (&n, A) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_ncols (&m, A) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_new (C, GrB_FP64, n, m) ;
    if (info == GrB_SUCCESS)
        info = ops->mxm (*C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, A, NULL) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_wait (*C, GrB_MATERIALIZE) ;
    if (info != GrB_SUCCESS) GrB_Matrix_free (C) ;
    return info ;
}

GrB_Info bu_spmv (GrB_Vector *y, GrB_Matrix A, GrB_Vector x, const gg_ops *ops)
{
    GrB_Index n ;
    if (ops == NULL) ops = gg_ops_default () ;
    *y = NULL ;
    GrB_Info info = GrB_Matrix_nrows (&n, A) ;
    if (info == GrB_SUCCESS) info = GrB_Vector_new (y, GrB_FP64, n) ;
    if (info == GrB_SUCCESS)
        info = ops->mxv (*y, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, x, NULL) ;
    if (info == GrB_SUCCESS) info = GrB_Vector_wait (*y, GrB_MATERIALIZE) ;
    if (info != GrB_SUCCESS) GrB_Vector_free (y) ;
    return info ;
}

GrB_Info bu_spmm (GrB_Matrix *Y, GrB_Matrix A32, GrB_Matrix X, const gg_ops *ops)
{
    GrB_Index n, k ;
    if (ops == NULL) ops = gg_ops_default () ;
    *Y = NULL ;
    GrB_Info info = GrB_Matrix_nrows (&n, A32) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_ncols (&k, X) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_new (Y, GrB_FP32, n, k) ;
    if (info == GrB_SUCCESS)
        info = ops->mxm (*Y, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A32, X, NULL) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_wait (*Y, GrB_MATERIALIZE) ;
    if (info != GrB_SUCCESS) GrB_Matrix_free (Y) ;
    return info ;
}

GrB_Info bu_sddmm (GrB_Matrix *C, GrB_Matrix M, GrB_Matrix X, GrB_Matrix Y,
    const gg_ops *ops)
{
    GrB_Index n, m ;
    if (ops == NULL) ops = gg_ops_default () ;
    *C = NULL ;
    GrB_Info info = GrB_Matrix_nrows (&n, M) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_ncols (&m, M) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_new (C, GrB_FP32, n, m) ;
    // structural mask, second input transposed: C<M> = X*Y'
    if (info == GrB_SUCCESS)
        info = ops->mxm (*C, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, X, Y, GrB_DESC_ST1) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_wait (*C, GrB_MATERIALIZE) ;
    if (info != GrB_SUCCESS) GrB_Matrix_free (C) ;
    return info ;
}

//------------------------------------------------------------------------------
// vectors
//------------------------------------------------------------------------------

void bu_vec_free (bu_vec *v)
{
    if (v == NULL) return ;
    free (v->present) ; free (v->x) ;
    memset (v, 0, sizeof (*v)) ;
}

GrB_Info bu_vec_get (bu_vec *v, GrB_Vector w)
{
    memset (v, 0, sizeof (*v)) ;
    GrB_Index n, nv ;
    GrB_Vector t = NULL ;
    GrB_Type type ;
    GrB_Info info = GrB_Vector_size (&n, w) ;
    if (info == GrB_SUCCESS) info = GrB_Vector_nvals (&nv, w) ;
    if (info == GrB_SUCCESS) info = GxB_Vector_type (&type, w) ;
    if (info != GrB_SUCCESS) return info ;
    GrB_Vector src = w ;
    if (type != GrB_FP64)
    {
        info = GrB_Vector_new (&t, GrB_FP64, n) ;
        if (info == GrB_SUCCESS)
            info = GrB_Vector_apply (t, NULL, NULL, GrB_IDENTITY_FP64, w, NULL) ;
        if (info != GrB_SUCCESS) { GrB_Vector_free (&t) ; return info ; }
        src = t ;
    }
    GrB_Index *I = malloc ((size_t) (nv > 0 ? nv : 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((size_t) (nv > 0 ? nv : 1) * sizeof (double)) ;
    v->present = calloc ((size_t) (n > 0 ? n : 1), 1) ;
    v->x = calloc ((size_t) (n > 0 ? n : 1), sizeof (double)) ;
    if (I == NULL || X == NULL || v->present == NULL || v->x == NULL)
        info = GrB_OUT_OF_MEMORY ;
    if (info == GrB_SUCCESS) info = GrB_Vector_extractTuples_FP64 (I, X, &nv, src) ;
    if (info == GrB_SUCCESS)
    {
        v->n = n ; v->nvals = nv ;
        for (GrB_Index k = 0 ; k < nv ; k++) { v->present [I [k]] = 1 ; v->x [I [k]] = X [k] ; }
    }
    else bu_vec_free (v) ;
    free (I) ; free (X) ;
    GrB_Vector_free (&t) ;
    return info ;
}

//------------------------------------------------------------------------------
// digests
//------------------------------------------------------------------------------

void bu_digest_csr (bu_digest *d, const gg_csr *C)
{
    uint64_t pat = 0 ;
    double sum = 0, sumabs = 0 ;
    int64_t nrows = (int64_t) C->nrows ;
    #pragma omp parallel for schedule(static) reduction(+:pat,sum,sumabs)
    for (int64_t i = 0 ; i < nrows ; i++)
    {
        for (GrB_Index k = C->p [i] ; k < C->p [i + 1] ; k++)
        {
            // a sum of hashes does not depend on the order of the entries
            pat += gg_mix64 (((uint64_t) i << 32) ^ (uint64_t) C->j [k] ^ ((uint64_t) i >> 32)) ;
            sum += C->x [k] ;
            sumabs += fabs (C->x [k]) ;
        }
    }
    d->nvals = C->nvals ; d->pattern = pat ; d->sum = sum ; d->sumabs = sumabs ;
}

void bu_digest_vec (bu_digest *d, const bu_vec *v)
{
    uint64_t pat = 0 ;
    double sum = 0, sumabs = 0 ;
    int64_t n = (int64_t) v->n ;
    #pragma omp parallel for schedule(static) reduction(+:pat,sum,sumabs)
    for (int64_t i = 0 ; i < n ; i++)
    {
        if (!v->present [i]) continue ;
        pat += gg_mix64 ((uint64_t) i) ;
        sum += v->x [i] ;
        sumabs += fabs (v->x [i]) ;
    }
    d->nvals = v->nvals ; d->pattern = pat ; d->sum = sum ; d->sumabs = sumabs ;
}

void bu_digest_json (FILE *f, const bu_digest *d)
{
    // the hash as a string: JSON readers may not hold 64-bit integers exactly
    fprintf (f, "{\"nvals\":%llu,\"pattern\":\"%016llx\",\"sum\":%.17g,\"sumabs\":%.17g}",
        (unsigned long long) d->nvals, (unsigned long long) d->pattern,
        d->sum, d->sumabs) ;
}

//------------------------------------------------------------------------------
// comparisons
//------------------------------------------------------------------------------

static bool bu_close (double ref, double got, bu_tol tol, GrB_Index row)
{
    if (isnan (ref) || isnan (got)) return isnan (ref) && isnan (got) ;
    double bound = tol.rtol * fmax (fabs (ref), fabs (got)) + tol.atol ;
    if (tol.row_atol != NULL) bound += tol.row_atol [row] ;
    return fabs (got - ref) <= bound ;
}

bool bu_compare_csr (char *msg, size_t len, const gg_csr *ref,
    const gg_csr *got, bu_tol tol)
{
    if (ref->nrows != got->nrows || ref->ncols != got->ncols)
    {
        snprintf (msg, len, "dimensions %llux%llu, expected %llux%llu",
            (unsigned long long) got->nrows, (unsigned long long) got->ncols,
            (unsigned long long) ref->nrows, (unsigned long long) ref->ncols) ;
        return false ;
    }
    if (ref->nvals != got->nvals)
    {
        snprintf (msg, len, "%llu entries, expected %llu",
            (unsigned long long) got->nvals, (unsigned long long) ref->nvals) ;
        return false ;
    }
    int64_t nrows = (int64_t) ref->nrows ;
    int64_t bad = -1 ;      // the first bad row, found in parallel
    #pragma omp parallel for schedule(dynamic, 4096)
    for (int64_t i = 0 ; i < nrows ; i++)
    {
        int64_t cur ;
        #pragma omp atomic read
        cur = bad ;
        if (cur >= 0 && cur < i) continue ;
        bool ok = ref->p [i + 1] == got->p [i + 1] && ref->p [i] == got->p [i] ;
        for (GrB_Index k = ref->p [i] ; ok && k < ref->p [i + 1] ; k++)
            ok = ref->j [k] == got->j [k] && bu_close (ref->x [k], got->x [k], tol, i) ;
        if (!ok)
        {
            #pragma omp critical (bu_bad_row)
            if (bad < 0 || i < bad) bad = i ;
        }
    }
    if (bad < 0) return true ;
    GrB_Index i = (GrB_Index) bad ;
    if (ref->p [i] != got->p [i] || ref->p [i + 1] != got->p [i + 1])
    {
        snprintf (msg, len, "row %llu has %lld entries, expected %lld",
            (unsigned long long) i, (long long) (got->p [i + 1] - got->p [i]),
            (long long) (ref->p [i + 1] - ref->p [i])) ;
        return false ;
    }
    for (GrB_Index k = ref->p [i] ; k < ref->p [i + 1] ; k++)
    {
        if (ref->j [k] != got->j [k])
        {
            snprintf (msg, len, "pattern differs in row %llu: column %llu, expected %llu",
                (unsigned long long) i, (unsigned long long) got->j [k],
                (unsigned long long) ref->j [k]) ;
            return false ;
        }
        if (!bu_close (ref->x [k], got->x [k], tol, i))
        {
            snprintf (msg, len, "value at (%llu,%llu) is %.17g, expected %.17g",
                (unsigned long long) i, (unsigned long long) ref->j [k],
                got->x [k], ref->x [k]) ;
            return false ;
        }
    }
    snprintf (msg, len, "row %llu differs", (unsigned long long) i) ;
    return false ;
}

bool bu_compare_csr_dense (char *msg, size_t len, const gg_csr *ref,
    const float *got, int k, bu_tol tol)
{
    for (GrB_Index i = 0 ; i < ref->nrows ; i++)
    {
        GrB_Index p = ref->p [i] ;
        for (int c = 0 ; c < k ; c++)
        {
            double g = got [i * (GrB_Index) k + c], r = 0 ;
            if (p < ref->p [i + 1] && ref->j [p] == (GrB_Index) c) r = ref->x [p++] ;
            if (!bu_close (r, g, tol, i))
            {
                snprintf (msg, len, "value at (%llu,%d) is %.9g, expected %.9g",
                    (unsigned long long) i, c, g, r) ;
                return false ;
            }
        }
    }
    return true ;
}

bool bu_compare_vec (char *msg, size_t len, const bu_vec *ref,
    const bu_vec *got, bu_tol tol)
{
    if (ref->n != got->n || ref->nvals != got->nvals)
    {
        snprintf (msg, len, "%llu entries (length %llu), expected %llu (length %llu)",
            (unsigned long long) got->nvals, (unsigned long long) got->n,
            (unsigned long long) ref->nvals, (unsigned long long) ref->n) ;
        return false ;
    }
    for (GrB_Index i = 0 ; i < ref->n ; i++)
    {
        if (ref->present [i] != got->present [i])
        {
            snprintf (msg, len, "entry %llu is %s, expected %s", (unsigned long long) i,
                got->present [i] ? "present" : "absent",
                ref->present [i] ? "present" : "absent") ;
            return false ;
        }
        if (ref->present [i] && !bu_close (ref->x [i], got->x [i], tol, i))
        {
            snprintf (msg, len, "entry %llu is %.17g, expected %.17g",
                (unsigned long long) i, got->x [i], ref->x [i]) ;
            return false ;
        }
    }
    return true ;
}

bool bu_compare_vec_dense (char *msg, size_t len, const bu_vec *ref,
    const double *got, bu_tol tol)
{
    for (GrB_Index i = 0 ; i < ref->n ; i++)
    {
        double r = ref->present [i] ? ref->x [i] : 0 ;
        if (!bu_close (r, got [i], tol, i))
        {
            snprintf (msg, len, "entry %llu is %.17g, expected %.17g",
                (unsigned long long) i, got [i], r) ;
            return false ;
        }
    }
    return true ;
}

uint64_t bu_products (const gg_csr *A)
{
    uint64_t total = 0 ;
    int64_t n = (int64_t) A->nrows ;
    #pragma omp parallel for schedule(static) reduction(+:total)
    for (int64_t i = 0 ; i < n ; i++)
        for (GrB_Index k = A->p [i] ; k < A->p [i + 1] ; k++)
        {
            GrB_Index j = A->j [k] ;
            if (j < A->nrows) total += A->p [j + 1] - A->p [j] ;
        }
    return total ;
}

double *bu_row_bound (const gg_csr *A, double u)
{
    double *b = malloc ((size_t) (A->nrows > 0 ? A->nrows : 1) * sizeof (double)) ;
    if (b == NULL) return NULL ;
    for (GrB_Index i = 0 ; i < A->nrows ; i++)
    {
        double s = 0 ;
        for (GrB_Index k = A->p [i] ; k < A->p [i + 1] ; k++) s += fabs (A->x [k]) ;
        b [i] = 2.0 * (double) (A->p [i + 1] - A->p [i]) * u * s ;
    }
    return b ;
}

void bu_json_str (FILE *f, const char *s)
{
    fputc ('"', f) ;
    for ( ; s != NULL && *s ; s++)
    {
        unsigned char c = (unsigned char) *s ;
        if (c == '"' || c == '\\') fprintf (f, "\\%c", c) ;
        else if (c < 0x20) fprintf (f, "\\u%04x", c) ;
        else fputc (c, f) ;
    }
    fputc ('"', f) ;
}
