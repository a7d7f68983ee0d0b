#!/bin/bash
# session 8 step 8: the parts' balance. alt: the parts given each step in turn, first part
# alternating (part 1 first at odd steps); s55: part 0 55% of the columns; both; beside the tree
O=$OUT/r8; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
export OPENBLAS_CORETYPE=Cooperlake
source bench/scripts/lib.sh $O > /dev/null
F=src/ops/level3_leaf.c
ALT_A='        for (size_t i = 0; s == TSL_OK && i < parts; ++i) {
            if (q[i].m == 0 || q[i].n == 0) continue;'
ALT_B='        for (size_t ii = 0; s == TSL_OK && ii < parts; ++ii) {
            size_t i = t % 2 ? parts - 1 - ii : ii;
            if (q[i].m == 0 || q[i].n == 0) continue;'
S_A='    size_t step = tsl__l3_round_up((other + parts - 1) / parts, 32);'
S_B='    size_t step = parts == 2 ? tsl__l3_round_up(other * 55 / 100, 32) : tsl__l3_round_up((other + parts - 1) / parts, 32);'
S_C='    size_t step = parts == 2 ? tsl__l3_round_up(other * 45 / 100, 32) : tsl__l3_round_up((other + parts - 1) / parts, 32);'
patched_tree /tmp/alt $F "$ALT_A" "$ALT_B" || echo alt failed
patched_tree /tmp/s55 $F "$S_A" "$S_B" || echo s55 failed
patched_tree /tmp/s45 $F "$S_A" "$S_C" || echo s45 failed
patched_tree /tmp/alt55 $F "$ALT_A" "$ALT_B" && python3 - "$S_A" "$S_B" <<'PY' && cmake --build /tmp/alt55/b -j 16 --target tessel_cli > /dev/null 2>&1 || echo alt55 failed
import sys
p='/tmp/alt55/src/ops/level3_leaf.c'; s=open(p).read(); s=s.replace(sys.argv[1], sys.argv[2]); open(p,'w').write(s)
PY
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2; do
for pr in single double; do
  run gemm --precision $pr --size 4096 $c --csv $O/gemm_${pr}_$rep.csv > /dev/null
  run blas3 --op trsm -m 4096 -n 4096 --precision $pr $c --csv $O/base_${pr}_$rep.csv > /dev/null
  for v in alt s55 s45 alt55; do
    v2=; [ $rep = 1 ] && v2=--verify
    TESSEL_CACHE_DIR=/tmp/$v/kc /tmp/$v/b/tessel blas3 --op trsm -m 4096 -n 4096 --precision $pr $c $v2 --csv $O/${v}_${pr}_$rep.csv > /dev/null 2>&1
  done
done
done
for pr in single double; do for v in alt s55; do TESSEL_CACHE_DIR=/tmp/$v/kc TESSEL_TRACE=3 /tmp/$v/b/tessel blas3 --op trsm -m 4096 -n 4096 --precision $pr --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${v}_${pr}.err; done; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-24s %-7s %8.3f ms %s %s" % (os.path.basename(f)[:-4], r['precision'], float(r['kernel_ms']), r.get('max_rel_err', ''), r['status']))
PY
cd $OUT && tar czf res.tgz r8 && rm -rf r8
