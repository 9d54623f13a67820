// gcu_real.h — reaching the real SuiteSparse:GraphBLAS definitions of the
// functions grbcuda interposes: dlsym(RTLD_NEXT) first (so another interposer
// later in the chain is respected), then the GraphBLAS library by soname.
#ifndef GCU_REAL_H
#define GCU_REAL_H

#include <stdatomic.h>
#include <stddef.h>

// The next definition of `name` after grbcuda; NULL if none can be found
// (never grbcuda's own definition).
void *gcu_real_sym (const char *name) ;

// Cached lookup for hot paths: *slot holds the resolved pointer after the
// first call (a race resolves twice to the same value, harmlessly). Always
// inlined (as the residency checks are): in the generated wrappers' large
// file the compiler would otherwise call it out of line.
static inline __attribute__ ((always_inline)) void *gcu_real_cached (void *_Atomic *slot, const char *name)
{
    void *p = atomic_load_explicit (slot, memory_order_acquire) ;
    if (p == NULL)
    {
        p = gcu_real_sym (name) ;
        atomic_store_explicit (slot, p, memory_order_release) ;
    }
    return p ;
}

#endif
