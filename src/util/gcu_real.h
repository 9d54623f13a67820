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

// SuiteSparse's own fn (a function GraphBLAS.h declares), for the library's
// own calls on objects it made itself: the iso rules compute a one-entry
// result through SuiteSparse (semirings/gcu_iso.c), and a GPU family that
// evaluates a rule would otherwise run that call through itself again
// (and every such call would count in the statistics as the program's).
// fn itself where the lookup fails.
#define GCU_SUITE(fn) ({ static void *_Atomic gcu_suite_ ;                   \
    void *p_ = gcu_real_cached (&gcu_suite_, #fn) ;                          \
    p_ != NULL ? (__typeof__ (&fn)) p_ : &fn ; })

#endif
