#!/usr/bin/env bash
# Result: bench/results/h100/{tensor-x3,dgemm-async,level3d} (tc_*, d_*, b_*, l3_* CSVs). The shipped
# state after session 4 of 2026-11-25: tensor-core GEMM (3xTF32 remainders unrounded, paired
# epilogue stores) beside cuBLAS; the new DGEMM default against the old one and cuBLAS on squares and
# skinny shapes; Level-3 double and batched double over it.
#   bash .device/setup.sh && bash bench/scripts/h100-after-ring.sh OUT
# paired epilogue), DGEMM's new H100 default (the FP64 ring) against the old one and cuBLAS on the
# square and skinny shapes, Level-3 double and batched double over it.
set -u
export OPENBLAS_CORETYPE=Cooperlake
O=${1:?usage: h100-after-ring.sh OUT}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
OLD="tiled2d:MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,ALIAS=0,DBUF=1,APAD=0,WN=0,MMA=2,KSPLIT=0,DIRECT=2"
c="--device nvidia --repeat 10 --warmup 2"
$t tune --show --device nvidia --precision double > $O/show_double.txt 2>&1
grep -c "ASYNC=2" $O/show_double.txt
# 1. tensor cores, square, beside cuBLAS in the same mode
for n in 4096 8192; do
  for k in "--precision half" "--precision bfloat16" "--math tf32" "--math 3xtf32"; do
    run gemm $k --size $n $c --verify --peers cublas --csv $O/tc_$(echo $k | tr -d ' -')_$n.csv > /dev/null
  done
done
for k in "--precision half" "--math tf32" "--math 3xtf32"; do
  run gemm $k -m 4096 -n 4096 -k 256 $c --verify --peers cublas --csv $O/tc_$(echo $k | tr -d ' -')_4096x4096x256.csv > /dev/null
done
# 2. DGEMM: the new default (auto) and cuBLAS, and the old default, on squares and skinny shapes
for s in 300x300x300 1000x1000x1000 2048x2048x2048 4096x4096x4096 4097x4097x4097 8192x8192x8192 8192x128x8192 128x8192x8192 4096x4096x256; do
  IFS=x read m n k <<< "$s"
  run gemm --precision double -m $m -n $n -k $k $c --verify --peers cublas --csv $O/d_auto_$s.csv > /dev/null
  run gemm --precision double -m $m -n $n -k $k $c --variant "$OLD" --csv $O/d_old_$s.csv > /dev/null
done
# 3. Level-3 double and batched double over the new default
for n in 4096 8192; do
  v=; [ $n = 4096 ] && v=--verify
  run blas3 --op symm -m $n -n $n --precision double $c $v --peers clblast,cublas --beta 0.5 --csv $O/l3_symm_$n.csv > /dev/null
  for op in syrk syr2k; do
    run blas3 --op $op -n $n -k $n --precision double $c $v --peers clblast,cublas --beta 0.5 --csv $O/l3_${op}_$n.csv > /dev/null
  done
  for op in trmm trsm; do
    run blas3 --op $op -m $n -n $n --precision double $c $v --peers clblast,cublas --csv $O/l3_${op}_$n.csv > /dev/null
  done
done
run gemm --precision double --batch 1000 --size 128 $c --verify --peers clblast,cublas --csv $O/b_1000x128.csv > /dev/null
run gemm --precision double --batch 100 --size 512 $c --verify --peers clblast,cublas --csv $O/b_100x512.csv > /dev/null
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys
O = sys.argv[1]
for f in sorted(glob.glob(O + '/*.csv')):
    for r in csv.DictReader(open(f)):
        v = r['variant'] if len(r['variant']) < 24 else r['variant'][:21] + '...'
        print("%-34s %-24s %-9s %6s %6s %6s %10.1f GF  err %-10s %s" % (os.path.basename(f)[:-4], v, r['precision'], r['m'], r['n'], r['k'], float(r['gflops'] or 0), r['max_rel_err'], r['status']))
PY
