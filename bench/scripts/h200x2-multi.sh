#!/usr/bin/env bash
# Result: none yet: the two-GPU measurement of docs/multi-device.md is pending.
# Issue 6 on a host with two GPUs (two H200s): GEMM and Jacobi split across both GPUs beside the
# fastest GPU alone, measured in the same run (the runner's device / group / single rows and
# speedup), Jacobi once more with the serial halo exchange (TESSEL_POISSON_OVERLAP=0: what the
# overlap gains), then the same through MPI, one rank per GPU (docs/multi-device.md):
#   bash bench/scripts/h200x2-multi.sh "$OUT"
# It runs `bash .device/setup.sh` and `bash .device/mpi/setup.sh` first, each when it exists, if
# nvidia-smi is found (SETUP=0 skips them, SETUP=1 forces them). The GPU machine has no OpenMPI:
# `bash bench/scripts/device-mpi.sh` on the development machine puts OpenMPI's Debian packages
# and that setup.sh into .device/mpi (bench/scripts/device-mpi-check.sh checks the set is
# complete); carry .device. Then it builds Release in build-gpu, and writes env.txt, commands.txt,
# one CSV, one stdout log (.txt) and one stderr log (.err, with the end-to-end notes) per command,
# status.txt, and summary.txt, printed last. Sizes and devices come from the environment; a small
# run of the same logic on the development machine's two PoCL devices:
#   POCL_DEVICES="pthread pthread" SETUP=0 BUILD=build-doc SIZE=256 GRID=257 ITERS=40 \
#     VGRID=129 VITERS=20 DEVICES=all DIST_DEVICE= bash bench/scripts/h200x2-multi.sh /tmp/multi-out
# The MPI part needs tessel built with MPI and an mpirun (OpenMPI: libopenmpi-dev openmpi-bin);
# where either is missing it is recorded as skipped and the rest still runs.
set -uo pipefail
out=${1:-bench-out}
mkdir -p "$out"
out=$(cd "$out" && pwd)

BUILD=${BUILD:-build-gpu}
JOBS=${JOBS:-16}
PRECISION=${PRECISION:-single}
SIZE=${SIZE:-16384}        # GEMM m = n = k
GRID=${GRID:-16384}        # Jacobi grid, border included
ITERS=${ITERS:-1000}       # sweeps per solve (temporal_4 on a GPU: about 0.4 s alone at 16384)
VGRID=${VGRID:-4097}       # the verified Jacobi run (--verify is a CPU Jacobi in double: kept small)
VITERS=${VITERS:-200}
REPEAT=${REPEAT:-5}        # timed calls per measurement (median), after WARMUP
WARMUP=${WARMUP:-1}
RUNS=${RUNS:-3}            # GEMM invocations (the first one with --verify), for the spread
DEVICES=${DEVICES:-all:gpu}        # --devices of the one-process runs
DIST_DEVICE=${DIST_DEVICE-gpu}     # --device of the MPI ranks (empty: tessel's default, the GPUs)
NP=${NP:-2}
TMO=${TMO:-300}                    # seconds one command may run
PARTS=${PARTS:-group,mpi}          # group: one process, --devices; mpi: the --distributed runs

# ---- setup and build --------------------------------------------------------------------------
SETUP=${SETUP:-auto}
if [ "$SETUP" = 1 ] || { [ "$SETUP" = auto ] && command -v nvidia-smi >/dev/null 2>&1; }; then
  for f in .device/setup.sh .device/mpi/setup.sh; do
    if [ -f "$f" ]; then bash "$f" >> "$out/setup.log" 2>&1 || { cat "$out/setup.log"; exit 1; }; fi
  done
fi
cmake_args=(-DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF)
# OpenMPI unpacked without its alternatives links has mpicc.openmpi but no mpicc
if ! command -v mpicc >/dev/null 2>&1 && command -v mpicc.openmpi >/dev/null 2>&1; then
  cmake_args+=(-DMPI_C_COMPILER="$(command -v mpicc.openmpi)")
fi
cmake -S . -B "$BUILD" "${cmake_args[@]}" > "$out/cmake.log" 2>&1 || { cat "$out/cmake.log"; exit 1; }
cmake --build "$BUILD" -j "$JOBS" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
export TESSEL_CACHE_DIR=$PWD/$BUILD/kcache TESSEL_TUNING_DIR=$PWD/$BUILD/no-user-tuning
t=$BUILD/tessel

MPIRUN=${MPIRUN:-$(command -v mpirun || command -v mpirun.openmpi || true)}
mpi_skip=""
if ! grep -q "tessel gemm/poisson --distributed are built" "$out/cmake.log"; then
  mpi_skip="tessel was built without MPI (CMake found none; see cmake.log)"
elif [ -z "$MPIRUN" ]; then
  mpi_skip="no mpirun on this machine"
fi
# As root (the GPU machine), OpenMPI needs --allow-run-as-root; no binding (OpenMPI binds each
# of 2 ranks to one core, which would leave rank 0's --verify reference one core); no
# cross-memory attach (often refused in containers).
mpi=("$MPIRUN" --bind-to none --oversubscribe)
[ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
if [ -z "$mpi_skip" ] && ! probe=$(timeout 60 "${mpi[@]}" -np "$NP" true 2>&1); then
  mpi_skip="mpirun cannot start $NP processes: $(echo "$probe" | head -3 | tr '\n' ' ')"
fi

{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm,pci.bus_id --format=csv,noheader 2>/dev/null || echo "nvidia-smi: none"
  nvidia-smi topo -m 2>/dev/null || true
  grep -E "MPI|CUDA toolkit|CLBlast" "$out/cmake.log" || true
  [ -n "$MPIRUN" ] && "$MPIRUN" --version 2>/dev/null | head -1
  echo "nproc: $(nproc)"
  "$t" devices; } > "$out/env.txt" 2>&1
: > "$out/commands.txt"
: > "$out/status.txt"

# run NAME COMMAND...: stdout to NAME.txt, stderr to NAME.err, both echoed; exit code in status.txt
run() {
  local name=$1 rc
  shift
  echo "$*" >> "$out/commands.txt"
  timeout "$TMO" "$@" > "$out/$name.txt" 2> "$out/$name.err"
  rc=$?
  cat "$out/$name.txt" "$out/$name.err" | grep -vE '^\s*$'
  echo "$name $rc" >> "$out/status.txt"
}
common=(--precision "$PRECISION" --repeat "$REPEAT" --warmup "$WARMUP")

# ---- one process, both GPUs (--devices) -------------------------------------------------------
if [[ ",$PARTS," == *,group,* ]]; then
for r in $(seq 1 "$RUNS"); do
  verify=()
  [ "$r" = 1 ] && verify=(--verify)
  run "gemm_run$r" "$t" gemm --devices "$DEVICES" --size "$SIZE" "${common[@]}" "${verify[@]}" \
    --csv "$out/gemm_run$r.csv"
done
run poisson "$t" poisson --devices "$DEVICES" --grid "$GRID" --iters "$ITERS" "${common[@]}" \
  --csv "$out/poisson.csv"
# the same with the serial halo exchange (docs/multi-device.md), what the overlap gains
run poisson_serial env TESSEL_POISSON_OVERLAP=0 "$t" poisson --devices "$DEVICES" --grid "$GRID" \
  --iters "$ITERS" "${common[@]}" --csv "$out/poisson_serial.csv"
run poisson_verify "$t" poisson --devices "$DEVICES" --grid "$VGRID" --iters "$VITERS" "${common[@]}" \
  --verify --csv "$out/poisson_verify.csv"
fi

# ---- MPI, one rank per GPU (--distributed) ----------------------------------------------------
dev=()
[ -n "$DIST_DEVICE" ] && dev=(--device "$DIST_DEVICE")
if [[ ",$PARTS," != *,mpi,* ]]; then
  mpi_skip="not asked for (PARTS=$PARTS)"
elif [ -z "$mpi_skip" ]; then
  run mpi_gemm "${mpi[@]}" -np "$NP" "$t" gemm --distributed "${dev[@]}" --size "$SIZE" \
    "${common[@]}" --verify --csv "$out/mpi_gemm.csv"
  run mpi_poisson "${mpi[@]}" -np "$NP" "$t" poisson --distributed "${dev[@]}" --grid "$GRID" \
    --iters "$ITERS" "${common[@]}" --csv "$out/mpi_poisson.csv"
  run mpi_poisson_serial "${mpi[@]}" -x TESSEL_POISSON_OVERLAP=0 -np "$NP" "$t" poisson \
    --distributed "${dev[@]}" --grid "$GRID" --iters "$ITERS" "${common[@]}" \
    --csv "$out/mpi_poisson_serial.csv"
  run mpi_poisson_verify "${mpi[@]}" -np "$NP" "$t" poisson --distributed "${dev[@]}" \
    --grid "$VGRID" --iters "$VITERS" "${common[@]}" --verify --csv "$out/mpi_poisson_verify.csv"
else
  echo "MPI part skipped: $mpi_skip" | tee -a "$out/status.txt"
fi

# ---- summary: one line per command, from its CSV and its end-to-end note ----------------------
# speedup = the fastest single's time / the group's (kernel time for GEMM, iteration time for
# Jacobi: the group row's speedup column, which the CSV leaves out); end to end from the note.
summarize() {
  local name=$1 what=$2 rc csv=$out/$1.csv
  rc=$(awk -v n="$name" '$1 == n { print $2 }' "$out/status.txt")
  if [ -z "$rc" ]; then return; fi
  if [ "$rc" != 0 ] && [ "$rc" != 1 ] || [ ! -s "$csv" ]; then
    printf '%-26s FAILED (exit %s): %s\n' "$what" "$rc" \
      "$(grep -m1 'tessel: error: ' "$out/$name.err" | cut -c1-150)"
    return
  fi
  local note single e2e
  note=$(grep -m1 'end to end' "$out/$name.err")
  single=$(sed -n 's/.*the fastest [a-z]* alone (\([^,]*\),.*/\1/p' <<< "$note")
  e2e=$(sed -n 's/.*; \([0-9.]*\)x end to end.*/\1/p' <<< "$note")
  awk -F, -v what="$what" -v single="${single:-?}" -v e2e="${e2e:-?}" -v rc="$rc" '
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    {
      v = $col["variant"]; rate = $col["gflops"] != "" ? $col["gflops"] : $col["gbps"]
      unit = $col["gflops"] != "" ? "GFLOP/s" : "GB/s"
      if (v ~ /^(device|rank) /) { units++; rows[units] = $col["m"]; total += $col["m"] }
      if (v == "group") { gms = $col["kernel_ms"]; grate = rate; n = $col["n"]; k = $col["k"] }
      if (v == "single") { sms = $col["kernel_ms"]; srate = rate }
      if ($col["max_rel_err"] != "" && $col["max_rel_err"] + 0 > err) err = $col["max_rel_err"] + 0
      if ($col["max_rel_err"] != "") verified = 1
      if ($col["status"] != "ok") bad = bad " " v ":" $col["status"]
    }
    END {
      shares = ""
      for (i = 1; i <= units; ++i) shares = shares (i > 1 ? "/" : "") sprintf("%.3f", rows[i] / total)
      ver = verified ? sprintf("max err %.1e", err) : "not verified"
      if (bad != "") ver = ver ", FAILED" bad
      printf "%-26s %-17s %10.3f %10.0f %10.3f %10.0f %-9s %7.2fx %6sx  %s\n", what, shares, gms,
             grate, sms, srate, single, (gms > 0 ? sms / gms : 0), e2e, ver
    }' "$csv"
}
{
  gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c | sed 's/^ *//' | paste -sd, -)
  echo "issue 6 on ${gpus:-a host without nvidia-smi}: --devices '$DEVICES', MPI --device '$DIST_DEVICE', $PRECISION precision, median of $REPEAT after $WARMUP warm-up"
  echo "GEMM n = $SIZE (GFLOP/s); Jacobi grid $GRID x $ITERS sweeps, verified grid $VGRID x $VITERS (GB/s)"
  echo "speedup: fastest single / group, kernel time (GEMM) or iteration time with halo exchanges (Jacobi); e2e: host clock, every transfer"
  printf '%-26s %-17s %10s %10s %10s %10s %-9s %8s %7s  %s\n' what shares group_ms rate single_ms rate single speedup e2e check
  for r in $(seq 1 "$RUNS"); do summarize "gemm_run$r" "gemm $SIZE, run $r"; done
  summarize poisson "poisson $GRID"
  summarize poisson_serial "poisson $GRID serial halo"
  summarize poisson_verify "poisson $VGRID (verify)"
  if [ -z "$mpi_skip" ]; then
    summarize mpi_gemm "mpi -np $NP gemm $SIZE"
    summarize mpi_poisson "mpi -np $NP poisson $GRID"
    summarize mpi_poisson_serial "mpi poisson $GRID serial"
    summarize mpi_poisson_verify "mpi -np $NP poisson $VGRID"
  else
    echo "MPI: skipped: $mpi_skip"
  fi
} > "$out/summary.txt"
echo
cat "$out/summary.txt"
(cd "$out" && tar czf results.tgz ./*.csv ./*.txt ./*.err 2>/dev/null)
