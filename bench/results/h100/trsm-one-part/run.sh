#!/bin/bash
# Session 13's final comparison: session 12's tree (e225b66, BASE) against this one, whose TRSM
# leaves keep their own size class only where B has 8192 columns or more (level3_leaf.c, leaf_parts):
# TRSM single with B in one part (--streams 1) and in the default parts, interleaved in 2 rounds;
# test_level3 trsm on the GPU.
#   git archive e225b66 -- . ':!bench/results' | gzip > .lead/s13/base.tgz
#   bash .device/setup.sh && BASE=.lead/s13/base.tgz bash bench/results/h100/trsm-one-part/run.sh OUT
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?usage: run.sh OUT}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
base_tree "${BASE:?}" &
gpu_trsm_tests 1 2 4 > $O/test_gpu.txt 2>&1
wait
echo "base: session 12 (e225b66), /tmp/base/b/tessel, its own kernel cache" >> $O/commands.txt
cases=("4096_s1|--size 4096 --streams 1" "4096|--size 4096" "5000_s1|--size 5000 --streams 1"
       "6000_s1|--size 6000 --streams 1" "8192_s1|--size 8192 --streams 1" "8192|--size 8192"
       "4096x8192_s1|-m 4096 -n 8192 --streams 1" "4096x8192|-m 4096 -n 8192"
       "8192_At|--size 8192 --trans t")
for r in 1 2; do
  for cs in "${cases[@]}"; do
    tag=${cs%%|*} args=${cs#*|}
    v=$([ $r = 1 ] && echo --verify)
    TESSEL_CACHE_DIR=/tmp/base/kc timeout 200 /tmp/base/b/tessel blas3 --op trsm $args --precision single $c --csv $O/base_single_${tag}_$r.csv > /dev/null 2>&1
    run blas3 --op trsm $args --precision single $c $v --csv $O/new_single_${tag}_$r.csv > /dev/null
  done
done
run gemm --precision single --size 4096 $c --csv $O/gemm_single_4096.csv > /dev/null
{ python3 bench/scripts/ab_table.py $O '# TRSM (auto; left, lower, non-unit unless named; _s1: --streams 1), ms per round: session 12 (e225b66) -> session 13; err and status of round 1'
  python3 - $O <<'PY'
import csv, sys
g = [r for r in csv.DictReader(open(sys.argv[1] + '/gemm_single_4096.csv')) if r['variant'].startswith('auto')][0]
print('# tessel GEMM single 4096: %.3f ms (0.8x of its rate is TRSM 4096 in %.3f ms)' % (float(g['kernel_ms']), float(g['kernel_ms']) / 2 / 0.8))
PY
} | tee $O/summary.txt
cat $O/test_gpu.txt
