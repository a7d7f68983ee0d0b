#!/bin/bash
# session 8 step 10: the first leaf's copy beside the last doubling level (BESIDE_LAST 1) against
# beside the levels after the first launch (the tree)
O=$OUT/r12; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
export OPENBLAS_CORETYPE=Cooperlake
source bench/scripts/lib.sh $O > /dev/null
patched_tree /tmp/last src/ops/level3_inv.c '#define BESIDE_LAST 0' '#define BESIDE_LAST 1' || echo last failed
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2 3; do for pr in single double; do
  run gemm --precision $pr --size 4096 $c --csv $O/gemm_${pr}_$rep.csv > /dev/null
  v=; [ $rep = 1 ] && v=--verify
  run blas3 --op trsm -m 4096 -n 4096 --precision $pr $c $v --csv $O/base_${pr}_$rep.csv > /dev/null
  TESSEL_CACHE_DIR=/tmp/last/kc /tmp/last/b/tessel blas3 --op trsm -m 4096 -n 4096 --precision $pr $c $v --csv $O/last_${pr}_$rep.csv > /dev/null 2>&1
done; done
for pr in single double; do TESSEL_CACHE_DIR=/tmp/last/kc TESSEL_TRACE=3 /tmp/last/b/tessel blas3 --op trsm -m 4096 -n 4096 --precision $pr --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_last_${pr}.err; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-24s %-7s %8.3f ms %s %s" % (os.path.basename(f)[:-4], r['precision'], float(r['kernel_ms']), r.get('max_rel_err', ''), r['status']))
PY
for pr in single double; do awk '/ upload /{n=NR} {a[NR]=$0} END{for(i=n+1;i<=n+8;i++) print a[i]}' $O/trace_last_${pr}.err | cut -c1-110; done
cd $OUT && tar czf res.tgz r12 && rm -rf r12
