#!/bin/bash
O=/tmp/w; mkdir -p $O
export OPENBLAS_CORETYPE=Cooperlake
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
( mkdir -p /tmp/old && tar xzf .lead/head.tgz -C /tmp/old && cd /tmp/old && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null && cmake --build b -j 8 --target tessel_cli > /dev/null ) > $O/old.log 2>&1 &
OB=$!
cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 && cmake --build build-gt -j 16 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
wait $OB
tO=/tmp/old/b/tessel
c="--device nvidia"
R() { local tag=$1 bin=$2; shift 2; echo "$tag: $*" >> $O/commands.txt; timeout 200 $bin "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
for pr in single double; do for n in 4096 8192; do
  v=; [ $n = 4096 ] && v=--verify
  R N_gemm_${pr}_$n $t gemm --precision $pr --size $n --peers clblast
  R N_symm_${pr}_$n $t blas3 --op symm -m $n -n $n --precision $pr --beta 0.5 $v --peers clblast
  TESSEL_CACHE_DIR=/tmp/old/kc R O_symm_${pr}_$n $tO blas3 --op symm -m $n -n $n --precision $pr --beta 0.5
done; done
R N_symm_single_4096_right $t blas3 --op symm -m 4096 -n 4096 --side right --uplo upper --layout col --beta 0.5 --verify
TESSEL_TRACE=2 $t blas3 --op symm -m 8192 -n 8192 $c --repeat 1 --warmup 1 > /dev/null 2> $O/trace_symm.err
TESSEL_CACHE_DIR=/tmp/old/kc TESSEL_TRACE=2 $tO blas3 --op symm -m 8192 -n 8192 $c --repeat 1 --warmup 1 > /dev/null 2> $O/trace_symm_old.err
{ for a in "symm" "trsm 0 inverse_leaf" "trsm 64 inverse"; do TESSEL_DEVICE=nvidia timeout 200 build-gt/tests/test_level3 $a 2>&1 | tail -1; done; } > $O/test_gpu.txt 2>&1
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os
O=sys.argv[1]
for f in sorted(glob.glob(O+'/r_*.csv')):
    tag=os.path.basename(f)[2:-4]
    for r in csv.DictReader(open(f)):
        print(f"{tag:30s} {r['variant'][:10]:10s} {float(r['kernel_ms']):9.3f} ms {float(r['gflops'])/1000:7.2f} TF {r['status']} {r.get('max_rel_err','')}")
PY
grep -h "symm expansion" $O/trace_symm*.err
cat $O/test_gpu.txt
cd /tmp && tar czf $OUT/res.tgz w
