# gemm_csv.sh: `--csv -` puts exactly CSV on stdout (the header of docs/design.md, then one row per
# variant and peer), every message on stderr; with --verify every row that ran is ok; a variant
# or peer that cannot run is a skipped row with its reason on stderr.
. "$(dirname "$0")/lib.sh"
need_python

"$TESSEL" gemm --variant list >"$WORK/variants" || fail "--variant list failed"
expect_ok gemm --variant all --size 33 --verify --peers clblast,openblas --repeat 2 --warmup 1 \
    --csv -
expect_clean_stderr
[ "$(head -1 "$OUT")" = "$CSV_HEADER" ] || fail "the first line must be the CSV header"
"$PY" - "$OUT" "$ERR" "$WORK/variants" <<'PY' || fail "CSV rows are not as expected"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
err = open(sys.argv[2]).read()
variants = open(sys.argv[3]).read().split()
header, body = rows[0], rows[1:]
assert all(len(r) == len(header) for r in body), "every row has every column"
got = [dict(zip(header, r)) for r in body]
names = [r["variant"] for r in got]
assert names == variants + ["clblast", "openblas"], names
for r in got:
    assert r["op"] == "gemm" and r["precision"] == "single"
    assert (r["m"], r["n"], r["k"], r["repeat"]) == ("33", "33", "33", "2"), r
    assert r["gbps"] == "", "GEMM leaves gbps empty"
    if r["status"] == "skipped":
        assert r["variant"] in err, "a skipped row has its reason on stderr: " + r["variant"]
        continue
    assert r["status"] == "ok", r
    assert float(r["kernel_ms"]) > 0 and float(r["gflops"]) > 0, r
    assert float(r["max_rel_err"]) < 1e-5, r
    assert r["device"], r
assert sum(r["status"] == "ok" for r in got) >= 2, "at least naive and openblas run"
openblas = got[-1]
assert openblas["status"] == "ok" and "CPU" in openblas["device"], openblas
PY

# without --verify the error column is empty; --quiet with --csv - changes nothing on stdout
expect_ok gemm --variant naive --size 20 --repeat 1 --quiet --csv -
[ "$(head -1 "$OUT")" = "$CSV_HEADER" ] || fail "the first line must be the CSV header"
[ "$(wc -l <"$OUT")" -eq 2 ] || fail "one variant, one size: one row"
[ "$(tail -1 "$OUT" | cut -d, -f16,17)" = ",ok" ] || fail "no --verify: empty max_rel_err, ok"

# several sizes: one row per size and variant, in order
expect_ok gemm --variant naive --sizes 5,9,16 --repeat 1 --csv -
[ "$(cut -d, -f4 "$OUT" | tail -n +2 | tr '\n' ' ')" = "5 9 16 " ] || fail "one row per size"
expect_ok gemm --variant naive --sizes 5,9 -k 3 --repeat 1 --csv -
[ "$(cut -d, -f4-6 "$OUT" | tail -n +2 | tr '\n' ' ')" = "5,5,3 9,9,3 " ] || fail "-k overrides"

done_ok
