#!/usr/bin/env bash
# setup_deps.sh — installs what grbcuda needs from Debian's packages:
# SuiteSparse:GraphBLAS (libgraphblas-dev), the Python bindings used by the
# preload test, CMake, Ninja and pkg-config. The CUDA toolkit is optional
# (without nvcc the library builds as a pure pass-through). Idempotent.
set -euo pipefail
pkgs=(libgraphblas-dev python3-suitesparse-graphblas cmake ninja-build pkg-config gcc)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup_deps: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup_deps: nvcc found in /usr/local/cuda/bin (add it to PATH)"
fi
