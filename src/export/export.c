// export.c — CSR/CSC out of SuiteSparse without changing the object
// (gcu_export.h says how and why). Every storage SuiteSparse uses goes
// through one of five conversions, each a single parallel pass over the
// data (plus a count pass where the output order differs from the storage
// order):
//   same orientation   sparse/hyper: copy (narrowing indices), hyper ptr by
//                      lower bound;  bitmap/full: flat scan in cell order
//   other orientation  sparse/hyper: stable counting sort (per-thread
//                      counts keep the inner indices sorted);
//                      bitmap/full: blocked transpose of the dense layout
#include "gcu_export.h"
#include "gcu_util.h"
#include <stdatomic.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#else
// Without OpenMP the loops below run serially; their pragmas are ignored.
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#endif

// The iterator's fields (struct GB_Iterator_opaque) are SuiteSparse 7.x's;
// elsewhere the portable path runs.
#if defined (GxB_IMPLEMENTATION_MAJOR) && GxB_IMPLEMENTATION_MAJOR == 7
#define GCU_EXPORT_RAW 1
#else
#define GCU_EXPORT_RAW 0
#endif

// Below this much work a loop runs on one thread (thread start-up costs
// more than the loop).
#define GCU_EXPORT_GRAIN 65536

static _Atomic bool force_portable ;

void gcu_export_force_portable (bool on)
{
    atomic_store (&force_portable, on) ;
}

//------------------------------------------------------------------------------
// small helpers
//------------------------------------------------------------------------------

// At most nth threads, fewer when the loop is short.
static inline int cap_threads (int nth, double work)
{
    double most = work / GCU_EXPORT_GRAIN ;
    if (most < nth) nth = (most < 1) ? 1 : (int) most ;
    return nth ;
}

// opts->nthreads > 0: exactly that many (tests and benchmarks); else as many
// as OpenMP offers, fewer for short loops.
static int threads_for (const gcu_export_opts *o, double work)
{
#ifdef _OPENMP
    if (o != NULL && o->nthreads > 0) return o->nthreads ;
    return cap_threads (omp_get_max_threads (), work) ;
#else
    (void) o ; (void) work ;
    return 1 ;
#endif
}

// Inside a parallel region: this thread's number and the team's size. The
// team may be smaller than asked for (nested regions, thread limits), so
// every region splits its work by the size it really got.
static inline int team_rank (void)
{
#ifdef _OPENMP
    return omp_get_thread_num () ;
#else
    return 0 ;
#endif
}

static inline int team_size (void)
{
#ifdef _OPENMP
    return omp_get_num_threads () ;
#else
    return 1 ;
#endif
}

static inline void put_idx (void *a, bool w32, int64_t p, int64_t v)
{
    if (w32) ((int32_t *) a) [p] = (int32_t) v ;
    else ((int64_t *) a) [p] = v ;
}

// One value of ts bytes; fixed sizes become single moves.
static inline void put_val (uint8_t *dst, const uint8_t *src, size_t ts)
{
    switch (ts)
    {
        case 1: *dst = *src ; break ;
        case 2: memcpy (dst, src, 2) ; break ;
        case 4: memcpy (dst, src, 4) ; break ;
        case 8: memcpy (dst, src, 8) ; break ;
        case 16: memcpy (dst, src, 16) ; break ;
        default: memcpy (dst, src, ts) ; break ;
    }
}

// memcpy in parallel chunks (a single thread does not saturate memory).
static void par_copy (void *dst, const void *src, size_t bytes, int nth)
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
static void put_ptr_all (void *ptr, bool w32, const int64_t *w, int64_t n, int nth)
{
    #pragma omp parallel for num_threads(nth) schedule(static)
    for (int64_t k = 0 ; k < n ; k++) put_idx (ptr, w32, k, w [k]) ;
}

// In place exclusive prefix sum of w[0..n); returns the total.
static int64_t prefix_sum (int64_t *w, int64_t n, int nth)
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

//------------------------------------------------------------------------------
// the raw view: SuiteSparse's arrays as the attached iterator shows them
//------------------------------------------------------------------------------

typedef struct
{
    int64_t vlen, vdim, nvec ;          // vector length, # vectors, # present (hyper)
    const int64_t *Ap, *Ah, *Ai ;
    const int8_t *Ab ;
    const uint8_t *Ax ;
    size_t ts ;
    int sparsity ;
    bool iso ;
    int64_t nvals ;
}
raw_t ;

#if GCU_EXPORT_RAW
static void raw_of (const gcu_export_src *s, raw_t *r)
{
    const struct GB_Iterator_opaque *it = s->it_ ;
    r->vlen = it->avlen ;
    r->vdim = it->avdim ;
    r->nvec = it->anvec ;
    r->Ap = it->Ap ;
    r->Ah = it->Ah ;
    r->Ai = it->Ai ;
    r->Ab = it->Ab ;
    r->Ax = it->Ax ;
    r->ts = it->type_size ;
    r->sparsity = it->A_sparsity ;
    r->iso = it->iso ;
    r->nvals = (int64_t) s->nvals ;
}
#endif

//------------------------------------------------------------------------------
// same orientation: the output's outer vectors are the stored vectors
//------------------------------------------------------------------------------

static void same_sparse (const raw_t *r, gcu_csr *c, bool w32, bool vals, int nth)
{
    bool hyper = (r->sparsity == GxB_HYPERSPARSE) ;
    int64_t nouter = (int64_t) c->nvec, nz = r->nvals ;
    if (!hyper)
    {
        if (!w32) par_copy (c->ptr, r->Ap, (size_t) (nouter + 1) * 8, nth) ;
        else put_ptr_all (c->ptr, true, r->Ap, nouter + 1, nth) ;
    }
    else
    {
        // ptr[x] = Ap[first t with Ah[t] >= x]: the start of vector x
        #pragma omp parallel num_threads(nth)
        {
            int t = team_rank (), T = team_size () ;
            int64_t x0 = (nouter + 1) * t / T, x1 = (nouter + 1) * (t + 1) / T ;
            int64_t lo = 0, hi = r->nvec ;
            while (lo < hi)
            {
                int64_t mid = lo + (hi - lo) / 2 ;
                if (r->Ah [mid] < x0) lo = mid + 1 ; else hi = mid ;
            }
            for (int64_t x = x0 ; x < x1 ; x++)
            {
                while (lo < r->nvec && r->Ah [lo] < x) lo++ ;
                put_idx (c->ptr, w32, x, r->Ap [lo]) ;
            }
        }
    }
    if (!w32) par_copy (c->idx, r->Ai, (size_t) nz * 8, nth) ;
    else
    {
        int32_t *idx = c->idx ;
        const int64_t *Ai = r->Ai ;
        #pragma omp parallel for num_threads(nth) schedule(static)
        for (int64_t p = 0 ; p < nz ; p++) idx [p] = (int32_t) Ai [p] ;
    }
    if (vals) par_copy (c->val, r->Ax, (size_t) nz * r->ts, nth) ;
}

// Bitmap or full in storage order: a flat scan over the cells, split into
// chunks; each chunk counts, then writes from its starting position.
static void same_dense (const raw_t *r, gcu_csr *c, bool w32, bool vals, int nth)
{
    int64_t vlen = r->vlen, vdim = r->vdim, ncell = vlen * vdim ;
    size_t ts = r->ts ;
    uint8_t *val = c->val ;
    if (r->sparsity == GxB_FULL)
    {
        #pragma omp parallel for num_threads(nth) schedule(static)
        for (int64_t k = 0 ; k <= vdim ; k++) put_idx (c->ptr, w32, k, k * vlen) ;
        #pragma omp parallel for num_threads(nth) schedule(static)
        for (int64_t k = 0 ; k < vdim ; k++)
        {
            for (int64_t i = 0 ; i < vlen ; i++) put_idx (c->idx, w32, k * vlen + i, i) ;
        }
        if (vals) par_copy (val, r->Ax, (size_t) ncell * ts, nth) ;
        return ;
    }
    int64_t base [nth + 1] ;
    #pragma omp parallel num_threads(nth)
    {
        int t = team_rank (), T = team_size () ;
        int64_t c0 = ncell * t / T, c1 = ncell * (t + 1) / T, n = 0 ;
        for (int64_t p = c0 ; p < c1 ; p++) n += (r->Ab [p] != 0) ;
        base [t + 1] = n ;
        #pragma omp barrier
        int64_t q = 0 ;
        for (int u = 1 ; u <= t ; u++) q += base [u] ;
        int64_t k = c0 / vlen, i = c0 % vlen ;
        for (int64_t p = c0 ; p < c1 ; p++)
        {
            if (i == 0) put_idx (c->ptr, w32, k, q) ;
            if (r->Ab [p])
            {
                put_idx (c->idx, w32, q, i) ;
                if (vals) put_val (val + q * ts, r->Ax + p * ts, ts) ;
                q++ ;
            }
            if (++i == vlen) { i = 0 ; k++ ; }
        }
    }
    put_idx (c->ptr, w32, vdim, r->nvals) ;
}

//------------------------------------------------------------------------------
// other orientation: the output's outer vectors are the stored indices
//------------------------------------------------------------------------------

// The stored vector holding entry p: the first k with Ap[k+1] > p (empty
// vectors before it skipped), by binary search over the nvec vectors. Where
// a thread starts walking its share of the entries.
static int64_t vector_of (const int64_t *Ap, int64_t nvec, int64_t p)
{
    int64_t lo = 0, hi = nvec ;
    while (lo < hi)
    {
        int64_t mid = lo + (hi - lo) / 2 ;
        if (Ap [mid + 1] <= p) lo = mid + 1 ; else hi = mid ;
    }
    return lo ;
}

// Stable counting sort of the entries by inner index. Thread t takes the
// entries [nz*t/T, nz*(t+1)/T) in storage order, so the entries of each
// output vector arrive thread by thread, each in increasing stored-vector
// order: sorted. Counts are per thread (T x nouter), so T is kept where
// that stays within a few times the data.
static GrB_Info trans_sparse (const raw_t *r, gcu_csr *c, bool w32, bool vals, int nth)
{
    bool hyper = (r->sparsity == GxB_HYPERSPARSE) ;
    int64_t nouter = (int64_t) c->nvec, nz = r->nvals ;
    size_t ts = r->ts ;
    int T = nth ;
    while (T > 1 && (double) T * (double) nouter > 4.0 * (double) nz + 1e6) T-- ;
    int64_t *cnt = calloc ((size_t) T * (size_t) nouter + 1, sizeof (int64_t)) ;
    int64_t *start = malloc (((size_t) nouter + 1) * sizeof (int64_t)) ;
    if (cnt == NULL || start == NULL)
    {
        free (cnt) ; free (start) ;
        return GrB_OUT_OF_MEMORY ;
    }
    const int64_t *Ap = r->Ap, *Ai = r->Ai, *Ah = r->Ah ;
    int64_t nvec = hyper ? r->nvec : r->vdim ;
    #pragma omp parallel num_threads(T)
    {
        // counts of threads missing from a smaller team stay 0
        int t = team_rank (), Tt = team_size () ;
        int64_t p0 = nz * t / Tt, p1 = nz * (t + 1) / Tt ;
        int64_t *my = cnt + (size_t) t * (size_t) nouter ;
        for (int64_t p = p0 ; p < p1 ; p++) my [Ai [p]]++ ;
        #pragma omp barrier
        // per output vector: each thread's offset within it, and its size
        #pragma omp for schedule(static)
        for (int64_t i = 0 ; i < nouter ; i++)
        {
            int64_t s = 0 ;
            for (int u = 0 ; u < T ; u++)
            {
                int64_t *x = cnt + (size_t) u * (size_t) nouter + i ;
                int64_t n = *x ;
                *x = s ;
                s += n ;
            }
            start [i] = s ;
        }
        #pragma omp single
        {
            start [nouter] = 0 ;
            (void) prefix_sum (start, nouter + 1, 1) ;
        }
        // implicit barrier after single
        int64_t k = vector_of (Ap, nvec, p0) ;
        for (int64_t p = p0 ; p < p1 ; p++)
        {
            while (Ap [k + 1] <= p) k++ ;
            int64_t i = Ai [p] ;
            int64_t q = start [i] + my [i]++ ;
            put_idx (c->idx, w32, q, hyper ? Ah [k] : k) ;
            if (vals) put_val ((uint8_t *) c->val + q * ts, r->Ax + p * ts, ts) ;
        }
    }
    put_ptr_all (c->ptr, w32, start, nouter + 1, nth) ;
    free (cnt) ;
    free (start) ;
    return GrB_SUCCESS ;
}

// The same counting sort for many output vectors, where scattering every
// entry straight to its final place misses the cache on every write (10M
// entries into 1M vectors: ~1 s). Two passes instead, after radix sorts:
// (1) each entry goes to the contiguous output range of its bucket of
// 2^shift consecutive output vectors (one write stream per bucket, in
// storage order, so still stable), remembering its output vector in tmp;
// (2) each bucket, small enough for the cache, is sorted into place through
// a scratch buffer. Returns GrB_OUT_OF_MEMORY, with nothing written that
// matters, if its workspace cannot be had (the caller then scatters), or for
// more than 2^32 output vectors.
#define GCU_BUCKET_ENTRIES 16384        // entries per bucket, on average
#define GCU_BUCKET_MIN_OUTER 65536      // fewer output vectors: direct scatter
#define GCU_MAX_BUCKETS 4096            // write streams in pass (1)

static GrB_Info trans_sparse_buckets (const raw_t *r, gcu_csr *c, bool w32,
    bool vals, int nth)
{
    bool hyper = (r->sparsity == GxB_HYPERSPARSE) ;
    int64_t nouter = (int64_t) c->nvec, nz = r->nvals ;
    size_t ts = r->ts, w = w32 ? 4 : 8 ;
    int shift = 0 ;
    while (shift < 62 && (ldexp ((double) nz, shift) < (double) nouter * GCU_BUCKET_ENTRIES
        || ((nouter - 1) >> shift) + 1 > GCU_MAX_BUCKETS)) shift++ ;
    int64_t nb = ((nouter - 1) >> shift) + 1, span = (int64_t) 1 << shift ;
    if (nouter > (int64_t) UINT32_MAX) return GrB_OUT_OF_MEMORY ;   // (a 32 GB ptr)
    int T = nth ;
    int64_t *bstart = calloc ((size_t) T * (size_t) nb + (size_t) nb + 1, sizeof (int64_t)) ;
    uint32_t *tmp = malloc ((size_t) nz * sizeof (uint32_t) + 1) ;
    if (bstart == NULL || tmp == NULL)
    {
        free (bstart) ; free (tmp) ;
        return GrB_OUT_OF_MEMORY ;
    }
    int64_t *pos = bstart + nb + 1 ;        // [t * nb + b]: thread t's next slot
    const int64_t *Ap = r->Ap, *Ai = r->Ai, *Ah = r->Ah ;
    int64_t nvec = hyper ? r->nvec : r->vdim ;
    uint8_t *idx = c->idx, *val = c->val ;

    // pass 1: bucket sizes per thread, then each thread's slots
    #pragma omp parallel num_threads(T)
    {
        // slots of threads missing from a smaller team stay empty
        int t = team_rank (), Tt = team_size () ;
        int64_t p0 = nz * t / Tt, p1 = nz * (t + 1) / Tt ;
        int64_t *my = pos + (size_t) t * (size_t) nb ;
        for (int64_t p = p0 ; p < p1 ; p++) my [Ai [p] >> shift]++ ;
        #pragma omp barrier
        #pragma omp single
        {
            int64_t s = 0 ;
            for (int64_t b = 0 ; b < nb ; b++)
            {
                bstart [b] = s ;
                for (int u = 0 ; u < T ; u++)
                {
                    int64_t *x = pos + (size_t) u * (size_t) nb + b ;
                    int64_t n = *x ;
                    *x = s ;
                    s += n ;
                }
            }
            bstart [nb] = s ;
        }
        int64_t k = vector_of (Ap, nvec, p0) ;
        for (int64_t p = p0 ; p < p1 ; p++)
        {
            while (Ap [k + 1] <= p) k++ ;
            int64_t i = Ai [p] ;
            int64_t q = my [i >> shift]++ ;
            put_idx (idx, w32, q, hyper ? Ah [k] : k) ;
            tmp [q] = (uint32_t) i ;
            if (vals) put_val (val + q * ts, r->Ax + p * ts, ts) ;
        }
    }

    // pass 2: each bucket into place
    int64_t most = 0 ;
    for (int64_t b = 0 ; b < nb ; b++)
        if (bstart [b + 1] - bstart [b] > most) most = bstart [b + 1] - bstart [b] ;
    int failed = 0 ;
    #pragma omp parallel num_threads(T)
    {
        int64_t *cnt = malloc ((size_t) (span + 1) * sizeof (int64_t)) ;
        uint8_t *sidx = malloc ((size_t) most * w + 1) ;
        uint8_t *sval = vals ? malloc ((size_t) most * ts + 1) : NULL ;
        if (cnt == NULL || sidx == NULL || (vals && sval == NULL))
        {
            #pragma omp atomic write
            failed = 1 ;
        }
        #pragma omp barrier
        int stop ;
        #pragma omp atomic read
        stop = failed ;
        if (!stop)
        {
            #pragma omp for schedule(dynamic,1)
            for (int64_t b = 0 ; b < nb ; b++)
            {
                int64_t r0 = b << shift, r1 = (r0 + span < nouter) ? r0 + span : nouter ;
                int64_t q0 = bstart [b], q1 = bstart [b + 1] ;
                for (int64_t j = 0 ; j <= r1 - r0 ; j++) cnt [j] = 0 ;
                for (int64_t q = q0 ; q < q1 ; q++)
                {
                    cnt [tmp [q] - r0]++ ;
                }
                int64_t s = 0 ;
                for (int64_t j = 0 ; j < r1 - r0 ; j++)
                {
                    int64_t n = cnt [j] ;
                    cnt [j] = s ;
                    put_idx (c->ptr, w32, r0 + j, q0 + s) ;
                    s += n ;
                }
                for (int64_t q = q0 ; q < q1 ; q++)
                {
                    int64_t d = cnt [tmp [q] - r0]++ ;
                    put_val (sidx + d * w, idx + q * w, w) ;
                    if (vals) put_val (sval + d * ts, val + q * ts, ts) ;
                }
                memcpy (idx + q0 * w, sidx, (size_t) (q1 - q0) * w) ;
                if (vals) memcpy (val + q0 * ts, sval, (size_t) (q1 - q0) * ts) ;
            }
        }
        free (cnt) ; free (sidx) ; free (sval) ;
    }
    put_idx (c->ptr, w32, nouter, nz) ;
    free (bstart) ;
    free (tmp) ;
    return failed ? GrB_OUT_OF_MEMORY : GrB_SUCCESS ;
}

// Bitmap or full, transposed: blocks of GCU_TBLOCK output vectors; each
// block reads a short contiguous run of every stored vector.
#define GCU_TBLOCK 256

static GrB_Info trans_dense (const raw_t *r, gcu_csr *c, bool w32, bool vals, int nth)
{
    int64_t vlen = r->vlen, vdim = r->vdim, nouter = vlen ;
    size_t ts = r->ts ;
    int64_t nblock = (nouter + GCU_TBLOCK - 1) / GCU_TBLOCK ;
    uint8_t *val = c->val ;
    if (r->sparsity == GxB_FULL)
    {
        #pragma omp parallel for num_threads(nth) schedule(static)
        for (int64_t i = 0 ; i <= nouter ; i++) put_idx (c->ptr, w32, i, i * vdim) ;
        #pragma omp parallel for num_threads(nth) schedule(dynamic,1)
        for (int64_t b = 0 ; b < nblock ; b++)
        {
            int64_t i0 = b * GCU_TBLOCK ;
            int64_t i1 = (i0 + GCU_TBLOCK < nouter) ? i0 + GCU_TBLOCK : nouter ;
            for (int64_t k = 0 ; k < vdim ; k++)
            {
                for (int64_t i = i0 ; i < i1 ; i++)
                {
                    int64_t q = i * vdim + k ;
                    put_idx (c->idx, w32, q, k) ;
                    if (vals) put_val (val + q * ts, r->Ax + (k * vlen + i) * ts, ts) ;
                }
            }
        }
        return GrB_SUCCESS ;
    }
    int64_t *start = malloc (((size_t) nouter + 1) * sizeof (int64_t)) ;
    if (start == NULL) return GrB_OUT_OF_MEMORY ;
    const int8_t *Ab = r->Ab ;
    #pragma omp parallel for num_threads(nth) schedule(dynamic,1)
    for (int64_t b = 0 ; b < nblock ; b++)
    {
        int64_t i0 = b * GCU_TBLOCK ;
        int64_t i1 = (i0 + GCU_TBLOCK < nouter) ? i0 + GCU_TBLOCK : nouter ;
        for (int64_t i = i0 ; i < i1 ; i++) start [i] = 0 ;
        for (int64_t k = 0 ; k < vdim ; k++)
        {
            const int8_t *row = Ab + k * vlen ;
            for (int64_t i = i0 ; i < i1 ; i++) start [i] += (row [i] != 0) ;
        }
    }
    start [nouter] = 0 ;
    (void) prefix_sum (start, nouter + 1, nth) ;
    #pragma omp parallel for num_threads(nth) schedule(dynamic,1)
    for (int64_t b = 0 ; b < nblock ; b++)
    {
        int64_t i0 = b * GCU_TBLOCK ;
        int64_t i1 = (i0 + GCU_TBLOCK < nouter) ? i0 + GCU_TBLOCK : nouter ;
        int64_t pos [GCU_TBLOCK] ;
        for (int64_t i = i0 ; i < i1 ; i++) pos [i - i0] = start [i] ;
        for (int64_t k = 0 ; k < vdim ; k++)
        {
            const int8_t *row = Ab + k * vlen ;
            for (int64_t i = i0 ; i < i1 ; i++)
            {
                if (!row [i]) continue ;
                int64_t q = pos [i - i0]++ ;
                put_idx (c->idx, w32, q, k) ;
                if (vals) put_val (val + q * ts, r->Ax + (k * vlen + i) * ts, ts) ;
            }
        }
    }
    put_ptr_all (c->ptr, w32, start, nouter + 1, nth) ;
    free (start) ;
    return GrB_SUCCESS ;
}

// The iso value, once or nvals times.
static void fill_iso (gcu_csr *c, const uint8_t *x, size_t ts, int nth)
{
    uint8_t *val = c->val ;
    if (c->iso)
    {
        memcpy (val, x, ts) ;
        return ;
    }
    int64_t nz = (int64_t) c->nvals ;
    #pragma omp parallel for num_threads(nth) schedule(static)
    for (int64_t p = 0 ; p < nz ; p++) put_val (val + p * ts, x, ts) ;
}

#if GCU_EXPORT_RAW
static GrB_Info fill_raw (const gcu_export_src *s, const gcu_export_opts *o,
    gcu_csr *c)
{
    raw_t r ;
    raw_of (s, &r) ;
    bool w32 = (c->idx_bits == 32) ;
    int nth = threads_for (o, (double) r.nvals + (double) c->nvec) ;
    // stored by row and CSR wanted, or by column and CSC wanted
    bool same = (s->by_col == (c->layout == GCU_EXPORT_CSC)) ;
    bool vals = !r.iso ;
    GrB_Info info = GrB_SUCCESS ;
    if (r.sparsity == GxB_SPARSE || r.sparsity == GxB_HYPERSPARSE)
    {
        if (same) same_sparse (&r, c, w32, vals, nth) ;
        else
        {
            // many output vectors: the cache-friendly two passes; else (or
            // without memory for them) the direct scatter
            info = GrB_OUT_OF_MEMORY ;
            if (c->nvec > GCU_BUCKET_MIN_OUTER) info = trans_sparse_buckets (&r, c, w32, vals, nth) ;
            if (info == GrB_OUT_OF_MEMORY) info = trans_sparse (&r, c, w32, vals, nth) ;
        }
    }
    else
    {
        nth = threads_for (o, (double) r.vlen * (double) r.vdim) ;
        if (same) same_dense (&r, c, w32, vals, nth) ;
        else info = trans_dense (&r, c, w32, vals, nth) ;
    }
    if (info == GrB_SUCCESS && r.iso) fill_iso (c, r.Ax, r.ts, nth) ;
    return info ;
}
#endif

//------------------------------------------------------------------------------
// the portable path: GrB_Matrix_export (C API 2.0) copies, then narrow
//------------------------------------------------------------------------------

static GrB_Info typed_export (GrB_Index *Ap, GrB_Index *Ai, void *Ax,
    GrB_Index *np, GrB_Index *ni, GrB_Index *nx, GrB_Format f, GrB_Matrix A,
    GrB_Type t)
{
    // One direct call per built-in type: GrB_Matrix_export is typed.
    if (t == GrB_BOOL)   return GrB_Matrix_export_BOOL (Ap, Ai, Ax, np, ni, nx, f, A) ;
    if (t == GrB_INT8)   return GrB_Matrix_export_INT8 (Ap, Ai, Ax, np, ni, nx, f, A) ;
    if (t == GrB_INT16)  return GrB_Matrix_export_INT16 (Ap, Ai, Ax, np, ni, nx, f, A) ;
    if (t == GrB_INT32)  return GrB_Matrix_export_INT32 (Ap, Ai, Ax, np, ni, nx, f, A) ;
    if (t == GrB_INT64)  return GrB_Matrix_export_INT64 (Ap, Ai, Ax, np, ni, nx, f, A) ;
    if (t == GrB_UINT8)  return GrB_Matrix_export_UINT8 (Ap, Ai, Ax, np, ni, nx, f, A) ;
    if (t == GrB_UINT16) return GrB_Matrix_export_UINT16 (Ap, Ai, Ax, np, ni, nx, f, A) ;
    if (t == GrB_UINT32) return GrB_Matrix_export_UINT32 (Ap, Ai, Ax, np, ni, nx, f, A) ;
    if (t == GrB_UINT64) return GrB_Matrix_export_UINT64 (Ap, Ai, Ax, np, ni, nx, f, A) ;
    if (t == GrB_FP32)   return GrB_Matrix_export_FP32 (Ap, Ai, Ax, np, ni, nx, f, A) ;
    if (t == GrB_FP64)   return GrB_Matrix_export_FP64 (Ap, Ai, Ax, np, ni, nx, f, A) ;
    if (t == GxB_FC32)   return GxB_Matrix_export_FC32 (Ap, Ai, Ax, np, ni, nx, f, A) ;
    if (t == GxB_FC64)   return GxB_Matrix_export_FC64 (Ap, Ai, Ax, np, ni, nx, f, A) ;
    return GrB_Matrix_export_UDT (Ap, Ai, Ax, np, ni, nx, f, A) ;
}

static GrB_Info fill_portable (const gcu_export_src *s, const gcu_export_opts *o,
    gcu_csr *c)
{
    GrB_Matrix A = (GrB_Matrix) s->obj_ ;     // a GrB_Vector is an n-by-1 GrB_Matrix
    GrB_Format f = (c->layout == GCU_EXPORT_CSR) ? GrB_CSR_FORMAT : GrB_CSC_FORMAT ;
    GrB_Index np = 0, ni = 0, nx = 0 ;
    GrB_Index *Ap = NULL, *Ai = NULL ;
    uint8_t *Ax = NULL ;
    #define GCU_FREE_ALL { free (Ap) ; free (Ai) ; free (Ax) ; }
    GCU_TRY (GrB_Matrix_exportSize (&np, &ni, &nx, f, A)) ;
    size_t ts = s->type_size ;
    Ap = malloc ((np + 1) * sizeof (GrB_Index)) ;
    Ai = malloc ((ni + 1) * sizeof (GrB_Index)) ;
    Ax = malloc ((nx + 1) * ts) ;
    if (Ap == NULL || Ai == NULL || Ax == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    GCU_TRY (typed_export (Ap, Ai, Ax, &np, &ni, &nx, f, A, s->type)) ;
    if (np != c->nvec + 1 || ni != c->nvals) GCU_TRY (GrB_PANIC) ;
    bool w32 = (c->idx_bits == 32) ;
    int nth = threads_for (o, (double) ni) ;
    put_ptr_all (c->ptr, w32, (const int64_t *) Ap, (int64_t) np, nth) ;
    put_ptr_all (c->idx, w32, (const int64_t *) Ai, (int64_t) ni, nth) ;
    if (c->iso || nx < ni) fill_iso (c, Ax, ts, nth) ;
    else par_copy (c->val, Ax, (size_t) ni * ts, nth) ;
    GCU_FREE_ALL ;
    #undef GCU_FREE_ALL
    return GrB_SUCCESS ;
}

//------------------------------------------------------------------------------
// open, plan, fill
//------------------------------------------------------------------------------

void gcu_export_close (gcu_export_src *s)
{
    if (s == NULL) return ;
    if (s->it_ != NULL) GxB_Iterator_free (&s->it_) ;
    s->it_ = NULL ;
}

GrB_Info gcu_export_open (gcu_export_src *s, const void *obj, bool is_vector)
{
    if (s == NULL) return GrB_NULL_POINTER ;
    memset (s, 0, sizeof (*s)) ;
    if (obj == NULL) return GrB_NULL_POINTER ;
    s->obj_ = obj ;
    s->is_vector = is_vector ;
    GrB_Matrix A = (GrB_Matrix) obj ;
    GrB_Vector v = (GrB_Vector) obj ;
    #define GCU_FREE_ALL gcu_export_close (s)
    if (is_vector)
    {
        GCU_TRY (GxB_Vector_type (&s->type, v)) ;
        GCU_TRY (GrB_Vector_size (&s->nrows, v)) ;
        s->ncols = 1 ;
    }
    else
    {
        GCU_TRY (GxB_Matrix_type (&s->type, A)) ;
        GCU_TRY (GrB_Matrix_nrows (&s->nrows, A)) ;
        GCU_TRY (GrB_Matrix_ncols (&s->ncols, A)) ;
    }
    GCU_TRY (GxB_Type_size (&s->type_size, s->type)) ;
#if GCU_EXPORT_RAW
    if (!atomic_load (&force_portable))
    {
        GCU_TRY (GxB_Iterator_new (&s->it_)) ;
        // finishes pending work, if any; nothing else changes
        if (is_vector) GCU_TRY (GxB_Vector_Iterator_attach (s->it_, v, NULL)) ;
        else GCU_TRY (GxB_Matrix_Iterator_attach (s->it_, A, NULL)) ;
        const struct GB_Iterator_opaque *it = s->it_ ;
        s->sparsity = it->A_sparsity ;
        s->iso = it->iso ;
        s->by_col = it->by_col ;
        if (it->type_size != s->type_size) GCU_TRY (GrB_PANIC) ;
        switch (s->sparsity)
        {
            case GxB_SPARSE: s->nvals = (GrB_Index) it->Ap [it->avdim] ; break ;
            case GxB_HYPERSPARSE: s->nvals = (GrB_Index) it->Ap [it->anvec] ; break ;
            case GxB_FULL: s->nvals = (GrB_Index) (it->avlen * it->avdim) ; break ;
            default:
                if (is_vector) GCU_TRY (GrB_Vector_nvals (&s->nvals, v)) ;
                else GCU_TRY (GrB_Matrix_nvals (&s->nvals, A)) ;
                break ;
        }
        GrB_Index vlen = s->by_col ? s->nrows : s->ncols ;
        GrB_Index vdim = s->by_col ? s->ncols : s->nrows ;
        if ((GrB_Index) it->avlen != vlen || (GrB_Index) it->avdim != vdim)
            GCU_TRY (GrB_PANIC) ;
        return GrB_SUCCESS ;
    }
#endif
    // portable: the same facts through the API
    int32_t sp = 0, fmt = GxB_BY_ROW ;
    if (is_vector)
    {
        GCU_TRY (GrB_Vector_nvals (&s->nvals, v)) ;
        GCU_TRY (GxB_Vector_Option_get_INT32 (v, GxB_SPARSITY_STATUS, &sp)) ;
        GCU_TRY (GxB_Vector_iso (&s->iso, v)) ;
        fmt = GxB_BY_COL ;
    }
    else
    {
        GCU_TRY (GrB_Matrix_nvals (&s->nvals, A)) ;
        GCU_TRY (GxB_Matrix_Option_get_INT32 (A, GxB_SPARSITY_STATUS, &sp)) ;
        GCU_TRY (GxB_Matrix_Option_get_INT32 (A, GxB_FORMAT, &fmt)) ;
        GCU_TRY (GxB_Matrix_iso (&s->iso, A)) ;
    }
    s->sparsity = sp ;
    s->by_col = (fmt == GxB_BY_COL) ;
    #undef GCU_FREE_ALL
    return GrB_SUCCESS ;
}

static bool mul_ok (size_t a, size_t b, size_t *r)
{
    if (a != 0 && b > SIZE_MAX / a) return false ;
    *r = a * b ;
    return true ;
}

GrB_Info gcu_export_plan (const gcu_export_src *s, const gcu_export_opts *o,
    gcu_csr *c)
{
    if (s == NULL || c == NULL) return GrB_NULL_POINTER ;
    gcu_export_opts def = { GCU_EXPORT_CSR, 0, false, 0 } ;
    if (o == NULL) o = &def ;
    if (o->idx_bits != 0 && o->idx_bits != 32 && o->idx_bits != 64)
        return GrB_INVALID_VALUE ;
    memset (c, 0, sizeof (*c)) ;
    c->layout = o->layout ;
    c->nrows = s->nrows ;
    c->ncols = s->ncols ;
    c->nvals = s->nvals ;
    c->nvec = (o->layout == GCU_EXPORT_CSR) ? s->nrows : s->ncols ;
    c->type = s->type ;
    c->type_size = s->type_size ;
    c->iso = s->iso && s->nvals > 0 && !o->expand_iso ;
    bool fits = s->nrows <= INT32_MAX && s->ncols <= INT32_MAX
        && s->nvals <= INT32_MAX ;
    if (o->idx_bits == 32 && !fits) return GCU_NOT_HANDLED ;
    c->idx_bits = (o->idx_bits == 64 || !fits) ? 64 : 32 ;
    size_t w = (size_t) c->idx_bits / 8 ;
    if (c->nvec >= SIZE_MAX / 16 || c->nvals >= SIZE_MAX / 16
        || !mul_ok ((size_t) c->nvec + 1, w, &c->ptr_bytes)
        || !mul_ok ((size_t) c->nvals, w, &c->idx_bytes)
        || !mul_ok (c->iso ? 1 : (size_t) c->nvals, c->type_size, &c->val_bytes))
    {
        return GrB_OUT_OF_MEMORY ;
    }
    return GrB_SUCCESS ;
}

GrB_Info gcu_export_fill (const gcu_export_src *s, const gcu_export_opts *o,
    gcu_csr *c)
{
    if (s == NULL || c == NULL || c->ptr == NULL) return GrB_NULL_POINTER ;
    if (c->nvals > 0 && (c->idx == NULL || c->val == NULL)) return GrB_NULL_POINTER ;
    if (c->nvals == 0)
    {
        memset (c->ptr, 0, c->ptr_bytes) ;
        return GrB_SUCCESS ;
    }
#if GCU_EXPORT_RAW
    if (s->it_ != NULL) return fill_raw (s, o, c) ;
#endif
    return fill_portable (s, o, c) ;
}

void gcu_csr_free (gcu_csr *c)
{
    if (c == NULL) return ;
    free (c->ptr) ;
    free (c->idx) ;
    free (c->val) ;
    c->ptr = c->idx = c->val = NULL ;
}

GrB_Info gcu_export_csr (const void *obj, bool is_vector,
    const gcu_export_opts *o, gcu_csr *c)
{
    if (c == NULL) return GrB_NULL_POINTER ;
    memset (c, 0, sizeof (*c)) ;
    gcu_export_src s ;
    memset (&s, 0, sizeof (s)) ;
    #define GCU_FREE_ALL { gcu_export_close (&s) ; gcu_csr_free (c) ; }
    GCU_TRY (gcu_export_open (&s, obj, is_vector)) ;
    GCU_TRY (gcu_export_plan (&s, o, c)) ;
    c->ptr = malloc (c->ptr_bytes ? c->ptr_bytes : 1) ;
    c->idx = malloc (c->idx_bytes ? c->idx_bytes : 1) ;
    c->val = malloc (c->val_bytes ? c->val_bytes : 1) ;
    if (c->ptr == NULL || c->idx == NULL || c->val == NULL) GCU_TRY (GrB_OUT_OF_MEMORY) ;
    GCU_TRY (gcu_export_fill (&s, o, c)) ;
    gcu_export_close (&s) ;
    #undef GCU_FREE_ALL
    return GrB_SUCCESS ;
}
