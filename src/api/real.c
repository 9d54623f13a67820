// real.c — symbol resolution for the interposed entry points (gcu_real.h).
#include "gcu_real.h"
#include "gcu_util.h"
#include <dlfcn.h>
#include <stdint.h>

#ifndef GRBCUDA_GRAPHBLAS_SONAME
#define GRBCUDA_GRAPHBLAS_SONAME "libgraphblas.so.7"
#endif

// True if p lies inside the object that holds this function (libgrbcuda or,
// in a static build, the executable): resolving to ourselves would recurse.
static int is_self (void *p)
{
    Dl_info mine, theirs ;
    if (dladdr ((void *) &is_self, &mine) == 0) return 0 ;
    if (dladdr (p, &theirs) == 0) return 0 ;
    return mine.dli_fbase == theirs.dli_fbase ;
}

void *gcu_real_sym (const char *name)
{
    void *p = dlsym (RTLD_NEXT, name) ;
    if (p != NULL && !is_self (p)) return p ;
    // grbcuda first in a scope where GraphBLAS is not "next" (e.g. dlopen'd
    // with RTLD_LOCAL): ask the GraphBLAS library itself.
    void *h = dlopen (GRBCUDA_GRAPHBLAS_SONAME, RTLD_NOW | RTLD_GLOBAL) ;
    if (h == NULL) h = dlopen ("libgraphblas.so", RTLD_NOW | RTLD_GLOBAL) ;
    if (h != NULL)
    {
        p = dlsym (h, name) ;
        if (p != NULL && !is_self (p)) return p ;
    }
    gcu_warn ("cannot find SuiteSparse:GraphBLAS's %s (%s)", name,
        GRBCUDA_GRAPHBLAS_SONAME) ;
    return NULL ;
}
