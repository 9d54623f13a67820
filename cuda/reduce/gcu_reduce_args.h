// gcu_reduce_args.h — the one argument struct of the reduction to a scalar's
// JIT kernels (partial and final, cuda/reduce/gcu_reduce.cuh), filled by the
// launches (src/reduce/reduce.c) and passed by value. Plain C.
#ifndef GCU_REDUCE_ARGS_H
#define GCU_REDUCE_ARGS_H

#if !defined(__CUDACC_RTC__)
#include <stdint.h>
#endif

typedef struct
{
    int64_t n ;             // partial: the values in Ax
    int64_t nparts ;        // final: the pairs in part / part_has (partial's grid)
    const void *Ax ;        // partial: the values (SR::TA)
    void *part ;            // a value (SR::Z) a block of partial
    int8_t *part_has ;      // whether that block had a value
    void *out ;             // final: the result (SR::TC)
}
gcu_reduce_args ;

#endif
