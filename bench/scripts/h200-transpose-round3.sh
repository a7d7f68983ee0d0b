#!/usr/bin/env bash
# Result: bench/results/h200/transpose-round3 (and its tile sweep, which replaced the first tile-64 sweep's script).
# Issue 3, round 3 on the GPU machine: the transpose family with the 64-wide tiles now default on
# GPUs, beside CLBlast, cuBLAS and the copy row, every row verified (median of 20):
#   bash .device/setup.sh && bash bench/scripts/h200-transpose-round3.sh "$OUT"
# Also the tile sweep behind the default (tile 32/64 x work-group rows 4/8/16).
set -uo pipefail
source bench/scripts/lib.sh "${1:-bench-out}"
c=$out/csv; mkdir -p "$c"
common="--device $d --copy --peers clblast,cublas --verify --repeat 20"
run transpose $common --variant all --size 8192 --csv "$c/all_8192_single.csv" | tail -9
run transpose $common --variant all --size 8192 --precision double --csv "$c/all_8192_double.csv" | tail -9
for n in 4096 16384; do
  run transpose $common --variant auto --size $n --csv "$c/auto_${n}_single.csv" | tail -4
done
run transpose $common --variant all --rows 8191 --cols 8193 --csv "$c/all_8191x8193_single.csv" | tail -9
for tile in 32 64; do
  for wg in 4 8 16; do
    run transpose --device $d --copy --peers cublas --verify --repeat 20 --variant vector --size 8192 --tile $tile --wg-rows $wg --csv "$c/vec_8192_t${tile}_r${wg}.csv" > /dev/null
    run transpose --device $d --copy --peers cublas --verify --repeat 20 --variant nobank --size 8192 --precision double --tile $tile --wg-rows $wg --csv "$c/nobank_double_8192_t${tile}_r${wg}.csv" > /dev/null
  done
done
(cd "$out" && tar czf results.tgz csv env.txt commands.txt)
python3 - "$c"/*.csv <<'PY'
import csv, sys
for f in sorted(sys.argv[1:]):
    rows = [r for r in csv.DictReader(open(f)) if r['status'] == 'ok']
    print(f.split('/')[-1].ljust(34), ' '.join('%s %.0f' % (r['variant'][:9], float(r['gbps'])) for r in rows))
PY
