// gcu_writeback_policy.h — the tuning of the device write-back (matrix rows:
// gcu_merge.cuh; vector positions: gcu_vmerge.cuh) as data, read by the
// kernels, the JIT's and the launches (src/mxm/merge.cu, src/vector/vector.cu).
// Plain C.
#ifndef GCU_WRITEBACK_POLICY_H
#define GCU_WRITEBACK_POLICY_H

#define GCU_MERGE_THREADS 256           // the matrix merge's block (one thread a row)
#define GCU_VEC_THREADS 256             // the vector merge's block (one thread a position)
#define GCU_WRITEBACK_BLOCKS_PER_SM 16  // grid cap of their grid-stride loops

#endif
