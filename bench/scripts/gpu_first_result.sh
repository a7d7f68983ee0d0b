#!/usr/bin/env bash
# The first-result latency on the GPU machine (bench/results/*/first-result): a new process to its
# first SGEMM n = 1024 result with warm kernel caches, against the bare OpenCL floor (context +
# one empty kernel), each started 9 times, the median kept; then one TESSEL_TRACE=1 run showing
# where tessel's own time goes. With a tree in .base (the tessel before a change, copied there by
# hand), its probe runs interleaved with this one for a side-by-side figure.
#   bash .device/setup.sh && bash bench/scripts/gpu_first_result.sh $OUT
set -uo pipefail
out=${1:?usage: gpu_first_result.sh OUT}
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
TESSEL_TRACE=1 $probe tessel > "$out/trace.txt" 2>&1
nv=$(ls /etc/OpenCL/vendors/ | grep -i nvidia | head -1)
OCL_ICD_VENDORS=/etc/OpenCL/vendors/$nv TESSEL_TRACE=1 $probe tessel > "$out/trace_nvidia_icd_only.txt" 2>&1
OCL_ICD_VENDORS=/etc/OpenCL/vendors/$nv $probe floor >> "$out/trace_nvidia_icd_only.txt" 2>&1
ls /etc/OpenCL/vendors/ > "$out/icds.txt"
python3 - "$out/first_result.txt" <<'PY'
import sys, re, statistics, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    kv = dict(re.findall(r'(\w+)=([^\s()]+)', line))
    rows[(kv['build'], kv['mode'])].append(kv)
print(f"{'build':36} {'mode':7} {'process':>8} {'context':>8} {'first':>8} {'build':>7} {'to_first':>8}  (median ms of {len(next(iter(rows.values())))})")
for (b, m), r in rows.items():
    med = lambda k: statistics.median(float(x[k]) for x in r) if k in r[0] else float('nan')
    print(f"{b:36} {m:7} {med('process_ms'):8.1f} {med('context'):8.1f} {med('first_call'):8.1f} {med('build') if m=='tessel' else med('build'):7.1f} {med('to_first_result') if m=='tessel' else med('total'):8.1f}")
PY
cat "$out/trace.txt"
