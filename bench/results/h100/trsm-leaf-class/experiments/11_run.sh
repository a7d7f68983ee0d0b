#!/bin/bash
# session 12 call 12: a batch of one (the ragged last block's doubling pairs) in the triangle mode, not as a dense
# GEMM: HEAD (6908d6a) against the tree, TRSM at ragged sizes, both precisions, two interleaved rounds
O=$OUT/r12; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
base_tree .lead/s12/base12.tgz
for r in 1 2; do
  for pr in single double; do
    for cs in "1000|--size 1000" "1500|--size 1500" "2000|--size 2000" "3000|--size 3000" "4000|--size 4000" "5000|--size 5000" "6000|--size 6000" "7000|--size 7000" "4096|--size 4096" "3000_right_upper_t|--size 3000 --side right --uplo upper --trans t"; do
      tag=${cs%%|*} args=${cs#*|}
      v=$([ $r = 1 ] && echo --verify)
      TESSEL_CACHE_DIR=/tmp/base/kc /tmp/base/b/tessel blas3 --op trsm $args --precision $pr $c --csv $O/base_${pr}_${tag}_$r.csv > /dev/null 2>&1
      run blas3 --op trsm $args --precision $pr $c $v --csv $O/new_${pr}_${tag}_$r.csv > /dev/null
    done
  done
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/[bn]*_*_*_[12].csv')):
    who, pr, rest = os.path.basename(f)[:-4].split('_', 2)
    tag = rest.rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        if r['variant'].startswith('auto'):
            t[(pr, tag, who)].append((float(r['kernel_ms']), r['status'], r.get('max_rel_err', '')))
print('# TRSM (auto), ms per round: HEAD 6908d6a -> the tree (a batch of one in the triangle mode)')
for (pr, tag) in sorted({(k[0], k[1]) for k in t}, key=lambda x: (x[0], x[1])):
    b, n = t.get((pr, tag, 'base'), []), t.get((pr, tag, 'new'), [])
    if not b or not n: continue
    print('%-7s %-20s %-15s %-15s %6.3f %s %s' % (pr, tag, ' '.join('%.3f' % x[0] for x in b), ' '.join('%.3f' % x[0] for x in n), min(x[0] for x in n) / min(x[0] for x in b), n[0][2], n[0][1]))
PY
TESSEL_TRACE=3 $t blas3 --op trsm --size 4000 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_new_4000.err
TESSEL_CACHE_DIR=/tmp/base/kc TESSEL_TRACE=3 /tmp/base/b/tessel blas3 --op trsm --size 4000 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_base_4000.err
for x in new base; do python3 .lead/s10/tl.py $O/trace_${x}_4000.err > $O/tl_${x}_4000.txt 2>&1; done
head -14 $O/tl_new_4000.txt | cut -c1-90; head -14 $O/tl_base_4000.txt | cut -c1-90
cd $OUT && tar czf res.tgz r12 && rm -rf r12
