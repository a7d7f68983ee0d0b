#!/usr/bin/env bash
# Result: bench/results/h100/trsm-nocopy. TRSM's inverse_leaf without the W -> B copies (session 8,
# 2026-11-26: the updates write W through tiled2d's CIN, the leaves read W and write B, the first
# leaf's right-hand sides copied into W beside the inverses) and with l3_tri_inv_fused (the
# inverses up to blocks of 256 in one launch; --inv-fuse 64: launch by launch, as before): 4096
# and 8192, single and double, tessel's GEMM, CLBlast and cuBLAS in the same run; right / upper /
# A^T and a skinny B; TESSEL_TRACE=3 of one call per precision; test_level3 on the GPU.
#   bash .device/setup.sh && bash bench/scripts/h100-trsm-nocopy.sh OUT
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?usage: h100-trsm-nocopy.sh OUT}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
{ cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 16 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
  echo "# TESSEL_DEVICE=nvidia build-gt/tests/test_level3 ROUTINE BLOCK VARIANT auto auto 0 STREAMS INV_FUSE (Release build with tests, $(date -u +%F))"
  for st in 1 2 4; do TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 0 inverse_leaf auto auto 0 $st 2>&1 | tail -1; done
  for b in 128 256 512; do TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm $b inverse_leaf auto auto 0 2 4096 2>&1 | tail -1; done
  TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 256 inverse_leaf auto auto 0 2 64 2>&1 | tail -1
  for r in symm syrk syr2k trmm trsm batched; do TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 $r 2>&1 | tail -1; done
} > $O/test_gpu.txt 2>&1
for pr in single double; do
  for n in 4096 8192; do
    run gemm --precision $pr --size $n $c --peers clblast,cublas --csv $O/gemm_${pr}_$n.csv > /dev/null
    run blas3 --op trsm -m $n -n $n --precision $pr $c --verify --peers clblast,cublas --csv $O/trsm_${pr}_$n.csv > /dev/null
    run blas3 --op trsm -m $n -n $n --precision $pr $c --inv-fuse 64 --csv $O/trsm_${pr}_${n}_f64.csv > /dev/null
    run blas3 --op trsm -m $n -n $n --precision $pr $c --streams 1 --csv $O/trsm_${pr}_${n}_s1.csv > /dev/null
  done
  run blas3 --op trsm -m 4096 -n 4096 --side right --uplo upper --trans t --precision $pr $c --verify --csv $O/case_${pr}_right_upper_t.csv > /dev/null
  run blas3 --op trsm -m 4096 -n 4096 --uplo upper --diag unit --alpha -0.5 --precision $pr $c --verify --csv $O/case_${pr}_upper_unit.csv > /dev/null
  run blas3 --op trsm -m 4000 -n 3000 --variant inverse_leaf --precision $pr $c --verify --csv $O/case_${pr}_4000x3000.csv > /dev/null
  run blas3 --op trsm -m 4096 -n 128 --precision $pr $c --verify --csv $O/skinny_${pr}_4096x128.csv > /dev/null
  TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision $pr --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${pr}_4096.err
done
python3 bench/scripts/csv_summary.py x-gemm $O/*.csv | tee $O/summary.txt
cat $O/test_gpu.txt
