#!/bin/bash
# session 9 step 2: enqueue cost probe; the first block's steps over all of B on one queue (XP=1),
# the remaining levels queued after them (XP&2)
O=$OUT/r2; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
gcc -O2 -o /tmp/enq .lead/s9/enq.c -lOpenCL && /tmp/enq > $O/enq.txt 2>&1; cat $O/enq.txt
export OPENBLAS_CORETYPE=Cooperlake
source bench/scripts/lib.sh $O > /dev/null
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .lead/head.tgz -C /tmp/old && (cd /tmp/old && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 && cmake --build b -j 16 --target tessel_cli > /dev/null 2>&1) || echo old build failed
( cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 16 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log ) &
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2 3; do
  v=; [ $rep = 1 ] && v=--verify
  for p in single double; do
    run gemm --size 4096 --precision $p $c --csv $O/gemm_${p}_$rep.csv > /dev/null
    for tag in O N S SL S512 SL512; do
      T=$t; K=$TESSEL_CACHE_DIR; x=; xp=0
      case $tag in O) T=/tmp/old/b/tessel; K=/tmp/old/kc;; S) xp=1;; SL) xp=3;; S512) xp=1; x="--first-block 512";; SL512) xp=3; x="--first-block 512";; esac
      TESSEL_XP=$xp TESSEL_CACHE_DIR=$K $T blas3 --op trsm -m 4096 -n 4096 --precision $p $c $v $x --csv $O/trsm_${p}_${tag}_$rep.csv > /dev/null 2>$O/err_${p}_${tag}_$rep.txt
    done
  done
done
wait
{ for xp in 1 3; do for a in "64 inverse_leaf auto auto 16 2 0 16" "64 inverse_leaf auto auto 16 3 0 32" "0 inverse_leaf auto auto 0 2 0 256"; do
    TESSEL_XP=$xp TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm $a 2>&1 | tail -1; done; done
} > $O/test_gpu.txt 2>&1
for p in single double; do
  for xp in 1 3; do
    TESSEL_XP=$xp run blas3 --op trsm -m 4000 -n 4096 --uplo upper --precision $p $c --verify --csv $O/up_${p}_$xp.csv > /dev/null
    TESSEL_XP=$xp TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision $p --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${p}_$xp.err
  done
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        b = os.path.basename(f)[:-4]
        if b[-2] == '_' and b[-1].isdigit() and not b.startswith('up'): b = b[:-2]
        t[b].append((float(r['kernel_ms']), r['status']))
for b, v in t.items():
    print("%-24s %s  %s" % (b, " ".join("%7.3f" % x[0] for x in v), " ".join(sorted(set(x[1] for x in v)))))
PY
cat $O/test_gpu.txt
for f in single_1 single_3; do awk '/ upload /{n=NR} {a[NR]=$0} END{for(i=n+1;i<=NR;i++) print a[i]}' $O/trace_$f.err | cut -c1-150; done
cd $OUT && tar czf res.tgz r2 && rm -rf r2
