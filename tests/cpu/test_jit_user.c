// GRBCUDA_TEST_INTERNAL (calls internal gcu_* functions: links grbcuda_static)
// test_jit_user.c — user-defined types and operators through the JIT.
//
// A struct type and operators given to GxB_Type_new / GxB_BinaryOp_new with
// their C definitions, an operator created with GrB_BinaryOp_new and given
// CUDA source with grbcuda_register_binop, and a C-style operator on void
// pointers all compile into the masked dot-product kernel. Without a
// definition, with a definition that is not valid CUDA C++, or with a type
// definition whose size is not the size GraphBLAS was given: GCU_NOT_HANDLED
// (the host computes), never a crash. An operand the multiply never reads
// (positional operators) may be of a user type with no definition at all.
#include "gcu_test.h"
#include "../../src/jit/gcu_jit.h"
#include "../../src/mxm/gcu_dot_masked.h"
#include "../../src/jit/gcu_jit_public.h"
#include "../../src/util/gcu_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { double x, y ; int32_t n ; } point ;

#define POINT_DEFN "typedef struct { double x, y ; int32_t n ; } point ;"
#define POINT_ADD_DEFN \
    "void point_add (point *z, const point *a, const point *b)\n" \
    "{ z->x = a->x + b->x ; z->y = a->y + b->y ; z->n = a->n + b->n ; }"
#define POINT_DIST_DEFN \
    "#include <math.h>\n" \
    "void point_dist (point *z, const point *a, const point *b)\n" \
    "{ z->x = hypot (a->x - b->x, a->y - b->y) ; z->y = 0 ; z->n = 1 ; }"

static void point_add (void *z, const void *a, const void *b)
{
    const point *p = a, *q = b ;
    point r = { p->x + q->x, p->y + q->y, p->n + q->n } ;
    memcpy (z, &r, sizeof (r)) ;
}
static void point_dist (void *z, const void *a, const void *b)
{
    const point *p = a, *q = b ;
    point r = { hypot (p->x - q->x, p->y - q->y), 0, 1 } ;
    memcpy (z, &r, sizeof (r)) ;
}
static void times_plus_one (void *z, const void *x, const void *y)
{
    *(double *) z = *(const double *) x * *(const double *) y + 1 ;
}

// compile the masked dot kernel for semiring s over operand type t
static GrB_Info compile (GrB_Semiring s, GrB_Type ta, GrB_Type tb, GrB_Type tc)
{
    gcu_dot_masked_spec spec ;
    memset (&spec, 0, sizeof (spec)) ;
    GrB_Info info = gcu_semiring_identify (s, &spec.sr) ;
    if (info != GrB_SUCCESS) return info ;
    if ((info = gcu_type_identify (ta, &spec.ops.a)) != GrB_SUCCESS) return info ;
    if ((info = gcu_type_identify (tb, &spec.ops.b)) != GrB_SUCCESS) return info ;
    if ((info = gcu_type_identify (tc, &spec.ops.c)) != GrB_SUCCESS) return info ;
    spec.ops.mask_type = -1 ;
    const gcu_jit_binary *bin = NULL ;
    char entry [GCU_JIT_ENTRY_MAX] ;
    info = gcu_dot_masked_compile (&spec, &bin, entry) ;
    if (info == GrB_SUCCESS && bin == NULL) info = GrB_PANIC ;
    return info ;
}

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    if (!gcu_jit_available ())
    {
        #if defined (GRBCUDA_HAVE_CUDA) && !GRBCUDA_HAVE_CUDA
        // a build without CUDA need not have NVRTC either
        printf ("test_jit_user: NVRTC is not available: skipped\n") ;
        return GCU_TEST_SKIP ;
        #else
        // CI installs the CUDA toolkit: NVRTC missing there is a failure
        fprintf (stderr, "test_jit_user: NVRTC is not available\n") ;
        return 1 ;
        #endif
    }
    char dir [] = "/tmp/grbcuda-test-user-XXXXXX" ;
    CHECK (mkdtemp (dir) != NULL, "mkdtemp") ;
    gcu_jit_set_cache_dir (dir) ;

    // a struct type and two operators, definitions captured
    GrB_Type pt = NULL ;
    OK (GxB_Type_new (&pt, sizeof (point), "point", POINT_DEFN)) ;
    GrB_BinaryOp add = NULL, dist = NULL ;
    OK (GxB_BinaryOp_new (&add, point_add, pt, pt, pt, "point_add", POINT_ADD_DEFN)) ;
    OK (GxB_BinaryOp_new (&dist, point_dist, pt, pt, pt, "point_dist", POINT_DIST_DEFN)) ;
    point zero = { 0, 0, 0 } ;
    GrB_Monoid m = NULL ;
    OK (GrB_Monoid_new_UDT (&m, add, &zero)) ;
    GrB_Semiring s = NULL ;
    OK (GrB_Semiring_new (&s, m, dist)) ;
    GrB_Info info = compile (s, pt, pt, pt) ;
    CHECK (info == GrB_SUCCESS, "user type and operators: %d", (int) info) ;
    // a monoid with a terminal value, of a user type
    GrB_Monoid mt = NULL ;
    point stop = { 1e300, 0, 7 } ;
    OK (GxB_Monoid_terminal_new_UDT (&mt, add, &zero, &stop)) ;
    GrB_Semiring st = NULL ;
    OK (GrB_Semiring_new (&st, mt, add)) ;
    CHECK (compile (st, pt, pt, pt) == GrB_SUCCESS, "user monoid with a terminal") ;
    // a user type cannot be cast from a built-in one
    CHECK (compile (s, GrB_FP64, pt, pt) == GCU_NOT_HANDLED, "no cast to a user type") ;

    // an operand the multiply never reads may be of a user type with no
    // definition at all: positional multiply over matrices of such a type
    GrB_Type opaque = NULL ;
    OK (GrB_Type_new (&opaque, 24)) ;
    GrB_Semiring sp = NULL ;
    OK (GrB_Semiring_new (&sp, GrB_MIN_MONOID_INT64, GxB_SECONDJ_INT64)) ;
    info = compile (sp, opaque, opaque, GrB_INT64) ;
    CHECK (info == GrB_SUCCESS, "positional over an opaque user type: %d", (int) info) ;
    // ... but not one it reads
    CHECK (compile (GxB_PLUS_TIMES_INT64, opaque, GrB_INT64, GrB_INT64) == GCU_NOT_HANDLED,
        "an opaque operand that is read") ;
    GrB_Semiring_free (&sp) ;
    GrB_Type_free (&opaque) ;

    // GrB_BinaryOp_new: no definition until CUDA source is registered
    GrB_BinaryOp tpo = NULL ;
    OK (GrB_BinaryOp_new (&tpo, times_plus_one, GrB_FP64, GrB_FP64, GrB_FP64)) ;
    GrB_Semiring s2 = NULL ;
    OK (GrB_Semiring_new (&s2, GrB_PLUS_MONOID_FP64, tpo)) ;
    CHECK (compile (s2, GrB_FP64, GrB_FP64, GrB_FP64) == GCU_NOT_HANDLED, "no definition") ;
    OK (grbcuda_register_binop (tpo, "times_plus_one",
        "__device__ void times_plus_one (void *z, const void *x, const void *y)\n"
        "{ *(double *) z = *(const double *) x * *(const double *) y + 1 ; }")) ;
    info = compile (s2, GrB_FP64, GrB_FP64, GrB_FP64) ;
    CHECK (info == GrB_SUCCESS, "registered CUDA source: %d", (int) info) ;
    // and with typecasting of the operands into the operator's types
    info = compile (s2, GrB_INT32, GxB_FC32, GrB_UINT8) ;
    CHECK (info == GrB_SUCCESS, "registered op with typecasts: %d", (int) info) ;

    // a definition that is not CUDA C++: compile error, not handled
    GrB_BinaryOp bad = NULL ;
    OK (GxB_BinaryOp_new (&bad, times_plus_one, GrB_FP64, GrB_FP64, GrB_FP64,
        "bad_op", "void bad_op (double *z, const double *x, const double *y) { *z = ; }")) ;
    GrB_Semiring s3 = NULL ;
    OK (GrB_Semiring_new (&s3, GrB_PLUS_MONOID_FP64, bad)) ;
    CHECK (compile (s3, GrB_FP64, GrB_FP64, GrB_FP64) == GCU_NOT_HANDLED, "broken definition") ;

    // a type definition of the wrong size
    GrB_Type wrong = NULL ;
    OK (GxB_Type_new (&wrong, 8, "wrong_t", "typedef struct { double a, b ; } wrong_t ;")) ;
    GrB_BinaryOp wop = NULL ;
    OK (GxB_BinaryOp_new (&wop, times_plus_one, wrong, wrong, wrong, "wrong_first",
        "void wrong_first (wrong_t *z, const wrong_t *x, const wrong_t *y) { *z = *x ; }")) ;
    uint64_t wzero = 0 ;
    GrB_Monoid wm = NULL ;
    OK (GrB_Monoid_new_UDT (&wm, wop, &wzero)) ;
    GrB_Semiring s4 = NULL ;
    OK (GrB_Semiring_new (&s4, wm, wop)) ;
    CHECK (compile (s4, wrong, wrong, wrong) == GCU_NOT_HANDLED, "size mismatch") ;

    GrB_Semiring_free (&s) ; GrB_Semiring_free (&st) ; GrB_Semiring_free (&s2) ;
    GrB_Semiring_free (&s3) ; GrB_Semiring_free (&s4) ;
    GrB_Monoid_free (&m) ; GrB_Monoid_free (&mt) ; GrB_Monoid_free (&wm) ;
    GrB_BinaryOp_free (&add) ; GrB_BinaryOp_free (&dist) ; GrB_BinaryOp_free (&tpo) ;
    GrB_BinaryOp_free (&bad) ; GrB_BinaryOp_free (&wop) ;
    GrB_Type_free (&pt) ; GrB_Type_free (&wrong) ;
    gcu_jit_cache_clear_memory () ;
    char cmd [128] ;
    snprintf (cmd, sizeof (cmd), "rm -rf '%s'", dir) ;
    if (system (cmd) != 0) fprintf (stderr, "could not remove %s\n", dir) ;
    GrB_finalize () ;
    return gcu_test_report ("test_jit_user") ;
}
