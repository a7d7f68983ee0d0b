#!/bin/bash
# session 7 experiment 21: l3_tri_inv2x (N: the tree) against the tree before (O); GPU tests
O=/tmp/w21; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .lead/head.tgz -C /tmp/old && (cd /tmp/old && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null && cmake --build b -j 16 --target tessel_cli > /dev/null 2>&1) || echo "old build failed"
( cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > /dev/null && cmake --build build-gt -j 16 --target test_level3 > /dev/null ) 2>&1 | grep -v Warn | tail -2
{ for st in 1 2 4; do TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 0 inverse_leaf auto auto 0 $st 2>&1 | tail -1; done
  for v in auto inverse inverse_rec blocked; do TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 16 $v auto auto 16 2>&1 | tail -1; TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 128 $v 2>&1 | tail -1; done
  TESSEL_DEVICE=nvidia timeout 300 build-gt/tests/test_level3 trsm 64 inverse_leaf auto auto 32 2>&1 | tail -1; } > $O/test_gpu.txt 2>&1
cat $O/test_gpu.txt
c="--device nvidia"
R() { local tag=$1 bin=$2; shift 2; echo "$tag: $*" >> $O/commands.txt; timeout 200 $bin "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
for round in 1 2; do
for v in O N; do
  if [ $v = N ]; then b=$t; export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache; else b=/tmp/old/b/tessel; export TESSEL_CACHE_DIR=/tmp/old/kc; fi
  for pr in single double; do
    R ${v}_${pr}_4096_$round $b blas3 --op trsm -m 4096 -n 4096 --precision $pr --verify
    R ${v}_${pr}_4096r_$round $b blas3 --op trsm -m 4096 -n 4096 --precision $pr --side right --uplo upper --trans t --verify
    R ${v}_${pr}_8192_$round $b blas3 --op trsm -m 8192 -n 8192 --precision $pr
    R ${v}_${pr}_2048_$round $b blas3 --op trsm -m 2048 -n 2048 --precision $pr --verify
  done
done; done
R N_single_gemm_1 $t gemm --size 4096
R N_double_gemm_1 $t gemm --size 4096 --precision double
for pr in single double; do TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision $pr --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${pr}.err; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os
O=sys.argv[1]
res={}
for f in sorted(glob.glob(O+'/r_*.csv')):
    tag=os.path.basename(f)[2:-4]; v,rest=tag.split('_',1); case,rnd=rest.rsplit('_',1)
    for r in csv.DictReader(open(f)):
        res.setdefault(case,{}).setdefault(v,[]).append((float(r['kernel_ms']),r['status'],r.get('max_rel_err','')))
for case in sorted(res):
    print("%-20s"%case, "  ".join("%s: %s"%(v," ".join("%.4f%s %s"%(x[0],'' if x[1]=='ok' else '!', x[2]) for x in res[case][v])) for v in sorted(res[case])))
PY
for pr in single double; do grep -E "l3_tri_inv|batched" $O/trace_${pr}.err | tail -8 | cut -c16-100; done
cd /tmp && tar czf $OUT/res.tgz w21
