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
//     heavy and light entries and rows left to the segments),
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

// kind 0: segments, 1: fold, 2: ASpT tiles
template <class SR, int VEC, int CH>
static void launch_spmm (gcu_spmm_args &a, int kind)
{
    gridDim.x = 3 ;
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
    gcu_spmm_args a ;
    memset (&a, 0, sizeof (a)) ;
    a.m = m ; a.n = n ; a.seg = seg ;
    a.Ap = Ap.data () ; a.Aj = Aj.data () ; a.Ax = Ax.data () ;
    a.X = X.data () ; a.xrs = xrs ; a.xcs = xcs ;
    a.rank = P.rank.data () ; a.segoff = P.segoff.data () ;
    a.heavyoff = P.heavyoff.data () ; a.segrow = P.segrow.data () ;
    a.nseg = P.segoff [m] ; a.W = Wx.data () ; a.Cx = C.data () ;
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
    int64_t bad = -1 ;
    for (int64_t i = 0 ; i < m && bad < 0 ; i++)
    {
        if (A.p [i] == A.p [i + 1]) continue ;
        for (int64_t j = 0 ; j < n && bad < 0 ; j++)
        {
            Z z = Z () ;
            for (int64_t p = A.p [i] ; p < A.p [i + 1] ; p++)
            {
                const int64_t k = A.j [p] ;
                const Z t = SR::mult (Ax [p], X [k * xrs + j * xcs], i, k, j) ;
                z = p == A.p [i] ? t : SR::add (z, t) ;
            }
            if (!same_value (z, C [P.rank [i] * n + j])) bad = i ;
        }
    }
    CHECK (bad < 0, "%s spmm n=%lld VEC=%d CH=%d G=%d seg=%d%s%s%s: row %lld differs", name,
        (long long) n, VEC, CH, a.G, seg, by_col ? " by column" : "", iso ? " iso" : "",
        tiled ? " tiled" : "", (long long) bad) ;
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
    CHECK (tiles_seen > 0, "the tiled cases ran through no tile") ;
    return gcu_emu_finish ("test_spmm_emu", cases) ;
}
