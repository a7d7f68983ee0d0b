#!/usr/bin/env bash
# expect_device.sh: runs a command with TESSEL_BLAS_VERBOSE=1 and checks from the drop-in's exit
# report that the named routines really ran on the device (a nonzero device call count), so a
# client test cannot pass by never reaching tessel. The command's own exit status must be 0.
#   expect_device.sh "dgemm dtrsm cblas_dgemm" command args...
set -uo pipefail
routines=$1; shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
TESSEL_BLAS_VERBOSE=1 "$@" 2> >(tee "$log" >&2)
rc=$?
wait
if [ $rc -ne 0 ]; then echo "expect_device: the command failed (exit $rc)" >&2; exit 1; fi
for r in $routines; do
  # the report's line: "tessel-blas: NAME cpu_calls cpu_s dev_calls dev_s dev_failed"
  dev=$(awk -v r="$r" '$1 == "tessel-blas:" && $2 == r {print $5}' "$log" | tail -1)
  if [ -z "$dev" ] || [ "$dev" = 0 ]; then
    echo "expect_device: $r did not run on the device (device calls: ${dev:-none})" >&2
    exit 1
  fi
  echo "expect_device: $r ran $dev calls on the device"
done
