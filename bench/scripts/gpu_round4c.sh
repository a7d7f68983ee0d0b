#!/usr/bin/env bash
# Round 4c on the GPU machine (2026-11-23): issue 4's race with the peeled edges (the GPU default
# now), then the axpy geometry in both precisions; everything in $OUT/results.tgz:
#   bash .device/setup.sh > /dev/null 2>&1; bash bench/scripts/gpu_round4c.sh "$OUT"
set -uo pipefail
o=${1:?usage: gpu_round4c.sh OUT}
bash bench/scripts/gpu_gemm_race.sh "$o/race" > /dev/null 2>&1
python3 bench/scripts/csv_summary.py rows "$o"/race/*.csv
OUT=$o/axpy bash bench/scripts/gpu_axpy_geometry.sh
cd "$o" && rm -f axpy/results.tgz && mv race/results.tgz race.tgz && tar czf results.tgz race.tgz axpy/csv axpy/base/env.txt && rm -rf race axpy race.tgz
