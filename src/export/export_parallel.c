// export_parallel.c — the parallel building blocks of the export's
// conversions (gcu_export_internal.h): a chunked memcpy, a widening or
// narrowing copy of pointers, an exclusive prefix sum.
#include "gcu_export_internal.h"
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#else
// Without OpenMP the loops below run serially; their pragmas are ignored.
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#endif

// memcpy in parallel chunks (a single thread does not saturate memory).
void gcu_export_par_copy (void *dst, const void *src, size_t bytes, int nth)
{
    if (nth <= 1 || bytes < ((size_t) 1 << 20))
    {
        if (bytes) memcpy (dst, src, bytes) ;
        return ;
    }
    #pragma omp parallel for num_threads(nth) schedule(static)
    for (int t = 0 ; t < nth ; t++)
    {
        size_t a = bytes * (size_t) t / (size_t) nth ;
        size_t b = bytes * (size_t) (t + 1) / (size_t) nth ;
        memcpy ((uint8_t *) dst + a, (const uint8_t *) src + a, b - a) ;
    }
}

// Writes w[0..n) (int64) into ptr in the output width.
void gcu_export_put_ptr_all (void *ptr, bool w32, const int64_t *w, int64_t n, int nth)
{
    #pragma omp parallel for num_threads(nth) schedule(static)
    for (int64_t k = 0 ; k < n ; k++) put_idx (ptr, w32, k, w [k]) ;
}

// In place exclusive prefix sum of w[0..n); returns the total.
int64_t gcu_export_prefix_sum (int64_t *w, int64_t n, int nth)
{
    if (nth <= 1 || n < nth)
    {
        int64_t s = 0 ;
        for (int64_t k = 0 ; k < n ; k++) { int64_t c = w [k] ; w [k] = s ; s += c ; }
        return s ;
    }
    int64_t part [nth + 1] ;
    int team = 1 ;
    #pragma omp parallel num_threads(nth)
    {
        int t = team_rank (), T = team_size () ;
        if (t == 0) team = T ;
        int64_t a = n * t / T, b = n * (t + 1) / T, s = 0 ;
        for (int64_t k = a ; k < b ; k++) s += w [k] ;
        part [t] = s ;
        #pragma omp barrier
        int64_t base = 0 ;
        for (int u = 0 ; u < t ; u++) base += part [u] ;
        for (int64_t k = a ; k < b ; k++) { int64_t c = w [k] ; w [k] = base ; base += c ; }
    }
    int64_t total = 0 ;
    for (int t = 0 ; t < team ; t++) total += part [t] ;
    return total ;
}
