#!/bin/bash
# session 12 call 8: TRSM 4096's updates of 1024 rows (1024 x 2048 x 1024 a part, 64 tiles of 128 x 256 each,
# about 35 TFLOP/s): few class (TESSEL_UPD_FEW), split k despite the parts (TESSEL_UPD_SPLIT), or another
# configuration for that shape (user entry, measured=1024x2048x512)
O=$OUT/r8; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
path=$(TESSEL_TUNING_DIR=/tmp/tdir $t tune --show --device nvidia 2>/dev/null | sed -n 's/^tuning database of .*: \(\/.*\.tuning\)$/\1/p' | head -1)
f=$(basename "$path"); key=${f%%@*}
ANY="MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
FEW="MWG=64,NWG=64,KWG=32,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=0,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
SM="MWG=64,NWG=64,KWG=8,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,DBUF=1,APAD=4,KSPLIT=0,DIRECT=2"
for v in ANY FEW SM; do mkdir -p /tmp/td_$v; { echo "tessel-tuning 2"; echo "device=$key gemm single large tiled2d:${!v} measured=1024x2048x512"; echo "device=$key gemm single large tiled2d:${!v} measured=1024x4096x512"; } > /tmp/td_$v/$f; done
U=$TESSEL_TUNING_DIR
tr() { # tag size round env... -- extra
  local tag=$1 sz=$2 r=$3; shift 3
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" $t blas3 --op trsm --size $sz --precision single $c "$@" --csv $O/t_${tag}_${sz}_$r.csv > /dev/null 2>>$O/err.txt
}
for r in 1 2; do
  v=""; [ $r = 1 ] && v=--verify
  for sz in 4096 2048 8192; do
    [ $r = 2 ] && [ $sz != 4096 ] && continue
    tr base $sz $r X=1 -- $v
    tr updfew $sz $r TESSEL_UPD_FEW=1 -- $v
    tr split2 $sz $r TESSEL_UPD_SPLIT=2 -- $v
    tr split4 $sz $r TESSEL_UPD_SPLIT=4 -- $v
    tr uany $sz $r TESSEL_TUNING_DIR=/tmp/td_ANY -- $v
    tr ufew $sz $r TESSEL_TUNING_DIR=/tmp/td_FEW -- $v
    tr usm $sz $r TESSEL_TUNING_DIR=/tmp/td_SM -- $v
  done
done
for sz in 4000 3000; do tr base $sz 1 X=1 -- --verify; tr updfew $sz 1 TESSEL_UPD_FEW=1 -- --verify; tr split2 $sz 1 TESSEL_UPD_SPLIT=2 -- --verify; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/t_*.csv')):
    b = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!' + r['status']))
for b in sorted(t, key=lambda b: (int(b.rsplit('_', 1)[1]), b)): print('%-22s %s' % (b, ' '.join(t[b])))
PY
head -5 $O/err.txt
for x in "base X=1" "updfew TESSEL_UPD_FEW=1" "split2 TESSEL_UPD_SPLIT=2" "uany TESSEL_TUNING_DIR=/tmp/td_ANY"; do
  set -- $x; env $2 TESSEL_TRACE=3 $t blas3 --op trsm --size 4096 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_$1.err
  python3 .lead/s10/tl.py $O/trace_$1.err > $O/tl_$1.txt 2>&1
done
for x in base updfew split2 uany; do echo "== $x"; sed -n 7,12p $O/tl_$x.txt; tail -1 $O/tl_$x.txt; done
cd $OUT && tar czf res.tgz r8 && rm -rf r8
