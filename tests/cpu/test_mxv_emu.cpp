// test_mxv_emu.cpp — the GrB_mxv / GrB_vxm kernels (cuda/mxv/gcu_mxv.cuh), run
// whole on the CPU under the SIMT emulation (tests/common/gcu_simt_emu.h: a
// fiber a CUDA thread), against a plain reference of w = R*u:
//   - pull: G = 1 to 32 threads a row, the group's values reduced through
//     shared memory under __syncwarp of the group's own mask, a grid-stride
//     loop over the rows (few blocks, so groups of one warp run different
//     numbers of rows), rows the mask excludes skipped whole, u full or with
//     a presence byte an entry, ANY and terminal monoids stopping early;
//   - push: a group per entry of a sparse u, products folded into a dense T
//     (gcu_mxv_init first), the same mask; and with the split: the rows of P
//     longer than a small bound (none, about half, nearly all) left to
//     push_long, a warp a segment of a few entries found by binary search in
//     the scan of the segment counts (done here on the host, as
//     src/mxv/push_split.cu does on the device; for a u of 20 entries by
//     each warp itself), over a grid too small for the segments (a
//     grid-stride loop);
//   - the SpMV variants (u full, no mask): vector (G = 1 to 32), stream
//     (rows a block and staged products small and large: staged blocks and
//     blocks that read R directly, rows a thread and rows a warp),
//     adaptive (blocks of runs of a few and of many entries, each long row
//     alone, tiles that hold them and tiles that do not), sell and
//     sellsort (a thread a row over the slices, R's rows in order or sorted
//     by length, built here as spmv_plan.cu builds them), each
//     with and without the split (rows longer than a small bound cut into
//     segments of a few entries, a warp each, folded atomically);
// each as mxv and as vxm (the operands' order and the positions the
// positional multiplier sees), through the semirings of
// tests/common/gcu_emu_semirings.h. On a GPU, tests/gpu/test_mxv_gpu.c checks
// the same kernels against SuiteSparse.
#include "gcu_simt_emu.h"

alignas (16) static unsigned char gcu_emu_dynamic_smem [64 * 1024] ;
#include "mxv/gcu_mxv.cuh"                  // the copy with shared memory made static
#include "mxv/gcu_spmv.cuh"                 // (likewise)
#include "gcu_emu_test.h"
#include "gcu_emu_semirings.h"
#include <algorithm>
#include <type_traits>

// the same semiring with a terminal value that the values reach (MIN over
// values of at least 2: 2), so pull rows stop early
struct MIN_PLUS_INT32_T : MIN_PLUS_INT32
{
    static const bool has_terminal = true ;
    static Z terminal () { return 2 ; }
} ;

// the long rows of R (longer than lrow) and their first segments of seg
// entries, as src/mxv/spmv_plan.cu makes them
static int64_t long_rows (const csr &Rm, int64_t lrow, int64_t seg, std::vector<int64_t> &Lr,
    std::vector<int64_t> &Ls)
{
    Lr.clear () ;
    Ls.assign (1, 0) ;
    for (int64_t i = 0 ; i < Rm.nrows ; i++)
    {
        const int64_t len = Rm.p [i + 1] - Rm.p [i] ;
        if (len <= lrow) continue ;
        Lr.push_back (i) ;
        Ls.push_back (Ls.back () + (len + seg - 1) / seg) ;
    }
    return Ls.back () ;
}

// push's split: Us [e] the inclusive scan of the segments of u's entries
// (positions Ui), as src/mxv/push_split.cu makes it
static std::vector<int64_t> push_scan (const csr &P, const std::vector<int64_t> &Ui, int64_t lrow,
    int64_t seg)
{
    std::vector<int64_t> Us (Ui.size ()) ;
    int64_t t = 0 ;
    for (size_t e = 0 ; e < Ui.size () ; e++)
    {
        const int64_t len = P.p [Ui [e] + 1] - P.p [Ui [e]] ;
        t += len > lrow ? (len + seg - 1) / seg : 0 ;
        Us [e] = t ;
    }
    return Us ;
}

// adaptive's blocks of R, as src/mxv/spmv_plan.cu makes them (block_starts)
// but with runs of K entries (small here: many blocks, some of one row)
static std::vector<int64_t> adaptive_blocks (const csr &Rm, int64_t K, int64_t lrow)
{
    std::vector<int64_t> Bs ;
    for (int64_t i = 0 ; i < Rm.nrows ; i++)
    {
        bool start = i == 0 || i % GCU_MXV_ADAPTIVE_ROWS == 0 ;
        if (!start)
        {
            const int64_t p0 = Rm.p [i - 1], p1 = Rm.p [i], p2 = Rm.p [i + 1] ;
            start = p0 / K != p1 / K || (lrow > 0 && (p1 - p0 > lrow || p2 - p1 > lrow)) ;
        }
        if (start) Bs.push_back (i) ;
    }
    Bs.push_back (Rm.nrows) ;
    return Bs ;
}

// sell's slices of R (rows longer than lrow > 0 left out), as
// src/mxv/spmv_plan.cu builds them: the slices' rows R's in order, or
// (sorted: sellsort) Sp, by length, longest first, stably; So the slices'
// first entries, Sj, Sx by column within each slice, padding ~0 and zero
template <class RI, class Z>
static void sell_slices (const csr &Rm, const values<Z> &Rx, int64_t lrow, bool sorted,
    std::vector<int64_t> &So, std::vector<int32_t> &Sp, std::vector<RI> &Sj, values<Z> &Sx)
{
    const int64_t S = GCU_MXV_SELL_SLICE, nslices = (Rm.nrows + S - 1) / S ;
    auto len_of = [&] (int64_t r)
    {
        const int64_t len = Rm.p [r + 1] - Rm.p [r] ;
        return lrow > 0 && len > lrow ? (int64_t) 0 : len ;
    } ;
    Sp.resize ((size_t) Rm.nrows) ;
    for (int64_t i = 0 ; i < Rm.nrows ; i++) Sp [i] = (int32_t) i ;
    if (sorted)
        std::stable_sort (Sp.begin (), Sp.end (), [&] (int32_t a, int32_t b) { return len_of (a) > len_of (b) ; }) ;
    auto row_of = [&] (int64_t i) { return i < Rm.nrows ? (int64_t) Sp [i] : (int64_t) -1 ; } ;
    So.assign (1, 0) ;
    for (int64_t sl = 0 ; sl < nslices ; sl++)
    {
        int64_t w = 0 ;
        for (int64_t i = sl * S ; i < sl * S + S ; i++) if (row_of (i) >= 0) w = std::max (w, len_of (row_of (i))) ;
        So.push_back (So.back () + w * S) ;
    }
    Sj.assign ((size_t) So.back (), (RI) ~(RI) 0) ;
    Sx = values<Z> ((size_t) So.back ()) ;
    for (int64_t i = 0 ; i < Rm.nrows ; i++)
    {
        const int64_t sl = i / S, r = row_of (i) ;
        for (int64_t j = 0 ; j < len_of (r) ; j++)
        {
            const int64_t q = So [sl] + j * S + i % S ;
            Sj [q] = (RI) Rm.j [Rm.p [r] + j] ;
            Sx [q] = Rx [Rm.p [r] + j] ;
        }
    }
}

// the SpMV variants on u full and no mask; compare checks T
template <class SR, bool VXM, class RI, bool NAT, class CMP>
static int run_spmv (const char *name, const csr &Rm, const std::vector<RI> &Rp,
    const std::vector<RI> &Rj, const values<typename SR::Z> &Rx, const values<typename SR::Z> &U,
    bool positional, CMP compare)
{
    typedef typename SR::Z Z ;
    const int64_t m = Rm.nrows ;
    int cases = 0 ;
    char what [160] ;
    // the split's kernel after the base kernel: the long rows (longer than
    // lrow > 0) in segments of 3 entries, a warp each
    auto run_long = [&] (int64_t lrow, values<Z> &Tx, std::vector<int8_t> &Tb)
    {
        std::vector<int64_t> Lr, Ls ;
        const int64_t seg = 3 ;
        const int64_t nseg = lrow > 0 ? long_rows (Rm, lrow, seg, Lr, Ls) : 0 ;
        std::vector<int64_t> Sg ;      // the plan's triples (long_segs_k)
        for (size_t j = 0 ; j < Lr.size () ; j++)
            for (int64_t w = Ls [j], p = (int64_t) Rp [Lr [j]] ; w < Ls [j + 1] ; w++, p += seg)
                Sg.insert (Sg.end (), { Lr [j], p, std::min<int64_t> (p + seg, (int64_t) Rp [Lr [j] + 1]) }) ;
        std::vector<int32_t> locks (m + 1) ;
        gridDim.x = (unsigned) ((nseg * 32 + GCU_MXV_THREADS - 1) / GCU_MXV_THREADS) ;
        for (unsigned b = 0 ; b < gridDim.x ; b++)
            gcu_emu_block (b, GCU_MXV_THREADS, [&]
            {
                gcu_mxv_long<SR, RI, VXM, NAT> (nseg, Sg.data (), Rj.data (), Rx.data (),
                    U.data (), Tx.data (), Tb.data (), locks.data ()) ;
            }) ;
    } ;
    // (kernel 0 vector, 1 stream; G or R; C)
    const int shapes [][3] = { { 0, 1, 0 }, { 0, 4, 0 }, { 0, 32, 0 }, { 1, 4, 2048 },
        { 1, 64, 2048 }, { 1, 64, 40 }, { 1, 256, 16 } } ;
    for (const auto &sh : shapes)
    {
        // the staged products of stream see row 0: never run for positional multipliers
        if (sh [0] == 1 && positional) continue ;
        for (int64_t lrow : { (int64_t) 0, (int64_t) 6 })
        {
            std::vector<int8_t> Tb (m, 7) ;
            values<Z> Tx ((size_t) m) ;
            const int per = sh [0] == 0 ? GCU_MXV_THREADS / sh [1] : sh [1] ;
            gridDim.x = (unsigned) ((m + per - 1) / per) ;
            for (unsigned b = 0 ; b < gridDim.x ; b++)
                gcu_emu_block (b, GCU_MXV_THREADS, [&]
                {
                    if (sh [0] == 0)
                        gcu_mxv_vector<SR, RI, VXM> (m, Rp.data (), Rj.data (), Rx.data (), U.data (),
                            Tx.data (), Tb.data (), sh [1], lrow) ;
                    else
                        gcu_mxv_stream<SR, RI, VXM> (m, Rp.data (), Rj.data (), Rx.data (), U.data (),
                            Tx.data (), Tb.data (), sh [1], sh [2], lrow) ;
                }) ;
            run_long (lrow, Tx, Tb) ;
            snprintf (what, sizeof (what), "%s %s spmv %s %s=%d C=%d%s", name, VXM ? "vxm" : "mxv",
                sh [0] == 0 ? "vector" : "stream", sh [0] == 0 ? "G" : "R", sh [1], sh [2],
                lrow > 0 ? " split" : "") ;
            compare (Tb, Tx, what) ;
            cases++ ;
        }
    }
    // adaptive: blocks of runs of K entries, staged in tiles of C products
    // (the smaller ones overflow: blocks that read R directly)
    for (int64_t K : { (int64_t) 5, (int64_t) 64 })
        for (int C : { 2048, 12 })
        for (int wrow : { 32, 2 })
            for (int64_t lrow : { (int64_t) 0, (int64_t) 6 })
            {
                if (positional) continue ;      // (staged products, as stream)
                const std::vector<int64_t> Bs = adaptive_blocks (Rm, K, lrow) ;
                std::vector<int8_t> Tb (m, 7) ;
                values<Z> Tx ((size_t) m) ;
                gridDim.x = (unsigned) (Bs.size () - 1) ;
                for (unsigned b = 0 ; b < gridDim.x ; b++)
                    gcu_emu_block (b, GCU_MXV_THREADS, [&]
                    {
                        gcu_mxv_adaptive<SR, RI, VXM> (Bs.data (), Rp.data (), Rj.data (), Rx.data (),
                            U.data (), Tx.data (), Tb.data (), C, lrow, wrow) ;
                    }) ;
                run_long (lrow, Tx, Tb) ;
                snprintf (what, sizeof (what), "%s %s spmv adaptive K=%lld (%zu blocks) C=%d wrow=%d%s",
                    name, VXM ? "vxm" : "mxv", (long long) K, Bs.size () - 1, C, wrow,
                    lrow > 0 ? " split" : "") ;
                compare (Tb, Tx, what) ;
                cases++ ;
            }
    // sell and sellsort: a thread a row over the slices (positions kept:
    // every multiplier)
    for (int sorted = 0 ; sorted <= 1 ; sorted++)
    for (int64_t lrow : { (int64_t) 0, (int64_t) 6 })
    {
        std::vector<int64_t> So ;
        std::vector<int32_t> Sp ;
        std::vector<RI> Sj ;
        values<Z> Sx ((size_t) 0) ;
        sell_slices<RI, Z> (Rm, Rx, lrow, sorted, So, Sp, Sj, Sx) ;
        std::vector<int8_t> Tb (m, 7) ;
        values<Z> Tx ((size_t) m) ;
        gridDim.x = (unsigned) ((m + GCU_MXV_THREADS - 1) / GCU_MXV_THREADS) ;
        for (unsigned b = 0 ; b < gridDim.x ; b++)
            gcu_emu_block (b, GCU_MXV_THREADS, [&]
            {
                gcu_mxv_sell<SR, RI, VXM, NAT> (m, So.data (), sorted ? Sp.data () : nullptr, Sj.data (),
                    Sx.data (), U.data (), Tx.data (), Tb.data ()) ;
            }) ;
        run_long (lrow, Tx, Tb) ;
        snprintf (what, sizeof (what), "%s %s spmv %s (%lld entries for %lld)%s%s", name,
            VXM ? "vxm" : "mxv", sorted ? "sellsort" : "sell", (long long) So.back (),
            (long long) Rm.nvals (), lrow > 0 ? " split" : "", NAT ? " native" : "") ;
        compare (Tb, Tx, what) ;
        cases++ ;
    }
    return cases ;
}

template <class SR, bool VXM, class RI>
static int run_semiring (const char *name, const csr &Rm, std::mt19937_64 &rng,
    bool positional = false)
{
    typedef typename SR::Z Z ;
    const int64_t m = Rm.nrows, n = Rm.ncols ;
    // R's values, u (dense, present where ub), the mask (allow)
    values<Z> Rx ((size_t) Rm.nvals ()), U ((size_t) n) ;
    for (int64_t p = 0 ; p < Rm.nvals () ; p++) Rx [p] = small_value<Z> (rng) ;
    for (int64_t k = 0 ; k < n ; k++) U [k] = small_value<Z> (rng) ;
    std::vector<int8_t> ub (n), allow (m) ;
    for (int64_t k = 0 ; k < n ; k++) ub [k] = rng () % 3 != 0 ;
    // a tiny u (20 entries: push's split kernel scans them itself)
    std::vector<int8_t> tb (n, 0) ;
    for (int t = 0 ; t < 20 ; t++) tb [rng () % n] = 1 ;
    for (int64_t i = 0 ; i < m ; i++) allow [i] = rng () % 4 != 0 ;
    const std::vector<RI> Rp = gcu_emu_narrow<RI> (Rm.p), Rj = gcu_emu_narrow<RI> (Rm.j) ;
    // P = R' (push walks the rows of P, one for each entry of u)
    csr P ;
    P.nrows = n ; P.ncols = m ;
    P.p.assign (n + 1, 0) ;
    for (int64_t c : Rm.j) P.p [c + 1]++ ;
    for (int64_t k = 0 ; k < n ; k++) P.p [k + 1] += P.p [k] ;
    P.j.resize (Rm.nvals ()) ;
    values<Z> Px ((size_t) Rm.nvals ()) ;
    {
        std::vector<int64_t> next (P.p.begin (), P.p.end () - 1) ;
        for (int64_t i = 0 ; i < m ; i++)
            for (int64_t p = Rm.p [i] ; p < Rm.p [i + 1] ; p++)
            {
                const int64_t q = next [Rm.j [p]]++ ;
                P.j [q] = i ;
                Px [q] = Rx [p] ;
            }
    }
    const std::vector<RI> Pp = gcu_emu_narrow<RI> (P.p), Pj = gcu_emu_narrow<RI> (P.j) ;
    int cases = 0 ;
    char what [160] ;
    for (int sparse_u = 0 ; sparse_u <= 2 ; sparse_u++)
    {
        for (int masked = 0 ; masked <= 1 ; masked++)
        {
            // the reference: w (i) = add over present u (k) of R (i,k) * u (k)
            std::vector<int8_t> wb (m, 0) ;
            values<Z> wx ((size_t) m) ;
            for (int64_t i = 0 ; i < m ; i++)
            {
                if (masked && !allow [i]) continue ;
                for (int64_t p = Rm.p [i] ; p < Rm.p [i + 1] ; p++)
                {
                    const int64_t k = Rm.j [p] ;
                    if (sparse_u && !(sparse_u == 2 ? tb : ub) [k]) continue ;
                    const Z t = VXM ? SR::mult (U [k], Rx [p], 0, k, i) : SR::mult (Rx [p], U [k], i, k, 0) ;
                    wx [i] = wb [i] ? SR::add (wx [i], t) : t ;
                    wb [i] = 1 ;
                }
            }
            auto compare = [&] (const std::vector<int8_t> &Tb, const values<Z> &Tx, const char *w)
            {
                int64_t bad = -1 ;
                for (int64_t i = 0 ; i < m && bad < 0 ; i++)
                {
                    if ((Tb [i] != 0) != (wb [i] != 0) || (wb [i] && !same_value (Tx [i], wx [i]))) bad = i ;
                }
                CHECK (bad < 0, "%s: w (%lld) differs from the reference: present %d, expected %d",
                    w, (long long) bad, bad < 0 ? 0 : (int) Tb [bad], bad < 0 ? 0 : (int) wb [bad]) ;
            } ;
            const int8_t *mask = masked ? allow.data () : nullptr ;
            if (!sparse_u && !masked)
            {
                cases += run_spmv<SR, VXM, RI, false> (name, Rm, Rp, Rj, Rx, U, positional, compare) ;
                // sell's and long's native sums (PLUS_TIMES on one floating type)
                if constexpr (std::is_same<SR, PLUS_TIMES_FP64>::value)
                    cases += run_spmv<SR, VXM, RI, true> (name, Rm, Rp, Rj, Rx, U, positional, compare) ;
            }
            // pull, every group size, each thread stopping on its own and the
            // group as one; 3 blocks of 256: a grid-stride loop
            for (int G = 1 ; G <= 32 ; G *= 2) for (int gx = 0 ; gx < 2 ; gx++)
            {
                std::vector<int8_t> Tb (m, 7) ;
                values<Z> Tx ((size_t) m) ;
                gridDim.x = 3 ;
                for (unsigned b = 0 ; b < gridDim.x ; b++)
                {
                    gcu_emu_block (b, GCU_MXV_THREADS, [&]
                    {
                        gcu_mxv_pull<SR, RI, VXM> (m, Rp.data (), Rj.data (), Rx.data (),
                            sparse_u ? (sparse_u == 2 ? tb : ub).data () : nullptr, U.data (), mask,
                            Tx.data (), Tb.data (), G, gx != 0) ;
                    }) ;
                }
                snprintf (what, sizeof (what), "%s %s pull G=%d%s%s%s", name, VXM ? "vxm" : "mxv", G,
                    sparse_u == 2 ? ", tiny u" : sparse_u ? ", sparse u" : "", masked ? ", masked" : "",
                    gx ? ", group exit" : "") ;
                compare (Tb, Tx, what) ;
                cases++ ;
            }
            // push, over the entries of u (all of them when u is full); with
            // the split, the rows of P longer than lrow: none of them, about
            // half (the median row), nearly all
            std::vector<int64_t> plen ;
            for (int64_t k = 0 ; k < n ; k++) plen.push_back (P.p [k + 1] - P.p [k]) ;
            std::sort (plen.begin (), plen.end ()) ;
            const int64_t lrows [] = { 0, plen.back () + 1, plen [plen.size () / 2], 1 } ;
            for (int G = 1 ; G <= 32 ; G *= 8)
            for (int64_t lrow : lrows)
            {
                std::vector<int64_t> Ui ;
                values<Z> Us ((size_t) n) ;
                for (int64_t k = 0 ; k < n ; k++)
                {
                    if (sparse_u && !(sparse_u == 2 ? tb : ub) [k]) continue ;
                    Us [Ui.size ()] = U [k] ;
                    Ui.push_back (k) ;
                }
                std::vector<int8_t> Tb (m) ;
                std::vector<int32_t> locks (m + 1) ;
                values<Z> Tx ((size_t) m) ;
                gridDim.x = 2 ;
                for (unsigned b = 0 ; b < gridDim.x ; b++)
                {
                    gcu_emu_block (b, GCU_MXV_THREADS, [&]
                    {
                        gcu_mxv_init<SR> (m, Tx.data (), Tb.data (), locks.data ()) ;
                    }) ;
                }
                for (unsigned b = 0 ; b < gridDim.x ; b++)
                {
                    gcu_emu_block (b, GCU_MXV_THREADS, [&]
                    {
                        gcu_mxv_push<SR, RI, VXM> ((int64_t) Ui.size (), Ui.data (), Us.data (),
                            Pp.data (), Pj.data (), Px.data (), mask, Tx.data (), Tb.data (),
                            locks.data (), G, lrow) ;
                    }) ;
                }
                const int64_t seg = 5 ;
                int64_t nseg = 0 ;
                if (lrow > 0)
                {
                    // 2 blocks of 8 warps: fewer warps than segments; a u of
                    // a warp's entries or fewer scanned by the kernel itself
                    const std::vector<int64_t> Sc = push_scan (P, Ui, lrow, seg) ;
                    nseg = Sc.empty () ? 0 : Sc.back () ;
                    const bool own = Ui.size () <= GCU_MXV_PUSH_WARP_SCAN ;
                    for (unsigned b = 0 ; b < gridDim.x ; b++)
                    {
                        gcu_emu_block (b, GCU_MXV_THREADS, [&]
                        {
                            gcu_mxv_push_long<SR, RI, VXM> ((int64_t) Ui.size (), own ? nullptr : Sc.data (), lrow, seg,
                                Ui.data (), Us.data (), Pp.data (), Pj.data (), Px.data (), mask,
                                Tx.data (), Tb.data (), locks.data ()) ;
                        }) ;
                    }
                }
                char how [64] = "" ;
                if (lrow > 0) snprintf (how, sizeof (how), " split lrow=%lld (%lld segments)",
                    (long long) lrow, (long long) nseg) ;
                snprintf (what, sizeof (what), "%s %s push G=%d%s%s%s", name, VXM ? "vxm" : "mxv", G,
                    how, sparse_u == 2 ? ", tiny u" : sparse_u ? ", sparse u" : "", masked ? ", masked" : "") ;
                compare (Tb, Tx, what) ;
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
    // more rows than the 3 x 256 threads' groups: every group runs several
    const csr R1 = gcu_emu_random_csr (900, 300, rng, true, 80) ;
    const csr R2 = gcu_emu_random_csr (300, 2000, rng, false, 70) ;
    cases += run_semiring<PLUS_TIMES_FP64, false, uint32_t> ("PLUS_TIMES_FP64", R1, rng) ;
    cases += run_semiring<PLUS_TIMES_FP64, true, uint64_t> ("PLUS_TIMES_FP64", R2, rng) ;
    cases += run_semiring<MIN_PLUS_INT32_T, false, uint32_t> ("MIN_PLUS_INT32 (terminal)", R1, rng) ;
    cases += run_semiring<MAX_PLUS_FP32, true, uint32_t> ("MAX_PLUS_FP32", R1, rng) ;
    cases += run_semiring<MAX_TIMES_UINT16, false, uint64_t> ("MAX_TIMES_UINT16", R2, rng) ;
    cases += run_semiring<ANY_PAIR_BOOL, false, uint32_t> ("ANY_PAIR_BOOL", R1, rng) ;
    cases += run_semiring<ANY_PAIR_BOOL, true, uint32_t> ("ANY_PAIR_BOOL", R2, rng) ;
    cases += run_semiring<PLUS_TIMES_FC64, true, uint32_t> ("PLUS_TIMES_FC64", R1, rng) ;
    cases += run_semiring<PLUS_SECONDJ_INT64, false, uint32_t> ("PLUS_SECONDJ_INT64", R1, rng, true) ;
    cases += run_semiring<PLUS_SECONDJ_INT64, true, uint32_t> ("PLUS_SECONDJ_INT64", R2, rng, true) ;
    return gcu_emu_finish ("test_mxv_emu", cases) ;
}
