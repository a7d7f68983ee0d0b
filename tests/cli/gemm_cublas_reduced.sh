# gemm_cublas_reduced.sh: the cublas peer of `tessel gemm` in tessel's reduced modes:
# --precision half and bfloat16 (cublasGemmEx, FP32 accumulation, C in the storage type) and
# --math tf32 (CUBLAS_COMPUTE_32F_FAST_TF32) reach the peer instead of being skipped before it;
# --math 3xtf32 stays cuBLAS's plain FP32. The other peers (openblas here) have no such GEMM:
# skipped rows with the "it has no GEMM" note. Where `nvidia-smi -L` lists a GPU the cublas rows
# must run and pass --verify (the same reference and bound as tessel's rows: the TF32-rounded
# inputs for tf32), ragged, both layouts, transposes and beta != 0, and their device text names the
# mode; elsewhere they are skipped rows whose reason is the peer's own (no CUDA device, or no
# toolkit), never "it has no GEMM".
. "$(dirname "$0")/lib.sh"
need_python

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    EXPECT=ok
else
    EXPECT=skipped
fi

# check MODE PRECISION OPENBLAS_STATUS DEVICE_TEXT
check() {
    "$PY" - "$OUT" "$ERR" "$EXPECT" "$@" <<'PY' || fail "cublas rows, $1 (expected $EXPECT)"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
err, expect, mode, prec, ob, text = open(sys.argv[2]).read(), *sys.argv[3:]
cub = [r for r in rows if r["variant"] == "cublas"]
obl = [r for r in rows if r["variant"] == "openblas"]
assert cub and obl, rows
for r in rows:
    assert r["precision"] == prec, r
for r in obl:
    assert r["status"] == ob, r
if ob == "skipped":
    assert "peer openblas skipped: it has no GEMM" in err, err
assert "peer cublas skipped: it has no GEMM" not in err, err
for r in cub:
    assert r["status"] == expect, r
    if expect == "ok":
        assert float(r["kernel_ms"]) > 0 and text in r["device"], r
        assert float(r["max_rel_err"]) > 0, r
    else:
        assert err.count("peer cublas skipped: ") == 1, err
PY
}

for layout in row col; do
    common="--layout $layout --transa t -m 33 -n 65 -k 47 --beta 0.5 --alpha -1.5 --verify
            --repeat 2 --warmup 0 --peers cublas,openblas --variant naive --csv -"
    # shellcheck disable=SC2086
    expect_ok gemm --precision half $common
    check half half skipped "FP16 tensor cores, FP32 accumulation"
    # shellcheck disable=SC2086
    expect_ok gemm --precision bfloat16 $common
    check bfloat16 bfloat16 skipped "BF16 tensor cores, FP32 accumulation"
    # shellcheck disable=SC2086
    expect_ok gemm --math tf32 --transb t ${common/naive/auto}
    check tf32 tf32 skipped "TF32 tensor cores"
    # shellcheck disable=SC2086
    expect_ok gemm --math 3xtf32 ${common/naive/auto}
    check 3xtf32 3xtf32 ok "plain FP32 (no TF32)"
done

"$TESSEL" gemm --help | grep -q "cublasGemmEx" || fail "--help says how cublas computes half"

done_ok
