#!/bin/bash
# session 10 call 7: the other blocks' levels beside the first steps (e60c575) against 27cb688
# (ragged tail only); the first leaf's copy beside the fused launch (patched); GPU tests
O=$OUT/r7; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
( mkdir -p /tmp/old && tar xzf .lead/s10/base7.tgz -C /tmp/old &&
  cmake -S /tmp/old -B /tmp/old/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 &&
  cmake --build /tmp/old/b -j 6 --target tessel_cli > $O/build-old.log 2>&1 || tail -5 $O/build-old.log ) &
( cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 6 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log ) &
( patched_tree /tmp/early src/ops/level3_inv.c $'    if (top)\n        s = inv_fused(ctx, kf, args, ka, top, t_off);' $'    if (beside) s = beside_copy(ctx, p, beside, &forked);\n    if (s == TSL_OK && top)\n        s = inv_fused(ctx, kf, args, ka, top, t_off);' > $O/patch.log 2>&1 ) &
wait; cat $O/patch.log
old=/tmp/old/b/tessel; early=/tmp/early/b/tessel
c="--device nvidia --repeat 10 --warmup 2"
cases=("1500 1500" "2000 2000" "2048 2048" "3000 3000" "4000 4000" "4096 4096" "3000 2000 --uplo upper" "3000 2000 --side right --uplo upper")
for rep in 1 2; do for p in single double; do for cs in "${cases[@]}"; do
  set -- $cs; m=$1; n=$2; shift 2; tag=$(echo "${m}x${n}$*" | tr -d ' -')
  TESSEL_CACHE_DIR=/tmp/old/kc timeout 200 $old blas3 --op trsm -m $m -n $n $* --precision $p $c --csv $O/t_${p}_${tag}_a-old_$rep.csv > /dev/null 2>&1
  run blas3 --op trsm -m $m -n $n $* --precision $p $c $([ $rep = 1 ] && echo --verify) --csv $O/t_${p}_${tag}_b-new_$rep.csv > /dev/null
  TESSEL_CACHE_DIR=/tmp/early/kc timeout 200 $early blas3 --op trsm -m $m -n $n $* --precision $p $c --csv $O/t_${p}_${tag}_c-early_$rep.csv > /dev/null 2>&1
done; done; done
for p in single double; do
  TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision $p --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace3_${p}_new.err
  TESSEL_CACHE_DIR=/tmp/early/kc TESSEL_TRACE=3 $early blas3 --op trsm -m 4096 -n 4096 --precision $p --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace3_${p}_early.err
done
TESSEL_TRACE=3 $t blas3 --op trsm -m 4000 -n 4000 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace3_single_4000_new.err
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/t_*.csv')):
    b = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!'))
for b in sorted(t): print('%-40s %s' % (b, ' '.join(t[b])))
PY
{ for st in 1 2 3 4; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 0 auto auto auto 0 $st 2>&1 | tail -1; done
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 64 inverse_leaf auto auto 16 1 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 64 inverse_leaf auto auto 16 2 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 96 inverse_leaf auto auto 12 4 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 128 inverse_leaf auto auto 16 3 2>&1 | tail -1; } > $O/test_gpu.txt 2>&1
cat $O/test_gpu.txt
cd $OUT && tar czf res.tgz r7 && rm -rf r7
