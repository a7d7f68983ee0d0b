#!/bin/bash
# session 11 call 5: l3_tri_inv64 alone (--inv-fuse 64: no fused launch), single / double 4096
O=$OUT/r5; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
tr() { local name=$1; shift; TESSEL_TRACE=3 $t blas3 --op trsm --device nvidia --repeat 1 --warmup 1 "$@" > /dev/null 2> $O/trace_$name.err; }
for p in single double; do
  tr ${p}_f64 -m 4096 -n 4096 --precision $p --inv-fuse 64
  tr ${p}_f128 -m 4096 -n 4096 --precision $p --inv-fuse 128
  tr ${p}_f256 -m 4096 -n 4096 --precision $p
done
for f in $O/trace_*.err; do python3 .lead/s10/tl.py $f | head -8 > ${f%.err}.tl.txt; done
head -8 $O/*.tl.txt
cd $OUT && tar czf res.tgz r5 && rm -rf r5
