#!/usr/bin/env bash
# gpu_suite.sh — takes a GPU machine with no package registry from nothing to
# a built library, the whole test suite (GPU tests included), compute-sanitizer
# on the GPU tests, and the benchmarks; prints a short summary at the end.
# SuiteSparse:GraphBLAS comes as Debian packages in .deps/ (see README):
#   (cd .deps && apt-get download libgraphblas7 libgraphblas-dev)
# Usage: scripts/gpu_suite.sh [--bench quick|full|none] [--no-tests]
#        [--no-sanitizer] [--build DIR]
# Logs and bench results go to $OUT when it is set (the device tool's folder).
set -uo pipefail
cd "$(dirname "$0")/.."
bench=quick tests=1 sanitizer=1 build=build-gpu
while [ $# -gt 0 ]; do
  case "$1" in
    --bench) bench=$2; shift ;;
    --no-tests) tests=0 ;;
    --no-sanitizer) sanitizer=0 ;;
    --build) build=$2; shift ;;
    *) echo "gpu_suite: unknown option $1"; exit 2 ;;
  esac
  shift
done
out=${OUT:-$PWD/$build/out}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
summary=()
t0=$(date +%s)

# 1. SuiteSparse:GraphBLAS: the system's, else the .deb files unpacked
prefix_args=()
if [ ! -f /usr/include/GraphBLAS.h ] && ls .deps/*.deb >/dev/null 2>&1; then
  mkdir -p /tmp/gb
  for f in .deps/*.deb; do dpkg -x "$f" /tmp/gb; done
  prefix_args=(-DGRBCUDA_GRAPHBLAS_PREFIX=/tmp/gb/usr)
  export LD_LIBRARY_PATH=/tmp/gb/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
  summary+=("GraphBLAS: unpacked from .deps into /tmp/gb")
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null \
  | sed 's/^/GPU: /' | tee "$out/gpu.txt"
summary+=("$(cat "$out/gpu.txt" 2>/dev/null || echo 'GPU: nvidia-smi not available')")

# 2. build (sm_90 unless GRBCUDA_CUDA_ARCH says otherwise)
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
if cmake -S . -B "$build" "${gen[@]}" "${prefix_args[@]}" \
     -DGRBCUDA_CUDA_ARCH="${GRBCUDA_CUDA_ARCH:-90}" >"$out/cmake.log" 2>&1 \
   && cmake --build "$build" -j "$(nproc)" >"$out/build.log" 2>&1; then
  summary+=("build: ok ($(( $(date +%s) - t0 )) s)")
else
  tail -40 "$out/cmake.log" "$out/build.log"
  echo "gpu_suite: BUILD FAILED"; exit 1
fi

# 3. the whole test suite, GPU tests included
rc_tests=0
if [ $tests = 1 ]; then
  t1=$(date +%s)
  ctest --test-dir "$build" --output-on-failure -j 8 >"$out/ctest.log" 2>&1
  rc_tests=$?
  tail -25 "$out/ctest.log"
  summary+=("tests: $(grep -E 'tests passed' "$out/ctest.log" | tail -1) ($(( $(date +%s) - t1 )) s)")
  sk=$(grep -c "(Skipped)" "$out/ctest.log")
  [ "$sk" != 0 ] && summary+=("  skipped: $(grep '(Skipped)' "$out/ctest.log" | awk '{print $4}' | tr '\n' ' ')")
fi

# 4. compute-sanitizer (memcheck, racecheck) on the GPU test programs
rc_san=0
if [ $sanitizer = 1 ] && command -v compute-sanitizer >/dev/null; then
  for t in "$build"/tests/test_gpu_*; do
    [ -x "$t" ] || continue
    for tool in memcheck racecheck; do
      compute-sanitizer --tool $tool --error-exitcode 99 "$t" >"$out/sanitizer-$tool-$(basename "$t").log" 2>&1
      r=$?
      if [ $r = 0 ] || [ $r = 77 ]; then
        summary+=("compute-sanitizer $tool $(basename "$t"): $(grep -E 'ERROR SUMMARY' "$out/sanitizer-$tool-$(basename "$t").log" | tail -1)")
      else
        rc_san=1
        summary+=("compute-sanitizer $tool $(basename "$t"): FAILED (rc $r)")
        tail -20 "$out/sanitizer-$tool-$(basename "$t").log"
      fi
    done
  done
fi

# 5. benchmarks
if [ "$bench" != none ]; then
  if [ -x bench/run.sh ]; then
    t2=$(date +%s)
    bench/run.sh --build "$build" --"$bench" --out "$out" 2>&1 | tee "$out/bench.log" | tail -60
    summary+=("bench ($bench): rc ${PIPESTATUS[0]}, $(( $(date +%s) - t2 )) s, table in $out")
  else
    summary+=("bench: bench/run.sh not present")
  fi
fi

echo
echo "==== gpu_suite summary ($(( $(date +%s) - t0 )) s) ===="
for s in "${summary[@]}"; do echo "$s"; done
[ $rc_tests = 0 ] && [ $rc_san = 0 ]
