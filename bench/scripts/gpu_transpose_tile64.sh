#!/usr/bin/env bash
# Issue 3: the transpose with 64-wide tiles on the GPU machine, beside tile 32, cuBLAS and the copy
# row, every row verified, median of 20 after warm-up:
#   bash .device/setup.sh && bash bench/scripts/gpu_transpose_tile64.sh "$OUT"
set -uo pipefail
source bench/scripts/lib.sh "${1:-bench-out}"
common="--device $d --copy --peers cublas --verify --repeat 20"
for n in 8192 16384; do
  for tile in 32 64; do
    for wg in 4 8 16; do
      run transpose $common --variant vector --size $n --tile $tile --wg-rows $wg --csv "$out/vec_${n}_t${tile}_r${wg}.csv" | tail -3
    done
  done
done
for tile in 32 64; do
  for wg in 8 16; do
    run transpose $common --variant nobank --rows 8191 --cols 8193 --tile $tile --wg-rows $wg --csv "$out/ragged_t${tile}_r${wg}.csv" | tail -3
  done
done
cd "$out" && tar czf results.tgz *.csv env.txt commands.txt
python3 - *.csv <<'PY'
import csv, sys
for f in sorted(sys.argv[1:]):
    rows = {r['variant']: float(r['gbps']) for r in csv.DictReader(open(f)) if r['status'] == 'ok'}
    t = [v for k, v in rows.items() if k not in ('copy', 'cublas')]
    print('%-26s tessel %6.0f  cublas %6.0f  copy %6.0f  ratio %.3f / %.3f' % (f, t[0], rows.get('cublas', 0), rows.get('copy', 0), t[0] / rows.get('cublas', 1), t[0] / rows.get('copy', 1)))
PY
