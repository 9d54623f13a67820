// gcu_test_cxx.h — the host C++ build of device code, for the tests that run
// the JIT's kernel headers (valid host C++17) on the CPU: find the compiler,
// write the kernel sources to a scratch folder, build generated code there
// into a shared object, remove the folder. test_jit_dot_reference.c and
// test_semiring_semantics.c use it.
//
// For GRBCUDA_TEST_INTERNAL tests only (it calls gcu_jit_sources), and
// header-only: the gcu_test library is linked after grbcuda_static, so a
// function of it could not call into the library.
#ifndef GCU_TEST_CXX_H
#define GCU_TEST_CXX_H

#include "gcu_test.h"
#include "../../src/jit/gcu_jit_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct
{
    const char *cxx ;       // the compiler: $CXX, else c++
    char dir [64] ;         // the scratch folder, with the kernel sources
    char lib [1024] ;       // the shared object built there
    char cmd [4096] ;       // the last compile command (for messages)
}
gcu_test_cxx ;

// Picks the compiler; true if it answers --version.
static inline bool gcu_test_cxx_find (gcu_test_cxx *x)
{
    memset (x, 0, sizeof (*x)) ;
    x->cxx = getenv ("CXX") ;
    if (x->cxx == NULL || x->cxx [0] == '\0') x->cxx = "c++" ;
    snprintf (x->cmd, sizeof (x->cmd), "%s --version > /dev/null 2>&1", x->cxx) ;
    return system (x->cmd) == 0 ;
}

// Makes /tmp/grbcuda-test-<tag>-XXXXXX and writes the kernel sources (the
// files of gcu_jit_sources in folders; not the C stand-ins) into it.
static inline bool gcu_test_cxx_setup (gcu_test_cxx *x, const char *tag)
{
    snprintf (x->dir, sizeof (x->dir), "/tmp/grbcuda-test-%s-XXXXXX", tag) ;
    if (mkdtemp (x->dir) == NULL) return false ;
    const gcu_jit_file *files ;
    int n ;
    const uint8_t *digest ;
    if (gcu_jit_sources (&files, &n, &digest) != GrB_SUCCESS) return false ;
    for (int k = 0 ; k < n ; k++)
    {
        if (strchr (files [k].name, '/') == NULL) continue ;   // the C stand-ins
        char path [1024] ;
        snprintf (path, sizeof (path), "%s/%s", x->dir, files [k].name) ;
        char *slash = strrchr (path, '/') ;
        *slash = '\0' ;
        mkdir (path, 0700) ;
        *slash = '/' ;
        FILE *f = fopen (path, "w") ;
        if (f == NULL) return false ;
        fputs (files [k].text, f) ;
        fclose (f) ;
    }
    return true ;
}

// Writes code to <dir>/<name>.cpp and builds <dir>/<name>.so (x->lib) from
// it as the JIT builds device code: C++17 and no FMA contraction (the JIT
// compiles with -fmad=false); extra: more flags, or "". Returns system()'s
// status; x->cmd holds the command.
static inline int gcu_test_cxx_build (gcu_test_cxx *x, const char *name,
    const char *code, const char *extra)
{
    char src [1024] ;
    snprintf (src, sizeof (src), "%s/%s.cpp", x->dir, name) ;
    snprintf (x->lib, sizeof (x->lib), "%s/%s.so", x->dir, name) ;
    FILE *f = fopen (src, "w") ;
    if (f == NULL) return -1 ;
    fputs (code, f) ;
    fclose (f) ;
    snprintf (x->cmd, sizeof (x->cmd), "%s -std=c++17 -O1 -ffp-contract=off -fPIC -shared "
        "%s -I%s -o %s %s", x->cxx, extra, x->dir, x->lib, src) ;
    return system (x->cmd) ;
}

// rm -rf dir (a scratch folder this test made).
static inline void gcu_test_rmtree (const char *dir)
{
    char cmd [1100] ;
    snprintf (cmd, sizeof (cmd), "rm -rf '%s'", dir) ;
    if (system (cmd) != 0) fprintf (stderr, "could not remove %s\n", dir) ;
}

#endif
