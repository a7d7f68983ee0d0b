#!/usr/bin/env bash
# cblas_tester.sh: runs one of the reference CBLAS testers (Debian's libblas-test: x[sdcz]cblat1,
# 2, 3) with libtessel_blas.so preloaded (preload.sh) and fails unless its report says that every
# routine passed: Level 1, every "Test of subprogram" followed by "----- PASS -----"; Level 2
# and 3, for every routine the input file turns on, the error-exit tests (when the input asks
# for them) and the computational tests in each layout it asks for, "END OF TESTS", and nowhere a
# failure, a suspect ratio or an undetected bad argument. With DEVICE_ROUTINES (routines separated
# by commas; run it with TESSEL_BLAS_VERBOSE=1) it also fails unless each one's device call count
# is above zero.
#   cblas_tester.sh PRELOAD_SH LIB TESTER INPUT|- [DEVICE_ROUTINES]
# The tester's report goes to TESTER.out in the working directory, stderr to TESTER.err.
set -uo pipefail
preload=$1 lib=$2 tester=$3 input=$4 dev=${5:-}
name=$(basename "$tester")
out=$name.out err=$name.err

"$preload" "$lib" "$input" "$tester" >"$out" 2>"$err"
rc=$?

fail() {
  echo "FAIL: $name: $*"
  echo "---- $out"
  cat "$out"
  echo "---- $err (last 40 lines)"
  tail -n 40 "$err"
  exit 1
}

[ $rc -eq 0 ] || fail "exit status $rc"
bad=$(grep -E 'FAIL|\*\*\*\*\*|NOT DETECTED|SUSPECT|WRONG' "$out")
[ -z "$bad" ] || fail "the report has failures: $bad"

if [ "$input" = - ]; then
  tests=$(grep -c 'Test of subprogram number' "$out")
  passes=$(grep -c -- '----- PASS -----' "$out")
  [ "$tests" -gt 0 ] || fail "no subprogram tested"
  [ "$tests" -eq "$passes" ] || fail "$passes of $tests subprograms passed"
else
  grep -q 'END OF TESTS' "$out" || fail "no END OF TESTS"
  errexits=$(sed -n 5p "$input" | awk '{print $1}')
  layouts=$(sed -n 6p "$input" | awk '{print $1}')
  want=1
  [ "$layouts" = 2 ] && want=2
  routines=$(awk '$1 ~ /^cblas_/ && $2 == "T" {print $1}' "$input")
  [ -n "$routines" ] || fail "no routine turned on in $input"
  n=0
  for r in $routines; do
    n=$((n + 1))
    c=$(grep -c "^ $r *PASSED THE .*COMPUTATIONAL TESTS" "$out")
    [ "$c" -eq "$want" ] || fail "$r passed $c computational test runs, not $want"
  done
  if [ "$errexits" = T ]; then
    # (the gerc error exits are reported under the name cblas_?geru by the tester itself)
    c=$(grep -c 'PASSED THE TESTS OF ERROR-EXITS' "$out")
    [ "$c" -eq "$n" ] || fail "$c of $n routines passed the error-exit tests"
  fi
fi

for r in ${dev//,/ }; do
  calls=$(awk -v r="$r" '$1 == "tessel-blas:" && $2 == r {print $5}' "$err")
  [ -n "$calls" ] && [ "$calls" -gt 0 ] || fail "$r made no device call (TESSEL_BLAS_VERBOSE=1?)"
  echo "$r: $calls device calls"
done
echo "PASS: $name ($input)"
