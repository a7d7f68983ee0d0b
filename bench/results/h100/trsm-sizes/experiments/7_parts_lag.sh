#!/bin/bash
# session 9 step 7: the parts out of phase: part i > 0 starts after part 0's step LAG-1 (TESSEL_XP=LAG)
O=$OUT/r7; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
export OPENBLAS_CORETYPE=Cooperlake
source bench/scripts/lib.sh $O > /dev/null
( cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 16 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log ) &
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2 3; do
  v=; [ $rep = 1 ] && v=--verify
  for p in single double; do
    run gemm --size 4096 --precision $p $c --csv $O/gemm_${p}_$rep.csv > /dev/null
    for x in 0 1 2 3; do
      TESSEL_XP=$x $t blas3 --op trsm --size 4096 --precision $p $c $v --csv $O/trsm_${p}_L${x}_$rep.csv > /dev/null 2>&1
      [ $rep = 1 ] && TESSEL_XP=$x $t blas3 --op trsm --size 8192 --precision $p $c --csv $O/trsm8k_${p}_L${x}_$rep.csv > /dev/null 2>&1
      [ $rep = 1 ] && TESSEL_XP=$x $t blas3 --op trsm --size 4096 --side right --uplo upper --trans t --precision $p $c --verify --csv $O/rut_${p}_L${x}_$rep.csv > /dev/null 2>&1
    done
  done
done
wait
{ for x in 1 2; do TESSEL_XP=$x TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 0 auto auto auto 0 2 2>&1 | tail -1
  TESSEL_XP=$x TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 64 inverse_leaf auto auto 16 3 2>&1 | tail -1; done
} > $O/test_gpu.txt 2>&1
for x in 1 2; do TESSEL_XP=$x TESSEL_TRACE=3 $t blas3 --op trsm --size 4096 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_single_L$x.err; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        b = os.path.basename(f)[:-4]
        if b[-2] == '_' and b[-1].isdigit(): b = b[:-2]
        t[b].append((float(r['kernel_ms']), r['status']))
for b, v in sorted(t.items()):
    print("%-24s %s  %s" % (b, " ".join("%7.3f" % x[0] for x in v), " ".join(sorted(set(x[1] for x in v)))))
PY
cat $O/test_gpu.txt
awk '/ upload /{n=NR} {a[NR]=$0} END{for(i=n+1;i<=NR;i++) print a[i]}' $O/trace_single_L1.err | cut -c1-110
cd $OUT && tar czf res.tgz r7 && rm -rf r7
