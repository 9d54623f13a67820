// gcu_residency.h — device copies of GraphBLAS objects, keyed by handle
// (DESIGN §3). SuiteSparse owns every object; a cached copy is valid until
// the object changes, and every GraphBLAS function that can change one calls
// gcu_residency_invalidate on it (the generated wrappers, and the
// hand-written entry points in src/api for their outputs).
#ifndef GCU_RESIDENCY_H
#define GCU_RESIDENCY_H

// Drops any device copy and derived data held for this handle (a
// GrB_Matrix, GrB_Vector or GrB_Scalar). Cheap when nothing is cached;
// safe from any thread; a NULL handle is ignored.
void gcu_residency_invalidate (const void *handle) ;

#endif
