#!/bin/bash
O=/tmp/w12; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
c="--device nvidia"
R() { local tag=$1; shift; echo "$tag: $*" >> $O/commands.txt; timeout 200 $t "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
for pr in single double; do
  R ${pr}_gemm4096 gemm --size 4096 --precision $pr
  for st in 1 2; do R ${pr}_trsm4096_s$st blas3 --op trsm -m 4096 -n 4096 --precision $pr --streams $st --verify; done
  for k in 1 2 3; do TESSEL_TRACE=2 $t blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 --precision $pr --streams 1 > /dev/null 2> $O/t.err; echo "$pr $(grep l3_tri_inv $O/t.err | tail -1 | cut -c16-40)"; done
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os
O=sys.argv[1]
for f in sorted(glob.glob(O+'/r_*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-24s %-12s %8.4f ms %8.0f GF %s %s"%(os.path.basename(f)[2:-4], r.get('variant','')[:12], float(r['kernel_ms']), float(r['gflops']), r.get('max_rel_err',''), r['status']))
PY
cd /tmp && tar czf $OUT/res.tgz w12
