#!/usr/bin/env bash
# Result: bench/results/h200/round4/poisson-naive-geometry.
# Issue 3: the naive Jacobi sweep's work-group shape on the GPU (the shipped 128 x 2 against 32 x 8,
# 64 x 4, 256 x 1 and 32 x 16: patched copies of the tree), 8192^2, 200 sweeps, beside the copy
# row, two interleaved rounds; everything in $OUT/results.tgz:
#   bash .device/setup.sh > /dev/null 2>&1; bash bench/scripts/h200-round4-poisson-naive-geometry.sh "$OUT"
set -uo pipefail
o=${1:?usage: h200-round4-poisson-naive-geometry.sh OUT}
source bench/scripts/lib.sh "$o/r" > /dev/null
# the shipped GPU row has 128 x 2 since this run (it was 32 x 8 when it ran)
shapes="32x8 64x4 256x1 32x16"
for s in $shapes; do
  IFS=x read -r x y <<< "$s"
  patched_tree /tmp/pn$s src/ops/poisson.c '{"gpu", 128, 2, 32, 8, 2, 8, 256}' "{\"gpu\", $x, $y, 32, 8, 2, 8, 256}"
done
mkdir -p "$out/csv"
for i in 1 2; do
  for s in 128x2 $shapes; do
    bin=$t; [ $s = 128x2 ] || bin=/tmp/pn$s/b/tessel
    $bin poisson --device $d --variant naive --grid 8192 --iters 200 --tol 0 --copy --repeat 5 --csv "$out/csv/naive_${s}_$i.csv" > /dev/null 2>&1
  done
done
echo "tessel poisson --device $d --variant naive --grid 8192 --iters 200 --tol 0 --copy --repeat 5 (work-group per file name: patched trees but the shipped 128x2)" >> "$out/commands.txt"
python3 bench/scripts/csv_summary.py vs-copy "$out"/csv/*.csv
cd "$o" && tar czf results.tgz -C r . && rm -rf r
