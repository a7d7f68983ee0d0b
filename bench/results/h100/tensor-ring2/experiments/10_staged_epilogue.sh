#!/usr/bin/env bash
# 16-bit epilogue staged through local memory (16-byte stores) against HEAD (paired 32-bit stores).
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .lead/head.tgz -C /tmp/old
(cmake -S /tmp/old -B /tmp/old/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /tmp/old.log 2>&1 && cmake --build /tmp/old/b -j 16 --target tessel_cli >> /tmp/old.log 2>&1) || { echo OLD BUILD FAILED; tail -5 /tmp/old.log; }
old="env TESSEL_CACHE_DIR=/tmp/old/kc /tmp/old/b/tessel"
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2; do
for p in half bfloat16; do
  for s in 4096x4096x4096 8192x8192x8192 4096x4096x256 4096x4096x128 8192x8192x256 8192x128x8192; do
    IFS=x read m n k <<< "$s"
    v=; [ $rep = 1 ] && v="--verify --peers cublas"
    run gemm --precision $p -m $m -n $n -k $k $c $v --csv $O/${p}_${s}_new_$rep.csv > /dev/null
    $old gemm --precision $p -m $m -n $n -k $k $c --csv $O/${p}_${s}_old_$rep.csv > /dev/null 2>&1
  done
done
done
cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 && cmake --build build-gt -j 16 --target test_half test_tensor > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
{ for q in device bf16_device; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_half $q 2>&1 | tail -1; done
  for k in half bf16; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_tensor $k 2>&1 | tail -1; done; } > $O/test_gpu.txt 2>&1
cat $O/test_gpu.txt
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-34s %-8s %8.1f %s %s" % (os.path.basename(f)[:-4], r['variant'][:8], float(r['gflops'] or 0)/1000, r.get('max_rel_err',''), r['status']))
PY
