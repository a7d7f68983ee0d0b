#!/bin/bash
# session 12 call 3: register cap (-cl-nv-maxrregcount, TESSEL_XOPT env in this experiment) and PF=0 / KWG=16
# on the few entry, TRSM single 4096 / 2048; ptxas report of the leaves' kernels
O=$OUT/r3; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
path=$(TESSEL_TUNING_DIR=/tmp/tdir $t tune --show --device nvidia 2>/dev/null | sed -n 's/^tuning database of .*: \(\/.*\.tuning\)$/\1/p' | head -1)
f=$(basename "$path"); key=${f%%@*}
S="MWG=64,NWG=64,KWG=32,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=0,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
declare -A CF
CF[pf0]=${S/PF=1/PF=0}
CF[k16]=${S/KWG=32/KWG=16}
CF[k16d]=$(echo ${S/KWG=32/KWG=16} | sed 's/DBUF=0/DBUF=1/')
CF[c1]="MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=2,ALIAS=0,DBUF=0,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
for n in "${!CF[@]}"; do mkdir -p /tmp/td_$n; { echo "tessel-tuning 2"; echo "device=$key gemm single few tiled2d:${CF[$n]} source=x"; } > /tmp/td_$n/$f; done
tr() { # name xopt-tag size round [extra]
  local nm=$1 x=$2 sz=$3 r=$4; shift 4
  local td=$TESSEL_TUNING_DIR; [ $nm != S ] && td=/tmp/td_$nm
  local xo=""; [ $x != none ] && xo="-cl-nv-maxrregcount=$x"
  TESSEL_XOPT="$xo" TESSEL_TUNING_DIR=$td $t blas3 --op trsm --size $sz --precision single $c "$@" --csv $O/t_${nm}_${x}_${sz}_$r.csv > /dev/null 2>$O/err_${nm}_${x}_${sz}_$r.txt
  [ -n "$xo" ] || unset TESSEL_XOPT
}
for r in 1 2; do for sz in 4096 2048; do
  [ $sz = 2048 ] && [ $r = 2 ] && continue
  v=""; [ $r = 1 ] && v=--verify
  for x in none 128 96; do tr S $x $sz $r $v; done
  for nm in pf0 k16 k16d; do for x in none 128; do tr $nm $x $sz $r $v; done; done
  for x in none 96 80; do tr c1 $x $sz $r $v; done
done; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/t_*.csv')):
    b = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!' + r['status']))
for b in sorted(t): print('%-22s %s' % (b, ' '.join(t[b])))
PY
for e in $O/err_*; do [ -s $e ] && { echo "== $e"; head -3 $e; }; done | head -20
dump_ptx gemm_tiled2d; grep "TRI=3" $O/ptx/index.txt | sed "s/-D\(SA\|SB\|STRIDED\|ALIAS\|APAD\|VWA\)=[0-9]*//g" | cut -c1-260 | head -30
cd $OUT && tar czf res.tgz r3 && rm -rf r3
