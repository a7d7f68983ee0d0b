#!/usr/bin/env bash
# Result: bench/results/h200/tune.
# Tunes tessel's GEMM on the GPU machine (issue 4) and keeps every candidate:
#   bash .device/setup.sh && bash bench/scripts/h200-tune.sh "$OUT" [BUDGET_SCALE]
# Groups (precision x size class): single large (4096^3), double large (4096^3), single small
# (1000^3, 512^3, 8192x128x8192, 128x8192x8192; C of at most 2^20 elements). The winners land
# in $OUT/tuning/<device>@<driver>.tuning, which is what src/tune/defaults.tuning's device
# entries are copied from.
set -uo pipefail
scale=${2:-1}
export TESSEL_TUNING_DIR=${1:-bench-out}/tuning
source bench/scripts/lib.sh "${1:-bench-out}"
run() { echo "tessel $*" >> "$out/commands.txt"; $t "$@" 2>&1 | tee -a "$out/tune.log" | grep -vE '^\s*$'; }
b() { awk -v s="$scale" -v b="$1" 'BEGIN { printf "%d", b * s }'; }
run tune gemm --device $d --precision single --shapes 4096 --budget-s "$(b 130)" --csv "$out/tune_single_large.csv"
run tune gemm --device $d --precision double --shapes 4096 --budget-s "$(b 110)" --csv "$out/tune_double_large.csv"
run tune gemm --device $d --precision single --shapes 1000,512,8192x128x8192,128x8192x8192 --budget-s "$(b 100)" --csv "$out/tune_single_small.csv"
run tune --show --device $d
cd "$out" && tar czf results.tgz *.csv env.txt commands.txt tune.log tuning
