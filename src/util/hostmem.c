// hostmem.c — the allocator SuiteSparse uses for the objects it owns: malloc
// and free unless the program gave its own to GxB_init (the Python bindings
// give numpy's). Arrays grbcuda hands to SuiteSparse (pack) must come from
// here, since SuiteSparse frees them with the same allocator.
#include "gcu_util.h"
#include <stdlib.h>

static void *(*user_malloc) (size_t) = malloc ;
static void (*user_free) (void *) = free ;

void gcu_host_allocator_set (void *(*m) (size_t), void (*f) (void *))
{
    user_malloc = (m != NULL) ? m : malloc ;
    user_free = (f != NULL) ? f : free ;
}

void *gcu_host_malloc (size_t bytes) { return user_malloc (bytes > 0 ? bytes : 1) ; }
void gcu_host_free (void *p) { if (p != NULL) user_free (p) ; }
