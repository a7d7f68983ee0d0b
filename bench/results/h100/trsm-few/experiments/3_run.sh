#!/bin/bash
# session 10 call 3: the "few" class (TRSM's leaves and doubling launches) on smaller tiles,
# through a user tuning file per candidate; TRSM single at 1000-4096 and traces
O=$OUT/r3; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
F0="MWG=64,NWG=64,KWG=8,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
F1="MWG=32,NWG=32,KWG=8,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
F2="MWG=32,NWG=64,KWG=8,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
F3="MWG=32,NWG=32,KWG=16,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
F4="MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
path=$(TESSEL_TUNING_DIR=/tmp/tdir $t tune --show --device nvidia 2>/dev/null | sed -n 's/^tuning database of .*: \(\/.*\.tuning\)$/\1/p' | head -1)
echo "user file: $path" | tee $O/path.txt
for f in F0 F1 F2 F3 F4; do
  mkdir -p /tmp/tdir_$f
  { echo "tessel-tuning 2"; echo "device=nvidia_h100_80gb_hbm3 gemm single few tiled2d:${!f} source=$f"; } > /tmp/tdir_$f/$(basename "$path")
done
TESSEL_TUNING_DIR=/tmp/tdir_F1 $t tune --show --device nvidia > $O/show_F1.txt 2>&1
for rep in 1 2; do
  for n in 1000 2048 3000 4096; do for f in F0 F1 F2 F3 F4; do
    TESSEL_TUNING_DIR=/tmp/tdir_$f run blas3 --op trsm -m $n -n $n --precision single $c $([ $rep = 1 ] && echo --verify) --csv $O/t_${n}_${f}_$rep.csv > /dev/null
  done; done
done
for f in F0 F1 F3; do for n in 1000 4096; do
  TESSEL_TUNING_DIR=/tmp/tdir_$f TESSEL_TRACE=2 $t blas3 --op trsm -m $n -n $n --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${n}_$f.err
done; done
for n in 3000 4000; do for p in single double; do
  TESSEL_TRACE=2 $t blas3 --op trsm -m $n -n $n --precision $p --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${p}_$n.err
done; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/t_*.csv')):
    b = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!'))
for b in sorted(t): print('%-30s %s' % (b, ' '.join(t[b])))
PY
cd $OUT && tar czf res.tgz r3 && rm -rf r3
