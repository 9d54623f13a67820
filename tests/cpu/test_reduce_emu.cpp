// test_reduce_emu.cpp — the kernels of GrB_Matrix_reduce to a scalar
// (cuda/reduce/gcu_reduce.cuh), run whole on the CPU under the SIMT
// emulation (tests/common/gcu_simt_emu.h: a fiber a CUDA thread), against a
// plain left-to-right fold: partial (a grid-stride loop, the block's pairs
// combined in shared memory), then final (one block), for
//   - value counts around the block and grid sizes (0, 1, a block less one,
//     a block, a block more one, many blocks' worth) and block sizes 256
//     and 32, grids of 1 to more blocks than the final block has threads;
//   - casts on the way in (TA -> Z) and out (Z -> TC), including
//     saturation of floating point into integers;
//   - the accumulators' start that is not the monoid's identity (NaN for
//     MIN over floating point, -0 for PLUS) and ANY, whose add is not
//     neutral for its identity: a block or thread with no values must
//     contribute nothing; the empty reduction gives ID::value () cast;
//   - a terminal value (LAND: false) that stops threads early.
// The operators are the device's own (common/gcu_ops.cuh). On a GPU,
// tests/gpu/test_reduce_gpu.c checks the same kernels against SuiteSparse.
#include "gcu_simt_emu.h"

#include "reduce/gcu_reduce.cuh"            // the copy with shared memory made static
#include "gcu_emu_test.h"
#include "gcu_emu_semirings.h"             // values<Z>

#include <cmath>

#define SR_TYPES(TA_, Z_, TC_, ANY, TERM)                                       \
    typedef Z_ X ; typedef Z_ Y ; typedef Z_ Z ;                                \
    typedef TA_ TA ; typedef Z_ TB ; typedef TC_ TC ; typedef bool TM ;         \
    static const bool reads_x = true, reads_y = false ;                         \
    static const bool is_any = ANY, has_terminal = TERM ;                       \
    static const int add_kind = 0 ;                                             \
    static const bool a_iso = false, b_iso = false, m_valued = false, m_iso = false ; \
    static Z mult (const X &x, const Y &, int64_t, int64_t, int64_t) { return x ; }

// PLUS over int64, int32 values, double out
struct PLUS_I64
{
    SR_TYPES (int32_t, int64_t, double, false, false)
    static Z identity () { return 0 ; }
    static Z terminal () { return 0 ; }
    static Z add (const Z &x, const Z &y) { return gcu_plus (x, y) ; }
    struct ID { static Z value () { return 0 ; } } ;
} ;
// PLUS over double (start -0), float values, float out
struct PLUS_F64
{
    SR_TYPES (float, double, float, false, false)
    static Z identity () { return -0.0 ; }
    static Z terminal () { return 0 ; }
    static Z add (const Z &x, const Z &y) { return gcu_plus (x, y) ; }
    struct ID { static Z value () { return 0.0 ; } } ;
} ;
// MIN over double (start NaN), double values, int32 out (saturating)
struct MIN_F64
{
    SR_TYPES (double, double, int32_t, false, false)
    static Z identity () { return NAN ; }
    static Z terminal () { return NAN ; }
    static Z add (const Z &x, const Z &y) { return gcu_min (x, y) ; }
    struct ID { static Z value () { return INFINITY ; } } ;
} ;
// ANY over int32 (identity 0, add returns its second operand), uint8 out
struct ANY_I32
{
    SR_TYPES (int16_t, int32_t, uint8_t, true, false)
    static Z identity () { return 0 ; }
    static Z terminal () { return 0 ; }
    static Z add (const Z &x, const Z &y) { return gcu_any (x, y) ; }
    struct ID { static Z value () { return 0 ; } } ;
} ;
// LAND over bool, terminal false, int8 values, int16 out
struct LAND_BOOL
{
    SR_TYPES (int8_t, bool, int16_t, false, true)
    static Z identity () { return true ; }
    static Z terminal () { return false ; }
    static Z add (const Z &x, const Z &y) { return gcu_land (x, y) ; }
    struct ID { static Z value () { return true ; } } ;
} ;
// TIMES over uint8 (wraps), uint16 values, complex out
struct TIMES_U8
{
    SR_TYPES (uint16_t, uint8_t, gcu_fc64, false, true)
    static Z identity () { return 1 ; }
    static Z terminal () { return 0 ; }
    static Z add (const Z &x, const Z &y) { return gcu_times (x, y) ; }
    struct ID { static Z value () { return 1 ; } } ;
} ;

template <class T> static T value_of (std::mt19937_64 &rng, int kind)
{
    if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value)
    {
        // spread, with now and then NaN, infinities or a value beyond int32
        const uint64_t r = rng () % 64 ;
        if (kind == 1 && r == 0) return (T) NAN ;
        if (kind == 1 && r == 1) return (T) -INFINITY ;
        if (kind == 1 && r == 2) return (T) -1e12 ;
        return (T) ((double) (int64_t) (rng () % 20001) - 10000.0) / (T) 7 ;
    }
    else if constexpr (std::is_same<T, int8_t>::value) return (T) ((rng () % 97) != 0) ;
    else return (T) (rng () % 1000) ;
}

template <class Z> static bool near_value (const Z &a, const Z &b, double tol)
{
    if constexpr (std::is_same<Z, gcu_fc64>::value) return a.re == b.re && a.im == b.im ;
    else if constexpr (std::is_floating_point<Z>::value)
    {
        if (std::isnan ((double) a) || std::isnan ((double) b)) return std::isnan ((double) a) && std::isnan ((double) b) ;
        return std::fabs ((double) a - (double) b) <= tol * (1 + std::fabs ((double) b)) ;
    }
    else return a == b ;
}

// one run: n values, grid blocks of nt threads
template <class SR>
static void run (const char *name, int64_t n, unsigned grid, unsigned nt, int kind,
    double tol, std::mt19937_64 &rng)
{
    typedef typename SR::Z Z ;
    typedef typename SR::TA TA ;
    typedef typename SR::TC TC ;
    std::vector<TA> A ((size_t) n + 1) ;
    for (int64_t p = 0 ; p < n ; p++) A [p] = value_of<TA> (rng, kind) ;
    values<Z> part (grid) ;
    std::vector<int8_t> has (grid, 7) ;
    values<TC> out (1) ;
    gridDim.x = grid ;
    for (unsigned b = 0 ; b < grid ; b++)
        gcu_emu_block (b, nt, [&] { gcu_reduce_partial<SR> (n, A.data (), part.data (), has.data ()) ; }) ;
    gridDim.x = 1 ;
    gcu_emu_block (0, nt, [&]
        { gcu_reduce_final<SR, typename SR::ID> (grid, part.data (), has.data (), out.data ()) ; }) ;
    // the reference: a fold from the left; ANY: any value of A, cast
    char what [160] ;
    snprintf (what, sizeof (what), "%s: n %lld, grid %u x %u", name, (long long) n, grid, nt) ;
    if (n == 0)
    {
        CHECK (near_value (out [0], gcu_cast<TC> (SR::ID::value ()), 0), "%s: the empty reduction", what) ;
        return ;
    }
    Z ref = gcu_cast<Z> (A [0]) ;
    for (int64_t p = 1 ; p < n ; p++) ref = SR::add (ref, gcu_cast<Z> (A [p])) ;
    if (SR::is_any)
    {
        bool found = false ;
        for (int64_t p = 0 ; p < n && !found ; p++)
            found = near_value (out [0], gcu_cast<TC> (gcu_cast<Z> (A [p])), 0) ;
        CHECK (found, "%s: ANY gave a value that is not in A", what) ;
    }
    else
    {
        CHECK (near_value (out [0], gcu_cast<TC> (ref), tol), "%s: got %g, want %g", what,
            (double) gcu_cast<double> (out [0]), (double) gcu_cast<double> (gcu_cast<TC> (ref))) ;
    }
}

template <class SR>
static int sweep (const char *name, int kind, double tol, std::mt19937_64 &rng)
{
    const int64_t ns [] = { 0, 1, 2, 31, 255, 256, 257, 1000, 4099 } ;
    const unsigned grids [][2] = { { 1, 256 }, { 3, 256 }, { 5, 32 }, { 40, 32 } } ;
    int cases = 0 ;
    for (int64_t n : ns)
        for (const auto &g : grids)
        {
            run<SR> (name, n, g [0], g [1], kind, tol, rng) ;
            cases++ ;
        }
    return cases ;
}

int main ()
{
    std::mt19937_64 rng (20261124) ;
    int cases = 0 ;
    cases += sweep<PLUS_I64> ("PLUS_INT64 (INT32 -> FP64)", 0, 0, rng) ;
    cases += sweep<PLUS_F64> ("PLUS_FP64 (FP32 -> FP32)", 0, 1e-6, rng) ;
    cases += sweep<MIN_F64> ("MIN_FP64 (FP64 -> INT32), NaN and -inf", 1, 0, rng) ;
    cases += sweep<MIN_F64> ("MIN_FP64 (FP64 -> INT32)", 0, 0, rng) ;
    cases += sweep<ANY_I32> ("ANY_INT32 (INT16 -> UINT8)", 0, 0, rng) ;
    cases += sweep<LAND_BOOL> ("LAND_BOOL (INT8 -> INT16), terminal", 0, 0, rng) ;
    cases += sweep<TIMES_U8> ("TIMES_UINT8 (UINT16 -> FC64), wraps", 0, 0, rng) ;
    // more blocks than the final block has threads (its grid-stride loop)
    run<PLUS_I64> ("PLUS_INT64, 300 blocks", 100000, 300, 32, 0, 0, rng) ;
    cases++ ;
    return gcu_emu_finish ("test_reduce_emu", cases) ;
}
