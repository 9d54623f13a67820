// gcu_test_ops.h — the interposed operations as data, for tests that sweep
// them all: their names, a table of operators (semiring, monoid, binary op of
// one kind, with their natural type), and one function that makes any of the
// calls either through grbcuda or directly on SuiteSparse.
#ifndef GCU_TEST_OPS_H
#define GCU_TEST_OPS_H

#include "gcu_test.h"

enum { MXM, MXV, VXM, M_MULT_S, M_MULT_M, M_MULT_B, M_ADD_S, M_ADD_M, M_ADD_B,
    M_UNION, V_MULT_S, V_MULT_M, V_MULT_B, V_ADD_S, V_ADD_M, V_ADD_B, V_UNION,
    NOPS } ;
extern const char *names [NOPS] ;

// One kind of operator, with the type its inputs naturally have and whether
// the result's values may legitimately differ run to run (ANY monoid).
typedef struct { GrB_Semiring s ; GrB_Monoid m ; GrB_BinaryOp b ; GrB_Type t ; bool any ; } opdesc ;
extern opdesc ops [16] ;
extern int nops_table ;
void ops_init (void) ;

typedef struct
{
    void *C ; void *M ; GrB_BinaryOp accum ; opdesc *o ; void *A, *B ;
    GrB_Scalar alpha, beta ; GrB_Descriptor desc ;
} args_t ;

// Operation op through grbcuda (the symbol the program links to) or, with
// real, directly on SuiteSparse's definition.
GrB_Info call (int op, bool real, args_t *a) ;

#endif
