#!/bin/bash
# session 9 step 6: small triangles (inverse_rec against inverse_leaf), and the new auto (inverse_leaf
# below 4096, blocks 256 / 512 / 1024) verified on ragged shapes, sides and layouts
O=$OUT/r6; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
export OPENBLAS_CORETYPE=Cooperlake
source bench/scripts/lib.sh $O > /dev/null
( cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 16 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log ) &
c="--device nvidia --repeat 20 --warmup 3"
for p in single double; do
  for s in 64 128 256 512 768 1000; do
    run gemm --size $s --precision $p $c --csv $O/gemm_${p}_$s.csv > /dev/null
    for rep in 1 2; do
      run blas3 --op trsm --size $s --precision $p $c --variant inverse_rec --csv $O/rec${rep}_${p}_$s.csv > /dev/null
      run blas3 --op trsm --size $s --precision $p $c --variant inverse_leaf --csv $O/leaf${rep}_${p}_$s.csv > /dev/null
    done
  done
  for s in 1500 2000 3000 4000 4096; do
    run gemm --size $s --precision $p $c --csv $O/gemm_${p}_$s.csv > /dev/null
    run blas3 --op trsm --size $s --precision $p $c --verify --csv $O/auto_${p}_$s.csv > /dev/null
  done
  run blas3 --op trsm -m 4000 -n 3000 --precision $p $c --verify --csv $O/case_${p}_4000x3000.csv > /dev/null
  run blas3 --op trsm -m 3000 -n 2000 --side right --uplo upper --trans t --precision $p $c --verify --csv $O/case_${p}_rut.csv > /dev/null
  run blas3 --op trsm -m 2000 -n 1500 --uplo upper --diag unit --layout col --precision $p $c --verify --csv $O/case_${p}_upcol.csv > /dev/null
  run blas3 --op trsm -m 777 -n 1234 --side right --trans t --alpha 0.5 --precision $p $c --verify --csv $O/case_${p}_777.csv > /dev/null
done
wait
{ TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 0 auto auto auto 0 2 2>&1 | tail -1
} > $O/test_gpu.txt 2>&1
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
d = {}
for f in glob.glob(O + '/*.csv'):
    for r in csv.DictReader(open(f)):
        d[os.path.basename(f)[:-4]] = (float(r['kernel_ms']), r['status'], r.get('max_rel_err', ''))
for p in ('single', 'double'):
    for s in (64, 128, 256, 512, 768, 1000, 1500, 2000, 3000, 4000, 4096):
        g = d.get('gemm_%s_%d' % (p, s))
        cells = []
        for k in ('rec1', 'rec2', 'leaf1', 'leaf2', 'auto'):
            v = d.get('%s_%s_%d' % (k, p, s))
            if v: cells.append('%s %.4f (%.2fx) %s' % (k, v[0], g[0] / (2 * v[0]) if g else 0, v[1]))
        print('%s %5d gemm %.4f  %s' % (p, s, g[0] if g else 0, '  '.join(cells)))
for k in sorted(d):
    if k.startswith('case'): print(k, d[k])
PY
cat $O/test_gpu.txt
cd $OUT && tar czf res.tgz r6 && rm -rf r6
