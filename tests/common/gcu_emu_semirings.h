// gcu_emu_semirings.h — semiring structs for the tests of device code under
// the SIMT emulation, written as src/jit writes them (common/gcu_semiring.cuh
// lists the members), one for each way the kernels accumulate: native atomics
// (PLUS_TIMES_FP64, MIN_PLUS_INT32, PLUS_SECONDJ_INT64, positional),
// compare-and-swap on 4 bytes (MAX_PLUS_FP32), on the word around 1 and 2
// byte values (ANY_PAIR_BOOL, MAX_TIMES_UINT16), the 16-byte lock
// (PLUS_TIMES_FC64), and a monoid without an identity (TIMES_UNIT_FC64);
// VALUED<SR> adds a valued mask. Values are small integers (small_value), so
// every sum is exact in any order. The JIT's own
// code generation is checked by test_jit_dot_reference and
// test_semiring_semantics. Include after the kernel headers.
#ifndef GCU_EMU_SEMIRINGS_H
#define GCU_EMU_SEMIRINGS_H

#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#define SR_COMMON(TX, TY, TZ, ANY, KIND)                                        \
    typedef TX X ; typedef TY Y ; typedef TZ Z ;                                \
    typedef TX TA ; typedef TY TB ; typedef TZ TC ; typedef bool TM ;           \
    static const bool reads_x = true, reads_y = true ;                          \
    static const bool is_any = ANY, has_terminal = false ;                      \
    static const int add_kind = KIND ;                                          \
    static const bool a_iso = false, b_iso = false, m_valued = false, m_iso = false ;

struct PLUS_TIMES_FP64
{
    SR_COMMON (double, double, double, false, 1)
    static Z identity () { return 0 ; }
    static Z terminal () { return 0 ; }
    static Z add (const Z &x, const Z &y) { return x + y ; }
    static Z mult (const X &x, const Y &y, int64_t, int64_t, int64_t) { return x * y ; }
} ;
struct MIN_PLUS_INT32
{
    SR_COMMON (int32_t, int32_t, int32_t, false, 2)
    static Z identity () { return INT32_MAX ; }
    static Z terminal () { return INT32_MIN ; }
    static Z add (const Z &x, const Z &y) { return x < y ? x : y ; }
    static Z mult (const X &x, const Y &y, int64_t, int64_t, int64_t) { return x + y ; }
} ;
struct MAX_PLUS_FP32
{
    SR_COMMON (float, float, float, false, 3)
    static Z identity () { return -INFINITY ; }
    static Z terminal () { return INFINITY ; }
    static Z add (const Z &x, const Z &y) { return x > y ? x : y ; }
    static Z mult (const X &x, const Y &y, int64_t, int64_t, int64_t) { return x + y ; }
} ;
struct MAX_TIMES_UINT16
{
    SR_COMMON (uint16_t, uint16_t, uint16_t, false, 3)
    static Z identity () { return 0 ; }
    static Z terminal () { return UINT16_MAX ; }
    static Z add (const Z &x, const Z &y) { return x > y ? x : y ; }
    static Z mult (const X &x, const Y &y, int64_t, int64_t, int64_t) { return (Z) (x * y) ; }
} ;
struct ANY_PAIR_BOOL
{
    SR_COMMON (bool, bool, bool, true, 0)
    static Z identity () { return false ; }
    static Z terminal () { return false ; }
    static Z add (const Z &, const Z &y) { return y ; }
    static Z mult (const X &, const Y &, int64_t, int64_t, int64_t) { return true ; }
} ;
struct PLUS_TIMES_FC64
{
    SR_COMMON (gcu_fc64, gcu_fc64, gcu_fc64, false, 1)
    static Z identity () { return Z { 0, 0 } ; }
    static Z terminal () { return Z { 0, 0 } ; }
    static Z add (const Z &x, const Z &y) { return Z { x.re + y.re, x.im + y.im } ; }
    static Z mult (const X &x, const Y &y, int64_t, int64_t, int64_t)
    {
        return Z { x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re } ;
    }
} ;
struct PLUS_SECONDJ_INT64
{
    SR_COMMON (int64_t, int64_t, int64_t, false, 1)
    static Z identity () { return 0 ; }
    static Z terminal () { return 0 ; }
    static Z add (const Z &x, const Z &y) { return x + y ; }
    static Z mult (const X &, const Y &, int64_t, int64_t, int64_t j) { return j ; }
} ;

// complex TIMES as the monoid: no start value is neutral for every value
// ((1,0) * (inf,0) is (inf,NaN)), so, as src/jit writes it for the kernels
// that start each entry from its first product (SpMM, SDDMM), no identity ():
// a kernel that called it would not compile. The multiplier gives i^(x+y)
// (1, i, -1 or -i), whose products are exact in any order.
struct TIMES_UNIT_FC64
{
    SR_COMMON (gcu_fc64, gcu_fc64, gcu_fc64, false, 0)
    static Z terminal () { return Z { 1, 0 } ; }
    static Z add (const Z &x, const Z &y)
    {
        return Z { x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re } ;
    }
    static Z mult (const X &x, const Y &y, int64_t, int64_t, int64_t)
    {
        const int e = ((int) (x.re + y.re + x.im + y.im) % 4 + 4) % 4 ;
        return Z { e == 0 ? 1.0 : e == 2 ? -1.0 : 0.0, e == 1 ? 1.0 : e == 3 ? -1.0 : 0.0 } ;
    }
} ;

// the same semiring with a valued mask (SR::m_valued: only true entries of M
// count)
template <class SR> struct VALUED : SR { static const bool m_valued = true ; } ;

template <class Z> static Z small_value (std::mt19937_64 &rng)
{
    const int v = 1 + (int) (rng () % 4) ;
    if constexpr (std::is_same<Z, gcu_fc64>::value) return Z { (double) v, (double) (int) (rng () % 3) - 1 } ;
    else if constexpr (std::is_same<Z, bool>::value) return true ;
    else return (Z) v ;
}
template <class Z> static bool same_value (const Z &a, const Z &b)
{
    if constexpr (std::is_same<Z, gcu_fc64>::value) return a.re == b.re && a.im == b.im ;
    else return a == b ;
}

// an array of n values of type Z, zero bytes to start (std::vector<bool> has
// no data ())
template <class Z> struct values
{
    std::vector<unsigned char> buf ;
    explicit values (size_t n) : buf (n * sizeof (Z) + 1, 0) { }
    Z *data () { return (Z *) buf.data () ; }
    const Z *data () const { return (const Z *) buf.data () ; }
    Z &operator [] (size_t i) { return data () [i] ; }
    const Z &operator [] (size_t i) const { return data () [i] ; }
} ;

#endif
