#!/bin/bash
# session 7 experiment 19: l3_tri_inv64's floor (P1: returns at once) -- timing only, P1 computes nothing
O=/tmp/w19; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
c="--device nvidia"
F=src/kernels/level3.cl
S='    const int b = get_group_id(0), tid = get_local_id(0);
    const int b0 = b * nb;
    const int r = min(nb, n - b0);
    __global const real *T = A + a_off + (long)b0 * a_rs + (long)b0 * a_cs;
    __global real *X = D + (long)(b / per) * ldd * ldd + (long)(b % per) * nb * (ldd + 1);
    __local real Ll[64][65], xi[2][64], dinv[64];'
( patched_tree /tmp/p1 $F "$S" "    if (n > 0) return;
$S" ) > $O/p1.log 2>&1 &
wait; cat $O/p1.log
for v in A P1; do
  if [ $v = A ]; then b=$t; export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache; else b=/tmp/p1/b/tessel; export TESSEL_CACHE_DIR=/tmp/p1/kc; fi
  for pr in single double; do
    for k in 1 2 3; do TESSEL_TRACE=2 $b blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 --precision $pr --streams 1 > /dev/null 2> $O/t.err; echo "$v $pr $(grep l3_tri_inv $O/t.err | tail -1 | cut -c16-40) | next: $(grep -A1 l3_tri_inv $O/t.err | tail -1 | cut -c16-40)"; done
  done
done | tee $O/summary.txt
cd /tmp && tar czf $OUT/res.tgz w19
