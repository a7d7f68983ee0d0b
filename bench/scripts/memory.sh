#!/usr/bin/env bash
# The memory suite: the memory-bound routines in GB/s (bytes the operation must read and write,
# once each, over the median kernel time), each beside CLBlast, cuBLAS and the copy row (`--copy`:
# the same bytes through tessel's vectorized copy kernel in the same run), every row verified.
#   bash bench/scripts/memory.sh DEVICE_NAME OUTDIR      (e.g. h200 bench/results/h200/memory)
#   bandwidth.csv                  device copy, host<->device pageable and pinned (1 GiB)
#   transpose_all_8192_PREC.csv    every transpose variant at 8192^2, single and double
#   transpose_all_8191x8193_single.csv, transpose_auto_{4096,16384}_single.csv
#   blas1_{dot,nrm2}.csv, axpy_{single,double}.csv   every variant at 2^26 elements
#   gemv_{n,t}.csv                 every gemv variant at 16384^2, y = A x and y = A^T x
#   poisson_8192.csv               every Jacobi variant, 8192^2 grid, 200 sweeps (sweeps/s, GB/s)
#   poisson_1025_verify.csv        the same at 1025^2, 100 sweeps, against the CPU Jacobi
# About 2 minutes on an H100 / H200. REPEAT (default 20) sets the timed runs. Without a GPU the
# cuBLAS peer is dropped and the sizes stay (PoCL takes longer).
set -euo pipefail
source "$(dirname "$0")/lib.sh" memory "$@"
R=${REPEAT:-20}
peers=clblast,cublas
is_gpu || peers=clblast
c=(--device "$DEV" --repeat "$R" --copy --verify --peers "$peers")
tsl bandwidth bandwidth --device "$DEV"
for p in single double; do
  tsl "transpose_all_8192_$p" transpose "${c[@]}" --variant all --size 8192 --precision $p
done
tsl transpose_all_8191x8193_single transpose "${c[@]}" --variant all --rows 8191 --cols 8193
for n in 4096 16384; do
  tsl "transpose_auto_${n}_single" transpose "${c[@]}" --variant auto --size $n
done
for op in dot nrm2; do
  tsl "blas1_$op" blas1 "${c[@]}" --op $op --variant all --size 67108864
done
for p in single double; do
  tsl "axpy_$p" blas1 "${c[@]}" --op axpy --variant all --precision $p --size 67108864
done
for tr in n t; do
  tsl "gemv_$tr" gemv "${c[@]}" --variant all -m 16384 -n 16384 --trans $tr
done
tsl poisson_8192 poisson --device "$DEV" --variant all --grid 8192 --iters 200 --tol 0 --copy --repeat 5
tsl poisson_1025_verify poisson --device "$DEV" --variant all --grid 1025 --iters 100 --tol 0 --verify --repeat 3
bench_finish
