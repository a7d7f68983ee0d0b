#!/bin/bash
# session 7 experiment 2: TRSM inverse_leaf with B's columns in parts on side queues
O=/tmp/w; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
c="--device nvidia"
R() { local tag=$1; shift; echo "$tag: $*" >> $O/commands.txt; timeout 200 $t "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
for pr in single double; do
  R ${pr}_gemm4096 gemm --size 4096 --precision $pr
  for st in 1 2 3 4; do
    export TESSEL_TRSM_STREAMS=$st
    R ${pr}_trsm4096_s$st blas3 --op trsm -m 4096 -n 4096 --precision $pr --verify
    R ${pr}_trsm8192_s$st blas3 --op trsm -m 8192 -n 8192 --precision $pr
    R ${pr}_trsm4096r_s$st blas3 --op trsm -m 4096 -n 4096 --precision $pr --side right --uplo upper --trans t
  done
  for st in 1 2 3; do TESSEL_TRSM_STREAMS=$st TESSEL_TRACE=2 $t blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 --precision $pr > /dev/null 2> $O/trace_${pr}_s$st.err; done
done
unset TESSEL_TRSM_STREAMS
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os
O=sys.argv[1]
for f in sorted(glob.glob(O+'/r_*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-22s %-12s %8.4f ms %8.0f GF %s %s"%(os.path.basename(f)[2:-4], r.get('variant','')[:12], float(r['kernel_ms']), float(r['gflops']), r.get('rel_err',''), r['status']))
PY
grep -E "trace: " $O/trace_single_s2.err | tail -30 | cut -c1-120
cd /tmp && tar czf $OUT/res.tgz w
