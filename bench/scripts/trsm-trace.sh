#!/usr/bin/env bash
# Result: bench/results/h100/level3d (trsm_trace_*), bench/results/h100/tensor-x3 (tune_*). TRSM
# at 4096 with TESSEL_TRACE=2 (every launch's device time, summed by launch), then the tuner over the
# tensor-core space for 3xTF32 and half at 4096.
#   bash .device/setup.sh && bash bench/scripts/trsm-trace.sh OUT
# space for 3xTF32 and half at 4096
set -u
O=${1:?usage: trsm-trace.sh OUT}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
export OPENBLAS_CORETYPE=Cooperlake
for p in single double; do
  TESSEL_TRACE=2 timeout 120 $t blas3 --op trsm --size 4096 --precision $p --repeat 1 --warmup 1 --device nvidia > $O/trsm_trace_$p.out 2> $O/trsm_trace_$p.err
  grep -E "^auto|inverse" $O/trsm_trace_$p.out | tail -2
  python3 - $O/trsm_trace_$p.err <<'PY'
import re, sys, collections
L = [l for l in open(sys.argv[1]) if ' us  ' in l]
L = L[len(L)//2:]  # the timed run (warmup first)
tot = 0; by = collections.OrderedDict()
for l in L:
    m = re.match(r'tessel: trace: +([0-9.]+) us  (.*)', l.strip())
    us, what = float(m.group(1)), m.group(2)
    tot += us
    key = re.sub(r'\) .*', ')', what)
    by.setdefault(key, [0, 0.0]); by[key][0] += 1; by[key][1] += us
print("total %.1f us over %d commands" % (tot, len(L)))
for k, (n, us) in sorted(by.items(), key=lambda x: -x[1][1]): print("  %-50s %4d  %9.1f us" % (k, n, us))
PY
done
timeout 100 $t gemm --device nvidia --size 4096 --precision single --repeat 5 --warmup 1 2>&1 | grep -E "^auto"
timeout 100 $t gemm --device nvidia --size 4096 --precision double --repeat 5 --warmup 1 2>&1 | grep -E "^auto"
timeout 220 $t tune gemm --device nvidia --precision single --math 3xtf32 --sizes 4096 --budget-s 150 --csv $O/tune_3xtf32.csv > $O/tune_3xtf32.txt 2>&1
tail -15 $O/tune_3xtf32.txt
timeout 200 $t tune gemm --device nvidia --precision half --sizes 4096 --budget-s 120 --csv $O/tune_half.csv > $O/tune_half.txt 2>&1
tail -15 $O/tune_half.txt
$t tune --show --device nvidia > $O/tune_show.txt 2>&1
cp -r $TESSEL_TUNING_DIR $O/tuning 2>/dev/null
