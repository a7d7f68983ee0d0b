# transpose.sh: `tessel transpose` and `tessel bandwidth`. Bad input: exit 2 (3 for runtime) with
# one `tessel: error: ` line and nothing on stdout; `--csv -`: the header of docs/design.md, then
# one row per variant (copy first with --copy), m = rows, n = cols, k empty, gbps filled; --verify
# passes on odd shapes and tiles; bandwidth rows for every kind with gbps.
. "$(dirname "$0")/lib.sh"
need_python

# ---- bad input -----------------------------------------------------------------------------
expect_error 2 "--bogus" transpose --bogus
expect_error 2 "unknown variant 'fastest'" transpose --variant fastest
grep -qF diagonal "$ERR" && grep -qF nobank "$ERR" || fail "the message lists the variants"
expect_error 2 "--tile" transpose --size 8 --tile 3
expect_error 2 "--tile" transpose --size 8 --tile 65
expect_error 2 "--tile" transpose --size 8 --tile abc
expect_error 2 "--inner-reps" transpose --size 8 --inner-reps 0
expect_error 2 "--rows" transpose --rows -4
expect_error 2 "--cols" transpose --cols 1.5
expect_error 2 "not both" transpose --size 8 --sizes 8,16
expect_error 2 "single or double" transpose --precision half
expect_error 2 "unknown peer 'cublasx'" transpose --peers clblast,cublasx
expect_error 2 "size_t" transpose --rows 4294967296 --cols 4294967296
expect_error 2 "max_alloc" transpose --device 0:0 --size 1048576
expect_error 3 "no OpenCL device matches" transpose --device no-such-device-xyz --size 8
expect_error 2 "--bogus" bandwidth --bogus
expect_error 2 "unknown variant 'h2x'" bandwidth --variant h2x
expect_error 2 "--sizes" bandwidth --sizes 1M,,2M
expect_error 2 "'12X'" bandwidth --sizes 12X
expect_error 2 "'0'" bandwidth --sizes 0
expect_error 2 "max_alloc" bandwidth --device 0:0 --sizes 1048576G

# ---- lists and help ------------------------------------------------------------------------
expect_ok transpose --variant list
[ "$(tr '\n' ' ' <"$OUT")" = "copy naive coalesced nobank diagonal vector " ] ||
    fail "transpose variants"
expect_ok bandwidth --variant list
[ "$(wc -l <"$OUT")" -eq 5 ] || fail "five bandwidth kinds"
expect_ok transpose --help
grep -qF -- "--inner-reps" "$OUT" || fail "help names --inner-reps"

# ---- CSV, every variant, odd shapes, --verify ------------------------------------------------
expect_ok transpose --variant all --copy --rows 257 --cols 31 --tile 8 --inner-reps 2 --verify \
    --repeat 2 --warmup 1 --peers openblas --csv -
expect_clean_stderr
[ "$(head -1 "$OUT")" = "$CSV_HEADER" ] || fail "the first line must be the CSV header"
"$PY" - "$OUT" <<'PY' || fail "transpose CSV rows are not as expected"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
header, body = rows[0], [dict(zip(rows[0], r)) for r in rows[1:]]
assert all(len(r) == len(header) for r in rows[1:])
assert [r["variant"] for r in body] == ["copy", "naive", "coalesced", "nobank", "diagonal",
                                        "vector", "openblas"], [r["variant"] for r in body]
for r in body:
    assert r["op"] == "transpose" and (r["m"], r["n"], r["k"]) == ("257", "31", ""), r
    assert r["status"] == "ok" and float(r["max_rel_err"]) == 0.0, r
    assert float(r["kernel_ms"]) > 0 and float(r["gbps"]) > 0 and r["gflops"] == "", r
PY
for shape in "--rows 1 --cols 1" "--rows 1 --cols 77" "--rows 33 --cols 65"; do
    # shellcheck disable=SC2086
    expect_ok transpose --variant all $shape --precision double --tile 5 --verify --repeat 1 \
        --warmup 0 --quiet
done
expect_ok transpose --sizes 5,17 --verify --repeat 1 --csv -
[ "$(cut -d, -f2,4,5 "$OUT" | tail -n +2 | tr '\n' ' ')" = "auto,5,5 auto,17,17 " ] ||
    fail "one auto row per size"

# ---- bandwidth -------------------------------------------------------------------------------
expect_ok bandwidth --sizes 4099,64K --repeat 2 --warmup 1 --verify --csv -
expect_clean_stderr
[ "$(head -1 "$OUT")" = "$CSV_HEADER" ] || fail "the first line must be the CSV header"
"$PY" - "$OUT" <<'PY' || fail "bandwidth CSV rows are not as expected"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
body = [dict(zip(rows[0], r)) for r in rows[1:]]
kinds = ["d2d", "h2d_pageable", "h2d_pinned", "d2h_pageable", "d2h_pinned"]
assert [r["variant"] for r in body] == kinds * 2, [r["variant"] for r in body]
assert [r["m"] for r in body] == ["4099"] * 5 + ["65536"] * 5
for r in body:
    assert r["op"] == "bandwidth" and r["status"] == "ok" and float(r["gbps"]) > 0, r
    assert float(r["max_rel_err"]) == 0.0, r
    t = {"d2d": "kernel_ms", "h2d": "upload_ms", "d2h": "download_ms"}[r["variant"][:3]]
    assert float(r[t]) > 0, r
PY
done_ok
