#!/usr/bin/env bash
# Sweep of larger group tiles (less L2 traffic per flop) for the tensor-core kinds, beside auto and cuBLAS.
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
B="VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,ALIAS=0,DBUF=0,APAD=0,WN=0,KSPLIT=0,DIRECT=0,PEEL=0"
c="--device nvidia --repeat 10 --warmup 2"
declare -A H T X
H[a1]="MWG=256,NWG=128,KWG=16,MDIMC=16,NDIMC=16,MMA=4,ASYNC=4,FPIPE=1,BT=0"
H[a2]="MWG=256,NWG=128,KWG=16,MDIMC=16,NDIMC=16,MMA=4,ASYNC=3,FPIPE=1,BT=0"
H[a3]="MWG=256,NWG=128,KWG=16,MDIMC=16,NDIMC=16,MMA=4,ASYNC=4,FPIPE=0,BT=0"
H[a4]="MWG=128,NWG=256,KWG=16,MDIMC=8,NDIMC=32,MMA=4,ASYNC=4,FPIPE=1,BT=0"
H[a5]="MWG=128,NWG=256,KWG=16,MDIMC=8,NDIMC=32,MMA=4,ASYNC=4,FPIPE=1,BT=1"
H[a6]="MWG=256,NWG=128,KWG=32,MDIMC=16,NDIMC=16,MMA=4,ASYNC=2,FPIPE=1,BT=0"
H[a7]="MWG=256,NWG=128,KWG=16,MDIMC=16,NDIMC=16,MMA=4,ASYNC=4,FPIPE=1,BT=1"
H[a8]="MWG=128,NWG=128,KWG=16,MDIMC=8,NDIMC=16,MMA=4,ASYNC=4,FPIPE=1,BT=0"
T[t1]="MWG=256,NWG=128,KWG=8,MDIMC=16,NDIMC=16,MMA=5,ASYNC=4,FPIPE=1,BT=1"
T[t2]="MWG=256,NWG=128,KWG=8,MDIMC=16,NDIMC=16,MMA=5,ASYNC=4,FPIPE=0,BT=1"
T[t3]="MWG=128,NWG=256,KWG=8,MDIMC=8,NDIMC=32,MMA=5,ASYNC=4,FPIPE=1,BT=1"
T[t4]="MWG=256,NWG=128,KWG=16,MDIMC=16,NDIMC=16,MMA=5,ASYNC=2,FPIPE=1,BT=1"
T[t5]="MWG=256,NWG=128,KWG=8,MDIMC=16,NDIMC=16,MMA=5,ASYNC=3,FPIPE=1,BT=1"
X[x1]="MWG=256,NWG=128,KWG=8,MDIMC=16,NDIMC=16,MMA=5,ASYNC=4,FPIPE=0,BT=0"
X[x2]="MWG=256,NWG=128,KWG=8,MDIMC=16,NDIMC=16,MMA=5,ASYNC=4,FPIPE=0,BT=1"
for n in 4096 8192; do
  v=; [ $n = 4096 ] && v=--verify
  for k in "--precision half" "--precision bfloat16"; do
    kk=$(echo $k | awk '{print $2}')
    run gemm $k --size $n $c --verify --peers cublas --csv $O/${kk}_${n}_auto.csv > /dev/null
    for h in "${!H[@]}"; do run gemm $k --size $n $c $v --variant "tiled2d:$B,${H[$h]}" --csv $O/${kk}_${n}_$h.csv > $O/${kk}_${n}_$h.log 2>&1; done
  done
  run gemm --math tf32 --size $n $c --verify --peers cublas --csv $O/tf32_${n}_auto.csv > /dev/null
  for h in "${!T[@]}"; do run gemm --math tf32 --size $n $c $v --variant "tiled2d:$B,${T[$h]}" --csv $O/tf32_${n}_$h.csv > $O/tf32_${n}_$h.log 2>&1; done
  run gemm --math 3xtf32 --size $n $c --verify --peers cublas --csv $O/3xtf32_${n}_auto.csv > /dev/null
  for h in "${!X[@]}"; do run gemm --math 3xtf32 --size $n $c $v --variant "tiled2d:$B,${X[$h]}" --csv $O/3xtf32_${n}_$h.csv > $O/3xtf32_${n}_$h.log 2>&1; done
done
dump_ptx gemm_tiled2d || true
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        v = r['variant'] if len(r['variant']) < 12 else '..'+r['variant'][-50:]
        print("%-18s %-52s %6s %8.1f TF err %-10s %s" % (os.path.basename(f)[:-4], v, r['n'], float(r['gflops'] or 0)/1000, r['max_rel_err'], r['status']))
for f in sorted(glob.glob(O + '/*.log')):
    s = open(f).read().strip()
    if s: print(os.path.basename(f), s[-300:])
PY
grep -h "Used" $O/ptx/index.txt 2>/dev/null | head -30
