#!/usr/bin/env bash
# One GPU-machine session of round 4 (2026-11-23, third session): the GEMM sweep of
# gemm_sweep_round4.txt (peeled edges, DGEMM split k) and issue 3's saxpy geometry experiment,
# everything packed into $OUT/results.tgz:
#   bash .device/setup.sh > /dev/null 2>&1; bash bench/scripts/gpu_round4.sh "$OUT"
set -uo pipefail
o=${1:?usage: gpu_round4.sh OUT}
bash bench/scripts/gpu_gemm_sweep.sh "$o/gemm" bench/scripts/gemm_sweep_round4.txt | tail -40
OUT=$o/axpy bash bench/scripts/gpu_axpy_geometry.sh
cd "$o" && rm -f gemm/results.tgz axpy/results.tgz && tar czf results.tgz gemm/*.csv gemm/*.txt gemm/ptx/index.txt axpy/csv axpy/base/env.txt && rm -rf gemm axpy
