#!/bin/bash
# session 13 call 1: queue priorities on NVIDIA's OpenCL; TRSM single 4096 timelines (1 and 2 parts)
O=$OUT/r1; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
gcc -O1 .lead/s13/prio.c -o /tmp/prio -lOpenCL && /tmp/prio > $O/prio.txt 2>&1
grep -v extensions $O/prio.txt; grep -o "cl_khr_priority[a-z_]*\|cl_khr_throttle[a-z_]*" $O/prio.txt
source bench/scripts/lib.sh $O > /dev/null
c="--device nvidia --repeat 10 --warmup 2"
for st in 2 1; do
  run blas3 --op trsm --size 4096 --precision single --streams $st $c --csv $O/trsm_s$st.csv > /dev/null
  TESSEL_TRACE=3 $t blas3 --op trsm --size 4096 --precision single --streams $st --device nvidia --repeat 1 --warmup 1 > /dev/null 2> $O/trace_s$st.err
  python3 .lead/s10/tl.py $O/trace_s$st.err > $O/tl_s$st.txt 2>&1
done
run gemm --size 4096 --precision single $c --csv $O/gemm.csv > /dev/null
grep -h auto $O/trsm_s*.csv | cut -d, -f1-12; grep -h tiled $O/gemm.csv | head -3 | cut -d, -f1-12
cat $O/tl_s2.txt | cut -c1-100; cat $O/tl_s1.txt | cut -c1-100
cd $OUT && tar czf res.tgz r1 && rm -rf r1
