#!/bin/bash
# TRSM inverse_leaf: correctness on the GPU, then timings beside inverse_rec and GEMM
O=${OUT:-/tmp/out}; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O
cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 && cmake --build build-gt -j 16 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
{ for a in "0 inverse_leaf" "64 inverse_leaf auto auto 16" "512 inverse_leaf"; do TESSEL_DEVICE=nvidia timeout 200 build-gt/tests/test_level3 trsm $a 2>&1 | tail -2; done; } > $O/test_gpu.txt 2>&1 &
TP=$!
c="--device nvidia"
for pr in single double; do
  for n in 4096 8192; do
    v=; [ $n = 4096 ] && v=--verify
    run gemm --precision $pr --size $n $c --csv $O/g_${pr}_$n.csv > /dev/null
    run blas3 --op trsm -m $n -n $n --precision $pr $c --variant inverse_rec --csv $O/rec_${pr}_$n.csv > /dev/null
    for b in 512 1024 2048; do
      run blas3 --op trsm -m $n -n $n --precision $pr $c $v --variant inverse_leaf --block $b --csv $O/leaf${b}_${pr}_$n.csv > /dev/null
    done
  done
done
TESSEL_TRACE=2 $t blas3 --op trsm -m 4096 -n 4096 $c --variant inverse_leaf --block 1024 --repeat 1 --warmup 1 > /dev/null 2> $O/trace_leaf1024_4096.err
TESSEL_TRACE=2 $t blas3 --op trsm -m 4096 -n 4096 $c --variant inverse_leaf --block 1024 --repeat 1 --warmup 1 --precision double > /dev/null 2> $O/trace_leaf1024_4096_d.err
wait $TP
python3 - $O <<'PY'
import csv,glob,sys,os
O=sys.argv[1]
g={}
for f in glob.glob(O+'/g_*.csv'):
    r=list(csv.DictReader(open(f)))[0]; pr,n=os.path.basename(f)[2:-4].split('_'); g[(pr,n)]=float(r['gflops'])
for f in sorted(glob.glob(O+'/*.csv')):
    b=os.path.basename(f)
    if b.startswith('g_'): continue
    for r in csv.DictReader(open(f)):
        pr,n=r['precision'],r['m']
        gg=g.get((pr,n),0)
        print(f"{b:28s} {r['variant'][:14]:14s} {pr:6s} {n:5s} {float(r['kernel_ms']):8.3f} ms {float(r['gflops'])/1000:6.1f} TF  x{float(r['gflops'])/gg if gg else 0:5.3f} GEMM({gg/1000:.1f}) {r['status']} {r['max_rel_err']}")
PY
cat $O/test_gpu.txt
cd $O && tar czf res.tgz *.csv *.err *.txt && rm -f *.csv *.err
