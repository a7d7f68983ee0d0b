#!/bin/bash
O=/tmp/w2; rm -rf $O; mkdir -p $O
export OPENBLAS_CORETYPE=Cooperlake
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
( rm -rf /tmp/old && mkdir -p /tmp/old && tar xzf .lead/head.tgz -C /tmp/old && cd /tmp/old && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null && cmake --build b -j 8 --target tessel_cli > /dev/null ) > $O/old.log 2>&1 &
OB=$!
cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 && cmake --build build-gt -j 16 --target test_level3 test_dmma_async > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
wait $OB
tO=/tmp/old/b/tessel
c="--device nvidia"
R() { local tag=$1 bin=$2; shift 2; echo "$tag: $*" >> $O/commands.txt; timeout 200 $bin "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
for rep in 1 2; do
for v in O N; do
  if [ $v = N ]; then b=$t; export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache; else b=$tO; export TESSEL_CACHE_DIR=/tmp/old/kc; fi
  for s in 2048x2048x2048 4096x4096x4096 4097x4097x4097 8192x8192x8192 4096x4096x256 8192x128x8192 128x8192x8192 16384x512x4096; do
    IFS=x read m n k <<< "$s"; R ${v}${rep}_sgemm_$s $b gemm -m $m -n $n -k $k
  done
  for n in 4096 8192; do
    R ${v}${rep}_ssyrk_$n $b blas3 --op syrk -n $n -k $n --beta 0.5
    R ${v}${rep}_ssyr2k_$n $b blas3 --op syr2k -n $n -k $n --beta 0.5
    R ${v}${rep}_dsyrk_$n $b blas3 --op syrk -n $n -k $n --beta 0.5 --precision double
    R ${v}${rep}_strsm_$n $b blas3 --op trsm -m $n -n $n
  done
  R ${v}${rep}_ssymm_8192 $b blas3 --op symm -m 8192 -n 8192 --beta 0.5
  R ${v}${rep}_strmm_4096 $b blas3 --op trmm -m 4096 -n 4096
  R ${v}${rep}_dgemm_4096 $b gemm --size 4096 --precision double
done; done
export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache
R V_sgemm $t gemm --sizes 4097,8192 --verify
R V_ssyrk $t blas3 --op syrk -n 4096 -k 4096 --beta 0.5 --verify
R V_ssyr2k $t blas3 --op syr2k -n 4096 -k 4096 --beta 0.5 --verify
R V_dsyrk $t blas3 --op syrk -n 4096 -k 4096 --beta 0.5 --verify --precision double
for op in symm syrk syr2k; do
  if [ $op = symm ]; then a="-m 8192 -n 8192"; else a="-n 8192 -k 8192"; fi
  R P_${op}_8192 $t blas3 --op $op $a --beta 0.5 --peers clblast,cublas
done
R P_gemm_8192 $t gemm --size 8192 --peers clblast,cublas
{ for a in "syrk" "syr2k" "trsm 0 inverse_leaf" "batched" "symm" "trmm"; do TESSEL_DEVICE=nvidia timeout 200 build-gt/tests/test_level3 $a 2>&1 | tail -1; done
  for q in m1 m2 m3 batch; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_dmma_async $q 2>&1 | tail -1; done; } > $O/test_gpu.txt 2>&1
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os,statistics
O=sys.argv[1]
res={}
rows=[]
for f in sorted(glob.glob(O+'/r_*.csv')):
    tag=os.path.basename(f)[2:-4]
    for r in csv.DictReader(open(f)):
        if tag[0] in 'ON' and tag[1] in '12':
            res.setdefault(tag[3:],{}).setdefault(tag[0],[]).append(float(r['kernel_ms']))
        else: rows.append((tag,r))
print("%-26s %10s %10s %10s %10s %7s"%("case","old1","old2","new1","new2","old/new"))
for k in sorted(res):
    o=res[k].get('O',[0,0]); n=res[k].get('N',[0,0])
    print("%-26s %10.4f %10.4f %10.4f %10.4f %7.3f"%(k,o[0],o[-1],n[0],n[-1],(sum(o)/len(o))/(sum(n)/len(n)) if n and n[0] else 0))
for tag,r in rows:
    print(f"{tag:18s} {r['variant'][:10]:10s} {r['m']}x{r['n']}x{r['k']} {float(r['kernel_ms']):9.3f} ms {float(r['gflops'])/1000:7.2f} TF {r['status']} {r.get('max_rel_err','')}")
PY
cat $O/test_gpu.txt; tail -3 $O/err.txt
cd /tmp && tar czf $OUT/res.tgz w2
