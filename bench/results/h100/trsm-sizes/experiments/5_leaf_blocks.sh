#!/bin/bash
# session 9 step 5: TRSM below ka = 4096, where auto takes inverse_rec: inverse_leaf's blocks and
# parts against it, every size beside tessel's GEMM
O=$OUT/r5; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
export OPENBLAS_CORETYPE=Cooperlake
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
for p in single double; do
  for s in 1000 1500 2000 2048 3000 4000 4096; do
    run gemm --size $s --precision $p $c --csv $O/gemm_${p}_$s.csv > /dev/null
    v=; [ $s = 4000 ] || [ $s = 1500 ] && v=--verify
    run blas3 --op trsm --size $s --precision $p $c $v --variant inverse_rec --csv $O/rec_${p}_$s.csv > /dev/null
    run blas3 --op trsm --size $s --precision $p $c $v --variant inverse_leaf --csv $O/leaf_${p}_$s.csv > /dev/null
    for b in 256 512 1024; do run blas3 --op trsm --size $s --precision $p $c --variant inverse_leaf --block $b --csv $O/leafb${b}_${p}_$s.csv > /dev/null; done
    for st in 1 2; do run blas3 --op trsm --size $s --precision $p $c --variant inverse_leaf --block 1024 --streams $st --csv $O/leafb1024s${st}_${p}_$s.csv > /dev/null; done
  done
  for mn in "4000 4096" "4096 4000" "4096 2048" "2048 4096" "4096 1024"; do set -- $mn
    for st in 1 2; do run blas3 --op trsm -m $1 -n $2 --precision $p $c --variant inverse_leaf --block 1024 --streams $st --csv $O/rect_${p}_${1}x${2}_s$st.csv > /dev/null; done
    run blas3 --op trsm -m $1 -n $2 --precision $p $c --csv $O/rect_${p}_${1}x${2}_auto.csv > /dev/null
  done
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
rows = collections.defaultdict(dict)
bad = []
for f in glob.glob(O + '/*.csv'):
    b = os.path.basename(f)[:-4]
    for r in csv.DictReader(open(f)):
        if r['status'] != 'ok': bad.append((b, r['status']))
        parts = b.split('_')
        if parts[0] == 'rect':
            rows[(parts[1], parts[2])][parts[3]] = float(r['kernel_ms'])
        else:
            rows[(parts[1], int(parts[2]))][parts[0]] = float(r['kernel_ms'])
cols = ['gemm', 'rec', 'leaf', 'leafb256', 'leafb512', 'leafb1024', 'leafb1024s1', 'leafb1024s2']
print('TRSM ms (x GEMM: GEMM ms / (2 x TRSM ms) at the same size)')
print('%-8s %5s ' % ('prec', 'size') + ' '.join('%11s' % c for c in cols))
for k in sorted(k for k in rows if isinstance(k[1], int)):
    r = rows[k]; g = r.get('gemm')
    cells = []
    for c in cols:
        v = r.get(c)
        cells.append('%11s' % ('-' if v is None else ('%.3f' % v if c == 'gemm' else '%.3f/%.2f' % (v, g / (2 * v)))))
    print('%-8s %5d ' % k + ' '.join(cells))
for k in sorted(k for k in rows if not isinstance(k[1], int)):
    print('%-8s %-10s ' % k + ' '.join('%s=%.3f' % (c, v) for c, v in sorted(rows[k].items())))
print('not ok:', bad)
PY
cd $OUT && tar czf res.tgz r5 && rm -rf r5
