#!/usr/bin/env bash
# The level3 suite: the Level-3 routines and strided batched GEMM beside tessel's own GEMM of the
# same size and precision, CLBlast and cuBLAS, in the same command.
#   bash bench/scripts/level3.sh DEVICE_NAME OUTDIR      (e.g. h200 bench/results/h200/level3)
# On a GPU (about 5 minutes on an H100 / H200):
#   l3_PREC_OP_N.csv     OP gemm, symm, syrk, syr2k, trmm, trsm at N = 4096 and 8192, PREC single
#                        and double, --peers clblast,cublas; verified at 4096 (the CPU reference
#                        of 8192 would take longer than the suite)
#   trsm_single_CASE.csv TRSM single, auto, verified: 4096 and 8192 with the default parts and with
#                        B in one part (_s1: --streams 1), 5000 and 6000 in one part, 4096 x 8192,
#                        8192 with op(A) = A^T
#   batched_PREC_BxN.csv strided batched GEMM, every variant: 10000 x 32^3, 1000 x 128^3,
#                        100 x 512^3, beside CLBlast and cuBLAS, verified
# With DEVICE_NAME pocl: every routine at 1024 in both precisions beside OpenBLAS, verified
# (OP_PREC.csv). REPEAT (default 10) sets the timed runs of every case.
set -euo pipefail
source "$(dirname "$0")/lib.sh" level3 "$@"
R=${REPEAT:-10}
c=(--device "$DEV" --repeat "$R" --warmup 2)
# args OP N: the problem of OP at n (SYRK / SYR2K: n x n from k = n; SYMM with beta 0.5)
args() {
  case $1 in
    gemm) echo "--size $2" ;;
    symm) echo "-m $2 -n $2 --beta 0.5" ;;
    syrk | syr2k) echo "-n $2 -k $2 --beta 0.5" ;;
    trmm | trsm) echo "-m $2 -n $2" ;;
  esac
}
if is_gpu; then
  for p in single double; do
    for n in 4096 8192; do
      v=(); [ $n = 4096 ] && v=(--verify)
      for op in gemm symm syrk syr2k trmm trsm; do
        cmd=blas3; [ $op = gemm ] && cmd=gemm
        op_arg=(); [ $op = gemm ] || op_arg=(--op $op)
        # shellcheck disable=SC2046
        tsl "l3_${p}_${op}_$n" $cmd "${op_arg[@]}" $(args $op $n) --precision $p "${c[@]}" "${v[@]}" \
          --peers clblast,cublas
      done
    done
  done
  for cs in "4096|--size 4096" "4096_s1|--size 4096 --streams 1" "5000_s1|--size 5000 --streams 1" \
            "6000_s1|--size 6000 --streams 1" "8192|--size 8192" "8192_s1|--size 8192 --streams 1" \
            "4096x8192|-m 4096 -n 8192" "8192_At|--size 8192 --trans t"; do
    tag=${cs%%|*}
    # shellcheck disable=SC2086
    tsl "trsm_single_$tag" blas3 --op trsm ${cs#*|} --precision single "${c[@]}" --verify
  done
  for p in single double; do
    for bn in 10000x32 1000x128 100x512; do
      tsl "batched_${p}_$bn" gemm --batch "${bn%x*}" --size "${bn#*x}" --precision $p --variant all \
        "${c[@]}" --peers clblast,cublas --verify
    done
  done
else
  for p in single double; do
    tsl "gemm_$p" gemm --size 1024 --precision $p --peers openblas "${c[@]}"
    for op in symm syrk syr2k trmm trsm; do
      tsl "${op}_$p" blas3 --op $op -m 1024 -n 1024 -k 1024 --precision $p --verify --peers openblas "${c[@]}"
    done
  done
fi
bench_finish
