#!/usr/bin/env bash
# bench/results/h200/round4/axpy-peers (round 4b, 2026-11-23): saxpy and daxpy, 2^26 elements,
# with the GPU geometry of one vector per work-item, beside CLBlast, cuBLAS and the copy row,
# three runs each; everything in $OUT/results.tgz:
#   bash .device/setup.sh > /dev/null 2>&1; bash bench/scripts/h200-round4-axpy-peers.sh "$OUT"
set -uo pipefail
o=${1:?usage: h200-round4-axpy-peers.sh OUT}
source bench/scripts/lib.sh "$o/r" > /dev/null
for i in 1 2 3; do
  for p in single double; do
    $t blas1 --device $d --op axpy --precision $p --size 67108864 --peers clblast,cublas \
      --copy --verify --repeat 20 --csv "$out/axpy_${p}_$i.csv" > /dev/null 2>&1
  done
done
echo "tessel blas1 --device $d --op axpy --precision single|double --size 67108864 --peers clblast,cublas --copy --verify --repeat 20" >> "$out/commands.txt"
python3 bench/scripts/csv_summary.py vs-copy "$out"/axpy_*.csv
cd "$o" && tar czf results.tgz -C r . && rm -rf r
