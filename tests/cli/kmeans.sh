# kmeans.sh: `tessel kmeans` as a user runs it. The CSV and JSON contracts (header, columns, the
# sequential row on the host first, m = points, n = clusters, k = dim, speedup and differ in JSON
# and the table), --verify passing on every variant at sizes that are multiples of nothing,
# --no-sequential, a forced --verify failure (exit 1, rows still printed), and every bad input as
# exactly one `tessel: error: ` line with the documented exit code.
. "$(dirname "$0")/lib.sh"
need_python

# ---- help and list ---------------------------------------------------------------------------
expect_ok kmeans --help
grep -q -- "--clusters" "$OUT" && grep -q -- "--dim" "$OUT" || fail "--help shows the options"
expect_ok kmeans --variant list
[ "$(tr '\n' ' ' <"$OUT")" = "original unrolled optimized " ] ||
    fail "--variant list prints the variants, one a line"

# ---- CSV: every variant, verified, after the sequential row ------------------------------------
expect_ok kmeans --variant all --points 1001 --clusters 13 --dim 5 --verify --repeat 2 \
    --warmup 0 --csv -
expect_clean_stderr
[ "$(head -1 "$OUT")" = "$CSV_HEADER" ] || fail "the CSV header comes first"
"$PY" - "$OUT" <<'PYEOF' || fail "CSV rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["variant"] for r in rows] == ["sequential", "original", "unrolled", "optimized"], rows
assert rows[0]["device"] == "host" and rows[0]["repeat"] == "1", rows[0]
for r in rows:
    assert r["op"] == "kmeans" and (r["m"], r["n"], r["k"]) == ("1001", "13", "5"), r
    assert r["status"] == "ok" and float(r["gflops"]) > 0 and r["gbps"] == "", r
for r in rows[1:]:
    assert float(r["max_rel_err"]) <= 2 * 8 * 2 ** -24, r
PYEOF

# ---- JSON: one point, one cluster, one dimension; speedup and differ ----------------------------
for shape in "1 1 1" "77 9 1" "300 20 17"; do
    set -- $shape
    expect_ok kmeans --variant all --points "$1" --clusters "$2" --dim "$3" --verify --repeat 1 \
        --warmup 0 --json -
    "$PY" - "$OUT" <<'PYEOF' || fail "JSON rows at $shape"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert len(rows) == 4, len(rows)
for r in rows:
    assert r["status"] == "ok" and r["speedup"] > 0, r
    if r["variant"] != "sequential":
        assert r["differ"] == 0 and r["max_rel_err"] == 0, r   # IEEE device: the host's bits
PYEOF
done

# ---- --no-sequential, and the table ---------------------------------------------------------
expect_ok kmeans --variant optimized --points 100 --clusters 10 --no-sequential --repeat 1 \
    --warmup 0 --csv -
[ "$(tail -n +2 "$OUT" | cut -d, -f2)" = "optimized" ] || fail "--no-sequential leaves one row"
expect_ok kmeans --points 100 --clusters 10 --repeat 1 --warmup 0
grep -q "speedup" "$OUT" && grep -q "differ" "$OUT" || fail "the table shows speedup, differ"

# ---- --tolerance 0 still passes: the kernels do the host's float operations in its order, so an
# IEEE device gives the host's assignment exactly (tests/test_kmeans.c makes wrong kernels fail) --
expect_ok kmeans --variant all --points 3000 --clusters 50 --dim 3 --verify --tolerance 0 \
    --repeat 1 --warmup 0 --csv -

# ---- bad input -------------------------------------------------------------------------------
expect_error 2 "--points" kmeans --points 0
expect_error 2 "--clusters" kmeans --clusters 0
expect_error 2 "--dim" kmeans --dim 0
expect_error 2 "--dim" kmeans --dim 2.5
expect_error 2 "--clusters" kmeans --clusters 3000000000
expect_error 2 "overflow" kmeans --points 4611686018427387904 --dim 8
expect_error 2 "largest buffer" kmeans --points 2000000000 --dim 4
expect_error 2 "unknown variant 'tiled'" kmeans --variant tiled
expect_error 2 "--tolerance" kmeans --tolerance -1
expect_error 2 "--bogus" kmeans --bogus
expect_error 3 "no-such-device" kmeans --points 10 --device no-such-device

done_ok
