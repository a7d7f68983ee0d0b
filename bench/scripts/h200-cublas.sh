#!/usr/bin/env bash
# Result: bench/results/h200/cublas.
# tessel beside cuBLAS and CLBlast on the GPU machine, in one run per routine:
#   bash .device/setup.sh && bash bench/scripts/h200-cublas.sh "$OUT"
set -uo pipefail
source bench/scripts/lib.sh "${1:-bench-out}"
grep -i "cuda toolkit\|clblast" "$out/cmake.log"
run gemm --device $d --sizes 4096,8192 --peers clblast,cublas --verify --csv "$out/gemm_single.csv"
run gemm --device $d --sizes 4096,8192 --precision double --peers clblast,cublas --verify --csv "$out/gemm_double.csv"
run gemm --device $d -m 1000 -n 1000 -k 1000 --layout col --transa t --peers clblast,cublas --verify --csv "$out/gemm_col_t.csv"
run transpose --device $d --size 8192 --copy --peers clblast,cublas --verify --repeat 20 --csv "$out/transpose.csv"
for op in axpy dot nrm2; do
  run blas1 --device $d --op $op --size 67108864 --copy --peers clblast,cublas --verify --repeat 20 --csv "$out/blas1_$op.csv"
done
for tr in n t; do
  run gemv --device $d -m 16384 -n 16384 --trans $tr --copy --peers clblast,cublas --verify --repeat 20 --csv "$out/gemv_$tr.csv"
done
run gemv --device $d -m 1000 -n 777 --layout col --trans t --peers cublas --verify --csv "$out/gemv_col_t.csv"
cd "$out" && tar czf results.tgz *.csv env.txt commands.txt
