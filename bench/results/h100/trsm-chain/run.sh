#!/bin/bash
# session 11 call 9: the final tree against session 10's (b9eacf8) over sizes, with GEMM, cuBLAS,
# CLBlast; then double 4096 / 8192 (left; right, upper, A^T) with 2 and 4 parts
bash .device/setup.sh > /tmp/setup.log 2>&1 || { tail -20 /tmp/setup.log; exit 1; }
O=$OUT/trsm-chain
BASE=.lead/s11/base.tgz BASE_LABEL="session 10 (b9eacf8)" NEW_LABEL="session 11" bash bench/scripts/h100-trsm-few.sh $O > $O.log 2>&1
tail -40 $O.log
E=$O/parts; mkdir -p $E
t=build-gpu/tessel; c="--device nvidia --repeat 10 --warmup 2"
export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache TESSEL_TUNING_DIR=$PWD/build-gpu/no-user-tuning
for rep in 1 2; do for n in 4096 8192; do for st in 2 4; do
  echo "tessel blas3 --op trsm --size $n --precision double --streams $st $c" >> $E/commands.txt
  $t blas3 --op trsm --size $n --precision double --streams $st $c --csv $E/l_${n}_s${st}_$rep.csv > /dev/null 2>&1
  echo "tessel blas3 --op trsm --size $n --side right --uplo upper --trans t --precision double --streams $st $c" >> $E/commands.txt
  $t blas3 --op trsm --size $n --side right --uplo upper --trans t --precision double --streams $st $c --csv $E/rut_${n}_s${st}_$rep.csv > /dev/null 2>&1
done; done; done
python3 - $E <<'PY' | tee $E/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/*.csv')):
    b = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)): t[b].append('%.3f' % float(r['kernel_ms']))
print('# TRSM double (ms, median of 10), 2 against 4 parts (--streams)')
for b in sorted(t): print('%-18s %s' % (b, ' '.join(t[b])))
PY
cd $OUT && tar czf res.tgz trsm-chain trsm-chain.log && rm -rf trsm-chain
