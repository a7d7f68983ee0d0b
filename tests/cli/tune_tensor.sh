# tune_tensor.sh: `tessel tune gemm` for GEMM's tensor-core kinds (docs/tuning.md). --precision half
# and bfloat16 and --math tf32 and 3xtf32 are accepted; on PoCL (--device portable: no tensor-core
# instruction, its configurations would run emulated, never fast) the run says so in one `tessel:
# error: ` line with exit 3 (a condition of the device, as double on a device without it), before
# making any data, and writes nothing; `tessel tune --show` prints what auto runs for those kinds
# there; bad combinations are usage errors (exit 2); --help names the options.
. "$(dirname "$0")/lib.sh"
export TESSEL_TUNING_DIR="$WORK/tuning"
DEV="--device portable"

expect_ok tune --help
grep -q -- "--math M" "$OUT" || fail "--help shows --math"
grep -q "bfloat16" "$OUT" || fail "--help names bfloat16"
grep -q "tensor-core" "$OUT" || fail "--help says the tensor-core kinds are searched"

# ---- a device without the instruction: nothing to tune, one line, exit 3 ----------------------
expect_error 3 "no 16-bit tensor-core instruction" tune gemm $DEV --precision half --shapes 64
grep -qF "nothing to tune" "$ERR" || fail "half: says there is nothing to tune"
grep -qF "tune gemm half:" "$ERR" || fail "half: names the kind"
expect_error 3 "no 16-bit tensor-core instruction" tune gemm $DEV --precision bfloat16 --sizes 64
grep -qF "tune gemm bfloat16:" "$ERR" || fail "bfloat16: names the kind"
expect_error 3 "no TF32 tensor-core instruction" tune gemm $DEV --math tf32 --shapes 64
grep -qF "tune gemm tf32:" "$ERR" || fail "tf32: names the kind"
expect_error 3 "no TF32 tensor-core instruction" tune gemm $DEV --precision single --math 3xtf32 \
    --shapes 64 --csv "$WORK/x.csv"
grep -qF "tune gemm 3xtf32:" "$ERR" || fail "3xtf32: names the kind"
[ -z "$(ls "$TESSEL_TUNING_DIR" 2>/dev/null)" ] || fail "a refused kind writes no database"

# ---- --show for the kinds: what auto runs, by kind -------------------------------------------------
expect_ok tune --show $DEV --precision half --shapes 64
expect_clean_stderr
grep -Eq "^gemm +half +small +64x64x64 " "$OUT" || fail "--show --precision half: a half row"
expect_ok tune --show $DEV --math 3xtf32 --shapes 64
grep -Eq "^gemm +3xtf32 +small +64x64x64 +tiled2d" "$OUT" ||
    fail "--show --math 3xtf32: auto runs tiled2d (its tensor-core configuration)"
grep -q "single" "$OUT" && fail "--show --math 3xtf32 shows only 3xtf32 rows"
# FP32 math: single and double, as before
expect_ok tune --show $DEV --math fp32 --shapes 64
grep -Eq "^gemm +single " "$OUT" || fail "--math fp32: single rows"

# ---- bad input: usage errors ------------------------------------------------------------------------
expect_error 2 "--precision expects single, double, half or bfloat16" tune gemm --precision quad
expect_error 2 "--math expects fp32, tf32 or 3xtf32" tune gemm --math tf64
expect_error 2 "mode of single precision" tune gemm --precision double --math tf32
expect_error 2 "mode of single precision" tune gemm --precision half --math 3xtf32
done_ok
