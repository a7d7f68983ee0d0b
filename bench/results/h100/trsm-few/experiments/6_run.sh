#!/bin/bash
# session 10 call 6: the new few entry against the old one (user file) under every single-precision
# Level-3 routine; TRSM 4096 timelines (TESSEL_TRACE=3) with 1, 2, 4 parts
O=$OUT/r6; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
F0="MWG=64,NWG=64,KWG=8,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,ALIAS=0,DBUF=1,APAD=4,WN=0,KSPLIT=0,DIRECT=2"
path=$(TESSEL_TUNING_DIR=/tmp/tdir $t tune --show --device nvidia 2>/dev/null | sed -n 's/^tuning database of .*: \(\/.*\.tuning\)$/\1/p' | head -1)
mkdir -p /tmp/tdir_old; { echo "tessel-tuning 2"; echo "device=nvidia_h100_80gb_hbm3 gemm single few tiled2d:$F0 source=F0"; } > /tmp/tdir_old/$(basename "$path")
for n in 2048 4096 8192; do run gemm --size $n --precision single $c --csv $O/g_$n.csv > /dev/null; done
for rep in 1 2; do for n in 2048 4096 8192; do
  for op in symm syrk syr2k trmm trsm; do
    TESSEL_TUNING_DIR=/tmp/tdir_old run blas3 --op $op -m $n -n $n -k $n --precision single $c --csv $O/l_${op}_${n}_old_$rep.csv > /dev/null
    run blas3 --op $op -m $n -n $n -k $n --precision single $c $([ $rep = 1 ] && [ $n != 8192 ] && echo --verify) --csv $O/l_${op}_${n}_new_$rep.csv > /dev/null
  done
  for x in "--side right" "--uplo upper --trans t"; do tag=$(echo $x | tr -d ' -')
    TESSEL_TUNING_DIR=/tmp/tdir_old run blas3 --op trmm -m $n -n $n $x --precision single $c --csv $O/l_trmm${tag}_${n}_old_$rep.csv > /dev/null
    run blas3 --op trmm -m $n -n $n $x --precision single $c --csv $O/l_trmm${tag}_${n}_new_$rep.csv > /dev/null
  done
done; done
for st in 1 2 4; do
  for p in single double; do run blas3 --op trsm -m 4096 -n 4096 --streams $st --precision $p $c --csv $O/s_${p}_s$st.csv > /dev/null; done
  TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --streams $st --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace3_single_s$st.err
done
TESSEL_TRACE=3 $t blas3 --op trsm -m 4096 -n 4096 --precision double --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace3_double_s2.err
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/[gls]_*.csv')):
    b = os.path.basename(f)[:-4]
    if b.startswith('l_'): b = b.rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!'))
for b in sorted(t): print('%-34s %s' % (b, ' '.join(t[b])))
PY
cd $OUT && tar czf res.tgz r6 && rm -rf r6
