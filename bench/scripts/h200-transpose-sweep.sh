#!/usr/bin/env bash
# Result: bench/results/h200/transpose-sweep.
# Transpose `vector` geometry sweep on the GPU machine (tiles per work-group x work-group rows),
# each invocation with the copy row and the peers, every row verified:
#   bash .device/setup.sh && bash bench/scripts/h200-transpose-sweep.sh "$OUT"
set -uo pipefail
source bench/scripts/lib.sh "${1:-bench-out}"
for g in 1 2 4 8; do
  for r in 4 8; do
    run transpose --device $d --variant vector --group-tiles $g --wg-rows $r --size 8192 --copy --peers cublas --verify --repeat 20 --csv "$out/vec_g${g}_r${r}.csv"
  done
done
run transpose --device $d --variant all --size 8192 --copy --peers clblast,cublas --verify --repeat 20 --csv "$out/transpose_all.csv"
run transpose --device $d --variant auto --sizes 4096,8192,16384 --copy --peers clblast,cublas --verify --repeat 20 --csv "$out/transpose_auto.csv"
(cd "$out" && tar czf results.tgz *.csv env.txt commands.txt)
python3 - "$out" <<'PY'
import csv, glob, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.csv"))):
    rows = list(csv.DictReader(open(f)))
    print(os.path.basename(f), "  ".join("%s %s:%s" % (r["variant"], r["m"], r["gbps"][:6]) for r in rows if r["status"] == "ok"),
          "" if all(r["status"] == "ok" for r in rows) else "NOT OK")
PY
