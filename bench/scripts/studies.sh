#!/usr/bin/env bash
# The studies suite: every study of the source documents (docs/studies.md) in --full mode, one
# folder: each writes NAME.md (device, driver, date, every command it ran with its time, the
# tables and the comparison with the document's claim), NAME.csv (every row) and its figures
# (NAME-FIG.png, drawn by gnuplot from NAME-FIG.gp).
#   bash bench/scripts/studies.sh DEVICE_NAME OUTDIR      (e.g. h200 bench/results/h200/studies)
# STUDIES picks them (default: memory-hierarchy gemm-ladder transpose optimizations precision
# poisson opencl-vs-cuda; about 3 minutes of commands in all on an H200). The GPU machine has no
# gnuplot: the studies then write CSV, markdown and the .gp scripts, and the figures are drawn
# afterwards where gnuplot is: build/tessel study --replot --out OUTDIR.
set -euo pipefail
source "$(dirname "$0")/lib.sh" studies "$@"
STUDIES=${STUDIES:-memory-hierarchy gemm-ladder transpose optimizations precision poisson opencl-vs-cuda}
for s in $STUDIES; do
  run_case "$s" "$T" study "$s" --full --device "$DEV" --out "$OUT"
done
bench_finish
