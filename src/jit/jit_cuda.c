// jit_cuda.c — the device side of the JIT: load a compiled program into a
// CUDA module of the calling thread's current context, find a kernel in it,
// launch it. The driver (libcuda.so.1) is dlopen'd at first use, so nothing
// here is attempted, and nothing fails to link, where there is no driver or
// no GPU: every function returns GCU_NOT_HANDLED instead.
//
// Contexts are the device layer's business: it makes one current (through
// the runtime's primary context or otherwise) before asking for a function.
// Modules are cached per (program, context).
#include "gcu_jit_internal.h"
#include "../util/gcu_util.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef int gcu_CUresult ;      // CUresult; 0 is CUDA_SUCCESS

static struct
{
    gcu_CUresult (*Init) (unsigned) ;
    gcu_CUresult (*DeviceGet) (int *, int) ;
    gcu_CUresult (*DeviceGetAttribute) (int *, int, int) ;
    gcu_CUresult (*CtxGetCurrent) (void **) ;
    gcu_CUresult (*CtxGetDevice) (int *) ;
    gcu_CUresult (*ModuleLoadData) (void **, const void *) ;
    gcu_CUresult (*ModuleUnload) (void *) ;
    gcu_CUresult (*ModuleGetFunction) (void **, void *, const char *) ;
    gcu_CUresult (*LaunchKernel) (void *, unsigned, unsigned, unsigned,
        unsigned, unsigned, unsigned, unsigned, void *, void **, void **) ;
    gcu_CUresult (*GetErrorString) (gcu_CUresult, const char **) ;
    gcu_CUresult (*FuncSetAttribute) (void *, int, int) ;
    gcu_CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor) (int *, void *, int, size_t) ;
}
gcu_cu ;

// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: a launch with more than
// the default 48 KiB of dynamic shared memory must first raise the limit
#define GCU_CU_FUNC_MAX_DYNAMIC_SHARED 8
#define GCU_CU_DEFAULT_SHARED (48 * 1024)

static bool gcu_cu_ok = false ;
static pthread_once_t gcu_cu_once = PTHREAD_ONCE_INIT ;
static pthread_mutex_t gcu_module_lock = PTHREAD_MUTEX_INITIALIZER ;
static _Atomic unsigned long modules_loaded ;

unsigned long gcu_jit_modules_loaded (void)
{
    return atomic_load_explicit (&modules_loaded, memory_order_relaxed) ;
}

// CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR
#define GCU_CU_CC_MAJOR 75
#define GCU_CU_CC_MINOR 76

static void gcu_cu_load (void)
{
    void *h = dlopen ("libcuda.so.1", RTLD_NOW | RTLD_LOCAL) ;
    if (h == NULL) return ;
    bool ok = true ;
    #define GCU_CU_SYM(field, name)                                         \
        do {                                                                \
            *(void **) (&gcu_cu.field) = dlsym (h, name) ;                  \
            if (gcu_cu.field == NULL) ok = false ;                          \
        } while (0)
    GCU_CU_SYM (Init,               "cuInit") ;
    GCU_CU_SYM (DeviceGet,          "cuDeviceGet") ;
    GCU_CU_SYM (DeviceGetAttribute, "cuDeviceGetAttribute") ;
    GCU_CU_SYM (CtxGetCurrent,      "cuCtxGetCurrent") ;
    GCU_CU_SYM (CtxGetDevice,       "cuCtxGetDevice") ;
    GCU_CU_SYM (ModuleLoadData,     "cuModuleLoadData") ;
    GCU_CU_SYM (ModuleUnload,       "cuModuleUnload") ;
    GCU_CU_SYM (ModuleGetFunction,  "cuModuleGetFunction") ;
    GCU_CU_SYM (LaunchKernel,       "cuLaunchKernel") ;
    GCU_CU_SYM (GetErrorString,     "cuGetErrorString") ;
    GCU_CU_SYM (FuncSetAttribute,   "cuFuncSetAttribute") ;
    GCU_CU_SYM (OccupancyMaxActiveBlocksPerMultiprocessor,
                                    "cuOccupancyMaxActiveBlocksPerMultiprocessor") ;
    #undef GCU_CU_SYM
    if (!ok)
    {
        gcu_log ("the CUDA driver lacks an entry point the JIT needs") ;
        return ;
    }
    gcu_cu_ok = true ;
}

static bool gcu_cu_available (void)
{
    pthread_once (&gcu_cu_once, gcu_cu_load) ;
    return gcu_cu_ok ;
}

static const char *gcu_cu_error (gcu_CUresult r)
{
    const char *s = NULL ;
    if (gcu_cu.GetErrorString == NULL || gcu_cu.GetErrorString (r, &s) != 0 || s == NULL)
    {
        return "unknown CUDA error" ;
    }
    return s ;
}

int gcu_cuda_device_arch (int device)
{
    if (!gcu_cu_available ()) return 0 ;
    void *ctx = NULL ;
    int dev = -1 ;
    if (gcu_cu.CtxGetCurrent (&ctx) == 0 && ctx != NULL &&
        gcu_cu.CtxGetDevice (&dev) == 0)
    {
        // the device the caller is working on
    }
    else
    {
        // cuInit is idempotent and cheap once CUDA is up; without a GPU it
        // fails and we report none
        if (gcu_cu.Init (0) != 0 || gcu_cu.DeviceGet (&dev, device) != 0) return 0 ;
    }
    int major = 0, minor = 0 ;
    if (gcu_cu.DeviceGetAttribute (&major, GCU_CU_CC_MAJOR, dev) != 0 ||
        gcu_cu.DeviceGetAttribute (&minor, GCU_CU_CC_MINOR, dev) != 0)
    {
        return 0 ;
    }
    return 10 * major + minor ;
}

GrB_Info gcu_jit_function (const gcu_jit_binary *bin, const char *entry,
    void **function)
{
    if (bin == NULL || entry == NULL || function == NULL) return GrB_NULL_POINTER ;
    *function = NULL ;
    if (!gcu_cu_available ()) return GCU_NOT_HANDLED ;
    void *ctx = NULL ;
    gcu_CUresult r = gcu_cu.CtxGetCurrent (&ctx) ;
    if (r != 0 || ctx == NULL)
    {
        gcu_log ("JIT: no current CUDA context to load a kernel into") ;
        return GCU_NOT_HANDLED ;
    }
    // the binary is shared; its module list is guarded by the module lock
    gcu_jit_binary *b = (gcu_jit_binary *) bin ;
    pthread_mutex_lock (&gcu_module_lock) ;
    gcu_jit_module *m = b->modules ;
    while (m != NULL && m->context != ctx) m = m->next ;
    if (m == NULL)
    {
        m = calloc (1, sizeof (gcu_jit_module)) ;
        if (m == NULL)
        {
            pthread_mutex_unlock (&gcu_module_lock) ;
            return GrB_OUT_OF_MEMORY ;
        }
        r = gcu_cu.ModuleLoadData (&m->module, b->data) ;
        if (r != 0)
        {
            pthread_mutex_unlock (&gcu_module_lock) ;
            gcu_log ("JIT: cuModuleLoadData failed: %s", gcu_cu_error (r)) ;
            free (m) ;
            return GCU_NOT_HANDLED ;
        }
        m->context = ctx ;
        m->next = b->modules ;
        b->modules = m ;
        atomic_fetch_add_explicit (&modules_loaded, 1, memory_order_relaxed) ;
    }
    r = gcu_cu.ModuleGetFunction (function, m->module, entry) ;
    pthread_mutex_unlock (&gcu_module_lock) ;
    if (r != 0)
    {
        gcu_log ("JIT: kernel %s not found: %s", entry, gcu_cu_error (r)) ;
        *function = NULL ;
        return GCU_NOT_HANDLED ;
    }
    return GrB_SUCCESS ;
}

GrB_Info gcu_jit_launch (void *function, unsigned grid, unsigned block,
    unsigned shmem, void *stream, void **args)
{
    if (function == NULL || args == NULL) return GrB_NULL_POINTER ;
    if (!gcu_cu_available ()) return GCU_NOT_HANDLED ;
    if (grid == 0 || block == 0) return GrB_SUCCESS ;
    gcu_CUresult r = 0 ;
    if (shmem > GCU_CU_DEFAULT_SHARED)
    {
        r = gcu_cu.FuncSetAttribute (function, GCU_CU_FUNC_MAX_DYNAMIC_SHARED, (int) shmem) ;
        if (r != 0)
        {
            gcu_log ("JIT: %u bytes of shared memory refused: %s", shmem, gcu_cu_error (r)) ;
            return GCU_NOT_HANDLED ;
        }
    }
    r = gcu_cu.LaunchKernel (function, grid, 1, 1, block, 1, 1,
        shmem, stream, args, NULL) ;
    if (r != 0)
    {
        gcu_log ("JIT: kernel launch failed: %s", gcu_cu_error (r)) ;
        return GCU_NOT_HANDLED ;
    }
    return GrB_SUCCESS ;
}

GrB_Info gcu_jit_occupancy (void *function, unsigned block, unsigned shmem, int *blocks)
{
    *blocks = 0 ;
    if (function == NULL) return GrB_NULL_POINTER ;
    if (!gcu_cu_available ()) return GCU_NOT_HANDLED ;
    const gcu_CUresult r = gcu_cu.OccupancyMaxActiveBlocksPerMultiprocessor (blocks, function,
        (int) block, (size_t) shmem) ;
    return r == 0 ? GrB_SUCCESS : GCU_NOT_HANDLED ;
}

void gcu_cuda_unload_modules (gcu_jit_binary *bin)
{
    pthread_mutex_lock (&gcu_module_lock) ;
    gcu_jit_module *m = bin->modules ;
    bin->modules = NULL ;
    pthread_mutex_unlock (&gcu_module_lock) ;
    while (m != NULL)
    {
        gcu_jit_module *next = m->next ;
        // a module can only be unloaded where a driver loaded it
        if (gcu_cu_ok && m->module != NULL) (void) gcu_cu.ModuleUnload (m->module) ;
        free (m) ;
        m = next ;
    }
}
