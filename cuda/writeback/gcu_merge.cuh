// gcu_merge.cuh — the device write-back C<M,replace> = accum (C, T) for one
// row (DESIGN §3), written once for the kernels compiled with the library
// (src/mxm/merge.cu: the pattern, and the values copied as bytes when there
// is no accum and C has T's type) and the JIT's (typecasts and the accum:
// the SR struct's mult is the accum operator, TA is C's type, TB is T's,
// TC is C's). Rows of C, T and M are sorted; for each column j of C's or
// T's row, with t the mask's value at j (true without a mask):
//   t, accum      C(j) = accum (C(j), T(j)) where both are, else C(j), or
//                 T(j) cast to C's type
//   t, no accum   C(j) = T(j) cast to C's type; none where T has none
//   not t         C(j) kept, or none with GrB_REPLACE
// The element-wise operations' T = A op B runs here too (A as C, B as T, op
// as the accum, no mask): eWiseAdd as above, eWiseMult with intersect,
// eWiseUnion with union_ab (a one-sided entry meets alpha or beta).
// Host-compilable (GCU_HD), so the CPU tests run the same rows.
#ifndef GCU_MERGE_CUH
#define GCU_MERGE_CUH

#include "common/gcu_types.cuh"
#include "writeback/gcu_merge_args.h"

GCU_HD int64_t gcu_merge_ld (const void *a, int64_t k, bool w64)
{
    return w64 ? (int64_t) ((const uint64_t *) a) [k] : (int64_t) ((const uint32_t *) a) [k] ;
}

GCU_HD bool gcu_merge_mask_value (const gcu_merge_args &a, int64_t e)
{
    const unsigned char *v = (const unsigned char *) a.Mx + (a.m_iso ? 0 : e * (int64_t) a.msize) ;
    bool t = false ;
    for (uint64_t b = 0 ; b < a.msize ; b++) t |= v [b] != 0 ;
    return t ;
}

// values as bytes: no accum, C of T's type
struct gcu_merge_bytes
{
    // (values of 8 or 4 bytes, aligned, as one word: the bytes one at a
    // time made a vector's write-back several times slower)
    static GCU_HD void copy (unsigned char *dst, const unsigned char *src, uint64_t n)
    {
        const uint64_t al = (uint64_t) dst | (uint64_t) src ;
        if (n == 8 && al % 8 == 0) { *(uint64_t *) dst = *(const uint64_t *) src ; return ; }
        if (n == 4 && al % 4 == 0) { *(uint32_t *) dst = *(const uint32_t *) src ; return ; }
        for (uint64_t b = 0 ; b < n ; b++) dst [b] = src [b] ;
    }
    static GCU_HD void from_c (const gcu_merge_args &a, void *Ox, int64_t q, int64_t pc)
    {
        copy ((unsigned char *) Ox + q * (int64_t) a.csize,
            (const unsigned char *) a.Cx + (a.c_iso ? 0 : pc * (int64_t) a.csize), a.csize) ;
    }
    static GCU_HD void from_t (const gcu_merge_args &a, void *Ox, int64_t q, int64_t pt)
    {
        copy ((unsigned char *) Ox + q * (int64_t) a.csize,
            (const unsigned char *) a.Tx + pt * (int64_t) a.tsize, a.csize) ;
    }
    static GCU_HD void from_both (const gcu_merge_args &a, void *Ox, int64_t q, int64_t, int64_t pt)
    {
        from_t (a, Ox, q, pt) ;
    }
} ;

// typed values: SR::TA (C), SR::TB (T), SR::TC (C), SR::mult the accum
template <class SR>
struct gcu_merge_typed
{
    typedef typename SR::TA TA ;
    typedef typename SR::TB TB ;
    typedef typename SR::TC TC ;
    typedef typename SR::X X ;
    typedef typename SR::Y Y ;
    // eWiseUnion's alpha or beta, held as the operator's x or y
    template <class W> static GCU_HD W scalar (const uint64_t *s)
    {
        W w ;
        memcpy (&w, s, sizeof (W)) ;
        return w ;
    }
    static GCU_HD X c_value (const gcu_merge_args &a, int64_t pc)
    {
        return gcu_cast<X> (((const TA *) a.Cx) [a.c_iso ? 0 : pc]) ;
    }
    static GCU_HD void from_c (const gcu_merge_args &a, void *Ox, int64_t q, int64_t pc)
    {
        if (a.union_ab) ((TC *) Ox) [q] = gcu_cast<TC> (SR::mult (c_value (a, pc), scalar<Y> (a.beta), 0, 0, 0)) ;
        else ((TC *) Ox) [q] = gcu_cast<TC> (((const TA *) a.Cx) [a.c_iso ? 0 : pc]) ;
    }
    static GCU_HD void from_t (const gcu_merge_args &a, void *Ox, int64_t q, int64_t pt)
    {
        if (a.union_ab) ((TC *) Ox) [q] = gcu_cast<TC> (SR::mult (scalar<X> (a.alpha),
            gcu_cast<Y> (((const TB *) a.Tx) [pt]), 0, 0, 0)) ;
        else ((TC *) Ox) [q] = gcu_cast<TC> (((const TB *) a.Tx) [pt]) ;
    }
    static GCU_HD void from_both (const gcu_merge_args &a, void *Ox, int64_t q, int64_t pc, int64_t pt)
    {
        if (!a.accum) { from_t (a, Ox, q, pt) ; return ; }
        const Y y = gcu_cast<Y> (((const TB *) a.Tx) [pt]) ;
        ((TC *) Ox) [q] = gcu_cast<TC> (SR::mult (c_value (a, pc), y, 0, 0, 0)) ;
    }
} ;

// Row i: its entry count, and with FILL its entries from out on (Oj, Ox).
template <bool FILL, class V>
GCU_HD int64_t gcu_merge_row (const gcu_merge_args &a, int64_t i, int64_t *Oj,
    void *Ox, int64_t out)
{
    int64_t pc = 0, ec = 0, pm = 0, em = 0 ;
    if (a.Cp != 0) { pc = gcu_merge_ld (a.Cp, i, a.c_idx64) ; ec = gcu_merge_ld (a.Cp, i + 1, a.c_idx64) ; }
    if (a.Mp != 0) { pm = gcu_merge_ld (a.Mp, i, a.m_idx64) ; em = gcu_merge_ld (a.Mp, i + 1, a.m_idx64) ; }
    int64_t pt = gcu_merge_ld (a.Tp, i, a.t_idx64) ;
    const int64_t et = gcu_merge_ld (a.Tp, i + 1, a.t_idx64) ;
    const int64_t none = (int64_t) 0x7fffffffffffffffLL ;
    int64_t n = 0 ;
    while (pc < ec || pt < et)
    {
        const int64_t jc = pc < ec ? gcu_merge_ld (a.Cj, pc, a.c_idx64) : none ;
        const int64_t jt = pt < et ? gcu_merge_ld (a.Tj, pt, a.t_idx64) : none ;
        const int64_t j = jc < jt ? jc : jt ;
        const bool hc = jc == j, ht = jt == j ;
        bool t = true ;
        if (a.Mp != 0)
        {
            while (pm < em && gcu_merge_ld (a.Mj, pm, a.m_idx64) < j) pm++ ;
            t = pm < em && gcu_merge_ld (a.Mj, pm, a.m_idx64) == j
                && (a.structural || gcu_merge_mask_value (a, pm)) ;
            if (a.complement) t = !t ;
        }
        // which value the result takes: 1 C's, 2 T's, 3 both (accum), 0 none
        int take = 0 ;
        if (t && a.intersect) take = (hc && ht) ? 3 : 0 ;
        else if (t) take = a.accum ? (hc ? 1 : 0) | (ht ? 2 : 0) : (ht ? 2 : 0) ;
        else if (hc && !a.replace) take = 1 ;
        if (take != 0)
        {
            if (FILL)
            {
                const int64_t q = out + n ;
                Oj [q] = j ;
                if (take == 1) V::from_c (a, Ox, q, pc) ;
                else if (take == 2) V::from_t (a, Ox, q, pt) ;
                else V::from_both (a, Ox, q, pc, pt) ;
            }
            n++ ;
        }
        if (hc) pc++ ;
        if (ht) pt++ ;
    }
    return n ;
}

#endif
