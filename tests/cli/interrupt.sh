# interrupt.sh: an interrupted tessel leaves no temporary files. Every command that writes a file
# writes it under a temporary name and renames it into place when complete; a SIGINT (Ctrl-C) or
# SIGTERM in between must remove the temporaries and end the process as the signal does (exit status
# 130 for SIGINT, 143 for SIGTERM, as a shell reports it). Each case starts a long command in the
# background, waits until its temporary files exist (so the signal lands while they are live), sends
# the signal and checks the exit status and that no temporary is left: in the output folder
# (dot-files), in the study's private folder under $TMPDIR, and in the tuning folder. Cases: a study
# (its CSV and markdown, the running subcommand's CSV inside the private folder, that folder
# itself), gemm with --csv and --json files and a new kernel cache (SIGTERM), tune with --csv and
# its own tuning folder (SIGINT), and a study while gnuplot draws (SIGINT: gnuplot is stopped and
# its temporary PNG removed).
. "$(dirname "$0")/lib.sh"

# Job control: background commands of a script without it start with SIGINT ignored (POSIX), and
# tessel keeps a signal ignored that it inherited ignored, as well-behaved programs do.
set -m

# wait_for PID GLOB...: waits (up to 120 s) until every glob matches a file while PID runs.
wait_for() {
    local pid="$1"
    shift
    local i g all
    for i in $(seq 1 1200); do
        kill -0 "$pid" 2>/dev/null || fail "the command ended before its temporaries were seen ($*)"
        all=1
        for g in "$@"; do
            compgen -G "$g" >/dev/null || all=0
        done
        [ "$all" = 1 ] && return 0
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null
    fail "no temporaries matching $* within 120 s"
}

# interrupt PID SIGNAL STATUS: sends SIGNAL and waits; the exit status must be STATUS.
interrupt() {
    local pid="$1" sig="$2" want="$3" rc=0
    kill -"$sig" "$pid"
    wait "$pid" || rc=$?
    CHECKS=$((CHECKS + 1))
    [ "$rc" -eq "$want" ] || fail "after SIG$sig: exit status $rc, expected $want"
}

# no_leftovers DIR...: DIR holds no hidden file (no temporary).
no_leftovers() {
    local d
    for d in "$@"; do
        if [ -n "$(find "$d" -mindepth 1 -name '.*' 2>/dev/null)" ]; then
            ls -la "$d" >&2
            fail "temporary files left in $d: $(find "$d" -mindepth 1 -name '.*' | tr '\n' ' ')"
        fi
    done
}

# 1. A study: SIGINT while a subcommand runs.
mkdir -p "$WORK/tmp" "$WORK/study"
TMPDIR="$WORK/tmp" "$TESSEL" study gemm-ladder --smoke --set SIZES=64,128,192,256,320 \
    --out "$WORK/study" >"$OUT" 2>"$ERR" &
pid=$!
wait_for "$pid" "$WORK/study/.gemm-ladder.csv.*" "$WORK/study/.gemm-ladder.md.*" \
    "$WORK/tmp/tessel-study.*/.run-*.csv.*"
interrupt "$pid" INT 130
no_leftovers "$WORK/study"
[ -z "$(ls -A "$WORK/tmp")" ] || fail "the study's private folder is left: $(ls -A "$WORK/tmp")"
[ ! -e "$WORK/study/gemm-ladder.csv" ] || fail "an interrupted study wrote its CSV"

# 2. gemm with CSV and JSON files and an empty kernel cache, SIGTERM once the cache has an entry
# (so the command is in the part of its run that writes the cache).
mkdir -p "$WORK/gemm" "$WORK/kcache"
TESSEL_CACHE_DIR="$WORK/kcache" "$TESSEL" gemm --sizes 64,96,128,160,192,224,256,288,320 \
    --variant all --precision double --repeat 3 --csv "$WORK/gemm/out.csv" \
    --json "$WORK/gemm/out.json" >"$OUT" 2>"$ERR" &
pid=$!
wait_for "$pid" "$WORK/gemm/.out.csv.*" "$WORK/gemm/.out.json.*" "$WORK/kcache/*.bin"
interrupt "$pid" TERM 143
no_leftovers "$WORK/gemm"
[ -z "$(ls -A "$WORK/gemm")" ] || fail "an interrupted gemm left files: $(ls -A "$WORK/gemm")"
[ -z "$(find "$WORK/kcache" -name '*.bin.*')" ] ||
    fail "kernel cache temporaries left: $(find "$WORK/kcache" -name '*.bin.*')"

# 3. tune with a CSV file and its own tuning folder: SIGINT.
mkdir -p "$WORK/tune" "$WORK/tuning"
TESSEL_TUNING_DIR="$WORK/tuning" "$TESSEL" tune gemm --precision single --sizes 96 \
    --budget-s 120 --repeat 2 --warmup 0 --csv "$WORK/tune/tune.csv" >"$OUT" 2>"$ERR" &
pid=$!
wait_for "$pid" "$WORK/tune/.tune.csv.*"
interrupt "$pid" INT 130
no_leftovers "$WORK/tune" "$WORK/tuning"
[ -z "$(ls -A "$WORK/tune")" ] || fail "an interrupted tune left files: $(ls -A "$WORK/tune")"

# 4. A study interrupted while gnuplot draws a figure: a stand-in gnuplot on PATH writes the
# temporary PNG it is given and waits; the command must stop it and remove that file too.
mkdir -p "$WORK/bin" "$WORK/draw" "$WORK/tmp"
cat >"$WORK/bin/gnuplot" <<'EOF_GP'
#!/bin/sh
# stand-in for gnuplot: -e "outfile='NAME'" SCRIPT, run in the output folder
echo $$ >"$GP_PID_FILE"
out=$(printf '%s' "$2" | sed "s/^outfile='\(.*\)'$/\1/")
printf 'not a png yet' >"$out"
exec sleep 60
EOF_GP
chmod +x "$WORK/bin/gnuplot"
GP_PID_FILE="$WORK/gp.pid" PATH="$WORK/bin:$PATH" TMPDIR="$WORK/tmp" "$TESSEL" study \
    memory-hierarchy --smoke --out "$WORK/draw" >"$OUT" 2>"$ERR" &
pid=$!
wait_for "$pid" "$WORK/draw/.memory-hierarchy-*.png.*.tmp" "$WORK/gp.pid"
interrupt "$pid" INT 130
no_leftovers "$WORK/draw"
[ -z "$(ls -A "$WORK/tmp")" ] || fail "the study's private folder is left: $(ls -A "$WORK/tmp")"
! kill -0 "$(cat "$WORK/gp.pid")" 2>/dev/null || fail "gnuplot still runs after the interrupt"

done_ok
