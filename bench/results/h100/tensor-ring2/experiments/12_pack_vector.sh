#!/usr/bin/env bash
# gemm_pack's straight path as one vector of four per item, against HEAD
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
  run gemm --size 8192 --transa t $c --csv $O/sTN_8192_new_$rep.csv > /dev/null
  $old gemm --size 8192 --transa t $c --csv $O/sTN_8192_old_$rep.csv > /dev/null 2>&1
done
TESSEL_TRACE=2 $t gemm --math tf32 --size 4096 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/tf32_4096_trace.err
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-24s %-8s %8.1f %s %s" % (os.path.basename(f)[:-4], r['variant'][:8], float(r['gflops'] or 0)/1000, r.get('max_rel_err',''), r['status']))
PY
grep -h "us " $O/tf32_4096_trace.err | tail -4
