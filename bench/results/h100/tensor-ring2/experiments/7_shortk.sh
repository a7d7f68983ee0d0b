#!/usr/bin/env bash
# pack v2 (loads first) vs HEAD pack v1; small-k 16-bit traced and candidate tiles; TF32 skinny rows.
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
B="VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,ALIAS=0,DBUF=0,APAD=0,WN=0,KSPLIT=0,DIRECT=0,PEEL=0"
for n in 4096 8192; do run gemm --math tf32 --size $n $c --verify --peers cublas --csv $O/tf_$n.csv > /dev/null; done
for s in 8192x128x8192 128x8192x8192 4096x4096x256 4097x4097x4097; do
  IFS=x read m n k <<< "$s"
  run gemm --math tf32 -m $m -n $n -k $k $c --verify --peers cublas --csv $O/sh_tf32_$s.csv > /dev/null
done
TESSEL_TRACE=2 $t gemm --precision half -m 4096 -n 4096 -k 256 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/half_smallk_trace.err
TESSEL_TRACE=2 $t gemm --math tf32 --size 4096 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/tf32_4096_trace.err
i=0
for h in "MWG=64,NWG=64,KWG=32,MDIMC=4,NDIMC=32,MMA=4,ASYNC=4,FPIPE=1" "MWG=64,NWG=64,KWG=32,MDIMC=4,NDIMC=32,MMA=4,ASYNC=4,FPIPE=0" "MWG=128,NWG=64,KWG=32,MDIMC=8,NDIMC=8,MMA=4,ASYNC=4,FPIPE=1" "MWG=64,NWG=128,KWG=32,MDIMC=4,NDIMC=16,MMA=4,ASYNC=4,FPIPE=1" "MWG=128,NWG=128,KWG=32,MDIMC=8,NDIMC=16,MMA=4,ASYNC=2,FPIPE=1" "MWG=64,NWG=64,KWG=32,MDIMC=8,NDIMC=16,MMA=4,ASYNC=4,FPIPE=1"; do
  i=$((i+1))
  for s in 4096x4096x256 8192x8192x512 4096x4096x512; do
    IFS=x read m n k <<< "$s"
    run gemm --precision half -m $m -n $n -k $k $c --variant "tiled2d:$B,$h" --csv $O/hk_${s}_c$i.csv > /dev/null
  done
done
for s in 4096x4096x256 8192x8192x512 4096x4096x512; do
  IFS=x read m n k <<< "$s"
  run gemm --precision half -m $m -n $n -k $k $c --peers cublas --csv $O/hk_${s}_auto.csv > /dev/null
done
TESSEL_TRACE=2 $t gemm --precision half -m 4096 -n 4096 -k 256 --device nvidia --repeat 1 --warmup 1 --variant "tiled2d:$B,MWG=64,NWG=64,KWG=32,MDIMC=4,NDIMC=32,MMA=4,ASYNC=4,FPIPE=1" > /dev/null 2> $O/half_smallk_c1_trace.err
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-30s %-8s %-7s %6s %6s %6s %8.2f TF err %-10s %s" % (os.path.basename(f)[:-4], r['variant'][:8], r['precision'], r.get('m',''), r.get('n',''), r.get('k',''), float(r['gflops'] or 0)/1000, r.get('max_rel_err',''), r['status']))
PY
for f in $O/*trace.err; do echo "== $f"; grep -h "us " $f | tail -4; done
