#!/usr/bin/env bash
# Result: bench/results/h200/round4/check.
# The end of round 4 on the GPU machine (2026-11-23): the landed tree verified where this session
# changed it (peeled edges with transposes and beta, the FP64 tensor-core DGEMM on ragged shapes,
# axpy's geometry, the naive Jacobi shape), every row against the CPU reference; $OUT/results.tgz:
#   bash .device/setup.sh > /dev/null 2>&1; bash bench/scripts/h200-round4-check.sh "$OUT"
set -uo pipefail
o=${1:?usage: h200-round4-check.sh OUT}
source bench/scripts/lib.sh "$o/r" > /dev/null
c="$out/check.csv"
for a in "--size 4097" "--size 1025" "-m 4100 -n 1000 -k 333 --transa T --layout col --beta 0.5" \
         "--precision double --size 4097" "--precision double --size 1000" \
         "--precision double -m 2049 -n 130 -k 77 --transb T --beta 0.5" \
         "--precision double -m 300 -n 4099 -k 1000 --transa T --transb T --layout col"; do
  run gemm --device $d $a --verify --repeat 5 --peers cublas --csv - | grep '^gemm' >> "$c"
done
for p in single double; do
  run blas1 --device $d --op axpy --precision $p --size 67108864 --peers clblast,cublas --copy --verify --repeat 20 --csv - | grep '^axpy' >> "$c"
done
run poisson --device $d --variant all --grid 8192 --iters 200 --tol 0 --copy --repeat 5 --csv - | grep '^poisson' >> "$c"
python3 - "$c" <<'PY'
import csv, sys
for r in csv.reader(open(sys.argv[1])):
    print(' '.join(r[:6]), r[10] or r[11], r[15], r[16])
PY
cd "$o" && tar czf results.tgz -C r . && rm -rf r
