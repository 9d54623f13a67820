#!/usr/bin/env bash
# second device call (warm machine, incremental build in /tmp/bgpu-aspt)
set -u
T0=$(date +%s); L=$OUT
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
export GPU_BUILD_DIR=/tmp/bgpu-aspt
source scripts/gpu_env.sh
nvidia-smi --query-gpu=name --format=csv,noheader; el "tree $(cat ASPT_HEAD)"
gpu_build grbcuda test_spmm_gpu grb_bench || { echo BUILD FAILED; exit 1; }
el built
B=$GPU_BUILD_DIR; LIB=$(find $B -name libgrbcuda.so | head -1); GB=$(find $B -name grb_bench -type f | head -1)
W="--workload grid3d-100 --workload rmat-20-16"
for k in 32 128; do
  GRBCUDA_BENCH_COLS=$k GRBCUDA_VERBOSE=1 LD_PRELOAD=$LIB timeout 22 $GB $W --ops spmm --repeats 5 --check always > $L/g$k.json 2>$L/g$k.err; echo "k=$k rc=$?"
  grep -E "gpu spmm" $L/g$k.err | tail -1 | cut -c1-330; grep -E "gpu spmm" $L/g$k.err | grep grid -m1 | cut -c1-330
  el "k=$k"
done
timeout 18 $B/tests/test_spmm_gpu 2 > $L/t.log 2>&1; echo "test rc=$?"; grep -E "semiring|FAIL|passed|products" $L/t.log | head -12; tail -3 $L/t.log
el done
