#!/bin/bash
# session 13 call 3: the leaves' own class with B in one part (--streams 1), 4096 and 8192;
# the SM mapping probe
O=$OUT/r3; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
gcc -O1 .lead/s13/smid.c -o /tmp/smid -lOpenCL 2>/dev/null && /tmp/smid > $O/smid.txt 2>&1; cat $O/smid.txt
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
for r in 1 2; do
  for cs in "4096|--size 4096" "8192|--size 8192" "4096x8192|-m 4096 -n 8192" "8192_upper_At|--size 8192 --uplo upper --trans t"; do
    tag=${cs%%|*} args=${cs#*|}
    for own in 0 1; do
      for st in 1 2; do
        [ $st = 2 ] && [ $own = 0 ] && [ $tag = 4096 ] && continue
        TSL_X_OWN=$own $t blas3 --op trsm $args --precision single --streams $st $c $([ $r = 1 ] && echo --verify) --csv $O/trsm_${tag}_own${own}_s${st}_$r.csv > /dev/null 2>&1
      done
    done
  done
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/trsm_*_[12].csv')):
    key = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[key].append('%s%s' % (r['kernel_ms'], '' if r['status'] == 'ok' else '!' + r['status']))
for k in sorted(t): print('%-30s %s' % (k, ' '.join(t[k])))
PY
cd $OUT && tar czf res.tgz r3 && rm -rf r3
