#!/bin/bash
# session 9 step 11: B in 1 or 2 parts below 4096 columns, on the final tree (the companion's bound)
O=$OUT/r11; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2; do
  for p in single double; do
    for mn in "2000 2000" "2048 2048" "3000 3000" "4000 4000" "4096 2048" "4096 3000"; do set -- $mn
      for st in 1 2; do run blas3 --op trsm -m $1 -n $2 --streams $st --precision $p $c --csv $O/t_${p}_${1}x${2}_s${st}_$rep.csv > /dev/null; done
    done
  done
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/t_*.csv')):
    b = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!'))
for b in sorted(t): print('%-28s %s' % (b, ' '.join(t[b])))
PY
cd $OUT && tar czf res.tgz r11 && rm -rf r11
