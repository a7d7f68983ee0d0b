# pi.sh: `tessel pi` as a user runs it. The CSV and JSON contracts (header, columns, the
# sequential row on the host first, m = steps, n and local from --global/--local on every variant
# but original, speedup and pi_error in JSON and the table), --verify passing on every variant at
# step counts that are multiples of nothing, --no-sequential, a forced --verify failure (exit 1,
# rows still printed), and every bad input as exactly one `tessel: error: ` line with the
# documented exit code.
. "$(dirname "$0")/lib.sh"
need_python

# ---- help and list ---------------------------------------------------------------------------
expect_ok pi --help
grep -q -- "--global" "$OUT" && grep -q -- "--no-sequential" "$OUT" || fail "--help shows the options"
expect_ok pi --variant list
[ "$(tr '\n' ' ' <"$OUT")" = "original multithread float2 float4 float8 float16 optimized " ] ||
    fail "--variant list prints the variants, one a line"

# ---- CSV: every variant, verified, after the sequential row ------------------------------------
expect_ok pi --variant all --steps 1000003 --verify --repeat 2 --warmup 0 --csv -
expect_clean_stderr
[ "$(head -1 "$OUT")" = "$CSV_HEADER" ] || fail "the CSV header comes first"
"$PY" - "$OUT" <<'PYEOF' || fail "CSV rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
names = [r["variant"] for r in rows]
assert names == ["sequential", "original", "multithread", "float2", "float4", "float8",
                 "float16", "optimized"], names
seq = rows[0]
assert seq["device"] == "host" and seq["repeat"] == "1" and seq["status"] == "ok", seq
assert float(seq["kernel_ms"]) > 0 and seq["max_rel_err"] == "", seq
for r in rows:
    assert r["op"] == "pi" and r["m"] == "1000003" and r["precision"] == "single", r
    assert r["n"] == "" and r["local"] == "" and r["k"] == "" and r["gbps"] == "", r
    assert r["status"] == "ok" and float(r["gflops"]) > 0, r
for r in rows[1:]:
    assert r["device"] != "host" and r["repeat"] == "2", r
    assert 0 <= float(r["max_rel_err"]) <= 2e-6, r
PYEOF

# ---- JSON: a launch, tiny step counts, speedup and pi_error ------------------------------------
for steps in 1 7 4099; do
    expect_ok pi --variant all --steps "$steps" --global 13 --local 4 --verify --repeat 1 \
        --warmup 0 --json -
    "$PY" - "$OUT" "$steps" <<'PYEOF' || fail "JSON rows at $steps steps"
import json, math, sys
steps = int(sys.argv[2])
rows = json.load(open(sys.argv[1]))["rows"]
assert len(rows) == 8, len(rows)
ref = sum(4 / (1 + ((i + 0.5) / steps) ** 2) for i in range(steps)) / steps
for r in rows:
    assert r["m"] == steps and r["status"] == "ok", r
    assert abs(r["pi_error"] - (ref - math.pi)) <= 2e-6 * ref, (r, ref - math.pi)
    assert r["speedup"] > 0, r
    if r["variant"] in ("sequential", "original"):
        assert r["n"] is None and r["local"] == "", r      # the options do not apply
    else:
        assert r["n"] == 16 and r["local"] == "4", r       # 13 rounded up to groups of 4
        assert r["max_rel_err"] <= 2e-6, r
PYEOF
done

# ---- --no-sequential, and the table ---------------------------------------------------------
expect_ok pi --variant optimized --steps 1000 --no-sequential --repeat 1 --warmup 0 --csv -
[ "$(tail -n +2 "$OUT" | cut -d, -f2)" = "optimized" ] || fail "--no-sequential leaves one row"
expect_ok pi --steps 1000 --repeat 1 --warmup 0
grep -q "speedup" "$OUT" && grep -q "pi_error" "$OUT" || fail "the table shows speedup, pi_error"
grep -q "^sequential" "$OUT" || fail "the table has the sequential row"

# ---- a failed --verify: exit 1, rows printed --------------------------------------------------
run pi --variant float4 --steps 1000003 --verify --tolerance 0 --repeat 1 --warmup 0 --csv -
[ "$RC" -eq 1 ] || fail "a failed verification exits 1, got $RC"
[ "$(tail -n +2 "$OUT" | cut -d, -f2,17 | tr '\n' ' ')" = "sequential,ok float4,verify_failed " ] ||
    fail "the failed row is marked"

# ---- bad input -------------------------------------------------------------------------------
expect_error 2 "--steps" pi --steps 0
expect_error 2 "--steps" pi --steps -5
expect_error 2 "--steps" pi --steps 1e9
expect_error 2 "--global" pi --global 0
expect_error 2 "--global" pi --steps 10 --global 99999999
expect_error 2 "--local" pi --steps 10 --local 0
expect_error 2 "--local" pi --steps 10 --local 100000
expect_error 2 "unknown variant 'float3'" pi --variant float3
expect_error 2 "--tolerance" pi --tolerance -1
expect_error 2 "--bogus" pi --bogus
expect_error 2 "--repeat" pi --repeat 0
expect_error 3 "no-such-device" pi --steps 10 --device no-such-device

done_ok
