// GRBCUDA_TEST_INTERNAL
// test_export_csr.c — src/export: CSR and CSC out of SuiteSparse, for every
// storage (sparse, hypersparse, bitmap, full) x orientation (by row, by
// column) x iso x pending work (none, pending tuples, zombies, both,
// unsorted "jumbled" vectors) x type (the 13 built-in types and a
// user-defined one), matrices and vectors, 32- and 64-bit indices, iso values
// kept or expanded, the iterator path and the portable (GrB_Matrix_export)
// path, one thread and several. Each result is checked against
// GrB_Matrix_extractTuples of an identical twin, and the object is checked to
// be unchanged: same format, sparsity status, iso-ness, nvals and entries (or,
// with pending work, exactly what GrB_wait makes of the twin). The dense view
// of a matrix held full (gcu_export_dense, SpMM's X) likewise.
#include "gcu_test.h"
#include "export/gcu_export.h"
#include "gcu_util.h"
#include <stdlib.h>
#include <string.h>

//------------------------------------------------------------------------------
// types
//------------------------------------------------------------------------------

typedef struct { int32_t a ; float b ; int16_t c ; } udt_t ;     // 12 bytes
#define NTYPES 14
static GrB_Type types [NTYPES] ;
static size_t tsize [NTYPES] ;
static const char *tname [NTYPES] = { "bool", "int8", "int16", "int32",
    "int64", "uint8", "uint16", "uint32", "uint64", "fp32", "fp64", "fc32",
    "fc64", "udt" } ;

static void types_init (void)
{
    GrB_Type t [NTYPES - 1] = { GrB_BOOL, GrB_INT8, GrB_INT16, GrB_INT32,
        GrB_INT64, GrB_UINT8, GrB_UINT16, GrB_UINT32, GrB_UINT64, GrB_FP32,
        GrB_FP64, GxB_FC32, GxB_FC64 } ;
    for (int k = 0 ; k < NTYPES - 1 ; k++) types [k] = t [k] ;
    OK (GrB_Type_new (&types [NTYPES - 1], sizeof (udt_t))) ;
    for (int k = 0 ; k < NTYPES ; k++) OK (GxB_Type_size (&tsize [k], types [k])) ;
}

// A random value of type k (any bit pattern: nothing computes with it,
// everything compares bytes; bool stays 0/1).
static void rand_val (int k, uint8_t *v, uint64_t *st)
{
    memset (v, 0, 16) ;
    if (k == 0) { v [0] = (uint8_t) (gcu_rand (st) & 1) ; return ; }
    for (size_t b = 0 ; b < tsize [k] ; b++) v [b] = (uint8_t) gcu_rand (st) ;
    if (k == NTYPES - 1)
    {
        udt_t u = { (int32_t) gcu_rand (st), (float) (gcu_rand (st) % 100), (int16_t) gcu_rand (st) } ;
        memcpy (v, &u, sizeof (u)) ;     // padding bytes stay 0
    }
}

#define SET_CASE(K, T, P, SUF)                                                 \
    case K: { T x ; memcpy (&x, v, sizeof (T)) ;                               \
        return vec ? P##_Vector_setElement_##SUF ((GrB_Vector) A, x, i)        \
                   : P##_Matrix_setElement_##SUF ((GrB_Matrix) A, x, i, j) ; }

static GrB_Info set_el (void *A, bool vec, int k, const uint8_t *v, GrB_Index i,
    GrB_Index j)
{
    switch (k)
    {
        SET_CASE (0, bool, GrB, BOOL)        SET_CASE (1, int8_t, GrB, INT8)
        SET_CASE (2, int16_t, GrB, INT16)    SET_CASE (3, int32_t, GrB, INT32)
        SET_CASE (4, int64_t, GrB, INT64)    SET_CASE (5, uint8_t, GrB, UINT8)
        SET_CASE (6, uint16_t, GrB, UINT16)  SET_CASE (7, uint32_t, GrB, UINT32)
        SET_CASE (8, uint64_t, GrB, UINT64)  SET_CASE (9, float, GrB, FP32)
        SET_CASE (10, double, GrB, FP64)     SET_CASE (11, GxB_FC32_t, GxB, FC32)
        SET_CASE (12, GxB_FC64_t, GxB, FC64)
        default:
            return vec ? GrB_Vector_setElement_UDT ((GrB_Vector) A, (void *) v, i)
                       : GrB_Matrix_setElement_UDT ((GrB_Matrix) A, (void *) v, i, j) ;
    }
}

#define EXT_CASE(K, T, P, SUF)                                                 \
    case K: return vec                                                         \
        ? P##_Vector_extractTuples_##SUF (I, (T *) X, n, (GrB_Vector) A)       \
        : P##_Matrix_extractTuples_##SUF (I, J, (T *) X, n, (GrB_Matrix) A) ;

static GrB_Info extract (void *A, bool vec, int k, GrB_Index *I, GrB_Index *J,
    void *X, GrB_Index *n)
{
    switch (k)
    {
        EXT_CASE (0, bool, GrB, BOOL)        EXT_CASE (1, int8_t, GrB, INT8)
        EXT_CASE (2, int16_t, GrB, INT16)    EXT_CASE (3, int32_t, GrB, INT32)
        EXT_CASE (4, int64_t, GrB, INT64)    EXT_CASE (5, uint8_t, GrB, UINT8)
        EXT_CASE (6, uint16_t, GrB, UINT16)  EXT_CASE (7, uint32_t, GrB, UINT32)
        EXT_CASE (8, uint64_t, GrB, UINT64)  EXT_CASE (9, float, GrB, FP32)
        EXT_CASE (10, double, GrB, FP64)     EXT_CASE (11, GxB_FC32_t, GxB, FC32)
        EXT_CASE (12, GxB_FC64_t, GxB, FC64)
        default: return vec
            ? GrB_Vector_extractTuples_UDT (I, X, n, (GrB_Vector) A)
            : GrB_Matrix_extractTuples_UDT (I, J, X, n, (GrB_Matrix) A) ;
    }
}

//------------------------------------------------------------------------------
// test objects, made twice from one seed (the object and its twin)
//------------------------------------------------------------------------------

enum { P_NONE, P_TUPLES, P_ZOMBIES, P_BOTH, P_JUMBLED, NPENDING } ;
static const char *pname [NPENDING] = { "none", "tuples", "zombies", "tuples+zombies", "jumbled" } ;
static const int sparsities [4] = { GxB_SPARSE, GxB_HYPERSPARSE, GxB_BITMAP, GxB_FULL } ;

typedef struct
{
    int type ;
    bool vec ;
    GrB_Index nrows, ncols ;
    double density ;
    int sparsity ;
    bool by_col, iso ;
    int pending ;
    uint64_t seed ;
}
spec_t ;

// Reverses the inner indices (and values) of every vector and packs it back
// marked jumbled: pending work SuiteSparse must sort away.
static void make_jumbled (GrB_Matrix A, bool hyper, bool by_col, size_t ts)
{
    GrB_Index *Ap = NULL, *Ah = NULL, *Ai = NULL, Ap_size, Ah_size, Ai_size, Ax_size, nvec ;
    void *Ax = NULL ;
    bool iso, jumbled ;
    GrB_Index nrows, ncols ;
    OK (GrB_Matrix_nrows (&nrows, A)) ;
    OK (GrB_Matrix_ncols (&ncols, A)) ;
    if (hyper && by_col) OK (GxB_Matrix_unpack_HyperCSC (A, &Ap, &Ah, &Ai, &Ax, &Ap_size, &Ah_size, &Ai_size, &Ax_size, &iso, &nvec, &jumbled, NULL)) ;
    else if (hyper) OK (GxB_Matrix_unpack_HyperCSR (A, &Ap, &Ah, &Ai, &Ax, &Ap_size, &Ah_size, &Ai_size, &Ax_size, &iso, &nvec, &jumbled, NULL)) ;
    else if (by_col) OK (GxB_Matrix_unpack_CSC (A, &Ap, &Ai, &Ax, &Ap_size, &Ai_size, &Ax_size, &iso, &jumbled, NULL)) ;
    else OK (GxB_Matrix_unpack_CSR (A, &Ap, &Ai, &Ax, &Ap_size, &Ai_size, &Ax_size, &iso, &jumbled, NULL)) ;
    if (!hyper) nvec = by_col ? ncols : nrows ;
    uint8_t tmp [16] ;
    for (GrB_Index k = 0 ; k < nvec ; k++)
    {
        for (GrB_Index p = Ap [k], q = Ap [k + 1] ; q > p + 1 ; p++, q--)
        {
            GrB_Index t = Ai [p] ; Ai [p] = Ai [q - 1] ; Ai [q - 1] = t ;
            if (iso) continue ;
            uint8_t *x = Ax ;
            memcpy (tmp, x + p * ts, ts) ;
            memcpy (x + p * ts, x + (q - 1) * ts, ts) ;
            memcpy (x + (q - 1) * ts, tmp, ts) ;
        }
    }
    if (hyper && by_col) OK (GxB_Matrix_pack_HyperCSC (A, &Ap, &Ah, &Ai, &Ax, Ap_size, Ah_size, Ai_size, Ax_size, iso, nvec, true, NULL)) ;
    else if (hyper) OK (GxB_Matrix_pack_HyperCSR (A, &Ap, &Ah, &Ai, &Ax, Ap_size, Ah_size, Ai_size, Ax_size, iso, nvec, true, NULL)) ;
    else if (by_col) OK (GxB_Matrix_pack_CSC (A, &Ap, &Ai, &Ax, Ap_size, Ai_size, Ax_size, iso, true, NULL)) ;
    else OK (GxB_Matrix_pack_CSR (A, &Ap, &Ai, &Ax, Ap_size, Ai_size, Ax_size, iso, true, NULL)) ;
}

static void *make (const spec_t *s)
{
    uint64_t st = s->seed ;
    int k = s->type ;
    size_t ts = tsize [k] ;
    GrB_Index m = s->nrows, n = s->vec ? 1 : s->ncols ;
    GrB_Index cap = m * n ;
    GrB_Index *I = malloc ((cap + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((cap + 1) * sizeof (GrB_Index)) ;
    uint8_t *X = malloc ((cap + 1) * ts + 16) ;
    bool *present = calloc (cap + 1, 1) ;
    uint8_t isoval [16] ;
    rand_val (k, isoval, &st) ;
    GrB_Index nz = 0 ;
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            bool dense_row = (s->density < 0 && i == m / 2) ;
            double d = s->density < 0 ? 0.02 : s->density ;
            if (!dense_row && gcu_rand01 (&st) >= d) continue ;
            I [nz] = i ; J [nz] = j ;
            present [i * n + j] = true ;
            uint8_t v [16] ;
            if (s->iso) memcpy (v, isoval, 16) ; else rand_val (k, v, &st) ;
            memcpy (X + nz * ts, v, ts) ;
            nz++ ;
        }
    }
    // shuffle the tuples: build must sort them
    for (GrB_Index p = nz ; p > 1 ; p--)
    {
        GrB_Index q = gcu_rand (&st) % p ;
        GrB_Index t = I [p - 1] ; I [p - 1] = I [q] ; I [q] = t ;
        t = J [p - 1] ; J [p - 1] = J [q] ; J [q] = t ;
        uint8_t tmp [16] ;
        memcpy (tmp, X + (p - 1) * ts, ts) ;
        memcpy (X + (p - 1) * ts, X + q * ts, ts) ;
        memcpy (X + q * ts, tmp, ts) ;
    }
    void *A = NULL ;
    if (s->vec)
    {
        OK (GrB_Vector_new ((GrB_Vector *) &A, types [k], m)) ;
        OK (GrB_Vector_build_UDT (A, I, X, nz, NULL)) ;
        OK (GxB_Vector_Option_set_INT32 (A, GxB_SPARSITY_CONTROL, s->sparsity)) ;
        OK (GrB_Vector_wait (A, GrB_MATERIALIZE)) ;
    }
    else
    {
        OK (GrB_Matrix_new ((GrB_Matrix *) &A, types [k], m, n)) ;
        OK (GxB_Matrix_Option_set_INT32 (A, GxB_FORMAT, s->by_col ? GxB_BY_COL : GxB_BY_ROW)) ;
        OK (GrB_Matrix_build_UDT (A, I, J, X, nz, NULL)) ;
        OK (GxB_Matrix_Option_set_INT32 (A, GxB_SPARSITY_CONTROL, s->sparsity)) ;
        OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    }
    // pending work
    int pk = s->pending ;
    if ((pk == P_ZOMBIES || pk == P_BOTH) && nz > 0)
    {
        for (int r = 0 ; r < 3 ; r++)
        {
            GrB_Index p = gcu_rand (&st) % nz ;
            if (s->vec) OK (GrB_Vector_removeElement (A, I [p])) ;
            else OK (GrB_Matrix_removeElement (A, I [p], J [p])) ;
        }
    }
    if ((pk == P_TUPLES || pk == P_BOTH) && cap > 0)
    {
        for (int r = 0 ; r < 4 ; r++)
        {
            GrB_Index c = gcu_rand (&st) % cap ;
            if (present [c]) continue ;
            uint8_t v [16] ;
            if (s->iso) memcpy (v, isoval, 16) ; else rand_val (k, v, &st) ;
            OK (set_el (A, s->vec, k, v, c / n, c % n)) ;
        }
    }
    if (pk == P_JUMBLED && !s->vec)
    {
        make_jumbled (A, s->sparsity == GxB_HYPERSPARSE, s->by_col, ts) ;
    }
    free (I) ; free (J) ; free (X) ; free (present) ;
    return A ;
}

// The pending work an object holds, read from SuiteSparse's own summary
// (GxB_*_fprint only prints): proves the test made what it meant to.
static int pending_of (void *A, bool vec)
{
    char buf [4096] = { 0 } ;
    FILE *f = fmemopen (buf, sizeof (buf) - 1, "w") ;
    if (vec) OK (GxB_Vector_fprint (A, "A", GxB_SUMMARY, f)) ;
    else OK (GxB_Matrix_fprint (A, "A", GxB_SUMMARY, f)) ;
    fclose (f) ;
    // "pending tuples: 1 max pending: 256 zombies: 1", "jumbled"
    long nt = 0, nzomb = 0 ;
    const char *t = strstr (buf, "pending tuples:") ;
    const char *z = strstr (buf, "zombies:") ;
    if (t != NULL) nt = strtol (t + strlen ("pending tuples:"), NULL, 10) ;
    if (z != NULL) nzomb = strtol (z + strlen ("zombies:"), NULL, 10) ;
    bool tuples = nt > 0, zombies = nzomb > 0 ;
    bool jumbled = strstr (buf, "jumbled") != NULL ;
    if (jumbled) return P_JUMBLED ;
    return (tuples && zombies) ? P_BOTH : tuples ? P_TUPLES : zombies ? P_ZOMBIES : P_NONE ;
}

static void obj_free (void **A, bool vec)
{
    if (vec) GrB_Vector_free ((GrB_Vector *) A) ;
    else GrB_Matrix_free ((GrB_Matrix *) A) ;
}

typedef struct { int32_t fmt, sparsity ; bool iso ; GrB_Index nvals ; } status_t ;

static status_t status_of (void *A, bool vec)
{
    status_t s = { 0, 0, false, 0 } ;
    if (vec)
    {
        OK (GxB_Vector_Option_get_INT32 (A, GxB_SPARSITY_STATUS, &s.sparsity)) ;
        OK (GxB_Vector_iso (&s.iso, A)) ;
        OK (GrB_Vector_nvals (&s.nvals, A)) ;
        s.fmt = GxB_BY_COL ;
    }
    else
    {
        OK (GxB_Matrix_Option_get_INT32 (A, GxB_FORMAT, &s.fmt)) ;
        OK (GxB_Matrix_Option_get_INT32 (A, GxB_SPARSITY_STATUS, &s.sparsity)) ;
        OK (GxB_Matrix_iso (&s.iso, A)) ;
        OK (GrB_Matrix_nvals (&s.nvals, A)) ;
    }
    return s ;
}

//------------------------------------------------------------------------------
// the reference: tuples of the twin, in the output's order
//------------------------------------------------------------------------------

typedef struct { GrB_Index outer, inner, p ; } ref_t ;

static int cmp_ref (const void *a, const void *b)
{
    const ref_t *x = a, *y = b ;
    if (x->outer != y->outer) return x->outer < y->outer ? -1 : 1 ;
    if (x->inner != y->inner) return x->inner < y->inner ? -1 : 1 ;
    return 0 ;
}

typedef struct
{
    GrB_Index n ;
    GrB_Index *I, *J ;
    uint8_t *X ;
}
tuples_t ;

static tuples_t tuples_of (void *A, bool vec, int k)
{
    tuples_t t ;
    if (vec) OK (GrB_Vector_nvals (&t.n, A)) ; else OK (GrB_Matrix_nvals (&t.n, A)) ;
    t.I = malloc ((t.n + 1) * sizeof (GrB_Index)) ;
    t.J = calloc (t.n + 1, sizeof (GrB_Index)) ;
    t.X = malloc ((t.n + 1) * tsize [k]) ;
    GrB_Index n = t.n ;
    OK (extract (A, vec, k, t.I, t.J, t.X, &n)) ;
    CHECK (n == t.n, "extractTuples count") ;
    return t ;
}

static void tuples_free (tuples_t *t)
{
    free (t->I) ; free (t->J) ; free (t->X) ;
}

static bool tuples_equal (const tuples_t *a, const tuples_t *b, size_t ts)
{
    if (a->n != b->n) return false ;
    // both come from extractTuples of an object with no pending work:
    // the same storage gives the same order
    return memcmp (a->I, b->I, a->n * sizeof (GrB_Index)) == 0
        && memcmp (a->J, b->J, a->n * sizeof (GrB_Index)) == 0
        && memcmp (a->X, b->X, a->n * ts) == 0 ;
}

static int64_t get_idx (const void *a, int bits, GrB_Index p)
{
    return bits == 32 ? ((const int32_t *) a) [p] : ((const int64_t *) a) [p] ;
}

// Checks one export result against the twin's tuples.
static bool check_csr (const gcu_csr *c, const tuples_t *t, const spec_t *s,
    const gcu_export_opts *o, bool twin_iso, const char *what)
{
    int k = s->type ;
    size_t ts = tsize [k] ;
    bool csc = (o->layout == GCU_EXPORT_CSC) ;
    GrB_Index ncols = s->vec ? 1 : s->ncols ;
    int ok = 1 ;
    #define EXPECT(cond, ...) do { if (!(cond)) { CHECK (cond, __VA_ARGS__) ; ok = 0 ; goto done ; } } while (0)
    ref_t *r = malloc ((t->n + 1) * sizeof (ref_t)) ;
    EXPECT (c->nrows == s->nrows && c->ncols == ncols && c->nvals == t->n,
        "%s: dims %llu x %llu nvals %llu", what, (unsigned long long) c->nrows,
        (unsigned long long) c->ncols, (unsigned long long) c->nvals) ;
    EXPECT (c->nvec == (csc ? ncols : s->nrows), "%s: nvec", what) ;
    EXPECT (c->type == types [k] && c->type_size == ts, "%s: type", what) ;
    int want_bits = o->idx_bits ? o->idx_bits : 32 ;
    EXPECT (c->idx_bits == want_bits, "%s: idx_bits %d", what, c->idx_bits) ;
    bool want_iso = twin_iso && t->n > 0 && !o->expand_iso ;
    EXPECT (c->iso == want_iso, "%s: iso %d expected %d", what, c->iso, want_iso) ;
    EXPECT (get_idx (c->ptr, c->idx_bits, 0) == 0
        && get_idx (c->ptr, c->idx_bits, c->nvec) == (int64_t) t->n, "%s: ptr ends", what) ;
    for (GrB_Index p = 0 ; p < t->n ; p++)
    {
        r [p].outer = csc ? t->J [p] : t->I [p] ;
        r [p].inner = csc ? t->I [p] : t->J [p] ;
        r [p].p = p ;
    }
    if (s->vec && !csc) for (GrB_Index p = 0 ; p < t->n ; p++) { r [p].outer = t->I [p] ; r [p].inner = 0 ; }
    qsort (r, t->n, sizeof (ref_t), cmp_ref) ;
    GrB_Index q = 0 ;
    for (GrB_Index v = 0 ; v < c->nvec ; v++)
    {
        int64_t a = get_idx (c->ptr, c->idx_bits, v), b = get_idx (c->ptr, c->idx_bits, v + 1) ;
        EXPECT (a <= b, "%s: ptr not monotone at %llu", what, (unsigned long long) v) ;
        for (int64_t p = a ; p < b ; p++, q++)
        {
            int64_t inner = get_idx (c->idx, c->idx_bits, p) ;
            EXPECT (p == a || inner > get_idx (c->idx, c->idx_bits, p - 1),
                "%s: unsorted vector %llu", what, (unsigned long long) v) ;
            EXPECT (q < t->n && r [q].outer == v && (int64_t) r [q].inner == inner,
                "%s: entry %lld at (%llu, %lld) not expected", what, (long long) p,
                (unsigned long long) v, (long long) inner) ;
            const uint8_t *got = (const uint8_t *) c->val + (c->iso ? 0 : p * ts) ;
            EXPECT (memcmp (got, t->X + r [q].p * ts, ts) == 0, "%s: value of entry %lld",
                what, (long long) p) ;
        }
    }
    EXPECT (q == t->n, "%s: %llu entries of %llu", what, (unsigned long long) q,
        (unsigned long long) t->n) ;
done:
    free (r) ;
    return ok ;
    #undef EXPECT
}

//------------------------------------------------------------------------------
// one object: every export option
//------------------------------------------------------------------------------

static int nobjects, nexports, seen [16][2][2][NPENDING] ;
static int ndense ;

// gcu_export_dense: SuiteSparse's own dense array of a matrix held full
// (every entry of the twin at its place by row or by column, or the one iso
// value), GCU_NOT_HANDLED for any other storage and on the portable path
static void check_dense (void *A, const spec_t *s, const tuples_t *tt, const status_t *twin,
    const char *what)
{
    for (int portable = 0 ; portable <= 1 ; portable++)
    {
        gcu_export_force_portable (portable) ;
        gcu_export_src src ;
        const void *x = NULL ;
        OK (gcu_export_open (&src, A, false)) ;
        GrB_Info info = gcu_export_dense (&src, &x) ;
        const bool full = twin->sparsity == GxB_FULL && !portable ;
        CHECK (info == (full ? GrB_SUCCESS : GCU_NOT_HANDLED), "%s: dense view %d (portable %d)",
            what, (int) info, portable) ;
        const size_t ts = tsize [s->type] ;
        for (GrB_Index q = 0 ; full && info == GrB_SUCCESS && q < tt->n ; q++)
        {
            const GrB_Index i = tt->I [q], j = tt->J [q] ;
            const GrB_Index at = src.iso ? 0 : src.by_col ? j * s->nrows + i : i * s->ncols + j ;
            if (memcmp ((const uint8_t *) x + at * ts, tt->X + q * ts, ts) != 0)
            {
                CHECK (false, "%s: dense view differs at (%llu,%llu)", what,
                    (unsigned long long) i, (unsigned long long) j) ;
                break ;
            }
        }
        ndense += full ;
        gcu_export_close (&src) ;
    }
    gcu_export_force_portable (false) ;
}

// gcu_export_sparse_view: SuiteSparse's own arrays of a matrix held sparse,
// as an export in its own orientation with 64-bit indices gives them (the
// twin's entries; one value if iso); GCU_NOT_HANDLED for any other storage,
// a vector, no entries, and on the portable path
static int nview ;
static void check_view (void *A, const spec_t *s, const tuples_t *tt, const status_t *twin,
    const char *what)
{
    for (int portable = 0 ; portable <= 1 ; portable++)
    {
        gcu_export_force_portable (portable) ;
        gcu_export_src src ;
        gcu_csr c ;
        OK (gcu_export_open (&src, A, s->vec)) ;
        const GrB_Info info = gcu_export_sparse_view (&src, &c) ;
        const bool sparse = twin->sparsity == GxB_SPARSE && !s->vec && !portable && tt->n > 0 ;
        CHECK (info == (sparse ? GrB_SUCCESS : GCU_NOT_HANDLED), "%s: sparse view %d (portable %d)",
            what, (int) info, portable) ;
        if (sparse && info == GrB_SUCCESS)
        {
            const gcu_export_opts o = { src.by_col ? GCU_EXPORT_CSC : GCU_EXPORT_CSR, 64, false, 0 } ;
            char w [300] ;
            snprintf (w, sizeof (w), "%s: sparse view", what) ;
            (void) check_csr (&c, tt, s, &o, twin->iso, w) ;
            nview++ ;
        }
        gcu_export_close (&src) ;
    }
    gcu_export_force_portable (false) ;
}

static void run_spec (const spec_t *s)
{
    void *A = make (s), *T = make (s) ;
    bool vec = s->vec ;
    if (vec) OK (GrB_Vector_wait (T, GrB_MATERIALIZE)) ;
    else OK (GrB_Matrix_wait (T, GrB_MATERIALIZE)) ;
    status_t twin = status_of (T, vec) ;
    tuples_t tt = tuples_of (T, vec, s->type) ;
    char what [256] ;
    snprintf (what, sizeof (what), "%s %s %llux%llu %s %s%s pending %s seed %llu",
        vec ? "vector" : "matrix", tname [s->type], (unsigned long long) s->nrows,
        (unsigned long long) (vec ? 1 : s->ncols),
        s->sparsity == GxB_SPARSE ? "sparse" : s->sparsity == GxB_HYPERSPARSE ? "hyper"
        : s->sparsity == GxB_BITMAP ? "bitmap" : "full", s->by_col ? "by col" : "by row",
        s->iso ? " iso" : "", pname [s->pending], (unsigned long long) s->seed) ;
    // the intended storage and pending work were made (the random choices can
    // leave nothing to remove or add: then none)
    int pk = pending_of (A, vec) ;
    CHECK (pk == s->pending || pk == P_NONE || (s->pending == P_BOTH && pk != P_JUMBLED),
        "%s: made pending %s", what, pname [pk]) ;
    // (SuiteSparse's own choices: a single vector is never hypersparse, a
    // full bitmap may be stored full, an empty one hypersparse)
    GrB_Index nvecs = vec ? 1 : s->by_col ? s->ncols : s->nrows ;
    CHECK (twin.sparsity == s->sparsity || twin.nvals == 0 || s->density == 1.0
        || (s->sparsity == GxB_HYPERSPARSE && nvecs <= 1), "%s: stored as %d", what,
        twin.sparsity) ;
    seen [twin.sparsity][twin.fmt == GxB_BY_COL][twin.iso][pk]++ ;
    // without pending work, look before: nothing may change
    status_t before = { 0 } ;
    if (pk == P_NONE) before = status_of (A, vec) ;

    int variant = 0 ;
    for (int portable = 0 ; portable <= 1 ; portable++)
    for (int layout = 0 ; layout <= 1 ; layout++)
    for (int bits = 0 ; bits <= 64 ; bits += 32)
    for (int expand = 0 ; expand <= 1 ; expand++)
    {
        // every combination on the iterator path; a sample on the portable one
        if (portable && (variant++ % 3) != 0) continue ;
        gcu_export_force_portable (portable) ;
        gcu_export_opts o = { layout ? GCU_EXPORT_CSC : GCU_EXPORT_CSR, bits,
            expand, (nobjects % 16 == 0) ? 2 : 1 } ;
        gcu_csr c ;
        GrB_Info info = gcu_export_csr (A, vec, &o, &c) ;
        char w2 [400] ;
        snprintf (w2, sizeof (w2), "%s: %s %s bits %d%s threads %d", what,
            portable ? "portable" : "iterator", layout ? "CSC" : "CSR", bits,
            expand ? " expand-iso" : "", o.nthreads) ;
        CHECK (info == GrB_SUCCESS, "%s: export %d", w2, (int) info) ;
        if (info == GrB_SUCCESS) check_csr (&c, &tt, s, &o, twin.iso, w2) ;
        gcu_csr_free (&c) ;
        nexports++ ;
        // the object afterwards
        status_t after = status_of (A, vec) ;
        status_t want = (pk == P_NONE) ? before : twin ;
        CHECK (after.fmt == want.fmt && after.sparsity == want.sparsity
            && after.iso == want.iso && after.nvals == want.nvals,
            "%s: object changed: format %d->%d sparsity %d->%d iso %d->%d nvals %llu->%llu",
            w2, want.fmt, after.fmt, want.sparsity, after.sparsity, want.iso, after.iso,
            (unsigned long long) want.nvals, (unsigned long long) after.nvals) ;
    }
    gcu_export_force_portable (false) ;
    if (!vec && pk == P_NONE) check_dense (A, s, &tt, &twin, what) ;
    check_view (A, s, &tt, &twin, what) ;
    tuples_t ta = tuples_of (A, vec, s->type) ;
    CHECK (tuples_equal (&ta, &tt, tsize [s->type]), "%s: entries changed", what) ;
    tuples_free (&ta) ;
    tuples_free (&tt) ;
    obj_free (&A, vec) ;
    obj_free (&T, vec) ;
    nobjects++ ;
}

//------------------------------------------------------------------------------
// the sweep
//------------------------------------------------------------------------------

static void sweep (void)
{
    uint64_t st = 12345 ;
    GrB_Index dims [][2] = { { 0, 0 }, { 1, 1 }, { 0, 5 }, { 5, 0 }, { 1, 17 },
        { 17, 1 }, { 7, 9 }, { 33, 20 }, { 64, 64 }, { 120, 90 } } ;
    int ndims = sizeof (dims) / sizeof (dims [0]) ;
    for (int k = 0 ; k < NTYPES ; k++)
    for (int sp = 0 ; sp < 4 ; sp++)
    for (int by_col = 0 ; by_col <= 1 ; by_col++)
    for (int iso = 0 ; iso <= 1 ; iso++)
    for (int pk = 0 ; pk < NPENDING ; pk++)
    {
        int sparsity = sparsities [sp] ;
        // SuiteSparse keeps pending work only in sparse and hypersparse storage
        if (pk != P_NONE && !(sparsity == GxB_SPARSE || sparsity == GxB_HYPERSPARSE)) continue ;
        spec_t s ;
        s.type = k ;
        s.vec = false ;
        int d = (int) (gcu_rand (&st) % ndims) ;
        s.nrows = dims [d][0] ;
        s.ncols = dims [d][1] ;
        double dens [4] = { 0.05, 0.3, 1.0, -1 } ;      // -1: one dense row
        s.density = (sparsity == GxB_FULL) ? 1.0 : dens [gcu_rand (&st) % 4] ;
        s.sparsity = sparsity ;
        s.by_col = by_col ;
        s.iso = iso ;
        s.pending = pk ;
        s.seed = gcu_rand (&st) ;
        run_spec (&s) ;
    }
    // vectors
    for (int k = 0 ; k < NTYPES ; k++)
    for (int sp = 0 ; sp < 4 ; sp++)
    for (int iso = 0 ; iso <= 1 ; iso++)
    for (int pk = 0 ; pk < P_JUMBLED ; pk++)
    {
        int sparsity = sparsities [sp] ;
        if (pk != P_NONE && sparsity != GxB_SPARSE) continue ;
        if (sparsity == GxB_HYPERSPARSE) continue ;     // vectors are never hypersparse
        GrB_Index lens [4] = { 0, 1, 13, 200 } ;
        spec_t s = { k, true, lens [gcu_rand (&st) % 4], 1,
            sparsity == GxB_FULL ? 1.0 : 0.3, sparsity, true, iso, pk, gcu_rand (&st) } ;
        run_spec (&s) ;
    }
}

// Larger objects: the threaded paths with OpenMP's own thread count.
static void larger (void)
{
    uint64_t st = 99 ;
    for (int sp = 0 ; sp < 4 ; sp++)
    for (int by_col = 0 ; by_col <= 1 ; by_col++)
    {
        int sparsity = sparsities [sp] ;
        spec_t s = { 10, false, 700, 600, sparsity == GxB_FULL ? 1.0 : 0.4,
            sparsity, by_col, false, P_NONE, gcu_rand (&st) } ;
        if (sparsity == GxB_SPARSE) s.pending = P_BOTH ;
        void *A = make (&s), *T = make (&s) ;
        OK (GrB_Matrix_wait (T, GrB_MATERIALIZE)) ;
        tuples_t tt = tuples_of (T, false, s.type) ;
        for (int layout = 0 ; layout <= 1 ; layout++)
        {
            gcu_export_opts o = { layout ? GCU_EXPORT_CSC : GCU_EXPORT_CSR, 0, false, 0 } ;
            gcu_csr c ;
            OK (gcu_export_csr (A, false, &o, &c)) ;
            check_csr (&c, &tt, &s, &o, false, layout ? "large CSC" : "large CSR") ;
            gcu_csr_free (&c) ;
        }
        tuples_free (&tt) ;
        obj_free (&A, false) ;
        obj_free (&T, false) ;
    }
}

// Many output vectors (the bucketed transpose): both orientations, both
// index widths, 1 and 2 threads, iso and not.
static void many_vectors (void)
{
    uint64_t st = 5 ;
    GrB_Index m = 90000, n = 70001, most = 300000 ;
    GrB_Index *I = malloc (most * sizeof (GrB_Index)), *J = malloc (most * sizeof (GrB_Index)) ;
    double *X = malloc (most * sizeof (double)) ;
    // many entries, and a few (a bucket then spans more vectors than there
    // are: its counts are held to the output's vectors)
    for (int few = 0 ; few <= 1 ; few++)
    for (int iso = 0 ; iso <= 1 ; iso++)
    for (int sp = 0 ; sp < 2 ; sp++)
    for (int by_col = 0 ; by_col <= 1 ; by_col++)
    {
        const GrB_Index nz = few ? 37 : most ;
        for (GrB_Index k = 0 ; k < nz ; k++)
        {
            I [k] = gcu_rand (&st) % m ;
            J [k] = gcu_rand (&st) % n ;
            X [k] = iso ? 2.0 : (double) (gcu_rand (&st) % 1000) ;
        }
        GrB_Matrix A = NULL ;
        OK (GrB_Matrix_new (&A, GrB_FP64, m, n)) ;
        OK (GxB_Matrix_Option_set_INT32 (A, GxB_FORMAT, by_col ? GxB_BY_COL : GxB_BY_ROW)) ;
        OK (GrB_Matrix_build_FP64 (A, I, J, X, nz, GrB_FIRST_FP64)) ;
        OK (GxB_Matrix_Option_set_INT32 (A, GxB_SPARSITY_CONTROL, sparsities [sp])) ;
        OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
        spec_t s = { 10, false, m, n, 0, sparsities [sp], by_col, iso, P_NONE, 0 } ;
        tuples_t tt = tuples_of (A, false, s.type) ;
        for (int layout = 0 ; layout <= 1 ; layout++)
        for (int bits = 32 ; bits <= 64 ; bits += 32)
        {
            gcu_export_opts o = { layout ? GCU_EXPORT_CSC : GCU_EXPORT_CSR, bits, false,
                1 + (bits == 64) } ;
            gcu_csr c ;
            OK (gcu_export_csr (A, false, &o, &c)) ;
            check_csr (&c, &tt, &s, &o, iso, "many vectors") ;
            gcu_csr_free (&c) ;
        }
        tuples_free (&tt) ;
        GrB_Matrix_free (&A) ;
    }
    free (I) ; free (J) ; free (X) ;
}

// Two threads export the same objects at once (an object without pending
// work is only read), each asking for 2 threads inside: nested, their teams
// are smaller than asked, which must not lose work.
static void concurrent (void)
{
    uint64_t st = 77 ;
    for (int sp = 0 ; sp < 4 ; sp++)
    {
        spec_t s = { 4, false, 300, 200, sparsities [sp] == GxB_FULL ? 1.0 : 0.2,
            sparsities [sp], sp % 2, false, P_NONE, gcu_rand (&st) } ;
        void *A = make (&s) ;
        tuples_t tt = tuples_of (A, false, s.type) ;
        int bad = 0 ;
        #pragma omp parallel num_threads(2) reduction(+:bad)
        for (int layout = 0 ; layout <= 1 ; layout++)
        {
            gcu_export_opts o = { layout ? GCU_EXPORT_CSC : GCU_EXPORT_CSR, 0, false, 2 } ;
            gcu_csr c ;
            if (gcu_export_csr (A, false, &o, &c) != GrB_SUCCESS) { bad++ ; continue ; }
            // the checks count into globals: one thread at a time
            #pragma omp critical
            bad += !check_csr (&c, &tt, &s, &o, false, "concurrent") ;
            gcu_csr_free (&c) ;
        }
        CHECK (bad == 0, "concurrent exports: %d bad", bad) ;
        tuples_free (&tt) ;
        obj_free (&A, false) ;
    }
}

// Dimensions beyond 32 bits: 64-bit indices, and a refusal of 32.
static void huge (void)
{
    GrB_Matrix A = NULL ;
    GrB_Index n = (GrB_Index) 1 << 40 ;
    OK (GrB_Matrix_new (&A, GrB_FP64, n, 5)) ;
    OK (GxB_Matrix_Option_set_INT32 (A, GxB_FORMAT, GxB_BY_COL)) ;
    OK (GrB_Matrix_setElement_FP64 (A, 1.5, n - 1, 4)) ;
    OK (GrB_Matrix_setElement_FP64 (A, 2.5, 3, 4)) ;
    OK (GrB_Matrix_setElement_FP64 (A, 3.5, 7, 0)) ;
    gcu_export_src s ;
    gcu_csr c ;
    OK (gcu_export_open (&s, A, false)) ;
    gcu_export_opts o32 = { GCU_EXPORT_CSC, 32, false, 0 } ;
    CHECK (gcu_export_plan (&s, &o32, &c) == GCU_NOT_HANDLED, "32 bits refused") ;
    gcu_export_close (&s) ;
    gcu_export_opts o = { GCU_EXPORT_CSC, 0, false, 0 } ;
    OK (gcu_export_csr (A, false, &o, &c)) ;
    const int64_t *p = c.ptr, *i = c.idx ;
    const double *x = c.val ;
    CHECK (c.idx_bits == 64 && c.nvec == 5 && c.nvals == 3 && p [0] == 0 && p [1] == 1
        && p [4] == 1 && p [5] == 3 && i [0] == 7 && i [1] == 3 && i [2] == (int64_t) (n - 1)
        && x [0] == 3.5 && x [1] == 2.5 && x [2] == 1.5, "hypersparse 2^40 rows as CSC") ;
    gcu_csr_free (&c) ;
    GrB_Matrix_free (&A) ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    types_init () ;
    sweep () ;
    larger () ;
    many_vectors () ;
    concurrent () ;
    huge () ;
    printf ("%d objects, %d exports, %d dense views, %d sparse views; objects seen (as stored, "
        "after the export):\n", nobjects, nexports, ndense, nview) ;
    CHECK (ndense > 0, "no matrix held full was seen through the dense view") ;
    CHECK (nview > 0, "no matrix held sparse was seen through the sparse view") ;
    for (int sp = 1 ; sp <= 8 ; sp *= 2)
    for (int c = 0 ; c <= 1 ; c++)
    for (int iso = 0 ; iso <= 1 ; iso++)
    {
        printf ("  %-6s %s %-3s:", sp == 1 ? "hyper" : sp == 2 ? "sparse" : sp == 4 ? "bitmap" : "full",
            c ? "by col" : "by row", iso ? "iso" : "") ;
        for (int pk = 0 ; pk < NPENDING ; pk++) printf (" %s %d", pname [pk], seen [sp][c][iso][pk]) ;
        printf ("\n") ;
        // every storage x orientation x iso was made, and with pending work
        // where SuiteSparse keeps it
        CHECK (seen [sp][c][iso][P_NONE] > 0, "never made without pending work") ;
        if (sp <= 2) for (int pk = 1 ; pk < NPENDING ; pk++)
            CHECK (seen [sp][c][iso][pk] > 0, "never made with pending %s", pname [pk]) ;
    }
    GrB_Type_free (&types [NTYPES - 1]) ;
    GrB_finalize () ;
    return gcu_test_report ("test_export_csr") ;
}
