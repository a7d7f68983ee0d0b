#!/bin/bash
# Session 12's final comparison: session 11's tree (6982a0f, BASE) against this one, whose TRSM
# leaves keep their shape's size class on the left where a part of B has 4096 columns or more
# (level3_leaf.c): TRSM single over sizes and cases, double 8192 (no few entry: unchanged),
# interleaved in 2 rounds, with tessel's GEMM and cuBLAS at 8192; test_level3 trsm on the GPU.
#   git archive 6982a0f -- . ':!bench/results' | gzip > .lead/s12/base.tgz
#   bash .device/setup.sh && BASE=.lead/s12/base.tgz bash bench/results/h100/trsm-leaf-class/run.sh OUT
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?usage: run.sh OUT}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
base_tree "${BASE:?}" &
gpu_trsm_tests 1 2 4 > $O/test_gpu.txt 2>&1
wait
echo "base: session 11 (6982a0f), /tmp/base/b/tessel, its own kernel cache" >> $O/commands.txt
cases=("4096|--size 4096" "6000|--size 6000" "7000|--size 7000" "8192|--size 8192"
       "8192_At|--size 8192 --trans t" "8192_upper|--size 8192 --uplo upper"
       "8192_right_upper|--size 8192 --side right --uplo upper"
       "8192x4096|-m 8192 -n 4096" "4096x8192|-m 4096 -n 8192")
for r in 1 2; do
  for cs in "${cases[@]}"; do
    tag=${cs%%|*} args=${cs#*|}
    v=$([ $r = 1 ] && echo --verify)
    TESSEL_CACHE_DIR=/tmp/base/kc timeout 200 /tmp/base/b/tessel blas3 --op trsm $args --precision single $c --csv $O/base_single_${tag}_$r.csv > /dev/null 2>&1
    run blas3 --op trsm $args --precision single $c $v --csv $O/new_single_${tag}_$r.csv > /dev/null
  done
  TESSEL_CACHE_DIR=/tmp/base/kc timeout 200 /tmp/base/b/tessel blas3 --op trsm --size 8192 --precision double $c --csv $O/base_double_8192_$r.csv > /dev/null 2>&1
  run blas3 --op trsm --size 8192 --precision double $c --csv $O/new_double_8192_$r.csv > /dev/null
done
for pr in single double; do
  run gemm --precision $pr --size 8192 $c --csv $O/gemm_${pr}_8192.csv > /dev/null
  run blas3 --op trsm --size 8192 --precision $pr $c --peers cublas --csv $O/peers_${pr}_8192.csv > /dev/null
done
{ python3 bench/scripts/ab_table.py $O '# TRSM (auto; left, lower, non-unit unless named), ms per round: session 11 (6982a0f) -> session 12; err and status of round 1'
  python3 - $O <<'PY'
import csv, sys
O = sys.argv[1]
print('# 8192: x tessel GEMM (auto) and x cuBLAS, the peers run')
for pr in ('single', 'double'):
    g = [r for r in csv.DictReader(open('%s/gemm_%s_8192.csv' % (O, pr))) if r['variant'].startswith('auto')]
    p = list(csv.DictReader(open('%s/peers_%s_8192.csv' % (O, pr))))
    me = [r for r in p if r['variant'].startswith('auto')][0]
    cu = [r for r in p if r['variant'] == 'cublas']
    print('%-7s trsm %.3f ms, gemm %.3f ms: x gemm %.3f, x cublas %s' % (pr, float(me['kernel_ms']), float(g[0]['kernel_ms']),
          float(me['gflops']) / float(g[0]['gflops']), '%.2f' % (float(me['gflops']) / float(cu[0]['gflops'])) if cu else '-'))
PY
} | tee $O/summary.txt
cat $O/test_gpu.txt
