# bad_input.sh: every bad input of the CLI gets exactly one `tessel: error: ` line on stderr,
# nothing on stdout, and the exit code of docs/design.md ("Exit codes"): 2 for usage errors
# (options, numbers, sizes, variants, peers, output paths), 3 for runtime ones (no matching device,
# no fp64); never a crash.
. "$(dirname "$0")/lib.sh"
need_python

# unknown option, missing value, stray argument
expect_error 2 "--bogus" gemm --bogus
expect_error 2 "--bogus" devices --bogus
expect_error 2 "needs a value" gemm --size
expect_error 2 "needs a value" gemm --device
expect_error 2 "needs a value" gemm --csv --verify
expect_error 2 "unexpected argument 'extra'" gemm extra
expect_error 2 "takes no value" gemm --verify=yes

# numbers: non-numeric, negative, zero, signs, suffixes, overflow of the number itself
for bad in abc -5 0 +5 12x 1e3 " 7" "" 0x10 99999999999999999999999; do
    expect_error 2 "--size" gemm --size "$bad"
done
expect_error 2 "-m" gemm -m -1
expect_error 2 "-k" gemm -k 1.5
expect_error 2 "--sizes" gemm --sizes 64,,128
expect_error 2 "--sizes" gemm --sizes 64,-1
expect_error 2 "--repeat" gemm --repeat 0
expect_error 2 "--warmup" gemm --warmup -1
expect_error 2 "--beta" gemm --beta nan
expect_error 2 "--alpha" gemm --alpha one

# byte counts that overflow size_t (64-bit): 2^32 x 2^32 floats
expect_error 2 "size_t" gemm --size 4294967296
expect_error 2 "size_t" gemm -m 18446744073709551615 -n 1 -k 2

# a matrix larger than the device's largest buffer, without overflowing anything: 2^20 x 2^20
# floats (4 TiB). PoCL derives max_alloc from the free memory of the moment, so the test uses a
# size no device holds rather than one just above the limit it read earlier.
expect_error 2 "max_alloc " gemm --device 0:0 --size 1048576
grep -qF "needs 4398046511104 bytes" "$ERR" || fail "the message should name the bytes needed"
expect_error 2 "max_alloc " gemm --device 0:0 --precision double -m 1 -n 1 -k 1099511627776

# names: variant, peer, precision, layout, transposes
expect_error 2 "unknown variant 'nosuch'" gemm --variant nosuch
"$TESSEL" gemm --variant list >"$WORK/variants" || fail "--variant list failed"
while read -r v; do
    grep -qF "$v" "$ERR" || fail "the unknown-variant message should list '$v'"
done <"$WORK/variants"
expect_error 2 "unknown peer 'cublasx'" gemm --peers openblas,cublasx
grep -qF clblast "$ERR" && grep -qF openblas "$ERR" ||
    fail "the unknown-peer message lists the peers"
expect_error 2 "--peers" gemm --peers clblast,
expect_error 2 "single, double, half, bfloat16, complex or doublecomplex" gemm --precision quarter
expect_error 2 "single or double" transpose --precision half
grep -qF "gemm" "$ERR" || fail "--precision half elsewhere says that gemm has it"
expect_error 2 "row or col" gemm --layout diagonal
expect_error 2 "n or t" gemm --transa x
expect_error 2 "not both" gemm --size 8 --sizes 8,16

# outputs
expect_error 2 "/nonexistent-dir/out.csv" gemm --size 8 --csv /nonexistent-dir/out.csv
expect_error 2 "stdout" gemm --size 8 --csv - --json -
expect_error 2 "$WORK" gemm --size 8 --json "$WORK"

# devices: a spec that matches nothing lists the devices, from --device and from TESSEL_DEVICE
expect_error 3 "0:0 " gemm --size 8 --device no-such-device-anywhere
grep -qF "no-such-device-anywhere" "$ERR" || fail "the message should repeat the device spec"
expect_error 3 "0:0 " gemm --size 8 --device 99:99
TESSEL_DEVICE=no-such-device-anywhere expect_error 3 "TESSEL_DEVICE" gemm --size 8

# double precision on a device without fp64, when this machine has one
NOFP64=$("$TESSEL" devices --json | "$PY" -c '
import json, sys
d = [x["index"] for x in json.load(sys.stdin)["devices"] if not x["fp64"]]
print(d[0] if d else "")')
if [ -n "$NOFP64" ]; then
    expect_error 3 "double precision" gemm --device "$NOFP64" --precision double --size 8
else
    echo "note: every device has fp64; the no-fp64 case is not exercised here"
fi

# a failed run leaves no file behind, not even a temporary one
mkdir "$WORK/outdir"
expect_error 3 "0:0 " gemm --size 8 --device no-such-device-anywhere --csv "$WORK/outdir/r.csv"
[ -z "$(ls -A "$WORK/outdir")" ] || fail "an aborted run left files in the output folder"

done_ok
