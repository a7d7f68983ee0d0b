# lib.sh: helpers sourced by the CLI test scripts. `run ARGS...` runs the tessel command given as $1
# of the script, keeping exit code, stdout and stderr; the expect_* functions check the contracts of
# docs/design.md (exit codes, one `tessel: error: ` line, nothing on stdout for errors).
set -u
TESSEL="$1"
PY="${TSL_PYTHON3:-python3}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/tessel-cli-test.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
OUT="$WORK/stdout"
ERR="$WORK/stderr"
RC=0
CHECKS=0

fail() {
    echo "FAIL: $*" >&2
    echo "--- stdout:" >&2
    head -c 4000 "$OUT" >&2 2>/dev/null
    echo "--- stderr:" >&2
    head -c 4000 "$ERR" >&2 2>/dev/null
    exit 1
}

need_python() {
    "$PY" -c 'import json, csv' 2>/dev/null || { echo "SKIP: no python3" >&2; exit 77; }
}

run() {
    RC=0
    "$TESSEL" "$@" >"$OUT" 2>"$ERR" || RC=$?
    CHECKS=$((CHECKS + 1))
    if [ "$RC" -ge 124 ]; then fail "tessel $* died with exit code $RC (signal or crash)"; fi
}

# expect_error CODE TEXT ARGS...: exit code CODE, empty stdout, stderr exactly one line that
# starts with "tessel: error: " and contains TEXT (a fixed string).
expect_error() {
    local code="$1" text="$2"
    shift 2
    run "$@"
    [ "$RC" -eq "$code" ] || fail "tessel $*: exit code $RC, expected $code"
    [ ! -s "$OUT" ] || fail "tessel $*: stdout should be empty on an error"
    [ "$(wc -l <"$ERR")" -eq 1 ] || fail "tessel $*: stderr should be exactly one line"
    [ "$(head -c 15 "$ERR")" = "tessel: error: " ] ||
        fail "tessel $*: stderr must start 'tessel: error: '"
    grep -qF -- "$text" "$ERR" || fail "tessel $*: message should mention '$text'"
}

expect_ok() {
    run "$@"
    [ "$RC" -eq 0 ] || fail "tessel $*: exit code $RC, expected 0"
}

# Every stderr line is a tessel message (no stray output from libraries). The one exception is
# the count PoCL's clang prints while it compiles a program ("5 warnings generated."), which a
# cold kernel cache shows in whichever test compiles a program first; the warnings themselves are
# in the build log.
expect_clean_stderr() {
    if grep -v '^[0-9]* warnings\? generated\.$' "$ERR" | grep -qv '^tessel: '; then
        fail "stderr has lines that are not tessel messages"
    fi
}

done_ok() {
    echo "ok: $CHECKS runs checked"
    exit 0
}

CSV_HEADER='op,variant,precision,m,n,k,device,local,repeat,kernel_ms,gflops,gbps,build_ms,'
CSV_HEADER="${CSV_HEADER}upload_ms,download_ms,max_rel_err,status"
