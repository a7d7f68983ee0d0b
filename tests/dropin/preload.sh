#!/usr/bin/env bash
# preload.sh: runs a foreign program (a reference BLAS tester, python3, a LAPACK client) with
# libtessel_blas.so preloaded, the way a user runs LD_PRELOAD=libtessel_blas.so program.
#   preload.sh LIBTESSEL_BLAS [STDIN_FILE|-] program args...
# In the sanitizer build the library carries AddressSanitizer, whose runtime must come first in
# a process it did not start in: TSL_ASAN_RUNTIME (set by ctest in that build) is put before it.
# Leak checking is off for these programs (their own runtimes, gfortran's and python's, are not
# ours to judge); the library's own leaks are checked by the C tests that link it.
set -euo pipefail
lib=$1; input=$2; shift 2
preload=$lib
if [ -n "${TSL_ASAN_RUNTIME:-}" ]; then preload="$TSL_ASAN_RUNTIME:$lib"; fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
if [ "$input" = - ]; then
  exec env LD_PRELOAD="$preload" "$@"
else
  exec env LD_PRELOAD="$preload" "$@" < "$input"
fi
