#!/usr/bin/env bash
# The dropin suite: the drop-in BLAS (libtessel_blas.so) as unmodified programs see it, beside
# NVBLAS and OpenBLAS, the same binaries in the same run:
#   (1) OpenBLAS alone, (2) NVBLAS preloaded (cuBLAS for Level 3, its CPU fallback the same
#   OpenBLAS), (3) libtessel_blas.so preloaded (TESSEL_BLAS_ROUTE=auto, its CPU BLAS the same
#   OpenBLAS). Every OpenBLAS runs with the core tessel's command picks on this host.
#   bash bench/scripts/dropin.sh DEVICE_NAME OUTDIR      (e.g. h200 bench/results/h200/dropin)
# dropin.csv (label,case,n,run,seconds,gflops; one line per run, host clock, data from and to the
# program's own malloc'd memory), from bench/dropin/blas_client.c and numpy:
#   gemm    sgemm_ / dgemm_ at N (default 16384), 2 runs each
#   complex cgemm_ / zgemm_ at N, 2 runs each (OpenBLAS 1; COMPLEX_OPENBLAS=0 leaves it out),
#           and tessel's device-resident
#           complex GEMM at N (resident_complex.csv, resident_doublecomplex.csv); not in the
#           default PARTS (its own claim: PARTS=complex ... bench/results/h200/complex-dropin)
#   lapack  dgetrf_ / dpotrf_ / dgesv_ at LAPACK_N (default 16384), 1 run: the drop-in's own
#           LAPACK symbols (tessel), OpenBLAS's own LAPACK alone (openblas_lapack), and with
#           LAPACK_MODES (default "openblas nvblas") reference LAPACK's blocked algorithms over
#           OpenBLAS or NVBLAS (NVBLAS: about 100 s)
#   small   100,000 dgemm_ of 32^3 and 100,000 dgesv_ of 8 x 8, twice interleaved, 5 runs each
#   numpy   float32 a @ b at N through Debian's python3 numpy (CBLAS), where numpy is installed
# resident_{single,double}.csv: tessel's own device-resident GEMM at N (`tessel gemm`), the
# figure the host-memory rate is compared with. PARTS (default gemm,lapack,small,numpy) picks the
# parts; about 5 minutes in all on an H100 / H200. Needs NVBLAS (/usr/local/cuda/lib64/libnvblas.so)
# for the nvblas rows; without it they are recorded as skipped.
set -euo pipefail
source "$(dirname "$0")/lib.sh" dropin "$@"
PARTS=${PARTS:-gemm,lapack,small,numpy}
N=${N:-16384}
LAPACK_N=${LAPACK_N:-16384}
lapack=/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3
openblas=/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3
client=$BUILD_ABS/bench-blas_client
if ! cc -O2 bench/dropin/blas_client.c -o "$client" "$lapack" -lblas -lm 2> "$LOGDIR/client-build.log"; then
  echo "dropin: cannot build bench/dropin/blas_client.c ($LOGDIR/client-build.log)" >&2
  echo "blas_client_build,1,0,error" >> "$STATUS"
  bench_finish
  exit 0
fi
nvblas=$(ls /usr/local/cuda/lib64/libnvblas.so* /usr/lib/x86_64-linux-gnu/libnvblas.so* 2> /dev/null | head -1 || true)
cat > "$LOGDIR/nvblas.conf" << CONF
NVBLAS_LOGFILE $LOGDIR/nvblas.log
NVBLAS_CPU_BLAS_LIB $openblas
NVBLAS_GPU_LIST ALL0
NVBLAS_AUTOPIN_MEM_ENABLED
CONF
tessel_blas=$BUILD_ABS/libtessel_blas.so
csv=$OUT/dropin.csv
echo "label,case,n,run,seconds,gflops" > "$csv"
# mode NAME LABEL RUNS CMD...: CMD as OpenBLAS alone, NVBLAS or tessel's drop-in, its CSV lines
# appended to dropin.csv, its status in status.csv
mode() {
  local name=$1 label=$2 runs=$3 t0 rc st
  shift 3
  echo "[$label] RUNS=$runs $*" | sed "s#$ROOT/##g" >> "$LOGDIR/commands.txt"
  local pre=()
  case $label in
    nvblas)
      if [ -z "$nvblas" ]; then echo "$name,0,0,skipped" >> "$STATUS"; return 0; fi
      pre=(env NVBLAS_CONFIG_FILE="$LOGDIR/nvblas.conf" LD_PRELOAD="$nvblas") ;;
    tessel) pre=(env LD_PRELOAD="$tessel_blas") ;;
    openblas_lapack) pre=(env LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libopenblas.so.0) ;;
    *) pre=(env) ;;
  esac
  t0=$(date +%s)
  if timeout "$CASE_TIMEOUT" "${pre[@]}" LABEL="$label" RUNS="$runs" "$@" >> "$csv" 2>> "$LOGDIR/$name.err"; then
    rc=0; else rc=$?; fi
  case $rc in 0) st=ok ;; 124 | 137) st=timeout ;; *) st=error ;; esac
  echo "$name,$rc,$(($(date +%s) - t0)),$st" >> "$STATUS"
  [ $rc = 0 ] || echo "  $name: $st (exit $rc)" >&2
  return 0
}
# The drop-in calibrates once per device and keeps the figures in tessel's cache directory; a
# fresh machine pays it in its first large call. Paid here, up front, so the rows are a
# program's steady state.
run_case calibrate env TESSEL_BLAS_RECALIBRATE=1 LD_PRELOAD="$tessel_blas" LABEL=calibrate RUNS=1 "$client" dgemm:2048
if [[ $PARTS == *gemm* ]]; then
  for m in tessel nvblas openblas; do
    mode "gemm_$m" $m 2 "$client" sgemm:$N dgemm:$N
  done
  for p in single double; do
    tsl "resident_$p" gemm --device "$DEV" --size $N --precision $p --repeat 3 --warmup 1
  done
fi
if [[ $PARTS == *complex* ]]; then
  # cgemm_ / zgemm_ from host memory (OpenBLAS alone: one run, about 40 s for zgemm_ at 16384)
  for m in tessel nvblas; do
    mode "complex_$m" $m 2 "$client" cgemm:$N zgemm:$N
  done
  [ "${COMPLEX_OPENBLAS:-1}" = 0 ] || mode complex_openblas openblas 1 "$client" cgemm:$N zgemm:$N
  for p in complex doublecomplex; do
    tsl "resident_$p" gemm --device "$DEV" --size $N --precision $p --repeat 3 --warmup 1
  done
fi
if [[ $PARTS == *lapack* ]]; then
  # The client records only the soname liblapack.so.3, which the system may resolve to OpenBLAS's
  # own LAPACK: LD_LIBRARY_PATH puts the reference first (the client's stderr says where dgetrf_
  # came from).
  for m in tessel ${LAPACK_MODES-openblas nvblas}; do
    mode "lapack_$m" $m 1 env LD_LIBRARY_PATH="$(dirname $lapack)" "$client" getrf:$LAPACK_N potrf:$LAPACK_N gesv:$LAPACK_N
  done
  mode lapack_openblas_lapack openblas_lapack 1 "$client" getrf:$LAPACK_N potrf:$LAPACK_N gesv:$LAPACK_N
fi
if [[ $PARTS == *small* ]]; then
  # without TESSEL_BLAS_VERBOSE (its report times every call); twice, interleaved: this host's
  # run-to-run spread for 1 us calls is about 20%
  for rep in 1 2; do
    for m in tessel openblas nvblas; do
      mode "small_${m}_$rep" $m 5 "$client" small:32:100000
    done
    for m in tessel openblas_lapack; do
      mode "smallsolve_${m}_$rep" $m 5 "$client" smallsolve:8:100000
    done
  done
fi
if [[ $PARTS == *numpy* ]]; then
  # Debian's numpy calls CBLAS through libblas.so.3, so a preloaded library reaches it (a pip numpy
  # carries its own renamed OpenBLAS that nothing can intercept)
  py=$(command -v python3 || true)
  if [ -n "$py" ] && "$py" -c 'import numpy, sys; sys.exit(0 if "/usr/lib/python3" in numpy.__file__ else 1)' 2> /dev/null; then
    cat > "$BUILD_ABS/bench-numpy_matmul.py" << 'PY'
import os, sys, time, numpy as np
n = int(sys.argv[1])
rng = np.random.default_rng(1)
a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
for r in range(2):
    t = time.perf_counter()
    c = a @ b
    t = time.perf_counter() - t
    print(f"{os.environ.get('LABEL','')},numpy_sgemm,{n},{r},{t:.6f},{2.0 * n**3 / t / 1e9:.1f}", flush=True)
PY
    for m in tessel nvblas openblas; do
      mode "numpy_$m" $m 1 "$py" "$BUILD_ABS/bench-numpy_matmul.py" $N
    done
  else
    echo "numpy,0,0,skipped" >> "$STATUS"
    echo "numpy: no Debian python3-numpy on this machine: skipped" >&2
  fi
fi
bench_finish
