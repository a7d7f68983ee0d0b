#!/usr/bin/env bash
# Result: bench/results/h100/level3 (issue 15).
# The Level-3 routines and strided batched GEMM on the GPU machine (issue 15's performance
# section): each routine at n = 4096 and 8192, single and double, with its CLBlast and cuBLAS
# rows in the same run and --verify, next to tessel's own GEMM at the same size and precision;
# the block size of the blocked routines swept at 4096; batched GEMM of 10000 x 32^3,
# 1000 x 128^3 and 100 x 512^3 with every variant and the peers. CSVs under $OUT, the summary
# (each routine against tessel's GEMM, CLBlast and cuBLAS) last.
# Every variant of SYRK, SYR2K, TRMM and TRSM runs as a row of its table (--variant all), so one
# run shows the algorithms side by side: SYRK/SYR2K tri (auto: one tiled2d launch over C's
# triangle) and recursive (the first run's algorithm), TRMM tri (auto) and blocked (the first
# run's), TRSM inverse (auto on GPUs), inverse_rec and blocked (the first run's scheme, its diagonal
# inverses now by l3_tri_inv); gemm_batched direct,
# loop and tiled (auto above 256: one batched tiled2d launch).
#   bash .device/setup.sh && bash bench/scripts/level3.sh $OUT
set -uo pipefail
out=${1:?usage: level3.sh OUT}
source bench/scripts/lib.sh "$out"
# The --verify reference is OpenBLAS on the host: with its core type set it is 5x faster there
# (DESIGN.md); it is no timed peer in this script.
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-SkylakeX}
RUN_TIMEOUT=${RUN_TIMEOUT:-500}
common="--device $d --repeat 10 --warmup 2 --verify"
# PARTS picks what runs (a run of all three may not fit a 10-minute command): main, sweep, batched
PARTS=${PARTS:-main,sweep,batched}
if [[ $PARTS == *main* ]]; then
for n in 4096 8192; do
  for p in single double; do
    run gemm --size $n --precision $p $common --peers clblast,cublas --csv "$out/gemm_${p}_$n.csv"
    run blas3 --op symm -m $n -n $n --precision $p $common --peers clblast,cublas --beta 0.5 \
      --csv "$out/symm_${p}_$n.csv"
    for op in syrk syr2k; do
      run blas3 --op $op -n $n -k $n --precision $p $common --variant all --peers clblast,cublas \
        --beta 0.5 --csv "$out/${op}_${p}_$n.csv"
    done
    for op in trmm trsm; do
      run blas3 --op $op -m $n -n $n --precision $p $common --variant all \
        --peers clblast,cublas --csv "$out/${op}_${p}_$n.csv"
    done
  done
done
# other orientations at 4096, single: right side, upper, transposed, column-major
for op in trsm trmm; do
  run blas3 --op $op --size 4096 --side right --uplo upper --trans t --layout col $common \
    --variant all --peers clblast,cublas --csv "$out/${op}_single_4096_rutc.csv"
done
run blas3 --op symm --size 4096 --side right --uplo upper --trans t --layout col $common \
  --peers clblast,cublas --csv "$out/symm_single_4096_rutc.csv"
run blas3 --op syrk --size 4096 --uplo upper --trans t --layout col $common --variant all \
  --peers cublas --csv "$out/syrk_single_4096_utc.csv"
# TRSM's block size (default on GPUs: 128 up to 4096, 256 above): the diagonal blocks (inverted
# by l3_tri_inv in blocks of at most 64, then by doubling with batched GEMMs), the k of every
# update GEMM; inverse_rec (auto on GPUs) over 64 to 512 at 4096 and 128 to 512 at 8192, the
# other variants at 128 and 256 beside it; SYRK/SYR2K and TRMM's tri variants have no blocks
# (their old variants' sweep is in the first run's results)
fi
if [[ $PARTS == *sweep* ]]; then
for v in inverse_rec inverse blocked; do
  nbs="128 256"; [[ $v == inverse_rec ]] && nbs="64 128 256 512"
  [[ $v == blocked ]] && nbs="128"
  for nb in $nbs; do
    for p in single double; do
      run blas3 --op trsm --size 4096 --precision $p --block $nb --variant $v $common \
        --csv "$out/block_trsm_${v}_${p}_nb$nb.csv"
    done
  done
done
for nb in 128 256 512; do
  for p in single double; do
    run blas3 --op trsm --size 8192 --precision $p --block $nb --variant inverse_rec $common \
      --csv "$out/block_trsm_inverse_rec_${p}_8192_nb$nb.csv"
  done
done
# strided batched GEMM: the direct (one launch) and loop (a tuned GEMM per problem) variants
fi
if [[ $PARTS == *batched* ]]; then
for p in single double; do
  run gemm --batch 10000 --size 32 --precision $p --variant all $common --peers clblast,cublas \
    --csv "$out/batched_${p}_10000x32.csv"
  run gemm --batch 1000 --size 128 --precision $p --variant all $common --peers clblast,cublas \
    --csv "$out/batched_${p}_1000x128.csv"
  run gemm --batch 100 --size 512 --precision $p --variant all $common --peers clblast,cublas \
    --csv "$out/batched_${p}_100x512.csv"
done
fi
python3 bench/scripts/csv_summary.py rows "$out"/*.csv > "$out/rows.txt"
python3 bench/scripts/csv_summary.py level3 "$out"/*.csv | tee "$out/summary.txt"
