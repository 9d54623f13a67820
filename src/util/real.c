// real.c — symbol resolution for the interposed entry points (gcu_real.h): in
// src/util, so that the layers below the entry points (the iso rules of
// semirings/) reach SuiteSparse's own functions too.
#include "gcu_real.h"
#include "gcu_util.h"
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#ifndef GRBCUDA_GRAPHBLAS_SONAME
#define GRBCUDA_GRAPHBLAS_SONAME "libgraphblas.so.7"
#endif

// The loaded segments of the object that holds this code (libgrbcuda or, in
// a static build, the executable), found once. dladdr, which this replaced,
// searches an object's symbols for the nearest one: tens of microseconds a
// call in libgrbcuda, twice for each entry point's first call (LAGraph's
// algorithms paid about a millisecond on their first calls).
static struct { uintptr_t lo [16], hi [16] ; int n ; } self ;
static pthread_once_t self_once = PTHREAD_ONCE_INIT ;

static int self_segments (struct dl_phdr_info *info, size_t size, void *data)
{
    (void) size ;
    const uintptr_t here = (uintptr_t) data ;
    bool mine = false ;
    for (int k = 0 ; k < info->dlpi_phnum && !mine ; k++)
    {
        const ElfW(Phdr) *ph = &info->dlpi_phdr [k] ;
        const uintptr_t lo = info->dlpi_addr + ph->p_vaddr ;
        mine = ph->p_type == PT_LOAD && lo <= here && here < lo + ph->p_memsz ;
    }
    if (!mine) return 0 ;
    for (int k = 0 ; k < info->dlpi_phnum && self.n < 16 ; k++)
    {
        const ElfW(Phdr) *ph = &info->dlpi_phdr [k] ;
        if (ph->p_type != PT_LOAD) continue ;
        self.lo [self.n] = info->dlpi_addr + ph->p_vaddr ;
        self.hi [self.n] = self.lo [self.n] + ph->p_memsz ;
        self.n++ ;
    }
    return 1 ;
}

static void self_find (void)
{
    (void) dl_iterate_phdr (self_segments, (void *) (uintptr_t) &self_find) ;
}

// True if p lies inside the object that holds this function: resolving to
// ourselves would recurse.
static int is_self (void *p)
{
    pthread_once (&self_once, self_find) ;
    const uintptr_t a = (uintptr_t) p ;
    for (int k = 0 ; k < self.n ; k++)
        if (self.lo [k] <= a && a < self.hi [k]) return 1 ;
    return 0 ;
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
