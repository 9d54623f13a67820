// test_sddmm_emu.cpp — SDDMM's kernels (cuda/spmm/gcu_sddmm.cuh), by runs and by rows,
// C<M> = X*Y', run whole on the CPU under the SIMT emulation
// (tests/common/gcu_simt_emu.h) against a plain reference: batches of 1 to
// 32 entries reduce-scattered over sub-groups of 1 to 32 lanes (more
// entries than lanes, as many, fewer), 2, 4 or 8 entries' loads in flight,
// runs of one batch, of several (a last batch cut short) and longer than
// the grid needs (the grid-stride loop), runs crossing rows and empty rows,
// a row of every column, a mask of 3000 rows (the lanes' search for a
// run's first row); k from 1 to 64 (one term a lane, several chunks a
// lane), X and Y by row (vector loads) or by column, a valued mask; the
// semirings of tests/common/gcu_emu_semirings.h (16-byte values shuffled as
// four words, positional ones see (i, c, j)); the kernel by rows with batches
// shorter and longer than the rows, one block and two; NAT's native sums
// with NaNs in X, where the semiring's operators mark a NaN (a payload the
// native sums do not give), so that every batch holding one must have been
// summed again to match. On a GPU,
// tests/gpu/test_spmm_gpu.c checks the same kernel against SuiteSparse.
#include "gcu_simt_emu.h"

alignas (16) static unsigned char gcu_emu_dynamic_smem [64 * 1024] ;
#include "spmm/gcu_sddmm.cuh"
#include "gcu_emu_test.h"
#include "gcu_emu_semirings.h"

// C<M> = X*Y' (X m-by-k, Y ncols-by-k, rows or columns) by batches of B
// entries, U loads in flight, sub-groups of at most gmax lanes, runs of seg
// entries (a multiple of B) on a grid of nblocks blocks; ROWS: by rows
// (gcu_sddmm_rows, seg and U unused; none where B exceeds the lanes); NAT:
// native sums; nans entries of X made NaN (compared bit for bit)
template <class SR, int VEC, int B, int U, bool ROWS = false, bool NAT = false>
static int sddmm_case (const char *name, const csr &M, int64_t k, bool by_col, bool valued,
    std::mt19937_64 &rng, int gmax, int64_t seg, unsigned nblocks, int nans = 0)
{
    typedef typename SR::Z Z ;
    const int64_t m = M.nrows, nc = M.ncols ;
    values<Z> X ((size_t) (m * k)), Y ((size_t) (nc * k)), C ((size_t) M.nvals () + 1) ;
    std::vector<int8_t> Mx (M.nvals () + 1), Cb (M.nvals () + 1, 7) ;
    for (int64_t q = 0 ; q < m * k ; q++) X [q] = small_value<Z> (rng) ;
    for (int64_t q = 0 ; q < nc * k ; q++) Y [q] = small_value<Z> (rng) ;
    if constexpr (std::is_floating_point<Z>::value)
        for (int q = 0 ; q < nans ; q++) X [rng () % (m * k)] = std::numeric_limits<Z>::quiet_NaN () ;
    for (int64_t e = 0 ; e < M.nvals () ; e++) Mx [e] = rng () % 3 != 0 ;
    // op(A)(i,c) = X (i,c); op(B)(c,j) = Y (j,c)
    const int64_t xrs = by_col ? 1 : k, xcs = by_col ? m : 1 ;
    const int64_t yrs = by_col ? nc : 1, ycs = by_col ? 1 : k ;
    const std::vector<uint32_t> Mp = gcu_emu_narrow<uint32_t> (M.p), Mj = gcu_emu_narrow<uint32_t> (M.j) ;
    gcu_spmm_args a ;
    memset (&a, 0, sizeof (a)) ;
    a.m = m ; a.n = k ; a.seg = (int) seg ;
    a.G = gcu_spmm_group (k, VEC, gmax) ;
    if (ROWS && B > a.G) return 0 ;     // by rows: a batch's columns a lane each
    a.X = X.data () ; a.xrs = xrs ; a.xcs = xcs ;
    a.Y = Y.data () ; a.yrs = yrs ; a.ycs = ycs ;
    a.Mp = Mp.data () ; a.Mj = Mj.data () ; a.Mx = valued ? Mx.data () : nullptr ;
    a.mnvals = M.nvals () ; a.Cx = C.data () ; a.Cb = Cb.data () ;
    gridDim.x = nblocks ;
    for (unsigned b = 0 ; b < gridDim.x ; b++)
        gcu_emu_block (b, GCU_SPMM_THREADS, [&]
        {
            if (ROWS && valued) gcu_sddmm_rows<VALUED<SR>, uint32_t, VEC, B, true, NAT> (a) ;
            else if (ROWS) gcu_sddmm_rows<SR, uint32_t, VEC, B, false, NAT> (a) ;
            else if (valued) gcu_sddmm_scatter<VALUED<SR>, uint32_t, VEC, B, U, NAT> (a) ;
            else gcu_sddmm_scatter<SR, uint32_t, VEC, B, U, NAT> (a) ;
        }) ;
    int64_t bad = -1 ;
    for (int64_t i = 0 ; i < m && bad < 0 ; i++)
        for (int64_t e = M.p [i] ; e < M.p [i + 1] && bad < 0 ; e++)
        {
            const bool keep = !valued || Mx [e] ;
            if ((Cb [e] != 0) != keep || Cb [e] == 7) { bad = e ; break ; }
            if (!keep) continue ;
            const int64_t j = M.j [e] ;
            Z z = Z () ;
            for (int64_t c = 0 ; c < k ; c++)
            {
                const Z t = SR::mult (X [i * xrs + c * xcs], Y [c * yrs + j * ycs], i, c, j) ;
                z = c == 0 ? t : SR::add (z, t) ;
            }
            // a NaN (NAT's cases) bit for bit
            bool nan = false ;
            if constexpr (std::is_floating_point<Z>::value) nan = z != z ;
            if (nan ? memcmp (&z, &C [e], sizeof (Z)) != 0 : !same_value (z, C [e])) bad = e ;
        }
    CHECK (bad < 0, "%s sddmm%s%s k=%lld VEC=%d B=%d U=%d G=%d seg=%lld blocks=%u%s%s: mask "
        "entry %lld differs", name, ROWS ? " by rows" : "", NAT ? " native" : "", (long long) k,
        VEC, B, U, a.G, (long long) seg, nblocks, by_col ? " by column" : "",
        valued ? " valued" : "", (long long) bad) ;
    return 1 ;
}

// one batch size: lanes up to a warp and fewer, runs of one batch, of
// several and one for everything, X and Y by row (VEC 4 where k allows) and
// by column
template <class SR, int B>
static int batch_cases (const char *name, const csr &M, int64_t k, bool valued,
    std::mt19937_64 &rng)
{
    int cases = 0 ;
    for (int gmax : { 32, 4 })
        for (int64_t seg : { (int64_t) B, (int64_t) 3 * B, (M.nvals () + B - 1) / B * B })
        {
            const unsigned nb = seg == B ? 1 : 2 ;   // one block: the grid-stride loop
            if (gmax == 32)
                cases += sddmm_case<SR, 1, B, 8> (name, M, k, true, valued, rng, gmax, seg, nb) ;
            else cases += sddmm_case<SR, 1, B, 2> (name, M, k, true, valued, rng, gmax, seg, nb) ;
            if (k % 4 == 0 && sizeof (typename SR::Z) <= 4)
                cases += sddmm_case<SR, 4, B, 4> (name, M, k, false, valued, rng, gmax, seg, nb) ;
            else cases += sddmm_case<SR, 1, B, 4> (name, M, k, false, valued, rng, gmax, seg, nb) ;
        }
    return cases ;
}

// the kernel by rows: batches of 1, 2 (rows longer than a batch), 8 and
// 32 (shorter), sub-groups of a warp, of 4 lanes and of 1, one block (the
// grid-stride loop over rows) and two
template <class SR>
static int rows_cases (const char *name, const csr &M, int64_t k, bool valued,
    std::mt19937_64 &rng)
{
    int cases = 0 ;
    for (int gmax : { 32, 4, 1 })
        for (unsigned nb : { 1u, 2u })
        {
            cases += sddmm_case<SR, 1, 1, 0, true> (name, M, k, true, valued, rng, gmax, 0, nb) ;
            cases += sddmm_case<SR, 1, 2, 0, true> (name, M, k, false, valued, rng, gmax, 0, nb) ;
            cases += sddmm_case<SR, 1, 32, 0, true> (name, M, k, true, valued, rng, gmax, 0, nb) ;
            if (k % 4 == 0 && sizeof (typename SR::Z) <= 4)
                cases += sddmm_case<SR, 4, 8, 0, true> (name, M, k, false, valued, rng, gmax, 0, nb) ;
            else cases += sddmm_case<SR, 1, 8, 0, true> (name, M, k, false, valued, rng, gmax, 0, nb) ;
        }
    return cases ;
}

// PLUS_TIMES_FP64 whose operators give every NaN one payload (as the
// device's give the host's NaN), which the GPU's own + and * do not
struct PLUS_TIMES_MARK : PLUS_TIMES_FP64
{
    static Z mark (Z r)
    {
        const uint64_t b = 0x7ff8000000000badull ;
        if (r == r) return r ;
        memcpy (&r, &b, 8) ;
        return r ;
    }
    static Z add (const Z &x, const Z &y) { return mark (x + y) ; }
    static Z mult (const X &x, const Y &y, int64_t, int64_t, int64_t) { return mark (x * y) ; }
} ;

// NAT: the runs and the rows with native sums, with NaNs in X (a batch
// summed again) and without, runs crossing rows (the walk restarted)
static int nat_cases (const csr &M, std::mt19937_64 &rng)
{
    int cases = 0 ;
    for (int nans : { 0, 3, 40 })
        for (int gmax : { 32, 4 })
            for (int64_t k : { 3, 32, 64 })
            {
                cases += sddmm_case<PLUS_TIMES_MARK, 1, 8, 4, false, true> ("nat", M, k, true,
                    nans == 3, rng, gmax, 24, 2, nans) ;
                cases += sddmm_case<PLUS_TIMES_MARK, 1, 4, 2, false, true> ("nat", M, k, false,
                    false, rng, gmax, 4, 1, nans) ;
                cases += sddmm_case<PLUS_TIMES_MARK, 1, 4, 0, true, true> ("nat", M, k, true,
                    nans == 3, rng, gmax, 0, 2, nans) ;
                cases += sddmm_case<PLUS_TIMES_MARK, 1, 1, 0, true, true> ("nat", M, k, false,
                    false, rng, gmax, 0, 1, nans) ;
            }
    return cases ;
}

template <class SR>
static int run_semiring (const char *name, const csr &M, std::mt19937_64 &rng)
{
    int cases = 0 ;
    const int64_t ks [] = { 1, 3, 8, 32, 33, 64 } ;
    for (int64_t k : ks)
        for (int valued = 0 ; valued <= 1 ; valued++)
        {
            cases += batch_cases<SR, 1> (name, M, k, valued, rng) ;
            cases += batch_cases<SR, 4> (name, M, k, valued, rng) ;
            cases += batch_cases<SR, 8> (name, M, k, valued, rng) ;
            if (sizeof (typename SR::Z) <= 8) cases += batch_cases<SR, 32> (name, M, k, valued, rng) ;
            cases += rows_cases<SR> (name, M, k, valued, rng) ;
        }
    return cases ;
}

int main ()
{
    std::mt19937_64 rng (20261126) ;
    int cases = 0 ;
    // structured rows: empty ones, dense runs, now and then a full row
    const csr M = gcu_emu_random_csr (70, 50, rng, true, 20) ;
    cases += run_semiring<PLUS_TIMES_FP64> ("PLUS_TIMES_FP64", M, rng) ;
    cases += run_semiring<MIN_PLUS_INT32> ("MIN_PLUS_INT32", M, rng) ;
    cases += run_semiring<MAX_PLUS_FP32> ("MAX_PLUS_FP32", M, rng) ;
    cases += run_semiring<MAX_TIMES_UINT16> ("MAX_TIMES_UINT16", M, rng) ;
    cases += run_semiring<PLUS_TIMES_FC64> ("PLUS_TIMES_FC64", M, rng) ;
    cases += run_semiring<PLUS_SECONDJ_INT64> ("PLUS_SECONDJ_INT64", M, rng) ;
    cases += run_semiring<TIMES_UNIT_FC64> ("TIMES_UNIT_FC64", M, rng) ;
    cases += nat_cases (M, rng) ;
    // many rows (the lanes' search of a run's first row takes several
    // steps), short runs over a grid of few blocks
    const csr T = gcu_emu_random_csr (3000, 400, rng, true, 6) ;
    for (int gmax : { 32, 8, 1 })
        for (int64_t seg : { 8, 24 })
        {
            cases += sddmm_case<PLUS_TIMES_FP64, 1, 8, 4> ("tall", T, 16, true, false, rng, gmax, seg, 2) ;
            cases += sddmm_case<PLUS_SECONDJ_INT64, 1, 8, 2> ("tall", T, 5, false, true, rng, gmax, seg, 3) ;
        }
    for (int gmax : { 32, 8 })
        cases += sddmm_case<PLUS_TIMES_FP64, 1, 8, 0, true> ("tall", T, 16, true, false, rng, gmax, 0, 2) ;
    return gcu_emu_finish ("test_sddmm_emu", cases) ;
}
