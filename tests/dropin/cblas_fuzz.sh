#!/usr/bin/env bash
# cblas_fuzz.sh: runs the generated cblas_fuzz program built against libtessel_blas.so (OURS)
# and against the reference CBLAS (REF) and fails unless both print the same error calls, report
# for report (routine, trial, cblas_xerbla or xerbla_, position, name, RowMajorStrg,
# CBLAS_CallFromC). OURS runs with the reference as its CPU BLAS (TESSEL_BLAS_CPU, set by the
# caller), so the calls it forwards behave as the reference's too: then any difference is ours.
#   cblas_fuzz.sh OURS REF
set -uo pipefail
ours=$1 ref=$2
"$ref" >fuzz_ref.log || { echo "FAIL: $ref exited $?"; exit 1; }
if ! "$ours" >fuzz_ours.log 2>fuzz_ours.err; then
  echo "FAIL: $ours failed"
  tail fuzz_ours.err
  exit 1
fi
n=$(wc -l <fuzz_ref.log)
[ "$n" -gt 1000 ] || { echo "FAIL: only $n reports from the reference"; exit 1; }
if ! cmp -s fuzz_ref.log fuzz_ours.log; then
  echo "FAIL: the error calls differ from the reference's (< reference, > libtessel_blas):"
  diff fuzz_ref.log fuzz_ours.log | head -40
  exit 1
fi
echo "PASS: $n error calls, the same as the reference's"
