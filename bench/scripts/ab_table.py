#!/usr/bin/env python3
"""The table of a side-by-side comparison of two trees (bench/scripts/lib.sh's base_tree): the
auto rows of OUT/base_PREC_CASE_ROUND.csv and OUT/new_PREC_CASE_ROUND.csv, one line per precision
and case with each round's kernel ms, new / base of the best round, and the error and status of
the new tree's first round (the verified one).
  python3 bench/scripts/ab_table.py OUT 'HEADER' | tee OUT/summary.txt"""
import collections
import csv
import glob
import os
import sys

out, header = sys.argv[1], sys.argv[2]
t = collections.defaultdict(list)
for f in sorted(glob.glob(out + '/[bn]*_*_*_[12].csv')):
    who, pr, rest = os.path.basename(f)[:-4].split('_', 2)
    if who not in ('base', 'new'):
        continue
    tag = rest.rsplit('_', 1)[0]
    for r in csv.DictReader(open(f)):
        if r['variant'].startswith('auto'):
            t[(pr, tag, who)].append((float(r['kernel_ms']), r['status'], r.get('max_rel_err', '')))
print(header)
print('%-7s %-18s %-17s %-17s %7s %s' % ('prec', 'case', 'base', 'new', 'new/base', 'err'))
for (pr, tag) in sorted({(k[0], k[1]) for k in t}):
    b, n = t.get((pr, tag, 'base'), []), t.get((pr, tag, 'new'), [])
    if not b or not n:
        continue
    ratio = min(x[0] for x in n) / min(x[0] for x in b)
    print('%-7s %-18s %-17s %-17s %7.3f %s %s' % (pr, tag, ' '.join('%.3f' % x[0] for x in b),
          ' '.join('%.3f' % x[0] for x in n), ratio, n[0][2], n[0][1]))
