#!/bin/bash
# session 8 step 12: PAIR (each group of a triangle-mode launch on the FMA path runs a heavy row
# of tiles and its light mirror): the tree (N, the few class's 64 x 64), N with 128 x 128 for
# the triangle modes' single launches (N128), against HEAD (O)
O=$OUT/r14; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
export OPENBLAS_CORETYPE=Cooperlake
source bench/scripts/lib.sh $O > /dev/null
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .lead/head.tgz -C /tmp/old && (cd /tmp/old && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 && cmake --build b -j 16 --target tessel_cli > /dev/null 2>&1) || echo old build failed
X="VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
FROM='static void mode_waves(tsl_context *ctx, const gemm_problem *p, gemm_choice *ch)
{'
TO="$FROM
    if (!p->dbl && p->tri >= TSL__TRI_A_LOWER && p->tri <= TSL__TRI_A_UPPER && !p->batch) {
        gemm_choice alt;
        if (choose_named(ctx, \"tiled2d:MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,$X\", p->kind, NULL, 0, &alt) == TSL_OK) { *ch = alt; return; }
    }"
patched_tree /tmp/n128 src/ops/gemm.c "$FROM" "$TO" || echo n128 failed
{ cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 16 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
  for st in 1 2; do TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 0 inverse_leaf auto auto 0 $st 2>&1 | tail -1; done
  for r in trmm trsm; do TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 $r 2>&1 | tail -1; done
} > $O/test_gpu.txt 2>&1
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2; do
  v=; [ $rep = 1 ] && v=--verify
  run gemm --size 4096 $c --csv $O/gemm_$rep.csv > /dev/null
  for tag in O N N128; do
    case $tag in O) T="/tmp/old/b/tessel"; K=/tmp/old/kc;; N) T=$t; K=$TESSEL_CACHE_DIR;; N128) T=/tmp/n128/b/tessel; K=/tmp/n128/kc;; esac
    TESSEL_CACHE_DIR=$K $T blas3 --op trsm -m 4096 -n 4096 $c $v --csv $O/trsm_${tag}_$rep.csv > /dev/null 2>&1
    TESSEL_CACHE_DIR=$K $T blas3 --op trsm -m 4096 -n 4096 $c --streams 1 --csv $O/trsm1_${tag}_$rep.csv > /dev/null 2>&1
    TESSEL_CACHE_DIR=$K $T blas3 --op trmm -m 4096 -n 4096 $c $v --csv $O/trmm_${tag}_$rep.csv > /dev/null 2>&1
    TESSEL_CACHE_DIR=$K $T blas3 --op trsm -m 8192 -n 8192 $c --csv $O/trsm8k_${tag}_$rep.csv > /dev/null 2>&1
  done
done
TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_N.err
TESSEL_CACHE_DIR=/tmp/n128/kc TESSEL_TRACE=3 /tmp/n128/b/tessel blas3 --op trsm -m 4096 -n 4096 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_N128.err
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-22s %-7s %8.3f ms %s %s" % (os.path.basename(f)[:-4], r['precision'], float(r['kernel_ms']), r.get('max_rel_err', ''), r['status']))
PY
cat $O/test_gpu.txt
for x in N N128; do awk '/ upload /{n=NR} {a[NR]=$0} END{for(i=n+1;i<=NR;i++) print a[i]}' $O/trace_$x.err | grep -v "batched\|fused\|copy" | cut -c1-90; done
cd $OUT && tar czf res.tgz r14 && rm -rf r14
