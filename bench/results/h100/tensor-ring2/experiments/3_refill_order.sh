#!/usr/bin/env bash
# FPIPE refill order: old (HEAD: refill at the tile's end), new (refill right after the barrier, then
# the next tile's fragments), v2 (the next tile's fragments first, then the refill); ptxas of each.
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
rm -rf /tmp/old && mkdir -p /tmp/old && cp -r src cli bench include cmake tests CMakeLists.txt Makefile /tmp/old/ && cp .lead/old/*.cl /tmp/old/src/kernels/
(cmake -S /tmp/old -B /tmp/old/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 && cmake --build /tmp/old/b -j 16 --target tessel_cli > /dev/null 2>&1) || echo OLD BUILD FAILED
FROM='        {
          const int nt = t + ASYNC;
          if (nt < ntile) ASYNC_ISSUE(t % ASYNC, nt)
          CP_COMMIT();
        }
        if (t + 1 < ntile) LOAD_FRAGS(cur ^ 1, Als[(t + 1) % ASYNC], Bls[(t + 1) % ASYNC], 0)'
TO='        if (t + 1 < ntile) LOAD_FRAGS(cur ^ 1, Als[(t + 1) % ASYNC], Bls[(t + 1) % ASYNC], 0)
        {
          const int nt = t + ASYNC;
          if (nt < ntile) ASYNC_ISSUE(t % ASYNC, nt)
          CP_COMMIT();
        }'
patched_tree /tmp/v2 src/kernels/gemm_tiled2d_kernel.cl "$FROM" "$TO" || echo V2 FAILED
c="--device nvidia --repeat 10 --warmup 2"
for rep in 1 2; do
for n in 4096 8192; do
  for k in "--precision half" "--precision bfloat16" "--math tf32"; do
    kk=$(echo $k | awk '{print $2}')
    p=; [ $rep = 1 ] && p="--verify --peers cublas"
    run gemm $k --size $n $c $p --csv $O/${kk}_${n}_new_$rep.csv > /dev/null
    TESSEL_CACHE_DIR=/tmp/old/kc /tmp/old/b/tessel gemm $k --size $n $c --csv $O/${kk}_${n}_old_$rep.csv > /dev/null 2>&1
    TESSEL_CACHE_DIR=/tmp/v2/kc /tmp/v2/b/tessel gemm $k --size $n $c --csv $O/${kk}_${n}_v2_$rep.csv > /dev/null 2>&1
  done
done
done
for tree in new old v2; do
  case $tree in new) kc=$TESSEL_CACHE_DIR;; old) kc=/tmp/old/kc;; v2) kc=/tmp/v2/kc;; esac
  python3 bench/scripts/cache_ptx.py $kc $O/ptx_$tree --entry gemm_tiled2d --ptxas /usr/local/cuda/bin/ptxas > /dev/null 2>&1
  echo "== $tree"; grep -h "MMA=[45]" $O/ptx_$tree/index.txt | sed 's/.*-DMMA=/MMA=/' | cut -c1-220
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        print("%-22s %-8s %6s %8.2f TF err %-10s %s" % (os.path.basename(f)[:-4], r['variant'][:8], r.get('n',''), float(r['gflops'] or 0)/1000, r.get('max_rel_err',''), r['status']))
PY
