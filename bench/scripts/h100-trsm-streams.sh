#!/usr/bin/env bash
# Result: bench/results/h100/trsm-streams. TRSM's inverse_leaf with B in parts on side queues
# (session 7, 2026-11-26: runtime/side.c; the parts' steps given in turn; each leaf's X copied
# into B right after it; l3_tri_inv64 for the diagonal blocks of 64): --streams 1, 2 (the GPU
# default) and 4 side by side at 4096 and 8192, single and double, for side left (the default
# case) and right / upper / A^T, and a skinny B; tessel's GEMM, CLBlast and cuBLAS in the same run;
# TESSEL_TRACE=3 of one call per precision (each command's start and the host's time per launch);
# test_level3 on the GPU with 1 to 4 parts.
#   bash .device/setup.sh && bash bench/scripts/h100-trsm-streams.sh OUT
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?usage: h100-trsm-streams.sh OUT}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
{ cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 16 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
  echo "# TESSEL_DEVICE=nvidia build-gt/tests/test_level3 ROUTINE 0 VARIANT auto auto 0 STREAMS (Release build with tests, $(date -u +%F))"
  for st in 1 2 3 4; do TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 0 inverse_leaf auto auto 0 $st 2>&1 | tail -1; done
  for r in symm syrk syr2k trmm trsm batched; do TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 $r 2>&1 | tail -1; done
} > $O/test_gpu.txt 2>&1
for pr in single double; do
  for n in 4096 8192; do
    v=; [ $n = 4096 ] && v=--verify
    run gemm --precision $pr --size $n $c --peers clblast,cublas --csv $O/gemm_${pr}_$n.csv > /dev/null
    run blas3 --op trsm -m $n -n $n --precision $pr $c $v --peers clblast,cublas --csv $O/trsm_${pr}_$n.csv > /dev/null
    for st in 1 2 4; do
      run blas3 --op trsm -m $n -n $n --precision $pr $c --streams $st --csv $O/trsm_${pr}_${n}_s$st.csv > /dev/null
    done
  done
  for st in 1 2 4; do
    run blas3 --op trsm -m 4096 -n 4096 --side right --uplo upper --trans t --precision $pr $c --verify --streams $st --csv $O/case_${pr}_right_upper_t_s$st.csv > /dev/null
    run blas3 --op trsm -m 4096 -n 128 --precision $pr $c --verify --streams $st --csv $O/skinny_${pr}_4096x128_s$st.csv > /dev/null
  done
  TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision $pr --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${pr}_4096.err
done
python3 bench/scripts/csv_summary.py x-gemm $O/*.csv | tee $O/summary.txt
cat $O/test_gpu.txt
