#!/usr/bin/env bash
# demo.sh — the README's main command: installs the dependencies, builds, and
# runs the showcase on a generated graph: triangle counting (masked GrB_mxm +
# GrB_reduce, three methods), BFS (GrB_vxm / GrB_mxv) and PageRank (GrB_vxm,
# eWise, apply and assign), linked with grbcuda,
# checked against host references, with grbcuda's statistics at the end
# (which calls ran on the GPU, which on the host and why).
# Usage: scripts/demo.sh [WORKLOAD] [build-dir]   (default rmat-16-8; e.g.
#        rmat-20-16, urand-18-8, grid3d-100, or a .mtx file)
set -euo pipefail
cd "$(dirname "$0")/.."
workload=${1:-rmat-16-8}
build=${2:-build}
[ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH
scripts/setup_deps.sh
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S . -B "$build" "${gen[@]}" -DGRBCUDA_BUILD_EXAMPLES=ON ${GRBCUDA_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$(nproc)" --target tc_grbcuda bfs_grbcuda pagerank_grbcuda >/dev/null
echo "== triangle counting on $workload (GrB_mxm + GrB_reduce, through grbcuda)"
GRBCUDA_STATS=1 "$build/graph_examples/tc_grbcuda" --method all --check "$workload"
echo
echo "== BFS on $workload (GrB_vxm / GrB_mxv, through grbcuda)"
GRBCUDA_STATS=1 "$build/graph_examples/bfs_grbcuda" --check "$workload"
echo
echo "== PageRank on $workload (damping 0.85, tolerance 1e-4, through grbcuda)"
GRBCUDA_STATS=1 "$build/graph_examples/pagerank_grbcuda" --check "$workload"
