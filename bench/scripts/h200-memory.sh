#!/usr/bin/env bash
# Result: bench/results/h200/memory.
# The memory-bound family's GPU run (issue 3), each routine beside its peers and the copy row:
#   bash .device/setup.sh && bash bench/scripts/h200-memory.sh "$OUT"
set -uo pipefail
source bench/scripts/lib.sh "${1:-bench-out}"
run bandwidth --device $d --csv "$out/bandwidth.csv"
run transpose --device $d --variant all --size 8192 --copy --peers clblast --verify --repeat 20 --csv "$out/transpose.csv"
for op in axpy dot nrm2; do
  run blas1 --device $d --op $op --variant all --size 67108864 --copy --peers clblast --verify --repeat 20 --csv "$out/blas1_$op.csv"
done
for tr in n t; do
  run gemv --device $d --variant all -m 16384 -n 16384 --trans $tr --copy --peers clblast --verify --repeat 20 --csv "$out/gemv_$tr.csv"
done
run poisson --device $d --variant all --grid 8192 --iters 200 --tol 0 --copy --repeat 5 --csv "$out/poisson_8192.csv"
run poisson --device $d --variant all --grid 1025 --iters 100 --tol 0 --verify --repeat 3 --csv "$out/poisson_1025_verify.csv"
