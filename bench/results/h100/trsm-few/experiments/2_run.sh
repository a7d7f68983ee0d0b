#!/bin/bash
# session 10 call 2: split k under TRSM's CIN updates, A/B against the tree before (1cf278b), at
# the sizes users call; blocks and parts with it; GPU tests of the level-3 suite
O=$OUT/r2; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
( mkdir -p /tmp/old && tar xzf .lead/s10/base.tgz -C /tmp/old &&
  cmake -S /tmp/old -B /tmp/old/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 &&
  cmake --build /tmp/old/b -j 8 --target tessel_cli > $O/build-old.log 2>&1 || tail -5 $O/build-old.log ) &
( cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 8 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log ) &
wait
old=/tmp/old/b/tessel
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2; do
for p in single double; do
  for n in 512 1000 1500 2000 2048 3000 4000 4096; do
    [ $rep = 1 ] && run gemm --size $n --precision $p $c --csv $O/g_${p}_${n}.csv > /dev/null
    TESSEL_CACHE_DIR=/tmp/old/kc timeout 200 $old blas3 --op trsm -m $n -n $n --precision $p $c --csv $O/t_${p}_${n}_old_$rep.csv > /dev/null 2>&1
    run blas3 --op trsm -m $n -n $n --precision $p $c $([ $rep = 1 ] && echo --verify) --csv $O/t_${p}_${n}_new_$rep.csv > /dev/null
  done
  TESSEL_CACHE_DIR=/tmp/old/kc timeout 200 $old blas3 --op trsm -m 3000 -n 2000 --side right --uplo upper --trans t --precision $p $c --csv $O/t_${p}_3000x2000rut_old_$rep.csv > /dev/null 2>&1
  run blas3 --op trsm -m 3000 -n 2000 --side right --uplo upper --trans t --precision $p $c --verify --csv $O/t_${p}_3000x2000rut_new_$rep.csv > /dev/null
done
done
# parts and blocks with split k possible in one part
for p in single double; do
  for n in 2000 3000 4000; do for st in 1 2; do
    run blas3 --op trsm -m $n -n $n --streams $st --precision $p $c --csv $O/s_${p}_${n}_s$st.csv > /dev/null
  done; done
  for n in 1000 1500 2000 2048; do for b in 256 512 1024; do
    run blas3 --op trsm -m $n -n $n --block $b --precision $p $c --csv $O/b_${p}_${n}_b$b.csv > /dev/null
  done; done
done
for p in single double; do for n in 1000 2048; do
  TESSEL_TRACE=2 $t blas3 --op trsm -m $n -n $n --precision $p --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${p}_$n.err
done; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/*.csv')):
    b = os.path.basename(f)[:-4]
    if b.startswith('t_'): b = b.rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!'))
for b in sorted(t): print('%-30s %s' % (b, ' '.join(t[b])))
PY
{ TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 0 auto auto auto 0 1 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 0 auto auto auto 0 2 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trmm 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 symm 2>&1 | tail -1; } > $O/test_gpu.txt 2>&1
cat $O/test_gpu.txt
cd $OUT && tar czf res.tgz r2 && rm -rf r2
