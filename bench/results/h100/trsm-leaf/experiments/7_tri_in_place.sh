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
for v in N O; do
  if [ $v = N ]; then b=$t; export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache; else b=$tO; export TESSEL_CACHE_DIR=/tmp/old/kc; fi
  for pr in single double; do for n in 4096 8192; do R ${v}_trsm_${pr}_$n $b blas3 --op trsm -m $n -n $n --precision $pr; done; done
  R ${v}_trsm_single_4096_rec $b blas3 --op trsm -m 4096 -n 4096 --variant inverse_rec
  R ${v}_trsm_single_2048_rec $b blas3 --op trsm -m 2048 -n 2048 --variant inverse_rec
  R ${v}_trsm_double_2048_rec $b blas3 --op trsm -m 2048 -n 2048 --variant inverse_rec --precision double
  R ${v}_syrk_single_4096 $b blas3 --op syrk -n 4096 -k 4096 --beta 0.5
  R ${v}_trmm_single_4096 $b blas3 --op trmm -m 4096 -n 4096
  for s in 4:512 8:256 16:128 100:512 1000:128 10000:32; do R ${v}_batch${s%%:*}x${s##*:} $b gemm --batch ${s%%:*} --size ${s##*:}; done
  R ${v}_dbatch4x512 $b gemm --batch 4 --size 512 --precision double
  TESSEL_TRACE=2 $b blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${v}_s.err
  TESSEL_TRACE=2 $b blas3 --op trsm -m 4096 -n 4096 $c --repeat 1 --warmup 1 --precision double > /dev/null 2> $O/trace_${v}_d.err
done
export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache
{ for a in "trsm 0 inverse_leaf" "trsm 64 inverse_leaf auto auto 16" "trsm 0 inverse_rec" "trsm 128 inverse_rec auto auto 16" "trsm 64 inverse" "batched" "syrk" "trmm" "trsm 0 inverse"; do TESSEL_DEVICE=nvidia timeout 200 build-gt/tests/test_level3 $a 2>&1 | tail -1; done; } > $O/test_gpu.txt 2>&1
python3 - $O <<'PY' | tee $O/summary.txt
import csv,glob,sys,os,re
O=sys.argv[1]
res={}
for f in sorted(glob.glob(O+'/r_*.csv')):
    tag=os.path.basename(f)[2:-4]; v,what=tag.split('_',1)
    for r in csv.DictReader(open(f)):
        res.setdefault(what,{})[v]=(float(r['kernel_ms']),r['status'],float(r['gflops']))
print("%-22s %12s %12s %8s"%("case","new ms","HEAD ms","old/new"))
for what in sorted(res):
    n=res[what].get('N'); o=res[what].get('O')
    print("%-22s %12.4f %12.4f %8.3f %s"%(what, n[0] if n else 0, o[0] if o else 0, (o[0]/n[0]) if n and o else 0, '' if n and n[1]=='ok' else '!'))
for v in "NO":
  for pr in "sd":
    L=open(f'{O}/trace_{v}_{pr}.err').read().split('\n')
    idx=[i for i,l in enumerate(L) if 'upload' in l]
    run=L[idx[-1]+1:] if idx else L
    cat={}
    for l in run:
        m=re.search(r'trace:\s+([\d.]+) us\s+(.*)',l)
        if not m or 'download' in l: continue
        us=float(m.group(1)); name=m.group(2)
        k='doubling' if 'batched' in name else 'inv' if 'l3_tri_inv' in name else 'zero' if 'l3_scale' in name else 'copy' if 'l3_copy' in name else 'pack' if 'pack' in name else 'gemm '+name.split('(gemm_tiled2d)')[-1].strip()
        cat[k]=cat.get(k,0)+us
    print(v,pr, " ".join(f"{k}={u:.0f}" for k,u in sorted(cat.items())), "total=%.0f"%sum(cat.values()))
PY
cat $O/test_gpu.txt; tail -3 $O/err.txt
cd /tmp && tar czf $OUT/res.tgz w
