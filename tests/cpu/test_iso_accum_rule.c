// GRBCUDA_TEST_INTERNAL
// test_iso_accum_rule.c — gcu_iso_accum (semirings/gcu_iso.h) against
// SuiteSparse itself: GrB_mxm and GrB_mxv over every declared semiring with
// an accumulator (the monoid's, FIRST, SECOND, ANY, PAIR, MIN or TIMES of C's
// type) into a drawn C (iso mostly; empty, full, one entry; sparse,
// hypersparse, bitmap or full) under a drawn mask or none (valued or
// structural, complemented, GrB_REPLACE). T's status and entries are those
// of the same product into a new C under the same mask; C after the call is
// iso exactly where the rule says. This is what a GPU family needs to leave
// C = accum (C, T) on the device where C is iso (PageRank's r = teleport,
// then r += A'*w). GRBCUDA_ISO_SEED: another draw.
#include "gcu_test_iso.h"
#include <stdlib.h>
#include <string.h>

typedef GrB_Info (*product_t) (void *, const void *, const void *, const GrB_Semiring, const void *,
    const void *, const GrB_Descriptor) ;
static product_t real_mxm, real_mxv ;
static uint64_t rng = 0xacc0ull ;
static uint64_t next (void) { return gcu_rand (&rng) ; }
static long cases, decided, iso, wrong, iso_c_not ;

static const gcu_opcode accums [7] = { GCU_OP_PLUS, GCU_OP_FIRST, GCU_OP_SECOND, GCU_OP_ANY, GCU_OP_PAIR,
    GCU_OP_MIN, GCU_OP_TIMES } ;

static void one_case (bool vec, GrB_Semiring s, const gcu_semiring_desc *sr, const char *name)
{
    const gcu_type_info *tz = gcu_type_builtin (sr->add.op.z.handle) ;
    const gcu_type_info *tx = gcu_types + sr->mult.x.code, *ty = gcu_types + sr->mult.y.code ;
    if (tz == NULL || tx->code >= GCU_NTYPES || ty->code >= GCU_NTYPES) return ;
    const GrB_Index m = 1 + next () % 5, k = 1 + next () % 4, n = vec ? 1 : 1 + next () % 4 ;
    const int ka = (int) (next () % 6), kb = (int) (next () % 6) ;
    void *A = gcu_test_iso_operand (*tx->handle, m, k, ka, false, &rng) ;
    void *B = gcu_test_iso_operand (*ty->handle, k, n, kb, vec, &rng) ;
    // C: iso (kinds 0 and 4) three times in four
    static const int ckind [8] = { 0, 4, 0, 4, 0, 4, 1, 2 } ;
    const int kc = next () % 4 ? ckind [next () % 6] : ckind [next () % 8] ;
    void *C = gcu_test_iso_operand (*tz->handle, m, n, kc, vec, &rng), *M = NULL ;
    const int km = (int) (next () % 6) ;
    if (next () % 2) M = gcu_test_iso_operand (next () % 2 ? GrB_BOOL : *gcu_types [next () % GCU_T_FC32].handle,
        m, n, km, vec, &rng) ;
    const bool st = next () % 3 == 0, comp = next () % 2, repl = next () % 2 ;
    const gcu_opcode aop = accums [next () % 7] ;
    GrB_BinaryOp accum = gcu_binop_of (aop, tz->code) ;
    const char *aname = accum != NULL ? gcu_ops [aop].name : "the monoid's" ;
    if (accum == NULL) accum = sr->add.op.handle ;
    GrB_Descriptor d = gcu_test_desc (st, comp, repl, false, false) ;
    GrB_Descriptor dt = gcu_test_desc (st, comp, false, false, false) ;
    CHECK (d != NULL && dt != NULL, "no descriptor") ;
    // T: the same product into a new C under the same mask
    void *T = NULL ;
    if (vec) OK (GrB_Vector_new ((GrB_Vector *) &T, *tz->handle, m)) ;
    else OK (GrB_Matrix_new ((GrB_Matrix *) &T, *tz->handle, m, n)) ;
    product_t f = vec ? real_mxv : real_mxm ;
    uint8_t cb [GCU_VALUE_MAX], mb [GCU_VALUE_MAX], z [GCU_VALUE_MAX] ;
    gcu_iso_operand oc, om ;
    OK (gcu_iso_operand_of ((GrB_Matrix) C, cb, &oc)) ;
    if (M != NULL) OK (gcu_iso_operand_of ((GrB_Matrix) M, mb, &om)) ;
    if (f (T, M, NULL, s, A, B, dt) == GrB_SUCCESS)
    {
        bool t_iso = false ;
        GrB_Index tn = 0 ;
        OK (GxB_Matrix_iso (&t_iso, (GrB_Matrix) T)) ;
        OK (GrB_Matrix_nvals (&tn, (GrB_Matrix) T)) ;
        memset (z, 0, sizeof (z)) ;
        const int rule = gcu_iso_accum (t_iso, tn, &oc, M ? &om : NULL, st, comp, repl, accum, z) ;
        if (f (C, M, accum, s, A, B, d) == GrB_SUCCESS)
        {
            bool c_iso = false ;
            GrB_Index cn = 0 ;
            const int same = gcu_test_iso_agrees ((GrB_Matrix) C, rule, z, tz->size, &c_iso, &cn) ;
            cases++ ;
            if (same >= 0) { decided++ ; iso += c_iso ; }
            // (the class a GPU family needs: an iso C that ends not iso)
            iso_c_not += same == 1 && oc.iso && oc.nvals > 0 && rule == 0 ;
            if (same == 1) gcu_test_passed++ ;
            else if (same == 0 && wrong++ < 30)
                CHECK (false, "%s %s: %llux%llux%llu, A kind %d, B kind %d; T iso %d (%llu entries); C kind %d "
                    "(iso %d, %llu entries, bitmap %d, full %d); mask %s kind %d struct %d comp %d replace %d; "
                    "accum %s: rule %d, SuiteSparse's iso %d (%llu entries)", vec ? "GrB_mxv" : "GrB_mxm", name,
                    (unsigned long long) m, (unsigned long long) k, (unsigned long long) n, ka, kb, t_iso,
                    (unsigned long long) tn, kc, oc.iso, (unsigned long long) oc.nvals, oc.bitmap, oc.held_full,
                    M ? "yes" : "none", km, st, comp, repl, aname, rule, c_iso,
                    (unsigned long long) cn) ;
        }
    }
    GrB_Descriptor_free (&d) ; GrB_Descriptor_free (&dt) ;
    if (vec) { GrB_Vector_free ((GrB_Vector *) &B) ; GrB_Vector_free ((GrB_Vector *) &C) ;
        GrB_Vector_free ((GrB_Vector *) &M) ; GrB_Vector_free ((GrB_Vector *) &T) ; }
    else { GrB_Matrix_free ((GrB_Matrix *) &B) ; GrB_Matrix_free ((GrB_Matrix *) &C) ;
        GrB_Matrix_free ((GrB_Matrix *) &M) ; GrB_Matrix_free ((GrB_Matrix *) &T) ; }
    GrB_Matrix_free ((GrB_Matrix *) &A) ;
}

int main (void)
{
    const char *seed = getenv ("GRBCUDA_ISO_SEED") ;
    if (seed != NULL && strtoull (seed, NULL, 0) != 0) rng = strtoull (seed, NULL, 0) ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    real_mxm = (product_t) gcu_test_real ("GrB_mxm") ;
    real_mxv = (product_t) gcu_test_real ("GrB_mxv") ;
    char path [1024] ;
    char *h = gcu_test_graphblas_h (GCU_GRAPHBLAS_H, path, sizeof (path)) ;
    const bool found = h != NULL && real_mxm && real_mxv ;
    CHECK (found, "GraphBLAS.h or SuiteSparse's products not found") ;
    if (!found) return gcu_test_report ("test_iso_accum_rule") ;
    gcu_test_strip_comments (h) ;
    void **objs ;
    char **names ;
    const int ns = gcu_test_declared_objects (h, "GrB_Semiring", &objs, &names) ;
    for (int s = 0 ; s < ns ; s++)
    {
        gcu_semiring_desc sr ;
        if (gcu_semiring_identify ((GrB_Semiring) objs [s], &sr) != GrB_SUCCESS) continue ;
        // (1-based positional multipliers: SuiteSparse 7.4 is no oracle)
        if (strstr (names [s], "I1_") != NULL || strstr (names [s], "J1_") != NULL) continue ;
        for (int c = 0 ; c < 12 ; c++) one_case (c % 2, (GrB_Semiring) objs [s], &sr, names [s]) ;
    }
    printf ("test_iso_accum_rule: %d semirings, %ld calls, %ld decided, %ld iso, %ld of an iso C with "
        "entries that ends not iso, %ld wrong\n", ns, cases, decided, iso, iso_c_not, wrong) ;
    CHECK (decided > 3000 && iso_c_not > 1000, "too few decided calls (%ld; %ld of an iso C ending not iso)",
        decided, iso_c_not) ;
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_iso_accum_rule") ;
}
