# gpu_env.sh — sourced on a GPU machine without a package registry: unpacks
# SuiteSparse from .deps/*.deb into /tmp/gb (if the system has no GraphBLAS),
# sets PATH/LD_LIBRARY_PATH, and defines gpu_build [targets...], which
# configures build-gpu for sm_90 and builds the given targets (all if none),
# printing only errors. Used by gpu_suite.sh and for quick runs:
#   source scripts/gpu_env.sh && gpu_build test_mxm_gpu && build-gpu/tests/test_mxm_gpu
export PATH=/usr/local/cuda/bin:$PATH
GPU_BUILD_DIR=${GPU_BUILD_DIR:-build-gpu}
GPU_PREFIX_ARGS=()
if [ ! -f /usr/include/GraphBLAS.h ] && ls .deps/*.deb >/dev/null 2>&1; then
  mkdir -p /tmp/gb
  for f in .deps/*.deb; do dpkg -x "$f" /tmp/gb; done
  GPU_PREFIX_ARGS=(-DGRBCUDA_GRAPHBLAS_PREFIX=/tmp/gb/usr)
  export LD_LIBRARY_PATH=/tmp/gb/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
fi
gpu_build() {
  local gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
  cmake -S . -B "$GPU_BUILD_DIR" "${gen[@]}" "${GPU_PREFIX_ARGS[@]}" \
    -DGRBCUDA_CUDA_ARCH="${GRBCUDA_CUDA_ARCH:-90}" ${GRBCUDA_CMAKE_ARGS:-} >"$GPU_BUILD_DIR.cmake.log" 2>&1 \
    || { tail -30 "$GPU_BUILD_DIR.cmake.log"; return 1; }
  local t=(); for x in "$@"; do t+=(--target "$x"); done
  cmake --build "$GPU_BUILD_DIR" -j "$(nproc)" "${t[@]}" >"$GPU_BUILD_DIR.build.log" 2>&1 \
    || { grep -E -B2 -A6 "error|FAILED" "$GPU_BUILD_DIR.build.log" | head -60; return 1; }
}
