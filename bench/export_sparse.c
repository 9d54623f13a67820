// export_sparse.c — the export of a sparse or hypersparse matrix out of
// SuiteSparse (src/export: a GPU call's operand path before its upload), in
// its storage orientation and across it, from a few entries to many in a
// 1M-by-1M matrix, against SuiteSparse's own change of orientation in the
// same run (GrB_Matrix_dup, then GxB_FORMAT by column and GrB_Matrix_wait).
//
//   export_sparse [n] [repeats]     (default 1048576, 5; median shown)
//
// Prints a Markdown table of milliseconds. Host only; links grbcuda_static
// for the internal gcu_export_csr.
#include "export/gcu_export.h"
#include "gcu_util.h"
#include <stdio.h>
#include <stdlib.h>

static int cmp (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b ;
    return (x > y) - (x < y) ;
}

static double median (double *t, int n)
{
    qsort (t, (size_t) n, sizeof (double), cmp) ;
    return t [n / 2] ;
}

// the export of A as layout (a CSC of a matrix held by row crosses), ms
static double export_ms (GrB_Matrix A, gcu_export_layout layout, int repeats)
{
    double t [64] ;
    for (int r = 0 ; r < repeats ; r++)
    {
        gcu_export_opts o = { layout, 0, false, 0 } ;
        gcu_csr c ;
        const double t0 = gcu_now () ;
        GrB_Info info = gcu_export_csr (A, false, &o, &c) ;
        t [r] = 1e3 * (gcu_now () - t0) ;
        if (info != GrB_SUCCESS) { printf ("export failed: %d\n", (int) info) ; return -1 ; }
        gcu_csr_free (&c) ;
    }
    return median (t, repeats) ;
}

static double suitesparse_ms (GrB_Matrix A, int repeats)
{
    double t [64] ;
    for (int r = 0 ; r < repeats ; r++)
    {
        GrB_Matrix D = NULL ;
        const double t0 = gcu_now () ;
        GrB_Matrix_dup (&D, A) ;
        GxB_Matrix_Option_set (D, GxB_FORMAT, GxB_BY_COL) ;
        GrB_Matrix_wait (D, GrB_MATERIALIZE) ;
        t [r] = 1e3 * (gcu_now () - t0) ;
        GrB_Matrix_free (&D) ;
    }
    return median (t, repeats) ;
}

int main (int argc, char **argv)
{
    const GrB_Index n = argc > 1 ? strtoull (argv [1], NULL, 10) : 1048576 ;
    int repeats = argc > 2 ? atoi (argv [2]) : 5 ;
    if (repeats < 1 || repeats > 64) repeats = 5 ;
    if (GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS) return 1 ;
    printf ("| entries | storage | same orientation (CSR) ms | across (CSC) ms | SuiteSparse to by-column ms |\n") ;
    printf ("|---|---|---|---|---|\n") ;
    const GrB_Index nzs [] = { 424, 16384, 262144, 4194304 } ;
    uint64_t st = 1 ;
    for (int z = 0 ; z < 4 ; z++)
    {
        const GrB_Index nz = nzs [z] ;
        GrB_Index *I = malloc (nz * sizeof (GrB_Index)), *J = malloc (nz * sizeof (GrB_Index)) ;
        uint32_t *X = malloc (nz * sizeof (uint32_t)) ;
        if (I == NULL || J == NULL || X == NULL) return 1 ;
        for (GrB_Index k = 0 ; k < nz ; k++)
        {
            st = st * 6364136223846793005ull + 1442695040888963407ull ;
            I [k] = (st >> 20) % n ;
            st = st * 6364136223846793005ull + 1442695040888963407ull ;
            J [k] = (st >> 20) % n ;
            X [k] = (uint32_t) k ;
        }
        for (int hyper = 0 ; hyper <= 1 ; hyper++)
        {
            GrB_Matrix A = NULL ;
            GrB_Matrix_new (&A, GrB_UINT32, n, n) ;
            GrB_Matrix_build_UINT32 (A, I, J, X, nz, GrB_PLUS_UINT32) ;
            GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, hyper ? GxB_HYPERSPARSE : GxB_SPARSE) ;
            GrB_Matrix_wait (A, GrB_MATERIALIZE) ;
            printf ("| %llu | %s by row | %.3f | %.3f | %.3f |\n", (unsigned long long) nz,
                hyper ? "hypersparse" : "sparse", export_ms (A, GCU_EXPORT_CSR, repeats),
                export_ms (A, GCU_EXPORT_CSC, repeats), suitesparse_ms (A, repeats)) ;
            GrB_Matrix_free (&A) ;
        }
        free (I) ; free (J) ; free (X) ;
    }
    GrB_finalize () ;
    return 0 ;
}
