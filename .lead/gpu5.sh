#!/usr/bin/env bash
set -uo pipefail
export TESSEL_COMMIT=${TESSEL_COMMIT:-unknown}
t0=$(date +%s)
bash bench/scripts/lapack.sh h200 $OUT/lapack > $OUT/lapack.log 2>&1; echo "lapack.sh rc=$? $(( $(date +%s)-t0 ))s"
grep -h "backward" build/bench-logs/lapack-h200/*.err 2>/dev/null
cat $OUT/lapack/lapack.csv
T=build/tessel
export TESSEL_CACHE_DIR=$PWD/build/bench-kcache
$T lapack --op geqrf --sizes 4096,8192 --precision double --verify --peers openblas --repeat 2 --csv $OUT/cli_geqrf.csv 2>&1 | tail -5
$T lapack --op gels -m 16384 -n 4096 --nrhs 16 --precision double --verify --repeat 2 --csv $OUT/cli_gels.csv 2>&1 | tail -3
echo "total $(( $(date +%s)-t0 ))s"
(cd $OUT && tar czf all.tgz lapack && rm -rf lapack)
