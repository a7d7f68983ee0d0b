#!/bin/bash
# session 11 call 10: TRSM's leaves with split k (TRI modes split where the configuration's
# KSPLIT says; the few class looked up by shape), user entries for the leaves' shapes only
O=$OUT/r10; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
( cmake -S . -B build-gt -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=ON > $O/cmake-t.log 2>&1 &&
  cmake --build build-gt -j 8 --target test_level3 > $O/build-t.log 2>&1 || tail -5 $O/build-t.log ) &
source bench/scripts/lib.sh $O > /dev/null
wait
c="--device nvidia --repeat 10 --warmup 2"
FB="MWG=64,NWG=64,KWG=32,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=0,APAD=4,WN=0,KSPLIT=2,DIRECT=2"
FC="MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=2,DIRECT=2"
FD="MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=4,DIRECT=2"
path=$(TESSEL_TUNING_DIR=/tmp/tdir $t tune --show --device nvidia 2>/dev/null | sed -n 's/^tuning database of .*: \(\/.*\.tuning\)$/\1/p' | head -1)
for f in FB FC FD; do mkdir -p /tmp/td_$f; { echo "tessel-tuning 2"; echo "device=nvidia_h100_80gb_hbm3 gemm single few tiled2d:${!f} measured=1024x2048x1024+1024x4096x1024"; } > /tmp/td_$f/$(basename "$path"); done
{ for f in FB FC; do
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 64 inverse_leaf "tiled2d:${!f}" auto 16 2 2>&1 | tail -1
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trmm 16 auto "tiled2d:${!f}" auto 2>&1 | tail -1; done
  TESSEL_DEVICE=nvidia timeout 120 build-gt/tests/test_level3 trsm 2>&1 | tail -1; } > $O/test_gpu.txt 2>&1
cat $O/test_gpu.txt
run gemm --size 4096 --precision single $c --csv $O/g_4096.csv > /dev/null
for rep in 1 2; do for st in 2 1; do
  run blas3 --op trsm --size 4096 --streams $st --precision single $c --csv $O/t_s${st}_A_$rep.csv > /dev/null
  for f in FB FC FD; do TESSEL_TUNING_DIR=/tmp/td_$f run blas3 --op trsm --size 4096 --streams $st --precision single $c $([ $rep = 1 ] && echo --verify) --csv $O/t_s${st}_${f}_$rep.csv > /dev/null; done
done; done
for f in FB FC FD; do TESSEL_TUNING_DIR=/tmp/td_$f run blas3 --op trsm --size 4000 --precision single $c --verify --csv $O/u_4000_${f}.csv > /dev/null; done
run blas3 --op trsm --size 4000 --precision single $c --csv $O/u_4000_A.csv > /dev/null
for f in FC FD; do TESSEL_TUNING_DIR=/tmp/td_$f TESSEL_TRACE=3 $t blas3 --op trsm --size 4096 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace3_$f.err; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/[gtu]_*.csv')):
    b = os.path.basename(f)[:-4]
    if b.startswith('t_'): b = b.rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!' + r['status']))
for b in sorted(t): print('%-28s %s' % (b, ' '.join(t[b])))
PY
for f in $O/trace3_*.err; do python3 .lead/s10/tl.py $f > ${f%.err}.tl.txt 2>&1; head -14 ${f%.err}.tl.txt; done
cd $OUT && tar czf res.tgz r10 && rm -rf r10
