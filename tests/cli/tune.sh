# tune.sh: `tessel tune` as a user runs it (issues 4 and 14). A small-budget tuning run on PoCL
# verifies its candidates, reports each as a CSV row, then checks its finalists against auto on
# the tuned shape and its corners; a run at 256 never changes what auto runs at 1024 (it stores an
# entry for problems near 256, or keeps auto); an entry measured on a shape is what `tessel tune
# --show` and `tessel gemm` (auto) use near that shape and only there; a corrupt or
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
grep -q "^looked up as (most specific first): device=.* type=cpu default$" "$OUT" ||
    fail "--show prints the device's selectors"
grep -q "^trsm  *single  *any  *any " "$OUT" || fail "--show prints TRSM's row"

# ---- a tuning run: 3 candidates, every one verified, then checked against auto ------------------
expect_ok tune gemm --precision single --shapes 48x40x36 --max-candidates 3 --budget-s 600 \
    --repeat 2 --warmup 0 --no-store --csv "$WORK/cands.csv"
expect_clean_stderr
grep -Eq "^  (kept auto|nothing beat|not stored \(--no-store\))" "$OUT" ||
    fail "the run says what it decided"
[ -z "$(ls "$TESSEL_TUNING_DIR" 2>/dev/null)" ] || fail "--no-store writes nothing"
"$PY" - "$WORK/cands.csv" <<'PYEOF' || fail "candidate rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
search, check = rows[:3], rows[3:]
assert len({r["variant"] for r in search}) == 3, "distinct candidates"
for r in rows:
    assert r["op"] == "gemm" and (r["variant"].startswith("tiled2d:") or r["variant"] == "auto"), r
    assert r["status"] in ("ok", "skipped", "verify_failed", "error"), r
    if r["status"] == "ok":
        assert float(r["max_rel_err"]) <= 1e-5 and float(r["gflops"]) > 0, r
for r in search:
    assert r["variant"].startswith("tiled2d:") and (r["m"], r["n"], r["k"]) == ("48", "40", "36"), r
assert any(r["status"] == "ok" for r in search)
# the check: auto and the finalists on the shape and its corners (sizes halved and doubled)
if check:
    shapes = {(r["m"], r["n"], r["k"]) for r in check}
    assert shapes == {("24", "20", "18"), ("48", "40", "36"), ("96", "80", "72")}, shapes
    assert sum(r["variant"] == "auto" for r in check) >= 9, "auto 3 or more times per shape"
PYEOF

# ---- tuning at 256 never changes what auto runs at 1024 ------------------------------------------
auto_at() { # the configuration --show says auto runs at shape $1 (single precision)
    expect_ok tune --show --precision single --shapes "$1"
    awk -v s="$1" '$4 == s { print $5 }' "$OUT"
}
before=$(auto_at 1024x1024x1024)
[ -n "$before" ] || fail "--show prints auto's configuration at 1024"
expect_ok tune gemm --precision single --sizes 256 --max-candidates 4 --budget-s 600 --repeat 2 \
    --warmup 0 --csv "$WORK/t256.csv"
expect_clean_stderr
grep -Eq "^  (stored in .* near 256x256x256|kept auto|nothing beat)" "$OUT" ||
    fail "the run says whether it stored or kept auto"
[ "$(auto_at 1024x1024x1024)" = "$before" ] || fail "auto at 1024 changed after tuning at 256"
grep -q "user database" "$OUT" && fail "1024 is served by the user entry: $(cat "$OUT")"
if db=$(ls "$TESSEL_TUNING_DIR"/*.tuning 2>/dev/null); then
    [ "$(head -1 "$db")" = "tessel-tuning 2" ] || fail "the file starts with its format line"
    grep -q "^device=.* gemm single small tiled2d:.* .*measured=256x256x256" "$db" ||
        fail "the entry records its shapes: $(cat "$db")"
    expect_ok tune --show --precision single --shapes 256
    grep -q "user database .*measured on 256x256x256" "$OUT" || fail "--show: the entry at 256"
    grep -q "^entries of $db" "$OUT" || fail "--show lists the user file's entries"
    rm -f "$db"
fi

# ---- an entry measured on a shape: auto uses it there and only near it ----------------------------
expect_ok tune --show --precision single
file=$(head -1 "$OUT" | sed 's/^.*: //')
devkey=$(basename "$file" | sed 's/@.*//')
best="tiled2d:MWG=32,NWG=16,KWG=16,MDIMC=4,NDIMC=2,VW=4,SA=0,SB=0,PF=0,STRIDED=0,VWA=1,ALIAS=0"
mkdir -p "$TESSEL_TUNING_DIR"
printf 'tessel-tuning 2\ndevice=%s gemm single small %s gflops=1,measured=48x40x36\n' \
    "$devkey" "$best" >"$file"
expect_ok tune --show --precision single --shapes 48x40x36,1024
expect_clean_stderr
grep -q "48x40x36 .*$best .*user database .*measured on 48x40x36" "$OUT" ||
    fail "--show names the user entry and its shapes"
grep -q "1024x1024x1024 .*shipped defaults" "$OUT" || fail "far from its shape: the shipped entry"
grep -q "^entries of $file" "$OUT" || fail "--show lists the user file's entries"
db="$file"
expect_ok gemm --size 45 --verify --csv -
grep -q ",ok$" "$OUT" || fail "auto with the tuned entry verifies"
# the stored configuration also runs as an explicit variant
expect_ok gemm --variant "$best" --sizes 1,33 --verify --csv -
[ "$(grep -c ',ok$' "$OUT")" -eq 2 ] || fail "the configuration as --variant verifies"

# ---- TRSM's entry, and an entry at another level, in the user's file ---------------------------
printf 'tessel-tuning 2\ndevice=%s trsm any any LEAF=128,PARTS=1\ntype=cpu gemm double any %s\n' \
    "$devkey" "$best" >"$file"
expect_ok tune --show
expect_clean_stderr
grep -q "^trsm  *single  *any  *any  *LEAF=128,PARTS=1 .*user database .*:2, device=.* entry" \
    "$OUT" || fail "--show names the user's trsm entry"
grep -q "^gemm  *double  *large .*$best .*user database .*:3, type=cpu entry" "$OUT" ||
    fail "--show names a user entry at the type level"
printf 'tessel-tuning 2\n' >"$file"

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
expect_error 2 "--precision" tune gemm --precision quad
expect_error 2 "unknown option" tune gemm --bogus
expect_error 2 "MWG" gemm --variant tiled2d:MWG=7 --size 8
expect_error 2 "no parameters" gemm --variant naive:TS=4 --size 8
done_ok
