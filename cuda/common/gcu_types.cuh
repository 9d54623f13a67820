// gcu_types.cuh — device-side value types and typecasting, written once for all
// 13 GraphBLAS built-in types (and user types, which only cast to themselves).
// Every JIT-compiled kernel includes this first (through gcu_semiring.cuh).
//
// The same text also compiles as plain host C++17 (GCU_HD becomes `inline`),
// so the semantics can be checked against SuiteSparse on the CPU.
//
// Typecasting follows SuiteSparse:GraphBLAS 7.4 (GB_casting.h): C rules, except
// that float/double -> integer saturates and maps NaN to 0 (C leaves those
// undefined), complex -> real takes the real part, and complex -> bool is true
// when either part is nonzero.
#ifndef GCU_TYPES_CUH
#define GCU_TYPES_CUH

#if defined(__CUDACC_RTC__)
    // NVRTC has no C library headers; it does have the device math library
    // (fmin, pow, atan2, ...) and memcpy built in.
    typedef signed char        int8_t;
    typedef short              int16_t;
    typedef int                int32_t;
    typedef long long          int64_t;
    typedef unsigned char      uint8_t;
    typedef unsigned short     uint16_t;
    typedef unsigned int       uint32_t;
    typedef unsigned long long uint64_t;
    #define GCU_HD __device__ __forceinline__
#elif defined(__CUDACC__)
    #include <stdint.h>
    #include <math.h>
    #include <string.h>
    #define GCU_HD __host__ __device__ __forceinline__
#else
    #include <stdint.h>
    #include <math.h>
    #include <string.h>
    #define GCU_HD inline
#endif

// type classes: what decides the semantics of an operator or a cast
#define GCU_CLS_BOOL    0
#define GCU_CLS_INT     1
#define GCU_CLS_UINT    2
#define GCU_CLS_FLOAT   3
#define GCU_CLS_COMPLEX 4
#define GCU_CLS_UDT     5

// complex types: the layout of C's float complex / double complex (real part
// first). The stricter alignment is harmless: device arrays are 256-aligned.
struct alignas(8)  gcu_fc32 { float  re, im; };
struct alignas(16) gcu_fc64 { double re, im; };

template <class A, class B> struct gcu_same       { static const bool v = false; };
template <class A>          struct gcu_same<A, A> { static const bool v = true;  };

// gcu_traits<T>: class, width, the unsigned type of the same width (for
// bit manipulation) and the wide unsigned type used for wrap-around integer
// arithmetic (never narrower than 32 bits, so that no promotion to signed int
// can overflow). Anything not listed is a user-defined type.
template <class T> struct gcu_traits { static const int cls = GCU_CLS_UDT; };

#define GCU_INT_TRAITS(T, U, W, C, NBITS, LO, HI)                            \
    template <> struct gcu_traits<T> {                                      \
        static const int cls = C; static const int bits = NBITS;            \
        typedef U utype; typedef W wide;                                    \
        static GCU_HD T lo (void) { return (T) (LO); }                      \
        static GCU_HD T hi (void) { return (T) (HI); }                      \
    };
GCU_INT_TRAITS (int8_t,   uint8_t,  uint32_t, GCU_CLS_INT,   8,  -128, 127)
GCU_INT_TRAITS (int16_t,  uint16_t, uint32_t, GCU_CLS_INT,  16,  -32768, 32767)
GCU_INT_TRAITS (int32_t,  uint32_t, uint32_t, GCU_CLS_INT,  32,  -2147483647 - 1, 2147483647)
GCU_INT_TRAITS (int64_t,  uint64_t, uint64_t, GCU_CLS_INT,  64,  -9223372036854775807LL - 1, 9223372036854775807LL)
GCU_INT_TRAITS (uint8_t,  uint8_t,  uint32_t, GCU_CLS_UINT,  8,  0, 0xFFu)
GCU_INT_TRAITS (uint16_t, uint16_t, uint32_t, GCU_CLS_UINT, 16,  0, 0xFFFFu)
GCU_INT_TRAITS (uint32_t, uint32_t, uint32_t, GCU_CLS_UINT, 32,  0, 0xFFFFFFFFu)
GCU_INT_TRAITS (uint64_t, uint64_t, uint64_t, GCU_CLS_UINT, 64,  0, 0xFFFFFFFFFFFFFFFFull)
#undef GCU_INT_TRAITS

// the stand-in for an operand of a user type the operator never reads (its
// values are not touched, so its definition is not needed)
template <int N> struct gcu_bytes { unsigned char b [N]; };

template <> struct gcu_traits<bool>     { static const int cls = GCU_CLS_BOOL; };
template <> struct gcu_traits<float>    { static const int cls = GCU_CLS_FLOAT;
                                          typedef gcu_fc32 cplx; typedef uint32_t bits_t; };
template <> struct gcu_traits<double>   { static const int cls = GCU_CLS_FLOAT;
                                          typedef gcu_fc64 cplx; typedef uint64_t bits_t; };
template <> struct gcu_traits<gcu_fc32> { static const int cls = GCU_CLS_COMPLEX; typedef float  real; };
template <> struct gcu_traits<gcu_fc64> { static const int cls = GCU_CLS_COMPLEX; typedef double real; };

// exact bit patterns for constants the JIT writes (identity, terminal, INF)
GCU_HD float  gcu_f32_bits (uint32_t b) { float  f; memcpy (&f, &b, 4); return f; }
GCU_HD double gcu_f64_bits (uint64_t b) { double d; memcpy (&d, &b, 8); return d; }

// NaN / Inf / sign tests on the bits, so that no math-library macro (absent
// under NVRTC, ambiguous in C++) is needed
template <class R> GCU_HD bool gcu_isnan (R x) { return x != x; }
template <class R> GCU_HD bool gcu_isinf (R x) { return x - x != x - x && x == x; }
GCU_HD bool gcu_signbit (float x)  { uint32_t b; memcpy (&b, &x, 4); return (b >> 31) != 0; }
GCU_HD bool gcu_signbit (double x) { uint64_t b; memcpy (&b, &x, 8); return (b >> 63) != 0; }

// NaN results as the host computes them. SuiteSparse runs on the host CPU;
// x86 gives the first NaN operand of an operation (quieted) or, from an
// invalid operation on numbers (inf - inf, 0 * inf, 0 / 0), its "default NaN"
// with the sign bit set (other hosts: without it). The GPU gives one
// canonical NaN, sign bit clear. The sign of a NaN is observable (COPYSIGN,
// then a cast to an integer), so device arithmetic on floats goes through
// gcu_host_nan; host compilations (the emulated tests) compute natively.
#ifndef GCU_HOST_DEFAULT_NAN_NEG
#if defined(__aarch64__)
#define GCU_HOST_DEFAULT_NAN_NEG 0
#else
#define GCU_HOST_DEFAULT_NAN_NEG 1      // x86 (and NVRTC, told by the JIT)
#endif
#endif
GCU_HD float  gcu_quiet (float x)
{ uint32_t b; memcpy (&b, &x, 4); b |= 0x00400000u; memcpy (&x, &b, 4); return x; }
GCU_HD double gcu_quiet (double x)
{ uint64_t b; memcpy (&b, &x, 8); b |= 0x0008000000000000ull; memcpy (&x, &b, 8); return x; }
template <class R> GCU_HD R gcu_default_nan ()
{
    if constexpr (sizeof (R) == 4)
        return gcu_f32_bits (GCU_HOST_DEFAULT_NAN_NEG ? 0xFFC00000u : 0x7FC00000u);
    else
        return gcu_f64_bits (GCU_HOST_DEFAULT_NAN_NEG ? 0xFFF8000000000000ull : 0x7FF8000000000000ull);
}
template <class R> GCU_HD R gcu_host_nan (R r, R x, R y)
{
#if defined(__CUDA_ARCH__) || defined(__CUDACC_RTC__)
    if (r == r) return r;
    if (x != x) return gcu_quiet (x);
    if (y != y) return gcu_quiet (y);
    return gcu_default_nan<R> ();
#else
    (void) x; (void) y;
    return r;
#endif
}
template <class R> GCU_HD R gcu_fadd (R x, R y) { return gcu_host_nan (x + y, x, y); }
template <class R> GCU_HD R gcu_fsub (R x, R y) { return gcu_host_nan (x - y, x, y); }
template <class R> GCU_HD R gcu_fmul (R x, R y) { return gcu_host_nan (x * y, x, y); }
template <class R> GCU_HD R gcu_fdiv (R x, R y) { return gcu_host_nan (x / y, x, y); }

// float <-> double keeps a NaN's sign and the top of its payload, quieted
// (x86 cvtss2sd/cvtsd2ss); the GPU's conversion gives its canonical NaN
template <class Z, class X> GCU_HD Z gcu_fconv (X x)
{
#if defined(__CUDA_ARCH__) || defined(__CUDACC_RTC__)
    if constexpr (sizeof (Z) != sizeof (X))
    {
        if (x != x)
        {
            if constexpr (sizeof (X) == 8)
            {
                uint64_t b; memcpy (&b, &x, 8);
                return gcu_f32_bits ((uint32_t) (b >> 32 & 0x80000000u) | 0x7FC00000u
                    | (uint32_t) ((b >> 29) & 0x003FFFFFu));
            }
            else
            {
                uint32_t b; memcpy (&b, &x, 4);
                return gcu_f64_bits ((uint64_t) (b & 0x80000000u) << 32 | 0x7FF8000000000000ull
                    | (uint64_t) (b & 0x003FFFFFu) << 29);
            }
        }
    }
#endif
    return (Z) x;
}

// double -> integer as SuiteSparse does it: NaN -> 0, saturate at the ends
template <class Z>
GCU_HD Z gcu_saturate (double x)
{
    if (gcu_traits<Z>::cls == GCU_CLS_UINT)
    {
        if (gcu_isnan (x) || x <= 0) return (Z) 0;
    }
    else
    {
        if (gcu_isnan (x)) return (Z) 0;
        if (x <= (double) gcu_traits<Z>::lo ()) return gcu_traits<Z>::lo ();
    }
    if (x >= (double) gcu_traits<Z>::hi ()) return gcu_traits<Z>::hi ();
    return (Z) x;
}

// gcu_cast<Z>(x): z = (Z) x with GraphBLAS semantics, for every pair of the
// 13 built-in types; a user type casts only to itself.
template <class Z, class X>
GCU_HD Z gcu_cast (const X &x)
{
    constexpr int zc = gcu_traits<Z>::cls;
    constexpr int xc = gcu_traits<X>::cls;
    if constexpr (gcu_same<Z, X>::v)
    {
        return x;
    }
    else if constexpr (zc == GCU_CLS_UDT || xc == GCU_CLS_UDT)
    {
        static_assert (zc != zc, "no typecast to or from a user-defined type");
        return Z ();
    }
    else if constexpr (zc == GCU_CLS_BOOL)
    {
        if constexpr (xc == GCU_CLS_COMPLEX) return x.re != 0 || x.im != 0;
        else                                 return x != 0;
    }
    else if constexpr (zc == GCU_CLS_INT || zc == GCU_CLS_UINT)
    {
        if constexpr (xc == GCU_CLS_FLOAT)        return gcu_saturate<Z> ((double) x);
        else if constexpr (xc == GCU_CLS_COMPLEX) return gcu_saturate<Z> ((double) x.re);
        else                                      return (Z) x;   // modular, as in C
    }
    else if constexpr (zc == GCU_CLS_FLOAT)
    {
        if constexpr (xc == GCU_CLS_COMPLEX) return gcu_fconv<Z> (x.re);
        else if constexpr (xc == GCU_CLS_FLOAT) return gcu_fconv<Z> (x);
        else                                 return (Z) x;
    }
    else
    {
        typedef typename gcu_traits<Z>::real R;
        if constexpr (xc == GCU_CLS_COMPLEX) return Z { gcu_fconv<R> (x.re), gcu_fconv<R> (x.im) };
        else if constexpr (xc == GCU_CLS_FLOAT) return Z { gcu_fconv<R> (x), (R) 0 };
        else                                 return Z { (R) x, (R) 0 };
    }
}

#endif
