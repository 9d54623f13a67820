// jit_str.c — the growable string the code generators write into.
#include "gcu_jit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gcu_str_init (gcu_str *s)
{
    s->p = NULL ;
    s->len = 0 ;
    s->cap = 0 ;
    s->failed = false ;
}

void gcu_str_free (gcu_str *s)
{
    free (s->p) ;
    gcu_str_init (s) ;
}

static bool gcu_str_reserve (gcu_str *s, size_t extra)
{
    if (s->failed) return false ;
    if (s->len + extra + 1 <= s->cap) return true ;
    size_t cap = (s->cap == 0) ? 1024 : s->cap ;
    while (cap < s->len + extra + 1) cap *= 2 ;
    char *p = realloc (s->p, cap) ;
    if (p == NULL)
    {
        s->failed = true ;
        return false ;
    }
    s->p = p ;
    s->cap = cap ;
    return true ;
}

void gcu_str_add (gcu_str *s, const char *text)
{
    size_t n = strlen (text) ;
    if (!gcu_str_reserve (s, n)) return ;
    memcpy (s->p + s->len, text, n + 1) ;
    s->len += n ;
}

void gcu_str_addf (gcu_str *s, const char *fmt, ...)
{
    va_list ap ;
    va_start (ap, fmt) ;
    int n = vsnprintf (NULL, 0, fmt, ap) ;
    va_end (ap) ;
    if (n < 0) { s->failed = true ; return ; }
    if (!gcu_str_reserve (s, (size_t) n)) return ;
    va_start (ap, fmt) ;
    vsnprintf (s->p + s->len, (size_t) n + 1, fmt, ap) ;
    va_end (ap) ;
    s->len += (size_t) n ;
}

char *gcu_str_take (gcu_str *s)
{
    char *p = NULL ;
    if (!s->failed)
    {
        if (s->p == NULL) p = calloc (1, 1) ;   // an empty string
        else p = s->p, s->p = NULL ;
    }
    gcu_str_free (s) ;
    return p ;
}

// A 64-bit hash of len bytes at s, 8 bytes a step, from a seed: not
// cryptographic; where it names code (a block's entry points) two seeds
// give 128 bits, and where it finds code (the memo of compiled programs) a
// hit is confirmed by comparing the texts.
uint64_t gcu_text_hash (const void *s, size_t len, uint64_t seed)
{
    const unsigned char *b = (const unsigned char *) s ;
    uint64_t h = 0x9E3779B97F4A7C15ull ^ len ^ (seed * 0xC2B2AE3D27D4EB4Full) ;
    size_t k = 0 ;
    for ( ; k + 8 <= len ; k += 8)
    {
        uint64_t w ;
        memcpy (&w, b + k, 8) ;
        h = (h ^ w) * 0xFF51AFD7ED558CCDull ;
        h ^= h >> 29 ;
    }
    for ( ; k < len ; k++) h = (h ^ b [k]) * 0x100000001B3ull ;
    h ^= h >> 33 ;
    h *= 0xC4CEB9FE1A85EC53ull ;
    return h ^ (h >> 33) ;
}
