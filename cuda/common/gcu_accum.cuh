// gcu_accum.cuh — atomic accumulation of a semiring's values into slots
// that other threads update at once (hash tables in shared or global memory,
// dense outputs): every slot folded with SR::add by a read-modify-write that
// is atomic with respect to the others — one hardware atomic where the
// device has the monoid with the host's result, compare-and-swap on the
// value's bits for 1-8 byte types, a per-slot lock for wider ones (FC64,
// user types). The ANY monoid keeps whichever value lands last. Shared by
// the SpGEMM numeric kernels (cuda/spgemm/) and the push SpMSpV
// (cuda/mxv/).
#ifndef GCU_ACCUM_CUH
#define GCU_ACCUM_CUH

#include "common/gcu_semiring.cuh"

template <bool C, class T, class F> struct gcu_spgemm_pick { typedef T type; };
template <class T, class F> struct gcu_spgemm_pick<false, T, F> { typedef F type; };

template <class SR> struct gcu_spgemm_needs_lock
{
    static const bool v = sizeof (typename SR::Z) > 8;
};

template <class U, class Z> __device__ __forceinline__ U gcu_bits_of (const Z &z)
{
    U u; memcpy (&u, &z, sizeof (U)); return u;
}
template <class Z, class U> __device__ __forceinline__ Z gcu_of_bits (U u)
{
    Z z; memcpy (&z, &u, sizeof (Z)); return z;
}

template <class A, class B> struct gcu_spgemm_same { static const bool v = false; };
template <class A> struct gcu_spgemm_same<A, A> { static const bool v = true; };

// The monoids the hardware has as one atomic instruction (in shared and
// global memory) with the host's result: PLUS over 32/64-bit integers; MIN
// and MAX over 32/64-bit integers. Integer addition wraps as the C types
// do, so atomicAdd on the unsigned bits is exact for signed types too.
// PLUS over float and double is not among them: the hardware's float
// atomicAdd gives its own canonical NaN (sign bit clear) where the host
// keeps a NaN term's sign or gives inf - inf its default NaN (sign bit set,
// x86), which a program sees through COPYSIGN (tester regression (6)); the
// compare-and-swap loop below adds with gcu_plus, which follows the host.
template <class SR> struct gcu_spgemm_native
{
    typedef typename SR::Z Z;
    static const bool is_int = gcu_traits<Z>::cls == GCU_CLS_INT || gcu_traits<Z>::cls == GCU_CLS_UINT;
    static const bool is_flt = gcu_spgemm_same<Z, float>::v || gcu_spgemm_same<Z, double>::v;
    static const bool v = !SR::is_any && (sizeof (Z) == 4 || sizeof (Z) == 8)
        && ((SR::add_kind == 1 && is_int) || ((SR::add_kind == 2 || SR::add_kind == 3) && is_int));
};

template <class SR>
__device__ __forceinline__ void gcu_spgemm_native_accum (typename SR::Z *slot, const typename SR::Z &t)
{
    typedef typename SR::Z Z;
    if constexpr (SR::add_kind == 1)
    {
        if constexpr (sizeof (Z) == 4) atomicAdd ((unsigned int *) slot, (unsigned int) t);
        else atomicAdd ((unsigned long long *) slot, (unsigned long long) t);
    }
    else
    {
        const bool sgn = gcu_traits<Z>::cls == GCU_CLS_INT;
        typedef typename gcu_spgemm_pick<sizeof (Z) == 4,
            typename gcu_spgemm_pick<sgn, int, unsigned int>::type,
            typename gcu_spgemm_pick<sgn, long long, unsigned long long>::type>::type W;
        if constexpr (SR::add_kind == 2) atomicMin ((W *) slot, (W) t);
        else atomicMax ((W *) slot, (W) t);
    }
}

// A value of type Z in a slot shared by other threads, read into *cur or
// written from it by the holder of the slot's lock. Word-sized values move
// word by word through atomics: coherent across blocks (the slot may be in
// global memory, updated by other blocks: the push SpMSpV) with no stale L1
// copy, and visible to compute-sanitizer's racecheck, which does not know the
// lock and reported the plain accesses to shared slots as races. Values of
// odd sizes (user types) move byte by byte through volatile accesses.
template <class Z>
__device__ __forceinline__ void gcu_locked_slot (Z *slot, Z *cur, bool store)
{
    if constexpr (sizeof (Z) % 4 == 0 && alignof (Z) >= 4)
    {
        unsigned int *s = (unsigned int *) slot, *c = (unsigned int *) cur;
        for (unsigned w = 0 ; w < sizeof (Z) / 4 ; w++)
        {
            if (store) atomicExch (&s [w], c [w]);
            else c [w] = atomicOr (&s [w], 0u);
        }
    }
    else
    {
        volatile unsigned char *s = (volatile unsigned char *) slot;
        unsigned char *c = (unsigned char *) cur;
        for (unsigned w = 0 ; w < sizeof (Z) ; w++)
        {
            if (store) s [w] = c [w];
            else c [w] = s [w];
        }
    }
}

// *slot = add (*slot, t), atomically with respect to other threads updating
// the same slot; lock is the slot's lock word (used only for wide types).
template <class SR>
__device__ __forceinline__ void gcu_spgemm_accum (typename SR::Z *slot,
    int32_t *lock, const typename SR::Z &t)
{
    typedef typename SR::Z Z;
    if constexpr (gcu_spgemm_needs_lock<SR>::v)
    {
        // the slot may be in global memory, updated by other blocks (the
        // push SpMSpV): device-scope fences around the update
        while (atomicCAS (lock, 0, 1) != 0) { }
        __threadfence ();
        Z cur;
        gcu_locked_slot (slot, &cur, false);
        cur = SR::is_any ? t : SR::add (cur, t);
        gcu_locked_slot (slot, &cur, true);
        __threadfence ();
        atomicExch (lock, 0);
    }
    else if constexpr (gcu_spgemm_native<SR>::v)
    {
        gcu_spgemm_native_accum<SR> (slot, t);
    }
    else if constexpr (sizeof (Z) == 4 || sizeof (Z) == 8)
    {
        typedef typename gcu_spgemm_pick<sizeof (Z) == 4, unsigned int, unsigned long long>::type U;
        if constexpr (SR::is_any)
        {
            atomicExch ((U *) slot, gcu_bits_of<U> (t));
        }
        else
        {
            U old = *(volatile U *) slot;
            while (true)
            {
                const U nu = gcu_bits_of<U> (SR::add (gcu_of_bits<Z> (old), t));
                const U prev = atomicCAS ((U *) slot, old, nu);
                if (prev == old) break;
                old = prev;
            }
        }
    }
    else
    {
        // 1- or 2-byte values: compare-and-swap the aligned word around them
        const size_t addr = (size_t) slot;
        unsigned int *word = (unsigned int *) (addr & ~(size_t) 3);
        const unsigned shift = (unsigned) (addr & 3) * 8;
        const unsigned mask = (sizeof (Z) == 1 ? 0xffu : 0xffffu) << shift;
        unsigned int old = *(volatile unsigned int *) word;
        while (true)
        {
            const unsigned short cur_bits = (unsigned short) ((old & mask) >> shift);
            Z cur; memcpy (&cur, &cur_bits, sizeof (Z));
            const Z nz = SR::is_any ? t : SR::add (cur, t);
            unsigned short nz_bits = 0; memcpy (&nz_bits, &nz, sizeof (Z));
            const unsigned int nu = (old & ~mask) | (((unsigned int) nz_bits << shift) & mask);
            const unsigned int prev = atomicCAS (word, old, nu);
            if (prev == old) break;
            old = prev;
        }
    }
}

#endif
