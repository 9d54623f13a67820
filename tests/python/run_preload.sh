#!/usr/bin/env bash
# run_preload.sh LIB — runs test_preload.py on Debian's python3 (the one
# python3-suitesparse-graphblas installs into) with LD_PRELOAD=LIB and
# GRBCUDA_STATS=1, and checks that the statistics table printed at exit shows
# the GrB_mxm call. Exit 77 (skipped) if the bindings are not installed.
set -u
lib=$1
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || { echo "SKIP: no /usr/bin/python3"; exit 77; }
if ! "$py" -c "import suitesparse_graphblas" 2>/dev/null; then
  echo "SKIP: python3-suitesparse-graphblas is not installed (apt-get install python3-suitesparse-graphblas)"
  exit 77
fi
err=$(mktemp); trap 'rm -f "$err"' EXIT
LD_PRELOAD=$lib GRBCUDA_STATS=1 "$py" "$here/test_preload.py" 2>"$err"
rc=$?
cat "$err" >&2
[ $rc = 0 ] || exit $rc
if grep -Eq "statistics: GrB_mxm +1 " "$err"; then
  echo "run_preload: statistics show GrB_mxm through grbcuda: 1 passed, 0 failed"
else
  echo "run_preload: statistics table missing GrB_mxm: 0 passed, 1 failed"; exit 1
fi
