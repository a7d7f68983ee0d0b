#!/usr/bin/env bash
# The tensor suite: GEMM on the tensor cores beside cuBLAS in the same math mode (cublasGemmEx
# FP16 / BF16 with FP32 accumulation, TF32; 3xTF32 beside plain FP32 SGEMM), every row verified
# (half / bfloat16 against the reference of the rounded inputs, tf32 likewise, 3xtf32 against the
# plain one: README.md, "tessel gemm").
#   bash bench/scripts/tensor.sh DEVICE_NAME OUTDIR      (e.g. h200 bench/results/h200/tensor)
#   tc_KIND_MxNxK.csv     KIND half, bfloat16 (--precision), tf32, 3xtf32 (--math) at 4096^3,
#                         8192^3 and the race's skinny and ragged shapes 4096x4096x256,
#                         8192x128x8192, 128x8192x8192, 4097^3
#   shortk_KIND_MxNxK.csv half and bfloat16 with a short k (the short-k entry's domain), not verified
# About 4 minutes on an H100 / H200 (the --verify reference of 8192^3 is an OpenBLAS DGEMM on the
# host, 2 s each). REPEAT (default 10) sets the timed runs. Needs an NVIDIA GPU with tensor cores;
# elsewhere tessel emulates them and the figures mean nothing (every case still runs).
set -euo pipefail
source "$(dirname "$0")/lib.sh" tensor "$@"
R=${REPEAT:-10}
c=(--device "$DEV" --repeat "$R" --warmup 2)
is_gpu || echo "warning: no NVIDIA GPU: the tensor-core kinds run emulated" >&2
for kind in half bfloat16 tf32 3xtf32; do
  case $kind in half | bfloat16) mode=(--precision $kind) ;; *) mode=(--math $kind) ;; esac
  for s in 4096x4096x4096 8192x8192x8192 4096x4096x256 8192x128x8192 128x8192x8192 4097x4097x4097; do
    IFS=x read -r m n k <<< "$s"
    tsl "tc_${kind}_$s" gemm "${c[@]}" "${mode[@]}" -m "$m" -n "$n" -k "$k" --peers cublas --verify
  done
done
for kind in half bfloat16; do
  for s in 2048x2048x128 4096x4096x128 8192x2048x64 8192x8192x256; do
    IFS=x read -r m n k <<< "$s"
    tsl "shortk_${kind}_$s" gemm "${c[@]}" --precision $kind -m "$m" -n "$n" -k "$k" --peers cublas
  done
done
bench_finish
