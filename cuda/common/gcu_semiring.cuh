// gcu_semiring.cuh — what every kernel family includes: the types and casts
// (gcu_types.cuh), the operators (gcu_ops.cuh), and the "semiring" concept the
// JIT instantiates kernels with.
//
// A semiring is a struct SR, generated per specialisation by src/jit from the
// semiring table (or a captured user definition), with:
//
//   typedef ... X, Y, Z;          // multiply: z = mult (x, y); monoid over Z
//   typedef ... TA, TB, TC, TM;   // value types of A, B, the output, the mask
//   static const bool reads_x, reads_y;   // false: the operand value is not
//                                         // read (SECOND, PAIR, positional)
//   static const bool is_any;             // ANY monoid: stop at the first value
//   static const bool has_terminal;
//   static const int add_kind;            // 1 PLUS, 2 MIN, 3 MAX, 0 other
//                                         // (for native atomics)
//   static const bool a_iso, b_iso;       // A or B hold one value for all
//   static const bool m_valued, m_iso;    // valued mask (else structural)
//   static Z    identity (void);        // where accumulators start: neutral
//                                       // for every value (over floating
//                                       // point -0 for PLUS, NaN for MIN/MAX)
//   static Z    terminal (void);
//   static Z    add  (const Z &x, const Z &y);
//   static Z    mult (const X &x, const Y &y, int64_t i, int64_t k, int64_t j);
//
// where (i, k, j) is the position of the product A(i,k) * B(k,j) for the
// positional operators (FIRSTI ... SECONDJ1).
#ifndef GCU_SEMIRING_CUH
#define GCU_SEMIRING_CUH

#include "common/gcu_types.cuh"
#include "common/gcu_ops.cuh"

// z == the monoid's terminal value, per type class; a user type compares
// bytes, as SuiteSparse does
template <class Z> GCU_HD bool gcu_value_equal (const Z &a, const Z &b)
{
    if constexpr (gcu_traits<Z>::cls == GCU_CLS_COMPLEX) return a.re == b.re && a.im == b.im;
    else if constexpr (gcu_traits<Z>::cls == GCU_CLS_UDT)
    {
        const unsigned char *p = (const unsigned char *) &a;
        const unsigned char *q = (const unsigned char *) &b;
        for (unsigned n = 0 ; n < sizeof (Z) ; n++) if (p [n] != q [n]) return false;
        return true;
    }
    else return a == b;
}

// a valued mask entry is true when any bit of its value is set, whatever its
// type (SuiteSparse reads mask values so: -0.0 and NaN are true)
template <class TM> GCU_HD bool gcu_mask_true (const TM &m)
{
    const unsigned char *p = (const unsigned char *) &m;
    unsigned char any = 0;
    for (unsigned k = 0 ; k < sizeof (TM) ; k++) any |= p [k];
    return any != 0;
}

// true when the monoid can stop accumulating z
template <class SR> GCU_HD bool gcu_sr_done (const typename SR::Z &z)
{
    if constexpr (SR::is_any) return true;
    else if constexpr (SR::has_terminal) return gcu_value_equal (z, SR::terminal ());
    else return false;
}

// the operand value at position p, cast to the operator's input type; not
// loaded at all when the operator ignores it
template <class T, class TX, bool READS, bool ISO>
GCU_HD T gcu_sr_load (const TX *__restrict__ Ax, int64_t p)
{
    if constexpr (READS) return gcu_cast<T> (Ax [ISO ? 0 : p]);
    else return T ();
}

#endif
