#!/usr/bin/env bash
# The complex suite: CGEMM and ZGEMM beside CLBlast and cuBLAS in the same command, and the
# complex Level-3 routines beside tessel's own complex GEMM of the same size and CLBlast.
#   bash bench/scripts/complex.sh DEVICE_NAME OUTDIR      (e.g. h200 bench/results/h200/complex)
# On a GPU (about 6 minutes on an H100 / H200):
#   zgemm_PREC_N.csv      PREC complex, doublecomplex; N = 4096, 8192; tessel (the 4M form),
#                         --peers clblast,cublas, every row verified
#   zgemm3m_PREC_N.csv    the same in the 3M form (--form 3m) beside cuBLAS's 3M (cublasCgemm3m,
#                         cublasZgemm3m)
#   zgemm_tf32_N.csv      CGEMM in TF32 math beside cuBLAS's (cublasGemmEx, COMPUTE_32F_FAST_TF32)
#   zgemm_3xtf32_N.csv    CGEMM in 3xTF32 math beside cuBLAS's plain CGEMM
#   z3_PREC_OP_4096.csv   OP symm, hemm, syrk, herk, syr2k, her2k, trmm, trsm at 4096 (SYRK family:
#                         n = k = 4096), --peers clblast, verified
# With DEVICE_NAME pocl: each at 512 beside OpenBLAS. REPEAT (default 10) sets the timed runs.
set -euo pipefail
source "$(dirname "$0")/lib.sh" complex "$@"
R=${REPEAT:-10}
c=(--device "$DEV" --repeat "$R" --warmup 2)
args() {
  case $1 in
    symm | hemm) echo "-m $2 -n $2 --beta 0.5" ;;
    syrk | herk | syr2k | her2k) echo "-n $2 -k $2 --beta 0.5" ;;
    trmm | trsm) echo "-m $2 -n $2" ;;
  esac
}
if is_gpu; then
  sizes=(4096 8192); l3=4096; peers=clblast,cublas; peers3m=cublas; l3peers=clblast
else
  sizes=(512); l3=512; peers=openblas; peers3m=openblas; l3peers=openblas
fi
for p in complex doublecomplex; do
  for n in "${sizes[@]}"; do
    tsl "zgemm_${p}_$n" gemm --precision $p --size "$n" "${c[@]}" --verify --peers "$peers"
    tsl "zgemm3m_${p}_$n" gemm --precision $p --form 3m --size "$n" "${c[@]}" --verify \
      --peers "$peers3m"
  done
done
if is_gpu; then
  for n in "${sizes[@]}"; do
    tsl "zgemm_tf32_$n" gemm --precision complex --math tf32 --size "$n" "${c[@]}" --verify \
      --peers cublas
    tsl "zgemm_3xtf32_$n" gemm --precision complex --math 3xtf32 --size "$n" "${c[@]}" --verify \
      --peers cublas
  done
fi
for p in complex doublecomplex; do
  for op in symm hemm syrk herk syr2k her2k trmm trsm; do
    # shellcheck disable=SC2046
    tsl "z3_${p}_${op}_$l3" blas3 --op $op $(args $op $l3) --precision $p "${c[@]}" --verify \
      --peers "$l3peers"
  done
done
bench_finish
