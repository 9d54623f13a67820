#!/usr/bin/env python3
# bfs_device_time.py — the device time of one BFS search from two ncu logs
# (bench/bfs_device_time.sh): A of a run with R timed searches, B of the same
# run with R + 1. The launches B has beyond A are one search's (the last):
# their gpu__time_duration summed is the search's device time, the kernels'
# own time only (no launch gaps, no host work, no memset or copy).
#   bfs_device_time.py A.csv B.csv [EDGES]   (EDGES: GTEPS = EDGES / time)
import csv, sys, collections

def kernels (path):
    rows = []
    with open (path, newline = '') as f:
        lines = [l for l in f if l.startswith ('"')]
    for r in csv.DictReader (lines):
        if r.get ('Metric Name') != 'gpu__time_duration.sum': continue
        v = float (r ['Metric Value'].replace (',', ''))
        unit = r.get ('Metric Unit', 'nsecond')
        ns = v * {'nsecond': 1, 'usecond': 1e3, 'msecond': 1e6, 'second': 1e9}.get (unit, 1)
        name = r ['Kernel Name'].split ('(') [0].replace ('void ', '')
        rows.append ((name, ns, r.get ('Grid Size', ''), r.get ('Block Size', '')))
    return rows

a, b = kernels (sys.argv [1]), kernels (sys.argv [2])
edges = float (sys.argv [3]) if len (sys.argv) > 3 else 0
same = all (x [0] == y [0] for x, y in zip (a, b))
one = b [len (a):]
if not same or len (b) <= len (a):
    # the runs did not take the same path (auto mode's first searches on
    # the host, say): what is left over is not one search
    print ("device time: the launches of A are not the first of B's; not one search's time "
           "(in auto mode take BFS_DT_REPEAT=3 or more)")
    sys.exit (1)
total = sum (r [1] for r in one)
print ("device time: %d launches in A, %d in B (A a prefix of B: %s); one search: %d launches, "
       "%.3f ms of kernels" % (len (a), len (b), "yes" if same else "NO", len (one), total / 1e6))
if edges > 0 and total > 0:
    print ("device time: %.0f edges / %.3f ms = %.2f GTEPS" % (edges, total / 1e6, edges / total))
by = collections.OrderedDict ()
for name, ns, g, bl in one:
    c = by.setdefault (name, [0, 0.0])
    c [0] += 1 ; c [1] += ns
print ("device time by kernel (launches, ms, share):")
for name, (c, ns) in sorted (by.items (), key = lambda kv: -kv [1][1]):
    print ("  %-60s %4d %8.3f %5.1f%%" % (name [:60], c, ns / 1e6, 100 * ns / total if total else 0))
print ("device time in launch order (ms, grid, block):")
for name, ns, g, bl in one:
    print ("  %-60s %8.4f %s %s" % (name [:60], ns / 1e6, g, bl))
