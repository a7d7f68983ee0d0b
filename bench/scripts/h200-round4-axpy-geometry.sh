#!/usr/bin/env bash
# Result: bench/results/h200/round4/axpy-geometry (first/: PRECISIONS=single, with 8 groups the default then; both/).
# Issue 3: axpy (2^26 elements) with 8 or 32 work-groups of 256 per compute unit, or one real4 per
# work-item (the GPU default since 2026-11-23: "unlimited"), in one session: the two others are
# patched copies of the tree; each run three times beside the copy row, interleaved, for each
# precision in PRECISIONS (default: single double):
#   OUT=... bash bench/scripts/h200-round4-axpy-geometry.sh
set -uo pipefail
bash .device/setup.sh > /dev/null 2>&1
source bench/scripts/lib.sh $OUT/base > /dev/null
for g in 8 32; do
  patched_tree /tmp/alt$g src/ops/blas1.c '{"gpu", 256, 1u << 20, 8,' "{\"gpu\", 256, ${g}u, 8,"
done
mkdir -p $OUT/csv
for i in 1 2 3; do
  for p in ${PRECISIONS:-single double}; do
    for g in 8 32 unlimited; do
      bin=$t; [ $g = unlimited ] || bin=/tmp/alt$g/b/tessel
      $bin blas1 --device nvidia --op axpy --precision $p --variant vector --size 67108864 --copy --verify --repeat 20 --csv $OUT/csv/${p}_g${g}_$i.csv > /dev/null 2>&1
    done
  done
done
python3 bench/scripts/csv_summary.py vs-copy $OUT/csv/*.csv
cd $OUT && tar czf results.tgz csv base/env.txt
