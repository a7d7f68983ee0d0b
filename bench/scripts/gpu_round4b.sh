#!/usr/bin/env bash
# Round 4b on the GPU machine (2026-11-23): gemm_sweep_round4b.txt (peeled edges against padding)
# and saxpy/daxpy with the new GPU geometry (one real4 per work-item) beside CLBlast, cuBLAS and
# the copy row, three runs each; everything in $OUT/results.tgz:
#   bash .device/setup.sh > /dev/null 2>&1; bash bench/scripts/gpu_round4b.sh "$OUT"
set -uo pipefail
o=${1:?usage: gpu_round4b.sh OUT}
bash bench/scripts/gpu_gemm_sweep.sh "$o/gemm" bench/scripts/gemm_sweep_round4b.txt | tail -40
mkdir -p "$o/axpy"
for i in 1 2 3; do
  for p in single double; do
    build-gpu/tessel blas1 --device nvidia --op axpy --precision $p --size 67108864 --peers clblast,cublas \
      --copy --verify --repeat 20 --csv "$o/axpy/axpy_${p}_$i.csv" > /dev/null 2>&1
  done
done
echo "tessel blas1 --device nvidia --op axpy --precision single|double --size 67108864 --peers clblast,cublas --copy --verify --repeat 20" > "$o/axpy/commands.txt"
python3 bench/scripts/csv_summary.py vs-copy "$o"/axpy/*.csv
cd "$o" && tar czf results.tgz gemm/*.csv gemm/*.txt gemm/ptx/index.txt axpy && rm -rf gemm axpy
