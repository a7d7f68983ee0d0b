#!/bin/bash
O=/tmp/w; mkdir -p $O
export OPENBLAS_CORETYPE=Cooperlake
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
F=src/kernels/gemm_tiled2d_kernel.cl
( patched_tree /tmp/pb $F "#if ASYNC && !TRI
  // Launch order" "#if !TRI
  // Launch order" && python3 - /tmp/pb/$F <<'PY'
import sys
p=sys.argv[1]; s=open(p).read()
a="#if ASYNC && !TRI\n#elif TRI == 6"
assert a in s
s=s.replace(a,"#if !TRI\n#elif TRI == 6",1)
open(p,'w').write(s)
PY
  cmake --build /tmp/pb/b -j 8 --target tessel_cli > /dev/null ) > $O/pb.log 2>&1
tB=/tmp/pb/b/tessel
c="--device nvidia"
R() { local tag=$1 bin=$2; shift 2; echo "$tag: $*" >> $O/commands.txt; timeout 200 $bin "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
for rep in 1 2; do
for v in A B; do
  if [ $v = A ]; then b=$t; export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache; else b=$tB; export TESSEL_CACHE_DIR=/tmp/pb/kc; fi
  for n in 4096 8192; do R ${v}${rep}_sgemm_$n $b gemm --size $n; done
  R ${v}${rep}_sgemm_8192b $b gemm --size 8192 --beta 0.5
  R ${v}${rep}_dgemm_4096 $b gemm --size 4096 --precision double
  R ${v}${rep}_syrk_8192 $b blas3 --op syrk -n 8192 -k 8192 --beta 0.5
  R ${v}${rep}_symm_8192 $b blas3 --op symm -m 8192 -n 8192 --beta 0.5
  R ${v}${rep}_sgemm_6144 $b gemm --size 6144
done; done
R B_verify $tB gemm --size 4097 --verify
R B_verify8 $tB gemm --size 8192 --verify
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os
O=sys.argv[1]
res={}
for f in sorted(glob.glob(O+'/r_*.csv')):
    tag=os.path.basename(f)[2:-4]
    for r in csv.DictReader(open(f)):
        print(f"{tag:24s} {r['variant'][:10]:10s} {float(r['kernel_ms']):9.3f} ms {float(r['gflops'])/1000:7.2f} TF {r['status']} {r.get('max_rel_err','')}")
PY
cat $O/pb.log | tail -3
cd /tmp && tar czf $OUT/res.tgz w
