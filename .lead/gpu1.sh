#!/usr/bin/env bash
set -uo pipefail
export TESSEL_COMMIT=${TESSEL_COMMIT:-unknown}
t0=$(date +%s)
bash bench/scripts/lapack.sh h200 $OUT/lapack > $OUT/lapack.log 2>&1; echo "lapack.sh rc=$? $(( $(date +%s)-t0 ))s"
PARTS=lapack,small LAPACK_MODES="" SETUP=0 bash bench/scripts/dropin.sh h200 $OUT/dropin > $OUT/dropin.log 2>&1; echo "dropin.sh rc=$? $(( $(date +%s)-t0 ))s"
for t in lu chol; do TESSEL_DEVICE=nvidia timeout 120 build/tests/test_lapack $t 2>&1 | tail -1; done
TESSEL_BLAS_ROUTE=device TESSEL_BLAS_DEVICES=nvidia timeout 120 build/tests/lapack_symbols /usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3 2>&1 | tail -2
echo "tests done $(( $(date +%s)-t0 ))s"
tar czf $OUT/logs.tgz build/bench-logs 2>/dev/null
cat $OUT/lapack/lapack.csv; cat $OUT/dropin/dropin.csv; cat $OUT/dropin/status.csv
grep -h "blas_client: d\|warning\|error" build/bench-logs/dropin-h200/*.err | sort | uniq -c | head -20
