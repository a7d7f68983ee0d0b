#!/bin/bash
# session 7 experiment 18: leaf sizes with the parts
O=/tmp/w18; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
c="--device nvidia"
R() { local tag=$1; shift; echo "$tag: $*" >> $O/commands.txt; timeout 200 $t "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
for pr in single double; do
  R ${pr}_gemm4096 gemm --size 4096 --precision $pr
  for nb in 512 1024 2048; do for st in 1 2 4; do
    R ${pr}_trsm4096_nb${nb}_s$st blas3 --op trsm -m 4096 -n 4096 --precision $pr --variant inverse_leaf --block $nb --streams $st
  done; done
  R ${pr}_trsm4096_def blas3 --op trsm -m 4096 -n 4096 --precision $pr
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os
O=sys.argv[1]
g={}
rows=[]
for f in sorted(glob.glob(O+'/r_*.csv')):
    for r in csv.DictReader(open(f)):
        tag=os.path.basename(f)[2:-4]; rows.append((tag,r))
        if 'gemm' in tag: g[r['precision']]=float(r['gflops'])
for tag,r in rows:
    print("%-26s %8.4f ms  x%.3f GEMM %s"%(tag, float(r['kernel_ms']), float(r['gflops'])/g[r['precision']], r['status']))
PY
cd /tmp && tar czf $OUT/res.tgz w18
