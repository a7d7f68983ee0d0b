#!/usr/bin/env bash
# DB entry candidates: TF32 skinny without BT (no pack of the big operand); 16-bit small k.
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
B="VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,ALIAS=0,DBUF=0,APAD=0,WN=0,KSPLIT=0,DIRECT=0,PEEL=0"
declare -a S=("MWG=128,NWG=128,KWG=16,MDIMC=8,NDIMC=16,MMA=5,ASYNC=2,FPIPE=1,BT=0" "MWG=128,NWG=128,KWG=16,MDIMC=8,NDIMC=16,MMA=5,ASYNC=2,FPIPE=0,BT=0" "MWG=128,NWG=128,KWG=8,MDIMC=8,NDIMC=16,MMA=5,ASYNC=4,FPIPE=1,BT=0" "MWG=128,NWG=128,KWG=8,MDIMC=8,NDIMC=16,MMA=5,ASYNC=4,FPIPE=0,BT=0" "MWG=64,NWG=128,KWG=16,MDIMC=8,NDIMC=16,MMA=5,ASYNC=3,FPIPE=1,BT=0" "MWG=128,NWG=64,KWG=16,MDIMC=8,NDIMC=16,MMA=5,ASYNC=3,FPIPE=1,BT=0")
for s in 8192x128x8192 128x8192x8192 16384x128x4096 256x8192x8192 8192x256x8192; do
  IFS=x read m n k <<< "$s"
  run gemm --math tf32 -m $m -n $n -k $k $c --verify --peers cublas --csv $O/tf_${s}_auto.csv > /dev/null
  i=0; for h in "${S[@]}"; do i=$((i+1)); run gemm --math tf32 -m $m -n $n -k $k $c --variant "tiled2d:$B,$h" --csv $O/tf_${s}_s$i.csv > /dev/null; done
done
declare -a H=("MWG=64,NWG=64,KWG=32,MDIMC=4,NDIMC=32,MMA=4,ASYNC=4,FPIPE=0" "MWG=64,NWG=64,KWG=32,MDIMC=4,NDIMC=32,MMA=4,ASYNC=4,FPIPE=1" "MWG=64,NWG=64,KWG=32,MDIMC=4,NDIMC=32,MMA=4,ASYNC=3,FPIPE=0" "MWG=64,NWG=128,KWG=32,MDIMC=8,NDIMC=16,MMA=4,ASYNC=3,FPIPE=0")
for s in 4096x4096x256 2048x2048x128 8192x8192x256 4096x4096x128 8192x2048x64 2048x8192x256; do
  IFS=x read m n k <<< "$s"
  for p in half bfloat16; do
    run gemm --precision $p -m $m -n $n -k $k $c --verify --peers cublas --csv $O/h_${p}_${s}_auto.csv > /dev/null
    i=0; for h in "${H[@]}"; do i=$((i+1)); run gemm --precision $p -m $m -n $n -k $k $c --variant "tiled2d:$B,$h" --csv $O/h_${p}_${s}_c$i.csv > /dev/null; done
  done
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-34s %-8s %6s %6s %6s %8.2f TF err %-10s %s" % (os.path.basename(f)[:-4], r['variant'][:8], r.get('m',''), r.get('n',''), r.get('k',''), float(r['gflops'] or 0)/1000, r.get('max_rel_err',''), r['status']))
PY
