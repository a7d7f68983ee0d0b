#!/bin/bash
# session 7 experiment 13: the inverses beside the first steps, queued after the first update
O=/tmp/w13; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
( cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > /dev/null && cmake --build build-gt -j 16 --target test_level3 > /dev/null ) 2>&1 | grep -v Warn | tail -3
for st in 1 2 4; do for v in inverse_leaf; do for k in 1 2; do
  TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 0 $v auto auto 0 $st > $O/test_${v}_$st.txt 2>&1; echo "test_level3 trsm $v streams $st: rc=$? $(tail -1 $O/test_${v}_$st.txt)"
done; done; done
c="--device nvidia"
R() { local tag=$1; shift; echo "$tag: $*" >> $O/commands.txt; timeout 200 $t "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
for pr in single double; do
  R ${pr}_gemm4096 gemm --size 4096 --precision $pr
  R ${pr}_gemm8192 gemm --size 8192 --precision $pr
  R ${pr}_trsm4096_def blas3 --op trsm -m 4096 -n 4096 --precision $pr --verify
  R ${pr}_trsm8192_def blas3 --op trsm -m 8192 -n 8192 --precision $pr
  for st in 1 2 4; do
    R ${pr}_trsm4096_s$st blas3 --op trsm -m 4096 -n 4096 --precision $pr --streams $st
    R ${pr}_trsm4096r_s$st blas3 --op trsm -m 4096 -n 4096 --precision $pr --side right --uplo upper --trans t --streams $st
    R ${pr}_trsm8192_s$st blas3 --op trsm -m 8192 -n 8192 --precision $pr --streams $st
  done
  R ${pr}_trsm4096_s1b blas3 --op trsm -m 4096 -n 4096 --precision $pr --streams 1
  R ${pr}_trsm4096_s2b blas3 --op trsm -m 4096 -n 4096 --precision $pr --streams 2
  TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 --precision $pr --streams 2 > /dev/null 2> $O/trace_${pr}_s2.err; TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 --precision $pr --streams 1 > /dev/null 2> $O/trace_${pr}_s1.err
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os
O=sys.argv[1]
for f in sorted(glob.glob(O+'/r_*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-24s %-12s %8.4f ms %8.0f GF %s %s"%(os.path.basename(f)[2:-4], r.get('variant','')[:12], float(r['kernel_ms']), float(r['gflops']), r.get('max_rel_err',''), r['status']))
PY
grep " us " $O/trace_double_s2.err | tail -18 | cut -c16-150; grep " us " $O/trace_single_s2.err | tail -18 | cut -c16-150
cd /tmp && tar czf $OUT/res.tgz w13
