#!/usr/bin/env bash
# Result: bench/results/<card>/first-result.
# The first-result latency on the GPU machine: a new process to its
# first SGEMM n = 1024 result with warm kernel caches, against the bare OpenCL floor (context +
# one empty kernel), each started 9 times, the median kept; then one TESSEL_TRACE=1 run showing
# where tessel's own time goes. With a tree in .base (the tessel before a change, copied there by
# hand), its probe runs interleaved with this one for a side-by-side figure.
#   bash .device/setup.sh && bash bench/scripts/first-result.sh $OUT
set -uo pipefail
out=${1:?usage: first-result.sh OUT}
source bench/scripts/lib.sh "$out"
probe=build-gpu/tessel_first_result
builds=("$probe")
if [ -d .base ]; then
  (cmake -S .base -B .base/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > "$out/base_cmake.log" 2>&1 &&
   cmake --build .base/b -j "$(nproc)" --target tessel_first_result > "$out/base_build.log" 2>&1) &&
    builds+=(.base/b/tessel_first_result) || echo "base build failed"
fi
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# Warm every cache (tessel's kernel cache, NVIDIA's ComputeCache) once per build.
for b in "${builds[@]}"; do $b tessel > /dev/null; $b floor > /dev/null; done
: > "$out/first_result.txt"
for i in 1 2 3 4 5 6 7 8 9; do
  for b in "${builds[@]}"; do
    for mode in floor tessel; do
      t0=$(now_ms); line=$($b $mode); t1=$(now_ms)
      echo "build=$b process_ms=$((t1 - t0)) $line" >> "$out/first_result.txt"
    done
  done
done
{ echo "== TESSEL_TRACE=1, every ICD the host has ($(ls /etc/OpenCL/vendors/ | tr '\n' ' '))"
  TESSEL_TRACE=1 $probe tessel
  nv=$(ls /etc/OpenCL/vendors/ | grep -i nvidia | head -1)
  echo "== OCL_ICD_VENDORS=/etc/OpenCL/vendors/$nv (the NVIDIA ICD alone)"
  for i in 1 2 3; do OCL_ICD_VENDORS=/etc/OpenCL/vendors/$nv TESSEL_TRACE=1 $probe tessel; done
  for i in 1 2 3; do OCL_ICD_VENDORS=/etc/OpenCL/vendors/$nv $probe floor; done
} > "$out/trace.txt" 2>&1
python3 - "$out/first_result.txt" <<'PY'
import sys, re, statistics, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    build = line.split()[0].split('=', 1)[1]
    mode = 'floor' if 'mode=floor' in line else 'tessel'
    kv = {k: float(v) for k, v in re.findall(r'(\w+)=([0-9.]+)', line.split(' ', 1)[1])}
    rows[(build, mode)].append(kv)
print(f"{'build':34} {'mode':7} {'process':>8} {'context':>8} {'first':>8} {'to_first':>9}   median ms of the runs")
for (b, m), r in rows.items():
    med = lambda k: statistics.median(x[k] for x in r)
    first = med('first_call') if m == 'tessel' else med('build') + med('run')
    to_first = med('to_first_result') if m == 'tessel' else med('total')
    ctx = med('context') if m == 'tessel' else med('platforms') + med('device') + med('context')
    print(f"{b:34} {m:7} {med('process_ms'):8.1f} {ctx:8.1f} {first:8.1f} {to_first:9.1f}   ({len(r)} runs)")
PY
cat "$out/trace.txt"
