#!/usr/bin/env bash
# Round 4g on the GPU machine (2026-11-23): issue 4's race with the FP64 tensor-core DGEMM default
# (tiled2d MMA=2), and a 20-second double-precision tuner run from the shipped defaults (its first
# candidate is auto's configuration); everything in $OUT/results.tgz:
#   bash .device/setup.sh > /dev/null 2>&1; bash bench/scripts/gpu_round4g.sh "$OUT"
set -uo pipefail
o=${1:?usage: gpu_round4g.sh OUT}
bash bench/scripts/gpu_gemm_race.sh "$o/race" > /dev/null 2>&1
python3 bench/scripts/csv_summary.py rows "$o"/race/*.csv
export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache TESSEL_TUNING_DIR=$o/race/user-tuning
mkdir -p "$TESSEL_TUNING_DIR"
echo "tessel tune gemm --device nvidia --precision double --budget-s 20 --sizes 2048" >> "$o/race/commands.txt"
timeout 120 build-gpu/tessel tune gemm --device nvidia --precision double --budget-s 20 --sizes 2048 > "$o/race/tune_double.txt" 2>&1
tail -5 "$o/race/tune_double.txt"
cd "$o" && rm -f race/results.tgz && tar czf results.tgz race && rm -rf race
