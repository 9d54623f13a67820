// transpose.cu — the CSR of a matrix's transpose made on the device from
// its CSR (gcu_transpose.h): the entries sorted by their index with CUB's
// stable radix sort (keys: the indices as stored, only their significant
// bits; values: the entries' positions), so that within each new vector the
// old vectors, and so the new indices, stay ascending; then small kernels:
// each entry's old vector (a mark at each vector's first entry and a max
// scan), the new indices and values gathered through the sorted positions,
// and the new pointers (the first sorted key of each index, by binary search).
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <stdint.h>

extern "C" {
#include "gcu_transpose.h"
#include "gcu_util.h"
#include "../device/gcu_device.h"
}

namespace {

// grid-stride loops over n items
unsigned grid_for (int64_t n)
{
    const gcu_device_props *dev = gcu_device () ;
    int64_t grid = (n + GCU_TRANSPOSE_THREADS - 1) / GCU_TRANSPOSE_THREADS ;
    const int64_t cap = (int64_t) (dev != NULL ? dev->sm_count : 1) * GCU_TRANSPOSE_BLOCKS_PER_SM ;
    if (grid > cap) grid = cap ;
    return (unsigned) (grid < 1 ? 1 : grid) ;
}

#define GRID_STRIDE(k, n)                                                       \
    for (int64_t k = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; k < (n) ; \
         k += (int64_t) gridDim.x * blockDim.x)

struct max_op
{
    template <class T>
    __device__ __forceinline__ T operator() (const T &a, const T &b) const { return a < b ? b : a ; }
} ;

// rowof [Ap [i]] = i for every non-empty vector i (rowof zeroed before):
// a max scan then gives each entry its vector
template <class Ip, class Io>
__global__ void __launch_bounds__ (GCU_TRANSPOSE_THREADS) k_marks (int64_t nvec,
    const Ip *__restrict__ Ap, Io *__restrict__ rowof)
{
    GRID_STRIDE (i, nvec)
    {
        const Ip start = Ap [i] ;
        if (Ap [i + 1] > start) rowof [start] = (Io) i ;
    }
}

__global__ void __launch_bounds__ (GCU_TRANSPOSE_THREADS) k_iota (int64_t n, uint32_t *__restrict__ v)
{
    GRID_STRIDE (k, n) v [k] = (uint32_t) k ;
}

// Tp [c] = the first position of key c in the sorted keys (c = 0..ninner)
template <class K, class Io>
__global__ void __launch_bounds__ (GCU_TRANSPOSE_THREADS) k_ptr (int64_t ninner,
    const K *__restrict__ keys, int64_t nvals, Io *__restrict__ Tp)
{
    GRID_STRIDE (c, ninner + 1)
    {
        int64_t lo = 0, hi = nvals ;
        while (lo < hi)
        {
            const int64_t mid = lo + (hi - lo) / 2 ;
            if ((int64_t) keys [mid] < c) lo = mid + 1 ; else hi = mid ;
        }
        Tp [c] = (Io) lo ;
    }
}

// Tj [k] = the old vector of the k-th sorted entry
template <class Io>
__global__ void __launch_bounds__ (GCU_TRANSPOSE_THREADS) k_gather_idx (int64_t nvals,
    const uint32_t *__restrict__ perm, const Io *__restrict__ rowof, Io *__restrict__ Tj)
{
    GRID_STRIDE (k, nvals) Tj [k] = rowof [perm [k]] ;
}

// Tx [k] = Ax [perm [k]], values of `words` words of W bytes
template <class W>
__global__ void __launch_bounds__ (GCU_TRANSPOSE_THREADS) k_gather_val (int64_t nvals, int words,
    const uint32_t *__restrict__ perm, const W *__restrict__ Ax, W *__restrict__ Tx)
{
    GRID_STRIDE (k, nvals)
    {
        const W *src = Ax + (int64_t) perm [k] * words ;
        W *dst = Tx + k * words ;
        for (int w = 0 ; w < words ; w++) dst [w] = src [w] ;
    }
}

template <class W>
GrB_Info gather_val (int64_t nvals, size_t tsize, const uint32_t *perm, const void *Ax,
    void *Tx, cudaStream_t st)
{
    k_gather_val<W> <<<grid_for (nvals), GCU_TRANSPOSE_THREADS, 0, st>>> (nvals,
        (int) (tsize / sizeof (W)), perm, (const W *) Ax, (W *) Tx) ;
    return gcu_launch_check ("transpose: values") ;
}

// bits an index below n needs (at least 1)
int key_bits (uint64_t n)
{
    int b = 1 ;
    while (b < 64 && (n - 1) >> b != 0) b++ ;
    return b ;
}

// the temporaries of one transpose
struct temps
{
    void *rowof, *keys [2], *vals [2], *cub ;
} ;

void temps_free (temps *t, gcu_stream s)
{
    gcu_dfree (t->rowof, s) ;
    for (int k = 0 ; k < 2 ; k++) { gcu_dfree (t->keys [k], s) ; gcu_dfree (t->vals [k], s) ; }
    gcu_dfree (t->cub, s) ;
}

#undef  GCU_FREE_ALL
#define GCU_FREE_ALL temps_free (&t, s) ;

// Ip: in's pointers and indices (the sort's keys); Io: T's pointers and indices
template <class Ip, class Io>
GrB_Info transpose (const gcu_dev_csr *in, Io *Tp, Io *Tj, void *Tx, gcu_stream s)
{
    temps t = { NULL, { NULL, NULL }, { NULL, NULL }, NULL } ;
    const cudaStream_t st = (cudaStream_t) s ;
    const int64_t nvals = (int64_t) in->nvals, nvec = (int64_t) in->nvec ;
    const int n = (int) nvals ;     // (checked by the caller: CUB's counts are int here)
    const size_t nb = (size_t) nvals ;

    // each entry's old vector
    GCU_TRY (gcu_dmalloc (&t.rowof, nb * sizeof (Io), s)) ;
    GCU_TRY (gcu_memset (t.rowof, 0, nb * sizeof (Io), s)) ;
    k_marks<Ip, Io> <<<grid_for (nvec), GCU_TRANSPOSE_THREADS, 0, st>>> (nvec,
        (const Ip *) in->p, (Io *) t.rowof) ;
    GCU_TRY (gcu_launch_check ("transpose: vector marks")) ;

    // the sort's buffers (double-buffered: CUB's temporary storage then
    // stays small); the keys are copied, in's arrays are never written
    for (int k = 0 ; k < 2 ; k++)
    {
        GCU_TRY (gcu_dmalloc (&t.keys [k], nb * sizeof (Ip), s)) ;
        GCU_TRY (gcu_dmalloc (&t.vals [k], nb * sizeof (uint32_t), s)) ;
    }
    cub::DoubleBuffer<Ip> keys ((Ip *) t.keys [0], (Ip *) t.keys [1]) ;
    cub::DoubleBuffer<uint32_t> vals ((uint32_t *) t.vals [0], (uint32_t *) t.vals [1]) ;
    const int end_bit = key_bits (in->ninner) ;
    size_t need_sort = 0, need_scan = 0 ;
    if (cub::DeviceRadixSort::SortPairs (NULL, need_sort, keys, vals, n, 0, end_bit, st) != cudaSuccess
        || cub::DeviceScan::InclusiveScan (NULL, need_scan, (Io *) t.rowof, (Io *) t.rowof,
            max_op (), n, st) != cudaSuccess)
    {
        GCU_TRY (GrB_PANIC) ;
    }
    size_t need = need_sort > need_scan ? need_sort : need_scan ;
    GCU_TRY (gcu_dmalloc (&t.cub, need + 16, s)) ;
    // (in place: CUB's scans allow d_in == d_out)
    if (cub::DeviceScan::InclusiveScan (t.cub, need, (Io *) t.rowof, (Io *) t.rowof,
        max_op (), n, st) != cudaSuccess) GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_launch_check ("transpose: vector scan")) ;

    // the entries by index, stably: within an index, by old vector
    GCU_TRY (gcu_memcpy_d2d (t.keys [0], in->j, nb * sizeof (Ip), s)) ;
    k_iota <<<grid_for (nvals), GCU_TRANSPOSE_THREADS, 0, st>>> (nvals, (uint32_t *) t.vals [0]) ;
    GCU_TRY (gcu_launch_check ("transpose: positions")) ;
    need = need_sort ;
    if (cub::DeviceRadixSort::SortPairs (t.cub, need, keys, vals, n, 0, end_bit, st) != cudaSuccess)
        GCU_TRY (GrB_PANIC) ;
    GCU_TRY (gcu_launch_check ("transpose: sort")) ;

    // T's pointers, indices and values
    const int64_t ninner = (int64_t) in->ninner ;
    k_ptr<Ip, Io> <<<grid_for (ninner + 1), GCU_TRANSPOSE_THREADS, 0, st>>> (ninner,
        keys.Current (), nvals, Tp) ;
    GCU_TRY (gcu_launch_check ("transpose: pointers")) ;
    k_gather_idx<Io> <<<grid_for (nvals), GCU_TRANSPOSE_THREADS, 0, st>>> (nvals,
        vals.Current (), (const Io *) t.rowof, Tj) ;
    GCU_TRY (gcu_launch_check ("transpose: indices")) ;
    if (in->iso)
    {
        GCU_TRY (gcu_memcpy_d2d (Tx, in->x, in->tsize, s)) ;
    }
    else
    {
        // the widest word that divides the value (the buffers are aligned
        // for any of them)
        const size_t ts = in->tsize ;
        const uint32_t *perm = vals.Current () ;
        if (ts % 16 == 0)     GCU_TRY (gather_val<ulonglong2> (nvals, ts, perm, in->x, Tx, st)) ;
        else if (ts % 8 == 0) GCU_TRY (gather_val<uint64_t> (nvals, ts, perm, in->x, Tx, st)) ;
        else if (ts % 4 == 0) GCU_TRY (gather_val<uint32_t> (nvals, ts, perm, in->x, Tx, st)) ;
        else if (ts % 2 == 0) GCU_TRY (gather_val<uint16_t> (nvals, ts, perm, in->x, Tx, st)) ;
        else                  GCU_TRY (gather_val<uint8_t>  (nvals, ts, perm, in->x, Tx, st)) ;
    }
    temps_free (&t, s) ;
    return GrB_SUCCESS ;
}

} // namespace

extern "C" GrB_Info gcu_transpose_csr (const gcu_dev_csr *in, int out_idx_bytes,
    void *Tp, void *Tj, void *Tx, gcu_stream s)
{
    const int iw = in->idx_bytes, ow = out_idx_bytes ;
    if ((iw != 4 && iw != 8) || (ow != 4 && ow != 8) || in->tsize == 0) return GCU_NOT_HANDLED ;
    // CUB's sort and scan are given int counts; the positions are uint32_t
    if (in->nvals > GCU_TRANSPOSE_MAX_NVALS) return GCU_NOT_HANDLED ;
    if (in->nvals == 0)
    {
        // no entry: every pointer 0, and the one value of an iso matrix
        GrB_Info info = gcu_memset (Tp, 0, (size_t) (in->ninner + 1) * ow, s) ;
        if (info == GrB_SUCCESS && in->iso) info = gcu_memcpy_d2d (Tx, in->x, in->tsize, s) ;
        return info ;
    }
    if (iw == 4 && ow == 4) return transpose<uint32_t, uint32_t> (in, (uint32_t *) Tp, (uint32_t *) Tj, Tx, s) ;
    if (iw == 4 && ow == 8) return transpose<uint32_t, uint64_t> (in, (uint64_t *) Tp, (uint64_t *) Tj, Tx, s) ;
    if (iw == 8 && ow == 4) return transpose<uint64_t, uint32_t> (in, (uint32_t *) Tp, (uint32_t *) Tj, Tx, s) ;
    return transpose<uint64_t, uint64_t> (in, (uint64_t *) Tp, (uint64_t *) Tj, Tx, s) ;
}
