#!/bin/bash
# session 12 call 4: middle leaves (overlapped by the other part's updates) in the any class
# (TESSEL_LEAF_ANY = the blocks whose leaf skips the few class; experiment), the few entry with
# KWG=16, block and streams sweeps; TRSM single
O=$OUT/r4; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
path=$(TESSEL_TUNING_DIR=/tmp/tdir $t tune --show --device nvidia 2>/dev/null | sed -n 's/^tuning database of .*: \(\/.*\.tuning\)$/\1/p' | head -1)
f=$(basename "$path"); key=${f%%@*}
K16="MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=0,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
mkdir -p /tmp/td_k16; { echo "tessel-tuning 2"; echo "device=$key gemm single few tiled2d:$K16 source=x"; } > /tmp/td_k16/$f
tr() { # tag size round leafany tuningdir [extra]
  local tag=$1 sz=$2 r=$3 la=$4 td=$5; shift 5
  TESSEL_LEAF_ANY=$la TESSEL_TUNING_DIR=$td $t blas3 --op trsm --size $sz --precision single $c "$@" --csv $O/t_${sz}_${tag}_$r.csv > /dev/null 2>$O/err_${tag}_${sz}_$r.txt
}
U=$TESSEL_TUNING_DIR
for r in 1 2; do
  v=""; [ $r = 1 ] && v=--verify
  tr base 4096 $r x $U $v
  tr any12 4096 $r 12 $U $v
  tr any1 4096 $r 1 $U $v
  tr any2 4096 $r 2 $U $v
  tr any123 4096 $r 123 $U $v
  tr any0123 4096 $r 0123 $U $v
  tr k16 4096 $r x /tmp/td_k16 $v
  tr k16any12 4096 $r 12 /tmp/td_k16 $v
  tr b512 4096 $r x $U $v --block 512
  tr b2048 4096 $r x $U $v --block 2048
  tr s1 4096 $r x $U $v --streams 1
  tr s1any12 4096 $r 12 $U $v --streams 1
  tr s4 4096 $r x $U $v --streams 4
  tr s4any12 4096 $r 12 $U $v --streams 4
done
v=--verify
tr base 2048 1 x $U $v; tr any1 2048 1 1 $U $v; tr any0 2048 1 0 $U $v
tr base 3000 1 x $U $v; tr any1 3000 1 1 $U $v
tr base 8192 1 x $U $v; tr any123456 8192 1 123456 $U $v; tr any1to6s 8192 1 123456 $U $v --streams 4
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
TESSEL_LEAF_ANY=12 TESSEL_TRACE=3 $t blas3 --op trsm --size 4096 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_any12.err
TESSEL_TRACE=3 $t blas3 --op trsm --size 4096 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_base.err
for x in any12 base; do python3 .lead/s10/tl.py $O/trace_$x.err > $O/tl_$x.txt 2>&1; done
head -24 $O/tl_any12.txt
cd $OUT && tar czf res.tgz r4 && rm -rf r4
