// gcu_vapply_policy.h — launch policy of GrB_Vector_apply's kernels
// (cuda/apply/gcu_vapply.cuh): threads a block, and blocks an SM for the
// grid-stride loop (the grid is at most sm_count * this, from the device's
// properties). Read by the launches (src/vector/apply.cu, the JIT's
// kernel's __launch_bounds__).
#ifndef GCU_VAPPLY_POLICY_H
#define GCU_VAPPLY_POLICY_H

#define GCU_VAPPLY_THREADS 256
#define GCU_VAPPLY_BLOCKS_PER_SM 8

#endif
