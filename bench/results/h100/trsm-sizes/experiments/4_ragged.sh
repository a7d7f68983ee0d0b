#!/bin/bash
# session 9 step 4: ragged sizes (4000): where TRSM's time goes, and the other routines beside GEMM
O=$OUT/r4; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
export OPENBLAS_CORETYPE=Cooperlake
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
for p in single double; do
  run gemm --size 4000 --precision $p $c --csv $O/gemm4000_${p}.csv > /dev/null
  run gemm --size 4096 --precision $p $c --csv $O/gemm4096_${p}.csv > /dev/null
  for op in trsm trmm syrk symm syr2k; do run blas3 --op $op --size 4000 --precision $p $c --csv $O/${op}4000_${p}.csv > /dev/null; done
  run blas3 --op trsm -m 4000 -n 4096 --precision $p $c --csv $O/trsm4000x4096_${p}.csv > /dev/null
  run blas3 --op trsm -m 4096 -n 4000 --precision $p $c --csv $O/trsm4096x4000_${p}.csv > /dev/null
  run blas3 --op trsm --size 4096 --precision $p $c --csv $O/trsm4096_${p}.csv > /dev/null
  for b in 512 2048; do run blas3 --op trsm --size 4000 --block $b --precision $p $c --csv $O/trsm4000b${b}_${p}.csv > /dev/null; done
  TESSEL_TRACE=3 $t blas3 --op trsm --size 4000 --precision $p --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace4000_${p}.err
  TESSEL_TRACE=3 $t blas3 --op trsm -m 4000 -n 4096 --precision $p --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace4000x4096_${p}.err
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-26s %8.3f ms %9.0f GFLOP/s %s" % (os.path.basename(f)[:-4], float(r['kernel_ms']), float(r['gflops']), r['status']))
PY
for f in trace4000_single trace4000x4096_double; do awk '/ upload /{n=NR} {a[NR]=$0} END{for(i=n+1;i<=NR;i++) print a[i]}' $O/$f.err | cut -c1-120; done
cd $OUT && tar czf res.tgz r4 && rm -rf r4
