# blas3.sh: `tessel blas3` and `tessel gemm --batch` as a user runs them: every routine in both
# precisions and layouts with --verify against OpenBLAS, the openblas peer as a row of the same
# table, the CSV contract (op, the m/n/k columns each routine fills, GFLOP/s from the routine's own
# flop count), a small --block so the blocked paths run over several blocks, batched GEMM with
# every variant, and bad input (exit 2, one `tessel: error: ` line).
. "$(dirname "$0")/lib.sh"
need_python

for op in symm syrk syr2k trmm trsm; do
    for p in single double; do
        expect_ok blas3 --op $op -m 67 -n 45 -k 33 --precision $p --layout col --side right \
            --uplo upper --trans t --diag unit --beta 0.5 --block 16 --verify --peers openblas \
            --repeat 2 --warmup 1 --csv -
        expect_clean_stderr
        [ "$(head -1 "$OUT")" = "$CSV_HEADER" ] || fail "blas3 $op: the CSV header comes first"
        "$PY" - "$OUT" "$op" "$p" <<'PY' || fail "blas3 $op $p: CSV rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
op, prec = sys.argv[2], sys.argv[3]
assert [r["variant"] for r in rows] == ["auto", "openblas"], rows
m, n, k = 67, 45, 33
flops = {"symm": 2 * m * n * n, "syrk": n * (n + 1) * k, "syr2k": 2 * n * (n + 1) * k,
         "trmm": m * n * n, "trsm": m * n * n}[op]
for r in rows:
    assert r["op"] == op and r["precision"] == prec and r["status"] == "ok", r
    if op in ("syrk", "syr2k"):
        assert r["m"] == "" and r["n"] == str(n) and r["k"] == str(k), r
    else:
        assert r["m"] == str(m) and r["n"] == str(n) and r["k"] == "", r
    ms = float(r["kernel_ms"])
    assert abs(float(r["gflops"]) - flops / (ms * 1e6)) <= 1e-3 * float(r["gflops"]) + 1e-9, r
    assert float(r["max_rel_err"]) < 1e-4, r
PY
    done
done

# TESSEL_TRACE=2: every command's device time, each launch named by what it computes, its kernel
# and its global size (how a blocked routine's time splits among its launches)
# inverse_leaf through the CLI, verified, with --inv-block (blocks of 32 from 8: two doublings)
expect_ok blas3 --op trsm -m 70 -n 45 --block 32 --inv-block 8 --variant inverse_leaf --verify \
    --repeat 1 --warmup 0
# and with B in 3 parts (--streams; on a CPU the parts run in turn on the context's queue)
expect_ok blas3 --op trsm -m 70 -n 200 --block 32 --inv-block 8 --variant inverse_leaf --verify \
    --streams 3 --repeat 1 --warmup 0
# and with the inverses of blocks up to 256 built in one launch (l3_tri_inv_fused, --inv-fuse),
# the launch named in the trace
TESSEL_TRACE=2 expect_ok blas3 --op trsm -m 300 -n 40 --block 256 --variant inverse_leaf \
    --inv-fuse 4096 --verify --repeat 1 --warmup 0
grep -Eq '^tessel: trace: +[0-9.]+ us  trsm diagonal inverses, fused \(l3_tri_inv_fused\) ' "$ERR" ||
    fail "--inv-fuse: the fused launch"
TESSEL_TRACE=2 expect_ok blas3 --op trsm --size 70 --block 16 --variant inverse --repeat 1 --warmup 0
expect_clean_stderr
grep -Eq '^tessel: trace: +[0-9.]+ us  trsm diagonal inverses \(l3_tri_inv(64)?\) [0-9]+ x [0-9]+ x 1$' "$ERR" ||
    fail "TESSEL_TRACE=2: the diagonal inverses' launch"
grep -Eq '^tessel: trace: +[0-9.]+ us  tiled2d [a-z ]*\(gemm_tiled2d\) ' "$ERR" ||
    fail "TESSEL_TRACE=2: the GEMM launches"
grep -Eq '^tessel: trace: +[0-9.]+ us  upload$' "$ERR" || fail "TESSEL_TRACE=2: the uploads"
run blas3 --op trsm --size 70 --repeat 1 --warmup 0
grep -q 'us  ' "$ERR" && fail "no TESSEL_TRACE: no command times"

# the default orientation, JSON output
expect_ok blas3 --op trsm --size 100 --verify --repeat 1 --warmup 0 --json -
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["rows"][0]; assert r["op"]=="trsm" and r["status"]=="ok", r' "$OUT" ||
    fail "blas3 --json"

# batched GEMM: every variant, a transpose, the openblas peer; 2 m n k per problem
# --variant list names the batched variants, not GEMM's
expect_ok gemm --batch 3 --variant list
[ "$(tr '\n' ' ' < "$OUT")" = "direct loop tiled " ] || fail "gemm --batch --variant list: $(cat "$OUT")"
expect_ok gemm --batch 7 -m 33 -n 20 -k 9 --transb t --variant all --verify --peers openblas \
    --repeat 2 --warmup 1 --csv -
expect_clean_stderr
"$PY" - "$OUT" <<'PY' || fail "gemm --batch: CSV rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["variant"] for r in rows] == ["direct", "loop", "tiled", "openblas"], rows
for r in rows:
    assert r["op"] == "gemm_batched" and r["status"] == "ok", r
    assert (r["m"], r["n"], r["k"]) == ("33", "20", "9"), r
    ms = float(r["kernel_ms"])
    assert abs(float(r["gflops"]) - 7 * 2 * 33 * 20 * 9 / (ms * 1e6)) <= 1e-3 * float(r["gflops"]) + 1e-9, r
PY

# bad input
expect_error 2 "--op is required" blas3 --size 8
expect_error 2 "--op expects" blas3 --op gemm --size 8
expect_error 2 "--side expects" blas3 --op trsm --side middle --size 8
expect_error 2 "--uplo expects" blas3 --op syrk --uplo both --size 8
expect_error 2 "--diag expects" blas3 --op trmm --diag yes --size 8
expect_error 2 "--trans expects" blas3 --op syr2k --trans c --size 8
expect_error 2 "unknown trsm variant" blas3 --op trsm --variant fast --size 8
expect_error 2 "unknown peer" blas3 --op symm --peers mkl --size 8
expect_error 2 "--block" blas3 --op trsm --block 5000 --size 8
expect_error 2 "--inv-block expects 1 to 4096" blas3 --op trsm --inv-block 5000 --size 8
expect_error 2 "--inv-block expects a positive" blas3 --op trsm --inv-block 0 --size 8
expect_error 2 "--streams expects 1 to 4" blas3 --op trsm --streams 5 --size 8
expect_error 2 "--inv-fuse expects 1 to 4096" blas3 --op trsm --inv-fuse 4097 --size 8
expect_error 2 "--precision" blas3 --op symm --precision half --size 8
expect_error 2 "unknown gemm_batched variant" gemm --batch 3 --variant tiled2d --size 8
expect_error 2 "unknown peer" gemm --batch 3 --peers cuda_naive --size 8
expect_error 2 "--batch" gemm --batch 0 --size 8
done_ok
