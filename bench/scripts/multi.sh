#!/usr/bin/env bash
# The multi suite: one problem split across the GPUs of one host, beside the fastest GPU alone in
# the same run (the command's device / group / single rows), in one process (--devices) and over
# MPI, one rank per GPU (--distributed; docs/multi-device.md).
#   bash bench/scripts/multi.sh DEVICE_NAME OUTDIR      (e.g. h200x2 bench/results/h200x2/multi)
#   gemm_run{1,2,3}.csv       GEMM SIZE^3 (default 16384) on --devices DEVICES (default all:gpu);
#                             the first verified
#   poisson.csv               Jacobi GRID^2 (default 16384), ITERS sweeps (default 1000),
#                             overlapped halo exchange
#   poisson_serial.csv        the same with the serial exchange (TESSEL_POISSON_OVERLAP=0)
#   poisson_verify.csv        Jacobi VGRID^2 (4097) x VITERS (200) against the CPU Jacobi
#   mpi_*.csv                 the same four through mpirun -np NP (default 2) --distributed
#   speedup.csv               per case: the devices' shares of the rows, group and single times
#                             and rates, speedup (the fastest single / the group, kernel time for
#                             GEMM, iteration time with the halo exchanges for Jacobi) and the
#                             end-to-end ratio from the command's note (host clock, transfers)
# PARTS (default group,mpi) picks the parts; the MPI part needs tessel built with MPI and an
# mpirun, and is recorded as skipped otherwise. About 4 minutes on two H100s. A small run of the
# same logic on the development machine's PoCL, as two devices:
#   POCL_DEVICES="pthread pthread" SETUP=0 SIZE=256 GRID=257 ITERS=40 VGRID=129 VITERS=20 \
#     DEVICES=all DIST_DEVICE= bash bench/scripts/multi.sh pocl /tmp/multi-out
set -euo pipefail
source "$(dirname "$0")/lib.sh" multi "$@"
PRECISION=${PRECISION:-single}
SIZE=${SIZE:-16384}
GRID=${GRID:-16384}
ITERS=${ITERS:-1000}
VGRID=${VGRID:-4097}
VITERS=${VITERS:-200}
REPEAT=${REPEAT:-5}
WARMUP=${WARMUP:-1}
RUNS=${RUNS:-3}
DEVICES=${DEVICES:-all:gpu}
DIST_DEVICE=${DIST_DEVICE-gpu}
NP=${NP:-2}
PARTS=${PARTS:-group,mpi}
common=(--precision "$PRECISION" --repeat "$REPEAT" --warmup "$WARMUP")
{ nvidia-smi topo -m 2> /dev/null || true; } >> "$OUT/env.txt"

if [[ ",$PARTS," == *,group,* ]]; then
  for r in $(seq 1 "$RUNS"); do
    v=(); [ "$r" = 1 ] && v=(--verify)
    tsl "gemm_run$r" gemm --devices "$DEVICES" --size "$SIZE" "${common[@]}" "${v[@]}"
  done
  tsl poisson poisson --devices "$DEVICES" --grid "$GRID" --iters "$ITERS" "${common[@]}"
  run_case poisson_serial env TESSEL_POISSON_OVERLAP=0 "$T" poisson --devices "$DEVICES" \
    --grid "$GRID" --iters "$ITERS" "${common[@]}" --csv "$OUT/poisson_serial.csv"
  tsl poisson_verify poisson --devices "$DEVICES" --grid "$VGRID" --iters "$VITERS" "${common[@]}" --verify
fi

MPIRUN=${MPIRUN:-$(command -v mpirun || command -v mpirun.openmpi || true)}
mpi_skip=""
if [[ ",$PARTS," != *,mpi,* ]]; then
  mpi_skip="not asked for (PARTS=$PARTS)"
elif [ "$(ldd "$T" 2> /dev/null | grep -c libmpi || true)" = 0 ]; then
  mpi_skip="tessel was built without MPI (CMake found none)"
elif [ -z "$MPIRUN" ]; then
  mpi_skip="no mpirun on this machine"
fi
# As root (the GPU machine), OpenMPI needs --allow-run-as-root; no binding (OpenMPI binds each of
# 2 ranks to one core, which would leave rank 0's --verify reference one core); no cross-memory
# attach (often refused in containers).
mpi=("${MPIRUN:-mpirun}" --bind-to none --oversubscribe)
[ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
if [ -z "$mpi_skip" ] && ! probe=$(timeout 60 "${mpi[@]}" -np "$NP" true 2>&1); then
  mpi_skip="mpirun cannot start $NP processes: $(echo "$probe" | head -3 | tr '\n' ' ')"
fi
if [ -z "$mpi_skip" ]; then
  dev=(); [ -n "$DIST_DEVICE" ] && dev=(--device "$DIST_DEVICE")
  echo "mpi: $("${mpi[@]}" --version 2> /dev/null | head -1)" >> "$OUT/env.txt"
  run_case mpi_gemm "${mpi[@]}" -np "$NP" "$T" gemm --distributed "${dev[@]}" --size "$SIZE" \
    "${common[@]}" --verify --csv "$OUT/mpi_gemm.csv"
  run_case mpi_poisson "${mpi[@]}" -np "$NP" "$T" poisson --distributed "${dev[@]}" --grid "$GRID" \
    --iters "$ITERS" "${common[@]}" --csv "$OUT/mpi_poisson.csv"
  run_case mpi_poisson_serial "${mpi[@]}" -x TESSEL_POISSON_OVERLAP=0 -np "$NP" "$T" poisson \
    --distributed "${dev[@]}" --grid "$GRID" --iters "$ITERS" "${common[@]}" --csv "$OUT/mpi_poisson_serial.csv"
  run_case mpi_poisson_verify "${mpi[@]}" -np "$NP" "$T" poisson --distributed "${dev[@]}" \
    --grid "$VGRID" --iters "$VITERS" "${common[@]}" --verify --csv "$OUT/mpi_poisson_verify.csv"
else
  echo "mpi,0,0,skipped" >> "$STATUS"
  echo "MPI part skipped: $mpi_skip" | tee -a "$OUT/env.txt" >&2
fi

# speedup.csv: one line per case from its CSV and the end-to-end note on its stderr
echo "case,shares,group_ms,group_rate,single_ms,single_rate,speedup,e2e,max_rel_err,status" > "$OUT/speedup.csv"
for f in "$OUT"/gemm_run*.csv "$OUT"/poisson*.csv "$OUT"/mpi_*.csv; do
  [ -s "$f" ] || continue
  name=$(basename "$f" .csv)
  e2e=$(sed -n 's/.*; \([0-9.]*\)x end to end.*/\1/p' "$LOGDIR/$name.err" 2> /dev/null | head -1)
  awk -F, -v name="$name" -v e2e="${e2e:-}" '
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    {
      v = $col["variant"]; rate = $col["gflops"] != "" ? $col["gflops"] : $col["gbps"]
      if (v ~ /^(device|rank) /) { units++; rows[units] = $col["m"]; total += $col["m"] }
      if (v == "group") { gms = $col["kernel_ms"]; grate = rate }
      if (v == "single") { sms = $col["kernel_ms"]; srate = rate }
      if ($col["max_rel_err"] != "" && $col["max_rel_err"] + 0 > err) err = $col["max_rel_err"] + 0
      if ($col["status"] != "ok") bad = bad " " v ":" $col["status"]
    }
    END {
      shares = ""
      for (i = 1; i <= units; ++i) shares = shares (i > 1 ? "/" : "") sprintf("%.3f", rows[i] / total)
      printf "%s,%s,%s,%s,%s,%s,%.2f,%s,%s,%s\n", name, shares, gms, grate, sms, srate,
             (gms > 0 ? sms / gms : 0), e2e, (err ? sprintf("%.1e", err) : ""), (bad == "" ? "ok" : bad)
    }' "$f" >> "$OUT/speedup.csv" || true
done
column -s, -t < "$OUT/speedup.csv" 2> /dev/null || cat "$OUT/speedup.csv"
bench_finish
