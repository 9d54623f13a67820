// gcu_vapply_args.h — the one argument struct of GrB_Vector_apply's kernels
// (cuda/apply/gcu_vapply.cuh), shared by the host code that fills it
// (src/vector/apply.c), the positional kernel compiled with the library
// (src/vector/apply.cu) and the JIT's typed one: plain C, by value.
#ifndef GCU_VAPPLY_ARGS_H
#define GCU_VAPPLY_ARGS_H

#if !defined(__cplusplus)
#include <stdbool.h>
#endif
#if !defined(__CUDACC_RTC__)
#include <stdint.h>
#endif

// T = f (u) over a vector held densely on the device (u: a presence byte
// and a value per position, Ub NULL when u is full; length n). T's values
// go to Ox (one per position, written only where u has an entry); T's
// presence is u's. The typed kernel: f (u(i)) = op (x, u(i)) with bind1st,
// else op (u(i), y); scalar holds x or y as the operator's x or y type
// (cast on the host as SuiteSparse casts it). The positional kernel:
// f (u(i)) = slope * i + offset, as int32 (z32) or int64.
typedef struct
{
    int64_t n ;
    const int8_t *Ub ;
    const void *Ux ;
    void *Ox ;
    uint64_t scalar [2] ;
    int64_t slope, offset ;
    bool bind1st, z32 ;
}
gcu_vapply_args ;

#endif
