# gemm_half.sh: `tessel gemm --precision half` (binary16 storage, float arithmetic) as a user
# runs it: every variant with half storage verifies against the double reference of the
# half-rounded inputs on ragged shapes, in both layouts, with transposes, alpha and beta; tiled2d
# runs half storage in its tensor-core configurations only (bare tiled2d: the built-in MMA=4 one,
# emulated here), a configuration without MMA=4 is an error (exit 3, one line naming half) when
# asked for by name; peers are skipped rows; the CSV says `half`; the error
# is a half-sized one (a tolerance below half's rounding fails the check, exit 1); --devices is a
# usage error; --variant list still lists every variant, with a note. The kernels are those the
# library suite builds (lib_gemm_*), so the shared cache makes this cheap.
. "$(dirname "$0")/lib.sh"
need_python

# check_half EXPECT_SKIPPED: every row of the CSV on stdout is half; ok rows verified and
# measured, skipped rows exactly the names given (comma list, may be empty).
check_half() {
    "$PY" - "$OUT" "$1" <<'PY' || fail "tessel gemm --precision half: rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
skipped = set(filter(None, sys.argv[2].split(",")))
assert rows
for r in rows:
    assert r["precision"] == "half", r
    if r["variant"] in skipped:
        assert r["status"] == "skipped", r
        continue
    assert r["status"] == "ok", r
    assert float(r["kernel_ms"]) > 0 and float(r["gflops"]) > 0, r
    # the rounding of C to half: about 2e-4, and below 2^-11 + 1e-5 sqrt(k/64)
    assert 1e-6 < float(r["max_rel_err"]) < 6e-4, r
assert skipped <= {r["variant"] for r in rows}, (skipped, rows)
PY
}

# every variant, ragged sizes (non-tile multiples), row-major NN
expect_ok gemm --precision half --variant all -m 33 -n 65 -k 17 --verify --repeat 1 --warmup 0 \
    --csv -
check_half ""
expect_clean_stderr

# both layouts, transposes, alpha and beta (C read), through auto and one of each kernel
for layout in row col; do
    for tr in "n n" "t n" "n t" "t t"; do
        set -- $tr
        expect_ok gemm --precision half --variant auto --layout "$layout" --transa "$1" \
            --transb "$2" -m 257 -n 31 -k 65 --alpha -1.5 --beta 0.5 --verify --repeat 1 \
            --warmup 0 --csv -
        check_half ""
    done
done
for v in naive tiled_8x8 regblock_2; do
    expect_ok gemm --precision half --variant $v --layout col --transa t -m 1 -n 65 -k 33 \
        --beta 0.25 --verify --repeat 1 --warmup 0 --csv -
    check_half ""
done
expect_ok gemm --precision half --sizes 1,2,31 --verify --repeat 1 --warmup 0 --csv -
check_half ""
# the table names what auto runs with half storage: a ladder variant, never tiled2d
expect_ok gemm --precision half --size 8 --repeat 1 --warmup 0
grep -q "^auto=[a-z]" "$OUT" || fail "the table names the variant auto runs"
if grep -q "^auto=tiled2d" "$OUT"; then fail "auto with half storage runs tiled2d"; fi

# peers have no half storage: skipped rows, a note, exit 0
expect_ok gemm --precision half --variant naive --size 17 --peers openblas,clblast --verify \
    --repeat 1 --csv -
check_half openblas,clblast
grep -q "^tessel: note: peer openblas skipped: .*half" "$ERR" || fail "peers: a note says why"

# the error really is half's: a tolerance below it fails (exit 1, verify_failed)
run gemm --precision half --variant naive --size 40 --verify --tolerance 1e-6 --repeat 1 --csv -
[ "$RC" -eq 1 ] || fail "--tolerance 1e-6 with half storage: exit $RC, expected 1"
grep -q ",verify_failed$" "$OUT" || fail "--tolerance 1e-6 with half storage: verify_failed row"

# a configuration without half storage by name: one error line naming half, exit 3
expect_error 3 "half" gemm --precision half --variant tiled2d:MWG=64,NWG=64,MMA=0 --size 16
# half is one device's: not with --devices
expect_error 2 "--precision half" gemm --precision half --devices all --variant naive --size 16

# --variant list: the build's variants, with a note about half storage
expect_ok gemm --variant list --precision half
grep -qx tiled2d "$OUT" && grep -qx naive "$OUT" || fail "--variant list lists every variant"
grep -q "^tessel: note: .*half" "$ERR" || fail "--variant list --precision half: a note"

# help
expect_ok gemm --help
grep -qF "half" "$OUT" || fail "gemm --help mentions half"

done_ok
