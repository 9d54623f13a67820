// test_spmm_emu.cpp — the SpMM kernels with dense operands
// (cuda/spmm/gcu_spmm.cuh), run whole on the CPU under the SIMT emulation
// (tests/common/gcu_simt_emu.h), against plain references:
//   - SpMM C = A*X: rows cut into segments (short segments: many rows of
//     several, their partial rows folded), X by row (vector loads of VEC
//     columns) or by column, iso X (strides 0); n from 1 to 64 columns, so
//     groups of 1 to 32 lanes; empty rows, a full row; the plan (rank,
//     segment and partial offsets) built here as src/spmm/plan.cu builds it;
//     CH chunks of columns a lane (register blocking); ASpT tiles
//     (src/spmm/aspt.c, small panels and tiles so that every shape has
//     heavy and light entries and rows left to the segments); whole rows
//     (gcu_spmm_rows: batches of a group's entries passed by shuffles, in
//     order or sorted by length, column slices, long rows left to the
//     segments), and the same with the next items' part of A prefetched
//     (one block of 64 lanes, so that a group takes many items) or summed
//     in native arithmetic (PLUS_TIMES),
// through the semirings of tests/common/gcu_emu_semirings.h (positional
// ones see (i, k, j)). On a GPU, tests/gpu/test_spmm_gpu.c checks the same
// kernels against SuiteSparse.
#include "gcu_simt_emu.h"

alignas (16) static unsigned char gcu_emu_dynamic_smem [64 * 1024] ;
#include "spmm/gcu_spmm.cuh"
#include "gcu_emu_test.h"
#include "gcu_emu_semirings.h"
#include "spmm/aspt.c"

// the plan of src/spmm/plan.cu, on the host
struct plan
{
    std::vector<int64_t> rank, segoff, heavyoff, segrow ;
} ;

static plan make_plan (const csr &A, int seg, int64_t minlen = 0)
{
    plan P ;
    const int64_t m = A.nrows ;
    P.rank.assign (m + 1, 0) ; P.segoff.assign (m + 1, 0) ; P.heavyoff.assign (m + 1, 0) ;
    for (int64_t i = 0 ; i < m ; i++)
    {
        const int64_t len = A.p [i + 1] - A.p [i], ns = len > minlen ? (len + seg - 1) / seg : 0 ;
        P.rank [i + 1] = P.rank [i] + (len > 0) ;
        P.segoff [i + 1] = P.segoff [i] + ns ;
        P.heavyoff [i + 1] = P.heavyoff [i] + (ns > 1 ? ns : 0) ;
        for (int64_t t = 0 ; t < ns ; t++) P.segrow.push_back (i) ;
    }
    return P ;
}

static int64_t tiles_seen ;     // tiles the tiled cases ran through

// the arguments every SpMM case sets: A, X, the plan, W and C
template <class V>
static gcu_spmm_args base_args (int64_t m, int64_t n, int seg, const std::vector<uint32_t> &Ap,
    const std::vector<uint32_t> &Aj, const V &Ax, const V &X, int64_t xrs, int64_t xcs,
    const plan &P, V &Wx, V &C)
{
    gcu_spmm_args a ;
    memset (&a, 0, sizeof (a)) ;
    a.m = m ; a.n = n ; a.seg = seg ;
    a.Ap = Ap.data () ; a.Aj = Aj.data () ; a.Ax = Ax.data () ;
    a.X = X.data () ; a.xrs = xrs ; a.xcs = xcs ;
    a.rank = P.rank.data () ; a.segoff = P.segoff.data () ;
    a.heavyoff = P.heavyoff.data () ; a.segrow = P.segrow.data () ;
    a.nseg = P.segoff [m] ; a.W = Wx.data () ; a.Cx = C.data () ;
    return a ;
}

// the first row of C (row rank [i] of Cx, n wide) that differs from the
// plain reference A*X, or -1
template <class SR, class V>
static int64_t spmm_bad_row (const csr &A, const V &Ax, const V &X, int64_t xrs, int64_t xcs,
    int64_t n, const std::vector<int64_t> &rank, const V &C)
{
    typedef typename SR::Z Z ;
    for (int64_t i = 0 ; i < A.nrows ; i++)
    {
        if (A.p [i] == A.p [i + 1]) continue ;
        for (int64_t j = 0 ; j < n ; j++)
        {
            Z z = Z () ;
            for (int64_t p = A.p [i] ; p < A.p [i + 1] ; p++)
            {
                const int64_t k = A.j [p] ;
                const Z t = SR::mult (Ax [p], X [k * xrs + j * xcs], i, k, j) ;
                z = p == A.p [i] ? t : SR::add (z, t) ;
            }
            if (!same_value (z, C [rank [i] * n + j])) return i ;
        }
    }
    return -1 ;
}

// kind 0: segments, 1: fold, 2: ASpT tiles
template <class SR, int VEC, int CH>
static void launch_spmm (gcu_spmm_args &a, int kind)
{
    gridDim.x = 3 ;
    // the fold: every other time the rows of more than 2 segments a block
    // each (the block's groups fold ranges of partial rows, then one adds
    // their sums in order), else a group a row
    static int fold = 0 ;
    a.fold_big = kind == 1 && (fold++ & 1) != 0 ? 2 : 0 ;
    for (unsigned b = 0 ; b < gridDim.x ; b++)
        gcu_emu_block (b, GCU_SPMM_THREADS, [&]
        {
            if (kind == 1) gcu_spmm_fold<SR, uint32_t, VEC> (a) ;
            else if (kind == 2) gcu_spmm_tiled<SR, uint32_t, VEC> (a) ;
            else gcu_spmm_segments<SR, uint32_t, VEC, CH> (a) ;
        }) ;
}

// C = A*X for X kdim-by-n (by_col: column-major; iso: one value); CH
// chunks a lane; tiled: ASpT tiles (panels of 8 rows, tiles of at most 4
// columns of at least 2 entries, rows over 40 entries through segments)
template <class SR, int VEC, int CH = 1>
static int spmm_case (const char *name, const csr &A, int64_t n, int seg, bool by_col,
    bool iso, std::mt19937_64 &rng, bool tiled = false)
{
    typedef typename SR::Z Z ;
    const int64_t m = A.nrows, kd = A.ncols ;
    values<Z> Ax ((size_t) A.nvals ()), X ((size_t) (kd * n)), W (1), C ((size_t) (m * n + 1)) ;
    for (int64_t p = 0 ; p < A.nvals () ; p++) Ax [p] = small_value<Z> (rng) ;
    for (int64_t q = 0 ; q < kd * n ; q++) X [q] = small_value<Z> (rng) ;
    const int64_t xrs = iso ? 0 : by_col ? 1 : n, xcs = iso ? 0 : by_col ? kd : 1 ;
    const int64_t lmax = 40 ;
    const plan P = make_plan (A, seg, tiled ? lmax : 0) ;
    values<Z> Wx ((size_t) (P.heavyoff [m] * n + 1)) ;
    const std::vector<uint32_t> Ap = gcu_emu_narrow<uint32_t> (A.p), Aj = gcu_emu_narrow<uint32_t> (A.j) ;
    gcu_aspt T ;
    memset (&T, 0, sizeof (T)) ;
    values<Z> Rx ((size_t) A.nvals () + 1) ;
    gcu_spmm_args a = base_args (m, n, seg, Ap, Aj, Ax, X, xrs, xcs, P, Wx, C) ;
    if (tiled)
    {
        CHECK (gcu_aspt_build (A.p.data (), A.j.data (), true, m, kd, 8, 4, 2, lmax, false, &T) == 0,
            "aspt build") ;
        for (int64_t q = 0 ; q < A.nvals () ; q++) Rx [q] = Ax [T.Rq [q]] ;
        a.G = gcu_spmm_group (n, VEC, GCU_SPMM_GROUP_MAX) ;
        const int64_t cw = (int64_t) a.G * VEC ;
        a.nslices = (int) ((n + cw - 1) / cw) ;
        a.P = 8 ; a.lmax = lmax ; a.npanel = T.npanel ;
        a.Rj = T.Rj ; a.Rx = Rx.data () ; a.tcols = T.tcols ; a.rtb = T.rtb ;
        a.ptile = T.ptile ; a.tcol = T.tcol ;
        launch_spmm<SR, VEC, CH> (a, 2) ;
        tiles_seen += T.ntile ;
    }
    a.G = gcu_spmm_group ((n + CH - 1) / CH, VEC, GCU_SPMM_GROUP_MAX) ;
    launch_spmm<SR, VEC, CH> (a, 0) ;
    launch_spmm<SR, VEC, CH> (a, 1) ;
    gcu_aspt_free (&T) ;
    const int64_t bad = spmm_bad_row<SR> (A, Ax, X, xrs, xcs, n, P.rank, C) ;
    CHECK (bad < 0, "%s spmm n=%lld VEC=%d CH=%d G=%d seg=%d%s%s%s: row %lld differs", name,
        (long long) n, VEC, CH, a.G, seg, by_col ? " by column" : "", iso ? " iso" : "",
        tiled ? " tiled" : "", (long long) bad) ;
    return 1 ;
}

// C = A*X by whole rows (gcu_spmm_rows): rows of at most rmax entries a
// group each (in order, or sorted by length as plan.cu sorts them), the
// longer ones through segments of seg and the fold; U loads in flight; the
// columns in slices of about `slice` (0: none), slice-major; PIPE: the
// next items' part of A prefetched (in one block of 64 lanes: many items a
// group); NAT: sums in native arithmetic (PLUS_TIMES on a floating type);
// HUB: A's indices with random cache classes in their two top bits (as
// src/spmm/hub.cu writes them), which the kernel must mask off
template <class SR, int VEC, int CH, int U, bool PIPE = false, bool NAT = false, bool HUB = false>
static int rows_case (const char *name, const csr &A, int64_t n, int64_t rmax, int seg,
    bool sort, int64_t slice, bool by_col, bool iso, std::mt19937_64 &rng)
{
    typedef typename SR::Z Z ;
    const int64_t m = A.nrows, kd = A.ncols ;
    values<Z> Ax ((size_t) A.nvals ()), X ((size_t) (kd * n)), C ((size_t) (m * n + 1)) ;
    for (int64_t p = 0 ; p < A.nvals () ; p++) Ax [p] = small_value<Z> (rng) ;
    for (int64_t q = 0 ; q < kd * n ; q++) X [q] = small_value<Z> (rng) ;
    const int64_t xrs = iso ? 0 : by_col ? 1 : n, xcs = iso ? 0 : by_col ? kd : 1 ;
    const plan P = make_plan (A, seg, rmax) ;
    values<Z> Wx ((size_t) (P.heavyoff [m] * n + 1)) ;
    // the order: rows of 1 to rmax entries, longest first, stable
    std::vector<int64_t> ord ;
    for (int64_t i = 0 ; i < m ; i++)
    {
        const int64_t len = A.p [i + 1] - A.p [i] ;
        if (len > 0 && len <= rmax) ord.push_back (i) ;
    }
    std::stable_sort (ord.begin (), ord.end (), [&] (int64_t x, int64_t y)
        { return A.p [x + 1] - A.p [x] > A.p [y + 1] - A.p [y] ; }) ;
    const std::vector<uint32_t> Ap = gcu_emu_narrow<uint32_t> (A.p), Aj = gcu_emu_narrow<uint32_t> (A.j) ;
    gcu_spmm_args a = base_args (m, n, seg, Ap, Aj, Ax, X, xrs, xcs, P, Wx, C) ;
    std::vector<uint32_t> Ajc (Aj) ;
    const int cls [3] = { GCU_SPMM_CLS_WARM, GCU_SPMM_CLS_COLD, GCU_SPMM_CLS_HOT } ;
    for (uint32_t &j : Ajc) j |= (uint32_t) cls [rng () % 3] << 30 ;
    if (HUB) a.Aj = Ajc.data () ;
    // as spmm.c launches the row kernel: slice after slice, the items (the
    // long rows' segments, then the rows) here in two launches of a slice
    const int64_t want = slice > 0 && slice < n ? slice : n ;
    a.G = gcu_spmm_group ((want + CH - 1) / CH, VEC, GCU_SPMM_GROUP_MAX) ;
    a.sw = (int64_t) a.G * VEC * CH ;
    // as plan.cu packs them: i + (len << 32), the first entry
    std::vector<int64_t> ordp ;
    for (int64_t i : ord)
    {
        ordp.push_back (i + ((A.p [i + 1] - A.p [i]) << 32)) ;
        ordp.push_back (A.p [i]) ;
    }
    a.ord = sort ? ordp.data () : nullptr ;
    a.nord = sort ? (int64_t) ord.size () : m ;
    a.rmax = rmax ;
    const int64_t nitem = a.nseg + a.nord, half = nitem / 2 + 1 ;
    gridDim.x = PIPE ? 1 : 3 ;
    for (int64_t sl = 0 ; sl * a.sw < n ; sl++)
        for (int64_t r0 = 0 ; r0 < nitem ; r0 += half)
        {
            a.sl0 = sl ; a.r0 = r0 ; a.cnt = nitem - r0 < half ? nitem - r0 : half ;
            for (unsigned b = 0 ; b < gridDim.x ; b++)
                gcu_emu_block (b, PIPE ? 64 : GCU_SPMM_THREADS, [&]
                {
                    gcu_spmm_rows<SR, uint32_t, VEC, CH, U, true, PIPE, NAT, HUB> (a) ;
                }) ;
        }
    a.G = gcu_spmm_group ((n + CH - 1) / CH, VEC, GCU_SPMM_GROUP_MAX) ;
    launch_spmm<SR, VEC, CH> (a, 1) ;
    const int64_t bad = spmm_bad_row<SR> (A, Ax, X, xrs, xcs, n, P.rank, C) ;
    CHECK (bad < 0, "%s rows%s%s%s n=%lld VEC=%d CH=%d U=%d rmax=%lld seg=%d%s slice=%lld%s%s: row %lld "
        "differs", name, PIPE ? " prefetched" : "", NAT ? " native" : "", HUB ? " classes" : "", (long long) n, VEC, CH, U, (long long) rmax, seg,
        sort ? " sorted" : "", (long long) slice, by_col ? " by column" : "", iso ? " iso" : "",
        (long long) bad) ;
    return 1 ;
}

// every column count and layout for one semiring; VEC 4 only where n allows
template <class SR>
static int run_semiring (const char *name, const csr &A, std::mt19937_64 &rng)
{
    int cases = 0 ;
    const int64_t ns [] = { 1, 3, 8, 32, 33, 64 } ;
    for (int64_t n : ns)
    {
        for (int seg : { 5, GCU_SPMM_SEG })
        {
            cases += spmm_case<SR, 1> (name, A, n, seg, false, false, rng) ;
            cases += spmm_case<SR, 1> (name, A, n, seg, true, false, rng) ;
            if (n % 2 == 0 && sizeof (typename SR::Z) <= 8)
                cases += spmm_case<SR, 2> (name, A, n, seg, false, false, rng) ;
            if (n % 4 == 0 && sizeof (typename SR::Z) <= 4)
                cases += spmm_case<SR, 4> (name, A, n, seg, false, false, rng) ;
            // register blocking: 2 and 4 chunks a lane (n not always a
            // multiple: a lane's last chunks past n)
            cases += spmm_case<SR, 1, 2> (name, A, n, seg, false, false, rng) ;
            cases += spmm_case<SR, 1, 4> (name, A, n, seg, true, false, rng) ;
            if (n % 4 == 0 && sizeof (typename SR::Z) <= 4)
                cases += spmm_case<SR, 4, 2> (name, A, n, seg, false, false, rng) ;
            // ASpT: tiles, light rows, long rows through segments
            cases += spmm_case<SR, 1> (name, A, n, seg, false, false, rng, true) ;
            cases += spmm_case<SR, 1> (name, A, n, seg, true, false, rng, true) ;
            if (n % 2 == 0 && sizeof (typename SR::Z) <= 8)
                cases += spmm_case<SR, 2> (name, A, n, seg, false, false, rng, true) ;
            if (n % 4 == 0 && sizeof (typename SR::Z) <= 4)
                cases += spmm_case<SR, 4> (name, A, n, seg, false, false, rng, true) ;
        }
        cases += spmm_case<SR, 1> (name, A, n, 7, false, true, rng) ;
        cases += spmm_case<SR, 1> (name, A, n, 7, false, true, rng, true) ;
        // whole rows: rows longer than rmax through segments (of 5: several
        // partial rows), sorted or not, 2 to 8 loads in flight (batches of
        // G entries with tails), CH chunks, column slices, X by column or iso
        for (int sort = 0 ; sort <= 1 ; sort++)
        {
            cases += rows_case<SR, 1, 1, 4> (name, A, n, 12, 5, sort, 0, false, false, rng) ;
            cases += rows_case<SR, 1, 1, 8> (name, A, n, 40, GCU_SPMM_SEG, sort, 0, true, false, rng) ;
            cases += rows_case<SR, 1, 2, 2> (name, A, n, 3, 5, sort, 0, false, false, rng) ;
            cases += rows_case<SR, 1, 1, 4> (name, A, n, 1000, 5, sort, 8, false, false, rng) ;
            // the cache classes' bits in A's indices (hub.cu), long rows in segments
            cases += rows_case<SR, 1, 1, 4, false, false, true> (name, A, n, 12, 5, sort, 0, false, false, rng) ;
            if (n % 4 == 0 && sizeof (typename SR::Z) <= 4)
                cases += rows_case<SR, 4, 1, 4, false, false, true> (name, A, n, 40, 5, sort, 0, false, false, rng) ;
            cases += rows_case<SR, 1, 1, 4> (name, A, n, 20, 7, sort, 0, false, true, rng) ;
            if (n % 2 == 0 && sizeof (typename SR::Z) <= 8)
                cases += rows_case<SR, 2, 1, 8> (name, A, n, 12, 5, sort, 0, false, false, rng) ;
            if (n % 4 == 0 && sizeof (typename SR::Z) <= 4)
            {
                cases += rows_case<SR, 4, 1, 4> (name, A, n, 12, 5, sort, 0, false, false, rng) ;
                cases += rows_case<SR, 4, 2, 8> (name, A, n, 40, 5, sort, 16, false, false, rng) ;
            }
            // the next items' part of A prefetched: the same shapes (rows of
            // several batches, long rows' segments, slices, iso, X by column)
            cases += rows_case<SR, 1, 1, 4, true> (name, A, n, 12, 5, sort, 0, false, false, rng) ;
            cases += rows_case<SR, 1, 1, 8, true> (name, A, n, 40, GCU_SPMM_SEG, sort, 0, true, false, rng) ;
            cases += rows_case<SR, 1, 2, 2, true> (name, A, n, 3, 5, sort, 0, false, false, rng) ;
            cases += rows_case<SR, 1, 1, 4, true> (name, A, n, 1000, 5, sort, 8, false, false, rng) ;
            cases += rows_case<SR, 1, 1, 4, true> (name, A, n, 20, 7, sort, 0, false, true, rng) ;
            if (n % 4 == 0 && sizeof (typename SR::Z) <= 4)
                cases += rows_case<SR, 4, 2, 8, true> (name, A, n, 40, 5, sort, 16, false, false, rng) ;
            // native sums (the host picks them for PLUS_TIMES on one floating type)
            if constexpr (std::is_same<SR, PLUS_TIMES_FP64>::value)
            {
                cases += rows_case<SR, 1, 1, 4, false, true> (name, A, n, 12, 5, sort, 0, false, false, rng) ;
                cases += rows_case<SR, 1, 2, 8, true, true> (name, A, n, 40, 5, sort, 16, true, false, rng) ;
                if (n % 2 == 0)
                    cases += rows_case<SR, 2, 1, 4, false, true> (name, A, n, 20, 7, sort, 0, false, false, rng) ;
            }
        }
    }
    return cases ;
}

int main ()
{
    std::mt19937_64 rng (20261126) ;
    int cases = 0 ;
    // structured rows: empty ones, dense runs, now and then a full row
    const csr A = gcu_emu_random_csr (120, 90, rng, true, 30) ;
    cases += run_semiring<PLUS_TIMES_FP64> ("PLUS_TIMES_FP64", A, rng) ;
    cases += run_semiring<MIN_PLUS_INT32> ("MIN_PLUS_INT32", A, rng) ;
    cases += run_semiring<MAX_PLUS_FP32> ("MAX_PLUS_FP32", A, rng) ;
    cases += run_semiring<MAX_TIMES_UINT16> ("MAX_TIMES_UINT16", A, rng) ;
    cases += run_semiring<PLUS_TIMES_FC64> ("PLUS_TIMES_FC64", A, rng) ;
    cases += run_semiring<PLUS_SECONDJ_INT64> ("PLUS_SECONDJ_INT64", A, rng) ;
    cases += run_semiring<TIMES_UNIT_FC64> ("TIMES_UNIT_FC64", A, rng) ;
    CHECK (tiles_seen > 0, "the tiled cases ran through no tile") ;
    return gcu_emu_finish ("test_spmm_emu", cases) ;
}
