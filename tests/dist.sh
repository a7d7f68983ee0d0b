# dist.sh TEST_DIST [MPIRUN]: under `mpirun -np 2`, a distributed GEMM or Jacobi solve writes the
# caller's C or u only when every rank has succeeded (tests/test_dist.c). Without a fault, the
# result is the single device's bit for bit (exit 0), Jacobi with the halo exchange overlapped
# with the sweeps (naive and temporal_4) and serial (TESSEL_POISSON_OVERLAP=0). With TESSEL_FAULT_RANK (the test hook of
# docs/multi-device.md) rank 0 or 1 fails after computing its part (GEMM: after its block;
# Jacobi, R:late: after its last sweep, before its rows go to rank 0), when the rows of the other
# rank are ready or already on rank 0: the call fails naming that rank and C or u is exactly as
# before (exit 3, "untouched"). Skipped (77) where mpirun cannot start two processes.
set -u
TEST="$1"
MPIRUN="${2:-mpirun}"
export POCL_DEVICES="pthread pthread"
. "$(dirname "$0")/mpi_env.sh"
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
failures=0
# check OP FAULT EXPECTED_RC TEXT (OP: gemm, poisson or "poisson VARIANT")
check() {
    local op="$1" fault="$2" want="$3" text="$4" rc=0
    if [ -n "$fault" ]; then
        TESSEL_FAULT_RANK="$fault" timeout 120 "${MPI[@]}" -np 2 "$TEST" $op >"$OUT" 2>&1 || rc=$?
    else
        timeout 120 "${MPI[@]}" -np 2 "$TEST" $op >"$OUT" 2>&1 || rc=$?
    fi
    if [ "$rc" -ne "$want" ] || ! grep -qF -- "$text" "$OUT"; then
        echo "FAIL: $op TESSEL_FAULT_RANK=${fault:-(unset)} TESSEL_POISSON_OVERLAP=${TESSEL_POISSON_OVERLAP:-(unset)}: exit $rc (expected $want), output:" >&2
        sed 's/^/    /' "$OUT" >&2
        failures=$((failures + 1))
    else
        echo "ok: $op TESSEL_FAULT_RANK=${fault:-(unset)} TESSEL_POISSON_OVERLAP=${TESSEL_POISSON_OVERLAP:-(unset)}: $(grep -F -- "$text" "$OUT" | head -1)"
    fi
}
check gemm "" 0 "the single device's result bit for bit"
check gemm 1 3 "C is untouched"
check gemm 0 3 "C is untouched"
check poisson "" 0 "the single device's result bit for bit"
# the halo exchange overlapped with the sweeps (the default: naive above, temporal_4 here, halos of
# 1 and 4 rows) and serial
check "poisson temporal_4" "" 0 "the single device's result bit for bit"
TESSEL_POISSON_OVERLAP=0 check "poisson temporal_4" "" 0 "the single device's result bit for bit"
check poisson 1:late 3 "u is untouched"
check poisson 0:late 3 "u is untouched"
[ "$failures" -eq 0 ] || exit 1
echo "ok: 8 runs checked"
