#!/usr/bin/env bash
# A hand sweep of tiled2d configurations on the GPU machine (issue 4, rounds 3 and 4): each
# configuration verified against OpenBLAS and timed (median of 10 after 2 warm-ups) on each of its
# shapes, then the ptxas report of every program built and a summary of the best per precision
# and shape.
#   bash .device/setup.sh && bash bench/scripts/gemm-sweep.sh "$OUT" LIST
# LIST: one "precision shapes configuration" per line; shapes: comma-separated N or MxNxK;
# configuration: tiled2d parameters without the "tiled2d:" prefix, or "peers" for tessel auto
# beside CLBlast and cuBLAS on the same data. Each committed sweep keeps its list beside its
# results: bench/results/h200/round4/*/sweep.txt, bench/results/h100/round4/*/sweep.txt,
# bench/results/h200/gemm-round3/gemm_sweep_round3?.txt (bench/README.md's index).
set -uo pipefail
source bench/scripts/lib.sh "$1"
list=$2
csv=$out/sweep.csv
echo "op,variant,precision,m,n,k,device,local,repeat,kernel_ms,gflops,gbps,build_ms,upload_ms,download_ms,max_rel_err,status" > "$csv"
while read -r prec shapes cfg; do
  case $prec in ''|\#*) continue ;; esac
  for shape in ${shapes//,/ }; do
    IFS=x read -r m n k <<< "$shape"
    dims="-m $m -n ${n:-$m} -k ${k:-$m}"
    if [ "$cfg" = peers ]; then
      RUN_TIMEOUT=120 run gemm --device $d --precision "$prec" $dims --peers clblast,cublas \
        --verify --repeat 10 --warmup 2 --csv - | grep '^gemm' >> "$csv"
    else
      RUN_TIMEOUT=60 run gemm --device $d --precision "$prec" --variant "tiled2d:$cfg" $dims \
        --verify --repeat 10 --warmup 2 --csv - | grep '^gemm' >> "$csv"
    fi
  done
done < "$list"
dump_ptx tiled2d
# best per precision, printed last
python3 - "$csv" "$out/ptx/index.txt" <<'PY' | tee "$out/summary.txt"
import csv, re, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['status'] == 'ok']
idx = {}
for line in open(sys.argv[2]):
    f = line.rstrip('\n').split('\t')
    if len(f) >= 4:
        idx[' '.join(sorted(o for o in f[2].split() if not o.startswith('-DONLY')))] = f[3]
shapes = []
for r in rows:
    sh = (r['precision'], r['m'], r['n'], r['k'])
    if sh not in shapes: shapes.append(sh)
for sh in shapes:
    rs = sorted((r for r in rows if (r['precision'], r['m'], r['n'], r['k']) == sh),
                key=lambda r: -float(r['gflops']))
    peers = ' '.join('%s %.0f' % (r['variant'], float(r['gflops'])) for r in rs
                     if ':' not in r['variant'])
    print('== %s %sx%sx%s: %s' % (sh + (peers,)))
    for r in [r for r in rs if ':' in r['variant']][:4]:
        cfg = r['variant'].split(':', 1)[1]
        opts = ['-D' + kv for kv in cfg.split(',') if not kv.startswith(('ALIAS', 'KSPLIT', 'PEEL'))]
        key = ' '.join(sorted(opts + ['-DPRECISION=' + ('32' if sh[0] == 'single' else '64')]))
        rep = idx.get(key, '')
        regs = re.search(r'Used (\d+) registers', rep)
        spill = re.search(r'(\d+) bytes spill stores', rep)
        print('  %8.0f  %s  [regs %s, spill stores %s]' % (float(r['gflops']), cfg,
              regs.group(1) if regs else '?', spill.group(1) if spill else '?'))
PY
(cd "$out" && tar czf results.tgz *.csv *.txt ptx/index.txt)
