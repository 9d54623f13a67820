#!/usr/bin/env bash
# preload_env.sh LIB TINY — a program built only against GraphBLAS.h under
# LD_PRELOAD=libgrbcuda.so: same output as plain SuiteSparse, silent without
# GRBCUDA_VERBOSE, one line per call with it, the statistics table with
# GRBCUDA_STATS=1, and a clear word on a bad GRBCUDA_MODE.
set -u
lib=$1 tiny=$2
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $1"; fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$tiny" >"$tmp/plain.out" 2>"$tmp/plain.err"
LD_PRELOAD=$lib "$tiny" >"$tmp/pre.out" 2>"$tmp/pre.err"
check "same output as plain SuiteSparse" 'cmp -s "$tmp/plain.out" "$tmp/pre.out"'
check "silent without GRBCUDA_VERBOSE" '[ ! -s "$tmp/pre.err" ]'
check "correct answer" 'grep -q "info 0 sum 900" "$tmp/pre.out"'

LD_PRELOAD=$lib GRBCUDA_VERBOSE=1 "$tiny" >"$tmp/v.out" 2>"$tmp/v.err"
check "verbose: one line for the GrB_mxm call" '[ "$(grep -c "\] GrB_mxm C 100x100" "$tmp/v.err")" = 1 ]'
check "verbose: path and reason" 'grep -q "GrB_mxm C 100x100 A 100x100 (200) B 100x100 (200) work .* -> host (host predicted faster)" "$tmp/v.err"'
check "verbose: GrB_init reported" 'grep -q "GrB_init -> 0; grbcuda" "$tmp/v.err"'

LD_PRELOAD=$lib GRBCUDA_STATS=1 "$tiny" >"$tmp/s.out" 2>"$tmp/s.err"
check "stats: table at GrB_finalize" 'grep -Eq "statistics: GrB_mxm +1 +0 +1 .*host predicted faster: 1;" "$tmp/s.err"'
check "stats: printed once" '[ "$(grep -c "statistics: operation" "$tmp/s.err")" = 1 ]'

LD_PRELOAD=$lib GRBCUDA_MODE=gpu GRBCUDA_VERBOSE=1 "$tiny" >"$tmp/g.out" 2>"$tmp/g.err"
check "gpu mode: right answer" 'cmp -s "$tmp/plain.out" "$tmp/g.out"'
check "gpu mode: says what happened to CUDA" 'grep -Eq "CUDA started on device|CUDA start: .* failed|built without CUDA" "$tmp/g.err"'
# with a GPU the product runs there; without one it passes through, saying why
check "gpu mode: path and reason" 'grep -Eq "GrB_mxm .* -> (host \((no usable GPU|no GPU kernel)\)|gpu \((spgemm saxpy|masked saxpy|masked dot)\))" "$tmp/g.err"'

LD_PRELOAD=$lib GRBCUDA_MODE=bogus "$tiny" >"$tmp/b.out" 2>"$tmp/b.err"
check "bad mode: still right" 'cmp -s "$tmp/plain.out" "$tmp/b.out"'
check "bad mode: says so" 'grep -q "GRBCUDA_MODE=bogus not understood" "$tmp/b.err"'

LD_PRELOAD=$lib GRBCUDA_MODE=host GRBCUDA_STATS=1 "$tiny" >"$tmp/h.out" 2>"$tmp/h.err"
check "host mode: counted as mode host" 'grep -q "mode host: 1;" "$tmp/h.err"'

# OMP_PROC_BIND: libgomp, which the library brings into every process it is
# preloaded into, binds a process's first thread to one core; a shell is no
# OpenMP program, and its programs must keep every CPU (with one CPU there
# is nothing to lose: said, not checked)
cpus_of() { env "$@" bash -c 'grep Cpus_allowed_list /proc/self/status' | cut -f2; }
plain_cpus=$(cpus_of OMP_PROC_BIND=close OMP_PLACES=cores)
if [ "$(nproc)" -ge 2 ]; then
  check "OMP_PROC_BIND: a shell keeps its CPUs ($plain_cpus)" \
    '[ "$(cpus_of OMP_PROC_BIND=close OMP_PLACES=cores LD_PRELOAD=$lib)" = "$plain_cpus" ]'
  check "OMP_PLACES alone: the same" '[ "$(cpus_of OMP_PLACES=cores LD_PRELOAD=$lib)" = "$plain_cpus" ]'
else
  echo "preload_env: one CPU, the OMP_PROC_BIND check has nothing to tell"
fi

echo "preload_env: $pass passed, $fail failed"
[ "$fail" = 0 ]
