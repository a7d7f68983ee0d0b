# study.sh: `tessel study` as a user runs it. Every study in --smoke mode on the test device: exit
# 0, a CSV with the documented columns (study,sweep,series,x, the CSV columns of docs/design.md, the
# study's own, note) whose rows are this study's and carry numbers where they are ok, PNG files that
# are real PNGs of a non-trivial size, and a markdown file naming the device, the command, every
# figure and the CSV. gnuplot is a dependency (gnuplot-nox, `make deps`): without it on PATH the
# test is skipped (exit 77) rather than passed without looking at a PNG. Then one run with gnuplot
# taken off PATH (CSV and markdown, a note, exit 0), and --replot of that run with gnuplot (real
# PNGs, the md changed only in its figures, to what a run with gnuplot writes; without gnuplot, the
# md or the CSV, exit 3; scripts redrawn from the CSV), --list and --help, and bad input: an unknown
# study or parameter (exit 2), an output folder that cannot be written (exit 3, the path in the
# message), and a study whose command fails midway, which must leave neither a CSV nor a temporary
# file behind.
. "$(dirname "$0")/lib.sh"
need_python

STUDIES="memory-hierarchy gemm-ladder transpose optimizations precision poisson opencl-vs-cuda"
command -v gnuplot >/dev/null 2>&1 || {
    echo "SKIP: no gnuplot on PATH (a dependency: make deps installs gnuplot-nox)" >&2
    exit 77
}
HAVE_GNUPLOT=1 # check_study looks at the PNGs; the run without gnuplot below sets it to 0

# check_study NAME DIR EXTRA_COLUMNS FIGURES: the files of one finished study.
check_study() {
    local name="$1" dir="$2" extra="$3" figures="$4"
    "$PY" - "$dir" "$name" "$extra" "$CSV_HEADER" <<'PYEOF' || fail "study $name: CSV"
import csv, math, sys
d, name, extra, design = sys.argv[1:5]
with open(f"{d}/{name}.csv") as f:
    header = f.readline().strip()
    want = "study,sweep,series,x," + design + ("," + extra if extra else "") + ",note"
    assert header == want, (header, want)
    f.seek(0)
    rows = list(csv.DictReader(f))
assert rows, "no rows"
ok = [r for r in rows if r["status"] == "ok"]
assert ok, "no measured row"
for r in rows:
    assert r["study"] == name and r["sweep"] and r["series"] == r["variant"], r
    assert r["status"] in ("ok", "skipped"), r
    if r["status"] == "skipped":
        assert r["note"], ("a skipped row says why", r)
for r in ok:
    assert float(r["kernel_ms"]) > 0 and math.isfinite(float(r["kernel_ms"])), r
    assert r["device"] and r["op"], r
PYEOF
    [ -s "$dir/$name.md" ] || fail "study $name: no markdown"
    grep -qF "tessel study $name --smoke" "$dir/$name.md" || fail "study $name: md has the command"
    grep -qF "Device: " "$dir/$name.md" || fail "study $name: md names the device"
    grep -qF "driver " "$dir/$name.md" || fail "study $name: md names the driver"
    grep -qF "($name.csv)" "$dir/$name.md" || fail "study $name: md links the CSV"
    grep -qF "### Comparison with" "$dir/$name.md" || fail "study $name: md compares with the claim"
    for fig in $figures; do
        [ -s "$dir/$name-$fig.gp" ] || fail "study $name: no script $name-$fig.gp"
        if [ "$HAVE_GNUPLOT" = 1 ]; then
            local png="$dir/$name-$fig.png"
            [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
                fail "study $name: $png is not a PNG"
            [ "$(wc -c <"$png")" -gt 8000 ] || fail "study $name: $png is too small to hold a plot"
            grep -qF "]($name-$fig.png)" "$dir/$name.md" || fail "study $name: md shows $fig"
            grep -qF "$png" "$OUT" || fail "study $name: stdout lists $png"
        fi
    done
    if ls -A "$dir" | grep -q '^\.'; then fail "study $name: temporary files left in $dir"; fi
}

# ---- every study, --smoke ------------------------------------------------------------------
D="$WORK/out"
extra_of() {
    case "$1" in
    memory-hierarchy) echo "total_ms,reduction_pct,reduction_total_pct,speedup_vs_naive" ;;
    optimizations) echo "speedup,speedup_overall" ;;
    precision) echo "eff_gbps" ;;
    poisson) echo "sweeps_per_s" ;;
    opencl-vs-cuda) echo "cuda_speedup" ;;
    *) echo "" ;;
    esac
}
figures_of() {
    case "$1" in
    memory-hierarchy) echo "time reduction blocks" ;;
    gemm-ladder) echo "gflops" ;;
    transpose) echo "size inner-reps tile" ;;
    optimizations) echo "speedup overall breakdown pi-local pi-global" ;;
    precision) echo "gflops bandwidth" ;;
    poisson) echo "sweeps bandwidth" ;;
    opencl-vs-cuda) echo "time" ;;
    esac
}
# The optimizations study gives every command an empty kernel cache of its own: the user's
# cache (TESSEL_CACHE_DIR) gets no entry, and no cache folder is left behind.
mkdir -p "$WORK/usercache" "$WORK/tmp"
for s in $STUDIES; do
    if [ "$s" = optimizations ]; then
        TESSEL_CACHE_DIR="$WORK/usercache" TMPDIR="$WORK/tmp" expect_ok study "$s" --smoke --out "$D"
    else
        expect_ok study "$s" --smoke --out "$D"
    fi
    expect_clean_stderr
    check_study "$s" "$D" "$(extra_of "$s")" "$(figures_of "$s")"
done
[ -z "$(ls -A "$WORK/usercache")" ] || fail "optimizations: the user's kernel cache was written"
[ -z "$(ls -A "$WORK/tmp")" ] || fail "optimizations: a temporary folder was left in TMPDIR"

# Study-specific content: the speedup baseline, half storage measured, the CUDA rows.
"$PY" - "$D" <<'PYEOF' || fail "study contents"
import csv, sys
d = sys.argv[1]
def rows(name):
    return list(csv.DictReader(open(f"{d}/{name}.csv")))
opt = rows("optimizations")
for sweep, base in (("pi", "sequential"), ("nbody", "sequential"), ("kmeans", "sequential"),
                    ("gemm", "openblas")):
    b = [r for r in opt if r["sweep"] == sweep and r["series"] == base]
    assert len(b) == 1 and float(b[0]["speedup"]) == 1.0, (sweep, b)
    others = [r for r in opt if r["sweep"] == sweep and r["series"] != base]
    assert others and all(float(r["speedup"]) > 0 for r in others), sweep
    for r in others:  # speedup is the baseline's time over the row's
        want = float(b[0]["kernel_ms"]) / float(r["kernel_ms"])
        assert abs(float(r["speedup"]) / want - 1) < 1e-4, (r, want)
pr = rows("precision")
# half storage is measured like float: every variant at every size, in the sweep "half"
half = [r for r in pr if r["precision"] == "half"]
single = [r for r in pr if r["precision"] == "single" and r["status"] == "ok"]
assert half and all(r["status"] == "ok" and r["sweep"] == "half" for r in half), half
assert {(r["variant"], r["n"]) for r in half} == {(r["variant"], r["n"]) for r in single}, half
assert {r["precision"] for r in pr if r["status"] == "ok"} >= {"single", "half"}
for r in pr:
    if r["status"] == "ok":
        es = {"double": 8, "half": 2}.get(r["precision"], 4)
        n = float(r["n"])
        want = (2 * n ** 3 + n * n) * es / (float(r["kernel_ms"]) * 1e6)
        assert abs(float(r["eff_gbps"]) / want - 1) < 1e-4, r
mh = rows("memory-hierarchy")
assert {r["series"] for r in mh} == {"naive", "tiled_2x2", "tiled_4x4", "tiled_8x8",
                                     "tiled_16x16", "tiled_32x32"} or \
    any(r["status"] == "skipped" for r in mh), {r["series"] for r in mh}
po = rows("poisson")
assert all(float(r["sweeps_per_s"]) > 0 for r in po if r["status"] == "ok" and r["k"]), po
oc = rows("opencl-vs-cuda")
assert {r["series"] for r in oc} == {"naive", "tiled_16x16", "cuda_naive", "cuda_tiled"}, oc
for r in oc:
    if r["series"].startswith("cuda_") and r["status"] == "skipped":
        assert r["note"], r
# Every variant's build is a compile: one command per variant (no program reused within a
# command, which would read 0) and an empty cache (a load from it would be far below a compile).
for r in opt:
    if r["series"] not in ("sequential", "openblas") and r["sweep"] in ("pi", "nbody", "kmeans",
                                                                        "gemm"):
        assert float(r["build_ms"]) > 0, ("a real compile", r)
# 002's launch sweeps: the Pi kernels over work-group sizes and total work-items (--smoke lists),
# each with a speedup over the Pi workload's sequential row.
seq = float([r for r in opt if r["sweep"] == "pi" and r["series"] == "sequential"][0]["kernel_ms"])
for sweep, xs, col in (("pi_local", {"32", "1024"}, "local"), ("pi_global", {"1024", "16384"}, "n")):
    got = [r for r in opt if r["sweep"] == sweep]
    assert {r["series"] for r in got} == {"multithread", "optimized"}, got
    for v in ("multithread", "optimized"):
        assert {r["x"] for r in got if r["series"] == v} == xs, (sweep, v, got)
    for r in got:
        assert r["status"] == "ok" and r["op"] == "pi" and r[col] == r["x"], r
        assert abs(float(r["speedup"]) / (seq / float(r["kernel_ms"])) - 1) < 1e-4, r
for r in mh:
    if r["status"] == "ok" and r["series"] != "naive":
        base = [b for b in mh if b["series"] == "naive" and b["x"] == r["x"]][0]
        want = float(base["kernel_ms"]) / float(r["kernel_ms"])
        assert abs(float(r["speedup_vs_naive"]) / want - 1) < 1e-4, r
tr = rows("transpose")
assert {r["sweep"] for r in tr} == {"pow2", "other", "inner_reps", "tile"}, tr
PYEOF
grep -qF "GFLOP/s, half storage" "$D/precision.md" || fail "precision: a half pivot table"
grep -qF "Best half storage over best float" "$D/precision.md" ||
    fail "precision: the comparison sets half storage beside float"
grep -qF "half: " "$D/precision-gflops.gp" && fail "precision: no 'half: not measured' label"
grep -qF ", half\"" "$D/precision-gflops.gp" || fail "precision: half lines in the figure"
grep -qF "OpenCL time / CUDA time" "$D/opencl-vs-cuda.md" || fail "opencl-vs-cuda lists the ratio figure"
grep -qE "not measured here|as fast as its OpenCL twin" "$D/opencl-vs-cuda.md" ||
    fail "opencl-vs-cuda says why the CUDA side is missing, or compares"

# ---- without gnuplot: CSV and markdown, a note, exit 0 -------------------------------------
mkdir -p "$WORK/nobin" "$WORK/nognuplot"
PATH="$WORK/nobin" run study poisson --smoke --out "$WORK/nognuplot"
[ "$RC" -eq 0 ] || fail "without gnuplot a study exits 0, got $RC"
grep -q "^tessel: note: .*gnuplot not found" "$ERR" || fail "without gnuplot: a note says so"
expect_clean_stderr
[ -s "$WORK/nognuplot/poisson.csv" ] && [ -s "$WORK/nognuplot/poisson.md" ] ||
    fail "without gnuplot: CSV and markdown are written"
if ls "$WORK/nognuplot" | grep -q '\.png$'; then fail "without gnuplot: no PNG"; fi
grep -qF "Figures skipped" "$WORK/nognuplot/poisson.md" || fail "without gnuplot: md says so"
HAVE_GNUPLOT=0 check_study poisson "$WORK/nognuplot" sweeps_per_s "sweeps bandwidth"

# ---- --replot: the figures of that run drawn later, where gnuplot is ------------------------
# Without gnuplot: exit 3 saying --replot needs it, and the run's files untouched. (PATH hides
# grep & co. too, so the checks come after the run.)
cp -R "$WORK/nognuplot" "$WORK/replot"
cp "$WORK/nognuplot/poisson.md" "$WORK/recorded.md"
PATH="$WORK/nobin" run study poisson --replot --out "$WORK/replot"
[ "$RC" -eq 3 ] || fail "--replot without gnuplot: exit 3, got $RC"
[ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" -eq 1 ] || fail "--replot without gnuplot: one error line"
grep -q "^tessel: error: .*--replot needs gnuplot" "$ERR" || fail "--replot: says it needs gnuplot"
cmp -s "$WORK/replot/poisson.md" "$WORK/recorded.md" || fail "--replot without gnuplot: md kept"
if ls -A "$WORK/replot" | grep -qE '\.png$|^\.'; then fail "--replot without gnuplot: no PNG"; fi
expect_error 2 "unknown study 'nope'" study nope --replot --out "$WORK/replot"
expect_error 3 "$WORK/empty/poisson.md" study poisson --replot --out "$WORK/empty"
expect_error 3 "$WORK/empty" study --replot --out "$WORK/empty"
expect_error 2 "--smoke" study poisson --replot --smoke --out "$WORK/replot"
# Without the CSV there are no rows to draw: exit 3 naming it, the md untouched.
cp -R "$WORK/replot" "$WORK/nocsv"
rm "$WORK/nocsv/poisson.csv"
expect_error 3 "$WORK/nocsv/poisson.csv" study poisson --replot --out "$WORK/nocsv"
cmp -s "$WORK/nocsv/poisson.md" "$WORK/recorded.md" || fail "--replot without the CSV: md kept"
{ # with gnuplot (on PATH: checked at the top)
    # The scripts are redrawn from the CSV: one spoiled by hand (or by an older tessel) is
    # replaced, not run.
    echo "this is not gnuplot" >"$WORK/replot/poisson-sweeps.gp"
    cp -R "$WORK/replot" "$WORK/replot-all"
    expect_ok study poisson --replot --out "$WORK/replot"
    expect_clean_stderr
    check_study poisson "$WORK/replot" sweeps_per_s "sweeps bandwidth" # real PNGs the md shows
    if grep -qF "Figures skipped" "$WORK/replot/poisson.md" ||
        grep -qF ": skipped (the script" "$WORK/replot/poisson.md"; then
        fail "--replot: the md no longer says the figures were skipped"
    fi
    # Outside the Figures section the md is the recorded one byte for byte (device, date,
    # commands, tables); inside, it is what a run with gnuplot writes (the first --smoke run).
    "$PY" - "$WORK/recorded.md" "$WORK/replot/poisson.md" "$D/poisson.md" <<'PYEOF' ||
import sys
def parts(path):
    text = open(path).read()
    a = text.index("\n## Figures\n")
    b = text.index("\n## Results\n", a)
    return text[:a], text[a:b], text[b:]
recorded, replotted, with_gnuplot = (parts(p) for p in sys.argv[1:4])
assert replotted[0] == recorded[0] and replotted[2] == recorded[2], "only figures change"
assert replotted[1] == with_gnuplot[1], (replotted[1], with_gnuplot[1])
assert replotted[1] != recorded[1]
PYEOF
        fail "--replot: the md changes only in its figures, to what a run with gnuplot writes"
    # Without NAME: every study whose markdown is in DIR, here poisson, to the same result.
    expect_ok study --replot --out "$WORK/replot-all"
    expect_clean_stderr
    grep -qF "$WORK/replot-all/poisson-bandwidth.png" "$OUT" || fail "--replot lists the PNGs"
    cmp -s "$WORK/replot-all/poisson.md" "$WORK/replot/poisson.md" ||
        fail "study --replot (every study) writes what study poisson --replot writes"
    cmp -s "$WORK/replot/poisson.csv" "$WORK/nognuplot/poisson.csv" || fail "--replot keeps the CSV"
    grep -qF "not gnuplot" "$WORK/replot/poisson-sweeps.gp" && fail "--replot rewrites the scripts"
    if ls -A "$WORK/replot-all" | grep -q '^\.'; then fail "--replot leaves temporary files"; fi
}

# ---- --list, --help ------------------------------------------------------------------------
expect_ok study --list
for s in $STUDIES; do grep -q "^$s " "$OUT" || fail "--list names $s"; done
grep -qF "SIZES" "$OUT" || fail "--list shows the parameters"
[ ! -s "$ERR" ] || fail "--list writes nothing on stderr"
expect_ok study --help
for word in --out --smoke --full --set --list --replot study-results gnuplot "Exit codes"; do
    grep -qF -- "$word" "$OUT" || fail "study --help mentions '$word'"
done

# ---- --set: a parameter changes what runs --------------------------------------------------
expect_ok study poisson --smoke --set GRIDS=17 --set ITERS=3 --out "$WORK/set"
"$PY" - "$WORK/set/poisson.csv" <<'PYEOF' || fail "--set GRIDS=17 ITERS=3"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["n"] == "17" for r in rows), rows
assert all(r["k"] == "3" for r in rows if r["variant"] != "copy"), rows
PYEOF
grep -qF '`GRIDS=17`' "$WORK/set/poisson.md" || fail "md records the parameters in force"

# ---- bad input -----------------------------------------------------------------------------
expect_error 2 "unknown study 'nope'" study nope
expect_error 2 "name a study" study
expect_error 2 "--smoke and --full" study poisson --smoke --full
expect_error 2 "one study at a time" study poisson transpose
expect_error 2 "unknown parameter 'BOGUS'" study poisson --set BOGUS=1
expect_error 2 "GRIDS expects" study poisson --set GRIDS=0
expect_error 2 "GRIDS expects" study poisson --set GRIDS=17,,33
expect_error 2 "ITERS expects" study poisson --set ITERS=many
expect_error 2 "PARAM=VALUE" study poisson --set GRIDS
expect_error 2 "--bogus" study poisson --bogus
expect_error 3 "--device" study poisson --smoke --device no-such-device --out "$WORK/nodev"
: >"$WORK/a-file"
expect_error 3 "$WORK/a-file/sub" study poisson --smoke --out "$WORK/a-file/sub"

# A command that fails midway (an unknown variant in the second run): exit 2, one error line
# naming the command, and no CSV, markdown or temporary file; a previous CSV stays as it was.
mkdir -p "$WORK/fail"
echo "previous" >"$WORK/fail/memory-hierarchy.csv"
expect_error 2 "unknown variant 'bogus'" study memory-hierarchy --smoke --out "$WORK/fail" \
    --set VARIANTS=naive,bogus --set SIZES=16
grep -qF "tessel gemm" "$ERR" || fail "the error names the command that failed"
[ "$(cat "$WORK/fail/memory-hierarchy.csv")" = "previous" ] ||
    fail "a failed study keeps the old CSV"
[ "$(ls -A "$WORK/fail")" = "memory-hierarchy.csv" ] || fail "a failed study leaves no other file"

done_ok
