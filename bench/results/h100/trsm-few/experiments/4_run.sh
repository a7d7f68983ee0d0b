#!/bin/bash
# session 10 call 4: the ragged block's levels beside the first steps (d00e8ea) against 8ef6c04;
# the "few" class's candidates on the new tree; GPU tests with 1-4 parts
O=$OUT/r4; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
( mkdir -p /tmp/old && tar xzf .lead/s10/base4.tgz -C /tmp/old &&
  cmake -S /tmp/old -B /tmp/old/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 &&
  cmake --build /tmp/old/b -j 8 --target tessel_cli > $O/build-old.log 2>&1 || tail -5 $O/build-old.log ) &
( cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 8 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log ) &
wait
old=/tmp/old/b/tessel
c="--device nvidia --repeat 10 --warmup 2"
cases=("1000 1000" "1500 1500" "2000 2000" "3000 3000" "4000 4000" "4096 4096" "4000 3000" "3000 2000 --side right --uplo upper --trans t" "3000 2000 --uplo upper" "777 1234 --uplo upper --diag unit --layout col")
for rep in 1 2; do for p in single double; do for cs in "${cases[@]}"; do
  set -- $cs; m=$1; n=$2; shift 2; tag=$(echo "${m}x${n}$*" | tr -d ' -')
  TESSEL_CACHE_DIR=/tmp/old/kc timeout 200 $old blas3 --op trsm -m $m -n $n $* --precision $p $c --csv $O/t_${p}_${tag}_old_$rep.csv > /dev/null 2>&1
  run blas3 --op trsm -m $m -n $n $* --precision $p $c $([ $rep = 1 ] && echo --verify) --csv $O/t_${p}_${tag}_new_$rep.csv > /dev/null
done; done; done
F0="MWG=64,NWG=64,KWG=8,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
F3="MWG=32,NWG=32,KWG=16,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
F4="MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
F5="MWG=64,NWG=64,KWG=16,MDIMC=16,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
F6="MWG=64,NWG=64,KWG=32,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
F7="MWG=64,NWG=128,KWG=16,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
F8="MWG=32,NWG=64,KWG=16,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
path=$(TESSEL_TUNING_DIR=/tmp/tdir $t tune --show --device nvidia 2>/dev/null | sed -n 's/^tuning database of .*: \(\/.*\.tuning\)$/\1/p' | head -1)
for f in F0 F3 F4 F5 F6 F7 F8; do
  mkdir -p /tmp/tdir_$f
  { echo "tessel-tuning 2"; echo "device=nvidia_h100_80gb_hbm3 gemm single few tiled2d:${!f} source=$f"; } > /tmp/tdir_$f/$(basename "$path")
done
for rep in 1 2; do for n in 1000 2048 3000 4000 4096; do for f in F0 F3 F4 F5 F6 F7 F8; do
  TESSEL_TUNING_DIR=/tmp/tdir_$f run blas3 --op trsm -m $n -n $n --precision single $c --csv $O/f_${n}_${f}_$rep.csv > /dev/null
done; done; done
for f in F0 F4 F6; do TESSEL_TUNING_DIR=/tmp/tdir_$f TESSEL_TRACE=2 $t blas3 --op trsm -m 4096 -n 4096 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_4096_$f.err; done
for p in single double; do TESSEL_TRACE=2 $t blas3 --op trsm -m 4000 -n 4000 --precision $p --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_${p}_4000.err; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/[tf]_*.csv')):
    b = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!'))
for b in sorted(t): print('%-40s %s' % (b, ' '.join(t[b])))
PY
{ for st in 0 1 2 3 4; do TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 0 auto auto auto 0 $st 2>&1 | tail -1; done
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 512 inverse_leaf auto auto 0 2 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 128 inverse_leaf auto auto 16 1 2>&1 | tail -1; } > $O/test_gpu.txt 2>&1
cat $O/test_gpu.txt
cd $OUT && tar czf res.tgz r4 && rm -rf r4
