#!/bin/bash
# session 8 step 4: upper bounds. TRSM 4096 with (a) no W -> B copies, (b) no inverses, (c) neither
# (wrong results: timing only), beside the tree as it is, inv_fuse 64 (launch by launch) and 256
O=$OUT/r4; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
export OPENBLAS_CORETYPE=Cooperlake
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
patched_tree /tmp/nocopy src/ops/level3_leaf.c '            s = p->left ? tsl__l3_copy' '            s = 1 ? TSL_OK : p->left ? tsl__l3_copy' || echo nocopy failed
patched_tree /tmp/noinv src/ops/level3_leaf.c 'if (s == TSL_OK) s = tsl__l3_tri_inverses(ctx, p, &pa' 'if (0) s = tsl__l3_tri_inverses(ctx, p, &pa' || echo noinv failed
cp -r /tmp/noinv /tmp/neither && python3 - <<'PY'
p='/tmp/neither/src/ops/level3_leaf.c'; s=open(p).read()
s=s.replace('            s = p->left ? tsl__l3_copy','            s = 1 ? TSL_OK : p->left ? tsl__l3_copy'); open(p,'w').write(s)
PY
cmake --build /tmp/neither/b -j 16 --target tessel_cli > /dev/null 2>&1 || echo neither build failed
for rep in 1 2; do
for pr in single double; do
  run gemm --precision $pr --size 4096 $c --csv $O/gemm_${pr}_$rep.csv > /dev/null
  for f in 64 256; do
    run blas3 --op trsm -m 4096 -n 4096 --precision $pr $c --inv-fuse $f --csv $O/base_${pr}_f${f}_$rep.csv > /dev/null
    for v in nocopy noinv neither; do
      TESSEL_CACHE_DIR=/tmp/$v/kc /tmp/$v/b/tessel blas3 --op trsm -m 4096 -n 4096 --precision $pr $c --inv-fuse $f --csv $O/${v}_${pr}_f${f}_$rep.csv > /dev/null 2>&1
    done
  done
done
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-24s %-7s %8.3f ms" % (os.path.basename(f)[:-4], r['precision'], float(r['kernel_ms'])))
PY
cd $OUT && tar czf res.tgz r4 && rm -rf r4
