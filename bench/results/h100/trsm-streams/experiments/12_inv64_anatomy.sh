#!/bin/bash
# session 7 experiment 11: what l3_tri_inv64's time is made of (A: as is; B: no zeros written;
# C: no steps; D: no zeros and no steps) -- timing only, B-D compute wrong results
O=/tmp/w11; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
c="--device nvidia"
F=src/kernels/level3.cl
Z='        for (int i = tid / 64; i < r; i += 4)
            for (int j = tid % 64; j < w; j += 64) Z[(long)i * ldd + j] = ZERO;'
L='    for (int i = 0; i < r; ++i) {
        if (row == i) {'
( patched_tree /tmp/pB $F "$Z" "" ) > $O/pB.log 2>&1 &
( patched_tree /tmp/pC $F "$L" "    for (int i = 0; i < 0; ++i) {
        if (row == i) {" ) > $O/pC.log 2>&1 &
wait
cat $O/pB.log $O/pC.log
for v in A B C; do
  if [ $v = A ]; then b=$t; export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache; else b=/tmp/p$v/b/tessel; export TESSEL_CACHE_DIR=/tmp/p$v/kc; fi
  for pr in single double; do
    for k in 1 2 3; do TESSEL_TRACE=2 $b blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 --precision $pr --streams 1 > /dev/null 2> $O/t.err; echo "$v $pr $(grep l3_tri_inv $O/t.err | tail -1 | cut -c16-40)"; done
  done
done | tee $O/summary.txt
cd /tmp && tar czf $OUT/res.tgz w11
