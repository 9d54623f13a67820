// log.c — verbose and warning output. Each message is formatted into one
// buffer and written with a single fputs so lines from concurrent threads do
// not interleave.
#include "gcu_util.h"
#include <stdarg.h>
#include <stdio.h>

static void emit (const char *fmt, va_list ap)
{
    char buf [2048] ;
    int n = snprintf (buf, sizeof (buf), "[grbcuda] ") ;
    int m = vsnprintf (buf + n, sizeof (buf) - (size_t) n - 1, fmt, ap) ;
    size_t len = (size_t) n + (m < 0 ? 0 : (size_t) m) ;
    if (len > sizeof (buf) - 2) len = sizeof (buf) - 2 ;
    buf [len] = '\n' ;
    buf [len + 1] = '\0' ;
    fputs (buf, stderr) ;
}

void gcu_log (const char *fmt, ...)
{
    if (!gcu_verbose ()) return ;
    va_list ap ;
    va_start (ap, fmt) ;
    emit (fmt, ap) ;
    va_end (ap) ;
}

void gcu_warn (const char *fmt, ...)
{
    va_list ap ;
    va_start (ap, fmt) ;
    emit (fmt, ap) ;
    va_end (ap) ;
}
