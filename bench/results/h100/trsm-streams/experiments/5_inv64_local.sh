#!/bin/bash
# session 7 experiment 4: l3_tri_inv64 from local memory; where the host's time per launch goes
O=/tmp/w; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
c="--device nvidia"
R() { local tag=$1; shift; echo "$tag: $*" >> $O/commands.txt; timeout 200 $t "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
for pr in single double; do
  R ${pr}_gemm4096 gemm --size 4096 --precision $pr
  for st in 1 2; do
    R ${pr}_trsm4096_s$st blas3 --op trsm -m 4096 -n 4096 --precision $pr --verify --streams $st
  done
  TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 --precision $pr --streams 1 > /dev/null 2> $O/trace_${pr}_s1.err
done
which perf > $O/perf_which.txt 2>&1
if which perf > /dev/null 2>&1; then
  perf record -F 10000 -g -o /tmp/perf.data $t blas3 --op trsm -m 4096 -n 4096 $c --repeat 30 --warmup 2 > /dev/null 2>&1
  perf report -i /tmp/perf.data --no-children --sort dso -g none 2>/dev/null | grep -E "^\s+[0-9]" | head -20 > $O/perf_dso.txt
  perf report -i /tmp/perf.data --no-children --sort dso,symbol -g none 2>/dev/null | grep -E "^\s+[0-9]" | head -60 > $O/perf_sym.txt
  perf report -i /tmp/perf.data --children --sort symbol -g none 2>/dev/null | grep -E "^\s+[0-9]" | head -60 > $O/perf_children.txt
fi
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os
O=sys.argv[1]
for f in sorted(glob.glob(O+'/r_*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-24s %-12s %8.4f ms %8.0f GF %s %s"%(os.path.basename(f)[2:-4], r.get('variant','')[:12], float(r['kernel_ms']), float(r['gflops']), r.get('max_rel_err',''), r['status']))
PY
for pr in single double; do grep -E "trace: " $O/trace_${pr}_s1.err | tail -21 | head -11 | cut -c1-120; done
cat $O/perf_which.txt; head -12 $O/perf_dso.txt 2>/dev/null
cd /tmp && tar czf $OUT/res.tgz w
