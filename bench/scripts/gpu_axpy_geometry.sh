#!/usr/bin/env bash
# Issue 3, prepared for the next GPU session (not run yet): saxpy 2^26 with 8 (the default), 32
# and unlimited (one real4 per work-item) work-groups per compute unit: three builds in one
# session (the two others patched copies of the tree), each run three times beside the copy row:
#   OUT=... bash bench/scripts/gpu_axpy_geometry.sh
set -uo pipefail
bash .device/setup.sh > /dev/null 2>&1
source bench/scripts/lib.sh $OUT/base > /dev/null
for g in 32 1048576; do
  rm -rf /tmp/alt$g && mkdir /tmp/alt$g && cp -r src cli bench include cmake tests CMakeLists.txt Makefile /tmp/alt$g/ 2>/dev/null
  sed -i "s/{\"gpu\", 256, 8, 8}/{\"gpu\", 256, ${g}u, 8}/" /tmp/alt$g/src/ops/blas1.c
  (cmake -S /tmp/alt$g -B /tmp/alt$g/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null && cmake --build /tmp/alt$g/b -j 16 > /dev/null) || echo "build $g failed"
done
mkdir -p $OUT/csv
for i in 1 2 3; do
  for g in 8 32 1048576; do
    bin=build-gpu/tessel; [ $g = 8 ] || bin=/tmp/alt$g/b/tessel
    $bin blas1 --device nvidia --op axpy --variant vector --size 67108864 --copy --verify --repeat 20 --csv $OUT/csv/g${g}_$i.csv > /dev/null 2>&1
  done
done
cd $OUT && tar czf results.tgz csv base/env.txt
python3 - csv/*.csv <<'PY'
import csv, sys
for f in sorted(sys.argv[1:]):
    r = {x['variant']: float(x['gbps']) for x in csv.DictReader(open(f)) if x['status'] == 'ok'}
    print(f, 'vector %.0f copy %.0f ratio %.3f' % (r['vector'], r['copy'], r['vector'] / r['copy']))
PY
