#!/usr/bin/env bash
# LAPACK through the drop-in from host memory vs OpenBLAS's LAPACK; device-resident LAPACK beside cuSOLVER.
set -uo pipefail
export TESSEL_COMMIT=${TESSEL_COMMIT:-unknown}
t0=$(date +%s)
bash bench/scripts/lapack.sh h200 $OUT/lapack > $OUT/lapack.log 2>&1; echo "lapack.sh rc=$? $(( $(date +%s)-t0 ))s"
PARTS=lapack,small LAPACK_MODES="" SETUP=0 bash bench/scripts/dropin.sh h200 $OUT/dropin > $OUT/dropin.log 2>&1; echo "dropin.sh rc=$? $(( $(date +%s)-t0 ))s"
tar czf $OUT/logs.tgz build/bench-logs 2>/dev/null
cat $OUT/lapack/lapack.csv; cat $OUT/dropin/dropin.csv; cat $OUT/dropin/status.csv
grep -h "blas_client: d\|warning\|error" build/bench-logs/dropin-h200/*.err | sort | uniq -c | head -20
