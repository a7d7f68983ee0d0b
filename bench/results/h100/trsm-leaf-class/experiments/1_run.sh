#!/bin/bash
# session 12 call 1: trsm-few-search.sh with its defaults
O=$OUT/r1; mkdir -p $O
bash .device/setup.sh > $O/setup.log 2>&1 || { tail -20 $O/setup.log; exit 1; }
bash bench/scripts/trsm-few-search.sh $O > $O/search.log 2>&1
tail -30 $O/search.log
cat $O/index.txt | cut -c1-200
cd $OUT && tar czf res.tgz r1 --exclude='r1/build*' && rm -rf r1
