#!/usr/bin/env bash
set -uo pipefail
export TESSEL_COMMIT=${TESSEL_COMMIT:-unknown}
t0=$(date +%s)
PARTS=lapack,small LAPACK_MODES="" bash bench/scripts/dropin.sh h200 $OUT/dropin > $OUT/dropin.log 2>&1; echo "dropin.sh rc=$? $(( $(date +%s)-t0 ))s"
cat $OUT/dropin/dropin.csv | grep -v small; cat $OUT/dropin/status.csv
cat build/test-cache/blas-calibration-*.txt 2>/dev/null | head -20; find / -name "blas-calibration-*.txt" 2>/dev/null | head -3 | xargs -r cat
grep -h "blas_client: d\|warning\|error" build/bench-logs/dropin-h200/*.err | sort | uniq -c | head -20
TESSEL_BLAS_VERBOSE=1 LD_PRELOAD=build/libtessel_blas.so RUNS=1 build/bench-blas_client getrf:8192 gesv:4096 2>&1 | grep -v "^tessel-blas: [a-z]*  *0 " | tail -8
