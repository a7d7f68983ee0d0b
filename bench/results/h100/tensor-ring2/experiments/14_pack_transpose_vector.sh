#!/usr/bin/env bash
# gemm_pack's transposed path as vectors on both sides for whole tiles, against HEAD
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .lead/head.tgz -C /tmp/old
(cmake -S /tmp/old -B /tmp/old/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /tmp/old.log 2>&1 && cmake --build /tmp/old/b -j 16 --target tessel_cli >> /tmp/old.log 2>&1) || { echo OLD BUILD FAILED; tail -5 /tmp/old.log; }
old="env TESSEL_CACHE_DIR=/tmp/old/kc /tmp/old/b/tessel"
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2; do
  for n in 4096 8192; do
    p=; [ $rep = 1 ] && p="--verify --peers cublas"
    run gemm --math tf32 --size $n $c $p --csv $O/tf_${n}_new_$rep.csv > /dev/null
    $old gemm --math tf32 --size $n $c --csv $O/tf_${n}_old_$rep.csv > /dev/null 2>&1
  done
  v=; [ $rep = 1 ] && v="--peers clblast"
  run blas3 --op syrk -n 8192 -k 8192 $c --beta 0.5 $v --csv $O/syrk_8192_new_$rep.csv > /dev/null
  $old blas3 --op syrk -n 8192 -k 8192 $c --beta 0.5 --csv $O/syrk_8192_old_$rep.csv > /dev/null 2>&1
  run gemm --size 8192 --transb t $c --csv $O/sNT_8192_new_$rep.csv > /dev/null
  $old gemm --size 8192 --transb t $c --csv $O/sNT_8192_old_$rep.csv > /dev/null 2>&1
done
TESSEL_TRACE=2 $t gemm --math tf32 --size 4096 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/tf32_4096_trace.err
cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 && cmake --build build-gt -j 16 --target test_tensor test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
{ for k in tf32 half; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_tensor $k 2>&1 | tail -1; done
  for r in syrk trmm; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 $r 16 auto 2>&1 | tail -1; done; } > $O/test_gpu.txt 2>&1
cat $O/test_gpu.txt
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-24s %-8s %8.2f %s %s" % (os.path.basename(f)[:-4], r['variant'][:8], float(r['gflops'] or 0)/1000, r.get('max_rel_err',''), r['status']))
PY
grep -h "us " $O/tf32_4096_trace.err | tail -4
