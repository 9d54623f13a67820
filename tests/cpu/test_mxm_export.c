// GRBCUDA_TEST_INTERNAL
// test_mxm_export.c — the operands the GrB_mxm GPU families upload
// (gcu_export_csr_copy: CSR of op(A), 64-bit, an iso value kept once) are
// exactly what SuiteSparse's own GrB_Matrix_export gives, for every type,
// storage (sparse, hypersparse, bitmap, full, by row or by column, iso,
// pending work) and both orientations; and the matrix is left as it was.
#include "gcu_test.h"
#include <stdlib.h>
#include <string.h>
#if GRBCUDA_HAVE_CUDA
#include "mxm/gcu_mxm.h"

typedef GrB_Info (*export_fn) (GrB_Index *, GrB_Index *, void *, GrB_Index *,
    GrB_Index *, GrB_Index *, GrB_Format, GrB_Matrix) ;

static export_fn export_of (int k)
{
    export_fn f [13] = { (export_fn) GrB_Matrix_export_BOOL, (export_fn) GrB_Matrix_export_INT8,
        (export_fn) GrB_Matrix_export_INT16, (export_fn) GrB_Matrix_export_INT32,
        (export_fn) GrB_Matrix_export_INT64, (export_fn) GrB_Matrix_export_UINT8,
        (export_fn) GrB_Matrix_export_UINT16, (export_fn) GrB_Matrix_export_UINT32,
        (export_fn) GrB_Matrix_export_UINT64, (export_fn) GrB_Matrix_export_FP32,
        (export_fn) GrB_Matrix_export_FP64, (export_fn) GxB_Matrix_export_FC32,
        (export_fn) GxB_Matrix_export_FC64 } ;
    return f [k] ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    gcu_test_types_init () ;
    uint64_t st = 5 ;
    int cases = 0 ;
    for (int trial = 0 ; trial < 400 ; trial++)
    {
        int k = (int) (gcu_rand (&st) % 13) ;
        GrB_Type t = gcu_test_types [k] ;
        size_t tsize ;
        GxB_Type_size (&tsize, t) ;
        GrB_Index m = gcu_rand (&st) % 60, n = gcu_rand (&st) % 60 ;
        double d = (gcu_rand (&st) % 5 == 0) ? 1.0 : gcu_rand01 (&st) * 0.4 ;
        GrB_Matrix A = gcu_test_random_matrix (t, m, n, d, &st) ;
        bool transpose = gcu_rand (&st) % 2 ;
        // the reference first: SuiteSparse's export finishes pending work too
        GrB_Format fmt = transpose ? GrB_CSC_FORMAT : GrB_CSR_FORMAT ;
        GrB_Index np, nj, nx ;
        OK (GrB_Matrix_exportSize (&np, &nj, &nx, fmt, A)) ;
        GrB_Index *P = malloc ((np + 1) * 8), *J = malloc ((nj + 1) * 8) ;
        void *X = malloc ((nx + 1) * tsize) ;
        OK (export_of (k) (P, J, X, &np, &nj, &nx, fmt, A)) ;
        GrB_Matrix before = NULL ;
        GrB_Matrix_dup (&before, A) ;
        gcu_host_csr h ;
        OK (gcu_export_csr_copy (A, transpose, tsize, &h)) ;
        CHECK (h.np == np && h.nj == nj, "trial %d: sizes %llu/%llu vs %llu/%llu", trial,
            (unsigned long long) h.np, (unsigned long long) h.nj,
            (unsigned long long) np, (unsigned long long) nj) ;
        if (h.np == np && h.nj == nj)
        {
            CHECK (memcmp (h.p, P, np * 8) == 0, "trial %d: row pointers differ", trial) ;
            CHECK (memcmp (h.j, J, nj * 8) == 0, "trial %d: indices differ", trial) ;
            // values: one iso value stands for all of SuiteSparse's copies
            bool same = true ;
            for (GrB_Index e = 0 ; e < nj && same ; e++)
            {
                const char *mine = (const char *) h.x + (h.nx < h.nj ? 0 : e) * tsize ;
                const char *ref = (const char *) X + (nx < nj ? 0 : e) * tsize ;
                same = memcmp (mine, ref, tsize) == 0 ;
            }
            CHECK (same, "trial %d (%s): values differ", trial, gcu_test_type_names [k]) ;
        }
        CHECK (gcu_test_matrix_equal (A, before, 0, false, "export left A"), "trial %d: A changed", trial) ;
        gcu_host_csr_free (&h) ;
        free (P) ; free (J) ; free (X) ;
        GrB_Matrix_free (&A) ; GrB_Matrix_free (&before) ;
        cases++ ;
    }
    printf ("%d exports compared with GrB_Matrix_export\n", cases) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_mxm_export") ;
}
#else
int main (void)
{
    printf ("SKIP: built without CUDA (no GPU families to feed)\n") ;
    return GCU_TEST_SKIP ;
}
#endif
