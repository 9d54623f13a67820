// gcu_reduce_policy.h — the tuning of the reduction to a scalar
// (cuda/reduce/gcu_reduce.cuh) as data, read by the kernels, their JIT
// preamble and the launches (src/reduce/reduce.c). Plain C.
#ifndef GCU_REDUCE_POLICY_H
#define GCU_REDUCE_POLICY_H

#define GCU_REDUCE_THREADS 256      // block size: the kernels' __launch_bounds__
#define GCU_REDUCE_BLOCKS_PER_SM 8  // grid cap of the partial kernel

#endif
