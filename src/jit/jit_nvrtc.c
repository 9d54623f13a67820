// jit_nvrtc.c — load NVRTC with dlopen at first use. The library works (and
// passes everything through to SuiteSparse) where NVRTC is absent: this just
// returns NULL and the JIT says GCU_NOT_HANDLED.
//
// Search order: GRBCUDA_NVRTC (a path; if set, nothing else is tried),
// libnvrtc.so.13, libnvrtc.so.12, libnvrtc.so on the loader's path, then the
// same names under $CUDA_HOME, $CUDA_PATH and /usr/local/cuda (lib64), where
// toolkits usually live without being on the loader's path.
#include "gcu_jit_internal.h"
#include "../util/gcu_util.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gcu_nvrtc_api gcu_nvrtc_table ;
static bool gcu_nvrtc_ok = false ;
static pthread_once_t gcu_nvrtc_once = PTHREAD_ONCE_INIT ;

static const char *const gcu_nvrtc_names [] =
{
    "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"
} ;
#define GCU_NVRTC_NNAMES (sizeof (gcu_nvrtc_names) / sizeof (gcu_nvrtc_names [0]))

static void *gcu_nvrtc_open (char *path, size_t size)
{
    const char *env = getenv ("GRBCUDA_NVRTC") ;
    if (env != NULL && env [0] != '\0')
    {
        // an explicit choice is honoured: no other library is tried (which
        // also lets a test run the library as if NVRTC were absent)
        void *h = dlopen (env, RTLD_NOW | RTLD_LOCAL) ;
        if (h != NULL) { snprintf (path, size, "%s", env) ; return h ; }
        gcu_log ("GRBCUDA_NVRTC=%s: %s", env, dlerror ()) ;
        return NULL ;
    }
    for (size_t k = 0 ; k < GCU_NVRTC_NNAMES ; k++)
    {
        void *h = dlopen (gcu_nvrtc_names [k], RTLD_NOW | RTLD_LOCAL) ;
        if (h != NULL) { snprintf (path, size, "%s", gcu_nvrtc_names [k]) ; return h ; }
    }
    const char *roots [3] = { getenv ("CUDA_HOME"), getenv ("CUDA_PATH"), "/usr/local/cuda" } ;
    for (int r = 0 ; r < 3 ; r++)
    {
        if (roots [r] == NULL || roots [r][0] == '\0') continue ;
        for (size_t k = 0 ; k < GCU_NVRTC_NNAMES ; k++)
        {
            char p [1024] ;
            snprintf (p, sizeof (p), "%s/lib64/%s", roots [r], gcu_nvrtc_names [k]) ;
            void *h = dlopen (p, RTLD_NOW | RTLD_LOCAL) ;
            if (h != NULL) { snprintf (path, size, "%s", p) ; return h ; }
        }
    }
    return NULL ;
}

static void gcu_nvrtc_load (void)
{
    gcu_nvrtc_api *t = &gcu_nvrtc_table ;
    memset (t, 0, sizeof (*t)) ;
    void *h = gcu_nvrtc_open (t->path, sizeof (t->path)) ;
    if (h == NULL)
    {
        gcu_log ("NVRTC not found: kernels cannot be compiled, calls stay on the host") ;
        return ;
    }
    bool ok = true ;
    #define GCU_NVRTC_SYM(field, name)                                      \
        do {                                                                \
            *(void **) (&t->field) = dlsym (h, name) ;                      \
            if (t->field == NULL) { gcu_log ("NVRTC lacks %s", name) ; ok = false ; } \
        } while (0)
    GCU_NVRTC_SYM (GetErrorString,       "nvrtcGetErrorString") ;
    GCU_NVRTC_SYM (Version,              "nvrtcVersion") ;
    GCU_NVRTC_SYM (GetNumSupportedArchs, "nvrtcGetNumSupportedArchs") ;
    GCU_NVRTC_SYM (GetSupportedArchs,    "nvrtcGetSupportedArchs") ;
    GCU_NVRTC_SYM (CreateProgram,        "nvrtcCreateProgram") ;
    GCU_NVRTC_SYM (DestroyProgram,       "nvrtcDestroyProgram") ;
    GCU_NVRTC_SYM (CompileProgram,       "nvrtcCompileProgram") ;
    GCU_NVRTC_SYM (GetCUBINSize,         "nvrtcGetCUBINSize") ;
    GCU_NVRTC_SYM (GetCUBIN,             "nvrtcGetCUBIN") ;
    GCU_NVRTC_SYM (GetPTXSize,           "nvrtcGetPTXSize") ;
    GCU_NVRTC_SYM (GetPTX,               "nvrtcGetPTX") ;
    GCU_NVRTC_SYM (GetProgramLogSize,    "nvrtcGetProgramLogSize") ;
    GCU_NVRTC_SYM (GetProgramLog,        "nvrtcGetProgramLog") ;
    #undef GCU_NVRTC_SYM
    if (ok && t->Version (&t->major, &t->minor) != 0) ok = false ;
    if (ok)
    {
        int n = 0 ;
        if (t->GetNumSupportedArchs (&n) != 0 || n <= 0 || n > 64 ||
            t->GetSupportedArchs (t->archs) != 0)
        {
            ok = false ;
        }
        else
        {
            t->narchs = n ;
        }
    }
    if (!ok)
    {
        // a library we cannot use is as good as none; keep the handle (an
        // unload could race with nothing, but gains nothing either)
        gcu_log ("NVRTC at %s is unusable", t->path) ;
        return ;
    }
    gcu_log ("NVRTC %d.%d loaded from %s", t->major, t->minor, t->path) ;
    gcu_nvrtc_ok = true ;
}

const gcu_nvrtc_api *gcu_nvrtc (void)
{
    pthread_once (&gcu_nvrtc_once, gcu_nvrtc_load) ;
    return gcu_nvrtc_ok ? &gcu_nvrtc_table : NULL ;
}

bool gcu_jit_available (void)
{
    return gcu_nvrtc () != NULL ;
}
