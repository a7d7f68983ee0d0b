#!/bin/bash
# Level 3 on PoCL at n = 1024 against OpenBLAS in the same call (the issue's development-machine
# report), on this tree's Release build: bash bench/results/pocl/level3-s13/run.sh [BUILD]
set -eu
b=${1:-build-rel}
cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build "$b" -j "$(nproc)" --target tessel_cli > /dev/null
t=$b/tessel O=bench/results/pocl/level3-s13
export TESSEL_CACHE_DIR=${TESSEL_CACHE_DIR:-$PWD/$b/kc}
{ date -u +"date: %Y-%m-%dT%H:%M:%SZ"; echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') ($(nproc) cores)"; $t devices; } > $O/env.txt 2>&1
: > $O/commands.txt
r() { echo "tessel $*" >> $O/commands.txt; $t "$@" > /dev/null; }
for P in single double; do
  r gemm --size 1024 --precision $P --peers openblas --repeat 10 --warmup 2 --csv $O/gemm_$P.csv
  for X in symm syrk syr2k trmm trsm; do
    r blas3 --op $X -m 1024 -n 1024 -k 1024 --precision $P --verify --peers openblas --repeat 10 --warmup 2 --csv $O/${X}_$P.csv
  done
done
python3 - $O <<'PY' | tee $O/table.md
import csv, sys
O = sys.argv[1]
def rows(f): return list(csv.DictReader(open(f)))
print('| routine | single: tessel | OpenBLAS | ratio | x tessel GEMM | double: tessel | OpenBLAS | ratio | x tessel GEMM |')
print('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
g = {P: float([r for r in rows('%s/gemm_%s.csv' % (O, P)) if r['variant'] != 'openblas'][0]['gflops']) for P in ('single', 'double')}
for X in ('gemm', 'symm', 'syrk', 'syr2k', 'trmm', 'trsm'):
    cells = []
    for P in ('single', 'double'):
        rs = rows('%s/%s_%s.csv' % (O, X, P))
        me = [r for r in rs if r['variant'] != 'openblas'][0]
        ob = [r for r in rs if r['variant'] == 'openblas'][0]
        a, o = float(me['gflops']), float(ob['gflops'])
        ok = '' if me['status'] == 'ok' else ' (' + me['status'] + ')'
        cells += ['%.1f%s' % (a, ok), '%.1f' % o, '%.2f' % (a / o), '%.2f' % (a / g[P])]
    print('| %s | %s |' % (X.upper(), ' | '.join(cells)))
PY
