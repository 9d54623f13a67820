// streams.c — the pool of stream and event contexts (gcu_streams.h): made on
// first use, reused by later calls, one call at a time per context.
#include "gcu_streams.h"
#include "gcu_util.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#if GRBCUDA_HAVE_CUDA
#include <cuda_runtime_api.h>

static struct
{
    pthread_mutex_t lock ;
    gcu_streams *ctx [GCU_STREAMS_POOL] ;   // made (NULL: not yet)
    bool busy [GCU_STREAMS_POOL] ;          // checked out by a call
    bool drop [GCU_STREAMS_POOL] ;          // released while out
}
P = { .lock = PTHREAD_MUTEX_INITIALIZER } ;

static void ctx_destroy (gcu_streams *c)
{
    if (c == NULL) return ;
    if (c->side != NULL) (void) cudaStreamDestroy ((cudaStream_t) c->side) ;
    if (c->copy != NULL) (void) cudaStreamDestroy ((cudaStream_t) c->copy) ;
    if (c->fork != NULL) (void) cudaEventDestroy ((cudaEvent_t) c->fork) ;
    if (c->join != NULL) (void) cudaEventDestroy ((cudaEvent_t) c->join) ;
    for (int e = 0 ; e < GCU_STREAMS_TIMED ; e++)
        if (c->timed [e] != NULL) (void) cudaEventDestroy ((cudaEvent_t) c->timed [e]) ;
    (void) cudaGetLastError () ;
    free (c) ;
}

// a context on device dev (made outside the lock: it takes some time)
static gcu_streams *ctx_make (int dev)
{
    gcu_streams *c = (gcu_streams *) calloc (1, sizeof (gcu_streams)) ;
    if (c == NULL) return NULL ;
    c->device = dev ;
    c->slot = -1 ;
    bool ok = cudaStreamCreateWithFlags ((cudaStream_t *) &c->side, cudaStreamNonBlocking) == cudaSuccess
        && cudaStreamCreateWithFlags ((cudaStream_t *) &c->copy, cudaStreamNonBlocking) == cudaSuccess
        && cudaEventCreateWithFlags ((cudaEvent_t *) &c->fork, cudaEventDisableTiming) == cudaSuccess
        && cudaEventCreateWithFlags ((cudaEvent_t *) &c->join, cudaEventDisableTiming) == cudaSuccess ;
    for (int e = 0 ; ok && e < GCU_STREAMS_TIMED ; e++)
        ok = cudaEventCreate ((cudaEvent_t *) &c->timed [e]) == cudaSuccess ;
    if (ok) return c ;
    gcu_log ("streams: a context could not be made: %s", cudaGetErrorString (cudaGetLastError ())) ;
    ctx_destroy (c) ;
    return NULL ;
}

GrB_Info gcu_streams_acquire (gcu_streams **ctx)
{
    *ctx = NULL ;
    int dev = 0 ;
    if (cudaGetDevice (&dev) != cudaSuccess) { (void) cudaGetLastError () ; return GrB_PANIC ; }
    int free_slot = -1 ;
    pthread_mutex_lock (&P.lock) ;
    for (int k = 0 ; k < GCU_STREAMS_POOL && *ctx == NULL ; k++)
    {
        if (P.busy [k]) continue ;
        if (P.ctx [k] != NULL && P.ctx [k]->device == dev) { P.busy [k] = true ; *ctx = P.ctx [k] ; }
        else if (P.ctx [k] == NULL && free_slot < 0) free_slot = k ;
    }
    if (*ctx == NULL && free_slot >= 0) P.busy [free_slot] = true ;     // to fill below
    pthread_mutex_unlock (&P.lock) ;
    if (*ctx != NULL) return GrB_SUCCESS ;
    gcu_streams *c = ctx_make (dev) ;
    if (free_slot >= 0)
    {
        pthread_mutex_lock (&P.lock) ;
        if (c != NULL) { c->slot = free_slot ; P.ctx [free_slot] = c ; }
        else P.busy [free_slot] = false ;
        pthread_mutex_unlock (&P.lock) ;
    }
    *ctx = c ;
    return c != NULL ? GrB_SUCCESS : GrB_PANIC ;
}

void gcu_streams_return (gcu_streams *c)
{
    if (c == NULL) return ;
    if (c->slot < 0) { ctx_destroy (c) ; return ; }
    pthread_mutex_lock (&P.lock) ;
    const int k = c->slot ;
    P.busy [k] = false ;
    if (P.drop [k]) { P.drop [k] = false ; P.ctx [k] = NULL ; ctx_destroy (c) ; }
    pthread_mutex_unlock (&P.lock) ;
}

void gcu_streams_release (void)
{
    pthread_mutex_lock (&P.lock) ;
    for (int k = 0 ; k < GCU_STREAMS_POOL ; k++)
    {
        if (P.ctx [k] == NULL) continue ;
        if (P.busy [k]) P.drop [k] = true ;
        else { ctx_destroy (P.ctx [k]) ; P.ctx [k] = NULL ; }
    }
    pthread_mutex_unlock (&P.lock) ;
}

#else

GrB_Info gcu_streams_acquire (gcu_streams **ctx) { *ctx = NULL ; return GrB_PANIC ; }
void gcu_streams_return (gcu_streams *ctx) { (void) ctx ; }
void gcu_streams_release (void) { }

#endif
