#!/bin/bash
# session 9 step 1: the first block's leaves of 256 (inverses up to 256 first, levels 512/1024 on a
# side queue beside them) against HEAD and against off (--first-block 4096)
O=$OUT/r1; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
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
    for tag in O N N512 OFF F128; do
      T=$t; K=$TESSEL_CACHE_DIR; x=
      case $tag in O) T=/tmp/old/b/tessel; K=/tmp/old/kc;; N512) x="--first-block 512";; OFF) x="--first-block 4096";; F128) x="--inv-fuse 128 --first-block 128";; esac
      TESSEL_CACHE_DIR=$K $T blas3 --op trsm -m 4096 -n 4096 --precision $p $c $v $x --csv $O/trsm_${p}_${tag}_$rep.csv > /dev/null 2>$O/err_${p}_${tag}_$rep.txt
    done
  done
done
wait
{ for a in "0 1 0 256" "0 2 0 256" "0 2 128 128" "0 3 0 512" "0 4 0 256" "0 2 0 4096" "0 1 4096 128"; do
    TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 0 inverse_leaf auto auto $a 2>&1 | tail -1; done
  TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 2>&1 | tail -1
} > $O/test_gpu.txt 2>&1
for p in single double; do
  for m in 4000 8192; do run blas3 --op trsm -m $m -n 4096 --precision $p $c --verify --csv $O/big_${p}_$m.csv > /dev/null; done
  run blas3 --op trsm -m 4096 -n 4096 --side right --uplo upper --trans t --precision $p $c --verify --csv $O/rut_${p}.csv > /dev/null
  TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision $p --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${p}.err
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        b = os.path.basename(f)[:-4]
        if b[-2] == '_' and b[-1].isdigit(): b = b[:-2]
        t[b].append((float(r['kernel_ms']), r.get('max_rel_err', r.get('rel_err', '')), r['status']))
for b, v in t.items():
    print("%-24s %s  %s" % (b, " ".join("%7.3f" % x[0] for x in v), " ".join(sorted(set(x[2] for x in v)))))
PY
cat $O/test_gpu.txt
for p in single double; do awk '/ upload /{n=NR} {a[NR]=$0} END{for(i=n+1;i<=NR;i++) print a[i]}' $O/trace_$p.err | cut -c1-150; done
cd $OUT && tar czf res.tgz r1 && rm -rf r1
