#!/usr/bin/env bash
# lagraph_bench.sh BUILD [WORKLOAD...] — LAGraph's algorithms (bench/lagraph_bench.c)
# plain against preloaded, same session (issue 23). Builds LAGraph v1.1.4 if
# needed (scripts/lagraph.sh's build in BUILD-lagraph) and the bench against it,
# then for each workload runs the same binary alternately without and with
# LD_PRELOAD=BUILD/libgrbcuda.so (GRBCUDA_MODE from $MODES, default "auto host"),
# $ROUNDS rounds (default 3; the order of the runs rotated each round), and
# prints a Markdown table: the median over the rounds of each run's median
# (and first call) per algorithm, the preloaded
# run's ratio to plain (and the range of each round's own ratio), and whether the results' checksums agree; a row "setup":
# GrB_init to the graph made (where GRBCUDA_START=init overlaps the start).
# Environment: TRIALS (default 5), ALGOS (default bfs,bc,tc,pr,cc,sssp),
# MODES (a mode as GRBCUDA_MODE, or MODE+init: with GRBCUDA_START=init,
# plain+malloc: SuiteSparse alone with glibc malloc's thresholds fixed as
# grbcuda's GrB_init fixes them (GRBCUDA_MALLOC),
# MODE+start=W: with GRBCUDA_START=W,
# MODE+rent=F: with GRBCUDA_START_RENT=F, MODE+idle: with GRBCUDA_JIT_IDLE=1
# (background compiles wait for an idle core), MODE+lib=PATH: preloading another
# build's libgrbcuda.so, such as a baseline commit's, in the same rounds),
# ROUNDS; WARM (default 1: each workload once in gpu and auto mode before
# the rounds, untimed, so that no round meets the JIT's disk cache cold);
# LIMITS (default "auto=1.03 host=1.01": issue 23's) marks each
# mode's cell ok, ok (noise) where a round's own ratio is over, or over;
# RAW=DIR: each run's output kept in DIR (WORKLOAD.MODE.ROUND), read
# by the table as it is made, so a run cut short keeps what it measured;
# SPLIT=1: each algorithm in a process of its own (its first call is
# then a program's first: CUDA's start, the first uploads and kernel loads),
# else all in one process, in order. A second table: the ratio of the
# medians of every trial of every round (the runs' --mark lines, kept in
# DIR/WORKLOAD.MODE.ROUND.trials) with its 90% interval from a two-level
# bootstrap (rounds, then trials), and whether LIMITS is met there:
# "within" (the interval under it), "over" (above it) or "not shown".
# A third table lists the trials that stand out in their run: over 1.5x the
# run's median time with over 10,000 more page faults than its median trial
# (an export's fresh arrays, CUDA's start or a compile beside the trial: cc's
# first trial buying G->A by likeness showed so, 2026-11-29).
# TABLE_ONLY=1 with RAW=DIR: no build and no runs, the tables made again from
# DIR's files (a device run's raw.tgz unpacked on any machine).
# --append (last argument): add the tables to bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(readlink -f "${1:?usage: bench/lagraph_bench.sh BUILD [WORKLOAD...] [--append]}"); shift
append=0; workloads=()
for a in "$@"; do [ "$a" = --append ] && append=1 || workloads+=("$a"); done
[ ${#workloads[@]} -gt 0 ] || workloads=(rmat-16-16 grid3d-40)
lib=$build/libgrbcuda.so
table_only=${TABLE_ONLY:-0}
if [ "$table_only" = 1 ]; then
  [ -n "${RAW:-}" ] && [ -d "$RAW" ] || { echo "lagraph_bench: TABLE_ONLY=1 needs RAW=DIR"; exit 1; }
else
  [ -f "$lib" ] || { echo "lagraph_bench: no $lib"; exit 1; }
fi
modes=${MODES:-auto host} rounds=${ROUNDS:-3} trials=${TRIALS:-5} algos=${ALGOS:-bfs,bc,tc,pr,cc,sssp}
split=${SPLIT:-0}
groups=("$algos"); [ "$split" = 1 ] && IFS=, read -r -a groups <<< "$algos"
if [ "$table_only" != 1 ]; then
  source bench/lagraph_prog.sh
  lagraph_prog lagraph_bench "$build" "$lib" -fopenmp || exit 1
fi
exe=$build/bench/lagraph_bench
out=${RAW:-$(mktemp -d)}; mkdir -p "$out"
# plain+malloc: SuiteSparse alone with glibc malloc's thresholds fixed as
# grbcuda's GrB_init fixes them (GRBCUDA_MALLOC), the allocator's share of a
# preloaded run's gain or loss set apart
fixed_malloc=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864
# a line on stderr as each run ends (its algorithms' medians, first calls in
# parentheses), so that a run cut short by a time limit still shows what it measured
progress() {
  local f="$out/$1.${2//\//_}.$3"
  echo "lagraph_bench.sh: $1 $2 round $3:$(grep '^RESULT ' "$f" 2>/dev/null \
    | tail -n "$(echo "$4" | tr ',' '\n' | wc -l)" | grep -v 'algo=setup' \
    | sed -E 's/.*algo=([a-z]+) first_ms=([0-9.]+) median_ms=([0-9.]+).*/ \1 \3 (\2)/' | tr -d '\n')" >&2
}
# WARM=1 (default): before the rounds, each workload once, untimed, in `gpu`
# mode and then in `auto` with each library the modes preload: the kernels
# the algorithms ask for are compiled into the JIT's disk cache first. On a
# machine whose cache was cold for connected components' write-backs, its
# calls that deferred to a background compile ran 4-57 ms where the host
# takes 1, and cc 60-96 ms a trial against 19 (H200, 2026-11-29).
if [ "${WARM:-1}" = 1 ] && [ "$table_only" != 1 ]; then
  libs=("$lib")
  for m in $modes; do case $m in *+lib=*) libs+=("$(readlink -f "${m#*+lib=}")") ;; esac; done
  for w in "${workloads[@]}"; do
    for l in "${libs[@]}"; do
      for wm in gpu auto; do
        env LD_PRELOAD="$l" GRBCUDA_MODE=$wm "$exe" "$w" --trials 1 --algos "$algos" > /dev/null 2>&1 \
          || echo "lagraph_bench.sh: warm-up ($wm, $l) on $w failed" >&2
      done
    done
  done
  echo "lagraph_bench.sh: JIT cache warmed (gpu and auto, ${#libs[@]} libraries)" >&2
fi
for w in "${workloads[@]}"; do
  [ "$table_only" = 1 ] && break
  for r in $(seq "$rounds"); do
    # the runs of a round in turn, the order rotated each round: the first
    # run after a build meets the JIT's disk cache cold (on a fresh machine
    # its first searches wait for their kernels), and no mode should always
    # be the one that does
    order=(plain $modes)
    n=${#order[@]} k=$(( (r - 1) % n ))
    order=("${order[@]:k}" "${order[@]:0:k}")
    for g in "${groups[@]}"; do
      for m in "${order[@]}"; do
        if [ "$m" = plain ] || [ "$m" = plain+malloc ]; then
          env=(); [ "$m" = plain+malloc ] && env=(GLIBC_TUNABLES=$fixed_malloc)
          env "${env[@]}" "$exe" "$w" --trials "$trials" --algos "$g" --mark >> "$out/$w.$m.$r" 2>> "$out/$w.$m.$r.trials"
          progress "$w" "$m" "$r" "$g"
          continue
        fi
        # MODE+init: GRBCUDA_START=init too (MODE+start=W: GRBCUDA_START=W);
        # MODE+rent=F: GRBCUDA_START_RENT=F; MODE+idle: GRBCUDA_JIT_IDLE=1;
        # MODE+lib=PATH: that library preloaded
        env=(GRBCUDA_MODE=${m%%+*}) pre=$lib
        case $m in
          *+init) env+=(GRBCUDA_START=init) ;;
          *+start=*) env+=(GRBCUDA_START=${m#*+start=}) ;;
          *+rent=*) env+=(GRBCUDA_START_RENT=${m#*+rent=}) ;;
          *+idle) env+=(GRBCUDA_JIT_IDLE=1) ;;
          *+lib=*) pre=$(readlink -f "${m#*+lib=}") ;;
        esac
        env LD_PRELOAD="$pre" "${env[@]}" "$exe" "$w" --trials "$trials" \
          --algos "$g" --mark >> "$out/$w.${m//\//_}.$r" 2>> "$out/$w.${m//\//_}.$r.trials"
        progress "$w" "$m" "$r" "$g"
      done
    done
  done
done
table=$(python3 - "$out" "$modes" "$rounds" "${workloads[@]}" <<'PY'
import sys, statistics, glob, re
out, modes, rounds, wl = sys.argv[1], sys.argv[2].split(), int(sys.argv[3]), sys.argv[4:]
import os
limits = {k: float(v) for k, v in (x.split("=") for x in os.environ.get("LIMITS", "auto=1.03 host=1.01").split())}
def load(path):
    # the setup row (GrB_init to the graph made): every process has one
    # (SPLIT=1: one an algorithm), their median
    r, setups = {}, []
    for line in open(path):
        if line.startswith("RESULT "):
            d = dict(kv.split("=", 1) for kv in line.split()[1:])
            r[d["algo"]] = d
            if d["algo"] == "setup": setups.append(float(d["median_ms"]))
    if setups:
        ms = f"{statistics.median(setups):.3f}"
        r["setup"] = dict(r["setup"], median_ms=ms, first_ms=ms)
    return r
hdr = "| workload | algorithm | SuiteSparse median ms (first) | " + " | ".join(
    f"{'SuiteSparse' if m.startswith('plain') else '+grbcuda'} {m} median ms (first) | {m} vs plain" for m in modes) + " | results |"
print(hdr); print("|" + "---|" * (3 + 2 * len(modes) + 1))
for w in wl:
    runs = {k: [load(f"{out}/{w}.{k.replace('/', '_')}.{r}") for r in range(1, rounds + 1)] for k in ["plain"] + modes}
    for a in runs["plain"][0]:
        def med(k, f): return statistics.median(float(x[a][f]) for x in runs[k] if a in x)
        checks = {x[a]["check"] for k in runs for x in runs[k] if a in x}
        p, pf = med("plain", "median_ms"), med("plain", "first_ms")
        cells = []
        for m in modes:
            v, vf = med(m, "median_ms"), med(m, "first_ms")
            # each round's own ratio (its runs side by side): their range,
            # the spread a claim of "within N%" has to clear
            rr = [float(x[a]["median_ms"]) / float(y[a]["median_ms"]) for x, y in zip(runs[m], runs["plain"])
                  if a in x and a in y and float(y[a]["median_ms"]) > 0]
            span = f" [{min(rr):.3f}–{max(rr):.3f}]" if len(rr) > 1 else ""
            # issue 23's limits (LIMITS): the median's and the first call's
            # ratio at most the mode's limit, "noise" where the median meets
            # it and some round does not
            lim = limits.get(m.split("+")[0])
            verdict = ""
            if lim is not None:
                ok = v / p <= lim and vf / pf <= lim
                verdict = " ok" if ok and (not rr or max(rr) <= lim) else " ok (noise)" if ok else " **over**"
            cells.append(f"{v:.2f} ({vf:.2f}) | {v / p:.3f}×{span} ({vf / pf:.3f}×){verdict}")
        print(f"| {w} | {a} | {p:.2f} ({pf:.2f}) | " + " | ".join(cells) + f" | {'same' if len(checks) == 1 else 'DIFFER: ' + '; '.join(sorted(checks))} |")
# Every trial of every round (--mark's "ALGO trials ms ..." lines): the ratio
# of the modes' medians over all their trials, and its 90% interval from a
# two-level bootstrap (the rounds drawn again, then each drawn round's
# trials: a process's own state, BFS on the host in one process, moves a
# whole round). A bound is shown met ("within") only where the interval's
# top is under it, and broken ("over") only where its bottom is above it;
# else the rounds cannot tell ("not shown"): issue 23's 1% and 3% need it.
import random
def trials_of(path):
    r = {}
    if os.path.exists(path):
        for line in open(path):
            f = line.split()
            if len(f) > 4 and f[0] == "lagraph_bench:" and f[2:4] == ["trials", "ms"]:
                r.setdefault(f[1], []).extend(float(x) for x in f[4:])
    return r
rng = random.Random(23)
def boot(rounds_a, rounds_b, n=2000):
    def draw(rs):
        rs = [x for x in rs if x]
        pick = [rng.choice(rs) for _ in rs]
        return [rng.choice(x) for x in pick for _ in x]
    out = sorted(statistics.median(draw(rounds_a)) / statistics.median(draw(rounds_b)) for _ in range(n))
    return out[int(0.05 * n)], out[int(0.95 * n) - 1]
print()
print("| workload | algorithm | " + " | ".join(f"{m} vs plain, every trial [90% interval]" for m in modes) + " |")
print("|" + "---|" * (2 + len(modes)))
for w in wl:
    tr = {k: [trials_of(f"{out}/{w}.{k.replace('/', '_')}.{r}.trials") for r in range(1, rounds + 1)] for k in ["plain"] + modes}
    algos_seen = [a for a in ("bfs", "bc", "tc", "pr", "cc", "sssp") if any(a in x for x in tr["plain"])]
    for a in algos_seen:
        pr_ = [x.get(a, []) for x in tr["plain"]]
        if not any(pr_): continue
        cells = []
        for m in modes:
            mr = [x.get(a, []) for x in tr[m]]
            if not any(mr):
                cells.append("—"); continue
            ratio = statistics.median([t for x in mr for t in x]) / statistics.median([t for x in pr_ for t in x])
            lo, hi = boot(mr, pr_)
            lim = limits.get(m.split("+")[0])
            verdict = "" if lim is None else " within" if hi <= lim else " **over**" if lo > lim else " not shown"
            cells.append(f"{ratio:.3f}× [{lo:.3f}–{hi:.3f}]{verdict}")
        print(f"| {w} | {a} | " + " | ".join(cells) + " |")
# Trials that stand out in their run (the --mark lines' times and page
# faults): over 1.5x the run's median with over 10,000 more faults than its
# median trial
def marks_of(path):
    r = {}
    if os.path.exists(path):
        for line in open(path):
            f = line.split()
            if len(f) > 4 and f[0] == "lagraph_bench:" and f[2] == "trials" and f[3] in ("ms", "minflt"):
                r.setdefault(f[1], {})[f[3]] = [float(x) for x in f[4:]]
    return r
rows = []
for w in wl:
    for m in ["plain"] + modes:
        for r in range(1, rounds + 1):
            for a, d in marks_of(f"{out}/{w}.{m.replace('/', '_')}.{r}.trials").items():
                ms, fl = d.get("ms", []), d.get("minflt", [])
                if len(ms) < 2 or len(fl) != len(ms): continue
                mm, mf = statistics.median(ms), statistics.median(fl)
                for k, (t, f) in enumerate(zip(ms, fl)):
                    if t > 1.5 * mm and f > mf + 10000:
                        rows.append(f"| {w} | {m} | {r} | {a} | {k} | {t:.2f} ({mm:.2f}) | {f:.0f} ({mf:.0f}) |")
print()
if rows:
    print("| workload | mode | round | algorithm | trial | ms (run's median) | page faults (run's median) |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))
else:
    print("(no trial over 1.5x its run's median with 10,000 more page faults)")
PY
)
[ -n "${RAW:-}" ] || rm -rf "$out"
echo "$table"
echo "(first table: medians over $rounds rounds of each run's median of $trials trials; ratio > 1: slower with grbcuda; in brackets the range of the rounds' own ratios; $([ "$split" = 1 ] && echo 'a process an algorithm' || echo 'the algorithms in one process'); second table: the medians of all trials, the interval a two-level bootstrap's)"
if [ $append = 1 ]; then
  {
    echo
    echo "## $(date -u '+%Y-%m-%d %H:%M') UTC — LAGraph's algorithms, plain against preloaded"
    echo
    echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)"
    echo "- command: \`bench/lagraph_bench.sh $build ${workloads[*]}\` (MODES=\"$modes\" ROUNDS=$rounds TRIALS=$trials ALGOS=$algos SPLIT=$split)"
    echo "- commit: $(git rev-parse --short HEAD)"
    echo
    echo "$table"
    echo
    echo "First table: medians over $rounds rounds of each run's median of $trials trials (first call in parentheses); ratio above 1: slower with grbcuda; in brackets the range of the rounds' own ratios (plain and the mode side by side in a round). Second table: the ratio of the medians of every trial, its 90% interval from a two-level bootstrap (rounds, then trials)."
  } >> bench/RESULTS.md
fi
