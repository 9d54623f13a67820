// test_merge_emu.cpp — the device write-back's row merge
// (cuda/writeback/gcu_merge.cuh: C<M,replace> = accum (C, T)) run on the CPU
// over whole matrices, against SuiteSparse's GrB_Matrix_assign with GrB_ALL
// (the same C<M,replace> = accum (C, T), typecasts included), for
//   - the values copied as bytes (no accum, C of T's type) and typed (a
//     typecast T -> C; accums PLUS, MINUS (not commutative: x is C's
//     value), MAX over floating point with NaN, FIRST, SECOND, LOR);
//   - no mask, valued masks with explicit zeros, structural, complemented,
//     GrB_REPLACE; C empty, with entries, iso; empty rows and columns;
//   - the element-wise T = u op v (eWiseAdd, eWiseMult, eWiseUnion with
//     alpha and beta) against SuiteSparse's own operations.
// Column vectors (n = 1) run the dense-vector write-back too
// (cuda/writeback/gcu_vmerge.cuh: one position at a time over presence
// bytes and values) against the same SuiteSparse result, and again in
// place (w's own image as the result) to the same entries.
// On a GPU the same rows run in the kernels of src/mxm/merge.cu,
// src/vector/vector.cu and the JIT (tests/gpu/test_newest_gpu.c,
// tests/gpu/test_vector_gpu.c, the differential tester).
#include <complex>
extern "C" {
#include <GraphBLAS.h>
}

#include "common/gcu_ops.cuh"
#include "writeback/gcu_merge.cuh"
#include "writeback/gcu_vmerge.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>

static int failures = 0, checks = 0 ;
#define CHECK(cond, ...) do { checks++ ; if (!(cond)) { if (failures++ < 20) { \
    fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__) ; fprintf (stderr, __VA_ARGS__) ; \
    fprintf (stderr, "\n") ; } } } while (0)
#define OK(x) do { GrB_Info i_ = (x) ; CHECK (i_ == GrB_SUCCESS, "%s: %d", #x, (int) i_) ; } while (0)

// the SR struct the JIT generates, by hand: the accum as mult
template <class TC_, class TT_, class X_, class Y_, class Z_, Z_ (*OP) (const X_ &, const Y_ &)>
struct SRX
{
    typedef X_ X ; typedef Y_ Y ; typedef Z_ Z ;
    typedef TC_ TA ; typedef TT_ TB ; typedef TC_ TC ;
    static Z mult (const X &x, const Y &y, int64_t, int64_t, int64_t) { return OP (x, y) ; }
} ;

template <class T> GrB_Type grb_type () ;
template <> GrB_Type grb_type<double> ()  { return GrB_FP64 ; }
template <> GrB_Type grb_type<float> ()   { return GrB_FP32 ; }
template <> GrB_Type grb_type<int32_t> () { return GrB_INT32 ; }
template <> GrB_Type grb_type<int64_t> () { return GrB_INT64 ; }
template <> GrB_Type grb_type<bool> ()    { return GrB_BOOL ; }

// entries of A as (i, j, x) sorted by row, then column; x cast to T by SuiteSparse
template <class T>
static std::vector<std::tuple<GrB_Index, GrB_Index, T>> entries (GrB_Matrix A)
{
    GrB_Index n = 0 ;
    OK (GrB_Matrix_nvals (&n, A)) ;
    std::vector<GrB_Index> I (n + 1), J (n + 1) ;
    std::vector<T> X (n + 1) ;
    GrB_Index got = n ;
    if constexpr (std::is_same<T, double>::value)  OK (GrB_Matrix_extractTuples_FP64 (I.data (), J.data (), X.data (), &got, A)) ;
    if constexpr (std::is_same<T, float>::value)   OK (GrB_Matrix_extractTuples_FP32 (I.data (), J.data (), X.data (), &got, A)) ;
    if constexpr (std::is_same<T, int32_t>::value) OK (GrB_Matrix_extractTuples_INT32 (I.data (), J.data (), X.data (), &got, A)) ;
    if constexpr (std::is_same<T, int64_t>::value) OK (GrB_Matrix_extractTuples_INT64 (I.data (), J.data (), X.data (), &got, A)) ;
    if constexpr (std::is_same<T, bool>::value)
    {
        std::vector<uint8_t> B (n + 1) ;
        OK (GrB_Matrix_extractTuples_UINT8 (I.data (), J.data (), B.data (), &got, A)) ;
        for (GrB_Index k = 0 ; k < got ; k++) X [k] = B [k] != 0 ;
    }
    std::vector<std::tuple<GrB_Index, GrB_Index, T>> e ;
    for (GrB_Index k = 0 ; k < got ; k++) e.emplace_back (I [k], J [k], X [k]) ;
    std::sort (e.begin (), e.end (), [] (const auto &a, const auto &b)
        { return std::get<0> (a) != std::get<0> (b) ? std::get<0> (a) < std::get<0> (b) : std::get<1> (a) < std::get<1> (b) ; }) ;
    return e ;
}

// values of type T in memory (bool as one byte 0/1, like bool)
template <class T> using store = std::vector<typename std::conditional<std::is_same<T, bool>::value, uint8_t, T>::type> ;

// CSR of A's entries (32- or 64-bit indices), values of type T
template <class T>
struct host_csr
{
    std::vector<uint64_t> p64, j64 ;
    std::vector<uint32_t> p32, j32 ;
    store<T> x ;
    bool w64 ;
    host_csr (GrB_Matrix A, GrB_Index m, bool w64_) : w64 (w64_)
    {
        auto e = entries<T> (A) ;
        std::vector<uint64_t> p (m + 1, 0) ;
        for (auto &t : e) p [std::get<0> (t) + 1]++ ;
        for (GrB_Index i = 0 ; i < m ; i++) p [i + 1] += p [i] ;
        for (auto &t : e) { j64.push_back (std::get<1> (t)) ; x.push_back (std::get<2> (t)) ; }
        p64 = p ;
        for (auto v : p64) p32.push_back ((uint32_t) v) ;
        for (auto v : j64) j32.push_back ((uint32_t) v) ;
        x.push_back (0) ;
    }
    const void *P () const { return w64 ? (const void *) p64.data () : (const void *) p32.data () ; }
    const void *J () const { return w64 ? (const void *) j64.data () : (const void *) j32.data () ; }
} ;

static GrB_Matrix random_matrix (GrB_Type t, GrB_Index m, GrB_Index n, double d, std::mt19937_64 &rng,
    bool zeros, bool nans)
{
    GrB_Matrix A = NULL ;
    OK (GrB_Matrix_new (&A, t, m, n)) ;
    std::uniform_real_distribution<double> u (0, 1) ;
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        if (i % 7 == 3) continue ;                      // empty rows
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            if (j % 11 == 5 || u (rng) >= d) continue ;  // empty columns
            double v = (double) ((int) (rng () % 9) - 4) ;
            if (zeros && rng () % 4 == 0) v = 0 ;
            if (nans && rng () % 8 == 0) v = NAN ;
            OK (GrB_Matrix_setElement_FP64 (A, v, i, j)) ;
        }
    }
    return A ;
}

// A's entries as a dense image: a presence byte and a value (T) per row of
// an m-by-1 A
template <class T>
static void dense_image (GrB_Matrix A, GrB_Index m, std::vector<int8_t> &b, store<T> &x)
{
    b.assign (m + 1, 0) ;
    x.assign (m + 1, 0) ;
    if (A == NULL) return ;
    for (auto &e : entries<T> (A)) { b [std::get<0> (e)] = 1 ; x [std::get<0> (e)] = std::get<2> (e) ; }
}

// the dense-vector write-back of an m-by-1 case, against SuiteSparse's R
template <class V, class TC, class TT>
static bool vector_merge (const gcu_merge_args &m_args, GrB_Matrix C, GrB_Matrix T, GrB_Matrix M,
    int mask, GrB_Matrix R)
{
    const GrB_Index m = (GrB_Index) m_args.m ;
    std::vector<int8_t> cb, tb, mb, ob (m + 1, 0) ;
    store<TC> cx, ox (m + 1) ;
    store<TT> tx ;
    store<double> mx ;
    GrB_Index cn = 0 ;
    OK (GrB_Matrix_nvals (&cn, C)) ;
    dense_image<TC> (C, m, cb, cx) ;
    dense_image<TT> (T, m, tb, tx) ;
    dense_image<double> (M, m, mb, mx) ;
    std::vector<uint8_t> ms ;
    for (double v : mx) ms.push_back (v != 0) ;
    gcu_vmerge_args a ;
    memset (&a, 0, sizeof (a)) ;
    a.v = m_args ;
    a.v.c_iso = false ;                 // an image holds every value
    a.v.Cx = cn > 0 ? (const void *) cx.data () : NULL ;
    a.Cb = cb.data () ;
    a.v.Tx = tx.data () ;
    a.Tb = tb.data () ;
    a.mask = M != NULL ;
    a.Mb = mb.data () ;
    a.v.Mx = mask == 2 ? (const void *) ms.data () : (const void *) mx.data () ;
    a.v.msize = mask == 2 ? 1 : 8 ;
    a.Ob = ob.data () ;
    a.Ox = ox.data () ;
    GrB_Index count = 0 ;
    for (GrB_Index i = 0 ; i < m ; i++) count += gcu_vmerge_at<V> (a, (int64_t) i) ;
    auto want = entries<TC> (R) ;
    bool same = want.size () == count ;
    for (auto &e : want)
    {
        const GrB_Index i = std::get<0> (e) ;
        const TC x = (TC) ox [i], y = std::get<2> (e) ;
        same = same && ob [i] && ((x == y) || (std::is_floating_point<TC>::value && x != x && y != y)) ;
    }
    // the same in place (the result is w's own image: gcu_vec_write_back on
    // a device-newest w, which writes only what changes): the same entries
    std::vector<int8_t> ib (cb) ;
    store<TC> ix (cx) ;
    gcu_vmerge_args b = a ;
    b.v.Cx = ix.data () ;
    b.Cb = ib.data () ;
    b.Ob = ib.data () ;
    b.Ox = ix.data () ;
    GrB_Index icount = 0 ;
    for (GrB_Index i = 0 ; i < m ; i++) icount += gcu_vmerge_at<V> (b, (int64_t) i) ;
    same = same && icount == count ;
    for (GrB_Index i = 0 ; i < m ; i++)
    {
        const TC x = (TC) ix [i], y = (TC) ox [i] ;
        same = same && ib [i] == ob [i] && (!ob [i] || (x == y)
            || (std::is_floating_point<TC>::value && x != x && y != y)) ;
    }
    return same ;
}

// one case: C<M,replace> = accum (C, T) by the merge and by SuiteSparse
template <class SR, bool BYTES>
static void one (const char *name, GrB_BinaryOp accum, int q, std::mt19937_64 &rng, bool vec = false)
{
    typedef typename SR::TC TC ;
    typedef typename SR::TB TT ;
    const int mask = q % 3 ;                    // 0 none, 1 valued (FP64, zeros), 2 structural (BOOL)
    const bool comp = mask != 0 && (q / 3) % 2, replace = (q / 6) % 2 ;
    const int cstate = (q / 12) % 3 ;           // 0 empty, 1 entries, 2 iso
    const bool w64 = (q / 36) % 2 ;
    const GrB_Index m = 20 + (GrB_Index) (rng () % 40), n = vec ? 1 : 15 + (GrB_Index) (rng () % 50) ;
    const bool nans = std::is_floating_point<TT>::value ;
    GrB_Matrix T = random_matrix (grb_type<TT> (), m, n, 0.3, rng, true, nans) ;
    GrB_Matrix C = NULL, M = NULL, R = NULL ;
    if (cstate == 1) C = random_matrix (grb_type<TC> (), m, n, 0.3, rng, false, false) ;
    else
    {
        OK (GrB_Matrix_new (&C, grb_type<TC> (), m, n)) ;
        if (cstate == 2)
        {
            GrB_Matrix P = random_matrix (GrB_BOOL, m, n, 0.3, rng, false, false) ;
            OK (GrB_Matrix_assign_INT32 (C, P, NULL, 3, GrB_ALL, m, GrB_ALL, n, GrB_DESC_S)) ;
            GrB_Matrix_free (&P) ;
        }
    }
    if (mask == 1) M = random_matrix (GrB_FP64, m, n, 0.5, rng, true, false) ;
    if (mask == 2) M = random_matrix (GrB_BOOL, m, n, 0.5, rng, false, false) ;
    OK (GrB_Matrix_dup (&R, C)) ;
    GrB_Descriptor d = NULL ;
    OK (GrB_Descriptor_new (&d)) ;
    if (comp) OK (GrB_Descriptor_set (d, GrB_MASK, GrB_COMP)) ;
    if (mask == 2) OK (GrB_Descriptor_set (d, GrB_MASK, GrB_STRUCTURE)) ;
    if (replace) OK (GrB_Descriptor_set (d, GrB_OUTP, GrB_REPLACE)) ;
    OK (GrB_Matrix_assign (R, M, accum, T, GrB_ALL, m, GrB_ALL, n, d)) ;

    host_csr<TC> hc (C, m, w64) ;
    host_csr<TT> ht (T, m, !w64) ;
    host_csr<double> hm (M != NULL ? M : C, m, w64) ;       // a mask's values as FP64 bytes
    std::vector<uint8_t> mb ;
    if (mask == 2) for (double v : hm.x) mb.push_back (v != 0) ;
    TC iso_value = (TC) 3 ;
    gcu_merge_args a ;
    memset (&a, 0, sizeof (a)) ;
    a.m = (int64_t) m ;
    a.Cp = hc.j64.empty () ? NULL : hc.P () ; a.Cj = hc.J () ;
    a.Cx = cstate == 2 ? (const void *) &iso_value : (const void *) hc.x.data () ;
    a.c_idx64 = w64 ; a.c_iso = cstate == 2 ;
    a.Tp = ht.P () ; a.Tj = ht.J () ; a.Tx = ht.x.data () ; a.t_idx64 = !w64 ;
    a.Mp = M != NULL ? hm.P () : NULL ; a.Mj = hm.J () ;
    a.Mx = mask == 2 ? (const void *) mb.data () : (const void *) hm.x.data () ;
    a.m_idx64 = w64 ;
    a.csize = sizeof (TC) ; a.tsize = sizeof (TT) ; a.msize = mask == 2 ? 1 : 8 ;
    a.structural = mask == 2 ; a.complement = comp ; a.replace = replace ; a.accum = accum != NULL ;
    typedef typename std::conditional<BYTES, gcu_merge_bytes, gcu_merge_typed<SR>>::type V ;
    std::vector<int64_t> Op (m + 1, 0) ;
    for (GrB_Index i = 0 ; i < m ; i++) Op [i + 1] = Op [i] + gcu_merge_row<false, V> (a, (int64_t) i, NULL, NULL, 0) ;
    std::vector<int64_t> Oj (Op [m] + 1) ;
    store<TC> Ox (Op [m] + 1) ;
    for (GrB_Index i = 0 ; i < m ; i++) (void) gcu_merge_row<true, V> (a, (int64_t) i, Oj.data (), Ox.data (), Op [i]) ;

    auto want = entries<TC> (R) ;
    bool same = (int64_t) want.size () == Op [m] ;
    for (GrB_Index i = 0, k = 0 ; same && i < m ; i++)
        for (int64_t p = Op [i] ; same && p < Op [i + 1] ; p++, k++)
        {
            const TC x = (TC) Ox [p], y = std::get<2> (want [k]) ;
            const bool eq = (x == y) || (std::is_floating_point<TC>::value && x != x && y != y) ;
            same = std::get<0> (want [k]) == i && (int64_t) std::get<1> (want [k]) == Oj [p] && eq ;
        }
    CHECK (same, "%s, case %d (mask %d%s%s, C %s): %lld entries, SuiteSparse %zu", name, q, mask,
        comp ? " complemented" : "", replace ? " replace" : "",
        cstate == 0 ? "empty" : cstate == 1 ? "entries" : "iso", (long long) Op [m], want.size ()) ;
    if (vec)
        CHECK ((vector_merge<V, TC, TT> (a, C, T, M, mask, R)), "%s, vector case %d (mask %d%s%s, C %s)",
            name, q, mask, comp ? " complemented" : "", replace ? " replace" : "",
            cstate == 0 ? "empty" : cstate == 1 ? "entries" : "iso") ;
    GrB_Descriptor_free (&d) ;
    GrB_Matrix_free (&T) ; GrB_Matrix_free (&C) ; GrB_Matrix_free (&M) ; GrB_Matrix_free (&R) ;
}

template <class T> static T first_op (const T &x, const T &) { return x ; }

// the element-wise SR (src/vector/ewise.c): u as the "w" side (TA), v as T
// (TB), the result of the op's z type (TC)
template <class TU_, class TV_, class X_, class Y_, class Z_, Z_ (*OP) (const X_ &, const Y_ &)>
struct SRE
{
    typedef X_ X ; typedef Y_ Y ; typedef Z_ Z ;
    typedef TU_ TA ; typedef TV_ TB ; typedef Z_ TC ;
    static Z mult (const X &x, const Y &y, int64_t, int64_t, int64_t) { return OP (x, y) ; }
} ;

template <class T> static bool lt_op (const T &x, const T &y) { return x < y ; }

// T = u op v by the dense-vector kernel (kind 0, eWiseAdd: the union; 1,
// eWiseMult: the intersection; 2, eWiseUnion: the union with alpha and beta
// for a missing side, given as FP64 scalars and cast to the op's x and y
// here as SuiteSparse casts them), v full (no presence bytes) or not,
// against SuiteSparse's GrB_eWiseAdd / GrB_eWiseMult / GxB_eWiseUnion of
// m-by-1 matrices
template <class SR>
static void ewise (const char *name, GrB_BinaryOp op, int kind, int q, std::mt19937_64 &rng,
    double alpha = 0, double beta = 0)
{
    const bool mult = kind == 1, onion = kind == 2 ;
    GrB_Scalar sa = NULL, sb = NULL ;
    OK (GrB_Scalar_new (&sa, GrB_FP64)) ;
    OK (GrB_Scalar_new (&sb, GrB_FP64)) ;
    OK (GrB_Scalar_setElement_FP64 (sa, alpha)) ;
    OK (GrB_Scalar_setElement_FP64 (sb, beta)) ;
    uint64_t ab [2][2] = { { 0, 0 }, { 0, 0 } } ;
    {
        // alpha as the op's x, beta as its y, through SuiteSparse's casts
        // (a 1-by-1 matrix of each type)
        GrB_Matrix t = NULL ;
        typename SR::X x {} ; typename SR::Y y {} ;
        OK (GrB_Matrix_new (&t, grb_type<typename SR::X> (), 1, 1)) ;
        OK (GrB_Matrix_setElement_FP64 (t, alpha, 0, 0)) ;
        auto ex = entries<typename SR::X> (t) ;
        if (!ex.empty ()) x = std::get<2> (ex [0]) ;
        GrB_Matrix_free (&t) ;
        OK (GrB_Matrix_new (&t, grb_type<typename SR::Y> (), 1, 1)) ;
        OK (GrB_Matrix_setElement_FP64 (t, beta, 0, 0)) ;
        auto ey = entries<typename SR::Y> (t) ;
        if (!ey.empty ()) y = std::get<2> (ey [0]) ;
        GrB_Matrix_free (&t) ;
        memcpy (ab [0], &x, sizeof (x)) ;
        memcpy (ab [1], &y, sizeof (y)) ;
    }
    typedef typename SR::TA TU ; typedef typename SR::TB TV ; typedef typename SR::TC Z ;
    const bool vfull = q % 3 == 2, uempty = q % 5 == 4 ;
    const GrB_Index m = 20 + (GrB_Index) (rng () % 40) ;
    GrB_Matrix U = NULL, V = NULL, R = NULL ;
    if (uempty) OK (GrB_Matrix_new (&U, grb_type<TU> (), m, 1)) ;
    else U = random_matrix (grb_type<TU> (), m, 1, 0.5, rng, true, std::is_floating_point<TU>::value) ;
    if (vfull)
    {
        OK (GrB_Matrix_new (&V, grb_type<TV> (), m, 1)) ;
        for (GrB_Index i = 0 ; i < m ; i++) OK (GrB_Matrix_setElement_FP64 (V, (double) ((int) (rng () % 9) - 4), i, 0)) ;
    }
    else V = random_matrix (grb_type<TV> (), m, 1, 0.5, rng, true, std::is_floating_point<TV>::value) ;
    OK (GrB_Matrix_new (&R, grb_type<Z> (), m, 1)) ;
    if (mult) OK (GrB_Matrix_eWiseMult_BinaryOp (R, NULL, NULL, op, U, V, NULL)) ;
    else if (onion) OK (GxB_Matrix_eWiseUnion (R, NULL, NULL, op, U, sa, V, sb, NULL)) ;
    else OK (GrB_Matrix_eWiseAdd_BinaryOp (R, NULL, NULL, op, U, V, NULL)) ;
    std::vector<int8_t> ub, vb, ob (m + 1, 0) ;
    store<TU> ux ;
    store<TV> vx ;
    store<Z> ox (m + 1) ;
    dense_image<TU> (U, m, ub, ux) ;
    dense_image<TV> (V, m, vb, vx) ;
    GrB_Index un = 0 ;
    OK (GrB_Matrix_nvals (&un, U)) ;
    gcu_vmerge_args a ;
    memset (&a, 0, sizeof (a)) ;
    a.v.m = (int64_t) m ;
    a.v.accum = true ;
    a.v.csize = sizeof (Z) ; a.v.tsize = sizeof (TV) ;
    a.v.Cx = un > 0 ? (const void *) ux.data () : NULL ;
    a.Cb = ub.data () ;
    a.v.Tx = vx.data () ;
    a.Tb = vfull ? NULL : vb.data () ;
    a.v.intersect = mult ;
    a.v.union_ab = onion ;
    memcpy (a.v.alpha, ab [0], 16) ;
    memcpy (a.v.beta, ab [1], 16) ;
    a.Ob = ob.data () ;
    a.Ox = ox.data () ;
    GrB_Index count = 0 ;
    for (GrB_Index i = 0 ; i < m ; i++) count += gcu_vmerge_at<gcu_merge_typed<SR>> (a, (int64_t) i) ;
    auto want = entries<Z> (R) ;
    bool same = want.size () == count ;
    for (auto &e : want)
    {
        const GrB_Index i = std::get<0> (e) ;
        const Z x = (Z) ox [i], y = std::get<2> (e) ;
        same = same && ob [i] && ((x == y) || (std::is_floating_point<Z>::value && x != x && y != y)) ;
    }
    CHECK (same, "%s, element-wise case %d (%s%s%s): %llu entries, SuiteSparse %zu", name, q,
        mult ? "mult" : onion ? "union" : "add", vfull ? ", v full" : "", uempty ? ", u empty" : "",
        (unsigned long long) count, want.size ()) ;
    // the matrix form (src/mxm/mxm_ewise.c): the row merge over the CSR of
    // the m-by-1 U (as C) and V (as T), 32- and 64-bit indices
    host_csr<TU> hu (U, m, q % 2) ;
    host_csr<TV> hv (V, m, !(q % 2)) ;
    gcu_merge_args b ;
    memset (&b, 0, sizeof (b)) ;
    b.m = (int64_t) m ;
    b.Cp = un > 0 ? hu.P () : NULL ; b.Cj = hu.J () ; b.Cx = hu.x.data () ; b.c_idx64 = q % 2 ;
    b.Tp = hv.P () ; b.Tj = hv.J () ; b.Tx = hv.x.data () ; b.t_idx64 = !(q % 2) ;
    b.csize = sizeof (Z) ; b.tsize = sizeof (TV) ;
    b.accum = true ; b.intersect = mult ; b.union_ab = onion ;
    memcpy (b.alpha, ab [0], 16) ;
    memcpy (b.beta, ab [1], 16) ;
    std::vector<int64_t> Op (m + 1, 0) ;
    for (GrB_Index i = 0 ; i < m ; i++)
        Op [i + 1] = Op [i] + gcu_merge_row<false, gcu_merge_typed<SR>> (b, (int64_t) i, NULL, NULL, 0) ;
    std::vector<int64_t> Oj (Op [m] + 1) ;
    store<Z> Ox (Op [m] + 1) ;
    for (GrB_Index i = 0 ; i < m ; i++)
        (void) gcu_merge_row<true, gcu_merge_typed<SR>> (b, (int64_t) i, Oj.data (), Ox.data (), Op [i]) ;
    same = (int64_t) want.size () == Op [m] ;
    for (GrB_Index i = 0, k = 0 ; same && i < m ; i++)
        for (int64_t p = Op [i] ; same && p < Op [i + 1] ; p++, k++)
        {
            const Z x = (Z) Ox [p], y = std::get<2> (want [k]) ;
            same = std::get<0> (want [k]) == i && Oj [p] == 0
                && ((x == y) || (std::is_floating_point<Z>::value && x != x && y != y)) ;
        }
    CHECK (same, "%s, matrix element-wise case %d (%s%s%s): %lld entries, SuiteSparse %zu", name, q,
        mult ? "mult" : onion ? "union" : "add", vfull ? ", v full" : "", uempty ? ", u empty" : "",
        (long long) Op [m], want.size ()) ;
    GrB_Matrix_free (&U) ; GrB_Matrix_free (&V) ; GrB_Matrix_free (&R) ;
    GrB_Scalar_free (&sa) ; GrB_Scalar_free (&sb) ;
}

int main (void)
{
    GrB_init (GrB_NONBLOCKING) ;
    std::mt19937_64 rng (2026) ;
    for (int q = 0 ; q < 144 ; q++)
    {
        const bool vec = q >= 72 ;
        // bytes: no accum, C of T's type
        one<SRX<double, double, double, double, double, gcu_plus<double>>, true> ("bytes FP64", NULL, q % 72, rng, vec) ;
        one<SRX<int32_t, int32_t, int32_t, int32_t, int32_t, gcu_plus<int32_t>>, true> ("bytes INT32", NULL, q % 72, rng, vec) ;
        // typed: a typecast, no accum
        one<SRX<int64_t, float, int64_t, int64_t, int64_t, gcu_plus<int64_t>>, false> ("cast FP32 -> INT64", NULL, q % 72, rng, vec) ;
        one<SRX<bool, double, bool, bool, bool, gcu_lor<bool>>, false> ("cast FP64 -> BOOL", NULL, q % 72, rng, vec) ;
        // typed with an accum
        one<SRX<double, int32_t, double, double, double, gcu_plus<double>>, false> ("accum PLUS_FP64, T INT32", GrB_PLUS_FP64, q % 72, rng, vec) ;
        one<SRX<int32_t, double, int32_t, int32_t, int32_t, gcu_minus<int32_t>>, false> ("accum MINUS_INT32, T FP64", GrB_MINUS_INT32, q % 72, rng, vec) ;
        one<SRX<float, float, float, float, float, gcu_max<float>>, false> ("accum MAX_FP32 (NaN)", GrB_MAX_FP32, q % 72, rng, vec) ;
        one<SRX<double, double, double, double, double, gcu_second<double>>, false> ("accum SECOND_FP64", GrB_SECOND_FP64, q % 72, rng, vec) ;
        one<SRX<int64_t, int32_t, int64_t, int64_t, int64_t, first_op<int64_t>>, false> ("accum FIRST_INT64", GrB_FIRST_INT64, q % 72, rng, vec) ;
        one<SRX<bool, bool, bool, bool, bool, gcu_lor<bool>>, false> ("accum LOR", GrB_LOR, q % 72, rng, vec) ;
    }
    for (int q = 0 ; q < 90 ; q++)
    {
        const int kind = q % 3 ;        // add, mult, union
        // union: alpha and beta cast to the op's x and y (2.5 -> 2 in an
        // integer; NaN -> 0 in an integer, NaN in MIN_FP32)
        const double al = (q / 3) % 2 ? 2.5 : -3, be = (q / 3) % 3 == 1 ? NAN : 7 ;
        ewise<SRE<double, int32_t, double, double, double, gcu_plus<double>>> ("PLUS_FP64 (FP64, INT32)", GrB_PLUS_FP64, kind, q / 3, rng, al, be) ;
        ewise<SRE<double, int32_t, int64_t, int64_t, bool, lt_op<int64_t>>> ("LT_INT64 (FP64, INT32) -> BOOL", GrB_LT_INT64, kind, q / 3, rng, al, be) ;
        ewise<SRE<float, float, float, float, float, gcu_min<float>>> ("MIN_FP32 (NaN)", GrB_MIN_FP32, kind, q / 3, rng, al, be) ;
        ewise<SRE<int32_t, double, int32_t, int32_t, int32_t, gcu_minus<int32_t>>> ("MINUS_INT32 (INT32, FP64)", GrB_MINUS_INT32, kind, q / 3, rng, al, be) ;
    }
    GrB_finalize () ;
    printf ("test_merge_emu: %d passed, %d failed\n", checks - failures, failures) ;
    return failures > 0 ;
}
