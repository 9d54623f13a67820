// gcu_cost.h — auto mode's cost model (issue 23): a call's predicted time on
// the host and on the GPU from its estimated work and the bytes it would
// move, with parameters kept as data (cost_model.txt, embedded at build
// time; a table per device model) rather than literals in the code.
// Internal to src/dispatch (and its tests).
#ifndef GCU_COST_H
#define GCU_COST_H

#include <GraphBLAS.h>
#include <stdbool.h>
#include "gcu_call.h"

// the GPU families the model tells apart (their names in the table)
#define GCU_COST_FAMILIES(X)            \
    X (SPGEMM, spgemm)                  \
    X (MASKED_SAXPY, masked_saxpy)      \
    X (MASKED_DOT, masked_dot)          \
    X (MXV, mxv)                        \
    X (SPMSPV, spmspv)                  \
    X (EWISE, ewise)

typedef enum
{
#define GCU_COST_ENUM(CODE, NAME) GCU_COST_##CODE,
    GCU_COST_FAMILIES (GCU_COST_ENUM)
#undef GCU_COST_ENUM
    GCU_COST_NFAMILIES
}
gcu_cost_family ;

typedef struct
{
    double host_fixed, host_rate ;      // s; work / s
    double gpu_fixed, gpu_rate ;
    double host_row ;                   // s per position of a vector result
                                        // (SuiteSparse's dense work: a mask,
                                        // a bitmap w); 0 where not given
    double gpu_rows ;                   // rows of a matrix result that fill
                                        // the GPU (row-wise kernels: a row a
                                        // block at most); fewer rows scale
                                        // gpu_rate down in proportion; 0: no
                                        // such bound
}
gcu_cost_rates ;

typedef struct
{
    char device [64] ;          // the table's device ("default")
    double margin ;             // the GPU when gpu * margin < host
    double h2d, d2h ;           // bytes / s
    double cuda_start ;         // s
    double jit_compile ;        // s, one program
    double wait_factor ;        // a call waits for a start or a compile
                                // costing at most host time / wait_factor
    double transpose ;          // s an entry: the host's transpose of a matrix
                                // uploaded in the orientation it is not held
                                // in (optional: 0 counts none)
    double device_transpose ;   // s an entry: the same built on the device
                                // from a copy uploaded as held (a matrix of
                                // gcu_operand_via_held_size's entries;
                                // optional: 0 counts none)
    double first_run ;          // s: a kind of call's first run on the GPU
                                // beyond its predicted time (its kernels'
                                // module loads, an SpMV plan); optional (0:
                                // none)
    gcu_cost_rates fam [GCU_COST_NFAMILIES] ;
}
gcu_cost_table ;

// The table for a GPU named device ("" or NULL: the default table) parsed
// from text. GrB_INVALID_VALUE (and the line, logged) for a line it does
// not understand or a value that is not a positive number.
GrB_Info gcu_cost_parse (const char *text, const char *device, gcu_cost_table *t) ;

// The table in use: GRBCUDA_COST_MODEL's file, else the embedded one, for
// the started GPU (the default one before CUDA has started). Never NULL.
const gcu_cost_table *gcu_cost_current (const char *device) ;

// Replaces the text of the tables (NULL: back to the embedded ones);
// GrB_INVALID_VALUE if it does not parse (nothing changes).
GrB_Info gcu_cost_set_text (const char *text) ;

// A call's mask, as the learned corrections tell calls apart (gcu_cost_factor).
typedef enum { GCU_MASK_NONE = 0, GCU_MASK_PLAIN = 1, GCU_MASK_COMP = 2, GCU_MASK_KINDS = 3 } gcu_cost_mask ;

// What the model needs of a call, and what it predicts.
typedef struct
{
    gcu_cost_family family ;
    gcu_op op ;                 // the call's operation and its mask: the
    gcu_cost_mask mask ;        // times learned for them (gcu_cost_factor)
    double work ;
    double up_bytes ;           // operands the GPU would upload
    double up_matrix_bytes ;    // ... of them, matrices: at h2d, the floor
                                // of the GPU's time (gcu_cost_predict)
    double up_transpose ;       // entries of those matrices that the export
                                // transposes (held by column, wanted by row,
                                // or the reverse): at transpose, in the floor
    double up_transpose_dev ;   // ... that the device builds from a copy
                                // uploaded as held: at device_transpose
    double down_bytes ;         // what must come back after the GPU
    double newest_bytes ;       // device-newest operands the host must download
    double host_measured ;      // > 0: the host's time as a repeat of the call
                                // measured it (gcu_cost_repeat_get), in place
                                // of the table's and the learned correction
                                // (newest_bytes' download added to it)
    double gpu_kernels ;        // > 0: the GPU's kernels' time as a repeat of
                                // the call measured it, in place of the
                                // table's work term and the learned correction
    double rows ;               // a vector result's length (0: a matrix's)
    double out_rows ;           // a matrix result's rows (0: a vector's)
    double full_work ;          // spmspv: the matrix's entries. SuiteSparse
                                // takes a large frontier by its pull (dot)
                                // method: its time is at most that of the
                                // whole matrix at the mxv family's rate.
                                // Not always: a vxm of a matrix held by row
                                // scatters, at rates measured 4.5x apart
                                // (PageRank's u on rmat-22-16, 57% present:
                                // 300 ms where this bound says 30; SSSP's on
                                // rmat-20-16, 52%: 15 ms where it says 7).
                                // Dropping the bound there sent SSSP's
                                // rebuilt matrices to the GPU, 1.9x slower
                                // (H100 machine, 2026-11-26): kept until a
                                // rate keyed on u's storage is measured
    double first_s ;            // s the GPU's time adds for the call's kind's
                                // first run there (gcu_cost_first_s); paid
                                // as a rent, like an upload (predict.c)
    double host_after ;         // s the host's choice costs after the call:
                                // its result's upload by a GPU call, as
                                // often as C's host values went up
                                // (predict.c); in host_s, not host_table
    bool down_later ;           // the GPU's result stays on the device: its
                                // download (down_bytes) is a later
                                // write-back, not part of the call's time
}
gcu_cost_input ;

typedef struct
{
    double host_s, gpu_s ;      // corrected by the times learned (gcu_cost_factor)
    double host_table, gpu_table ;  // the table's alone
    double gpu_call_table ;     // gpu_table less a later download
                                // (down_later): what the call's own time
                                // is compared with (gcu_cost_learn)
    bool gpu ;                  // the GPU wins by the margin
}
gcu_cost_choice ;

void gcu_cost_predict (const gcu_cost_table *t, const gcu_cost_input *in, gcu_cost_choice *out) ;

// the family's name in the table
const char *gcu_cost_family_name (gcu_cost_family f) ;

// The table's predictions corrected by what this program's calls of the
// same operation and size took, on the host and on the GPU.
// The host: SuiteSparse's time for one kind of call varies beyond what a
// rate a family can say (LAGraph on rmat-20-16, H100 machine with 16 cores,
// 2026-11-26: a vector eWiseMult of 1M entries took 0.07 ms in connected
// components and 6-38 ms in PageRank, both predicted 1.5 ms; PageRank's vxm
// on rmat-22-16 took 300 ms, predicted 30).
// The GPU: a kernel can meet a shape its rate does not know (LAGraph's
// connected components on rmat-20-16, same machine, 2026-11-26 16:00: a pull
// mxv over FastSV's parent matrix, 1M entries with rows of up to ~1M,
// predicted 2.1 ms, took 88 ms a call, three times a trial: the trial took
// 248 ms against SuiteSparse's 17).
// Learned per side, operation, family (LAGraph's betweenness and triangle
// counting both call GrB_mxm, and the first taught the second to stay on the
// host) and decade of the table's prediction: a running mean of
// log(measured / predicted), each call's ratio within 1/64..64; 1 before
// any call of the kind has been measured.
// And per mask (none, a mask, a complemented one): PageRank's masked
// scalar assign rsink<sink> = r shared the unmasked r = teleport's factor,
// predicted 0.02 ms where it took 1.5-1.7 on the host (H100, 2026-11-28).
typedef enum { GCU_SIDE_HOST = 0, GCU_SIDE_GPU = 1 } gcu_cost_side ;
gcu_cost_mask gcu_cost_mask_of (const gcu_call *c) ;
double gcu_cost_factor (gcu_cost_side side, gcu_op op, gcu_cost_family f, gcu_cost_mask m, double table_s) ;
// A call of op in family f with mask m on that side, predicted table_s by
// the table, took s seconds.
void gcu_cost_learn (gcu_cost_side side, gcu_op op, gcu_cost_family f, gcu_cost_mask m,
    double table_s, double s) ;
// Writes a line (prefix first) for each learned correction beyond 2x either
// way into buf (cap bytes); returns the length written.
// A call of the kind the host ran because the host was predicted faster,
// the GPU predicted gpu_table_s by the table: the GPU's learned slowdown for
// the kind (a factor above 1) steps back toward the table.
void gcu_cost_doubt (gcu_op op, gcu_cost_family f, gcu_cost_mask m, double gpu_table_s) ;
size_t gcu_cost_learned_print (char *buf, size_t cap, const char *prefix) ;
// how many calls of the kind, predicted table_s by the table (its decade),
// have been measured on that side in this program (gcu_cost_learn; to 255)
int gcu_cost_measured (gcu_cost_side side, gcu_op op, gcu_cost_family f, gcu_cost_mask m, double table_s) ;
// forgets what was learned (tests)
void gcu_cost_forget (void) ;

// A checked call's two predictions (call->host_s, gpu_s) from the call's
// operands as they are now (src/dispatch/predict.c): true if the GPU wins by
// the margin, or the rent of its uploads is paid (call->rent_paid set).
bool gcu_predict (gcu_call *c, const gcu_cost_table *t) ;

// Ski rental for an operand the GPU would upload: a call that would run
// faster on the GPU if the operand key were there already, but not with its
// upload (cost seconds), runs on the host, and the time it lost there is
// added up per operand (a version: its entries, say; another version starts
// again from nothing): its measured host time less the GPU's predicted time
// with the operand there (gcu_cost_amortize_add, once the host has run it).
// Once the host time lost on key pays for the upload, gcu_cost_amortized
// answers true: the call uploads it, and the calls after it find it
// there. The rent starts again from nothing once a GPU call has made the
// upload (gcu_cost_amortize_paid; a call that still went to the host, CUDA
// starting or its kernel compiling, leaves it due). A program that calls
// with the same operands again and again (a BFS's levels, an iterative
// solver) so pays at most about twice the better of the two choices made in
// hindsight. A purchase that does not stay (the host reads or changes the
// operand again, and the rent for it starts over: a vector of LAGraph's
// connected components, bought 25 times in 3 calls on grid3d-100, 11x
// slower than SuiteSparse, 2026-11-26) makes the next one cost twice as
// much, up to 64 times the upload.
// The time lost is the host's measured one, not its prediction: LAGraph's
// connected components on urand-20-16 had mxv calls predicted 1.3-3.2 ms on
// the host that took 0.25-1.5, and their predicted gains paid for CUDA's
// start, which then ran beside the program's own OpenMP loops (1.17x
// SuiteSparse's time, H100 machine, 2026-11-27).
void gcu_cost_amortize_add (const void *key, uint64_t version, double gain) ;
bool gcu_cost_amortized (const void *key, uint64_t version, double cost) ;
void gcu_cost_amortize_paid (const void *key) ;
// A program that builds the same matrix again (LAGraph's SSSP makes its AL
// anew in every call) starts each copy's rent from nothing and, when one
// call's gains barely pay it, never keeps the GPU: a matrix whose signature
// (dimensions, entries, type) is one whose rent paid before pays at once.
bool gcu_cost_sig_paid (uint64_t sig) ;
void gcu_cost_sig_record (uint64_t sig) ;
// A matrix the host made from another where a GPU family would have made it
// on the device from that one (GrB_Matrix_select's C from A: SSSP's AL and
// AH, made anew from the graph's A in every call): when a later call buys
// the made matrix's upload, what it cost goes to the source's rent too (with
// the source there, the made matrix would have been made there, not
// uploaded). The last few such pairs are kept.
void gcu_cost_lineage_record (const void *made, const void *source, uint64_t version) ;
void gcu_cost_lineage_credit (const void *made, double seconds) ;
// A kind of call's first run on the GPU (gcu_cost_site_key): what the
// GPU's time adds for it, the table's first_run, 0 once the kind has run
// there (gcu_cost_first_ran). Not learned from the program's first runs:
// the process's first GPU calls pay for more than their kind (its first
// allocations, the pool's growth, CUDA's lazy loading), and a running mean
// of their excess reached 85 ms in LAGraph's BFS on rmat-20-16, which then
// kept every kind on the host (H200, 2026-11-29).
double gcu_cost_first_s (const gcu_cost_table *t, uint64_t site) ;
void gcu_cost_first_ran (uint64_t site) ;

// Measured times by key: a call's host time by its repeat key
// (gcu_call.repeat_key), put after the host ran it; a product's kernels'
// time by its kernel key (gcu_call.kernel_key), put after the GPU ran it.
// get: false if none is kept. The last few keys.
void gcu_cost_repeat_put (uint64_t key, double seconds) ;
bool gcu_cost_repeat_get (uint64_t key, double *seconds) ;
// A product's kernel key: its operation, operands' shapes and entry counts
// (not their handles: a re-made operand of the same shape finds it), the
// semiring, the mask and the descriptor's flags; 0 for what has none (not
// mxm/mxv/vxm, or a sparse u's product). predict.c.
uint64_t gcu_cost_kernel_key (const gcu_call *c, gcu_cost_family f) ;
// The operands' upload time a GPU call would take (gcu_cost_predict's
// part for in->up_bytes and in->up_transpose). cost.c.
double gcu_cost_upload_s (const gcu_cost_table *t, const gcu_cost_input *in) ;
// A call's kind, for what becomes of its results (the residency cache's
// write-back share by kind, gcu_residency_writeback_share): its operation,
// operators, result's dimensions and mask flags; never 0. predict.c.
uint64_t gcu_cost_site_key (const gcu_call *c) ;
// forgets all (tests)
void gcu_cost_amortize_reset (void) ;

#endif
