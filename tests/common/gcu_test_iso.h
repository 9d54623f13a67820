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

#endif
