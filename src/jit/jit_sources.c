// jit_sources.c — the kernel sources NVRTC compiles against: every file of
// cuda/ (by its path there), plus stand-ins for the C headers a user type or
// operator definition may #include.
//
// Where they come from, first match wins:
//   1. GRBCUDA_JIT_SOURCE_DIR: a cuda/ tree to use instead (kernel work
//      without rebuilding the library);
//   2. the copy embedded in the library at build time (src/jit/embed.cmake),
//      so an installed library needs no source tree;
//   3. GRBCUDA_SOURCE_DIR/cuda (a build tree), then
//      GRBCUDA_INSTALL_DATADIR (compile definitions set by CMake).
// Loaded once; the SHA-256 over all names and texts is part of every cache
// key, so editing any kernel header invalidates the cached binaries.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gcu_jit_internal.h"
#include "gcu_sha256.h"
#include "../util/gcu_util.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

// Provided by the file embed.cmake generates; weak, so that the library also
// links without it and then reads the sources from disk.
extern const gcu_jit_file gcu_jit_embedded_files [] __attribute__((weak)) ;
extern const int gcu_jit_embedded_nfiles __attribute__((weak)) ;

// NVRTC has no C library headers. The built-in device math functions,
// memcpy and the fixed-width integer types (gcu_types.cuh) are all there, so
// these only need to exist.
static const gcu_jit_file gcu_jit_stubs [] =
{
    { "stdint.h",  "#pragma once\n" },
    { "stdbool.h", "#pragma once\n" },
    { "stddef.h",  "#pragma once\n" },
    { "math.h",    "#pragma once\n" },
    { "string.h",  "#pragma once\n" },
    { "stdlib.h",  "#pragma once\n" },
    { "limits.h",  "#pragma once\n" },
    { "float.h",   "#pragma once\n" },
} ;
#define GCU_NSTUBS ((int) (sizeof (gcu_jit_stubs) / sizeof (gcu_jit_stubs [0])))

static pthread_once_t gcu_sources_once = PTHREAD_ONCE_INIT ;
static gcu_jit_file *gcu_sources = NULL ;
static int gcu_nsources = 0 ;
static uint8_t gcu_sources_digest [32] ;
static bool gcu_sources_ok = false ;

//------------------------------------------------------------------------------
// reading a cuda/ tree from disk
//------------------------------------------------------------------------------

typedef struct
{
    gcu_jit_file *f ;
    int n, cap ;
    bool failed ;
}
gcu_file_list ;

static char *gcu_read_text (const char *path)
{
    FILE *f = fopen (path, "rb") ;
    if (f == NULL) return NULL ;
    char *text = NULL ;
    if (fseek (f, 0, SEEK_END) == 0)
    {
        long n = ftell (f) ;
        if (n >= 0 && fseek (f, 0, SEEK_SET) == 0)
        {
            text = malloc ((size_t) n + 1) ;
            if (text != NULL)
            {
                if (fread (text, 1, (size_t) n, f) != (size_t) n)
                {
                    free (text) ;
                    text = NULL ;
                }
                else
                {
                    text [n] = '\0' ;
                }
            }
        }
    }
    fclose (f) ;
    return text ;
}

static bool gcu_is_source_name (const char *name)
{
    size_t n = strlen (name) ;
    return (n > 4 && strcmp (name + n - 4, ".cuh") == 0) ||
           (n > 2 && strcmp (name + n - 2, ".h") == 0) ;
}

// add every .cuh / .h under root/rel, named by its path relative to root
static void gcu_walk (gcu_file_list *L, const char *root, const char *rel, int depth)
{
    if (depth > 8 || L->failed) return ;
    char dir [2048] ;
    snprintf (dir, sizeof (dir), "%s%s%s", root, rel [0] ? "/" : "", rel) ;
    DIR *d = opendir (dir) ;
    if (d == NULL) return ;
    struct dirent *de ;
    while ((de = readdir (d)) != NULL && !L->failed)
    {
        if (de->d_name [0] == '.') continue ;
        char relpath [1024], full [2048] ;
        snprintf (relpath, sizeof (relpath), "%s%s%s", rel, rel [0] ? "/" : "", de->d_name) ;
        snprintf (full, sizeof (full), "%s/%s", root, relpath) ;
        struct stat st ;
        if (stat (full, &st) != 0) continue ;
        if (S_ISDIR (st.st_mode))
        {
            gcu_walk (L, root, relpath, depth + 1) ;
        }
        else if (S_ISREG (st.st_mode) && gcu_is_source_name (de->d_name))
        {
            if (L->n == L->cap)
            {
                int cap = (L->cap == 0) ? 16 : 2 * L->cap ;
                gcu_jit_file *f = realloc (L->f, (size_t) cap * sizeof (gcu_jit_file)) ;
                if (f == NULL) { L->failed = true ; break ; }
                L->f = f ;
                L->cap = cap ;
            }
            char *name = strdup (relpath) ;
            char *text = gcu_read_text (full) ;
            if (name == NULL || text == NULL)
            {
                free (name) ;
                free (text) ;
                L->failed = true ;
                break ;
            }
            L->f [L->n].name = name ;
            L->f [L->n].text = text ;
            L->n++ ;
        }
    }
    closedir (d) ;
}

static void gcu_list_free (gcu_file_list *L)
{
    for (int k = 0 ; k < L->n ; k++)
    {
        free ((char *) L->f [k].name) ;
        free ((char *) L->f [k].text) ;
    }
    free (L->f) ;
    memset (L, 0, sizeof (*L)) ;
}

// the tree at dir, if it holds the common headers
static bool gcu_load_dir (gcu_file_list *L, const char *dir)
{
    if (dir == NULL || dir [0] == '\0') return false ;
    gcu_walk (L, dir, "", 0) ;
    bool ok = !L->failed ;
    if (ok)
    {
        ok = false ;
        for (int k = 0 ; k < L->n ; k++)
        {
            if (strcmp (L->f [k].name, "common/gcu_semiring.cuh") == 0) ok = true ;
        }
    }
    if (!ok) gcu_list_free (L) ;
    else gcu_log ("JIT: kernel sources from %s", dir) ;
    return ok ;
}

static int gcu_file_cmp (const void *a, const void *b)
{
    return strcmp (((const gcu_jit_file *) a)->name, ((const gcu_jit_file *) b)->name) ;
}

//------------------------------------------------------------------------------
// the one-time load
//------------------------------------------------------------------------------

static void gcu_sources_load (void)
{
    gcu_file_list L = { NULL, 0, 0, false } ;
    bool found = gcu_load_dir (&L, getenv ("GRBCUDA_JIT_SOURCE_DIR")) ;
    if (!found && &gcu_jit_embedded_nfiles != NULL && gcu_jit_embedded_files != NULL)
    {
        // embedded: the strings live in the library; copy only the table
        int n = gcu_jit_embedded_nfiles ;
        L.f = malloc ((size_t) (n > 0 ? n : 1) * sizeof (gcu_jit_file)) ;
        if (L.f != NULL)
        {
            for (int k = 0 ; k < n ; k++)
            {
                L.f [k].name = strdup (gcu_jit_embedded_files [k].name) ;
                L.f [k].text = strdup (gcu_jit_embedded_files [k].text) ;
                L.n = k + 1 ;
                if (L.f [k].name == NULL || L.f [k].text == NULL) { L.failed = true ; break ; }
            }
            found = !L.failed && n > 0 ;
            if (!found) gcu_list_free (&L) ;
            else gcu_log ("JIT: kernel sources embedded in the library (%d files)", n) ;
        }
    }
    #ifdef GRBCUDA_SOURCE_DIR
    if (!found) found = gcu_load_dir (&L, GRBCUDA_SOURCE_DIR "/cuda") ;
    #endif
    #ifdef GRBCUDA_INSTALL_DATADIR
    if (!found) found = gcu_load_dir (&L, GRBCUDA_INSTALL_DATADIR) ;
    if (!found) found = gcu_load_dir (&L, GRBCUDA_INSTALL_DATADIR "/cuda") ;
    #endif
    if (!found)
    {
        gcu_log ("JIT: the kernel sources (cuda/) were not found") ;
        return ;
    }
    // append the stand-in C headers, then sort for a stable digest
    gcu_jit_file *f = realloc (L.f, (size_t) (L.n + GCU_NSTUBS) * sizeof (gcu_jit_file)) ;
    if (f == NULL) { gcu_list_free (&L) ; return ; }
    L.f = f ;
    for (int k = 0 ; k < GCU_NSTUBS ; k++)
    {
        L.f [L.n].name = strdup (gcu_jit_stubs [k].name) ;
        L.f [L.n].text = strdup (gcu_jit_stubs [k].text) ;
        L.n++ ;
        if (L.f [L.n-1].name == NULL || L.f [L.n-1].text == NULL) { gcu_list_free (&L) ; return ; }
    }
    qsort (L.f, (size_t) L.n, sizeof (gcu_jit_file), gcu_file_cmp) ;
    gcu_sha256 c ;
    gcu_sha256_init (&c) ;
    for (int k = 0 ; k < L.n ; k++)
    {
        // name and text, each with its terminating NUL, so boundaries count
        gcu_sha256_update (&c, L.f [k].name, strlen (L.f [k].name) + 1) ;
        gcu_sha256_update (&c, L.f [k].text, strlen (L.f [k].text) + 1) ;
    }
    gcu_sha256_final (&c, gcu_sources_digest) ;
    gcu_sources = L.f ;
    gcu_nsources = L.n ;
    gcu_sources_ok = true ;
}

GrB_Info gcu_jit_sources (const gcu_jit_file **files, int *nfiles,
    const uint8_t **digest)
{
    pthread_once (&gcu_sources_once, gcu_sources_load) ;
    if (!gcu_sources_ok) return GCU_NOT_HANDLED ;
    *files = gcu_sources ;
    *nfiles = gcu_nsources ;
    *digest = gcu_sources_digest ;
    return GrB_SUCCESS ;
}
