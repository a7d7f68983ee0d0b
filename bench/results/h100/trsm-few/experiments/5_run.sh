#!/bin/bash
# session 10 call 5: the "few" class around 64 x 64 x 32 (single) and a first double "few" entry
O=$OUT/r5; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
B="SA=1,SB=1,STRIDED=1,VWA=4,ALIAS=0,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
S6="MWG=64,NWG=64,KWG=32,MDIMC=8,NDIMC=16,VW=4,PF=1,DBUF=1,$B"
S9="MWG=64,NWG=64,KWG=32,MDIMC=16,NDIMC=8,VW=4,PF=1,DBUF=1,$B"
S10="MWG=64,NWG=128,KWG=32,MDIMC=8,NDIMC=16,VW=4,PF=1,DBUF=1,$B"
S11="MWG=128,NWG=64,KWG=32,MDIMC=16,NDIMC=8,VW=4,PF=1,DBUF=1,$B"
S13="MWG=64,NWG=64,KWG=32,MDIMC=8,NDIMC=16,VW=4,PF=1,DBUF=0,$B"
S15="MWG=32,NWG=64,KWG=32,MDIMC=8,NDIMC=16,VW=4,PF=1,DBUF=1,$B"
S16="MWG=128,NWG=64,KWG=16,MDIMC=16,NDIMC=8,VW=4,PF=1,DBUF=1,$B"
DB="SA=1,SB=1,PF=0,STRIDED=1,VWA=1,ALIAS=0,DBUF=0,APAD=0,WN=0,MMA=3,KSPLIT=0,DIRECT=2,PEEL=0,FPIPE=0,BT=0"
D1="MWG=64,NWG=64,KWG=32,MDIMC=8,NDIMC=16,VW=2,ASYNC=2,$DB"
D2="MWG=32,NWG=64,KWG=16,MDIMC=4,NDIMC=16,VW=2,ASYNC=2,$DB"
D3="MWG=32,NWG=64,KWG=32,MDIMC=4,NDIMC=16,VW=2,ASYNC=2,$DB"
path=$(TESSEL_TUNING_DIR=/tmp/tdir $t tune --show --device nvidia 2>/dev/null | sed -n 's/^tuning database of .*: \(\/.*\.tuning\)$/\1/p' | head -1)
mk() { mkdir -p /tmp/tdir_$1; { echo "tessel-tuning 2"; [ -n "$3" ] && echo "device=nvidia_h100_80gb_hbm3 gemm $2 few tiled2d:$3 source=$1"; } > /tmp/tdir_$1/$(basename "$path"); }
for f in S6 S9 S10 S11 S13 S15 S16; do mk $f single "${!f}"; done
mk D0 double ""; for f in D1 D2 D3; do mk $f double "${!f}"; done
for p in single double; do for n in 2048 3000 4000 4096; do run gemm --size $n --precision $p $c --csv $O/g_${p}_$n.csv > /dev/null; done; done
for rep in 1 2; do for n in 2048 3000 4000 4096; do
  for f in S6 S9 S10 S11 S13 S15 S16; do
    TESSEL_TUNING_DIR=/tmp/tdir_$f run blas3 --op trsm -m $n -n $n --precision single $c --csv $O/f_single_${n}_${f}_$rep.csv > /dev/null
  done
  for f in D0 D1 D2 D3; do
    TESSEL_TUNING_DIR=/tmp/tdir_$f run blas3 --op trsm -m $n -n $n --precision double $c $([ $rep = 1 ] && echo --verify) --csv $O/f_double_${n}_${f}_$rep.csv > /dev/null
  done
done; done
for f in D0 D1 D2; do TESSEL_TUNING_DIR=/tmp/tdir_$f TESSEL_TRACE=2 $t blas3 --op trsm -m 4096 -n 4096 --precision double --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_double_4096_$f.err; done
TESSEL_TUNING_DIR=/tmp/tdir_S6 TESSEL_TRACE=2 $t blas3 --op trsm -m 4096 -n 4096 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_single_4096_S6.err
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/[gf]_*.csv')):
    b = os.path.basename(f)[:-4]
    if b.startswith('f_'): b = b.rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!'))
for b in sorted(t): print('%-34s %s' % (b, ' '.join(t[b])))
PY
cd $OUT && tar czf res.tgz r5 && rm -rf r5
