# multi.sh: `tessel gemm|poisson --devices` on several PoCL CPU devices (POCL_DEVICES is set to
# two pthread devices here: 0:0 and 0:1). The report's rows (one per device with its share, the
# group with the speedup, the fastest device alone), --verify on odd shapes in both layouts and
# precisions, uneven weights and a device given zero rows; a calibration that fails on a device
# falls back to compute-unit weights with a note (exit 0); every bad input as one
# `tessel: error: ` line with exit 2 (usage) or 3 (runtime: a device named twice, a device that
# fails or hangs mid-run, named in the message, with no output file left and in bounded time).
. "$(dirname "$0")/lib.sh"
need_python
export POCL_DEVICES="pthread pthread"

# ---- GEMM: rows, shares, verification -----------------------------------------------------
expect_ok gemm --devices 0:0,0:1 -m 257 -n 31 -k 65 --verify --repeat 2 --warmup 1 --csv -
expect_clean_stderr
grep -q "tessel: note: gemm 257x31x65: 2 devices .*x the fastest device alone" "$ERR" ||
    fail "the speedup note"
"$PY" - "$OUT" <<'PYEOF' || fail "gemm CSV rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["variant"] for r in rows] == ["device 0", "device 1", "group", "single"], rows
assert sum(int(r["m"]) for r in rows[:2]) == 257, rows
for r in rows:
    assert r["op"] == "gemm" and r["n"] == "31" and r["k"] == "65" and r["status"] == "ok", r
    assert float(r["max_rel_err"]) <= 1e-5 and float(r["kernel_ms"]) > 0, r
    assert float(r["gflops"]) > 0, r
assert rows[2]["m"] == rows[3]["m"] == "257" and rows[2]["device"] == "2 devices", rows
PYEOF

# every layout and transpose, double precision, uneven weights, alpha and beta: JSON extras
for lay in row col; do
    expect_ok gemm --devices all -m 67 -n 45 -k 33 --layout $lay --transa t --transb t \
        --alpha 1.5 --beta -0.5 --precision double --weights 1,3 --verify --repeat 1 \
        --warmup 0 --json -
    "$PY" - "$OUT" <<'PYEOF' || fail "gemm JSON, layout $lay"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert [r["variant"] for r in rows] == ["device 0", "device 1", "group", "single"], rows
assert rows[0]["m"] == 17 and rows[1]["m"] == 50, rows          # 67 split 1:3
assert abs(rows[0]["share"] - 17 / 67) < 1e-5 and rows[2]["share"] == 1, rows
assert rows[2]["speedup"] > 0 and rows[3]["speedup"] == 1, rows
for r in rows:
    assert r["precision"] == "double" and r["status"] == "ok" and r["max_rel_err"] <= 1e-12, r
PYEOF
done

# a device given zero rows: it does no work, the other one does all; it is not run alone
expect_ok gemm --devices 0:0,0:1 --weights 0,1 -m 31 -n 7 -k 9 --verify --repeat 1 --warmup 0 \
    --json -
"$PY" - "$OUT" <<'PYEOF' || fail "zero weight"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert rows[0]["m"] == 0 and rows[0]["share"] == 0 and rows[0]["kernel_ms"] is None, rows[0]
assert rows[1]["m"] == 31 and rows[1]["share"] == 1 and rows[1]["status"] == "ok", rows[1]
assert rows[3]["resolved"] == "device 1", rows[3]
PYEOF

# weights by compute units; every device a spec matches; share and speedup columns
expect_ok gemm --devices all:pthread --weights cu --size 40 --repeat 1 --warmup 0
grep -q "share" "$OUT" && grep -q "speedup" "$OUT" || fail "the table has share and speedup"
grep -q "weights cu (0.500, 0.500)" "$OUT" || fail "the title gives the weights"

# calibration that fails on a device (an OpenCL error, or no answer within --timeout): the rows
# are split by compute units, a note says why, the run goes on (exit 0); the GEMM pipeline in
# chunks of 16 rows with pinned staging, verified
for fault in 1:calibrate 1:calibrate-hang; do
    export TESSEL_FAULT_DEVICE=$fault TESSEL_GROUP_CHUNK_ROWS=16 TESSEL_GROUP_STAGING=1
    expect_ok gemm --devices 0:0,0:1 -m 99 -n 21 -k 37 --timeout 1 --verify --repeat 1 \
        --warmup 0
    unset TESSEL_FAULT_DEVICE TESSEL_GROUP_CHUNK_ROWS TESSEL_GROUP_STAGING
    # device 1 named (on a slow machine device 0's cold part may miss the 1 s limit too)
    grep -q "^tessel: note: gemm: calibrating gemm failed (.*device 1 (0:1.*compute units" "$ERR" ||
        fail "a failed calibration ($fault) is a note naming the device"
    grep -q "weights cu, calibration failed (0.500, 0.500)" "$OUT" ||
        fail "the title says the weights are compute units ($fault)"
    [ "$(grep -c ' ok ' "$OUT")" -eq 4 ] || fail "every row verified ($fault)"
done

# ---- Poisson: the single device's iterate, sweeps, residual stop -------------------------
expect_ok poisson --devices 0:0,0:1 --grid 67 --iters 13 --variant temporal_4 --weights 1,2 \
    --precision double --problem random --verify --repeat 2 --warmup 1 --csv -
"$PY" - "$OUT" <<'PYEOF' || fail "poisson CSV rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["variant"] for r in rows] == ["device 0", "device 1", "group", "single"], rows
assert [r["m"] for r in rows] == ["22", "43", "67", "67"], rows   # 65 interior rows, 1:2
for r in rows:
    assert r["k"] == "13" and r["status"] == "ok", r
    assert float(r["max_rel_err"]) == 0, r    # double: the CPU Jacobi bit for bit
    assert float(r["gbps"]) > 0, r
PYEOF
expect_ok poisson --devices all --grid 33 --iters 100000 --tol 1e-6 --check-every 10 \
    --precision double --verify --repeat 1 --warmup 0 --json -
"$PY" - "$OUT" <<'PYEOF' || fail "poisson --tol"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert all(r["k"] == rows[0]["k"] for r in rows) and 0 < rows[0]["k"] < 100000, rows
assert all(r["status"] == "ok" for r in rows), rows
PYEOF

# ---- bad input: usage errors (2) ---------------------------------------------------------
expect_error 2 "3 weights for 2 devices" gemm --devices 0:0,0:1 --weights 1,2,3 --size 8
expect_error 2 "--weights" gemm --devices all --weights=-1,1 --size 8
expect_error 2 "--weights" gemm --devices all --weights 0,0 --size 8
expect_error 2 "--weights" gemm --devices all --weights fast --size 8
expect_error 2 "--weights goes with --devices" gemm --weights 1,1 --size 8
expect_error 2 "--timeout" gemm --devices all --timeout 0 --size 8
expect_error 2 "--peers" gemm --devices all --peers openblas --size 8
expect_error 2 "--variant" gemm --devices all --variant all --size 8
expect_error 2 "not both" gemm --devices all --device 0:0 --size 8
expect_error 2 "not both" gemm --devices all --distributed --size 8
expect_error 2 "--copy" poisson --devices all --copy --grid 9
expect_error 2 "unknown variant 'tiled_3x3'" gemm --devices all --variant tiled_3x3 --size 8

# ---- bad input: runtime errors (3) -------------------------------------------------------
expect_error 3 "twice" gemm --devices 0:0,0:1,0:0 --size 8
grep -qF "0:0" "$ERR" || fail "the duplicate's message names the device"
expect_error 3 "twice" poisson --devices pthread,0:0 --grid 9
expect_error 3 "no-such-device" gemm --devices 0:0,no-such-device --size 8
expect_error 3 "empty" gemm --devices 0:0,,0:1 --size 8

# ---- a device that fails mid-run: one line naming it, exit 3, no file, no hang ------------
# (given weights: no calibration, whose own 1 s limit a slow machine can pass, adding its note)
for cmd in "gemm --size 48" "poisson --grid 33 --iters 8"; do
    for fault in 1 1:hang; do
        start=$(date +%s)
        export TESSEL_FAULT_DEVICE=$fault
        expect_error 3 "device 1 (0:1" $cmd --devices all --weights 1,1 --timeout 1 --repeat 1 \
            --warmup 0 --csv "$WORK/out.csv"
        unset TESSEL_FAULT_DEVICE
        took=$(($(date +%s) - start))
        [ "$took" -lt 30 ] || fail "$cmd with TESSEL_FAULT_DEVICE=$fault took ${took}s"
        [ ! -e "$WORK/out.csv" ] || fail "$cmd: a failed run left its CSV"
        [ -z "$(ls "$WORK" | grep -v '^std')" ] || fail "$cmd: a failed run left files: $(ls "$WORK")"
        case $fault in
        1) grep -qF "CL_OUT_OF_RESOURCES" "$ERR" || fail "the OpenCL error is named" ;;
        *) grep -qF "timed out" "$ERR" || fail "a hang is a timeout" ;;
        esac
    done
done

done_ok
