"""A real client under LD_PRELOAD: Debian's Python bindings of SuiteSparse
(python3-suitesparse-graphblas, cffi) run GrB_mxm with libgrbcuda preloaded.
The answer is checked against a product computed here in plain Python, and
grbcuda's statistics (read through ctypes from the preloaded library) must
show that the call passed through grbcuda."""
import ctypes
import random
import sys

try:
    from suitesparse_graphblas import ffi, lib, initialize
except ImportError:
    print("SKIP: python3-suitesparse-graphblas is not installed")
    sys.exit(77)


class OpStats(ctypes.Structure):
    _fields_ = [("calls", ctypes.c_uint64), ("gpu", ctypes.c_uint64),
                ("host", ctypes.c_uint64), ("reason", ctypes.c_uint64 * 7),
                ("seconds", ctypes.c_double),
                ("gpu_kernel_seconds", ctypes.c_double), ("gpu_kernel_calls", ctypes.c_uint64),
                ("gpu_bytes_uploaded", ctypes.c_uint64), ("gpu_bytes_downloaded", ctypes.c_uint64),
                ("host_gpu_starting", ctypes.c_uint64), ("host_kernel_compiling", ctypes.c_uint64)]


def stats(name):
    proc = ctypes.CDLL(None)
    try:
        fn = proc.grbcuda_stats_get
    except AttributeError:
        return None
    s = OpStats()
    assert fn(name.encode(), ctypes.byref(s)) == 0
    return s


def main():
    passed = failed = 0

    def check(cond, what):
        nonlocal passed, failed
        if cond:
            passed += 1
        else:
            failed += 1
            print("FAIL:", what)

    initialize()
    check(stats("GrB_mxm") is not None, "grbcuda is not preloaded into python")
    before = stats("GrB_mxm")
    rng = random.Random(7)
    n, k, m = 30, 20, 25
    A = {(rng.randrange(n), rng.randrange(k)): float(rng.randint(1, 9)) for _ in range(120)}
    B = {(rng.randrange(k), rng.randrange(m)): float(rng.randint(1, 9)) for _ in range(100)}

    def build(d, r, c):
        M = ffi.new("GrB_Matrix*")
        check(lib.GrB_Matrix_new(M, lib.GrB_FP64, r, c) == 0, "GrB_Matrix_new")
        for (i, j), v in d.items():
            lib.GrB_Matrix_setElement_FP64(M[0], v, i, j)
        return M

    Am, Bm = build(A, n, k), build(B, k, m)
    C = ffi.new("GrB_Matrix*")
    lib.GrB_Matrix_new(C, lib.GrB_FP64, n, m)
    info = lib.GrB_mxm(C[0], ffi.NULL, ffi.NULL, lib.GrB_PLUS_TIMES_SEMIRING_FP64,
                       Am[0], Bm[0], ffi.NULL)
    check(info == 0, "GrB_mxm returned %d" % info)
    expect = {}
    for (i, kk), a in A.items():
        for (kk2, j), b in B.items():
            if kk == kk2:
                expect[(i, j)] = expect.get((i, j), 0.0) + a * b
    nv = ffi.new("GrB_Index*")
    lib.GrB_Matrix_nvals(nv, C[0])
    check(nv[0] == len(expect), "nvals %d, expected %d" % (nv[0], len(expect)))
    x = ffi.new("double*")
    bad = 0
    for (i, j), v in expect.items():
        if lib.GrB_Matrix_extractElement_FP64(x, C[0], i, j) != 0 or x[0] != v:
            bad += 1
    check(bad == 0, "%d entries differ from the Python product" % bad)
    after = stats("GrB_mxm")
    check(after is not None and after.calls - before.calls == 1,
          "grbcuda did not count the GrB_mxm call")
    check(after is not None and after.gpu + after.host == after.calls, "gpu + host != calls")
    for M in (Am, Bm, C):
        lib.GrB_Matrix_free(M)
    print("test_preload.py: %d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
