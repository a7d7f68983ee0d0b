# bench/scripts/lib.sh: what every suite script shares (sourced, not run).
#
#   set -euo pipefail
#   source "$(dirname "$0")/lib.sh" SUITE "$@"      # "$@" = DEVICE_NAME OUTDIR
#   tsl NAME gemm --size 4096 ...                   # build/tessel ... --csv OUTDIR/NAME.csv
#   run_case NAME CMD ...                           # any other command, its output kept aside
#   bench_finish                                    # summary table, README skeleton
#
# It unpacks the GPU machine's carried packages when it finds them (.device/setup.sh, made by
# shared/device/prepare.sh on the development machine; SETUP=0 skips), builds tessel in Release
# where it is not built yet ($TESSEL_BUILD_DIR, default build/), points the kernel cache and the
# user tuning directory into the build folder (so no stale user tuning changes a result), and
# writes OUTDIR/env.txt: date, commit, GPU and driver (nvidia-smi), CUDA, the OpenCL platforms
# (clinfo), CLBlast, OpenBLAS, PoCL and OpenMPI versions, the host CPU, `tessel devices`.
#
# One case that fails does not stop the suite: run_case records every case's exit status in
# OUTDIR/status.csv (ok, verify_failed, timeout, error) and goes on. The cases' stdout and stderr
# go to $BENCH_LOG_DIR (default build/bench-logs/SUITE-DEVICE_NAME), not into OUTDIR, which holds
# only what a result folder keeps: README.md, the CSVs (raw output of bench programs that write
# none) and env.txt.
#
# Environment: TESSEL_COMMIT (the commit to record; default: the tree's HEAD when it is a git checkout), TESSEL_BENCH_DEVICE (the --device SPEC; default nvidia, pocl for DEVICE_NAME pocl),
# CASE_TIMEOUT (seconds a case may run, default 300), TESSEL_BUILD_DIR, BENCH_LOG_DIR, SETUP.

if [ $# -lt 3 ]; then
  echo "usage: bash bench/scripts/$1.sh DEVICE_NAME OUTDIR   (e.g. h200 bench/results/h200/$1)" >&2
  exit 2
fi
SUITE=$1
DEVICE_NAME=$2
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT" || exit 1
mkdir -p "$3"
OUT=$(cd "$3" && pwd)
BUILD=${TESSEL_BUILD_DIR:-build}
case $BUILD in /*) BUILD_ABS=$BUILD ;; *) BUILD_ABS=$ROOT/$BUILD ;; esac
T=$BUILD/tessel
case $DEVICE_NAME in
  pocl*) DEV=${TESSEL_BENCH_DEVICE:-pocl} ;;
  *) DEV=${TESSEL_BENCH_DEVICE:-nvidia} ;;
esac
CASE_TIMEOUT=${CASE_TIMEOUT:-300}
LOGDIR=${BENCH_LOG_DIR:-$BUILD_ABS/bench-logs/$SUITE-$DEVICE_NAME}
mkdir -p "$LOGDIR"
: > "$LOGDIR/commands.txt"
STATUS=$OUT/status.csv
echo "case,exit,seconds,status" > "$STATUS"
BENCH_T0=$(date +%s)

# is_gpu: true where the run is on an NVIDIA GPU (the cuBLAS peer, NVBLAS, nvidia-smi exist)
is_gpu() { command -v nvidia-smi > /dev/null 2>&1 && [[ $DEV != pocl* && $DEV != cpu* ]]; }

# ---- the GPU machine's packages (CLBlast, OpenBLAS, clinfo, reference LAPACK; OpenMPI) ------------
if [ "${SETUP:-auto}" != 0 ] && command -v nvidia-smi > /dev/null 2>&1; then
  for f in .device/setup.sh .device/mpi/setup.sh; do
    if [ -f "$f" ]; then
      bash "$f" >> "$LOGDIR/setup.log" 2>&1 || { tail -20 "$LOGDIR/setup.log"; exit 1; }
    fi
  done
fi

# ---- build (Release) ----------------------------------------------------------------------------
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake_args=(-DCMAKE_BUILD_TYPE=Release)
  # OpenMPI unpacked without its alternatives links has mpicc.openmpi but no mpicc
  if ! command -v mpicc > /dev/null 2>&1 && command -v mpicc.openmpi > /dev/null 2>&1; then
    cmake_args+=(-DMPI_C_COMPILER="$(command -v mpicc.openmpi)")
  fi
  cmake -S . -B "$BUILD" "${cmake_args[@]}" > "$LOGDIR/cmake.log" 2>&1 ||
    { tail -30 "$LOGDIR/cmake.log"; exit 1; }
fi
cmake --build "$BUILD" -j "$(nproc)" > "$LOGDIR/build.log" 2>&1 || { tail -40 "$LOGDIR/build.log"; exit 1; }
BUILD_TYPE=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
if [ "$BUILD_TYPE" != Release ]; then
  echo "warning: $BUILD is a '$BUILD_TYPE' build, not Release: its figures are not comparable" >&2
fi
export TESSEL_CACHE_DIR=${TESSEL_CACHE_DIR:-$BUILD_ABS/bench-kcache}
export TESSEL_TUNING_DIR=${TESSEL_TUNING_DIR:-$BUILD_ABS/bench-no-user-tuning}
mkdir -p "$TESSEL_CACHE_DIR" "$TESSEL_TUNING_DIR"

# Debian's OpenBLAS does not know the GPU machine's CPU and falls back to generic kernels; the
# command picks the core the CPU's flags support when it times OpenBLAS. Every OpenBLAS of a suite
# (the --verify reference, the openblas peer, the drop-in's CPU side) runs with that core here.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  core=$("$T" devices --json 2> /dev/null | sed -n 's/.*"planned_coretype": *"\([A-Za-z0-9]*\)".*/\1/p' | head -1 || true)
  [ -n "$core" ] && export OPENBLAS_CORETYPE=$core
fi

# ---- the environment record ---------------------------------------------------------------------
# pkgver PKG: the installed package's version, else the version of its .deb carried in .device/
# (unpacked by setup.sh, unknown to dpkg)
pkgver() {
  local deb
  dpkg-query -W -f='${Version}' "$1" 2> /dev/null && return
  deb=$(ls .device/"$1"_*.deb 2> /dev/null | head -1)
  if [ -n "$deb" ]; then deb=${deb##*/}; deb=${deb#"$1"_}; echo "${deb%%_*} (carried in .device)"; else echo "not installed"; fi
}
{
  echo "suite: $SUITE"
  echo "device name: $DEVICE_NAME (--device $DEV)"
  date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  if [ -n "${TESSEL_COMMIT:-}" ]; then
    echo "commit: $TESSEL_COMMIT"
  elif [ "$(git rev-parse --show-toplevel 2> /dev/null)" = "$ROOT" ]; then
    echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src cli include 2> /dev/null || echo ' (with local changes)')"
  else
    echo "commit: ${TESSEL_COMMIT:-unknown (no git here: set TESSEL_COMMIT)}"
  fi
  echo "build: $BUILD ($BUILD_TYPE)"
  echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') ($(nproc) cores), $(uname -sr)"
  if command -v nvidia-smi > /dev/null 2>&1; then
    echo "gpu: $(nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm,pci.bus_id --format=csv,noheader 2> /dev/null | paste -sd ';' -)"
    echo "cuda (driver): $(nvidia-smi 2> /dev/null | sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' | head -1)"
  else
    echo "gpu: no nvidia-smi"
  fi
  echo "cuda toolkit: $( (nvcc --version 2> /dev/null || /usr/local/cuda/bin/nvcc --version 2> /dev/null) | sed -n 's/.*release \([0-9.]*\).*/\1/p' | head -1)"
  echo "clblast: $(pkgver libclblast1)"
  echo "openblas: $(pkgver libopenblas0-pthread)"
  echo "pocl: $(pkgver pocl-opencl-icd)"
  echo "openmpi: $( (mpirun --version 2> /dev/null || mpirun.openmpi --version 2> /dev/null) | head -1)"
  echo "OPENBLAS_CORETYPE: ${OPENBLAS_CORETYPE:-unset}"
  env | grep -E '^TESSEL_' | sort || true
  echo "== clinfo -l"
  clinfo -l 2> /dev/null || echo "no clinfo"
  echo "== tessel devices"
  "$T" devices 2>&1 || true
} > "$OUT/env.txt"

# ---- cases --------------------------------------------------------------------------------------
# run_case NAME CMD...: runs CMD (under timeout), stdout and stderr into $LOGDIR/NAME.{out,err},
# its status into status.csv; never fails the suite. Exit 1 of tessel is a failed --verify (the
# rows are still written).
run_case() {
  local name=$1 t0 rc st
  shift
  echo "$*" | sed "s#$ROOT/##g; s#$OUT#OUTDIR#g" >> "$LOGDIR/commands.txt"
  t0=$(date +%s)
  if timeout "$CASE_TIMEOUT" "$@" > "$LOGDIR/$name.out" 2> "$LOGDIR/$name.err"; then rc=0; else rc=$?; fi
  case $rc in
    0) st=ok ;;
    1) st=verify_failed ;;
    124 | 137) st=timeout ;;
    *) st=error ;;
  esac
  echo "$name,$rc,$(($(date +%s) - t0)),$st" >> "$STATUS"
  if [ "$rc" != 0 ]; then
    echo "  $name: $st (exit $rc) $(grep -m1 -i 'error' "$LOGDIR/$name.err" | cut -c1-160)" >&2
  fi
  return 0
}
# run_raw NAME FILE CMD...: as run_case, CMD's stdout appended to OUTDIR/FILE (the raw record of
# a bench program that writes no CSV)
run_raw() {
  local name=$1 file=$2
  shift 2
  run_case "$name" "$@"
  cat "$LOGDIR/$name.out" >> "$OUT/$file"
}
# tsl NAME ARGS...: build/tessel ARGS --csv OUTDIR/NAME.csv
tsl() {
  local name=$1
  shift
  run_case "$name" "$T" "$@" --csv "$OUT/$name.csv"
}

# ---- the end: summary and README skeleton -------------------------------------------------------
bench_finish() {
  local summary=$LOGDIR/summary.txt readme=$OUT/README.md
  {
    if command -v python3 > /dev/null 2>&1; then
      python3 "$ROOT/bench/scripts/summary.py" "$OUT" || true
    else
      for f in "$OUT"/*.csv; do echo "== ${f##*/}"; cut -d, -f1-6,10-12,17 "$f"; done
    fi
  } > "$summary"
  local bad
  bad=$(awk -F, 'NR > 1 && $4 != "ok"' "$STATUS" | wc -l)
  [ -e "$readme" ] && ! grep -q '^<!-- skeleton' "$readme" && readme=$LOGDIR/README.skeleton.md
  {
    echo "<!-- skeleton written by bench/scripts/$SUITE.sh: replace the TODO lines, then delete this line -->"
    echo "# $SUITE on $DEVICE_NAME"
    echo
    echo "TODO: the claim these files back, and the document that quotes it."
    echo
    sed -n 's/^gpu: /- GPU (index, name, driver, memory, clock, bus): /p; s/^cuda (driver): /- CUDA: /p; s/^date: /- Date: /p; s/^commit: /- Commit: /p; s/^clblast: /- CLBlast: /p; s/^openblas: /- OpenBLAS: /p; s/^OPENBLAS_CORETYPE: /- OPENBLAS_CORETYPE: /p' "$OUT/env.txt"
    echo
    echo "Reproduce (from the repository root; on the GPU machine after carrying \`.device\`):"
    echo
    echo "    bash bench/scripts/$SUITE.sh $DEVICE_NAME ${OUT#"$ROOT"/}"
    echo
    echo "Files: \`env.txt\` (the environment), \`status.csv\` (every case's exit status: $bad not ok),"
    echo "and one CSV per case (columns as \`tessel --help\` describes):"
    echo
    echo '```'
    cat "$LOGDIR/commands.txt"
    echo '```'
    echo
    echo "Summary:"
    echo
    echo '```'
    cat "$summary"
    echo '```'
  } > "$readme"
  cat "$summary"
  echo
  echo "$SUITE on $DEVICE_NAME: $(($(wc -l < "$STATUS") - 1)) cases, $bad not ok, $(($(date +%s) - BENCH_T0)) s; results in $OUT (README: $readme), logs in $LOGDIR"
}
