#!/bin/bash
bash .device/setup.sh > /tmp/setup.log 2>&1 || { tail -20 /tmp/setup.log; exit 1; }
O=$OUT/final
BASE=.lead/s12/base.tgz bash bench/results/h100/trsm-leaf-class/run.sh $O > $O.log 2>&1
tail -30 $O.log
cd $OUT && tar czf res.tgz final final.log && rm -rf final
