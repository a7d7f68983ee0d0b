# Shared preamble of the GPU-machine scripts (sourced, not run): builds tessel in build-gpu,
# points the kernel cache and the user tuning directory into it (no stale user tuning), records
# the environment and defines run(), which logs each tessel command to $out/commands.txt.
#   source bench/scripts/lib.sh "$out"      # then: run gemm ...; $t is the tessel binary
out=${1:?usage: source bench/scripts/lib.sh OUT}
mkdir -p "$out"
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > "$out/cmake.log" 2>&1 || { cat "$out/cmake.log"; exit 1; }
cmake --build build-gpu -j "$(nproc)" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
export TESSEL_CACHE_DIR=${TESSEL_CACHE_DIR:-$PWD/build-gpu/kcache}
export TESSEL_TUNING_DIR=${TESSEL_TUNING_DIR:-$PWD/build-gpu/no-user-tuning}
t=build-gpu/tessel
d=${TESSEL_BENCH_DEVICE:-nvidia}
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader || true
  $t devices; } > "$out/env.txt" 2>&1
: > "$out/commands.txt"
run() { echo "tessel $*" >> "$out/commands.txt"; timeout "${RUN_TIMEOUT:-200}" $t "$@" 2>&1 | grep -vE '^\s*$'; }
# The PTX of the cached programs whose entry matches REGEX, with ptxas's report where the CUDA
# toolkit is installed: dump_ptx REGEX -> $out/ptx/index.txt
dump_ptx() {
  python3 bench/scripts/cache_ptx.py "$TESSEL_CACHE_DIR" "$out/ptx" --entry "$1" \
    --ptxas "$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)" > /dev/null
}
