// gcu_test_ops.c — see gcu_test_ops.h.
#include "gcu_test_ops.h"

const char *names [NOPS] = { "GrB_mxm", "GrB_mxv", "GrB_vxm",
    "GrB_Matrix_eWiseMult_Semiring", "GrB_Matrix_eWiseMult_Monoid",
    "GrB_Matrix_eWiseMult_BinaryOp", "GrB_Matrix_eWiseAdd_Semiring",
    "GrB_Matrix_eWiseAdd_Monoid", "GrB_Matrix_eWiseAdd_BinaryOp",
    "GxB_Matrix_eWiseUnion", "GrB_Vector_eWiseMult_Semiring",
    "GrB_Vector_eWiseMult_Monoid", "GrB_Vector_eWiseMult_BinaryOp",
    "GrB_Vector_eWiseAdd_Semiring", "GrB_Vector_eWiseAdd_Monoid",
    "GrB_Vector_eWiseAdd_BinaryOp", "GxB_Vector_eWiseUnion" } ;

opdesc ops [16] ;
int nops_table ;

void ops_init (void)
{
    int k = 0 ;
    ops [k++] = (opdesc) { GrB_PLUS_TIMES_SEMIRING_FP64, GrB_PLUS_MONOID_FP64, GrB_TIMES_FP64, GrB_FP64, false } ;
    ops [k++] = (opdesc) { GrB_MIN_PLUS_SEMIRING_INT32, GrB_MIN_MONOID_INT32, GrB_PLUS_INT32, GrB_INT32, false } ;
    ops [k++] = (opdesc) { GrB_LOR_LAND_SEMIRING_BOOL, GrB_LOR_MONOID_BOOL, GrB_LAND, GrB_BOOL, false } ;
    ops [k++] = (opdesc) { GxB_PLUS_PAIR_INT64, GrB_PLUS_MONOID_INT64, GxB_PAIR_INT64, GrB_INT64, false } ;
    ops [k++] = (opdesc) { GxB_ANY_SECONDI_INT64, GxB_ANY_INT64_MONOID, GxB_SECONDI_INT64, GrB_INT64, true } ;
    ops [k++] = (opdesc) { GrB_MAX_MIN_SEMIRING_UINT8, GrB_MAX_MONOID_UINT8, GrB_MIN_UINT8, GrB_UINT8, false } ;
    ops [k++] = (opdesc) { GxB_TIMES_FIRST_FP32, GrB_TIMES_MONOID_FP32, GrB_FIRST_FP32, GrB_FP32, false } ;
    ops [k++] = (opdesc) { GxB_PLUS_TIMES_FC64, GxB_PLUS_FC64_MONOID, GxB_RDIV_FC64, GxB_FC64, false } ;
    ops [k++] = (opdesc) { GxB_BXOR_BAND_UINT16, GxB_BXOR_UINT16_MONOID, GrB_BAND_UINT16, GrB_UINT16, false } ;
    ops [k++] = (opdesc) { GxB_ANY_PAIR_BOOL, GxB_ANY_BOOL_MONOID, GxB_PAIR_BOOL, GrB_BOOL, true } ;
    ops [k++] = (opdesc) { GxB_MAX_FIRSTJ_INT32, GrB_MAX_MONOID_INT32, GxB_FIRSTJ_INT32, GrB_INT32, false } ;
    ops [k++] = (opdesc) { GxB_PLUS_MINUS_INT8, GrB_PLUS_MONOID_INT8, GrB_MINUS_INT8, GrB_INT8, false } ;
    ops [k++] = (opdesc) { GxB_EQ_LOR_BOOL, GxB_EQ_BOOL_MONOID, GxB_ISGT_FP64, GrB_FP64, false } ;
    nops_table = k ;
}

// Calls operation op either through grbcuda (the symbol this program links
// to) or directly on SuiteSparse's definition.
GrB_Info call (int op, bool real, args_t *a)
{
#define PICK(fn) (real ? (__typeof__ (&fn)) gcu_test_real (#fn) : &fn)
    switch (op)
    {
        case MXM: return PICK (GrB_mxm) (a->C, a->M, a->accum, a->o->s, a->A, a->B, a->desc) ;
        case MXV: return PICK (GrB_mxv) (a->C, a->M, a->accum, a->o->s, a->A, a->B, a->desc) ;
        case VXM: return PICK (GrB_vxm) (a->C, a->M, a->accum, a->o->s, a->A, a->B, a->desc) ;
        case M_MULT_S: return PICK (GrB_Matrix_eWiseMult_Semiring) (a->C, a->M, a->accum, a->o->s, a->A, a->B, a->desc) ;
        case M_MULT_M: return PICK (GrB_Matrix_eWiseMult_Monoid) (a->C, a->M, a->accum, a->o->m, a->A, a->B, a->desc) ;
        case M_MULT_B: return PICK (GrB_Matrix_eWiseMult_BinaryOp) (a->C, a->M, a->accum, a->o->b, a->A, a->B, a->desc) ;
        case M_ADD_S: return PICK (GrB_Matrix_eWiseAdd_Semiring) (a->C, a->M, a->accum, a->o->s, a->A, a->B, a->desc) ;
        case M_ADD_M: return PICK (GrB_Matrix_eWiseAdd_Monoid) (a->C, a->M, a->accum, a->o->m, a->A, a->B, a->desc) ;
        case M_ADD_B: return PICK (GrB_Matrix_eWiseAdd_BinaryOp) (a->C, a->M, a->accum, a->o->b, a->A, a->B, a->desc) ;
        case M_UNION: return PICK (GxB_Matrix_eWiseUnion) (a->C, a->M, a->accum, a->o->b, a->A, a->alpha, a->B, a->beta, a->desc) ;
        case V_MULT_S: return PICK (GrB_Vector_eWiseMult_Semiring) (a->C, a->M, a->accum, a->o->s, a->A, a->B, a->desc) ;
        case V_MULT_M: return PICK (GrB_Vector_eWiseMult_Monoid) (a->C, a->M, a->accum, a->o->m, a->A, a->B, a->desc) ;
        case V_MULT_B: return PICK (GrB_Vector_eWiseMult_BinaryOp) (a->C, a->M, a->accum, a->o->b, a->A, a->B, a->desc) ;
        case V_ADD_S: return PICK (GrB_Vector_eWiseAdd_Semiring) (a->C, a->M, a->accum, a->o->s, a->A, a->B, a->desc) ;
        case V_ADD_M: return PICK (GrB_Vector_eWiseAdd_Monoid) (a->C, a->M, a->accum, a->o->m, a->A, a->B, a->desc) ;
        case V_ADD_B: return PICK (GrB_Vector_eWiseAdd_BinaryOp) (a->C, a->M, a->accum, a->o->b, a->A, a->B, a->desc) ;
        case V_UNION: return PICK (GxB_Vector_eWiseUnion) (a->C, a->M, a->accum, a->o->b, a->A, a->alpha, a->B, a->beta, a->desc) ;
    }
#undef PICK
    return GrB_PANIC ;
}

