// gpu.c — the public questions about the GPU (grbcuda.h). Asking whether a
// GPU is usable starts it as the first GPU call would (gcu_gpu_start), so
// the floors that follow the device are told of it inside the start either
// way; a program may ask before or after GrB_init.
#include "../dispatch/gcu_dispatch.h"
#include "../device/gcu_device.h"
#include <stdio.h>

int grbcuda_gpu_available (void) { return gcu_gpu_start () ? 1 : 0 ; }
int grbcuda_gpu_started (void) { return gcu_gpu_started () ? 1 : 0 ; }

GrB_Info grbcuda_gpu_info (char name [256], int *sm_count, int *cc_major,
    int *cc_minor, size_t *global_mem)
{
    const gcu_device_props *p = gcu_gpu_start () ? gcu_device () : NULL ;
    if (p == NULL) return GrB_NO_VALUE ;
    if (name != NULL) snprintf (name, 256, "%s", p->name) ;
    if (sm_count != NULL) *sm_count = p->sm_count ;
    if (cc_major != NULL) *cc_major = p->cc_major ;
    if (cc_minor != NULL) *cc_minor = p->cc_minor ;
    if (global_mem != NULL) *global_mem = p->global_mem ;
    return GrB_SUCCESS ;
}
