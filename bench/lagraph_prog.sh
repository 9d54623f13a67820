# lagraph_prog.sh — sourced by the LAGraph benchmarks (lagraph_bench.sh,
# passthrough.sh): lagraph_prog NAME BUILD LIB [cc flags...] builds LAGraph
# v1.1.4 beside BUILD if it is not there (scripts/lagraph.sh, which also runs
# its tests once in mode host) and compiles bench/NAME.c against it and the
# GraphBLAS of BUILD into BUILD/bench/NAME.
lagraph_prog() {
  local name=$1 build=$2 lib=$3; shift 3
  local lg=${LAGRAPH_DIR:-$build-lagraph}
  local src=$lg/LAGraph-1.1.4
  if [ ! -f "$src/build/src/liblagraph.so" ]; then
    LAGRAPH_DIR=$lg scripts/lagraph.sh "$lib" host >/dev/null || true
  fi
  [ -f "$src/build/src/liblagraph.so" ] || { echo "$name: LAGraph did not build in $lg"; return 1; }
  local gb_inc gb_lib
  gb_inc=$(sed -n 's/^GRAPHBLAS_INCLUDE_DIR:PATH=//p' "$build/CMakeCache.txt")
  gb_lib=$(sed -n 's/^GRAPHBLAS_LIBRARY:FILEPATH=//p' "$build/CMakeCache.txt")
  cc -O2 -std=c11 "$@" -o "$build/bench/$name" "bench/$name.c" graph_examples/common/graphgen.c \
    -I"$src/include" -Igraph_examples/common -I"$gb_inc" \
    "$src/build/src/liblagraph.so" "$gb_lib" -Wl,-rpath,"$src/build/src" -lm
}
