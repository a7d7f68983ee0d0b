#!/bin/bash
# session 12 call 5: the few class's threshold for triangular-operand launches (TESSEL_FEW_W, tenths of a
# wave; 20 = shipped): TRSM and TRMM single over sizes
O=$OUT/r5; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
for r in 1 2; do
  v=""; [ $r = 1 ] && v=--verify
  for w in 20 15 10; do
    for n in 3000 4000 4096 5000 6000 8192; do
      [ $r = 2 ] && [ $n != 4096 ] && [ $n != 8192 ] && continue
      TESSEL_FEW_W=$w $t blas3 --op trsm --size $n --precision single $c $v --csv $O/t_trsm_${n}_w${w}_$r.csv > /dev/null 2>>$O/err.txt
    done
    TESSEL_FEW_W=$w $t blas3 --op trsm --size 8192 --side right --uplo upper --precision single $c $v --csv $O/t_trsmRU_8192_w${w}_$r.csv > /dev/null 2>>$O/err.txt
    TESSEL_FEW_W=$w $t blas3 --op trsm --size 4096 --side right --uplo upper --trans t --precision single $c $v --csv $O/t_trsmRUT_4096_w${w}_$r.csv > /dev/null 2>>$O/err.txt
    for n in 2048 4096 8192; do
      TESSEL_FEW_W=$w $t blas3 --op trmm --size $n --precision single $c $v --csv $O/t_trmm_${n}_w${w}_$r.csv > /dev/null 2>>$O/err.txt
    done
    TESSEL_FEW_W=$w $t blas3 --op trmm --size 8192 --side right --uplo upper --precision single $c $v --csv $O/t_trmmRU_8192_w${w}_$r.csv > /dev/null 2>>$O/err.txt
  done
done
python3 - $O <<'PY' | tee $O/summary.txt
import csv, glob, os, sys, collections
O = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(O + '/t_*.csv')):
    b = os.path.basename(f)[:-4].rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        t[b].append('%.3f%s' % (float(r['kernel_ms']), '' if r['status'] == 'ok' else '!' + r['status']))
for b in sorted(t, key=lambda b: (b.rsplit('_', 1)[0], -int(b.rsplit('w', 1)[1]))): print('%-26s %s' % (b, ' '.join(t[b])))
PY
head -5 $O/err.txt
for w in 20 10; do TESSEL_FEW_W=$w TESSEL_TRACE=3 $t blas3 --op trsm --size 8192 --precision single --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_8192_w$w.err; python3 .lead/s10/tl.py $O/trace_8192_w$w.err > $O/tl_8192_w$w.txt 2>&1; done
tail -3 $O/tl_8192_w*.txt
cd $OUT && tar czf res.tgz r5 && rm -rf r5
