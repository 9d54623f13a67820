#!/usr/bin/env python3
# check_sizes.py — the sizes of issue 22: no file in src/ over 700 lines, no
# function in src/, semirings/ or cuda/ over 150 lines. A function is a
# top-level brace block whose opening line (or the few lines before it) has a
# parameter list: a definition, not a struct, enum, table or extern "C" block.
# Its size is counted from the line of its name to its closing brace.
# Braces inside comments, strings and character literals do not count.
# Usage: check_sizes.py [--baseline FILE] [--write-baseline FILE]
# Prints every oversized file and function as "file: what (N lines)". With
# --baseline: exit 1 only for ones not in FILE (and lists the ones FILE has
# that are gone). Entries are compared without their line counts, so an
# exception that grows or shrinks stays one exception.
import os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_layers import root, sources, against_baseline    # one tree, one walk
MAX_FILE = 700          # lines, files under src/
MAX_FUNCTION = 150      # lines, functions under src/, semirings/, cuda/
EXTS = (".c", ".h", ".cu", ".cuh", ".cpp")

def strip(text):
    """The text with comments, strings and character literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j])); i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i)); i = j
        else:
            out.append(c); i += 1
    return "".join(out)

def functions(text):
    """(name, first line, last line) of each function definition in text."""
    lines = strip(text).split("\n")
    # preprocessor lines (macros, #if) carry no function bodies we measure
    lines = ["" if l.lstrip().startswith("#") else l for l in lines]
    found = []
    stack = []      # one entry per open brace: "ns" (namespace, extern "C"),
                    # (name, first line) for a function, None otherwise
    def head(k, col):
        # the text before a brace back to the previous ; { or } (8 lines at most)
        parts = []
        for b in range(k, max(-1, k - 8), -1):
            seg = lines[b][:col] if b == k else lines[b]
            cut = max(seg.rfind(";"), seg.rfind("{"), seg.rfind("}"))
            parts.insert(0, seg[cut + 1:])
            if cut >= 0:
                break
        return " ".join(parts).strip()
    for k, line in enumerate(lines):
        for col, ch in enumerate(line):
            if ch == "{":
                outer = all(x == "ns" for x in stack)
                h = head(k, col) if outer else ""
                if outer and re.search(r"(^|\s)(namespace(\s+\w+)?|extern)$", h):
                    stack.append("ns")
                    continue
                m = re.search(r"([A-Za-z_]\w*)\s*\([^;{}]*\)\s*(const\s*)?(noexcept\s*)?$", h) if outer else None
                if m and m.group(1) not in ("if", "for", "while", "switch", "sizeof", "return"):
                    first = k
                    for b in range(k, max(-1, k - 8), -1):
                        if re.search(r"\b" + m.group(1) + r"\s*\(", lines[b]):
                            first = b
                            break
                    stack.append((m.group(1), first))
                else:
                    stack.append(None)
            elif ch == "}" and stack:
                top = stack.pop()
                if isinstance(top, tuple):
                    found.append((top[0], top[1] + 1, k + 1))
    return found

def findings():
    out = []
    for rel, top in sources(EXTS):
        text = open(os.path.join(root, rel), encoding="utf-8", errors="replace").read()
        nlines = text.count("\n")
        if top == "src" and nlines > MAX_FILE:
            out.append((f"{rel}: file", nlines))
        for name, a, b in functions(text):
            if b - a + 1 > MAX_FUNCTION:
                out.append((f"{rel}: {name} (line {a})", b - a + 1))
    return sorted(out)

def key(entry):
    # "src/x.c: f (line 12)" and "src/x.c: f (line 30)" are one exception
    return re.sub(r" \(line \d+\)", "", entry)

def main():
    args = sys.argv[1:]
    v = findings()
    text = [f"{what} ({n} lines)" for what, n in v]
    if "--write-baseline" in args:
        path = args[args.index("--write-baseline") + 1]
        open(path, "w").write("".join(key(what) + "\n" for what, _ in v))
    for x in text:
        print(x)
    print(f"check_sizes: {len(v)} files over {MAX_FILE} or functions over {MAX_FUNCTION} lines")
    if "--baseline" in args:
        path = args[args.index("--baseline") + 1]
        return against_baseline(path, [key(what) for what, _ in v], "check_sizes")
    return 0

if __name__ == "__main__":
    sys.exit(main())
