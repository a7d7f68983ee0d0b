#!/usr/bin/env bash
# Result: bench/results/h100/trsm-leaf. TRSM's inverse_leaf variant (session 6, 2026-11-26: the
# triangle in recursive halves down to blocks of 1024, each block solved by its inverse in one
# triangle-mode launch, the inverses built by doubling with one batched launch per level, the
# launches of few work-groups on the "few" class's 64 x 64 tiles), auto on GPUs from ka = 4096: every auto row beside CLBlast and cuBLAS, tessel's GEMM in the same run
# for the ratio, the variants side by side over the side / uplo / trans cases, the leaf size and
# l3_tri_inv's block swept, sizes below 4096 (where auto stays inverse_rec), and one traced call.
#   bash .device/setup.sh && bash bench/scripts/h100-trsm-leaf.sh OUT
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?usage: h100-trsm-leaf.sh OUT}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
for pr in single double; do
  for n in 4096 8192; do
    v=; [ $n = 4096 ] && v=--verify
    run gemm --precision $pr --size $n $c --peers clblast,cublas --csv $O/gemm_${pr}_$n.csv > /dev/null
    run blas3 --op trsm -m $n -n $n --precision $pr $c $v --peers clblast,cublas --csv $O/trsm_${pr}_$n.csv > /dev/null
    run blas3 --op trsm -m $n -n $n --precision $pr $c --variant inverse_rec --csv $O/trsm_${pr}_${n}_rec.csv > /dev/null
    for nb in 512 2048; do
      run blas3 --op trsm -m $n -n $n --precision $pr $c --variant inverse_leaf --block $nb --csv $O/trsm_${pr}_${n}_leaf$nb.csv > /dev/null
    done
    for ib in 32 128; do
      run blas3 --op trsm -m $n -n $n --precision $pr $c --variant inverse_leaf --inv-block $ib --csv $O/trsm_${pr}_${n}_inv$ib.csv > /dev/null
    done
  done
  for n in 1024 2048; do
    run gemm --precision $pr --size $n $c --csv $O/gemm_${pr}_$n.csv > /dev/null
    for v in inverse_rec inverse_leaf; do
      run blas3 --op trsm -m $n -n $n --precision $pr $c --variant $v --csv $O/trsm_${pr}_${n}_$v.csv > /dev/null
    done
  done
done
for o in "--side right" "--uplo upper" "--trans t" "--side right --uplo upper --trans t --diag unit"; do
  tg=$(echo $o | tr -d ' -')
  for v in inverse_leaf inverse_rec; do
    run blas3 --op trsm -m 4096 -n 4096 $o $c --verify --variant $v --csv $O/case_${tg}_$v.csv > /dev/null
  done
done
for s in 4:512 8:256 16:128; do
  run gemm --batch ${s%%:*} --size ${s##*:} $c --peers cublas --csv $O/batch_${s%%:*}x${s##*:}.csv > /dev/null
done
for v in inverse_leaf inverse_rec; do
  run blas3 --op trsm -m 4096 -n 128 $c --variant $v --csv $O/skinny_single_$v.csv > /dev/null
  run blas3 --op trsm -m 4096 -n 128 $c --precision double --variant $v --csv $O/skinny_double_$v.csv > /dev/null
done
for pr in single double; do
  TESSEL_TRACE=2 $t blas3 --op trsm -m 4096 -n 4096 --precision $pr --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${pr}_4096.err
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
g = {}
rows = []
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        rows.append((os.path.basename(f)[:-4], r))
        if os.path.basename(f).startswith('gemm_') and r['variant'] == 'auto':
            g[(r['precision'], r['m'])] = float(r['gflops'])
print("# file, variant, precision, m x n, ms, TFLOP/s, x tessel GEMM (same size and precision), max_rel_err, status")
for tag, r in rows:
    gg = g.get((r['precision'], r['m']), 0)
    gf = float(r['gflops'] or 0)
    print("%-44s %-12s %-6s %5sx%-5s %9.3f ms %6.2f TF x%5.3f %-10s %s" % (tag, r['variant'][:12], r['precision'], r['m'], r['n'], float(r['kernel_ms']), gf / 1000, gf / gg if gg else 0, r.get('max_rel_err', ''), r['status']))
PY
