#!/usr/bin/env bash
# gpu_suite.sh — takes a GPU machine with no package registry from nothing to
# a built library, the whole test suite (GPU tests included), compute-sanitizer
# on the GPU tests, and the benchmarks; prints a short summary at the end.
# Stages: build, tests, lagraph (LAGraph's 56 tests with grbcuda preloaded in
# mode gpu: scripts/lagraph.sh, tarball in .deps/LAGraph-1.1.4.tar.gz),
# differential (tests/test_differential in 8 shards side by side, a fresh seed,
# GRBCUDA_DIFF_CALLS calls, default 20000), compute-sanitizer, bench.
# SuiteSparse:GraphBLAS comes as Debian packages in .deps/ (see README):
#   (cd .deps && apt-get download libgraphblas7 libgraphblas-dev)
# Usage: [GPU_SUITE_BUDGET=s] scripts/gpu_suite.sh [--bench quick|full|none]
#        [--no-tests] [--no-lagraph] [--no-diff] [--no-sanitizer] [--sweep] [--build DIR]
# Logs and bench results go to $OUT when it is set (the device tool's folder).
set -uo pipefail
cd "$(dirname "$0")/.."
bench=quick tests=1 lagraph=1 diff=1 sanitizer=1 build=build-gpu sweep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --bench) bench=$2; shift ;;
    --no-tests) tests=0 ;;
    --no-sanitizer) sanitizer=0 ;;
    --no-lagraph) lagraph=0 ;;
    --no-diff) diff=0 ;;
    --sweep) sweep=1 ;;
    --build) build=$2; shift ;;
    *) echo "gpu_suite: unknown option $1"; exit 2 ;;
  esac
  shift
done
out=${OUT:-$PWD/$build/out}
logs=/tmp/gpu_suite_logs
rm -rf "$logs"; mkdir -p "$out" "$logs"
summary=()
t0=$(date +%s)
# what comes back: the summary, RESULTS.md, the bench table/plot, all logs in
# one archive; also when the run is cut off (timeout sends TERM)
package() {
  {
    echo "==== gpu_suite summary ($(( $(date +%s) - t0 )) s)${1:+ $1} ===="
    for s in "${summary[@]}"; do echo "$s"; done
  } > "$logs/summary.txt"
  cp "$logs/summary.txt" "$out/"
  [ -f bench/RESULTS.md ] && cp bench/RESULTS.md "$out/"
  for f in "$logs"/bench/*.md "$logs"/bench/*.png; do [ -f "$f" ] && cp "$f" "$out/"; done
  tar -czf "$out/logs.tgz" -C "$logs" . 2>/dev/null
  echo
  cat "$logs/summary.txt"
}
trap 'package "(CUT OFF)"; exit 124' TERM INT
# GPU_SUITE_BUDGET=seconds: every stage is cut off so that the whole run, with
# packaging, ends within it (the device tool allows 600 s a call)
budget=${GPU_SUITE_BUDGET:-0}
left() { if [ "$budget" = 0 ]; then echo 0; else
  local l=$(( budget - ($(date +%s) - t0) - 15 )); [ $l -lt 1 ] && l=1; echo $l; fi; }

# 1-2. SuiteSparse (the system's, else .deps/*.deb unpacked), then the build
GPU_BUILD_DIR=$build
source scripts/gpu_env.sh
[ ${#GPU_PREFIX_ARGS[@]} -gt 0 ] && summary+=("GraphBLAS: unpacked from .deps into /tmp/gb")
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null \
  | sed 's/^/GPU: /' | tee "$logs/gpu.txt"
summary+=("$(cat "$logs/gpu.txt" 2>/dev/null || echo 'GPU: nvidia-smi not available')")
if gpu_build; then
  summary+=("build: ok ($(( $(date +%s) - t0 )) s)")
  cp "$build.build.log" "$logs/build.log" 2>/dev/null
else
  echo "gpu_suite: BUILD FAILED"; exit 1
fi

# 3. the whole test suite, GPU tests included
rc_tests=0
if [ $tests = 1 ]; then
  t1=$(date +%s)
  timeout $(left) ctest --test-dir "$build" --output-on-failure -j 8 >"$logs/ctest.log" 2>&1
  rc_tests=$?
  tail -25 "$logs/ctest.log"
  summary+=("tests: $(grep -E 'tests passed' "$logs/ctest.log" | tail -1) ($(( $(date +%s) - t1 )) s)")
  sk=$(grep -c "(Skipped)" "$logs/ctest.log")
  [ "$sk" != 0 ] && summary+=("  skipped: $(grep -E '^ *[0-9]+ - .*\(Skipped\)' "$logs/ctest.log" | sed -E 's/^ *[0-9]+ - //; s/ \(Skipped\)//' | tr '\n' ' ')")
fi

# 3b. a real application: LAGraph's own test suite with grbcuda preloaded,
# every call that has a kernel forced onto the GPU (scripts/lagraph.sh)
rc_lag=0
if [ $lagraph = 1 ]; then
  t3=$(date +%s)
  if [ -z "${LAGRAPH_TARBALL:-}" ] && [ ! -f .deps/LAGraph-1.1.4.tar.gz ] \
     && [ ! -f ../shared/clients/LAGraph-1.1.4.tar.gz ]; then
    summary+=("lagraph: SKIPPED (no .deps/LAGraph-1.1.4.tar.gz)")
  else
    LAGRAPH_DIR=${LAGRAPH_DIR:-$build-lagraph} LAGRAPH_LOG_DIR=$logs timeout $(left) scripts/lagraph.sh "$build/libgrbcuda.so" gpu \
      >"$logs/lagraph.log" 2>&1
    rc_lag=$?
    tail -15 "$logs/lagraph.log"
    res=$(grep -E '^lagraph: [0-9]+/[0-9]+ tests passed' "$logs/lagraph.log" | tail -1 | sed 's/^lagraph: //')
    summary+=("lagraph: ${res:-no result: $(tail -1 "$logs/lagraph.log")} (rc $rc_lag, $(( $(date +%s) - t3 )) s)")
    st=$(grep -E '^lagraph: grbcuda statistics' "$logs/lagraph.log" | tail -1 | sed 's/^lagraph: grbcuda //')
    [ -n "$st" ] && summary+=("  $st")
    np=$(grep -E '^ *[0-9]+/[0-9]+ Test +#' "$logs/lagraph.log" | grep -vE ' Passed ' \
      | sed -E 's/.*#[0-9]+: ([^ ]+).*/\1/' | tr '\n' ' ')
    [ -n "$np" ] && summary+=("  not passed: $np")
  fi
fi

# 3c. the random differential tester (grbcuda against SuiteSparse): a fresh
# 64-bit seed, the calls split over 8 shards run side by side (--shard I/8:
# the cases K % 8 == I of the same seed, so any case replays alone)
rc_diff=0
if [ $diff = 1 ]; then
  dt="$build/tests/test_differential"
  if [ ! -x "$dt" ]; then
    summary+=("differential: SKIPPED (no $dt)")
  else
    t4=$(date +%s)
    seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
    calls=${GRBCUDA_DIFF_CALLS:-20000}
    nsh=8 lim=$(left) dpids=()
    for i in $(seq 0 $((nsh - 1))); do
      # (--progress: "case K" before each case, so that a shard cut off by
      # the budget names the case it was in: a slow case or a hang)
      # (--seconds: a shard stops drawing cases 20 s before the budget's
      # end and prints its summary; timeout stops a case that hangs)
      sec=(); [ "$lim" -gt 40 ] && sec=(--seconds $(( lim - 20 )))
      OMP_NUM_THREADS=2 timeout $lim "$dt" --calls "$calls" --seed "$seed" --shard "$i/$nsh" \
        "${sec[@]}" --progress >"$logs/differential-$i.log" 2>&1 &
      dpids+=($!)
    done
    drc=() dcalls=0 ddiff=0 dpass=0 dfail=0 dskip=0 prog='^case [0-9]* ('
    for i in $(seq 0 $((nsh - 1))); do
      wait "${dpids[$i]}"; drc[$i]=$?
      f=$logs/differential-$i.log
      # its closing lines: "differential: seed S, N calls (...), ..., D differences, T s"
      # and "test_differential: P passed, F failed"
      l=$(grep -E '^differential: .* calls' "$f" | tail -1)
      pf=$(grep -oE '[0-9]+ passed, [0-9]+ failed' "$f" | tail -1)
      n=$(echo "$l" | grep -oE '[0-9]+ calls' | head -1 | cut -d' ' -f1)
      d=$(echo "$l" | grep -oE '[0-9]+ differences' | head -1 | cut -d' ' -f1)
      dcalls=$(( dcalls + ${n:-0} )) ddiff=$(( ddiff + ${d:-0} ))
      dpass=$(( dpass + $(echo "${pf:-0 passed, 0 failed}" | cut -d' ' -f1) ))
      dfail=$(( dfail + $(echo "${pf:-0 passed, 0 failed}" | cut -d' ' -f3) ))
      if [ "${drc[$i]}" = 77 ]; then dskip=$((dskip + 1))          # skipped (no GPU)
      elif [ "${drc[$i]}" != 0 ] || [ -z "$pf" ]; then rc_diff=1      # a difference, or a crash
      fi
    done
    summary+=("differential: seed $seed, $dcalls of $calls calls in $nsh shards, $ddiff differences; checks $dpass passed, $dfail failed$([ $rc_diff = 0 ] || echo ': FAILED') ($(( $(date +%s) - t4 )) s)")
    [ $dskip != 0 ] && summary+=("  $dskip of $nsh shards skipped (rc 77)")
    for i in $(seq 0 $((nsh - 1))); do
      r=${drc[$i]} why= f=$logs/differential-$i.log
      case $r in 0|1|77) ;; 124) why=", timed out" ;; *) [ "$r" -gt 128 ] && why=", killed by signal $((r - 128))" ;; esac
      l=$(grep -E '^differential: .* calls' "$f" | tail -1)
      summary+=("  shard $i/$nsh (rc $r$why): ${l:-no summary line; $(grep -c "$prog" "$f") cases begun, the last: $(grep "$prog" "$f" | tail -1)}")
      if [ "$r" != 0 ] && [ "$r" != 77 ]; then
        # the tester's replay commands of the failing cases (the first 3)
        while IFS= read -r h; do summary+=("    replay: $h"); done \
          < <(grep -v '^differential:' "$f" | grep -oE 'test_differential --seed [0-9]+ --case [0-9]+( --[a-z]+ [^ ]+)*' | head -3)
        echo "---- differential shard $i/$nsh (rc $r$why), last 20 lines but the progress:"
        grep -v "$prog" "$f" | tail -20
      fi
    done
    summary+=("  replay: $dt --seed $seed --case K (one case), or --calls $calls --seed $seed --shard I/$nsh (a shard); logs: differential-I.log")
  fi
fi

# 3d. --sweep: every built-in semiring through GrB_mxm in SpMM's and SDDMM's
# forms (test_differential --dense-sweep, 15 shards side by side, a fresh
# seed): the semirings each form ran on the GPU for, and the differences
# (GRBCUDA_SWEEP_ARGS: the tester's options, default --one-based: the 40
# semirings with 1-based positional multipliers too; set it empty to leave
# them out)
if [ $sweep = 1 ] && [ -x "$build/tests/test_differential" ]; then
  t5=$(date +%s) seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ') lim=$(left) spids=()
  for i in $(seq 0 14); do
    OMP_NUM_THREADS=1 timeout $lim "$build/tests/test_differential" --dense-sweep ${GRBCUDA_SWEEP_ARGS---one-based} --seed "$seed" \
      --shard "$i/15" >"$logs/sweep-$i.log" 2>&1 &
    spids+=($!)
  done
  src=0; for p in "${spids[@]}"; do wait "$p" || src=1; done
  tot=$(grep -hE '^dense sweep' "$logs"/sweep-*.log | awk '{r[$3]+=$9; n[$3]+=$11}
    END {for (f in r) printf "%s %d of %d%s, ", f, r[f], n[f], r[f] < n[f] ? " (INCOMPLETE)" : ""}')
  nd=$(grep -hE '^differential: seed .* calls' "$logs"/sweep-*.log | grep -oE '[0-9]+ differences' \
    | awk '{d+=$1} END {print d+0}')
  summary+=("dense sweep: seed $seed, ${tot}$nd differences$([ $src = 0 ] || echo ': FAILED') ($(( $(date +%s) - t5 )) s)")
  miss=$(grep -hoE 'not for: .*' "$logs"/sweep-*.log | sed 's/not for: //' | tr ',' '\n' | tr -d ' ' | sort -u | tr '\n' ' ' | cut -c1-1500)
  [ -n "$miss" ] && summary+=("  not on the GPU in their form: $miss")
  [ $src = 0 ] || rc_diff=1
fi

# 4. compute-sanitizer (memcheck, racecheck) on the GPU test programs
rc_san=0
if [ $sanitizer = 1 ] && command -v compute-sanitizer >/dev/null; then
  # every GPU test (tests/gpu/); the long ones on a reduced sweep
  for src in tests/gpu/test_*.c; do
    t="$build/tests/$(basename "$src" .c)"
    [ -x "$t" ] || continue
    # the sweeps run reduced under the sanitizer (they are whole in ctest)
    args=()
    case "$(basename "$t")" in
      test_mxm_gpu) args=(1 3) ;;
      test_mxv_gpu) args=(1 4) ;;
      test_semiring_sweep_gpu) args=(50) ;;
      test_assign_gpu|test_apply_gpu) args=(--cases 60) ;;
      test_spmm_gpu) args=(2) ;;
    esac
    for tool in memcheck racecheck; do
      timeout $(left) compute-sanitizer --tool $tool --error-exitcode 99 "$t" "${args[@]}" >"$logs/sanitizer-$tool-$(basename "$t").log" 2>&1
      r=$?
      if [ $r = 0 ] || [ $r = 77 ]; then
        summary+=("compute-sanitizer $tool $(basename "$t"): $(grep -E '(ERROR|RACECHECK) SUMMARY' "$logs/sanitizer-$tool-$(basename "$t").log" | tail -1 | sed 's/=* *//')")
      else
        rc_san=1
        summary+=("compute-sanitizer $tool $(basename "$t"): FAILED (rc $r)")
        tail -20 "$logs/sanitizer-$tool-$(basename "$t").log"
      fi
    done
  done
fi

# 5. benchmarks (bench/run.py: SuiteSparse, SuiteSparse + grbcuda, cuSPARSE)
# A table a stage wrote (file), appended to bench/RESULTS.md under a title
# with date, machine, command and commit, and kept with the bench logs.
append_results() {
  local title=$1 cmd=$2 file=$3
  {
    echo
    echo "### $title, $(date -u +%Y-%m-%d), $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
    echo
    echo "- command: \`$cmd\` (scripts/gpu_suite.sh); commit: $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' + uncommitted changes')"
    echo
    cat "$file"
  } >> bench/RESULTS.md
  cp "$file" "$logs/bench/" 2>/dev/null
}

if [ "$bench" != none ]; then
  t2=$(date +%s)
  mode=(); [ "$bench" = quick ] && mode=(--quick)
  timeout $(left) python3 bench/run.py "$build" "${mode[@]}" ${GRBCUDA_BENCH_ARGS:-} --out-dir "$logs/bench" \
    2>&1 | tee "$logs/bench.log" | tail -60
  summary+=("bench ($bench): rc ${PIPESTATUS[0]}, $(( $(date +%s) - t2 )) s")
  # host<->device transfers (staged copies, the operand path) against the
  # pinned-copy rate of the same run, appended to RESULTS.md
  if [ -x "$build/bench/transfer" ]; then
    mib=1024; reps=5; [ "$bench" = quick ] && { mib=256; reps=3; }
    if timeout $(left) "$build/bench/transfer" $mib $reps >"$logs/transfer.md" 2>"$logs/transfer.err"; then
      append_results "transfers" "$build/bench/transfer $mib $reps" "$logs/transfer.md"
      summary+=("transfer: $(grep -E 'miss: staged upload' "$logs/transfer.md" | awk -F'|' '{print $6}' | tr -d ' ') of pinned for a 1 GB matrix upload")
    else
      summary+=("transfer: FAILED ($(tail -1 "$logs/transfer.err"))")
    fi
  fi
  # the cost model's parameters (issue 23): each GPU family host vs GPU over
  # a ladder of sizes, fitted into a table of src/dispatch/cost_model.txt,
  # appended to RESULTS.md the same way
  if [ -x "$build/bench/calibrate" ]; then
    targs=(); [ "$bench" = quick ] && targs=(--repeats 3)
    if timeout $(left) "$build/bench/calibrate" "${targs[@]}" >"$logs/calibrate.md" 2>"$logs/calibrate.err"; then
      append_results "cost model calibration (host vs GPU per family)" "$build/bench/calibrate ${targs[*]}" "$logs/calibrate.md"
      summary+=("calibrate: $(grep -c '^family' "$logs/calibrate.md") families fitted")
    else
      summary+=("calibrate: FAILED ($(tail -1 "$logs/calibrate.err"))")
    fi
  fi
fi

package
[ $rc_tests = 0 ] && [ $rc_san = 0 ] && [ $rc_lag = 0 ] && [ $rc_diff = 0 ]
