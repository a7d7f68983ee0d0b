#!/usr/bin/env bash
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
B="VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,ALIAS=0,DBUF=0,APAD=0,WN=0,KSPLIT=0,DIRECT=0,PEEL=0"
BI="tiled2d:$B,MWG=128,NWG=128,KWG=32,MDIMC=8,NDIMC=16,MMA=4,ASYNC=3,FPIPE=1,BT=0"
EN="tiled2d:$B,MWG=64,NWG=64,KWG=32,MDIMC=4,NDIMC=32,MMA=4,ASYNC=4,FPIPE=1,BT=0"
for p in half bfloat16; do
  for s in 4096x4096x4096 8192x8192x8192; do
    IFS=x read m n k <<< "$s"; run gemm --precision $p -m $m -n $n -k $k $c --peers cublas --csv $O/sq_${p}_$s.csv > /dev/null
  done
  for s in 4096x4096x256 1024x1024x128 4096x2048x256 2048x2048x256 2048x4096x128 4096x4096x128 8192x2048x64 8192x8192x256; do
    IFS=x read m n k <<< "$s"
    run gemm --precision $p -m $m -n $n -k $k $c --peers cublas --csv $O/k_${p}_${s}_auto.csv > /dev/null
    run gemm --precision $p -m $m -n $n -k $k $c --variant "$BI" --csv $O/k_${p}_${s}_bi.csv > /dev/null
    run gemm --precision $p -m $m -n $n -k $k $c --variant "$EN" --csv $O/k_${p}_${s}_en.csv > /dev/null
  done
done
cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 && cmake --build build-gt -j 16 --target test_half test_tensor > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
{ for q in device bf16_device; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_half $q 2>&1 | tail -1; done
  for k in half bf16; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_tensor $k 2>&1 | tail -1; done; } > $O/test_gpu.txt 2>&1
cat $O/test_gpu.txt
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-34s %-8s %8.1f" % (os.path.basename(f)[:-4], r['variant'][:8], float(r['gflops'] or 0)/1000))
PY
