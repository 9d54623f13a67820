// export_transpose.c — the conversions across orientation (the output's
// outer vectors are the stored indices): sparse or hypersparse by a stable
// counting sort (per-thread counts keep the inner indices sorted; bucketed
// in two cache-friendly passes for many output vectors), bitmap or full by
// a blocked transpose of the dense layout. gcu_export_internal.h.
#include "gcu_export_internal.h"
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#else
// Without OpenMP the loops below run serially; their pragmas are ignored.
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
#endif

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
GrB_Info gcu_export_trans_sparse (const gcu_export_raw *r, gcu_csr *c, bool w32, bool vals, int nth)
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
            (void) gcu_export_prefix_sum (start, nouter + 1, 1) ;
        }
        // implicit barrier after single
        int64_t k = vector_of (Ap, nvec, p0) ;
        for (int64_t p = p0 ; p < p1 ; p++)
        {
            while (Ap [k + 1] <= p) k++ ;
            int64_t i = Ai [p] ;
            int64_t q = start [i] + my [i]++ ;
            put_idx (c->idx, w32, q, hyper ? Ah [k] : k) ;
            if (vals) gcu_put_val ((uint8_t *) c->val + q * ts, r->Ax + p * ts, ts) ;
        }
    }
    gcu_export_put_ptr_all (c->ptr, w32, start, nouter + 1, nth) ;
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
#define GCU_MAX_BUCKETS 4096            // write streams in pass (1)

GrB_Info gcu_export_trans_buckets (const gcu_export_raw *r, gcu_csr *c, bool w32,
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
            if (vals) gcu_put_val (val + q * ts, r->Ax + p * ts, ts) ;
        }
    }

    // pass 2: each bucket into place
    int64_t most = 0 ;
    for (int64_t b = 0 ; b < nb ; b++)
        if (bstart [b + 1] - bstart [b] > most) most = bstart [b + 1] - bstart [b] ;
    int failed = 0 ;
    // a bucket's counts: span output vectors, at most nouter (a few entries
    // into 1M vectors make span 2^26: 512 MB a thread, mapped afresh by
    // every call, 5-7 ms of page faults where the export of 16K entries
    // takes 1; 2 cores, 2026-11-28)
    const int64_t ncnt = span < nouter ? span : nouter ;
    #pragma omp parallel num_threads(T)
    {
        int64_t *cnt = malloc ((size_t) (ncnt + 1) * sizeof (int64_t)) ;
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
                    gcu_put_val (sidx + d * w, idx + q * w, w) ;
                    if (vals) gcu_put_val (sval + d * ts, val + q * ts, ts) ;
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

GrB_Info gcu_export_trans_dense (const gcu_export_raw *r, gcu_csr *c, bool w32, bool vals, int nth)
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
                    if (vals) gcu_put_val (val + q * ts, r->Ax + (k * vlen + i) * ts, ts) ;
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
    (void) gcu_export_prefix_sum (start, nouter + 1, nth) ;
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
                if (vals) gcu_put_val (val + q * ts, r->Ax + (k * vlen + i) * ts, ts) ;
            }
        }
    }
    gcu_export_put_ptr_all (c->ptr, w32, start, nouter + 1, nth) ;
    free (start) ;
    return GrB_SUCCESS ;
}
