// test_spgemm_dense_emu.cpp — the SpGEMM dense accumulator's device code,
// run on the CPU under the SIMT emulation (tests/common/gcu_simt_emu.h: a
// fiber a CUDA thread), against a plain reference.
//
// The dense accumulator walks the longest rows of C = A*B window by window of
// W columns, each row of B resumed where the previous window left it (the
// cursor, one int32 an entry of A), and marks the columns it meets in a
// bitmap (cuda/spgemm/gcu_spgemm.cuh: gcu_spgemm_products_dense; the
// symbolic kernel takes a plain walk when one window covers the row). Two
// checks, over random and structured A and B (empty,
// short, dense and clustered rows of B; n not a multiple of W; one window and
// many), every TPB from 1 to 32, blocks of 32 to 256 threads, 32- and 64-bit
// indices:
//   - gcu_spgemm_products_dense itself: over a row's windows it calls f
//     exactly once per product A(i,k)*B(k,j), in the window of j, with the
//     right k and j, and the bitmap of each window is exactly the set of
//     columns of C(i,:) in it; a row of one window never touches the cursor;
//   - the symbolic kernel gcu_spgemm_symbolic_dense, whole (its shared memory
//     emulated as block-wide storage), both of its walks (one window, many):
//     nnz(C(i,:)) for every row.
// The numeric kernel walks its products with the same function. On a GPU the
// same code is checked against SuiteSparse by tests/gpu/test_mxm_gpu.c.
#include "gcu_simt_emu.h"

// the kernels' dynamic shared memory: blocks run one at a time
alignas (16) static unsigned char gcu_emu_dynamic_smem [1 << 16] ;
#include "spgemm/gcu_spgemm.cuh"            // the copy with shared memory made static

#include "gcu_emu_test.h"

template <class AI, class BI>
static void check_case (const csr &A, const csr &B, int64_t W, int G, int TPB, const char *name)
{
    const std::vector<AI> Ap = gcu_emu_narrow<AI> (A.p), Aj = gcu_emu_narrow<AI> (A.j) ;
    const std::vector<BI> Bp = gcu_emu_narrow<BI> (B.p), Bj = gcu_emu_narrow<BI> (B.j) ;
    const int64_t n = B.ncols, anvals = (int64_t) A.j.size () ;
    const bool one_window = W >= n ;
    const int32_t poison = 0x5a5a5a5a ;
    std::vector<int32_t> cursor (anvals + 1, poison) ;
    int32_t *cur = one_window ? nullptr : cursor.data () ;
    std::vector<uint32_t> bits (W / 32) ;

    // 1. gcu_spgemm_products_dense, row by row, window by window
    for (int64_t i = 0 ; i < A.nrows ; i++)
    {
        std::set<int64_t> cols ;
        std::multiset<std::pair<int64_t, int64_t>> prods, seen ;
        gcu_emu_reference_row (A, B, i, cols, &prods) ;
        bool bad_call = false ;
        for (int64_t lo = 0 ; lo < n ; lo += W)
        {
            const int64_t hi = lo + W ;
            std::fill (bits.begin (), bits.end (), 0u) ;
            gcu_emu_block (0, (unsigned) G, [&]
            {
                gcu_spgemm_products_dense (i, Ap.data (), Aj.data (), Bp.data (), Bj.data (),
                    G, TPB, (int) threadIdx.x, lo, hi, hi >= n, cur, bits.data (),
                    [&] (int64_t k, int64_t pa, int32_t j, int64_t pb)
                    {
                        seen.insert ({ pa, pb }) ;
                        if (k != A.j [pa] || j != B.j [pb] || j < lo || j >= hi) bad_call = true ;
                    }) ;
            }) ;
            // the window's bitmap is exactly C(i,:) within [lo, hi)
            bool same = true ;
            for (int64_t c = 0 ; c < W ; c++)
            {
                const bool mark = bits [c >> 5] >> (c & 31) & 1 ;
                const bool want = lo + c < n && cols.count (lo + c) ;
                if (mark != want) same = false ;
            }
            CHECK (same, "%s: row %lld window [%lld,%lld): bitmap differs (W %lld, G %d, TPB %d)",
                name, (long long) i, (long long) lo, (long long) hi, (long long) W, G, TPB) ;
        }
        CHECK (!bad_call, "%s: row %lld: a product with the wrong k, j or window", name, (long long) i) ;
        CHECK (seen == prods, "%s: row %lld: %zu products walked, %zu expected (each once; W %lld, G %d, TPB %d)",
            name, (long long) i, seen.size (), prods.size (), (long long) W, G, TPB) ;
    }
    if (one_window)
    {
        CHECK (std::all_of (cursor.begin (), cursor.end (), [&] (int32_t c) { return c == poison ; }),
            "%s: one window, yet the cursor was written", name) ;
    }

    // 2. the symbolic kernel, whole: nnz of every row
    std::vector<int64_t> rows (A.nrows), Cnnz (A.nrows, -1) ;
    for (int64_t i = 0 ; i < A.nrows ; i++) rows [i] = i ;
    std::fill (cursor.begin (), cursor.end (), poison) ;
    for (int64_t b = 0 ; b < A.nrows ; b++)
    {
        gcu_emu_block ((unsigned) b, (unsigned) G, [&]
        {
            gcu_spgemm_symbolic_dense (rows.data (), Ap.data (), Aj.data (), Bp.data (), Bj.data (),
                Cnnz.data (), cur, n, W, TPB) ;
        }) ;
    }
    for (int64_t i = 0 ; i < A.nrows ; i++)
    {
        std::set<int64_t> cols ;
        std::multiset<std::pair<int64_t, int64_t>> prods ;
        gcu_emu_reference_row (A, B, i, cols, &prods) ;
        CHECK (Cnnz [i] == (int64_t) cols.size (), "%s: symbolic row %lld: %lld, expected %zu (W %lld, G %d, TPB %d)",
            name, (long long) i, (long long) Cnnz [i], cols.size (), (long long) W, G, TPB) ;
    }
}

int main ()
{
    std::mt19937_64 rng (20261123) ;
    struct shape { int64_t m, k, n ; bool structured ; } shapes [] =
    {
        { 6, 30, 100, true },       // n not a multiple of 32
        { 6, 40, 300, true },
        { 5, 50, 1000, false },
        { 4, 20, 64, true },
        { 3, 1, 500, true },        // every row of A refers to one row of B
        { 2, 60, 33, true },
    } ;
    const int64_t windows [] = { 32, 64, 96, 1024 } ;
    const int tpbs [] = { 1, 2, 4, 8, 16, 32 } ;
    int cases = 0 ;
    for (const shape &s : shapes)
    {
        csr A = gcu_emu_random_csr (s.m, s.k, rng, false) ;
        csr B = gcu_emu_random_csr (s.k, s.n, rng, s.structured) ;
        for (int64_t W : windows)
        {
            for (int TPB : tpbs)
            {
                // blocks of 32, 64, 128 and 256 threads
                const int G = 32 << (cases % 4) ;
                char name [96] ;
                snprintf (name, sizeof (name), "%lldx%lldx%lld", (long long) s.m, (long long) s.k, (long long) s.n) ;
                if (cases % 2 == 0) check_case<uint32_t, uint32_t> (A, B, W, G, TPB, name) ;
                else check_case<uint64_t, uint32_t> (A, B, W, G, TPB, name) ;
                cases++ ;
            }
        }
    }
    return gcu_emu_finish ("test_spgemm_dense_emu", cases) ;
}
