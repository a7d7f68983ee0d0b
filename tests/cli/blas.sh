# blas.sh: `tessel blas1` and `tessel gemv` as a user runs them: every variant, both precisions,
# odd sizes, --verify against the CPU reference, the copy row, peers, the CSV contract (op, m/n/k
# columns, gbps and gflops from the documented byte and flop counts), deterministic reductions
# across runs, and bad input (exit 2 usage, one `tessel: error: ` line).
. "$(dirname "$0")/lib.sh"
need_python

# every variant of every op verifies on odd sizes, each precision for some op (the library
# suites run every variant of every op in both: here the command's rows and byte counts)
for op_p in axpy:single axpy:double dot:double nrm2:single; do
    op=${op_p%:*} p=${op_p#*:}
    {
        expect_ok blas1 --op $op --sizes 1,33,4099 --variant all --precision $p --verify \
            --repeat 2 --warmup 1 --csv -
        expect_clean_stderr
        [ "$(head -1 "$OUT")" = "$CSV_HEADER" ] || fail "blas1 $op: the CSV header comes first"
        "$PY" - "$OUT" "$op" "$p" <<'PY' || fail "blas1 $op $p: CSV rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
op, prec = sys.argv[2], sys.argv[3]
es = 8 if prec == "double" else 4
per = {"axpy": 3, "dot": 2, "nrm2": 1}[op]
assert len(rows) == 9, rows  # naive, vector, wide at 3 sizes
for r in rows:
    assert r["op"] == op and r["precision"] == prec and r["status"] == "ok", r
    assert r["m"] == "" and r["k"] == "", r
    n, ms = int(r["n"]), float(r["kernel_ms"])
    assert abs(float(r["gbps"]) - per * n * es / (ms * 1e6)) <= 1e-3 * float(r["gbps"]) + 1e-9, r
    assert abs(float(r["gflops"]) - 2 * n / (ms * 1e6)) <= 1e-3 * float(r["gflops"]) + 1e-9, r
    assert float(r["max_rel_err"]) >= 0, r
PY
    }
done

# gemv: layouts, transposes, beta, odd shapes
for layout in row col; do
    for t in n t; do
        expect_ok gemv -m 257 -n 31 --layout $layout --trans $t --beta 0.5 --variant all \
            --verify --repeat 2 --warmup 1 --csv -
        expect_clean_stderr
        "$PY" - "$OUT" <<'PY' || fail "gemv $layout $t: CSV rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["variant"] for r in rows] == ["naive", "vector"], rows
for r in rows:
    assert r["op"] == "gemv" and r["m"] == "257" and r["n"] == "31" and r["k"] == "", r
    assert r["status"] == "ok", r
PY
    done
done
expect_ok gemv -m 1 -n 65 --verify --variant all --precision double --repeat 1
expect_ok gemv -m 65 -n 1 --trans t --verify --variant all --repeat 1
expect_ok gemv --size 33 --verify --variant auto --repeat 1 --json -
"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1]))["rows"][0]; assert r["op"]=="gemv"' \
    "$OUT" || fail "gemv --json"

# gbps of gemv: (mn + n + m) elements, + m with beta != 0
expect_ok gemv -m 40 -n 30 --beta 1 --variant naive --repeat 1 --csv -
"$PY" - "$OUT" <<'PY' || fail "gemv gbps counts mn + n + 2m with beta != 0"
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))[0]
ms = float(r["kernel_ms"])
assert abs(float(r["gbps"]) - (40 * 30 + 30 + 2 * 40) * 4 / (ms * 1e6)) <= 1e-3 * float(r["gbps"])
assert abs(float(r["gflops"]) - 2 * 40 * 30 / (ms * 1e6)) <= 1e-3 * float(r["gflops"])
PY

# the copy row and the peers
expect_ok blas1 --op dot --size 1000 --copy --peers openblas,clblast --verify --repeat 2 --csv -
"$PY" - "$OUT" <<'PY' || fail "copy and peer rows"
import csv, sys
rows = {r["variant"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert set(rows) == {"auto", "copy", "openblas", "clblast"}, rows
assert rows["copy"]["status"] == "ok" and rows["copy"]["gflops"] == "", rows["copy"]
assert rows["openblas"]["status"] == "ok", rows["openblas"]
assert rows["clblast"]["status"] in ("ok", "skipped"), rows["clblast"]
PY

# reductions: the same bits on every run (the CSV carries the error to 17 digits of the result's
# difference from the same reference, so equal errors across runs mean equal results)
for op in dot nrm2; do
    run blas1 --op $op --size 100003 --variant vector --verify --repeat 1 --csv -
    A="$(cut -d, -f16 "$OUT" | tail -1)"
    run blas1 --op $op --size 100003 --variant vector --verify --repeat 1 --csv -
    B="$(cut -d, -f16 "$OUT" | tail -1)"
    [ -n "$A" ] && [ "$A" = "$B" ] || fail "$op: two runs give different results ($A vs $B)"
done

# a failed verification is exit 1
run blas1 --op dot --size 100 --verify --tolerance 0 --variant naive --repeat 1 --csv -
[ "$RC" -eq 1 ] || fail "--tolerance 0 should fail verification, exit $RC"

# --variant list
expect_ok blas1 --op nrm2 --variant list
[ "$(cat "$OUT")" = "$(printf 'naive\nvector\nwide')" ] || fail "blas1 --variant list"
expect_ok gemv --variant list

# bad input
expect_error 2 "--op is required" blas1 --size 10
expect_error 2 "axpy, dot or nrm2" blas1 --op scal
expect_error 2 "--size" blas1 --op dot --size 0
expect_error 2 "--size" blas1 --op dot --size -3
expect_error 2 "unknown dot variant 'fast'" blas1 --op dot --variant fast
expect_error 2 "unknown peer 'cublasx'" blas1 --op dot --peers cublasx
expect_error 2 "single or double" blas1 --op axpy --precision half
expect_error 2 "--alpha" blas1 --op axpy --alpha nan
expect_error 2 "not both" blas1 --op dot --size 8 --sizes 8,16
expect_error 2 "--bogus" blas1 --op dot --bogus
expect_error 2 "row or col" gemv --layout diag
expect_error 2 "n or t" gemv --trans c
expect_error 2 "-m" gemv -m 0
expect_error 2 "--beta" gemv --beta x
expect_error 2 "unknown gemv variant" gemv --variant tiled
expect_error 2 "max_alloc" gemv --size 2000000000
expect_error 2 "sizes go up to" blas1 --op nrm2 --size 1099511627776 --precision double
expect_error 3 "no-such-device" blas1 --op dot --size 8 --device no-such-device-anywhere

done_ok
