# gemm_complex.sh: `tessel gemm --precision complex|doublecomplex` (tsl_cgemm_buf, tsl_zgemm_buf)
# as a user runs it: auto verifies against cblas_zgemm on ragged shapes in both layouts with the
# conjugate transpose and complex alpha and beta, beside the openblas peer (its complex GEMM); the
# CSV says complex / doublecomplex and counts 8mnk flops; the error is a complex GEMM's (a
# tolerance of 0 fails, exit 1); `--transa c` without a complex precision and complex with
# --batch or --devices are usage errors; --help names the precisions. --form 3m: the 3M form's
# rows (precision complex_3m / doublecomplex_3m) verify; --form with a real precision or another
# name is a usage error.
. "$(dirname "$0")/lib.sh"
need_python

# check_rows PRECISION: every row of the CSV on stdout has it, ok, verified, measured
check_rows() {
    "$PY" - "$OUT" "$1" <<'PY' || fail "tessel gemm --precision $1: rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert rows
for r in rows:
    assert r["precision"] == sys.argv[2], r
    assert r["status"] == "ok", r
    ms, gf = float(r["kernel_ms"]), float(r["gflops"])
    m, n, k = int(r["m"]), int(r["n"]), int(r["k"])
    assert ms > 0 and abs(gf - 8.0 * m * n * k / (ms * 1e6)) <= 1e-3 * gf + 1e-3, r
    bound = 1e-12 if sys.argv[2].startswith("doublecomplex") else 1e-5
    assert float(r["max_rel_err"]) < bound * max(1.0, (2 * k / 64) ** 0.5), r
PY
}

expect_ok gemm --precision complex --transa c --transb t -m 33 -n 17 -k 40 --alpha 0.5 \
    --alpha-im -1 --beta 0.25 --beta-im 2 --verify --repeat 1 --warmup 0 --peers openblas --csv -
check_rows complex
expect_clean_stderr
expect_ok gemm --precision doublecomplex --layout col --transb c -m 20 -n 35 -k 9 --alpha-im 1 \
    --verify --repeat 1 --warmup 0 --peers openblas --csv -
check_rows doublecomplex
# the 3M form
expect_ok gemm --precision complex --form 3m --transa c -m 31 -n 18 -k 27 --alpha-im 0.5 \
    --beta 0.5 --verify --repeat 1 --warmup 0 --peers openblas --csv -
check_rows complex_3m
expect_ok gemm --precision doublecomplex --form 3m --layout col -m 19 -n 23 -k 40 --verify \
    --repeat 1 --warmup 0 --csv -
check_rows doublecomplex_3m
# the table names the precision and op(A)^H
expect_ok gemm --precision doublecomplex --transa c --size 8 --verify --repeat 1 --warmup 0
grep -q "op(A)=A^H" "$OUT" || fail "the title says op(A)=A^H"
grep -q "doublecomplex" "$OUT" || fail "the table says doublecomplex"

# the error is measured: a tolerance of 0 fails (exit 1, verify_failed)
run gemm --precision complex --size 24 --verify --tolerance 0 --repeat 1 --warmup 0 --csv -
[ "$RC" -eq 1 ] || fail "--tolerance 0: exit $RC, expected 1"
grep -q ",verify_failed$" "$OUT" || fail "--tolerance 0: verify_failed row"

# usage errors
expect_error 2 "--transa" gemm --transa c --size 8
expect_error 2 "--alpha-im" gemm --alpha-im 1 --size 8
expect_error 2 "--batch" gemm --precision complex --batch 4 --size 8
expect_error 2 "--precision complex" gemm --precision complex --devices all --size 8
expect_error 2 "doublecomplex" gemm --precision quad --size 8
expect_error 2 "--form 3m" gemm --form 3m --size 8
expect_error 2 "4m or 3m" gemm --precision complex --form 2m --size 8

expect_ok gemm --help
grep -qF "doublecomplex" "$OUT" || fail "gemm --help names doublecomplex"

done_ok
