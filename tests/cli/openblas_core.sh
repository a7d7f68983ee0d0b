# openblas_core.sh: the command runs OpenBLAS with the kernels this CPU supports. Where OpenBLAS
# fell back to a generic core (Prescott on the GPU machine's CPU), a command that times OpenBLAS
# re-executes itself once with OPENBLAS_CORETYPE set and says so in one note (beside its openblas
# row; a command that fails its checks prints only its error line); a user's
# OPENBLAS_CORETYPE is kept; other commands are left alone; the openblas row names the core, the
# threads and who chose the core. This machine's OpenBLAS detects its CPU, so the generic core
# and the flags are faked (TESSEL_TEST_OPENBLAS_CORE, TESSEL_TEST_CPUINFO): the re-executed
# process's OpenBLAS then really runs the chosen core, which the row shows.
. "$(dirname "$0")/lib.sh"
need_python
unset OPENBLAS_CORETYPE TESSEL_OPENBLAS_DETECTED

"$TESSEL" devices --json | "$PY" -c 'import json, sys
sys.exit(0 if "DYNAMIC_ARCH" in json.load(sys.stdin)["openblas"]["config"] else 77)' || {
    echo "SKIP: this OpenBLAS has no DYNAMIC_ARCH: OPENBLAS_CORETYPE chooses nothing" >&2
    exit 77
}

# A CPU with AVX2 and FMA, no AVX-512 (so the chosen core differs from this machine's own).
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: %s\n\n' \
    "fpu sse sse2 ssse3 sse4_1 sse4_2 avx fma avx2" > "$WORK/cpuinfo"
export TESSEL_TEST_CPUINFO="$WORK/cpuinfo"
NOTE="tessel: note: OpenBLAS detected Prescott on this CPU; using OPENBLAS_CORETYPE=Haswell"
NOTE="$NOTE (set OPENBLAS_CORETYPE to override)"

# device TEXT: the openblas row of the CSV on stdout has exactly this device text pattern (grep -E)
openblas_device() {
    "$PY" - "$OUT" "$1" <<'PY' || fail "openblas row: device should match '$1'"
import csv, re, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["variant"] == "openblas"]
assert len(rows) == 1, rows
d = rows[0]["device"]
assert "," not in d, d
assert re.fullmatch(sys.argv[2], d), d
PY
}
CORE='host CPU: OpenBLAS [0-9.]+ '
BY_TESSEL='OPENBLAS_CORETYPE=Haswell set by tessel; detected '

# The generic core: one note, one re-execution, and the row runs Haswell.
for peers in "--peers openblas" "--peers=clblast,openblas"; do
    TESSEL_TEST_OPENBLAS_CORE=Prescott expect_ok gemm --size 24 $peers --repeat 1 --verify --csv -
    [ "$(grep -c 'tessel: note: OpenBLAS detected' "$ERR")" = 1 ] ||
        fail "$peers: one note expected"
    grep -qxF "$NOTE" "$ERR" || fail "$peers: the note should read: $NOTE"
    openblas_device "${CORE}Haswell [0-9]+ threads \(.*DYNAMIC_ARCH.*; ${BY_TESSEL}Prescott\)"
done
for cmd in "blas1 --op dot --size 1000" "gemv -m 40 -n 30" "transpose --size 40" \
    "blas3 --op syrk --size 40"; do
    TESSEL_TEST_OPENBLAS_CORE=Core2 expect_ok $cmd --peers openblas --repeat 1 --csv -
    grep -qF "OpenBLAS detected Core2 on this CPU; using OPENBLAS_CORETYPE=Haswell" "$ERR" ||
        fail "$cmd: note expected"
    openblas_device "${CORE}Haswell .*; ${BY_TESSEL}Core2\)"
done

# A command line that fails its checks after the re-execution prints its one error line only.
TESSEL_TEST_OPENBLAS_CORE=Prescott expect_error 2 "unknown peer 'cublasx'" \
    gemm --peers openblas,cublasx

# The user's OPENBLAS_CORETYPE is kept: no note, the row names it (not as tessel's choice). The
# core is one every x86-64 CPU with AVX runs (Sandybridge), so the kept value really runs here.
TESSEL_TEST_OPENBLAS_CORE=Prescott OPENBLAS_CORETYPE=Sandybridge \
    expect_ok gemm --size 24 --peers openblas --repeat 1 --csv -
grep -q 'OpenBLAS detected' "$ERR" && fail "a user's OPENBLAS_CORETYPE must be kept"
openblas_device "${CORE}Sandybridge [0-9]+ threads \(.*; OPENBLAS_CORETYPE=Sandybridge\)"

# The marker of a re-executed process stops a second re-execution, whatever else is set.
TESSEL_TEST_OPENBLAS_CORE=Prescott TESSEL_OPENBLAS_DETECTED=Prescott \
    expect_ok gemm --size 24 --peers openblas --repeat 1 --csv -
grep -q 'OpenBLAS detected' "$ERR" && fail "no re-execution under the marker"

# Commands that do not time OpenBLAS, help, and CPUs without better kernels: left alone.
for args in "gemm --size 24 --repeat 1 --csv -" "gemm --peers openblas --help" "devices" \
            "blas1 --op dot --size 1000 --repeat 1 --peers clblast --csv -" "study --list"; do
    TESSEL_TEST_OPENBLAS_CORE=Prescott expect_ok $args
    grep -q 'OpenBLAS detected' "$ERR" && fail "tessel $args: no re-execution expected"
done
printf 'flags\t\t: fpu sse sse2 ssse3 sse4_1 sse4_2\n' > "$WORK/cpuinfo-sse"
TESSEL_TEST_CPUINFO="$WORK/cpuinfo-sse" TESSEL_TEST_OPENBLAS_CORE=Prescott \
    expect_ok gemm --size 24 --peers openblas --repeat 1 --csv -
grep -q 'OpenBLAS detected' "$ERR" && fail "no better core for SSE-only flags"
openblas_device "${CORE}[A-Za-z0-9_]+ [0-9]+ threads \([^;]*\)"

# `tessel devices` records the OpenBLAS and the core the timing commands will choose.
TESSEL_TEST_OPENBLAS_CORE=Prescott expect_ok devices
grep -qE "^openblas peer: ${CORE}" "$OUT" || fail "devices: the openblas line"
grep -qF "OPENBLAS_CORETYPE=Haswell" "$OUT" || fail "devices: the planned core"
TESSEL_TEST_OPENBLAS_CORE=Prescott expect_ok devices --json
"$PY" - "$OUT" <<'PY' || fail "devices --json: openblas object"
import json, sys
o = json.load(open(sys.argv[1]))["openblas"]
assert o["planned_coretype"] == "Haswell" and o["coretype"] is None, o
assert o["threads"] >= 1 and o["config"].startswith("OpenBLAS") and o["core"], o
PY
done_ok
