// gcu_handles.h — tables of GraphBLAS's built-in operator handles by type:
// GCU_U13 (GrB, IDENTITY) is { &GrB_IDENTITY_BOOL, ..., &GrB_IDENTITY_FP64,
// &GxB_IDENTITY_FC32, &GxB_IDENTITY_FC64 } in gcu_type_code order; GCU_U11
// without the complex ones, GCU_U8 the integers only (NULL elsewhere).
// Internal header, never installed.
#ifndef GCU_HANDLES_H
#define GCU_HANDLES_H

#include <GraphBLAS.h>

#define GCU_U13(P, N) { &P##_##N##_BOOL, &P##_##N##_INT8, &P##_##N##_INT16, &P##_##N##_INT32,  \
    &P##_##N##_INT64, &P##_##N##_UINT8, &P##_##N##_UINT16, &P##_##N##_UINT32, &P##_##N##_UINT64, \
    &P##_##N##_FP32, &P##_##N##_FP64, &GxB_##N##_FC32, &GxB_##N##_FC64 }
#define GCU_U11(P, N) { &P##_##N##_BOOL, &P##_##N##_INT8, &P##_##N##_INT16, &P##_##N##_INT32,  \
    &P##_##N##_INT64, &P##_##N##_UINT8, &P##_##N##_UINT16, &P##_##N##_UINT32, &P##_##N##_UINT64, \
    &P##_##N##_FP32, &P##_##N##_FP64, NULL, NULL }
#define GCU_U8(P, N) { NULL, &P##_##N##_INT8, &P##_##N##_INT16, &P##_##N##_INT32,              \
    &P##_##N##_INT64, &P##_##N##_UINT8, &P##_##N##_UINT16, &P##_##N##_UINT32, &P##_##N##_UINT64, \
    NULL, NULL, NULL, NULL }

#endif
