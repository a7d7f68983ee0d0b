#!/bin/bash
# session 11 call 12: the tuner on the leaves' shape with 64 x 64 tiles only (no store), then the
# best candidate as the few entry (user file) under TRSM 4096 against the shipped entry
O=$OUT/r12; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
echo "tessel tune gemm --precision single --shapes 1024x4096x1024 --fix MWG=64,NWG=64 --budget-s 90 --no-store" >> $O/commands.txt
timeout 140 $t tune gemm --device nvidia --precision single --shapes 1024x4096x1024 --fix MWG=64,NWG=64 --budget-s 90 --no-store --csv $O/tune.csv --repeat 5 --warmup 1 > $O/tune.txt 2>&1
tail -5 $O/tune.txt
best=$(python3 - $O/tune.csv <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['status'] == 'ok' and 'MWG=64,NWG=64' in r['variant']]
rows.sort(key=lambda r: -float(r['gflops']))
for r in rows[:5]: print('%8.1f %s' % (float(r['gflops']), r['variant']), file=sys.stderr)
print(rows[0]['variant'].split(':', 1)[1] if rows else '')
PY
)
echo "best: $best"
[ -z "$best" ] && exit 0
path=$(TESSEL_TUNING_DIR=/tmp/tdir $t tune --show --device nvidia 2>/dev/null | sed -n 's/^tuning database of .*: \(\/.*\.tuning\)$/\1/p' | head -1)
mkdir -p /tmp/td_T; { echo "tessel-tuning 2"; echo "device=nvidia_h100_80gb_hbm3 gemm single few tiled2d:$best source=tuned"; } > /tmp/td_T/$(basename "$path")
for rep in 1 2; do
  run blas3 --op trsm --size 4096 --precision single $c --csv $O/t_4096_A_$rep.csv > /dev/null
  TESSEL_TUNING_DIR=/tmp/td_T run blas3 --op trsm --size 4096 --precision single $c $([ $rep = 1 ] && echo --verify) --csv $O/t_4096_T_$rep.csv > /dev/null
done
run blas3 --op trsm --size 2048 --precision single $c --csv $O/t_2048_A.csv > /dev/null
TESSEL_TUNING_DIR=/tmp/td_T run blas3 --op trsm --size 2048 --precision single $c --verify --csv $O/t_2048_T.csv > /dev/null
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/t_*.csv')):
    b = os.path.basename(f)[:-4]
    b = b.rsplit('_', 1)[0] if b.count('_') == 3 else b
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!' + r['status']))
for b in sorted(t): print('%-16s %s' % (b, ' '.join(t[b])))
PY
cd $OUT && tar czf res.tgz r12 && rm -rf r12
