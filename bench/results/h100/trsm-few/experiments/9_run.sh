#!/bin/bash
# session 10 call 9: TRSM 4096 with the final tree: leaves of 512 / 1024 x 1, 2, 4 parts
O=$OUT/r9; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
for p in single double; do run gemm --size 4096 --precision $p $c --csv $O/g_$p.csv > /dev/null; done
for rep in 1 2; do for p in single double; do for b in 512 1024; do for st in 1 2 4; do
  run blas3 --op trsm -m 4096 -n 4096 --block $b --streams $st --precision $p $c --csv $O/t_${p}_b${b}_s${st}_$rep.csv > /dev/null
done; done; done; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/[gt]_*.csv')):
    b = os.path.basename(f)[:-4]
    if b.startswith('t_'): b = b.rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f' % float(r['kernel_ms']))
for b in sorted(t): print('%-24s %s' % (b, ' '.join(t[b])))
PY
cd $OUT && tar czf res.tgz r9 && rm -rf r9
