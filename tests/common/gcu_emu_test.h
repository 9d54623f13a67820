// gcu_emu_test.h — what the tests of device code under the SIMT emulation
// (tests/cpu/test_*_emu.cpp) share: a CSR matrix with the row kinds that
// stress the kernels' lanes (empty, short random, dense runs, clustered
// runs, full rows), a CHECK that counts, and the reference row of C = A*B.
// Host C++17; include after gcu_simt_emu.h.
#ifndef GCU_EMU_TEST_H
#define GCU_EMU_TEST_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "spgemm/gcu_spgemm_policy.h"    // cuda/: the bins, their launch shape

static int gcu_emu_failures = 0, gcu_emu_checks = 0 ;
#define CHECK(cond, ...) do { gcu_emu_checks++ ; if (!(cond)) { if (gcu_emu_failures++ < 20) { \
    fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__) ; fprintf (stderr, __VA_ARGS__) ; \
    fprintf (stderr, "\n") ; } } } while (0)

struct csr
{
    int64_t nrows = 0, ncols = 0 ;
    std::vector<int64_t> p ;
    std::vector<int64_t> j ;
    int64_t nvals () const { return (int64_t) j.size () ; }
} ;

// Rows of one kind (structured: a mix of all): 0 empty, 1 short random (at
// most maxlen entries), 2 a dense run (many lanes on one bitmap word), 3 a
// few clustered runs, 4 now and then a full row.
static csr gcu_emu_random_csr (int64_t nrows, int64_t ncols, std::mt19937_64 &rng,
    bool structured, int64_t maxlen = 24)
{
    csr a ;
    a.nrows = nrows ; a.ncols = ncols ;
    a.p.push_back (0) ;
    std::uniform_int_distribution<int64_t> col (0, ncols - 1) ;
    for (int64_t i = 0 ; i < nrows ; i++)
    {
        std::set<int64_t> s ;
        const int kind = structured ? (int) (rng () % 5) : 1 ;
        if (kind == 1)
        {
            const int64_t len = (int64_t) (rng () % (uint64_t) std::min<int64_t> (ncols + 1, maxlen)) ;
            while ((int64_t) s.size () < len) s.insert (col (rng)) ;
        }
        else if (kind == 2)
        {
            const int64_t len = 1 + (int64_t) (rng () % (uint64_t) std::min<int64_t> (ncols, 200)) ;
            const int64_t c0 = (int64_t) (rng () % (uint64_t) (ncols - len + 1)) ;
            for (int64_t c = c0 ; c < c0 + len ; c++) s.insert (c) ;
        }
        else if (kind == 3)
        {
            const int runs = 1 + (int) (rng () % 6) ;
            for (int r = 0 ; r < runs ; r++)
            {
                const int64_t c0 = col (rng), len = 1 + (int64_t) (rng () % 40) ;
                for (int64_t c = c0 ; c < std::min (ncols, c0 + len) ; c++) s.insert (c) ;
            }
        }
        else if (kind == 4 && rng () % 4 == 0)
        {
            for (int64_t c = 0 ; c < ncols ; c++) s.insert (c) ;
        }
        for (int64_t c : s) a.j.push_back (c) ;
        a.p.push_back ((int64_t) a.j.size ()) ;
    }
    return a ;
}

template <class I> static std::vector<I> gcu_emu_narrow (const std::vector<int64_t> &v)
{
    return std::vector<I> (v.begin (), v.end ()) ;
}

// the pattern of C(i,:) = A(i,:)*B and its products (pa, pb)
static void gcu_emu_reference_row (const csr &A, const csr &B, int64_t i,
    std::set<int64_t> &cols, std::multiset<std::pair<int64_t, int64_t>> *prods)
{
    for (int64_t pa = A.p [i] ; pa < A.p [i + 1] ; pa++)
    {
        const int64_t k = A.j [pa] ;
        for (int64_t pb = B.p [k] ; pb < B.p [k + 1] ; pb++)
        {
            cols.insert (B.j [pb]) ;
            if (prods) prods->insert ({ pa, pb }) ;
        }
    }
}

// A (m x k) * B (k x n) whose rows fill every SpGEMM bin: rows of A of up to
// amax entries, rows of B mixed (structured: dense runs, clusters, full rows;
// 6000 columns reach the largest shared tables). Tests scale m to their speed.
struct gcu_emu_shape { int64_t m, k, n, amax ; bool structured ; } ;
static const gcu_emu_shape gcu_emu_spgemm_shapes [3] =
{
    { 48, 200, 600, 24, true },
    { 40, 80, 6000, 6, true },
    { 24, 300, 3000, 60, false },
} ;

// The smallest table of at least 32 slots (a power of 2) that holds count
// keys at a load of at most num / den: 2/3 for the numeric and masked tables
// (keys: C's or M's entries), 1/2 for the symbolic ones (sized by products).
static int64_t gcu_emu_table (int64_t count, int num, int den)
{
    int64_t H = GCU_SPGEMM_HMIN ;
    while (den * count > num * H) H *= 2 ;
    return H ;
}

// The rows of each shared bin (tables of at most GCU_SPGEMM_HMAX slots), by
// table size, as src/spgemm/ bins them; count [i]: row i's keys (or products).
static std::map<uint32_t, std::vector<int64_t>> gcu_emu_bins (const std::vector<int64_t> &count,
    int num, int den)
{
    std::map<uint32_t, std::vector<int64_t>> bins ;
    for (int64_t i = 0 ; i < (int64_t) count.size () ; i++)
    {
        const int64_t H = gcu_emu_table (count [i], num, den) ;
        if (H <= GCU_SPGEMM_HMAX) bins [(uint32_t) H].push_back (i) ;
    }
    return bins ;
}

// Launches the shared bins as src/spgemm/ does: for each bin (rows
// by table size, gcu_emu_bins), blocks of `threads` threads with the bin's
// shape (gcu_bin_shape, cuda/spgemm/gcu_spgemm_policy.h), each running kernel (rows, nrows, H, G, tpb)
// (tpb: TPB, at most G); then done (H, G, tpb, rows) checks the bin.
template <class K, class D>
static void gcu_emu_launch_bins (const std::vector<int64_t> &count, int num, int den,
    gcu_bin_phase phase, int threads, int TPB, K kernel, D done)
{
    for (auto &bin : gcu_emu_bins (count, num, den))
    {
        const uint32_t H = bin.first ;
        const std::vector<int64_t> &rows = bin.second ;
        int G, R ;
        gcu_bin_shape (H, phase, threads, &G, &R) ;
        const int tpb = TPB < G ? TPB : G ;
        const int64_t nrows = (int64_t) rows.size () ;
        for (int64_t b = 0 ; b < (nrows + R - 1) / R ; b++)
        {
            gcu_emu_block ((unsigned) b, (unsigned) threads, [&] { kernel (rows.data (), nrows, H, G, tpb) ; }) ;
        }
        done (H, G, tpb, rows) ;
    }
}

// the closing lines every emulation test prints (the second is the one CI reads)
static int gcu_emu_finish (const char *name, int cases)
{
    printf ("%s: %d cases, %d checks, %d failed\n", name, cases, gcu_emu_checks, gcu_emu_failures) ;
    printf ("%d passed, %d failed\n", gcu_emu_checks - gcu_emu_failures, gcu_emu_failures) ;
    return gcu_emu_failures == 0 ? 0 : 1 ;
}

#endif
