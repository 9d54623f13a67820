// grbcuda.h — the public header of grbcuda, the CUDA backend that sits in
// front of SuiteSparse:GraphBLAS. A program that never includes this header
// still gets the acceleration (link -lgrbcuda -lgraphblas, or LD_PRELOAD);
// the header only adds control over modes, thresholds, the device and the
// statistics. Every setting here also has a GRBCUDA_* environment variable.
#ifndef GRBCUDA_H
#define GRBCUDA_H

#include <GraphBLAS.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GRBCUDA_VERSION_MAJOR 0
#define GRBCUDA_VERSION_MINOR 1
#define GRBCUDA_VERSION_PATCH 0

const char *grbcuda_version (void) ;   // "0.1.0 (cuda 13.0)" or "... (no cuda)"

// Where a call runs. GRBCUDA_MODE=auto|gpu|host.
//   auto: the GPU when a kernel exists, a GPU is usable and the estimated
//         work reaches the threshold; otherwise SuiteSparse on the host.
//   gpu:  the GPU whenever a kernel exists and a GPU is usable, at any size.
//   host: always SuiteSparse (pure pass-through).
typedef enum
{
    GRBCUDA_MODE_AUTO = 0,
    GRBCUDA_MODE_GPU  = 1,
    GRBCUDA_MODE_HOST = 2
}
grbcuda_mode ;

GrB_Info grbcuda_set_mode (grbcuda_mode mode) ;     // GrB_INVALID_VALUE if unknown
grbcuda_mode grbcuda_get_mode (void) ;

// Auto mode decides by a cost model (predicted host and GPU time from the
// call's work and the bytes it would move, parameters per device model:
// src/dispatch/cost_model.txt). A threshold replaces it with the rule "the
// GPU from this much estimated work (multiply-adds) on": GRBCUDA_THRESHOLD;
// GrB_INVALID_VALUE if negative or NaN. grbcuda_get_threshold: the
// threshold, or -1 while the cost model decides (the default).
GrB_Info grbcuda_set_threshold (double work) ;
double grbcuda_get_threshold (void) ;
// The cost model's tables from text in cost_model.txt's format (NULL: the
// built-in ones, or GRBCUDA_COST_MODEL's file), and the cost model decides
// again (any threshold dropped). GrB_INVALID_VALUE if the text does not
// parse (nothing changes). Not while other threads make calls.
GrB_Info grbcuda_set_cost_model (const char *text) ;
// GRBCUDA_JIT_BACKGROUND: in auto mode, the one-time costs are paid off the
// critical path (default true): a call small beside CUDA's start, or beside
// the compilation of a kernel it needs, runs on the host while CUDA starts
// or the kernel compiles on a background thread. false: calls wait for both,
// as in gpu mode (benchmarks that time the GPU after one warm-up call).
GrB_Info grbcuda_set_jit_background (bool on) ;

// GRBCUDA_VERBOSE=1: one line per call on stderr (operation, sizes, path,
// reason, time) plus the GPU's start-up.
GrB_Info grbcuda_set_verbose (int verbose) ;

// GRBCUDA_KEEP_RESULTS (default 1): a GPU call's result stays on the device
// as its object's newest value and is written into the SuiteSparse object
// only when something without a GPU path reads it; 0: written back in the
// call, as before.
GrB_Info grbcuda_set_keep_results (bool keep) ;

// CUDA device ordinal (GRBCUDA_DEVICE). Only effective before the GPU starts;
// GrB_INVALID_VALUE if negative, GrB_INVALID_VALUE once the GPU has started.
GrB_Info grbcuda_set_device (int device) ;

// 1 if a GPU is usable. Starts CUDA if it has not started yet (it otherwise
// starts lazily, on the first call that wants the GPU).
int grbcuda_gpu_available (void) ;
// 1 if CUDA has been started (successfully or not) by this process's grbcuda.
int grbcuda_gpu_started (void) ;
// Name and properties of the device in use; GrB_NO_VALUE if no GPU is usable.
GrB_Info grbcuda_gpu_info (char name [256], int *sm_count, int *cc_major,
    int *cc_minor, size_t *global_mem) ;

//------------------------------------------------------------------------------
// user-defined types and operators on the GPU: a type or operator created
// with GxB_Type_new / GxB_BinaryOp_new and a C definition runs on the GPU as
// it is; one created without (GrB_Type_new, GrB_BinaryOp_new) needs its CUDA
// source registered here, or its calls run on the host.
//------------------------------------------------------------------------------

// Give the device definition of a user-defined type: type_name is the C
// name the definition declares (an identifier), cuda_defn its definition,
// e.g. "typedef struct { double x, y ; } point ;". The definition is
// compiled as CUDA C++; sizeof (type_name) must equal the type's size.
// GrB_NULL_POINTER if an argument is NULL; GrB_INVALID_VALUE if the type is
// built-in or type_name is not an identifier. Registering again replaces.
GrB_Info grbcuda_register_type (GrB_Type type, const char *type_name,
    const char *cuda_defn) ;

// Give the device definition of a user-defined binary operator:
// function_name is the name of the function cuda_defn defines, with the
// GraphBLAS signature void f (ztype *z, const xtype *x, const ytype *y).
// Functions without an execution-space qualifier compile as device
// functions. Errors as for grbcuda_register_type.
GrB_Info grbcuda_register_binop (GrB_BinaryOp op, const char *function_name,
    const char *cuda_defn) ;

//------------------------------------------------------------------------------
// statistics: every interposed call is counted by operation and by path, and
// each host decision by its reason; the GPU calls also by the device time of
// their kernels. GRBCUDA_STATS=1 prints the table to stderr at GrB_finalize
// (or at exit if GrB_finalize is never called).
//------------------------------------------------------------------------------

typedef enum
{
    GRBCUDA_REASON_GPU = 0,         // not a host reason: ran on the GPU
    GRBCUDA_REASON_MODE_HOST,       // mode is host
    GRBCUDA_REASON_ARGS,            // arguments odd/invalid (SuiteSparse checks and reports), or no
                                    // mask complemented (nothing to compute)
    GRBCUDA_REASON_SMALL,           // auto mode: the host predicted faster (the cost
                                    // model), or the work below a threshold set
    GRBCUDA_REASON_NO_GPU,          // no usable GPU (none, no driver, CUDA failed to
                                    // start), or not yet (host_gpu_starting)
    GRBCUDA_REASON_NO_KERNEL,       // no GPU kernel for this operation/semiring/type,
                                    // or not yet (host_kernel_compiling)
    GRBCUDA_REASON_GPU_FAILED,      // the GPU path failed; the host computed the answer
    GRBCUDA_NREASONS
}
grbcuda_reason ;

// The layout of grbcuda_op_stats: fields are only ever appended, and
// GRBCUDA_STATS_VERSION counts the layouts (1: calls .. seconds; 2: +
// gpu_kernel_seconds, gpu_kernel_calls; 3: + gpu_bytes_uploaded,
// gpu_bytes_downloaded; 4: + host_gpu_starting, host_kernel_compiling). A program that finds grbcuda at run time (dlsym)
// asks grbcuda_stats_version () which fields the library fills.
#define GRBCUDA_STATS_VERSION 4

typedef struct
{
    uint64_t calls ;                        // calls that reached grbcuda
    uint64_t gpu ;                          // ... that ran on the GPU
    uint64_t host ;                         // ... that ran on the host
    uint64_t reason [GRBCUDA_NREASONS] ;    // host calls by reason ([0] = gpu)
    double   seconds ;                      // wall time spent in these calls;
                                            // a call that mode host, its arguments
                                            // or the threshold keep on the host is
                                            // timed only while GRBCUDA_STATS or the
                                            // verbose log is on (otherwise it reads
                                            // no clock: counted, not timed)
    // version 2:
    double   gpu_kernel_seconds ;   // device time of the GPU kernels of the
                                    // gpu_kernel_calls calls, measured with
                                    // CUDA events around each call's kernels
                                    // (first launch to last completion); the
                                    // rest of `seconds` is host work and
                                    // host<->device copies. 0 for host calls.
    uint64_t gpu_kernel_calls ;     // GPU calls whose kernels were timed
    // version 3:
    uint64_t gpu_bytes_uploaded ;   // host -> device bytes of the GPU calls
                                    // (operands not resident on the device)
    uint64_t gpu_bytes_downloaded ; // device -> host bytes (results)
    // version 4: host calls made while the GPU was not ready yet (auto mode,
    // off the critical path): CUDA starting in the background (counted
    // under GRBCUDA_REASON_NO_GPU), the call's kernel compiling in the
    // background (counted under GRBCUDA_REASON_NO_KERNEL)
    uint64_t host_gpu_starting ;
    uint64_t host_kernel_compiling ;
}
grbcuda_op_stats ;

// name: the GraphBLAS function name, e.g. "GrB_mxm", "GrB_Vector_eWiseAdd_Monoid".
// GrB_INVALID_VALUE if the name is not an interposed operation. Fills the
// whole struct of GRBCUDA_STATS_VERSION (a caller built against an older
// header must pass a buffer at least this large).
GrB_Info grbcuda_stats_get (const char *name, grbcuda_op_stats *stats) ;
// GRBCUDA_STATS_VERSION of this library: which fields grbcuda_stats_get fills.
int grbcuda_stats_version (void) ;
const char *grbcuda_reason_name (grbcuda_reason reason) ;
void grbcuda_stats_print (FILE *f) ;
void grbcuda_stats_reset (void) ;

#ifdef __cplusplus
}
#endif

#endif
