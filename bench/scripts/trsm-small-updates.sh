#!/usr/bin/env bash
# Result: bench/results/h100/level3d/trsm_small_updates.txt. The GEMM shapes of TRSM's small updates
# at 4096 (m = k = 128, 256, 512, n = 4096, beta 1) under the shipped tiles, without split k, and
# under smaller tiles, single and double (kernel time of every launch, the split-k sum included).
#   bash .device/setup.sh && bash bench/scripts/trsm-small-updates.sh OUT
set -u
O=${1:?usage: trsm-small-updates.sh OUT}; mkdir -p $O
source bench/scripts/lib.sh $O > /dev/null
export OPENBLAS_CORETYPE=Cooperlake
S128="MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,DBUF=1,APAD=4,DIRECT=2"
S64="MWG=64,NWG=64,KWG=8,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,DBUF=1,APAD=4"
S64b="MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,DBUF=1,APAD=4"
D64="MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,DBUF=1,APAD=0,MMA=2,DIRECT=2"
D32="MWG=32,NWG=64,KWG=8,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,DBUF=1,APAD=0,MMA=2"
{
for s in 128 256 512; do
  for v in auto "tiled2d:$S128,KSPLIT=1" "tiled2d:$S64,KSPLIT=1" "tiled2d:$S64" "tiled2d:$S64b,KSPLIT=1" "tiled2d:$S64b"; do
    printf "single %4d %-12s " $s "$(echo $v | grep -o 'MWG=[0-9]*,NWG=[0-9]*' | head -1)$(echo $v | grep -o 'KSPLIT=1')$( [ $v = auto ] && echo auto)"
    timeout 60 $t gemm --device nvidia -m $s -n 4096 -k $s --beta 1 --variant "$v" --repeat 20 --warmup 3 --csv - 2>/dev/null | python3 -c 'import csv,sys; r=list(csv.DictReader(sys.stdin))[-1]; print("%8.1f us %8.1f GF" % (float(r["kernel_ms"])*1e3, float(r["gflops"])))'
  done
  for v in auto "tiled2d:$D64,KSPLIT=2" "tiled2d:$D64,KSPLIT=4" "tiled2d:$D32" "tiled2d:$D32,KSPLIT=1"; do
    printf "double %4d %-12s " $s "$(echo $v | grep -o 'MWG=[0-9]*,NWG=[0-9]*' | head -1)$(echo $v | grep -o 'KSPLIT=[0-9]')$( [ $v = auto ] && echo auto)"
    timeout 60 $t gemm --device nvidia -m $s -n 4096 -k $s --precision double --beta 1 --variant "$v" --repeat 20 --warmup 3 --csv - 2>/dev/null | python3 -c 'import csv,sys; r=list(csv.DictReader(sys.stdin))[-1]; print("%8.1f us %8.1f GF" % (float(r["kernel_ms"])*1e3, float(r["gflops"])))'
  done
done
} | tee $O/small_updates.txt
