#!/usr/bin/env bash
# The tune suite: the tuner never makes tessel slower (docs/tuning.md). A tuning run stores a
# configuration only where a finalist is no slower than auto on every shape of the region its
# entry covers; then auto runs with that run's database and with none, interleaved.
#   bash bench/scripts/tune.sh DEVICE_NAME OUTDIR      (e.g. h200 bench/results/h200/tune)
#   tune_PREC.csv               every candidate of `tessel tune gemm --precision PREC --sizes 4096
#                               --budget-s BUDGET` (default 40 s each, single and double)
#   auto_{tuned,none}_R.csv     auto at 1024, 4096 and 8192 with the tuned database and with an
#                               empty one, two passes, interleaved
# About 3 minutes with the default budget.
# AGAINST=FILE.tuning: instead of tuning, compares auto on the shipped entries with auto on FILE's
# entries (another device's, or an older set; installed as this device's user file, which a lookup
# takes first), interleaved in two passes, cuBLAS beside in the first (verified there):
#   against_{shipped,file}_R_CASE.csv   GEMM single and double at 4096 and 8192, TF32 8192 x 128 x
#                                       8192, bfloat16 4096 x 4096 x 64, and the Level-3 routines at
#                                       4096 and 8192 in both precisions (about 4 minutes)
set -euo pipefail
source "$(dirname "$0")/lib.sh" tune "$@"
if [ -n "${AGAINST:-}" ]; then
  file_dir=$BUILD_ABS/bench-against
  rm -rf "$file_dir" && mkdir -p "$file_dir"
  path=$(TESSEL_TUNING_DIR=$file_dir "$T" tune --show --device "$DEV" 2>&1 |
    sed -n 's/^tuning database of .*: \(.*\)$/\1/p' | head -1)
  cp "$AGAINST" "$path"
  cp "$AGAINST" "$OUT/against.tuning"
  # show DIR: what auto picks in single and double with DIR as the user tuning directory
  show() {
    TESSEL_TUNING_DIR=$1 "$T" tune --show --device "$DEV" 2>&1 || true
    TESSEL_TUNING_DIR=$1 "$T" tune --show --device "$DEV" --precision double 2>&1 || true
  }
  { echo "== tessel tune --show, shipped entries"
    show "$TESSEL_TUNING_DIR"
    echo "== tessel tune --show with $(basename "$AGAINST") as $path"
    show "$file_dir"
  } >> "$OUT/env.txt"
  # t NAME ARGS...: one case of pass $r on the entries $which, in the tuning directory $dir
  t() {
    local name=against_${which}_${r}_$1
    shift
    run_case "$name" env TESSEL_TUNING_DIR="$dir" "$T" "$@" --csv "$OUT/$name.csv"
  }
  for r in 1 2; do
    for which in shipped file; do
      dir=$TESSEL_TUNING_DIR; [ $which = file ] && dir=$file_dir
      x=(--device "$DEV" --repeat 10); [ $r = 1 ] && x+=(--verify --peers cublas)
      t gemm_single gemm --precision single --sizes 4096,8192 "${x[@]}"
      t gemm_double gemm --precision double --sizes 4096,8192 "${x[@]}"
      t gemm_tf32 gemm --precision single --math tf32 -m 8192 -n 128 -k 8192 --device "$DEV"
      t gemm_bf16 gemm --precision bfloat16 -m 4096 -n 4096 -k 64 --device "$DEV"
      for p in single double; do
        for op in symm syrk syr2k trmm trsm; do
          t "${op}_$p" blas3 --op $op --precision $p --sizes 4096,8192 "${x[@]}"
        done
      done
    done
  done
  bench_finish
  exit 0
fi
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
