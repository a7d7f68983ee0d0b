# nbody.sh: `tessel nbody` as a user runs it. The CSV and JSON contracts (header, columns,
# op/m/n/k/local of every row, the sequential row on the host with speedup 1, speedup and
# energy_drift in JSON), --verify passing on every variant for body counts on both sides of the
# work-group size and for odd work-group sizes, --steps 0 (nothing moves: no flops, a clean
# verify), --no-sequential, a forced --verify failure (exit 1, rows still printed), and every bad
# input as exactly one `tessel: error: ` line with the documented exit code.
. "$(dirname "$0")/lib.sh"
need_python

# ---- help and list ---------------------------------------------------------------------------
expect_ok nbody --help
grep -q -- "--bodies" "$OUT" || fail "--help shows --bodies"
grep -q "20 flops per interaction" "$OUT" || fail "--help says how flops are counted"
expect_ok nbody --variant list
[ "$(tr '\n' ' ' <"$OUT")" = "original local optimized " ] ||
    fail "--variant list prints the variants, one a line"

# ---- CSV: every variant and the sequential row, verified, sizes off the work-group size -------
expect_ok nbody --variant all --sizes 1,65,130 --steps 3 --verify --repeat 1 --warmup 0 --csv -
expect_clean_stderr
"$PY" - "$OUT" <<'PYEOF' || fail "CSV rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
names = [r["variant"] for r in rows]
assert names == ["sequential", "original", "local", "optimized"] * 3, names
for r in rows:
    assert r["op"] == "nbody" and r["precision"] == "single", r
    assert r["m"] == r["n"] and r["m"] in ("1", "65", "130") and r["k"] == "3", r
    assert r["status"] == "ok" and float(r["kernel_ms"]) > 0 and float(r["gflops"]) > 0, r
    assert r["gbps"] == "" and r["local"] == "", r
    if r["variant"] == "sequential":
        assert r["device"] == "host" and r["repeat"] == "1" and r["max_rel_err"] == "", r
    else:
        assert r["device"] != "host" and float(r["max_rel_err"]) <= 3e-5, r
PYEOF
[ "$(head -1 "$OUT")" = "$CSV_HEADER" ] || fail "the CSV header comes first"

# ---- JSON: speedup and energy drift, an odd --local ------------------------------------------
expect_ok nbody --variant all --bodies 100 --steps 2 --local 7 --verify --repeat 2 --warmup 1 \
    --json -
"$PY" - "$OUT" <<'PYEOF' || fail "JSON rows"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert [r["variant"] for r in rows] == ["sequential", "original", "local", "optimized"], rows
seq = rows[0]
assert seq["speedup"] == 1 and seq["device"] == "host", seq
for r in rows:
    assert r["status"] == "ok" and r["k"] == 2, r
    assert abs(r["energy_drift"]) < 1e-3, r
    if r is not seq:
        assert r["local"] == "7" and r["repeat"] == 2, r
        assert abs(r["speedup"] - seq["kernel_ms"] / r["kernel_ms"]) <= 1e-4 * r["speedup"], r
PYEOF

# ---- --steps 0 and --no-sequential -------------------------------------------------------------
expect_ok nbody --variant optimized --bodies 50 --steps 0 --verify --repeat 1 --warmup 0 --csv -
"$PY" - "$OUT" <<'PYEOF' || fail "--steps 0"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["variant"] for r in rows] == ["sequential", "optimized"], rows
for r in rows:
    assert r["k"] == "0" and r["gflops"] == "" and r["status"] == "ok", r
assert float(rows[1]["max_rel_err"]) == 0, rows[1]
PYEOF
expect_ok nbody --bodies 70 --no-sequential --verify --repeat 1 --warmup 0 --csv -
[ "$(tail -n +2 "$OUT" | cut -d, -f2,17)" = "auto,ok" ] || fail "--no-sequential: one auto row"

# ---- the table -----------------------------------------------------------------------------
expect_ok nbody --bodies 64 --repeat 1 --warmup 0
grep -q "speedup" "$OUT" || fail "the table has a speedup column"
grep -q "^sequential" "$OUT" || fail "the table has the sequential row"

# ---- a failed --verify: exit 1, rows printed, the failed check named ---------------------------
run nbody --variant original --bodies 300 --steps 2 --verify --tolerance 0 --repeat 1 \
    --warmup 0 --csv -
[ "$RC" -eq 1 ] || fail "a failed verification exits 1, got $RC"
[ "$(tail -n +2 "$OUT" | cut -d, -f2,17 | tr '\n' ' ')" = \
  "sequential,verify_failed original,verify_failed " ] || fail "rows marked"
grep -q "momentum drift" "$ERR" || fail "the note names the failed check"

# ---- bad input -------------------------------------------------------------------------------
expect_error 2 "--bodies" nbody --bodies 0
expect_error 2 "--bodies" nbody --bodies -5
expect_error 2 "--steps" nbody --steps -1
expect_error 2 "--steps" nbody --steps 3000000000
expect_error 2 "--softening" nbody --softening 0
expect_error 2 "--softening" nbody --softening -0.1
expect_error 2 "--softening" nbody --softening 1e-30
expect_error 2 "--dt" nbody --dt nan
expect_error 2 "--dt" nbody --dt 1e300
expect_error 2 "--local" nbody --local 0
expect_error 2 "local = 100000" nbody --bodies 10 --local 100000
expect_error 2 "--tolerance" nbody --tolerance -1
expect_error 2 "unknown variant 'unrolled'" nbody --variant unrolled
expect_error 2 "--bodies or --sizes" nbody --bodies 10 --sizes 10,20
expect_error 2 "too many" nbody --bodies 4000000000
expect_error 2 "largest buffer" nbody --bodies 1000000000
expect_error 2 "--precision" nbody --precision double
expect_error 3 "no-such-device" nbody --bodies 10 --device no-such-device

done_ok
