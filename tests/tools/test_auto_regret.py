#!/usr/bin/env python3
"""test_auto_regret.py — bench/auto_regret.py over a made-up verbose log: a
GPU call that lost to the host's prediction, one that won, a purchase and a
host call, in two sections; the loss, the purchase and the kind come out as
the log says, and a log without call lines is an error."""
import io
import os
import sys
import contextlib
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import auto_regret  # noqa: E402

LOG = """lagraph_bench: mark bc trial 1
[grbcuda] GrB_mxm C 4x1048576 A 4x1048576 (25) B 1048576x1048576 (31402360) masked work 749 predicted host 0.0451 ms gpu 0.388 ms -> host (host predicted faster) 7.697 ms info 0
lagraph_bench: mark bc trial 2
[grbcuda] GrB_mxm write-back on the device: C<!struct M,replace> = T, M miss (0.0 MB), C not read; 116630 entries, 59.271 ms
[grbcuda] GrB_mxm C 4x1048576 A 4x1048576 (25) B 1048576x1048576 (31402360) masked work 749 predicted host 7.06 ms gpu 4.39 ms (its kind's first run: 4 ms) -> gpu (spgemm saxpy) 68.187 ms (kernels 7.881 ms) info 0
[grbcuda] GrB_vxm C 1048576x1 A 1048576x1 (131169) B 1048576x1048576 (33553890) work 4.2e+06 predicted host 21.2 ms gpu 1.02 ms, its result's download at 100% (C's written back) -> gpu (vxm) 0.564 ms (kernels 0.130 ms) info 0
[grbcuda] GrB_Vector_select: the host time lost on these operands pays for their upload: the GPU
[grbcuda] GrB_Vector_select C 1048576x1 A 1048576x1 (849231) B 0x0 (0) work 8.49e+05 predicted host 0.908 ms gpu 5.28 ms (its kind's first run: 4 ms), its result's download at 100% (C's written back) -> gpu (vector apply) 1.981 ms (kernels 0.052 ms) info 0
"""

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL: " + what)


def run(text):
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
        f.write(text)
        path = f.name
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = auto_regret.main(["auto_regret.py", path])
    os.unlink(path)
    return rc, out.getvalue()


rc, out = run(LOG)
check(rc == 0, "rc %d" % rc)
check("| bc trial 1 | 0 | 0.00 | 0.00 | 0 | 0.00 | 1 | 7.70 |" in out, "trial 1's row:\n" + out)
# trial 2: two GPU calls (68.187 + 0.564 ms), one lost 68.187 - 7.06; one purchase of 1.981 ms
check("| bc trial 2 | 2 | 68.75 | 61.13 | 1 | 1.98 | 0 | 0.00 |" in out, "trial 2's row:\n" + out)
check("| GrB_mxm C 4x1048576 A 4x1048576 B 1048576x1048576 masked | 1 | 61.13 | 68.19 | 7.06 | 4.39 |" in out,
      "the lost kind:\n" + out)
check("GrB_vxm C" not in out.split("by kind")[1] and "GrB_Vector_select C" not in out.split("by kind")[1],
      "a winning call or a purchase listed as lost:\n" + out)
rc, out = run("nothing here\n")
check(rc == 1 and "no call lines" in out, "a log without calls: rc %d, %s" % (rc, out))
print("test_auto_regret: %s" % ("passed" if failures == 0 else "%d failed" % failures))
sys.exit(1 if failures else 0)
