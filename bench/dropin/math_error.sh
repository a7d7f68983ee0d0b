#!/usr/bin/env bash
# math_error.sh: the error table of the drop-in's math modes (docs/dropin.md, "Math modes"). Runs
# BUILD/tests/dropin_math_error (tests/dropin/math_error.c: sgemm_ of N x N x N on uniform [-1, 1)
# data against a double reference) once per mode, every call on the device
# (TESSEL_BLAS_ROUTE=device, TESSEL_BLAS_MATH=fp32|tf32|3xtf32), and once on the CPU BLAS
# (TESSEL_BLAS_ROUTE=cpu: OpenBLAS's sgemm_ on the same data), and prints a markdown table: per N
# and per column, ||C - R||_F / ||R||_F and max |C - R| / (|A| |B|). Each run's report
# (TESSEL_BLAS_VERBOSE) must show its sgemm calls on the side asked for.
#   bash bench/dropin/math_error.sh [BUILD] [N...]      default: build 256 1024
set -uo pipefail
build=${1:-build}
shift || true
sizes=${*:-256 1024}
prog=$build/tests/dropin_math_error
[ -x "$prog" ] || { echo "math_error: $prog is missing: build tessel first" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { # NAME ROUTE MATH
  TESSEL_BLAS_VERBOSE=1 TESSEL_BLAS_ROUTE=$2 TESSEL_BLAS_MATH=$3 "$prog" $sizes \
    > "$out/$1" 2> "$out/$1.err" || { cat "$out/$1.err" >&2; exit 1; }
  # the report's sgemm line: "tessel-blas: sgemm cpu_calls cpu_s dev_calls dev_s dev_failed"
  local col=$([ "$2" = cpu ] && echo 3 || echo 5)
  local calls=$(awk -v c=$col '$1 == "tessel-blas:" && $2 == "sgemm" {print $c}' "$out/$1.err")
  [ "${calls:-0}" != 0 ] || { echo "math_error: $1: sgemm did not run on the $2 side" >&2; exit 1; }
}
run fp32 device fp32
run tf32 device tf32
run 3xtf32 device 3xtf32
run openblas cpu fp32
device=$(sed -n 's/.*device 0 "\([^"]*\)".*/\1/p' "$out/fp32.err" | head -1)
echo "sgemm_ through libtessel_blas on $device; ||C - R||_F / ||R||_F, max |C - R| / (|A| |B|)"
echo
echo "| n | fp32 | tf32 | 3xtf32 | OpenBLAS sgemm_ |"
echo "| ---: | --- | --- | --- | --- |"
for n in $sizes; do
  row="| $n"
  for m in fp32 tf32 3xtf32 openblas; do
    row="$row | $(awk -v n="$n" '$1 == n {print $2 ", " $3}' "$out/$m")"
  done
  echo "$row |"
done
