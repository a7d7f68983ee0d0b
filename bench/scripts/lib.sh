# Shared preamble of the GPU-machine scripts (sourced, not run): builds tessel in build-gpu,
# points the kernel cache and the user tuning directory into it (no stale user tuning), records
# the environment and defines run(), which logs each tessel command to $out/commands.txt, and the
# helpers of the side-by-side comparisons (base_tree, gpu_trsm_tests: below).
#   source bench/scripts/lib.sh "$out"      # then: run gemm ...; $t is the tessel binary
out=${1:?usage: source bench/scripts/lib.sh OUT}
mkdir -p "$out"
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > "$out/cmake.log" 2>&1 || { cat "$out/cmake.log"; exit 1; }
cmake --build build-gpu -j "$(nproc)" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
export TESSEL_CACHE_DIR=${TESSEL_CACHE_DIR:-$PWD/build-gpu/kcache}
export TESSEL_TUNING_DIR=${TESSEL_TUNING_DIR:-$PWD/build-gpu/no-user-tuning}
t=build-gpu/tessel
d=${TESSEL_BENCH_DEVICE:-nvidia}
# env.txt: date, GPU, host CPU, and `tessel devices`, whose last lines name the OpenBLAS the
# openblas peer times (version, core, threads, build options) and the core the timing commands
# choose where OpenBLAS fell back to generic kernels (OPENBLAS_CORETYPE; docs/tessel.1).
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader || true
  echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') ($(nproc) cores)"
  echo "OPENBLAS_CORETYPE: ${OPENBLAS_CORETYPE:-unset}"
  $t devices; } > "$out/env.txt" 2>&1
: > "$out/commands.txt"
run() { echo "tessel $*" >> "$out/commands.txt"; timeout "${RUN_TIMEOUT:-200}" $t "$@" 2>&1 | grep -vE '^\s*$'; }
# The PTX of the cached programs whose entry matches REGEX, with ptxas's report where the CUDA
# toolkit is installed: dump_ptx REGEX -> $out/ptx/index.txt
dump_ptx() {
  python3 bench/scripts/cache_ptx.py "$TESSEL_CACHE_DIR" "$out/ptx" --entry "$1" \
    --ptxas "$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)" > /dev/null
}
# A copy of the tree with one piece of FILE replaced (a literal string, checked) and tessel built
# in DIR/b, for experiments that compare settings of a table in one session:
#   patched_tree DIR FILE FROM TO && DIR/b/tessel ...
patched_tree() {
  local dir=$1 file=$2
  rm -rf "$dir" && mkdir -p "$dir" && cp -r src cli bench include cmake tests CMakeLists.txt Makefile "$dir"/ 2>/dev/null
  python3 - "$dir/$file" "$3" "$4" <<'PY' || { echo "patched_tree: '$3' not in $file"; return 1; }
import sys
p, a, b = sys.argv[1:]
s = open(p).read()
if a not in s:
    sys.exit(1)
open(p, 'w').write(s.replace(a, b, 1))
PY
  (cmake -S "$dir" -B "$dir/b" -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 &&
   cmake --build "$dir/b" -j "$(nproc)" --target tessel_cli > /dev/null 2>&1) || { echo "patched_tree: build in $dir failed"; return 1; }
}
# The older tree of a side-by-side comparison: the git archive TARBALL unpacked in /tmp/base and
# its tessel built in /tmp/base/b (run it with its own kernel cache, TESSEL_CACHE_DIR=/tmp/base/kc);
# the build's log in $out/build-base.log. Callers run it in the background (&) and `wait`.
base_tree() {
  mkdir -p /tmp/base && tar xzf "$1" -C /tmp/base &&
    cmake -S /tmp/base -B /tmp/base/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 &&
    cmake --build /tmp/base/b -j 8 --target tessel_cli > "$out/build-base.log" 2>&1 || tail -5 "$out/build-base.log"
}
# test_level3 trsm on the GPU, from a Release build with tests in build-gt: with its defaults, then
# with B in each number of parts given (gpu_trsm_tests 1 2 4), one summary line each
gpu_trsm_tests() {
  cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > "$out/cmake-t.log" 2>&1 &&
    cmake --build build-gt -j 8 --target test_level3 > "$out/build-t.log" 2>&1 || tail -5 "$out/build-t.log"
  echo "# TESSEL_DEVICE=nvidia build-gt/tests/test_level3 trsm [0 auto auto auto 0 STREAMS] (Release build with tests, $(date -u +%F))"
  TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 2>&1 | tail -1
  for st in "$@"; do TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 0 auto auto auto 0 "$st" 2>&1 | tail -1; done
}
