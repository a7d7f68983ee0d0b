#!/bin/bash
# session 12 call 9: the parts staggered (part 1's first leaf waits for part 0's: TESSEL_STAGGER), and the leaves
# that then run beside the other part's updates in their own class (TESSEL_STAGGER_OWN: all but part 0's first
# and the last part's last)
O=$OUT/r9; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
tr() { # tag prec size round env... -- extra
  local tag=$1 pr=$2 sz=$3 r=$4; shift 4
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" $t blas3 --op trsm --size $sz --precision $pr $c "$@" --csv $O/t_${pr}_${tag}_${sz}_$r.csv > /dev/null 2>>$O/err.txt
}
for r in 1 2; do
  v=""; [ $r = 1 ] && v=--verify
  for sz in 4096 3000 4000 2048 8192; do
    [ $r = 2 ] && [ $sz != 4096 ] && continue
    tr base single $sz $r X=1 -- $v
    tr stag single $sz $r TESSEL_STAGGER=1 -- $v
    tr stagown single $sz $r TESSEL_STAGGER=1 TESSEL_STAGGER_OWN=1 -- $v
    tr own single $sz $r TESSEL_STAGGER_OWN=1 -- $v
  done
  for sz in 4096 8192; do
    [ $r = 2 ] && [ $sz != 4096 ] && continue
    tr base double $sz $r X=1 -- $v
    tr stag double $sz $r TESSEL_STAGGER=1 -- $v
  done
done
tr base single 4096 3 X=1 -- --trans t --verify; tr stagown single 4096 3 TESSEL_STAGGER=1 TESSEL_STAGGER_OWN=1 -- --trans t --verify
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/t_*.csv')):
    b = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!' + r['status']))
for b in sorted(t, key=lambda b: (b.split('_')[0], int(b.rsplit('_', 1)[1]), b)): print('%-26s %s' % (b, ' '.join(t[b])))
PY
head -5 $O/err.txt
for x in "stag TESSEL_STAGGER=1" "stagown TESSEL_STAGGER_OWN=1"; do
  set -- $x; TESSEL_STAGGER=1 env $2 TESSEL_TRACE=3 $t blas3 --op trsm --size 4096 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_$1.err
  python3 .lead/s10/tl.py $O/trace_$1.err > $O/tl_$1.txt 2>&1
done
for x in stag stagown; do echo "== $x"; sed -n 6,30p $O/tl_$x.txt | cut -c1-60; done
cd $OUT && tar czf res.tgz r9 && rm -rf r9
