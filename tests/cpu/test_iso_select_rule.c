// GRBCUDA_TEST_INTERNAL
// test_iso_select_rule.c — gcu_iso_select (semirings/gcu_iso.h) against
// SuiteSparse itself: for every index unary operator GraphBLAS.h declares,
// random small operands (iso or not, one entry, empty, full; sparse,
// hypersparse, bitmap or full; of the operator's type or another; transposed
// or not) and thunks (0, -0, 1, 2, -1, 0.5 of the operator's y type or
// another), C = select (A) computed by SuiteSparse alone into a new C of A's
// type is iso exactly where the rule says, with the value it says; then
// C<M> = select (A) into a drawn C under a drawn mask, against gcu_iso_masked
// on the rule's status. GRBCUDA_ISO_SEED: another draw. (The select
// families do not use the rule yet: README "Iso status".)
#include "gcu_test_iso.h"
#include <stdlib.h>
#include <string.h>

typedef GrB_Info (*select_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_IndexUnaryOp, const GrB_Matrix, const GrB_Scalar, const GrB_Descriptor) ;
static select_t real_select ;
static uint64_t rng = 0x5e1ec7ull ;
static uint64_t next (void) { return gcu_rand (&rng) ; }
static long cases [2], iso [2], undecided [2], wrong [2], one_masked, empty_iso, empty_either ;

// one call of op, x the type its name ends with (NULL: positional)
static void one_case (GrB_IndexUnaryOp op, GrB_Type xt, const char *name)
{
    // A of x's type mostly, else any built-in type (complex only where x is)
    const gcu_type_info *ta = xt != NULL ? gcu_type_builtin (xt) : &gcu_types [next () % GCU_T_FC32] ;
    if (ta == NULL) return ;
    if (next () % 4 == 0 && ta->tclass != GCU_CLASS_COMPLEX) ta = &gcu_types [next () % GCU_T_FC32] ;
    const GrB_Index m = 1 + next () % 4, n = 1 + next () % 4 ;
    const bool tran = next () % 4 == 0 ;
    const int ka = (int) (next () % 6) ;
    GrB_Matrix A = gcu_test_iso_operand (*ta->handle, tran ? n : m, tran ? m : n, ka, false, &rng) ;
    // the thunk: of the operator's y type (x's; INT64 for the positional
    // ones) mostly, else another real type
    const gcu_type_info *ty = xt != NULL ? gcu_type_builtin (xt) : &gcu_types [GCU_T_INT64] ;
    if (next () % 4 == 0 && ty->tclass != GCU_CLASS_COMPLEX) ty = &gcu_types [next () % GCU_T_FC32] ;
    static const double values [6] = { 0.0, -0.0, 1.0, 2.0, -1.0, 0.5 } ;
    GrB_Scalar y = NULL ;
    OK (GrB_Scalar_new (&y, *ty->handle)) ;
    OK (GrB_Scalar_setElement_FP64 (y, values [next () % 6])) ;
    uint8_t abuf [GCU_VALUE_MAX], z [GCU_VALUE_MAX] ;
    gcu_iso_operand oa ;
    OK (gcu_iso_operand_of (A, abuf, &oa)) ;
    memset (z, 0, sizeof (z)) ;
    const int rule = gcu_iso_select (op, y, &oa, z) ;
    // 1. C = select (A), C new; 2. C<M> = select (A), C and M drawn
    for (int masked = 0 ; masked < 2 ; masked++)
    {
        gcu_test_iso_cm x ;
        gcu_test_iso_cm_draw (&x, masked, *ta->handle, m, n, tran, &rng) ;
        GrB_Matrix C = x.C, M = x.M ;
        const GrB_Descriptor d = x.d ;
        const bool st = x.st, comp = x.comp, repl = x.repl ;
        const int kc = x.kc, km = x.km ;
        if (real_select (C, M, NULL, op, A, y, d) == GrB_SUCCESS)
        {
            GrB_Index cn = 0 ;
            bool c_iso ;
            int r ;
            const int same = gcu_test_iso_after (C, rule, z, ta->size, masked, &x.oc, &x.om, st, comp, repl, &r, &c_iso, &cn) ;
            cases [masked]++ ;
            if (same < 0) undecided [masked]++ ;
            else if (same) { iso [masked] += c_iso ; empty_iso += c_iso && cn == 0 ; gcu_test_passed++ ; }
            // one entry under a mask: some of SuiteSparse's methods mark it
            // iso, as with the other families (test_iso_apply_rule)
            else if (masked && cn == 1 && r == 0 && c_iso) one_masked++ ;
            // an empty result: iso or not by SuiteSparse's path (the rule is
            // T's with entries; a family writes an empty result not iso)
            else if (cn == 0) empty_either++ ;
            else if (wrong [masked]++ < 30)
                CHECK (false, "%s%s: A %s %llux%llu kind %d (iso %d, %llu entries, bitmap %d, full %d), "
                    "tran %d; thunk %s; C kind %d, M kind %d struct %d comp %d replace %d: rule %d, "
                    "SuiteSparse's iso %d (%llu entries)", name, masked ? " masked" : "", ta->name,
                    (unsigned long long) m, (unsigned long long) n, ka, oa.iso, (unsigned long long) oa.nvals,
                    oa.bitmap, oa.held_full, tran, ty->name, kc, km, st, comp, repl, r, c_iso,
                    (unsigned long long) cn) ;
        }
        gcu_test_iso_cm_free (&x) ;
    }
    GrB_Matrix_free (&A) ;
    GrB_Scalar_free (&y) ;
}

int main (void)
{
    const char *seed = getenv ("GRBCUDA_ISO_SEED") ;
    if (seed != NULL && strtoull (seed, NULL, 0) != 0) rng = strtoull (seed, NULL, 0) ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    real_select = (select_t) gcu_test_real ("GrB_Matrix_select_Scalar") ;
    char path [1024] ;
    char *h = gcu_test_graphblas_h (GCU_GRAPHBLAS_H, path, sizeof (path)) ;
    const bool found = h != NULL && real_select ;
    CHECK (found, "GraphBLAS.h or SuiteSparse's GrB_Matrix_select_Scalar not found") ;
    if (!found) return gcu_test_report ("test_iso_select_rule") ;
    gcu_test_strip_comments (h) ;
    void **objs ;
    char **names ;
    const int nx = gcu_test_declared_objects (h, "GrB_IndexUnaryOp", &objs, &names) ;
    for (int k = 0 ; k < nx ; k++)
    {
        // x the type the name ends with (VALUE*_T); the positional ones read
        // no value (ROWINDEX_INT32's suffix is its z type: not VALUE*)
        GrB_Type xt = NULL ;
        const size_t l = strlen (names [k]) ;
        if (strstr (names [k], "VALUE") != NULL)
            for (int t = 0 ; t < GCU_NTYPES ; t++)
            {
                const size_t tl = strlen (gcu_types [t].name) ;
                if (l > tl + 1 && names [k] [l - tl - 1] == '_' && strcmp (names [k] + l - tl, gcu_types [t].name) == 0)
                    xt = *gcu_types [t].handle ;
            }
        for (int c = 0 ; c < 48 ; c++) one_case ((GrB_IndexUnaryOp) objs [k], xt, names [k]) ;
    }
    printf ("test_iso_select_rule: %ld masked results of one entry iso in SuiteSparse where the "
        "rule says not (not a failure); empty results: %ld iso in SuiteSparse and the rule, %ld of "
        "another status (not a failure)\n", one_masked, empty_iso, empty_either) ;
    for (int masked = 0 ; masked < 2 ; masked++)
    {
        printf ("test_iso_select_rule: %s: %d index unary operators, %ld results, %ld iso, %ld undecided, "
            "%ld wrong\n", masked ? "masked" : "new C", nx, cases [masked], iso [masked], undecided [masked],
            wrong [masked]) ;
        CHECK (cases [masked] > 2000 && iso [masked] > 200, "too few cases (%ld, %ld iso)", cases [masked], iso [masked]) ;
    }
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_iso_select_rule") ;
}
