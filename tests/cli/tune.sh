# tune.sh: `tessel tune` as a user runs it (issue 4). A small-budget tuning run on PoCL finds a
# verified configuration, reports every candidate as a CSV row and writes a database entry in
# TESSEL_TUNING_DIR; `tessel tune --show` and `tessel gemm` (auto) then use it; a corrupt or
# foreign-version database is ignored with one warning and the run goes on; bad input is one
# `tessel: error: ` line with exit code 2.
. "$(dirname "$0")/lib.sh"
need_python
export TESSEL_TUNING_DIR="$WORK/tuning"

# ---- help --------------------------------------------------------------------------------------
expect_ok tune --help
grep -q -- "--budget-s" "$OUT" || fail "--help shows --budget-s"

# ---- --show before tuning: the shipped defaults ------------------------------------------------
expect_ok tune --show --precision single
grep -q "shipped defaults" "$OUT" || fail "--show names the shipped defaults as the source"
grep -q "tiled2d:" "$OUT" || fail "--show prints the configuration auto runs"

# ---- a tuning run: 3 candidates, every one verified, the winner stored --------------------------
expect_ok tune gemm --precision single --shapes 48x40x36 --max-candidates 3 --budget-s 600 \
    --repeat 2 --warmup 0 --csv "$WORK/cands.csv"
expect_clean_stderr
grep -q "stored in $TESSEL_TUNING_DIR/" "$OUT" || fail "the run says where it stored the winner"
"$PY" - "$WORK/cands.csv" <<'PYEOF' || fail "candidate rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 3, len(rows)
assert len({r["variant"] for r in rows}) == 3, "distinct candidates"
for r in rows:
    assert r["op"] == "gemm" and r["variant"].startswith("tiled2d:"), r
    assert (r["m"], r["n"], r["k"]) == ("48", "40", "36"), r
    assert r["status"] in ("ok", "skipped", "verify_failed", "error"), r
    if r["status"] == "ok":
        assert float(r["max_rel_err"]) <= 1e-5 and float(r["gflops"]) > 0, r
assert any(r["status"] == "ok" for r in rows)
PYEOF
db=$(ls "$TESSEL_TUNING_DIR"/*.tuning) || fail "a database file was written"
[ "$(head -1 "$db")" = "tessel-tuning 1" ] || fail "the file starts with its format line"
grep -q "^device=.* gemm single small tiled2d:" "$db" || fail "the entry: $(cat "$db")"
best=$(grep "^device=" "$db" | awk '{print $5}')

# ---- auto uses it ----------------------------------------------------------------------------------
expect_ok tune --show --precision single --shapes 48x40x36
grep -q "user database" "$OUT" || fail "--show names the user database"
grep -qF "$best" "$OUT" || fail "--show prints the stored configuration"
expect_ok gemm --size 45 --verify --csv -
grep -q ",ok$" "$OUT" || fail "auto with the tuned entry verifies"
# the stored configuration also runs as an explicit variant
expect_ok gemm --variant "$best" --sizes 1,33 --verify --csv -
[ "$(grep -c ',ok$' "$OUT")" -eq 2 ] || fail "the configuration as --variant verifies"

# ---- damaged databases: one warning, the run goes on ------------------------------------------------
printf 'tessel-tuning 7\nwhatever\n' >"$db"
expect_ok gemm --size 20 --verify --csv -
grep -q "^tessel: warning: .*version 7" "$ERR" || fail "a foreign version is reported"
[ "$(grep -c '^tessel: warning' "$ERR")" -eq 1 ] || fail "once"
grep -q ",ok$" "$OUT" || fail "and the run verifies"
head -c 300 /dev/urandom >"$db"
expect_ok tune --show
grep -q "^tessel: warning: .*ignored" "$ERR" || fail "a corrupt file is reported"
grep -q "shipped defaults" "$OUT" || fail "and the shipped defaults serve"

# ---- bad input ------------------------------------------------------------------------------------
rm -f "$db"
expect_error 2 "which operation" tune
expect_error 2 "no search space" tune transpose
expect_error 2 "--budget-s" tune gemm --budget-s 0
expect_error 2 "--shapes" tune gemm --shapes 4x4
expect_error 2 "--shapes" tune gemm --shapes 4x0x4
expect_error 2 "not both" tune gemm --shapes 8 --size 8
expect_error 2 "--precision" tune gemm --precision half
expect_error 2 "unknown option" tune gemm --bogus
expect_error 2 "MWG" gemm --variant tiled2d:MWG=7 --size 8
expect_error 2 "no parameters" gemm --variant naive:TS=4 --size 8
done_ok
