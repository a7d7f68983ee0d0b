#!/bin/bash
# oclgrind_run.sh: runs one command with Oclgrind's simulated OpenCL device as the only device and
# fails on anything Oclgrind reports inside the kernels (out-of-bounds and uninitialized accesses,
# data races in local and global memory, barrier divergence, API misuse), which AddressSanitizer
# cannot see. Used by tests/oclgrind.cmake:
#
#   oclgrind_run.sh [--uninitialized] [--expect K1,K2,...] [--exit N] [--tuning ENTRY]
#                   [--expect-build TEXT] -- COMMAND ARGS...
#
# The device comes through Oclgrind's ICD in a private vendors directory (OCL_ICD_VENDORS), so the
# program sees the simulator alone and needs no LD_PRELOAD (which the sanitizer build's ASan
# runtime would have to precede). Kernels are built into a private, empty TESSEL_CACHE_DIR: the
# simulator compiles each program itself with this run's build options, never reusing a binary
# built by another device or another mode. --expect names kernels the command must launch
# (TESSEL_TRACE=2 prints each launch with its kernel's name), so a test that stops reaching its
# code path fails instead of passing unchecked; --exit N expects the command to exit N (a refusal)
# instead of 0. --tuning puts one entry ("gemm double any tiled2d:...") in the simulator's user
# tuning database, so that the routines built on GEMM (Level-3) run that configuration;
# --expect-build TEXT must appear in the build options of a program the command compiled (the
# entry was taken). Exit 0 clean, 1 a report, a failed command or a kernel not launched, 77
# (ctest's skip) when Oclgrind is not installed.
set -u

uninit=0
expect=""
want=0
tuning=""
build_text=""
while [ $# -gt 0 ]; do
    case "$1" in
    --uninitialized) uninit=1 ;;
    --expect) expect="$2"; shift ;;
    --exit) want="$2"; shift ;;
    --tuning) tuning="$2"; shift ;;
    --expect-build) build_text="$2"; shift ;;
    --) shift; break ;;
    *) echo "oclgrind_run.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
    shift
done
[ $# -gt 0 ] || { echo "oclgrind_run.sh: no command" >&2; exit 2; }

# Oclgrind's ICD library: $OCLGRIND_ICD, else beside the oclgrind command (Debian:
# /usr/bin/oclgrind, /usr/lib/oclgrind/liboclgrind-rt-icd.so).
icd="${OCLGRIND_ICD:-}"
if [ -z "$icd" ] && command -v oclgrind >/dev/null 2>&1; then
    prefix=$(dirname "$(dirname "$(readlink -f "$(command -v oclgrind)")")")
    for d in lib/oclgrind lib lib64 lib/x86_64-linux-gnu; do
        [ -f "$prefix/$d/liboclgrind-rt-icd.so" ] && { icd="$prefix/$d/liboclgrind-rt-icd.so"; break; }
    done
fi
if [ -z "$icd" ] || [ ! -f "$icd" ]; then
    echo "oclgrind is not installed (apt-get install oclgrind): skipped"
    exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/tessel-oclgrind.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/vendors" "$work/cache"
echo "$icd" >"$work/vendors/oclgrind.icd"

export OCL_ICD_VENDORS="$work/vendors"
unset OCL_ICD_FILENAMES TESSEL_TUNING_DIR # no other device, no tuning but this run's
if [ -n "$tuning" ]; then
    # the database file of this device and driver (src/tune/db.c: names lower case, every run of
    # other characters one '_'): oclgrind_simulator@oclgrind_21_10.tuning
    driver=$(oclgrind --version 2>/dev/null | grep -m1 -i '^oclgrind' |
             tr 'A-Z' 'a-z' | sed 's/[^a-z0-9][^a-z0-9]*/_/g; s/^_//; s/_$//')
    mkdir -p "$work/tuning"
    printf 'tessel-tuning 1\ndevice=oclgrind_simulator %s\n' "$tuning" \
        >"$work/tuning/oclgrind_simulator@${driver:-any}.tuning"
    export TESSEL_TUNING_DIR="$work/tuning"
fi
export TESSEL_DEVICE=oclgrind TESSEL_CACHE_DIR="$work/cache" TESSEL_TRACE=2
export OCLGRIND_LOG="$work/report" OCLGRIND_CHECK_API=1 OCLGRIND_DATA_RACES=1
# One simulator thread: ctest runs two tests at once on a 2-core machine. The local memory of
# NVIDIA's OpenCL (48 KiB, Oclgrind's default is 32) lets the GPU entries of the tuning defaults
# and the tensor-core tiles run as they do on the GPUs they were tuned for.
export OCLGRIND_NUM_THREADS="${OCLGRIND_NUM_THREADS:-1}" OCLGRIND_LOCAL_MEM_SIZE=49152
if [ "$uninit" = 1 ]; then
    # Oclgrind 21.10's uninitialized-value plugin stops with "Unsupported instruction: freeze" on
    # the freeze that clang's optimizer puts beside a paired division and remainder; unoptimized
    # code has none, so this mode builds the kernels with -cl-opt-disable.
    export OCLGRIND_UNINITIALIZED=1 OCLGRIND_BUILD_OPTIONS=-cl-opt-disable
fi

"$@" >"$work/out" 2>&1
rc=$?
fail=0
if [ "$rc" != "$want" ]; then
    echo "FAIL: the command exited $rc (expected $want): $*"
    fail=1
fi
if [ -s "$work/report" ]; then
    echo "FAIL: Oclgrind reported (first 200 lines):"
    head -200 "$work/report"
    fail=1
fi
# API errors (OCLGRIND_CHECK_API) go to the program's stderr, not to the log
if grep -q -e '^Oclgrind - ' -e 'OCLGRIND FATAL' "$work/out"; then
    echo "FAIL: Oclgrind reported on the command's stderr:"
    grep -A4 -e '^Oclgrind - ' -e 'OCLGRIND FATAL' "$work/out" | head -100
    fail=1
fi
launched=$(sed -n 's/^tessel: trace: .* (\([A-Za-z0-9_]*\)) [0-9]* x .*/\1/p' "$work/out" | sort -u)
for k in ${expect//,/ }; do
    if ! grep -qx "$k" <<<"$launched"; then
        echo "FAIL: kernel $k was not launched"
        fail=1
    fi
done
if [ -n "$build_text" ] && ! grep '^tessel: trace: .* program .* compiled' "$work/out" |
                            grep -qF -- "$build_text"; then
    echo "FAIL: no program was built with '$build_text'"
    fail=1
fi
# the command's own output, without the trace lines
grep -v '^tessel: trace: ' "$work/out" | tail -40
echo "kernels launched:" $launched
exit "$fail"
