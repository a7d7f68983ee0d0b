#!/usr/bin/env bash
# Result: bench/results/pocl-dev.
# The foundation's CPU benchmark (issue 2) on the development machine's PoCL device:
#   bash bench/scripts/pocl-dev.sh BUILD_DIR OUT_DIR
# auto vs CLBlast-on-PoCL vs OpenBLAS, side by side in one run per precision, plus the ladder.
set -euo pipefail
t=${1:-build}/tessel
out=${2:-bench/results/pocl-dev}
mkdir -p "$out"
{
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) ($(nproc) cores)"
  echo "pocl: $(dpkg-query -W -f='${Version}' pocl-opencl-icd 2>/dev/null)"
  echo "clblast: $(dpkg-query -W -f='${Version}' libclblast1 2>/dev/null)"
  echo "openblas: $(dpkg-query -W -f='${Version}' libopenblas0-pthread 2>/dev/null)"
  "$t" devices
} > "$out/env.txt"
run() { echo "\$ tessel $*" >> "$out/commands.txt"; "$t" "$@"; }
: > "$out/commands.txt"
run gemm --size 1024 --peers clblast,openblas --repeat 20 --verify --csv "$out/auto_1024_single.csv"
run gemm --size 1024 --peers clblast,openblas --repeat 20 --verify --precision double --csv "$out/auto_1024_double.csv"
run gemm --variant all --sizes 256,512,1024 --peers clblast,openblas --repeat 5 --verify --csv "$out/ladder_single.csv"
