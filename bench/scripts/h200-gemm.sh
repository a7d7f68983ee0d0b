#!/usr/bin/env bash
# bench/results/h200/gemm: the foundation's GPU run (issue 2), the seed's GEMM ladder next to
# CLBlast, and auto next to CLBlast and OpenBLAS (the host CPU, with the kernels its flags
# support: env.txt and the openblas rows name them) at the reference sizes:
#   bash .device/setup.sh && bash bench/scripts/h200-gemm.sh "$OUT"
set -uo pipefail
source bench/scripts/lib.sh "${1:-bench-out}"
export RUN_TIMEOUT=${RUN_TIMEOUT:-500}
# 1. the command: every variant at 1024 and 4096, CLBlast beside them, single precision
run gemm --device $d --variant all --sizes 1024,4096 --peers clblast --verify --csv "$out/ladder_single.csv"
# 2. the same in double precision
run gemm --device $d --variant all --sizes 1024,4096 --precision double --peers clblast --verify --csv "$out/ladder_double.csv"
# 3. auto next to CLBlast and OpenBLAS at the reference sizes
run gemm --device $d --sizes 1000,4096,8192 --peers clblast,openblas --repeat 10 --csv "$out/auto_single.csv"
for f in "$out"/*.csv; do echo "== $f"; cut -d, -f2-7,10,11,17 "$f"; done
