# mpi.sh TESSEL HAVE_MPI MPIRUN: `tessel gemm|poisson --distributed` under
# `mpirun --oversubscribe -np 2` (and -np 3) on PoCL CPU devices (POCL_DEVICES: two pthread
# devices, so ranks 0 and 1 pick 0:0 and 0:1 by their rank on the host). Distributed GEMM and
# Jacobi agree with the single-process result (the CPU reference --verify uses; Jacobi in double
# bit for bit) on odd shapes, with uneven weights and a rank given zero rows; a rank whose
# calibration fails makes the split fall back to compute units with a note; a rank that fails
# (an OpenCL error), hangs or dies ends the job with exit code 3 and a `tessel: error: ` line
# naming the rank, in bounded time, with no output file left; a rank killed by SIGKILL ends the
# job with mpirun's own message and status (Open MPI: 137), no tessel line, no output file.
# Built without MPI, --distributed is a usage error (exit 2) saying so. If mpirun cannot start
# two processes here at all, the test reports skipped (77) with mpirun's reason.
. "$(dirname "$0")/lib.sh"
need_python
HAVE_MPI="${2:-OFF}"
MPIRUN="${3:-mpirun}"
export POCL_DEVICES="pthread pthread"

if [ "$HAVE_MPI" != "ON" ]; then
    expect_error 2 "built without" gemm --distributed --size 8
    expect_error 2 "built without" poisson --distributed --grid 9
    done_ok
fi

. "$(dirname "$0")/../mpi_env.sh"

# mpirun_run NP ARGS...: like run, under mpirun; stderr keeps mpirun's own lines too.
mpirun_run() {
    local np="$1"
    shift
    RC=0
    timeout 240 "${MPI[@]}" -np "$np" "$TESSEL" "$@" >"$OUT" 2>"$ERR" || RC=$?
    CHECKS=$((CHECKS + 1))
    [ "$RC" -ne 124 ] || fail "mpirun -np $np tessel $* hung (killed after 240 s)"
}
mpirun_ok() {
    mpirun_run "$@"
    [ "$RC" -eq 0 ] || fail "mpirun tessel $*: exit code $RC, expected 0"
}
# mpirun_error NP TEXT ARGS...: exit 3, nothing on stdout, a tessel error line with TEXT.
mpirun_error() {
    local np="$1" text="$2"
    shift 2
    mpirun_run "$np" "$@"
    [ "$RC" -eq 3 ] || fail "mpirun tessel $*: exit code $RC, expected 3"
    [ ! -s "$OUT" ] || fail "mpirun tessel $*: stdout should be empty on an error"
    grep "^tessel: error: " "$ERR" | grep -qF -- "$text" ||
        fail "mpirun tessel $*: a tessel error line should mention '$text'"
}

# ---- GEMM: odd shape, both layouts, uneven weights ------------------------------------------
mpirun_ok 2 gemm --distributed -m 257 -n 31 -k 65 --verify --repeat 2 --warmup 1 --csv -
"$PY" - "$OUT" <<'PYEOF' || fail "distributed gemm CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["variant"] for r in rows] == ["rank 0", "rank 1", "group", "single"], rows
assert sum(int(r["m"]) for r in rows[:2]) == 257 and rows[2]["device"] == "2 ranks", rows
for r in rows:
    assert r["status"] == "ok" and float(r["max_rel_err"]) <= 1e-5, r
    assert float(r["kernel_ms"]) > 0, r
PYEOF
mpirun_ok 2 gemm --distributed -m 67 -n 45 -k 33 --layout col --transa t --alpha 2 --beta 0.5 \
    --precision double --weights 3,1 --verify --repeat 1 --warmup 0 --json -
"$PY" - "$OUT" <<'PYEOF' || fail "distributed gemm JSON"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert rows[0]["m"] == 50 and rows[1]["m"] == 17, rows          # 67 split 3:1
assert rows[2]["speedup"] > 0 and rows[0]["share"] > 0.7, rows
assert all(r["status"] == "ok" and r["max_rel_err"] <= 1e-12 for r in rows), rows
PYEOF
# rank 0 given no rows: it only sends and gathers
mpirun_ok 2 gemm --distributed --weights 0,1 --size 33 --verify --repeat 1 --warmup 0 --json -
"$PY" - "$OUT" <<'PYEOF' || fail "distributed gemm, rank 0 without rows"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert rows[0]["m"] == 0 and rows[1]["m"] == 33 and rows[3]["resolved"] == "rank 1", rows
assert all(r["status"] == "ok" for r in rows), rows
PYEOF

# ---- Jacobi: the single process's iterate, bit for bit in double ----------------------------
mpirun_ok 2 poisson --distributed --grid 67 --iters 13 --variant temporal_4 --precision double \
    --problem random --verify --repeat 1 --warmup 0 --csv -
"$PY" - "$OUT" <<'PYEOF' || fail "distributed poisson CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["variant"] for r in rows] == ["rank 0", "rank 1", "group", "single"], rows
for r in rows:
    assert r["k"] == "13" and r["status"] == "ok" and float(r["max_rel_err"]) == 0, r
PYEOF
# three ranks, the middle one without rows (ranks 0 and 2 are neighbours), stopping on --tol
mpirun_ok 3 poisson --distributed --weights 1,0,2 --grid 45 --iters 100000 --tol 1e-4 \
    --precision double --verify --repeat 1 --warmup 0 --json -
"$PY" - "$OUT" <<'PYEOF' || fail "distributed poisson, 3 ranks"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert [r["m"] for r in rows[:3]] == [14, 0, 29], rows
assert all(r["status"] == "ok" and r["max_rel_err"] in (0, None) for r in rows), rows
assert 0 < rows[3]["k"] < 100000, rows
PYEOF
mpirun_ok 2 poisson --distributed --grid 33 --iters 20 --verify --repeat 1 --warmup 0

# a rank whose calibration fails: compute-unit weights, a note naming the rank, exit 0
export TESSEL_FAULT_RANK=1:calibrate
mpirun_ok 2 gemm --distributed -m 45 -n 13 -k 29 --verify --repeat 1 --warmup 0
unset TESSEL_FAULT_RANK
grep -q "^tessel: note: gemm: calibrating gemm failed on rank 1 (0:1.*compute units" "$ERR" ||
    fail "a failed calibration under MPI is a note naming the rank"
grep -q "weights cu, calibration failed (0.500, 0.500)" "$OUT" || fail "the title says cu weights"

# ---- bad input and faults -----------------------------------------------------------------
mpirun_run 2 gemm --distributed --weights 1,2,3 --size 8
[ "$RC" -eq 2 ] && grep -qF "3 weights for 2 ranks" "$ERR" || fail "--weights count: exit $RC"
for cmd in "gemm --size 48" "poisson --grid 33 --iters 8"; do
    for fault in 1 1:hang 1:exit; do
        export TESSEL_FAULT_RANK=$fault
        start=$(date +%s)
        mpirun_error 2 "rank 1 (0:1" $cmd --distributed --timeout 2 --repeat 1 --warmup 0 \
            --csv "$WORK/out.csv"
        unset TESSEL_FAULT_RANK
        took=$(($(date +%s) - start))
        [ "$took" -lt 60 ] || fail "$cmd with TESSEL_FAULT_RANK=$fault took ${took}s"
        [ -z "$(ls "$WORK" | grep -v '^std')" ] || fail "$cmd: a failed run left files: $(ls "$WORK")"
        case $fault in
        1) grep -qF "CL_OUT_OF_RESOURCES" "$ERR" || fail "the OpenCL error is named" ;;
        1:hang) grep -qF "timed out" "$ERR" || fail "a hang is a timeout" ;;
        *) grep -qF "died" "$ERR" || fail "a rank that dies says so" ;;
        esac
    done
done

# a rank killed by SIGKILL (the OOM killer, a lost node) cannot say anything, and mpirun ends
# the job within about a second, before any wait of tessel's can time out: what the user sees is
# mpirun's own message and exit status (docs/multi-device.md, "Faults"), pinned here for Open MPI
# (4.1: 137 = 128 + SIGKILL); never a tessel line that would claim more, never an output file
for cmd in "gemm --size 48" "poisson --grid 33 --iters 8"; do
    export TESSEL_FAULT_RANK=1:kill
    mpirun_run 2 $cmd --distributed --timeout 20 --repeat 1 --warmup 0 --csv "$WORK/out.csv"
    unset TESSEL_FAULT_RANK
    [ "$RC" -ne 0 ] && [ "$RC" -ne 124 ] || fail "$cmd, a rank killed: exit code $RC"
    [ -z "$(ls "$WORK" | grep -v '^std')" ] || fail "$cmd, a rank killed: files left: $(ls "$WORK")"
    ! grep -q "^tessel: " "$ERR" || fail "$cmd, a rank killed: a tessel line: $(grep '^tessel: ' "$ERR")"
    if "$MPIRUN" --version 2>/dev/null | grep -q "Open MPI"; then
        [ "$RC" -eq 137 ] || fail "$cmd, a rank killed under Open MPI: exit code $RC, not 137"
        grep -q "process rank 1 .* exited on signal 9" "$ERR" ||
            fail "$cmd, a rank killed: mpirun's message names the rank and the signal"
    fi
done

done_ok
