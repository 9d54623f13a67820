// graphgen.c — generators and readers for the workloads of BENCH.md (see
// graphgen.h). The matrices are built directly in CSR form and handed to
// SuiteSparse with GxB_Matrix_import_CSR (no copy, no sort inside GraphBLAS),
// which keeps rmat-22-16 (~128M entries) to a few seconds on 16 cores.
//
// Determinism: every random edge is a pure function of (seed, edge index), so
// the graph does not depend on the number of threads; rows are sorted and
// deduplicated after generation, so the order of insertion does not matter.
#define _POSIX_C_SOURCE 200809L
#include "graphgen.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#define GG_FREE(p) do { free (p) ; (p) = NULL ; } while (0)

static void gg_err (char *err, size_t errlen, const char *msg, const char *arg)
{
    if (err != NULL && errlen > 0)
        snprintf (err, errlen, "%s%s%s", msg, arg ? ": " : "", arg ? arg : "") ;
}

double gg_now (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec ;
}

GrB_Info gg_init (int threads)
{
    GrB_Info info = GrB_init (GrB_NONBLOCKING) ;
    if (info != GrB_SUCCESS || threads <= 0) return info ;
    GxB_Global_Option_set_INT32 (GxB_NTHREADS, threads) ;
#ifdef _OPENMP
    omp_set_num_threads (threads) ;
#endif
    return GrB_SUCCESS ;
}

static int gg_cmp_double (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b ;
    return (x > y) - (x < y) ;
}

double gg_median (double *t, int n)
{
    qsort (t, (size_t) n, sizeof (double), gg_cmp_double) ;
    return (n % 2) ? t [n / 2] : 0.5 * (t [n / 2 - 1] + t [n / 2]) ;
}

static int gg_nthreads (void)
{
#ifdef _OPENMP
    return omp_get_max_threads () ;
#else
    return 1 ;
#endif
}

//------------------------------------------------------------------------------
// parsing a workload name
//------------------------------------------------------------------------------

static bool gg_ends_with (const char *s, const char *suffix)
{
    size_t a = strlen (s), b = strlen (suffix) ;
    return a >= b && strcmp (s + a - b, suffix) == 0 ;
}

// Parses "<int>" at *s, advancing; false if no digits or out of range.
static bool gg_parse_int (const char **s, int64_t lo, int64_t hi, int64_t *v)
{
    const char *p = *s ;
    if (!isdigit ((unsigned char) *p)) return false ;
    int64_t x = 0 ;
    while (isdigit ((unsigned char) *p))
    {
        x = 10 * x + (*p - '0') ;
        if (x > hi) return false ;
        p++ ;
    }
    if (x < lo) return false ;
    *s = p ;
    *v = x ;
    return true ;
}

GrB_Info gg_parse (const char *name, gg_spec *spec)
{
    if (name == NULL || spec == NULL) return GrB_NULL_POINTER ;
    memset (spec, 0, sizeof (*spec)) ;
    struct stat st ;
    if (strchr (name, '/') != NULL || gg_ends_with (name, ".mtx")
        || stat (name, &st) == 0)
    {
        if (strlen (name) >= sizeof (spec->path)) return GrB_INVALID_VALUE ;
        spec->kind = GG_MTX ;
        snprintf (spec->path, sizeof (spec->path), "%s", name) ;
        snprintf (spec->name, sizeof (spec->name), "%s", name) ;
        return GrB_SUCCESS ;
    }
    const char *p ;
    int64_t a, b ;
    if (strncmp (name, "grid3d-", 7) == 0)
    {
        p = name + 7 ;
        // S^3 rows; 2^21 per side would overflow nothing but memory
        if (!gg_parse_int (&p, 1, 2000000, &a) || *p != '\0')
            return GrB_INVALID_VALUE ;
        spec->kind = GG_GRID3D ;
        spec->side = a ;
        snprintf (spec->name, sizeof (spec->name), "grid3d-%lld", (long long) a) ;
        return GrB_SUCCESS ;
    }
    bool urand = strncmp (name, "urand-", 6) == 0 ;
    bool rmat = strncmp (name, "rmat-", 5) == 0 ;
    if (!urand && !rmat) return GrB_INVALID_VALUE ;
    p = name + (urand ? 6 : 5) ;
    // vertex ids are held in 32 bits while generating
    if (!gg_parse_int (&p, 1, 31, &a) || *p != '-') return GrB_INVALID_VALUE ;
    p++ ;
    if (!gg_parse_int (&p, 1, 1024, &b) || *p != '\0') return GrB_INVALID_VALUE ;
    spec->kind = urand ? GG_URAND : GG_RMAT ;
    spec->scale = (int) a ;
    spec->edgefactor = (int) b ;
    snprintf (spec->name, sizeof (spec->name), "%s-%d-%d",
        urand ? "urand" : "rmat", (int) a, (int) b) ;
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// handing a CSR matrix to GraphBLAS
//------------------------------------------------------------------------------

// Takes ownership of Ap, Aj, Ax (malloc'ed, as SuiteSparse's default memory
// manager expects) whether or not it succeeds.
static GrB_Info gg_import (GrB_Matrix *A, GrB_Index n, GrB_Index **Ap,
    GrB_Index **Aj, double **Ax, GrB_Index nvals)
{
    GrB_Index aj_size = (nvals > 0 ? nvals : 1) * sizeof (GrB_Index) ;
    GrB_Index ax_size = (nvals > 0 ? nvals : 1) * sizeof (double) ;
    GrB_Info info = GxB_Matrix_import_CSR (A, GrB_FP64, n, n, Ap, Aj,
        (void **) Ax, (n + 1) * sizeof (GrB_Index), aj_size, ax_size,
        false, false, NULL) ;
    // on success GraphBLAS has set the pointers to NULL; on failure they are ours
    GG_FREE (*Ap) ;
    GG_FREE (*Aj) ;
    GG_FREE (*Ax) ;
    return info ;
}

//------------------------------------------------------------------------------
// grid3d: 7-point Laplacian
//------------------------------------------------------------------------------

GrB_Info gg_grid3d (GrB_Matrix *A, int64_t S)
{
    if (A == NULL) return GrB_NULL_POINTER ;
    *A = NULL ;
    if (S < 1) return GrB_INVALID_VALUE ;
    const int64_t n = S * S * S, S2 = S * S ;
    GrB_Index *Ap = malloc ((size_t) (n + 1) * sizeof (GrB_Index)) ;
    if (Ap == NULL) return GrB_OUT_OF_MEMORY ;

    // row degree from the position in the grid
    #pragma omp parallel for schedule(static)
    for (int64_t v = 0 ; v < n ; v++)
    {
        int64_t i = v % S, j = (v / S) % S, k = v / S2 ;
        Ap [v + 1] = 1 + (i > 0) + (i < S - 1) + (j > 0) + (j < S - 1)
                       + (k > 0) + (k < S - 1) ;
    }
    Ap [0] = 0 ;
    for (int64_t v = 0 ; v < n ; v++) Ap [v + 1] += Ap [v] ;
    const GrB_Index nvals = Ap [n] ;

    GrB_Index *Aj = malloc ((size_t) nvals * sizeof (GrB_Index)) ;
    double *Ax = malloc ((size_t) nvals * sizeof (double)) ;
    if (Aj == NULL || Ax == NULL)
    {
        free (Ap) ; free (Aj) ; free (Ax) ;
        return GrB_OUT_OF_MEMORY ;
    }
    #pragma omp parallel for schedule(static)
    for (int64_t v = 0 ; v < n ; v++)
    {
        int64_t i = v % S, j = (v / S) % S, k = v / S2 ;
        GrB_Index p = Ap [v] ;
        // ascending column order: -S^2, -S, -1, self, +1, +S, +S^2
        if (k > 0)     { Aj [p] = v - S2 ; Ax [p++] = -1 ; }
        if (j > 0)     { Aj [p] = v - S ;  Ax [p++] = -1 ; }
        if (i > 0)     { Aj [p] = v - 1 ;  Ax [p++] = -1 ; }
        Aj [p] = v ; Ax [p++] = 6 ;
        if (i < S - 1) { Aj [p] = v + 1 ;  Ax [p++] = -1 ; }
        if (j < S - 1) { Aj [p] = v + S ;  Ax [p++] = -1 ; }
        if (k < S - 1) { Aj [p] = v + S2 ; Ax [p++] = -1 ; }
    }
    return gg_import (A, (GrB_Index) n, &Ap, &Aj, &Ax, nvals) ;
}

//------------------------------------------------------------------------------
// edge list -> symmetric CSR, by buckets of rows (no atomics, no global sort)
//------------------------------------------------------------------------------

// LSD radix sort of 64-bit keys that use only the low `bits` bits; tmp holds
// len keys. Digits that are the same for every key are skipped.
static void gg_radix_sort (uint64_t *key, uint64_t *tmp, size_t len, int bits)
{
    if (len < 48)
    {
        for (size_t a = 1 ; a < len ; a++)
        {
            uint64_t x = key [a] ;
            size_t b = a ;
            while (b > 0 && key [b - 1] > x) { key [b] = key [b - 1] ; b-- ; }
            key [b] = x ;
        }
        return ;
    }
    uint64_t *src = key, *dst = tmp ;
    for (int shift = 0 ; shift < bits ; shift += 8)
    {
        size_t count [256] = { 0 } ;
        for (size_t a = 0 ; a < len ; a++) count [(src [a] >> shift) & 255]++ ;
        if (count [(src [0] >> shift) & 255] == len) continue ;
        size_t sum = 0 ;
        for (int d = 0 ; d < 256 ; d++)
        {
            size_t c = count [d] ; count [d] = sum ; sum += c ;
        }
        for (size_t a = 0 ; a < len ; a++)
            dst [count [(src [a] >> shift) & 255]++] = src [a] ;
        uint64_t *t = src ; src = dst ; dst = t ;
    }
    if (src != key) memcpy (key, src, len * sizeof (uint64_t)) ;
}

// Steps 1 and 3 of gg_edges_to_matrix: each thread walks its share of the
// edges (self-loops dropped), both directions. With key NULL it counts the
// entries of each bucket into its row of hist; otherwise it scatters the keys
// (local row, column) to the slots hist holds. One function for both so that
// the two passes split the edges among threads the same way: the scatter
// writes where the same thread's counts made room.
static void gg_bucket_pass (uint64_t *key, uint64_t *hist, const uint32_t *eu,
    const uint32_t *ev, uint64_t m, uint64_t nb, int bshift, int scale,
    int nthreads)
{
    const uint64_t rowmask = ((uint64_t) 1 << bshift) - 1 ;
    #pragma omp parallel num_threads(nthreads)
    {
        int t = 0, nt = 1 ;
#ifdef _OPENMP
        t = omp_get_thread_num () ; nt = omp_get_num_threads () ;
#endif
        uint64_t lo = m * t / nt, hi = m * (t + 1) / nt ;
        uint64_t *h = hist + (size_t) t * nb ;
        for (uint64_t e = lo ; e < hi ; e++)
        {
            uint64_t u = eu [e], v = ev [e] ;
            if (u == v) continue ;
            if (key == NULL)
            {
                h [u >> bshift]++ ;
                h [v >> bshift]++ ;
            }
            else
            {
                key [h [u >> bshift]++] = ((u & rowmask) << scale) | v ;
                key [h [v >> bshift]++] = ((v & rowmask) << scale) | u ;
            }
        }
    }
}

// Builds the symmetric pattern of m edges (eu[e], ev[e]) on n = 2^scale
// vertices, dropping self-loops and merging duplicates; values 1.0.
static GrB_Info gg_edges_to_matrix (GrB_Matrix *A, const uint32_t *eu,
    const uint32_t *ev, uint64_t m, int scale)
{
    const uint64_t n = (uint64_t) 1 << scale ;
    // about 4096 buckets of consecutive rows: a bucket's keys (~2m/4096 of
    // them) sort in cache, and there are enough buckets to balance threads
    const int bshift = scale > 12 ? scale - 12 : 0 ;
    const uint64_t nb = n >> bshift ;
    const uint64_t colmask = n - 1 ;
    const int keybits = bshift + scale ;
    const int nthreads = gg_nthreads () ;

    GrB_Info info = GrB_OUT_OF_MEMORY ;
    uint64_t *hist = calloc ((size_t) nthreads * nb, sizeof (uint64_t)) ;
    uint64_t *bstart = malloc ((size_t) (nb + 1) * sizeof (uint64_t)) ;
    uint64_t *buniq = malloc ((size_t) nb * sizeof (uint64_t)) ;
    GrB_Index *Ap = calloc ((size_t) n + 1, sizeof (GrB_Index)) ;
    uint64_t *key = NULL ;
    GrB_Index *Aj = NULL ;
    double *Ax = NULL ;
    if (hist == NULL || bstart == NULL || buniq == NULL || Ap == NULL) goto done ;

    // 1. per-thread histogram of entries per bucket (both directions)
    gg_bucket_pass (NULL, hist, eu, ev, m, nb, bshift, scale, nthreads) ;
    // 2. offsets: bucket-major, then thread, so each thread scatters alone
    uint64_t total = 0 ;
    for (uint64_t b = 0 ; b < nb ; b++)
    {
        bstart [b] = total ;
        for (int t = 0 ; t < nthreads ; t++)
        {
            uint64_t c = hist [(size_t) t * nb + b] ;
            hist [(size_t) t * nb + b] = total ;
            total += c ;
        }
    }
    bstart [nb] = total ;
    key = malloc ((size_t) (total > 0 ? total : 1) * sizeof (uint64_t)) ;
    if (key == NULL) goto done ;

    // 3. scatter keys (local row, column) into their buckets
    gg_bucket_pass (key, hist, eu, ev, m, nb, bshift, scale, nthreads) ;

    // 4. sort and deduplicate each bucket; count entries per row
    int failed = 0 ;
    #pragma omp parallel num_threads(nthreads)
    {
        uint64_t *tmp = NULL ;
        size_t tmp_len = 0 ;
        #pragma omp for schedule(dynamic, 4)
        for (uint64_t b = 0 ; b < nb ; b++)
        {
            uint64_t *k = key + bstart [b] ;
            size_t len = (size_t) (bstart [b + 1] - bstart [b]) ;
            buniq [b] = 0 ;
            if (len == 0) continue ;
            if (len > tmp_len)
            {
                free (tmp) ;
                tmp_len = len + len / 2 ;
                tmp = malloc (tmp_len * sizeof (uint64_t)) ;
                if (tmp == NULL)
                {
                    tmp_len = 0 ;
                    #pragma omp atomic write
                    failed = 1 ;
                    continue ;
                }
            }
            gg_radix_sort (k, tmp, len, keybits) ;
            size_t u = 0 ;
            for (size_t a = 0 ; a < len ; a++)
            {
                if (u > 0 && k [u - 1] == k [a]) continue ;
                k [u++] = k [a] ;
                Ap [((b << bshift) | (k [a] >> scale)) + 1]++ ;
            }
            buniq [b] = u ;
        }
        free (tmp) ;
    }
    if (failed) goto done ;

    // 5. row pointers
    for (uint64_t i = 0 ; i < n ; i++) Ap [i + 1] += Ap [i] ;
    const GrB_Index nvals = Ap [n] ;
    Aj = malloc ((size_t) (nvals > 0 ? nvals : 1) * sizeof (GrB_Index)) ;
    Ax = malloc ((size_t) (nvals > 0 ? nvals : 1) * sizeof (double)) ;
    if (Aj == NULL || Ax == NULL) goto done ;

    // 6. each bucket's rows are consecutive, so its entries land in one range
    #pragma omp parallel for num_threads(nthreads) schedule(dynamic, 4)
    for (uint64_t b = 0 ; b < nb ; b++)
    {
        const uint64_t *k = key + bstart [b] ;
        GrB_Index dst = Ap [b << bshift] ;
        for (uint64_t a = 0 ; a < buniq [b] ; a++)
        {
            Aj [dst + a] = k [a] & colmask ;
            Ax [dst + a] = 1.0 ;
        }
    }
    GG_FREE (key) ;
    info = gg_import (A, n, &Ap, &Aj, &Ax, nvals) ;

done:
    free (hist) ; free (bstart) ; free (buniq) ; free (key) ;
    free (Ap) ; free (Aj) ; free (Ax) ;
    return info ;
}

//------------------------------------------------------------------------------
// urand and rmat
//------------------------------------------------------------------------------

// Edge e's private stream: its state is a hash of (seed, e), so the edge is
// the same whichever thread draws it.
static inline uint64_t gg_stream_start (uint64_t seed, uint64_t e)
{
    return gg_mix64 (seed * 0xD1B54A32D192ED03ULL ^ gg_mix64 (e)) ;
}

static inline uint64_t gg_stream_next (uint64_t *state)
{
    *state += 0x9E3779B97F4A7C15ULL ;
    return gg_mix64 (*state) ;
}

static GrB_Info gg_check_size (int scale, int edgefactor, uint64_t *m)
{
    if (scale < 1 || scale > 31 || edgefactor < 1) return GrB_INVALID_VALUE ;
    *m = (uint64_t) edgefactor << scale ;
    // keys hold 2m entries; refuse what cannot be indexed rather than wrap
    if (*m > ((uint64_t) 1 << 40)) return GrB_INVALID_VALUE ;
    return GrB_SUCCESS ;
}

GrB_Info gg_urand (GrB_Matrix *A, int scale, int edgefactor, uint64_t seed)
{
    if (A == NULL) return GrB_NULL_POINTER ;
    *A = NULL ;
    uint64_t m ;
    GrB_Info info = gg_check_size (scale, edgefactor, &m) ;
    if (info != GrB_SUCCESS) return info ;
    uint32_t *eu = malloc ((size_t) m * sizeof (uint32_t)) ;
    uint32_t *ev = malloc ((size_t) m * sizeof (uint32_t)) ;
    if (eu == NULL || ev == NULL)
    {
        free (eu) ; free (ev) ;
        return GrB_OUT_OF_MEMORY ;
    }
    const uint64_t useed = seed ^ 0x75726E64ULL ;     // "urnd": its own stream
    #pragma omp parallel for schedule(static)
    for (uint64_t e = 0 ; e < m ; e++)
    {
        uint64_t s = gg_stream_start (useed, e) ;
        uint64_t r = gg_stream_next (&s) ;
        // two endpoints from the top bits of one 64-bit draw
        eu [e] = (uint32_t) (r >> (64 - scale)) ;
        ev [e] = (uint32_t) ((r << 32) >> (64 - scale)) ;
    }
    info = gg_edges_to_matrix (A, eu, ev, m, scale) ;
    free (eu) ; free (ev) ;
    return info ;
}

GrB_Info gg_rmat (GrB_Matrix *A, int scale, int edgefactor, uint64_t seed)
{
    if (A == NULL) return GrB_NULL_POINTER ;
    *A = NULL ;
    uint64_t m ;
    GrB_Info info = gg_check_size (scale, edgefactor, &m) ;
    if (info != GrB_SUCCESS) return info ;
    const uint64_t n = (uint64_t) 1 << scale ;
    uint32_t *eu = malloc ((size_t) m * sizeof (uint32_t)) ;
    uint32_t *ev = malloc ((size_t) m * sizeof (uint32_t)) ;
    uint32_t *perm = malloc ((size_t) n * sizeof (uint32_t)) ;
    if (eu == NULL || ev == NULL || perm == NULL)
    {
        free (eu) ; free (ev) ; free (perm) ;
        return GrB_OUT_OF_MEMORY ;
    }
    // Graph500 initiator a=.57 b=.19 c=.19 d=.05, as 32-bit thresholds
    const uint64_t tA = (uint64_t) (0.57 * 4294967296.0) ;
    const uint64_t tB = (uint64_t) (0.76 * 4294967296.0) ;
    const uint64_t tC = (uint64_t) (0.95 * 4294967296.0) ;
    const uint64_t rseed = seed ^ 0x726D6174ULL ;     // "rmat"
    #pragma omp parallel for schedule(static)
    for (uint64_t e = 0 ; e < m ; e++)
    {
        uint64_t s = gg_stream_start (rseed, e) ;
        uint32_t u = 0, v = 0 ;
        uint64_t r = 0 ;
        for (int level = 0 ; level < scale ; level++)
        {
            // one 64-bit draw serves two levels
            uint64_t x ;
            if ((level & 1) == 0) { r = gg_stream_next (&s) ; x = r >> 32 ; }
            else x = r & 0xFFFFFFFFULL ;
            uint32_t ubit = x >= tB ;                   // quadrants c, d
            uint32_t vbit = (x >= tA && x < tB) || x >= tC ;   // b, d
            u = (u << 1) | ubit ;
            v = (v << 1) | vbit ;
        }
        eu [e] = u ;
        ev [e] = v ;
    }
    // random relabelling (Fisher-Yates), so that vertex id says nothing about
    // degree, as Graph500 does
    uint64_t ps = gg_stream_start (seed ^ 0x7065726DULL, 0) ;    // "perm"
    for (uint64_t i = 0 ; i < n ; i++) perm [i] = (uint32_t) i ;
    for (uint64_t i = n - 1 ; i > 0 ; i--)
    {
        uint64_t r = gg_stream_next (&ps) ;
        uint64_t k = (uint64_t) (((unsigned __int128) r * (i + 1)) >> 64) ;
        uint32_t t = perm [i] ; perm [i] = perm [k] ; perm [k] = t ;
    }
    #pragma omp parallel for schedule(static)
    for (uint64_t e = 0 ; e < m ; e++)
    {
        eu [e] = perm [eu [e]] ;
        ev [e] = perm [ev [e]] ;
    }
    free (perm) ;
    info = gg_edges_to_matrix (A, eu, ev, m, scale) ;
    free (eu) ; free (ev) ;
    return info ;
}

//------------------------------------------------------------------------------
// Matrix Market
//------------------------------------------------------------------------------

// Reads the whole file; NUL-terminated.
static char *gg_slurp (const char *path, size_t *len)
{
    FILE *f = fopen (path, "rb") ;
    if (f == NULL) return NULL ;
    char *buf = NULL ;
    size_t cap = 0, n = 0 ;
    for (;;)
    {
        if (n + 65536 + 1 > cap)
        {
            size_t ncap = cap == 0 ? (1 << 20) : 2 * cap ;
            char *b = realloc (buf, ncap) ;
            if (b == NULL) { free (buf) ; fclose (f) ; return NULL ; }
            buf = b ; cap = ncap ;
        }
        size_t r = fread (buf + n, 1, cap - n - 1, f) ;
        n += r ;
        if (r == 0) break ;
    }
    int bad = ferror (f) ;
    fclose (f) ;
    if (bad) { free (buf) ; return NULL ; }
    buf [n] = '\0' ;
    *len = n ;
    return buf ;
}

static void gg_lower (char *s) { for ( ; *s ; s++) *s = (char) tolower ((unsigned char) *s) ; }

GrB_Info gg_read_mtx (GrB_Matrix *A, const char *path, char *err, size_t errlen)
{
    if (A == NULL || path == NULL) return GrB_NULL_POINTER ;
    *A = NULL ;
    size_t len = 0 ;
    char *buf = gg_slurp (path, &len) ;
    if (buf == NULL)
    {
        gg_err (err, errlen, strerror (errno ? errno : EIO), path) ;
        return GrB_INVALID_VALUE ;
    }
    GrB_Info info = GrB_INVALID_VALUE ;
    GrB_Index *I = NULL, *J = NULL ;
    double *X = NULL ;

    // header: %%MatrixMarket matrix coordinate <field> <symmetry>
    char *p = buf ;
    char *eol = strchr (p, '\n') ;
    if (eol != NULL) *eol = '\0' ;
    char banner [64] = "", object [64] = "", format [64] = "", field [64] = "",
        symmetry [64] = "" ;
    int nf = sscanf (p, "%63s %63s %63s %63s %63s", banner, object, format,
        field, symmetry) ;
    gg_lower (object) ; gg_lower (format) ; gg_lower (field) ; gg_lower (symmetry) ;
    if (nf != 5 || strcmp (banner, "%%MatrixMarket") != 0
        || strcmp (object, "matrix") != 0)
    {
        gg_err (err, errlen, "not a Matrix Market matrix file", path) ;
        goto done ;
    }
    if (strcmp (format, "coordinate") != 0)
    {
        gg_err (err, errlen, "only the coordinate format is supported", format) ;
        goto done ;
    }
    bool pattern = strcmp (field, "pattern") == 0 ;
    if (!pattern && strcmp (field, "real") != 0 && strcmp (field, "integer") != 0
        && strcmp (field, "double") != 0)
    {
        gg_err (err, errlen, "unsupported field (real, integer, pattern only)", field) ;
        goto done ;
    }
    int sym = 0 ;   // 0 general, 1 symmetric, -1 skew-symmetric
    if (strcmp (symmetry, "symmetric") == 0) sym = 1 ;
    else if (strcmp (symmetry, "skew-symmetric") == 0) sym = -1 ;
    else if (strcmp (symmetry, "general") != 0)
    {
        gg_err (err, errlen, "unsupported symmetry", symmetry) ;
        goto done ;
    }
    p = (eol != NULL) ? eol + 1 : buf + len ;

    // skip comments and blank lines, then the size line
    long long nrows = -1, ncols = -1, nent = -1 ;
    while (*p)
    {
        char *q = p ;
        while (*q == ' ' || *q == '\t' || *q == '\r') q++ ;
        char *e = strchr (q, '\n') ;
        if (*q == '%' || *q == '\n' || *q == '\0')
        {
            p = e ? e + 1 : q + strlen (q) ;
            continue ;
        }
        if (sscanf (q, "%lld %lld %lld", &nrows, &ncols, &nent) != 3
            || nrows < 0 || ncols < 0 || nent < 0)
        {
            gg_err (err, errlen, "bad size line", path) ;
            goto done ;
        }
        p = e ? e + 1 : q + strlen (q) ;
        break ;
    }
    if (nent < 0)
    {
        gg_err (err, errlen, "missing size line", path) ;
        goto done ;
    }
    if (sym != 0 && nrows != ncols)
    {
        gg_err (err, errlen, "symmetric file with a non-square matrix", path) ;
        goto done ;
    }
    size_t cap = (size_t) (sym ? 2 * nent : nent) ;
    I = malloc ((cap > 0 ? cap : 1) * sizeof (GrB_Index)) ;
    J = malloc ((cap > 0 ? cap : 1) * sizeof (GrB_Index)) ;
    X = malloc ((cap > 0 ? cap : 1) * sizeof (double)) ;
    if (I == NULL || J == NULL || X == NULL) { info = GrB_OUT_OF_MEMORY ; goto done ; }

    size_t k = 0 ;
    for (long long e = 0 ; e < nent ; e++)
    {
        char *end ;
        errno = 0 ;
        unsigned long long i = strtoull (p, &end, 10) ;
        if (end == p) break ;
        p = end ;
        unsigned long long j = strtoull (p, &end, 10) ;
        if (end == p) break ;
        p = end ;
        double x = 1.0 ;
        if (!pattern)
        {
            x = strtod (p, &end) ;
            if (end == p) break ;
            p = end ;
        }
        // the rest of the line (e.g. an imaginary part) is not ours
        while (*p && *p != '\n') p++ ;
        if (i < 1 || j < 1 || i > (unsigned long long) nrows
            || j > (unsigned long long) ncols)
        {
            gg_err (err, errlen, "entry out of range", path) ;
            goto done ;
        }
        I [k] = i - 1 ; J [k] = j - 1 ; X [k] = x ; k++ ;
        if (sym != 0 && i != j)
        {
            I [k] = j - 1 ; J [k] = i - 1 ; X [k] = sym * x ; k++ ;
        }
    }
    if (k < (size_t) nent)
    {
        // fewer entries parsed than announced: a truncated or malformed file
        gg_err (err, errlen, "fewer entries than the size line says", path) ;
        goto done ;
    }
    info = GrB_Matrix_new (A, GrB_FP64, (GrB_Index) nrows, (GrB_Index) ncols) ;
    if (info == GrB_SUCCESS)
        info = GrB_Matrix_build_FP64 (*A, I, J, X, k, GrB_PLUS_FP64) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_wait (*A, GrB_MATERIALIZE) ;
    if (info != GrB_SUCCESS)
    {
        GrB_Matrix_free (A) ;
        gg_err (err, errlen, "GraphBLAS failed to build the matrix", path) ;
    }

done:
    free (buf) ; free (I) ; free (J) ; free (X) ;
    return info ;
}

//------------------------------------------------------------------------------
// load by name
//------------------------------------------------------------------------------

GrB_Info gg_make_undirected (GrB_Matrix *A)
{
    GrB_Index nr, nc ;
    GrB_Info info = GrB_Matrix_nrows (&nr, *A) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_ncols (&nc, *A) ;
    if (info != GrB_SUCCESS) return info ;
    if (nr != nc) return GrB_DIMENSION_MISMATCH ;
    GrB_Matrix S = NULL ;
    info = GrB_Matrix_new (&S, GrB_FP64, nr, nr) ;
    // union of A and A', each entry 1.0 (ONEB ignores the values)
    if (info == GrB_SUCCESS)
        info = GrB_Matrix_eWiseAdd_BinaryOp (S, NULL, NULL, GrB_ONEB_FP64, *A,
            *A, GrB_DESC_T1) ;
    if (info == GrB_SUCCESS)
        info = GrB_Matrix_select_INT64 (S, NULL, NULL, GrB_OFFDIAG, S, 0, NULL) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_wait (S, GrB_MATERIALIZE) ;
    if (info != GrB_SUCCESS)
    {
        GrB_Matrix_free (&S) ;
        return info ;
    }
    GrB_Matrix_free (A) ;
    *A = S ;
    return GrB_SUCCESS ;
}

GrB_Info gg_load (GrB_Matrix *A, const char *name, uint64_t seed, int flags,
    char *err, size_t errlen)
{
    gg_spec spec ;
    GrB_Info info = gg_parse (name, &spec) ;
    if (info != GrB_SUCCESS)
    {
        gg_err (err, errlen, "unknown workload (grid3d-S, urand-S-E, rmat-S-E "
            "or a .mtx file)", name) ;
        return info ;
    }
    switch (spec.kind)
    {
        case GG_GRID3D: info = gg_grid3d (A, spec.side) ; break ;
        case GG_URAND:  info = gg_urand (A, spec.scale, spec.edgefactor, seed) ; break ;
        case GG_RMAT:   info = gg_rmat (A, spec.scale, spec.edgefactor, seed) ; break ;
        default:
            info = gg_read_mtx (A, spec.path, err, errlen) ;
            if (info == GrB_SUCCESS && (flags & GG_UNDIRECTED))
            {
                info = gg_make_undirected (A) ;
                if (info != GrB_SUCCESS)
                {
                    GrB_Matrix_free (A) ;
                    gg_err (err, errlen, "cannot make the graph undirected "
                        "(square matrix needed)", name) ;
                }
            }
            return info ;
    }
    if (info != GrB_SUCCESS)
        gg_err (err, errlen, info == GrB_OUT_OF_MEMORY ? "out of memory"
            : "generation failed", name) ;
    return info ;
}

//------------------------------------------------------------------------------
// reading entries back
//------------------------------------------------------------------------------

void gg_csr_free (gg_csr *C)
{
    if (C == NULL) return ;
    GG_FREE (C->p) ; GG_FREE (C->j) ; GG_FREE (C->x) ;
    C->nrows = C->ncols = C->nvals = 0 ;
}

GrB_Info gg_csr_get (gg_csr *C, GrB_Matrix A)
{
    if (C == NULL || A == NULL) return GrB_NULL_POINTER ;
    memset (C, 0, sizeof (*C)) ;
    GrB_Type type ;
    GrB_Matrix T = NULL ;
    GrB_Info info = GxB_Matrix_type (&type, A) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_nrows (&C->nrows, A) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_ncols (&C->ncols, A) ;
    if (info != GrB_SUCCESS) return info ;
    GrB_Matrix src = A ;
    if (type != GrB_FP64)
    {
        // typecast through apply(identity): A itself is left untouched
        info = GrB_Matrix_new (&T, GrB_FP64, C->nrows, C->ncols) ;
        if (info == GrB_SUCCESS)
            info = GrB_Matrix_apply (T, NULL, NULL, GrB_IDENTITY_FP64, A, NULL) ;
        if (info != GrB_SUCCESS) { GrB_Matrix_free (&T) ; return info ; }
        src = T ;
    }
    GrB_Index np, nj, nx ;
    info = GrB_Matrix_exportSize (&np, &nj, &nx, GrB_CSR_FORMAT, src) ;
    if (info == GrB_SUCCESS)
    {
        C->p = malloc ((np > 0 ? np : 1) * sizeof (GrB_Index)) ;
        C->j = malloc ((nj > 0 ? nj : 1) * sizeof (GrB_Index)) ;
        C->x = malloc ((nx > 0 ? nx : 1) * sizeof (double)) ;
        if (C->p == NULL || C->j == NULL || C->x == NULL) info = GrB_OUT_OF_MEMORY ;
    }
    if (info == GrB_SUCCESS)
        info = GrB_Matrix_export_FP64 (C->p, C->j, C->x, &np, &nj, &nx,
            GrB_CSR_FORMAT, src) ;
    GrB_Matrix_free (&T) ;
    if (info != GrB_SUCCESS) { gg_csr_free (C) ; return info ; }
    C->nvals = C->p [C->nrows] ;
    // the C API does not promise sorted columns
    return gg_csr_sort_rows (C) ;
}

typedef struct { GrB_Index j ; double x ; } gg_jx ;

static int gg_jx_cmp (const void *a, const void *b)
{
    GrB_Index x = ((const gg_jx *) a)->j, y = ((const gg_jx *) b)->j ;
    return (x > y) - (x < y) ;
}

GrB_Info gg_csr_sort_rows (gg_csr *C)
{
    int64_t nrows = (int64_t) C->nrows ;
    int failed = 0 ;
    #pragma omp parallel
    {
        gg_jx *w = NULL ;
        size_t wcap = 0 ;
        #pragma omp for schedule(dynamic, 1024)
        for (int64_t i = 0 ; i < nrows ; i++)
        {
            GrB_Index lo = C->p [i], hi = C->p [i + 1], a ;
            for (a = lo + 1 ; a < hi && C->j [a - 1] <= C->j [a] ; a++) ;
            if (a >= hi) continue ;     // already sorted: the usual case
            size_t len = (size_t) (hi - lo) ;
            if (len > wcap)
            {
                free (w) ;
                wcap = len ;
                w = malloc (wcap * sizeof (gg_jx)) ;
                if (w == NULL)
                {
                    wcap = 0 ;
                    #pragma omp atomic write
                    failed = 1 ;
                    continue ;
                }
            }
            for (size_t k = 0 ; k < len ; k++)
            {
                w [k].j = C->j [lo + k] ; w [k].x = C->x [lo + k] ;
            }
            qsort (w, len, sizeof (gg_jx), gg_jx_cmp) ;
            for (size_t k = 0 ; k < len ; k++)
            {
                C->j [lo + k] = w [k].j ; C->x [lo + k] = w [k].x ;
            }
        }
        free (w) ;
    }
    return failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// highest-degree vertex
//------------------------------------------------------------------------------

GrB_Info gg_highest_degree (GrB_Index *v, GrB_Index *degree, GrB_Matrix A)
{
    GrB_Index n, nc, nd = 0 ;
    GrB_Matrix P = NULL ;
    GrB_Vector d = NULL ;
    GrB_Index *I = NULL ;
    int64_t *X = NULL ;
    GrB_Info info = GrB_Matrix_nrows (&n, A) ;
    if (info == GrB_SUCCESS) info = GrB_Matrix_ncols (&nc, A) ;
    if (info != GrB_SUCCESS) return info ;
    *v = 0 ; *degree = 0 ;
    // degree = number of entries per row: reduce a matrix of ones, so that a
    // signed value (grid3d's Laplacian) does not pose as a degree
    info = GrB_Matrix_new (&P, GrB_INT64, n, nc) ;
    if (info == GrB_SUCCESS)
        info = GrB_Matrix_apply (P, NULL, NULL, GxB_ONE_INT64, A, NULL) ;
    if (info == GrB_SUCCESS) info = GrB_Vector_new (&d, GrB_INT64, n) ;
    if (info == GrB_SUCCESS)
        info = GrB_Matrix_reduce_Monoid (d, NULL, NULL, GrB_PLUS_MONOID_INT64,
            P, NULL) ;
    if (info == GrB_SUCCESS) info = GrB_Vector_nvals (&nd, d) ;
    if (info == GrB_SUCCESS)
    {
        I = malloc ((nd > 0 ? nd : 1) * sizeof (GrB_Index)) ;
        X = malloc ((nd > 0 ? nd : 1) * sizeof (int64_t)) ;
        if (I == NULL || X == NULL) info = GrB_OUT_OF_MEMORY ;
    }
    if (info == GrB_SUCCESS)
        info = GrB_Vector_extractTuples_INT64 (I, X, &nd, d) ;
    if (info == GrB_SUCCESS)
    {
        int64_t best = -1 ;
        for (GrB_Index k = 0 ; k < nd ; k++)
        {
            // ties go to the lowest index, whatever order the tuples come in
            if (X [k] > best || (X [k] == best && I [k] < *v))
            {
                best = X [k] ; *v = I [k] ;
            }
        }
        *degree = best > 0 ? (GrB_Index) best : 0 ;
    }
    GrB_Matrix_free (&P) ;
    GrB_Vector_free (&d) ;
    free (I) ; free (X) ;
    return info ;
}
