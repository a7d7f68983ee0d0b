#!/bin/bash
# session 11 call 13: the tuner's best 64 x 64 configurations for 1024x4096x1024 (call 12) with
# DIRECT=2 (read in place, as the shipped few entry) as the few entry under TRSM
O=$OUT/r13; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
T1="MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=4,KSPLIT=0,DIRECT=2"
T2="MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=4,KSPLIT=0,DIRECT=2"
path=$(TESSEL_TUNING_DIR=/tmp/tdir $t tune --show --device nvidia 2>/dev/null | sed -n 's/^tuning database of .*: \(\/.*\.tuning\)$/\1/p' | head -1)
for f in T1 T2; do mkdir -p /tmp/td_$f; { echo "tessel-tuning 2"; echo "device=nvidia_h100_80gb_hbm3 gemm single few tiled2d:${!f} source=tuned"; } > /tmp/td_$f/$(basename "$path"); done
for rep in 1 2; do
  run blas3 --op trsm --size 4096 --precision single $c --csv $O/t_4096_A_$rep.csv > /dev/null
  for f in T1 T2; do TESSEL_TUNING_DIR=/tmp/td_$f run blas3 --op trsm --size 4096 --precision single $c $([ $rep = 1 ] && echo --verify) --csv $O/t_4096_${f}_$rep.csv > /dev/null; done
done
run blas3 --op trsm --size 2048 --precision single $c --csv $O/t_2048_A_1.csv > /dev/null
for f in T1 T2; do TESSEL_TUNING_DIR=/tmp/td_$f run blas3 --op trsm --size 2048 --precision single $c --verify --csv $O/t_2048_${f}_1.csv > /dev/null; done
TESSEL_TUNING_DIR=/tmp/td_T1 TESSEL_TRACE=3 $t blas3 --op trsm --size 4096 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace3_T1.err
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/t_*.csv')):
    b = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!' + r['status']))
for b in sorted(t): print('%-16s %s' % (b, ' '.join(t[b])))
PY
python3 .lead/s10/tl.py $O/trace3_T1.err > $O/trace3_T1.tl.txt 2>&1; head -22 $O/trace3_T1.tl.txt
cd $OUT && tar czf res.tgz r13 && rm -rf r13
