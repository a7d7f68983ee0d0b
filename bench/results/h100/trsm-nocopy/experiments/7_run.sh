#!/bin/bash
# session 8 step 7: the first leaf's copy after the first inverse launch (side queue)
O=$OUT/r7; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
export OPENBLAS_CORETYPE=Cooperlake
source bench/scripts/lib.sh $O > /dev/null
{ cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 16 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
  for st in 1 2 4; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 0 inverse_leaf auto auto 0 $st 2>&1 | tail -1; done
  for b in 128 256; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm $b inverse_leaf auto auto 0 2 2>&1 | tail -1; done
} > $O/test_gpu.txt 2>&1
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2; do
for pr in single double; do
  run gemm --precision $pr --size 4096 $c --csv $O/gemm_${pr}_4096_$rep.csv > /dev/null
  for f in 64 128 256; do
    v=; [ $rep = 1 ] && v=--verify
    run blas3 --op trsm -m 4096 -n 4096 --precision $pr $c $v --inv-fuse $f --csv $O/trsm_${pr}_4096_f${f}_$rep.csv > /dev/null
  done
done
done
for pr in single double; do
  for f in 64 128; do
    run blas3 --op trsm -m 4096 -n 4096 --side right --uplo upper --trans t --precision $pr $c --verify --inv-fuse $f --csv $O/case_${pr}_rut_f$f.csv > /dev/null
    run blas3 --op trsm -m 8192 -n 8192 --precision $pr $c --verify --inv-fuse $f --csv $O/trsm_${pr}_8192_f$f.csv > /dev/null
  done
  for f in 64 128; do TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision $pr --device nvidia --repeat 1 --warmup 1 --inv-fuse $f > /dev/null 2> $O/trace_${pr}_4096_f$f.err; done
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
g, rows = {}, []
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        rows.append((os.path.basename(f)[:-4], r))
        if os.path.basename(f).startswith('gemm_') and r['variant'] == 'auto':
            g[(r['precision'], r['m'])] = float(r['gflops'])
for name, r in rows:
    ref = g.get((r['precision'], r['m'])) if r['m'] == r['n'] else None
    x = "x%.3f" % (float(r['gflops']) / ref) if ref and r['status'] == 'ok' else ''
    print("%-26s %-12s %-7s %5sx%-5s %8.3f ms %6.2f TF %-7s %-10s %s" % (name, r['variant'][:12], r['precision'], r['m'], r['n'], float(r['kernel_ms']), float(r['gflops']) / 1e3, x, r.get('max_rel_err', r.get('rel_err','')), r['status']))
PY
cat $O/test_gpu.txt
for f in $O/trace_*.err; do echo $f; grep -E "l3_copy|inverses" $f | tail -3 | cut -c1-120; done
cd $OUT && tar czf res.tgz r7 && rm -rf r7
