#!/usr/bin/env python3
# gen_wrappers.py — generates grbcuda's residency wrappers (DESIGN §3) from
# the GraphBLAS.h the build uses. Every GB_PUBLIC function that takes a
# GrB_Matrix, GrB_Vector or GrB_Scalar gets a definition in libgrbcuda that
# first writes a device-newest handle's value into its SuiteSparse object
# (gcu_residency_materialize: the function may read it), then calls
# SuiteSparse's own definition (gcu_real_cached); a function that can change
# a handle (a non-const handle parameter, or a pointer to a non-const handle)
# then drops the device copies of every handle it may have changed
# (gcu_residency_invalidate). Queries that need no content (dimensions,
# type) read nothing; nvals and wait of a device-newest handle answer from
# the device; clear and free drop a newest value unwritten.
# A function is left out only for a reason written down below; the reason
# travels into the generated table (gcu_wrapper_table), which the test
# tests/cpu/test_wrappers_*.c checks against its own parse of the header.
#
# Python 3 standard library only (it runs in CI and on the GPU machine).
#
# usage: gen_wrappers.py --header GraphBLAS.h --library libgraphblas.so
#            [--nm nm] --out-c gcu_wrappers.c --out-list gcu_wrappers.tsv
#            --handwritten src/api/*.c

import argparse
import os
import re
import subprocess
import sys

HANDLE_TYPES = ("GrB_Matrix", "GrB_Vector", "GrB_Scalar")

#------------------------------------------------------------------------------
# exclusions, each with its reason
#------------------------------------------------------------------------------

# Variadic functions cannot forward their arguments from C. The ones in the
# header that take a non-const handle only set or query storage options;
# anything else variadic stops the build (a new kind needs a decision).
VARIADIC_OK = {
    "GxB_Matrix_Option_set":
        "variadic; sets storage options (format, sparsity control, hyper/bitmap "
        "switch): SuiteSparse may convert the storage, the content stays the same, "
        "and a device copy holds content (the typed _INT32/_FP64 forms are wrapped "
        "anyway)",
    "GxB_Vector_Option_set":
        "variadic; sets storage options only, content unchanged (typed forms are "
        "wrapped anyway)",
    "GxB_Matrix_Option_get":
        "variadic; queries an option, never changes content",
    "GxB_Vector_Option_get":
        "variadic; queries an option, never changes content",
}

# Functions whose handle parameter is non-const in the 7.x header although
# they only read the object. SuiteSparse may finish pending work inside them,
# as it does for every input of every operation; that leaves the content a
# device copy holds as it was. Wrapping them would drop cached copies for
# nothing (and grbcuda's own export attaches iterators to its inputs). A
# function with a pointer-to-handle parameter is never taken as read-only,
# whatever its name (GxB_Matrix_export_CSR frees its matrix: it is wrapped).
READ_ONLY = [
    (r"^GxB_(Matrix|Vector)_Option_get_\w+$",
     "queries an option (typed form), never changes content"),
    (r"^GxB_(Matrix|Vector|row|col)_?Iterator_attach$",
     "attaches an iterator: finishes pending work at most, content unchanged "
     "(the header's macros route users to GB_Iterator_attach anyway)"),
    (r"^GxB_(Matrix|Vector|Scalar)_fprint$",
     "prints the object, never changes it"),
    (r"^(GrB|GxB)_Matrix_export(_\w+|Size|Hint)$",
     "non-destructive export/exportSize/exportHint (C API 2.0 form, the matrix "
     "passed by value): copies out, the matrix keeps its content"),
    (r"^(GrB|GxB)_(Matrix|Vector)_(serialize|serializeSize)$",
     "serialize/serializeSize: copies out, content unchanged"),
]

# Internal, not user-callable names (GB_*): libgrbcuda exports only
# GrB_*/GxB_*/grbcuda_* (src/api/exports.map), so a wrapper would be invisible.
INTERNAL_REASON = ("GB_ internal name: not part of the API and not exported "
                   "by libgrbcuda")

# Functions whose pointer-to-handle parameters are outputs only (the incoming
# value is never read by SuiteSparse and may be uninitialised): the wrapper
# invalidates the new handle after a successful call (and forgets the
# write-back history of an earlier object at its address: gcu_residency_born),
# and never reads the old value. For every other pointer-to-handle parameter (free, destructive GxB
# export, GxB_Scalar_wait, GxB_pack_HyperHash's Y, ...) the old value is
# invalidated before the call (it may be freed or consumed, and its address
# reused) and the new value after it.
CREATOR = re.compile(
    r"_(new|dup|diag|import(_\w+)?|deserialize|split|reshapeDup)$"
    r"|^GxB_unpack_HyperHash$")

# Pointer-to-handle parameters that are arrays: (function, parameter) ->
# C expression for the element count, in terms of the other parameters.
ARRAYS = {
    ("GxB_Matrix_split", "Tiles"): "(size_t) m * (size_t) n",
    ("GxB_Matrix_concat", "Tiles"): "(size_t) m * (size_t) n",
}

# Functions that read no content of their handles (the SuiteSparse object of
# a device-newest handle has the right dimensions and type; only its values
# are stale), or that discard it (clear; free through a pointer): no
# materialization before them.
NO_CONTENT = re.compile(
    r"_(nrows|ncols|size|type|type_name|clear|free)$")

# Functions that put a counted number of entries into their handle: after a
# successful call the count is told to GRBCUDA_START=data, which begins
# CUDA's start once the program holds that much (gcu_gpu_start_for_data).
SIZED = re.compile(r"^G[rx]B_(Matrix|Vector)_build(_\w+)?$")
SIZED_COUNT = "nvals"
# Functions that fill their handle with content the program hands over
# (imports, packs, deserializations): after a successful call the handle's
# entries are told alike (gcu_gpu_start_for_object).
LOADED = re.compile(r"^G[rx]B_(Matrix|Vector)_(import|pack|deserialize)(_\w+)?$")

# nvals and wait of a device-newest handle: answered from the device entry.
NVALS = re.compile(r"^GrB_(Matrix|Vector|Scalar)_nvals$")
WAIT = re.compile(r"^(GrB|GxB)_(Matrix|Vector|Scalar)_wait$")

#------------------------------------------------------------------------------
# parsing the header
#------------------------------------------------------------------------------

def strip_comments(text):
    # Comments go (their newlines stay, so line structure is kept), string
    # and character literals stay (a "//" inside a string is not a comment).
    pat = re.compile(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'|/\*.*?\*/|//[^\n]*',
                     re.S)
    def repl(m):
        s = m.group(0)
        return " " + "\n" * s.count("\n") if s.startswith("/") else s
    return pat.sub(repl, text)

def drop_preprocessor(text):
    out = []
    cont = False
    for line in text.split("\n"):
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            out.append("")
            continue
        out.append(line)
    return "\n".join(out)

def macro_names(text):
    # names #defined in the header: object-like and function-like
    obj, fn = set(), set()
    for m in re.finditer(r"^\s*#\s*define\s+(\w+)(\()?", text, re.M):
        (fn if m.group(2) else obj).add(m.group(1))
    return obj, fn

def split_top(s, sep=","):
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts]

class Param:
    def __init__(self, text):
        self.text = " ".join(text.split())
        self.name = None
        self.handle = None        # "GrB_Matrix", ... if a handle type occurs
        self.kind = None          # None, "const", "inout", "ptr"
        t = self.text
        if t == "...":
            self.name = "..."
            return
        if t == "void":
            return
        array = False
        m = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\(", t)   # function pointer
        if m:
            self.name = m.group(1)
        elif not re.fullmatch(r"(const\s+)?\w+(\s+const)?\s*[*\s]*", t):
            # the last identifier, before any array brackets, names it;
            # a lone type ("GrB_Matrix", "const int *") has no name
            m = re.search(r"(\w+)\s*((\[[^\]]*\]\s*)*)$", t)
            if m and m.group(1) not in ("const", "volatile", "restrict"):
                self.name = m.group(1)
                array = bool(m.group(2))
        for h in HANDLE_TYPES:
            hm = re.search(r"\b%s\b" % h, t)
            if hm is None:
                continue
            self.handle = h
            before, after = t[:hm.start()], t[hm.end():]
            star = after.find("*")
            head = after if star < 0 else after[:star]
            stars = after.count("*") + (1 if array else 0)
            if re.search(r"\bconst\b", before) or re.search(r"\bconst\b", head):
                # the handle itself is const: an input; through a pointer,
                # an array of inputs (GxB_Matrix_concat's Tiles)
                self.kind = "const" if stars == 0 else "const_array"
            elif stars == 0:
                self.kind = "inout"
            elif stars == 1:
                self.kind = "ptr"
            else:
                raise SystemExit("gen_wrappers: cannot classify parameter '%s'" % t)
            break

class Func:
    def __init__(self, ret, name, params_text, decl):
        self.ret = " ".join(ret.split())
        self.name = name
        self.decl = decl
        self.variadic = False
        self.params = []
        ps = split_top(params_text)
        if ps == [""] or ps == ["void"]:
            ps = []
        for p in ps:
            prm = Param(p)
            if prm.name == "...":
                self.variadic = True
            self.params.append(prm)

    def mutating(self):
        return any(p.kind in ("inout", "ptr") for p in self.params)

    def takes_handle(self):
        return any(p.kind is not None for p in self.params)

def parse_header(path):
    raw = open(path, encoding="utf-8", errors="replace").read()
    obj_macros, fn_macros = macro_names(raw)
    text = drop_preprocessor(strip_comments(raw))
    funcs = {}
    for m in re.finditer(r"\bGB_PUBLIC\b([^;]*);", text):
        d = " ".join(m.group(1).split())
        if "(" not in d:
            continue                                     # a variable
        # GRB (Type_new) / GXB (x) / GB (x): the header's renaming macros
        d2 = re.sub(r"\bGRB\s*\(\s*(\w+)\s*\)", r"GrB_\1", d)
        d2 = re.sub(r"\bGXB\s*\(\s*(\w+)\s*\)", r"GxB_\1", d2)
        d2 = re.sub(r"\bGB\s*\(\s*(\w+)\s*\)", r"GB_\1", d2)
        fm = re.match(r"^(.*?)\b(\w+)\s*\((.*)\)\s*$", d2)
        if fm is None:
            raise SystemExit("gen_wrappers: cannot parse declaration: %s" % d)
        ret, name, params = fm.group(1), fm.group(2), fm.group(3)
        if params.lstrip().startswith("*"):
            continue                                     # "T (*name) (...)": a variable
        if name in funcs:
            continue                                     # first declaration wins
        funcs[name] = Func(ret, name, params, d2)
    return funcs, obj_macros, fn_macros

#------------------------------------------------------------------------------
# what the library defines, what src/api defines by hand
#------------------------------------------------------------------------------

def library_symbols(lib, nm):
    # Names the installed library really defines: a declared-but-undefined
    # function must not get a wrapper (the wrapper would be fine until called,
    # then return GrB_PANIC; better not to pretend it exists).
    if not lib or not os.path.exists(lib):
        return None
    cmds = []
    if lib.endswith(".a"):
        cmds.append([nm or "nm", "--defined-only", lib])
    else:
        cmds.append([nm or "nm", "-D", "--defined-only", lib])
    for cmd in cmds:
        try:
            out = subprocess.run(cmd, check=True, capture_output=True,
                                 text=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            sys.stderr.write("gen_wrappers: warning: %s failed (%s); wrapping "
                             "every declared function\n" % (" ".join(cmd), e))
            return None
        syms = set()
        for line in out.splitlines():
            f = line.split()
            if len(f) >= 3 and f[1] in "TtWiV":
                syms.add(f[2].split("@")[0])
            elif len(f) == 2 and f[0] in "TtWiV":
                syms.add(f[1].split("@")[0])
        return syms
    return None

def handwritten(paths, known):
    # Entry points defined by hand in src/api: function definitions at the
    # start of a line, and entry points stamped from a template macro
    # (GCU_*_ENTRY (NAME, ...)). A name missed here would be defined twice
    # and fail the link, loudly.
    names = set()
    for p in paths:
        if not os.path.exists(p) or os.path.basename(p).startswith("gcu_wrappers"):
            continue
        t = drop_preprocessor(strip_comments(open(p, encoding="utf-8").read()))
        for m in re.finditer(r"^[ \t]*GrB_Info\s+\(?(\w+)\)?\s*\(", t, re.M):
            names.add(m.group(1))
        for m in re.finditer(r"^[ \t]*GCU_\w+_ENTRY\s*\(\s*(\w+)", t, re.M):
            names.add(m.group(1))
        # a template stamping two entry points (the matrix's and the
        # vector's): GCU_*_ENTRIES (NAME1, NAME2, ...)
        for m in re.finditer(r"^[ \t]*GCU_\w+_ENTRIES\s*\(\s*(\w+)\s*,\s*(\w+)", t, re.M):
            names.update(m.groups())
    return names & set(known)

#------------------------------------------------------------------------------
# classification and code
#------------------------------------------------------------------------------

WRAPPED, HANDWRITTEN, VARIADIC, READONLY, INTERNAL, MISSING = (
    "wrapped", "handwritten", "variadic", "read-only", "internal", "missing")
CLASS_ENUM = {
    WRAPPED: "GCU_WRAP_GENERATED", HANDWRITTEN: "GCU_WRAP_HANDWRITTEN",
    VARIADIC: "GCU_WRAP_EXCLUDED_VARIADIC", READONLY: "GCU_WRAP_EXCLUDED_READONLY",
    INTERNAL: "GCU_WRAP_EXCLUDED_INTERNAL", MISSING: "GCU_WRAP_EXCLUDED_MISSING",
}

def classify(f, hand, syms):
    if f.name in hand:
        return HANDWRITTEN, "defined by hand in src/api"
    if f.name.startswith("GB_"):
        return INTERNAL, INTERNAL_REASON
    if f.variadic:
        if f.name in VARIADIC_OK:
            return VARIADIC, VARIADIC_OK[f.name]
        raise SystemExit("gen_wrappers: %s is variadic and takes a non-const "
                         "handle: decide whether it can change content and add "
                         "it to VARIADIC_OK or handle it" % f.name)
    if not any(p.kind == "ptr" for p in f.params):
        for pat, why in READ_ONLY:
            if re.match(pat, f.name):
                return READONLY, why
    if syms is not None and f.name not in syms:
        return MISSING, "declared in GraphBLAS.h but not defined by the library"
    return WRAPPED, ""

def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'

def materialize(expr, fname):
    return ("    { GrB_Info gcu_m_ = gcu_residency_materialize (%s, \"%s\") ;\n"
            "      if (gcu_m_ != GrB_SUCCESS) return gcu_m_ ; }" % (expr, fname))

def newest_code(f):
    # what a device-newest handle needs before the call: an answer from the
    # device (nvals, wait), or its value written into the object
    hp = [p for p in f.params if p.kind is not None]
    if NVALS.match(f.name):
        out = [p for p in f.params if p.kind is None and p.text.startswith("GrB_Index")]
        if len(hp) != 1 or len(out) != 1:
            raise SystemExit("gen_wrappers: %s: unexpected parameters" % f.name)
        return ["    { uint64_t gcu_n_ ;\n"
                "      if (%s != NULL && gcu_residency_newest_nvals (%s, &gcu_n_))\n"
                "      { *%s = (GrB_Index) gcu_n_ ; return GrB_SUCCESS ; } }"
                % (out[0].name, hp[0].name, out[0].name)]
    if WAIT.match(f.name) and len(hp) == 1 and hp[0].kind != "ptr":
        return ["    if (gcu_residency_newest_nvals (%s, NULL)) return GrB_SUCCESS ;"
                % hp[0].name]
    if NO_CONTENT.search(f.name):
        return []
    lines = []
    for p in hp:
        if p.kind == "const_array":
            count = ARRAYS.get((f.name, p.name))
            if count is None:
                raise SystemExit("gen_wrappers: %s: array of input handles %s without a "
                                 "count in ARRAYS" % (f.name, p.name))
            lines.append("    if (%s != NULL)\n"
                         "        for (size_t gcu_k_ = 0 ; gcu_k_ < %s ; gcu_k_++)\n"
                         "        {\n    %s\n        }"
                         % (p.name, count, materialize("%s [gcu_k_]" % p.name, f.name).replace("\n", "\n    ")))
        elif p.kind == "ptr":
            if not CREATOR.search(f.name) and (f.name, p.name) not in ARRAYS:
                lines.append(materialize("%s != NULL ? *%s : NULL" % (p.name, p.name), f.name))
        else:
            lines.append(materialize(p.name, f.name))
    return lines

def wrapper_code(f, fn_macros, invalidate=True):
    if f.ret != "GrB_Info":
        raise SystemExit("gen_wrappers: %s returns %s; only GrB_Info is handled"
                         % (f.name, f.ret))
    names = [p.name for p in f.params]
    if any(n is None for n in names):
        raise SystemExit("gen_wrappers: %s has a parameter without a name: %s"
                         % (f.name, f.decl))
    for n in names:
        if n.startswith("gcu_"):
            raise SystemExit("gen_wrappers: %s: parameter name %s collides" % (f.name, n))
    before, after = [], []
    creator = CREATOR.search(f.name) is not None
    before.extend(newest_code(f))
    for p in (f.params if invalidate else []):
        if p.kind == "inout":
            after.append("    gcu_residency_invalidate (%s) ;" % p.name)
        elif p.kind == "ptr":
            count = ARRAYS.get((f.name, p.name))
            if count is not None:
                for ident in re.findall(r"\b[a-zA-Z_]\w*\b", count):
                    if ident not in names and ident not in ("size_t",):
                        raise SystemExit("gen_wrappers: %s: count %s names unknown %s"
                                         % (f.name, count, ident))
                if not creator:
                    raise SystemExit("gen_wrappers: %s: array of handles in a "
                                     "non-creating function" % f.name)
                after.append(
                    "    if (gcu_info_ == GrB_SUCCESS && %s != NULL)\n"
                    "        for (size_t gcu_k_ = 0 ; gcu_k_ < %s ; gcu_k_++)\n"
                    "            gcu_residency_born (%s [gcu_k_]) ;"
                    % (p.name, count, p.name))
            elif creator:
                after.append("    if (gcu_info_ == GrB_SUCCESS && %s != NULL) "
                             "gcu_residency_born (*%s) ;" % (p.name, p.name))
            else:
                before.append("    if (%s != NULL) gcu_residency_invalidate (*%s) ;"
                              % (p.name, p.name))
                after.append("    if (%s != NULL) gcu_residency_invalidate (*%s) ;"
                             % (p.name, p.name))
    if invalidate and SIZED.search(f.name):
        if SIZED_COUNT not in names:
            raise SystemExit("gen_wrappers: %s has no parameter %s" % (f.name, SIZED_COUNT))
        after.append("    if (gcu_info_ == GrB_SUCCESS) gcu_gpu_start_for_data (%s, %s) ;"
                     % (c_string(f.name), SIZED_COUNT))
    if invalidate and LOADED.search(f.name):
        h = next((p for p in f.params if p.handle in ("GrB_Matrix", "GrB_Vector")
                  and p.kind in ("ptr", "inout")), None)
        if h is None:
            raise SystemExit("gen_wrappers: %s has no matrix or vector it fills" % f.name)
        obj = ("*" + h.name) if h.kind == "ptr" else h.name
        guard = (" && %s != NULL" % h.name) if h.kind == "ptr" else ""
        after.append("    if (gcu_info_ == GrB_SUCCESS%s) gcu_gpu_start_for_object (%s, %s, %s) ;"
                     % (guard, c_string(f.name), obj,
                        "true" if h.handle == "GrB_Vector" else "false"))
    params = ", ".join(p.text for p in f.params)
    lines = []
    note = "   // also a function-like macro in GraphBLAS.h" if f.name in fn_macros else ""
    lines.append("GrB_Info (%s) (%s)%s" % (f.name, params, note))
    lines.append("{")
    lines.append("    static void *_Atomic gcu_real_ ;")
    lines.append("    __typeof__ (&%s) gcu_f_ = (__typeof__ (&%s))" % (f.name, f.name))
    lines.append("        gcu_real_cached (&gcu_real_, %s) ;" % c_string(f.name))
    lines.append("    if (gcu_f_ == NULL) return GrB_PANIC ;")
    lines.extend(before)
    lines.append("    GrB_Info gcu_info_ = gcu_f_ (%s) ;" % ", ".join(names))
    lines.extend(after)
    lines.append("    return gcu_info_ ;")
    lines.append("}")
    return "\n".join(lines)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--header", required=True)
    ap.add_argument("--library", default="")
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--out-c", required=True)
    ap.add_argument("--out-list", required=True)
    ap.add_argument("--handwritten", nargs="*", default=[])
    a = ap.parse_args()

    funcs, obj_macros, fn_macros = parse_header(a.header)
    syms = library_symbols(a.library, a.nm)
    hand = handwritten(a.handwritten, funcs.keys())

    rows = []
    code = []
    nreaders = 0
    for name in sorted(funcs):
        f = funcs[name]
        if not f.takes_handle():
            continue
        if not f.mutating():
            # a reader: materializes its handles first, invalidates nothing
            if (name.startswith("GB_") or name in hand or f.variadic
                    or (syms is not None and name not in syms)):
                continue
            code.append(wrapper_code(f, fn_macros))
            nreaders += 1
            continue
        cls, why = classify(f, hand, syms)
        rows.append((name, cls, why))
        if cls == WRAPPED or (cls == READONLY and newest_code(f)):
            if name in obj_macros:
                raise SystemExit("gen_wrappers: %s is an object-like macro in "
                                 "GraphBLAS.h; cannot define it" % name)
            code.append(wrapper_code(f, fn_macros, invalidate=(cls == WRAPPED)))

    nwrapped = sum(1 for r in rows if r[1] == WRAPPED)
    out = []
    out.append("// gcu_wrappers.c — GENERATED by src/api/gen_wrappers.py from")
    out.append("// %s; do not edit." % a.header)
    out.append("// %d GB_PUBLIC functions parsed, %d can change a matrix, vector or scalar,"
               % (len(funcs), len(rows)))
    out.append("// %d wrapped here; the others are listed, with the reason, in"
               % nwrapped)
    out.append("// gcu_wrapper_table below. Each wrapper materializes the device-newest")
    out.append("// handles it reads, calls SuiteSparse's definition and drops the device")
    out.append("// copies of the handles the call may have changed. %d functions that only"
               % nreaders)
    out.append("// read handles (and the read-only ones of the table) are wrapped to")
    out.append("// materialize them.")
    out.append("#include <GraphBLAS.h>")
    out.append("#include <stddef.h>")
    out.append("#include <stdint.h>")
    out.append('#include "gcu_real.h"')
    out.append('#include "residency/gcu_residency.h"')
    out.append('#include "dispatch/gcu_dispatch.h"')
    out.append('#include "api/gcu_wrappers.h"')
    out.append("")
    out.extend(c + "\n" for c in code)
    out.append("const char gcu_wrapper_header [] = %s ;" % c_string(os.path.abspath(a.header)))
    out.append("const gcu_wrapper_info gcu_wrapper_table [] =")
    out.append("{")
    for name, cls, why in rows:
        out.append("    { %s, %s, %s }," % (c_string(name), CLASS_ENUM[cls], c_string(why)))
    out.append("} ;")
    out.append("const size_t gcu_wrapper_count = sizeof (gcu_wrapper_table) / "
               "sizeof (gcu_wrapper_table [0]) ;")
    out.append("const size_t gcu_wrapper_parsed = %d ;" % len(funcs))
    out.append("const size_t gcu_wrapper_readers = %d ;" % nreaders)
    os.makedirs(os.path.dirname(os.path.abspath(a.out_c)), exist_ok=True)
    tmp = a.out_c + ".tmp"
    with open(tmp, "w") as fh:
        fh.write("\n".join(out) + "\n")
    os.replace(tmp, a.out_c)
    with open(a.out_list, "w") as fh:
        fh.write("# function\tclass\treason (generated from %s)\n" % a.header)
        for name, cls, why in rows:
            fh.write("%s\t%s\t%s\n" % (name, cls, why))
    return 0

if __name__ == "__main__":
    sys.exit(main())
