// jit_disk.c — the JIT's cache on disk (gcu_jit_internal.h): <dir>/<key>.cubin,
// a header (magic, format, payload size, key, SHA-256 of the payload) then
// the CUBIN (or PTX). Written to a temporary file in the same directory and
// renamed into place, so concurrent processes never see a partial file;
// read back only if every header field and the checksum agree. A directory
// that cannot be created or written is reported once (until the directory
// is set again), and the caller keeps its kernels in memory only.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gcu_jit_internal.h"
#include "gcu_sha256.h"
#include "../util/gcu_util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define GCU_DISK_MAGIC "GCUJIT01"
#define GCU_DISK_HEADER 88      // magic 8, flags 4, reserved 4, size 8, key 32, sum 32

static _Atomic bool dir_warned ;    // unwritable: say so once

// true the first time since the directory was set: the one warning to give
static bool warning_due (void)
{
    return !atomic_exchange (&dir_warned, true) ;
}

void gcu_jit_disk_warn_again (void)
{
    atomic_store (&dir_warned, false) ;
}

// mkdir -p, new directories private to the user
static bool gcu_mkdirs (const char *dir)
{
    char p [1024] ;
    if (snprintf (p, sizeof (p), "%s", dir) >= (int) sizeof (p)) return false ;
    for (char *s = p + 1 ; *s ; s++)
    {
        if (*s != '/') continue ;
        *s = '\0' ;
        if (mkdir (p, 0700) != 0 && errno != EEXIST) return false ;
        *s = '/' ;
    }
    if (mkdir (p, 0700) != 0 && errno != EEXIST) return false ;
    struct stat st ;
    return stat (p, &st) == 0 && S_ISDIR (st.st_mode) ;
}

static void gcu_disk_path (char *path, size_t size, const char *dir,
    const uint8_t key [32])
{
    char hex [65] ;
    gcu_sha256_hex (key, hex) ;
    snprintf (path, size, "%s/%s.cubin", dir, hex) ;
}

static void gcu_put64 (uint8_t *p, uint64_t v)
{
    for (int k = 0 ; k < 8 ; k++) p [k] = (uint8_t) (v >> (8 * k)) ;
}

static uint64_t gcu_get64 (const uint8_t *p)
{
    uint64_t v = 0 ;
    for (int k = 0 ; k < 8 ; k++) v |= ((uint64_t) p [k]) << (8 * k) ;
    return v ;
}

bool gcu_jit_disk_read (const char *dir, const uint8_t key [32], void **data,
    size_t *size, bool *is_ptx, bool *rejected)
{
    *rejected = false ;
    char path [1200] ;
    gcu_disk_path (path, sizeof (path), dir, key) ;
    int fd = open (path, O_RDONLY | O_CLOEXEC) ;
    if (fd < 0) return false ;
    bool ok = false ;
    uint8_t *buf = NULL ;
    struct stat st ;
    if (fstat (fd, &st) == 0)
    {
        // anything shorter than a header, or absurdly long, fails the checks
        size_t n = (st.st_size >= GCU_DISK_HEADER && st.st_size < (1 << 30)) ?
            (size_t) st.st_size : 0 ;
        buf = (n > 0) ? malloc (n) : NULL ;
        size_t got = 0 ;
        while (buf != NULL && got < n)
        {
            ssize_t r = read (fd, buf + got, n - got) ;
            if (r <= 0) break ;
            got += (size_t) r ;
        }
        if (buf != NULL && got == n &&
            memcmp (buf, GCU_DISK_MAGIC, 8) == 0 &&
            gcu_get64 (buf + 16) == n - GCU_DISK_HEADER &&
            memcmp (buf + 24, key, 32) == 0)
        {
            uint8_t sum [32] ;
            gcu_sha256 c ;
            gcu_sha256_init (&c) ;
            gcu_sha256_update (&c, buf + GCU_DISK_HEADER, n - GCU_DISK_HEADER) ;
            gcu_sha256_final (&c, sum) ;
            if (memcmp (sum, buf + 56, 32) == 0 && n > GCU_DISK_HEADER)
            {
                *size = n - GCU_DISK_HEADER ;
                *data = malloc (*size) ;
                if (*data != NULL)
                {
                    memcpy (*data, buf + GCU_DISK_HEADER, *size) ;
                    *is_ptx = (buf [8] & 1) != 0 ;
                    ok = true ;
                }
            }
        }
        if (!ok)
        {
            gcu_log ("JIT: cache file %s is corrupt or stale; recompiling", path) ;
            *rejected = true ;
        }
    }
    free (buf) ;
    close (fd) ;
    return ok ;
}

static bool gcu_write_all (int fd, const void *p, size_t n)
{
    const uint8_t *q = p ;
    while (n > 0)
    {
        ssize_t w = write (fd, q, n) ;
        if (w < 0 && errno == EINTR) continue ;
        if (w <= 0) return false ;
        q += w ;
        n -= (size_t) w ;
    }
    return true ;
}

bool gcu_jit_disk_write (const char *dir, const uint8_t key [32],
    const void *data, size_t size, bool is_ptx)
{
    if (!gcu_mkdirs (dir))
    {
        if (warning_due ()) gcu_log ("JIT: cannot create cache directory %s (%s); "
            "kernels are cached in memory only", dir, strerror (errno)) ;
        return false ;
    }
    uint8_t head [GCU_DISK_HEADER] ;
    memset (head, 0, sizeof (head)) ;
    memcpy (head, GCU_DISK_MAGIC, 8) ;
    head [8] = is_ptx ? 1 : 0 ;
    gcu_put64 (head + 16, size) ;
    memcpy (head + 24, key, 32) ;
    gcu_sha256 c ;
    gcu_sha256_init (&c) ;
    gcu_sha256_update (&c, data, size) ;
    gcu_sha256_final (&c, head + 56) ;

    // a temporary name no other thread or process uses
    static unsigned gcu_tmp_counter = 0 ;
    unsigned serial = __atomic_fetch_add (&gcu_tmp_counter, 1, __ATOMIC_RELAXED) ;
    char tmp [1200], path [1200] ;
    snprintf (tmp, sizeof (tmp), "%s/.tmp-%ld-%lx-%u", dir, (long) getpid (),
        (unsigned long) pthread_self (), serial) ;
    gcu_disk_path (path, sizeof (path), dir, key) ;
    int fd = open (tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600) ;
    bool ok = (fd >= 0) ;
    if (ok)
    {
        ok = gcu_write_all (fd, head, sizeof (head)) && gcu_write_all (fd, data, size) ;
        if (close (fd) != 0) ok = false ;
        // rename is atomic: readers see the old file, the new one, or none
        if (ok) ok = (rename (tmp, path) == 0) ;
        if (!ok) unlink (tmp) ;
    }
    if (!ok && warning_due ()) gcu_log ("JIT: cannot write the cache in %s (%s); "
        "kernels are cached in memory only", dir, strerror (errno)) ;
    return ok ;
}
