#!/usr/bin/env bash
# The tune suite: the tuner never makes tessel slower (docs/tuning.md). A tuning run stores a
# configuration only where a finalist is no slower than auto on every shape of the region its
# entry covers; then auto runs with that run's database and with none, interleaved.
#   bash bench/scripts/tune.sh DEVICE_NAME OUTDIR      (e.g. h200 bench/results/h200/tune)
#   tune_PREC.csv               every candidate of `tessel tune gemm --precision PREC --sizes 4096
#                               --budget-s BUDGET` (default 40 s each, single and double)
#   auto_{tuned,none}_R.csv     auto at 1024, 4096 and 8192 with the tuned database and with an
#                               empty one, two rounds, interleaved
# About 3 minutes with the default budget.
set -euo pipefail
source "$(dirname "$0")/lib.sh" tune "$@"
BUDGET=${BUDGET:-40}
tuned=$BUILD_ABS/bench-tuned
rm -rf "$tuned" && mkdir -p "$tuned"
CASE_TIMEOUT=$((BUDGET * 4 + 60))
for p in single double; do
  run_case "tune_$p" env TESSEL_TUNING_DIR="$tuned" "$T" tune gemm --device "$DEV" --precision $p \
    --sizes 4096 --budget-s "$BUDGET" --csv "$OUT/tune_$p.csv"
done
{ echo "== tessel tune --show with the tuned database ($(ls "$tuned" | tr '\n' ' '))"
  TESSEL_TUNING_DIR=$tuned "$T" tune --show --device "$DEV" --shapes 1024,4096,8192 2>&1 || true
  TESSEL_TUNING_DIR=$tuned "$T" tune --show --device "$DEV" --precision double --shapes 1024,4096,8192 2>&1 || true
} >> "$OUT/env.txt"
CASE_TIMEOUT=300
for r in 1 2; do
  run_case "auto_tuned_$r" env TESSEL_TUNING_DIR="$tuned" "$T" gemm --device "$DEV" --sizes 1024,4096,8192 \
    --repeat 10 --csv "$OUT/auto_tuned_$r.csv"
  tsl "auto_none_$r" gemm --device "$DEV" --sizes 1024,4096,8192 --repeat 10
done
bench_finish
