#!/bin/bash
# session 9 step 8: where TRSM 4000^2 (auto: inverse_leaf) spends its time
O=$OUT/r8; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
for p in double single; do
  for s in 4000 4096; do
    TESSEL_TRACE=3 $t blas3 --op trsm --size $s --precision $p --device nvidia --repeat 1 --warmup 1 > $O/out_${p}_$s.txt 2> $O/trace_${p}_$s.err
    TESSEL_TRACE=3 $t blas3 --op trsm --size $s --streams 2 --precision $p --device nvidia --repeat 1 --warmup 1 > $O/out_${p}_${s}_s2.txt 2> $O/trace_${p}_${s}_s2.err
  done
done
for f in trace_double_4000 trace_double_4000_s2 trace_single_4000; do echo "== $f"; awk '/ upload /{n=NR} {a[NR]=$0} END{for(i=n+1;i<=NR;i++) print a[i]}' $O/$f.err | cut -c1-120; done
cd $OUT && tar czf res.tgz r8 && rm -rf r8
