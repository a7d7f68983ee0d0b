#!/usr/bin/env bash
# The tiled pack pre-pass (32 x 32 tiles, transposes through local memory) against HEAD's
# element-per-item pack: TF32 (both operands packed), SYRK/SYR2K (A^T packed), TRMM, NT GEMM.
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
for n in 4096 8192; do
  v=; [ $n = 4096 ] && v=--verify
  run gemm --size $n $c --peers clblast,cublas --csv $O/g_nn_$n.csv > /dev/null
  run gemm --size $n --transb t $c $v --csv $O/g_nt_${n}_new.csv > /dev/null
  $old gemm --size $n --transb t $c --csv $O/g_nt_${n}_old.csv > /dev/null 2>&1
  for op in syrk syr2k; do
    run blas3 --op $op -n $n -k $n $c $v --peers clblast,cublas --beta 0.5 --csv $O/l3_${op}_${n}_new.csv > /dev/null
    $old blas3 --op $op -n $n -k $n $c --beta 0.5 --csv $O/l3_${op}_${n}_old.csv > /dev/null 2>&1
  done
  run blas3 --op trmm -m $n -n $n $c $v --peers clblast,cublas --csv $O/l3_trmm_${n}_new.csv > /dev/null
  $old blas3 --op trmm -m $n -n $n $c --csv $O/l3_trmm_${n}_old.csv > /dev/null 2>&1
  run blas3 --op symm -m $n -n $n $c $v --peers clblast,cublas --beta 0.5 --csv $O/l3_symm_${n}_new.csv > /dev/null
done
TESSEL_TRACE=2 $t gemm --math tf32 --size 4096 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/tf32_4096_trace.err
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-24s %-8s %-7s %6s %6s %8.2f TF err %-10s %s" % (os.path.basename(f)[:-4], r['variant'][:8], r['precision'], r.get('m',''), r.get('n',''), float(r['gflops'] or 0)/1000, r.get('max_rel_err',''), r['status']))
PY
grep -h "us " $O/tf32_4096_trace.err | tail -4
