#!/usr/bin/env bash
# as_system_lapack.sh DROPIN TESTER INPUT: the drop-in as the system's liblapack.so.3 and
# libblas.so.3, as Debian's alternatives would install it, without touching the machine's own
# alternatives: a scratch folder whose liblapack.so.3 and libblas.so.3 are links to DROPIN comes
# first on LD_LIBRARY_PATH, so reference LAPACK's TESTER (xlintstd) loads the drop-in for both; its
# own LAPACK routines then run on the device (TESSEL_BLAS_ROUTE as the environment sets it) and
# every other LAPACK symbol forwards to the CPU LAPACK the drop-in finds (never itself). Runs
# lapack_tester.sh TESTER INPUT there; fails unless the tester really loaded the drop-in. In the
# sanitizer build the drop-in carries AddressSanitizer, whose runtime must come first in a process
# it did not start in: TSL_ASAN_RUNTIME (set by ctest there) is preloaded, as preload.sh does.
set -uo pipefail
dropin=$1 tester=$2 input=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ln -s "$dropin" "$dir/liblapack.so.3"
ln -s "$dropin" "$dir/libblas.so.3"
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
loaded=$(ldd "$tester" | awk '$1 == "liblapack.so.3" {print $3}')
if [ "$loaded" != "$dir/liblapack.so.3" ]; then
  echo "as_system_lapack: $tester loads $loaded, not the drop-in" >&2
  exit 1
fi
echo "as_system_lapack: liblapack.so.3 and libblas.so.3 are $dropin"
if [ -n "${TSL_ASAN_RUNTIME:-}" ]; then
  export LD_PRELOAD="$TSL_ASAN_RUNTIME"
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi
exec bash "$(dirname "$0")/lapack_tester.sh" "$tester" "$input"
