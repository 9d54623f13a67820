// gcu_dot_masked_policy.h — the tuning of the masked dot family
// (cuda/masked/gcu_dot_masked.cuh) as data, read by the kernel, its JIT
// preamble and the launches (src/mxm). Plain C.
#ifndef GCU_DOT_MASKED_POLICY_H
#define GCU_DOT_MASKED_POLICY_H

#define GCU_DOT_MASKED_THREADS 256  // block size: the kernel's __launch_bounds__
#define GCU_DOT_MASKED_SKEW 16      // a dot product searches the longer list when the
                                    // lengths differ by more than this factor

#endif
