// GRBCUDA_TEST_INTERNAL
// test_iso_apply_rule.c — gcu_iso_apply (semirings/gcu_iso.h) against
// SuiteSparse itself: for every unary operator, binary operator (bound first
// and second) and index unary operator GraphBLAS.h declares, random small
// operands (iso or not, one entry, empty, full; sparse, hypersparse, bitmap
// or full; transposed or not), C = op (A) computed by SuiteSparse alone into
// a new C of the operator's z type is iso exactly where the rule says, with
// the value it says; then C<M> = op (A) into a drawn C under a drawn mask,
// against gcu_iso_masked on the rule's status. GRBCUDA_ISO_SEED: another
// draw. (The apply family does not use the rule yet: README "Iso status".)
#include "gcu_test_iso.h"
#include <stdlib.h>
#include <string.h>

typedef GrB_Info (*apply_u_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_UnaryOp, const GrB_Matrix, const GrB_Descriptor) ;
typedef GrB_Info (*apply_1_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_BinaryOp, const GrB_Scalar, const GrB_Matrix, const GrB_Descriptor) ;
typedef GrB_Info (*apply_2_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_BinaryOp, const GrB_Matrix, const GrB_Scalar, const GrB_Descriptor) ;
typedef GrB_Info (*apply_x_t) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_IndexUnaryOp, const GrB_Matrix, const GrB_Scalar, const GrB_Descriptor) ;
static apply_u_t real_u ;
static apply_1_t real_1 ;
static apply_2_t real_2 ;
static apply_x_t real_x ;
static uint64_t rng = 0xa991e5ull ;
static uint64_t next (void) { return gcu_rand (&rng) ; }
static long cases [2], iso [2], undecided [2], wrong [2], one_masked ;

static GrB_Info run (const gcu_iso_apply_op *op, GrB_Matrix C, GrB_Matrix M, GrB_Matrix A, GrB_Descriptor d)
{
    if (op->unop != NULL) return real_u (C, M, NULL, op->unop, A, d) ;
    if (op->binop != NULL && op->bind1st) return real_1 (C, M, NULL, op->binop, op->s, A, d) ;
    if (op->binop != NULL) return real_2 (C, M, NULL, op->binop, A, op->s, d) ;
    return real_x (C, M, NULL, op->idxop, A, op->s, d) ;
}

// one call of op: x, the type its input takes; y, its scalar's
static void one_case (const gcu_iso_apply_op *op0, GrB_Type ztype, GrB_Type xt, GrB_Type yt, const char *name)
{
    gcu_iso_apply_op op = *op0 ;
    const gcu_type_info *tz = gcu_type_builtin (ztype), *tx = gcu_type_builtin (xt) ;
    if (tz == NULL || tx == NULL) return ;
    // A of x's type, or another that casts to it
    if (tx->tclass != GCU_CLASS_COMPLEX && next () % 3 == 0) tx = &gcu_types [next () % GCU_T_FC32] ;
    const GrB_Index m = 1 + next () % 4, n = 1 + next () % 4 ;
    const bool tran = next () % 4 == 0 ;
    op.tran = tran ;
    const int ka = (int) (next () % 6) ;
    GrB_Matrix A = gcu_test_iso_operand (*tx->handle, tran ? n : m, tran ? m : n, ka, false, &rng) ;
    op.s = NULL ;
    if (yt != NULL)
    {
        OK (GrB_Scalar_new (&op.s, yt)) ;
        OK (GrB_Scalar_setElement_INT64 (op.s, (int64_t) (next () % 3))) ;
    }
    uint8_t abuf [GCU_VALUE_MAX], z [GCU_VALUE_MAX] ;
    gcu_iso_operand oa ;
    OK (gcu_iso_operand_of (A, abuf, &oa)) ;
    memset (z, 0, sizeof (z)) ;
    const int rule = gcu_iso_apply (&op, ztype, &oa, z) ;
    // 1. C = op (A), C new; 2. C<M> = op (A), C and M drawn
    for (int masked = 0 ; masked < 2 ; masked++)
    {
        gcu_test_iso_cm x ;
        gcu_test_iso_cm_draw (&x, masked, ztype, m, n, tran, &rng) ;
        GrB_Matrix C = x.C, M = x.M ;
        const GrB_Descriptor d = x.d ;
        const bool st = x.st, comp = x.comp, repl = x.repl ;
        const int kc = x.kc, km = x.km ;
        if (run (&op, C, M, A, d) == GrB_SUCCESS)
        {
            GrB_Index cn = 0 ;
            bool c_iso ;
            int r ;
            const int same = gcu_test_iso_after (C, rule, z, tz->size, masked, &x.oc, &x.om, st, comp, repl, &r, &c_iso, &cn) ;
            cases [masked]++ ;
            if (same < 0) undecided [masked]++ ;
            else if (same) { iso [masked] += c_iso ; gcu_test_passed++ ; }
            // one entry under a mask: some of SuiteSparse's methods mark it
            // iso (positional operators too), as with element-wise results
            // (test_iso_ewise_rule)
            else if (masked && cn == 1 && r == 0 && c_iso) one_masked++ ;
            else if (wrong [masked]++ < 30)
                CHECK (false, "%s%s: A %s %llux%llu kind %d (iso %d, %llu entries, bitmap %d, full %d), "
                    "tran %d; C kind %d, M kind %d struct %d comp %d replace %d: rule %d, SuiteSparse's "
                    "iso %d (%llu entries)", name, masked ? " masked" : "", tx->name,
                    (unsigned long long) m, (unsigned long long) n, ka, oa.iso, (unsigned long long) oa.nvals,
                    oa.bitmap, oa.held_full, tran, kc, km, st, comp, repl, r, c_iso, (unsigned long long) cn) ;
        }
        gcu_test_iso_cm_free (&x) ;
    }
    GrB_Matrix_free (&A) ;
    GrB_Scalar_free (&op.s) ;
}

// an index unary operator's z type, from its name (..._INT32, ..._INT64,
// else bool: the positional ones by their suffix, the others compare)
static GrB_Type idx_ztype (const char *name)
{
    const size_t l = strlen (name) ;
    if (strncmp (name, "GrB_ROWINDEX", 12) && strncmp (name, "GrB_COLINDEX", 12)
        && strncmp (name, "GrB_DIAGINDEX", 13)) return GrB_BOOL ;
    return (l > 5 && strcmp (name + l - 5, "INT32") == 0) ? GrB_INT32 : GrB_INT64 ;
}

int main (void)
{
    const char *seed = getenv ("GRBCUDA_ISO_SEED") ;
    if (seed != NULL && strtoull (seed, NULL, 0) != 0) rng = strtoull (seed, NULL, 0) ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    real_u = (apply_u_t) gcu_test_real ("GrB_Matrix_apply") ;
    real_1 = (apply_1_t) gcu_test_real ("GrB_Matrix_apply_BinaryOp1st_Scalar") ;
    real_2 = (apply_2_t) gcu_test_real ("GrB_Matrix_apply_BinaryOp2nd_Scalar") ;
    real_x = (apply_x_t) gcu_test_real ("GrB_Matrix_apply_IndexOp_Scalar") ;
    char path [1024] ;
    char *h = gcu_test_graphblas_h (GCU_GRAPHBLAS_H, path, sizeof (path)) ;
    const bool found = h != NULL && real_u && real_1 && real_2 && real_x ;
    CHECK (found, "GraphBLAS.h or SuiteSparse's apply functions not found") ;
    if (!found) return gcu_test_report ("test_iso_apply_rule") ;
    gcu_test_strip_comments (h) ;
    void **objs ;
    char **names ;
    int nu = gcu_test_declared_objects (h, "GrB_UnaryOp", &objs, &names) ;
    for (int k = 0 ; k < nu ; k++)
    {
        GrB_Type zt = NULL, xt = NULL ;
        if (GxB_UnaryOp_ztype (&zt, (GrB_UnaryOp) objs [k]) != GrB_SUCCESS
            || GxB_UnaryOp_xtype (&xt, (GrB_UnaryOp) objs [k]) != GrB_SUCCESS) continue ;
        const gcu_iso_apply_op op = { .unop = (GrB_UnaryOp) objs [k] } ;
        for (int c = 0 ; c < 16 ; c++) one_case (&op, zt, xt, NULL, names [k]) ;
    }
    const int nb = gcu_test_declared_objects (h, "GrB_BinaryOp", &objs, &names) ;
    for (int k = 0 ; k < nb ; k++)
    {
        gcu_binop_desc d ;
        if (gcu_binop_identify ((GrB_BinaryOp) objs [k], &d) != GrB_SUCCESS || d.op == GCU_OP_USER) continue ;
        for (int c = 0 ; c < 16 ; c++)
        {
            const gcu_iso_apply_op op = { .binop = (GrB_BinaryOp) objs [k], .bind1st = c % 2 } ;
            one_case (&op, d.z.handle, c % 2 ? d.y.handle : d.x.handle, c % 2 ? d.x.handle : d.y.handle, names [k]) ;
        }
    }
    const int nx = gcu_test_declared_objects (h, "GrB_IndexUnaryOp", &objs, &names) ;
    for (int k = 0 ; k < nx ; k++)
    {
        // x and y of the type its name ends with (VALUE*_T), else INT64 (the
        // positional ones read no x: any A)
        GrB_Type xt = GrB_INT64 ;
        const size_t l = strlen (names [k]) ;
        for (int t = 0 ; t < GCU_NTYPES ; t++)
        {
            const size_t tl = strlen (gcu_types [t].name) ;
            if (l > tl + 1 && names [k] [l - tl - 1] == '_' && strcmp (names [k] + l - tl, gcu_types [t].name) == 0)
                xt = *gcu_types [t].handle ;
        }
        const gcu_iso_apply_op op = { .idxop = (GrB_IndexUnaryOp) objs [k] } ;
        for (int c = 0 ; c < 16 ; c++) one_case (&op, idx_ztype (names [k]), xt, xt, names [k]) ;
    }
    printf ("test_iso_apply_rule: %ld masked results of one entry iso in SuiteSparse where the "
        "rule says not (not a failure)\n", one_masked) ;
    for (int masked = 0 ; masked < 2 ; masked++)
    {
        printf ("test_iso_apply_rule: %s: %d unary, %d binary, %d index unary operators, %ld results, "
            "%ld iso, %ld undecided, %ld wrong\n", masked ? "masked" : "new C", nu, nb, nx, cases [masked],
            iso [masked], undecided [masked], wrong [masked]) ;
        CHECK (cases [masked] > 3000 && iso [masked] > 300, "too few cases (%ld, %ld iso)", cases [masked], iso [masked]) ;
    }
    OK (GrB_finalize ()) ;
    return gcu_test_report ("test_iso_apply_rule") ;
}
