// gcu_mxv_policy.h — the tuning of the GrB_mxv / GrB_vxm family
// (cuda/mxv/gcu_mxv.cuh) as data, read by the launches (src/mxv/mxv.c) and
// the emulated tests (tests/cpu/test_mxv_emu.cpp); the measurements behind
// the method choice are in bench/RESULTS.md (mxv/vxm sections). Plain C.
#ifndef GCU_MXV_POLICY_H
#define GCU_MXV_POLICY_H

#define GCU_MXV_THREADS 256         // block size: the kernels' __launch_bounds__
#define GCU_MXV_GROUP_MAX 32        // threads a row (pull) or an entry of u (push): at most a warp
#define GCU_MXV_BLOCKS_PER_SM 32    // grid cap of the grid-stride loops
// push when its products cost less than pull's reads over this factor
#define GCU_MXV_PUSH_FACTOR 4.0
// pull's fixed cost per row of w, in the units of its reads (1 / this)
#define GCU_MXV_PULL_ROW_COST 32.0

#endif
