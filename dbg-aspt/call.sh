#!/usr/bin/env bash
# device call for branch aspt: build, reduced GPU test, sanitizer, SpMM/SDDMM vs cuSPARSE
set -u
T0=$(date +%s); L=$OUT; STAGE=${STAGE:-1}
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
left() { echo $(( ${BUDGET:-280} - ($(date +%s) - T0) )); }
export GPU_BUILD_DIR=/tmp/bgpu-aspt
source scripts/gpu_env.sh
nvidia-smi --query-gpu=name --format=csv,noheader
git_head=$(cat ASPT_HEAD 2>/dev/null); el "tree $git_head"
gpu_build grbcuda test_spmm_gpu grb_bench cusparse_peer || { echo BUILD FAILED; exit 1; }
el "built"
B=$GPU_BUILD_DIR
LIB=$B/libgrbcuda.so; [ -f $LIB ] || LIB=$(find $B -name libgrbcuda.so | head -1)
GB=$(find $B -name grb_bench -type f | head -1); PEER=$(find $B -name cusparse_peer -type f | head -1)
W="--workload grid3d-100 --workload rmat-20-16"
bench() { # k tag extra-env...
  local k=$1 tag=$2; shift 2
  env GRBCUDA_BENCH_COLS=$k GRBCUDA_VERBOSE=1 "$@" LD_PRELOAD=$LIB timeout 60 $GB $W --ops spmm,sddmm --repeats 5 --check always > $L/gpu$k$tag.json 2>$L/gpu$k$tag.err; echo "grb k=$k $tag rc=$?"
  grep -E "gpu spmm|sddmm" $L/gpu$k$tag.err | grep -E "grid|rmat|nnz\(A\) (69|31)" | tail -3 | cut -c1-600
}
for k in 32 128; do
  el "peer k=$k"
  GRBCUDA_BENCH_COLS=$k timeout 45 $PEER $W --ops spmm,sddmm --repeats 5 > $L/peer$k.json 2>$L/peer$k.err; echo "peer rc=$?"
  el "grbcuda k=$k"
  bench $k ""
done
if [ "$STAGE" = 1 ]; then
  el "test_spmm_gpu 3"
  timeout $(( $(left) > 60 ? 50 : 20 )) $B/tests/test_spmm_gpu 3 > $L/test.log 2>&1; echo "test rc=$?"; grep -E "FAIL|passed|products|fault" $L/test.log | head -20
  for v in "GRBCUDA_SPMM_TILE=1" "GRBCUDA_SPMM_TILE=0"; do
    [ $(left) -gt 40 ] || break
    el "sweep k=32 $v"; env $v GRBCUDA_BENCH_COLS=32 GRBCUDA_VERBOSE=1 LD_PRELOAD=$LIB timeout 35 $GB $W --ops spmm --repeats 3 --check never > $L/sw32-$v.json 2>$L/sw32-$v.err; echo rc=$?
  done
  for v in "GRBCUDA_SPMM_CH=1" "GRBCUDA_SDDMM_GROUP=8"; do
    [ $(left) -gt 40 ] || break
    el "sweep k=128 $v"; env $v GRBCUDA_BENCH_COLS=128 GRBCUDA_VERBOSE=1 LD_PRELOAD=$LIB timeout 35 $GB $W --ops spmm,sddmm --repeats 3 --check never > $L/sw128-$v.json 2>$L/sw128-$v.err; echo rc=$?
  done
fi
if [ $(left) -gt 25 ]; then
  el "sanitizer"
  timeout $(( $(left) - 5 )) compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/test_spmm_gpu 1 > $L/san.log 2>&1; echo "san rc=$?"; grep -E "ERROR SUMMARY|FAIL|passed" $L/san.log | head -8
fi
el done
