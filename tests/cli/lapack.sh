# lapack.sh: `tessel lapack` as a user runs it: every routine in both precisions with --verify and
# the openblas and cusolver peers as rows of the same table, row-major and the other triangle,
# trans and side, the CSV contract (op, m/n/k with k the right-hand sides or ormqr's reflectors,
# GFLOP/s from LAPACK's flop count, the test ratio in max_rel_err), a --tolerance no result can
# meet (exit 1, verify_failed), and bad input (exit 2, one `tessel: error: ` line). Where
# `nvidia-smi -L` lists a GPU the cusolver rows must run and pass --verify; elsewhere they are
# skipped rows (exit 0) whose reason, on stderr once, is the peer's own (no CUDA device, or built
# without cuSOLVER). What cuSOLVER lacks is skipped everywhere with its reason: row-major, dsposv,
# gels with m < n or --trans t.
. "$(dirname "$0")/lib.sh"
need_python

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    CUSOLVER=ok
else
    CUSOLVER=skipped
fi

check_rows() { # OP PREC M N K EXPECTED_VARIANTS [CUSOLVER_STATUS [REASON]]
    "$PY" - "$OUT" "$ERR" "$@" <<'PY' || fail "lapack $1 $2: CSV rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
err = open(sys.argv[2]).read()
op, prec, m, n, k, want = sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), sys.argv[8]
cus = sys.argv[9] if len(sys.argv) > 9 else "ok"
why = sys.argv[10] if len(sys.argv) > 10 else ""
assert [r["variant"] for r in rows] == want.split(","), rows
big, mn = max(m, n), min(m, n)
qr = 2.0 * big * mn * mn - 2.0 / 3.0 * mn ** 3
flops = {"getrf": big * mn * mn - mn ** 3 / 3.0, "potrf": n ** 3 / 3.0, "geqrf": qr,
         "getrs": 2.0 * n * n * k, "potrs": 2.0 * n * n * k,
         "gesv": 2.0 / 3.0 * n ** 3 + 2.0 * n * n * k, "dsgesv": 2.0 / 3.0 * n ** 3 + 2.0 * n * n * k,
         "posv": n ** 3 / 3.0 + 2.0 * n * n * k, "dsposv": n ** 3 / 3.0 + 2.0 * n * n * k,
         "ormqr": 4.0 * m * n * k - 2.0 * k * k * n,
         "gels": qr + 4.0 * big * mn * k + mn * mn * k}[op]
for r in rows:
    assert r["op"] == op and r["precision"] == prec, r
    assert r["m"] == str(m) and r["n"] == str(n) and r["k"] == str(k), r
    if r["variant"] == "cusolver":
        assert r["status"] == cus, (r, err)
        if cus == "skipped":
            assert err.count("peer cusolver skipped: " + why) == 1, err
            continue
        assert "cuSOLVER" in r["device"], r
    assert r["status"] == "ok", r
    ms = float(r["kernel_ms"])
    assert abs(float(r["gflops"]) - flops / (ms * 1e6)) <= 1e-3 * float(r["gflops"]) + 1e-9, r
    assert 0 <= float(r["max_rel_err"]) < 30, r
PY
}

for op in getrf geqrf; do
    for p in single double; do
        expect_ok lapack --op $op -m 97 -n 61 --precision $p --verify --peers openblas,cusolver \
            --repeat 1 --csv -
        expect_clean_stderr
        [ "$(head -1 "$OUT")" = "$CSV_HEADER" ] || fail "lapack $op: the CSV header comes first"
        check_rows $op $p 97 61 0 auto,openblas,cusolver $CUSOLVER
    done
done
for op in getrs gesv potrf potrs posv; do
    for p in single double; do
        expect_ok lapack --op $op --size 70 --nrhs 3 --precision $p --uplo upper --trans t --verify \
            --peers openblas,cusolver --repeat 1 --csv -
        k=3; [ $op = potrf ] && k=0
        check_rows $op $p 70 70 $k auto,openblas,cusolver $CUSOLVER
    done
done
expect_ok lapack --op dsgesv --size 70 --nrhs 2 --verify --peers openblas,cusolver --repeat 1 --csv -
check_rows dsgesv double 70 70 2 auto,openblas,cusolver $CUSOLVER
expect_ok lapack --op dsposv --size 70 --nrhs 2 --verify --peers openblas,cusolver --repeat 1 --csv -
check_rows dsposv double 70 70 2 auto,openblas,cusolver skipped "cuSOLVER has no IRS Cholesky"
expect_ok lapack --op ormqr -m 90 -n 40 -k 35 --trans t --verify --peers openblas,cusolver \
    --repeat 1 --csv -
check_rows ormqr single 90 40 35 auto,openblas,cusolver $CUSOLVER
expect_ok lapack --op gels -m 40 -n 90 --nrhs 2 --precision double --verify \
    --peers openblas,cusolver --repeat 1 --csv -
check_rows gels double 40 90 2 auto,openblas,cusolver skipped "cuSOLVER's gels"
expect_ok lapack --op gels -m 90 -n 40 --nrhs 2 --verify --peers cusolver --repeat 1 --csv -
check_rows gels single 90 40 2 auto,cusolver $CUSOLVER
# row-major (the openblas peer is column-major only: a skipped row and one note)
expect_ok lapack --op ormqr -m 50 -n 80 -k 30 --side right --layout row --verify --repeat 1
expect_ok lapack --op gels -m 80 -n 30 --trans t --layout row --verify --peers openblas,cusolver \
    --repeat 1 --csv -
for p in openblas cusolver; do
    grep -q "^gels,$p,.*,skipped\$" "$OUT" || fail "row-major $p: a skipped row"
    grep -q "peer $p skipped: .*column-major only" "$ERR" || fail "row-major $p: the note says why"
done
# getrf's leaf variants
expect_ok lapack --op gesv --size 300 --variant all --verify --repeat 1 --csv -
"$PY" -c 'import csv,sys; v=[r["variant"] for r in csv.DictReader(open(sys.argv[1]))]; assert v == ["leaf", "columns"], v' "$OUT" ||
    fail "lapack --variant all: leaf and columns"
# a tolerance nothing meets: verify_failed, exit 1
run lapack --op potrf --size 50 --verify --tolerance 0 --repeat 1 --csv -
[ "$RC" -eq 1 ] || fail "lapack --tolerance 0: exit $RC, want 1"
grep -q ',verify_failed$' "$OUT" || fail "lapack --tolerance 0: verify_failed"

# bad input
expect_error 2 "--op is required" lapack --size 8
expect_error 2 "--op expects" lapack --op syev --size 8
expect_error 2 "--uplo expects" lapack --op potrf --uplo both --size 8
expect_error 2 "--trans expects" lapack --op gels --trans c --size 8
expect_error 2 "--side expects" lapack --op ormqr --side top --size 8
expect_error 2 "--layout expects" lapack --op getrf --layout diag --size 8
expect_error 2 "has only auto" lapack --op potrf --variant leaf --size 8
expect_error 2 "unknown getrf variant" lapack --op getrf --variant fast --size 8
expect_error 2 "unknown peer" lapack --op getrf --peers cusolverx --size 8
expect_error 2 "-k must not pass" lapack --op ormqr -m 10 -n 10 -k 11
expect_error 2 "--precision" lapack --op getrf --precision half --size 8
done_ok
