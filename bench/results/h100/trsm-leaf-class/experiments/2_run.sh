#!/bin/bash
# session 12 call 2: PAIR (balanced pairs of triangle tiles, TESSEL_PAIR env in this experiment)
# with several few-class configurations under TRSM single 4096 / 2048, double and TRMM beside
O=$OUT/r2; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
path=$(TESSEL_TUNING_DIR=/tmp/tdir $t tune --show --device nvidia 2>/dev/null | sed -n 's/^tuning database of .*: \(\/.*\.tuning\)$/\1/p' | head -1)
f=$(basename "$path"); key=${f%%@*}
declare -A CF
CF[c1]="MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=2,ALIAS=0,DBUF=0,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
CF[c1k32]="MWG=64,NWG=64,KWG=32,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=2,ALIAS=0,DBUF=0,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
CF[c6]="MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=0,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
CF[c15]="MWG=128,NWG=64,KWG=16,MDIMC=32,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
CF[any]="MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
for n in "${!CF[@]}"; do mkdir -p /tmp/td_$n; { echo "tessel-tuning 2"; echo "device=$key gemm single few tiled2d:${CF[$n]} source=x"; } > /tmp/td_$n/$f; done
names="S ${!CF[@]}"
tr() { # name pair size round [extra]
  local nm=$1 pr=$2 sz=$3 r=$4; shift 4
  local td=$TESSEL_TUNING_DIR; [ $nm != S ] && td=/tmp/td_$nm
  local pe=""; [ $pr = P ] && pe="TESSEL_PAIR=1"
  env $pe TESSEL_TUNING_DIR=$td $t blas3 --op trsm --size $sz --precision single $c "$@" --csv $O/t_${nm}_${pr}_${sz}_$r.csv > /dev/null 2>$O/err_${nm}_${pr}_${sz}_$r.txt
}
for r in 1 2; do for sz in 4096 2048; do for nm in $names; do for pr in N P; do
  v=""; [ $r = 1 ] && v=--verify
  [ $sz = 2048 ] && [ $r = 2 ] && continue
  tr $nm $pr $sz $r $v
done; done; done; done
# double, trmm, 8192 with the shipped entries, PAIR or not
for r in 1 2; do for pr in N P; do
  pe=""; [ $pr = P ] && pe="TESSEL_PAIR=1"
  v=""; [ $r = 1 ] && v=--verify
  env $pe $t blas3 --op trsm --size 4096 --precision double $c $v --csv $O/d_trsm_${pr}_4096_$r.csv > /dev/null
  env $pe $t blas3 --op trmm --size 4096 --precision single $c $v --csv $O/s_trmm_${pr}_4096_$r.csv > /dev/null
  env $pe $t blas3 --op trmm --size 4096 --precision double $c $v --csv $O/d_trmm_${pr}_4096_$r.csv > /dev/null
  env $pe $t blas3 --op trsm --size 4096 --side right --uplo upper --precision single $c $v --csv $O/s_trsmRU_${pr}_4096_$r.csv > /dev/null
done; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/[tsd]_*.csv')):
    b = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        e = r.get('max_rel_err') or r.get('error') or ''
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!' + r['status']))
for b in sorted(t): print('%-22s %s' % (b, ' '.join(t[b])))
PY
grep -l . $O/err_* 2>/dev/null | head -3 | xargs -r head -3
cd $OUT && tar czf res.tgz r2 && rm -rf r2
