#!/usr/bin/env python3
"""auto_regret.py LOG [--top N] — where auto mode's choices lost, from a
GRBCUDA_VERBOSE=1 log (issue 23).

Each call line ("[grbcuda] OP C ... predicted host H ms gpu G ms ... -> PATH
T ms ...") gives both predictions and the measured time of the side that ran.
A GPU call whose time T is over the host's prediction H lost about T - H
(the host's prediction carries its learned correction, the nearest thing to
the host's own time in the log); a purchase (the line before it says the
host time lost "pays for their upload") is counted apart, since it pays an
upload on purpose. Sections follow the bench's --mark lines ("lagraph_bench:
mark ALGO trial K"), so a loss that starts in a later trial shows where.
Prints, per section, the GPU calls, their time and loss, the purchases, and
the host calls; then the N calls that lost most, by kind (operation and
shapes), with their predictions: betweenness's 4-row masked product on
rmat-20-16 (predicted 0.4 ms on the GPU, 66 ms measured, 6-8 on the host)
stands at the top of such a list (H200, 2026-11-29)."""
import re
import sys
from collections import OrderedDict, defaultdict

CALL = re.compile(r"^\[grbcuda\] (?P<op>\S+) C (?P<c>\S+) A (?P<a>\S+) \((?P<an>\d+)\) "
                  r"B (?P<b>\S+) \((?P<bn>\d+)\)(?P<flags>[^w]*)work (?P<work>\S+) "
                  r"predicted host (?P<host>[\d.e+-]+) ms.*? gpu (?P<gpu>[\d.e+-]+) ms.*"
                  r"-> (?P<side>gpu|host) \((?P<why>[^)]*)\) (?P<t>[\d.]+) ms")
MARK = re.compile(r"mark (\S+ (?:first|trial \d+))")
PAYS = "pays for their upload"


def parse(lines):
    """(section, call dict) for each call line, purchases flagged"""
    section, pays = "start", False
    for line in lines:
        m = MARK.search(line)
        if m:
            section = m.group(1)
            continue
        if PAYS in line:
            pays = True
            continue
        m = CALL.match(line)
        if not m:
            continue
        d = m.groupdict()
        for k in ("host", "gpu", "t", "work"):
            d[k] = float(d[k])
        d["bought"] = pays and d["side"] == "gpu"
        pays = False
        d["kind"] = "%s C %s A %s B %s%s" % (d["op"], d["c"], d["a"], d["b"], d["flags"].rstrip())
        yield section, d


def main(argv):
    if len(argv) < 2:
        print(__doc__.split("\n\n")[0])
        return 2
    top = int(argv[argv.index("--top") + 1]) if "--top" in argv else 10
    with open(argv[1], errors="replace") as f:
        calls = list(parse(f))
    if not calls:
        print("auto_regret: no call lines in %s (GRBCUDA_VERBOSE=1 on?)" % argv[1])
        return 1
    sections = OrderedDict()
    for sec, d in calls:
        s = sections.setdefault(sec, defaultdict(float))
        if d["side"] == "gpu" and d["bought"]:
            s["bought"] += 1
            s["bought_ms"] += d["t"]
        elif d["side"] == "gpu":
            s["gpu"] += 1
            s["gpu_ms"] += d["t"]
            s["lost_ms"] += max(0.0, d["t"] - d["host"])
        else:
            s["host"] += 1
            s["host_ms"] += d["t"]
    print("| section | GPU calls | GPU ms | lost ms (over the host's prediction) | purchases | their ms | host calls | host ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for sec, s in sections.items():
        print("| %s | %d | %.2f | %.2f | %d | %.2f | %d | %.2f |" % (sec, s["gpu"], s["gpu_ms"], s["lost_ms"],
              s["bought"], s["bought_ms"], s["host"], s["host_ms"]))
    kinds = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0])
    for sec, d in calls:
        if d["side"] == "gpu" and not d["bought"] and d["t"] > d["host"]:
            k = kinds[d["kind"]]
            k[0] += 1
            k[1] += d["t"] - d["host"]
            k[2] += d["t"]
            k[3] += d["host"]
            k[4] += d["gpu"]
    print()
    print("| GPU calls that lost, by kind | calls | lost ms | measured ms | host predicted ms | GPU predicted ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind, k in sorted(kinds.items(), key=lambda x: -x[1][1])[:top]:
        print("| %s | %d | %.2f | %.2f | %.2f | %.2f |" % (kind, k[0], k[1], k[2], k[3], k[4]))
    if not kinds:
        print("| (none) | | | | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
