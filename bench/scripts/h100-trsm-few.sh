#!/usr/bin/env bash
# TRSM of this tree against an older one (BASE, a git archive), each beside tessel's GEMM and
# cuBLAS in the same run at 512-8192 (CLBlast too at 4096 and 8192), verified to 4096, and
# test_level3 trsm on the GPU. Labels: BASE_LABEL, NEW_LABEL (defaults: session 9 / 10).
# Results: bench/results/h100/trsm-few (session 9's tree 1cf278b against session 10's: split k
# under the updates that read C from B (CIN), the ragged last block's doubling levels beside the
# first steps, the H100's single-precision few class in k steps of 32; its experiments/ has the
# steps) and bench/results/h100/trsm-chain (session 10's b9eacf8 against session 11's).
#   git archive 1cf278b -- . ':!bench/results' | gzip > .lead/base.tgz   # where the tree is
#   bash .device/setup.sh && BASE=.lead/base.tgz bash bench/scripts/h100-trsm-few.sh OUT
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?usage: h100-trsm-few.sh OUT}; mkdir -p $O
base=${BASE:?set BASE to a tarball of the older tree (git archive REV)}
bl=${BASE_LABEL:-session 9 (1cf278b)} nl=${NEW_LABEL:-session 10}
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
base_tree "$base" &
gpu_trsm_tests 1 2 3 4 > $O/test_gpu.txt 2>&1
wait
echo "base: $bl, /tmp/base/b/tessel, its own kernel cache" >> $O/commands.txt
for pr in single double; do
  for n in 512 1000 1500 2000 2048 3000 4000; do
    run gemm --precision $pr --size $n $c --csv $O/gemm_${pr}_$n.csv > /dev/null
    TESSEL_CACHE_DIR=/tmp/base/kc timeout 200 /tmp/base/b/tessel blas3 --op trsm --size $n --precision $pr $c --csv $O/base_${pr}_$n.csv > /dev/null 2>&1
    run blas3 --op trsm --size $n --precision $pr $c --verify --peers cublas --csv $O/trsm_${pr}_$n.csv > /dev/null
  done
  for n in 4096 8192; do
    v=$([ $n = 4096 ] && echo --verify)
    run gemm --precision $pr --size $n $c --peers clblast,cublas --csv $O/gemm_${pr}_$n.csv > /dev/null
    TESSEL_CACHE_DIR=/tmp/base/kc timeout 200 /tmp/base/b/tessel blas3 --op trsm --size $n --precision $pr $c --csv $O/base_${pr}_$n.csv > /dev/null 2>&1
    run blas3 --op trsm --size $n --precision $pr $c $v --peers clblast,cublas --csv $O/trsm_${pr}_$n.csv > /dev/null
  done
  run blas3 --op trsm -m 4000 -n 3000 --precision $pr $c --verify --csv $O/case_${pr}_4000x3000.csv > /dev/null
  run blas3 --op trsm -m 3000 -n 2000 --side right --uplo upper --trans t --precision $pr $c --verify --csv $O/case_${pr}_3000x2000_right_upper_t.csv > /dev/null
  run blas3 --op trsm -m 3000 -n 2000 --uplo upper --precision $pr $c --verify --csv $O/case_${pr}_3000x2000_upper.csv > /dev/null
done
python3 - $O "$bl" "$nl" <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O, bl, nl = sys.argv[1:4]
def rows(f):
    return list(csv.DictReader(open(f))) if os.path.exists(f) else []
print('# TRSM (left, lower, n, non-unit, row-major; n^3 flops) ms: %s -> %s; x tessel GEMM, x cuBLAS, x CLBlast of %s in the same run' % (bl, nl, nl))
print('%-7s %5s %8s %8s %7s %7s %7s %s' % ('prec', 'n', 'base ms', 'new ms', 'x gemm', 'x cublas', 'x clbl', 'err'))
for pr in ('single', 'double'):
    for n in (512, 1000, 1500, 2000, 2048, 3000, 4000, 4096, 8192):
        g = [r for r in rows('%s/gemm_%s_%d.csv' % (O, pr, n)) if r['variant'] in ('auto', 'tiled2d') or r['variant'].startswith('auto')]
        t = rows('%s/trsm_%s_%d.csv' % (O, pr, n))
        b = [r for r in rows('%s/base_%s_%d.csv' % (O, pr, n)) if r['variant'].startswith('auto')]
        if not t or not g: continue
        me = [r for r in t if r['variant'].startswith('auto')][0]
        peer = lambda name: [float(r['gflops']) for r in t if r['variant'] == name]
        gf = float(me['gflops'])
        cu, cl = peer('cublas'), peer('clblast')
        print('%-7s %5d %8.3f %8.3f %7.3f %7s %7s %s %s' % (pr, n, float(b[0]['kernel_ms']) if b else float('nan'), float(me['kernel_ms']),
              gf / float(g[0]['gflops']), '%.2f' % (gf / cu[0]) if cu else '', '%.1f' % (gf / cl[0]) if cl else '', me['max_rel_err'], me['status']))
print('# cases (auto), ms')
for f in sorted(glob.glob(O + '/case_*.csv')):
    for r in rows(f): print('%-40s %8.3f %s %s' % (os.path.basename(f)[:-4], float(r['kernel_ms']), r['max_rel_err'], r['status']))
PY
cat $O/test_gpu.txt
