// gcu_ops.cuh — device implementations of every built-in GraphBLAS binary
// operator, written once and generic in the type: the semiring table
// (semirings/gcu_semiring_table.c) names these functions in each operator's
// device expression, and the JIT pastes that expression into a kernel.
//
// Semantics are SuiteSparse:GraphBLAS 7.4's, including the corners C leaves
// undefined: integer division by zero (0/0 = 0, x/0 = the integer "infinity" of
// x's sign), INT_MIN / -1 (wraps), integer +,-,* wrap modulo 2^bits, min/max
// of floats ignore NaN, pow on integers goes through double with
// a saturating cast, bit shifts outside the type's width give 0 (or -1 for a
// negative signed right shift), complex division by Smith's method in double,
// and the boolean renamings (PLUS=LOR, TIMES=LAND, MINUS=LXOR, DIV=FIRST,
// POW=GE, MIN=LAND, MAX=LOR).
#ifndef GCU_OPS_CUH
#define GCU_OPS_CUH

#include "common/gcu_types.cuh"

#define GCU_CLS(T) (gcu_traits<T>::cls)
#define GCU_IS_INTEGER(T) (GCU_CLS(T) == GCU_CLS_INT || GCU_CLS(T) == GCU_CLS_UINT)

//------------------------------------------------------------------------------
// real math helpers, float and double (no C++ overloads are assumed)
//------------------------------------------------------------------------------

// gcu_NAME (x, y) / gcu_NAME (x): the C library's NAMEf for float, NAME for double
#define GCU_MATH2(name, fun)                                                 \
    template <class R> GCU_HD R name (R x, R y)                             \
    {                                                                       \
        if constexpr (gcu_same<R, float>::v) return fun##f (x, y);          \
        else                                 return fun (x, y);             \
    }
GCU_MATH2 (gcu_atan2, atan2)  GCU_MATH2 (gcu_hypot, hypot)  GCU_MATH2 (gcu_fmod, fmod)
GCU_MATH2 (gcu_remainder, remainder)  GCU_MATH2 (gcu_copysign, copysign)  GCU_MATH2 (gcu_rpow, pow)
#undef GCU_MATH2

#define GCU_MATH1(name, fun)                                                 \
    template <class R> GCU_HD R name (R x)                                  \
    {                                                                       \
        if constexpr (gcu_same<R, float>::v) return fun##f (x);             \
        else                                 return fun (x);                \
    }
GCU_MATH1 (gcu_exp, exp)  GCU_MATH1 (gcu_log, log)  GCU_MATH1 (gcu_cos, cos)
GCU_MATH1 (gcu_sin, sin)  GCU_MATH1 (gcu_trunc, trunc)  GCU_MATH1 (gcu_fabs, fabs)
#undef GCU_MATH1

//------------------------------------------------------------------------------
// complex arithmetic (C11 semantics for *, Smith's method for /)
//------------------------------------------------------------------------------

template <class C> GCU_HD C gcu_cmake (typename gcu_traits<C>::real re,
                                       typename gcu_traits<C>::real im)
{
    C z; z.re = re; z.im = im; return z;
}

// The product SuiteSparse's TIMES computes: the textbook formula, with no
// recovery of infinities from NaN results.
template <class C> GCU_HD C gcu_cmul (C x, C y)
{
    return gcu_cmake<C> (gcu_fsub (gcu_fmul (x.re, y.re), gcu_fmul (x.im, y.im)),
                         gcu_fadd (gcu_fmul (x.re, y.im), gcu_fmul (x.im, y.re)));
}

// A NaN part of a complex operand as a zero of its sign (Annex G's recovery).
template <class R> GCU_HD void gcu_cunnan (R &x)
{
    if (gcu_isnan (x)) x = gcu_copysign ((R) 0, x);
}

// Annex G's recovery for one operand (p, q) with an infinite part: each part
// becomes a signed 1 (infinite) or 0 (finite), and the NaN parts of the other
// operand (r, s) signed zeros. False (nothing changed) when (p, q) is finite.
template <class R> GCU_HD bool gcu_cbox (R &p, R &q, R &r, R &s)
{
    if (!gcu_isinf (p) && !gcu_isinf (q)) return false;
    p = gcu_copysign ((R) (gcu_isinf (p) ? 1 : 0), p);
    q = gcu_copysign ((R) (gcu_isinf (q) ? 1 : 0), q);
    gcu_cunnan (r);
    gcu_cunnan (s);
    return true;
}

// C11 Annex G multiplication: the textbook formula, and when it gives
// NaN+iNaN, recover infinities the way the C library's complex product does.
// cpow uses it (the C library computes cpow as exp (y * log (x)) with it).
template <class C> GCU_HD C gcu_cmul_annex_g (C x, C y)
{
    typedef typename gcu_traits<C>::real R;
    R a = x.re, b = x.im, c = y.re, d = y.im;
    R ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    R re = ac - bd, im = ad + bc;
    if (gcu_isnan (re) && gcu_isnan (im))
    {
        bool recalc = false;
        if (gcu_cbox (a, b, c, d)) recalc = true;     // x infinite
        if (gcu_cbox (c, d, a, b)) recalc = true;     // y infinite
        if (!recalc && (gcu_isinf (ac) || gcu_isinf (bd) ||
                        gcu_isinf (ad) || gcu_isinf (bc)))
        {
            gcu_cunnan (a);
            gcu_cunnan (b);
            gcu_cunnan (c);
            gcu_cunnan (d);
            recalc = true;
        }
        if (recalc)
        {
            const R inf = (R) (1.0 / 0.0);
            re = inf * (a * c - b * d);
            im = inf * (a * d + b * c);
        }
    }
    return gcu_cmake<C> (re, im);
}

// double complex division: Smith (1962), with SuiteSparse's special cases
// for a divisor with a zero part (where a zero part of x gives an exact zero
// rather than 0/den) and for a divisor infinite in both parts. Single complex
// divides in double.
GCU_HD gcu_fc64 gcu_cdiv64 (double xr, double xi, double yr, double yi)
{
    double zr, zi;
    if (yi == 0)
    {
        zr = (xi == 0 || xr != 0) ? xr / yr : 0;
        zi = (xi == 0) ? 0 : xi / yr;
    }
    else if (yr == 0)
    {
        zr = (xr == 0 || xi != 0) ? xi / yi : 0;
        zi = (xr == 0) ? 0 : -xr / yi;
    }
    else if (gcu_isinf (yi) && gcu_isinf (yr))
    {
        double r = (gcu_signbit (yr) == gcu_signbit (yi)) ? 1 : -1;
        double d = yr + r * yi;
        zr = (xr + xi * r) / d;
        zi = (xi - xr * r) / d;
    }
    else if (fabs (yr) >= fabs (yi))
    {
        double r = yi / yr;
        double d = yr + r * yi;
        zr = (xr + xi * r) / d;
        zi = (xi - xr * r) / d;
    }
    else
    {
        double r = yr / yi;
        double d = r * yr + yi;
        zr = (xr * r + xi) / d;
        zi = (xi * r - xr) / d;
    }
    return gcu_cmake<gcu_fc64> (zr, zi);
}

template <class C> GCU_HD C gcu_cdiv (C x, C y)
{
    gcu_fc64 z = gcu_cdiv64 ((double) x.re, (double) x.im,
                             (double) y.re, (double) y.im);
    return gcu_cmake<C> ((typename gcu_traits<C>::real) z.re,
                         (typename gcu_traits<C>::real) z.im);
}

// z = x^y for reals: NaN if either is NaN, 1 if y is 0, else pow
template <class R> GCU_HD R gcu_fpow (R x, R y)
{
    if (gcu_isnan (x) || gcu_isnan (y)) return (R) (0.0 / 0.0);
    if (y == 0) return (R) 1;
    return gcu_host_nan (gcu_rpow (x, y), x, y);    // pow (-1, 0.5): the host's NaN
}

// cpow as the C library computes it: exp (y * log (x))
template <class C> GCU_HD C gcu_clog (C x)
{
    return gcu_cmake<C> (gcu_log (gcu_hypot (x.re, x.im)), gcu_atan2 (x.im, x.re));
}

template <class C> GCU_HD C gcu_cexp (C x)
{
    typedef typename gcu_traits<C>::real R;
    R e = gcu_exp (x.re);
    if (x.im == 0) return gcu_cmake<C> (e, x.im);
    if (gcu_isinf (x.re) && (gcu_isinf (x.im) || gcu_isnan (x.im)))
    {
        // C11 Annex G: exp (-Inf + i y) is +-0 and exp (+Inf + i y) is
        // Inf + i NaN for a non-finite y, not NaN + i NaN
        if (x.re < 0) return gcu_cmake<C> ((R) 0, gcu_copysign ((R) 0, x.im));
        return gcu_cmake<C> (x.re, x.im - x.im);
    }
    return gcu_cmake<C> (e * gcu_cos (x.im), e * gcu_sin (x.im));
}

template <class C> GCU_HD C gcu_cpow (C x, C y)
{
    typedef typename gcu_traits<C>::real R;
    R xr = x.re, yr = y.re;
    if (x.im == 0 && y.im == 0)
    {
        // both real: the result is real when x >= 0 or y is an integer,
        // NaN or Inf
        if (xr >= 0 || gcu_isnan (yr) || gcu_isinf (yr) || yr == gcu_trunc (yr))
        {
            return gcu_cmake<C> (gcu_fpow (xr, yr), (R) 0);
        }
    }
    if (gcu_isnan (xr) || gcu_isnan (x.im) || gcu_isnan (yr) || gcu_isnan (y.im))
    {
        const R nan = (R) (0.0 / 0.0);
        return gcu_cmake<C> (nan, nan);
    }
    if (yr == 0 && y.im == 0) return gcu_cmake<C> ((R) 1, (R) 0);
    return gcu_cexp (gcu_cmul_annex_g (y, gcu_clog (x)));
}

//------------------------------------------------------------------------------
// integer helpers
//------------------------------------------------------------------------------

// wrap-around +, -, * through an unsigned type at least 32 bits wide
template <class T> GCU_HD T gcu_iadd (T x, T y)
{ typedef typename gcu_traits<T>::wide W; return (T) ((W) x + (W) y); }
template <class T> GCU_HD T gcu_isub (T x, T y)
{ typedef typename gcu_traits<T>::wide W; return (T) ((W) x - (W) y); }
template <class T> GCU_HD T gcu_imul (T x, T y)
{ typedef typename gcu_traits<T>::wide W; return (T) ((W) x * (W) y); }

template <class T> GCU_HD T gcu_idiv (T x, T y)
{
    if constexpr (GCU_CLS (T) == GCU_CLS_INT)
    {
        if (y == -1) return gcu_isub ((T) 0, x);   // INT_MIN / -1 wraps
        if (y == 0) return (x == 0) ? (T) 0 :
            ((x < 0) ? gcu_traits<T>::lo () : gcu_traits<T>::hi ());
        return (T) (x / y);
    }
    else
    {
        if (y == 0) return (x == 0) ? (T) 0 : gcu_traits<T>::hi ();
        return (T) (x / y);
    }
}

//------------------------------------------------------------------------------
// the operators, z = f (x, y)
//------------------------------------------------------------------------------

template <class T> GCU_HD T gcu_first  (const T &x, const T &) { return x; }
template <class T> GCU_HD T gcu_second (const T &, const T &y) { return y; }
template <class T> GCU_HD T gcu_any    (const T &, const T &y) { return y; }

template <class T> GCU_HD T gcu_oneb (const T &, const T &)
{
    if constexpr (GCU_CLS (T) == GCU_CLS_COMPLEX) return gcu_cmake<T> (1, 0);
    else                                          return (T) 1;
}

template <class T> GCU_HD T gcu_plus (const T &x, const T &y)
{
    if constexpr (GCU_CLS (T) == GCU_CLS_BOOL)         return x || y;
    else if constexpr (GCU_IS_INTEGER (T))             return gcu_iadd (x, y);
    else if constexpr (GCU_CLS (T) == GCU_CLS_FLOAT)   return gcu_fadd (x, y);
    else return gcu_cmake<T> (gcu_fadd (x.re, y.re), gcu_fadd (x.im, y.im));
}

template <class T> GCU_HD T gcu_minus (const T &x, const T &y)
{
    if constexpr (GCU_CLS (T) == GCU_CLS_BOOL)         return x != y;
    else if constexpr (GCU_IS_INTEGER (T))             return gcu_isub (x, y);
    else if constexpr (GCU_CLS (T) == GCU_CLS_FLOAT)   return gcu_fsub (x, y);
    else return gcu_cmake<T> (gcu_fsub (x.re, y.re), gcu_fsub (x.im, y.im));
}

template <class T> GCU_HD T gcu_times (const T &x, const T &y)
{
    if constexpr (GCU_CLS (T) == GCU_CLS_BOOL)         return x && y;
    else if constexpr (GCU_IS_INTEGER (T))             return gcu_imul (x, y);
    else if constexpr (GCU_CLS (T) == GCU_CLS_FLOAT)   return gcu_fmul (x, y);
    else return gcu_cmul (x, y);
}

template <class T> GCU_HD T gcu_div (const T &x, const T &y)
{
    if constexpr (GCU_CLS (T) == GCU_CLS_BOOL)         return x;
    else if constexpr (GCU_IS_INTEGER (T))             return gcu_idiv (x, y);
    else if constexpr (GCU_CLS (T) == GCU_CLS_FLOAT)   return gcu_fdiv (x, y);
    else return gcu_cdiv (x, y);
}

// min and max of floating point ignore a NaN operand (as fmin/fmax do) but,
// unlike fmin/fmax, return y when x and y compare equal: min (0, -0) is -0
template <class T> GCU_HD T gcu_min (const T &x, const T &y)
{
    if constexpr (GCU_CLS (T) == GCU_CLS_BOOL)         return x && y;
    else if constexpr (GCU_CLS (T) == GCU_CLS_FLOAT)
        return gcu_isnan (x) ? y : (gcu_isnan (y) ? x : ((x < y) ? x : y));
    else return (x < y) ? x : y;
}

template <class T> GCU_HD T gcu_max (const T &x, const T &y)
{
    if constexpr (GCU_CLS (T) == GCU_CLS_BOOL)         return x || y;
    else if constexpr (GCU_CLS (T) == GCU_CLS_FLOAT)
        return gcu_isnan (x) ? y : (gcu_isnan (y) ? x : ((x > y) ? x : y));
    else return (x > y) ? x : y;
}

template <class T> GCU_HD T gcu_pow (const T &x, const T &y)
{
    if constexpr (GCU_CLS (T) == GCU_CLS_BOOL)         return x >= y;
    else if constexpr (GCU_IS_INTEGER (T))
        return gcu_saturate<T> (gcu_fpow ((double) x, (double) y));
    else if constexpr (GCU_CLS (T) == GCU_CLS_FLOAT)   return gcu_fpow (x, y);
    else return gcu_cpow (x, y);
}

// comparisons with a result of type bool
template <class T> GCU_HD bool gcu_eq (const T &x, const T &y)
{
    if constexpr (GCU_CLS (T) == GCU_CLS_COMPLEX) return x.re == y.re && x.im == y.im;
    else                                          return x == y;
}
template <class T> GCU_HD bool gcu_ne (const T &x, const T &y) { return !gcu_eq (x, y); }
template <class T> GCU_HD bool gcu_gt (const T &x, const T &y) { return x > y;  }
template <class T> GCU_HD bool gcu_lt (const T &x, const T &y) { return x < y;  }
template <class T> GCU_HD bool gcu_ge (const T &x, const T &y) { return x >= y; }
template <class T> GCU_HD bool gcu_le (const T &x, const T &y) { return x <= y; }

// the same comparisons with a result of type T (1 or 0)
template <class T> GCU_HD T gcu_from_bool (bool b)
{
    if constexpr (GCU_CLS (T) == GCU_CLS_COMPLEX) return gcu_cmake<T> (b ? 1 : 0, 0);
    else                                          return (T) b;
}
template <class T> GCU_HD T gcu_iseq (const T &x, const T &y) { return gcu_from_bool<T> (gcu_eq (x, y)); }
template <class T> GCU_HD T gcu_isne (const T &x, const T &y) { return gcu_from_bool<T> (gcu_ne (x, y)); }
template <class T> GCU_HD T gcu_isgt (const T &x, const T &y) { return (T) (x > y);  }
template <class T> GCU_HD T gcu_islt (const T &x, const T &y) { return (T) (x < y);  }
template <class T> GCU_HD T gcu_isge (const T &x, const T &y) { return (T) (x >= y); }
template <class T> GCU_HD T gcu_isle (const T &x, const T &y) { return (T) (x <= y); }

// logical operators on any real type: operands are nonzero-ness (NaN is true)
template <class T> GCU_HD T gcu_lor  (const T &x, const T &y) { return (T) ((x != 0) || (y != 0)); }
template <class T> GCU_HD T gcu_land (const T &x, const T &y) { return (T) ((x != 0) && (y != 0)); }
template <class T> GCU_HD T gcu_lxor (const T &x, const T &y) { return (T) ((x != 0) != (y != 0)); }
template <class T> GCU_HD T gcu_lxnor(const T &x, const T &y) { return (T) ((x != 0) == (y != 0)); }

// floating-point only
template <class T> GCU_HD T gcu_atan2_op     (const T &x, const T &y) { return gcu_atan2 (x, y); }
template <class T> GCU_HD T gcu_hypot_op     (const T &x, const T &y) { return gcu_hypot (x, y); }
template <class T> GCU_HD T gcu_fmod_op      (const T &x, const T &y) { return gcu_host_nan (gcu_fmod (x, y), x, y); }
template <class T> GCU_HD T gcu_remainder_op (const T &x, const T &y) { return gcu_host_nan (gcu_remainder (x, y), x, y); }
template <class T> GCU_HD T gcu_copysign_op  (const T &x, const T &y) { return gcu_copysign (x, y); }

// ldexp (x, (int) y): the host's (int) of a NaN or out-of-range y is INT_MIN
// (x86 cvttsd2si), while the GPU saturates; follow the host.
template <class T> GCU_HD T gcu_ldexp (const T &x, const T &y)
{
    int e = (y >= (T) -2147483648.0 && y < (T) 2147483648.0) ? (int) y
                                                             : (-2147483647 - 1);
    if constexpr (gcu_same<T, float>::v) return ldexpf (x, e);
    else                                 return ldexp (x, e);
}

// z = complex (x, y)
template <class T> GCU_HD typename gcu_traits<T>::cplx gcu_cmplx (const T &x, const T &y)
{
    return gcu_cmake<typename gcu_traits<T>::cplx> (x, y);
}

// bitwise operators, on the unsigned representation so that nothing is UB
template <class T> GCU_HD T gcu_bor   (const T &x, const T &y) { return (T) (x | y); }
template <class T> GCU_HD T gcu_band  (const T &x, const T &y) { return (T) (x & y); }
template <class T> GCU_HD T gcu_bxor  (const T &x, const T &y) { return (T) (x ^ y); }
template <class T> GCU_HD T gcu_bxnor (const T &x, const T &y) { return (T) ~(x ^ y); }

// bit k (1-based) of x; positions outside 1..bits: get gives 0, set/clr give x
template <class T> GCU_HD T gcu_bget (const T &x, const T &k)
{
    typedef typename gcu_traits<T>::utype U;
    if (k < 1 || k > gcu_traits<T>::bits) return (T) 0;
    return (T) ((((U) x) >> (k - 1)) & 1u);
}
template <class T> GCU_HD T gcu_bset (const T &x, const T &k)
{
    typedef typename gcu_traits<T>::utype U;
    if (k < 1 || k > gcu_traits<T>::bits) return x;
    return (T) (U) (((U) x) | (U) (((U) 1) << (k - 1)));
}
template <class T> GCU_HD T gcu_bclr (const T &x, const T &k)
{
    typedef typename gcu_traits<T>::utype U;
    if (k < 1 || k > gcu_traits<T>::bits) return x;
    return (T) (U) (((U) x) & (U) ~(((U) 1) << (k - 1)));
}

// z = bitshift (x, k): left for k > 0, right for k < 0 (arithmetic for signed)
template <class T> GCU_HD T gcu_bshift (const T &x, const int8_t &k)
{
    typedef typename gcu_traits<T>::wide W;
    const int bits = gcu_traits<T>::bits;
    if (k == 0) return x;
    if (k >= bits) return (T) 0;
    if (k <= -bits)
    {
        if constexpr (GCU_CLS (T) == GCU_CLS_INT) return (T) ((x >= 0) ? 0 : -1);
        else                                      return (T) 0;
    }
    if (k > 0) return (T) (((W) x) << k);
    return (T) (x >> (-k));
}

#endif
