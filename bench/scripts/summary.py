#!/usr/bin/env python3
"""The short table a suite script prints at its end (the CSVs are the record).

   summary.py DIR      every CSV in DIR, one line per row

tessel's CSVs (op, variant, ...): the case (file name), variant, precision, shape, kernel ms,
GFLOP/s or GB/s, the tessel row's ratio to each peer row of the same file (tessel's row being
`auto` where there is one, else the first non-peer row), max relative error and status. The
drop-in harness's CSV (label, case, n, run, seconds, gflops): the best run of each label, and
tessel's ratio to NVBLAS and OpenBLAS. status.csv: the cases that did not end ok."""
import csv
import glob
import os
import sys

PEERS = ('clblast', 'cublas', 'openblas', 'cuda_naive', 'cuda_tiled', 'copy')


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return 0.0


def shape(r):
    m, n, k = r.get('m', ''), r.get('n', ''), r.get('k', '')
    if m and k and (m, n) != (n, k):
        return '%sx%sx%s' % (m, n, k)
    if m and m != n:
        return '%sx%s' % (m, n)
    return n or m


def tessel_file(name, rows):
    gbps = any(r.get('gbps') for r in rows) and not any(r.get('gflops') and r.get('op', '') in
                                                          ('gemm', 'gemm_batched', 'symm', 'syrk',
                                                           'syr2k', 'trmm', 'trsm') for r in rows)
    key = 'gbps' if gbps else 'gflops'
    unit = 'GB/s' if gbps else 'GFLOP/s'
    own = [r for r in rows if r.get('variant', '') not in PEERS and r.get('status', '') == 'ok']
    for r in rows:
        ref = None
        if r.get('variant', '') in PEERS and r.get('status', '') == 'ok':
            same = [o for o in own if o.get('precision', '') == r.get('precision', '') and shape(o) == shape(r)]
            pick = [o for o in same if o['variant'] == 'auto'] or same
            if pick and num(r.get(key)):
                ref = num(pick[0].get(key)) / num(r.get(key))
        print('%-28s %-14s %-9s %-16s %9.3f ms %10.1f %-7s %-14s %-10s %s' % (
            name[:28], r.get('variant', '')[:14], r.get('precision', ''), shape(r), num(r.get('kernel_ms')),
            num(r.get(key)), unit, ('tessel %.2fx' % ref) if ref else '', r.get('max_rel_err', ''),
            r.get('status', '')))


def dropin_file(name, rows):
    best = {}
    for r in rows:
        k = (r['case'], r['n'], r['label'])
        best[k] = max(best.get(k, 0.0), num(r['gflops']))
    cases = sorted({(c, n) for c, n, _ in best}, key=lambda x: (x[0], int(x[1]) if x[1].isdigit() else 0))
    print('%s: GFLOP/s, best run' % name)
    print('  %-14s %6s %10s %10s %10s %9s %10s' % ('case', 'n', 'tessel', 'nvblas', 'openblas',
                                                    'x nvblas', 'x openblas'))
    for c, n in cases:
        t, v, o = (best.get((c, n, l), 0.0) for l in ('tessel', 'nvblas', 'openblas'))
        f = lambda x: '%10.1f' % x if x else '%10s' % '-'
        print('  %-14s %6s %s %s %s %9s %10s' % (c, n, f(t), f(v), f(o),
                                                 '%.2f' % (t / v) if t and v else '-',
                                                 '%.2f' % (t / o) if t and o else '-'))


def main(d):
    for path in sorted(glob.glob(os.path.join(d, '*.csv'))):
        name = os.path.basename(path)[:-4]
        with open(path, newline='') as f:
            rows = list(csv.DictReader(f))
        if name == 'status' or not rows:
            continue
        cols = rows[0].keys()
        if 'op' in cols and 'variant' in cols:
            tessel_file(name, rows)
        elif 'label' in cols and 'gflops' in cols:
            dropin_file(name, rows)
        else:
            print('%-28s %d rows (%s)' % (name, len(rows), ','.join(cols)))
    status = os.path.join(d, 'status.csv')
    if os.path.exists(status):
        with open(status, newline='') as f:
            bad = [r for r in csv.DictReader(f) if r.get('status', '') != 'ok']
        for r in bad:
            print('NOT OK: %s (%s, exit %s)' % (r['case'], r.get('status', ''), r['exit']))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
