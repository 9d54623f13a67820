// gcu_internal.h — the test hook: one exported function hands the tests the
// internal residency, export and wrapper-table API of the libgrbcuda that is
// in the process (linked or LD_PRELOADed), whose gcu_* symbols are otherwise
// local (src/api/exports.map). Not API: the grbcuda__ prefix (two
// underscores) marks it internal, and it is in no installed header.
#ifndef GCU_INTERNAL_H
#define GCU_INTERNAL_H

#include "../residency/gcu_residency.h"
#include "gcu_wrappers.h"
#include "../export/gcu_export.h"

#define GCU_INTERNAL_VERSION 1

typedef struct
{
    int version ;
    // residency (gcu_residency.h)
    void (*invalidate) (const void *handle) ;
    GrB_Info (*set_allocator) (const gcu_res_allocator *a) ;
    const gcu_res_allocator *(*host_allocator) (void) ;
    GrB_Info (*set_budget) (size_t bytes) ;
    size_t (*budget) (void) ;
    GrB_Info (*parse_size) (const char *s, size_t capacity, size_t *bytes) ;
    gcu_res_data *(*data) (gcu_res_entry *e) ;
    GrB_Info (*lookup) (const void *handle, int kind, gcu_res_entry **e) ;
    GrB_Info (*begin) (const void *handle, int kind, gcu_res_entry **e) ;
    GrB_Info (*acquire) (const void *handle, int kind, gcu_res_entry **e) ;
    GrB_Info (*alloc) (gcu_res_entry *e, size_t bytes, void **p) ;
    GrB_Info (*publish) (gcu_res_entry *e) ;
    void (*pin) (gcu_res_entry *e) ;
    void (*unpin) (gcu_res_entry *e) ;
    GrB_Info (*derived_lookup) (gcu_res_entry *parent, int kind, gcu_res_entry **c) ;
    GrB_Info (*derived_begin) (gcu_res_entry *parent, int kind, gcu_res_entry **c) ;
    void (*clear_all) (void) ;
    void (*stats) (gcu_res_stats *s) ;
    void (*track) (bool on) ;
    uint64_t (*epoch) (const void *handle) ;
    // export (gcu_export.h)
    GrB_Info (*export_open) (gcu_export_src *s, const void *obj, bool is_vector) ;
    void (*export_close) (gcu_export_src *s) ;
    GrB_Info (*export_plan) (const gcu_export_src *s, const gcu_export_opts *o, gcu_csr *c) ;
    GrB_Info (*export_fill) (const gcu_export_src *s, const gcu_export_opts *o, gcu_csr *c) ;
    GrB_Info (*export_csr) (const void *obj, bool is_vector, const gcu_export_opts *o, gcu_csr *c) ;
    void (*csr_free) (gcu_csr *c) ;
    void (*export_force_portable) (bool on) ;
    // the generated wrapper table (gcu_wrappers.h)
    const gcu_wrapper_info *wrappers ;
    size_t nwrappers ;
    size_t nparsed ;
    const char *header ;
    // auto mode's frontier work (gcu_operand.h)
    bool (*push_work) (const void *A, bool by_col, GrB_Vector u, GrB_Index unvals,
        GrB_Index most, double *work) ;
}
gcu_internal_api ;

#ifdef __cplusplus
extern "C"
#endif
const gcu_internal_api *grbcuda__internal_api (void) ;

#endif
