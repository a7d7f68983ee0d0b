#!/usr/bin/env bash
# The foundation's GPU run (issue 2): the seed's GEMM ladder next to CLBlast on the GPU machine.
# Run on the lent GPU machine from the repository root, after `bash .device/setup.sh`:
#   bash bench/scripts/gpu_foundation.sh "$OUT"
# Builds in build-gpu, prints the devices and writes CSVs (and the environment) into $1.
set -euo pipefail
out=${1:-bench-out}
mkdir -p "$out"
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release > "$out/cmake.log" 2>&1 || { cat "$out/cmake.log"; exit 1; }
cmake --build build-gpu -j 16 > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache
t=build-gpu/tessel
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader || true
  $t devices
} | tee "$out/env.txt"
gpu=${TESSEL_GPU:-nvidia}
# 1. the command: every variant at 1024 and 4096, CLBlast beside them, single precision
$t gemm --device "$gpu" --variant all --sizes 1024,4096 --peers clblast --verify --csv "$out/ladder_single.csv" || true
# 2. the same in double precision
$t gemm --device "$gpu" --variant all --sizes 1024,4096 --precision double --peers clblast --verify --csv "$out/ladder_double.csv" || true
# 3. auto next to CLBlast and OpenBLAS at the reference sizes
$t gemm --device "$gpu" --sizes 1000,4096,8192 --peers clblast,openblas --repeat 10 --csv "$out/auto_single.csv" || true
for f in "$out"/*.csv; do echo "== $f"; cut -d, -f2-6,10,11,17 "$f"; done
