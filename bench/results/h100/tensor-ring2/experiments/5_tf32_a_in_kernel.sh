#!/usr/bin/env bash
# TF32 with A rounded in the kernel (no A pack) against HEAD (A rounded by a pack); the tensor table
# (squares and the GEMM race's skinny shapes) beside cuBLAS; SYRK single 8192 traced.
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
done
run gemm --math tf32 --size 4096 --transa t $c --verify --csv $O/tfT_4096_new.csv > /dev/null
$old gemm --math tf32 --size 4096 --transa t $c --csv $O/tfT_4096_old.csv > /dev/null 2>&1
TESSEL_TRACE=2 $t gemm --math tf32 --size 4096 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/tf32_4096_new_trace.err
TESSEL_TRACE=2 $old gemm --math tf32 --size 4096 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/tf32_4096_old_trace.err
for s in 8192x128x8192 128x8192x8192 4096x4096x256 4097x4097x4097; do
  IFS=x read m n k <<< "$s"
  for kk in "--precision half" "--precision bfloat16" "--math tf32" "--math 3xtf32"; do
    run gemm $kk -m $m -n $n -k $k $c --verify --peers cublas --csv $O/sh_$(echo $kk | awk '{print $2}')_$s.csv > /dev/null
  done
done
TESSEL_TRACE=2 $t blas3 --op syrk -n 8192 -k 8192 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/syrk8192_trace.err
$t tune --show --device nvidia --precision single > $O/show_single.txt 2>&1
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-28s %-8s %-8s %6s %6s %6s %8.2f TF err %-10s %s" % (os.path.basename(f)[:-4], r['variant'][:8], r['precision'], r['m'], r['n'], r['k'], float(r['gflops'] or 0)/1000, r.get('max_rel_err',''), r['status']))
PY
grep -h "us " $O/tf32_4096_*_trace.err | tail -8
grep -h "us " $O/syrk8192_trace.err | tail -6
