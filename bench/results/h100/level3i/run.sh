#!/bin/bash
bash .device/setup.sh > /tmp/setup.log 2>&1 || { tail -20 /tmp/setup.log; exit 1; }
O=$OUT/level3i
PART=level3 timeout 560 bash bench/scripts/h100-ring-lead.sh $O > $O.log 2>&1
grep -E "gemm|trsm|trmm" $O/summary.txt | grep -E "auto|cublas|clblast" | head -60 | cut -c1-100
cd $OUT && tar czf res.tgz level3i level3i.log && rm -rf level3i
