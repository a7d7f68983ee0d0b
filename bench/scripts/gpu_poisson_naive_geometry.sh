#!/usr/bin/env bash
# Issue 3: the naive Jacobi sweep's work-group shape on the GPU (the shipped 32 x 8 against 64 x 4,
# 128 x 2, 256 x 1 and 32 x 16: patched copies of the tree), 8192^2, 200 sweeps, beside the copy
# row, two interleaved rounds; everything in $OUT/results.tgz:
#   bash .device/setup.sh > /dev/null 2>&1; bash bench/scripts/gpu_poisson_naive_geometry.sh "$OUT"
set -uo pipefail
o=${1:?usage: gpu_poisson_naive_geometry.sh OUT}
source bench/scripts/lib.sh "$o/r" > /dev/null
shapes="64x4 128x2 256x1 32x16"
for s in $shapes; do
  IFS=x read -r x y <<< "$s"
  a=/tmp/pn$s; rm -rf $a && mkdir $a && cp -r src cli bench include cmake tests CMakeLists.txt Makefile $a/ 2>/dev/null
  sed -i "s/{\"gpu\", 32, 8, 32, 8, 2, 8, 256}/{\"gpu\", $x, $y, 32, 8, 2, 8, 256}/" $a/src/ops/poisson.c
  grep -q "{\"gpu\", $x, $y, 32, 8, 2, 8, 256}" $a/src/ops/poisson.c || echo "patch $s failed"
  (cmake -S $a -B $a/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 && cmake --build $a/b -j 16 --target tessel_cli > /dev/null 2>&1) || echo "build $s failed"
done
mkdir -p "$out/csv"
for i in 1 2; do
  for s in 32x8 $shapes; do
    bin=$t; [ $s = 32x8 ] || bin=/tmp/pn$s/b/tessel
    $bin poisson --device $d --variant naive --grid 8192 --iters 200 --tol 0 --copy --repeat 5 --csv "$out/csv/naive_${s}_$i.csv" > /dev/null 2>&1
  done
done
echo "tessel poisson --device $d --variant naive --grid 8192 --iters 200 --tol 0 --copy --repeat 5 (work-group per file name: patched trees but 32x8)" >> "$out/commands.txt"
python3 - "$out"/csv/*.csv <<'PY'
import csv, sys
for f in sorted(sys.argv[1:]):
    r = {x['variant']: float(x['gbps']) for x in csv.DictReader(open(f)) if x['status'] == 'ok'}
    print(f.split('/')[-1], 'naive %.0f copy %.0f ratio (u, f, u counted) %.3f' % (r['naive'], r['copy'], r['naive'] / r['copy']))
PY
cd "$o" && tar czf results.tgz -C r . && rm -rf r
