#!/usr/bin/env bash
# The gemm suite: tessel's GEMM beside its peers, every timed row verified against OpenBLAS.
#   bash bench/scripts/gemm.sh DEVICE_NAME OUTDIR      (e.g. h200 bench/results/h200/gemm)
# On a GPU (about 4 minutes on an H100 / H200):
#   square_{single,double}.csv   auto at 4096^3 and 8192^3 beside CLBlast and cuBLAS (plain FP32
#                                math), median of 10 after 2 warm-ups
#   shape_MxNxK.csv              the race's other shapes, single: 4096x4096x256, 8192x128x8192,
#                                128x8192x8192, 4097^3, 1000^3, 512^3
#   dgemm_MxNxK.csv              DGEMM on the skinny and ragged shapes beside cuBLAS
#   ladder_{single,double}.csv   every variant (the seed's ladder) at 1024 and 4096 beside CLBlast
#   openblas.csv                 auto beside CLBlast and OpenBLAS (the host CPU) at 1000, 4096, 8192
#   twins_{naive,tiled}.csv      the naive and tiled_16x16 kernels beside their CUDA C twins
# With DEVICE_NAME pocl (the development machine's CPU device, no GPU peers): auto at 1024 beside
# CLBlast-on-PoCL and OpenBLAS in both precisions (auto_1024_*.csv), the ladder at 256-1024.
# REPEAT (default 10) sets the timed runs of every case.
set -euo pipefail
source "$(dirname "$0")/lib.sh" gemm "$@"
R=${REPEAT:-10}
c=(--device "$DEV" --repeat "$R" --warmup 2)
if is_gpu; then
  for p in single double; do
    tsl "square_$p" gemm "${c[@]}" --precision $p --sizes 4096,8192 --peers clblast,cublas --verify
  done
  for s in 4096x4096x256 8192x128x8192 128x8192x8192 4097x4097x4097 1000x1000x1000 512x512x512; do
    IFS=x read -r m n k <<< "$s"
    tsl "shape_$s" gemm "${c[@]}" -m "$m" -n "$n" -k "$k" --peers clblast,cublas --verify
  done
  for s in 2048x2048x2048 4097x4097x4097 4096x4096x256 8192x128x8192 128x8192x8192; do
    IFS=x read -r m n k <<< "$s"
    tsl "dgemm_$s" gemm "${c[@]}" --precision double -m "$m" -n "$n" -k "$k" --peers cublas --verify
  done
  for p in single double; do
    tsl "ladder_$p" gemm --device "$DEV" --repeat 5 --warmup 1 --precision $p --variant all \
      --sizes 1024,4096 --peers clblast --verify
  done
  tsl openblas gemm --device "$DEV" --repeat 5 --warmup 1 --sizes 1000,4096,8192 --peers clblast,openblas
  tsl twins_naive gemm --device "$DEV" --repeat 5 --variant naive --size 4096 --peers cuda_naive --verify
  tsl twins_tiled gemm --device "$DEV" --repeat 5 --variant tiled_16x16 --size 4096 --peers cuda_tiled --verify
else
  for p in single double; do
    tsl "auto_1024_$p" gemm --device "$DEV" --repeat 20 --precision $p --size 1024 --peers clblast,openblas --verify
  done
  tsl ladder_single gemm --device "$DEV" --repeat 5 --variant all --sizes 256,512,1024 --peers clblast,openblas --verify
fi
bench_finish
