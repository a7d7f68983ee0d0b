#!/usr/bin/env bash
# The H100 (2026-11-23): what auto picks there (tune --show: the sm_90 entries measured on the
# H200), issue 4's race on it, and a check of the sm_90 defaults against the H200 sweeps'
# runners-up (gemm_sweep_h100.txt); everything in $OUT/results.tgz:
#   bash .device/setup.sh > /dev/null 2>&1; bash bench/scripts/gpu_h100.sh "$OUT"
set -uo pipefail
o=${1:?usage: gpu_h100.sh OUT}
bash bench/scripts/gpu_gemm_race.sh "$o/race" > /dev/null 2>&1
build-gpu/tessel tune --show --device nvidia > "$o/race/tune_show.txt" 2>&1
build-gpu/tessel tune --show --device nvidia --precision double >> "$o/race/tune_show.txt" 2>&1
python3 bench/scripts/csv_summary.py rows "$o"/race/*.csv
head -3 "$o/race/env.txt"; head -12 "$o/race/tune_show.txt"
bash bench/scripts/gpu_gemm_sweep.sh "$o/sweep" bench/scripts/gemm_sweep_h100.txt | tail -30
cd "$o" && rm -f race/results.tgz sweep/results.tgz && tar czf results.tgz race sweep/*.csv sweep/*.txt sweep/ptx/index.txt && rm -rf race sweep
