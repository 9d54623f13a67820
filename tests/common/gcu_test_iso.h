// gcu_test_iso.h — for the internal tests of the iso-status rules
// (test_iso_rule, test_iso_ewise_rule, test_iso_apply_rule, test_iso_call):
// a result's status against a rule's.
// Header only: it calls gcu_iso_operand_of, which only the static library
// has (GRBCUDA_TEST_INTERNAL tests).
#ifndef GCU_TEST_ISO_H
#define GCU_TEST_ISO_H

#include "gcu_test.h"
#include "gcu_iso.h"
#include <string.h>

// C's status (SuiteSparse's result) against a rule's (1 iso with value z of
// zsize bytes, 0 not, -1 undecided): -1 undecided, 1 the same (the value
// too), 0 not; C's iso flag and entry count in *c_iso and *cn
static inline int gcu_test_iso_agrees (GrB_Matrix C, int rule, const void *z, size_t zsize,
    bool *c_iso, GrB_Index *cn)
{
    uint8_t cv [GCU_VALUE_MAX] ;
    gcu_iso_operand o ;
    *c_iso = false ;
    *cn = 0 ;
    OK (GxB_Matrix_iso (c_iso, C)) ;
    OK (GrB_Matrix_nvals (cn, C)) ;
    if (rule < 0) return -1 ;
    bool same = (rule == 1) == *c_iso ;
    if (same && *c_iso && *cn > 0)
    {
        memset (cv, 0, sizeof (cv)) ;
        same = gcu_iso_operand_of (C, cv, &o) == GrB_SUCCESS && o.x != NULL && memcmp (cv, z, zsize) == 0 ;
    }
    return same ;
}

// The C and M of a rule test's call: a new C of type ct (masked false), or
// a drawn one (gcu_test_iso_operand's kinds) under a drawn mask; the
// descriptor (A transposed if tran); C's and M's status before the call
typedef struct
{
    GrB_Matrix C, M ;
    GrB_Descriptor d ;
    int kc, km ;
    bool st, comp, repl ;
    gcu_iso_operand oc, om ;
    uint8_t cb [GCU_VALUE_MAX], mb [GCU_VALUE_MAX] ;
}
gcu_test_iso_cm ;

static inline void gcu_test_iso_cm_draw (gcu_test_iso_cm *x, bool masked, GrB_Type ct, GrB_Index m,
    GrB_Index n, bool tran, uint64_t *rng)
{
    memset (x, 0, sizeof (*x)) ;
    x->kc = (int) (gcu_rand (rng) % 6) ;
    x->km = (int) (gcu_rand (rng) % 6) ;
    x->st = gcu_rand (rng) % 3 == 0 ;
    x->comp = gcu_rand (rng) % 2 ;
    x->repl = gcu_rand (rng) % 2 ;
    if (masked) x->C = gcu_test_iso_operand (ct, m, n, x->kc, false, rng) ;
    else OK (GrB_Matrix_new (&x->C, ct, m, n)) ;
    if (masked) x->M = gcu_test_iso_operand (gcu_rand (rng) % 2 ? GrB_BOOL
        : *gcu_types [gcu_rand (rng) % GCU_T_FC32].handle, m, n, x->km, false, rng) ;
    x->d = gcu_test_desc (masked && x->st, masked && x->comp, masked && x->repl, tran, false) ;
    CHECK (x->d != NULL, "no descriptor") ;
    OK (gcu_iso_operand_of (x->C, x->cb, &x->oc)) ;
    if (masked) OK (gcu_iso_operand_of (x->M, x->mb, &x->om)) ;
}

static inline void gcu_test_iso_cm_free (gcu_test_iso_cm *x)
{
    GrB_Descriptor_free (&x->d) ;
    GrB_Matrix_free (&x->C) ;
    GrB_Matrix_free (&x->M) ;
}

// After C = f (A) into a new C (masked false) or C<M> = f (A) (C and M as
// they were before the call in oc, om): T's status by the rule (rule, z)
// through the mask stage (gcu_iso_masked) in *r, against C as
// gcu_test_iso_agrees
static inline int gcu_test_iso_after (GrB_Matrix C, int rule, const void *z, size_t zsize, bool masked,
    const gcu_iso_operand *oc, const gcu_iso_operand *om, bool st, bool comp, bool repl, int *r,
    bool *c_iso, GrB_Index *cn)
{
    uint8_t zc [GCU_VALUE_MAX] ;
    GrB_Index n = 0 ;
    OK (GrB_Matrix_nvals (&n, C)) ;
    memset (zc, 0, sizeof (zc)) ;
    *r = masked ? gcu_iso_masked (rule, z, zsize, oc, om, st, comp, repl, (int64_t) n, zc) : rule ;
    if (!masked) memcpy (zc, z, zsize) ;
    return gcu_test_iso_agrees (C, *r, zc, zsize, c_iso, cn) ;
}

#endif
