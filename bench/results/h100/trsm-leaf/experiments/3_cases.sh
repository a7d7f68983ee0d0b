#!/bin/bash
O=/tmp/w; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
( mkdir -p /tmp/old && tar xzf .lead/head.tgz -C /tmp/old && cd /tmp/old && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null && cmake --build b -j 8 --target tessel_cli > /dev/null ) > $O/old.log 2>&1 &
OB=$!
cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 && cmake --build build-gt -j 16 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
wait $OB
tO=/tmp/old/b/tessel
c="--device nvidia"
R() { local tag=$1 bin=$2; shift 2; echo "$tag: $*" >> $O/commands.txt; timeout 200 $bin "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
for pr in single double; do for n in 4096 8192; do R g_${pr}_$n $t gemm --precision $pr --size $n; done; done
for n in 4096 8192; do R trmm_A_$n $t blas3 --op trmm -m $n -n $n; TESSEL_CACHE_DIR=/tmp/old/kc R trmm_O_$n $tO blas3 --op trmm -m $n -n $n; done
for pr in single double; do for n in 4096 8192; do
  v=; [ $n = 4096 ] && v=--verify
  R trsm_${pr}_$n $t blas3 --op trsm -m $n -n $n --precision $pr $v --peers clblast,cublas
  TESSEL_CACHE_DIR=/tmp/old/kc R trsmO_${pr}_$n $tO blas3 --op trsm -m $n -n $n --precision $pr
done; done
for o in "--side right" "--uplo upper" "--trans t" "--side right --uplo upper --trans t --diag unit"; do
  tg=$(echo $o | tr -d ' -'); for v in inverse_leaf inverse_rec; do R var_${tg}_$v $t blas3 --op trsm -m 4096 -n 4096 $o --verify --variant $v; done
done
for v in inverse_leaf inverse_rec; do
R skinny_$v $t blas3 --op trsm -m 4096 -n 128 --variant $v
R skinny_d_$v $t blas3 --op trsm -m 4096 -n 128 --variant $v --precision double
R d2048_$v $t blas3 --op trsm -m 2048 -n 2048 --variant $v --precision double
done
TESSEL_TRACE=2 $t blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 > /dev/null 2> $O/traceS.err
TESSEL_TRACE=2 $t blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 --precision double > /dev/null 2> $O/traceD.err
{ for a in "trsm 0 inverse_leaf" "trsm 64 inverse_leaf auto auto 16" "trsm 0"; do TESSEL_DEVICE=nvidia timeout 200 build-gt/tests/test_level3 $a 2>&1 | tail -1; done; } > $O/test_gpu.txt 2>&1
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os
O=sys.argv[1]
g={}
rows=[]
for f in sorted(glob.glob(O+'/r_*.csv')):
    tag=os.path.basename(f)[2:-4]
    for r in csv.DictReader(open(f)):
        rows.append((tag,r))
        if tag.startswith('g_'): g[(r['precision'],r['m'])]=float(r['gflops'])
for tag,r in rows:
    gg=g.get((r['precision'],r['m']),0)
    print(f"{tag:28s} {r['variant'][:12]:12s} {r['m']}x{r['n']} {float(r['kernel_ms']):8.3f} ms {float(r['gflops'])/1000:6.2f} TF x{float(r['gflops'])/gg if gg else 0:5.3f} {r['status']} {r.get('max_rel_err','')}")
PY
cat $O/test_gpu.txt; tail -3 $O/err.txt
cd /tmp && tar czf $OUT/res.tgz w
