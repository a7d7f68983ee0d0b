# gemm_verify_fail.sh: a failed --verify check is exit code 1 with every row still printed and
# marked verify_failed. --tolerance 0 forces it: a float GEMM never matches the double reference
# exactly on random data.
. "$(dirname "$0")/lib.sh"
need_python

run gemm --variant naive --size 24 --verify --tolerance 0 --peers openblas --repeat 1 --csv -
[ "$RC" -eq 1 ] || fail "a failed verification exits 1, got $RC"
expect_clean_stderr
[ "$(head -1 "$OUT")" = "$CSV_HEADER" ] || fail "the header comes first"
ROWS="$(tail -n +2 "$OUT" | cut -d, -f2,17 | tr '\n' ' ')"
[ "$ROWS" = "naive,verify_failed openblas,verify_failed " ] ||
    fail "both rows are printed and marked verify_failed"

# the same run with the default threshold passes
expect_ok gemm --variant naive --size 24 --verify --peers openblas --repeat 1 --csv -

done_ok
