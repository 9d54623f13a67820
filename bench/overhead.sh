#!/usr/bin/env bash
# overhead.sh BUILD — the cost grbcuda adds to calls that stay on the host,
# measured in one run: bench/overhead (plain GraphBLAS) alternately without
# and with LD_PRELOAD=libgrbcuda.so, 3 rounds each, median per call. Prints
# a Markdown table; --append adds it to bench/RESULTS.md with date, machine,
# command and commit. MODE: the GRBCUDA_MODE of the preloaded runs (default
# auto; host: every call passes straight through).
set -euo pipefail
build=$1; append=${2:-}; mode=${MODE:-auto}
here=$(cd "$(dirname "$0")" && pwd)
prog=$build/bench/overhead
lib=$(ls "$build"/libgrbcuda.so | head -1)
declare -A plain pre
for round in 1 2 3; do
  while read -r name ns; do plain[$name]+="$ns "; done < <("$prog")
  while read -r name ns; do pre[$name]+="$ns "; done < <(LD_PRELOAD=$lib GRBCUDA_MODE=$mode "$prog")
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | sed -n 2p; }
table="| call | SuiteSparse ns | + grbcuda ns | added ns |
|---|---|---|---|"
for name in mxm_4x4 setElement extractElement nvals; do
  a=$(echo "${plain[$name]}" | median); b=$(echo "${pre[$name]}" | median)
  table+="
| $name | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", b - a }') |"
done
echo "$table"
if [ "$append" = --append ]; then
  {
    echo
    echo "## $(date -u '+%Y-%m-%d %H:%M') UTC — host-call overhead"
    echo
    echo "- machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), no GPU in use"
    echo "- command: \`MODE=$mode bench/overhead.sh $build --append\`"
    echo "- commit: $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "- what: a 4x4 GrB_mxm that grbcuda passes through (below the threshold), a wrapped GrB_Matrix_setElement_FP64, and the wrapped readers GrB_Matrix_extractElement_FP64 and GrB_Matrix_nvals; median ns per call of 7 x 20000 calls, 3 alternating rounds each"
    echo
    echo "$table"
  } >> "$here/RESULTS.md"
fi
