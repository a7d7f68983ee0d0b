#!/bin/bash
O=/tmp/w8; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
c="--device nvidia"
for pr in double single; do TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 --precision $pr > /dev/null 2> $O/trace_${pr}.err; done
grep " us " $O/trace_double.err | tail -27 | cut -c16-150
grep " us " $O/trace_single.err | tail -22 | cut -c16-150
cd /tmp && tar czf $OUT/res.tgz w8
