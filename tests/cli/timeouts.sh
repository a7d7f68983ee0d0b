# timeouts.sh: commands whose devices time out (registered by tests/multi.cmake). With
# TESSEL_TIMEOUT=0.000001 every wait of a group call times out at once, while the workers it
# started are still building or running kernels: `tessel poisson --devices 0:0` and `tessel gemm
# --devices all` (the issue's two commands), and the same on two PoCL devices with and without
# the GEMM pipeline's staging, must exit 3 within seconds with the error as the last stderr line,
# every stderr line a tessel message: no AddressSanitizer report (a worker using the group after
# tsl_group_destroy freed it) and no LeakSanitizer report (the group's contexts left behind), so
# leak detection is turned back on here.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp:print_suppressions=0"

# expect_timeout ARGS...: exit 3 within 60 s, the last line the timeout error, a clean stderr.
expect_timeout() {
    local t0 t1
    t0=$(date +%s)
    TESSEL_TIMEOUT=0.000001 run "$@"
    t1=$(date +%s)
    [ "$RC" -eq 3 ] || fail "tessel $*: exit code $RC, expected 3"
    tail -n 1 "$ERR" | grep -q "^tessel: error: .*timed out" ||
        fail "tessel $*: the last stderr line should be the timeout error"
    expect_clean_stderr
    [ $((t1 - t0)) -lt 60 ] || fail "tessel $*: took $((t1 - t0)) s"
}

POISSON="poisson --grid 9 --iters 4 --repeat 1 --warmup 0"
GEMM="gemm --size 8 --repeat 1 --warmup 0"
# The kernels built once without a timeout (the shared cache then has them), as a user's
# earlier runs would have; a cold build only makes the workers slower to come back.
expect_ok $POISSON --devices 0:0
expect_ok $GEMM --devices all
expect_timeout $POISSON --devices 0:0
expect_timeout $GEMM --devices all

export POCL_DEVICES="pthread pthread"
expect_ok poisson --grid 65 --iters 20 --repeat 1 --warmup 0 --devices all
expect_ok gemm --size 200 --repeat 1 --warmup 0 --devices all
expect_timeout poisson --grid 65 --iters 20 --repeat 1 --warmup 0 --devices all
for staging in 0 1; do
    export TESSEL_GROUP_STAGING=$staging TESSEL_GROUP_CHUNK_ROWS=16
    expect_timeout gemm --size 200 --repeat 1 --warmup 0 --devices all
    expect_timeout gemm --size 200 --repeat 1 --warmup 0 --devices all --weights 1,1
done
done_ok
