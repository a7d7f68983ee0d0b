#!/usr/bin/env bash
# math_check.sh: one case of the drop-in's math modes (tests/dropin_math.cmake). Runs
# `dropin_math_error --check MODE` (the program judges the error of its sgemm_ and cblas_sgemm in
# MODE) with TESSEL_BLAS_VERBOSE=1 and the caller's TESSEL_BLAS_MATH, then checks on stderr that
# the report's header names MODE as the mode sgemm computed in, that both routines ran on the
# device, and that the drop-in printed WARNINGS warnings (0, or 1 for a bad TESSEL_BLAS_MATH: then
# the line must name the variable and say it uses fp32; PoCL's compiler may print its own).
#   math_check.sh PROGRAM MODE WARNINGS
set -uo pipefail
program=$1 mode=$2 warnings=$3
log=$(mktemp)
trap 'rm -f "$log"' EXIT
TESSEL_BLAS_VERBOSE=1 "$program" --check "$mode" 2> >(tee "$log" >&2)
rc=$?
wait
fail() { echo "math_check: FAIL: $*" >&2; exit 1; }
[ $rc -eq 0 ] || fail "dropin_math_error --check $mode exited $rc"
grep -q "^tessel-blas: pid [0-9]*, route [a-z]*, sgemm math $mode;" "$log" ||
  fail "the report's header does not say 'sgemm math $mode'"
for r in sgemm cblas_sgemm; do
  # the report's line: "tessel-blas: NAME cpu_calls cpu_s dev_calls dev_s dev_failed"
  dev=$(awk -v r="$r" '$1 == "tessel-blas:" && $2 == r {print $5}' "$log" | tail -1)
  [ -n "$dev" ] && [ "$dev" != 0 ] ||
    fail "$r did not run on the device (device calls: ${dev:-none})"
done
n=$(grep -c "^tessel-blas: warning" "$log")
[ "$n" -eq "$warnings" ] || fail "$n warning lines, expected $warnings"
if [ "$warnings" -gt 0 ]; then
  grep -q "^tessel-blas: warning: TESSEL_BLAS_MATH=.* is not fp32, tf32 or 3xtf32; using fp32$" \
    "$log" || fail "no warning naming TESSEL_BLAS_MATH"
fi
echo "math_check: sgemm math $mode, on the device, $n warnings of the drop-in: ok"
