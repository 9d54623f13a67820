// lasting.c — device memory that outlives the call making it (the residency
// cache's copies; gcu_cuda.h): cudaMalloc and cudaFree behind a small cache
// of freed blocks. A device-newest vector gets a new image at every call
// that writes it (a BFS level writes three), and cudaMalloc with cudaFree of
// the image it replaces cost tens of microseconds each (cudaFree waits for
// the whole device and unmaps), against a few for the level's kernels. A
// freed block is kept instead, up to GCU_LASTING_BLOCKS blocks and
// GCU_LASTING_MAX bytes in all, and handed to the next request of exactly
// its size (the images of one object have one size call after call).
//
// A block is freed only once no kernel reads or writes it (the residency
// cache frees a copy at its last unpin, after the call's synchronisation);
// an event recorded on the freeing thread's stream covers the error paths,
// which free without waiting: the block is handed out again only once that
// event has completed (a query, else a wait). Where cudaMalloc fails, the
// kept blocks go back to CUDA first and the request is tried again.
#include "gcu_cuda.h"
#include "gcu_util.h"
#include <pthread.h>
#include <string.h>

#if GRBCUDA_HAVE_CUDA
#include <cuda_runtime_api.h>

#define GCU_LASTING_BLOCKS 32
#define GCU_LASTING_MAX ((size_t) 1 << 30)

typedef struct { void *p ; size_t bytes ; cudaEvent_t done ; } kept_block ;

static struct
{
    pthread_mutex_t lock ;
    kept_block b [GCU_LASTING_BLOCKS] ;     // b [0..n-1], oldest first
    int n ;
    size_t total ;
}
K = { .lock = PTHREAD_MUTEX_INITIALIZER } ;

static void block_free (kept_block *b)
{
    if (b->done != NULL) (void) cudaEventSynchronize (b->done) ;
    if (cudaFree (b->p) != cudaSuccess) (void) cudaGetLastError () ;
    if (b->done != NULL) (void) cudaEventDestroy (b->done) ;
    (void) cudaGetLastError () ;
}

// takes block k out of the list (K.lock held)
static kept_block take (int k)
{
    kept_block b = K.b [k] ;
    memmove (&K.b [k], &K.b [k + 1], (size_t) (K.n - k - 1) * sizeof (kept_block)) ;
    K.n-- ;
    K.total -= b.bytes ;
    return b ;
}

void gcu_lasting_release (void)
{
    kept_block all [GCU_LASTING_BLOCKS] ;
    pthread_mutex_lock (&K.lock) ;
    const int n = K.n ;
    memcpy (all, K.b, (size_t) n * sizeof (kept_block)) ;
    K.n = 0 ;
    K.total = 0 ;
    pthread_mutex_unlock (&K.lock) ;
    for (int k = 0 ; k < n ; k++) block_free (&all [k]) ;
}

GrB_Info gcu_dmalloc_lasting (void **p, size_t bytes)
{
    if (bytes == 0) bytes = 1 ;
    kept_block b = { NULL, 0, NULL } ;
    pthread_mutex_lock (&K.lock) ;
    for (int k = K.n - 1 ; k >= 0 ; k--)
    {
        if (K.b [k].bytes != bytes) continue ;
        b = take (k) ;
        break ;
    }
    pthread_mutex_unlock (&K.lock) ;
    if (b.p != NULL)
    {
        // the free's work done (almost always already: a query)
        cudaError_t q = cudaEventQuery (b.done) ;
        if (q == cudaErrorNotReady) q = cudaEventSynchronize (b.done) ;
        (void) cudaEventDestroy (b.done) ;
        if (q == cudaSuccess)
        {
            *p = b.p ;
            return GrB_SUCCESS ;
        }
        // a device error: the block goes back to CUDA, and a new one is asked for
        (void) cudaGetLastError () ;
        b.done = NULL ;
        block_free (&b) ;
    }
    for (int attempt = 0 ; attempt < 2 ; attempt++)
    {
        cudaError_t e = cudaMalloc (p, bytes) ;
        if (e == cudaSuccess) return GrB_SUCCESS ;
        (void) cudaGetLastError () ;    // out of memory is not sticky: clear it
        *p = NULL ;
        if (attempt == 0) gcu_lasting_release () ;
    }
    return GrB_OUT_OF_MEMORY ;
}

void gcu_dfree_lasting (void *p, size_t bytes)
{
    if (p == NULL) return ;
    if (bytes == 0) bytes = 1 ;
    kept_block b = { p, bytes, NULL }, old [GCU_LASTING_BLOCKS] ;
    int nold = 0 ;
    bool kept = false ;
    if (bytes <= GCU_LASTING_MAX / 4
        && cudaEventCreateWithFlags (&b.done, cudaEventDisableTiming) == cudaSuccess
        && cudaEventRecord (b.done, cudaStreamPerThread) == cudaSuccess)
    {
        pthread_mutex_lock (&K.lock) ;
        // room: the oldest blocks go back to CUDA
        while (K.n > 0 && (K.n == GCU_LASTING_BLOCKS || K.total + bytes > GCU_LASTING_MAX))
            old [nold++] = take (0) ;
        K.b [K.n++] = b ;
        K.total += bytes ;
        kept = true ;
        pthread_mutex_unlock (&K.lock) ;
    }
    (void) cudaGetLastError () ;
    if (!kept)
    {
        if (b.done != NULL) (void) cudaEventDestroy (b.done) ;
        b.done = NULL ;
        block_free (&b) ;
    }
    for (int k = 0 ; k < nold ; k++) block_free (&old [k]) ;
}

#else

GrB_Info gcu_dmalloc_lasting (void **p, size_t bytes) { (void) bytes ; *p = NULL ; return GrB_OUT_OF_MEMORY ; }
void gcu_dfree_lasting (void *p, size_t bytes) { (void) p ; (void) bytes ; }
void gcu_lasting_release (void) { }

#endif
