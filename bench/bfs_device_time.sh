#!/usr/bin/env bash
# bfs_device_time.sh — issue 20's GTEPS: the device time of one BFS search of
# graph_examples/bfs_grbcuda (levels and parents unless the options say
# otherwise), the sum of its kernels' own time as Nsight Compute measures
# each (gpu__time_duration; clocks and caches left alone), with the
# kernels' breakdown (bench/bfs_device_time.py). The search is the last of
# a run with --repeat R+1 (R = BFS_DT_REPEAT, default 1; the first search,
# with the one-time costs, is never it): the launches beyond those of the
# same run with --repeat R. In auto mode the first searches may still run
# on the host while the GPU starts and kernels compile: take R = 3 there.
# Memsets and copies are not counted (they are not kernels); GRBCUDA_VERBOSE's
# lines show them. GRBCUDA_MODE comes from the caller.
#   [BFS_DT_REPEAT=R] bench/bfs_device_time.sh BUILD_DIR WORKLOAD [bfs options]
set -u
B=$1 ; w=$2 ; shift 2
exe=$B/graph_examples/bfs_grbcuda
here=$(dirname "$0")
tmp=$(mktemp -d)
command -v ncu >/dev/null || { echo "bfs_device_time: no ncu on the PATH" ; exit 1 ; }
# the reached component's edges and the check, without the profiler
edges=$("$exe" --check "$@" "$w" | sed -n 's/.*component has \([0-9]*\) edges.*/\1/p')
r0=${BFS_DT_REPEAT:-1}
for r in $r0 $(( r0 + 1 )) ; do
    ncu --csv --metrics gpu__time_duration.sum --cache-control none --clock-control none \
        --log-file "$tmp/r$r.csv" "$exe" --repeat $r "$@" "$w" > "$tmp/r$r.out" 2>&1 \
        || { echo "bfs_device_time: ncu failed" ; tail -5 "$tmp/r$r.out" ; exit 1 ; }
done
python3 "$here/bfs_device_time.py" "$tmp/r$r0.csv" "$tmp/r$(( r0 + 1 )).csv" "${edges:-0}"
rm -rf "$tmp"
