#!/bin/bash
O=${OUT:-/tmp/out}; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
L='device=nvidia_h100_80gb_hbm3 gemm single any tiled2d:MWG=64,NWG=64,KWG=8,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,DBUF=1,APAD=4,KSPLIT=1 measured=128x4096x128'
S='device=nvidia_h100_80gb_hbm3 gemm single small tiled2d:MWG=64,NWG=64,KWG=8,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,DBUF=1,APAD=4,KSPLIT=1'
( patched_tree /tmp/pb src/tune/defaults.tuning "$L" "$L
$S" ) > $O/pb.log 2>&1 &
PB=$!
( mkdir -p /tmp/old && tar xzf .lead/head.tgz -C /tmp/old && cd /tmp/old && cmake -S . -B b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null && cmake --build b -j 8 --target tessel_cli > /dev/null ) > $O/old.log 2>&1 &
OB=$!
cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 && cmake --build build-gt -j 16 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
wait $PB $OB
tB=/tmp/pb/b/tessel; tO=/tmp/old/b/tessel
c="--device nvidia"
R() { local tag=$1 bin=$2; shift 2; echo "$tag: $*" >> $O/commands.txt; timeout 200 $bin "$@" $c --csv $O/r_$tag.csv > /dev/null 2>>$O/err.txt; }
for pr in single double; do for n in 4096 8192; do R g_${pr}_$n $t gemm --precision $pr --size $n; done; done
for n in 512 1024; do R gsm_A_$n $t gemm --size $n; R gsm_B_$n $tB gemm --size $n; done
for n in 4096 8192; do R trmm_A_$n $t blas3 --op trmm -m $n -n $n; TESSEL_CACHE_DIR=/tmp/old/kc R trmm_O_$n $tO blas3 --op trmm -m $n -n $n; done
R syrk_A_4096 $t blas3 --op syrk -n 4096 -k 4096 --beta 0.5; TESSEL_CACHE_DIR=/tmp/pb/kc R syrk_B_4096 $tB blas3 --op syrk -n 4096 -k 4096 --beta 0.5
for nb in 1024 512; do for ib in 32 64; do R leafA_single_4096_${nb}_$ib $t blas3 --op trsm -m 4096 -n 4096 --variant inverse_leaf --block $nb --inv-block $ib --verify; done; done
for ib in 32 64; do R leafA_single_8192_1024_$ib $t blas3 --op trsm -m 8192 -n 8192 --variant inverse_leaf --block 1024 --inv-block $ib; done
for ib in 32 64; do R leafA_double_4096_1024_$ib $t blas3 --op trsm -m 4096 -n 4096 --precision double --variant inverse_leaf --block 1024 --inv-block $ib --verify; done
R leafA_double_4096_512_32 $t blas3 --op trsm -m 4096 -n 4096 --precision double --variant inverse_leaf --block 512 --inv-block 32
R leafA_double_8192_1024_32 $t blas3 --op trsm -m 8192 -n 8192 --precision double --variant inverse_leaf --block 1024 --inv-block 32
export TESSEL_CACHE_DIR_B=/tmp/pb/kc
for nb in 1024 512; do TESSEL_CACHE_DIR=/tmp/pb/kc R leafB_single_4096_${nb}_32 $tB blas3 --op trsm -m 4096 -n 4096 --variant inverse_leaf --block $nb --inv-block 32; done
TESSEL_CACHE_DIR=/tmp/pb/kc R leafB_single_8192_1024_32 $tB blas3 --op trsm -m 8192 -n 8192 --variant inverse_leaf --block 1024 --inv-block 32
for n in 1024 2048; do R rec_single_$n $t blas3 --op trsm -m $n -n $n --variant inverse_rec; R rec_double_$n $t blas3 --op trsm -m $n -n $n --precision double --variant inverse_rec
  for nb in 256 512 1024; do R leafA_single_${n}_${nb}_32 $t blas3 --op trsm -m $n -n $n --variant inverse_leaf --block $nb --inv-block 32; R leafA_double_${n}_${nb}_32 $t blas3 --op trsm -m $n -n $n --precision double --variant inverse_leaf --block $nb --inv-block 32; done; done
for n in 1024 2048; do R g_single_$n $t gemm --size $n; R g_double_$n $t gemm --size $n --precision double; done
TESSEL_TRACE=2 $t blas3 --op trsm -m 4096 -n 4096 $c --variant inverse_leaf --block 1024 --inv-block 32 --repeat 1 --warmup 1 > /dev/null 2> $O/traceA.err
TESSEL_CACHE_DIR=/tmp/pb/kc TESSEL_TRACE=2 $tB blas3 --op trsm -m 4096 -n 4096 $c --variant inverse_leaf --block 1024 --inv-block 32 --repeat 1 --warmup 1 > /dev/null 2> $O/traceB.err
{ for a in "trsm 0 inverse_leaf" "trsm 64 inverse_leaf auto auto 16" "trmm"; do TESSEL_DEVICE=nvidia timeout 200 build-gt/tests/test_level3 $a 2>&1 | tail -1; done; } > $O/test_gpu.txt 2>&1
python3 - $O <<'PY'
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
    print(f"{tag:32s} {r['variant'][:12]:12s} {float(r['kernel_ms']):8.3f} ms {float(r['gflops'])/1000:6.2f} TF x{float(r['gflops'])/gg if gg else 0:5.3f} {r['status']} {r.get('max_rel_err','')}")
PY
cat $O/test_gpu.txt; tail -3 $O/err.txt
cd $O && tar czf res.tgz r_*.csv *.err *.txt && rm -f r_*.csv *.err
