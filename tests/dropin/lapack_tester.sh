#!/usr/bin/env bash
# lapack_tester.sh TESTER INPUT: one of reference LAPACK's test programs (Debian's liblapack-test:
# xlintstd, xlintsts) on INPUT, in a scratch folder, with whatever the environment preloads (the
# tests: libtessel_blas.so, TESSEL_BLAS_ROUTE=device). Fails unless the program ran to its end and
# no path reports a test past the threshold or a failed error exit; the program's own lines are
# printed.
set -uo pipefail
tester=$1 input=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
"$tester" < "$input" > out.txt
rc=$?
grep -E "threshold|error exits|failed|End of tests|Total time" out.txt
if [ $rc -ne 0 ]; then echo "lapack_tester: $tester exited with $rc" >&2; exit 1; fi
if ! grep -q "End of tests" out.txt; then echo "lapack_tester: $tester did not finish" >&2; exit 1; fi
if grep -Eq "failed to pass|failed the tests of the error exits|FAILED" out.txt; then
  grep -E "test\(|FAIL" out.txt | head -40 >&2
  echo "lapack_tester: $tester reports failures" >&2
  exit 1
fi
echo "lapack_tester: every test of $(basename "$input") passed"
