// GRBCUDA_TEST_INTERNAL
// test_iso_rule.c — gcu_iso_product (semirings/gcu_iso.h) against SuiteSparse
// itself: for every semiring GraphBLAS.h declares (positional ones too) and
// random small operands (iso or not, one entry, empty, diagonal; sparse,
// hypersparse, bitmap or full), C = A*B computed by SuiteSparse alone
// (GrB_mxm, no mask, no accum, C new) is iso exactly where the rule says,
// with the value it says (gcu_iso_product_n: with the inner dimension, which
// decides two full iso operands when it is 1); then C<M> = A*B into a
// drawn C (gcu_iso_masked).
// Cases the rules cannot decide (-1) are counted. GRBCUDA_ISO_SEED: another
// draw.
#include "gcu_test.h"
#include "gcu_test_iso.h"
#include <stdlib.h>
#include <string.h>

typedef GrB_Info (*mxm_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
static mxm_t real_mxm ;
static uint64_t rng = 88172645463325252ull ;
static uint64_t next (void) { return gcu_rand (&rng) ; }

// a random operand of type t: kind 0 iso, 1 values, 2 one entry, 3 empty,
// 4 the diagonal (square), 5 every entry present and iso
static GrB_Matrix operand (const gcu_type_info *t, GrB_Index m, GrB_Index n, int kind)
{
    GrB_Matrix A = NULL ;
    if (GrB_Matrix_new (&A, *t->handle, m, n) != GrB_SUCCESS) return NULL ;
    GrB_Scalar s = NULL ;
    (void) GrB_Scalar_new (&s, GrB_INT64) ;
    const int64_t iso_v = (int64_t) (next () % 3) ;     // 0 among them: a zero iso value
    const GrB_Index cap = m * n ;
    GrB_Index count = kind == 2 ? 1 : kind == 3 ? 0 : kind == 4 ? (m < n ? m : n) : kind == 5 ? cap : 1 + next () % cap ;
    for (GrB_Index e = 0 ; e < count ; e++)
    {
        GrB_Index i = next () % m, j = next () % n ;
        if (kind == 4) i = j = e ;
        if (kind == 5) { i = e / n ; j = e % n ; }
        const int64_t v = (kind == 0 || kind == 5) ? iso_v : (int64_t) (next () % 5) - 1 ;
        (void) GrB_Scalar_setElement_INT64 (s, v) ;
        (void) GrB_Matrix_setElement_Scalar (A, s, i, j) ;
    }
    (void) GrB_Matrix_wait (A, GrB_MATERIALIZE) ;
    static const int sp [4] = { GxB_SPARSE, GxB_HYPERSPARSE, GxB_BITMAP, GxB_FULL } ;
    (void) GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, sp [next () % 4]) ;
    GrB_Scalar_free (&s) ;
    return A ;
}

// A square with its whole diagonal and nothing else (GB_is_diagonal)
static bool is_diagonal (GrB_Matrix A)
{
    GrB_Index m = 0, n = 0, nv = 0 ;
    (void) GrB_Matrix_nrows (&m, A) ; (void) GrB_Matrix_ncols (&n, A) ; (void) GrB_Matrix_nvals (&nv, A) ;
    if (m != n || nv != n) return false ;
    GrB_Index I [8], J [8], k = 8 ;
    if (n > 8 || GrB_Matrix_extractTuples_BOOL (I, J, NULL, &k, A) != GrB_SUCCESS) return false ;
    for (GrB_Index e = 0 ; e < k ; e++) if (I [e] != J [e]) return false ;
    return true ;
}


// C<M> = A*B (no accum) by SuiteSparse, C and M drawn (iso or not, one
// entry, empty; M of any type, valued or structural, complemented or not,
// GrB_REPLACE or not; a fifth with no mask) against gcu_iso_masked on T's
// status. The rule decides the calls without a mask, those whose valued iso
// mask is zero (no mask, complemented), and leaves the others undecided.
static long mcases, miso, mundecided, mwrong ;
static void masked_case (const gcu_semiring_desc *sr, GrB_Semiring s, const char *name,
    GrB_Matrix A, GrB_Matrix B, int t_plain, const void *v_plain, int t_masked, const void *v_masked)
{
    GrB_Index m = 0, n = 0 ;
    (void) GrB_Matrix_nrows (&m, A) ; (void) GrB_Matrix_ncols (&n, B) ;
    const gcu_type_info *tz = gcu_type_builtin (sr->add.op.z.handle) ;
    const gcu_type_info *tm = (next () % 2) ? &gcu_types [GCU_T_BOOL] : &gcu_types [next () % GCU_NTYPES] ;
    if (tz == NULL) return ;
    const int kc = (int) (next () % 6), km = (int) (next () % 6) ;
    GrB_Matrix C = operand (tz, m, n, kc == 4 ? 1 : kc), M = operand (tm, m, n, km == 4 ? 0 : km) ;
    const bool st = next () % 3 == 0, comp = next () % 2, repl = next () % 2, no_mask = next () % 5 == 0 ;
    const int t_rule = no_mask ? t_plain : t_masked ;
    const void *t_value = no_mask ? v_plain : v_masked ;
    GrB_Descriptor d = gcu_test_desc (st, comp, repl, false, false) ;
    CHECK (d != NULL, "no descriptor") ;
    uint8_t cbuf [GCU_VALUE_MAX], mbuf [GCU_VALUE_MAX], z [GCU_VALUE_MAX] ;
    gcu_iso_operand oc, om ;
    OK (gcu_iso_operand_of (C, cbuf, &oc)) ;
    OK (gcu_iso_operand_of (M, mbuf, &om)) ;
    const GrB_Info info = real_mxm (C, no_mask ? NULL : M, NULL, s, A, B, d) ;
    if (info == GrB_SUCCESS)
    {
        memset (z, 0, sizeof (z)) ;
        GrB_Index cn = 0 ;
        OK (GrB_Matrix_nvals (&cn, C)) ;
        const int rule = gcu_iso_masked (t_rule, t_value, tz->size, &oc, no_mask ? NULL : &om, st, comp,
            repl, (int64_t) cn, z) ;
        bool c_iso ;
        const int same = gcu_test_iso_agrees (C, rule, z, tz->size, &c_iso, &cn) ;
        mcases++ ;
        if (same < 0) mundecided++ ;
        else
        {
            miso += c_iso ;
            if (!same && mwrong++ < 30)
                CHECK (false, "%s masked: T rule %d, C before %s kind %d (iso %d, %llu entries), M %s kind %d "
                    "(iso %d, %llu entries)%s, struct %d comp %d replace %d: rule %d, SuiteSparse's C iso %d "
                    "(%llu entries)", name, t_rule, tz->name, kc, oc.iso, (unsigned long long) oc.nvals,
                    tm->name, km, om.iso, (unsigned long long) om.nvals, no_mask ? " (no mask)" : "", st,
                    comp, repl, rule, c_iso, (unsigned long long) cn) ;
            else if (same) gcu_test_passed++ ;
        }
    }
    GrB_Descriptor_free (&d) ;
    GrB_Matrix_free (&C) ;
    GrB_Matrix_free (&M) ;
}

// Why the status matters (SuiteSparse alone): w<!M> = op(u, 0) with a valued
// BOOL mask one longer than w succeeds where M is iso false (GB_get_mask
// turns it into no mask, complemented, before the size is checked), and is
// GrB_DIMENSION_MISMATCH where M holds the same values but is not iso
// (differential tester seed 13502880242177317083, case 6288)
static void mask_quirk (void)
{
    typedef GrB_Info (*apply_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
        const GrB_BinaryOp, const GrB_Vector, uint64_t, const GrB_Descriptor) ;
    apply_t apply = (apply_t) gcu_test_real ("GrB_Vector_apply_BinaryOp2nd_UINT64") ;
    CHECK (apply != NULL, "SuiteSparse's GrB_Vector_apply_BinaryOp2nd_UINT64 not found") ;
    if (apply == NULL) return ;
    for (int iso = 0 ; iso < 2 ; iso++)
    {
        GrB_Vector w = NULL, u = NULL, M = NULL ;
        GrB_Descriptor d = NULL ;
        OK (GrB_Vector_new (&w, GrB_INT16, 60)) ;
        OK (GrB_Vector_new (&u, GrB_BOOL, 60)) ;
        OK (GrB_Vector_new (&M, GrB_BOOL, 61)) ;
        OK (GrB_Vector_setElement_BOOL (u, true, 3)) ;
        GrB_Index I [2] = { 1, 5 } ;
        bool X [2] = { false, iso ? false : true } ;
        OK (GrB_Vector_build_BOOL (M, I, X, 2, GrB_LOR)) ;
        if (!iso) OK (GrB_Vector_setElement_BOOL (M, false, 5)) ;
        OK (GrB_Vector_wait (M, GrB_MATERIALIZE)) ;
        bool m_iso = !iso ;
        OK (GxB_Vector_iso (&m_iso, M)) ;
        OK (GrB_Descriptor_new (&d)) ;
        OK (GrB_Descriptor_set (d, GrB_MASK, GrB_COMP)) ;
        const GrB_Info info = apply (w, M, NULL, GrB_GT_UINT64, u, 0, d) ;
        CHECK (m_iso == (iso == 1) && info == (iso ? GrB_SUCCESS : GrB_DIMENSION_MISMATCH),
            "M iso %d: info %d", (int) m_iso, (int) info) ;
        GrB_Vector_free (&w) ; GrB_Vector_free (&u) ; GrB_Vector_free (&M) ;
        GrB_Descriptor_free (&d) ;
    }
}

int main (void)
{
    const char *seed = getenv ("GRBCUDA_ISO_SEED") ;       // another draw
    if (seed != NULL && strtoull (seed, NULL, 0) != 0) rng = strtoull (seed, NULL, 0) ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    real_mxm = (mxm_t) gcu_test_real ("GrB_mxm") ;
    char path [1024] ;
    char *h = gcu_test_graphblas_h (GCU_GRAPHBLAS_H, path, sizeof (path)) ;
    CHECK (h != NULL && real_mxm != NULL, "GraphBLAS.h or SuiteSparse's GrB_mxm not found") ;
    if (h == NULL || real_mxm == NULL) return gcu_test_report ("test_iso_rule") ;
    gcu_test_strip_comments (h) ;
    mask_quirk () ;
    void **objs ;
    char **names ;
    const int n = gcu_test_declared_objects (h, "GrB_Semiring", &objs, &names) ;
    long cases = 0, iso = 0, undecided = 0, wrong = 0, inner1 = 0 ;
    for (int k = 0 ; k < n ; k++)
    {
        gcu_semiring_desc sr ;
        if (gcu_semiring_identify ((GrB_Semiring) objs [k], &sr) != GrB_SUCCESS) continue ;
        for (int c = 0 ; c < 24 ; c++)
        {
            const gcu_type_info *ta = &gcu_types [next () % GCU_NTYPES] ;
            const gcu_type_info *tb = &gcu_types [next () % GCU_NTYPES] ;
            // complex operands only where the multiply takes complex ones
            if ((ta->tclass == GCU_CLASS_COMPLEX) != (sr.mult.x.code == GCU_T_FC32 || sr.mult.x.code == GCU_T_FC64)) ta = gcu_types + sr.mult.x.code ;
            if ((tb->tclass == GCU_CLASS_COMPLEX) != (sr.mult.y.code == GCU_T_FC32 || sr.mult.y.code == GCU_T_FC64)) tb = gcu_types + sr.mult.y.code ;
            int ka = (int) (next () % 6), kb = (int) (next () % 6) ;
            GrB_Index m = 1 + next () % 5, kk = 1 + next () % 5, nn = 1 + next () % 5 ;
            if (ka == 4) m = kk ;
            if (kb == 4) nn = kk ;
            GrB_Matrix A = operand (ta, m, kk, ka), B = operand (tb, kk, nn, kb), C = NULL ;
            OK (GrB_Matrix_new (&C, sr.add.op.z.handle, m, nn)) ;
            GrB_Info info = real_mxm (C, NULL, NULL, (GrB_Semiring) objs [k], A, B, NULL) ;
            if (info != GrB_SUCCESS) { GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ; continue ; }
            uint8_t abuf [GCU_VALUE_MAX], bbuf [GCU_VALUE_MAX], z [GCU_VALUE_MAX], zm0 [GCU_VALUE_MAX] ;
            gcu_iso_operand oa, ob ;
            OK (gcu_iso_operand_of (A, abuf, &oa)) ;
            OK (gcu_iso_operand_of (B, bbuf, &ob)) ;
            // SuiteSparse scales by a diagonal operand (the identity's pattern)
            const bool scaled = gcu_iso_scaled (&oa, is_diagonal (A), &ob, is_diagonal (B)) ;
            memset (z, 0, sizeof (z)) ;
            const int rule = gcu_iso_product_n (&sr, &oa, &ob, scaled, kk, z) ;
            // (decided only by the inner dimension of 1: counted)
            inner1 += rule >= 0 && gcu_iso_product (&sr, &oa, &ob, scaled, zm0) < 0 ;
            bool c_iso ;
            GrB_Index cn ;
            const int same = gcu_test_iso_agrees (C, rule, z, sr.add.op.z.size, &c_iso, &cn) ;
            cases++ ;
            if (same < 0) undecided++ ;
            else
            {
                iso += c_iso ;
                if (!same && wrong++ < 30)
                    CHECK (false, "%s: A %s %llux%llu kind %d (iso %d, %llu entries, bitmap %d, full %d), "
                        "B %s %llux%llu kind %d (iso %d, %llu entries, bitmap %d, full %d), scaled %d: rule %d, "
                        "SuiteSparse's C iso %d (%llu entries)", names [k], ta->name, (unsigned long long) m,
                        (unsigned long long) kk, ka, oa.iso, (unsigned long long) oa.nvals, oa.bitmap, oa.held_full,
                        tb->name, (unsigned long long) kk, (unsigned long long) nn, kb, ob.iso,
                        (unsigned long long) ob.nvals, ob.bitmap, ob.held_full, scaled, rule, c_iso,
                        (unsigned long long) cn) ;
                else if (same) gcu_test_passed++ ;
            }
            // under a mask (and a fifth of the time without one)
            uint8_t zm [GCU_VALUE_MAX] ;
            memset (zm, 0, sizeof (zm)) ;
            const int rule_m = gcu_iso_product_masked (&sr, &oa, &ob, scaled, zm) ;
            masked_case (&sr, (GrB_Semiring) objs [k], names [k], A, B, rule, z, rule_m, zm) ;
            GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
        }
    }
    printf ("test_iso_rule: masked: %ld products, %ld iso, %ld undecided, %ld wrong\n",
        mcases, miso, mundecided, mwrong) ;
    CHECK (mcases > 1000 && miso > 100, "too few masked cases (%ld, %ld iso)", mcases, miso) ;
    printf ("test_iso_rule: %d semirings, %ld products, %ld iso, %ld undecided, %ld wrong "
        "(%ld decided by the inner dimension of 1)\n", n, cases, iso, undecided, wrong, inner1) ;
    CHECK (cases > 1000 && iso > 100 && inner1 > 20, "too few cases (%ld, %ld iso, %ld of inner "
        "dimension 1)", cases, iso, inner1) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_iso_rule") ;
}
