// registry.c — the one registration point of GPU kernel families (STYLE:
// core code never names a backend). Each operation lists its families in the
// order they are tried: specialised before generic; the host is always last.
// The kernel issues (SpGEMM, masked products, SpMV/SpMSpV, SpMM, element-wise)
// add their families here; until then every call reports "no GPU kernel".
#include "gcu_dispatch.h"

static const gcu_family *const no_families [1] = { NULL } ;

const gcu_family *const *gcu_families (gcu_op op, int *n)
{
    (void) op ;
    *n = 0 ;
    return no_families ;
}
