#!/usr/bin/env bash
# passthrough.sh BUILD [OTHER_LIB...] [--time] [--append] — what grbcuda adds
# to calls that it passes through to SuiteSparse (issue 23).
#
# Instructions (default), counted by valgrind --tool=callgrind (repeatable
# where wall times are not), OMP_NUM_THREADS=1 (callgrind runs threads one at
# a time; one thread keeps the counts free of OpenMP's spinning):
#  - LAGraph's push-pull BFS (LAGr_BreadthFirstSearch, parents) from $SOURCES
#    sources (default 16) on $WORKLOAD (default rmat-16-16): instructions of
#    the searches plain and preloaded, those executed in libgrbcuda's code,
#    and the calls into libgrbcuda per search;
#  - single calls ($OPS), $CALLS times each (default 2000): instructions per
#    call plain and preloaded.
# Wall time (--time): $ROUNDS rounds (default 10), each running, one after
# the other, the searches plain, with a null preload (an empty .so built
# here: what any preloaded library costs, grbcuda's code aside), and with
# each library in each mode; each run the median of $TRIALS (default 7) runs
# of the $SOURCES searches after a warm-up; OMP_NUM_THREADS as set. Prints
# the median, quartiles and extremes of the runs' medians, and the per-round
# ratio to plain.
# Each library (BUILD/libgrbcuda.so, then any OTHER_LIB: a .so to compare,
# e.g. the build before a change) runs in each mode of $MODES (default
# "host auto"). LAGraph: built as bench/lagraph_bench.sh does (BUILD-lagraph
# or $LAGRAPH_DIR). Prints Markdown tables; --append adds them to
# bench/RESULTS.md with date, machine, command and commit.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(readlink -f "${1:?usage: bench/passthrough.sh BUILD [OTHER_LIB...] [--time] [--append]}"); shift
append=0; timed=0; libs=("$build/libgrbcuda.so")
for a in "$@"; do
  case "$a" in --append) append=1 ;; --time) timed=1 ;; *) libs+=("$(readlink -f "$a")") ;; esac
done
[ $timed = 1 ] || command -v valgrind >/dev/null || { echo "passthrough: valgrind not found"; exit 1; }
modes=${MODES:-host auto} workload=${WORKLOAD:-rmat-16-16} nsrc=${SOURCES:-16} ncalls=${CALLS:-2000}
ops=${OPS:-mxm_4x4 vxm_masked setElement extractElement nvals assign reduce new_free nrows}
source bench/lagraph_prog.sh
lagraph_prog passthrough "$build" "${libs[0]}" || exit 1
exe=$build/bench/passthrough
out=$(mktemp -d)
machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), no GPU in use"
if [ $timed = 1 ]; then
  rounds=${ROUNDS:-10} trials=${TRIALS:-7}
  echo 'int passthrough_null_preload = 1 ;' > "$out/null.c"
  cc -shared -fPIC -o "$out/null.so" "$out/null.c"
  med () { sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p'; }
  for r in $(seq "$rounds"); do
    echo "plain $("$exe" time "$workload" "$nsrc" "$trials" | med)"
    echo "null-preload $(LD_PRELOAD=$out/null.so "$exe" time "$workload" "$nsrc" "$trials" | med)"
    for LIB in "${libs[@]}"; do
      for MODE in $modes; do
        echo "$LIB:$MODE $(LD_PRELOAD=$LIB GRBCUDA_MODE=$MODE "$exe" time "$workload" "$nsrc" "$trials" | med)"
      done
    done
  done > "$out/times"
  table=$(python3 - "$out/times" <<'PY'
import collections, statistics, sys
d = collections.OrderedDict()
for line in open(sys.argv[1]):
    k, v = line.split(); d.setdefault(k, []).append(float(v))
print("| run | median ms | q1 | q3 | min | max | per-round ratio to plain: median (range) |")
print("|---|---|---|---|---|---|---|")
for k, v in d.items():
    s = sorted(v); n = len(s)
    r = sorted(a / b for a, b in zip(v, d["plain"]))
    print("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.3f (%.3f-%.3f) |" % (k, statistics.median(s),
          s[n // 4], s[(3 * n) // 4], s[0], s[-1], statistics.median(r), r[0], r[-1]))
PY
)
  table="LAGraph BFS (parents), $nsrc sources, $workload, OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}: wall time of the searches, $rounds rounds (each run: the median of $trials)

$table"
  rm -rf "$out"
  echo "$table"
  if [ $append = 1 ]; then
    { echo; echo "## $(date -u '+%Y-%m-%d %H:%M') UTC — the pass-through in wall time"; echo
      echo "- machine: $machine"
      echo "- command: \`bench/passthrough.sh $build ${libs[*]:1} --time\` (MODES=\"$modes\" WORKLOAD=$workload SOURCES=$nsrc ROUNDS=$rounds TRIALS=$trials)"
      echo "- commit: $(git rev-parse --short HEAD)"; echo; echo "$table"; } >> bench/RESULTS.md
  fi
  exit 0
fi
export OMP_NUM_THREADS=1
# cg TAG ARGS...: the program under callgrind, plain (TAG *.plain) or with
# $LIB preloaded in $MODE; the measured part's counts in $out/TAG.cg
cg () { local tag=$1; shift
  rm -rf "$out/run"; mkdir "$out/run"
  if [[ $tag == *.plain ]]; then
    valgrind --tool=callgrind --callgrind-out-file="$out/run/cg.%p" "$exe" "$@" >/dev/null 2>"$out/err"
  else
    LD_PRELOAD=$LIB GRBCUDA_MODE=$MODE valgrind --tool=callgrind \
      --callgrind-out-file="$out/run/cg.%p" "$exe" "$@" >/dev/null 2>"$out/err"
  fi
  mv "$(ls "$out"/run/cg.*.1 | head -1)" "$out/$tag.cg"; }
ir () { sed -n 's/^totals: *//p' "$out/$1.cg"; }
# grbcuda's own part of a run: "SELF CALLS", the instructions executed in
# libgrbcuda's code and the calls into it from outside (callgrind's format:
# compressed names; the line after calls= is a call's inclusive cost)
own () { python3 - "$out/$1.cg" <<'PY'
import re, sys
tabs = {"ob": {}, "fn": {}}
def nm(kind, s):
    m = re.match(r'\((\d+)\)(?: (.*))?', s)
    if not m: return s
    if m.group(2): tabs[kind][m.group(1)] = m.group(2)
    return tabs[kind].get(m.group(1), '?')
ob = cob = None; calls = 0; self_ir = 0; skip = False
for line in open(sys.argv[1]):
    if skip: skip = False; continue
    if line.startswith('ob='): ob = nm("ob", line[3:].strip())
    elif line.startswith('fn='): nm("fn", line[3:].strip()); cob = None
    elif line.startswith(('cob=')): cob = nm("ob", line[4:].strip())
    elif line.startswith(('cfn=', 'cfi=', 'cfl=')): nm("fn", line[4:].strip()) if line.startswith('cfn=') else None
    elif line.startswith('calls='):
        t = cob or ob
        if t and 'grbcuda' in t and not (ob and 'grbcuda' in ob): calls += int(line[6:].split()[0])
        cob = None; skip = True
    elif line[:1].isdigit() or line[:1] in '+-*':
        f = line.split()
        if len(f) >= 2 and ob and 'grbcuda' in ob: self_ir += int(f[1])
print(self_ir, calls)
PY
}
cg bfs.plain bfs "$workload" "$nsrc"; p_bfs=$(ir bfs.plain)
declare -A p_call
for op in $ops; do cg "call.$op.plain" call "$op" "$ncalls"; p_call[$op]=$(ir "call.$op.plain"); done
t1="| library | mode | plain instructions | preloaded | difference per search | difference | in libgrbcuda per search | calls into libgrbcuda per search | libgrbcuda's instructions per call |
|---|---|---|---|---|---|---|---|---|"
t2="| library | mode | $(for op in $ops; do printf '%s | ' "$op"; done)
|---|---|$(for op in $ops; do printf -- '---|'; done)"
for LIB in "${libs[@]}"; do
  for MODE in $modes; do
    export LIB MODE
    cg bfs.pre bfs "$workload" "$nsrc"; g=$(ir bfs.pre); read -r o c < <(own bfs.pre)
    t1+="
$(awk -v l="$LIB" -v m="$MODE" -v p="$p_bfs" -v g="$g" -v s="$nsrc" -v o="$o" -v c="$c" 'BEGIN {
      printf "| %s | %s | %d | %d | %.0f | %.4f%% | %.0f | %.1f | %.1f |", l, m, p, g, (g - p) / s,
        100 * (g - p) / p, o / s, c / s, (c > 0 ? o / c : 0) }')"
    row="| $LIB | $MODE | "
    for op in $ops; do
      cg "call.$op.pre" call "$op" "$ncalls"; g=$(ir "call.$op.pre")
      row+="$(awk -v p="${p_call[$op]}" -v g="$g" -v n="$ncalls" 'BEGIN { printf "%.1f (+%.1f)", g / n, (g - p) / n }') | "
    done
    t2+="
$row"
  done
done
plain_row="| (plain) | — | "
for op in $ops; do plain_row+="$(awk -v p="${p_call[$op]}" -v n="$ncalls" 'BEGIN { printf "%.1f", p / n }') | "; done
t2+="
$plain_row"
rm -rf "$out"
table="LAGraph BFS (parents), $nsrc sources, $workload, OMP_NUM_THREADS=1: instructions (callgrind).
The difference also holds glibc malloc's paths, which differ with the heap's layout (libgrbcuda's
own allocations at load); the instructions in libgrbcuda's code are grbcuda's part.

$t1

Single calls, instructions per call (preloaded, and what grbcuda adds), $ncalls calls each:

$t2"
echo "$table"
if [ $append = 1 ]; then
  {
    echo
    echo "## $(date -u '+%Y-%m-%d %H:%M') UTC — the pass-through in instructions"
    echo
    echo "- machine: $machine"
    echo "- command: \`bench/passthrough.sh $build ${libs[*]:1}\` (MODES=\"$modes\" WORKLOAD=$workload SOURCES=$nsrc CALLS=$ncalls)"
    echo "- commit: $(git rev-parse --short HEAD)"
    echo
    echo "$table"
  } >> bench/RESULTS.md
fi
