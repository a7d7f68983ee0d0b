#!/bin/bash
# session 12 call 6: which of TRSM's leaves should skip the few class (TESSEL_LEAF_ANY = their blocks; experiment)
O=$OUT/r6; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
tr() { # tag size round mask [extra]
  local tag=$1 sz=$2 r=$3 la=$4; shift 4
  TESSEL_LEAF_ANY=$la $t blas3 --op trsm --size $sz --precision single $c "$@" --csv $O/t_${tag}_${sz}_$r.csv > /dev/null 2>>$O/err.txt
}
for r in 1 2; do
  v=""; [ $r = 1 ] && v=--verify
  tr base 8192 $r x $v; tr mid 8192 $r 123456 $v; tr all 8192 $r 01234567 $v; tr no0 8192 $r 1234567 $v; tr no7 8192 $r 0123456 $v
  tr baseRU 8192 $r x --side right --uplo upper $v; tr midRU 8192 $r 123456 --side right --uplo upper $v; tr allRU 8192 $r 01234567 --side right --uplo upper $v
  tr baseLT 8192 $r x --trans t $v; tr allLT 8192 $r 01234567 --trans t $v
  tr base 6000 $r x $v; tr mid 6000 $r 1234 $v; tr all 6000 $r 012345 $v
  tr base 7000 $r x $v; tr mid 7000 $r 12345 $v; tr all 7000 $r 0123456 $v
  tr base 5000 $r x $v; tr mid 5000 $r 123 $v; tr all 5000 $r 01234 $v
  tr base 4096 $r x $v; tr all 4096 $r 0123 $v
  tr base 8192x4096 $r x -m 8192 -n 4096 $v; tr all 8192x4096 $r 01234567 -m 8192 -n 4096 $v
  tr base 4096x8192 $r x -m 4096 -n 8192 $v; tr all 4096x8192 $r 0123 -m 4096 -n 8192 $v
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/t_*.csv')):
    b = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!' + r['status']))
for b in sorted(t, key=lambda b: (b.split('_')[1], b)): print('%-22s %s' % (b, ' '.join(t[b])))
PY
head -5 $O/err.txt
cd $OUT && tar czf res.tgz r6 && rm -rf r6
