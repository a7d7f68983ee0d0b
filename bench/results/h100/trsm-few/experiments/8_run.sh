#!/bin/bash
# session 10 call 8: the first leaf's copy beside the fused launch (HEAD) against after it (HEAD~1)
O=$OUT/r8; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
( mkdir -p /tmp/old && tar xzf .lead/s10/base8.tgz -C /tmp/old &&
  cmake -S /tmp/old -B /tmp/old/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 &&
  cmake --build /tmp/old/b -j 16 --target tessel_cli > $O/build-old.log 2>&1 || tail -5 $O/build-old.log )
old=/tmp/old/b/tessel
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2 3; do for p in single double; do for n in 2048 3000 4000 4096; do
  TESSEL_CACHE_DIR=/tmp/old/kc timeout 200 $old blas3 --op trsm -m $n -n $n --precision $p $c --csv $O/t_${p}_${n}_a-old_$rep.csv > /dev/null 2>&1
  run blas3 --op trsm -m $n -n $n --precision $p $c $([ $rep = 1 ] && echo --verify) --csv $O/t_${p}_${n}_b-new_$rep.csv > /dev/null
done; done; done
for p in single double; do TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision $p --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace3_${p}_new.err; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/t_*.csv')):
    b = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!'))
for b in sorted(t): print('%-30s %s' % (b, ' '.join(t[b])))
PY
cd $OUT && tar czf res.tgz r8 && rm -rf r8
