// internal.c — the test hook of gcu_internal.h: a table of the internal
// residency, export and wrapper functions, exported under one grbcuda__ name
// so that tests reach this library's own instance, linked or preloaded.
#include "gcu_internal.h"
#include "../residency/gcu_operand.h"
#include <pthread.h>

static gcu_internal_api api ;
static pthread_once_t api_once = PTHREAD_ONCE_INIT ;

static void invalidate_fn (const void *handle)
{
    gcu_residency_invalidate (handle) ;     // the inline fast path, as wrappers use it
}

static void api_init (void)
{
    {
        gcu_internal_api a = {
            .version = GCU_INTERNAL_VERSION,
            .invalidate = invalidate_fn,
            .set_allocator = gcu_residency_set_allocator,
            .host_allocator = gcu_residency_host_allocator,
            .set_budget = gcu_residency_set_budget,
            .budget = gcu_residency_budget,
            .parse_size = gcu_residency_parse_size,
            .data = gcu_residency_data,
            .lookup = gcu_residency_lookup,
            .begin = gcu_residency_begin,
            .acquire = gcu_residency_acquire,
            .alloc = gcu_residency_alloc,
            .publish = gcu_residency_publish,
            .pin = gcu_residency_pin,
            .unpin = gcu_residency_unpin,
            .derived_lookup = gcu_residency_derived_lookup,
            .derived_begin = gcu_residency_derived_begin,
            .clear_all = gcu_residency_clear_all,
            .stats = gcu_residency_stats,
            .track = gcu_residency_track,
            .epoch = gcu_residency_epoch,
            .export_open = gcu_export_open,
            .export_close = gcu_export_close,
            .export_plan = gcu_export_plan,
            .export_fill = gcu_export_fill,
            .export_csr = gcu_export_csr,
            .csr_free = gcu_csr_free,
            .export_force_portable = gcu_export_force_portable,
            .wrappers = gcu_wrapper_table,
            .nwrappers = gcu_wrapper_count,
            .nparsed = gcu_wrapper_parsed,
            .header = gcu_wrapper_header,
            .push_work = gcu_operand_push_work,
        } ;
        api = a ;
    }
}

const gcu_internal_api *grbcuda__internal_api (void)
{
    pthread_once (&api_once, api_init) ;
    return &api ;
}
