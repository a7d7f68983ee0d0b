#!/usr/bin/env bash
# the staged epilogue for float C too (TF32, 3xTF32), against HEAD (16-bit only)
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .lead/head.tgz -C /tmp/old
(cmake -S /tmp/old -B /tmp/old/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /tmp/old.log 2>&1 && cmake --build /tmp/old/b -j 16 --target tessel_cli >> /tmp/old.log 2>&1) || { echo OLD BUILD FAILED; tail -5 /tmp/old.log; }
old="env TESSEL_CACHE_DIR=/tmp/old/kc /tmp/old/b/tessel"
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2; do
  for k in "--math tf32" "--math 3xtf32" "--precision half"; do
    kk=$(echo $k | awk '{print $2}')
    for s in 4096x4096x4096 8192x8192x8192 4096x4096x256 8192x128x8192; do
      IFS=x read m n k_ <<< "$s"
      p=; [ $rep = 1 ] && p="--verify --peers cublas"
      run gemm $k -m $m -n $n -k $k_ $c $p --csv $O/${kk}_${s}_new_$rep.csv > /dev/null
      $old gemm $k -m $m -n $n -k $k_ $c --csv $O/${kk}_${s}_old_$rep.csv > /dev/null 2>&1
    done
  done
done
cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 && cmake --build build-gt -j 16 --target test_tensor > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
{ for k in tf32 3xtf32 half; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_tensor $k 2>&1 | tail -1; done; } > $O/test_gpu.txt 2>&1
cat $O/test_gpu.txt
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-34s %-8s %8.1f %s %s" % (os.path.basename(f)[:-4], r['variant'][:8], float(r['gflops'] or 0)/1000, r.get('max_rel_err',''), r['status']))
PY
