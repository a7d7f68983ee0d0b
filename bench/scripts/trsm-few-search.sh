#!/usr/bin/env bash
# The `few` class (TRSM's leaves in the triangle mode, the doubling's batches) searched on TRSM's
# own time, not a dense GEMM's: session 11 found the tuner's best 64 x 64 configuration for the
# leaves' shape (38.0 TFLOP/s dense against the shipped entry's 29.5) slower under TRSM
# (bench/results/h100/trsm-chain/experiments step 11). This script:
#   1. asks the tuner (no store) for candidates of each tile family in FIX on the leaves' dense
#      shapes, their GFLOP/s the pre-filter;
#   2. runs TRSM (single, SIZES) with each of the best N of every family as the few entry (a user
#      tuning file; DIRECT=2 and KSPLIT=0, as the shipped entry), beside the shipped entry, in
#      ROUNDS interleaved rounds, every candidate verified once;
#   3. prints the candidates by their time at the first size (summary.txt).
# Session 12 ran it with the defaults (bench/results/h100/trsm-leaf-class/experiments step 1): none
# of 20 candidates beat the shipped entry at 4096 or 2048.
#   bash .device/setup.sh && bash bench/scripts/trsm-few-search.sh OUT
# Knobs (environment): N (default 5), FIX (tile families, space-separated), BUDGET (tuner seconds
# per family, default 45), SIZES (default "4096 2048"), ROUNDS (default 2), SHAPES (the tuner's).
set -u
O=${1:?usage: trsm-few-search.sh OUT}; mkdir -p "$O"
N=${N:-5} BUDGET=${BUDGET:-45} ROUNDS=${ROUNDS:-2} SIZES=${SIZES:-4096 2048}
FIX=${FIX:-MWG=64,NWG=64 MWG=64,NWG=128 MWG=128,NWG=64 MWG=32,NWG=64}
SHAPES=${SHAPES:-1024x4096x1024,1024x2048x1024}
source bench/scripts/lib.sh "$O" > /dev/null
c="--device $d --repeat 10 --warmup 2"
# the user tuning file's path and its device key (the file's name before '@')
path=$(TESSEL_TUNING_DIR=/tmp/few-search-probe $t tune --show --device "$d" 2>/dev/null |
       sed -n 's/^tuning database of .*: \(\/.*\.tuning\)$/\1/p' | head -1)
[ -n "$path" ] || { echo "trsm-few-search: no tuning database path from tessel tune --show"; exit 1; }
file=$(basename "$path") key=${file%%@*}
: > "$O/candidates.txt"
i=0
for fix in $FIX; do
  tag=$(echo "$fix" | tr -d '=,' )
  echo "tessel tune gemm --device $d --precision single --shapes $SHAPES --fix $fix --budget-s $BUDGET --no-store" >> "$O/commands.txt"
  timeout $((BUDGET + 120)) $t tune gemm --device "$d" --precision single --shapes "$SHAPES" --fix "$fix" \
    --budget-s "$BUDGET" --no-store --csv "$O/tune_$tag.csv" --repeat 5 --warmup 1 > "$O/tune_$tag.txt" 2>&1
  python3 - "$O/tune_$tag.csv" "$fix" "$N" <<'PY' >> "$O/candidates.txt"
import csv, os, re, sys
f, fix, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
if not os.path.exists(f): sys.exit(0)
best = {}
for r in csv.DictReader(open(f)):
    v = r['variant']
    if r['status'] != 'ok' or not v.startswith('tiled2d:') or fix not in v: continue
    cfg = re.sub(r',+', ',', re.sub(r'(DIRECT|KSPLIT)=\d+', '', v.split(':', 1)[1])).strip(',')
    cfg += ',KSPLIT=0,DIRECT=2'
    best[cfg] = max(best.get(cfg, 0.0), float(r['gflops']))
for cfg, g in sorted(best.items(), key=lambda x: -x[1])[:n]: print('%.1f %s' % (g, cfg))
PY
done
while read -r g cfg; do
  i=$((i + 1)); mkdir -p "$O/td/c$i"
  { echo "tessel-tuning 2"; echo "device=$key gemm single few tiled2d:$cfg source=few-search"; } > "$O/td/c$i/$file"
  echo "c$i $g $cfg" >> "$O/index.txt"
done < "$O/candidates.txt"
for r in $(seq 1 "$ROUNDS"); do
  for n in $SIZES; do
    run blas3 --op trsm --size "$n" --precision single $c --csv "$O/t_shipped_${n}_$r.csv" > /dev/null
    for j in $(seq 1 "$i"); do
      v=$([ "$r" = 1 ] && echo --verify)
      TESSEL_TUNING_DIR="$O/td/c$j" run blas3 --op trsm --size "$n" --precision single $c $v \
        --csv "$O/t_c${j}_${n}_$r.csv" > /dev/null
    done
  done
done
python3 - "$O" $SIZES <<'PY' | tee "$O/summary.txt"
import csv, glob, os, sys
O, sizes = sys.argv[1], sys.argv[2:]
cfg = {}
if os.path.exists(O + '/index.txt'):
    for line in open(O + '/index.txt'):
        name, g, c = line.split(' ', 2)
        cfg[name] = (g, c.strip())
def times(name, n):
    out = []
    for f in sorted(glob.glob('%s/t_%s_%s_*.csv' % (O, name, n))):
        for r in csv.DictReader(open(f)):
            out.append((float(r['kernel_ms']), r['status']))
    return out
rows = []
for name in ['shipped'] + sorted(cfg, key=lambda s: int(s[1:])):
    cols = [times(name, n) for n in sizes]
    key = min(t for t, _ in cols[0]) if cols[0] else float('inf')
    rows.append((key, name, cols))
print('# TRSM single (left, lower), ms per round at ' + ', '.join(sizes) + '; ! = not ok; dense GFLOP/s of the tuner')
for key, name, cols in sorted(rows):
    g, c = cfg.get(name, ('-', 'the shipped few entry'))
    cells = ['/'.join('%.3f%s' % (t, '' if s == 'ok' else '!') for t, s in col) for col in cols]
    print('%-8s %-26s %8s  %s' % (name, ' '.join(cells), g, c))
PY
