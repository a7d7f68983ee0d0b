#!/usr/bin/env bash
# bench/results/h200/round4/daxpy-width (round 4d, 2026-11-23): daxpy with 2- against 4-element
# vectors (16- and 32-byte accesses), three interleaved runs beside CLBlast, cuBLAS and the copy
# row; the shipped tree has double2 since this run, a patched copy of it goes back to double4.
# Everything in $OUT/results.tgz:
#   bash .device/setup.sh > /dev/null 2>&1; bash bench/scripts/h200-round4-daxpy-width.sh "$OUT"
set -uo pipefail
o=${1:?usage: h200-round4-daxpy-width.sh OUT}
source bench/scripts/lib.sh "$o/r" > /dev/null
# the shipped GPU row has double2 (2) since this run; the patched tree goes back to double4 (4)
alt=/tmp/axpyw4
patched_tree $alt src/ops/blas1.c '{"gpu", 256, 1u << 20, 8, {4, 2}}' '{"gpu", 256, 1u << 20, 8, {4, 4}}'
mkdir -p "$out/axpy"
for i in 1 2 3; do
  for w in 4 2; do
    bin=$t; [ $w = 2 ] || bin=$alt/b/tessel
    $bin blas1 --device $d --op axpy --precision double --size 67108864 --peers clblast,cublas --copy \
      --verify --repeat 20 --csv "$out/axpy/daxpy_w${w}_$i.csv" > /dev/null 2>&1
  done
done
echo "tessel blas1 --device $d --op axpy --precision double --size 67108864 --peers clblast,cublas --copy --verify --repeat 20 (w4: a tree with axpy_w {4, 4})" >> "$out/commands.txt"
python3 bench/scripts/csv_summary.py vs-copy "$out"/axpy/*.csv
cd "$o" && tar czf results.tgz -C r . && rm -rf r
