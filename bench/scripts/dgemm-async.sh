#!/usr/bin/env bash
# Issue 17, item 3 (DGEMM nearer cuBLAS): tiled2d's FP64 tensor-core configurations fed by the
# asynchronous ring (ASYNC = 2-4 stages of cp.async copies, A staged [m][k] in rows padded by 4
# doubles, B [k][n] padded by 8; FPIPE = fragments double-buffered in registers) against the
# shipped DGEMM (auto: MMA=2 64 x 128 x 8, PF+DBUF register staging) and cuBLAS, double, square
# 4096 and 8192 (median of 10 after 2 warm-ups; every row --verify'd at 4096), then the tuner over
# the ring's part of the space for 120 s (--no-store: the database is the lead's decision), the
# ptxas report (registers, spills) of every program built, and a table. About 6-8 minutes on an
# H100 (the build, ~35 tessel runs, the tune).
#   bash .device/setup.sh && bash bench/scripts/dgemm-async.sh "$OUT"
# Candidates: warp tile = (4 MWG/MDIMC) x (8 NWG/NDIMC); accumulators MWI x NWI doubles a
# work-item; local memory ASYNC x (MWG (KWG + 4) + KWG (NWG + 8)) x 8 bytes within 48 KiB (the
# host refuses more before building); "est" is the tuner's register estimate (<= 255).
set -uo pipefail
source bench/scripts/lib.sh "$1"
RING="SA=1,SB=1,PF=0,DBUF=0,STRIDED=1,VWA=1,APAD=0,WN=0,VW=2"
# name | tiles and instruction | why
cands=(
  "64x128x8 MMA=2 A3|MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,MMA=2,ASYNC=3,FPIPE=0"   # auto's tiles, 8 warps of 32x32, 44544 B, est 120
  "64x128x8 MMA=2 A3 FP|MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,MMA=2,ASYNC=3,FPIPE=1" # est 152
  "64x128x8 MMA=2 A2|MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,MMA=2,ASYNC=2,FPIPE=0"   # 29696 B
  "64x128x8 MMA=2 A3 4w|MWG=64,NWG=128,KWG=8,MDIMC=4,NDIMC=32,MMA=2,ASYNC=3,FPIPE=0" # 4 warps of 64x32, est 192
  "64x128x8 MMA=1 A3|MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,MMA=1,ASYNC=3,FPIPE=0"   # m8n8k4
  "128x128x8 MMA=2 A2|MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,MMA=2,ASYNC=2,FPIPE=0" # 8 warps of 32x64, 41984 B, est 184
  "128x128x8 MMA=2 A2 FP|MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,MMA=2,ASYNC=2,FPIPE=1" # est 232
  "128x128x8 MMA=2 A2 64x32|MWG=128,NWG=128,KWG=8,MDIMC=8,NDIMC=32,MMA=2,ASYNC=2,FPIPE=0" # 8 warps of 64x32, est 192
  "128x64x8 MMA=2 A2 4w|MWG=128,NWG=64,KWG=8,MDIMC=16,NDIMC=8,MMA=2,ASYNC=2,FPIPE=0" # 4 warps of 32x64, 33792 B
  "128x64x8 MMA=2 A2 8w|MWG=128,NWG=64,KWG=8,MDIMC=16,NDIMC=16,MMA=2,ASYNC=2,FPIPE=0" # 8 warps of 32x32
  "64x64x8 MMA=2 A4|MWG=64,NWG=64,KWG=8,MDIMC=8,NDIMC=16,MMA=2,ASYNC=4,FPIPE=0"     # 4 warps of 32x32, 43008 B
  "64x64x16 MMA=2 A2|MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,MMA=2,ASYNC=2,FPIPE=0"   # 38912 B, 2 sub-steps a tile
  "64x64x16 MMA=2 A2 FP|MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,MMA=2,ASYNC=2,FPIPE=1"
  "64x64x16 MMA=3 A2|MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,MMA=3,ASYNC=2,FPIPE=0"   # m16n8k16
  "64x64x16 MMA=3 A2 FP|MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,MMA=3,ASYNC=2,FPIPE=1"
  "32x128x16 MMA=3 A2|MWG=32,NWG=128,KWG=16,MDIMC=4,NDIMC=32,MMA=3,ASYNC=2,FPIPE=0" # 4 warps of 32x32, 45056 B
)
csv=$out/dgemm.csv
echo "op,variant,precision,m,n,k,device,local,repeat,kernel_ms,gflops,gbps,build_ms,upload_ms,download_ms,max_rel_err,status" > "$csv"
: > "$out/names.txt"
for size in 4096 8192; do
  v=; [ $size = 4096 ] && v=--verify
  # the shipped DGEMM (auto) and cuBLAS on the same data
  RUN_TIMEOUT=120 run gemm --device $d --precision double --size $size --peers cublas $v \
    --repeat 10 --warmup 2 --csv - | grep '^gemm' >> "$csv"
  for c in "${cands[@]}"; do
    cfg="${c#*|},$RING"
    [ $size = 4096 ] && echo "tiled2d:$cfg|${c%%|*}" >> "$out/names.txt"
    RUN_TIMEOUT=60 run gemm --device $d --precision double --size $size --variant "tiled2d:$cfg" \
      $v --repeat 10 --warmup 2 --csv - | grep '^gemm' >> "$csv"
  done
done
# The tuner over the ring-capable points (any MMA and ASYNC value; auto is still the
# comparison it reports): the seed and refinement walk stages, FPIPE, MMA and tiles.
RUN_TIMEOUT=300 run tune gemm --device $d --precision double --sizes 4096 --budget-s 120 \
  --fix "$RING" --no-store --csv "$out/tune.csv" | tail -25 | tee "$out/tune.txt"
dump_ptx tiled2d
python3 - "$csv" "$out/names.txt" "$out/ptx/index.txt" <<'PY' | tee "$out/summary.txt"
import csv, re, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]))]
names = dict(l.rstrip('\n').split('|', 1) for l in open(sys.argv[2]) if '|' in l)
# the programs' ptxas reports, by build options (what tsl__tiled2d_options passes for a
# configuration: the double fallback's values overlaid, ALIAS/KSPLIT/PEEL left out, MMA, ASYNC,
# FPIPE, BT only when non-zero, DIRECT 0 with ASYNC)
idx = {}
try:
    for line in open(sys.argv[3]):
        f = line.rstrip('\n').split('\t')
        if len(f) >= 4 and '-DTRI=' not in f[2] and '-DBATCH=' not in f[2]:
            idx[frozenset(o for o in f[2].split() if not o.startswith('-DONLY'))] = f[3]
except OSError:
    pass
axes = 'MWG NWG KWG MDIMC NDIMC VW SA SB PF STRIDED VWA DBUF APAD WN MMA DIRECT ASYNC FPIPE BT'.split()
base = dict(zip(axes, [64, 64, 16, 8, 8, 4, 1, 1, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0]))
def report(variant):
    if not variant.startswith('tiled2d:'):
        return ''
    v = dict(base)
    for kv in variant.split(':', 1)[1].split(','):
        k, x = kv.split('=')
        if k in v: v[k] = int(x)
    opts = {'-DPRECISION=64'} | {'-D%s=%d' % (k, v[k]) for k in axes
                                  if not (k in ('MMA', 'ASYNC', 'FPIPE', 'BT') and not v[k])}
    rep = idx.get(frozenset(opts), '')
    regs = re.search(r'Used (\d+) registers', rep)
    spill = re.search(r'(\d+) bytes spill stores', rep)
    return 'regs %s spill %s' % (regs.group(1) if regs else '?', spill.group(1) if spill else '?')
rate = {}
for r in rows:
    if r['status'] == 'ok' and r['gflops']:
        rate[(r['variant'], r['n'])] = float(r['gflops']) / 1000
order = []
for r in rows:
    if r['variant'] not in order: order.append(r['variant'])
cub = {n: rate.get(('cublas', n)) for n in ('4096', '8192')}
status = {}
for r in rows:
    status.setdefault(r['variant'], []).append(r['status'] + ('' if r['n'] != '4096' or not r['max_rel_err'] else ' err ' + r['max_rel_err']))
print('%-28s %9s %9s %7s %7s  %s' % ('DGEMM TFLOP/s', '4096', '8192', 'x cuB', 'x cuB', 'ptxas; status'))
for v in order:
    t = [rate.get((v, n)) for n in ('4096', '8192')]
    x = ['%.2f' % (a / cub[n]) if a and cub.get(n) else '-' for a, n in zip(t, ('4096', '8192'))]
    name = names.get(v, v)
    print('%-28s %9s %9s %7s %7s  %s; %s' % (name[:28], '%.1f' % t[0] if t[0] else '-',
          '%.1f' % t[1] if t[1] else '-', x[0], x[1], report(v), ', '.join(sorted(set(status.get(v, []))))))
PY
(cd "$out" && tar czf results.tgz *.csv *.txt ptx/index.txt)
