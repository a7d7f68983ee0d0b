#!/bin/bash
# session 11 call 8: the few class looked up by shape; 32 x 32 few entries for the doubling's
# batches (user tuning files, measured= the doubling's problems) against none
O=$OUT/r8; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
( rm -rf /tmp/mid && mkdir -p /tmp/mid && tar xzf .lead/s11/base3.tgz -C /tmp/mid &&
  cmake -S /tmp/mid -B /tmp/mid/b -DCMAKE_BUILD_TYPE=Release -DTESSEL_BUILD_TESTS=OFF > /dev/null 2>&1 &&
  cmake --build /tmp/mid/b -j 6 --target tessel_cli > $O/build-mid.log 2>&1 || tail -5 $O/build-mid.log ) &
source bench/scripts/lib.sh $O > /dev/null
wait
mid() { echo "MID tessel $*" >> $O/commands.txt; TESSEL_CACHE_DIR=/tmp/mid/kc timeout 200 /tmp/mid/b/tessel "$@" 2>&1 | grep -vE '^\s*$'; }
c="--device nvidia --repeat 10 --warmup 2"
F1="MWG=32,NWG=32,KWG=8,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
F3="MWG=32,NWG=32,KWG=16,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
F5="MWG=32,NWG=64,KWG=16,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
path=$(TESSEL_TUNING_DIR=/tmp/tdir $t tune --show --device nvidia 2>/dev/null | sed -n 's/^tuning database of .*: \(\/.*\.tuning\)$/\1/p' | head -1)
for f in F1 F3 F5; do mkdir -p /tmp/td_$f; { echo "tessel-tuning 2"; echo "device=nvidia_h100_80gb_hbm3 gemm single few tiled2d:${!f} measured=512x512x512+256x256x256"; } > /tmp/td_$f/$(basename "$path"); done
run gemm --size 4096 --precision single $c --csv $O/g_4096.csv > /dev/null
for rep in 1 2; do for n in 3000 4000 4096; do
  mid blas3 --op trsm -m $n -n $n --precision single $c --csv $O/t_${n}_mid_$rep.csv > /dev/null
  run blas3 --op trsm -m $n -n $n --precision single $c --csv $O/t_${n}_new_$rep.csv > /dev/null
  for f in F1 F3 F5; do TESSEL_TUNING_DIR=/tmp/td_$f run blas3 --op trsm -m $n -n $n --precision single $c $([ $rep = 1 ] && echo --verify) --csv $O/t_${n}_${f}_$rep.csv > /dev/null; done
done; done
for f in F1 F3; do TESSEL_TUNING_DIR=/tmp/td_$f TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace3_$f.err; done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/[gt]_*.csv')):
    b = os.path.basename(f)[:-4]
    if b.startswith('t_'): b = b.rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!' + r['status']))
for b in sorted(t): print('%-28s %s' % (b, ' '.join(t[b])))
PY
for f in $O/trace3_*.err; do python3 .lead/s10/tl.py $f > ${f%.err}.tl.txt 2>&1; head -7 ${f%.err}.tl.txt; done
cd $OUT && tar czf res.tgz r8 && rm -rf r8
