#!/usr/bin/env bash
# Result: bench/results/h200/studies.
# Issue 5: every study of the source documents in --full mode on the GPU machine, one directory:
#   bash .device/setup.sh && bash bench/scripts/h200-studies.sh "$OUT" [STUDY ...]
# gnuplot is usually absent there: the studies then write CSV, markdown and .gp scripts, and the
# figures are drawn afterwards on a machine with gnuplot (tessel study --replot, or gnuplot on
# each NAME-FIG.gp in the directory).
set -uo pipefail
out=${1:-bench-out}
shift || true
studies=${*:-memory-hierarchy gemm-ladder transpose optimizations precision poisson opencl-vs-cuda}
source bench/scripts/lib.sh "$out"
for s in $studies; do
  start=$(date +%s)
  timeout 300 $t study "$s" --full --device $d --out "$out/studies" 2>&1 | tail -3
  echo "study $s: exit ${PIPESTATUS[0]}, $(( $(date +%s) - start )) s"
done
