#!/bin/bash
# session 8 step 11: the leaves' tiles (single): 128 x 128 (t128) or 128 x 64 (t128x64) for the
# triangle modes' single launches (not batches), against the few class's 64 x 64 (the tree)
O=$OUT/r13; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
export OPENBLAS_CORETYPE=Cooperlake
source bench/scripts/lib.sh $O > /dev/null
X="VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
FROM='static void mode_waves(tsl_context *ctx, const gemm_problem *p, gemm_choice *ch)
{'
for v in t128:MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16 t128x64:MWG=128,NWG=64,KWG=8,MDIMC=16,NDIMC=8 t64x128:MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=16; do
  name=${v%%:*}; cfg=${v#*:}
  TO="$FROM
    if (!p->dbl && p->tri >= TSL__TRI_A_LOWER && !p->batch) {
        gemm_choice alt;
        if (choose_named(ctx, \"tiled2d:$cfg,$X\", p->kind, NULL, 0, &alt) == TSL_OK) { *ch = alt; return; }
    }"
  patched_tree /tmp/$name src/ops/gemm.c "$FROM" "$TO" || echo $name failed
done
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2; do
  run gemm --size 4096 $c --csv $O/gemm_$rep.csv > /dev/null
  v=; [ $rep = 1 ] && v=--verify
  run blas3 --op trsm -m 4096 -n 4096 $c $v --csv $O/base_$rep.csv > /dev/null
  for name in t128 t128x64 t64x128; do
    TESSEL_CACHE_DIR=/tmp/$name/kc /tmp/$name/b/tessel blas3 --op trsm -m 4096 -n 4096 $c $v --csv $O/${name}_$rep.csv > /dev/null 2>&1
    TESSEL_CACHE_DIR=/tmp/$name/kc /tmp/$name/b/tessel blas3 --op trsm -m 4096 -n 4096 $c --streams 1 --csv $O/${name}_s1_$rep.csv > /dev/null 2>&1
  done
  run blas3 --op trsm -m 4096 -n 4096 $c --streams 1 --csv $O/base_s1_$rep.csv > /dev/null
done
TESSEL_CACHE_DIR=/tmp/t128/kc TESSEL_TRACE=3 /tmp/t128/b/tessel blas3 --op trsm -m 4096 -n 4096 --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_t128.err
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-22s %-7s %8.3f ms %s %s" % (os.path.basename(f)[:-4], r['precision'], float(r['kernel_ms']), r.get('max_rel_err', ''), r['status']))
PY
awk '/ upload /{n=NR} {a[NR]=$0} END{for(i=n+1;i<=NR;i++) print a[i]}' $O/trace_t128.err | cut -c1-100
cd $OUT && tar czf res.tgz r13 && rm -rf r13
