// test_spmm_gpu_nan.h — test_spmm_gpu's NaN trials: C = A*X under PLUS_TIMES
// (FP32 or FP64) with NaNs of both signs and payloads and infinities in X,
// and SDDMM C<M> = X*Y' with them in X and Y, compared with SuiteSparse bit
// for bit wherever the bits are determined. Included once, by
// test_spmm_gpu.c.
//
// What is determined: an entry whose terms hold at most one source of a
// NaN (one NaN term, one 0 * inf, or infinities of both signs meeting)
// has one right answer, that NaN quieted with its sign and payload kept
// (x86's rule; 0 * inf and inf - inf give the host's default NaN), and
// every entry without a NaN is exact. Where two sources meet in one sum
// SuiteSparse itself keeps one or the other by the order its compiled
// kernel gives the operands: on the CPU machine, C = A*X with X full kept
// the first of two NaN terms where X had one column and the last where it
// had two or more (SuiteSparse 7.4, 2026-11-26; bench/RESULTS.md), so any
// of the candidates is right there, and the test asks for one of them, on
// both sides. A zero compares by value, as the differential tester compares
// it: the sign of a sum of negative zeros is SuiteSparse's method's too (the
// same CPU check saw +0 where a sum in column order gives -0).

typedef struct
{
    int sources ;           // NaN sources among the entry's terms
    int ncand ;
    uint64_t cand [8] ;     // their NaNs, quieted (the default NaN too)
} nan_srcs ;

static uint64_t nan_bits (const void *V, GrB_Index p, bool f32)
{
    if (f32) { uint32_t b ; memcpy (&b, (const float *) V + p, 4) ; return b ; }
    uint64_t b ; memcpy (&b, (const double *) V + p, 8) ; return b ;
}

static double nan_value (uint64_t b, bool f32)
{
    if (f32) { uint32_t u = (uint32_t) b ; float f ; memcpy (&f, &u, 4) ; return f ; }
    double d ; memcpy (&d, &b, 8) ; return d ;
}

static void nan_add (nan_srcs *s, uint64_t b)
{
    s->sources++ ;
    for (int q = 0 ; q < s->ncand ; q++) if (s->cand [q] == b) return ;
    if (s->ncand < 8) s->cand [s->ncand++] = b ;
}

// the NaN sources of C(i,j) = sum over k of A(i,k) * X(k,j): Ad (m-by-kd,
// bits, present where Ap) and Xd (kd-by-n, bits), both row-major
static nan_srcs nan_sources (const uint64_t *Ad, const bool *Ap, const uint64_t *Xd, GrB_Index kd,
    GrB_Index n, GrB_Index i, GrB_Index j, bool f32)
{
    const uint64_t quiet = f32 ? 0x00400000u : 0x0008000000000000ull ;
    const uint64_t dflt = f32 ? 0xffc00000u : 0xfff8000000000000ull ;
    nan_srcs s = { 0, 0, { 0 } } ;
    bool pinf = false, ninf = false ;
    for (GrB_Index k = 0 ; k < kd ; k++)
    {
        if (!Ap [i * kd + k]) continue ;
        const uint64_t ab = Ad [i * kd + k], xb = Xd [k * n + j] ;
        const double a = nan_value (ab, f32), x = nan_value (xb, f32) ;
        if (isnan (a)) nan_add (&s, ab | quiet) ;
        else if (isnan (x)) nan_add (&s, xb | quiet) ;
        else if ((isinf (x) && a == 0) || (isinf (a) && x == 0)) nan_add (&s, dflt) ;
        else if (isinf (a * x)) *((a * x > 0) ? &pinf : &ninf) = true ;
    }
    if (pinf && ninf) nan_add (&s, dflt) ;
    return s ;
}

static bool nan_candidate (const nan_srcs *s, uint64_t b)
{
    for (int q = 0 ; q < s->ncand ; q++) if (s->cand [q] == b) return true ;
    return false ;
}

// C's values as bits in a dense m-by-n array, present where P
static void nan_dense (GrB_Matrix C, bool f32, GrB_Index m, GrB_Index n, uint64_t *D, bool *P)
{
    GrB_Index nv = 0 ;
    OK (GrB_Matrix_nvals (&nv, C)) ;
    GrB_Index *I = malloc ((nv + 1) * sizeof (GrB_Index)), *J = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    void *V = malloc ((nv + 1) * 8) ;
    memset (P, 0, m * n) ;
    if (I && J && V)
    {
        if (f32) OK (GrB_Matrix_extractTuples_FP32 (I, J, V, &nv, C)) ;
        else OK (GrB_Matrix_extractTuples_FP64 (I, J, V, &nv, C)) ;
        for (GrB_Index p = 0 ; p < nv ; p++)
        {
            D [I [p] * n + J [p]] = nan_bits (V, p, f32) ;
            P [I [p] * n + J [p]] = true ;
        }
    }
    else CHECK (false, "nan trial: out of memory") ;
    free (I) ; free (J) ; free (V) ;
}

// C1 (grbcuda) against C2 (SuiteSparse) entry by entry, as the header says;
// the first few differences printed with their candidates
static void nan_compare (GrB_Matrix A, GrB_Matrix X, GrB_Matrix C1, GrB_Matrix C2, bool f32,
    GrB_Index m, GrB_Index kd, GrB_Index n)
{
    uint64_t *Ad = calloc (m * kd + 1, 8), *Xd = calloc (kd * n + 1, 8) ;
    uint64_t *D1 = calloc (m * n + 1, 8), *D2 = calloc (m * n + 1, 8) ;
    bool *Ap = calloc (m * kd + 1, 1), *Xp = calloc (kd * n + 1, 1) ;
    bool *P1 = calloc (m * n + 1, 1), *P2 = calloc (m * n + 1, 1) ;
    if (!Ad || !Xd || !D1 || !D2 || !Ap || !Xp || !P1 || !P2) { CHECK (false, "nan trial: out of memory") ; goto done ; }
    nan_dense (A, f32, m, kd, Ad, Ap) ;
    nan_dense (X, f32, kd, n, Xd, Xp) ;
    nan_dense (C1, f32, m, n, D1, P1) ;
    nan_dense (C2, f32, m, n, D2, P2) ;
    int exact = 0, nnan = 0, met = 0, bad = 0 ;
    for (GrB_Index p = 0 ; p < m * n ; p++)
    {
        if (!P1 [p] && !P2 [p]) continue ;
        const nan_srcs s = nan_sources (Ad, Ap, Xd, kd, n, p / n, p % n, f32) ;
        const bool isn = P1 [p] && isnan (nan_value (D1 [p], f32)) ;
        nnan += isn ;
        bool ok ;
        if (s.sources < 2)
        {
            // one source: its NaN, quieted, on both sides (the model checked
            // against SuiteSparse too)
            const bool zeros = nan_value (D1 [p], f32) == 0 && nan_value (D2 [p], f32) == 0 ;
            ok = P1 [p] == P2 [p] && (D1 [p] == D2 [p] || zeros) && (!isn || D1 [p] == s.cand [0]) ;
            exact += isn ;
        }
        else
        {
            ok = P1 [p] && P2 [p] && nan_candidate (&s, D1 [p]) && nan_candidate (&s, D2 [p]) ;
            met++ ;
        }
        if (!ok && bad++ < 4)
        {
            printf ("  nan trial: C(%llu,%llu) grbcuda %s%llx, SuiteSparse %s%llx, %d NaN sources:",
                (unsigned long long) (p / n), (unsigned long long) (p % n), P1 [p] ? "" : "(none) ",
                (unsigned long long) D1 [p], P2 [p] ? "" : "(none) ", (unsigned long long) D2 [p], s.sources) ;
            for (int q = 0 ; q < s.ncand ; q++) printf (" %llx", (unsigned long long) s.cand [q]) ;
            printf ("\n") ;
        }
    }
    printf ("nan trial %s: %d NaNs, %d of one source (bit for bit), %d where sources meet\n",
        f32 ? "FP32" : "FP64", nnan, exact, met) ;
    CHECK (bad == 0, "nan trial %s: %d entries differ from SuiteSparse", f32 ? "FP32" : "FP64", bad) ;
    CHECK (exact > 0, "nan trial: no NaN of one source in C (the test tests nothing)") ;
done:
    free (Ad) ; free (Xd) ; free (D1) ; free (D2) ; free (Ap) ; free (Xp) ; free (P1) ; free (P2) ;
}

// the trial: A 300-by-57 (an explicit zero among its entries), X 57-by-128
// full with 12 NaNs and infinities; the row kernel (GCU_SPMM_NAT's native
// sums for these semirings, a row holding a NaN summed again with the
// host's rules)
// cnt NaNs (a quiet one with a payload, a signalling one, the default)
// and infinities of both signs in X (r-by-c) at random, in the columns of
// X of parity par (-1: any)
static void nan_put (GrB_Matrix X, bool f32, GrB_Index r, GrB_Index c, int cnt, int par,
    uint64_t *st)
{
    const uint64_t b64 [] = { 0x7ff8000000001234ull, 0xfff0000000000007ull, 0x7ff0000000000000ull,
        0xfff0000000000000ull, 0xfff8000000000000ull } ;
    const uint32_t b32 [] = { 0x7fc01234u, 0xff800007u, 0x7f800000u, 0xff800000u, 0xffc00000u } ;
    for (int q = 0 ; q < cnt ; q++)
    {
        const GrB_Index i = gcu_rand (st) % r ;
        GrB_Index j = gcu_rand (st) % c ;
        if (par >= 0 && (int) (j % 2) != par) j = (j + 1) % c ;
        const int w = q % 5 ;
        if (f32) { float v ; memcpy (&v, &b32 [w], 4) ; OK (GrB_Matrix_setElement_FP32 (X, v, i, j)) ; }
        else { double v ; memcpy (&v, &b64 [w], 8) ; OK (GrB_Matrix_setElement_FP64 (X, v, i, j)) ; }
    }
}

static void nan_trial (GrB_Semiring s, GrB_Type t, uint64_t *st)
{
    const GrB_Index m = 300, kd = 57, n = 128 ;
    const bool f32 = t == GrB_FP32 ;
    GrB_Matrix A = sparse_a (t, m, kd, 0, st), X = full (t, kd, n, false, false, st) ;
    GrB_Matrix C1 = NULL, C2 = NULL ;
    nan_put (X, f32, kd, n, 12, -1, st) ;
    OK (GrB_Matrix_setElement_FP64 (A, 0, 7, 3)) ;     // an explicit zero
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    OK (GrB_Matrix_wait (X, GrB_MATERIALIZE)) ;
    OK (GrB_Matrix_new (&C1, t, m, n)) ;
    OK (GrB_Matrix_new (&C2, t, m, n)) ;
    grbcuda_op_stats s0, s1 ;
    grbcuda_stats_get ("GrB_mxm", &s0) ;
    OK (GrB_mxm (C1, NULL, NULL, s, A, X, NULL)) ;
    grbcuda_stats_get ("GrB_mxm", &s1) ;
    OK (real_mxm (C2, NULL, NULL, s, A, X, NULL)) ;
    CHECK (s1.gpu == s0.gpu + 1, "nan trial: not on the GPU") ;
    nan_compare (A, X, C1, C2, f32, m, kd, n) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&X) ; GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ;
}

// SDDMM's trial: C<M,struct> = X*Y', X 300-by-kd and Y 200-by-kd full with
// NaNs and infinities (X's in even columns, Y's in odd ones, so that no
// product has two NaN operands, whose order SuiteSparse's compiled multiply
// decides), M at random; the kernel given (rows, runs), its arithmetic
// native (NAT: a batch holding a NaN summed again with the host's rules)
// or not. Compared as C = A*X's are, with A = X and X = Y'.
static void sddmm_nan_trial (GrB_Semiring s, GrB_Type t, GrB_Index kd, const char *kernel,
    const char *nat, uint64_t *st)
{
    const GrB_Index m = 300, n = 200 ;
    const bool f32 = t == GrB_FP32 ;
    GrB_Matrix X = full (t, m, kd, false, false, st), Y = full (t, n, kd, false, false, st) ;
    GrB_Matrix M = gcu_test_random_matrix (GrB_BOOL, m, n, 0.3, st) ;
    GrB_Matrix Yt = NULL, C1 = NULL, C2 = NULL ;
    nan_put (X, f32, m, kd, 24, 0, st) ;
    nan_put (Y, f32, n, kd, 24, 1, st) ;
    OK (GrB_Matrix_wait (X, GrB_MATERIALIZE)) ;
    OK (GrB_Matrix_wait (Y, GrB_MATERIALIZE)) ;
    OK (GrB_Matrix_new (&Yt, t, kd, n)) ;
    OK (real_transpose (Yt, NULL, NULL, Y, NULL)) ;
    OK (GrB_Matrix_new (&C1, t, m, n)) ;
    OK (GrB_Matrix_new (&C2, t, m, n)) ;
    setenv ("GRBCUDA_SDDMM_KERNEL", kernel, 1) ;
    setenv ("GRBCUDA_SDDMM_NAT", nat, 1) ;
    const uint64_t r0 = gcu_mxm_sddmm_runs () ;
    OK (GrB_mxm (C1, M, NULL, s, X, Y, GrB_DESC_ST1)) ;
    CHECK (gcu_mxm_sddmm_runs () == r0 + 1, "sddmm nan trial (%s, NAT '%s'): not the sddmm kernel",
        kernel, nat) ;
    unsetenv ("GRBCUDA_SDDMM_KERNEL") ;
    unsetenv ("GRBCUDA_SDDMM_NAT") ;
    OK (real_mxm (C2, M, NULL, s, X, Y, GrB_DESC_ST1)) ;
    printf ("sddmm nan trial, k=%llu, kernel %s, NAT '%s': ", (unsigned long long) kd, kernel, nat) ;
    nan_compare (X, Yt, C1, C2, f32, m, kd, n) ;
    GrB_Matrix_free (&X) ; GrB_Matrix_free (&Y) ; GrB_Matrix_free (&M) ; GrB_Matrix_free (&Yt) ;
    GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ;
}
