#!/bin/bash
# session 12 call 11: the chain's levels for one block of 1024 against four (is the level of 1024 latency-bound?)
O=$OUT/r11; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
for pr in single double; do
for m in 4096 2048 1024; do
  TESSEL_TRACE=3 $t blas3 --op trsm -m $m -n 4096 --block 1024 --precision $pr --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${pr}_$m.err
  python3 .lead/s10/tl.py $O/trace_${pr}_$m.err > $O/tl_${pr}_$m.txt 2>&1
  echo "== $pr m=$m"; sed -n 2,7p $O/tl_${pr}_$m.txt | cut -c1-80
done; done
cd $OUT && tar czf res.tgz r11 && rm -rf r11
