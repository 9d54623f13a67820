// gcu_jit_internal.h — what the files of src/jit share among themselves:
// the dynamically loaded NVRTC and CUDA driver entry points, and the kernel
// sources NVRTC compiles against. Nothing here includes nvrtc.h or cuda.h:
// both libraries are dlopen'd at first use, so libgrbcuda builds and loads
// where neither exists, and every call into them is checked.
#ifndef GCU_JIT_INTERNAL_H
#define GCU_JIT_INTERNAL_H

#include "gcu_jit.h"

//------------------------------------------------------------------------------
// NVRTC (jit_nvrtc.c): the C ABI of nvrtc.h, declared with plain types
//------------------------------------------------------------------------------

typedef int   gcu_nvrtcResult ;     // nvrtcResult; 0 is NVRTC_SUCCESS
typedef void *gcu_nvrtcProgram ;    // nvrtcProgram

typedef struct
{
    const char *(*GetErrorString) (gcu_nvrtcResult) ;
    gcu_nvrtcResult (*Version) (int *, int *) ;
    gcu_nvrtcResult (*GetNumSupportedArchs) (int *) ;
    gcu_nvrtcResult (*GetSupportedArchs) (int *) ;
    gcu_nvrtcResult (*CreateProgram) (gcu_nvrtcProgram *, const char *,
        const char *, int, const char *const *, const char *const *) ;
    gcu_nvrtcResult (*DestroyProgram) (gcu_nvrtcProgram *) ;
    gcu_nvrtcResult (*CompileProgram) (gcu_nvrtcProgram, int, const char *const *) ;
    gcu_nvrtcResult (*GetCUBINSize) (gcu_nvrtcProgram, size_t *) ;
    gcu_nvrtcResult (*GetCUBIN) (gcu_nvrtcProgram, char *) ;
    gcu_nvrtcResult (*GetPTXSize) (gcu_nvrtcProgram, size_t *) ;
    gcu_nvrtcResult (*GetPTX) (gcu_nvrtcProgram, char *) ;
    gcu_nvrtcResult (*GetProgramLogSize) (gcu_nvrtcProgram, size_t *) ;
    gcu_nvrtcResult (*GetProgramLog) (gcu_nvrtcProgram, char *) ;
    int major, minor ;          // NVRTC's version
    int narchs ;                // the architectures it compiles for
    int archs [64] ;
    char path [1024] ;          // the library that was loaded
}
gcu_nvrtc_api ;

// NVRTC, loaded once (thread-safe); NULL if it cannot be loaded
const gcu_nvrtc_api *gcu_nvrtc (void) ;

//------------------------------------------------------------------------------
// CUDA driver (jit_cuda.c)
//------------------------------------------------------------------------------

// compute capability (10*major+minor) of the current context's device, or
// of device ordinal `device` if no context is current; 0 if there is no
// driver or no such device
int gcu_cuda_device_arch (int device) ;

// unload every module of bin (cache clear); bin->modules is freed
void gcu_cuda_unload_modules (gcu_jit_binary *bin) ;

//------------------------------------------------------------------------------
// the disk cache (jit_disk.c)
//------------------------------------------------------------------------------

// The file of key in dir, read and verified: true with a malloc'd payload.
// false if there is none, or (*rejected, logged) one that is corrupt or stale.
bool gcu_jit_disk_read (const char *dir, const uint8_t key [32], void **data,
    size_t *size, bool *is_ptx, bool *rejected) ;
// Writes it (temporary file, then rename); true if written. A directory that
// cannot be created or written is logged once, until gcu_jit_disk_warn_again
// (a new cache directory).
bool gcu_jit_disk_write (const char *dir, const uint8_t key [32],
    const void *data, size_t size, bool is_ptx) ;
void gcu_jit_disk_warn_again (void) ;

//------------------------------------------------------------------------------
// kernel sources (jit_sources.c)
//------------------------------------------------------------------------------

typedef struct
{
    const char *name ;      // path relative to cuda/, e.g. "common/gcu_ops.cuh"
    const char *text ;
}
gcu_jit_file ;

// Every header NVRTC may see: the files of cuda/ (embedded in the library at
// build time, or read from the source / install tree) plus stand-ins for the
// C headers a user definition may include. digest is SHA-256 over all of it,
// part of every cache key. GCU_NOT_HANDLED if the sources cannot be found.
GrB_Info gcu_jit_sources (const gcu_jit_file **files, int *nfiles,
    const uint8_t **digest) ;

//------------------------------------------------------------------------------
// the in-memory cache entry (jit_compile.c)
//------------------------------------------------------------------------------

typedef struct gcu_jit_module
{
    struct gcu_jit_module *next ;
    void *context ;         // CUcontext the module was loaded into
    void *module ;          // CUmodule
}
gcu_jit_module ;

struct gcu_jit_binary
{
    struct gcu_jit_binary *next ;   // hash chain
    uint8_t key [32] ;
    int state ;                     // GCU_JIT_COMPILING / _READY / _FAILED
    bool is_ptx ;
    size_t size ;
    void *data ;
    gcu_jit_module *modules ;       // guarded by the module lock (jit_cuda.c)
} ;

#define GCU_JIT_COMPILING 0
#define GCU_JIT_READY     1
#define GCU_JIT_FAILED    2     // does not compile: remembered
#define GCU_JIT_RETRY     3     // ran out of memory, or abandoned in the
                                // background: the next request tries again

//------------------------------------------------------------------------------
// compiling one claimed entry (jit_compile.c), here or in the background
// (jit_background.c)
//------------------------------------------------------------------------------

// the status of a background compile dropped before it ran (GrB_finalize)
#define GCU_JIT_ABANDONED ((GrB_Info) 1002)

typedef struct gcu_jit_job
{
    struct gcu_jit_job *next ;  // the background queue
    gcu_jit_binary *b ;         // the entry, COMPILING, owned by this job
    char *source ;              // the program (the queue's own copy)
    char label [96] ;
    char target [32] ;          // "-arch=sm_90" or "-arch=compute_90"
    bool is_ptx ;
    char dir [1024] ;           // the disk cache ("" none)
}
gcu_jit_job ;

// NVRTC, then the disk cache's file, then the entry's state (READY, FAILED
// or RETRY), waking every thread that waits for it; the compiler's status
GrB_Info gcu_jit_build (const gcu_jit_job *j) ;
// the entry's outcome published (data is the entry's from now on)
void gcu_jit_publish (gcu_jit_binary *b, GrB_Info info, void *data, size_t size, bool is_ptx) ;

// the calling thread's policy (gcu_jit_defer_begin): may a compile it asks
// for go to the background?
bool gcu_jit_defer_wanted (void) ;
// gcu_jit_prepare under way (NVRTC loading on CUDA's start thread)
bool gcu_jit_preparing (void) ;
// a request of this thread was not served: its kernel compiles elsewhere
void gcu_jit_note_deferred (void) ;
// queues a copy of j for a background worker; false (nothing queued, the
// caller compiles) when out of memory, no worker can start, or the JIT is
// stopping (gcu_jit_background_stop)
bool gcu_jit_background_take (const gcu_jit_job *j) ;

#endif
