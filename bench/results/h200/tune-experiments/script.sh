#!/usr/bin/env bash
set -uo pipefail
out=$1; mkdir -p $out
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > $out/cmake.log 2>&1 || { cat $out/cmake.log; exit 1; }
cmake --build build-gpu -j 16 > $out/build.log 2>&1 || { tail -40 $out/build.log; exit 1; }
export TESSEL_CACHE_DIR=$PWD/build-gpu/kcache TESSEL_TUNING_DIR=$PWD/build-gpu/no-user-tuning
t=build-gpu/tessel
S="MWG=128,NWG=256,KWG=16,MDIMC=16,NDIMC=16,VW=2,SA=1,SB=1,PF=1,STRIDED=1,ALIAS=0"
D="MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=32,VW=1,SA=1,SB=1,PF=1,STRIDED=1,ALIAS=0"
for c in "$S,VWA=1,DBUF=0,APAD=1" "$S,VWA=1,DBUF=0,APAD=0" "$S,VWA=4,DBUF=0,APAD=4" "$S,VWA=4,DBUF=0,APAD=0" "$S,VWA=2,DBUF=0,APAD=0" \
         "${S/KWG=16/KWG=8},VWA=1,DBUF=1,APAD=1" "${S/KWG=16/KWG=8},VWA=4,DBUF=1,APAD=4" "${S/KWG=16/KWG=8},VWA=4,DBUF=0,APAD=4" \
         "${S/VW=2/VW=4},VWA=4,DBUF=0,APAD=4" "${S/NWG=256/NWG=128},VWA=4,DBUF=0,APAD=4"; do
  $t gemm --device nvidia --variant "tiled2d:$c" --size 4096 --verify --repeat 10 --warmup 2 --csv - 2>&1 | tail -1 | tee -a $out/hand_single.csv
done
for c in "$D,VWA=1,DBUF=0,APAD=1" "$D,VWA=1,DBUF=1,APAD=1" "$D,VWA=4,DBUF=0,APAD=4" "$D,VWA=2,DBUF=0,APAD=0" "$D,VWA=4,DBUF=1,APAD=4" "${D/KWG=8/KWG=16},VWA=4,DBUF=0,APAD=4"; do
  $t gemm --device nvidia --precision double --variant "tiled2d:$c" --size 4096 --verify --repeat 10 --warmup 2 --csv - 2>&1 | tail -1 | tee -a $out/hand_double.csv
done
$t tune gemm --device nvidia --precision single --shapes 4096 --fix SA=1,SB=1,PF=1,DBUF=1 --budget-s 75 --no-store --csv $out/t_dbuf.csv 2>&1 | tail -3
$t tune gemm --device nvidia --precision single --shapes 4096 --fix SA=1,SB=1,STRIDED=1,VWA=4 --budget-s 75 --no-store --csv $out/t_vwa.csv 2>&1 | tail -3
$t tune gemm --device nvidia --precision double --shapes 4096 --fix SA=1,SB=1,PF=1,DBUF=1 --budget-s 50 --no-store --csv $out/t_ddbuf.csv 2>&1 | tail -3
cd $out && tar czf ../exp.tgz *.csv
