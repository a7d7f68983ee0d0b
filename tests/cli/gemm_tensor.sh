# gemm_tensor.sh: the tensor-core modes of `tessel gemm` (docs/gemm.md) as a user runs them, on the
# test device (PoCL: the emulation of the instructions). --precision bfloat16: the ladder and
# tiled2d's tensor-core configuration verify against the double reference of the bfloat16 inputs
# (error the size of bfloat16's rounding of C, below 2^-8 + the single bound), the CSV says
# bfloat16, peers are skipped rows. --math tf32: verified against the reference of the TF32-rounded
# inputs, so the error is FP32's (below 1e-5; against the plain reference it would be TF32's,
# ~1e-4), the CSV says tf32, peers are skipped rows; a ladder variant in TF32 math is an error (exit
# 3) naming TF32. --math 3xtf32: within the single bound of the plain reference, beside OpenBLAS.
# Bad values are one usage line each (exit 2): an unknown --math, --math with another precision or
# with --batch, bfloat16 for an op without it.
. "$(dirname "$0")/lib.sh"
need_python

# check_rows PRECISION MAX_ERR SKIPPED: every row of the CSV has that precision; skipped rows are
# exactly the comma list; the others verified ok with an error below MAX_ERR.
check_rows() {
    "$PY" - "$OUT" "$1" "$2" "$3" <<'PY' || fail "tessel gemm $1: rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
prec, max_err = sys.argv[2], float(sys.argv[3])
skipped = set(filter(None, sys.argv[4].split(",")))
assert rows
for r in rows:
    assert r["precision"] == prec, r
    if r["variant"] in skipped:
        assert r["status"] == "skipped", r
        continue
    assert r["status"] == "ok", r
    assert 0 < float(r["max_rel_err"]) < max_err, r
assert skipped == {r["variant"] for r in rows if r["status"] == "skipped"}, rows
PY
}

# bfloat16: ladder, tiled2d's built-in MMA=4 configuration, and auto; ragged, both layouts
for v in naive tiled2d auto; do
    for layout in row col; do
        expect_ok gemm --precision bfloat16 --variant $v --layout $layout --transa t \
            -m 33 -n 65 -k 17 --beta 0.5 --verify --repeat 1 --warmup 0 --csv -
        check_rows bfloat16 0.006 ""
    done
done
expect_ok gemm --precision bfloat16 --variant tiled2d --size 20 --peers openblas --verify \
    --repeat 1 --warmup 0 --csv -
check_rows bfloat16 0.006 openblas
grep -q "^tessel: note: peer openblas skipped: .*bfloat16" "$ERR" || fail "bfloat16 peers: a note"

# TF32: the reference of the rounded inputs; auto and tiled2d (its TF32 configuration)
for v in auto tiled2d; do
    expect_ok gemm --math tf32 --variant $v --layout col --transb t -m 65 -n 33 -k 40 \
        --alpha -1.5 --beta 0.25 --verify --repeat 1 --warmup 0 --csv -
    check_rows tf32 1e-5 ""
done
# every variant: the ladder's rows are skipped (they compute in FP32), as are the peers'
expect_ok gemm --math tf32 --variant all --size 24 --peers openblas --verify --repeat 1 \
    --warmup 0 --csv -
check_rows tf32 1e-5 naive,tiled_2x2,tiled_4x4,tiled_8x8,tiled_16x16,tiled_32x32,regblock_2,regblock_4,openblas
expect_error 3 "TF32" gemm --math tf32 --variant regblock_2 --size 16

# 3xTF32: FP32's bound against the plain reference, beside OpenBLAS's FP32
expect_ok gemm --math 3xtf32 --variant auto --peers openblas -m 40 -n 24 -k 65 --verify \
    --repeat 1 --warmup 0 --csv -
check_rows 3xtf32 1e-5 ""

# bad values: one usage line each
expect_error 2 "--math expects fp32, tf32 or 3xtf32" gemm --math tf64 --size 8
expect_error 2 "single" gemm --math tf32 --precision half --size 8
expect_error 2 "--batch" gemm --math 3xtf32 --batch 2 --size 8
expect_error 2 "--precision expects single, double, half, bfloat16, complex or doublecomplex" gemm --precision bf16 --size 8
expect_error 2 "bfloat16" transpose --precision bfloat16 --size 8
expect_ok gemm --math fp32 --variant naive --size 8 --verify --repeat 1 --warmup 0 --csv -
check_rows single 1 ""

expect_ok gemm --help
grep -qF -- "--math" "$OUT" && grep -qF "bfloat16" "$OUT" || fail "gemm --help: --math, bfloat16"
done_ok
