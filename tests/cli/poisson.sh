# poisson.sh: `tessel poisson` as a user runs it. The CSV and JSON contracts (header, columns,
# op/m/n/k of every row, the copy row, sweeps_per_s and residual in JSON), --verify passing on
# every variant in both precisions and both problems, --tol stopping early with the residual
# under the threshold, a forced --verify failure (exit 1, rows still printed), and every bad
# input as exactly one `tessel: error: ` line with the documented exit code.
. "$(dirname "$0")/lib.sh"
need_python

# ---- help and list ---------------------------------------------------------------------------
expect_ok poisson --help
grep -q -- "--grid" "$OUT" || fail "--help shows --grid"
expect_ok poisson --variant list
[ "$(tr '\n' ' ' <"$OUT")" = "naive local temporal_2 temporal_4 temporal_8 " ] ||
    fail "--variant list prints the variants, one a line"

# ---- CSV: every variant and the copy row, verified ---------------------------------------------
expect_ok poisson --variant all --grid 37 --iters 13 --verify --copy --repeat 1 --warmup 0 --csv -
expect_clean_stderr
"$PY" - "$OUT" <<'PYEOF' || fail "CSV rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
names = [r["variant"] for r in rows]
assert names == ["copy", "naive", "local", "temporal_2", "temporal_4", "temporal_8"], names
for r in rows:
    assert r["op"] == "poisson" and r["m"] == "37" and r["n"] == "37", r
    assert r["status"] == "ok" and float(r["max_rel_err"]) <= 1e-5, r
    assert float(r["gbps"]) > 0 and float(r["kernel_ms"]) > 0, r
    assert r["k"] == ("" if r["variant"] == "copy" else "13"), r
PYEOF
[ "$(head -1 "$OUT")" = "$CSV_HEADER" ] || fail "the CSV header comes first"

# ---- JSON, double precision, random problem ----------------------------------------------------
expect_ok poisson --variant all --sizes 5,50 --iters 7 --precision double --problem random \
    --verify --repeat 2 --warmup 1 --json -
"$PY" - "$OUT" <<'PYEOF' || fail "JSON rows"
import json, sys
doc = json.load(open(sys.argv[1]))
rows = doc["rows"]
assert len(rows) == 10, len(rows)
for r in rows:
    assert r["precision"] == "double" and r["k"] == 7 and r["status"] == "ok", r
    assert r["max_rel_err"] <= 1e-12, r
    assert r["sweeps_per_s"] > 0 and r["residual"] > 0, r
PYEOF

# ---- --tol stops early, with the residual under tol * max(1, max |f|) --------------------------
expect_ok poisson --variant temporal_4 --grid 33 --iters 100000 --tol 1e-8 --check-every 10 \
    --precision double --repeat 1 --warmup 0 --json -
"$PY" - "$OUT" <<'PYEOF' || fail "--tol"
import json, math, sys
r = json.load(open(sys.argv[1]))["rows"][0]
assert 0 < r["k"] < 100000 and r["k"] % 12 == 0, r        # check_every 10 -> 12 for K = 4
assert r["residual"] <= 1e-8 * 2 * math.pi ** 2, r
PYEOF

# ---- the table -----------------------------------------------------------------------------
expect_ok poisson --grid 17 --iters 5 --repeat 1 --warmup 0
grep -q "sweeps_per_s" "$OUT" || fail "the table has a sweeps_per_s column"
grep -q "residual" "$OUT" || fail "the table has a residual column"

# ---- a failed --verify: exit 1, rows printed --------------------------------------------------
run poisson --variant naive --grid 17 --iters 50 --problem random --verify --tolerance 0 \
    --repeat 1 --warmup 0 --csv -
[ "$RC" -eq 1 ] || fail "a failed verification exits 1, got $RC"
[ "$(tail -n +2 "$OUT" | cut -d, -f2,17)" = "naive,verify_failed" ] || fail "row marked"

# ---- bad input -------------------------------------------------------------------------------
expect_error 2 "grid 2" poisson --grid 2
expect_error 2 "--grid" poisson --grid 0
expect_error 2 "--iters" poisson --iters -1
expect_error 2 "--iters" poisson --iters 0
expect_error 2 "--tol" poisson --tol -1e-3
expect_error 2 "--tol" poisson --tol nan
expect_error 2 "--check-every" poisson --check-every 0
expect_error 2 "unknown variant 'temporal_3'" poisson --variant temporal_3
expect_error 2 "--precision" poisson --precision half
expect_error 2 "--problem" poisson --problem cosine
expect_error 2 "--grid or --sizes" poisson --grid 17 --sizes 17,33
expect_error 2 "largest buffer" poisson --grid 2000000
expect_error 2 "--bogus" poisson --bogus
expect_error 3 "no-such-device" poisson --grid 17 --device no-such-device

done_ok
