#!/bin/bash
# session 8 step 1: l3_tri_inv_fused (the inverses in one launch) on the GPU: tests, verify, time
O=$OUT/r1; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
export OPENBLAS_CORETYPE=Cooperlake
source bench/scripts/lib.sh $O > /dev/null
{ cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 16 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
  for b in 128 256 512; do for st in 1 2; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm $b inverse_leaf auto auto 0 $st 2>&1 | tail -1; done; done
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 256 inverse_leaf auto auto 0 1 64 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 2>&1 | tail -1
} > $O/test_gpu.txt 2>&1
c="--device nvidia --repeat 10 --warmup 2"
for pr in single double; do
  for n in 4096 8192; do
    run gemm --precision $pr --size $n $c --csv $O/gemm_${pr}_$n.csv > /dev/null
    for f in 64 256 512 4096; do
      v=; [ $f = 4096 ] && v=--verify
      run blas3 --op trsm -m $n -n $n --precision $pr $c $v --inv-fuse $f --csv $O/trsm_${pr}_${n}_f$f.csv > /dev/null
    done
  done
  run blas3 --op trsm -m 4000 -n 3000 --variant inverse_leaf --precision $pr $c --verify --csv $O/ragged_${pr}.csv > /dev/null
  run blas3 --op trsm -m 4096 -n 4096 --side right --uplo upper --trans t --precision $pr $c --verify --csv $O/case_${pr}_rut.csv > /dev/null
  run blas3 --op trsm -m 4096 -n 4096 --side right --uplo upper --trans t --precision $pr $c --inv-fuse 64 --csv $O/case_${pr}_rut_f64.csv > /dev/null
  TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision $pr --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${pr}_4096.err
done
dump_ptx l3_tri_inv_fused
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
for pr in single double; do grep -E "inverses|batched" $O/trace_${pr}_4096.err | tail -4; done
grep -A3 "l3_tri_inv_fused" $O/ptx/index.txt 2>/dev/null | head; grep -c "membar\|ld.volatile" $O/ptx/*.ptx 2>/dev/null | head
cd $OUT && tar czf res.tgz r1 && rm -rf r1
