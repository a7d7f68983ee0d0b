#!/usr/bin/env bash
# FPIPE's ring lead (ASYNC-2 -> ASYNC-1 tiles): new tree against the old kernels, same run; plus Level-3 single 8192.
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
rm -rf /tmp/old && mkdir -p /tmp/old && cp -r src cli bench include cmake tests CMakeLists.txt Makefile /tmp/old/ && cp .lead/old/*.cl /tmp/old/src/kernels/
(cmake -S /tmp/old -B /tmp/old/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 && cmake --build /tmp/old/b -j 16 --target tessel_cli > /dev/null 2>&1) || echo OLD BUILD FAILED
old=/tmp/old/b/tessel
B="VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,ALIAS=0,DBUF=0,APAD=0,WN=0,KSPLIT=0,DIRECT=0,PEEL=0"
c="--device nvidia --repeat 10 --warmup 2"
for n in 4096 8192; do
  v=; [ $n = 4096 ] && v=--verify
  for k in "--precision half" "--precision bfloat16" "--math tf32" "--math 3xtf32"; do
    kk=$(echo $k | awk '{print $2}')
    run gemm $k --size $n $c --verify --peers cublas --csv $O/${kk}_${n}_new.csv > /dev/null
    TESSEL_CACHE_DIR=/tmp/old/kc $old gemm $k --size $n $c $v --csv $O/${kk}_${n}_old.csv > /dev/null 2>&1
    run gemm $k --size $n $c --csv $O/${kk}_${n}_new2.csv > /dev/null
    TESSEL_CACHE_DIR=/tmp/old/kc $old gemm $k --size $n $c --csv $O/${kk}_${n}_old2.csv > /dev/null 2>&1
  done
  for h in "MWG=128,NWG=128,KWG=32,MDIMC=8,NDIMC=16,MMA=4,ASYNC=2,FPIPE=1" "MWG=128,NWG=128,KWG=16,MDIMC=8,NDIMC=16,MMA=4,ASYNC=4,FPIPE=1" "MWG=128,NWG=128,KWG=32,MDIMC=8,NDIMC=16,MMA=4,ASYNC=3,FPIPE=1,BT=1"; do
    run gemm --precision half --size $n $c $v --variant "tiled2d:$B,$h" --csv $O/halfv_${n}_$(echo $h | md5sum | cut -c1-6).csv > /dev/null
  done
  for h in "MWG=128,NWG=128,KWG=16,MDIMC=8,NDIMC=16,MMA=5,ASYNC=2,FPIPE=1,BT=1" "MWG=128,NWG=128,KWG=8,MDIMC=8,NDIMC=16,MMA=5,ASYNC=4,FPIPE=1,BT=1" "MWG=128,NWG=128,KWG=32,MDIMC=8,NDIMC=16,MMA=5,ASYNC=2,FPIPE=1,BT=1"; do
    run gemm --math tf32 --size $n $c $v --variant "tiled2d:$B,$h" --csv $O/tf32v_${n}_$(echo $h | md5sum | cut -c1-6).csv > /dev/null
  done
  for h in "MWG=128,NWG=128,KWG=8,MDIMC=8,NDIMC=16,MMA=5,ASYNC=4,FPIPE=1" "MWG=128,NWG=128,KWG=16,MDIMC=8,NDIMC=16,MMA=5,ASYNC=2,FPIPE=1" "MWG=128,NWG=128,KWG=8,MDIMC=8,NDIMC=16,MMA=5,ASYNC=3,FPIPE=1"; do
    run gemm --math 3xtf32 --size $n $c $v --variant "tiled2d:$B,$h" --csv $O/x3v_${n}_$(echo $h | md5sum | cut -c1-6).csv > /dev/null
  done
  run gemm --precision double --size $n $c $v --peers cublas --csv $O/double_${n}_auto.csv > /dev/null
  for h in "MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=8,MMA=3,ASYNC=2,FPIPE=1" "MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=8,MMA=3,ASYNC=3,FPIPE=1"; do
    run gemm --precision double --size $n $c $v --variant "tiled2d:$B,$h" --csv $O/dv_${n}_$(echo $h | md5sum | cut -c1-6).csv > /dev/null
  done
done
# Level-3 single at 8192 beside CLBlast and cuBLAS, GEMM NN / NT
n=8192
run gemm --size $n $c --peers clblast,cublas --csv $O/l3_gemm_nn.csv > /dev/null
run gemm --size $n $c --transb t --csv $O/l3_gemm_nt.csv > /dev/null
run blas3 --op symm -m $n -n $n $c --peers clblast,cublas --beta 0.5 --csv $O/l3_symm.csv > /dev/null
for op in syrk syr2k; do run blas3 --op $op -n $n -k $n $c --peers clblast,cublas --beta 0.5 --csv $O/l3_$op.csv > /dev/null; done
run blas3 --op trsm -m $n -n $n $c --peers cublas --csv $O/l3_trsm.csv > /dev/null
TESSEL_TRACE=2 $t blas3 --op trsm -m $n -n $n --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trsm8192_trace.err
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        v = r['variant'] if len(r['variant']) < 12 else '..'+r['variant'][-44:]
        print("%-22s %-46s %6s %8.2f TF err %-10s %s" % (os.path.basename(f)[:-4], v, r.get('n',''), float(r['gflops'] or 0)/1000, r.get('max_rel_err',''), r['status']))
PY
