// GRBCUDA_TEST_INTERNAL (calls internal gcu_* functions: links grbcuda_static)
// test_jit_dot_reference.c — the masked dot-product kernel gives SuiteSparse's
// C<M> = A*B', checked on the CPU.
//
// The kernel (cuda/masked/gcu_dot_masked.cuh) and the SR structs the JIT
// generates are valid host C++ once the few CUDA built-ins it uses are
// emulated (threadIdx, blockIdx, __syncthreads_count, atomicAdd), with one
// thread per block so the emulation is exact. This test generates the same
// specialisations the JIT would, for a list of semirings (built-in, built at
// run time, positional, user-defined) and operand set-ups (32/64-bit
// indices, structural and valued masks, iso operands, typecasts of A, B and
// C, rows long enough to take the binary-search path), compiles them with
// the host C++ compiler, runs them on random matrices, and compares every
// mask entry with GrB_mxm (C<M> = A*B', B transposed by the descriptor):
// presence exactly, values bit for bit (the kernel adds in increasing k, as
// SuiteSparse's dot product does), ANY monoids by pattern only.
// Skipped (77) without a C++ compiler. tests/gpu/test_jit_dot_gpu.c runs the
// same cases through the JIT on a GPU (GCU_DOT_ON_GPU).
#include "gcu_test.h"
#include "gcu_test_cxx.h"
#include "../../src/jit/gcu_jit.h"
#include "../../src/mxm/gcu_dot_masked.h"
#include "../../src/jit/gcu_jit_internal.h"
#include "../../src/util/gcu_util.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GCU_DOT_TEST_NAME
#define GCU_DOT_TEST_NAME "test_jit_dot_reference"
#endif

typedef void (*run_f) (int64_t, int64_t, const void *, const void *, const void *,
    const void *, const void *, const void *, const void *, const void *,
    const void *, void *, int8_t *, unsigned long long *, unsigned) ;

// a sorted CSR copy of a matrix, indices 32 or 64 bits
typedef struct
{
    void *p, *j, *x ;
    bool iso, idx64 ;
    GrB_Index nrows, nvals ;
}
csr ;

static csr to_csr (GrB_Matrix A, bool idx64)
{
    csr c ;
    memset (&c, 0, sizeof (c)) ;
    GrB_Matrix D = NULL ;
    OK (GrB_Matrix_dup (&D, A)) ;
    OK (GxB_Matrix_Option_set (D, GxB_FORMAT, GxB_BY_ROW)) ;
    OK (GrB_Matrix_wait (D, GrB_MATERIALIZE)) ;
    GrB_Index *Ap = NULL, *Aj = NULL, psize, jsize, xsize ;
    void *Ax = NULL ;
    bool iso = false ;
    OK (GrB_Matrix_nrows (&c.nrows, D)) ;
    // jumbled == NULL: the indices come back sorted
    OK (GxB_Matrix_unpack_CSR (D, &Ap, &Aj, &Ax, &psize, &jsize, &xsize, &iso, NULL, NULL)) ;
    c.nvals = Ap [c.nrows] ;
    c.iso = iso ;
    c.idx64 = idx64 ;
    c.x = Ax ;
    if (idx64)
    {
        c.p = Ap ;
        c.j = Aj ;
    }
    else
    {
        uint32_t *p = malloc ((c.nrows + 1) * sizeof (uint32_t)) ;
        uint32_t *j = malloc ((c.nvals + 1) * sizeof (uint32_t)) ;
        for (GrB_Index k = 0 ; k <= c.nrows ; k++) p [k] = (uint32_t) Ap [k] ;
        for (GrB_Index k = 0 ; k < c.nvals ; k++) j [k] = (uint32_t) Aj [k] ;
        free (Ap) ;
        free (Aj) ;
        c.p = p ;
        c.j = j ;
    }
    GrB_Matrix_free (&D) ;
    return c ;
}

static void csr_free (csr *c)
{
    free (c->p) ; free (c->j ) ; free (c->x) ;
    memset (c, 0, sizeof (*c)) ;
}

static GrB_Index get_index (const csr *c, const void *a, GrB_Index k)
{
    (void) c ;
    return c->idx64 ? ((const uint64_t *) a) [k] : ((const uint32_t *) a) [k] ;
}

//------------------------------------------------------------------------------
// the cases
//------------------------------------------------------------------------------

typedef struct
{
    const char *name ;
    GrB_Semiring sr ;
    GrB_Type ta, tb, tc ;       // NULL: the semiring's x, y and z types
    GrB_Type tm ;               // NULL: structural mask
    int idx ;                   // bit 0: M 64-bit, bit 1: A, bit 2: B
    bool skew ;                 // one long row in A and in B
    bool pattern_only ;         // ANY: values may legitimately differ
    // filled in by setup
    GrB_Matrix A, B, M, C ;
    gcu_dot_masked_spec spec ;
    csr a, b, m ;
    char fname [32] ;
}
dcase ;

#define MAXCASES 80
static dcase cases [MAXCASES] ;
static int ncases = 0 ;

static dcase *add_case (const char *name, GrB_Semiring sr)
{
    dcase *c = &cases [ncases++] ;
    memset (c, 0, sizeof (*c)) ;
    c->name = name ;
    c->sr = sr ;
    c->idx = ncases % 8 ;       // vary the index widths over the cases
    c->skew = (ncases % 3 == 0) ;
    return c ;
}

static GrB_Type xtype (GrB_Semiring s, int which)
{
    GrB_BinaryOp op = NULL ;
    GrB_Type t = NULL ;
    GxB_Semiring_multiply (&op, s) ;
    if (which == 0) GxB_BinaryOp_xtype (&t, op) ;
    else if (which == 1) GxB_BinaryOp_ytype (&t, op) ;
    else GxB_BinaryOp_ztype (&t, op) ;
    return t ;
}

static GrB_Matrix random_matrix (GrB_Type t, GrB_Index n, double d, bool skew, uint64_t *st)
{
    GrB_Matrix A = gcu_test_random_matrix (t, n, n, d, st) ;
    if (skew)
    {
        // a dense row: against short rows it takes the binary-search path
        GrB_Index row = gcu_rand (st) % n ;
        OK (GrB_Matrix_assign_INT32 (A, NULL, NULL, 3, &row, 1, GrB_ALL, n, NULL)) ;
    }
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

// user-defined type and operators (also compiled, from the captured
// definitions, into the host build of the kernel); no padding, so that the
// values compare byte for byte
typedef struct { double x ; int64_t n ; } pt ;
static void pt_add (void *z, const void *a, const void *b)
{
    const pt *p = a, *q = b ;
    pt r = { p->x + q->x, p->n + q->n } ;
    memcpy (z, &r, sizeof (r)) ;
}
static void pt_mul (void *z, const void *a, const void *b)
{
    const pt *p = a, *q = b ;
    pt r = { p->x * q->x - 1, p->n * q->n } ;
    memcpy (z, &r, sizeof (r)) ;
}

static GrB_Semiring make (GrB_Monoid m, GrB_BinaryOp op)
{
    GrB_Semiring s = NULL ;
    OK (GrB_Semiring_new (&s, m, op)) ;
    return s ;
}

static void define_cases (void)
{
    dcase *c ;
    // built-in semirings of every monoid kind
    add_case ("PLUS_TIMES_FP64", GxB_PLUS_TIMES_FP64) ;
    add_case ("PLUS_TIMES_INT32", GrB_PLUS_TIMES_SEMIRING_INT32) ;
    add_case ("PLUS_TIMES_FC64", GxB_PLUS_TIMES_FC64) ;
    add_case ("PLUS_TIMES_FC32", GxB_PLUS_TIMES_FC32) ;
    add_case ("PLUS_PAIR_INT64", GxB_PLUS_PAIR_INT64) ;
    add_case ("PLUS_PAIR_UINT32", GxB_PLUS_PAIR_UINT32) ;
    add_case ("MIN_PLUS_FP32", GxB_MIN_PLUS_FP32) ;
    add_case ("MIN_PLUS_INT8", GrB_MIN_PLUS_SEMIRING_INT8) ;
    add_case ("MAX_TIMES_INT16", GxB_MAX_TIMES_INT16) ;
    add_case ("MAX_FIRST_UINT8", GxB_MAX_FIRST_UINT8) ;
    add_case ("MIN_SECOND_UINT64", GxB_MIN_SECOND_UINT64) ;
    add_case ("MAX_MIN_FP64", GxB_MAX_MIN_FP64) ;
    add_case ("TIMES_PLUS_INT32", GxB_TIMES_PLUS_INT32) ;
    add_case ("TIMES_MINUS_UINT16", GxB_TIMES_MINUS_UINT16) ;
    add_case ("TIMES_DIV_FP64", GxB_TIMES_DIV_FP64) ;
    add_case ("LOR_LAND_BOOL", GxB_LOR_LAND_BOOL) ;
    add_case ("LAND_LOR_BOOL", GxB_LAND_LOR_BOOL) ;
    add_case ("LXOR_LAND_BOOL", GxB_LXOR_LAND_BOOL) ;
    add_case ("EQ_LOR_BOOL", GxB_EQ_LOR_BOOL) ;
    add_case ("LOR_GT_FP64", GxB_LOR_GT_FP64) ;
    add_case ("LAND_EQ_INT32", GxB_LAND_EQ_INT32) ;
    add_case ("LXOR_NE_UINT8", GxB_LXOR_NE_UINT8) ;
    add_case ("BOR_BAND_UINT8", GxB_BOR_BAND_UINT8) ;
    add_case ("BAND_BOR_UINT32", GxB_BAND_BOR_UINT32) ;
    add_case ("BXOR_BXOR_UINT64", GxB_BXOR_BXOR_UINT64) ;
    add_case ("BXNOR_BOR_UINT16", GxB_BXNOR_BOR_UINT16) ;
    c = add_case ("ANY_PAIR_BOOL", GxB_ANY_PAIR_BOOL) ;
    c = add_case ("ANY_FIRST_FP64", GxB_ANY_FIRST_FP64) ; c->pattern_only = true ;
    c = add_case ("ANY_SECONDI_INT64", GxB_ANY_SECONDI_INT64) ; c->pattern_only = true ;
    // positional multiplies: i, k and j of A(i,k)*B'(k,j)
    add_case ("MIN_FIRSTI_INT32", GxB_MIN_FIRSTI_INT32) ;
    add_case ("MAX_FIRSTI1_INT64", GxB_MAX_FIRSTI1_INT64) ;
    add_case ("PLUS_FIRSTJ_INT64", GxB_PLUS_FIRSTJ_INT64) ;
    add_case ("MIN_FIRSTJ1_INT32", GxB_MIN_FIRSTJ1_INT32) ;
    add_case ("MAX_SECONDI_INT32", GxB_MAX_SECONDI_INT32) ;
    add_case ("PLUS_SECONDI1_INT64", GxB_PLUS_SECONDI1_INT64) ;
    add_case ("MIN_SECONDJ_INT64", GxB_MIN_SECONDJ_INT64) ;
    add_case ("MAX_SECONDJ1_INT32", GxB_MAX_SECONDJ1_INT32) ;
    add_case ("TIMES_SECONDJ1_INT64", GxB_TIMES_SECONDJ1_INT64) ;
    // assembled at run time from built-in parts
    add_case ("ANY.ONEB.BOOL", make (GxB_ANY_BOOL_MONOID, GrB_ONEB_BOOL)) ;
    add_case ("LOR.ONEB.BOOL", make (GrB_LOR_MONOID_BOOL, GrB_ONEB_BOOL)) ;
    add_case ("PLUS.POW.FP64", make (GrB_PLUS_MONOID_FP64, GxB_POW_FP64)) ;
    add_case ("MAX.ATAN2.FP32", make (GrB_MAX_MONOID_FP32, GxB_ATAN2_FP32)) ;
    add_case ("PLUS.DIV.INT8", make (GrB_PLUS_MONOID_INT8, GrB_DIV_INT8)) ;
    add_case ("BOR.BSHIFT.UINT16", make (GxB_BOR_UINT16_MONOID, GxB_BSHIFT_UINT16)) ;
    add_case ("PLUS.BSHIFT.INT16", make (GrB_PLUS_MONOID_INT16, GxB_BSHIFT_INT16)) ;
    add_case ("PLUS.CMPLX.FP64", make (GxB_PLUS_FC64_MONOID, GxB_CMPLX_FP64)) ;
    add_case ("TIMES.ISGE.FP32", make (GrB_TIMES_MONOID_FP32, GxB_ISGE_FP32)) ;
    add_case ("PLUS.ONEB.FC32", make (GxB_PLUS_FC32_MONOID, GxB_ONEB_FC32)) ;
    add_case ("MIN.BGET.INT32", make (GrB_MIN_MONOID_INT32, GxB_BGET_INT32)) ;
    add_case ("PLUS.RDIV.FC64", make (GxB_PLUS_FC64_MONOID, GxB_RDIV_FC64)) ;
    add_case ("PLUS.RMINUS.UINT8", make (GrB_PLUS_MONOID_UINT8, GxB_RMINUS_UINT8)) ;
    // typecasts of A, B and C
    c = add_case ("PLUS_TIMES_FP64 A:INT8 B:FP32 C:INT32", GxB_PLUS_TIMES_FP64) ;
    c->ta = GrB_INT8 ; c->tb = GrB_FP32 ; c->tc = GrB_INT32 ;
    c = add_case ("MIN_PLUS_INT16 A:FP64 B:UINT64 C:UINT8", GxB_MIN_PLUS_INT16) ;
    c->ta = GrB_FP64 ; c->tb = GrB_UINT64 ; c->tc = GrB_UINT8 ;
    c = add_case ("PLUS_TIMES_FC32 A:BOOL B:FC64 C:FP64", GxB_PLUS_TIMES_FC32) ;
    c->ta = GrB_BOOL ; c->tb = GxB_FC64 ; c->tc = GrB_FP64 ;
    c = add_case ("LOR_LAND_BOOL A:FP32 B:INT64 C:UINT16", GxB_LOR_LAND_BOOL) ;
    c->ta = GrB_FP32 ; c->tb = GrB_INT64 ; c->tc = GrB_UINT16 ;
    c = add_case ("PLUS_SECONDJ_INT32 A:FC64 B:BOOL", GxB_PLUS_SECONDJ_INT32) ;
    c->ta = GxB_FC64 ; c->tb = GrB_BOOL ;
    // valued masks
    c = add_case ("PLUS_TIMES_FP64 M:BOOL", GxB_PLUS_TIMES_FP64) ; c->tm = GrB_BOOL ;
    c = add_case ("PLUS_PAIR_INT64 M:INT32", GxB_PLUS_PAIR_INT64) ; c->tm = GrB_INT32 ;
    c = add_case ("MIN_PLUS_FP32 M:FP64", GxB_MIN_PLUS_FP32) ; c->tm = GrB_FP64 ;
    c = add_case ("MAX_TIMES_INT16 M:FC32", GxB_MAX_TIMES_INT16) ; c->tm = GxB_FC32 ;
    c = add_case ("LOR_LAND_BOOL M:UINT8", GxB_LOR_LAND_BOOL) ; c->tm = GrB_UINT8 ;
    // user-defined type and operators, definitions captured
    GrB_Type t = NULL ;
    OK (GxB_Type_new (&t, sizeof (pt), "pt", "typedef struct { double x ; int64_t n ; } pt ;")) ;
    GrB_BinaryOp add = NULL, mul = NULL ;
    OK (GxB_BinaryOp_new (&add, pt_add, t, t, t, "pt_add",
        "void pt_add (pt *z, const pt *a, const pt *b) { z->x = a->x + b->x ; z->n = a->n + b->n ; }")) ;
    OK (GxB_BinaryOp_new (&mul, pt_mul, t, t, t, "pt_mul",
        "void pt_mul (pt *z, const pt *a, const pt *b) { z->x = a->x * b->x - 1 ; z->n = a->n * b->n ; }")) ;
    pt zero = { 0, 0 } ;
    GrB_Monoid m = NULL ;
    OK (GrB_Monoid_new_UDT (&m, add, &zero)) ;
    c = add_case ("user pt_add.pt_mul", make (m, mul)) ;
    c->ta = c->tb = c->tc = t ;
}

// random user-type matrix: built from tuples
static GrB_Matrix random_pt (GrB_Type t, GrB_Index n, double d, uint64_t *st)
{
    GrB_Matrix A = NULL ;
    OK (GrB_Matrix_new (&A, t, n, n)) ;
    GrB_Index nz = (GrB_Index) (d * n * n) ;
    for (GrB_Index k = 0 ; k < nz ; k++)
    {
        pt v = { (double) ((int) (gcu_rand (st) % 9) - 3), (int64_t) (gcu_rand (st) % 5) } ;
        OK (GrB_Matrix_setElement_UDT (A, &v, gcu_rand (st) % n, gcu_rand (st) % n)) ;
    }
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

//------------------------------------------------------------------------------

// On the GPU, CUDA's math library (pow, atan2, hypot, exp, ...) is accurate
// to a few ulps but not bit-identical to the host's libm, so floating-point
// values there compare to within 64 ulps of their magnitude; +, -, *, / are
// IEEE-exact on both (the JIT compiles with -fmad=false), and on the host
// build of the kernel every value must match SuiteSparse's bytes.
#ifdef GCU_DOT_ON_GPU
#define GCU_ULPS 64
#else
#define GCU_ULPS 0
#endif
static bool close_float (double x, double y, double eps)
{
    if (x == y) return true ;
    return fabs (x - y) <= GCU_ULPS * eps * fmax (fabs (x), fabs (y)) ;
}

static bool same_bytes (const gcu_type_desc *t, const uint8_t *a, const uint8_t *b)
{
    if (t->code == GCU_T_FP32 || t->code == GCU_T_FC32)
    {
        for (size_t k = 0 ; k < t->size ; k += 4)
        {
            float x, y ; memcpy (&x, a + k, 4) ; memcpy (&y, b + k, 4) ;
            if (!((isnan (x) && isnan (y)) || memcmp (a + k, b + k, 4) == 0
                || close_float (x, y, 1.1920929e-7))) return false ;
        }
        return true ;
    }
    if (t->code == GCU_T_FP64 || t->code == GCU_T_FC64)
    {
        for (size_t k = 0 ; k < t->size ; k += 8)
        {
            double x, y ; memcpy (&x, a + k, 8) ; memcpy (&y, b + k, 8) ;
            if (!((isnan (x) && isnan (y)) || memcmp (a + k, b + k, 8) == 0
                || close_float (x, y, 2.220446049250313e-16))) return false ;
        }
        return true ;
    }
    return memcmp (a, b, t->size) == 0 ;
}

// every mask entry of case c against SuiteSparse's C; `who` names the run
static void compare (dcase *c, const uint8_t *Cx, const int8_t *Cb,
    unsigned long long nvals, const char *who)
{
    size_t zs = c->spec.ops.c.size ;
    GrB_Index mn = c->m.nvals ;
    // SuiteSparse's answer, as a sorted CSR with 64-bit indices
    csr r = to_csr (c->C, true) ;
    const GrB_Index *Rp = r.p, *Rj = r.j ;
    int bad = 0 ;
    GrB_Index kept = 0 ;
    for (GrB_Index i = 0 ; i < c->m.nrows ; i++)
    {
        GrB_Index pr = Rp [i] ;
        for (GrB_Index e = get_index (&c->m, c->m.p, i) ; e < get_index (&c->m, c->m.p, i + 1) ; e++)
        {
            GrB_Index j = get_index (&c->m, c->m.j, e) ;
            while (pr < Rp [i+1] && Rj [pr] < j) pr++ ;
            bool present = (pr < Rp [i+1] && Rj [pr] == j) ;
            kept += (Cb [e] != 0) ;
            bool ok = ((Cb [e] != 0) == present) ;
            if (ok && present && !c->pattern_only)
            {
                ok = same_bytes (&c->spec.ops.c, Cx + e * zs,
                    (uint8_t *) r.x + (r.iso ? 0 : pr * zs)) ;
            }
            if (!ok && bad++ < 3)
            {
                fprintf (stderr, "  %s %s: C(%llu,%llu): kernel %s, SuiteSparse %s\n", who,
                    c->name, (unsigned long long) i, (unsigned long long) j,
                    Cb [e] ? "an entry" : "none", present ? "an entry" : "none") ;
            }
        }
    }
    GrB_Index cn = 0 ;
    OK (GrB_Matrix_nvals (&cn, c->C)) ;
    CHECK (bad == 0, "%s %s: %d of %llu mask entries differ", who, c->name, bad,
        (unsigned long long) mn) ;
    CHECK (kept == cn && nvals == cn, "%s %s: %llu kept, %llu counted, SuiteSparse %llu",
        who, c->name, (unsigned long long) kept, nvals, (unsigned long long) cn) ;
    csr_free (&r) ;
}

// the matrices, their CSR copies, SuiteSparse's C<M> = A*B', each case's spec
static bool setup_cases (uint64_t *seed)
{
    // the oracle is SuiteSparse itself, not the call through grbcuda's
    // dispatch: on a GPU machine it can be large enough for the GPU, whose
    // atan2f and the like round differently from the host's
    typedef GrB_Info (*mxm_f) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
        const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
    const mxm_f real_mxm = (mxm_f) gcu_test_real ("GrB_mxm") ;
    CHECK (real_mxm != NULL, "SuiteSparse's GrB_mxm not found") ;
    if (real_mxm == NULL) return false ;
    for (int k = 0 ; k < ncases ; k++)
    {
        dcase *c = &cases [k] ;
        GrB_Type ta = c->ta ? c->ta : xtype (c->sr, 0) ;
        GrB_Type tb = c->tb ? c->tb : xtype (c->sr, 1) ;
        GrB_Type tc = c->tc ? c->tc : xtype (c->sr, 2) ;
        GrB_Index n = 20 + gcu_rand (seed) % 100 ;
        double d = 0.02 + 0.2 * gcu_rand01 (seed) ;
        gcu_type_desc td ;
        OK (gcu_type_identify (ta, &td)) ;
        if (td.code == GCU_T_UDT)
        {
            c->A = random_pt (ta, n, d, seed) ;
            c->B = random_pt (tb, n, d, seed) ;
        }
        else
        {
            c->A = random_matrix (ta, n, d, c->skew, seed) ;
            c->B = random_matrix (tb, n, d, c->skew, seed) ;
        }
        c->M = gcu_test_random_matrix (c->tm ? c->tm : GrB_BOOL, n, n,
            0.1 + 0.4 * gcu_rand01 (seed), seed) ;
        OK (GrB_Matrix_wait (c->M, GrB_MATERIALIZE)) ;
        c->m = to_csr (c->M, c->idx & 1) ;
        c->a = to_csr (c->A, c->idx & 2) ;
        c->b = to_csr (c->B, c->idx & 4) ;
        // the oracle: C<M> = A*B'
        OK (GrB_Matrix_new (&c->C, tc, n, n)) ;
        GrB_Descriptor desc = NULL ;
        OK (GrB_Descriptor_new (&desc)) ;
        OK (GrB_Descriptor_set (desc, GrB_INP1, GrB_TRAN)) ;
        if (c->tm == NULL) OK (GrB_Descriptor_set (desc, GrB_MASK, GrB_STRUCTURE)) ;
        OK (real_mxm (c->C, c->M, NULL, c->sr, c->A, c->B, desc)) ;
        GrB_Descriptor_free (&desc) ;
        // the specialisation
        gcu_dot_masked_spec *sp = &c->spec ;
        OK (gcu_semiring_identify (c->sr, &sp->sr)) ;
        OK (gcu_type_identify (ta, &sp->ops.a)) ;
        OK (gcu_type_identify (tb, &sp->ops.b)) ;
        OK (gcu_type_identify (tc, &sp->ops.c)) ;
        gcu_type_desc tm ;
        if (c->tm != NULL) OK (gcu_type_identify (c->tm, &tm)) ;
        sp->ops.mask_type = c->tm ? (int) tm.code : -1 ;
        sp->ops.a_iso = c->a.iso ;
        sp->ops.b_iso = c->b.iso ;
        sp->ops.m_iso = c->m.iso ;
        sp->ops.m_idx64 = c->m.idx64 ;
        sp->ops.a_idx64 = c->a.idx64 ;
        sp->ops.b_idx64 = c->b.idx64 ;
    }
    return true ;
}

// the kernel built for the host by the C++ compiler, on every case
static void run_host (gcu_test_cxx *x, uint64_t *seed)
{
    if (!gcu_test_cxx_setup (x, "dot"))
    {
        CHECK (false, "cannot set up %s", x->dir) ;
        return ;
    }
    gcu_str s ;
    gcu_str_init (&s) ;
    gcu_str_add (&s,
        "// host emulation of the CUDA built-ins the kernel uses: one thread per block\n"
        "#define __device__\n#define __forceinline__ inline\n"
        "struct gcu_dim3 { unsigned x, y, z ; } ;\n"
        "static gcu_dim3 gridDim, blockDim, blockIdx, threadIdx ;\n"
        "static inline int __syncthreads_count (int p) { return p != 0 ; }\n"
        "static inline unsigned long long atomicAdd (unsigned long long *p, unsigned long long v)\n"
        "{ unsigned long long o = *p ; *p += v ; return o ; }\n"
        "#include \"masked/gcu_dot_masked.cuh\"\n") ;
    for (int k = 0 ; k < ncases ; k++)
    {
        dcase *c = &cases [k] ;
        // the kernel's SR, as the JIT writes it, in a namespace of its own
        char entry [GCU_JIT_ENTRY_MAX] ;
        OK (gcu_codegen_namespace (&s, &c->spec.sr, &c->spec.ops, "host_", NULL, entry)) ;
        snprintf (c->fname, sizeof (c->fname), "run_%d", k) ;
        const char *mi = c->m.idx64 ? "uint64_t" : "uint32_t" ;
        const char *ai = c->a.idx64 ? "uint64_t" : "uint32_t" ;
        const char *bi = c->b.idx64 ? "uint64_t" : "uint32_t" ;
        gcu_str_addf (&s,
            "extern \"C\" void %s (int64_t mnrows, int64_t mnvals, const void *Mp, const void *Mj,\n"
            "  const void *Mx, const void *Ap, const void *Aj, const void *Ax, const void *Bp,\n"
            "  const void *Bj, const void *Bx, void *Cx, int8_t *Cb, unsigned long long *Cn, unsigned grid)\n"
            "{\n  typedef %s_ns::SR SR ;\n"
            "  gridDim.x = grid ; blockDim.x = 1 ; threadIdx.x = 0 ;\n"
            "  for (unsigned b = 0 ; b < grid ; b++)\n  {\n    blockIdx.x = b ;\n"
            "    gcu_dot_masked<SR, %s, %s, %s> (mnrows, mnvals, (const %s *) Mp, (const %s *) Mj,\n"
            "      (const SR::TM *) Mx, (const %s *) Ap, (const %s *) Aj, (const SR::TA *) Ax,\n"
            "      (const %s *) Bp, (const %s *) Bj, (const SR::TB *) Bx, (SR::TC *) Cx, Cb, Cn) ;\n"
            "  }\n}\n", c->fname, entry, mi, ai, bi, mi, mi, ai, ai, bi, bi) ;
    }
    char *code = gcu_str_take (&s) ;
    double t0 = gcu_now () ;
    int rc = gcu_test_cxx_build (x, "dot", code, "-Wno-attributes") ;
    free (code) ;
    CHECK (rc == 0, "host build of the kernel failed: %s", x->cmd) ;
    void *h = (rc == 0) ? dlopen (x->lib, RTLD_NOW | RTLD_LOCAL) : NULL ;
    CHECK (rc != 0 || h != NULL, "dlopen: %s", dlerror ()) ;
    if (h != NULL)
    {
        printf ("host build of %d kernel specialisations: %.1f s\n", ncases, gcu_now () - t0) ;
        for (int k = 0 ; k < ncases ; k++)
        {
            dcase *c = &cases [k] ;
            run_f run = (run_f) dlsym (h, c->fname) ;
            size_t zs = c->spec.ops.c.size ;
            GrB_Index mn = c->m.nvals ;
            uint8_t *Cx = calloc (mn + 1, zs) ;
            int8_t *Cb = calloc (mn + 1, 1) ;
            unsigned long long nvals = 0 ;
            unsigned grid = 1 + (unsigned) (gcu_rand (seed) % 5) ;
            run ((int64_t) c->m.nrows, (int64_t) mn, c->m.p, c->m.j, c->m.x, c->a.p, c->a.j,
                c->a.x, c->b.p, c->b.j, c->b.x, Cx, Cb, &nvals, grid) ;
            compare (c, Cx, Cb, nvals, "host") ;
            free (Cx) ;
            free (Cb) ;
        }
        dlclose (h) ;
    }
    gcu_test_rmtree (x->dir) ;
}

#ifdef GCU_DOT_ON_GPU
//------------------------------------------------------------------------------
// the same cases through the JIT on the GPU (tests/gpu/test_jit_dot_gpu.c)
//------------------------------------------------------------------------------

#include <cuda_runtime_api.h>

static void *to_device (const void *p, size_t n)
{
    void *d = NULL ;
    if (n == 0) n = 1 ;
    if (cudaMalloc (&d, n) != cudaSuccess) return NULL ;
    if (p != NULL && cudaMemcpy (d, p, n, cudaMemcpyHostToDevice) != cudaSuccess)
    {
        cudaFree (d) ;
        return NULL ;
    }
    return d ;
}

static void run_gpu (void)
{
    char dir [] = "/tmp/grbcuda-test-dotgpu-XXXXXX" ;
    CHECK (mkdtemp (dir) != NULL, "mkdtemp") ;
    gcu_jit_set_cache_dir (dir) ;
    printf ("GPU: kernels for sm_%d\n", gcu_jit_arch ()) ;
    for (int k = 0 ; k < ncases ; k++)
    {
        dcase *c = &cases [k] ;
        size_t zs = c->spec.ops.c.size ;
        size_t is [3] = { c->m.idx64 ? 8u : 4u, c->a.idx64 ? 8u : 4u, c->b.idx64 ? 8u : 4u } ;
        size_t ms = 0 ;
        if (c->tm != NULL) OK (GxB_Type_size (&ms, c->tm)) ;
        GrB_Index mn = c->m.nvals ;
        gcu_dot_masked_args a ;
        memset (&a, 0, sizeof (a)) ;
        a.mnrows = (int64_t) c->m.nrows ;
        a.mnvals = (int64_t) mn ;
        a.Mp = to_device (c->m.p, (c->m.nrows + 1) * is [0]) ;
        a.Mj = to_device (c->m.j, mn * is [0]) ;
        a.Mx = c->tm ? to_device (c->m.x, (c->m.iso ? 1 : mn) * ms) : NULL ;
        a.Ap = to_device (c->a.p, (c->a.nrows + 1) * is [1]) ;
        a.Aj = to_device (c->a.j, c->a.nvals * is [1]) ;
        a.Ax = to_device (c->a.x, (c->a.iso ? 1 : c->a.nvals) * c->spec.ops.a.size) ;
        a.Bp = to_device (c->b.p, (c->b.nrows + 1) * is [2]) ;
        a.Bj = to_device (c->b.j, c->b.nvals * is [2]) ;
        a.Bx = to_device (c->b.x, (c->b.iso ? 1 : c->b.nvals) * c->spec.ops.b.size) ;
        a.Cx = to_device (NULL, mn * zs) ;
        a.Cb = to_device (NULL, mn) ;
        a.Cnvals = to_device (NULL, sizeof (unsigned long long)) ;
        CHECK (a.Mp && a.Mj && a.Ap && a.Aj && a.Ax && a.Bp && a.Bj && a.Bx && a.Cx &&
            a.Cb && a.Cnvals && (c->tm == NULL || a.Mx), "%s: device memory", c->name) ;
        CHECK (a.Cnvals == NULL || cudaMemset (a.Cnvals, 0, sizeof (unsigned long long))
            == cudaSuccess, "cudaMemset") ;
        // a few blocks only, so that the grid-stride loop goes round
        unsigned grid = (unsigned) ((mn + GCU_DOT_MASKED_THREADS - 1) / GCU_DOT_MASKED_THREADS) ;
        grid = (grid > 4) ? 4 : (grid == 0 ? 1 : grid) ;
        GrB_Info info = gcu_dot_masked_run (&c->spec, &a, grid, GCU_DOT_MASKED_THREADS, NULL) ;
        CHECK (info == GrB_SUCCESS, "%s: launch %d", c->name, (int) info) ;
        CHECK (cudaDeviceSynchronize () == cudaSuccess, "%s: kernel failed", c->name) ;
        uint8_t *Cx = calloc (mn + 1, zs) ;
        int8_t *Cb = calloc (mn + 1, 1) ;
        unsigned long long nvals = 0 ;
        if (info == GrB_SUCCESS)
        {
            bool copied =
                cudaMemcpy (Cx, a.Cx, mn * zs, cudaMemcpyDeviceToHost) == cudaSuccess &&
                cudaMemcpy (Cb, a.Cb, mn, cudaMemcpyDeviceToHost) == cudaSuccess &&
                cudaMemcpy (&nvals, a.Cnvals, sizeof (nvals), cudaMemcpyDeviceToHost) == cudaSuccess ;
            CHECK (copied, "%s: copy back", c->name) ;
            if (copied) compare (c, Cx, Cb, nvals, "GPU") ;
        }
        free (Cx) ;
        free (Cb) ;
        void *ptrs [] = { (void *) a.Mp, (void *) a.Mj, (void *) a.Mx, (void *) a.Ap,
            (void *) a.Aj, (void *) a.Ax, (void *) a.Bp, (void *) a.Bj, (void *) a.Bx,
            a.Cx, a.Cb, a.Cnvals } ;
        for (size_t q = 0 ; q < sizeof (ptrs) / sizeof (ptrs [0]) ; q++) if (ptrs [q]) cudaFree (ptrs [q]) ;
    }
    gcu_jit_cache_clear_memory () ;
    gcu_test_rmtree (dir) ;
}
#endif

int main (void)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    gcu_test_cxx x ;
    bool have_cxx = gcu_test_cxx_find (&x) ;
    #ifdef GCU_DOT_ON_GPU
    int ndev = 0 ;
    if (cudaGetDeviceCount (&ndev) != cudaSuccess || ndev == 0 ||
        cudaFree (0) != cudaSuccess)
    {
        printf ("%s: no GPU: skipped\n", GCU_DOT_TEST_NAME) ;
        return GCU_TEST_SKIP ;
    }
    #else
    if (!have_cxx)
    {
        printf ("%s: no C++ compiler (%s): skipped\n", GCU_DOT_TEST_NAME, x.cxx) ;
        return GCU_TEST_SKIP ;
    }
    #endif
    gcu_test_types_init () ;
    define_cases () ;
    uint64_t seed = 12345 ;
    if (!setup_cases (&seed)) return gcu_test_report (GCU_DOT_TEST_NAME) ;
    if (have_cxx) run_host (&x, &seed) ;
    #ifdef GCU_DOT_ON_GPU
    run_gpu () ;
    #endif
    printf ("%d cases compared\n", ncases) ;
    for (int k = 0 ; k < ncases ; k++)
    {
        dcase *c = &cases [k] ;
        csr_free (&c->a) ; csr_free (&c->b) ; csr_free (&c->m) ;
        GrB_Matrix_free (&c->A) ; GrB_Matrix_free (&c->B) ;
        GrB_Matrix_free (&c->M) ; GrB_Matrix_free (&c->C) ;
    }
    GrB_finalize () ;
    return gcu_test_report (GCU_DOT_TEST_NAME) ;
}
