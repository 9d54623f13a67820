// test_residency_gpu.c — GrB_mxm's operands in the residency cache, seen as
// a program sees them (linked with libgrbcuda, GraphBLAS calls through it):
// a matrix used twice unchanged is uploaded once (the second use is a cache
// hit), and after each family of mutating calls (setElement, removeElement,
// assign, apply, build after clear, resize, wait, pack/unpack, GrB_mxm
// writing it as C, also with C aliased with A, and free-then-new at the same
// address) the next use sees the new content: the answer is always
// SuiteSparse's (computed with grbcuda in host mode), for the saxpy family
// (C = X*Y) and the masked dot family (C<X> = X*Y', X as the mask, and the
// triangle-counting shape C<X> = X*X'). Hits and misses are read from the
// cache's statistics through the internal test hook (gcu_internal.h).
// Skips (exit 77) where no GPU is usable.
#define _GNU_SOURCE
#include "gcu_test.h"
#include "grbcuda.h"
#include "../../src/api/gcu_internal.h"
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static const gcu_internal_api *api ;
static const GrB_Index N = 300 ;

// What one GPU call did to the cache.
typedef struct { int64_t hits, misses ; bool gpu ; } use_t ;

// C = X*Y (dot false) or C<X> = X*Y' (dot true) on the GPU, compared with
// the same call in host mode (SuiteSparse).
static use_t use (GrB_Matrix X, GrB_Matrix Y, bool dot, const char *what)
{
    use_t u = { 0, 0, false } ;
    GrB_Matrix C1 = NULL, C2 = NULL ;
    GrB_Index m, n ;
    GrB_Matrix_nrows (&m, X) ;
    GrB_Matrix_nrows (&n, Y) ;      // Y is square here
    GrB_Matrix_new (&C1, GrB_FP64, m, n) ;
    GrB_Matrix_new (&C2, GrB_FP64, m, n) ;
    GrB_Matrix M = dot ? X : NULL ;
    GrB_Descriptor d = dot ? GrB_DESC_T1 : NULL ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_HOST)) ;
    OK (GrB_mxm (C2, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, X, Y, d)) ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    gcu_res_stats r0, r1 ;
    grbcuda_op_stats s0, s1 ;
    api->stats (&r0) ;
    grbcuda_stats_get ("GrB_mxm", &s0) ;
    OK (GrB_mxm (C1, M, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, X, Y, d)) ;
    grbcuda_stats_get ("GrB_mxm", &s1) ;
    api->stats (&r1) ;
    u.hits = (int64_t) (r1.hits - r0.hits) ;
    u.misses = (int64_t) (r1.misses - r0.misses) ;
    u.gpu = (s1.gpu == s0.gpu + 1) ;
    CHECK (u.gpu, "%s: did not run on the GPU", what) ;
    CHECK (gcu_test_matrix_equal (C1, C2, 1e-12, false, what), "%s: differs from SuiteSparse", what) ;
    GrB_Matrix_free (&C1) ;
    GrB_Matrix_free (&C2) ;
    return u ;
}

// X's new value was left on the device by the GPU call that made it
// (DESIGN §3: a GrB_mxm result stays as X's newest value): its copy is there
static bool x_on_device ;

// X changed (or is new): the next use misses on X (and only on X), unless
// the GPU left X's new value on the device (a hit), gives the new answer,
// and the use after it hits on everything.
static void after_change (GrB_Matrix X, GrB_Matrix Y, bool dot, const char *what)
{
    char w [160] ;
    snprintf (w, sizeof (w), "%s%s, first use", what, dot ? " (dot)" : "") ;
    use_t u = use (X, Y, dot, w) ;
    // saxpy: X and Y acquired; dot: the mask X, then X as A is the same
    // copy, and Y by row (as B') is acquired
    const int64_t miss = x_on_device ? 0 : 1 ;
    CHECK (u.misses == miss && u.hits == 2 - miss, "%s: %lld misses, %lld hits (expected %lld and %lld)",
        w, (long long) u.misses, (long long) u.hits, (long long) miss, (long long) (2 - miss)) ;
    snprintf (w, sizeof (w), "%s%s, second use", what, dot ? " (dot)" : "") ;
    u = use (X, Y, dot, w) ;
    CHECK (u.misses == 0 && u.hits == 2, "%s: %lld misses, %lld hits (expected 0 and 2)",
        w, (long long) u.misses, (long long) u.hits) ;
}

static void check_family (GrB_Matrix X, GrB_Matrix Y, const char *what)
{
    after_change (X, Y, false, what) ;
    // the dot use publishes nothing new for X (its CSR is cached): one more
    // round of uses must all hit
    use_t u = use (X, Y, true, what) ;
    CHECK (u.misses <= 1, "%s (dot): %lld misses", what, (long long) u.misses) ;
    u = use (X, Y, true, what) ;
    CHECK (u.misses == 0 && u.hits == 2, "%s (dot), again: %lld misses, %lld hits", what,
        (long long) u.misses, (long long) u.hits) ;
}

// An entry of X (its first in row order); false if X is empty.
static bool some_entry (GrB_Matrix X, GrB_Index *i, GrB_Index *j)
{
    GrB_Index nvals = 0 ;
    GrB_Matrix_nvals (&nvals, X) ;
    if (nvals == 0) return false ;
    GrB_Index *I = malloc (nvals * sizeof (GrB_Index)), *J = malloc (nvals * sizeof (GrB_Index)) ;
    double *V = malloc (nvals * sizeof (double)) ;
    GrB_Matrix_extractTuples_FP64 (I, J, V, &nvals, X) ;
    *i = I [nvals / 2] ;
    *j = J [nvals / 2] ;
    free (I) ; free (J) ; free (V) ;
    return true ;
}

// A new matrix through grbcuda's own wrappers (GrB_Matrix_new, build).
static GrB_Matrix fresh (uint64_t *st, double scale)
{
    GrB_Matrix X = NULL ;
    OK (GrB_Matrix_new (&X, GrB_FP64, N, N)) ;
    const GrB_Index nt = 2500 ;
    GrB_Index *I = malloc (nt * sizeof (GrB_Index)), *J = malloc (nt * sizeof (GrB_Index)) ;
    double *V = malloc (nt * sizeof (double)) ;
    for (GrB_Index k = 0 ; k < nt ; k++)
    {
        I [k] = gcu_rand (st) % N ;
        J [k] = gcu_rand (st) % N ;
        V [k] = scale * (1 + (double) (gcu_rand (st) % 100)) ;
    }
    OK (GrB_Matrix_build_FP64 (X, I, J, V, nt, GrB_PLUS_FP64)) ;
    free (I) ; free (J) ; free (V) ;
    return X ;
}

// auto mode's push work (gcu_operand_push_work) from the pointers X's
// resident CSR keeps on the host: the sum of the rows u lists, against the
// rows counted through SuiteSparse; nothing where it cannot know
static void push_work_checks (GrB_Matrix X)
{
    GrB_Vector u = NULL ;
    OK (GrB_Vector_new (&u, GrB_INT64, N)) ;
    double expect = 0 ;
    const GrB_Index rows [3] = { 3, 150, N - 1 } ;
    for (int k = 0 ; k < 3 ; k++)
    {
        OK (GrB_Vector_setElement_INT64 (u, 1, rows [k])) ;
        for (GrB_Index j = 0 ; j < N ; j++)
        {
            double x ;
            if (GrB_Matrix_extractElement_FP64 (&x, X, rows [k], j) == GrB_SUCCESS) expect++ ;
        }
    }
    double w = -1 ;
    CHECK (api->push_work (X, false, u, 3, 1024, &w) && w == expect,
        "push work of rows 3, 150, %llu: %g (expected %g)", (unsigned long long) N - 1, w, expect) ;
    w = -1 ;
    CHECK (!api->push_work (X, false, u, 3, 2, &w) && w == -1, "push work past `most` answered %g", w) ;
    CHECK (!api->push_work (X, true, u, 3, 1024, &w) && w == -1,
        "push work by column (not resident) answered %g", w) ;
    CHECK (!api->push_work (u, false, u, 3, 1024, &w) && w == -1, "push work of a non-resident object answered %g", w) ;
    GrB_Vector_free (&u) ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!grbcuda_gpu_available ())
    {
        printf ("SKIP: no usable GPU; test_residency_gpu needs one\n") ;
        GrB_finalize () ;
        return GCU_TEST_SKIP ;
    }
    typedef const gcu_internal_api *(*api_fn) (void) ;
    api_fn get = (api_fn) dlsym (RTLD_DEFAULT, "grbcuda__internal_api") ;
    if (get == NULL)
    {
        fprintf (stderr, "grbcuda is not in the process\n") ;
        return 1 ;
    }
    api = get () ;
    CHECK (api->version == GCU_INTERNAL_VERSION, "internal API version %d", api->version) ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    uint64_t st = 99 ;
    GrB_Matrix X = fresh (&st, 1), Y = fresh (&st, 0.5) ;
    GrB_Index i, j ;

    // first uses: both miss; then everything hits
    use_t u = use (X, Y, false, "first use") ;
    CHECK (u.misses == 2 && u.hits == 0, "first use: %lld misses, %lld hits", (long long) u.misses, (long long) u.hits) ;
    push_work_checks (X) ;
    u = use (X, Y, false, "unchanged") ;
    CHECK (u.misses == 0 && u.hits == 2, "unchanged: %lld misses, %lld hits (expected 0 and 2)",
        (long long) u.misses, (long long) u.hits) ;
    // C = X*X and the triangle-counting shape take one copy of X
    u = use (X, X, false, "X*X") ;
    CHECK (u.misses == 0 && u.hits == 1, "X*X: %lld misses, %lld hits (expected 0 and 1)",
        (long long) u.misses, (long long) u.hits) ;
    u = use (X, X, true, "C<X>=X*X'") ;
    CHECK (u.misses == 0 && u.hits == 1, "C<X>=X*X': %lld misses, %lld hits (expected 0 and 1)",
        (long long) u.misses, (long long) u.hits) ;

    // setElement (pending work, finished by the next export, which must not
    // make the new copy stale)
    OK (GrB_Matrix_setElement_FP64 (X, 42.5, 3, 7)) ;
    check_family (X, Y, "setElement") ;
    // removeElement
    if (some_entry (X, &i, &j)) OK (GrB_Matrix_removeElement (X, i, j)) ;
    check_family (X, Y, "removeElement") ;
    // assign (a scalar into a block)
    {
        GrB_Index I [3] = { 1, 50, 299 }, J [3] = { 0, 2, 200 } ;
        OK (GrB_Matrix_assign_FP64 (X, NULL, NULL, 3.25, I, 3, J, 3, NULL)) ;
    }
    check_family (X, Y, "assign") ;
    // apply, in place
    OK (GrB_Matrix_apply (X, NULL, NULL, GrB_AINV_FP64, X, NULL)) ;
    check_family (X, Y, "apply") ;
    // build after clear
    {
        OK (GrB_Matrix_clear (X)) ;
        GrB_Index I [4] = { 0, 1, 2, 299 }, J [4] = { 5, 5, 7, 0 } ;
        double V [4] = { 1, 2, 3, 4 } ;
        OK (GrB_Matrix_build_FP64 (X, I, J, V, 4, GrB_PLUS_FP64)) ;
    }
    check_family (X, Y, "build after clear") ;
    GrB_Matrix_free (&X) ;
    X = fresh (&st, 2) ;
    check_family (X, Y, "a new X") ;
    // resize: down (the last row and column go) and back up
    OK (GrB_Matrix_resize (X, N - 1, N - 1)) ;
    OK (GrB_Matrix_resize (X, N, N)) ;
    check_family (X, Y, "resize") ;
    // wait (invalidates, conservatively; the answer must not change)
    OK (GrB_Matrix_setElement_FP64 (X, -1, 9, 9)) ;
    OK (GrB_Matrix_wait (X, GrB_MATERIALIZE)) ;
    check_family (X, Y, "setElement + wait") ;
    // unpack, change the values, pack
    {
        GrB_Index *Ap = NULL, *Aj = NULL, Ap_size, Aj_size, Ax_size ;
        void *Ax = NULL ;
        bool iso = false, jumbled = false ;
        OK (GxB_Matrix_unpack_CSR (X, &Ap, &Aj, &Ax, &Ap_size, &Aj_size, &Ax_size, &iso, &jumbled, NULL)) ;
        size_t nx = Ax_size / sizeof (double) ;
        if (iso) nx = 1 ;
        for (size_t k = 0 ; k < nx ; k++) ((double *) Ax) [k] *= 3 ;
        OK (GxB_Matrix_pack_CSR (X, &Ap, &Aj, &Ax, Ap_size, Aj_size, Ax_size, iso, jumbled, NULL)) ;
    }
    check_family (X, Y, "unpack/pack") ;
    // X written by GrB_mxm on the GPU as C (another product), then as C
    // aliased with A (X = X*Y)
    {
        GrB_Matrix Z = fresh (&st, 1.5), Xref = NULL ;
        OK (GrB_mxm (X, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, Z, Y, NULL)) ;
        x_on_device = true ;
        check_family (X, Y, "X = Z*Y") ;
        OK (GrB_Matrix_new (&Xref, GrB_FP64, N, N)) ;
        OK (grbcuda_set_mode (GRBCUDA_MODE_HOST)) ;
        OK (GrB_mxm (Xref, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, X, Y, NULL)) ;
        OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
        OK (GrB_mxm (X, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, X, Y, NULL)) ;
        CHECK (gcu_test_matrix_equal (X, Xref, 1e-12, false, "X = X*Y"), "X = X*Y differs from SuiteSparse") ;
        check_family (X, Y, "X = X*Y") ;
        // and masked, C<X,replace> = X*Y' written into X itself: with
        // GrB_REPLACE, T (inside the mask) is X's new value, left on the
        // device too
        OK (grbcuda_set_mode (GRBCUDA_MODE_HOST)) ;
        OK (GrB_mxm (Xref, X, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, X, Y, GrB_DESC_RT1)) ;
        OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
        OK (GrB_mxm (X, X, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, X, Y, GrB_DESC_RT1)) ;
        CHECK (gcu_test_matrix_equal (X, Xref, 1e-12, false, "X<X> = X*Y'"), "X<X> = X*Y' differs from SuiteSparse") ;
        check_family (X, Y, "X<X> = X*Y'") ;
        x_on_device = false ;
        GrB_Matrix_free (&Z) ;
        GrB_Matrix_free (&Xref) ;
    }
    // free, then new objects of the same size until one lands at X's
    // address: the old copy must not be taken for the new object's
    {
        const void *old = X ;
        GrB_Matrix_free (&X) ;
        GrB_Matrix keep [16] ;
        int nkeep = 0, reused = 0 ;
        for (int t = 0 ; t < 16 && X == NULL ; t++)
        {
            GrB_Matrix Z = fresh (&st, 4 + t) ;
            if ((const void *) Z == old) { X = Z ; reused = 1 ; }
            else keep [nkeep++] = Z ;
        }
        if (!reused) X = keep [--nkeep] ;
        printf ("free-then-new: %s\n", reused ? "a new matrix reused the freed address"
            : "the address was not reused (checked a new matrix anyway)") ;
        check_family (X, Y, reused ? "new at a freed address" : "new after a free") ;
        for (int k = 0 ; k < nkeep ; k++) GrB_Matrix_free (&keep [k]) ;
    }
    // Y changed too: the other operand's copy is dropped as well
    OK (GrB_Matrix_setElement_FP64 (Y, 1.0, 0, 0)) ;
    u = use (X, Y, false, "Y changed") ;
    CHECK (u.misses == 1 && u.hits == 1, "Y changed: %lld misses, %lld hits", (long long) u.misses, (long long) u.hits) ;

    gcu_res_stats rs ;
    api->stats (&rs) ;
    printf ("cache: %llu hits, %llu misses, %llu publishes, %llu stale, %llu invalidations, "
        "%zu entries, %zu bytes\n", (unsigned long long) rs.hits, (unsigned long long) rs.misses,
        (unsigned long long) rs.publishes, (unsigned long long) rs.stale,
        (unsigned long long) rs.invalidations, rs.entries, rs.bytes_used) ;
    CHECK (rs.stale == 0, "%llu copies went stale while they were made", (unsigned long long) rs.stale) ;
    GrB_Matrix_free (&X) ;
    GrB_Matrix_free (&Y) ;
    grbcuda_set_mode (GRBCUDA_MODE_AUTO) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_residency_gpu") ;
}
