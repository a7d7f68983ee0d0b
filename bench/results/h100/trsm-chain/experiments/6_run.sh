#!/bin/bash
# session 11 call 6: inv64_block in blocks of 16 and two doubling levels (against b9eacf8)
O=$OUT/r6; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
( cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 8 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log ) &
( rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .lead/s11/base.tgz -C /tmp/old &&
  cmake -S /tmp/old -B /tmp/old/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 &&
  cmake --build /tmp/old/b -j 6 --target tessel_cli > $O/build-old.log 2>&1 || tail -5 $O/build-old.log ) &
source bench/scripts/lib.sh $O > /dev/null
wait
old() { echo "OLD tessel $*" >> $O/commands.txt; TESSEL_CACHE_DIR=/tmp/old/kc timeout 200 /tmp/old/b/tessel "$@" 2>&1 | grep -vE '^\s*$'; }
c="--device nvidia --repeat 10 --warmup 2"
{ TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 0 inverse 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 256 inverse_leaf auto auto 0 2 4096 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 128 inverse_leaf auto auto 0 1 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 64 inverse_leaf auto auto 64 2 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 64 inverse_leaf auto auto 16 3 2>&1 | tail -1; } > $O/test_gpu.txt 2>&1
cat $O/test_gpu.txt
for p in single double; do for n in 1000 2000 4096; do
  run blas3 --op trsm -m $n -n $n --precision $p --device nvidia --repeat 2 --warmup 1 --verify --csv $O/v_${p}_$n.csv > /dev/null
  run blas3 --op trsm -m $n -n $n --side right --uplo upper --trans t --diag unit --precision $p --device nvidia --repeat 2 --warmup 1 --verify --csv $O/v_${p}_${n}_rutu.csv > /dev/null
done; done
for p in single double; do for n in 1000 2000 4096 8192; do run gemm --size $n --precision $p $c --csv $O/g_${p}_$n.csv > /dev/null; done; done
for rep in 1 2; do for p in single double; do
  for n in 512 1000 2000 3000 4096 8192; do
    old blas3 --op trsm -m $n -n $n --precision $p $c --csv $O/t_${p}_${n}_old_$rep.csv > /dev/null
    run blas3 --op trsm -m $n -n $n --precision $p $c --csv $O/t_${p}_${n}_new_$rep.csv > /dev/null
  done
  x="--side right --uplo upper --trans t"
  old blas3 --op trsm -m 4096 -n 4096 $x --precision $p $c --csv $O/t_${p}_4096rut_old_$rep.csv > /dev/null
  run blas3 --op trsm -m 4096 -n 4096 $x --precision $p $c --csv $O/t_${p}_4096rut_new_$rep.csv > /dev/null
  old blas3 --op trsm -m 4096 -n 4096 --streams 4 --precision $p $c --csv $O/t_${p}_4096s4_old_$rep.csv > /dev/null
  run blas3 --op trsm -m 4096 -n 4096 --streams 4 --precision $p $c --csv $O/t_${p}_4096s4_new_$rep.csv > /dev/null
done; done
TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace3_single_4096.err
TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision double --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace3_double_4096.err
TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision single --inv-fuse 64 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace3_single_4096_f64.err
TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision double --inv-fuse 64 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace3_double_4096_f64.err
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/[gtv]_*.csv')):
    b = os.path.basename(f)[:-4]
    if b.startswith('t_'): b = b.rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!' + r['status'], (' err ' + r['max_rel_err']) if b.startswith('v_') else ''))
for b in sorted(t): print('%-28s %s' % (b, ' '.join(t[b])))
PY
for f in $O/trace3_*.err; do python3 .lead/s10/tl.py $f > ${f%.err}.tl.txt 2>&1; head -3 ${f%.err}.tl.txt; done
cd $OUT && tar czf res.tgz r6 && rm -rf r6
