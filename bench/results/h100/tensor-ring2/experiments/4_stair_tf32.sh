#!/usr/bin/env bash
# 1. the test binaries on the real PTX (FPIPE refill, STAIR); 2. TRSM with STAIR against HEAD~ (no
# STAIR), GEMM beside; 3. TF32 candidates with the new ring lead.
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .lead/head.tgz -C /tmp/old
(cmake -S /tmp/old -B /tmp/old/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 && cmake --build /tmp/old/b -j 16 --target tessel_cli > /dev/null 2>&1) || echo OLD BUILD FAILED
old="env TESSEL_CACHE_DIR=/tmp/old/kc /tmp/old/b/tessel"
c="--device nvidia --repeat 10 --warmup 2"
for p in single double; do
  for n in 4096 8192; do
    v=; [ $n = 4096 ] && v=--verify
    run gemm --precision $p --size $n $c --csv $O/t_gemm_${p}_$n.csv > /dev/null
    run blas3 --op trsm -m $n -n $n --precision $p $c $v --peers cublas --csv $O/t_trsm_${p}_${n}_new.csv > /dev/null
    $old blas3 --op trsm -m $n -n $n --precision $p $c --csv $O/t_trsm_${p}_${n}_old.csv > /dev/null 2>&1
    run blas3 --op trsm -m $n -n $n --precision $p $c --csv $O/t_trsm_${p}_${n}_new2.csv > /dev/null
  done
  run blas3 --op trsm -m 4096 -n 4096 --side right --uplo upper --precision $p $c --verify --csv $O/t_trsmRU_${p}_4096_new.csv > /dev/null
  $old blas3 --op trsm -m 4096 -n 4096 --side right --uplo upper --precision $p $c --csv $O/t_trsmRU_${p}_4096_old.csv > /dev/null 2>&1
done
TESSEL_TRACE=2 $t blas3 --op trsm -m 8192 -n 8192 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trsm8192_trace.err
TESSEL_TRACE=2 $t blas3 --op trsm -m 4096 -n 4096 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trsm4096_trace.err
B="VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,ALIAS=0,DBUF=0,APAD=0,WN=0,KSPLIT=0,DIRECT=0,PEEL=0"
for n in 4096 8192; do
  v=; [ $n = 4096 ] && v=--verify
  run gemm --math tf32 --size $n $c --verify --peers cublas --csv $O/tf_${n}_auto.csv > /dev/null
  i=0
  for h in "MWG=128,NWG=128,KWG=16,MDIMC=8,NDIMC=16,MMA=5,ASYNC=2,FPIPE=1,BT=1" "MWG=128,NWG=128,KWG=8,MDIMC=8,NDIMC=16,MMA=5,ASYNC=4,FPIPE=1,BT=1" "MWG=128,NWG=128,KWG=8,MDIMC=8,NDIMC=16,MMA=5,ASYNC=4,FPIPE=0,BT=1" "MWG=128,NWG=128,KWG=16,MDIMC=8,NDIMC=16,MMA=5,ASYNC=3,FPIPE=0,BT=1" "MWG=64,NWG=128,KWG=16,MDIMC=4,NDIMC=16,MMA=5,ASYNC=4,FPIPE=1,BT=1" "MWG=128,NWG=64,KWG=16,MDIMC=8,NDIMC=8,MMA=5,ASYNC=4,FPIPE=1,BT=1"; do
    i=$((i+1)); run gemm --math tf32 --size $n $c $v --variant "tiled2d:$B,$h" --csv $O/tf_${n}_c$i.csv > /dev/null
  done
done
echo "$(date -u) tests" > $O/test_gpu.txt
cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 && cmake --build build-gt -j 16 --target test_dmma_async test_tensor test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
export TESSEL_DEVICE=nvidia
S=$(grep -o 'L3_GEMM_SINGLE "[^"]*"' tests/level3.cmake | cut -d'"' -f2)
D=$(grep -o 'L3_GEMM_DOUBLE_ASYNC "[^"]*"' tests/level3.cmake | cut -d'"' -f2)
{ for p in m1 m2 m3 batch; do timeout 100 build-gt/tests/test_dmma_async $p 2>&1 | tail -1; done
  for k in half bf16 tf32 3xtf32; do timeout 100 build-gt/tests/test_tensor $k 2>&1 | tail -1; done
  for b in 16 64; do timeout 100 build-gt/tests/test_level3 trsm $b inverse_rec "$S" "$D" 2>&1 | tail -1; timeout 100 build-gt/tests/test_level3 trsm $b inverse 2>&1 | tail -1; done; } >> $O/test_gpu.txt 2>&1
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-24s %-12s %-7s %6s %8.2f TF err %-10s %s" % (os.path.basename(f)[:-4], r['variant'][:12], r['precision'], r.get('n',''), float(r['gflops'] or 0)/1000, r.get('max_rel_err',''), r['status']))
PY
cat $O/test_gpu.txt
