#!/usr/bin/env python3
"""run.py — the one command of the benchmark (issue 6, ../shared/BENCH.md).

For each workload it runs each operation three ways in one run:
  1. SuiteSparse alone:      <build>/.../grb_bench
  2. SuiteSparse + grbcuda:  LD_PRELOAD=<build>/.../libgrbcuda.so grb_bench
  3. cuSPARSE:               <build>/.../cusparse_peer (SpGEMM, SpMV, SpMM, SDDMM)
then writes a Markdown table (end-to-end times, grbcuda's and cuSPARSE's GPU
kernel times, ratios, GPU/host path, correctness) and a PNG plot of the
speedups (end to end and kernel), and appends both to bench/RESULTS.md with the date,
GPU, CPU, command and commit.

    python3 bench/run.py BUILD_DIR [--quick] [--ops a,b] [--workloads w1,w2]
                         [--repeats N] [--max-seconds S] [--no-append] ...

Standard library only (matplotlib is used for the plot when it is importable;
otherwise a small PNG writer here draws it). GRBCUDA_* variables in the
environment reach the grbcuda run unchanged.
"""

import argparse
import datetime
import json
import math
import os
import platform
import re
import struct
import subprocess
import sys
import threading
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# (workload, operations) — BENCH.md's table of operations and workloads
FULL = [
    ("grid3d-100", ["spgemm", "bfs_levels", "bfs_parents", "spmv", "spmm", "sddmm"]),
    ("urand-18-8", ["spgemm"]),
    ("rmat-16-8", ["spgemm"]),
    ("urand-20-16", ["tc_dot", "tc_ll"]),
    ("rmat-20-16", ["tc_dot", "tc_ll", "bfs_levels", "bfs_parents", "spmv", "spmm", "sddmm"]),
    # C<L>=L*L on rmat-22-16 adds about a minute of host time per run: the
    # triangle counting target of issue 5 is measured on it
    ("rmat-22-16", ["tc_dot", "tc_ll", "bfs_levels", "bfs_parents", "spmv"]),
]
QUICK = [
    ("grid3d-40", ["spgemm", "bfs_levels", "bfs_parents", "spmv", "spmm", "sddmm"]),
    ("urand-16-8", ["spgemm", "tc_dot", "tc_ll", "bfs_levels", "spmv"]),
    # rmat-16-8's A*A has 163M entries: not quick, so not here
    ("rmat-16-8", ["tc_dot", "tc_ll", "bfs_levels", "bfs_parents", "spmv", "spmm", "sddmm"]),
]
ALL_OPS = ["spgemm", "tc_dot", "tc_ll", "tc_burkhardt", "bfs_levels", "bfs_parents",
           "spmv", "spmm", "sddmm"]
PEER_OPS = ["spgemm", "spmv", "spmm", "sddmm"]
PEER_ORDER = ["spmv", "spgemm", "spmm", "sddmm"]     # the order cusparse_peer runs them in
OP_TITLE = {
    "spgemm": "SpGEMM C=A*A", "tc_dot": "triangles C<L>=L*U'", "tc_ll": "triangles C<L>=L*L",
    "tc_burkhardt": "triangles C<A>=A*A", "bfs_levels": "BFS levels",
    "bfs_parents": "BFS parents", "spmv": "SpMV y=A*x", "spmm": "SpMM Y=A*X (32)",
    "sddmm": "SDDMM C<A>=X*Y' (32)",
}
FP32_OPS = ("spmm", "sddmm")

T0 = time.time()


def progress(msg):
    print("[%7.1fs] %s" % (time.time() - T0, msg), flush=True)


# ---------------------------------------------------------------------------
# finding the programs
# ---------------------------------------------------------------------------

def find_file(build, names):
    """First file under build named one of names (in order of preference)."""
    found = {}
    for root, dirs, files in os.walk(build):
        dirs[:] = [d for d in dirs if d != "CMakeFiles"]
        for f in files:
            for n in names:
                if (f == n or (n.endswith(".so") and f.startswith(n + "."))) and n not in found:
                    found[n] = os.path.join(root, f)
    for n in names:
        if n in found:
            return found[n]
    return None


# ---------------------------------------------------------------------------
# running one program, streaming its progress
# ---------------------------------------------------------------------------

# grb_bench and cusparse_peer announce each operation on stderr as it starts
OP_START = re.compile(r"^\[(?:grb_bench \S+|cusparse_peer)\] \S+ (\w+)(?:: preparing)?$")
RAW = None      # file that gets every JSON line of every run (--out-dir)


def run_tool(label, argv, env, timeout, op_timeout):
    """Runs argv; returns (JSON objects from stdout, rc, note, op that hung).

    A watchdog kills the process when one operation runs longer than
    op_timeout seconds (or the whole process longer than timeout), so that one
    pathological call cannot eat the run; the caller restarts the rest."""
    progress("%s: %s" % (label, " ".join(os.path.basename(a) if i == 0 else a
                                          for i, a in enumerate(argv))))
    try:
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=env, text=True)
    except OSError as e:
        return [], -1, "could not start: %s" % e, None
    out_lines = []
    current = {"op": None, "since": time.time()}

    def read_out():
        for line in p.stdout:
            out_lines.append(line)

    def read_err():
        for line in p.stderr:
            line = line.rstrip()
            if not line:
                continue
            m = OP_START.match(line)
            if m and m.group(1) in ALL_OPS and m.group(1) != current["op"]:
                current["op"], current["since"] = m.group(1), time.time()
            progress("    " + line)

    ts = [threading.Thread(target=read_out, daemon=True),
          threading.Thread(target=read_err, daemon=True)]
    for t in ts:
        t.start()
    note, hung, start = "", None, time.time()
    while p.poll() is None:
        time.sleep(0.2)
        now = time.time()
        if op_timeout and current["op"] and now - current["since"] > op_timeout:
            hung = current["op"]
            note = "%s took longer than %d s and was stopped" % (hung, op_timeout)
        elif timeout and now - start > timeout:
            hung = current["op"]
            note = "timed out after %d s" % timeout
        if note:
            p.kill()        # the process this script started, by its handle
            break
    rc = p.wait()
    for t in ts:
        t.join(timeout=5)
    objs = []
    for line in out_lines:
        line = line.strip()
        if line.startswith("{"):
            try:
                objs.append(json.loads(line))
            except ValueError:
                continue
            if RAW is not None:
                RAW.write(line + "\n")
    if RAW is not None:
        RAW.flush()
    if rc < 0 and not note:
        note = "killed by signal %d" % -rc
    return objs, rc, note, hung


def run_ops(label, make_argv, ops, order, env, args):
    """Runs the operations, restarting after a crash or a stopped operation
    with those not yet done; the culprit is reported as an error."""
    merged = {"env": None, "workload": None, "ops": {}, "note": "", "no_gpu": False}
    remaining = list(ops)
    while remaining:
        objs, rc, note, hung = run_tool(label, make_argv(remaining), env, args.timeout,
                                        args.op_timeout)
        r = collect(objs, rc, note)
        merged["env"] = merged["env"] or r["env"]
        merged["workload"] = merged["workload"] or r["workload"]
        merged["no_gpu"] = merged["no_gpu"] or r["no_gpu"]
        merged["ops"].update(r["ops"])
        if r["note"]:
            merged["note"] = (merged["note"] + "; " if merged["note"] else "") + r["note"]
        missing = [o for o in remaining if o not in r["ops"]]
        if not missing or r["no_gpu"] or not (note or rc not in (0, 1)):
            break
        # the operation in progress when it stopped is the culprit; else the
        # first one not done, in the program's order
        culprit = hung if hung in missing else sorted(missing, key=order.index)[0]
        merged["ops"][culprit] = {"type": "op", "op": culprit, "status": "error",
                                  "error": r["note"] or "exit status %d" % rc}
        remaining = [o for o in missing if o != culprit]
        if remaining:
            progress("%s: restarting for %s" % (label, ",".join(remaining)))
    return merged


# ---------------------------------------------------------------------------
# comparing results across processes
# ---------------------------------------------------------------------------

def digest_equal(a, b, rel):
    if a is None or b is None:
        return False, "no digest"
    if a.get("nvals") != b.get("nvals"):
        return False, "%s entries, SuiteSparse %s" % (b.get("nvals"), a.get("nvals"))
    if a.get("pattern") != b.get("pattern"):
        return False, "pattern differs"
    tol = rel * max(abs(a.get("sumabs", 0)), abs(b.get("sumabs", 0))) + 1e-300
    if abs(a.get("sum", 0) - b.get("sum", 0)) > tol:
        return False, "sum of values %.17g, SuiteSparse %.17g" % (b["sum"], a["sum"])
    return True, ""


def same_result(op, ref, got):
    """Compares grb_bench 'result' objects of two processes."""
    if ref is None or got is None:
        return False, "missing result"
    if op.startswith("tc_"):
        ok = ref.get("triangles") == got.get("triangles")
        return ok, "" if ok else "%s triangles, SuiteSparse %s" % (got.get("triangles"),
                                                                   ref.get("triangles"))
    if op.startswith("bfs_"):
        for key in ("source", "levels", "reached"):
            if ref.get(key) != got.get(key):
                return False, "%s %s, SuiteSparse %s" % (key, got.get(key), ref.get(key))
        return digest_equal(ref.get("level_digest"), got.get("level_digest"), 0)
    rel = 1e-4 if op in FP32_OPS else 1e-9
    return digest_equal(ref.get("digest"), got.get("digest"), rel)


# ---------------------------------------------------------------------------
# formatting
# ---------------------------------------------------------------------------

def fmb(x):
    """megabytes, or a dash"""
    if x is None:
        return "—"
    return "0" if x == 0 else ("%.3g" % x if x < 100 else "%.0f" % x)


def by_size(x, formats, smallest):
    """x in the first of formats ((floor, format), largest floor first)
    whose floor x reaches, else in smallest"""
    for floor, fmt in formats:
        if x >= floor:
            return fmt % x
    return smallest % x


def fms(x):
    if x is None:
        return "—"
    return by_size(x, ((100, "%.0f"), (10, "%.1f"), (1, "%.2f")), "%.3f")


def fratio(x):
    if x is None or x <= 0 or not math.isfinite(x):
        return "—"
    return by_size(x, ((100, "%.0f×"), (10, "%.1f×")), "%.2f×")


def fpct(x):
    return by_size(100.0 * x, ((10, "%.0f%%"), (1, "%.1f%%")), "%.2f%%")


def path_text(path):
    if path is None:
        return "—"
    calls, gpu = path.get("calls", 0), path.get("gpu", 0)
    reasons = ", ".join("%s %d" % (k, v) for k, v in sorted(path.get("reasons", {}).items()))
    if calls == 0:
        return "not intercepted"
    if gpu == calls:
        return "GPU"
    if gpu == 0:
        return "host (%s)" % reasons if reasons else "host"
    return "mixed: GPU %d/%d (%s)" % (gpu, calls, reasons)


def ratio(a, b):
    if a is None or b is None or b <= 0:
        return None
    return a / b


def grbcuda_kernel(g):
    """(kernel ms, cell text, comparable) of a grbcuda op object: the median
    per repeat of the device time of grbcuda's GPU kernels. comparable: every
    call of the repeats ran on the GPU and timed its kernels."""
    if not g or g.get("status") != "ok":
        return None, "—", False
    k = g.get("kernel") or {}
    path = g.get("path") or {}
    km = g.get("kernel_median_ms")
    if km is None:
        km = k.get("median_ms")
    ncalls, timed = k.get("gpu_calls", 0), k.get("timed_calls", 0)
    if km is None or not timed:
        # ran on the GPU, but no call timed its kernels
        return None, ("not timed" if k and ncalls else "—"), False
    if timed < ncalls:
        # a lower bound: the kernels of the other GPU calls are not in it
        return km, "≥%s (%d/%d calls timed)" % (fms(km), timed, ncalls), False
    text = fms(km)
    gc = g.get("median_ms")
    if gc:
        text += " (%s)" % fpct(km / gc)
    # the calls of the repeats (the path counts the first call too)
    all_gpu = path.get("calls", 0) > 0 and path.get("gpu") == path.get("calls")
    return km, text, timed == ncalls and all_gpu


# ---------------------------------------------------------------------------
# the plot: matplotlib if present, else a PNG drawn here
# ---------------------------------------------------------------------------

# 5x7 glyphs, rows top to bottom, the leftmost column first; lower case is
# drawn as upper case
_GLYPHS = """
A 01110 10001 10001 11111 10001 10001 10001
B 11110 10001 10001 11110 10001 10001 11110
C 01110 10001 10000 10000 10000 10001 01110
D 11110 10001 10001 10001 10001 10001 11110
E 11111 10000 10000 11110 10000 10000 11111
F 11111 10000 10000 11110 10000 10000 10000
G 01110 10001 10000 10111 10001 10001 01111
H 10001 10001 10001 11111 10001 10001 10001
I 01110 00100 00100 00100 00100 00100 01110
J 00111 00010 00010 00010 00010 10010 01100
K 10001 10010 10100 11000 10100 10010 10001
L 10000 10000 10000 10000 10000 10000 11111
M 10001 11011 10101 10101 10001 10001 10001
N 10001 10001 11001 10101 10011 10001 10001
O 01110 10001 10001 10001 10001 10001 01110
P 11110 10001 10001 11110 10000 10000 10000
Q 01110 10001 10001 10001 10101 10010 01101
R 11110 10001 10001 11110 10100 10010 10001
S 01111 10000 10000 01110 00001 00001 11110
T 11111 00100 00100 00100 00100 00100 00100
U 10001 10001 10001 10001 10001 10001 01110
V 10001 10001 10001 10001 10001 01010 00100
W 10001 10001 10001 10101 10101 10101 01010
X 10001 10001 01010 00100 01010 10001 10001
Y 10001 10001 01010 00100 00100 00100 00100
Z 11111 00001 00010 00100 01000 10000 11111
0 01110 10001 10011 10101 11001 10001 01110
1 00100 01100 00100 00100 00100 00100 01110
2 01110 10001 00001 00010 00100 01000 11111
3 11111 00010 00100 00010 00001 10001 01110
4 00010 00110 01010 10010 11111 00010 00010
5 11111 10000 11110 00001 00001 10001 01110
6 00110 01000 10000 11110 10001 10001 01110
7 11111 00001 00010 00100 01000 01000 01000
8 01110 10001 10001 01110 10001 10001 01110
9 01110 10001 10001 01111 00001 00010 01100
- 00000 00000 00000 11111 00000 00000 00000
. 00000 00000 00000 00000 00000 01100 01100
_ 00000 00000 00000 00000 00000 00000 11111
/ 00000 00001 00010 00100 01000 10000 00000
: 00000 01100 01100 00000 01100 01100 00000
( 00010 00100 01000 01000 01000 00100 00010
) 01000 00100 00010 00010 00010 00100 01000
= 00000 00000 11111 00000 11111 00000 00000
+ 00000 00100 00100 11111 00100 00100 00000
* 00000 00100 10101 01110 10101 00100 00000
' 00100 00100 01000 00000 00000 00000 00000
< 00010 00100 01000 10000 01000 00100 00010
> 01000 00100 00010 00001 00010 00100 01000
, 00000 00000 00000 00000 01100 00100 01000
% 11000 11001 00010 00100 01000 10011 00011
"""
_FONT = {}
for _line in _GLYPHS.strip().splitlines():
    _parts = _line.split()
    _FONT[_parts[0]] = [int(r, 2) for r in _parts[1:]]


class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = bytearray(b"\xff" * (w * h * 3))

    def rect(self, x0, y0, x1, y1, rgb):
        x0, x1 = max(0, min(x0, x1)), min(self.w, max(x0, x1))
        y0, y1 = max(0, min(y0, y1)), min(self.h, max(y0, y1))
        row = bytes(rgb) * (x1 - x0)
        for y in range(y0, y1):
            o = (y * self.w + x0) * 3
            self.px[o:o + len(row)] = row

    def text(self, x, y, s, rgb=(0, 0, 0), scale=1):
        for ch in s.upper():
            rows = _FONT.get(ch)
            if rows is not None:
                for r, bits in enumerate(rows):
                    for c in range(5):
                        if bits & (16 >> c):
                            self.rect(x + c * scale, y + r * scale,
                                      x + (c + 1) * scale, y + (r + 1) * scale, rgb)
            x += 6 * scale

    def png(self, path):
        raw = b"".join(b"\x00" + bytes(self.px[y * self.w * 3:(y + 1) * self.w * 3])
                       for y in range(self.h))

        def chunk(tag, data):
            return (struct.pack(">I", len(data)) + tag + data
                    + struct.pack(">I", zlib.crc32(tag + data) & 0xffffffff))

        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n")
            f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)))
            f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
            f.write(chunk(b"IEND", b""))


SERIES = [("grbcuda end-to-end", (31, 119, 180)),
          ("grbcuda kernel", (148, 103, 189)),
          ("cuSPARSE kernel", (255, 127, 14)),
          ("cuSPARSE end-to-end", (44, 160, 44))]


def plot_builtin(groups, title, path):
    """groups: [(label1, label2, [one value per SERIES])], speedups over SuiteSparse."""
    vals = [v for g in groups for v in g[2] if v]
    lo = math.floor(math.log10(min(vals + [1.0]) )) if vals else -1
    hi = math.ceil(math.log10(max(vals + [1.0]))) if vals else 1
    lo, hi = min(lo, -1), max(hi, 1)
    gw, left, top, ph = 36 * len(SERIES) + 24, 70, 60, 360
    w = left + max(1, len(groups)) * gw + 20
    h = top + ph + 70
    cv = Canvas(w, h)
    cv.text(left, 12, title, scale=2)
    x = left
    for name, rgb in SERIES:
        cv.rect(x, 38, x + 10, 48, rgb)
        cv.text(x + 14, 40, name)
        x += 14 + 6 * len(name) + 20

    def ypos(v):
        return top + ph - int((math.log10(v) - lo) / (hi - lo) * ph)

    for e in range(lo, hi + 1):
        y = ypos(10.0 ** e)
        cv.rect(left, y, w - 20, y + 1, (200, 200, 200) if e != 0 else (0, 0, 0))
        label = ("%g" % (10.0 ** e)) + "X"
        cv.text(left - 6 * len(label) - 6, y - 3, label)
    cv.rect(left, top, left + 1, top + ph, (0, 0, 0))
    for i, (l1, l2, vs) in enumerate(groups):
        gx = left + i * gw + 10
        for s, v in enumerate(vs):
            bx = gx + s * 36
            if v and v > 0:
                v = min(max(v, 10.0 ** lo), 10.0 ** hi)
                y0, y1 = ypos(1.0), ypos(v)
                cv.rect(bx, min(y0, y1), bx + 30, max(y0, y1) + 1, SERIES[s][1])
                label = ("%.0f" % v) if v >= 10 else ("%.1f" % v)
                cv.text(bx + 15 - 3 * len(label), (y1 - 10) if v >= 1 else (y1 + 3), label)
            else:
                cv.text(bx + 9, ypos(1.0) - 10, "-")
        cv.text(gx, top + ph + 10, l1[:20])
        cv.text(gx, top + ph + 22, l2[:20])
    cv.text(left, h - 20, "SPEEDUP OVER SUITESPARSE ON THE HOST (LOG SCALE); - = NOT MEASURED")
    cv.png(path)


def plot(groups, title, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:
        plot_builtin(groups, title, path)
        return "built-in PNG writer"
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(groups) + 2), 4.8))
    width = 0.8 / len(SERIES)
    for s, (name, rgb) in enumerate(SERIES):
        xs = [i + (s - (len(SERIES) - 1) / 2) * width for i in range(len(groups))]
        ys = [g[2][s] if g[2][s] else 0 for g in groups]
        ax.bar(xs, ys, width, label=name, color=[c / 255 for c in rgb])
    ax.set_yscale("log")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(["%s\n%s" % (g[0], g[1]) for g in groups], fontsize=7)
    ax.set_ylabel("speedup over SuiteSparse (host)")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return "matplotlib"


# ---------------------------------------------------------------------------
# machine description
# ---------------------------------------------------------------------------

def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def git_commit():
    try:
        sha = subprocess.run(["git", "-C", REPO, "rev-parse", "--short=12", "HEAD"],
                             capture_output=True, text=True, timeout=20)
        commit = sha.stdout.strip() if sha.returncode == 0 else "no commit yet"
        # --no-optional-locks: a status that never writes the index
        st = subprocess.run(["git", "--no-optional-locks", "-C", REPO, "status",
                             "--porcelain", "--untracked-files=no"],
                            capture_output=True, text=True, timeout=20)
        if st.returncode == 0 and st.stdout.strip():
            commit += " + uncommitted changes"
        return commit
    except (OSError, subprocess.SubprocessError):
        return "unknown (git not available)"


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description="grbcuda benchmark: SuiteSparse, "
                                 "SuiteSparse+grbcuda and cuSPARSE side by side")
    ap.add_argument("build", help="the CMake build directory")
    ap.add_argument("--quick", action="store_true", help="small workloads, seconds")
    ap.add_argument("--ops", help="only these operations (comma-separated): " + ",".join(ALL_OPS))
    ap.add_argument("--workloads", help="only these workloads, or others with --ops "
                    "(comma-separated; grid3d-S, urand-S-E, rmat-S-E, file.mtx)")
    ap.add_argument("--repeats", type=int, help="repeats after the first call (default 5, quick 3)")
    ap.add_argument("--peer-repeats", type=int, help="cuSPARSE kernel/e2e repeats (default 20)")
    ap.add_argument("--max-seconds", type=float,
                    help="time budget per operation's repeats (default 10, quick 2)")
    ap.add_argument("--check", choices=["auto", "always", "never"],
                    help="in-process checks: auto = GPU results only (default; quick: always)")
    ap.add_argument("--threads", type=int, help="host threads for SuiteSparse (default: all)")
    ap.add_argument("--seed", help="generator seed (default: the programs' fixed seed)")
    ap.add_argument("--grbcuda", help="path of libgrbcuda.so (default: found in the build)")
    ap.add_argument("--no-grbcuda", action="store_true", help="skip the grbcuda run")
    ap.add_argument("--no-peer", action="store_true", help="skip the cuSPARSE peer")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per program run")
    ap.add_argument("--op-timeout", type=int,
                    help="seconds one operation (first call, repeats, check) may take before "
                    "it is stopped and reported as such (default 120, quick 60)")
    ap.add_argument("--out-dir", default=os.path.join(HERE, "results"),
                    help="where the table and the plot go (default bench/results)")
    ap.add_argument("--results", default=os.path.join(HERE, "RESULTS.md"),
                    help="the file the run is appended to")
    ap.add_argument("--no-append", action="store_true", help="do not append to RESULTS.md")
    args = ap.parse_args()

    build = os.path.abspath(args.build)
    if not os.path.isdir(build):
        sys.exit("run.py: %s is not a directory" % build)
    grb_bench = find_file(build, ["grb_bench"])
    if grb_bench is None:
        sys.exit("run.py: grb_bench not found under %s (build the bench target)" % build)
    peer = None if args.no_peer else find_file(build, ["cusparse_peer"])
    lib = None
    if not args.no_grbcuda:
        lib = os.path.abspath(args.grbcuda) if args.grbcuda else find_file(build, ["libgrbcuda.so"])

    profile = "quick" if args.quick else "full"
    plan = [(w, list(ops)) for w, ops in (QUICK if args.quick else FULL)]
    if args.workloads:
        wanted = [w.strip() for w in args.workloads.split(",") if w.strip()]
        known = dict(plan)
        ops_default = [o.strip() for o in args.ops.split(",")] if args.ops else None
        plan = [(w, known.get(w, ops_default or [o for o in ALL_OPS if o != "tc_burkhardt"]))
                for w in wanted]
    if args.ops:
        keep = [o.strip() for o in args.ops.split(",") if o.strip()]
        bad = [o for o in keep if o not in ALL_OPS]
        if bad:
            sys.exit("run.py: unknown operations: %s" % ",".join(bad))
        plan = [(w, [o for o in ops if o in keep] or ([] if not args.workloads else keep))
                for w, ops in plan]
        plan = [(w, ops) for w, ops in plan if ops]
    if not plan:
        sys.exit("run.py: nothing to run")
    repeats = args.repeats or (3 if args.quick else 5)
    peer_repeats = args.peer_repeats or (5 if args.quick else 20)
    max_s = args.max_seconds if args.max_seconds is not None else (2.0 if args.quick else 10.0)
    check = args.check or ("always" if args.quick else "auto")
    if args.op_timeout is None:
        args.op_timeout = 60 if args.quick else 120

    progress("profile %s: %d workloads; grb_bench %s; grbcuda %s; cuSPARSE peer %s"
             % (profile, len(plan), grb_bench, lib or "not found", peer or "not built"))

    base_env = dict(os.environ)
    # the plain run must not inherit a preload
    base_env.pop("LD_PRELOAD", None)
    common = ["--repeats", str(repeats), "--max-seconds", str(max_s), "--check", check]
    if args.threads:
        common += ["--threads", str(args.threads)]
    if args.seed:
        common += ["--seed", args.seed]

    global RAW
    os.makedirs(args.out_dir, exist_ok=True)
    stamp = datetime.datetime.now(datetime.timezone.utc)
    base = "bench-%s-%s" % (stamp.strftime("%Y%m%d-%H%M%S"), profile)
    RAW = open(os.path.join(args.out_dir, base + ".jsonl"), "w")

    runs = {}          # (way, workload) -> {"env", "workload", "ops": {op: obj}, "note"}
    envs = {}
    nsteps = len(plan) * (1 + (lib is not None) + (peer is not None))
    step = 0
    for w, ops in plan:
        ways = [("plain", None), ("grbcuda", lib)] if lib else [("plain", None)]
        for way, preload in ways:
            step += 1
            env = dict(base_env)
            if preload:
                env["LD_PRELOAD"] = preload + (" " + os.environ["LD_PRELOAD"]
                                               if os.environ.get("LD_PRELOAD") else "")

            def argv_for(todo, w=w):
                return [grb_bench, "--workload", w, "--ops", ",".join(todo)] + common
            runs[(way, w)] = run_ops("[%d/%d] %s %s" % (step, nsteps, w, way), argv_for, ops,
                                     ALL_OPS, env, args)
            envs.setdefault(way, runs[(way, w)]["env"])
        pops = [o for o in ops if o in PEER_OPS]
        if peer:
            step += 1
            if pops:
                def peer_argv(todo, w=w):
                    a = [peer, "--workload", w, "--ops", ",".join(todo),
                         "--repeats", str(peer_repeats), "--max-seconds", str(max_s)]
                    return a + (["--seed", args.seed] if args.seed else [])
                runs[("peer", w)] = run_ops("[%d/%d] %s cuSPARSE" % (step, nsteps, w), peer_argv,
                                            pops, PEER_ORDER, base_env, args)
                if runs[("peer", w)]["env"]:
                    envs.setdefault("peer", runs[("peer", w)]["env"])
            else:
                progress("[%d/%d] %s cuSPARSE: no cuSPARSE operation here" % (step, nsteps, w))
    RAW.close()
    RAW = None

    # -----------------------------------------------------------------------
    # the table
    # -----------------------------------------------------------------------
    peer_env = envs.get("peer") or {}
    bw = peer_env.get("copy_bw_gbs")
    rows, groups, onetime = [], [], []
    notes = {}     # message -> workloads it concerns
    failures = 0
    for w, ops in plan:
        rp, rg, rc_ = runs.get(("plain", w)), runs.get(("grbcuda", w)), runs.get(("peer", w))
        sizes = set()
        for r in (rp, rg, rc_):
            if r and r["workload"] and r["workload"].get("status") == "ok":
                sizes.add((r["workload"].get("n"), r["workload"].get("nvals")))
        if len(sizes) > 1:
            notes.setdefault("**the programs generated different matrices %s** — the "
                             "comparison is void" % sorted(sizes), []).append(w)
            failures += 1
        for r, who in ((rp, "SuiteSparse run"), (rg, "grbcuda run"), (rc_, "cuSPARSE run")):
            if r and r["note"]:
                notes.setdefault("%s: %s" % (who, r["note"]), []).append(w)
            if r and r["workload"] and r["workload"].get("status") != "ok":
                notes.setdefault("%s: %s" % (who, r["workload"].get("error")), []).append(w)
        for op in ops:
            p = rp["ops"].get(op) if rp else None
            g = rg["ops"].get(op) if rg else None
            c = rc_["ops"].get(op) if rc_ else None
            ss = p["median_ms"] if p and p.get("status") == "ok" else None
            gc = g["median_ms"] if g and g.get("status") == "ok" else None
            # the call followed by a read of its result (grbcuda may leave it
            # on the device: the read writes it into the matrix)
            grb = g.get("readback_median_ms") if g and g.get("status") == "ok" else None
            ssrb = p.get("readback_median_ms") if p and p.get("status") == "ok" else None
            # grbcuda's GPU kernel time (None: not on the GPU, or not timed);
            # gk_all: every call of the repeats ran on the GPU and was timed,
            # so the kernel time is comparable with a peer's
            gk, gk_text, gk_all = grbcuda_kernel(g)
            ck = c["kernel_ms"] if c and c.get("status") == "ok" else None
            ce = c["e2e_ms"] if c and c.get("status") == "ok" else None

            # correctness, grbcuda
            if not lib:
                gcheck = "—"
            elif g is None:
                gcheck = "no result"
                failures += 1
            elif g.get("status") != "ok":
                gcheck = "**ERROR** " + g.get("error", "")
                failures += 1
            else:
                same, why = same_result(op, p.get("result") if p else None, g.get("result"))
                v = g.get("check")
                if v == "ok":
                    gcheck = "ok (checked in process)"
                elif v in ("wrong", "error"):
                    gcheck = "**WRONG**: " + g.get("check_msg", "")
                    failures += 1
                elif same:
                    gcheck = "ok (= SuiteSparse digest)"
                else:
                    gcheck = "**DIFFERS** from SuiteSparse: " + why
                    failures += 1
            # correctness, cuSPARSE
            if op not in PEER_OPS:
                ccheck = "n/a"
            elif not peer:
                ccheck = "not built"
            elif c is None:
                ccheck = ("no GPU" if rc_ and rc_.get("no_gpu") else "no result")
                ccheck += " (see notes)" if rc_ and rc_["note"] else ""
            elif c.get("status") != "ok":
                ccheck = "**FAILED**: " + c.get("error", "")
            elif c.get("check") != "ok":
                ccheck = "**WRONG**: " + c.get("check_msg", "") if c.get("check") == "wrong" \
                    else c.get("check", "?")
            else:
                ccheck = "ok"
            wrong_peer = c is not None and (c.get("status") != "ok" or c.get("check") != "ok")

            floor = "—"
            if op in ("spmv", "spgemm") and c and c.get("floor_ms"):
                parts = []
                if c.get("floor_fraction") and not wrong_peer:
                    parts.append("cuSPARSE " + fpct(c["floor_fraction"]))
                if gk and gk_all:
                    parts.append("grbcuda kernel " + fpct(c["floor_ms"] / gk))
                if gc:
                    parts.append("grbcuda e2e " + fpct(c["floor_ms"] / gc))
                floor = ", ".join(parts) or "—"
            extra = ""
            res = (p or {}).get("result") or {}
            if op.startswith("tc_") and "triangles" in res:
                extra = " (%s triangles)" % format(res["triangles"], ",")
            elif op.startswith("bfs_") and "levels" in res:
                extra = " (%d levels, %s reached)" % (res["levels"], format(res["reached"], ","))
            elif op == "spgemm" and "products" in res:
                extra = " (nnz(C) %s)" % format(res.get("nvals", 0), ",")
            def peer_ms(x):
                # a time of a wrong or failed result is shown, marked, never compared
                return fms(x) + (" (wrong)" if wrong_peer and x is not None else "")
            # one column: grbcuda's verdict, and cuSPARSE's where it ran
            checks = (ccheck if not lib else gcheck if ccheck in ("n/a", "not built")
                      else "grbcuda %s; cuSPARSE %s" % (gcheck, ccheck))
            rb = "—" if grb is None else "%s (%s)" % (fms(grb), fratio(ratio(ssrb or ss, grb)))
            rows.append([w, OP_TITLE.get(op, op) + extra, fms(ss), fms(gc), gk_text,
                         fratio(ratio(ss, gc)), rb, path_text(g.get("path") if g else None),
                         peer_ms(ck), peer_ms(ce),
                         "—" if wrong_peer or not gk_all else fratio(ratio(ck, gk)),
                         "—" if wrong_peer else fratio(ratio(ce, gc)), floor, checks])
            groups.append((w, op, [ratio(ss, gc),
                                   ratio(ss, gk) if gk_all else None,
                                   None if wrong_peer else ratio(ss, ck),
                                   None if wrong_peer else ratio(ss, ce)]))
            gfirst = g if g and g.get("status") == "ok" else None
            gkf = (gfirst or {}).get("kernel") or {}
            gkfirst = gkf.get("first_ms")
            if gkfirst is not None and gkf.get("first_timed_calls", 0) < gkf.get("first_gpu_calls", 0):
                gkfirst = "≥%s (%d/%d calls timed)" % (fms(gkfirst), gkf["first_timed_calls"],
                                                     gkf["first_gpu_calls"])
            elif gkfirst is not None:
                gkfirst = fms(gkfirst)
            tr = (gfirst or {}).get("transfers") or {}
            if tr and (gfirst.get("path") or {}).get("gpu"):
                moved = "%s / %s" % (fmb(tr.get("first_up_mb")), fmb(tr.get("repeat_up_mb")))
            else:
                moved = "—"
            onetime.append([w, op, fms(p.get("first_ms")) if p else "—",
                            fms(gfirst.get("first_ms")) if gfirst else "—",
                            gkfirst if gkfirst is not None else "—", moved,
                            fms(c.get("first_ms")) if c else "—"])

    header = ["workload", "operation", "SuiteSparse e2e ms", "+grbcuda e2e ms",
              "grbcuda kernel ms", "grbcuda vs SuiteSparse (e2e)",
              "+grbcuda e2e + read-back ms (vs SuiteSparse)", "grbcuda path",
              "cuSPARSE kernel ms", "cuSPARSE e2e ms", "grbcuda vs cuSPARSE kernel",
              "grbcuda vs cuSPARSE e2e", "of bandwidth floor", "checks"]
    md = []
    md.append("| " + " | ".join(header) + " |")
    md.append("|" + "---|" * len(header))
    for r in rows:
        md.append("| " + " | ".join(x.replace("|", "\\|") for x in r) + " |")
    md.append("")
    md.append("Medians of the repeats. e2e: around the GraphBLAS call(s), result waited on; "
              "grbcuda kernel: device time of grbcuda's GPU kernels in those calls (CUDA "
              "events), with its share of the e2e time — the rest is the export from "
              "SuiteSparse, host↔device copies and the write-back; \"—\" where no call ran "
              "on the GPU (or this grbcuda does not report it). Ratios are peer time / "
              "grbcuda time (above 1×: grbcuda is faster); the kernel ratio only where every "
              "call ran on the GPU with its kernels timed. e2e + read-back: the call followed "
              "by a read of its result (its sparsity status), which writes a result grbcuda "
              "left on the device into the matrix; against SuiteSparse's call and the same "
              "read.")
    md.append("")
    md.append("One-time costs (first call, ms; the medians above exclude it). Uploads: "
              "operands resident on the GPU since an earlier call (grbcuda's residency "
              "cache) are not uploaded again:")
    md.append("")
    md.append("| workload | operation | SuiteSparse first | +grbcuda first | "
              "+grbcuda first, kernels | grbcuda uploaded MB: first call / each later call | "
              "cuSPARSE first |")
    md.append("|---|---|---|---|---|---|---|")
    for r in onetime:
        md.append("| " + " | ".join(r) + " |")
    md.append("")
    genv = envs.get("grbcuda") or {}
    penv = envs.get("plain") or {}
    md.append("Process start-up: grbcuda GPU start %s ms%s; CUDA context %s ms and cuSPARSE "
              "handle %s ms in the peer; device-to-device copy %s GB/s (read + write)."
              % (fms(genv.get("gpu_init_ms")) if genv else "—",
                 " (GPU available)" if genv.get("gpu_available") else
                 (" (grbcuda reports no usable GPU)" if genv else ""),
                 fms(peer_env.get("ctx_init_ms")), fms(peer_env.get("handle_ms")),
                 ("%.0f" % bw) if bw else "—"))
    if notes:
        md.append("")
        md.extend("- %s — %s" % (", ".join(ws), msg) for msg, ws in notes.items())
    table = "\n".join(md) + "\n"

    png = os.path.join(args.out_dir, base + ".png")
    gpu = peer_env.get("gpu") or genv.get("gpu") or gpu_from_smi() or "no GPU"
    how = plot(groups, "speedup over SuiteSparse, %s profile, %s" % (profile, gpu), png)
    mdpath = os.path.join(args.out_dir, base + ".md")

    cmd = " ".join([os.path.relpath(sys.argv[0], REPO) if sys.argv[0].startswith(REPO)
                    else sys.argv[0]] + sys.argv[1:])
    gpu_line = gpu
    if peer_env:
        gpu_line += " (%s SMs, %.0f GiB; driver %s, runtime %s, cuSPARSE %s)" % (
            peer_env.get("sm_count"), peer_env.get("global_mem", 0) / 2**30,
            peer_env.get("driver"), peer_env.get("runtime"), peer_env.get("cusparse"))
    section = []
    section.append("## %s — %s profile" % (stamp.strftime("%Y-%m-%d %H:%M UTC"), profile))
    section.append("")
    section.append("- GPU: %s" % gpu_line)
    section.append("- CPU: %s, %d hardware threads; SuiteSparse:GraphBLAS %s with %s threads"
                   % (cpu_name(), os.cpu_count() or 0, penv.get("graphblas", "?"),
                      penv.get("threads", "?")))
    section.append("- grbcuda: %s" % (genv.get("grbcuda") if genv else
                                        "not run (libgrbcuda.so not found)" if not lib else "?"))
    section.append("- command: `python3 %s`" % cmd)
    section.append("- commit: %s" % git_commit())
    section.append("- repeats: %d (host), %d (cuSPARSE), at most %g s per operation; medians; "
                   "wall time of the run %.0f s" % (repeats, peer_repeats, max_s, time.time() - T0))
    section.append("")
    section.append(table)
    rel_png = os.path.relpath(png, os.path.dirname(os.path.abspath(args.results)))
    section.append("![speedups](%s)" % rel_png)
    section.append("")
    text = "\n".join(section) + "\n"
    with open(mdpath, "w") as f:
        f.write(text)
    if not args.no_append:
        with open(args.results, "a") as f:
            f.write("\n" + text)
    print()
    print(text)
    progress("table: %s; plot (%s): %s%s" % (mdpath, how, png,
             "" if args.no_append else "; appended to %s" % args.results))
    if failures:
        progress("%d wrong, differing or failed grbcuda results (see the table)" % failures)
    return 1 if failures else 0


def collect(objs, rc, note):
    r = {"env": None, "workload": None, "ops": {}, "note": note}
    for o in objs:
        t = o.get("type")
        if t == "env":
            r["env"] = o
        elif t == "workload":
            r["workload"] = o
        elif t == "op":
            r["ops"][o.get("op")] = o
    if rc not in (0, 1) and not note:
        r["note"] = "exit status %d" % rc
    r["no_gpu"] = bool(r["env"] and r["env"].get("status") == "no gpu")
    if r["env"] and r["env"].get("status") not in (None, "ok"):
        r["note"] = (r["note"] + "; " if r["note"] else "") + "%s: %s" % (
            r["env"].get("status"), r["env"].get("error", ""))
        r["env"] = None
    return r


def gpu_from_smi():
    try:
        p = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=20)
        if p.returncode == 0 and p.stdout.strip():
            return p.stdout.strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError):
        pass
    return None


if __name__ == "__main__":
    sys.exit(main())
