// GRBCUDA_TEST_INTERNAL
// test_iso_assign_rule.c — gcu_iso_assign (semirings/gcu_iso.h) against
// SuiteSparse itself: GrB_Vector_assign and GrB_Vector_assign_Scalar (and
// their matrix forms) over the whole of C (GrB_ALL), a scalar of any
// built-in type or an operand u (iso or not, one entry, empty, full;
// sparse, hypersparse, bitmap or full), into a drawn C (iso or not, empty,
// full) under a drawn mask or none (valued or structural, complemented,
// GrB_REPLACE; C itself as its mask), with an accumulator or none: C after
// the call is iso exactly where the rule says, with the value it says
// (results of one entry under a mask and empty ones too: unlike a product's
// or an element-wise call's, their status follows the assign methods' rules).
// GRBCUDA_ISO_SEED: another draw. (The vector assign family does not use the rule yet: README
// "Iso status".)
#include "gcu_test_iso.h"
#include <stdlib.h>
#include <string.h>

typedef GrB_Info (*vassign_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp, const GrB_Vector,
    const GrB_Index *, GrB_Index, const GrB_Descriptor) ;
typedef GrB_Info (*vassign_s_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp, const GrB_Scalar,
    const GrB_Index *, GrB_Index, const GrB_Descriptor) ;
typedef GrB_Info (*massign_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp, const GrB_Matrix,
    const GrB_Index *, GrB_Index, const GrB_Index *, GrB_Index, const GrB_Descriptor) ;
typedef GrB_Info (*massign_s_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp, const GrB_Scalar,
    const GrB_Index *, GrB_Index, const GrB_Index *, GrB_Index, const GrB_Descriptor) ;
static vassign_t real_v ;
static vassign_s_t real_vs ;
static massign_t real_m ;
static massign_s_t real_ms ;
static uint64_t rng = 0xa5516eull ;
static uint64_t next (void) { return gcu_rand (&rng) ; }
static long cases [2], iso [2], undecided [2], wrong [2] ;

// the accumulators drawn: none, or one of these of C's type
static const gcu_opcode accums [6] = { GCU_OP_PLUS, GCU_OP_MIN, GCU_OP_FIRST, GCU_OP_SECOND,
    GCU_OP_TIMES, GCU_OP_MAX } ;

static void one_case (bool vec)
{
    const gcu_type_info *tc = &gcu_types [next () % GCU_NTYPES] ;
    if (tc->code == GCU_T_UDT || tc->handle == NULL) return ;
    const bool scalar = next () % 2 ;
    const gcu_type_info *ta = tc->tclass == GCU_CLASS_COMPLEX ? tc : next () % 3 ? tc : &gcu_types [next () % GCU_T_FC32] ;
    const GrB_Index m = 1 + next () % 5, n = vec ? 1 : 1 + next () % 4 ;
    const int kc = (int) (next () % 6), ka = (int) (next () % 6), km = (int) (next () % 7) ;
    void *C = gcu_test_iso_operand (*tc->handle, m, n, kc, vec, &rng) ;
    void *A = scalar ? NULL : gcu_test_iso_operand (*ta->handle, m, n, ka, vec, &rng) ;
    // the mask: none (a third), C itself (km 6, structural), or drawn
    void *M = NULL ;
    const bool c_is_m = km == 6 && next () % 2 ;
    if (c_is_m) M = C ;
    else if (next () % 3) M = gcu_test_iso_operand (next () % 2 ? GrB_BOOL : *gcu_types [next () % GCU_T_FC32].handle,
        m, n, km % 6, vec, &rng) ;
    const bool st = c_is_m || next () % 3 == 0, comp = next () % 2, repl = next () % 2 ;
    GrB_Descriptor d = gcu_test_desc (st, comp, repl, false, false) ;
    CHECK (d != NULL, "no descriptor") ;
    const int kacc = (int) (next () % 8) ;
    GrB_BinaryOp accum = kacc < 6 ? gcu_binop_of (accums [kacc], tc->code) : NULL ;
    GrB_Scalar x = NULL ;
    OK (GrB_Scalar_new (&x, *ta->handle)) ;
    OK (GrB_Scalar_setElement_INT64 (x, (int64_t) (next () % 3))) ;
    uint8_t xv [GCU_VALUE_MAX], cb [GCU_VALUE_MAX], mb [GCU_VALUE_MAX], ab [GCU_VALUE_MAX], z [GCU_VALUE_MAX] ;
    memset (xv, 0, sizeof (xv)) ; memset (z, 0, sizeof (z)) ;
    OK (gcu_scalar_get_builtin (xv, ta->code, x)) ;
    gcu_iso_operand oc, om, oa ;
    OK (gcu_iso_operand_of ((GrB_Matrix) C, cb, &oc)) ;
    if (M != NULL) OK (gcu_iso_operand_of ((GrB_Matrix) M, mb, &om)) ;
    if (A != NULL) OK (gcu_iso_operand_of ((GrB_Matrix) A, ab, &oa)) ;
    const int rule = gcu_iso_assign (&oc, m * n, M ? &om : NULL, st, comp, repl, c_is_m, accum,
        A ? &oa : NULL, *ta->handle, xv, z) ;
    GrB_Info info ;
    if (vec) info = scalar ? real_vs (C, M, accum, x, GrB_ALL, m, d) : real_v (C, M, accum, A, GrB_ALL, m, d) ;
    else info = scalar ? real_ms (C, M, accum, x, GrB_ALL, m, GrB_ALL, n, d)
        : real_m (C, M, accum, A, GrB_ALL, m, GrB_ALL, n, d) ;
    const int k = M != NULL ;
    if (info == GrB_SUCCESS)
    {
        GrB_Index cn = 0 ;
        bool c_iso ;
        const int same = gcu_test_iso_agrees ((GrB_Matrix) C, rule, z, tc->size, &c_iso, &cn) ;
        cases [k]++ ;
        if (same < 0) undecided [k]++ ;
        else if (same) { iso [k] += c_iso ; gcu_test_passed++ ; }
        else if (wrong [k]++ < 30)
            CHECK (false, "%s%s: C %s %llux%llu kind %d (iso %d, %llu entries, bitmap %d, full %d); %s %s kind %d "
                "(iso %d, %llu entries, bitmap %d); mask %s kind %d struct %d comp %d replace %d; accum %s: rule %d, "
                "SuiteSparse's iso %d (%llu entries)", vec ? "vector" : "matrix", scalar ? " scalar" : "",
                tc->name, (unsigned long long) m, (unsigned long long) n, kc, oc.iso, (unsigned long long) oc.nvals,
                oc.bitmap, oc.held_full, scalar ? "x" : "A", ta->name, ka, A ? oa.iso : 0,
                (unsigned long long) (A ? oa.nvals : 1), A ? oa.bitmap : 0, c_is_m ? "C itself" : M ? "yes" : "none",
                km, st, comp, repl, kacc < 6 ? gcu_ops [accums [kacc]].name : "none", rule, c_iso,
                (unsigned long long) cn) ;
    }
    GrB_Descriptor_free (&d) ;
    GrB_Scalar_free (&x) ;
    if (vec)
    {
        GrB_Vector_free ((GrB_Vector *) &A) ;
        if (!c_is_m) GrB_Vector_free ((GrB_Vector *) &M) ;
        GrB_Vector_free ((GrB_Vector *) &C) ;
    }
    else
    {
        GrB_Matrix_free ((GrB_Matrix *) &A) ;
        if (!c_is_m) GrB_Matrix_free ((GrB_Matrix *) &M) ;
        GrB_Matrix_free ((GrB_Matrix *) &C) ;
    }
}

int main (void)
{
    const char *seed = getenv ("GRBCUDA_ISO_SEED") ;
    if (seed != NULL && strtoull (seed, NULL, 0) != 0) rng = strtoull (seed, NULL, 0) ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    real_v = (vassign_t) gcu_test_real ("GrB_Vector_assign") ;
    real_vs = (vassign_s_t) gcu_test_real ("GrB_Vector_assign_Scalar") ;
    real_m = (massign_t) gcu_test_real ("GrB_Matrix_assign") ;
    real_ms = (massign_s_t) gcu_test_real ("GrB_Matrix_assign_Scalar") ;
    const bool found = real_v && real_vs && real_m && real_ms ;
    CHECK (found, "SuiteSparse's assign functions not found") ;
    if (!found) return gcu_test_report ("test_iso_assign_rule") ;
    for (int c = 0 ; c < 40000 ; c++) one_case (c % 4 != 0) ;
    for (int k = 0 ; k < 2 ; k++)
    {
        printf ("test_iso_assign_rule: %s: %ld results, %ld iso, %ld undecided, %ld wrong\n",
            k ? "masked" : "no mask", cases [k], iso [k], undecided [k], wrong [k]) ;
        CHECK (cases [k] > 5000 && iso [k] > 500, "too few cases (%ld, %ld iso)", cases [k], iso [k]) ;
    }
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_iso_assign_rule") ;
}
