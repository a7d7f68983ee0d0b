# help.sh: --help and --version of the command and its subcommands exit 0 and say what a user
# needs; a missing, unknown or planned-but-absent command is a usage error; --variant list prints
# the variant names, one per line.
. "$(dirname "$0")/lib.sh"

expect_ok --version
[ "$(cat "$OUT")" = "tessel 0.1.0" ] || fail "--version should print exactly 'tessel 0.1.0'"

expect_ok --help
for word in devices gemm --device "Exit codes" TESSEL_DEVICE; do
    grep -qF -- "$word" "$OUT" || fail "tessel --help should mention '$word'"
done
[ ! -s "$ERR" ] || fail "--help writes nothing on stderr"

expect_ok gemm --help
for word in --variant --precision --size --sizes -m --repeat --warmup --verify --csv --json \
    --quiet --peers --device "Exit codes" naive clblast openblas "$CSV_HEADER"; do
    grep -qF -- "$word" "$OUT" || fail "tessel gemm --help should mention '$word'"
done
expect_ok gemm --size 12 --help
expect_ok devices --help
grep -qF -- --json "$OUT" || fail "tessel devices --help should mention --json"

expect_error 2 "no command" 
expect_error 2 "unknown command 'frobnicate'" frobnicate
expect_error 2 "which operation" tune
expect_ok study --list
grep -q "^memory-hierarchy " "$OUT" || fail "tessel study --list should list the studies"
expect_error 2 "--bogus" --bogus

expect_ok gemm --variant list
[ -s "$OUT" ] || fail "--variant list printed nothing"
grep -qx naive "$OUT" || fail "--variant list should list naive"
grep -qx tiled2d "$OUT" || fail "--variant list should list tiled2d"
if grep -qvE '^[a-z0-9_]+$' "$OUT"; then fail "--variant list prints one name per line"; fi
[ ! -s "$ERR" ] || fail "--variant list writes nothing on stderr"

done_ok
