// residency.c — the residency cache (DESIGN §3). Nothing is cached yet: the
// data-path issue fills this in; the invalidation hook already stands where
// every mutating call reaches it.
#include "gcu_residency.h"

void gcu_residency_invalidate (const void *handle)
{
    (void) handle ;
}
