#!/usr/bin/env bash
# the short-k entry (64 x 64 x 32, 4 stages) against the built-in, both with the staged epilogue
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
B="VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,ALIAS=0,DBUF=0,APAD=0,WN=0,KSPLIT=0,DIRECT=0,PEEL=0"
BI="tiled2d:$B,MWG=128,NWG=128,KWG=32,MDIMC=8,NDIMC=16,MMA=4,ASYNC=3,FPIPE=1,BT=0"
EN="tiled2d:$B,MWG=64,NWG=64,KWG=32,MDIMC=4,NDIMC=32,MMA=4,ASYNC=4,FPIPE=1,BT=0"
for p in half bfloat16; do
  for s in 1024x1024x128 2048x2048x128 2048x4096x128 4096x4096x128 4096x4096x64 8192x2048x64 8192x8192x128 4096x4096x256; do
    IFS=x read m n k <<< "$s"
    run gemm --precision $p -m $m -n $n -k $k $c --variant "$BI" --csv $O/k_${p}_${s}_bi.csv > /dev/null
    run gemm --precision $p -m $m -n $n -k $k $c --variant "$EN" --csv $O/k_${p}_${s}_en.csv > /dev/null
  done
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-34s %-8s %8.1f %s" % (os.path.basename(f)[:-4], r['variant'][:8], float(r['gflops'] or 0)/1000, r['status']))
PY
