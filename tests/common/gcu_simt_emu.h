// gcu_simt_emu.h — CUDA's thread, warp and block built-ins emulated on the
// host, so that device code whose lanes talk to each other (shuffles,
// ballots, votes, __syncthreads) runs unchanged on the CPU, in CI, against a
// plain reference. Each CUDA thread of a block is a fiber on the calling
// host thread (gcu_emu_block); a warp-level call waits until every
// lane of its mask has made the same call, as on the GPU, and the scheduler
// resumes the threads in a shuffled order each pass. Code that diverges
// inside a mask, reads a lane outside it, or waits for threads that never
// come ends the process with the reason (gcu_emu_fatal) instead of running
// on with made-up values. A fiber also gives way, now and then, just before
// an atomic (gcu_emu_preempt), so lost races happen too.
//
// Host C++17 only: include it before any cuda/ header. The device headers
// themselves (cuda/common/gcu_types.cuh onwards) are already host-valid C++.
// Shared memory is the build's business (tests/CMakeLists.txt copies the
// headers with it made block-wide storage); one block runs at a time.
#ifndef GCU_SIMT_EMU_H
#define GCU_SIMT_EMU_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <ucontext.h>
#include <vector>

#define __device__
#define __host__
#define __global__
#define __shared__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __align__(n) alignas (n)

struct gcu_emu_dim3 { unsigned x = 0, y = 1, z = 1 ; } ;

// CUDA's vector type of four ints (16 bytes, 16-aligned: one load on the GPU)
struct alignas (16) int4 { int x, y, z, w ; } ;
inline gcu_emu_dim3 threadIdx, blockDim, blockIdx, gridDim ;

// One fiber a CUDA thread, all on the calling host thread: a thread runs
// until it must wait for others (a warp-level call or __syncthreads whose
// other participants have not arrived) or gives way before an atomic, then
// the scheduler resumes another, in an order shuffled every pass (a seeded
// generator: reproducible), so lanes meet in many interleavings.
struct gcu_emu_fiber
{
    ucontext_t ctx ;            // (not x86-64)
    void *sp = nullptr ;        // x86-64: the saved stack pointer
    std::vector<unsigned char> stack ;
    unsigned tid = 0 ;
    bool done = false ;
} ;

struct gcu_emu_round         // one warp-level call of one mask, repeated
{
    uint64_t v [32] = { 0 }, done_v [32] = { 0 } ;
    unsigned arrived = 0 ;
    uint64_t gen = 0 ;       // completed rounds
} ;

struct gcu_emu_state
{
    ucontext_t sched ;
    void *sched_sp = nullptr ;
    std::vector<std::unique_ptr<gcu_emu_fiber>> fibers ;
    gcu_emu_fiber *cur = nullptr ;
    std::vector<std::map<unsigned, gcu_emu_round>> warps ;   // by warp, by mask
    unsigned bar_arrived = 0 ;
    uint64_t bar_gen = 0, events = 0 ;
    const std::function<void ()> *body = nullptr ;
    uint64_t rng = 0x9e3779b97f4a7c15ull ;
} ;
inline gcu_emu_state gcu_emu ;

[[noreturn]] inline void gcu_emu_fatal (const char *what, unsigned mask)
{
    // the device code is wrong (a lane outside its own mask, or threads
    // waiting for each other forever): no result can be trusted
    fprintf (stderr, "gcu_simt_emu: thread %u of block %u: %s (mask 0x%08x)\n",
        threadIdx.x, blockIdx.x, what, mask) ;
    fflush (stderr) ;
    std::_Exit (1) ;
}

// Every warp-level call, barrier, fence and atomic is a compiler memory
// barrier, as they are memory operations the device orders: without it the
// host compiler may keep values in registers across a rendezvous that did not
// switch fibers (the last lane to arrive goes on at once), or move plain
// accesses across an atomic lock (the 16-byte accumulation).
#define GCU_EMU_FENCE() __asm__ __volatile__ ("" ::: "memory")

// The switch between the scheduler and a fiber. On x86-64 a few
// instructions (the callee-saved registers on the stack, the stack pointer
// swapped): swapcontext also saves the signal mask, a system call each time,
// and made the emulation ten times slower.
#if defined (__x86_64__)
extern "C" void gcu_emu_switch (void **save_sp, void *new_sp) ;
__asm__ (
    ".text\n"
    ".globl gcu_emu_switch\n"
    ".type gcu_emu_switch, @function\n"
    "gcu_emu_switch:\n"
    "    pushq %rbp\n    pushq %rbx\n    pushq %r12\n"
    "    pushq %r13\n    pushq %r14\n    pushq %r15\n"
    "    movq %rsp, (%rdi)\n"
    "    movq %rsi, %rsp\n"
    "    popq %r15\n    popq %r14\n    popq %r13\n"
    "    popq %r12\n    popq %rbx\n    popq %rbp\n"
    "    ret\n"
    ".size gcu_emu_switch, .-gcu_emu_switch\n") ;
#endif

inline void gcu_emu_to_scheduler (gcu_emu_fiber *f)
{
#if defined (__x86_64__)
    gcu_emu_switch (&f->sp, gcu_emu.sched_sp) ;
#else
    swapcontext (&f->ctx, &gcu_emu.sched) ;
#endif
}

inline void gcu_emu_to_fiber (gcu_emu_fiber *f)
{
    gcu_emu.cur = f ;
#if defined (__x86_64__)
    gcu_emu_switch (&gcu_emu.sched_sp, f->sp) ;
#else
    swapcontext (&gcu_emu.sched, &f->ctx) ;
#endif
}

// the seeded generator (shuffled schedules, preemption)
inline uint64_t gcu_emu_next ()
{
    gcu_emu.rng = gcu_emu.rng * 6364136223846793005ull + 1442695040888963407ull ;
    return gcu_emu.rng ;
}

inline void gcu_emu_yield ()
{
    gcu_emu_fiber *f = gcu_emu.cur ;
    gcu_emu_to_scheduler (f) ;
    threadIdx.x = f->tid ;
}

// Every lane of mask gives mine; all [l] gets lane l's value (l in mask).
inline void gcu_emu_gather (unsigned mask, uint64_t mine, uint64_t all [32])
{
    GCU_EMU_FENCE () ;
    const unsigned lane = threadIdx.x & 31 ;
    if (!(mask >> lane & 1)) gcu_emu_fatal ("warp-level call outside its own mask", mask) ;
    gcu_emu_round &r = gcu_emu.warps [threadIdx.x / 32] [mask] ;
    if (r.arrived >> lane & 1) gcu_emu_fatal ("lane arrived twice in one round", mask) ;
    r.v [lane] = mine ;
    r.arrived |= 1u << lane ;
    const uint64_t g = r.gen ;
    if (r.arrived == mask)
    {
        // the last to arrive completes the round; the values stay readable
        // in done_v until the next round of this mask completes, which needs
        // every lane, so the others read them first
        memcpy (r.done_v, r.v, sizeof (r.v)) ;
        r.arrived = 0 ;
        r.gen++ ;
        gcu_emu.events++ ;
    }
    while (r.gen == g) gcu_emu_yield () ;
    memcpy (all, r.done_v, sizeof (r.v)) ;
    GCU_EMU_FENCE () ;
}

template <class T> inline uint64_t gcu_emu_bits (T v)
{
    static_assert (sizeof (T) <= 8, "shuffles of at most 8 bytes") ;
    uint64_t u = 0 ; memcpy (&u, &v, sizeof (T)) ; return u ;
}

// v from the lane src (lane, base) names, within this lane's segment of
// width lanes starting at base; a source outside the segment: own value
template <class T, class S> inline T gcu_emu_shfl (unsigned mask, T v, int width, S src)
{
    uint64_t all [32] ;
    gcu_emu_gather (mask, gcu_emu_bits (v), all) ;
    const int lane = (int) (threadIdx.x & 31), base = lane & ~(width - 1) ;
    const int from = src (lane, base) ;
    if (from < base || from >= base + width) return v ;
    if (!(mask >> from & 1)) gcu_emu_fatal ("shuffle from a lane outside the mask", mask) ;
    T r ; memcpy (&r, &all [from], sizeof (T)) ; return r ;
}

template <class T> inline T __shfl_sync (unsigned mask, T v, int src, int width = 32)
{
    return gcu_emu_shfl (mask, v, width, [=] (int, int base) { return base + (src & (width - 1)) ; }) ;
}
template <class T> inline T __shfl_up_sync (unsigned mask, T v, unsigned d, int width = 32)
{
    return gcu_emu_shfl (mask, v, width, [=] (int lane, int) { return lane - (int) d ; }) ;
}
template <class T> inline T __shfl_down_sync (unsigned mask, T v, unsigned d, int width = 32)
{
    return gcu_emu_shfl (mask, v, width, [=] (int lane, int) { return lane + (int) d ; }) ;
}
template <class T> inline T __shfl_xor_sync (unsigned mask, T v, int m, int width = 32)
{
    return gcu_emu_shfl (mask, v, width, [=] (int lane, int) { return lane ^ m ; }) ;
}
inline unsigned __ballot_sync (unsigned mask, int pred)
{
    uint64_t all [32] ;
    gcu_emu_gather (mask, pred != 0, all) ;
    unsigned b = 0 ;
    for (int l = 0 ; l < 32 ; l++) if ((mask >> l & 1) && all [l]) b |= 1u << l ;
    return b ;
}
inline int __all_sync (unsigned mask, int pred) { return __ballot_sync (mask, pred) == mask ; }
inline int __any_sync (unsigned mask, int pred) { return __ballot_sync (mask, pred) != 0 ; }
inline void __syncwarp (unsigned mask = 0xffffffffu) { uint64_t all [32] ; gcu_emu_gather (mask, 0, all) ; }

inline void __syncthreads ()
{
    GCU_EMU_FENCE () ;
    const uint64_t g = gcu_emu.bar_gen ;
    if (++gcu_emu.bar_arrived == blockDim.x)
    {
        gcu_emu.bar_arrived = 0 ;
        gcu_emu.bar_gen++ ;
        gcu_emu.events++ ;
    }
    while (gcu_emu.bar_gen == g) gcu_emu_yield () ;
    GCU_EMU_FENCE () ;
}

inline void gcu_emu_trampoline ()
{
    gcu_emu_fiber *f = gcu_emu.cur ;
    threadIdx.x = f->tid ;
    (*gcu_emu.body) () ;
    f->done = true ;
    gcu_emu.events++ ;
    gcu_emu_to_scheduler (f) ;                  // never resumed
}

// Runs body () as one block of nthreads threads (blockIdx.x = b).
inline void gcu_emu_block (unsigned b, unsigned nthreads, const std::function<void ()> &body,
    size_t stack_bytes = 128 * 1024)
{
    blockIdx.x = b ;
    blockDim.x = nthreads ;
    gcu_emu.body = &body ;
    gcu_emu.warps.assign ((nthreads + 31) / 32, std::map<unsigned, gcu_emu_round> ()) ;
    gcu_emu.bar_arrived = 0 ;
    gcu_emu.fibers.resize (nthreads) ;
    for (unsigned t = 0 ; t < nthreads ; t++)
    {
        std::unique_ptr<gcu_emu_fiber> &f = gcu_emu.fibers [t] ;
        if (!f) f.reset (new gcu_emu_fiber) ;
        f->stack.resize (stack_bytes) ;
        f->tid = t ;
        f->done = false ;
#if defined (__x86_64__)
        // the first switch to the fiber pops six zero registers and "returns"
        // into the trampoline, with the stack as a call would leave it
        uintptr_t top = ((uintptr_t) (f->stack.data () + f->stack.size ())) & ~(uintptr_t) 15 ;
        void **sp = (void **) top ;
        *--sp = nullptr ;                               // the trampoline's return address
        *--sp = (void *) &gcu_emu_trampoline ;
        for (int r = 0 ; r < 6 ; r++) *--sp = nullptr ;
        f->sp = sp ;
#else
        getcontext (&f->ctx) ;
        f->ctx.uc_stack.ss_sp = f->stack.data () ;
        f->ctx.uc_stack.ss_size = f->stack.size () ;
        f->ctx.uc_link = nullptr ;
        makecontext (&f->ctx, gcu_emu_trampoline, 0) ;
#endif
    }
    std::vector<unsigned> order (nthreads) ;
    for (unsigned t = 0 ; t < nthreads ; t++) order [t] = t ;
    unsigned left = nthreads ;
    while (left > 0)
    {
        const uint64_t before = gcu_emu.events ;
        for (unsigned t = nthreads - 1 ; t > 0 ; t--)       // shuffled each pass
        {
            std::swap (order [t], order [(unsigned) (gcu_emu_next () >> 33) % (t + 1)]) ;
        }
        for (unsigned t : order)
        {
            gcu_emu_fiber *f = gcu_emu.fibers [t].get () ;
            if (f->done) continue ;
            gcu_emu_to_fiber (f) ;
            if (f->done) left-- ;
        }
        if (left > 0 && gcu_emu.events == before)
            gcu_emu_fatal ("no thread can go on: a warp-level call or __syncthreads "
                "waits for lanes that never come", 0) ;
    }
    gcu_emu.cur = nullptr ;
}

// Atomics: one host thread runs every fiber, switched only at a warp-level
// call, a barrier, or just before an atomic, so a plain read-modify-write is
// atomic here. Before an atomic, one time in eight (seeded: reproducible),
// the fiber lets the others run: another lane may then change the word
// between this lane's read of it and its atomic (a hash insert's lost race,
// a lock held), as on the GPU. Counted as progress, so a lock's spinning is
// not taken for a deadlock (a lock never released would spin until the
// test's timeout).
inline void gcu_emu_preempt ()
{
    if (gcu_emu.cur == nullptr || (gcu_emu_next () >> 61) != 0) return ;
    gcu_emu.events++ ;
    gcu_emu_yield () ;
}

// *a = f (*a) atomically; the old value
template <class T, class F> inline T gcu_emu_rmw (T *a, F f)
{
    gcu_emu_preempt () ;
    GCU_EMU_FENCE () ;
    const T old = *a ;
    *a = f (old) ;
    GCU_EMU_FENCE () ;
    return old ;
}
#define GCU_EMU_ATOMICS(T)                                                              \
    inline T atomicAdd (T *a, T v) { return gcu_emu_rmw (a, [=] (T o) { return (T) (o + v) ; }) ; } \
    inline T atomicMin (T *a, T v) { return gcu_emu_rmw (a, [=] (T o) { return v < o ? v : o ; }) ; } \
    inline T atomicMax (T *a, T v) { return gcu_emu_rmw (a, [=] (T o) { return v > o ? v : o ; }) ; } \
    inline T atomicExch (T *a, T v) { return gcu_emu_rmw (a, [=] (T) { return v ; }) ; }           \
    inline T atomicCAS (T *a, T cmp, T v) { return gcu_emu_rmw (a, [=] (T o) { return o == cmp ? v : o ; }) ; }
GCU_EMU_ATOMICS (int)
GCU_EMU_ATOMICS (unsigned)
GCU_EMU_ATOMICS (long long)
GCU_EMU_ATOMICS (unsigned long long)
inline float atomicAdd (float *a, float v) { return gcu_emu_rmw (a, [=] (float o) { return o + v ; }) ; }
inline double atomicAdd (double *a, double v) { return gcu_emu_rmw (a, [=] (double o) { return o + v ; }) ; }
inline unsigned atomicOr (unsigned *a, unsigned v) { return gcu_emu_rmw (a, [=] (unsigned o) { return o | v ; }) ; }
inline unsigned atomicAnd (unsigned *a, unsigned v) { return gcu_emu_rmw (a, [=] (unsigned o) { return o & v ; }) ; }
inline void __threadfence () { GCU_EMU_FENCE () ; }
inline void __threadfence_block () { GCU_EMU_FENCE () ; }
inline int min (int a, int b) { return a < b ? a : b ; }
inline int max (int a, int b) { return a > b ? a : b ; }
inline int __ffs (unsigned x) { return __builtin_ffs ((int) x) ; }
inline int __popc (unsigned x) { return __builtin_popcount (x) ; }
inline int __popcll (unsigned long long x) { return __builtin_popcountll (x) ; }

#endif
