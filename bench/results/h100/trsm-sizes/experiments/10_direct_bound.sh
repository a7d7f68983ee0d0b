#!/bin/bash
# session 9 step 10: DIRECT = 2 (the FMA path read in place) only up to m n k = 2^30 (N, and 2^31: M)
# against HEAD (O, 2^32), single
O=$OUT/r10; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
FROM='t.direct = ragged && (double)p->m * (double)p->n * (double)p->k <= 1073741824.0;'
patched_tree /tmp/m31 src/ops/gemm_tiled2d.c "$FROM" "t.direct = ragged && (double)p->m * (double)p->n * (double)p->k <= 2147483648.0;" || echo m31 failed
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .lead/head.tgz -C /tmp/old && (cd /tmp/old && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 && cmake --build b -j 16 --target tessel_cli > /dev/null 2>&1) || echo old build failed
c="--device nvidia --repeat 10 --warmup 2 --precision single"
for rep in 1 2; do
  v=; [ $rep = 1 ] && v=--verify
  for tag in O N M; do
    T=$t; K=$TESSEL_CACHE_DIR; [ $tag = O ] && T=/tmp/old/b/tessel && K=/tmp/old/kc; [ $tag = M ] && T=/tmp/m31/b/tessel && K=/tmp/m31/kc
    for shp in "1000 1000 1000" "1100 1100 1100" "1300 1300 1300" "1500 1500 1500" "1600 1600 1600" "1024 4000 1024" "1000 4000 1000" "2000 2000 1000" "2000 1000 2000" "512 4000 1024" "1500 3000 900"; do set -- $shp
      TESSEL_CACHE_DIR=$K $T gemm -m $1 -n $2 -k $3 $c $v --csv $O/g_${1}x${2}x${3}_${tag}_$rep.csv > /dev/null 2>&1
    done
    for s in 1500 2000 3000 4000; do TESSEL_CACHE_DIR=$K $T blas3 --op trsm --size $s $c $v --csv $O/trsm_${s}_${tag}_$rep.csv > /dev/null 2>&1; done
    TESSEL_CACHE_DIR=$K $T blas3 --op trsm -m 4000 -n 4096 $c $v --csv $O/trsm_4000x4096_${tag}_$rep.csv > /dev/null 2>&1
    TESSEL_CACHE_DIR=$K $T blas3 --op trsm -m 3000 -n 2000 --side right --uplo upper --trans t $c $v --csv $O/trsm_rut3000_${tag}_$rep.csv > /dev/null 2>&1
    TESSEL_CACHE_DIR=$K $T blas3 --op trsm --size 4096 $c --csv $O/trsm_4096_${tag}_$rep.csv > /dev/null 2>&1
    [ $rep = 1 ] && for op in trmm syrk symm syr2k; do for s in 2000 4000; do TESSEL_CACHE_DIR=$K $T blas3 --op $op --size $s $c --csv $O/${op}_${s}_${tag}_1.csv > /dev/null 2>&1; done; done
  done
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(lambda: collections.defaultdict(list))
st = set()
for f in sorted(glob.glob(O + '/*.csv')):
    b = os.path.basename(f)[:-4]
    name, tag, rep = b.rsplit('_', 2)
    for r in csv.DictReader(open(f)):
        t[name][tag].append(float(r['kernel_ms'])); st.add(r['status'])
print('%-22s %-20s %-20s %-20s' % ('case (single, ms)', 'O (HEAD, 2^32)', 'N (2^30)', 'M (2^31)'))
for n in sorted(t):
    print('%-22s %-20s %-20s %-20s' % (n, ' '.join('%.3f' % x for x in t[n]['O']), ' '.join('%.3f' % x for x in t[n]['N']), ' '.join('%.3f' % x for x in t[n]['M'])))
print('statuses:', st)
PY
cd $OUT && tar czf res.tgz r10 && rm -rf r10
