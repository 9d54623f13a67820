// gcu_jit.h — run-time specialisation of the generic kernels in cuda/ with
// NVRTC: code generation from a semiring description, compilation to CUBIN
// for the device's architecture, an in-memory and an on-disk cache, parallel
// batch compilation, and (only where a GPU is present) loading into a CUDA
// module. Internal header, never installed.
//
// Flow: dispatch -> gcu_semiring_identify (semirings/) -> a kernel family's
// spec (e.g. gcu_dot_masked_spec, src/mxm) -> its kernels function: generate the
// source block, key it, hit the caches or compile, load, return a function
// the device layer launches. Anything that cannot be done returns
// GCU_NOT_HANDLED and the call runs on the host.
#ifndef GCU_JIT_H
#define GCU_JIT_H

#include <GraphBLAS.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../semirings/gcu_semiring.h"

//------------------------------------------------------------------------------
// a growable string (code generation); an allocation failure is sticky and
// reported once, by gcu_str_take
//------------------------------------------------------------------------------

typedef struct
{
    char *p ;
    size_t len, cap ;
    bool failed ;
}
gcu_str ;

void  gcu_str_init (gcu_str *s) ;
void  gcu_str_free (gcu_str *s) ;
void  gcu_str_add  (gcu_str *s, const char *text) ;
void  gcu_str_addf (gcu_str *s, const char *fmt, ...) __attribute__((format(printf, 2, 3))) ;
// the text (caller frees), or NULL if an allocation failed; s is emptied
char *gcu_str_take (gcu_str *s) ;
// a fast 64-bit hash of len bytes (jit_str.c)
uint64_t gcu_text_hash (const void *s, size_t len, uint64_t seed) ;

//------------------------------------------------------------------------------
// configuration and state
//------------------------------------------------------------------------------

// true if NVRTC could be loaded (dlopen at first use)
bool gcu_jit_available (void) ;

// The target architecture as 10*major+minor (90 for sm_90). Order: set by
// gcu_jit_set_arch (called with the device's compute capability once CUDA
// is up: src/dispatch/gpu_start.c), else GRBCUDA_JIT_ARCH (e.g. "sm_90" or "90"),
// else the current CUDA device's, else 90.
int  gcu_jit_arch (void) ;
void gcu_jit_set_arch (int arch) ;   // 0: automatic again
// Loads NVRTC and the kernel sources (their digest, the disk cache's key)
// now: CUDA's start in the background does it once the GPU is usable, so
// that the first kernel a call asks for does not pay for the loading on the
// call's thread (65 and 93 ms for 1 ms vector calls in LAGraph's PageRank,
// H100 machine, 2026-11-27).
void gcu_jit_prepare (void) ;

// The on-disk cache directory: gcu_jit_set_cache_dir (tests), else
// GRBCUDA_CACHE_DIR (gcu_settings()->cache_dir), else
// $XDG_CACHE_HOME/grbcuda, else ~/.cache/grbcuda. dir NULL: back to the
// default; "" disables the disk cache.
void gcu_jit_set_cache_dir (const char *dir) ;
// writes the directory in use into buf ("" when there is none)
void gcu_jit_cache_dir (char *buf, size_t size) ;

// drop every compiled program held in memory (tests; not while kernels from
// this cache are running). Loaded modules are unloaded.
void gcu_jit_cache_clear_memory (void) ;

typedef struct
{
    uint64_t compiles ;         // NVRTC compilations that succeeded
    uint64_t failures ;         // ... that failed
    uint64_t memory_hits ;      // lookups answered from memory
    uint64_t disk_hits ;        // ... from the disk cache
    uint64_t disk_writes ;      // cache files written
    uint64_t disk_rejects ;     // cache files found corrupt or mismatched
    double   compile_seconds ;  // time inside NVRTC, all threads summed
}
gcu_jit_stats ;

void gcu_jit_stats_get (gcu_jit_stats *stats) ;
void gcu_jit_stats_reset (void) ;

//------------------------------------------------------------------------------
// compiling programs
//------------------------------------------------------------------------------

// A compiled program: CUBIN (or PTX when the device is newer than NVRTC's
// newest architecture). Owned by the in-memory cache: valid until
// gcu_jit_cache_clear_memory or process exit.
typedef struct gcu_jit_binary gcu_jit_binary ;

const void *gcu_jit_binary_data (const gcu_jit_binary *bin, size_t *size,
    bool *is_ptx) ;

// Compile one program (CUDA C++ source that may #include any file of cuda/
// by its path there, e.g. "masked/gcu_dot_masked.cuh"), through the caches.
// label names it in log messages. GCU_NOT_HANDLED when NVRTC is absent or the
// program does not compile (the compiler's log is printed in verbose mode).
GrB_Info gcu_jit_compile (const char *source, const char *label,
    const gcu_jit_binary **bin) ;

// Compile n independent programs in parallel on up to nthreads threads
// (0: one per core). status [k] and bins [k] are each program's result, as
// gcu_jit_compile gives them; the return value is GrB_SUCCESS if every one
// succeeded, else the first failure.
GrB_Info gcu_jit_compile_batch (int n, const char *const *sources,
    const char *const *labels, const gcu_jit_binary **bins, GrB_Info *status,
    int nthreads) ;

// No compilation on the critical path (issue 23). Between begin (allow)
// and end, on the calling thread, a program that is in neither cache does
// not compile in the call: it is queued for a background thread (whose
// result lands in both caches), and the request returns GCU_NOT_HANDLED at
// once, as does a request for a program another thread is compiling; end
// then returns true, and the caller computes on the host this time. Without
// begin (or with allow false) every request waits for its program, as
// always. Background compiles of one key happen once; failures are
// remembered like any other.
void gcu_jit_defer_begin (bool allow) ;
bool gcu_jit_defer_end (void) ;
// GrB_finalize (and exit): queued compiles are dropped (their keys compile
// again when next asked for), running ones are waited for (NVRTC cannot be
// interrupted). The JIT stays usable afterwards.
void gcu_jit_background_stop (void) ;
// the background compiles' looks for an idle core that found none
// (GRBCUDA_JIT_IDLE), since the process began
uint64_t gcu_jit_background_idle_waits (void) ;
// programs queued or compiling in the background; and waiting until none
// (tests, benchmarks)
int gcu_jit_background_pending (void) ;
void gcu_jit_background_wait (void) ;
// a compile a deferred request could be waiting for: NVRTC loading, or a
// background compile queued or under way
bool gcu_jit_busy (void) ;

// Join a preamble and n specialisation blocks into one program. Several
// blocks in one program share NVRTC's start-up and the parsing of the
// headers. Returns NULL when out of memory; the caller frees.
char *gcu_jit_program (const char *preamble, const char *const *blocks, int n) ;

// A family's one-block program (its preamble, then the block, which is taken
// and emptied), compiled through the caches (gcu_jit_compile): what each
// family's "kernels" function does before loading its entry points.
GrB_Info gcu_jit_compile_block (const char *preamble, gcu_str *block, const char *label,
    const gcu_jit_binary **bin) ;

// The rest of a family's "kernels" function once its block function has run
// (built: its status): on failure the block is freed and built returned;
// else the block is compiled (gcu_jit_compile_block) and its n entry points
// loaded in order (entries [k] into *fns [k]: gcu_jit_function), stopping
// at the first that fails.
GrB_Info gcu_jit_block_kernels (GrB_Info built, const char *preamble, gcu_str *block,
    const char *label, int n, const char *const *entries, void **const *fns) ;

//------------------------------------------------------------------------------
// the device side: only where a GPU and a CUDA context are present
//------------------------------------------------------------------------------

// The CUfunction of kernel entry in bin, loaded into the calling thread's
// current CUDA context (modules are cached per binary and context).
// GCU_NOT_HANDLED without a driver, a GPU or a current context.
GrB_Info gcu_jit_function (const gcu_jit_binary *bin, const char *entry,
    void **function) ;

// Modules loaded into a GPU context so far by gcu_jit_function: a call
// during which it moves paid for a kernel's first use.
unsigned long gcu_jit_modules_loaded (void) ;

// cuLaunchKernel (function, grid, block, shared memory, stream, args);
// stream is a CUstream / cudaStream_t (NULL: the legacy default stream).
GrB_Info gcu_jit_launch (void *function, unsigned grid, unsigned block,
    unsigned shmem, void *stream, void **args) ;

// The blocks of `block` threads and shmem bytes of dynamic shared memory
// that fit on one SM at once (cuOccupancyMaxActiveBlocksPerMultiprocessor);
// GCU_NOT_HANDLED without a driver.
GrB_Info gcu_jit_occupancy (void *function, unsigned block, unsigned shmem, int *blocks) ;

//------------------------------------------------------------------------------
// code generation shared by the kernel families (jit_codegen.c)
//------------------------------------------------------------------------------

// the operand side of a specialisation
typedef struct
{
    gcu_type_desc a, b, c ;     // value types of A, B and of the output
    int  mask_type ;            // GCU_T_* of a valued mask; -1: structural
    bool a_iso, b_iso, m_iso ;  // one value for all entries
    bool a_idx64, b_idx64, m_idx64 ;    // 64-bit row pointers and indices
    bool first_product ;        // the kernel starts each entry from its first
                                // product and never calls SR::identity, which
                                // then need not be neutral (complex TIMES has
                                // no neutral start: the struct gets none)
}
gcu_jit_operands ;

// Append to s the struct `SR` (see cuda/common/gcu_semiring.cuh) for the
// semiring and operands, preceded by the definitions of any user types and
// operators it uses; the struct starts at the line "struct SR". An operand
// the multiply never reads may be of a user type without a definition (it
// becomes opaque bytes). GCU_NOT_HANDLED if the combination cannot be
// expressed (a typecast to or from a user type, a type without definition).
GrB_Info gcu_codegen_semiring (gcu_str *s, const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops) ;

// Append what a kernel family's specialisation block needs before its
// kernel: the user definitions (at global scope) and `namespace <entry>_ns {
// struct SR ... }`. entry receives prefix + 20 hex digits of a hash of the
// SR text and key_extra (whatever else the block's code depends on, e.g. the
// index types), so equal specialisations get equal names and different ones
// never collide when packed into one program. The kernel then uses
// <entry>_ns::SR and is named <entry>.
#define GCU_JIT_ENTRY_MAX 64
GrB_Info gcu_codegen_namespace (gcu_str *s, const gcu_semiring_desc *sr,
    const gcu_jit_operands *ops, const char *prefix, const char *key_extra,
    char entry [GCU_JIT_ENTRY_MAX]) ;

// A write-back kernel's program (jit_writeback.c) for C of ctype, T of
// ttype and accum (NULL: a typecast only), the result of otype (NULL: C's
// type; another for an element-wise op's T = u op v), built-in types: the SR struct of
// the value policy gcu_merge_typed<SR> (cuda/writeback/gcu_merge.cuh), then
// the family's kernel text. GCU_NOT_HANDLED when the JIT cannot express it.
typedef struct
{
    const char *includes ;  // the preamble: the family's #include lines
    const char *body ;      // the kernel: a printf format taking the entry
                            // name twice (the function, the SR namespace)
    const char *prefix ;    // the entry names' prefix
    const char *tag ;       // tells the family's programs apart
    const char *what ;      // for the log
}
gcu_jit_writeback ;

GrB_Info gcu_jit_writeback_program (const gcu_jit_writeback *w, GrB_Type ctype,
    GrB_Type ttype, GrB_Type otype, GrB_BinaryOp accum, char **program,
    char entry [GCU_JIT_ENTRY_MAX], char *label, size_t lsize) ;
// ... compiled through the caches (no GPU needed), and its CUfunction
GrB_Info gcu_jit_writeback_compile (const gcu_jit_writeback *w, GrB_Type ctype,
    GrB_Type ttype, GrB_Type otype, GrB_BinaryOp accum, const gcu_jit_binary **bin,
    char entry [GCU_JIT_ENTRY_MAX]) ;
GrB_Info gcu_jit_writeback_kernel (const gcu_jit_writeback *w, GrB_Type ctype,
    GrB_Type ttype, GrB_Type otype, GrB_BinaryOp accum, void **fn) ;
// Whether the write-back can run on the device for C of ctype, T of ttype
// and accum: C of T's type with no accum (values as bytes), or built-in
// types and an accum the device computes exactly (not positional, not pow,
// atan2 or hypot).
bool gcu_jit_writeback_expressible (GrB_Type ctype, GrB_Type ttype, GrB_BinaryOp accum) ;

// the statements of a function body returning a value of type t held in
// bytes (a literal for built-in types, a byte copy for user types)
void gcu_codegen_value (gcu_str *s, const gcu_type_desc *t, const void *bytes) ;

// a short human-readable name: "PLUS_TIMES_FP64", "ANY_myop_mytype"
void gcu_codegen_label (char *buf, size_t size, const gcu_semiring_desc *sr) ;

// (the families' specialisations live with their host code: src/spgemm,
// src/mxm/gcu_dot_masked.h, src/mxv, src/reduce, src/vector)

#endif
