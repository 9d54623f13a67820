#!/usr/bin/env bash
# lagraph.sh — a real GraphBLAS application under grbcuda: builds LAGraph
# v1.1.4 (its own 56-test ctest suite) against the GraphBLAS grbcuda was built
# with, then runs that suite with grbcuda preloaded.
# Usage: scripts/lagraph.sh LIBGRBCUDA [MODE]
#   LIBGRBCUDA  the built libgrbcuda.so (e.g. build/libgrbcuda.so)
#   MODE        GRBCUDA_MODE for the tests: auto (default), gpu or host
# The tarball: $LAGRAPH_TARBALL, else .deps/LAGraph-1.1.4.tar.gz (GPU machine),
# else ../shared/clients/LAGraph-1.1.4.tar.gz (beside the clone: CI).
# GraphBLAS: the one in the CMakeCache.txt beside LIBGRBCUDA (the one grbcuda
# was built against), else $LAGRAPH_GRAPHBLAS_PREFIX, /usr, /tmp/gb/usr (the
# .deb files of .deps/ unpacked by scripts/gpu_env.sh).
# Built in $LAGRAPH_DIR (default build-lagraph/, git-ignored), reused while the
# tarball, GraphBLAS and the folder stay the same. The tests' output, with
# grbcuda's statistics table of every test (GRBCUDA_STATS=1), goes to
# $LAGRAPH_DIR/ctest-MODE.log (and to $LAGRAPH_LOG_DIR when set).
# Ends with "N passed, N failed"; exit 0 iff all 56 (LAGRAPH_EXPECTED_TESTS)
# ran and passed.
set -uo pipefail
die() { echo "lagraph: $*" >&2; exit 1; }

[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: scripts/lagraph.sh LIBGRBCUDA [auto|gpu|host]"
lib=$1 mode=${2:-auto}
[ -f "$lib" ] || die "no grbcuda library at $lib (build it first)"
lib=$(readlink -f "$lib")
case "$mode" in auto|gpu|host) ;; *) die "unknown mode '$mode' (auto, gpu or host)" ;; esac
# paths given relative to the caller's folder, before moving to the repository
if [ -n "${LAGRAPH_TARBALL:-}" ]; then
  [ -f "$LAGRAPH_TARBALL" ] || die "LAGRAPH_TARBALL=$LAGRAPH_TARBALL: no such file"
  LAGRAPH_TARBALL=$(readlink -f "$LAGRAPH_TARBALL")
fi
[ -n "${LAGRAPH_DIR:-}" ] && { mkdir -p "$LAGRAPH_DIR" && LAGRAPH_DIR=$(readlink -f "$LAGRAPH_DIR") || die "cannot create $LAGRAPH_DIR"; }
[ -n "${LAGRAPH_LOG_DIR:-}" ] && { mkdir -p "$LAGRAPH_LOG_DIR" && LAGRAPH_LOG_DIR=$(readlink -f "$LAGRAPH_LOG_DIR") || die "cannot create $LAGRAPH_LOG_DIR"; }
cd "$(dirname "$0")/.."
root=$PWD
expected=${LAGRAPH_EXPECTED_TESTS:-56}
jobs=$(nproc)
t0=$(date +%s)

# the tarball
tarball=
for t in "${LAGRAPH_TARBALL:-}" .deps/LAGraph-1.1.4.tar.gz ../shared/clients/LAGraph-1.1.4.tar.gz; do
  [ -n "$t" ] && [ -f "$t" ] && { tarball=$(readlink -f "$t"); break; }
done
[ -n "$tarball" ] || die "LAGraph tarball not found: set LAGRAPH_TARBALL, or put LAGraph-1.1.4.tar.gz \
in .deps/ or ../shared/clients/ (LAGraph v1.1.4, github.com/GraphBLAS/LAGraph tag v1.1.4)"

# the GraphBLAS in use: the one grbcuda was built against
gb_inc= gb_lib=
cache=$(dirname "$lib")/CMakeCache.txt
if [ -f "$cache" ]; then
  gb_inc=$(sed -n 's/^GRAPHBLAS_INCLUDE_DIR:PATH=//p' "$cache")
  gb_lib=$(sed -n 's/^GRAPHBLAS_LIBRARY:FILEPATH=//p' "$cache")
fi
if [ ! -f "$gb_inc/GraphBLAS.h" ] || [ ! -f "$gb_lib" ]; then
  gb_inc= gb_lib=
  if [ -z "${LAGRAPH_GRAPHBLAS_PREFIX:-}" ] && [ ! -f /usr/include/GraphBLAS.h ] \
     && [ ! -f /tmp/gb/usr/include/GraphBLAS.h ] && ls .deps/*.deb >/dev/null 2>&1; then
    source scripts/gpu_env.sh   # unpacks .deps/*.deb into /tmp/gb
  fi
  for p in ${LAGRAPH_GRAPHBLAS_PREFIX:-} /usr /tmp/gb/usr; do
    for i in "$p/include" "$p/include/suitesparse"; do
      [ -f "$i/GraphBLAS.h" ] || continue
      for l in "$p/lib/x86_64-linux-gnu" "$p/lib/aarch64-linux-gnu" "$p/lib64" "$p/lib"; do
        [ -e "$l/libgraphblas.so" ] && { gb_inc=$i gb_lib=$l/libgraphblas.so; break 3; }
      done
    done
  done
fi
[ -n "$gb_lib" ] || die "SuiteSparse:GraphBLAS not found (apt-get install libgraphblas-dev, or .deps/*.deb)"
gb_libdir=$(dirname "$(readlink -f "$gb_lib")")
case "$gb_libdir" in
  /usr/lib*|/lib*) ;;
  *) export LD_LIBRARY_PATH=$gb_libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ;;
esac

# unpack, configure and build (reused when nothing it depends on changed)
top=${LAGRAPH_DIR:-$root/build-lagraph}
mkdir -p "$top"; top=$(readlink -f "$top")
src=$top/LAGraph-1.1.4 bld=$top/LAGraph-1.1.4/build
stamp="$(sha256sum "$tarball" | cut -c1-64) $gb_inc $(readlink -f "$gb_lib") $top"
if [ -f "$top/stamp" ] && [ "$(cat "$top/stamp")" = "$stamp" ] && [ -f "$bld/CTestTestfile.cmake" ]; then
  echo "lagraph: reusing the build in $bld"
else
  echo "lagraph: building LAGraph 1.1.4 from $tarball against $gb_lib ($jobs jobs)"
  rm -rf "$src" "$top/stamp"
  tar xzf "$tarball" -C "$top" || die "cannot unpack $tarball"
  [ -f "$src/CMakeLists.txt" ] || die "$tarball has no LAGraph-1.1.4/CMakeLists.txt"
  gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
  cmake -S "$src" -B "$bld" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DSUITESPARSE_USE_CUDA=OFF -DBUILD_STATIC_LIBS=OFF \
    -DGRAPHBLAS_INCLUDE_DIR="$gb_inc" -DGRAPHBLAS_LIBRARY="$gb_lib" \
    >"$top/cmake.log" 2>&1 || { tail -30 "$top/cmake.log"; die "LAGraph configure failed ($top/cmake.log)"; }
  cmake --build "$bld" -j "$jobs" >"$top/build.log" 2>&1 \
    || { grep -E -B2 -A8 "error|FAILED" "$top/build.log" | head -60; die "LAGraph build failed ($top/build.log)"; }
  echo "$stamp" > "$top/stamp"
  echo "lagraph: built in $(( $(date +%s) - t0 )) s"
fi

# LAGraph's own tests, with grbcuda preloaded. -V keeps every test's output
# (each line prefixed "N: " by ctest), statistics table included.
log=$top/ctest-$mode.log
t1=$(date +%s)
echo "lagraph: ctest -j$jobs with LD_PRELOAD=$lib GRBCUDA_MODE=$mode"
( cd "$bld" && LD_PRELOAD=$lib${LD_PRELOAD:+:$LD_PRELOAD} GRBCUDA_MODE=$mode GRBCUDA_STATS=1 \
    ctest -j"$jobs" -V --timeout "${LAGRAPH_TEST_TIMEOUT:-1500}" ) >"$log" 2>&1
rc=$?
[ -n "${LAGRAPH_LOG_DIR:-}" ] && cp "$log" "$LAGRAPH_LOG_DIR/lagraph-ctest-$mode.log"
# the one-line results of the tests (unprefixed in -V output), then the verdict
grep -E '^ *[0-9]+/[0-9]+ Test +#' "$log"
# counted from those lines ("N/M Test #K: name ... Passed"): ctest's closing
# line differs between versions ("100% tests passed out of 56" in newer ones)
total=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+:' "$log")
passed=$(grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+:' "$log" | grep -cE ' Passed +[0-9.]+ sec')
failed=$(( total - passed ))
# each failing test's own output (its lines, prefix stripped; the last 40)
for n in $(grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+:' "$log" | grep -vE ' Passed +[0-9.]+ sec' \
           | sed -E 's/.*Test +#([0-9]+):.*/\1/'); do
  echo "---- output of test #$n ($(grep -m1 -E "Test +#$n:" "$log" | sed -E 's/.*#[0-9]+: ([^ ]+).*/\1/')), last 40 lines:"
  grep -E "^$n: " "$log" | sed -E "s/^$n: //" | tail -40
done
# grbcuda's statistics, summed over the tests (columns: calls gpu host); only
# the tests' lines ("N: "; a table may start mid-line, after the test's own
# output), not ctest's own (it is preloaded too)
stats=$(awk '/^ *[0-9]+: .*\[grbcuda\] statistics: (GrB_mxm|GrB_mxv|GrB_vxm) / {
    for (i = 1; i <= NF; i++) if ($i == "statistics:") break
    op = $(i+1); c[op] += $(i+2); g[op] += $(i+3); h[op] += $(i+4) }
  END { n = split("GrB_mxm GrB_mxv GrB_vxm", ops, " ")
    for (k = 1; k <= n; k++) { o = ops[k]
      printf "%s%s %d calls, %d on the GPU, %d on the host", (k > 1 ? "; " : ""), o, c[o], g[o], h[o] } }' "$log")
ntab=$(grep -cE '^ *[0-9]+: .*\[grbcuda\] statistics: operation ' "$log")
echo "lagraph: grbcuda statistics over the tests ($ntab processes): $stats"
echo "lagraph: tests ran in $(( $(date +%s) - t1 )) s, $(( $(date +%s) - t0 )) s in all; full output: $log"
if [ "$ntab" = 0 ] && [ "$total" -gt 0 ]; then
  echo "lagraph: WARNING: no statistics table in the tests' output: was grbcuda preloaded?"
fi
ok=1
[ "$rc" = 0 ] && [ "$failed" = 0 ] && [ "$total" -ge "$expected" ] || ok=0
[ "$total" -lt "$expected" ] && echo "lagraph: only $total tests ran, $expected expected"
echo "lagraph: $passed/$total tests passed under LD_PRELOAD (mode $mode)$([ $ok = 1 ] || echo ': FAILED')"
echo "$passed passed, $failed failed"
[ $ok = 1 ]
