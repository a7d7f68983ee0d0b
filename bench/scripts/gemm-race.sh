#!/usr/bin/env bash
# Issue 4's GEMM race on the GPU machine: tessel auto (shipped tuning defaults) beside CLBlast and
# cuBLAS (plain FP32 math), every row verified, median of 10 timed runs after 2 warm-ups:
#   bash .device/setup.sh && bash bench/scripts/gemm-race.sh "$OUT"
# Also the OpenCL-vs-CUDA twins (naive and tiled_16x16 against their CUDA C copies).
# It made bench/results/h200/gemm-race, h200/gemm-round3/race, h200/round4/race and race-mma, and
# h100/round4/race. TUNE_S=20 adds what race-mma has besides: a double-precision tuner run of that
# many seconds at 2048^3 from the shipped defaults (tune_double.txt, user-tuning/).
set -uo pipefail
source bench/scripts/lib.sh "${1:-bench-out}"
$t tune --show --device $d >> "$out/env.txt" 2>&1
$t tune --show --device $d --precision double >> "$out/env.txt" 2>&1
common="--device $d --peers clblast,cublas --verify --repeat 10 --warmup 2"
run gemm $common --sizes 4096,8192 --csv "$out/square_single.csv"
run gemm $common --sizes 4096,8192 --precision double --csv "$out/square_double.csv"
for s in 4096x4096x256 8192x128x8192 128x8192x8192 4097x4097x4097 1000x1000x1000 512x512x512 256x256x256; do
  IFS=x read -r m n k <<< "$s"
  run gemm $common -m "$m" -n "$n" -k "$k" --csv "$out/shape_$s.csv"
done
run gemm --device $d --variant naive --size 4096 --peers cuda_naive --verify --csv "$out/twins_naive.csv"
run gemm --device $d --variant tiled_16x16 --size 4096 --peers cuda_tiled --verify --csv "$out/twins_tiled.csv"
if [ -n "${TUNE_S:-}" ]; then
  mkdir -p "$out/user-tuning"
  echo "tessel tune gemm --device $d --precision double --budget-s $TUNE_S --sizes 2048" >> "$out/commands.txt"
  TESSEL_TUNING_DIR=$out/user-tuning timeout $((TUNE_S * 6)) $t tune gemm --device $d --precision double \
    --budget-s "$TUNE_S" --sizes 2048 > "$out/tune_double.txt" 2>&1
  tail -5 "$out/tune_double.txt"
fi
python3 bench/scripts/csv_summary.py rows "$out"/*.csv
cd "$out" && tar czf results.tgz *.csv *.txt $( [ -d user-tuning ] && echo user-tuning )
