#!/usr/bin/env bash
# test.sh — the README's test command: installs the dependencies, builds
# everything (library, tests, examples, benchmarks; CUDA code for sm_90 when
# nvcc is there), runs the whole test suite (GPU tests skip where no GPU is
# usable, and say so), runs LAGraph's test suite with the library preloaded
# (scripts/lagraph.sh), then builds and tests the pass-through-only library
# without CUDA. Usage: scripts/test.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH
scripts/setup_deps.sh
jobs=$(nproc)
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S . -B "$build" "${gen[@]}" -DGRBCUDA_BUILD_TESTS=ON -DGRBCUDA_BUILD_EXAMPLES=ON ${GRBCUDA_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$jobs"
set +e
ctest --test-dir "$build" --output-on-failure -j "$jobs" 2>&1 | tee "$build/ctest.log"
rc=${PIPESTATUS[0]}
set -e
if grep -q "(Skipped)" "$build/ctest.log"; then
  echo "NOTE: skipped tests (no usable GPU on this machine):"
  grep "(Skipped)" "$build/ctest.log" | sed 's/^/  /'
fi
[ "$rc" = 0 ] || { echo "test.sh: the test suite failed"; exit "$rc"; }

# A real GraphBLAS application under the preload: LAGraph's own 56 tests
# (scripts/lagraph.sh; the tarball from ../shared/clients/ or .deps/), auto mode.
lib=$build/libgrbcuda.so
[ -f "$lib" ] || lib=$(find "$build" -name libgrbcuda.so -print -quit)
LAGRAPH_DIR=${LAGRAPH_DIR:-$build-lagraph} scripts/lagraph.sh "$lib" auto || { echo "test.sh: LAGraph's tests failed under LD_PRELOAD"; exit 1; }

# The same library built without CUDA: a pure pass-through.
cmake -S . -B "$build-nocuda" "${gen[@]}" -DGRBCUDA_ENABLE_CUDA=OFF \
  -DGRBCUDA_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build-nocuda" -j "$jobs" >/dev/null
# (the emulated device-code tests ran in the CUDA build already: -LE emu)
ctest --test-dir "$build-nocuda" --output-on-failure -j "$jobs" -L cpu -LE emu -E jit
echo "test.sh: all tests passed (CUDA build, LAGraph under LD_PRELOAD, pass-through-only build)"
