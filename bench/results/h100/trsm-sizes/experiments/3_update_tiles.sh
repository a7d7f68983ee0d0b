#!/bin/bash
# session 9 step 3: the single updates of 1024 x 2048 (class large, 128 x 256: 64 groups a part)
# on the entry for any class (128 x 128, U128) or the few class (64 x 64, U64)
O=$OUT/r3; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
export OPENBLAS_CORETYPE=Cooperlake
source bench/scripts/lib.sh $O > /dev/null
FROM='    if ((double)m * (double)n <= 1048576.0) return "small";'
patched_tree /tmp/u128 src/ops/gemm.c "$FROM" "$FROM
    if ((double)m * (double)n <= 2097152.0 && m > 256 && n > 256) return \"medium\";" || echo u128 failed
patched_tree /tmp/u64 src/ops/gemm.c "$FROM" "$FROM
    if ((double)m * (double)n <= 2097152.0 && m > 256 && n > 256) return \"few\";" || echo u64 failed
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2 3; do
  v=; [ $rep = 1 ] && v=--verify
  run gemm --size 4096 $c --csv $O/gemm_$rep.csv > /dev/null
  for tag in O U128 U64; do
    T=$t; K=$TESSEL_CACHE_DIR
    case $tag in U128) T=/tmp/u128/b/tessel; K=/tmp/u128/kc;; U64) T=/tmp/u64/b/tessel; K=/tmp/u64/kc;; esac
    TESSEL_CACHE_DIR=$K $T blas3 --op trsm -m 4096 -n 4096 $c $v --csv $O/trsm_${tag}_$rep.csv > /dev/null 2>&1
    TESSEL_CACHE_DIR=$K $T blas3 --op trsm -m 4096 -n 4096 --side right --uplo upper --trans t $c $v --csv $O/trsmrut_${tag}_$rep.csv > /dev/null 2>&1
    [ $rep = 1 ] && for op in trmm syrk symm syr2k; do TESSEL_CACHE_DIR=$K $T blas3 --op $op --size 4096 $c --csv $O/${op}_${tag}_1.csv > /dev/null 2>&1; done
    [ $rep = 1 ] && TESSEL_CACHE_DIR=$K $T blas3 --op trsm -m 8192 -n 8192 $c --csv $O/trsm8k_${tag}_1.csv > /dev/null 2>&1
    [ $rep = 1 ] && TESSEL_CACHE_DIR=$K $T gemm -m 1024 -n 2048 -k 1024 $c --csv $O/g1k2k_${tag}_1.csv > /dev/null 2>&1
    [ $rep = 1 ] && TESSEL_CACHE_DIR=$K $T gemm -m 2048 -n 1024 -k 2048 $c --csv $O/g2k1k_${tag}_1.csv > /dev/null 2>&1
  done
done
TESSEL_CACHE_DIR=/tmp/u128/kc TESSEL_TRACE=3 /tmp/u128/b/tessel blas3 --op trsm -m 4096 -n 4096 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_u128.err
TESSEL_CACHE_DIR=/tmp/u64/kc TESSEL_TRACE=3 /tmp/u64/b/tessel blas3 --op trsm -m 4096 -n 4096 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_u64.err
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
for f in u128 u64; do awk '/ upload /{n=NR} {a[NR]=$0} END{for(i=n+1;i<=NR;i++) print a[i]}' $O/trace_$f.err | cut -c1-110; done
cd $OUT && tar czf res.tgz r3 && rm -rf r3
