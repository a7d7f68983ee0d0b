#!/usr/bin/env python3
"""Short summaries of tessel CSV files, for the GPU scripts' last lines (the CSVs are the record).
   csv_summary.py rows FILE...     one line per row: file, variant, precision, m n k, GFLOP/s,
                                   max relative error, status
   csv_summary.py vs-copy FILE...  one line per file: every ok row's GB/s, and each variant's
                                   ratio to the copy row (peers included)
   csv_summary.py level3 FILE...   one line per Level-3 or batched row of tessel: GFLOP/s, and
                                   its ratio to tessel's gemm at the same precision and n (from
                                   the gemm_* files), to CLBlast and to cuBLAS in the same file
   csv_summary.py x-gemm FILE...   one line per row of every file: ms, TFLOP/s and, for a square
                                   one, its ratio to the auto row of a gemm_* file at the same
                                   precision and m (the TRSM scripts' summaries)"""
import csv, os, sys


def gemm_rate(files, prec, n):
    """tessel's GEMM GFLOP/s at n^3 and precision prec in the gemm_* files, or None."""
    for f in files:
        if not os.path.basename(f).startswith('gemm_'):
            continue
        for r in csv.DictReader(open(f, newline='')):
            if (r['op'] == 'gemm' and r['precision'] == prec and r['n'] == str(n) and
                    r['status'] == 'ok' and r['variant'] not in ('clblast', 'cublas', 'openblas')):
                return float(r['gflops'])
    return None


def level3(name, rows, files):
    if not rows or rows[0]['op'] == 'gemm':
        return
    peers = ('clblast', 'cublas', 'openblas')
    rate = {r['variant']: float(r['gflops']) for r in rows if r['status'] == 'ok' and r['gflops']}
    for r in rows:
        if r['variant'] in peers or r['status'] != 'ok':
            continue
        g = float(r['gflops'])
        parts = ['%s %s %s %s n=%s k=%s %.0f GFLOP/s' % (name, r['op'], r['variant'],
                                                         r['precision'], r['n'], r['k'], g)]
        ref = gemm_rate(files, r['precision'], r['n'])
        if ref and r['op'] != 'gemm_batched':
            parts.append('%.2fx gemm' % (g / ref))
        parts += ['%.2fx %s' % (g / rate[p], p) for p in peers if rate.get(p)]
        print(', '.join(parts))


def x_gemm(files):
    g, rows = {}, []
    for f in files:
        for r in csv.DictReader(open(f, newline='')):
            rows.append((os.path.basename(f)[:-4], r))
            if os.path.basename(f).startswith('gemm_') and r['variant'] == 'auto':
                g[(r['precision'], r['m'])] = float(r['gflops'])
    print('# file, variant, precision, m x n, ms, TFLOP/s, x tessel GEMM (same size and '
          'precision), max_rel_err, status')
    for name, r in rows:
        ref = g.get((r['precision'], r['m'])) if r['m'] == r['n'] else None
        x = 'x%.3f' % (float(r['gflops']) / ref) if ref and r['status'] == 'ok' else ''
        print('%-34s %-12s %-7s %5sx%-5s %8.3f ms %6.2f TF %-7s %-10s %s' % (
            name, r['variant'][:12], r['precision'], r['m'], r['n'], float(r['kernel_ms']),
            float(r['gflops']) / 1e3, x, r.get('max_rel_err', ''), r['status']))


def main():
    mode, files = sys.argv[1], sorted(sys.argv[2:])
    if mode == 'x-gemm':
        return x_gemm(files)
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
        elif mode == 'level3':
            level3(name, rows, files)
        else:
            sys.exit('usage: csv_summary.py rows|vs-copy|level3|x-gemm FILE...')


if __name__ == '__main__':
    main()
