# gemm_cuda_twins.sh: the CUDA twins of the naive and tiled_16x16 kernels as peers of
# `tessel gemm` (--peers cuda_naive,cuda_tiled). On a machine without a CUDA device (or a tessel
# built without nvcc) each is a `skipped` row with its reason once on stderr, and the run goes on
# with exit 0; where `nvidia-smi -L` lists a GPU they must run and pass --verify, in both
# precisions, on ragged sizes, column-major with transposes and beta != 0 (the layout mapping and
# the guards of the OpenCL kernels they copy). An unknown peer name is a usage error.
. "$(dirname "$0")/lib.sh"
need_python

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    EXPECT=ok
else
    EXPECT=skipped
fi

expect_ok gemm --size 64 --peers cuda_naive,cuda_tiled --csv -
expect_clean_stderr
[ "$(head -1 "$OUT")" = "$CSV_HEADER" ] || fail "the first line must be the CSV header"
"$PY" - "$OUT" "$ERR" "$EXPECT" <<'PY' || fail "twin rows (expected $EXPECT)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
err, expect = open(sys.argv[2]).read(), sys.argv[3]
assert [r["variant"] for r in rows] == ["auto", "cuda_naive", "cuda_tiled"], rows
for r in rows[1:]:
    assert r["op"] == "gemm" and (r["m"], r["n"], r["k"]) == ("64", "64", "64"), r
    assert r["status"] == expect, r
    if expect == "skipped":
        assert r["kernel_ms"] == "" and r["gflops"] == "", r
        assert err.count("peer %s skipped: " % r["variant"]) == 1, err
    else:
        assert float(r["kernel_ms"]) > 0 and "CUDA" in r["device"], r
PY

# Verified where they run; skipped (exit 0) where they cannot, in double precision too.
for args in "--sizes 1,17,100 --verify" \
            "--size 75 --precision double --verify" \
            "-m 33 -n 70 -k 19 --layout col --transa t --transb t --beta 0.5 --verify"; do
    # shellcheck disable=SC2086
    expect_ok gemm $args --peers cuda_tiled,cuda_naive --repeat 2 --warmup 0 --json -
    "$PY" - "$OUT" "$EXPECT" <<'PY' || fail "twins with $args (expected $EXPECT)"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"] if r["variant"].startswith("cuda_")]
assert rows and all(r["status"] == sys.argv[2] for r in rows), rows
for r in rows:
    if r["status"] == "ok":
        assert r["max_rel_err"] is not None and r["max_rel_err"] < 1e-5, r
PY
done

expect_error 2 "unknown peer 'cuda_tiledx'" gemm --size 8 --peers cuda_naive,cuda_tiledx
"$TESSEL" gemm --help | grep -q "cuda_tiled" || fail "--help lists the cuda_tiled peer"

done_ok
