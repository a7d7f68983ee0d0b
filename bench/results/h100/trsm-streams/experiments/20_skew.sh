#!/bin/bash
# session 7 experiment 20: part i runs i steps behind part 0 (N: the tree) against HEAD (O;
# .lead/head.tgz was `git archive HEAD` of the tree before the change)
O=/tmp/w20; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .lead/head.tgz -C /tmp/old && (cd /tmp/old && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null && cmake --build b -j 16 --target tessel_cli > /dev/null 2>&1) || echo "old build failed"
c="--device nvidia"
R() { local tag=$1 bin=$2; shift 2; echo "$tag: $*" >> $O/commands.txt; timeout 200 $bin "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
for round in 1 2; do
for v in O N; do
  if [ $v = N ]; then b=$t; export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache; else b=/tmp/old/b/tessel; export TESSEL_CACHE_DIR=/tmp/old/kc; fi
  for pr in single double; do
    R ${v}_${pr}_4096_s2_$round $b blas3 --op trsm -m 4096 -n 4096 --precision $pr --streams 2
    R ${v}_${pr}_4096_s4_$round $b blas3 --op trsm -m 4096 -n 4096 --precision $pr --streams 4
    R ${v}_${pr}_4096r_s2_$round $b blas3 --op trsm -m 4096 -n 4096 --precision $pr --streams 2 --side right --uplo upper --trans t
    R ${v}_${pr}_8192_s2_$round $b blas3 --op trsm -m 8192 -n 8192 --precision $pr --streams 2
  done
done; done
R N_single_check_1 $t blas3 --op trsm -m 4096 -n 4096 --verify
R N_double_check_1 $t blas3 --op trsm -m 4096 -n 4096 --verify --precision double --side right --uplo upper --trans t --streams 4
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os
O=sys.argv[1]
res={}
for f in sorted(glob.glob(O+'/r_*.csv')):
    tag=os.path.basename(f)[2:-4]; v,rest=tag.split('_',1); case,rnd=rest.rsplit('_',1)
    for r in csv.DictReader(open(f)):
        res.setdefault(case,{}).setdefault(v,[]).append((float(r['kernel_ms']),r['status'],r.get('max_rel_err','')))
for case in sorted(res):
    print("%-20s"%case, "  ".join("%s: %s"%(v," ".join("%.4f%s"%(x[0],'' if x[1]=='ok' else '!') for x in res[case][v])) for v in sorted(res[case])))
PY
cd /tmp && tar czf $OUT/res.tgz w20
