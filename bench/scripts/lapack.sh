#!/usr/bin/env bash
# The LAPACK suite: device-resident LU and Cholesky beside cuSOLVER, one run.
#   bash bench/scripts/lapack.sh DEVICE_NAME OUTDIR      (e.g. h200 bench/results/h200/lapack)
#   lapack.csv   impl,variant,routine,n,ms,tflops,info: tessel's [sd]getrf and [sd]potrf
#                (bench/lapack/lapack_time.c, getrf's variants auto and leaf) and cuSOLVER's
#                dgetrf, dpotrf, dgeqrf (bench/lapack/cusolver_time.c) at n = 8192 and 16384;
#                tessel's dgesv and dsgesv from host memory (LT_SOLVERS; info = dsgesv's iter)
# About 2 minutes on an H200.
set -euo pipefail
source "$(dirname "$0")/lib.sh" lapack "$@"
echo "impl,variant,routine,n,ms,tflops,info" > "$OUT/lapack.csv"
run_case tessel_auto env LT_SOLVERS=1 TESSEL_DEVICE="$DEV" "$BUILD/tessel_lapack_time" 8192 16384
run_case tessel_leaf env LT_VARIANT=leaf TESSEL_DEVICE="$DEV" "$BUILD/tessel_lapack_time" 8192
cat "$LOGDIR/tessel_auto.out" "$LOGDIR/tessel_leaf.out" >> "$OUT/lapack.csv"
if is_gpu; then
  CUDA=${CUDA_HOME:-/usr/local/cuda}
  gcc -O2 -I"$CUDA/include" bench/lapack/cusolver_time.c -L"$CUDA/lib64" -lcusolver -lcudart \
    -o "$BUILD/cusolver_time" >> "$LOGDIR/build-cusolver.log" 2>&1
  run_case cusolver "$BUILD/cusolver_time" 8192 16384
  cat "$LOGDIR/cusolver.out" >> "$OUT/lapack.csv"
fi
bench_finish
