#!/bin/bash
# session 11 call 4 (tree b9eacf8): where 4096's time goes with 1 / 2 parts; the inverses' first
# launch alone (--inv-fuse 0: l3_tri_inv64 then the levels); the leaves in 128 x 128 tiles (few = any)
O=$OUT/r4; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
ANY="MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
path=$(TESSEL_TUNING_DIR=/tmp/tdir $t tune --show --device nvidia 2>/dev/null | sed -n 's/^tuning database of .*: \(\/.*\.tuning\)$/\1/p' | head -1)
mkdir -p /tmp/tdir_any; { echo "tessel-tuning 2"; echo "device=nvidia_h100_80gb_hbm3 gemm single few tiled2d:$ANY source=any"; } > /tmp/tdir_any/$(basename "$path")
tr() { local name=$1; shift; TESSEL_TRACE=3 $t blas3 --op trsm --device nvidia --repeat 1 --warmup 1 "$@" > /dev/null 2> $O/trace_$name.err; }
tr single_s2 -m 4096 -n 4096 --precision single
tr single_s1 -m 4096 -n 4096 --precision single --streams 1
tr double_s2 -m 4096 -n 4096 --precision double
tr single_fuse0 -m 4096 -n 4096 --precision single --inv-fuse 0
tr single_fuse128 -m 4096 -n 4096 --precision single --inv-fuse 128
tr double_fuse0 -m 4096 -n 4096 --precision double --inv-fuse 0
TESSEL_TUNING_DIR=/tmp/tdir_any tr single_s1_any -m 4096 -n 4096 --precision single --streams 1
TESSEL_TUNING_DIR=/tmp/tdir_any tr single_s2_any -m 4096 -n 4096 --precision single
run gemm --size 4096 --precision single $c --csv $O/g_single.csv > /dev/null
for rep in 1 2; do for st in 1 2; do
  run blas3 --op trsm -m 4096 -n 4096 --streams $st --precision single $c --csv $O/t_s${st}_$rep.csv > /dev/null
  TESSEL_TUNING_DIR=/tmp/tdir_any run blas3 --op trsm -m 4096 -n 4096 --streams $st --precision single $c --csv $O/t_s${st}_any_$rep.csv > /dev/null
done; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/[gt]_*.csv')):
    b = os.path.basename(f)[:-4]
    if b.startswith('t_'): b = b.rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!' + r['status']))
for b in sorted(t): print('%-28s %s' % (b, ' '.join(t[b])))
PY
for f in $O/trace_*.err; do python3 .lead/s10/tl.py $f > ${f%.err}.tl.txt; done
cd $OUT && tar czf res.tgz r4 && rm -rf r4
