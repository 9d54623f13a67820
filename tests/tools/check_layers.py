#!/usr/bin/env python3
# check_layers.py — the floors of DESIGN §6 (issue 22): no include from a
# lower folder of src/, semirings/ or cuda/ to a higher one, nor between
# sibling folders of one floor. Floors, lowest first:
#   src/util  <  semirings  <  src/device, src/export  <  src/residency  <  src/jit
#   <  src/spgemm (the engine)  <  src/mxm, src/mxv, src/reduce (families)
#   <  src/dispatch  <  src/api
#   cuda/common  <  cuda/<family>
# The public header include/grbcuda.h may be included anywhere; src/ may include
# cuda/ (kernels, the argument structs shared with them).
# Usage: check_layers.py [--baseline FILE] [--write-baseline FILE]
# Prints every violation as "file -> included (why)". With --baseline: exit 1
# only for violations not in FILE (and lists the ones FILE has that are gone).
import os, re, sys

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FLOOR = {
    "src/util": 0, "semirings": 1, "src/device": 2, "src/export": 2,
    "src/residency": 3, "src/jit": 4, "src/spgemm": 5, "src/vector": 5,
    "src/spmm": 5, "src/mxm": 6, "src/mxv": 6, "src/reduce": 6,
    "src/dispatch": 7, "src/api": 8,
    "cuda/common": 0, "cuda/spgemm": 1, "cuda/masked": 1, "cuda/mxv": 1,
    "cuda/reduce": 1, "cuda/writeback": 1, "cuda/spmm": 1, "cuda/apply": 1,
}
INCLUDE_DIRS = ["src/util", "src", "semirings", "cuda", "include"]

def folder(rel):
    for f in sorted(FLOOR, key=len, reverse=True):
        if rel.startswith(f + "/"):
            return f
    return None

def resolve(src_rel, name):
    here = os.path.dirname(os.path.join(root, src_rel))
    for base in [here] + [os.path.join(root, d) for d in INCLUDE_DIRS]:
        p = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(p):
            return os.path.relpath(p, root)
    return None

def sources(exts=(".c", ".h", ".cu", ".cuh")):
    """(path from the root, top folder) of each source file of src/, semirings/, cuda/."""
    for top in ("src", "semirings", "cuda"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for fn in sorted(files):
                if fn.endswith(exts):
                    yield os.path.relpath(os.path.join(dirpath, fn), root), top

def violations():
    out = []
    for rel, _ in sources():
        a = folder(rel)
        if a is None:
            continue
        for line in open(os.path.join(root, rel), encoding="utf-8", errors="replace"):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            inc = resolve(rel, m.group(1))
            if inc is None or inc.startswith("include/"):
                continue
            b = folder(inc)
            if b is None or a == b:
                continue
            if a.startswith("src/") and b.startswith("cuda/"):
                continue            # kernels and their shared argument structs
            if (a.startswith("cuda/") or b.startswith("cuda/")) and a.split("/")[0] != b.split("/")[0]:
                why = "cuda/ includes src/" if a.startswith("cuda/") else None
                if why:
                    out.append(f"{rel} -> {inc} ({why})")
                continue
            fa, fb = FLOOR[a], FLOOR[b]
            if fb > fa:
                out.append(f"{rel} -> {inc} (upward: {a} is below {b})")
            elif fb == fa:
                out.append(f"{rel} -> {inc} (sideways: {a} and {b} are one floor)")
    return sorted(set(out))

def against_baseline(path, now, tool):
    """Prints what the baseline file lists that is gone (to be removed from it)
    and what now holds that it does not list; 1 if anything is new."""
    known = set(l.strip() for l in open(path) if l.strip() and not l.startswith("#"))
    for x in sorted(known - set(now)):
        print(f"{tool}: gone (remove it from {os.path.basename(path)}): {x}")
    new = sorted(set(now) - known)
    for x in new:
        print(f"{tool}: NEW: {x}")
    return 1 if new else 0

def main():
    args = sys.argv[1:]
    v = violations()
    if "--write-baseline" in args:
        path = args[args.index("--write-baseline") + 1]
        open(path, "w").write("".join(x + "\n" for x in v))
    for x in v:
        print(x)
    print(f"check_layers: {len(v)} includes against the floors")
    if "--baseline" in args:
        return against_baseline(args[args.index("--baseline") + 1], v, "check_layers")
    return 0

if __name__ == "__main__":
    sys.exit(main())
