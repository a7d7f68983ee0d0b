#!/bin/bash
# session 11 call 11: the few class's configuration (TRSM's leaves) as a dense GEMM, against the
# any class's, and its PTX / ptxas report: how far the leaves are from their configuration's own rate
O=$OUT/r11; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
FEW="tiled2d:MWG=64,NWG=64,KWG=32,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=0,APAD=4,WN=0,KSPLIT=1,DIRECT=2"
ANY="tiled2d:MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=1,DIRECT=2"
for s in 4096x4096x4096 1024x4096x1024 1024x2048x1024 1024x4096x512; do
  IFS=x read m n k <<< "$s"
  run gemm -m $m -n $n -k $k --precision single --variant "$FEW" $c --csv $O/g_${s}_few.csv > /dev/null
  run gemm -m $m -n $n -k $k --precision single --variant "$ANY" $c --csv $O/g_${s}_any.csv > /dev/null
done
dump_ptx "gemm_tiled2d"
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/g_*.csv')):
    for r in csv.DictReader(open(f)):
        print('%-22s %8.3f ms %8.1f GF %s' % (os.path.basename(f)[2:-4], float(r['kernel_ms']), float(r['gflops']), r['status']))
PY
cat $O/ptx/index.txt 2>/dev/null | head -30
cd $OUT && tar czf res.tgz r11 && rm -rf r11
