#!/bin/bash
# session 13 call 5: leaves paired by SM (TSL_X_PAIR: each SM's first group the heaviest tile
# left, its second the lightest), on 128 x 128 tiles (TSL_X_OWN=0 TSL_X_LEAFCLASS=small) or the few class
O=$OUT/r5; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
L="TSL_X_OWN=0 TSL_X_LEAFCLASS=small"
declare -A V=([B]="" [F]="TSL_X_PAIR=1" [C]="$L" [P]="$L TSL_X_PAIR=1")
for r in 1 2; do
  for v in B F C P; do
    for st in 2 1; do
      env ${V[$v]} $t blas3 --op trsm --size 4096 --precision single --streams $st $c $([ $r = 1 ] && echo --verify) --csv $O/trsm_${v}_s${st}_$r.csv > /dev/null 2>&1
    done
    env ${V[$v]} $t blas3 --op trmm -m 1024 -n 4096 --precision single $c --csv $O/trmm1k_${v}_$r.csv > /dev/null 2>&1
    env ${V[$v]} $t blas3 --op trmm -m 1024 -n 2048 --precision single $c --csv $O/trmm1k2k_${v}_$r.csv > /dev/null 2>&1
    env ${V[$v]} $t blas3 --op trmm --size 4096 --precision single $c --csv $O/trmm4k_${v}_$r.csv > /dev/null 2>&1
  done
  for v in B F; do env ${V[$v]} $t blas3 --op trsm --size 8192 --precision single $c --csv $O/trsm8k_${v}_$r.csv > /dev/null 2>&1; done
done
for v in B C P; do
  env ${V[$v]} TESSEL_TRACE=3 $t blas3 --op trmm -m 1024 -n 4096 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_trmm1k_$v.err
  for st in 2 1; do
    env ${V[$v]} TESSEL_TRACE=3 $t blas3 --op trsm --size 4096 --precision single --streams $st --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${v}_s$st.err
    python3 .lead/s10/tl.py $O/trace_${v}_s$st.err > $O/tl_${v}_s$st.txt 2>&1
  done
done
run gemm --size 4096 --precision single $c --csv $O/gemm.csv > /dev/null
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/tr*_[12].csv')):
    key = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[key].append('%s%s' % (r['kernel_ms'], '' if r['status'] == 'ok' else '!' + r['status']))
for k in sorted(t): print('%-16s %s' % (k, ' '.join(t[k])))
for r in csv.DictReader(open(O + '/gemm.csv')): print('gemm', r['variant'], r['kernel_ms'])
PY
for v in B C P; do echo "== trmm1k $v"; grep -i "tiled2d" $O/trace_trmm1k_$v.err | tail -1 | cut -c1-120; done
for f in tl_P_s1 tl_P_s2; do echo "== $f"; cut -c1-100 $O/$f.txt; done
cd $OUT && tar czf res.tgz r5 && rm -rf r5
