#!/usr/bin/env bash
# Result: bench/results/h200/gemm-round3.
# Issue 4, round 3 on the GPU machine: the race with the new defaults (gemm-race.sh: square
# 4096/8192 in both precisions and the shapes of point 4, beside CLBlast and cuBLAS), a last hand
# sweep (gemm_sweep_round3c.txt) and the tuner from its seeds on 4096^3 in both precisions.
#   bash .device/setup.sh && bash bench/scripts/h200-gemm-round3.sh "$OUT" [LIST] [race]
# (the race only when the third argument is "race"; LIST defaults to gemm_sweep_round3c.txt, kept
# with the other round-3 lists in bench/results/h200/gemm-round3, which this script made)
set -uo pipefail
base=${1:-bench-out}
list=${2:-bench/results/h200/gemm-round3/gemm_sweep_round3c.txt}
mkdir -p "$base"
[ "${3:-}" = race ] && bash bench/scripts/gemm-race.sh "$base/race" > "$base/race.log" 2>&1
bash bench/scripts/gemm-sweep.sh "$base/sweep" "$list" > "$base/sweep.log" 2>&1
source bench/scripts/lib.sh "$base/tune"   # sets out=$base/tune
export TESSEL_TUNING_DIR=$out/tuning
run tune gemm --device $d --precision single --shapes 4096 --budget-s 60 --csv "$out/tune_single.csv" > "$out/tune.log" 2>&1
run tune gemm --device $d --precision double --shapes 4096 --budget-s 60 --csv "$out/tune_double.csv" >> "$out/tune.log" 2>&1
run tune --show --device $d >> "$out/tune.log" 2>&1
cd "$base" && tar czf results.tgz race sweep/*.csv sweep/*.txt tune/*.csv tune/*.log tune/tuning tune/*.txt 2>/dev/null
[ -d race ] && python3 - race/*.csv <<'PY'
import csv, sys
for f in sorted(sys.argv[1:]):
    rows = [r for r in csv.DictReader(open(f)) if r['status'] == 'ok']
    print(f.split('/')[-1], '  '.join('%s %.0f' % (r['variant'][:12], float(r['gflops'])) for r in rows))
PY
cat sweep/summary.txt; grep -E 'best|before|tried' tune/tune.log
