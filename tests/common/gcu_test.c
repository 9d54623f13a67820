// gcu_test.c — implementation of the shared test kit (gcu_test.h).
#define _GNU_SOURCE
#include "gcu_test.h"
#include <ctype.h>
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef GRBCUDA_TEST_GRAPHBLAS_SONAME
#define GRBCUDA_TEST_GRAPHBLAS_SONAME "libgraphblas.so.7"
#endif

int gcu_test_passed = 0, gcu_test_failed = 0 ;

int gcu_test_report (const char *name)
{
    printf ("%s: %d passed, %d failed\n", name, gcu_test_passed, gcu_test_failed) ;
    fflush (stdout) ;
    return gcu_test_failed == 0 && gcu_test_passed > 0 ? 0 : 1 ;
}

void *gcu_test_real (const char *name)
{
    static void *handle = NULL ;
    if (handle == NULL)
    {
        handle = dlopen (GRBCUDA_TEST_GRAPHBLAS_SONAME, RTLD_LAZY | RTLD_NOLOAD) ;
        if (handle == NULL) handle = dlopen (GRBCUDA_TEST_GRAPHBLAS_SONAME, RTLD_LAZY) ;
        if (handle == NULL) return NULL ;
    }
    return dlsym (handle, name) ;
}

//------------------------------------------------------------------------------
// grbcuda, reached dynamically
//------------------------------------------------------------------------------

bool gcu_test_grbcuda_present (void)
{
    return dlsym (RTLD_DEFAULT, "grbcuda_stats_get") != NULL ;
}

bool gcu_test_stats (const char *op, gcu_test_stats_t *s)
{
    // Same layout as grbcuda_op_stats (3 counters, GRBCUDA_NREASONS reasons,
    // seconds); the reasons array here is larger, so it is read into a buffer.
    typedef GrB_Info (*fn_t) (const char *, void *) ;
    fn_t f = (fn_t) dlsym (RTLD_DEFAULT, "grbcuda_stats_get") ;
    memset (s, 0, sizeof (*s)) ;
    if (f == NULL) return false ;
    uint64_t buf [64] ;
    memset (buf, 0, sizeof (buf)) ;
    if (f (op, buf) != GrB_SUCCESS) return false ;
    s->calls = buf [0] ; s->gpu = buf [1] ; s->host = buf [2] ;
    for (int r = 0 ; r < 7 ; r++) s->reason [r] = buf [3 + r] ;
    return true ;
}

bool gcu_test_set_mode (int mode)
{
    typedef GrB_Info (*fn_t) (int) ;
    fn_t f = (fn_t) dlsym (RTLD_DEFAULT, "grbcuda_set_mode") ;
    return f != NULL && f (mode) == GrB_SUCCESS ;
}

bool gcu_test_set_threshold (double t)
{
    typedef GrB_Info (*fn_t) (double) ;
    fn_t f = (fn_t) dlsym (RTLD_DEFAULT, "grbcuda_set_threshold") ;
    return f != NULL && f (t) == GrB_SUCCESS ;
}

bool gcu_test_gpu_available (void)
{
    typedef int (*fn_t) (void) ;
    fn_t f = (fn_t) dlsym (RTLD_DEFAULT, "grbcuda_gpu_available") ;
    return f != NULL && f () != 0 ;
}

//------------------------------------------------------------------------------
// random numbers, types
//------------------------------------------------------------------------------

uint64_t gcu_rand (uint64_t *state)
{
    // splitmix64
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull) ;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull ;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull ;
    return z ^ (z >> 31) ;
}

double gcu_rand01 (uint64_t *state)
{
    return (double) (gcu_rand (state) >> 11) * (1.0 / 9007199254740992.0) ;
}

GrB_Type gcu_test_types [13] ;
const char *gcu_test_type_names [13] = { "BOOL", "INT8", "INT16", "INT32",
    "INT64", "UINT8", "UINT16", "UINT32", "UINT64", "FP32", "FP64", "FC32",
    "FC64" } ;
static GrB_BinaryOp plus_ops [13] ;
static GrB_UnaryOp identity_ops [13] ;

void gcu_test_types_init (void)
{
    GrB_Type t [13] = { GrB_BOOL, GrB_INT8, GrB_INT16, GrB_INT32, GrB_INT64,
        GrB_UINT8, GrB_UINT16, GrB_UINT32, GrB_UINT64, GrB_FP32, GrB_FP64,
        GxB_FC32, GxB_FC64 } ;
    GrB_BinaryOp p [13] = { GrB_LOR, GrB_PLUS_INT8, GrB_PLUS_INT16,
        GrB_PLUS_INT32, GrB_PLUS_INT64, GrB_PLUS_UINT8, GrB_PLUS_UINT16,
        GrB_PLUS_UINT32, GrB_PLUS_UINT64, GrB_PLUS_FP32, GrB_PLUS_FP64,
        GxB_PLUS_FC32, GxB_PLUS_FC64 } ;
    GrB_UnaryOp u [13] = { GrB_IDENTITY_BOOL, GrB_IDENTITY_INT8,
        GrB_IDENTITY_INT16, GrB_IDENTITY_INT32, GrB_IDENTITY_INT64,
        GrB_IDENTITY_UINT8, GrB_IDENTITY_UINT16, GrB_IDENTITY_UINT32,
        GrB_IDENTITY_UINT64, GrB_IDENTITY_FP32, GrB_IDENTITY_FP64,
        GxB_IDENTITY_FC32, GxB_IDENTITY_FC64 } ;
    memcpy (gcu_test_types, t, sizeof (t)) ;
    memcpy (plus_ops, p, sizeof (p)) ;
    memcpy (identity_ops, u, sizeof (u)) ;
}

static int type_index (GrB_Type t)
{
    for (int k = 0 ; k < 13 ; k++) if (gcu_test_types [k] == t) return k ;
    return -1 ;
}

GrB_BinaryOp gcu_test_plus (GrB_Type t)
{
    int k = type_index (t) ;
    return k < 0 ? NULL : plus_ops [k] ;
}

//------------------------------------------------------------------------------
// random matrices in every storage
//------------------------------------------------------------------------------

GrB_Matrix gcu_test_random_matrix (GrB_Type t, GrB_Index nrows,
    GrB_Index ncols, double density, uint64_t *st)
{
    GrB_Index total = nrows * ncols ;
    GrB_Index want = (GrB_Index) (density * (double) total + 0.5) ;
    if (want > total) want = total ;
    GrB_Index *I = malloc ((want + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((want + 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((want + 1) * sizeof (double)) ;
    bool iso = gcu_rand (st) % 8 == 0 ;
    bool full = density >= 1.0 ;
    GrB_Index n = 0 ;
    if (full)
    {
        for (GrB_Index i = 0 ; i < nrows ; i++)
            for (GrB_Index j = 0 ; j < ncols ; j++, n++) { I [n] = i ; J [n] = j ; }
    }
    else
    {
        for (n = 0 ; n < want ; n++)
        {
            I [n] = gcu_rand (st) % nrows ;
            J [n] = gcu_rand (st) % ncols ;
        }
    }
    for (GrB_Index k = 0 ; k < n ; k++)
    {
        // small integers (exact in every type); some negative, which the
        // unsigned types saturate to 0 when cast, as GraphBLAS defines
        X [k] = iso ? 3.0 : (double) ((int) (gcu_rand (st) % 23) - 4) ;
        if (!iso && gcu_rand (st) % 5 == 0) X [k] += 0.5 ;
    }
    GrB_Matrix D = NULL, A = NULL ;
    GrB_Matrix_new (&D, GrB_FP64, nrows, ncols) ;
    GrB_Matrix_build_FP64 (D, I, J, X, n, GrB_SECOND_FP64) ;
    GrB_Matrix_new (&A, t, nrows, ncols) ;
    GrB_Matrix_apply (A, NULL, NULL, identity_ops [type_index (t)], D, NULL) ;
    GrB_Matrix_free (&D) ;
    free (I) ; free (J) ; free (X) ;
    // storage: orientation and sparsity chosen at random
    if (gcu_rand (st) % 3 == 0) GxB_Matrix_Option_set (A, GxB_FORMAT, GxB_BY_COL) ;
    int sp [4] = { GxB_SPARSE, GxB_HYPERSPARSE, GxB_BITMAP, GxB_FULL } ;
    // bitmap and full hold every cell: only for matrices of modest size
    bool small = (double) nrows * (double) ncols <= 1e6 ;
    GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, sp [gcu_rand (st) % (small ? 4 : 2)]) ;
    GrB_Matrix_wait (A, GrB_MATERIALIZE) ;
    // sometimes leave pending work (pending tuples) for the operation to finish
    if (!full && nrows > 0 && ncols > 0 && gcu_rand (st) % 5 == 0)
    {
        GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, GxB_SPARSE) ;
        for (int k = 0 ; k < 3 ; k++)
            GrB_Matrix_setElement_FP64 (A, 2.0, gcu_rand (st) % nrows,
                gcu_rand (st) % ncols) ;
    }
    return A ;
}

GrB_Vector gcu_test_random_vector (GrB_Type t, GrB_Index n, double density,
    uint64_t *st)
{
    GrB_Matrix A = gcu_test_random_matrix (t, n, 1, density, st) ;
    GrB_Vector v = NULL ;
    GrB_Vector_new (&v, t, n) ;
    // column 0 of A, through the real extract (not interposed)
    GrB_Col_extract (v, NULL, NULL, A, GrB_ALL, n, 0, NULL) ;
    GrB_Matrix_free (&A) ;
    if (gcu_rand (st) % 3 == 0)
    {
        int sp [3] = { GxB_SPARSE, GxB_BITMAP, GxB_FULL } ;
        GxB_Vector_Option_set (v, GxB_SPARSITY_CONTROL, sp [gcu_rand (st) % 3]) ;
    }
    return v ;
}

//------------------------------------------------------------------------------
// comparison
//------------------------------------------------------------------------------

typedef struct { GrB_Index i, j ; double re, im ; int64_t s ; uint64_t u ; } tuple ;

static int cmp_tuple (const void *a, const void *b)
{
    const tuple *x = a, *y = b ;
    if (x->i != y->i) return x->i < y->i ? -1 : 1 ;
    if (x->j != y->j) return x->j < y->j ? -1 : 1 ;
    return 0 ;
}

// Extracts all entries of A as tuples with exact values: signed/bool as
// int64, unsigned as uint64, real floating as double, complex as 2 doubles.
static tuple *tuples_of (GrB_Matrix A, GrB_Index *n_out, int *kind)
{
    GrB_Type t ;
    GrB_Index n = 0 ;
    GxB_Matrix_type (&t, A) ;
    GrB_Matrix_nvals (&n, A) ;
    int k = type_index (t) ;
    *kind = (k <= 4) ? 0 : (k <= 8) ? 1 : (k <= 10) ? 2 : 3 ;
    GrB_Index *I = malloc ((n + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((n + 1) * sizeof (GrB_Index)) ;
    void *X = malloc ((n + 1) * 16) ;
    GrB_Index got = n ;
    switch (*kind)
    {
        case 0: GrB_Matrix_extractTuples_INT64 (I, J, X, &got, A) ; break ;
        case 1: GrB_Matrix_extractTuples_UINT64 (I, J, X, &got, A) ; break ;
        case 2: GrB_Matrix_extractTuples_FP64 (I, J, X, &got, A) ; break ;
        default: GxB_Matrix_extractTuples_FC64 (I, J, X, &got, A) ; break ;
    }
    tuple *T = calloc (got + 1, sizeof (tuple)) ;
    for (GrB_Index p = 0 ; p < got ; p++)
    {
        T [p].i = I [p] ; T [p].j = J [p] ;
        switch (*kind)
        {
            case 0: T [p].s = ((int64_t *) X) [p] ; break ;
            case 1: T [p].u = ((uint64_t *) X) [p] ; break ;
            case 2: T [p].re = ((double *) X) [p] ; break ;
            default: T [p].re = ((double *) X) [2*p] ; T [p].im = ((double *) X) [2*p+1] ; break ;
        }
    }
    qsort (T, got, sizeof (tuple), cmp_tuple) ;
    free (I) ; free (J) ; free (X) ;
    *n_out = got ;
    return T ;
}

static bool close_enough (double a, double b, double tol)
{
    if (isnan (a) || isnan (b)) return isnan (a) && isnan (b) ;
    if (a == b) return true ;
    return fabs (a - b) <= tol * fmax (1.0, fmax (fabs (a), fabs (b))) ;
}

bool gcu_test_matrix_equal (GrB_Matrix A, GrB_Matrix B, double tol,
    bool pattern_only, const char *what)
{
    GrB_Type ta, tb ;
    GrB_Index ar, ac, br, bc ;
    if (GxB_Matrix_type (&ta, A) != GrB_SUCCESS || GxB_Matrix_type (&tb, B) != GrB_SUCCESS)
    {
        fprintf (stderr, "%s: invalid matrix\n", what) ;
        return false ;
    }
    GrB_Matrix_nrows (&ar, A) ; GrB_Matrix_ncols (&ac, A) ;
    GrB_Matrix_nrows (&br, B) ; GrB_Matrix_ncols (&bc, B) ;
    if (ta != tb || ar != br || ac != bc)
    {
        fprintf (stderr, "%s: type or dimensions differ\n", what) ;
        return false ;
    }
    GrB_Index na, nb ;
    int kind ;
    tuple *TA = tuples_of (A, &na, &kind) ;
    tuple *TB = tuples_of (B, &nb, &kind) ;
    bool ok = (na == nb) ;
    if (!ok) fprintf (stderr, "%s: nvals %llu vs %llu\n", what,
        (unsigned long long) na, (unsigned long long) nb) ;
    for (GrB_Index p = 0 ; ok && p < na ; p++)
    {
        tuple *x = &TA [p], *y = &TB [p] ;
        if (x->i != y->i || x->j != y->j) ok = false ;
        else if (!pattern_only)
        {
            switch (kind)
            {
                case 0: ok = x->s == y->s ; break ;
                case 1: ok = x->u == y->u ; break ;
                default: ok = close_enough (x->re, y->re, tol)
                    && close_enough (x->im, y->im, tol) ; break ;
            }
        }
        if (!ok) fprintf (stderr, "%s: entry %llu (%llu,%llu) vs (%llu,%llu) "
            "values %lld/%llu/%g%+gi vs %lld/%llu/%g%+gi\n", what,
            (unsigned long long) p, (unsigned long long) x->i,
            (unsigned long long) x->j, (unsigned long long) y->i,
            (unsigned long long) y->j, (long long) x->s,
            (unsigned long long) x->u, x->re, x->im, (long long) y->s,
            (unsigned long long) y->u, y->re, y->im) ;
    }
    free (TA) ; free (TB) ;
    return ok ;
}

bool gcu_test_vector_equal (GrB_Vector a, GrB_Vector b, double tol,
    bool pattern_only, const char *what)
{
    // A GrB_Vector is an n-by-1 GrB_Matrix in SuiteSparse; compare through
    // GxB's documented cast of a vector to a matrix.
    return gcu_test_matrix_equal ((GrB_Matrix) a, (GrB_Matrix) b, tol,
        pattern_only, what) ;
}

//------------------------------------------------------------------------------
// text files
//------------------------------------------------------------------------------

char *gcu_test_read_file (const char *path)
{
    FILE *f = fopen (path, "rb") ;
    if (f == NULL) return NULL ;
    fseek (f, 0, SEEK_END) ;
    long n = ftell (f) ;
    fseek (f, 0, SEEK_SET) ;
    char *s = (n >= 0) ? malloc ((size_t) n + 1) : NULL ;
    if (s != NULL && fread (s, 1, (size_t) n, f) == (size_t) n) s [n] = '\0' ;
    else { free (s) ; s = NULL ; }
    fclose (f) ;
    return s ;
}

char *gcu_test_graphblas_h (const char *compiled, char *path, size_t size)
{
    const char *candidates [] = { compiled, getenv ("GRBCUDA_GRAPHBLAS_H"),
        "/usr/include/GraphBLAS.h", "/usr/include/suitesparse/GraphBLAS.h",
        "/usr/local/include/GraphBLAS.h", "/usr/local/include/suitesparse/GraphBLAS.h" } ;
    char major [64], minor [64] ;
    snprintf (major, sizeof (major), "GxB_IMPLEMENTATION_MAJOR %d", GxB_IMPLEMENTATION_MAJOR) ;
    snprintf (minor, sizeof (minor), "GxB_IMPLEMENTATION_MINOR %d", GxB_IMPLEMENTATION_MINOR) ;
    for (size_t k = 0 ; k < sizeof (candidates) / sizeof (candidates [0]) ; k++)
    {
        if (candidates [k] == NULL) continue ;
        char *s = gcu_test_read_file (candidates [k]) ;
        if (s == NULL) continue ;
        // it must be the version we compiled against
        if (strstr (s, major) && strstr (s, minor))
        {
            snprintf (path, size, "%s", candidates [k]) ;
            return s ;
        }
        free (s) ;
    }
    return NULL ;
}

void gcu_test_strip_comments (char *s)
{
    char *w = s ;
    for (char *r = s ; *r ; )
    {
        if (r [0] == '/' && r [1] == '/') { while (*r && *r != '\n') r++ ; }
        else if (r [0] == '/' && r [1] == '*')
        {
            r += 2 ;
            while (*r && !(r [0] == '*' && r [1] == '/')) r++ ;
            if (*r) r += 2 ;
            *w++ = ' ' ;
        }
        else *w++ = *r++ ;
    }
    *w = '\0' ;
}

int gcu_test_declared (const char *h, const char *type, char ***names)
{
    int n = 0, cap = 0 ;
    char **list = NULL ;
    const size_t tlen = strlen (type) ;
    for (const char *p = strstr (h, "GB_PUBLIC") ; p != NULL ; p = strstr (p + 1, "GB_PUBLIC"))
    {
        // the type must follow, as a whole word
        const char *q = p + strlen ("GB_PUBLIC") ;
        while (isspace ((unsigned char) *q)) q++ ;
        if (strncmp (q, type, tlen) != 0) continue ;
        q += tlen ;
        if (isalnum ((unsigned char) *q) || *q == '_') continue ;
        const char *end = strchr (q, ';') ;
        if (end == NULL) break ;
        // a function returning the type, not a variable
        if (memchr (q, '(', end - q) != NULL) continue ;
        while (q < end)
        {
            while (q < end && !(isalnum ((unsigned char) *q) || *q == '_')) q++ ;
            const char *b = q ;
            while (q < end && (isalnum ((unsigned char) *q) || *q == '_')) q++ ;
            if (q == b) continue ;
            if (n == cap)
            {
                cap = cap ? 2 * cap : 256 ;
                char **more = realloc (list, cap * sizeof (char *)) ;
                if (more == NULL) goto oom ;
                list = more ;
            }
            list [n] = strndup (b, q - b) ;
            if (list [n] == NULL) goto oom ;
            n++ ;
        }
    }
    *names = list ;
    return n ;
oom:
    for (int k = 0 ; k < n ; k++) free (list [k]) ;
    free (list) ;
    *names = NULL ;
    return -1 ;
}

int gcu_test_declared_objects (const char *h, const char *type, void ***objs,
    char ***names)
{
    char **all = NULL ;
    int n = gcu_test_declared (h, type, &all), k = 0 ;
    *objs = (n >= 0) ? calloc (n + 1, sizeof (void *)) : NULL ;
    *names = (n >= 0) ? calloc (n + 1, sizeof (char *)) : NULL ;
    if (*objs == NULL || *names == NULL)
    {
        for (int q = 0 ; q < n ; q++) free (all [q]) ;
        free (all) ; free (*objs) ; free (*names) ;
        *objs = NULL ; *names = NULL ;
        return -1 ;
    }
    for (int q = 0 ; q < n ; q++)
    {
        void **addr = dlsym (RTLD_DEFAULT, all [q]) ;
        bool seen = addr == NULL || *addr == NULL ;
        for (int p = 0 ; p < k && !seen ; p++) seen = (*objs) [p] == *addr ;
        if (!seen) { (*objs) [k] = *addr ; (*names) [k++] = all [q] ; }
        else free (all [q]) ;
    }
    free (all) ;
    return k ;
}

void *gcu_test_iso_operand (GrB_Type t, GrB_Index m, GrB_Index n, int kind, bool vec,
    uint64_t *state)
{
    GrB_Matrix A = NULL ;
    GrB_Vector v = NULL ;
    if (vec ? GrB_Vector_new (&v, t, m) : GrB_Matrix_new (&A, t, m, n)) return NULL ;
    GrB_Scalar s = NULL ;
    (void) GrB_Scalar_new (&s, GrB_INT64) ;
    const int64_t iso_v = (int64_t) (gcu_rand (state) % 3) ;
    const GrB_Index cap = m * n ;
    const GrB_Index count = kind == 2 ? 1 : kind == 3 ? 0 : kind >= 4 ? cap : 1 + gcu_rand (state) % cap ;
    for (GrB_Index e = 0 ; e < count ; e++)
    {
        GrB_Index i = gcu_rand (state) % m, j = gcu_rand (state) % n ;
        if (kind >= 4) { i = e / n ; j = e % n ; }
        const bool same = kind == 0 || kind == 4 ;
        (void) GrB_Scalar_setElement_INT64 (s, same ? iso_v : (int64_t) (gcu_rand (state) % 5) - 1) ;
        if (vec) (void) GrB_Vector_setElement_Scalar (v, s, i) ;
        else (void) GrB_Matrix_setElement_Scalar (A, s, i, j) ;
    }
    GrB_Scalar_free (&s) ;
    static const int sp [4] = { GxB_SPARSE, GxB_HYPERSPARSE, GxB_BITMAP, GxB_FULL } ;
    if (vec)
    {
        (void) GrB_Vector_wait (v, GrB_MATERIALIZE) ;
        (void) GxB_Vector_Option_set (v, GxB_SPARSITY_CONTROL, sp [gcu_rand (state) % 4 == 0 ? 2 : 0]) ;
        return v ;
    }
    (void) GrB_Matrix_wait (A, GrB_MATERIALIZE) ;
    (void) GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, sp [gcu_rand (state) % 4]) ;
    return A ;
}

void gcu_test_ewise_safe_c (GrB_Matrix C)
{
    GrB_Index m = 0, n = 0, nv = 0 ;
    bool iso = false ;
    if (GrB_Matrix_nrows (&m, C) == GrB_SUCCESS && GrB_Matrix_ncols (&n, C) == GrB_SUCCESS
        && GrB_Matrix_nvals (&nv, C) == GrB_SUCCESS && GxB_Matrix_iso (&iso, C) == GrB_SUCCESS
        && iso && nv == m * n) (void) GrB_Matrix_clear (C) ;
}

GrB_Descriptor gcu_test_desc (bool structural, bool comp, bool replace, bool tran0, bool tran1)
{
    GrB_Descriptor d = NULL ;
    GrB_Info info = GrB_Descriptor_new (&d) ;
    if (info == GrB_SUCCESS && structural) info = GrB_Descriptor_set (d, GrB_MASK, GrB_STRUCTURE) ;
    if (info == GrB_SUCCESS && comp) info = GrB_Descriptor_set (d, GrB_MASK, GrB_COMP) ;
    if (info == GrB_SUCCESS && replace) info = GrB_Descriptor_set (d, GrB_OUTP, GrB_REPLACE) ;
    if (info == GrB_SUCCESS && tran0) info = GrB_Descriptor_set (d, GrB_INP0, GrB_TRAN) ;
    if (info == GrB_SUCCESS && tran1) info = GrB_Descriptor_set (d, GrB_INP1, GrB_TRAN) ;
    if (info != GrB_SUCCESS) GrB_Descriptor_free (&d) ;
    return d ;
}

void gcu_test_capture_begin (gcu_test_capture *c)
{
    fflush (stderr) ;
    c->f = tmpfile () ;
    c->saved = c->f != NULL ? dup (2) : -1 ;
    if (c->saved >= 0) dup2 (fileno (c->f), 2) ;
}

void gcu_test_capture_end (gcu_test_capture *c, char *log, size_t lsize)
{
    size_t n = 0 ;
    fflush (stderr) ;
    if (c->saved >= 0)
    {
        dup2 (c->saved, 2) ;
        close (c->saved) ;
        rewind (c->f) ;
        n = fread (log, 1, lsize - 1, c->f) ;
    }
    if (c->f != NULL) fclose (c->f) ;
    log [n] = '\0' ;
}
