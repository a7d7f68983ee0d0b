#!/bin/bash
# session 10 call 1: where TRSM's time goes at 1000 / 2048 / 4096 (traces), the fused inverses'
# reach (--inv-fuse), and the level-3 and drop-in suites (reference BLAS testers, reference
# LAPACK, numpy) on the GPU with auto TRSM = inverse_leaf
O=$OUT/r1; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
( cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 12 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log ) &
c="--device nvidia --repeat 10 --warmup 2"
for p in single double; do for n in 1000 2048 4096; do
  TESSEL_TRACE=2 $t blas3 --op trsm -m $n -n $n --precision $p --device nvidia --repeat 1 --warmup 1 > $O/tr_${p}_$n.txt 2> $O/trace_${p}_$n.err
done; done
for p in single double; do for n in 512 1000 2048 4096; do
  run gemm --size $n --precision $p $c --csv $O/g_${p}_${n}.csv > /dev/null
  for f in 0 128 256 512 1024; do
    run blas3 --op trsm -m $n -n $n --inv-fuse $f --precision $p $c --verify --csv $O/f_${p}_${n}_$f.csv > /dev/null
  done
done; done
wait
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
for f in sorted(glob.glob(O + '/[gf]_*.csv')):
    for r in csv.DictReader(open(f)):
        print('%-26s %9.3f ms %9.1f GF %s %s' % (os.path.basename(f)[:-4], float(r['kernel_ms']), float(r['gflops']), r['max_rel_err'], r['status']))
PY
cd build-gt && TESSEL_CACHE_DIR=$PWD/gpu-test-cache timeout 420 ctest -j 6 -R "lib_level3|dropin_lapack|dropin_numpy|xblat3|dropin_cblas_device" --timeout 300 > $O/ctest.txt 2>&1; tail -15 $O/ctest.txt
cd $OUT && tar czf res.tgz r1 && rm -rf r1
