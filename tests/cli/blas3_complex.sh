# blas3_complex.sh: `tessel blas3 --precision complex|doublecomplex` (the complex Level-3 routines'
# _buf forms) as a user runs them: every routine, with hemm, herk and her2k, verified against
# cblas_z* beside the openblas peer's row (cblas_c*, cblas_z*) on ragged shapes with a small
# --block (the recursive halves), complex alpha and beta where the routine takes them, --trans c;
# the CSV says complex / doublecomplex and counts 4 times the real flops; usage errors for what
# is complex only, a transpose the routine does not take, and a variant other than auto.
. "$(dirname "$0")/lib.sh"
need_python

check_rows() { # OP PRECISION: rows auto and openblas, ok, verified, the flop count
    "$PY" - "$OUT" "$1" "$2" <<'PY' || fail "blas3 --op $1 --precision $2: rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
op, prec = sys.argv[2], sys.argv[3]
assert [r["variant"] for r in rows] == ["auto", "openblas"], rows
m, n, k = 37, 29, 21
real = {"symm": 2 * m * n * n, "hemm": 2 * m * n * n, "syrk": n * (n + 1) * k,
        "herk": n * (n + 1) * k, "syr2k": 2 * n * (n + 1) * k, "her2k": 2 * n * (n + 1) * k,
        "trmm": m * n * n, "trsm": m * n * n}[op]
for r in rows:
    assert r["op"] == op and r["precision"] == prec and r["status"] == "ok", r
    ms = float(r["kernel_ms"])
    assert abs(float(r["gflops"]) - 4 * real / (ms * 1e6)) <= 1e-3 * float(r["gflops"]) + 1e-9, r
    assert float(r["max_rel_err"]) < (1e-4 if prec == "complex" else 1e-12), r
PY
}

for op in symm hemm syrk herk syr2k her2k trmm trsm; do
    p=complex; trans=t; scal="--alpha-im 0.5 --beta-im -0.25"
    case $op in herk|her2k) trans=c ;; esac
    case $op in herk) scal="" ;; her2k) scal="--alpha-im 0.5" ;; trmm|trsm) trans=c; scal="--alpha-im 0.5" ;; esac
    case $op in hemm|herk|trsm) p=doublecomplex ;; esac
    expect_ok blas3 --op $op -m 37 -n 29 -k 21 --precision $p --layout col --side right \
        --uplo upper --trans $trans --beta 0.5 $scal --block 8 --verify --peers openblas \
        --repeat 1 --warmup 0 --csv -
    expect_clean_stderr
    check_rows $op $p
done

expect_error 2 "complex" blas3 --op herk --size 16
expect_error 2 "complex" blas3 --op trmm --trans c --size 16
expect_error 2 "complex" blas3 --op trmm --alpha-im 1 --size 16
expect_error 2 "--trans n or t" blas3 --op syrk --precision complex --trans c --size 16
expect_error 2 "--trans n or c" blas3 --op herk --precision complex --trans t --size 16
expect_error 2 "alpha is real" blas3 --op herk --precision complex --alpha-im 1 --size 16
expect_error 2 "one algorithm" blas3 --op trsm --precision complex --variant blocked --size 16
done_ok
