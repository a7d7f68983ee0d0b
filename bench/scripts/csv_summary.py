#!/usr/bin/env python3
"""Short summaries of tessel CSV files, for the GPU scripts' last lines (the CSVs are the record).
   csv_summary.py rows FILE...     one line per row: file, variant, precision, m n k, GFLOP/s,
                                   max relative error, status
   csv_summary.py vs-copy FILE...  one line per file: every ok row's GB/s, and each variant's
                                   ratio to the copy row (peers included)"""
import csv, os, sys


def main():
    mode, files = sys.argv[1], sorted(sys.argv[2:])
    for f in files:
        rows = list(csv.DictReader(open(f, newline='')))
        name = os.path.basename(f)
        if mode == 'rows':
            for r in rows:
                print(name, r['variant'], r['precision'], r['m'], r['n'], r['k'], r['gflops'],
                      r['max_rel_err'], r['status'])
        elif mode == 'vs-copy':
            bw = {r['variant']: float(r['gbps']) for r in rows if r['status'] == 'ok' and r['gbps']}
            ratios = ['%s/copy %.3f' % (v, g / bw['copy']) for v, g in bw.items()
                      if v != 'copy' and 'copy' in bw]
            print(name, ' '.join('%s %.0f' % kv for kv in bw.items()), ' '.join(ratios))
        else:
            sys.exit('usage: csv_summary.py rows|vs-copy FILE...')


if __name__ == '__main__':
    main()
