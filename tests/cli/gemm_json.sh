# gemm_json.sh: `--json -` is valid JSON with the CSV columns as keys; --csv and --json to files
# write complete files (and nothing else in the folder) while the table still goes to stdout.
. "$(dirname "$0")/lib.sh"
need_python

expect_ok gemm --variant naive --size 17 --verify --peers openblas --repeat 2 --json -
expect_clean_stderr
"$PY" - "$OUT" "$CSV_HEADER" <<'PY' || fail "--json - is not the expected JSON"
import json, sys
d = json.load(open(sys.argv[1]))
cols = sys.argv[2].split(",")
assert d["columns"] == cols
assert d["version"] == "0.1.0" and "gemm" in d["command"]
rows = d["rows"]
assert [r["variant"] for r in rows] == ["naive", "openblas"], rows
for r in rows:
    assert list(r)[:len(cols)] == cols, list(r)
    assert r["status"] == "ok" and r["m"] == 17 and r["repeat"] == 2
    assert r["gbps"] is None and r["local"] == ""
    assert r["kernel_ms"] > 0 and 0 <= r["max_rel_err"] < 1e-5
PY

# auto says what it ran
expect_ok gemm --size 9 --repeat 1 --json -
"$PY" -c '
import json, sys
r = json.load(sys.stdin)["rows"][0]
assert r["variant"] == "auto" and r["resolved"], r' <"$OUT" ||
    fail "an auto row names the variant it resolved to"

mkdir "$WORK/res"
expect_ok gemm --variant naive --size 12 --repeat 1 --verify --csv "$WORK/res/r.csv" \
    --json "$WORK/res/r.json"
grep -q '^variant ' "$OUT" && grep -q '^naive ' "$OUT" || fail "the table goes to stdout"
[ "$(ls -A "$WORK/res" | tr '\n' ' ')" = "r.csv r.json " ] ||
    fail "exactly the two files, no temporary ones: $(ls -A "$WORK/res")"
[ "$(head -1 "$WORK/res/r.csv")" = "$CSV_HEADER" ] || fail "CSV file header"
[ "$(wc -l <"$WORK/res/r.csv")" -eq 2 ] || fail "CSV file rows"
"$PY" -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["rows"]) == 1' \
    "$WORK/res/r.json" || fail "the JSON file does not parse"

# --quiet: no table, files still written
expect_ok gemm --variant naive --size 12 --repeat 1 --quiet --csv "$WORK/res/q.csv"
[ ! -s "$OUT" ] || fail "--quiet prints no table"
[ "$(wc -l <"$WORK/res/q.csv")" -eq 2 ] || fail "--quiet still writes the CSV file"

done_ok
