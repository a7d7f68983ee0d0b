#!/usr/bin/env bash
# Result: bench/results/h100/tensor-ring2 (PART=tensor) and bench/results/h100/level3e (PART=level3).
# The state after session 5 of 2026-11-25/26: FPIPE's ring refilled a tile earlier (ASYNC-1 tiles
# of copy lead), half's paired epilogue store as one 32-bit word, the tiled pack pre-pass, TRSM's
# F products only where they are read (STAIR), and the H100 entries for TF32 skinny problems and
# 16-bit storage with a short k; every row beside cuBLAS (and CLBlast for Level-3) in one run.
#   bash .device/setup.sh && PART=tensor bash bench/scripts/h100-ring-lead.sh OUT
#   bash .device/setup.sh && PART=level3 bash bench/scripts/h100-ring-lead.sh OUT
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?usage: h100-ring-lead.sh OUT}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
summary() {
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        v = r['variant'] if len(r['variant']) < 14 else r['variant'][:11] + '...'
        print("%-36s %-14s %-8s %6s %6s %6s %9.1f GF  err %-10s %s" % (os.path.basename(f)[:-4], v, r['precision'], r.get('m', ''), r.get('n', ''), r.get('k', ''), float(r['gflops'] or 0), r.get('max_rel_err', ''), r['status']))
PY
}
if [ "${PART:-tensor}" = tensor ]; then
  for p in half bfloat16 tf32 3xtf32; do
    [ $p = half ] || [ $p = bfloat16 ] && k="--precision $p" || k="--math $p"
    $t tune --show $k --device nvidia > $O/show_$p.txt 2>&1
    for s in 4096x4096x4096 8192x8192x8192 4096x4096x256 8192x128x8192 128x8192x8192 4097x4097x4097 16384x128x4096; do
      IFS=x read m n k_ <<< "$s"
      run gemm $k -m $m -n $n -k $k_ $c --verify --peers cublas --csv $O/tc_${p}_$s.csv > /dev/null
    done
  done
  # the short-k entry's domain (m, n 2048-8192, k 64-256) and beyond it, against the built-in
  B="VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,ALIAS=0,DBUF=0,APAD=0,WN=0,KSPLIT=0,DIRECT=0,PEEL=0"
  for p in half bfloat16; do
    for s in 2048x2048x128 4096x4096x128 8192x2048x64 2048x8192x256 8192x8192x256 8192x8192x512; do
      IFS=x read m n k_ <<< "$s"
      run gemm --precision $p -m $m -n $n -k $k_ $c --peers cublas --csv $O/shortk_${p}_${s}_auto.csv > /dev/null
      run gemm --precision $p -m $m -n $n -k $k_ $c --variant "tiled2d:$B,MWG=128,NWG=128,KWG=32,MDIMC=8,NDIMC=16,MMA=4,ASYNC=3,FPIPE=1,BT=0" --csv $O/shortk_${p}_${s}_builtin.csv > /dev/null
    done
  done
  # the test binaries on the real PTX
  cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 && cmake --build build-gt -j 16 --target test_dmma_async test_tensor test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
  { echo "# TESSEL_DEVICE=nvidia build-gt/tests/test_tensor KIND, test_dmma_async PART, test_level3 trsm BLOCK inverse_rec (Release build with tests, $(date -u +%F))"
    for k in half bf16 tf32 3xtf32; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_tensor $k 2>&1 | tail -1; done
    for q in m1 m2 m3 batch; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_dmma_async $q 2>&1 | tail -1; done
    for b in 16 64; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm $b inverse_rec 2>&1 | tail -1; done; } > $O/test_gpu.txt 2>&1
  cat $O/test_gpu.txt
else
  for pr in single double; do
    for n in 4096 8192; do
      v=; [ $n = 4096 ] && v=--verify
      run gemm --precision $pr --size $n $c $v --peers clblast,cublas --csv $O/l3_${pr}_gemm_$n.csv > /dev/null
      run blas3 --op symm -m $n -n $n --precision $pr $c $v --peers clblast,cublas --beta 0.5 --csv $O/l3_${pr}_symm_$n.csv > /dev/null
      for op in syrk syr2k; do
        run blas3 --op $op -n $n -k $n --precision $pr $c $v --peers clblast,cublas --beta 0.5 --csv $O/l3_${pr}_${op}_$n.csv > /dev/null
      done
      for op in trmm trsm; do
        run blas3 --op $op -m $n -n $n --precision $pr $c $v --peers clblast,cublas --csv $O/l3_${pr}_${op}_$n.csv > /dev/null
      done
    done
  done
  for n in 4096 8192; do
    TESSEL_TRACE=2 $t blas3 --op trsm -m $n -n $n --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trsm_trace_single_$n.err
  done
fi
summary
