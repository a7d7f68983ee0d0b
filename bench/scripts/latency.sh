#!/usr/bin/env bash
# The latency suite: what a program waits for, by the host clock.
#   bash bench/scripts/latency.sh DEVICE_NAME OUTDIR      (e.g. h200 bench/results/h200/latency)
#   first_result.txt        bench/latency/first_result.c (build/tessel_first_result): a new process
#                           to its first SGEMM n = 1024 result with warm kernel caches, against the
#                           bare OpenCL floor (context + one empty kernel); each mode started
#                           9 times, interleaved; one line per process (process_ms by the shell)
#   first_result_trace.txt  one run with TESSEL_TRACE=1 (where tessel's own time goes), then the
#                           NVIDIA ICD alone (OCL_ICD_VENDORS) three times
#   host_gemm.txt           bench/latency/host_gemm.c (build/tessel_host_gemm): tsl_sgemm /
#                           tsl_dgemm on the program's own pageable arrays, end to end, at 4096,
#                           8192 and 16384, with TESSEL_GEMM_PIPELINE=0 (plain), 1 (the pipeline)
#                           and auto, 4 runs each; then the pipeline with 4, 8, 16 copy threads and
#                           from pinned memory (tsl_host_alloc) at 16384 single
# (Both programs print key=value lines; these text files are their raw record.) About 2 minutes
# on an H100 / H200.
set -euo pipefail
source "$(dirname "$0")/lib.sh" latency "$@"
fr=$BUILD/tessel_first_result
hg=$BUILD/tessel_host_gemm
: > "$OUT/first_result.txt"
: > "$OUT/first_result_trace.txt"
: > "$OUT/host_gemm.txt"
# warm every cache (tessel's kernel cache, the driver's) once
run_case warm_tessel "$fr" tessel
run_case warm_floor "$fr" floor
for i in 1 2 3 4 5 6 7 8 9; do
  for mode in floor tessel; do
    t0=$(date +%s%N)
    run_case "first_${mode}_$i" "$fr" $mode
    t1=$(date +%s%N)
    echo "process_ms=$(((t1 - t0) / 1000000)) $(cat "$LOGDIR/first_${mode}_$i.out")" >> "$OUT/first_result.txt"
  done
done
{ echo "== TESSEL_TRACE=1, every ICD the host has ($(ls /etc/OpenCL/vendors/ 2> /dev/null | tr '\n' ' '))"; } >> "$OUT/first_result_trace.txt"
run_case trace_all env TESSEL_TRACE=1 "$fr" tessel
cat "$LOGDIR/trace_all.out" "$LOGDIR/trace_all.err" >> "$OUT/first_result_trace.txt"
nv=$(ls /etc/OpenCL/vendors/ 2> /dev/null | grep -i nvidia | head -1 || true)
if [ -n "$nv" ]; then
  echo "== OCL_ICD_VENDORS=/etc/OpenCL/vendors/$nv (the NVIDIA ICD alone)" >> "$OUT/first_result_trace.txt"
  for i in 1 2 3; do
    run_case "trace_nv_$i" env OCL_ICD_VENDORS="/etc/OpenCL/vendors/$nv" TESSEL_TRACE=1 "$fr" tessel
    cat "$LOGDIR/trace_nv_$i.out" "$LOGDIR/trace_nv_$i.err" >> "$OUT/first_result_trace.txt"
  done
fi
for n in 4096 8192 16384; do
  for p in single double; do
    for pl in 0 1 auto; do
      run_raw "host_${n}_${p}_$pl" host_gemm.txt env TESSEL_GEMM_PIPELINE=$pl "$hg" $n $p 4
    done
  done
done
for th in 4 8 16; do
  run_raw "host_threads_$th" host_gemm.txt env TESSEL_GEMM_PIPELINE=1 TESSEL_GEMM_COPY_THREADS=$th "$hg" 16384 single 4
done
for pl in 0 1; do
  run_raw "host_pinned_$pl" host_gemm.txt env TESSEL_GEMM_PIPELINE=$pl "$hg" 16384 single 4 pinned
done
bench_finish
