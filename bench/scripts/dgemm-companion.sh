#!/usr/bin/env bash
# Result: bench/results/h100/dgemm-async (companion.txt, test_gpu.txt). DGEMM's H100 default (the FP64
# ring with DIRECT=2: small ragged problems on its register-staged companion) against the old MMA=2
# configuration and the ring alone (DIRECT=0) on small and ragged cubes, beside cuBLAS; then the
# test binaries test_dmma_async, test_tensor and test_level3 (double over the ring) on the real PTX.
#   bash .device/setup.sh && bash bench/scripts/dgemm-companion.sh OUT
set -u
O=${1:?usage: dgemm-companion.sh OUT}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
OLD="tiled2d:MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,ALIAS=0,DBUF=1,APAD=0,WN=0,MMA=2,KSPLIT=0,DIRECT=2"
RING0="tiled2d:MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,ALIAS=0,DBUF=0,APAD=0,WN=0,MMA=3,KSPLIT=0,DIRECT=0,PEEL=0,ASYNC=2,FPIPE=0,BT=0"
c="--device nvidia --repeat 20 --warmup 3"
g() { python3 -c 'import csv,sys; r=list(csv.DictReader(sys.stdin)); print(" ".join("%s %.1f %s" % (x["variant"][:6], float(x["gflops"] or 0), x["status"]) for x in r))'; }
for s in 32x32x32 64x64x64 100x100x100 128x128x128 200x200x200 256x256x256 300x300x300 500x500x500 512x512x512 700x700x700 1000x1000x1000 1024x1024x1024 4097x4097x4097; do
  IFS=x read m n k <<< "$s"
  a=$(run gemm --precision double -m $m -n $n -k $k $c --verify --peers cublas --csv - | g)
  b=$(run gemm --precision double -m $m -n $n -k $k $c --variant "$OLD" --csv - | g)
  r=$(run gemm --precision double -m $m -n $n -k $k $c --variant "$RING0" --csv - | g)
  echo "$s  $a  old: $b  ring-only: $r"
done | tee $O/companion.txt
# the PoCL test binaries on the real PTX: the FP64 ring and the tensor kinds
cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 && cmake --build build-gt -j 16 --target test_dmma_async test_tensor test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log
export TESSEL_DEVICE=nvidia
S="tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,DBUF=1,APAD=1,DIRECT=2"
D=$(grep -o 'L3_GEMM_DOUBLE_ASYNC "[^"]*"' tests/level3.cmake | cut -d'"' -f2)
{ for p in m1 m2 m3 batch; do timeout 120 build-gt/tests/test_dmma_async $p 2>&1 | tail -1; done
  for k in half tf32 3xtf32; do timeout 120 build-gt/tests/test_tensor $k 2>&1 | tail -1; done
  for r in syrk trmm trsm; do timeout 120 build-gt/tests/test_level3 $r 16 auto "$S" "$D" 2>&1 | tail -1; done; } | tee $O/test_gpu.txt
