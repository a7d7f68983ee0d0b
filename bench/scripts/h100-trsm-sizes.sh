#!/usr/bin/env bash
# Result: bench/results/h100/trsm-sizes. TRSM below ka = 4096 (session 9, 2026-11-26): auto on
# GPUs is inverse_leaf at every size (it was inverse_rec below 4096), its leaves 256 / 512 / 1024
# by ka (tsl__l3_trsm_block). Every variant (--variant all: auto, inverse, inverse_rec,
# inverse_leaf, blocked) beside tessel's GEMM, CLBlast and cuBLAS at square sizes 256 to 4096,
# single and double, verified; inverse_leaf's leaves of 256 / 512 / 1024 at 1500 to 4000;
# ragged and rectangular cases; test_level3 trsm (auto) on the GPU.
#   bash .device/setup.sh && bash bench/scripts/h100-trsm-sizes.sh OUT
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?usage: h100-trsm-sizes.sh OUT}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
{ cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 16 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
  echo "# TESSEL_DEVICE=nvidia build-gt/tests/test_level3 trsm [BLOCK VARIANT auto auto 0 STREAMS] (Release build with tests, $(date -u +%F))"
  TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 0 auto auto auto 0 2 2>&1 | tail -1
} > $O/test_gpu.txt 2>&1
for pr in single double; do
  for n in 256 512 1000 1500 2000 2048 3000 4000 4096; do
    run gemm --precision $pr --size $n $c --peers clblast,cublas --csv $O/gemm_${pr}_$n.csv > /dev/null
    run blas3 --op trsm --size $n --precision $pr $c --variant all --verify --peers clblast,cublas --csv $O/trsm_${pr}_$n.csv > /dev/null
  done
  for n in 1500 2000 3000 4000; do
    for b in 256 512 1024; do
      run blas3 --op trsm --size $n --precision $pr $c --variant inverse_leaf --block $b --csv $O/block_${pr}_${n}_$b.csv > /dev/null
    done
  done
  run blas3 --op trsm -m 4000 -n 4096 --precision $pr $c --verify --csv $O/case_${pr}_4000x4096.csv > /dev/null
  run blas3 --op trsm -m 4096 -n 4000 --precision $pr $c --verify --csv $O/case_${pr}_4096x4000.csv > /dev/null
  run blas3 --op trsm -m 3000 -n 2000 --side right --uplo upper --trans t --precision $pr $c --verify --csv $O/case_${pr}_3000x2000_right_upper_t.csv > /dev/null
  run blas3 --op trsm -m 777 -n 1234 --uplo upper --diag unit --layout col --alpha -0.5 --precision $pr $c --verify --csv $O/case_${pr}_777x1234_upper_unit_col.csv > /dev/null
done
{ echo "# every row against tessel's GEMM at the same n and precision (trsm counts n^3 flops), CLBlast and cuBLAS"
  python3 bench/scripts/csv_summary.py level3 $O/gemm_*.csv $O/trsm_*.csv
  echo "# inverse_leaf's leaves (--block), ms"
  for f in $O/block_*.csv; do b=$(basename $f .csv); echo "$b $(tail -1 $f | cut -d, -f10)"; done
  echo "# cases (auto)"
  python3 bench/scripts/csv_summary.py rows $O/case_*.csv
  cat $O/test_gpu.txt; } > $O/summary.txt 2>&1
tail -40 $O/summary.txt
