// test_spgemm_symbolic_emu.cpp — the SpGEMM analysis and symbolic kernels of
// cuda/spgemm/gcu_spgemm.cuh, run whole on the CPU under the SIMT emulation
// (tests/common/gcu_simt_emu.h: a fiber a CUDA thread), against a plain
// reference: the products of every row (a warp a row, summed by shuffles, in
// a grid-stride loop), and nnz of every row of C through the shared-memory
// hash tables of every bin (32 to 8192 slots, the host's H / 4 threads a row
// and rows a block: gcu_bin_shape, cuda/spgemm/gcu_spgemm_policy.h) and
// through the global tables (one block a row). The dense accumulator has its own test
// (test_spgemm_dense_emu).
#include "gcu_simt_emu.h"

alignas (16) static unsigned char gcu_emu_dynamic_smem [64 * 1024] ;
#include "spgemm/gcu_spgemm.cuh"            // the copy with shared memory made static
#include "gcu_emu_test.h"

#include <map>

#define THREADS GCU_SPGEMM_THREADS          // cuda/spgemm/gcu_spgemm_policy.h

template <class AI, class BI>
static int run (const char *name, const csr &A, const csr &B, int TPB)
{
    const std::vector<AI> Ap = gcu_emu_narrow<AI> (A.p), Aj = gcu_emu_narrow<AI> (A.j) ;
    const std::vector<BI> Bp = gcu_emu_narrow<BI> (B.p), Bj = gcu_emu_narrow<BI> (B.j) ;
    const int64_t m = A.nrows ;
    std::vector<int64_t> want_prod (m, 0), want_nnz (m, 0) ;
    for (int64_t i = 0 ; i < m ; i++)
    {
        std::set<int64_t> cols ;
        gcu_emu_reference_row (A, B, i, cols, nullptr) ;
        want_nnz [i] = (int64_t) cols.size () ;
        for (int64_t pa = A.p [i] ; pa < A.p [i + 1] ; pa++) want_prod [i] += B.p [A.j [pa] + 1] - B.p [A.j [pa]] ;
    }
    int cases = 0 ;

    // the analysis: products a row, 2 blocks of 256 threads (16 warps for m rows)
    {
        std::vector<int64_t> prod (m, -1) ;
        gridDim.x = 2 ;
        for (unsigned b = 0 ; b < gridDim.x ; b++)
        {
            gcu_emu_block (b, THREADS, [&]
            {
                gcu_spgemm_row_products (m, Ap.data (), Aj.data (), Bp.data (), prod.data ()) ;
            }) ;
        }
        CHECK (prod == want_prod, "%s: products per row differ from the reference", name) ;
        cases++ ;
    }

    // shared tables, bin by bin: rows whose products fit H / 2 slots
    std::vector<int64_t> Cnnz (m, -1) ;
    gcu_emu_launch_bins (want_prod, 1, 2, GCU_PHASE_SYMBOLIC, THREADS, TPB,
        [&] (const int64_t *rows, int64_t nrows, uint32_t H, int G, int tpb)
        {
            gcu_spgemm_symbolic_shared (rows, nrows, Ap.data (), Aj.data (), Bp.data (),
                Bj.data (), Cnnz.data (), H, G, tpb) ;
        },
        [&] (uint32_t H, int G, int tpb, const std::vector<int64_t> &rows)
        {
            bool same = true ;
            for (int64_t i : rows) same = same && Cnnz [i] == want_nnz [i] ;
            CHECK (same, "%s: symbolic shared H=%u G=%d TPB=%d: nnz differs from the reference", name, H, G, tpb) ;
            cases++ ;
        }) ;

    // global tables, one block a row, every row
    {
        std::vector<int64_t> rows (m), offs (m + 1, 0), Cnnz (m, -1) ;
        for (int64_t i = 0 ; i < m ; i++)
        {
            rows [i] = i ;
            offs [i + 1] = offs [i] + gcu_emu_table (want_prod [i], 1, 2) ;
        }
        std::vector<int32_t> gkeys (offs [m]) ;
        for (int64_t b = 0 ; b < m ; b++)
        {
            gcu_emu_block ((unsigned) b, THREADS, [&]
            {
                gcu_spgemm_symbolic_global (rows.data (), offs.data (), gkeys.data (), Ap.data (),
                    Aj.data (), Bp.data (), Bj.data (), Cnnz.data (), TPB) ;
            }) ;
        }
        CHECK (Cnnz == want_nnz, "%s: symbolic global TPB=%d: nnz differs from the reference", name, TPB) ;
        cases++ ;
    }
    return cases ;
}

int main ()
{
    std::mt19937_64 rng (20261123) ;
    int cases = 0 ;
    int s = 0 ;
    for (const gcu_emu_shape &sh : gcu_emu_spgemm_shapes)
    {
        // five times the rows (the symbolic kernels are quick to emulate)
        const csr A = gcu_emu_random_csr (5 * sh.m, sh.k, rng, false, sh.amax) ;
        const csr B = gcu_emu_random_csr (sh.k, sh.n, rng, sh.structured, 80) ;
        char name [64] ;
        snprintf (name, sizeof (name), "%lldx%lldx%lld", (long long) A.nrows, (long long) sh.k, (long long) sh.n) ;
        for (int tpb : { 1, 4, 32 })
        {
            if ((s + tpb) % 2 == 0) cases += run<uint32_t, uint32_t> (name, A, B, tpb) ;
            else cases += run<uint64_t, uint32_t> (name, A, B, tpb) ;
        }
        s++ ;
    }
    return gcu_emu_finish ("test_spgemm_symbolic_emu", cases) ;
}
