#!/usr/bin/env bash
set -uo pipefail
export TESSEL_COMMIT=${TESSEL_COMMIT:-unknown}
t0=$(date +%s)
bash bench/scripts/lapack.sh h200 $OUT/lapack > $OUT/lapack.log 2>&1; echo "lapack.sh rc=$? $(( $(date +%s)-t0 ))s"
PARTS=lapack,small LAPACK_MODES="" SETUP=0 bash bench/scripts/dropin.sh h200 $OUT/dropin > $OUT/dropin.log 2>&1; echo "dropin.sh rc=$? $(( $(date +%s)-t0 ))s"
grep -h "backward" build/bench-logs/lapack-h200/*.err 2>/dev/null
cat $OUT/lapack/lapack.csv; grep -v ",small," $OUT/dropin/dropin.csv; cat $OUT/dropin/status.csv
grep -h "blas_client: d\|warning\|error" build/bench-logs/dropin-h200/*.err | sort | uniq -c | head
TESSEL_BLAS_VERBOSE=1 LD_PRELOAD=build/libtessel_blas.so RUNS=1 build/bench-blas_client potrf:16384 gesv:8192 2>&1 | grep -v "^tessel-blas: [a-z]*  *0 " | tail -8
ls ~/.cache/tessel/ 2>/dev/null | head; cat ~/.cache/tessel/blas-calibration-*.txt 2>/dev/null | head -20
mkdir -p $OUT/lapack_extra; cp $OUT/lapack/env.txt $OUT/lapack/status.csv $OUT/lapack_extra/ 2>/dev/null
(cd $OUT && tar czf all.tgz lapack dropin && rm -rf lapack dropin lapack_extra)
