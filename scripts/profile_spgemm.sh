#!/usr/bin/env bash
# profile_spgemm.sh — where SpGEMM's kernel time goes, on a GPU machine:
# builds the library and the two benchmark programs, then for each workload
# prints grbcuda's own phase log (GRBCUDA_VERBOSE) and, under ncu, the device
# time of every kernel of one grbcuda call and of one cuSPARSE call, summed
# by kernel name. With PROFILE_DETAIL=regex, also ncu's stall, occupancy and
# memory sections for the first PROFILE_COUNT (default 3) grbcuda kernels whose
# name matches. Usage (repository root):
#   [PROFILE_DETAIL=gcu_sgs] bash scripts/profile_spgemm.sh [workload ...]
#   (default workloads: the three of BENCH.md)
set -u
cd "$(dirname "$0")/.."
source scripts/gpu_env.sh
gpu_build grbcuda grb_bench cusparse_peer || exit 1
WORKLOADS=("$@")
[ ${#WORKLOADS[@]} -eq 0 ] && WORKLOADS=(grid3d-100 urand-18-8 rmat-16-8)
LIB=$PWD/$GPU_BUILD_DIR/libgrbcuda.so
OUTDIR=${OUT:-/tmp}/profile
mkdir -p "$OUTDIR"

summarise() {   # ncu csv -> total ms per kernel name, largest first
  python3 - "$1" <<'EOF'
import csv, sys, collections
tot = collections.defaultdict(float); cnt = collections.Counter()
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
heads = [k for k, r in enumerate(rows) if "Kernel Name" in r]
if not heads: sys.exit(0)
rows = rows[heads[0]:]
h = rows[0]; ki = h.index("Kernel Name"); vi = h.index("Metric Value"); ui = h.index("Metric Unit")
for r in rows[1:]:
    try: v = float(r[vi].replace(",", ""))
    except ValueError: continue
    scale = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "second": 1e3}.get(r[ui], 1e-6)
    name = r[ki].replace("(anonymous namespace)::", "").replace("void ", "").split("(")[0].split("<")[0][:60]
    tot[name] += v * scale; cnt[name] += 1
s = sum(tot.values())
for k, v in sorted(tot.items(), key=lambda x: -x[1]):
    print(f"  {v:9.3f} ms  {cnt[k]:4d}x  {k}")
print(f"  {s:9.3f} ms  total")
EOF
}

for w in "${WORKLOADS[@]}"; do
  echo "=== $w: grbcuda phases (GRBCUDA_VERBOSE, 3 calls)"
  LD_PRELOAD=$LIB GRBCUDA_VERBOSE=1 "$GPU_BUILD_DIR/bench/grb_bench" --workload "$w" --ops spgemm \
    --repeats 3 --check never 2>&1 | grep -E "spgemm [0-9]|symbolic phase|e2e|kernel" | tail -8
  if command -v ncu >/dev/null; then
    echo "=== $w: grbcuda kernels under ncu (one call after a warm-up)"
    LD_PRELOAD=$LIB ncu --clock-control none --csv --metrics gpu__time_duration.sum \
      --launch-skip-before-match 0 "$GPU_BUILD_DIR/bench/grb_bench" --workload "$w" --ops spgemm \
      --repeats 1 --check never >"$OUTDIR/$w-grbcuda.csv" 2>/dev/null
    summarise "$OUTDIR/$w-grbcuda.csv"
    echo "=== $w: cuSPARSE kernels under ncu"
    ncu --clock-control none --csv --metrics gpu__time_duration.sum \
      "$GPU_BUILD_DIR/bench/cusparse_peer" --workload "$w" --ops spgemm --repeats 1 \
      >"$OUTDIR/$w-cusparse.csv" 2>/dev/null
    summarise "$OUTDIR/$w-cusparse.csv"
    if [ -n "${PROFILE_DETAIL:-}" ]; then
      echo "=== $w: ncu sections of kernels matching $PROFILE_DETAIL"
      LD_PRELOAD=$LIB ncu --clock-control none -k "regex:$PROFILE_DETAIL" --launch-count "${PROFILE_COUNT:-3}" \
        --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
        --section SchedulerStats --section MemoryWorkloadAnalysis \
        "$GPU_BUILD_DIR/bench/grb_bench" --workload "$w" --ops spgemm --repeats 1 --check never 2>&1 \
        | grep -vE '^\{|^\[grb' | grep -E 'gcu_|k_|Duration|Throughput|Occupancy|Stall|Warp Cycles|Issued|Eligible|Registers|Shared Memory Config|Block Limit|Hit Rate|One or More|No Eligible|Active Warps|Busy' | head -150
    fi
  fi
done
