#!/usr/bin/env bash
# bench/results/h200/round4/dgemm-limits (round 4d, 2026-11-23): what limits the FMA DGEMM. SM
# clock and power sampled by nvidia-smi every 100 ms while tessel runs DGEMM and SGEMM 8192 (auto)
# for a few seconds each, and the SASS of the DGEMM kernel (instruction mix of its main loop);
# everything in $OUT/results.tgz (the same session's daxpy runs: h200-round4-daxpy-width.sh):
#   bash .device/setup.sh > /dev/null 2>&1; bash bench/scripts/h200-round4-dgemm-limits.sh "$OUT"
set -uo pipefail
o=${1:?usage: h200-round4-dgemm-limits.sh OUT}
source bench/scripts/lib.sh "$o/r" > /dev/null
# clocks under load
mkdir -p "$out/clocks"
for prec in double single; do
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 100 > "$out/clocks/$prec.csv" 2>&1 &
  sp=$!
  sleep 1
  run gemm --device $d --precision $prec --size 8192 --repeat 150 --warmup 5 --csv "$out/clocks/gemm_$prec.csv" | tail -1
  sleep 1
  kill $sp
done
python3 - "$out"/clocks/double.csv "$out"/clocks/single.csv <<'PY'
import sys
for f in sys.argv[1:]:
    rows = [l.split(', ') for l in open(f) if l[0].isdigit()]
    busy = [r for r in rows if len(r) > 3 and float(r[3].split()[0]) > 300]
    if busy:
        clk = sorted(int(r[1].split()[0]) for r in busy)
        pw = sorted(float(r[3].split()[0]) for r in busy)
        print(f.split('/')[-1], 'samples', len(busy), 'sm clock MHz median %d min %d max %d' % (clk[len(clk)//2], clk[0], clk[-1]),
              'power W median %.0f max %.0f' % (pw[len(pw)//2], pw[-1]), 'max', busy[0][2], 'reasons', sorted(set(r[6].strip() for r in busy)))
PY
# SASS of the programs built (the DGEMM kernel among them)
dump_ptx tiled2d
for c in "$out"/ptx/*.cubin; do cuobjdump -sass "$c" > "${c%.cubin}.sass" 2>/dev/null || /usr/local/cuda/bin/cuobjdump -sass "$c" > "${c%.cubin}.sass"; done
grep -l "PRECISION=64" "$out"/ptx/index.txt > /dev/null && grep "PRECISION=64" "$out/ptx/index.txt" | cut -f1,4
for s in "$out"/ptx/*.sass; do
  echo "$(basename $s): $(grep -c DFMA $s) DFMA, $(grep -c FFMA $s) FFMA, $(grep -c 'LDS' $s) LDS, $(grep -c 'LDG' $s) LDG, $(grep -c 'BAR' $s) BAR, $(grep -cE '^\s+/\*[0-9a-f]+\*/' $s) instructions"
done
cd "$o" && tar czf results.tgz -C r . && rm -rf r
