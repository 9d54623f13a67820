// gcu_spmm_load.cuh — the loads and stores of the kernels with dense
// operands (gcu_spmm.cuh, gcu_sddmm.cuh): VEC values at once, through the
// read-only path, with cache hints (A's stream, C's write, and X's rows by
// the class the plan gave their column: gcu_pack_ldg_cls). The SIMT
// emulation (no __CUDA_ARCH__) loads and stores plainly.
#ifndef GCU_SPMM_LOAD_CUH
#define GCU_SPMM_LOAD_CUH

// VEC consecutive values of T, loaded or stored at once (VEC > 1 only for
// power-of-two sizes, VEC*sizeof (T) <= 16: the host's choice)
template <class T, int VEC>
struct alignas (VEC > 1 ? sizeof (T) * VEC : alignof (T)) gcu_pack
{
    T v [VEC];
};

template <class T, int VEC>
__device__ __forceinline__ gcu_pack<T, VEC> gcu_pack_load (const T *__restrict__ x,
    int64_t p, int64_t stride)
{
    gcu_pack<T, VEC> r;
    if constexpr (VEC > 1) r = *(const gcu_pack<T, VEC> *) (x + p);
    else r.v [0] = x [p];
    (void) stride;
    return r;
}

template <class T, int VEC>
__device__ __forceinline__ void gcu_pack_store (T *__restrict__ out, int64_t p,
    const gcu_pack<T, VEC> &v)
{
    if constexpr (VEC > 1) *(gcu_pack<T, VEC> *) (out + p) = v;
    else out [p] = v.v [0];
}

// A value of A (its index or its value, read once) loaded with the
// evict-first hint where STREAM and the type is a native word of 1, 2, 4 or
// 8 bytes (so that A's stream does not push X's rows out of L2), else
// plainly. The SIMT emulation (no __CUDA_ARCH__) loads plainly.
template <bool STREAM, class T>
__device__ __forceinline__ T gcu_ld_stream (const T *__restrict__ p)
{
#if defined (__CUDA_ARCH__)
    if constexpr (STREAM && alignof (T) == sizeof (T))
    {
        T r;
        if constexpr (sizeof (T) == 1)
        {
            const unsigned char u = __ldcs ((const unsigned char *) p);
            memcpy (&r, &u, 1);
            return r;
        }
        else if constexpr (sizeof (T) == 2)
        {
            const unsigned short u = __ldcs ((const unsigned short *) p);
            memcpy (&r, &u, 2);
            return r;
        }
        else if constexpr (sizeof (T) == 4)
        {
            const unsigned int u = __ldcs ((const unsigned int *) p);
            memcpy (&r, &u, 4);
            return r;
        }
        else if constexpr (sizeof (T) == 8)
        {
            const unsigned long long u = __ldcs ((const unsigned long long *) p);
            memcpy (&r, &u, 8);
            return r;
        }
    }
#endif
    return *p;
}

// VEC values of X through the read-only path (ld.global.nc) where the pack
// is a naturally aligned word of 4, 8 or 16 bytes, else as gcu_pack_load
template <class T, int VEC>
__device__ __forceinline__ gcu_pack<T, VEC> gcu_pack_ldg (const T *__restrict__ x, int64_t p)
{
    typedef gcu_pack<T, VEC> P;
#if defined (__CUDA_ARCH__)
    if constexpr (alignof (P) == sizeof (P) && sizeof (P) == 16)
    {
        const uint4 u = __ldg ((const uint4 *) (x + p));
        P r;
        memcpy (&r, &u, 16);
        return r;
    }
    else if constexpr (alignof (P) == sizeof (P) && sizeof (P) == 8)
    {
        const uint2 u = __ldg ((const uint2 *) (x + p));
        P r;
        memcpy (&r, &u, 8);
        return r;
    }
    else if constexpr (alignof (P) == sizeof (P) && sizeof (P) == 4)
    {
        const unsigned int u = __ldg ((const unsigned int *) (x + p));
        P r;
        memcpy (&r, &u, 4);
        return r;
    }
#endif
    return gcu_pack_load<T, VEC> (x, p, 1);
}

// VEC values into out [p], with the streaming (evict-first) hint where
// STREAM and the pack is a naturally aligned word of 4, 8 or 16 bytes: C is
// written once and not read here, so it should not push X's rows out of L2
template <bool STREAM, class T, int VEC>
__device__ __forceinline__ void gcu_pack_st (T *__restrict__ out, int64_t p,
    const gcu_pack<T, VEC> &v)
{
    typedef gcu_pack<T, VEC> P;
#if defined (__CUDA_ARCH__)
    if constexpr (STREAM && alignof (P) == sizeof (P) && sizeof (P) == 16)
    {
        uint4 u;
        memcpy (&u, &v, 16);
        __stcs ((uint4 *) (out + p), u);
        return;
    }
    else if constexpr (STREAM && alignof (P) == sizeof (P) && sizeof (P) == 8)
    {
        uint2 u;
        memcpy (&u, &v, 8);
        __stcs ((uint2 *) (out + p), u);
        return;
    }
    else if constexpr (STREAM && alignof (P) == sizeof (P) && sizeof (P) == 4)
    {
        unsigned int u;
        memcpy (&u, &v, 4);
        __stcs ((unsigned int *) (out + p), u);
        return;
    }
#endif
    gcu_pack_store<T, VEC> (out, p, v);
}

// X's rows by the class the plan gave their column (GCU_SPMM_HUB_*: src/spmm/hub.cu):
// HOT (among the fullest columns, as many rows as L1 holds): kept in L1
// (L1::evict_last); WARM: a plain read-only load; COLD (the emptiest
// columns, past what L2 holds): first out of L1 and of L2 (pol: an L2
// evict-first policy), so that the warm rows stay in L2. Packs of 4, 8 or
// 16 naturally aligned bytes; else, and in the SIMT emulation, as
// gcu_pack_ldg. (GCU_SPMM_CLS_*: gcu_spmm_policy.h; why these hints and
// not L1::no_allocate for the warm rows: there.)
__device__ __forceinline__ unsigned long long gcu_l2_evict_first_policy (void)
{
    unsigned long long pol = 0;
#if defined (__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm ("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l" (pol));
#endif
    return pol;
}

#if defined (__CUDA_ARCH__)
#define GCU_LDG_CLS(W, R, CONS, ...)                                                        \
    if (cls == GCU_SPMM_CLS_HOT)                                                            \
        asm ("ld.global.nc.L1::evict_last" W " " R ", [%" CONS "];" : __VA_ARGS__); \
    else if (cls == GCU_SPMM_CLS_COLD)                                                      \
        asm ("ld.global.nc.L1::evict_first.L2::cache_hint" W " " R ", [%" CONS "], %" \
            GCU_LDG_POL ";" : __VA_ARGS__, "l" (pol));                                      \
    else                                                                                    \
        asm ("ld.global.nc" W " " R ", [%" CONS "];" : __VA_ARGS__);
#endif

template <class T, int VEC>
__device__ __forceinline__ gcu_pack<T, VEC> gcu_pack_ldg_cls (const T *__restrict__ x, int64_t p,
    int cls, unsigned long long pol)
{
    typedef gcu_pack<T, VEC> P;
#if defined (__CUDA_ARCH__)
    const T *q = x + p;
    if constexpr (alignof (P) == sizeof (P) && sizeof (P) == 16)
    {
        unsigned u [4];
#define GCU_LDG_POL "5"
        GCU_LDG_CLS (".v4.u32", "{%0,%1,%2,%3}", "4", "=r" (u [0]), "=r" (u [1]), "=r" (u [2]),
            "=r" (u [3]) : "l" (q))
#undef GCU_LDG_POL
        P r;
        memcpy (&r, u, 16);
        return r;
    }
    else if constexpr (alignof (P) == sizeof (P) && sizeof (P) == 8)
    {
        unsigned u [2];
#define GCU_LDG_POL "3"
        GCU_LDG_CLS (".v2.u32", "{%0,%1}", "2", "=r" (u [0]), "=r" (u [1]) : "l" (q))
#undef GCU_LDG_POL
        P r;
        memcpy (&r, u, 8);
        return r;
    }
    else if constexpr (alignof (P) == sizeof (P) && sizeof (P) == 4)
    {
        unsigned u;
#define GCU_LDG_POL "2"
        GCU_LDG_CLS (".u32", "%0", "1", "=r" (u) : "l" (q))
#undef GCU_LDG_POL
        P r;
        memcpy (&r, &u, 4);
        return r;
    }
#endif
    (void) cls; (void) pol;
    return gcu_pack_ldg<T, VEC> (x, p);
}

#endif
