// gcu_dispatch.h — one interposed call, step by step (DESIGN §2): check the
// arguments, decide GPU or host (counting the reason), run a GPU kernel family
// if one takes the call, otherwise (or on any GPU failure) the caller runs
// SuiteSparse. Entry points in src/api/ stay thin: they fill a gcu_call and
// call gcu_try_gpu / gcu_finish.
#ifndef GCU_DISPATCH_H
#define GCU_DISPATCH_H

#include "gcu_util.h"
#include "gcu_call.h"
#include "grbcuda.h"

// gcu_op, gcu_call and gcu_family, the contract between the dispatch and the
// GPU families below it, are in gcu_call.h.

// The GraphBLAS function name of op (also its key in grbcuda_stats_get).
const char *gcu_op_name (gcu_op op) ;

// The registration point (registry.c): the families of an operation, in the
// order they are tried. *n receives the count.
const gcu_family *const *gcu_families (gcu_op op, int *n) ;

// How many calls each GPU family has completed (by its name), for the
// verbose log and for tests that must know which family ran. 0 for a name
// never seen.
uint64_t gcu_family_runs (const char *name) ;

// Starts the GPU (once, thread-safe) with the floors that follow it: the
// residency cache's device memory and the JIT's architecture (gpu_start.c).
// false if no GPU is usable (gcu_gpu_ready).
bool gcu_gpu_start (void) ;
// The same off the critical path: true if the GPU is usable now; else false
// at once, the start under way on a background thread (started by the
// first such call). gcu_gpu_start_join: waits for that thread (GrB_finalize).
bool gcu_gpu_start_async (void) ;
void gcu_gpu_start_join (void) ;
// a background start begun and not finished
bool gcu_gpu_start_pending (void) ;
// GRBCUDA_START=init (GrB_init, GxB_init): the background start at once in
// auto and gpu modes
void gcu_gpu_start_at_init (void) ;
// GRBCUDA_START=data (auto and gpu modes): the background start once a call
// builds (the generated wrappers) or, in auto mode, works on (dispatch.c)
// an object of GRBCUDA_START_ENTRIES entries or more
void gcu_gpu_start_for_data (const char *what, uint64_t entries) ;
// the same for a matrix (vector: a vector) an import, pack or
// deserialization filled (the generated wrappers): its entries counted
void gcu_gpu_start_for_object (const char *what, const void *obj, bool vector) ;
// Ski rental on CUDA's start (dispatch.c, GRBCUDA_START_RENT): a call that
// lost this many seconds on the host against the GPU's predicted time (with
// its operands there) before CUDA has started; the gains so far (0 where
// the rental is off)
double gcu_start_gain_add (double gain) ;

// Step 1-4: true if the call is done, *info its result: a GPU family
// produced C (GrB_SUCCESS), or an object the host would read is device
// newest and could not be written back (its error; nothing changed). false:
// the caller runs SuiteSparse, every object of the call now valid on the
// host. call->reason says why. Thread-safe.
bool gcu_try_gpu (gcu_call *call, GrB_Info *info) ;

// The call's C is not read (no accum, no mask, C none of its inputs) and
// SuiteSparse's result does not depend on how C was held (a product, or a
// scalar assigned to every entry of a C of two or more): SuiteSparse
// replaces C whole, so a device-newest C need not be written back for it.
// Only for a checked call (step 1).
bool gcu_c_replaced (const gcu_call *call) ;

// After the host ran a call whose C was skipped (gcu_c_replaced) and
// failed with info: SuiteSparse left C as it was, its stale host value, so
// C's device value is written back; true if the caller must run SuiteSparse
// again (C's value and its GrB_error message then SuiteSparse's). false
// when there is nothing to do, or the write-back failed (C keeps its
// device value, and the host's error is the call's).
bool gcu_host_again (gcu_call *call, GrB_Info info) ;

// Step 5 bookkeeping: counts the call, prints the verbose line, returns info.
GrB_Info gcu_finish (gcu_call *call, GrB_Info info) ;

// Statistics (stats.c).
// kernel_seconds < 0: not measured (or not a GPU call).
void gcu_stats_count (gcu_op op, grbcuda_reason reason, double seconds,
    double kernel_seconds, uint64_t up_bytes, uint64_t down_bytes) ;
// A call passed straight through in mode host, untimed: one relaxed add.
void gcu_stats_pass (gcu_op op) ;
// A host call (counted by gcu_stats_count too) made while CUDA started in
// the background (jit false) or its kernel compiled there (jit true).
void gcu_stats_pending (gcu_op op, bool jit) ;

// gcu_call.pending: the host runs while the GPU starts or a kernel compiles
#define GCU_PENDING_START 1
#define GCU_PENDING_JIT   2

// Kinds of call (gcu_cost_site_key) whose GPU attempt deferred for a
// compile (held.c): gcu_held_add after the deferral; gcu_held_back is true
// (the call's reason and note set: the host, no attempt) for a held kind
// while a compile is pending (gcu_jit_busy), and releases the kind after.
void gcu_held_add (uint64_t kind) ;
bool gcu_held_back (gcu_call *call, uint64_t kind) ;

// GRBCUDA_VERBOSE's line of a finished call (gcu_finish; stats.c)
void gcu_call_log (const gcu_call *call, GrB_Info info, double dt) ;
void gcu_stats_print_if_enabled (void) ;

#endif
