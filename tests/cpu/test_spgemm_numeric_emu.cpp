// test_spgemm_numeric_emu.cpp — the SpGEMM numeric kernels
// (cuda/spgemm/gcu_spgemm_numeric.cuh), run whole on the CPU under the SIMT
// emulation (tests/common/gcu_simt_emu.h: a fiber a CUDA thread, blocks of
// GCU_SPGEMM_THREADS and GCU_SPGEMM_DENSE_THREADS), against a plain
// row-by-row reference of C = A*B:
//   - gcu_spgemm_numeric_shared, every table size of the shared bins (32 to
//     8192 slots) with the host's threads a row and rows a block
//     (cuda/spgemm/gcu_spgemm_policy.h: gcu_bin_shape), so both emits run: the warp-ballot
//     compaction and ranking of tables up to 64 slots, and the bucket sort of
//     larger ones; rows of one bin share blocks with empty slots (idx past
//     the bin's rows);
//   - gcu_spgemm_numeric_global (unsorted rows: compared as sets);
//   - gcu_spgemm_numeric_dense over one window and many (the cursor), with
//     the emit by block scan;
//   - the masked saxpy C<M> = A*B (cuda/spgemm/gcu_spgemm_masked.cuh), the
//     shared-table kernel bin by bin and the one-block-a-row kernel, with a
//     structural and a valued mask (one entry of C a mask entry, flagged
//     when some product landed there).
// Each through the semirings of tests/common/gcu_emu_semirings.h, which take
// every accumulation path (native atomics, 4/8-byte CAS, the word around 1/2
// byte values, the 16-byte lock, ANY, a positional multiply); values are
// small integers, so patterns and values must be equal. The emulation
// switches threads only at warp-level calls and barriers, so it checks the
// lanes' cooperation, not the atomics' interleavings (the GPU suite does:
// tests/gpu/test_mxm_gpu.c).
#include "gcu_simt_emu.h"

alignas (16) static unsigned char gcu_emu_dynamic_smem [256 * 1024] ;
#include "spgemm/gcu_spgemm_masked.cuh"     // the copies with shared memory made static
#include "gcu_emu_test.h"

#include <map>
#include <type_traits>

// src/spgemm/gcu_spgemm.h's block sizes
#define THREADS GCU_SPGEMM_THREADS              // cuda/spgemm/gcu_spgemm_policy.h
#define DENSE_THREADS GCU_SPGEMM_DENSE_THREADS

#include "gcu_emu_semirings.h"

// C = A*B by rows, in the semiring (sums of small integers: exact in any order)
template <class SR>
struct reference
{
    typedef typename SR::Z Z ;
    std::vector<int64_t> Cp ;
    std::vector<int32_t> Cj ;
    std::vector<Z> Cx ;
    reference (const csr &A, const values<Z> &Ax, const csr &B, const values<Z> &Bx)
    {
        Cp.push_back (0) ;
        for (int64_t i = 0 ; i < A.nrows ; i++)
        {
            std::map<int64_t, Z> row ;
            for (int64_t pa = A.p [i] ; pa < A.p [i + 1] ; pa++)
            {
                const int64_t k = A.j [pa] ;
                for (int64_t pb = B.p [k] ; pb < B.p [k + 1] ; pb++)
                {
                    const Z t = SR::mult (Ax [pa], Bx [pb], i, k, B.j [pb]) ;
                    auto it = row.find (B.j [pb]) ;
                    if (it == row.end ()) row.emplace (B.j [pb], SR::add (SR::identity (), t)) ;
                    else it->second = SR::add (it->second, t) ;
                }
            }
            for (auto &e : row) { Cj.push_back ((int32_t) e.first) ; Cx.push_back (e.second) ; }
            Cp.push_back ((int64_t) Cj.size ()) ;
        }
    }
} ;

// row i of the kernel's C against the reference (sorted: in order; else as a set)
template <class SR>
static void compare_row (const reference<SR> &R, const std::vector<int32_t> &Cj,
    const values<typename SR::Z> &Cx, int64_t i, bool sorted, const char *what)
{
    typedef typename SR::Z Z ;
    const int64_t p0 = R.Cp [i], p1 = R.Cp [i + 1] ;
    std::vector<std::pair<int32_t, Z>> got, want ;
    for (int64_t p = p0 ; p < p1 ; p++) { got.push_back ({ Cj [p], Cx [p] }) ; want.push_back ({ R.Cj [p], R.Cx [p] }) ; }
    if (!sorted)
    {
        std::sort (got.begin (), got.end (), [] (const std::pair<int32_t, Z> &a,
            const std::pair<int32_t, Z> &b) { return a.first < b.first ; }) ;
    }
    size_t e = 0 ;
    while (e < got.size () && got [e].first == want [e].first && same_value (got [e].second, want [e].second)) e++ ;
    CHECK (e == got.size (), "%s: row %lld (%lld entries) differs from the reference at entry %zu (column %d, expected %d%s)",
        what, (long long) i, (long long) (p1 - p0), e, e < got.size () ? got [e].first : -1,
        e < got.size () ? want [e].first : -1,
        e < got.size () && got [e].first == want [e].first ? ": the value" : "") ;
}

template <class SR, class AI, class BI>
static int run_semiring (const char *name, const csr &A, const csr &B, std::mt19937_64 &rng, int TPB)
{
    typedef typename SR::Z Z ;
    values<Z> Ax ((size_t) A.nvals ()), Bx ((size_t) B.nvals ()) ;
    for (int64_t p = 0 ; p < A.nvals () ; p++) Ax [p] = small_value<Z> (rng) ;
    for (int64_t p = 0 ; p < B.nvals () ; p++) Bx [p] = small_value<Z> (rng) ;
    const reference<SR> R (A, Ax, B, Bx) ;
    const std::vector<AI> Ap = gcu_emu_narrow<AI> (A.p), Aj = gcu_emu_narrow<AI> (A.j) ;
    const std::vector<BI> Bp = gcu_emu_narrow<BI> (B.p), Bj = gcu_emu_narrow<BI> (B.j) ;
    const int64_t m = A.nrows, n = B.ncols, nvals = (int64_t) R.Cj.size () ;
    int cases = 0 ;
    char what [160] ;

    // 1. shared tables, bin by bin
    std::vector<int64_t> cnt (m) ;
    for (int64_t i = 0 ; i < m ; i++) cnt [i] = R.Cp [i + 1] - R.Cp [i] ;
    {
        std::vector<int32_t> Cj (nvals, -1) ;
        values<Z> Cx ((size_t) nvals) ;
        gcu_emu_launch_bins (cnt, 2, 3, GCU_PHASE_NUMERIC, THREADS, TPB,
            [&] (const int64_t *rows, int64_t nrows, uint32_t H, int G, int tpb)
            {
                gcu_spgemm_numeric_shared<SR, AI, BI> (rows, nrows, Ap.data (), Aj.data (),
                    Ax.data (), Bp.data (), Bj.data (), Bx.data (), R.Cp.data (), Cj.data (),
                    Cx.data (), H, G, tpb) ;
            },
            [&] (uint32_t H, int G, int tpb, const std::vector<int64_t> &rows)
            {
                snprintf (what, sizeof (what), "%s shared H=%u G=%d TPB=%d", name, H, G, tpb) ;
                for (int64_t i : rows) compare_row (R, Cj, Cx, i, true, what) ;
                cases++ ;
            }) ;
    }

    // 2. global tables (one block a row, every row), written unsorted
    {
        std::vector<int64_t> rows (m), offs (m + 1, 0) ;
        for (int64_t i = 0 ; i < m ; i++)
        {
            rows [i] = i ;
            offs [i + 1] = offs [i] + 2 * gcu_emu_table (cnt [i], 2, 3) ;
        }
        std::vector<int32_t> gkeys (offs [m]), glocks (offs [m]), Cj (nvals, -1) ;
        values<Z> gvals ((size_t) offs [m]), Cx ((size_t) nvals) ;
        for (int64_t b = 0 ; b < m ; b++)
        {
            gcu_emu_block ((unsigned) b, THREADS, [&]
            {
                gcu_spgemm_numeric_global<SR, AI, BI> (rows.data (), offs.data (), gkeys.data (),
                    gvals.data (), glocks.data (), Ap.data (), Aj.data (), Ax.data (), Bp.data (),
                    Bj.data (), Bx.data (), R.Cp.data (), Cj.data (), Cx.data (), TPB) ;
            }) ;
        }
        snprintf (what, sizeof (what), "%s global TPB=%d", name, TPB) ;
        for (int64_t i = 0 ; i < m ; i++) compare_row (R, Cj, Cx, i, false, what) ;
        cases++ ;
    }

    // 3. the dense accumulator (values of at most 8 bytes), one window and many
    if constexpr (sizeof (Z) <= 8)
    {
        std::vector<int64_t> rows (m) ;
        for (int64_t i = 0 ; i < m ; i++) rows [i] = i ;
        // windows: narrow ones where n is small, three or four where it is
        // not (a block of 1024 fibers a row and window is slow to emulate),
        // and one window over all of n (no cursor)
        const int64_t full = ((n + 31) / 32) * 32 ;
        for (int64_t W : { n <= 1000 ? (int64_t) 96 : ((full / 3 + 31) / 32) * 32, full })
        {
            std::vector<int32_t> Cj (nvals, -1), cursor (A.nvals () + 1, 0x5a5a5a5a) ;
            values<Z> Cx ((size_t) nvals) ;
            int32_t *cur = W >= n ? nullptr : cursor.data () ;
            for (int64_t b = 0 ; b < m ; b++)
            {
                gcu_emu_block ((unsigned) b, DENSE_THREADS, [&]
                {
                    gcu_spgemm_numeric_dense<SR, AI, BI> (rows.data (), Ap.data (), Aj.data (),
                        Ax.data (), Bp.data (), Bj.data (), Bx.data (), R.Cp.data (), Cj.data (),
                        Cx.data (), cur, n, W, TPB) ;
                }, 64 * 1024) ;
            }
            snprintf (what, sizeof (what), "%s dense W=%lld TPB=%d", name, (long long) W, TPB) ;
            for (int64_t i = 0 ; i < m ; i++) compare_row (R, Cj, Cx, i, true, what) ;
            cases++ ;
        }
    }
    // 4. masked saxpy C<M> = A*B, positional: Cx [e], Cb [e] for the e-th
    // entry of M; a structural mask, then a valued one (half its entries false)
    {
        const csr M = gcu_emu_random_csr (m, n, rng, true, 400) ;
        values<bool> Mx ((size_t) M.nvals ()) ;
        for (int64_t e = 0 ; e < M.nvals () ; e++) Mx [e] = rng () % 2 ;
        const std::vector<AI> Mp = gcu_emu_narrow<AI> (M.p), Mj = gcu_emu_narrow<AI> (M.j) ;
        for (int valued = 0 ; valued <= 1 ; valued++)
        {
            // the reference: an entry of M gets C(i,j) when it counts and
            // row i of A*B has column j
            std::vector<int8_t> want_b (M.nvals (), 0) ;
            values<Z> want_x ((size_t) M.nvals ()) ;
            for (int64_t i = 0 ; i < m ; i++)
            {
                for (int64_t e = M.p [i] ; e < M.p [i + 1] ; e++)
                {
                    if (valued && !Mx [e]) continue ;
                    const auto b = std::lower_bound (R.Cj.begin () + R.Cp [i], R.Cj.begin () + R.Cp [i + 1], (int32_t) M.j [e]) ;
                    if (b == R.Cj.begin () + R.Cp [i + 1] || *b != (int32_t) M.j [e]) continue ;
                    want_b [e] = 1 ;
                    want_x [e] = R.Cx [b - R.Cj.begin ()] ;
                }
            }
            // rows [i]: whether the kernel ran row i (a shared table holds at
            // most 5461 mask entries)
            auto compare = [&] (const std::vector<int8_t> &Cb, const values<Z> &Cx,
                const std::vector<bool> &ran, const char *what)
            {
                int64_t bad = -1 ;
                for (int64_t e = 0 ; e < M.nvals () && bad < 0 ; e++)
                {
                    const int64_t i = std::upper_bound (M.p.begin (), M.p.end (), e) - M.p.begin () - 1 ;
                    if (!ran [i]) continue ;
                    if ((Cb [e] != 0) != (want_b [e] != 0) || (want_b [e] && !same_value (Cx [e], want_x [e]))) bad = e ;
                }
                CHECK (bad < 0, "%s: mask entry %lld (column %lld) differs from the reference: flag %d, expected %d",
                    what, (long long) bad, bad < 0 ? -1ll : (long long) M.j [bad], bad < 0 ? 0 : (int) Cb [bad],
                    bad < 0 ? 0 : (int) want_b [bad]) ;
            } ;
            // shared tables, bin by bin (mask rows of at most 5461 entries)
            {
                std::vector<int8_t> Cb (M.nvals (), 0) ;
                values<Z> Cx ((size_t) M.nvals ()) ;
                std::vector<int64_t> mcnt (m) ;
                std::vector<bool> ran (m) ;
                for (int64_t i = 0 ; i < m ; i++)
                {
                    mcnt [i] = M.p [i + 1] - M.p [i] ;
                    ran [i] = gcu_emu_table (mcnt [i], 2, 3) <= GCU_SPGEMM_HMAX ;
                }
                gcu_emu_launch_bins (mcnt, 2, 3, GCU_PHASE_MASKED, THREADS, TPB,
                    [&] (const int64_t *rows, int64_t nrows, uint32_t H, int G, int tpb)
                    {
                        if (valued) gcu_spgemm_masked_shared<VALUED<SR>, AI, AI, BI> (rows, nrows,
                            Mp.data (), Mj.data (), Mx.data (), Ap.data (), Aj.data (), Ax.data (),
                            Bp.data (), Bj.data (), Bx.data (), Cx.data (), Cb.data (), H, G, tpb) ;
                        else gcu_spgemm_masked_shared<SR, AI, AI, BI> (rows, nrows,
                            Mp.data (), Mj.data (), Mx.data (), Ap.data (), Aj.data (), Ax.data (),
                            Bp.data (), Bj.data (), Bx.data (), Cx.data (), Cb.data (), H, G, tpb) ;
                    },
                    [] (uint32_t, int, int, const std::vector<int64_t> &) { }) ;
                snprintf (what, sizeof (what), "%s masked shared%s TPB=%d", name, valued ? " (valued)" : "", TPB) ;
                compare (Cb, Cx, ran, what) ;
                cases++ ;
            }
            // one block a row, every row
            {
                std::vector<int8_t> Cb (M.nvals (), 0) ;
                values<Z> Cx ((size_t) M.nvals ()) ;
                std::vector<int32_t> locks (M.nvals () + 1) ;
                std::vector<int64_t> rows (m) ;
                for (int64_t i = 0 ; i < m ; i++) rows [i] = i ;
                for (int64_t b = 0 ; b < m ; b++)
                {
                    gcu_emu_block ((unsigned) b, THREADS, [&]
                    {
                        if (valued) gcu_spgemm_masked_global<VALUED<SR>, AI, AI, BI> (rows.data (), Mp.data (),
                            Mj.data (), Mx.data (), Ap.data (), Aj.data (), Ax.data (), Bp.data (),
                            Bj.data (), Bx.data (), Cx.data (), Cb.data (), locks.data (), TPB) ;
                        else gcu_spgemm_masked_global<SR, AI, AI, BI> (rows.data (), Mp.data (),
                            Mj.data (), Mx.data (), Ap.data (), Aj.data (), Ax.data (), Bp.data (),
                            Bj.data (), Bx.data (), Cx.data (), Cb.data (), locks.data (), TPB) ;
                    }) ;
                }
                snprintf (what, sizeof (what), "%s masked global%s TPB=%d", name, valued ? " (valued)" : "", TPB) ;
                compare (Cb, Cx, std::vector<bool> (m, true), what) ;
                cases++ ;
            }
        }
    }
    return cases ;
}

int main ()
{
    std::mt19937_64 rng (20261123) ;
    int cases = 0 ;
    // GCU_EMU_ONLY=NAME runs one semiring (debugging)
    const char *only = getenv ("GCU_EMU_ONLY") ;
#define RUN(SR, AI, BI, tpb) \
    if (only == nullptr || strcmp (only, #SR) == 0) cases += run_semiring<SR, AI, BI> (#SR, A, B, rng, tpb)
    int s = 0 ;
    for (const gcu_emu_shape &sh : gcu_emu_spgemm_shapes)
    {
        const csr A = gcu_emu_random_csr (sh.m, sh.k, rng, false, sh.amax) ;
        const csr B = gcu_emu_random_csr (sh.k, sh.n, rng, sh.structured, 80) ;
        const int tpb = 1 << (2 * s) ;              // 1, 4, 16
        RUN (PLUS_TIMES_FP64, uint32_t, uint32_t, tpb) ;
        RUN (MIN_PLUS_INT32, uint64_t, uint32_t, 32 >> s) ;
        RUN (MAX_PLUS_FP32, uint32_t, uint64_t, tpb) ;
        RUN (MAX_TIMES_UINT16, uint32_t, uint32_t, 2 << s) ;
        RUN (ANY_PAIR_BOOL, uint32_t, uint32_t, tpb) ;
        RUN (PLUS_TIMES_FC64, uint64_t, uint64_t, 8 >> s) ;
        RUN (PLUS_SECONDJ_INT64, uint32_t, uint32_t, tpb) ;
        s++ ;
    }
    return gcu_emu_finish ("test_spgemm_numeric_emu", cases) ;
}
