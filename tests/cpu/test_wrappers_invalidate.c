// GRBCUDA_TEST_PRELOAD
// test_wrappers_invalidate.c — the generated invalidation wrappers
// (src/api/gen_wrappers.py), linked and under LD_PRELOAD:
//  (a) nothing missed: this test parses the GraphBLAS.h the build used with
//      its own small parser, and every function that can change a matrix,
//      vector or scalar must be grbcuda's (a wrapper, or a hand-written entry
//      point: the symbol the program calls lies in libgrbcuda) or be in the
//      generator's exclusion table with its reason;
//  (b) pass-through stays exact: a sweep over the families of mutating calls
//      (setElement, removeElement, build, assign, subassign, apply, select,
//      transpose, resize, clear, wait, extract, kronecker, reduce,
//      serialize/deserialize, pack/unpack, import/export, concat/split, sort,
//      reshape, diag, new/dup/free, options, vectors and scalars), each run
//      through grbcuda and on SuiteSparse's own definition on identical
//      objects, valid and erroneous, gives the same GrB_Info and the same
//      objects;
//  (c) invalidation is observed: with the residency cache's tracking on,
//      each call bumps the invalidation count of exactly the objects it may
//      change, and a freed handle whose address a new object reuses is
//      invalidated at the free and again at the new.
// dladdr, memmem
#define _GNU_SOURCE
#include "gcu_test.h"
#include "../../src/api/gcu_internal.h"
#include <ctype.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static const gcu_internal_api *api ;
static void *grbcuda_base ;

//------------------------------------------------------------------------------
// (a) an independent parse of GraphBLAS.h
//------------------------------------------------------------------------------

typedef struct { char name [128] ; bool variadic ; } decl_t ;

// Comments and preprocessor lines out, everything else kept.
static char *clean_header (const char *path)
{
    char *s = gcu_test_read_file (path) ;
    if (s == NULL) return NULL ;
    size_t got = strlen (s) ;
    char *o = malloc (got + 1) ;
    size_t k = 0 ;
    bool line_start = true, in_pp = false ;
    for (size_t i = 0 ; i < got ; )
    {
        if (s [i] == '/' && s [i + 1] == '*')
        {
            char *e = strstr (s + i + 2, "*/") ;
            size_t j = e ? (size_t) (e - s) + 2 : got ;
            for ( ; i < j ; i++) if (s [i] == '\n') o [k++] = '\n' ;
            o [k++] = ' ' ;
            continue ;
        }
        if (s [i] == '/' && s [i + 1] == '/')
        {
            while (i < got && s [i] != '\n') i++ ;
            continue ;
        }
        if (s [i] == '"')
        {
            o [k++] = s [i++] ;
            while (i < got && s [i] != '"') { if (s [i] == '\\') o [k++] = s [i++] ; o [k++] = s [i++] ; }
            if (i < got) o [k++] = s [i++] ;
            continue ;
        }
        if (line_start && !in_pp)
        {
            size_t j = i ;
            while (s [j] == ' ' || s [j] == '\t') j++ ;
            if (s [j] == '#') in_pp = true ;
        }
        if (s [i] == '\n')
        {
            bool cont = in_pp && i > 0 && s [i - 1] == '\\' ;
            if (!cont) in_pp = false ;
            line_start = true ;
            o [k++] = '\n' ;
            i++ ;
            continue ;
        }
        line_start = false ;
        if (!in_pp) o [k++] = s [i] ;
        i++ ;
    }
    o [k] = '\0' ;
    free (s) ;
    return o ;
}

static bool is_ident (char c) { return isalnum ((unsigned char) c) || c == '_' ; }

// Does this parameter (text) hold a non-const handle or a pointer to one?
static bool param_mutates (const char *p, size_t len)
{
    const char *h [3] = { "GrB_Matrix", "GrB_Vector", "GrB_Scalar" } ;
    for (int t = 0 ; t < 3 ; t++)
    {
        size_t hl = strlen (h [t]) ;
        for (size_t i = 0 ; i + hl <= len ; i++)
        {
            if (strncmp (p + i, h [t], hl) != 0) continue ;
            if ((i > 0 && is_ident (p [i - 1])) || (i + hl < len && is_ident (p [i + hl]))) continue ;
            // "const" anywhere before the first '*' qualifies the handle
            size_t star = len ;
            for (size_t j = 0 ; j < len ; j++) if (p [j] == '*' || p [j] == '[') { star = j ; break ; }
            for (size_t j = 0 ; j + 5 <= star ; j++)
            {
                if (strncmp (p + j, "const", 5) == 0 && (j == 0 || !is_ident (p [j - 1]))
                    && (j + 5 >= len || !is_ident (p [j + 5]))) return false ;
            }
            return true ;
        }
    }
    return false ;
}

// Every GB_PUBLIC function declaration with a mutating parameter.
static decl_t *mutating_functions (const char *text, int *n_out, int *n_all)
{
    int cap = 1024, n = 0 ;
    decl_t *d = calloc ((size_t) cap, sizeof (decl_t)) ;
    *n_all = 0 ;
    for (const char *p = strstr (text, "GB_PUBLIC") ; p != NULL ; p = strstr (p + 1, "GB_PUBLIC"))
    {
        if ((p > text && is_ident (p [-1])) || is_ident (p [9])) continue ;
        const char *end = strchr (p, ';') ;
        if (end == NULL) break ;
        const char *lp = memchr (p, '(', (size_t) (end - p)) ;
        if (lp == NULL) continue ;                          // a variable
        // the name: the identifier before '(' ; GRB (x) / GXB (x) / GB (x)
        char name [128] = "" ;
        const char *q = lp ;
        while (q > p && isspace ((unsigned char) q [-1])) q-- ;
        const char *b = q ;
        while (b > p && is_ident (b [-1])) b-- ;
        snprintf (name, sizeof (name), "%.*s", (int) (q - b), b) ;
        if (strcmp (name, "GRB") == 0 || strcmp (name, "GXB") == 0 || strcmp (name, "GB") == 0)
        {
            const char *x = lp + 1 ;
            while (isspace ((unsigned char) *x)) x++ ;
            const char *xe = x ;
            while (is_ident (*xe)) xe++ ;
            char pre [8] ;
            snprintf (pre, sizeof (pre), "%s", strcmp (name, "GRB") == 0 ? "GrB_"
                : strcmp (name, "GXB") == 0 ? "GxB_" : "GB_") ;
            snprintf (name, sizeof (name), "%s%.*s", pre, (int) (xe - x), x) ;
            lp = memchr (xe, '(', (size_t) (end - xe)) ;
            if (lp == NULL) continue ;
        }
        else
        {
            // "(*name) (": a function pointer variable
            const char *x = lp + 1 ;
            while (isspace ((unsigned char) *x)) x++ ;
            if (*x == '*') continue ;
        }
        (*n_all)++ ;
        // parameters between lp and its matching ')'
        bool mut = false, variadic = false ;
        int depth = 0 ;
        const char *ps = lp + 1 ;
        for (const char *x = lp ; x < end ; x++)
        {
            if (*x == '(') { depth++ ; if (depth == 1) ps = x + 1 ; continue ; }
            if ((*x == ',' && depth == 1) || (*x == ')' && depth == 1))
            {
                size_t len = (size_t) (x - ps) ;
                if (param_mutates (ps, len)) mut = true ;
                if (len >= 3 && memmem (ps, len, "...", 3) != NULL) variadic = true ;
                ps = x + 1 ;
            }
            if (*x == ')') { depth-- ; if (depth == 0) break ; }
        }
        if (!mut) continue ;
        if (n == cap) d = realloc (d, (size_t) (cap *= 2) * sizeof (decl_t)) ;
        snprintf (d [n].name, sizeof (d [n].name), "%s", name) ;
        d [n].variadic = variadic ;
        n++ ;
    }
    *n_out = n ;
    return d ;
}

static const gcu_wrapper_info *table_find (const char *name)
{
    for (size_t k = 0 ; k < api->nwrappers ; k++)
        if (strcmp (api->wrappers [k].name, name) == 0) return &api->wrappers [k] ;
    return NULL ;
}

static bool in_grbcuda (const char *name)
{
    void *p = dlsym (RTLD_DEFAULT, name) ;
    Dl_info di ;
    return p != NULL && dladdr (p, &di) != 0 && di.dli_fbase == grbcuda_base ;
}

static void test_coverage (void)
{
    const char *path = getenv ("GRBCUDA_TEST_GRAPHBLAS_H") ;
    if (path == NULL) path = api->header ;
    char *text = clean_header (path) ;
    CHECK (text != NULL, "cannot read %s", path) ;
    if (text == NULL) return ;
    int n = 0, nall = 0 ;
    decl_t *d = mutating_functions (text, &n, &nall) ;
    CHECK (nall > 700 && (size_t) nall == api->nparsed,
        "declarations: this parser %d, the generator %zu", nall, api->nparsed) ;
    CHECK ((size_t) n == api->nwrappers, "mutating functions: this parser %d, the generator %zu",
        n, api->nwrappers) ;
    int counts [6] = { 0 } ;
    for (int k = 0 ; k < n ; k++)
    {
        const gcu_wrapper_info *w = table_find (d [k].name) ;
        CHECK (w != NULL, "%s can change an object and is neither wrapped nor excluded", d [k].name) ;
        if (w == NULL) continue ;
        counts [w->cls]++ ;
        switch (w->cls)
        {
            case GCU_WRAP_GENERATED:
            case GCU_WRAP_HANDWRITTEN:
                CHECK (in_grbcuda (d [k].name), "%s is not grbcuda's in this process", d [k].name) ;
                // a variadic function is only ever written by hand
                CHECK (!d [k].variadic || w->cls == GCU_WRAP_HANDWRITTEN,
                    "%s: variadic but generated", d [k].name) ;
                break ;
            case GCU_WRAP_EXCLUDED_VARIADIC:
                CHECK (d [k].variadic && w->reason [0], "%s: not variadic or no reason", d [k].name) ;
                break ;
            case GCU_WRAP_EXCLUDED_INTERNAL:
                CHECK (strncmp (d [k].name, "GB_", 3) == 0, "%s: not a GB_ name", d [k].name) ;
                break ;
            case GCU_WRAP_EXCLUDED_MISSING:
                CHECK (gcu_test_real (d [k].name) == NULL, "%s: said missing, but defined", d [k].name) ;
                break ;
            case GCU_WRAP_EXCLUDED_READONLY:
                CHECK (w->reason [0] != '\0', "%s: no reason", d [k].name) ;
                break ;
        }
    }
    // and the table holds nothing this parser does not see
    for (size_t k = 0 ; k < api->nwrappers ; k++)
    {
        bool found = false ;
        for (int j = 0 ; j < n && !found ; j++) found = strcmp (d [j].name, api->wrappers [k].name) == 0 ;
        CHECK (found, "%s in the table but not mutating here", api->wrappers [k].name) ;
    }
    printf ("%s: %d declarations, %d can change an object: %d wrapped, %d hand-written, "
        "%d variadic, %d read-only, %d internal, %d missing\n", path, nall, n, counts [0],
        counts [1], counts [2], counts [3], counts [4], counts [5]) ;
    // (hand-written entry points take over wrapped ones as GPU paths grow:
    // GrB_Vector_apply and its 41 typed and Scalar forms moved over)
    CHECK (counts [0] > 300 && counts [0] + counts [1] > 400, "wrapped: %d, hand-written %d",
        counts [0], counts [1]) ;
    free (d) ;
    free (text) ;
}

//------------------------------------------------------------------------------
// (b), (c): the same call through grbcuda and on SuiteSparse
//------------------------------------------------------------------------------

#define FNLIST(X)                                                              \
    X (GrB_Matrix_new) X (GrB_Matrix_dup) X (GrB_Matrix_free)                  \
    X (GrB_Matrix_setElement_INT32) X (GrB_Matrix_setElement_Scalar)           \
    X (GrB_Matrix_removeElement) X (GrB_Matrix_build_INT32)                    \
    X (GrB_Matrix_assign) X (GrB_Matrix_assign_INT32) X (GxB_Matrix_subassign) \
    X (GxB_Matrix_subassign_Scalar) X (GrB_Row_assign) X (GrB_Matrix_apply)    \
    X (GrB_Matrix_apply_BinaryOp1st_INT32) X (GrB_Matrix_apply_IndexOp_INT32)  \
    X (GrB_Matrix_select_INT32) X (GrB_transpose) X (GrB_Matrix_resize)        \
    X (GrB_Matrix_clear) X (GrB_Matrix_wait) X (GrB_Matrix_extract)            \
    X (GrB_Col_extract) X (GrB_Matrix_kronecker_BinaryOp)                      \
    X (GrB_Matrix_reduce_Monoid) X (GrB_Matrix_reduce_Monoid_Scalar)           \
    X (GrB_Matrix_extractElement_Scalar) X (GxB_Matrix_serialize)              \
    X (GxB_Matrix_deserialize) X (GrB_Matrix_serializeSize)                    \
    X (GrB_Matrix_serialize) X (GrB_Matrix_deserialize)                        \
    X (GxB_Matrix_unpack_CSR) X (GxB_Matrix_pack_CSR)                          \
    X (GxB_Matrix_export_CSR) X (GxB_Matrix_import_CSR)                        \
    X (GrB_Matrix_exportSize) X (GrB_Matrix_export_INT32)                      \
    X (GrB_Matrix_import_INT32) X (GxB_Matrix_concat) X (GxB_Matrix_split)     \
    X (GxB_Matrix_sort) X (GxB_Matrix_reshape) X (GxB_Matrix_reshapeDup)       \
    X (GrB_Matrix_diag) X (GxB_Vector_diag) X (GxB_Matrix_Option_set_INT32)    \
    X (GrB_Vector_new) X (GrB_Vector_setElement_INT32) X (GrB_Vector_build_INT32) \
    X (GrB_Vector_assign) X (GrB_Vector_apply) X (GrB_Vector_select_INT32)     \
    X (GrB_Vector_resize) X (GrB_Vector_clear) X (GxB_Vector_sort)             \
    X (GrB_Vector_removeElement) X (GrB_Vector_free)                           \
    X (GrB_Scalar_setElement_INT32) X (GrB_Scalar_clear) X (GrB_mxm)

#define DECL_FN(n) __typeof__ (&n) n ;
typedef struct { FNLIST (DECL_FN) } fns_t ;
static fns_t W, R ;     // W: as the program calls them (grbcuda's), R: SuiteSparse's

static void fns_init (void)
{
    #define SET_W(n) W.n = &n ;
    #define SET_R(n) R.n = (__typeof__ (&n)) gcu_test_real (#n) ; \
        CHECK (R.n != NULL, "no real %s", #n) ;
    FNLIST (SET_W)
    FNLIST (SET_R)
}

#define NM 10            // objects are NM x NM
#define NOUT 4

typedef struct
{
    GrB_Matrix C, A, B, M, X ;      // X: a matrix of other dimensions (errors)
    GrB_Vector w, u ;
    GrB_Scalar s ;
    GrB_Matrix out [NOUT] ;         // objects the call creates
    const void *gone ;              // a handle the call consumed (export)
}
objs_t ;

// bits: which objects a call may change (their epochs must move), the rest
// must keep theirs
enum { O_C = 1, O_A = 2, O_B = 4, O_M = 8, O_W = 16, O_U = 32, O_S = 64, O_OUT = 128, O_GONE = 256 } ;

static void objs_make (objs_t *o, uint64_t seed)
{
    memset (o, 0, sizeof (*o)) ;
    uint64_t st = seed ;
    o->C = gcu_test_random_matrix (GrB_INT32, NM, NM, 0.3, &st) ;
    o->A = gcu_test_random_matrix (GrB_INT32, NM, NM, 0.3, &st) ;
    o->B = gcu_test_random_matrix (GrB_INT32, NM, NM, 0.5, &st) ;
    o->M = gcu_test_random_matrix (GrB_BOOL, NM, NM, 0.4, &st) ;
    o->X = gcu_test_random_matrix (GrB_INT32, 7, 3, 0.4, &st) ;
    o->w = gcu_test_random_vector (GrB_INT32, NM, 0.4, &st) ;
    o->u = gcu_test_random_vector (GrB_INT32, NM, 0.6, &st) ;
    GrB_Scalar_new (&o->s, GrB_INT32) ;
    GrB_Scalar_setElement_INT32 (o->s, 3) ;
}

static void objs_free (objs_t *o)
{
    GrB_Matrix_free (&o->C) ; GrB_Matrix_free (&o->A) ; GrB_Matrix_free (&o->B) ;
    GrB_Matrix_free (&o->M) ; GrB_Matrix_free (&o->X) ;
    GrB_Vector_free (&o->w) ; GrB_Vector_free (&o->u) ;
    GrB_Scalar_free (&o->s) ;
    for (int k = 0 ; k < NOUT ; k++) GrB_Matrix_free (&o->out [k]) ;
}

static bool mat_eq (GrB_Matrix a, GrB_Matrix b, const char *what)
{
    if (a == NULL || b == NULL) return a == b ;
    // an error may leave the output invalid: then on both sides
    bool va = GxB_Matrix_fprint (a, "a", GxB_SILENT, NULL) == GrB_SUCCESS ;
    bool vb = GxB_Matrix_fprint (b, "b", GxB_SILENT, NULL) == GrB_SUCCESS ;
    if (!va || !vb) return va == vb ;
    return gcu_test_matrix_equal (a, b, 0, false, what) ;
}

static bool scalar_eq (GrB_Scalar a, GrB_Scalar b)
{
    if (a == NULL || b == NULL) return a == b ;
    GrB_Index na, nb ;
    int32_t xa = 0, xb = 0 ;
    GrB_Info ia = GrB_Scalar_nvals (&na, a) ;
    GrB_Info ib = GrB_Scalar_nvals (&nb, b) ;
    if (ia != GrB_SUCCESS || ib != GrB_SUCCESS) return ia == ib ;   // an error left both invalid
    if (na != nb) return false ;
    if (na) { GrB_Scalar_extractElement_INT32 (&xa, a) ; GrB_Scalar_extractElement_INT32 (&xb, b) ; }
    return xa == xb ;
}

typedef GrB_Info (*case_fn) (const fns_t *F, objs_t *o, int variant) ;

static int ncases, ncalls ;

// Runs variant v of a case on two identical sets of objects, through
// grbcuda (W) and on SuiteSparse (R); compares status and every object;
// on success, checks whose invalidation counts moved.
static void run_case (const char *name, case_fn f, int nvariants, int changes)
{
    ncases++ ;
    for (int v = 0 ; v < nvariants ; v++)
    {
        uint64_t seed = 1000 + 17 * (uint64_t) ncases + (uint64_t) v ;
        objs_t o1, o2 ;
        objs_make (&o1, seed) ;
        objs_make (&o2, seed) ;
        const void *h [8] = { o1.C, o1.A, o1.B, o1.M, o1.w, o1.u, o1.s, NULL } ;
        uint64_t e0 [8] ;
        for (int k = 0 ; k < 7 ; k++) e0 [k] = api->epoch (h [k]) ;
        GrB_Info i1 = f (&W, &o1, v) ;
        GrB_Info i2 = f (&R, &o2, v) ;
        ncalls += 2 ;
        char what [128] ;
        snprintf (what, sizeof (what), "%s variant %d", name, v) ;
        CHECK (i1 == i2, "%s: grbcuda %d, SuiteSparse %d", what, (int) i1, (int) i2) ;
        CHECK (mat_eq (o1.C, o2.C, what) && mat_eq (o1.A, o2.A, what)
            && mat_eq (o1.B, o2.B, what) && mat_eq (o1.M, o2.M, what)
            && mat_eq (o1.X, o2.X, what), "%s: matrices differ", what) ;
        CHECK (gcu_test_vector_equal (o1.w, o2.w, 0, false, what)
            && gcu_test_vector_equal (o1.u, o2.u, 0, false, what), "%s: vectors differ", what) ;
        CHECK (scalar_eq (o1.s, o2.s), "%s: scalars differ", what) ;
        for (int k = 0 ; k < NOUT ; k++)
            CHECK (mat_eq (o1.out [k], o2.out [k], what), "%s: new object %d differs", what, k) ;
        if (v > 0)
        {
            CHECK (i1 < GrB_SUCCESS, "%s: meant as an error, returned %d", what, (int) i1) ;
        }
        else
        {
            CHECK (i1 == GrB_SUCCESS, "%s: the valid call failed: %d", what, (int) i1) ;
            // invalidation counts: moved for what the call may change, still
            // for its inputs
            int bit [7] = { O_C, O_A, O_B, O_M, O_W, O_U, O_S } ;
            const char *nm [7] = { "C", "A", "B", "M", "w", "u", "s" } ;
            for (int k = 0 ; k < 7 ; k++)
            {
                if (k == 0 && (changes & O_GONE)) continue ;
                uint64_t e1 = api->epoch (h [k]) ;
                if (changes & bit [k])
                    CHECK (e1 > e0 [k], "%s: %s was not invalidated", what, nm [k]) ;
                else
                    CHECK (e1 == e0 [k], "%s: input %s invalidated", what, nm [k]) ;
            }
            if (changes & O_GONE)
                CHECK (api->epoch (o1.gone) > e0 [0], "%s: consumed handle not invalidated", what) ;
            if (changes & O_OUT)
                for (int k = 0 ; k < NOUT ; k++)
                    if (o1.out [k] != NULL)
                        CHECK (api->epoch (o1.out [k]) > 0, "%s: new object %d never invalidated", what, k) ;
        }
        objs_free (&o1) ;
        objs_free (&o2) ;
    }
}

//------------------------------------------------------------------------------
// the cases: variant 0 is valid, the others are errors SuiteSparse reports
//------------------------------------------------------------------------------

static GrB_Index I3 [3] = { 0, 4, 7 }, Ibad [3] = { 0, 4, 70 } ;
static GrB_Index I7 [7] = { 0, 1, 2, 3, 5, 6, 8 } ;
static int32_t X3 [3] = { 5, -6, 7 } ;

static GrB_Info c_setel (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_setElement_INT32 (o->C, 7, v ? 100 : 1, 2) ;
}
static GrB_Info c_setel_scalar (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_setElement_Scalar (v ? NULL : o->C, o->s, 3, 3) ;
}
static GrB_Info c_setel_empty (const fns_t *F, objs_t *o, int v)
{
    F->GrB_Scalar_clear (o->s) ;        // an empty scalar removes the entry
    return F->GrB_Matrix_setElement_Scalar (o->C, o->s, 3, 3) ;
}
static GrB_Info c_remove (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_removeElement (o->C, v ? NM : 1, 1) ;
}
static GrB_Info c_build (const fns_t *F, objs_t *o, int v)
{
    static GrB_Index Idup [3] = { 4, 4, 4 } ;
    F->GrB_Matrix_clear (o->C) ;
    // variant 1: duplicates and no dup operator; 2: an index out of range
    return F->GrB_Matrix_build_INT32 (o->C, v == 2 ? Ibad : v ? Idup : I3, v ? Idup : I3, X3, 3,
        v == 1 ? NULL : GrB_PLUS_INT32) ;
}
static GrB_Info c_assign (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_assign (o->C, o->M, GrB_PLUS_INT32, v ? o->X : o->A, GrB_ALL, NM,
        GrB_ALL, NM, GrB_DESC_R) ;
}
static GrB_Info c_assign_scalar (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_assign_INT32 (o->C, o->M, NULL, 9, v ? Ibad : I3, 3, I3, 3, GrB_DESC_SC) ;
}
static GrB_Info c_subassign (const fns_t *F, objs_t *o, int v)
{
    return F->GxB_Matrix_subassign (o->C, NULL, GrB_MINUS_INT32, o->X, I7, v ? 3 : 7, I3, 3, NULL) ;
}
static GrB_Info c_subassign_scalar (const fns_t *F, objs_t *o, int v)
{
    return F->GxB_Matrix_subassign_Scalar (o->C, NULL, NULL, o->s, I3, 3, v ? Ibad : GrB_ALL, v ? 3 : NM, NULL) ;
}
static GrB_Info c_row_assign (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Row_assign (o->C, NULL, GrB_PLUS_INT32, o->u, v ? NM : 2, GrB_ALL, NM, NULL) ;
}
static GrB_Info c_apply (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_apply (o->C, o->M, NULL, GrB_AINV_INT32, v ? o->X : o->A, GrB_DESC_RSC) ;
}
static GrB_Info c_apply_bind (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_apply_BinaryOp1st_INT32 (o->C, NULL, GrB_PLUS_INT32,
        v ? NULL : GrB_MINUS_INT32, 4, o->A, GrB_DESC_T0) ;
}
static GrB_Info c_apply_idx (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_apply_IndexOp_INT32 (o->C, NULL, NULL, GrB_ROWINDEX_INT32,
        v ? o->X : o->A, 1, NULL) ;
}
static GrB_Info c_select (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_select_INT32 (o->C, NULL, NULL, v ? GrB_TRIL : GrB_VALUEGT_INT32,
        v ? o->X : o->A, 2, NULL) ;
}
static GrB_Info c_transpose (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_transpose (o->C, o->M, GrB_TIMES_INT32, v ? o->X : o->A, GrB_DESC_S) ;
}
static GrB_Info c_transpose_self (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_transpose (o->C, NULL, NULL, o->C, NULL) ;
}
static GrB_Info c_resize (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_resize (v ? NULL : o->C, 13, 4) ;
}
static GrB_Info c_clear (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_clear (v ? NULL : o->C) ;
}
static GrB_Info c_wait (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_wait (v ? NULL : o->C, GrB_MATERIALIZE) ;
}
static GrB_Info c_extract (const fns_t *F, objs_t *o, int v)
{
    F->GrB_Matrix_resize (o->C, 3, 3) ;
    return F->GrB_Matrix_extract (o->C, NULL, NULL, o->A, v ? Ibad : I3, 3, I3, 3, NULL) ;
}
static GrB_Info c_col_extract (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Col_extract (o->w, NULL, GrB_PLUS_INT32, o->A, GrB_ALL, NM, v ? NM : 5, NULL) ;
}
static GrB_Info c_kron (const fns_t *F, objs_t *o, int v)
{
    if (v == 0) F->GrB_Matrix_resize (o->C, NM * NM, NM * NM) ;
    return F->GrB_Matrix_kronecker_BinaryOp (o->C, NULL, NULL, GrB_TIMES_INT32, o->A, o->B, NULL) ;
}
static GrB_Info c_reduce (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_reduce_Monoid (o->w, NULL, GrB_PLUS_INT32, GrB_PLUS_MONOID_INT32,
        v ? o->X : o->A, GrB_DESC_T0) ;
}
static GrB_Info c_reduce_scalar (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_reduce_Monoid_Scalar (o->s, NULL, v ? NULL : GrB_MAX_MONOID_INT32, o->A, NULL) ;
}
static GrB_Info c_extract_scalar (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_Matrix_extractElement_Scalar (o->s, o->B, v ? NM : 2, 2) ;
}
static GrB_Info c_serialize (const fns_t *F, objs_t *o, int v)
{
    void *blob = NULL ;
    GrB_Index size = 0 ;
    GrB_Info info = F->GxB_Matrix_serialize (&blob, &size, o->A, NULL) ;
    if (info != GrB_SUCCESS) return info ;
    info = F->GxB_Matrix_deserialize (&o->out [0], NULL, blob, v ? size / 2 : size, NULL) ;
    free (blob) ;
    return info ;
}
static GrB_Info c_serialize_grb (const fns_t *F, objs_t *o, int v)
{
    GrB_Index size = 0 ;
    GrB_Info info = F->GrB_Matrix_serializeSize (&size, o->B) ;
    if (info != GrB_SUCCESS) return info ;
    void *blob = malloc (size) ;
    info = F->GrB_Matrix_serialize (blob, &size, o->B) ;
    if (info == GrB_SUCCESS)
        info = F->GrB_Matrix_deserialize (&o->out [0], v ? GrB_FP64 : GrB_INT32, blob, size) ;
    free (blob) ;
    return info ;
}
static GrB_Info c_unpack_pack (const fns_t *F, objs_t *o, int v)
{
    GrB_Index *Ap = NULL, *Aj = NULL, Ap_size, Aj_size, Ax_size ;
    void *Ax = NULL ;
    bool iso, jumbled ;
    GrB_Info info = F->GxB_Matrix_unpack_CSR (o->C, &Ap, &Aj, &Ax, &Ap_size, &Aj_size, &Ax_size,
        &iso, &jumbled, NULL) ;
    if (info != GrB_SUCCESS) return info ;
    info = F->GxB_Matrix_pack_CSR (o->C, &Ap, &Aj, &Ax, v ? 8 : Ap_size, Aj_size, Ax_size,
        iso, jumbled, NULL) ;
    free (Ap) ; free (Aj) ; free (Ax) ;     // NULL when packed
    return info ;
}
static GrB_Info c_export_import (const fns_t *F, objs_t *o, int v)
{
    GrB_Index *Ap = NULL, *Aj = NULL, Ap_size, Aj_size, Ax_size, nr, nc ;
    void *Ax = NULL ;
    bool iso, jumbled ;
    GrB_Type t ;
    o->gone = o->C ;
    GrB_Info info = F->GxB_Matrix_export_CSR (&o->C, &t, &nr, &nc, &Ap, &Aj, &Ax,
        &Ap_size, &Aj_size, &Ax_size, &iso, &jumbled, NULL) ;
    if (info != GrB_SUCCESS) return info ;
    info = F->GxB_Matrix_import_CSR (&o->out [0], v ? NULL : t, nr, nc, &Ap, &Aj, &Ax,
        Ap_size, Aj_size, Ax_size, iso, jumbled, NULL) ;
    free (Ap) ; free (Aj) ; free (Ax) ;
    return info ;
}
static GrB_Info c_export_import_grb (const fns_t *F, objs_t *o, int v)
{
    GrB_Index np, ni, nx ;
    GrB_Info info = F->GrB_Matrix_exportSize (&np, &ni, &nx, GrB_CSC_FORMAT, o->A) ;
    if (info != GrB_SUCCESS) return info ;
    GrB_Index *Ap = malloc ((np + 1) * sizeof (GrB_Index)), *Ai = malloc ((ni + 1) * sizeof (GrB_Index)) ;
    int32_t *Ax = malloc ((nx + 1) * sizeof (int32_t)) ;
    info = F->GrB_Matrix_export_INT32 (Ap, Ai, Ax, &np, &ni, &nx, GrB_CSC_FORMAT, o->A) ;
    if (info == GrB_SUCCESS)
        info = F->GrB_Matrix_import_INT32 (&o->out [0], GrB_INT32, NM, NM, Ap, Ai, Ax,
            v ? np - 1 : np, ni, nx, GrB_CSC_FORMAT) ;
    free (Ap) ; free (Ai) ; free (Ax) ;
    return info ;
}
static GrB_Info c_concat (const fns_t *F, objs_t *o, int v)
{
    GrB_Matrix tiles [4] = { o->A, o->B, o->B, o->A } ;
    if (v == 0) F->GrB_Matrix_resize (o->C, 2 * NM, 2 * NM) ;
    return F->GxB_Matrix_concat (o->C, tiles, 2, 2, NULL) ;
}
static GrB_Info c_split (const fns_t *F, objs_t *o, int v)
{
    GrB_Index r [2] = { 4, NM - 4 }, c [2] = { 7, v ? NM : NM - 7 } ;
    return F->GxB_Matrix_split (o->out, 2, 2, r, c, o->B, NULL) ;
}
static GrB_Info c_sort (const fns_t *F, objs_t *o, int v)
{
    return F->GxB_Matrix_sort (o->C, NULL, v ? GrB_PLUS_INT32 : GrB_LT_INT32, o->A, NULL) ;
}
static GrB_Info c_reshape (const fns_t *F, objs_t *o, int v)
{
    return F->GxB_Matrix_reshape (o->C, true, 5, v ? 21 : 20, NULL) ;
}
static GrB_Info c_reshape_dup (const fns_t *F, objs_t *o, int v)
{
    return F->GxB_Matrix_reshapeDup (&o->out [0], o->A, false, 2, v ? 49 : 50, NULL) ;
}
static GrB_Info c_diag (const fns_t *F, objs_t *o, int v)
{
    GrB_Info info = F->GrB_Matrix_diag (&o->out [0], o->u, v ? 0 : 2) ;
    if (info != GrB_SUCCESS) return info ;
    return F->GxB_Vector_diag (o->w, o->A, v ? 1 : 0, NULL) ;
}
static GrB_Info c_option (const fns_t *F, objs_t *o, int v)
{
    return F->GxB_Matrix_Option_set_INT32 (o->C, v ? (GxB_Option_Field) 9999 : GxB_SPARSITY_CONTROL,
        GxB_BITMAP) ;
}
static GrB_Info c_new_dup_free (const fns_t *F, objs_t *o, int v)
{
    GrB_Info info = F->GrB_Matrix_new (&o->out [0], v == 1 ? NULL : GrB_FP32, 4, v == 2 ? ((GrB_Index) 1 << 62) : 6) ;
    if (info != GrB_SUCCESS) return info ;
    info = F->GrB_Matrix_dup (&o->out [1], o->A) ;
    if (info != GrB_SUCCESS) return info ;
    info = F->GrB_Matrix_dup (&o->out [2], o->B) ;
    if (info != GrB_SUCCESS) return info ;
    return F->GrB_Matrix_free (&o->out [2]) ;
}
static GrB_Info c_free_null (const fns_t *F, objs_t *o, int v)
{
    GrB_Matrix none = NULL ;
    GrB_Info z = F->GrB_Matrix_free (NULL) ;    // both ignore NULL
    GrB_Info a = F->GrB_Matrix_free (&none) ;
    if (z != GrB_SUCCESS) return z ;
    o->gone = o->C ;
    GrB_Info b = F->GrB_Matrix_free (&o->C) ;
    return a != GrB_SUCCESS ? a : b ;
}
static GrB_Info c_mxm (const fns_t *F, objs_t *o, int v)
{
    return F->GrB_mxm (o->C, o->M, GrB_PLUS_INT32, GrB_PLUS_TIMES_SEMIRING_INT32,
        o->A, v ? o->X : o->B, GrB_DESC_SC) ;
}
static GrB_Info c_vector_ops (const fns_t *F, objs_t *o, int v)
{
    GrB_Info info = F->GrB_Vector_setElement_INT32 (o->w, 4, v == 1 ? NM : 3) ;
    if (info != GrB_SUCCESS) return info ;
    info = F->GrB_Vector_removeElement (o->w, 5) ;
    if (info != GrB_SUCCESS) return info ;
    info = F->GrB_Vector_assign (o->w, NULL, GrB_PLUS_INT32, o->u, GrB_ALL, NM, NULL) ;
    if (info != GrB_SUCCESS) return info ;
    info = F->GrB_Vector_apply (o->w, NULL, GrB_TIMES_INT32, GrB_ABS_INT32, o->u, NULL) ;
    if (info != GrB_SUCCESS) return info ;
    info = F->GrB_Vector_select_INT32 (o->w, NULL, NULL, GrB_VALUELT_INT32, o->w, 5, NULL) ;
    if (info != GrB_SUCCESS) return info ;
    info = F->GxB_Vector_sort (o->w, NULL, GrB_GT_INT32, o->u, NULL) ;
    if (info != GrB_SUCCESS) return info ;
    info = F->GrB_Vector_resize (o->w, v == 2 ? (GrB_Index) 1 << 62 : 20) ;
    if (info != GrB_SUCCESS) return info ;
    info = F->GrB_Vector_clear (o->w) ;
    if (info != GrB_SUCCESS) return info ;
    return F->GrB_Vector_build_INT32 (o->w, I3, X3, 3, GrB_PLUS_INT32) ;
}
static GrB_Info c_vector_new_free (const fns_t *F, objs_t *o, int v)
{
    GrB_Vector t = NULL ;
    GrB_Info info = F->GrB_Vector_new (&t, GrB_INT32, v ? 0 : 5) ;
    if (info != GrB_SUCCESS) return info ;
    info = F->GrB_Vector_setElement_INT32 (t, 1, v ? 1 : 4) ;
    GrB_Info info2 = F->GrB_Vector_free (&t) ;
    return info != GrB_SUCCESS ? info : info2 ;
}
static GrB_Info c_scalar (const fns_t *F, objs_t *o, int v)
{
    GrB_Info info = F->GrB_Scalar_setElement_INT32 (o->s, -4) ;
    if (info != GrB_SUCCESS || v == 0) return info ;
    return F->GrB_Scalar_clear (NULL) ;
}

static void test_sweep (void)
{
    run_case ("setElement", c_setel, 2, O_C) ;
    run_case ("setElement_Scalar", c_setel_scalar, 2, O_C | O_S) ;    // s is non-const there
    run_case ("setElement empty Scalar", c_setel_empty, 1, O_C | O_S) ;
    run_case ("removeElement", c_remove, 2, O_C) ;
    run_case ("build", c_build, 3, O_C) ;
    run_case ("assign", c_assign, 2, O_C) ;
    run_case ("assign scalar", c_assign_scalar, 2, O_C) ;
    run_case ("subassign", c_subassign, 2, O_C) ;
    run_case ("subassign scalar", c_subassign_scalar, 2, O_C | O_S) ;
    run_case ("row assign", c_row_assign, 2, O_C) ;
    run_case ("apply", c_apply, 2, O_C) ;
    run_case ("apply bind 1st", c_apply_bind, 2, O_C) ;
    run_case ("apply index op", c_apply_idx, 2, O_C) ;
    run_case ("select", c_select, 2, O_C) ;
    run_case ("transpose", c_transpose, 2, O_C) ;
    run_case ("transpose in place", c_transpose_self, 1, O_C) ;
    run_case ("resize", c_resize, 2, O_C) ;
    run_case ("clear", c_clear, 2, O_C) ;
    run_case ("wait", c_wait, 2, O_C) ;
    run_case ("extract", c_extract, 2, O_C) ;
    run_case ("col extract", c_col_extract, 2, O_W) ;
    run_case ("kronecker", c_kron, 2, O_C) ;
    run_case ("reduce to vector", c_reduce, 2, O_W) ;
    run_case ("reduce to scalar", c_reduce_scalar, 2, O_S) ;
    run_case ("extractElement to scalar", c_extract_scalar, 2, O_S) ;
    run_case ("GxB serialize/deserialize", c_serialize, 2, O_OUT) ;
    run_case ("GrB serialize/deserialize", c_serialize_grb, 2, O_OUT) ;
    run_case ("unpack/pack", c_unpack_pack, 2, O_C) ;
    run_case ("GxB export/import", c_export_import, 2, O_GONE | O_OUT) ;
    run_case ("GrB export/import", c_export_import_grb, 2, O_OUT) ;
    run_case ("concat", c_concat, 2, O_C) ;
    run_case ("split", c_split, 2, O_OUT) ;
    run_case ("sort", c_sort, 2, O_C | O_A) ;         // A is non-const (sorted in place if C)
    run_case ("reshape", c_reshape, 2, O_C) ;
    run_case ("reshapeDup", c_reshape_dup, 2, O_OUT | O_A) ;      // A non-const there
    run_case ("diag", c_diag, 2, O_OUT | O_W) ;
    run_case ("option set", c_option, 2, O_C) ;
    run_case ("new/dup/free", c_new_dup_free, 3, O_OUT) ;
    run_case ("free", c_free_null, 1, O_GONE) ;
    run_case ("mxm (hand-written)", c_mxm, 2, O_C) ;
    run_case ("vector ops", c_vector_ops, 3, O_W | O_U) ;    // sort's u is non-const
    run_case ("vector new/free", c_vector_new_free, 2, 0) ;
    run_case ("scalar", c_scalar, 2, O_S) ;
    printf ("%d cases, %d calls side by side\n", ncases, ncalls) ;
}

// A freed handle whose address a new object reuses is invalidated at the
// free (before SuiteSparse frees it) and again at the new.
static void test_reuse (void)
{
    int reused = 0 ;
    for (int t = 0 ; t < 20 ; t++)
    {
        GrB_Matrix A = NULL, B = NULL ;
        OK (GrB_Matrix_new (&A, GrB_INT32, 5, 5)) ;
        void *addr = A ;
        uint64_t e0 = api->epoch (addr) ;
        OK (GrB_Matrix_free (&A)) ;
        uint64_t e1 = api->epoch (addr) ;
        CHECK (e1 > e0, "free did not invalidate") ;
        OK (GrB_Matrix_new (&B, GrB_INT32, 5, 5)) ;
        if ((void *) B == addr)
        {
            reused++ ;
            CHECK (api->epoch (addr) > e1, "new at a reused address not invalidated") ;
        }
        OK (GrB_Matrix_free (&B)) ;
    }
    CHECK (reused > 0, "the allocator never reused an address") ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    gcu_test_types_init () ;
    typedef const gcu_internal_api *(*api_fn) (void) ;
    api_fn get = (api_fn) dlsym (RTLD_DEFAULT, "grbcuda__internal_api") ;
    if (get == NULL)
    {
        fprintf (stderr, "grbcuda is not in the process\n") ;
        return 1 ;
    }
    api = get () ;
    CHECK (api->version == GCU_INTERNAL_VERSION, "internal API version %d", api->version) ;
    Dl_info di ;
    dladdr ((void *) get, &di) ;
    grbcuda_base = di.dli_fbase ;
    test_coverage () ;
    fns_init () ;
    api->track (true) ;
    test_sweep () ;
    test_reuse () ;
    api->track (false) ;
    GrB_finalize () ;
    return gcu_test_report ("test_wrappers_invalidate") ;
}
