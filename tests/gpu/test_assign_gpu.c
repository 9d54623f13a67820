// GRBCUDA_TEST_INTERNAL
// test_assign_gpu.c — GrB_Vector_assign and its scalar forms
// (GrB_Vector_assign_<T>) with the GPU forced, against SuiteSparse's own
// functions (gcu_test_real) on equal inputs: random cases from a fixed seed,
// each with a length (1, 7, 1000, 50000), w of a built-in type (empty,
// sparse, dense, full or device newest), either u (a host vector, sparse to
// full, or device newest: the result of a GPU GrB_mxv) or a scalar x of
// one of the typed forms (small integers, and for the float forms NaN, ±Inf,
// -0 and values out of every integer type's range: the casts must be
// SuiteSparse's), a mask (none, host, device newest, u itself or w itself)
// with each of the 8 mask descriptors (a NULL mask complemented too), an
// accum (none, or a built-in operator of w's type or another), the index
// list GrB_ALL (the GPU's case) or, one case in ten, an explicit list (the
// host's). Checked: the return code, then w's type, pattern and values
// against SuiteSparse's (exact; NaN equals NaN), u and the mask unchanged,
// and that the eligible cases ran on the GPU and left w device newest.
// Then chains (one a 10 cases), a BFS's glue: a device-newest w (never read
// between steps, so that it stays newest and the write-back goes in place)
// through 4 assigns with sparse masks, every descriptor, accums and casts,
// its entry count checked after each step and w in full at the end; some
// steps must have been written back in place.
// Options: --cases N (default 400), --case K (a replay), --seed S,
// --no-gpu (every call passes through: nothing may differ), --self-test (no
// GPU needed: each case's grbcuda result is perturbed, an entry removed,
// added or changed, and every perturbation must be caught).
#define _GNU_SOURCE
#define TEST_NAME "test_assign_gpu"
#include "gcu_vec_cases.h"
#include "vector/gcu_vector.h"

typedef GrB_Info (*assign_v_t) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Vector, const GrB_Index *, GrB_Index, const GrB_Descriptor) ;
static assign_v_t real_assign_v ;
static void *real_assign_s [NT] ;       // SuiteSparse's GrB_Vector_assign_<T>
static void *our_assign_s [NT] ;        // the process's (grbcuda's)

static const char *scalar_fn_name (int t, char *buf, size_t size)
{
    snprintf (buf, size, "%s_Vector_assign_%s", t == FC64_ ? "GxB" : "GrB", TN [t]) ;
    return buf ;
}

#define CALL_S(T, CT, EXPR) ((GrB_Info (*) (GrB_Vector, const GrB_Vector, \
    const GrB_BinaryOp, CT, const GrB_Index *, GrB_Index, const GrB_Descriptor)) f) \
    (w, M, accum, (EXPR), I, ni, desc)

// the typed scalar form of type t through f (grbcuda's or SuiteSparse's);
// the double is cast to the form's C type as a C program would
static GrB_Info assign_scalar (void *f, int t, GrB_Vector w, GrB_Vector M,
    GrB_BinaryOp accum, scal x, const GrB_Index *I, GrB_Index ni, GrB_Descriptor desc)
{
    switch (t)
    {
        case BOOL_:   return CALL_S (t, bool, x.re != 0) ;
        case INT8_:   return CALL_S (t, int8_t, (int8_t) x.re) ;
        case INT32_:  return CALL_S (t, int32_t, (int32_t) x.re) ;
        case INT64_:  return CALL_S (t, int64_t, (int64_t) x.re) ;
        case UINT16_: return CALL_S (t, uint16_t, (uint16_t) x.re) ;
        case UINT64_: return CALL_S (t, uint64_t, (uint64_t) x.re) ;
        case FP32_:   return CALL_S (t, float, (float) x.re) ;
        case FP64_:   return CALL_S (t, double, x.re) ;
        default:      return CALL_S (t, GxB_FC64_t, GxB_CMPLX (x.re, x.im)) ;
    }
}

static uint64_t gpu_calls (void)
{
    grbcuda_op_stats s ;
    uint64_t n = 0 ;
    memset (&s, 0, sizeof (s)) ;
    if (grbcuda_stats_get ("GrB_Vector_assign", &s) == GrB_SUCCESS) n += s.gpu ;
    memset (&s, 0, sizeof (s)) ;
    if (grbcuda_stats_get ("GrB_Vector_assign_scalar", &s) == GrB_SUCCESS) n += s.gpu ;
    return n ;
}

static int cases_scalar = 0, cases_list = 0, cases_iso_host = 0 ;

static void run_case (int k, uint64_t seed)
{
    static const GrB_Index lengths [4] = { 1, 7, 1000, 50000 } ;
    uint64_t s = seed ^ (0x9E3779B97F4A7C15ull * (uint64_t) (k + 1)), *st = &s ;
    const GrB_Index n = lengths [gcu_rand (st) % 4] ;
    const int tw = (int) (gcu_rand (st) % NT), tu = (int) (gcu_rand (st) % NT) ;
    const bool scalar = gcu_rand (st) % 2 ;
    const int wstate = (int) (gcu_rand (st) % 5), ustate = 1 + (int) (gcu_rand (st) % 4) ;
    const int mkind = (int) (gcu_rand (st) % 6) ;     // none, host, host bool, newest, u, w
    const int di = (int) (gcu_rand (st) % 8) ;
    const GrB_Descriptor desc = descs [di] ? *descs [di] : NULL ;
    char accname [64] ;
    GrB_BinaryOp accum = make_accum (tw, st, accname, sizeof (accname)) ;
    const scal x = make_scalar (tu, st) ;
    const bool list = gcu_rand (st) % 10 == 0 ;
    GrB_Index *I = NULL, ni = n ;
    if (list)
    {
        ni = 1 + gcu_rand (st) % n ;
        I = malloc (ni * sizeof (GrB_Index)) ;
        for (GrB_Index p = 0 ; p < ni ; p++) I [p] = gcu_rand (st) % n ;
    }
    const GrB_Index *Iuse = list ? I : GrB_ALL ;

    vec_case c ;
    c.w = make_vector (tw, n, wstate, st) ;
    // u is w itself one case in eight of the vector form
    c.u_is_w = !scalar && !list && gcu_rand (st) % 8 == 0 ;
    c.u = scalar ? NULL : c.u_is_w ? c.w : make_vector (tu, list ? ni : n, list ? 2 : ustate, st) ;
    vec_case_prepare (&c, mkind, c.u != NULL && !list, n, st) ;

    const uint64_t g0 = gpu_calls (), iso0 = gcu_iso_declined () ;
    GrB_Info i1, i2 ;
    if (scalar)
    {
        i1 = assign_scalar (our_assign_s [tu], tu, c.w, c.M, accum, x, Iuse, ni, desc) ;
        i2 = assign_scalar (real_assign_s [tu], tu, c.w2, c.M2, accum, x, Iuse, ni, desc) ;
    }
    else
    {
        i1 = GrB_Vector_assign (c.w, c.M, accum, c.u, Iuse, ni, desc) ;
        i2 = real_assign_v (c.w2, c.M2, accum, c.u2, Iuse, ni, desc) ;
    }
    const bool on_gpu = gpu_calls () > g0 ;
    // (a call left to the host because SuiteSparse's iso status of w is not
    // known here: src/residency/iso_status.c)
    const bool iso_host = gcu_iso_declined () != iso0 ;
    cases_iso_host += iso_host ;
    const bool eligible = !list && !iso_host && !(c.M == NULL && (di == 1 || di == 3 || di == 5 || di == 7)) ;
    cases_run++ ;
    cases_scalar += scalar ;
    cases_list += list ;
    cases_eligible += eligible ;
    cases_gpu += on_gpu ;
    char what [256] ;
    snprintf (what, sizeof (what), "case %d (n %llu, w %s state %d, %s %s%s, mask %d desc %d, "
        "accum %s%s)", k, (unsigned long long) n, TN [tw], wstate, scalar ? "x" : "u", TN [tu],
        scalar ? "" : c.u_is_w ? " = w" : (ustate == 4 ? " newest" : ""), mkind, di, accname,
        list ? ", index list" : "") ;
    vec_case_check (&c, i1, i2, eligible, on_gpu, n, what, st) ;
    free (I) ;
}

// a device-newest vector of type t and SuiteSparse's copy of it (*v2), the
// copy made before: reading the newest one would materialize it, and only a
// w that stays device newest is written back in place
static void newest_pair (int t, GrB_Index n, double density, uint64_t *st, GrB_Vector *v,
    GrB_Vector *v2)
{
    GrB_Vector h = gcu_test_random_vector (TY [t], n, density, st) ;
    OK (GrB_Vector_dup (v2, h)) ;
    *v = make_newest (h, t, n) ;        // h itself if that failed
}

static int chain_steps = 0, chain_gpu = 0 ;

// A BFS's glue: w device newest, then steps w<M> = accum (w, u or x) with
// sparse masks (a frontier: 1% of the positions, on the host or device
// newest), every mask descriptor, accums and casts; after each step w's
// entry count (answered from the device: w stays newest, so the next step
// goes in place again) against SuiteSparse's, at the end w in full.
static void run_chain (int k, uint64_t seed)
{
    uint64_t s = seed ^ (0xC2B2AE3D27D4EB4Full * (uint64_t) (k + 1)), *st = &s ;
    const GrB_Index n = (gcu_rand (st) % 2) ? 1000 : 50000 ;
    const int tw = (int) (gcu_rand (st) % NT) ;
    GrB_Vector w = NULL, w2 = NULL ;
    newest_pair (tw, n, 0.3, st, &w, &w2) ;
    char what [256] ;
    for (int step = 0 ; step < 4 ; step++)
    {
        const int tu = (int) (gcu_rand (st) % NT), tm = (int) (gcu_rand (st) % FC64_) ;
        const bool scalar = gcu_rand (st) % 2, mnewest = gcu_rand (st) % 2 ;
        const int di = (int) (gcu_rand (st) % 8) ;
        const GrB_Descriptor desc = descs [di] ? *descs [di] : NULL ;
        char accname [64] ;
        GrB_BinaryOp accum = make_accum (tw, st, accname, sizeof (accname)) ;
        const scal x = make_scalar (tu, st) ;
        GrB_Vector M = NULL, M2 = NULL, u = NULL, u2 = NULL ;
        if (mnewest) newest_pair (tm, n, 0.01, st, &M, &M2) ;
        else
        {
            M = gcu_test_random_vector (TY [tm], n, 0.01, st) ;
            OK (GrB_Vector_dup (&M2, M)) ;
        }
        if (!scalar)
        {
            u = gcu_test_random_vector (TY [tu], n, 0.5, st) ;
            OK (GrB_Vector_dup (&u2, u)) ;
        }
        snprintf (what, sizeof (what), "chain %d step %d (n %llu, w %s, %s %s, mask %s%s, "
            "desc %d, accum %s)", k, step, (unsigned long long) n, TN [tw], scalar ? "x" : "u",
            TN [tu], TN [tm], mnewest ? " newest" : "", di, accname) ;
        const uint64_t g0 = gpu_calls () ;
        GrB_Info i1, i2 ;
        if (scalar)
        {
            i1 = assign_scalar (our_assign_s [tu], tu, w, M, accum, x, GrB_ALL, n, desc) ;
            i2 = assign_scalar (real_assign_s [tu], tu, w2, M2, accum, x, GrB_ALL, n, desc) ;
        }
        else
        {
            i1 = GrB_Vector_assign (w, M, accum, u, GrB_ALL, n, desc) ;
            i2 = real_assign_v (w2, M2, accum, u2, GrB_ALL, n, desc) ;
        }
        const bool on_gpu = gpu_calls () > g0 ;
        chain_steps++ ;
        chain_gpu += on_gpu ;
        CHECK (i1 == i2, "%s: info %d, SuiteSparse %d", what, (int) i1, (int) i2) ;
        if (on_gpu) CHECK (is_newest (w), "%s left w device newest", what) ;
        GrB_Index nv1 = 0, nv2 = 0 ;
        OK (GrB_Vector_nvals (&nv1, w)) ;
        OK (GrB_Vector_nvals (&nv2, w2)) ;
        CHECK (self_test || nv1 == nv2, "%s: %llu entries, SuiteSparse %llu", what,
            (unsigned long long) nv1, (unsigned long long) nv2) ;
        GrB_Vector_free (&M) ; GrB_Vector_free (&M2) ;
        GrB_Vector_free (&u) ; GrB_Vector_free (&u2) ;
    }
    snprintf (what, sizeof (what), "chain %d (n %llu, w %s)", k, (unsigned long long) n, TN [tw]) ;
    if (self_test) perturb (w, n, st) ;
    const bool same = gcu_test_vector_equal (w, w2, 0, false, what) ;
    if (self_test) caught += !same ;
    else CHECK (same, "%s: w as SuiteSparse's", what) ;
    GrB_Vector_free (&w) ;
    GrB_Vector_free (&w2) ;
}

int main (int argc, char **argv)
{
    int ncases = 400, only = -1 ;
    uint64_t seed = 0xA5516E0ull ;
    const int rc = vec_cases_begin (argc, argv, &ncases, &only, &seed) ;
    if (rc >= 0) return rc ;
    real_assign_v = (assign_v_t) gcu_test_real ("GrB_Vector_assign") ;
    CHECK (real_assign_v != NULL && (void *) real_assign_v != (void *) GrB_Vector_assign,
        "SuiteSparse's GrB_Vector_assign, not the interposed one") ;
    for (int k = 0 ; k < NT ; k++)
    {
        char name [64] ;
        scalar_fn_name (k, name, sizeof (name)) ;
        real_assign_s [k] = gcu_test_real (name) ;
        our_assign_s [k] = dlsym (RTLD_DEFAULT, name) ;
        CHECK (real_assign_s [k] != NULL && our_assign_s [k] != NULL
            && real_assign_s [k] != our_assign_s [k], "%s: SuiteSparse's and grbcuda's", name) ;
    }
    if (gcu_test_failed > 0) { GrB_finalize () ; return gcu_test_report (TEST_NAME) ; }
    gcu_test_types_init () ;
    OK (grbcuda_set_mode (GRBCUDA_MODE_GPU)) ;
    OK (grbcuda_set_keep_results (true)) ;
    printf ("%s: seed 0x%llx, %d cases%s\n", TEST_NAME, (unsigned long long) seed,
        only >= 0 ? 1 : ncases, self_test ? " (self-test)" : "") ;
    for (int k = 0 ; k < ncases ; k++)
        if (only < 0 || k == only) run_case (k, seed) ;
    // the chains (one a 10 cases; --case K replays chain K too)
    const uint64_t ip0 = gcu_vec_inplace_count () ;
    for (int k = 0 ; k < (ncases + 9) / 10 ; k++)
        if (only < 0 || k == only) run_chain (k, seed) ;
    const uint64_t inplace = gcu_vec_inplace_count () - ip0 ;
    printf ("%s: %d chained steps on a device-newest w, %d on the GPU, %llu written back "
        "in place\n", TEST_NAME, chain_steps, chain_gpu, (unsigned long long) inplace) ;
    if (!self_test && only < 0 && grbcuda_gpu_available () && chain_steps >= 40)
        CHECK (inplace > 0, "chained steps written back in place (%llu)", (unsigned long long) inplace) ;
    printf ("%s: %d cases (%d scalar, %d with an index list), %d eligible, %d on the GPU, "
        "%d with a device-newest operand (%d made), %d left to the host for w's iso status\n", TEST_NAME,
        cases_run, cases_scalar, cases_list, cases_eligible, cases_gpu, cases_newest_in, newest_made,
        cases_iso_host) ;
    return vec_cases_end (only) ;
}
